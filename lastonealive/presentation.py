"""How Last One Alive's table shows a game (the console's :class:`bitbox.table.session.Presentation`).

* an answer's events are shown step by step: dice tumbling (``Pace.roll``), the "+" re-rolls
  one after another, the medkit's roll, a new turn and the end held a little longer
  (``Pace.turn``), every other event a step (``Pace.step``); each step logs its event when
  its time comes, and the frame drawn meanwhile is the table after all of them (every
  decision of the game is made in the open: nothing is held back);
* the screen is Last One Alive's :class:`~lastonealive.session.TableView`
  (:func:`lastonealive.session.table_view`): the stage (who goes first, the real bag), the
  marks of an answer of several locks, a refusal's reason, the dice tumbling.

It reads public things only: views, events, the table's public state.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bitbox.display.model import LogEntry, ShellView
from bitbox.games.protocol import Game
from bitbox.table.referee import Pace
from bitbox.table.session import Presentation, Step


class LastOneAlivePresentation(Presentation):
    """Last One Alive at the table (see the module docstring)."""

    def steps(self, before: Mapping[str, Any], events: Sequence[Any], after: Mapping[str, Any], game: Game,
              pace: Pace, hold: float) -> Sequence[Step]:
        out: list[Step] = []
        for e in events:
            told = (LogEntry(str(e.kind), dict(e.data)),)
            if e.kind in ("rolled", "rerolled"):
                out.append(Step(told, pace.roll, after, facts={"rolling": tuple(i for i, _ in e.data.get("dice", []))}))
            elif e.kind == "bangs" and e.data.get("chain"):
                chain = list(e.data["chain"])
                for i, f in enumerate(chain):
                    out.append(Step(told if i == len(chain) - 1 else (), pace.roll, after, facts={"chain_face": f}))
            elif e.kind == "medkit":
                out.append(Step(told, pace.roll, after))
            elif e.kind in ("turn", "game_over"):
                out.append(Step(told, pace.turn, after))
            else:
                out.append(Step(told, pace.step, after))
        return out

    def view(self, session: Any, base: ShellView, now: float) -> ShellView:
        from .session import table_view
        return table_view(session, now)


__all__ = ["LastOneAlivePresentation"]

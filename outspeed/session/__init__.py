"""Outspeed's inputs as its journal keeps them, and the pieces its table shows a resolution
with. The table itself is the console's (:mod:`bitbox.table.session`, with
:class:`outspeed.controls.Controls` and :mod:`outspeed.presentation`).

* :func:`apply_input`: one journaled input (``bonus``, ``program``, ``keep``) applied to the
  engine (the journal's replay and resume, and the table through the journal rules);
* :func:`state_hash`: a state's fingerprint (the console's, of ``to_data()``);
* :mod:`.animate`: the public view step by step; :mod:`.log`: what the log says of an event.
"""
from __future__ import annotations

from typing import Any, Mapping

from bitbox.table.referee import fingerprint as state_hash

from ..rules import Choice, Event, Game, RulesError


def apply_input(game: Game, kind: str, data: Mapping[str, Any]) -> list[Event]:
    """Apply one journaled input to the engine (the table and the resume path share it)."""
    if kind == "bonus":
        return game.play_bonus({p: t for p, t in data["plays"].items()})
    if kind == "program":
        return game.program({p: Choice(c[0], c[1]) for p, c in data["choices"].items()})
    if kind == "keep":
        return game.keep(data["player"], data["token"])
    raise RulesError(f"unknown input kind {kind!r}")


__all__ = ["apply_input", "state_hash"]

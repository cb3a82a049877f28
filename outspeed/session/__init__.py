"""Outspeed's inputs as its journal keeps them, and the pieces its table shows a resolution
with. The table itself is the console's (:mod:`bitbox.table.session`, with
:class:`outspeed.controls.Controls` and :mod:`outspeed.presentation`).

* :func:`apply_input`: one journaled input (``bonus``, ``program``, ``keep``, or the
  protocol's ``answers``) applied to the engine, as the journal's rules apply it;
* :func:`state_hash`: a state's fingerprint (the console's, of ``to_data()``);
* :mod:`.animate`: the public view step by step; :mod:`.log`: what the log says of an event.
"""
from __future__ import annotations

from typing import Any, Mapping

from bitbox.table.referee import fingerprint as state_hash

from ..rules import Event, Game


def apply_input(game: Game, kind: str, data: Mapping[str, Any]) -> list[Event]:
    """Apply one journaled input to the engine, in place: the journal's rules do
    (:data:`outspeed.journaling.RULES`, through the protocol's ``Game.apply``)."""
    from ..journaling import RULES
    return RULES.apply_input(game, kind, data)


__all__ = ["apply_input", "state_hash"]

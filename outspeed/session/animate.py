"""Step-by-step public views: fold the public values the engine's events carry
(:attr:`outspeed.rules.Event.public`) over the public view from before an input, so the
table can show a resolution as it happens (costs, then gains, then boards and eliminations)
without ever looking at hidden state. Nothing here knows a rule: each event says which
public fields it set and to what (the engine captured them as it applied the event), and
this only writes them. After an input's last event the fold is the engine's own
``public_view()`` (tests/table/test_animate.py checks it over random games), but for
``phase`` and ``drawing``, which the session takes from the engine when the steps end.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

from ..rules import Event


def apply_event(view: Mapping[str, Any], event: Event, token_mode: str = "virtual") -> dict[str, Any]:
    """A new public view with ``event``'s public values written (``token_mode`` is unused,
    kept for callers: the engine's values already account for it)."""
    v = copy.deepcopy(dict(view))
    for path, value in event.public:
        if path[0] == "players":
            for p in v.get("players", ()):
                if p["player"] == path[1]:
                    p[path[2]] = value
                    break
        elif len(path) == 2:
            v.setdefault(path[0], {})[path[1]] = copy.deepcopy(value)
        else:
            v[path[0]] = copy.deepcopy(value)
    return v

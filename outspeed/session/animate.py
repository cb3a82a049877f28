"""Step-by-step public views: apply the engine's (public) events one at a time to the public
view from before an action, so the table can show a resolution as it happens (costs, then
gains, then boards and eliminations) without ever looking at hidden state. At the end of the
steps the session switches to the engine's own ``public_view()``, which this only anticipates.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

from ..rules import Event


def _player(view: dict[str, Any], name: str) -> dict[str, Any] | None:
    for p in view.get("players", ()):
        if p["player"] == name:
            return p
    return None


def apply_event(view: Mapping[str, Any], event: Event, token_mode: str = "virtual") -> dict[str, Any]:
    """A new public view with ``event`` applied (unknown events change nothing)."""
    v = copy.deepcopy(dict(view))
    d = event.data
    p = _player(v, d["player"]) if isinstance(d.get("player"), str) else None
    k = event.kind
    if k == "moved" and p is not None:
        p["zone"] = d["to"]
    elif k in ("fuel", "pay") and p is not None and "total" in d:
        p["fuel"] = d["total"]
    elif k == "bonus_played" and p is not None:
        p["tokens"] = max(0, p.get("tokens", 0) - 1)
    elif k == "draw" and p is not None:
        p["tokens"] = p.get("tokens", 0) + (d.get("drawn", 1) if token_mode == "physical" else 1)
    elif k == "eliminated" and p is not None:
        p.update(active=False, zone=None, fuel=0, tokens=0)
    elif k == "board_laid":
        v.setdefault("track", {})["boards"] = 3
    elif k == "board_removed":
        track = v.setdefault("track", {})
        track["rear"] = d["last"] + 1
        track["boards"] = max(1, track.get("boards", 2) - 1)
        v["force_fields"] = [z for z in v.get("force_fields", []) if z > d["last"]]
    elif k == "marker_placed":
        v["force_fields"] = sorted([*v.get("force_fields", []), d["zone"]])
        v["markers_left"] = max(0, v.get("markers_left", 0) - 1)
    elif k == "markers_removed":
        v["force_fields"] = [z for z in v.get("force_fields", []) if z != d["zone"]]
        v["markers_left"] = v.get("markers_left", 0) + d.get("count", 0)
    elif k == "programmed" and p is not None:
        v.setdefault("revealed", {})[d["player"]] = [d["path"], d.get("number")]
    elif k == "game_over":
        v["finished"] = True
        v["winners"] = list(d.get("winners", []))
    return v

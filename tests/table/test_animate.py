"""The step-by-step screen state comes from the engine: folding the public values that the
events carry (``Event.public``, written by ``session.animate.apply_event``) over the public
view from before each input gives the engine's ``public_view()`` after it, over random games
(virtual and physical tokens, 3-6 players, eliminations, third boards, force fields)."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outspeed.bots import RandomBot
from outspeed.rules import EventKind, Game
from outspeed.session.animate import apply_event

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")

PROMPT = ("phase", "drawing")       # whose input is awaited: taken from the engine, no event says it


def _board(view):
    return json.dumps({k: v for k, v in view.items() if k not in PROMPT}, sort_keys=True)


def play_folding(content, seed: int, players: int, mode: str) -> set[str]:
    game = Game.new(COLOURS[:players], content.tiles, seed=seed, dice=content.dice,
                    token_counts=content.token_counts, markers=content.markers, token_mode=mode)
    bots = {p: RandomBot(seed * 10 + i, bonus_rate=0.7) for i, p in enumerate(game.state.players)}
    s = game.state
    kinds: set[str] = set()
    while not s.finished:
        before = game.public_view()
        if s.phase == "bonus":
            events = game.play_bonus({p: bots[p].bonus(None, legal) for p, legal in game.bonus_options().items()})
        elif s.phase == "programming":
            events = game.program({p: bots[p].program(None, legal) for p, legal in game.program_options().items()})
        else:
            p = s.draw_queue[0]
            events = game.keep(p, bots[p].keep(None, game.keep_options(p)))
        view = before
        for e in events:
            view = apply_event(view, e, mode)
            kinds.add(e.kind)
            for q in view["players"]:            # never a count below zero on the way
                assert q["tokens"] >= 0 and q["fuel"] >= 0
        assert _board(view) == _board(game.public_view()), [e.text() for e in events]
    return kinds


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(3, 6), st.sampled_from(["virtual", "physical"]))
def test_the_fold_of_the_events_is_the_engines_public_view(content, seed, players, mode):
    play_folding(content, seed, players, mode)


def test_the_fold_meets_the_cases_that_went_wrong(content):
    """Over fixed seeds: virtual draws and keeps, board removals with markers on them."""
    kinds: set[str] = set()
    for seed in range(40):
        kinds |= play_folding(content, seed, 3 + seed % 4, "virtual" if seed % 3 else "physical")
    assert {EventKind.DRAW, EventKind.BOARD_REMOVED, EventKind.MARKER_PLACED, EventKind.MARKERS_REMOVED,
            EventKind.ELIMINATED, EventKind.TILE_REVEALED, EventKind.GAME_OVER} <= kinds

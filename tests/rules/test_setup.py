"""Setup (RULES.md "Setup"): tile order, faces, ships, fuel, the bonus pile."""
from collections import Counter

import pytest

from outspeed.rules import Game, RulesError
from outspeed.rules.game import START_FUEL, START_ZONE

from .helpers import new_game


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_normal_setup(content, players):
    g = new_game(content, players, seed=11)
    s = g.state
    order = [s.tile] + s.stack
    assert len(order) == 13                                    # 12 race tiles + 1 finish tile
    assert sorted(t.number for t in order[:12]) == list(range(1, 13))
    assert not any(t.finish for t in order[:12])
    assert order[12].finish and order[12].number in (13, 14, 15, 16)
    assert s.face == s.next_face == ("3-4" if players <= 4 else "5-6")
    assert all(s.zone[p] == START_ZONE == 3 for p in s.players)
    assert all(s.fuel[p] == START_FUEL == 12 for p in s.players)
    assert all(s.held[p] == [] for p in s.players)            # turn 1: nobody holds a token
    assert (s.rear, s.boards, s.front) == (1, 2, 14)
    assert Counter(s.pile) == Counter(content.token_counts) and len(s.pile) == 32
    assert s.markers == [] and s.marker_total == 7
    assert s.phase == "bonus" and s.turn == 1


def test_first_game_order_is_1_to_13(content):
    s = new_game(content, 4, seed=5, first_game=True).state
    assert [t.number for t in [s.tile] + s.stack] == list(range(1, 14))
    assert s.stack[-1].finish and s.stack[-1].number == 13


def test_tile_order_comes_from_the_seed(content):
    orders = {tuple(t.number for t in [g.state.tile] + g.state.stack)
              for g in (new_game(content, 4, seed=s) for s in range(20))}
    assert len(orders) > 15                                    # shuffled
    a, b = new_game(content, 4, seed=3), new_game(content, 4, seed=3)
    assert a.to_data() == b.to_data()


def test_every_finish_tile_can_be_drawn(content):
    finishes = {new_game(content, 3, seed=s).state.stack[-1].number for s in range(200)}
    assert finishes == {13, 14, 15, 16}


@pytest.mark.parametrize("n", [0, 2, 7])
def test_player_count_is_3_to_6(content, n):
    with pytest.raises(RulesError, match="3 to 6 players"):
        Game.new([f"p{i}" for i in range(n)], content.tiles)


def test_players_are_distinct(content):
    with pytest.raises(RulesError, match="distinct"):
        Game.new(["red", "red", "blue"], content.tiles)


def test_physical_tokens_keep_no_pile(content):
    s = new_game(content, 3, seed=1, token_mode="physical").state
    assert s.pile == [] and s.token_mode == "physical"

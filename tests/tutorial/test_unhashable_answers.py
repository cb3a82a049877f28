"""An answer must be hashable (docs/games.md, the protocol's `Prompt`): a composite answer is a
tuple, not a list. A game whose prompts offer lists fails the conformance checks with a line
saying so, where it was "TypeError: unhashable type: 'list'" (found by a game of card sets
written from the docs alone). The tutorial game, its bids offered as one-card lists."""
from __future__ import annotations

from typing import Any

import pytest

from bitbox.games import Prompt
from bitbox.games.conformance import ConformanceError, check_all, check_random_play

from .goofspiel import Goofspiel, GoofspielCartridge


class ListBids(Goofspiel):
    def prompts(self) -> Any:
        return tuple(Prompt(p.player, p.kind, tuple([c] for c in p.options), p.context) for p in super().prompts())

    def refusal(self, player: str, action: Any) -> str | None:
        return super().refusal(player, action[0] if isinstance(action, list) and len(action) == 1 else action)

    def apply(self, answers: Any) -> Any:
        return super().apply({p: a[0] if isinstance(a, list) and len(a) == 1 else a for p, a in answers.items()})


class ListCartridge(GoofspielCartridge):
    def new(self, players: Any, seed: int, options: Any) -> Goofspiel:
        game = super().new(players, seed, options)
        game.__class__ = ListBids
        return game

    def action_to_data(self, action: Any) -> Any:
        return list(action)

    def action_from_data(self, data: Any) -> Any:
        return list(data)


def test_a_list_answer_is_named_by_the_checks() -> None:
    with pytest.raises(ConformanceError) as e:
        check_random_play(ListCartridge(), 2, 0)
    assert str(e.value) == ("goofspiel, 2 players, seed 0, step 0: red's bid prompt offers [1], which is not hashable: "
                            "an answer must be (a tuple, not a list; docs/games.md)")
    failed = dict(check_all(ListCartridge()))
    assert "which is not hashable" in str(failed["random play, 2 players"])
    assert dict(check_all(GoofspielCartridge()))["random play, 2 players"] is None

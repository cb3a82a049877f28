"""The search bot (bitbox.bots.search): it decides from its player's information only, on any
cartridge, and is seated by name in every simulate command."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bitbox.bots import LazyView, RandomBot, make_bot, play, seat_names
from bitbox.bots.search import Budget, SearchBot, determinise, rollout_bot_name
from bitbox.games import Cartridge, Game, GameError, Player, Prompt, find
from bitbox.games import conformance as cf


def dump(game: Game) -> str:
    return json.dumps(game.to_data(), sort_keys=True)


def decision_points(cartridge: Cartridge, players: int, seed: int, wanted: int) -> list[tuple[Game, Prompt]]:
    """Games stopped at prompts with several options (copies), from a random game."""
    names = cf.player_names(cartridge, players)
    game = cartridge.new(names, seed, {})
    bots = {p: RandomBot(seed * 10 + k) for k, p in enumerate(names)}
    found: list[tuple[Game, Prompt]] = []
    step = 0
    while not game.finished and len(found) < wanted:
        prompts = game.prompts()
        if step % 3 == 1:
            for prompt in prompts:
                if len(prompt.options) > 1:
                    found.append((cartridge.from_data(game.to_data()), prompt))
                    break
        game.apply({p.player: bots[p.player].choose({}, p) for p in prompts})
        step += 1
    return found


@pytest.mark.parametrize("name, players, points", [("outspeed", 4, 4), ("lastonealive", 3, 2)])
def test_same_decisions_in_games_that_differ_only_in_what_the_player_cannot_see(name: str, players: int,
                                                                                 points: int) -> None:
    cartridge = find(name)
    differed = 0
    for game, prompt in decision_points(cartridge, players, 3, points):
        one = cartridge.redeal(game, 11, keep=prompt.player)
        two = cartridge.redeal(game, 22, keep=prompt.player)
        differed += dump(one) != dump(two)
        before = (dump(one), dump(two))
        picks = []
        for twin in (one, two):
            (asked,) = [p for p in twin.prompts() if p.player == prompt.player]
            assert asked == prompt
            bot = SearchBot(cartridge, 5, Budget(rollouts=4))
            picks.append(bot.decide(twin, asked))
        assert picks[0].chosen == picks[1].chosen
        assert picks[0].scores == picks[1].scores           # every rollout came out the same
        assert (dump(one), dump(two)) == before             # searching changes nothing in the game
    assert differed >= 1                                    # the hidden parts really were different


def test_a_cartridge_whose_redeal_ignores_keep_is_searched_by_matching_redeals() -> None:
    outspeed = find("outspeed")

    class Plain:
        """Outspeed whose redeal ignores ``keep`` (draws everything hidden again)."""

        def redeal(self, game: Game, seed: int, keep: Player | None = None) -> Game:
            return outspeed.redeal(game, seed)

        def __getattr__(self, attr: str) -> object:
            return getattr(outspeed, attr)

    plain = Plain()
    game, prompt = next((g, p) for g, p in decision_points(outspeed, 3, 1, 12) if p.kind == "program")
    matched = determinise(plain, game, prompt.player, 4)            # type: ignore[arg-type]
    assert matched is not None
    assert json.dumps(matched.private_view(prompt.player), sort_keys=True) == \
        json.dumps(game.private_view(prompt.player), sort_keys=True)
    bot = SearchBot(plain, 1, Budget(rollouts=4))                   # type: ignore[arg-type]
    assert bot.decide(game, prompt).chosen in prompt.options


def test_a_simultaneous_phase_is_searched_from_the_players_own_prompt() -> None:
    """Outspeed's programming: every player's prompt is open at once; the bot answers its own
    and the game is left as it was (nobody's answer is applied or seen)."""
    c = find("outspeed")
    game, prompt = next((g, p) for g, p in decision_points(c, 4, 2, 12) if p.kind == "program")
    assert len(game.prompts()) > 1
    before = dump(game)
    bot = make_bot(c, "search", 3, Budget(rollouts=8))
    choice = bot.choose(LazyView(game, prompt.player), prompt)
    assert choice in prompt.options and dump(game) == before
    assert isinstance(bot, SearchBot) and bot.last is not None and bot.last.rollouts == 8
    assert bot.last.chosen == choice and sum(s.rollouts for s in bot.last.scores) == 8


def test_search_plays_whole_games_and_a_forced_answer_costs_nothing() -> None:
    c = find("lastonealive")
    names = cf.player_names(c, 2)
    bot = SearchBot(c, 0, Budget(rollouts=2))
    game = play(c.new(names, 1, {}), {names[0]: bot, names[1]: make_bot(c, "careful", 1)})
    assert game.finished
    assert bot.choose({}, Prompt(names[0], "x", ("only",))) == "only"
    with pytest.raises(GameError, match="needs the game"):
        bot.choose({}, Prompt(names[0], "x", ("a", "b")))


def test_names_budgets_and_the_rollout_bot() -> None:
    for name in ("outspeed", "lastonealive"):
        c = find(name)
        assert seat_names(c)[-1] == "search"
    assert rollout_bot_name(find("outspeed")) == "greedy"
    assert rollout_bot_name(find("lastonealive")) == "careful"
    assert str(Budget()) == "200 rollouts per decision"
    assert str(Budget.of(think_ms=500)) == "500 ms per decision"
    with pytest.raises(ValueError):
        Budget(None, None)
    with pytest.raises(ValueError, match="unknown bot .nope."):
        make_bot(find("outspeed"), "nope")


def test_a_time_budget_gives_every_option_a_rollout() -> None:
    c = find("outspeed")
    game, prompt = next((g, p) for g, p in decision_points(c, 3, 4, 12) if p.kind == "program")
    bot = SearchBot(c, 0, Budget(rollouts=None, think_ms=1))
    decision = bot.decide(game, prompt)
    assert all(s.rollouts >= 1 for s in decision.scores)


@pytest.mark.parametrize("name", ["outspeed", "lastonealive"])
def test_redeal_keeping_a_player_passes_its_conformance_check(name: str) -> None:
    c = find(name)
    cf.check_player_redeal(c, c.min_players, 0)


def test_a_redeal_that_reads_the_true_hidden_parts_is_caught() -> None:
    from outspeed.cartridge import OutspeedCartridge, OutspeedGame

    class Peeking(OutspeedCartridge):
        def redeal(self, game: Game, seed: int, keep: Player | None = None) -> OutspeedGame:
            if keep is None:
                return super().redeal(game, seed)
            return OutspeedGame(game.engine.copy())                    # type: ignore[attr-defined]

    with pytest.raises(cf.ConformanceError, match="depends on hidden parts"):
        cf.check_player_redeal(Peeking(), 3, 0)


def run_main(argv: Sequence[str]) -> int:
    from bitbox.cli import main
    return main(list(argv))


def test_simulate_commands_seat_the_search_bot(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    assert run_main(["simulate", "outspeed", "--players", "3", "--bots", "search,random", "--games", "1",
                     "--rollouts", "4", "-q", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "search bot: 4 rollouts per decision" in out and "search" in out
    results: Mapping[str, Any] = json.loads((tmp_path / "results.json").read_text())
    assert results["config"]["search"] == {"rollouts": 4, "think_ms": None}      # Outspeed's own run
    assert run_main(["simulate", "outspeed", "--bots", "search", "--think", "0", "-q"]) == 2
    assert "--think must be 1 ms or more, not 0" in capsys.readouterr().err


def test_the_games_simulate_commands_seat_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    from lastonealive.cli import main as lastonealive
    from outspeed.cli import main as outspeed
    assert outspeed(["simulate", "--players", "3", "--bots", "search,random,random", "--games", "1",
                     "--rollouts", "2", "--fixed-seats", "-q"]) == 0
    assert "search" in capsys.readouterr().out
    assert lastonealive(["simulate", "--players", "2", "--bots", "search,random", "--games", "1",
                         "--rollouts", "1", "--fixed-seats", "-q"]) == 0
    assert "search" in capsys.readouterr().out
    assert lastonealive(["simulate", "--bots", "search", "--rollouts", "0", "-q"]) == 2
    assert "--rollouts must be 1 or more" in capsys.readouterr().err


# ---------------------------------------------------------------- the search's rules (strength)

def test_rollouts_stop_where_the_cartridge_can_judge() -> None:
    """Last One Alive's leaf evaluation judges once the deciding player's turn is over: its
    rollouts play no further, and score 0 for a player out, a share for one still in."""
    from bitbox.bots.search import leaf_evaluation, play_to_leaf
    c = find("lastonealive")
    evaluate = leaf_evaluation(c)
    assert evaluate is not None and leaf_evaluation(find("outspeed")) is None     # Outspeed plays to the end
    game, prompt = next((g, p) for g, p in decision_points(c, 3, 5, 40)
                        if p.player in g.players and g.engine.state.phase != "setup")   # type: ignore[attr-defined]
    player = prompt.player
    assert evaluate(game, player) is None                                    # the player's turn goes on
    bots = {p: make_bot(c, "careful", k) for k, p in enumerate(game.players)}
    value = play_to_leaf(game, bots, player, evaluate)
    engine = game.engine                                                     # type: ignore[attr-defined]
    assert engine.state.active != player or game.finished                    # it stopped when the turn ended
    if player in engine.state.eliminated:
        assert value == 0.0
    else:
        assert 0 < value <= 1
    loser = next(p for p in game.players if p != player)
    engine.state.eliminated.append(loser)
    assert evaluate(game, loser) == 0.0


def test_options_that_play_alike_are_dropped_early() -> None:
    """When every option comes out the same on every deal, the search stops after its first
    rounds and keeps the rollout bot's answer."""
    from bitbox.bots import search
    c = find("outspeed")
    game, prompt = next((g, p) for g, p in decision_points(c, 3, 4, 12) if p.kind == "program")
    bot = SearchBot(c, 0, Budget(rollouts=400), evaluate=lambda g, p: 0.5)   # every option judged alike
    decision = bot.decide(game, prompt)
    assert decision.rollouts <= search.MIN_ROUNDS * len(decision.scores)
    assert decision.chosen == decision.scores[0].option                      # the rollout bot's answer


def test_the_rollout_bots_answer_is_left_only_for_a_clearly_better_option() -> None:
    from bitbox.bots.search import OptionScore, SearchBot

    def pick(first: list[float], other: list[float]) -> int:
        scores = [OptionScore("a", len(first), sum(first)), OptionScore("b", len(other), sum(other))]
        return SearchBot._pick(["a", "b"], [first, other], scores)
    noisy = [1.0, 0.0] * 8
    assert pick(noisy, [0.0, 1.0] * 7 + [1.0, 1.0]) == 0                    # one deal better: noise
    assert pick([0.0] * 16, [1.0] * 12 + [0.0] * 4) == 1                    # better on most deals
    assert pick([0.5] * 16, [0.5] * 16) == 0                                # alike: the rollout bot's


def test_a_cancelled_search_plays_what_it_has_and_reseed_makes_it_reproducible() -> None:
    c = find("lastonealive")
    game, prompt = next((g, p) for g, p in decision_points(c, 3, 5, 40) if len(p.options) > 2)
    bot = SearchBot(c, 0, Budget(rollouts=64))
    bot.cancel()
    stopped = bot.decide(game, prompt)
    assert stopped.rollouts == 0 and stopped.chosen in prompt.options
    picks = []
    for _ in range(2):
        bot.reseed(42)
        picks.append(bot.decide(game, prompt))
    assert picks[0].rollouts > 0 and picks[0].scores == picks[1].scores and picks[0].chosen == picks[1].chosen

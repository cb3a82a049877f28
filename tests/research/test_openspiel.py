"""The OpenSpiel games (bitbox.research.openspiel): registered for every cartridge with an
encoding, OpenSpiel's own random simulation test, information states that remember and
hide what they must, resampling from an information state, serialisation, truncation, and
OpenSpiel's ISMCTS and MCTS bots playing whole games."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is installed by ./dev test")

import bitbox.research.openspiel as bitbox_openspiel  # noqa: E402
from bitbox.games import GameError, OptionError, find  # noqa: E402

GAMES = [("bitbox_outspeed", 3), ("bitbox_lastonealive", 3)]


def _play(state, rng, moves):
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_every_cartridge_with_an_encoding_is_registered():
    assert bitbox_openspiel.GAMES == ["bitbox_lastonealive", "bitbox_outspeed"]
    for name in bitbox_openspiel.GAMES:
        assert name in pyspiel.registered_names()
        gtype = pyspiel.load_game(name).get_type()
        assert gtype.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        cartridge = find(name.removeprefix("bitbox_"))
        assert {"players", "seed", "max_game_length"} | {o.name for o in cartridge.options} \
            == set(gtype.parameter_specification)
        assert (gtype.min_num_players, gtype.max_num_players) == (cartridge.min_players, cartridge.max_players)
    assert bitbox_openspiel.register() == bitbox_openspiel.GAMES        # registering again changes nothing


@pytest.mark.heavy
@pytest.mark.parametrize("name,players", GAMES + [("bitbox_outspeed", 6), ("bitbox_lastonealive", 5)])
def test_openspiels_random_simulation_test(name, players):
    game = pyspiel.load_game(name, {"players": players, "seed": 1})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_games_options_are_parameters():
    game = pyspiel.load_game("bitbox_lastonealive", {"players": 2, "survivors": True, "seed": 4})
    state = game.new_initial_state()
    assert game.num_players() == 2 and state._t().options["survivors"] is True
    assert "lives" in state.observation_string(0)
    assert pyspiel.load_game("bitbox_outspeed(players=5,first_game=True)").num_players() == 5
    with pytest.raises(GameError, match="Outspeed is for 3 to 6 players, not 9"):
        pyspiel.load_game("bitbox_outspeed", {"players": 9})
    with pytest.raises(OptionError, match="option tokens: must be one of"):
        pyspiel.load_game("bitbox_outspeed", {"tokens": "x"})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("bitbox_outspeed", {"colour": 1})


@pytest.mark.parametrize("name,players", GAMES)
def test_legal_actions_with_their_strings(name, players):
    game = pyspiel.load_game(name, {"players": players, "seed": 2})
    state = _play(game.new_initial_state(), np.random.RandomState(2), 6)
    table = state._t()
    player = state.current_player()
    legal = state.legal_actions()
    assert legal and legal == sorted(legal) and legal == list(np.flatnonzero(table.mask(table.players[player])))
    names = [state.action_to_string(player, a) for a in legal]
    assert names == [table.describe(a).rsplit(" (", 1)[0] for a in legal]
    assert all(n in ("confirm", *table.encoding.names) for n in names)
    assert all(state.legal_actions(p) == [] for p in range(players) if p != player)


@pytest.mark.parametrize("name,players", GAMES)
def test_the_information_state_remembers_the_players_history(name, players):
    game = pyspiel.load_game(name, {"players": players, "seed": 5})
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    seen = []
    while not state.is_terminal() and len(seen) < 12:
        player = state.current_player()
        seen.append((player, state.information_state_string(player)))
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        text = state.information_state_string(player)
        assert f"moved {state.action_to_string(player, action)}" in text
    for player, before in seen:                                      # the past stays in the information state
        past = before.rsplit("\n", 1)[0] if "\n" in before else ""
        assert state.information_state_string(player).startswith(past)
    size = game.information_state_tensor_size()
    assert size == game.observation_tensor_size() + game.num_distinct_actions()
    tensor = np.array(state.information_state_tensor(seen[0][0]))
    assert tensor.shape == (size,) and tensor[-game.num_distinct_actions():].sum() >= 1   # its moves, counted
    assert np.array_equal(np.array(state.observation_tensor(seen[0][0])), tensor[:game.observation_tensor_size()])


def test_an_answer_waiting_is_in_no_other_players_information_state():
    """Outspeed's programming, asked red then blue then green: what blue and green know is the
    same whatever red chose."""
    game = pyspiel.load_game("bitbox_outspeed", {"players": 3, "seed": 9})
    seen = []
    for pick in (0, -1):
        state = game.new_initial_state()
        state._seed = 9                                               # the same deal both times
        state._table = None
        assert state.current_player() == 0 and state._t().prompt("red").kind == "program"
        state.apply_action(state.legal_actions()[pick])
        assert state.current_player() == 1
        seen.append([(state.information_state_string(p), state.observation_string(p),
                      list(state.information_state_tensor(p))) for p in (1, 2)])
    assert seen[0] == seen[1]


@pytest.mark.parametrize("name,players", GAMES)
def test_resample_from_infostate_keeps_what_the_player_knows(name, players):
    game = pyspiel.load_game(name, {"players": players, "seed": 7})
    rng = np.random.RandomState(7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for round_ in range(8):
        state = _play(game.new_initial_state(), rng, 3 + 4 * round_)
        if state.is_terminal():
            continue
        player = state.current_player()
        for _ in range(3):
            other = state.resample_from_infostate(player, sampler)
            assert other.current_player() == player
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.legal_actions() == state.legal_actions()
            differed += str(other) != str(state)
            _play(other, rng, 200)                                     # it plays on to the end
    assert differed > 0                                                # the hidden parts were drawn again


@pytest.mark.parametrize("name,players", GAMES)
def test_clone_and_serialise(name, players):
    game = pyspiel.load_game(name, {"players": players, "seed": 11})
    state = _play(game.new_initial_state(), np.random.RandomState(11), 9)
    clone = state.clone()
    copy = game.deserialize_state(state.serialize())
    for other in (clone, copy):
        assert str(other) == str(state) and other.history() == state.history()
        assert other.information_state_string(0) == state.information_state_string(0)
    rng = np.random.RandomState(3)
    while not state.is_terminal():                                     # the same moves: the same game
        action = int(rng.choice(state.legal_actions()))
        for s in (state, clone, copy):
            s.apply_action(action)
        assert str(clone) == str(state) == str(copy)
    assert clone.returns() == state.returns() == copy.returns()
    assert sum(state.returns()) in (0.0, pytest.approx(1.0))


def test_max_game_length_ends_a_game_with_nothing_won():
    game = pyspiel.load_game("bitbox_outspeed", {"players": 3, "max_game_length": 10, "seed": 1})
    assert game.max_game_length() == 10
    state = _play(game.new_initial_state(), np.random.RandomState(1), 50)
    assert state.is_terminal() and state.move_number() == 10 and state.returns() == [0.0, 0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


@pytest.mark.parametrize("name,players", GAMES)
def test_the_public_observation_hides_every_secret(name, players):
    from open_spiel.python.observation import make_observation
    game = pyspiel.load_game(name, {"players": players, "seed": 13})
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    state = _play(game.new_initial_state(), np.random.RandomState(13), 8)
    public.set_from(state, 0)
    tensor, text = public.tensor.copy(), public.string_from(state, 0)
    other = state.resample_from_infostate(state.current_player(), None)
    public.set_from(other, 1)
    assert np.array_equal(public.tensor, tensor) and public.string_from(other, 1) == text


@pytest.mark.parametrize("name,players", GAMES)
def test_openspiels_ismcts_and_mcts_bots_play_whole_games(name, players):
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game(name, {"players": players, "seed": 17})
    rng = np.random.RandomState(17)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=rng,
                             allow_inconsistent_action_sets=True),
            mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rng),
            None]                                                      # the third seat plays at random
    state = game.new_initial_state()
    moved = [0] * players
    while not state.is_terminal():
        player = state.current_player()
        bot = bots[player]
        action = bot.step(state) if bot is not None else int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
        moved[player] += 1
    assert state._t().finished and moved[0] > 0 and moved[1] > 0
    assert sum(state.returns()) in (0.0, pytest.approx(1.0))

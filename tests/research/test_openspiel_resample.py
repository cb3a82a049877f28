"""A state resampled from an information state (bitbox.research.openspiel) tells nothing its
player does not know: two true games that differ only in another player's hidden choice (an
answer waiting unseen in Outspeed's programming, the bonus token an Outspeed player kept, the
order in which a Last One Alive player picked the dice of an answer) give resampled states
whose every history, string and tensor is the same, and which stay the same, serialised and
read back, as they play on to the end."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is installed by ./dev test")

import bitbox.research.openspiel  # noqa: E402,F401  (registers the games)


def _everything(game, state):
    """Every history, string and tensor ``state`` exposes, for every player."""
    from open_spiel.python.observation import make_observation
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    seen = {"history": state.history(), "history_str": state.history_str(),
            "full_history": [(pa.player, pa.action) for pa in state.full_history()],
            "move_number": state.move_number(), "str": str(state), "serialize": state.serialize(),
            "current_player": state.current_player(), "legal_actions": state.legal_actions(),
            "is_terminal": state.is_terminal(), "returns": state.returns()}
    for p in range(game.num_players()):
        seen[f"information state {p}"] = (state.information_state_string(p), list(state.information_state_tensor(p)))
        seen[f"observation {p}"] = (state.observation_string(p), list(state.observation_tensor(p)))
        public.set_from(state, p)
        seen[f"public {p}"] = (public.string_from(state, p), list(public.tensor))
    return seen


def _differences(a, b):
    return sorted(k for k in a if a[k] != b[k])


def _paired_worlds(name, seed, branch):
    """The game played twice from the same seed by ``branch(state, which)`` (which: 0, 1), then
    resampled from the information state of the player it returns; the two true states must
    differ (in their history and their game), and the two resampled states are returned with
    the game."""
    game = pyspiel.load_game(name, {"players": 3, "seed": seed})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    truths, worlds = [], []
    for which in (0, 1):
        game.rng.seed(seed)                                           # the same draws in both
        state = game.new_initial_state()
        player = branch(state, which)
        truths.append(state)
        worlds.append(state.resample_from_infostate(player, sampler))
    a, b = truths
    changed = [n for n, (x, y) in enumerate(zip(a.history(), b.history())) if x != y]
    assert len(a.history()) == len(b.history()) and changed, "the two true games must differ in a hidden move"
    assert a.information_state_string(player) == b.information_state_string(player)
    return game, worlds


def _same_worlds_to_the_end(game, worlds, seed):
    a, b = worlds
    assert _differences(_everything(game, a), _everything(game, b)) == []
    copies = [game.deserialize_state(w.serialize()) for w in worlds]     # read back: the same state
    assert _differences(_everything(game, copies[0]), _everything(game, a)) == []
    assert _differences(_everything(game, copies[1]), _everything(game, b)) == []
    clone = a.clone()
    assert _differences(_everything(game, clone), _everything(game, a)) == []
    states = [a, b, *copies, clone]
    rng = np.random.RandomState(seed)
    while not a.is_terminal():                                         # they play on identically
        action = int(rng.choice(a.legal_actions()))
        for s in states:
            s.apply_action(action)
        assert len({s.serialize() for s in states}) == 1
    assert _differences(_everything(game, b), _everything(game, a)) == []
    assert all(s.returns() == a.returns() for s in states)


def _hidden_program(state, which):
    """Outspeed: red programs left or right (waiting unseen); blue resamples."""
    table = state._t()
    assert state.current_player() == 0 and table.prompt("red").kind == "program"
    state.apply_action(state.legal_actions()[(0, -1)[which]])
    assert state.current_player() == 1
    return 1


def _hidden_keep(state, which):
    """Outspeed: red keeps one bonus token or the other (never revealed), then plays no bonus
    and programs as it can; the next player to move resamples."""
    rng = np.random.RandomState(1)
    table = state._t()
    while True:
        player = state.current_player()
        legal = state.legal_actions()
        if table.prompt(table.players[player]).kind == "keep" and len(legal) >= 2:
            break
        state.apply_action(int(rng.choice(legal)))
    state.apply_action(legal[(0, -1)[which]])
    while state.current_player() == player:
        state.apply_action(state.legal_actions()[0])                  # no bonus; the first path
    return state.current_player()


def _dice_in_another_order(state, which):
    """Last One Alive: the first player to choose dice picks the same dice in two orders
    (the order is theirs alone; the answer is revealed), then the game goes on alike until
    another player moves; that player resamples."""
    rng = np.random.RandomState(2)
    table = state._t()
    while True:
        player = state.current_player()
        name = table.players[player]
        if table.prompt(name).kind == "dice" and not table.selection(name):
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    picks = []
    probe = state.clone()                                              # the answer: random parts
    while probe.current_player() == player and probe._t().prompt(name) is not None \
            and probe._t().prompt(name).kind == "dice":
        picks.append(int(rng.choice(probe.legal_actions())))
        probe.apply_action(picks[-1])
    assert len(set(picks) - {1}) >= 2, picks                           # two different dice at least
    order = picks if which == 0 else sorted(picks[:-1], reverse=True) + picks[-1:] if picks[-1] == 1 \
        else sorted(picks, reverse=True)
    for action in order:
        assert action in state.legal_actions()
        state.apply_action(action)
    while state.current_player() == player:
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state.current_player()


@pytest.mark.parametrize("name,seed,branch", [
    ("bitbox_outspeed", 9, _hidden_program),
    ("bitbox_outspeed", 4, _hidden_keep),
    ("bitbox_lastonealive", 4, _dice_in_another_order),
], ids=["outspeed-program-waiting", "outspeed-kept-token", "lastonealive-dice-order"])
def test_a_resampled_state_exposes_nothing_of_another_players_hidden_choice(name, seed, branch):
    game, worlds = _paired_worlds(name, seed, branch)
    _same_worlds_to_the_end(game, worlds, seed)


def test_a_resampled_states_history_is_the_players_own_moves():
    game = pyspiel.load_game("bitbox_lastonealive", {"players": 3, "seed": 6})
    state = game.new_initial_state()
    rng = np.random.RandomState(6)
    while len(state.history()) < 12:
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert not state.is_terminal()
    truth = [(pa.player, pa.action) for pa in state.full_history()]
    for player in range(3):
        world = state.resample_from_infostate(player, None)
        own = [(p, a) for p, a in truth if p == player]
        assert [(pa.player, pa.action) for pa in world.full_history()] == own
        assert world.history() == [a for _, a in own] and world.move_number() == len(own)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert f'"moves":{len(own)}' in str(world)
        again = world.resample_from_infostate((player + 1) % 3, None)     # another player's: none of theirs
        assert again.history() == []
        world.apply_action(world.legal_actions()[0])                   # moves after it are its history
        assert world.history() == [a for _, a in own] + [world.history()[-1]]


def test_a_resampled_state_does_not_carry_the_true_games_seed():
    game = pyspiel.load_game("bitbox_outspeed", {"players": 3, "seed": 8})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    world = state.resample_from_infostate(1, None)
    assert world._seed != state._seed and str(state._seed) not in world.serialize()


@pytest.mark.parametrize("what,edit,says", [
    ("movers", lambda d: d.__setitem__("movers", [7] * len(d["history"])), "its movers are not one player"),
    ("count", lambda d: d.__setitem__("movers", d["movers"] + [0]), "its movers are not one player"),
    ("action", lambda d: d["history"].__setitem__(0, 10**6), "its history is not a list of action ids from 0"),
    ("table", lambda d: d["table"].__setitem__("data", {"a": 1}), "not a saved Last One Alive game"),
    ("memory", lambda d: d.__setitem__("memory", []), "its memory is not one"),
])
def test_a_tampered_resampled_state_is_one_line(what, edit, says):
    import json
    game = pyspiel.load_game("bitbox_lastonealive", {"players": 3, "seed": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while len([pa for pa in state.full_history() if pa.player == 0]) < 2:
        state.apply_action(int(rng.choice(state.legal_actions())))
    data = json.loads(state.resample_from_infostate(0, None).serialize())
    edit(data)
    with pytest.raises(pyspiel.SpielError) as caught:
        game.deserialize_state(json.dumps(data))
    message = str(caught.value)
    assert says in message and "\n" not in message, message


@pytest.mark.parametrize("player", [-1, 3, pyspiel.PlayerId.TERMINAL, np.int64(5), "red"])
def test_resampling_for_no_player_is_one_line(player):
    game = pyspiel.load_game("bitbox_outspeed", {"players": 3, "seed": 2})
    with pytest.raises(pyspiel.SpielError, match=r"^resample_from_infostate: (-?\d+|'red') is not a player \(0 to 2\)$"):
        game.new_initial_state().resample_from_infostate(player, None)

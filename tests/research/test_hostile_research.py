"""Hostile use of the research environments (red team): an environment copied or pickled
after an ``rgb_array`` render plays on as the original (it was a TypeError: the frames held
pygame); players and options of the wrong type are one GameError line (were TypeErrors)."""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from bitbox.games import GameError, check_options, check_players, find  # noqa: E402
from bitbox.research import aec_env  # noqa: E402


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))])
def test_an_environment_rendered_as_frames_copies_and_plays_on_the_same(copier):
    env = aec_env("lastonealive", players=3, render_mode="rgb_array")
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(4):
        env.step(int(rng.choice(env.legal_actions())))
    frame = env.render()
    other = copier(env)
    assert np.array_equal(other.render(), frame)
    for _ in range(10):
        if all(env.terminations.values()):
            break
        action = int(rng.choice(env.legal_actions()))
        env.step(action)
        other.step(action)
        assert other.agent_selection == env.agent_selection
        assert np.array_equal(other.observe(env.agent_selection)["observation"],
                              env.observe(env.agent_selection)["observation"])


@pytest.mark.parametrize("players", [2.5, "3", b"abc", np.int64(3), None])
def test_players_that_are_no_list_of_names_are_one_line(players):
    with pytest.raises(GameError, match="^the players are a list of names, not "):
        check_players(find("lastonealive"), players)


@pytest.mark.parametrize("options", [5, [("survivors", True)], "survivors"])
def test_options_that_are_no_mapping_are_one_line(options):
    with pytest.raises(GameError, match="^the options are a mapping of option names to values, not "):
        check_options(find("lastonealive"), options)


@pytest.mark.parametrize("env_id", [5, None, b"outspeed_v0"])
def test_an_environment_id_that_is_no_text_is_one_line(env_id):
    from bitbox.research import make
    with pytest.raises(GameError, match="^no environment called "):          # was an AttributeError/TypeError
        make(env_id)


# R1: a count out of range is refused before a name is made per seat (10**30 hung)
@pytest.mark.parametrize("players, shown", [(10**30, str(10**30)), (-1, "-1"), (0, "0"), (np.int64(7), "7")])
def test_a_player_count_out_of_range_is_one_line_before_any_name(players, shown):
    from bitbox.research import parallel_env
    with pytest.raises(GameError, match=f"^Outspeed is for 3 to 6 players, not {shown}$"):
        parallel_env("outspeed", players=players)


# R2: a numpy integer is a count, as an int is; a bool or a float is not
@pytest.mark.parametrize("players", [np.int64(3), np.int32(3), np.uint8(3), np.array(3)])
def test_a_numpy_integer_is_a_number_of_players(players):
    env = aec_env("lastonealive", players=players)
    assert env.possible_agents == list(aec_env("lastonealive", players=3).possible_agents)


@pytest.mark.parametrize("players", [True, np.bool_(True), 3.0, np.float64(3), None])
def test_a_count_that_is_no_integer_is_one_line(players):
    with pytest.raises(GameError, match="^the players are a number of players or a list of names, not "):
        aec_env("lastonealive", players=players)


# R3: options that are no mapping reach check_options (dict(5) was a TypeError)
@pytest.mark.parametrize("options", [5, 0, "survivors", [("survivors", True)]])
def test_environment_options_that_are_no_mapping_are_one_line(options):
    with pytest.raises(GameError, match="^the options are a mapping of option names to values, not "):
        aec_env("lastonealive", players=3, options=options)


# R4: a seed is an integer (Python or numpy); anything else is one line and changes nothing
@pytest.mark.parametrize("make", ["aec", "parallel"])
def test_a_numpy_integer_seed_is_the_same_seed(make):
    from bitbox.research import parallel_env
    new = (lambda: aec_env("lastonealive", players=3)) if make == "aec" else \
        (lambda: parallel_env("lastonealive", players=3))
    a, b = new(), new()
    a.reset(seed=np.int64(5))
    b.reset(seed=5)
    assert np.array_equal(a.state(), b.state())
    a.reset()
    b.reset()                                   # the next seeds from the same generator
    assert np.array_equal(a.state(), b.state())


@pytest.mark.parametrize("seed", [float("nan"), float("inf"), 1.5, 1.0, np.float64(2), "7", b"7", True,
                                  np.bool_(False), [1], np.array([1, 2]), 2 + 0j])
def test_a_seed_that_is_no_integer_is_one_line_and_changes_nothing(seed):
    env = aec_env("lastonealive", players=3)
    env.reset(seed=3)
    before = env.state()
    with pytest.raises(GameError, match="^a seed is a whole number \\(or None\\), not "):
        env.reset(seed=seed)
    assert np.array_equal(env.state(), before)
    env.reset()
    other = aec_env("lastonealive", players=3)
    other.reset(seed=3)
    other.reset()                               # the generator is still the one seeded by 3
    assert np.array_equal(env.state(), other.state())


# R5: what needs a game, before the first reset(), says so in one line (were KeyError,
# a bare AssertionError, and a no-op mask)
@pytest.mark.parametrize("call", [
    lambda e: e.step(0), lambda e: e.observe("red"), lambda e: e.action_mask("red"), lambda e: e.action_mask(),
    lambda e: e.legal_actions("red"), lambda e: e.legal_actions(), lambda e: e.state(), lambda e: e.view("red")])
def test_an_aec_environment_before_reset_says_so(call):
    env = aec_env("lastonealive", players=3)
    with pytest.raises(GameError, match="^no game yet: call reset\\(\\) first$"):
        call(env)
    env.reset(seed=1)                           # and it starts as any other
    assert env.agent_selection in env.possible_agents


@pytest.mark.parametrize("call", [lambda e: e.step({}), lambda e: e.step({"red": 0}), lambda e: e.action_mask("red"),
                                  lambda e: e.legal_actions(), lambda e: e.state()])
def test_a_parallel_environment_before_reset_says_so(call):
    from bitbox.research import parallel_env
    env = parallel_env("outspeed", players=3)
    with pytest.raises(GameError, match="^no game yet: call reset\\(\\) first$"):
        call(env)


# R6: ParallelEnv.step takes a mapping of known agents; anything else is one line, the game unchanged
def _parallel_mid_game():
    from bitbox.research import parallel_env
    env = parallel_env("outspeed", players=3)
    env.reset(seed=1)
    return env


@pytest.mark.parametrize("actions", [None, 0, [0, 0, 0], "red", np.zeros(3, dtype=int)])
def test_parallel_actions_that_are_no_mapping_are_one_line(actions):
    env = _parallel_mid_game()
    before = env.state()
    with pytest.raises(GameError, match="^actions are a mapping of agent to action id, not "):
        env.step(actions)
    assert np.array_equal(env.state(), before)


def test_an_unknown_agent_in_the_actions_is_named_and_nothing_is_taken():
    env, same = _parallel_mid_game(), _parallel_mid_game()
    actions = {a: env.legal_actions(a)[-1] for a in env.agents}
    with pytest.raises(GameError, match="^unknown player 'nobody' in the actions \\(players: red, blue, green\\)$"):
        env.step({**actions, "nobody": 0})
    assert {a: env.table.selection(a) for a in env.agents} == {a: same.table.selection(a) for a in same.agents}
    observations, *_ = env.step(actions)        # the same step then plays as in a fresh copy
    expected, *_ = same.step(actions)
    for a in env.agents or env.possible_agents:
        assert np.array_equal(observations[a]["observation"], expected[a]["observation"])


# R7: a typo in an agent name is refused by action_mask and legal_actions as by observe (was
# the no-op mask: a silent "can only pass")
@pytest.mark.parametrize("call", [lambda e, a: e.action_mask(a), lambda e, a: e.legal_actions(a),
                                  lambda e, a: e.observe(a)])
@pytest.mark.parametrize("agent", ["nobody", "Red", ("red",), 0])
def test_an_unknown_agent_is_refused_by_mask_and_legal_actions(call, agent):
    env = aec_env("lastonealive", players=3)
    env.reset(seed=2)
    with pytest.raises(GameError, match="^unknown player .* \\(players: red, blue, green\\)$"):
        call(env, agent)
    assert env.legal_actions("red") == tuple(np.flatnonzero(env.action_mask("red")).tolist())


# R8: flat is a bool (flat="no" was taken as True)
@pytest.mark.parametrize("flat", ["no", "", 1, 0, None, [True]])
def test_flat_that_is_no_bool_is_one_line(flat):
    with pytest.raises(GameError, match="^flat must be True or False, not "):
        aec_env("lastonealive", players=3, flat=flat)


@pytest.mark.parametrize("flat", [True, np.bool_(True)])
def test_flat_as_a_bool_gives_the_vector(flat):
    env = aec_env("lastonealive", players=3, flat=flat)
    env.reset(seed=1)
    assert isinstance(env.observe("red"), np.ndarray) and env.flat is True


# R9: a research encoding that exits (or raises) when loaded or made is one GameError line; the
# caller's program goes on (SystemExit ended it without a word)
SCRIPT = """
import os
from bitbox.games import GameError
from bitbox.research import aec_env
from bitbox.research.table import find_encoding
for entry in ("sys:exit", "json:loads", "no_such_module_here:encoding", "goofspiel_exits_on_import:x"):
    os.environ["BITBOX_RESEARCH"] = "goofspiel=" + entry
    find_encoding.cache_clear()
    try:
        aec_env("goofspiel", players=2)
    except GameError as exc:
        print(exc)
print("after")
"""


def test_a_research_encoding_that_exits_is_one_line(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path
    (tmp_path / "goofspiel_exits_on_import.py").write_text("raise SystemExit(3)\n")
    tutorial = Path(__file__).resolve().parent.parent / "tutorial"
    env = {**os.environ, "BITBOX_GAMES": "goofspiel=goofspiel:CARTRIDGE",
           "PYTHONPATH": os.pathsep.join([str(tutorial), str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout.splitlines() == [
        "the research encoding of goofspiel cannot be made: SystemExit",
        "the research encoding of goofspiel cannot be made: TypeError: loads() missing 1 required positional "
        "argument: 's'",
        "the research encoding of goofspiel cannot be loaded: ModuleNotFoundError: No module named "
        "'no_such_module_here'",
        "the research encoding of goofspiel cannot be loaded: SystemExit: 3",
        "after"]

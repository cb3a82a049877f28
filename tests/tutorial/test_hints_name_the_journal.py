"""A line that names a command to run next works as given: it names the journal with
``--journal PATH`` (quoted for the shell) when it is not the default one, as the line of a
stopped game does; for the default journal it says nothing more. For every game (Outspeed,
Last One Alive, the tutorial game): history's resume hints, import's replay hint, the command
of another game's record, "see history" for a game not there. And export's refusal of an
unfinished game says what its file would give away: a seed given with --seed is public already,
only a secret one is named. Real SQLite journals, real files."""
from __future__ import annotations

from pathlib import Path

import pytest

GAMES = ("outspeed", "lastonealive", "goofspiel")


def _unfinished(path: Path, seed: str = "given") -> dict[str, int]:
    """One unfinished game of each game in the journal at ``path``: name -> id."""
    from bitbox.games import check_options, find
    from bitbox.table.journal import Journal
    from bitbox.table.protocol_rules import journal_rules_of
    ids = {}
    for name in GAMES:
        c = find(name)
        game = c.new(["red", "blue", "green"], 3, check_options(c, {}))
        with Journal(path, journal_rules_of(c)) as j:
            ids[name] = j.new_game(game, {"seats": [{"player": p, "kind": "bot", "controller_id": None}
                                                    for p in game.players], "seed": seed}).id
    return ids


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))     # the default journal, in here
    return tmp_path


def kit(name: str):
    from bitbox.games import find
    from bitbox.table.journal_commands import kit_of
    return kit_of(find(name))


@pytest.mark.parametrize("given,option", [(None, ""), ("j.sqlite", " --journal j.sqlite"),
                                          ("my games.sqlite", " --journal 'my games.sqlite'")])
def test_history_hints_and_the_other_games_command_name_the_journal_unless_default(here, capsys, given, option):
    from bitbox.table import journal_commands as jc
    from bitbox.table.journal import command_of, default_journal_path
    path = default_journal_path() if given is None else here / given
    ids = _unfinished(path)
    for name in GAMES:
        assert jc.history(kit(name), given) == 0
        out = capsys.readouterr().out
        for other in GAMES:
            assert f"unfinished ({command_of(other)} play --resume{option})" in out, out
        other = GAMES[(GAMES.index(name) + 1) % 3]
        assert jc.replay(kit(name), ids[other], given, headless=True) == 2
        err = capsys.readouterr().err.strip()
        assert err.endswith(f"use `{command_of(other)} replay {ids[other]}{option}`"), err
        assert jc.replay(kit(name), 99, given, headless=True) == 2
        err = capsys.readouterr().err.strip()
        assert err.endswith(f"no game 99 (see `{kit(name).command} history{option}`)"), err


def test_imports_replay_hint_names_the_journal_it_went_into(here, capsys):
    from bitbox.table import journal_commands as jc
    from bitbox.table.journal import command_of, default_journal_path
    ids = _unfinished(here / "j.sqlite")
    for name in GAMES:                      # imported in the same order: the same ids
        assert jc.export(kit(name), ids[name], f"{name}.json", "j.sqlite", include_secrets=True) == 0
        assert jc.import_(kit(name), f"{name}.json", "k 2.sqlite") == 0
        assert capsys.readouterr().out.strip().endswith(
            f"`{command_of(name)} replay {ids[name]} --journal 'k 2.sqlite'` "
            f"shows it")
        assert jc.import_(kit(name), f"{name}.json", None) == 0            # the default journal: no --journal
        assert capsys.readouterr().out.strip().endswith(f" replay {ids[name]}` shows it")
    assert default_journal_path().exists()


@pytest.mark.parametrize("seed", ["given", "secret"])
def test_exports_refusal_names_a_seed_only_when_it_is_secret(here, capsys, seed):
    from bitbox.table import journal_commands as jc
    ids = _unfinished(here / "j.sqlite", seed)
    for name in GAMES:
        assert jc.export(kit(name), ids[name], "g.json", "j.sqlite") == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "the game as dealt with everything hidden in it" in err, err
        assert "choices not yet revealed" in err and "--include-secrets" in err
        assert ("its secret seed" in err) == (seed == "secret") and ("seed" in err) == (seed == "secret"), err
    assert not (here / "g.json").exists()


def test_no_games_yet_is_said_the_same_with_and_without_journal(here, capsys):
    from bitbox.table import journal_commands as jc
    from bitbox.table.journal import default_journal_path
    for name in GAMES:
        assert jc.history(kit(name), None) == 0
        assert jc.history(kit(name), "none.sqlite") == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines == [f"no games yet ({default_journal_path()} does not exist)",
                         "no games yet (none.sqlite does not exist)"]

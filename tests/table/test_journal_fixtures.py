"""Journals written before the games journaled through the protocol's rules (data/main-journals,
tests/table/journal_fixtures.py: both games; virtual and physical tokens; finished, unfinished
and resumable; exported game files) still list, replay, resume and import with the same
output; the same games spelt in the protocol's format (``answers``) read the same; a tampered
input of that format is one clear line."""
from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bitbox.table.history import replay_frames
from bitbox.table.journal import InputRecord, Journal, JournalError, rebuild, verify
from bitbox.table.protocol_rules import INPUT_KIND, ProtocolJournalRules, journal_rules_of

from . import journal_fixtures as F

pytestmark = pytest.mark.xdist_group("journal-fixtures")

#: what the suite runs of every command (``python -m tests.table.journal_fixtures check`` runs all)
KEYS = {"outspeed": ("history", "history --json", "replay 2", "replay 3", "resume 3", "resume 3 history --json",
                     "import 2", "import 3"),
        "lastonealive": ("history", "history --json", "replay 2", "replay 3", "resume 4", "resume 4 history --json",
                         "import 2", "import 3")}


def _copy(name: str, tmp: Path) -> Path:
    path = tmp / f"{name}.sqlite"
    shutil.copyfile(F.DATA / f"{name}.sqlite", path)
    path.chmod(0o600)
    return path


def _rules(name: str) -> Any:
    from bitbox.games import find
    return journal_rules_of(find(name))


def _diff(key: str, want: Any, got: Any) -> str:
    if isinstance(want, dict) and isinstance(got, dict):
        for field in sorted(set(want) | set(got)):
            if want.get(field) != got.get(field):
                a, b = want.get(field), got.get(field)
                if isinstance(a, str) and isinstance(b, str):
                    return f"{key}, {field}:\n" + "\n".join(list(difflib.unified_diff(
                        a.splitlines(), b.splitlines(), "before", "now", lineterm=""))[:40])
                return f"{key}, {field}: {a!r} != {b!r}"[:3000]
    return f"{key}: {want!r} != {got!r}"[:3000]


@pytest.mark.heavy
@pytest.mark.parametrize("name", F.GAMES)
def test_old_journals_list_replay_resume_and_import_with_the_same_output(name):
    want = F.expected()
    got = F.outputs((name,), KEYS[name])
    assert len(got) == len(KEYS[name])
    for key, value in got.items():
        assert value == want[key], _diff(key, want[key], value)


@pytest.mark.parametrize("name", F.GAMES)
def test_every_old_game_rebuilds_to_its_stored_result(name, tmp_path):
    with Journal(_copy(name, tmp_path), _rules(name)) as j:
        games = j.games()
        assert [g.id for g in games] == list(F.CONTENTS[name])
        kinds = set()
        for info in games:
            verify(j, info.id)
            game, n = rebuild(j, info.id)
            assert n == info.inputs and (info.status == "finished") == j.rules.finished(game)
            if info.status == "finished":
                assert j.rules.winners(game) == info.winners and j.rules.state_hash(game) == info.final
            kinds |= {r.kind for r in j.inputs(info.id)}
            physical = info.settings["tokens"] == "physical"
            if name == "lastonealive" and physical:
                assert any("drawn" in r.data for r in j.inputs(info.id))       # tokens entered from a real bag
        assert kinds == ({"bonus", "program", "keep"} if name == "outspeed" else {"start", "answer"})


def _in_protocol_format(j: Journal, game_id: int) -> list[InputRecord]:
    """Game ``game_id``'s inputs spelt as the protocol's ``answers`` (what is not an answer,
    Last One Alive's ``start``, and the tokens entered from a real bag kept as they are)."""
    rules: ProtocolJournalRules = j.rules_of(game_id)
    game = j.initial(game_id)
    out = []
    for rec in j.inputs(game_id):
        answers = rules.hooks.answers_of(rules.game(game), rec.kind, rec.data)
        data = dict(rec.data)
        kind = rec.kind
        if answers is not None:
            kind = INPUT_KIND
            data = {"answers": ProtocolJournalRules.input_data(rules.cartridge, answers)["answers"],
                    **({"drawn": rec.data["drawn"]} if "drawn" in rec.data else {})}
        out.append(InputRecord(rec.seq, rec.turn, rec.phase, kind, data, rec.state, rec.at))
        rules.apply_input(game, rec.kind, rec.data)
    return out


def _frames(j: Journal, game_id: int) -> list[Any]:
    return [(f.turn, f.view, [(e.kind, e.data) for e in f.log], f.dice, f.inputs)
            for f in replay_frames(j, game_id, j.rules_of(game_id))]


@pytest.mark.parametrize("name", F.GAMES)
def test_the_same_games_in_the_protocols_format_read_and_replay_the_same(name, tmp_path):
    """A journal may hold any game's inputs as ``answers`` (the format of every game without a
    spelling of its own): both games' readers take them and replay the same frames."""
    rules = _rules(name)
    with Journal(_copy(name, tmp_path), rules) as old, Journal(tmp_path / "new.sqlite", rules) as new:
        for info in old.games():
            inputs = _in_protocol_format(old, info.id)
            assert any(r.kind == INPUT_KIND for r in inputs)
            initial = json.loads(old.db.execute("SELECT initial FROM games WHERE id = ?", (info.id,)).fetchone()[0])
            gid = new.add_game(created=info.created, seed=info.seed, players=info.players, settings=info.settings,
                               initial=initial, status=info.status, winners=info.winners, ended=info.ended,
                               final=info.final, inputs=inputs)
            assert verify(new, gid) == new.game(gid)
            assert _frames(new, gid) == _frames(old, info.id)
            assert rules.state_hash(rebuild(new, gid)[0]) == rules.state_hash(rebuild(old, info.id)[0])


def _tamper(j: Journal, game_id: int, seq: int, kind: str, data: Any) -> None:
    with j._tx():
        j.db.execute("UPDATE inputs SET kind = ?, data = ? WHERE game = ? AND seq = ?",
                     (kind, json.dumps(data), game_id, seq))


TAMPERED = {      # (game, the input's new data, from its answers) -> words the refusal says
    "another player": ("outspeed", lambda a: {"answers": {**a, "black": None}}, "black has no prompt open"),
    "an answer missing": ("outspeed", lambda a: {"answers": dict(list(a.items())[1:])}, "no answer from"),
    "not an answer": ("outspeed", lambda a: {"answers": {p: {"path": "up"} for p in a}}, "not an Outspeed answer"),
    "no answers": ("lastonealive", lambda a: {"answers": []}, "holds no answers"),
    "an illegal answer": ("lastonealive", lambda a: {"answers": {p: ["zzz", None, None] for p in a}}, "cannot be applied"),
    "drawn not a list": ("lastonealive", lambda a: {"answers": a, "drawn": "pistol"}, "drawn must be a list"),
    "a kind nobody knows": ("outspeed", lambda a: {"answers": a, "kind": "x"}, None),
}


@pytest.mark.parametrize("what", sorted(TAMPERED))
def test_a_tampered_input_of_the_protocols_format_is_one_clear_line(what, tmp_path):
    name, change, words = TAMPERED[what]
    rules = _rules(name)
    with Journal(_copy(name, tmp_path), rules) as old, Journal(tmp_path / "new.sqlite", rules) as j:
        info = old.game(1)
        inputs = _in_protocol_format(old, 1)
        initial = json.loads(old.db.execute("SELECT initial FROM games WHERE id = 1").fetchone()[0])
        gid = j.add_game(created=info.created, seed=info.seed, players=info.players, settings=info.settings,
                         initial=initial, status=info.status, winners=info.winners, ended=info.ended,
                         final=info.final, inputs=inputs)
        rec = next(r for r in inputs if r.kind == INPUT_KIND and len(r.data["answers"]) > 1) \
            if name == "outspeed" else next(r for r in inputs if r.kind == INPUT_KIND)
        data = change(rec.data["answers"])
        kind = "sideways" if words is None else INPUT_KIND
        _tamper(j, gid, rec.seq, kind, data)
        with pytest.raises(JournalError) as err:
            verify(j, gid)
    line = str(err.value)
    assert "\n" not in line and f"input {rec.seq}" in line
    assert (words or "unknown input kind 'sideways'") in line, line
    with Journal(tmp_path / "new.sqlite", rules) as j:                  # resume refuses it too
        with pytest.raises(JournalError):
            rebuild(j, gid)


@pytest.mark.heavy
def test_history_of_a_tampered_protocol_input_is_one_line_and_no_traceback(tmp_path):
    rules = _rules("lastonealive")
    path = tmp_path / "j.sqlite"
    with Journal(_copy("lastonealive", tmp_path), rules) as old, Journal(path, rules) as j:
        info = old.game(2)
        inputs = _in_protocol_format(old, 2)
        initial = json.loads(old.db.execute("SELECT initial FROM games WHERE id = 2").fetchone()[0])
        gid = j.add_game(created=info.created, seed=info.seed, players=info.players, settings=info.settings,
                         initial=initial, status=info.status, winners=info.winners, ended=info.ended,
                         final=info.final, inputs=inputs)
        last = inputs[-1]
        _tamper(j, gid, last.seq, INPUT_KIND, {"answers": {"red": {"no": "action"}}})
    r = F.run("lastonealive", ["history", "--journal", str(path)], tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and f"input {last.seq}" in r.stderr, r.stderr

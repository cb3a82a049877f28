"""Standings (bitbox.standings): named players ranked per game with openskill, from a journal
holding both games, bots, unnamed seats and imported games."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bitbox.standings import clean_name, seat_identities, standings
from bitbox.table.journal import Journal

from .journals import write_game

OUTSPEED = ["red", "blue", "green"]
LOA = ["red", "blue"]


def named(players: list[str], names: dict[str, str], bots: tuple[str, ...] = (), bot: str = "greedy") -> dict:
    return {"names": names, "bot": bot,
            "seats": [{"player": p, "kind": "bot" if p in bots else "controller", "controller_id": None}
                      for p in players]}


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("standings")
    path = folder / "j.sqlite"
    with Journal(path) as j:
        for seed in range(6):                       # Ann, Bob and a greedy bot; the names move seats
            names = {"red": "Ann", "blue": "Bob"} if seed % 2 else {"green": "Ann", "red": " bob "}
            write_game(j, "outspeed", seed, 3, named(OUTSPEED, names, bots=("blue",) if seed % 2 == 0 else ("green",)))
        for seed in range(3):                       # Last One Alive: Ann against an unnamed seat
            write_game(j, "lastonealive", seed, 2, {"names": {"blue": "Ann"}})
        write_game(j, "outspeed", 9, 3)             # nobody named: counted, nothing listed
        write_game(j, "outspeed", 10, 3, {"names": {"red": "x" * 41, "blue": 7, "green": "\x1b[2J"}})
    return path


def test_named_players_are_ranked_per_game_with_bots_apart(journal: Path) -> None:
    with Journal(journal, create=False) as j:
        tables = {t.game: t for t in standings(j)}
        outspeed_games = sum(1 for g in j.games() if g.game == "outspeed")
        wins = {"ann": 0.0, "bob": 0.0}
        for g in j.games():
            if g.game != "outspeed":
                continue
            who = seat_identities(g.players, g.settings)
            for w in g.winners or []:
                ident = who[w]
                if ident is not None and ident[0] == "player":
                    wins[ident[1].strip().casefold()] += 1 / len(g.winners or [])
    os = tables["outspeed"]
    assert os.games == outspeed_games == 8
    assert {s.name for s in os.players} == {"Ann", "bob"}      # one person whatever the seat; as first written
    assert all(s.games == 6 for s in os.players)
    assert {s.name.casefold(): s.wins for s in os.players} == wins
    assert [s.name for s in os.bots] == ["greedy"] and os.bots[0].games == 6
    ratings = [s.ordinal for s in os.players]
    assert ratings == sorted(ratings, reverse=True)            # best first
    for s in os.players + os.bots:
        lo, hi = s.interval
        assert lo < s.mu < hi and s.sigma < 25 / 3             # six games: surer than a new rating
    assert os.unnamed_seats == 3 + 3                           # the game with no names, and the bad names
    loa = tables["lastonealive"]
    assert [s.name for s in loa.players] == ["Ann"] and loa.players[0].games == 3 and loa.unnamed_seats == 3
    assert loa.bots == []


def test_a_win_shared_or_not_moves_the_ratings_the_right_way(tmp_path: Path) -> None:
    """Winners share first place: Ann, who wins every game here, rates above Bob, who never does."""
    with Journal(tmp_path / "j.sqlite") as j:
        for seed in range(4):
            gid = write_game(j, "lastonealive", seed, 2, {"names": {"red": "Ann", "blue": "Bob"}})
            winner = j.game(gid).winners
            if winner != ["red"]:                   # make Ann the winner: swap the names of this record
                j.db.execute("UPDATE games SET settings = ? WHERE id = ?",
                             (json.dumps({"game": "lastonealive", "names": {"blue": "Ann", "red": "Bob"}}), gid))
        (table,) = standings(j, "lastonealive")
    ann, bob = table.players
    assert (ann.name, bob.name) == ("Ann", "Bob") and ann.wins == 4 and bob.wins == 0
    assert ann.ordinal > bob.ordinal and ann.mu > 25 > bob.mu


def test_an_imported_game_counts_once(journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bitbox.table.gamefile import check_document, export_game, import_game
    other = tmp_path / "other.sqlite"
    with Journal(journal, create=False) as j:
        doc = export_game(j, 1)
        before = {t.game: t.to_data() for t in standings(j)}
    with Journal(other) as k:
        checked = check_document(json.loads(json.dumps(doc)))
        assert import_game(k, checked) == (1, True)
        assert import_game(k, checked) == (1, False)                      # the journal refuses it twice
        k.add_game(created=checked.created, seed=checked.seed, players=checked.players,  # a copy forced in
                   settings=checked.settings, initial=checked.initial, status=checked.status,
                   winners=checked.winners, ended=checked.ended, final=checked.final, inputs=checked.inputs)
        (table,) = standings(k)
    assert table.games == 1 and table.duplicates == 1
    assert all(s.games == 1 for s in table.players + table.bots)
    assert before["outspeed"]["games"] == 8


def test_the_command(journal: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from bitbox.cli import main
    assert main(["standings", "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "Outspeed: 8 games, 6 unnamed seats (not listed)" in out
    assert "Last One Alive: 3 games" in out and "greedy" in out and "Ann" in out
    assert out.index("Last One Alive") < out.index("Outspeed")
    assert main(["standings", "--journal", str(journal), "--game", "lastonealive", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["game"] for g in data["games"]] == ["lastonealive"]
    assert set(data["games"][0]["players"][0]) >= {"name", "rating", "interval", "games", "wins"}
    assert main(["standings", "--journal", str(journal), "--game", "chess"]) == 2
    assert capsys.readouterr().err.startswith("bitbox standings: no game called 'chess'")
    assert main(["standings", "--journal", str(tmp_path / "none.sqlite")]) == 2
    assert "no journal here" in capsys.readouterr().err


def test_names_are_checked() -> None:
    assert clean_name("  Ann   Lee ") == "Ann Lee"
    assert clean_name("") is None and clean_name(3) is None and clean_name("x" * 41) is None
    assert clean_name("a\nb") == "a b" and clean_name("\x07") is None
    assert seat_identities(["red", "blue"], {"names": "nope"}) == {"red": None, "blue": None}


def test_a_bot_on_several_seats_counts_each_seat(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as j:
        write_game(j, "lastonealive", 1, 2, named(LOA, {}, bots=("red", "blue"), bot="careful"))
        (table,) = standings(j)
    (bot,) = table.bots
    assert bot.name == "careful" and bot.games == 2 and bot.wins == 1 and table.unnamed_seats == 0

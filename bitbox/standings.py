"""Standings: the named players of the journal ranked per game with openskill ratings.

Every finished game of the journal is one match, in the order the games were played (their
number): its winners share first place and everyone else shares second (the journal keeps
who won, not the order of the others), and the ratings move with openskill's
Plackett–Luce model (Weng and Lin's Bayesian approximation, a well-kept library:
``openskill``). A rating is a skill estimate ``mu`` with its uncertainty ``sigma``; the
standings rank by the conservative ``mu - 3 sigma`` (openskill's *ordinal*) and show
``mu ± 2 sigma`` as the rating's interval (about 95 %).

Who is who (docs/analysis.md):

* a **named player** is a name the game's record gives a seat: ``settings["names"]``, a
  mapping ``{player: name}`` (the player is the seat's name in the game, its colour; the name
  is the person's). The same name in several games, any game, is the same person (names are
  compared after trimming spaces and ignoring case; shown as first written);
* a seat the record marks as a **bot** (``settings["seats"]``: ``kind: bot``) is rated under
  the bot's name (``greedy``; ``settings["bot"]``, cycled over the bot seats), in a table of
  its own; a bot on several seats of a game plays each seat with its rating, counts each as a
  game, and takes the mean of their updates;
* any other seat is **unnamed**: it plays its game with a fresh rating (so a win against it
  counts) but is not listed; the standings count them.

An imported game (``import``) is the same game as the one it was exported from: the journal
refuses to hold it twice, and the standings count a game once even if two records of it
(the same initial state and inputs) are found.
"""
from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The most characters a name may have (longer ones are not names: the seat is unnamed).
MAX_NAME = 40


@dataclass
class Standing:
    """One rated entrant of one game: a person (``kind == "player"``) or a bot."""

    name: str
    kind: str
    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0

    @property
    def ordinal(self) -> float:
        """The conservative rating the standings rank by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    @property
    def interval(self) -> tuple[float, float]:
        return self.mu - 2 * self.sigma, self.mu + 2 * self.sigma

    def to_data(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"name": self.name, "kind": self.kind, "rating": self.ordinal, "mu": self.mu, "sigma": self.sigma,
                "interval": [lo, hi], "games": self.games, "wins": self.wins}


@dataclass
class GameStandings:
    """The standings of one game (cartridge)."""

    game: str
    players: list[Standing] = field(default_factory=list)
    bots: list[Standing] = field(default_factory=list)
    games: int = 0
    unnamed_seats: int = 0
    duplicates: int = 0

    def to_data(self) -> dict[str, Any]:
        return {"game": self.game, "games": self.games, "unnamed_seats": self.unnamed_seats,
                "duplicates_skipped": self.duplicates,
                "players": [s.to_data() for s in self.players], "bots": [s.to_data() for s in self.bots]}


def clean_name(value: Any) -> str | None:
    """A name as a record may give it: a non-empty string of at most :data:`MAX_NAME`
    printable characters (spaces trimmed); None for anything else."""
    if not isinstance(value, str):
        return None
    name = " ".join(value.split())
    if not name or len(name) > MAX_NAME or not name.isprintable():
        return None
    return name


def seat_identities(players: Sequence[str], settings: Mapping[str, Any]) -> dict[str, tuple[str, str] | None]:
    """Who sat in each seat of a game's record: ``("player", name)``, ``("bot", bot name)`` or
    None for an unnamed seat (see the module docstring)."""
    names = settings.get("names")
    names = names if isinstance(names, Mapping) else {}
    seats = settings.get("seats")
    kinds = {s.get("player"): s.get("kind") for s in seats if isinstance(s, Mapping)} if isinstance(seats, list) else {}
    cycle = [b for b in str(settings.get("bot") or "").split(",") if b] or ["bot"]
    out: dict[str, tuple[str, str] | None] = {}
    bots = 0
    for p in players:
        if kinds.get(p) == "bot":
            out[p] = ("bot", cycle[bots % len(cycle)])
            bots += 1
            continue
        name = clean_name(names.get(p))
        out[p] = ("player", name) if name else None
    return out


def standings(journal: Any, game: str | None = None) -> list[GameStandings]:
    """The standings of every game found in ``journal`` (a :class:`~bitbox.table.journal.Journal`),
    or of ``game`` only, by game name."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    tables: dict[str, GameStandings] = {}
    ratings: dict[tuple[str, str, str], Any] = {}        # (game, kind, key) -> rating
    shown: dict[tuple[str, str, str], Standing] = {}
    seen: set[str] = set()
    for info in journal.games():
        if info.status != "finished" or (game is not None and info.game != game):
            continue
        table = tables.setdefault(info.game, GameStandings(info.game))
        fingerprint = _fingerprint(journal, info.id)
        if fingerprint in seen:
            table.duplicates += 1
            continue
        seen.add(fingerprint)
        table.games += 1
        winners = set(info.winners or [])
        who = seat_identities(info.players, info.settings)
        teams: list[list[Any]] = []
        ranks: list[float] = []
        keys: list[tuple[tuple[str, str, str] | None, str]] = []
        used: set[tuple[str, str, str]] = set()
        for p in info.players:
            ident = who[p]
            if ident is not None and ident[0] == "player" and (info.game, ident[0], ident[1].casefold()) in used:
                ident = None                    # one name on two seats of a game: the second is unnamed
            if ident is None:
                table.unnamed_seats += 1
                teams.append([model.rating()])
                keys.append((None, p))
            else:
                kind, name = ident
                key = (info.game, kind, name.casefold())
                used.add(key)
                known = ratings.get(key)
                rating = model.rating() if known is None else known
                if key not in shown:
                    shown[key] = Standing(name, kind, rating.mu, rating.sigma)
                    (table.players if kind == "player" else table.bots).append(shown[key])
                teams.append([rating])
                keys.append((key, p))
            ranks.append(1.0 if p in winners else 2.0)
        rated = model.rate(teams, ranks=ranks) if len(teams) > 1 else teams
        after: dict[tuple[str, str, str], list[Any]] = {}
        for (seat, p), team in zip(keys, rated):
            if seat is None:
                continue
            after.setdefault(seat, []).append(team[0])
            s = shown[seat]
            s.games += 1
            s.wins += 1 / len(winners) if p in winners else 0.0
        for seat, new in after.items():         # a bot on several seats: the mean of its seats' updates
            mu, sigma = sum(r.mu for r in new) / len(new), sum(r.sigma for r in new) / len(new)
            ratings[seat] = model.rating(mu=mu, sigma=sigma)
            shown[seat].mu, shown[seat].sigma = mu, sigma
    for table in tables.values():
        table.players.sort(key=lambda s: (-s.ordinal, s.name.casefold()))
        table.bots.sort(key=lambda s: (-s.ordinal, s.name.casefold()))
    return [tables[name] for name in sorted(tables)]


def _fingerprint(journal: Any, game_id: int) -> str:
    """The same game recorded twice (an import of a game already here) has the same initial
    state and inputs: their digest."""
    digest = hashlib.sha256()
    rows = journal._query("SELECT initial FROM games WHERE id = ?", (game_id,))
    digest.update(json.dumps(json.loads(rows[0][0]), sort_keys=True).encode())
    for rec in journal.inputs(game_id):
        digest.update(json.dumps([rec.kind, rec.data], sort_keys=True).encode())
    return digest.hexdigest()


def report(tables: Sequence[GameStandings], titles: Mapping[str, str]) -> str:
    """The standings as text: per game, the named players, then the bots."""
    from .safetext import printable
    from .simulation.report import table as grid
    if not tables:
        return "no finished game in the journal"
    out: list[str] = []
    for t in tables:
        title = titles.get(t.game, t.game)
        out.append(f"{title}: {t.games} game{'s' if t.games != 1 else ''}"
                   + (f", {t.unnamed_seats} unnamed seat{'s' if t.unnamed_seats != 1 else ''} (not listed)"
                      if t.unnamed_seats else "")
                   + (f", {t.duplicates} duplicate record{'s' if t.duplicates != 1 else ''} counted once"
                      if t.duplicates else ""))
        for label, rows in (("player", t.players), ("bot", t.bots)):
            if not rows:
                if label == "player":
                    out.append("  no named player yet (names: docs/analysis.md)")
                continue
            cells = [[str(k + 1), printable(s.name, MAX_NAME), f"{s.ordinal:.1f}",
                      f"{s.interval[0]:.1f}–{s.interval[1]:.1f}", str(s.games), f"{s.wins:g}"]
                     for k, s in enumerate(rows)]
            out.append(grid(["#", label, "rating", "skill ±2σ", "games", "wins"], cells, right=(0, 2, 3, 4, 5)))
        out.append("")
    out.append("rating: openskill's mu - 3 sigma (Plackett-Luce); skill ±2σ: mu - 2 sigma to mu + 2 sigma; "
               "winners share first place, the others second")
    return "\n".join(out)


def standings_command(prog: str, journal_path: str | None, game: str | None, as_json: bool) -> int:
    """``bitbox standings``: 0 and the standings, or 2 and one line."""
    from pathlib import Path

    from .games import GameError, find, names
    from .table.journal import Journal, JournalError, default_journal_path
    path = Path(journal_path) if journal_path else default_journal_path()
    if game is not None and game not in names():
        print(f"{prog}: no game called {game!r} (installed: {', '.join(names()) or 'none'})", file=sys.stderr)
        return 2
    try:
        with Journal(path, create=False, command="bitbox") as j:
            tables = standings(j, game)
    except JournalError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps({"journal": str(path), "games": [t.to_data() for t in tables]}, indent=1))
        return 0
    titles: dict[str, str] = {}
    for t in tables:
        try:
            titles[t.game] = find(t.game).title
        except GameError:
            titles[t.game] = t.game
    print(report(tables, titles))
    return 0


__all__ = ["MAX_NAME", "GameStandings", "Standing", "clean_name", "report", "seat_identities", "standings",
           "standings_command"]

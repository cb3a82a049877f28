"""Post-game analysis: each player's chance to win at every turn of a recorded game, for any
cartridge, from the public information only.

At the start of every turn of a game in the journal (and after its last input), the game as
it stood is rebuilt (:func:`bitbox.table.journal.replay`), and ``rollouts`` times its hidden
parts are drawn again with the protocol's :meth:`~bitbox.games.Cartridge.redeal` (nobody's
hand, no pile order, no random state is kept: only what the whole table saw) and the game is
played to its end by the cartridge's rollout bot in every seat (the one the search bot uses:
:func:`bitbox.bots.search.rollout_bot_name`). A player's chance is their share of those wins
(1/k for each of k winners), with its 95 % Wilson interval (:mod:`bitbox.simulation.rates`).

* :func:`analyse_game`: the :class:`Analysis` of one game of a journal;
* :meth:`Analysis.to_data` is ``analysis.json`` (a ``turns`` list: per turn each player's
  chance and interval; ``swings``: the turns where each player's chance moved most);
  :meth:`Analysis.chart` is ``win-chance.png`` (a line per player in the seat colours and
  marker shapes, the intervals as bands, the swings marked);
* :func:`suggest`: what the search bot would play for one player at one moment, and each
  option's score (from that player's information only);
* :func:`calibrate`: predicted chances against the outcomes of simulated games, as a
  reliability table and Brier scores (``bitbox calibrate GAME``; docs/analysis.md);
* :func:`analyse_command`: ``bitbox analyse GAME ID`` and every game's ``GAME analyse ID``.

The turns of a game are those its journal records (each input is stored with the turn it
was given on); a game without turns of its own records them all as one.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:       # a game's command parser imports this module: nothing heavy at import
    from .bots import Bot
    from .games import Cartridge, Game, Player
    from .simulation.rates import Rate

#: Rollouts per point when nothing else is said (an interval of about ±10 points at 50 %).
DEFAULT_ROLLOUTS = 100
#: The most rollouts an estimate may ask for (``analyse``, ``calibrate``; replay's ``--rollouts``
#: too): 100,000 a turn is already minutes of work; a 10**23 typo would never end.
MAX_ROLLOUTS = 100_000
#: Marker shapes, by seat: the lines differ by shape as well as by colour.
MARKERS = ("o", "s", "^", "D", "v", "P")


def derive(namespace: str, *parts: object) -> int:
    """:func:`bitbox.simulation.seeds.derive`, imported when first used."""
    from .simulation.seeds import derive as seeds_derive
    return seeds_derive(namespace, *parts)


@dataclass(frozen=True)
class Point:
    """The chances at one moment: ``turn`` (the turn about to start, or the last one for the
    final point), ``inputs`` (inputs applied before it) and each player's :class:`Rate` (the
    final point: the result, exactly)."""

    turn: int
    inputs: int
    chances: Mapping[Player, Rate]
    final: bool = False

    def chance(self, player: Player) -> float:
        value = self.chances[player].value
        return 0.0 if value is None else value

    def interval(self, player: Player) -> tuple[float, float]:
        if self.final:
            v = self.chance(player)
            return v, v
        return self.chances[player].ci95 or (0.0, 1.0)


@dataclass(frozen=True)
class Swing:
    """Where a player's chance moved most from one point to the next."""

    player: Player
    turn: int
    before: float
    after: float

    @property
    def change(self) -> float:
        return self.after - self.before


def _bots(cartridge: Cartridge, players: Sequence[Player], seed: int, rollout: str) -> dict[Player, Bot]:
    from .bots import make_bot
    return {p: make_bot(cartridge, rollout, derive("bitbox-analyse/bot", seed, k)) for k, p in enumerate(players)}


def estimate(cartridge: Cartridge, game: Game, rollouts: int, seed: int,
             bots: Mapping[Player, Bot]) -> dict[Player, Rate]:
    """Each player's chance to win ``game`` from its public information: ``rollouts`` redeals
    played to the end by ``bots``."""
    from .bots.search import play_out
    from .simulation.rates import Rate
    wins = {p: 0.0 for p in game.players}
    for i in range(rollouts):
        deal = derive("bitbox-analyse/deal", seed, i)
        other = play_out(cartridge.redeal(game, deal), bots, deal)
        winners = tuple(other.winners)
        for p in winners:
            wins[p] += 1 / len(winners)
    return {p: Rate(w, rollouts) for p, w in wins.items()}


def _result(game: Game) -> dict[Player, Rate]:
    from .simulation.rates import Rate
    winners = tuple(game.winners)
    return {p: Rate(1 / len(winners) if p in winners else 0.0, 1) for p in game.players}


@dataclass
class Analysis:
    """One game's chances at every turn (see the module docstring)."""

    game: str
    title: str
    game_id: int
    players: tuple[Player, ...]
    rollouts: int
    rollout_bot: str
    seed: int
    points: list[Point] = field(default_factory=list)
    winners: tuple[Player, ...] | None = None

    def swings(self) -> list[Swing]:
        """For each player, the step between two points where their chance moved most (none
        for a player whose chance never moved), the largest first."""
        out = []
        for p in self.players:
            steps = [Swing(p, b.turn, a.chance(p), b.chance(p)) for a, b in zip(self.points, self.points[1:])]
            if steps:
                best = max(steps, key=lambda s: abs(s.change))
                if abs(best.change) > 0:
                    out.append(best)
        return sorted(out, key=lambda s: -abs(s.change))

    def to_data(self) -> dict[str, Any]:
        """``analysis.json``."""
        return {
            "game": self.game, "id": self.game_id, "players": list(self.players),
            "winners": None if self.winners is None else list(self.winners),
            "method": {"rollouts": self.rollouts, "rollout_bot": self.rollout_bot, "seed": self.seed,
                       "information": "public (every hidden part drawn again for each rollout)",
                       "interval": "95 % Wilson"},
            "turns": [{"turn": pt.turn, "inputs": pt.inputs, "final": pt.final,
                       "players": {p: {"chance": pt.chance(p), "ci95": list(pt.interval(p))} for p in self.players}}
                      for pt in self.points],
            "swings": [{"player": s.player, "turn": s.turn, "before": s.before, "after": s.after, "change": s.change}
                       for s in self.swings()],
        }

    def chart(self) -> Any:
        """``win-chance.png`` as a matplotlib figure."""
        from .colours import LIGHT_RGB, SEAT_COLOURS
        from .simulation.charts import percent_axis, pyplot, whole_turns
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(10, 5))
        xs = [pt.turn + (1 if pt.final else 0) for pt in self.points]
        for k, p in enumerate(self.players):
            rgb = LIGHT_RGB.get(p) or LIGHT_RGB[SEAT_COLOURS[k % len(SEAT_COLOURS)]]
            colour = "#%02x%02x%02x" % rgb
            ys = [100 * pt.chance(p) for pt in self.points]
            lo = [100 * pt.interval(p)[0] for pt in self.points]
            hi = [100 * pt.interval(p)[1] for pt in self.points]
            ax.fill_between(xs, lo, hi, color=colour, alpha=0.15, linewidth=0)
            ax.plot(xs, ys, color=colour, marker=MARKERS[k % len(MARKERS)], markersize=6, markeredgecolor="#222222",
                    markeredgewidth=0.6, linewidth=1.8, label=p)
        for s in self.swings():
            k = self.players.index(s.player)
            x = next(x for x, pt in zip(xs, self.points) if pt.turn == s.turn and pt.chance(s.player) == s.after)
            last = x == max(xs)                 # at the right edge: the label goes to the left
            up = s.change > 0 or 100 * s.after < 10
            ax.annotate(f"{s.player} {100 * s.change:+.0f}", (x, 100 * s.after),
                        xytext=(-8 if last else 8, 9 if up else -15), textcoords="offset points",
                        ha="right" if last else "left", fontsize=8, fontweight="bold",
                        arrowprops={"arrowstyle": "-", "color": "#444444", "lw": 0.6})
            ax.plot([x], [100 * s.after], marker=MARKERS[k % len(MARKERS)], markersize=12, markerfacecolor="none",
                    markeredgecolor="black", markeredgewidth=1.2, linestyle="none")
        percent_axis(ax)
        whole_turns(ax.xaxis)
        ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
        ax.set_xlabel("turn (each point: the chance at the start of that turn; the last: the result)")
        ax.set_ylabel("chance to win (%)")
        ax.set_title(f"{self.title}, game {self.game_id}: each player's chance to win")
        ax.legend(title="player", loc="upper left", fontsize=8, ncol=min(3, len(self.players)))
        ax.grid(axis="y", color="#dddddd", linewidth=0.6)
        fig.text(0.005, 0.005, f"bands: 95 % Wilson intervals over {self.rollouts} rollouts a point "
                 f"(public information only, {self.rollout_bot} bots); circled: where each player's chance moved most",
                 fontsize=7, color="#444444", ha="left", va="bottom")
        return fig

    def write(self, out: Path) -> list[Path]:
        """``analysis.json`` and ``win-chance.png`` into ``out`` (made if need be)."""
        from .simulation.charts import save_figures
        out.mkdir(parents=True, exist_ok=True)
        data = out / "analysis.json"
        data.write_text(json.dumps(self.to_data(), indent=1) + "\n", encoding="utf-8")
        return [data, *save_figures({"win-chance.png": self.chart()}, out)]

    def report(self) -> str:
        """The table printed by ``analyse``: a row per point, a column per player."""
        from .simulation.report import table
        rows = []
        for pt in self.points:
            cells = [f"{100 * pt.chance(p):.0f}%" + ("" if pt.final else
                     f" ({100 * pt.interval(p)[0]:.0f}–{100 * pt.interval(p)[1]:.0f})") for p in self.players]
            rows.append(["end" if pt.final else str(pt.turn), *cells])
        lines = [f"{self.title}, game {self.game_id}: each player's chance to win at the start of each turn "
                 f"({self.rollouts} rollouts a point with {self.rollout_bot} bots, public information only; "
                 "95 % intervals)",
                 table(["turn", *self.players], rows, right=range(1, len(self.players) + 1))]
        swings = self.swings()
        if swings:
            lines.append("moved most: " + "; ".join(f"{s.player} {100 * s.change:+.0f} points at turn {s.turn}"
                                                    for s in swings))
        return "\n".join(lines)


def analyse_game(journal: Any, game_id: int, cartridge: Cartridge, rollouts: int = DEFAULT_ROLLOUTS, seed: int = 0,
                 rollout: str | None = None, progress: TextIO | None = None) -> Analysis:
    """The :class:`Analysis` of game ``game_id`` of ``journal`` (a :class:`~bitbox.table.journal.Journal`),
    verified first (:func:`~bitbox.table.journal.verify`). JournalError for a game that is not
    there or does not replay."""
    from .bots.search import rollout_bot_name
    from .simulation.progress import Progress
    from .table.journal import replay, verify
    info = verify(journal, game_id)
    inputs = journal.inputs(game_id)
    snapshots: list[tuple[int, int, Mapping[str, Any]]] = []       # (turn, inputs applied, state data)
    start = journal.initial(game_id)
    if inputs:
        snapshots.append((inputs[0].turn, 0, start.to_data()))
    last = start
    for i, (rec, game, _) in enumerate(replay(journal, game_id, verify=False)):
        last = game
        if i + 1 < len(inputs) and inputs[i + 1].turn != rec.turn:
            snapshots.append((inputs[i + 1].turn, i + 1, game.to_data()))
    final_data = last.to_data()
    name = rollout or rollout_bot_name(cartridge)
    players = tuple(info.players)
    analysis = Analysis(cartridge.name, cartridge.title, game_id, players, rollouts, name, seed)
    bots = _bots(cartridge, players, seed, name)
    bar = Progress(len(snapshots), progress, label="turns") if progress is not None else None
    try:
        for n, (turn, applied, data) in enumerate(snapshots):
            game = cartridge.from_data(data)
            if game.finished:
                break
            analysis.points.append(Point(turn, applied, estimate(cartridge, game, rollouts,
                                                                 derive("bitbox-analyse", seed, applied), bots)))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    end = cartridge.from_data(final_data)
    if end.finished:
        analysis.winners = tuple(end.winners)
        turn = inputs[-1].turn if inputs else 0
        analysis.points.append(Point(turn, len(inputs), _result(end), final=True))
    return analysis


def suggest(cartridge: Cartridge, game: Game, player: Player, rollouts: int = 200, seed: int = 0) -> Any:
    """What the search bot would play for ``player`` at this moment of ``game`` (for replay's
    "what would the bot play here"): a :class:`~bitbox.bots.search.Decision` with the option
    chosen and each option searched with its rollouts and mean share of the win, or None when
    ``player`` has no prompt open. Uses only ``player``'s information (their private view and
    prompt, as the search bot does): show it to that player, or after the game."""
    from .bots.search import Budget, SearchBot
    prompt = next((p for p in game.prompts() if p.player == player), None)
    if prompt is None:
        return None
    return SearchBot(cartridge, seed, Budget(rollouts)).decide(game, prompt)


# ----------------------------------------------------------------------------- calibration

@dataclass(frozen=True)
class Bin:
    """Predictions between ``low`` and ``high``: how many, their mean and the wins they saw."""

    low: float
    high: float
    count: int
    predicted: float
    observed: float

    @property
    def interval(self) -> tuple[float, float] | None:
        from .simulation.rates import wilson
        return wilson(self.observed * self.count, self.count) if self.count else None


@dataclass
class Calibration:
    """Predicted chances against outcomes: ``pairs`` of (predicted, outcome share)."""

    game: str
    players: int
    games: int
    rollouts: int
    rollout_bot: str
    pairs: list[tuple[float, float]] = field(default_factory=list)

    def brier(self) -> float:
        return sum((p - o) ** 2 for p, o in self.pairs) / len(self.pairs)

    def base_brier(self) -> float:
        """The Brier score of always predicting the fair share (1 / players)."""
        base = 1 / self.players
        return sum((base - o) ** 2 for _, o in self.pairs) / len(self.pairs)

    def bins(self, width: float = 0.1) -> list[Bin]:
        count = round(1 / width)
        out = []
        for b in range(count):
            low, high = b * width, (b + 1) * width
            inside = [(p, o) for p, o in self.pairs if low <= p < high or (b == count - 1 and p == 1.0)]
            n = len(inside)
            out.append(Bin(low, high, n, sum(p for p, _ in inside) / n if n else 0.0,
                           sum(o for _, o in inside) / n if n else 0.0))
        return out

    def report(self) -> str:
        from .simulation.report import table
        rows = []
        for b in self.bins():
            ci = b.interval
            rows.append([f"{100 * b.low:.0f}–{100 * b.high:.0f}%", b.count,
                         f"{100 * b.predicted:.1f}%" if b.count else "—", f"{100 * b.observed:.1f}%" if b.count else "—",
                         f"{100 * ci[0]:.0f}–{100 * ci[1]:.0f}%" if ci else "—"])
        skill = 1 - self.brier() / self.base_brier()
        return "\n".join([
            f"calibration of {self.game}: {self.games} games of {self.players} {self.rollout_bot} bots, "
            f"{len(self.pairs)} predictions ({self.rollouts} rollouts each, public information only)",
            table(["predicted", "n", "mean predicted", "won", "won 95% CI"], rows, right=range(1, 5)),
            f"Brier score {self.brier():.4f}; always the fair share ({100 / self.players:.0f}%): {self.base_brier():.4f}; "
            f"skill {skill:+.1%}"])

    def to_data(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "games": self.games, "rollouts": self.rollouts,
                "rollout_bot": self.rollout_bot, "predictions": len(self.pairs), "brier": self.brier(),
                "base_brier": self.base_brier(),
                "bins": [{"low": b.low, "high": b.high, "n": b.count, "predicted": b.predicted, "observed": b.observed,
                          "observed_ci95": list(b.interval) if b.interval else None} for b in self.bins()]}


def calibrate(cartridge: Cartridge, games: int, players: int, rollouts: int = DEFAULT_ROLLOUTS, points: int = 8,
              seed: int = 0, progress: TextIO | None = None) -> Calibration:
    """``games`` games of ``players`` rollout bots; at ``points`` moments of each (evenly
    spread over its applies) every player's chance is estimated as :func:`analyse_game`
    does, and compared with how the game ended."""
    from .bots.search import rollout_bot_name
    from .games.conformance import player_names
    from .simulation.progress import Progress
    name = rollout_bot_name(cartridge)
    names = player_names(cartridge, players)
    result = Calibration(cartridge.name, players, games, rollouts, name)
    bar = Progress(games, progress) if progress is not None else None
    try:
        for g in range(games):
            gseed = derive("bitbox-calibrate/game", seed, g)
            game = cartridge.new(names, gseed, {})
            states: list[Mapping[str, Any]] = [game.to_data()]
            seat_bots = _bots(cartridge, names, gseed, name)
            views_game = game
            while not views_game.finished:
                play_step(views_game, seat_bots)
                if not views_game.finished:
                    states.append(views_game.to_data())
            share = _result(views_game)
            step = max(1, len(states) // points)
            estimator = _bots(cartridge, names, gseed + 1, name)
            for i in range(0, len(states), step)[:points]:
                chances = estimate(cartridge, cartridge.from_data(states[i]), rollouts,
                                   derive("bitbox-calibrate/deal", gseed, i), estimator)
                for p in names:
                    result.pairs.append((chances[p].value or 0.0, share[p].value or 0.0))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return result


def play_step(game: Game, bots: Mapping[Player, Bot]) -> None:
    """Answer every prompt open in ``game`` with its player's bot, and apply them."""
    from .bots import LazyView
    game.apply({p.player: bots[p.player].choose(LazyView(game, p.player), p) for p in game.prompts()})


# ----------------------------------------------------------------------------- commands

def add_analyse_arguments(p: argparse.ArgumentParser) -> None:
    """``ID [--out DIR] [--journal PATH] [--rollouts N] [--seed S]`` (the command adds the
    logging options: its ``-q`` also hides the progress bar)."""
    from .table.gamefile import game_id_arg
    from .table.options import journal_arg
    p.add_argument("id", type=game_id_arg, metavar="ID", help="the game's number (see history)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write analysis.json and win-chance.png into DIR (default analysis-ID)")
    p.add_argument("--journal", metavar="PATH", type=journal_arg, help="the journal (default: the table's)")
    p.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS, metavar="N",
                   help=f"games played out from each turn (default {DEFAULT_ROLLOUTS}: about ±10 points)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the rollouts' seed (default 0)")


def add_analyse_command(sub: Any, game: str) -> None:
    """``GAME analyse ID``: the subcommand on a game's parser (``sub``), for the cartridge
    registered as ``game`` (:func:`bitbox.table.gamefile.add_journal_commands` adds it to
    every game's command)."""
    from .console import add_logging_options
    p = sub.add_parser("analyse", help="each player's chance to win at every turn of a recorded game",
                       description="Estimate each player's chance to win at the start of every turn of a game in "
                                   "the journal, from what the whole table could see (redeals and rollouts), "
                                   "with 95 % intervals; write analysis.json and the chart win-chance.png. "
                                   "See docs/analysis.md.")
    add_analyse_arguments(p)
    add_logging_options(p)
    name = game.rsplit(" ", 1)[-1]              # the console's command for any game: "bitbox game NAME"
    p.set_defaults(func=lambda args: analyse_command(f"{game} analyse", name, args))


def analyse_command(prog: str, cartridge: Cartridge | str, args: argparse.Namespace) -> int:
    """``PROG ID``: the analysis printed, and written into ``--out``; ``cartridge``: the game's,
    or its registry name. 2 and one line when the journal, the game or an option is wrong."""
    from .games import GameError
    from .table.journal import Journal, JournalError, default_journal_path
    if not 1 <= args.rollouts <= MAX_ROLLOUTS:
        print(f"{prog}: --rollouts must be 1 to {MAX_ROLLOUTS}, not {args.rollouts}", file=sys.stderr)
        return 2
    from .table.options import journal_exists, short_path
    from .table.seating import TableError
    out = Path(args.out) if args.out else Path(f"analysis-{args.id}")
    try:                                        # before the work: a bad --out is said at once
        os.lstat(out)
        taken = not out.is_dir()                # a file, or a link to nothing or to itself
    except (FileNotFoundError, NotADirectoryError):
        taken = False
    except OSError as exc:                      # a name the system refuses to look at (too long)
        print(f"{prog}: --out {short_path(str(out))}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if taken:
        print(f"{prog}: --out {out} exists and is not a directory", file=sys.stderr)
        return 2
    path = Path(args.journal) if args.journal else default_journal_path()
    try:
        if not journal_exists(path):
            print(f"{prog}: {path}: no journal here (no game has been played with it)", file=sys.stderr)
            return 2
    except TableError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    try:
        from .games import find
        c = find(cartridge) if isinstance(cartridge, str) else cartridge
        with Journal(path, create=False, game=c.name) as j:
            info = j.game(args.id)
            if info.game != c.name:
                print(f"{prog}: game {args.id} of {path} is a game of {info.game}, not {c.name}", file=sys.stderr)
                return 2
            analysis = analyse_game(j, args.id, c, args.rollouts, args.seed,
                                    progress=None if getattr(args, "quiet", False) else sys.stderr)
    except (JournalError, GameError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    if not analysis.points:                     # a game stopped before its first input: no turn to chart
        print(f"{prog}: game {args.id} has no input yet: nothing to analyse", file=sys.stderr)
        return 2
    print(analysis.report())
    try:
        files = analysis.write(out)
    except OSError as exc:
        print(f"{prog}: cannot write into {short_path(str(out))}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"\nwritten to {out}/: {', '.join(f.name for f in files)}")
    return 0


__all__ = ["DEFAULT_ROLLOUTS", "Analysis", "Bin", "Calibration", "Point", "Swing", "add_analyse_arguments",
           "add_analyse_command", "suggest",
           "analyse_command", "analyse_game", "calibrate", "estimate"]

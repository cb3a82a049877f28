"""``secrecy``: what a spectator sees before a reveal, secrets on disk, the secret seed."""
from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import shutil
import sqlite3
import subprocess
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from bitbox.testing import EventHand

from .core import PY, Row, _content, _play_env, _sql


class _Lines(logging.Handler):
    """Every record of the ``bitbox`` logger, at any level (``-v``, ``--log-file``), as text."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.name}: {record.getMessage()}")


@contextlib.contextmanager
def _status_lines(lines: list[str]) -> Iterator[None]:
    """Record into ``lines`` what the ``bitbox`` logger says meanwhile (one world's share)."""
    logger = logging.getLogger("bitbox")
    handler, level = _Lines(lines), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


class _World:
    """One referee session fed by hands, bots for the prefix, and a recorder of everything a
    spectator (or another player's controller) could see."""

    def __init__(self, players: int, seed: int, token_mode: str, first_game: bool) -> None:
        from bitbox.events import Connected, ControllerInfo
        from bitbox.table.referee import Pace
        from bitbox.table.seating import SeatPlan
        from outspeed.display.model import PLAYER_ORDER
        from outspeed.rules import Game
        from .core import bot_of, session_of
        content, self.wm = _content()
        names = list(PLAYER_ORDER[:players])
        game = Game.new(names, content.tiles, seed=seed, first_game=first_game, dice=content.dice,
                        token_counts=content.token_counts, markers=content.markers, token_mode=token_mode)
        self.queue: list = []
        self.printed: list[str] = []
        from outspeed.display import Lang
        en = Lang("en")
        self.session = session_of(game, [SeatPlan(p, i) for i, p in enumerate(names)], self.wm,
                                  pace=Pace.instant(), on_event=lambda e: self.printed.append(en.event(e.kind, e.data)))
        self.hands = {p: EventHand(self.queue, i, 0x5EC0 + i) for i, p in enumerate(names)}
        for i, p in enumerate(names):
            self.queue.append(Connected(i, ControllerInfo(0x5EC0 + i, f"x://{i}", (1, 0), "1.0.0", (16, 16, 16)), 0.0))
        self.bots = [bot_of(p, self.hands[p], "random", self.wm, seed=seed) for p in names]
        self.commands: list[Any] = []
        self.logged: list[str] = []           # every status line (any level: what -v and --log-file show)

    @property
    def engine(self) -> Any:
        """The rules engine's game (the session's is the cartridge's around it)."""
        return self.session.game.engine

    @property
    def stage(self) -> str:
        """The table's stage as the screen names it (bonus, programming, draw, showing...)."""
        return str(self.session.table(0.0).stage)

    def pending_bonus(self) -> list[str]:
        """The players asked for their bonus play now."""
        s = self.session
        return [p for p, prompt in s.open.items() if prompt.kind == "bonus" and s.awaiting(p) is not None]

    def pump(self, bots: bool = False, rounds: int = 3) -> None:
        with _status_lines(self.logged):
            self._pump(bots, rounds)

    def _pump(self, bots: bool, rounds: int) -> None:
        s = self.session
        for _ in range(rounds):
            events, self.queue[:] = list(self.queue), []
            for e in events:
                s.handle(e)
            s.update(0.0)
            if bots:
                for b in self.bots:
                    b.update(s, 0.0)
            self.commands.extend(s.take_commands())

    def play_until_prompt(self, inputs: int, want: str, limit: int = 5000) -> bool:
        """Bots play until the prompt ``want`` (bonus, programming or draw) after ``inputs``."""
        s = self.session
        for _ in range(limit):
            self.pump(bots=False, rounds=1)
            if s.finished:
                return False
            if s.inputs_applied >= inputs and self.stage == want and (want != "bonus" or self.pending_bonus()):
                return True
            for b in self.bots:
                b.update(s, 0.0)
        return False


def _snap(world: _World, display: Any, langs: Sequence[Any]) -> tuple:
    import hashlib

    import pygame
    s = world.session
    table = s.table(0.0)
    frame = hashlib.sha256(pygame.image.tobytes(display.render_full(table), "RGB")).hexdigest()
    lines = tuple(L.event(e.kind, e.data) for L in langs for e in s.log)
    # A Hint (protocol 1.1) goes to one controller only and may show that player their own
    # hidden tokens: it is private, not compared (tests/table/test_private_hints.py checks that
    # it reaches the chooser alone). Every other command is compared.
    from bitbox.table.referee import Hint
    commands = tuple(c for c in world.commands if not isinstance(c, Hint))
    return (table, frame, lines, json.dumps(s.game.public_view(), sort_keys=True, default=str),
            commands, tuple(world.printed), tuple(world.logged))


def secrecy_pair(seed: int, players: int, token_mode: str, prefix: int, shape_seed: int,
                 first_game: bool = False, want: str = "programming",
                 size: tuple[int, int] = (480, 270)) -> dict[str, Any]:
    """Play one game twice to the same prompt, then let the two worlds differ in every hidden
    thing (tokens held, the pile, the choices locked, the refused tries) while acting with the
    same shape; compare everything a spectator could see after each hand on a wheel, up to
    the reveal. Returns the counts and the first difference (None: none)."""
    from outspeed.display import Lang, TableDisplay
    from outspeed.rules import PATHS, TOKENS, Choice
    worlds = [_World(players, seed, token_mode, first_game) for _ in range(2)]
    if not all(w.play_until_prompt(prefix, want) for w in worlds):
        return {"compared": 0, "difference": None, "vacuous": True, "stage": "finished"}
    stage = worlds[0].stage
    hidden_rng = [random.Random(shape_seed * 7919 + k) for k in range(2)]
    # World 1's hidden state: other token types in every hand, another pile order.
    g1 = worlds[1].engine.state
    if token_mode == "virtual":
        for p, held in g1.held.items():
            g1.held[p] = [hidden_rng[1].choice(TOKENS) for _ in held]
        hidden_rng[1].shuffle(g1.pile)
        changed = getattr(worlds[1].session.game, "changed", None)
        if callable(changed):                   # edited by hand: the game makes its prompts again
            changed()
    shape = random.Random(shape_seed)
    displays = [TableDisplay(size=size, lang="en") for _ in worlds]
    langs = [Lang(code) for code in ("en", "fr", "es", "de")]
    snaps: list[list[tuple]] = [[], []]
    differed = False
    revealed = False

    def act(fn: Callable[[int, _World], None]) -> bool:
        """Do one hand action in both worlds; False once the reveal happened."""
        nonlocal revealed
        before = [w.session.inputs_applied for w in worlds]
        for k, w in enumerate(worlds):
            fn(k, w)
            w.pump()
        revealed = any(w.session.inputs_applied != b for w, b in zip(worlds, before)) and stage != "draw"
        if not revealed:
            for k, w in enumerate(worlds):
                snaps[k].append(_snap(w, displays[k], langs))
        return not revealed

    def hand(w: _World, p: str) -> EventHand:
        return w.hands[p]

    def lock(w: _World, p: str, **wheels: int) -> None:
        h = hand(w, p)
        if h.locked:
            h.set(locked=False)
        h.set(**wheels, locked=True)

    for w, d in zip(worlds, displays):
        snaps[worlds.index(w)].append(_snap(w, d, langs))
    if stage == "programming":
        order = shape.sample(list(worlds[0].engine.state.active), k=len(worlds[0].engine.state.active))
        for n, p in enumerate(order):
            def legal(k: int, w: _World, p: str = p) -> list[Choice]:
                g = w.engine
                no_number: list[int | None] = [None]
                return [Choice(path, num) for path in g.legal_paths(p) for num in (g.legal_numbers(p, path) or no_number)]

            def illegal(k: int, w: _World, p: str = p) -> list[tuple]:
                g = w.engine
                out: list[tuple[int, int | None]] = [(0, None)]                                       # the rest stop: unreadable
                for path in PATHS:
                    if g.programming_refusal(p, Choice(path, None if g.current_paths.get(path) is None or
                                                       g.current_paths[path].choose is None else 99)):
                        out.append((w.wm.position_for("right", path), 99))
                return out

            def choose(k: int, w: _World, p: str = p) -> None:
                c = hidden_rng[k].choice(legal(k, w))
                wheels = {"right": w.wm.position_for("right", c.path)}
                if c.number is not None:
                    wheels["centre"] = w.wm.position_for("centre", c.number)
                lock(w, p, **wheels)

            if shape.random() < 0.3:                                    # a refused try first
                def refused(k: int, w: _World, p: str = p) -> None:
                    right, num = hidden_rng[k].choice(illegal(k, w))
                    lock(w, p, right=right, **({"centre": 6} if num == 99 and shape_seed % 2 else {}))
                if not act(refused):
                    break
            if shape.random() < 0.3:                                    # wheels turned, not locked
                def turned(k: int, w: _World, p: str = p) -> None:
                    hand(w, p).set(right=hidden_rng[k].randrange(4), locked=False)
                if not act(turned):
                    break
            if not act(choose):
                break
            if n < len(order) - 1 and shape.random() < 0.2:             # a change of mind
                if not act(choose):
                    break
    elif stage == "bonus":
        for _ in range(40):
            pending = worlds[0].pending_bonus()
            if worlds[0].stage != "bonus" or not pending:
                break
            p = pending[shape.randrange(len(pending))]
            tokens = [[t for t in w.engine.legal_bonus_plays(p) if t is not None] for w in worlds]
            bad = [[t for t in TOKENS if w.engine.bonus_refusal(p, t)] for w in worlds]
            if all(bad) and shape.random() < 0.3:
                def refuse(k: int, w: _World, p: str = p, bad: list[list[str]] = bad) -> None:
                    lock(w, p, left=w.wm.position_for("left", hidden_rng[k].choice(bad[k])))
                if not act(refuse):
                    break
            plays = all(tokens) and shape.random() < 0.6

            def play(k: int, w: _World, p: str = p, tokens: list[list[str]] = tokens, plays: bool = plays) -> None:
                lock(w, p, left=w.wm.position_for("left", hidden_rng[k].choice(tokens[k]) if plays else "none"))
            if not act(play):
                break
    elif stage == "draw":
        p = worlds[0].engine.state.draw_queue[0]
        drawn = [list(w.engine.state.drawn) for w in worlds]
        wrong = [[t for t in TOKENS if t not in d] for d in drawn]
        if all(wrong) and shape.random() < 0.5:
            act(lambda k, w: lock(w, p, left=w.wm.position_for("left", hidden_rng[k].choice(wrong[k]))))
        act(lambda k, w: lock(w, p, left=w.wm.position_for("left", hidden_rng[k].choice(drawn[k]))))
        for k, w in enumerate(worlds):                                # the kept token stays hidden
            w.pump()
            snaps[k].append(_snap(w, displays[k], langs))
    st0, st1 = (w.engine.state for w in worlds)
    differed = (st0.held != st1.held or st0.pile != st1.pile
                or any(w.hands[p].wheels != worlds[0].hands[p].wheels for w in worlds for p in w.hands))
    difference = None
    for i, (a, b) in enumerate(zip(*snaps)):
        if a != b:
            what = [name for name, x, y in zip(("table", "frame", "log lines", "public view", "commands",
                                                "printed lines", "status lines"), a, b) if x != y]
            difference = f"{stage}, snapshot {i}: {', '.join(what)} differ"
            break
    if len(snaps[0]) != len(snaps[1]):
        difference = difference or f"{stage}: {len(snaps[0])} vs {len(snaps[1])} snapshots"
    return {"compared": len(snaps[0]), "difference": difference, "vacuous": not differed, "stage": stage,
            "frames": 2 * len(snaps[0])}


def journal_privacy(workdir: Path) -> dict[str, Any]:
    """The journal, its folder and SQLite's side file, created under a permissive umask."""
    from bitbox.table.journal import Journal
    out: dict[str, Any] = {}
    for umask in (0o022, 0o000):
        old = os.umask(umask)
        try:
            folder = workdir / f"umask-{umask:03o}" / "8bitbox"
            j = Journal(folder / "journal.sqlite")
            j.db.execute("BEGIN IMMEDIATE")
            j.db.execute("INSERT INTO games (created, seed, players, settings, initial) VALUES ('x', 1, '[]', '{}', '{}')")
            side = folder / "journal.sqlite-journal"
            modes = {"folder": folder.stat().st_mode & 0o777, "file": (folder / "journal.sqlite").stat().st_mode & 0o777,
                     "side file": side.stat().st_mode & 0o777 if side.exists() else None}
            j.db.execute("ROLLBACK")
            j.close()
            # an existing journal others could read is made private when opened
            loose = workdir / f"umask-{umask:03o}" / "old.sqlite"
            Journal(loose).close()
            os.chmod(loose, 0o644)
            Journal(loose).close()
            modes["existing 0644 file, reopened"] = loose.stat().st_mode & 0o777
        finally:
            os.umask(old)
        out[f"umask {umask:03o}"] = {k: (oct(v) if v is not None else None) for k, v in modes.items()}
    return out


def seed_secrecy(workdir: Path, games: int) -> Row:
    """Issue 13: games played without --seed: each seed is a 128-bit draw from the OS, never in
    the printed lines, nor in history or replay while the game is unfinished; shown after."""
    workdir.mkdir(parents=True, exist_ok=True)
    seeds, problems = [], []
    for k in range(games):
        journal = workdir / f"game-{k}.sqlite"
        r = subprocess.run([PY, "-m", "outspeed.cli", "play", "--headless", "--players", "3", "--size", "320x180",
                            "--journal", str(journal), "--snapshots", str(workdir / "s")],
                           cwd=workdir, env=_play_env(workdir), capture_output=True, text=True, timeout=120)
        db = sqlite3.connect(journal)
        seed = json.loads(db.execute("SELECT initial FROM games WHERE id = 1").fetchone()[0])["seed"]
        db.close()
        seeds.append(seed)

        def shown(text: str, seed: int = seed) -> bool:
            return str(seed) in text or hex(seed)[2:] in text.lower()
        half = workdir / f"game-{k}-unfinished.sqlite"
        shutil.copy(journal, half)
        _sql(half, "DELETE FROM inputs WHERE seq >= 6", "UPDATE games SET status = 'playing', winners = NULL")
        before = [subprocess.run([PY, "-m", "outspeed.cli", *cmd, "--journal", str(half)], cwd=workdir,
                                 env=_play_env(workdir), capture_output=True, text=True, timeout=120)
                  for cmd in (["history"], ["replay", "1", "--headless"])]
        after = subprocess.run([PY, "-m", "outspeed.cli", "history", "--journal", str(journal)], cwd=workdir,
                               env=_play_env(workdir), capture_output=True, text=True, timeout=120)
        if r.returncode != 0 or shown(r.stdout + r.stderr):
            problems.append(f"game {k}: shown while playing (exit {r.returncode})")
        if any(b.returncode != 0 or shown(b.stdout + b.stderr) for b in before):
            problems.append(f"game {k}: shown by history or replay before the end")
        if after.returncode != 0 or str(seed) not in after.stdout:
            problems.append(f"game {k}: not shown by history after the end")
    bits = [s.bit_length() for s in seeds]
    if len(set(seeds)) != len(seeds) or min(bits) <= 64:
        problems.append(f"seeds: {len(set(seeds))} distinct, bit lengths {bits}")
    return Row("The seed of a game played without --seed",
               f"{games} headless games without --seed; the seed read back from the journal and searched (decimal "
               f"and hexadecimal) in everything printed while playing, and in `history` and `replay` of the game "
               f"cut back to 6 inputs (unfinished)", f"{games} games",
               (f"{len(set(seeds))} distinct seeds of {min(bits)}-{max(bits)} bits (drawn from the OS, 128 bits); "
                f"never shown before the end; shown by `history` once the game is over")
               if not problems else "; ".join(problems[:4]), not problems, {"bits": bits})


def campaign_secrecy(workdir: Path, games: int, seed: int, seed_games: int = 3) -> list[Row]:
    rng = random.Random(seed)
    results = []
    for g in range(games):
        want = rng.choice(("programming", "programming", "bonus", "bonus", "draw"))
        params: dict[str, Any] = dict(seed=rng.randrange(1, 10**6), players=rng.randint(3, 6),
                      token_mode="virtual" if want == "draw" else rng.choice(("virtual", "virtual", "physical")),
                      prefix=rng.randrange(0, 20), shape_seed=rng.randrange(10**6), first_game=rng.random() < 0.3,
                      want=want)
        r = secrecy_pair(**params)
        results.append({**params, **r})
    bad = [r for r in results if r["difference"]]
    used = [r for r in results if r["compared"] and not r["vacuous"]]
    stages = Counter(r["stage"] for r in used)
    snaps = sum(r["compared"] for r in used)
    priv = journal_privacy(workdir)
    priv_ok = all(v["file"] == "0o600" and v["folder"] == "0o700" and v["side file"] in ("0o600", None)
                  and v["existing 0644 file, reopened"] == "0o600" for v in priv.values())
    rows = [Row("Secrecy before a reveal",
                f"{len(used)} random games (3-6 players, virtual and physical tokens, random points) played "
                f"twice to the same prompt ({', '.join(f'{n} {k}' for k, n in stages.items())}); the second world "
                f"gets other held token types, another pile order, other choices and other refused tries; "
                f"after every hand on a wheel: the rendered frame, the log in 4 languages, the printed lines, "
                f"the status lines at every level (-v, --log-file), the public view and every command to a "
                f"controller",
                f"{snaps} snapshots, {2 * snaps} frames",
                ("identical in both worlds until the reveal: 0 differences"
                 if not bad else f"{len(bad)} differences: " + "; ".join(f"{r['difference']} ({r})" for r in bad[:3])),
                not bad and len(used) >= max(1, games // 2), {"games": results}),
            Row("Secrets on disk", "the journal (it holds the pile, the held tokens and each choice as it is locked "
                "in) created under umask 022 and 000, mid-transaction; an old 0644 journal reopened",
                f"{len(priv)} umasks",
                "; ".join(f"{k}: folder {v['folder']}, file {v['file']}, side file {v['side file']}, old file "
                          f"{v['existing 0644 file, reopened']}" for k, v in priv.items()) +
                ". Snapshots (PNG) are taken at the end of a turn, after its reveal; logs and printed lines "
                "carry only the public view (checked above)", priv_ok, priv),
            seed_secrecy(workdir / "seeds", seed_games),
            refused_tries_private(max(2, games // 6), seed + 1)]
    return rows


def refused_tries_private(games: int, seed: int) -> Row:
    """Issue 13, secret 2 (protocol 1.1): a player choosing which drawn token to keep tries
    wrong tokens first. The tries are told to that player's controller alone (RefuseChoice), the
    drawn tokens are hinted to it alone (Hint); the log, the printed lines, the public view, the
    table (its padlock apart: the physical switch everyone sees) and every command to another
    controller are the same whether the player tried 0 or several times."""
    from dataclasses import replace

    from outspeed.display import Lang
    from outspeed.rules import TOKENS
    from bitbox.table.referee import Hint, RefuseChoice
    rng = random.Random(seed)
    langs = [Lang(code) for code in ("en", "fr", "es", "de")]
    played, tries, problems = 0, 0, []

    def unlocked(table: Any) -> Any:
        return replace(table, players=tuple(replace(p, locked=False) for p in table.players))

    for _ in range(games * 4):
        if played >= games:
            break
        params: dict[str, Any] = dict(players=rng.randint(3, 6), seed=rng.randrange(1, 10**6), token_mode="virtual",
                      first_game=rng.random() < 0.5)
        prefix = rng.randrange(0, 12)
        worlds = [_World(**params) for _ in range(2)]
        if not all(w.play_until_prompt(prefix, "draw") for w in worlds):
            continue
        played += 1
        k = rng.randint(1, 3)
        player = worlds[0].engine.state.draw_queue[0]
        seat = worlds[0].session.by_player[player].seat
        seen = []
        for w, n in zip(worlds, (0, k)):
            s, h = w.session, w.hands[player]
            drawn = list(w.engine.state.drawn)
            wrong = [t for t in TOKENS if t not in drawn]
            if h.locked:
                h.set(locked=False)
                w.pump()
            mark = len(w.commands)
            before = unlocked(s.table(0.0))
            for j in range(n):
                h.set(left=w.wm.position_for("left", wrong[j % len(wrong)]), locked=True)
                w.pump()
                if unlocked(s.table(0.0)) != before:
                    problems.append(f"seed {params['seed']}: the table changed on a refused try")
                h.set(locked=False)
                w.pump()
            # while the player chooses (the game goes on after the keep: others get their own hints)
            private = [c for c in w.commands[mark:] if isinstance(c, (Hint, RefuseChoice))]
            if any(c.seat != seat for c in private):
                problems.append(f"seed {params['seed']}: a private command reached another controller")
            hints = [c for c in w.commands if isinstance(c, Hint) and any((c.left, c.centre, c.right))]
            if not hints or hints[-1].seat != seat:
                problems.append(f"seed {params['seed']}: the drawn tokens were not hinted to the chooser")
            refusals = sum(1 for c in private if isinstance(c, RefuseChoice))
            if refusals != n:
                problems.append(f"seed {params['seed']}: {refusals} refusals told for {n} tries")
            h.set(left=w.wm.position_for("left", drawn[0]), locked=True)
            w.pump()
            others = tuple(c for c in w.commands if getattr(c, "seat", None) != seat)
            seen.append((tuple(L.event(e.kind, e.data) for L in langs for e in s.log), tuple(w.printed),
                         json.dumps(s.game.public_view(), sort_keys=True, default=str), s.table(0.0), others))
        tries += k
        for name, a, b in zip(("log lines", "printed lines", "public view", "table", "commands to others"), *seen):
            if a != b:
                problems.append(f"seed {params['seed']}: {name} differ between 0 and {k} tries")
    ok = not problems and played >= max(1, games // 2)
    return Row("Refused tries in a private choice (protocol 1.1)",
               f"{played} random games (3-6 players, virtual tokens) played twice to a draw; the drawing player "
               f"keeps a drawn token at once in one world, after 1-3 wrong tries in the other; compared: the log "
               f"in 4 languages, the printed lines, the public view, the table, every command to another controller",
               f"{played} games, {tries} wrong tries",
               ("identical with and without the tries: 0 differences; each try refused to the chooser's controller "
                "alone, the drawn tokens hinted to it alone") if ok else "; ".join(problems[:4]) or
               f"only {played} games reached a draw", ok, {"problems": problems, "games": played})

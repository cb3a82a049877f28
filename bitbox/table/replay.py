"""Replay you can use, for every game: the window's move list and scrubber, its win-chance
graph and "what would the bot play here", and the animated GIF of a game.

``GAME replay [ID]`` (:func:`bitbox.table.journal_commands.replay`) rebuilds a game of the
journal as one frame per turn (:func:`bitbox.table.history.replay_frames`: the public view
after every event of the turn, never lagging them). Here:

* :class:`ReplayGame`: the frames, the game's record and where each frame stands in the
  journal's inputs, so the game itself at any frame can be rebuilt (for the search bot);
* :class:`Cursor`: the frame shown and how it moves (keys, a typed turn number, a
  controller's wheels: :class:`WheelSteps`), pure (no pygame);
* :func:`suggestions`: what the search bot (:mod:`bitbox.bots.search`) would play at the
  moment a frame shows, for each player with a choice to make then, each from that
  player's own information only (the bot redeals what the player cannot see); given only
  for a finished game (before the end it would show the table a player's hidden hand);
* :func:`load_analysis` / :func:`estimate_analysis`: each player's chance to win at every
  frame, read from an ``analysis.json`` that ``GAME analyse ID`` wrote, or estimated now
  with a small budget (:data:`QUICK_ROLLOUTS` rollouts a turn);
* :func:`write_gif`: the frames as an animated GIF (Pillow), one frame per turn and a hold
  on the last;
* :func:`run_window`: the window (the game's own display on the left, the replay panel
  :class:`bitbox.display.replay.ReplayPanel` on the right).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .history import ReplayFrame
from .journal import GameInfo, Journal
from .seating import TableError

#: Rollouts per option for "what would the bot play here" (about ±12 points on an option's chance
#: at 50 %; the search bot searches every option from 16 rollouts each).
SUGGEST_ROLLOUTS = 60
#: ... and at most this long per player's decision (milliseconds; 0: no limit, the rollouts alone:
#: reproducible). Last One Alive's re-roll prompts list a dozen options, each rollout a whole game.
SUGGEST_THINK_MS = 3000
#: Rollouts per turn when the window estimates the chances itself (key A); ``analyse`` uses 100.
QUICK_ROLLOUTS = 20
#: The GIF's frame size when none is given: small enough to share (the table's layout holds at it).
GIF_SIZE = (960, 540)
#: How long each turn is shown in the GIF, and the hold on the last frame (milliseconds).
GIF_FRAME_MS = 1200
GIF_HOLD_MS = 5000


class ReplayError(TableError):
    """A replay request that cannot be met (one line, exit 2)."""


# ---------------------------------------------------------------------------- the game replayed

@dataclass
class ReplayGame:
    """One game of a journal, ready to replay: its record, its frames, and the journal they
    come from (to rebuild the game itself at a frame). ``cartridge``: the game's protocol
    cartridge (None when it is not installed: no bot, no estimate)."""

    info: GameInfo
    frames: list[ReplayFrame]
    journal_path: Path
    rules: Any
    cartridge: Any = None

    @property
    def finished(self) -> bool:
        return self.info.status == "finished"

    def label(self, i: int, words: Any) -> str:
        """Frame ``i`` as the move list names it: "start", else "turn N"."""
        return _t(words, "replay.start", "start") if i == 0 else _t(words, "replay.turn", "turn {turn}",
                                                                    turn=self.frames[i].turn)

    def index_of_turn(self, turn: int) -> int | None:
        """The frame that ends turn ``turn`` (0: the start, unless the game numbers its setup
        turn 0: the end of that turn); None when there is none."""
        found = [i for i, f in enumerate(self.frames) if i > 0 and f.turn == turn]
        return found[-1] if found else (0 if turn == 0 else None)

    def game_at(self, i: int) -> Any:
        """The game as a protocol game at the end of frame ``i`` (rebuilt from the journal's
        inputs; the true state, hidden parts included: hand it only to the search bot, which
        reads it through a redeal from one player's information)."""
        from .journal import replay
        if self.cartridge is None:
            raise ReplayError(f"{self.info.game} is not an installed cartridge: no search bot for it")
        upto = self.frames[i].inputs
        with Journal(self.journal_path, self.rules, create=False) as j:
            game = j.initial(self.info.id)
            for _rec, g, _ in replay(j, self.info.id, upto=upto, verify=False):
                game = g
            return self.cartridge.from_data(game.to_data())


def load(journal_path: Path, rules: Any, game_id: int, command: str | None = None) -> ReplayGame:
    """Game ``game_id`` of the journal at ``journal_path`` as a :class:`ReplayGame`."""
    from .history import replay_frames
    with Journal(journal_path, rules, create=False, command=command) as j:
        info = j.own_game(game_id, "replay {id}")
        frames = replay_frames(j, game_id, rules)
    return ReplayGame(info, frames, journal_path, rules, _cartridge(info.game))


def _cartridge(name: str) -> Any:
    from bitbox.games import GameError, find
    try:
        return find(name)
    except (GameError, LookupError, ImportError):
        return None


def _t(words: Any, key: str, english: str, **data: Any) -> str:
    """``key`` in the table's words, ``english`` when the game's words do not know it."""
    has = getattr(words, "has", None)
    if callable(has) and not has(key):
        from bitbox.i18n import Words
        console = Words(getattr(words, "code", "en"))
        return console.t(key, **data) if console.has(key) else english.format(**data)
    try:
        return str(words.t(key, **data))
    except (KeyError, ValueError):
        return english.format(**data)


def move_text(frame: ReplayFrame, words: Any, limit: int = 3) -> str:
    """A frame's events in one line for the move list (its first ``limit`` events, "…" after)."""
    texts = [str(words.event(e.kind, e.data)) for e in frame.events if e.kind not in ("started", "resumed")]
    if not texts:
        return "—"
    return " · ".join(texts[:limit]) + (" · …" if len(texts) > limit else "")


# ---------------------------------------------------------------------------- the cursor

@dataclass
class Cursor:
    """The frame shown (``index``), out of ``count``; a turn number being typed (``typed``)."""

    count: int
    index: int = 0
    typed: str = ""
    turn_of: Callable[[int], int | None] = field(default=lambda turn: None)     # a turn -> its frame

    def go(self, index: int) -> bool:
        new = max(0, min(self.count - 1, index))
        changed = new != self.index
        self.index = new
        return changed

    def step(self, n: int) -> bool:
        return self.go(self.index + n)

    def key(self, name: str) -> bool:
        """A key by name: "next", "prev", "first", "last", "page+", "page-", a digit, "enter"
        (go to the turn typed), "backspace". True when the frame or the typed number changed."""
        if name.isdigit() and len(name) == 1:
            self.typed = (self.typed + name)[-4:]
            return True
        if name == "backspace" and self.typed:
            self.typed = self.typed[:-1]
            return True
        if name == "enter":
            typed, self.typed = self.typed, ""
            if not typed:
                return False
            target = self.turn_of(int(typed))
            return self.go(target) if target is not None else True
        self.typed = ""
        moves = {"next": lambda: self.step(1), "prev": lambda: self.step(-1), "first": lambda: self.go(0),
                 "last": lambda: self.go(self.count - 1), "page+": lambda: self.step(10), "page-": lambda: self.step(-10)}
        move = moves.get(name)
        return move() if move is not None else False


class WheelSteps:
    """A controller's wheels as steps through the replay: each detent of the **left** wheel
    is one turn, of the **centre** wheel ten; closing a **lock** toggles "what would the bot
    play here". Raw positions only (any controller, any game); a jump of more than half the
    wheel is read as a wrap (the wheel went on past its last position), the wheel's size
    from the controller's handshake (:class:`bitbox.events.Connected`; 16 until known)."""

    POSITIONS = 16          # the protocol's most positions on a wheel

    def __init__(self) -> None:
        self._last: dict[int, tuple[int, int, bool]] = {}
        self._sizes: dict[int, tuple[int, int, int]] = {}

    def feed(self, event: Any) -> tuple[int, bool]:
        """A hub event -> (turns to step, whether the lock was just closed)."""
        from bitbox.events import Connected, WheelsChanged
        if isinstance(event, Connected):
            self._sizes[event.seat] = tuple(event.info.positions)  # type: ignore[assignment]
            return 0, False
        if not isinstance(event, WheelsChanged):
            return 0, False
        before = self._last.get(event.seat)
        self._last[event.seat] = (event.left, event.centre, event.locked)
        if before is None:
            return 0, False
        size = self._sizes.get(event.seat, (self.POSITIONS,) * 3)
        return (self._delta(before[0], event.left, size[0]) + 10 * self._delta(before[1], event.centre, size[1]),
                event.locked and not before[2])

    @classmethod
    def _delta(cls, old: int, new: int, size: int = POSITIONS) -> int:
        d = new - old
        if size > 1 and d > size / 2:
            d -= size
        elif size > 1 and d < -size / 2:
            d += size
        return d


# ---------------------------------------------------------------------------- what would the bot play

@dataclass(frozen=True)
class Suggestion:
    """The search bot's choice for ``player`` at one moment: ``options`` (each option in the
    table's words, its rollouts and mean share of the win), ``chosen`` (its words)."""

    player: str
    prompt: str
    options: tuple[tuple[str, int, float | None], ...]
    chosen: str
    rollouts: int

    def to_data(self) -> dict[str, Any]:
        return {"player": self.player, "prompt": self.prompt, "chosen": self.chosen, "rollouts": self.rollouts,
                "options": [{"option": o, "rollouts": n, "chance": m} for o, n, m in self.options]}


def option_words(cartridge: Any, prompt: Any, option: Any, words: Any) -> str:
    """An option of a prompt as the table says it: the game's ``option.KIND`` words when it
    has them, else its journal form."""
    data = cartridge.action_to_data(option)
    if isinstance(data, Mapping):
        shown = ", ".join(f"{k} {_value(words, v)}" for k, v in data.items() if v is not None) or _value(words, None)
    elif isinstance(data, list):
        shown = " ".join(_value(words, v) for v in _flat(data) if v is not None) or _value(words, None)
    else:
        shown = _value(words, data)
    say = getattr(words, "option", None)
    return str(say(prompt.kind, shown)) if callable(say) else shown


def _flat(data: Any) -> list[Any]:
    return [x for v in data for x in (_flat(v) if isinstance(v, list) else [v])]


def _value(words: Any, v: Any) -> str:
    value = getattr(words, "value", None)
    if callable(value):
        return str(value(v))
    return "—" if v is None else str(v)


def suggestions(rg: ReplayGame, i: int, words: Any, rollouts: int = SUGGEST_ROLLOUTS, seed: int = 0,
                think_ms: int = SUGGEST_THINK_MS) -> list[Suggestion]:
    """What the search bot would play at the moment frame ``i`` shows, for every player with
    a choice to make then (in seat order), each searched from that player's information only,
    with ``rollouts`` for each option (every option searched, up to the search bot's
    :data:`~bitbox.bots.search.MAX_CANDIDATES`: beyond, its own answer and others drawn at
    random) or ``think_ms`` per player, whichever ends first (0: no time limit).
    Answers with one option only (nothing to choose: the game took them too) are given first,
    up to the next real choice. Only for a finished game (:class:`ReplayError` before: it
    would show a player's hidden hand to the table)."""
    from bitbox.bots.search import MAX_CANDIDATES, Budget, SearchBot
    if not rg.finished:
        raise ReplayError(f"game {rg.info.id} is not finished: the bot's choice uses a player's hidden "
                          "information, shown only once the game is over")
    game = next_choice(rg.game_at(i))
    out = []
    for prompt in [p for p in game.prompts() if p.player in game.players and len(p.options) > 1]:
        player = prompt.player
        budget = Budget(rollouts * min(len(prompt.options), MAX_CANDIDATES), think_ms or None)
        decision = SearchBot(rg.cartridge, seed, budget).decide(game, prompt)     # reads the game through a redeal
        scored = sorted(decision.scores, key=lambda s: -1.0 if s.mean is None else -s.mean)
        out.append(Suggestion(player, _prompt_words(words, prompt),
                              tuple((option_words(rg.cartridge, prompt, s.option, words), s.rollouts, s.mean)
                                    for s in scored),
                              option_words(rg.cartridge, prompt, decision.chosen, words), decision.rollouts))
    return out


def next_choice(game: Any, most: int = 100) -> Any:
    """``game`` advanced over prompts that leave nobody a choice (every open prompt a player's,
    each with one option: the game could only go that way) to the next moment a player has
    one, or its end, or a prompt that is not a player's (who starts: chance, not a choice)."""
    for _ in range(most):
        if game.finished:
            break
        prompts = list(game.prompts())
        if not prompts or any(p.player not in game.players or len(p.options) != 1 for p in prompts):
            break
        game.apply({p.player: p.options[0] for p in prompts})
    return game


def _prompt_words(words: Any, prompt: Any) -> str:
    say = getattr(words, "prompt", None)
    if callable(say):
        try:
            return str(say(prompt.kind, prompt.context))
        except (KeyError, ValueError, TypeError):
            pass
    return str(prompt.kind).replace("_", " ")


def print_suggestions(rg: ReplayGame, i: int, words: Any, out: Any, rollouts: int = SUGGEST_ROLLOUTS,
                      seed: int = 0, as_json: bool = False, think_ms: int = SUGGEST_THINK_MS) -> None:
    """``replay ID --suggest TURN``: :func:`suggestions` printed (or as JSON)."""
    found = suggestions(rg, i, words, rollouts, seed, think_ms)
    turn = rg.frames[i].turn
    if as_json:
        print(json.dumps({"game": rg.info.id, "turn": turn, "frame": i, "rollouts_per_option": rollouts,
                          "think_ms": think_ms or None, "seed": seed, "suggestions": [s.to_data() for s in found]}, ensure_ascii=False, indent=1),
              file=out)
        return
    where = _t(words, "replay.at_start", "at the start") if i == 0 else _t(words, "replay.after_turn",
                                                                           "after turn {turn}", turn=turn)
    print(f"game {rg.info.id}, {where}:", file=out)
    if not found:
        print("  " + _t(words, "replay.bot_none", "nobody has a choice to make here"), file=out)
    for s in found:
        print(f"  {words.player(s.player)} — {s.prompt}: " + _t(words, "replay.bot_plays", "the bot plays {option}",
                                                                option=s.chosen), file=out)
        for text, n, mean in s.options:
            chance = "—" if mean is None else f"{100 * mean:.0f}%"
            print(f"    {chance:>5}  {text}" + (f"  ({n} rollouts)" if n else ""), file=out)


# ---------------------------------------------------------------------------- chances to win

@dataclass(frozen=True)
class Chances:
    """Each player's chance to win at some frames: ``by_frame`` frame index -> player ->
    (chance, low, high); ``source`` says where they come from (a file, or an estimate now)."""

    players: tuple[str, ...]
    by_frame: Mapping[int, Mapping[str, tuple[float, float, float]]]
    source: str
    rollouts: int


def chances_from_data(rg: ReplayGame, data: Any, source: str) -> Chances:
    """An ``analysis.json`` document (:meth:`bitbox.analysis.Analysis.to_data`) placed on the
    frames of ``rg`` (each point at the frame whose inputs it follows). :class:`ReplayError`
    when it is not this game's."""
    if not isinstance(data, Mapping) or not isinstance(data.get("turns"), list):
        raise ReplayError(f"{source}: not an analysis.json (no turns list)")
    if data.get("game") != rg.info.game or list(data.get("players") or []) != list(rg.info.players):
        raise ReplayError(f"{source}: the analysis of another game ({data.get('game')}, players "
                          f"{', '.join(map(str, data.get('players') or []))})")
    final = [t for t in data["turns"] if isinstance(t, Mapping) and t.get("final")]
    if (data.get("winners") is not None and rg.finished and sorted(data["winners"]) != sorted(rg.info.winners or [])) \
            or (final and rg.finished and final[-1].get("inputs") != rg.frames[-1].inputs):
        raise ReplayError(f"{source}: the analysis of another game (its result or its length differs from game "
                          f"{rg.info.id}'s)")
    at_inputs = {f.inputs: i for i, f in enumerate(rg.frames)}
    by_frame: dict[int, dict[str, tuple[float, float, float]]] = {}
    try:
        for t in data["turns"]:
            i = at_inputs.get(int(t["inputs"]))
            if i is None:
                continue
            by_frame[i] = {p: (float(v["chance"]), float(v["ci95"][0]), float(v["ci95"][1]))
                           for p, v in t["players"].items()}
        rollouts = int(data.get("method", {}).get("rollouts", 0))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ReplayError(f"{source}: not a readable analysis.json ({exc})") from None
    if not by_frame:
        raise ReplayError(f"{source}: none of its turns falls on this game's turns")
    return Chances(tuple(rg.info.players), by_frame, source, rollouts)


def load_analysis(rg: ReplayGame, path: str | Path) -> Chances:
    """The chances of ``analysis.json`` at ``path`` (or in the folder ``path``)."""
    if "\0" in str(path):
        raise ReplayError("--analysis: a path cannot hold a NUL character")
    from .options import user_path
    p = user_path(path)
    if p.is_dir():
        p = p / "analysis.json"
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReplayError(f"--analysis {p}: cannot read it ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise ReplayError(f"--analysis {p}: not JSON ({exc})") from None
    return chances_from_data(rg, data, str(p))


def estimate_analysis(rg: ReplayGame, rollouts: int = QUICK_ROLLOUTS, seed: int = 0) -> Chances:
    """Each player's chance at every turn, estimated now (:func:`bitbox.analysis.analyse_game`
    with ``rollouts`` a turn: public information only)."""
    from bitbox.analysis import analyse_game
    if rg.cartridge is None:
        raise ReplayError(f"{rg.info.game} is not an installed cartridge: no estimate of the chances")
    with Journal(rg.journal_path, rg.rules, create=False) as j:
        analysis = analyse_game(j, rg.info.id, rg.cartridge, rollouts, seed)
    return chances_from_data(rg, analysis.to_data(), f"estimated now, {rollouts} rollouts a turn")


# ---------------------------------------------------------------------------- the GIF

def write_gif(draw: Callable[[int], Any], count: int, path: Path, *, frame_ms: int = GIF_FRAME_MS,
              hold_ms: int = GIF_HOLD_MS) -> int:
    """Frames ``draw(0)`` .. ``draw(count - 1)`` (pygame surfaces) as an animated GIF at
    ``path``: each shown ``frame_ms``, the last ``hold_ms``, looping. Each frame gets its own
    palette of the colours it uses (no dithering: the table's flat colours stay flat). Returns
    the file's size in bytes; OSError when it cannot be written."""
    import pygame
    from PIL import Image
    images = []
    for i in range(count):
        surf = draw(i)
        rgb = Image.frombytes("RGB", surf.get_size(), pygame.image.tobytes(surf, "RGB"))
        images.append(rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    durations = [frame_ms] * (count - 1) + [hold_ms]
    path.parent.mkdir(parents=True, exist_ok=True) if not path.parent.exists() else None
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return path.stat().st_size


def human_size(n: float) -> str:
    """Bytes as people read them: 812 B, 4.2 KB, 42.1 MB."""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


__all__ = ["GIF_FRAME_MS", "GIF_HOLD_MS", "GIF_SIZE", "QUICK_ROLLOUTS", "SUGGEST_ROLLOUTS", "SUGGEST_THINK_MS", "Chances", "Cursor",
           "ReplayError", "ReplayGame", "Suggestion", "WheelSteps", "chances_from_data", "estimate_analysis",
           "human_size", "load", "load_analysis", "move_text", "next_choice", "option_words", "print_suggestions", "suggestions",
           "write_gif"]

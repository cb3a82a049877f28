"""Last One Alive's controls: what the wheels mean for each prompt, one source for the
referee (reading the active player's locked controller), the bots and the keyboard
hot-seat (turning a simulated controller's wheels to an answer), and the screen (what each
wheel means now). docs/last-one-alive.md "The controls, turn by turn" is the same table.

The wheels are a small menu: only the active player's controller is read; the player sets
the wheels and turns the lock on to submit, then off for the next prompt.

* **Token codes** (left wheel, printed on the help card; ``config/wheels.yaml``, game
  ``lastonealive``): 0 none / go on, 1 axe, 2 chainsaw, 3 flare, 4 pistol, 5 medkit (used
  by the referee itself), 6 radio, 7 barricade, 8 hero; with a real bag also 9 apocalypse,
  10 night, 11 day.
* **Dice are picked by label**: centre wheel = group (1 F in front of the active player,
  2 Z, 3 S, 4 O, 5 B rolled this turn), right wheel = number (F2 is centre 1, right 2). The
  group codes 2-5 also name a die type (the radio's two dice).

A reading is one of: an :class:`~lastonealive.rules.Action` to submit; a :class:`Mark` (one
step of a multi-die answer: a flare's dice, a hero's dice, the tokens discarded over the
limit, a token entered from a real bag); or a :class:`Unreadable` with the reason (a wheel
position that means nothing for the prompt). The engine decides legality; a refused answer
changes nothing.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Protocol, Sequence

from bitbox.games.protocol import Prompt
from bitbox.table.controls import Marked, Unreadable

from .rules import TYPES, Action, RulesError

GROUPS: dict[int, str] = {1: "f", 2: "z", 3: "s", 4: "o", 5: "b"}
GROUP_CODES: dict[str, int] = {v: k for k, v in GROUPS.items()}
TYPE_CODES: dict[int, str] = {2: "zombie", 3: "shoot", 4: "object", 5: "barricade"}
TYPE_CODE_OF: dict[str, int] = {v: k for k, v in TYPE_CODES.items()}
SETUP_SIDES: dict[int, str] = {1: "object", 2: "barricade"}     # the setup prompt's left wheel
ALL_DICE = 15                   # the hero's "re-roll all of them" (centre wheel)
WINDOWS = ("before", "after", "before_shoot", "before_barricades")
#: What each prompt asks of each wheel: the words keys the screen shows (``wheel.*``), or None.
WHEELS: dict[str, tuple[str | None, str | None, str | None]] = {
    "first": (None, None, None),
    "setup": ("wheel.side", None, None),
    "before": ("wheel.token", "wheel.group_or_type", "wheel.number_or_type"),
    "dice": ("wheel.shoot_dice", "wheel.object_dice", "wheel.barricade_dice"),
    "after": ("wheel.token", "wheel.group", "wheel.number"),
    "draw": ("wheel.draw_or_stop", None, None),
    "before_shoot": ("wheel.token", "wheel.group", "wheel.number"),
    "shoot": ("wheel.bangs", "wheel.group", "wheel.number"),
    "before_barricades": ("wheel.token", "wheel.group", "wheel.number"),
    "give": ("wheel.give_or_stop", "wheel.group", "wheel.number"),
    "draw_barricades": ("wheel.draws", None, None),
    "keep": ("wheel.discard", None, None),
    "bag": ("wheel.bag_token", None, None),
}
DEFAULT_TOKEN_CODES: dict[int, str] = {0: "none", 1: "axe", 2: "chainsaw", 3: "flare", 4: "pistol", 5: "medkit",
                                       6: "radio", 7: "barricade", 8: "hero", 9: "apocalypse", 10: "night",
                                       11: "day"}


@dataclass(frozen=True)
class Mark:
    """One step of an answer entered one lock at a time: ``what`` is ``flare`` or ``hero``
    (a die id), ``hero_go`` (re-roll the marked dice; ``value`` = ``all`` for every die),
    ``discard`` (a token name) or ``bag`` (what came out of a real bag)."""

    what: str
    value: Any


class WheelMap(Protocol):
    def meaning(self, wheel: str, position: int) -> Any: ...
    def position_for(self, wheel: str, meaning: Any) -> int: ...
    def meanings(self, wheel: str) -> Mapping[int, Any]: ...


def label(die_id: str) -> str:
    """A die's label on the screen: ``z3`` → ``Z3``."""
    return str(die_id).upper()


def die_wheels(die_id: str) -> tuple[int, int]:
    """(centre, right) that name die ``die_id``."""
    return GROUP_CODES[die_id[0]], int(die_id[1:])


class Controls:
    """The wheels of Last One Alive, read and set. ``token_codes``: left-wheel position →
    token name (from the wheel map's ``lastonealive`` game when given)."""

    def __init__(self, wheel_map: WheelMap | None = None) -> None:
        codes = dict(DEFAULT_TOKEN_CODES)
        if wheel_map is not None:
            try:
                codes = {int(p): m for p, m in wheel_map.meanings("left").items() if isinstance(m, str)}
            except (KeyError, ValueError, AttributeError):
                pass
        self.codes = codes
        self.position = {m: p for p, m in codes.items()}

    # ---- reading the active player's controller (the referee)
    def token(self, position: int) -> str | None:
        return self.codes.get(position)

    def die(self, centre: int, right: int) -> str | None:
        g = GROUPS.get(centre)
        return None if g is None or right < 1 else f"{g}{right}"

    def read(self, kind: str, wheels: Sequence[int], *, needed: int = 4, only_undo: bool = False,
             physical_bag: bool = False) -> Action | Mark | Unreadable:
        """The answer the wheels give to a ``kind`` prompt (the engine's prompt kinds, plus
        ``bag``: the token drawn from a real bag)."""
        left, centre, right = (int(w) for w in wheels)
        if kind == "bag":
            t = self.token(left)
            if t in (None, "none", "hero", "barricade"):
                return Unreadable("refuse.bag_token")
            return Mark("bag", t)
        if kind == "setup":
            side = SETUP_SIDES.get(left)
            return Action("side", None, side) if side else Unreadable("refuse.side")
        if kind == "dice":
            if only_undo:
                return Action("undo")
            if left + centre + right > needed:
                return Unreadable("refuse.too_many_dice")
            return Action("dice", None, (needed - left - centre - right, left, centre, right))
        if kind == "draw":                      # 1 draws one (the prompt comes back), 0 stops; n draws n
            return Action("draw", None, left)
        if kind == "draw_barricades":
            return Action("draw_barricades", None, left)
        if kind == "shoot":
            if left == 0:
                return Action("shoot")
            d = self.die(centre, right)
            return Action("shoot", None, (d, left)) if d else Unreadable("refuse.no_label")
        if kind == "give":
            if left == 0:
                return Action("give")
            if left != 1:
                return Unreadable("refuse.give")
            d = self.die(centre, right)
            return Action("give", None, d) if d else Unreadable("refuse.no_label")
        if kind == "keep":
            t = self.token(left)
            if t in (None, "none", "hero", "apocalypse", "night", "day"):
                return Unreadable("refuse.not_a_token")
            return Mark("discard", t)
        if kind in WINDOWS:
            t = self.token(left)
            if t is None or t in ("apocalypse", "night", "day"):
                return Unreadable("refuse.not_a_token")
            if t == "none":
                return Action("pass")
            if t == "hero":
                if centre == 0:
                    return Mark("hero_go", "marked")
                if centre == ALL_DICE:
                    return Mark("hero_go", "all")
                d = self.die(centre, right)
                return Mark("hero", d) if d else Unreadable("refuse.no_label")
            if t == "radio":
                t1, t2 = TYPE_CODES.get(centre), TYPE_CODES.get(right)
                if t1 is None or t2 is None:
                    return Unreadable("refuse.radio_types")
                return Action("use", "radio", (t1, t2))
            if t in ("axe", "chainsaw", "pistol") and kind == "before":
                return Action("use", t)
            if t == "medkit":
                return Action("use", "medkit")          # refused by the rules: it is automatic
            d = self.die(centre, right)
            if d is None:
                return Unreadable("refuse.no_label")
            if t == "flare":
                return Mark("flare", d)
            return Action("use", t, d)
        return Unreadable("refuse.nothing_to_decide")

    # ---- setting a controller (bots, tests)
    def steps(self, kind: str, answer: Any, *, marked: Sequence[Any] = (), held: Sequence[str] = (),
              needed: int = 4) -> list[dict[str, int]]:
        """The wheel settings, one per lock, that give ``answer`` (an Action, or a token name
        for ``bag``) to a ``kind`` prompt, given the steps already taken (``marked``: the dice
        marked or tokens discarded so far; ``held``: the tokens held, for ``keep``)."""
        pos = self.position
        if kind == "bag":
            return [{"left": pos[answer], "centre": 0, "right": 0}]
        a: Action = answer
        if kind == "setup":
            return [{"left": 1 if a.arg == "object" else 2, "centre": 0, "right": 0}]
        if kind == "dice":
            if a.kind == "undo":
                return [{"left": 0, "centre": 0, "right": 0}]
            _z, s, o, b = a.arg
            return [{"left": s, "centre": o, "right": b}]
        if kind in ("draw", "draw_barricades"):
            return [{"left": int(a.arg or 0), "centre": 0, "right": 0}]
        if kind in ("shoot", "give"):
            if a.arg is None:
                return [{"left": 0, "centre": 0, "right": 0}]
            die, n = a.arg if kind == "shoot" else (a.arg, 1)
            c, r = die_wheels(die)
            return [{"left": n, "centre": c, "right": r}]
        if kind == "keep":
            gone = list(held)
            for t in a.arg:
                gone.remove(t)
            for t in marked:
                if t in gone:
                    gone.remove(t)
            return [{"left": pos[t], "centre": 0, "right": 0} for t in gone]
        if kind in WINDOWS:
            if a.kind == "pass":
                return [{"left": pos["none"], "centre": 0, "right": 0}]
            t = a.token
            if t is None:
                raise ValueError(f"{a}: a use names its token")
            if t == "radio":
                return [{"left": pos[t], "centre": TYPE_CODE_OF[a.arg[0]], "right": TYPE_CODE_OF[a.arg[1]]}]
            if a.arg is None:
                return [{"left": pos[t], "centre": 0, "right": 0}]
            if t in ("flare", "hero"):
                out = []
                for d in a.arg:
                    if d not in marked:
                        c, r = die_wheels(d)
                        out.append({"left": pos[t], "centre": c, "right": r})
                if t == "hero":
                    out.append({"left": pos[t], "centre": 0, "right": 0})
                return out
            c, r = die_wheels(a.arg)
            return [{"left": pos[t], "centre": c, "right": r}]
        return []

    # ---- lights and hints
    def lights(self, kind: str | None) -> tuple[bool, bool, bool]:
        """The path lights of the active player's controller: the wheels the prompt reads."""
        if kind is None:
            return (False, False, False)
        if kind == "first":
            return (True, True, True)
        w = WHEELS.get(kind, (None, None, None))
        return (w[0] is not None, w[1] is not None, w[2] is not None)

    def show(self, kind: str | None, token: str | None) -> tuple[int, int, int]:
        """What the acting player's controller shows privately that is not a choice: at setup,
        the code of the token drawn (``token``), for its owner's eyes only (protocol 1.2 Show)."""
        if kind != "setup":
            return (0, 0, 0)
        pos = self.position.get(token or "")
        return ((1 << pos) if pos is not None and 0 <= pos < 16 else 0, 0, 0)

    @staticmethod
    def refused_wheels(kind: str | None) -> int:
        """The wheels a refusal of an answer to a ``kind`` prompt points at (bits: 1 left,
        2 centre, 4 right): those the prompt reads."""
        w = WHEELS.get(kind or "", (None, None, None))
        return sum(1 << i for i, x in enumerate(w) if x is not None) or 0b001

    def setup_hint(self) -> int:
        """The left-wheel stops a ``setup`` prompt accepts: 1 object, 2 barricade."""
        return sum(1 << p for p in SETUP_SIDES)

    def left_hint(self, accepted: Any) -> int:
        """Bits of the left-wheel stops whose token name ``accepted(name)``."""
        mask = 0
        for p, m in self.codes.items():
            if 0 <= p < 16 and accepted(m):
                mask |= 1 << p
        return mask


# ---------------------------------------------------------------------------- at the console's table

DRAW_KINDS = ("drew", "drew_face_down", "apocalypse", "night", "day")


def _engine(game: Any) -> Any:
    """The rules' game of the protocol's (the console's session holds the protocol's)."""
    return getattr(game, "engine", game)


class RealBag:
    """``--tokens physical`` (the console's ``entries``): before an input that draws from
    the bag is applied, whoever draws takes a token from the real bag and enters it with the
    left wheel; the tokens entered are journaled with the input (``drawn``) and put on top of
    the engine's bag first."""

    kind = "bag"

    def __init__(self, wheels: Controls) -> None:
        self.wheels = wheels

    def who(self, game: Any, kind: str, data: Mapping[str, Any], entered: Sequence[Any]) -> str | None:
        from .rules import Refused
        from .session import apply_input
        g = _engine(game)
        trial = g.copy()
        before = len(trial.state.bag)
        try:
            events = apply_input(trial, kind, {**data, "drawn": list(entered)})
        except (Refused, RulesError):
            return None
        pops = before + sum(1 for e in events if e.kind == "night") - len(trial.state.bag)
        if pops <= len(entered):
            return None
        drawers = [e.data.get("player") for e in events if e.kind in DRAW_KINDS]
        if trial.state.phase == "setup" and trial.state.setup_token is not None:
            drawers.append(trial.state.active)
        k = len(entered)
        return drawers[k] if k < len(drawers) and drawers[k] else (trial.state.active or g.state.active)

    def read(self, game: Any, wheels: Sequence[int], entered: Sequence[Any]) -> Any:
        read = self.wheels.read("bag", wheels)
        if not isinstance(read, Mark):
            return read
        left = Counter(_engine(game).state.bag)
        left.subtract(entered)
        if left[read.value] <= 0:
            return Unreadable("refuse.not_in_bag", {"token": read.value})
        return read.value

    def data(self, kind: str, data: Mapping[str, Any], entered: Sequence[Any]) -> dict[str, Any]:
        return {**data, "drawn": list(entered)}


class TableControls:
    """Last One Alive's controls for the console's session (:mod:`bitbox.table.controls`,
    with its optional members): the wheels read as :class:`Controls` says, answers of several
    locks (a flare's dice, a hero's dice, the tokens discarded over the limit), who goes first
    chosen at the table, the real bag, lights and the setup token shown privately (the events
    step by step and the game's own view are its presentation: :mod:`lastonealive.presentation`).
    ``marks``, kept by the session: ``(what, values)`` with ``what`` flare, hero or discard."""

    keyboard = "wheels"                         # every decision is made in the open, lock by lock

    def __init__(self, wheel_map: WheelMap | None = None, tokens: str = "virtual") -> None:
        if tokens not in ("physical", "virtual"):
            raise ValueError(f"tokens must be physical or virtual, not {tokens!r}")
        self.wheels = Controls(wheel_map)
        self.tokens = tokens
        self.entries = RealBag(self.wheels) if tokens == "physical" else None

    # ---- the console's Controls
    def _read(self, prompt: Prompt, wheels: Sequence[int]) -> Action | Mark | Unreadable:
        kind = prompt.kind
        needed = int(prompt.context.get("needed", 4)) if kind == "dice" else 4          # type: ignore[arg-type]
        only_undo = kind == "dice" and all(getattr(a, "kind", None) == "undo" for a in prompt.options)
        return self.wheels.read(kind, wheels, needed=needed, only_undo=only_undo)

    def read(self, prompt: Prompt, wheels: tuple[int, int, int]) -> Action | None:
        read = self._read(prompt, wheels)
        return read if isinstance(read, Action) else None

    def wheels_for(self, prompt: Prompt, action: Any) -> tuple[int, int, int]:
        steps = self.wheels.steps(prompt.kind, action)
        w = steps[0] if steps else {"left": 0, "centre": 0, "right": 0}
        return (w["left"], w["centre"], w["right"])

    def hint(self, prompt: Prompt) -> tuple[int, int, int]:
        """Only stops the referee accepts now: at setup the two sides; in a token window the
        left-wheel codes of the tokens with a legal use (and "none")."""
        if prompt.kind == "setup":
            return (self.wheels.setup_hint(), 0, 0)
        if prompt.kind not in WINDOWS:
            return (0, 0, 0)
        usable = {a.token for a in prompt.options if isinstance(a, Action) and a.kind == "use"}
        return (self.wheels.left_hint(lambda m: m == "none" or m in usable), 0, 0)

    # ---- the console's optional members
    def read_marked(self, game: Any, prompt: Prompt, wheels: tuple[int, int, int], marks: Any) -> Any:
        g = _engine(game)
        read = self._read(prompt, wheels)
        if isinstance(read, Mark):
            read = self._mark(g, prompt.player, read, marks)
        if isinstance(read, Action):
            try:
                code = g.refusal(read)
            except RulesError:
                code = "not_an_answer"
            if code is not None:
                return Unreadable(f"code.{code}")
        return read

    def _mark(self, g: Any, player: str, m: Mark, marks: Any) -> Any:
        what, so_far = marks if marks else (None, ())
        if m.what == "discard":
            held = Counter(g.held_faces(player))
            held.subtract(so_far)
            if held[m.value] <= 0:
                return Unreadable("code.not_held")
            gone = (*so_far, m.value)
            if sum((Counter(g.held_faces(player)) - Counter(gone)).values()) <= 3:
                keep = list(g.held_faces(player))
                for t in gone:
                    keep.remove(t)
                return Action("keep", None, tuple(keep))
            return Marked(("discard", gone))
        token = "flare" if m.what == "flare" else "hero"
        # the marks of this token so far: a refused lock changes nothing (the other token's
        # marks are dropped only when a mark of this one is taken)
        marked = list(so_far) if what == token else []
        if m.what == "hero_go":
            ids = g.hero_dice() if m.value == "all" else marked
            if not ids:
                return Unreadable("refuse.hero_none")
            return Action("use", "hero", tuple(ids))
        die = m.value
        if die in marked:
            return Unreadable("refuse.marked")
        code = g.refusal(Action("use", token, (die,)))
        if code not in (None, "wrong_count"):
            return Unreadable(f"code.{code}")
        marked.append(die)
        if token == "flare":
            full = Action("use", "flare", tuple(marked))
            if g.refusal(full) is None:
                return full
        return Marked((token, tuple(marked)))

    def wheels_marked(self, game: Any, prompt: Prompt, action: Any, marks: Any) -> tuple[int, int, int]:
        g = _engine(game)
        held = g.held_faces(prompt.player) if prompt.kind == "keep" else ()
        steps = self.wheels.steps(prompt.kind, action, marked=marks[1] if marks else (), held=held)
        w = steps[0] if steps else {"left": 0, "centre": 0, "right": 0}
        return (w["left"], w["centre"], w["right"])

    def first_input(self, game: Any, player: str) -> tuple[str, dict[str, Any]] | None:
        from .rules import UNSTARTED
        return ("start", {"first": player}) if _engine(game).state.phase == UNSTARTED else None

    def lights(self, game: Any, prompt: Prompt) -> tuple[bool, bool, bool]:
        return self.wheels.lights(prompt.kind)

    def show(self, prompt: Prompt) -> tuple[int, int, int]:
        token = prompt.context.get("token")
        return self.wheels.show(prompt.kind, token if isinstance(token, str) else None)

    def refused_wheels(self, prompt: Prompt) -> int:
        return self.wheels.refused_wheels(prompt.kind)

    def private_line(self, prompt: Prompt, words: Any) -> str | None:
        """The token drawn at setup: its owner's, shown on the keyboard's pad only on Tab."""
        token = prompt.context.get("token") if prompt.kind == "setup" else None
        return str(words.token(token)) if isinstance(token, str) else None


__all__ = ["ALL_DICE", "Controls", "RealBag", "TableControls", "GROUPS", "Mark", "TYPE_CODES", "TYPES", "Unreadable", "WHEELS", "WINDOWS",
           "die_wheels", "label"]

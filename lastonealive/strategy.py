"""Bots for Last One Alive that play through the console's bot protocol (``bitbox.bots``):
each gets its player's private view and one prompt, and returns one of the prompt's options.

``careful`` plays sensibly. Its one idea is the chance to survive the turn: at the end of
the turn every symbol in front of the player must be gone (shot, passed on by a barricade,
or saved by a medkit). It computes that chance from what the table sees and the printed
faces of the dice:

* **dice**: for every legal choice of the four dice, the chance that the bangs of the shoot
  dice cover the ambushes rolled plus the zombies in front that the barricade results (and
  the barricade tokens held) cannot pass on (the biggest zombie dice are passed first); the
  choice with the best chance wins, the zombie dice sent to the left player and the object
  results breaking near-ties;
* **tokens before the roll** (axe, chainsaw, pistol, radio, flare): used when the best chance
  over the dice choices rises by more than what keeping the token is worth;
* **tokens after the roll** (pistol and axe re-rolls, the chainsaw on an ambush, the hero
  re-roll of the ambushes and blank shoot dice): used when they raise the chance that is
  left by enough;
* **barricade tokens** count as passes when planning and are used at the last window
  (before the barricade results) on zombie dice the results cannot all pass on;
* **shooting**: ambushes first (they cannot be passed on), then the zombie dice the
  barricades will not pass, the smallest first, then anything else (3 bangs used earn a hero);
* **giving**: the biggest zombie die first, every result used;
* **drawing**: every object result while holding fewer than three tokens; barricade draws
  up to three tokens;
* **keeping** and the setup side: by a fixed value of each token (medkit, flare and pistol
  first).

The random bot is the console's :class:`bitbox.bots.RandomBot` (uniform among the options).
Neither reads anything but the view and the prompt.
"""
from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

from bitbox.bots import RandomBot
from bitbox.games.protocol import JSON, Prompt

from .rules import BANGS, DEFAULT_FACES, SYMBOLS, TYPES, Action

BOT_NAMES: tuple[str, ...] = ("random", "careful")

#: What a token is worth keeping, in chances of surviving a turn (also the keep order).
TOKEN_VALUE = {"medkit": 0.10, "flare": 0.08, "pistol": 0.07, "barricade": 0.06, "chainsaw": 0.05,
               "axe": 0.04, "radio": 0.03, "hero": 0.06}
OFFENCE = 0.005         # per zombie symbol expected to reach the left player (a tie-break: more loses, see below)
LOOT = 0.02             # per object result expected (only while holding fewer than 3 tokens)
MAX_BANGS = 24
# Tuned by head-to-head games (150 four-player games, two seats each, wins out of 150): on the
# zombies sent, 0.08 lost to 0.03 (56-94) and 0.03 lost to 0 (45-105); on the object results,
# 0.06 did not beat 0.02 clearly (76-74) and 0.12 lost to it with no weight on zombies (54-96).


def make_bot(name: str, seed: int | None = None, faces: Mapping[str, Sequence[str]] | None = None) -> Any:
    """The bot ``name`` (:data:`BOT_NAMES`); ValueError for another name."""
    if name == "random":
        return RandomBot(seed)
    if name == "careful":
        return CarefulBot(seed, faces)
    raise ValueError(f"unknown bot {name!r} for lastonealive (known: {', '.join(BOT_NAMES)})")


# ----------------------------------------------------------------------------- chance

def _actions(prompt: Prompt) -> tuple[Action, ...]:
    """The prompt's options as Last One Alive's actions (the console types them Hashable)."""
    return cast("tuple[Action, ...]", prompt.options)


class Dice:
    """The printed faces of the dice, as probabilities the bot can compute with."""

    def __init__(self, faces: Mapping[str, Sequence[str]] | None = None) -> None:
        self.faces = {t: tuple((faces or DEFAULT_FACES)[t]) for t in TYPES}
        self.key = tuple(self.faces[t] for t in TYPES)

    def p(self, t: str, face: str) -> float:
        fs = self.faces[t]
        return fs.count(face) / len(fs)

    def medkit(self) -> float:
        """The chance a medkit's shoot roll shows a bang."""
        return sum(1 for f in self.faces["shoot"] if BANGS.get(f, 0) > 0) / len(self.faces["shoot"])

    def chain(self) -> tuple[float, ...]:
        return _chain(self.faces["shoot"])

    def bangs(self, fixed: int, plus: int, shoot: int) -> tuple[float, ...]:
        """The distribution of the bangs of ``shoot`` dice still to roll, ``plus`` "+" faces to
        chain and ``fixed`` bangs already showing."""
        return _bangs(self.faces["shoot"], fixed, plus, shoot)


@lru_cache(maxsize=64)
def _chain(shoot: tuple[str, ...]) -> tuple[float, ...]:
    """The bangs a "+" re-roll adds (its own chain included), as a distribution."""
    n = len(shoot)
    dist = [0.0] * (MAX_BANGS + 1)
    # the chain: each round adds BANGS[face]; a "+" goes on (geometric, truncated)
    frontier = {0: 1.0}
    for _ in range(8):
        nxt: dict[int, float] = {}
        for b, pr in frontier.items():
            for f in shoot:
                v = min(MAX_BANGS, b + BANGS.get(f, 0))
                if f == "bang1plus":
                    nxt[v] = nxt.get(v, 0.0) + pr / n
                else:
                    dist[v] += pr / n
        frontier = nxt
    for b, pr in frontier.items():
        dist[b] += pr
    return tuple(dist)


def _convolve(a: Sequence[float], b: Sequence[float]) -> tuple[float, ...]:
    out = [0.0] * (MAX_BANGS + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[min(MAX_BANGS, i + j)] += x * y
    return tuple(out)


@lru_cache(maxsize=4096)
def _bangs(shoot: tuple[str, ...], fixed: int, plus: int, dice: int) -> tuple[float, ...]:
    dist: tuple[float, ...] = tuple(1.0 if i == min(fixed, MAX_BANGS) else 0.0 for i in range(MAX_BANGS + 1))
    chain = _chain(shoot)
    for _ in range(plus):
        dist = _convolve(dist, chain)
    if dice:
        n = len(shoot)
        one = [0.0] * (MAX_BANGS + 1)
        for f in shoot:
            if f == "bang1plus":
                for i, x in enumerate(chain):
                    one[min(MAX_BANGS, i + 1)] += x / n
            else:
                one[BANGS.get(f, 0)] += 1 / n
        for _ in range(dice):
            dist = _convolve(dist, one)
    return dist


def _at_least(dist: Sequence[float], need: int) -> float:
    if need <= 0:
        return 1.0
    if need > MAX_BANGS:
        return 0.0
    return sum(dist[need:])


def _binomial(n: int, p: float) -> list[float]:
    return [math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def _add(a: Sequence[float], b: Sequence[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _need(zombies: Sequence[int], passes: int) -> int:
    """Symbols left to shoot among zombie dice of these symbols when ``passes`` of them (the
    biggest) are passed on."""
    return sum(sorted(zombies, reverse=True)[max(0, passes):])


# ----------------------------------------------------------------------------- the bot

#: The chance to survive before the roll, by situation (a pure function of its key: shared
#: by every bot of the process, it changes no decision).
_MEMO: dict[tuple[Any, ...], float] = {}


class CarefulBot:
    """Plays to survive each turn (see the module docstring)."""

    name = "careful"

    def __init__(self, seed: int | None = None, faces: Mapping[str, Sequence[str]] | None = None) -> None:
        self.rng = random.Random(seed)
        self.dice = Dice(faces)
        self.offence, self.loot = OFFENCE, LOOT

    # -- reading the view
    @staticmethod
    def _me(view: Mapping[str, JSON]) -> Mapping[str, Any]:
        me = view["me"]
        for p in cast("list[Mapping[str, Any]]", view["players"]):
            if p["player"] == me:
                return p
        raise ValueError(f"no seat {me!r} in the view")

    def choose(self, view: Mapping[str, JSON], prompt: Prompt) -> Any:
        options = prompt.options
        if len(options) == 1:
            return options[0]
        kind = prompt.kind
        handler = getattr(self, f"_{kind}", None)
        if handler is None:
            return options[0]
        choice = handler(view, prompt)
        return choice if choice in options else options[0]

    # -- situations: what is in front, in the tray, held
    def _situation(self, view: Mapping[str, Any]) -> dict[str, Any]:
        me = self._me(view)
        ts = view["turn_state"]
        held = list(me["tokens"])
        return {
            "front": [tuple(d) for d in me["front"]],          # (id, type, face)
            "tray": [tuple(d) for d in view["tray"]],
            "pistols": ts["pistols"], "axes": ts["axes"], "chainsaw": ts["chainsaw_before"],
            "barricades": held.count("barricade"), "medkits": held.count("medkit"),
            "phase": view["phase"], "bangs_left": ts["bangs_left"], "gives_left": ts["gives_left"],
        }

    def _with_medkits(self, p: float, medkits: int) -> float:
        return 1 - (1 - p) * (1 - self.dice.medkit()) ** medkits

    def survival_after_roll(self, sit: Mapping[str, Any]) -> float:
        """The chance to end the turn clean from a situation after the roll."""
        front, tray, phase = sit["front"], sit["tray"], sit["phase"]
        ambush = sum(1 for d in front if d[2] == "ambush") + sum(1 for d in tray if d[2] == "ambush")
        zombies = [SYMBOLS[d[2]] for d in front if d[1] == "zombie" and d[2] in ("zombie1", "zombie2")]
        if phase == "give":
            passes = sit["gives_left"] + sit["barricades"]
        else:
            passes = sum(1 for d in tray if d[2] == "barricade") * 2 ** sit["axes"] + sit["barricades"]
        need = ambush + _need(zombies, passes)
        if phase in ("after", "draw", "before_shoot"):
            fixed = sum(BANGS.get(d[2], 0) for d in tray if d[1] == "shoot")
            plus = sum(1 for d in tray if d[1] == "shoot" and d[2] == "bang1plus")
            dist = self.dice.bangs(fixed, plus, 0)
            mult = 2 ** sit["pistols"]
            p = _at_least(dist, -(-need // mult))
        else:                               # shoot: the bangs are known; later: all used
            p = 1.0 if need <= (sit["bangs_left"] if phase == "shoot" else 0) else 0.0
        return self._with_medkits(p, sit["medkits"])

    def survival_before_roll(self, zombies: Sequence[int], counts: Mapping[str, int], pistols: int, axes: int,
                             chainsaw: bool, barricades: int, medkits: int) -> float:
        """The chance to end the turn clean when rolling ``counts`` dice of each type, with
        zombie dice of these symbols in front."""
        key = (self.dice.key, tuple(sorted(zombies)), tuple(counts[t] for t in TYPES), pistols, axes, chainsaw,
               barricades, medkits)
        memo = _MEMO
        p = memo.get(key)
        if p is None:
            if len(memo) > 100_000:
                memo.clear()
            p = memo[key] = self._survival_before_roll(zombies, counts, pistols, axes, chainsaw, barricades, medkits)
        return p

    def _survival_before_roll(self, zombies: Sequence[int], counts: Mapping[str, int], pistols: int, axes: int,
                              chainsaw: bool, barricades: int, medkits: int) -> float:
        d = self.dice
        pz = 0.0 if chainsaw else d.p("zombie", "ambush")
        po = 0.0 if chainsaw else d.p("object", "ambush")
        pb_amb = 0.0 if chainsaw else d.p("barricade", "ambush")
        pb_bar = d.p("barricade", "barricade")
        other = _add(_binomial(counts["zombie"], pz), _binomial(counts["object"], po))
        bangs = d.bangs(0, 0, counts["shoot"])
        mult, amult = 2 ** pistols, 2 ** axes
        nb = counts["barricade"]
        total = 0.0
        for ab in range(nb + 1):                                    # ambushes on barricade dice
            for rb in range(nb - ab + 1):                           # barricade results
                rest = nb - ab - rb
                pr = (math.comb(nb, ab) * math.comb(nb - ab, rb) * pb_amb ** ab * pb_bar ** rb
                      * max(0.0, 1 - pb_amb - pb_bar) ** rest)
                if pr == 0.0:
                    continue
                base = ab + _need(zombies, rb * amult + barricades)
                for a, pa in enumerate(other):
                    if pa:
                        total += pr * pa * _at_least(bangs, -(-(base + a) // mult))
        return self._with_medkits(total, medkits)

    # -- before the roll and the dice
    def _pre(self, view: Mapping[str, Any], prompt: Prompt) -> dict[str, Any]:
        me = self._me(view)
        ts = view["turn_state"]
        held = list(me["tokens"])
        info = view.get("prompt") or {}
        pool = dict(view["pool"])
        forced = min(view["level"], 4, pool["zombie"])
        return {"zombies": [SYMBOLS[d[2]] for d in me["front"] if d[1] == "zombie" and d[2] in ("zombie1", "zombie2")],
                "pistols": ts["pistols"], "axes": ts["axes"], "chainsaw": ts["chainsaw_before"],
                "barricades": held.count("barricade"), "medkits": held.count("medkit"),
                "forced": int(info.get("forced", forced)), "radio": [tuple(r) for r in ts["radio"]],
                "held": held, "tokens": len([t for t in held if t != "hero"])}

    def _dice_score(self, pre: Mapping[str, Any], chosen: Sequence[int]) -> float:
        counts = {t: c for t, c in zip(TYPES, chosen)}
        counts["zombie"] += pre["forced"]
        for pair in pre["radio"]:
            for t in pair:
                counts[t] += 1
        p = self.survival_before_roll(pre["zombies"], counts, pre["pistols"], pre["axes"], pre["chainsaw"],
                                      pre["barricades"], pre["medkits"])
        d = self.dice
        sent = counts["zombie"] * (d.p("zombie", "zombie1") + 2 * d.p("zombie", "zombie2"))
        loot = counts["object"] * d.p("object", "object") if pre["tokens"] < 3 else 0.0
        return p + self.offence * sent + self.loot * loot

    def _best_dice(self, pre: Mapping[str, Any], avail: Mapping[str, int], need: int) -> tuple[float, tuple[int, ...]]:
        best: tuple[float, tuple[int, ...]] = (-1.0, (0, 0, 0, 0))
        for z in range(min(need, avail["zombie"]) + 1):
            for s in range(min(need - z, avail["shoot"]) + 1):
                for o in range(min(need - z - s, avail["object"]) + 1):
                    b = need - z - s - o
                    if b <= avail["barricade"]:
                        score = self._dice_score(pre, (z, s, o, b))
                        if score > best[0] + 1e-12:
                            best = (score, (z, s, o, b))
        return best

    def _avail(self, view: Mapping[str, Any], pre: Mapping[str, Any]) -> dict[str, int]:
        avail = dict(view["pool"])
        avail["zombie"] -= pre["forced"]
        for pair in pre["radio"]:
            for t in pair:
                avail[t] -= 1
        return avail

    def _dice(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        best, choice = None, prompt.options[0]
        pre = self._pre(view, prompt)
        for option in _actions(prompt):
            score = self._dice_score(pre, option.arg)
            if best is None or score > best + 1e-12:
                best, choice = score, option
        return choice

    def _before(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        pre = self._pre(view, prompt)
        avail = self._avail(view, pre)
        need = min(4, max(0, sum(avail.values())))
        base, _ = self._best_dice(pre, avail, need)
        best, choice = 0.0, prompt.options[0]            # options[0] is pass
        flares: list[Action] = []
        for option in prompt.options:
            if not isinstance(option, Action) or option.kind != "use":
                continue
            token = option.token
            if token == "flare":
                flares.append(option)
                continue
            if token == "barricade":
                continue                                  # kept for later: it counts as a pass already
            after = dict(pre)
            after_avail = dict(avail)
            if token == "pistol":
                after["pistols"] += 1
            elif token == "axe":
                after["axes"] += 1
            elif token == "chainsaw":
                if pre["chainsaw"]:
                    continue
                after["chainsaw"] = True
            elif token == "radio":
                after["radio"] = pre["radio"] + [tuple(option.arg)]
                for t in option.arg:
                    after_avail[t] -= 1
            else:
                continue
            gain = self._best_dice(after, after_avail, need)[0] - base - TOKEN_VALUE.get(str(token), 0.05)
            if gain > best:
                best, choice = gain, option
        if flares:
            # the flare passes half of the zombie dice: the biggest ones
            me = self._me(view)
            sym = {d[0]: SYMBOLS.get(d[2], 0) for d in me["front"]}
            option = max(flares, key=lambda a: sum(sym.get(i, 0) for i in a.arg))
            after = dict(pre)
            passed = sorted((sym.get(i, 0) for i in option.arg), reverse=True)
            left = list(pre["zombies"])
            for s in passed:
                left.remove(s)
            after["zombies"] = left
            gain = self._best_dice(after, avail, need)[0] - base - TOKEN_VALUE["flare"]
            if gain > best:
                best, choice = gain, option
        return choice

    # -- after the roll: re-rolls, chainsaw, hero, barricade tokens
    def _reroll_value(self, sit: dict[str, Any], die: tuple[str, str, str]) -> float:
        """The chance to survive when ``die`` (of this turn) is re-rolled: exact over its faces."""
        faces = self.dice.faces[die[1]]
        total = 0.0
        for f in faces:
            total += self.survival_after_roll(self._replace(sit, {die[0]: f}))
        return total / len(faces)

    def _replace(self, sit: dict[str, Any], faces: Mapping[str, str]) -> dict[str, Any]:
        """``sit`` with these dice of this turn showing new faces (in the tray; an ambush counts
        wherever it is, a chainsawn ambush is a blank)."""
        new = dict(sit)
        tray = [d for d in sit["tray"] if d[0] not in faces]
        front = [d for d in sit["front"] if d[0] not in faces]
        for d in list(sit["tray"]) + list(sit["front"]):
            if d[0] in faces:
                f = faces[d[0]]
                if f == "ambush" and sit["chainsaw"]:
                    f = "blank"
                tray.append((d[0], d[1], f))
        new["tray"], new["front"] = tray, front
        return new

    def _window(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        sit = self._situation(view)
        now = self.survival_after_roll(sit)
        if now >= 0.999:
            return prompt.options[0]
        best, choice = 0.0, prompt.options[0]
        dice = {d[0]: d for d in list(sit["tray"]) + list(sit["front"])}
        heroes: list[Action] = []
        for option in prompt.options:
            if not isinstance(option, Action) or option.kind != "use":
                continue
            token = option.token
            if token == "hero":
                heroes.append(option)
                continue
            if token == "barricade":
                continue                                   # see _before_barricades
            die = dice.get(option.arg)
            if die is None:
                continue
            if token in ("pistol", "axe"):
                value = self._reroll_value(sit, die)
            elif token == "chainsaw":
                new = dict(sit)
                new["tray"] = [d for d in sit["tray"] if d[0] != die[0]]
                new["front"] = [d for d in sit["front"] if d[0] != die[0]]
                value = self.survival_after_roll(new)
            else:
                continue
            gain = value - now - TOKEN_VALUE.get(str(token), 0.05)
            if gain > best:
                best, choice = gain, option
        if heroes:
            bad = {d[0] for d in dice.values() if d[2] == "ambush" or (d[1] == "shoot" and d[2] == "blank")}
            worse = bad | {d[0] for d in dice.values() if d[1] == "shoot" and d[2] == "bang1"}
            order = list(max(heroes, key=lambda h: len(h.arg)).arg)   # every die a hero may re-roll
            for group in (bad & set(order), worse & set(order)):
                if not group:
                    continue
                option = Action("use", "hero", tuple(i for i in order if i in group))
                if option not in prompt.options:
                    continue
                value = self._sampled(sit, [dice[i] for i in option.arg], 64)
                gain = value - now - TOKEN_VALUE["hero"]
                if gain > best:
                    best, choice = gain, option
        return choice

    def _sampled(self, sit: dict[str, Any], dice: Sequence[tuple[str, str, str]], n: int) -> float:
        total = 0.0
        for _ in range(n):
            faces = {d[0]: self.rng.choice(self.dice.faces[d[1]]) for d in dice}
            total += self.survival_after_roll(self._replace(sit, faces))
        return total / n

    _after = _window
    _before_shoot = _window

    def _before_barricades(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        sit = self._situation(view)
        results = sum(1 for d in sit["tray"] if d[2] == "barricade") * 2 ** sit["axes"]
        zombies = sorted((d for d in sit["front"] if d[1] == "zombie" and d[2] in ("zombie1", "zombie2")),
                         key=lambda d: -SYMBOLS[d[2]])
        if len(zombies) > results:
            for d in zombies:
                option = Action("use", "barricade", d[0])
                if option in prompt.options:
                    return option
        return self._window(view, prompt)

    # -- shooting, giving, drawing, keeping
    def _shoot(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        sit = self._situation(view)
        passes = sum(1 for d in sit["tray"] if d[2] == "barricade") * 2 ** sit["axes"] + sit["barricades"]
        front = sit["front"]
        ambush = [d for d in front if d[2] == "ambush"]
        zombies = sorted((d for d in front if d[1] == "zombie" and d[2] in ("zombie1", "zombie2")),
                         key=lambda d: -SYMBOLS[d[2]])
        passed, kept = zombies[:passes], zombies[passes:]
        order = ambush + sorted(kept, key=lambda d: SYMBOLS[d[2]]) + sorted(passed, key=lambda d: SYMBOLS[d[2]])
        bangs = sit["bangs_left"]
        for d in order:
            n = min(SYMBOLS.get(d[2], 0), bangs)
            option = Action("shoot", None, (d[0], n))
            if n and option in prompt.options:
                return option
        return prompt.options[0]

    def _give(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        me = self._me(view)
        sym = {d[0]: SYMBOLS.get(d[2], 0) for d in me["front"]}
        gives = [o for o in prompt.options if isinstance(o, Action) and o.arg is not None]
        if not gives:
            return prompt.options[0]
        return max(gives, key=lambda a: sym.get(a.arg, 0))

    def _draw(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        me = self._me(view)
        held = len([t for t in me["tokens"] if t != "hero"])
        top = max(o.arg for o in _actions(prompt))
        want = top if held < 3 else 0
        return Action("draw", None, want)

    def _draw_barricades(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        me = self._me(view)
        held = len([t for t in me["tokens"] if t != "hero"])
        top = max(o.arg for o in _actions(prompt))
        return Action("draw_barricades", None, min(top, max(0, 3 - held)))

    def _keep(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        return max(_actions(prompt), key=lambda a: (sum(TOKEN_VALUE.get(t, 0.0) for t in a.arg), a.arg))

    def _setup(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        token = str(prompt.context.get("token") or "")
        side = "object" if TOKEN_VALUE.get(token, 0.0) > TOKEN_VALUE["barricade"] else "barricade"
        return Action("side", None, side)


__all__ = ["BOT_NAMES", "CarefulBot", "Dice", "TOKEN_VALUE", "make_bot"]


# ----------------------------------------------------------------------------- the search bot's leaf

#: The leaf evaluation's weight on each zombie symbol left in front of the next player (who
#: must get rid of it on their turn): a tie-break between moves that keep the player as safe.
PRESSURE = 0.01


def evaluate(engine: Any, player: str) -> float | None:
    """``player``'s share of the win as the search bot (:mod:`bitbox.bots.search`) scores a
    rollout, judged once ``player``'s turn is over (None while it goes on, or during the
    setup): 0 when out, else a share of the players still in, raised by what ``player``'s
    tokens are worth (:data:`TOKEN_VALUE`, in chances of surviving a turn), by the lives left
    (Survivors) and a little by the zombies left in front of the next player. ``engine`` is
    a determinisation's rules engine: only ``player``'s own tokens and public facts are read."""
    s = engine.state
    if s.finished:
        winners = list(s.winners)
        return 1 / len(winners) if player in winners else 0.0
    if player in s.eliminated:
        return 0.0
    if s.phase == "setup" or s.active == player:
        return None
    alive = [p for p in s.players if p not in s.eliminated]
    held = s.held.get(player, [])
    worth = sum(TOKEN_VALUE.get(h[1] if h[0] == "object" else "barricade", 0.0) for h in held)
    if s.hero.get(player):
        worth += TOKEN_VALUE["hero"]
    if s.lives:
        worth += 0.5 * (s.lives.get(player, 1) - 1)
    pressure = sum(SYMBOLS.get(d.face, 0) for d in s.front.get(s.active, []))
    return min(1.0, (1 + worth + PRESSURE * pressure) / len(alive))

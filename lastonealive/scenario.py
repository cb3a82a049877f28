"""Rule scenarios for Last One Alive (docs/last-one-alive-scenarios.md): a position, turns
with every decision and every die result forced, and what must come out.

``lastonealive scenario FILE...`` runs each file and prints one JSON line per file; exit 0
if every file met its ``expect``, 1 if any did not, 2 if a file could not be read or is not
a valid scenario (the line has ``error``, naming the file and the field). The runner is the
console's (:mod:`bitbox.games.scenarios`); this module is Last One Alive's format,
:data:`FORMAT` (the cartridge's ``scenarios``). It only drives
:class:`lastonealive.rules.Game` through its prompts: every legality question is the
engine's (a refused decision undoes its whole turn, L-22).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Mapping, Sequence

from bitbox.games import scenarios as sc_
from bitbox.games.scenarios import Outcome, ScenarioError, shown, unknown_fields, whole_number

from .content import ConfigError, Content, load_content, load_yaml
from .rules import (FACES, HELD, OBJECTS, REFUSAL_CODES, SYMBOLS, TYPES, VARIANTS, Action, Die,
                    ForcedRollError, Game, Refused, RulesError)
from .rules.game import LIVES, PASS, STOP_GIVE, STOP_SHOOT, TOKEN_LIMIT, WINDOWS

TOP_KEYS = ("name", "players", "variants", "faces", "turn", "level", "apocalypse_drawn", "bag", "day_position",
            "tokens", "front", "lives", "eliminated", "setup", "first_zombie", "turns", "expect")
POSITION_KEYS = ("level", "apocalypse_drawn", "tokens", "front", "lives", "eliminated")
TURN_KEYS = ("player", "before", "dice", "roll", "after", "draw", "before_shoot", "shoot", "before_barricades",
             "give", "draw_barricades", "keep", "rerolls")
EXPECT_KEYS = ("front", "tokens", "eliminated", "level", "bag", "pool", "turn", "finished", "winner", "lives",
               "scores", "refused")
BAG_NAMES = OBJECTS + ("apocalypse", "night", "day")
SANE = 1000            # bound on every count a scenario gives, so a wrong file cannot hang the runner
MAX_LIST = 10_000

# The console's field readers, quoting a wrong value as its repr cut to 60 characters.
_map = partial(sc_.mapping, show=shown)
_list = partial(sc_.listing, show=shown, most=MAX_LIST)
_name = partial(sc_.name, show=shown)
_players_map = partial(sc_.players_map, show=shown)


def _int(value: Any, where: str, low: int = 0, high: int = SANE) -> int:
    return whole_number(value, where, low, high, show=shown)


def _die_id(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 20:
        raise ScenarioError(where, f"expected a die id such as f1, z2, s1, got {shown(value)}")
    return value


# ---------------------------------------------------------------------------- parsing

ALL = "all"


@dataclass
class Turn:
    player: str | None = None
    before: list[Action] = field(default_factory=list)
    dice: tuple[int, int, int, int] = (0, 0, 0, 0)
    roll: dict[str, list[str]] = field(default_factory=dict)
    after: list[Action] = field(default_factory=list)
    draw: int | None = None
    before_shoot: list[Action] = field(default_factory=list)
    shoot: list[tuple[str, int]] | None = None
    before_barricades: list[Action] = field(default_factory=list)
    give: list[str] | None = None
    draw_barricades: int | None = None
    keep: tuple[str, ...] | None = None
    rerolls: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Scenario(sc_.Scenario):
    setup: dict[str, str] | None = None


def _faces_map(value: Any, where: str, faces: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    m = _map(value, where)
    out: dict[str, list[str]] = {}
    for t, fs in m.items():
        _name(t, f"{where}.{t}", TYPES, "die type")
        out[t] = [_name(f, f"{where}.{t}[{i}]", tuple(dict.fromkeys(faces[t])), f"face of the {t} die")
                  for i, f in enumerate(_list(fs, f"{where}.{t}"))]
    return out


def _use(value: Any, where: str) -> Action:
    """A token use of a window (see the format's table of uses)."""
    if isinstance(value, str):
        token = _name(value, where, HELD, "token")
        if token in ("hero", "flare"):
            return Action("use", token, ())
        return Action("use", token, None)
    if not isinstance(value, Mapping) or len(value) != 1:
        raise ScenarioError(where, f"a use is a token name or a one-key mapping, got {shown(value)}")
    ((token, arg),) = value.items()
    token = _name(token, where, HELD, "token")
    at = f"{where}.{token}"
    if token == "radio":
        m = _map(arg, at)
        types: list[str] = []
        for t, n in m.items():
            _name(t, f"{at}.{t}", TYPES, "die type")
            types += [t] * _int(n, f"{at}.{t}", 0, 19)
        return Action("use", "radio", tuple(sorted(types, key=TYPES.index)))
    if token in ("hero", "flare"):
        if token == "hero" and arg == ALL:
            return Action("use", "hero", ALL)
        ids = arg if isinstance(arg, list) else [arg]
        return Action("use", token, tuple(_die_id(i, f"{at}[{k}]") for k, i in enumerate(_list(ids, at))))
    if token == "medkit":
        return Action("use", token, None if arg is None else _die_id(arg, at))
    return Action("use", token, _die_id(arg, at))


def _window(value: Any, where: str) -> list[Action]:
    return [_use(u, f"{where}[{i}]") for i, u in enumerate(_list(value, where))]


def _parse_turn(data: Any, where: str, players: Sequence[str], faces: Mapping[str, Sequence[str]]) -> Turn:
    data = _map(data, where)
    unknown_fields(data, TURN_KEYS, where)
    t = Turn()
    if "player" in data:
        t.player = _name(data["player"], f"{where}.player", players, "player")
    for w in WINDOWS:
        setattr(t, w, _window(data.get(w), f"{where}.{w}"))
    dice = _map(data.get("dice"), f"{where}.dice")
    for k in dice:
        _name(k, f"{where}.dice.{k}", TYPES, "die type")
    t.dice = tuple(_int(dice.get(k, 0), f"{where}.dice.{k}", 0, 100) for k in TYPES)  # type: ignore[assignment]
    t.roll = _faces_map(data.get("roll"), f"{where}.roll", faces)
    t.rerolls = _faces_map(data.get("rerolls"), f"{where}.rerolls", faces)
    if data.get("draw") is not None:
        t.draw = _int(data["draw"], f"{where}.draw")
    if data.get("draw_barricades") is not None:
        t.draw_barricades = _int(data["draw_barricades"], f"{where}.draw_barricades")
    if "shoot" in data and data["shoot"] is not None:
        shots = _map(data["shoot"], f"{where}.shoot")
        t.shoot = [(_die_id(k, f"{where}.shoot"), _int(n, f"{where}.shoot.{k}")) for k, n in shots.items()]
    if "give" in data and data["give"] is not None:
        t.give = [_die_id(g, f"{where}.give[{i}]") for i, g in enumerate(_list(data["give"], f"{where}.give"))]
    if "keep" in data and data["keep"] is not None:
        t.keep = tuple(_name(k, f"{where}.keep[{i}]", HELD, "token")
                       for i, k in enumerate(_list(data["keep"], f"{where}.keep")))
    return t


def parse_scenario(data: Any, content: Content | None = None) -> Scenario:
    if not isinstance(data, Mapping):
        raise ScenarioError("", "a scenario is a YAML mapping (players, bag, tokens, front, turns, expect, ...)")
    unknown_fields(data, TOP_KEYS, "")
    content = content or load_content()

    players = sc_.players(data.get("players"), "Last One Alive", 2, 5, show=shown)

    variants = [_name(v, f"variants[{i}]", VARIANTS, "variant") for i, v in enumerate(_list(data.get("variants"), "variants"))]
    faces = {t: tuple(f) for t, f in content.faces.items()}
    for t, fs in _map(data.get("faces"), "faces").items():
        _name(t, f"faces.{t}", TYPES, "die type")
        fl = _list(fs, f"faces.{t}")
        if not fl:
            raise ScenarioError(f"faces.{t}", "a die needs at least one face")
        faces[t] = tuple(_name(f, f"faces.{t}[{i}]", FACES, "face") for i, f in enumerate(fl))
        if all(f == "bang1plus" for f in faces[t]):
            raise ScenarioError(f"faces.{t}", "every face is bang1plus: its \"+\" re-rolls would never end")

    try:
        state = Game.blank_state(players, variants=variants, faces=faces, counts=content.counts)
    except RulesError as exc:
        raise ScenarioError("players", str(exc)) from None
    s = state
    day_night = "day_night" in s.variants
    bag = [_name(b, f"bag[{i}]", BAG_NAMES, "bag entry") for i, b in enumerate(_list(data.get("bag"), "bag"))]
    for i, b in enumerate(bag):
        if b in ("night", "day") and not day_night:
            raise ScenarioError(f"bag[{i}]", f"the {b} token is only in the bag in the day_night variant")
    if bag.count("night") > 1 or bag.count("day") > 1 or ("night" in bag and "day" in bag):
        raise ScenarioError("bag", "one night token or one day token at most, not both")
    s.bag = bag
    s.night = "day" in bag                          # the day token is in the bag only while it is night (L-26)
    s.day_position = -1 if data.get("day_position") is None else _int(data["day_position"], "day_position", 0, SANE)

    turn = players[0] if data.get("turn") is None else _name(data["turn"], "turn", players, "player")
    new_game = "setup" in data or "first_zombie" in data
    setup: dict[str, str] | None = None
    if new_game:
        for k in POSITION_KEYS:
            if k in data:
                raise ScenarioError(k, "a new game (setup) takes no position fields "
                                       f"({', '.join(POSITION_KEYS)})")
        setup = {p: _name(v, f"setup.{p}", ("object", "barricade"), "side")
                 for p, v in _players_map(data.get("setup"), "setup", players).items()}
        fz = data.get("first_zombie", "each")
        s.first_zombie = _name(fz, "first_zombie", ("each", "first"), "first_zombie value")
    else:
        _position(data, game_state=s, players=players, turn=turn)

    turns = [_parse_turn(t, f"turns[{i}]", players, faces) for i, t in enumerate(_list(data.get("turns"), "turns"))]
    expect = dict(_map(data.get("expect"), "expect"))
    unknown_fields(expect, EXPECT_KEYS, "expect")
    _check_expect(expect, players)

    game = Game(s)
    if setup is not None:                       # a new game
        game.start_setup(turn, [])
        while s.phase == "setup" and not s.finished:
            game.apply(Action("side", None, setup.get(s.active, "object")))
    else:
        if len(game.in_game()) <= 1:
            game._finish([], "the last one alive")
        else:
            game._start_turn(turn, [])
            s.turn = 0
    return Scenario(str(data.get("name", "")), game, turns, expect, setup)


def _position(data: Mapping[str, Any], *, game_state: Any, players: tuple[str, ...], turn: str) -> None:
    s = game_state
    s.level = _int(data.get("level", 1), "level", 0, SANE)
    default_drawn = max(0, s.level - 1 - (1 if s.night else 0))
    s.apocalypse_drawn = _int(data.get("apocalypse_drawn", default_drawn), "apocalypse_drawn", 0, SANE)
    eliminated = [_name(p, f"eliminated[{i}]", players, "player")
                  for i, p in enumerate(_list(data.get("eliminated"), "eliminated"))]
    if len(set(eliminated)) != len(eliminated):
        raise ScenarioError("eliminated", "a player is listed twice")
    s.eliminated = eliminated
    if turn in eliminated and "zombified_rolls" not in s.variants:
        raise ScenarioError("turn", f"{turn} is eliminated (only a zombified_rolls game gives them a turn)")
    tokens = _players_map(data.get("tokens"), "tokens", players)
    for p, names in tokens.items():
        names = [_name(t, f"tokens.{p}[{i}]", HELD, "token") for i, t in enumerate(_list(names, f"tokens.{p}"))]
        if names and p in eliminated:
            raise ScenarioError(f"tokens.{p}", f"{p} is eliminated and holds nothing")
        if names.count("hero") > 1:
            raise ScenarioError(f"tokens.{p}", "at most one hero token")
        objs = [t for t in names if t != "hero"]
        if len(objs) > TOKEN_LIMIT:
            raise ScenarioError(f"tokens.{p}", f"at most {TOKEN_LIMIT} object/barricade tokens besides the hero")
        s.held[p] = [[t, None if t == "barricade" else t] for t in objs]
        s.hero[p] = "hero" in names
    front = _players_map(data.get("front"), "front", players)
    total = 0
    for p, faces in front.items():
        fl = [_name(f, f"front.{p}[{i}]", ("zombie1", "zombie2"), "face in front")
              for i, f in enumerate(_list(faces, f"front.{p}"))]
        if fl and p in eliminated:
            raise ScenarioError(f"front.{p}", f"{p} is eliminated and has nothing in front")
        s.front[p] = [Die("zombie", f) for f in fl]
        total += len(fl)
    if total > s.counts["zombie"]:
        raise ScenarioError("front", f"{total} zombie dice in front, but the game has {s.counts['zombie']}")
    s.pool["zombie"] -= total
    lives = _players_map(data.get("lives"), "lives", players)
    if lives and "survivors" not in s.variants:
        raise ScenarioError("lives", "lives are only counted in the survivors variant")
    if "survivors" in s.variants:
        for p in players:
            s.lives[p] = 0 if p in eliminated else _int(lives.get(p, LIVES), f"lives.{p}", 1, LIVES)


def _check_expect(expect: Mapping[str, Any], players: Sequence[str]) -> None:
    for key in ("front", "tokens", "lives", "scores", "refused"):
        if key in expect:
            m = _players_map(expect[key], f"expect.{key}", players)
            for p, v in m.items():
                at = f"expect.{key}.{p}"
                if key == "front":
                    for i, f in enumerate(_list(v, at)):
                        _name(f, f"{at}[{i}]", FACES, "face")
                elif key == "tokens":
                    for i, t in enumerate(_list(v, at)):
                        _name(t, f"{at}[{i}]", HELD, "token")
                elif key == "refused":
                    _name(v, at, REFUSAL_CODES, "refusal code")
                else:
                    _int(v, at, 0, SANE)
    for key in ("eliminated", "winner"):
        if key in expect:
            for i, p in enumerate(_list(expect[key], f"expect.{key}")):
                _name(p, f"expect.{key}[{i}]", players, "player")
    if "level" in expect:
        _int(expect["level"], "expect.level", 0, SANE)
    if "bag" in expect:
        for i, b in enumerate(_list(expect["bag"], "expect.bag")):
            _name(b, f"expect.bag[{i}]", BAG_NAMES, "bag entry")
    if "pool" in expect:
        for t, n in _map(expect["pool"], "expect.pool").items():
            _name(t, f"expect.pool.{t}", TYPES, "die type")
            _int(n, f"expect.pool.{t}", 0, SANE)
    if "turn" in expect and expect["turn"] is not None:
        _name(expect["turn"], "expect.turn", players, "player")
    if "finished" in expect and not isinstance(expect["finished"], bool):
        raise ScenarioError("expect.finished", f"must be true or false, got {shown(expect['finished'])}")


# ---------------------------------------------------------------------------- running

class _Stop(Exception):
    """The game ended in the middle of a turn: nothing more is resolved (L-25)."""


def _auto_shot(game: Game) -> Action:
    """Default ``shoot``: ambush dice in arrival order, then zombie dice, each until clear."""
    s = game.state
    front = s.front[s.active]
    if s.bangs_left > 0 and front:
        target = next((d for d in front if d.face == "ambush"), None) or front[0]
        return Action("shoot", None, (target.id, min(SYMBOLS[target.face], s.bangs_left)))
    return STOP_SHOOT


def _auto_give(game: Game) -> Action:
    """Default ``give``: the zombie die with the most zombies (the earliest among equals)."""
    s = game.state
    if s.gives_left > 0:
        best = None
        for d in game._zombie_targets():
            if best is None or SYMBOLS[d.face] > SYMBOLS[best.face]:
                best = d
        if best is not None:
            return Action("give", None, best.id)
    return STOP_GIVE


def _play_turn(game: Game, turn: Turn) -> None:
    s = game.state

    def do(action: Action) -> None:
        game.apply(action)
        if s.finished:
            raise _Stop

    s.forced_roll = {t: list(v) for t, v in turn.roll.items()}
    s.forced = {t: list(v) for t, v in turn.rerolls.items()}
    if s.phase == "zombified":
        do(Action("roll"))
        return
    for u in turn.before:
        do(u)
    do(PASS)
    do(Action("dice", None, turn.dice))
    for u in turn.after:
        if u.token == "hero" and u.arg == ALL:
            u = Action("use", "hero", tuple(game.hero_dice()))
        do(u)
    do(PASS)
    do(Action("draw", None, s.draws_left if turn.draw is None else turn.draw))
    if s.phase == "draw":
        do(Action("draw", None, 0))
    for u in turn.before_shoot:
        do(u)
    do(PASS)
    if turn.shoot is None:
        while True:
            a = _auto_shot(game)
            do(a)
            if a == STOP_SHOOT:
                break
    else:
        for die, n in turn.shoot:
            if n > 0:
                do(Action("shoot", None, (die, n)))
        do(STOP_SHOOT)
    for u in turn.before_barricades:
        do(u)
    do(PASS)
    if turn.give is None:
        while True:
            a = _auto_give(game)
            do(a)
            if a == STOP_GIVE:
                break
    else:
        for die in turn.give:
            do(Action("give", None, die))
        do(STOP_GIVE)
    if turn.draw_barricades is None:
        n = max(a.arg for a in game.legal())
    else:
        n = turn.draw_barricades
    do(Action("draw_barricades", None, n))
    if s.phase == "keep":
        keep = turn.keep if turn.keep is not None else tuple(game.held_faces(s.active)[:TOKEN_LIMIT])
        do(Action("keep", None, keep))


def run_scenario(sc: Scenario) -> tuple[dict[str, Any], dict[str, str]]:
    """Play the turns; return the final state summary and the refusals (if a turn was refused:
    the state is then the one at the start of that turn, L-22)."""
    game = sc.game
    refused: dict[str, str] = {}
    for i, turn in enumerate(sc.turns):
        s = game.state
        who = turn.player or s.active
        if s.finished:
            refused = {who: "game_over"}
            break
        if turn.player is not None and turn.player != s.active:
            refused = {who: "not_your_turn"}
            break
        snapshot = game.to_data()
        try:
            _play_turn(game, turn)
        except _Stop:
            continue
        except Refused as r:
            game = Game.from_data(snapshot)
            refused = r.codes
            break
        except ForcedRollError as exc:
            raise ScenarioError(f"turns[{i}].{exc.field}", str(exc)) from None
        except RulesError as exc:
            raise ScenarioError(f"turns[{i}]", str(exc)) from None
    sc.game = game
    return summary(game), refused


def summary(game: Game) -> dict[str, Any]:
    s = game.state
    alive = game.in_game()
    return {
        "front": {p: [d.face for d in s.front[p]] for p in alive},
        "tokens": {p: game.held_faces(p) + (["hero"] if s.hero[p] else []) for p in alive},
        "eliminated": list(s.eliminated),
        "level": s.level,
        "bag": list(s.bag),
        "pool": dict(s.pool),
        "lives": {p: s.lives[p] for p in s.players} if "survivors" in s.variants else {},
        "turn": None if s.finished else s.active,
        "finished": s.finished,
        "winner": list(s.winners),
        "scores": dict(s.scores) if s.finished and "survivors" in s.variants else {},
    }


def _multisets(key: str, want: Any, have: Any) -> list[str]:
    """front/tokens: per player listed, in any order; an eliminated player has nothing ([] matches)."""
    out: list[str] = []
    for p, v in (want or {}).items():
        got = have.get(p)
        if got is None:
            if v:
                out.append(f"{key}.{p}: expected {sorted(v)}, got none ({p} is out)")
        elif sorted(got) != sorted(v or []):
            out.append(f"{key}.{p}: expected {sorted(v or [])}, got {sorted(got)}")
    return out


def _play(scenario: sc_.Scenario) -> Outcome:
    assert isinstance(scenario, Scenario)
    return Outcome(*run_scenario(scenario))


def parse_file(data: Any, content: Content | None = None) -> Scenario:
    """A scenario file: :func:`parse_scenario` (which also builds bare positions for tests),
    and the format's "one or more turns"."""
    sc = parse_scenario(data, content)
    if not sc.turns:
        raise ScenarioError("turns", "a scenario plays one or more turns, got none")
    return sc


#: Last One Alive's scenario file format for the console's runner (the cartridge's
#: ``scenarios``). Compared: front/tokens per player (as multisets), lives/scores/pool per
#: entry given, eliminated/winner in any order, level/bag/turn/finished exactly (refused:
#: the console's check).
FORMAT = sc_.Format(
    "docs/last-one-alive-scenarios.md", (ConfigError,),
    {"front": _multisets, "tokens": _multisets, "lives": sc_.each(), "scores": sc_.each(), "pool": sc_.each(),
     "eliminated": sc_.as_set, "winner": sc_.as_set},
    load=load_content, read=load_yaml, parse=parse_file, play=_play)


def run_file(path: str | Path, content: Content | None = None) -> dict[str, Any]:
    """Run one file; raises ScenarioError/ConfigError when it is not a valid scenario."""
    return sc_.run_file(FORMAT, path, content)


def main(files: Sequence[str], out: Any = None, err: Any = None) -> int:
    return sc_.run_scenarios(FORMAT, files, prog="lastonealive scenario", out=out, err=err)

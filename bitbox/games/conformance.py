"""The conformance checks every cartridge must pass (tests/games runs them on every cartridge
of the registry, so a new game gets them by being registered).

* :func:`check_setup`: the player-count bounds and options are enforced with
  :class:`GameError` / :class:`OptionError`;
* :func:`check_random_play`: games played by picking uniformly among the prompts' options
  end, and a generated option is never refused; prompts are well formed; an answer that is
  not an option, a missing answer or one from a player without a prompt is refused and
  changes nothing; answers survive :meth:`Cartridge.action_to_data` and back; every view,
  event and saved state is JSON data;
* :func:`check_determinism`: the same seed and answers give the same states and events;
* :func:`check_round_trip`: a game saved with :meth:`Game.to_data` and read back with
  :meth:`Cartridge.from_data` at any point plays on exactly as the original;
* :func:`check_public_view`: the public view cannot tell a game from its
  :meth:`Cartridge.redeal` (hidden parts drawn again), and each private view holds the
  public view;
* :func:`check_player_redeal`: ``redeal(game, seed, keep=player)``
  redeal from one player's information keeps what that player knows and depends on nothing else;
* :func:`check_controls`: the game's controls (the console's when it gives none) turn the
  wheels to every option and read it back, and the hint is kept (firmware_protocol/SPEC.md
  6.13): every hinted stop is part of an accepted answer with the other wheels within their
  masks, and a stop outside a wheel's mask is refused whatever the other wheels.

Each check raises :class:`ConformanceError` with a message naming the cartridge, the seed
and the step.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence

from bitbox.colours import SEAT_COLOURS
from bitbox.safetext import printable

from .protocol import JSON, Action, Cartridge, Game, GameError, GameEvent, OptionError, Prompt, Refusal

#: A game that has not ended after this many applies is reported as not ending.
MAX_STEPS = 5000


class ConformanceError(AssertionError):
    """A cartridge broke the protocol; the message says where and how."""


class _Foreign:
    """An answer no game can have generated (compared unequal to everything else)."""

    def __repr__(self) -> str:
        return "<an answer that is no option>"


def player_names(cartridge: Cartridge, count: int) -> tuple[str, ...]:
    """Players for a test game: the seat colours, then ``seat7``... if a game takes more."""
    return tuple(SEAT_COLOURS[i] if i < len(SEAT_COLOURS) else f"seat{i + 1}" for i in range(count))


def _dump(value: object, what: str) -> str:
    try:
        return json.dumps(value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"{what} is not JSON data: {exc}") from None


def _events_data(events: Sequence[GameEvent], where: str) -> list[object]:
    out: list[object] = []
    for e in events:
        kind = e.kind
        if not isinstance(kind, str):
            raise ConformanceError(f"{where}: an event kind is not a str: {kind!r}")
        out.append([str(kind), dict(e.data)])
    _dump(out, f"{where}: the events")
    return out


def _pick(rng: random.Random, prompts: Sequence[Prompt]) -> dict[str, Action]:
    return {p.player: p.options[rng.randrange(len(p.options))] for p in prompts}


def _check_prompts(game: Game, prompts: Sequence[Prompt], where: str) -> None:
    players = set(game.players)
    seen: set[str] = set()
    if game.finished:
        if prompts:
            raise ConformanceError(f"{where}: the game is finished but prompts are open")
        return
    if not prompts:
        raise ConformanceError(f"{where}: the game is not finished but nobody is asked anything")
    for p in prompts:
        if p.player not in players:
            raise ConformanceError(f"{where}: a prompt for {p.player!r}, who is not a player")
        if p.player in seen:
            raise ConformanceError(f"{where}: two prompts for {p.player}")
        seen.add(p.player)
        if not p.options:
            raise ConformanceError(f"{where}: {p.player}'s {p.kind} prompt has no option")
        for option in p.options:
            try:
                hash(option)
            except TypeError:
                raise ConformanceError(f"{where}: {p.player}'s {p.kind} prompt offers {option!r}, which is not "
                                       f"hashable: an answer must be (a tuple, not a list; docs/games.md)") from None
        if len(set(p.options)) != len(p.options):
            raise ConformanceError(f"{where}: {p.player}'s {p.kind} prompt repeats an option")
        _dump(dict(p.context), f"{where}: {p.player}'s prompt context")


def play_random(cartridge: Cartridge, players: int, seed: int, options: Mapping[str, JSON] | None = None,
                on_step: Callable[[Game, int], None] | None = None) -> tuple[Game, list[str]]:
    """Play one game answering at random (answers from ``random.Random(seed)``); return the
    game and, per apply, the JSON of the answers, the events and the state after it. An
    option value its :class:`OptionSpec` bars at this player count must be refused by
    ``Cartridge.new`` (a :class:`GameError`); the game is then played without it."""
    specs = {s.name: s for s in cartridge.options}
    barred = {k for k, v in (options or {}).items() if k in specs and specs[k].barred(v, players)}
    if barred:
        try:
            cartridge.new(player_names(cartridge, players), seed, dict(options or {}))
        except GameError:
            pass
        else:
            raise ConformanceError(f"{cartridge.name}, {players} players: the options "
                                   f"{ {k: (options or {})[k] for k in sorted(barred)} } are for "
                                   f"{ {k: specs[k].players for k in sorted(barred)} } players, yet the game began")
        options = {k: v for k, v in (options or {}).items() if k not in barred}
    rng = random.Random(seed)
    game = cartridge.new(player_names(cartridge, players), seed, options or {})
    trace = [_dump(game.to_data(), f"{cartridge.name} seed {seed}: the state")]
    step = 0
    while not game.finished:
        where = f"{cartridge.name}, {players} players, seed {seed}, step {step}"
        if on_step is not None:
            on_step(game, step)
        prompts = game.prompts()
        _check_prompts(game, prompts, where)
        answers = _pick(rng, prompts)
        try:
            events = game.apply(answers)
        except (Refusal, GameError) as exc:
            raise ConformanceError(f"{where}: generated options {answers!r} were refused: {exc}") from None
        trace.append(_dump([{p: cartridge.action_to_data(a) for p, a in answers.items()},
                            _events_data(events, where), game.to_data()], f"{where}: the step"))
        step += 1
        if step > MAX_STEPS:
            raise ConformanceError(f"{where}: the game has not ended after {MAX_STEPS} steps")
    _check_prompts(game, game.prompts(), f"{cartridge.name} seed {seed}: the end")
    return game, trace


def check_setup(cartridge: Cartridge) -> None:
    name = cartridge.name
    lo, hi = cartridge.min_players, cartridge.max_players
    if not 1 <= lo <= hi:
        raise ConformanceError(f"{name}: player bounds {lo}..{hi} make no sense")
    for n in (lo - 1, hi + 1):
        if n < 0:
            continue
        try:
            cartridge.new(player_names(cartridge, n), 0, {})
        except GameError:
            pass
        else:
            raise ConformanceError(f"{name}: a game for {n} players was accepted (bounds {lo}..{hi})")
    try:
        cartridge.new(("a",) * lo if lo > 1 else ("a", "a"), 0, {})
    except GameError:
        pass
    else:
        raise ConformanceError(f"{name}: a game with a player twice was accepted")
    try:
        cartridge.new(player_names(cartridge, lo), 0, {"no such option": 1})
    except OptionError as exc:
        if exc.option != "no such option":
            raise ConformanceError(f"{name}: an unknown option was reported as {exc.option!r}") from None
    else:
        raise ConformanceError(f"{name}: an unknown option was accepted")
    for spec in cartridge.options:
        cartridge.new(player_names(cartridge, lo), 0, {spec.name: spec.default})


def check_random_play(cartridge: Cartridge, players: int, seed: int,
                      options: Mapping[str, JSON] | None = None) -> Game:
    """Random play with the refusal and data checks at every step (see the module docstring)."""
    foreign = _Foreign()

    def step(game: Game, n: int) -> None:
        where = f"{cartridge.name}, {players} players, seed {seed}, step {n}"
        before = _dump(game.to_data(), f"{where}: the state")
        prompts = game.prompts()
        if not prompts:
            return
        for p in prompts:
            for a in p.options:
                code = game.refusal(p.player, a)
                if code is not None:
                    raise ConformanceError(f"{where}: {p.player}'s option {a!r} is refused as {code!r}")
                back = cartridge.action_from_data(json.loads(_dump(cartridge.action_to_data(a), where)))
                if back != a:
                    raise ConformanceError(f"{where}: answer {a!r} comes back from data as {back!r}")
            if not game.refusal(p.player, foreign):
                raise ConformanceError(f"{where}: an answer that is no option has no refusal code")
        first = prompts[0].player
        rng = random.Random(n)
        answers = _pick(rng, prompts)
        bad: list[tuple[str, dict[str, Action]]] = [("an answer that is no option", dict(answers, **{first: foreign}))]
        missing = dict(answers)
        del missing[first]
        bad.append(("a missing answer", missing))
        outsiders = [p for p in game.players if p not in answers]
        if outsiders:
            bad.append(("an answer from a player without a prompt", dict(answers, **{outsiders[0]: prompts[0].options[0]})))
        for what, attempt in bad:
            try:
                game.apply(attempt)
            except (Refusal, GameError):
                pass
            else:
                raise ConformanceError(f"{where}: {what} was accepted")
            if _dump(game.to_data(), where) != before:
                raise ConformanceError(f"{where}: {what} was refused but changed the state")
        _dump(dict(game.public_view()), f"{where}: the public view")
        for player in game.players:
            _dump(dict(game.private_view(player)), f"{where}: {player}'s private view")

    game, _ = play_random(cartridge, players, seed, options, step)
    return game


def check_determinism(cartridge: Cartridge, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> None:
    _, a = play_random(cartridge, players, seed, options)
    _, b = play_random(cartridge, players, seed, options)
    for n, (x, y) in enumerate(zip(a, b)):
        if x != y:
            raise ConformanceError(f"{cartridge.name}, {players} players, seed {seed}: two runs differ at step {n}")
    if len(a) != len(b):
        raise ConformanceError(f"{cartridge.name}, {players} players, seed {seed}: two runs have different lengths")


def check_round_trip(cartridge: Cartridge, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> None:
    """Save and restore at every step: the restored game's data is the same and, played on
    with the same answers, gives the same events and states as the original."""
    _, original = play_random(cartridge, players, seed, options)
    rng = random.Random(seed)
    game = cartridge.new(player_names(cartridge, players), seed, options or {})
    n = 0
    while not game.finished:
        where = f"{cartridge.name}, {players} players, seed {seed}, step {n}"
        data = json.loads(_dump(game.to_data(), where))
        game = cartridge.from_data(data)                # play on with the restored game
        if _dump(game.to_data(), where) != _dump(data, where):
            raise ConformanceError(f"{where}: from_data(to_data()) saves different data")
        answers = _pick(rng, game.prompts())
        events = game.apply(answers)
        n += 1
        step = _dump([{p: cartridge.action_to_data(a) for p, a in answers.items()},
                      _events_data(events, where), game.to_data()], where)
        if n >= len(original) or step != original[n]:
            raise ConformanceError(f"{where}: the restored game plays differently from the original")


def check_public_view(cartridge: Cartridge, players: int, seed: int, options: Mapping[str, JSON] | None = None,
                      redeals: int = 2) -> None:
    def step(game: Game, n: int) -> None:
        where = f"{cartridge.name}, {players} players, seed {seed}, step {n}"
        public = game.public_view()
        seen = _dump(dict(public), where)
        for k in range(redeals):
            other = cartridge.redeal(game, seed * 1000 + n * 10 + k)
            if _dump(dict(other.public_view()), where) != seen:
                raise ConformanceError(f"{where}: the public view changes when only hidden parts do "
                                       "(it shows hidden information)")
        for p in game.players:
            private = game.private_view(p)
            for key, value in public.items():
                if key not in private or _dump(private[key], where) != _dump(value, where):
                    raise ConformanceError(f"{where}: {p}'s private view lacks the public {key!r}")

    play_random(cartridge, players, seed, options, step)


def check_player_redeal(cartridge: Cartridge, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> None:
    """At every step and for every player, ``redeal(game, seed, keep=player)`` keeps the public
    view, the player's private view and their prompt, and depends only on what the player
    knows (two games that differ only in what the player cannot see give the same game). A
    cartridge whose ``redeal`` takes no ``keep`` is not checked (the search bot then matches
    plain redeals)."""
    if not _keeps(cartridge):
        return

    def step(game: Game, n: int) -> None:
        where = f"{cartridge.name}, {players} players, seed {seed}, step {n}"
        public = _dump(dict(game.public_view()), where)
        for p in game.players:
            known = _knowledge(game, p, where)
            a = cartridge.redeal(game, seed * 1000 + n, keep=p)
            b = cartridge.redeal(a, seed * 1000 + n + 1, keep=p)
            for other in (a, b):
                if _dump(dict(other.public_view()), where) != public:
                    raise ConformanceError(f"{where}: redeal(keep={p}) changes the public view")
                if _knowledge(other, p, where) != known:
                    raise ConformanceError(f"{where}: redeal(keep={p}) changes what {p} knows "
                                           "(their private view or their prompt)")
            twin = _twin(cartridge, game, p, known, seed * 1000 + n, where)
            if twin is not None and _dump(cartridge.redeal(game, 7, keep=p).to_data(), where) != \
                    _dump(cartridge.redeal(twin, 7, keep=p).to_data(), where):
                raise ConformanceError(f"{where}: redeal(keep={p}) depends on hidden parts {p} cannot see "
                                       "(sort the hidden parts before shuffling them)")

    play_random(cartridge, players, seed, options, step)


def _keeps(cartridge: Cartridge) -> bool:
    import inspect
    try:
        return "keep" in inspect.signature(cartridge.redeal).parameters
    except (TypeError, ValueError):
        return False


def _twin(cartridge: Cartridge, game: Game, player: str, known: str, seed: int, where: str,
          tries: int = 20) -> Game | None:
    """A game that differs from ``game`` only in what ``player`` cannot see, drawn with the
    protocol's :meth:`Cartridge.redeal` until ``player``'s view and prompt match (None if no
    draw matched, or none differed)."""
    data = _dump(game.to_data(), where)
    for k in range(tries):
        other = cartridge.redeal(game, seed * 100 + k)
        if _knowledge(other, player, where) == known and _dump(other.to_data(), where) != data:
            return other
    return None


def _knowledge(game: Game, player: str, where: str) -> str:
    prompt = next((p for p in game.prompts() if p.player == player), None)
    asked = None if prompt is None else [prompt.kind, [repr(o) for o in prompt.options], dict(prompt.context)]
    return _dump([dict(game.private_view(player)), asked], where)


def check_redeal_hides_something(cartridge: Cartridge, players: int, seed: int) -> bool:
    """Whether :meth:`Cartridge.redeal` changes the saved state at some step of a game (so that
    the public-view check compares different games; False for a game without hidden parts)."""
    changed = [False]

    def step(game: Game, n: int) -> None:
        if not changed[0] and _dump(game.to_data(), "") != _dump(cartridge.redeal(game, n + 1).to_data(), ""):
            changed[0] = True

    play_random(cartridge, players, seed, None, step)
    return changed[0]


#: The prompts of a game whose controls :func:`check_controls` tries (every stop of each).
CONTROLS_PROMPTS = 12

_STOPS = range(16)


def check_controls(cartridge: Cartridge, players: int, seed: int, prompts: int = CONTROLS_PROMPTS) -> None:
    """The controls and the prompts of a random game agree (its first ``prompts`` prompts).
    Controls that take answers over several locks (``read_marked``) are read lock by lock at
    the table, so their single reads are not held to this."""
    from bitbox.table.controls import controls_of      # the table's, as the table finds them
    controls = controls_of(cartridge)
    if callable(getattr(controls, "read_marked", None)):
        return
    rng = random.Random(seed)
    game = cartridge.new(player_names(cartridge, players), seed, {})
    tried, step = 0, 0
    while not game.finished and tried < prompts:
        open_now = game.prompts()
        for prompt in open_now:
            tried += 1
            where = f"{cartridge.name}, {players} players, seed {seed}, step {step}, {prompt.player}'s {prompt.kind!r}"
            _check_prompt_controls(game, controls, prompt, where)
        game.apply(_pick(rng, open_now))
        step += 1


def _check_prompt_controls(game: Game, controls: object, prompt: Prompt, where: str) -> None:
    read = getattr(controls, "read")

    def accepted(wheels: tuple[int, int, int]) -> bool:
        try:
            action = read(prompt, wheels)
        except (LookupError, TypeError, ValueError):    # nothing at the wheels: a refused lock (as the table)
            return False
        return action in prompt.options and game.refusal(prompt.player, action) is None

    for option in prompt.options:
        wheels = tuple(getattr(controls, "wheels_for")(prompt, option))
        try:
            back = read(prompt, wheels)
        except (LookupError, TypeError, ValueError) as exc:
            back = f"nothing ({type(exc).__name__})"
        if back != option:
            raise ConformanceError(f"{where}: wheels_for({option!r}) gives {wheels}, which read as {back!r}")
    masks = tuple(getattr(controls, "hint")(prompt))
    within = [[s for s in _STOPS if masks[w] >> s & 1] or list(_STOPS) for w in range(3)]
    for w in range(3):
        if not masks[w]:
            continue                                    # no hint for this wheel: nothing promised
        for stop in _STOPS:
            hinted = bool(masks[w] >> stop & 1)
            others = [[stop] if k == w else (within[k] if hinted else list(_STOPS)) for k in range(3)]
            found = any(accepted((a, b, c)) for a in others[0] for b in others[1] for c in others[2])
            if hinted and not found:
                raise ConformanceError(f"{where}: stop {stop} of wheel {'LCR'[w]} is hinted (mask {masks}) "
                                       "but no answer with it is accepted")
            if not hinted and found:
                raise ConformanceError(f"{where}: stop {stop} of wheel {'LCR'[w]} is outside the hint "
                                       f"(mask {masks}) but an answer with it is accepted")


#: A check still running after this many seconds fails: the game is taken to hang.
CHECK_SECONDS = 60.0


class _TooLong(Exception):
    """Raised by the timer in a check that ran out of time."""


def _limited(check: Callable[[], None], seconds: float | None) -> None:
    """``check()`` stopped with :class:`_TooLong` after ``seconds`` (a timer signal: in the
    main thread only; elsewhere, or with None, no limit)."""
    import signal
    import threading
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        check()
        return

    def ring(signum: int, frame: object) -> None:
        raise _TooLong()
    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        check()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_all(cartridge: Cartridge, seeds: Sequence[int] = (0, 1),
              seconds: float | None = CHECK_SECONDS) -> list[tuple[str, str | None]]:
    """Every check on ``cartridge`` (each player count, each seed): ``(check, None)`` when it
    passed, ``(check, what failed)`` when not. A game that raises anything else while checked
    (``SystemExit`` too) fails that check with the exception's type and message, and one that
    is still in a check after ``seconds`` fails it as hanging (a check never raises)."""
    counts = range(cartridge.min_players, cartridge.max_players + 1)

    def each(check: Callable[[Cartridge, int, int], object], players: Sequence[int]) -> Callable[[], None]:
        def run() -> None:
            for n in players:
                for seed in seeds:
                    check(cartridge, n, seed)
        return run

    plan: list[tuple[str, Callable[[], None]]] = [("setup: player bounds and options", lambda: check_setup(cartridge))]
    plan += [(f"random play, {n} players", each(check_random_play, [n])) for n in counts]
    plan += [("determinism", each(check_determinism, counts)),
             ("data round trip", each(check_round_trip, counts))]
    plan.append(("controls: the wheels, the hint and the options agree",
                 lambda: check_controls(cartridge, cartridge.min_players, seeds[0])))
    def player_redeal() -> None:               # two player counts, one seed: it redeals at every step
        for n in sorted({cartridge.min_players, min(cartridge.min_players + 1, cartridge.max_players)}):
            check_player_redeal(cartridge, n, seeds[0])
    plan.append(("redeal from one player's information", player_redeal))
    plan.append(("no hidden information in the public view", each(check_public_view, counts)))
    results: list[tuple[str, str | None]] = []
    for what, check in plan:
        try:
            _limited(check, seconds)
        except ConformanceError as exc:                # it may quote the game's own text: shown escaped
            results.append((what, printable(exc, 1000)))
        except _TooLong:
            results.append((what, f"still running after {seconds:g} s: the game hangs (or is far too slow)"))
        except (Exception, SystemExit) as exc:  # the game itself broke: one line, no traceback
            results.append((what, f"{type(exc).__name__}: {printable(exc, 300)}"))
        else:
            results.append((what, None))
    return results


__all__ = ["CHECK_SECONDS", "CONTROLS_PROMPTS", "ConformanceError", "MAX_STEPS", "check_all", "check_controls", "check_determinism", "check_public_view", "check_random_play",
           "check_player_redeal", "check_redeal_hides_something", "check_round_trip", "check_setup", "play_random", "player_names"]

"""Outspeed as a cartridge: :class:`outspeed.rules.Game` behind the console's game protocol
(:mod:`bitbox.games.protocol`).

The engine's phases map to prompts like this:

============  =================================================  =====================
phase         prompts (who acts now)                             an answer
============  =================================================  =====================
bonus         every active player at once (simultaneous,         a token name, or None
              secret until the reveal)                           (play nothing)
programming   every active player at once (simultaneous,         a :class:`Choice`
              secret until the reveal)
draw          the player drawing (one prompt; its options are    a token name
              the two tokens drawn, private to that player)
============  =================================================  =====================

A bonus prompt of a player holding no token has the single option None; a host may answer
such a prompt itself (that a player holds no token is public). The answers of a phase go to
the engine in one call (:meth:`Game.play_bonus`, :meth:`Game.program`, :meth:`Game.keep`),
so the cartridge plays exactly the games the engine plays: the same seed and answers give
the same states and events.

Legality is the engine's: the options are :meth:`Game.legal_bonus_plays` and
:meth:`Game.program_options`; a refusal code comes from :meth:`Game.bonus_refusal` and
:meth:`Game.programming_refusal`, asked only for an answer that is not an option.

The cartridge's options: ``first_game`` (tiles 1–13 in order) and ``tokens`` (``virtual``:
the bridge holds the bonus pile; ``physical``: the pile is on the table). The contents
(tiles, dice, token counts) are config/'s, loaded on first use.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bitbox.games.base import BotFactory, EngineCartridge, EngineGame
from bitbox.games.protocol import JSON, Action, GameError, GameEvent, OptionSpec, Player, Prompt, Refusal
from bitbox.games.protocol import Game as AnyGame

from .rules import PATHS, TOKENS, UNKNOWN, Choice, EventKind, Game, Refused, RulesError, TileError
from .rules.game import _NOTHING, MAX_PLAYERS, MIN_PLAYERS, _Options

if TYPE_CHECKING:
    from bitbox.games.scenarios import ScenarioFormat

    from .bots import Bot as OutspeedBot
    from bitbox.table.protocol_rules import ProtocolJournalRules
    from .content import Content
    from .sim.runner import Statistics as OutspeedStatistics

NAME = "outspeed"
TITLE = "Outspeed"

#: The prompt kinds, one per phase that waits for players.
BONUS, PROGRAM, KEEP = "bonus", "program", "keep"

_OPTIONS = (
    OptionSpec("first_game", False, "tiles 1-13 in order, as for a first game"),
    OptionSpec("tokens", "virtual", "bonus tokens held by the bridge (virtual) or on the table (physical)",
               ("virtual", "physical"), controllers_only=("physical",)),
)
#: Outspeed's fields of config/table.yaml (bitbox.table.config): the token mode at a real
#: table (its option's default there) and the bots a demo seats.
_TABLE_FIELDS = (
    OptionSpec("tokens", "physical", "bonus tokens on the table (physical) or held by the bridge (virtual)",
               ("physical", "virtual")),
    OptionSpec("bot", "mixed", "the bots that fill seats: random, greedy, lookahead, or mixed"),
)


class OutspeedGame(EngineGame[Game]):
    """One game of Outspeed seen through the protocol; ``engine`` is the rules' :class:`Game`.

    The prompts are made once per state: :meth:`prompts` keeps them until the next
    :meth:`apply` (a host asks for them, then ``apply`` checks the answers against the same
    ones), and they come from the process's shelf of prompts (:class:`_Shelf`), shared by
    every game. A change made to the engine directly (not through :meth:`apply`) that leaves
    its phase, turn and draw queue as they were must call :meth:`changed`."""

    __slots__ = ("_asked", "_at")

    def __init__(self, engine: Game) -> None:
        super().__init__(engine)
        self._asked: tuple[Prompt, ...] | None = None     # the open prompts, until the next apply
        self._at: tuple[object, int, int] | None = None   # the phase, turn and draws they were made at

    def changed(self) -> None:
        """Call after changing the engine's state by hand: the prompts are made again."""
        self._asked = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled or deep-copied as its engine alone: the prompts kept are made again on the
        other side (their shared option tuples travel as plain tuples)."""
        return (type(self), (self.engine,))

    @property
    def turn(self) -> int:
        """The turn (the protocol's optional member: the table's snapshot is taken at its end)."""
        return int(self.engine.state.turn)

    def copy(self) -> "OutspeedGame":
        """An independent copy (the table tries an input on one before it is journaled)."""
        return OutspeedGame(self.engine.copy())

    # -------------------------------------------------------------- who acts now
    def prompts(self) -> Sequence[Prompt]:
        engine = self.engine
        s = engine.state
        asked = self._asked
        if asked is not None and self._at == (s.phase, s.turn, len(s.draw_queue)):
            return asked
        if s.finished:
            asked = ()
        elif s.phase == "bonus":
            # (no tile: a scenario's stack ran out, nothing to play)
            asked = SHELF.bonus_prompts(engine.bonus_options()) if s.tile is not None else ()
        elif s.phase == "programming":
            asked = SHELF.program_prompts(engine.program_options())
        elif s.phase == "draw":          # the two tokens drawn (maybe alike), in the order drawn
            asked = (Prompt(s.draw_queue[0], KEEP, _listed(dict.fromkeys(s.drawn)), {"drawn": list(s.drawn)}),)
        else:
            asked = ()
        self._asked, self._at = asked, (s.phase, s.turn, len(s.draw_queue))
        return asked

    def refusal(self, player: Player, action: Action) -> str | None:
        prompt = next((p for p in self.prompts() if p.player == player), None)
        if prompt is None:
            return "not_your_turn"
        if _canonical(prompt, action) in prompt.options:
            return None
        return self._refusal(prompt, action)

    def _refusal(self, prompt: Prompt, action: Action) -> str:
        """Why ``action`` is not among ``prompt.options`` (the engine's code when it has one)."""
        engine, player = self.engine, prompt.player
        code: str | None
        try:
            if prompt.kind == BONUS:
                code = engine.bonus_refusal(player, action) if action is None or action in TOKENS else "not_a_token"
            elif prompt.kind == PROGRAM:
                code = engine.programming_refusal(player, action) if isinstance(action, Choice) else "not_a_choice"
            else:
                code = "not_drawn"
        except (RulesError, TileError):
            code = "not_a_choice" if prompt.kind == PROGRAM else "not_a_token"
        return code or "not_legal"

    # -------------------------------------------------------------- apply
    def apply(self, answers: Mapping[Player, Action]) -> Sequence[GameEvent]:
        engine = self.engine
        s = engine.state
        prompts: Sequence[Prompt] | None = self._asked
        if prompts is None or self._at != (s.phase, s.turn, len(s.draw_queue)):
            prompts = self.prompts()
        if not prompts:
            raise GameError("the game is over" if self.finished else "no prompt is open")
        kind = prompts[0].kind
        # The usual case: an answer from each open prompt's player, in seat order, that is one
        # of its options (most often the very option object: recognised by its identity).
        usual = len(answers) == len(prompts)
        if usual:
            for prompt, (p, a) in zip(prompts, answers.items()):
                options: Any = prompt.options           # a _Listed
                if p != prompt.player or (id(a) not in options.ids and a not in options):
                    usual = False
                    break
        if not usual:
            wanted = {p.player: p for p in prompts}
            self.check_answers(answers, list(wanted))
            answers = {p: _canonical(prompt, answers[p]) for p, prompt in wanted.items()}
            codes = {p: self._refusal(prompt, answers[p]) for p, prompt in wanted.items()
                     if answers[p] not in prompt.options}
            if codes:
                raise Refusal(codes)
        self._asked = None                      # the state moves on: prompts made again
        try:
            if kind == BONUS:
                return engine.play_bonus({p: a for p, a in answers.items() if a is not None})  # type: ignore[misc]
            if kind == PROGRAM:
                return engine.program(answers)                                              # type: ignore[arg-type]
            (player, token), = answers.items()
            return engine.keep(player, token)                                               # type: ignore[arg-type]
        except Refused as exc:          # not expected: every answer was among the options
            raise Refusal(exc.codes, str(exc)) from None

    # -------------------------------------------------------------- chance
    def force(self, outcomes: Mapping[str, Sequence[int | str]]) -> None:
        """Outspeed's sources are players: the next dice rolled for that player."""
        s = self.engine.state
        for player, values in outcomes.items():
            if player not in s.players:
                raise GameError(f"unknown player {player!r} (players: {', '.join(s.players)})")
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                raise GameError(f"forced rolls for {player} must be whole numbers, not {list(values)!r}")
            s.forced_dice.setdefault(player, []).extend(int(v) for v in values)


class _Listed(tuple[Action, ...]):
    """A prompt's options as this module makes them: a tuple, with the identities of its
    members (``ids``: :meth:`OutspeedGame.apply` recognises an answer that is one of them at
    once; the members are kept alive by the tuple, so no other object has their identity) and,
    for a programming prompt, the legal programs as the bots read them (``legal``: path ->
    numbers in the options' order, with the engine's ``sorted_keys`` and ``choices``, whose
    Choices are the options' own). Pickled or copied, it is a plain tuple."""

    ids: frozenset[int]
    legal: Mapping[str, Sequence[int]] | None

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (tuple(self),))


def _listed(options: Iterable[Action], legal: Mapping[str, Sequence[int]] | None = None) -> _Listed:
    listed = _Listed(options)
    listed.ids = frozenset(map(id, listed))
    listed.legal = legal
    return listed


class _Shelf:
    """The prompts of every Outspeed game of this process, made once and shared (prompts and
    answers are immutable values): the bonus prompts of players who hold no token, by the
    players; a bonus prompt by its player and options; the programming prompts by each
    player's legal programs (:meth:`Game.program_options`, which the engine makes once per tile
    face and fuel and keeps with the tile, for every game), and their options by those legal
    programs. Entries are kept by the identity of the engine's mappings, which they hold."""

    #: More entries than this (faces whose options the engine makes anew each time): start over.
    LIMIT = 4096

    def __init__(self) -> None:
        self._nothing: dict[tuple[Player, ...], tuple[Prompt, ...]] = {}
        self._bonus: dict[tuple[Player, tuple[Action, ...]], Prompt] = {}
        self._programs: dict[int, tuple[object, _Listed]] = {}
        self._program: dict[tuple[Player, int], tuple[object, Prompt]] = {}

    def _full(self) -> None:
        if len(self._nothing) + len(self._bonus) + len(self._programs) + len(self._program) > self.LIMIT:
            self.__init__()                                 # type: ignore[misc]

    def bonus_prompts(self, options: Mapping[Player, Sequence[str | None]]) -> tuple[Prompt, ...]:
        """The bonus prompts of :meth:`Game.bonus_options`."""
        players = tuple(options)
        values = tuple(options.values())
        if values.count(_NOTHING) == len(values):           # nobody holds a token: the usual case
            made = self._nothing.get(players)
            if made is None:
                self._full()
                made = self._nothing[players] = tuple(self._bonus_prompt(p, _NONE) for p in players)
            return made
        bonus = self._bonus
        asked = []
        for p, tokens in options.items():
            key: tuple[Player, tuple[Action, ...]] = (p, _NONE if tokens is _NOTHING else tuple(tokens))
            prompt = bonus.get(key)
            asked.append(prompt if prompt is not None else self._bonus_prompt(*key))
        return tuple(asked)

    def _bonus_prompt(self, player: Player, tokens: tuple[Action, ...]) -> Prompt:
        made = self._bonus.get((player, tokens))
        if made is None:
            self._full()
            made = self._bonus[(player, tokens)] = Prompt(player, BONUS, _NONE if tokens == _NONE else _listed(tokens))
        return made

    def program_prompts(self, options: Mapping[Player, Mapping[str, Sequence[int]]]) -> tuple[Prompt, ...]:
        """The programming prompts of :meth:`Game.program_options`."""
        made = self._program
        asked = []
        for p, legal in options.items():
            known = made.get((p, id(legal)))              # (its mapping, alive while kept: the key is its)
            if known is None:
                known = self._program_prompt(p, legal)
            asked.append(known[1])
        return tuple(asked)

    def _program_prompt(self, player: Player, legal: Mapping[str, Sequence[int]]) -> tuple[object, Prompt]:
        self._full()
        known = self._programs.get(id(legal))
        if known is None:
            known = self._programs[id(legal)] = (legal, _programs(legal))
        made = self._program[(player, id(legal))] = (legal, Prompt(player, PROGRAM, known[1]))
        return made


    def read(self, legal: Mapping[str, Sequence[int]]) -> Mapping[str, Sequence[int]]:
        """The legal programs ``legal`` (a player's :meth:`Game.program_options`) as the bots
        read them from a programming prompt (its options' ``legal``), without the prompt: the
        same object :meth:`program_prompts` would hand them (for :meth:`OutspeedCartridge.playout`)."""
        known = self._programs.get(id(legal))              # (its mapping, alive while kept: the key is its)
        if known is None:
            self._full()
            known = self._programs[id(legal)] = (legal, _programs(legal))
        return known[1].legal                               # type: ignore[return-value]


def _programs(legal: Mapping[str, Sequence[int]]) -> _Listed:
    """A programming prompt's options: each legal path (left, center, right) with each of its
    legal numbers, or alone when it takes none; with the same programs as the bots read them
    (``legal``), whose plain paths' Choices are the options' own."""
    read = _Options({path: tuple(legal[path]) for path in sorted(legal, key=PATHS.index)})
    plain = dict(zip(read.sorted_keys, read.choices))
    options: list[Action] = []
    for path, numbers in read.items():
        options += [Choice(path, n) for n in numbers] if numbers else [plain[path]]
    return _listed(options, read)


def _legal_of(options: Sequence[Action]) -> dict[str, list[int]]:
    """The legal programs listed by a programming prompt's ``options`` (path -> numbers)."""
    legal: dict[str, list[int]] = {}
    for o in options:
        assert isinstance(o, Choice)
        numbers = legal.setdefault(o.path, [])
        if o.number is not None:
            numbers.append(o.number)
    return legal


#: The prompts of every game of this process.
SHELF = _Shelf()

#: The options of a bonus prompt of a player who holds no token (one object for all).
_NONE = _listed((None,))


def _canonical(prompt: Prompt, action: Action) -> Action:
    """A program whose path takes no number, given with one (the centre wheel is always
    somewhere): the engine ignores the number, so the option without it is meant."""
    if prompt.kind == PROGRAM and isinstance(action, Choice) and action.number is not None:
        plain = Choice(action.path)
        if plain in prompt.options:
            return plain
    return action


class PromptBot:
    """One of Outspeed's bots (:mod:`outspeed.bots`) answering the console's prompts: the
    same decisions, from the same view and the same legal options, as in
    :func:`outspeed.bots.play_game`."""

    def __init__(self, bot: "OutspeedBot") -> None:
        self.bot = bot
        self.name = bot.name
        self._legal: dict[int, tuple[Sequence[Action], Mapping[str, Sequence[int]]]] = {}   # by the options' id

    @property
    def rng(self) -> Any:
        """The bot's random source (the table seeds it for each decision)."""
        return getattr(self.bot, "rng", None)

    def choose(self, view: Mapping[str, JSON], prompt: Prompt) -> Action:
        kind = prompt.kind
        if kind == PROGRAM:
            options = prompt.options
            legal = options.legal if options.__class__ is _Listed else None
            if legal is None:                       # a prompt made elsewhere
                known = self._legal.get(id(options))
                if known is None or known[0] is not options:
                    if len(self._legal) > 512:
                        self._legal.clear()
                    known = self._legal[id(options)] = (options, _legal_of(options))
                legal = known[1]
            return self.bot.program(view, legal)
        if kind == BONUS:                           # (holding nothing: the engine's own "nothing")
            options = prompt.options
            return self.bot.bonus(view, _NOTHING if options is _NONE else options)  # type: ignore[arg-type]
        drawn = prompt.context.get("drawn")
        return self.bot.keep(view, drawn if isinstance(drawn, list) else list(prompt.options))  # type: ignore[arg-type]


def _playout(game: OutspeedGame, bots: Mapping[Player, Any], on_events: Callable[[Sequence[GameEvent]], None] | None,
             answered: Callable[[Player, Prompt, Action], None] | None) -> int | None:
    """:meth:`OutspeedCartridge.playout`: the engine's own loop (as :func:`outspeed.bots.play_game`
    plays it), each seat's engine bot handed what :meth:`PromptBot.choose` hands it from the
    protocol's prompt (the same legal programs and bonus tokens, the same view), each phase's
    answers applied as :meth:`OutspeedGame.apply` applies them."""
    from bitbox.bots.base import LazyView
    seats: dict[Player, tuple[Any, Any]] = {}
    for p in game.players:
        bot = bots.get(p)
        if type(bot) is not PromptBot:          # another bot (the search bot, a foreign one): the protocol
            return None
        seats[p] = (LazyView(game, p), bot.bot)
    engine = game.engine
    s = engine.state
    read = SHELF.read
    # SHELF.read(programs) looked up inline: its entries hold their mappings, so an id found
    # is that mapping's even if the shelf has started over since (this dict then unchanged).
    known_programs = SHELF._programs

    def asked() -> dict[Player, Prompt]:        # the protocol's prompts, only for ``answered``
        game.changed()
        return {pr.player: pr for pr in game.prompts()}

    applies = 0
    try:
        while not s.finished:
            phase = s.phase
            prompts = asked() if answered is not None else None
            if phase == "bonus" and s.tile is not None:
                plays: dict[Player, str] = {}
                for p, legal in engine.bonus_options().items():
                    view, bot = seats[p]
                    view._view = None
                    tokens = legal if legal is _NOTHING else tuple(legal)
                    token = bot.bonus(view, _NOTHING if tokens is _NOTHING or tokens == _NONE else tokens)
                    if prompts is not None and answered is not None:
                        answered(p, prompts[p], token)
                    if token is not None:
                        plays[p] = token
                events = engine.play_bonus(plays)
            elif phase == "programming":
                choices: dict[Player, Choice] = {}
                for p, programs in engine.program_options().items():
                    view, bot = seats[p]
                    view._view = None
                    known = known_programs.get(id(programs))
                    read_legal: Any = known[1].legal if known is not None else read(programs)
                    choice = bot.program(view, read_legal)
                    if prompts is not None and answered is not None:
                        answered(p, prompts[p], choice)     # (the bot's answer, as given)
                    if choice.number is not None and not read_legal.get(choice.path, True):
                        choice = Choice(choice.path)        # (as apply takes it: _canonical)
                    choices[p] = choice
                events = engine.program(choices)
            elif phase == "draw":
                p = s.draw_queue[0]
                view, bot = seats[p]
                view._view = None
                token = bot.keep(view, list(s.drawn))
                if prompts is not None and answered is not None:
                    answered(p, prompts[p], token)
                events = engine.keep(p, token)
            else:
                raise GameError("the game is not finished but asks nobody anything")
            applies += 1
            if on_events is not None:
                on_events(events)
    except Refused as exc:                      # a bot's answer the rules refuse (not one of its options)
        raise Refusal(exc.codes, str(exc)) from None
    finally:
        game.changed()                          # the prompts kept belong to an earlier state
    return applies


def _bot(make: Any, name: str, cartridge: "OutspeedCartridge", seed: int | None) -> PromptBot:
    return PromptBot(make(name, seed, dice=cartridge.content.dice))


#: Outspeed's bot shelf (:attr:`OutspeedCartridge.bots`), made on first use.
_BOTS: dict[str, BotFactory] = {}


class OutspeedCartridge(EngineCartridge):
    """The Outspeed cartridge (registered as ``outspeed`` in the ``bitbox.games`` entry points)."""

    game_class = OutspeedGame                   # its engine's game, new ones refused with RulesError
    rules_errors = (RulesError,)
    name, title = NAME, TITLE
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    options: Sequence[OptionSpec] = _OPTIONS
    locale = Path(__file__).resolve().parent / "locale"          # its catalogues (the home screen's labels)

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """Outspeed's bots (:data:`outspeed.bots.BOTS`: random, greedy, lookahead) for the
        console's prompts."""
        if not _BOTS:
            from .bots import BOTS, make_bot
            _BOTS.update((name, partial(_bot, make_bot, name)) for name in BOTS)
        return MappingProxyType(_BOTS)

    @property
    def mixed_bots(self) -> Sequence[str]:
        """``--bots mixed`` (:data:`outspeed.bots.MIXED`), for ``bitbox simulate outspeed``."""
        from .bots import MIXED
        return MIXED

    def load_content(self) -> "Content":
        from .content import load_content
        return load_content()

    def new_engine(self, players: tuple[Player, ...], seed: int, options: dict[str, JSON]) -> Game:
        c = self.content
        return Game.new(players, c.tiles, seed=seed, first_game=bool(options["first_game"]), dice=c.dice,
                        token_counts=c.token_counts, markers=c.markers, token_mode=str(options["tokens"]))

    def from_data(self, data: Mapping[str, JSON]) -> OutspeedGame:
        try:
            return OutspeedGame(Game.from_data(data))
        except (RulesError, TileError) as exc:
            raise GameError(f"not a saved Outspeed game: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise GameError(f"not a saved Outspeed game: {type(exc).__name__} {exc}") from None

    def redeal(self, game: AnyGame, seed: int, keep: Player | None = None) -> OutspeedGame:
        """The hidden parts drawn again: the random state, the order of the tiles not yet
        revealed, and which token is where among the pile, the hands and a pending draw
        (each hand and draw keeps its size; unknown physical tokens stay unknown). ``keep``'s
        own tokens, and their draw while they choose, stay. The hidden parts are put in a fixed
        order before they are shuffled, so the result depends on what is known (and the seed),
        not on where the hidden tokens really were (the search bot relies on it)."""
        if keep is not None and keep not in game.players:
            raise GameError(f"unknown player {keep!r} (players: {', '.join(game.players)})")
        copy, rng = self.redraw_chance(game, seed)
        s = copy.state
        s.forced_dice = {}
        s.stack = sorted(s.stack, key=lambda tile: tile.number)
        rng.shuffle(s.stack)
        drawing = s.phase == "draw" and bool(s.draw_queue) and s.draw_queue[0] == keep
        others = [p for p in s.players if p != keep]
        pool = sorted(list(s.pile) + ([] if drawing else list(s.drawn)) +
                      [t for p in others for t in s.held[p] if t != UNKNOWN])
        rng.shuffle(pool)
        for p in others:
            s.held[p] = [UNKNOWN if t == UNKNOWN else pool.pop() for t in s.held[p]]
        if not drawing:
            s.drawn = [pool.pop() for _ in s.drawn]
        s.pile = pool
        return OutspeedGame(copy)

    def playout(self, game: AnyGame, bots: Mapping[Player, Any],
                on_events: Callable[[Sequence[GameEvent]], None] | None = None,
                answered: Callable[[Player, Prompt, Action], None] | None = None) -> int | None:
        """The protocol's optional ``playout`` (docs/games.md): ``game`` played to its end by
        ``bots`` exactly as :func:`bitbox.bots.play` plays it (the same answers, events, applies
        and final state), in the engine's own loop, when every seat's bot is one of this
        cartridge's (:class:`PromptBot`, as :attr:`bots` makes them): the number of applies;
        None, with nothing done, otherwise."""
        return _playout(game, bots, on_events, answered) if isinstance(game, OutspeedGame) else None

    @property
    def statistics(self) -> "OutspeedStatistics":
        """Outspeed's statistics for simulations (the console's hook: :mod:`outspeed.sim`)."""
        from .sim.runner import Statistics
        return Statistics(self)

    @property
    def simulation(self) -> Any:
        """``outspeed simulate``'s run, defaults and option (the console's member:
        :class:`bitbox.simulation.command.Simulation`, in :mod:`outspeed.sim`)."""
        from .sim import SIMULATION
        return SIMULATION

    @property
    def scenarios(self) -> "ScenarioFormat":
        """Outspeed's scenario file format (docs/scenarios.md) for the console's runner."""
        from .scenario import FORMAT
        return FORMAT

    def figures(self, view: Mapping[str, Any], events: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, list]:
        """The end screen's figures (bitbox.display.ending), from the final public view: each
        ship's zone (its position on the track), fuel and bonus tokens; an eliminated ship's
        turn out."""
        out_turn = {e[0]: e[2] for e in view.get("eliminated", ()) if isinstance(e, (list, tuple)) and len(e) >= 3}
        figures: dict[str, list] = {}
        for p in view.get("players", ()):
            name = p["player"]
            rows: list[tuple[str, Any]] = [("zone", p.get("zone"))] if name not in out_turn else [("out_turn", out_turn[name])]
            rows += [("fuel", p.get("fuel")), ("tokens", p.get("tokens"))]
            figures[name] = rows
        return figures

    #: The bot the search bot (bitbox.bots.search) plays its rollouts with: the strongest
    #: bot that plays fast enough for hundreds of games per decision.
    rollout_bot = "greedy"

    def presentation(self) -> Any:
        """How the table shows a game of Outspeed (a new one a session: :mod:`outspeed.presentation`)."""
        from .presentation import OutspeedPresentation
        return OutspeedPresentation()

    @property
    def journal(self) -> "ProtocolJournalRules":
        """How the console's journal records and rebuilds Outspeed's games: the protocol's
        rules with Outspeed's hooks (:mod:`outspeed.journaling`)."""
        from .journaling import RULES
        return RULES

    # -------------------------------------------------------------- at the table (bitbox.table.command)
    table_fields = _TABLE_FIELDS
    headlines = frozenset({EventKind.TURN, EventKind.GAME_OVER})     # printed flush left at the table
    replay_headlines = frozenset({EventKind.TURN})
    sounds = MappingProxyType({EventKind.PROGRAMMED: "reveal", EventKind.BONUS_PLAYED: "reveal", EventKind.ROLL: "dice",
                               EventKind.ELIMINATED: "eliminated", EventKind.GAME_OVER: "winner"})
    _wheels: tuple[Any, Any] | None = None                         # (content, its wheel map): loaded once a game

    def words(self, code: str) -> Any:
        from .words import Lang
        return Lang(code)

    def display(self, size: tuple[int, int], words: Any, surface: Any = None) -> Any:
        from .display.render import TableDisplay
        return TableDisplay(size=size, lang=words, surface=surface)

    def replay_view(self, frame: Any, info: Any, done: bool) -> Any:
        from dataclasses import replace

        from .display.model import TableView
        return replace(TableView.from_public(frame.view), stage="replay", prompt=("prompt.replay", {"game": info.id}),
                       log=tuple(frame.log), dice=tuple(frame.dice))

    def table_controls(self, settings: Mapping[str, Any]) -> Any:
        """Outspeed's controls on the wheel map of the game's tiles (checked: a mistake is one line)."""
        from .controls import Controls
        from .wheelmap import load_outspeed_wheel_map
        content = self.content
        if self._wheels is None or self._wheels[0] is not content:
            self._wheels = (content, load_outspeed_wheel_map(tiles=content.tiles))
        return Controls(self._wheels[1])

    def table_settings(self, options: Mapping[str, Any], game: Any = None) -> dict[str, Any]:
        """What a game records of its options: ``first_game`` and ``tokens`` (the mode played)."""
        return {"first_game": bool(options["first_game"]), "tokens": options["tokens"]}

    def table_notes(self, settings: Mapping[str, Any], words: Any) -> tuple[list[str], list[str]]:
        return [], [words.t(f"status.tokens.{settings['tokens']}")]

    def lobby_lines(self, settings: Mapping[str, Any], words: Any) -> list[str]:
        return [words.t(f"status.tokens.{settings['tokens']}")] + \
            ([words.t("status.first_game")] if settings.get("first_game") else [])

    def add_commands(self, sub: Any, prog: str) -> None:
        """Outspeed's own commands: ``tiles check`` and ``tiles show``."""
        from .cli import add_commands
        add_commands(sub, prog)

    def action_to_data(self, action: Action) -> JSON:
        if isinstance(action, Choice):
            return {"path": action.path, "number": action.number}
        if action is None or isinstance(action, str):
            return action
        raise GameError(f"not an Outspeed answer: {action!r}")

    def action_from_data(self, data: JSON) -> Action:
        if data is None:
            return None
        if isinstance(data, str):
            if data not in TOKENS:
                raise GameError(f"unknown bonus token {data!r} (known: {', '.join(TOKENS)})")
            return data
        if isinstance(data, Mapping) and set(data) <= {"path", "number"} and data.get("path") in PATHS:
            number = data.get("number")
            if number is None or (isinstance(number, int) and not isinstance(number, bool)):
                return Choice(str(data["path"]), number)
        raise GameError(f"not an Outspeed answer: {data!r}")


#: The object the ``bitbox.games`` entry point names.
CARTRIDGE = OutspeedCartridge()

__all__ = ["BONUS", "CARTRIDGE", "KEEP", "NAME", "PROGRAM", "OutspeedCartridge", "OutspeedGame", "PromptBot", "TITLE"]

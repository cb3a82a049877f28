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

from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bitbox.games.base import BotFactory, EngineCartridge, EngineGame
from bitbox.games.protocol import JSON, Action, GameError, GameEvent, OptionSpec, Player, Prompt, Refusal
from bitbox.games.protocol import Game as AnyGame

from .rules import PATHS, TOKENS, UNKNOWN, Choice, Game, Refused, RulesError, TileError
from .rules.game import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from bitbox.games.scenarios import ScenarioFormat

    from .bots import Bot as OutspeedBot
    from .journaling import OutspeedJournalRules
    from .content import Content
    from .sim.runner import Statistics as OutspeedStatistics

NAME = "outspeed"
TITLE = "Outspeed"

#: The prompt kinds, one per phase that waits for players.
BONUS, PROGRAM, KEEP = "bonus", "program", "keep"

_OPTIONS = (
    OptionSpec("first_game", False, "tiles 1-13 in order, as for a first game"),
    OptionSpec("tokens", "virtual", "bonus tokens held by the bridge (virtual) or on the table (physical)",
               ("virtual", "physical")),
)


class OutspeedGame(EngineGame[Game]):
    """One game of Outspeed seen through the protocol; ``engine`` is the rules' :class:`Game`."""

    __slots__ = ("_programs", "_bonus")

    def __init__(self, engine: Game) -> None:
        super().__init__(engine)
        # The prompts made, by player and what they come from: a programming prompt by the
        # engine's legal programs (one mapping shared by the players with the same fuel on a
        # tile face), a bonus prompt by its options; made once, not at every call (a
        # simulation asks for them twice an apply). Prompts are immutable values.
        self._programs: dict[tuple[Player, int], tuple[object, Any]] = {}     # ("", id): the options
        self._bonus: dict[tuple[Player, tuple[Action, ...]], Prompt] = {}

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
        if s.finished:
            return ()
        if s.phase == "bonus":
            if s.tile is None:                  # a scenario's stack ran out: nothing to play
                return ()
            bonus = self._bonus
            out = []
            for p, tokens in engine.bonus_options().items():
                options = tuple(tokens)
                prompt = bonus.get((p, options))
                if prompt is None:
                    prompt = bonus[(p, options)] = Prompt(p, BONUS, options)
                out.append(prompt)
            return tuple(out)
        if s.phase == "programming":
            made = self._programs
            asked = []
            for p, legal in engine.program_options().items():
                known = made.get((p, id(legal)))
                if known is None or known[0] is not legal:
                    if len(made) > 512:         # a face whose options are made anew at each call
                        made.clear()
                    shared = made.get(("", id(legal)))
                    if shared is None or shared[0] is not legal:
                        shared = made[("", id(legal))] = (legal, _programs(legal))
                    known = made[(p, id(legal))] = (legal, Prompt(p, PROGRAM, shared[1]))
                asked.append(known[1])
            return tuple(asked)
        if s.phase == "draw":          # the two tokens drawn (maybe alike), in the order drawn
            return (Prompt(s.draw_queue[0], KEEP, tuple(dict.fromkeys(s.drawn)), {"drawn": list(s.drawn)}),)
        return ()

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
        prompts = self.prompts()
        if not prompts:
            raise GameError("the game is over" if self.finished else "no prompt is open")
        wanted = {p.player: p for p in prompts}
        self.check_answers(answers, list(wanted))
        answers = {p: _canonical(prompt, answers[p]) for p, prompt in wanted.items()}
        codes = {p: self._refusal(prompt, answers[p]) for p, prompt in wanted.items()
                 if answers[p] not in prompt.options}
        if codes:
            raise Refusal(codes)
        engine = self.engine
        kind = prompts[0].kind
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


def _programs(legal: Mapping[str, Sequence[int]]) -> tuple[Action, ...]:
    """A programming prompt's options: each legal path (left, center, right) with each of its
    legal numbers, or alone when it takes none."""
    options: list[Action] = []
    for path in sorted(legal, key=PATHS.index):
        numbers = legal[path]
        options += [Choice(path, n) for n in numbers] if numbers else [Choice(path)]
    return tuple(options)


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
        self._legal: dict[int, tuple[Sequence[Action], dict[str, list[int]]]] = {}   # by the options' id

    @property
    def rng(self) -> Any:
        """The bot's random source (the table seeds it for each decision)."""
        return getattr(self.bot, "rng", None)

    def choose(self, view: Mapping[str, JSON], prompt: Prompt) -> Action:
        if prompt.kind == BONUS:
            return self.bot.bonus(view, prompt.options)                        # type: ignore[arg-type]
        if prompt.kind == PROGRAM:
            options = prompt.options
            known = self._legal.get(id(options))
            if known is None or known[0] is not options:
                if len(self._legal) > 512:
                    self._legal.clear()
                legal: dict[str, list[int]] = {}
                for o in options:
                    assert isinstance(o, Choice)
                    numbers = legal.setdefault(o.path, [])
                    if o.number is not None:
                        numbers.append(o.number)
                known = self._legal[id(options)] = (options, legal)
            return self.bot.program(view, known[1])
        drawn = prompt.context.get("drawn")
        return self.bot.keep(view, drawn if isinstance(drawn, list) else list(prompt.options))  # type: ignore[arg-type]


def _bot(name: str, cartridge: "OutspeedCartridge", seed: int | None) -> PromptBot:
    from .bots import make_bot
    return PromptBot(make_bot(name, seed, dice=cartridge.content.dice))


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
        from .bots import BOTS
        return {name: partial(_bot, name) for name in BOTS}

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

    @property
    def statistics(self) -> "OutspeedStatistics":
        """Outspeed's statistics for simulations (the console's hook: :mod:`outspeed.sim`)."""
        from .sim.runner import Statistics
        return Statistics(self)

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
    def journal(self) -> "OutspeedJournalRules":
        """How the console's journal records and rebuilds Outspeed's games."""
        from .journaling import RULES
        return RULES

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

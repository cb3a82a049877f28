"""Last One Alive as a cartridge of the console: :class:`lastonealive.rules.Game` behind the
game protocol (``bitbox.games.protocol``). A small adapter: the engine already works
prompt by prompt, so each of its prompts is the one open prompt of the protocol, its legal
answers are the options, its refusal codes the refusals.

* Prompt kinds are the engine's (``before``, ``dice``, ``after``, ``draw``, ...); an ``auto``
  prompt (nothing to decide) is still a prompt, with its ``default`` first among the options
  and ``"auto": true`` in its context, so a host can answer it without asking.
* Answers are :class:`lastonealive.rules.Action` values; as data, ``[kind, token, arg]``.
* ``force`` takes faces by die type (``{"shoot": ["bang2"]}``): every roll of that type takes
  them first, in order, then chance takes over.
* Options: the variants as booleans and ``first_zombie`` (L-4). The first player is the
  first seat (the table seats whoever saw a zombie last first).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from bitbox.games.base import BotFactory, EngineCartridge, EngineGame
from bitbox.games.protocol import JSON, GameError, OptionSpec, Player, Prompt, Refusal
from bitbox.games.protocol import Game as AnyGame

from .rules import OBJECTS, TYPES, VARIANTS, Action, Event, Game, Refused, RulesError
from .rules.game import MAX_PLAYERS, MIN_PLAYERS, VARIANT_PLAYERS, variant_problem

NAME = "lastonealive"
TITLE = "Last One Alive"

_OPTIONS = (          # the variants: one repeatable flag of its command, --variant NAME
    OptionSpec("survivors", False, "three lives each, scores at the third apocalypse token (2-3 players)",
               players=VARIANT_PLAYERS["survivors"], flag="variant"),
    OptionSpec("day_night", False, "the night token in the bag: +1 level until the day token is drawn",
               flag="variant"),
    OptionSpec("zombies_everywhere", False, "each elimination raises the apocalypse level (to 4)", flag="variant"),
    OptionSpec("zombified_rolls", False, "eliminated players roll a zombie die on their turn", flag="variant"),
    OptionSpec("first_zombie", "each", "the starting 1-zombie die: each player, or the first only (L-4)",
               ("each", "first")),
)
#: How the table plays it, not a rule (``Cartridge.new`` never sees it): the bridge draws the
#: tokens (virtual) or the table draws them from a real bag and enters them (physical).
_TABLE_OPTIONS = (
    OptionSpec("tokens", "virtual", "tokens drawn by the bridge (virtual) or from a real bag (physical)",
               ("virtual", "physical"), controllers_only=("physical",)),
)


def protocol_prompts(engine: Game) -> Sequence[Prompt]:
    """The engine's prompt (none once the game is over): its legal answers with the default
    first, its public facts and, at setup, the token drawn (private to that player)."""
    pr = engine.prompt()
    if pr is None:
        return ()
    options = list(pr.legal)
    if pr.default is not None and pr.default in options:
        options.remove(pr.default)
        options.insert(0, pr.default)
    context: dict[str, JSON] = {"auto": pr.auto, **pr.info}
    if pr.kind == "setup":
        context["token"] = engine.state.setup_token         # private to that player
    return (Prompt(pr.player, pr.kind, tuple(options), context),)


_MISSING = object()


class LastOneAliveGame(EngineGame[Game]):
    """One game of Last One Alive seen through the protocol; ``engine`` is the rules' Game.

    Its prompt is made once per state: kept while the engine's legal answers are the same
    object (the engine makes them again after each apply and after ``engine.changed()``,
    which a change made by hand must call), and an answer that is one of its very options
    goes to the engine at once (the engine takes a listed answer as it is)."""

    __slots__ = ("_asked", "_ids", "_legal")

    def __init__(self, engine: Game) -> None:
        super().__init__(engine)
        self._asked: Sequence[Prompt] = ()
        self._ids: frozenset[int] = frozenset()         # the identities of its options
        self._legal: object = None                      # the engine's legal answers it was made from

    @property
    def turn(self) -> int:
        """The engine's turn (the protocol's optional ``Game.turn``: a table's frame a turn)."""
        return int(self.engine.state.turn)

    def copy(self) -> "LastOneAliveGame":
        return LastOneAliveGame(self.engine.copy())

    def prompts(self) -> Sequence[Prompt]:
        engine = self.engine
        legal = getattr(engine, "_legal", None)         # the engine's own cache of them (None: made again)
        if legal is not None and legal is self._legal:
            return self._asked
        asked = self._asked = protocol_prompts(engine)
        self._ids = frozenset(map(id, asked[0].options)) if asked else frozenset()
        self._legal = getattr(engine, "_legal", None)
        return asked

    def refusal(self, player: Player, action: Any) -> str | None:
        s = self.engine.state
        if s.finished:
            return "game_over"
        if player != s.active:
            return "not_your_turn"
        if not isinstance(action, Action):
            return "not_legal"
        try:
            return self.engine.refusal(action)
        except RulesError:
            return "not_legal"

    def apply(self, answers: Mapping[Player, Any]) -> Sequence[Event]:
        s = self.engine.state
        if s.finished:
            raise GameError("the game is over")
        if len(answers) == 1:                   # the usual case: one of the open prompt's options
            self.prompts()                      # (kept, unless the state moved)
            if id(answers.get(s.active, _MISSING)) in self._ids:
                action = answers[s.active]
                try:
                    return self.engine.apply(action)
                except Refused as exc:          # not expected: the answer was listed
                    raise Refusal(exc.codes, str(exc)) from None
        self.check_answers(answers, [s.active])
        action = answers[s.active]
        code = self.refusal(s.active, action)
        if code is not None:
            raise Refusal({s.active: code})
        try:
            return self.engine.apply(action)
        except Refused as exc:                  # not expected: the answer was legal
            raise Refusal(exc.codes, str(exc)) from None

    def force(self, outcomes: Mapping[str, Sequence[int | str]]) -> None:
        s = self.engine.state
        for t, faces in outcomes.items():
            if t not in TYPES:
                raise GameError(f"unknown die type {t!r} (known: {', '.join(TYPES)})")
            for f in faces:
                if f not in s.faces[t]:
                    raise GameError(f"{f!r} is not a face of the {t} die ({', '.join(s.faces[t])})")
            s.queued.setdefault(t, []).extend(str(f) for f in faces)


def _playout(game: LastOneAliveGame, bots: Mapping[Player, Any],
             on_events: Callable[[Sequence[Event]], None] | None,
             answered: Callable[[Player, Prompt, Any], None] | None) -> int | None:
    """:meth:`LastOneAliveCartridge.playout`: the protocol's loop without its generic parts.
    A prompt that lists one option (an ``auto`` prompt with a single legal answer: about two thirds
    of a game's prompts) is answered by applying it, without making the prompt: both of the
    cartridge's bots answer a one-option prompt with that option and draw nothing. Every
    other prompt is the game's own (:meth:`LastOneAliveGame.prompts`), answered by its
    player's bot from the same view, and applied as :meth:`LastOneAliveGame.apply` applies it."""
    from bitbox.bots.base import LazyView, RandomBot

    from .strategy import CarefulBot
    seats: dict[Player, tuple[Any, Any]] = {}
    for p in game.players:
        bot = bots.get(p)
        if type(bot) is not RandomBot and type(bot) is not CarefulBot:     # not one of the shelf's: the protocol
            return None
        seats[p] = (LazyView(game, p), bot)
    engine = game.engine
    s = engine.state
    auto_answer, legal_now, apply_auto = engine.auto_answer, engine.legal, engine.apply
    applies = 0
    while not s.finished:
        applies += 1                                # (each pass applies one answer)
        if answered is None:
            auto = auto_answer()
            if auto is not None:
                legal = legal_now()
                if len(legal.actions) == 1 and not legal.families:      # the prompt's one option
                    events: Sequence[Event] = apply_auto(auto)
                    if on_events is not None:
                        on_events(events)
                    continue
        prompt, = game.prompts()
        player = prompt.player
        seat = seats.get(player)
        if seat is None:
            raise GameError(f"no bot plays {player}")
        view, bot = seat
        view._view = None
        action = bot.choose(view, prompt)
        if answered is not None:
            answered(player, prompt, action)
        events = game.apply({player: action})
        if on_events is not None:
            on_events(events)
    return applies


def _bot(name: str, cartridge: "LastOneAliveCartridge", seed: int | None) -> Any:
    from .strategy import make_bot
    return make_bot(name, seed, cartridge.content.faces)


class LastOneAliveCartridge(EngineCartridge):
    """The Last One Alive cartridge (``lastonealive`` in the ``bitbox.games`` entry points)."""

    name = NAME
    title = TITLE
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: Sequence[OptionSpec] = _OPTIONS
    table_options: Sequence[OptionSpec] = _TABLE_OPTIONS        # the home screen's (bitbox.table.home)
    locale = Path(__file__).resolve().parent / "locale"          # its catalogues (the home screen's labels)
    game_class = LastOneAliveGame
    rules_errors = (RulesError,)
    # The bots of this game (bitbox.bots.BotShelf): lastonealive/strategy.py.
    bots: Mapping[str, BotFactory] = {name: partial(_bot, name) for name in ("random", "careful")}

    def presentation(self) -> Any:
        """How the table shows a game of Last One Alive (:mod:`lastonealive.presentation`)."""
        from .presentation import LastOneAlivePresentation
        return LastOneAlivePresentation()

    # -------------------------------------------------------------- at the table (bitbox.table.command)
    #: the bots a demo seats when --bots names none: a mix, so a first game is lively
    demo_bots = "careful,random"
    headlines = frozenset({"turn", "game_over", "started", "resumed"})       # printed flush left at the table
    replay_headlines = frozenset({"turn", "game_over", "started"})
    _wheels: tuple[Any, Any] | None = None                  # (content, the wheel map): loaded once a game

    def words(self, code: str) -> Any:
        from .words import Lang
        return Lang(code)

    def display(self, size: tuple[int, int], words: Any, surface: Any = None) -> Any:
        from .display import TableDisplay
        return TableDisplay(size=size, lang=words, surface=surface)

    def replay_view(self, frame: Any, info: Any, done: bool) -> Any:
        from dataclasses import replace

        from .session import TableView
        return replace(TableView.from_public(frame.view), stage="replay", prompt=None, log=tuple(frame.log))

    def new_at_table(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> LastOneAliveGame:
        """A game dealt at the table: stopped before the setup draws (the players choose who
        starts: :func:`lastonealive.session.new_game`)."""
        from .session import new_game
        return LastOneAliveGame(new_game(players, seed=seed, variants=[v for v in VARIANTS if options.get(v)],
                                         first_zombie=str(options["first_zombie"]), **self.content.game_options()))

    def table_controls(self, settings: Mapping[str, Any]) -> Any:
        """The controls of the table's token mode (``tokens`` recorded) on the game's wheel map."""
        from bitbox.wheels import load_wheel_map

        from .controls import TableControls
        if self._wheels is None or self._wheels[0] is not self.content:
            self._wheels = (self.content, load_wheel_map(game=NAME))
        return TableControls(self._wheels[1], str(settings.get("tokens", "virtual")))

    def table_settings(self, options: Mapping[str, Any], game: Any = None) -> dict[str, Any]:
        """What a game records: its token mode, its variants (the game's: a variant may bring
        another), and the first zombie die when not each."""
        variants = list(game.engine.state.variants) if game is not None else [v for v in VARIANTS if options.get(v)]
        settings: dict[str, Any] = {"tokens": options["tokens"], "variants": variants}
        if options.get("first_zombie", "each") != "each":
            settings["first_zombie"] = options["first_zombie"]
        return settings

    @staticmethod
    def variant_names(words: Any, variants: Sequence[str]) -> str:
        """The variants as the table's language names them (the base game when none)."""
        return ", ".join(words.t(f"variant.{v}") for v in variants) or words.t("status.base_game")

    def table_notes(self, settings: Mapping[str, Any], words: Any) -> tuple[list[str], list[str]]:
        before = [self.variant_names(words, settings["variants"])]
        if "first_zombie" in settings:
            before.append(words.t("status.first_zombie.first"))
        return before, [words.t(f"status.tokens.{settings['tokens']}")]

    def lobby_lines(self, settings: Mapping[str, Any], words: Any) -> list[str]:
        return [self.variant_names(words, settings["variants"]), words.t(f"status.tokens.{settings['tokens']}")]

    def add_commands(self, sub: Any, prog: str) -> None:
        """Last One Alive's own command: ``dice show``."""
        from .cli import add_commands
        add_commands(sub, prog)

    def load_content(self) -> Any:
        from .content import load_content
        return load_content()

    def new_engine(self, players: tuple[Player, ...], seed: int, options: dict[str, JSON]) -> Game:
        variants = [v for v in VARIANTS if options[v]]
        problem = variant_problem(variants, len(players))
        if problem is not None:                 # the table's and simulate's check
            raise RulesError(problem)
        return Game.new(players, seed=seed, variants=variants, first_zombie=str(options["first_zombie"]),
                        **self.content.game_options())

    def from_data(self, data: Mapping[str, JSON]) -> LastOneAliveGame:
        try:
            return LastOneAliveGame(Game.from_data(data))
        except RulesError as exc:
            raise GameError(str(exc)) from None

    def redeal(self, game: AnyGame, seed: int, keep: Player | None = None) -> LastOneAliveGame:
        """The hidden parts drawn again: the random state, the bag's order, and which object
        is on the other side of each face-down token and of a token being placed at setup.
        ``keep``'s own face-down tokens, and the token they are placing, stay. The hidden parts
        are sorted before they are shuffled: the result depends on what is known (and the
        seed), not on where the hidden objects really were (the search bot relies on it)."""
        if keep is not None and keep not in game.players:
            raise GameError(f"unknown player {keep!r} (players: {', '.join(game.players)})")
        copy, rng = self.redraw_chance(game, seed)
        s = copy.state
        s.forced_roll, s.forced, s.queued = None, None, {}
        hidden = [h for p in s.players if p != keep for h in s.held[p] if h[0] == "barricade" and h[1] in OBJECTS]
        objects = sorted([t for t in s.bag if t in OBJECTS] + [h[1] for h in hidden])
        placing = s.setup_token is not None and not (s.phase == "setup" and s.active == keep)
        if placing:
            objects.append(s.setup_token)
            objects.sort()
        rng.shuffle(objects)
        for h in hidden:
            h[1] = objects.pop()
        if placing:
            s.setup_token = objects.pop()
        bag = sorted(objects + [t for t in s.bag if t not in OBJECTS])
        rng.shuffle(bag)
        s.bag = bag
        copy.changed()
        return LastOneAliveGame(copy)

    #: The bot the search bot (bitbox.bots.search) plays its rollouts with.
    rollout_bot = "careful"

    def figures(self, view: Mapping[str, Any], events: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, list]:
        """The end screen's figures (bitbox.display.ending), from public facts: Survivors' lives
        and score, the zombies each player shot (one per bang spent), the turns they played,
        the object/barricade tokens they hold, and whether they are still alive."""
        shot: dict[str, int] = {}
        turns: dict[str, int] = {}
        for kind, data in events:
            who = str(data.get("player"))
            if kind == "shot":
                shot[who] = shot.get(who, 0) + int(data.get("bangs") or 0)
            elif kind == "turn":
                turns[who] = turns.get(who, 0) + 1
        scores = view.get("scores") or {}
        figures: dict[str, list] = {}
        for p in view.get("players", ()):
            name = p["player"]
            rows: list[tuple[str, Any]] = []
            if "lives" in p:
                rows.append(("lives", p["lives"]))
            if name in scores:
                rows.append(("score", scores[name]))
            rows += [("zombies_shot", shot.get(name, 0)), ("turns", turns.get(name, 0)),
                     ("tokens", len([t for t in p.get("tokens", ()) if t != "hero"])), ("alive", bool(p.get("in_game")))]
            figures[name] = rows
        return figures

    def evaluate(self, game: AnyGame, player: Player) -> float | None:
        """The search bot's leaf evaluation (:func:`lastonealive.strategy.evaluate`): its
        rollouts stop when the deciding player's turn is over."""
        from .strategy import evaluate
        return evaluate(game.engine, player) if isinstance(game, LastOneAliveGame) else None

    def playout(self, game: AnyGame, bots: Mapping[Player, Any],
                on_events: Callable[[Sequence[Event]], None] | None = None,
                answered: Callable[[Player, Prompt, Any], None] | None = None) -> int | None:
        """The protocol's optional ``playout`` (docs/games.md): ``game`` played to its end by
        ``bots`` exactly as :func:`bitbox.bots.play` plays it (the same answers, events, applies
        and final state), without the protocol's generic loop, when every seat's bot is one of
        this cartridge's (``random``: the console's :class:`bitbox.bots.RandomBot`, ``careful``):
        the number of applies; None, with nothing done, otherwise."""
        return _playout(game, bots, on_events, answered) if isinstance(game, LastOneAliveGame) else None

    @property
    def statistics(self) -> Any:
        """Last One Alive's statistics for simulations (the console's hook: :mod:`lastonealive.sim`)."""
        from .sim.runner import STATISTICS
        return STATISTICS

    @property
    def simulation(self) -> Any:
        """``lastonealive simulate``'s run, defaults and description (the console's member:
        :class:`bitbox.simulation.command.Simulation`, in :mod:`lastonealive.sim`)."""
        from .sim import SIMULATION
        return SIMULATION

    @property
    def scenarios(self) -> Any:
        """Last One Alive's scenario file format (docs/last-one-alive-scenarios.md) for the
        console's runner."""
        from .scenario import FORMAT
        return FORMAT

    @property
    def journal(self) -> Any:
        """How the console's journal records and rebuilds Last One Alive's games: the
        protocol's rules with Last One Alive's hooks (:mod:`lastonealive.journaling`)."""
        from .journaling import RULES
        return RULES

    def action_to_data(self, action: Any) -> JSON:
        if not isinstance(action, Action):
            raise GameError(f"not a Last One Alive answer: {action!r}")
        return action.to_data()

    def action_from_data(self, data: JSON) -> Action:
        if isinstance(data, list) and len(data) == 3 and isinstance(data[0], str):
            try:
                return Action.from_data(data)
            except (TypeError, ValueError):
                pass
        raise GameError(f"not a Last One Alive answer: {data!r}")


CARTRIDGE = LastOneAliveCartridge()

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

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bitbox.games.protocol import JSON, GameError, OptionSpec, Player, Prompt, Refusal
from bitbox.games.protocol import Game as AnyGame
from bitbox.games.protocol import check_options, check_players

from .rules import OBJECTS, TYPES, VARIANTS, Action, Event, Game, Refused, RulesError
from .rules.game import MAX_PLAYERS, MIN_PLAYERS

NAME = "lastonealive"
TITLE = "Last One Alive"

_OPTIONS = (
    OptionSpec("survivors", False, "three lives each, scores at the third apocalypse token (2-3 players)"),
    OptionSpec("day_night", False, "the night token in the bag: +1 level until the day token is drawn"),
    OptionSpec("zombies_everywhere", False, "each elimination raises the apocalypse level (to 4)"),
    OptionSpec("zombified_rolls", False, "eliminated players roll a zombie die on their turn"),
    OptionSpec("first_zombie", "each", "the starting 1-zombie die: each player, or the first only (L-4)",
               ("each", "first")),
)


class LastOneAliveGame:
    """One game of Last One Alive seen through the protocol; ``engine`` is the rules' Game."""

    __slots__ = ("engine",)

    def __init__(self, engine: Game) -> None:
        self.engine = engine

    @property
    def players(self) -> Sequence[Player]:
        return self.engine.state.players

    @property
    def finished(self) -> bool:
        return self.engine.state.finished

    @property
    def winners(self) -> Sequence[Player]:
        return tuple(self.engine.state.winners)

    def prompts(self) -> Sequence[Prompt]:
        pr = self.engine.prompt()
        if pr is None:
            return ()
        options = list(pr.legal)
        if pr.default is not None and pr.default in options:
            options.remove(pr.default)
            options.insert(0, pr.default)
        context: dict[str, JSON] = {"auto": pr.auto, **pr.info}
        if pr.kind == "setup":
            context["token"] = self.engine.state.setup_token         # private to that player
        return (Prompt(pr.player, pr.kind, tuple(options), context),)

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
        extra = [p for p in answers if p != s.active]
        if extra:
            raise GameError(f"{extra[0]} has no prompt open (waiting for: {s.active})")
        if s.active not in answers:
            raise GameError(f"no answer from {s.active}")
        action = answers[s.active]
        code = self.refusal(s.active, action)
        if code is not None:
            raise Refusal({s.active: code})
        try:
            return self.engine.apply(action)
        except Refused as exc:                  # not expected: the answer was legal
            raise Refusal(exc.codes, str(exc)) from None

    def public_view(self) -> Mapping[str, JSON]:
        return self.engine.public_view()

    def private_view(self, player: Player) -> Mapping[str, JSON]:
        try:
            return self.engine.private_view(player)
        except RulesError as exc:
            raise GameError(str(exc)) from None

    def to_data(self) -> Mapping[str, JSON]:
        return self.engine.to_data()

    def force(self, outcomes: Mapping[str, Sequence[int | str]]) -> None:
        s = self.engine.state
        for t, faces in outcomes.items():
            if t not in TYPES:
                raise GameError(f"unknown die type {t!r} (known: {', '.join(TYPES)})")
            for f in faces:
                if f not in s.faces[t]:
                    raise GameError(f"{f!r} is not a face of the {t} die ({', '.join(s.faces[t])})")
            s.queued.setdefault(t, []).extend(str(f) for f in faces)


class LastOneAliveCartridge:
    """The Last One Alive cartridge (``lastonealive`` in the ``bitbox.games`` entry points)."""

    name = NAME
    title = TITLE
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: Sequence[OptionSpec] = _OPTIONS

    def __init__(self) -> None:
        self._content: Any = None

    @property
    def content(self) -> Any:
        if self._content is None:
            from .content import load_content
            self._content = load_content()
        return self._content

    def new(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> LastOneAliveGame:
        players = check_players(self, players)
        opts = check_options(self, options)
        variants = [v for v in VARIANTS if opts[v]]
        try:
            engine = Game.new(players, seed=seed, variants=variants, first_zombie=str(opts["first_zombie"]),
                              **self.content.game_options())
        except RulesError as exc:
            raise GameError(str(exc)) from None
        return LastOneAliveGame(engine)

    def from_data(self, data: Mapping[str, JSON]) -> LastOneAliveGame:
        try:
            return LastOneAliveGame(Game.from_data(data))
        except RulesError as exc:
            raise GameError(str(exc)) from None

    def redeal(self, game: AnyGame, seed: int) -> LastOneAliveGame:
        """The hidden parts drawn again: the random state, the bag's order, and which object
        is on the other side of each face-down token and of a token being placed at setup."""
        return self._redeal(game, seed, None)

    def redeal_for(self, game: AnyGame, player: Player, seed: int) -> LastOneAliveGame:
        """:meth:`redeal` from ``player``'s information (:class:`bitbox.games.PlayerRedeal`):
        the objects under their own face-down tokens, and the token they are placing at
        setup, stay as they are."""
        if player not in game.players:
            raise GameError(f"unknown player {player!r} (players: {', '.join(game.players)})")
        return self._redeal(game, seed, player)

    def _redeal(self, game: AnyGame, seed: int, keep: Player | None) -> LastOneAliveGame:
        # The hidden parts are sorted before they are shuffled: the result depends on what is
        # known (and the seed), not on where the hidden objects really were.
        if not isinstance(game, LastOneAliveGame):
            raise GameError(f"not a Last One Alive game: {type(game).__name__}")
        copy = game.engine.copy()
        s = copy.state
        rng = random.Random(seed)
        s.rng = random.Random(rng.getrandbits(64))
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

    # The bots of this game (bitbox.bots.BotShelf): lastonealive/strategy.py.
    bot_names: Sequence[str] = ("random", "careful")

    def make_bot(self, name: str, seed: int | None) -> Any:
        """The bot ``name`` (``random`` or ``careful``), seeded; ValueError for another name."""
        from .strategy import make_bot
        return make_bot(name, seed, self.content.faces)

    def play_main(self, argv: Sequence[str]) -> int:
        """`bitbox play --game lastonealive ARGS`: exactly `lastonealive play ARGS`."""
        from .cli import main
        try:
            return main(["play", *argv])
        except SystemExit as exc:               # argparse's own exit (bad option: 2, --help: 0)
            return int(exc.code or 0)

    @property
    def journal(self) -> Any:
        """How the console's journal records and rebuilds Last One Alive's games."""
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

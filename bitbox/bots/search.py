"""The search bot: information-set Monte Carlo search over the game protocol, for every cartridge.

At each decision with more than one option, the bot

1. *determinises* the game from its player's information only: the hidden parts (other
   hands, the pile, unrevealed tiles, the random state) are drawn again with the
   cartridge's ``redeal(game, seed, keep=player)`` (or, for a cartridge whose redeal does not keep
   it, :meth:`~bitbox.games.Cartridge.redeal` drawn until the player's private view and
   prompt come back the same): the true hidden state is never read, only replaced;
2. *rolls out* each option in that determinisation: the option is applied (the other
   players open at the same moment, in a simultaneous phase, answer with the rollout bot
   from their own view of the determinisation: nobody's true answer is seen), then the
   game is played on by the rollout bot in every seat, to its end or, for a cartridge with a
   leaf evaluation (``evaluate(game, player)``: Last One Alive's judges once the deciding
   player's turn is over), to the first moment it judges;
3. scores the option by the player's share of the win (1 for a lone win, 1/k for a win
   shared by k, 0 otherwise), or by the leaf evaluation's estimate of it.

The options searched are the rollout bot's own answer (asked from the player's view) and the
others, every one when the budget gives each at least :data:`MIN_PER_OPTION` rollouts, else
as many as it does, drawn at random (Last One Alive's re-rolls list a hundred subsets of
dice). The search goes in rounds: each draws one determinisation and rolls out every option
still searched on a copy of it, so options are compared on the same deals and dice (common
random numbers). After :data:`MIN_ROUNDS` rounds an option is dropped when the leader beats
it by more than :data:`Z_DROP` standard errors of their paired difference, or when it came out
exactly like the leader on every deal; the search stops when one option is left or the
budget is spent. The bot then plays the best option left, unless it beats the rollout bot's
answer by no more than :data:`Z_SWITCH` standard errors of their paired difference: noise
alone does not make the bot leave a good heuristic's answer. The rollout bot is the one the
cartridge names (its ``rollout_bot`` attribute: Outspeed's ``greedy``, Last One Alive's
``careful``), else ``random``.

Budgets (:class:`Budget`): a number of rollouts per decision (reproducible: the same bot
seed gives the same decisions, what ``simulate`` uses by default) and/or a time per decision
(``--think MS``), whichever ends first; with a time budget every option gets at least one
rollout. At the table (:meth:`Budget.at_table`) the default is at most :data:`TABLE_THINK_MS`
or :data:`DEFAULT_ROLLOUTS` rollouts; the table thinks on a worker thread and may
:meth:`~SearchBot.cancel` a search, and seeds each decision (:meth:`~SearchBot.reseed`).

The bot is handed its player's private view as a :class:`~bitbox.bots.LazyView`, which
carries the game it is a view of (:func:`bitbox.bots.play` and the simulators hand every
bot one): that game is only ever passed to the redeal. ``tests/games/test_search.py``
checks that two games differing only in what the player cannot see get the same decisions.
"""
from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from ..games.protocol import JSON, Action, Cartridge, Game, GameError, Player, Prompt, redeal_keeping
from ..simulation.seeds import derive
from .base import Bot, LazyView, RandomBot, make_bot, play

#: The bot's name in every ``--bots``.
SEARCH = "search"
#: Rollouts per decision when nothing else is said (``simulate``: reproducible).
DEFAULT_ROLLOUTS = 200
#: At the table, without --think or --rollouts, at most this long per decision (ms).
TABLE_THINK_MS = 1000
#: The longest a search bot may think per decision (``--think`` of play, replay and simulate):
#: ten minutes.
MAX_THINK_MS = 600_000
#: A cartridge whose redeal does not keep the player's knowledge: redeals drawn before giving up on matching the
#: player's information (the rollouts of that round are then skipped).
MATCH_TRIES = 200
#: Options are searched with at least this many rollouts each: a prompt with more options than
#: the budget allows is searched on the rollout bot's answer and others drawn at random.
MIN_PER_OPTION = 16
#: With a time budget only, at most this many options are searched.
MAX_CANDIDATES = 12
#: Rounds (one determinisation each, every option still searched rolled out on it) before
#: options start being dropped.
MIN_ROUNDS = 8
#: An option is dropped when the leader beats it by more than this many standard errors.
Z_DROP = 2.0
#: The bot leaves the rollout bot's answer only for an option better by more than this many
#: standard errors of their paired difference.
Z_SWITCH = 2.0


@dataclass(frozen=True)
class Budget:
    """How long the search bot thinks per decision: ``rollouts`` (None: no limit on the
    count) and ``think_ms`` (None: no limit on the time); at least one must be set."""

    rollouts: int | None = DEFAULT_ROLLOUTS
    think_ms: int | None = None

    def __post_init__(self) -> None:
        if self.rollouts is None and self.think_ms is None:
            raise ValueError("a search budget needs a number of rollouts or a time")
        if self.rollouts is not None and self.rollouts < 1:
            raise ValueError(f"the rollouts per decision must be 1 or more, not {self.rollouts}")
        if self.think_ms is not None and self.think_ms < 1:
            raise ValueError(f"--think must be 1 ms or more, not {self.think_ms}")

    @classmethod
    def of(cls, rollouts: int | None = None, think_ms: int | None = None) -> "Budget":
        """The budget a command's options say: ``--think MS`` alone is a time budget;
        neither is :data:`DEFAULT_ROLLOUTS`."""
        if rollouts is None and think_ms is None:
            return cls()
        return cls(rollouts, think_ms)

    @classmethod
    def at_table(cls, rollouts: int | None = None, think_ms: int | None = None) -> "Budget":
        """The budget at the table: ``--think MS`` and/or ``--rollouts N`` as given; neither
        is :data:`DEFAULT_ROLLOUTS` or :data:`TABLE_THINK_MS`, whichever ends first (a
        person waits at most a second)."""
        if rollouts is None and think_ms is None:
            return cls(DEFAULT_ROLLOUTS, TABLE_THINK_MS)
        return cls(rollouts, think_ms)

    def to_data(self) -> dict[str, int | None]:
        """As ``results.json`` gives it."""
        return {"rollouts": self.rollouts, "think_ms": self.think_ms}

    def __str__(self) -> str:
        parts = []
        if self.rollouts is not None:
            parts.append(f"{self.rollouts} rollouts")
        if self.think_ms is not None:
            parts.append(f"{self.think_ms} ms")
        return " or ".join(parts) + " per decision"


@dataclass(frozen=True)
class OptionScore:
    """One option of a decision: its rollouts and their mean share of the win."""

    option: Action
    rollouts: int
    wins: float

    @property
    def mean(self) -> float | None:
        return self.wins / self.rollouts if self.rollouts else None


@dataclass(frozen=True)
class Decision:
    """What the search saw at one decision: each option's score, the option chosen, how
    many rollouts and how long it took."""

    player: Player
    scores: tuple[OptionScore, ...]
    chosen: Action
    rollouts: int
    seconds: float


#: A cartridge's leaf evaluation: ``player``'s share of the win estimated at this moment of
#: ``game`` (a determinisation), or None while it cannot judge (play on).
Evaluate = Callable[[Game, Player], "float | None"]


def leaf_evaluation(cartridge: Cartridge) -> Evaluate | None:
    """The cartridge's ``evaluate(game, player)`` if it has one (rollouts then stop at the
    first moment it can judge), else None (rollouts play to the end)."""
    found = getattr(cartridge, "evaluate", None)
    return found if callable(found) else None


def rollout_bot_name(cartridge: Cartridge) -> str:
    """The bot the cartridge names for rollouts (``rollout_bot``), else ``random``."""
    name = getattr(cartridge, "rollout_bot", None)
    return name if isinstance(name, str) and name and name != SEARCH else "random"


def _knowledge(game: Game, player: Player) -> str:
    """Everything ``player`` knows of ``game`` now, as one comparable string."""
    prompt = next((p for p in game.prompts() if p.player == player), None)
    asked = None if prompt is None else [prompt.kind, [repr(o) for o in prompt.options], dict(prompt.context)]
    return json.dumps([game.private_view(player), asked], sort_keys=True, default=repr)


def determinise(cartridge: Cartridge, game: Game, player: Player, seed: int) -> Game | None:
    """A game ``player`` cannot tell apart from ``game``, its hidden parts drawn from ``seed``:
    the cartridge's ``redeal(game, seed, keep=player)``; for a cartridge whose redeal does not
    keep what the player knows (checked), :meth:`~bitbox.games.Cartridge.redeal` drawn until the
    player's private view and prompt are the same (None after :data:`MATCH_TRIES` draws)."""
    wanted = _knowledge(game, player)
    kept = redeal_keeping(cartridge, game, seed, player)
    if kept is not None and _knowledge(kept, player) == wanted:
        return kept
    for k in range(MATCH_TRIES):
        other = cartridge.redeal(game, derive("bitbox-search/match", seed, k))
        if _knowledge(other, player) == wanted:
            return other
    return None


def share(game: Game, player: Player) -> float:
    """``player``'s share of the win of a finished game (1/k for each of k winners)."""
    winners = tuple(game.winners)
    return 1 / len(winners) if player in winners else 0.0


def play_out(game: Game, bots: Mapping[Player, Bot], seed: int = 0) -> Game:
    """Play ``game`` to its end with ``bots`` (each sees only its own private view). A prompt
    for someone who is not a player (Last One Alive asks the table who starts) is answered
    at random (seeded by ``seed``)."""
    return play(game, bots, fallback=RandomBot(seed))


def play_to_leaf(game: Game, bots: Mapping[Player, Bot], player: Player, evaluate: "Evaluate",
                 seed: int = 0) -> float:
    """Play ``game`` on with ``bots`` until ``evaluate(game, player)`` gives a value (the
    cartridge's estimate of ``player``'s share of the win at a moment it can judge) or the
    game ends (``player``'s share of the win)."""
    fallback = RandomBot(seed)
    views = {p: LazyView(game, p) for p in game.players}
    while not game.finished:
        value = evaluate(game, player)
        if value is not None:
            return float(value)
        answers: dict[Player, Action] = {}
        for prompt in game.prompts():
            bot = bots.get(prompt.player)
            if bot is None:
                answers[prompt.player] = fallback.choose({}, prompt)
                continue
            view = views[prompt.player]
            view._view = None
            answers[prompt.player] = bot.choose(view, prompt)
        game.apply(answers)
    return share(game, player)


def _paired(a: Sequence[float | None], b: Sequence[float | None]) -> tuple[float, float] | None:
    """The mean of ``a - b`` over the rounds both have a value for, and its standard error
    (None: fewer than two such rounds)."""
    diffs = [x - y for x, y in zip(a, b) if x is not None and y is not None]
    n = len(diffs)
    if n < 2:
        return None
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (var / n) ** 0.5


class SearchBot:
    """Information-set Monte Carlo search (see the module docstring). ``cartridge``: the
    game's; ``seed``: the bot's (each decision's determinisations are drawn from it and the
    decision's number); ``budget``: per decision; ``rollout``: the rollout bot's name (default
    :func:`rollout_bot_name`). :attr:`last` holds the last :class:`Decision`."""

    name = SEARCH

    def __init__(self, cartridge: Cartridge, seed: int | None = None, budget: Budget | None = None,
                 rollout: str | None = None, evaluate: "Evaluate | None | bool" = True) -> None:
        self.cartridge = cartridge
        self.seed = 0 if seed is None else seed
        self.budget = budget or Budget()
        self.rollout = rollout or rollout_bot_name(cartridge)
        if self.rollout == SEARCH:
            raise ValueError("the search bot cannot roll out with itself")
        self._bots: dict[Player, Bot] = {}
        self._decisions = 0
        self._cancel = False
        self.last: Decision | None = None
        if evaluate is True:
            evaluate = leaf_evaluation(cartridge)
        self.evaluate: Evaluate | None = evaluate or None

    def _rollout_bots(self, players: Sequence[Player]) -> dict[Player, Bot]:
        for k, p in enumerate(players):
            if p not in self._bots:
                self._bots[p] = make_bot(self.cartridge, self.rollout, derive("bitbox-search/rollout", self.seed, k))
        return self._bots

    def choose(self, view: Mapping[str, JSON], prompt: Prompt) -> Action:
        if len(prompt.options) == 1:
            return prompt.options[0]
        if not isinstance(view, LazyView):
            raise GameError("the search bot needs the game its view is of (a bitbox.bots.LazyView)")
        return self.decide(cast(Game, view.game), prompt).chosen

    def decide(self, game: Game, prompt: Prompt) -> Decision:
        """Search ``prompt`` (open in ``game``) within the budget. ``game`` is read only through
        :func:`determinise` (what its player knows)."""
        start = time.perf_counter()
        player, options = prompt.player, prompt.options
        decision_seed = derive("bitbox-search/decision", self.seed, self._decisions)
        self._decisions += 1
        bots = self._rollout_bots(game.players)
        budget = self.budget
        deadline = None if budget.think_ms is None else start + budget.think_ms / 1000
        first = determinise(self.cartridge, game, player, derive("bitbox-search/deal", decision_seed, 0))
        # The rollout bot's own answer, from the player's view (the same in every determinisation).
        preferred = options[0] if first is None else bots[player].choose(LazyView(first, player), prompt)
        candidates = self._candidates(options, preferred, decision_seed)
        results: list[list[float | None]] = [[] for _ in candidates]
        live = list(range(len(candidates)))
        done = round_ = 0
        while len(live) > 1:
            if budget.rollouts is not None and done + len(live) > budget.rollouts and round_ > 0:
                break
            if deadline is not None and round_ > 0 and time.perf_counter() >= deadline:
                break
            if self._cancelled():
                break
            dseed = derive("bitbox-search/deal", decision_seed, round_)
            det = first if round_ == 0 else determinise(self.cartridge, game, player, dseed)
            for j in live:
                # every option on a copy of the same determinisation (common random numbers)
                twin = None if det is None else self.cartridge.from_data(det.to_data())
                results[j].append(None if twin is None else self._rollout(twin, player, candidates[j], bots, dseed))
                done += 1
            round_ += 1
            if round_ >= MIN_ROUNDS:
                live = self._survivors(live, results)
        scores = tuple(OptionScore(o, sum(r is not None for r in rs), sum(r for r in rs if r is not None))
                       for o, rs in zip(candidates, results))
        chosen = self._pick(candidates, results, scores, live)
        self.last = Decision(player, scores, candidates[chosen], done, time.perf_counter() - start)
        return self.last

    def _cancelled(self) -> bool:
        """Whether the table asked the search to stop (:meth:`cancel`): it then plays the best
        it has."""
        return self._cancel

    def cancel(self) -> None:
        """Stop the search under way as soon as its rollout ends (the table closes)."""
        self._cancel = True

    def reseed(self, seed: int) -> None:
        """Decide from ``seed`` from now on (the table seeds each decision from the game's seed
        and the moment, so a resumed game decides as the original did)."""
        self.seed, self._decisions, self._cancel = seed, 0, False
        self._bots = {}                            # the rollout bots too: nothing carried from before

    @staticmethod
    def _survivors(live: Sequence[int], results: Sequence[Sequence[float | None]]) -> list[int]:
        """The options still searched: an option is dropped when the leader (the best mean;
        the rollout bot's answer first among equals) beats it by more than :data:`Z_DROP`
        standard errors of their paired difference, or when every rollout so far came out the
        same for both (they play alike: the one that is not the rollout bot's answer goes)."""
        def mean(j: int) -> float:
            vals = [v for v in results[j] if v is not None]
            return sum(vals) / len(vals) if vals else -1.0
        leader = max(live, key=lambda j: (mean(j), -j))
        keep = [leader]
        for j in live:
            if j == leader:
                continue
            diff = _paired(results[leader], results[j])
            if diff is None:
                keep.append(j)
                continue
            m, se = diff
            if se == 0.0 and m == 0.0:
                if j == 0:                      # the rollout bot's answer stays, the leader goes
                    keep[0] = j
                continue
            if m > Z_DROP * se:
                continue
            keep.append(j)
        return sorted(keep)

    def _candidates(self, options: Sequence[Action], preferred: Action, seed: int) -> list[Action]:
        """The options searched: every one when the budget allows :data:`MIN_PER_OPTION`
        rollouts each, else the rollout bot's answer and others drawn at random (seeded)."""
        most = max(2, (self.budget.rollouts or MAX_CANDIDATES * MIN_PER_OPTION) // MIN_PER_OPTION)
        others = [o for o in options if o != preferred]
        if len(others) >= most:
            others = random.Random(seed).sample(others, most - 1)
        return [preferred, *others]

    @staticmethod
    def _pick(candidates: Sequence[Action], results: Sequence[Sequence[float | None]],
              scores: Sequence[OptionScore], live: Sequence[int] | None = None) -> int:
        """The candidate still searched with the best mean, unless it beats the rollout bot's
        answer (the first) by no more than :data:`Z_SWITCH` standard errors of their
        difference over the same deals: noise does not make the bot leave a good heuristic's
        answer."""
        def key(j: int) -> tuple[float, int, int]:
            mean = scores[j].mean
            return (-1.0 if mean is None else mean, scores[j].rollouts, -j)
        best = max(live if live else range(len(candidates)), key=key)
        if best == 0:
            return 0
        diff = _paired(results[best], results[0])
        if diff is None:
            return 0
        mean, se = diff
        return best if mean > Z_SWITCH * se and mean > 0 else 0

    def _rollout(self, game: Game, player: Player, option: Action, bots: Mapping[Player, Bot],
                 seed: int = 0) -> float | None:
        """Apply ``option`` for ``player`` (the others open now answer with their rollout bot)
        and play to the end: ``player``'s share of the win (None: the option is not legal in
        this determinisation)."""
        answers: dict[Player, Action] = {}
        for prompt in game.prompts():
            if prompt.player == player:
                if option not in prompt.options:
                    return None
                answers[player] = option
            elif prompt.player in bots:
                answers[prompt.player] = bots[prompt.player].choose(LazyView(game, prompt.player), prompt)
            else:                       # not a player's question (who starts): at random
                answers[prompt.player] = RandomBot(seed).choose({}, prompt)
        if player not in answers:
            return None
        game.apply(answers)
        if self.evaluate is None:
            return share(play_out(game, bots, seed), player)
        return play_to_leaf(game, bots, player, self.evaluate, seed)


__all__ = ["DEFAULT_ROLLOUTS", "MAX_THINK_MS", "SEARCH", "TABLE_THINK_MS", "Budget", "Decision", "Evaluate", "OptionScore", "SearchBot",
           "determinise", "leaf_evaluation", "play_out", "play_to_leaf", "rollout_bot_name", "share"]

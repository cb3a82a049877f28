"""One game played through fixed action ids: the part both environments share.

:class:`Table` holds a game of any cartridge and answers its prompts from action ids (see
:mod:`bitbox.research.encoding` for the ids). It keeps the answers of a simultaneous phase
until every one is in and applies them in one call, as the table does: an answer waiting
to be applied is in no observation (not even its own player's; the player's selection in
progress is, in their observation only). Prompts with a single option, and prompts a game
marks ``auto`` (``context["auto"]``: nothing to decide), are answered with their first
option without asking, as a host may.

Legality has one source, the prompt's options: the mask of an agent is computed from them
and the selection in progress, and an id outside the mask is refused with one line (the
game is not touched, the agent still has to answer).
"""
from __future__ import annotations

import functools
import operator
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import numpy as np

from ..games import Cartridge, GameError, find, names
from ..games.protocol import Action, Game, Player, Prompt, check_options, check_players
from ..safetext import printable
from .encoding import CONFIRM, NOOP, RESERVED, Encoding, SplitEncoding

GROUP = "bitbox.research"


def research_entry_points() -> dict[str, Any]:
    """The research encodings by game name: the entry points ``bitbox.research``, then, for a
    game being written (on the shelf through ``BITBOX_GAMES``), those the environment variable
    ``BITBOX_RESEARCH`` names the same way (``name=module:attribute,...``)."""
    from ..games.registry import _entry_points
    return _entry_points(GROUP, "BITBOX_RESEARCH")


def _why(exc: BaseException) -> str:
    """``exc`` in one line: its type, then its text when it has one."""
    text = printable(exc, 200)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@functools.lru_cache(maxsize=None)
def find_encoding(game: str) -> Encoding:
    """The encoding the game ``game`` declares in the entry points ``bitbox.research`` (loaded
    once: an encoding is fixed)."""
    for ep in research_entry_points().values():
        if ep.name == game:
            # a broken entry point must not take the caller down, nor exit its program (SystemExit)
            try:
                obj = ep.load()
            except (Exception, SystemExit) as exc:                     # noqa: BLE001 - named below
                raise GameError(f"the research encoding of {game} cannot be loaded: {_why(exc)}") from None
            try:
                enc = obj() if callable(obj) and not isinstance(obj, Encoding) else obj
            except (Exception, SystemExit) as exc:                     # noqa: BLE001 - named below
                raise GameError(f"the research encoding of {game} cannot be made: {_why(exc)}") from None
            if not isinstance(enc, Encoding):
                raise GameError(f"the research encoding of {game} is not an Encoding: {type(enc).__name__}")
            return enc
    known = sorted(set(research_entry_points()) & set(names()))
    raise GameError(f"{game} has no research environment (games with one: {', '.join(known) or 'none'})")


class Table:
    """A game of ``cartridge`` answered by action ids; :meth:`new_game` starts one."""

    def __init__(self, cartridge: Cartridge, encoding: Encoding, players: Sequence[Player],
                 options: Mapping[str, Any] | None = None) -> None:
        self.cartridge = cartridge
        self.encoding = encoding
        self.players = check_players(cartridge, players)
        self.options = check_options(cartridge, {} if options is None else options)   # a new dict
        self.n_actions = RESERVED + encoding.size
        self.game: Game | None = None
        self.pending: dict[Player, Action] = {}       # answers waiting for the rest of the phase
        self.staged: dict[Player, Counter[int]] = {}   # selections in progress
        self.acting: dict[Player, Prompt] = {}         # the prompts answered now
        # each acting player's prompt: its options with their ids, and its shape (see _entry)
        self._choices: dict[Player, tuple[list[tuple[tuple[int, ...], Action]], dict[Any, Any]]] = {}
        # (kind, the options' identities) -> (the options, the options with their ids, the
        # shape's dict); the same by (kind, the options)
        self._listed: dict[tuple[str, tuple[int, ...]],
                           tuple[Sequence[Action], list[tuple[tuple[int, ...], Action]], dict[Any, Any]]] = {}
        self._by_value: dict[tuple[str, tuple[Action, ...]],
                             tuple[Sequence[Action], list[tuple[tuple[int, ...], Action]], dict[Any, Any]]] = {}
        self._ids_of: dict[int, tuple[Action, str, tuple[int, ...]]] = {}     # id(option) -> (it, kind, ids)
        self._worked: dict[tuple[tuple[int, ...], ...], dict[Any, Any]] = {}   # by shape, for every prompt
        self._nodes: dict[Player, dict[tuple[int, ...], tuple[np.ndarray, Action | None, bool, tuple[int, ...]]]] = {}
        self._current: dict[Player, tuple[np.ndarray, Action | None, bool, tuple[int, ...]]] = {}   # each one's node now
        self._ids: dict[tuple[str, Action], tuple[int, ...]] = {}   # (prompt kind, option) -> its ids
        # id(prompt) -> [the prompt, the node of an empty selection, its options with their ids,
        # its singles (or None until asked)]: a game that hands out the same prompt objects
        # again (Outspeed's shelf) has them found by one lookup (the entry keeps the prompt)
        self._by_prompt: dict[int, list[Any]] = {}
        self._idle = np.zeros(self.n_actions, dtype=np.int8)     # a player with no prompt open
        self._idle[NOOP] = 1
        self.applied = 0                               # game.apply calls
        # the encoding's private entries (SplitEncoding.private_entries), when it gives them
        self._entries = encoding.private_entries if isinstance(encoding, SplitEncoding) and \
            type(encoding).private_entries is not SplitEncoding.private_entries else None
        self._private: dict[tuple[tuple[int, float], ...], np.ndarray] = {}   # entries -> delta
        # each player's (public part, prompt, delta) when last observed with no selection: the
        # same public part (the game unchanged) and prompt give the same entries
        self._mine: dict[Player, tuple[np.ndarray, Prompt | None, np.ndarray]] = {}
        # the encoding's parts read from the game itself (SplitEncoding's optional hooks
        # public_part_of and private_entries_of, when its class gives its own): no view is
        # built for an observation when it gives both
        self._public_of = _given(encoding, "public_part_of")
        self._entries_of = _given(encoding, "private_entries_of") if self._entries is not None else None
        self.log: list[Any] | None = None              # a list: every event applied is appended (OpenSpiel)
        # (game, applied, private views, [encoded public part]) of the last observation
        self._seen: tuple[Game, int, dict[Player, Mapping[str, Any]], list[np.ndarray]] | None = None
        # (game, applied, the game's prompts) at the last _advance that found someone to ask
        self._asked: tuple[Game, int, Sequence[Prompt]] | None = None

    @classmethod
    def of(cls, game: str, players: int | Sequence[Player], options: Mapping[str, Any] | None = None) -> "Table":
        """A table of the game called ``game``: ``players`` is a number of players (a Python or
        numpy integer, not a bool: the seat names are given) or a sequence of names."""
        cartridge = find(game)
        if isinstance(players, (bool, np.bool_)):
            raise GameError(f"the players are a number of players or a list of names, not {players!r}")
        if not isinstance(players, (str, bytes, Iterable)) or isinstance(players, np.ndarray) and players.ndim == 0:
            try:
                count = operator.index(players)        # an int, a numpy integer, a 0-d integer array
            except TypeError:
                raise GameError("the players are a number of players or a list of names, "
                                f"not {printable(repr(players), 60)}") from None
            lo, hi = cartridge.min_players, cartridge.max_players
            if not lo <= count <= hi:                  # before a name per seat (10**30 seats)
                raise GameError(f"{cartridge.title} is for {lo} to {hi} players, not {printable(str(count), 60)}")
            from ..games.conformance import player_names
            players = player_names(cartridge, count)
        return cls(cartridge, find_encoding(game), players, options)

    # ------------------------------------------------------------------ copies
    def __deepcopy__(self, memo: dict) -> "Table":
        """An independent copy (its game through the protocol: ``from_data(to_data())``);
        the cartridge, the encoding and what is derived from the prompts are shared."""
        other = object.__new__(Table)
        other.__dict__.update(self.__dict__)
        if self.game is not None:
            other.game = self.cartridge.from_data(self.game.to_data())
        other.pending = dict(self.pending)
        other.staged = {p: Counter(c) for p, c in self.staged.items()}
        other.acting = dict(self.acting)
        other._choices, other._nodes, other._current = dict(self._choices), dict(self._nodes), dict(self._current)
        other._mine = {}
        other.log = None if self.log is None else list(self.log)
        return other

    def __getstate__(self) -> dict[str, Any]:
        """As data (pickle): the game by its cartridge's name, its state through the
        protocol (``to_data``), the answers waiting as the cartridge's data."""
        c = self.cartridge
        return {"game": c.name, "players": list(self.players), "options": self.options,
                "data": None if self.game is None else self.game.to_data(),
                "pending": {p: c.action_to_data(a) for p, a in self.pending.items()},
                "staged": {p: sorted(sel.elements()) for p, sel in self.staged.items()},
                "applied": self.applied, "log": self.log is not None}

    def __setstate__(self, data: dict[str, Any]) -> None:
        fresh = Table.of(data["game"], data["players"], data["options"])
        self.__dict__.update(fresh.__dict__)
        self.log = [] if data["log"] else None
        if data["data"] is not None:
            self.game = self.cartridge.from_data(data["data"])
            self.pending = {p: self.cartridge.action_from_data(a) for p, a in data["pending"].items()}
            self.staged = {p: Counter(ids) for p, ids in data["staged"].items()}
            self.applied = data["applied"]
            self._advance()

    # ------------------------------------------------------------------ the game
    def new_game(self, seed: int) -> None:
        self.game = self.cartridge.new(self.players, seed, self.options)
        self.pending, self.staged = {}, {}
        if self.log is not None:
            self.log = []
        self.applied = 0
        self._advance()

    @property
    def finished(self) -> bool:
        return self.game is not None and self.game.finished

    def _advance(self) -> None:
        """Answer what needs no one, apply complete phases, and find who acts now."""
        game = self.game
        assert game is not None
        self._choices, self._nodes, self._current = {}, {}, {}
        pending = self.pending
        # The prompts asked at the last call, when no phase was applied since: the game has
        # not changed (only answers were taken), so they are the game's prompts still.
        asked = self._asked
        prompts = asked[2] if asked is not None and asked[0] is game and asked[1] == self.applied else None
        while not game.finished:
            if prompts is None:
                prompts = game.prompts()
                if not prompts:
                    raise GameError("the game is not finished but asks nobody anything")
            open_ = []
            for p in prompts:
                if p.player not in pending:
                    if len(p.options) == 1 or p.context.get("auto") is True:
                        pending[p.player] = p.options[0]
                    else:
                        open_.append(p)
            if open_:
                self._asked = (game, self.applied, prompts)
                self.acting = {p.player: p for p in self.encoding.acting(game, open_)}
                return
            answers, self.pending = pending, {}
            pending = self.pending
            prompts = None
            events = game.apply(answers)
            if self.log is not None:
                self.log.extend(events)
            self.applied += 1
        self.acting = {}

    def rewards(self) -> dict[Player, float]:
        """Each player's share of the win once the game is over (1/k to each of k winners)."""
        game = self.game
        if game is None or not game.finished:
            return {p: 0.0 for p in self.players}
        winners = set(game.winners)
        return {p: (1.0 / len(winners) if p in winners else 0.0) for p in self.players}

    # ------------------------------------------------------------------ masks
    # An option is the sorted tuple of its ids (a multiset); a selection in progress is
    # looked up by its sorted tuple too. What a selection allows (its mask, the option it is
    # whole, whether a longer option contains it) depends only on the options' ids in order
    # (the prompt's *shape*): it is worked out once per shape and selection, by the option's
    # place, and shared by every prompt of that shape (a game asks the same shapes again and
    # again: Last One Alive's dice for the same dice available, Outspeed's programs on a face).
    # A prompt's options are found by their kind and the identities of the option objects
    # (games hand out the same objects again: Outspeed's prompts, Last One Alive's answers):
    # the entry keeps the options, so no identity in its key can be another object's.
    def _entry(self, player: Player) -> tuple[list[tuple[tuple[int, ...], Action]], dict[Any, Any]]:
        """``player``'s prompt's options with their ids, and what is worked out for its shape
        (``"singles"`` and each selection's node, by the options' places)."""
        got = self._choices.get(player)
        if got is None:
            prompt = self.acting[player]
            kind, options = prompt.kind, prompt.options
            key = (kind, tuple(map(id, options)))
            hit = self._listed.get(key)
            if hit is None:
                hit = self._listed[key] = self._list(prompt)
            got = self._choices[player] = (hit[1], hit[2])
        return got

    def _list(self, prompt: Prompt) -> tuple[Sequence[Action], list[tuple[tuple[int, ...], Action]], dict[Any, Any]]:
        """(the options, the options with their ids, the shape's dict) of a prompt not seen
        with these option objects."""
        kind, options = prompt.kind, prompt.options
        known, ids, by_object = self._ids, self.encoding.ids, self._ids_of
        choices = []
        for o in options:
            seen = by_object.get(id(o))              # the same option object again (shared
            if seen is not None and seen[0] is o and seen[1] == kind:     # values): no hashing
                choices.append((seen[2], o))
                continue
            if not choices:
                # A new object first: maybe the same options by value as a prompt seen
                # before (a new game's: Outspeed's programs), found by one hash of them.
                same = self._by_value.get((kind, tuple(options)))
                if same is not None:
                    return options, [(k, o) for (k, _), o in zip(same[1], options)], same[2]
            k = known.get((kind, o))
            if k is None:
                k = known[(kind, o)] = tuple(sorted(ids(prompt, o)))
            if len(by_object) > 8192:
                by_object.clear()
            by_object[id(o)] = (o, kind, k)
            choices.append((k, o))
        shape = tuple(k for k, _ in choices)
        worked = self._worked.get(shape)
        if worked is None:
            if len(self._worked) > 4096:                # shapes are few; a bound all the same
                self._worked.clear()
            worked = self._worked[shape] = {}
        if len(self._listed) > 4096:
            self._listed.clear()
            self._by_value.clear()
        listed = self._by_value[(kind, tuple(options))] = (options, choices, worked)
        return listed

    def _options(self, player: Player) -> list[tuple[tuple[int, ...], Action]]:
        return self._entry(player)[0]

    def _single(self, player: Player) -> dict[int, int]:
        """The ids that are a whole answer by themselves and part of no longer answer, with
        the place of that answer among the options."""
        options, shape = self._entry(player)
        places = shape.get("singles")
        if places is None:
            in_longer = {k for ids, _ in options if len(ids) > 1 for k in ids}
            places = {}
            for i, (ids, _) in enumerate(options):
                if len(ids) == 1:
                    k = ids[0]
                    if k not in in_longer and k not in places:
                        places[k] = i
            shape["singles"] = places
        return places

    def _node(self, player: Player) -> tuple[np.ndarray, Action | None, bool, tuple[int, ...]]:
        """For ``player``'s selection now: its mask, the option it is (or None), whether a
        longer option contains it, and the ids the mask allows (in increasing order). Kept
        for each player until their selection or prompt changes."""
        node = self._current.get(player)
        if node is not None:
            return node
        sel = self.staged.get(player)
        if not sel:                                  # the usual case: nothing chosen yet
            prompt = self.acting[player]
            hit = self._by_prompt.get(id(prompt))
            if hit is None or hit[0] is not prompt:
                hit = self._first(player, prompt)
            return hit[1]
        key = tuple(sorted(sel.elements()))
        nodes = self._nodes.get(player)
        if nodes is None:
            nodes = self._nodes[player] = {}
        node = nodes.get(key)
        if node is None:
            options, shape = self._entry(player)
            worked = shape.get(key)
            if worked is None:
                worked = shape[key] = self._work_out(options, key)
            mask, place, longer, legal = worked
            node = nodes[key] = (mask, None if place is None else _NONE if place < 0 else options[place][1], longer,
                                 legal)
        self._current[player] = node
        return node

    def _first(self, player: Player, prompt: Prompt) -> list[Any]:
        """``_by_prompt``'s entry of ``player``'s prompt (made now)."""
        options, shape = self._entry(player)
        worked = shape.get(())
        if worked is None:
            worked = shape[()] = self._work_out(options, ())
        mask, _, longer, legal = worked
        if len(self._by_prompt) > 4096:                # a bound (Outspeed's prompts are few)
            self._by_prompt.clear()
        hit = self._by_prompt[id(prompt)] = [prompt, (mask, None, longer, legal), options, None]
        return hit

    def _work_out(self, options: list[tuple[tuple[int, ...], Action]],
                  key: tuple[int, ...]) -> tuple[np.ndarray, int | None, bool, tuple[int, ...]]:
        """The mask of selection ``key``, the place of the option it is (-1: none; None for no
        selection), whether a longer option contains it, and the ids the mask allows. The mask
        is shared: never changed."""
        out = np.zeros(self.n_actions, dtype=np.int8)
        if not key:                                 # nothing chosen yet: every part of every option
            out[[k for ids, _ in options for k in ids]] = 1
            return out, None, True, tuple(np.flatnonzero(out).tolist())
        whole = -1
        longer = False
        n = len(key)
        for i, (ids, _) in enumerate(options):
            if len(ids) < n:
                continue
            rest = _rest(ids, key)
            if rest is None:                        # the selection is not part of this option
                continue
            if rest:
                longer = True
                out[list(rest)] = 1
            elif whole < 0:
                whole = i
                out[CONFIRM] = 1
        return out, whole, longer, tuple(np.flatnonzero(out).tolist())

    def mask(self, player: Player) -> np.ndarray:
        """1 for each id legal for ``player`` now (only no-op without a prompt open)."""
        prompt = self.acting.get(player)
        if prompt is None:
            return self._idle.copy()
        if player not in self.staged:                  # _node's usual case, without its call
            hit = self._by_prompt.get(id(prompt))
            if hit is not None and hit[0] is prompt:
                return hit[1][0].copy()
        return self._node(player)[0].copy()

    def legal(self, player: Player) -> tuple[int, ...]:
        """The ids :meth:`mask` allows for ``player`` now, in increasing order (a tuple made
        once per prompt shape and selection, shared)."""
        prompt = self.acting.get(player)
        if prompt is None:
            return _IDLE
        if player not in self.staged:                  # _node's usual case, without its call
            hit = self._by_prompt.get(id(prompt))
            if hit is not None and hit[0] is prompt:
                return hit[1][3]
        return self._node(player)[3]

    def selection(self, player: Player) -> Counter[int]:
        return self.staged.get(player, Counter())

    # ------------------------------------------------------------------ answers
    def act(self, player: Player, action: int) -> str | None:
        """Take ``player``'s id; None when taken, else the line saying why it is refused (the
        game is unchanged). Completes the player's answer when the selection is one."""
        if player not in self.players:
            return f"unknown agent {player!r}"
        if player not in self.acting:
            return None if action == NOOP else f"{player} has no prompt open now: only no-op (0) is legal, not {action}"
        prompt = self.acting[player]
        hit = self._by_prompt.get(id(prompt)) if player not in self.staged else None
        node = hit[1] if hit is not None and hit[0] is prompt else self._node(player)   # (_node's usual case)
        if not 0 <= action < self.n_actions or not node[0][action]:
            return f"{player}: {self.describe(action)} is not legal now (prompt {prompt.kind!r}; see the action mask)"
        if player not in self.staged:              # the usual case: a whole answer in one id
            hit = self._by_prompt.get(id(prompt))
            if hit is None or hit[0] is not prompt:
                hit = self._first(player, prompt)
            places = hit[3]
            if places is None:
                places = hit[3] = self._single(player)
            place = places.get(action)
            if place is not None:
                self.pending[player] = hit[2][place][1]
                del self.acting[player]
                return None
        if action == CONFIRM:                      # the selection is whole: confirmed as it is
            self.pending[player] = node[1]
            del self.staged[player]
            del self.acting[player]
            return None
        self.staged.setdefault(player, Counter())[action] += 1
        self._current.pop(player, None)            # the selection changed (an empty one has no entry)
        _, whole, longer, _ = self._node(player)
        if whole is not _NONE and not longer:
            self.pending[player] = whole
            del self.staged[player]
            del self.acting[player]
        return None

    def settle(self) -> None:
        """Move on once every acting player has answered (applying a complete phase)."""
        if not self.acting and self.game is not None:
            self._advance()

    def describe(self, action: int) -> str:
        if action == NOOP:
            return "no-op (0)"
        if action == CONFIRM:
            return "confirm (1)"
        if RESERVED <= action < self.n_actions:
            return f"{self.encoding.names[action - RESERVED]} ({action})"
        return f"action {action} (out of range 0..{self.n_actions - 1})"

    def next_agent(self) -> Player | None:
        """The first acting player in seat order (turn by turn, for the AEC environment)."""
        for p in self.players:
            if p in self.acting:
                return p
        return None

    # ------------------------------------------------------------------ what a player sees
    def features(self, player: Player) -> np.ndarray:
        """``player``'s observation vector: their private view encoded, then their selection."""
        return self.features_of((player,))[player]

    def features_of(self, players: Sequence[Player]) -> dict[Player, np.ndarray]:
        """:meth:`features` of several players at this moment: their private views made from
        one public view (when the game gives ``private_views``) and encoded together (the
        public part once, when the encoding is a :class:`SplitEncoding`); when the encoding
        gives the optional hooks ``public_part_of`` and ``private_entries_of``, the same
        vectors written from the game, no view made."""
        game = self.game
        assert game is not None
        enc = self.encoding
        size = enc.observation_size
        # The game changes only when a phase is applied: until the next apply (a step that
        # only adds to a selection, or hands in an answer the phase keeps unseen) the views
        # and the encoded public part are the same, and are taken again.
        seen = self._seen
        if seen is None or seen[0] is not game or seen[1] != self.applied:
            seen = self._seen = (game, self.applied, {}, [])
        views: dict[Player, Mapping[str, Any]] = seen[2]
        public_of, entries_of = self._public_of, self._entries_of
        if public_of is not None and entries_of is not None and players:
            return self._from_game(game, players, seen[3])
        wanted = [p for p in players if p not in views]
        if wanted:
            many = getattr(game, "private_views", None)
            views.update(many(wanted) if many is not None else {p: game.private_view(p) for p in wanted})
        out: dict[Player, np.ndarray] = {}
        if self._entries is not None and players:
            if not seen[3]:
                base = np.zeros(size + self.n_actions, dtype=np.float32)
                if public_of is not None:               # from the game itself: no view built
                    public_of(game, base)
                else:
                    cast(SplitEncoding, enc).public_part(views[players[0]], base)   # the private parts: small counts
                seen[3].append(base)
            return self._with_private(seen[3][0], players, self._entries, views)
        if isinstance(enc, SplitEncoding) and players:
            if not seen[3]:
                base = np.zeros(size + self.n_actions, dtype=np.float32)
                enc.public_part(views[players[0]], base)     # the private parts are small counts and flags
                seen[3].append(base)
            base = seen[3][0]
            for p in players:
                vec = out[p] = base.copy()
                enc.private_part(vec, views[p], p, self.acting.get(p))
        else:
            for p in players:
                vec = out[p] = np.zeros(size + self.n_actions, dtype=np.float32)
                vec[:size] = np.asarray(enc.observe(views[p], p, self.acting.get(p)), dtype=np.float32)
        for p in players:
            sel = self.staged.get(p)
            if sel:
                vec = out[p]
                for k, n in sel.items():
                    vec[size + k] = n
        return out

    def _from_game(self, game: Game, players: Sequence[Player], public: list[np.ndarray]) -> dict[Player, np.ndarray]:
        """:meth:`features_of` by the encoding's hooks ``public_part_of`` and
        ``private_entries_of``: the same vectors, written from the game without its views."""
        if not public:
            base = np.zeros(self.encoding.observation_size + self.n_actions, dtype=np.float32)
            self._public_of(game, base)
            public.append(base)
        return self._with_private(public[0], players, self._entries_of, None, game)

    def _with_private(self, base: np.ndarray, players: Sequence[Player], entries: Any,
                      views: Mapping[Player, Mapping[str, Any]] | None, game: Game | None = None
                      ) -> dict[Player, np.ndarray]:
        """Each player's observation: the public part ``base`` plus the player's private entries
        (``entries(views[p], p, prompt)``, or ``entries(game, p, prompt)`` without views) and
        selection, as a delta added by one numpy call (a new array: the player's own). The
        deltas are made once per distinct entries (few: a seat, a few tokens, the prompt's
        kind, a selection)."""
        size = self.encoding.observation_size
        acting, staged, known, mine = self.acting, self.staged, self._private, self._mine
        out: dict[Player, np.ndarray] = {}
        for p in players:
            prompt = acting.get(p)
            sel = staged.get(p)
            if not sel:
                last = mine.get(p)
                if last is not None and last[0] is base and last[1] is prompt:
                    out[p] = base + last[2]
                    continue
            got = entries(game if views is None else views[p], p, prompt)
            if sel:
                got = dict(got)
                for k, n in sel.items():
                    got[size + k] = got.get(size + k, 0) + n
            key = tuple(got.items())
            delta = known.get(key)
            if delta is None:
                if len(known) > 1024:                  # a bound (a delta is a whole vector)
                    known.clear()
                delta = np.zeros(len(base), dtype=np.float32)
                for i, v in key:
                    delta[i] += v
                delta.flags.writeable = False          # shared by every observation with these entries
                known[key] = delta
            if not sel:
                mine[p] = (base, prompt, delta)
            out[p] = base + delta
        return out

    def observation(self, player: Player) -> dict[str, np.ndarray]:
        return {"observation": self.features(player), "action_mask": self.mask(player)}

    def state(self) -> np.ndarray:
        """The public state (the environments' ``state()``): the encoding's vector of the
        public view, for no player; nothing hidden is in it."""
        game = self.game
        assert game is not None
        view = game.public_view()
        state = getattr(self.encoding, "state", None)
        vec = state(view) if callable(state) else self.encoding.observe(view, "", None)
        return np.asarray(vec, dtype=np.float32)

    def prompt(self, player: Player) -> Prompt | None:
        """The prompt ``player`` answers now (private to that player), if any."""
        return self.acting.get(player)

    def ids_to(self, player: Player, answer: Action) -> list[int]:
        """The ids still to send for ``player`` to give ``answer`` (a member of their
        prompt's options), ending with confirm when the answer needs it."""
        prompt = self.acting[player]
        want = tuple(sorted(self.encoding.ids(prompt, answer)))
        rest = _rest(want, tuple(sorted(self.selection(player).elements())))
        if rest is None:
            raise GameError(f"{player}'s selection so far is not part of {answer!r}")
        longer = any(len(ids) > len(want) and _rest(ids, want) is not None for ids, _ in self._options(player))
        return list(rest) + ([CONFIRM] if longer else [])


def _given(encoding: Encoding, name: str) -> Any:
    """``encoding``'s method ``name`` when its class gives its own (an optional hook of
    :class:`SplitEncoding` that it overrides), else None."""
    if not isinstance(encoding, SplitEncoding) or getattr(type(encoding), name, None) is getattr(SplitEncoding, name):
        return None
    return getattr(encoding, name)


_IDLE = (NOOP,)            # the ids of a player with no prompt open
_NONE: Any = object()        # "no option": an option may itself be None (Outspeed's "no bonus token")


def _rest(ids: tuple[int, ...], part: tuple[int, ...]) -> tuple[int, ...] | None:
    """``ids`` without ``part`` (both sorted multisets), or None when ``part`` is not in ``ids``."""
    if not part:
        return ids
    rest = []
    i, n = 0, len(part)
    for x in ids:
        if i < n and x == part[i]:
            i += 1
        elif i < n and x > part[i]:
            return None
        else:
            rest.append(x)
    return tuple(rest) if i == n else None


def random_seed() -> int:
    return random.SystemRandom().getrandbits(63)


__all__ = ["GROUP", "Table", "find_encoding", "random_seed"]

"""Property tests over random games of Last One Alive (2-5 players, every variant mix):
the 19 dice and every token always accounted for, the level falls only by the day token,
legality and refusals from one source, one winner (or a shared Survivors victory), every
game ends, determinism byte for byte, JSON round trip mid-game, nothing hidden in the
public view."""
from __future__ import annotations

import copy
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lastonealive.bots import RandomBot, play_game
from lastonealive.rules import OBJECTS, TYPES, VARIANTS, Action, Game, Refused, RulesError

NAMES = ("red", "blue", "green", "yellow", "purple")
games = st.tuples(st.integers(0, 2**32 - 1), st.integers(2, 5), st.sets(st.sampled_from(VARIANTS)),
                  st.sampled_from(["each", "first"]))
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_game(seed: int, players: int, variants, first_zombie="each") -> Game:
    return Game.new(NAMES[:players], seed=seed, variants=sorted(variants), first_zombie=first_zombie,
                    first=NAMES[seed % players])


class CarefulBot(RandomBot):
    """Shoots with every bang, gives with every barricade, draws every token, otherwise
    random: longer games that reach the empty bag, level 4 and the keep prompt."""

    def decide(self, game: Game, prompt):
        acts = prompt.legal.actions
        if prompt.kind == "shoot" and len(acts) > 1:
            return max(acts[1:], key=lambda a: a.arg[1])
        if prompt.kind == "give" and len(acts) > 1:
            return acts[1]
        if prompt.kind in ("draw", "draw_barricades"):
            return max(acts, key=lambda a: a.arg)
        if prompt.kind == "dice" and not prompt.legal.actions:
            options = list(prompt.legal)
            fewest = min(a.arg[0] for a in options)
            options = [a for a in options if a.arg[0] == fewest]
            most = max(a.arg[1] for a in options)
            return self.rng.choice([a for a in options if a.arg[1] == most])
        return super().decide(game, prompt)


def bots(game: Game, seed: int) -> dict:
    kind = CarefulBot if seed % 2 else RandomBot
    return {p: kind(seed * 7 + i) for i, p in enumerate(game.state.players)}


def initial_tokens(game: Game) -> Counter:
    c = Counter({t: 3 for t in OBJECTS})
    c["apocalypse"] = 3
    if "day_night" in game.state.variants:
        c["night"] = 1
    return c


def check_invariants(game: Game) -> None:
    s = game.state
    dice = Counter(dict(s.pool))
    for p in s.players:
        dice.update(d.type for d in s.front[p])
    dice.update(d.type for d in s.tray)
    assert dice == Counter(s.counts), f"dice not accounted for: {dict(dice)}"
    assert all(s.pool[t] >= 0 for t in TYPES)
    tokens = Counter(s.bag) + Counter(s.aside) + Counter(s.removed)
    for p in s.players:
        tokens.update(h[1] for h in s.held[p])
    if s.setup_token is not None:
        tokens[s.setup_token] += 1
    tokens.pop("day", None)                       # enters the game only when the night is drawn
    assert tokens == initial_tokens(game), f"tokens not accounted for: {dict(tokens)}"
    for p in s.eliminated:
        assert not s.held[p] and not s.front[p] and not s.hero[p]
    if s.phase in ("before", "dice"):
        assert all(len(s.held[p]) <= 3 for p in s.players)
    if s.finished:
        alive = game.in_game()
        assert s.winners and set(s.winners) <= set(alive)
        if "survivors" not in s.variants:
            assert len(s.winners) == 1 and alive == s.winners
    else:
        assert len(game.in_game()) >= 2


def checked_play(seed: int, players: int, variants, first_zombie="each", probe: bool = True):
    game = new_game(seed, players, variants, first_zombie)
    bs = bots(game, seed)
    rng = random.Random(seed)
    log = []
    steps = 0
    check_invariants(game)
    while not game.finished:
        pr = game.prompt()
        action = pr.default if pr.auto else bs[pr.player].decide(game, pr)
        assert action in pr.legal and game.refusal(action) is None
        if probe and rng.random() < 0.3:
            probe_refusals(game, rng)
        level = game.state.level
        events = game.apply(action)
        log.append([action.to_data(), [e.to_data() for e in events]])
        if game.state.level < level:
            assert any(e.kind == "day" for e in events), "the level fell without the day token"
        check_invariants(game)
        steps += 1
        assert steps < 5000, "the game does not end"
    return game, log


def mutations(game: Game, rng: random.Random) -> list[Action]:
    """Plausible answers, legal or not, for the current prompt."""
    s = game.state
    ids = [d.id for d in s.front[s.active]] + [d.id for d in s.tray] + ["f9", "z9", "s1", "b1", "o1", "z1"]
    out = [Action("use", t, rng.choice(ids)) for t in ("barricade", "pistol", "axe", "chainsaw", "medkit")]
    out += [Action("use", t) for t in ("axe", "pistol", "chainsaw", "radio")]
    out += [Action("use", "hero", tuple(rng.sample(ids, rng.randint(0, 3)))),
            Action("use", "flare", tuple(rng.sample(ids, rng.randint(0, 3)))),
            Action("use", "radio", tuple(sorted(rng.choices(TYPES, k=rng.randint(1, 3)), key=TYPES.index))),
            Action("pass")]
    kind = s.phase
    if kind == "dice":
        out += [Action("dice", None, tuple(rng.randint(0, 4) for _ in TYPES)) for _ in range(4)]
    elif kind in ("draw", "draw_barricades"):
        out += [Action(kind, None, rng.randint(0, 6)) for _ in range(3)]
    elif kind == "shoot":
        out += [Action("shoot", None, (rng.choice(ids), rng.randint(1, 4))) for _ in range(3)]
    elif kind == "give":
        out += [Action("give", None, rng.choice(ids)) for _ in range(3)]
    elif kind == "keep":
        names = list(OBJECTS) + ["barricade"]
        out += [Action("keep", None, tuple(rng.choices(names, k=rng.randint(2, 4)))) for _ in range(3)]
    return out


def probe_refusals(game: Game, rng: random.Random) -> None:
    """One source: an answer is legal iff no refusal code is computed for it; a refused
    answer changes nothing."""
    legal = game.legal()
    before = json.dumps(game.to_data(), sort_keys=True)
    for a in mutations(game, rng):
        try:
            code = game.refusal(a)
        except RulesError:
            assert a not in legal
            continue
        assert (code is None) == (a in legal), (a, code, game.state.phase)
        if code is not None:
            try:
                game.apply(a)
            except Refused as r:
                assert r.codes == {game.state.active: code}
            else:
                raise AssertionError(f"{a} applied although refused {code}")
            assert json.dumps(game.to_data(), sort_keys=True) == before


@FAST
@given(games)
def test_random_games_keep_every_invariant(g):
    seed, players, variants, fz = g
    checked_play(seed, players, variants, fz)


@settings(max_examples=25, deadline=None)
@given(games)
def test_same_seed_same_game_byte_for_byte(g):
    seed, players, variants, fz = g
    a, log_a = checked_play(seed, players, variants, fz, probe=False)
    b, log_b = checked_play(seed, players, variants, fz, probe=False)
    assert json.dumps(log_a) == json.dumps(log_b)
    assert json.dumps(a.to_data()) == json.dumps(b.to_data())


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 400))
def test_json_round_trip_mid_game(g, cut):
    seed, players, variants, fz = g
    game = new_game(seed, players, variants, fz)
    bs = bots(game, seed)
    for _ in range(cut):
        if game.finished:
            break
        pr = game.prompt()
        game.apply(pr.default if pr.auto else bs[pr.player].decide(game, pr))
    saved = json.loads(json.dumps(game.to_data()))
    restored = Game.from_data(saved)
    assert json.dumps(restored.to_data()) == json.dumps(game.to_data())
    assert restored.public_view() == game.public_view()
    bots_copy = copy.deepcopy(bs)
    play_game(game, bs)
    play_game(restored, bots_copy)
    assert json.dumps(restored.to_data()) == json.dumps(game.to_data())


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 300))
def test_public_view_hides_the_bag_order_and_face_down_objects(g, cut):
    seed, players, variants, fz = g
    game = new_game(seed, players, variants, fz)
    bs = bots(game, seed)
    for _ in range(cut):
        if game.finished:
            break
        pr = game.prompt()
        game.apply(pr.default if pr.auto else bs[pr.player].decide(game, pr))
    other = game.copy()
    rng = random.Random(seed)
    rng.shuffle(other.state.bag)
    other.state.rng.seed(seed + 1)
    other.state.seed = seed + 1
    for p in other.state.players:
        for h in other.state.held[p]:
            if h[0] == "barricade":
                h[1] = rng.choice(OBJECTS)
    if other.state.setup_token is not None:
        other.state.setup_token = rng.choice(OBJECTS)
    assert game.public_view() == other.public_view()


def test_a_hundred_five_player_games_end_with_one_winner():
    turns = []
    for seed in range(100):
        game = new_game(seed, 5, ())
        play_game(game, bots(game, seed))
        assert len(game.state.winners) == 1 and game.in_game() == game.state.winners
        assert len(game.state.eliminated) == 4
        turns.append(game.state.turn)
    assert max(turns) > 15                    # careful bots reach the long games too

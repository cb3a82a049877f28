"""Last One Alive at the console's referee session (:class:`bitbox.table.session.Session` with
the game's :class:`lastonealive.controls.TableControls`) with controllers the tests turn by
hand (the console's fake hub): only the active controller is read, lock on submits and lock
off comes before the next prompt, refusals change nothing and are told privately with the
reason on screen, lights, the pause on a lost controller, physical tokens from a real bag,
multi-die answers one lock at a time, and the game set up exactly as the engine's own."""
from __future__ import annotations

import pytest

from bitbox.table.app import apply_command
from bitbox.table.referee import Pace, RefuseChoice
from bitbox.table.seating import SeatPlan
from bitbox.testing import FakeHub
from lastonealive.content import load_content
from bitbox.bots import make_bot
from bitbox.table.session import BotDriver, Session
from lastonealive.cartridge import CARTRIDGE, LastOneAliveGame
from lastonealive.controls import Controls, Mark, TableControls, Unreadable
from lastonealive.rules import Action, Game
from lastonealive.session import new_game, started, state_hash
from lastonealive.words import LANGUAGES, Lang, all_strings

CONTENT = load_content()
NAMES = ["red", "blue", "green", "yellow"]


def loa_session(game: Game, plans, *, tokens: str = "virtual", **kwargs) -> Session:
    """Last One Alive's table session: the console's, with the game's controls."""
    return Session(CARTRIDGE, LastOneAliveGame(game), plans, controls=TableControls(tokens=tokens), **kwargs)


def loa_bot(player: str, sim, name: str, game: Game) -> BotDriver:
    """A bot at the table, seeded from the game's seed (as the table seats it)."""
    return BotDriver(player, sim, make_bot(CARTRIDGE, name), TableControls(), seed=game.state.seed)


class Table:
    """A session over a fake hub: ``kinds`` per seat (controller or bot)."""

    def __init__(self, kinds: list[str], seed: int = 5, tokens: str = "virtual", game: Game | None = None,
                 journal=None) -> None:
        names = NAMES[:len(kinds)]
        self.hub = FakeHub()
        self.sims = self.hub.add_sim(len(kinds))
        self.game = game or new_game(names, seed=seed, **CONTENT.game_options())
        plans = [SeatPlan(p, i, k, self.sims[i].controller_id) for i, (p, k) in enumerate(zip(names, kinds))]
        self.s = loa_session(self.game, plans, tokens=tokens, pace=Pace.instant(), journal=journal)
        self.bots = [loa_bot(p, self.sims[i], "random", self.game)
                     for i, (p, k) in enumerate(zip(names, kinds)) if k == "bot"]
        self.commands: list = []
        self.now = 0.0
        self.step()

    def step(self, n: int = 3) -> None:
        for _ in range(n):
            self.now += 0.3
            for e in self.hub.poll():
                self.s.handle(e)
            self.s.update(self.now)
            for b in self.bots:
                b.update(self.s, self.now)
            for c in self.s.take_commands():
                self.commands.append(c)
                apply_command(self.hub, c)

    @property
    def g(self) -> Game:
        """The rules' game the session plays."""
        return self.s.game.engine

    @property
    def kind(self) -> str | None:
        """The prompt asked now (the screen's: ``first``, ``bag``, or the engine's)."""
        return self.s.table().kind

    def sim(self, player: str):
        return self.sims[NAMES.index(player)]

    def answer(self, player: str, left=0, centre=0, right=0) -> None:
        """Set the wheels, lock on, then lock off (a person answering one prompt)."""
        sim = self.sim(player)
        sim.set(left, centre, right, locked=True)
        self.step()
        sim.set(locked=False)
        self.step()


def test_new_game_then_start_is_the_engines_own_setup():
    for seed in range(6):
        g = new_game(NAMES, seed=seed, **CONTENT.game_options())
        assert not started(g)
        g.start_setup("blue", [])
        ref = Game.new(NAMES, seed=seed, first="blue", **CONTENT.game_options())
        assert state_hash(g) == state_hash(ref)


def test_the_first_lock_turned_on_chooses_who_starts_and_only_the_active_controller_is_read():
    t = Table(["controller"] * 3)
    assert t.s.stage == "first" and t.kind == "first"
    t.answer("green")
    assert t.g.state.first == "green"
    # the setup prompt: green places the token drawn (or someone drew an apocalypse token first)
    active = t.g.state.active
    assert t.kind == "setup"
    others = [p for p in ("red", "blue", "green") if p != active]
    before = state_hash(t.s.game)
    t.answer(others[0], 2)                          # an inactive controller: ignored, no blink
    assert state_hash(t.s.game) == before and t.sim(others[0]).refusals == 0
    # lights: the active controller lit (the left wheel is read), the others dark
    assert t.sim(active).lights == (True, False, False)
    assert all(t.sim(p).lights == (False, False, False) for p in others)
    # the token drawn is shown (protocol 1.2 Show) to its owner alone; the hint lists only the
    # valid answers (1 object, 2 barricade), never the token's code
    token = t.g.state.setup_token
    assert t.sim(active).shown == (1 << Controls().position[token], 0, 0)
    assert t.sim(active).hint == (0b110, 0, 0)
    assert all(t.sim(p).hint == (0, 0, 0) and t.sim(p).shown == (0, 0, 0) for p in others)


def started_game(seed: int = 5, held: list | None = None) -> Game:
    """A game past its setup, the first player holding ``held``."""
    g = new_game(NAMES[:3], seed=seed, **CONTENT.game_options())
    g.start_setup("red", [])
    while g.state.phase == "setup":
        g.apply(Action("side", None, "barricade"))
    if held is not None:
        g.state.held[g.state.active] = held
        g.changed()
    return g


def test_a_refused_answer_changes_nothing_blinks_privately_and_says_why():
    t = Table(["controller"] * 3, game=started_game(held=[["axe", "axe"]]))
    assert t.kind == "before"
    p = t.g.state.active
    before = state_hash(t.s.game)
    t.sim(p).set(4, 0, 0, locked=True)               # a pistol nobody holds
    t.step()
    assert state_hash(t.s.game) == before
    assert t.s.table().refusal == ("code.not_held", {})
    refusals = [c for c in t.commands if isinstance(c, RefuseChoice)]
    assert [c.seat for c in refusals] == [NAMES.index(p)]
    assert all(e.kind not in ("refused",) for e in t.s.log)            # nothing in the log
    assert "you do not hold that token" in Lang("en").t("ui.refused", reason=Lang("en").t("code.not_held"))
    t.sim(p).set(0, 0, 0)                             # still locked: a refused lock is not read again
    t.step()
    assert t.kind == "before"
    t.sim(p).set(locked=False)
    t.step()
    assert t.s.table().refusal is None
    t.answer(p, 0)                                    # go on
    assert t.kind == "dice"
    t.answer(p, 3, 3, 0)                              # six chosen dice: refused before the engine
    assert t.kind == "dice" and t.s.refusal is None     # (cleared by the lock going off)
    t.sim(p).set(1, 1, 1, locked=True)                # 1 shoot, 1 object, 1 barricade, 1 zombie
    t.step()
    assert t.g.state.phase != "dice"


def test_a_lost_controller_pauses_the_game_and_a_stale_lock_must_go_off_first():
    t = Table(["controller"] * 3, game=started_game(held=[["axe", "axe"]]))
    p = t.g.state.active
    other = next(q for q in ("red", "blue", "green") if q != p)
    t.sim(other).unplug()                               # a waiting player's controller: no pause
    t.step()
    assert not t.s.paused
    t.sim(other).replug()
    t.sim(p).unplug()
    t.step()
    assert t.s.paused and t.s.table().banner == ("banner.paused", {"players": [p]})
    before = state_hash(t.s.game)
    t.sim(p).set(0, 0, 0, locked=True)                  # not heard while lost
    t.step()
    assert state_hash(t.s.game) == before and t.kind == "before"
    t.sim(p).replug()                                   # back, locked on "go on": read now
    t.step()
    assert not t.s.paused and t.kind == "dice"
    t.step()
    assert t.s.table().players[NAMES.index(p)].status == "unlock"     # the old lock does not answer the dice
    t.sim(p).set(1, 1, 1)
    t.step()
    assert t.kind == "dice"
    t.sim(p).set(locked=False)
    t.sim(p).set(locked=True)
    t.step()
    assert t.g.state.phase != "dice"


def test_bots_only_play_to_the_winner_through_the_wheels():
    t = Table(["bot"] * 4, seed=9)
    for _ in range(3000):
        t.step(1)
        if t.s.finished:
            break
    assert t.s.finished and len(t.g.state.winners) == 1
    assert t.s.log[-1].kind == "game_over"


def test_physical_tokens_are_entered_from_the_real_bag_before_they_are_drawn():
    t = Table(["controller"] * 2, tokens="physical", seed=3)
    t.answer("red")                                   # red starts: red draws first
    assert t.s.stage == "enter" and t.kind == "bag" and t.s.entering == "red"
    t.answer("red", 7)                                # a barricade is no token of the bag
    assert t.s.table().refusal is None or t.s.stage == "enter"
    t.sim("red").set(7, 0, 0, locked=True)
    t.step()
    assert t.s.refusal == ("refuse.bag_token", {})
    t.sim("red").set(locked=False)
    t.step()
    t.answer("red", 2)                                # a chainsaw came out
    assert t.kind == "setup" and t.g.state.setup_token == "chainsaw"
    t.answer("red", 1)                                # face up; blue draws next: asked before it is applied
    assert t.s.stage == "enter" and t.s.entering == "blue"
    assert t.g.held_faces("red") == []           # not applied yet
    t.answer("blue", 9)                               # an apocalypse token
    assert t.g.held_faces("red") == ["chainsaw"] and t.g.state.level == 2
    assert t.g.state.phase == "before"           # blue's draw was used up: the game begins


def test_physical_entries_are_journaled_with_their_answer_and_replay(tmp_path):
    from bitbox.table.journal import Journal, rebuild
    from lastonealive.journaling import RULES
    game = new_game(NAMES[:2], seed=3, **CONTENT.game_options())
    journal = Journal(tmp_path / "j.sqlite", RULES)
    record = journal.new_game(game, {"seats": []})
    t = Table(["controller"] * 2, tokens="physical", seed=3, game=game, journal=record)
    t.answer("red")
    t.answer("red", 4)                                # a pistol came out
    t.answer("red", 2)                                # face down
    t.answer("blue", 6)                               # blue drew a radio
    assert t.g.state.setup_token == "radio" and t.g.state.active == "blue"
    rebuilt, n = rebuild(journal, record.id)
    assert n == 2 and state_hash(rebuilt) == state_hash(t.s.game)
    assert all("pistol" not in repr(e.data) for e in t.s.log)        # face down: never shown
    assert "'pistol'" not in repr(t.s.table())
    journal.close()


def test_any_wheels_locked_by_the_active_player_apply_or_change_nothing():
    import random
    rng = random.Random(2)
    t = Table(["controller"] * 3, seed=6)
    for _ in range(600):
        if t.s.finished:
            break
        p = t.s.table().asking or "red"
        before, n = state_hash(t.s.game), t.s.inputs_applied
        w = [rng.choice([0, 0, 1, 1, 2, 3, rng.randrange(16)]) for _ in range(3)]
        t.sim(p).set(*w, locked=True)
        t.step()
        if t.s.inputs_applied == n:
            assert state_hash(t.s.game) == before
        t.sim(p).set(locked=False)
        t.step()
    assert t.s.inputs_applied > 20


def test_controls_read_every_prompt():
    c = Controls()
    assert c.read("setup", (1, 0, 0)) == Action("side", None, "object")
    assert isinstance(c.read("setup", (3, 0, 0)), Unreadable)
    assert c.read("dice", (1, 2, 0), needed=4) == Action("dice", None, (1, 1, 2, 0))
    assert c.read("before", (0, 0, 0)) == Action("pass")
    assert c.read("before", (4, 0, 0)) == Action("use", "pistol")
    assert c.read("after", (4, 3, 2)) == Action("use", "pistol", "s2")
    assert c.read("before", (6, 3, 5)) == Action("use", "radio", ("shoot", "barricade"))
    assert c.read("before", (3, 1, 2)) == Mark("flare", "f2")
    assert c.read("after", (8, 2, 1)) == Mark("hero", "z1")
    assert c.read("after", (8, 15, 0)) == Mark("hero_go", "all")
    assert c.read("shoot", (2, 1, 1)) == Action("shoot", None, ("f1", 2))
    assert c.read("shoot", (0, 1, 1)) == Action("shoot")
    assert c.read("give", (1, 2, 3)) == Action("give", None, "z3")
    assert c.read("keep", (7, 0, 0)) == Mark("discard", "barricade")
    for kind, answer in [("shoot", Action("shoot", None, ("z4", 1))), ("give", Action("give", None, "f2")),
                         ("after", Action("use", "axe", "b1")), ("before", Action("use", "radio", ("zombie", "object")))]:
        (w,) = c.steps(kind, answer)
        assert c.read(kind, (w["left"], w["centre"], w["right"])) == answer
    steps = c.steps("after", Action("use", "hero", ("z1", "s2")))
    assert [c.read("after", (w["left"], w["centre"], w["right"])) for w in steps] == [
        Mark("hero", "z1"), Mark("hero", "s2"), Mark("hero_go", "marked")]


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_language_has_every_key(code):
    assert set(Lang(code).keys()) == set(Lang("en").keys())
    assert all(s.strip() for s in all_strings(code))


def test_spanish_uses_the_rulebooks_terms():
    es = Lang("es")
    assert es.token("chainsaw") == "motosierra" and es.token("barricade") == "barricada"
    assert es.face("ambush") == "emboscada" and es.token("hero") == "ficha de héroe"
    assert "nivel de Apocalipsis" in es.t("ui.level")


def test_the_keyboard_hot_seat_turns_the_wheels_and_hides_the_setup_token_until_tab():
    from bitbox.table.session import KeyboardDriver
    t = Table(["keyboard", "keyboard"])
    kb = KeyboardDriver({"red": t.sims[0], "blue": t.sims[1]}, TableControls(), Lang("en"))
    kb.update(t.s, 0.0)
    kb.key(t.s, "enter")                            # red at the keyboard: red starts
    t.step()
    assert t.g.state.first == "red"
    kb.update(t.s, 0.0)
    kb.key(t.s, "enter")                            # lock off
    t.step()
    kb.update(t.s, 0.0)
    while t.kind == "setup":
        p = kb.current(t.s)
        pad = kb.pad(t.s, Lang("en"))
        token = t.g.state.setup_token
        assert all(Lang("en").token(token) not in line for line in pad["lines"])
        kb.key(t.s, "tab")
        assert any(Lang("en").token(token) in line for line in kb.pad(t.s, Lang("en"))["lines"])
        kb.key(t.s, "tab")
        kb.key(t.s, "up")                            # left wheel 1: face up
        kb.key(t.s, "enter")
        t.step()
        kb.key(t.s, "enter")
        t.step()
        kb.update(t.s, 0.0)
        assert t.g.held_faces(p)[-1:] == [token] or t.kind == "setup"


@pytest.mark.parametrize("variants", [("survivors",), ("day_night",), ("zombies_everywhere", "zombified_rolls")])
def test_bots_only_play_every_variant_at_the_table(variants):
    g = new_game(NAMES[:3], seed=11, variants=variants, **CONTENT.game_options())
    t = Table(["bot"] * 3, seed=11, game=g)
    for _ in range(4000):
        t.step(1)
        if t.s.finished:
            break
    assert t.s.finished and t.g.state.winners
    if "survivors" in variants:
        assert all("lives" in p for p in t.s.table().view["players"])


def test_the_consoles_conformance_checks_pass_on_the_cartridge_the_table_plays():
    from bitbox.games import find
    from bitbox.games.conformance import check_all
    cartridge = find("lastonealive")
    failed = [(name, why) for name, why in check_all(cartridge, seeds=(0,)) if why is not None]
    assert failed == []
    assert cartridge.journal.name == "lastonealive" and callable(cartridge.play_main)


def test_a_refused_lock_mid_marking_keeps_the_dice_marked_so_far():
    from .test_engine import position
    game = position("players: [red, blue, green]\ntokens: {red: [hero, flare]}\nfront: {red: [zombie1, zombie2, zombie1]}\n")
    t = Table(["controller"] * 3, game=game)
    assert t.kind == "before" and t.g.state.active == "red"
    applied = t.s.inputs_applied
    t.answer("red", 3, 1, 1)                          # flare: f1 marked; a flare on 3 dice names 2
    assert t.s.marks == ("flare", ("f1",))
    t.sim("red").set(8, 2, 1, locked=True)            # a hero mark before the roll: refused (wrong moment)
    t.step()
    assert t.s.table().refusal == ("code.wrong_moment", {})
    assert t.s.marks == ("flare", ("f1",))                             # a refusal changes nothing
    t.sim("red").set(locked=False)
    t.step()
    t.answer("red", 3, 1, 3)                          # f3: the flare is whole (f1, f3) and played
    assert t.s.inputs_applied > applied and t.s.marks is None and "flare" not in t.g.held_faces("red")


def test_a_refusal_never_points_at_a_wheel_on_a_hinted_stop():
    """SPEC.md 6.14: ChoiceRefused names the wheels to change. A token window hints the left
    wheel (the usable tokens); a flare locked with a wrong target is refused for the centre and
    right wheels only (the left's stop is valid: its Hint said so). An unusable token is refused
    on the left wheel too."""
    t = Table(["controller"] * 3, game=started_game(held=[["flare", "flare"]]))
    p = t.g.state.active
    flare = Controls().position["flare"]
    assert t.kind == "before" and t.sim(p).hint[0] >> flare & 1
    n = len(t.commands)
    t.sim(p).set(flare, 0, 0, locked=True)            # no such target
    t.step()
    assert [c.wheels for c in t.commands[n:] if isinstance(c, RefuseChoice)] == [0b110]
    t.sim(p).set(locked=False)
    t.step()
    n = len(t.commands)
    t.sim(p).set(Controls().position["pistol"], 0, 0, locked=True)    # not held: not hinted
    t.step()
    assert [c.wheels for c in t.commands[n:] if isinstance(c, RefuseChoice)] == [0b111]

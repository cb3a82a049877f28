"""Private choices stay private (protocol 1.1 on the table's side): the player choosing a
token gets a hint of the valid stops on their own controller only, and a refused try is told
to their controller alone; the table and the log never say which or how many tries a
player made."""
from __future__ import annotations

from dataclasses import replace

from bitbox.table.referee import Hint, RefuseChoice

from .helpers import WM, Table, new_game
from .test_secrecy import Recorder, _play_to_a_draw

TOKENS = ("nitro", "fuel_tank", "flamethrower", "force_field", "electromagnet", "ion_cannon")


def mask(*meanings: str) -> int:
    return sum(1 << p for p, m in WM.meanings("left").items() if m in meanings)


def test_the_token_hint_goes_to_the_chooser_only_and_ends_with_the_choice():
    game = new_game(seed=5, first_game=True)
    game.state.held.update(red=["nitro", "fuel_tank"])
    t = Table(game)
    t.pump()
    assert t.s.awaiting("red").kind == "bonus"
    legal = t.game.legal_bonus_plays("red")
    assert None in legal and "nitro" in legal
    want = mask("none", *[tok for tok in legal if tok is not None])
    assert want and t.hub.sims[0].hint == (want, 0, 0)
    assert mask("ion_cannon") & want == 0                          # a token red lacks: not lit
    assert [s.hint for s in t.hub.sims[1:]] == [(0, 0, 0)] * 3      # nobody else hears a thing
    assert all(c.seat == 0 for c in t.commands if isinstance(c, Hint))
    t.declare("red", "nitro")
    assert t.hub.sims[0].hint == (0, 0, 0)                          # cleared once red has chosen


def test_the_drawn_tokens_are_hinted_to_the_drawing_player_only():
    t = Table(new_game(seed=4, first_game=True))
    r = Recorder(t)
    t.pump()
    _play_to_a_draw(t, r)
    player = t.game.state.draw_queue[0]
    seat = t.s.by_player[player].seat
    drawn = list(t.game.state.drawn)
    t.pump()
    assert t.hub.sims[seat].hint == (mask(*drawn), 0, 0)
    assert all(s.hint == (0, 0, 0) for s in t.hub.sims if s.seat != seat)
    hints = [c for c in t.commands if isinstance(c, Hint) and any((c.left, c.centre, c.right))]
    assert hints[-1].seat == seat
    t.keep(player, drawn[0])
    assert t.hub.sims[seat].hint == (0, 0, 0)


def _draw_with_tries(wrong_tries: int):
    """A game up to a draw; the drawing player tries ``wrong_tries`` wrong tokens (lock,
    refused, unlock) and then keeps the first drawn one. Returns the tables seen while the
    player tried, the table and log after, and the table before the first try."""
    t = Table(new_game(seed=4, first_game=True))
    r = Recorder(t)
    t.pump()
    _play_to_a_draw(t, r)
    player = t.game.state.draw_queue[0]
    drawn = list(t.game.state.drawn)
    t.unlock(player)                       # still locked from programming: open it first
    before = t.s.table()
    wrong = [tok for tok in TOKENS if tok not in drawn]
    during = []
    for k in range(wrong_tries):
        t.keep(player, wrong[k % len(wrong)])
        during.append(t.s.table())
        t.unlock(player)
        during.append(t.s.table())
    t.keep(player, drawn[0])
    seat = t.s.by_player[player].seat
    refusals = [c for c in t.commands if isinstance(c, RefuseChoice)]
    return t, player, before, during, refusals, seat


def test_the_number_of_refused_tries_is_nowhere_public():
    none = _draw_with_tries(0)
    two = _draw_with_tries(2)
    (t0, _, before0, _, refusals0, _), (t2, _, before2, during, refusals2, seat) = none, two
    assert refusals0 == [] and [c.seat for c in refusals2] == [seat, seat]    # told privately
    assert t2.hub.sims[seat].refusals == 2
    assert all(s.refusals == 0 for s in t2.hub.sims if s.seat != seat)
    # The log is the same line for line, with or without the tries ...
    assert [(e.kind, e.data) for e in t0.s.log] == [(e.kind, e.data) for e in t2.s.log]
    # ... and while the player tries, the table shows exactly what it showed before the first
    # try (the padlock apart: it mirrors the physical switch everyone can see).
    def unlocked(table):
        return replace(table, players=tuple(replace(p, locked=False) for p in table.players))
    assert before0 == before2
    for table in during:
        assert unlocked(table) == unlocked(before2)
    assert t0.s.table() == t2.s.table()


def test_the_table_loop_sends_hints_and_refusals_through_a_real_hub_to_one_controller():
    import io
    import time

    from bitbox.controllers import ControllersConfig
    from bitbox.hub import Hub
    from outspeed.display import Lang
    from bitbox.table.command import CartridgeTable
    from outspeed.cartridge import CARTRIDGE
    TableLoop = CartridgeTable(CARTRIDGE, "outspeed").loop()

    class Commands:                            # a session that only has commands to give
        def __init__(self, commands):
            self.commands = commands

        def take_commands(self):
            out, self.commands = self.commands, []
            return out

    with Hub(config=ControllersConfig()) as hub:
        sims = hub.add_sim(2)
        hub.start()
        deadline = time.monotonic() + 10
        seat = {}
        while len(seat) < 2 and time.monotonic() < deadline:
            seat.update({e.info.controller_id: e.seat for e in hub.poll(0.05) if type(e).__name__ == "Connected"})
        a, b = (seat[s.controller_id] for s in sims)
        loop = TableLoop(Commands([Hint(a, 0b110, 0, 0), RefuseChoice(a, 700, 0b001)]), hub, [], None, Lang("en"),
                         headless=True, out=io.StringIO(), snapshots=None, size=(320, 180))
        loop._apply_commands()
        deadline = time.monotonic() + 10
        while not (sims[0].stop_lights == (0b110, 0, 0) and sims[0].refusing) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sims[0].stop_lights == (0b110, 0, 0) and sims[0].refusing
        assert sims[1].stop_lights == (0, 0, 0) and not sims[1].refusing and not sims[1].identifying

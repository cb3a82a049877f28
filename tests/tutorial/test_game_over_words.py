"""A game's own ``game_over`` event worded by a catalogue that lacks ``event.game_over``: the
console's sentence ("Game over: {winners}") is used only when the event's data fill it;
otherwise the event gets the neutral rendering, never a raw ``{winners}`` (docs/games.md,
"The end of a game" and "Step 4"). The tutorial game, with and without that key."""
from __future__ import annotations

from types import SimpleNamespace

from bitbox.display.ending import ending_of
from bitbox.table.words import GameWords


def without(key: str, code: str = "en") -> GameWords:
    import goofspiel
    words = GameWords(goofspiel.CARTRIDGE, code)
    words._messages = {k: v for k, v in words._messages.items() if k != key}
    return words


def test_a_game_over_event_with_other_data_is_not_the_consoles_unfilled_sentence() -> None:
    words = without("event.game_over")
    line = words.event("game_over", {"player": "red", "score": 31})
    assert "{" not in line and line == "game over: player Red, score 31"
    assert words.event("game_over", {"winners": ["red", "blue"]}) == "Game over: Red, Blue"   # the console's
    fr = without("event.game_over", "fr")
    assert fr.event("game_over", {"winners": ["blue"]}) == fr.console.t("event.game_over", winners="Bleu")
    bare = GameWords(SimpleNamespace(name="goofspiel", title="G", locale=None), "en")
    assert bare.event("started", {}) == bare.console.t("event.started")        # a key with no placeholder


def test_the_end_screen_line_of_such_an_event() -> None:
    events = [SimpleNamespace(kind="game_over", data={"player": "red", "score": 31})]
    ending = ending_of(without("event.game_over"), ["red", "blue"], ["red"], events, {})
    assert ending.reason == "game over: player Red, score 31"
    import goofspiel                                    # with its own key, the game's sentence
    mine = GameWords(goofspiel.CARTRIDGE, "en")
    ending = ending_of(mine, ["red", "blue"], ["red"],
                       [SimpleNamespace(kind="game_over", data={"winners": ["red"], "scores": {"red": 9, "blue": 3}})],
                       {})
    assert ending.reason == mine.t("event.game_over", winners="Red", scores="Red 9, Blue 3") and "{" not in ending.reason

"""A value of an event or a view made of lists inside a list or a mapping (a bid of several
cards per player: ``{"red": [2, 6, 8], "blue": [3]}``), said by the console's words for a game
without its own (docs/games.md, Step 4): the inner lists are bracketed, so that their commas
are not the outer ones. Before, "Red 2, 6, 8, Blue 3" could not tell which card was whose.
The tutorial game's words, in English and French."""
from __future__ import annotations

from bitbox.table.words import GameWords


def words(code: str = "en") -> GameWords:
    import goofspiel
    return GameWords(goofspiel.CARTRIDGE, code)


def test_lists_inside_a_mapping_are_bracketed() -> None:
    w = words()
    assert w.value({"red": [2, 6, 8], "blue": [3], "green": []}) == "Red (2, 6, 8), Blue 3, Green —"
    assert w.event("bids", {"bids": {"red": [2, 6], "blue": [3]}}) == "Bids revealed: Red (2, 6), Blue 3"
    assert words("fr").event("bids", {"bids": {"red": [2, 6], "blue": [3]}}) == "Mises révélées : Rouge (2, 6), Bleu 3"


def test_lists_inside_a_list_and_plain_values_as_before() -> None:
    w = words()
    assert w.value([[1, 2], [3], ("red", "blue")]) == "(1, 2), 3, (Red, Blue)"
    assert w.value([{"a": 1, "b": 2}, {"c": 3}]) == "(a 1, b 2), c 3"
    assert w.value(["red", "blue"]) == "Red, Blue" and w.value({"red": 9, "blue": 3}) == "Red 9, Blue 3"
    assert w.value([]) == "—" and w.value(True) == w.t("word.yes") and w.value(7) == "7"

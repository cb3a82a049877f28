"""The tutorial game with words for its option (``setting.cards``, the home screen's key), for
tests/tutorial/test_play_header_words.py: its catalogues are the tutorial's plus that key,
written and compiled by the test into the folder ``GOOFSPIEL_WORDS`` names (the tutorial's
own catalogues have no ``setting.cards``: tests/table/test_home_choices.py checks the label
without it)."""
from __future__ import annotations

import os
from pathlib import Path

from goofspiel import GoofspielCartridge


class WordedCartridge(GoofspielCartridge):
    @property
    def locale(self) -> Path:            # type: ignore[override]
        return Path(os.environ["GOOFSPIEL_WORDS"])


CARTRIDGE = WordedCartridge()

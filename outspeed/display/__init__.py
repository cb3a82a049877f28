"""The pygame table display: draws the public view only (see :mod:`.render`)."""
from ..words import LANGUAGES, Lang
from .model import COLOURS, SHAPES, DieShown, LogEntry, PlayerStatus, TableView

__all__ = ["COLOURS", "DieShown", "LANGUAGES", "Lang", "LogEntry", "PlayerStatus", "SHAPES", "TableDisplay",
           "TableView"]


def __getattr__(name: str):
    # TableDisplay imports pygame; the model and the words do not.
    if name == "TableDisplay":
        from .render import TableDisplay
        return TableDisplay
    raise AttributeError(name)

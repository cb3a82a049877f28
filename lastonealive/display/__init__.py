"""The Last One Alive table screen (pygame-ce), on the console's display shell."""
from .render import TableDisplay

__all__ = ["TableDisplay"]

"""How the table names controllers and seats in its lines (lobby, seating, the service screen):
one small module the others read, so that none of them imports another for a label."""
from __future__ import annotations

from typing import Callable

from bitbox.events import ControllerInfo
from bitbox.i18n import Words


def short_id(controller_id: int) -> str:
    """A controller id for people: ``1d1e…c0de`` (the first and last 4 hex digits)."""
    h = f"{controller_id:016x}"
    return f"{h[:4]}…{h[-4:]}"


def seat_line(name: str, info: ControllerInfo | None, title: Callable[[str], str] | None = None,
              lang: str = "en") -> str:
    """The log's line for a seat: ``Red: controller 1d1e…c0de on /dev/ttyACM0`` (in ``lang``;
    ``title``: how the seat's name is said, by default its colour in that language)."""
    words = Words(lang)
    player = title(name) if title is not None else words.player(name)
    if info is None:
        return words.t("seat.bot", player=player)
    return words.t("seat.controller", player=player, id=short_id(info.controller_id), port=info.port)


def waiting_line(url: str, lang: str = "en") -> str:
    """The one line said about a ``--controller`` that has not answered (lobby and seating)."""
    return Words(lang).t("seating.waiting", url=url)

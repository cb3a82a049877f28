"""The lobby screen and the controller test screen (any game), drawn with the shell's fonts
and colours; readable from 3 m (no text under 22 px at 1080p).

:class:`LobbyScreen` draws a :class:`bitbox.table.lobby.Lobby`: the game and its options,
one row per seat colour (who sits there: a controller's id and port, or "a bot" / "free"),
the controllers not seated yet ("turn your lock to take a seat"), the ports awaited, and
the keys. :class:`TestScreen` draws the hub's controllers live: wheel positions, lock,
frames and bad frames, and whether the lights test runs.
"""
from __future__ import annotations

from typing import Any, Sequence

import pygame

from bitbox.colours import SCREEN_RGB

from .shell import ACCENT, BAD, BG, DIM, GOOD, PANEL, PANEL_2, TEXT, Fonts

MIN_TEXT = 22          # px at 1080p: the smallest secondary text
MIN_PX = 13            # px in any window (as the shell)


class _Screen:
    REF_H = 1080

    def __init__(self, size: tuple[int, int]) -> None:
        self.fonts = Fonts()
        self.dirty = True
        self.labels: list[pygame.Rect] = []          # every text drawn last frame (tests read them)

    def px(self, surf: pygame.Surface, n: float) -> int:
        w, h = surf.get_size()
        return max(1, round(n * min(w / 1920, h / self.REF_H)))

    def text(self, surf: pygame.Surface, s: str, size: float, pos: tuple[int, int], colour: tuple[int, int, int] = TEXT,
             bold: bool = False, anchor: str = "topleft", max_width: int | None = None) -> pygame.Rect:
        px = max(MIN_PX, self.px(surf, max(size, MIN_TEXT)))
        font = self.fonts.get(px, bold)
        if max_width is not None and font.size(s)[0] > max_width:
            while s and font.size(s + "…")[0] > max_width:
                s = s[:-1]
            s += "…"
        img = font.render(s, True, colour)
        rect = img.get_rect(**{anchor: pos})
        surf.blit(img, rect)
        self.labels.append(rect)
        return rect


class LobbyScreen(_Screen):
    """See the module docstring."""

    def draw(self, surf: pygame.Surface, lobby: Any, *, title: str = "", options: str = "", bots: int = 0,
             waited: float = 0.0, lang: str = "en") -> None:
        from bitbox.i18n import Words
        say = Words(lang)
        self.labels = []
        surf.fill(BG)
        w, h = surf.get_size()
        p = lambda n: self.px(surf, n)  # noqa: E731
        margin = p(48)
        self.text(surf, say.t("lobby.title", title=title) if title else say.t("lobby.title_plain"), 56, (margin, p(30)), TEXT, bold=True)
        if options:
            self.text(surf, options, 28, (margin, p(110)), DIM, max_width=w - 2 * margin)
        names = list(lobby.names)[: lobby.max_players]
        top, row_h = p(170), min(p(96), (h - p(420)) // max(1, len(names)))
        free = lobby.free()
        hands = lobby.keyboard_seats() if hasattr(lobby, "keyboard_seats") else {}     # seat -> keyboard player
        free = [i for i in free if i not in hands]
        n_bots = min(bots, len(free)) if bots else 0
        bot_seats = set(free[:n_bots])
        for i, name in enumerate(names):
            row = pygame.Rect(margin, top + i * row_h, w - 2 * margin, row_h - p(8))
            holder = lobby.holder(i)
            hand = hands.get(i)
            pygame.draw.rect(surf, PANEL_2 if holder or hand else PANEL, row, border_radius=p(10))
            colour = SCREEN_RGB.get(name, (200, 200, 200))
            pygame.draw.rect(surf, colour, (row.x, row.y, p(18), row.h), border_radius=p(6))
            self.text(surf, say.player(name), 36, (row.x + p(40), row.centery), colour, bold=True, anchor="midleft")
            if holder is not None:
                from bitbox.table.lobby import short_id
                info = holder.info
                who = say.t("lobby.controller", id=short_id(info.controller_id), port=info.port, firmware=info.firmware)
                who = f"{_name(lobby, holder, say)} · {who}" if hasattr(lobby, "name_of") else who
                state, scol = ((say.t("lobby.ready"), GOOD) if holder.ready else
                               (say.t("lobby.lost"), BAD) if not holder.present else (say.t("lobby.close_lock"), ACCENT))
            elif hand is not None:
                who = f"{_name(lobby, hand, say)} · {say.t('lobby.keyboard')}"
                state, scol = say.t("lobby.keyboard_seat"), ACCENT
            else:
                who = say.t("lobby.bot") if i in bot_seats else say.t("lobby.free")
                state, scol = ("", DIM)
            self.text(surf, who, 26, (row.x + p(260), row.centery), TEXT if holder or hand else DIM, anchor="midleft",
                      max_width=row.w - p(260) - p(520))
            if state:
                self.text(surf, state, 28, (row.right - p(24), row.centery), scol, bold=True, anchor="midright",
                          max_width=p(480))
        y = top + len(names) * row_h + p(16)
        waiting = [e for e in lobby.entries.values() if e.seat is None and e.present]
        from bitbox.table.lobby import short_id
        for e in waiting[:3]:
            line = say.t("lobby.take_seat", id=short_id(e.info.controller_id), port=e.info.port)
            if hasattr(lobby, "name_of") and (lobby.name_of(e) or lobby.spelling(e) is not None):
                line = f"{_name(lobby, e, say)} · {line}"
            self.text(surf, line, 30, (margin, y), ACCENT, bold=True, max_width=w - 2 * margin)
            y += p(44)
        for port in lobby.missing()[:2]:
            self.text(surf, say.t("lobby.waiting", port=port, seconds=f"{waited:.0f}"), 30,
                      (margin, y), BAD, bold=True, max_width=w - 2 * margin)
            y += p(44)
        if not lobby.entries and not lobby.missing() and not hands:
            self.text(surf, say.t("lobby.none"), 30, (margin, y), DIM)
        typing = lobby.entry(lobby.typing) if getattr(lobby, "typing", None) is not None else None
        if typing is not None and typing.hub_seat < 0:      # a keyboard player
            seat = next((i for i, h in hands.items() if h is typing), None)
            line, colour = say.t("lobby.typing", player=say.player(names[seat]) if seat is not None else "?"), ACCENT
        elif typing is not None:
            who_types = say.player(names[typing.seat]) if typing.seat is not None else short_id(typing.info.controller_id)
            line, colour = say.t("lobby.typing", player=who_types), ACCENT
        else:
            line, colour = say.t("lobby.names"), DIM
        self.text(surf, line, 24, (margin, h - p(128)), colour, anchor="midleft", max_width=w - 2 * margin)
        # the controls in two lines (the controllers', the keyboard's): every language fits at every size
        self.text(surf, say.t("lobby.keys"), 24, (margin, h - p(84)), DIM, anchor="midleft", max_width=w - 2 * margin)
        self.text(surf, say.t("lobby.keys_keyboard", bots=n_bots), 24, (margin, h - p(40)), DIM, anchor="midleft",
                  max_width=w - 2 * margin)
        self.dirty = False


def _name(lobby: Any, entry: Any, say: Any) -> str:
    """The name chosen for a seat as the lobby shows it: "✎ AD[A]" while a letter is spelled,
    "Ana|" while typed, else the name or "no name"."""
    slot = lobby.spelling(entry)
    if lobby.typing == entry.hub_seat:
        return "".join(entry.letters) + "|"
    if slot is not None:
        letters = list(entry.letters) + [" "] * (slot + 1 - len(entry.letters))
        return "✎ " + "".join(f"[{c}]" if i == slot else c for i, c in enumerate(letters)).rstrip()
    return lobby.name_of(entry) or say.t("lobby.no_name")


class TestScreen(_Screen):
    """The controller test screen (service mode): one row per controller the hub holds, with
    what :class:`bitbox.table.service.ServiceBench` knows of it (``rows``): firmware and
    protocol, age of the last frame, bad frames and their rate (kept when it is lost, its
    wheels then dimmed: they are stale), what each wheel means for a game, and a grid of the
    stops each wheel has reached ("seen"). ``light``: the light the per-light test lights now."""

    def draw(self, surf: pygame.Surface, seats: Sequence[Any], links: Sequence[Any], lights_on: bool,
             title: str | None = None, lang: str = "en", rows: Sequence[dict] | None = None,
             light: str | None = None) -> None:
        from bitbox.i18n import Words
        say = Words(lang)
        title = say.t("test.title") if title is None else title
        self.labels = []
        surf.fill(BG)
        w, h = surf.get_size()
        p = lambda n: self.px(surf, n)  # noqa: E731
        margin = p(48)
        self.text(surf, title, 56, (margin, p(30)), TEXT, bold=True)
        keys = say.t("test.keys_on" if lights_on else "test.keys_off")
        if lights_on and light is not None:
            name = say.t("test.led") if light == "led" else say.t("wheel." + light)
            keys += "   " + say.t("test.light", light=name)
        self.text(surf, keys, 28, (margin, p(110)), DIM, max_width=w - 2 * margin)
        from bitbox.table.lobby import short_id
        link_of = {l.seat: l for l in links if l.seat is not None}
        bench = {r["controller"]: r for r in (rows or ())}
        shown = list(seats)
        row_h = min(p(190), (h - p(220)) // max(1, len(shown)))
        if not shown:
            self.text(surf, say.t("test.none"), 30,
                      (margin, p(200)), ACCENT)
        for i, s in enumerate(shown):
            row = pygame.Rect(margin, p(170) + i * row_h, w - 2 * margin, row_h - p(10))
            pygame.draw.rect(surf, PANEL_2 if s.connected else PANEL, row, border_radius=p(10))
            link = link_of.get(s.seat)
            b = bench.get(s.controller_id)
            cid = short_id(s.controller_id) if s.controller_id is not None else "?"
            self.text(surf, f"{cid}  {s.port or ''}", 30, (row.x + p(20), row.y + p(10)), TEXT, bold=True,
                      max_width=row.w // 2)
            frames = say.t("test.frames", frames=link.frames, bad=s.bad_frames) if link else say.t("test.bad", bad=s.bad_frames)
            if b is not None:
                frames += " · " + say.t("test.rate", rate=f"{b['bad_rate']:.1f}")
            if not s.connected:
                frames = say.t("test.lost") + " · " + frames         # the counts stay visible
            self.text(surf, frames, 26, (row.right - p(20), row.y + p(12)),
                      BAD if s.bad_frames or not s.connected else DIM, anchor="topright")
            if b is not None:
                info = []
                if b["protocol"] is not None:
                    info.append(say.t("test.version", firmware=b["firmware"],
                                      protocol=f"{b['protocol'][0]}.{b['protocol'][1]}"))
                if b["age"] is not None:
                    info.append(say.t("test.age", ms=f"{b['age'] * 1000:.0f}"))
                self.text(surf, " · ".join(info), 22, (row.right - p(20), row.y + p(46)), DIM, anchor="topright")
            x = row.x + p(20)
            stale = not s.connected
            meanings = b["meanings"] if b is not None and b["meanings"] else [None, None, None]
            stops = b["positions"] if b is not None else [None, None, None]
            lock = say.t("test.locked") if s.locked else say.t("test.open")
            lock_w = self.fonts.get(max(MIN_PX, self.px(surf, 34)), True).size(lock)[0] + p(30)
            col_w = (row.right - p(20) - lock_w - x) // 3
            for k, (label, pos) in enumerate(zip((say.t("wheel.left"), say.t("wheel.centre"), say.t("wheel.right")),
                                                 s.wheels)):
                cx = x + k * col_w
                meaning = meanings[k]
                head = f"{label.upper()}: " + ("—" if meaning is None else str(meaning).replace("_", " "))
                where = self.meaning(say, None, pos, stops[k])
                below = self.text(surf, where, 22, (cx, row.bottom - p(32)), DIM, anchor="bottomleft",
                                  max_width=col_w - p(20))
                self.text(surf, head if meaning is not None else f"{label.upper()}", 30, (cx, below.top - p(2)),
                          DIM if stale else ACCENT, bold=True, anchor="bottomleft", max_width=col_w - p(20))
                if b is not None:
                    self._seen(surf, b["seen"][k], b["positions"][k], pos, (cx, row.bottom - p(10)),
                               min(p(14), max(2, (col_w - p(20)) // max(1, b["positions"][k]) - 2)), stale)
            self.text(surf, lock, 34, (row.right - p(20), row.bottom - p(40)),
                      DIM if stale else (GOOD if s.locked else DIM), bold=True, anchor="bottomright")

    @staticmethod
    def meaning(say: Any, meaning: Any, position: int, stops: int | None) -> str:
        """What a wheel's stop means, in words: the game's meaning when a wheel map is known
        ("fuel tank", "—" for a stop that means nothing), and which stop it is ("stop 3 of
        16", numbered from 0 as in config/wheels.yaml and `bitbox monitor`), not a bare number."""
        where = say.t("test.stop", stop=position, stops=stops) if stops else say.t("test.stop_only", stop=position)
        if meaning is None:
            return where
        return f"{str(meaning).replace('_', ' ')} ({where})"

    def _seen(self, surf: pygame.Surface, seen: int, positions: int, at: int, origin: tuple[int, int], size: int,
              stale: bool) -> None:
        """One wheel's stops as a row of squares: filled once reached, outlined in the accent
        colour where the wheel is now."""
        x, y = origin
        for q in range(positions):
            cell = pygame.Rect(x + q * (size + 2), y - size, size, size)
            pygame.draw.rect(surf, (GOOD if not stale else DIM) if seen >> q & 1 else PANEL, cell)
            if q == at and not stale:
                pygame.draw.rect(surf, ACCENT, cell, width=max(1, size // 6))

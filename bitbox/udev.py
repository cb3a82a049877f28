"""The udev rules that let a normal user open 8Bitbox controllers on Linux (`bitbox udev-rules`)."""
from __future__ import annotations

from collections.abc import Iterable

from .controllers import DEFAULT_USB_IDS

__all__ = ["RULES_FILE", "udev_rules", "INSTALL_HINT"]

RULES_FILE = "/etc/udev/rules.d/70-8bitbox.rules"
INSTALL_HINT = (f"bitbox udev-rules | sudo tee {RULES_FILE} && "
                "sudo udevadm control --reload-rules && sudo udevadm trigger")


def udev_rules(usb_ids: Iterable[tuple[int, int]] = DEFAULT_USB_IDS) -> str:
    """The rules file: read/write access for the logged-in user (``uaccess``) to the hidraw,
    tty and raw USB nodes of every listed VID/PID, plus a stable ``/dev/8bitbox-<serial>``
    symlink for the serial ports."""
    lines = [
        "# 8Bitbox controllers: let the logged-in user open them (hidraw, serial, raw USB).",
        f"# Install:  {INSTALL_HINT}",
        "# Then unplug and plug the controllers in again.",
        "# On a console with nobody logged in at the seat (kiosk, ssh), uaccess grants nothing:",
        "# replace TAG+=\"uaccess\" with MODE=\"0666\" (or GROUP=\"plugdev\", MODE=\"0660\").",
    ]
    for vid, pid in usb_ids:
        v, p = f"{vid:04x}", f"{pid:04x}"
        lines += [
            f"# VID 0x{v}, PID 0x{p}",
            f'SUBSYSTEM=="hidraw", ATTRS{{idVendor}}=="{v}", ATTRS{{idProduct}}=="{p}", TAG+="uaccess"',
            f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{v}", ATTRS{{idProduct}}=="{p}", TAG+="uaccess", '
            f'SYMLINK+="8bitbox-%s{{serial}}"',
            f'SUBSYSTEM=="usb", ATTRS{{idVendor}}=="{v}", ATTRS{{idProduct}}=="{p}", TAG+="uaccess"',
        ]
    return "\n".join(lines) + "\n"

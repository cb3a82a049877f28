"""The ``bitbox`` command: tools for the people who build and test controllers.

    bitbox ports                 candidate devices and whether each answered the handshake
    bitbox monitor PORT          print every message a controller sends (--json, --count, --seconds)
    bitbox emulate -n N          N emulated controllers on pseudo-terminals
    bitbox udev-rules            the Linux udev rules for our USB ids

The subcommands live in ``tools/`` (installed as ``bitbox_tools``); docs/devices.md has the
details and examples.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _parser() -> argparse.ArgumentParser:
    from bitbox_tools import emulate, monitor, ports

    parser = argparse.ArgumentParser(prog="bitbox", description="8Bitbox controllers: list, sniff, emulate.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module, text in (("ports", ports, "list candidate devices and probe them"),
                               ("monitor", monitor, "print every message from a controller"),
                               ("emulate", emulate, "run emulated controllers on pseudo-terminals")):
        p = sub.add_parser(name, help=text, description=module.__doc__.split("\n\n")[0])
        module.build_parser(p)
        p.set_defaults(run=module.run)
    p = sub.add_parser("udev-rules", help="print the udev rules file for our USB ids",
                       description="Print the udev rules that let a normal user open the controllers.")
    p.add_argument("--config", metavar="FILE", help="controllers config (default config/controllers.yaml)")
    p.set_defaults(run=_udev_rules)
    return parser


def _udev_rules(args: argparse.Namespace) -> int:
    from .config import ConfigError
    from .controllers import load_controllers_config
    from .udev import udev_rules
    try:
        config = load_controllers_config(args.config)
    except ConfigError as exc:
        print(f"bitbox udev-rules: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(udev_rules(config.usb))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

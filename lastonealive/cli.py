"""The `lastonealive` command: scenario, dice show."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .content import ConfigError, load_dice
from .rules import BANGS, SYMBOLS, TYPES


def _cmd_scenario(args: argparse.Namespace) -> int:
    from .scenario import main as run
    return run(args.files)


def _cmd_dice_show(args: argparse.Namespace) -> int:
    try:
        faces, counts = load_dice(args.file)
    except ConfigError as exc:
        print(f"lastonealive dice show: {exc}", file=sys.stderr)
        return 2
    print("Last One Alive dice (a reconstruction: check them against your own dice, see the file's header)")
    for t in TYPES:
        fs = faces[t]
        n = len(fs)
        print(f"  {t:<9} ×{counts[t]:<2} {', '.join(fs)}")
        parts = []
        for f in dict.fromkeys(fs):
            parts.append(f"{f} {fs.count(f)}/{n}")
        sym = sum(SYMBOLS.get(f, 0) for f in fs) / n
        bang = sum(BANGS.get(f, 0) for f in fs) / n
        extra = []
        if sym:
            extra.append(f"{sym:.2f} zombie/ambush symbols a roll")
        if bang:
            extra.append(f"{bang:.2f} bangs a roll before \"+\" re-rolls")
        print(f"            {'; '.join(parts)}" + (f" — {', '.join(extra)}" if extra else ""))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lastonealive", description="Last One Alive on the 8Bitbox bridge")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("scenario", help="run rule scenarios (docs/last-one-alive-scenarios.md)",
                       description="Run each scenario file; one JSON line per file; exit 0 if all met their "
                                   "expect, 1 if any did not, 2 if a file is not a valid scenario.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=_cmd_scenario)
    dice = sub.add_parser("dice", help="the dice data").add_subparsers(dest="dice_command", required=True)
    p = dice.add_parser("show", help="print the dice faces (default: config/lastonealive/dice.yaml)")
    p.add_argument("file", nargs="?")
    p.set_defaults(func=_cmd_dice_show)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

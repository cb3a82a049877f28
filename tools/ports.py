"""`bitbox ports`: the devices that may be controllers, and whether each answered.

    bitbox ports              # candidates by USB VID/PID (config/controllers.yaml) + its ports
    bitbox ports --all        # every serial port, whatever its USB ids (USB-UART adapters)
    bitbox ports --no-probe   # list only; open nothing
    bitbox ports --json       # one JSON object per device per line

Running `bitbox emulate` controllers are listed too (source "emulated": the links in the
runtime folder, see bitbox.discovery). Exit code 3 when there is no device to list.

Probing opens each device, sends a HostHello and waits for the controller's Hello (no
Welcome: the controller stays free for the game). A port a running game holds shows as busy.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TextIO

from bitbox import exitcodes
from bitbox.config import ConfigError
from bitbox.console import wait_arg
from bitbox.safetext import printable
from bitbox.controllers import ControllersConfig, load_controllers_config
from bitbox.discovery import Candidate, ProbeResult, find_candidates, probe
from firmware_protocol import PROTOCOL_VERSION

__all__ = ["list_candidates", "main"]


def list_candidates(config: ControllersConfig, *, all_ports: bool = False, list_ports: Any = None,
                    hidapi: Any = None) -> list[Candidate]:
    found = find_candidates(config, list_ports=list_ports, hidapi=hidapi)
    if all_ports:
        if list_ports is None:
            from serial.tools.list_ports import comports as list_ports
        known = {c.url for c in found}
        for p in list_ports():
            if p.device not in known:
                found.append(Candidate(p.device, "serial", p.vid, p.pid, printable(p.serial_number or "") or None,
                                       printable(p.description or ""), "any"))
    return found


def _row(result: ProbeResult | None, cand: Candidate, config: ControllersConfig) -> dict[str, Any]:
    row: dict[str, Any] = {
        "port": cand.url, "kind": cand.kind,
        "vid": f"{cand.vid:04x}" if cand.vid is not None else None,
        "pid": f"{cand.pid:04x}" if cand.pid is not None else None,
        "serial_number": cand.serial_number, "description": cand.description, "source": cand.source,
    }
    if result is not None:
        row["answered"] = result.answered
        if result.info is not None:
            i = result.info
            pin = config.pin_for(i.controller_id)
            row.update(controller=f"{i.controller_id:#018x}", protocol=f"{i.protocol[0]}.{i.protocol[1]}",
                       firmware=i.firmware, positions=list(i.positions),
                       seat=pin.seat + 1 if pin is not None else None)   # counted from 1, as in controllers.yaml
        else:
            row["error"] = result.error
    return row


def report(rows: list[dict[str, Any]], out: TextIO, as_json: bool) -> None:
    if as_json:
        for row in rows:
            out.write(json.dumps(row) + "\n")
        return
    first_on: dict[str, str] = {}                  # controller id -> the first port that answered with it
    for row in rows:
        ids = f"{row['vid']}:{row['pid']}" if row["vid"] else "-"
        kind = "emul." if row.get("source") == "emulated" else row["kind"]
        head = f"{row['port']:<28} {kind:<6} {ids:<9} {row['serial_number'] or '-':<18}"
        if "answered" not in row:
            out.write(f"{head} (not probed) {row['description']}\n")
        elif row["answered"]:
            seat = f", pinned to seat {row['seat']}" if row.get("seat") is not None else ""
            # what the host will do with it, said here rather than learnt at the table (SPEC.md 7.3)
            major = int(row["protocol"].split(".")[0])
            if major != PROTOCOL_VERSION[0]:
                seat += (f"; another major version: this host ({PROTOCOL_VERSION[0]}.{PROTOCOL_VERSION[1]}) "
                         f"refuses it")
            twin = first_on.setdefault(row["controller"], row["port"])
            if twin != row["port"]:
                seat += f"; same id as {twin}: a game seats only one of them"
            out.write(f"{head} controller {row['controller']}, protocol {row['protocol']}, firmware "
                      f"{row['firmware']}, wheels {'/'.join(map(str, row['positions']))}{seat}\n")
        else:
            first = (row["error"] or "").splitlines()[0] if row["error"] else ""
            out.write(f"{head} no answer: {first}\n")


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or argparse.ArgumentParser(prog="bitbox ports", description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="every serial port, whatever its USB ids")
    parser.add_argument("--no-probe", action="store_true", help="do not open the devices")
    parser.add_argument("--timeout", type=wait_arg, default=1.0,
                        help="seconds to wait for each Hello (default 1, at most 600)")
    parser.add_argument("--json", action="store_true", help="one JSON object per device per line")
    parser.add_argument("--config", metavar="FILE", help="controllers config (default config/controllers.yaml)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out      # the stdout of the call, not of the import
    try:
        config = load_controllers_config(args.config)
    except ConfigError as exc:
        print(f"bitbox ports: {exc}", file=sys.stderr)
        return exitcodes.USAGE
    candidates = [c for c in list_candidates(config, all_ports=args.all) if c.kind != "sim"]
    if not candidates:
        wanted = ", ".join(f"{v:04x}:{p:04x}" for v, p in config.usb)
        print(f"bitbox ports: no candidate devices (looked for USB {wanted} as serial ports and HID "
              f"devices{', and the ports of ' + config.source if config.ports else ''}). "
              f"Try --all, or `bitbox emulate` for a virtual controller.", file=sys.stderr)
        return exitcodes.NO_DEVICE
    if args.no_probe:
        results: list[ProbeResult | None] = [None] * len(candidates)
    else:
        with ThreadPoolExecutor(max_workers=min(8, len(candidates))) as pool:
            results = list(pool.map(lambda c: probe(c, timeout=args.timeout), candidates))
    report([_row(r, c, config) for r, c in zip(results, candidates)], out, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

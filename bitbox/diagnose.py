"""``bitbox diagnose``: one file a maker attaches to a bug report.

    bitbox diagnose [--out FILE] [--listen S] [--config FILE]

It writes one JSON document (default ``bitbox-diagnose-<UTC time>.json`` in the current
folder) and says where in one line:

* ``version``: the program, Python, the platform, and the versions of pyserial and hidapi;
* ``ports``: every serial port the system lists, every HID device of the configured USB ids,
  the ports the config lists and the running emulators' ports, each with whether discovery
  **kept** it (and why: its USB id, the config, an emulator) or **skipped** it (and why);
* ``controllers``: what each kept port answered to a HostHello (its Hello: id, protocol,
  firmware, wheels) or why it did not;
* ``links``: the hub's counters after listening ``--listen`` seconds (default 2): frames, bad
  frames, unknown messages, the last ErrorReport, a refusal;
* ``config``: the checks of ``config/controllers.yaml`` and ``config/wheels.yaml`` (each
  game's wheel map), ``ok`` or the error naming file, entry and field.

Nothing in it is secret: it holds no game, no journal and no player name. Text a device chose
(USB strings, ErrorReport texts) is escaped (bitbox.safetext). Exit code 0 once the file is
written; 2 (one line) when it cannot be.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from . import exitcodes


def _versions() -> dict[str, Any]:
    from .console import version
    out: dict[str, Any] = {"bitbox": version(), "python": sys.version.split()[0],
                           "platform": platform.platform(), "implementation": platform.python_implementation()}
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version
    for dist in ("pyserial", "hidapi", "pygame-ce"):
        try:
            out[dist] = dist_version(dist)
        except PackageNotFoundError:
            out[dist] = None
    import firmware_protocol as fp
    out["protocol"] = "%d.%d" % fp.PROTOCOL_VERSION
    return out


def _config_checks(config_path: str | None) -> tuple[dict[str, str], Any]:
    from .config import ConfigError
    from .controllers import ControllersConfig, load_controllers_config
    from .wheels import parse_wheel_maps
    checks: dict[str, str] = {}
    config: Any = None
    try:
        config = load_controllers_config(config_path)
        checks["controllers.yaml"] = "ok"
    except ConfigError as exc:
        checks["controllers.yaml"] = str(exc)
        config = ControllersConfig()
    try:
        from bitbox_config import config_path as shipped

        from .config import load_yaml
        path = shipped("wheels.yaml")
        maps = parse_wheel_maps(load_yaml(path), str(path))
        for game in sorted(maps):
            checks[f"wheels.yaml: {game}"] = "ok"
    except ConfigError as exc:
        checks["wheels.yaml"] = str(exc)
    return checks, config


def _ports(config: Any) -> list[dict[str, Any]]:
    """Every device discovery saw, kept or skipped, and why."""
    from .discovery import find_candidates
    from .safetext import printable
    kept = {c.url: c for c in find_candidates(config)}
    wanted = {(v, p) for v, p in config.usb}
    rows: list[dict[str, Any]] = []
    try:
        from serial.tools.list_ports import comports
        listed = list(comports())
    except Exception as exc:  # noqa: BLE001 - a broken sysfs entry is a finding, not a crash
        listed = []
        rows.append({"port": None, "kept": False, "why": f"listing serial ports failed: {printable(exc, 200)}"})
    for p in listed:
        ids = f"{p.vid:04x}:{p.pid:04x}" if p.vid is not None else None
        row: dict[str, Any] = {"port": p.device, "kind": "serial", "usb": ids, "serial_number": printable(p.serial_number or "", 120),
               "description": printable(p.description or "", 120)}
        if p.device in kept:
            row.update(kept=True, why=f"USB id {ids} is in the controllers config")
        elif p.vid is None:
            row.update(kept=False, why="no USB id (not a USB device)")
        else:
            row.update(kept=False, why=f"USB id {ids} is not in the controllers config (--all in `bitbox ports` "
                                       f"probes it anyway)")
        rows.append(row)
    listed_urls = {r["port"] for r in rows}
    for url, c in kept.items():
        if url in listed_urls:
            continue
        why = {"usb": f"USB id {c.vid:04x}:{c.pid:04x} is in the controllers config" if c.vid is not None
               else "found by USB id", "config": "listed in the controllers config",
               "emulated": "a running `bitbox emulate`"}.get(c.source, c.source)
        rows.append({"port": url, "kind": c.kind, "usb": f"{c.vid:04x}:{c.pid:04x}" if c.vid is not None else None,
                     "serial_number": c.serial_number, "description": c.description, "kept": c.kind != "sim",
                     "why": why if c.kind != "sim" else "simulated: exists only inside a hub"})
    if wanted and not any(r.get("kept") for r in rows):
        rows.append({"port": None, "kept": False,
                     "why": "no device with the USB ids " + ", ".join(f"{v:04x}:{p:04x}" for v, p in sorted(wanted))})
    return rows


def _probe(rows: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
    from .discovery import probe
    targets = [r["port"] for r in rows if r.get("kept")]
    if not targets:
        return []
    with ThreadPoolExecutor(max_workers=min(8, len(targets))) as pool:
        results = list(pool.map(lambda u: probe(u, timeout=timeout), targets))
    out = []
    for url, r in zip(targets, results):
        if r.info is not None:
            i = r.info
            out.append({"port": url, "hello": {"controller": f"{i.controller_id:016x}",
                                               "protocol": "%d.%d" % i.protocol, "firmware": i.firmware,
                                               "positions": list(i.positions), "leds": i.has_leds,
                                               "lock": i.has_lock}})
        else:
            out.append({"port": url, "hello": None, "error": r.error})
    return out


def _links(config: Any, listen: float) -> list[dict[str, Any]]:
    """Open the kept ports through a hub and listen: its counters per link."""
    import logging

    from .hub import Hub
    from .safetext import printable
    quiet = logging.getLogger("bitbox.hub")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)              # what it would warn about is in the file
    hub = Hub(config=config)
    try:
        hub.scan()
        hub.start()
        deadline = time.monotonic() + listen
        while time.monotonic() < deadline:
            hub.poll(timeout=0.05)
        return [{"port": l.port, "kind": l.kind, "state": l.state,
                 "controller": f"{l.controller_id:016x}" if l.controller_id is not None else None,
                 "frames": l.frames, "bad_frames": l.bad_frames, "unknown_messages": l.unknown_messages,
                 "last_frame_age_s": None if l.last_frame_age is None else round(l.last_frame_age, 3),
                 "last_error": printable(l.last_error, 300) if l.last_error else None,
                 "rejected": printable(l.rejected, 300) if l.rejected else None}
                for l in hub.links()]
    finally:
        hub.close()
        quiet.setLevel(level)


def collect(config_path: str | None = None, listen: float = 2.0, timeout: float = 1.0) -> dict[str, Any]:
    """Everything :mod:`bitbox.diagnose` writes, as one JSON-ready dict."""
    from .discovery import runtime_dir
    checks, config = _config_checks(config_path)
    ports = _ports(config)
    report: dict[str, Any] = {
        "written": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "version": _versions(),
        "runtime_dir": str(runtime_dir()),
        "config": checks,
        "ports": ports,
        "controllers": _probe(ports, timeout),
    }
    report["links"] = _links(config, listen)
    return report


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or argparse.ArgumentParser(prog="bitbox diagnose", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", metavar="FILE", help="where to write it (default bitbox-diagnose-<UTC time>.json)")
    parser.add_argument("--listen", type=float, default=2.0, metavar="S",
                        help="seconds to listen to the controllers for their counters (default 2)")
    parser.add_argument("--config", metavar="FILE", help="controllers config (default config/controllers.yaml)")
    parser.add_argument("--timeout", type=float, default=1.0, metavar="S",
                        help="seconds to wait for each controller's Hello (default 1; a controller that "
                             "answers is not waited for longer)")
    return parser


def run(args: argparse.Namespace) -> int:
    import math
    if not (math.isfinite(args.listen) and 0 <= args.listen <= 60):
        print(f"bitbox diagnose: --listen expects 0 to 60 seconds, not {args.listen}", file=sys.stderr)
        return exitcodes.USAGE
    if not (math.isfinite(args.timeout) and 0 < args.timeout <= 60):
        print(f"bitbox diagnose: --timeout expects more than 0 and at most 60 seconds, not {args.timeout}",
              file=sys.stderr)
        return exitcodes.USAGE
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = Path(args.out) if args.out else Path(f"bitbox-diagnose-{stamp}.json")
    try:
        from .console import refuse_unread_pipe
        refuse_unread_pipe(str(out))                # a pipe nobody reads would block the open below
        with open(out, "a", encoding="utf-8"):
            pass                                    # can it be written, before listening?
    except OSError as exc:
        print(f"bitbox diagnose: {out}: cannot be written: {exc.strerror or exc}", file=sys.stderr)
        return exitcodes.USAGE
    report = collect(args.config, listen=args.listen, timeout=args.timeout)
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    kept = sum(1 for p in report["ports"] if p.get("kept"))
    answered = sum(1 for c in report["controllers"] if c["hello"] is not None)
    print(f"bitbox diagnose: wrote {out} ({kept} ports kept, {answered} controllers answered); attach it to "
          f"your bug report", file=sys.stderr)
    return exitcodes.OK


__all__ = ["build_parser", "collect", "run"]

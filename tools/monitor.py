"""`bitbox monitor PORT`: print every message a controller sends, live.

    bitbox monitor /dev/ttyACM0                 # human-readable lines
    bitbox monitor /dev/ttyACM0 --json          # one JSON object per message per line
    bitbox monitor hid:///dev/hidraw3 --count 20 --seconds 10 --game outspeed

By default the monitor is a minimal host: it asks the controller to introduce itself
(HostHello) and welcomes it, so the controller starts reporting its wheels (a controller
sends State only once welcomed). ``--passive`` only listens (e.g. on a ``spy://`` line or a
controller another host already welcomed). Bad frames are counted and shown as they happen.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import firmware_protocol as fp
from firmware_protocol.handshake import host_welcome

from bitbox import exitcodes
from bitbox.config import ConfigError
from bitbox.safetext import printable
from bitbox.transports import Transport, TransportError, Unplugged, open_url

__all__ = ["monitor", "describe", "message_dict", "main"]

_CAPS = ((fp.Capability.PATH_LIGHTS, "path-lights"), (fp.Capability.COLOUR_LED, "colour-led"),
         (fp.Capability.LOCK_SWITCH, "lock"), (fp.Capability.STOP_LIGHTS, "stop-lights"))


def message_dict(message: Any) -> dict[str, Any]:
    """A message as a JSON-able dict: its type and fields."""
    out: dict[str, Any] = {"type": type(message).__name__}
    for f in dataclasses.fields(message):
        value = getattr(message, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def describe(message: Any, wheel_map: Any = None) -> str:
    """One human-readable line for a message."""
    t = type(message)
    if t is fp.State:
        def show(wheel: str, pos: int) -> str:
            if wheel_map is None:
                return str(pos)
            meaning = wheel_map.meaning(wheel, pos)
            return f"{pos}({meaning})" if meaning is not None else f"{pos}(-)"
        lock = "locked" if message.locked else "open"
        return (f"L={show('left', message.left)} C={show('centre', message.centre)} "
                f"R={show('right', message.right)} {lock:<6} seq={message.seq}")
    if t is fp.Hello:
        caps = ",".join(name for bit, name in _CAPS if message.capabilities & bit) or "none"
        return (f"controller {message.controller_id:#018x}  protocol {message.protocol_major}."
                f"{message.protocol_minor}  firmware {'.'.join(map(str, message.firmware_version))}  "
                f"wheels {'/'.join(map(str, message.positions))}  caps {caps}")
    if t is fp.ErrorReport:
        try:
            code = fp.ErrorCode(message.code).name
        except ValueError:
            code = str(message.code)
        return f"{code}: {printable(message.text)}"       # the device chose every byte of it
    fields = message_dict(message)
    fields.pop("type")
    return " ".join(f"{k}={v}" for k, v in fields.items())


def monitor(url: str, *, as_json: bool = False, count: int | None = None, seconds: float | None = None,
            passive: bool = False, wheel_map: Any = None, out: TextIO | None = None,
            opener: Callable[[str], Transport] = open_url, clock: Callable[[], float] = time.monotonic) -> dict:
    """Sniff ``url`` until ``count`` messages or ``seconds`` (or Ctrl-C). Returns a summary:
    messages, bad_frames, unknown_messages, states, and why it stopped."""
    out = sys.stdout if out is None else out          # the stdout of the call, not of the import
    transport = opener(url)
    decoder = transport.decoder()
    start = clock()
    messages = states = 0
    bad_seen = 0
    stopped = "done"

    def emit(obj: dict[str, Any], text: str) -> None:
        if as_json:
            out.write(json.dumps(obj) + "\n")
        else:
            out.write(f"{obj['t']:9.3f}  {obj['type']:<12} {text}\n")
        out.flush()

    def send(message: Any) -> None:
        try:
            transport.write(transport.frame(message))
        except Unplugged:
            raise
        except TransportError as exc:             # e.g. a controller not reading: say so, go on
            print(f"bitbox monitor: {exc}", file=sys.stderr)

    try:
        if not passive:
            send(fp.HostHello())
        while True:
            now = clock()
            if seconds is not None and now - start >= seconds:
                break
            if count is not None and messages >= count:
                break
            try:
                data = transport.read()
            except TransportError as exc:
                stopped = f"unplugged: {exc}"
                break
            if not data:
                continue
            batch = decoder.feed(data)
            t = round(clock() - start, 4)
            if decoder.bad_frames != bad_seen:
                new = decoder.bad_frames - bad_seen
                bad_seen = decoder.bad_frames
                emit({"t": t, "type": "BadFrames", "new": new, "bad_frames": bad_seen},
                     f"+{new} (total {bad_seen})")
            for message in batch:
                if count is not None and messages >= count:
                    break
                messages += 1
                if type(message) is fp.State:
                    states += 1
                obj = message_dict(message)
                obj["t"] = t
                obj["bad_frames"] = decoder.bad_frames
                emit(obj, describe(message, wheel_map))
                if not passive and type(message) is fp.Hello:
                    send(host_welcome(message))
    except KeyboardInterrupt:
        stopped = "interrupted"
    except Unplugged as exc:
        stopped = f"unplugged: {exc}"
    finally:
        transport.close()
    return {"messages": messages, "states": states, "bad_frames": decoder.bad_frames,
            "unknown_messages": decoder.unknown_messages, "seconds": round(clock() - start, 3),
            "stopped": stopped}


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or argparse.ArgumentParser(prog="bitbox monitor", description=__doc__.split("\n\n")[0])
    parser.add_argument("port", help="device path, pyserial URL (socket://, spy://...), hid://<path>, or a "
                        "controller id (16 hex digits, or their first or last 4+) to find")
    parser.add_argument("--json", action="store_true", help="one JSON object per message per line")
    parser.add_argument("--count", type=int, metavar="N", help="stop after N messages")
    parser.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds")
    parser.add_argument("--passive", action="store_true", help="only listen: send no HostHello / Welcome")
    parser.add_argument("--game", metavar="GAME", help="show what the positions mean (config/wheels.yaml)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


def run(args: argparse.Namespace) -> int:
    wheel_map = None
    if args.game:
        from bitbox.wheels import load_wheel_map
        try:
            wheel_map = load_wheel_map(game=args.game)
        except ConfigError as exc:
            print(f"bitbox monitor: {exc}", file=sys.stderr)
            return exitcodes.USAGE
    from bitbox.discovery import resolve_port
    try:
        port = resolve_port(args.port)
    except LookupError as exc:
        print(f"bitbox monitor: {exc}", file=sys.stderr)
        return exitcodes.NO_DEVICE
    try:
        summary = monitor(port, as_json=args.json, count=args.count, seconds=args.seconds,
                          passive=args.passive, wheel_map=wheel_map)
    except TransportError as exc:
        print(f"bitbox monitor: {exc}", file=sys.stderr)
        return exitcodes.NO_DEVICE
    print(f"bitbox monitor: {summary['messages']} messages ({summary['states']} State), "
          f"{summary['bad_frames']} bad frames, {summary['unknown_messages']} unknown, "
          f"{summary['seconds']} s; {summary['stopped']}", file=sys.stderr)
    return exitcodes.DEVICE_LOST if summary["stopped"].startswith("unplugged") else exitcodes.OK


if __name__ == "__main__":
    sys.exit(main())

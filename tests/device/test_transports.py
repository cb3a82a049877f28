"""Serial transport: device paths (real pseudo-terminals) and pyserial URLs; open errors."""
from __future__ import annotations

import errno
import os
import socket
import threading
import time
import tty

import pytest

import firmware_protocol as fp
from bitbox.transports import READ_TIMEOUT, OpenError, TransportError, Unplugged, open_url
from bitbox.transports.memory import BytePipe
from bitbox.transports.serial import SerialTransport, _open_message


def read_until(transport, n, timeout=2.0):
    data = b""
    deadline = time.monotonic() + timeout
    while len(data) < n and time.monotonic() < deadline:
        data += transport.read()
    return data


def test_loop_url_round_trip():
    t = open_url("loop://")
    try:
        frame = t.frame(fp.Ping(77))
        t.write(frame)
        assert t.decoder().feed(read_until(t, len(frame))) == [fp.Ping(77)]
        assert t.fileno is None                      # URL handlers take pyserial's read path
    finally:
        t.close()


def test_pty_reads_everything_at_once_and_times_out(pty_pair):
    master, path = pty_pair
    t = open_url(path)
    try:
        assert isinstance(t, SerialTransport) and t.fileno is not None   # the one-read fast path
        spent = []                                   # each read waits; the best of three (a busy
        for _ in range(3):                           # machine may run this thread late once) returns
            started = time.monotonic()               # soon after the timeout
            assert t.read() == b""
            spent.append(time.monotonic() - started)
        assert READ_TIMEOUT * 0.5 <= min(spent) and min(spent) < READ_TIMEOUT * 5
        frames = fp.encode(fp.State(1, 2, 3, False, 1)) + fp.encode(fp.State(1, 2, 4, True, 2))
        os.write(master, frames)
        assert t.decoder().feed(read_until(t, len(frames))) == [fp.State(1, 2, 3, False, 1),
                                                               fp.State(1, 2, 4, True, 2)]
        t.write(b"host->controller")
        time.sleep(0.05)
        assert os.read(master, 100) == b"host->controller"
    finally:
        t.close()


@pytest.mark.parametrize("url", ["{path}", "spy://{path}?file=/dev/null"])
def test_a_pulled_pty_is_unplugged_not_an_endless_empty_read(url):
    master, slave = os.openpty()                      # not the fixture: this test closes both ends
    tty.setraw(slave)
    t = open_url(url.format(path=os.ttyname(slave)))
    try:
        os.write(master, b"abc")
        assert read_until(t, 3) == b"abc"
        os.close(master)                              # the cable is pulled
        os.close(slave)
        empty = []                                    # reads that returned nothing before the error
        with pytest.raises(Unplugged):
            for _ in range(20):
                empty.append(t.read())
        assert len(empty) <= 5                        # (one that waited its timeout, on a busy machine)
    finally:
        t.close()


def test_close_wakes_a_blocked_reader(pty_pair):
    _, path = pty_pair
    spent = []
    for _ in range(3):                                # the best of three: a busy machine may run it late once
        t = open_url(path)
        outcome = []

        def reader(t=t, outcome=outcome):
            try:
                while True:
                    t.read()
            except Unplugged as exc:
                outcome.append(exc)

        th = threading.Thread(target=reader)
        th.start()
        time.sleep(0.05)
        started = time.monotonic()
        t.close()
        th.join(10)
        spent.append(time.monotonic() - started)
        assert not th.is_alive() and outcome
        t.close()                                     # twice is fine
    assert min(spent) < 0.5


def test_socket_url_and_its_disconnect():
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    t = open_url(f"socket://127.0.0.1:{port}")
    conn, _ = server.accept()
    try:
        frame = fp.encode(fp.Pong(9))
        conn.sendall(frame)
        assert t.decoder().feed(read_until(t, len(frame))) == [fp.Pong(9)]
        conn.close()
        with pytest.raises(Unplugged):
            for _ in range(20):
                t.read()
    finally:
        t.close()
        server.close()


def test_open_errors_say_what_to_do(pty_pair):
    with pytest.raises(OpenError, match="no such device"):
        open_url("/dev/ttyACM-does-not-exist")
    with pytest.raises(OpenError, match="nosuch://x"):
        open_url("nosuch://x")
    with pytest.raises(OpenError, match="created by the hub"):
        open_url("sim://")
    _, path = pty_pair
    first = open_url(path)
    try:
        with pytest.raises(OpenError, match="in use by another program"):
            open_url(path)
    finally:
        first.close()
    denied = _open_message("/dev/ttyACM0", OSError(errno.EACCES, "Permission denied"))
    assert "permission denied" in denied and "dialout" in denied and "bitbox udev-rules" in denied


def test_byte_pipe_blocks_then_overruns_and_reports_closing():
    pipe = BytePipe(capacity=8, write_timeout=0.01)
    assert pipe.write(b"12345") == 5
    assert pipe.write(b"6789", block=False) == 3 and pipe.overruns == 1
    assert pipe.read(0) == b"12345678"
    assert pipe.read(0.01) == b""
    pipe.write(b"x")
    pipe.close()
    assert pipe.read(0) == b"x"                       # what was sent before the pull arrives
    with pytest.raises(Unplugged):
        pipe.read(0)
    with pytest.raises(Unplugged):
        pipe.write(b"y")


def test_a_write_the_line_took_is_never_a_timeout_however_late_the_thread_runs(pty_pair, monkeypatch):
    """pyserial checks its write deadline after each successful write: on a busy machine a thread
    that runs late reports a write that went out as timed out, and the hub then drops a second of
    commands to that controller (a ChoiceRefused lost under load). Here every look at pyserial's
    clock is a second after the one before, as for a thread always run late."""
    import serial.serialutil
    master, path = pty_pair
    t = open_url(path)
    try:
        ticks = iter(range(10_000))
        start = time.monotonic()
        monkeypatch.setattr(serial.serialutil.Timeout, "TIME", staticmethod(lambda: start + next(ticks)))
        t.write(b"host->controller")
        assert os.read(master, 100) == b"host->controller"
    finally:
        t.close()


def test_a_write_to_a_controller_that_never_reads_times_out(pty_pair):
    master, path = pty_pair
    t = open_url(path)
    try:
        with pytest.raises(TransportError, match="write timed out"):
            for _ in range(10_000):                  # until the line's buffer is full (bounded)
                t.write(bytes(4096))
    finally:
        t.close()

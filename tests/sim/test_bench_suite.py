"""The benchmark suite's plumbing (not its figures: benchmarks are never timed assertions)."""
from __future__ import annotations

import pytest

from bitbox_tools.bench import suite


def test_missing_parts_give_not_available_rows(monkeypatch):
    real = suite._import
    monkeypatch.setattr(suite, "_import", lambda m: (None, f"{m} is not written yet") if "device" in m else real(m))
    (row,) = suite.device_rows(quick=True)
    assert row.figure == "not available: bitbox_tools.bench.device is not written yet"
    assert row.result == "n/a"
    mod, why = suite._import("bitbox_tools.bench.no_such_bench")
    assert mod is None and why == "bitbox_tools.bench.no_such_bench is not written yet"


def test_device_results_are_read_per_mode():
    def mode(p50, p99, b50, b99):
        return {"baseline": {"n": 100, "p50_ms": b50, "p99_ms": b99, "missing": 0},
                "hub": {"n": 100, "p50_ms": p50, "p99_ms": p99, "missing": 0},
                "added_p50_ms": p50 - b50, "added_p99_ms": p99 - b99}
    rows = suite.device_result_rows({"idle": mode(0.2, 0.6, 0.1, 0.3), "busy": mode(0.4, 2.0, 0.1, 0.5),
                                     "render_ms": 7.5, "fps": 59.8}, "device", "added p99 < 1 ms")
    assert [r.name for r in rows] == ["device (idle)", "device (while rendering)"]
    assert [r.result for r in rows] == ["PASS", "FAIL"]
    assert "added p99 0.300 ms" in rows[0].note and "render 7.5 ms" in rows[1].note
    (bad,) = suite.device_result_rows({"idle": {"latency": 3}}, "device", "t")
    assert bad.figure.startswith("not available: unrecognised result (latency)")
    (none,) = suite.device_result_rows({}, "device", "t")
    assert none.figure.startswith("not available")


def test_kwargs_passes_only_what_a_function_accepts():
    def run(seconds=1.0, frames=10):
        return seconds, frames
    assert suite._kwargs(run, {"seconds": 0.5, "quick": True}) == {"seconds": 0.5}
    assert suite._kwargs(lambda **kw: kw, {"quick": True}) == {"quick": True}


def test_summary_table_has_every_column():
    rows = [suite.Row("engine", "1,000 games/s", "9,000 games/s", "0.111", ">= 2,000 games/s", False),
            suite.not_available("device", "not written yet", "added p99 < 1 ms")]
    text = suite.summary_table(rows).splitlines()
    assert [c.strip() for c in text[0].split("|")[1:-1]] == ["benchmark", "figure", "baseline", "ratio",
                                                             "target", "result"]
    assert len({len(line) for line in text}) == 1
    assert "FAIL" in text[2] and "n/a" in text[3] and "not available: not written yet" in text[3]


def test_unknown_section_is_an_error(capsys):
    with pytest.raises(SystemExit) as exc:
        suite.main(["--only", "engine,warp"])
    assert exc.value.code == 2
    assert "unknown section 'warp'" in capsys.readouterr().err


def test_engine_section_runs_quickly_and_fills_its_row(monkeypatch):
    from bitbox_tools.bench import engine
    real = engine.run
    monkeypatch.setattr(engine, "run", lambda seconds=1.0, players=6: real(seconds=0.15, players=players))
    (row,) = suite.engine_rows(quick=True)
    assert row.value > 0 and row.baseline_value > row.value
    assert row.figure.endswith("games/s") and row.target == ">= 2,000 games/s" and row.ok in (True, False)


def test_instruction_counts_make_a_row_or_say_why(monkeypatch):
    from bitbox_tools.bench import engine
    monkeypatch.setattr(engine, "run", lambda seconds=1.0, players=6: {
        "games_per_s": 1000.0, "baseline_games_per_s": 9000.0, "ratio": 0.111, "ms_per_game": 1.0, "games": 10})
    monkeypatch.setitem(suite.INSTRUCTIONS, "against", "f7bfeb9")
    monkeypatch.setattr(engine, "print_instructions", lambda rev, games, players=6: (2_690_000.0, 2_700_000.0))
    row, _ = suite.engine_rows(quick=True)
    assert row.result == "PASS" and row.figure == "2,690,000" and row.baseline == "2,700,000 (f7bfeb9)"

    def fails(rev, games, players=6):
        raise RuntimeError("valgrind is not installed")
    monkeypatch.setattr(engine, "print_instructions", fails)
    row, _ = suite.engine_rows(quick=True)
    assert row.figure == "not available: valgrind is not installed" and row.result == "n/a"


def test_an_unknown_revision_is_one_line(capsys):
    from bitbox_tools.bench import engine
    assert engine.main(["--instructions", "no-such-revision-xyz", "--seconds", "0.1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("engine: instructions not counted: ")
    assert "no-such-revision-xyz" in err[0] or "git checkout" in err[0]


def test_startup_without_valgrind_is_one_line(monkeypatch, tmp_path, capsys):
    from bitbox_tools.bench import startup
    monkeypatch.setenv("PATH", str(tmp_path))              # no valgrind (nor anything else) on it
    assert startup.main(["--instructions", "f7bfeb9"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["startup: not compared with f7bfeb9: valgrind is not installed (apt-get install valgrind): "
                   "no instruction count"]
    row, = suite.startup_instruction_rows("f7bfeb9", quick=True)
    assert row.figure.startswith("not available: valgrind is not installed") and row.result == "n/a"


def test_startup_unknown_revision_is_one_line(capsys):
    from bitbox_tools.bench import startup
    assert startup.main(["--instructions", "no-such-revision-xyz"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("startup: not compared with no-such-revision-xyz: ")


def test_startup_comparison_makes_rows(monkeypatch):
    from bitbox_tools.bench import startup
    figures = {"now": {"instructions": 1_700_000_000, "calls": 270_000, "cpu_ms": 280.0, "wall_ms": 450.0},
               "before": {"instructions": 1_800_000_000, "calls": 480_000, "cpu_ms": 290.0, "wall_ms": 440.0},
               "rev": "f7bfeb9", "runs": 4, "load": (1.0, 1.0, 1.0)}
    monkeypatch.setattr(startup, "compare", lambda rev, runs=10: figures)
    assert suite.startup_instruction_rows(None, quick=True) == []
    instructions, calls, cpu = suite.startup_instruction_rows("f7bfeb9", quick=True)
    assert instructions.figure == "1,700,000,000" and instructions.baseline == "1,800,000,000 (f7bfeb9)"
    assert instructions.result == "PASS" and calls.result == "PASS"
    assert cpu.figure == "280 ms" and cpu.result == "n/a"          # times move with the load: no verdict


def test_a_section_that_raises_is_one_line_a_fail_row_and_exit_1(tmp_path):
    """Issue 21, item 9: a section that raises (a bug of the suite, not a missing part) is one
    line naming it on stderr, a FAIL row, no traceback, the other sections still run, and the
    suite exits 1. A real `python -m bitbox_tools.bench` process, one section made to raise."""
    import json
    import subprocess
    import sys
    code = ("import sys\n"
            "from bitbox_tools.bench import suite\n"
            "def broken(quick):\n"
            "    'a section with a bug'\n"
            "    raise KeyError('frames_per_s')\n"
            "def fine(quick):\n"
            "    'a section that works'\n"
            "    return [suite.Row('fine: a figure', figure='1 thing/s', target='>= 1', ok=True)]\n"
            "suite.SECTIONS.update(codec=broken, device=fine)\n"
            "sys.argv[0] = 'bench'\n"
            "from bitbox.console import run_main\n"
            "sys.exit(run_main(lambda: suite.main(['--only', 'codec,device', '--json', sys.argv[1]])))\n")
    out = tmp_path / "rows.json"
    r = subprocess.run([sys.executable, "-c", code, str(out)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr + r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2 and "the codec section failed (KeyError: 'frames_per_s' at" in lines[0], r.stderr
    assert lines[1].endswith("1 section failed: codec")
    rows = {row["name"]: row for row in json.loads(out.read_text())}
    assert rows["codec"]["result"] == "FAIL" and rows["fine: a figure"]["result"] == "PASS"
    assert "fine: a figure" in r.stdout                       # the next section still ran

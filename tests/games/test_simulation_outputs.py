"""The console's simulation outputs (bitbox.simulation): the Wilson interval against published
values, rates in tables, games.csv, the chart helpers (read back from matplotlib's objects),
and the progress bar on a pipe and on a real pseudo-terminal."""
from __future__ import annotations

import csv
import io
import os
import pty
import select
from pathlib import Path

import pytest

from bitbox.simulation.charts import SMALL_HATCH, counts_from_zero, pyplot, rate_bars, whole_turns
from bitbox.simulation.gamelog import Column, GameLog, common_columns, seat_columns, seat_numbers
from bitbox.simulation.progress import Progress
from bitbox.simulation.rates import SMALL_SAMPLE, Rate, rate_of, wilson
from bitbox.simulation.report import ci, rate


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics in
# Medicine 17: 857-872, table I, method 3 (Wilson score, no continuity correction); and
# textbook cases (5/10, 0/10, 10/10).
@pytest.mark.parametrize("successes,n,low,high", [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_matches_published_values(successes: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(successes, n)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_wilson_stays_inside_0_1_and_narrows_with_more_games() -> None:
    assert wilson(0, 1) == (0.0, pytest.approx(0.7935, abs=1e-4))
    assert wilson(1, 1)[1] == 1.0
    assert wilson(2, 10) < wilson(2.5, 10) < wilson(3, 10)              # a shared win counts 1/k
    widths = [wilson(n / 4, n)[1] - wilson(n / 4, n)[0] for n in (10, 100, 1000)]
    assert widths == sorted(widths, reverse=True)
    for bad in ((1, 0), (-1, 5), (6, 5)):
        with pytest.raises(ValueError):
            wilson(*bad)


def test_a_rate_with_nothing_to_count_has_no_value_and_small_samples_are_flagged() -> None:
    none = Rate(0, 0)
    assert none.value is None and none.ci95 is None and none.small
    assert rate(none) == ci(none) == "—"
    assert none.data("win_rate") == {"win_rate": None, "win_rate_ci95": None, "win_rate_n": 0,
                                     "win_rate_small_sample": True}
    small, big = Rate(3, SMALL_SAMPLE - 1), Rate(300, 1000)
    assert small.small and not big.small
    assert rate(small) == f"10.3% (n={SMALL_SAMPLE - 1})" and rate(big) == "30.0%"
    assert ci(big) == "27.2–32.9%"
    row = big.data("x")
    assert row["x_ci95"] == pytest.approx(list(wilson(300, 1000))) and rate_of(row, "x") == big


def test_games_csv_has_a_header_a_row_per_game_and_seats_counted_from_1(tmp_path: Path) -> None:
    columns = [*common_columns(2), Column("end", "why"), *seat_columns(2, [("out", "when seat K went out")])]
    names = [c.name for c in columns]
    assert names == ["game", "seed", "players", "seat1_bot", "seat2_bot", "winners", "winner_colours", "turns",
                     "end", "seat1_out", "seat2_out"]
    assert columns[-1].meaning == "when seat 2 went out"
    log = GameLog(columns)
    log.add({"game": 0, "seed": 12, "players": 2, "seat1_bot": "random", "seat2_bot": "careful",
             "winners": seat_numbers([0.0, 1.0]), "winner_colours": ["blue"], "turns": 7, "end": "the last one alive",
             "seat1_out": 5, "seat2_out": None})
    log.add({"game": 1, "seed": 13, "players": 2, "seat1_bot": "careful", "seat2_bot": "random",
             "winners": seat_numbers([0.5, 0.5]), "winner_colours": ["red", "blue"], "turns": 3, "end": "a, \"b\"",
             "seat1_out": None, "seat2_out": None})
    with pytest.raises(KeyError, match="seat2_out"):
        log.add({"game": 2})
    path = log.write(tmp_path)
    assert path.name == "games.csv" and len(log) == 2
    rows = list(csv.DictReader(path.open(encoding="utf-8", newline="")))
    assert [r["winners"] for r in rows] == ["2", "1 2"]
    assert rows[0]["seat2_out"] == "" and rows[0]["seat1_out"] == "5"
    assert rows[1]["end"] == "a, \"b\""                       # quoted as CSV needs
    with pytest.raises(ValueError, match="duplicate"):
        GameLog([Column("a", ""), Column("a", "")])


def test_rate_bars_draw_intervals_flag_small_samples_and_no_bar_for_nothing_counted() -> None:
    plt = pyplot()
    fig, ax = plt.subplots()
    rates = [Rate(50, 100), Rate(0, 0), Rate(3, 10), Rate(0, 40)]
    bars = rate_bars(ax, [0, 1, 2, 3], rates, "#4c72b0")
    fig.canvas.draw()
    assert [round(b.get_height(), 6) for b in bars] == [50.0, 30.0, 0.0]     # none at x=1
    assert [round(b.get_x() + b.get_width() / 2, 6) for b in bars] == [0, 2, 3]
    assert [b.get_hatch() for b in bars] == [None, SMALL_HATCH, None]
    # the error bars are the Wilson intervals, in %
    segments = [c.lines[2][0].get_segments()[0] for c in ax.containers if hasattr(c, "has_yerr") and c.has_yerr]
    for seg, r in zip(segments, [rates[0], rates[2], rates[3]]):
        lo, hi = r.ci95
        assert seg[0][1] == pytest.approx(100 * lo) and seg[1][1] == pytest.approx(100 * hi)
    texts = {(round(t.get_position()[0], 6), t.get_text()) for t in ax.texts}
    assert (1, "—\nn=0") in texts and (2, "n=10") in texts
    assert not any(x == 0 and s.startswith("n=") for x, s in texts)          # 100 games: not flagged
    assert ax.get_ylim()[0] == 0 and max(ax.get_yticks()) == 100             # a 0-100 % axis
    plt.close(fig)


def test_turn_axes_have_whole_ticks_and_counts_start_at_0() -> None:
    plt = pyplot()
    fig, ax = plt.subplots()
    ax.bar([11, 12, 13], [40, 41, 42])
    whole_turns(ax.xaxis)
    counts_from_zero(ax)
    fig.canvas.draw()
    assert all(float(t).is_integer() for t in ax.get_xticks())
    assert ax.get_ylim()[0] == 0
    plt.close(fig)
    fig, ax = plt.subplots()                                # every game the same length: one bar
    ax.bar([13], [40])
    whole_turns(ax.xaxis)
    fig.canvas.draw()
    assert [float(t) for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]] == [13.0]
    plt.close(fig)


def test_progress_on_a_pipe_is_a_plain_line_per_tenth() -> None:
    out = io.StringIO()
    bar = Progress(20, out)
    for _ in range(20):
        bar.update(1)
    bar.close()
    bar.close()                                             # twice is harmless
    lines = out.getvalue().splitlines()
    assert 10 <= len(lines) <= 11 and all(line.startswith("[") for line in lines)
    assert lines[-1].startswith("[100%] 20/20 games") and "\x1b" not in out.getvalue()


def test_progress_on_a_terminal_is_rich_s_live_bar() -> None:
    master, slave = pty.openpty()
    stream = os.fdopen(slave, "w", encoding="utf-8")
    try:
        bar = Progress(20, stream)
        for _ in range(20):
            bar.update(1)
        bar.close()
        stream.flush()
        data = b""
        while select.select([master], [], [], 0.5)[0]:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            data += chunk
    finally:
        stream.close()
        os.close(master)
    text = data.decode("utf-8", "replace")
    assert "20/20" in text and "100%" in text
    assert "\x1b[?25l" in text and "\x1b[?25h" in text       # cursor hidden while drawing, shown again
    assert "━" in text                                       # rich's bar


def test_every_games_csv_column_is_documented() -> None:
    import re

    from lastonealive.sim.runner import csv_columns as loa_columns
    from outspeed.sim.runner import csv_columns as outspeed_columns
    doc = (Path(__file__).resolve().parents[2] / "docs" / "simulate.md").read_text(encoding="utf-8")
    for columns in (outspeed_columns(3), loa_columns(3)):
        for c in columns:
            name = re.sub(r"^seat\d+_", "seatK_", c.name)
            documented = "`seat1_bot`" if name == "seatK_bot" else f"`{name}`"
            assert documented in doc, c.name

"""The simulation harness (bitbox.simulation): seeds, the worker pool, any cartridge by name."""
from __future__ import annotations

import subprocess
import sys

import pytest

from bitbox.simulation import derive, game_seed, run_indexed
from bitbox.simulation.games import Run, simulate
from bitbox.simulation.pool import chunks
from bitbox.simulation.report import table
from outspeed.sim import game_seed as outspeed_game_seed


class Square:
    """A picklable job."""

    def __call__(self, index: int) -> int:
        return index * index


class Faulty:
    """A picklable job whose game 7 raises, and whose game 9's result cannot be pickled."""

    def __call__(self, index: int) -> object:
        if index == 7:
            raise ValueError("game seven")
        return (lambda: index) if index == 9 else index


class Unsendable:
    def __call__(self, index: int) -> object:
        return (lambda: index) if index == 9 else index


def test_a_failing_job_is_one_error_from_the_worker_never_a_restart_or_a_hang() -> None:
    from bitbox.simulation.pool import WorkerError
    with pytest.raises(WorkerError, match="games 7–7 failed in a worker: ValueError: game seven"):
        list(run_indexed(Faulty(), 40, workers=2))
    with pytest.raises(WorkerError, match="games 9–9 failed in a worker: its results cannot be sent back"):
        list(run_indexed(Unsendable(), 40, workers=2))


def test_seeds_are_stable_and_namespaced() -> None:
    assert game_seed("x", 1, 2) == derive("x", 1, 2) == game_seed("x", 1, 2)
    assert game_seed("x", 1, 2) != game_seed("y", 1, 2)
    assert 0 <= derive("x") < 2**63
    assert outspeed_game_seed(0, 0) == game_seed("outspeed-simulate", 0, 0) == 4596092424416841001  # as before the harness moved


def test_the_pool_yields_in_index_order_for_any_number_of_workers() -> None:
    assert list(run_indexed(Square(), 50, workers=1)) == [i * i for i in range(50)]
    assert list(run_indexed(Square(), 50, workers=2)) == [i * i for i in range(50)]
    assert [b - a for a, b in chunks(1000, 2)] == [25] * 40


def test_any_cartridge_by_name_same_report_for_any_workers() -> None:
    run = Run("outspeed", 24, 3, ("random", "greedy"), seed=5)
    one, two = simulate(run, 1), simulate(run, 2)
    assert one.seat == two.seat and one.bot == two.bot and one.steps == two.steps
    assert sum(w for _, w, _ in one.seat) == pytest.approx(24)      # every game has a winner share
    text = one.report("Outspeed")
    assert "Win rate by seat" in text and "greedy" in text


def test_bad_runs_are_one_line() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        Run("outspeed", 2, 3, ("nobody",)).check()
    run = subprocess.run([sys.executable, "-m", "bitbox.cli", "simulate", "outspeed", "--games", "0"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stderr.strip() == "bitbox simulate: --games must be 1 or more, not 0"


def test_table() -> None:
    # laid out by rich: columns two spaces apart, dashes under the headers, plain ASCII
    assert table(["a", "bb"], [[1, 2], [333, 4]], right=(0,)) == "  a  bb\n---- --\n  1  2\n333  4"
    assert table(["x"], [["[bold]y[/bold]"]]).splitlines()[-1] == "[bold]y[/bold]"     # a cell is never markup

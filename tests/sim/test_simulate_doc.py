"""docs/simulate.md: its programming examples run as written when saved as scripts (worker
processes and all), and a script that forgets `if __name__ == "__main__":` fails once, with
the reason, instead of starting workers forever. Real subprocesses."""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "simulate.md"


def _examples() -> list[str]:
    """The doc's whole-script examples: the code blocks that call simulate(...)."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    return [b for b in blocks if "simulate(SimConfig(" in b]


def _smaller(code: str) -> str:
    """The example as written, with fewer games (the machine running the tests is small)."""
    return re.sub(r"games=\d+", "games=8", code)


def test_the_docs_have_the_two_examples():
    examples = _examples()
    assert [("outspeed.sim" in e, "lastonealive.sim" in e) for e in examples] == [(True, False), (False, True)]
    assert all('if __name__ == "__main__":' in e and "workers=2" in e for e in examples)


@pytest.mark.heavy
@pytest.mark.parametrize("index,folder", [(0, "sim-out"), (1, "loa-out")])
def test_each_example_runs_as_a_script(tmp_path, index, folder):
    script = tmp_path / "study.py"
    script.write_text(_smaller(_examples()[index]), encoding="utf-8")
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "8 games" in r.stdout, r.stdout
    assert (tmp_path / folder / "results.json").is_file()


def test_a_script_without_the_main_guard_fails_once_with_the_reason(tmp_path):
    code = _smaller(_examples()[0])
    head, body = code.split('if __name__ == "__main__":', 1)
    body = body.split("\n", 1)[1]               # the guard's own line (and its comment) dropped
    script = tmp_path / "study.py"
    script.write_text(head + textwrap.dedent(body), encoding="utf-8")
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    errors = [line for line in r.stderr.splitlines() if "WorkerLost:" in line]
    assert len(errors) == 1 and errors == r.stderr.splitlines()[-1:], r.stderr     # one error, the last line
    assert "exited with code 1" in errors[0] and 'if __name__ == "__main__":' in errors[0]
    assert "RuntimeError" not in r.stderr and "bootstrapping" not in r.stderr    # no worker's own traceback
    assert not (tmp_path / "sim-out").exists()

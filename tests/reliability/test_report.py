"""RELIABILITY.md is written from the campaigns' own rows, with the command that reproduces it."""
from __future__ import annotations

import datetime as dt

import pytest

from bitbox_tools import reliability as R


@pytest.mark.heavy
def test_the_report_is_written_from_the_rows(tmp_path):
    results = R.run_campaigns(R.QUICK, tmp_path, ["configs"])
    out = tmp_path / "R.md"
    text = R.write_report(results, R.QUICK, out, command="./dev python -m bitbox_tools.reliability --quick",
                          started=dt.datetime.now().astimezone(), seconds=1.0, workdir=tmp_path)
    assert out.read_text() == text
    assert "| Fault | How it was injected | How many | Outcome | OK |" in text
    assert "`./dev python -m bitbox_tools.reliability --quick`" in text
    assert "Bad tiles.yaml" in text and "**NO**" not in text and str(tmp_path) not in text
    assert all(row.ok for row in results["configs"]["rows"])


def test_the_command_line_refuses_an_unknown_campaign(capsys):
    assert R.main(["--only", "nothing"]) == 2
    assert "unknown campaign" in capsys.readouterr().err


def test_the_report_goes_where_it_is_told_and_never_to_the_committed_one_unless_asked(tmp_path, monkeypatch,
                                                                                     capsys):
    committed = R.REPO / "RELIABILITY.md"
    monkeypatch.chdir(tmp_path)
    assert R.report_target(None, False) == tmp_path / R.DEFAULT_OUT          # the current folder by default
    assert R.report_target(str(tmp_path / "r.md"), False) == tmp_path / "r.md"
    assert R.report_target("-", False) == "-"
    assert R.report_target(None, False, no_report=True) is None
    assert R.report_target(None, True) == committed                          # only when asked
    for bad in (str(committed), str(tmp_path), str(tmp_path / "missing" / "r.md")):
        with pytest.raises(ValueError):
            R.report_target(bad, False)
    before = committed.read_bytes()
    assert R.main(["--only", "configs", "--out", str(committed)]) == 2
    assert "--update-report" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        R.main(["--out", str(tmp_path / "r.md"), "--update-report"])
    assert exc.value.code == 2
    assert committed.read_bytes() == before and not (tmp_path / "r.md").exists()


def test_the_report_names_the_commit_its_figures_come_from(tmp_path, monkeypatch):
    import subprocess
    from bitbox_tools.reliability.report import code_version

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, text=True,
                              timeout=30).stdout.strip()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))     # whatever folder holds it
    assert code_version(tmp_path) == ""                                      # not a checkout
    git("init", "-q")
    (tmp_path / "code.py").write_text("x = 1\n")
    (tmp_path / "RELIABILITY.md").write_text("old figures\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "one")
    head = git("rev-parse", "--short=12", "HEAD")
    assert code_version(tmp_path) == f"commit {head}"
    (tmp_path / "RELIABILITY.md").write_text("new figures\n")               # the report itself: not a change
    (tmp_path / "notes.txt").write_text("untracked\n")
    assert code_version(tmp_path) == f"commit {head}"
    (tmp_path / "code.py").write_text("x = 2\n")
    assert code_version(tmp_path) == f"commit {head} with uncommitted changes"


def test_the_campaigns_find_no_emulator_but_their_own(tmp_path, monkeypatch):
    """A `bitbox emulate` another user runs registers in the shared runtime folder: the run
    uses a runtime folder of its own, so that no campaign seats it (it did: "1 controller +
    4 bots make 5 players")."""
    import os
    from bitbox_tools.reliability import cli
    shared = tmp_path / "shared"
    (shared / f"emulate-{os.getpid()}").mkdir(parents=True)          # a live emulator's folder (this process)
    monkeypatch.setenv("BITBOX_RUNTIME_DIR", str(shared))
    seen = []

    def campaigns(counts, workdir, only, progress):
        from bitbox.discovery import runtime_dir
        seen.append((runtime_dir(), workdir))
        return {}
    monkeypatch.setattr(cli, "run_campaigns", campaigns)
    assert cli.main(["--only", "configs", "--no-report", "--workdir", str(tmp_path / "work")]) == 0
    assert seen == [(tmp_path / "work" / "runtime", tmp_path / "work")]
    assert (tmp_path / "work" / "runtime").is_dir() and not list((tmp_path / "work" / "runtime").iterdir())

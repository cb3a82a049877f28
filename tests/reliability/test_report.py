"""RELIABILITY.md is written from the campaigns' own rows, with the command that reproduces it."""
from __future__ import annotations

import datetime as dt

from bitbox_tools import reliability as R


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

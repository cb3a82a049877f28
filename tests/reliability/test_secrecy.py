"""Secrecy: over random games (hypothesis), everything a spectator can see before a reveal is
the same whatever the hidden choices and the held token types; and the journal, which holds
the secrets, is private on disk."""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitbox.table.session import Session
from bitbox_tools import reliability as R
from outspeed.rules import Choice

from .conftest import assert_rows

games = st.fixed_dictionaries({
    "seed": st.integers(1, 10**6), "players": st.integers(3, 6),
    "token_mode": st.sampled_from(["virtual", "physical"]), "prefix": st.integers(0, 20),
    "shape_seed": st.integers(0, 10**6), "first_game": st.booleans(),
    "want": st.sampled_from(["programming", "bonus", "draw"]),
})


@pytest.mark.heavy
@settings(max_examples=R.TEST_COUNTS["secrecy_hypothesis_examples"], deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_what_a_spectator_sees_before_a_reveal_does_not_depend_on_hidden_things(params):
    if params["want"] == "draw":
        params = {**params, "token_mode": "virtual"}        # physical draws happen off the table
    result = R.secrecy_pair(**params)
    assert result["difference"] is None, (params, result)


def test_the_comparison_would_see_a_leak(monkeypatch):
    """The property is not vacuous: a referee that showed a locked-in path on the status
    line would be caught."""
    original = Session.statuses

    def leaky(self):
        choices = {p: a for p, a in self.answers.items() if isinstance(a, Choice)}
        return tuple(dataclasses.replace(st, status=f"ready {choices[st.player].path}") if st.player in choices else st
                     for st in original(self))

    monkeypatch.setattr(Session, "statuses", leaky)
    found = [R.secrecy_pair(seed=s, players=5, token_mode="virtual", prefix=0, shape_seed=s)["difference"]
             for s in range(1, 6)]
    assert any(found)


@pytest.mark.heavy
def test_the_campaign_compares_many_snapshots_and_the_journal_is_private(tmp_path):
    rows = R.campaign_secrecy(tmp_path, games=R.TEST_COUNTS["secrecy_games"], seed=5)
    assert_rows(rows)
    assert int(rows[0].count.split()[0]) >= 20


@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_journal_and_its_side_file_are_owner_only(tmp_path, umask):
    privacy = R.journal_privacy(tmp_path)[f"umask {umask:03o}"]
    assert privacy == {"folder": "0o700", "file": "0o600", "side file": "0o600",
                       "existing 0644 file, reopened": "0o600"}

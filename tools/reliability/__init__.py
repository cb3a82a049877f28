"""Reliability and security campaigns: inject the faults, count, and write RELIABILITY.md.

    python -m bitbox_tools.reliability                  # the full counts (a few minutes)
    python -m bitbox_tools.reliability --quick          # small counts (what tests/reliability runs)
    python -m bitbox_tools.reliability --only crash,fuzz --out /tmp/R.md
    python -m bitbox_tools.reliability --update-report  # rewrite the committed RELIABILITY.md

The report goes to ``--out FILE`` (``-``: standard output), by default to
``reliability-report.md`` in the current folder; only ``--update-report`` writes the
repository's RELIABILITY.md.

Each campaign breaks something on purpose, the way it breaks at a table, and checks the
outcome against a run where nothing broke:

* ``faults``: a whole 6-player game over emulated controllers (``bitbox emulate`` in its own
  process, the reference firmware on pseudo-terminals, the hub reading them with pyserial)
  with bit errors on 1 % of the bytes, dropped frames, duplicated frames, 100+ random
  disconnect/reconnect events and controller resets mid-turn. The game must end exactly as
  the fault-free game with the same seed and the same (bot) choices, and every wheel state
  the hub accepted must be one the firmware really sent (the emulator's ``--trace``).
* ``rogues``: a game whose hub also holds misbehaving devices: a garbage flood, valid
  frames at 10x the heartbeat rate, a clone of a player's controller id, a controller of a
  newer protocol major. Each must be contained and named in the log; the game must end as
  the fault-free one.
* ``controllers``: hostile controllers at a table, in this process on pseudo-terminals: a clone
  while the real controller is only silent, a seated controller reflashed to protocol 2.0, an
  ErrorReport flood forging log lines, a bonus-phase lock on a stop the wheel map does not list.
* ``crash``: ``outspeed play`` killed with SIGKILL at random points (at random times, inside
  a journal transaction, mid-resolution, between commit and effect, while finishing), then
  ``outspeed play --resume``: the game must end exactly as the uninterrupted one.
* ``crash_loa``: the same for ``lastonealive play --headless --speed 0`` at odd moments of a
  turn (after a setup placement, a roll, a re-roll, one shot of a chain; between two locks of
  one answer; in a transaction; while finishing).
* ``journals``: corrupt, foreign and tampered journal files, files that are not ours, a bad
  ``--snapshots``: one clear line, exit 2, no traceback, nothing touched.
* ``configs``: bad config files through their commands: exit 2 and file / entry / field.
* ``fuzz``: 1,000,000 random and corrupted inputs through every decoder: zero exceptions.
* ``bounds``: endless garbage, undelimited streams, floods: buffers and queues stay bounded.
* ``secrecy``: random games played twice with different hidden choices: what a spectator
  can see before a reveal is identical; the journal is private (0600 in a 0700 folder); the
  seed of a game is a secret until its end; refused tries of a private choice show nowhere.
* ``refusals``: both games on protocol 1.1 controllers whose bots lock stops outside their
  Hint: each refused with a ChoiceRefused, none applied, every game ends.

The package has one module per campaign family (``faults``, ``rogues``, ``controllers``,
``crash``, ``journals``, ``configs``, ``fuzz``, ``bounds``, ``secrecy``), a shared ``core``
(counts, report rows, process and journal helpers), ``games`` (whole games over emulated
controllers, seated by :mod:`bitbox.table.seating`), ``report`` (running and the report) and
``cli``. Internal subcommands (used by the campaigns): ``kill-run`` runs ``outspeed play`` (or
``--game lastonealive``) with a SIGKILL armed at a chosen point; ``refusal-run`` plays a game on
protocol 1.1 controllers whose bots try wrong stops; ``rogues`` hosts misbehaving devices on
pseudo-terminals.
"""
from __future__ import annotations

from .core import CampaignError, FULL, PY, QUICK, REPO, Row, TEST_COUNTS, capture_logs
from .games import EmulatorProcess, GameRun, emulated_game, same_game
from .faults import BER, campaign_faults
from .rogues import ROGUES, RogueProcess, campaign_rogues, rogue_main
from .controllers import controller_rows
from .crash import (KILL_KINDS, LOA_KILL_WHAT, _kill_and_resume,  # noqa: F401 (tests call R._kill_and_resume)
                    campaign_crash, campaign_crash_loa, crash_points, crash_reference, kill_run_main,
                    loa_crash_points, stopped_then_resumed)
from .refusals import campaign_refusals, refusal_run_main
from .journals import base_journals, campaign_journals, files_not_ours, snapshots_checked_first
from .configs import CONFIG_CASES, ConfigCase, alias_bomb, campaign_configs, config_case_result
from .fuzz import campaign_fuzz
from .bounds import campaign_bounds
from .secrecy import campaign_secrecy, journal_privacy, refused_tries_private, secrecy_pair, seed_secrecy
from .report import CAMPAIGNS, SECTIONS, run_campaign, run_campaigns, table_lines, write_report
from .cli import DEFAULT_OUT, main, report_target

__all__ = [
    "CampaignError", "FULL", "PY", "QUICK", "REPO", "Row", "TEST_COUNTS", "capture_logs", "EmulatorProcess",
    "GameRun", "emulated_game", "same_game", "BER", "campaign_faults", "ROGUES", "RogueProcess",
    "campaign_rogues", "rogue_main", "controller_rows", "KILL_KINDS", "campaign_crash", "crash_points",
    "crash_reference", "kill_run_main", "stopped_then_resumed", "LOA_KILL_WHAT", "campaign_crash_loa",
    "loa_crash_points", "campaign_refusals", "refusal_run_main", "base_journals", "campaign_journals",
    "files_not_ours", "snapshots_checked_first", "CONFIG_CASES", "ConfigCase", "alias_bomb",
    "campaign_configs", "config_case_result", "campaign_fuzz", "campaign_bounds", "campaign_secrecy",
    "journal_privacy", "refused_tries_private", "secrecy_pair", "seed_secrecy", "CAMPAIGNS", "SECTIONS",
    "run_campaign", "run_campaigns", "table_lines", "write_report", "DEFAULT_OUT", "main", "report_target",
]

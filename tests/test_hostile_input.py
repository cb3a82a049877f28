"""Hostile files and arguments (issue 13, items 13-16 and 19; issue 10's one YAML loader):
each through its real command in a subprocess, which must exit 2 with one line naming what
was wrong, and no traceback."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import bitbox.config as bc
from bitbox.config import ConfigError, load_yaml, parse_yaml
from bitbox.testing.commands import one_line_error as assert_usage_error
from bitbox_tools.reliability import alias_bomb


def run(module: str, *args: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


# --------------------------------------------------------------------------- one loader

def test_one_config_error_class_and_one_loader_for_console_and_game():
    import outspeed.content
    import outspeed.scenario
    import bitbox.table.config
    assert outspeed.content.ConfigError is bc.ConfigError
    assert outspeed.content.load_yaml is outspeed.scenario.load_yaml is bitbox.table.config.load_yaml is bc.load_yaml


def test_a_key_given_twice_is_refused_in_the_consoles_files_too(tmp_path):
    from bitbox.controllers import load_controllers_config
    from bitbox.wheels import load_wheel_map
    wheels = tmp_path / "wheels.yaml"
    wheels.write_text("games:\n  outspeed:\n    right:\n      1: left\n      1: center\n      2: right\n")
    with pytest.raises(ConfigError, match=r"wheels.yaml: line 5, column 7: .*the key 1 is given twice"):
        load_wheel_map(wheels)
    controllers = tmp_path / "controllers.yaml"
    controllers.write_text("simulated: 1\nsimulated: 2\n")
    with pytest.raises(ConfigError, match="given twice"):
        load_controllers_config(controllers)


def test_the_alias_bomb_is_refused_by_the_expansion_bound_before_anything_is_built(monkeypatch):
    bomb = alias_bomb()
    assert len(bomb) < 600

    def never(*a, **k):
        raise AssertionError("the document was built")
    monkeypatch.setattr(bc._StrictLoader, "construct_document", never)
    with pytest.raises(ConfigError) as info:
        parse_yaml(bomb, what="bomb.yaml")
    assert f"more than {bc.MAX_YAML_NODES:,} values once its aliases are expanded" in str(info.value)
    assert str(info.value).startswith("bomb.yaml: line ")


def test_aliases_within_the_bound_merge_keys_self_reference_and_depth():
    assert parse_yaml("a: &a [1, 2]\nb: *a\nc: {<<: {x: 1}, y: 2}\n", what="t") == \
        {"a": [1, 2], "b": [1, 2], "c": {"x": 1, "y": 2}}
    with pytest.raises(ConfigError, match="contains itself"):
        parse_yaml("a: &a [1, *a]\n", what="t")
    with pytest.raises(ConfigError, match=f"nested more than {bc.MAX_YAML_DEPTH} deep"):
        parse_yaml("[" * 70 + "]" * 70, what="t")


def test_too_large_and_unreadable_files_are_one_line(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (bc.MAX_YAML_BYTES + 1))
    with pytest.raises(ConfigError, match="too large"):
        load_yaml(big)
    with pytest.raises(ConfigError, match="is a folder"):
        load_yaml(tmp_path)
    with pytest.raises(ConfigError, match="not UTF-8"):
        parse_yaml(b"a: \xff\n", what="x")


@pytest.mark.parametrize("command", ["tiles check", "scenario", "play --table-config", "udev-rules --config",
                                     "ports --config"])
def test_an_alias_bomb_through_every_command_that_reads_yaml(command, tmp_path):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(alias_bomb())
    module = "bitbox.cli" if command.startswith(("udev", "ports")) else "outspeed.cli"
    extra = ["--headless", "--journal", str(tmp_path / "j.sqlite"), "--max-seconds", "20"] if "play" in command else []
    proc = run(module, *command.split(), str(bomb), *extra)
    assert_usage_error(proc, str(bomb), "alias bomb")


# --------------------------------------------------------------------------- game files

def test_wheel_meanings_are_checked_against_what_outspeed_knows(tmp_path):
    from outspeed.content import load_content
    from outspeed.wheelmap import load_outspeed_wheel_map
    shipped = Path(bc.__file__).resolve().parents[1] / "config" / "wheels.yaml"
    text = shipped.read_text()
    tiles = load_content().tiles
    load_outspeed_wheel_map(shipped, tiles)                          # the shipped map is fine
    bad = tmp_path / "wheels.yaml"
    bad.write_text(text.replace("2: center", "2: centre"))
    with pytest.raises(ConfigError) as info:
        load_outspeed_wheel_map(bad, tiles)
    assert str(info.value).startswith(f"{bad}: game 'outspeed', wheel right, position 2, field meaning: 'centre'")
    assert "did you mean 'center'" in str(info.value)
    bad.write_text(text.replace("      6: 6\n", ""))                    # X = 6 of tile 16 unreachable
    with pytest.raises(ConfigError, match="wheel centre: no position means 6"):
        load_outspeed_wheel_map(bad, tiles)
    bad.write_text(text.replace("1: nitro", "1: nitr0"))
    with pytest.raises(ConfigError, match="wheel left, position 1, field meaning: 'nitr0'"):
        load_outspeed_wheel_map(bad, tiles)


def test_token_counts_are_bounded(tmp_path):
    from outspeed.content import MAX_TOKENS, load_tokens
    path = tmp_path / "tokens.yaml"
    path.write_text("tokens: {electromagnet: 2, ion_cannon: 2, flamethrower: 7, force_field: 7, "
                    "nitro: 300000000, fuel_tank: 7}\n")
    with pytest.raises(ConfigError, match=f"{path}: token nitro, field count: expected a whole number from 0 "
                                          f"to {MAX_TOKENS}, got 300000000"):
        load_tokens(path)
    path.write_text("tokens: {electromagnet: 2, ion_cannon: 2, flamethrower: 7, force_field: 7, "
                    "nitro: 7, fuel_tank: 7}\nforce_field_markers: 1000000\n")
    with pytest.raises(ConfigError, match="force_field_markers"):
        load_tokens(path)


# --------------------------------------------------------------------------- arguments

@pytest.mark.parametrize("args, words", [
    (["play", "--seed", str(2**63)], ["--seed", str(2**63 - 1)]),
    (["play", "--seed", "-1"], ["--seed"]),
    (["replay", "99999999999999999999"], ["game id", "99999999999999999999"]),
    (["play", "--size", "100000x100000"], ["--size", "7680x4320"]),
    (["play", "--size", "wide"], ["--size", "WIDTHxHEIGHT"]),
])
def test_out_of_range_numbers_are_usage_errors(args, words, tmp_path):
    proc = run("outspeed.cli", *args, "--journal", str(tmp_path / "j.sqlite"))
    assert_usage_error(proc, "outspeed", *words)
    assert not (tmp_path / "j.sqlite").exists()


# --------------------------------------------------------------------------- bitbox emulate

@pytest.mark.parametrize("make_args, words", [
    (lambda d: ["--link-dir", str(d / "file")], ["--link-dir", "not a folder"]),
    (lambda d: ["--trace", str(d / "missing" / "trace.jsonl")], ["--trace", "cannot be written"]),
    (lambda d: ["--id-base", "0xFFFFFFFFFFFFFFFF"], ["--id-base", "64-bit"]),
    (lambda d: ["--id-base", "-5"], ["--id-base"]),
    (lambda d: ["--seconds", "nan"], ["--seconds"]),
])
def test_bitbox_emulate_refuses_bad_options(make_args, words, tmp_path):
    (tmp_path / "file").write_text("not a folder")
    proc = run("bitbox.cli", "emulate", *make_args(tmp_path), stdin="quit\n", timeout=20)
    assert_usage_error(proc, "bitbox emulate", *words)
    assert not (tmp_path / "missing").exists()


def test_bitbox_emulate_refuses_bad_command_values_and_keeps_running():
    proc = subprocess.Popen([sys.executable, "-m", "bitbox.cli", "emulate", "--controllers", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        json.loads(proc.stdout.readline())
        out, err = proc.communicate("0 garbage 99999999999\n0 drop 1e3\n0 disconnect 1e308\n0 disconnect -1\n"
                                    "0 disconnect nan\n0 right=99\n0 right=2\nstatus\nquit\n", timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and "Traceback" not in err, err
    lines = err.splitlines()
    refused = [l for l in lines if l.startswith("emulate: ")]
    assert len(refused) == 6, lines
    assert "garbage bytes" in refused[0] and "disconnect seconds" in refused[2]
    (status,) = [json.loads(l) for l in lines if l.startswith("{")]
    assert status["wheels"] == [0, 0, 2] and status["port"] is not None    # still plugged in, still obeying

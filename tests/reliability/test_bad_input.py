"""Bad input: broken config files through their commands (exit 2, file + entry + field),
1,000,000 inputs through every decoder (zero exceptions), and bounded resources whatever the
input stream."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import firmware_protocol as fp
from bitbox_tools import reliability as R
from firmware_protocol.firmware import wire

from .conftest import assert_rows

C = R.TEST_COUNTS


@pytest.mark.parametrize("case", R.CONFIG_CASES, ids=lambda c: f"{c.file}-{c.what.replace(' ', '_')}")
def test_a_bad_config_file_gets_exit_2_and_names_file_entry_and_field(case, tmp_path):
    for run in R.config_case_result(case, tmp_path):
        assert run["ok"], run


@pytest.mark.heavy
def test_one_million_decoder_inputs_zero_exceptions():
    assert C["fuzz_inputs"] >= 1_000_000
    assert_rows(R.campaign_fuzz(C["fuzz_inputs"], seed=20240607))


@pytest.mark.heavy
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300), st.lists(st.integers(1, 64), min_size=1, max_size=8))
def test_any_bytes_cut_anywhere_never_raise(data, cuts):
    d, reader = fp.Decoder(), wire.FrameReader()
    pos, k = 0, 0
    while pos < len(data):
        chunk = data[pos:pos + cuts[k % len(cuts)]]
        for m in d.feed(chunk):
            assert fp.decode_raw(fp.encode_raw(m)) == m
        reader.feed(chunk)
        assert d.pending <= fp.MAX_ENCODED_FRAME and len(reader._buf) <= fp.MAX_ENCODED_FRAME
        pos += len(chunk)
        k += 1
    assert fp.decode_hid_report(data[:64]) is None or data[:1] == b"\x01"


@settings(max_examples=1500, deadline=None)
@given(st.integers(0, 255), st.binary(max_size=57))
def test_any_payload_with_a_good_crc_is_a_message_or_refused(type_byte, payload):
    import zlib
    body = bytes((type_byte,)) + payload
    raw = body + zlib.crc32(body).to_bytes(4, "little")
    try:
        m = fp.decode_raw(raw)
    except fp.ProtocolError:
        pass
    else:
        assert fp.decode_raw(fp.encode_raw(m)) == m
    checked = wire.check_raw(raw)
    if checked is not None and checked[0] & 0x80:
        wire.parse_command(checked)                  # the firmware never raises either


@pytest.mark.heavy
def test_resources_stay_bounded_whatever_the_input(tmp_path):
    rows = R.campaign_bounds(garbage_mb=C["bounds_garbage_mb"], firmware_mb=C["bounds_firmware_mb"],
                              flood_s=C["bounds_flood_s"])
    assert_rows(rows)
    dec = rows[0].details
    assert dec["pending_max"] <= 63 and dec["fed_bytes"] == 2 * C["bounds_garbage_mb"] << 20
    hub = rows[2].details
    assert hub["states"]["events_queued"] <= 2 * 4096 and hub["new_ids"]["seats"] <= 255

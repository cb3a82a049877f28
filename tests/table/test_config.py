"""config/table.yaml: the shipped file is valid; mistakes name the file and the field."""
from __future__ import annotations

import pytest

from outspeed.content import ConfigError
from bitbox.table import config
from outspeed.cartridge import CARTRIDGE


def load_table_config(path=None):
    """Outspeed's table.yaml: the console's schema and Outspeed's fields (tokens, bot)."""
    return config.load_table_config(path, CARTRIDGE)


def TableConfig():
    return config.defaults_of(CARTRIDGE)


def test_the_shipped_table_config_is_valid():
    cfg = load_table_config()
    assert cfg.language in ("en", "es", "fr", "de") and cfg.fields["tokens"] in ("physical", "virtual")


@pytest.mark.parametrize("text,message", [
    ("tokens: cardboard\n", "field tokens: expected physical or virtual, got 'cardboard'"),
    ("language: it\n", "field language"),
    ("speed: fast\n", "field speed"),
    ("window: [10, 10]\n", "field window"),
    ("colour: red\n", "unknown field 'colour'"),
    ("bot: genius\n", "field bot"),
    ("- a list\n", "expected a mapping"),
    ("tokens: [unclosed\n", "not valid YAML"),
])
def test_mistakes_name_the_file_and_the_field(tmp_path, text, message):
    p = tmp_path / "table.yaml"
    p.write_text(text)
    with pytest.raises(ConfigError, match="table.yaml") as err:
        load_table_config(p)
    assert message in str(err.value)


def test_an_empty_file_means_the_defaults(tmp_path):
    p = tmp_path / "table.yaml"
    p.write_text("# nothing\n")
    assert load_table_config(p) == TableConfig()

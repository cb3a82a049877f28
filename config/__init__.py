"""The project's YAML data (tiles, dice, bonus tokens, controllers, wheel maps).

The folder is `config/` in the repository and is installed as the package `bitbox_config`,
so the files are found the same way from a checkout and from a non-editable install.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["config_path"]


def config_path(name: str) -> Path:
    """Path of a shipped config file, e.g. ``config_path("tiles.yaml")``."""
    return Path(str(files(__name__) / name))

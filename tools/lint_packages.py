"""The packages ``./dev lint`` type-checks: the console's own, and every installed cartridge
whose package lives in this repository, found through the ``bitbox.games`` and
``bitbox.research`` entry points (so ``./dev`` holds no list of games).

    python -m bitbox_tools.lint_packages ROOT      # prints: -p bitbox -p firmware_protocol ...
"""
from __future__ import annotations

import importlib.util
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Sequence

#: The console's packages (config/ and tools/ under their installed names).
CONSOLE = ("bitbox", "firmware_protocol", "bitbox_config", "bitbox_tools")
GROUPS = ("bitbox.games", "bitbox.research")


def packages(root: Path) -> list[str]:
    """The top-level packages to check: :data:`CONSOLE`, then each entry point's package found
    under ``root`` (a cartridge installed from elsewhere is its author's to check)."""
    root = root.resolve()
    found = list(CONSOLE)
    for group in GROUPS:
        for ep in entry_points(group=group):
            top = ep.value.split(":")[0].split(".")[0].strip()
            if not top or top in found:
                continue
            try:
                spec = importlib.util.find_spec(top)
            except (ImportError, ValueError):
                continue
            if spec is None:
                continue
            where = [spec.origin] if spec.origin else list(spec.submodule_search_locations or ())
            if any(Path(w).resolve().is_relative_to(root) for w in where):
                found.append(top)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    root = Path(args[0]) if args else Path.cwd()
    print(" ".join(f"-p {name}" for name in packages(root)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

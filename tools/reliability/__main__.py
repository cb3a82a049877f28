"""``python -m bitbox_tools.reliability``: see :mod:`bitbox_tools.reliability`."""
from __future__ import annotations

import sys

from bitbox.console import run_main

from .cli import main

sys.exit(run_main(main))

"""`python -m bitbox_tools.bench`: the benchmark suite (see :mod:`bitbox_tools.bench.suite`)."""
import sys

from bitbox.console import run_main

from .suite import main

sys.exit(run_main(main))

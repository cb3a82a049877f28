"""`python -m bitbox_tools.bench`: the benchmark suite (see :mod:`bitbox_tools.bench.suite`)."""
import sys

from .suite import main

sys.exit(main())

"""``python -m plugforge``: the plugforge command line over the local filesystem.

Verbs, flags, output, JSON and exit codes all live in the Rust core
(``plugforge_core::cli``); this host only supplies files, time and a terminal,
so it behaves exactly like the ``plugforge`` binary.
"""

import sys

from . import run_cli
from .host import PathlibHost


def main() -> None:
    sys.exit(run_cli(sys.argv[1:], PathlibHost()))


if __name__ == "__main__":
    main()

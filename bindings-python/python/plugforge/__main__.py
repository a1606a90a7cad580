"""``python -m plugforge``: the Rust ``plugforge`` command line itself.

``run_cli`` runs plugforge-cli, linked into the native module, over the same
filesystem code as the binary and straight onto this process's stdout and
stderr, so every verb, flag, message and exit code is the binary's.
"""

import sys

from . import run_cli


def main() -> None:
    sys.exit(run_cli(sys.argv[1:]))


if __name__ == "__main__":
    main()

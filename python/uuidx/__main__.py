"""``python -m uuidx``: the command line, :mod:`uuidx.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())

"""``python -m irscale``: the ``irscale`` command line (:func:`irscale.cli.main.main`)."""

import sys

from .cli.main import main

if __name__ == "__main__":
    sys.exit(main())

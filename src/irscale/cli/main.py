"""Entry point of the ``irscale`` command.

Each subcommand lives in its own module of this package, which exposes
``add_parser(subparsers)``: it registers an ``argparse`` sub-parser and sets its ``func``
default to a function ``(args) -> int`` (the exit status). Errors derived from
:class:`irscale.errors.IrscaleError` are printed as ``irscale: <message>`` with exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..errors import IrscaleError

#: Subcommand modules, in the order ``irscale --help`` lists them.
SUBCOMMANDS = ("eval", "demo", "compare", "scale", "meta")


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="irscale",
        description="Offline IR evaluation: trec_eval-exact measures, interval scales, "
        "statistics and meta-evaluation.",
    )
    parser.add_argument("--version", action="version", version=f"irscale {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f".{name}", __package__).add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 1
    try:
        return int(args.func(args) or 0)
    except IrscaleError as error:
        print(f"irscale: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

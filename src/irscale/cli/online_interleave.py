"""``irscale online interleave``: being written (issue 14)."""

from __future__ import annotations

import argparse

from ..errors import ParameterError


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("interleave", help="(being written)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raise ParameterError("online interleave: not available yet")

"""``irscale measures``: list the measure catalogue (:func:`irscale.measures.catalogue`;
usage: ``docs/cli.md``, ``docs/measures.md``)."""

from __future__ import annotations

import argparse

from ..io.formats import CATALOGUE_FORMATS
from ..measures.catalogue_params import CATALOGUE_CONTEXT, LISTING
from .common_params import FORMAT
from .main import SUBCOMMANDS
from .options import add_command, add_output
from .outputs import Done


def add_parser(subparsers) -> None:
    """Register ``irscale measures``."""
    add_command(
        subparsers, "measures", run,
        (CATALOGUE_CONTEXT, {"metavar": f"{{{','.join(CATALOGUE_CONTEXT.domain.names)}}}"}),
        (FORMAT, {"choices": CATALOGUE_FORMATS, "doc": "output format (text: one entry per "
                  "family; json: parameters with their domains and meaning; markdown: a "
                  "table)"}),
        lambda p: add_output(p, what="catalogue"),
        example="--context texts", binding=LISTING,
        help=SUBCOMMANDS["measures"],
        description="List the measure catalogue: every measure family irscale computes, by "
        "the context it needs, with its parameters and defaults, other names, formula and "
        "source. See docs/measures.md.")


def run(args: argparse.Namespace) -> Done:
    """``irscale measures``: the catalogue of measures."""
    from ..measures.listing import catalogue_rows, format_catalogue

    return format_catalogue(catalogue_rows(args.context), args.fmt)

"""``irscale measures``: list the measure catalogue (:func:`irscale.measures.catalogue`;
usage: ``docs/cli.md``, ``docs/measures.md``)."""

from __future__ import annotations

import argparse

from ..core.params import Param, Text
from ..io.formats import CATALOGUE_FORMATS, FORMAT
from ..measures.contexts import CONTEXTS
from .main import SUBCOMMANDS
from .options import add_command, add_output
from .outputs import Done

#: ``--context``: the families of one context only.
CONTEXT = Param("context", Text(), None, "list the families of this context only",
                ("--context",), unset="all")


def add_parser(subparsers) -> None:
    """Register ``irscale measures``."""
    add_command(
        subparsers, "measures", run, (CONTEXT, {"choices": tuple(CONTEXTS)}),
        (FORMAT, {"choices": CATALOGUE_FORMATS, "doc": "output format (text: one entry per "
                  "family; json: parameters with their domains and meaning; markdown: a "
                  "table)"}),
        lambda p: add_output(p, what="catalogue"),
        example="--context texts",
        help=SUBCOMMANDS["measures"],
        description="List the measure catalogue: every measure family irscale computes, by "
        "the context it needs, with its parameters and defaults, other names, formula and "
        "source. See docs/measures.md.")


def run(args: argparse.Namespace) -> Done:
    """``irscale measures``: the catalogue of measures."""
    from ..measures.listing import catalogue_rows, format_catalogue

    return format_catalogue(catalogue_rows(args.context), args.fmt)

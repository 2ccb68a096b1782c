"""``irscale measures``: list the measure catalogue (:func:`irscale.measures.catalogue`;
usage: ``docs/cli.md``, ``docs/measures.md``)."""

from __future__ import annotations

import argparse

from ..core.contexts import CONTEXTS
from ..io.formats import CATALOGUE_FORMATS
from .options import add_format, add_output
from .outputs import open_output


def add_parser(subparsers) -> None:
    """Register ``irscale measures``."""
    parser = subparsers.add_parser(
        "measures",
        help="list every measure: name, parameters and defaults, formula, source",
        description="List the measure catalogue: every measure family irscale computes, "
        "by the context it needs (rankings: judged rankings, irscale eval; intents: "
        "diversity qrels; sessions: irscale session; texts: ROUGE, irscale text rouge; "
        "nuggets: irscale text nuggets), with its parameters and their defaults, its "
        "other names (ir_measures' for trec_eval's families), its formula and its source. "
        "See docs/measures.md.",
    )
    parser.add_argument("--context", choices=tuple(CONTEXTS),
                        help="list the families of this context only (default: all)")
    add_format(parser, CATALOGUE_FORMATS, doc="output format (text: one entry per family; "
               "json: parameters with their domains and meaning; markdown: a table)")
    add_output(parser, what="catalogue")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``irscale measures``: the catalogue of measures."""
    from ..measures.listing import catalogue_rows, format_catalogue

    text = format_catalogue(catalogue_rows(args.context), args.fmt)
    with open_output(args, "w") as stream:
        stream.write(text)
    return 0

"""``irscale meta pool-bias``: the scores of runs that did not contribute to the pool,
adjusted (Webber & Park 2009). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..meta.params import LOO_DEPTH
from .inputs import qrels_and_runs
from .meta_common import add_common, check, given_contributors, render
from .options import add_param
from .outputs import declare_inputs, write_text
from .runargs import named_runs, read_inputs


def add_parser(subparsers) -> None:
    """``meta pool-bias``: the score adjustment of runs that did not contribute."""
    p = subparsers.add_parser(
        "pool-bias", help="adjust the scores of runs that did not contribute to the pool (Webber & "
        "Park 2009)",
        description="Leave every contributing run (or --contributors group) out of the depth-K "
        "pool, re-evaluate it, and add the mean per-topic error to the scores of the --new runs.")
    add_common(p, scores=False, systems=False, measure_help="measure (repeatable; at least one)")
    p.add_argument("--new", action="append", required=True, metavar="RUN",
                   help="a run that did not contribute to the pool (repeatable)")
    add_param(p, LOO_DEPTH)
    p.add_argument("--contributors", metavar="FILE",
                   help="file of 'run contributor' lines: leave each contributor's runs out "
                   "together (default: each run alone)")
    p.add_argument("--per-topic", action="store_true",
                   help="print every topic's adjustment instead of the new runs' scores")
    declare_inputs(p, "--new", "--contributors")
    p.set_defaults(func=run_pool_bias)


def run_pool_bias(args: argparse.Namespace) -> int:
    """``meta pool-bias``: scores of the --new runs adjusted (Webber & Park 2009)."""
    check(args)
    from ..io.sources import as_runs

    qrels, runs = read_inputs(*qrels_and_runs(args))
    new_runs = list(as_runs(named_runs(args.new, None)))
    contributors = given_contributors(args)

    from .. import meta  # (after the inputs are read: their errors come first)

    result = meta.pooling_bias(qrels, runs, new_runs, args.measures,
                               contributors=contributors, depth=args.depth,
                               allow_empty=args.allow_empty)
    frame = result.topics if args.per_topic else result.runs
    return write_text(args, render(frame, args, repr(result)))

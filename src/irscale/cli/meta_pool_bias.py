"""``irscale meta pool-bias``: the scores of runs that did not contribute to the pool,
adjusted (Webber & Park 2009). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import Param, Switch, Text
from ..meta.params import LOO_DEPTH
from .common_params import CONTRIBUTORS
from .inputs import qrels_and_runs
from .meta_common import add_analysis, given_contributors, render
from .outputs import write_text
from .runargs import named_runs, read_inputs

#: ``--new RUN`` (repeatable): the runs that did not contribute.
NEW_RUNS = Param("new", Text(), None, "a run that did not contribute to the pool "
                 "(repeatable)", ("--new",), "RUN")
#: ``--per-topic``: every topic's adjustment.
PER_TOPIC = Param("per_topic", Switch(), False, "print every topic's adjustment instead of "
                  "the new runs' scores", ("--per-topic",))


def add_parser(subparsers) -> None:
    """``meta pool-bias``: the score adjustment of runs that did not contribute."""
    add_analysis(
        subparsers, "pool-bias", run_pool_bias,
        (NEW_RUNS, {"action": "append", "required": True}), LOO_DEPTH,
        (CONTRIBUTORS, {"doc": "file of 'run contributor' lines: leave each contributor's "
                        "runs out together", "unset": "each run alone"}), PER_TOPIC,
        scores=False, systems=False, measure_help="measure (repeatable; at least one)",
        inputs=["--new", "--contributors"],
        help="adjust the scores of runs that did not contribute to the pool (Webber & Park "
        "2009)",
        description="The scores of the --new runs adjusted by the mean per-topic error of "
        "the contributors left out of the depth-K pool; see docs/meta.md.")


def run_pool_bias(args: argparse.Namespace) -> int:
    """``meta pool-bias``: scores of the --new runs adjusted (Webber & Park 2009)."""
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

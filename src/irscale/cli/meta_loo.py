"""``irscale meta loo``: the leave-one-out reusability test of a test collection (Sakai
2014, §5.4). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import Param, Switch
from ..meta.params import CONTRIBUTOR_PATTERN, LOO_DEPTH
from .common_params import CONTRIBUTORS
from .inputs import diversity_inputs, qrels_and_runs
from .main import given
from .meta_common import add_analysis, given_contributors, render
from .options import add_scheduler, scheduler
from .outputs import write_text
from .rules import Rule
from .runargs import read_inputs

#: ``--per-run``: every run, not the summary.
PER_RUN = Param("per_run", Switch(), False, "print every run", ("--per-run",))


def add_parser(subparsers) -> None:
    """``meta loo``: the leave-one-out reusability test."""
    add_analysis(
        subparsers, "loo", run_loo, LOO_DEPTH, CONTRIBUTOR_PATTERN, CONTRIBUTORS, PER_RUN,
        lambda p: add_scheduler(p, "the contributors' evaluations"), scores=False,
        measure_help="measure (repeatable; at least one)", inputs=["--contributors"],
        help="leave-one-out reusability test (Sakai 2014, §5.4)",
        rules=[Rule(("contributor_pattern",), lambda args: not given(args, "contributors"),
                    "--contributor-pattern applies without --contributors (the file names "
                    "every run's contributor)")])


def run_loo(args: argparse.Namespace) -> int:
    """``meta loo``: leave-one-contributor-out reusability (Sakai 2014, §5.4)."""
    from ..io.sources import as_runs

    diversity = diversity_inputs(args)  # ndeval ranks by the rank column
    path, named = qrels_and_runs(args, keep_rank=diversity)
    qrels: object = path  # (diversity qrels are read by the evaluation's reader of them)
    runs: list[object]
    if diversity:
        runs = list(as_runs(named, keep_rank=True))
    else:
        qrels, runs = read_inputs(path, named)
    table = given_contributors(args)

    from .. import meta  # (after the inputs are read: their errors come first)

    contributors = table if table is not None else (
        lambda name: meta.contributors_by_prefix([name], args.contributor_pattern)[name])
    with scheduler(args) as executor:
        result = meta.leave_one_out(qrels, runs, args.measures, allow_empty=args.allow_empty,
                                    contributors=contributors, depth=args.depth,
                                    executor=executor)
    frame = result.runs if args.per_run else result.summary
    text = render(frame, args, repr(result))
    if not args.per_run and args.fmt not in ("csv", "json"):
        text += "\n" + render(result.unique, args, "unique judged documents per contributor")
    return write_text(args, text)

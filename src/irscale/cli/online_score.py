"""``irscale online score``: score a real interleaving log (``impression topic rank docno
team clicked`` lines, :mod:`irscale.io.interleaving_log`); usage: ``docs/cli.md``,
``docs/online.md``."""

from __future__ import annotations

import argparse

from ..errors import ParameterError
from ..online.params import needs_rankings
from .common_params import INPUTS, RUNS_OPTION
from .online_interleave import CREDIT_RULES, add_method_options, add_score_options, credit
from .options import add_param
from .outputs import declare_inputs
from .rules import Rule, add_rules, check_options
from .runargs import distinct_runs


def add_parser(subparsers) -> None:
    """Register ``irscale online score`` and the rules of its options."""
    parser = subparsers.add_parser(
        "score", help="score a logged interleaving experiment (impression topic rank docno "
        "team clicked)",
        description="Score the clicks of an interleaving log (one line per document shown: "
        "impression topic rank docno team clicked) and report, for every pair of rankers, "
        "wins, losses, ties, the preference delta = (wins + ties/2)/n - 0.5 with its "
        "bootstrap interval and the binomial (sign) test. team-draft (and multileaving) "
        "needs the log only; balanced, optimized and probabilistic with marginal credit "
        "need the rankers' runs (--runs). See docs/online.md.")
    add_param(parser, INPUTS, nargs=1, metavar="LOG",
              doc="interleaving log (text, gzip or '-')")
    add_param(parser, RUNS_OPTION, nargs="+", metavar="RUN",
              doc="the rankers' TREC runs, named by run id as the log's teams "
              "(needed by balanced, optimized and probabilistic marginal credit)")
    add_method_options(parser, "probabilistic, marginal credit: the softmax exponent the "
                       "lists were drawn with")
    add_score_options(parser, "seed of the bootstrap")
    declare_inputs(parser, "inputs", "--runs")
    add_rules(parser, *CREDIT_RULES,
              Rule(("tau",), lambda args: credit(args) == "marginal",
                   "--tau applies to --method probabilistic with marginal credit"),
              _needs_runs)
    parser.set_defaults(func=run)


def _needs_runs(args: argparse.Namespace) -> None:
    """A method that scores clicks by the rankers' ranks needs ``--runs``."""
    if args.runs is None and needs_rankings(args.method, credit(args)):
        raise ParameterError(f"--method {args.method} ({credit(args)} credit) scores clicks "
                             "by the ranks the rankers gave the documents, which the log does "
                             "not hold: give the rankers' runs with --runs")


def run(args: argparse.Namespace) -> int:
    """``online score``: the pairs of rankers scored on the log's clicks."""
    check_options(args)
    from ..io.interleaving_log import read_interleaving_log

    log = read_interleaving_log(args.inputs[0])  # before pandas and scipy are imported
    from ..online.logged import score_log
    from .outputs import write_text

    runs = None if args.runs is None else distinct_runs(args.runs)
    result = score_log(log, runs, method=args.method, credit=args.credit,
                       tau=args.tau, alpha=args.alpha,
                       bootstrap=args.bootstrap, rng=args.seed)
    return write_text(args, result.format(args.fmt) + "\n")

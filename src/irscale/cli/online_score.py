"""``irscale online score``: :func:`irscale.online.score_log` (``docs/online.md``)."""

from __future__ import annotations

import argparse

from ..errors import ParameterError
from ..online import params
from .common_params import INPUTS, RUNS_OPTION
from .online import add_action, write_result
from .online_interleave import CREDIT_RULES, METHOD, credit, scores
from .rules import Rule
from .runargs import distinct_runs


def add_parser(subparsers) -> None:
    """Register ``irscale online score``."""
    add_action(subparsers, "score", run,
               (INPUTS, {"metavar": "LOG", "doc": "interleaving log (text, gzip or '-')"}),
               (RUNS_OPTION, {"nargs": "+", "metavar": "RUN", "doc": "the rankers' TREC "
                              "runs, named by run id as the log's teams (needed by "
                              "balanced, optimized and probabilistic marginal credit)"}),
               *METHOD, (params.SOFTMAX_TAU, {"doc": "probabilistic, marginal credit: the softmax "
                                       "exponent the lists were drawn with"}),
               *scores("seed of the bootstrap"), inputs=("inputs", "--runs"),
               rules=(*CREDIT_RULES,
                      Rule(("tau",), lambda args: credit(args) == "marginal",
                           "--tau applies to --method probabilistic with marginal credit"),
                      _needs_runs),
               help="score the clicks of a logged interleaving experiment (impression "
               "topic rank docno team clicked)")


def _needs_runs(args: argparse.Namespace) -> None:
    """A method that scores clicks by the rankers' ranks needs ``--runs``."""
    if args.runs is None and params.needs_rankings(args.method, credit(args)):
        raise ParameterError(f"--method {args.method} ({credit(args)} credit) scores clicks "
                             "by the ranks the rankers gave the documents, which the log does "
                             "not hold: give the rankers' runs with --runs")


def run(args: argparse.Namespace) -> int:
    """``online score``: the pairs of rankers scored on the log's clicks."""
    from ..io.interleaving_log import read_interleaving_log

    log = read_interleaving_log(args.inputs)  # before pandas and scipy are imported
    from ..online.logged import score_log

    runs = None if args.runs is None else distinct_runs(args.runs)
    return write_result(args, score_log(log, runs, method=args.method, credit=args.credit,
                                        tau=args.tau, alpha=args.alpha,
                                        bootstrap=args.bootstrap, rng=args.seed))

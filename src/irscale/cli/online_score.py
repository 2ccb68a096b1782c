"""``irscale online score``: score a real interleaving log.

    irscale online score LOG [--runs RUN ...] [--method team-draft|balanced|probabilistic|
        optimized] [--credit C] [--tau T] [--alpha A] [--bootstrap B] [--seed S]
        [--format text|csv|markdown|latex|json] [-o FILE] [--force]

LOG holds one line per document shown, ``impression topic rank docno team clicked``
(:mod:`irscale.io.interleaving_log`). Team-draft (multileaving for more than two teams) and
probabilistic interleaving with ``--credit assignment`` are scored from the log alone;
balanced, optimized and probabilistic with marginal credit need the rankers' rankings:
``--runs``, TREC runs whose run ids are the team names (:mod:`irscale.online.logged`).
The output is that of ``irscale online interleave``: wins, losses, ties, delta with its
bootstrap interval and the binomial test per pair of rankers. See ``docs/online.md``.
"""

from __future__ import annotations

import argparse

from ..core.params import needs_rankings
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from .main import given
from .online_interleave import METHODS, add_score_options, add_tau, check_credit
from .runargs import distinct_runs


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "score", help="score a logged interleaving experiment (impression topic rank docno "
        "team clicked)",
        description="Score the clicks of an interleaving log (one line per document shown: "
        "impression topic rank docno team clicked) and report, for every pair of rankers, "
        "wins, losses, ties, the preference delta = (wins + ties/2)/n - 0.5 with its "
        "bootstrap interval and the binomial (sign) test. team-draft (and multileaving) "
        "needs the log only; balanced, optimized and probabilistic with marginal credit "
        "need the rankers' runs (--runs). See docs/online.md.")
    parser.add_argument("inputs", nargs=1, metavar="LOG",
                        help="interleaving log (text, gzip or '-')")
    parser.add_argument("--runs", nargs="+", default=None, metavar="RUN",
                        help="the rankers' TREC runs, named by run id as the log's teams "
                        "(needed by balanced, optimized and probabilistic marginal credit)")
    parser.add_argument("--method", choices=METHODS, default="team-draft",
                        help="interleaving method of the log (default team-draft)")
    parser.add_argument("--credit", default=None,
                        help="credit rule: probabilistic marginal|assignment (default "
                        "marginal), optimized inverse|linear (default inverse)")
    add_tau(parser, "probabilistic, marginal credit: the softmax exponent the lists were "
            "drawn with")
    add_score_options(parser, "seed of the bootstrap")
    parser.add_argument("--format", choices=TABLE_FORMATS, default="text", dest="fmt",
                        help="output format (default text)")
    from .outputs import add_output, declare_inputs

    add_output(parser)
    declare_inputs(parser, "inputs", "--runs")
    parser.set_defaults(func=run)


def _check(args: argparse.Namespace) -> None:
    """Options that apply to some choices only are refused elsewhere; a method that needs
    the rankers' rankings needs --runs."""
    credit = check_credit(args)
    if given(args, "tau") and credit != "marginal":
        raise ParameterError("--tau applies to --method probabilistic with marginal credit")
    if args.runs is None and needs_rankings(args.method, credit):
        raise ParameterError(f"--method {args.method} ({credit} credit) scores clicks by "
                             "the ranks the rankers gave the documents, which the log does "
                             "not hold: give the rankers' runs with --runs")


def run(args: argparse.Namespace) -> int:
    _check(args)
    from ..online.logged import score_log
    from .outputs import write_text

    runs = None if args.runs is None else distinct_runs(args.runs)
    result = score_log(args.inputs[0], runs, method=args.method, credit=args.credit,
                       tau=args.tau, alpha=args.alpha,
                       bootstrap=args.bootstrap, rng=args.seed)
    return write_text(args, result.format(args.fmt) + "\n")

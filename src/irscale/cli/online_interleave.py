"""``irscale online interleave``: interleave runs (two, or more for team-draft multileaving),
click them with a user model and score the clicks; usage: ``docs/cli.md``,
``docs/online.md``."""

from __future__ import annotations

import argparse

from ..core.params import RNG_SEED, SIGNIFICANCE
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..online.params import (
    CLICK_PROBABILITY,
    CLICK_RELEVANCE,
    CREDITS,
    INTERLEAVING_METHOD,
    INTERVAL_BOOTSTRAP,
    OPTIMIZED_LENGTH,
    SHOWN_LENGTH,
    SOFTMAX_TAU,
    TOPIC_IMPRESSIONS,
)
from .common_params import QRELS_OPTION, RUNS
from .inputs import check_click_model
from .options import add_format, add_output, add_param
from .outputs import declare_inputs
from .rules import Declared, Rule, add_rules, check_options, each
from .runargs import add_names, named_runs

CLICK_MODELS = ("perfect", "random")


def add_parser(subparsers) -> None:
    """Register ``irscale online interleave`` and the rules of its options."""
    parser = subparsers.add_parser(
        "interleave", help="interleave runs (balanced, team-draft, probabilistic, "
        "optimized; multileaving), simulate clicks, test the outcome",
        description="Interleave the runs' rankings of every topic, click them with a user "
        "model and report, for every pair of runs, wins, losses, ties, the preference "
        "delta = (wins + ties/2)/n - 0.5 with its bootstrap interval and the binomial "
        "(sign) test. See docs/online.md.")
    add_param(parser, RUNS, nargs="+", metavar="RUN", doc="TREC run files (two, or "
              "more for team-draft multileaving)")
    parser.add_argument("--clicks", required=True, metavar="perfect|random|MODEL.json",
                        help="user model: perfect (click iff relevant in --qrels), random "
                        "(each result with --click-prob) or a click model's JSON file")
    add_param(parser, QRELS_OPTION, metavar="FILE",
              doc="qrels of the perfect click model (and of a click model "
              "whose JSON needs none: not read)")
    add_param(parser, CLICK_RELEVANCE,
              doc="perfect clicks: smallest relevant degree")
    add_param(parser, CLICK_PROBABILITY)
    add_method_options(parser)
    add_param(parser, TOPIC_IMPRESSIONS)
    add_param(parser, SHOWN_LENGTH)
    add_names(parser)
    add_score_options(parser, "seed of the interleaving, the clicks and the bootstrap")
    declare_inputs(parser, "runs", "--qrels")
    declare_inputs(parser, "--clicks", keywords=CLICK_MODELS)
    add_rules(parser, *RULES)
    parser.set_defaults(func=run)


def add_method_options(parser: argparse.ArgumentParser, tau: str | None = None) -> None:
    """``--method``, ``--credit`` and ``--tau`` of an interleaving (``interleave``,
    ``score``); ``tau``: the doc of ``--tau`` where it says more."""
    add_param(parser, INTERLEAVING_METHOD)
    parser.add_argument("--credit",
                        help="credit rule: probabilistic marginal|assignment (default "
                        "marginal), optimized inverse|linear (default inverse)")
    add_param(parser, SOFTMAX_TAU, doc=tau)


def add_score_options(parser: argparse.ArgumentParser, seed: str) -> None:
    """``--alpha``, ``--bootstrap``, ``--seed`` and the output of the scores of
    interleavings (``interleave``, ``score``)."""
    add_param(parser, SIGNIFICANCE, doc="significance level; the interval is at 1 - alpha")
    add_param(parser, INTERVAL_BOOTSTRAP)
    add_param(parser, RNG_SEED, doc=seed)
    add_format(parser, TABLE_FORMATS)
    add_output(parser)


def credit(args: argparse.Namespace) -> str:
    """``--credit``, or the default credit of ``--method``."""
    return args.credit or CREDITS[args.method][0]


#: ``--credit``: of the methods that take one, one of theirs.
CREDIT_RULES = (
    Rule(("credit",), lambda args: args.method in ("probabilistic", "optimized"),
         "--credit applies to --method probabilistic or optimized, not {method}"),
    Rule(("credit",), lambda args: args.credit in CREDITS[args.method],
         lambda args: "--credit of --method {method} must be one of "
         f"{list(CREDITS[args.method])}, got {{credit!r}}"),
)


def _perfect_needs_qrels(args: argparse.Namespace) -> None:
    """Perfect clicks are the relevant documents of ``--qrels``."""
    if args.clicks == "perfect" and args.qrels is None:
        raise ParameterError("--clicks perfect needs --qrels")


def _check_length(args: argparse.Namespace) -> None:
    """``--method optimized`` enumerates 2^length lists: ``--length`` is bounded."""
    if args.method == "optimized":
        OPTIMIZED_LENGTH.check(args.length, "--length (length) of --method optimized "
                               "(2^length lists are enumerated)")


#: When the options apply, in the order they are checked.
RULES: tuple[Declared, ...] = (
    _perfect_needs_qrels,
    *each(("relevance_level", "qrels"), lambda args: args.clicks == "perfect",
          "{options} applies to --clicks perfect", {"qrels": "--qrels"}),
    Rule(("probability",), lambda args: args.clicks == "random",
         "--click-prob applies to --clicks random"),
    Rule(("tau",), lambda args: args.method == "probabilistic",
         "--tau applies to --method probabilistic"),
    *CREDIT_RULES,
    _check_length,
)


def run(args: argparse.Namespace) -> int:
    """``online interleave``: interleave the runs, click, score the pairs."""
    check_options(args)
    import numpy as np

    from ..io.sources import as_qrels, as_runs

    # every file first: a malformed one is reported before pandas is imported
    runs = list(as_runs(named_runs(args.runs, args.names)))
    qrels = None if args.qrels is None else as_qrels(args.qrels)
    params = None if args.clicks in CLICK_MODELS else check_click_model(args.clicks)
    from ..online.interleaving import check_bootstrap, interleave_runs
    from .outputs import write_text

    rankers = len(args.runs)
    check_bootstrap(args.bootstrap, rankers * (rankers - 1) // 2)  # before any work
    model = args.clicks if params is None else params.build()  # a click model's JSON file
    seeds = np.random.SeedSequence(args.seed).spawn(3)
    batch = interleave_runs(runs, args.impressions,
                            method=args.method,
                            length=args.length, credit=args.credit,
                            tau=args.tau, rng=seeds[0])
    clicks = batch.simulate_clicks(
        model, qrels=qrels, relevance_level=args.relevance_level,
        probability=args.probability,
        rng=seeds[1])
    result = batch.score(clicks, alpha=args.alpha, bootstrap=args.bootstrap, rng=seeds[2])
    return write_text(args, result.format(args.fmt) + "\n")

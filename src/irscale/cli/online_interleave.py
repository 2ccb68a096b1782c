"""``irscale online interleave``: interleave runs (two, or more for team-draft multileaving),
click them with a user model and score the clicks; usage: ``docs/cli.md``,
``docs/online.md``."""

from __future__ import annotations

import argparse

from ..core.params import (
    CLICK_LEVEL,
    CLICK_PROBABILITY,
    CREDITS,
    INTERLEAVING_METHOD,
    INTERVAL_BOOTSTRAP,
    OPTIMIZED_LENGTH,
    RELEVANCE,
    RNG_SEED,
    SHOWN_LENGTH,
    SIGNIFICANCE,
    SOFTMAX_TAU,
    TOPIC_IMPRESSIONS,
)
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from .main import given
from .options import add_param
from .outputs import add_output, declare_inputs
from .runargs import distinct_runs

CLICK_MODELS = ("perfect", "random")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "interleave", help="interleave runs (balanced, team-draft, probabilistic, "
        "optimized; multileaving), simulate clicks, test the outcome",
        description="Interleave the runs' rankings of every topic, click them with a user "
        "model and report, for every pair of runs, wins, losses, ties, the preference "
        "delta = (wins + ties/2)/n - 0.5 with its bootstrap interval and the binomial "
        "(sign) test. See docs/online.md.")
    parser.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files (two, or "
                        "more for team-draft multileaving)")
    parser.add_argument("--clicks", required=True, metavar="perfect|random|MODEL.json",
                        help="user model: perfect (click iff relevant in --qrels), random "
                        "(each result with --click-prob) or a click model's JSON file")
    parser.add_argument("--qrels", metavar="FILE",
                        help="qrels of the perfect click model (and of a click model "
                        "whose JSON needs none: not read)")
    add_param(parser, RELEVANCE, domain=CLICK_LEVEL,
              doc="perfect clicks: smallest relevant degree")
    add_param(parser, CLICK_PROBABILITY)
    add_method_options(parser)
    add_param(parser, TOPIC_IMPRESSIONS)
    add_param(parser, SHOWN_LENGTH)
    add_score_options(parser, "seed of the interleaving, the clicks and the bootstrap")
    declare_inputs(parser, "runs", "--qrels")
    declare_inputs(parser, "--clicks", keywords=CLICK_MODELS)
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
    parser.add_argument("--format", choices=TABLE_FORMATS, default="text", dest="fmt",
                        help="output format (default text)")
    add_output(parser)


def check_credit(args: argparse.Namespace) -> str:
    """``--credit`` of ``--method`` (the method's default when not given)."""
    if args.credit is None:
        return CREDITS[args.method][0]
    if args.method not in ("probabilistic", "optimized"):
        raise ParameterError(f"--credit applies to --method probabilistic or optimized, "
                             f"not {args.method}")
    if args.credit not in CREDITS[args.method]:
        raise ParameterError(f"--credit of --method {args.method} must be one of "
                             f"{list(CREDITS[args.method])}, got {args.credit!r}")
    return args.credit


def _check(args: argparse.Namespace) -> None:
    """Options that apply to some choices only are refused elsewhere."""
    if args.clicks == "perfect" and args.qrels is None:
        raise ParameterError("--clicks perfect needs --qrels")
    if args.clicks != "perfect":
        for was_given, option in ((given(args, "relevance_level"), "-l/--relevance-level"),
                                  (args.qrels is not None, "--qrels")):
            if was_given:
                raise ParameterError(f"{option} applies to --clicks perfect")
    if args.clicks != "random" and given(args, "probability"):
        raise ParameterError("--click-prob applies to --clicks random")
    if given(args, "tau") and args.method != "probabilistic":
        raise ParameterError("--tau applies to --method probabilistic")
    check_credit(args)
    if args.method == "optimized":
        OPTIMIZED_LENGTH.check(args.length, "--length (length) of --method optimized "
                               "(2^length lists are enumerated)")


def run(args: argparse.Namespace) -> int:
    _check(args)
    import numpy as np

    from ..online.interleaving import check_bootstrap, interleave_runs
    from .outputs import write_text

    rankers = len(args.runs)
    check_bootstrap(args.bootstrap, rankers * (rankers - 1) // 2)  # before any work
    model = args.clicks
    if model not in CLICK_MODELS:  # a click model's JSON file
        from ..online.clickmodels import read_click_model

        model = read_click_model(args.clicks)
    seeds = np.random.SeedSequence(args.seed).spawn(3)
    batch = interleave_runs(distinct_runs(args.runs), args.impressions, method=args.method,
                            length=args.length, credit=args.credit,
                            tau=args.tau, rng=seeds[0])
    clicks = batch.simulate_clicks(
        model, qrels=args.qrels, relevance_level=args.relevance_level,
        probability=args.probability,
        rng=seeds[1])
    result = batch.score(clicks, alpha=args.alpha, bootstrap=args.bootstrap, rng=seeds[2])
    return write_text(args, result.format(args.fmt) + "\n")

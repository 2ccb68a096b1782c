"""``irscale online interleave``: interleave runs, click, score (``docs/online.md``)."""

from __future__ import annotations

import argparse

from ..core.params import RNG_SEED, SIGNIFICANCE
from ..errors import ParameterError
from ..online import params
from .common_params import QRELS_OPTION, RUNS
from .inputs import check_click_model
from .online import add_action, add_table, write_result
from .options import Argument
from .outputs import declare_inputs
from .rules import Declared, Rule, each
from .runargs import add_names, named_runs

#: The interleaving method and its credit rule (``interleave``, ``score``).
METHOD = (params.INTERLEAVING_METHOD, params.CREDIT)


def scores(seed: str) -> tuple[Argument, ...]:
    """``--alpha``, ``--bootstrap``, ``--seed`` (its doc ``seed``) and the table of the
    scores of interleavings (``interleave``, ``score``)."""
    return ((SIGNIFICANCE, {"doc": "significance level; the interval is at 1 - alpha"}),
            params.INTERVAL_BOOTSTRAP, (RNG_SEED, {"doc": seed}), add_table)


def add_parser(subparsers) -> None:
    """Register ``irscale online interleave``."""
    parser = add_action(
        subparsers, "interleave", run,
        (RUNS, {"nargs": "+", "metavar": "RUN",
                "doc": "TREC run files (two, or more for team-draft multileaving)"}),
        (params.CLICKS, {"required": True}),
        (QRELS_OPTION, {"metavar": "FILE", "doc": "qrels of the perfect click model (and of "
                        "a click model whose JSON needs none: not read)"}),
        (params.CLICK_RELEVANCE, {"doc": "perfect clicks: smallest relevant degree"}),
        params.CLICK_PROBABILITY, *METHOD, params.SOFTMAX_TAU, params.TOPIC_IMPRESSIONS,
        params.SHOWN_LENGTH, add_names,
        *scores("seed of the interleaving, the clicks and the bootstrap"),
        inputs=("runs", "--qrels"), rules=RULES,
        help="interleave runs (balanced, team-draft, probabilistic, optimized; "
        "multileaving), click them with a user model, test the outcome of every pair")
    declare_inputs(parser, "--clicks", keywords=params.CLICKING_USERS)


def credit(args: argparse.Namespace) -> str:
    """``--credit``, or the default credit of ``--method``."""
    return args.credit or params.CREDITS[args.method][0]


#: ``--credit``: of the methods that take one, one of theirs.
CREDIT_RULES = (
    Rule(("credit",), lambda args: args.method in ("probabilistic", "optimized"),
         "--credit applies to --method probabilistic or optimized, not {method}"),
    Rule(("credit",), lambda args: args.credit in params.CREDITS[args.method],
         lambda args: "--credit of --method {method} must be one of "
         f"{list(params.CREDITS[args.method])}, got {{credit!r}}"),
)


def _perfect_needs_qrels(args: argparse.Namespace) -> None:
    if args.clicks == "perfect" and args.qrels is None:
        raise ParameterError("--clicks perfect needs --qrels")


def _check_length(args: argparse.Namespace) -> None:
    """``--method optimized`` enumerates 2^length lists: ``--length`` is bounded."""
    if args.method == "optimized":
        params.OPTIMIZED_LENGTH.check(args.length, "--length (length) of --method optimized "
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
    import numpy as np

    from ..io.sources import as_qrels, as_runs

    # every file first: a malformed one is reported before pandas is imported
    runs = list(as_runs(named_runs(args.runs, args.names)))
    qrels = None if args.qrels is None else as_qrels(args.qrels)
    checked = None if args.clicks in params.CLICKING_USERS else check_click_model(args.clicks)
    from ..online.interleaving import check_bootstrap, interleave_runs

    rankers = len(args.runs)
    check_bootstrap(args.bootstrap, rankers * (rankers - 1) // 2)  # before any work
    model = args.clicks if checked is None else checked.build()  # a click model's JSON file
    seeds = np.random.SeedSequence(args.seed).spawn(3)
    batch = interleave_runs(runs, args.impressions, method=args.method, length=args.length,
                            credit=args.credit, tau=args.tau, rng=seeds[0])
    clicks = batch.simulate_clicks(model, qrels=qrels, relevance_level=args.relevance_level,
                                   probability=args.probability, rng=seeds[1])
    return write_result(args, batch.score(clicks, alpha=args.alpha, bootstrap=args.bootstrap,
                                          rng=seeds[2]))

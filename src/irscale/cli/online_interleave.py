"""``irscale online interleave|score|historical|fairpairs``: interleave runs, click, score;
score a logged interleaving; estimate one from another's log; FairPairs preferences of a
run's randomised pairs (docs/online.md)."""

from __future__ import annotations

import argparse
from typing import Any

from ..core.params import RNG_SEED, SIGNIFICANCE, Param, Switch
from ..online import params
from .common_params import INPUTS, QRELS_OPTION, RUNS, RUNS_OPTION
from .inputs import check_click_model
from .online import add_action, add_table
from .options import Argument, add_progress, wants_progress
from .rules import Required, Rule
from .runargs import add_names, distinct_runs, named_runs

#: The interleaving method and its credit rule (``interleave``, ``score``).
METHOD = (params.INTERLEAVING_METHOD, params.CREDIT)
#: ``historical --plain``: without self-normalisation.
PLAIN = Param("plain", Switch(), False, "plain importance sampling (unbiased) instead of "
              "self-normalised", ("--plain",))


#: The users that click the lists shown (``interleave``, ``fairpairs``; their rules:
#: :data:`irscale.online.params.SIMULATE_CLICKS`).
CLICKING: tuple[Argument, ...] = (
    (params.CLICKS, {"required": True}),
    (QRELS_OPTION, {"metavar": "FILE", "doc": "qrels of the perfect click model"}),
    (params.CLICK_RELEVANCE, {"doc": "perfect clicks: smallest relevant degree"}),
    params.CLICK_PROBABILITY)


def interval(bootstrap: Param, seed: str) -> tuple[Argument, ...]:
    """``--alpha``, ``bootstrap``, ``--seed`` (its doc ``seed``) and the table of an
    estimate with an interval at 1 - alpha."""
    return ((SIGNIFICANCE, {"doc": "significance level; the interval is at 1 - alpha"}),
            bootstrap, (RNG_SEED, {"doc": seed}), add_table)


def credit(args: argparse.Namespace) -> str:
    """``--credit``, or the default credit of ``--method``."""
    return args.credit or params.CREDITS[args.method][0]


def _check_credit(args: argparse.Namespace) -> None:
    """``--credit``: one of the rules of ``--method`` (the methods it applies to are the
    binding's), checked before the files are read."""
    params.check_credit(args.method, args.credit)


def add_parser(subparsers) -> None:
    """Register ``online interleave``, ``score`` and ``historical``."""
    add_action(
        subparsers, "interleave", run,
        (RUNS, {"nargs": "+", "metavar": "RUN",
                "doc": "TREC run files (two, or more for team-draft multileaving)"}),
        *CLICKING, *METHOD, params.SOFTMAX_TAU, params.TOPIC_IMPRESSIONS,
        params.SHOWN_LENGTH, add_names,
        *interval(params.INTERVAL_BOOTSTRAP,
                  "seed of the interleaving, the clicks and the bootstrap"),
        binding=params.INTERLEAVE_CLICKS, rules=(_check_credit,),
        example="a.run b.run --clicks perfect --qrels qrels.txt --impressions 5 --seed 1 "
        "--bootstrap 50",
        help="interleave runs (balanced, team-draft, probabilistic, optimized; "
        "multileaving), click them with a user model, test the outcome of every pair")
    add_action(
        subparsers, "score", run_score,
        (INPUTS, {"metavar": "LOG", "doc": "interleaving log (text, gzip or '-')"}),
        (RUNS_OPTION, {"nargs": "+", "metavar": "RUN", "doc": "the rankers' TREC runs, which "
                       "the log's teams name (a run's name, file or run id; needed by "
                       "balanced, optimized and probabilistic marginal credit)"}),
        *METHOD, (params.SOFTMAX_TAU, {"doc": "probabilistic, marginal credit: the softmax "
                                       "exponent the lists were drawn with"}),
        add_names, *interval(params.INTERVAL_BOOTSTRAP, "seed of the bootstrap"),
        binding=params.LOGGED,
        rules=(_check_credit,
               Rule(("names",), lambda args: args.runs is not None,
                    "online score: {options} names the runs of --runs; without them the "
                    "rankers are the log's teams, named as the log names them"),
               Required("runs", lambda args: params.needs_rankings(args.method, credit(args)),
                        lambda args: f"--method {args.method} ({credit(args)} credit) scores "
                        "clicks by the ranks the rankers gave the documents, which the log "
                        "does not hold: give the rankers' runs with --runs")),
        example="score.log --seed 1 --bootstrap 50",
        help="score the clicks of a logged interleaving experiment (impression topic rank "
        "docno team clicked)")
    add_action(
        subparsers, "historical", run_historical,
        (INPUTS, {"metavar": "LOG",
                  "doc": "interleaving log (impression topic rank docno team clicked)"}),
        (params.SOURCE_RUNS, {"nargs": 2, "required": True}),
        (params.TARGET_RUNS, {"nargs": 2, "required": True}),
        (params.SOFTMAX_TAU, {"doc": "softmax exponent of the target interleaving"}),
        params.SOURCE_TAU, PLAIN, *interval(params.OPE_BOOTSTRAP, "seed of the bootstrap"),
        add_progress, binding=params.HISTORICAL,
        example="ilog.txt --source a.run b.run --target b.run c.run",
        help="probabilistic interleaving outcome of two rankers from a log interleaving two "
        "others (Hofmann, Whiteson & de Rijke 2012)")
    add_action(
        subparsers, "fairpairs", run_fairpairs,
        (RUNS, {"metavar": "RUN", "doc": "TREC run file: the ranking presented"}),
        *CLICKING, params.TOPIC_IMPRESSIONS, params.SHOWN_LENGTH,
        (SIGNIFICANCE, {"doc": "significance level of the sign test of every pair"}),
        (RNG_SEED, {"doc": "seed of the offsets, the flips and the clicks"}), add_table,
        binding=params.FAIR_PAIRS_CLICKS,
        example="a.run --clicks perfect --qrels qrels.txt --impressions 5 --seed 1",
        help="FairPairs (Radlinski & Joachims 2006): present a run with adjacent pairs "
        "flipped at random, click, and test the preference of every pair")


def run(args: argparse.Namespace) -> Any:
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
    return batch.score(clicks, alpha=args.alpha, bootstrap=args.bootstrap, rng=seeds[2],
                       progress=wants_progress(args))


def run_score(args: argparse.Namespace) -> Any:
    """``online score``: the pairs of rankers scored on the log's clicks."""
    from ..io.interleaving_log import read_interleaving_log

    log = read_interleaving_log(args.inputs)  # before pandas and scipy are imported
    from ..online.logged import score_log

    runs = None if args.runs is None else named_runs(args.runs, args.names)
    return score_log(log, runs, method=args.method, credit=args.credit, tau=args.tau,
                     alpha=args.alpha, bootstrap=args.bootstrap, rng=args.seed,
                     progress=wants_progress(args))


def run_historical(args: argparse.Namespace) -> Any:
    """``online historical``: the target pair's expected outcome from the source log."""
    from ..io.interleaving_log import read_interleaving_log
    from ..io.sources import as_runs

    # the inputs first: a malformed file is reported before pandas is imported
    log = read_interleaving_log(args.inputs)
    source = as_runs(distinct_runs(args.source))
    target = as_runs(distinct_runs(args.target))
    from ..online.historical import historical_interleaving

    return historical_interleaving(
        log, list(source), list(target), tau=args.tau, source_tau=args.source_tau,
        normalise=not args.plain, confidence_level=1 - args.alpha, bootstrap=args.bootstrap,
        rng=args.seed, progress=wants_progress(args))


def run_fairpairs(args: argparse.Namespace) -> Any:
    """``online fairpairs``: present the run's pairs flipped at random, click, test."""
    import numpy as np

    from ..io.sources import as_qrels, as_runs

    # every file first: a malformed one is reported before pandas is imported
    run = as_runs([args.runs])[0]
    qrels = None if args.qrels is None else as_qrels(args.qrels)
    checked = None if args.clicks in params.CLICKING_USERS else check_click_model(args.clicks)
    from ..online.fairpairs import fair_pairs_run

    model = args.clicks if checked is None else checked.build()
    seeds = np.random.SeedSequence(args.seed).spawn(2)
    shown = fair_pairs_run(run, args.impressions, length=args.length, rng=seeds[0])
    clicks = shown.simulate_clicks(model, qrels=qrels, relevance_level=args.relevance_level,
                                   probability=args.probability, rng=seeds[1])
    return shown.preferences(clicks, alpha=args.alpha)

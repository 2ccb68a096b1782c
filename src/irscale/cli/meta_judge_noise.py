"""``irscale meta judge-noise``: :func:`irscale.collections.judgment_noise`, how the order and
the significance of every pair of runs survive judgment noise (Rashidi, Zobel & Moffat 2023;
docs/meta.md)."""

from __future__ import annotations

import argparse

from ..collections.params import JUDGE_NOISE, NOISE_CORRECTION, NOISE_REPLICATES, NOISE_TEST
from ..core.params import RELEVANCE, RNG_SEED, SIGNIFICANCE, Param, Switch
from ..errors import ParameterError
from .confusion_options import CONFUSION_OPTIONS, read_confusion_options
from .eval_options import intent_rules
from .inputs import qrels_and_runs
from .meta_common import add_analysis, render
from .outputs import Done
from .runargs import read_inputs

#: ``--summary``: the measures' table alone.
SUMMARY = Param("summary", Switch(), False, "print the fragility of each measure only (by "
                "default, text formats print it after the pairs, csv and json the pairs "
                "only)", ("--summary",))


def add_parser(subparsers) -> None:
    """``meta judge-noise``: QRELS RUN..., the confusion, the replicates and the test."""
    add_analysis(
        subparsers, "judge-noise", run_judge_noise, *CONFUSION_OPTIONS, NOISE_REPLICATES,
        RNG_SEED, NOISE_TEST, NOISE_CORRECTION,
        (SIGNIFICANCE, {"doc": "significance level of --test"}), RELEVANCE, SUMMARY,
        binding=JUDGE_NOISE,
        example="binary.txt a.run b.run c.run -m map --flip-rate 0.1 --replicates 3 --seed 1",
        scores=False, systems=False, measure_help="measure (repeatable; at least one)",
        help="how the order and significance of every pair of runs survive noisy judges "
        "(Rashidi, Zobel & Moffat 2023)",
        description="Relabel the qrels with a confusion model of the judges (stated, a flip "
        "rate, or estimated from a double-judged sample or from the human sample of irscale "
        "labels auto), evaluate the runs on every replicate, and report how often each pair "
        "keeps its order and its significance decision, and how fragile each measure is. See "
        "docs/meta.md.",
        rules=intent_rules("diversity measures, not to meta judge-noise", lambda args: False))


def run_judge_noise(args: argparse.Namespace) -> Done:
    """``meta judge-noise``: the pairs' table (and the measures' summary)."""
    if not args.measures:
        raise ParameterError("name the measures with -m (e.g. -m map -m P@10)")
    qrels, runs = read_inputs(*qrels_and_runs(args))  # before the analysis is imported
    confusion = read_confusion_options(args)
    from ..collections.judgment_noise import judge_noise
    from .options import wants_progress

    result = judge_noise(qrels, runs, args.measures, confusion, replicates=args.replicates,
                         rng=args.seed, test=args.test, correction=args.correction,
                         alpha=args.alpha, relevance_level=args.relevance_level,
                         allow_empty=args.allow_empty,
                         progress=wants_progress(args))
    if args.summary:
        return render(result.measures, args, "fragility of each measure ("
                                       f"{result!r})")
    return result.format(args.fmt, digits=args.digits)

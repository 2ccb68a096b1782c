"""``irscale meta informativeness``: the informativeness of measures by the maximum entropy
method (Aslam, Yilmaz & Pavlu 2005; of diversity measures with diversity qrels, Ashkan &
Clarke 2011). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import RELEVANCE, Param, Switch
from ..errors import ParameterError
from ..meta.params import (
    INFORMATIVENESS_MEASURES,
    INTENT_INFORMATIVENESS_MEASURES,
    JUDGED_DEPTH,
    JUDGED_LISTS,
)
from .inputs import diversity_inputs, qrels_and_runs
from .intervals import add_interval_options, interval_arguments
from .meta_common import add_analysis, render
from .options import wants_progress
from .outputs import Done
from .rules import Default, Rule
from .runargs import read_inputs

#: ``--per-list``: every run and topic, not the means.
PER_LIST = Param("per_list", Switch(), False, "print every run and topic (default: the mean "
                 "per measure)", ("--per-list",))


def add_parser(subparsers) -> None:
    """``meta informativeness``: the maximum entropy method of Aslam, Yilmaz & Pavlu."""
    add_analysis(
        subparsers, "informativeness", run_informativeness, JUDGED_DEPTH,
        (RELEVANCE, {"doc": "smallest relevant grade of graded qrels"}), PER_LIST,
        lambda p: add_interval_options(p, "each measure's mean RMS error", alpha=True,
                                       how="over the lists (runs × topics): t (Student) or "
                                       "bootstrap (percentile, lists resampled)"),
        example="qrels.txt a.run b.run c.run -m AP",
        min_runs=1, scores=False, systems=False, measure_help="AP, R-prec or P@k; with "
        "diversity qrels alpha-nDCG@k, alpha-DCG@k, ERR-IA@k, nERR-IA@k, NRBP, nNRBP or "
        "P-IA@k (repeatable; default: " + ", ".join(INFORMATIVENESS_MEASURES) + "; with "
        "--qrels-format diversity: " + ", ".join(INTENT_INFORMATIVENESS_MEASURES) + ")",
        help="informativeness of measures by the maximum entropy method (Aslam, Yilmaz & "
        "Pavlu 2005; Ashkan & Clarke 2011)",
        description="The RMS error of the precision-recall curve (with diversity qrels: of "
        "every intent's) inferred by maximum entropy from each measure, per run and topic, "
        "and its mean per measure; see docs/meta.md.",
        rules=[Default("measures", lambda args: list(
            INTENT_INFORMATIVENESS_MEASURES if getattr(args, "qrels_format", None)
            == "diversity" else INFORMATIVENESS_MEASURES)),
               Rule(("ci",), lambda args: not args.per_list, "--ci gives the means their "
                    "intervals: not with --per-list (every list's error, no mean)"),
               # (judged_intent_lists reads every intent's judgment: no relevance level)
               Rule(("relevance_level",), lambda args: not diversity_inputs(args),
                    "{options} {applies} to graded qrels, not to diversity qrels (each "
                    "intent's judgments are read as they are)")],
        binding=JUDGED_LISTS)


def run_informativeness(args: argparse.Namespace) -> Done:
    """``meta informativeness``: Aslam, Yilmaz & Pavlu (2005) on QRELS RUN...; Ashkan &
    Clarke (2011) on diversity QRELS RUN..."""
    from .. import meta

    if diversity_inputs(args):
        from ..io.sources import as_runs
        from ..meta.intent_informativeness import cascade

        path, named = qrels_and_runs(args, keep_rank=True)  # ndeval ranks by the rank column
        for name in args.measures:  # the measures refused before any file is read
            cascade(name)
        intent_lists, intent_bases, ideal = meta.judged_intent_lists(
            path, list(as_runs(named, keep_rank=True)), depth=args.depth,
            measures=args.measures)
        if not intent_lists:
            raise ParameterError(f"no run ranks a topic of the diversity qrels {path} that "
                                 "has an intent: nothing to infer")
        result = meta.intent_informativeness(intent_lists, measures=args.measures,
                                             recall_base=intent_bases, ideal=ideal,
                                             progress=wants_progress(args))
    else:
        qrels, runs = read_inputs(*qrels_and_runs(args))  # before pandas is imported
        lists, bases = meta.judged_lists(qrels, runs, depth=args.depth,
                                         relevance_level=args.relevance_level)
        result = meta.informativeness(lists, measures=args.measures, recall_base=bases,
                                      progress=wants_progress(args))
    if args.per_list:
        return render(result.to_frame(), args, repr(result))
    return result.format(args.fmt, digits=args.digits, interval=args.ci,
                                          alpha=args.alpha, **interval_arguments(args))

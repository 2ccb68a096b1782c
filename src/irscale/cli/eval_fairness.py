"""``irscale eval`` with fairness and exposure measures (EE-L, EE-R, EE-D, AWRF, nDCG-AWRF):
every run is read as a stochastic run (its second column numbers the sample:
:mod:`irscale.io.stochastic`) and the document groups come from ``--labels groups=FILE``
(usage: ``docs/measures.md``, "Fairness and exposure")."""

from __future__ import annotations

import argparse

from .rules import Rule, each


def wants_fairness(args: argparse.Namespace) -> bool:
    """True when every ``-m`` measure is a fairness measure; a mix with other measures is a
    :class:`~irscale.errors.MeasureError`."""
    from ..measures.names import is_measure_name

    names = [n for spec in (args.measures or []) for n in spec.split()]
    if not names or all(map(is_measure_name, names)):
        return False
    from ..evaluation.fairness import fairness_requested

    return fairness_requested(names)


#: The options of ``eval`` that fairness measures do not read.
NOT_READ = {"relevance_level": "-l", "judged_only": "-J", "num_docs_in_coll": "-N",
            "compat": "--compat", "ties": "--ties", "complete": "-c",
            "max_retrieved": "-M", "zscores": "-Z/--Zscore", "baseline": "--baseline",
            "cache": "--cache", "batch_size": "--batch-size", "scheduler": "--scheduler",
            "workers": "--workers", "per_topic_out": "--per-topic-out",
            "intent_probs": "--intent-probs", "intent_types": "--intent-types"}

#: When ``eval``'s options apply to fairness measures (``args.fairness``).
FAIRNESS_RULES = (
    Rule(("fmt",), lambda args: not args.fairness or args.fmt not in ("latex", "ndeval"),
         "--format {fmt} does not apply to fairness measures (trec, csv, json or markdown)"),
    *each(tuple(NOT_READ), lambda args: not args.fairness,
          "{options} does not apply to fairness measures (they read stochastic runs: "
          "the sampled rankings of each topic, ranked by score)", NOT_READ),
)


def run_fairness(args: argparse.Namespace) -> int:
    """``eval`` with fairness measures (its options checked: :data:`FAIRNESS_RULES`): what
    :func:`irscale.evaluate` does with them, every run file (a folder or a glob pattern:
    its run files) a stochastic run named as ``--names`` says."""
    from ..evaluation import evaluate
    from ..evaluation.fairness import read_runs
    from ..io.naming import name_runs
    from ..io.sources import expands, run_files
    from .outputs import open_output
    from .runargs import distinct_runs, label_files

    paths = distinct_runs([file for path in args.runs
                           for file in (run_files(path) if expands(path) else [path])])
    runs = name_runs(read_runs(paths), args.names or "runid")
    evaluation = evaluate(args.qrels, runs, args.measures, labels=label_files(args.labels),
                          allow_empty=args.allow_empty)
    with open_output(args) as stream:
        evaluation.write(stream, args.fmt, per_query=args.per_query,
                         summary=not args.no_summary)
    return 0

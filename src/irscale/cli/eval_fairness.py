"""``irscale eval`` with fairness and exposure measures (EE-L, EE-R, EE-D, AWRF, nDCG-AWRF):
every run is read as a stochastic run (its second column numbers the sample:
:mod:`irscale.io.stochastic`) and the document groups come from ``--labels groups=FILE``
(usage: ``docs/measures.md``, "Fairness and exposure")."""

from __future__ import annotations

import argparse

from .rules import each

#: The options of ``eval`` that fairness measures do not read besides
#: :func:`irscale.evaluate`'s (those are refused by the one rule of
#: :mod:`irscale.cli.eval_context`).
NOT_READ = {"baseline": "--baseline", "batch_size": "--batch-size",
            "scheduler": "--scheduler", "workers": "--workers",
            "per_topic_out": "--per-topic-out"}


def _fairness(args: argparse.Namespace) -> bool:
    return bool(args.context.name == "fairness")


#: When ``eval``'s own options apply to fairness measures (its formats: the one rule of
#: :data:`irscale.cli.eval.RULES` on the context's declared ``formats``).
FAIRNESS_RULES = (
    *each(tuple(NOT_READ), lambda args: not _fairness(args),
          lambda args: args.context.refusal("{options}"), NOT_READ),
)


def run_fairness(args: argparse.Namespace) -> int:
    """``eval`` with fairness measures (its own options checked: :data:`FAIRNESS_RULES`): what
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

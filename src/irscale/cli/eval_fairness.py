"""``irscale eval`` with fairness and exposure measures (EE-L, EE-R, EE-D, AWRF, nDCG-AWRF):
every run is read as a stochastic run (its second column numbers the sample:
:mod:`irscale.io.stochastic`) and the document groups come from ``--labels groups=FILE``
(usage: ``docs/measures.md``, "Fairness and exposure")."""

from __future__ import annotations

import argparse


def run_fairness(args: argparse.Namespace) -> int:
    """``eval`` with fairness measures (the options their context does not read refused by
    the one rule of :mod:`irscale.cli.eval_context`): what
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

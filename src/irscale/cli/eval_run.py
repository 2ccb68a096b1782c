"""The run of ``irscale eval`` (:func:`run`): trec_eval's text straight from the files
where the context has one and the call asks for it alone, otherwise the evaluation by the
context, with its baseline, bounds or output formats. Light to load (the runs' paths, the
measures as trec_eval reads them, the record of what was given): the command line of
trec_eval's options runs it without the declarations of ``eval``'s options
(:mod:`irscale.cli.eval_path`), and what only the other calls use is loaded where they
ask for it."""

from __future__ import annotations

from .given import wants_progress
from .runargs import (
    TREC_EVAL_DESTS,
    label_files,
    read_named,
    requested_measures,
    run_paths,
    trec_eval_arguments,
    wants_batches,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from collections.abc import Sequence

    from ..io.naming import NameSpec
    from ..measures.results import Evaluation
    from .outputs import Done
    from .outputs import Output as Written


def run(args: argparse.Namespace) -> Done:
    """``irscale eval``: the measures of every run, as trec_eval (or the reference tool of
    the context) prints them, by the context of the call (``args.context``) as it declares
    (how its run files are read, its text straight from the files, the options of its
    runner an output format asks for, its baseline run, its own output formats). What
    trec_eval's path does not use (the dataset conventions' note, the batches, a baseline,
    the bounds, the other formats) is loaded where the call asks for it."""
    if getattr(args, "conventions_note", None) is not None:
        from .dataset_options import note

        note(args)  # the dataset conventions applied (--dataset, irds: qrels)
    if wants_batches(args):
        from . import eval_many

        return eval_many.run(args)
    context = args.context
    labels = label_files(args.labels)
    keep_rank = context.keep_rank or args.ties == "rank-column"
    runs = read_runs(args, args.runs, args.names, keep_rank=keep_rank)
    measures = requested_measures(args)
    printed = _text(args, runs, measures, labels)
    if printed is not None:
        return printed
    return evaluated(args, runs, measures, labels, keep_rank=keep_rank)


def _text(args: argparse.Namespace, runs: Sequence[object], measures: list[str],
          labels: dict[str, str]) -> Done | None:
    """The text straight from the files, where the context has one
    (:meth:`~irscale.evaluation.context.Context.text`) and the call asks for its text
    alone (``--format trec``, no baseline, labels, z-scores or bounds); ``--cache``'s entry
    the text itself. None otherwise, or where the context does not take the measures or
    inputs alone."""
    context = args.context
    if args.fmt != "trec" or args.baseline is not None or labels \
            or args.zscores is not None or args.bounds:
        return None
    return context.text(args.qrels, runs, measures, allow_empty=args.allow_empty,
                        per_query=args.per_query, summary=not args.no_summary,
                        cache=args.cache, **trec_eval_arguments(args))


def read_runs(args: argparse.Namespace, paths: Sequence[str], names: NameSpec | None, *,
              keep_rank: bool) -> Sequence[object]:
    """The runs of ``paths`` (run files, folders, glob patterns), named as ``names`` says,
    read as the context declares (:meth:`~irscale.evaluation.context.Context.read_runs`),
    by default as TREC run files (``keep_rank``: their rank column kept)."""
    files = run_paths(paths)
    return args.context.read_runs(files, names, lambda: read_named(
        files, names, keep_rank=keep_rank, progress=wants_progress(args)))


def evaluated(args: argparse.Namespace, runs: Sequence[object], measures: list[str],
              labels: dict[str, str], *, keep_rank: bool) -> Done:
    """What :func:`run` returns where the call asks for more than
    the text straight from the files: the evaluation of ``runs`` (read as the context
    declares) against QRELS, with its baseline run (a run's name or file, or a run of its
    own for a context that reads one), or the bounds under the unjudged documents, in
    ``--format``."""
    context = args.context
    baseline = args.baseline
    if baseline is not None and not context.baseline_run:
        # a run's name, or its file (path, file name or stem)
        from ..io.naming import find_run
        from ..io.sources import as_runs

        runs = as_runs(runs, keep_rank=keep_rank)
        baseline = find_run(baseline, runs)
    qrels, read = args.qrels, None
    if args.bounds:  # the qrels read for their grades, evaluated again from their file
        from ..collections.bounds import qrels_again
        from ..io.sources import as_qrels

        read = as_qrels(qrels)
        qrels = qrels_again(qrels, read)
    evaluation = _evaluate(args, qrels, runs, measures, labels)
    if baseline is not None and context.baseline_run:
        # the baseline run evaluated with the same measures and options
        baseline = _evaluate(args, qrels, read_runs(args, [baseline], "file",
                                                    keep_rank=keep_rank), measures, labels)
    if read is not None:  # the bounds under the unjudged documents instead of the values
        from ..collections.bounds import evaluation_bounds

        bounds = evaluation_bounds(evaluation, read, list(evaluation.measures),
                                   progress=wants_progress(args))
        return bounds.format(args.fmt, per_topic=args.per_query)
    return _written(args, evaluation, baseline)


def _written(args: argparse.Namespace, evaluation: Evaluation,
             baseline: Evaluation | str | None) -> Done:
    """The output of ``evaluation``: the means' intervals (``--ci``, where the format does
    not print them itself), a format of the context's own (with its options, its
    ``baseline``), or a format every evaluation writes."""
    output = next((o for o in args.context.outputs if o.name == args.fmt), None)
    if args.ci is not None and (output is None or not output.intervals):
        from .intervals import intervals_text

        return intervals_text(args, evaluation)  # the means' intervals
    if output is None:
        return write_evaluation(args, evaluation)
    # a format of the context's own, before the output is opened
    return evaluation.format(
        args.fmt, per_query=args.per_query, summary=not args.no_summary,
        baseline=baseline, **{option: getattr(args, option) for option in output.options},
        **({key: getattr(args, dest) for dest, key in INTERVAL_KEYWORDS.items()}
           if output.intervals else {}))


def _evaluate(args: argparse.Namespace, qrels: object, runs: object, measures: list[str],
              labels: dict[str, str]) -> Evaluation:
    """The evaluation of ``runs`` against ``qrels`` by ``args.context``
    (:func:`irscale.evaluation.api.evaluate_by`) with the options of
    :func:`irscale.evaluate` given (the others refused by :func:`refuse_unread_options`),
    the options of its runner it reads (:data:`~irscale.evaluation.context.RUNNER_OPTIONS`)
    and those ``--format`` asks for
    (:meth:`~irscale.evaluation.context.Context.format_options`)."""
    from ..evaluation.api import call_values, evaluate_by
    from ..evaluation.context import RUNNER_OPTIONS

    context = args.context
    values = call_values(labels=labels, allow_empty=args.allow_empty, zscores=args.zscores,
                         cache=args.cache, relevance_format=args.relevance_format,
                         intent_probabilities=args.intent_probs,
                         intent_types=args.intent_types, **trec_eval_arguments(args))
    runner = {option: getattr(args, dest) for dest, option in API_OPTIONS.items()
              if option in RUNNER_OPTIONS & context.reads}
    runner.update(context.format_options(args.fmt))
    return evaluate_by(context, [qrels, runs], measures, values, **runner)


#: The options of the means' intervals, as :meth:`~irscale.measures.results.Evaluation.format`
#: names them for an output format that prints them (:attr:`Output.intervals`).
INTERVAL_KEYWORDS = {"ci": "interval", "ci_samples": "interval_samples",
                     "ci_seed": "interval_rng"}


def write_evaluation(args: argparse.Namespace, evaluation: Evaluation) -> Written:
    """The output of ``evaluation`` as ``--format``, ``-q`` and ``-n`` say (written by the
    one writer as the evaluation writes it: per-topic lines a block at a time)."""
    from .outputs import Output

    return Output(lambda stream: evaluation.write(stream, args.fmt, per_query=args.per_query,
                                                  summary=not args.no_summary), mode="wb")


#: ``eval``'s options that a context may read (:attr:`~irscale.evaluation.context.Context.reads`:
#: :func:`irscale.evaluate`'s and its outputs', :data:`~irscale.evaluation.context.OUTPUT_OPTIONS`):
#: destination → option name.
API_OPTIONS = {**{dest: name for name, dest in TREC_EVAL_DESTS.items()},
               "labels": "labels", "zscores": "zscores", "cache": "cache",
               "intent_probs": "intent_probabilities", "intent_types": "intent_types",
               "relevance_format": "relevance_format", "baseline": "baseline",
               "test": "test", "correction": "correction", "alpha": "alpha",
               "topic_alpha": "topic_alphas", "ci": "interval", "bounds": "bounds",
               **dict.fromkeys(("batch_size", "scheduler", "workers", "per_topic_out"),
                               "batches")}


__all__ = ["API_OPTIONS", "INTERVAL_KEYWORDS", "evaluated", "read_runs", "run", "write_evaluation"]

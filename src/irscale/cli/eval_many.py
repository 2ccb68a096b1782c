"""``irscale eval-many``: evaluate thousands of run files in batches, memory bounded by a
batch per worker (:mod:`irscale.evaluation.many`; usage: ``docs/cli.md``)."""

from __future__ import annotations

import argparse
import os
import warnings

from ..core.params import OutputPath, Param
from ..errors import ParameterError
from ..evaluation.params import EVALUATE_MANY
from ..io.formats import OUTPUT_FORMATS
from .common_params import ALLOW_EMPTY, FORMAT, MEASURES, QRELS, RUNS
from .intervals import add_interval_options, intervals_text
from .main import SUBCOMMANDS
from .options import (
    add_command,
    add_output,
    add_progress,
    check_scheduler,
    scheduler,
    wants_progress,
)
from .outputs import Done, Folder, Output, inside_folder
from .runargs import TREC_EVAL_DESTS as TREC_EVAL_DESTS
from .runargs import (
    add_batch_options,
    add_cache_option,
    add_names,
    add_trec_eval_options,
    requested_measures,
    trec_eval_arguments,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from typing import Any

#: ``--write-zscores FILE``: the runs' moments as a ``trec_eval -Z`` file.
WRITE_ZSCORES = Param("write_zscores", OutputPath(), None, "also write a Z file of the runs for "
                      "irscale eval -Z (and trec_eval -Z): per topic and per-topic measure, "
                      "the mean and the sample standard deviation of the runs' values, one "
                      "line 'qid measure mean std_dev'", ("--write-zscores",), "FILE")


def add_parser(subparsers) -> None:
    """Register ``irscale eval-many``."""
    add_command(
        subparsers, "eval-many", run, (QRELS, {"doc": "qrels file: qid iter docno rel"}),
        (RUNS, {"nargs": "+", "metavar": "RUNS", "doc": "folder(s) of run files, glob "
                "pattern(s) such as 'runs/*.gz' (quoted), or run files: TREC (plain or "
                "gzip) or Parquet"}),
        (MEASURES, {"action": "append", "doc": "measure or nickname (repeatable), as in "
                    "irscale eval", "unset": "official"}),
        add_batch_options, add_cache_option,
        lambda p: add_names(p, metavar="file|runid|A,B,...", doc="how to name the runs: file "
                            "(default: the file name without extension, longer forms where "
                            "those collide), runid (the run id of each file; two files with "
                            "one run id are an error), or one name per file in order: a,b,c"),
        ALLOW_EMPTY, add_trec_eval_options,
        (FORMAT, {"choices": OUTPUT_FORMATS, "default": "trec",
                  "doc": "format of the summary (as irscale eval)"}),
        WRITE_ZSCORES,
        lambda p: add_interval_options(p, "every mean, instead of the summary",
                                       formats=("csv", "json", "markdown"), alpha=True),
        add_progress, lambda p: add_output(p, what="summary"),
        rules=(check_scheduler,), binding=EVALUATE_MANY,
        example="qrels.txt a.run b.run -m map --no-progress",
        help=SUBCOMMANDS["eval-many"],
        description="Evaluate many TREC or Parquet run files as 'irscale eval' does, in "
        "batches of --batch-size files, so that memory holds a batch per worker. See "
        "docs/cli.md.")


def run(args: argparse.Namespace) -> Done:
    """``irscale eval-many`` (and ``eval`` with a batch option): the summary of the runs,
    evaluated a batch of files at a time. With ``--per-topic-out`` the folder is an output
    of the call (:class:`~irscale.cli.outputs.Folder`): the one writer builds it, the
    evaluation writing its parts there, and the outputs after it (the Z file, the
    summary) are made from it while it is built, before it takes its name."""
    from ..evaluation.many import check_out, run_files

    files = run_files(args.runs)
    out = args.per_topic_out
    zscores = getattr(args, "write_zscores", None)
    if out is not None:
        check_out(out, files, force=args.force, option="--per-topic-out")
        if args.output != "-" and inside_folder(args.output, out):
            raise ParameterError(f"-o {args.output} lies in --per-topic-out {out}: write "
                                 "the summary elsewhere")
        evaluated: list[Any] = []

        def fill(folder: str) -> None:
            evaluated.append(_evaluate(args, files, folder))

        return [Output(Folder(fill, "--per-topic-out", replace=True), out),
                *_outputs(args, lambda: evaluated[0], zscores, later=True)]
    import tempfile

    with tempfile.TemporaryDirectory() as work:
        # the per-topic values the Z file and --ci need, read before the folder goes
        kept = zscores is not None or getattr(args, "ci", None)
        many = _evaluate(args, files, os.path.join(work, "per-topic") if kept else None)
        return _outputs(args, lambda: many, zscores, later=False)


def _evaluate(args: argparse.Namespace, files: list[str], folder: str | None) -> Any:
    """:func:`irscale.evaluate_many` of the call, its per-topic values in ``folder``."""
    from ..evaluation.many import evaluate_many

    with scheduler(args) as executor:
        return evaluate_many(
            args.qrels, files, requested_measures(args),
            batch_size=args.batch_size, executor=executor,
            workers=args.workers, out=folder, force=args.force,
            names=args.names or "file", allow_empty=args.allow_empty,
            progress=wants_progress(args), cache=args.cache, **trec_eval_arguments(args))


def _outputs(args: argparse.Namespace, evaluated: Callable[[], Any], zscores: str | None, *,
             later: bool) -> list[Output]:
    """The Z file (``--write-zscores``) and the summary (``--ci``: the means with their
    intervals) of the evaluation ``evaluated()``; the texts that read the per-topic values
    back made now, or, ``later``, when the one writer writes them (the evaluation and its
    folder are made by an output before them)."""
    from ..io.output import write_summary

    def text(make: Callable[[], str | bytes], path: str | None = None) -> Output:
        return Output(lambda stream: stream.write(make()), path, mode="wb" if path is None
                      else "w") if later else Output(make(), path)

    side = [] if zscores is None else [text(lambda: _zscores_text(evaluated()), zscores)]
    if getattr(args, "ci", None):
        return [*side, text(lambda: intervals_text(args, evaluated()).encode())]
    return [*side, Output(lambda stream: write_summary(evaluated(), stream, fmt=args.fmt),
                          mode="wb")]


def _zscores_text(many: Any) -> str:
    """The Z file of the runs (:func:`irscale.stats.standardisation.zscore_moments`), with
    a warning naming the topics it leaves out."""
    from ..io.zscores import format_zscores
    from ..stats.standardisation import zscore_moments

    moments, lacking = zscore_moments(many)
    if lacking:
        warnings.warn(f"--write-zscores: {len(lacking)} topic(s) with fewer than 2 runs "
                      f"evaluated have no line in the Z file: {', '.join(lacking[:10])}"
                      f"{' ...' if len(lacking) > 10 else ''}", stacklevel=2)
    return format_zscores(moments)

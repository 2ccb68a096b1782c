"""``irscale eval-many``: evaluate thousands of run files in batches, memory bounded by a
batch per worker (:mod:`irscale.evaluation.many`; usage: ``docs/cli.md``)."""

from __future__ import annotations

import argparse
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

from ..core.params import BATCH, THREADS, Param, Text
from ..errors import ParameterError
from ..io.files import atomic_output
from ..io.formats import OUTPUT_FORMATS
from .common_params import ALLOW_EMPTY, MEASURES, QRELS, RUNS
from .intervals import add_interval_options, intervals_text
from .main import given
from .options import (
    add_format,
    add_output,
    add_param,
    add_progress,
    add_scheduler,
    check_scheduler,
    scheduler,
    wants_progress,
)
from .outputs import declare_inputs, declare_outputs, open_output
from .rules import check_options
from .runargs import add_names, add_trec_eval_options


def add_parser(subparsers) -> None:
    """Register ``irscale eval-many``."""
    parser = subparsers.add_parser(
        "eval-many",
        help="evaluate many run files (folders, globs) in batches, memory bounded by a batch",
        description="Evaluate many TREC or Parquet run files against TREC qrels, exactly as "
        "'irscale eval' (trec_eval 9.0.8) does, in batches of --batch-size files so that "
        "memory holds a batch per worker, not every run. Prints the summary lines as "
        "'irscale eval' prints them; --per-topic-out DIR keeps the per-topic values as "
        "Parquet files (one per batch, part-00000.parquet ...). A run file that cannot be "
        "read stops the job and nothing is written.",
    )
    add_param(parser, QRELS, doc="qrels file: qid iter docno rel")
    add_param(parser, RUNS, nargs="+", metavar="RUNS",
              doc="folder(s) of run files, glob pattern(s) such as 'runs/*.gz' "
              "(quoted), or run files: TREC (plain or gzip) or Parquet")
    add_param(parser, MEASURES, action="append", doc="measure or nickname (repeatable), as "
              "in irscale eval", unset="official")
    add_batch_options(parser)
    add_cache_option(parser)
    add_names(parser, metavar="file|runid|A,B,...", doc="how to name the runs: file "
              "(default: the file name without extension, longer forms where those collide),"
              " runid (the run id of each file; two files with one run id are an error), or "
              "one name per file in order: a,b,c")
    add_param(parser, ALLOW_EMPTY)
    add_trec_eval_options(parser)
    add_format(parser, OUTPUT_FORMATS, default="trec",
               doc="format of the summary (as irscale eval)")
    parser.add_argument("--write-zscores", metavar="FILE",
                        help="also write a Z file of the runs for irscale eval -Z (and "
                        "trec_eval -Z): per topic and per-topic measure, the mean and the "
                        "sample standard deviation of the runs' values, one line "
                        "'qid measure mean std_dev'")
    declare_outputs(parser, "--write-zscores")
    add_interval_options(parser, "every mean, instead of the summary",
                         formats=("csv", "json", "markdown"), alpha=True)
    add_progress(parser)
    add_output(parser, what="summary")
    declare_inputs(parser, "qrels", "runs")
    parser.set_defaults(func=run)


#: ``--per-topic-out DIR``: the per-topic values, as Parquet files.
PER_TOPIC_OUT = Param("per_topic_out", Text(), None, "write the per-topic values (run, topic, "
                      "measure, value) as Parquet files to folder DIR, written whole or not at "
                      "all; a folder holding files is replaced only with --force, and only "
                      "when it holds an earlier output", ("--per-topic-out",), "DIR")
#: ``--cache DIR``: the results cache (docs/evaluation.md, "The results cache").
CACHE = Param("cache", Text(), None, "results cache: an evaluation done before (same input "
              "bytes, measures, options and irscale version) is read from folder DIR, others "
              "are evaluated and stored there (eval-many: one entry per run file, so that only "
              "new or changed runs are evaluated)", ("--cache",), "DIR")


def add_batch_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--batch-size``, ``--scheduler``, ``--workers`` and ``--per-topic-out``
    (``eval-many``, and ``eval``, which streams its runs in batches when one is given)."""
    add_param(parser, BATCH)
    add_scheduler(parser, "the batches")
    add_param(parser, THREADS, doc="threads of this process running batches")
    add_param(parser, PER_TOPIC_OUT)
    declare_outputs(parser, "--per-topic-out", kind="folder")


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    """``--cache DIR``: the results cache of ``eval`` and ``eval-many``
    (docs/evaluation.md, "The results cache")."""
    add_param(parser, CACHE)
    declare_outputs(parser, "--cache", kind="folder")


def trec_eval_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The arguments of :func:`irscale.evaluate` that trec_eval's options give
    (:func:`irscale.cli.runargs.add_trec_eval_options`; ``eval`` and ``eval-many``): the
    declared ones (:data:`irscale.cli.eval_context.TREC_EVAL_DESTS`)."""
    from .eval_context import TREC_EVAL_DESTS

    return {name: getattr(args, dest) for name, dest in TREC_EVAL_DESTS.items()}


def wants_batches(args: argparse.Namespace) -> bool:
    """True when ``eval`` was given one of :func:`add_batch_options`' options."""
    return any(given(args, name)
               for name in ("batch_size", "scheduler", "workers", "per_topic_out"))


def run(args: argparse.Namespace) -> int:
    """``irscale eval-many`` (and ``eval`` with a batch option): the summary of the runs,
    evaluated a batch of files at a time."""
    check_options(args)  # (again after eval's: the rules are checks and defaults)
    check_scheduler(args)  # its form and the memory of local:N, before numpy is imported
    from ..evaluation.many import check_out, evaluate_many, run_files
    from ..io.output import write_summary

    files = run_files(args.runs)
    if args.per_topic_out is not None:
        check_out(args.per_topic_out, files, force=args.force, option="--per-topic-out")
        if args.output != "-" and Path(os.path.realpath(args.output)).is_relative_to(
                os.path.realpath(args.per_topic_out)):
            raise ParameterError(f"-o {args.output} lies in --per-topic-out "
                                 f"{args.per_topic_out}: write the summary elsewhere")
    zscores = getattr(args, "write_zscores", None)
    with tempfile.TemporaryDirectory() as work, scheduler(args) as executor:
        out = args.per_topic_out
        if (zscores is not None or getattr(args, "ci", None)) and out is None:
            # the per-topic values the Z file and --ci need
            out = os.path.join(work, "per-topic")
        many = evaluate_many(
            args.qrels, files, args.measures or ["official"],
            batch_size=args.batch_size, executor=executor,
            workers=args.workers, out=out, force=args.force,
            names=args.names or "file", allow_empty=args.allow_empty,
            progress=wants_progress(args), cache=args.cache, **trec_eval_arguments(args))
        text = None if zscores is None else zscores_text(many)
        # --ci: the means with their intervals, read back before the folder goes
        means = intervals_text(args, many) if getattr(args, "ci", None) else None
    if zscores is not None:
        with atomic_output(zscores, "w", force=args.force) as stream:
            stream.write(text)
    with open_output(args) as stream:
        if means is not None:
            stream.write(means.encode())
        else:
            write_summary(many, stream, fmt=args.fmt)
    return 0


def zscores_text(many: Any) -> str:
    """The Z file of an :func:`~irscale.evaluation.many.evaluate_many` result whose
    per-topic values were kept: per topic (in the table's order) and measure, the mean and
    the sample standard deviation of the runs' values
    (:func:`irscale.stats.standardisation.reference_moments`), as
    :func:`irscale.io.zscores.format_zscores` writes them. gm_map and gm_bpref, which have
    no per-topic values of their own, get those of ``log(max(v, 1e-5))`` of map's and
    bpref's values where those were evaluated too (what trec_eval holds per topic and
    ``-Z`` converts: m_gm_map.c). A topic fewer than two runs were evaluated on has no
    standard deviation: it is left out, and a warning names it (``irscale eval -Z`` and
    trec_eval print -1000000 there)."""
    import numpy as np

    from ..core.scorematrix import ScoreMatrix
    from ..io.zscores import format_zscores
    from ..measures.results import PER_TOPIC_OF
    from ..stats.standardisation import reference_moments

    matrix = ScoreMatrix.from_frame(many.per_topic(), allow_missing=True)
    logs = [(c.label, matrix.measures.index(PER_TOPIC_OF[c.label])) for c in many.columns
            if c.aggregate == "gmean" and PER_TOPIC_OF.get(c.label) in matrix.measures]
    if logs:
        values = matrix.values[:, :, [k for _, k in logs]]
        floor = 1e-5  # trec_eval.h's MIN_GEO_MEAN, as C's MAX(v, MIN_GEO_MEAN)
        with np.errstate(invalid="ignore"):
            logged = np.where(np.isnan(values), np.nan,
                              np.log(np.where(values > floor, values, floor)))
        matrix = ScoreMatrix(np.concatenate([matrix.values, logged], axis=2), matrix.topics,
                             matrix.systems, (*matrix.measures, *(label for label, _ in logs)))
    mean, sd = reference_moments(matrix, partial=True)
    lacking = [topic for t, topic in enumerate(matrix.topics) if np.isnan(sd[t]).any()]
    if lacking:
        warnings.warn(f"--write-zscores: {len(lacking)} topic(s) with fewer than 2 runs "
                      f"evaluated have no line in the Z file: {', '.join(lacking[:10])}"
                      f"{' ...' if len(lacking) > 10 else ''}", stacklevel=2)
    return format_zscores(
        (topic, measure, mean[t, m], sd[t, m])
        for t, topic in enumerate(matrix.topics) for m, measure in enumerate(matrix.measures)
        if not np.isnan(sd[t, m]))

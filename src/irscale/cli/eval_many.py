"""``irscale eval-many``: evaluate thousands of run files in batches, memory bounded by a
batch per worker (:mod:`irscale.evaluation_many`; usage: ``docs/cli.md``)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..core.params import BATCH, THREADS
from ..errors import ParameterError
from ..io.formats import OUTPUT_FORMATS
from .main import given
from .options import (
    add_format,
    add_param,
    add_progress,
    add_scheduler,
    check_scheduler,
    scheduler,
    wants_progress,
)
from .outputs import add_output, declare_inputs, declare_outputs, open_output
from .runargs import ALLOW_EMPTY_HELP, add_names, add_trec_eval_options


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
    parser.add_argument("qrels", help="qrels file: qid iter docno rel")
    parser.add_argument("runs", nargs="+", metavar="RUNS",
                        help="folder(s) of run files, glob pattern(s) such as 'runs/*.gz' "
                        "(quoted), or run files: TREC (plain or gzip) or Parquet")
    parser.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                        help="measure or nickname (repeatable), as in irscale eval "
                        "(default: official)")
    add_batch_options(parser)
    add_cache_option(parser)
    add_names(parser, metavar="file|runid|A,B,...", doc="how to name the runs: file "
              "(default: the file name without extension, longer forms where those collide),"
              " runid (the run id of each file; two files with one run id are an error), or "
              "one name per file in order: a,b,c")
    parser.add_argument("--allow-empty", action="store_true", help=ALLOW_EMPTY_HELP)
    add_trec_eval_options(parser)
    add_format(parser, OUTPUT_FORMATS, default="trec",
               doc="format of the summary (as irscale eval)")
    add_progress(parser)
    add_output(parser, what="summary")
    declare_inputs(parser, "qrels", "runs")
    parser.set_defaults(func=run)


def add_batch_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--batch-size``, ``--scheduler``, ``--workers`` and ``--per-topic-out``
    (``eval-many``, and ``eval``, which streams its runs in batches when one is given)."""
    add_param(parser, BATCH)
    add_scheduler(parser, "the batches")
    add_param(parser, THREADS, doc="threads of this process running batches")
    parser.add_argument("--per-topic-out", metavar="DIR",
                        help="write the per-topic values (run, topic, measure, value) as "
                        "Parquet files to folder DIR, written whole or not at all; a folder "
                        "holding files is replaced only with --force, and only when it "
                        "holds an earlier output")
    declare_outputs(parser, "--per-topic-out", kind="folder")


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    """``--cache DIR``: the results cache of ``eval`` and ``eval-many``
    (docs/evaluation.md, "The results cache")."""
    parser.add_argument("--cache", metavar="DIR",
                        help="results cache: an evaluation done before (same input bytes, "
                        "measures, options and irscale version) is read from folder DIR, "
                        "others are evaluated and stored there (eval-many: one entry per run "
                        "file, so that only new or changed runs are evaluated)")
    declare_outputs(parser, "--cache", kind="folder")


def trec_eval_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The arguments of :func:`irscale.evaluate` that trec_eval's options give
    (:func:`irscale.cli.runargs.add_trec_eval_options`; ``eval`` and ``eval-many``)."""
    return dict(relevance_level=args.relevance_level, max_docs=args.max_retrieved,
                judged_only=args.judged_only, complete=args.complete,
                num_docs_in_coll=args.num_docs_in_coll, compat=args.compat, ties=args.ties)


def wants_batches(args: argparse.Namespace) -> bool:
    """True when ``eval`` was given one of :func:`add_batch_options`' options."""
    return any(given(args, name)
               for name in ("batch_size", "scheduler", "workers", "per_topic_out"))


def run(args: argparse.Namespace) -> int:
    """``irscale eval-many`` (and ``eval`` with a batch option): the summary of the runs,
    evaluated a batch of files at a time."""
    check_scheduler(args)  # its form and the memory of local:N, before numpy is imported
    from ..evaluation_many import check_out, evaluate_many, run_files
    from ..io.output import write_summary

    files = run_files(args.runs)
    if args.per_topic_out is not None:
        check_out(args.per_topic_out, files, force=args.force, option="--per-topic-out")
        if args.output != "-" and Path(os.path.realpath(args.output)).is_relative_to(
                os.path.realpath(args.per_topic_out)):
            raise ParameterError(f"-o {args.output} lies in --per-topic-out "
                                 f"{args.per_topic_out}: write the summary elsewhere")
    with scheduler(args) as executor:
        many = evaluate_many(
            args.qrels, files, args.measures or ["official"],
            batch_size=args.batch_size, executor=executor,
            workers=args.workers, out=args.per_topic_out, force=args.force,
            names=args.names or "file", allow_empty=args.allow_empty,
            progress=wants_progress(args), cache=args.cache, **trec_eval_arguments(args))
    with open_output(args) as stream:
        write_summary(many, stream, fmt=args.fmt)
    return 0

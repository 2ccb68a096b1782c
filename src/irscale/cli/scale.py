"""``irscale scale``: interval scales of measures (Ferrante, Ferro & Fuhr 2021, §5;
Ferrante, Ferro & Pontarollo 2019): ``image`` (a measure's scale; ``-o`` streams it with
bounded memory, :mod:`irscale.scales.stream`), ``transform`` (the per-topic values of M and
M_R as ``irscale eval`` prints them) and ``table`` (Table 2: Kendall τ between M and M_R).
Usage in ``docs/cli.md``, the scales in ``docs/scales.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import IO, Any, Literal

from ..core.extras import PYARROW, Requires, parquet_name
from ..core.params import MEMORY_LIMIT, RELEVANCE, Cost, Integers, Names, Param, Switch, Text
from ..core.records import replace
from ..errors import message_line
from ..io.formats import OUTPUT_FORMATS, SCALE_IMAGE_FORMATS, TAU_TABLE_FORMATS, ImageFormat
from ..meta.params import SCALE_CUTOFFS
from ..scales.params import (
    ALL_TOPICS,
    EXPLAIN,
    FEASIBLE,
    RESCALE,
    SCALE,
    SCALE_INTENTS,
    SCALE_LENGTH,
    SCALE_LEVELS,
    SCALE_PAPER_NAME,
    SCALE_RECALL_BASE,
    SCALE_SHARDS,
    TAU_LENGTHS,
    TAU_TABLE,
    TRANSFORM,
    measure_kind,
)
from .common_params import FORCE, NO_SUMMARY, OUTPUT, PER_QUERY, QRELS, RUNS
from .inputs import add_measures, check_measure_names, qrels_and_runs
from .intervals import add_interval_options, intervals_text
from .main import given
from .options import (
    add_actions,
    add_command,
    add_format,
    add_output,
    add_progress,
    add_scheduler,
    add_ties,
    at_terminal,
    scheduler,
    wants_progress,
)
from .outputs import Done, Output
from .rules import Default, Rule
from .runargs import add_run_options, read_inputs

#: ``image -o``: the sorted image, Parquet (pyarrow) or CSV.
IMAGE_OUTPUT = replace(OUTPUT, requires=(Requires(PYARROW, "{value}, writing a Parquet image",
                                                  parquet_name),))
#: ``image --values-limit``: the most distinct values ``image --format json`` lists.
VALUES_LIMIT = Param("values_limit", Integers(0), 100_000, "list the values only up to K "
                     "distinct values", ("--values-limit",), "K", label="--values-limit",
                     cost=Cost("values", per="a value listed"))
#: Largest image whose gaps and ties ``image`` computes without ``--diagnostics full``.
STREAM_LIMIT = 50_000_000
#: ``image``'s options alone.
IMAGE_MEASURE = Param("measure", Text(), None, "P, R, F, AP, RR, RBP_p05, DCG_b02, nDCG_b10, "
                      "SBTO, RBTO, or any irscale measure name (RBP(p=0.8), DCG(discount=log2), "
                      "ERR, ...)", ("-m", "--measure"), "MEASURE")
ALL_VALUES = Param("all_values", Switch(), False, "list the values whatever their number "
                   "(streamed)", ("--all-values",))
DIAGNOSTICS = Param("diagnostics", Names("diagnostics", ("auto", "full", "none")), "auto",
                    f"text format: stream the whole image for the gaps and ties (auto: up to "
                    f"{STREAM_LIMIT:,} distinct values)", ("--diagnostics",))
#: ``transform``'s output.
RANKED_ONLY = Param("ranked_only", Switch(), False, "print M_R only, not M", ("--ranked-only",))
SUMMARY_ONLY = Param("summary_only", Switch(), False, "print the means over topics only",
                     ("--summary-only",))
#: ``transform --ci``: the formats with a place for the intervals (not trec_eval's).
CI_FORMATS = ("csv", "json", "markdown")
#: ``QRELS RUN...`` and the ``-m`` measures of ``transform`` and ``table``.
RUN_INPUTS = ((QRELS, {"doc": "qrels file: qid iter docno rel"}),
              (RUNS, {"nargs": "+", "doc": "run file(s): qid Q0 docno rank score runid"}),
              lambda p: add_measures(p, required=True))
#: The options of the space and of the computation every scale command takes.
COMMON = (SCALE_LEVELS, FEASIBLE, add_progress,
          (MEMORY_LIMIT, {"doc": "refuse, with the estimate, a scale whose estimated memory "
                          "exceeds SIZE (2G, 500M, 1.5GiB; powers of 1024)"}), EXPLAIN)


def add_parser(subparsers) -> None:
    """Register ``irscale scale`` and its commands ``image``, ``transform``, ``table``."""
    commands = add_actions(
        subparsers, "scale", what="a command", metavar="COMMAND",
        description="Interval-scaled (ranked) versions of IR measures (Ferrante, Ferro & "
        "Fuhr 2021); see docs/scales.md.")
    add_command(
        commands, "image", run_image, (IMAGE_MEASURE, {"required": True}),
        (SCALE_LENGTH, {"required": True}), *COMMON,
        (SCALE_RECALL_BASE, {"many": True, "unique": False, "item": "a count"}), SCALE_INTENTS,
        lambda p: add_format(p, SCALE_IMAGE_FORMATS, doc="summary (text), the JSON object, "
                             "or the sorted image as CSV on standard output"),
        VALUES_LIMIT, ALL_VALUES,
        (IMAGE_OUTPUT, {"default": None, "unset": "none", "doc": "also write the sorted image "
                  "(value, phi, n_runs: one row per distinct value) to FILE, Parquet (.parquet, "
                  ".pq) or CSV (.csv), streamed with bounded memory (--max-memory); an "
                  "existing file is never replaced without --force"}), FORCE,
        (DIAGNOSTICS, {"choices": DIAGNOSTICS.domain.names}),
        lambda p: add_scheduler(p, "the shards of the image: the buckets of the "
                                "meet-in-the-middle images (AP, DCG/nDCG, RBP ...) or the "
                                "chunked enumeration (ERR, Q, diversity measures ...)"),
        SCALE_SHARDS, help="the image of a measure over REL^N and its diagnostics",
        example="-m AP -N 3 --no-progress", binding=SCALE, sources={"measure_kind": ("measure",)},
        ahead=(Default("measure_kind", lambda args: measure_kind(args.measure)),))
    add_command(
        commands, "transform", run_transform, *RUN_INPUTS, (SCALE_LENGTH, {"required": True}),
        *COMMON, RELEVANCE, lambda p: add_ties(p, phi=True), RESCALE, ALL_TOPICS, RANKED_ONLY,
        lambda p: add_format(p, OUTPUT_FORMATS, default="trec", doc="output format, as "
                             "irscale eval"),
        (PER_QUERY, {"doc": "(default) print the value of every topic"}), SUMMARY_ONLY,
        (NO_SUMMARY, {"doc": "do not print the means over topics"}),
        lambda p: add_interval_options(p, "every mean of M and M_R, instead of the values",
                                       formats=CI_FORMATS, alpha=True),
        add_run_options, add_output,
        example="qrels.txt a.run -m AP -N 3 --no-progress",
        help="per-topic values of M and M_R for real runs", binding=TRANSFORM,
        rules=(Rule(("summary_only",), lambda args: not args.no_summary, "--summary-only and "
                    "-n/--no-summary together leave nothing to print: give one of them"),
               Rule(("per_query", "summary_only", "no_summary"), lambda args: args.ci is None,
                    "--ci prints the means with their intervals instead of the values: "
                    "{options} {applies} without it"),
               Rule(("summary_only",), lambda args: not args.per_query, "--summary-only (the "
                    "means only) and -q/--per-query (every topic) contradict each other: give "
                    "one of them")))
    add_command(
        commands, "table", run_table, *RUN_INPUTS,
        (TAU_LENGTHS, {"default": SCALE_CUTOFFS}), *COMMON,
        RELEVANCE, lambda p: add_ties(p, phi=True),
        lambda p: add_format(p, TAU_TABLE_FORMATS), add_run_options, add_output,
        example="qrels.txt a.run b.run -m AP -N 3 --no-progress",
        help="Table 2 of Ferrante, Ferro & Fuhr (2021): Kendall τ "
        "between each measure and its ranked version", binding=TAU_TABLE)


# ------------------------------------------------------------------ image
def run_image(args: argparse.Namespace) -> list[Output]:
    """``scale image``: the scale of a measure, its summary or its values; with ``-o``,
    first the sorted image written to its file, then the summary with the statistics of
    that pass. Both are written by the one writer; the scale is computed once, by the
    first, with the scheduler open until the last is written (the passes over the image
    use it)."""
    from ..io.formats import image_format

    fmt = None if args.output is None else image_format(args.output, "-o")
    call = _ImageCall(args)
    summary = Output(call.write_summary, "-", mode="w")
    if fmt is None:
        return [summary]
    return [Output(lambda stream: call.write_image(stream, fmt), mode=_IMAGE_MODES[fmt],
                   binary=fmt == "parquet"), summary]


#: The stream ``-o`` is written to, by its format.
_IMAGE_MODES: dict[ImageFormat, Literal["w", "wb"]] = {"parquet": "wb", "csv": "w"}


class _ImageCall:
    """The scale of one ``scale image`` call, computed by the first output written, and
    the scheduler its passes use, open until the summary (the last output) is written or
    an output fails."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.held = contextlib.ExitStack()
        self.sc: Any = None
        self.written: Any = None  # the statistics of the pass that wrote -o

    def scale(self) -> Any:
        """The scale, computed at the first call with the scheduler opened."""
        if self.sc is None:
            from ..scales import scale
            from ..scales.scale import warn_infeasible_runs

            args = self.args
            executor = self.held.enter_context(scheduler(args))
            levels = args.levels if given(args, "levels") else None  # refused with --intents
            self.sc = scale(args.measure, args.N, levels, recall_base=args.recall_base,
                            feasible=args.feasible, progress=wants_progress(args),
                            max_memory=args.max_memory, explain=args.explain,
                            intents=args.intents, executor=executor, shards=args.shards,
                            summary=_summary_limit(args))
            if args.intents is None:  # SBTO/RBTO order degrees, not intent sets
                warn_infeasible_runs(self.sc)
        return self.sc

    def write_image(self, stream: IO[Any], fmt: ImageFormat) -> None:
        """``-o``: the sorted image on ``stream``, its pass's statistics kept for the
        summary."""
        from ..scales.stream import check_disk, stream_image

        args = self.args
        try:
            sc = self.scale()
            check_disk(args.output, sc.n_distinct, fmt)
            self.written = stream_image(sc, stream, fmt, name=os.fspath(args.output),
                                        max_memory=args.max_memory,
                                        progress=wants_progress(args))
        except BaseException:
            self.held.close()
            raise

    def write_summary(self, out: IO[str]) -> None:
        """The summary in ``--format`` on ``out``; the scheduler closed after it."""
        with self.held:
            _report_image(self.args, self.scale(), self.written, out)


def _summary_limit(args: argparse.Namespace) -> int | None:
    """The largest image the text summary streams (``None``: no summary is printed), for
    the estimate."""
    if args.fmt != "text" or args.intents is not None:
        return None
    if args.output is not None or args.diagnostics == "none":
        return 0
    return STREAM_LIMIT if args.diagnostics == "auto" else 1 << 62


def _report_image(args: argparse.Namespace, sc, written, out: IO[str]) -> None:
    """Write the summary of ``sc`` in ``--format`` to ``out``; ``written``: the statistics
    of the pass that wrote ``-o`` (None without it)."""
    from dataclasses import replace

    from ..scales.diagnostics import image_document, phi_lines, summarize
    from ..scales.stream import write_csv

    diversity = args.intents is not None  # SBTO/RBTO order degrees, not intent sets
    listed = args.all_values or sc.n_distinct <= args.values_limit
    if args.fmt == "json":
        if listed:
            _check_listing(sc.n_distinct, args.max_memory)
        out.write(json.dumps(image_document(sc, values=listed, intents=args.intents)) + "\n")
    elif args.fmt == "csv":
        write_csv(sc, out)
    else:
        stream = written is None and (args.diagnostics == "full" or (
            args.diagnostics == "auto" and sc.n_distinct <= STREAM_LIMIT))
        summary = summarize(sc, stream=stream, orders=not diversity)
        if written is not None:  # the statistics of the pass that wrote the file
            summary = replace(summary, **written.stats)
        out.write(repr(summary) + "\n")
        if not stream and written is None and args.diagnostics == "auto":
            out.write(f"  (gaps and ties not computed for {sc.n_distinct:,} values: "
                      "--diagnostics full streams the image)\n")
        if listed and sc.n_distinct <= 20:
            out.write(phi_lines(sc))


#: Bytes per value listed as JSON (a Python float in a list and its text).
LISTED_VALUE_BYTES = 64


def _check_listing(n_distinct: int, max_memory: str | None) -> None:
    """Refuse a JSON listing of ``n_distinct`` values beyond the memory limit, from the
    declared cost of the values listed (:func:`irscale.core.progress.declared_memory`)."""
    from ..core.budget import MAX_MEMORY
    from ..core.progress import declared_memory

    declared_memory(VALUES_LIMIT, float(n_distinct) * LISTED_VALUE_BYTES,
                    f"listing the {n_distinct:,} values of the image as JSON "
                    "(--values-limit, --all-values; -o IMAGE.parquet streams them instead)",
                    max_memory=max_memory, option=MAX_MEMORY)


# ------------------------------------------------------------------ transform
def run_transform(args: argparse.Namespace) -> Output:
    """``scale transform``: per-topic values of M and M_R for real runs."""
    from dataclasses import replace

    qrels, runs, space = _judged(args)
    from ..io.output import write_results
    from ..scales.transform import transform

    result = transform(qrels, runs, args.measures, args.N, rescale=args.rescale,
                       all_topics=args.all_topics, **space)
    evaluation = result.evaluation
    if args.ranked_only:
        keep = {r for _, r in result.labels}
        evaluation = replace(evaluation, columns=tuple(c for c in evaluation.columns
                                                       if c.label in keep))
    means = None if args.ci is None else intervals_text(args, evaluation)  # before -o opens

    def write(stream: IO[bytes]) -> None:
        if means is not None:  # the means of M and M_R with their intervals
            stream.write(means.encode())
        else:
            write_results(evaluation, stream, fmt=args.fmt, per_query=not args.summary_only,
                          summary=not args.no_summary)
        if args.fmt == "markdown":  # a document: what M_R is, under the table
            stream.write("".join(f"\n*{line}*\n" for line in result.legend()).encode())
        elif at_terminal(args):  # the data stay as parsers read them: a note on stderr
            for line in result.legend():
                print(message_line(line), file=sys.stderr)
    return Output(write, mode="wb")


def _judged(args: argparse.Namespace) -> tuple[Any, Any, dict[str, Any]]:
    """The qrels and runs of ``transform`` and ``table``, read (and the measures' names
    checked) before pandas and scipy are imported, and the options of the space and of
    the computation both take."""
    check_measure_names(_catalogue_names(args.measures))
    keep_rank = args.ties == "rank-column"
    qrels, runs = read_inputs(*qrels_and_runs(args, keep_rank=keep_rank), keep_rank=keep_rank)
    return qrels, runs, {
        "levels": args.levels, "relevance_level": args.relevance_level, "ties": args.phi_ties,
        "tie_policy": args.ties, "feasible": args.feasible, "allow_empty": args.allow_empty,
        "progress": wants_progress(args), "max_memory": args.max_memory,
        "explain": args.explain}


def _catalogue_names(names: Sequence[str] | str | None) -> list[str]:
    """``names`` less the papers' names of the scales (``nDCG_b10``, their options checked
    where the scale is built)."""
    listed = [names] if isinstance(names, str) else list(names or ())
    return [name for name in listed if not re.match(SCALE_PAPER_NAME, name.strip())]


# ------------------------------------------------------------------ table
def run_table(args: argparse.Namespace) -> Done:
    """``scale table``: Kendall τ between each measure and its ranked version."""
    qrels, runs, space = _judged(args)
    from ..scales.diagnostics import format_tau_table, tau_table

    frame = tau_table(qrels, runs, args.measures, args.lengths, **space)
    return format_tau_table(frame, args.fmt)


"""Writers of evaluation results: trec_eval's text format, CSV, JSON and Markdown.

The ``trec`` format is byte-identical to trec_eval's: one line ``%-22s\\t%s\\t%6.4f`` per
value (integers as ``%ld``), per-topic lines (``-q``) topic by topic with the measures in
table order, then the summary (``all``) lines starting with ``runid``. With several runs
(run after run), every line also names its run in a fourth tab-separated field
(``measure\\ttopic\\tvalue\\trun``), so that per-topic lines of different runs cannot be
confused while tools that read the first three fields keep working; one run prints exactly
what trec_eval prints. The lines are written by the engine (``rust/src/output/trec_text.rs``,
the one implementation of this format, C's ``%6.4f`` included), per-topic lines in blocks,
so writing millions of lines costs little.

The other formats pass the guard of numbers (:mod:`irscale.core.numbers`): a measure's
value is finite, or undefined — the 0/0 trec_eval and ndeval print ``-nan`` (an empty
ranking's interpolated precision with ``-J``, nNRBP without relevant documents) — and
written ``undefined`` (JSON: null), with a warning naming the measure; an infinity is a
fault of irscale (:class:`~irscale.core.numbers.NumberError`). The trec format is
trec_eval's own, ``-nan`` included.
"""

from __future__ import annotations

import csv
import io
import math
import warnings
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING

import numpy as np

from .. import _engine
from ..core.numbers import (
    UNDEFINED,
    NumberError,
    declare_words,
    identifiers,
    json_number,
    json_text,
)
from ..errors import ParameterError
from .formats import OUTPUT_FORMATS
from .native_files import run_suffixes
from .table import engine_values

if TYPE_CHECKING:  # pragma: no cover
    from .table import Column, ResultTable, SummaryTable


#: Lines formatted by one call of the engine while per-topic lines are written (bounds
#: the memory of a block: about 40 bytes a line).
CHUNK_LINES = 1 << 17


def iter_trec(
    evaluation: ResultTable, *, per_query: bool = False, summary: bool = True
) -> Iterator[bytes]:
    """trec_eval-format output of every run (run after run), as consecutive byte chunks
    (with several runs, every line ends with a tab and its run: module documentation)."""
    suffixes = run_suffixes(evaluation.runs)
    # the guard on text: trec_eval's 0/0 is -nan, and topics and runs are identifiers
    declare_words("-nan")
    identifiers(lambda: [*evaluation.rows.topics, *evaluation.runs])
    topics = _topic_buffers(evaluation.rows.topics) if per_query else None
    for run_index, suffix in enumerate(suffixes):
        if topics is not None:
            yield from _per_query_blocks(evaluation, run_index, topics, suffix)
        if summary:
            yield summary_lines(evaluation, run_index, suffix)


def trec_text(evaluation: ResultTable, *, per_query: bool = False, summary: bool = True) -> bytes:
    """The whole trec_eval-format output of every run (run after run), as bytes."""
    return b"".join(iter_trec(evaluation, per_query=per_query, summary=summary))




def _topic_buffers(topics: Sequence[str]) -> tuple[bytes, np.ndarray]:
    """The topic ids' UTF-8 bytes one after the other, and where each starts (one offset
    more than topics): the engine's view of the topics of the lines."""
    encoded = [topic.encode() for topic in topics]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    return b"".join(encoded), offsets


def _per_query_blocks(evaluation: ResultTable, run_index: int,
                      topics: tuple[bytes, np.ndarray], suffix: bytes = b"") -> Iterator[bytes]:
    """Per-topic lines of one run, in blocks of about :data:`CHUNK_LINES` lines, each line
    ending with ``suffix``: written by the engine (``rust/src/output/trec_text.rs``: the
    columns' values ``%6.4f``, ``%ld`` or quoted text by their value type)."""
    columns = [c for c in evaluation.columns if c.per_query]
    rows = np.flatnonzero(evaluation.rows.ranking_run == run_index)
    if not columns or not len(rows):
        return
    spec = [(c.label, c.value_type) for c in columns]
    ranking_topic = evaluation.rows.ranking_topic
    step = max(1, CHUNK_LINES // len(columns))
    for start in range(0, len(rows), step):
        block = rows[start:start + step]
        index: np.ndarray | slice = block
        if block[-1] - block[0] == len(block) - 1:  # a run's rankings: slice, not gather
            index = slice(int(block[0]), int(block[-1]) + 1)
        yield _engine.trec_lines(
            spec, [engine_values(evaluation.values[c.label][index]) for c in columns],
            np.ascontiguousarray(ranking_topic[index], dtype=np.int64), *topics, suffix)


def summary_lines(table: SummaryTable, run_index: int, suffix: bytes = b"") -> bytes:
    """The summary (``all``) lines of one run, written by the engine: ``%6.4f`` for float
    columns and means, the others as they are (counts ``%ld``, the run id)."""
    declare_words("-nan")  # the guard on text: trec_eval's 0/0, and the run's name
    summary = table.summary(run_index)
    identifiers([table.runs[run_index], *(v for c, v in summary if c.aggregate == "runid")])
    return _engine.trec_summary_lines(
        [(c.label, c.value_type, c.aggregate, value) for c, value in summary], suffix)


def _rows(evaluation: ResultTable, per_query: bool) -> list[dict]:
    identifiers(lambda: [*evaluation.rows.topics, *evaluation.runs])  # the guard on text
    rows = []
    jr = evaluation.rows
    for run_index, run in enumerate(evaluation.runs):
        if per_query:
            mask = np.flatnonzero(jr.ranking_run == run_index)
            topics = jr.topic_labels[mask]
            for column in evaluation.columns:
                if not column.per_query:
                    continue
                for topic, value in zip(topics, evaluation.values[column.label][mask],
                                        strict=True):
                    rows.append({"run": run, "topic": topic, "measure": column.label,
                                 "value": _plain(value)})
        rows.extend(_summary_rows(evaluation, run_index))
    return rows


def _summary_rows(table: SummaryTable, run_index: int) -> list[dict]:
    """The ``all`` rows of one run (csv and json formats)."""
    run = table.runs[run_index]
    summary = table.summary(run_index)
    # the guard on text: a run named "nan", and its run id (the runid row's value: a run
    # read from a file is named by the file, its run id may differ)
    identifiers([run, *(value for column, value in summary if column.aggregate == "runid")])
    return [{"run": run, "topic": "all", "measure": column.label, "value": _plain(value)}
            for column, value in summary]


#: What a NaN of an evaluation is (the warning of :func:`_checked`).
UNDEFINED_CAUSE = ("0/0 on the topic (trec_eval and ndeval print -nan: an empty ranking's "
                   "interpolated precision with -J, nNRBP without relevant documents)")


def _plain(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        return float(value)
    return value if isinstance(value, (int, str)) else str(value)


def _checked(rows: list[dict]) -> list[dict]:
    """``rows`` through the guard of numbers: an infinity is a fault
    (:class:`~irscale.core.numbers.NumberError`), a NaN the measure's 0/0, one warning a
    measure."""
    undefined: dict[str, int] = {}
    for row in rows:
        value = row["value"]
        if isinstance(value, float) and not math.isfinite(value):
            if not math.isnan(value):
                raise NumberError(f"{row['measure']} of run {row['run']!r}, topic "
                                  f"{row['topic']!r}: {value}, which no measure gives")
            undefined[row["measure"]] = undefined.get(row["measure"], 0) + 1
    for measure, count in undefined.items():
        warnings.warn(f"{measure} is {UNDEFINED} for {count} value(s): {UNDEFINED_CAUSE}",
                      stacklevel=4)
    return rows


def _json(rows: list[dict]) -> bytes:
    return json_text([{**row, "value": json_number(row["value"])} for row in rows],
                     indent=1).encode() + b"\n"


def write_results(
    evaluation: ResultTable, stream: IO[bytes], *, fmt: str = "trec", per_query: bool = False,
    summary: bool = True,
) -> None:
    """Write results in one of :data:`~irscale.io.formats.OUTPUT_FORMATS` to a binary
    stream."""
    if fmt not in OUTPUT_FORMATS:
        raise ParameterError(f"unknown output format {fmt!r}: use one of "
                             f"{', '.join(OUTPUT_FORMATS)}")
    if fmt == "trec":
        for chunk in iter_trec(evaluation, per_query=per_query, summary=summary):
            stream.write(chunk)
        return
    rows = _rows(evaluation, per_query)
    if not summary:
        rows = [r for r in rows if r["topic"] != "all"]
    _write_rows(stream, fmt, rows, evaluation)


def _write_rows(stream: IO[bytes], fmt: str, rows: list[dict], table: SummaryTable) -> None:
    """Write ``rows`` (a result's, per run, topic and measure) as ``json`` or ``csv``, or
    ``table``'s values as a Markdown table (``markdown``)."""
    if fmt == "json":
        stream.write(_json(_checked(rows)))
    elif fmt == "csv":
        stream.write(_csv_text(rows).encode())
    else:
        stream.write(markdown_table(table).encode())


def write_summary(table: SummaryTable, stream: IO[bytes], *, fmt: str = "trec") -> None:
    """Write the summary lines of ``table`` in one of
    :data:`~irscale.io.formats.OUTPUT_FORMATS` to a binary stream:
    what :func:`write_results` writes without ``per_query``, for results that keep their
    summaries only (:class:`irscale.evaluation.many.ManyEvaluation`)."""
    if fmt not in OUTPUT_FORMATS:
        raise ParameterError(f"unknown output format {fmt!r}: use one of "
                             f"{', '.join(OUTPUT_FORMATS)}")
    if fmt == "trec":
        for run_index, suffix in enumerate(run_suffixes(table.runs)):
            stream.write(summary_lines(table, run_index, suffix))
        return
    rows = [row for run_index in range(len(table.runs))
            for row in _summary_rows(table, run_index)]
    _write_rows(stream, fmt, rows, table)


def _csv_text(rows: list[dict]) -> str:
    """``run,topic,measure,value`` lines (RFC 4180 quoting where needed; integers as
    integers, floats as Python prints them, an undefined value ``undefined``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("run", "topic", "measure", "value"))
    writer.writerows((r["run"], r["topic"], r["measure"],
                      UNDEFINED if isinstance(r["value"], float) and math.isnan(r["value"])
                      else r["value"]) for r in _checked(rows))
    return out.getvalue()


def check_summary_columns(columns: list[Column], every: Sequence[Column], table: str) -> None:
    """A table of summaries over topics needs a measure that has one: ``runid`` and
    ``relstring`` alone would give a table without a value (a malformed Markdown table,
    a LaTeX table of run names); ``every``: the columns asked for."""
    if not columns:
        names = ", ".join(c.label for c in every)
        raise ParameterError(f"{table} shows values summarised over topics, and "
                             f"{names or 'no measure'} {'has' if len(every) < 2 else 'have'} "
                             "none: ask for a "
                             "measure with a summary, or print per topic (-q with --format "
                             "trec, csv or json)")


def markdown_table(evaluation: SummaryTable) -> str:
    """Runs × measures Markdown table of the summary values (4 decimals)."""
    header_columns = [c for c in evaluation.columns if c.aggregate not in ("runid", "none")]
    check_summary_columns(header_columns, evaluation.columns, "the markdown table")
    lines = ["| run | " + " | ".join(c.label for c in header_columns) + " |",
             "|---|" + "---:|" * len(header_columns)]
    shown = {c.label for c in header_columns}
    for run_index, run in enumerate(evaluation.runs):
        values = {row["measure"]: row["value"] for row in _checked(
            [r for r in _summary_rows(evaluation, run_index) if r["measure"] in shown])}
        cells = []
        for c in header_columns:
            v = values.get(c.label)
            cells.append((UNDEFINED if math.isnan(v) else f"{v:.4f}") if isinstance(v, float)
                         else str(v))
        lines.append(f"| {run} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"

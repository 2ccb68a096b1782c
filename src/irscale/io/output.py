"""Writers of evaluation results: trec_eval's text format, CSV, JSON and Markdown.

The ``trec`` format is byte-identical to trec_eval's: one line ``%-22s\\t%s\\t%6.4f`` per
value (integers as ``%ld``), per-topic lines (``-q``) topic by topic with the measures in
table order, then the summary (``all``) lines starting with ``runid``. With several runs
(run after run), every line also names its run in a fourth tab-separated field
(``measure\\ttopic\\tvalue\\trun``), so that per-topic lines of different runs cannot be
confused while tools that read the first three fields keep working; one run prints exactly
what trec_eval prints. Per-topic lines are assembled in bulk directly as bytes
(:mod:`irscale.io.trec_lines`), so writing millions of lines costs little.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ..core._columnar import arrow
from ..core._columnar import arrow_compute as pc
from ..errors import ParameterError
from .formats import OUTPUT_FORMATS
from .trec_lines import fixed4_units, trec_lines

if TYPE_CHECKING:  # pragma: no cover
    from .table import Column, ResultTable, SummaryTable


def format_fixed(values: np.ndarray, decimals: int = 4, width: int = 0) -> pa.Array:
    """``'%{width}.{decimals}f' % v`` for every value, exactly as C's printf prints it.

    Finite values are rounded in floating point after scaling their magnitude and assembled
    with pyarrow string kernels (a ``-`` before those whose sign bit is set, as printf
    prints ``-0.0000``). The rare values whose scaled fraction lies within 1e-6 of one half
    (where scaling may round the other way than printf's exact decimal expansion) and
    non-finite values are formatted one by one with Python's exact formatting, which agrees
    with printf (NaN prints as glibc does: ``-nan`` when its sign bit is set).
    """
    values = np.asarray(values, dtype=np.float64)
    scale = 10.0**decimals
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = np.abs(values) * scale
    plain = np.isfinite(scaled) & (scaled < 2.0**52)
    safe = np.where(plain, scaled, 0.0)
    fraction = safe - np.floor(safe)
    plain &= np.abs(fraction - 0.5) >= 1e-6
    units = np.rint(safe).astype(np.int64)
    whole = pc.cast(arrow.array(units // int(scale)), pa.string())
    part = pc.utf8_lpad(pc.cast(arrow.array(units % int(scale)), pa.string()), decimals, "0")
    text = pc.binary_join_element_wise(whole, part, arrow.scalar("."))
    negative = np.signbit(values)
    if negative.any():
        sign = pc.if_else(arrow.array(negative), arrow.scalar("-"), arrow.scalar(""))
        text = pc.binary_join_element_wise(sign, text, arrow.scalar(""))
    if width > decimals + 2:  # only wider than every non-negative plain value needs padding
        text = pc.utf8_lpad(text, width, " ")
    if not plain.all():
        rows = np.flatnonzero(~plain)
        fixed = [_printf(v, decimals, width) for v in values[rows].tolist()]
        text = pc.replace_with_mask(text, arrow.array(~plain), arrow.strings(fixed))
    return text


def _printf(value: float, decimals: int, width: int) -> str:
    if math.isnan(value):
        return ("-nan" if math.copysign(1.0, value) < 0 else "nan").rjust(width)
    return f"{value:{width}.{decimals}f}"


def _label(label: str) -> str:
    return f"{label:<22}"


#: Lines formatted at once by the per-topic writer (bounds its memory: about 100 bytes a
#: line while a block is built).
CHUNK_LINES = 1 << 17


def iter_trec(
    evaluation: ResultTable, *, per_query: bool = False, summary: bool = True
) -> Iterator[bytes]:
    """trec_eval-format output of every run (run after run), as consecutive byte chunks
    (with several runs, every line ends with a tab and its run: module documentation)."""
    for chunk in _trec_chunks(evaluation, per_query, summary):
        yield chunk if isinstance(chunk, bytes) else chunk.tobytes()


def trec_text(evaluation: ResultTable, *, per_query: bool = False, summary: bool = True) -> bytes:
    """The whole trec_eval-format output of every run (run after run), as bytes."""
    # numpy declares ndarray.__buffer__ only for Python >= 3.12: the chunks are buffers
    return b"".join(_trec_chunks(evaluation, per_query, summary))  # type: ignore[arg-type]


def _trec_chunks(evaluation: ResultTable, per_query: bool,
                 summary: bool) -> Iterator[bytes | np.ndarray]:
    """The chunks of :func:`iter_trec`, per-topic blocks as the ``uint8`` arrays they are
    built in (which a stream writes without copying them to bytes first)."""
    suffixes = run_suffixes(evaluation.runs)
    for run_index, suffix in enumerate(suffixes):
        if per_query:
            yield from _per_query_blocks(evaluation, run_index, suffix)
        if summary:
            yield _summary_block(evaluation, run_index, suffix)


def run_suffixes(runs: tuple[str, ...]) -> list[bytes]:
    """What ends every trec-format line of each run, before the newline: nothing for one
    run (trec_eval's output), ``b"\\t" + run`` for several. A run name with a tab or a line
    break cannot be written so: :class:`ParameterError`."""
    if len(runs) < 2:
        return [b""] * len(runs)
    for run in runs:
        if any(c in run for c in "\t\n\r"):
            raise ParameterError(f"run name {run!r} holds a tab or a line break: it cannot "
                                 "name the runs of the trec format (rename the run)")
    return [b"\t" + run.encode() for run in runs]


def _per_query_blocks(evaluation: ResultTable, run_index: int,
                      suffix: bytes = b"") -> Iterator[np.ndarray]:
    """Per-topic lines of one run, in blocks of about :data:`CHUNK_LINES` lines, each line
    ending with ``suffix``."""
    columns = [c for c in evaluation.columns if c.per_query]
    rankings = evaluation.rows
    rows = np.flatnonzero(rankings.ranking_run == run_index)
    if not columns or not len(rows):
        return
    topics = arrow.strings(rankings.topics)
    step = max(1, CHUNK_LINES // len(columns))
    for start in range(0, len(rows), step):
        block = rows[start:start + step]
        yield _per_query_block(evaluation, columns, pc.take(
            topics, arrow.array(rankings.ranking_topic[block])), block, suffix)


def _per_query_block(evaluation: ResultTable, columns: list[Column], topics: pa.Array,
                     rows: np.ndarray, suffix: bytes = b"") -> np.ndarray:
    """Per-topic lines of ``columns`` for the rankings ``rows`` (one run, whose topic ids
    are ``topics``), topic by topic, as a ``uint8`` array (each line ending with
    ``suffix``).

    Values of the numeric columns printed ``d.dddd`` by ``%6.4f`` are written from their
    rounded units (:func:`~irscale.io.trec_lines.fixed4_units`); the other ``%6.4f`` values
    go through :func:`format_fixed`, integer columns print ``%ld`` and text columns (the
    relstring) ``'%s'``.
    """
    n, k = len(rows), len(columns)
    index: np.ndarray | slice = rows
    if rows[-1] - rows[0] == n - 1:  # consecutive rankings (a run's are): slice, not gather
        index = slice(int(rows[0]), int(rows[-1]) + 1)
    units = np.full((n, k), -1, dtype=np.int64)
    texts: list[tuple[np.ndarray, pa.Array]] = []
    numeric = [j for j, c in enumerate(columns) if c.value_type not in ("int", "str")]
    if numeric:
        matrix = np.column_stack([evaluation.values[columns[j].label][index] for j in numeric])
        matrix = matrix.astype(np.float64, copy=False)
        numeric_units = fixed4_units(matrix)
        units[:, numeric] = numeric_units
        other_rows, other_columns = np.nonzero(numeric_units < 0)
        if len(other_rows):
            cells = other_rows * k + np.array(numeric)[other_columns]
            texts.append((cells, format_fixed(matrix[other_rows, other_columns], width=6)))
    for kind in ("int", "str"):
        selected = [j for j, c in enumerate(columns) if c.value_type == kind]
        if not selected:
            continue
        cells = (np.arange(n)[:, None] * k + np.array(selected)).ravel()
        values = np.column_stack(
            [evaluation.values[columns[j].label][index] for j in selected]).ravel()
        if kind == "int":
            strings = pc.cast(arrow.array(values.astype(np.int64)), pa.string())
        else:  # relstring: printed '%s' quoted
            quote = arrow.scalar("'")
            strings = pc.binary_join_element_wise(
                quote, pc.cast(arrow.strings(values), pa.string()), quote, arrow.scalar(""))
        texts.append((cells, strings))
    return trec_lines([c.label for c in columns], topics, units, texts, suffix)


def _summary_block(evaluation: SummaryTable, run_index: int, suffix: bytes = b"") -> bytes:
    out = io.StringIO()
    end = suffix.decode() + "\n"
    for column, value in evaluation.summary(run_index):
        if column.value_type == "float" or column.aggregate in ("mean", "gmean"):
            text = _printf(float(value), 4, 6)  # NaN as glibc prints it: -nan, nan
        else:
            text = str(value)
        out.write(f"{_label(column.label)}\tall\t{text}{end}")
    return out.getvalue().encode()


def _rows(evaluation: ResultTable, per_query: bool) -> list[dict]:
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
    return [{"run": run, "topic": "all", "measure": column.label, "value": _plain(value)}
            for column, value in table.summary(run_index)]


def _plain(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return value if math.isfinite(value) else None
    return value if isinstance(value, (int, str)) else str(value)


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
        for chunk in _trec_chunks(evaluation, per_query, summary):
            stream.write(chunk)  # type: ignore[arg-type]  # ndarray: a buffer (see trec_text)
        return
    rows = _rows(evaluation, per_query)
    if not summary:
        rows = [r for r in rows if r["topic"] != "all"]
    if fmt == "json":
        stream.write(json.dumps(rows, indent=1).encode() + b"\n")
    elif fmt == "csv":
        stream.write(_csv_text(rows).encode())
    else:
        stream.write(markdown_table(evaluation).encode())


def write_summary(table: SummaryTable, stream: IO[bytes], *, fmt: str = "trec") -> None:
    """Write the summary lines of ``table`` in one of
    :data:`~irscale.io.formats.OUTPUT_FORMATS` to a binary stream:
    what :func:`write_results` writes without ``per_query``, for results that keep their
    summaries only (:class:`irscale.evaluation_many.ManyEvaluation`)."""
    if fmt not in OUTPUT_FORMATS:
        raise ParameterError(f"unknown output format {fmt!r}: use one of "
                             f"{', '.join(OUTPUT_FORMATS)}")
    if fmt == "trec":
        for run_index, suffix in enumerate(run_suffixes(table.runs)):
            stream.write(_summary_block(table, run_index, suffix))
        return
    rows = [row for run_index in range(len(table.runs))
            for row in _summary_rows(table, run_index)]
    if fmt == "json":
        stream.write(json.dumps(rows, indent=1).encode() + b"\n")
    elif fmt == "csv":
        stream.write(_csv_text(rows).encode())
    else:
        stream.write(markdown_table(table).encode())


def _csv_text(rows: list[dict]) -> str:
    """``run,topic,measure,value`` lines (RFC 4180 quoting where needed; integers as
    integers, floats as Python prints them, a missing value empty)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("run", "topic", "measure", "value"))
    writer.writerows((r["run"], r["topic"], r["measure"], r["value"]) for r in rows)
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
    for run_index, run in enumerate(evaluation.runs):
        values = dict((c.label, v) for c, v in evaluation.summary(run_index))
        cells = []
        for c in header_columns:
            v = values.get(c.label)
            cells.append(f"{v:.4f}" if isinstance(v, float) else str(v))
        lines.append(f"| {run} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"

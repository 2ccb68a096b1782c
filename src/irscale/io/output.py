"""Writers of evaluation results: trec_eval's text format, CSV, JSON and Markdown.

The ``trec`` format is byte-identical to trec_eval's: one line ``%-22s\\t%s\\t%6.4f`` per
value (integers as ``%ld``), per-topic lines (``-q``) topic by topic with the measures in
table order, then the summary (``all``) lines starting with ``runid``. Lines are assembled
with vectorised pyarrow string kernels, so writing millions of lines costs little.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import ParameterError

if TYPE_CHECKING:  # pragma: no cover
    from ..evaluation import Evaluation

FORMATS = ("trec", "csv", "json", "markdown")


def format_fixed(values: np.ndarray, decimals: int = 4, width: int = 0) -> pa.Array:
    """``'%{width}.{decimals}f' % v`` for every value, exactly as C's printf prints it.

    Non-negative finite values are rounded in floating point after scaling and assembled
    with pyarrow string kernels. The rare values whose scaled fraction lies within 1e-6 of
    one half (where scaling may round the other way than printf's exact decimal
    expansion), negative and non-finite values are formatted one by one with Python's
    exact formatting, which agrees with printf (NaN prints as glibc does: ``-nan`` when
    its sign bit is set).
    """
    values = np.asarray(values, dtype=np.float64)
    scale = 10.0**decimals
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = values * scale
    plain = np.isfinite(scaled) & (scaled < 2.0**52) & ~np.signbit(values)
    safe = np.where(plain, scaled, 0.0)
    fraction = safe - np.floor(safe)
    plain &= np.abs(fraction - 0.5) >= 1e-6
    units = np.rint(safe).astype(np.int64)
    whole = pc.cast(pa.array(units // int(scale)), pa.string())
    part = pc.utf8_lpad(pc.cast(pa.array(units % int(scale)), pa.string()), decimals, "0")
    text = pc.binary_join_element_wise(whole, part, ".")
    if width > decimals + 2:  # only wider than every plain value needs padding
        text = pc.utf8_lpad(text, width, " ")
    if not plain.all():
        rows = np.flatnonzero(~plain)
        fixed = [_printf(v, decimals, width) for v in values[rows].tolist()]
        text = pc.replace_with_mask(text, pa.array(~plain), pa.array(fixed, pa.string()))
    return text


def _printf(value: float, decimals: int, width: int) -> str:
    if math.isnan(value):
        return ("-nan" if math.copysign(1.0, value) < 0 else "nan").rjust(width)
    return f"{value:{width}.{decimals}f}"


def _label(label: str) -> str:
    return f"{label:<22}"


#: Topics formatted at once by the per-topic writer (bounds the memory of the line arrays).
CHUNK_TOPICS = 20_000


def iter_trec(
    evaluation: Evaluation, *, per_query: bool = False, summary: bool = True
) -> Iterator[bytes]:
    """trec_eval-format output of every run (run after run), as consecutive byte chunks."""
    for run_index in range(len(evaluation.runs)):
        if per_query:
            rows = np.flatnonzero(evaluation.rankings.ranking_run == run_index)
            for start in range(0, len(rows), CHUNK_TOPICS):
                yield _per_query_block(evaluation, rows[start:start + CHUNK_TOPICS])
        if summary:
            yield _summary_block(evaluation, run_index)


def trec_text(evaluation: Evaluation, *, per_query: bool = False, summary: bool = True) -> bytes:
    """The whole trec_eval-format output of every run (run after run), as bytes."""
    return b"".join(iter_trec(evaluation, per_query=per_query, summary=summary))


def _per_query_block(evaluation: Evaluation, rows: np.ndarray) -> bytes:
    """Per-topic lines of the rankings ``rows`` (one run), topic by topic.

    The values of all columns are laid out topic-major and formatted in bulk as
    ``%6.4f``; integer and text columns then replace their cells.
    """
    columns = [c for c in evaluation.columns if c.family.per_query]
    n, k = len(rows), len(columns)
    if n == 0 or k == 0:
        return b""
    kinds = np.array([c.value_type for c in columns])
    matrix = np.zeros((n, k))
    for j, column in enumerate(columns):
        if column.value_type != "str":
            matrix[:, j] = evaluation.values[column.label][rows]
    text = format_fixed(matrix.ravel(), width=6)
    for kind in ("int", "str"):
        mask = np.broadcast_to(kinds == kind, (n, k)).ravel()
        if not mask.any():
            continue
        cells = np.column_stack(
            [evaluation.values[c.label][rows] for c in columns if c.value_type == kind]).ravel()
        if kind == "int":
            replacement = pc.cast(pa.array(cells.astype(np.int64)), pa.string())
        else:  # relstring: printed '%s' quoted
            replacement = pa.array([f"'{v}'" for v in cells], pa.string())
        text = pc.replace_with_mask(text, pa.array(mask), replacement)
    labels = pa.array([_label(c.label) for c in columns], pa.string()).take(
        pa.array(np.tile(np.arange(k), n)))
    topics = pa.array(evaluation.rankings.topic_labels[rows].tolist(), pa.string()).take(
        pa.array(np.repeat(np.arange(n), k)))
    lines = pc.binary_join_element_wise(labels, topics, text, "\t")
    lines = pc.binary_join_element_wise(lines, pa.scalar(""), "\n")  # appends the newline
    return _joined_bytes(lines)


def _joined_bytes(lines: pa.Array) -> bytes:
    """The concatenation of all strings of ``lines`` (a slice of its data buffer)."""
    if isinstance(lines, pa.ChunkedArray):
        lines = lines.combine_chunks()
    width = np.int64 if pa.types.is_large_string(lines.type) else np.int32
    offsets = np.frombuffer(lines.buffers()[1], dtype=width)[
        lines.offset: lines.offset + len(lines) + 1]
    return memoryview(lines.buffers()[2])[offsets[0]: offsets[-1]].tobytes()


def _summary_block(evaluation: Evaluation, run_index: int) -> bytes:
    out = io.StringIO()
    for column, value in evaluation.summary(run_index):
        if column.value_type == "float" or column.aggregate in ("mean", "gmean"):
            text = f"{value:6.4f}"
        else:
            text = str(value)
        out.write(f"{_label(column.label)}\tall\t{text}\n")
    return out.getvalue().encode()


def _rows(evaluation: Evaluation, per_query: bool) -> list[dict]:
    rows = []
    jr = evaluation.rankings
    for run_index, run in enumerate(evaluation.runs):
        if per_query:
            mask = np.flatnonzero(jr.ranking_run == run_index)
            topics = jr.topic_labels[mask]
            for column in evaluation.columns:
                if not column.family.per_query:
                    continue
                for topic, value in zip(topics, evaluation.values[column.label][mask],
                                        strict=True):
                    rows.append({"run": run, "topic": topic, "measure": column.label,
                                 "value": _plain(value)})
        for column, value in evaluation.summary(run_index):
            rows.append({"run": run, "topic": "all", "measure": column.label,
                         "value": _plain(value)})
    return rows


def _plain(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return value if math.isfinite(value) else None
    return value if isinstance(value, (int, str)) else str(value)


def write_results(
    evaluation: Evaluation, stream: IO[bytes], *, fmt: str = "trec", per_query: bool = False,
    summary: bool = True,
) -> None:
    """Write results in one of :data:`FORMATS` to a binary stream."""
    if fmt not in FORMATS:
        raise ParameterError(f"unknown output format {fmt!r}: use one of {', '.join(FORMATS)}")
    if fmt == "trec":
        for chunk in iter_trec(evaluation, per_query=per_query, summary=summary):
            stream.write(chunk)
        return
    import pandas as pd

    rows = _rows(evaluation, per_query)
    if not summary:
        rows = [r for r in rows if r["topic"] != "all"]
    if fmt == "json":
        stream.write(json.dumps(rows, indent=1).encode() + b"\n")
    elif fmt == "csv":
        stream.write(pd.DataFrame(rows, columns=["run", "topic", "measure", "value"])
                     .to_csv(index=False).encode())
    else:
        stream.write(markdown_table(evaluation).encode())


def markdown_table(evaluation: Evaluation) -> str:
    """Runs × measures Markdown table of the summary values (4 decimals)."""
    header_columns = [c for c in evaluation.columns if c.aggregate not in ("runid", "none")]
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

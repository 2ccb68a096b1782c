"""The bytes of a cache entry: an :class:`~irscale.measures.results.Evaluation` and the
warnings its evaluation emitted, checked when read back.

Framed as every entry (:mod:`irscale.cache.frames`, kind ``"evaluation"``): the header
holds the evaluation's columns, rows, averaging and run ids and, for each array, its dtype,
shape and place in the data. Text columns (object arrays of ``str``) are JSON lists.
:func:`decode` raises :class:`~irscale.cache.frames.BadEntry` for any entry that is not
exactly what :func:`encode` wrote for that key: the caller evaluates again.

The judged rankings an evaluation measured (:attr:`Evaluation.rankings`) are not stored:
an evaluation read from the cache has ``rankings=None`` (no method of an
:class:`Evaluation` reads them). Nor are the dataset conventions' provenance lines
(:attr:`Evaluation.conventions`): they are the call's, added by :func:`irscale.evaluate` to
the evaluation it reads or makes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.rows import TopicRows
from ..io.table import Averaging, Column
from ..measures.results import Evaluation
from .frames import BadEntry, Warned, frame, unframe

#: The kind of the entries of :func:`encode`.
EVALUATION = "evaluation"


class _Arrays:
    """The array data of an entry, as it is written."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0

    def add(self, array: np.ndarray | None) -> Any:
        if array is None:
            return None
        if array.dtype.kind == "O":
            items = array.tolist()
            if not all(isinstance(item, str) for item in items):
                raise BadEntry("a text column holds values that are not text")
            return {"text": items}
        if array.dtype.kind not in "biuf" or array.ndim != 1:
            raise BadEntry(f"an array of dtype {array.dtype} cannot be stored")
        data = np.ascontiguousarray(array).tobytes()
        ref = {"dtype": array.dtype.str, "length": len(array), "offset": self.size}
        self.parts.append(data)
        self.size += len(data)
        return ref


def encode(key: str, version: str, evaluation: Evaluation, warned: list[Warned]) -> bytes:
    """The bytes of the entry of ``evaluation`` under ``key`` (module documentation);
    :class:`BadEntry` for an evaluation that holds values an entry cannot hold."""
    arrays = _Arrays()
    rows = evaluation.rows
    averaging = evaluation.averaging
    header = {
        "columns": [[c.label, c.aggregate, c.value_type, c.per_query]
                    for c in evaluation.columns],
        "values": [[label, arrays.add(np.asarray(values))]
                   for label, values in evaluation.values.items()],
        "rows": {
            "runs": list(rows.runs), "topics": list(rows.topics),
            "ranking_run": arrays.add(rows.ranking_run),
            "ranking_topic": arrays.add(rows.ranking_topic),
            "unjudged_topics": [list(t) for t in rows.unjudged_topics],
            "placeholder": arrays.add(rows.placeholder),
            "evaluated": arrays.add(rows.evaluated),
        },
        "averaging": {"rule": averaging.rule, "complete": averaging.complete,
                      "n_qrels_topics": averaging.n_qrels_topics,
                      "totals": [[k, v] for k, v in averaging.totals.items()]},
        "runids": list(evaluation.runids),
        "sources": list(evaluation.sources),
    }
    return frame(key, version, EVALUATION, warned, header, arrays.parts)


def decode(data: bytes, key: str, version: str) -> tuple[Evaluation, list[Warned]]:
    """The evaluation and warnings of an entry written by :func:`encode` for ``key`` and
    ``version``; :class:`BadEntry` otherwise."""
    header, blob, warned = unframe(data, key, version, EVALUATION)
    try:
        return _evaluation(header, blob), warned
    except (KeyError, TypeError, ValueError) as error:
        raise BadEntry(f"malformed header ({error})") from None


def _array(ref: Any, blob: memoryview) -> np.ndarray | None:
    if ref is None:
        return None
    if "text" in ref:
        return np.array(ref["text"], dtype=object)
    dtype = np.dtype(ref["dtype"])
    begin, length = int(ref["offset"]), int(ref["length"])
    end = begin + length * dtype.itemsize
    if begin < 0 or length < 0 or end > len(blob):
        raise BadEntry("array data out of bounds")
    return np.frombuffer(blob[begin:end], dtype=dtype).copy()


def _required(array: np.ndarray | None) -> np.ndarray:
    if array is None:
        raise BadEntry("a required array is missing")
    return array


def _evaluation(header: dict[str, Any], blob: memoryview) -> Evaluation:
    rows = header["rows"]
    topic_rows = TopicRows(
        runs=tuple(rows["runs"]), topics=tuple(rows["topics"]),
        ranking_run=_required(_array(rows["ranking_run"], blob)),
        ranking_topic=_required(_array(rows["ranking_topic"], blob)),
        unjudged_topics=tuple(tuple(t) for t in rows["unjudged_topics"]),
        placeholder=_array(rows["placeholder"], blob),
        evaluated=_array(rows["evaluated"], blob))
    values = {str(label): _required(_array(ref, blob)) for label, ref in header["values"]}
    averaging = header["averaging"]
    return Evaluation(
        columns=tuple(Column(str(label), aggregate, value_type, bool(per_query))
                      for label, aggregate, value_type, per_query in header["columns"]),
        values=values, rows=topic_rows,
        averaging=Averaging(averaging["rule"], complete=bool(averaging["complete"]),
                            n_qrels_topics=int(averaging["n_qrels_topics"]),
                            totals={str(k): int(v) for k, v in averaging["totals"]}),
        runids=tuple(header["runids"]), sources=tuple(header.get("sources", ())))


__all__ = ["EVALUATION", "decode", "encode"]

"""Writers of TREC qrels and run files (the formats :mod:`irscale.io.trec` reads).

Lines are assembled from whole columns (:mod:`irscale.io.text_columns`), without pyarrow.
"""

from __future__ import annotations

import os

import numpy as np

from ..core.inputs import Qrels, Run
from ..core.numbers import check_finite, identifiers
from ..core.strings import Strings
from .files import atomic_output
from .text_columns import integer_text, join_lines, repr_text, shortest_text


def _write(path: str | os.PathLike, text: bytes) -> None:
    with atomic_output(path, "wb", force=True) as handle:
        handle.write(text or b"\n")


def write_qrels(qrels: Qrels, path: str | os.PathLike) -> None:
    """Write :func:`qrels_text` to ``path``."""
    _write(path, qrels_text(qrels))


def qrels_text(qrels: Qrels) -> bytes:
    """``qid 0 docno rel`` lines (integer degrees in decimal; degrees held as floats in the
    shortest form that reads back the same number, :func:`shortest_text`)."""
    rel = np.asarray(qrels.rel)
    degrees = shortest_text(rel) if rel.dtype.kind == "f" else integer_text(rel)
    return join_lines([qrels.topic, "0", qrels.docno, degrees])


def _ranks(topics: Strings) -> np.ndarray:
    """1, 2, ... within every block of equal consecutive topics (int64)."""
    n = len(topics)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.concatenate(([True], ~topics[1:].equal(topics[:-1]))))
    return np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n))) + 1


def write_run(run: Run, path: str | os.PathLike) -> None:
    """Write :func:`run_text` to ``path``."""
    _write(path, run_text(run))


def run_text(run: Run) -> bytes:
    """``qid Q0 docno rank score runid`` lines, ranked by score within each topic: topics in
    byte order, scores descending (ties and NaNs, last, in row order), scores as ``repr``
    spells them."""
    codes, _ = run.topic.encode(sort=True)
    score = np.asarray(run.score)
    order = np.lexsort((-score, codes))
    topics = run.topic.take(order)
    return join_lines([topics, "Q0", run.docno.take(order), integer_text(_ranks(topics)),
                       repr_text(score[order]), run.name])


def ranked_run_text(run: Run, tag: str) -> bytes:
    """``qid Q0 docno rank score tag`` lines of ``run`` in its rows' order, which must be
    each topic's ranking (a fused run's: :func:`irscale.fusion.fuse`); ranks count from 1
    within a topic, scores are written in the shortest form that reads back the same
    double (:func:`~irscale.io.text_columns.shortest_text`); every score finite (the
    guard of numbers: :func:`irscale.core.numbers.check_finite`)."""
    if len(run) == 0:
        return b""
    check_finite(run.score, f"the scores of run {tag!r}")
    identifiers(run.topic)  # the text of the lines (the guard on text: a docno "nan")
    identifiers(run.docno)
    identifiers([tag])
    return join_lines([run.topic, "Q0", run.docno, integer_text(_ranks(run.topic)),
                       shortest_text(run.score), tag])

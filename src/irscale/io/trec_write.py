"""Writers of TREC qrels and run files (the formats :mod:`irscale.io.trec` reads)."""

from __future__ import annotations

import os

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.inputs import Qrels, Run
from .files import atomic_output


def _write_lines(path: str | os.PathLike, columns: list[pa.Array]) -> None:
    lines = pc.binary_join_element_wise(*columns, " ")
    with atomic_output(path, "w", force=True) as handle:
        handle.write("\n".join(lines.to_pylist()))
        handle.write("\n")


def write_qrels(qrels: Qrels, path: str | os.PathLike) -> None:
    """Write ``qid 0 docno rel`` lines."""
    n = len(qrels)
    _write_lines(path, [
        qrels.topic.to_arrow(),
        pa.array(["0"] * n),
        qrels.docno.to_arrow(),
        pc.cast(pa.array(qrels.rel), pa.string()),
    ])


def write_run(run: Run, path: str | os.PathLike) -> None:
    """Write ``qid Q0 docno rank score runid`` lines, ranked by score within each topic."""
    n = len(run)
    topics = run.topic.to_arrow()
    order = pc.sort_indices(
        pa.table({"t": topics, "s": run.score}), sort_keys=[("t", "ascending"),
                                                            ("s", "descending")]
    ).to_numpy()
    sorted_topics = topics.take(pa.array(order))
    codes = pc.dictionary_encode(sorted_topics).indices.to_numpy()
    starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    counts = np.diff(np.concatenate((starts, [n])))
    ranks = np.arange(n) - np.repeat(starts, counts) + 1
    _write_lines(path, [
        sorted_topics,
        pa.array(["Q0"] * n),
        run.docno.to_arrow().take(pa.array(order)),
        pc.cast(pa.array(ranks), pa.string()),
        pa.array([repr(float(s)) for s in run.score[order]]),
        pa.array([run.name] * n),
    ])


def ranked_run_text(run: Run, tag: str) -> bytes:
    """``qid Q0 docno rank score tag`` lines of ``run`` in its rows' order, which must be
    each topic's ranking (a fused run's: :func:`irscale.fusion.fuse`); ranks count from 1
    within a topic, scores are written in the shortest form that reads back the same
    double."""
    n = len(run)
    if n == 0:
        return b""
    topics = run.topic.to_arrow()
    codes = pc.dictionary_encode(topics).indices.to_numpy(zero_copy_only=False)
    starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    counts = np.diff(np.concatenate((starts, [n])))
    ranks = np.arange(n) - np.repeat(starts, counts) + 1
    text = pa.large_string()
    lines = pc.binary_join_element_wise(
        pc.cast(topics, text), pa.array(["Q0"] * n, text),
        pc.cast(run.docno.to_arrow(), text), pc.cast(pa.array(ranks), text),
        pc.cast(pa.array(run.score), text), pa.array([tag] * n, text), pa.scalar(" ", text))
    return ("\n".join(lines.to_pylist()) + "\n").encode()

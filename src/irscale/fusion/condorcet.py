"""CondorcetFuse (Montague and Aslam, "Condorcet fusion for improved retrieval", CIKM
2002): the documents of a topic ordered so that each one precedes those it beats by
majority.

Run ``r`` prefers ``x`` to ``y`` when it ranks ``x`` above ``y``; a document a run
retrieves is above every document it does not, and a run that retrieves neither has no
preference. ``x`` beats ``y`` when more runs prefer ``x`` to ``y`` than ``y`` to ``x``.
When the majority relation orders the documents (no cycle, no tie), CondorcetFuse's sort
gives that order, and so does sorting by the Copeland score, the number of documents a
document beats less the number that beat it, which irscale computes for every pair of
documents of a topic at once. Where the relation has cycles or ties, a sort by the
majority comparator depends on the order it starts from (ranx's: Python's set order,
which changes between processes); irscale orders by the Copeland score then, ties by
docno descending, the same answer every time. The fused score of the document at place
``i`` (1-based) of a topic's ``m`` is ``m − i + 1``, as ranx gives it.

Weighted CondorcetFuse (Montague and Aslam 2002) gives run ``r`` ``w_r`` votes: ``x``
beats ``y`` when the weights of the runs preferring ``x`` to ``y`` add up to more than
those of the runs preferring ``y`` to ``x``; the order is then found as above.
"""

from __future__ import annotations

import numpy as np

from .table import FusionTable

#: The most document pairs compared at once (bounds the memory of a block: 16 bytes a pair
#: with weights).
BLOCK_PAIRS = 1 << 22
#: The rank of a document a run does not retrieve (below every rank).
UNRANKED = np.iinfo(np.int32).max


def copeland(table: FusionTable, weights: np.ndarray | None = None) -> np.ndarray:
    """The Copeland score of every pair (module documentation): wins less losses against
    the other documents of its topic, each run's preferences weighing ``weights[r]``
    (default 1).

    Topics are taken in blocks of similar sizes (those of ``m`` documents with
    ``2^(b-1) < m ≤ 2^b``, as many as fit :data:`BLOCK_PAIRS` pairs), each block laid out as
    a ``topics × M × M`` array (``M`` its largest topic, shorter topics padded), so that the
    preferences of every pair of a block come from whole-array comparisons."""
    starts = table.topic_starts
    sizes = np.diff(starts)
    rank = np.where(table.present, table.rank, UNRANKED).astype(np.int32)
    score = np.zeros(len(rank), dtype=np.int64)
    bucket = np.ceil(np.log2(np.maximum(sizes, 1))).astype(np.int64)
    for b in np.unique(bucket):
        topics = np.flatnonzero(bucket == b)
        width = int(sizes[topics].max())
        per_block = max(1, BLOCK_PAIRS // (width * width))
        for first in range(0, len(topics), per_block):
            block = topics[first:first + per_block]
            places = np.arange(width)
            valid = places[None, :] < sizes[block][:, None]
            rows = np.where(valid, starts[block][:, None] + places[None, :], 0)
            ranks = np.where(valid[:, :, None], rank[rows], UNRANKED)  # topics × M × runs
            # votes[t, i, j]: the runs (their weights) preferring document i to j
            votes = np.zeros((len(block), width, width),
                             dtype=np.int16 if weights is None else np.float64)
            for run in range(ranks.shape[2]):
                column = ranks[:, :, run]
                prefers = column[:, None, :] > column[:, :, None]
                if weights is None:
                    votes += prefers
                else:
                    np.add(votes, weights[run], out=votes, where=prefers)
            margin = np.sign(votes - votes.transpose(0, 2, 1)).astype(np.int8)
            wins = (margin * valid[:, None, :]).sum(axis=2)
            score[rows[valid]] = wins[valid]
    return score


def condorcet(table: FusionTable, weights: np.ndarray | None = None) -> np.ndarray:
    """(Weighted) CondorcetFuse's score ``m − i + 1`` of every pair (module
    documentation)."""
    wins = copeland(table, weights)
    order = np.lexsort((-table.doc_order[table.pair_doc], -wins, table.pair_topic))
    starts = table.topic_starts
    place = np.empty(len(order), dtype=np.int64)
    place[order] = np.arange(len(order)) - starts[table.pair_topic[order]]
    return (np.diff(starts)[table.pair_topic] - place).astype(np.float64)

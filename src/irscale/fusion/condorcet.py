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
"""

from __future__ import annotations

import numpy as np

from .table import FusionTable

#: The most document pairs compared at once (bounds the memory of a block).
BLOCK_PAIRS = 1 << 22


def copeland(table: FusionTable) -> np.ndarray:
    """The Copeland score of every pair (module documentation): wins less losses against
    the other documents of its topic, computed by blocks of at most :data:`BLOCK_PAIRS`
    document pairs."""
    starts = table.topic_starts
    first = starts[table.pair_topic]
    width = np.diff(starts)[table.pair_topic]  # the candidates of each pair's topic
    rank = np.where(table.present, table.rank, np.iinfo(np.int64).max)
    score = np.zeros(len(rank), dtype=np.int64)
    ends = np.cumsum(width)
    begin = 0
    while begin < len(rank):
        end = max(int(np.searchsorted(ends, ends[begin] - width[begin] + BLOCK_PAIRS,
                                      side="right")), begin + 1)
        x = np.repeat(np.arange(begin, end), width[begin:end])
        offset = np.arange(len(x)) - np.repeat(np.cumsum(width[begin:end]) - width[begin:end],
                                               width[begin:end])
        y = first[x] + offset
        prefers_x = (rank[x] < rank[y]).sum(axis=1)  # two misses: no preference
        prefers_y = (rank[y] < rank[x]).sum(axis=1)
        score[begin:end] = np.bincount(x - begin, weights=np.sign(prefers_x - prefers_y),
                                       minlength=end - begin).astype(np.int64)
        begin = end
    return score


def condorcet(table: FusionTable) -> np.ndarray:
    """CondorcetFuse's score ``m − i + 1`` of every pair (module documentation)."""
    wins = copeland(table)
    order = np.lexsort((-table.doc_order[table.pair_doc], -wins, table.pair_topic))
    starts = table.topic_starts
    place = np.empty(len(order), dtype=np.int64)
    place[order] = np.arange(len(order)) - starts[table.pair_topic[order]]
    return (np.diff(starts)[table.pair_topic] - place).astype(np.float64)

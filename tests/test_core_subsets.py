"""Sub-batches (:mod:`irscale.core.subsets`): the sparse kernels must equal the full scans.

The trec_eval kernels work on the pooled documents only; here every family is also computed
with the "pooled" subset replaced by every document (the dense computation), and the two
must agree bit for bit, on hypothesis-generated batches with every relevance level.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale.core.segments import segment_scan
from irscale.core.subsets import Subset, memo, pooled_documents, relevant_documents
from irscale.measures.base import EvalContext
from irscale.measures.compute import compute_requests
from irscale.measures.names import parse_measures

from .measures_helpers import batch, complete_levels

RANKING = st.lists(st.sampled_from((-2, -1, -1, -1, 0, 0, 1, 2, 3)), min_size=0, max_size=14)


ANY_LEVEL = st.sampled_from((-2, -1, 0, 1, 1, 2, 3))


@st.composite
def batches(draw, levels=ANY_LEVEL):
    rankings = draw(st.lists(RANKING, min_size=1, max_size=6))
    extra = draw(st.integers(0, 3))
    return batch(rankings, complete_levels(rankings, extra, n_levels=4),
                 relevance_level=draw(levels))


@given(batches())
def test_pooled_documents_are_the_documents_in_the_qrels(jr):
    pooled = pooled_documents(jr)
    expected = np.flatnonzero(jr.rel != -1) if jr.relevance_level >= 0 else np.arange(
        len(jr.rel))
    np.testing.assert_array_equal(pooled.index, expected)
    np.testing.assert_array_equal(pooled.rank, jr.rank[expected])
    np.testing.assert_array_equal(pooled.segment, jr.segment[expected])
    np.testing.assert_array_equal(pooled.rel, jr.rel[expected])
    relevant = relevant_documents(jr)
    np.testing.assert_array_equal(relevant.index, np.flatnonzero(jr.is_relevant))


@given(batches(), st.integers(-1, 16), st.data())
def test_counts_and_depth_reads_equal_the_dense_scans(jr, k, data):
    pooled = pooled_documents(jr)
    judged = pooled.rel >= 0
    dense_judged = (jr.rel >= 0).astype(np.int64)
    dense_count = np.array([dense_judged[s:e][:max(k, 0)].sum()
                            for s, e in zip(jr.offsets[:-1], jr.offsets[1:], strict=True)])
    np.testing.assert_array_equal(pooled.count(judged, k), dense_count)
    # running sums read at per-ranking depths, as the dense running sums
    values = np.where(jr.rel >= 0, (jr.rel + 1) / 7.0, 0.0)
    dense = segment_scan(values, jr.offsets, np.add, 0.0)
    running = pooled.scan(values[pooled.index], np.add, 0.0)
    depth = np.array(data.draw(st.lists(st.integers(-1, 20), min_size=jr.n_rankings,
                                        max_size=jr.n_rankings)))
    ranking = np.arange(jr.n_rankings)
    got = pooled.at_depth(running, ranking, np.minimum(depth, jr.lengths), -5.0)
    for i, (start, d) in enumerate(zip(jr.offsets[:-1], np.minimum(depth, jr.lengths),
                                       strict=True)):
        want = dense[start + d - 1] if d >= 1 else 0.0
        some = (pooled.segment == i) & (pooled.rank <= d)
        assert got[i] == (want if some.any() else -5.0)
    # a reversed scan and the first value of each ranking
    maxima = pooled.scan(values[pooled.index], np.maximum, -np.inf, reverse=True)
    firsts = pooled.first(maxima, -1.0)
    for i in range(jr.n_rankings):
        mine = values[pooled.index][pooled.segment == i]
        assert firsts[i] == (mine.max() if len(mine) else -1.0)


TREC_FAMILIES = (
    "num_rel_ret", "map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "recall",
    "infAP", "Rprec_mult", "11pt_avg", "binG", "G", "ndcg", "ndcg_cut", "ndcg_rel", "Rndcg",
    "map_cut", "relative_P", "success", "num_nonrel_judged_ret", "relstring", "unj",
    "ndcg.-1=0.5,-2=2", "G.1=0.5,2=3.25", "Rndcg.0=1.5,3=1", "ndcg_rel.2=0.7", "dcg",
)


def family_values(name: str, jr) -> dict[str, np.ndarray]:
    """Every output of the family ``name`` on ``jr`` (trec_eval 10's table, for unj)."""
    columns, values = compute_requests(jr, parse_measures([name], compat=10),
                                       EvalContext(compat=10))
    return {column.label: values[column.label] for column in columns}


@pytest.mark.parametrize("family", TREC_FAMILIES)
@given(jr=batches())
def test_sparse_kernels_equal_the_dense_computation(family, jr):
    sparse = family_values(family, jr)
    dense_jr = replace(jr)  # the same rankings, with nothing cached
    # the "pooled" subset of the dense batch is every document: nothing is skipped
    memo(dense_jr, "pooled_documents", lambda: Subset.of(dense_jr, np.ones(len(jr.rel), bool)))
    dense = family_values(family, dense_jr)
    assert sparse.keys() == dense.keys()
    for label, values in sparse.items():
        np.testing.assert_array_equal(values, dense[label], err_msg=label)


@given(st.lists(st.lists(st.sampled_from((0.0, -0.0, 0.5, 1.0, 3.0, -2.0, 1e-300, 7.25)),
                         max_size=9), min_size=1, max_size=8),
       st.sampled_from([(np.add, 0.0), (np.maximum, -np.inf)]), st.booleans(),
       st.sampled_from([0, 1, 2, 4]))
def test_long_segments_are_scanned_one_at_a_time_as_in_padded_rows(segments, scan, reverse,
                                                                   long_rows):
    """A block of long segments scanned one segment at a time gives the padded rows' values
    bit for bit (signed zeros included: backwards, a segment shorter than its row starts
    from the padding), for any segment lengths, both ways."""
    from irscale.core import segments as segments_module

    ufunc, fill = scan
    values = np.array([v for segment in segments for v in segment], dtype=np.float64)
    offsets = np.concatenate(([0], np.cumsum([len(s) for s in segments]))).astype(np.int64)
    padded = segment_scan(values, offsets, ufunc, fill, reverse=reverse)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(segments_module, "_LONG_ROWS", long_rows)
        by_segment = segment_scan(values, offsets, ufunc, fill, reverse=reverse)
    assert padded.tobytes() == by_segment.tobytes()
    for start, stop in pairwise(offsets):  # the definition
        part = values[start:stop][::-1] if reverse else values[start:stop]
        want = ufunc.accumulate(np.concatenate(([fill], part)))[1:]
        np.testing.assert_array_equal(by_segment[start:stop], want[::-1] if reverse else want)

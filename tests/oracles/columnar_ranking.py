"""The numpy/pyarrow ranking of ``Run`` objects that the native engine (``rust/src/ties.rs``)
replaced, kept as the oracle of ``tests/test_core_judge_oracle.py`` (through
:mod:`tests.oracles.columnar_judge`).

Ranking follows trec_eval 9.0.8 (``form_res_rels.c``): documents are sorted by score
descending, ties broken by docno descending in byte order. 9.0.8 keeps scores as C floats
(``TEXT_RESULTS.sim`` is a ``float``), so scores equal in single precision tie; 10.0 keeps
them as doubles. The ``file-order`` and ``rank-column`` tie policies keep file order for
ties, or rank by the file's rank column.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from irscale.core._columnar.blocks import TopicBlocks
from irscale.core.inputs import Run, as_c_float
from irscale.core.options import TiePolicy
from irscale.core.segments import chunks, ranges
from irscale.errors import ParameterError
from irscale.parallel.threads import map_threads

from .arrow_columns import arrow_column, length_range, shared_prefix, short_keys
from .segment_sorts import segment_argsort, segment_sort_keys

#: :func:`_by_docno_keys` sorts the rows tied on their keys again as strings when they are
#: at most this fraction (1 / n) of the rows; more, and all are sorted as strings.
_RESORTED_SHARE = 8

#: Rows scanned at once by :func:`_tied_pairs`: bounds the temporaries' memory.
_CHUNK_ROWS = 1 << 20
#: Pairs of tied rows sorted at once by :func:`_presorted_order` (whole runs of ties).
_TIED_PIECE = 1 << 17


def c_float_rank_keys(scores: np.ndarray) -> np.ndarray:
    """32-bit unsigned keys of ``scores`` (none NaN) in ascending order where the scores are
    in descending order as C floats (:func:`as_c_float`), and equal exactly where those
    floats are equal: trec_eval 9.0.8's order of scores (``form_res_rels.c`` compares the
    ``float`` sims), ``-0`` and ``+0`` alike.

    The bits of a float read as an unsigned integer grow with the float when its sign bit
    is clear and shrink as it grows when set. With ``-0`` made ``+0`` (adding ``+0``), the
    key keeps a negative float's bits (at and above ``0x80000000``, the most negative last)
    and flips all but the sign bit of a positive one (below it, the largest first).
    """
    single = as_c_float(scores)
    single += np.float32(0)
    bits = single.view(np.uint32)
    flip = single.view(np.int32) >> 31  # -1 where negative, else 0
    np.invert(flip, out=flip)
    flip &= 0x7FFF_FFFF
    bits ^= flip.view(np.uint32)
    return bits


def rank_order(run: Run, block_topic: np.ndarray, ties: TiePolicy, *,
               single: bool = True, labels: np.ndarray | None = None) -> np.ndarray:
    """Row indices of the run's rows of judged topics, sorted by topic code, then in ranking
    order within a topic (int64, or int32 from :func:`_presorted_order` when they fit).
    ``single``: the ``trec_eval`` policy compares scores as C floats (9.0.8), else as the
    doubles read (10.0).

    ``labels``: the judgment of every row (in the run's row order), when the caller needs
    the judgments in ranking order only, not which document holds each place: rows tied on
    their scores that all carry one judgment are then left in file order rather than sorted
    by docno (:func:`_told_apart`). Their judgments in ranking order are trec_eval's all
    the same, also cut by ``max_docs`` or with the unjudged left out, and measures see the
    judgments only (a deep run whose ties hold no judged document: 1M rows, rank_order
    31-40 -> 9 ms, warm).

    ``block_topic`` is the topic code of every block of ``run.topic_blocks`` (-1: a topic
    without judgments, left out). Runs are usually written topic by topic in ranking order:
    then the blocks are only put in topic order, and the rows of tied scores sorted
    (:func:`_presorted_order`). When each topic fills one block but a block is not in
    ranking order, the blocks are sorted each on their own first (:func:`_block_sort`);
    otherwise all rows are sorted.
    """
    key = run.score
    if ties == "rank-column":
        if run.rank is None:
            raise ParameterError(
                "the rank-column tie policy needs the run's rank column: "
                "read the run with keep_rank=True"
            )
        key = run.rank
    blocks = run.topic_blocks
    if blocks.contiguous:
        pairs = _tied_pairs(key, blocks.bounds, ties, single)
        within = None
        if pairs is None:
            within, pairs = _block_sort(key, blocks, ties, single)
        if pairs is not None:
            if labels is not None:
                pairs = _told_apart(pairs, labels, within)
            return _presorted_order(blocks, block_topic, pairs, arrow_column(run.docno),
                                    within)
    topic_code = blocks.expand(block_topic)
    if ties == "trec_eval":
        # trec_eval 9.0.8 stores scores as C floats (TEXT_RESULTS.sim is a float): scores
        # equal in single precision tie, and the tie is broken by docno.
        table = pa.table({"t": pa.array(topic_code),
                          "s": pa.array(as_c_float(key) if single else key),
                          "d": arrow_column(run.docno)})
        order = np.asarray(pc.sort_indices(
            table, sort_keys=[("t", "ascending"), ("s", "descending"), ("d", "descending")]
        ))
    elif ties == "file-order":
        order = np.lexsort((-key, topic_code))  # lexsort is stable: file order for ties
    else:
        order = np.lexsort((key, topic_code))
    return order[topic_code[order] >= 0]


def _presorted_order(
    blocks: TopicBlocks,
    block_topic: np.ndarray,
    pairs: np.ndarray,
    docno: pa.ChunkedArray,
    within: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`rank_order` of a run whose topics each fill one block, every block in ranking
    order (``within`` is None) or put in it by ``within`` (the row at every position,
    :func:`_block_sort`); ``pairs`` are the positions of ties (:func:`_tied_pairs`).

    The ranking order of a block is the key (scores, or ranks for ``rank-column``) descending
    (ascending) and, for ``trec_eval``, ties of scores as C floats broken by ``docno``
    descending; otherwise ties stay in file order. A stable sort by (topic, key, docno) then
    keeps the rows of a block together and in file order, except that rows tied by their
    C-float scores (consecutive, as rounding to single precision keeps the order) are ordered
    by docno: blocks are moved into topic order as a whole, and only the rows of ties are
    sorted. With ``within``, all this is done on positions, mapped to rows at the end.

    The ties are sorted in pieces of whole runs of ties (:data:`_TIED_PIECE` pairs), shared
    out between the usable cores (:func:`~irscale.parallel.threads.map_threads`): a piece's
    temporaries are small and reused by the next, where arrays of every tied row were each
    fresh memory (a run tied throughout, 1M rows: 21,000 page faults -> 4,900, 68 -> 36 ms).
    """
    bounds = blocks.bounds
    chosen = np.flatnonzero(block_topic >= 0)
    chosen = chosen[np.argsort(block_topic[chosen])]  # distinct codes: one block per topic
    lengths = blocks.lengths[chosen]
    target = np.cumsum(lengths) - lengths  # where each chosen block starts in the order
    # the rows of each chosen block in turn, as the running sum of steps of one that jump
    # to the next block's first row (one array: no arange and repeat of millions of rows)
    # row numbers in 32 bits when they fit: half the memory of the largest array here
    order = np.ones(int(lengths.sum()), dtype=np.int32 if bounds[-1] <= 1 << 31 else np.int64)
    jumps = bounds[chosen]  # blocks are never empty
    jumps[1:] -= bounds[chosen[:-1]] + lengths[:-1] - 1
    order[target] = jumps
    np.cumsum(order, dtype=order.dtype, out=order)  # every partial sum is a row number
    if len(pairs) == 0:
        return order if within is None else np.take(within, order)
    shift = np.zeros(len(block_topic), dtype=np.int64)
    shift[chosen] = target - bounds[chosen]  # a row's position less its row number
    judged = block_topic >= 0
    every_block = bool(judged.all())
    run_starts = _run_starts(pairs)
    keys = _docno_keys(docno, len(pairs) + len(run_starts))
    runs = np.append(run_starts, len(pairs))  # each run's first pair, and the end

    def sort_ties(piece: tuple[int, int]) -> None:
        rows, group = _tied_rows(pairs[piece[0]: piece[1]])
        # the blocks of the piece's rows (ascending), and how many rows each holds
        low = int(np.searchsorted(bounds, rows[0], "right")) - 1
        high = int(np.searchsorted(bounds, rows[-1], "right"))
        per_block = np.diff(np.searchsorted(rows, bounds[low: high + 1]))
        if not every_block:  # the rows of topics without judgments are left out
            keep = np.repeat(judged[low:high], per_block)
            rows, group = rows[keep], group[keep]
            per_block = per_block[judged[low:high]]
            block_shift = shift[low:high][judged[low:high]]
        else:
            block_shift = shift[low:high]
        if len(rows) == 0:
            return
        position = rows + np.repeat(block_shift, per_block)
        tied = rows if within is None else within[rows]
        by_docno = None if keys is None else _by_docno_keys(docno, tied, group, keys)
        if by_docno is None:
            by_docno = _by_docno_strings(docno, tied, group)
        order[position] = rows[by_docno]

    map_threads(sort_ties, [(int(runs[first]), int(runs[stop]))
                            for first, stop in chunks(runs, _TIED_PIECE)])
    return order if within is None else np.take(within, order)


def _told_apart(pairs: np.ndarray, labels: np.ndarray, within: np.ndarray | None = None
                ) -> np.ndarray:
    """The pairs (:func:`_tied_pairs`) of the runs of ties whose rows do not all carry one
    label (``labels``: every row's; ``within``: the row at every position, None where rows
    are in place, as :func:`_presorted_order` takes it; only the tied positions' labels
    are gathered); each run of ties is whole or left out. A run of
    ties holds consecutive positions, so its labels are all equal when no pair of
    neighbours in it differs: the runs kept are those of the pairs whose neighbours differ,
    found by their first pairs (few, in runs whose ties hold few judged documents: 1M rows
    of 5 deep topics, 636,513 tied pairs in 228,914 runs, 161 pairs kept, 5.7 -> 1.3 ms
    against an ``or`` over every run)."""
    if len(pairs) == 0:
        return pairs
    first, second = pairs, pairs + 1
    if within is not None:
        first, second = within[first], within[second]
    differ = np.flatnonzero(labels[first] != labels[second])
    if len(differ) == 0:
        return pairs[:0]
    run_starts = _run_starts(pairs)
    run = np.searchsorted(run_starts, differ, "right") - 1  # ascending, as ``differ``
    run = run[np.append(True, run[1:] != run[:-1])]
    if len(run) == len(run_starts):
        return pairs
    ends = np.append(run_starts, len(pairs))
    return pairs[ranges(run_starts[run], ends[run + 1] - run_starts[run])]


def _run_starts(pairs: np.ndarray) -> np.ndarray:
    """The index of every run of ties' first pair among ``pairs`` (:func:`_tied_pairs`): a
    run starts at every pair that does not follow the one before."""
    return np.flatnonzero(np.append(True, pairs[1:] != pairs[:-1] + 1))


def _tied_rows(pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows of the runs of ties of ``pairs`` (ascending; each run's pairs consecutive,
    the first pair starting a run) and the number (from 1) of each row's run."""
    first = np.ones(len(pairs), dtype=bool)
    first[1:] = pairs[1:] != pairs[:-1] + 1
    group = np.cumsum(first)
    last = np.append(first[1:], True)
    at = np.arange(len(pairs)) + group - 1  # each earlier run of ties has one more row
    rows = np.empty(len(pairs) + int(group[-1]), dtype=np.int64)
    rows[at], rows[at[last] + 1] = pairs, pairs[last] + 1
    row_group = np.empty_like(rows)
    row_group[at], row_group[at[last] + 1] = group, group[last]
    return rows, row_group


def _docno_keys(docno: pa.ChunkedArray, n_rows: int) -> np.ndarray | None:
    """The sort keys of every docno for :func:`_by_docno_keys`, to sort ``n_rows`` tied rows:
    past the bytes every docno begins with (``clueweb12-``,
    :func:`~tests.oracles.arrow_columns.shared_prefix`), the docno's next 8 bytes as a
    big-endian integer (:func:`~tests.oracles.arrow_columns.short_keys`: their order is the
    byte order of those bytes), complemented (descending docnos as ascending keys). ``None``
    when the rows are fewer than a quarter of the docnos (all of whose keys are read), or a
    docno has no byte past the prefix all share (or NULs only: the key 0)."""
    if 4 * n_rows < len(docno) or n_rows == 0:
        return None
    shortest, longest = length_range(docno)
    if shortest == 0:  # an empty docno's key is 0
        return None
    # a byte of every docno left past the prefix: a docno equal to it would have the key 0
    skip = min(len(shared_prefix(docno).encode()), shortest - 1) if longest > 8 else 0
    keys = short_keys(docno, skip)[0]
    np.invert(keys, out=keys)
    if bool((keys == np.iinfo(np.uint64).max).any()):  # the key 0: no byte left, or NULs
        return None
    return keys


def _by_docno_keys(docno: pa.ChunkedArray, rows: np.ndarray, group: np.ndarray,
                   keys: np.ndarray | None = None) -> np.ndarray | None:
    """The positions of ``rows`` sorted by ``group`` (non-decreasing, each group's rows
    together), then docno descending; ``None`` when the docnos' keys cannot be used
    (:func:`_docno_keys`; ``keys``: theirs, when computed already) or more than an eighth
    of the rows tie on their keys.

    Made for runs tied throughout (every score equal, integer scores): the docnos' keys
    (:func:`_docno_keys`) are laid out one group per row of padded matrices
    (:func:`~tests.oracles.segment_sorts.segment_argsort`), and the rows sorted at once (2M tied
    rows in groups of 1,000: 0.11-0.17 s, where pyarrow's sort of the strings took
    0.24-0.33 s). Rows of a group whose keys are equal (docnos longer than the 8 bytes, or
    differing in trailing NULs only, which files cannot hold but dicts can) are then sorted
    again as strings, those rows only (:func:`_by_docno_strings`; ClueWeb docnos tied in
    groups of about 70: 4 % of them).
    """
    if keys is None:
        keys = _docno_keys(docno, len(rows))
        if keys is None:
            return None
    key = keys[rows]
    starts = np.flatnonzero(np.diff(group, prepend=group[0] - 1))
    # a pad (the largest value) sorts last, as no docno has the key 0
    order = segment_argsort(key, np.append(starts, len(rows)), "quicksort")
    ordered = key[order]
    equal = ordered[1:] == ordered[:-1]
    equal[starts[1:] - 1] = False  # neighbours in two groups
    if not equal.any():
        return order
    # the positions of rows tied on their keys, and a number for each run of them
    tied = np.zeros(len(rows), dtype=bool)
    tied[:-1] = equal
    tied[1:] |= equal
    at = np.flatnonzero(tied)
    if _RESORTED_SHARE * len(at) > len(rows):
        return None
    run = np.cumsum(np.append(True, ~equal[at[1:] - 1]))
    order[at] = order[at][_by_docno_strings(docno, rows[order[at]], run)]
    return order


def _by_docno_strings(docno: pa.ChunkedArray, rows: np.ndarray, group: np.ndarray
                      ) -> np.ndarray:
    """:func:`_by_docno_keys`'s order (``rows`` by ``group``, then docno descending) by
    pyarrow's sort of the strings."""
    table = pa.table({"g": pa.array(group), "d": docno.take(pa.array(rows))})
    return np.asarray(
        pc.sort_indices(table, sort_keys=[("g", "ascending"), ("d", "descending")]))


def _block_sort(key: np.ndarray, blocks: TopicBlocks, ties: TiePolicy, single: bool
                ) -> tuple[np.ndarray, np.ndarray | None]:
    """The rows of every block in ranking order, ties in file order (the row at every
    position, blocks in place), and the positions of ties in that order
    (:func:`_tied_pairs`).

    The blocks are sorted side by side as the rows of padded matrices. trec_eval 9.0.8's
    order (``single``) is that of 32-bit keys of the scores as C floats
    (:func:`c_float_rank_keys`), sorted with the keys themselves
    (:func:`~tests.oracles.segment_sorts.segment_sort_keys`): ties are equal neighbours among
    them (2M scores in blocks of 1,000: 18 -> 5 ms). Otherwise the keys are argsorted
    (:func:`~tests.oracles.segment_sorts.segment_argsort`) and the ties found on the keys so
    ordered; scores in order as doubles are in order as C floats, so 10.0's ties are then
    consecutive too.
    """
    if ties == "trec_eval" and single:
        within, ordered = segment_sort_keys(key, blocks.bounds, c_float_rank_keys)
        tied = ordered[1:] == ordered[:-1]
        tied[blocks.bounds[1:-1] - 1] = False  # neighbours in two blocks
        return within, np.flatnonzero(tied)
    descending = ties != "rank-column"  # scores: descending
    # trec_eval's ties are re-sorted by docno afterwards (_presorted_order), so their order
    # here is free: numpy's (vectorised) quicksort, several times faster than a stable sort;
    # the other policies keep ties in file order. Pads sort last unless a sorted value (a
    # negated score) is +inf too.
    free = ties == "trec_eval" and not bool(np.isneginf(key).any())
    within = segment_argsort(key, blocks.bounds, "quicksort" if free else "stable",
                             descending=descending)
    return within, _tied_pairs(key[within], blocks.bounds, ties, single)


def _tied_pairs(key: np.ndarray, bounds: np.ndarray, ties: TiePolicy, single: bool = True
                ) -> np.ndarray | None:
    """Rows ``i`` (ascending) tied with row ``i + 1`` of their block (scores equal as C
    floats, for ``trec_eval``, or as doubles when not ``single``; none for the other
    policies), or ``None`` when a block is not in ranking order.

    Scores in order as doubles are in order as C floats (rounding is monotone), so the order
    is checked on the doubles; comparisons that fail (NaN) reject the layout. The key is
    scanned in slices, to keep the temporaries small, shared out between the usable cores
    (10M scores: 10 -> 7 ms).
    """
    across = bounds[1:-1] - 1  # the neighbour pairs (i, i + 1) that span two blocks
    n_pairs = max(len(key) - 1, 0)

    def scan(start: int) -> np.ndarray | None:
        stop = min(start + _CHUNK_ROWS, n_pairs)
        later, earlier = key[start + 1: stop + 1], key[start:stop]
        in_order = later >= earlier if ties == "rank-column" else later <= earlier
        spans = across[np.searchsorted(across, start): np.searchsorted(across, stop)] - start
        in_order[spans] = True
        if not in_order.all():
            return None
        if ties != "trec_eval":
            return np.empty(0, dtype=np.int64)
        compared = as_c_float(key[start: stop + 1]) if single else key[start: stop + 1]
        tied = compared[1:] == compared[:-1]
        tied[spans] = False
        return np.flatnonzero(tied) + start

    scanned = map_threads(scan, range(0, n_pairs, _CHUNK_ROWS))
    found = [pairs for pairs in scanned if pairs is not None]
    if len(found) < len(scanned):  # a slice out of order
        return None
    return np.concatenate(found) if found else np.empty(0, dtype=np.int64)

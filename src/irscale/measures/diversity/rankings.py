"""Judged diversity rankings: the common currency of the intent-aware measures.

A :class:`DiversityRankings` batch holds many rankings at once, as
:class:`~irscale.core.judged.JudgedRankings` does for one-degree judgments, but a document
is judged per intent (subtopic): the batch stores, for every ranking, the *relevant
entries* ``(rank, subtopic)`` (document at ``rank`` relevant to ``subtopic``), sorted by
ranking, rank and subtopic, plus per-ranking context (topic, number of intents with a
relevant document, relevant documents per intent). Documents relevant to no intent leave
no entry: every ndeval measure depends on the relevant entries only.

The same structure holds the ideal rankings built from the qrels
(:func:`ideal_rankings`, ndeval's greedy ideal), so that a measure is written once and
normalised by computing it on both.

Intents are numbered per topic ``0 .. S−1`` in the order of their ids (numeric ids
numerically, as ndeval indexes them); kernels add per-intent terms in that order, as
ndeval does, so that values are the same doubles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ...core.inputs import Run
from ...errors import InputFormatError
from ...io.diversity import DiversityQrels


def id_sort_key(value: str) -> tuple[int, int, str]:
    """Topic / subtopic order: numeric ids numerically (ndeval's ``atoi`` order), then
    the others by byte order."""
    if value.isdigit():
        return (0, int(value), value)
    return (1, 0, value)


@dataclass(frozen=True, eq=False)
class DiversityRankings:
    """A batch of rankings judged per intent (see the module documentation).

    ``entry_ranking``, ``entry_rank`` (1-based position) and ``entry_subtopic`` (intent
    index within the topic) list the relevant entries sorted by ranking, rank, subtopic.
    ``ranking_topic`` indexes :attr:`topics` (−1: a topic the qrels do not judge);
    ``n_intents[t]`` is the number of intents of topic ``t`` with a relevant document
    (ndeval's ``actualSubtopics``) and ``nrel_sub[t, j]`` the relevant documents of
    intent ``j``.
    """

    lengths: np.ndarray
    ranking_topic: np.ndarray
    entry_ranking: np.ndarray
    entry_rank: np.ndarray
    entry_subtopic: np.ndarray
    topics: tuple[str, ...]
    n_intents: np.ndarray
    nrel_sub: np.ndarray
    cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def n_rankings(self) -> int:
        return len(self.lengths)

    @property
    def max_subtopics(self) -> int:
        return self.nrel_sub.shape[1]

    def intents(self) -> np.ndarray:
        """Per ranking, the number of intents with a relevant document (0 when unjudged)."""
        out = np.zeros(self.n_rankings, dtype=np.int64)
        judged = self.ranking_topic >= 0
        out[judged] = self.n_intents[self.ranking_topic[judged]]
        return out

    def memo(self, key: str, compute):
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]


@dataclass(frozen=True, eq=False)
class DiversityIndex:
    """The qrels prepared for judging runs: topics, intents and the relevant documents.

    ``rel_topic``, ``rel_docno`` and ``rel_mask`` list the (topic, document) pairs relevant
    to at least one intent (judgment ≥ ``level``) with their intents as a boolean matrix
    (one column per intent index); ``docno_order`` ranks ``rel_docno`` by byte order.
    """

    topics: tuple[str, ...]
    subtopics: tuple[tuple[str, ...], ...]
    rel_topic: np.ndarray
    rel_docno: pa.Array
    rel_mask: np.ndarray
    n_intents: np.ndarray
    nrel_sub: np.ndarray
    source: str

    @classmethod
    def of(cls, qrels: DiversityQrels, level: int = 1) -> DiversityIndex:
        """Index ``qrels``; a judgment counts as relevant when ≥ ``level`` (ndeval: 1,
        levels above 1 counting as 1; 0 and negative levels: not relevant)."""
        topics = tuple(sorted(pc.unique(qrels.topic).to_pylist(), key=id_sort_key))
        topic_code = _index_in(qrels.topic, topics)
        sub_codes, sub_dict = _encode(qrels.subtopic.combine_chunks())
        names = sub_dict.to_pylist()
        n_sub = max(len(names), 1)
        pair_key, row_pair = np.unique(topic_code * n_sub + sub_codes, return_inverse=True)
        pair_topic = pair_key // n_sub
        pair_sub = [names[c] for c in (pair_key % n_sub).tolist()]
        order = sorted(range(len(pair_sub)), key=lambda i: (pair_topic[i],
                                                             id_sort_key(pair_sub[i])))
        per_topic: list[list[str]] = [[] for _ in topics]
        pair_index = np.empty(len(pair_sub), dtype=np.int64)
        for i in order:
            pair_index[i] = len(per_topic[pair_topic[i]])
            per_topic[pair_topic[i]].append(pair_sub[i])
        subtopics = tuple(tuple(s) for s in per_topic)
        width = max((len(s) for s in subtopics), default=0)
        sub_index = pair_index[row_pair.ravel()]
        relevant = qrels.judgment >= level
        rows = np.flatnonzero(relevant)
        r_topic, r_sub = topic_code[rows], sub_index[rows]
        r_doc = qrels.docno.take(pa.array(rows)).combine_chunks()
        doc_codes, doc_dict = _encode(r_doc)
        key = r_topic * max(len(doc_dict), 1) + doc_codes
        unique_key, inverse = np.unique(key, return_inverse=True)
        mask = np.zeros((len(unique_key), width), dtype=bool)
        mask[inverse, r_sub] = True
        rel_topic = unique_key // max(len(doc_dict), 1)
        rel_docno = doc_dict.take(pa.array(unique_key % max(len(doc_dict), 1)))
        nrel_sub = np.zeros((len(topics), width), dtype=np.int64)
        np.add.at(nrel_sub, (r_topic, r_sub), 1)
        n_intents = (nrel_sub > 0).sum(axis=1)
        return cls(topics, subtopics, rel_topic, rel_docno, mask, n_intents, nrel_sub,
                   qrels.source)


def _encode(values: pa.Array) -> tuple[np.ndarray, pa.Array]:
    encoded = pc.dictionary_encode(values)
    if isinstance(encoded, pa.ChunkedArray):
        encoded = encoded.combine_chunks()
    return encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64), encoded.dictionary


def _index_in(values: pa.ChunkedArray | pa.Array, universe) -> np.ndarray:
    """Index of every value in ``universe`` (−1 when absent)."""
    if not isinstance(universe, pa.Array):
        universe = pa.array(list(universe), pa.string())
    found = pc.index_in(values, value_set=universe)
    return found.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)


def rank_run(run: Run, traditional: bool) -> tuple[np.ndarray, np.ndarray]:
    """Row order of ``run`` and its topic-block bounds, ranked as ndeval ranks it.

    By default (ndeval without ``-traditional``) each topic's documents are ordered by
    the file's rank column, two equal ranks for a topic being an error; with
    ``traditional`` by score descending, then docno descending (byte order).
    Returns ``(order, block_starts)`` with ``order`` grouping rows topic by topic.
    """
    topic_codes, topic_dict = _encode(run.topic)
    if traditional:
        table = pa.table({"t": topic_codes, "s": run.score,
                          "d": run.docno.combine_chunks()
                          if isinstance(run.docno, pa.ChunkedArray) else run.docno})
        order = pc.sort_indices(table, sort_keys=[("t", "ascending"), ("s", "descending"),
                                                  ("d", "descending")])
        order = order.to_numpy(zero_copy_only=False)
    else:
        if run.rank is None:
            raise InputFormatError("ndeval's default order needs the rank column (read the "
                                   "run with keep_rank=True) or traditional=1",
                                   source=run.source)
        order = np.lexsort((run.rank, topic_codes))
        sorted_topic, sorted_rank = topic_codes[order], run.rank[order]
        dup = np.flatnonzero((sorted_topic[1:] == sorted_topic[:-1])
                             & (sorted_rank[1:] == sorted_rank[:-1]))
        if len(dup):
            row = int(order[dup[0] + 1])
            raise InputFormatError(
                f"duplicate rank ({int(sorted_rank[dup[0]])}) for topic "
                f"{topic_dict[int(sorted_topic[dup[0]])].as_py()} (ndeval ranks by the rank "
                "column: give distinct ranks, or traditional=1 to rank by score)",
                source=run.source, line=_file_line(run, row))
    sorted_topic = topic_codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_topic[1:] != sorted_topic[:-1]])
    return order, starts


def _file_line(run: Run, row: int) -> int | None:
    """The 1-based line of ``row`` when the run's rows are in file order (no blank lines
    assumed); ``None`` when unknown."""
    if run.file_row is not None:
        return int(run.file_row[row]) + 1
    return row + 1 if run.source not in ("<run>",) else None


def judge_runs(index: DiversityIndex, runs: list[Run], traditional: bool,
               max_docs: int | None = None) -> tuple[DiversityRankings, np.ndarray, list]:
    """Judge every run against ``index``: the batch of rankings (run by run, topics in
    :func:`id_sort_key` order), the run of each ranking, and each ranking's topic id."""
    all_lengths, all_topic, all_run, topic_ids = [], [], [], []
    e_ranking, e_rank, e_sub = [], [], []
    offset = 0
    # rel_docno is unique per (topic, docno): key by (topic, position of docno in the list)
    doc_dict_codes, doc_dict = _encode(index.rel_docno)
    rel_key = index.rel_topic * max(len(doc_dict), 1) + doc_dict_codes
    key_order = np.argsort(rel_key)
    sorted_key = rel_key[key_order]
    for k, run in enumerate(runs):
        order, starts = rank_run(run, traditional)
        docno = run.docno.take(pa.array(order))
        topic_names = run.topic.take(pa.array(order[starts])).to_pylist()
        ends = np.r_[starts[1:], len(order)]
        lengths = ends - starts
        if max_docs is not None:
            lengths = np.minimum(lengths, max_docs)
        sort_rankings = sorted(range(len(starts)), key=lambda i: id_sort_key(topic_names[i]))
        # position within its topic of every row, and its ranking number
        block = np.repeat(np.arange(len(starts)), ends - starts)
        position = np.arange(len(order)) - starts[block]
        t_code = _index_in(pa.array(topic_names, pa.string()), index.topics)
        d_code = _index_in(docno, doc_dict) if len(doc_dict) else \
            np.full(len(order), -1)
        row_topic = t_code[block]
        hit = (d_code >= 0) & (row_topic >= 0) & (position < lengths[block])
        rows = np.flatnonzero(hit)
        key = row_topic[rows] * max(len(doc_dict), 1) + d_code[rows]
        where = np.searchsorted(sorted_key, key)
        where = np.minimum(where, max(len(sorted_key) - 1, 0))
        found = len(sorted_key) > 0
        ok = sorted_key[where] == key if found else np.zeros(len(key), bool)
        rows, rel = rows[ok], key_order[where[ok]]
        # relevant entries: (ranking, rank, subtopic), rankings renumbered in topic order
        renumber = np.empty(len(starts), dtype=np.int64)
        renumber[sort_rankings] = np.arange(len(starts))
        mask = index.rel_mask[rel]
        r_idx, s_idx = np.nonzero(mask)
        e_ranking.append(offset + renumber[block[rows]][r_idx])
        e_rank.append(position[rows][r_idx] + 1)
        e_sub.append(s_idx)
        all_lengths.append(lengths[sort_rankings])
        all_topic.append(t_code[sort_rankings])
        all_run.append(np.full(len(starts), k))
        topic_ids.extend(topic_names[i] for i in sort_rankings)
        offset += len(starts)
    ranking = np.concatenate(e_ranking) if e_ranking else np.empty(0, np.int64)
    rank = np.concatenate(e_rank) if e_rank else np.empty(0, np.int64)
    sub = np.concatenate(e_sub) if e_sub else np.empty(0, np.int64)
    order = np.lexsort((sub, rank, ranking))
    dr = DiversityRankings(
        lengths=np.concatenate(all_lengths) if all_lengths else np.empty(0, np.int64),
        ranking_topic=np.concatenate(all_topic) if all_topic else np.empty(0, np.int64),
        entry_ranking=ranking[order], entry_rank=rank[order], entry_subtopic=sub[order],
        topics=index.topics, n_intents=index.n_intents, nrel_sub=index.nrel_sub)
    run_of = np.concatenate(all_run) if all_run else np.empty(0, np.int64)
    return dr, run_of, topic_ids


def ideal_rankings(index: DiversityIndex, alpha: float) -> DiversityRankings:
    """ndeval's greedy ideal ranking of every qrels topic, as one batch (ranking ``t`` is
    topic ``t``).

    At each rank the document with the largest gain Σ_j (1 − α)^{c_j} over its intents j
    (c_j: documents relevant to j placed before) comes next, ties going to the largest
    docno (byte order), as ndeval's ``idealResult``. Documents relevant to the same set of
    intents are interchangeable but for that tie rule, so the greedy step compares one
    candidate per (topic, intent set) — vectorised over topics, one step per rank.
    """
    n_topics = len(index.topics)
    width = index.rel_mask.shape[1]
    n_docs = len(index.rel_docno)
    lengths = np.bincount(index.rel_topic, minlength=n_topics).astype(np.int64)
    if n_docs == 0:
        empty = np.empty(0, np.int64)
        return DiversityRankings(lengths, np.arange(n_topics), empty, empty, empty,
                                 index.topics, index.n_intents, index.nrel_sub)
    # docno rank in byte order within the whole list (pyarrow compares strings bytewise)
    docno_rank = np.empty(n_docs, dtype=np.int64)
    docno_rank[pc.sort_indices(index.rel_docno).to_numpy()] = np.arange(n_docs)
    weights = (1 << np.arange(width, dtype=np.int64)) if width < 63 else None
    if weights is not None:
        mask_code = index.rel_mask.astype(np.int64) @ weights
    else:  # pragma: no cover - more than 62 intents in a topic
        mask_code = np.unique(index.rel_mask, axis=0, return_inverse=True)[1].ravel()
    # groups: (topic, intent set); members by docno descending
    member_order = np.lexsort((-docno_rank, mask_code, index.rel_topic))
    g_topic_all, g_code_all = index.rel_topic[member_order], mask_code[member_order]
    g_start = np.flatnonzero(np.r_[True, (g_topic_all[1:] != g_topic_all[:-1])
                                   | (g_code_all[1:] != g_code_all[:-1])])
    g_end = np.r_[g_start[1:], n_docs]
    g_topic = g_topic_all[g_start]
    g_mask = index.rel_mask[member_order[g_start]]
    members_docno = docno_rank[member_order]
    pointer = g_start.copy()
    gains = np.ones((n_topics, width))
    decay = 1.0 - alpha
    steps = int(lengths.max(initial=0))
    picked_topic, picked_group = [], []
    for _ in range(steps):
        active = pointer < g_end
        if not active.any():
            break
        groups = np.flatnonzero(active)
        topics = g_topic[groups]
        score = np.zeros(len(groups))
        for j in range(width):  # intents in index order, as ndeval adds them
            score = score + np.where(g_mask[groups, j], gains[topics, j], 0.0)
        next_doc = members_docno[pointer[groups]]
        best = np.lexsort((next_doc, score, topics))
        last = np.r_[topics[best][1:] != topics[best][:-1], True]
        chosen = groups[best[last]]
        chosen_topic = g_topic[chosen]
        picked_topic.append(chosen_topic)
        picked_group.append(chosen)
        pointer[chosen] += 1
        gains[chosen_topic] = np.where(g_mask[chosen], gains[chosen_topic] * decay,
                                       gains[chosen_topic])
    p_topic = np.concatenate(picked_topic)
    p_group = np.concatenate(picked_group)
    # the rank of each pick: its order among its topic's picks
    order = np.argsort(p_topic, kind="stable")
    p_topic, p_group = p_topic[order], p_group[order]
    starts = np.searchsorted(p_topic, np.arange(n_topics))
    p_rank = np.arange(len(p_topic)) - starts[p_topic] + 1
    r_idx, s_idx = np.nonzero(g_mask[p_group])
    return DiversityRankings(
        lengths=lengths, ranking_topic=np.arange(n_topics),
        entry_ranking=p_topic[r_idx], entry_rank=p_rank[r_idx], entry_subtopic=s_idx,
        topics=index.topics, n_intents=index.n_intents, nrel_sub=index.nrel_sub)

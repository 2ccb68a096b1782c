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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core import identifiers
from ...core.diversity_kernels import IntentJudge
from ...core.inputs import Run
from ...core.judge import rank_rows
from ...core.strings import Strings
from ...errors import InputError, InputFormatError
from ...io.diversity import DiversityQrels


def id_sort_key(value: str) -> tuple[int, int, str]:
    """Topic / subtopic order: numeric ids numerically (ndeval's ``atoi`` order), then
    the others by byte order."""
    if value.isdigit():
        return (0, int(value), value)
    return (1, 0, value)


def id_ranks(ids: list[str]) -> np.ndarray:
    """The position of each of the distinct ``ids`` in :func:`id_sort_key` order (one
    sort of the distinct ids; codes of a column index the result)."""
    ranks = np.empty(len(ids), dtype=np.int64)
    ranks[sorted(range(len(ids)), key=lambda i: id_sort_key(ids[i]))] = np.arange(len(ids))
    return ranks


@dataclass(frozen=True, eq=False)
class DiversityRankings:
    """A batch of rankings judged per intent (see the module documentation).

    ``entry_ranking``, ``entry_rank`` (1-based position) and ``entry_subtopic`` (intent
    index within the topic) list the relevant entries sorted by ranking, rank, subtopic.
    ``ranking_topic`` indexes :attr:`topics` (−1: a topic the qrels do not judge);
    ``n_intents[t]`` is the number of intents of topic ``t`` with a relevant document
    (ndeval's ``actualSubtopics``) and ``nrel_sub[t, j]`` the relevant documents of
    intent ``j``. ``entry_level`` (when known: runs judged by :func:`read_and_judge`) is the
    graded level of each entry's document for its intent, as the qrels give it (≥ 1).
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
    entry_level: np.ndarray | None = None

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
    (one column per intent index) and their graded levels as an integer matrix
    ``rel_level`` (the judgment as read where relevant, 0 elsewhere). ``degrees`` are the
    distinct judged levels ≥ 0 (ascending) and ``level_counts[t, j, g]`` the documents of
    topic ``t`` judged ``degrees[g]`` for intent ``j``: the per-intent recall base by level
    (documents judged below 0 are not counted).
    """

    topics: tuple[str, ...]
    subtopics: tuple[tuple[str, ...], ...]
    rel_topic: np.ndarray
    rel_docno: Strings
    rel_mask: np.ndarray
    n_intents: np.ndarray
    nrel_sub: np.ndarray
    source: str
    rel_level: np.ndarray
    degrees: np.ndarray
    level_counts: np.ndarray

    @classmethod
    def of(cls, qrels: DiversityQrels, level: int = 1) -> DiversityIndex:
        """Index ``qrels``; a judgment counts as relevant when ≥ ``level`` (ndeval: 1,
        levels above 1 counting as 1; 0 and negative levels: not relevant)."""
        _, distinct = identifiers.encode(qrels.topic, grouped=True)
        topics = tuple(sorted(distinct.to_pylist(), key=id_sort_key))
        topic_code = _index_in(qrels.topic, topics)
        sub_codes, sub_dict = identifiers.encode(qrels.subtopic)
        names = sub_dict.to_pylist()
        n_sub = max(len(names), 1)
        pair_key, row_pair = np.unique(topic_code * n_sub + sub_codes, return_inverse=True)
        pair_topic, pair_sub = pair_key // n_sub, pair_key % n_sub
        # intents of a topic indexed 0 .. S-1 in id order: pairs sorted by (topic, id)
        order = np.lexsort((id_ranks(names)[pair_sub], pair_topic))
        sorted_topic = pair_topic[order]
        pair_index = np.empty(len(order), dtype=np.int64)
        pair_index[order] = np.arange(len(order)) - np.searchsorted(sorted_topic, sorted_topic)
        counts = np.bincount(pair_topic, minlength=len(topics))
        in_order = [names[c] for c in pair_sub[order].tolist()]
        ends = np.cumsum(counts).tolist()
        subtopics = tuple(tuple(in_order[end - c:end])
                          for end, c in zip(ends, counts.tolist(), strict=True))
        width = int(counts.max(initial=0))
        sub_index = pair_index[row_pair.ravel()]
        relevant = qrels.judgment >= level
        rows = np.flatnonzero(relevant)
        r_topic, r_sub = topic_code[rows], sub_index[rows]
        doc_codes, doc_dict = identifiers.encode(identifiers.take(qrels.docno, rows))
        key = r_topic * max(len(doc_dict), 1) + doc_codes
        unique_key, inverse = np.unique(key, return_inverse=True)
        mask = np.zeros((len(unique_key), width), dtype=bool)
        mask[inverse, r_sub] = True
        rel_level = np.zeros((len(unique_key), width), dtype=np.int64)
        rel_level[inverse.ravel(), r_sub] = qrels.judgment[rows]
        rel_topic = unique_key // max(len(doc_dict), 1)
        rel_docno = identifiers.take(doc_dict, unique_key % max(len(doc_dict), 1))
        nrel_sub = np.zeros((len(topics), width), dtype=np.int64)
        np.add.at(nrel_sub, (r_topic, r_sub), 1)
        n_intents = (nrel_sub > 0).sum(axis=1)
        judged = np.flatnonzero(qrels.judgment >= 0)
        degrees, degree_code = np.unique(qrels.judgment[judged], return_inverse=True)
        level_counts = np.zeros((len(topics), width, len(degrees)), dtype=np.int64)
        np.add.at(level_counts, (topic_code[judged], sub_index[judged], degree_code.ravel()), 1)
        return cls(topics, subtopics, rel_topic, rel_docno, mask, n_intents, nrel_sub,
                   qrels.source, rel_level, degrees.astype(np.int64), level_counts)


def _index_in(values: object, universe: Strings | Sequence[str]) -> np.ndarray:
    """Index of every value in ``universe`` (−1 when absent)."""
    if not isinstance(universe, Strings):  # a few ids: mapped through their dictionary
        codes, dictionary = identifiers.encode(values)
        where = {value: k for k, value in enumerate(universe)}
        table = np.array([where.get(v, -1) for v in dictionary.to_pylist()] or [-1],
                         dtype=np.int64)
        return table[codes] if len(codes) else np.empty(0, np.int64)
    return identifiers.index_in(values, universe)


def _rank_order(run: Run, topic_codes: np.ndarray, topic_dict: Strings,
                traditional: bool) -> np.ndarray | None:
    """The rows of ``run`` in ndeval's order, grouped by topic (``None``: already so).

    By default (ndeval without ``-traditional``) each topic's documents are ordered by the
    file's rank column, two equal ranks for a topic being an error; with ``traditional``
    by score descending, then docno descending (byte order). Rows already in that order
    (the usual layout of run files) are not sorted.
    """
    if traditional:  # trec_eval's order, scores compared as doubles (trec_eval 10)
        return rank_rows(run, topic_dict.to_pylist(), "trec_eval", compat=10)[0]
    if run.rank is None:
        raise InputFormatError("ndeval's default order needs the rank column (read the run "
                               "with read_ndeval_run) or traditional=1", source=run.source)
    rank = run.rank
    change = np.r_[True, topic_codes[1:] != topic_codes[:-1]]
    n_blocks = int(change.sum())
    if len(np.unique(topic_codes[change])) == n_blocks and bool(
            np.all(change[1:] | (rank[1:] > rank[:-1]))):
        return None
    order = np.lexsort((rank, topic_codes))
    same = ((topic_codes[order][1:] == topic_codes[order][:-1])
            & (rank[order][1:] == rank[order][:-1]))
    dup = np.flatnonzero(same)
    if len(dup):
        row = int(order[dup[0] + 1])
        raise InputFormatError(
            f"duplicate rank ({int(rank[row])}) for topic "
            f"{topic_dict[int(topic_codes[row])]} (ndeval ranks by the rank "
            "column: give distinct ranks, or traditional=1 to rank by score)",
            source=run.source, line=_file_line(run, row))
    return order


def _file_line(run: Run, row: int) -> int | None:
    """The 1-based line of ``row`` when the run's rows are in file order (no blank lines
    assumed); ``None`` when unknown."""
    if run.file_row is not None:
        return int(run.file_row[row]) + 1
    return row + 1 if run.source not in ("<run>",) else None


def _relevant_judge(index: DiversityIndex) -> IntentJudge:
    """The relevant (topic, docno) pairs of ``index``, indexed by the engine for judging."""
    return IntentJudge(index.rel_topic, index.rel_docno, index.rel_mask, index.rel_level)


@dataclass(frozen=True, eq=False)
class _RunJudgment:
    """One run judged per intent: its rankings (topics in :func:`id_sort_key` order) and
    relevant entries (numbered within the run), as :class:`DiversityRankings` holds them;
    no string of the run is kept."""

    lengths: np.ndarray
    ranking_topic: np.ndarray
    topic_ids: list[str]
    entry_ranking: np.ndarray
    entry_rank: np.ndarray
    entry_subtopic: np.ndarray
    entry_level: np.ndarray


def _judge_run(index: DiversityIndex, judge: IntentJudge, run: Run, traditional: bool,
               max_docs: int | None) -> _RunJudgment:
    """Judge one run against ``index`` (see :func:`read_and_judge`): its rows put in
    ndeval's order (:func:`_rank_order`) and grouped into rankings here, every document
    looked up among the relevant pairs by the engine (:class:`IntentJudge`)."""
    n = len(run)
    empty = np.empty(0, np.int64)
    if n == 0:
        return _RunJudgment(empty, empty, [], empty, empty, empty, empty)
    topic_codes, topic_dict = identifiers.encode(identifiers.as_strings(run.topic), grouped=True)
    order = _rank_order(run, topic_codes, topic_dict, traditional)
    topic_sorted = topic_codes if order is None else topic_codes[order]
    starts = np.flatnonzero(np.r_[True, topic_sorted[1:] != topic_sorted[:-1]])
    block_topic = topic_sorted[starts]
    lengths = np.r_[starts[1:], n] - starts
    if max_docs is not None:
        lengths = np.minimum(lengths, max_docs)
    names = topic_dict.to_pylist()
    ranking_order = np.argsort(id_ranks(names)[block_topic], kind="stable")
    ranking_topic = _index_in(topic_dict, index.topics)[block_topic][ranking_order]
    ranking, rank, subtopic, level = judge.judge(
        run.docno, order, starts[ranking_order], lengths[ranking_order], ranking_topic)
    return _RunJudgment(
        lengths=lengths[ranking_order], ranking_topic=ranking_topic,
        topic_ids=[names[t] for t in block_topic[ranking_order].tolist()],
        entry_ranking=ranking, entry_rank=rank, entry_subtopic=subtopic, entry_level=level)


def _merge(index: DiversityIndex, parts: list[_RunJudgment]
           ) -> tuple[DiversityRankings, np.ndarray, list[str]]:
    """The runs' judgments end to end: one batch (run by run), the run of each ranking and
    each ranking's topic id."""
    counts = np.array([len(p.lengths) for p in parts], dtype=np.int64)
    first = np.cumsum(counts) - counts

    def joined(name: str, shift: bool = False) -> np.ndarray:
        arrays = [getattr(p, name) + (int(f) if shift else 0) for p, f in zip(parts, first,
                                                                               strict=True)]
        return np.concatenate([np.empty(0, np.int64), *arrays])

    dr = DiversityRankings(
        lengths=joined("lengths"), ranking_topic=joined("ranking_topic"),
        entry_ranking=joined("entry_ranking", shift=True), entry_rank=joined("entry_rank"),
        entry_subtopic=joined("entry_subtopic"),
        topics=index.topics, n_intents=index.n_intents, nrel_sub=index.nrel_sub,
        entry_level=joined("entry_level"))
    topic_ids = [t for p in parts for t in p.topic_ids]
    return dr, np.repeat(np.arange(len(parts), dtype=np.int64), counts), topic_ids


def read_and_judge(index: DiversityIndex, runs: Any, traditional: bool,
                   max_docs: int | None = None, *, keep_rows: bool = True,
                   ndeval_ids: bool = False
                   ) -> tuple[list[Run], DiversityRankings, np.ndarray, list[str]]:
    """Read ``runs`` and judge every run against ``index``: the runs, named
    (:func:`~irscale.io.naming.name_runs`), the batch of rankings (run by run, topics in
    :func:`id_sort_key` order), the run of each ranking, and each ranking's topic id.

    Each run is judged on its own (:func:`_rank_order` puts its rows in ndeval's order;
    the engine looks the run's docnos up in one pass among the relevant (topic,
    docno) pairs of the qrels), and the runs' relevant entries are joined end to end:
    no table of all runs' rows is built.

    Paths are read as ndeval reads them (:func:`~irscale.io.diversity.read_ndeval_run`).
    Without ``keep_rows`` the engine reads, orders and judges the files side by side
    (:meth:`IntentJudge.judge_files`), no run's rows reaching Python (the returned runs keep
    their names, sources and run ids only); with it, each file is read by the engine in a
    thread of its own and judged there.
    Other inputs (:class:`Run` objects aside) go through
    :func:`irscale.io.sources.as_runs`. With ``ndeval_ids`` the runs' topic ids are read as
    ndeval reads them (:func:`~irscale.io.diversity.ndeval_run`).
    """
    import os

    from ...io.diversity import ndeval_run, read_ndeval_run
    from ...io.naming import name_runs
    from ...parallel.threads import map_threads

    items = runs if isinstance(runs, (list, tuple)) else [runs]
    judge = _relevant_judge(index)
    if not keep_rows and items and all(isinstance(item, (str, os.PathLike)) for item in items):
        return _judge_files(index, judge, items, traditional, max_docs, ndeval_ids)
    if not all(isinstance(item, (str, os.PathLike, Run)) for item in items):
        from ...io.sources import as_runs

        run_list = as_runs(runs, keep_rank=True)
        if ndeval_ids:
            run_list = [ndeval_run(run) for run in run_list]
        parts = [_judge_run(index, judge, run, traditional, max_docs) for run in run_list]
        return (run_list, *_merge(index, parts))

    def read(item: Any) -> tuple[Run, _RunJudgment]:
        if isinstance(item, Run):
            run = ndeval_run(item) if ndeval_ids else item
        else:
            run = read_ndeval_run(item, ndeval_topics=ndeval_ids)
        return run, _judge_run(index, judge, run, traditional, max_docs)

    pairs = map_threads(read, items)  # errors: those of the first run (in order) with one
    run_list = name_runs([run for run, _ in pairs])
    return (run_list, *_merge(index, [part for _, part in pairs]))


def _judge_files(index: DiversityIndex, judge: IntentJudge, paths: Sequence[Any],
                 traditional: bool, max_docs: int | None, ndeval_ids: bool
                 ) -> tuple[list[Run], DiversityRankings, np.ndarray, list[str]]:
    """:func:`read_and_judge` of run files whose rows are not kept: read, put in ndeval's
    order and judged by the engine; each run's rankings (one per topic, in order of first
    appearance) are put in :func:`id_sort_key` order here."""
    from ...io.diversity import engine_file, engine_read
    from ...io.files import reading_limit
    from ...io.naming import name_runs

    files, refused = [], None
    for path in paths:  # a file refused here comes after the faults of those before it
        try:
            files.append(engine_file(path, "read_ndeval_run", checked=False))
        except InputError as error:
            refused = error
            break
    judged = engine_read(lambda: judge.judge_files(files, index.topics, traditional,
                                                   max_docs, ndeval_ids, reading_limit()),
                         files)
    if refused is not None:
        raise refused
    runs, parts = [], []
    for (_, source), (runids, topics, lengths, ranking_topic, ranking, rank, intent,
                      level) in zip(files, judged, strict=True):
        order = np.argsort(id_ranks(topics), kind="stable")
        position = np.empty_like(order)
        position[order] = np.arange(len(order))
        moved = position[ranking]
        entries = np.argsort(moved, kind="stable")  # a ranking's entries stay in order
        parts.append(_RunJudgment(
            lengths=lengths[order], ranking_topic=ranking_topic[order],
            topic_ids=[topics[t] for t in order.tolist()], entry_ranking=moved[entries],
            entry_rank=rank[entries], entry_subtopic=intent[entries],
            entry_level=level[entries]))
        runs.append(Run(name=runids[0], topic=_NO_STRINGS, docno=_NO_STRINGS,
                        score=_NO_SCORES, source=source, runids=tuple(runids)))
    return (name_runs(runs), *_merge(index, parts))


_NO_STRINGS = Strings.of([])
_NO_SCORES = np.empty(0)


def ideal_rankings(index: DiversityIndex, alpha: float | np.ndarray,
                   intent_weights: np.ndarray | None = None) -> DiversityRankings:
    """ndeval's greedy ideal ranking of every qrels topic, as one batch (ranking ``t`` is
    topic ``t``).

    At each rank the document with the largest gain Σ_j w_j (1 − α)^{c_j} over its intents
    j (c_j: documents relevant to j placed before; w_j = 1, or ``intent_weights[t, j]``)
    comes next, ties going to the largest docno (byte order), as ndeval's ``idealResult``;
    ``alpha`` is one α or one per topic.
    Documents relevant to the same set of intents are interchangeable but for that tie
    rule, so the greedy step compares one candidate per (topic, intent set) — vectorised
    over topics, one step per rank.
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
    docno_rank[identifiers.byte_order(index.rel_docno)] = np.arange(n_docs)
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
    gains = np.ones((n_topics, width)) if intent_weights is None else \
        np.array(intent_weights, dtype=np.float64)
    decay = np.broadcast_to(1.0 - np.asarray(alpha, dtype=np.float64), (n_topics,))
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
        gains[chosen_topic] = np.where(g_mask[chosen],
                                       gains[chosen_topic] * decay[chosen_topic][:, None],
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

"""The context of preference measures: a run's preferences fulfilled and possible, per
topic and judgment group (trec_eval 9.0.8's form_prefs_counts.c, reimplemented).

The judgments of a topic (:class:`TopicJudgments`, built once whatever the run) are lines
``jg jsg docno level``. A judgment group (JG) with one sub-group (JSG) is a set of
*equivalence classes* (ECs), the documents of one level, every document preferred to every
document of a lower class. A JG with several JSGs is a *preference array*: in each JSG a
document is preferred to those of lower levels, and the JG's preferences are closed
transitively (A > B in one JSG and B > C in another give A > C).

A run gives each judged document its *docid rank* (:func:`judge_topic`): the judged
documents it retrieves (after ``-M``) get 0, 1, ... in ranking order (score descending as C
floats, ties by docno *ascending*: form_prefs_counts.c's own order, not trec_eval's usual
descending one), the others follow in docno byte order. A preference A > B (ranks a, b; NJR
judged documents retrieved) is then

* *fulfilled, retrieved*: a < b < NJR; *not fulfilled, retrieved*: b < a < NJR;
* *fulfilled, implied*: a < NJR ≤ b; *not fulfilled, implied*: b < NJR ≤ a;
* *not occurring*: both ≥ NJR (counted as possible, never fulfilled).

:class:`JudgmentGroupCounts` holds those counts per JG (``possible_ret`` and
``possible_imp`` include the fulfilled ones, as trec_eval's ``num_prefs_possible_*``), the
numbers of relevant (level > 0) and non-relevant documents, and what the measures that
recount (prefs_avgjg_Rnonrel) need; :class:`TopicPrefs` adds the counts array
``C[i, j]``, the number of JGs preferring docid i to docid j.

Errors trec_eval reports while measuring (a document at two levels of one JSG of a
one-JSG JG, a document both 0 and non-0 in one JG, contradictory preferences in one JG,
which make trec_eval abort) are raised for every topic when the judgments are read,
naming the file, the line and its text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import DuplicateError, InputFormatError


@dataclass(frozen=True)
class JudgmentGroup:
    """The judgments of one JG of a topic, over the topic's documents (``docs``: indices
    into :attr:`TopicJudgments.docnos`).

    EC form (one JSG): ``docs``/``ec`` one entry per line, ``ec`` the class index (0 the
    highest level) and ``ec_level`` the level of each class. Preference-array form:
    ``docs`` each document once, ``prefer[i, j]`` whether ``docs[i]`` is preferred to
    ``docs[j]`` (transitively closed) and ``level`` the level trec_eval keeps for each
    document (its last line in JSG, level-descending order)."""

    docs: np.ndarray
    ec: np.ndarray | None = None
    ec_level: np.ndarray | None = None
    prefer: np.ndarray | None = None
    level: np.ndarray | None = None


@dataclass(frozen=True)
class TopicJudgments:
    """A topic's preference judgments: its documents (byte order) and its JGs (byte order
    of their ids)."""

    docnos: np.ndarray
    groups: tuple[JudgmentGroup, ...]


@dataclass(frozen=True)
class JudgmentGroupCounts:
    """One JG's preferences in a run (module documentation). ``ec_ranks``: the docid ranks
    of each EC, ascending (EC form); ``ranked_prefer``/``ranked_level``: the preference
    array and levels indexed by docid rank (preference-array form)."""

    fulfilled_ret: int
    possible_ret: int
    fulfilled_imp: int
    possible_imp: int
    possible_notoccur: int
    num_rel: int
    num_rel_ret: int
    num_nonrel: int
    num_nonrel_ret: int
    ec_ranks: tuple[np.ndarray, ...] = ()
    ranked_prefer: np.ndarray | None = None
    ranked_level: np.ndarray | None = None


@dataclass(frozen=True)
class TopicPrefs:
    """The preferences of one topic in one run: ``num_judged`` documents of which
    ``num_judged_ret`` retrieved, the counts of every JG, and ``counts[i, j]`` the number
    of JGs preferring docid rank i to docid rank j."""

    num_judged: int
    num_judged_ret: int
    groups: tuple[JudgmentGroupCounts, ...]
    counts: np.ndarray


Where = Callable[[int], tuple[int, str]]


def topic_judgments(jg: np.ndarray, jsg: np.ndarray, docno: np.ndarray, level: np.ndarray,
                    rows: np.ndarray, source: str, where: Where) -> TopicJudgments:
    """The judgments of one topic from its lines (``rows``: their rows in the file, for
    messages via ``where(row) -> (line, text)``), checked as trec_eval checks them."""
    docnos, doc = np.unique(docno.astype(str), return_inverse=True)
    jg_text = jg.astype(str)
    groups = []
    for group in np.unique(jg_text):
        members = np.flatnonzero(jg_text == group)
        subgroups = jsg[members].astype(str)
        if len(np.unique(subgroups)) == 1:
            groups.append(_ec_group(doc[members], level[members], rows[members], source,
                                    where))
        else:
            groups.append(_array_group(doc[members], subgroups, level[members],
                                       rows[members], docnos, source, where))
    return TopicJudgments(docnos.astype(object), tuple(groups))


def _ec_group(doc: np.ndarray, level: np.ndarray, rows: np.ndarray, source: str,
              where: Where) -> JudgmentGroup:
    """A one-JSG JG: its ECs (levels descending); a document in two ECs is an error."""
    levels, ec = np.unique(-level, return_inverse=True)
    pairs = np.unique(np.stack([doc, ec]), axis=1)
    first = np.unique(pairs[0], return_index=True)[1]
    twice = np.setdiff1d(np.arange(pairs.shape[1]), first)
    if len(twice):
        clash = np.flatnonzero((doc == pairs[0, twice[0]]) & (ec == pairs[1, twice[0]]))
        line, text = where(int(rows[clash[0]]))
        raise InputFormatError("document judged at two levels in the same judgment "
                               "sub-group (trec_eval: 'occurs with different rel_level in "
                               "same jsg')", source=source, line=line, text=text)
    return JudgmentGroup(docs=doc, ec=ec, ec_level=-levels)


def _array_group(doc: np.ndarray, jsg: np.ndarray, level: np.ndarray, rows: np.ndarray,
                 docnos: np.ndarray, source: str, where: Where) -> JudgmentGroup:
    """A JG of several JSGs: its transitively closed preference array, checked."""
    # trec_eval's order of the lines: JSG, level descending (then docid rank, which cannot
    # change the level kept below: lines of one document at one level are alike)
    order = np.lexsort((-level, jsg))
    docs, local = np.unique(doc, return_inverse=True)
    kept = np.full(len(docs), -1.0, dtype=np.float32)
    seen = np.zeros(len(docs), dtype=bool)
    for row in order:  # a document 0 in one JSG and > 0 in another: an error
        here, value = local[row], level[row]
        if seen[here] and ((kept[here] > 0 and value == 0) or (kept[here] == 0 and value > 0)):
            line, text = where(int(rows[row]))
            raise InputFormatError(
                f"document {str(docnos[doc[row]])!r} is judged both 0 (non-relevant) and above 0 "
                "in the same judgment group", source=source, line=line, text=text)
        kept[here], seen[here] = value, True
    prefer = np.zeros((len(docs), len(docs)), dtype=bool)
    for group in np.unique(jsg):
        in_group = np.flatnonzero(jsg == group)
        higher = level[in_group][:, None] > level[in_group][None, :]
        # or-ed in line by line: a document on two lines of a JSG (two levels) keeps the
        # preferences of both, as trec_eval does (a plain |= keeps the last line's only)
        np.logical_or.at(prefer, (local[in_group][:, None], local[in_group][None, :]),
                         higher)
    closed = prefer | np.eye(len(docs), dtype=bool)
    while True:  # the reflexive transitive closure, as trec_eval's repeated products
        step = (closed.astype(np.int64) @ closed.astype(np.int64)) > 0
        if np.array_equal(step, closed):
            break
        closed = step
    np.fill_diagonal(closed, False)
    conflict = np.argwhere(closed & closed.T)
    if len(conflict):
        a, b = (str(docnos[docs[k]]) for k in conflict[0])
        involved = np.flatnonzero(np.isin(doc, docs[conflict[0]]))
        lines = [where(int(rows[k]))[0] for k in involved]
        line, text = where(int(rows[involved[0]]))
        raise InputFormatError(
            f"contradictory preferences in one judgment group: {a!r} and {b!r} are each "
            "preferred to the other (directly or transitively; trec_eval aborts: 'Pref "
            f"inconsistency found'); their lines: {', '.join(map(str, sorted(lines)))}",
            source=source, line=line, text=text)
    return JudgmentGroup(docs=docs, prefer=closed, level=kept)


def judge_topic(judgments: TopicJudgments, ranked: Sequence[str]) -> TopicPrefs:
    """The preferences of one topic in a ranking (``ranked``: the retrieved docnos in
    ranking order, after ``-M``): module documentation."""
    docnos = judgments.docnos.astype(str)
    names = np.asarray(ranked, dtype=str)
    found = np.minimum(np.searchsorted(docnos, names), max(len(docnos) - 1, 0))
    retrieved = found[docnos[found] == names] if len(names) else found
    n_judged, njr = len(docnos), len(retrieved)
    rank_of = np.empty(n_judged, dtype=np.int64)
    rank_of[retrieved] = np.arange(njr)
    rest = np.ones(n_judged, dtype=bool)
    rest[retrieved] = False
    rank_of[rest] = np.arange(njr, n_judged)
    counts = np.zeros((n_judged, n_judged), dtype=np.int64)
    groups = tuple(_ec_counts(g, rank_of, njr, counts) if g.ec is not None
                   else _array_counts(g, rank_of, njr, n_judged, counts)
                   for g in judgments.groups)
    return TopicPrefs(n_judged, njr, groups, counts)


def _categories(first: np.ndarray, second: np.ndarray, njr: int
                ) -> tuple[int, int, int, int, int]:
    """Counts of the preferences ``first[k]`` > ``second[k]`` (docid ranks): fulfilled
    retrieved, not fulfilled retrieved, fulfilled implied, not fulfilled implied, not
    occurring."""
    ret_a, ret_b = first < njr, second < njr
    before = first < second
    return (int(np.count_nonzero(before & ret_b)), int(np.count_nonzero(~before & ret_a)),
            int(np.count_nonzero(ret_a & ~ret_b)), int(np.count_nonzero(~ret_a & ret_b)),
            int(np.count_nonzero(~ret_a & ~ret_b)))


def _with_counts(ful_ret: int, miss_ret: int, ful_imp: int, miss_imp: int, notoccur: int,
                 rel: np.ndarray, nonrel: np.ndarray, ranks: np.ndarray, njr: int,
                 **forms: object) -> JudgmentGroupCounts:
    """A JG's counts, trec_eval's ``possible`` including the fulfilled ones."""
    ret = ranks < njr
    return JudgmentGroupCounts(
        ful_ret, miss_ret + ful_ret, ful_imp, miss_imp + ful_imp, notoccur,
        int(np.count_nonzero(rel)), int(np.count_nonzero(rel & ret)),
        int(np.count_nonzero(nonrel)), int(np.count_nonzero(nonrel & ret)),
        **forms)  # type: ignore[arg-type]


def _ec_counts(group: JudgmentGroup, rank_of: np.ndarray, njr: int,
               counts: np.ndarray) -> JudgmentGroupCounts:
    """EC form: every document of a class against every document of each lower class
    (a line judged twice counts twice, as in trec_eval)."""
    assert group.ec is not None and group.ec_level is not None
    ranks, ec = rank_of[group.docs], group.ec
    first, second = np.nonzero(ec[:, None] < ec[None, :])
    a, b = ranks[first], ranks[second]
    np.add.at(counts, (a, b), 1)
    line_level = group.ec_level[ec]
    ec_ranks = tuple(np.sort(ranks[ec == k]) for k in range(len(group.ec_level)))
    return _with_counts(*_categories(a, b, njr), line_level > 0, line_level <= 0, ranks, njr,
                        ec_ranks=ec_ranks)


def _array_counts(group: JudgmentGroup, rank_of: np.ndarray, njr: int, n_judged: int,
                  counts: np.ndarray) -> JudgmentGroupCounts:
    """Preference-array form: every pair of the closed array."""
    assert group.prefer is not None and group.level is not None
    ranks = rank_of[group.docs]
    first, second = np.nonzero(group.prefer)
    a, b = ranks[first], ranks[second]
    counts[a, b] += 1
    ranked_prefer = np.zeros((n_judged, n_judged), dtype=bool)
    ranked_prefer[a, b] = True
    ranked_level = np.full(n_judged, -1.0, dtype=np.float32)
    ranked_level[ranks] = group.level
    return _with_counts(*_categories(a, b, njr), group.level > 0, group.level == 0, ranks,
                        njr, ranked_prefer=ranked_prefer, ranked_level=ranked_level)


def ranked_docnos(docno: np.ndarray, score: np.ndarray, max_docs: int | None,
                  source: str, topic: str) -> list[str]:
    """A topic's retrieved docnos in form_prefs_counts.c's order: score descending as C
    floats, ties by docno ascending (byte order), the first ``max_docs`` kept; a docno
    retrieved twice among them is a :class:`DuplicateError`."""
    names = docno.astype(str)
    order = np.lexsort((names, -score.astype(np.float32)))[:max_docs]
    kept = names[order]
    unique, seen = np.unique(kept, return_counts=True)
    if (seen > 1).any():
        raise DuplicateError(f"topic {topic!r}: document {str(unique[seen > 1][0])!r} "
                             "retrieved twice", source=source)
    return kept.tolist()


__all__ = ["JudgmentGroup", "JudgmentGroupCounts", "TopicJudgments", "TopicPrefs",
           "judge_topic", "ranked_docnos", "topic_judgments"]

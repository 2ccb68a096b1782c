"""Conditional relevance in ranked lists: documents relevant only together.

Cooper ("On selecting a measure of retrieval effectiveness: Part II. Implementation of the
philosophy", JASIS 24(6), 1973) calls a document *conditionally relevant* when it is
relevant only in the presence of others. In patent invalidation search, Patent 1 and Patent
2 may invalidate an application only when used together; Sakai (IPSJ Magazine 47(2), 2006;
Sakai 2014, §2.3, "Further Reading") proposes to handle this much as the condensed list
does: when Patent 1 is at rank 1 and Patent 2 at rank 10, a measure treats only Patent 2 as
relevant. Sakai states the idea only: the group's degree and its place in the recall base
below are irscale's choices.

The *conditional groups* are the label set ``conditional`` (``--labels conditional=FILE``,
``labels={"conditional": ...}``), in the label-set format ``topic iter docno group``: the
documents of a topic with the same group number form one group (a document is in at most
one group of a topic; a group of one document changes nothing). Under conditional
relevance (the generic parameter ``conditional=1`` of every measure of judged rankings):

* the group is one unit of relevance, of degree g = the largest qrels degree of its members;
* in a ranking, the group counts (with degree g) at the rank of its last member, the one
  that completes it; its other members count as judged non-relevant (degree 0); a group
  not completed within the ranking counts nowhere (every member retrieved has degree 0);
* in the recall base (R, the ideal ranking of nDCG and Q, the N of bpref) the group is one
  document of degree g and its other members judged non-relevant ones;
* documents in no group are unchanged, and no document moves: cut-offs apply to the
  original ranks.

The views of a measure are made in this order (:func:`irscale.measures.compute.view_of`):
the relevance level, conditional relevance, the condensed list, the cut-off.

These are the rankings' judgments rewritten per ranking (the completing member, or for a
group not completed a member not retrieved, takes degree g; every other member degree 0),
which is how the tests check them. Every member of a group must be judged in the qrels
(degree ≥ 0): a member without a degree could neither be relevant nor count in the recall
base. Rows of topic ``*`` are refused (a group belongs to one topic), and groups of a
topic the qrels do not judge are left out, as the topic is.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..errors import InputFormatError
from .inputs import Qrels
from .judged import JudgedRankings, Rejudged
from .labels import ANY_TOPIC, LabelTable, lookup

#: The name of the label set holding the conditional groups.
CONDITIONAL = "conditional"


def with_conditional(jr: JudgedRankings, qrels: Qrels, table: LabelTable) -> JudgedRankings:
    """``jr`` (the conditional groups ``table`` attached as its attribute
    :data:`CONDITIONAL`, by :func:`irscale.core.labels.attach_labels`) with its judgments
    under conditional relevance (:attr:`JudgedRankings.rejudged`; module documentation).
    An :class:`InputFormatError` naming the row of ``table`` of topic ``*`` or whose
    document the qrels do not judge."""
    wildcard = np.flatnonzero(table.topic.equal(ANY_TOPIC))
    if len(wildcard):
        _refuse(table, int(wildcard[0]), "a conditional group belongs to one topic: topic "
                                         f"{ANY_TOPIC} is not allowed")
    # every row's qrels row (looked up as a label: exact up to 2⁵³ rows), then its degree
    found = lookup(LabelTable(qrels.topic, qrels.docno, np.arange(len(qrels), dtype=float)),
                   table.topic, table.docno)
    in_qrels = ~np.isnan(found)
    degree = np.full(len(found), -1, dtype=np.int64)
    degree[in_qrels] = np.asarray(qrels.rel, dtype=np.int64)[found[in_qrels].astype(np.int64)]
    judged_topic = table.topic.isin(qrels.topic.unique())
    unjudged = np.flatnonzero(judged_topic & (degree < 0))
    if len(unjudged):
        _refuse(table, int(unjudged[0]), f"the qrels ({qrels.source}) do not judge this "
                "document; every member of a conditional group must be judged")
    topic_code = table.topic.index_in(jr.topics)
    keep = judged_topic & (topic_code >= 0)
    groups = _Groups.of(topic_code[keep], table.value[keep], degree[keep])
    degrees = np.union1d(np.union1d(jr.column_degrees, groups.degree), [0]).astype(np.int64)
    rel_levels = np.zeros((jr.n_rankings, len(degrees)), dtype=np.int64)
    rel_levels[:, np.searchsorted(degrees, jr.column_degrees)] = jr.rel_levels
    rel_levels += groups.levels_change(len(jr.topics), degrees)[jr.ranking_topic]
    rel = groups.rewrite(jr)
    return replace(jr, rejudged=Rejudged(rel=rel, rel_levels=rel_levels, degrees=degrees))


class _Groups:
    """The conditional groups of the evaluated topics: each group's topic code, number
    (the label value), members' degrees, size and degree (the largest member's degree)."""

    def __init__(self, numbers: np.ndarray, key: np.ndarray, member_topic: np.ndarray,
                 member_degree: np.ndarray) -> None:
        self.numbers = numbers
        self.member_topic, self.member_degree = member_topic, member_degree
        self.key, member_group, self.size = np.unique(key, return_inverse=True,
                                                      return_counts=True)
        self.topic = self.key // max(len(numbers), 1)
        self.degree = np.zeros(len(self.key), dtype=np.int64)
        np.maximum.at(self.degree, member_group, member_degree)

    @classmethod
    def of(cls, topic: np.ndarray, number: np.ndarray, degree: np.ndarray) -> _Groups:
        """The groups of the members of topic codes ``topic``, group numbers ``number`` and
        qrels degrees ``degree``."""
        numbers = np.unique(number)
        key = topic * max(len(numbers), 1) + np.searchsorted(numbers, number)
        return cls(numbers, key, topic, degree)

    def group_of(self, topic: np.ndarray, number: np.ndarray) -> np.ndarray:
        """The group index of every (topic code, group number) pair; -1 for none."""
        out = np.full(len(number), -1, dtype=np.int64)
        if not len(self.key):
            return out
        width = len(self.numbers)
        slot = np.minimum(np.searchsorted(self.numbers, number), width - 1)
        key = topic * width + slot
        group = np.minimum(np.searchsorted(self.key, key), len(self.key) - 1)
        found = (self.numbers[slot] == number) & (self.key[group] == key)
        out[found] = group[found]
        return out

    def levels_change(self, n_topics: int, degrees: np.ndarray) -> np.ndarray:
        """Per topic code and column of ``degrees``: the change of the recall base, every
        member's own degree out, the group's degree in once and its other members at 0."""
        change = np.zeros((n_topics, len(degrees)), dtype=np.int64)
        np.add.at(change, (self.member_topic, np.searchsorted(degrees, self.member_degree)), -1)
        np.add.at(change, (self.topic, np.searchsorted(degrees, self.degree)), 1)
        np.add.at(change, (self.topic, np.searchsorted(degrees, 0)), self.size - 1)
        return change

    def rewrite(self, jr: JudgedRankings) -> np.ndarray:
        """The degree of every retrieved document: members at 0, the last member of a group
        whose members the ranking all holds at the group's degree."""
        number = jr.attribute(CONDITIONAL)
        listed = np.flatnonzero(~np.isnan(number))
        group = self.group_of(jr.ranking_topic[jr.segment[listed]], number[listed])
        position = listed[group >= 0]
        group = group[group >= 0]
        rel = jr.rel.copy()
        rel[position] = 0
        pair = jr.segment[position] * len(self.key) + group
        order = np.argsort(pair, kind="stable")  # positions ascending within a pair
        _, first, count = np.unique(pair[order], return_index=True, return_counts=True)
        last = order[first + count - 1]
        completed = count == self.size[group[last]]
        rel[position[last[completed]]] = self.degree[group[last[completed]]]
        return rel


def _refuse(table: LabelTable, row: int, reason: str) -> None:
    """Raise the :class:`InputFormatError` of row ``row`` of the conditional groups."""
    if table.describe is not None:
        line, text = table.describe(row)
    else:
        line, text = None, (f"{table.topic[row]} {table.docno[row]} "
                            f"{table.value[row]:g}")
    raise InputFormatError(f"label set {CONDITIONAL!r}: {reason}", source=table.source,
                           line=line, text=text)

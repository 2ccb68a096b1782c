"""Per-document labels beyond relevance: a second (third ...) judgment file.

Some measures need more than the relevance degree of a retrieved document: its
understandability (uRBP, CLEF eHealth), its length (TBG, U-measure), its click or
satisfaction probability (click-model measures). These come as *label sets*, named tables
``topic docno value`` given next to the qrels:

* a file in qrels format ``topic iter docno value`` (``value`` any number; e.g. CLEF eHealth
  2016's ``task2.qunder``, understandability 0..100), plain or gzip;
* a mapping ``{topic: {docno: value}}``, or ``{docno: value}`` for values that do not
  depend on the topic (document lengths);
* a DataFrame with topic, document and value columns (``query_id``/``doc_id``/``value``, or
  the trec_eval names);

A row whose topic is ``*`` holds for every topic (used when no topic-specific row exists).
:func:`attach_labels` looks every retrieved document up and stores the values, aligned
with ``rel``, in :attr:`JudgedRankings.attributes` (NaN where a document has no label);
views (cut-offs, condensed lists) keep them aligned. Lookups are vectorised (integer keys
of the label set's topic and docno codes, searched in sorted order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import AlignmentError
from ._columnar.blocks import as_string_array
from .inputs import Qrels, Run
from .judge import judge_with_rows
from .judged import JudgedRankings
from .options import RankingOptions
from .segments import ranges
from .strings import Strings

#: Topic of a label row that holds for every topic.
ANY_TOPIC = "*"


@dataclass(frozen=True, eq=False)
class LabelTable:
    """One label set: a value per (topic, document), or several
    (:func:`irscale.io.labels.read_labels` with ``several``: :func:`memberships` reads
    them); topic ``*`` = every topic. The topic and docno columns are held as
    :class:`Strings` (given as any column
    :func:`~irscale.core._columnar.blocks.as_string_array` converts)."""

    topic: Strings
    docno: Strings
    value: np.ndarray
    source: str = "<labels>"
    #: The line number (``None``: not from a file) and text of row ``i``, for messages.
    describe: Callable[[int], tuple[int | None, str]] | None = field(default=None,
                                                                     repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "topic", as_string_array(self.topic))
        object.__setattr__(self, "docno", as_string_array(self.docno))

    def __len__(self) -> int:
        return len(self.value)

    def __repr__(self) -> str:
        return f"LabelTable({len(self)} values, source={self.source!r})"


# ---------------------------------------------------------------- alignment
def lookup(table: LabelTable, topic: Strings | object, docno: Strings | object, *,
           topic_code: np.ndarray | None = None, doc_code: np.ndarray | None = None) -> np.ndarray:
    """The label of every (topic, docno) pair (topic ``*`` rows as fallback; NaN if none).

    Pairs are looked up as integer keys (topic code × documents + docno code, codes in the
    label set's own topics and docnos) in the sorted keys of the label set.

    Dictionary-encoded pairs: with ``topic_code`` (``doc_code``), ``topic`` (``docno``)
    holds distinct values and pair ``i`` has topic ``topic[topic_code[i]]`` (docno
    ``docno[doc_code[i]]``), so that every distinct string is looked up once.
    """
    n = len(docno) if doc_code is None else len(doc_code)  # type: ignore[arg-type]
    if n == 0:
        return np.full(0, np.nan)
    topic, docno = as_string_array(topic), as_string_array(docno)
    wildcard = table.topic.equal(ANY_TOPIC)
    label_doc, docs = table.docno.encode()
    query_doc = docno.index_in(docs)
    # every document's value for every topic (topic *); the last entry (code -1): none
    by_doc = np.full(len(docs) + 1, np.nan)
    by_doc[label_doc[wildcard]] = table.value[wildcard]
    out = by_doc[query_doc]
    if doc_code is not None:
        out, query_doc = out[doc_code], query_doc[doc_code]
    specific = ~wildcard
    if specific.any():  # a topic's own value, where it has one (not NaN)
        topics = table.topic.filter(specific).unique()
        label_keys = table.topic.index_in(topics)[specific] * len(docs) + label_doc[specific]
        order = np.argsort(label_keys)
        label_keys, values = label_keys[order], table.value[specific][order]
        query_topic = topic.index_in(topics)
        if topic_code is not None:
            query_topic = query_topic[topic_code]
        asked = np.flatnonzero((query_topic >= 0) & (query_doc >= 0))
        keys = query_topic[asked] * len(docs) + query_doc[asked]
        slot = np.minimum(np.searchsorted(label_keys, keys), len(label_keys) - 1)
        found = label_keys[slot] == keys
        own = values[slot[found]]
        known = ~np.isnan(own)
        out[asked[found][known]] = own[known]
    return out


def memberships(table: LabelTable, topic: Strings | object, docno: Strings | object,
                topic_code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every value of a label set that may hold several values per document
    (:func:`irscale.io.labels.read_labels` with ``several``) for pairs ``i`` of topic
    ``topic[topic_code[i]]`` and docno ``docno[i]``: rows ``(pair, value)``, sorted by pair.
    A pair takes its topic's own rows where there are some, else the rows of topic ``*``;
    a pair with neither has no row.

    >>> from irscale.io.labels import read_labels
    >>> t = read_labels(b"* 0 a 1\\n* 0 a 2\\n7 0 a 3\\n* 0 b 4\\n", several=True)
    >>> pair, value = memberships(t, ["7", "8"], ["a", "a", "b", "c"], np.array([0, 1, 0, 1]))
    >>> pair.tolist(), value.tolist()
    ([0, 1, 1, 2], [3.0, 1.0, 2.0, 4.0])
    """
    topic, docno = as_string_array(topic), as_string_array(docno)
    label_doc, docs = table.docno.encode()
    n_docs = max(len(docs), 1)
    query_doc = docno.index_in(docs)
    label_topic, topics = table.topic.encode()
    query_topic = topic.index_in(topics)[topic_code]
    wildcard_code = int(Strings.of([ANY_TOPIC]).index_in(topics)[0])
    # rows keyed by (topic code, doc code); a pair's own key, then its topic * key
    label_key = label_topic * n_docs + label_doc
    order = np.argsort(label_key, kind="stable")
    label_key, values = label_key[order], table.value[order]
    known = query_doc >= 0
    own = np.where(known & (query_topic >= 0), query_topic * n_docs + query_doc, -1)
    any_topic = np.where(known & (wildcard_code >= 0), wildcard_code * n_docs + query_doc, -1)
    low, high = (np.searchsorted(label_key, own, side=s) for s in ("left", "right"))
    use_own = (own >= 0) & (high > low)
    w_low, w_high = (np.searchsorted(label_key, any_topic, side=s) for s in ("left", "right"))
    low = np.where(use_own, low, np.where(any_topic >= 0, w_low, 0))
    count = np.where(use_own, high - low, np.where(any_topic >= 0, w_high - w_low, 0))
    return np.repeat(np.arange(len(count)), count), values[ranges(low, count)]


def attach_labels(jr: JudgedRankings, qrels: Qrels, runs: Sequence[Run],
                  options: RankingOptions, tables: Mapping[str, LabelTable], *,
                  scores: bool = False) -> JudgedRankings:
    """``jr`` (built from ``qrels`` and ``runs`` with ``options``) with every label set of
    ``tables`` (name → table, read by :func:`irscale.io.labels.read_labels`) attached as a
    per-document attribute: the engine gives every run's row of each judged document
    (:func:`irscale.core.judge.judge_with_rows`), whose topic and docno are looked up.
    ``scores``: the run's score of every document is attached too, as ``score`` (for the
    families that read it: :attr:`irscale.measures.base.Family.needs_scores`).
    """
    _, rows = judge_with_rows(qrels, runs, options, keep_rows=True)
    parts: dict[str, list[np.ndarray]] = {name: [] for name in tables}
    score_parts: list[np.ndarray] = []
    for run, run_rows in zip(runs, rows or [], strict=True):
        if scores:
            score_parts.append(np.asarray(run.score)[np.asarray(run_rows, dtype=np.int64)])
        if not tables:
            continue
        take = np.asarray(run_rows, dtype=np.int64)
        topic, docno = run.topic.take(take), run.docno.take(take)
        for name, table in tables.items():
            parts[name].append(lookup(table, topic, docno))
    real = np.ones(len(jr.rel), dtype=bool)
    if jr.placeholder is not None:  # trec_eval 10's -c stand-ins have no labels
        real = ~jr.placeholder[jr.segment]
    arrays = {}
    for name, pieces in parts.items():
        values = np.full(len(jr.rel), np.nan)
        values[real] = np.concatenate(pieces) if pieces else np.empty(0)
        if len(values) and np.isnan(values).all():
            _no_label_found(name, tables[name], jr.topics)
        arrays[name] = values
    if scores:
        values = np.full(len(jr.rel), np.nan)
        values[real] = np.concatenate(score_parts) if score_parts else np.empty(0)
        arrays["score"] = values
    return jr.with_attributes(**arrays)


def _no_label_found(name: str, table: LabelTable, topics: tuple[str, ...]) -> None:
    """No retrieved document has a label of set ``name``: an error when the set shares no
    topic with the runs (the wrong file), else a warning."""
    import warnings

    own = set(table.topic.unique().to_pylist())
    if ANY_TOPIC not in own and not own & set(topics):
        shown = ", ".join(sorted(own)[:5]) + (", ..." if len(own) > 5 else "")
        raise AlignmentError(
            f"{table.source}: label set {name!r}: none of its {len(own)} topic(s) ({shown}) "
            f"is a topic of the runs ({', '.join(topics[:5])}"
            f"{', ...' if len(topics) > 5 else ''})")
    warnings.warn(f"label set {name!r} ({table.source}): no retrieved document has a label",
                  stacklevel=3)


def unused_label_sets(labels: Mapping[str, Any], named: set[str]) -> list[str]:
    """The label sets of ``labels`` that are not ``named`` by a requested measure
    (:func:`irscale.measures.base.label_sets_named`)."""
    return [str(k) for k in labels if str(k) not in named]

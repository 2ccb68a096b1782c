"""Stochastic runs: several sampled rankings per topic in one TREC run file.

A stochastic ranking policy (Diaz et al., CIKM 2020) is evaluated from a sample of its
rankings. The file is a TREC run ``qid sample docno rank score runid`` whose second column
(``Q0`` in a deterministic run) names the sample: the lines of one (topic, sample) are one
ranking, ordered as trec_eval orders a run (score descending, then docno descending; the
rank column is not read). A deterministic run is a stochastic run of one sample per topic.
A document twice in one ranking is an error naming the line. :func:`judge_samples` joins a
stochastic run with the qrels and the documents' groups (the fairness measures' input,
:mod:`irscale.measures.fairness`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..core._columnar import arrow
from ..core._columnar import arrow_compute as pc
from ..core.inputs import Qrels, Run
from ..core.labels import LabelTable, memberships
from ..core.strings import Strings
from ..errors import InputFormatError
from ._text import is_float, line_of_record, parse_columns, source_name

#: The fields of a line of a stochastic run.
FIELDS = ("qid", "sample", "docno", "rank", "score", "runid")


@dataclass(frozen=True, eq=False)
class StochasticRun:
    """The sampled rankings of one run: row ``i`` puts ``docno[i]`` at 1-based ``position[i]``
    of sample ``sample[i]`` of topic ``topic[i]``; rows are sorted by topic, sample and
    position."""

    name: str
    topic: pa.Array
    sample: pa.Array
    docno: pa.Array
    position: np.ndarray
    source: str = "<run>"

    def __len__(self) -> int:
        return len(self.position)


def read_stochastic_run(source: str | os.PathLike | bytes, name: str | None = None
                        ) -> StochasticRun:
    """Read a stochastic run (see the module documentation), named ``name`` or after the
    run id of its first line.

    >>> run = read_stochastic_run(b"1 0 a 1 2 r\\n1 0 b 2 1 r\\n1 1 b 1 2 r\\n1 1 a 2 1 r\\n")
    >>> run.docno.to_pylist(), run.position.tolist()
    (['a', 'b', 'b', 'a'], [1, 2, 1, 2])
    """
    label = source_name(source)
    table, raw = parse_columns(
        source, FIELDS,
        {"qid": pa.string(), "sample": pa.string(), "docno": pa.string(),
         "score": pa.float64(), "runid": pa.string()},
        ("qid", "sample", "docno", "score", "runid"),
        {4: lambda text: None if is_float(text) else "is not a number"},
        "stochastic run")
    table = table.append_column("row", pa.array(np.arange(table.num_rows)))
    order = pc.sort_indices(table, [("qid", "ascending"), ("sample", "ascending"),
                                    ("score", "descending"), ("docno", "descending")])
    table = table.take(order)
    row = arrow.to_numpy(table["row"]).astype(np.int64)
    topic, sample, docno = (table[c].combine_chunks() for c in ("qid", "sample", "docno"))
    key_change = np.r_[True, arrow.to_numpy(pc.not_equal(topic[1:], topic[:-1]))
                       | arrow.to_numpy(pc.not_equal(sample[1:], sample[:-1]))] \
        if len(row) else np.empty(0, bool)
    block, position = _positions(key_change)
    _refuse_repeats(table, row, block, label, raw)
    runid = table["runid"].combine_chunks()
    first = int(np.argmin(row)) if len(row) else 0
    return StochasticRun(name or (runid[first].as_py() if len(row) else label), topic, sample,
                         docno, position.astype(np.int64), label)


def deterministic(run: Run, name: str | None = None) -> StochasticRun:
    """A run read by :func:`irscale.read_run` (a dict, a DataFrame ...) as a stochastic run
    of one sample (``Q0``) per topic, ranked by score descending (compared as doubles, as
    trec_eval 10 compares them), then docno descending, named ``name`` or as the run is.

    >>> from irscale import read_run
    >>> one = deterministic(read_run({"1": {"a": 1.0, "b": 2.0, "c": 2.0}}, name="r"))
    >>> one.name, one.docno.to_pylist(), one.position.tolist()
    ('r', ['c', 'b', 'a'], [1, 2, 3])
    """
    table = pa.table({"qid": run.topic.to_arrow(), "docno": run.docno.to_arrow(),
                      "score": pa.array(run.score)})
    table = table.take(pc.sort_indices(table, [("qid", "ascending"), ("score", "descending"),
                                               ("docno", "descending")]))
    topic, docno = (table[c].combine_chunks() for c in ("qid", "docno"))
    change = np.r_[True, arrow.to_numpy(pc.not_equal(topic[1:], topic[:-1]))] \
        if len(topic) else np.empty(0, bool)
    _, position = _positions(change)
    return StochasticRun(name or run.name, topic, pa.array(["Q0"] * len(topic), pa.string()),
                         docno, position.astype(np.int64), run.source)


def _positions(change: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ranking (0, 1, ...) and 1-based position of every row of rows sorted by ranking,
    ``change`` true at each ranking's first row."""
    block = np.cumsum(change) - 1
    return block, np.arange(len(change)) - np.flatnonzero(change)[block] + 1


def _refuse_repeats(table: pa.Table, row: np.ndarray, block: np.ndarray, label: str,
                    raw) -> None:
    """A document twice in one (topic, sample) ranking: an error naming its second line."""
    if not len(row):
        return
    codes = arrow.to_numpy(pc.dictionary_encode(table["docno"].combine_chunks()).indices)
    key = block.astype(np.int64) * (int(codes.max()) + 1) + codes
    order = np.lexsort((row, key))
    repeated = np.flatnonzero(key[order][1:] == key[order][:-1])
    if len(repeated):
        second = order[repeated + 1]
        line, text = line_of_record(raw(), int(row[second].min()))
        raise InputFormatError("a document appears twice in one sampled ranking (same "
                               "topic and sample)", source=label, line=line, text=text)


@dataclass(frozen=True, eq=False)
class JudgedSamples:
    """A stochastic run joined with the qrels, per topic of the run the qrels have
    (``topics``, sorted): the *universe* of each topic (its judged documents, degree ≥ 0,
    and every document a sample retrieves) with its grade (the degree; 0 when unjudged);
    its documents' groups (``None`` without groups): rows ``(member_doc, member_group)``
    sorted by document, one a group of the document, at least one a document; the
    (topic, sample) rankings (``ranking_topic``); and every placement of a document
    (``place_ranking``, 1-based ``place_position``, ``place_doc`` indexing the universe)."""

    topics: tuple[str, ...]
    universe_topic: np.ndarray
    universe_grade: np.ndarray
    member_doc: np.ndarray | None
    member_group: np.ndarray | None
    ranking_topic: np.ndarray
    place_ranking: np.ndarray
    place_position: np.ndarray
    place_doc: np.ndarray


def judge_samples(qrels: Qrels, run: StochasticRun, groups: LabelTable | None
                  ) -> JudgedSamples:
    """The :class:`JudgedSamples` of ``run`` against ``qrels`` with the groups of every
    document from ``groups`` (a label set of several values per document,
    :func:`~irscale.core.labels.memberships`; the documents it does not label form one
    group of their own, coded last); run topics the qrels do not have are left out."""
    run_topic = Strings.of(run.topic)
    in_qrels = run_topic.isin(qrels.topic.unique())
    keep = np.flatnonzero(in_qrels)
    r_topic = run_topic.take(keep)
    topic_table = r_topic.unique(sort=True)
    topics = tuple(topic_table.to_pylist())
    t_run = r_topic.index_in(topic_table)
    q_t = qrels.topic.index_in(topic_table)
    rows = np.flatnonzero((q_t >= 0) & (qrels.rel >= 0))
    q_t, q_rel = q_t[rows], qrels.rel[rows].astype(np.float64)
    # the universe: (topic, docno) pairs of the qrels and of the samples, coded together
    all_docs = Strings.concat([qrels.docno.take(rows), Strings.of(run.docno).take(keep)])
    doc_codes = all_docs.encode()[0]
    n_codes = max(int(doc_codes.max(initial=-1)) + 1, 1)
    pair = np.r_[q_t, t_run] * n_codes + doc_codes
    keys, inverse = np.unique(pair, return_inverse=True)
    inverse = inverse.ravel()
    universe_topic = keys // n_codes
    grade = np.zeros(len(keys))
    grade[inverse[:len(q_t)]] = np.maximum(q_rel, 0.0)
    member_doc = member_group = None
    if groups is not None:
        first = np.zeros(len(keys), dtype=np.int64)
        first[inverse[::-1]] = np.arange(len(inverse))[::-1]
        member_doc, values = memberships(groups, topic_table, all_docs.take(first),
                                         universe_topic)
        unlabelled = np.setdiff1d(np.arange(len(keys)), member_doc)
        member_doc = np.r_[member_doc, unlabelled]
        values = np.r_[values, np.full(len(unlabelled), np.inf)]
        order = np.argsort(member_doc, kind="stable")
        member_doc = member_doc[order]
        _, member_group = np.unique(values[order], return_inverse=True)
        member_group = member_group.ravel().astype(np.int64)
    # rankings: (topic, sample) blocks of the run's sorted rows
    s_codes = Strings.of(run.sample).take(keep).encode()[0]
    block_key = t_run * (int(s_codes.max(initial=0)) + 1) + s_codes
    blocks, place_ranking = np.unique(block_key, return_inverse=True)
    place_ranking = place_ranking.ravel()
    ranking_topic = blocks // (int(s_codes.max(initial=0)) + 1)
    return JudgedSamples(topics, universe_topic, grade, member_doc, member_group, ranking_topic,
                         place_ranking, run.position[keep], inverse[len(q_t):])

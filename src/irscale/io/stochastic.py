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
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.inputs import Qrels, Run
from ..core.labels import LabelTable, memberships
from ..core.strings import Strings
from ..errors import InputFormatError
from . import naming
from ._text import is_float, line_of_record, read_fields, source_name

#: The fields of a line of a stochastic run.
FIELDS = ("qid", "sample", "docno", "rank", "score", "runid")


@dataclass(frozen=True, eq=False)
class StochasticRun:
    """The sampled rankings of one run: row ``i`` puts ``docno[i]`` at 1-based ``position[i]``
    of sample ``sample[i]`` of topic ``topic[i]``; rows are sorted by topic, sample and
    position."""

    name: str
    topic: Strings
    sample: Strings
    docno: Strings
    position: np.ndarray
    source: str = "<run>"
    #: The run id its file names (:func:`irscale.io.naming.run_id`).
    runids: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.position)


def read_stochastic_run(source: str | os.PathLike | bytes, name: str | None = None
                        ) -> StochasticRun:
    """Read a stochastic run (see the module documentation), named ``name`` or by its file
    (:mod:`irscale.io.naming`; bytes: after the run id of its first line).

    >>> run = read_stochastic_run(b"1 0 a 1 2 r\\n1 0 b 2 1 r\\n1 1 b 1 2 r\\n1 1 a 2 1 r\\n")
    >>> run.docno.to_pylist(), run.position.tolist()
    (['a', 'b', 'b', 'a'], [1, 2, 1, 2])
    """
    label = source_name(source)
    fields, raw = read_fields(
        source, FIELDS,
        {"qid": "str", "sample": "str", "docno": "str", "score": "float", "runid": "str"},
        {4: lambda text: None if is_float(text) else "is not a number"},
        "stochastic run")
    topic, sample, docno = (fields.strings(c) for c in ("qid", "sample", "docno"))
    topic_code, sample_code, docno_code = (_sorted_codes(c) for c in (topic, sample, docno))
    row = _ranking_order((topic_code, sample_code), fields.numbers("score"), docno_code)
    topic_code, sample_code, docno_code = topic_code[row], sample_code[row], docno_code[row]
    block, position = _positions(_changes(topic_code, sample_code))
    _refuse_repeats(docno_code, row, block, label, raw)
    runid = fields.strings("runid")[0]
    name = name or naming.source_name(label, runid)  # by its file, else by its run id
    return StochasticRun(name, topic.take(row), sample.take(row), docno.take(row),
                         position.astype(np.int64), label, (runid,))


def deterministic(run: Run, name: str | None = None) -> StochasticRun:
    """A run read by :func:`irscale.read_run` (a dict, a DataFrame ...) as a stochastic run
    of one sample (``Q0``) per topic, ranked by score descending (compared as doubles, as
    trec_eval 10 compares them), then docno descending, named ``name`` or as the run is.

    >>> from irscale import read_run
    >>> one = deterministic(read_run({"1": {"a": 1.0, "b": 2.0, "c": 2.0}}, name="r"))
    >>> one.name, one.docno.to_pylist(), one.position.tolist()
    ('r', ['c', 'b', 'a'], [1, 2, 3])
    """
    topic_code, docno_code = _sorted_codes(run.topic), _sorted_codes(run.docno)
    row = _ranking_order((topic_code,), np.asarray(run.score, dtype=np.float64), docno_code)
    topic_code = topic_code[row]
    _, position = _positions(_changes(topic_code))
    n = len(row)
    q0 = Strings(np.arange(n + 1, dtype=np.int64) * 2,
                 np.tile(np.frombuffer(b"Q0", np.uint8), n))
    return StochasticRun(name or run.name, run.topic.take(row), q0, run.docno.take(row),
                         position.astype(np.int64), run.source)


def _sorted_codes(column: Strings) -> np.ndarray:
    """Every string's rank among the column's distinct strings in byte order (int64): the
    strings' order as numbers (equal strings, equal codes)."""
    return column.encode(sort=True)[0]


def _ranking_order(ranking: tuple[np.ndarray, ...], score: np.ndarray, docno: np.ndarray
                   ) -> np.ndarray:
    """The rows by the codes of ``ranking`` (topic[, sample]), then score descending (NaN
    last, as Arrow sorts it), then docno code descending, rows that tie in file order: one
    stable sort per key, from the last key to the first (numpy's stable sort, a timsort,
    runs fast over the ordered runs of a file's lines: 1M lines, 0.33 s where ``lexsort``
    took 0.49 s)."""
    order = np.argsort(-docno, kind="stable")
    for key in (-score, *reversed(ranking)):
        order = order[np.argsort(key[order], kind="stable")]
    return order


def _changes(*codes: np.ndarray) -> np.ndarray:
    """True at the first row and wherever one of the sorted rows' ``codes`` differs from the
    row before."""
    change = np.zeros(len(codes[0]), dtype=bool)
    change[:1] = True
    for code in codes:
        change[1:] |= code[1:] != code[:-1]
    return change


def _positions(change: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ranking (0, 1, ...) and 1-based position of every row of rows sorted by ranking,
    ``change`` true at each ranking's first row."""
    block = np.cumsum(change) - 1
    return block, np.arange(len(change)) - np.flatnonzero(change)[block] + 1


def _refuse_repeats(docno: np.ndarray, row: np.ndarray, block: np.ndarray, label: str,
                    raw: Callable[[], bytes]) -> None:
    """A document twice in one (topic, sample) ranking: an error naming its second line
    (``docno``: the documents' codes, ``block``: their rankings, ``row``: their lines, all in
    the rankings' order)."""
    key = block.astype(np.int64) * (int(docno.max()) + 1) + docno
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

"""Collection shards for the MD3 family of ANOVA models (Ferro & Sanderson 2022, §3.1).

MD3 needs y_ijk, the score of system j on topic i *within shard k* of the document
collection. Ferro & Sanderson (2022, §4, "Shards") build the shards by "randomly [sampling] shards
of documents ... without replacement, i.e. we randomly partitioned the collection" (3 shards
in its experiments; 2 and 5 gave insubstantial differences). :func:`evaluate_shards` does
that from runs and qrels, and :meth:`ShardedEvaluation.anova` hands the scores to
:func:`irscale.stats.shard_anova`.

The collection
    The documents are those the qrels and the runs name (the distinct docnos of both): the
    documents no run retrieved and no assessor judged change no score, whichever shard
    they would fall in.

Splitting (:func:`shard_documents`)
    ``"random"`` (Ferro & Sanderson 2022): the distinct docnos are sorted (byte order, so the input
    order does not matter), shuffled by a random permutation drawn from ``rng`` (a
    :class:`numpy.random.Generator` or a seed, via :class:`numpy.random.SeedSequence` and
    PCG64: the same seed gives the same shards on every platform, for a given numpy
    release — numpy does not promise a Generator's streams across releases) and cut into
    ``k`` consecutive blocks, so shard sizes differ by at most one and every shard is
    non-empty when there are at least ``k`` documents.
    ``"hash"``: shard = h(docno) mod k with h the 64-bit fingerprint of
    :func:`irscale.core.identifiers.fingerprints` — the docno's UTF-8 bytes read as
    little-endian 8-byte words (the last zero-padded), h₀ = L·0x9E3779B97F4A7C15 for a
    docno of L bytes, then h ← mix(h + word) per word with splitmix64's finaliser, all
    modulo 2⁶⁴. It depends on the docno alone (never Python's salted ``hash()``): a
    document keeps its shard whatever the other documents, the platform or the run; shard
    sizes are only about equal, and an empty shard is an error.

Scores per shard (how the rankings are re-formed)
    Shard k's qrels are the judgments of its documents; every run is restricted to the
    documents of shard k, keeping their relative order (the documents of other shards are
    removed and the ranks close up: rank r in the shard is the r-th document of the
    shard in the run's full ranking, as if the system had retrieved from that shard
    alone — the construction of Ferro, Kim & Sanderson 2019 and Ferro & Sanderson 2019 that
    Ferro & Sanderson (2022) reuse). The measure is then computed by :func:`irscale.evaluate` on
    those qrels and runs. A run that retrieved no document of the shard for a topic scores 0
    there, as trec_eval 9.0.8's ``-c`` counts a topic a run misses.

Undefined scores
    A topic without a relevant document in a shard leaves the measure undefined there
    (Ferro & Sanderson 2022, §2.3.6: "missing values caused by shards without a relevant document"):
    its scores are NaN for every system, and the ANOVA's ``empty`` policy decides
    (:mod:`irscale.stats.shards`: error, zero, drop-topic, drop-shard, missing).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from ..core import identifiers
from ..core.inputs import Qrels, Run
from ..core.notebook import HtmlRepr
from ..core.numbers import declare, undefined
from ..core.options import TiePolicy
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.strings import Strings
from ..errors import InputError, ParameterError, shown
from ..evaluation import evaluate
from ..io.sources import as_qrels, as_runs
from ..stats.resampling import check_rng
from ..stats.results import AnovaResult
from ..stats.shards import EmptyPolicy, ShardScores, shard_anova
from ..stats.tables import Format
from .params import SHARD_METHODS as SHARD_METHODS
from .params import SHARD_SPLIT, SHARDS

__all__ = ["SHARD_METHODS", "ShardedEvaluation", "evaluate_shards", "shard_documents"]

ShardMethod = Literal["random", "hash"]


@SHARD_SPLIT
def shard_documents(docnos: Iterable[str] | Strings, k: int, *,
                    method: ShardMethod = "random", rng: object = None) -> pd.Series:
    """Split the distinct ``docnos`` into ``k`` shards (module documentation).

    Returns a Series docno → shard (0 to k − 1), indexed by the distinct docnos in byte
    order. ``rng`` (random method only): a seed or a :class:`numpy.random.Generator`.
    Parameters checked on entry: :data:`irscale.collections.params.SHARD_SPLIT`.

    >>> split = shard_documents(["d3", "d1", "d2", "d4", "d1"], 2, rng=7)
    >>> split.index.tolist(), sorted(split.value_counts().tolist())
    (['d1', 'd2', 'd3', 'd4'], [2, 2])
    """
    check_rng(rng)
    values = docnos if isinstance(docnos, Strings) or type(docnos).__module__.startswith(
        "pyarrow") else identifiers.strings([str(d) for d in docnos])
    _, distinct = identifiers.encode(identifiers.as_strings(values))
    distinct = identifiers.take(distinct, identifiers.byte_order(distinct))
    n = len(distinct)
    if n < k:
        raise InputError(f"{k} shards need at least {k} documents; the collection (docnos) "
                         f"has {n}")
    if method == "random":
        permutation = np.random.default_rng(check_rng(rng)).permutation(n)
        shard = np.empty(n, dtype=np.int64)
        shard[permutation] = np.arange(n, dtype=np.int64) * k // n
    else:
        shard = (identifiers.fingerprints(distinct) % np.uint64(k)).astype(np.int64)
        sizes = np.bincount(shard, minlength=k)
        if (sizes == 0).any():
            raise InputError(f"hash shards: shard {int(np.argmin(sizes)) + 1} of {k} holds no "
                             f"document of the {n}: use fewer shards or random shards")
    return pd.Series(shard, index=pd.Index(distinct.to_pylist(), name="docno"), name="shard")


@dataclass(frozen=True, eq=False)
class ShardedEvaluation(HtmlRepr):
    """Result of :func:`evaluate_shards`: ``scores`` (topics × systems × shards, NaN where
    a topic has no relevant document in a shard), ``shards`` (docno → shard, 0-based;
    the shards are labelled ``shard1`` ... in ``scores``), the measure and the split."""

    scores: ShardScores
    shards: pd.Series
    measure: str
    method: str

    def anova(self, model: str = "MD3", *, empty: EmptyPolicy = "error") -> AnovaResult:
        """:func:`irscale.stats.shard_anova` of the scores (MD3 by default)."""
        return shard_anova(self.scores, model, empty=empty)

    def to_frame(self) -> pd.DataFrame:
        """Tidy scores: one row per (topic, run, shard), column ``value``."""
        t, s, k = self.scores.shape
        return declare(pd.DataFrame({
            "topic": np.repeat(self.scores.topics, s * k),
            "run": np.tile(np.repeat(self.scores.systems, k), t),
            "shard": np.tile(self.scores.shards, t * s),
            "value": self.scores.values.reshape(-1),
        }), {"value": undefined("a topic without a relevant document in a shard has no "
                                "score there (the empty-shard policy decides)")})

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        from ..meta.common import format_frame

        return format_frame(self.to_frame(), fmt, digits=digits)

    def __repr__(self) -> str:
        t, s, k = self.scores.shape
        return (f"ShardedEvaluation({self.measure}; {t} topics × {s} systems × {k} "
                f"{self.method} shards of {len(self.shards):,} documents, "
                f"{int(np.isnan(self.scores.values).sum())} undefined)")


def _restricted_qrels(qrels: Qrels, keep: np.ndarray, label: str) -> Qrels:
    return Qrels(topic=identifiers.filter_rows(qrels.topic, keep),
                 docno=identifiers.filter_rows(qrels.docno, keep),
                 rel=qrels.rel[keep], source=f"{qrels.source} ({label})")


def _restricted_run(run: Run, keep: np.ndarray) -> Run:
    """``run`` without the rows ``keep`` drops; the rest keep their order (and so their
    relative ranks under every tie policy)."""
    return dataclasses.replace(
        run, topic=identifiers.filter_rows(run.topic, keep),
        docno=identifiers.filter_rows(run.docno, keep),
        score=run.score[keep], rank=None if run.rank is None else run.rank[keep],
        fingerprints=run.docno_fingerprints[keep], blocks=None,
        file_row=None if run.file_row is None else run.file_row[keep])


def _shard_of(docno: Strings, shards: pd.Series) -> np.ndarray:
    """The shard of every docno (all are in ``shards``' index)."""
    where = identifiers.index_in(identifiers.as_strings(docno),
                                 identifiers.strings(shards.index.tolist()))
    return shards.to_numpy()[where]


def _scored_topics(topics: Sequence[str] | None, judged: Sequence[str],
                   retrieved: set[str]) -> list[str]:
    """The topics to score: ``topics`` as given (a list of distinct topic ids), by default
    the judged topics some run retrieved for (trec_eval's); none is an
    :class:`~irscale.errors.InputError`."""
    if topics is None:
        topics = [t for t in judged if t in retrieved]
    elif isinstance(topics, (str, bytes, pd.DataFrame)) or not isinstance(topics, Iterable):
        raise ParameterError(f"topics: expected a list of topic ids, got {shown(topics)}",
                             param="topics")
    topics = list(topics)
    if len(set(topics)) != len(topics):
        raise ParameterError("topics: a topic is given twice", param="topics")
    if not topics:
        raise InputError("the runs and the qrels have no topic in common")
    return topics


@SHARDS
def evaluate_shards(
    qrels: object,
    runs: object,
    measure: str = "AP",
    *,
    shards: int = 3,
    method: ShardMethod = "random",
    rng: object = None,
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
    ties: TiePolicy = "trec_eval",
    topics: Sequence[str] | None = None,
) -> ShardedEvaluation:
    """Score every run on every topic within every shard (module documentation).

    ``measure``: one per-topic measure name (``AP``, ``map``, ``P@10``, ``nDCG@10`` ...);
    ``shards``: k ≥ 1; ``method``: ``"random"`` (the random partition of Ferro & Sanderson 2022,
    seeded by ``rng``) or ``"hash"``; ``topics``: the topics to score (default: the qrels topics
    that some run retrieved for, trec_eval's topics). Topics with relevant documents in no shard at
    all cannot be scored and are refused.

    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c", "d"],
    ...                       "relevance": [1, 1, 0, 1]})
    >>> run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c", "d"],
    ...                     "score": [4.0, 3.0, 2.0, 1.0]})
    >>> result = evaluate_shards(qrels, {"x": run, "y": run}, "AP", shards=2, method="hash")
    >>> result.scores.shape
    (1, 2, 2)
    """
    if not isinstance(measure, str) or len(measure.split()) != 1:
        raise ParameterError(f"measure must be one measure name, got {measure!r}")
    k = shards
    judged = as_qrels(qrels)
    run_list = as_runs(runs, keep_rank=ties == "rank-column")
    if len(run_list) < 2:
        raise InputError("a shard ANOVA compares systems: give at least 2 runs")
    names = [run.name for run in run_list]
    if len(set(names)) != len(names):
        raise InputError(f"runs must have distinct names, got {names}")
    retrieved = {t for run in run_list for t in run.topics}
    unjudged = sorted(retrieved - set(judged.topics))
    if unjudged:
        warnings.warn(f"{len(unjudged)} run topic(s) have no judgments and are not scored: "
                      f"{', '.join(unjudged[:10])}{' ...' if len(unjudged) > 10 else ''}",
                      stacklevel=2)
    topics = _scored_topics(topics, judged.topics, retrieved)
    docnos = identifiers.as_strings(judged.docno, *(run.docno for run in run_list))
    split = shard_documents(docnos, k, method=method, rng=rng)
    qrels_shard = _shard_of(judged.docno, split)
    run_shards = [_shard_of(run.docno, split) for run in run_list]
    topic_index = pd.Index(topics)
    qrels_topic = topic_index.get_indexer(judged.topic.to_numpy())
    relevant = (judged.rel >= relevance_level) & (qrels_topic >= 0)
    has_relevant = np.bincount(qrels_topic[relevant] * k + qrels_shard[relevant],
                               minlength=len(topics) * k).reshape(len(topics), k) > 0
    unscorable = [topics[i] for i in np.flatnonzero(~has_relevant.any(axis=1))]
    if unscorable:
        raise InputError(f"{len(unscorable)} topic(s) have no relevant document (degree ≥ "
                         f"{relevance_level}) in any shard, e.g. {unscorable[0]!r}: leave "
                         "them out (topics=)")
    values = np.full((len(topics), len(run_list), k), np.nan)
    for shard in range(k):
        keep = (qrels_shard == shard) & (qrels_topic >= 0)
        if not keep.any():
            continue
        shard_qrels = _restricted_qrels(judged, keep, f"shard {shard + 1} of {k}")
        shard_runs = [_restricted_run(run, run_shard == shard)
                      for run, run_shard in zip(run_list, run_shards, strict=True)]
        with warnings.catch_warnings():
            # runs without a document of this shard for some topic are expected (irscale's
            # warnings only: a numpy warning is a fault to see)
            warnings.simplefilter("ignore", UserWarning)
            matrix = evaluate(shard_qrels, shard_runs, measure,
                              relevance_level=relevance_level, ties=ties,
                              allow_empty=True).to_matrix(allow_missing=True)
        if len(matrix.measures) != 1:
            raise ParameterError(f"measure {measure!r} gives {len(matrix.measures)} values "
                                 f"({', '.join(matrix.measures)}): name one measure")
        rows = topic_index.get_indexer(list(matrix.topics))
        columns = [matrix.systems.index(name) for name in names]
        cube = np.zeros((len(topics), len(run_list)))  # 0: the run missed the topic
        cube[rows[rows >= 0]] = np.nan_to_num(matrix.values[rows >= 0][:, columns, 0])
        values[:, :, shard] = cube
    values[~np.repeat(has_relevant[:, None, :], len(run_list), axis=1)] = np.nan
    scores = ShardScores(values, tuple(topics), tuple(names),
                         tuple(f"shard{i + 1}" for i in range(k)))
    return ShardedEvaluation(scores=scores, shards=split, measure=measure, method=method)

"""Automatic judgments corrected with human judgments of a sample of (topic, document) pairs.

The document-level designs of :func:`irscale.collections.automatic_judgments` (its
``design``): the human qrels judge a probability sample of the pairs the automatic qrels
judge (every pair of the human qrels must be one of them), drawn

* ``"uniform"``: a simple random sample of the ``P`` pairs, all topics together;
* ``"stratified"``: a simple random sample within every stratum ``h`` of the pairs whose
  automatic grade is ``h`` (``n_h`` of its ``P_h`` pairs, the counts read from the two
  qrels), all topics together;
* ``"inclusion"``: any design that states every sampled pair's inclusion probability
  ``π_p`` (the human qrels are sampled judgments ``topic iter docno rel prob``, as
  :func:`irscale.collections.sample_judgments` draws them, e.g. statAP's AP-prior, Aslam,
  Pavlu and Yilmaz, SIGIR 2006); the estimates assume every pair was included
  independently (the Poisson design; approximately true of the others) and that every
  pair a run ranks with a nonzero weight had ``π_p > 0``.

**Measures as sums over documents.** A per-topic value that can be corrected document by
document must be a sum ``M_t = Σ_d w(rank_d) · g(grade_d)`` over the ranked documents
(a weight of the rank times a gain of the grade, ``g = 0`` below the relevance level and
for unjudged documents): P@k, DCG@k, RBP, success is not one. irscale finds the table
``w(r)·g(k)`` by evaluating the measure itself on synthetic rankings (one relevant
document of grade ``k`` at rank ``r``) and refuses a measure whose per-topic values under
the automatic qrels are not the sums of that table (AP, nDCG and recall divide by R;
success takes a maximum): no guess. The contribution of pair ``p`` to run ``s``'s mean
over the ``T`` topics is ``c_p = w(rank)·g(grade) / T``; the mean is ``θ = Σ_p c_p(Y_p)``
with the human grades ``Y`` and ``θ̂_auto = Σ_p c_p(Ŷ_p)`` with the automatic ones.

**Estimates.** With ``z_p = P·c_p`` (so that ``θ`` is the mean of ``z`` over the pairs):

* uniform: the prediction-powered mean of ``z`` (:func:`ppi_mean`: Angelopoulos et al.,
  *Science* 2023; PPI++ for λ) with the sampled pairs labelled and *every* pair's
  automatic value as the unlabelled set, so that the point estimate is
  ``θ̂_auto·λ + mean_S(z(Y) − λ·z(Ŷ))`` (ppi-python's ``ppi_mean_ci`` on the same
  arrays: the oracle of the tests);
* stratified: stratified PPI (Fisch, Maynez, Hofer, Dhingra, Globerson and Cohen,
  "Stratified prediction-powered inference for hybrid language model evaluation",
  NeurIPS 2024): the same estimate in every stratum, weighted by ``P_h / P``, variances
  added with weights ``(P_h / P)²``; every stratum needs 2 sampled pairs;
* inclusion: the Horvitz–Thompson difference estimator (Horvitz and Thompson, JASA 1952;
  Särndal, Swensson and Wretman, *Model Assisted Survey Sampling*, 1992, §6.3)
  ``θ̂_λ = λ·θ̂_auto + Σ_{p∈S} (c_p(Y) − λ·c_p(Ŷ)) / π_p`` with the Poisson-design variance
  estimate ``Σ_{p∈S} (1 − π_p)·e_p² / π_p²``, ``e_p = c_p(Y) − λ·c_p(Ŷ)``; PPI++ takes the
  λ that minimises it, ``Σ(1−π)c(Y)c(Ŷ)/π² / Σ(1−π)c(Ŷ)²/π²``, clipped to [0, 1].

``λ = 0`` is the classical estimate from the human sample alone (the sample mean, the
stratified mean, the Horvitz–Thompson estimate); intervals are normal,
``θ̂ ± z_{1−α/2}·SE``. Differences of two runs are sums too (``c_a − c_b``).

**Numbers.** The moments are computed on the values divided by a power of two near
their largest magnitude (exactly: the same digits as on the values themselves), then
scaled back, so that values near the largest double (10³⁰⁸) give an estimate and a
standard error instead of overflowing sums and squares; an estimate, a standard error or
an interval end beyond the largest double is refused (:class:`~irscale.errors.InputError`).
An inclusion probability so small that ``(1 − π)/π²`` overflows is refused naming its
line (:class:`InclusionOverflow`, raised with the pair; :func:`refuse_overflow`). The
estimators are :mod:`irscale.core.ppi_means`' (:func:`sampled_mean`), which the nugget
assignments of a model share (:mod:`irscale.evaluation.assignments_ppi`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.ppi_means import InclusionOverflow as InclusionOverflow  # (re-exported)
from ..core.ppi_means import SampleDesign
from ..core.ppi_means import sampled_mean as sampled_mean  # (re-exported)
from ..errors import AlignmentError, InputError, ParameterError

if TYPE_CHECKING:  # pragma: no cover
    from ..io.sampled import Located

PairDesign = SampleDesign
#: Largest difference between a per-topic value and the sum of its documents'
#: contributions that is still floating-point rounding.
LINEAR_TOLERANCE = 1e-9


def contribution_table(runs: list[Any], measure: str, grades: Sequence[int], depth: int,
                       relevance_level: int) -> np.ndarray:
    """``w(r)·g(k)``: the measure on synthetic rankings, one relevant document of grade
    ``grades[j]`` at rank ``r`` (rows ``r - 1``; depth rows), evaluated by
    :func:`irscale.evaluate` itself (module documentation)."""
    from ..evaluation import evaluate

    ranks = np.arange(1, depth + 1)
    qrels, run = [], []
    for k in grades:
        names = [f"{r}:{k}" for r in ranks]
        qrels.append(pd.DataFrame({"query_id": names, "doc_id": [f"d{r}" for r in ranks],
                                   "relevance": k}))
        length = np.repeat(ranks, ranks)
        position = np.concatenate([np.arange(1, r + 1) for r in ranks])
        run.append(pd.DataFrame({"query_id": np.asarray(names, dtype=object)[length - 1],
                                 "doc_id": [f"d{p}" for p in position],
                                 "score": (depth + 1 - position).astype(np.float64)}))
    matrix = evaluate(pd.concat(qrels), {"synthetic": pd.concat(run)}, [measure],
                      relevance_level=relevance_level).to_matrix(allow_missing=True)
    row = {topic: i for i, topic in enumerate(matrix.topics)}
    table = np.zeros((depth, len(grades)))
    for j, k in enumerate(grades):
        for r in ranks:
            table[r - 1, j] = matrix.values[row[f"{r}:{k}"], 0, 0]
    return table


def human_sample(human: Any, design: PairDesign
                 ) -> tuple[pd.DataFrame, np.ndarray | None, Located | None]:
    """The human judgments as ``topic, docno, rel`` (and under the inclusion design π and
    where each row was read, by :func:`irscale.io.sampled.sampled_rows`)."""
    if design == "inclusion":
        from ..io.sampled import sampled_rows

        frame, located = sampled_rows(human)
        return (frame[["topic", "docno", "rel"]], frame["prob"].to_numpy(np.float64),
                located)
    from ..io.sources import as_qrels

    qrels = as_qrels(human)
    return pd.DataFrame({"topic": qrels.topic.to_pylist(), "docno": qrels.docno.to_pylist(),
                         "rel": np.asarray(qrels.rel)}), None, None


def refuse_overflow(overflow: InclusionOverflow, located: Located) -> InputError:
    """The error naming the line of the sampled pair whose inclusion probability makes the
    estimator overflow."""
    source, line, text = located(overflow.row)
    return InputError(f"inclusion probability {overflow.prob:.6g} is too small for the "
                      "Horvitz–Thompson estimator: its variance, a sum of (1 − π)/π² "
                      "times squared contributions, overflows the largest double",
                      source=source, line=line, text=text)


def is_linear(per_topic: np.ndarray, sums: np.ndarray) -> bool:
    """Whether per-topic values (topics × runs) are the sums of their documents'
    contributions ``sums``, within :data:`LINEAR_TOLERANCE`."""
    return not sums.size or float(np.abs(per_topic - sums).max()) <= LINEAR_TOLERANCE


def check_linear(measure: str, per_topic: np.ndarray, sums: np.ndarray) -> None:
    """Refuse ``measure`` when its per-topic values (topics × runs) are not the sums of
    their documents' contributions (module documentation)."""
    if not is_linear(per_topic, sums):
        raise ParameterError(
            f"{measure}: its per-topic value is not a sum over the ranked documents of a "
            f"weight of the rank times a gain of the grade (off by "
            f"{float(np.abs(per_topic - sums).max()):.3g}); a document-level design "
            "corrects such sums only (P@k, DCG@k, RBP); sample topics instead "
            "(design='topics')")


def check_pairs(sample: pd.DataFrame, auto: pd.DataFrame) -> np.ndarray:
    """The index in ``auto`` of every sampled pair; an error names the pairs the automatic
    qrels do not judge."""
    index = pd.MultiIndex.from_frame(auto[["topic", "docno"]])
    where = index.get_indexer(pd.MultiIndex.from_frame(sample[["topic", "docno"]]))
    if (where < 0).any():
        missing = sample.loc[where < 0, ["topic", "docno"]].head(3).to_numpy().tolist()
        raise AlignmentError(f"the human qrels judge {int((where < 0).sum())} (topic, "
                             f"document) pair(s) the automatic qrels do not, e.g. {missing}; "
                             "a document-level sample must be pairs of the automatic "
                             "judgments")
    if len(sample) < 2:
        raise InputError(f"a document-level human sample needs 2 pairs at least, got "
                         f"{len(sample)}")
    return where


def pair_contributions(auto: pd.DataFrame, runs: list[Any], measure: str, topics: list[str],
                       per_topic: np.ndarray, relevance_level: int,
                       grades: Sequence[int]) -> np.ndarray:
    """pairs × runs × len(grades): ``c_p`` of every pair of ``auto`` (its rows) and run
    were the pair's grade ``grades[j]``: ``w(rank)·g(grade) / T`` (0 where the run does not
    retrieve the document), checked against ``per_topic`` (topics × runs, the measure under
    the automatic grades; :func:`check_linear`)."""
    values, sums = contributions(auto, runs, measure, topics, relevance_level, grades)
    check_linear(measure, per_topic, sums)
    return values


def contributions(auto: pd.DataFrame, runs: list[Any], measure: str, topics: list[str],
                  relevance_level: int, grades: Sequence[int]
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The contributions of :func:`pair_contributions`, unchecked, and the per-topic sums
    (topics × runs) of the contributions of the automatic grades, which equal the
    measure's values under them when it is such a sum (:func:`is_linear`)."""
    from .candidates import ranked_candidates

    cand = ranked_candidates(runs)
    names = np.asarray(cand.topics, dtype=object)[cand.pair_topic]
    index = pd.MultiIndex.from_arrays([names, np.asarray(cand.pair_docno.to_pylist(),
                                                         dtype=object)])
    where = index.get_indexer(pd.MultiIndex.from_frame(auto[["topic", "docno"]]))
    rank = np.zeros((cand.n_pairs + 1, len(runs)), dtype=np.int64)  # last row: not retrieved
    for s in range(len(runs)):
        ids = cand.pairs[:, s, :-1]
        valid = ids >= 0
        rank[ids[valid], s] = np.nonzero(valid)[1] + 1
    ranks = rank[np.where(where < 0, cand.n_pairs, where)]  # pairs × runs, 0: not retrieved
    depth = max(int(ranks.max()), 1)
    positive = [k for k in grades if k > 0]
    table = np.zeros((depth + 1, len(grades)))  # row 0: not retrieved
    if positive:
        found = contribution_table(runs, measure, positive, depth, relevance_level)
        for j, k in enumerate(grades):
            if k > 0:
                table[1:, j] = found[:, positive.index(k)]
    values = table[ranks] / len(topics)  # pairs × runs × grades
    grade_of = {k: j for j, k in enumerate(grades)}
    column = np.array([grade_of[k] for k in auto["rel"].to_numpy()], dtype=np.intp)
    own = np.take_along_axis(values, column[:, None, None], axis=2)[:, :, 0]
    topic_of = pd.Index(topics).get_indexer(auto["topic"])
    sums = np.stack([np.bincount(topic_of, weights=own[:, s], minlength=len(topics))
                     for s in range(len(runs))], axis=1) * len(topics)
    return values, sums

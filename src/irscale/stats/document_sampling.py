"""Significance with documents as a sample (Cormack & Lynam, SIGIR 2006, "Statistical
precision of information retrieval evaluation"; Robertson & Kanoulas, SIGIR 2012, "On
per-topic variance in IR evaluation").

The collection is a sample from a larger population of documents, so a per-topic score
(AP, P@k) is itself an estimate, with a variance of its own due to the sampling of the
documents (and of their judgments); the usual tests treat every per-topic score as exact.

Per-topic variance: the document bootstrap (Cormack & Lynam 2006, §3)
    Every bootstrap sample of the collection gives each document d of a topic
    (the documents the runs retrieve and the judged ones) a multiplicity w_d, drawn
    independently from Poisson(1) — the Poisson bootstrap, the large-collection limit of
    drawing the collection's documents with replacement (irscale's reading: the paper
    resamples the collection; this keeps the topics' samples independent and needs no
    collection size). In a sample a run ranks each of its documents w_d times in a row at
    its place (w_d = 0: the document is absent) and the topic has R* = Σ_{relevant d} w_d
    relevant documents (relevant: degree ≥ 1, unjudged documents not relevant, as
    trec_eval). Then AP* = (1/R*) Σ_{relevant copies at positions i} P@i (0 when R* = 0,
    as trec_eval for a topic without relevant documents) and P@k* = (relevant copies in
    the first k)/k. The two systems are drawn with the same weights (they search one
    collection), so v_t = var_b(x*_t − y*_t) (ddof 1) is the document-sampling variance
    of the topic's difference d_t = x_t − y_t. Draws: one PCG64 stream from the seed;
    topic by topic in the order given, a B × (documents of the topic) array of Poisson(1),
    the topic's documents in order of first appearance in run x, run y, then the qrels.
    A run ranks by decreasing score, ties by decreasing docno (trec_eval).

Combining document and topic variance (Robertson & Kanoulas 2012, §5)
    ``model="mixed"``: the mixed-effects model d_t = δ + u_t + e_t, u_t ~ N(0, σ²) the
    topic's own effect (topic variance), e_t ~ N(0, v_t) the document sampling with the
    estimated v_t taken as known. σ² is estimated by the moment estimator of DerSimonian
    & Laird (1986): σ̂² = max(0, (Q − (n − 1))/(Σw − Σw²/Σw)), w = 1/v_t,
    Q = Σ w (d_t − d̄_w)² (irscale's choice of estimator; equal to statsmodels'
    ``combine_effects(method_re="chi2")``, tested); then δ̂ = Σ w* d_t/Σ w*,
    w* = 1/(σ̂² + v_t), SE = 1/√Σw*, z = δ̂/SE and a normal interval.
    ``model="documents"``: the topics fixed, only the documents random (the view of
    Cormack & Lynam's intervals): δ̂ = mean d_t, SE = √(Σ v_t)/n.
    A topic with v_t = 0 (both runs unchanged by every sample) is refused by the mixed
    model (an infinite weight) unless ``min_variance`` sets a floor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from ..core.notebook import HtmlRepr
from ..core.progress import ProgressArg, check_progress, progress_reporter
from ..errors import InputError, ParameterError
from .names import DOCUMENT_MODELS, document_sampling_cutoff
from .params import DOCUMENT_VARIANCE
from .protocol import ConfidenceInterval, Unpacks, check_confidence_level, format_table
from .resampling import RngArg, seed_sequence
from .tables import Format
from .validation import check_alpha

#: The models of :func:`document_sampling_test`.
MODELS: tuple[str, ...] = DOCUMENT_MODELS
Judgments = Mapping[str, Mapping[str, int]]
Ranked = Mapping[str, Mapping[str, float]]


def _ranking(run: Mapping[str, float]) -> list[str]:
    """Documents by decreasing score, ties by decreasing docno (trec_eval)."""
    return [d for d, _ in sorted(run.items(), key=lambda item: (item[1], item[0]),
                                 reverse=True)]


def _scores(weights: np.ndarray, relevant: np.ndarray, n_relevant: np.ndarray,
            k: int | None) -> np.ndarray:
    """AP* or P@k* of one ranking in every sample: ``weights`` B × L (multiplicities of
    the ranked documents), ``relevant`` L, ``n_relevant`` B (R*)."""
    ends = np.cumsum(weights, axis=1)
    starts = ends - weights  # copies before the document
    if k is not None:
        inside = np.clip(k - starts, 0, weights)
        return (inside * relevant).sum(axis=1) / k
    rel_before = np.cumsum(weights * relevant, axis=1) - weights * relevant
    total = np.zeros(weights.shape[0])
    for m in range(1, int(weights.max(initial=0)) + 1):
        copy = (weights >= m) & relevant.astype(bool)
        total += np.where(copy, (rel_before + m) / np.maximum(starts + m, 1), 0.0).sum(axis=1)
    return np.divide(total, n_relevant, out=np.zeros_like(total), where=n_relevant > 0)


@DOCUMENT_VARIANCE
def document_variance(qrels: Judgments, run_x: Ranked, run_y: Ranked, measure: str = "AP",
                      *, samples: int = 1000, rng: RngArg = None,
                      progress: ProgressArg = False) -> pd.DataFrame:
    """Per topic (of ``qrels`` that both runs retrieve for): the scores x_t, y_t, the
    difference d_t and its document-bootstrap variance v_t (module docstring). ``qrels``
    ``{topic: {docno: degree}}``, runs ``{topic: {docno: score}}``; a variance needs
    ``samples`` ≥ 2. ``progress``: the topics done, shown on standard error (``True``) or
    given to a callable ``(done, total)``. Parameters checked on entry:
    :data:`irscale.stats.params.DOCUMENT_VARIANCE`."""
    check_progress(progress)
    k = document_sampling_cutoff(measure)
    gen = np.random.Generator(np.random.PCG64(seed_sequence(rng=rng)))
    rows = []
    report = progress_reporter(progress, len(qrels), "document bootstrap")
    for done, topic in enumerate(qrels):
        report(done)
        if topic not in run_x or topic not in run_y:
            continue
        judged = qrels[topic]
        rank_x, rank_y = _ranking(run_x[topic]), _ranking(run_y[topic])
        docs = list(dict.fromkeys([*rank_x, *rank_y, *judged]))
        index = {d: i for i, d in enumerate(docs)}
        rel = np.array([1.0 if judged.get(d, 0) >= 1 else 0.0 for d in docs])
        weights = gen.poisson(1.0, size=(samples, len(docs)))
        observed = np.ones((1, len(docs)), dtype=np.int64)
        n_rel = weights @ rel
        scores = []
        for ranking in (rank_x, rank_y):
            at = [index[d] for d in ranking]
            scores.append((_scores(observed[:, at], rel[at], np.array([rel.sum()]), k)[0],
                           _scores(weights[:, at], rel[at], n_rel, k)))
        (x, xs), (y, ys) = scores
        rows.append({"topic": topic, "x": x, "y": y, "d": x - y,
                     "v": float(np.var(xs - ys, ddof=1))})
    report(len(qrels))
    if not rows:
        raise InputError("no topic of the qrels is retrieved by both runs")
    return pd.DataFrame(rows)


@dataclass(frozen=True, eq=False)
class DocumentSamplingResult(Unpacks, HtmlRepr):
    """The test of a difference with per-topic document-sampling variances.

    ``diff`` is δ̂, ``se`` its standard error, ``statistic`` z, ``pvalue`` two-sided;
    ``tau2`` the estimated topic variance σ̂² (``model="mixed"``; 0 for ``"documents"``);
    ``topics`` the per-topic frame (``d``, ``v``, ``weight``)."""

    model: str
    diff: float
    se: float
    statistic: float
    pvalue: float
    tau2: float
    alpha: float
    topics: pd.DataFrame

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The normal interval δ̂ ± z_{(1+level)/2} SE."""
        level = check_confidence_level(confidence_level)
        half = float(sps.norm.ppf(0.5 + level / 2.0)) * self.se
        return ConfidenceInterval(self.diff - half, self.diff + half)

    def to_frame(self) -> pd.DataFrame:
        low, high = self.confidence_interval(1.0 - self.alpha)
        return pd.DataFrame([{"model": self.model, "diff": self.diff, "se": self.se,
                              "ci_low": low, "ci_high": high, "z": self.statistic,
                              "p": self.pvalue, "tau2": self.tau2,
                              "topics": len(self.topics)}])

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        title = (f"document sampling ({self.model}): Cormack & Lynam 2006, Robertson & "
                 "Kanoulas 2012")
        return format_table(self.to_frame(), fmt, digits=digits, title=title)

    def __repr__(self) -> str:
        return (f"DocumentSamplingResult({self.model}: diff={self.diff:.4g}, "
                f"se={self.se:.4g}, z={self.statistic:.4g}, p={self.pvalue:.4g})")


def document_sampling_test(d: Sequence[float] | np.ndarray, v: Sequence[float] | np.ndarray,
                           *, model: str = "mixed", alpha: float = 0.05,
                           min_variance: float = 0.0,
                           topics: Sequence[str] | None = None) -> DocumentSamplingResult:
    """The test of the mean difference from per-topic differences ``d`` and their
    document-sampling variances ``v`` (:func:`document_variance`; module docstring)."""
    alpha = check_alpha(alpha)
    if model not in MODELS:
        raise ParameterError(f"model must be one of {list(MODELS)}, got {model!r}")
    diffs = np.asarray(d, dtype=np.float64)
    var = np.maximum(np.asarray(v, dtype=np.float64), float(min_variance))
    if diffs.ndim != 1 or diffs.shape != var.shape:
        raise ParameterError("d and v must be two vectors of the same length (one value "
                             "per topic)")
    if len(diffs) < 2:
        raise InputError(f"the document-sampling test needs two topics at least, got "
                         f"{len(diffs)}")
    if not (np.all(np.isfinite(diffs)) and np.all(np.isfinite(var)) and np.all(var >= 0)):
        raise InputError("the differences and variances must be finite, the variances ≥ 0")
    n = len(diffs)
    names = [str(t) for t in topics] if topics is not None else [str(i + 1) for i in range(n)]
    if len(names) != n:
        raise ParameterError(f"topics names {len(names)} topics for {n} differences")
    if model == "documents":
        tau2, weight = 0.0, np.full(n, 1.0 / n)
        diff, se = float(diffs.mean()), float(np.sqrt(var.sum()) / n)
    else:
        if np.any(var <= 0):
            flat = [names[i] for i in np.flatnonzero(var <= 0)]
            raise InputError(f"{len(flat)} topic(s) with a document-sampling variance of 0 "
                             f"(their scores change in no sample), e.g. topic {flat[0]!r}: "
                             "the mixed model would weigh them infinitely; use the topics-"
                             "fixed model (--model documents, model='documents') or a "
                             "floor (min_variance=)")
        w = 1.0 / var
        mean_w = float(np.sum(w * diffs) / w.sum())
        q = float(np.sum(w * (diffs - mean_w) ** 2))
        tau2 = max(0.0, (q - (n - 1)) / float(w.sum() - np.sum(w ** 2) / w.sum()))
        star = 1.0 / (var + tau2)
        weight = star / star.sum()
        diff, se = float(np.sum(weight * diffs)), float(1.0 / np.sqrt(star.sum()))
    if se <= 0:
        raise InputError("the standard error is 0: no document-sampling variance on any topic")
    z = diff / se
    frame = pd.DataFrame({"topic": names, "d": diffs, "v": var, "weight": weight})
    return DocumentSamplingResult(model, diff, se, float(z),
                                  float(2.0 * sps.norm.sf(abs(z))), float(tau2), alpha, frame)

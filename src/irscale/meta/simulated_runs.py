"""Stochastic simulation of runs from qrels, of controlled effectiveness.

After Parapar, Losada, Presedo-Quindimil & Barreiro (JASIST 2020, "Using Score Distributions
to Compare Statistical Significance Tests for Information Retrieval Evaluation") and
Parapar, Losada & Barreiro (SAC 2021, "Testing the tests: simulation of rankings to compare
statistical significance tests in IR evaluation"): a run is generated from the qrels by
drawing a retrieval score for every document and ranking by it, the score distributions of
relevant and non-relevant documents setting how good the run is. irscale's model is the
binormal one of score-distribution modelling:

* the documents of topic t are the documents the qrels judge for t (topics with no
  relevant document are left out: every run scores the same on them);
* system s gives a relevant document (degree ≥ ``relevance_level``) the score
  q_s + e and any other document the score e, with e ~ N(0, 1) independent: the
  *quality* q_s is the separation (d′) of the two distributions;
* the run ranks the documents by score, cut at ``depth``.

Since a larger q_s moves every relevant document's score up (for the same e), every
relevant document ranks no lower, and a measure that grows when a relevant document moves
up (AP, nDCG, P@k, RR, ...) grows: systems of equal quality have the same distribution of
scores (a true difference of exactly 0: Type I errors), and of two systems the one of
higher quality has the higher expected score (the sign of the truth). The true mean of a
system, (1/T) Σ_t E[M_t(q_s)], has no closed form: :meth:`RunsModel.means` estimates it
by Monte Carlo (``truth_draws`` runs per distinct quality, a stream of its own), one
estimate per distinct quality, so that systems of equal quality have equal means exactly.

Parapar et al. (2020) fit the score distributions to real runs and (2021) simulate the
ranks of relevant documents directly; irscale's binormal model with a prescribed
separation is the simplest member of that family, stated so that its truth is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..core.inputs import Qrels, Run
from ..core.notebook import HtmlRepr
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..errors import InputError, ParameterError
from ..evaluation import evaluate
from ..io.memory import run_from_frame
from ..io.sources import as_qrels
from ..stats.resampling import RngArg, check_rng
from ..stats.tables import Format
from .common import format_frame, generator, seed_sequence
from .params import DEFAULT_TRUTH_DRAWS, EFFECT, RUNS_MODEL

#: Monte Carlo runs per distinct quality that estimate the true means.
TRUTH_DRAWS = DEFAULT_TRUTH_DRAWS
#: The seed of the truth's Monte Carlo stream (fixed: the truth is part of the model).
TRUTH_SEED = 2021

__all__ = ["RunsModel", "SimulatedRuns", "simulate_runs"]


@dataclass(frozen=True, eq=False)
class RunsModel:
    """Runs of ``qualities`` (one per system) drawn from ``qrels`` and scored with
    ``measure``: a model of :func:`irscale.meta.simulation_study` (module documentation).
    Build it with :meth:`of`."""

    qrels: Qrels
    qualities: tuple[float, ...]
    measure: str
    depth: int
    relevance_level: int
    truth_draws: int
    topic: np.ndarray = field(repr=False)
    docno: np.ndarray = field(repr=False)
    relevant: np.ndarray = field(repr=False)
    _means: np.ndarray = field(repr=False)

    @classmethod
    @RUNS_MODEL
    def of(cls, qrels: object, qualities: Sequence[float], *, measure: str = "AP",
           depth: int = 1000, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
           truth_draws: int = TRUTH_DRAWS) -> RunsModel:
        """The model of ``qrels`` (any qrels spec) with one system per quality (``depth``,
        ``relevance_level`` and ``truth_draws`` checked on entry:
        :data:`irscale.meta.params.RUNS_MODEL`)."""
        qualities = tuple(float(EFFECT.check(q, "qualities: a quality")) for q in qualities)
        if len(qualities) < 2:
            raise ParameterError(f"qualities: give one per system, at least 2, got "
                                 f"{qualities!r}", param="qualities")
        if not isinstance(measure, str) or len(measure.split()) != 1:
            raise ParameterError(f"measure must be one measure name, got {measure!r}",
                                 param="measure")
        judged = as_qrels(qrels)
        topic = np.asarray(judged.topic.to_pylist(), dtype=object)
        docno = np.asarray(judged.docno.to_pylist(), dtype=object)
        relevant = judged.rel >= relevance_level
        with_relevant = set(topic[relevant])
        keep = np.isin(topic, list(with_relevant)) & (judged.rel >= 0)
        if not with_relevant:
            raise InputError(f"qrels ({judged.source}): no topic has a document of degree "
                             f">= {relevance_level}: no run to simulate")
        model = cls(judged, qualities, measure, depth, relevance_level, truth_draws,
                    topic[keep], docno[keep], relevant[keep], np.zeros(0))
        object.__setattr__(model, "_means", model._truth())
        return model

    @property
    def systems(self) -> int:
        return len(self.qualities)

    @property
    def topics(self) -> int:
        return len(set(self.topic))

    def means(self) -> np.ndarray:
        """The true system means (Monte Carlo estimates; equal for equal qualities)."""
        return self._means.copy()

    def runs(self, gen: np.random.Generator, qualities: Sequence[float] | None = None,
             names: Sequence[str] | None = None) -> list[Run]:
        """One run per quality (default: the model's), drawn from ``gen``."""
        qualities = self.qualities if qualities is None else qualities
        names = [f"sim{s + 1}" for s in range(len(qualities))] if names is None else names
        out = []
        for quality, name in zip(qualities, names, strict=True):
            score = np.where(self.relevant, quality, 0.0) + gen.standard_normal(
                len(self.relevant))
            frame = pd.DataFrame({"query_id": self.topic, "doc_id": self.docno,
                                  "score": score})
            if self.depth < len(frame):
                frame = frame.sort_values(["query_id", "score"], ascending=[True, False])
                frame = frame.groupby("query_id", sort=False).head(self.depth)
            out.append(run_from_frame(frame, name=name, source=f"<simulated run {name}>"))
        return out

    def _scores(self, runs: list[Run]) -> np.ndarray:
        """The topics × runs matrix of ``measure``."""
        matrix = evaluate(self.qrels, runs, self.measure,
                          relevance_level=self.relevance_level).to_matrix()
        order = [matrix.systems.index(run.name) for run in runs]
        topics = sorted(set(self.topic))
        rows = [matrix.topics.index(t) for t in topics]
        return matrix.values[np.ix_(rows, order, [0])][:, :, 0]

    def draw(self, gen: np.random.Generator) -> np.ndarray:
        """A topics × systems matrix of ``measure`` over fresh runs."""
        return self._scores(self.runs(gen))

    def _truth(self) -> np.ndarray:
        distinct = sorted(set(self.qualities))
        gen = generator(seed_sequence(rng=TRUTH_SEED))
        estimate = {}
        for quality in distinct:
            runs = self.runs(gen, [quality] * self.truth_draws,
                             [f"truth{r}" for r in range(self.truth_draws)])
            estimate[quality] = float(self._scores(runs).mean())
        return np.array([estimate[q] for q in self.qualities])

    def describe(self) -> dict[str, Any]:
        import hashlib

        text = "\n".join(f"{t} {d} {r}" for t, d, r in zip(
            self.qrels.topic.to_pylist(), self.qrels.docno.to_pylist(), self.qrels.rel.tolist(),
            strict=True))
        return {"model": "runs", "qualities": list(self.qualities), "measure": self.measure,
                "depth": self.depth, "relevance_level": self.relevance_level,
                "truth_draws": self.truth_draws,
                "sha256": hashlib.sha256(text.encode()).hexdigest()}


@dataclass(frozen=True, eq=False)
class SimulatedRuns(HtmlRepr):
    """Result of :func:`simulate_runs`: ``runs`` (one :class:`~irscale.core.inputs.Run`
    per quality, evaluable with :func:`irscale.evaluate`) and ``means`` (the true mean
    ``measure`` of each, a Series)."""

    runs: list[Run]
    means: pd.Series
    model: RunsModel

    def to_frame(self) -> pd.DataFrame:
        """Every run's rows: ``run``, ``query_id``, ``doc_id``, ``score``."""
        return pd.concat([pd.DataFrame({"run": run.name, "query_id": run.topic.to_pylist(),
                                        "doc_id": run.docno.to_pylist(), "score": run.score})
                          for run in self.runs], ignore_index=True)

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return format_frame(self.to_frame(), fmt, digits=digits)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name} (q={q:g}) {mean:.4f}" for name, q, mean in zip(
            self.means.index, self.model.qualities, self.means, strict=True))
        return f"SimulatedRuns({self.model.topics} topics; true mean {self.model.measure}: " \
            f"{shown})"


def simulate_runs(qrels: object, qualities: Sequence[float], *, measure: str = "AP",
                  depth: int = 1000, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                  truth_draws: int = TRUTH_DRAWS, rng: RngArg = None) -> SimulatedRuns:
    """Runs of the binormal model of ``qrels`` (module documentation), one per quality,
    from the random stream of ``rng`` (a seed or a Generator); their true mean
    ``measure`` estimated by ``truth_draws`` runs per quality."""
    model = RunsModel.of(qrels, qualities, measure=measure, depth=depth,
                         relevance_level=relevance_level, truth_draws=truth_draws)
    runs = model.runs(generator(seed_sequence(rng=check_rng(rng))))
    return SimulatedRuns(runs, pd.Series(model.means(), index=[r.name for r in runs],
                                         name=f"mean {measure}"), model)

"""Replicates and bootstrap ANOVA (Voorhees, Samarov & Soboroff, TOIS 2017, "Using
Replicates in Information Retrieval Evaluation").

Replicates
    Randomly partitioning the document collection into K parts (or any other set of
    exchangeable repetitions: sub-collections, query variants) scores every system on every
    topic K times: y_ijk, topic i, system j, replicate k (:class:`ShardScores`, replicates
    on its shard axis; ``irscale pool shards --shard-scores`` writes them). With one score
    per (topic, system) the topic × system interaction is the error; replicates make it
    estimable, and the model of Voorhees et al. (2017) is

        y_ijk = μ + τ_i + α_j + (τα)_ij + ε_ijk                            ("replicates")

    beside their eq. (2) on the same replicates, y_ijk = μ + τ_i + α_j + ε_ijk
    (``"replicates-main"``, the interaction left in the error). Unlike MD3 of Ferro &
    Sanderson (2022; :mod:`irscale.stats.shards`), the replicates are exchangeable: the
    model has no replicate (shard) effect and no interaction with it. The system effect
    is α̂_j = ȳ_·j· − ȳ_···; the table (SS, df, F, p) is that of the fixed-effects
    ANOVA, every F over the error mean square (what ``statsmodels``' ``anova_lm`` gives).

Unbalanced replicates (systems of different numbers of runs)
    A system given as K_j runs (random seeds, folds: :mod:`irscale.stats.seeds`) has K_j
    replicates on every topic, and systems may differ in K_j (3 seeds against 5). The
    design is then unbalanced but *proportional* (n_ij = K_j on every topic, so n_ij =
    n_i· n_·j / n_··; Searle, *Linear Models for Unbalanced Data*, 1987, §4.9): the topic
    and system factors stay orthogonal and the system tests of type I, II and III sums of
    squares coincide. With c_ij the cell means, m_j = (1/T) Σ_i c_ij the system means and
    ȳ = Σ_j K_j m_j / Σ_j K_j the grand mean, SS_system = T Σ_j K_j (m_j − ȳ)²; with the
    interaction the error is the within-cell SS on df_E = T (Σ_j K_j − J), without it
    SS_E = SS_total − SS_system − SS_topic, SS_topic = (Σ_j K_j) Σ_i (t_i − ȳ)² (t_i the
    topic means over all its scores), on df_E = T Σ_j K_j − T − J + 1; the system effect is
    α̂_j = m_j − (1/J) Σ_j' m_j' (the sum-to-zero coding of ``statsmodels``, its oracle). A
    missing score (``NaN``) is a missing replicate: ``empty="missing"`` (``--empty
    missing``) fits this model when whole replicates are missing (a system's replicate k on
    no topic); other holes are refused. ``resample="replicates"`` draws the replicates of a
    topic for all systems together and is refused; the residuals are drawn from the
    N = T Σ_j K_j observed ones (scaled by √(N/df_E)) into the observed cells.

Bootstrap ANOVA (Voorhees et al. 2017, §3)
    The sampling distribution of the system effects is estimated by the bootstrap
    rather than from the F distribution (IR scores are bounded and skewed). irscale's
    reading, stated where the paper is silent:

    * ``resample="residuals"`` (the paper's): the model is fitted once, giving fitted
      values ŷ_ijk and residuals e_ijk = y_ijk − ŷ_ijk; every bootstrap sample is
      y*_ijk = ŷ_ijk + e*_ijk, the e* drawn with replacement from all N residuals, and the
      model is fitted again. By default the residuals are first scaled by √(N/df_E), so
      that their variance is MS_E, not SS_E/N (Davison & Hinkley 1997, *Bootstrap Methods
      and their Application*, §6.2.3: the raw residuals are too small by the fit's
      degrees of freedom; with K = 3 replicates the intervals would be ≈ 18% narrow);
      ``rescale=False`` draws the raw residuals.
    * ``resample="topics"``: the topics are drawn with replacement (every system and
      replicate of a topic together), the inference about a population of topics.
    * ``resample="replicates"``: within every topic, K replicates are drawn with
      replacement (every system of a replicate together), the collection's variability.

    Draws: one :class:`numpy.random.Generator` (PCG64) from the seed sequence of ``rng``;
    sample b draws N indices in [0, N) (residuals, C order of the topics × systems ×
    replicates array), T in [0, T) (topics), or T × K in [0, K) (replicates), in that
    order, samples one after another.

    Results: every system's effect α̂_j with its bootstrap standard error and percentile
    interval at 1 − α; for every pair the percentile interval of α*_a − α*_b and the
    two-sided bootstrap p = min(1, 2 min(#{d* ≤ 0} + 1, #{d* ≥ 0} + 1)/(B + 1)),
    corrected over the pairs by Benjamini & Hochberg (the false discovery rate the
    paper controls; ``correction=``). The omnibus test of the system effect is the
    bootstrap of F under the null: the same draws applied to the data without the system
    effect (ŷ − α̂_j for residuals, y − α̂_j otherwise) give F*₀, and
    p = (#{F*₀ ≥ F} + 1)/(B + 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..core.progress import ProgressArg, check_progress, progress_reporter
from ..errors import InputError
from .corrections import Correction, adjust_pvalues, correction_name
from .names import RESAMPLE
from .params import BOOTSTRAP_ANOVA, BOOTSTRAP_ANOVA_SAMPLES
from .protocol import ConfidenceInterval, Unpacks, check_confidence_level
from .resampling import RngArg, mc_pvalue, seed_sequence
from .results import AnovaResult, PairwiseComparisons
from .shards import EmptyPolicy, ShardScores, _apply_policy, shard_anova
from .tables import Format, check_digits, json_text, json_value, render
from .validation import TIE_RTOL

Resample = Literal["residuals", "topics", "replicates"]
#: What :func:`bootstrap_anova` resamples (module docstring).
RESAMPLE_UNITS: tuple[str, ...] = RESAMPLE.domain.names
#: Samples per vectorised block: at most this many float64 values per block array.
BLOCK_VALUES = 2_000_000


def _model(interaction: bool) -> str:
    return "replicates" if interaction else "replicates-main"


def replicates_anova(scores: ShardScores, *, interaction: bool = True,
                     empty: EmptyPolicy = "error", transform: str | None = None
                     ) -> AnovaResult:
    """The ANOVA of replicated scores (module docstring): topic + system + topic:system
    (``interaction=True``, Voorhees et al. 2017) or topic + system. ``empty`` and
    ``transform`` are those of :func:`~irscale.stats.shard_anova`."""
    return shard_anova(scores, _model(interaction), empty=empty, transform=transform)


def _layout(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The observed replicates of a topics × systems × replicates array (J × K, the same
    on every topic) and each system's count K_j."""
    observed = ~np.isnan(values[0])
    return observed, observed.sum(axis=1).astype(np.float64)


def _fitted(values: np.ndarray, interaction: bool) -> np.ndarray:
    """Fitted values of the model (module docstring): the cell means c_ij, or
    t_i + m_j − ȳ (NaN where a replicate is missing)."""
    observed, counts = _layout(values)
    cells = np.where(observed, values, 0.0).sum(axis=-1) / counts
    if interaction:
        fitted = np.broadcast_to(cells[..., None], values.shape)
    else:
        topics = (cells * counts).sum(axis=1) / counts.sum()
        fitted = (topics[:, None, None] + cells.mean(axis=0)[None, :, None]
                  - topics.mean())
        fitted = np.broadcast_to(fitted, values.shape)
    return np.where(observed, fitted, np.nan)


def _effects_and_f(block: np.ndarray, interaction: bool, observed: np.ndarray,
                   counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """System effects (samples × J) and the system F (samples) of a samples × T × J × K
    block whose systems have ``counts`` replicates (the ``observed`` ones), by the closed
    forms of the proportional design (module docstring; the balanced ones when every
    system has K)."""
    _, t, j, _ = block.shape
    complete = bool(observed.all())  # balanced: no mask to apply (the same values)

    def kept(part: np.ndarray) -> np.ndarray:
        return part if complete else np.where(observed, part, 0.0)

    cells = kept(block).sum(axis=3) / counts
    means = cells.mean(axis=1)
    total = counts.sum()
    grand = (means * counts).sum(axis=1) / total
    effects = means - means.mean(axis=1, keepdims=True)
    ss_system = t * (counts * (means - grand[:, None]) ** 2).sum(axis=1)
    if interaction:
        ss_error = (kept(block - cells[..., None]) ** 2).sum(axis=(1, 2, 3))
        df_error = t * (total - j)
    else:
        topic = (cells * counts).sum(axis=2) / total
        ss_total = (kept(block - grand[:, None, None, None]) ** 2).sum(axis=(1, 2, 3))
        ss_error = ss_total - ss_system - total * ((topic - grand[:, None]) ** 2).sum(axis=1)
        df_error = t * total - t - j + 1
    with np.errstate(divide="ignore", invalid="ignore"):
        f = (ss_system / (j - 1)) / (ss_error / df_error)
    return effects, f


def _draw(gen: np.random.Generator, resample: str, size: int, shape: tuple[int, int, int],
          observed: int) -> np.ndarray:
    """The indices of ``size`` samples (module docstring, "Draws"; ``observed``: the N
    scores whose residuals are drawn)."""
    t, _, k = shape
    if resample == "residuals":
        return gen.integers(0, observed, size=(size, observed))
    if resample == "topics":
        return gen.integers(0, t, size=(size, t))
    return gen.integers(0, k, size=(size, t, k))


def _apply(values: np.ndarray, base: np.ndarray, residuals: np.ndarray, resample: str,
           index: np.ndarray) -> np.ndarray:
    """The samples × T × J × K block of ``index`` drawn from ``values`` (topics,
    replicates) or from ``base`` + the observed residuals, in the observed cells
    (residuals)."""
    if resample == "residuals":
        cells = ~np.isnan(values.ravel())
        if cells.all():  # balanced: every cell observed
            return base[None] + residuals.ravel()[index].reshape(len(index), *values.shape)
        block = np.full((len(index), values.size), np.nan)
        block[:, cells] = base.ravel()[cells] + residuals.ravel()[cells][index]
        return block.reshape(len(index), *values.shape)
    if resample == "topics":
        return values[index]
    topic = np.arange(values.shape[0])[None, :, None]
    # values[i, :, index[b, i, k]] for every b, i, k: replicates of a topic drawn together
    return np.moveaxis(values[topic, :, index], -1, 2)


def _missing_replicates(scores: ShardScores, empty: str, resample: str) -> None:
    """Refuse the missing scores the bootstrap cannot model (module docstring, "Unbalanced
    replicates"), saying what to do."""
    missing = np.isnan(scores.values)
    if not missing.any():
        return
    whole = missing.all(axis=0)
    counts = (~whole).sum(axis=1)
    partial = missing & ~whole[None]
    if empty == "error" and not partial.any() and (counts > 0).all():
        described = ", ".join(f"{s!r} {int(c)}" for s, c in zip(scores.systems, counts,
                                                                strict=True))
        raise InputError(f"the systems have different numbers of replicates (runs: "
                         f"{described}): choose --empty missing (empty='missing') for the "
                         "unbalanced model, or drop-shard to keep only the replicates every "
                         "system has (zero would score the missing runs 0)")
    if empty != "missing":
        return
    if partial.any():
        t, s, k = (int(i[0]) for i in np.nonzero(partial))
        raise InputError(f"the bootstrap ANOVA models missing replicates only whole (a "
                         f"system's replicate missing on every topic: systems of different "
                         f"numbers of runs); topic {scores.topics[t]!r}, system "
                         f"{scores.systems[s]!r}, shard {scores.shards[k]!r} is missing on "
                         "some topics only: choose the empty-shard policy zero, drop-topic "
                         "or drop-shard", **scores.where(t, s, k))
    if (counts == 0).any():
        raise InputError(f"system {scores.systems[int(np.argmin(counts))]!r} has no score: "
                         "leave it out")
    if resample == "replicates":
        raise InputError("resample='replicates' (--resample replicates) draws a topic's "
                         "replicates for every system together: systems of different "
                         "numbers of replicates have none to draw together; resample "
                         "residuals or topics")


@dataclass(frozen=True, eq=False)
class BootstrapAnovaResult(Unpacks, HtmlRepr):
    """The bootstrap ANOVA of replicated scores (:func:`bootstrap_anova`).

    ``table`` is the ANOVA of the model (:func:`replicates_anova`); ``effects`` the
    system effects α̂_j = ȳ_·j· − ȳ_···, ``means`` the system means, ``effect_samples``
    the B × J bootstrap effects and ``f_samples`` the B values of F under the null.
    ``pairs`` are the pairwise decisions (percentile intervals, bootstrap p-values
    corrected by ``pairs.correction``).

    Protocol: ``statistic`` is the system F of the table, ``pvalue`` its bootstrap p,
    ``effect_size`` the table's ω² of the system; :meth:`confidence_interval` the
    percentile intervals of the system effects at any level; ``to_frame()`` one row per
    system; ``format(fmt)``.
    """

    table: AnovaResult
    resample: str
    rescaled: bool
    samples: int
    alpha: float
    systems: tuple[str, ...]
    means: np.ndarray
    effects: np.ndarray
    effect_samples: np.ndarray
    f_samples: np.ndarray
    f_pvalue: float
    pairs: PairwiseComparisons
    json_key = "bootstrap_anova"

    @property
    def statistic(self) -> float | None:
        """F of the system factor in :attr:`table`."""
        return self.table.statistic

    @property
    def pvalue(self) -> float:
        """The bootstrap p-value of the system F (module docstring)."""
        return self.f_pvalue

    @property
    def effect_size(self) -> float | None:
        """ω² of the system factor in :attr:`table`."""
        return self.table.effect_size

    @property
    def standard_errors(self) -> np.ndarray:
        """The bootstrap standard error of every system effect (ddof = 1)."""
        return self.effect_samples.std(axis=0, ddof=1)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Percentile intervals of the system effects (arrays in the order of ``systems``)."""

        def compute(level: float) -> tuple[np.ndarray, np.ndarray]:
            tail = (1.0 - level) / 2.0
            low, high = np.quantile(self.effect_samples, [tail, 1.0 - tail], axis=0)
            return low, high

        level = check_confidence_level(confidence_level)
        return ConfidenceInterval(*compute(level))

    def to_frame(self) -> pd.DataFrame:
        low, high = self.confidence_interval(1.0 - self.alpha)
        return pd.DataFrame({"system": list(self.systems), "mean": self.means,
                             "effect": self.effects, "se": self.standard_errors,
                             "ci_low": low, "ci_high": high})

    def summary(self) -> str:
        scaled = ", rescaled" if self.resample == "residuals" and self.rescaled else ""
        return (f"bootstrap ANOVA ({self.resample}{scaled}, B = {self.samples}) of "
                f"{self.table.model}: F = {self.statistic:.6g}, bootstrap p = "
                f"{self.f_pvalue:.4g}; effects with {1 - self.alpha:.0%} percentile intervals")

    def json_rows(self) -> list[dict[str, object]]:
        """The table's rows, then one record per system effect."""
        effects = [{str(k): json_value(v) for k, v in row.items()}
                   for row in self.to_frame().to_dict("records")]
        return [*self.table.json_rows(), *effects]

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        digits = check_digits(digits)
        if fmt == "json":
            return json_text({self.json_key: self.json_rows()}, indent=2) + "\n"
        table = self.table.format(fmt, digits=digits)
        title = None if fmt == "csv" else self.summary()
        return table + "\n" + render(self.to_frame(), fmt, digits=digits, title=title)

    def __repr__(self) -> str:
        return f"BootstrapAnovaResult({self.summary()})"


def _pairs(result_effects: np.ndarray, samples: np.ndarray, means: np.ndarray,
           systems: tuple[str, ...], alpha: float, correction: Correction | None,
           label: str) -> PairwiseComparisons:
    i, j = np.triu_indices(len(systems), k=1)
    diff = result_effects[i] - result_effects[j]
    draws = samples[:, i] - samples[:, j]
    count = samples.shape[0]
    low, high = np.quantile(draws, [alpha / 2.0, 1.0 - alpha / 2.0], axis=0)
    below, _ = mc_pvalue(np.count_nonzero(draws <= 0.0, axis=0), count, "plus-one")
    above, _ = mc_pvalue(np.count_nonzero(draws >= 0.0, axis=0), count, "plus-one")
    raw = np.minimum(1.0, 2.0 * np.minimum(below, above))
    name = correction_name(correction)
    adjusted = adjust_pvalues(raw, name)
    names = np.array(systems, dtype=object)
    return PairwiseComparisons(
        method=f"bootstrap ANOVA ({label})", alpha=alpha,
        columns={"a": names[i], "b": names[j], "mean_a": means[i], "mean_b": means[j],
                 "diff": diff, "ci_low": low, "ci_high": high, "p_raw": raw, "p": adjusted,
                 "significant": adjusted <= alpha},
        correction=None if name == "none" else name, samples=count,
        convention="plus-one, two-sided (2 × the smaller tail)",
        note="percentile intervals of the bootstrap differences of system effects")


@BOOTSTRAP_ANOVA
def bootstrap_anova(
    scores: ShardScores,
    *,
    interaction: bool = True,
    resample: Resample = "residuals",
    samples: int = 1000,
    alpha: float = 0.05,
    correction: Correction | None = "bh",
    rescale: bool = True,
    empty: EmptyPolicy = "error",
    rng: RngArg = None,
    progress: ProgressArg = False,
) -> BootstrapAnovaResult:
    """Bootstrap ANOVA of replicated scores (Voorhees et al. 2017; module docstring).

    ``interaction``: the model with topic:system (default) or without; ``resample``:
    ``"residuals"`` (the paper's), ``"topics"`` or ``"replicates"``; ``samples``: B;
    ``alpha``: level of the intervals and decisions; ``correction``: of the pairwise
    p-values (default Benjamini–Hochberg); ``rescale``: residuals scaled to variance MS_E;
    ``empty``: the empty-shard policy of :func:`~irscale.stats.shard_anova`, which must
    leave complete data; ``rng``: seed or generator. The intervals and standard errors
    need two samples at least (``samples`` ≥ 2). ``progress``: the samples drawn, shown
    on standard error (``True``) or given to a callable ``(done, total)``. Parameters
    checked on entry: :data:`irscale.stats.params.BOOTSTRAP_ANOVA`.
    """
    check_progress(progress)
    correction_name(correction)
    if len(scores.shards) < 2 and (interaction or resample == "replicates"):
        raise InputError("1 replicate: the topic × system interaction and the resampling "
                         "of replicates need two replicates at least")
    _missing_replicates(scores, empty, resample)
    table = replicates_anova(scores, interaction=interaction, empty=empty)
    values = _apply_policy(scores, empty)[0]
    t, j, k = values.shape
    observed, counts = _layout(values)
    if k < 2 and (interaction or resample == "replicates"):
        raise InputError(f"{k} replicate left by the empty-shard policy {empty}: the "
                         "topic × system interaction and the resampling of replicates need "
                         "two replicates at least")
    fitted = _fitted(values, interaction)
    means = np.where(observed, values, 0.0).sum(axis=(0, 2)) / (t * counts)
    effects = means - means.mean()
    residuals = values - fitted
    size = int(t * counts.sum())  # the observed scores
    if rescale:
        residuals = residuals * np.sqrt(size / table.df_error)
    null_values = values - effects[None, :, None]
    null_fitted = fitted - effects[None, :, None]
    observed_f = float(table.statistic or 0.0)
    gen = np.random.Generator(np.random.PCG64(seed_sequence(rng=rng)))
    block = max(1, BLOCK_VALUES // values.size)
    effect_parts, f_parts = [], []
    report = progress_reporter(progress, samples, "bootstrap ANOVA",
                               units=BOOTSTRAP_ANOVA_SAMPLES)
    for start in range(0, samples, block):
        index = _draw(gen, resample, min(block, samples - start), (t, j, k), size)
        effect_parts.append(_effects_and_f(
            _apply(values, fitted, residuals, resample, index), interaction, observed,
            counts)[0])
        f_parts.append(_effects_and_f(
            _apply(null_values, null_fitted, residuals, resample, index), interaction,
            observed, counts)[1])
        report(min(start + block, samples))
    effect_samples = np.concatenate(effect_parts)
    f_samples = np.concatenate(f_parts)
    exceed = int(np.count_nonzero(f_samples >= observed_f - TIE_RTOL * abs(observed_f)))
    f_p, _ = mc_pvalue(exceed, samples, "plus-one")
    label = resample + (", rescaled" if resample == "residuals" and rescale else "")
    return BootstrapAnovaResult(
        table=table, resample=resample, rescaled=rescale, samples=samples, alpha=alpha,
        systems=scores.systems, means=means, effects=effects,
        effect_samples=effect_samples, f_samples=f_samples, f_pvalue=float(f_p),
        pairs=_pairs(effects, effect_samples, means, scores.systems, alpha, correction,
                     label))


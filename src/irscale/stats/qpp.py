"""Evaluation of query performance predictors: sARE, sMARE and their ANOVA.

sARE and sMARE (Faggioli, Zendel, Culpepper, Ferro & Scholer 2021, "An Enhanced
Evaluation Framework for Query Performance Prediction", ECIR)
    For a set Q of queries run by one system, a predictor p scores every query and the
    system's effectiveness (e.g. AP) measures it; r^p_q and r^e_q are the ranks of query q
    among Q by the prediction and by the effectiveness. The scaled absolute rank error of
    q is sARE_q = |r^p_q − r^e_q| / |Q| (in [0, 1); 0: the predictor placed q exactly
    where its effectiveness does) and sMARE = (1/|Q|) Σ_q sARE_q, the mean, replaces the
    correlation of predictions with effectiveness as a point estimate: lower is better.
    Tied values take the mean of the ranks they span (``scipy.stats.rankdata``'s
    ``"average"``), a choice the paper leaves open.

ANOVA of sARE (Faggioli et al. 2021; the models of :mod:`irscale.stats.anova`)
    sARE_q is one observation per topic, predictor and, where the data have them, IR
    system and query variant: a crossed design with one score per cell, analysed by
    ANOVA with the predictor as the factor of interest (its marginal means are the
    predictors' sMARE; Tukey's HSD compares them: ``result.anova.tukey_hsd()``). The
    default model is the main effects of every factor present plus the predictor's
    interactions with the system and the variant (``topic + predictor + system + variant +
    predictor:system + predictor:variant``), the shape of the paper's models: MD1, topic +
    predictor, for one system and one formulation; the IR system and the query formulation
    as further factors, with their interactions with the predictor. ``model=`` takes any
    formula over the factors (``:`` for interactions), so another of the paper's models
    can be fit; the error term is what the model leaves.
Query variants
    Each topic may be run as several query variants (formulations, as in UQV100); variant
    ``k`` of every topic forms one query set, over which the ranks are taken (the variant
    labels must be the same for every topic, e.g. the formulations ordered by popularity).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ..core import ScoreMatrix
from ..core.notebook import HtmlRepr
from ..core.numbers import declare, declared, infinite, undefined
from ..core.progress import ProgressArg, check_progress, counted_work
from ..errors import InputError, ParameterError
from ._factorial import parse_model
from .anova import fit_model
from .names import QPP_OPTIONAL_FACTORS as OPTIONAL_FACTORS
from .params import QPP, QPP_ACROSS, QPP_COMPARE, QPP_CORRELATIONS, QPP_SAMPLES
from .resampling import RngArg
from .results import AnovaResult
from .tables import Format, check_digits, json_text, records, render
from .validation import as_floats


def sare(predicted: object, observed: object) -> np.ndarray:
    """sARE_q = |r^p_q − r^e_q| / |Q| of every query (module docstring): ``predicted`` and
    ``observed`` are 1-D, one value per query, in the same order."""
    p = as_floats(predicted, "predicted")
    e = as_floats(observed, "observed")
    if p.ndim != 1 or p.shape != e.shape or len(p) < 2:
        raise InputError("sARE needs the predictions (predicted) and the effectiveness "
                         "(observed) of the same "
                         f"queries, two at least (got {p.shape} and {e.shape})")
    if not (np.isfinite(p).all() and np.isfinite(e).all()):
        raise InputError("sARE needs finite predictions and effectiveness scores")
    return _ranks(p, e)[2]


def _ranks(predicted: np.ndarray, observed: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ranks of the queries (axis 0) by prediction and by effectiveness, and sARE."""
    ranks_p = stats.rankdata(predicted, axis=0)
    ranks_e = stats.rankdata(observed, axis=0)
    return ranks_p, ranks_e, np.abs(ranks_p - ranks_e) / predicted.shape[0]


def smare(predicted: object, observed: object) -> float:
    """sMARE, the mean sARE over the queries (module docstring)."""
    return float(sare(predicted, observed).mean())


@dataclass(frozen=True, eq=False)
class QppResult(HtmlRepr):
    """sARE of every topic, predictor (system, variant) and the ANOVA of them.

    ``scores`` has one row per cell: the factors, ``predicted``, ``observed``, their ranks
    among the topics and ``sare``; ``anova`` is the ANOVA of sARE with the predictor as
    target (its ``tukey_hsd()`` compares the predictors). ``to_frame()``: the sMARE of
    every predictor, best (lowest) first.
    """

    factors: tuple[str, ...]
    scores: pd.DataFrame
    anova: AnovaResult

    def smare(self, by: tuple[str, ...] = ()) -> pd.DataFrame:
        """sMARE of every predictor, or of every predictor and level of the factors ``by``
        (``("system",)``: one value per predictor and system)."""
        unknown = [f for f in by if f not in self.factors or f in ("topic", "predictor")]
        if unknown:
            raise ParameterError(f"by: {unknown[0]!r} is not one of the factors "
                                 f"{[f for f in self.factors if f not in ('topic', 'predictor')]}")
        keys = ["predictor", *by]
        frame = self.scores.groupby(keys, sort=False)["sare"].mean().rename("smare")
        return frame.reset_index()

    def to_frame(self) -> pd.DataFrame:
        return self.smare().sort_values("smare", kind="stable").reset_index(drop=True)

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The sMARE table then the ANOVA table, as ``text``, ``csv`` (two sections),
        ``markdown``, ``latex`` or ``json`` (``{"smare": ..., "anova": ...}``)."""
        digits = check_digits(digits)
        frame = self.to_frame()
        if fmt == "json":
            return json_text({"smare": records(frame), "anova": self.anova.json_rows()},
                             indent=2) + "\n"
        first = render(frame, fmt, digits=digits,
                       title=None if fmt == "csv" else self.summary())
        return first + "\n" + self.anova.format(fmt, digits=digits)

    def summary(self) -> str:
        levels = ", ".join(f"{self.scores[f].nunique()} {f}s" for f in self.factors)
        return f"sMARE of query performance predictors ({levels}; lower is better)"

    def __repr__(self) -> str:
        best = self.to_frame().iloc[0]
        return (f"QppResult({self.summary()}; best {best['predictor']} sMARE "
                f"{best['smare']:.4f}; predictor F = {self.anova.statistic:.4f}, "
                f"p = {self.anova.pvalue:.4g})")


def _long(frame: object, what: str, keys: list[str]) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"{what}: expected a DataFrame with the columns "
                         f"{', '.join(keys)}, value; got {type(frame).__name__}")
    missing = [c for c in (*keys, "value") if c not in frame.columns]
    if missing:
        raise InputError(f"{what}: no column {missing[0]!r} (columns: {list(frame.columns)})")
    out = frame[[*keys, "value"]].copy()
    for key in keys:
        out[key] = out[key].astype(str)
    values = pd.to_numeric(out["value"], errors="coerce").to_numpy(dtype=np.float64)
    bad = ~np.isfinite(values)
    if bad.any():
        row = out.iloc[int(np.flatnonzero(bad)[0])]
        raise InputError(f"{what}: the value of {_cell(row, keys)} is not a finite number "
                         f"({row['value']!r})")
    out["value"] = values
    twice = out.duplicated(keys)
    if twice.any():
        raise InputError(f"{what}: {_cell(out[twice].iloc[0], keys)} appears twice")
    return out


def _cell(row: pd.Series, keys: list[str]) -> str:
    return ", ".join(f"{k} {row[k]!r}" for k in keys)


def _observed_frame(observed: object, measure: str | None) -> pd.DataFrame | object:
    if not isinstance(observed, ScoreMatrix):
        return observed
    matrix = observed.measure(measure)
    values = matrix.values[:, :, 0]
    t, s = np.indices(values.shape)
    return pd.DataFrame({"topic": np.asarray(matrix.topics)[t.ravel()],
                         "system": np.asarray(matrix.systems)[s.ravel()],
                         "value": values.ravel()})


@dataclass(frozen=True, eq=False)
class _Aligned:
    """Predictions and effectiveness on one grid: ``factors`` (topic, predictor, then
    system and variant where given), their ``levels``, the grid's ``index`` and the
    ``predicted`` and ``observed`` arrays (the latter broadcast over the predictors)."""

    factors: list[str]
    levels: dict[str, tuple[str, ...]]
    index: pd.MultiIndex
    predicted: np.ndarray
    observed: np.ndarray


def _aligned(predictions: object, observed: object, measure: str | None,
             labels: tuple[str, str]) -> _Aligned:
    """The predictions and the effectiveness of :func:`qpp_anova` read and checked: every
    predictor predicts every query, every query has an effectiveness score (a score no
    prediction covers is left out with a warning naming it)."""
    if isinstance(observed, ScoreMatrix) and "system" not in getattr(predictions, "columns", ()):
        raise InputError("a score matrix of effectiveness has one column per system: the "
                         "predictions need a system column")
    if not isinstance(predictions, pd.DataFrame):
        raise InputError(f"{labels[0]}: expected a DataFrame with the columns topic, "
                         f"predictor, value; got {type(predictions).__name__}")
    extra = [f for f in OPTIONAL_FACTORS if f in predictions.columns]
    factors = ["topic", "predictor", *extra]
    pred = _long(predictions, labels[0], factors)
    obs_keys = ["topic", *extra]
    obs = _long(_observed_frame(observed, measure), labels[1], obs_keys)
    levels = {f: tuple(dict.fromkeys(pred[f])) for f in factors}
    if len(levels["predictor"]) < 2 or len(levels["topic"]) < 2:
        raise InputError(f"at least two topics and two predictors are needed, got "
                         f"{len(levels['topic'])} and {len(levels['predictor'])}")
    shape = tuple(len(levels[f]) for f in factors)
    full = pd.MultiIndex.from_product([pd.Index(levels[f]) for f in factors], names=factors)
    table = pred.set_index(factors)["value"].reindex(full)
    _no_missing(table, factors, f"{labels[0]}: no prediction for", ": every predictor needs "
                "one for every topic (system, variant)")
    effect = _effectiveness(obs, obs_keys, levels, labels[1])
    observed_array = np.expand_dims(effect.reshape(
        tuple(len(levels[f]) for f in obs_keys)), 1)
    return _Aligned(factors, levels, full, table.to_numpy().reshape(shape),
                    np.broadcast_to(observed_array, shape))


def _no_missing(table: pd.Series, keys: list[str], what: str, why: str = "") -> None:
    """Refuse ``table`` where a cell of its grid has no value, naming the first."""
    if table.isna().any():
        cell = dict(zip(keys, table.index[table.isna().to_numpy()][0], strict=True))
        raise InputError(f"{what} {_cell(pd.Series(cell), keys)}{why}")


def _effectiveness(obs: pd.DataFrame, keys: list[str], levels: dict[str, tuple[str, ...]],
                   label: str) -> np.ndarray:
    """The effectiveness of every predicted query, in the grid's order."""
    obs_index = pd.MultiIndex.from_product([levels[f] for f in keys], names=keys)
    effect = obs.set_index(keys)["value"]
    if len(keys) == 1:  # pandas 2.1 matches a one-level MultiIndex with no plain Index
        effect.index = pd.MultiIndex.from_arrays([effect.index], names=keys)
    unpredicted = ~effect.index.isin(obs_index)
    if unpredicted.any():
        cell = dict(zip(keys, effect.index[unpredicted][0], strict=True))
        warnings.warn(f"{label}: {int(unpredicted.sum())} effectiveness score(s) of "
                      f"queries no prediction covers left out, e.g. "
                      f"{_cell(pd.Series(cell), keys)}", stacklevel=4)
    effect = effect.reindex(obs_index)
    _no_missing(effect, keys, f"{label}: no effectiveness score for")
    return effect.to_numpy()


@QPP
def qpp_anova(predictions: object, observed: object, *, model: str | None = None,
              measure: str | None = None,
              labels: tuple[str, str] = ("predictions", "observed")) -> QppResult:
    """sARE, sMARE and the ANOVA of query performance predictors (module docstring).

    ``predictions``: a long DataFrame with columns ``topic``, ``predictor``, ``value`` and,
    optionally, ``system`` and ``variant``. ``observed``: the effectiveness of the same
    queries, a long DataFrame with ``topic``, ``value`` and the same optional columns, or
    a :class:`~irscale.core.ScoreMatrix` of topics × systems (``measure`` picks one). Every
    topic needs a prediction of every predictor for every system and variant, and an
    effectiveness score. ``model``: a formula over the factors (default: module docstring).
    ``labels``: how messages name the two inputs (``irscale meta qpp``: their files).
    """
    data = _aligned(predictions, observed, measure, labels)
    factors = data.factors
    ranks_p, ranks_e, values = _ranks(data.predicted, data.observed)
    if np.ptp(values) == 0.0:
        raise InputError(f"every sARE is {float(values.flat[0]):g} (every predictor ranks "
                         "every query set alike): there is no variance to analyse")
    if model is None:
        model = " + ".join([*factors, *(f"predictor:{f}" for f in factors[2:])])
    terms = parse_model(model, factors)
    if ("predictor",) not in terms:
        raise ParameterError(f"the model {model!r} must contain the predictor factor")
    anova = fit_model(values, factors, terms, data.levels["predictor"],
                      name="ANOVA of sARE (Faggioli et al. 2021)", target="predictor")
    scores = data.index.to_frame(index=False).assign(
        predicted=data.predicted.ravel(), observed=data.observed.ravel(),
        rank_predicted=ranks_p.ravel(), rank_observed=ranks_e.ravel(), sare=values.ravel())
    return QppResult(tuple(factors), scores, anova)


# --------------------------------------------------------------------------- correlations
#: The correlations of predictions with effectiveness (the classical evaluation of QPP).
CORRELATIONS: tuple[str, ...] = ("pearson", "kendall", "spearman")
#: The variance factor of Fisher's z of each correlation: 1 for Pearson's r; 1.06 for
#: Spearman's ρ (Fieller, Hartley & Pearson 1957); Kendall's τ has its interval from the
#: bootstrap alone.
_FISHER_FACTOR = {"pearson": 1.0, "spearman": 1.06}


def _correlation(method: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The correlation ``method`` of every row of ``x`` with the same row of ``y`` (rows:
    groups or resamples; NaN where a row is constant)."""
    if method == "kendall":
        return np.array([stats.kendalltau(a, b).statistic for a, b in zip(x, y, strict=True)])
    if method == "spearman":
        x, y = stats.rankdata(x, axis=-1), stats.rankdata(y, axis=-1)
    x = x - x.mean(axis=-1, keepdims=True)
    y = y - y.mean(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (x * y).sum(axis=-1) / np.sqrt((x * x).sum(axis=-1) * (y * y).sum(axis=-1))
    return np.clip(r, -1.0, 1.0)


def fisher_interval(r: np.ndarray, n: int, alpha: float, factor: float = 1.0
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Fisher's z interval of a correlation r on n pairs: tanh(atanh(r) ∓ z_{1−α/2}
    sqrt(factor / (n − 3))) (``scipy.stats.pearsonr(...).confidence_interval()`` with
    factor 1; Fieller et al.'s 1.06 for Spearman's ρ)."""
    half = stats.norm.isf(alpha / 2) * np.sqrt(factor / (n - 3))
    with np.errstate(divide="ignore"):
        z = np.arctanh(r)
    return np.tanh(z - half), np.tanh(z + half)


def _groups(data: _Aligned) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """The query sets of :func:`qpp_correlations`: one row per (predictor, system,
    variant), and the predictions and effectiveness of its topics (groups × topics)."""
    x = np.moveaxis(data.predicted, 0, -1)
    y = np.moveaxis(np.asarray(data.observed), 0, -1)
    keys = data.factors[1:]
    grid = pd.MultiIndex.from_product([data.levels[f] for f in keys], names=keys)
    n = x.shape[-1]
    return grid.to_frame(index=False), x.reshape(-1, n), y.reshape(-1, n)


#: Resamples drawn and computed at a time (the memory of one chunk: CHUNK × topics indices).
CHUNK = 1000


def _resampled(n: int, samples: int, rng: RngArg, progress: ProgressArg, what: str,
               statistic: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``statistic`` of ``samples`` resamples of ``n`` topics drawn with replacement from
    the seed ``rng`` (resamples × values), :data:`CHUNK` resamples at a time, the work
    counted in resamples (:func:`irscale.core.progress.counted_work`: estimated,
    shown, stopped on ^C)."""
    from .resampling import seed_sequence

    gen = np.random.default_rng(seed_sequence(rng=rng))
    report = counted_work(QPP_SAMPLES, samples, what, progress)
    parts, done = [], 0
    while done < samples:
        size = min(CHUNK, samples - done)
        parts.append(statistic(gen.integers(0, n, size=(size, n))))
        done += size
        report(done)
    return np.concatenate(parts)


def defined_percentiles(values: np.ndarray, alpha: float) -> tuple[float, float]:
    """The percentile interval (the α/2 and 1 − α/2 quantiles) of the defined bootstrap
    values; NaN (undefined) with fewer than two (a resample whose ratio or correlation is
    undefined, its topics all tied on one side, is left out and counted by the caller)."""
    kept = values[np.isfinite(values)]
    if kept.size < 2:
        return np.nan, np.nan
    low, high = np.quantile(kept, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


@dataclass(frozen=True, eq=False)
class QppCorrelations(HtmlRepr):
    """Pearson's r, Kendall's τ and Spearman's ρ of every predictor's predictions with the
    effectiveness of the same queries (:func:`qpp_correlations`). ``table``: one row per
    predictor (system, variant, collection), with ``n`` topics, each correlation, its Fisher
    z interval (r, ρ) and, with ``samples``, its bootstrap percentile interval
    (``*_boot_low``/``*_boot_high``; ``b_defined``: the resamples in which every
    correlation was defined)."""

    table: pd.DataFrame
    alpha: float
    samples: int | None
    title: str = ""

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        digits = check_digits(digits)
        title = None if fmt == "csv" else self.summary()
        return render(self.table, fmt, digits=digits, title=title)

    def summary(self) -> str:
        if self.title:
            return self.title
        boot = f"; percentile bootstrap over topics, B = {self.samples}" if self.samples else ""
        return (f"correlations of predictions with effectiveness, "
                f"{round(100 * (1 - self.alpha), 6):g}% intervals (Fisher z for r and ρ{boot})")

    def __repr__(self) -> str:
        return f"QppCorrelations({self.summary()}; {len(self.table)} rows)"


#: The meaning of an undefined bootstrap bound.
_TIED = undefined("fewer than two bootstrap resamples had a defined correlation (every "
                  "drawn topic tied)")


def _correlation_rows(keys: pd.DataFrame, x: np.ndarray, y: np.ndarray, alpha: float,
                      samples: int | None, rng: RngArg, progress: ProgressArg = False
                      ) -> pd.DataFrame:
    """The table of :class:`QppCorrelations` of the query sets ``x``, ``y``."""
    n = x.shape[-1]
    if n < 4:
        raise InputError(f"correlations with intervals need four topics at least (Fisher's "
                         f"z has n − 3 degrees of freedom), got {n}")
    flat = np.ptp(x, axis=-1) == 0
    if flat.any() or np.ptp(y[0]) == 0:
        row = keys.iloc[int(np.flatnonzero(flat)[0]) if flat.any() else 0]
        raise InputError(f"the {'predictions' if flat.any() else 'effectiveness'} of "
                         f"{_cell(row, list(keys.columns))} are the same on every topic: "
                         "no correlation is defined")
    table = keys.assign(n=n)
    for method in CORRELATIONS:
        table[method] = _correlation(method, x, y)
        if method in _FISHER_FACTOR:
            table[f"{method}_low"], table[f"{method}_high"] = fisher_interval(
                table[method].to_numpy(), n, alpha, _FISHER_FACTOR[method])
    if samples:
        def statistic(draws: np.ndarray) -> np.ndarray:
            return np.column_stack([_correlation(method, x[g][draws], y[g][draws])
                                    for method in CORRELATIONS for g in range(len(keys))])

        values = _resampled(n, samples, rng, progress, "the bootstrap of the correlations",
                            statistic).reshape(samples, len(CORRELATIONS), len(keys))
        for m, method in enumerate(CORRELATIONS):
            bounds = [defined_percentiles(values[:, m, g], alpha) for g in range(len(keys))]
            table[f"{method}_boot_low"] = [b[0] for b in bounds]
            table[f"{method}_boot_high"] = [b[1] for b in bounds]
        table["b_defined"] = np.isfinite(values).all(axis=1).sum(axis=0)
    return declare(table, {c: _TIED for c in table.columns if "_boot_" in c})


@QPP_CORRELATIONS
def qpp_correlations(predictions: object, observed: object = None, *, alpha: float = 0.05,
                     samples: int | None = None, rng: RngArg = None,
                     measure: str | None = None,
                     labels: tuple[str, str] = ("predictions", "observed"),
                     progress: ProgressArg = False) -> QppCorrelations:
    """Pearson's r, Kendall's τ and Spearman's ρ between every predictor's predictions and
    the effectiveness of the same queries, with ``1 − alpha`` intervals: Fisher's z for r
    (``scipy.stats.pearsonr(...).confidence_interval()``) and for ρ (variance 1.06/(n − 3),
    Fieller, Hartley & Pearson 1957), and, with ``samples`` = B, the percentile bootstrap
    of all three over topics (seeded by ``rng``; the same resamples for every predictor;
    ``progress``: a bool or ``progress(done, total)`` over the resamples).

    The inputs are those of :func:`qpp_anova` (one correlation per predictor, system and
    variant); ``predictions`` may also be a mapping ``{collection: (predictions,
    observed)}`` (``observed`` then not given): one block of rows per collection
    (:func:`qpp_across_collections` pools them). The values are scipy's ``pearsonr``,
    ``kendalltau`` (τ-b) and ``spearmanr``."""
    if isinstance(predictions, dict):
        if observed is not None:
            raise ParameterError("observed: the mapping of collections holds each "
                                 "collection's effectiveness; give no observed",
                                 param="observed")
        return _per_collection(predictions, alpha, samples, rng, measure)
    check_progress(progress)
    data = _aligned(predictions, observed, measure, labels)
    keys, x, y = _groups(data)
    return QppCorrelations(_correlation_rows(keys, x, y, alpha, samples, rng, progress),
                           alpha, samples)


def _per_collection(collections: dict, alpha: float, samples: int | None, rng: RngArg,
                    measure: str | None) -> QppCorrelations:
    """:func:`qpp_correlations` of every collection of the mapping, one block each."""
    if not collections:
        raise ParameterError("predictions: an empty mapping of collections", param="predictions")
    parts = []
    for name, pair in collections.items():
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise ParameterError(f"predictions[{name!r}]: expected a pair (predictions, "
                                 f"observed), got {type(pair).__name__}", param="predictions")
        data = _aligned(pair[0], pair[1], measure, (f"{name}: predictions",
                                                    f"{name}: observed"))
        keys, x, y = _groups(data)
        parts.append(_correlation_rows(keys, x, y, alpha, samples, rng
                                       ).assign(collection=str(name)))
    table = pd.concat(parts, ignore_index=True)
    table.insert(0, "collection", table.pop("collection"))
    return QppCorrelations(declare(table, declared(parts[0])), alpha, samples)


def steiger_test(r_a: np.ndarray, r_b: np.ndarray, r_ab: np.ndarray, n: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Steiger's (1980, eq. 15) test of H0: ρ_ya = ρ_yb for two correlations sharing the
    variable y, on n cases, given the correlation r_ab of the two others: with r̄ = (r_a +
    r_b)/2, ψ = r_ab (1 − 2r̄²) − ½ r̄² (1 − 2r̄² − r_ab²) and c = ψ / (1 − r̄²)²,
    Z = (atanh r_a − atanh r_b) sqrt((n − 3) / (2 − 2c)); the two-sided p = 2 P(N ≥ |Z|).
    Returns (Z, p)."""
    mean = (r_a + r_b) / 2
    psi = r_ab * (1 - 2 * mean**2) - 0.5 * mean**2 * (1 - 2 * mean**2 - r_ab**2)
    c = psi / (1 - mean**2) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (np.arctanh(r_a) - np.arctanh(r_b)) * np.sqrt((n - 3) / (2 - 2 * c))
    return z, 2 * stats.norm.sf(np.abs(z))


@QPP_COMPARE
def qpp_compare(predictions: object, observed: object, a: str, b: str, *,
                correlation: str = "pearson", alpha: float = 0.05,
                samples: int | None = None, rng: RngArg = None, measure: str | None = None,
                labels: tuple[str, str] = ("predictions", "observed"),
                progress: ProgressArg = False) -> QppCorrelations:
    """Whether predictor ``a`` correlates with effectiveness better than ``b`` on the same
    topics: Steiger's (1980) test of two dependent correlations sharing one variable
    (:func:`steiger_test`; for Spearman's ρ, on the ranks; not for Kendall's τ, which
    has no such test: its row gives the bootstrap alone) and, with ``samples`` = B, a
    paired bootstrap over topics of the difference ``correlation``(a) − ``correlation``(b):
    its percentile interval and the two-sided p = min(1, 2 min((#{Δ* ≤ 0} + 1)/(B + 1),
    (#{Δ* ≥ 0} + 1)/(B + 1))). One row per system and variant; ``progress`` as
    :func:`qpp_correlations`'s."""
    check_progress(progress)
    data = _aligned(predictions, observed, measure, labels)
    predictors = data.levels["predictor"]
    for name in (a, b):
        if name not in predictors:
            raise ParameterError(f"no predictor {name!r} (predictors: "
                                 f"{', '.join(predictors[:8])})", param="a")
    if a == b:
        raise ParameterError(f"a and b name the same predictor {a!r}", param="b")
    keys, x, y = _groups(data)
    n = x.shape[-1]
    rows = keys["predictor"].to_numpy()
    xa, xb, ya = x[rows == a], x[rows == b], y[rows == a]
    table = keys[rows == a].drop(columns="predictor").reset_index(drop=True)
    table.insert(0, "a", a)
    table.insert(1, "b", b)
    table["n"] = n
    r_a, r_b = _correlation(correlation, xa, ya), _correlation(correlation, xb, ya)
    table[f"{correlation}_a"], table[f"{correlation}_b"] = r_a, r_b
    table["diff"] = r_a - r_b
    meanings = {}
    if correlation != "kendall":
        table["r_ab"] = _correlation(correlation, xa, xb)
        table["steiger_z"], table["steiger_p"] = steiger_test(r_a, r_b, table["r_ab"].to_numpy(),
                                                              n)
        meanings = {c: infinite("the two predictors rank the topics alike (r_ab = 1)")
                    for c in ("steiger_z",)}
    if samples:
        def statistic(draws: np.ndarray) -> np.ndarray:
            return np.column_stack([_correlation(correlation, xa[g][draws], ya[g][draws])
                                    - _correlation(correlation, xb[g][draws], ya[g][draws])
                                    for g in range(len(table))])

        diffs = _resampled(n, samples, rng, progress, "the paired bootstrap", statistic)
        low, high, pvalue = [], [], []
        for g in range(len(table)):
            diff = diffs[:, g]
            bounds = defined_percentiles(diff, alpha)
            low.append(bounds[0])
            high.append(bounds[1])
            kept = diff[np.isfinite(diff)]
            tail = min(np.count_nonzero(kept <= 0), np.count_nonzero(kept >= 0))
            pvalue.append(min(1.0, 2 * (tail + 1) / (kept.size + 1)))
        table["boot_low"], table["boot_high"], table["boot_p"] = low, high, pvalue
        meanings.update({c: _TIED for c in ("boot_low", "boot_high")})
    return QppCorrelations(declare(table, meanings), alpha, samples,
                           f"{correlation} of {a} against {b}: Steiger's (1980) test of "
                           "dependent correlations and the paired bootstrap")


#: The variance of Fisher's z of each correlation on n topics, as pooled across
#: collections (Pearson: 1/(n − 3); Spearman: 1.06/(n − 3); Kendall: 0.437/(n − 4),
#: Fieller, Hartley & Pearson 1957).
def _z_variance(correlation: str, n: int) -> float:
    if correlation == "kendall":
        return 0.437 / (n - 4)
    return _FISHER_FACTOR[correlation] / (n - 3)


@QPP_ACROSS
def qpp_across_collections(collections: dict, *, correlation: str = "pearson",
                           alpha: float = 0.05, measure: str | None = None) -> QppCorrelations:
    """Every predictor's ``correlation`` with effectiveness on several collections
    (``{collection: (predictions, observed)}``), pooled by the random-effects
    meta-analysis of Fisher's z (:func:`irscale.stats.random_effects`, REML τ²; each z's
    variance from :func:`_z_variance`), back-transformed by tanh: the pooled correlation,
    its ``1 − alpha`` interval and the prediction interval of the correlation on a new
    collection (Higgins, Thompson & Spiegelhalter 2009), with τ² and I² on the z scale.
    Every collection needs the same predictors (systems, variants)."""
    from .meta_analysis import random_effects

    per = qpp_correlations(collections, alpha=alpha, measure=measure).table
    keys = [c for c in per.columns if c in ("predictor", *OPTIONAL_FACTORS)]
    names = list(dict.fromkeys(per["collection"]))
    if len(names) < 2:
        raise ParameterError("pooling across collections needs two collections at least",
                             param="collections")
    wide = per.pivot_table(index=keys, columns="collection", values=correlation,
                           sort=False).reindex(columns=names)
    counts = per.pivot_table(index=keys, columns="collection", values="n",
                             sort=False).reindex(columns=names)
    if wide.isna().any(axis=None):
        row = wide.index[wide.isna().any(axis=1).to_numpy()][0]
        raise InputError(f"{row!r} is not predicted on every collection: pooling needs the "
                         "same predictors (systems, variants) in each")
    with np.errstate(divide="ignore"):
        z = np.arctanh(wide.to_numpy())
    variances = np.vectorize(lambda n: _z_variance(correlation, int(n)))(counts.to_numpy())
    pooled = random_effects(z, variances, alpha=alpha)
    table = wide.index.to_frame(index=False).assign(
        collections=len(names), correlation=correlation, pooled=np.tanh(pooled.effect),
        ci_low=np.tanh(pooled.ci_low), ci_high=np.tanh(pooled.ci_high),
        pi_low=np.tanh(pooled.pi_low), pi_high=np.tanh(pooled.pi_high),
        tau2=pooled.tau2, i2=pooled.i2)
    meaning = undefined("the prediction interval of a new collection needs three "
                        "collections at least (its t has k − 2 degrees of freedom)")
    return QppCorrelations(declare(table, {"pi_low": meaning, "pi_high": meaning}), alpha, None,
                           f"{correlation} pooled across {len(names)} collections (random "
                           "effects on Fisher's z; prediction interval of a new collection)")

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
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ..core import ScoreMatrix
from ..core.notebook import HtmlRepr
from ..errors import InputError, ParameterError
from ._factorial import parse_model
from .anova import fit_model
from .names import QPP_OPTIONAL_FACTORS as OPTIONAL_FACTORS
from .params import QPP
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
    index = [pd.Index(levels[f]) for f in factors]
    full = pd.MultiIndex.from_product(index, names=factors)
    table = pred.set_index(factors)["value"].reindex(full)
    if table.isna().any():
        cell = dict(zip(factors, table.index[table.isna().to_numpy()][0], strict=True))
        raise InputError(f"{labels[0]}: no prediction for {_cell(pd.Series(cell), factors)}: "
                         "every predictor needs one for every topic (system, variant)")
    obs_index = pd.MultiIndex.from_product([levels[f] for f in obs_keys], names=obs_keys)
    effect = obs.set_index(obs_keys)["value"]
    if len(obs_keys) == 1:  # pandas 2.1 matches a one-level MultiIndex with no plain Index
        effect.index = pd.MultiIndex.from_arrays([effect.index], names=obs_keys)
    unpredicted = ~effect.index.isin(obs_index)
    if unpredicted.any():
        cell = dict(zip(obs_keys, effect.index[unpredicted][0], strict=True))
        warnings.warn(f"{labels[1]}: {int(unpredicted.sum())} effectiveness score(s) of "
                      f"queries no prediction covers left out, e.g. "
                      f"{_cell(pd.Series(cell), obs_keys)}", stacklevel=2)
    effect = effect.reindex(obs_index)
    if effect.isna().any():
        cell = dict(zip(obs_keys, effect.index[effect.isna().to_numpy()][0], strict=True))
        raise InputError(f"{labels[1]}: no effectiveness score for "
                         f"{_cell(pd.Series(cell), obs_keys)}")
    predicted = table.to_numpy().reshape(shape)
    observed_array = np.expand_dims(effect.to_numpy().reshape(
        tuple(len(levels[f]) for f in obs_keys)), 1)
    observed_array = np.broadcast_to(observed_array, shape)
    ranks_p, ranks_e, values = _ranks(predicted, observed_array)
    if np.ptp(values) == 0.0:
        raise InputError(f"every sARE is {float(values.flat[0]):g} (every predictor ranks "
                         "every query set alike): there is no variance to analyse")
    if model is None:
        model = " + ".join([*factors, *(f"predictor:{f}" for f in extra)])
    terms = parse_model(model, factors)
    if ("predictor",) not in terms:
        raise ParameterError(f"the model {model!r} must contain the predictor factor")
    anova = fit_model(values, factors, terms, levels["predictor"],
                      name="ANOVA of sARE (Faggioli et al. 2021)", target="predictor")
    scores = full.to_frame(index=False).assign(
        predicted=predicted.ravel(), observed=observed_array.ravel(),
        rank_predicted=ranks_p.ravel(), rank_observed=ranks_e.ravel(), sare=values.ravel())
    return QppResult(tuple(factors), scores, anova)

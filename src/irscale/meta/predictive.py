"""Predictive power of a measure: how often it predicts which of two rankings people prefer
(Sanderson, Paramita, Clough & Kanoulas, SIGIR 2010, "Do user preferences and evaluation
measures line up?"; Sakai 2014, §5.3).

People are shown two rankings of one topic side by side — those of systems X (left) and Y
(right) — and say which they prefer. For a measure M, with ΔM = M(q, X) − M(q, Y) on that
topic:

* the measure *predicts* X when ΔM > θ, Y when ΔM < −θ; with |ΔM| ≤ θ it predicts nothing
  (a *measure tie*; θ = ``threshold``, 0 by default, differences within the tie tolerance
  of :mod:`irscale.stats` counting as 0);
* a preference is *predicted* when the measure predicts the system the person preferred,
  *mispredicted* when it predicts the other one;
* **predictive power** = predicted / (predicted + mispredicted): the share of the
  preferences the measure orders that it orders as people do. 0.5 is chance.

Every preference is one judgment (several people judging the same pair give several
judgments, as each side-by-side judgment was counted by Sanderson et al. 2010).
Judgments without a preference (``tie``) cannot be predicted and are left out, and so are,
by default (``ties="exclude"``), measure ties; both are counted in the result. irscale's
choices, where the paper gives none explicitly: ``ties="half"`` counts a measure tie as
half a prediction (the expectation of guessing), ``ties="miss"`` as a misprediction
(the power over every strict preference). Whether the power differs from chance is the
exact two-sided binomial test of the predicted against the mispredicted judgments
(``scipy.stats.binomtest``, p = 1/2; measure ties are not in it). ``bins``: the power
within bins of |ΔM|, as Sanderson et al. (2010) report agreement by the size of the
measure difference.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, cast

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..core.notebook import HtmlRepr
from ..core.numbers import declare, undefined
from ..errors import AlignmentError, InputError, ParameterError
from ..io.naming import RunKey, find_run, run_keys
from ..io.user_tables import LINES, RowLines
from ..stats.protocol import Unpacks
from ..stats.tables import Format
from ..stats.validation import score_table, tie_tolerance
from .common import format_frame
from .params import PREDICT, PREDICT_THRESHOLD, PREDICT_TIES

__all__ = ["PredictivePower", "predictive_power"]

#: How a measure tie is counted (module documentation; :data:`PREDICT_TIES`).
MeasureTies = Literal["exclude", "half", "miss"]
DEFAULT_TIES = cast(MeasureTies, PREDICT_TIES.default)
#: The spellings of a preference: for the left system, the right one, or none (those of
#: :data:`irscale.io.side_by_side.WORDS`).
PREFERENCE_WORDS = {"left": 1, "l": 1, "1": 1, "+1": 1, "right": -1, "r": -1, "-1": -1,
                    "tie": 0, "none": 0, "equal": 0, "0": 0}
COLUMNS = ("topic", "left", "right", "preference")


@dataclass(frozen=True)
class PredictivePower(Unpacks, HtmlRepr):
    """Predictive power of ``measure`` against side-by-side preferences (module
    documentation).

    Protocol: ``statistic`` (the predictive power), ``pvalue`` (the exact two-sided
    binomial test of predicted against mispredicted judgments, p = 1/2), ``to_frame()``,
    ``format(fmt)``; ``by_bin``: the same per bin of |ΔM| (empty without ``bins``).
    """

    measure: str
    judgments: int
    predicted: int
    mispredicted: int
    measure_ties: int
    no_preference: int
    threshold: float
    ties: str
    pvalue: float
    by_bin: pd.DataFrame

    @property
    def power(self) -> float:
        """predicted / (predicted + mispredicted), measure ties counted as ``ties`` says;
        NaN when nothing is counted."""
        hits, total = float(self.predicted), self.predicted + self.mispredicted
        if self.ties == "half":
            hits, total = hits + self.measure_ties / 2, total + self.measure_ties
        elif self.ties == "miss":
            total += self.measure_ties
        return hits / total if total else float("nan")

    @property
    def statistic(self) -> float:
        """The predictive power (:attr:`power`)."""
        return self.power

    def to_frame(self) -> pd.DataFrame:
        return declare(pd.DataFrame([{
            "measure": self.measure, "judgments": self.judgments,
            "predicted": self.predicted, "mispredicted": self.mispredicted,
            "measure_ties": self.measure_ties, "no_preference": self.no_preference,
            "threshold": self.threshold, "ties": self.ties, "power": self.power,
            "p": self.pvalue,
        }]), {"power": _NOTHING_COUNTED})

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The result (and the bins, in text, markdown and latex) as a ``text``, ``csv``,
        ``markdown``, ``latex`` or ``json`` table."""
        text = format_frame(self.to_frame(), fmt, digits=digits,
                            title=None if fmt in ("csv", "json") else repr(self))
        if len(self.by_bin) and fmt not in ("csv", "json"):
            text += "\n" + format_frame(self.by_bin, fmt, digits=digits,
                                        title="by |ΔM| bin")
        return text

    def __repr__(self) -> str:
        power = "undefined" if np.isnan(self.power) else f"{self.power:.1%}"
        return (f"PredictivePower({self.measure}: {power} of {self.judgments} judgments "
                f"({self.predicted} predicted, {self.mispredicted} mispredicted, "
                f"{self.measure_ties} measure ties, {self.no_preference} without "
                f"preference), binomial p={self.pvalue:.4g})")


def preference_frame(preferences: object) -> pd.DataFrame:
    """Side-by-side preferences as a frame ``topic, left, right, sign`` (sign 1: left
    preferred, −1: right, 0: no preference). ``preferences``: a DataFrame with the
    columns ``topic, left, right, preference`` or rows of those four values; a preference
    is ``left``/``right``/``tie`` (also ``l``, ``r``, ``none``, ``equal``) or 1/−1/0."""
    if isinstance(preferences, pd.DataFrame):
        missing = [c for c in COLUMNS if c not in preferences.columns]
        if missing:
            raise InputError(f"the preferences lack the column(s) {missing}; they need "
                             f"{list(COLUMNS)}")
        frame = preferences[list(COLUMNS)].copy()
    else:
        if isinstance(preferences, (str, bytes)) or not isinstance(preferences, Iterable) or \
                not all(isinstance(row, Iterable) for row in preferences):
            raise InputError(f"preferences: expected a DataFrame or rows (topic, left, right, "
                             f"preference), got {type(preferences).__name__}")
        rows = [tuple(row) for row in preferences]
        bad = next((k for k, row in enumerate(rows) if len(row) != 4), None)
        if bad is not None:
            raise InputError(f"preferences: preference {bad + 1} is {rows[bad]!r}: a row is "
                             "(topic, left, right, preference)")
        frame = pd.DataFrame(rows, columns=list(COLUMNS))
    if frame.empty:
        raise InputError("no preference given")
    signs = []
    for k, value in enumerate(frame["preference"]):
        word = str(value).strip().lower()
        if isinstance(value, (int, float, np.integer, np.floating)) and \
                not isinstance(value, bool) and value in (1, -1, 0):
            word = str(int(value))
        if word not in PREFERENCE_WORDS:
            raise InputError(f"preference {k + 1} ({frame['topic'].iloc[k]}, "
                             f"{frame['left'].iloc[k]} vs {frame['right'].iloc[k]}) is "
                             f"{value!r}: write left, right or tie (or 1, -1, 0)")
        signs.append(PREFERENCE_WORDS[word])
    same = frame["left"].astype(str) == frame["right"].astype(str)
    if same.any():
        k = int(np.flatnonzero(same.to_numpy())[0])
        raise InputError(f"preference {k + 1} compares {frame['left'].iloc[k]!r} with itself")
    out = pd.DataFrame({"topic": frame["topic"].astype(str),
                        "left": frame["left"].astype(str),
                        "right": frame["right"].astype(str), "sign": signs})
    out.attrs = frame.attrs  # the lines of a frame read from a file (read_side_by_side)
    return out


@PREDICT
def predictive_power(
    preferences: object,
    scores: object,
    *,
    measure: str | None = None,
    threshold: float = cast(float, PREDICT_THRESHOLD.default),
    ties: MeasureTies = DEFAULT_TIES,
    bins: Sequence[float] | None = None,
) -> PredictivePower:
    """Predictive power of a measure against side-by-side preferences (Sanderson et al.
    2010; module documentation).

    Parameters
    ----------
    preferences
        Judgments ``topic, left, right, preference`` (:func:`preference_frame`).
    scores
        The measure's per-topic scores of every system judged: a
        :class:`~irscale.core.ScoreMatrix` (``measure`` chooses one of several), a wide
        DataFrame (topics × systems) or a mapping system → {topic: score}.
    threshold
        θ ≥ 0: differences |ΔM| ≤ θ are measure ties.
    ties
        ``exclude`` (default), ``half`` or ``miss``: how measure ties count.
    bins
        Increasing edges of |ΔM| bins for :attr:`PredictivePower.by_bin`; ``threshold``,
        ``ties`` and ``bins`` (two edges ≥ 0 at least) are checked on entry
        (:data:`irscale.meta.params.PREDICT`).

    Examples
    --------
    >>> scores = {"X": {"1": 0.5, "2": 0.2}, "Y": {"1": 0.3, "2": 0.4}}
    >>> prefs = [("1", "X", "Y", "left"), ("2", "X", "Y", "left"), ("2", "Y", "X", "left")]
    >>> result = predictive_power(prefs, scores)
    >>> result.predicted, result.mispredicted, round(result.power, 4)
    (2, 1, 0.6667)
    """
    edges = None if bins is None else np.asarray(bins, dtype=np.float64)
    prefs = preference_frame(preferences)
    if isinstance(scores, Mapping):
        scores = pd.DataFrame({str(s): pd.Series(v, dtype=np.float64)
                               for s, v in scores.items()})
    if isinstance(scores, ScoreMatrix) and measure is None and len(scores.measures) == 1:
        measure = scores.measures[0]
    values, topics, systems = score_table(scores, measure, min_systems=2, min_topics=1)
    label = measure or "M"
    t_index = {t: i for i, t in enumerate(topics)}
    absent = ~prefs["topic"].isin(list(t_index)).to_numpy()
    if absent.any():
        unknown = sorted(set(prefs["topic"][absent]))
        raise _at_first(prefs, absent, f"the preferences name topic(s) {unknown[:5]} that "
                        f"the scores of {label} lack")
    left, right = _systems(prefs, scores if isinstance(scores, ScoreMatrix) else systems)
    t = prefs["topic"].map(t_index).to_numpy()
    delta = values[t, left] - values[t, right]
    delta = np.where(np.abs(delta) <= max(threshold, tie_tolerance(values)), 0.0, delta)
    sign = prefs["sign"].to_numpy()
    strict = sign != 0
    hit = strict & (np.sign(delta) == sign)
    miss = strict & (np.sign(delta) == -sign)
    tie = strict & (delta == 0)
    return PredictivePower(
        measure=label, judgments=len(prefs), predicted=int(hit.sum()),
        mispredicted=int(miss.sum()), measure_ties=int(tie.sum()),
        no_preference=int((~strict).sum()), threshold=float(threshold), ties=ties,
        pvalue=_binomial_p(int(hit.sum()), int(miss.sum())),
        by_bin=_by_bin(np.abs(delta), hit, miss, tie, edges))


def _systems(prefs: pd.DataFrame, scores: ScoreMatrix | Sequence[str]
             ) -> tuple[np.ndarray, np.ndarray]:
    """The system (column of ``scores``) of every preference's left and right ranking. A
    system is designated as every argument that names a run
    (:func:`irscale.io.naming.find_run`): by its name, or, where ``scores`` knows its
    run's file and run id (a matrix evaluated from runs), by those too. One that
    designates no system or several, or a preference whose two sides designate one, is
    refused at its first line."""
    keys = run_keys(scores) if isinstance(scores, ScoreMatrix) else \
        [RunKey(str(name)) for name in scores]
    index = {key.name: i for i, key in enumerate(keys)}
    found: dict[str, int] = {}
    sides = []
    for column in ("left", "right"):
        for name in dict.fromkeys(prefs[column]):
            if name not in found:
                try:
                    found[name] = index[find_run(str(name), keys, "the preferences' system")]
                except ParameterError as error:
                    raise _at_first(prefs, (prefs[column] == name).to_numpy(),
                                    str(error)) from None
        sides.append(prefs[column].map(found).to_numpy(dtype=np.int64))
    same = sides[0] == sides[1]
    if same.any():
        k = int(np.argmax(same))
        raise _at_first(prefs, same, f"preference {k + 1} compares {prefs['left'].iloc[k]!r} "
                        f"with {prefs['right'].iloc[k]!r}, which name one system "
                        f"{keys[sides[0][k]].name!r}")
    return sides[0], sides[1]


def _at_first(prefs: pd.DataFrame, where: np.ndarray, message: str
              ) -> InputError | AlignmentError:
    """The error ``message`` about the preferences marked in ``where``: at the first of
    their lines where they were read from a file, else an :class:`AlignmentError`."""
    lines = prefs.attrs.get(LINES)
    if isinstance(lines, RowLines):
        return InputError(message, **lines.where(prefs.index[int(np.argmax(where))]))
    return AlignmentError(message)


def _binomial_p(hits: int, misses: int) -> float:
    """Two-sided exact binomial p of ``hits`` successes in ``hits + misses`` at 1/2 (1
    without any trial)."""
    if hits + misses == 0:
        return 1.0
    from scipy.stats import binomtest

    return float(binomtest(hits, hits + misses, 0.5).pvalue)


def _by_bin(size: np.ndarray, hit: np.ndarray, miss: np.ndarray, tie: np.ndarray,
            edges: np.ndarray | None) -> pd.DataFrame:
    """Predicted and mispredicted judgments per bin [e_k, e_k+1) of |ΔM| (the last bin
    closed); measure ties (|ΔM| taken as 0) fall in a first bin starting at 0, in none
    otherwise."""
    if edges is None:
        return pd.DataFrame(columns=["low", "high", "predicted", "mispredicted",
                                     "measure_ties", "power"])
    rows = []
    for k in range(len(edges) - 1):
        low, high = edges[k], edges[k + 1]
        inside = (size >= low) & ((size < high) if k < len(edges) - 2 else (size <= high))
        h, m = int((hit & inside).sum()), int((miss & inside).sum())
        rows.append({"low": low, "high": high, "predicted": h, "mispredicted": m,
                     "measure_ties": int((tie & inside).sum()),
                     "power": h / (h + m) if h + m else float("nan")})
    return declare(pd.DataFrame(rows), {"power": _NOTHING_COUNTED})


#: Why a predictive power is undefined.
_NOTHING_COUNTED = undefined("no judgment is predicted or mispredicted: the power is 0/0")

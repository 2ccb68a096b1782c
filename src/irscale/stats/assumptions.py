"""The assumptions of an ANOVA model, checked on its residuals (``AnovaResult.assumptions``).

The F tests of an ANOVA assume errors ε that are independent, normal and of one variance
σ² in every cell. The residuals e = y − ŷ of the fitted model (y_ij − τ̂_i − α̂_j − μ̂ for
the two-way model MD2; y_ij − μ̂_·j for MD1; least-squares residuals for unbalanced type
III fits) stand in for the errors:

Normality: Shapiro–Wilk (Shapiro & Wilk, 1965)
    W = (Σ a_i e_(i))² / Σ (e_i − ē)², e_(i) the ordered residuals and a_i the normal
    order-statistic coefficients; small W is evidence against normality. W and its
    p-value are scipy's (``scipy.stats.shapiro``: Royston's 1995 algorithm AS R94, whose
    approximation of the null distribution holds for 3 ≤ n ≤ 5000). With n > 5000
    residuals (TREC-8: 50 topics × 129 systems = 6450) W is computed on all of them and
    the p-value is Royston's approximation carried beyond the n it was fitted for: the
    row says so in ``note`` (R's ``shapiro.test`` refuses such n, scipy warns); with so
    many residuals even negligible departures from normality are significant, and the
    Q–Q plot (:func:`irscale.plots.residual_qq`) says more than p. Residuals with fewer
    than 2 degrees of freedom (df_error = 1, e.g. 2 topics × 2 systems) have a shape
    fixed by the design: W tests nothing and is not computed (NaN, with a note); Shapiro
    and Wilk's minimum of 3 independent values corresponds to df_error ≥ 2.
Equal variances: Levene (1960) and Brown & Forsythe (1974)
    The residuals are grouped by a factor of the model: by system (every model), by
    topic (models with a topic factor: MD2) and by shard (shard models). With
    Z_gj = |e_gj − c_g|, c_g the group's mean (Levene) or median (Brown–Forsythe),

        W = (N − k)/(k − 1) · Σ_g n_g (Z̄_g − Z̄)² / Σ_g Σ_j (Z_gj − Z̄_g)²  ~ F(k − 1, N − k),

    k groups, N residuals (``scipy.stats.levene`` with ``center="mean"`` and
    ``center="median"``). When the deviations Z do not vary within the groups (up to
    rounding: within sum of squares ≤ 10⁻¹⁰ × their total), W is undefined and not
    computed (NaN, with a note): with two systems the two residuals of a topic are ±r,
    so grouping by topic leaves nothing to compare. Group means of Z equal up to the same
    rounding give W = 0 (with two systems, the residuals of the two systems are the same
    values of opposite sign: W = 0 and p = 1 by construction).

The residuals are scaled by their largest |value| first (every statistic here is
invariant to scale), so that scores near the range of doubles do not overflow.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ..core.notebook import HtmlRepr
from ..core.numbers import blank, declare
from .protocol import Unpacks
from .tables import Format, check_digits, records, render, render_result
from .validation import TIE_RTOL

__all__ = ["AssumptionChecks", "AssumptionTest", "check_assumptions", "display_frame"]

#: Royston's (1995) approximation of the null distribution of W holds up to this n.
SHAPIRO_MAX_N = 5000
#: The fewest residual degrees of freedom Shapiro–Wilk is run on (module docstring).
SHAPIRO_MIN_DF = 2

_COLUMNS = ("test", "assumption", "groups", "statistic", "df1", "df2", "p", "n", "note")
#: The empty cells of the checks' table: a check not computed (its note says why), and
#: Shapiro–Wilk's degrees of freedom (it has none).
_MEANINGS = {**dict.fromkeys(("statistic", "p"), blank("a check not computed (its note "
                                                        "says why)")),
             **dict.fromkeys(("df1", "df2"), blank("Shapiro-Wilk has no degrees of "
                                                   "freedom; a check not computed none"))}


@dataclass(frozen=True)
class AssumptionTest(Unpacks, HtmlRepr):
    """One check of an ANOVA assumption on the model's residuals.

    ``test`` is ``"Shapiro-Wilk"`` (``assumption`` normality; ``statistic`` W),
    ``"Levene"`` or ``"Brown-Forsythe"`` (equal variances across the levels of the factor
    ``groups``; ``statistic`` the F statistic on ``df`` = (k − 1, N − k)). ``statistic``
    and ``pvalue`` are NaN where the test is not computed, and ``note`` says why (or that
    the p-value is an extrapolation, n > 5000).

    Protocol: ``statistic``, ``pvalue``, ``to_frame()``, ``format(fmt)``.
    """

    test: str
    assumption: str
    groups: str | None
    statistic: float
    df: tuple[float, float] | None
    pvalue: float
    n: int
    note: str = ""

    def _row(self) -> dict[str, object]:
        df1, df2 = self.df if self.df is not None else (np.nan, np.nan)
        return {"test": self.test, "assumption": self.assumption,
                "groups": self.groups or "", "statistic": self.statistic, "df1": df1,
                "df2": df2, "p": self.pvalue, "n": self.n, "note": self.note}

    def to_frame(self) -> pd.DataFrame:
        """One row: ``test``, ``assumption``, ``groups``, ``statistic``, ``df1``, ``df2``,
        ``p``, ``n``, ``note``."""
        return declare(pd.DataFrame([self._row()], columns=list(_COLUMNS)), _MEANINGS)

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The check as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        return render(display_frame(self.to_frame()) if fmt not in ("csv", "json")
                      else self.to_frame(), fmt, digits=check_digits(digits))


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The checks' table (:meth:`AssumptionChecks.to_frame`) as tables show it: degrees of
    freedom and counts as integers, the note column only when a check has a note (the
    text, Markdown and LaTeX formats; the HTML report)."""
    frame = frame.copy()
    for column in ("df1", "df2"):
        frame[column] = pd.Series([int(v) if np.isfinite(v) and float(v).is_integer() else v
                                   for v in frame[column]], dtype=object)
    frame["n"] = frame["n"].astype(int)
    if not frame["note"].astype(bool).any():
        frame = frame.drop(columns="note")
    return frame


@dataclass(frozen=True, eq=False)
class AssumptionChecks(HtmlRepr):
    """The checks of an ANOVA's assumptions (module docstring): Shapiro–Wilk on all the
    residuals, then Levene and Brown–Forsythe across the levels of each factor in
    ``groups`` (system, then topic and shard where the model has them).

    Protocol: ``statistic`` and ``pvalue`` (arrays, one value per check, in the order of
    ``tests``), ``to_frame()``, ``format(fmt)``; :meth:`test` picks one check.
    """

    tests: tuple[AssumptionTest, ...]
    model: str
    transform: str | None = None

    @property
    def statistic(self) -> np.ndarray:
        """W, then the F statistics of Levene and Brown–Forsythe, per check."""
        return np.array([t.statistic for t in self.tests], dtype=np.float64)

    @property
    def pvalue(self) -> np.ndarray:
        """The p-value of every check (NaN where not computed)."""
        return np.array([t.pvalue for t in self.tests], dtype=np.float64)

    @property
    def groups(self) -> tuple[str, ...]:
        """The factors whose levels group the residuals of the variance checks."""
        return tuple(dict.fromkeys(t.groups for t in self.tests if t.groups))

    def test(self, name: str, groups: str | None = None) -> AssumptionTest:
        """The check ``name`` (``"Shapiro-Wilk"``, ``"Levene"``, ``"Brown-Forsythe"``;
        case and ``-``/``–`` do not matter) across ``groups`` (default: system)."""
        key = name.lower().replace("–", "-").replace("_", "-")
        wanted = None if key == "shapiro-wilk" else (groups or "system")
        for t in self.tests:
            if t.test.lower() == key and t.groups == wanted:
                return t
        raise KeyError(f"no check {name!r} across {groups!r}: the checks are "
                       f"{[(t.test, t.groups) for t in self.tests]}")

    def to_frame(self) -> pd.DataFrame:
        """One row per check (the columns of :meth:`AssumptionTest.to_frame`)."""
        return declare(pd.DataFrame([t._row() for t in self.tests], columns=list(_COLUMNS)),
                       _MEANINGS)

    def json_rows(self) -> list[dict[str, object]]:
        """The checks as JSON-safe records (``irscale compare --format json``)."""
        return records(self.to_frame())

    def summary(self) -> str:
        on = f"{self.transform}-transformed scores" if self.transform else "the scores"
        return (f"Assumptions of the ANOVA {self.model} on {on}: normality of the "
                "residuals (Shapiro-Wilk), equal variances of the residuals across "
                f"{', '.join(self.groups)} (Levene: centre mean; Brown-Forsythe: centre "
                "median)")

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The checks as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        return render_result(fmt, digits, lambda: {"assumptions": self.json_rows()},
                             self.to_frame, lambda digits: display_frame(self.to_frame()),
                             self.summary)

    def __repr__(self) -> str:
        parts = [f"{t.test}{f' by {t.groups}' if t.groups else ''}: {t.statistic:.4g} "
                 f"(p={t.pvalue:.4g})" for t in self.tests]
        return f"AssumptionChecks({self.model}; {'; '.join(parts)})"


def shapiro_wilk(residuals: np.ndarray, df_error: float) -> AssumptionTest:
    """Shapiro–Wilk's W on the residuals (module docstring: n > 5000, df_error < 2)."""
    n = len(residuals)
    if df_error < SHAPIRO_MIN_DF:
        return AssumptionTest(
            "Shapiro-Wilk", "normality", None, np.nan, None, np.nan, n,
            f"not computed: too few residuals, {n} residuals with {df_error:g} degree(s) "
            f"of freedom have a shape fixed by the design (Shapiro-Wilk needs df_error of "
            f"at least {SHAPIRO_MIN_DF}, the information of 3 independent values)")
    note = ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # n > 5000: said in the note
        result = stats.shapiro(residuals)
    if n > SHAPIRO_MAX_N:
        note = (f"n = {n}, above the {SHAPIRO_MAX_N} of Royston's (1995) approximation: W "
                "on all residuals, its p-value extrapolated; read it with the Q-Q plot")
    return AssumptionTest("Shapiro-Wilk", "normality", None, float(result.statistic), None,
                          float(result.pvalue), n, note)


def _group_medians(values: np.ndarray, codes: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The median of ``values`` in every group of ``codes`` (groups 0..k − 1, none empty)."""
    ordered = values[np.lexsort((values, codes))]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    low = ordered[starts + (sizes - 1) // 2]
    high = ordered[starts + sizes // 2]
    return (low + high) / 2.0


def levene(residuals: np.ndarray, codes: np.ndarray, factor: str, *,
           center: str) -> AssumptionTest:
    """Levene's (``center="mean"``) or Brown–Forsythe's (``"median"``) test of equal
    variances of ``residuals`` across the levels ``codes`` of ``factor``."""
    name = "Levene" if center == "mean" else "Brown-Forsythe"
    levels, codes = np.unique(codes, return_inverse=True)
    k, n = len(levels), len(residuals)
    sizes = np.bincount(codes, minlength=k).astype(np.float64)
    if center == "mean":
        centre = np.bincount(codes, residuals, minlength=k) / sizes
    else:
        centre = _group_medians(residuals, codes, sizes.astype(np.int64))
    z = np.abs(residuals - centre[codes])
    z_means = np.bincount(codes, z, minlength=k) / sizes
    between = float(np.sum(sizes * (z_means - z.mean()) ** 2))
    within = float(np.sum((z - z_means[codes]) ** 2))
    df = (float(k - 1), float(n - k))
    if k < 2 or n <= k or within <= TIE_RTOL * (within + between):
        return AssumptionTest(
            name, "equal variances", factor, np.nan, df, np.nan, n,
            f"not computed: the absolute deviations of the residuals from their {factor} "
            f"{center}s are the same within every {factor} (up to rounding), so W is "
            "undefined")
    # group means of Z equal up to rounding (each mean's error is a few units in the last
    # place of the largest Z): W is 0. A comparison with ``within`` instead set real
    # statistics of 2e-10 (p = 0.99999) to 0 (p = 1)
    if np.all(np.abs(z_means - z.mean()) <= 8 * np.finfo(np.float64).eps * float(z.max())):
        between = 0.0
    statistic = df[1] / df[0] * between / within
    return AssumptionTest(name, "equal variances", factor, statistic, df,
                          float(stats.f.sf(statistic, *df)), n)


def check_assumptions(residuals: np.ndarray, groups: Mapping[str, np.ndarray],
                      df_error: float, *, model: str,
                      transform: str | None = None) -> AssumptionChecks:
    """Shapiro–Wilk on ``residuals``, then Levene and Brown–Forsythe across the levels of
    each factor of ``groups`` (factor → the level of every residual), in that order."""
    residuals = np.asarray(residuals, dtype=np.float64)
    scale = float(np.max(np.abs(residuals), initial=0.0))
    scaled = residuals / scale if scale > 0 else residuals
    tests: list[AssumptionTest] = [shapiro_wilk(scaled, df_error)]
    for factor, codes in groups.items():
        tests += [levene(scaled, np.asarray(codes), factor, center=center)
                  for center in ("mean", "median")]
    return AssumptionChecks(tuple(tests), model, transform)

"""Result objects of :mod:`irscale.stats`: small frozen dataclasses with ``.to_frame()``.

All speak the result protocol of :mod:`irscale.stats.protocol`: ``statistic``, ``pvalue``,
``confidence_interval(confidence_level=0.95)`` and ``effect_size`` where defined,
``to_frame()`` and ``format(fmt)``.

* :class:`TestResult` — one two-system test (statistic, df, p-value, mean difference with
  its confidence interval, effect sizes, Monte Carlo details).
* :class:`PairwiseComparisons` — a family of pairwise decisions (Tukey HSD, randomised
  Tukey HSD, pairwise tests with a multiple-comparison correction).
* :class:`AnovaResult` — an ANOVA table (SS, DF, MS, F, p, ω², η²) and what Tukey's HSD
  on the system factor needs.
* :class:`RankTestResult` — the Kruskal–Wallis or Friedman omnibus test.

Each has ``.format(fmt)`` for text, CSV, Markdown, LaTeX or JSON output.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.columns import Columns
from ..core.mean_intervals import INTERVAL_NAMES
from ..core.notebook import HtmlRepr, TableRepr
from ..core.numbers import Meaning, blank, declare, infinite, undefined
from ..errors import ParameterError
from .effects import NO_SPREAD_CAUSE, EffectSize, EffectSizes, effect_meanings, t_interval
from .protocol import ConfidenceInterval, Unpacks, interval_or_default
from .tables import (
    Format,
    alpha_text,
    check_digits,
    format_interval,
    format_number,
    json_text,
    json_value,
    level_text,
    records,
    render,
    render_result,
    significance_mark,
)
from .validation import Alternative, check_alpha, tie_tolerance

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..core.numbers import Table
    from .assumptions import AssumptionChecks


def _whole(value: float | None) -> float | None:
    """An integer-valued float as ``int`` (for display of degrees of freedom)."""
    if value is None or not math.isfinite(value):
        return value
    return int(value) if float(value).is_integer() else value


def _fmt_opt(value: float | None, digits: int = 4) -> str:
    return "" if value is None else format_number(value, digits)


# --------------------------------------------------------------------------- two systems
@dataclass(frozen=True)
class TestResult(Unpacks, HtmlRepr):
    """The outcome of a two-system significance test.

    ``diff`` is mean(x) − mean(y) (system ``systems[0]`` minus ``systems[1]``) and
    [``ci_low``, ``ci_high``] its 100(1 − α)% confidence interval, computed as
    ``ci_method`` says. ``statistic`` is the test statistic (t, W+, number of positive
    differences, U, mean difference or studentised mean, see the test's docstring), ``df``
    its degrees of freedom where defined. Monte Carlo tests also report ``samples`` (B),
    ``mc_se`` (the Monte Carlo standard error of ``pvalue``) and the p-value ``convention``.

    Protocol: ``statistic``, ``pvalue``, :meth:`confidence_interval` (of ``diff``, at any
    level; ``ci_low``/``ci_high`` are the one at 1 − α), ``effect_size`` (d_z for paired,
    Hedges' g for unpaired tests, with its noncentral t interval), ``to_frame()``,
    ``format(fmt)``. ``ci_se`` and ``ci_df`` are the standard error and degrees of freedom
    of the t interval.
    """

    __test__ = False  # not a pytest test class

    test: str
    systems: tuple[str, str]
    paired: bool
    alternative: Alternative
    n: tuple[int, int]
    mean_x: float
    mean_y: float
    diff: float
    ci_low: float
    ci_high: float
    ci_method: str
    statistic: float
    df: float | None
    pvalue: float
    alpha: float
    effect: EffectSizes
    method: str = ""
    samples: int | None = None
    mc_se: float | None = None
    convention: str | None = None
    ci_se: float | None = None
    ci_df: float | None = None

    @property
    def ci(self) -> tuple[float, float]:
        return (self.ci_low, self.ci_high)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The interval of ``diff`` (``ci_method``) at ``confidence_level`` (default 0.95,
        as scipy; one-sided for one-sided tests). At 1 − α it is (``ci_low``,
        ``ci_high``)."""

        def compute(level: float) -> tuple[float, float]:
            if self.ci_se is None or self.ci_df is None:
                raise ParameterError("this result has no standard error: its interval is "
                                     f"known at level {self.confidence:g} only")
            low, high = t_interval(self.diff, self.ci_se, self.ci_df, alpha=1.0 - level,
                                   alternative=self.alternative)
            return float(low), float(high)

        return interval_or_default(confidence_level, self.confidence,
                                   (self.ci_low, self.ci_high), compute)

    @property
    def effect_size(self) -> EffectSize:
        """The standardised effect: d_z (paired tests) or Hedges' g (unpaired), a float
        with ``confidence_interval(level)`` (noncentral t; one-sided like the test)."""
        return self.effect.get(alternative=self.alternative)

    @property
    def confidence(self) -> float:
        return 1.0 - self.alpha

    @property
    def significant(self) -> bool:
        return bool(self.pvalue <= self.alpha)

    def to_frame(self) -> pd.DataFrame:
        """One row: every field, effect sizes flattened."""
        import pandas as pd

        row = {
            "test": self.test, "a": self.systems[0], "b": self.systems[1],
            "paired": self.paired, "alternative": self.alternative,
            "n_a": self.n[0], "n_b": self.n[1], "mean_a": self.mean_x, "mean_b": self.mean_y,
            "diff": self.diff, "ci_low": self.ci_low, "ci_high": self.ci_high,
            "ci_method": self.ci_method, "statistic": self.statistic,
            "df": np.nan if self.df is None else self.df, "p": self.pvalue,
            "alpha": self.alpha, "significant": self.significant,
            **self.effect.as_dict(),
            "method": self.method,
            "samples": self.samples, "mc_se": self.mc_se, "convention": self.convention,
        }
        return declare(pd.DataFrame([row]), self._meanings())

    def _meanings(self) -> dict[str, Meaning]:
        return test_meanings(self.paired, self.alternative != "two-sided")

    def _display(self, digits: int) -> pd.DataFrame:
        import pandas as pd

        row = {
            "test": self.test,
            "a": self.systems[0],
            "b": self.systems[1],
            "diff": self.diff,
            f"{level_text(self.confidence)} CI": format_interval(self.ci_low, self.ci_high, digits),
            "statistic": self.statistic,
            "df": _whole(self.df) if self.df is not None else "",
            "p": format_number(self.pvalue, digits) + significance_mark(self.pvalue, self.alpha),
            "d_z": self.effect.d_z,
            "g": self.effect.hedges_g,
            "Δ": self.effect.glass_delta,
        }
        if self.samples is not None:
            row["B"] = self.samples
            row["MC s.e."] = self.mc_se
        return declare(pd.DataFrame([row]), {**self._meanings(),
                                             "MC s.e.": blank("not a Monte Carlo test")})

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The result as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        digits = check_digits(digits)
        if fmt in ("csv", "json"):
            return render(self.to_frame(), fmt)
        return render(self._display(digits), fmt, digits=digits)

    def __repr__(self) -> str:
        df = f" (df {format_number(_whole(self.df), 2)})" if self.df is not None else ""
        mc = (
            f", B={self.samples}, MC s.e. {self.mc_se:.2g}"
            if self.samples is not None and self.mc_se is not None else ""
        )
        return (
            f"TestResult({self.test}: {self.systems[0]} vs {self.systems[1]}, "
            f"{self.alternative}; statistic {self.statistic:.4g}{df}, p={self.pvalue:.4g}{mc}; "
            f"diff {self.diff:.4f} {format_interval(self.ci_low, self.ci_high)}; "
            f"d_z {self.effect.d_z:.3f}, g {self.effect.hedges_g:.3f})"
        )


def test_meanings(paired: bool | None, one_sided: bool) -> dict[str, Meaning]:
    """What the non-finite values of a table of tests are (:mod:`irscale.core.numbers`),
    for tests of ``paired`` samples (None: unknown) and ``one_sided`` alternatives."""
    meanings = {
        **effect_meanings(paired),
        "statistic": undefined(NO_SPREAD_CAUSE),
        **dict.fromkeys(("p", "p_raw", "p_adjusted"),
                        undefined("no statistic (samples without variance), or p-values "
                                  "not computed (decisions only)")),
        "df": blank("the test has no degrees of freedom"),
        **dict.fromkeys(("mc_se", "samples"), blank("not a Monte Carlo test")),
    }
    if one_sided:
        meanings.update(dict.fromkeys(("ci_low", "ci_high"), infinite(
            "the open end of a one-sided interval")))
    return meanings


# --------------------------------------------------------------------------- families
#: Columns of :class:`PairwiseComparisons` shown by ``format`` (when present), in order.
_SHOWN = (
    "collection", "measure", "a", "b", "mean_a", "mean_a_low", "mean_a_high", "mean_b",
    "mean_b_low", "mean_b_high", "diff", "diff_low", "diff_high", "ci_low", "ci_high",
    "wins", "ties", "losses", "statistic", "df", "p", "p_adjusted", "mc_se", "d_z",
    "hedges_g", "glass_delta",
)


@dataclass(frozen=True, eq=False, repr=False)
class PairwiseComparisons(TableRepr):
    """Decisions on a family of system pairs.

    ``columns`` maps column names to arrays of one value per pair: always ``a``, ``b``,
    ``diff`` (mean of ``a`` minus mean of ``b``), ``ci_low``, ``ci_high`` (simultaneous or
    per-pair intervals, see ``method``), ``p`` (the p-value on which the decision rests:
    Tukey's, or the corrected one when ``correction`` is set, the raw one then being
    ``p_raw``) and ``significant`` (p ≤ α); optionally ``collection``, ``measure``,
    ``mean_a``, ``mean_b``, ``statistic``, ``df``, ``mc_se``, effect sizes and, against a
    baseline ``b``, the topics ``a`` ``wins``, ``ties`` and ``losses``. ``half_width``
    (Tukey's HSD in a balanced design): the half-width of every system's comparison
    interval (eq. 11), half that of every pair's interval of its difference.

    Protocol (arrays of one value per pair, as ``scipy.stats.tukey_hsd``): ``statistic``,
    ``pvalue`` (the decisive p: adjusted when ``correction`` is set), ``effect_size``
    (d_z or Hedges' g per pair, ``None`` for Tukey's tests), :meth:`confidence_interval`,
    ``to_frame()``, ``format(fmt)``. Printed, :meth:`summary` and the pairs
    (:meth:`to_frame`).
    """

    method: str
    alpha: float
    columns: Mapping[str, np.ndarray]
    correction: str | None = None
    critical_value: float | None = None
    half_width: float | None = None
    samples: int | None = None
    convention: str | None = None
    note: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.columns["a"])

    @property
    def pvalue(self) -> np.ndarray:
        """The p-value each decision rests on (adjusted when ``correction`` is set)."""
        return self.columns["p"]

    @property
    def statistic(self) -> np.ndarray | None:
        """The test statistic of every pair (``None`` if the method reports none)."""
        return self.columns.get("statistic")

    @property
    def effect_size(self) -> np.ndarray | None:
        """Per pair, d_z (paired tests) or Hedges' g (unpaired); ``None`` for Tukey's
        tests, which report no effect size."""
        if "d_z" not in self.columns:
            return None
        return self.columns["d_z" if self.extra.get("paired", True) else "hedges_g"]

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The interval of every pair's ``diff`` at ``confidence_level`` (default 0.95):
        simultaneous for Tukey's tests (the studentized range, or the randomised test's
        sampled ranges at that quantile), per pair and unadjusted for pairwise tests.
        At 1 − α it is (``ci_low``, ``ci_high``)."""
        diff = np.asarray(self.columns["diff"], dtype=np.float64)

        def compute(level: float) -> tuple[np.ndarray, np.ndarray]:
            extra = self.extra
            if "ranges" in extra:
                critical = float(np.quantile(extra["ranges"], level))
                return diff - critical, diff + critical
            if "tukey_se" in extra:
                from ._ptukey import tukey_critical

                critical = tukey_critical(1.0 - level, int(extra["k"]), extra["df"])
                se = extra["tukey_se"]
                return diff - critical * se, diff + critical * se
            if "ci_se" in extra:
                return t_interval(diff, extra["ci_se"], extra["ci_df"], alpha=1.0 - level,
                                  alternative=extra.get("alternative", "two-sided"))
            raise ParameterError(f"these intervals are known at level {1 - self.alpha:g} "
                                 "only")

        return interval_or_default(
            confidence_level, 1.0 - self.alpha,
            (np.asarray(self.columns["ci_low"]), np.asarray(self.columns["ci_high"])),
            compute)

    @property
    def significant(self) -> np.ndarray:
        return self.columns["significant"]

    @property
    def n_significant(self) -> int:
        return int(np.count_nonzero(self.columns["significant"]))

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return list(zip(self.columns["a"].tolist(), self.columns["b"].tolist(), strict=True))

    def to_frame(self) -> pd.DataFrame:
        """One row per pair, every column."""
        return self._table().to_frame()

    def _table(self) -> Columns:
        """Every column, declared (:meth:`to_frame` without pandas)."""
        return declare(Columns({k: np.asarray(v) for k, v in self.columns.items()}),
                       test_meanings(self.extra.get("paired"),
                                     self.extra.get("alternative", "two-sided") != "two-sided"))

    def json_pairs(self) -> list[dict[str, object]]:
        """The pairs as ``{"a", "b", "diff", "ci_low", "ci_high", "p", "p_adjusted",
        "significant"}`` records (led by ``collection`` and ``measure`` when the family
        spans several; ending with ``wins``, ``ties`` and ``losses`` against a baseline).

        ``p`` is the pair's own p-value (Tukey's HSD and the randomised Tukey HSD: their
        simultaneous p-value), ``p_adjusted`` the p-value after the multiple-comparison
        correction — the one ``significant`` rests on; it equals ``p`` without a
        correction (``correction=None``/``"none"``, Tukey HSD, randomised Tukey HSD).
        """
        frame = self._output_table()
        keys: list[str] = [k for k in ("collection", "measure") if k in frame.columns]
        keys += ["a", "b", "diff", "ci_low", "ci_high", "p", "p_adjusted", "significant"]
        keys += [k for k in ("mean_a", "mean_a_low", "mean_a_high", "mean_b", "mean_b_low",
                             "mean_b_high", "diff_low", "diff_high")
                 if "diff_low" in frame.columns and k in frame.columns]
        keys += [k for k in ("wins", "ties", "losses") if k in frame.columns]
        return records(Columns({k: frame[k] for k in keys}, frame.attrs))

    def _output_table(self) -> Columns:
        """Every column, p-values named as the text table names them: ``p`` (the pair's
        own) then ``p_adjusted`` (after the correction; = ``p`` without one)."""
        table = self._table()
        if "p_raw" in table.columns:
            table.pop("p")
            table = Columns({"p" if k == "p_raw" else k: v for k, v in table.data.items()},
                            table.attrs)
        table.insert(table.columns.index("p") + 1, "p_adjusted", self.columns["p"])
        return table

    def _display(self, digits: int) -> Columns:
        table = self._table()
        if "p_raw" in table.columns:
            renamed = {"p": "p_adjusted", "p_raw": "p"}
            table = Columns({renamed.get(k, k): v for k, v in table.data.items()},
                            table.attrs)
        out = Columns({c: table[c] for c in _SHOWN if c in table.columns}, table.attrs)
        decision = "p_adjusted" if "p_adjusted" in out.columns else "p"
        out[decision] = [
            format_number(p, digits) + significance_mark(p, self.alpha) for p in out[decision]
        ]
        if "df" in out.columns:
            out["df"] = [_whole(v) for v in out["df"]]
        for column, header in (("mean_a", "CI a"), ("mean_b", "CI b"), ("diff", "CI diff")):
            if f"{column}_low" in out.columns:  # the intervals of the means (--ci)
                _fold_interval(out, column, f"{column}_low", f"{column}_high", header, digits)
        _fold_interval(out, "CI diff" if "CI diff" in out.columns else "diff", "ci_low",
                       "ci_high", f"{level_text(1 - self.alpha)} CI", digits)
        return out

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The pairs as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table.

        Every format names the p-values alike: ``p`` is the pair's own p-value and
        ``p_adjusted`` the corrected one the decision rests on (text tables show
        ``p_adjusted`` only when a correction was applied)."""
        return render_result(fmt, digits, lambda: {"pairs": self.json_pairs()},
                             self._output_table, self._display, self.summary)

    def summary(self) -> str:
        parts = [f"{self.method}: {self.n_significant} of {len(self)} pairs significant "
                 f"at α = {alpha_text(self.alpha)}"]
        if self.correction:
            parts.append(f"correction {self.correction}")
        if self.critical_value is not None:
            parts.append(f"critical value {self.critical_value:.4f}")
        if self.half_width is not None:  # balanced: one width for every pair
            parts.append(f"{level_text(1 - self.alpha)} CI of a pair's difference: diff ± "
                         f"{2 * self.half_width:.4f}; comparison interval of a system (eq. "
                         f"11): mean ± {self.half_width:.4f} (two overlap exactly when their "
                         "pair is not significant)")
        if self.samples is not None:
            parts.append(f"B = {self.samples}, p-values {self.convention}")
        if "mean_interval" in self.extra:  # irscale.stats.pair_intervals
            parts.append(f"CI a, CI b, CI diff: {level_text(1 - self.alpha)} "
                         f"{INTERVAL_NAMES[self.extra['mean_interval']]} intervals over "
                         "topics of each mean and of the mean paired difference")
        return "; ".join(parts)

    def _caption(self) -> str:
        return f"PairwiseComparisons: {self.summary()}"


def _fold_interval(frame: Table, after: str, low: str, high: str, header: str,
                   digits: int) -> None:
    """Replace ``frame``'s columns ``low`` and ``high`` by one column ``header`` of their
    intervals as text, placed after the column ``after``."""
    cells = [format_interval(lo, hi, digits)
             for lo, hi in zip(frame.pop(low), frame.pop(high), strict=True)]
    frame.insert(list(frame.columns).index(after) + 1, header, cells)


def mean_pairs(means: object, cov: np.ndarray, method: str
               ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray], np.ndarray, np.ndarray]:
    """Every pair (u, v), u < v, of the ``k`` systems' ``means`` with covariance ``cov``,
    for the simultaneous comparisons (Tukey's HSD, Scheffé's method: ``method``, named
    where fewer than two systems are given): the means as floats, the pairs' indices
    (``np.triu_indices``), the differences mean_u − mean_v and their variances
    var_u + var_v − 2 cov_uv (clipped at 0 against rounding)."""
    means = np.asarray(means, dtype=np.float64)
    if len(means) < 2:
        raise ParameterError(f"{method} needs at least two systems")
    i, j = np.triu_indices(len(means), k=1)
    var = np.maximum(cov[i, i] + cov[j, j] - 2.0 * cov[i, j], 0.0)
    return means, (i, j), means[i] - means[j], var


def tukey_from_means(
    means: np.ndarray,
    cov: np.ndarray,
    df: float,
    systems: Sequence[str],
    *,
    alpha: float = 0.05,
    method: str = "Tukey HSD",
    fake: bool = False,
    note: str = "",
    pvalues: bool = True,
) -> PairwiseComparisons:
    """Tukey's HSD (:mod:`irscale.stats.tukey`) for all pairs of ``means`` with
    covariance ``cov`` and error df ``df``.

    ``pvalues=False`` skips the p-values (NaN; the decisions, which use the critical
    value, are the same): the studentized-range tail is the costly part for many pairs,
    and meta-evaluation (topic splitting, scale-effect tables) needs only the decisions.
    """
    alpha = check_alpha(alpha)
    means, (i, j), diff, var = mean_pairs(means, cov, "Tukey's HSD")
    k = len(means)
    se = np.sqrt(var / 2.0)
    from ._ptukey import tukey_critical, tukey_sf

    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.where(se > 0, np.abs(diff) / np.where(se > 0, se, 1.0), np.inf)
    critical = tukey_critical(alpha, k, df)
    if fake:
        p = np.where(np.abs(diff) > tie_tolerance(means), 0.0, 1.0)
        significant = p <= alpha
    else:
        p = tukey_sf(q, k, df) if pvalues else np.full(q.shape, np.nan)
        significant = q > critical
    diagonal = np.diag(cov)
    off = cov - np.diag(diagonal)
    balanced = np.allclose(diagonal, diagonal[0]) and not np.any(off)
    names = np.array(systems, dtype=object)
    return PairwiseComparisons(
        method=method,
        alpha=alpha,
        columns={
            "a": names[i], "b": names[j], "mean_a": means[i], "mean_b": means[j],
            "diff": diff, "ci_low": diff - critical * se, "ci_high": diff + critical * se,
            "statistic": q, "p": p, "significant": significant,
        },
        critical_value=critical,
        half_width=0.5 * critical * float(np.sqrt(diagonal[0])) if balanced else None,
        note=note,
        extra={"df": df, "k": k, "tukey_se": se},
    )



# --------------------------------------------------------------------------- ANOVA
@dataclass(frozen=True)
class AnovaRow(Unpacks, HtmlRepr):
    """One line of an ANOVA table. ``f``, ``p`` and the effect sizes are ``None`` for the
    error and total lines.

    ``omega2`` is Ferro & Maistro (2024), eq. (8): df(F − 1) / (df(F − 1) + N), N the number of
    observations (the partial ω² of Olejnik & Algina, 2003); ``omega2_total`` is Hays'
    (non-partial) ω² = (SS − df·MS_error) / (SS_total + MS_error); ``eta2`` = SS/SS_total
    and ``partial_eta2`` = SS/(SS + SS_error).

    Protocol: ``statistic`` (= ``f``), ``pvalue`` (= ``p``), ``effect_size`` (=
    ``omega2``), ``to_frame()``, ``format(fmt)``; ``f`` and ``p`` remain as the fields.
    """

    factor: str
    ss: float
    df: float
    ms: float | None
    f: float | None = None
    p: float | None = None
    omega2: float | None = None
    omega2_total: float | None = None
    eta2: float | None = None
    partial_eta2: float | None = None

    @property
    def partial_omega2(self) -> float | None:
        """Alias of ``omega2``: eq. (8) is the partial ω² estimator."""
        return self.omega2

    @property
    def statistic(self) -> float | None:
        """F = MS/MS_error (``None`` for the error and total lines); the field ``f``."""
        return self.f

    @property
    def pvalue(self) -> float | None:
        """P(F_{df, df_error} ≥ F) (``None`` for the error and total lines); field ``p``."""
        return self.p

    @property
    def effect_size(self) -> float | None:
        """ω² of Ferro & Maistro (2024), eq. (8) (partial; ``None`` for the error and total
        lines)."""
        return self.omega2

    def to_frame(self) -> pd.DataFrame:
        """One row, the columns of :meth:`AnovaResult.to_frame`."""
        return _anova_frame([self])

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The line as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        digits = check_digits(digits)
        if fmt in ("csv", "json"):
            return render(self.to_frame(), fmt)
        return render(_anova_display(self.to_frame()), fmt, digits=digits)


_ANOVA_COLUMNS = ("factor", "ss", "df", "ms", "f", "p", "omega2", "omega2_total", "eta2",
                  "partial_eta2")
#: The display names of the effect sizes (:func:`_anova_display`).
_ANOVA_NAMES = {"omega2": "ω²", "omega2_total": "ω² (total)", "eta2": "η²",
                "partial_eta2": "partial η²"}
#: The empty cells of an ANOVA table, under both names of its columns.
_ANOVA_MEANINGS = {name: blank("the error and total lines have no F test and no effect "
                               "size, the total line no mean square; nor has a term "
                               "without degrees of freedom")
                   for column in _ANOVA_COLUMNS[3:]
                   for name in (column, _ANOVA_NAMES.get(column, column))}


def _anova_frame(rows: Sequence[AnovaRow]) -> pd.DataFrame:
    """The table of ``rows`` (:meth:`AnovaResult.to_frame`), its empty cells declared."""
    import pandas as pd

    frame = pd.DataFrame([{c: getattr(r, c) for c in _ANOVA_COLUMNS} for r in rows],
                         columns=list(_ANOVA_COLUMNS)
                         ).astype({c: float for c in _ANOVA_COLUMNS[1:]})
    return declare(frame, _ANOVA_MEANINGS)


def _anova_display(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    frame["df"] = [_whole(v) for v in frame["df"]]
    return frame.rename(columns=_ANOVA_NAMES)


@dataclass(frozen=True, eq=False)
class AnovaResult(Unpacks, HtmlRepr):
    """An ANOVA table and the system factor's estimates.

    ``rows`` holds one :class:`AnovaRow` per model term, then ``error`` and ``total``.
    ``system_means`` are the system marginal means (least-squares means for unbalanced
    data) and ``system_cov`` their estimated covariance matrix (MS_error/r · I in balanced
    designs, r observations per system): all that Tukey's HSD needs.

    ``transform`` names the transform of the scores the table was computed on (``None``:
    the scores themselves; :mod:`irscale.stats.transforms`). ``residuals`` are the fit's
    residuals, one per observed score in C order of the array whose axes are ``factors``
    (topic × system (× shard)); ``residual_cells`` marks the observed cells of that array,
    and ``variance_factors`` names the factors across whose levels :attr:`assumptions`
    compares the residuals' variances (system, then topic and shard where the model has
    them as main effects).

    ``target`` is the factor whose means ``systems``/``system_means`` hold: ``"system"``,
    or ``"predictor"`` in the ANOVA of query performance predictors
    (:func:`irscale.stats.qpp_anova`).

    Protocol: ``statistic``, ``pvalue`` and ``effect_size`` are the system factor's F, p
    and ω² (the line ``row("system")``, the test of the system effect; ``row(target)``),
    ``to_frame()`` the table, ``format(fmt)``.
    """

    model: str
    name: str
    rows: tuple[AnovaRow, ...]
    n_obs: int
    ss_type: str
    systems: tuple[str, ...]
    system_means: np.ndarray
    system_cov: np.ndarray
    df_error: float
    ms_error: float
    fake: bool = False
    note: str = ""
    transform: str | None = None
    residuals: np.ndarray = field(default_factory=lambda: np.empty(0), repr=False)
    residual_cells: np.ndarray = field(default_factory=lambda: np.empty(0, bool), repr=False)
    factors: tuple[str, ...] = ()
    variance_factors: tuple[str, ...] = ()
    target: str = "system"

    @property
    def residual_groups(self) -> dict[str, np.ndarray]:
        """For each factor of ``variance_factors``, the level (index) of every residual."""
        cells = np.nonzero(self.residual_cells)  # C order, as the residuals
        return {f: cells[self.factors.index(f)] for f in self.variance_factors}

    @cached_property
    def assumptions(self) -> AssumptionChecks:
        """The checks of the model's assumptions on its residuals (computed once, on first
        use): Shapiro–Wilk (Shapiro & Wilk 1965), then Levene (1960; centre mean) and
        Brown–Forsythe (1974; centre median) across systems, and across topics (shards)
        where the model has that factor (:mod:`irscale.stats.assumptions`)."""
        from .assumptions import check_assumptions

        return check_assumptions(self.residuals, self.residual_groups, self.df_error,
                                 model=self.model, transform=self.transform)

    def row(self, factor: str) -> AnovaRow:
        for row in self.rows:
            if row.factor == factor:
                return row
        raise ParameterError(f"factor: no factor {factor!r} in the table "
                             f"({[r.factor for r in self.rows]})", param="factor")

    @property
    def statistic(self) -> float | None:
        """F of the system factor (of ``target``)."""
        return self.row(self.target).f

    @property
    def pvalue(self) -> float | None:
        """p of the system factor (of ``target``)."""
        return self.row(self.target).p

    @property
    def effect_size(self) -> float | None:
        """ω² (Ferro & Maistro 2024, eq. 8) of the system factor (of ``target``)."""
        return self.row(self.target).omega2

    def to_frame(self) -> pd.DataFrame:
        return _anova_frame(self.rows)

    def json_rows(self) -> list[dict[str, object]]:
        """The table as ``{"factor", "ss", "df", "ms", "f", "p", "omega2"}`` records."""
        return [
            {k: json_value(getattr(r, k)) for k in ("factor", "ss", "df", "ms", "f", "p",
                                                    "omega2")}
            for r in self.rows
        ]

    def tukey_hsd(self, alpha: float = 0.05, *, pvalues: bool = True) -> PairwiseComparisons:
        """Tukey's HSD on the system factor of this model (Ferro & Maistro 2024, eq. 9–11);
        ``pvalues=False``: decisions only (p = NaN)."""
        label = "fake " if self.fake else ""
        return tukey_from_means(
            self.system_means, self.system_cov, self.df_error, self.systems,
            alpha=alpha, method=f"{label}Tukey HSD after {self.name} [{self.model}]",
            fake=self.fake,
            note=f"MS_error {self.ms_error:.6g} on {self.df_error:g} df ({self.ss_type})",
            pvalues=pvalues,
        )

    def _display(self, digits: int) -> pd.DataFrame:
        return _anova_display(self.to_frame())

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return render_result(fmt, digits, lambda: {"anova": self.json_rows()}, self.to_frame,
                             self._display, self.summary)

    def summary(self) -> str:
        note = f"; {self.note}" if self.note else ""
        on = f" of {self.transform}-transformed scores" if self.transform else ""
        return (f"{self.name}: {self.model}{on} ({self.ss_type} sums of squares, "
                f"N = {self.n_obs}){note}")

    def __repr__(self) -> str:
        lines = [f"AnovaResult({self.summary()})"]
        for r in self.rows:
            extra = "" if r.f is None else (
                f" F={r.f:.4f} p={r.p:.4g} ω²={_fmt_opt(r.omega2)}"
            )
            lines.append(f"  {r.factor:<14} SS={r.ss:.4f} df={_whole(r.df)}{extra}")
        return "\n".join(lines)


@dataclass(frozen=True, eq=False)
class RankTestResult(Unpacks, HtmlRepr):
    """A Kruskal–Wallis or Friedman test: χ² statistic, df, p and the systems' mean ranks.

    ``rank_variance`` is the variance of one rank (tie-corrected) and ``rank_counts`` the
    number of ranks averaged per system, from which Tukey's HSD on mean ranks follows.

    Protocol: ``statistic`` (χ²), ``pvalue``, ``effect_size`` (Kruskal–Wallis:
    ε² = H/(N − 1); Friedman: Kendall's W = χ²_F/(n(k − 1)); Tomczak & Tomczak, 2014),
    ``to_frame()``, ``format(fmt)``.
    """

    test: str
    statistic: float
    df: float
    pvalue: float
    systems: tuple[str, ...]
    mean_ranks: np.ndarray
    rank_variance: float
    rank_counts: np.ndarray
    n_obs: int

    @property
    def effect_size(self) -> float:
        """ε² = H/(N − 1) after Kruskal–Wallis (N scores), Kendall's W = χ²/(n(k − 1))
        after Friedman (n topics, k systems)."""
        k = len(self.systems)
        if self.test == "Friedman":
            return float(self.statistic / (self.n_obs / k * (k - 1)))
        return float(self.statistic / (self.n_obs - 1))

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame([{"test": self.test, "statistic": self.statistic, "df": self.df,
                              "p": self.pvalue, "n": self.n_obs}])

    def json_rows(self) -> list[dict[str, object]]:
        """The test as one ANOVA-like record (no SS/MS/F; ``statistic`` holds χ²)."""
        return [{"factor": "system", "ss": None, "df": json_value(self.df), "ms": None,
                 "f": None, "p": json_value(self.pvalue), "omega2": None,
                 "statistic": json_value(self.statistic)}]

    def tukey_hsd(self, alpha: float = 0.05, *, pvalues: bool = True) -> PairwiseComparisons:
        """Tukey's HSD on the mean ranks (df = ∞), as MATLAB's multcompare does;
        ``pvalues=False``: decisions only (p = NaN)."""
        cov = np.diag(self.rank_variance / self.rank_counts)
        return tukey_from_means(
            self.mean_ranks, cov, np.inf, self.systems, alpha=alpha,
            method=f"Tukey HSD on mean ranks after {self.test}",
            note="differences and intervals are in mean-rank units", pvalues=pvalues,
        )

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        digits = check_digits(digits)
        if fmt == "json":
            return json_text({"anova": self.json_rows()}, indent=2) + "\n"
        frame = self.to_frame()
        if fmt != "csv":
            frame["df"] = [_whole(v) for v in frame["df"]]
        return render(frame, fmt, digits=digits)

    def __repr__(self) -> str:
        return (f"RankTestResult({self.test}: χ²={self.statistic:.4f}, df={_whole(self.df)}, "
                f"p={self.pvalue:.4g}, {len(self.systems)} systems)")

"""Concordance test of two measures against gold-standard measures (Sakai 2014, §5.3, Fig. 17).

For candidate measures M1, M2 and gold standards M*₁..M*_g, over every pair of systems
(X, Y) and every topic q, with ΔM = M(q, X) − M(q, Y) (Sakai, 2012):

* the pair disagrees when ΔM1 · ΔM2 < 0 (M1 and M2 strictly disagree);
* among disagreements, M1 is concordant when ΔM1 · ΔM* ≥ 0 for every gold standard
  (simultaneous concordance with several gold standards, Sakai 2014, Table 2); same for M2;
* Conc(M1 | M2, M*) = Conc1 / Disagreements, Conc(M2 | M1, M*) = Conc2 / Disagreements.

Whether M1 is significantly more concordant than M2 is decided with the sign test on the
*wins* (Sakai 2014, §5.3 and footnote 21): a disagreement is a win of M1 when M1 is
concordant and M2 is not (and vice versa); cases where both or neither are concordant are
ties, dropped by the sign test (:func:`irscale.stats.sign_test`, two-sided, exact
binomial). Differences within the tie tolerance of :mod:`irscale.stats` (10⁻¹⁰ relative)
count as 0. Vectorised over all pairs and topics at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..core.notebook import HtmlRepr
from ..core.numbers import declare, undefined
from ..errors import InputError, ParameterError
from ..stats import sign_test
from ..stats.protocol import Unpacks
from ..stats.tables import Format, percent_text
from ..stats.validation import tie_tolerance
from .common import format_frame, pair_index, paired_tables
from .params import CONCORDANCE

__all__ = ["Concordance", "concordance_table", "concordance_test"]

#: Why a concordance is undefined.
_NO_DISAGREEMENT = undefined("the two measures never disagree: a concordance is x/0 "
                             "disagreements")


@dataclass(frozen=True)
class Concordance(Unpacks, HtmlRepr):
    """Outcome of the concordance test of ``measure_1`` and ``measure_2`` (module docs).

    Protocol: ``statistic`` (``wins_1``, the sign test's number of positive differences:
    disagreements M1 wins), ``pvalue`` (the two-sided exact sign test on the wins),
    ``to_frame()``, ``format(fmt)``.
    """

    measure_1: str
    measure_2: str
    gold: tuple[str, ...]
    comparisons: int
    disagreements: int
    concordant_1: int
    concordant_2: int
    wins_1: int
    wins_2: int
    pvalue: float
    alpha: float

    @property
    def conc_1(self) -> float:
        """Conc(M1 | M2, M*) = Conc1 / Disagreements."""
        return self.concordant_1 / self.disagreements if self.disagreements else float("nan")

    @property
    def conc_2(self) -> float:
        """Conc(M2 | M1, M*) = Conc2 / Disagreements."""
        return self.concordant_2 / self.disagreements if self.disagreements else float("nan")

    @property
    def significant(self) -> bool:
        return bool(self.pvalue <= self.alpha)

    @property
    def statistic(self) -> int:
        """The sign test's statistic: the wins of M1 (``wins_1``) among the
        ``wins_1 + wins_2`` untied disagreements."""
        return self.wins_1

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The test as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        return format_frame(self.to_frame(), fmt, digits=digits,
                            title=None if fmt in ("csv", "json") else repr(self))

    def to_frame(self) -> pd.DataFrame:
        return declare(pd.DataFrame([{
            "measure_1": self.measure_1, "measure_2": self.measure_2,
            "gold": "+".join(self.gold), "comparisons": self.comparisons,
            "disagreements": self.disagreements, "conc_1": self.conc_1, "conc_2": self.conc_2,
            "wins_1": self.wins_1, "wins_2": self.wins_2, "p": self.pvalue,
            "significant": self.significant,
        }]), dict.fromkeys(("conc_1", "conc_2"), _NO_DISAGREEMENT))

    def __repr__(self) -> str:
        return (f"Concordance({self.measure_1} vs {self.measure_2} | {'+'.join(self.gold)}: "
                f"{self.disagreements} disagreements of {self.comparisons}; "
                f"{self.conc_1:.0%} / {self.conc_2:.0%} concordant; wins {self.wins_1} / "
                f"{self.wins_2}, sign test p={self.pvalue:.4g})")


def _label(data: object, measure: str | None, default: str) -> str:
    if measure is not None:
        return measure
    names = getattr(data, "measures", None)
    return str(names[0]) if names and len(names) == 1 else default


def _deltas(values: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Per topic and pair, M(q, X) − M(q, Y) with differences within tolerance set to 0."""
    delta = values[:, i] - values[:, j]
    return np.where(np.abs(delta) <= tie_tolerance(values), 0.0, delta)


@CONCORDANCE
def concordance_test(
    measure_1: object,
    measure_2: object,
    gold: object | Sequence[object],
    *,
    names: Sequence[str] | None = None,
    alpha: float = 0.05,
) -> Concordance:
    """Concordance test (Sakai 2014, Fig. 17) of two topics × systems score tables against one
    gold-standard table or a list of them (simultaneous concordance).

    Tables are score matrices, wide DataFrames or arrays over the same topics and systems
    (labelled inputs are aligned). ``names``: labels of measure_1, measure_2 and the gold
    standards (default: the matrices' measure names).
    """
    golds = list(gold) if isinstance(gold, (list, tuple)) else [gold]
    if not golds:
        raise ParameterError("give at least one gold-standard measure")
    x1, x2, _, systems = paired_tables(measure_1, measure_2)
    gold_values = []
    for g in golds:
        x, y, _, _ = paired_tables(measure_1, g)
        if x.shape != x1.shape:
            raise InputError("the gold standard does not cover the candidate's topics")
        gold_values.append(y)
    i, j = pair_index(len(systems))
    d1, d2 = _deltas(x1, i, j), _deltas(x2, i, j)
    disagree = d1 * d2 < 0
    conc_1 = disagree.copy()
    conc_2 = disagree.copy()
    for g in gold_values:
        dg = _deltas(g, i, j)
        conc_1 &= d1 * dg >= 0
        conc_2 &= d2 * dg >= 0
    wins_1 = int(np.count_nonzero(conc_1 & ~conc_2))
    wins_2 = int(np.count_nonzero(conc_2 & ~conc_1))
    if wins_1 + wins_2 == 0 or disagree.sum() < 2:
        pvalue = 1.0  # nothing to test (a single win has p = 1)
    else:  # paired sign test over the disagreements: ties (both or neither) are dropped
        pvalue = sign_test(conc_1[disagree].astype(np.float64),
                           conc_2[disagree].astype(np.float64)).pvalue
    labels = list(names) if names is not None else [
        _label(measure_1, None, "M1"), _label(measure_2, None, "M2"),
        *(_label(g, None, f"gold{k + 1}") for k, g in enumerate(golds))]
    return Concordance(
        measure_1=labels[0], measure_2=labels[1], gold=tuple(labels[2:]),
        comparisons=int(d1.size), disagreements=int(disagree.sum()),
        concordant_1=int(conc_1.sum()), concordant_2=int(conc_2.sum()),
        wins_1=wins_1, wins_2=wins_2, pvalue=float(pvalue), alpha=alpha,
    )


@CONCORDANCE
def concordance_table(
    data: ScoreMatrix, measures: Sequence[str], gold: Sequence[str], *, alpha: float = 0.05,
    fmt: Format | None = None, digits: int = 0,
) -> pd.DataFrame | str:
    """Every pair of candidate ``measures`` of a score matrix against the ``gold`` measures
    (Sakai 2014, Table 2): one row per pair. With ``fmt``, the table rendered like the
    paper's ("70% / 29% ‡ (1106)": Conc1 / Conc2, significance mark, disagreements)."""
    if not isinstance(data, ScoreMatrix):
        raise ParameterError("concordance_table needs a ScoreMatrix holding every measure")
    if isinstance(measures, str) or len(measures) < 2:
        raise ParameterError(f"measures: two candidate measures at least are needed, got "
                             f"{measures!r}", param="measures")
    if isinstance(gold, str) or not len(gold):
        raise ParameterError(f"gold: a list of gold-standard measures is needed, got {gold!r}",
                             param="gold")
    rows = []
    for a in range(len(measures)):
        for b in range(a + 1, len(measures)):
            result = concordance_test(
                data.measure(measures[a]), data.measure(measures[b]),
                [data.measure(g) for g in gold], alpha=alpha,
                names=[measures[a], measures[b], *gold])
            rows.append(result.to_frame())
    frame = pd.concat(rows, ignore_index=True)
    if fmt is None:
        return frame
    shown = pd.DataFrame({
        "measure_1": frame["measure_1"], "measure_2": frame["measure_2"],
        "conc_1 / conc_2": [
            f"{percent_text(c1, digits)} / {percent_text(c2, digits)}{' ‡' if s else ''} "
            f"({n})"
            for c1, c2, s, n in zip(frame["conc_1"], frame["conc_2"], frame["significant"],
                                    frame["disagreements"], strict=True)],
    })
    return format_frame(shown, fmt)

"""Risk-sensitive evaluation (irscale.stats.risk): URisk and TRisk against a baseline.

Oracles: a hand example written out from the definitions (Wang et al. 2012, Dinçer et al.
2014), numpy on random matrices with a loop per topic, scipy's paired t-test (TRisk at
α = 0) and scipy's t distribution for the p-values.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import ParameterError
from irscale.stats.risk import check_risk_alpha, risk_differences, risk_table

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


def _matrix(values, systems, measures=None):
    return ScoreMatrix.from_array(np.asarray(values, dtype=float), systems=systems,
                                  measures=measures)


def test_hand_example():
    # baseline b, run r on 4 topics: δ = +0.2, −0.1, 0, −0.3; α = 2 weighs losses by 3
    b = [0.5, 0.4, 0.3, 0.6]
    r = [0.7, 0.3, 0.3, 0.3]
    table = risk_table(_matrix(np.c_[b, r], ["b", "r"]), "b", 2.0)
    row = table.iloc[0]
    z = [0.2, -0.3, 0.0, -0.9]  # 0.2, 3·(−0.1), 0, 3·(−0.3)
    urisk = sum(z) / 4  # −0.25
    mean = urisk
    sd = math.sqrt(sum((x - mean) ** 2 for x in z) / 3)
    assert row["urisk"] == pytest.approx(-0.25)
    assert row["trisk"] == pytest.approx(urisk / (sd / 2))
    assert (row["wins"], row["losses"], row["ties"], row["topics"], row["df"]) == (1, 2, 1, 4, 3)
    assert row["p"] == pytest.approx(2 * stats.t.sf(abs(urisk / (sd / 2)), 3))
    assert risk_differences(_matrix(np.c_[b, r], ["b", "r"]), "b", 2.0)["r"].tolist() == \
        pytest.approx(z)


@pytest.mark.parametrize("alpha", [0.0, 1.0, 5.0])
def test_against_numpy_loop(alpha):
    rng = np.random.default_rng(7)
    values = rng.random((30, 4, 2)).round(2)  # rounded: ties happen
    matrix = ScoreMatrix.from_array(values, systems=["a", "b", "c", "d"],
                                    measures=["m1", "m2"])
    table = risk_table(matrix, "c", alpha)
    assert list(table["run"]) == ["a", "b", "d"] * 2
    for row in table.itertuples():
        m = ["m1", "m2"].index(row.measure)
        s = "abcd".index(row.run)
        z = []
        for t in range(30):
            d = values[t, s, m] - values[t, 2, m]
            if abs(d) < 1e-12:
                d = 0.0
            z.append(d if d >= 0 else (1 + alpha) * d)
        z = np.array(z)
        assert row.urisk == pytest.approx(z.mean())
        assert row.trisk == pytest.approx(z.mean() / (z.std(ddof=1) / math.sqrt(30)))
        assert row.p == pytest.approx(2 * stats.t.sf(abs(row.trisk), 29))
        assert (row.wins, row.losses, row.ties) == ((z > 0).sum(), (z < 0).sum(),
                                                    (z == 0).sum())


def test_alpha_zero_is_the_paired_t_test():
    rng = np.random.default_rng(3)
    values = rng.random((25, 2))
    row = risk_table(_matrix(values, ["base", "run"]), "base").iloc[0]
    expected = stats.ttest_rel(values[:, 1], values[:, 0])
    assert row["trisk"] == pytest.approx(expected.statistic)
    assert row["p"] == pytest.approx(expected.pvalue)
    assert row["urisk"] == pytest.approx((values[:, 1] - values[:, 0]).mean())


def test_constant_differences():
    table = risk_table(_matrix([[0.1, 0.3], [0.2, 0.4], [0.1, 0.1]], ["b", "r"]), "b")
    assert table.loc[0, "trisk"] > 0 and table.loc[0, "p"] < 1
    same = risk_table(_matrix([[0.25, 0.5], [0.5, 0.75]], ["b", "r"]), "b").iloc[0]
    assert same["trisk"] == math.inf and same["p"] == 0.0


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), "x", True, None])
def test_bad_alpha(bad):
    with pytest.raises(ParameterError, match="risk_alpha"):
        check_risk_alpha(bad)


def test_unknown_baseline():
    with pytest.raises(ParameterError, match="baseline 'zz' names no run"):
        risk_table(_matrix([[0.1, 0.3], [0.2, 0.4]], ["b", "r"]), "zz")


@pytest.mark.parametrize("alpha", [1e10, 1e300])
def test_huge_alpha_is_weighed_only_where_a_topic_loses(alpha):
    """α weighs losses only: a run that wins every topic has the t of its differences
    whatever α (no tolerance scaled by 1 + α that would call them constant); with losses,
    TRisk is the t of the weighted differences (scale-invariant: computed by scipy on the
    differences divided by 2^e, exactly, 2^e near 1 + α), never inf or an overflow."""
    rng = np.random.default_rng(4)
    base = rng.uniform(0.2, 0.4, 15)
    wins = base + rng.uniform(0.01, 0.1, 15)
    mixed = base + rng.uniform(-0.1, 0.1, 15)
    m = ScoreMatrix.from_array(np.c_[base, wins, mixed], systems=["b", "w", "x"],
                               measures=["ap"])
    table = risk_table(m, "b", alpha).set_index("run")
    assert table.loc["w", "trisk"] == pytest.approx(stats.ttest_rel(wins, base).statistic,
                                                    rel=1e-9)
    d = mixed - base
    e = int(np.frexp(1 + alpha)[1])
    z = np.where(d < 0, np.ldexp(d, -e) * (1 + alpha), np.ldexp(d, -e))
    assert np.isfinite(table.loc["x", "trisk"])
    assert table.loc["x", "trisk"] == pytest.approx(stats.ttest_1samp(z, 0.0).statistic,
                                                    rel=1e-9)


def test_format_risk_titles_the_table_and_keeps_json_whole():
    import json

    import pandas as pd

    from irscale.stats.risk import format_risk

    table = pd.DataFrame({"system": ["r"], "urisk": [-0.125]})
    text = format_risk(table, "b", 2.0, "text", digits=2)
    assert text.splitlines()[0] == ("Risk against b (losses weigh 1 + 2; TRisk: t with "
                                    "topics - 1 df)")
    assert "-0.12" in text or "-0.13" in text
    assert json.loads(format_risk(table, "b", 2.0, "json")) == {
        "risk": [{"system": "r", "urisk": -0.125}]}


def test_format_comparison_is_one_json_document():
    import json

    from irscale.stats.tables import format_comparison

    class Table:
        """A result with one row: its JSON rows and its formatted table."""

        def __init__(self, name: str) -> None:
            self.name = name

        def json_rows(self) -> list[dict[str, str]]:
            return [{"table": self.name}]

        json_pairs = json_rows

        def format(self, fmt: str, digits: int = 4) -> str:
            return f"{self.name} {fmt} {digits}\n"

    assert json.loads(format_comparison(Table("anova"), Table("pairs"), "json")) == {
        "anova": [{"table": "anova"}], "pairs": [{"table": "pairs"}]}
    assert json.loads(format_comparison(None, Table("pairs"), "json")) == {
        "pairs": [{"table": "pairs"}]}
    assert format_comparison(Table("anova"), Table("pairs"), "text", digits=2) == \
        "anova text 2\n\npairs text 2\n"

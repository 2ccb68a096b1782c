"""Measures versus their interval-scaled versions (Ferrante et al. 2021, §7, Tables 2, 4, 5, 6): the
paper's invariants on the 16 CLEF runs, and the tables' arithmetic on synthetic data."""

from __future__ import annotations

import numpy as np
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import InputError
from irscale.meta import SCALE_PAPER_TESTS, scale_effects, scale_report
from irscale.meta.scale_effects import ScaleReport

from .conftest import CLEF, require


def _matrix(seed: int = 0) -> ScoreMatrix:
    """M, an affine image A = 3M + 1 (an interval-scale transformation) and a monotone but
    non-affine image S = M³ of it."""
    rng = np.random.default_rng(seed)
    m = np.clip(rng.normal(0.4, 0.2, (30, 1)) + np.linspace(0, 0.3, 7)
                + rng.normal(0, 0.15, (30, 7)), 0, 1)
    values = np.stack([m, 3 * m + 1, m**3], axis=2)
    return ScoreMatrix.from_array(values, measures=["M", "M_A", "M_S"])


def test_affine_image_changes_nothing_monotone_image_keeps_ordinal_tests():
    matrix = _matrix()
    effects = scale_effects(matrix, [("M", "M_A")], recall_base={"M": False}, N=5, label="X")
    report = ScaleReport("X", (effects,))
    assert report.table2().loc["X", "M"] == pytest.approx(1.0)
    frame = effects.significance()
    assert len(frame) == len(SCALE_PAPER_TESTS)
    assert (frame["s2ns"] + frame["ns2s"] == 0).all()
    cubed = scale_effects(matrix, [("M", "M_S")], recall_base={"M": False}).significance()
    ordinal = cubed[cubed["ordinal"]]
    # rank-based tests see the same per-topic orders: no change
    assert (ordinal["s2ns"] + ordinal["ns2s"] == 0).all()
    row = cubed.iloc[0]
    assert row["delta_%"] == pytest.approx(100 * (row["s2ns"] + row["ns2s"]) / row["sig"])


def test_table4_delta_is_relative_change():
    matrix = _matrix(1)
    effects = scale_effects(matrix, [("M", "M_A"), ("M_S", "M_S")],
                            recall_base={"M": False, "M_S": False})
    table = ScaleReport("X", (effects,)).table4()
    row = table.iloc[0]
    assert row["measure"] == "M vs M_S"
    assert row["delta_%"] == pytest.approx(100 * (row["RnkMsr"] - row["Msr"]) / row["Msr"])


def test_table4_delta_undefined_where_msr_is_zero():
    """Four systems ranked 1 2 3 4 by one measure and 2 4 1 3 by the other: 3 concordant
    and 3 discordant pairs, τ = 0 exactly, and Δ% = 100 (RnkMsr − Msr)/Msr has no value
    (it raised ZeroDivisionError)."""
    a = np.tile([0.1, 0.2, 0.3, 0.4], (3, 1))
    b = np.tile([0.2, 0.4, 0.1, 0.3], (3, 1))
    matrix = ScoreMatrix.from_array(np.stack([a, a, b, b], axis=2),
                                    measures=["A", "A_R", "B", "B_R"])
    effects = scale_effects(matrix, [("A", "A_R"), ("B", "B_R")], tests=(),
                            recall_base={"A": False, "B": False})
    row = ScaleReport("X", (effects,)).table4().iloc[0]
    assert row["Msr"] == 0.0 and row["RnkMsr"] == 0.0 and np.isnan(row["delta_%"])


def test_a_test_that_cannot_run_is_named():
    """Identical systems: the two-way ANOVA fits exactly and is refused, naming the track,
    the column and the test among the many analyses."""
    a = np.tile([[0.1], [0.5], [0.3]], (1, 3))
    matrix = ScoreMatrix.from_array(np.stack([a, a], axis=2), measures=["A", "A_R"])
    with pytest.raises(InputError, match=r"^T_05, A, Two-way ANOVA: the model fits"):
        scale_effects(matrix, [("A", "A_R")], tests=("MD2",), label="T_05",
                      recall_base={"A": False})


@pytest.fixture(scope="module")
def clef_report():
    require(CLEF)
    runs = sorted(str(p) for p in (CLEF / "runs").glob("*.txt"))
    return scale_report(CLEF / "task2.qrels", runs, cutoffs=(5, 10), collection="CLEF")


def test_clef_invariants_of_seed000(clef_report):
    """τ(M, M_R) = 1 for P and RBP_p05, and no S2NS/NS2S change under any of the eight
    tests (Ferrante et al. 2021, §7.1.1 and §7.3.1), at every cut-off."""
    invariants = clef_report.invariants()
    assert len(invariants) == 4
    assert np.allclose(invariants["tau"], 1.0)
    assert np.allclose(invariants["min_topic_tau"], 1.0)
    assert (invariants["changes"] == 0).all()
    table2 = clef_report.table2()
    assert list(table2.index) == ["CLEF_05", "CLEF_10"]
    assert (table2 <= 1.0 + 1e-12).all().all()
    assert table2.loc["CLEF_05", "RR"] < 1.0
    # φ preserves each topic's order: topic-by-topic τ = 1 for every measure
    topic = clef_report.topic_by_topic()
    assert np.allclose(topic.to_numpy()[np.isfinite(topic.to_numpy())], 1.0)


def test_clef_tables_have_the_papers_shape(clef_report):
    sig = clef_report.significance()
    assert len(sig) == 2 * 11 * 8
    # sign and Friedman tests never change (Ferrante et al. 2021, Tables 5 and 6)
    stable = sig[sig["test"].isin(["sign", "friedman"])]
    assert (stable["s2ns"] + stable["ns2s"] == 0).all()
    table5 = clef_report.table5(10)
    assert set(table5["measure"]) == {"P", "RBP_p03", "RBP_p05", "RBP_p08", "DCG_b02",
                                      "DCG_b10", "RR"}
    assert set(clef_report.table6(10)["measure"]) == {"R", "AP", "nDCG_b02", "nDCG_b10"}
    assert list(table5.columns) == ["measure", "test", "Sig", "S2NS (%)", "NS2S (%)", "Δ%"]
    table4 = clef_report.table4(10)
    assert len(table4) == 55
    p_r = table4[table4["measure"] == "P vs R"].iloc[0]
    assert p_r["RnkMsr"] == pytest.approx(1.0)  # P and R share their ranked version
    latex = clef_report.format("5", "latex", N=5)
    assert "\\begin{tabular}" in latex and "$\\Delta$" in latex
    assert "Table 2" in clef_report.format("all")

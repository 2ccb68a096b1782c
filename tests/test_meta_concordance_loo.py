"""Concordance test (Sakai 2014, Fig. 17, literally transcribed as the oracle) and the
leave-one-out reusability test (Sakai 2014, §5.4) on hand-made and CLEF data."""

from __future__ import annotations

import numpy as np
import pytest

from irscale import evaluate
from irscale.core import ScoreMatrix
from irscale.errors import InputError
from irscale.meta import concordance_table, concordance_test, leave_one_out, pool_contributions

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


def _fig17(m1, m2, golds):
    """Sakai (2014), Fig. 17 with loops (simultaneous concordance with every gold standard)."""
    disagreements = conc1 = conc2 = wins1 = wins2 = 0
    topics, systems = m1.shape
    for x in range(systems):
        for y in range(x + 1, systems):
            for q in range(topics):
                d1 = m1[q, x] - m1[q, y]
                d2 = m2[q, x] - m2[q, y]
                if d1 * d2 < 0:
                    disagreements += 1
                    c1 = all(d1 * (g[q, x] - g[q, y]) >= 0 for g in golds)
                    c2 = all(d2 * (g[q, x] - g[q, y]) >= 0 for g in golds)
                    conc1 += c1
                    conc2 += c2
                    wins1 += c1 and not c2
                    wins2 += c2 and not c1
    return disagreements, conc1, conc2, wins1, wins2


@pytest.mark.parametrize("seed", range(5))
def test_concordance_matches_figure_17(seed):
    rng = np.random.default_rng(seed)
    shape = (12, 7)
    m1 = rng.integers(0, 5, shape) / 4.0
    m2 = rng.integers(0, 5, shape) / 4.0
    g1 = rng.integers(0, 3, shape) / 2.0
    g2 = rng.integers(0, 3, shape) / 2.0
    result = concordance_test(m1, m2, [g1, g2], names=["A", "B", "G1", "G2"])
    d, c1, c2, w1, w2 = _fig17(m1, m2, [g1, g2])
    assert (result.disagreements, result.concordant_1, result.concordant_2) == (d, c1, c2)
    assert (result.wins_1, result.wins_2) == (w1, w2)
    assert result.comparisons == 12 * 21
    assert result.conc_1 == pytest.approx(c1 / d)
    expected = stats.binomtest(w1, w1 + w2).pvalue if w1 + w2 else 1.0
    assert result.pvalue == pytest.approx(expected)
    assert result.gold == ("G1", "G2")


def test_concordance_table_and_degenerate_cases():
    rng = np.random.default_rng(1)
    values = rng.random((10, 5, 3))
    matrix = ScoreMatrix.from_array(values, measures=["a", "b", "gold"])
    frame = concordance_table(matrix, ["a", "b"], ["gold"])
    assert list(frame["measure_1"]) == ["a"] and frame["disagreements"].iloc[0] > 0
    text = concordance_table(matrix, ["a", "b"], ["gold"], fmt="text")
    assert "%" in text and "(" in text
    same = concordance_test(values[:, :, 0], values[:, :, 0], values[:, :, 2])
    assert same.disagreements == 0 and same.pvalue == 1.0


# ----------------------------------------------------------------------------- LOO
QRELS = {
    "q1": {"a": 1, "b": 1, "c": 0, "d": 1, "e": 1},
    "q2": {"a": 0, "b": 1, "f": 1, "g": 1},
}
RUNS = {
    # team X (two runs) alone retrieves c, d (q1) and a, g (q2)
    "X_1": {"q1": {"a": 3, "d": 2, "c": 1}, "q2": {"b": 2, "g": 1}},
    "X_2": {"q1": {"d": 3, "a": 2}, "q2": {"g": 2, "a": 1}},
    # team Y alone retrieves b, e (q1) and f (q2)
    "Y_1": {"q1": {"b": 3, "e": 2, "a": 1}, "q2": {"f": 2, "b": 1}},
}


def test_pool_contributions_and_unique_documents():
    pool = pool_contributions(QRELS, RUNS, {"X_1": "X", "X_2": "X", "Y_1": "Y"}, depth=10)
    unique = pool[pool["unique"]].sort_values(["query_id", "doc_id"])
    assert list(zip(unique.query_id, unique.doc_id, unique.contributor, strict=True)) == [
        ("q1", "b", "Y"), ("q1", "c", "X"), ("q1", "d", "X"), ("q1", "e", "Y"),
        ("q2", "a", "X"), ("q2", "f", "Y"), ("q2", "g", "X")]
    shallow = pool_contributions(QRELS, RUNS, {"X_1": "X", "X_2": "X", "Y_1": "Y"}, depth=1)
    assert set(shallow["doc_id"]) <= {"a", "d", "b", "g", "f"}


def test_leave_one_out_by_hand():
    result = leave_one_out(QRELS, RUNS, ["P@2", "map"], depth=10)
    # team X evaluated without c, d (q1) and a, g (q2); team Y without b, e (q1), f (q2)
    loo_x = {"q1": {"a": 1, "b": 1, "e": 1}, "q2": {"b": 1, "f": 1}}
    loo_y = {"q1": {"a": 1, "c": 0, "d": 1}, "q2": {"a": 0, "b": 1, "g": 1}}
    expected = {}
    for _team, qrels, runs in (("X", loo_x, ["X_1", "X_2"]), ("Y", loo_y, ["Y_1"])):
        matrix = evaluate(qrels, {r: RUNS[r] for r in runs}, ["P@2", "map"]).to_matrix()
        for r in runs:
            for m in ("P@2", "map"):
                expected[(m, r)] = matrix.array(m)[:, matrix.systems.index(r)].mean()
    rows = result.runs.set_index(["measure", "run"])
    for key, value in expected.items():
        assert rows.loc[key, "loo_score"] == pytest.approx(value)
    full = evaluate(QRELS, RUNS, ["P@2"]).to_matrix()
    assert rows.loc[("P@2", "X_1"), "score"] == pytest.approx(full.mean()[0])
    assert set(result.unique["contributor"]) == {"X", "Y"}
    assert (result.runs["loo_score"] <= result.runs["score"] + 1e-12).all()
    assert set(result.summary["measure"]) == {"P@2", "map"}
    with pytest.raises(InputError):
        leave_one_out(QRELS, RUNS, "P@2", contributors={"X_1": "X"})


def test_leave_one_out_on_clef(clef):
    runs = {p.stem: str(p) for p in sorted((clef / "runs").glob("*.txt"))}
    result = leave_one_out(clef / "task2.qrels", runs, ["map", "P@10"], depth=10)
    assert len(result.unique) == 6  # CUNI, GUIR, InfoLab, KDEIR, WHUIRGroup, ecnu
    assert set(result.summary["measure"]) == {"map", "P@10"}
    assert (result.summary["tau"] > 0.8).all()
    assert (result.runs["loo_score"] <= result.runs["score"] + 1e-12).all()
    assert "LeaveOneOut" in repr(result)

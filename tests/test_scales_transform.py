"""Interval scales on real evaluations: the transform (cut, pad, per-topic scales) and the
invariants of Ferrante et al. (2021), §7.1 on the CLEF 2016 runs."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from irscale.io.memory import qrels_from_dict, run_from_dict
from irscale.scales import scale
from irscale.scales.diagnostics import tau_table
from irscale.scales.transform import transform
from irscale.stats.kendall import kendall_tau, overall_tau, topic_taus

QRELS = qrels_from_dict({
    "t1": {"a": 1, "b": 2, "c": 0, "d": 1, "u": -1},
    "t2": {"a": 0, "x": 1},
    "t3": {"z": 0},
})
RUNS = [
    run_from_dict({"t1": {"a": 3.0, "b": 2.0, "c": 1.0}, "t2": {"x": 1.0, "a": 0.5}},
                  name="r1"),
    run_from_dict({"t1": {"c": 3.0, "zz": 2.0, "d": 1.5, "u": 1.2, "b": 1.0}}, name="r2"),
]


def test_runs_are_cut_padded_and_projected():
    result = transform(QRELS, RUNS, ["P", "RR", "R"], 4, progress=False)
    p = result.original("P")
    assert p.topics == ("t1", "t2") and p.systems == ("r1", "r2")
    # r1/t1 = (1,1,0,0) padded; r2/t1 = (0,0,1,0) cut (zz unjudged, u pooled-unjudged: 0);
    # r2 has no result for t2: four non-relevant documents
    assert p.array().tolist() == [[0.5, 0.25], [0.25, 0.0]]
    assert result.ranked("P").array().tolist() == [[3, 2], [2, 1]]
    assert result.ranked("RR").array().tolist() == [[5, 3], [5, 1]]  # φ = N + 2 − f
    # R depends on the recall base but its ranked version is P's on REL^N (§5.2.2)
    assert result.original("R").array()[0].tolist() == [2 / 3, 1 / 3]
    assert result.ranked("R").array().tolist() == result.ranked("P").array().tolist()


def test_all_topics_and_graded_levels():
    result = transform(QRELS, RUNS, ["DCG_b02", "P"], 3, levels=3, all_topics=True,
                       progress=False)
    assert result.matrix.topics == ("t1", "t2", "t3")
    dcg = result.original("DCG_b02").array()
    assert dcg[0].tolist() == pytest.approx([1 + 2, 1 / np.log2(3)])  # (1,2,0) and (0,0,1)
    assert dcg[2].tolist() == [0.0, 0.0]
    sc = scale("DCG_b02", 3, 3, progress=False)
    assert result.ranked("DCG_b02").array()[0].tolist() == sc.phi([[1, 2, 0], [0, 0, 1]]
                                                                  ).tolist()


def test_feasible_space_uses_each_topics_recall_base():
    full = transform(QRELS, RUNS, ["RBP_p05"], 4, progress=False)
    feasible = transform(QRELS, RUNS, ["RBP_p05"], 4, feasible=True, progress=False)
    # t2 has one relevant document: its feasible space holds 1 + 4 runs, ranked lexically
    assert feasible.ranked().array()[1].tolist() == [5, 1]  # (1,0,0,0) is the largest
    assert full.ranked().array()[1].tolist() == [9, 1]      # 2^3 + 1 on the whole REL^4
    assert feasible.scales[("RBP_p05", "t2")].n_distinct == 5


def test_tie_strategies_and_rescaling():
    runs = [run_from_dict({"t1": {d: 1.0 / (k + 1) for k, d in enumerate(order)}}, name=str(i))
            for i, order in enumerate(["abc", "cab", "bca", "cdb"])]
    for ties in ("unq", "min", "max", "mid"):
        result = transform(QRELS, runs, ["P"], 3, ties=ties, progress=False)
        ranked = result.ranked().array()[0]
        sc = scale("P", 3, progress=False)
        expected = np.asarray(sc.phi([[1, 1, 0], [0, 1, 1], [1, 0, 1], [0, 1, 1]], ties),
                              dtype=float)
        assert ranked.tolist() == expected.tolist()
    rescaled = transform(QRELS, runs, ["P"], 3, rescale=True, progress=False)
    assert rescaled.labels == (("P", "P_R01"),)
    assert rescaled.ranked().array()[0].tolist() == [2 / 3, 2 / 3, 2 / 3, 2 / 3]


def _distinct_values(measure, N: int, most_relevant: int | None = None) -> int:
    """Distinct values of ``measure`` (a function of a binary ranking) over {0, 1}^N, or
    over its rankings with at most ``most_relevant`` relevant documents (the feasible
    space), in exact arithmetic (brute force)."""
    return len({measure(run) for run in itertools.product((0, 1), repeat=N)
                if most_relevant is None or sum(run) <= most_relevant})


def _precision(run) -> Fraction:
    return Fraction(sum(run), len(run))


def _rbp_half(run) -> Fraction:
    """RBP with p = 1/2: (1 − p) Σ_k rel_k p^(k−1) (Moffat and Zobel 2008)."""
    return sum((Fraction(1, 2 ** (k + 1)) for k, rel in enumerate(run) if rel), Fraction(0))


def test_legend_says_what_the_ranked_values_are():
    """The legend names φ and its range (the image's size, by brute force; on the feasible
    space it depends on the topic: t1 has 3 relevant documents, t2 one) and what --rescale
    gives; with rescale, the values it explains are (φ − 1)/(n − 1)."""
    result = transform(QRELS, RUNS, ["P"], 4, progress=False)
    p_values = _distinct_values(_precision, 4)
    assert result.legend() == [
        "P_R = φ: the rank of a topic's P among the P values of runs of length 4 (1 = the "
        f"lowest; φ from 1 to {p_values}, ties unq); rescaled to [0, 1]: P_R01 "
        "(rescale=True, --rescale)"]
    feasible = transform(QRELS, RUNS, ["RBP_p05"], 4, feasible=True, progress=False)
    t2, t1 = sorted(_distinct_values(_rbp_half, 4, rb) for rb in (3, 1))
    assert feasible.legend() == [
        "RBP_p05_R = φ: the rank of a topic's RBP_p05 among the RBP_p05 values of runs of "
        f"length 4 (1 = the lowest; φ from 1 to {t2}-{t1} (by topic), ties unq); rescaled "
        "to [0, 1]: RBP_p05_R01 (rescale=True, --rescale)"]
    rescaled = transform(QRELS, RUNS, ["P"], 4, rescale=True, progress=False)
    assert rescaled.legend() == [
        "P_R01 = (φ − φ_min)/(φ_max − φ_min) in [0, 1], φ the rank of a topic's P among the P "
        f"values of runs of length 4 (from 1 to {p_values}, ties unq): 0 for the lowest "
        "value, 1 for the highest"]
    phi = result.ranked("P").array()
    assert rescaled.ranked("P").array().tolist() == ((phi - 1) / (p_values - 1)).tolist()


def test_kendall_tau_matches_the_seed_formula():
    # (P − Q)/sqrt((P + Q + T)(P + Q + U))
    x, y = [1, 2, 2, 3, 4], [1, 3, 2, 2, 5]
    result = kendall_tau(x, y)
    p, q, t, u = result.concordant, result.discordant, result.ties_x, result.ties_y
    assert (p, q, t, u) == (7, 1, 1, 1)
    assert result.tau == pytest.approx((p - q) / np.sqrt((p + q + t) * (p + q + u)))
    from scipy.stats import kendalltau

    assert result.tau == pytest.approx(kendalltau(x, y).statistic)
    assert np.isnan(kendall_tau([1, 1, 1], [1, 2, 3]).tau)


# ---------------------------------------------------------------- real data
MEASURES = ["P", "RBP_p05", "RBP_p03", "RBP_p08", "DCG_b02", "DCG_b10", "RR", "R", "nDCG_b02",
            "nDCG_b10"]


def clef_runs(clef):
    return sorted(str(p) for p in (clef / "runs").glob("*.txt"))


@pytest.mark.parametrize("N", [5, 10, 20, 30])
def test_seed_000_invariants_on_clef(clef, N):
    result = transform(clef / "task2.qrels", clef_runs(clef), MEASURES, N, progress=False)
    m = result.matrix
    assert m.shape == (50, 16, 2 * len(MEASURES))
    assert overall_tau(m, None, "P", "P_R").tau == 1.0
    assert overall_tau(m, None, "RBP_p05", "RBP_p05_R").tau == 1.0
    if N <= 10:
        assert overall_tau(m, None, "DCG_b10", "DCG_b10_R").tau == 1.0
    assert np.array_equal(m.array("RBP_p03_R"), m.array("RBP_p05_R"))
    # topic by topic, every measure and its ranked version order the runs alike
    for label, ranked in result.labels:
        taus = topic_taus(m, None, label, ranked)
        assert np.all(taus[~np.isnan(taus)] == 1.0), label
    # P and R share the ranked version; so do DCG and nDCG (Ferrante et al. 2021, §7.1.2)
    assert np.array_equal(m.array("P_R"), m.array("R_R"))
    assert np.array_equal(m.array("DCG_b02_R"), m.array("nDCG_b02_R"))


def test_table_2_layout_and_ap(clef):
    frame = tau_table(clef / "task2.qrels", clef_runs(clef), ["P", "AP", "RR"], [5, 10],
                      progress=False)
    assert list(frame.columns[:3]) == ["N", "measure", "tau_overall"]
    assert len(frame) == 6
    assert frame.loc[frame.measure == "P", "tau_overall"].tolist() == [1.0, 1.0]
    assert (frame.tau_topic_min == 1.0).all()
    assert (frame.loc[frame.measure != "P", "tau_overall"] < 1.0).all()


def test_transform_of_judged_rankings():
    from irscale.core.judge import build_judged_rankings
    from irscale.scales.transform import transform_rankings

    jr = build_judged_rankings(QRELS, RUNS)
    direct = transform_rankings(jr, ["AP", "RBP_p08"], 5, progress=False)
    via_files = transform(QRELS, RUNS, ["AP", "RBP_p08"], 5, progress=False)
    assert np.array_equal(direct.matrix.values, via_files.matrix.values)

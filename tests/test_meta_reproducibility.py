"""Reproducibility measures (Breuer et al., SIGIR 2020): ER, ΔRI, RMSE, t-tests, τ and RBO
between document orderings, against worked examples and scipy/numpy brute force.

The reference implementation, ``repro_eval``, is not installed here: the formulas are
checked on hand computations instead (ER = mean reproduced improvement / mean original
improvement; ΔRI = RI − RI′ with RI = (mean adv − mean base) / mean base; RMSE over
topics)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from irscale import meta
from irscale.core import ScoreMatrix
from irscale.errors import IrscaleError

from .oracle_imports import lazy_import

sps = lazy_import("scipy.stats")

# a worked example, 4 topics
OB = {"1": 0.20, "2": 0.40, "3": 0.10, "4": 0.30}
OA = {"1": 0.30, "2": 0.60, "3": 0.30, "4": 0.40}
RB = {"1": 0.25, "2": 0.35, "3": 0.10, "4": 0.30}
RA = {"1": 0.30, "2": 0.45, "3": 0.20, "4": 0.35}


def test_worked_example_by_hand():
    row = meta.reproducibility(OB, OA, RB, RA).to_frame().iloc[0]
    # original improvements 0.1, 0.2, 0.2, 0.1 (mean 0.15); reproduced 0.05, 0.1, 0.1, 0.05
    # (mean 0.075): ER = 0.075 / 0.15 = 0.5
    assert row["ER"] == pytest.approx(0.5)
    # RI = (0.4 − 0.25) / 0.25 = 0.6; RI′ = (0.325 − 0.25) / 0.25 = 0.3; ΔRI = 0.3
    assert row["RI"] == pytest.approx(0.6)
    assert row["RI_reproduced"] == pytest.approx(0.3)
    assert row["delta_RI"] == pytest.approx(0.3)
    # RMSE baseline: differences 0.05, 0.05, 0, 0 → sqrt(0.005 / 4)
    assert row["RMSE_baseline"] == pytest.approx(math.sqrt(0.005 / 4))
    # advanced: 0, 0.15, 0.1, 0.05 → sqrt((0.0225 + 0.01 + 0.0025) / 4)
    assert row["RMSE_advanced"] == pytest.approx(math.sqrt(0.035 / 4))
    assert row["p_advanced"] == pytest.approx(
        sps.ttest_rel(list(OA.values()), list(RA.values())).pvalue)
    assert row["p_baseline"] == pytest.approx(
        sps.ttest_rel(list(OB.values()), list(RB.values())).pvalue)


def test_brute_force_on_random_scores_and_inputs_of_every_kind():
    rng = np.random.default_rng(3)
    topics = [str(t) for t in range(30)]
    values = rng.uniform(0.05, 0.9, size=(30, 4, 2))
    frames = [pd.DataFrame(values[:, k, :], index=topics, columns=["AP", "P@10"])
              for k in range(4)]
    # the reproduction lists its topics in another order: aligned by label
    frames[2], frames[3] = frames[2].iloc[::-1], frames[3].sample(frac=1, random_state=1)
    result = meta.reproducibility(*frames)
    assert result.kind == "reproducibility"
    table = result.to_frame().set_index("measure")
    for m, name in enumerate(["AP", "P@10"]):
        ob, oa, rb, ra = (values[:, k, m] for k in range(4))
        assert table.loc[name, "ER"] == pytest.approx(np.mean(ra - rb) / np.mean(oa - ob))
        ri = (oa.mean() - ob.mean()) / ob.mean()
        ri_r = (ra.mean() - rb.mean()) / rb.mean()
        assert table.loc[name, "delta_RI"] == pytest.approx(ri - ri_r)
        assert table.loc[name, "RMSE_baseline"] == pytest.approx(np.sqrt(np.mean((ob - rb) ** 2)))
        assert table.loc[name, "p_advanced"] == pytest.approx(sps.ttest_rel(oa, ra).pvalue)
    # a ScoreMatrix of one run per argument gives the same table
    matrices = [ScoreMatrix.from_array(values[:, k:k + 1, :], topics=topics, systems=["r"],
                                       measures=["AP", "P@10"]) for k in range(4)]
    pd.testing.assert_frame_equal(meta.reproducibility(*matrices).to_frame(),
                                  result.to_frame())
    # and one measure chosen
    assert list(meta.reproducibility(*frames, measures=["P@10"]).to_frame()["measure"]) == \
        ["P@10"]


def test_perfect_reproduction():
    row = meta.reproducibility(OB, OA, OB, OA).to_frame().iloc[0]
    assert row["ER"] == 1 and row["delta_RI"] == 0
    assert row["RMSE_baseline"] == 0 and row["RMSE_advanced"] == 0
    assert math.isnan(row["p_baseline"])  # nothing to test: said as undefined
    assert "undefined" in meta.reproducibility(OB, OA, OB, OA).format()


def test_simulated_reproductions_with_a_known_effect():
    """The reproduction's true improvement is half the original's: ER → 0.5 as the topics
    grow; a reproduction that only adds noise has ER → 1."""
    rng = np.random.default_rng(7)
    n = 20000
    base = rng.uniform(0.2, 0.6, n)
    advanced = base + 0.1 + rng.normal(0, 0.05, n)
    half = base + 0.05 + rng.normal(0, 0.05, n)
    noisy = advanced + rng.normal(0, 0.02, n)
    assert meta.reproducibility(base, advanced, base, half).to_frame()["ER"][0] == \
        pytest.approx(0.5, abs=0.01)
    assert meta.reproducibility(base, advanced, base, noisy).to_frame()["ER"][0] == \
        pytest.approx(1.0, abs=0.01)


def test_replicability_on_other_topics():
    rb = {"a": 0.2, "b": 0.4, "c": 0.3}
    ra = {"a": 0.3, "b": 0.4, "c": 0.5}
    result = meta.reproducibility(OB, OA, rb, ra)
    row = result.to_frame().iloc[0]
    assert result.kind == "replicability"
    assert "RMSE_baseline" not in row.index
    assert row["ER"] == pytest.approx((0.3 / 3) / 0.15)
    assert row["p_baseline"] == pytest.approx(
        sps.ttest_ind(list(OB.values()), list(rb.values())).pvalue)


def test_undefined_ratios_and_refusals():
    zero = {"1": 0.0, "2": 0.0}
    row = meta.reproducibility(zero, {"1": 0.1, "2": 0.2}, zero, {"1": 0.1, "2": 0.1}) \
        .to_frame().iloc[0]
    assert math.isnan(row["RI"]) and math.isnan(row["delta_RI"])
    same = {"1": 0.3, "2": 0.5}
    assert math.isnan(meta.reproducibility(same, same, OB, OA).to_frame()["ER"][0])
    with pytest.raises(IrscaleError, match="same topics"):
        meta.reproducibility(OB, {"1": 0.3}, RB, RA)
    with pytest.raises(IrscaleError, match="nope"):
        meta.reproducibility(OB, OA, RB, RA, measures=["nope"])
    with pytest.raises(IrscaleError, match="finite"):
        meta.reproducibility({**OB, "1": float("nan")}, OA, RB, RA)
    with pytest.raises(IrscaleError, match="not a number"):
        meta.reproducibility({**OB, "1": "x"}, OA, RB, RA)


# ----------------------------------------------------------------- document orderings
def _run(order: list[str]) -> dict[str, float]:
    return {d: float(len(order) - i) for i, d in enumerate(order)}


def test_ranking_agreement_by_hand_and_against_scipy():
    original = {"q1": _run(["d1", "d2", "d3"]), "q2": _run(["x", "y"])}
    reproduced = {"q1": _run(["d1", "d3", "d4"]), "q2": _run(["x", "y"])}
    result = meta.ranking_agreement(original, reproduced, p=0.5)
    table = result.to_frame().set_index("topic")
    # union d1..d4; original ranks 1, 2, 3 and d4 below (4); reproduced 1, 4 (d2 below),
    # 2, 3: pairs d2-d3 and d2-d4 discordant, the other four concordant: τ = 2/6
    assert table.loc["q1", "tau"] == pytest.approx(1 / 3)
    assert table.loc["q1", "tau"] == pytest.approx(
        sps.kendalltau([1, 2, 3, 4], [1, 4, 2, 3]).statistic)
    # RBO at p = 0.5 on 3 items: X = 1, 1, 2; (1 − p)/p Σ X_d/d p^d + X_3/3 p^3
    expected = (0.5 / 0.5) * (1 * 0.5 + 0.5 * 0.25 + (2 / 3) * 0.125) + (2 / 3) * 0.125
    assert table.loc["q1", "rbo"] == pytest.approx(expected)
    assert table.loc["q2", "tau"] == 1 and table.loc["q2", "rbo"] == pytest.approx(1)
    # the depth cuts both rankings first
    cut = meta.ranking_agreement(original, reproduced, depth=1).to_frame().set_index("topic")
    assert cut.loc["q1", "rbo"] == pytest.approx(1)


def test_ranking_agreement_random_against_scipy():
    rng = np.random.default_rng(5)
    docs = [f"d{i}" for i in range(40)]
    a = list(rng.permutation(docs)[:25])
    b = list(rng.permutation(docs)[:25])
    tau = meta.ranking_agreement({"q": _run(a)}, {"q": _run(b)}).to_frame()["tau"][0]
    union = list(dict.fromkeys(a + b))
    x = [a.index(d) if d in a else len(a) for d in union]
    y = [b.index(d) if d in b else len(b) for d in union]
    assert tau == pytest.approx(sps.kendalltau(x, y).statistic)


def test_ranking_agreement_refusals():
    with pytest.raises(IrscaleError, match="q2"):
        meta.ranking_agreement({"q1": _run(["a"]), "q2": _run(["b"])}, {"q1": _run(["a"])})
    with pytest.raises(IrscaleError, match="depth"):
        meta.ranking_agreement({"q1": _run(["a"])}, {"q1": _run(["a"])}, depth=0)
    with pytest.raises(IrscaleError, match="p"):
        meta.ranking_agreement({"q1": _run(["a"])}, {"q1": _run(["a"])}, p=1.5)


# ------------------------------------------------------------ beyond repro_eval's measures
def test_nrmse_by_hand():
    """repro_eval's nRMSE: RMSE / sqrt(mean(max(x, 1 − x)²)) of the original scores."""
    row = meta.reproducibility(OB, OA, RB, RA).to_frame().iloc[0]
    ob, rb = np.array(list(OB.values())), np.array(list(RB.values()))
    # RMSE = sqrt((0.05² + 0.05²) / 4) = 0.035355; RMSE_max = sqrt((0.8² + 0.6² + 0.9² +
    # 0.7²) / 4) = sqrt(0.575)
    assert row["nRMSE_baseline"] == pytest.approx(math.sqrt(0.005 / 4) / math.sqrt(0.575))
    assert row["nRMSE_baseline"] == pytest.approx(
        np.sqrt(np.mean((ob - rb) ** 2)) / np.sqrt(np.mean(np.maximum(ob, 1 - ob) ** 2)))


def test_ktu_by_hand():
    """repro_eval's KTU: positions in the sorted union, paired position by position: a b c
    d e against b a c e d → [0 1 2 3 4] and [1 0 2 4 3], 8 concordant and 2 discordant
    pairs of 10, τ = 0.6; rankings of different lengths have none."""
    assert meta.ktau_union(list("abcde"), list("baced")) == pytest.approx(0.6)
    assert meta.ktau_union(list("abc"), list("xyz")) == pytest.approx(1.0)
    assert math.isnan(meta.ktau_union(list("abc"), list("ab")))


def tost_tables(seed: int = 0, n: int = 20):
    rng = np.random.default_rng(seed)
    ob = rng.random(n)
    oa = np.clip(ob + 0.1 + rng.normal(0, 0.05, n), 0, 1)
    rb = np.clip(ob + rng.normal(0, 0.03, n), 0, 1)
    ra = np.clip(oa + rng.normal(0, 0.03, n), 0, 1)
    return ob, oa, rb, ra


def as_topics(values, offset: int = 0) -> dict[str, float]:
    return {str(i + offset): float(v) for i, v in enumerate(values)}


@pytest.mark.parametrize("margin", [0.02, 0.05])
def test_tost_equals_statsmodels(margin):
    weightstats = pytest.importorskip("statsmodels.stats.weightstats")
    ob, oa, rb, ra = tost_tables()
    row = meta.reproducibility(*(as_topics(x) for x in (ob, oa, rb, ra)),
                               margin=margin).to_frame().iloc[0]
    assert row["tost_p_baseline"] == pytest.approx(
        weightstats.ttost_paired(ob, rb, -margin, margin)[0], rel=1e-9)
    assert row["tost_p_advanced"] == pytest.approx(
        weightstats.ttost_paired(oa, ra, -margin, margin)[0], rel=1e-9)
    # a replication (other topics): Student's unpaired TOST
    row = meta.reproducibility(as_topics(ob), as_topics(oa), as_topics(rb, 100),
                               as_topics(ra, 100), margin=margin).to_frame().iloc[0]
    assert row["tost_p_baseline"] == pytest.approx(
        weightstats.ttost_ind(ob, rb, -margin, margin)[0], rel=1e-9)


def test_effect_intervals_seeded_and_by_hand():
    ob, oa, rb, ra = tost_tables(seed=1)
    result = meta.reproducibility(*(as_topics(x) for x in (ob, oa, rb, ra)))
    first = result.effect_intervals(300, rng=4)
    pd.testing.assert_frame_equal(first, result.effect_intervals(300, rng=4))
    draws = np.random.default_rng(np.random.SeedSequence(4)).integers(0, 20, size=(300, 20))
    er = [(ra[d] - rb[d]).mean() / (oa[d] - ob[d]).mean() for d in draws]
    dri = [(oa[d].mean() - ob[d].mean()) / ob[d].mean()
           - (ra[d].mean() - rb[d].mean()) / rb[d].mean() for d in draws]
    row = first.iloc[0]
    assert row["ER_low"] == pytest.approx(np.quantile(er, 0.025), rel=1e-10)
    assert row["ER_high"] == pytest.approx(np.quantile(er, 0.975), rel=1e-10)
    assert row["delta_RI_low"] == pytest.approx(np.quantile(dri, 0.025), rel=1e-10)
    assert row["defined"] == 300


def test_replicability_across_pooled():
    """D = mean ΔM′ − mean ΔM per collection with variance var(ΔM′)/n′ + var(ΔM)/n, pooled
    by the random-effects meta-analysis; three collections give a prediction interval."""
    experiments = {}
    for k in range(3):
        ob, oa, rb, ra = tost_tables(seed=10 + k)
        experiments[f"c{k}"] = (as_topics(ob), as_topics(oa), as_topics(rb, 100),
                                as_topics(ra, 100))
    table = meta.replicability_across(experiments, measure="score")
    d, v = [], []
    for runs in experiments.values():
        ob, oa, rb, ra = (np.array(list(r.values())) for r in runs)
        d.append((ra - rb).mean() - (oa - ob).mean())
        v.append((ra - rb).var(ddof=1) / 20 + (oa - ob).var(ddof=1) / 20)
    from irscale.stats import random_effects

    expected = random_effects(d, v)
    pooled = table.set_index("collection").loc["pooled"]
    np.testing.assert_allclose(table["D"][:3], d, rtol=1e-12)
    assert pooled["D"] == pytest.approx(float(expected.effect), rel=1e-10)
    assert pooled["pi_low"] == pytest.approx(float(expected.pi_low), rel=1e-10)
    assert pooled["pi_low"] <= pooled["ci_low"] and pooled["ci_high"] <= pooled["pi_high"]

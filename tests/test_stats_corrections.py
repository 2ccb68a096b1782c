"""Multiple-comparison corrections (against statsmodels) and pairwise test families."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from irscale.core import ScoreMatrix
from irscale.errors import ParameterError
from irscale.stats import CORRECTIONS, adjust_pvalues, paired_t, pairwise_tests, wilcoxon

from .property_examples import examples

multitest = pytest.importorskip("statsmodels.stats.multitest")

STATSMODELS = {"bonferroni": "bonferroni", "sidak": "sidak", "holm": "holm",
               "holm-sidak": "holm-sidak", "hommel": "hommel", "bh": "fdr_bh", "by": "fdr_by"}
pvalues = arrays(np.float64, st.integers(1, 60), elements=st.floats(0, 1, allow_subnormal=False))


@settings(max_examples=examples(40), deadline=None)
@given(p=pvalues)
def test_every_correction_matches_statsmodels(p):
    for ours, theirs in STATSMODELS.items():
        with np.errstate(divide="ignore"):  # statsmodels' Šidák takes log1p(−1) at p = 1
            reject, adjusted, _, _ = multitest.multipletests(p, alpha=0.05, method=theirs)
        got = adjust_pvalues(p, ours)
        assert got == pytest.approx(adjusted, abs=1e-12)
        assert np.array_equal(got <= 0.05, reject) or ours in ("sidak", "holm-sidak")


@settings(max_examples=examples(60), deadline=None)
@given(p=pvalues)
def test_corrections_are_monotone_bounded_and_ordered(p):
    order = np.argsort(p, kind="stable")
    adjusted = {name: adjust_pvalues(p, name) for name in CORRECTIONS}
    for values in adjusted.values():
        assert np.all((values >= p - 1e-15) & (values <= 1))
        assert np.all(np.diff(values[order]) >= -1e-15)  # order of the raw p-values kept
    assert np.all(adjusted["holm"] <= adjusted["bonferroni"] + 1e-15)
    assert np.all(adjusted["holm-sidak"] <= adjusted["holm"] + 1e-15)
    assert np.all(adjusted["hommel"] <= adjusted["holm"] + 1e-15)  # Hommel (1988) ≥ Holm's power
    assert np.all(adjusted["bh"] <= adjusted["holm"] + 1e-15)
    assert np.all(adjusted["bh"] <= adjusted["by"] + 1e-15)
    assert np.array_equal(adjusted["none"], p)


def test_hommel_on_wrights_definition():
    """Hommel's adjusted p-value by closed testing (Hommel 1988; Wright 1992): p̃_i is the
    largest Simes p-value min_k |I| p_(k:I) / k over the intersections I that contain i,
    brute-forced over every subset of a small family."""
    from itertools import combinations

    rng = np.random.default_rng(7)
    for m in (1, 2, 3, 5, 7):
        p = np.round(rng.random(m) ** 3, 3)  # ties and small values
        expected = np.zeros(m)
        for size in range(1, m + 1):
            for subset in combinations(range(m), size):
                sorted_p = np.sort(p[list(subset)])
                simes = min(1.0, float(np.min(size * sorted_p / np.arange(1, size + 1))))
                for i in subset:
                    expected[i] = max(expected[i], simes)
        assert adjust_pvalues(p, "hommel") == pytest.approx(expected, abs=1e-12)


def test_aliases_and_errors():
    p = np.array([0.01, 0.04, 0.2])
    assert np.array_equal(adjust_pvalues(p, "fdr_bh"), adjust_pvalues(p, "bh"))
    assert np.array_equal(adjust_pvalues(p, None), p)
    with pytest.raises(ParameterError, match=r"^method must be one of \['none', "
                       r"'bonferroni', .*, None\], got 'tukey'$"):
        adjust_pvalues(p, "tukey")
    with pytest.raises(ParameterError, match="lie in"):
        adjust_pvalues(np.array([0.5, 1.5]), "holm")


def matrix(seed: int, measures: int = 1) -> ScoreMatrix:
    rng = np.random.default_rng(seed)
    base = rng.random((20, 5, 1)) + np.linspace(0, 0.25, 5)[None, :, None]
    values = base + rng.normal(0, 0.1, (20, 5, measures))
    return ScoreMatrix.from_array(values, systems=list("abcde"),
                                  measures=[f"m{i}" for i in range(measures)])


def test_family_is_pairs_times_measures_times_collections():
    collections = {"c1": matrix(1, measures=2), "c2": matrix(2, measures=2)}
    family = pairwise_tests(collections, "t", correction="holm")
    frame = family.to_frame()
    assert len(frame) == 10 * 2 * 2 == family.extra["family_size"]
    assert set(frame["collection"]) == {"c1", "c2"} and set(frame["measure"]) == {"m0", "m1"}
    assert frame["p"].to_numpy() == pytest.approx(adjust_pvalues(frame["p_raw"], "holm"))
    assert np.array_equal(family.significant, frame["p"].to_numpy() <= 0.05)
    row = frame[(frame.collection == "c2") & (frame.measure == "m1")].iloc[3]
    single = paired_t(collections["c2"], systems=(row.a, row.b), measure="m1")
    assert row.p_raw == pytest.approx(single.pvalue)
    assert row.statistic == pytest.approx(single.statistic)
    assert row.ci_low == pytest.approx(single.ci_low)
    assert row.d_z == pytest.approx(single.effect.d_z)


def test_family_options_and_restrictions():
    m = matrix(3, measures=2)
    family = pairwise_tests(m, "wilcoxon", correction="by", measures=["m1"],
                            systems=["a", "c", "e"], method="approx", zero_method="pratt")
    frame = family.to_frame()
    assert len(frame) == 3 and set(frame["measure"]) == {"m1"}
    ref = wilcoxon(m, systems=("a", "c"), measure="m1", method="approx", zero_method="pratt")
    assert frame.loc[0, "p_raw"] == pytest.approx(ref.pvalue)
    with pytest.raises(ParameterError, match=r"'zz' names no run"):
        pairwise_tests(m, "t", systems=["a", "zz"])
    with pytest.raises(ParameterError,
                       match=r"samples= applies to test .randomization.*not to test .t."):
        pairwise_tests(m, "t", samples=10)
    none = pairwise_tests(m, "sign", correction="none", measures=["m0"])
    assert "p_raw" not in none.to_frame() and none.correction is None


def test_identical_systems_in_a_family_get_p_one():
    values = matrix(4).array()
    values[:, 4] = values[:, 3]
    family = pairwise_tests(values, "t", correction="none")
    frame = family.to_frame()
    same = frame[(frame.a == "s4") & (frame.b == "s5")]
    assert same["p"].tolist() == [1.0]
    assert family.format("json").startswith('{\n  "pairs"')
    assert "p_adjusted" not in family.format("text")

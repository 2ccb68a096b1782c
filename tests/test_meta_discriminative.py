"""Discriminative power (Sakai 2014, §5.1): ASLs reuse irscale.stats exactly, Sakai's
estimated difference uses the ASLs' own bootstrap draws, and the TREC-8 values match the
Monte Carlo spread reported in docs/meta.md."""

from __future__ import annotations

import numpy as np
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import ParameterError
from irscale.meta import discriminative as discriminative_module
from irscale.meta import (
    discriminative_power,
    discriminative_power_spread,
    discriminative_power_table,
)
from irscale.meta.discriminative import bootstrap_required_differences
from irscale.stats import paired_bootstrap_test, randomized_tukey_hsd
from irscale.stats.resampling import seed_sequence


def _scores(seed: int = 0, topics: int = 20, systems: int = 6) -> np.ndarray:
    rng = np.random.default_rng(seed)
    effect = np.linspace(0.0, 0.25, systems)
    return np.clip(rng.normal(0.3, 0.15, (topics, 1)) + effect
                   + rng.normal(0, 0.1, (topics, systems)), 0, 1)


def test_bootstrap_asl_is_sakais_paired_test_on_every_pair():
    values = _scores()
    result = discriminative_power(values, "bootstrap", samples=300, rng=11,
                                  convention="proportion")
    frame = result.to_frame()
    for row in frame.itertuples():
        a, b = int(row.a[1:]) - 1, int(row.b[1:]) - 1
        single = paired_bootstrap_test(values[:, a], values[:, b], samples=300, rng=11,
                                       convention="proportion")
        assert row.asl == pytest.approx(single.pvalue)
    assert result.n_pairs == 15
    assert result.share == result.n_significant / 15
    assert np.all(np.diff(result.asl_curve()) >= 0)


def test_required_difference_uses_the_same_draws_as_the_asl():
    """With plus-one p-values and B α = 50: significant ⟺ c ≤ 49 ⟺ |t(z)| > t_α, the
    50th largest |t*| — only true if t_α comes from the draws that gave the ASLs."""
    values = _scores(1, topics=25, systems=10)
    result = discriminative_power(values, "bootstrap", samples=1000, rng=3)
    i, j = np.triu_indices(10, 1)
    z = values[:, i] - values[:, j]
    t = np.abs(z.mean(axis=0) / (z.std(axis=0, ddof=1) / np.sqrt(25)))
    t_alpha, required = bootstrap_required_differences(values, 1000, seed_sequence(3), 0.05)
    assert np.array_equal(result.pairs["significant"].to_numpy(), t > t_alpha)
    assert result.estimated_difference == pytest.approx(np.nanmax(required))
    assert np.allclose(required, t_alpha * z.std(axis=0, ddof=1) / 5.0)


def test_pairs_in_several_blocks_give_the_required_differences_of_one_block(monkeypatch):
    """The bootstrap statistics are collected for blocks of pairs (bounding memory):
    blocks of 4 pairs give what one block of all 45 gives, up to the last bits of the
    matrix products (BLAS may add a narrower block's sums in another order)."""
    values = _scores(2, topics=25, systems=10)

    def required(block: int) -> tuple[np.ndarray, np.ndarray]:
        monkeypatch.setattr(discriminative_module, "BLOCK", block)
        return bootstrap_required_differences(values, 1500, seed_sequence(6), 0.05)

    for whole, blocked in zip(required(64), required(4), strict=True):
        assert len(whole) == 45
        np.testing.assert_allclose(blocked, whole, rtol=1e-12, atol=0)


def test_randomized_tukey_asl_and_minimum_difference():
    values = _scores(2)
    result = discriminative_power(values, "randomized-tukey-hsd", samples=500, rng=4)
    direct = randomized_tukey_hsd(values, samples=500, rng=4, strict=True)
    assert np.allclose(result.pairs["asl"], direct.columns["p"])
    assert result.critical_value == pytest.approx(direct.critical_value)
    significant = result.pairs["significant"].to_numpy()
    if significant.any():
        gaps = np.abs(result.pairs["diff"].to_numpy())
        assert result.min_significant_difference == pytest.approx(gaps[significant].min())
        assert result.min_significant_difference > result.critical_value * 0.9
    loose = discriminative_power(values, "rtukey", samples=500, rng=4, strict=False)
    assert (loose.pairs["asl"] >= result.pairs["asl"]).all()


def test_plus_one_decisions_are_sakais_asl_below_alpha():
    """(c + 1)/(B + 1) ≤ α ⟺ c/B < α when αB is an integer (B = 1,000, α = 0.05)."""
    values = _scores(5, topics=15, systems=8)
    for method in ("bootstrap", "randomized-tukey-hsd"):
        plus = discriminative_power(values, method, samples=1000, rng=9)
        prop = discriminative_power(values, method, samples=1000, rng=9,
                                    convention="proportion")
        sakai = prop.pairs["asl"].to_numpy() < 0.05
        assert np.array_equal(plus.pairs["significant"].to_numpy(), sakai)
        assert (prop.pairs["significant"] >= plus.pairs["significant"]).all()
        # the plus-one ASL is (c + 1)/(B + 1), the proportion c/B
        c = np.round(prop.pairs["asl"].to_numpy() * 1000)
        assert np.allclose(plus.pairs["asl"], (c + 1) / 1001)


def test_results_are_reproducible_and_errors_are_clear():
    values = _scores(6)
    a = discriminative_power(values, rng=1, samples=200)
    b = discriminative_power(values, rng=1, samples=200)
    assert a.pairs.equals(b.pairs)
    assert "pairs significant" in repr(a) and "estimated" in a.format()
    with pytest.raises(ParameterError):
        discriminative_power(values, "t-test")
    spread = discriminative_power_spread(values, "randomized-tukey-hsd", seeds=range(3),
                                         samples=200)
    assert list(spread["seed"]) == [0, 1, 2]
    # one count for the whole spread (meta dp --seeds ran for hours without a line): the
    # bootstrap draws its B samples twice per seed
    seen: list[tuple[int, int]] = []
    discriminative_power_spread(values, "bootstrap", seeds=range(3), samples=50,
                                progress=lambda done, total: seen.append((done, total)))
    assert {total for _, total in seen} == {3 * 2 * 50} and seen[-1] == (300, 300)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    matrix = ScoreMatrix.from_array(np.stack([values, values ** 2], axis=2),
                                    measures=["m", "m2"])
    table = discriminative_power_table(matrix, samples=200, rng=1)
    assert list(table["measure"]) == ["m", "m", "m2", "m2"]


# Monte Carlo means and standard deviations over seeds 1-20 (B = 1,000, α = 0.05,
# plus-one ASLs, Fig. 15's strict count), as reported in docs/meta.md.
DOCUMENTED = {
    ("ap", "bootstrap"): (5910.0, 15.0),
    ("ap", "randomized-tukey-hsd"): (2663.4, 23.7),
    ("p10", "bootstrap"): (5299.4, 13.2),
    ("p10", "randomized-tukey-hsd"): (2600.2, 17.4),
}


@pytest.mark.parametrize("measure,method", sorted(DOCUMENTED))
def test_trec8_discriminative_power_matches_the_documented_spread(urbano, measure, method):
    matrix = ScoreMatrix.read_csv(urbano / f"adhoc8_{measure}.csv")
    result = discriminative_power(matrix, method, samples=1000, alpha=0.05, rng=12345)
    mean, sd = DOCUMENTED[(measure, method)]
    assert abs(result.n_significant - mean) <= 4 * sd + 2
    assert result.n_pairs == 8256


def test_spread_summary_is_the_mean_sd_and_range_across_seeds():
    import pandas as pd

    from irscale.meta import spread_summary

    spread = pd.DataFrame({
        "seed": [0, 1, 2, 0, 1, 2],
        "measure": ["ap"] * 3 + ["p10"] * 3, "method": ["bootstrap"] * 6,
        "significant": [0.5, 0.6, 0.7, 0.2, 0.2, 0.2],
        "min_significant_diff": [0.1, 0.2, 0.3, 0.05, 0.05, 0.05]})
    table = spread_summary(spread)
    assert list(table["measure"]) == ["ap", "p10"]
    ap = table.iloc[0]
    assert ap["seeds"] == 3
    # mean 0.6, sample sd sqrt(((-0.1)^2 + 0 + 0.1^2) / 2) = 0.1, range [0.5, 0.7]
    assert (ap["significant_mean"], ap["significant_sd"]) == pytest.approx((0.6, 0.1))
    assert (ap["significant_min"], ap["significant_max"]) == (0.5, 0.7)
    assert (ap["min_sig_diff_mean"], ap["min_sig_diff_sd"]) == pytest.approx((0.2, 0.1))
    assert table.iloc[1]["significant_sd"] == 0.0

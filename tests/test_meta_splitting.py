"""Topic splitting (Ferro & Sanderson 2022, §3) and the swap method: definitions by hand,
determinism, reuse of irscale.stats decisions, and the TREC-8 study (τ grows with the split
size)."""

from __future__ import annotations

import numpy as np
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import InputError, ParameterError
from irscale.meta import decide, split_study, swap_rates, topic_splits
from irscale.meta.splitting import agreement, bias
from irscale.stats import ShardScores, shard_anova, tukey_hsd


def _matrix(seed: int = 0, topics: int = 30, systems: int = 8) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal(0.3, 0.15, (topics, 1)) + np.linspace(0, 0.3, systems)
                   + rng.normal(0, 0.1, (topics, systems)), 0, 1)


def test_splits_are_disjoint_deterministic_and_per_size():
    a = topic_splits(50, 25, 40, rng=7)
    b = topic_splits(50, 25, 40, rng=7)
    assert np.array_equal(a.first, b.first) and np.array_equal(a.second, b.second)
    assert a.first.shape == (40, 25) and a.second.shape == (40, 25)
    for first, second in zip(a.first, a.second, strict=True):
        assert not set(first) & set(second)
    c = topic_splits(50, 25, 40, rng=8)
    assert not np.array_equal(a.first, c.first)
    odd = topic_splits(49, 25, 3, rng=1)  # 25/24, as 125/124 in Ferro & Sanderson (2022)
    assert odd.second.shape == (3, 24)
    with pytest.raises(ParameterError):
        topic_splits(10, 10, 5)


def test_agreement_categories_by_hand():
    # pairs:          AA   AD   MA   MD   none  MA(sig on TS2)  zero diff
    sig_1 = np.array([[1, 1, 1, 1, 0, 0, 1]], dtype=bool)
    dir_1 = np.array([[1, 1, -1, 1, 1, -1, 0]], dtype=np.int8)
    sig_2 = np.array([[1, 1, 0, 0, 0, 1, 0]], dtype=bool)
    dir_2 = np.array([[1, -1, -1, -1, -1, -1, 1]], dtype=np.int8)
    out = agreement(sig_1, dir_1, sig_2, dir_2)
    assert (out["AA"][0], out["AD"][0], out["MA"][0], out["MD"][0]) == (1, 1, 2, 1)
    # Sig1 = {0,1,2,3,6}, Sig2 = {0,1,5}: ∩ = 2, ∪ = 6, min = 3
    assert out["jaccard"][0] == pytest.approx(2 / 6)
    assert out["overlap"][0] == pytest.approx(2 / 3)
    none = agreement(np.zeros((1, 3), bool), dir_1[:, :3], np.zeros((1, 3), bool),
                     dir_2[:, :3])
    assert none["jaccard"][0] == 0.0 and none["overlap"][0] == 0.0


@pytest.mark.parametrize("row,expected", [
    ((1656.9, 0.0, 329.2, 0.0), 9.0),   # Ferro & Sanderson (2022), Table 6, MD1
    ((2846.6, 0.0, 559.6, 0.7), 9.0),   # MD2
    ((4556.6, 5.8, 591.9, 114.2), 7.3),  # MD3
    ((5620.9, 373.7, 0.0, 0.0), 6.2),   # MD2f
    ((5633.7, 360.3, 0.0, 0.0), 6.0),   # MD3f
    ((12.3, 0.0, 7.8, 0.1), 24.3),      # Table 13, MD2 on FUB
    ((0.0, 0.0, 1.5, 0.5), 100.0),      # Table 14, MD2 on UoG
    ((0.0, 0.0, 0.0, 0.0), 0.0),        # Table 13, MD1
])
def test_bias_reproduces_seed002_tables(row, expected):
    assert 100 * bias(*row) == pytest.approx(expected, abs=0.05)


def test_decisions_are_those_of_irscale_stats():
    values = _matrix()
    for procedure, model in (("MD1", "system"), ("MD2", "topic+system"),
                             ("friedman", "friedman"), ("kruskal-wallis", "kruskal-wallis")):
        ours = decide(values, procedure)
        theirs = tukey_hsd(values, model)
        assert np.array_equal(ours.significant, theirs.significant)
        assert np.allclose(ours.diff, theirs.columns["diff"])
    fake = decide(values, "MD2f")
    assert fake.significant.all()


def test_study_is_deterministic_and_counts_add_up():
    values = _matrix(1)
    kwargs = dict(models=("MD1", "MD2", "MD2f"), cross=[("MD1", "MD2")], rng=3)
    a = split_study(values, (5, 10, 15), 12, **kwargs)
    b = split_study(values, (5, 10, 15), 12, **kwargs)
    assert a.per_split.equals(b.per_split)
    c = split_study(values, (5, 10, 15), 12, **{**kwargs, "rng": 4})
    assert not a.per_split.equals(c.per_split)
    frame = a.per_split
    assert set(frame["size"]) == {5, 10, 15} and len(frame) == 3 * 4 * 12
    pairs = a.n_pairs
    assert (frame[["AA", "AD", "MA", "MD"]].sum(axis=1) <= pairs).all()
    assert (frame["AA"] + frame["AD"] <= frame[["sig_1", "sig_2"]].min(axis=1)).all()
    md2 = frame[(frame.model_1 == "MD2") & (frame.model_2 == "MD2")]
    assert (md2["AD"] == 0).all()  # as in Ferro & Sanderson (2022), Table 5
    fake = frame[frame.model_1 == "MD2f"]
    assert (fake["sig_1"] == pairs).all() and (fake["AA"] + fake["AD"] == pairs).all()
    table = a.table("tau")
    assert list(table.columns) == ["5 topics", "10 topics", "15 topics"]
    assert list(table.index) == ["MD1", "MD2", "MD2f"]
    assert "MD1 vs MD2" in a.table("AA", cross=True).index
    six = a.agreement_table()
    assert list(six.columns) == ["comparison", "AA", "AD", "MA", "MD", "bias_%"]
    assert "SplitStudy" in a.format("jaccard")


def test_split_sizes_do_not_change_each_other():
    values = _matrix(2)
    both = split_study(values, (5, 10), 6, models=("MD2",), rng=9).per_split
    alone = split_study(values, (10,), 6, models=("MD2",), rng=9).per_split
    ten = both[both["size"] == 10].reset_index(drop=True)
    assert ten.equals(alone)


def test_subset_of_runs_and_shard_models():
    rng = np.random.default_rng(4)
    topics, systems, shards = 16, 5, 3
    shard_values = np.clip(rng.normal(0.4, 0.2, (topics, 1, 1))
                           + np.linspace(0, 0.2, systems)[None, :, None]
                           + rng.normal(0, 0.05, (topics, systems, shards)), 0, 1)
    whole = shard_values.mean(axis=2)
    matrix = ScoreMatrix.from_array(whole)
    study = split_study(matrix, (4, 8), 5, models=("MD2", "MD3", "MD3f"),
                        cross=[("MD2", "MD3")], shards=ShardScores.from_array(shard_values),
                        rng=1)
    assert set(study.per_split["model_1"]) == {"MD2", "MD3", "MD3f"}
    # a half by hand: MD3 + Tukey HSD of irscale.stats
    half = shard_values[:8]
    expected = shard_anova(ShardScores.from_array(half), "MD3").tukey_hsd(0.05)
    assert decide(half, "MD3").n_significant == expected.n_significant
    subset = split_study(matrix, (4,), 5, models=("MD2",), systems=["s1", "s3", "s5"], rng=1)
    assert subset.n_systems == 3 and subset.n_pairs == 3
    # a system of none is refused with the systems, in the run resolver's words (io.naming)
    with pytest.raises(ParameterError, match=r"systems: 'x' names no run: .*runs: 's1', 's2'"):
        split_study(matrix, (4,), 5, models=("MD2",), systems=["s1", "x"], rng=1)
    with pytest.raises(InputError):
        split_study(matrix, (4,), 2, models=("MD3",))


def test_swap_rates_fall_with_size_and_with_the_difference():
    values = _matrix(5, topics=40, systems=10)
    result = swap_rates(values, (4, 10, 20), 30, bin_width=0.05, rng=2)
    again = swap_rates(values, (4, 10, 20), 30, bin_width=0.05, rng=2)
    assert result.overall.equals(again.overall)
    rates = result.overall["rate"].to_numpy()
    assert rates[0] > rates[-1]
    assert (result.overall["pairs"] <= 30 * 45).all()
    filtered = swap_rates(values, (10,), 30, bin_width=0.05, rng=2, test="t")
    assert filtered.overall["pairs"].iloc[0] < result.overall["pairs"].iloc[1]
    assert "swap rate" in repr(result)


def test_trec8_study_tau_grows_with_the_split_size(urbano):
    """Ferro & Sanderson (2022), Table 5: τ between the halves' rankings grows with the topic-set
    size; MD1/MD2 have no active disagreement; 100 repetitions per size, deterministic."""
    matrix = ScoreMatrix.read_csv(urbano / "adhoc8_ap.csv")
    study = split_study(matrix, (5, 10, 15, 20, 25), 100, models=("MD1", "MD2", "MD2f"),
                        rng=2022)
    tau = study.table("tau")
    for model in ("MD1", "MD2", "MD2f"):
        assert np.all(np.diff(tau.loc[model].to_numpy()) > 0)
    assert 0.45 < tau.loc["MD2", "5 topics"] < 0.65
    assert 0.7 < tau.loc["MD2", "25 topics"] < 0.85
    aa = study.table("AA")
    assert np.all(np.diff(aa.loc["MD2"].to_numpy()) > 0)
    assert (aa.loc["MD2"] > aa.loc["MD1"]).all()  # Ferro & Sanderson (2022), Table 4: MD2 beats MD1
    assert (study.table("AD").loc[["MD1", "MD2"]] == 0).all().all()
    assert (study.table("AD").loc["MD2f"] > 0).all()  # fake models: swaps
    again = split_study(matrix, (5,), 100, models=("MD2",), rng=2022)
    first = study.per_split[(study.per_split["size"] == 5)
                            & (study.per_split["model_1"] == "MD2")]
    assert np.array_equal(first["AA"].to_numpy(), again.per_split["AA"].to_numpy())

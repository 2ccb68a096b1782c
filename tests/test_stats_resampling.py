"""Monte Carlo tests: Sakai (2014) examples, literal transcriptions of Fig. 11–15, scipy,
reproducibility (seed, rng, workers) and p-value conventions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.core import ScoreMatrix
from irscale.errors import ParameterError
from irscale.stats import bootstrap as bootstrap_module
from irscale.stats import (
    bootstrap_shift_test,
    paired_bootstrap_test,
    pairwise_tests,
    randomization_test,
    randomized_tukey_hsd,
    unpaired_bootstrap_test,
)
from irscale.stats import randomization as randomization_module
from irscale.stats.bootstrap import resample_counts, studentised_means, unpaired_means
from irscale.stats.resampling import ChunkTasks

from .oracle_imports import lazy_import
from .property_examples import examples

stats = lazy_import("scipy.stats")


def first_chunk_generator(seed: int) -> np.random.Generator:
    """The generator of chunk 0 of a resampling run with ``seed`` (B ≤ chunk size)."""
    child = np.random.SeedSequence(seed).spawn(1)[0]
    return np.random.Generator(np.random.PCG64(child))


def pair(seed: int, n: int = 20, shift: float = 0.05):
    rng = np.random.default_rng(seed)
    x = rng.random(n)
    return x, np.clip(x - shift + rng.normal(0, 0.2, n), 0, 1)


def t_stat(z: np.ndarray) -> float:
    """Sakai (2014), eq. (48)–(49)."""
    return z.mean() / (np.sqrt(np.sum((z - z.mean()) ** 2) / (len(z) - 1)) / np.sqrt(len(z)))


# --------------------------------------------------------------------------- Sakai (2014)
def test_fig11_published_bootstrap_sample():
    # Sakai (2014), §4.2: w = (0.2, 0.0, 0.1, 0.4, 0.0), integers (1, 3, 1, 2, 4)
    # give w*b = (0.2, 0.1, 0.2, 0.0, 0.4)
    w = np.array([0.2, 0.0, 0.1, 0.4, 0.0])
    counts = resample_counts(np.array([[1, 3, 1, 2, 4]]) - 1, 5)
    published = np.array([0.2, 0.1, 0.2, 0.0, 0.4])
    assert counts @ w / 5 == pytest.approx([published.mean()])
    assert studentised_means(counts, w[:, None])[0, 0] == pytest.approx(t_stat(published))


def test_fig13_published_unpaired_bootstrap_sample():
    # Sakai (2014), §4.3: x = (0.1, 0.3), y = (0.2, 0.0, 0.0), v = (0.1, 0.3, 0.2, 0.0, 0.0);
    # integers (1, 3, 1, 2, 4) give x*b = (0.1, 0.2) and y*b = (0.1, 0.3, 0.0)
    v = np.array([0.1, 0.3, 0.2, 0.0, 0.0])
    got = unpaired_means(np.array([[1, 3, 1, 2, 4]]) - 1, v[:, None], 2)
    assert got[0, 0] == pytest.approx(np.mean([0.1, 0.2]) - np.mean([0.1, 0.3, 0.0]))


# --------------------------------------------------------------------------- transcriptions
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_paired_bootstrap_equals_fig11_12_transcription(alternative):
    x, y = pair(1)
    B, seed = 500, 7
    got = paired_bootstrap_test(x, y, samples=B, rng=seed, alternative=alternative,
                                convention="proportion")
    z = x - y
    w = z - z.mean()
    t_z = t_stat(z)
    draws = first_chunk_generator(seed).integers(0, len(z), size=(B, len(z)))
    count = 0
    for b in range(B):  # Fig. 11 then Fig. 12
        t_b = t_stat(w[draws[b]])
        if alternative == "two-sided":
            count += abs(t_b) >= abs(t_z)
        elif alternative == "greater":
            count += t_b >= t_z
        else:
            count += t_b <= t_z
    assert got.statistic == pytest.approx(t_z)
    assert got.pvalue == count / B  # ASL = count / B
    assert got.samples == B and got.convention == "proportion"


def test_bootstrap_shift_equals_transcription():
    x, y = pair(2)
    B, seed = 400, 3
    got = bootstrap_shift_test(x, y, samples=B, rng=seed)
    z = x - y
    draws = first_chunk_generator(seed).integers(0, len(z), size=(B, len(z)))
    count = sum(abs((z - z.mean())[draws[b]].mean()) >= abs(z.mean()) for b in range(B))
    assert got.pvalue == pytest.approx((count + 1) / (B + 1))


def test_unpaired_bootstrap_equals_fig13_14_transcription():
    x, y = pair(3)
    y = y[:13]
    B, seed = 300, 11
    got = unpaired_bootstrap_test(x, y, samples=B, rng=seed, convention="proportion")
    v = np.concatenate([x, y])
    n = len(x)
    d_hat = x.mean() - y.mean()
    draws = first_chunk_generator(seed).integers(0, len(v), size=(B, len(v)))
    count = 0
    for b in range(B):
        xs = v[draws[b, :n]]  # Fig. 13
        ys = v[draws[b, n:]]
        count += abs(xs.mean() - ys.mean()) >= abs(d_hat)  # Fig. 14
    assert got.pvalue == count / B
    assert not got.paired and got.n == (len(x), len(y))


def test_randomization_equals_sign_flip_transcription():
    x, y = pair(4, n=30)
    B, seed = 600, 5
    got = randomization_test(x, y, samples=B, rng=seed)
    d = x - y
    flips = 1.0 - 2.0 * first_chunk_generator(seed).integers(0, 2, size=(B, len(d)),
                                                             dtype=np.int8)
    count = sum(abs(np.mean(flips[b] * d)) >= abs(d.mean()) for b in range(B))
    assert got.pvalue == pytest.approx((count + 1) / (B + 1))
    assert got.mc_se == pytest.approx(np.sqrt(got.pvalue * (1 - got.pvalue) / B))


def test_randomization_exact_enumeration_matches_scipy():
    x, y = pair(5, n=10)
    got = randomization_test(x, y, samples=5000)  # 2^10 <= 5000: exact
    assert got.convention == "exact" and got.samples == 2**10
    ref = stats.permutation_test((x - y,), np.mean, permutation_type="samples",
                                 n_resamples=np.inf)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    for alternative in ("greater", "less"):
        mine = randomization_test(x, y, exact=True, alternative=alternative).pvalue
        theirs = stats.permutation_test((x - y,), np.mean, permutation_type="samples",
                                        n_resamples=np.inf, alternative=alternative).pvalue
        assert mine == pytest.approx(theirs, rel=1e-12)
    with pytest.raises(ParameterError, match="too large"):
        randomization_test(*pair(6, n=40), exact=True)


def test_randomized_tukey_equals_fig15_transcription():
    rng = np.random.default_rng(8)
    U = rng.random((12, 5)) + np.array([0.0, 0.05, 0.1, 0.3, 0.0])
    B, seed = 300, 2
    got = randomized_tukey_hsd(U, samples=B, rng=seed, strict=True, convention="proportion")
    gen = first_chunk_generator(seed)
    block = np.empty((B, *U.shape))
    block[:] = U
    gen.permuted(block, axis=2, out=block)  # every row permuted independently
    means = U.mean(axis=0)
    pairs = [(a, b) for a in range(5) for b in range(a + 1, 5)]
    count = dict.fromkeys(pairs, 0)
    for b in range(B):  # Fig. 15, literally
        assert all(sorted(block[b, i]) == sorted(U[i]) for i in range(len(U)))
        col = block[b].mean(axis=0)
        for pa in pairs:
            if col.max() - col.min() > abs(means[pa[0]] - means[pa[1]]):
                count[pa] += 1
    assert got.pvalue.tolist() == [count[pa] / B for pa in pairs]
    non_strict = randomized_tukey_hsd(U, samples=B, rng=seed)
    assert np.all(non_strict.pvalue >= got.pvalue)  # >= counts ties, (c+1)/(B+1) > c/B


# --------------------------------------------------------------------------- reproducibility
def test_seed_rng_and_workers_determinism():
    x, y = pair(9)
    a = randomization_test(x, y, samples=3000, rng=42)
    b = randomization_test(x, y, samples=3000, rng=42, workers=2)
    c = randomization_test(x, y, samples=3000, rng=np.random.default_rng(1))
    d = randomization_test(x, y, samples=3000, rng=np.random.default_rng(1))
    assert a.pvalue == b.pvalue and c.pvalue == d.pvalue
    U = np.random.default_rng(3).random((10, 6))
    r1 = randomized_tukey_hsd(U, samples=2500, rng=1)
    r2 = randomized_tukey_hsd(U, samples=2500, rng=1, workers=3)
    assert np.array_equal(r1.pvalue, r2.pvalue)
    boot1 = paired_bootstrap_test(x, y, samples=2100, rng=5)
    boot2 = paired_bootstrap_test(x, y, samples=2100, rng=5, workers=2)
    assert boot1.pvalue == boot2.pvalue


def test_chunk_seeds_are_the_spawned_children_built_when_asked():
    """Chunk c draws from child c of the seed sequence (after those it had spawned), built
    when its task is submitted: the same streams as ``spawn``, no up-front list."""
    for seeds in (np.random.SeedSequence(1), np.random.SeedSequence([3, 4], spawn_key=(2,)),
                  np.random.SeedSequence(7, pool_size=8)):
        seeds.spawn(3)
        tasks = ChunkTasks(seeds, [1024] * 9 + [5])
        spawned = seeds.spawn(10)
        assert len(tasks) == 10 and tasks[9][1] == 5 and tasks[-1][1] == 5
        for (child, _), expected in zip(tasks[0:10], spawned, strict=True):
            assert np.array_equal(child.generate_state(8), expected.generate_state(8))
        with pytest.raises(IndexError):
            tasks[10]
    x, y = pair(4)
    seeds = np.random.SeedSequence(5)
    first = paired_bootstrap_test(x, y, samples=3000, rng=seeds)
    assert paired_bootstrap_test(x, y, samples=3000, rng=seeds).pvalue == first.pvalue
    assert paired_bootstrap_test(x, y, samples=3000, rng=5).pvalue == first.pvalue


def test_pairwise_family_gives_each_pair_its_single_test_pvalue():
    rng = np.random.default_rng(10)
    values = rng.random((15, 4)) + np.array([0.0, 0.1, 0.2, 0.05])
    matrix = ScoreMatrix.from_array(values, systems=["a", "b", "c", "d"])
    for test, single in (("randomization", randomization_test),
                         ("bootstrap", paired_bootstrap_test),
                         ("bootstrap-shift", bootstrap_shift_test)):
        options = {"exact": False} if test == "randomization" else {}
        family = pairwise_tests(matrix, test, correction="none", samples=700, rng=3,
                                **options)
        for row in family.to_frame().itertuples():
            alone = single(matrix, systems=(row.a, row.b), samples=700, rng=3, **options)
            assert row.p == pytest.approx(alone.pvalue)
            assert row.mc_se == pytest.approx(alone.mc_se)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_pairs_in_several_blocks_give_the_pvalues_of_one_block(monkeypatch, alternative):
    """The pairs of a chunk are counted in blocks (bounding memory): blocks of 2 pairs give
    exactly the counts of one block holding all 15."""
    rng = np.random.default_rng(12)
    values = rng.random((18, 6)) + np.linspace(0.0, 0.2, 6)
    tests = (("randomization", {"exact": False}), ("bootstrap", {}), ("bootstrap-shift", {}))

    def pvalues(block: int) -> list[np.ndarray]:
        monkeypatch.setattr(randomization_module, "BLOCK", block)
        monkeypatch.setattr(bootstrap_module, "BLOCK", block)
        return [pairwise_tests(values, test, correction="none", alternative=alternative,
                               samples=1500, rng=4, **options).to_frame()["p"].to_numpy()
                for test, options in tests]

    for whole, blocked in zip(pvalues(64), pvalues(2), strict=True):
        assert len(whole) == 15 and np.array_equal(whole, blocked)


def test_progress_callback_reports_every_chunk():
    seen = []
    randomization_test(*pair(11), samples=2500, rng=1, exact=False,
                       progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1024, 2500), (2048, 2500), (2500, 2500)]


def test_pairwise_progress_with_systems_over_several_collections():
    # the systems= lookup once shadowed the group index that phase_progress needs
    rng = np.random.default_rng(12)
    data = {name: ScoreMatrix.from_array(rng.random((10, 3)), systems=["a", "b", "c"])
            for name in ("c1", "c2")}
    seen = []
    family = pairwise_tests(data, "bootstrap", systems=["a", "c"], samples=300, rng=1,
                            progress=lambda done, total: seen.append((done, total)))
    assert len(family.to_frame()) == 2
    assert seen[-1] == (600, 600) and seen == sorted(seen)


@settings(max_examples=examples(25), deadline=None)
@given(count=st.integers(0, 200), samples=st.integers(200, 500))
def test_conventions_and_standard_errors(count, samples):
    from irscale.stats.resampling import mc_pvalue

    plus, se_plus = mc_pvalue(np.array([count]), samples, "plus-one")
    prop, se_prop = mc_pvalue(np.array([count]), samples, "proportion")
    assert plus[0] == (count + 1) / (samples + 1) and prop[0] == count / samples
    assert 0 < plus[0] <= 1 and 0 <= prop[0] <= 1
    assert se_plus[0] == pytest.approx(np.sqrt(plus[0] * (1 - plus[0]) / samples))
    assert se_prop[0] == pytest.approx(np.sqrt(prop[0] * (1 - prop[0]) / samples))


def test_randomized_tukey_pvalues_decrease_with_the_difference():
    rng = np.random.default_rng(12)
    U = rng.random((20, 8)) + np.linspace(0, 0.3, 8)
    result = randomized_tukey_hsd(U, samples=1000, rng=4)
    order = np.argsort(np.abs(result.columns["diff"]))
    assert np.all(np.diff(result.pvalue[order]) <= 0)  # one null distribution for all pairs
    assert result.critical_value == pytest.approx(
        np.quantile(result.extra["ranges"], 0.95))
    significant = np.abs(result.columns["diff"]) > result.critical_value
    assert significant.sum() == pytest.approx(result.n_significant, abs=2)

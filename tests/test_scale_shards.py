"""Exact scale images by shards on the executor (irscale.scales.shards).

The sharded passes must give the local engine's image bit for bit (values, run counts,
distinct count, bucket index, φ, written files) for every shard count and executor (local
threads, LocalClusters of 1 and 2 worker processes started here, a worker killed
mid-task), and the image must equal an independent brute force (every run enumerated,
AP in exact fractions; additive measures by the registered kernels, rounded) for small N.
Buckets are made tiny (``BUCKET_PAIRS``) so that N ≤ 14 has tens of shards.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import irscale.scales.pairs as pairs_module
from irscale.errors import ParameterError
from irscale.parallel import executor_scope
from irscale.scales import clear_cache, scale
from irscale.scales.additive import _prefix_suffix_image, additive_spec
from irscale.scales.generic import naive_image
from irscale.scales.measures import scale_measure
from irscale.scales.pairs import PairImage
from irscale.scales.scale import ScaledImage
from irscale.scales.shards import ShardedPairImage, check_shards, shard_bounds, window_of
from irscale.scales.space import Space, to_context
from irscale.scales.stream import write_image

from .oracle_imports import lazy_importorskip

#: (measure, N, levels, keywords of scale()): every mode of the pair table.
CASES = {
    "AP-binary": ("AP", 12, 2, {}),                                  # int keys
    "AP-graded-feasible": ("AP", 9, 3, {"feasible": True, "recall_base": [2, 3]}),
    "nDCG-binary": ("nDCG@10", 10, 2, {}),                           # distinct
    "DCG_b02-graded-feasible": ("DCG_b02", 9, 3, {"feasible": True,  # exact identities
                                                  "recall_base": [3, 2]}),
    "RBP-graded": ("RBP(p=0.8)", 8, 3, {}),                          # distinct, 3 degrees
}
TINY_BUCKETS = 1 << 8


@pytest.fixture(autouse=True)
def tiny_buckets(monkeypatch):
    """Buckets of 256 candidate pairs (tens of shards at N ≤ 12); fresh tables."""
    monkeypatch.setattr(pairs_module, "BUCKET_PAIRS", TINY_BUCKETS)
    clear_cache()
    yield
    clear_cache()


def _local(name: str):
    measure, N, levels, kw = CASES[name]
    clear_cache()
    sc = scale(measure, N, levels, progress=False, **kw)
    assert not isinstance(_pair_image(sc), ShardedPairImage)
    values, counts = sc.image_values()
    return sc, values, counts


def _pair_image(sc) -> PairImage:
    image = sc.image.inner if isinstance(sc.image, ScaledImage) else sc.image
    assert isinstance(image, PairImage)
    return image


def _sharded(name: str, **where):
    measure, N, levels, kw = CASES[name]
    clear_cache()  # a table of its own: its distinct count comes from the shards
    return scale(measure, N, levels, progress=False, **kw, **where)


def _assert_same_image(sc, values, counts, reference) -> None:
    ref_sc, ref_values, ref_counts = reference
    assert sc.n_distinct == ref_sc.n_distinct == len(ref_values)
    assert values.dtype == ref_values.dtype and counts.dtype == ref_counts.dtype
    np.testing.assert_array_equal(values, ref_values)  # bit for bit
    np.testing.assert_array_equal(counts, ref_counts)


# ------------------------------------------------------------------ local threads
@pytest.mark.parametrize("shards", [1, 2, 3, 1000])
@pytest.mark.parametrize("name", list(CASES))
def test_sharded_on_threads_is_the_local_image(name, shards):
    reference = _local(name)
    sc = _sharded(name, shards=shards)
    assert isinstance(_pair_image(sc), ShardedPairImage)
    table = _pair_image(sc).table
    n_buckets = len(table.edges_cache()) - 1
    assert n_buckets > 3 or name == "AP-graded-feasible"  # several shards really run
    values, counts = sc.image_values()
    _assert_same_image(sc, values, counts, reference)
    # the bucket index the shards built answers φ as the local pass's does
    ref_table = _pair_image(reference[0]).table
    if ref_table.mode != "distinct":
        np.testing.assert_array_equal(table._index[0], ref_table._index[0])
        np.testing.assert_array_equal(table._index[1], ref_table._index[1])
    runs = np.random.default_rng(3).integers(0, sc.levels, size=(200, sc.N), dtype=np.int8)
    if sc.space.bounds is not None:
        runs = runs[sc.space.allows(runs)]
    np.testing.assert_array_equal(sc.phi(runs), reference[0].phi(runs))


def test_tolerance_mode_stitches_clusters_as_locally():
    """Float sums without exact keys (tolerance clusters that may straddle buckets): the
    counting pass streams the buckets and stitches them on the client as the local pass."""
    measure = scale_measure("nDCG@8")
    space = Space(8, 3)
    spec = additive_spec(measure, space, to_context(None, space))
    local = _prefix_suffix_image(spec, progress=False, label="t")
    assert local.table.mode == "tolerance"
    ref_values, ref_counts = local.values(None)
    for shards in (1, 2, 5, None):
        fresh = _prefix_suffix_image(spec, progress=False, label="t")
        image = ShardedPairImage(fresh, "local", shards=shards, progress=False)
        assert image.n_distinct == local.n_distinct == len(ref_values)
        values, counts = image.values(None)
        np.testing.assert_array_equal(values, ref_values)
        np.testing.assert_array_equal(counts, ref_counts)


@pytest.mark.parametrize("max_memory", [1 << 13, 1 << 16, None])
def test_window_bounds_the_shards_in_flight_and_changes_nothing(max_memory):
    """A tiny memory limit gives a window of one shard (one task at a time, one waiting);
    the image is the same."""
    reference = _local("AP-binary")
    base = _pair_image(_sharded("AP-binary"))
    image = ShardedPairImage(base, "local", shards=None, progress=False, max_memory=max_memory)
    n_buckets = len(base.table.edges_cache()) - 1
    if max_memory == 1 << 13:
        assert window_of(TINY_BUCKETS, n_buckets, max_memory) == 1
    values, counts = image.values(None)
    _assert_same_image(image, reference[0].image.factor * values, counts, reference)


def test_a_reader_that_stops_early_stops_the_shards():
    base = _pair_image(_sharded("AP-binary"))
    image = ShardedPairImage(base, "local", progress=False, max_memory=1 << 13)
    before = {t.name for t in threading.enumerate()}
    stream = image.buckets()
    first = next(stream)
    assert len(first.values)
    stream.close()
    assert "irscale-shards" not in {t.name for t in threading.enumerate()} - before


def _broken_shard(table, edges, counts):
    raise ParameterError("shard refuses")


def test_a_failing_shard_raises_its_error_in_the_reader(monkeypatch):
    import irscale.scales.shards as shards_module

    base = _pair_image(_sharded("AP-binary"))
    image = ShardedPairImage(base, "local", progress=False)
    monkeypatch.setattr(shards_module, "shard_buckets", _broken_shard)
    with pytest.raises(ParameterError, match="shard refuses"):
        list(image.buckets())
    assert "irscale-shards" not in {t.name for t in threading.enumerate()}


def test_written_files_are_identical(tmp_path):
    for name in ("AP-binary", "DCG_b02-graded-feasible"):
        reference = _local(name)[0]
        sharded = _sharded(name, shards=3)
        for suffix in ("csv", "parquet"):
            here = write_image(reference, tmp_path / f"{name}-local.{suffix}", progress=False)
            there = write_image(sharded, tmp_path / f"{name}-shards.{suffix}", progress=False)
            assert here.rows == there.rows and here.stats == there.stats
            assert (tmp_path / f"{name}-local.{suffix}").read_bytes() == \
                (tmp_path / f"{name}-shards.{suffix}").read_bytes()


# ------------------------------------------------------------------ brute force
def _ap_brute(N: int, levels: int, rb: int, bounds=None):
    """AP of every run of REL^N (at most ``bounds[g-1]`` documents of degree g) in exact
    fractions (binary projection at level 1;
    AP = Σ_{i relevant} C(i)/i / RB), grouped exactly: sorted values and run counts."""
    image: dict[Fraction, int] = {}
    for run in itertools.product(range(levels), repeat=N):
        if bounds is not None and any(run.count(d) > bounds[d - 1] for d in range(1, levels)):
            continue
        seen, total = 0, Fraction(0)
        for i, d in enumerate(run, start=1):
            if d >= 1:
                seen += 1
                total += Fraction(seen, i)
        key = total / rb
        image[key] = image.get(key, 0) + 1
    keys = sorted(image)
    return keys, [image[k] for k in keys]


@pytest.mark.parametrize(("N", "levels", "recall_base", "feasible"),
                         [(10, 2, None, False), (7, 3, [2, 2], True), (6, 3, None, False)])
def test_sharded_ap_equals_the_brute_force(N, levels, recall_base, feasible):
    sc = scale("AP", N, levels, recall_base=recall_base, feasible=feasible, progress=False,
               shards=2)
    values, counts = sc.image_values()
    rb = sc.context.relevant(1)  # AP's normaliser: RB, or min(N, RB)
    divisor = rb if sc.measure.ap_norm == "R" else min(N, rb)
    keys, brute_counts = _ap_brute(N, levels, divisor, sc.space.bounds)
    assert len(values) == len(keys)
    np.testing.assert_array_equal(counts, brute_counts)
    np.testing.assert_allclose(values, [float(k) for k in keys], rtol=1e-14, atol=0)


@pytest.mark.parametrize(("measure", "N", "levels"),
                         [("nDCG@8", 8, 2), ("RBP(p=0.8)", 6, 3), ("DCG_b02", 6, 3)])
def test_sharded_additive_equals_the_kernel_enumeration(measure, N, levels):
    """Every run scored by the measure's registered kernel, values rounded to 12 digits
    (generic.naive_image: no pair table involved)."""
    sc = scale(measure, N, levels, progress=False, shards=3)
    values, counts = sc.image_values()
    brute_values, brute_counts = naive_image(sc.measure, sc.space, sc.context)
    assert len(values) == len(brute_values)
    np.testing.assert_array_equal(counts, brute_counts)
    np.testing.assert_allclose(values, brute_values, rtol=0, atol=1e-11)


# ------------------------------------------------------------------ Dask
distributed = lazy_importorskip("distributed")


@pytest.fixture(scope="module", params=[1, 2], ids=["1-worker", "2-workers"])
def client(request):
    with distributed.LocalCluster(n_workers=request.param, processes=True,
                                  threads_per_worker=1, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as dask_client:
        yield dask_client


@pytest.mark.parametrize("shards", [None, 3])
@pytest.mark.parametrize("name", ["AP-binary", "AP-graded-feasible", "DCG_b02-graded-feasible",
                                  "RBP-graded"])
def test_dask_cluster_gives_the_local_image(name, shards, client):
    reference = _local(name)
    sc = _sharded(name, executor=client, shards=shards)
    values, counts = sc.image_values()
    _assert_same_image(sc, values, counts, reference)


def test_dask_written_file_is_identical(client, tmp_path):
    reference = _local("AP-binary")[0]
    sharded = _sharded("AP-binary", executor=client)
    write_image(reference, tmp_path / "local.parquet", progress=False)
    write_image(sharded, tmp_path / "dask.parquet", progress=False)
    assert (tmp_path / "local.parquet").read_bytes() == (tmp_path / "dask.parquet").read_bytes()
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "local.parquet"),
                                  pd.read_parquet(tmp_path / "dask.parquet"), check_exact=True)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_worker_killed_mid_image_changes_nothing(workers):
    """A worker process is SIGKILLed when the first shard completes, while the others run;
    its shards run again (with one worker, the table is sent again to the new one)."""
    reference = _local("AP-binary")
    base = _pair_image(_sharded("AP-binary"))
    with executor_scope(f"local:{workers}") as dask_client:
        victim = sorted(dask_client.run(os.getpid).values())[0]
        killed: list[int] = []

        def progress(done: int, total: int) -> None:
            if not killed:
                os.kill(victim, signal.SIGKILL)
                killed.append(done)

        image = ShardedPairImage(base, dask_client, progress=progress)
        values, counts = image.values(None)
        assert killed and victim not in dask_client.run(os.getpid).values()
        _assert_same_image(image, reference[0].image.factor * values, counts, reference)


# ------------------------------------------------------------------ options
@pytest.mark.parametrize("value", [0, -1, 2.5, "3", True])
def test_bad_shard_counts_are_refused(value):
    with pytest.raises(ParameterError, match="shards"):
        check_shards(value)
    with pytest.raises(ParameterError, match="shards"):
        scale("AP", 8, progress=False, shards=value)


@pytest.mark.parametrize("measure", ["P@5", "ERR", "RBP_p05"])
def test_shards_for_an_image_without_pair_buckets_are_refused(measure):
    with pytest.raises(ParameterError, match="meet-in-the-middle"):
        scale(measure, 6, progress=False, shards=2)


def test_shard_bounds_are_balanced_runs_of_buckets():
    assert shard_bounds(10, 3) == [(0, 3), (3, 6), (6, 10)]
    assert shard_bounds(4, None) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert shard_bounds(2, 5) == [(0, 1), (1, 2)]  # at most one shard per bucket
    assert shard_bounds(1, 1) == [(0, 1)]

"""The executor (irscale.parallel): local threads and Dask clusters give identical results.

Every converted parallel function is run with the local executor (the reference: today's
code path, whose results equal the pre-executor code for the same seeds) and on a
``dask.distributed.LocalCluster`` of 1 and of 2 worker processes started here; results must
be equal bit for bit. A worker killed mid-task must not change them either. The new
per-chunk merge of Sakai's t_α is checked against a brute force over the same draws.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from irscale.errors import ParameterError, SchedulerError
from irscale.parallel import check_executor, executor_scope, map_tasks
from irscale.stats.resampling import seed_sequence

from .oracle_imports import lazy_importorskip

distributed = lazy_importorskip("distributed")

SCORES = np.random.default_rng(42).random((25, 7)) + np.linspace(0.0, 0.3, 7)


@pytest.fixture(scope="module", params=[1, 2], ids=["1-worker", "2-workers"])
def client(request):
    with distributed.LocalCluster(n_workers=request.param, processes=True,
                                  threads_per_worker=1, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as dask_client:
        yield dask_client


def _same(a, b) -> None:
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b, check_exact=True)
    else:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


# ------------------------------------------------------------------ converted functions

def _pairwise(test: str, alternative: str):
    from irscale.stats import pairwise_tests

    def run(**where):
        result = pairwise_tests(SCORES, test, correction="none", samples=2100, rng=3,
                                alternative=alternative, **where)
        return np.asarray(result.columns["p"])
    return run


def _tukey(**where):
    from irscale.stats import randomized_tukey_hsd
    return randomized_tukey_hsd(SCORES, samples=3000, rng=5, **where).extra["ranges"]


def _discriminative(method: str):
    from irscale.meta import discriminative_power

    def run(**where):
        return discriminative_power(SCORES, method, samples=2100, rng=7, **where).pairs
    return run


def _split(**where):
    from irscale.meta import split_study
    where.pop("workers", None)  # the loop itself has no threads
    return split_study(SCORES, sizes=(5, 10), repetitions=18, rng=9,
                       models=("MD2", "bootstrap"), cross=[("t", "MD1")],
                       options={"bootstrap": {"samples": 200}}, **where).per_split


def _swap(**where):
    from irscale.meta import swap_rates
    where.pop("workers", None)
    return swap_rates(SCORES, sizes=(5, 10), repetitions=20, rng=4, test="randomization",
                      samples=300, **where).rates


def _scale_image(**where):
    import irscale.scales.generic as generic
    from irscale.scales import scale
    where.pop("workers", None)
    old = generic.SHARD_RUNS
    generic.SHARD_RUNS = 1000  # 20 shards of the 3^9 runs (the image must not depend on it)
    try:
        return np.concatenate(scale("ERR", 9, 3, progress=False, **where).image.values())
    finally:
        generic.SHARD_RUNS = old


def _loo_data():
    rng = np.random.default_rng(11)
    qrels = {f"q{t}": {f"d{d}": int(rng.integers(0, 3)) for d in range(30)}
             for t in range(6)}
    runs = {f"{team}_{k}": {f"q{t}": {f"d{d}": float(rng.random()) for d in
                                      rng.choice(40, size=12, replace=False)}
                            for t in range(6)}
            for team in ("A", "B", "C") for k in range(2)}
    return qrels, runs


def _loo(**where):
    from irscale.meta import leave_one_out
    where.pop("workers", None)
    qrels, runs = _loo_data()
    return leave_one_out(qrels, runs, ["map", "P@5"], depth=5, **where).runs


def _simulation(**where):
    from irscale.meta import NormalModel, simulation_study
    where.pop("workers", None)
    model = NormalModel(topics=10, systems=3, effects=(0.0, 0.0, 0.05))
    return simulation_study(model, ["t", "bootstrap"], ["none", "holm"], 60, rng=3,
                            options={"bootstrap": {"samples": 100}}, **where).counts


CASES = {
    "bootstrap": _pairwise("bootstrap", "two-sided"),
    "bootstrap-less": _pairwise("bootstrap", "less"),
    "bootstrap-shift": _pairwise("bootstrap-shift", "greater"),
    "unpaired-bootstrap": _pairwise("unpaired-bootstrap", "two-sided"),
    "randomization": _pairwise("randomization", "two-sided"),
    "randomized-tukey-hsd": _tukey,
    "discriminative-bootstrap": _discriminative("bootstrap"),
    "discriminative-tukey": _discriminative("randomized-tukey-hsd"),
    "split-study": _split,
    "swap-rates": _swap,
    "leave-one-out": _loo,
    "scale-image-shards": _scale_image,
    "simulation-study": _simulation,
}


@pytest.fixture(scope="module")
def local_results():
    """Every case with the local executor on one thread (the reference)."""
    return {name: case(workers=1) for name, case in CASES.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_local_threads_do_not_change_results(name, local_results):
    _same(local_results[name], CASES[name](workers=3))


@pytest.mark.parametrize("name", list(CASES))
def test_dask_cluster_gives_the_local_results(name, client, local_results):
    _same(local_results[name], CASES[name](executor=client))


def test_scheduler_address_string_gives_the_same_results(client, local_results):
    address = client.scheduler.address
    _same(local_results["discriminative-bootstrap"],
          CASES["discriminative-bootstrap"](executor=address))


def test_required_differences_equal_a_brute_force_over_the_same_draws():
    """t_α = the ⌊Bα⌉-th largest |t*| of all B draws (Sakai 2006), recomputed with one
    loop per sample from the same chunk streams."""
    from irscale.meta.discriminative import bootstrap_required_differences
    from irscale.stats.bootstrap import CHUNK

    values, samples, alpha = SCORES[:, :4], 2500, 0.05
    t_alpha, _ = bootstrap_required_differences(values, samples, seed_sequence(rng=13), alpha)
    n = values.shape[0]
    i, j = np.triu_indices(values.shape[1], 1)
    w = values[:, i] - values[:, j]
    w = w - w.mean(axis=0)
    sizes = [CHUNK] * (samples // CHUNK) + [samples % CHUNK]
    stats = []
    for child, size in zip(seed_sequence(rng=13).spawn(len(sizes)), sizes, strict=True):
        draws = np.random.Generator(np.random.PCG64(child)).integers(0, n, size=(size, n))
        for row in draws:
            sample = w[row]
            mean, sd = sample.mean(axis=0), sample.std(axis=0, ddof=1)
            with np.errstate(divide="ignore", invalid="ignore"):
                t = np.abs(mean / (sd / np.sqrt(n)))
            stats.append(np.where(np.isnan(t), 0.0, t))
    rank = round(samples * alpha)
    expected = -np.sort(-np.array(stats), axis=0)[rank - 1]
    np.testing.assert_allclose(t_alpha, expected, rtol=1e-12)


# ------------------------------------------------------------------ progress and failures

def test_progress_is_reported_as_tasks_complete(client):
    from irscale.stats import paired_bootstrap_test
    seen = []
    paired_bootstrap_test(SCORES[:, 0], SCORES[:, 1], samples=3000, rng=5, executor=client,
                          progress=lambda done, total: seen.append((done, total)))
    # chunks of 1,024, 1,024 and 952 samples: one report per chunk, the count rising to B
    done = [d for d, _ in seen]
    assert len(done) == 3 and done == sorted(done) and done[-1] == 3000
    assert {t for _, t in seen} == {3000}


def _fails(value: int) -> int:
    if value == 2:
        raise ParameterError("task 2 refuses")
    return value


def test_a_failing_task_raises_its_error(client):
    with pytest.raises(ParameterError, match="task 2 refuses"):
        map_tasks(_fails, [(v,) for v in range(5)], executor=client)


def _dies_once(flag: str, value: int) -> int:
    """Kills its own worker process (mid-task) the first time it runs for value 3."""
    if value == 3 and not os.path.exists(flag):
        Path(flag).write_text("killed")
        os._exit(1)
    time.sleep(0.05)
    return value * value


def test_a_worker_killed_mid_task_changes_nothing(tmp_path):
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers lack tests/
    try:
        flag = str(tmp_path / "killed")
        with executor_scope("local:2") as dask_client:
            result = map_tasks(_dies_once, [(v,) for v in range(8)], shared=(flag,),
                               executor=dask_client)
        assert Path(flag).exists()  # a worker did die
        assert result == [v * v for v in range(8)]
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


@pytest.mark.parametrize("workers", [1, 2])
def test_a_worker_killed_during_discriminative_power_changes_nothing(workers, local_results):
    """A worker process is killed (SIGKILL) when the first chunk completes, while the
    other chunks run; the nanny restarts it and the lost chunks run again. With one
    worker the shared data dies with it: the tasks are sent again with the data."""
    from irscale.meta import discriminative_power

    with executor_scope(f"local:{workers}") as dask_client:
        pids = dask_client.run(os.getpid)
        victim = sorted(pids.values())[0]
        killed = []

        def progress(done: int, total: int) -> None:
            if not killed:
                os.kill(victim, signal.SIGKILL)
                killed.append(done)

        result = discriminative_power(SCORES, "bootstrap", samples=2100, rng=7,
                                      executor=dask_client, progress=progress)
        assert killed and victim not in dask_client.run(os.getpid).values()
    _same(local_results["discriminative-bootstrap"], result.pairs)


# ------------------------------------------------------------------ options

@pytest.mark.parametrize("value", ["local", None, "local:1", "local:16", "tcp://10.0.0.5:8786",
                                   "tls://host.example:8786", "tcp://[::1]:8786"])
def test_valid_executor_forms(value):
    assert check_executor(value) == (value or "local")


@pytest.mark.parametrize("value, message", [
    ("local:0", "N of 'local:N'"), ("local:x", "N of 'local:N'"), ("local:", "N of 'local:N'"),
    ("dask", "must be 'local'"), ("http://h:1", "must be 'local'"), (4, "must be 'local'"),
    ("tcp://host", "scheme://host:port"), ("tcp://host:0", "scheme://host:port"),
    ("tcp://:8786", "scheme://host:port"), ("tcp://host:99999", "scheme://host:port"),
])
def test_invalid_executor_forms(value, message):
    with pytest.raises(ParameterError, match=message):
        check_executor(value)


def test_workers_with_a_dask_executor_is_refused():
    from irscale.stats import randomized_tukey_hsd
    with pytest.raises(ParameterError, match="workers applies to the local executor"):
        randomized_tukey_hsd(SCORES, samples=100, workers=2, executor="local:2")


def test_an_unreachable_scheduler_is_a_quick_clear_error(monkeypatch):
    """A refused connection is the error at once: Dask's client, which retries until its
    timeout, is never started (checked by a stand-in, not by a clock)."""
    import socket

    import distributed

    def no_client(*args, **kwargs):
        raise AssertionError("distributed.Client was started for an unreachable address")

    monkeypatch.setattr(distributed, "Client", no_client)
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(SchedulerError, match=f"tcp://127.0.0.1:{port}: no Dask scheduler"):
        with executor_scope(f"tcp://127.0.0.1:{port}"):
            pass


def test_without_dask_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if absent
    with pytest.raises(ParameterError, match=r"irscale\[dask\]"):
        with executor_scope("local:2"):
            pass


def test_importing_irscale_never_imports_dask():
    code = ("import sys, irscale, irscale.parallel, irscale.stats, irscale.meta, "
            "irscale.scales; import numpy as np; from irscale.stats import randomized_tukey_hsd;"
            " randomized_tukey_hsd(np.random.default_rng(1).random((6, 3)), samples=50, rng=1);"
            " print('dask' in sys.modules, 'distributed' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize("workers", [2, 3])
def test_local_threads_hold_a_window_of_results_not_every_task(workers):
    """A slow first task does not let the other tasks' results pile up behind it: at most
    2 * workers tasks are started ahead of the result handed over."""
    import threading

    from irscale.parallel import run_tasks

    lock, started, ahead = threading.Lock(), [0], []

    def task(index: int) -> int:
        with lock:
            started[0] += 1
        if index == 0:
            time.sleep(0.2)
        return index

    def take(index: int, result: int) -> None:
        assert result == index
        with lock:
            ahead.append(started[0] - index - 1)

    run_tasks(task, [(k,) for k in range(40)], take, workers=workers)
    assert len(ahead) == 40 and max(ahead) <= 2 * workers - 1, ahead


class _FlakyClient:
    """A client whose scatter loses its connection ``failures`` times first (a worker
    killed while the shared data is sent)."""

    def __init__(self, failures: int):
        self.failures, self.calls = failures, []

    def scatter(self, data, broadcast, hash):
        from distributed.comm import CommClosedError

        self.calls.append((data, broadcast, hash))
        if len(self.calls) <= self.failures:
            raise CommClosedError("in <TCP (closed) ConnectionPool.scatter>: Stream is closed")
        return [f"future-{value}" for value in data]


def test_a_scatter_cut_by_a_dying_worker_starts_again(monkeypatch):
    import importlib

    executor = importlib.import_module("irscale.parallel.executor")

    monkeypatch.setattr(executor.time, "sleep", lambda seconds: None)
    client = _FlakyClient(failures=executor.RESUBMISSIONS)
    assert executor._scatter(client, ("a", "b")) == ["future-a", "future-b"]
    assert client.calls == [(["a", "b"], True, False)] * (executor.RESUBMISSIONS + 1)
    with pytest.raises(SchedulerError, match="could not be sent to the workers 4 times"):
        executor._scatter(_FlakyClient(failures=executor.RESUBMISSIONS + 1), ("a",))

"""Simulation studies of tests (irscale.meta.simulation): counts equal a
brute force with scipy's tests on the same matrices, the t-test's Type I rate under a
null model is α within its interval, intervals equal statsmodels' Wilson intervals, and an
interrupted checkpointed study resumes to the uninterrupted results without redoing the
finished tasks."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

import irscale.core.progress as progress_module
import irscale.meta.simulation as simulation
from irscale.errors import ParameterError
from irscale.meta import BootstrapModel, NormalModel, simulation_study
from irscale.meta.common import derived_seed, generator
from irscale.meta.simulation import REPETITIONS_PER_TASK, wilson_interval
from irscale.stats.resampling import seed_sequence

from .oracle_imports import lazy_import
from .test_progress import Seconds

sps = lazy_import("scipy.stats")


def test_type_I_rate_of_the_t_test_under_the_null_model_is_alpha():
    """X = u_t + e_ts with equal system means: the paired t-test's assumptions hold, so its
    Type I rate is α; 4,000 independent pairs (one per matrix). A 95% interval misses α
    for 5% of the seeds (seed 20261123 with 3,000 matrices gives 0.0407, [0.034, 0.048]);
    seed 1 is one of the 95%, and the counting itself is checked by the brute force
    below."""
    study = simulation_study(NormalModel(topics=20, systems=2), ["t"], ["none"], 4000,
                             rng=1)
    row = study.rates.iloc[0]
    assert row["null"] == 4000 and row["non_null"] == 0
    assert row["type_I_low"] <= 0.05 <= row["type_I_high"]
    assert row["type_I_high"] - row["type_I_low"] < 0.02


def test_counts_equal_a_brute_force_with_scipy():
    """Every matrix redrawn from its documented stream, tested with scipy.stats.ttest_rel
    pair by pair, Holm by hand; Type I/II/III and power counted from the definitions."""
    effects = (0.0, 0.0, 0.03, 0.08)
    model = NormalModel(topics=15, systems=4, effects=effects, topic_sd=0.2, error_sd=0.1)
    reps = 40
    study = simulation_study(model, ["t"], ["none", "holm"], reps, rng=5)
    seeds = seed_sequence(rng=5)
    i, j = np.triu_indices(4, 1)
    truth = np.asarray(effects)[i] - np.asarray(effects)[j]
    expected = {c: dict.fromkeys(("type_I", "null", "type_II", "type_III", "power",
                                  "non_null"), 0) for c in ("none", "holm")}
    for r in range(reps):
        x = model.draw(generator(derived_seed(seeds, r, 0)))
        p = np.array([sps.ttest_rel(x[:, a], x[:, b]).pvalue
                      for a, b in zip(i, j, strict=True)])
        diff = x[:, i].mean(axis=0) - x[:, j].mean(axis=0)
        order = np.argsort(p)  # Holm's step-down by hand
        holm = np.empty_like(p)
        steps = p[order] * (len(p) - np.arange(len(p)))
        holm[order] = np.minimum(1, np.maximum.accumulate(steps))
        for name, adjusted in (("none", p), ("holm", holm)):
            sig = adjusted <= 0.05
            for k in range(len(p)):
                if truth[k] == 0:
                    expected[name]["null"] += 1
                    expected[name]["type_I"] += sig[k]
                else:
                    expected[name]["non_null"] += 1
                    expected[name]["type_II"] += not sig[k]
                    right = np.sign(diff[k]) == np.sign(truth[k])
                    expected[name]["type_III"] += sig[k] and not right
                    expected[name]["power"] += sig[k] and right
    for row in study.rates.itertuples():
        e = expected[row.correction]
        assert (row.null, row.non_null) == (e["null"], e["non_null"])
        assert row.type_I == e["type_I"] / e["null"]
        assert row.type_II == e["type_II"] / e["non_null"]
        assert row.type_III == e["type_III"] / e["non_null"]
        assert row.power == e["power"] / e["non_null"]


def test_wilson_bounds_at_no_and_all_events_are_exact():
    """At p = 0 the Wilson centre and half-width are equal (both (z²/2n)/(1 + z²/n)), so
    the lower bound is 0; at p = 1 the upper bound is 1 (as statsmodels gives them)."""
    low, high = wilson_interval(np.array([0, 800, 0]), np.array([800, 800, 0]))
    assert low[0] == 0.0 and high[1] == 1.0
    assert 0 < high[0] < 0.01 and 0.99 < low[1] < 1
    assert np.isnan(low[2]) and np.isnan(high[2])


def test_wilson_intervals_equal_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    events, trials = np.array([0, 3, 50, 200]), np.array([10, 40, 1000, 200])
    low, high = wilson_interval(events, trials)
    ref_low, ref_high = proportion_confint(events, trials, alpha=0.05, method="wilson")
    np.testing.assert_allclose(low, ref_low, atol=1e-12)
    np.testing.assert_allclose(high, ref_high, atol=1e-12)


def test_bootstrap_model_truth_and_null():
    values = np.random.default_rng(2).random((12, 3)) + np.array([0.0, 0.1, 0.3])
    real = BootstrapModel.of(values)
    np.testing.assert_allclose(real.means(), values.mean(axis=0))
    null = BootstrapModel.of(values, null=True)
    np.testing.assert_allclose(null.values.mean(axis=0), values.mean(), atol=1e-12)
    study = simulation_study(null, ["t"], ["none"], 60, rng=1)
    assert study.rates["non_null"].iloc[0] == 0 and study.rates["null"].iloc[0] == 180
    study = simulation_study(real, ["t", "bootstrap"], ["none"], 30, rng=1,
                             options={"bootstrap": {"samples": 200}})
    assert (study.rates["non_null"] == 90).all()


def test_an_interrupted_study_resumes_with_identical_results(tmp_path):
    model = NormalModel(topics=10, systems=3, effects=(0.0, 0.0, 0.05))
    args = (model, ["t", "randomization"], ["none"], 4 * REPETITIONS_PER_TASK + 7)
    options = {"randomization": {"samples": 200}}
    whole = simulation_study(*args, rng=9, options=options)
    seen: list[int] = []

    def stop_after_two_tasks(done: int, total: int) -> None:
        seen.append(done)
        if done >= 2 * REPETITIONS_PER_TASK:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulation_study(*args, rng=9, options=options, checkpoint=tmp_path,
                         progress=stop_after_two_tasks)
    saved = sorted(p.name for p in tmp_path.glob("task-*.npy"))
    assert saved == ["task-00000000.npy", "task-00000001.npy"]
    resumed: list[int] = []
    again = simulation_study(*args, rng=9, options=options, checkpoint=tmp_path,
                             progress=lambda done, total: resumed.append(done))
    assert resumed[0] == 2 * REPETITIONS_PER_TASK  # the finished tasks are not redone
    np.testing.assert_array_equal(again.counts, whole.counts)
    assert again.rates.equals(whole.rates)
    # a third run reads everything
    third: list[int] = []
    simulation_study(*args, rng=9, options=options, checkpoint=tmp_path,
                     progress=lambda done, total: third.append(done))
    assert third == [args[3]]


def test_the_rest_is_stated_in_matrices_measured_on_the_tasks_computed(tmp_path, capsys,
                                                                       monkeypatch):
    """The time of the rest is the one mechanism's (:func:`irscale.core.progress.
    counted_work`), in the declared units of ``--repetitions``, measured on the tasks
    computed: the matrices resumed from a checkpoint cost nothing and are left out. A clock
    of the test advances half a second a task."""
    model = NormalModel(topics=5, systems=2)
    args = (model, ["t"], ["none"], 15 * REPETITIONS_PER_TASK)

    def stop_after_a_task(done: int, total: int) -> None:
        if done >= REPETITIONS_PER_TASK:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulation_study(*args, rng=3, checkpoint=tmp_path, progress=stop_after_a_task)
    monkeypatch.setenv("IRSCALE_NO_PROGRESS", "1")  # (the bar; the statement is forced)
    monkeypatch.setattr(progress_module, "notice",
                        lambda text, **_: sys.stderr.write(f"irscale: {text}\n"))
    cpu = Seconds()
    monkeypatch.setattr(progress_module.time, "process_time", cpu)
    task = simulation._simulate

    def timed(*arguments):
        cpu.now += 0.5
        return task(*arguments)

    monkeypatch.setattr(simulation, "_simulate", timed)
    capsys.readouterr()
    simulation_study(*args, rng=3, checkpoint=tmp_path, progress=True)
    # a task resumed (25 matrices), then 1 s for two tasks (50 matrices): 300 left at 20 ms
    assert capsys.readouterr().err == (
        "irscale: the simulation: 300 more matrices (--repetitions) at 20 ms each "
        "(measured), about 6 s\n")


def test_a_checkpoint_of_another_study_is_refused(tmp_path):
    model = NormalModel(topics=10, systems=2)
    simulation_study(model, ["t"], ["none"], 30, rng=1, checkpoint=tmp_path)
    with pytest.raises(ParameterError, match=r"holds another study.*seed"):
        simulation_study(model, ["t"], ["none"], 30, rng=2, checkpoint=tmp_path)
    with pytest.raises(ParameterError, match=r"holds another study.*procedures"):
        simulation_study(model, ["wilcoxon"], ["none"], 30, rng=1, checkpoint=tmp_path)


@pytest.mark.parametrize("call, message", [
    (lambda: NormalModel(topics=1), "topics"),
    (lambda: NormalModel(error_sd=0), "error_sd"),
    (lambda: NormalModel(systems=3, effects=(0.0, 1.0)), "effects"),
    (lambda: simulation_study("normal"), "NormalModel"),
    (lambda: simulation_study(NormalModel(), ["nope"]), "nope"),
    (lambda: simulation_study(NormalModel(), ["t"], ["nope"]), "nope"),
    (lambda: simulation_study(NormalModel(), ["t"], repetitions=0), "repetitions"),
    (lambda: simulation_study(NormalModel(), ["t"], options={"wilcoxon": {}}), "wilcoxon"),
])
def test_bad_arguments(call, message):
    with pytest.raises(ParameterError, match=message):
        call()


# ---------------------------------------------------------------- topic subsets
def planted(topics: int = 20) -> np.ndarray:
    """Two systems, the second better on every topic by a varying margin: the sign test
    finds them different on the full set (p = 2 · 2⁻²⁰), on any 10 topics (p = 2 · 2⁻¹⁰ =
    0.002) and never on 3 (p = 2 · 2⁻³ = 0.25)."""
    base = np.linspace(0.1, 0.6, topics)
    return np.column_stack([base, base + np.linspace(0.01, 0.2, topics)[::-1]])


def test_topic_subsets_planted_sign_test():
    model = BootstrapModel.of(planted(), topics=[3, 10, 20])
    study = simulation_study(model, ["sign"], ["none"], 25, rng=3)
    rows = study.rates.set_index("topics")
    assert rows.loc[3, "agreement"] == 0.0 and rows.loc[3, "type_II"] == 1.0
    for n in (10, 20):
        assert rows.loc[n, "agreement"] == 1.0 and rows.loc[n, "type_II"] == 0.0
    assert (rows["type_III"] == 0).all() and (rows["full_significant"] == 25).all()
    assert study.counts.shape == (3, 25, 1, 7)


def test_topic_subsets_of_every_topic_are_the_full_set():
    """Subsets as large as the matrix draw every topic: each test concludes as on the full
    set (agreement 1, no error), for tests that do not resample."""
    rng = np.random.default_rng(5)
    values = rng.random((15, 1)) + np.array([0, 0.02, 0.3]) + rng.normal(0, 0.05, (15, 3))
    study = simulation_study(BootstrapModel.of(values, topics=[15]), ["t", "wilcoxon"],
                             ["none", "holm"], 4, rng=1)
    assert (study.rates["agreement"] == 1.0).all()
    assert (study.rates["type_II"].fillna(0) == 0).all()


def test_topic_subsets_seeded():
    rng = np.random.default_rng(6)
    values = rng.random((30, 1)) + np.array([0, 0.03, 0.08]) + rng.normal(0, 0.05, (30, 3))
    model = BootstrapModel.of(values, topics=[5, 12])
    first = simulation_study(model, ["t", "randomization"], ["none"], 6, rng=9,
                             options={"randomization": {"samples": 99}})
    again = simulation_study(model, ["t", "randomization"], ["none"], 6, rng=9,
                             options={"randomization": {"samples": 99}})
    pd.testing.assert_frame_equal(first.rates, again.rates)
    assert np.array_equal(first.counts, again.counts)


def test_topic_subsets_refusals():
    with pytest.raises(ParameterError, match="without replacement"):
        BootstrapModel.of(planted(), topics=[21])
    with pytest.raises(ParameterError, match="null"):
        BootstrapModel.of(planted(), topics=[5], null=True)
    with pytest.raises(ParameterError, match="checkpoint"):
        simulation_study(BootstrapModel.of(planted(), topics=[5]), ["t"], ["none"], 2,
                         rng=1, checkpoint="unused-folder")

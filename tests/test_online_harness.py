"""The simulation harness: agreement of interleaving and A/B experiments
with an offline measure's preference (:mod:`irscale.online.harness`)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from irscale.errors import AlignmentError, InputError, ParameterError
from irscale.online import ClickModel, sensitivity
from irscale.online.harness import AB_MEASURES

# One topic, relevant documents r1, r2, r3. A shows r1 first, then nine non-relevant
# documents; B shows eight non-relevant documents, then r2 and r3 (ranks 9, 10).
# nDCG@10 (hand): IDCG = 1 + 1/log2(3) + 1/2; A = 1/IDCG = 0.4693, B = (1/log2(10) +
# 1/log2(11))/IDCG = 0.2768: the offline measure prefers A.
QRELS = {"q": {"r1": 1, "r2": 1, "r3": 1}}
A = {"q": {d: 10.0 - i for i, d in enumerate(["r1", *[f"a{j}" for j in range(1, 10)]])}}
B = {"q": {d: 10.0 - i for i, d in enumerate([*[f"b{j}" for j in range(1, 9)], "r2",
                                               "r3"])}}
IDCG = 1 + 1 / math.log2(3) + 1 / 2


def _run(**kwargs):
    options = {"impressions": [2, 10], "repetitions": 20, "seed": 7}
    options.update(kwargs)
    return sensitivity(QRELS, {"A": A, "B": B}, "perfect", **options)


def test_offline_preference_is_the_hand_computed_ndcg_difference():
    curves = _run().curves
    expected = 1 / IDCG - (1 / math.log2(10) + 1 / math.log2(11)) / IDCG
    assert curves["delta"].to_numpy() == pytest.approx(expected, abs=1e-12)
    assert set(curves["preference"]) == {"A"}


def test_perfect_users_team_draft_always_agrees_and_clicks_ab_never_does():
    """Team-draft (10 positions, two rankers): A drafts r1 plus four of its non-relevant
    documents, B five non-relevant ones (its r2, r3 are at ranks 9, 10): a perfect user
    clicks r1 only, so A wins every impression. A/B on clicks: A's list has one relevant
    document, B's two, so every experiment prefers B (no ties): agreement 0. On the
    reciprocal rank of the first click (A: 1, B: 1/9) every experiment prefers A."""
    curves = _run().curves
    inter = curves[curves["method"] == "team-draft"]
    ab = curves[curves["method"] == "ab"]
    assert (inter["agreement"] == 1.0).all() and (inter["ties"] == 0).all()
    assert (ab["agreement"] == 0.0).all() and (ab["ties"] == 0).all()
    rr = _run(ab_measure="reciprocal_rank").curves
    assert (rr.loc[rr["method"] == "ab", "agreement"] == 1.0).all()
    # lower is better for abandonment: nobody abandons with a relevant document shown
    aband = _run(ab_measure="abandoned").curves
    assert (aband.loc[aband["method"] == "ab", "ties"] == 20).all()
    assert AB_MEASURES == {"clicks": 1, "reciprocal_rank": 1, "abandoned": -1}


def test_every_interleaving_method_agrees_with_perfect_users():
    curves = _run(methods=["team-draft", "balanced", "probabilistic", "optimized"],
                  impressions=[4], repetitions=10).curves
    assert list(curves["method"]) == ["team-draft", "balanced", "probabilistic",
                                      "optimized", "ab"]
    assert (curves["agreement"].iloc[:4] == 1.0).all()


def test_consistent_ndcg_difference_converges_quickly_with_perfect_users():
    """Ten topics; on every topic 'good' ranks the relevant documents first and 'bad'
    ranks them after non-relevant ones (both within the first 10): interleaving agrees at
    the smallest experiment already."""
    rng = np.random.default_rng(0)
    qrels, good, bad = {}, {}, {}
    for t in range(10):
        rel = [f"r{t}_{i}" for i in range(int(rng.integers(1, 4)))]
        non = [f"n{t}_{i}" for i in range(10 - len(rel))]
        qrels[f"t{t}"] = {d: 1 for d in rel} | {d: 0 for d in non}
        good[f"t{t}"] = {d: 20.0 - i for i, d in enumerate(rel + non)}
        bad[f"t{t}"] = {d: 20.0 - i for i, d in enumerate(non[:3] + rel + non[3:])}
    result = sensitivity(qrels, {"good": good, "bad": bad}, "perfect", impressions=[10, 50],
                         repetitions=40, seed=3)
    inter = result.curves[result.curves["method"] == "team-draft"]
    assert (inter["agreement"] == 1.0).all()
    assert result.summary().loc[0, "team-draft"] == 10


def test_identical_runs_have_no_offline_preference_and_leave_the_summary():
    runs = {"A": A, "B": B, "A2": A}
    result = sensitivity(QRELS, runs, "navigational", impressions=[4], repetitions=5,
                         seed=1)
    same = result.curves[(result.curves["a"] == "A") & (result.curves["b"] == "A2")]
    assert len(same) == 2 and (same["preference"] == "none").all()
    assert same[["agreement", "ci_low", "ci_high"]].isna().all().all()
    assert (same["delta"] == 0).all()
    summary = result.summary()
    assert list(zip(summary["a"], summary["b"], strict=True)) == [("A", "B"), ("B", "A2")]


def test_agreement_is_a_fraction_with_the_exact_binomial_interval():
    result = sensitivity(QRELS, {"A": A, "B": B}, "informational", impressions=[2, 6, 30],
                         repetitions=25, seed=11, alpha=0.1)
    curves = result.curves
    assert ((curves["agreement"] >= 0) & (curves["agreement"] <= 1)).all()
    assert (curves["agreement"] == curves["agree"] / 25).all()
    for k, low, high in curves[["agree", "ci_low", "ci_high"]].itertuples(index=False):
        ci = binomtest(int(k), 25).proportion_ci(0.9, method="exact")
        assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-9)
        assert low <= k / 25 <= high


def test_interval_of_a_tiny_case_by_hand():
    """R = 5 experiments that all agree: Clopper–Pearson's lower bound solves
    p^5 = α/2, so it is 0.025^(1/5) = 0.47818; the upper bound is 1. All disagree
    (A/B on clicks): [0, 1 − 0.025^(1/5)] = [0, 0.52182]."""
    curves = _run(impressions=[2], repetitions=5).curves
    inter, ab = curves.iloc[0], curves.iloc[1]
    assert (inter["agree"], ab["agree"]) == (5, 0)
    assert inter["ci_low"] == pytest.approx(0.47818, abs=5e-6) and inter["ci_high"] == 1
    assert ab["ci_low"] == 0 and ab["ci_high"] == pytest.approx(0.52182, abs=5e-6)


def test_summary_is_the_smallest_grid_point_reaching_the_target():
    result = sensitivity(QRELS, {"A": A, "B": B}, "informational",
                         impressions=[2, 4, 8, 16, 32], repetitions=30, seed=5, target=0.8)
    summary = result.summary().set_index(["a", "b"])
    for method, rows in result.curves.groupby("method"):
        reached = [n for n, a in zip(rows["impressions"], rows["agreement"], strict=True)
                   if a >= 0.8]
        got = summary.loc[("A", "B"), method]
        assert (pd.isna(got) and not reached) or got == min(reached)


def test_same_seed_same_table_and_pairs_independent_of_other_pairs():
    one = sensitivity(QRELS, {"A": A, "B": B}, "navigational", impressions=[3, 9],
                      repetitions=30, seed=42).curves
    again = sensitivity(QRELS, {"A": A, "B": B}, "navigational", impressions=[3, 9],
                        repetitions=30, seed=42).curves
    pd.testing.assert_frame_equal(one, again)
    other = sensitivity(QRELS, {"A": A, "B": B}, "navigational", impressions=[3, 9],
                        repetitions=30, seed=43).curves
    assert not one["agree"].equals(other["agree"])
    chosen = sensitivity(QRELS, {"A": A, "B": B}, "navigational", impressions=[3, 9],
                         repetitions=30, seed=42, pairs=[("B", "A")]).curves
    assert (chosen["preference"] == "A").all()
    assert (chosen["delta"] == -one["delta"]).all()


def test_interleaving_and_ab_see_the_same_users(monkeypatch):
    """Every batch simulates the interleaved lists and the A/B lists with the same click
    draws: the same generator state, the same number of users × positions and the same
    topic for every user."""
    calls = []
    simulate = ClickModel.simulate

    def spy(self, log, rng=None):
        calls.append((rng.bit_generator.state, log.clicks.shape,
                      np.asarray(log.queries)[log.query].tolist()))
        return simulate(self, log, rng=rng)

    monkeypatch.setattr(ClickModel, "simulate", spy)
    qrels = QRELS | {"p": {"r1": 1}}
    runs = {"A": A | {"p": {"r1": 1.0, "x": 0.5}}, "B": B | {"p": {"x": 1.0, "r1": 0.5}}}
    sensitivity(qrels, runs, "navigational", impressions=[4, 8], repetitions=3, seed=2)
    assert len(calls) == 4  # per grid point: interleaving, then A/B
    for inter, ab in (calls[:2], calls[2:]):
        assert inter[0] == ab[0] and inter[1] == ab[1] and inter[2] == ab[2]
    assert calls[0][1] == (12, 10) and calls[2][1] == (24, 10)
    assert calls[0][0] != calls[2][0]


def test_a_fitted_model_and_the_model_json():
    from irscale.online import qrels_click_model

    model = ClickModel.from_json(qrels_click_model(QRELS, "perfect").to_json())
    curves = sensitivity(QRELS, {"A": A, "B": B}, model, impressions=[2],
                         repetitions=5, seed=0).curves
    assert list(curves["agree"]) == [5, 0]


def test_cli_prints_the_api_table(tmp_path, capsys):
    from irscale.cli.main import main

    qrels = tmp_path / "q.txt"
    qrels.write_text("".join(f"q 0 {d} 1\n" for d in QRELS["q"]))
    paths = []
    for name, run in (("A", A), ("B", B)):
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"q Q0 {d} {i + 1} {s} {name}\n"
                                for i, (d, s) in enumerate(run["q"].items())))
        paths.append(str(path))
    status = main(["online", "sensitivity", str(qrels), *paths, "--model", "perfect",
                   "--impressions", "2,10", "--repetitions", "20", "--seed", "7",
                   "--format", "json"])
    assert status == 0
    got = pd.DataFrame(json.loads(capsys.readouterr().out))
    expected = _run().curves
    assert list(got["agree"]) == list(expected["agree"])
    assert list(got["method"]) == list(expected["method"])


@pytest.mark.parametrize(("kwargs", "error", "needle"), [
    ({"impressions": [10, 5]}, ParameterError, "increase"),
    ({"impressions": [1]}, ParameterError, "impressions"),
    ({"impressions": "10"}, ParameterError, "an impression count must be an integer"),
    ({"impressions": [10, 10]}, ParameterError, "twice"),
    ({"repetitions": 0}, ParameterError, "repetitions"),
    ({"methods": []}, ParameterError, "empty"),
    ({"methods": ["tdi"]}, ParameterError, "tdi"),
    ({"methods": ["balanced", "balanced"]}, ParameterError, "twice"),
    ({"methods": ["team-draft"], "credit": "team"}, ParameterError,
     "credit= applies to methods 'probabilistic' and 'optimized'"),
    ({"credit": "linear"}, ParameterError, "team-draft"),
    ({"ab_measure": "ctr"}, ParameterError, "ctr"),
    ({"target": 0}, ParameterError, "target"),
    ({"pairs": [("A", "C")]}, ParameterError, "'C'"),
    ({"pairs": [("A", "A")]}, ParameterError, "two different"),
    ({"pairs": []}, ParameterError, "pair"),
    ({"measure": "P.5,10"}, ParameterError, "one"),
    ({"seed": -1}, ParameterError, "seed"),
])
def test_bad_arguments(kwargs, error, needle):
    with pytest.raises(error, match=needle):
        _run(**kwargs)


def test_bad_models_and_inputs():
    with pytest.raises(ParameterError, match="navigationl"):
        sensitivity(QRELS, {"A": A, "B": B}, "navigationl")
    with pytest.raises(ParameterError, match="ClickModel"):
        sensitivity(QRELS, {"A": A, "B": B}, 3)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="two or more"):
        sensitivity(QRELS, {"A": A}, "perfect")
    with pytest.raises(AlignmentError, match="no topic"):
        sensitivity({"z": {"r1": 1}}, {"A": A, "B": B}, "perfect")


def test_significance_by_hand():
    """A wins every impression of team-draft: the sign test's p is 2 (1/2)^N — 0.5 (N = 2),
    0.0625 (5), 0.03125 (6), 0.00195 (10) — so at 0.05 no experiment of 2 or 5 impressions
    agrees and every one of 6 or 10 does. A/B on the reciprocal rank: A's users all have
    1, B's all 1/9, so the standard error is 0 and the test significant, except with one
    user per arm (N = 2), where it is undefined (p = 1)."""
    curves = _run(impressions=[2, 5, 6, 10], repetitions=10, significance=0.05,
                  ab_measure="reciprocal_rank").curves
    assert list(curves["agree"]) == [0, 0, 10, 10, 0, 10, 10, 10]
    plain = _run(impressions=[2, 5, 6, 10], repetitions=10,
                 ab_measure="reciprocal_rank").curves
    assert list(plain["agree"]) == [10] * 8


def test_significance_only_removes_agreement():
    options = {"impressions": [4, 16, 64], "repetitions": 30, "seed": 9,
               "methods": ["team-draft", "probabilistic"]}
    loose = sensitivity(QRELS, {"A": A, "B": B}, "informational", **options).curves
    strict = sensitivity(QRELS, {"A": A, "B": B}, "informational", significance=0.05,
                         **options).curves
    assert (strict["agree"] <= loose["agree"]).all()
    assert (strict["ties"] == loose["ties"]).all()
    assert strict["agree"].sum() < loose["agree"].sum()


def test_welch_and_sign_test_equal_scipy():
    from scipy.stats import ttest_ind

    from irscale.online.harness import _welch, sign_test

    rng = np.random.default_rng(4)
    value = rng.poisson(1.5, 6 * 40).astype(float)
    arm = np.tile(np.r_[np.zeros(17), np.ones(23)], 6).astype(int)
    experiment = np.repeat(np.arange(6), 40)
    diff, p = _welch(value, experiment * 2 + arm, 6)
    for e in range(6):
        x = value[(experiment == e) & (arm == 0)]
        y = value[(experiment == e) & (arm == 1)]
        assert diff[e] == pytest.approx(x.mean() - y.mean())
        assert p[e] == pytest.approx(ttest_ind(x, y, equal_var=False).pvalue, rel=1e-9)
    wins, losses = np.array([0, 3, 7, 12, 5]), np.array([0, 9, 7, 2, 0])
    expected = [1.0] + [binomtest(w, w + lo).pvalue for w, lo in zip(wins[1:], losses[1:],
                                                                       strict=True)]
    assert sign_test(wins, losses) == pytest.approx(expected, rel=1e-9)


def test_pairs_name_runs_by_name_file_or_run_id(tmp_path):
    """``pairs=`` designates the runs as every run argument does
    (:func:`irscale.io.naming.find_run`): runs read from ``a.run`` and ``b.run`` (run ids
    A and B) are paired by their names, file names or run ids alike; a name that designates
    no run is refused with the runs and their files."""
    paths = []
    for name, run in (("a", A), ("b", B)):
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"q Q0 {d} {i + 1} {s} {name.upper()}\n"
                                for i, (d, s) in enumerate(run["q"].items())))
        paths.append(path)
    options = {"impressions": [2, 10], "repetitions": 20, "seed": 7}
    expected = sensitivity(QRELS, paths, "perfect", pairs=[("b", "a")], **options).curves
    for pair in (("B", "A"), ("b.run", "a.run"), (str(paths[1]), "A")):
        got = sensitivity(QRELS, paths, "perfect", pairs=[pair], **options).curves
        pd.testing.assert_frame_equal(got, expected)
    assert expected[["a", "b"]].drop_duplicates().values.tolist() == [["b", "a"]]
    with pytest.raises(ParameterError, match=r"'C' names no run: .*'a' \(.*a\.run\)"):
        sensitivity(QRELS, paths, "perfect", pairs=[("A", "C")], **options)
    with pytest.raises(ParameterError, match="two different"):
        sensitivity(QRELS, paths, "perfect", pairs=[("A", "a.run")], **options)

"""Counterfactual estimators (:mod:`irscale.online.counterfactual`) and historical
interleaving (:mod:`irscale.online.historical`).

Worked examples by hand, and simulations whose truth is known: logs of a position-based
click model (PBM) with known γ and α, collected by a logging policy that shows the
documents of every query in a uniformly random order (π0(d, r | q) = 1/m for m documents),
and a target ranking whose expected clicks are Σ_r γ_r α_{q, π(r)}, averaged over queries.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import numpy as np
import pandas as pd
import pytest

from irscale.errors import InputError, ParameterError
from irscale.io.interleaving_log import read_interleaving_log
from irscale.online import (
    ClickLog,
    ClickModel,
    counterfactual,
    historical_interleaving,
    interleave_runs,
)

# --------------------------------------------------------------------------- the model
QUERIES = ("q1", "q2", "q3")
M = 4  # documents per query, all shown (SERP size 4)
GAMMA = np.array([1.0, 0.6, 0.35, 0.2])
#: α[q, d]: documents d0..d3 of every query.
ALPHA = np.array([[0.8, 0.5, 0.3, 0.1],
                  [0.6, 0.6, 0.2, 0.05],
                  [0.9, 0.15, 0.4, 0.3]])
#: The target's ranking of each query (document indices).
TARGET = {q: [f"d{i}" for i in order]
          for q, order in zip(QUERIES, ([0, 1, 2, 3], [1, 0, 2, 3], [2, 0, 3, 1]),
                              strict=True)}
UNIFORM = pd.DataFrame([(q, f"d{i}", r, 1.0 / M) for q in QUERIES for i in range(M)
                        for r in range(1, M + 1)],
                       columns=["query", "docno", "rank", "probability"])


def truth() -> float:
    """V(π) = mean over queries of Σ_r γ_r α_{q, π(r)} (each query as many sessions)."""
    return float(np.mean([sum(GAMMA[r] * ALPHA[i, int(d[1:])]
                              for r, d in enumerate(TARGET[q]))
                          for i, q in enumerate(QUERIES)]))


MODEL = ClickModel("pbm", pd.Series(ALPHA.ravel(), index=pd.MultiIndex.from_tuples(
    [(q, f"d{i}") for q in QUERIES for i in range(M)])), examination=GAMMA)


def shuffled_log(sessions: int, rng: np.random.Generator) -> ClickLog:
    """``sessions`` sessions, queries in turn, the documents in a uniformly random order;
    clicks drawn from :data:`MODEL`."""
    query = np.arange(sessions) % len(QUERIES)
    order = np.argsort(rng.random((sessions, M)), axis=1)
    shown = ClickLog(np.array([f"s{i}" for i in range(sessions)], dtype=object),
                     np.array(QUERIES, dtype=object),
                     np.array([f"d{i}" for i in range(M)], dtype=object), query, order,
                     np.zeros((sessions, M), dtype=bool), np.full(sessions, M))
    return MODEL.simulate(shown, rng=rng)


R, N = 200, 120


@pytest.fixture(scope="module")
def replicates() -> dict[str, np.ndarray]:
    """R logs of N sessions: the estimates, standard errors and intervals per estimator."""
    rng = np.random.default_rng(20260)
    big = shuffled_log(R * N, rng)
    noisy = pd.Series(np.clip(ALPHA.ravel() + 0.1, 0, 1), index=MODEL.attractiveness.index)
    runs = {
        "ips": {"logging": UNIFORM},
        "snips": {"estimator": "snips", "logging": UNIFORM},
        "dr": {"estimator": "dr", "logging": UNIFORM, "reward": MODEL},
        "dr-noisy": {"estimator": "dr", "logging": UNIFORM, "reward": noisy,
                     "propensities": GAMMA},
        "pbm-ips": {"estimator": "pbm-ips", "propensities": GAMMA},
        "ips-clip": {"logging": UNIFORM, "clip": 0.5},
        "pbm-clip": {"estimator": "pbm-ips", "propensities": GAMMA, "clip": 0.5},
    }
    out: dict[str, list[tuple[float, float, float, float]]] = {k: [] for k in runs}
    for i in range(R):
        log = big.subset(np.arange(i * N, (i + 1) * N))
        for name, options in runs.items():
            r = counterfactual(log, TARGET, **options)
            out[name].append((r.estimate, r.se, r.low, r.high))
    return {k: np.array(v) for k, v in out.items()}


def _mean_and_error(values: np.ndarray) -> tuple[float, float]:
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(len(values)))


@pytest.mark.parametrize("name", ["ips", "pbm-ips", "dr", "dr-noisy", "snips"])
def test_unbiased(replicates: dict[str, np.ndarray], name: str) -> None:
    """(a) The mean estimate over R logs lies within 4 standard errors of the truth (DR
    with a wrong reward model too: the propensities are right; SNIPS: its O(1/n) bias is
    far below the noise)."""
    mean, error = _mean_and_error(replicates[name][:, 0])
    assert abs(mean - truth()) < 4 * error, (mean, truth(), error)


@pytest.mark.parametrize("name", ["ips", "pbm-ips", "dr", "snips"])
def test_coverage(replicates: dict[str, np.ndarray], name: str) -> None:
    """(b) The 95% normal intervals cover the truth in 95% ± 3 binomial standard
    deviations of the R logs; the standard errors match the spread of the estimates."""
    low, high = replicates[name][:, 2], replicates[name][:, 3]
    covered = float(((low <= truth()) & (truth() <= high)).mean())
    band = 3 * np.sqrt(0.95 * 0.05 / R)
    assert abs(covered - 0.95) <= band, covered
    spread = replicates[name][:, 0].std(ddof=1)
    assert replicates[name][:, 1].mean() == pytest.approx(spread, rel=0.15)


def test_variance(replicates: dict[str, np.ndarray]) -> None:
    """(c) With weights 0 or 4 (π0 = 1/4, a deterministic target), SNIPS's variance is
    IPS's less 3p² per rank (p the click probability of a matching cell); DR with the
    true click model leaves only the clicks' own noise."""
    sd = {k: v[:, 0].std(ddof=1) for k, v in replicates.items()}
    assert sd["snips"] < sd["ips"]
    assert sd["dr"] < sd["ips"]


def test_clipping_bias(replicates: dict[str, np.ndarray]) -> None:
    """(d) Clipping lowers the estimates, by the documented amount: π0 = 1/4 clipped at
    1/2 halves every weight (E = V/2); γ clipped at 1/2 scales a document's expected term
    by the mean over ranks of γ_r / max(γ_r, 1/2) (uniform shuffling)."""
    mean, error = _mean_and_error(replicates["ips-clip"][:, 0])
    assert mean < truth()
    assert abs(mean - truth() / 2) < 4 * error
    factor = float(np.mean(GAMMA / np.maximum(GAMMA, 0.5)))  # 0.775
    mean, error = _mean_and_error(replicates["pbm-clip"][:, 0])
    assert mean < truth()
    assert abs(mean - factor * truth()) < 4 * error


# --------------------------------------------------------------------------- by hand
HAND = b"s1 q 1 a 1\ns1 q 2 b 0\ns2 q 1 b 0\ns2 q 2 a 1\ns3 q 1 a 0\ns3 q 2 b 1\n"
HALF = pd.DataFrame({"query": "q", "docno": ["a", "a", "b", "b"], "rank": [1, 2, 1, 2],
                     "probability": 0.5})


def test_ips_by_hand() -> None:
    """Target [a, b], π0 = 1/2: session terms 1/0.5 (a@1 clicked), 0 (the click is on a
    at rank 2, where the target puts b), 1/0.5 (b@2 clicked)."""
    r = counterfactual(HAND, {"q": ["a", "b"]}, logging=HALF)
    assert r.estimate == pytest.approx(4 / 3)
    assert r.se == pytest.approx(np.std([2, 0, 2], ddof=1) / np.sqrt(3))
    assert r.statistic == r.estimate and r.pvalue is None
    z = 1.959963984540054
    assert r.confidence_interval() == pytest.approx((4 / 3 - z * r.se, 4 / 3 + z * r.se))


def test_stochastic_policy_by_hand() -> None:
    """π(a@1) = π(b@2) = 0.7, π(b@1) = π(a@2) = 0.3: terms 0.7/0.5, 0.3/0.5, 0.7/0.5."""
    policy = HALF.assign(probability=[0.7, 0.3, 0.3, 0.7])
    r = counterfactual(HAND, policy, logging=HALF)
    assert r.estimate == pytest.approx((1.4 + 0.6 + 1.4) / 3)


def test_snips_by_hand() -> None:
    """Rank 1: weighted clicks 2 over weights 2 + 2; rank 2: 2 over 2 + 2: 1/2 + 1/2."""
    r = counterfactual(HAND, {"q": ["a", "b"]}, estimator="snips", logging=HALF)
    assert r.estimate == pytest.approx(1.0)


def test_dr_by_hand() -> None:
    """α̂ = 1/2 for both, γ = (1, 1/2): the direct term 0.5·1 + 0.5·0.5 = 0.75; the
    corrections 2(1 − 0.5) + 2(0 − 0.25), 0, 2(0 − 0.5) + 2(1 − 0.25)."""
    reward = {("q", "a"): 0.5, ("q", "b"): 0.5}
    r = counterfactual(HAND, {"q": ["a", "b"]}, estimator="dr", logging=HALF,
                       reward=reward, propensities=[1.0, 0.5])
    assert r.estimate == pytest.approx((1.25 + 0.75 + 1.25) / 3)


def test_pbm_ips_by_hand() -> None:
    """γ = (1, 1/2), λ(a) = γ_1, λ(b) = γ_2: terms 1/1, 1/0.5, 0.5/0.5; clipped at 0.6:
    1, 1/0.6, 0.5/0.6."""
    r = counterfactual(HAND, {"q": ["a", "b"]}, estimator="pbm-ips", propensities=[1, 0.5])
    assert r.estimate == pytest.approx(4 / 3)
    r = counterfactual(HAND, {"q": ["a", "b"]}, estimator="pbm-ips", propensities=[1, 0.5],
                       clip=0.6)
    assert r.estimate == pytest.approx((1 + 1 / 0.6 + 0.5 / 0.6) / 3)
    assert r.clipped == pytest.approx(1 / 2)  # the 3 weighted cells at rank 2 of 6


def test_fitted_pbm_propensities() -> None:
    """Defaults: a PBM fitted on the log gives γ (pbm-ips) and the reward model (dr); on
    a large log both land near the truth."""
    log = shuffled_log(6000, np.random.default_rng(5))
    for estimator, options in (("pbm-ips", {}), ("dr", {"logging": UNIFORM})):
        r = counterfactual(log, TARGET, estimator=estimator, **options)  # type: ignore[arg-type]
        assert abs(r.estimate - truth()) < 4 * r.se, (estimator, r)


def test_empirical_logging_and_bootstrap() -> None:
    """logging="empirical" (the log's own frequencies) is close to the exact 1/4; the
    bootstrap interval over sessions is reproducible and close to the normal one."""
    log = shuffled_log(3000, np.random.default_rng(6))
    exact = counterfactual(log, TARGET, logging=UNIFORM, bootstrap=400, rng=3)
    empirical = counterfactual(log, TARGET, logging="empirical")
    assert empirical.estimate == pytest.approx(exact.estimate, abs=2 * exact.se)
    again = counterfactual(log, TARGET, logging=UNIFORM, bootstrap=400, rng=3)
    assert (exact.bootstrap_low, exact.bootstrap_high) == (again.bootstrap_low,
                                                            again.bootstrap_high)
    assert exact.bootstrap_low == pytest.approx(exact.low, abs=0.5 * exact.se)
    assert exact.bootstrap_high == pytest.approx(exact.high, abs=0.5 * exact.se)
    frame = exact.to_frame()
    assert list(frame["estimator"]) == ["ips"] and frame["n"].iloc[0] == 3000


def test_errors() -> None:
    with pytest.raises(ParameterError, match="logging"):
        counterfactual(HAND, {"q": ["a", "b"]})
    with pytest.raises(ParameterError, match="clip"):
        counterfactual(HAND, {"q": ["a", "b"]}, logging=HALF, clip=0)
    with pytest.raises(InputError, match="ranks none"):
        counterfactual(HAND, {"x": ["a", "b"]}, logging=HALF)
    with pytest.raises(InputError, match="sum to"):
        counterfactual(HAND, HALF.assign(probability=0.9), logging=HALF)
    with pytest.raises(ParameterError, match="position-based"):
        counterfactual(HAND, {"q": ["a", "b"]}, estimator="pbm-ips",
                       propensities=ClickModel("dbn", MODEL.attractiveness,
                                               satisfaction=MODEL.attractiveness, gamma=0.9))
    with pytest.warns(UserWarning, match="never shows"):
        counterfactual(HAND, {"q": ["a", "c"]}, logging=HALF)


# --------------------------------------------------------------------------- historical
SOURCE = {"A": {"q": ["d0", "d1", "d2", "d3", "d4", "d5"]},
          "B": {"q": ["d5", "d4", "d3", "d2", "d1", "d0"]}}
TARGETS = {"C": {"q": ["d2", "d0", "d1", "d3", "d4", "d5"]},
           "D": {"q": ["d5", "d3", "d4", "d0", "d1", "d2"]}}
RELEVANT = {"d0": 0.9, "d1": 0.7, "d2": 0.5, "d3": 0.3, "d4": 0.2, "d5": 0.1}


def _clicks(batch, rng: np.random.Generator) -> np.ndarray:
    """PBM clicks (γ_i of the list's position i, α of the document)."""
    alpha = np.vectorize(lambda d: RELEVANT.get(d, 0.0) if d is not None else 0.0)(
        batch.documents())
    gamma = np.array([1.0, 0.7, 0.5, 0.35])[:batch.length]
    return (rng.random(alpha.shape) < alpha * gamma) & (batch.pairs >= 0)


def _as_log(batch, clicks: np.ndarray):
    frame = batch.to_frame()
    frame["clicked"] = clicks[frame["impression"], frame["rank"] - 1].astype(int)
    return read_interleaving_log(frame.to_csv(sep=" ", header=False, index=False).encode())


@pytest.fixture(scope="module")
def source_log():
    rng = np.random.default_rng(11)
    batch = interleave_runs(SOURCE, 6000, method="probabilistic", length=4, rng=rng)
    clicks = _clicks(batch, rng)
    return batch, clicks, _as_log(batch, clicks)


def test_historical_same_pair(source_log) -> None:
    """Target = source: every weight is 1 and the estimate is the mean marginal outcome
    of the logged impressions."""
    batch, clicks, log = source_log
    r = historical_interleaving(log, SOURCE, SOURCE)
    assert r.estimate == pytest.approx(batch.outcomes(clicks).mean())
    assert r.max_weight == pytest.approx(1.0) and r.ess == pytest.approx(len(clicks))


@pytest.mark.parametrize("normalise", [True, False])
def test_historical_other_pair(source_log, normalise: bool) -> None:
    """Another pair: the importance-weighted estimate agrees with the outcome of the
    target pair interleaved online (Monte Carlo truth from 40,000 impressions)."""
    rng = np.random.default_rng(12)
    online = interleave_runs(TARGETS, 40000, method="probabilistic", length=4, rng=rng)
    outcome = online.outcomes(_clicks(online, rng))[:, 0]
    expected, noise = outcome.mean(), outcome.std(ddof=1) / np.sqrt(len(outcome))
    r = historical_interleaving(source_log[2], SOURCE, TARGETS, normalise=normalise)
    assert abs(r.estimate - expected) < 4 * np.hypot(r.se, noise), (r, expected)


def test_historical_by_hand() -> None:
    """Lists of one document, τ = 3 over two ranked documents: P(first) = 8/9, P(second)
    = 1/9. Source A = (a, b), B = (b, a): P(a) = P(b) = 1/2. Target C = (a, b),
    D = (c, a): list a has p_C = 4/9, p_D = 1/18 (P = 1/2, w = 1, E[o | click] =
    (4/9 − 1/18)/(1/2) = 7/9); list b has p_C = 1/18, p_D = 0 (w = 1/9, E[o | click] = 1).
    Impressions: a clicked, b clicked, a not clicked."""
    log = b"i1 q 1 a A 1\ni2 q 1 b B 1\ni3 q 1 a B 0\n"
    source = {"A": {"q": ["a", "b"]}, "B": {"q": ["b", "a"]}}
    target = {"C": {"q": ["a", "b"]}, "D": {"q": ["c", "a"]}}
    plain = historical_interleaving(log, source, target, normalise=False)
    assert plain.estimate == pytest.approx((7 / 9 + 1 / 9) / 3)
    assert plain.max_weight == pytest.approx(1.0)
    normalised = historical_interleaving(log, source, target)
    assert normalised.estimate == pytest.approx((7 / 9 + 1 / 9) / (1 + 1 / 9 + 1))


def test_historical_source_runs_named_by_the_log_by_run_id(tmp_path) -> None:
    """The log's teams designate the source runs as every run argument does (their run
    ids here, the runs being named a and b by their files): the estimate by hand."""
    log = b"i1 q 1 a bm25 1\ni2 q 1 b ql 1\ni3 q 1 a ql 0\n"
    source = []
    for name, runid, docs in (("a", "bm25", "ab"), ("b", "ql", "ba")):
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"q Q0 {d} {i + 1} {2 - i} {runid}\n"
                                for i, d in enumerate(docs)))
        source.append(path)
    target = {"C": {"q": ["a", "b"]}, "D": {"q": ["c", "a"]}}
    plain = historical_interleaving(log, source, target, normalise=False)
    assert plain.estimate == pytest.approx((7 / 9 + 1 / 9) / 3)
    with pytest.raises(InputError, match="team 'bm25' names no run"):
        historical_interleaving(log, {"A": {"q": ["a", "b"]}, "B": {"q": ["b", "a"]}},
                                target)


def test_policy_as_run(tmp_path) -> None:
    """A run (scores) is ranked by score: the same estimate as its ranking as a list."""
    scores = {"q": {"a": 2.0, "b": 1.0}}
    path = tmp_path / "t.run"
    path.write_text("q Q0 b 1 1.0 t\nq Q0 a 2 2.0 t\n")
    ranked = counterfactual(HAND, {"q": ["a", "b"]}, logging=HALF).estimate
    assert counterfactual(HAND, scores, logging=HALF).estimate == pytest.approx(ranked)
    assert counterfactual(HAND, str(path), logging=HALF).estimate == pytest.approx(ranked)


# --------------------------------------------------------------------------- dm, switch, sndr
def test_dm_switch_sndr_by_hand() -> None:
    """HAND with α̂ = 1/2, γ = (1, 1/2): dm's term is the direct term 0.75 in every
    session; switch-dr with τ below the weights (2) is dm, with τ = 2 it is dr; sndr adds
    to 0.75 the corrections per rank over the weights there: rank 1 (2·0.5 + 2·(−0.5)) /
    4 = 0, rank 2 (2·(−0.25) + 2·0.75) / 4 = 0.25."""
    reward = {("q", "a"): 0.5, ("q", "b"): 0.5}
    common = {"reward": reward, "propensities": [1.0, 0.5]}
    dm = counterfactual(HAND, {"q": ["a", "b"]}, estimator="dm", **common)
    assert dm.estimate == pytest.approx(0.75) and dm.se == 0 and np.isnan(dm.max_weight)
    low = counterfactual(HAND, {"q": ["a", "b"]}, estimator="switch-dr", logging=HALF,
                         switch_tau=1.5, **common)
    assert low.estimate == pytest.approx(0.75)
    high = counterfactual(HAND, {"q": ["a", "b"]}, estimator="switch-dr", logging=HALF,
                          switch_tau=2, **common)
    assert high.estimate == pytest.approx((1.25 + 0.75 + 1.25) / 3)
    sndr = counterfactual(HAND, {"q": ["a", "b"]}, estimator="sndr", logging=HALF, **common)
    assert sndr.estimate == pytest.approx(0.75 + 0 + 0.25)


def test_switch_dr_stochastic_by_hand() -> None:
    """π(a@1) = π(b@2) = 0.7, π(b@1) = π(a@2) = 0.3 over π0 = 1/2: weights 1.4 and 0.6;
    τ = 1 keeps the corrections of the 0.6-weighted cells only. α̂ = 0.4 for a, 0.2 for b,
    γ = 1: direct term 0.7·0.4 + 0.3·0.2 + 0.3·0.4 + 0.7·0.2 = 0.6; s1 (a@1 clicked, b@2
    not): weights 1.4, 1.4, nothing kept; s2 (b@1 not, a@2 clicked): 0.6·(0 − 0.2) +
    0.6·(1 − 0.4); s3 (a@1 not, b@2 clicked): weights 1.4, nothing kept."""
    policy = HALF.assign(probability=[0.7, 0.3, 0.3, 0.7])
    reward = {("q", "a"): 0.4, ("q", "b"): 0.2}
    r = counterfactual(HAND, policy, estimator="switch-dr", logging=HALF, reward=reward,
                       switch_tau=1.0)
    terms = [0.6, 0.6 + 0.6 * (0 - 0.2) + 0.6 * (1 - 0.4), 0.6]
    assert r.estimate == pytest.approx(np.mean(terms))
    assert r.se == pytest.approx(np.std(terms, ddof=1) / np.sqrt(3))


def test_dr_os_by_hand() -> None:
    """The same cells as above (weights 1.4 and 0.6, α̂ = 0.4 for a, 0.2 for b, direct term
    0.6) with dr-os's weights ŵ = λw/(w² + λ) (Su et al. 2020; OBP's
    DoublyRobustWithShrinkage): λ = 1 gives ŵ(1.4) = 1.4/2.96 and ŵ(0.6) = 0.6/1.36. Each
    session's correction is Σ_r ŵ (c − m̂): s1 a@1 (1 − 0.4), b@2 (0 − 0.2); s2 b@1
    (0 − 0.2), a@2 (1 − 0.4); s3 a@1 (0 − 0.4), b@2 (1 − 0.2). λ = 0 is dm, a large λ dr."""
    policy = HALF.assign(probability=[0.7, 0.3, 0.3, 0.7])
    reward = {("q", "a"): 0.4, ("q", "b"): 0.2}
    big, small = 1.4 / (1.4 ** 2 + 1), 0.6 / (0.6 ** 2 + 1)
    terms = [0.6 + big * 0.6 + big * -0.2, 0.6 + small * -0.2 + small * 0.6,
             0.6 + big * -0.4 + big * 0.8]

    def estimate(**options: Any) -> Any:
        logging = None if options["estimator"] == "dm" else HALF
        return counterfactual(HAND, policy, logging=logging, reward=reward, **options)

    r = estimate(estimator="dr-os", shrinkage=1.0)
    assert r.estimate == pytest.approx(np.mean(terms), abs=1e-15)
    assert r.se == pytest.approx(np.std(terms, ddof=1) / np.sqrt(3), abs=1e-15)
    assert estimate(estimator="dr-os", shrinkage=0.0).estimate == \
        estimate(estimator="dm").estimate
    assert estimate(estimator="dr-os", shrinkage=1e12).estimate == \
        pytest.approx(estimate(estimator="dr").estimate, abs=1e-11)


def test_reward_model_estimators_simulated() -> None:
    """On R logs of the shuffled PBM: dm with the true model is the truth, with a wrong
    model that model's value (a deterministic bias); sndr with the wrong model is within 4
    standard errors of the truth; switch-dr of a target mixing two rankings (weights 2 and
    4) with τ = 3 has the documented bias Σ_{w > τ} π (m̂ − p) over the switched cells."""
    rng = np.random.default_rng(31)
    other = {q: [d[1], d[0], *d[2:]] for q, d in TARGET.items()}  # ranks 3, 4 agree
    rows = {}
    for ranking in (TARGET, other):
        for q, docs in ranking.items():
            for r, d in enumerate(docs):
                rows[(q, d, r + 1)] = rows.get((q, d, r + 1), 0.0) + 0.5
    mix = pd.DataFrame([(*k, p) for k, p in rows.items()],
                       columns=["query", "docno", "rank", "probability"])
    noisy_alpha = np.clip(ALPHA + 0.1, 0, 1)
    noisy = pd.Series(noisy_alpha.ravel(), index=MODEL.attractiveness.index)
    index = {q: i for i, q in enumerate(QUERIES)}

    def value(alpha: np.ndarray, cells: dict) -> float:
        return float(np.mean([sum(p * GAMMA[r - 1] * alpha[index[q], int(d[1:])]
                                  for (qq, d, r), p in cells.items() if qq == q)
                              for q in QUERIES]))

    det = {(q, d, r + 1): 1.0 for q, docs in TARGET.items() for r, d in enumerate(docs)}
    switched = {k: p for k, p in rows.items() if p / (1 / M) > 3}
    bias = value(noisy_alpha, switched) - value(ALPHA, switched)
    assert bias > 0
    out: dict[str, list[float]] = {"dm": [], "dm-noisy": [], "sndr": [], "switch": []}
    for _ in range(R // 2):
        log = shuffled_log(N, rng)
        out["dm"].append(counterfactual(log, TARGET, estimator="dm", reward=MODEL).estimate)
        out["dm-noisy"].append(counterfactual(log, TARGET, estimator="dm", reward=noisy,
                                              propensities=GAMMA).estimate)
        out["sndr"].append(counterfactual(log, TARGET, estimator="sndr", logging=UNIFORM,
                                          reward=noisy, propensities=GAMMA).estimate)
        out["switch"].append(counterfactual(log, mix, estimator="switch-dr",
                                            logging=UNIFORM, reward=noisy,
                                            propensities=GAMMA, switch_tau=3).estimate)
    assert np.allclose(out["dm"], value(ALPHA, det))
    assert np.allclose(out["dm-noisy"], value(noisy_alpha, det))
    mean, error = _mean_and_error(np.array(out["sndr"]))
    assert abs(mean - truth()) < 4 * error
    mean, error = _mean_and_error(np.array(out["switch"]))
    assert abs(mean - (value(ALPHA, rows) + bias)) < 4 * error, (mean, value(ALPHA, rows),
                                                                  bias, error)


def test_new_estimator_errors() -> None:
    with pytest.raises(ParameterError, match="switch_tau"):
        counterfactual(HAND, {"q": ["a", "b"]}, estimator="switch-dr", logging=HALF)
    with pytest.raises(ParameterError, match="switch_tau"):
        counterfactual(HAND, {"q": ["a", "b"]}, logging=HALF, switch_tau=1)
    with pytest.raises(ParameterError, match="switch_tau"):
        counterfactual(HAND, {"q": ["a", "b"]}, estimator="switch-dr", logging=HALF,
                       switch_tau=-1)
    with pytest.raises(ParameterError, match="logging= applies to every estimator but "
                       "pbm-ips and dm, not to estimator 'dm'"):
        counterfactual(HAND, {"q": ["a", "b"]}, estimator="dm", logging=HALF)
    with pytest.raises(ParameterError, match="whole rankings"):
        counterfactual(HAND, {"q": ["a", "b"]}, estimator="sips", logging=HALF)
    with pytest.raises(ParameterError, match="whole rankings"):
        counterfactual(HAND, HALF, estimator="rips", logging="empirical")
    with pytest.raises(InputError, match="distinct documents"):
        counterfactual(HAND, {"q": ["a", "b"]}, estimator="sips", logging=pd.DataFrame(
            {"query": ["q"], "slate": [("a", "a")], "probability": [1.0]}))


# --------------------------------------------------------------------------- slates
SLATE_LOG = (b"s1 q 1 a 1\ns1 q 2 b 0\ns1 q 3 c 1\n"
             b"s2 q 1 b 0\ns2 q 2 a 1\ns2 q 3 c 0\n"
             b"s3 q 1 a 0\ns3 q 2 c 1\ns3 q 3 b 1\n")
SLATE_LOGGING = pd.DataFrame({"query": "q", "slate": ["a,b,c", "b,a,c", "a,c,b"],
                              "probability": [0.5, 0.25, 0.25]})
SLATE_TARGET = pd.DataFrame({"query": "q", "slate": [("a", "b", "c"), ("a", "c", "b")],
                             "probability": [0.6, 0.4]})


@pytest.mark.parametrize(("estimator", "terms"), [
    # whole slates: s1 0.6/0.5 on its 2 clicks, s2 0 (the target never shows b first),
    # s3 0.4/0.25 on its 2 clicks
    ("sips", [2 * 0.6 / 0.5, 0, 2 * 0.4 / 0.25]),
    # prefixes: s1 (a) 1/0.75 at rank 1, (a,b,c) 0.6/0.5 at rank 3; s3 (a,c) and (a,c,b)
    # 0.4/0.25 at ranks 2 and 3
    ("rips", [1 / 0.75 + 0.6 / 0.5, 0, 2 * 0.4 / 0.25]),
    # item-position marginals: s1 a@1 1/0.75, c@3 0.6/0.75; s2 a@2 0/0.25; s3 c@2 0.4/0.25,
    # b@3 0.4/0.25
    ("iips", [1 / 0.75 + 0.6 / 0.75, 0, 2 * 0.4 / 0.25]),
])
def test_slate_estimators_by_hand(estimator, terms) -> None:
    r = counterfactual(SLATE_LOG, SLATE_TARGET, estimator=estimator, logging=SLATE_LOGGING)
    assert r.estimate == pytest.approx(np.mean(terms))
    assert r.se == pytest.approx(np.std(terms, ddof=1) / np.sqrt(3))
    assert r.max_weight == pytest.approx(max(0.4 / 0.25, 1 / 0.75))


def test_slate_empirical_logging() -> None:
    """'empirical': each logged slate (or prefix) has the share of its query's sessions
    that showed it: s1's prefixes (a) 2/3, (a,b) and (a,b,c) 1/3; the deterministic target
    [a, b, c] matches s1 only: rips's term 1/(2/3) + 1/(1/3), sips's 2/(1/3)."""
    target = {"q": ["a", "b", "c"]}
    rips = counterfactual(SLATE_LOG, target, estimator="rips", logging="empirical")
    assert rips.estimate == pytest.approx((1.5 + 3) / 3)
    sips = counterfactual(SLATE_LOG, target, estimator="sips", logging="empirical")
    assert sips.estimate == pytest.approx(6 / 3)


#: Cascade model: the user scans down from rank 1, clicks the document at rank k with its
#: attraction, and stops at the first click.
CASCADE = {"q1": {"a": 0.6, "b": 0.3, "c": 0.1}, "q2": {"a": 0.2, "b": 0.5, "c": 0.4}}


def _cascade_value(query: str, ranking: tuple[str, ...]) -> float:
    """Expected clicks of ``ranking`` under the cascade model: Σ_k α_k Π_{j<k} (1 − α_j)."""
    value, survive = 0.0, 1.0
    for d in ranking:
        value += survive * CASCADE[query][d]
        survive *= 1 - CASCADE[query][d]
    return value


def _cascade_log(sessions: int, rng: np.random.Generator) -> ClickLog:
    """Queries in turn, each session a uniformly random order of a, b, c; cascade clicks."""
    docs = np.array(["a", "b", "c"], dtype=object)
    query = np.arange(sessions) % 2
    order = np.argsort(rng.random((sessions, 3)), axis=1)
    alpha = np.array([[CASCADE[q][d] for d in docs] for q in ("q1", "q2")])
    attracted = rng.random((sessions, 3)) < alpha[query[:, None], order]
    first = np.where(attracted.any(axis=1), attracted.argmax(axis=1), 3)
    clicks = np.arange(3)[None, :] == first[:, None]
    return ClickLog(np.array([f"s{i}" for i in range(sessions)], dtype=object),
                    np.array(["q1", "q2"], dtype=object), docs, query, order, clicks,
                    np.full(sessions, 3))


def test_slate_estimators_unbiased_under_cascade() -> None:
    """Uniform logging over the 6 orders (π0 = 1/6 per slate, 1/3 per first document,
    1/6 per prefix of two); a stochastic target (0.7 on [c, a, b], 0.3 on [b, c, a]):
    sips and rips average within 4 standard errors of the cascade truth over R logs, and
    rips varies less than sips; iips, whose model ignores the documents above, does not."""
    from itertools import permutations

    logging = pd.DataFrame([(q, order, 1 / 6) for q in ("q1", "q2")
                            for order in permutations("abc")],
                           columns=["query", "slate", "probability"])
    target = pd.DataFrame([(q, s, p) for q in ("q1", "q2")
                           for s, p in ((("c", "a", "b"), 0.7), (("b", "c", "a"), 0.3))],
                          columns=["query", "slate", "probability"])
    truth_value = float(np.mean([0.7 * _cascade_value(q, ("c", "a", "b"))
                                 + 0.3 * _cascade_value(q, ("b", "c", "a"))
                                 for q in ("q1", "q2")]))
    rng = np.random.default_rng(44)
    out: dict[str, list[float]] = {"sips": [], "rips": [], "iips": []}
    for _ in range(R):
        log = _cascade_log(N, rng)
        for name in out:
            out[name].append(counterfactual(log, target, estimator=name,  # type: ignore[arg-type]
                                            logging=logging).estimate)
    for name in ("sips", "rips"):
        mean, error = _mean_and_error(np.array(out[name]))
        assert abs(mean - truth_value) < 4 * error, (name, mean, truth_value, error)
    assert np.std(out["rips"]) < np.std(out["sips"])
    mean, error = _mean_and_error(np.array(out["iips"]))
    assert abs(mean - truth_value) > 4 * error


def test_the_result_is_one_estimate_with_its_fields():
    """irscale's one class of estimates (:class:`irscale.stats.protocol.Estimate`): the
    result is the estimate, a float, with its fields, table, repr and pickling; the mean of
    the per-session terms is the estimate (an oracle: numpy's mean)."""
    import copy
    import json
    import pickle

    from irscale.stats.protocol import Estimate

    r = counterfactual(HAND, {"q": ["a", "b"]}, logging=HALF, bootstrap=50, rng=1)
    assert isinstance(r, Estimate) and isinstance(r, float)
    assert float(r) == r.estimate == r.statistic == pytest.approx(np.mean(r.terms))
    assert r.pvalue is None and r.estimator == "ips" and r.n == len(r.terms)
    assert repr(r) == f"CounterfactualResult(ips: {float(r):.4g} ± {r.se:.2g}, n={r.n:,})"
    frame = r.to_frame()
    assert list(frame.columns) == ["estimator", "estimate", "se", "n", "low", "high", "level",
                                   "bootstrap", "bootstrap_low", "bootstrap_high", "clip",
                                   "clipped", "max_weight", "ess", "threshold"]
    assert frame["estimate"][0] == float(r) and "ips" in r.format("text")
    assert json.loads(r.format("json"))[0]["se"] == r.se
    low, high = r.confidence_interval(r.confidence_level)
    assert (low, high) == pytest.approx((r.low, r.high))
    for again in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert type(again) is type(r) and float(again) == float(r)
        assert again.se == r.se and np.array_equal(again.terms, r.terms)
        assert again.clipped == r.clipped and again.estimator == r.estimator
    with pytest.raises(AttributeError):
        r.se = 0.0


def test_policy_table_is_the_frame_indexed() -> None:
    """policy_table of a stochastic policy (rows in any order, strings and numbers as
    text) is pandas' own indexing of the frame, its zero probabilities and the ranks
    beyond the depth left out; a ranking is its rows of probability 1."""
    from irscale.online.counterfactual import policy_table

    rng = np.random.default_rng(2)
    frame = UNIFORM.assign(probability=np.where(rng.random(len(UNIFORM)) < 0.2, 0.0, 0.25)
                           ).sample(frac=1, random_state=1)
    expected = frame.set_index(["query", "docno", "rank"])["probability"]
    expected = expected[(expected > 0) & (expected.index.get_level_values("rank") <= 3)]
    pd.testing.assert_series_equal(policy_table(frame, 3), expected)
    ranked = pd.DataFrame([(q, d, r + 1, 1.0) for q, docs in TARGET.items()
                           for r, d in enumerate(docs[:2])],
                          columns=["query", "docno", "rank", "probability"])
    pd.testing.assert_series_equal(policy_table(TARGET, 2),
                                   ranked.set_index(["query", "docno", "rank"])["probability"])


def test_a_reward_given_twice_is_refused() -> None:
    """A per-(query, docno) reward that gives a pair twice is an error naming it (it was
    pandas' InvalidIndexError)."""
    reward = pd.DataFrame({"query": "q", "docno": ["a", "b", "a"], "value": [0.5, 0.5, 0.4]})
    with pytest.raises(InputError, match="document 'a' of query 'q' twice"):
        counterfactual(HAND, {"q": ["a", "b"]}, estimator="dr", logging=HALF, reward=reward)


# ------------------------------------------------ self-normalised slates, Cascade-DR, HCOPE
#: Two documents, two positions, one query: the logging and target policies over the two
#: rankings, four sessions (ranking, clicks) and a reward model's attractiveness.
TWO_LOGGING = {("a", "b"): 0.7, ("b", "a"): 0.3}
TWO_TARGET = {("a", "b"): 0.2, ("b", "a"): 0.8}
TWO_SESSIONS = [(("a", "b"), (1, 0)), (("b", "a"), (0, 1)), (("a", "b"), (0, 1)),
                (("b", "a"), (1, 1))]
TWO_ALPHA = {"a": 0.5, "b": 0.3}
TWO_LOG = "".join(f"s{i} q {k + 1} {d} {c[k]}\n" for i, (y, c) in enumerate(TWO_SESSIONS)
                  for k, d in enumerate(y)).encode()


def _slates(dist: dict) -> pd.DataFrame:
    return pd.DataFrame({"query": "q", "slate": list(dist), "probability": list(dist.values())})


def _mass(dist: dict, prefix: tuple) -> float:
    """The probability of the rankings that begin with ``prefix``."""
    return sum(p for y, p in dist.items() if y[:len(prefix)] == prefix)


def _r_hat(prefix: tuple, cascade: bool) -> float:
    """The reward model's click probability at the last rank of ``prefix``: the cascade
    model's α_k Π_{j<k} (1 − α_j), or α_k alone (a per-document table, γ = 1)."""
    value = TWO_ALPHA[prefix[-1]]
    if cascade:
        for d in prefix[:-1]:
            value *= 1 - TWO_ALPHA[d]
    return value


def _q_hat(prefix: tuple, cascade: bool) -> float:
    """Kiyohara et al.'s Q̂_k(y_{1..k}) by its recursion: r̂_k + E_{a ∼ π(·|y_{1..k})}
    Q̂_{k+1}(y_{1..k}, a), the target continuing the prefix."""
    value = _r_hat(prefix, cascade)
    if len(prefix) < 2:
        value += _next(prefix, cascade)
    return value


def _next(prefix: tuple, cascade: bool) -> float:
    """E_{a ∼ π(·|prefix)} Q̂(prefix, a) over the documents the target may show next."""
    total = _mass(TWO_TARGET, prefix)
    return sum(_mass(TWO_TARGET, (*prefix, a)) / total * _q_hat((*prefix, a), cascade)
               for a in "ab" if a not in prefix and _mass(TWO_TARGET, (*prefix, a)) > 0)


@pytest.mark.parametrize("cascade", [True, False])
def test_cascade_dr_by_hand(cascade: bool) -> None:
    """(b) Cascade-DR on two documents and two positions, its formula written as the paper
    writes it (Q̂ by recursion, conditional expectations under π): ψ_s = Σ_k [w_{1..k} (c_k −
    Q̂_k) + w_{1..k−1} E_π Q̂_k], the reward model a cascade click model or a per-document
    table."""
    terms = []
    for y, clicks in TWO_SESSIONS:
        psi = 0.0
        for k in (1, 2):
            w = _mass(TWO_TARGET, y[:k]) / _mass(TWO_LOGGING, y[:k])
            w_before = _mass(TWO_TARGET, y[:k - 1]) / _mass(TWO_LOGGING, y[:k - 1])
            psi += w * (clicks[k - 1] - _q_hat(y[:k], cascade))
            psi += w_before * _next(y[:k - 1], cascade) if w_before > 0 else 0.0
        terms.append(psi)
    pairs = pd.MultiIndex.from_tuples([("q", d) for d in TWO_ALPHA])
    reward = (ClickModel("cm", pd.Series(list(TWO_ALPHA.values()), index=pairs)) if cascade
              else pd.Series(list(TWO_ALPHA.values()), index=pairs))
    r = counterfactual(TWO_LOG, _slates(TWO_TARGET), estimator="cascade-dr",
                       logging=_slates(TWO_LOGGING), reward=reward)
    assert r.estimate == pytest.approx(np.mean(terms))
    assert r.se == pytest.approx(np.std(terms, ddof=1) / 2)


@pytest.mark.parametrize("name", ["sn-sips", "sn-rips", "sn-iips"])
def test_self_normalised_slates_by_hand(name: str) -> None:
    """(b) Per rank k, Σ_s c_{s,k} w_{s,k} / Σ_s w_{s,k}, summed over the ranks: the whole
    ranking's weight (sn-sips), the prefix's (sn-rips), the document's at its rank
    (sn-iips: the item-position marginals of the slate tables)."""
    def weight(y: tuple, k: int) -> float:
        if name == "sn-sips":
            return TWO_TARGET[y] / TWO_LOGGING[y]
        if name == "sn-rips":
            return _mass(TWO_TARGET, y[:k]) / _mass(TWO_LOGGING, y[:k])
        def marginal(dist: dict) -> float:
            return sum(p for z, p in dist.items() if z[k - 1] == y[k - 1])
        return marginal(TWO_TARGET) / marginal(TWO_LOGGING)

    value = sum(sum(c[k - 1] * weight(y, k) for y, c in TWO_SESSIONS)
                / sum(weight(y, k) for y, _ in TWO_SESSIONS) for k in (1, 2))
    r = counterfactual(TWO_LOG, _slates(TWO_TARGET), estimator=name,  # type: ignore[arg-type]
                       logging=_slates(TWO_LOGGING))
    assert r.estimate == pytest.approx(value)


def test_hcope_bound_is_maurer_and_pontil_scaled() -> None:
    """(b) Theorem 1 with one threshold c is Maurer & Pontil's empirical Bernstein bound
    on Y/c ∈ [0, 1], scaled by c: c (mean − √(2 V ln(2/δ) / n) − 7 ln(2/δ) / (3 (n − 1))),
    V the sample variance (numpy's, ddof=1)."""
    from irscale.online.hcope import bound

    x = np.array([0.0, 3.0, 0.5, 7.5, 1.0, 0.0, 2.0, 12.0])
    for c, delta in ((2.5, 0.05), (8.0, 0.1), (100.0, 0.01)):
        z = np.minimum(x, c) / c
        log_term = np.log(2 / delta)
        expected = c * (z.mean() - np.sqrt(2 * z.var(ddof=1) * log_term / len(z))
                        - 7 * log_term / (3 * (len(z) - 1)))
        assert bound(x, c, delta) == pytest.approx(expected)


def test_hcope_threshold_maximises_the_predicted_bound() -> None:
    """The threshold chosen on D_pre is the best of a fine grid (20,001 values up to the
    largest return) for the bound D_pre predicts on D_post: D_pre's mean of min(x, c),
    its sample variance, the deviation terms at n_post (the paper's selection of c)."""
    from irscale.online.hcope import threshold

    rng = np.random.default_rng(8)
    x = np.where(rng.random(40) < 0.3, rng.exponential(3.0, 40), 0.0)
    n_post, delta = 760, 0.05

    def predicted_at(c: float, x: np.ndarray, n_post: int) -> float:
        y = np.minimum(x, c)
        log_term = np.log(2 / delta)
        return float(y.mean() - 7 * c * log_term / (3 * (n_post - 1))
                     - np.sqrt(2 * log_term * y.var(ddof=1) / n_post))

    def predicted(c: float) -> float:
        return predicted_at(c, x, n_post)

    grid = np.linspace(x.max() / 20000, x.max(), 20001)
    best = max(predicted(c) for c in grid)
    c = threshold(x, n_post, delta)
    assert 0 < c <= x.max()
    assert predicted(c) >= best - 1e-9
    # no positive return, or too few to predict a positive bound: c → 0, the bound 0
    assert threshold(np.zeros(5), n_post, delta) == 0.0
    assert threshold(np.array([0.0, 0.0, 0.0, 5.0]), 10, delta) == 0.0
    assert max(predicted_at(c, np.array([0.0, 0.0, 0.0, 5.0]), 10)
               for c in np.linspace(1e-6, 5, 1001)) < 0


def test_hcope_estimator_bounds_sips_terms() -> None:
    """hcope is the bound of sips's per-session terms at δ = 1 − confidence_level, the
    split drawn by rng; its result has no standard error or upper end."""
    from irscale.online.hcope import high_confidence_bound

    log = _cascade_log(400, np.random.default_rng(3))
    sips = counterfactual(log, CASCADE_TARGET, estimator="sips", logging=CASCADE_LOGGING)
    r = counterfactual(log, CASCADE_TARGET, estimator="hcope", logging=CASCADE_LOGGING,
                       confidence_level=0.9, rng=5)
    assert sips.terms is not None
    value, c, _ = high_confidence_bound(sips.terms, 0.1, np.random.default_rng(5))
    assert (r.estimate, r.low, r.threshold) == pytest.approx((value, value, c))
    assert np.isnan(r.se) and np.isnan(r.high) and r.terms is None
    assert r.confidence_interval(0.9) == (r.low, np.inf)
    with pytest.raises(ParameterError, match="level it was computed at"):
        r.confidence_interval(0.95)
    frame = r.to_frame()
    assert frame["threshold"][0] == c and "hcope" in r.format("text")


#: The cascade simulation's policies: uniform logging over the six orders, and a
#: stochastic target (0.7 on [c, a, b], 0.3 on [b, c, a]).
CASCADE_LOGGING = pd.DataFrame([(q, order, 1 / 6) for q in ("q1", "q2")
                                for order in permutations("abc")],
                               columns=["query", "slate", "probability"])
CASCADE_TARGET = pd.DataFrame([(q, s, p) for q in ("q1", "q2")
                               for s, p in ((("c", "a", "b"), 0.7), (("b", "c", "a"), 0.3))],
                              columns=["query", "slate", "probability"])
#: The cascade model's own parameters, as irscale's click model "cm".
CASCADE_MODEL = ClickModel("cm", pd.Series(
    [CASCADE[q][d] for q in CASCADE for d in "abc"],
    index=pd.MultiIndex.from_tuples([(q, d) for q in CASCADE for d in "abc"])))


def _cascade_truth() -> float:
    """The target's expected clicks, by enumeration of its rankings (cascade model)."""
    return float(np.mean([sum(p * _cascade_value(q, tuple(s)) for _, s, p in
                              CASCADE_TARGET[CASCADE_TARGET["query"] == q].itertuples(
                                  index=False)) for q in CASCADE]))


@pytest.fixture(scope="module")
def cascade_replicates() -> dict[str, np.ndarray]:
    """R2 cascade logs of N sessions: the new slate estimators, Cascade-DR with the true
    model and with a wrong one (every attractiveness 0.5), and hcope at δ = 0.1."""
    rng = np.random.default_rng(81)
    wrong = pd.Series(0.5, index=CASCADE_MODEL.attractiveness.index)
    runs = {"sn-sips": {}, "sn-rips": {}, "cascade-dr": {"reward": CASCADE_MODEL},
            "cascade-dr-wrong": {"reward": wrong},
            "hcope": {"confidence_level": 0.9, "rng": 1}}
    out: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(R2):
        log = _cascade_log(N, rng)
        for name, options in runs.items():
            out[name].append(counterfactual(
                log, CASCADE_TARGET, estimator=name.removesuffix("-wrong"),  # type: ignore[arg-type]
                logging=CASCADE_LOGGING, **options).estimate)
    return {k: np.array(v) for k, v in out.items()}


R2 = 100


@pytest.mark.parametrize("name", ["sn-sips", "sn-rips", "cascade-dr", "cascade-dr-wrong"])
def test_new_slate_estimators_unbiased_under_cascade(cascade_replicates, name) -> None:
    """(a) The mean over R2 logs lies within 4 standard errors of the truth computed by
    enumeration (Cascade-DR with a wrong reward model too; the self-normalised ones: their
    O(1/n) bias is far below the noise)."""
    mean, error = _mean_and_error(cascade_replicates[name])
    assert abs(mean - _cascade_truth()) < 4 * error, (name, mean, _cascade_truth(), error)


def test_cascade_dr_varies_less_than_rips() -> None:
    """(a) With the true reward model Cascade-DR's per-session terms vary less than
    RIPS's (only the clicks' own noise is left): a smaller standard error on one large
    log, where a wrong model gives no such gain over the true one."""
    log = _cascade_log(6000, np.random.default_rng(12))
    rips = counterfactual(log, CASCADE_TARGET, estimator="rips", logging=CASCADE_LOGGING)
    cdr = counterfactual(log, CASCADE_TARGET, estimator="cascade-dr",
                         logging=CASCADE_LOGGING, reward=CASCADE_MODEL)
    assert cdr.se < 0.8 * rips.se
    assert abs(cdr.estimate - _cascade_truth()) < 4 * cdr.se


def test_self_normalised_equals_plain_when_weights_average_one() -> None:
    """Every order shown once per query under uniform logging: at every rank the weights
    average 1, and the self-normalised estimates equal the plain ones; on a random log
    sn-sips is a weighted mean of the clicks of the sessions the target could show, within
    their range."""
    orders = list(permutations("abc"))
    rng = np.random.default_rng(4)
    rows = [(f"{q}{i}", q, k + 1, d, int(rng.random() < 0.4)) for q in ("q1", "q2")
            for i, order in enumerate(orders) for k, d in enumerate(order)]
    log = pd.DataFrame(rows, columns=["session", "query", "rank", "docno", "clicked"])
    for plain in ("sips", "rips"):
        a = counterfactual(log, CASCADE_TARGET, estimator=plain, logging=CASCADE_LOGGING)
        b = counterfactual(log, CASCADE_TARGET, estimator=f"sn-{plain}",  # type: ignore[arg-type]
                           logging=CASCADE_LOGGING)
        assert b.estimate == pytest.approx(a.estimate)
    picks = rng.integers(6, size=40)
    rows = [(f"r{i}", "q1", k + 1, d, int(rng.random() < 0.5)) for i, pick in enumerate(picks)
            for k, d in enumerate(orders[pick])]
    random_log = pd.DataFrame(rows, columns=["session", "query", "rank", "docno", "clicked"])
    r = counterfactual(random_log, CASCADE_TARGET, estimator="sn-sips",
                       logging=CASCADE_LOGGING)
    targeted = [orders.index(s) for s in (("c", "a", "b"), ("b", "c", "a"))]
    totals = (random_log.groupby("session", sort=False)["clicked"].sum().to_numpy()
              [np.isin(picks, targeted)])
    assert 0 < len(totals) < len(picks)
    assert totals.min() <= r.estimate <= totals.max()


def test_hcope_holds_and_is_informative(cascade_replicates) -> None:
    """(a) The bound at δ = 0.1 lies at or below the truth in at least 90% of the R2 logs
    (a fixed seed), and on a large log it is well above the clicks' minimum (0): more
    than half the truth."""
    assert (cascade_replicates["hcope"] <= _cascade_truth()).mean() >= 0.9
    big = _cascade_log(20000, np.random.default_rng(5))
    r = counterfactual(big, CASCADE_TARGET, estimator="hcope", logging=CASCADE_LOGGING,
                       confidence_level=0.9, rng=1)
    assert 0.5 * _cascade_truth() < r.estimate <= _cascade_truth()


def test_new_slate_estimator_errors() -> None:
    """hcope refuses a bootstrap, 'empirical' logging and fewer than four sessions; the
    prefix-weighted ones a target given as per-rank marginals."""
    with pytest.raises(ParameterError, match="bootstrap"):
        counterfactual(TWO_LOG, _slates(TWO_TARGET), estimator="hcope",
                       logging=_slates(TWO_LOGGING), bootstrap=10)
    with pytest.raises(ParameterError, match="empirical"):
        counterfactual(TWO_LOG, _slates(TWO_TARGET), estimator="hcope", logging="empirical")
    with pytest.raises(InputError, match="four sessions"):
        counterfactual(TWO_LOG[:TWO_LOG.index(b"s3")], _slates(TWO_TARGET),
                       estimator="hcope", logging=_slates(TWO_LOGGING))
    with pytest.raises(ParameterError, match="whole rankings"):
        counterfactual(HAND, HALF, estimator="cascade-dr", logging="empirical")
    with pytest.raises(InputError, match="no value for document 'b'"):
        counterfactual(TWO_LOG, _slates(TWO_TARGET), estimator="cascade-dr",
                       logging=_slates(TWO_LOGGING), reward={("q", "a"): 0.5})
    with pytest.raises(InputError, match="probability 0"):
        counterfactual(TWO_LOG, _slates(TWO_TARGET), estimator="cascade-dr",
                       logging=_slates({("a", "b"): 1.0}))

"""Fairness and exposure measures of stochastic runs (irscale.measures.fairness).

Oracles written here, independently of the vectorised kernels:

* expected exposure: brute force over every permutation of a Plackett–Luce policy (the
  sample holds each permutation as many times as its exact probability asks, so that the
  sample mean is the policy's expectation), and the target by brute force over every
  ranking of the ideal policy (grades decreasing, ties in any order); the ideal policy
  itself scores EE-L = 0; group level by summing the documents' vectors;
* AWRF: the TREC Fair Ranking 2021–2022 formula with scipy's Jensen–Shannon distance
  (squared, base 2), nDCG@k from pytrec_eval, on generated single- and multi-sample runs;
* hand-worked examples, the reader's and the names' refusals, and the command line.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from irscale.errors import InputFormatError, MeasureError, ParameterError
from irscale.io.stochastic import read_stochastic_run
from irscale.measures.fairness.evaluate import evaluate_fairness, is_fairness_name


def run_text(samples: dict[str, list[list[str]]]) -> bytes:
    """A stochastic run: topic → its sampled rankings (sample s written in column 2)."""
    lines = [f"{t} {s} {d} {i} {len(r) - i} sys"
             for t, rankings in samples.items() for s, r in enumerate(rankings)
             for i, d in enumerate(r, start=1)]
    return ("\n".join(lines) + "\n").encode()


def qrels_text(grades: dict[str, dict[str, int]]) -> bytes:
    return "".join(f"{t} 0 {d} {g}\n" for t, docs in grades.items()
                   for d, g in docs.items()).encode()


def values(qrels, run, names, **kw):
    ev = evaluate_fairness(qrels, run, names, **kw)
    return {k: v.tolist() for k, v in ev.values.items()}, list(ev.rows.topic_labels)


# ---------------------------------------------------------------- expected exposure
def plackett_luce(weights: dict[str, int]) -> dict[tuple[str, ...], Fraction]:
    """The exact probability of every permutation under Plackett–Luce with ``weights``."""
    out = {}
    for perm in itertools.permutations(weights):
        p, left = Fraction(1), sum(weights.values())
        for d in perm:
            p *= Fraction(weights[d], left)
            left -= weights[d]
        out[perm] = p
    return out


def brute_exposure(policy: dict[tuple[str, ...], Fraction], gamma: float) -> dict[str, float]:
    eps: dict[str, float] = {}
    for perm, p in policy.items():
        for i, d in enumerate(perm):
            eps[d] = eps.get(d, 0.0) + float(p) * gamma ** i
    return eps


def ideal_policy(grades: dict[str, int]) -> dict[tuple[str, ...], Fraction]:
    perms = [perm for perm in itertools.permutations(grades)
             if all(grades[a] >= grades[b] for a, b in itertools.pairwise(perm))]
    return {perm: Fraction(1, len(perms)) for perm in perms}


def expand(policy: dict[tuple[str, ...], Fraction]) -> list[list[str]]:
    """Each permutation repeated in proportion to its probability."""
    common = math.lcm(*(p.denominator for p in policy.values()))
    return [list(perm) for perm, p in policy.items() for _ in range(int(p * common))]


@pytest.mark.parametrize("gamma", [0.3, 0.5, 0.9])
@pytest.mark.parametrize("case", [
    ({"a": 3, "b": 2, "c": 1, "d": 1}, {"a": 2, "b": 1, "c": 0, "d": 1}),
    ({"a": 1, "b": 1, "c": 1}, {"a": 1, "b": 0, "c": 0}),
    ({"a": 5, "b": 1, "c": 2, "d": 1, "e": 3}, {"a": 0, "b": 2, "c": 2, "d": 1, "e": 0}),
])
def test_expected_exposure_of_plackett_luce_by_brute_force(case, gamma):
    weights, grades = case
    policy = plackett_luce(weights)
    eps = brute_exposure(policy, gamma)
    star = brute_exposure(ideal_policy(grades), gamma)
    want = {"EE-D": sum(e * e for e in eps.values()),
            "EE-R": sum(eps[d] * star[d] for d in grades),
            "EE-L": sum((eps[d] - star[d]) ** 2 for d in grades)}
    got, _ = values(qrels_text({"1": grades}), run_text({"1": expand(policy)}),
                    [f"{m}(gamma={gamma})" for m in want])
    for m, v in want.items():
        assert got[f"{m}(gamma={gamma})"] == pytest.approx([v], rel=1e-10, abs=1e-12), m
    # the ideal policy's own sample: no loss
    ideal = expand(ideal_policy(grades))
    got, _ = values(qrels_text({"1": grades}), run_text({"1": ideal}),
                    [f"EE-L(gamma={gamma})"])
    assert got[f"EE-L(gamma={gamma})"] == pytest.approx([0.0], abs=1e-12)


def test_group_exposure_sums_the_documents():
    weights, grades = {"a": 3, "b": 2, "c": 1, "d": 1}, {"a": 2, "b": 1, "c": 0, "d": 1}
    group = {"a": 1, "b": 2, "c": 2, "d": 7}
    policy = plackett_luce(weights)
    eps, star = brute_exposure(policy, 0.5), brute_exposure(ideal_policy(grades), 0.5)
    by = {g: (sum(eps[d] for d in group if group[d] == g),
              sum(star[d] for d in group if group[d] == g)) for g in set(group.values())}
    want = {"EE-L": sum((e - s) ** 2 for e, s in by.values()),
            "EE-R": sum(e * s for e, s in by.values()),
            "EE-D": sum(e * e for e, _ in by.values())}
    names = [f"{m}(level=group)" for m in want]
    got, _ = values(qrels_text({"1": grades}), run_text({"1": expand(policy)}), names,
                    labels={"groups": {"*": group}})
    for m, v in want.items():
        assert got[f"{m}(level=group)"] == pytest.approx([v], abs=1e-12)


def test_truncated_samples_and_unjudged_documents():
    # qrels judge a (2), b (0); samples retrieve x (unjudged) and stop early
    qrels = qrels_text({"1": {"a": 2, "b": 0}})
    run = run_text({"1": [["x", "a"], ["a"]]})
    # universe a, b, x; ε: a = (0.5 + 1)/2, b = 0, x = 1/2; ideal: a first, then b and x
    eps = {"a": 0.75, "b": 0.0, "x": 0.5}
    star = {"a": 1.0, "b": (0.5 + 0.25) / 2, "x": (0.5 + 0.25) / 2}
    got, _ = values(qrels, run, ["EE-L", "EE-R"])
    assert got["EE-L"] == pytest.approx([sum((eps[d] - star[d]) ** 2 for d in eps)])
    assert got["EE-R"] == pytest.approx([sum(eps[d] * star[d] for d in eps)])


# ---------------------------------------------------------------- AWRF, nDCG × AWRF
def jsd_oracle(exposure: dict[int, float], target: dict[int, float]) -> float:
    from scipy.spatial.distance import jensenshannon

    keys = sorted(set(exposure) | set(target))
    distance = jensenshannon([exposure.get(g, 0.0) for g in keys],
                             [target.get(g, 0.0) for g in keys], base=2)
    return float(distance) ** 2


def awrf_oracle(ranking, grades, group, k, target, attention):
    relevant = [d for d, g in grades.items() if g >= 1]
    if not relevant or not ranking:
        return 0.0
    groups = sorted({group.get(d, -1) for d in relevant})
    if target == "uniform":
        want = {g: 1 / len(groups) for g in groups}
    else:
        want = {g: sum(group.get(d, -1) == g for d in relevant) / len(relevant)
                for g in groups}
    seen: dict[int, float] = {}
    for i, d in enumerate(ranking[:k], start=1):
        seen[group.get(d, -1)] = seen.get(group.get(d, -1), 0.0) + attention(i)
    total = sum(seen.values())
    return 1.0 - jsd_oracle({g: v / total for g, v in seen.items()}, want)


def generated(seed):
    rng = np.random.default_rng(seed)
    grades, samples, group = {}, {}, {}
    for t in range(1, 5):
        docs = [f"d{j}" for j in range(rng.integers(3, 10))]
        grades[str(t)] = {d: int(rng.choice([0, 0, 1, 2])) for d in docs}
        pool = [*docs, "u1", "u2"]
        samples[str(t)] = [list(rng.choice(pool, size=rng.integers(1, len(pool) + 1),
                                           replace=False))
                           for _ in range(rng.integers(1, 4))]
        group.update({d: int(rng.integers(0, 3)) for d in pool if rng.random() < 0.8})
    return grades, samples, group


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [3, 10])
def test_awrf_against_the_trec_formula(seed, k):
    grades, samples, group = generated(seed)
    names = [f"AWRF@{k}", f"AWRF(target=uniform)@{k}", f"AWRF(discount=geometric,p=0.7)@{k}"]
    got, topics = values(qrels_text(grades), run_text(samples), names,
                         labels={"groups": {"*": group}})
    attention = {names[0]: lambda i: 1 / math.log2(i + 1),
                 names[1]: lambda i: 1 / math.log2(i + 1), names[2]: lambda i: 0.7 ** (i - 1)}
    for name in names:
        target = "uniform" if "uniform" in name else "relevant"
        want = [float(np.mean([awrf_oracle(s, grades[t], group, k, target, attention[name])
                               for s in samples[t]])) for t in topics]
        assert got[name] == pytest.approx(want, abs=1e-12), name


pytrec_eval = pytest.importorskip("pytrec_eval")


@pytest.mark.parametrize("seed", range(6))
def test_ndcg_awrf_is_pytrec_evals_ndcg_times_awrf(seed):
    grades, samples, group = generated(seed)
    samples = {t: s[:1] for t, s in samples.items()}  # deterministic runs
    got, topics = values(qrels_text(grades), run_text(samples), ["nDCG-AWRF@5"],
                         labels={"groups": {"*": group}})
    run = {t: {d: float(100 - i) for i, d in enumerate(s[0])} for t, s in samples.items()}
    ndcg = pytrec_eval.RelevanceEvaluator(grades, {"ndcg_cut.5"}).evaluate(run)
    want = [ndcg[t]["ndcg_cut_5"] * awrf_oracle(samples[t][0], grades[t], group, 5,
                                                  "relevant", lambda i: 1 / math.log2(i + 1))
            for t in topics]
    assert got["nDCG-AWRF@5"] == pytest.approx(want, abs=1e-12)


def test_hand_example():
    # a ∈ group 1 and b ∈ group 2 are relevant; the run shows a, c (group 2) at 1 and 2
    qrels = qrels_text({"1": {"a": 1, "b": 1, "c": 0}})
    run = run_text({"1": [["a", "c"]]})
    got, _ = values(qrels, run, ["AWRF@2"], labels={"groups": {"a": 1, "b": 2, "c": 2}})
    e1 = 1 / (1 + 1 / math.log2(3))
    e2 = 1 - e1
    m1, m2 = (e1 + 0.5) / 2, (e2 + 0.5) / 2
    jsd = 0.5 * (e1 * math.log2(e1 / m1) + e2 * math.log2(e2 / m2)) + \
        0.5 * (0.5 * math.log2(0.5 / m1) + 0.5 * math.log2(0.5 / m2))
    assert got["AWRF@2"] == pytest.approx([1 - jsd], abs=1e-12)


# ---------------------------------------------------------------- inputs and names
def test_topics_the_qrels_lack_are_left_out():
    got, topics = values(qrels_text({"1": {"a": 1}}), run_text({"1": [["a"]], "9": [["a"]]}),
                         ["EE-D"])
    assert topics == ["1"] and got["EE-D"] == [1.0]


def test_reader_refusals():
    with pytest.raises(InputFormatError, match=r"line 2.*twice"):
        read_stochastic_run(b"1 0 a 1 2 r\n1 0 a 2 1 r\n")
    with pytest.raises(InputFormatError, match="line 1: score is not a number"):
        read_stochastic_run(b"1 0 a 1 x r\n")


@pytest.mark.parametrize("name, message", [
    ("EE-L(gamma=1)", "gamma"),
    ("EE-L(groups=g)", "level=group"),
    ("AWRF(p=0.5)@10", "discount=geometric"),
    ("AWRF(target=world)@10", "target"),
])
def test_bad_names(name, message):
    with pytest.raises(MeasureError, match=message):
        evaluate_fairness(b"1 0 a 1\n", b"1 0 a 1 1 r\n", name)


def test_groups_needed_and_unused_label_sets():
    with pytest.raises(MeasureError, match="--labels groups=FILE"):
        evaluate_fairness(b"1 0 a 1\n", b"1 0 a 1 1 r\n", "AWRF@5")
    with pytest.raises(ParameterError, match="'groups' is read by no measure"):
        evaluate_fairness(b"1 0 a 1\n", b"1 0 a 1 1 r\n", "EE-L", labels={"groups": {"a": 1}})
    assert is_fairness_name("nDCG-AWRF@20") and not is_fairness_name("nDCG@20")


def test_command_line(tmp_path):
    (tmp_path / "qrels").write_bytes(b"1 0 a 1\n1 0 b 1\n1 0 c 0\n")
    (tmp_path / "run").write_bytes(run_text({"1": [["a", "b", "c"], ["b", "a", "c"]]}))
    (tmp_path / "groups").write_bytes(b"* 0 a 1\n* 0 b 2\n* 0 c 2\n")
    out = subprocess.run(
        [sys.executable, "-m", "irscale", "eval", "-q", "-m", "EE-L EE-R AWRF@2",
         "--labels", f"groups={tmp_path / 'groups'}", str(tmp_path / "qrels"),
         str(tmp_path / "run")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines()]
    assert ["EE-L", "1", "0.0000"] in rows and ["EE-R", "all", "1.1875"] in rows
    assert any(r[0] == "AWRF@2" and r[1] == "all" for r in rows)

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

import functools
import itertools
import math
import subprocess
import sys
import warnings
from fractions import Fraction

import numpy as np
import pytest

from irscale.errors import InputError, InputFormatError, MeasureError, ParameterError
from irscale.evaluation.fairness import evaluate_fairness, is_fairness_name
from irscale.io.stochastic import read_stochastic_run


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


@functools.cache
def policy_run(weights: tuple[tuple[str, int], ...]) -> bytes:
    """The run of :func:`expand` of the Plackett–Luce policy of ``weights`` (built once for
    the three γ of a case: 332,640 rankings for the third)."""
    return run_text({"1": expand(plackett_luce(dict(weights)))})


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
    got, _ = values(qrels_text({"1": grades}), policy_run(tuple(weights.items())),
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


@pytest.mark.parametrize("membership", ["split", "full"])
def test_group_exposure_of_documents_in_several_groups(membership):
    weights, grades = {"a": 3, "b": 2, "c": 1, "d": 1}, {"a": 2, "b": 1, "c": 0, "d": 1}
    group = {"a": [1, 2], "b": [2], "c": [1, 2, 7]}  # d unlabelled
    policy = plackett_luce(weights)
    eps, star = brute_exposure(policy, 0.5), brute_exposure(ideal_policy(grades), 0.5)
    by: dict[int, list[float]] = {}
    for d in grades:
        for g, w in memberships(group, d, membership).items():
            e, s = by.setdefault(g, [0.0, 0.0])
            by[g] = [e + w * eps[d], s + w * star[d]]
    want = {"EE-L": sum((e - s) ** 2 for e, s in by.values()),
            "EE-R": sum(e * s for e, s in by.values()),
            "EE-D": sum(e * e for e, _ in by.values())}
    names = {m: f"{m}(level=group,membership={membership})" for m in want}
    got, _ = values(qrels_text({"1": grades}), run_text({"1": expand(policy)}),
                    list(names.values()), labels={"groups": group})
    for m, v in want.items():
        assert got[names[m]] == pytest.approx([v], abs=1e-12), m


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
ATTENTION = {"jk": lambda i: 1 / math.log2(max(i, 2)), "log2": lambda i: 1 / math.log2(i + 1),
             "geometric": lambda i: 0.7 ** (i - 1)}


def jsd_oracle(exposure: dict[int, float], target: dict[int, float], base: float) -> float:
    from scipy.spatial.distance import jensenshannon

    keys = sorted(set(exposure) | set(target))
    with np.errstate(invalid="ignore"):
        distance = jensenshannon([exposure.get(g, 0.0) for g in keys],
                                 [target.get(g, 0.0) for g in keys], base=base)
    # scipy takes the square root of a divergence that rounding can make slightly negative
    return float(distance) ** 2 if np.isfinite(distance) else 0.0


def memberships(group, d, membership="split"):
    """Document d's groups with their weights (no label: the group -1)."""
    gs = group.get(d, -1)
    gs = gs if isinstance(gs, list) else [gs]
    return {g: (1 / len(gs) if membership == "split" else 1.0) for g in gs}


def awrf_oracle(ranking, grades, group, k, target, attention, base=math.e, membership="split"):
    relevant = [d for d, g in grades.items() if g >= 1]
    if not relevant or not ranking:
        return 0.0
    want: dict[int, float] = {}
    for d in relevant:
        for g, w in memberships(group, d, membership).items():
            want[g] = want.get(g, 0.0) + (1.0 if target == "uniform" else w)
    if target == "uniform":
        want = dict.fromkeys(want, 1.0)
    want = {g: v / sum(want.values()) for g, v in want.items()}
    seen: dict[int, float] = {}
    for i, d in enumerate(ranking[:k], start=1):
        for g, w in memberships(group, d, membership).items():
            seen[g] = seen.get(g, 0.0) + attention(i) * w
    total = sum(seen.values())
    return 1.0 - jsd_oracle({g: v / total for g, v in seen.items()}, want, base)


def generated(seed, several=False):
    rng = np.random.default_rng(seed)
    grades, samples, group = {}, {}, {}
    for t in range(1, 5):
        docs = [f"d{j}" for j in range(rng.integers(3, 10))]
        grades[str(t)] = {d: int(rng.choice([0, 0, 1, 2])) for d in docs}
        pool = [*docs, "u1", "u2"]
        samples[str(t)] = [list(rng.choice(pool, size=rng.integers(1, len(pool) + 1),
                                           replace=False))
                           for _ in range(rng.integers(1, 4))]
        for d in pool:
            if rng.random() < 0.8:
                m = int(rng.integers(1, 4)) if several else 1
                chosen = sorted(int(g) for g in rng.choice(4, size=m, replace=False))
                group[d] = chosen if several else chosen[0]
    return grades, samples, group


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [3, 10])
@pytest.mark.parametrize("several", [False, True])
def test_awrf_against_the_trec_formula(seed, k, several):
    grades, samples, group = generated(seed, several)
    cases = {  # name: discount, target, log base, membership
        f"AWRF@{k}": ("jk", "relevant", math.e, "split"),
        f"AWRF(target=uniform)@{k}": ("jk", "uniform", math.e, "split"),
        f"AWRF(discount=log2,base=2)@{k}": ("log2", "relevant", 2, "split"),
        f"AWRF(discount=geometric,p=0.7,membership=full)@{k}": ("geometric", "relevant",
                                                                 math.e, "full"),
        f"AWRF(membership=full,target=uniform,base=2)@{k}": ("jk", "uniform", 2, "full"),
    }
    got, topics = values(qrels_text(grades), run_text(samples), list(cases),
                         labels={"groups": {"*": group}})
    for name, (discount, target, base, membership) in cases.items():
        want = [float(np.mean([awrf_oracle(s, grades[t], group, k, target,
                                           ATTENTION[discount], base, membership)
                               for s in samples[t]])) for t in topics]
        assert got[name] == pytest.approx(want, abs=1e-12), name


def test_awrf_of_every_permutation_with_several_groups():
    # every ranking of five documents, one topic each: a in groups 1 and 2, b in 2, c in
    # 1, 2 and 3, d unlabelled, e in 3; a, c and e relevant
    group = {"a": [1, 2], "b": [2], "c": [1, 2, 3], "e": [3]}
    grades = {"a": 1, "b": 0, "c": 2, "d": 0, "e": 1}
    perms = [list(p) for p in itertools.permutations("abcde")]
    samples = {str(n): [p] for n, p in enumerate(perms)}
    names = ["AWRF@3", "AWRF(membership=full)@3", "AWRF", "nDCG-AWRF@3"]
    got, topics = values(qrels_text({t: grades for t in samples}), run_text(samples), names,
                         labels={"groups": group})
    for n, t in enumerate(topics):
        ranking = samples[t][0]
        assert got["AWRF@3"][n] == pytest.approx(
            awrf_oracle(ranking, grades, group, 3, "relevant", ATTENTION["jk"]), abs=1e-12)
        assert got["AWRF(membership=full)@3"][n] == pytest.approx(
            awrf_oracle(ranking, grades, group, 3, "relevant", ATTENTION["jk"],
                        membership="full"), abs=1e-12)
        assert got["AWRF"][n] == pytest.approx(
            awrf_oracle(ranking, grades, group, 5, "relevant", ATTENTION["jk"]), abs=1e-12)
        dcg = sum(grades[d] * ATTENTION["jk"](i) for i, d in enumerate(ranking[:3], 1))
        ideal = sum(g * ATTENTION["jk"](i) for i, g in
                    enumerate(sorted(grades.values(), reverse=True)[:3], 1))
        assert got["nDCG-AWRF@3"][n] == pytest.approx(dcg / ideal * got["AWRF@3"][n],
                                                      abs=1e-12)
    # the mean over a policy's samples: all 120 rankings as samples of one topic
    got, _ = values(qrels_text({"1": grades}), run_text({"1": perms}), ["AWRF@3"],
                    labels={"groups": group})
    assert got["AWRF@3"] == pytest.approx([float(np.mean([
        awrf_oracle(p, grades, group, 3, "relevant", ATTENTION["jk"]) for p in perms]))],
        abs=1e-12)


pytrec_eval = pytest.importorskip("pytrec_eval")


@pytest.mark.parametrize("seed", range(6))
def test_ndcg_awrf_is_pytrec_evals_ndcg_times_awrf(seed):
    grades, samples, group = generated(seed)
    samples = {t: s[:1] for t, s in samples.items()}  # deterministic runs
    name = "nDCG-AWRF(discount=log2,base=2)@5"  # trec_eval's ndcg discount: log2(i + 1)
    got, topics = values(qrels_text(grades), run_text(samples), [name],
                         labels={"groups": {"*": group}})
    run = {t: {d: float(100 - i) for i, d in enumerate(s[0])} for t, s in samples.items()}
    ndcg = pytrec_eval.RelevanceEvaluator(grades, {"ndcg_cut.5"}).evaluate(run)
    want = [ndcg[t]["ndcg_cut_5"] * awrf_oracle(samples[t][0], grades[t], group, 5,
                                                  "relevant", ATTENTION["log2"], 2)
            for t in topics]
    assert got[name] == pytest.approx(want, abs=1e-12)


def test_hand_example():
    # a ∈ group 1 and b ∈ group 2 are relevant; the run shows a, c (group 2) at 1 and 2
    qrels = qrels_text({"1": {"a": 1, "b": 1, "c": 0}})
    run = run_text({"1": [["a", "c"]]})
    got, _ = values(qrels, run, ["AWRF(discount=log2,base=2)@2", "AWRF@2"],
                    labels={"groups": {"a": 1, "b": 2, "c": 2}})
    e1 = 1 / (1 + 1 / math.log2(3))
    e2 = 1 - e1
    m1, m2 = (e1 + 0.5) / 2, (e2 + 0.5) / 2
    jsd = 0.5 * (e1 * math.log2(e1 / m1) + e2 * math.log2(e2 / m2)) + \
        0.5 * (0.5 * math.log2(0.5 / m1) + 0.5 * math.log2(0.5 / m2))
    assert got["AWRF(discount=log2,base=2)@2"] == pytest.approx([1 - jsd], abs=1e-12)
    # the track's discount gives ranks 1 and 2 the same attention: E = T = (½, ½)
    assert got["AWRF@2"] == [1.0]


def test_hand_example_of_a_document_in_two_groups():
    # a ∈ {1, 2} and b ∈ {2} relevant: T = (¼, ¾) split, (⅓, ⅔) full. The run shows a
    # alone: E = (½, ½) split, (½, ½) full
    qrels = qrels_text({"1": {"a": 1, "b": 1}})
    run = run_text({"1": [["a"]]})
    got, _ = values(qrels, run, ["AWRF", "AWRF(membership=full,base=2)"],
                    labels={"groups": b"* 0 a 1\n* 0 a 2\n* 0 b 2\n"})

    def jsd(p, q, log):
        m = [(x + y) / 2 for x, y in zip(p, q, strict=True)]
        return 0.5 * sum(x * log(x / z) for x, z in zip(p, m, strict=True)) + \
            0.5 * sum(y * log(y / z) for y, z in zip(q, m, strict=True))

    assert got["AWRF"] == pytest.approx([1 - jsd([0.5, 0.5], [0.25, 0.75], math.log)])
    assert got["AWRF(membership=full,base=2)"] == pytest.approx(
        [1 - jsd([0.5, 0.5], [1 / 3, 2 / 3], math.log2)])


# TREC Fair Ranking's own evaluation code run on a small generated example (TRACK_*: 10
# pages, 6 of them in one to three of groups 1-4, 4 unlabelled; 4 topics with binary
# qrels, one ranking each), with Python 3.11, numpy, pandas, scipy and xarray 2026.9:
#   * 2022: fair-trec/trec2022-fair-public at commit 6fd105f2, wptrec/metrics/awrf.py:
#     AWRFMetric(qrels.set_index("topic_id"), [FairDim(align, xr.DataArray(align, dims=
#     ["page", "grp"]))], targets)(pd.Series(ranking), name=topic), with ``align`` the
#     pages' alignments as PageAlignments.py builds them (one-hot pivot, x = 1, an
#     @UNKNOWN column for unlabelled pages, each row normalised to sum 1,
#     norm_align_matrix) and ``targets`` the mean over a topic's relevant pages, as
#     Task1Alignment.py's groupby("topic_id").mean() (without the world-population
#     background): "AWRF" and "Score" (nDCG × AWRF) of the result;
#   * 2021: fair-trec/trec2021-fair-public at commit 5e2b1d0e, metrics.py:
#     Task1Metric(qrels.set_index("topic_id"), onehot, targets)(ranking series named by
#     its topic), with ``onehot`` Alignments.py's one-hot pivot (x = 1, the @UNKNOWN
#     column kept) and ``targets`` the relevant pages' summed rows normalised per topic.
# The tracks' discount is float32 (1/log2(max(i, 2)) as 'f4'): values agree to ~1e-7.
TRACK_GROUPS = {"p0": [1, 4], "p1": [1, 4], "p5": [2], "p6": [1, 4], "p8": [1, 3],
                "p9": [1, 2, 4]}
TRACK_DOCS = [f"p{j}" for j in range(10)]
TRACK_QRELS = {"101": ["p1", "p2", "p9"], "102": ["p0", "p7"], "103": ["p0", "p3"],
               "104": ["p1", "p2", "p5"]}
TRACK_RUNS = {"101": ["p6", "p2", "p1", "p3", "p5", "p7", "p8"],
              "102": ["p2", "p1", "p0", "p6", "p7", "p4", "p9", "p3"],
              "103": ["p1", "p9", "p4", "p7", "p0", "p6"], "104": ["p6", "p4", "p3", "p7"]}
TRACK_VALUES = {  # topic: (AWRF, nDCG × AWRF) of the 2022 code, then of the 2021 code
    "2022": {"101": (0.976646317662523, 0.6054291530985746),
             "102": (0.990758439263051, 0.5258977535374865),
             "103": (0.9523559314502095, 0.2050786975000437),
             "104": (0.854055470646223, 0.0)},
    "2021": {"101": (0.9577146300082349, 0.5936932816618249),
             "102": (0.9826512851732866, 0.5215944501747004),
             "103": (0.9358556305857396, 0.20152555093173127),
             "104": (0.8897347687305344, 0.0)},
}


@pytest.mark.parametrize("year, membership", [("2022", "split"), ("2021", "full")])
def test_the_tracks_evaluation_code(year, membership):
    qrels = qrels_text({t: {d: int(d in rel) for d in TRACK_DOCS}
                        for t, rel in TRACK_QRELS.items()})
    names = [f"AWRF(membership={membership})", f"nDCG-AWRF(membership={membership})"]
    got, topics = values(qrels, run_text({t: [r] for t, r in TRACK_RUNS.items()}), names,
                         labels={"groups": TRACK_GROUPS})
    for name, column in zip(names, (0, 1), strict=True):
        want = [TRACK_VALUES[year][t][column] for t in topics]
        assert got[name] == pytest.approx(want, rel=1e-6, abs=1e-9), name


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


def test_through_irscale_evaluate():
    import irscale

    grades, samples, group = generated(3, several=True)
    names = ["EE-L", "EE-D(level=group)", "AWRF@5", "nDCG-AWRF(membership=full)@5"]
    qrels, run = qrels_text(grades), run_text(samples)
    direct = evaluate_fairness(qrels, {"sys": run}, names, labels={"groups": {"*": group}})
    via = irscale.evaluate(qrels, {"sys": run}, names, labels={"groups": {"*": group}})
    assert via.runs == ("sys",) and via.measures == direct.measures
    for name in names:
        assert via.values[name].tolist() == direct.values[name].tolist()
    # a run given as a dict is one sample per topic, ranked as trec_eval ranks it
    one = {t: {d: float(len(s[0]) - i) for i, d in enumerate(s[0])} for t, s in samples.items()}
    from_dict = irscale.evaluate(grades, one, "AWRF@5 EE-L", labels={"groups": {"*": group}})
    from_file = evaluate_fairness(qrels, run_text({t: s[:1] for t, s in samples.items()}),
                                  "AWRF@5 EE-L", labels={"groups": {"*": group}})
    for name in ("AWRF@5", "EE-L"):
        assert from_dict.values[name].tolist() == pytest.approx(
            from_file.values[name].tolist(), abs=1e-15)


@pytest.mark.parametrize("seed", range(4))
def test_memberships_of_one_value_a_document_are_the_lookup(seed):
    # a label set of one value a document: memberships finds what lookup finds (topic rows
    # before * rows), by a separate path; a document with no row has no membership
    import pyarrow as pa

    from irscale.core.labels import lookup, memberships
    from irscale.io.labels import read_labels

    rng = np.random.default_rng(seed)
    lines = {(t, f"d{j}"): int(rng.integers(0, 5)) for t in ("*", "1", "2")
             for j in range(8) if rng.random() < 0.6}
    table = read_labels("".join(f"{t} 0 {d} {v}\n" for (t, d), v in lines.items()).encode())
    topics = pa.array(["1", "2", "3"])
    code = rng.integers(0, 3, 40)
    docs = pa.array([f"d{j}" for j in rng.integers(0, 10, 40)])
    want = lookup(table, topics, docs, topic_code=code)
    pair, value = memberships(table, topics, docs, code)
    assert pair.tolist() == np.flatnonzero(~np.isnan(want)).tolist()
    assert value.tolist() == want[~np.isnan(want)].tolist()


def test_runs_of_one_run_id_are_named_after_their_files(tmp_path):
    import irscale

    run = run_text({"1": [["a", "b"], ["b", "a"]]})
    (tmp_path / "one.run").write_bytes(run)
    (tmp_path / "two.run").write_bytes(run)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # by file: no warning
        ev = irscale.evaluate(b"1 0 a 1\n", [tmp_path / "one.run", tmp_path / "two.run"],
                              "EE-D")
    assert ev.runs == ("one", "two")
    assert ev.values["EE-D"].tolist() == [1.125, 1.125]  # ε_a = ε_b = (1 + ½)/2: 2 · ¾²


@pytest.mark.parametrize("call, error, message", [
    (lambda e: e(b"1 0 a 1\n", b"1 0 a 1 1 r\n", ["EE-L", "P@5"]), MeasureError, "mixed"),
    (lambda e: e(b"1 0 a 1\n", b"1 0 a 1 1 r\n", "EE-L", complete=True), ParameterError,
     "complete= does not apply to fairness"),
    (lambda e: e(b"1 0 a 1\n", b"1 0 a 1 1 r\n", "EE-L", max_docs=10), ParameterError,
     "max_docs= does not apply"),
    (lambda e: e(b"1 0 a 1\n", b"1 0 a 1 1 r\n", "AWRF(membership=half)"), MeasureError,
     "membership"),
    (lambda e: e(b"1 0 a 1\n", b"1 0 a 1 1 r\n", "EE-L(membership=full)"), MeasureError,
     "level=group"),
])
def test_evaluate_refusals(call, error, message):
    import irscale

    with pytest.raises(error, match=message):
        call(irscale.evaluate)


def test_groups_of_several_lines():
    from irscale.io.labels import read_labels

    table = read_labels(b"* 0 a 1\n* 0 a 2\n7 0 a 3\n", several=True)
    assert table.value.tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(InputFormatError, match=r"line 3: the same document is listed twice "
                                               r"with the same value.*'\* 0 a 1'"):
        read_labels(b"* 0 a 1\n* 0 b 1\n* 0 a 1\n", several=True)
    with pytest.raises(InputError, match="line 2"):  # one value a document: refused
        read_labels(b"* 0 a 1\n* 0 a 2\n")
    # a topic's own lines replace the lines of topic * for that topic
    qrels = qrels_text({"7": {"a": 1, "b": 1}, "8": {"a": 1, "b": 1}})
    run = run_text({"7": [["a"]], "8": [["a"]]})
    got, _ = values(qrels, run, ["AWRF"],
                    labels={"groups": b"* 0 a 1\n* 0 a 2\n7 0 a 3\n* 0 b 2\n"})
    # topic 7: a in 3 only, b in 2: E = (0, 1) on (2, 3), T = (½, ½); topic 8: E = (½, ½),
    # T = (¼, ¾) on (1, 2)
    want7 = 1 - 0.5 * (math.log(1 / 0.75) + 0.5 * math.log(0.5 / 0.25)
                       + 0.5 * math.log(0.5 / 0.75))
    m = [(0.5 + 0.25) / 2, (0.5 + 0.75) / 2]
    want8 = 1 - 0.5 * (0.5 * math.log(0.5 / m[0]) + 0.5 * math.log(0.5 / m[1])
                       + 0.25 * math.log(0.25 / m[0]) + 0.75 * math.log(0.75 / m[1]))
    assert got["AWRF"] == pytest.approx([want7, want8], abs=1e-12)


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

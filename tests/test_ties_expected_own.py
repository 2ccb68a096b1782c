"""``ties="expected"`` for irscale's own tie-aware families (:mod:`irscale.measures.ties`)
and trec_eval 10's rbp and rbp_resid (``rust/src/tie_aware.rs``) against brute force: for
random small topics with tie groups, every order of the tied documents is enumerated and
the mean of the plain values over the orders compared with irscale's value. The plain
values come from independent oracles: cwl_eval itself (tests/cwl_reference.py) for the
C/W/L measures; for RBP, its residual and ERR, the papers' definitions written out below
(Moffat & Zobel 2008; Chapelle et al. 2009), which no tool available here computes at
full precision."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

import irscale
from irscale.errors import MeasureError

from .cwl_reference import METRICS, cwl_scores
from .test_ties_expected import ORDER_WARNING, random_topic, trec_order

#: Orders enumerated per topic at most (cwl_eval evaluates each as a topic of its own).
MOST_ORDERS = 150
P = 0.7
#: The highest degree of the random topics (gains degree / 2, the linear gains of maxrel=2).
TOP = 2


def topics(seed: int, count: int = 8) -> dict[str, tuple[dict[str, int], dict[str, float]]]:
    rng = np.random.default_rng(seed)
    out = {}
    while len(out) < count:
        qrels, run = random_topic(rng)
        if math.prod(math.factorial(len(g)) for g in trec_order(run)) <= MOST_ORDERS:
            out[f"t{len(out)}"] = (qrels, run)
    return out


def orders(run: dict[str, float]) -> list[list[str]]:
    """Every order of ``run``'s documents that breaks its ties."""
    return [list(itertools.chain.from_iterable(parts)) for parts in
            itertools.product(*(itertools.permutations(g) for g in trec_order(run)))]


# ------------------------------------------------------------ the definitions, per order
def rbp(grades: list[int]) -> float:
    """Moffat & Zobel's RBP with graded gains g/gmax (gmax = TOP)."""
    return (1 - P) * sum(P**i * max(g, 0) / TOP for i, g in enumerate(grades))


def trec_rbp(grades: list[int | None], top: int) -> float:
    """trec_eval 10's rbp: gains g, min-max normalised (g/top) when the topic's table of
    levels 0..top has an entry above 1; documents outside the qrels gain 0."""
    scale = top if top > 1 else 1
    return (1 - P) * sum(P**i * (g or 0) / scale for i, g in enumerate(grades))


def rbp_residual(grades: list[int | None]) -> float:
    """Moffat & Zobel's residual: p^n + (1 − p)·Σ p^(i−1) over the unjudged ranks."""
    return P ** len(grades) + (1 - P) * sum(P**i for i, g in enumerate(grades) if g is None)


def cascade(stops: list[float], depth: int | None = None) -> float:
    """Chapelle et al.'s ERR of the stopping probabilities ``stops`` in rank order."""
    value, going = 0.0, 1.0
    for rank, stop in enumerate(stops[:depth], 1):
        value += going * stop / rank
        going *= 1 - stop
    return value


def exp_stop(g: int | None) -> float:
    return (2.0 ** max(g or 0, 0) - 1) / 2.0**TOP


def ntcir_stop(g: int | None) -> float:
    return max(g or 0, 0) / (TOP + 1)


TABLE = (0.1, 0.5, 0.9)  # ERR(stop=...): per degree, unjudged documents of degree 0


#: irscale's tie-aware RBP and ERR families, as :func:`definitions` names them.
OWN = ["RBP(p=0.7,maxrel=2)", "RBP(p=0.7,gain=binary)", "RBPres(p=0.7)", "ERR(maxrel=2)",
       "ERR(prob=ntcir,maxrel=2)", "ERR(stop=0.1:0.5:0.9)", "ERR(maxrel=2)@3",
       "ERR(stop=0.1:0.5:0.9)@4", "nERR(maxrel=2)@3",
       "nERR(prob=ntcir,maxrel=2)@5"]


def definitions(qrels: dict[str, int], order: list[str]) -> dict[str, float]:
    grades = [qrels.get(d) for d in order]
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)
    return {
        "RBP(p=0.7,maxrel=2)": rbp([g or 0 for g in grades]),
        "RBP(p=0.7,gain=binary)": rbp([TOP * (g is not None and g >= 1) for g in grades]),
        "RBPres(p=0.7)": rbp_residual(grades),
        "rbp_p=0.7": trec_rbp(grades, max(qrels.values(), default=0)),
        "rbp_resid_p=0.7": rbp_residual(grades) if None in grades else 0.0,
        "ERR(maxrel=2)": cascade([exp_stop(g) for g in grades]),
        "ERR(prob=ntcir,maxrel=2)": cascade([ntcir_stop(g) for g in grades]),
        "ERR(stop=0.1:0.5:0.9)": cascade([TABLE[max(g or 0, 0)] for g in grades]),
        "ERR(maxrel=2)@3": cascade([exp_stop(g) for g in grades], 3),
        "ERR(stop=0.1:0.5:0.9)@4": cascade([TABLE[max(g or 0, 0)] for g in grades], 4),
        "nERR(maxrel=2)@3": cascade([exp_stop(g) for g in grades], 3)
        / cascade([exp_stop(g) for g in ideal], 3),
        "nERR(prob=ntcir,maxrel=2)@5": cascade([ntcir_stop(g) for g in grades], 5)
        / cascade([ntcir_stop(g) for g in ideal], 5),
    }


def evaluated(cases: dict, measures: list[str], **options) -> dict[tuple[str, str], float]:
    qrels = {t: q for t, (q, _) in cases.items()}
    run = {t: r for t, (_, r) in cases.items()}
    frame = irscale.evaluate(qrels, {"r": run}, measures, ties="expected", **options)
    return {(row.topic, row.measure): row.value for row in frame.per_topic().itertuples()}


@pytest.mark.filterwarnings(ORDER_WARNING)
@pytest.mark.parametrize("seed", range(5))
def test_rbp_and_err_are_means_over_every_order(seed):
    cases = topics(seed)
    got = evaluated(cases, OWN)
    got.update(evaluated(cases, ["rbp.p=0.7", "rbp_resid.p=0.7"], compat=10))
    for topic, (qrels, run) in cases.items():
        per_order = [definitions(qrels, order) for order in orders(run)]
        for label in per_order[0]:
            mean = float(np.mean([values[label] for values in per_order]))
            assert got[(topic, label)] == pytest.approx(mean, abs=1e-12), (topic, label)


#: (irscale's name, cwl_eval's metric and its arguments, the depth N): the static C/W/L
#: measures, at depths that cut some rankings inside a tie group.
CWL = [("CWL-P(maxrel=2{})@3", ("CWL-P", 3), 3),
       ("SDCG(maxrel=2{})@4", ("SDCG", 4), 4),
       ("CWL-RBP(p=0.7,maxrel=2,depth=5{})", ("CWL-RBP", 0.7), 5),
       ("NPV(rate=0.25,maxrel=2,depth=5{})", ("NPV", 0.25), 5),
       ("INSQ(T=1.5,maxrel=2,depth=6{})", ("INSQ", 1.5), 6),
       ("SET(beta=0.5,maxrel=2{})@4", ("SET", 0.5, 4), 4)]
OUTS = ("EU", "ETU", "EC", "ETC", "ED", "ResEU", "ResETU", "ResEC", "ResETC", "ResED")


@pytest.mark.filterwarnings(ORDER_WARNING)
@pytest.mark.parametrize(("name", "metric", "depth"), CWL,
                         ids=[n.split("(")[0] for n, _, _ in CWL])
@pytest.mark.parametrize("seed", range(2))
def test_static_cwl_measures_are_means_over_every_order(tmp_path: Path, name, metric, depth,
                                                         seed):
    cases = topics(100 + seed, count=5)
    names = [name.format(f",out={out}") for out in OUTS]
    got = evaluated(cases, names)
    gains, run_lines, order_of = [], [], {}
    for topic, (qrels, run) in cases.items():
        for k, order in enumerate(orders(run)):
            key = f"{topic}-{k}"
            order_of[key] = topic
            gains += [f"{key} 0 {d} {g / TOP!r}" for d, g in qrels.items()]
            run_lines += [f"{key} Q0 {d} {r} {len(order) - r} r"
                          for r, d in enumerate(order, 1)]
    (tmp_path / "gains").write_text("\n".join(gains) + "\n")
    (tmp_path / "run").write_text("\n".join(run_lines) + "\n")
    family, *args = metric
    want = cwl_scores(tmp_path / "gains", tmp_path / "run", METRICS[family](*args),
                      depth=depth)
    for topic in cases:
        rows = np.array([values for key, values in want.items() if order_of[key] == topic])
        for label, mean in zip(names, rows.mean(axis=0), strict=True):
            assert got[(topic, label)] == pytest.approx(mean, abs=1e-12), (topic, label)


@pytest.mark.filterwarnings(ORDER_WARNING)
def test_a_large_group_with_few_grades():
    """A relevant document, then 5,000 tied documents, 40 of them relevant (two grades):
    the closed form against the mean over random orders (4,000 of them: the mean lies
    within a few standard errors of the expectation)."""
    rng = np.random.default_rng(7)
    qrels = {f"d{k}": int(g) for k, g in enumerate(rng.choice([1, 2], size=41))}
    group = [f"n{k}" for k in range(4_960)] + [f"d{k}" for k in range(1, 41)]
    run = {"d0": 2.0} | dict.fromkeys(group, 1.0)
    got = evaluated({"t": (qrels, run)}, ["ERR(maxrel=2)"])[("t", "ERR(maxrel=2)")]
    first = exp_stop(qrels["d0"])
    stops = np.array([exp_stop(qrels.get(d)) for d in group])
    samples = []
    for _ in range(4):
        shuffled = stops[rng.random((1_000, len(stops))).argsort(axis=1)]
        going = np.cumprod(np.hstack((np.ones((1_000, 1)), 1 - shuffled[:, :-1])), axis=1)
        ranks = np.arange(2, len(stops) + 2)
        samples.append(first + (1 - first) * (going * shuffled / ranks).sum(axis=1))
    values = np.concatenate(samples)
    assert abs(got - values.mean()) < 5 * values.std() / math.sqrt(len(values))


@pytest.mark.parametrize("measure", ["INST(T=2)", "BPM(T=1)@5", "CWL-RR", "NERR10",
                                     "CWL-TBG", "RBP@5"])
def test_measures_without_a_tie_aware_value_are_refused(measure):
    cases = topics(0, count=1)
    with pytest.raises(MeasureError, match="no tie-aware value") as error:
        evaluated(cases, [measure])
    assert "CWL-P" in str(error.value) and "ERR" in str(error.value)

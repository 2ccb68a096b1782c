"""Interval scales of diversity measures (docs/scales.md "Diversity measures").

The oracle is ndeval's evaluation itself: every run of the space becomes one topic of a real
run file, judged by explicit diversity qrels written here (documents named independently
of the scale module), and :func:`evaluate_diversity` scores it; the image is then the
distinct values (within the engine's tolerance) with their run counts.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from irscale.errors import MeasureError, ParameterError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import read_diversity_qrels
from irscale.io.trec import read_run
from irscale.scales import scale
from irscale.scales.enumeration import runs_from_index
from irscale.scales.generic import cluster
from irscale.scales.image import TOLERANCE
from irscale.stats.kendall import kendall_tau

#: Measures whose value needs nothing of the qrels beyond the ranks 1..N when every
#: document is relevant to every intent (whole-space oracle below).
CUTOFF_MEASURES = ["alpha-DCG@{N}", "alpha-nDCG@{N}", "ERR-IA@{N}", "nERR-IA@{N}",
                   "alpha-nDCG(alpha=0.3)@{N}", "P-IA@{N}", "strec@{N}", "NRBP",
                   "NRBP(alpha=0.2,beta=0.7)", "alpha-DCG@1", "alpha-nDCG@2"]
#: Every ndeval family, on the feasible space of explicit qrels.
ALL_MEASURES = [*CUTOFF_MEASURES, "nNRBP", "MAP-IA", "nNRBP(beta=0.8)"]


def space_runs(N: int, S: int, bounds=None) -> np.ndarray:
    runs = runs_from_index(np.arange((2**S) ** N), N, 2**S)
    if bounds is not None:
        keep = np.ones(len(runs), bool)
        for code, bound in enumerate(bounds, start=1):
            keep &= (runs == code).sum(axis=1) <= bound
        runs = runs[keep]
    return runs


def oracle(measure: str, runs: np.ndarray, S: int, docs_per_set: dict[int, int],
           ) -> np.ndarray:
    """ndeval's value of every run: topic t holds run t, judged by qrels with
    ``docs_per_set[code]`` documents relevant to exactly the intents of ``code``, plus the
    run's own documents where it holds more of an intent set than that (whole space)."""
    qrels, lines = [], []
    for t, run in enumerate(runs.tolist(), start=1):
        used = dict.fromkeys(docs_per_set, 0)
        names = []
        for code in run:
            if code == 0:
                names.append(f"nonrel-{len(names)}")
                continue
            if used.get(code, 0) < docs_per_set.get(code, 0):
                names.append(f"q{code}-{used[code]}")  # a document of the qrels
                used[code] += 1
            else:  # the run's own document of that intent set, judged too
                name = f"own{code}-{len(names)}"
                names.append(name)
                qrels += [f"{t} {j + 1} {name} 1" for j in range(S) if code >> j & 1]
        for code, count in docs_per_set.items():
            for i in range(count):
                qrels += [f"{t} {j + 1} q{code}-{i} 1" for j in range(S) if code >> j & 1]
        qrels.append(f"{t} 1 nonrel-judged 0")
        lines += [f"{t} Q0 {d} {r} {100 - r} x" for r, d in enumerate(names, start=1)]
    ev = evaluate_diversity(read_diversity_qrels("\n".join(qrels).encode() + b"\n"),
                            read_run("\n".join(lines).encode() + b"\n", keep_rank=True),
                            [measure])
    order = np.argsort([int(t) for t in ev.rows.topic_labels])
    return ev.values[measure][order]


def image_of(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    distinct, counts = np.unique(values, return_counts=True)
    return cluster(distinct, counts, TOLERANCE)


def check(sc, runs: np.ndarray, expected: np.ndarray) -> None:
    assert sc.n_runs == len(runs)
    assert np.allclose(sc.values(runs), expected, rtol=1e-12, atol=1e-15)
    values, counts = image_of(expected)
    got_values, got_counts = sc.image_values()
    assert sc.n_distinct == len(values)
    assert np.allclose(got_values, values, rtol=1e-12, atol=1e-15)
    assert np.array_equal(np.asarray(got_counts, dtype=np.int64), counts)
    # φ: the number of distinct values ≤ the run's, from 1 to |image|
    phi = np.asarray(sc.phi(runs), dtype=np.int64)
    want = np.searchsorted(values, expected + TOLERANCE * np.maximum(1, np.abs(expected)),
                           side="right")
    assert np.array_equal(phi, want)
    order = np.argsort(expected, kind="stable")
    ranks = np.empty(len(runs), np.int64)
    ranks[order] = np.arange(1, len(runs) + 1)
    low = np.asarray(sc.phi(runs, "min"), dtype=np.int64)
    high = np.asarray(sc.phi(runs, "max"), dtype=np.int64)
    assert (low <= ranks).all() and (ranks <= high).all()
    assert int(high.max()) == len(runs) and int(low.min()) == 1


@pytest.mark.parametrize("N, S", [(1, 3), (2, 2), (3, 2), (2, 3), (4, 1), (3, 1)])
@pytest.mark.parametrize("template", CUTOFF_MEASURES)
def test_whole_space_equals_ndeval_on_explicit_runs(template, N, S):
    """Default qrels: max(N, k) documents relevant to every intent (ranked first by
    ndeval's greedy ideal, whatever else the qrels hold: so adding the run's own documents
    to the oracle's qrels leaves the measures of ranks 1..k unchanged)."""
    measure = template.format(N=N)
    sc = scale(measure, N, intents=S, progress=False)
    runs = space_runs(N, S)
    k = int(measure.rsplit("@", 1)[1]) if "@" in measure else 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = oracle(measure, runs, S, {2**S - 1: max(N, k)})
    check(sc, runs, expected)


@pytest.mark.parametrize("N, S, recall_base", [
    (3, 2, [1, 2]), (3, 2, [1, 1, 1]), (2, 3, [1, 0, 1, 1, 0, 0, 1]), (4, 1, [2]),
    (3, 2, [2, 0, 2]), (2, 2, [3, 1, 0])])
@pytest.mark.parametrize("measure", ALL_MEASURES)
def test_feasible_space_equals_ndeval_on_explicit_qrels(measure, N, S, recall_base):
    """The runs the qrels allow, every one evaluated by ndeval against those qrels: every
    family, its ideal (α-nDCG, nERR-IA, nNRBP) and per-intent recall base (MAP-IA)."""
    measure = measure.format(N=N)
    sc = scale(measure, N, intents=S, recall_base=recall_base, feasible=True,
               progress=False)
    counts = recall_base if len(recall_base) == 2**S - 1 else \
        [recall_base[c.bit_length() - 1] if c & (c - 1) == 0 else 0 for c in range(1, 2**S)]
    runs = space_runs(N, S, counts)
    expected = oracle(measure, runs, S, {c: n for c, n in enumerate(counts, 1) if n})
    check(sc, runs, expected)


def test_hand_counted_images():
    # strec@N over S intents: |covered|/S ∈ {0, 1/S, ..., 1}
    assert scale("strec@3", 3, intents=3, progress=False).n_distinct == 4
    # P-IA@N: Σ_j |relevant to j| / (N·S) ∈ {0, 1/(NS), ..., 1}
    values, counts = scale("P-IA@2", 2, intents=3, progress=False).image_values()
    assert np.allclose(values, np.arange(7) / 6)
    assert counts.tolist() == [1, 6, 15, 20, 15, 6, 1]  # C(6, k): which of the 6 bits
    # one intent, α-DCG@2 with α = 0.5: (g1 + g2/log2(3)) / (1 + 0.5/log2(3)), g ∈ {0, 1,
    # 0.5 after a relevant document}: 4 runs, 4 distinct values
    values, _ = scale("alpha-DCG@2", 2, intents=1, progress=False).image_values()
    d = 1 / np.log2(3)
    expected = sorted([0.0, d, 1.0, 1 + 0.5 * d])
    assert np.allclose(values, np.array(expected) / (1 + 0.5 * d))


def test_default_normalisation_is_ndeval_ideal_ideal():
    """With N documents relevant to every intent, α-nDCG@N is α-DCG@N run by run."""
    runs = space_runs(3, 2)
    a = scale("alpha-nDCG@3", 3, intents=2, progress=False)
    b = scale("alpha-DCG@3", 3, intents=2, progress=False)
    assert np.allclose(a.values(runs), b.values(runs), rtol=1e-12)
    assert a.n_distinct == b.n_distinct
    assert a.image_values()[0].max() <= 1 + 1e-12


def test_phi_preserves_the_order_of_the_measure():
    sc = scale("nERR-IA@4", 4, intents=2, recall_base=[2, 1, 1], progress=False,
               feasible=True)
    rng = np.random.default_rng(0)
    runs = space_runs(4, 2, [2, 1, 1])[rng.choice(sc.n_runs, 60, replace=False)]
    m = sc.values(runs)
    phi = np.asarray(sc.phi(runs), dtype=np.float64)
    result = kendall_tau(m, phi, rtol=1e-12)
    assert result.discordant == 0


def test_refusals():
    with pytest.raises(ParameterError, match="intents"):
        scale("alpha-nDCG@5", 5, progress=False)
    with pytest.raises(ParameterError, match="levels"):
        scale("alpha-nDCG@5", 5, 2, intents=2, progress=False)
    with pytest.raises(ParameterError, match="diversity measures"):
        scale("AP", 5, intents=2, progress=False)
    with pytest.raises(ParameterError, match="intents"):
        scale("alpha-nDCG@5", 5, intents=8, progress=False)
    with pytest.raises(ParameterError, match="2\\^40"):
        scale("alpha-nDCG@5", 9, intents=5, progress=False)
    with pytest.raises(ParameterError, match="feasible"):
        scale("alpha-DCG@3", 3, intents=2, recall_base=[1, 1], progress=False)
    with pytest.raises(ParameterError, match="recall-base"):
        scale("alpha-nDCG@3", 3, intents=2, feasible=True, progress=False)
    with pytest.raises(ParameterError, match=r"2 counts .* or 3"):
        scale("alpha-nDCG@3", 3, intents=2, recall_base=[1, 1, 1, 1], progress=False)
    with pytest.raises(ParameterError, match="intent 2 no relevant"):
        scale("alpha-nDCG@3", 3, intents=2, recall_base=[1, 0, 0], progress=False)
    with pytest.raises(MeasureError, match="one measure"):
        scale("ndeval", 3, intents=2, progress=False)
    with pytest.raises(ParameterError, match="max-memory"):
        scale("alpha-nDCG@5", 5, intents=3, max_memory="1M", progress=False)


def test_infeasible_runs_warn():
    with pytest.warns(UserWarning, match="fewer than N = 3"):
        scale("alpha-nDCG@3", 3, intents=2, recall_base=[1, 1], progress=False)


def test_transform_refuses_diversity_measures():
    from irscale.scales import transform

    with pytest.raises(MeasureError, match="diversity measure"):
        transform(b"1 0 d1 1\n", b"1 Q0 d1 1 1 r\n", ["alpha-nDCG@5"], 5, progress=False)


def test_recall_base_forms_agree():
    per_intent = scale("MAP-IA", 3, intents=2, recall_base=[2, 1], progress=False,
                       feasible=True)
    per_set = scale("MAP-IA", 3, intents=2, recall_base=[2, 1, 0], progress=False,
                    feasible=True)
    assert per_intent.n_distinct == per_set.n_distinct
    assert np.allclose(per_intent.image_values()[0], per_set.image_values()[0])

"""CRP (Angelini et al., CLEF 2012) and the twist (Ferro et al., JASIST 2016), as MATTERS'
``twist.m`` computes them, on worked examples.

Topic t: d1, d2 relevant (degree 1), d3, d4 judged non-relevant; N = 4, so the ideal
ranking is 1 1 0 0: degree 1 belongs in ranks [1, 2], degree 0 in [3, 4]; its reversal F is
0 0 1 1, whose relative positions are (3−... ) RP^F = (1−3, 2−3, 3−2, 4−2) = (−2, −1, 1, 2):
Σ_{>0} = 3, Σ_{<0} = −3.

1. d3 d1 d4 d2: RP = (1−3, 0, 0, 4−2) = (−2, 0, 0, 2); CRP = (−2, −2, −2, 0): CRP = 0,
   CRP(k=1) = −2. The curve is never > 0: no sign change and not 0 everywhere, ρ = 0;
   f = 1 − 2/3 = 1/3, b = 1 − (−2)/(−3) = 1/3, σ = 2·(1/9)/(2/3) = 1/3; τ = 1/6.
2. d1 d2 d3 d4 (the ideal): RP = 0 everywhere, CRP = 0, ρ = 1, f = b = 1, σ = 1, τ = 1.
3. d3 d4 d1 d2 (F itself): RP = RP^F, CRP = (−2, −3, −2, 0): ρ = 0; f = b = 0, σ = 0
   (f + b = 0); τ = 0.
4. d1 d3 d4 d2: RP = (0, 2−3, 0, 4−2) = (0, −1, 0, 2); CRP = (0, −1, −1, 1): the sign
   changes after rank j = 3, ρ = R/max(R, 3) = 2/3; f = 1 − 2/3 = 1/3, b = 1 − 1/3 = 2/3,
   σ = 2·(2/9)/1 = 4/9; τ = (2/3 + 4/9)/2 = 5/9. CRP = 1, CRP(k=3) = −1.
5. Graded (degrees 2, 1, 0: ideal 2 1 0 0), d3 d2 d1 d4: degree 2 in [1, 1], 1 in [2, 2],
   0 in [3, 4]; RP = (1−3, 0, 3−1, 0) = (−2, 0, 2, 0), CRP = (−2, −2, 0, 0): CRP = 0,
   ρ = 0; F = 0 0 1 2: RP^F = (−2, −1, 3−2, 4−1) = (−2, −1, 1, 3), Σ_{>0} = 4,
   Σ_{<0} = −3; f = 1 − 2/4 = 1/2, b = 1 − 2/3 = 1/3, σ = 2·(1/6)/(5/6) = 2/5; τ = 1/5.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irscale
from irscale.errors import MeasureError

BINARY = {"t": {"d1": 1, "d2": 1, "d3": 0, "d4": 0}}
GRADED = {"t": {"d1": 2, "d2": 1, "d3": 0, "d4": 0}}


def values(qrels, order, names):
    run = {"t": {doc: float(10 - i) for i, doc in enumerate(order)}}
    means = irscale.evaluate(qrels, run, names).mean()
    return [float(means[name].iloc[0]) for name in names]


@pytest.mark.parametrize("qrels, order, crp, crp_k, k, tau", [
    (BINARY, ["d3", "d1", "d4", "d2"], 0, -2, 1, 1 / 6),
    (BINARY, ["d1", "d2", "d3", "d4"], 0, 0, 1, 1.0),
    (BINARY, ["d3", "d4", "d1", "d2"], 0, -3, 2, 0.0),
    (BINARY, ["d1", "d3", "d4", "d2"], 1, -1, 3, 5 / 9),
    (GRADED, ["d3", "d2", "d1", "d4"], 0, -2, 2, 1 / 5),
])
def test_worked_examples(qrels, order, crp, crp_k, k, tau):
    got = values(qrels, order, ["CRP(N=4)", f"CRP(k={k},N=4)", "twist(N=4)"])
    assert got == pytest.approx([crp, crp_k, tau], abs=1e-12)


def test_no_relevant_document_and_the_padding():
    # no relevant document judged: 0 (MATTERS: NaN); none retrieved: τ = 0
    assert values({"t": {"d1": 0}}, ["d1"], ["CRP", "twist"]) == [0.0, 0.0]
    assert values(BINARY, ["d3", "d4"], ["twist(N=4)"]) == [0.0]
    # a ranking shorter than N is padded with non-relevant documents: d1 alone, N = 4,
    # is d1 x x x: RP = (0, 2−3, 0, 0): CRP = −1
    assert values(BINARY, ["d1"], ["CRP(N=4)"]) == [-1.0]


def test_parameters_are_checked():
    for name in ("twist(N=0)", "CRP(k=0)", "CRP(N=2000000)", "twist@5"):
        with pytest.raises(MeasureError):
            irscale.evaluate(BINARY, {"t": {"d1": 1.0}}, [name])


def reference(judged: dict[str, int], order: list[str], length: int,
              depth: int | None) -> tuple[float, float]:
    """CRP(k=depth) and τ of one ranking, rank by rank as the module documentation (and
    MATTERS' ``twist.m``) states them: the oracle of the batch kernels."""
    run = [max(judged.get(doc, 0), 0) for doc in order[:length]]
    run += [0] * (length - len(run))
    ideal = sorted((g for g in judged.values() if g > 0), reverse=True)[:length]
    ideal += [0] * (length - len(ideal))

    def positions(ranking: list[int]) -> list[int]:
        out = []
        for i, grade in enumerate(ranking, 1):
            where = [j for j, g in enumerate(ideal, 1) if g == grade]
            low, high = (where[0], where[-1]) if where else (i, i)
            out.append(i - low if i < low else i - high if i > high else 0)
        return out

    recall_base = sum(g > 0 for g in judged.values())
    rp, worst = positions(run), positions(ideal[::-1])
    crp = float(sum(rp[:depth or length])) if recall_base else 0.0
    if not recall_base or not any(run):
        return crp, 0.0
    curve = [sum(rp[:i]) for i in range(1, length + 1)]
    sign = [1 if c > 0 else -1 for c in curve]
    change = [j for j in range(1, length) if sign[j] != sign[j - 1]]
    if change:
        rho = recall_base / max(recall_base, change[0])
    else:
        rho = 0.0 if any(curve) else 1.0

    def ratio(part: int, whole: int) -> float:
        return 1 - part / whole if whole else 1.0

    f = ratio(sum(v for v in rp if v > 0), sum(v for v in worst if v > 0))
    b = ratio(sum(v for v in rp if v < 0), sum(v for v in worst if v < 0))
    sigma = 2 * f * b / (f + b) if f + b else 0.0
    return crp, (rho + sigma) / 2


DOCS = [f"d{i}" for i in range(12)]


@st.composite
def topics(draw):
    """Topics with ties in their degrees (0 to 3, some negative), each ranking a random
    subset of judged and unjudged documents."""
    out = {}
    for topic in range(draw(st.integers(1, 6))):
        judged_docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10,
                                    unique=True))
        judged = {doc: draw(st.integers(-1, 3)) for doc in judged_docs}
        order = draw(st.permutations(DOCS).map(lambda p: p[:draw(st.integers(1, 12))]))
        out[f"t{topic}"] = (judged, list(order))
    return out


@settings(max_examples=60, deadline=None)
@given(topics(), st.integers(1, 14), st.one_of(st.none(), st.integers(1, 16)))
def test_batch_kernels_equal_a_per_ranking_reference(cases, length, depth):
    qrels = {t: judged for t, (judged, _) in cases.items()}
    runs = [{t: {doc: float(20 - i) for i, doc in enumerate(order[::step])}
             for t, (_, order) in cases.items()} for step in (1, -1)]
    k = "" if depth is None else f"k={depth},"
    names = [f"CRP({k}N={length})", f"twist(N={length})"]
    frame = irscale.evaluate(qrels, [irscale.read_run(r, name=f"r{i}")
                                     for i, r in enumerate(runs)], names).per_topic()
    got = {(row.run, row.topic, row.measure): row.value for row in frame.itertuples()}
    for i, run in enumerate(runs):
        for topic, (judged, _) in cases.items():
            order = sorted(run[topic], key=lambda doc: -run[topic][doc])
            want = reference(judged, order, length, depth)
            for name, value in zip(names, want, strict=True):
                assert abs(got[(f"r{i}", topic, name)] - value) <= 1e-15, (topic, name)

"""PRES@N_max (Magdy & Jones 2010; irscale's reading, :mod:`irscale.measures.pres`): values
worked by hand from the formula, its three boundary properties, a plain-Python
implementation of the formula written here (independent of the kernel's rearranged form),
and its use through :func:`irscale.evaluate` and ``irscale eval -m PRES@k``."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import irscale
from irscale.cli.main import main

from .measures_helpers import batch, complete_levels, measure
from .property_examples import examples

SETTINGS = settings(max_examples=examples(80), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def plain_pres(degrees: list[int], recall_base: int, n_max: int, level: int = 1) -> float:
    """The formula as published: 1 − (Σ_{i≤R} r_i / R − (R + 1)/2) / N_max, r_i the rank of
    the i-th relevant document, a relevant document not among the first N_max at rank
    N_max + i (i its place among the R, the found ones first); 0 when R = 0."""
    if recall_base == 0:
        return 0.0
    ranks = [rank for rank, degree in enumerate(degrees[:n_max], 1) if degree >= level]
    ranks += [n_max + i for i in range(len(ranks) + 1, recall_base + 1)]
    return 1 - (sum(ranks) / recall_base - (recall_base + 1) / 2) / n_max


@pytest.mark.parametrize(("degrees", "levels", "name", "expected"), [
    # relevant at ranks 2 and 4, R = 3, N_max = 4: the third at 4 + 3 = 7;
    # Σ r = 13, 13/3 − 2 = 7/3, PRES = 1 − (7/3)/4 = 5/12
    ([0, 1, 0, 1], [1, 3], "PRES@4", 5 / 12),
    # N_max = 2: rank 2 found, the 2nd and 3rd at 2 + 2, 2 + 3; Σ r = 11, 11/3 − 2 = 5/3,
    # PRES = 1 − (5/3)/2 = 1/6
    ([0, 1, 0, 1], [1, 3], "PRES@2", 1 / 6),
    # both relevant at the top: Σ r = 3 = R(R + 1)/2, PRES = 1
    ([1, 1, 0], [1, 2], "PRES@5", 1.0),
    # the one relevant at rank 3 > N_max = 2: placed at 2 + 1 = 3, 3 − 1 = 2, PRES = 1 − 2/2
    ([0, 0, 1], [2, 1], "PRES@2", 0.0),
    # rel=2: relevant at ranks 2 and 4, R = 2, N_max = 3: the second at 3 + 2 = 5;
    # Σ r = 7, 7/2 − 3/2 = 2, PRES = 1 − 2/3 = 1/3
    ([1, 2, 0, 2], [1, 1, 2], "PRES(rel=2)@3", 1 / 3),
    # an unjudged document above the relevant one: rank 2, 2 − 1 = 1, PRES = 1 − 1/2
    ([-1, 1], [0, 1], "PRES@2", 0.5),
    # condensed: the unjudged one removed, the relevant one at rank 1: PRES = 1
    ([-1, 1], [0, 1], "PRES(condensed=1)@2", 1.0),
    # no relevant document: 0
    ([0, 0], [2], "PRES@10", 0.0),
])
def test_values_worked_by_hand(degrees, levels, name, expected):
    assert measure(name, batch([degrees], [levels]))[0] == pytest.approx(expected, abs=1e-12)


@st.composite
def rankings(draw):
    """(degrees in rank order, recall base R at level 1, N_max): -1 unjudged, 0 non-relevant,
    1..2 relevant; R holds the retrieved relevant ones and up to 3 others."""
    degrees = draw(st.lists(st.integers(-1, 2), min_size=0, max_size=15))
    levels = complete_levels([degrees], extra=draw(st.integers(0, 3)))[0]
    return degrees, levels, draw(st.integers(1, 20))


@SETTINGS
@given(rankings())
def test_the_formula(case):
    degrees, levels, n_max = case
    got = measure(f"PRES@{n_max}", batch([degrees], [levels]))[0]
    assert got == pytest.approx(plain_pres(degrees, sum(levels[1:]), n_max), abs=1e-12)


@SETTINGS
@given(st.integers(1, 8), st.integers(0, 8), st.integers(1, 30), st.integers(0, 8))
def test_the_papers_properties(relevant, nonrelevant, n_max, found):
    """1 when every relevant document leads the ranking; 0 when none is among the first
    N_max; the recall f/R when the f found ones lead it."""
    top = [1] * relevant + [0] * nonrelevant
    assert measure(f"PRES@{max(n_max, relevant)}",
                   batch([top], [[nonrelevant, relevant]]))[0] == pytest.approx(1.0)
    late = [0] * n_max + [1] * relevant
    assert measure(f"PRES@{n_max}",
                   batch([late], [[n_max, relevant]]))[0] == pytest.approx(0.0, abs=1e-12)
    found = min(found, relevant, n_max)
    leading = [1] * found + [0] * nonrelevant
    assert measure(f"PRES@{n_max}", batch([leading], [[nonrelevant, relevant]]))[0] == \
        pytest.approx(found / relevant, abs=1e-12)


def test_vectorised_over_rankings_as_one_by_one():
    cases = [([0, 1, 0, 1], [1, 3]), ([1, 1, 0], [1, 2]), ([], [0, 2]), ([0, 0], [2])]
    together = measure("PRES@3", batch([d for d, _ in cases], [lv for _, lv in cases]))
    alone = [measure("PRES@3", batch([d], [lv]))[0] for d, lv in cases]
    np.testing.assert_array_equal(together, alone)


def files(tmp_path):
    """Two topics: 1 with relevant d1, d3 retrieved at ranks 2, 4 and d9 not retrieved;
    2 with its one relevant document d5 at rank 1."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n1 0 d9 1\n2 0 d5 1\n2 0 d6 0\n")
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 d2 1 9 r\n1 Q0 d1 2 8 r\n1 Q0 d7 3 7 r\n1 Q0 d3 4 6 r\n"
                   "2 Q0 d5 1 9 r\n2 Q0 d6 2 8 r\n")
    return str(qrels), str(run)


#: The values of :func:`files` by the test's formula: topic 1 ranks 2 and 4 relevant, R = 3;
#: topic 2 rank 1, R = 1.
def expected(n_max: int) -> dict[str, float]:
    return {"1": plain_pres([0, 1, -1, 2], 3, n_max), "2": plain_pres([1, 0], 1, n_max)}


def test_api(tmp_path):
    qrels, run = files(tmp_path)
    evaluation = irscale.evaluate(qrels, run, ["PRES@10", "PRES@3"])
    per_topic = evaluation.per_topic()
    for n_max in (10, 3):
        values = expected(n_max)
        got = per_topic[per_topic["measure"] == f"PRES@{n_max}"]
        assert dict(zip(got["topic"], got["value"], strict=True)) == pytest.approx(values)
        assert evaluation.mean().loc["run", f"PRES@{n_max}"] == pytest.approx(
            sum(values.values()) / 2)


def test_cli(tmp_path):
    qrels, run = files(tmp_path)
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["eval", "-q", qrels, run, "-m", "PRES@10"]) == 0
    out.flush()
    lines = [line.split("\t") for line in out.buffer.getvalue().decode().splitlines()]
    values = expected(10)
    printed = {topic.strip(): float(value) for name, topic, value in lines}
    assert {name.strip() for name, _, _ in lines} == {"PRES@10"}
    assert printed == pytest.approx({**values, "all": sum(values.values()) / 2}, abs=5e-5)

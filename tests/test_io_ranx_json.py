"""ranx's JSON files and objects both ways (``irscale.io.ranx_json``, ``to_ranx()``): what
ranx saves irscale reads, value for value, and what irscale writes ranx reads back; an
evaluation of ranx's files equals that of the same judgments and scores as TREC text."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irscale
from irscale.io.ranx_json import (
    is_ranx_json,
    ranx_json_bytes,
    read_ranx_qrels,
    read_ranx_run,
    write_ranx_json,
)

from .oracle_imports import lazy_importorskip

ranx = lazy_importorskip("ranx")

ids = st.text(alphabet="abcdefgxyz0123456789_-.", min_size=1, max_size=6)
relevances = st.integers(-2, 5)
#: Doubles that need all 17 digits, within a C float's range (no warning of trec_eval's
#: float ties); every one must come back as the same double.
scores = st.floats(-1e30, 1e30, allow_nan=False, allow_infinity=False).filter(
    lambda v: v == 0 or abs(v) > 1e-30)


def nested(values):
    return st.dictionaries(ids, st.dictionaries(ids, values, min_size=1, max_size=6),
                           min_size=1, max_size=4)


def as_plain(mapping) -> dict:
    """A ranx (numba) mapping as plain dicts."""
    return {str(q): {str(d): v for d, v in docs.items()} for q, docs in mapping.items()}


@settings(max_examples=5, deadline=None)  # ranx builds numba dicts: seconds per example
@given(nested(relevances), nested(scores))
def test_ranx_saves_irscale_reads(tmp_path_factory, judged, scored):
    folder = tmp_path_factory.mktemp("ranx")
    ranx.Qrels(judged).save(str(folder / "q.json"))
    ranx.Run(scored, name="bm25").save(str(folder / "r.json"))
    qrels = irscale.read_qrels(folder / "q.json")
    run = irscale.read_run(folder / "r.json")
    assert qrels.to_dict() == {q: {d: int(v) for d, v in docs.items()}
                               for q, docs in judged.items()}
    assert run.to_dict() == scored  # every double as ranx wrote it
    assert run.name == "r"  # ranx's JSON holds no name: the file's


@settings(max_examples=5, deadline=None)  # ranx builds numba dicts: seconds per example
@given(nested(relevances), nested(scores))
def test_irscale_writes_ranx_reads(tmp_path_factory, judged, scored):
    folder = tmp_path_factory.mktemp("irscale")
    qrels, run = irscale.read_qrels(judged), irscale.read_run(scored)
    write_ranx_json(qrels, folder / "q.json")
    write_ranx_json(run, folder / "r.json")
    assert as_plain(ranx.Qrels.from_file(str(folder / "q.json")).to_dict()) == judged
    assert as_plain(ranx.Run.from_file(str(folder / "r.json")).to_dict()) == scored
    # and back: irscale reads what it wrote
    assert read_ranx_qrels(folder / "q.json").to_dict() == judged
    assert read_ranx_run(folder / "r.json").to_dict() == scored
    assert read_ranx_run(ranx_json_bytes(run), name="x").to_dict() == scored


def test_to_ranx_objects_and_evaluations_agree(tmp_path):
    judged = {"q1": {"d1": 2, "d2": 1, "d3": 0}, "q2": {"d4": 1, "d1": 1}}
    scored = {"q1": {"d1": 0.5, "d2": 0.9, "d5": 0.1}, "q2": {"d4": 2.0, "d7": 1.0}}
    qrels, run = irscale.read_qrels(judged), irscale.read_run(scored, name="bm25")
    rq, rr = qrels.to_ranx(), run.to_ranx()
    assert as_plain(rq.to_dict()) == judged and as_plain(rr.to_dict()) == scored
    assert rr.name == "bm25"
    for ours, theirs in (("AP", "map"), ("nDCG@3", "ndcg@3"), ("P@2", "precision@2")):
        value = float(irscale.evaluate(qrels, run, [ours]).mean().iloc[0, 0])
        assert value == pytest.approx(ranx.evaluate(rq, rr, theirs), abs=1e-12)
    # the files evaluate as the TREC text of the same judgments and scores
    write_ranx_json(qrels, tmp_path / "q.json")
    write_ranx_json(run, tmp_path / "r.json")
    from irscale.io.trec_write import write_qrels, write_run

    write_qrels(qrels, tmp_path / "q.txt")
    write_run(run, tmp_path / "r.txt")
    a = irscale.evaluate(tmp_path / "q.json", tmp_path / "r.json", ["map", "P.1"])
    b = irscale.evaluate(tmp_path / "q.txt", tmp_path / "r.txt", ["map", "P.1"])
    assert a.mean().to_numpy().tolist() == b.mean().to_numpy().tolist()


def test_detection():
    assert is_ranx_json("x.json") and is_ranx_json("x.JSON.gz")
    assert is_ranx_json(b'  \n{"1": {"a": 1}}') and not is_ranx_json(b"1 0 a 1\n")
    assert not is_ranx_json("-")  # standard input: TREC text unless named
    assert math.isclose(read_ranx_run(b'{"1": {"a": 0.1}}').score[0], 0.1)

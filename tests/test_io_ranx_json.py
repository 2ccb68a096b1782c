"""ranx's JSON files and objects both ways (``irscale.io.ranx_json``, ``to_ranx()``): what
ranx saves irscale reads, value for value, and what irscale writes ranx reads back; an
evaluation of ranx's files equals that of the same judgments and scores as TREC text.

ranx's side is recorded (``tests/oracles/ranx_json.py`` writes it to
``tests/fixtures/ranx_json.json``): ranx builds its objects through numba typed dicts,
seconds each and minutes with a cold numba cache (CI's). The files and dicts are ranx's
own; ranx answers again, and any difference from the record fails
:func:`test_the_record_is_ranxs_answer`, where the installed ranx is another release than
the one recorded or ``IRSCALE_REFRESH_ORACLES=1`` is set (ranx is not needed otherwise).
ranx reads a JSON file as ``orjson.loads`` gives it, converted to its typed dicts, which
keep every id and value of the recorded cases: irscale's files are read here by
:func:`_as_ranx_loads` and compared with the dicts ranx gave.
"""

from __future__ import annotations

import json
import math
import sys
from types import ModuleType
from typing import Any

import pytest

import irscale
from irscale.core.extras import RANX
from irscale.io.ranx_json import (
    is_ranx_json,
    ranx_json_bytes,
    read_ranx_qrels,
    read_ranx_run,
    write_ranx_json,
)

from .oracles import ranx_json as oracle
from .oracles.recorded import ask_again


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    """ranx's recorded files and dicts (:func:`tests.oracles.ranx_json.load`)."""
    return oracle.load()


def _refuse(constant: str) -> None:
    raise ValueError(f"{constant}: orjson (ranx's reader) refuses it")


def _as_ranx_loads(data: bytes) -> Any:
    """The JSON text as ranx's reader parses it: UTF-8, no ``NaN`` or ``Infinity``."""
    return json.loads(data.decode("utf-8"), parse_constant=_refuse)


def test_the_record_is_ranxs_answer(recorded):
    """ranx answers the recorded cases as recorded: checked where the installed ranx is not
    the recorded release, or when asked (``IRSCALE_REFRESH_ORACLES=1``)."""
    why = ask_again("ranx", recorded["ranx"])
    if why is None:
        pytest.skip(f"ranx {recorded['ranx']}'s record used (IRSCALE_REFRESH_ORACLES=1 asks "
                    "ranx again)")
    again = oracle.record()
    assert {**again, "ranx": recorded["ranx"]} == recorded, (
        f"ranx answers otherwise than ranx {recorded['ranx']} recorded ({why}; python -m "
        "tests.oracles.ranx_json records it again)")


def test_the_record_holds_the_cases(recorded):
    """The record is of :func:`tests.oracles.ranx_json.cases` (ties, odd ids, 17-digit
    doubles), as JSON keeps them."""
    assert [(case["qrels"], case["run"]) for case in recorded["cases"]] == oracle.cases()


def test_ranx_saves_irscale_reads(recorded, tmp_path):
    for number, case in enumerate(recorded["cases"]):
        folder = tmp_path / str(number)
        folder.mkdir()
        (folder / "q.json").write_bytes(case["saved"]["qrels"].encode("utf-8"))
        (folder / "r.json").write_bytes(case["saved"]["run"].encode("utf-8"))
        assert irscale.read_qrels(folder / "q.json").to_dict() == case["qrels"]
        run = irscale.read_run(folder / "r.json")
        assert run.to_dict() == case["run"]  # every double as ranx wrote it
        assert run.name == "r"  # ranx's JSON holds no name: the file's


def test_irscale_writes_ranx_reads(recorded, tmp_path):
    for number, case in enumerate(recorded["cases"]):
        folder = tmp_path / str(number)
        folder.mkdir()
        judged, scored = case["qrels"], case["run"]
        qrels, run = irscale.read_qrels(judged), irscale.read_run(scored)
        write_ranx_json(qrels, folder / "q.json")
        write_ranx_json(run, folder / "r.json")
        # what ranx read from irscale's files, and what its reader makes of them now
        assert case["read"] == {"qrels": judged, "run": scored}
        assert _as_ranx_loads((folder / "q.json").read_bytes()) == judged
        assert _as_ranx_loads((folder / "r.json").read_bytes()) == scored
        assert _as_ranx_loads(ranx_json_bytes(run)) == scored
        # and back: irscale reads what it wrote
        assert read_ranx_qrels(folder / "q.json").to_dict() == judged
        assert read_ranx_run(folder / "r.json").to_dict() == scored
        assert read_ranx_run(ranx_json_bytes(run), name="x").to_dict() == scored


def test_to_ranx_objects_and_evaluations_agree(recorded, tmp_path, monkeypatch):
    """``to_ranx()`` hands ranx the judgments and scores as dicts (a stand-in of ranx here
    takes them), which ranx keeps as they are; ranx's recorded means of those objects are
    irscale's."""
    judged, scored = oracle.TO_RANX
    theirs = recorded["to_ranx"]
    stand_in = ModuleType("ranx")  # what ``import ranx`` gives: no numba
    stand_in.__dict__.update(Qrels=lambda d: ("Qrels", d), Run=lambda d, name: ("Run", d, name))
    monkeypatch.setitem(sys.modules, RANX.module, stand_in)
    qrels, run = irscale.read_qrels(judged), irscale.read_run(scored, name="bm25")
    assert qrels.to_ranx() == ("Qrels", judged) and theirs["qrels"] == judged
    assert run.to_ranx() == ("Run", scored, "bm25") and theirs["run"] == scored
    for name, ours in oracle.MEASURES.items():
        value = float(irscale.evaluate(qrels, run, [ours]).mean().iloc[0, 0])
        assert value == pytest.approx(theirs["means"][name], abs=1e-12)
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

"""One input owner (:mod:`irscale.io.sources`): every kind of qrels or run spec is accepted,
or refused, alike by every entry point (``read_qrels``, ``read_run``, ``evaluate``,
``evaluate_many``), and io's readers are leaves that form no import cycle.

The expected values come from the data written here, not from irscale: qrels ``1: d1=1,
d2=0; 2: d3=1`` and a run ranking d2 above d1 on topic 1 and d3 alone on topic 2 give
P@1 = (0, 1) and AP = (1/2, 1) by the definitions (trec_eval's P and AP).
"""

from __future__ import annotations

import collections
import gzip
import io
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import irscale
from irscale.errors import FileAccessError, InputError
from irscale.evaluation.many import evaluate_many
from irscale.io.sources import call_inputs, input_files

from .docs_examples import check_python_examples
from .irds_mock import register
from .test_layers import MODULES, _imports

QRELS = b"1 0 d1 1\n1 0 d2 0\n2 0 d3 1\n"
RUN = b"1 Q0 d2 1 2.0 r\n1 Q0 d1 2 1.0 r\n2 Q0 d3 1 1.0 r\n"
#: The qrels as (topic, docno, rel) rows and the run as (topic, docno, score) rows.
QRELS_ROWS = [("1", "d1", 1), ("1", "d2", 0), ("2", "d3", 1)]
RUN_ROWS = [("1", "d2", 2.0), ("1", "d1", 1.0), ("2", "d3", 1.0)]
#: P@1 and AP per topic (1, 2), by hand, and their means (evaluate_many keeps those).
EXPECTED = {"P@1": [0.0, 1.0], "AP": [0.5, 1.0]}
MEANS = {"P@1": 0.5, "AP": 0.75}

TrecQrel = collections.namedtuple("TrecQrel", "query_id doc_id relevance iteration")
ScoredDoc = collections.namedtuple("ScoredDoc", "query_id doc_id score")


class Qrels:
    """A stand-in for ranx's ``Qrels`` (ranx keeps ``{topic: {docno: rel}}`` in ``.qrels``
    and names it in ``.name``; ``to_dict()`` gives plain dicts)."""

    def __init__(self, qrels: dict, name: str | None = None) -> None:
        self.qrels, self.name = qrels, name

    def to_dict(self) -> dict:
        return {topic: dict(docs) for topic, docs in self.qrels.items()}


class Run:
    """A stand-in for ranx's ``Run`` (``.run``, ``.name``; no ``to_dict``, as an older
    object might have)."""

    def __init__(self, run: dict, name: str | None = None) -> None:
        self.run, self.name = run, name


def _irds_formats() -> Any:
    """ir_datasets' namedtuples (``TrecQrel``, ``GenericScoredDoc``), where installed."""
    pytest.importorskip("ir_datasets")
    from ir_datasets import formats

    return formats


def _load(dataset_id: str) -> Any:
    """The ir_datasets dataset object of a registered id."""
    return pytest.importorskip("ir_datasets").load(dataset_id)


def _dict(rows: list[tuple]) -> dict:
    out: dict = {}
    for topic, doc, value in rows:
        out.setdefault(topic, {})[doc] = value
    return out


@pytest.fixture
def place(tmp_path: Path) -> Path:
    (tmp_path / "qrels").write_bytes(QRELS)
    (tmp_path / "qrels.gz").write_bytes(gzip.compress(QRELS))
    (tmp_path / "r.run").write_bytes(RUN)
    (tmp_path / "r.run.gz").write_bytes(gzip.compress(RUN))
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "r.run").write_bytes(RUN)
    frame = pd.DataFrame(RUN_ROWS, columns=["query_id", "doc_id", "score"])
    frame.to_parquet(tmp_path / "r.parquet")
    return tmp_path


#: Qrels specs, each made afresh (streams and iterators are read once), by kind.
QRELS_SPECS: dict[str, Callable[[Path], Any]] = {
    "path": lambda d: str(d / "qrels"),
    "pathlib": lambda d: d / "qrels",
    "gzip": lambda d: str(d / "qrels.gz"),
    "bytes": lambda d: QRELS,
    "bytearray": lambda d: bytearray(QRELS),
    "memoryview": lambda d: memoryview(QRELS),
    "binary-stream": lambda d: io.BytesIO(QRELS),
    "binary-file": lambda d: open(d / "qrels", "rb"),
    "text-stream": lambda d: io.StringIO(QRELS.decode()),
    "text-file": lambda d: open(d / "qrels", encoding="utf-8"),
    "frame": lambda d: pd.DataFrame(QRELS_ROWS, columns=["query_id", "doc_id", "relevance"]),
    "frame-trec-names": lambda d: pd.DataFrame(QRELS_ROWS, columns=["qid", "docno", "rel"]),
    "frame-pyterrier": lambda d: pd.DataFrame(QRELS_ROWS, columns=["qid", "docno", "label"]),
    "frame-ranx": lambda d: pd.DataFrame(QRELS_ROWS, columns=["q_id", "doc_id", "score"]),
    "frame-ranx-rel": lambda d: pd.DataFrame(QRELS_ROWS, columns=["q_id", "doc_id", "rel"]),
    "dict": lambda d: _dict(QRELS_ROWS),
    "records": lambda d: [TrecQrel(t, doc, rel, "0") for t, doc, rel in QRELS_ROWS],
    "records-iterator": lambda d: iter([TrecQrel(t, doc, rel, "0") for t, doc, rel in
                                        QRELS_ROWS]),
    "ir_measures": lambda d: [pytest.importorskip("ir_measures").Qrel(*row)
                              for row in QRELS_ROWS],
    "ir_datasets": lambda d: [_irds_formats().TrecQrel(t, doc, rel, "0")
                              for t, doc, rel in QRELS_ROWS],
    "ranx": lambda d: Qrels(_dict(QRELS_ROWS)),
    "irscale": lambda d: irscale.read_qrels(QRELS),
    "irds": lambda d: "irds:" + register(qrels=d / "qrels"),
    "irds-dataset": lambda d: _load(register(qrels=d / "qrels")),
}

#: Run specs that hold one run, by kind.
RUN_SPECS: dict[str, Callable[[Path], Any]] = {
    "path": lambda d: str(d / "r.run"),
    "pathlib": lambda d: d / "r.run",
    "gzip": lambda d: str(d / "r.run.gz"),
    "parquet": lambda d: str(d / "r.parquet"),
    "bytes": lambda d: RUN,
    "bytearray": lambda d: bytearray(RUN),
    "memoryview": lambda d: memoryview(RUN),
    "binary-stream": lambda d: io.BytesIO(RUN),
    "text-stream": lambda d: io.StringIO(RUN.decode()),
    "frame": lambda d: pd.DataFrame(RUN_ROWS, columns=["query_id", "doc_id", "score"]),
    "frame-pyterrier": lambda d: pd.DataFrame(
        [(t, doc, score, rank) for rank, (t, doc, score) in enumerate(RUN_ROWS)],
        columns=["qid", "docno", "score", "rank"]),
    "frame-ranx": lambda d: pd.DataFrame(RUN_ROWS, columns=["q_id", "doc_id", "score"]),
    "dict": lambda d: _dict(RUN_ROWS),
    "records": lambda d: [ScoredDoc(*row) for row in RUN_ROWS],
    "ir_measures": lambda d: [pytest.importorskip("ir_measures").ScoredDoc(*row)
                              for row in RUN_ROWS],
    "ir_datasets": lambda d: [_irds_formats().GenericScoredDoc(*row) for row in RUN_ROWS],
    "ranx": lambda d: Run(_dict(RUN_ROWS), name="r"),
    "irscale": lambda d: irscale.read_run(RUN),
    "irds": lambda d: "irds:" + register(scoreddocs=d / "r.run"),
    "irds-dataset": lambda d: _load(register(scoreddocs=d / "r.run")),
}

#: Specs that are no qrels and no run: refused alike everywhere.
REFUSED: dict[str, Callable[[Path], Any]] = {
    "none": lambda d: None,
    "int": lambda d: 3,
    "float": lambda d: 2.5,
    "object": lambda d: object(),
}


@pytest.fixture(autouse=True)
def _ir_datasets_home(tmp_path, monkeypatch):
    """Whatever ir_datasets would write goes to a temporary folder, not the user's home."""
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "ir_datasets_home"))


def _rows(data) -> list[tuple]:
    values = data.rel.tolist() if hasattr(data, "rel") else data.score.tolist()
    return list(zip(data.topic.to_pylist(), data.docno.to_pylist(), values, strict=True))


def _values(evaluation) -> dict[str, list[float]]:
    frame = evaluation.per_topic()
    return {measure: part.sort_values("topic")["value"].tolist()
            for measure, part in frame.groupby("measure")}


def _means(evaluation) -> dict[str, float]:
    return {measure: float(value) for measure, value in evaluation.mean().iloc[0].items()}


def _evaluate(qrels, run) -> dict[str, list[float]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. a file and a DataFrame name no run alike
        return _values(irscale.evaluate(qrels, run, ["P@1", "AP"]))


@pytest.mark.parametrize("kind", sorted(QRELS_SPECS))
@pytest.mark.parametrize("entry", ["read_qrels", "evaluate", "evaluate_many"])
def test_every_qrels_spec_is_read_alike_everywhere(place, kind, entry):
    """read_qrels, evaluate and evaluate_many read every kind of qrels spec to the same
    judgments and the same scores."""
    spec = QRELS_SPECS[kind](place)
    try:
        if entry == "read_qrels":
            assert _rows(irscale.read_qrels(spec)) == QRELS_ROWS
        elif entry == "evaluate":
            assert _evaluate(spec, RUN) == EXPECTED
        else:
            many = evaluate_many(spec, place / "runs", ["P@1", "AP"])
            assert _means(many) == MEANS
    finally:
        if hasattr(spec, "close"):
            spec.close()


@pytest.mark.parametrize("kind", sorted(RUN_SPECS))
@pytest.mark.parametrize("entry", ["read_run", "evaluate", "read_runs"])
def test_every_run_spec_is_read_alike_everywhere(place, kind, entry):
    """read_run, evaluate and read_runs (an item of a list) read every kind of run spec to
    the same rows and the same scores."""
    spec = RUN_SPECS[kind](place)
    if entry == "read_run":
        assert _rows(irscale.read_run(spec)) == RUN_ROWS
    elif entry == "read_runs":
        assert [_rows(run) for run in irscale.read_runs([spec])] == [RUN_ROWS]
    else:
        assert _evaluate(QRELS, spec) == EXPECTED


@pytest.mark.parametrize("kind", ["folder", "glob"])
@pytest.mark.parametrize("entry", ["evaluate", "evaluate_many", "read_runs"])
def test_folders_and_patterns_are_run_files_everywhere(place, kind, entry):
    """A folder or a glob pattern stands for its run files wherever several runs are read;
    read_run, which reads one, reads it as a file (and says why it cannot)."""
    spec = str(place / "runs") if kind == "folder" else str(place / "runs" / "*.run")
    if entry == "evaluate":
        assert _evaluate(QRELS, spec) == EXPECTED
    elif entry == "evaluate_many":
        assert _means(evaluate_many(QRELS, spec, ["P@1", "AP"])) == MEANS
    else:
        assert [_rows(run) for run in irscale.read_runs(spec)] == [RUN_ROWS]
    with pytest.raises(FileAccessError, match="runs"):
        irscale.read_run(spec)


#: The specs a command line can give (strings), as a function of the test's folder.
CLI_SPECS: dict[str, Callable[[Path], tuple[str, str]]] = {
    "path": lambda d: (str(d / "qrels"), str(d / "r.run")),
    "gzip": lambda d: (str(d / "qrels.gz"), str(d / "r.run.gz")),
    "parquet": lambda d: (str(d / "qrels"), str(d / "r.parquet")),
    "folder": lambda d: (str(d / "qrels"), str(d / "runs")),
    "glob": lambda d: (str(d / "qrels"), str(d / "runs" / "*.run")),
    "irds": lambda d: ("irds:" + register(qrels=d / "qrels"),
                       "irds:" + register(scoreddocs=d / "r.run")),
}


@pytest.mark.parametrize("kind", sorted(CLI_SPECS))
def test_the_command_line_reads_its_specs_as_the_api(place, kind):
    """irscale eval -q on every kind of spec a command line names: the per-topic values
    of the API (by hand: EXPECTED), as trec_eval prints them."""
    from .test_cli_eval import cli

    qrels, run = CLI_SPECS[kind](place)
    status, out, err = cli(["eval", "-q", "-m", "P@1", "-m", "AP", qrels, run])
    assert status == 0, err
    values = {(line.split()[0], line.split()[1]): float(line.split()[2])
              for line in out.splitlines() if line.split()[1] != "all"}
    assert [values[("P@1", topic)] for topic in ("1", "2")] == EXPECTED["P@1"]
    assert [values[("AP", topic)] for topic in ("1", "2")] == EXPECTED["AP"]


def _refusal(call: Callable[[], Any]) -> tuple[type, str]:
    """The class of the error ``call`` raises and its message without the entry point."""
    with pytest.raises(InputError) as caught:
        call()
    message = str(caught.value)
    for prefix in ("read_qrels: ", "read_run: ", "read_runs: item 1: "):
        message = message.removeprefix(prefix)
    for argument in ("source: ", "qrels: ", "runs: "):  # the argument named (errors.md, 8)
        message = message.removeprefix(argument)
    return type(caught.value), message


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_what_is_no_spec_is_refused_alike_everywhere(place, kind):
    """One refusal, with one message, whatever the entry point (named first when the
    caller named one)."""
    spec = REFUSED[kind](place)
    qrels = {_refusal(lambda: irscale.read_qrels(spec)),
             _refusal(lambda: irscale.evaluate(spec, RUN, "P@1")),
             _refusal(lambda: evaluate_many(spec, place / "runs", "P@1"))}
    assert len(qrels) == 1
    (error, message), = qrels
    assert error is InputError and message.startswith("expected qrels (a file path")
    runs = {_refusal(lambda: irscale.read_run(spec)),
            _refusal(lambda: irscale.read_runs([spec])),
            _refusal(lambda: irscale.evaluate(QRELS, spec, "P@1"))}
    assert len(runs) == 1
    (error, message), = runs
    assert error is InputError and message.startswith("expected a run (a file path")


@pytest.mark.parametrize("kind", ["bytes", "binary-stream", "text-stream", "frame", "dict",
                                  "records"])
def test_evaluate_many_reads_run_files_only(place, kind):
    """evaluate_many reads its runs from files, batch by batch (a Dask worker opens them by
    path): a run held in memory is refused by name, pointing to irscale.evaluate."""
    with pytest.raises(irscale.errors.ParameterError, match=r"irscale\.evaluate"):
        evaluate_many(QRELS, RUN_SPECS[kind](place), "P@1")


def test_a_mapping_names_its_runs_whatever_their_kind(place):
    """{name: run spec} takes any one-run spec as a value, in evaluate and read_runs."""
    specs = {kind: RUN_SPECS[kind](place) for kind in ("path", "parquet", "frame", "dict",
                                                        "ranx", "records", "bytes")}
    runs = irscale.read_runs(dict(specs))
    assert [run.name for run in runs] == list(specs)
    assert all(_rows(run) == RUN_ROWS for run in runs)
    for read in (irscale.read_runs, lambda runs: irscale.evaluate(QRELS, runs, "P@1")):
        with pytest.raises(FileAccessError, match="runs"):  # a value is one run: one file
            read({"x": str(place / "runs")})
        with pytest.raises(InputError, match="run 'x': expected a run"):
            read({"x": 3})


def test_read_run_refuses_several_runs(place):
    """A list, a mapping {name: run} or a DataFrame holding two runs is not one run."""
    frame = pd.DataFrame([(*row, name) for name in "xy" for row in RUN_ROWS],
                         columns=["query_id", "doc_id", "score", "run"])
    assert [run.name for run in irscale.read_runs([frame])] == ["x", "y"]
    for several in ([RUN, RUN], {"x": RUN, "y": RUN}, frame):
        with pytest.raises(InputError, match=r"read_run: source: expected one run.*read_runs"):
            irscale.read_run(several)


def test_ranx_objects_are_known_by_their_mappings():
    """ranx's Qrels and Run (not a dependency) are known by their class name and the
    mapping they hold; an object without ranx's compiled columns is read from it. (The same
    with ranx's own objects: tests/test_neighbours.py, where every test of them runs in
    one process, which compiles ranx's numba code once.)"""
    assert irscale.read_qrels(Qrels({"1": {"d": 1}})).rel.tolist() == [1]
    with pytest.raises(InputError, match="expected qrels"):
        irscale.read_qrels(Run({"1": {"d": 1.0}}))
    assert irscale.read_run(Run(_dict(RUN_ROWS), name="bm25")).name == "bm25"
    assert irscale.read_run(Run(_dict(RUN_ROWS))).name == "run"


def test_the_files_a_spec_reads(place, monkeypatch):
    """What an output is compared with: a path, the files of a folder or pattern (named
    with how they were found), nothing for '-', irds: and objects."""
    monkeypatch.chdir(place)
    assert [f.path for f in input_files("qrels")] == ["qrels"]
    assert [(f.path, f.how) for f in input_files("runs", "RUN")] == [
        (os.path.join("runs", "r.run"), "RUN in folder runs")]
    for spec in ("-", "irds:x/y", QRELS, io.BytesIO(QRELS), {"1": {"d": 1}}):
        assert list(input_files(spec)) == []
    inputs = call_inputs(["qrels", ("runs/*.run", "RUN"), RUN])
    assert inputs.named_by("./runs/r.run").how == "RUN matched by runs/*.run"
    assert inputs.named_by("qrels.gz") is None


def test_the_inputs_page_example():
    """docs/inputs.md's example prints what the page shows (the values by hand there)."""
    check_python_examples("inputs.md")


# ------------------------------------------------------------------------ import graph
IO = {name: path for name, path in MODULES if name.startswith("irscale.io.")}
#: The readers :mod:`irscale.io.sources` chooses between.
READERS = {"irscale.io.trec", "irscale.io.memory", "irscale.io.irds", "irscale.io.run_parquet"}
#: Imports between readers, each with its reason. Keep it short.
READER_IMPORTS = {
    ("irscale.io.run_parquet", "irscale.io.memory"):
        "a Parquet run's columns are named as a DataFrame's and assembled into a Run by the "
        "same code (column names, finite scores, duplicates)",
}


def _graph() -> dict[str, set[str]]:
    return {name: {target for _, target in _imports(name, path)
                   if target in IO and target != name} for name, path in IO.items()}


def test_io_modules_form_no_import_cycle():
    """Every import counted (module level, in functions, under TYPE_CHECKING)."""
    graph = _graph()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            cycle = [*path[path.index(module):], module]
            pytest.fail("import cycle in io: " + " -> ".join(cycle))
        if module in done:
            return
        for target in sorted(graph[module]):
            visit(target, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_readers_are_leaves_of_the_input_owner():
    """No reader imports the owner or another reader (but the documented pairs)."""
    graph = _graph()
    for reader in sorted(READERS):
        for target in sorted(graph[reader] & (READERS | {"irscale.io.sources"})):
            assert (reader, target) in READER_IMPORTS, f"{reader} imports {target}"
    assert READERS <= graph["irscale.io.sources"]

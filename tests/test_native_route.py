"""The engine judges evaluations of TREC files (:mod:`irscale.io.native_inputs`): the decision
for every kind of input, the engine path taken (the Python judge never called) with values
worked by hand, and the Python path kept for everything else."""

from __future__ import annotations

import gzip
import io
import warnings
from contextlib import redirect_stderr, redirect_stdout

import pandas as pd
import pytest

import irscale
import irscale.evaluation.judged as evaluation
import irscale.evaluation.many as evaluation_many
from irscale.cli.main import main
from irscale.errors import InputFormatError
from irscale.io.native_inputs import PYTHON_INPUTS, NativeInputs, native_inputs

QRELS = "1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n2 0 d5 1\n2 0 d1 0\n"
# worked by hand: bm25's AP is 1/2 on topic 1 (d1 at 1, d3 missed), 1 on topic 2 (map 0.75);
# ql ranks d3 before d1 on topic 1 and d5 before d1 on topic 2 (equal scores, docno
# descending, trec_eval's order): AP 1 and 1, P@2 1 and 1/2
BM25 = "1 Q0 d1 1 3.0 bm25\n1 Q0 d2 2 2.0 bm25\n1 Q0 d4 3 1.0 bm25\n" \
       "2 Q0 d5 1 1.0 bm25\n2 Q0 d1 2 0.5 bm25\n"
QL = "1 Q0 d1 1 2.0 ql\n1 Q0 d3 2 2.0 ql\n2 Q0 d1 1 1.0 ql\n2 Q0 d5 2 1.0 ql\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    with gzip.open(tmp_path / "qrels.gz", "wt") as out:
        out.write(QRELS)
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "bm25.run").write_text(BM25)
    with gzip.open(runs / "ql.run.gz", "wt") as out:
        out.write(QL)
    return tmp_path


@pytest.fixture
def no_python_judge(monkeypatch):
    """Fail if the Python readers or judge are used."""
    def refused(*args, **kwargs):
        raise AssertionError("the Python judge was called for TREC files")

    for name in ("build_judged_rankings", "as_qrels", "as_runs"):
        monkeypatch.setattr(evaluation, name, refused)
    for name in ("as_qrels", "read_run_file"):
        monkeypatch.setattr(evaluation_many, name, refused)


def test_the_decision_for_trec_files(files):
    qrels, runs = str(files / "qrels"), files / "runs"
    single = native_inputs(qrels, runs / "bm25.run")
    assert isinstance(single, NativeInputs) and not single.listed and not single.folders
    assert single.qrels_name == qrels
    found = native_inputs(files / "qrels.gz", [runs / "bm25.run", runs])
    assert isinstance(found, NativeInputs)
    assert [spec for _, spec in found.runs] == [runs / "bm25.run", str(runs / "bm25.run"),
                                                str(runs / "ql.run.gz")]
    assert found.folders == ((1, 3),) and found.listed
    globbed = native_inputs(qrels, str(runs / "*.gz"))
    assert isinstance(globbed, NativeInputs) and len(globbed.runs) == 1
    named = native_inputs(qrels, {"a": runs / "bm25.run", "b": BM25.encode()})
    assert isinstance(named, NativeInputs) and named.names == ("a", "b")
    assert named.runs[1] == ("bytes", BM25.encode())
    memory = native_inputs(QRELS.encode(), bytearray(BM25.encode()))
    assert isinstance(memory, NativeInputs) and memory.qrels_name == "<bytes>"
    stdin = native_inputs("-", runs / "bm25.run")
    assert isinstance(stdin, NativeInputs) and stdin.qrels_name == "<stdin>"


def test_the_decision_for_other_inputs(files, tmp_path):
    qrels, run = str(files / "qrels"), str(files / "runs" / "bm25.run")
    frame = pd.DataFrame({"query_id": ["1"], "doc_id": ["d1"], "score": [1.0]})
    pd.DataFrame({"query_id": ["1"], "doc_id": ["d1"], "score": [1.0]}).to_parquet(
        tmp_path / "r.parquet")
    (tmp_path / "q.json").write_text('{"1": {"d1": 1}}')
    (tmp_path / "r.json").write_text('{"1": {"d1": 1.0}}')
    cases = {
        "duplicates": native_inputs(qrels, run, duplicates="max"),
        "labels": native_inputs(qrels, run, labels={"under": qrels}),
        "scores": native_inputs(qrels, run, scores=True),
        "qrels": [native_inputs(q, run) for q in (
            {"1": {"d1": 1}}, irscale.read_qrels(qrels), "irds:vaswani", io.BytesIO(b""),
            frame)],
        "runs": [native_inputs(qrels, r) for r in (
            frame, {"1": {"d1": 1.0}}, irscale.read_run(run), [[run]], [], io.BytesIO(b""),
            [run, frame], "irds:vaswani")],
        "parquet": native_inputs(qrels, [run, tmp_path / "r.parquet"]),
        "ranx-json": [native_inputs(tmp_path / "q.json", run),
                      native_inputs(qrels, [run, tmp_path / "r.json"]),
                      native_inputs(b'{"1": {"d1": 1}}', run)],
        "dicts": [native_inputs(q, r, ties=ties) for q, r, ties in (
            ({"1": {"d1": 1}}, {"1": {"d1": 1.0}}, "rank-column"),
            ({"1": {"d1": 1.5}}, {"1": {"d1": 1.0}}, "trec_eval"),
            ({1: {"d1": 1}}, {"1": {"d1": 1.0}}, "trec_eval"),
            ({"1": {"d1": 1}}, {"1": {"d1": float("nan")}}, "trec_eval"))],
        "unreadable": [native_inputs(tmp_path / "missing", run),
                       native_inputs(qrels, [run, tmp_path / "missing"]),
                       native_inputs(qrels, str(tmp_path / "none*.run")),
                       native_inputs(qrels, {"a": files / "runs"})],
    }
    assert set(cases) == set(PYTHON_INPUTS)
    for why, answers in cases.items():
        assert (answers if isinstance(answers, list) else [answers]) == \
            [why] * (len(answers) if isinstance(answers, list) else 1), why


def test_evaluate_takes_the_engine_path(files, no_python_judge):
    runs = files / "runs"
    ev = irscale.evaluate(files / "qrels", [runs / "bm25.run", runs / "ql.run.gz"],
                          ["map", "P@2"])
    assert ev.runs == ("bm25", "ql") and ev.rows.topics == ("1", "2")
    assert ev.mean().to_dict("index") == {"bm25": {"map": 0.75, "P@2": 0.5},
                                          "ql": {"map": 1.0, "P@2": 0.75}}
    folder = irscale.evaluate(str(files / "qrels.gz"), runs, "map")
    assert folder.mean()["map"].tolist() == [0.75, 1.0]
    named = irscale.evaluate(QRELS.encode(), {"x": BM25.encode()}, "map")
    assert named.runs == ("x",) and named.mean()["map"].tolist() == [0.75]


def test_cli_eval_and_eval_many_take_the_engine_path(files, no_python_judge, tmp_path):
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["eval", str(files / "qrels"), str(files / "runs" / "bm25.run"),
                     "-m", "map", "-q"]) == 0
    out.flush()
    lines = [line.split() for line in out.buffer.getvalue().decode().splitlines()]
    assert lines == [["map", "1", "0.5000"], ["map", "2", "1.0000"], ["map", "all", "0.7500"]]
    many = irscale.evaluate_many(files / "qrels", files / "runs", ["map"], batch_size=1,
                                 names="runid")
    assert many.mean().to_dict("index") == {"bm25": {"map": 0.75}, "ql": {"map": 1.0}}


def test_runs_sharing_a_run_id_are_named_after_their_files(files, tmp_path,
                                                           no_python_judge, monkeypatch):
    (tmp_path / "a.run").write_text(BM25)
    (tmp_path / "b.run").write_text(BM25.replace("d1 1 3.0", "d1 1 0.1"))
    paths = [tmp_path / "a.run", tmp_path / "b.run"]
    # the default names every run after its file, on the engine's path: nothing to warn
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = irscale.evaluate(files / "qrels", paths, "map")
    # b ranks d1 last on topic 1: AP (1/3)/2
    assert ev.runs == ("a", "b")
    assert ev.mean()["map"].round(6).tolist() == [0.75, round((1 / 6 + 1) / 2, 6)]
    # under the run-id rule (judged by the engine too), the runs that share one are named
    # after their files, with a warning
    with pytest.warns(UserWarning, match="2 runs share a run id with another run \\('bm25' ×2\\)"):
        ev = irscale.evaluate(files / "qrels", paths, "map", names="runid")
    assert ev.runs == ("a", "b")
    assert ev.mean()["map"].round(6).tolist() == [0.75, round((1 / 6 + 1) / 2, 6)]


def test_runs_named_by_a_rule_take_the_engine_path(files, no_python_judge):
    # run files (a folder, a list) named by run id or one name each: read and judged by
    # the engine, the names the only difference from the runs named by their files
    runs = files / "runs"
    by_file = irscale.evaluate(files / "qrels", runs, ["map", "P@2"])
    for spec, names, expected in ((runs, "runid", ("bm25", "ql")),
                                  ([runs / "bm25.run", runs / "ql.run.gz"], ["x", "y"],
                                   ("x", "y")),
                                  (str(runs / "*.run*"), "file", ("bm25", "ql"))):
        ev = irscale.evaluate(files / "qrels", spec, ["map", "P@2"], names=names)
        assert ev.runs == expected
        assert ev.mean().values.tolist() == by_file.mean().values.tolist()
    with pytest.raises(irscale.errors.ParameterError, match="'x' is given twice"):
        irscale.evaluate(files / "qrels", runs, "map", names=["x", "x"])


def test_cli_names_take_the_engine_path(files, no_python_judge, monkeypatch):
    # --names: the files and the rule handed over, not read by the Python readers first
    import irscale.io.sources as sources

    def refused(*args, **kwargs):
        raise AssertionError("the Python run readers were called")

    monkeypatch.setattr(sources, "read_runs", refused)
    outputs = []
    for names in ([], ["--names", "runid"], ["--names", "x,y"]):
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            assert main(["eval", str(files / "qrels"), str(files / "runs"), "-m", "map",
                         "-q", *names]) == 0
        out.flush()
        outputs.append(out.buffer.getvalue().decode())
    # the files' stems are their run ids (bm25, ql): one name per line of each run
    assert outputs[0].count("\tbm25\n") == 3 and outputs[0].count("\tql\n") == 3
    assert outputs[1] == outputs[0]
    assert outputs[2] == outputs[0].replace("\tbm25\n", "\tx\n").replace("\tql\n", "\ty\n")


def test_complete_num_rel_totals_from_the_engine(files, no_python_judge):
    # trec_eval 9.0.8 with -c: num_rel's summary counts the 3 judgments > 0 of every
    # qrels topic whatever -l (topic 2 is missed by the run)
    run = "1 Q0 d1 1 1.0 r\n"
    with pytest.warns(UserWarning, match="counts the 3 judgments > 0"):
        ev = irscale.evaluate(files / "qrels", {"r": run.encode()}, ["num_rel", "NumRel(rel=2)"],
                              complete=True, relevance_level=2)
    assert ev.mean().loc["r"].tolist() == [3, 1]


def test_other_inputs_keep_the_python_path(files, monkeypatch):
    called = []
    python_judge = evaluation.build_judged_rankings

    def counted(*args, **kwargs):
        called.append(True)
        return python_judge(*args, **kwargs)

    def refused(*args, **kwargs):
        raise AssertionError("the engine was called")

    monkeypatch.setattr(evaluation, "build_judged_rankings", counted)
    monkeypatch.setattr(evaluation, "judge_native", refused)
    frame = irscale.read_run(BM25.encode()).to_frame()
    ev = irscale.evaluate(files / "qrels", frame, "map")
    assert called and ev.mean()["map"].tolist() == [0.75]
    called.clear()
    with pytest.warns(UserWarning, match="label set"):
        labelled = irscale.evaluate(files / "qrels", files / "runs" / "bm25.run", "map",
                                    labels={"under": files / "qrels"})
    assert called
    assert labelled.mean()["map"].tolist() == [0.75]


def test_a_missing_run_file_keeps_the_reading_order(files, tmp_path):
    (tmp_path / "bad").write_text("1 0 d1\n")
    with pytest.raises(InputFormatError, match="bad, line 1"):
        irscale.evaluate(tmp_path / "bad", [files / "runs" / "bm25.run", tmp_path / "none"],
                         "map")


def test_warnings_and_names_in_reading_order(files, tmp_path, no_python_judge):
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a.run").write_text("1 Q0 d1 1 3.0 s\n")
    (folder / "b.run").write_text("1 Q0 d3 1 3.0 s\n")
    (tmp_path / "two.run").write_text("1 Q0 d1 1 3.0 u\n1 Q0 d3 2 2.0 v\n")
    (tmp_path / "bad.run").write_text("1 Q0 d1 1 abc x\n")
    with pytest.warns(UserWarning) as caught, pytest.raises(InputFormatError,
                                                            match=r"bad\.run, line 1"):
        irscale.evaluate(files / "qrels", [tmp_path / "two.run", folder, tmp_path / "bad.run"],
                         "map")
    # the runs are named once every run is read (one rule over all of them): bad.run's
    # error comes before any naming
    assert [str(w.message)[:40] for w in caught] == [
        f"{tmp_path / 'two.run'}: 2 different run ids"[:40]]


def test_runs_and_qrels_from_standard_input(files, monkeypatch, no_python_judge):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(gzip.compress(BM25.encode()))))
    ev = irscale.evaluate(files / "qrels", "-", "map")
    assert ev.runs == ("bm25",) and ev.mean()["map"].tolist() == [0.75]


def test_the_engine_reads_files_by_their_paths(files, tmp_path):
    from irscale.errors import FileAccessError
    from irscale.io.native_trec import judge_trec

    qrels = (files / "qrels", str(files / "qrels"))
    runs = [(files / "runs" / "ql.run.gz", "ql.run.gz"), (BM25.encode(), "<bytes>")]
    jr = judge_trec(qrels, runs)
    assert jr.runs == ("ql", "bm25") and jr.topics == ("1", "2")
    missing = tmp_path / "missing.run"
    with pytest.raises(FileAccessError) as python:
        irscale.read_run(missing)
    with pytest.raises(FileAccessError) as engine:
        judge_trec(qrels, [(missing, str(missing))])
    assert str(engine.value) == str(python.value)
    (tmp_path / "cut.gz").write_bytes(gzip.compress(QL.encode())[:-6])
    with pytest.raises(InputFormatError) as python:
        irscale.read_run(tmp_path / "cut.gz")
    with pytest.raises(InputFormatError) as engine:
        judge_trec(qrels, [(tmp_path / "cut.gz", str(tmp_path / "cut.gz"))])
    assert str(engine.value) == str(python.value)


def _runid_lines_by_replace(text: bytes, names: list[str], runids: list[str]) -> bytes:
    """The rule of ``runid_lines``: each run's first line ``runid all NAME NAME`` printed
    with its run id (one replace per run)."""
    label = b"runid                 \tall\t"
    for name, runid in zip(names, runids, strict=True):
        if name != runid:
            suffix = f"\t{name}\n".encode()
            text = text.replace(label + name.encode() + suffix,
                                label + runid.encode() + suffix, 1)
    return text


def test_runid_lines_rewrite_each_runs_first_line_in_one_pass():
    from irscale.evaluation.trec_text import runid_lines

    label = "runid                 \tall\t"
    names = ["a", "ab", "run_1", "x"]
    runids = ["teamA", "ab", "r1", "teamX"]
    body = "".join(f"{label}{n}\t{n}\nmap                   \tall\t0.5000\t{n}\n" for n in names)
    cases = [body, body + f"{label}a\ta\n", f"{label}x\tx", body.replace(f"{label}ab\tab\n", ""),
             "", "no runid line\n", f"{label}a\tab\n{label}ab\tab\n" + body]
    for text in cases:
        expected = _runid_lines_by_replace(text.encode(), names, runids)
        assert runid_lines(text.encode(), names, runids) == expected, text
    assert runid_lines(body.encode(), names, runids).count(b"\tall\tteamA\ta\n") == 1

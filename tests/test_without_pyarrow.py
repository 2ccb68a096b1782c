"""irscale evaluates without pyarrow installed: ``irscale.evaluate`` and ``irscale eval`` on
TREC files (through the engine, and through the Python readers), dicts of dicts and pandas
DataFrames, in an interpreter in which importing pyarrow raises (a meta path finder, as in
``tests/test_startup.py``), give pytrec_eval's values (trec_eval 9.0.8's code: the
independent oracle).

The inputs have graded and negative judgments, tied scores, topics on one side only and
a run that lists a topic's lines apart (the readers group them).
"""

from __future__ import annotations

import gzip
import json
import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytrec_eval = pytest.importorskip("pytrec_eval")

#: trec_eval's names of the measures compared, as pytrec_eval names them.
MEASURES = ["map", "P_5", "ndcg", "ndcg_cut_10", "recip_rank", "bpref", "num_rel_ret",
            "Rprec"]

#: Run one case of ``CASES`` with pyarrow blocked; print ``{topic: {measure: value}}``.
_SCRIPT = textwrap.dedent("""
    import importlib.abc, json, sys

    class NoPyarrow(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "pyarrow" or name.startswith("pyarrow."):
                raise ImportError(f"{name} is blocked")

    sys.meta_path.insert(0, NoPyarrow())
    import contextlib, io
    case, qrels_path, run_path, measures = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

    def lines(path, columns):
        with open(path) as stream:
            return [[line.split()[k] for k in columns] for line in stream if line.strip()]

    def as_dicts(rows, cast):
        out = {}
        for topic, docno, value in rows:
            out.setdefault(topic, {})[docno] = cast(value)
        return out

    qrels_rows, run_rows = lines(qrels_path, (0, 2, 3)), lines(run_path, (0, 2, 4))
    values = {}
    if case == "cli":
        from irscale.cli.main import main
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        argv = ["eval", "-q", "-n", *[f"-m{m}" for m in measures], qrels_path, run_path]
        with contextlib.redirect_stdout(out):
            status = main(argv)
        out.flush()
        assert status == 0, status
        for line in out.buffer.getvalue().decode().splitlines():
            measure, topic, value = line.split()[:3]
            values.setdefault(topic, {})[measure] = float(value)
    else:
        import irscale
        if case == "files":
            qrels, run = qrels_path, run_path
        elif case == "python readers":  # io.trec's readers (a policy other than "error")
            qrels = irscale.read_qrels(qrels_path, duplicates="first")
            run = irscale.read_run(run_path + ".gz", duplicates="max")
        elif case == "dicts":
            qrels, run = as_dicts(qrels_rows, int), as_dicts(run_rows, float)
        elif case == "frames":
            import pandas as pd
            qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"]
                                 ).astype({"relevance": int})
            run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"]
                               ).astype({"score": float})
        evaluation = irscale.evaluate(qrels, run, measures)
        for row in evaluation.per_topic().itertuples():
            values.setdefault(row.topic, {})[row.measure] = row.value
    assert "pyarrow" not in sys.modules
    print(json.dumps(values))
""")

#: The cases run.
CASES = ["cli", "files", "python readers", "dicts", "frames"]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path]:
    """Qrels and a run: 6 topics, graded (0-3) and negative degrees, scores with ties,
    a run topic not in the qrels and a qrels topic not in the run, and the run's lines of
    two topics interleaved."""
    rng = np.random.default_rng(7)
    root = tmp_path_factory.mktemp("noarrow")
    qrels, run = [], []
    for t in range(1, 7):
        docs = [f"doc-{t}-{d:03d}" for d in range(40)]
        if t != 6:  # topic 6: in the qrels only
            scores = rng.integers(0, 12, size=30) / 4  # many ties
            run += [f"{t} Q0 {docs[d]} {r} {s} sys" for r, (d, s) in
                    enumerate(zip(rng.permutation(40)[:30], scores, strict=True))]
        judged = rng.permutation(40)[:25]
        qrels += [f"{t} 0 {docs[d]} {rng.integers(-1, 4)}" for d in judged]
    run += [f"9 Q0 doc-9-{d} {d} {1 / (d + 1)} sys" for d in range(5)]  # not in the qrels
    run[3], run[40] = run[40], run[3]  # topics 1 and 2 apart
    (root / "qrels").write_text("\n".join(qrels) + "\n")
    (root / "run").write_text("\n".join(run) + "\n")
    (root / "run.gz").write_bytes(gzip.compress((root / "run").read_bytes()))
    return root / "qrels", root / "run"


@pytest.fixture(scope="module")
def expected(files) -> dict[str, dict[str, float]]:
    qrels_path, run_path = files
    with open(qrels_path) as stream:
        qrels = pytrec_eval.parse_qrel(stream)
    with open(run_path) as stream:
        run = pytrec_eval.parse_run(stream)
    names = {m.split("_cut_")[0] + ("_cut" if "_cut_" in m else "") for m in MEASURES}
    names = {"P" if n.startswith("P_") else n for n in names}
    found = pytrec_eval.RelevanceEvaluator(qrels, names).evaluate(run)
    return {topic: {m: values[m] for m in MEASURES} for topic, values in found.items()}


def test_a_parquet_run_names_the_extra_without_pyarrow(tmp_path):
    """A Parquet run read without pyarrow: an :class:`~irscale.errors.InputError` naming
    the file and the extra to install."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    run = tmp_path / "run.parquet"
    pq.write_table(pa.table({"query_id": ["1"], "doc_id": ["d"], "score": [1.0]}), run)
    script = _SCRIPT.split("import contextlib")[0] + textwrap.dedent(f"""
        import irscale
        try:
            irscale.evaluate({{"1": {{"d": 1}}}}, {str(run)!r}, ["map"])
        except irscale.errors.InputError as error:
            print(type(error).__name__, error)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == (f"InputError {run}, reading a Parquet run needs pyarrow: "
                                   "pip install 'irscale[parquet]'")


@pytest.mark.parametrize("command,what", [
    (["eval-many", "QRELS", "RUN", "--per-topic-out", "OUT"],
     "writing per-topic Parquet files"),
    (["online", "simulate-clicks", "QRELS", "RUN", "--format", "parquet", "-o",
      "OUT"], "writing a Parquet click log"),
])
def test_parquet_outputs_name_the_extra_without_pyarrow(tmp_path, files, command, what):
    """A command asked for a Parquet output without pyarrow: one ``irscale:`` line naming
    the output and the extra, status 2, before any work, and no output left behind."""
    qrels_path, run_path = files
    out = tmp_path / "out"
    argv = [{"QRELS": str(qrels_path), "RUN": str(run_path), "OUT": str(out)}.get(a, a)
            for a in command]
    script = _SCRIPT.split("import contextlib")[0] + textwrap.dedent(f"""
        from irscale.cli.main import main
        sys.exit(main({argv!r}))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2, done.stderr[-3000:]
    assert done.stderr.strip().splitlines() == [
        f"irscale: {out}, {what} needs pyarrow: pip install 'irscale[parquet]'"]
    assert not out.exists()


@pytest.mark.parametrize("case", CASES)
def test_evaluates_as_trec_eval_without_pyarrow(case, files, expected):
    qrels_path, run_path = files
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, case, str(qrels_path), str(run_path), *MEASURES],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    values = json.loads(done.stdout)
    assert set(values) == set(expected)  # topics of both only
    for topic, measures in expected.items():
        for measure, value in measures.items():
            assert values[topic][measure] == pytest.approx(value, abs=1e-4 if case == "cli"
                                                           else 1e-12), (topic, measure)


# ------------------------------------------------- sessions, datasets, online, scales, cache
#: The start of every script below: pyarrow blocked (the lines of ``_SCRIPT`` before its
#: case code).
_BLOCKED = _SCRIPT.split("import contextlib")[0]

#: Runs a case's code (which sets ``result``, a JSON value) with pyarrow blocked; prints
#: ``{"result": ...}``, or ``{"blocked": FILE}`` when an irscale module failed to import
#: pyarrow (FILE: the module that imports it).
_CASE = _BLOCKED + textwrap.dedent("""
    import json, traceback
    try:
        exec(CODE)
    except ImportError as error:
        if not str(error).endswith(" is blocked"):
            raise
        where = [frame.filename for frame in traceback.extract_tb(error.__traceback__)
                 if "irscale" in frame.filename]
        print(json.dumps({"blocked": where[-1]}))
    else:
        assert "pyarrow" not in sys.modules, "pyarrow imported"
        print(json.dumps({"result": result}))
""")

def blocked_run(script: str, *args: str, **env: str) -> Any:
    """``result`` of the last line ``script`` prints, run with pyarrow blocked (``args``: its
    ``sys.argv[1:]``, ``env`` added to the environment); failed when any module on the way
    imports pyarrow (the line is then ``{"blocked": module}``)."""
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout.splitlines()[-1])
    assert "blocked" not in answer, f"{answer['blocked']} imports pyarrow"
    return answer["result"]


def without_pyarrow(code: str, *args: str) -> Any:
    """``result`` of ``code`` run with pyarrow blocked (:func:`blocked_run`)."""
    return blocked_run(_CASE.replace("CODE", repr(textwrap.dedent(code))), *args)


@pytest.fixture(scope="module")
def session_files(tmp_path_factory) -> dict[str, Path]:
    """A session run (three sessions, one listed apart, blanks and tabs between fields, a
    non-ASCII session id), its click log, a session map, qrels and document lengths."""
    root = tmp_path_factory.mktemp("sessions")
    run = ["s1 1 d1 1 3.5 sys", "s1 1 d2 2 2.5 sys", "s1\t2 d3 1 1.0 sys",
           "s1 2  d1 2 0.5 sys", "sé 1 d4 1 9 sys", "sé 1 d2 2 8 sys", "s3 1 d5 1 1 sys",
           "s3 2 d1 1 1 sys", "sé 2 d6 1 7 sys"]
    files = {"run": run, "clicks": ["s1 1 2 10", "s1 2 1 20.5", "sé 1 1 3", "sé 2 1 4",
                                    "s3 2 1 1"],
             "map": ["s1 101", "sé 102", "s3 101"],
             "qrels": ["101 0 d1 1", "101 0 d2 2", "101 0 d3 0", "101 0 d5 1",
                       "102 0 d4 2", "102 0 d6 1", "102 0 d2 1"],
             "lengths": ["* 0 d1 100", "* 0 d2 300", "* 0 d3 50", "* 0 d4 200",
                         "* 0 d5 80", "* 0 d6 120"]}
    for name, lines in files.items():
        (root / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {name: root / name for name in files}


#: Reads the session files (``sys.argv[1:]``: run, clicks, map) and evaluates the run.
_SESSIONS = """
    from irscale.io.sessions import read_clicks, read_session_map, read_session_run
    from irscale.text import evaluate_sessions

    run_path, clicks_path, map_path, qrels_path, lengths_path = sys.argv[1:]
    run, clicks = read_session_run(run_path), read_clicks(clicks_path)
    values = evaluate_sessions(qrels_path, run_path, MEASURES, topics=map_path,
                               clicks=[clicks_path], labels={"doclen": lengths_path})
    result = {
        "run": [run.name, run.session.to_pylist(), run.query_no.tolist(),
                run.docno.to_pylist(), run.rank.tolist(), run.score.tolist()],
        "clicks": [clicks.session.to_pylist(), clicks.query_no.tolist(),
                   clicks.rank.tolist(), clicks.timestamp.tolist()],
        "map": read_session_map(map_path),
        "values": values.per_topic()[["topic", "measure", "value"]].values.tolist()}
"""

#: Session measures evaluated, U with the click log and the document lengths.
SESSION_MEASURES = ["sDCG@10", "nsDCG", "sRBP(p=0.8,b=0.5)", "U(deflen=100)"]


def test_session_files_without_pyarrow(session_files):
    """The session readers give the fields of the files as split by Python, and
    ``evaluate_sessions`` the values it gives with pyarrow installed."""
    from irscale.text import evaluate_sessions

    paths = [str(session_files[name]) for name in ("run", "clicks", "map", "qrels",
                                                   "lengths")]
    got = without_pyarrow(_SESSIONS.replace("MEASURES", repr(SESSION_MEASURES)), *paths)

    def fields(name: str) -> list[list[str]]:
        return [line.split() for line in
                session_files[name].read_text(encoding="utf-8").splitlines()]

    run = fields("run")
    assert got["run"] == ["sys", [r[0] for r in run], [int(r[1]) for r in run],
                          [r[2] for r in run], [int(r[3]) for r in run],
                          [float(r[4]) for r in run]]
    clicks = fields("clicks")
    assert got["clicks"] == [[c[0] for c in clicks], [int(c[1]) for c in clicks],
                             [int(c[2]) for c in clicks], [float(c[3]) for c in clicks]]
    assert got["map"] == dict(fields("map"))
    expected = evaluate_sessions(paths[3], paths[0], SESSION_MEASURES, topics=paths[2],
                                 clicks=[paths[1]], labels={"doclen": paths[4]})
    rows = expected.per_topic()[["topic", "measure", "value"]].values.tolist()
    assert [row[:2] for row in got["values"]] == [row[:2] for row in rows]
    assert [row[2] for row in got["values"]] == pytest.approx([row[2] for row in rows],
                                                             abs=1e-12)


def test_synthetic_collection_without_pyarrow():
    """The synthetic collection and its AP and P@10 scores: as with pyarrow installed."""
    from irscale.datasets import synthetic_collection

    got = without_pyarrow("""
        from irscale.datasets import synthetic_collection

        demo = synthetic_collection(n_topics=4, pool_size=30, depth=20, seed=3)
        matrix = demo.scores(["AP", "P@10"])
        result = [demo.qrels.topic.to_pylist(), demo.qrels.docno.to_pylist(),
                  demo.qrels.rel.tolist(), [run.docno.to_pylist() for run in demo.runs],
                  list(matrix.systems), matrix.values.tolist()]
    """)
    demo = synthetic_collection(n_topics=4, pool_size=30, depth=20, seed=3)
    matrix = demo.scores(["AP", "P@10"])
    assert got[:5] == [demo.qrels.topic.to_pylist(), demo.qrels.docno.to_pylist(),
                       demo.qrels.rel.tolist(), [run.docno.to_pylist() for run in demo.runs],
                       list(matrix.systems)]
    assert got[1][:2] == ["D000-00000", "D000-00001"]  # D<topic>-<document>
    np.testing.assert_allclose(got[5], matrix.values, rtol=0, atol=1e-12)


#: The click model and data of the click-calibrated case: two topics, a non-ASCII docno.
_CALIBRATED = """
    import pandas as pd
    from irscale.online.calibrated import click_calibrated
    from irscale.online.clickmodels import ClickModel

    model = ClickModel("pbm", pd.Series({("t", "a"): 0.8, ("t", "b"): 0.4,
                                         ("u", "é"): 0.5, ("u", "c"): 0.9}),
                       examination=[1.0, 0.5])
    frame = click_calibrated({"t": {"a": 2, "b": 1}, "u": {"é": 1, "c": 3}},
                             {"t": {"a": 2.0, "b": 1.0}, "u": {"é": 3.0, "c": 1.0}},
                             model, ["uM"])
"""


def test_click_calibrated_without_pyarrow():
    """uM with a position-based click model, worked out: the sum over ranks of the
    attractiveness × examination × gain (the example of
    :func:`~irscale.online.calibrated.click_calibrated`)."""
    got = without_pyarrow(_CALIBRATED + """
    result = frame[["topic", "value"]].values.tolist()
    """)
    assert got == [["t", pytest.approx(0.8 * 1.0 * 2 + 0.4 * 0.5 * 1)],
                   ["u", pytest.approx(0.5 * 1.0 * 1 + 0.9 * 0.5 * 3)]]


def test_scale_images_without_pyarrow(tmp_path):
    """A CSV image is written as with pyarrow installed; a Parquet image is an
    ``InputError`` naming the extra, and no file is left behind."""
    from irscale.scales import scale
    from irscale.scales.stream import write_image

    got = without_pyarrow("""
        from irscale.errors import InputError
        from irscale.scales import scale
        from irscale.scales.stream import write_image

        csv_path, parquet_path = sys.argv[1:]
        write_image(scale("DCG_b02", 4), csv_path, progress=False)
        try:
            write_image(scale("DCG_b02", 4), parquet_path, progress=False)
        except InputError as error:
            result = f"{type(error).__name__} {error}"
    """, str(tmp_path / "blocked.csv"), str(tmp_path / "blocked.parquet"))
    assert got == (f"InputError {tmp_path / 'blocked.parquet'}, writing a Parquet image "
                   "needs pyarrow: pip install 'irscale[parquet]'")
    assert not (tmp_path / "blocked.parquet").exists()
    write_image(scale("DCG_b02", 4), tmp_path / "expected.csv", progress=False)
    assert (tmp_path / "blocked.csv").read_text() == (tmp_path / "expected.csv").read_text()


def test_cache_keys_without_pyarrow():
    """Cache keys of string columns, arrays and frames without pyarrow: those computed
    with it, where a pyarrow string array keys as the :class:`Strings` of its strings."""
    import pandas as pd
    import pyarrow as pa

    from irscale.cache.keys import KeyWriter
    from irscale.core.strings import Strings

    got = without_pyarrow("""
        import numpy as np
        import pandas as pd
        from irscale.cache.keys import KeyWriter
        from irscale.core.strings import Strings

        result = []
        for value in (Strings.of(["d1", "dé", ""]), np.arange(5.0),
                      pd.DataFrame({"topic": ["1", "2"], "score": [0.5, 1.5]})):
            writer = KeyWriter()
            writer.value(value)
            result.append(writer.hexdigest())
    """)

    def key(value: object) -> str:
        writer = KeyWriter()
        writer.value(value)
        return writer.hexdigest()

    assert got == [key(pa.chunked_array([["d1"], ["dé", ""]])), key(np.arange(5.0)),
                   key(pd.DataFrame({"topic": ["1", "2"], "score": [0.5, 1.5]}))]
    assert got[0] == key(Strings.of(["d1", "dé", ""]))


#: Writes a run and qrels with pyarrow blocked and reads them back; prints the files'
#: text and what was read.
_WRITE_SCRIPT = _SCRIPT.split("import contextlib")[0] + textwrap.dedent("""
    import numpy as np
    from irscale.core.inputs import Qrels, Run
    from irscale.core.strings import Strings
    import irscale
    from irscale.io.diversity import read_diversity_qrels, read_ndeval_run
    from irscale.io.trec_write import ranked_run_text, write_qrels, write_run

    root = sys.argv[1]
    run = Run(name="sys", topic=Strings.of(["q2", "q1", "q2", "q1", "q1"]),
              docno=Strings.of(["d1", "dé", "d2", "d3", "d4"]),
              score=np.array([1.5, 1e-7, 2.0, 3.0, -0.0]))
    qrels = Qrels(topic=Strings.of(["q1", "q2"]), docno=Strings.of(["dé", "d2"]),
                  rel=np.array([2, 0]))
    write_run(run, root + "/run")
    write_qrels(qrels, root + "/qrels")
    # read back by the engine's readers: the run as ndeval reads one (ranks kept), the
    # qrels' four fields as diversity qrels (the 0 as a subtopic), and both as trec_eval
    back, judged = read_ndeval_run(root + "/run"), read_diversity_qrels(root + "/qrels")
    evaluation = irscale.evaluate(root + "/qrels", root + "/run", ["num_rel_ret", "P_2"])
    values = {(row.topic, row.measure): row.value
              for row in evaluation.per_topic().itertuples()}
    assert "pyarrow" not in sys.modules
    print(json.dumps({
        "run": open(root + "/run", encoding="utf-8").read(),
        "qrels": open(root + "/qrels", encoding="utf-8").read(),
        "ranked": ranked_run_text(run, "tag").decode(),
        "back": [back.name, list(back.runids), back.topic.to_pylist(),
                 back.docno.to_pylist(),
                 back.rank.tolist(), back.score.tolist()],
        "judged": [judged.topic.to_pylist(), judged.subtopic.to_pylist(),
                   judged.docno.to_pylist(), judged.judgment.tolist()],
        "values": [values[("q1", "num_rel_ret")], values[("q1", "P_2")]],
    }))
""")


def test_writes_and_reads_back_a_run_and_qrels_without_pyarrow(tmp_path):
    """``write_run`` (topics in byte order, scores descending, ``repr``'s spelling),
    ``write_qrels`` and ``ranked_run_text`` (rows' order, Arrow's spelling of the scores)
    with pyarrow blocked: the lines written out by hand, and the files read back."""
    done = subprocess.run([sys.executable, "-c", _WRITE_SCRIPT, str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    assert out["run"] == ("q1 Q0 d3 1 3.0 sys\nq1 Q0 dé 2 1e-07 sys\nq1 Q0 d4 3 -0.0 sys\n"
                          "q2 Q0 d2 1 2.0 sys\nq2 Q0 d1 2 1.5 sys\n")
    assert out["qrels"] == "q1 0 dé 2\nq2 0 d2 0\n"
    assert out["ranked"] == ("q2 Q0 d1 1 1.5 tag\nq1 Q0 dé 1 1e-7 tag\nq2 Q0 d2 1 2 tag\n"
                             "q1 Q0 d3 1 3 tag\nq1 Q0 d4 2 -0 tag\n")
    # named by its file (its stem), the run id of its lines kept
    assert out["back"] == ["run", ["sys"], ["q1"] * 3 + ["q2"] * 2,
                           ["d3", "dé", "d4", "d2", "d1"],
                           [1, 2, 3, 1, 2], [3.0, 1e-07, -0.0, 2.0, 1.5]]
    assert out["judged"] == [["q1", "q2"], ["0", "0"], ["dé", "d2"], [2, 0]]
    assert out["values"] == [1, 0.5]  # q1: dé, relevant, ranked second


#: ``irscale eval --format ndeval`` of a diversity measure with pyarrow blocked: the lines
#: it prints.
_NDEVAL_SCRIPT = _SCRIPT.split("import contextlib")[0] + textwrap.dedent("""
    import contextlib, io
    from irscale.cli.main import main
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out):
        status = main(["eval", "-m", "alpha-nDCG@10", "--format", "ndeval", *sys.argv[1:]])
    out.flush()
    assert status == 0, status
    assert "pyarrow" not in sys.modules
    print(out.buffer.getvalue().decode(), end="")
""")


def test_evaluates_alpha_ndcg_as_ndeval_without_pyarrow(tmp_path):
    """``irscale eval -m alpha-nDCG@10 --format ndeval`` on diversity qrels (ndeval's
    format: graded subtopics, a document judged for two intents, one judged 0, one
    unjudged retrieved) with pyarrow blocked gives pyndeval's values (ndeval 4.5's code),
    to ndeval's six digits."""
    pyndeval = pytest.importorskip("pyndeval")
    qrels = [("1", "1", "d1", 1), ("1", "1", "d3", 1), ("1", "2", "d2", 1),
             ("1", "2", "d3", 0), ("1", "3", "d4", 2), ("2", "1", "e1", 1),
             ("2", "2", "e2", 1), ("2", "2", "e3", 1)]
    run = [("1", "d3", 9.5), ("1", "d9", 8.25), ("1", "d2", 7.0), ("1", "d1", 6.0),
           ("1", "d4", 5.0), ("2", "e2", 3.0), ("2", "e3", 2.0), ("2", "e1", 1.0)]
    (tmp_path / "qrels").write_text("".join(f"{t} {s} {d} {j}\n" for t, s, d, j in qrels))
    (tmp_path / "run").write_text("".join(
        f"{t} Q0 {d} {rank} {s} sys\n"
        for rank, (t, d, s) in enumerate(run, 1)))  # ranks in score order, as pyndeval
    done = subprocess.run([sys.executable, "-c", _NDEVAL_SCRIPT, str(tmp_path / "qrels"),
                           str(tmp_path / "run")], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    expected = pyndeval.ndeval(qrels, run, measures=["alpha-nDCG@10"])
    assert 0 < expected["1"]["alpha-nDCG@10"] < expected["2"]["alpha-nDCG@10"] < 1
    values = {t: expected[t]["alpha-nDCG@10"] for t in ("1", "2")}
    assert done.stdout.splitlines() == [
        "runid,topic,alpha-nDCG@10", *(f"sys,{t},{v:.6f}" for t, v in values.items()),
        f"sys,amean,{sum(values.values()) / 2:.6f}"]


# -- the readers of the other text formats, and the commands that read them ------------------

#: A small file of every format (blank lines, tabs and runs of blanks between fields).
FILES = {
    "crowd": "1 d1 w1 1\n1 d1 w2 1\n1 d1 w3 0\n\n1 d2 w1 0\n1\td2  w2 0\n2 d1 w1 2\n",
    "sampled": "1 0 d1 1 0.5\n1 0 d2 0 1\n\n2\t0\td1 2 2.5e-1\n",
    "prefs": "q1 u1 s1 d1 3\nq1 u1 s1 d2 0\nq1 u1 s1 d3 1.5\n\nq2 u1 s2 d1 0.1\n",
    "policy": "q1 d1 1 0.5\nq1  d2 2 0.25\nq2\td1 1 1\n",
    "interleaving": "i1 t1 1 d1 A 1\ni1 t1 2 d2 B 0\ni2 t1 2 d1 A 1\ni2 t1 1 d2 B 1\n"
                    "\ni3 t2 1 d3 A 0\ni3 t2 2 d4 B 1\n",
    "clicks": "s1 q1 1 d1 0 1.5\ns1 q1 2 d2 1 2.5\ns2 q2 1 d3 1 3\ns2 q2 3 d2 1 5\n"
              "s2\tq2 2 d1 0 4\n",
    "stochastic": "1 0 a 1 2 r\n1 0 b 2 1 r\n1 1 b 1 2 r\n1 1 a 2 1 r\n1 1 c 3 2 r\n"
                  "2 0 x 1 0 r\n",
    "labels": "101 0 d1 95\n101 0 d2 7\n\n102 0 d1 0.5\n",
}

#: A run for ``eval -R prefs``: d2, d1, d3 for q1 (d1 over d2 and d3 over d2 unfulfilled).
PREFS_RUN = "q1 Q0 d2 1 3 r\nq1 Q0 d1 2 2 r\nq1 Q0 d3 3 1 r\n"

#: Read ``sys.argv[2]`` (a file of format ``sys.argv[1]``) with pyarrow blocked, or run the
#: command ``sys.argv[2:]`` (format ``cli``); print ``{"result": ...}``, or
#: ``{"blocked": module}`` when a module imported pyarrow.
_READ_SCRIPT = _SCRIPT.split("import contextlib")[0] + textwrap.dedent("""
    import contextlib, io, json, traceback

    def plain(value):
        return value.item() if hasattr(value, "item") else value

    def rows(frame):
        return [[plain(v) for v in row] for row in frame.itertuples(index=False)]

    def read(kind, path):
        if kind == "crowd":
            from irscale.io.crowd import read_crowd_labels
            return rows(read_crowd_labels(path).to_frame())
        if kind == "sampled":
            from irscale.io.sampled import read_sampled_qrels
            return rows(read_sampled_qrels(path))
        if kind == "prefs":
            from irscale.io.prefs import read_prefs
            p = read_prefs(path)
            return [p.topic.tolist(), p.jg.tolist(), p.jsg.tolist(), p.docno.tolist(),
                    p.level.tolist(), str(p.level.dtype)]
        if kind == "policy":
            from irscale.io.policy import read_probability_table
            return rows(read_probability_table(path))
        if kind == "interleaving":
            from irscale.io.interleaving_log import read_interleaving_log
            log = read_interleaving_log(path)
            return [[log.impressions[n], log.topics[log.shown.query[n]], int(r) + 1,
                     log.shown.docs[log.shown.doc[n, r]],
                     log.teams[log.team[n, r]] if log.team[n, r] >= 0 else "-",
                     int(log.clicks[n, r])] for n, r in zip(*log.valid.nonzero())]
        if kind == "clicks":
            from irscale.io.clicklog import read_click_log
            return rows(read_click_log(path).to_frame())
        if kind == "parquet-clicks":
            from irscale.errors import InputError
            from irscale.io.clicklog import read_click_log
            try:
                read_click_log(path)
            except InputError as error:
                return f"{type(error).__name__} {error}"
        if kind == "stochastic":
            from irscale.io.stochastic import read_stochastic_run
            run = read_stochastic_run(path)
            return [run.name, list(run.runids), run.topic.to_pylist(), run.sample.to_pylist(),
                    run.docno.to_pylist(), run.position.tolist()]
        if kind == "labels":
            from irscale.io.labels import read_labels
            table = read_labels(path)
            return [table.topic.to_pylist(), table.docno.to_pylist(), table.value.tolist()]
        from irscale.cli.main import main
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        with contextlib.redirect_stdout(out):
            status = main(sys.argv[2:])
        out.flush()
        assert status == 0, status
        return out.buffer.getvalue().decode()

    try:
        values = read(sys.argv[1], sys.argv[2])
    except ImportError as error:  # the irscale module whose import of pyarrow was refused
        frames = [frame.filename for frame in traceback.extract_tb(error.__traceback__)
                  if "/irscale/" in frame.filename]
        print(json.dumps({"blocked": "irscale/" + frames[-1].split("/irscale/")[-1]}))
    else:
        assert "pyarrow" not in sys.modules
        print(json.dumps({"result": values}))
""")


def _without_pyarrow(*args: str):
    """The values :data:`_READ_SCRIPT` prints for ``args`` (:func:`blocked_run`)."""
    return blocked_run(_READ_SCRIPT, *args, IRSCALE_DEBUG="1")


@pytest.fixture(scope="module")
def format_files(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("formats")
    for kind, text in {**FILES, "run": PREFS_RUN}.items():
        (root / f"{kind}.txt").write_text(text)
    return {kind: root / f"{kind}.txt" for kind in [*FILES, "run"]}


def _fields(text: str) -> list[list[str]]:
    """The fields of every non-blank line (str.split: runs of blanks and tabs)."""
    return [line.split() for line in text.splitlines() if line.strip()]


def _single(value: float) -> float:
    """``value`` rounded to a C float (trec_eval's preference levels)."""
    return struct.unpack("f", struct.pack("f", value))[0]


def _expected(kind: str) -> object:
    """What the reader of ``kind`` gives for :data:`FILES`, computed from the lines."""
    lines = _fields(FILES[kind])
    if kind == "crowd":
        return [[t, d, w, int(x)] for t, d, w, x in lines]
    if kind == "sampled":
        return [[t, d, int(r), float(p)] for t, _, d, r, p in lines]
    if kind == "prefs":
        return [*map(list, zip(*[line[:4] for line in lines], strict=True)),
                [_single(float(line[4])) for line in lines], "float32"]
    if kind == "policy":
        return [[q, d, int(r), float(p)] for q, d, r, p in lines]
    if kind == "interleaving":  # impressions in first-appearance order, then rank
        order = list(dict.fromkeys(line[0] for line in lines))
        return sorted(([i, t, int(r), d, team, int(c)] for i, t, r, d, team, c in lines),
                      key=lambda row: (order.index(row[0]), row[2]))
    if kind == "clicks":
        order = list(dict.fromkeys(line[0] for line in lines))
        return sorted(([s, q, int(r), d, int(c), float(ts)] for s, q, r, d, c, ts in lines),
                      key=lambda row: (order.index(row[0]), row[2]))
    if kind == "stochastic":  # by topic, sample, score descending, docno descending
        ranked = sorted(lines, key=lambda line: line[2], reverse=True)
        ranked.sort(key=lambda line: (line[0], line[1], -float(line[4])))
        position, rankings = [], {}
        for line in ranked:
            rankings[line[0], line[1]] = rankings.get((line[0], line[1]), 0) + 1
            position.append(rankings[line[0], line[1]])
        # named by its file (its stem), the run id of its lines kept
        return [kind, [lines[0][5]], [line[0] for line in ranked],
                [line[1] for line in ranked],
                [line[2] for line in ranked], position]
    return [[t for t, *_ in lines], [d for _, _, d, _ in lines],
            [float(v) for *_, v in lines]]


@pytest.mark.parametrize("kind", list(FILES))
def test_reads_every_format_without_pyarrow(kind, format_files):
    assert _without_pyarrow(kind, str(format_files[kind])) == _expected(kind)


def test_a_parquet_click_log_names_the_extra_without_pyarrow(tmp_path):
    """A Parquet click log read without pyarrow: the error of a Parquet run, naming the
    file and the extra to install."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    log = tmp_path / "clicks.parquet"
    pq.write_table(pa.table({"session": ["s"], "query": ["q"], "rank": [1], "docno": ["d"],
                             "clicked": [1]}), log)
    assert _without_pyarrow("parquet-clicks", str(log)) == (
        f"InputError {log}, reading a Parquet click log needs pyarrow: "
        "pip install 'irscale[parquet]'")


def test_labels_aggregate_without_pyarrow(format_files):
    """``irscale labels aggregate``: the majority label of every document."""
    votes: dict[tuple[str, str], list[int]] = {}
    for topic, docno, _, label in _fields(FILES["crowd"]):
        votes.setdefault((topic, docno), []).append(int(label))
    aggregated = _without_pyarrow("cli", "labels", "aggregate", str(format_files["crowd"]))
    assert {(t, d): int(x) for t, _, d, x in _fields(aggregated)} == {
        pair: max(set(labels), key=labels.count) for pair, labels in votes.items()}


def test_online_score_without_pyarrow(format_files):
    """``irscale online score``: team-draft wins, losses and ties of A over B (the team with
    more clicks in an impression wins it)."""
    clicks_of: dict[str, dict[str, int]] = {}
    for impression, _, _, _, team, clicked in _fields(FILES["interleaving"]):
        clicks_of.setdefault(impression, {"A": 0, "B": 0})[team] += int(clicked)
    outcome = [(c["A"] > c["B"]) - (c["A"] < c["B"]) for c in clicks_of.values()]
    scored = json.loads(_without_pyarrow("cli", "online", "score", "--format", "json",
                                         str(format_files["interleaving"])))
    assert [(s["a"], s["b"], s["wins"], s["losses"], s["ties"]) for s in scored] == [
        ("A", "B", outcome.count(1), outcome.count(-1), outcome.count(0))]


def test_online_prefs_without_pyarrow(format_files):
    """``irscale online prefs``: skip-above, a clicked document over every unclicked one
    shown above it (Joachims et al. 2005), for the session's query."""
    shown: dict[str, list[list[str]]] = {}
    for session, query, rank, docno, clicked, _ in _fields(FILES["clicks"]):
        shown.setdefault(session, []).append([query, rank, docno, clicked])
    preferred = set()
    for lines in shown.values():
        lines.sort(key=lambda line: int(line[1]))
        for k, (query, _, docno, clicked) in enumerate(lines):
            if clicked == "1":
                preferred |= {(query, docno, above[2]) for above in lines[:k]
                              if above[3] == "0"}
    prefs = _fields(_without_pyarrow("cli", "online", "prefs", str(format_files["clicks"])))
    groups: dict[tuple[str, str, str], list[tuple[float, str]]] = {}
    for qid, jg, jsg, docno, level in prefs:
        groups.setdefault((qid, jg, jsg), []).append((float(level), docno))
    assert preferred and {(qid, hi[1], lo[1]) for (qid, _, _), group in groups.items()
                          for hi in group for lo in group if hi[0] > lo[0]} == preferred


def test_eval_prefs_without_pyarrow(format_files):
    """``irscale eval -R prefs``: the preferences of q1 (a higher level over a lower one)
    and those the run's order fulfils."""
    levels = {docno: float(level) for qid, _, _, docno, level in _fields(FILES["prefs"])
              if qid == "q1"}
    ranked = [line[2] for line in _fields(PREFS_RUN)]
    pairs = [(a, b) for a in levels for b in levels if levels[a] > levels[b]]
    evaluated = _without_pyarrow("cli", "eval", "-R", "prefs", "-q", "-m",
                                 "prefs_num_prefs_poss", "-m", "prefs_num_prefs_ful",
                                 str(format_files["prefs"]), str(format_files["run"]))
    values = {(m, t): float(v) for m, t, v in _fields(evaluated)}
    assert values[("prefs_num_prefs_poss", "q1")] == len(pairs) == 3
    assert values[("prefs_num_prefs_ful", "q1")] == sum(
        ranked.index(a) < ranked.index(b) for a, b in pairs) == 1


def test_eval_qrels_jg_without_pyarrow(tmp_path, format_files):
    """``irscale eval -R qrels_jg``: P_avgjg_1 of q1 is the mean over its two groups of
    whether the run's first document is relevant to the group."""
    judged = {"u1": {"d1"}, "u2": {"d2"}}
    (tmp_path / "jg.txt").write_text("".join(f"q1 {g} {d} 1\n" for g, ds in judged.items()
                                             for d in ds))
    first = _fields(PREFS_RUN)[0][2]
    evaluated = _without_pyarrow("cli", "eval", "-R", "qrels_jg", "-q", "-m", "P_avgjg.1",
                                 str(tmp_path / "jg.txt"), str(format_files["run"]))
    values = {(m, t): float(v) for m, t, v in _fields(evaluated)}
    assert values[("P_avgjg_1", "q1")] == sum(first in ds for ds in judged.values()) / 2 == 0.5

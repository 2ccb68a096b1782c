"""irscale evaluates without pyarrow installed: ``irscale.evaluate`` and ``irscale eval`` on
TREC files, dicts of dicts and pandas DataFrames, in an interpreter in which importing
pyarrow raises (a meta path finder, as in ``tests/test_startup.py``), give pytrec_eval's
values (trec_eval 9.0.8's code: the independent oracle).

The inputs have graded and negative judgments, tied scores, topics on one side only and
a run that lists a topic's lines apart (the readers group them).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

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
CASES = ["cli", "files", "dicts", "frames"]


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
        "back": [back.name, back.topic.to_pylist(), back.docno.to_pylist(),
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
    assert out["back"] == ["sys", ["q1"] * 3 + ["q2"] * 2, ["d3", "dé", "d4", "d2", "d1"],
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

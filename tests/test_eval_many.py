"""``irscale.evaluate_many``: many run files in batches.

The oracle is :func:`irscale.evaluate` on the same runs all at once (itself checked against
trec_eval elsewhere): per-topic values and summaries must be equal exactly, for batch sizes
1, 3 and all, for plain, gzip and Parquet files (Parquet runs reach the oracle through
pandas, not through the Parquet reader under test), and on a Dask ``LocalCluster`` of two
processes started here. The summary writer is checked against ``write_results`` (the
``irscale eval`` writer). Memory: a subprocess's peak RSS grows with the batch size, not
with the number of files.
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.errors import (
    EmptyInputError,
    FileAccessError,
    InputFormatError,
    MeasureError,
    OutputExistsError,
    ParameterError,
)
from irscale.evaluation.many import evaluate_many, part_name, run_files
from irscale.io.output import write_results, write_summary

MEASURES = ["map", "P.5,10", "ndcg_cut.10", "recip_rank", "bpref", "Rprec", "num_ret",
            "num_rel_ret", "num_rel", "gm_map", "ERR@10", "RBP(p=0.8)", "num_q", "runid"]
TOPICS = [str(t) for t in range(101, 113)]


def _qrels_text(rng: np.random.Generator) -> str:
    lines = []
    for topic in TOPICS[:-1]:  # the last topic is in runs only: not evaluated, warned
        for doc in rng.choice(60, size=25, replace=False):
            lines.append(f"{topic} 0 d{doc} {rng.choice([0, 0, 1, 2, -1])}")
    return "\n".join(lines) + "\n"


def _run_lines(rng: np.random.Generator, runid: str) -> list[str]:
    lines = []
    for topic in TOPICS:
        if rng.random() < 0.15:  # a topic of the qrels this run misses
            continue
        depth = int(rng.integers(1, 30))
        docs = rng.choice(60, size=depth, replace=False)
        scores = rng.integers(0, 8, size=depth) / 4  # many ties
        for rank, (doc, score) in enumerate(zip(docs, scores, strict=True), 1):
            lines.append(f"{topic} Q0 d{doc} {rank} {score} {runid}")
    return lines


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    """Qrels and 9 runs: 3 plain, 3 gzip, 3 Parquet (file names in that order)."""
    root = tmp_path_factory.mktemp("many")
    rng = np.random.default_rng(16)
    (root / "qrels").write_text(_qrels_text(rng))
    runs = root / "runs"
    runs.mkdir()
    frames = {}
    for k in range(9):
        lines = _run_lines(rng, f"sys{k}")
        name = f"r{k}"
        if k < 3:
            (runs / f"{name}.run").write_text("\n".join(lines) + "\n")
        elif k < 6:
            (runs / f"{name}.run.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
        else:
            fields = [line.split() for line in lines]
            frame = pd.DataFrame({"query_id": [f[0] for f in fields],
                                  "doc_id": [f[2] for f in fields],
                                  "score": [float(f[4]) for f in fields],
                                  "runid": [f[5] for f in fields]})
            frame.to_parquet(runs / f"{name}.parquet", index=False)
        frames[name] = lines
    return root


def _oracle_runs(root: Path) -> dict[str, object]:
    """Every run as evaluate() takes it without the Parquet reader: paths for TREC files,
    DataFrames read by pandas for Parquet files (the run id of the last row kept: what
    trec_eval's ``runid`` prints)."""
    from irscale.core.records import replace

    runs: dict[str, object] = {}
    for path in sorted((root / "runs").iterdir()):
        name = path.name.split(".")[0]
        if path.suffix == ".parquet":
            frame = pd.read_parquet(path)
            runs[name] = replace(irscale.read_run(frame, name=name),
                                 runids=(str(frame["runid"].iloc[-1]),))
        else:
            runs[name] = str(path)
    return runs


@pytest.fixture(scope="module")
def reference(collection):
    with pytest.warns(UserWarning, match="not evaluated"):
        return irscale.evaluate(collection / "qrels", _oracle_runs(collection), MEASURES)


def _sorted(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(["run", "measure", "topic"], kind="stable").reset_index(drop=True)


def _assert_same(many, reference) -> None:
    assert many.runs == reference.runs
    pd.testing.assert_frame_equal(many.aggregates(), reference.aggregates(), check_exact=True)
    pd.testing.assert_frame_equal(many.mean().frame, reference.mean().frame, check_exact=True)
    pd.testing.assert_frame_equal(_sorted(many.per_topic()), _sorted(reference.per_topic()),
                                  check_exact=True)


@pytest.mark.parametrize("batch_size", [1, 3, 9, 100])
def test_equals_evaluate_whatever_the_batch_size(collection, reference, batch_size, tmp_path):
    out = tmp_path / "per-topic"
    with pytest.warns(UserWarning, match="not evaluated"):
        many = evaluate_many(collection / "qrels", collection / "runs", MEASURES,
                             batch_size=batch_size, out=out, workers=2)
    _assert_same(many, reference)
    parts = sorted(p.name for p in out.iterdir())
    count = -(-9 // batch_size)
    assert parts == [part_name(k, count) for k in range(count)]
    assert not [p for p in tmp_path.iterdir() if p.name != "per-topic"]  # no temporary left


def test_compare_and_matrix_equal_evaluate(tmp_path):
    """``evaluate_many(...).compare(baseline)`` reads the per-topic values kept and gives
    what ``evaluate(...).compare`` gives (the paper's LaTeX table included); without kept
    values it says how to keep them."""
    rng = np.random.default_rng(4)
    (tmp_path / "qrels").write_text("".join(f"{t} 0 d{d} {int(rng.integers(0, 2))}\n"
                                            for t in range(8) for d in range(6)))
    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ("bm25", "ql", "dense"):
        (runs / f"{name}.run").write_text("".join(
            f"{t} Q0 d{d} 0 {rng.random():.6f} {name}\n" for t in range(8) for d in range(6)))
    measures = ["map", "P@5", "num_ret"]
    many = evaluate_many(tmp_path / "qrels", runs, measures, out=tmp_path / "kept")
    reference = irscale.evaluate(tmp_path / "qrels", runs, measures)
    pd.testing.assert_frame_equal(many.compare("bm25").to_frame(),
                                  reference.compare("bm25").to_frame(), check_exact=True)
    assert many.compare("ql").format("latex") == reference.compare("ql").format("latex")
    labels = ["map", "P@5", "num_ret"]
    matrix, expected = many.to_matrix(measures=labels), reference.to_matrix(measures=labels)
    assert (matrix.systems, matrix.topics, matrix.measures) == \
        (expected.systems, expected.topics, expected.measures)
    np.testing.assert_array_equal(matrix.values, expected.values)
    with pytest.raises(MeasureError, match="nosuch: no per-topic values kept"):
        many.to_matrix(measures=["nosuch"])
    kept_nothing = evaluate_many(tmp_path / "qrels", runs, ["map"])
    with pytest.raises(ParameterError, match="give out=FOLDER"):
        kept_nothing.compare("bm25")


@pytest.mark.parametrize("options", [
    {"complete": True}, {"complete": True, "compat": 10}, {"judged_only": True},
    {"max_docs": 5, "relevance_level": 2}, {"ties": "file-order"}, {"ties": "rank-column"},
], ids=["c", "c-compat10", "J", "M5-l2", "file-order", "rank-column"])
def test_equals_evaluate_with_trec_eval_options(collection, options, tmp_path):
    runs = {k: v for k, v in _oracle_runs(collection).items() if isinstance(v, str)}
    if options.get("ties") == "rank-column":  # rank-column needs the rank column: text runs
        files = [collection / "runs" / f"r{k}.run" for k in range(3)]
        runs = {f"r{k}": str(files[k]) for k in range(3)}
    else:
        files = sorted(p for p in (collection / "runs").iterdir() if p.suffix != ".parquet")
    with pytest.warns(UserWarning):
        reference = irscale.evaluate(collection / "qrels", runs, MEASURES, **options)
    with pytest.warns(UserWarning):
        many = evaluate_many(collection / "qrels", files, MEASURES, batch_size=2,
                             out=tmp_path / "pt", **options)
    _assert_same(many, reference)


def test_parquet_parts_read_back_equal_the_per_topic_frame(collection, reference, tmp_path):
    """Read back with pandas directly (not through ManyEvaluation.per_topic)."""
    out = tmp_path / "pt"
    with pytest.warns(UserWarning):
        evaluate_many(collection / "qrels", collection / "runs", MEASURES, batch_size=4, out=out)
    frame = pd.concat([pd.read_parquet(p) for p in sorted(out.iterdir())], ignore_index=True)
    pd.testing.assert_frame_equal(_sorted(frame), _sorted(reference.per_topic()),
                                  check_exact=True)
    # and the rows of the first batch come in per_topic()'s order for those runs
    first = pd.read_parquet(out / part_name(0, 3))
    with pytest.warns(UserWarning, match="not evaluated"):
        ev = irscale.evaluate(collection / "qrels",
                              dict(list(_oracle_runs(collection).items())[:4]), MEASURES)
    pd.testing.assert_frame_equal(first, ev.per_topic(), check_exact=True)


def test_summary_output_equals_irscale_eval(collection, reference):
    with pytest.warns(UserWarning):
        many = evaluate_many(collection / "qrels", collection / "runs", MEASURES, batch_size=2)
    for fmt in ("trec", "csv", "json", "markdown"):
        got, expected = io.BytesIO(), io.BytesIO()
        write_summary(many, got, fmt=fmt)
        write_results(reference, expected, fmt=fmt, per_query=False)
        assert got.getvalue() == expected.getvalue(), fmt


def test_glob_list_and_names(collection, reference):
    runs = collection / "runs"
    with pytest.warns(UserWarning):
        many = evaluate_many(collection / "qrels", [str(runs / "r[0-2].run"),
                                                    str(runs / "*.gz")], ["map"], batch_size=2,
                             names=["a", "b", "c", "d", "e", "f"])
    assert many.runs == ("a", "b", "c", "d", "e", "f")
    expected = reference.mean()["map"].to_numpy()[:6]
    np.testing.assert_array_equal(many.mean()["map"].to_numpy(), expected)
    with pytest.warns(UserWarning):
        by_runid = evaluate_many(collection / "qrels", runs, ["map"], names="runid")
    assert by_runid.runs == tuple(f"sys{k}" for k in range(9))


def test_evaluate_takes_a_folder_or_a_pattern(collection, reference):
    """evaluate() reads a folder's run files (TREC, gzip and Parquet) sorted by name, or a
    pattern's, to the values of the oracle (Parquet read by pandas)."""
    runs = collection / "runs"
    with pytest.warns(UserWarning):
        folder = irscale.evaluate(collection / "qrels", runs, MEASURES)
    assert folder.runs == tuple(f"r{k}" for k in range(9))  # by file
    with pytest.warns(UserWarning):
        by_runid = irscale.evaluate(collection / "qrels", runs, MEASURES, names="runid")
    assert by_runid.runs == tuple(f"sys{k}" for k in range(9))
    np.testing.assert_array_equal(folder.mean().to_numpy(), reference.mean().to_numpy())
    with pytest.warns(UserWarning):
        pattern = irscale.evaluate(collection / "qrels", str(runs / "*.parquet"), ["map"])
    assert pattern.runs == ("r6", "r7", "r8")
    np.testing.assert_array_equal(pattern.mean()["map"].to_numpy(),
                                  reference.mean()["map"].to_numpy()[6:])


def test_run_files_order_and_errors(tmp_path):
    for name in ("b.run", "a.run", ".hidden", "c.gz"):
        (tmp_path / name).write_text("1 Q0 d1 1 1 x\n")
    (tmp_path / "sub").mkdir()
    assert [Path(p).name for p in run_files(tmp_path)] == ["a.run", "b.run", "c.gz"]
    assert [Path(p).name for p in run_files(str(tmp_path / "*.run"))] == ["a.run", "b.run"]
    with pytest.raises(EmptyInputError, match="holds no run file"):
        run_files(tmp_path / "sub")
    with pytest.raises(EmptyInputError, match="matches no run file"):
        run_files(str(tmp_path / "*.nothing"))
    with pytest.raises(FileAccessError, match="no such file"):
        run_files(tmp_path / "missing")
    with pytest.raises(ParameterError, match="given twice"):
        run_files([tmp_path / "a.run", str(tmp_path / "a.*")])


@pytest.mark.filterwarnings("ignore:run 'r[01]'.*not evaluated:UserWarning")
def test_errors_stop_the_job_and_leave_nothing(collection, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    for path in sorted((collection / "runs").glob("r[0-2].run")):
        (runs / path.name).write_bytes(path.read_bytes())
    lines = (runs / "r2.run").read_text().splitlines()
    lines[4] = "101 Q0 dX 5 not-a-number sys2"
    (runs / "r2.run").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    with pytest.raises(InputFormatError, match=r"r2\.run.*line 5|line 5.*r2\.run"):
        evaluate_many(collection / "qrels", runs, ["map"], batch_size=1, out=out, workers=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs"]  # no out, no temporary


def test_out_folder_rules(collection, tmp_path):
    qrels, runs = collection / "qrels", collection / "runs"
    out = tmp_path / "out"
    out.mkdir()  # an empty folder is fine
    with pytest.warns(UserWarning):
        evaluate_many(qrels, runs, ["map"], out=out, batch_size=5)
    with pytest.raises(OutputExistsError, match="holds files already"):
        evaluate_many(qrels, runs, ["map"], out=out)
    with pytest.warns(UserWarning):  # --force replaces an earlier output (2 parts -> 1)
        evaluate_many(qrels, runs, ["map"], out=out, force=True, batch_size=9)
    assert sorted(p.name for p in out.iterdir()) == [part_name(0, 1)]
    (out / "notes.txt").write_text("mine")
    with pytest.raises(OutputExistsError, match=r"notes\.txt"):
        evaluate_many(qrels, runs, ["map"], out=out, force=True)
    assert (out / "notes.txt").read_text() == "mine"
    with pytest.raises(OutputExistsError, match="holds the input"):
        evaluate_many(qrels, runs, ["map"], out=runs.parent, force=True)


@pytest.mark.parametrize("how", ["qrels-inside", "run-hard-link", "run-symlink", "qrels-hard-link",
                                 "is-the-runs-folder"])
def test_out_never_holds_an_input(collection, tmp_path, how):
    """``out`` is replaced as a whole: a folder that holds one of the call's inputs (the qrels
    too), under any name, is refused even with ``force=True``, and left as it was."""
    qrels, runs = collection / "qrels", collection / "runs"
    out = tmp_path / "out"
    out.mkdir()
    first = sorted(runs.iterdir())[0]
    if how == "qrels-inside":
        qrels = out / "part-00000.parquet"  # named like a part file of an earlier output
        qrels.write_bytes((collection / "qrels").read_bytes())
    elif how == "run-hard-link":
        os.link(first, out / "part-00000.parquet")
    elif how == "run-symlink":
        os.symlink(first, out / "part-00000.parquet")
    elif how == "qrels-hard-link":
        os.link(qrels, out / "part-00000.parquet")
    else:
        out = runs
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(OutputExistsError, match=r"holds the input|is the input"):
        evaluate_many(qrels, runs, ["map"], out=out, force=True)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3"])
def test_bad_batch_size(collection, bad):
    with pytest.raises(ParameterError, match="batch_size"):
        evaluate_many(collection / "qrels", collection / "runs", ["map"], batch_size=bad)


def test_dask_local_cluster_gives_the_same_results(collection, reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        # the unjudged-topic warnings of the workers are shown here
        with pytest.warns(UserWarning, match="not evaluated"):
            many = evaluate_many(collection / "qrels", collection / "runs", MEASURES,
                                 batch_size=2, executor=client, out=tmp_path / "pt")
    _assert_same(many, reference)


# VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a child forked from a large
# pytest process reports the parent's peak (760 MB in a full run, whatever the batch).
_MEMORY_SCRIPT = """
import sys
from pathlib import Path
import numpy as np
from irscale.evaluation.many import evaluate_many

root, count, batch = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
files = sorted((root / "runs").iterdir())[:count]
evaluate_many(root / "qrels", files, ["map", "P.10"], batch_size=batch, workers=1)
print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")))
"""


@pytest.fixture(scope="module")
def many_files(tmp_path_factory):
    """100 runs of 20,000 lines (50 topics x 400 documents), as Parquet (fast to write)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    root = tmp_path_factory.mktemp("memory")
    rng = np.random.default_rng(3)
    topics = np.repeat(np.arange(50), 400).astype(str)
    docs = np.char.add("doc", rng.integers(0, 10**6, size=20_000).astype(str))
    (root / "qrels").write_text("".join(f"{t} 0 {d} 1\n" for t, d in
                                        zip(topics[::40], docs[::40], strict=True)))
    (root / "runs").mkdir()
    # distinct docnos within a topic: suffix the position
    docs = np.char.add(np.char.add(docs, "-"), np.tile(np.arange(400), 50).astype(str))
    table = pa.table({"query_id": topics, "doc_id": docs})
    for k in range(100):
        pq.write_table(table.append_column("score", pa.array(rng.random(20_000))),
                       root / "runs" / f"run{k:03d}.parquet")
    return root


def _peak_kib(root: Path, count: int, batch: int) -> int:
    env = dict(os.environ, IRSCALE_NO_PROGRESS="1", OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", _MEMORY_SCRIPT, str(root), str(count),
                           str(batch)], capture_output=True, text=True, env=env, check=True)
    return int(done.stdout.split()[-1])


def test_peak_memory_grows_with_the_batch_not_the_files(many_files):
    """Streamed (batch 2): 10 or 100 files take about the same peak. The control (one
    batch of all 100 files) shows that the measurement sees what holding every run costs,
    so the first comparison can fail."""
    small = _peak_kib(many_files, 10, 2)
    large = _peak_kib(many_files, 100, 2)
    whole = _peak_kib(many_files, 100, 100)
    growth, held = large - small, whole - small
    assert held > 20_000, (small, large, whole)  # 100 runs at once: over 20 MB more (47 seen)
    assert growth < held / 3, (small, large, whole)


def test_progress_counts_files(collection):
    seen: list[tuple[int, int]] = []
    with pytest.warns(UserWarning):
        evaluate_many(collection / "qrels", collection / "runs", ["map"], batch_size=4,
                      workers=1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(4, 9), (8, 9), (9, 9)]  # three batches of 4, 4 and 1 files

"""ir_datasets as a source (``irds:ID``) and lists of namedtuples as inputs.

The datasets are local: registered through ir_datasets' own registry with files written
here (tests/irds_mock.py), so nothing is downloaded. The oracle is the same data read from
a TREC file (byte-identical ``irscale eval`` output) or given as dicts.
"""

from __future__ import annotations

import sys
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest

import irscale
from irscale.errors import EmptyInputError, InputError, InputFormatError, ParameterError

from .docs_examples import check_python_examples
from .irds_mock import register
from .oracle_imports import lazy_importorskip
from .test_cli_eval import cli

pytestmark = pytest.mark.filterwarnings("ignore:.*no judgments are not evaluated")

ir_datasets = lazy_importorskip("ir_datasets")
irds_formats = lazy_importorskip("ir_datasets.formats")


@pytest.fixture(autouse=True)
def _ir_datasets_home(tmp_path, monkeypatch):
    """Whatever ir_datasets would write goes to a temporary folder, not the user's home."""
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "ir_datasets_home"))


def collection(seed: int = 1, topics: int = 7, docs: int = 30, runs: int = 3):
    """Qrels lines (graded, negative = unjudged, topics out of order) and run line lists
    (tied scores, a topic without judgments) of a random collection."""
    rng = np.random.default_rng(seed)
    qrels = []
    for t in rng.permutation(topics):
        for d in rng.choice(docs, size=int(rng.integers(1, docs)), replace=False):
            qrels.append(f"T{t} 0 doc{d:03d} {int(rng.choice([-1, 0, 0, 1, 2, 3]))}")
    run_lines = []
    for r in range(runs):
        lines = []
        for t in range(topics + 1):  # topic T{topics} has no judgments
            for rank, d in enumerate(rng.choice(docs, size=int(rng.integers(1, docs)),
                                                replace=False), 1):
                lines.append(f"T{t} Q0 doc{d:03d} {rank} {int(rng.integers(0, 5)) / 4} "
                             f"sys{r}")
        run_lines.append(lines)
    return qrels, run_lines


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def files(tmp_path):
    qrels, run_lines = collection()
    qrels_path = write(tmp_path / "qrels.txt", qrels)
    runs = [write(tmp_path / f"sys{k}.run", lines) for k, lines in enumerate(run_lines)]
    return qrels_path, runs


def test_read_qrels_irds_equals_the_file(files):
    qrels_path, _ = files
    dataset_id = register(qrels=qrels_path)
    expected = irscale.read_qrels(qrels_path)
    got = irscale.read_qrels(f"irds:{dataset_id}")
    assert got.source == f"irds:{dataset_id}"
    assert got.topic.to_pylist() == expected.topic.to_pylist()
    assert got.docno.to_pylist() == expected.docno.to_pylist()
    assert got.rel.tolist() == expected.rel.tolist()
    assert got.topics == expected.topics


@pytest.mark.parametrize("options", [[], ["-q"], ["-q", "-c", "-m", "ndcg_cut.5,10"],
                                     ["-l2", "-M5", "-J", "-q"]])
def test_cli_eval_irds_is_byte_identical_to_the_file(files, options):
    """The issue's check: qrels from the ir_datasets object give the same bytes."""
    qrels_path, runs = files
    dataset_id = register(qrels=qrels_path)
    paths = [str(run) for run in runs]
    status, from_file, err = cli(["eval", *options, str(qrels_path), *paths])
    assert status == 0, err
    status, from_irds, err = cli(["eval", *options, f"irds:{dataset_id}", *paths])
    assert status == 0, err
    assert from_irds.encode() == from_file.encode()
    assert from_file.count("\tall\t") >= 6  # summaries of three runs


def test_cli_eval_irds_on_the_clef_data(clef):
    """The same on real qrels (graded, 50 topics) and three real runs."""
    qrels_path = clef / "task2.qrels"
    runs = [str(p) for p in sorted((clef / "runs").glob("*.txt"))[:3]]
    dataset_id = register(qrels=qrels_path)
    _, from_file, _ = cli(["eval", "-q", "-m", "official", str(qrels_path), *runs])
    status, from_irds, err = cli(["eval", "-q", "-m", "official", f"irds:{dataset_id}",
                                  *runs])
    assert status == 0, err
    assert from_irds == from_file and from_file


def test_irds_run_is_the_datasets_scored_documents(files):
    qrels_path, runs = files
    dataset_id = register(qrels=qrels_path, scoreddocs=runs[0])
    run = irscale.read_run(f"irds:{dataset_id}")
    expected = irscale.read_run(runs[0])
    assert run.name == dataset_id
    assert irscale.read_run(f"irds:{dataset_id}", name="bm25").name == "bm25"
    assert run.docno.to_pylist() == expected.docno.to_pylist()
    assert run.score.tolist() == expected.score.tolist()
    a = irscale.evaluate(qrels_path, {"x": f"irds:{dataset_id}"}, ["map", "P@5"])
    b = irscale.evaluate(qrels_path, {"x": runs[0]}, ["map", "P@5"])
    assert a.per_topic().equals(b.per_topic())


def _dicts(qrels_lines, run_lines):
    qrels: dict = {}
    for line in qrels_lines:
        t, _, d, r = line.split()
        qrels.setdefault(t, {})[d] = int(r)
    run: dict = {}
    for line in run_lines:
        t, _, d, _, s, _ = line.split()
        run.setdefault(t, {})[d] = float(s)
    return qrels, run


MEASURES = ["map", "P@5", "ndcg_cut_10", "recip_rank", "bpref", "num_rel_ret"]


def test_namedtuple_lists_equal_dicts():
    qrels_lines, run_lines = collection(seed=5)
    qrels, run = _dicts(qrels_lines, run_lines[0])
    expected = irscale.evaluate(qrels, {"run": run}, MEASURES).per_topic()
    qrel_rows = [irds_formats.TrecQrel(t, d, int(r), "0") for t, (_, _, d, r) in
                 ((line.split()[0], line.split()) for line in qrels_lines)]
    run_rows = [irds_formats.GenericScoredDoc(t, d, float(s)) for t, _, d, _, s, _ in
                (line.split() for line in run_lines[0])]
    assert irscale.evaluate(qrel_rows, run_rows, MEASURES).per_topic().equals(expected)
    # iterators (ir_datasets' qrels_iter()), a mapping {name: list}, other field names
    got = irscale.evaluate(iter(qrel_rows), {"run": run_rows}, MEASURES).per_topic()
    assert got.equals(expected)
    Judgment = namedtuple("Judgment", "qid docno rel")
    Hit = namedtuple("Hit", "score docno qid")
    got = irscale.evaluate([Judgment(q.query_id, q.doc_id, q.relevance) for q in qrel_rows],
                           (Hit(h.score, h.doc_id, h.query_id) for h in run_rows),
                           MEASURES).per_topic()
    assert got.equals(expected)


def test_ir_measures_namedtuples():
    ir_measures = pytest.importorskip("ir_measures")
    qrels = [ir_measures.Qrel("1", "d1", 1), ir_measures.Qrel("1", "d2", 0),
             ir_measures.Qrel("2", "d3", 2)]
    run = [ir_measures.ScoredDoc("1", "d2", 2.0), ir_measures.ScoredDoc("1", "d1", 1.0),
           ir_measures.ScoredDoc("2", "d3", 0.5)]
    # hand computation: topic 1 finds its relevant document at rank 2 (AP 1/2), topic 2 at 1
    assert irscale.evaluate(qrels, run, ["map"]).mean().loc["run", "map"] == 0.75


def test_dataset_object_as_qrels(files):
    qrels_path, runs = files
    dataset = ir_datasets.load(register(qrels=qrels_path))
    got = irscale.evaluate(dataset, [str(r) for r in runs], MEASURES).per_topic()
    assert got.equals(irscale.evaluate(qrels_path, [str(r) for r in runs],
                                       MEASURES).per_topic())
    got = irscale.evaluate(dataset.qrels_iter(), str(runs[0]), MEASURES).per_topic()
    assert got.equals(irscale.evaluate(qrels_path, str(runs[0]), MEASURES).per_topic())


def test_integer_ids_and_duplicates():
    Q = namedtuple("Q", "query_id doc_id relevance")
    qrels = irscale.evaluate([Q(1, 7, 1), Q(1, 8, 0)], {"1": {"7": 1.0}}, ["map"])
    assert qrels.mean().iloc[0, 0] == 1.0
    with pytest.raises(InputError, match="1 7"):
        irscale.io.memory.qrels_from_records([Q(1, 7, 1), Q(1, 7, 0)])
    kept = irscale.io.memory.qrels_from_records([Q(1, 7, 1), Q(1, 7, 0)], duplicates="max")
    assert kept.rel.tolist() == [1]


# ----------------------------------------------------------------------------- errors
def test_unknown_dataset_names_close_ids():
    with pytest.raises(InputError, match=r"unknown ir_datasets dataset 'msmarco-passage/dev/"
                       r"smal'.*msmarco-passage/dev/small"):
        irscale.read_qrels("irds:msmarco-passage/dev/smal")
    with pytest.raises(InputError, match="name an ir_datasets dataset"):
        irscale.read_qrels("irds:")


def test_dataset_without_qrels(files):
    _, runs = files
    dataset_id = register(scoreddocs=runs[0])
    with pytest.raises(InputError, match=f"irds:{dataset_id}, the ir_datasets dataset has "
                       "no qrels; it provides scoreddocs"):
        irscale.evaluate(f"irds:{dataset_id}", runs[0], ["map"])
    with pytest.raises(InputError, match="no scored documents"):
        irscale.read_run(f"irds:{register(qrels=files[0])}")


def test_files_not_available_locally(tmp_path):
    dataset_id = register(qrels=tmp_path / "not-downloaded.qrels")
    with pytest.raises(InputError, match=r"not available locally.*FileNotFoundError"):
        irscale.read_qrels(f"irds:{dataset_id}")


def test_files_ir_datasets_cannot_parse(tmp_path):
    bad = tmp_path / "three-columns.qrels"
    bad.write_text("1 d1 1\n")
    dataset_id = register(qrels=bad)
    with pytest.raises(InputError, match=r"ir_datasets could not read the dataset's qrels "
                       r"\(RuntimeError: expected 4 columns, got 3\)"):
        irscale.read_qrels(f"irds:{dataset_id}")


def test_ir_datasets_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # import raises ImportError
    with pytest.raises(InputError, match=r"pip install 'irscale\[irds\]'"):
        irscale.read_qrels("irds:msmarco-passage/dev/small")


def test_rank_column_refused_for_irds_runs(files):
    dataset_id = register(scoreddocs=files[1][0])
    with pytest.raises(ParameterError, match="no rank column"):
        irscale.read_run(f"irds:{dataset_id}", keep_rank=True)


def test_bad_records():
    Q = namedtuple("Q", "query_id doc_id relevance")
    Other = namedtuple("Other", "query_id doc_id relevance")
    with pytest.raises(InputError, match=r"namedtuples of one type.*Other, Q"):
        irscale.io.memory.qrels_from_records([Q("1", "a", 1), Other("1", "b", 1)])
    with pytest.raises(InputError, match=r"has no value field.*query_id, doc_id, relevance"):
        irscale.io.memory.run_from_records([Q("1", "a", 1)])
    with pytest.raises(InputError, match="id is None"):
        irscale.io.memory.qrels_from_records([Q("1", None, 1)])
    with pytest.raises(InputFormatError, match=r"relevance is not an integer.*1 a 0.5"):
        irscale.io.memory.qrels_from_records([Q("1", "a", 0.5)])
    with pytest.raises(InputFormatError, match=r"relevance is not a number.*1 a high"):
        irscale.io.memory.qrels_from_records([Q("1", "a", "high")])
    with pytest.raises(EmptyInputError):
        irscale.io.memory.qrels_from_records(iter([]))
    with pytest.raises(InputError, match=r"namedtuples of one type.*tuple"):
        irscale.evaluate(iter([("1", "a", 1)]), {"1": {"a": 1.0}}, ["map"])


def test_docs_example():
    """docs/evaluation.md's example registers a local dataset and prints what it shows."""
    check_python_examples("evaluation.md", "ir_datasets and lists of namedtuples")

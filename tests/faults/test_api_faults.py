"""The Python API: every bad input or parameter raises an :mod:`irscale.errors` exception
that is also a ``ValueError`` (bad values) or an ``OSError`` (files that cannot be read:
``FileAccessError``) — never a bare ``KeyError``, ``IndexError``, ``ZeroDivisionError``,
pyarrow or numpy error, and never a silent result."""

from __future__ import annotations

import gzip
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irscale
import irscale.collections
import irscale.online
from irscale import meta, scales, stats
from irscale.core import ScoreMatrix
from irscale.errors import FileAccessError, IrscaleError
from irscale.report import build_report
from irscale.scales.diagnostics import tau_table
from irscale.scales.diversity import diversity_measure
from irscale.text import evaluate_nuggets, evaluate_rouge, evaluate_sessions

from .conftest import NUMPY_REPR, populate, qrels_lines, run_lines, text


@dataclass
class Api:
    """What the calls of the table work on (in a folder holding the valid collection)."""

    root: Path
    matrix: ScoreMatrix  # 12 topics x 4 systems, measure "ap"
    three: ScoreMatrix  # the same with measures ap, p10, gold
    x: np.ndarray  # two systems' per-topic scores
    y: np.ndarray

    def path(self, name: str) -> str:
        return str(self.root / name)

    def write(self, name: str, data: bytes | str) -> str:
        path = self.root / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return str(path)


@pytest.fixture
def api(tmp_path, monkeypatch) -> Api:
    populate(tmp_path)
    monkeypatch.chdir(tmp_path)
    matrix = ScoreMatrix.read_csv(tmp_path / "ap.csv")
    parts = [ScoreMatrix.read_csv(tmp_path / f"{m}.csv") for m in ("ap", "p10", "gold")]
    three = ScoreMatrix.from_array(np.stack([p.values[:, :, 0] for p in parts], axis=2),
                                   topics=matrix.topics, systems=matrix.systems,
                                   measures=["ap", "p10", "gold"])
    values = matrix.values[:, :, 0]
    return Api(tmp_path, matrix, three, values[:, 0].copy(), values[:, 1].copy())


VALUE, FILE = "value", "file"
NAN = float("nan")
QRELS = text(qrels_lines())
RUN = text(run_lines("a"))


#: Two rankers' lists, an interleaving log, a click log and a per-user table of the
#: online rows.
RANKERS = {"A": {"q": ["a", "b"]}, "B": {"q": ["b", "a"]}}
INTERLEAVING_LOG = b"i1 q 1 d1 A 1\ni1 q 2 d2 B 0\ni2 q 1 d2 B 1\ni2 q 2 d1 A 1\n"
CLICK_LOG = b"s1 q 1 a 1\ns1 q 2 b 0\ns2 q 1 b 0\ns2 q 2 a 1\n"
AB_TABLE = pd.DataFrame({"variant": ["control", "treatment"] * 4, "clicks": range(8),
                         "impressions": [4] * 8})


def _shown():
    """Lists shown, whose clicks the rows simulate."""
    return irscale.online.interleave_runs(RANKERS, 2, rng=1)


@dataclass(frozen=True)
class Row:
    id: str
    call: Callable[[Api], object]
    kind: str = VALUE
    needles: tuple[str, ...] = ()


def _seeds() -> object:
    """The seed evaluation of two systems (a.run and b.run; c.run)."""
    from irscale.stats.seeds import evaluate_seeds

    return evaluate_seeds("qrels.txt", {"A": ["a.run", "b.run"], "C": ["c.run"]}, "map")


#: Predictions of two predictors on six topics and their effectiveness (QPP rows).
_QPP_PRED = pd.DataFrame({"topic": [str(t) for t in range(6)] * 2,
                          "predictor": ["a"] * 6 + ["b"] * 6,
                          "value": [0.1, 0.4, 0.2, 0.8, 0.5, 0.3, 0.9, 0.1, 0.3, 0.2, 0.7, 0.4]})
_QPP_OBS = pd.DataFrame({"topic": [str(t) for t in range(6)],
                         "value": [0.2, 0.5, 0.1, 0.9, 0.4, 0.3]})


def bad(id: str, call: Callable[[Api], object], *needles: str, kind: str = VALUE):
    return pytest.param(Row(id, call, kind, needles), id=id)


def _qrels_line3(new: str) -> bytes:
    lines = qrels_lines()
    lines[2] = new
    return text(lines)


def _run_line3(new: str) -> bytes:
    lines = run_lines("a")
    lines[2] = new
    return text(lines)


def _frame_qrels(**changes) -> pd.DataFrame:
    frame = pd.DataFrame([line.split() for line in qrels_lines()],
                         columns=["query_id", "iter", "doc_id", "relevance"])
    frame["relevance"] = frame["relevance"].astype(int)
    for column, (row, value) in changes.items():
        frame[column] = frame[column].astype(object)
        frame.loc[row, column] = value
    return frame


def _frame_run(**changes) -> pd.DataFrame:
    frame = pd.DataFrame([line.split() for line in run_lines("a")],
                         columns=["query_id", "q0", "doc_id", "rank", "score", "run"])
    frame = frame.drop(columns=["q0", "run"])
    frame["score"] = frame["score"].astype(float)
    for column, (row, value) in changes.items():
        frame[column] = frame[column].astype(object)
        frame.loc[row, column] = value
    return frame


def _frame_runs() -> pd.DataFrame:
    """Two runs in one DataFrame, told apart by its ``run`` column."""
    frame = pd.concat([_frame_run(), _frame_run()], ignore_index=True)
    frame["run"] = ["x"] * (len(frame) // 2) + ["y"] * (len(frame) - len(frame) // 2)
    return frame


#: A session run, texts, nuggets, matches and lengths (as bytes) for the text API rows.
SESSION_RUN = b"1 1 d1 1 0.9 s\n1 2 d3 1 0.8 s\n"
TEXTS = b"1\tsysA\tthe cat sat\n"
NUGGETS = b"1 n1 1 vital cat\n"
MATCHES = b"1 sysA n1 3\n"
LENGTHS = b"1 sysA 10\n"


#: Two runs and qrels of their topic for the fusion rows.
FUSE_RUNS = {"a": {"q1": {"d1": 2.0, "d2": 1.0}}, "b": {"q1": {"d2": 3.0}}}
FUSE_QRELS = {"q1": {"d2": 1}}


def _ir_measures():
    """ir_measures (a test dependency), imported by the rows that name its measures."""
    return pytest.importorskip("ir_measures")


def _synthetic(**options):
    """A synthetic collection of ``options``."""
    from irscale.datasets import synthetic_collection

    return synthetic_collection(**options)


def _shard_scores():
    """Replicated scores: 4 topics × 3 systems × 2 shards."""
    return stats.ShardScores.from_array(np.random.default_rng(0).random((4, 3, 2)))


def _across(api: Api, **options):
    """The comparison of two collections, the matrix of the table twice."""
    from irscale.stats.across_collections import across_collections

    return across_collections({"x": api.matrix, "y": api.matrix}, rng=1, **options)


def _document_variance(**options):
    """The document bootstrap of two runs of one topic."""
    from irscale.stats.document_sampling import document_variance

    return document_variance({"1": {"d1": 1, "d2": 0}}, {"1": {"d1": 2.0, "d2": 1.0}},
                             {"1": {"d2": 2.0, "d1": 1.0}}, **options)


def _forest(api: Api, pairs: list[tuple[str, str]]) -> object:
    """The forest plot of ``pairs`` of an across-collections result."""
    from irscale.plots import forest

    return forest(_across(api, samples=20), pairs)


def _precision_recall(runs: list[str], *, table: bool = False) -> object:
    """The precision-recall curves of ``runs`` of a.run's evaluation (or of its table)."""
    from irscale.plots import interpolated_precision, precision_recall

    ev = _ev(measures="iprec_at_recall")
    return precision_recall(interpolated_precision(ev) if table else ev, runs)


def _letters(systems: list[str], pairs: list[tuple[str, str]]) -> object:
    from irscale.stats.letters import compact_letters

    return compact_letters(systems, pairs)


def _ev(qrels=None, runs=None, measures="map", **options):
    return irscale.evaluate("qrels.txt" if qrels is None else qrels,
                            "a.run" if runs is None else runs, measures, **options)


ROWS = [
    # ================================================================ read_qrels
    bad("read_qrels-missing-file", lambda a: irscale.read_qrels("missing.txt"),
        "missing.txt", kind=FILE),
    bad("read_qrels-directory", lambda a: irscale.read_qrels("adir"), "adir", kind=FILE),
    bad("read_qrels-missing-pathlib", lambda a: irscale.read_qrels(a.root / "nope.txt"),
        "nope.txt", kind=FILE),
    bad("read_qrels-empty-bytes", lambda a: irscale.read_qrels(b"")),
    bad("read_qrels-blank-lines", lambda a: irscale.read_qrels(b"\n \n")),
    bad("read_qrels-too-few-fields", lambda a: irscale.read_qrels(_qrels_line3("1 0 d3")),
        "line 3"),
    bad("read_qrels-non-numeric", lambda a: irscale.read_qrels(_qrels_line3("1 0 d3 abc")),
        "line 3", "abc"),
    bad("read_qrels-float", lambda a: irscale.read_qrels(_qrels_line3("1 0 d3 1.5")),
        "line 3"),
    bad("read_qrels-beyond-int64", lambda a: irscale.read_qrels(
        _qrels_line3(f"1 0 d3 {2**63}")), "line 3"),
    bad("read_qrels-non-utf8", lambda a: irscale.read_qrels(
        _qrels_line3("1 0 dQQ 1").replace(b"QQ", b"\xff")), "line 3"),
    bad("read_qrels-nul", lambda a: irscale.read_qrels(_qrels_line3("1 0 d\x003 1")),
        "line 3"),
    bad("read_qrels-duplicate", lambda a: irscale.read_qrels(QRELS + b"1 0 d1 0\n"), "d1"),
    bad("read_qrels-truncated-gzip", lambda a: irscale.read_qrels(
        a.write("q.gz", gzip.compress(QRELS)[:30])), "q.gz"),
    bad("read_qrels-corrupt-gzip-bytes", lambda a: irscale.read_qrels(
        b"\x1f\x8b" + b"\x00" * 40)),
    bad("read_qrels-stream-garbage", lambda a: irscale.read_qrels(io.BytesIO(b"garbage\n"))),
    bad("read_qrels-duplicates-policy", lambda a: irscale.read_qrels(
        "qrels.txt", duplicates="bogus"), "bogus"),
    # ================================================================ read_run(s)
    bad("read_run-missing-file", lambda a: irscale.read_run("missing.run"), "missing.run",
        kind=FILE),
    bad("read_run-directory", lambda a: irscale.read_run("adir"), "adir", kind=FILE),
    bad("read_run-empty", lambda a: irscale.read_run(b"")),
    bad("read_run-too-few-fields", lambda a: irscale.read_run(_run_line3("1 Q0 d7 3 0.7")),
        "line 3"),
    bad("read_run-too-many-fields", lambda a: irscale.read_run(
        _run_line3("1 Q0 d7 3 0.7 teamA_r1 extra")), "line 3"),
    bad("read_run-non-numeric-score", lambda a: irscale.read_run(
        _run_line3("1 Q0 d7 3 abc teamA_r1")), "line 3", "abc"),
    bad("read_run-nan-score", lambda a: irscale.read_run(_run_line3("1 Q0 d7 3 nan teamA_r1")),
        "line 3"),
    bad("read_run-inf-score", lambda a: irscale.read_run(_run_line3("1 Q0 d7 3 inf teamA_r1")),
        "line 3"),
    bad("read_run-non-utf8", lambda a: irscale.read_run(
        _run_line3("1 Q0 dQQ 3 0.7 teamA_r1").replace(b"QQ", b"\xfe")), "line 3"),
    bad("read_run-nul", lambda a: irscale.read_run(_run_line3("1 Q0 d\x007 3 0.7 teamA_r1")),
        "line 3"),
    bad("read_run-duplicate-document", lambda a: irscale.read_run(
        _run_line3("1 Q0 d2 3 0.7 teamA_r1")), "d2"),
    bad("read_run-truncated-gzip", lambda a: irscale.read_run(
        a.write("r.gz", gzip.compress(RUN)[:30])), "r.gz"),
    bad("read_run-duplicates-policy", lambda a: irscale.read_run("a.run", duplicates="x"),
        "x"),
    bad("read_runs-one-missing", lambda a: irscale.read_runs(["a.run", "missing.run"]),
        "missing.run", kind=FILE),
    bad("read_runs-mapping-missing", lambda a: irscale.read_runs({"x": "missing.run"}),
        "missing.run", kind=FILE),
    bad("read_runs-one-bad", lambda a: irscale.read_runs(
        ["a.run", a.write("bad.run", _run_line3("1 Q0 d7 3 abc teamA_r1"))]),
        "bad.run", "line 3"),
    bad("read_runs-names-unknown", lambda a: irscale.read_runs(["a.run"], names="bogus"),
        "bogus"),
    # ---------------------------------------------------------------- not a source at all
    bad("read_run-none", lambda a: irscale.read_run(None), "read_run", "got None"),
    bad("read_run-int", lambda a: irscale.read_run(3), "read_run", "int 3", "file path"),
    bad("read_run-float", lambda a: irscale.read_run(3.5), "float 3.5"),
    bad("read_run-object", lambda a: irscale.read_run(object()), "read_run", "object"),
    bad("read_run-list", lambda a: irscale.read_run(["a.run", "b.run"]), "read_runs"),
    bad("read_run-runs-mapping", lambda a: irscale.read_run({"x": "a.run", "y": "b.run"}),
        "read_run", "mapping", "read_runs"),
    bad("read_run-frame-run-column", lambda a: irscale.read_run(_frame_runs()), "read_run",
        "2", "read_runs"),
    bad("read_qrels-none", lambda a: irscale.read_qrels(None), "read_qrels", "got None"),
    bad("read_qrels-int", lambda a: irscale.read_qrels(3), "read_qrels", "int 3",
        "file path"),
    bad("read_runs-none", lambda a: irscale.read_runs(None), "read_runs", "None"),
    bad("read_runs-int", lambda a: irscale.read_runs(3), "read_runs", "int 3"),
    bad("read_runs-one-path", lambda a: irscale.read_runs("a.run"), "'a.run'", "read_run"),
    bad("read_runs-one-pathlib", lambda a: irscale.read_runs(a.root / "a.run"), "a.run",
        "read_run"),
    bad("read_runs-one-bytes", lambda a: irscale.read_runs(RUN), "bytes", "read_run"),
    bad("read_runs-frame", lambda a: irscale.read_runs(_frame_run()), "DataFrame"),
    bad("read_runs-item-none", lambda a: irscale.read_runs(["a.run", None]), "item 2",
        "None"),
    bad("read_runs-mapping-value-int", lambda a: irscale.read_runs({"x": 3}), "'x'",
        "int 3"),
    # ================================================================ evaluate: options
    bad("evaluate-measure-unknown", lambda a: _ev(measures="nosuch"), "nosuch"),
    bad("evaluate-measures-empty-list", lambda a: _ev(measures=[])),
    bad("evaluate-measure-P-rel-0", lambda a: _ev(measures="P(rel=0)@5"), "rel"),
    bad("evaluate-measure-nDCG-gain-foo", lambda a: _ev(measures="nDCG(gain=foo)"), "foo"),
    bad("evaluate-measure-RBP-p-2", lambda a: _ev(measures="RBP(p=2)")),
    bad("evaluate-measure-NumRet-rel-0", lambda a: _ev(measures="NumRet(rel=0)"), "rel"),
    bad("evaluate-relevance-level-0", lambda a: _ev(relevance_level=0), "relevance_level"),
    bad("evaluate-unknown-keyword", lambda a: _ev(relevence_level=2), "relevence_level",
        "relevance_level"),
    bad("evaluate_many-unknown-keyword",
        lambda a: irscale.evaluate_many("qrels.txt", ["a.run"], "map", judged=True),
        "judged", "judged_only"),
    bad("pool-unknown-keyword",
        lambda a: irscale.collections.pool(["a.run"], strategy="depth", depht=5), "depht"),
    bad("evaluate-relevance-level-negative", lambda a: _ev(relevance_level=-1),
        "relevance_level"),
    bad("evaluate-relevance-level-float", lambda a: _ev(relevance_level=1.5),
        "relevance_level"),
    bad("evaluate-max-docs-negative", lambda a: _ev(max_docs=-1), "max_docs"),
    bad("evaluate-max-docs-beyond-int64", lambda a: _ev(max_docs=2**70), "max_docs"),
    bad("evaluate-num-docs-negative", lambda a: _ev(num_docs_in_coll=-1), "num_docs_in_coll"),
    bad("evaluate-compat-8", lambda a: _ev(compat=8), "compat"),
    bad("evaluate-ties-unknown", lambda a: _ev(ties="random"), "random"),
    bad("evaluate-ties-expected-infap", lambda a: _ev(measures="infAP", ties="expected"),
        "infAP has no tie-aware value"),
    bad("evaluate-measures-comma-list", lambda a: _ev(measures="nDCG@10,P@10"),
        "list of measures", "measures=['nDCG@10', 'P@10']"),
    bad("evaluate-ties-expected-iprec", lambda a: _ev(measures="iprec_at_recall",
                                                      ties="expected"),
        "iprec_at_recall has no tie-aware value", "gRBP", "nDCG"),
    bad("evaluate-ties-expected-max-docs", lambda a: _ev(ties="expected", max_docs=3),
        "max_docs"),
    bad("scales-transform-ties-expected", lambda a: irscale.scales.transform(
        "qrels.txt", "a.run", "AP", 3, tie_policy="expected"), "'expected'", "scales"),
    bad("evaluate-labels-missing-file", lambda a: _ev(
        measures="uRBP(p=0.8)", labels={"under": "missing.txt"}), "missing.txt", kind=FILE),
    bad("evaluate-labels-not-a-source", lambda a: _ev(measures="uRBP(p=0.8)",
                                                      labels={"under": 5})),
    bad("evaluate-labels-absent", lambda a: _ev(measures="uRBP(p=0.8)"), "under"),
    bad("evaluate-qrels-missing-file", lambda a: _ev(qrels="missing.txt"), "missing.txt",
        kind=FILE),
    # a folder is a set of run files: a bad file inside it is named, with its line
    bad("evaluate-run-directory-bad-file", lambda a: _ev(runs="adir"), "keep.txt", "line 1"),
    bad("evaluate-qrels-wrong-type", lambda a: _ev(qrels=42)),
    # wrong types are errors of irscale.errors, not AttributeError/TypeError from inside
    bad("evaluate-labels-a-list", lambda a: _ev(labels=["labels.txt"]), "labels",
        "Mapping"),
    bad("evaluate-labels-a-str", lambda a: _ev(labels="labels.txt"), "labels", "Mapping"),
    bad("evaluate-allow-empty-not-bool", lambda a: _ev(allow_empty="yes"), "allow_empty"),
    # -Z's rules are evaluate's binding's, the command line's too (docs/errors.md)
    bad("evaluate-zscores-with-compat-10", lambda a: _ev(zscores=b"1 map 0.5 0.1\n",
                                                         compat=10),
        "zscores= applies without compat=10"),
    bad("evaluate-zscores-with-labels", lambda a: _ev(zscores=b"1 map 0.5 0.1\n",
                                                      labels={"u": "labels.txt"}),
        "zscores= applies without labels="),
    # a dataset's conventions are for judgments: the binding's rule, eval's too
    bad("evaluate-dataset-with-prefs", lambda a: _ev(dataset="trec-dl-2019-passage",
                                                     relevance_format="prefs"),
        "dataset= applies to judgments, not to relevance_format 'prefs'"),
    # a seed evaluation's table: the level, samples and seed of the intervals apply to
    # them (they were ignored without), as irscale eval-seeds refuses --alpha, --ci-samples
    # and --ci-seed
    bad("seeds-format-alpha-without-interval", lambda a: _seeds().format(alpha=0.1),
        "alpha= applies to the intervals (interval=)"),
    bad("seeds-format-samples-with-t", lambda a: _seeds().format(interval="t", samples=50),
        "samples= applies to the bootstrap intervals (interval='bootstrap')"),
    bad("seeds-format-rng-without-interval", lambda a: _seeds().format(rng=3),
        "rng= applies to the bootstrap intervals"),
    bad("seeds-format-runs-with-interval", lambda a: _seeds().format(runs=True,
                                                                      interval="t"),
        "interval= applies without runs="),
    bad("seeds-format-pairs-without-interval", lambda a: _seeds().format(pairs=True),
        "pairs= applies to the intervals (interval=)"),
    bad("evaluate_seeds-level-0", lambda a: stats.seeds.evaluate_seeds(
        "qrels.txt", {"A": ["a.run", "b.run"]}, "map", relevance_level=0),
        "relevance_level", "got 0"),
    bad("evaluate_many-batch-size-0", lambda a: irscale.evaluate_many(
        "qrels.txt", ["a.run"], "map", batch_size=0), "batch_size", "got 0"),
    # the sizes of the synthetic collection checked on entry (an unknown keyword was
    # Python's TypeError)
    bad("synthetic_collection-unknown-keyword", lambda a: _synthetic(n_topic=3), "n_topic",
        "did you mean n_topics?"),
    bad("synthetic_collection-topics-0", lambda a: _synthetic(n_topics=0), "n_topics",
        "got 0"),
    bad("synthetic_collection-pool-size-beyond", lambda a: _synthetic(pool_size=1001),
        "pool_size", "got 1001"),
    bad("synthetic_collection-depth-beyond-the-pool", lambda a: _synthetic(
        pool_size=10, depth=16), "depth", "got 16"),
    # the split into shards: a seed applies to random shards, in the binding's words
    bad("shard_documents-rng-with-hash", lambda a: irscale.collections.shard_documents(
        ["d1", "d2"], 2, method="hash", rng=1), "rng=", "'hash'"),
    bad("shard_documents-k-0", lambda a: irscale.collections.shard_documents(["d1"], 0),
        "shards (k)", "got 0"),
    bad("evaluate-many-runs-none", lambda a: irscale.evaluate_many("qrels.txt", None),
        "runs: expected", "None"),
    bad("evaluate-many-measures-none", lambda a: irscale.evaluate_many(
        "qrels.txt", ["a.run"], None), "measures", "None"),
    bad("evaluate-sessions-runs-none", lambda a: evaluate_sessions("qrels.txt", None),
        "session run"),
    bad("evaluate-sessions-no-run", lambda a: evaluate_sessions("qrels.txt", []),
        "session run"),
    bad("evaluate-sessions-measures-none", lambda a: evaluate_sessions(
        "qrels.txt", SESSION_RUN, None), "measures", "None"),
    bad("evaluate-sessions-measure-not-a-str", lambda a: evaluate_sessions(
        "qrels.txt", SESSION_RUN, [1]), "measures", "not a string"),
    bad("evaluate-rouge-measures-none", lambda a: evaluate_rouge(TEXTS, TEXTS, None),
        "measures", "None"),
    bad("evaluate-rouge-measure-not-a-str", lambda a: evaluate_rouge(TEXTS, TEXTS, [1]),
        "measures", "not a string"),
    bad("evaluate-rouge-no-candidates", lambda a: evaluate_rouge(TEXTS, []), "candidates"),
    bad("evaluate-nuggets-measures-none", lambda a: evaluate_nuggets(
        NUGGETS, MATCHES, None, lengths=LENGTHS), "measures", "None"),
    bad("evaluate-nuggets-measure-not-a-str", lambda a: evaluate_nuggets(
        NUGGETS, MATCHES, [1], lengths=LENGTHS), "measures", "not a string"),
    bad("build-report-measure-not-a-str", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], [1]), "got [1] (1 is not"),
    bad("build-report-label-probabilities-without-automatic", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", label_probabilities=True, robustness=False),
        "label_probabilities= applies to automatic judgments (automatic=)"),
    bad("build-report-draws-without-automatic", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", draws=5, robustness=False),
        "draws= applies only with label_probabilities="),
    # the report's binding: each parameter refused where its section is not asked for
    bad("build-report-test-without-baseline", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", test="wilcoxon", robustness=False),
        "test= applies to the comparison with a baseline (baseline=)"),
    bad("build-report-correction-without-baseline", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", correction="bh", robustness=False),
        "correction= applies to the comparison with a baseline"),
    bad("build-report-seed-without-draws", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", seed=3, robustness=False),
        "seed= applies to the sections that draw", "dp=", "confusion="),
    bad("build-report-seed-with-labels-of-pairs", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", automatic="qrels.txt",
        label_probabilities=True, design="uniform", seed=3, robustness=False),
        "seed= applies to the sections that draw",
        "label_probabilities= with design='topics'"),
    bad("build-report-dp-samples-without-dp", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", dp_samples=50, robustness=False),
        "dp_samples= applies to discriminative power (dp=)"),
    bad("build-report-collection-samples-without-collections", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", collection_samples=50, robustness=False),
        "collection_samples= applies to the comparison across collections"),
    bad("build-report-weights-without-collections", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", collection_weights="topics",
        robustness=False), "collection_weights= applies to the comparison across"),
    bad("build-report-interval-samples-with-t", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", interval_samples=50, robustness=False),
        "interval_samples= applies to interval 'bootstrap', not to interval 't'"),
    bad("build-report-scale-depth-without-robustness", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", scale_depth=5, robustness=False),
        "scale_depth= applies to the robustness panel"),
    bad("build-report-design-without-automatic", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", design="uniform", robustness=False),
        "design= applies to automatic judgments (automatic=)"),
    bad("build-report-draws-with-pairs-design", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", automatic="qrels.txt",
        label_probabilities=True, design="uniform", draws=5, robustness=False),
        "draws= applies to design 'topics', not to design 'uniform'"),
    bad("build-report-replicates-without-confusion", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", replicates=5, robustness=False),
        "replicates= applies to judge noise (confusion=)"),
    # the report's binding checks the domain of every section's option on entry: a value
    # outside it is refused as such first, as the command line refuses it (-B 0, --weights
    # nope), not as an option of a section the call does not ask for
    bad("build-report-dp-samples-zero-without-dp", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", dp_samples=0, robustness=False),
        "dp_samples must be an integer in [1, "),
    bad("build-report-interval-samples-zero-with-t", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", interval_samples=0, robustness=False),
        "interval_samples must be an integer in [1, "),
    bad("build-report-collection-samples-zero-without-collections", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", collection_samples=0, robustness=False),
        "collection_samples must be an integer in [1, "),
    bad("build-report-unknown-weights-without-collections", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", collection_weights="nope",
        robustness=False), "collection_weights: unknown weighting 'nope'"),
    bad("build-report-unknown-test-without-baseline", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", test="nope", robustness=False),
        "test: unknown test 'nope'"),
    bad("build-report-unknown-correction-without-baseline", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", correction="nope", robustness=False),
        "correction: unknown correction 'nope'"),
    bad("build-report-interval", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", interval="normal"), "normal"),
    bad("build-report-interval-rng-with-t", lambda a: build_report(
        "qrels.txt", ["a.run", "b.run"], "map", interval_rng=1), "interval_rng",
        "bootstrap"),
    bad("automatic-judgments-draws-without-probabilities", lambda a:
        irscale.collections.automatic_judgments("qrels.txt", "qrels.txt", ["a.run", "b.run"],
                                                "map", draws=5), "draws=", "label_probabilities"),
    bad("automatic-judgments-rng-without-probabilities", lambda a:
        irscale.collections.automatic_judgments("qrels.txt", "qrels.txt", ["a.run", "b.run"],
                                                "map", rng=np.random.default_rng(1)), "rng=",
        "label_probabilities"),
    bad("evaluate-runs-wrong-type", lambda a: _ev(runs=42)),
    bad("evaluate-no-topic-in-common", lambda a: _ev(
        runs={"r": {"101": {"d1": 1.0}}})),
    # ================================================================ evaluate: dicts
    bad("evaluate-qrels-dict-non-numeric", lambda a: _ev(qrels={"1": {"d1": "x"}}), "x"),
    bad("evaluate-qrels-dict-nan", lambda a: _ev(qrels={"1": {"d1": NAN}})),
    bad("evaluate-qrels-dict-float", lambda a: _ev(qrels={"1": {"d1": 1.5}})),
    bad("evaluate-qrels-dict-beyond-int64", lambda a: _ev(qrels={"1": {"d1": 2**64}})),
    bad("evaluate-qrels-dict-none-topic", lambda a: _ev(qrels={None: {"d1": 1}})),
    bad("evaluate-qrels-dict-none-doc", lambda a: _ev(qrels={"1": {None: 1}})),
    bad("evaluate-qrels-dict-none-relevance", lambda a: _ev(qrels={"1": {"d1": None}})),
    bad("evaluate-qrels-dict-list", lambda a: _ev(qrels={"1": ["d1", 1]})),
    bad("evaluate-qrels-dict-empty", lambda a: _ev(qrels={})),
    bad("evaluate-run-dict-nan", lambda a: _ev(runs={"1": {"d1": NAN, "d2": 0.5}})),
    bad("evaluate-run-dict-inf", lambda a: _ev(runs={"1": {"d1": math.inf}})),
    bad("evaluate-run-dict-text", lambda a: _ev(runs={"1": {"d1": "abc"}}), "abc"),
    bad("evaluate-run-dict-none-score", lambda a: _ev(runs={"1": {"d1": None}})),
    bad("evaluate-run-dict-none-topic", lambda a: _ev(runs={None: {"d1": 0.5}})),
    bad("evaluate-run-dict-empty", lambda a: _ev(runs={})),
    bad("evaluate-run-dict-surrogate-doc", lambda a: _ev(runs={"1": {"d\udcff": 0.5}}),
        "not valid text", "d\\udcff"),
    bad("evaluate-qrels-dict-surrogate-topic", lambda a: _ev(qrels={"\ud800": {"d1": 1}}),
        "not valid text"),
    bad("evaluate-runs-mapping-bad-value", lambda a: _ev(runs={"x": 3.5})),
    # ================================================================ evaluate: DataFrames
    bad("evaluate-qrels-frame-nan", lambda a: _ev(qrels=_frame_qrels(relevance=(2, NAN)))),
    bad("evaluate-qrels-frame-text", lambda a: _ev(qrels=_frame_qrels(relevance=(2, "x")))),
    bad("evaluate-qrels-frame-none-topic", lambda a: _ev(
        qrels=_frame_qrels(query_id=(2, None)))),
    bad("evaluate-qrels-frame-none-doc", lambda a: _ev(qrels=_frame_qrels(doc_id=(2, None)))),
    bad("evaluate-qrels-frame-no-relevance", lambda a: _ev(
        qrels=_frame_qrels().drop(columns=["relevance"])), "relevance"),
    bad("evaluate-qrels-frame-empty", lambda a: _ev(qrels=_frame_qrels().iloc[:0])),
    bad("evaluate-qrels-frame-beyond-int64", lambda a: _ev(
        qrels=_frame_qrels(relevance=(2, 2**64)))),
    bad("evaluate-run-frame-nan", lambda a: _ev(runs=_frame_run(score=(2, NAN)))),
    bad("evaluate-run-frame-text", lambda a: _ev(runs=_frame_run(score=(2, "abc")))),
    bad("evaluate-run-frame-none-doc", lambda a: _ev(runs=_frame_run(doc_id=(2, None)))),
    bad("evaluate-run-frame-none-topic", lambda a: _ev(runs=_frame_run(query_id=(2, None)))),
    bad("evaluate-run-frame-no-score", lambda a: _ev(
        runs=_frame_run().drop(columns=["score"])), "score"),
    bad("evaluate-run-frame-bad-rank", lambda a: _ev(runs=_frame_run(rank=(2, "x")))),
    bad("evaluate-run-frame-surrogate-doc", lambda a: _ev(
        runs=_frame_run(doc_id=(2, "d\udcff"))), "not valid text", "row 2"),
    bad("evaluate-run-frame-duplicate", lambda a: _ev(runs=pd.concat(
        [_frame_run(), _frame_run().iloc[:1]], ignore_index=True))),
    # ============================================ the neighbours' shapes (ranx, PyTerrier)
    bad("evaluate-qrels-frame-qid-and-q_id", lambda a: _ev(qrels=_frame_qrels().assign(
        q_id=lambda f: f["query_id"]).drop(columns=["query_id"]).assign(
        qid=lambda f: f["q_id"])), "qid", "q_id"),
    bad("evaluate-run-frame-qid-and-q_id", lambda a: _ev(runs=_frame_run().rename(
        columns={"query_id": "qid"}).assign(q_id=lambda f: f["qid"])), "qid", "q_id"),
    bad("evaluate-run-frame-two-score-columns", lambda a: _ev(
        runs=_frame_run().assign(sim=1.0)), "score", "sim"),
    bad("evaluate-qrels-pyterrier-label-float", lambda a: _ev(qrels=_frame_qrels().rename(
        columns={"query_id": "qid", "doc_id": "docno", "relevance": "label"}).assign(
        label=lambda f: f["label"] + 0.5)), "not an integer"),
    bad("evaluate-qrels-ranx-frame-score-float", lambda a: _ev(qrels=_frame_qrels().rename(
        columns={"query_id": "q_id", "relevance": "score"}).assign(
        score=lambda f: f["score"] + 0.5)), "not an integer"),
    bad("evaluate-qrels-ranx-frame-rel-and-score", lambda a: _ev(qrels=_frame_qrels().rename(
        columns={"query_id": "q_id", "relevance": "rel"}).assign(score=1)), "rel", "score"),
    bad("evaluate-ir_measures-err", lambda a: _ev(
        measures=[_ir_measures().ERR @ 10]), "ERR@10", "no exact counterpart"),
    bad("evaluate-ir_measures-gains", lambda a: _ev(
        measures=[_ir_measures().nDCG(gains={0: 0, 1: 1, 2: 3}) @ 10]), "gains"),
    bad("evaluate-ir_measures-setf-beta", lambda a: _ev(
        measures=[_ir_measures().SetF(beta=2.0)]), "beta=2.0"),
    bad("to_frame-shape", lambda a: _ev().to_frame("bogus"), "bogus", "pyterrier"),
    bad("to_ir_measures-two-runs", lambda a: _ev(runs=["a.run", "b.run"]).to_ir_measures(),
        "2 runs", "run="),
    # run= designates a run as every argument that names one does (core.run_names): a
    # name of none, or of two runs (a run id they share), is refused listing the runs
    bad("to_ir_measures-unknown-run", lambda a: _ev().to_ir_measures(run="nope"),
        "run= 'nope' names no run", "'a' (a.run)"),
    bad("to_ir_measures-ambiguous-run", lambda a: _ev(runs=["a.run", a.write(
        "a2.run", RUN)]).to_ir_measures(run="teamA_r1"), "'teamA_r1' is ambiguous",
        "'a' (a.run)", "a2.run"),
    # ================================================================ ScoreMatrix
    bad("read_csv-missing", lambda a: ScoreMatrix.read_csv("missing.csv"), "missing.csv",
        kind=FILE),
    bad("read_csv-directory", lambda a: ScoreMatrix.read_csv("adir"), "adir", kind=FILE),
    bad("read_csv-empty", lambda a: ScoreMatrix.read_csv(a.write("e.csv", b"")), "e.csv"),
    bad("read_csv-header-only", lambda a: ScoreMatrix.read_csv(a.write("h.csv", "a,b\n")),
        "h.csv"),
    bad("read_csv-extra-field", lambda a: ScoreMatrix.read_csv(
        a.write("x.csv", "a,b\n0.1,0.2\n0.3,0.4,0.5\n")), "x.csv", "line 3"),
    bad("read_csv-non-numeric", lambda a: ScoreMatrix.read_csv(
        a.write("x.csv", "a,b\n0.1,0.2\n0.3,abc\n")), "x.csv", "line 3", "abc"),
    bad("read_csv-empty-cell", lambda a: ScoreMatrix.read_csv(
        a.write("x.csv", "a,b\n0.1,0.2\n0.3,\n")), "x.csv", "line 3"),
    bad("read_csv-nan", lambda a: ScoreMatrix.read_csv(
        a.write("x.csv", "a,b\n0.1,0.2\nnan,0.3\n")), "x.csv", "line 3"),
    bad("read_csv-non-utf8", lambda a: ScoreMatrix.read_csv(
        a.write("x.csv", b"a,\xffb\n0.1,0.2\n0.3,0.4\n")), "x.csv"),
    bad("read_csv-topic-column-unknown", lambda a: ScoreMatrix.read_csv(
        "ap.csv", topic_column="nosuch"), "nosuch"),
    bad("read_csv-duplicate-columns", lambda a: ScoreMatrix.read_csv(
        a.write("x.csv", "a,a\n0.1,0.2\n0.3,0.4\n")), "a"),
    bad("from_array-1d", lambda a: ScoreMatrix.from_array(np.zeros(5))),
    bad("from_array-4d", lambda a: ScoreMatrix.from_array(np.zeros((2, 2, 1, 1)))),
    bad("from_array-nan", lambda a: ScoreMatrix.from_array(np.array([[NAN, 1.0],
                                                                     [0.5, 0.2]]))),
    bad("from_array-inf", lambda a: ScoreMatrix.from_array(np.array([[math.inf, 1.0],
                                                                     [0.5, 0.2]]))),
    bad("from_array-topics-length", lambda a: ScoreMatrix.from_array(
        np.zeros((3, 2)), topics=["a", "b"])),
    bad("from_array-systems-length", lambda a: ScoreMatrix.from_array(
        np.zeros((3, 2)), systems=["a", "b", "c"])),
    bad("from_array-duplicate-systems", lambda a: ScoreMatrix.from_array(
        np.zeros((3, 2)), systems=["a", "a"])),
    bad("from_array-duplicate-topics", lambda a: ScoreMatrix.from_array(
        np.zeros((2, 2)), topics=["t", "t"])),
    bad("from_array-strings", lambda a: ScoreMatrix.from_array(np.array([["a", "b"],
                                                                         ["c", "d"]]))),
    bad("matrix-measure-unknown", lambda a: a.matrix.measure("nosuch"), "nosuch"),
    bad("matrix-subset-unknown-system", lambda a: a.matrix.subset(systems=["nosuch"]),
        "nosuch"),
    # ================================================================ stats
    bad("paired_t-alpha-2", lambda a: stats.paired_t(a.x, a.y, alpha=2), "alpha"),
    bad("paired_t-text-scores", lambda a: stats.paired_t(["a"] * len(a.y), a.y), "x"),
    bad("paired_t-dict-scores", lambda a: stats.paired_t(a.x, [{}] * len(a.x)), "y"),
    bad("friedman-text-table", lambda a: stats.friedman([["a", "b"], ["c", "d"]]),
        "score table"),
    bad("paired_t-alpha-0", lambda a: stats.paired_t(a.x, a.y, alpha=0), "alpha"),
    bad("paired_t-alternative", lambda a: stats.paired_t(a.x, a.y, alternative="bogus"),
        "bogus"),
    bad("paired_t-lengths-differ", lambda a: stats.paired_t(a.x, a.y[:-1])),
    bad("paired_t-nan", lambda a: stats.paired_t(np.r_[NAN, a.x[1:]], a.y)),
    bad("paired_t-one-topic", lambda a: stats.paired_t(a.x[:1], a.y[:1])),
    bad("paired_t-empty", lambda a: stats.paired_t(np.array([]), np.array([]))),
    bad("wilcoxon-method", lambda a: stats.wilcoxon(a.x, a.y, method="bogus"), "bogus"),
    bad("wilcoxon-zero-method", lambda a: stats.wilcoxon(a.x, a.y, zero_method="bogus"),
        "bogus"),
    bad("sign_test-alpha-1", lambda a: stats.sign_test(a.x, a.y, alpha=1), "alpha"),
    bad("mann_whitney-method", lambda a: stats.mann_whitney(a.x, a.y, method="bogus"),
        "bogus"),
    bad("randomization-samples-0", lambda a: stats.randomization_test(
        a.x, a.y, samples=0, exact=False), "samples"),
    bad("randomization-samples-negative", lambda a: stats.randomization_test(
        a.x, a.y, samples=-10, exact=False), "samples"),
    bad("randomization-rng-negative", lambda a: stats.randomization_test(
        a.x, a.y, samples=10, rng=-1, exact=False), "rng"),
    bad("randomization-convention", lambda a: stats.randomization_test(
        a.x, a.y, samples=10, convention="bogus", exact=False), "bogus"),
    bad("randomization-workers-0", lambda a: stats.randomization_test(
        a.x, a.y, samples=10, workers=0, exact=False), "workers"),
    bad("randomization-workers-beyond-the-domain", lambda a: stats.randomization_test(
        a.x, a.y, samples=10, workers=10**20, exact=False), "workers", "beyond a 64-bit"),
    bad("randomization-alpha-2", lambda a: stats.randomization_test(
        a.x, a.y, samples=10, alpha=2), "alpha"),
    bad("bootstrap-samples-0", lambda a: stats.paired_bootstrap_test(a.x, a.y, samples=0),
        "samples"),
    bad("bootstrap-rng-negative", lambda a: stats.paired_bootstrap_test(
        a.x, a.y, samples=10, rng=-1), "rng"),
    bad("bootstrap-shift-samples-0", lambda a: stats.bootstrap_shift_test(
        a.x, a.y, samples=0), "samples"),
    bad("unpaired-bootstrap-samples-0", lambda a: stats.unpaired_bootstrap_test(
        a.x, a.y, samples=0), "samples"),
    bad("pairwise_tests-unknown-test", lambda a: stats.pairwise_tests(a.matrix, "nosuch"),
        "nosuch"),
    bad("pairwise_tests-unknown-correction", lambda a: stats.pairwise_tests(
        a.matrix, "t", correction="nosuch"), "nosuch"),
    bad("pairwise_tests-alpha-2", lambda a: stats.pairwise_tests(a.matrix, "t", alpha=2),
        "alpha"),
    bad("pairwise_tests-no-measure", lambda a: stats.pairwise_tests(a.matrix, measures=[]),
        "measures:", "empty list"),
    bad("pairwise_tests-measure-and-measures", lambda a: stats.pairwise_tests(
        a.three, measure="ap", measures=["p10"]), "measure=", "measures=", "not both"),
    bad("pairwise_tests-measure-list", lambda a: stats.pairwise_tests(
        a.three, measure=["ap", "p10"]), "measure:", "measures=[...]"),
    bad("baseline_comparison-measure-and-measures", lambda a: stats.baseline_comparison(
        a.three, a.three.systems[0], measure="ap", measures="p10"), "not both"),
    bad("tukey_hsd-measures-keyword", lambda a: stats.tukey_hsd(a.three, measures=["ap"]),
        "measures", "did you mean measure?"),
    bad("from_wide-empty", lambda a: ScoreMatrix.from_wide(pd.DataFrame()), "frame",
        "empty DataFrame"),
    bad("from_wide-booleans", lambda a: ScoreMatrix.from_wide(
        pd.DataFrame({"a": [True, False], "b": [True, True]})), "booleans", "'a'"),
    bad("from_wide-two-level-columns", lambda a: ScoreMatrix.from_wide(pd.DataFrame(
        np.ones((2, 2)), columns=pd.MultiIndex.from_tuples([("x", "1"), ("x", "2")]))),
        "several levels"),
    bad("pairwise_tests-unknown-system", lambda a: stats.pairwise_tests(
        a.matrix, "t", systems=["sysA", "nosuch"]), "nosuch"),
    bad("pairwise_tests-samples-0", lambda a: stats.pairwise_tests(
        a.matrix, "bootstrap", samples=0), "samples"),
    # the resamples, seed and threads apply to the tests that resample, in the words of
    # compare --test (the test's unknown keyword before: its kernel's list of keywords)
    bad("pairwise_tests-samples-with-t", lambda a: stats.pairwise_tests(
        a.matrix, "t", samples=100), "samples= applies to test 'randomization'",
        "not to test 't'"),
    bad("pairwise_tests-rng-with-wilcoxon", lambda a: stats.pairwise_tests(
        a.matrix, "wilcoxon", rng=1), "rng= applies to test", "not to test 'wilcoxon'"),
    bad("pairwise_tests-workers-with-sign", lambda a: stats.pairwise_tests(
        a.matrix, "sign", workers=2), "workers= applies to test", "not to test 'sign'"),
    bad("pairwise_tests-alternative-unknown", lambda a: stats.pairwise_tests(
        a.matrix, "t", alternative="sideways"), "alternative: unknown alternative 'sideways'"),
    bad("tukey_hsd-alpha-2", lambda a: stats.tukey_hsd(a.matrix, alpha=2), "alpha"),
    # a transform applies to an ANOVA model, as compare --transform (a rank model ranks the
    # scores itself; tukey_hsd took no transform before)
    bad("tukey_hsd-transform-with-rank-model", lambda a: stats.tukey_hsd(
        a.matrix, "friedman", transform="rank"), "transform= applies without "
        "model='friedman'", "ranks the scores itself"),
    bad("tukey_hsd-transform-unknown", lambda a: stats.tukey_hsd(
        a.matrix, transform="log"), "transform: unknown transform 'log'"),
    bad("tukey_hsd-formula-unknown-factor", lambda a: stats.tukey_hsd(
        a.matrix, "topic+shard"), "unknown model 'topic+shard'", "a formula"),
    bad("randomized_tukey-alpha-2", lambda a: stats.randomized_tukey_hsd(
        a.matrix, samples=10, alpha=2), "alpha"),
    bad("randomized_tukey-convention-unknown", lambda a: stats.randomized_tukey_hsd(
        a.matrix, samples=10, convention="nosuch"), "convention: unknown convention"),
    bad("tukey_hsd-model-unknown", lambda a: stats.tukey_hsd(a.matrix, "nosuch"), "nosuch"),
    # Scheffé's method: an ANOVA model (F distribution), its level, its transform
    bad("scheffe-rank-model", lambda a: stats.scheffe(a.matrix, "kruskal-wallis"),
        "model", "Scheffé's method follows an ANOVA model"),
    bad("scheffe-fake-model", lambda a: stats.scheffe(a.matrix, "MD2f"), "model", "'MD2f'"),
    bad("scheffe-alpha-2", lambda a: stats.scheffe(a.matrix, alpha=2), "alpha"),
    bad("scheffe-transform-unknown", lambda a: stats.scheffe(a.matrix, transform="log"),
        "transform: unknown transform 'log'"),
    bad("scheffe-model-unknown", lambda a: stats.scheffe(a.matrix, "nosuch"), "nosuch"),
    bad("anova-model-unknown", lambda a: stats.anova(a.matrix, "nosuch"), "nosuch"),
    bad("anova-measure-unknown", lambda a: stats.anova(a.matrix, measure="nosuch"), "nosuch"),
    bad("anova-constant", lambda a: stats.anova(ScoreMatrix.from_array(np.full((5, 3), 0.5)))),
    bad("randomized_tukey-samples-0", lambda a: stats.randomized_tukey_hsd(
        a.matrix, samples=0), "samples"),
    bad("randomized_tukey-rng-negative", lambda a: stats.randomized_tukey_hsd(
        a.matrix, samples=10, rng=-1), "rng"),
    bad("friedman-one-system", lambda a: stats.friedman(a.matrix.subset(systems=["sysA"]))),
    # the statistics' bindings (irscale.stats.params): the binomial GLMM's one estimator
    # is maximum likelihood, so method= is refused with it whatever its value (method="ml"
    # was taken silently, as compare --family binomial --method ml never was); a keyword a
    # function does not take is named in irscale's words (it was Python's TypeError)
    bad("mixed_model-binomial-with-method-ml", lambda a: stats.mixed_model(
        a.matrix, family="binomial", method="ml"), "method=", "family 'binomial'"),
    bad("mixed_model-method-unknown", lambda a: stats.mixed_model(a.matrix, method="mom"),
        "method", "'mom'"),
    bad("mixed_model-unknown-keyword", lambda a: stats.mixed_model(a.matrix, famly="binomial"),
        "famly", "did you mean family?"),
    bad("bootstrap_anova-resample-unknown", lambda a: stats.bootstrap_anova(
        _shard_scores(), resample="documents"), "resample", "'documents'"),
    bad("bootstrap_anova-samples-1", lambda a: stats.bootstrap_anova(
        _shard_scores(), samples=1), "samples", "got 1"),
    bad("bootstrap_anova-unknown-keyword", lambda a: stats.bootstrap_anova(
        _shard_scores(), sample=10), "sample", "did you mean samples?"),
    bad("shard_anova-empty-unknown", lambda a: stats.shard_anova(
        _shard_scores(), empty="skip"), "empty", "'skip'"),
    bad("shard_anova-unknown-keyword", lambda a: stats.shard_anova(
        _shard_scores(), transfrom="rank"), "transfrom", "did you mean transform?"),
    bad("across_collections-samples-0", lambda a: _across(a, samples=0), "samples", "got 0"),
    bad("across_collections-weights-unknown", lambda a: _across(a, weights="runs"),
        "weights", "'runs'"),
    bad("across_collections-unknown-keyword", lambda a: _across(a, weight="topics"),
        "weight", "did you mean weights?"),
    # the systems of a forest plot's pairs and of a letter display's pairs are named as
    # every argument that names a run (core.run_names): a name of none listing them
    bad("forest-pair-unknown-system", lambda a: _forest(a, [("sysA", "sysZ")]),
        "pairs: 'sysZ' names no run", "runs: 'sysA', 'sysB'"),
    bad("precision_recall-unknown-run", lambda a: _precision_recall(["a", "nope"]),
        "runs: 'nope' names no run", "'a' (a.run)"),
    bad("precision_recall-table-unknown-run", lambda a: _precision_recall(
        ["nope"], table=True), "runs: 'nope' names no run", "runs: 'a'"),
    bad("compact_letters-pair-unknown-system", lambda a: _letters(["A", "B"], [("A", "C")]),
        "pair ('A', 'C'): 'C' names no run", "runs: 'A', 'B'"),
    bad("document_variance-samples-1", lambda a: _document_variance(samples=1), "samples",
        "got 1"),
    bad("document_variance-unknown-keyword", lambda a: _document_variance(rnd=1), "rnd",
        "did you mean rng?"),
    bad("topic_set_size-sd-negative", lambda a: stats.topic_set_size(
        "paired-t", sd=-1, min_diff=0.1), "sd"),
    bad("topic_set_size-design", lambda a: stats.topic_set_size(
        "bogus", sd=0.1, min_diff=0.1), "bogus"),
    bad("topic_set_size-alpha-2", lambda a: stats.topic_set_size(
        "paired-t", sd=0.1, min_diff=0.1, alpha=2), "alpha"),
    bad("topic_set_size-nothing-to-size", lambda a: stats.topic_set_size("paired-t", sd=0.1)),
    bad("topic_set_size-min-diff-0", lambda a: stats.topic_set_size(
        "paired-t", sd=0.1, min_diff=0), "min_diff"),
    # the power analyses bound: each size applies to its designs (it was ignored elsewhere)
    bad("topic_set_size-width-paired-t", lambda a: stats.topic_set_size(
        "paired-t", sd=0.1, min_diff=0.05, width=0.1), "width= applies to design 'ci'",
        "not to design 'paired-t'"),
    bad("topic_set_size-min-diff-ci", lambda a: stats.topic_set_size(
        "ci", sd=0.1, width=0.05, min_diff=0.1), "min_diff= applies to design",
        "not to design 'ci'"),
    bad("topic_set_size-systems-paired-t", lambda a: stats.topic_set_size(
        "paired-t", sd=0.1, min_diff=0.05, n_systems=5), "n_systems= applies to design "
        "'anova'"),
    bad("minimum_detectable_difference-systems-paired-t", lambda a:
        stats.minimum_detectable_difference(30, sd=0.1, n_systems=5),
        "n_systems= applies to design 'anova'"),
    bad("minimum_detectable_difference-one-system", lambda a:
        stats.minimum_detectable_difference(30, sd=0.1, design="anova", n_systems=1),
        "n_systems", "got 1"),
    bad("power_paired_t-n-0", lambda a: stats.power_paired_t(0.5, 0), "n"),
    bad("power_paired_t-effect-nan", lambda a: stats.power_paired_t(NAN, 10), "effect_size"),
    bad("power_two_sample_t-effect-inf", lambda a: stats.power_two_sample_t(float("inf"), 10),
        "effect_size"),
    bad("power_anova-effect-text", lambda a: stats.power_anova("x", 3, 10), "effect_size"),
    bad("adjust_pvalues-above-1", lambda a: stats.adjust_pvalues(np.array([0.5, 2.0]))),
    bad("adjust_pvalues-nan", lambda a: stats.adjust_pvalues(np.array([0.5, NAN]))),
    bad("adjust_pvalues-method", lambda a: stats.adjust_pvalues(np.array([0.5]), "bogus"),
        "bogus"),
    bad("effect_sizes-lengths", lambda a: stats.effect_sizes(a.x, a.y[:-1])),
    # ================================================================ scales
    bad("scale-N-0", lambda a: scales.scale("AP", 0), "N"),
    bad("scale-N-negative", lambda a: scales.scale("AP", -1), "N"),
    bad("scale-N-huge", lambda a: scales.scale("AP", 2**70, progress=False), "N"),
    bad("scale-levels-1", lambda a: scales.scale("AP", 3, 1), "levels"),
    bad("scale-measure-unknown", lambda a: scales.scale("nosuch", 3), "nosuch"),
    bad("scale-diversity-without-intents", lambda a: scales.scale("alpha-nDCG@3", 2),
        "kind='diversity measure' needs intents="),
    bad("scale-diversity-levels", lambda a: scales.scale("alpha-nDCG@3", 2, 2, intents=2),
        "levels= applies to measures of one degree per document"),
    bad("scale-intents-of-a-graded-measure", lambda a: scales.scale("AP", 2, intents=2),
        "intents= applies to diversity measures", "not to kind 'graded measure'"),
    bad("scale-recall-base-negative", lambda a: scales.scale("AP", 3, recall_base=[-1])),
    bad("scale-recall-base-too-long", lambda a: scales.scale("AP", 3, recall_base=[1, 2])),
    # Table 2: its run lengths, degrees and orders of ties checked on entry (TAU_TABLE)
    bad("tau_table-N-repeated", lambda a: tau_table(
        "qrels.txt", "a.run", ["AP"], [3, 3]), "run lengths (-N, Ns)", "[3] twice"),
    bad("tau_table-N-none", lambda a: tau_table(
        "qrels.txt", "a.run", ["AP"], []), "run lengths (-N, Ns) is empty"),
    bad("tau_table-N-0", lambda a: tau_table(
        "qrels.txt", "a.run", ["AP"], [3, 0]), "run length N", "got 0"),
    bad("tau_table-phi-ties", lambda a: tau_table(
        "qrels.txt", "a.run", ["AP"], 3, ties="random"), "ties", "'random'"),
    bad("tau_table-tie-policy", lambda a: tau_table(
        "qrels.txt", "a.run", ["AP"], 3, tie_policy="random"), "tie_policy", "'random'"),
    bad("diversity_measure-intents-8", lambda a: diversity_measure(
        "alpha-nDCG@3", 8), "number of intents (--intents, intents)", "got 8"),
    # automatic judgments: the draws of the grades and their seed apply to label
    # probabilities with the topic design, in the API as in labels auto (AUTOMATIC; the
    # function took a seed with the other designs, where nothing is drawn)
    bad("automatic_judgments-draws-without-probabilities", lambda a: irscale.collections.
        automatic_judgments("qrels.txt", "qrels.txt", ["a.run", "b.run"], "map", draws=5),
        "draws= applies only with label_probabilities="),
    bad("automatic_judgments-rng-pair-design", lambda a: irscale.collections.
        automatic_judgments("qrels.txt", "qrels.txt", ["a.run", "b.run"], "map",
                            label_probabilities=True, design="uniform", rng=5),
        "rng= applies to design 'topics', not to design 'uniform'"),
    bad("automatic_judgments-tuning", lambda a: irscale.collections.automatic_judgments(
        "qrels.txt", "qrels.txt", ["a.run", "b.run"], "map", tuning="ppi+"),
        "tuning: unknown tuning 'ppi+'"),
    # the runs' candidates: their cut and order of ties checked on entry (CANDIDATES)
    bad("ranked_candidates-depth-0", lambda a: irscale.collections.ranked_candidates(
        "a.run", depth=0), "depth", "got 0"),
    bad("ranked_candidates-ties-unknown", lambda a: irscale.collections.ranked_candidates(
        "a.run", ties="random"), "ties: unknown tie policy 'random'"),
    # ================================================================ meta
    bad("dp-samples-0", lambda a: meta.discriminative_power(a.matrix, samples=0), "samples"),
    bad("dp-alpha-2", lambda a: meta.discriminative_power(a.matrix, samples=10, alpha=2),
        "alpha"),
    bad("dp-rng-negative", lambda a: meta.discriminative_power(a.matrix, samples=10,
                                                               rng=-1), "rng"),
    bad("dp-method-unknown", lambda a: meta.discriminative_power(a.matrix, "nosuch"),
        "nosuch"),
    bad("dp-convention-unknown", lambda a: meta.discriminative_power(
        a.matrix, samples=10, convention="bogus"), "bogus"),
    bad("dp-B-and-samples-disagree", lambda a: meta.discriminative_power(
        a.matrix, samples=10, B=20)),
    bad("dp-spread-no-seeds", lambda a: meta.discriminative_power_spread(
        a.matrix, seeds=[], samples=10)),
    bad("dp-B-and-samples-both", lambda a: meta.discriminative_power(
        a.matrix, samples=20, B=20), "samples= applies without B="),
    bad("dp-spread-seed-twice", lambda a: meta.discriminative_power_spread(
        a.matrix, seeds=[1, 1], samples=10), "seeds lists the seed(s) [1] twice"),
    bad("split_study-size-0", lambda a: meta.split_study(a.matrix, [0], 2), "size"),
    bad("split_study-size-above-topics", lambda a: meta.split_study(a.matrix, [100], 2),
        "size"),
    bad("split_study-repetitions-0", lambda a: meta.split_study(a.matrix, [2], 0),
        "repetitions"),
    bad("split_study-model-unknown", lambda a: meta.split_study(
        a.matrix, [2], 2, models=["nosuch"]), "nosuch"),
    bad("split_study-alpha-2", lambda a: meta.split_study(a.matrix, [2], 2, alpha=2),
        "alpha"),
    bad("swap_rates-bin-width-0", lambda a: meta.swap_rates(a.matrix, [2], 2, bin_width=0),
        "bin_width"),
    bad("swap_rates-bin-width-nan", lambda a: meta.swap_rates(a.matrix, [2], 2,
                                                              bin_width=NAN), "bin_width"),
    bad("swap_rates-size-0", lambda a: meta.swap_rates(a.matrix, [0], 2), "size"),
    bad("swap_rates-repetitions-0", lambda a: meta.swap_rates(a.matrix, [2], 0),
        "repetitions"),
    # the level and the resamples apply to the significance filter (test=) alone, as on
    # the command line (alpha= without a test was accepted and ignored)
    bad("swap_rates-alpha-without-test", lambda a: meta.swap_rates(a.matrix, [2], 2,
                                                                   alpha=0.01),
        "alpha= applies to the significance filter of the swap method (test=)"),
    bad("swap_rates-samples-non-resampling-test", lambda a: meta.swap_rates(
        a.matrix, [2], 2, test="t", samples=10), "samples= applies to a resampling test",
        "not to test 't'"),
    bad("swap_rates-test-unknown", lambda a: meta.swap_rates(a.matrix, [2], 2, test="nosuch"),
        "test: unknown procedure 'nosuch'"),
    bad("topic_splits-size-0", lambda a: meta.topic_splits(10, 0), "size"),
    bad("topic_splits-size-above", lambda a: meta.topic_splits(10, 11), "size"),
    bad("topic_splits-repetitions-0", lambda a: meta.topic_splits(10, 2, 0), "repetitions"),
    bad("correlation-method-unknown", lambda a: meta.correlation(a.x, a.y, "nosuch"),
        "nosuch"),
    bad("correlation-lengths", lambda a: meta.correlation(a.x, a.y[:-1])),
    bad("correlation-nan", lambda a: meta.correlation(np.r_[NAN, a.x[1:]], a.y)),
    bad("kendall_tau-lengths", lambda a: meta.kendall_tau(a.x, a.y[:-1])),
    bad("tau_ap-lengths", lambda a: meta.tau_ap(a.x, a.y[:-1])),
    bad("spearman-lengths", lambda a: meta.spearman(a.x, a.y[:-1])),
    bad("rbo-p-2", lambda a: meta.rbo(["a", "b"], ["b", "a"], p=2), "p"),
    bad("rbo-p-0", lambda a: meta.rbo(["a", "b"], ["b", "a"], p=0), "p"),
    bad("rbo-duplicate-items", lambda a: meta.rbo(["a", "a"], ["b", "a"])),
    bad("rbo_scores-p-1.5", lambda a: meta.rbo_scores(a.x, a.y, p=1.5), "p"),
    bad("rbo_scores-ties-unknown", lambda a: meta.rbo_scores(a.x, a.y, ties="z"), "ties",
        "unknown RBO tie treatment 'z'"),
    bad("rbo_scores-ties-number", lambda a: meta.rbo_scores(a.x, a.y, ties=1), "ties"),
    bad("correlation-ties-with-kendall", lambda a: meta.correlation(a.x, a.y, ties="a"),
        "tie treatment ties applies to RBO only"),
    bad("correlation_ci-samples-0", lambda a: meta.correlation_ci(
        a.three, measure_a="ap", measure_b="p10", samples=0), "samples"),
    bad("correlation_ci-level-2", lambda a: meta.correlation_ci(
        a.three, measure_a="ap", measure_b="p10", samples=10, level=2), "level"),
    bad("correlation_ci-rng-negative", lambda a: meta.correlation_ci(
        a.three, measure_a="ap", measure_b="p10", samples=10, rng=-1), "rng"),
    bad("correlation_matrix-unknown-measure", lambda a: meta.correlation_matrix(
        a.three, ["ap", "nosuch"]), "nosuch"),
    bad("overall_correlation-unknown-measure", lambda a: meta.overall_correlation(
        a.three, measure_a="ap", measure_b="nosuch"), "nosuch"),
    bad("contributors-bad-regex", lambda a: meta.contributors_by_prefix(["a_b"], "(")),
    bad("contributors-no-match", lambda a: meta.contributors_by_prefix(["a_b"], "^zzz"),
        "a_b"),
    bad("leave_one_out-depth-0", lambda a: meta.leave_one_out(
        "qrels.txt", ["a.run", "b.run"], "map", depth=0), "depth"),
    bad("leave_one_out-missing-run", lambda a: meta.leave_one_out(
        "qrels.txt", ["a.run", "missing.run"], "map"), "missing.run", kind=FILE),
    bad("leave_one_out-measure-unknown", lambda a: meta.leave_one_out(
        "qrels.txt", ["a.run", "b.run"], "nosuch"), "nosuch"),
    bad("leave_one_out-pattern-with-contributors", lambda a: meta.leave_one_out(
        "qrels.txt", ["a.run", "b.run"], "map", contributors={"a": "A", "b": "B"},
        contributor_pattern="^x"), "contributor_pattern= applies without contributors="),
    bad("leave_one_out-pattern-bad-regex", lambda a: meta.leave_one_out(
        "qrels.txt", ["a.run", "b.run"], "map", contributor_pattern="("),
        "contributor_pattern '(' is not a valid regular expression"),
    bad("judge_noise-shard-model", lambda a: irscale.collections.judge_noise(
        "qrels.txt", ["a.run", "b.run"], "map", irscale.collections.Confusion.flip(0.1),
        test="MD3"), "test: unknown procedure 'MD3'"),
    bad("judge_noise-correction-of-an-anova", lambda a: irscale.collections.judge_noise(
        "qrels.txt", ["a.run", "b.run"], "map", irscale.collections.Confusion.flip(0.1),
        test="MD1", correction="holm"), "correction= applies to a two-system test"),
    bad("judge_noise-replicates-0", lambda a: irscale.collections.judge_noise(
        "qrels.txt", ["a.run", "b.run"], "map", irscale.collections.Confusion.flip(0.1),
        replicates=0), "replicates must be an integer in [1, 100,000,000], got 0"),
    bad("concordance-gold-unknown", lambda a: meta.concordance_table(
        a.three, ["ap", "p10"], ["nosuch"]), "nosuch"),
    bad("concordance-alpha-2", lambda a: meta.concordance_table(
        a.three, ["ap", "p10"], ["gold"], alpha=2), "alpha"),
    bad("concordance_test-alpha-0", lambda a: meta.concordance_test(
        a.x, a.y, a.x, alpha=0), "alpha must lie in (0, 1), got 0"),
    bad("d_rank-ridge-negative", lambda a: meta.d_rank(a.matrix, a.matrix, ridge=-1),
        "ridge must be a number ≥ 0, got -1"),
    bad("rank_distance-ridge-inf", lambda a: meta.rank_distance(
        a.matrix, list(a.matrix.systems), ridge=math.inf), "ridge must be a number ≥ 0"),
    bad("qpp_anova-unknown-keyword", lambda a: stats.qpp_anova(
        None, None, modle="topic"), "modle (did you mean model?)"),
    # the correlations of QPP: their bootstrap, the correlation compared, the two predictors
    bad("qpp_correlations-samples-1", lambda a: stats.qpp_correlations(
        None, None, samples=1), "samples"),
    bad("qpp_correlations-alpha-0", lambda a: stats.qpp_correlations(None, None, alpha=0),
        "alpha"),
    bad("qpp_correlations-mapping-and-observed", lambda a: stats.qpp_correlations(
        {"c": (None, None)}, "obs"), "observed", "give no observed"),
    bad("qpp_correlations-empty-mapping", lambda a: stats.qpp_correlations({}),
        "empty mapping"),
    bad("qpp_compare-correlation-unknown", lambda a: stats.qpp_compare(
        None, None, "a", "b", correlation="cosine"), "correlation", "cosine"),
    bad("qpp_across_collections-one", lambda a: stats.qpp_across_collections(
        {"c": (_QPP_PRED, _QPP_OBS)}), "two collections"),
    bad("reproducibility-one-topic-unpaired", lambda a: meta.reproducibility(
        {"1": 0.1, "2": 0.2}, {"1": 0.3}, {"1": 0.1}, {"1": 0.2}), "same topics"),
    bad("reproducibility-matrix-of-four", lambda a: meta.reproducibility(
        a.matrix, a.matrix, a.matrix, a.matrix), "one run"),
    # the equivalence margin, the bootstrap of ER and delta RI, several collections
    bad("reproducibility-margin-0", lambda a: meta.reproducibility(
        {"1": 0.1, "2": 0.2}, {"1": 0.3, "2": 0.4}, {"1": 0.1, "2": 0.2},
        {"1": 0.2, "2": 0.3}, margin=0), "margin"),
    bad("reproducibility-margin-nan", lambda a: meta.reproducibility(
        {"1": 0.1, "2": 0.2}, {"1": 0.3, "2": 0.4}, {"1": 0.1, "2": 0.2},
        {"1": 0.2, "2": 0.3}, margin=NAN), "margin"),
    bad("effect_intervals-samples-1", lambda a: meta.reproducibility(
        {"1": 0.1, "2": 0.2}, {"1": 0.3, "2": 0.4}, {"1": 0.1, "2": 0.2},
        {"1": 0.2, "2": 0.3}).effect_intervals(1), "samples"),
    bad("replicability_across-one-collection", lambda a: meta.replicability_across(
        {"c": ({"1": 0.1}, {"1": 0.2}, {"1": 0.1}, {"1": 0.2})}, measure="score"),
        "two collections"),
    bad("replicability_across-three-runs", lambda a: meta.replicability_across(
        {"c": (1, 2, 3), "d": (1, 2, 3)}, measure="score"), "four runs"),
    bad("reproducibility-nan-score", lambda a: meta.reproducibility(
        {"1": NAN, "2": 0.2}, {"1": 0.3, "2": 0.4}, {"1": 0.1, "2": 0.2},
        {"1": 0.3, "2": 0.4}), "finite"),
    bad("reproducibility-measure-unknown", lambda a: meta.reproducibility(
        a.x, a.y, a.x, a.y, measures=["nosuch"]), "nosuch"),
    bad("ranking_agreement-depth-0", lambda a: meta.ranking_agreement(
        "a.run", "b.run", depth=0), "depth"),
    bad("ranking_agreement-p-1", lambda a: meta.ranking_agreement("a.run", "b.run", p=1),
        "p"),
    bad("ranking_agreement-missing-run", lambda a: meta.ranking_agreement(
        "a.run", "missing.run"), "missing.run", kind=FILE),
    bad("predictive_power-ties-unknown", lambda a: meta.predictive_power(
        [("1", "sysA", "sysB", "left")], a.matrix, ties="coin"), "coin"),
    bad("predictive_power-threshold-nan", lambda a: meta.predictive_power(
        [("1", "sysA", "sysB", "left")], a.matrix, threshold=NAN), "threshold"),
    bad("predictive_power-preference-unknown", lambda a: meta.predictive_power(
        [("1", "sysA", "sysB", "maybe")], a.matrix), "maybe"),
    bad("predictive_power-system-unknown", lambda a: meta.predictive_power(
        [("1", "sysA", "nosuch", "left")], a.matrix), "nosuch"),
    bad("informativeness-measure-unknown", lambda a: meta.informativeness(
        [[1, 0, 1]], measures=["nosuch"]), "nosuch"),
    bad("informativeness-not-binary", lambda a: meta.informativeness([[1, 0.5]]), "0"),
    bad("maxent_relevance-impossible", lambda a: meta.maxent_relevance(
        "AP", 0.001, n_docs=5, n_relevant=2), "impossible"),
    # the relevance level checked on entry (a text escaped as int()'s ValueError, 0 and
    # below were taken)
    bad("judged_lists-relevance-level-0", lambda a: meta.judged_lists(
        "qrels.txt", ["a.run"], relevance_level=0), "relevance_level", "got 0"),
    bad("judged_lists-relevance-level-text", lambda a: meta.judged_lists(
        "qrels.txt", ["a.run"], relevance_level="high"), "relevance_level", "'high'"),
    bad("judged_lists-depth-0", lambda a: meta.judged_lists("qrels.txt", ["a.run"], depth=0),
        "depth"),
    bad("judged_intent_lists-depth-0", lambda a: meta.judged_intent_lists(
        "qrels.txt", ["a.run"], depth=0), "depth must be an integer in [1,", "got 0"),
    bad("judged_intent_lists-depth-text", lambda a: meta.judged_intent_lists(
        "qrels.txt", ["a.run"], depth="10"), "depth"),
    bad("intent_informativeness-measure-unsupported", lambda a: meta.intent_informativeness(
        [[[1, 0], [0, 1]]], measures=["strec@5"]), "strec@5"),
    bad("intent_informativeness-not-a-matrix", lambda a: meta.intent_informativeness(
        [[1, 0, 1]], measures=["NRBP"]), "matrix"),
    bad("intent_informativeness-normalised-without-ideal", lambda a: meta.intent_informativeness(
        [[[1, 0], [0, 1]]], measures=["alpha-nDCG@5"]), "ideal"),
    bad("maxent_intent_relevance-impossible", lambda a: meta.maxent_intent_relevance(
        "P-IA@2", 1.0, n_docs=5, recall_bases=[1, 3]), "impossible"),
    bad("judged_intent_lists-trec-measure", lambda a: meta.judged_intent_lists(
        "qrels.txt", ["a.run"], measures=["AP"]), "AP"),
    bad("scale_report-cutoff-0", lambda a: meta.scale_report(
        "qrels.txt", ["a.run", "b.run"], ["P"], [0])),
    bad("decide-procedure-unknown", lambda a: meta.decide(a.matrix.values[:, :, 0],
                                                          "nosuch"), "nosuch"),
    bad("parse_measures-unknown", lambda a: irscale.parse_measures("nosuch"), "nosuch"),
    # a cut-off that is not a number is an invalid cut-off, not another measure's name
    bad("parse_measures-negative-cutoff", lambda a: irscale.parse_measures("AP@-1"),
        "AP@-1", "cut-off", "'-1'"),
    bad("parse_measures-cutoff-0", lambda a: irscale.parse_measures("nDCG@0"), "nDCG@0",
        "cut-off"),
    # ================================================================ numpy values
    # a numpy scalar is quoted as the value it holds (numpy 2 writes np.float64(nan))
    bad("paired_t-alpha-numpy-nan", lambda a: stats.paired_t(a.x, a.y,
                                                             alpha=np.float64(NAN)),
        "alpha", "got nan"),
    bad("randomization-samples-numpy-0", lambda a: stats.randomization_test(
        a.x, a.y, samples=np.int64(0)), "samples", "got 0"),
    bad("paired_t-alpha-below-double-resolution", lambda a: stats.paired_t(
        a.x, a.y, alpha=1e-300), "alpha", "1e-300"),
    # ================================================================ sizes
    bad("topic_set_size-min-diff-1e-300", lambda a: stats.topic_set_size(
        "two-sample-t", sd=1, min_diff=1e-300), "one million"),
    bad("topic_set_size-ci-width-1e-300", lambda a: stats.topic_set_size(
        "ci", sd=1, width=1e-300), "one million"),
    bad("ab_sample_size-power-1e-300", lambda a: irscale.online.ab_sample_size(
        0.1, 1, power=1e-300), "power", "1e-300"),
    bad("ab_sample_size-power-0", lambda a: irscale.online.ab_sample_size(0.1, 1, power=0),
        "power must lie in (0, 1)"),
    bad("aggregate_labels-n-iter-huge", lambda a: irscale.collections.aggregate_labels(
        b"1 a w1 1\n1 a w2 0\n", "mace", n_iter=2**63 - 1), "n_iter", "100,000"),
    # contributors= names the runs' contributors for the leave-one-out test: refused with
    # loo=False, as pool simulate refuses --contributors with --no-loo (it was ignored)
    bad("simulate_pooling-contributors-without-loo", lambda a:
        irscale.collections.simulate_pooling(
            FUSE_QRELS, FUSE_RUNS, "depth", 2, contributors={"a": "x", "b": "y"}, loo=False),
        "contributors= applies to the leave-one-contributor-out test", "not to loo False"),
    # tol= applies to the methods with a stopping rule (it was ignored by the others)
    bad("aggregate_labels-tol-mv", lambda a: irscale.collections.aggregate_labels(
        b"1 a w1 1\n1 a w2 0\n", "mv", tol=1e-3), "tol= applies to method", "'mv'"),
    bad("aggregate_pairwise-tol-negative", lambda a: irscale.collections.aggregate_pairwise(
        b"1 w1 a b a\n", tol=-1.0), "tol"),
    # a checkpoint resumes only a study of the seed it started with: refused without one,
    # as meta simulate refuses --checkpoint without --seed (the function wrote a checkpoint
    # that no call could resume)
    bad("simulation_study-checkpoint-without-rng", lambda a: meta.simulation_study(
        meta.NormalModel(topics=5), repetitions=2, checkpoint=a.path("ck")),
        "checkpoint= applies to a seeded study", "(rng=)"),
    # one declaration refuses equal= with null= in the function and --equal with --null
    bad("copula_model-equal-with-null", lambda a: meta.CopulaModel.fit(
        a.matrix, null=True, equal=("sysA", "sysB")), "equal= applies without null="),
    # equal= designates a system as every argument that names a run, or by its position:
    # a key of none (a position out of range too), or of two runs, is refused listing them
    bad("copula_model-equal-unknown", lambda a: meta.CopulaModel.fit(
        a.matrix, equal=("sysA", "sysZ")), "equal 'sysZ' names no run", "runs: 'sysA'"),
    bad("copula_model-equal-position-out-of-range", lambda a: meta.CopulaModel.fit(
        a.matrix, equal=(0, 4)), "equal 4 names no run", "its position (0 to 3)",
        "runs: 'sysA'"),
    bad("copula_model-equal-ambiguous", lambda a: meta.CopulaModel.fit(_ev(runs=[
        "a.run", a.write("a2.run", RUN), "c.run"]).to_matrix(), equal=("teamA_r1", "c")),
        "equal 'teamA_r1' is ambiguous", "'a' (a.run)", "a2.run"),
    bad("copula_model-margins-unknown", lambda a: meta.CopulaModel.fit(
        a.matrix, margins=["truncnorm", "gamma"]), "margins", "gamma"),
    # a model's size is checked against the memory limit when a study would draw it
    bad("normal_model-topics-huge", lambda a: meta.simulation_study(
        meta.NormalModel(topics=2**63 - 1), repetitions=2, rng=1), "topics",
        "--max-memory/max_memory"),
    bad("normal_model-cells", lambda a: meta.simulation_study(
        meta.NormalModel(topics=20_000, systems=20_000), repetitions=2, rng=1), "systems",
        "--max-memory/max_memory", "2 matrices (--repetitions) of 20,000 topics (--topics)",
        "fewer --systems or a larger --max-memory/max_memory"),
    # meta dp's samples kept, against the limit given (max_memory=, as --max-memory)
    bad("discriminative_power-max-memory", lambda a: meta.discriminative_power(
        np.arange(24.0).reshape(6, 4) % 5, samples=10**6, rng=1, max_memory="1M"),
        "-B/--samples", "--max-memory/max_memory = 1 MiB",
        "fewer -B/--samples or a larger --max-memory/max_memory"),
    bad("randomized_tukey_hsd-max-memory", lambda a: stats.randomized_tukey_hsd(
        np.arange(24.0).reshape(6, 4) % 5, samples=10**6, rng=1, max_memory="1M"),
        "1,000,000 samples (-B/--samples) of randomised Tukey HSD",
        "--max-memory/max_memory = 1 MiB"),
    bad("read_click_log-serp-size-huge", lambda a: irscale.online.read_click_log(
        b"s1 q1 1 d1 1\n", serp_size=2**63 - 1), "serp_size", "2,147,483,647"),
    # ================================================================ fairness measures
    bad("evaluate-fairness-mixed", lambda a: _ev(measures=["AWRF@5", "map"],
                                                 labels={"groups": {"d1": 1}}), "mixed", "'map'"),
    bad("evaluate-fairness-complete", lambda a: _ev(measures="EE-L", complete=True),
        "complete=", "fairness"),
    bad("evaluate-fairness-membership", lambda a: _ev(
        measures="AWRF(membership=half)", labels={"groups": {"d1": 1}}), "membership", "half"),
    bad("evaluate-fairness-base", lambda a: _ev(
        measures="AWRF(base=10)", labels={"groups": {"d1": 1}}), "base", "10"),
    bad("evaluate-fairness-groups-same-twice", lambda a: _ev(measures="AWRF", labels={
        "groups": a.write("g.txt", b"* 0 d1 1\n* 0 d1 2\n* 0 d1 1\n")}), "g.txt", "line 3",
        "* 0 d1 1"),
    bad("evaluate-fairness-groups-list-not-numbers", lambda a: _ev(
        measures="AWRF", labels={"groups": {"d1": [1, "x"]}}), "'x'"),
    # diversity qrels read as plain qrels: the duplicate says what they are
    bad("read_qrels-diversity-qrels", lambda a: irscale.read_qrels(
        b"1 1 d1 1\n1 2 d1 0\n"), "line 2", "diversity", "read_diversity_qrels"),
    # a tidy table's value that is no number is named with its row (pandas' ValueError
    # escaped)
    bad("from_frame-text-value", lambda a: ScoreMatrix.from_frame(pd.DataFrame({
        "run": ["a", "b"], "topic": ["1", "1"], "measure": ["AP", "AP"],
        "value": ["x", 0.1]})), "non-numeric score 'x'", "system 'a'", "topic '1'"),
    # ================================================================ fuse: ranx's others
    bad("fuse-norm-rank-method", lambda a: irscale.fuse(FUSE_RUNS, "rrf", norm="none"),
        "norm= applies to the score methods", "not to method 'rrf'"),
    bad("fuse-k-not-rrf", lambda a: irscale.fuse(FUSE_RUNS, "combsum", k=10),
        "k= applies to method 'rrf', not to method 'combsum'"),
    bad("fuse-rbc-phi-outside", lambda a: irscale.fuse(FUSE_RUNS, "rbc", phi=1.5), "phi",
        "(0, 1)"),
    bad("fuse-rbc-no-phi", lambda a: irscale.fuse(FUSE_RUNS, "rbc"),
        "method='rbc' needs phi="),
    bad("fuse-gmnz-gamma-nan", lambda a: irscale.fuse(FUSE_RUNS, "gmnz", gamma=NAN),
        "gamma"),
    bad("fuse-segments-fraction", lambda a: irscale.fuse(
        FUSE_RUNS, "probfuse", segments=2.5, train_qrels=FUSE_QRELS, train_runs=FUSE_RUNS),
        "segments"),
    bad("fuse-window-not-slidefuse", lambda a: irscale.fuse(FUSE_RUNS, "rrf", window=2),
        "window= applies to method 'slidefuse', not to method 'rrf'"),
    bad("fuse-posfuse-no-training", lambda a: irscale.fuse(FUSE_RUNS, "posfuse"),
        "train_qrels"),
    bad("fuse-train-runs-not-supervised", lambda a: irscale.fuse(
        FUSE_RUNS, "rrf", train_runs=FUSE_RUNS), "train_runs", "supervised"),
    bad("fuse-train-runs-count", lambda a: irscale.fuse(
        FUSE_RUNS, "mapfuse", train_qrels=FUSE_QRELS, train_runs={"a": FUSE_RUNS["a"]}),
        "1 training runs", "2 runs"),
    bad("fuse-train-run-of-other-topics", lambda a: irscale.fuse(
        FUSE_RUNS, "bayesfuse", train_qrels={"t9": {"d1": 1}}, train_runs=FUSE_RUNS),
        "no topic in common"),
    # optimize_fusion bound (its norm and step, as fuse's): a keyword it does not take is
    # named with the nearest it takes (Python's TypeError escaped)
    bad("optimize_fusion-unknown-keyword", lambda a: irscale.fusion.optimize_fusion(
        FUSE_QRELS, FUSE_RUNS, nrm="max"), "unknown keyword argument(s) nrm (did you mean "
        "norm?)"),
    bad("optimize_fusion-step-not-dividing", lambda a: irscale.fusion.optimize_fusion(
        FUSE_QRELS, FUSE_RUNS, step=0.3), "step must divide 1"),
    bad("optimize_fusion-norm-unknown", lambda a: irscale.fusion.optimize_fusion(
        FUSE_QRELS, FUSE_RUNS, norm="l2"), "norm"),
    # ================================================================ online: bound
    # parameters that apply to some choices only, refused elsewhere as the command line
    # refuses them (irscale.online.params; they were ignored)
    bad("interleave_runs-tau-team-draft", lambda a: irscale.online.interleave_runs(
        RANKERS, 2, tau=2), "tau= applies to method 'probabilistic'", "'team-draft'"),
    bad("interleave_runs-impressions-text", lambda a: irscale.online.interleave_runs(
        RANKERS, "q"), "impressions must be a number per topic or the topic of every "
        "impression, got 'q'"),
    bad("interleave_runs-impressions-0", lambda a: irscale.online.interleave_runs(
        RANKERS, 0), "impressions must be an integer ≥ 1, got 0"),
    bad("fair_pairs_run-impressions-set", lambda a: irscale.online.fair_pairs_run(
        {"q": ["a", "b"]}, {"q"}), "impressions must be a number per topic"),
    bad("interleavings-score-bootstrap-0", lambda a: _shown().score(
        [[1, 0]] * 2, bootstrap=0), "bootstrap must be an integer in [1, 1,000,000,000]"),
    bad("interleave_runs-credit-team-draft", lambda a: irscale.online.interleave_runs(
        RANKERS, 2, credit="team"), "credit= applies to method 'probabilistic' and "
        "'optimized'"),
    bad("interleave_runs-credit-not-the-methods", lambda a: irscale.online.interleave_runs(
        RANKERS, 2, method="optimized", credit="marginal"), "'marginal'",
        "optimized interleaving (inverse or linear)"),
    bad("simulate_clicks-qrels-random", lambda a: _shown().simulate_clicks(
        "random", qrels={"q": {"a": 1}}), "qrels= applies to model 'perfect'"),
    bad("simulate_clicks-level-random", lambda a: _shown().simulate_clicks(
        "random", relevance_level=2), "relevance_level= applies to model 'perfect'"),
    bad("simulate_clicks-probability-perfect", lambda a: _shown().simulate_clicks(
        "perfect", qrels={"q": {"a": 1}}, probability=0.2),
        "probability= applies to model 'random'"),
    bad("simulate_clicks-perfect-no-qrels", lambda a: _shown().simulate_clicks("perfect"),
        "model='perfect' needs qrels="),
    bad("score_log-tau-team-draft", lambda a: irscale.online.score_log(
        INTERLEAVING_LOG, tau=2), "tau= applies to method 'probabilistic'"),
    bad("score_log-tau-assignment", lambda a: irscale.online.score_log(
        INTERLEAVING_LOG, method="probabilistic", credit="assignment", tau=2),
        "tau= applies to marginal credit", "'assignment'"),
    bad("fit_click_model-iterations-closed-form", lambda a: irscale.online.fit_click_model(
        CLICK_LOG, "sdbn", iterations=5), "iterations= applies to the models fitted by EM",
        "'sdbn'"),
    bad("fit_click_model-tol-closed-form", lambda a: irscale.online.fit_click_model(
        CLICK_LOG, "cm", tol=1e-3), "tol= applies to the models fitted by EM", "'cm'"),
    bad("click_qrels-iterations-sdbn", lambda a: irscale.online.click_qrels(
        CLICK_LOG, iterations=5), "iterations= applies to the models fitted by EM",
        "'sdbn'"),
    bad("qrels_click_model-level-tables", lambda a: irscale.online.qrels_click_model(
        {"q": {"a": 1}}, None, click=[0.1, 0.9], stop=[0.2, 0.8], relevance_level=2),
        "relevance_level= applies to an instantiation"),
    bad("sensitivity-credit-team-draft", lambda a: irscale.online.sensitivity(
        "qrels.txt", ["a.run", "b.run"], credit="team"), "credit= applies to methods"),
    bad("ab_power-min-diff-negative", lambda a: irscale.online.ab_power(-0.1, 1, 10),
        "min_diff"),
    bad("ab_test-denominator-welch", lambda a: irscale.online.ab_test(
        AB_TABLE, "clicks", denominator="impressions"),
        "denominator= applies to analysis 'delta', not to analysis 'welch'"),
    bad("ab_test-delta-no-denominator", lambda a: irscale.online.ab_test(
        AB_TABLE, "clicks", analysis="delta"), "analysis='delta' needs denominator="),
    # calibrate's parameters apply to the user models that read them, as online calibrate
    # refuses them (irscale.online.params.CALIBRATE; the smoothing was ignored by RBP)
    bad("calibrate-smoothing-rbp", lambda a: irscale.online.calibrate(
        CLICK_LOG, "rbp", smoothing=2), "smoothing= applies to model 'ERR' and 'MP', not to "
        "model 'RBP'"),
    bad("calibrate-click-model-markov", lambda a: irscale.online.calibrate(
        CLICK_LOG, "markov", click_model="dbn"), "click_model= applies to model 'ERR', not "
        "to model 'MP'"),
    bad("calibrate-err-no-qrels", lambda a: irscale.online.calibrate(CLICK_LOG, "ERR"),
        "model='ERR' needs qrels="),
    # the measure of the system rankings applies with runs, as labels agree-qrels refuses
    # it without run files (irscale.collections.params.QRELS_AGREEMENT; it was ignored)
    bad("qrels_agreement-measure-without-runs", lambda a: irscale.collections.qrels_agreement(
        "qrels.txt", "qrels.txt", measure="P@10"), "measure= applies to the system rankings "
        "(runs=)"),
    bad("qrels_agreement-level-without-runs", lambda a: irscale.collections.qrels_agreement(
        "qrels.txt", "qrels.txt", relevance_level=2), "relevance_level= applies to the system "
        "rankings"),
    # numbers beyond the doubles: refused, never inf in a result
    bad("fuse-weights-overflow", lambda a: irscale.fuse(
        FUSE_RUNS, "w-bordafuse", weights=[1e308, 1e308]), "weights", "overflow"),
    bad("ppi_mean-beyond-the-doubles", lambda a: irscale.collections.ppi_mean(
        [1.7e308, -1.7e308, 1.7e308], [-1.7e308, 1.7e308, -1.7e308], [1.7e308]),
        "too large", "largest double"),
]


@pytest.mark.parametrize("row", ROWS)
def test_api_error(row: Row, api: Api):
    check_row(row, api)


def check_row(row: Row, api: Api) -> None:
    """The row's call raises an irscale error of its kind naming its needles."""
    with pytest.raises(Exception) as info:
        row.call(api)
    error = info.value
    kind = type(error).__name__
    assert isinstance(error, IrscaleError), \
        f"raised {kind} (not an irscale.errors exception): {error}"
    if row.kind == FILE:
        assert isinstance(error, FileAccessError) and isinstance(error, OSError), \
            f"raised {kind}, not a FileAccessError (OSError): {error}"
    else:
        assert isinstance(error, ValueError), f"raised {kind}, not a ValueError: {error}"
    message = str(error)
    assert not NUMPY_REPR.search(message), f"message {message!r} shows a numpy repr"
    missing = [n for n in row.needles if n not in message]
    assert not missing, f"message {message!r} does not name {missing}"
    assert "\n" not in message.strip() or len(message) < 2000


def test_valid_calls_work(api):
    """The table's premise: the valid calls it perturbs do work."""
    _ev()
    irscale.read_qrels("qrels.txt")
    irscale.read_run("a.run")
    stats.paired_t(api.x, api.y)
    meta.discriminative_power(api.matrix, samples=10, rng=1)
    scales.scale("AP", 3, progress=False)


# ---------------------------------------------------------------- valid but odd inputs
def test_readers_take_bytes_like_and_streams(api):
    """What the readers accept besides paths: bytes, bytearray, memoryview, binary streams."""
    expected = irscale.read_run("a.run")
    for source in (RUN, bytearray(RUN), memoryview(RUN), io.BytesIO(RUN)):
        run = irscale.read_run(source)  # data name no file: named by its run id
        assert (run.name, run.score.tolist()) == (expected.runids[-1], expected.score.tolist())
        assert run.runids == expected.runids
    assert irscale.read_qrels(bytearray(QRELS)).rel.tolist() == \
        irscale.read_qrels("qrels.txt").rel.tolist()
    assert [r.name for r in irscale.read_runs(iter(["a.run", "b.run"]))] == ["a", "b"]


def _scores(evaluation) -> tuple:
    matrix = evaluation.to_matrix()
    return matrix.topics, matrix.systems, matrix.measures, matrix.values.tolist()


def test_bom_crlf_bytes_read_like_the_file(api):
    plain = irscale.evaluate(irscale.read_qrels(QRELS), irscale.read_run(RUN), ["map", "P@5"])
    odd = irscale.evaluate(
        irscale.read_qrels(b"\xef\xbb\xbf" + QRELS.replace(b"\n", b"\r\n")),
        irscale.read_run(b"\xef\xbb\xbf" + RUN.replace(b"\n", b"\r\n")), ["map", "P@5"])
    assert _scores(plain) == _scores(odd)


def test_bytes_and_streams_evaluate_like_the_files(api):
    """A file's bytes or an open binary file, as the readers take them, for qrels and runs
    (one, a list, or {name: run}); the messages for a str holding data point to bytes."""
    reference = irscale.evaluate("qrels.txt", {"teamA_r1": "a.run"}, "map")  # the run id
    for qrels, runs in ((QRELS, RUN), (io.BytesIO(QRELS), [memoryview(RUN)]),
                        (bytearray(QRELS), {"teamA_r1": io.BytesIO(RUN)})):
        assert _scores(irscale.evaluate(qrels, runs, "map")) == _scores(reference)


def test_frame_with_integer_ids_evaluates(api):
    qrels = _frame_qrels()
    qrels["query_id"] = qrels["query_id"].astype(int)
    frame = irscale.evaluate(qrels, "a.run", "map")
    reference = irscale.evaluate("qrels.txt", "a.run", "map")
    assert _scores(frame) == _scores(reference)


@pytest.mark.parametrize("label", [10**7, 2**31, 2**62])
def test_huge_labels_in_dicts_keep_binary_measures(api, label):
    base: dict[str, dict[str, int]] = {}
    for line in qrels_lines():
        t, _, d, r = line.split()
        base.setdefault(t, {})[d] = int(r)
    big = {t: {d: (label if r == 2 else r) for d, r in docs.items()} for t, docs in
           base.items()}
    a = irscale.evaluate(base, "a.run", ["map", "P@5"])
    b = irscale.evaluate(big, "a.run", ["map", "P@5"])
    assert _scores(a) == _scores(b)

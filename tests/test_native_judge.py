"""The native engine's TREC readers and judging (``irscale.io.native_trec``) against the
Python path they replace: ``irscale.read_qrels`` / ``irscale.read_run`` and
``irscale.core.judge.build_judged_rankings``. The same files give the same judged
rankings, array by array, the same warnings, and the same errors, message for message."""

from __future__ import annotations

import dataclasses
import gzip
import os
import subprocess
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irscale
from irscale.core.judge import build_judged_rankings
from irscale.core.judged import NONPOOL, UNJUDGED, JudgedRankings
from irscale.core.options import RankingOptions
from irscale.errors import InputError
from irscale.io.native_trec import judge_files, judge_trec

from .conftest import CLEF, SHARED_DATA, require
from .faults.catalog import trec_file_faults
from .faults.conftest import qrels_lines, run_lines, text
from .property_examples import examples

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import datagen

FIXTURES = Path(__file__).parent / "fixtures" / "reference"
POLICIES = ("trec_eval", "file-order", "rank-column")
NAME = "<bytes>"  # how the Python readers name bytes in messages


def python_path(qrels: bytes, runs: Sequence[bytes], options: RankingOptions,
                placeholders: bool = False) -> JudgedRankings:
    """Today's path: read with the Python readers, judge with build_judged_rankings."""
    read = irscale.read_qrels(qrels)
    keep_rank = options.ties == "rank-column"
    return build_judged_rankings(read, [irscale.read_run(r, keep_rank=keep_rank) for r in runs],
                                 options, placeholders=placeholders)


def native_path(qrels: bytes, runs: Sequence[bytes], options: RankingOptions,
                placeholders: bool = False) -> JudgedRankings:
    return judge_trec((qrels, NAME), [(r, NAME) for r in runs], options,
                      placeholders=placeholders)


def outcome(build: Callable[[], JudgedRankings]) -> tuple:
    """("ok", judged rankings, warnings) or ("error", class, message, warnings)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            result: tuple = ("ok", build())
        except InputError as error:
            result = ("error", type(error).__name__, str(error))
    return (*result, sorted(str(w.message) for w in seen))


def assert_same_judged(native: JudgedRankings, python: JudgedRankings) -> None:
    for name in ("rel", "offsets", "rel_levels", "ranking_topic", "ranking_run",
                 "column_degrees"):
        ours, theirs = getattr(native, name), getattr(python, name)
        assert np.array_equal(ours, theirs), name
        assert ours.dtype == theirs.dtype, name
    assert (native.degrees is None) == (python.degrees is None)
    assert (native.placeholder is None) == (python.placeholder is None)
    if python.placeholder is not None:
        assert np.array_equal(native.placeholder, python.placeholder)
    assert native.topics == python.topics
    assert native.runs == python.runs
    assert native.unjudged_topics == python.unjudged_topics
    assert native.relevance_level == python.relevance_level


def assert_same(qrels: bytes, runs: Sequence[bytes], options: RankingOptions,
                placeholders: bool = False) -> tuple:
    native = outcome(lambda: native_path(qrels, runs, options, placeholders))
    python = outcome(lambda: python_path(qrels, runs, options, placeholders))
    assert native[0] == python[0], (native, python)
    if native[0] == "ok":
        assert_same_judged(native[1], python[1])
    else:
        assert native[1:3] == python[1:3]
    assert native[-1] == python[-1]  # the warnings (of the runs read before a fault too)
    return native


# ------------------------------------------------------------ worked example
def test_a_worked_example_judged_as_trec_eval_does():
    """Independent of the Python path: trec_eval's order (score descending, C floats,
    docno descending) and judgments written out by hand."""
    qrels = b"2 0 a 1\n2 0 b 0\n1 0 c 2\n2 0 d -1\n3 0 x 1\n"
    run = (b"2 Q0 a 1 1.00000001 r\n2 Q0 b 2 1.0 r\n2 Q0 d 3 3 r\n2 Q0 z 4 2 r\n"
           b"9 Q0 a 1 1 r\n1 Q0 c 1 1 r\n")
    jr = native_path(qrels, [run], RankingOptions(), placeholders=True)
    # topic 2: d (3), z (2), then b and a tie as C floats: b before a
    assert jr.rel.tolist() == [2, UNJUDGED, NONPOOL, 0, 1, NONPOOL]
    assert jr.offsets.tolist() == [0, 1, 5, 6]
    assert jr.topics == ("1", "2", "3")
    assert jr.placeholder.tolist() == [False, False, True]
    assert jr.unjudged_topics == (("9",),)
    assert jr.rel_levels.tolist() == [[0, 0, 1], [1, 1, 0], [0, 1, 0]]
    doubles = native_path(qrels, [run], RankingOptions(compat=10))
    assert doubles.rel.tolist() == [2, UNJUDGED, NONPOOL, 1, 0]


# ------------------------------------------------------------ fixtures and real data
@pytest.mark.parametrize("ties", POLICIES)
@pytest.mark.parametrize("placeholders", [False, True])
def test_reference_fixtures(ties, placeholders):
    qrels = (FIXTURES / "qrels.txt").read_bytes()
    runs = [path.read_bytes() for path in sorted((FIXTURES / "runs").glob("*.run"))]
    assert_same(qrels, runs, RankingOptions(ties=ties), placeholders)


@pytest.mark.parametrize("options", [
    RankingOptions(), RankingOptions(ties="file-order"), RankingOptions(ties="rank-column"),
    RankingOptions(compat=10), RankingOptions(max_docs=10, judged_only=True,
                                              relevance_level=2)])
def test_real_clef_runs(options):
    """16 CLEF eHealth 2016 runs (many tied scores) against their graded qrels."""
    folder = require(CLEF)
    qrels = (folder / "task2.qrels").read_bytes()
    runs = [path.read_bytes() for path in sorted((folder / "runs").iterdir())]
    assert_same(qrels, runs, options, placeholders=True)


@pytest.mark.parametrize("name", ["qrels.web.201-250.txt", "qrels.web.251-300.txt",
                                  "qrels.web.201-250.ndeval.txt"])
def test_real_web_track_qrels(name):
    """TREC Web track qrels (graded, negative degrees); read as plain qrels, the diversity
    qrels judge documents once per intent: the same duplicate error, with its hint."""
    qrels = (require(SHARED_DATA / "trec-web-diversity") / name).read_bytes()
    runs = [path.read_bytes() for path in sorted((FIXTURES / "runs").glob("*.run"))]
    assert_same(qrels, runs, RankingOptions(), placeholders=True)


@pytest.mark.parametrize("case", ["ties", "shuffled", "clueweb", "unranked", "tsv",
                                  "aligned", "uneven", "interleaved", "longties",
                                  "hashorder", "doubles", "urls", "graded", "signed"])
@pytest.mark.parametrize("ties", POLICIES)
def test_the_benchmark_cases(tmp_path, case, ties):
    """Every shape of the benchmark's generated files (``benchmarks/datagen.py``), made
    small: tabs, aligned columns, shuffled and interleaved lines, integer, double and
    signed scores, long docnos."""
    shape = dataclasses.replace(datagen.CASES[case], n_topics=40, depth=60)
    qrels, run = tmp_path / "q", tmp_path / "r"
    datagen.generate(shape, qrels, run)
    assert_same(qrels.read_bytes(), [run.read_bytes()], RankingOptions(ties=ties),
                placeholders=True)


def test_files_by_path_and_gzip(tmp_path):
    qrels = text(qrels_lines())
    (tmp_path / "qrels.gz").write_bytes(gzip.compress(qrels))
    paths = []
    for which in "abc":
        path = tmp_path / f"{which}.run"
        path.write_bytes(text(run_lines(which)))
        paths.append(path)
    native = judge_files(tmp_path / "qrels.gz", paths, RankingOptions(ties="file-order"),
                         complete=True)
    python = python_path(qrels, [p.read_bytes() for p in paths],
                         RankingOptions(ties="file-order"), placeholders=True)
    assert_same_judged(native, python)
    with pytest.raises(irscale.errors.FileAccessError, match=r"missing\.run"):
        judge_files(tmp_path / "qrels.gz", [tmp_path / "missing.run"])


# ------------------------------------------------------------ generated files
TOPICS = ("1", "2", "10", "q\u00e9", "3")
DOCNOS = ("d1", "d2", "d10", "D1", "d\u00e9", "a", "zz", "d3")
SCORES = ("1", "1.0", "1.00000001", "0.99999999", "2", "-0", "0", "+0.5", ".5", "5.",
          "1e300", "2e300", "1e-300", "1E1", "10", "-1.5", "3.4e38", "3.5e38")
SEPARATORS = (" ", "\t", "  ", " \t ")


@st.composite
def trec_text(draw, fields: Callable) -> bytes:
    """Lines of ``fields(draw)``, separated and ended in the ways files are."""
    rows = draw(st.lists(fields(draw), min_size=1, max_size=25))
    sep = draw(st.sampled_from(SEPARATORS))
    lines = [sep.join(row) for row in rows]
    if draw(st.booleans()):
        lines = [(" " + line + " ") for line in lines]
    if lines and draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), "")
    end = draw(st.sampled_from(("\n", "\r\n")))
    data = (end.join(lines) + (end if draw(st.booleans()) else "")).encode()
    return gzip.compress(data) if draw(st.integers(0, 4)) == 0 else data


def qrels_rows(draw) -> st.SearchStrategy:
    degree = st.one_of(st.integers(-2, 3), st.sampled_from([10_000_000, 17, -5]))
    return st.tuples(st.sampled_from(TOPICS), st.sampled_from(["0", "Q0", "x"]),
                     st.sampled_from(DOCNOS), degree.map(str))


def run_rows(runid: str) -> Callable:
    def rows(draw) -> st.SearchStrategy:
        return st.tuples(st.sampled_from(TOPICS), st.just("Q0"), st.sampled_from(DOCNOS),
                         st.integers(-1, 30).map(str), st.sampled_from(SCORES),
                         st.sampled_from([runid, runid, runid, "other"]))
    return rows


@st.composite
def distinct_pairs(draw, strategy: st.SearchStrategy) -> bytes:
    """TREC text whose (topic, docno) pairs are mostly distinct (a duplicate now and then)."""
    data = draw(strategy)
    if draw(st.integers(0, 5)) == 0:
        return data
    packed = data[:2] == b"\x1f\x8b"
    plain = gzip.decompress(data) if packed else data
    seen, kept = set(), []
    for line in plain.splitlines(keepends=True):
        fields = line.split()
        key = (fields[0], fields[2]) if len(fields) > 2 else None
        if key not in seen:
            kept.append(line)
            seen.add(key)
    return gzip.compress(b"".join(kept)) if packed else b"".join(kept)


@settings(max_examples=examples(300))
@given(qrels=distinct_pairs(trec_text(qrels_rows)),
       runs=st.integers(1, 3).flatmap(lambda n: st.tuples(
           *(distinct_pairs(trec_text(run_rows(f"r{i}"))) for i in range(n)))),
       ties=st.sampled_from(POLICIES), compat=st.sampled_from([9, 10]),
       max_docs=st.sampled_from([None, 1, 3]), judged_only=st.booleans(),
       placeholders=st.booleans())
def test_generated_files(qrels, runs, ties, compat, max_docs, judged_only, placeholders):
    options = RankingOptions(ties=ties, compat=compat, max_docs=max_docs,
                             judged_only=judged_only)
    assert_same(qrels, list(runs), options, placeholders)


def _large_run(rng: np.random.Generator, lines: int) -> tuple[bytes, bytes]:
    """A qrels and a run of ``lines`` lines (more than one piece of the engine's parse),
    topics interleaved, scores with many ties (equal as C floats or as doubles)."""
    topic = rng.integers(0, 300, lines)
    docno = np.arange(lines)
    score = rng.integers(0, 50, lines) / 7 + rng.choice([0.0, 1e-9], lines)
    run = "".join(f"t{t} Q0 d{d} {i} {s!r} r\n" for i, (t, d, s) in
                  enumerate(zip(topic.tolist(), docno.tolist(), score.tolist(), strict=True)))
    judged = rng.choice(lines, lines // 5, replace=False)
    qrels = "".join(f"t{topic[j]} 0 d{docno[j]} {rng.integers(-1, 3)}\n" for j in judged)
    return qrels.encode(), run.encode()


@pytest.mark.parametrize("ties", POLICIES)
def test_a_run_read_in_pieces(ties):
    qrels, run = _large_run(np.random.default_rng(7), 240_000)
    assert len(run) > 2 * (1 << 22)
    assert_same(qrels, [run], RankingOptions(ties=ties), placeholders=True)
    lines = run.split(b"\n")
    lines[230_000] = lines[230_000].replace(b" r", b" 1 r")
    assert assert_same(qrels, [b"\n".join(lines)], RankingOptions(ties=ties))[0] == "error"


def test_the_same_arrays_whatever_the_thread_count(tmp_path):
    """The engine's threads (rayon's, RAYON_NUM_THREADS) share out pieces and topics: the
    judged rankings are the same, byte for byte, on 1 thread and on 3."""
    qrels, run = _large_run(np.random.default_rng(11), 240_000)
    (tmp_path / "q").write_bytes(qrels)
    (tmp_path / "r").write_bytes(run)
    script = ("import sys, numpy as np; from irscale.io.native_trec import judge_files; "
              "jr = judge_files(sys.argv[1], [sys.argv[2]], complete=True); "
              "np.savez(sys.argv[3], rel=jr.rel, offsets=jr.offsets, levels=jr.rel_levels)")
    saved = []
    for threads in ("1", "3"):
        out = tmp_path / f"{threads}.npz"
        env = {**os.environ, "RAYON_NUM_THREADS": threads,
               "PYTHONPATH": os.pathsep.join(sys.path)}
        subprocess.run([sys.executable, "-c", script, str(tmp_path / "q"), str(tmp_path / "r"),
                        str(out)], check=True, env=env)
        saved.append(np.load(out))
    for name in ("rel", "offsets", "levels"):
        assert saved[0][name].tobytes() == saved[1][name].tobytes()


# ------------------------------------------------------------ faults
def _fault_cases(kind: str) -> list:
    """The file of every row of the catalogue of faulty TREC files (``tests/faults``)."""
    cases = [param.values[0] for param in
             trec_file_faults(kind, kind, lambda name: [name], [], name="f.txt")]
    return [pytest.param(dict(case.files)["f.txt"], id=case.id)
            for case in cases if dict(case.files).get("f.txt") is not None]


def _bytes(data: bytes | str) -> bytes:
    return data.encode() if isinstance(data, str) else data


@pytest.mark.parametrize("data", _fault_cases("run"))
@pytest.mark.parametrize("ties", ["trec_eval", "rank-column"])
def test_run_fault_rows(data, ties):
    assert_same(text(qrels_lines()), [_bytes(data)], RankingOptions(ties=ties))


@pytest.mark.parametrize("data", _fault_cases("qrels"))
def test_qrels_fault_rows(data):
    assert_same(_bytes(data), [text(run_lines("a"))], RankingOptions())


@pytest.mark.parametrize("qrels, run", [
    (b"1 0 d1 1\n1 0 d1 2\n", b"1 Q0 d1 1 1 r\n"),  # qrels duplicate
    (b"1 0 d1 1\n1 5 d1 2\n", b"1 Q0 d1 1 1 r\n"),  # ... whose second fields differ
    (b"1 0 d1 1\n", b"2 Q0 a 1 1 r\n1 Q0 b 1 1 r\n2 Q0 a 1 1 r\n1 Q0 b 1 1 r\n"),
    (b"1 0 d1 1\n", b"1 Q0 d1 1 nan r\n"),
    (b"1 0 d1 1\n", b"1 Q0 d\xe9 1 1 r\n1 Q0 d1 1 1\n"),  # UTF-8 is checked first
    (b"1 0 d1 1\n", b"1 Q0 d1 1 1 r\n1 Q0 d\xc2\xa01 1 1 r\n1 Q0 d1\n"),  # Python spaces
    (b"1 0 d1 1\n", b"1 Q0 d1 1 1 r\n1 Q0 d2 1 x r\n1 Q0 d\x001 1 1 r\n"),
    (b"1 0 d1 1\n", b"\xef\xbb\xbf1 Q0 d1 1 1 r\n"),  # a byte order mark
    (b"1 0 d1 1\n", b" \x0b \n"),
    (b"1 0 d1 1\n", b"1 Q0 d1 1 1 r\r1 Q0 d2 2 1 r\n"),  # a lone \r ends a record
    (b"1 0 d1 1\r1 0 d2 0", b"1 Q0 d1 1 1 r\r1 Q0 d2 2 1 r\r1 Q0 d3 3 1 r"),
    (b"1 0 d1 1\n", b"1 Q0 d1 1 1 r\n1 Q0 d2 2 1 te\rst\n"),
    (b"1 0 d1 1\n1 0 d5\rx 0\n", b"1 Q0 d1 1 1 r\n"),
])
def test_faults_named_alike(qrels, run):
    assert_same(qrels, [run], RankingOptions(ties="rank-column"))


def test_runs_named_by_the_caller_warn_of_several_run_ids_alike():
    qrels = text(qrels_lines())
    run = text([*run_lines("a"), "9 Q0 d1 1 0.5 other"])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        native = judge_trec((qrels, NAME), [(run, NAME)], names=["mine"])
        python = build_judged_rankings(irscale.read_qrels(qrels),
                                       [irscale.read_run(run, name="mine")])
    assert_same_judged(native, python)
    messages = [str(w.message) for w in seen]
    assert len(messages) == 2 and messages[0] == messages[1]


def test_the_warnings_of_runs_read_before_a_fault_come_first():
    """The Python readers warn of each run as they read it, and of a run's own run ids and
    scores before they refuse its duplicate: the same warnings, then the same error."""
    qrels = text(qrels_lines())
    warned = text([*run_lines("a"), "9 Q0 d1 1 1e300 other"])
    duplicate = text([*run_lines("b"), "1 Q0 d6 9 0.1 other", "1 Q0 d6 9 0.1 x"])
    for faulty in (duplicate, b"1 Q0 d1 1 x r\n"):
        native = assert_same(qrels, [warned, faulty], RankingOptions())
        assert native[0] == "error" and len(native[-1]) >= 2


def test_runs_with_one_name_are_refused_alike():
    qrels, run = text(qrels_lines()), text(run_lines("a"))
    assert_same(qrels, [run, run], RankingOptions())


#: Arbitrary bytes, and texts of TREC-like pieces in any order.
FUZZ = st.one_of(st.binary(max_size=200), st.lists(st.sampled_from(
    [b"1", b" ", b"Q0", b"d1", b"d2", b"\r", b"\n", b"\t", b"2.5", b"r", b"\xe9", b"\x00",
     b"-1", b"\xef\xbb\xbf", b"\x0b", b"nan"]), max_size=60).map(b"".join))


@settings(max_examples=examples(400))
@given(qrels=FUZZ, run=FUZZ, gz=st.booleans(), ties=st.sampled_from(POLICIES))
def test_arbitrary_bytes_never_crash(qrels, run, gz, ties):
    """Any bytes give judged rankings or the package's InputError, never anything else."""
    data = gzip.compress(run)[: len(run) // 2 + 10] if gz else run
    try:
        native_path(b"1 0 d1 1\n" + qrels, [data], RankingOptions(ties=ties))
    except InputError:
        pass
    try:
        native_path(qrels, [b"1 Q0 d1 1 1 r\n" + run], RankingOptions(ties=ties))
    except InputError:
        pass

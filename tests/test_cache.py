"""The results cache (``irscale.evaluate(..., cache=DIR)``, ``evaluate_many``, ``--cache``).

Evaluations are counted by a spy on the function that computes the measures
(``irscale.evaluation.compute_shared``), never by timing. A hit must equal a fresh
evaluation (frames, dtypes, text, warnings) and pytrec_eval on the same files; a changed
byte of an input, a changed option, measure or version evaluates again; a damaged entry is
reported and evaluated again; writers of one key never leave a partial entry.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irscale
import irscale.core.version
from irscale.cache import store as store_module
from irscale.cache.entries import decode, encode
from irscale.cache.evaluations import NOT_IN_KEY, call_key, run_key
from irscale.cache.frames import MAGIC
from irscale.cache.store import SUFFIX, CacheDir
from irscale.errors import (
    CacheWriteWarning,
    FileAccessError,
    OutputExistsError,
    ParameterError,
)
from irscale.evaluation import evaluate
from irscale.evaluation import judged as evaluation_module
from irscale.evaluation.many import evaluate_many
from irscale.evaluation.setup import evaluation_setup

QRELS = "1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n1 0 d5 1\n2 0 d1 1\n2 0 d4 1\n2 0 d6 0\n"
RUNS = {
    "a": "1 Q0 d1 1 3.0 a\n1 Q0 d2 2 2.5 a\n1 Q0 d3 3 1.0 a\n2 Q0 d4 1 1.0 a\n"
         "2 Q0 d1 2 0.5 a\n",
    "b": "1 Q0 d3 1 9.0 b\n1 Q0 d5 2 8.0 b\n2 Q0 d6 1 2.0 b\n2 Q0 d1 2 1.5 b\n"
         "3 Q0 d9 1 1.0 b\n",  # topic 3 is not judged: a warning
    "c": "1 Q0 d2 1 4.0 c\n1 Q0 d1 2 3.0 c\n2 Q0 d1 1 2.0 c\n2 Q0 d4 2 1.0 c\n",
}
MEASURES = ["map", "P.2", "ndcg", "recip_rank", "relstring"]

#: Run b's unjudged topic is warned of on every evaluation (asserted where it matters).
pytestmark = pytest.mark.filterwarnings("ignore:run 'b'.*not evaluated:UserWarning")


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """qrels and three runs (a, b, c) in ``tmp_path/data``."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "qrels").write_text(QRELS)
    for name, text in RUNS.items():
        (data / f"{name}.run").write_text(text)
    return data


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The runs of every batch whose measures were computed (one item per computation)."""
    calls: list[tuple[str, ...]] = []
    real = evaluation_module.compute_shared

    def spy(jr, requests, context):
        calls.append(tuple(jr.runs))
        return real(jr, requests, context)

    monkeypatch.setattr(evaluation_module, "compute_shared", spy)
    return calls


def recorded(function, *args, **kwargs):
    """``function(...)`` and the ``(category, message)`` of its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    return result, [(w.category, str(w.message)) for w in caught]


def assert_same(hit: irscale.Evaluation, fresh: irscale.Evaluation) -> None:
    """Two evaluations hold the same values, dtypes, rows, summaries and text."""
    assert [c for c in hit.columns] == [c for c in fresh.columns]
    assert list(hit.values) == list(fresh.values)
    for label, values in fresh.values.items():
        assert hit.values[label].dtype == values.dtype, label
        np.testing.assert_array_equal(hit.values[label], values, strict=True)
    pd.testing.assert_frame_equal(hit.per_topic(), fresh.per_topic(), check_exact=True)
    pd.testing.assert_frame_equal(hit.aggregates(), fresh.aggregates(), check_exact=True)
    assert hit.rows.runs == fresh.rows.runs and hit.rows.topics == fresh.rows.topics
    assert hit.unjudged_topics == fresh.unjudged_topics
    assert hit.averaging == fresh.averaging and hit.runids == fresh.runids
    for fmt in ("trec", "csv", "json"):
        assert hit.format(fmt, per_query=True) == fresh.format(fmt, per_query=True)


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"*{SUFFIX}"))


# ------------------------------------------------------------------ hits and misses
def test_a_hit_equals_a_fresh_evaluation_and_shows_its_warnings(files, tmp_path, measured):
    cache = tmp_path / "cache"
    runs = [files / "a.run", files / "b.run"]
    miss, miss_warned = recorded(evaluate, files / "qrels", runs, MEASURES, cache=cache)
    assert len(measured) == 1 and len(entries(cache)) == 1
    hit, hit_warned = recorded(evaluate, files / "qrels", runs, MEASURES, cache=cache)
    assert len(measured) == 1  # read from the cache
    fresh, fresh_warned = recorded(evaluate, files / "qrels", runs, MEASURES)
    assert hit.rankings is None and fresh.rankings is not None
    assert_same(hit, fresh)
    assert_same(miss, fresh)
    assert any("'b'" in message and "3" in message for _, message in fresh_warned)
    assert miss_warned == hit_warned == fresh_warned


def test_z_scores_apply_to_the_cached_evaluation(files, tmp_path, measured):
    """``zscores=`` (-Z) is applied to the evaluation read from the cache: the same text
    as without a cache, and a second Z file needs no new evaluation."""
    cache = tmp_path / "cache"
    runs = [files / "a.run"]
    means = "".join(f"{t} map 0.5 0.25\n{t} P_5 0.2 0.1\n" for t in ("1", "2", "3"))
    other = means.replace("0.25", "0.5")
    for z in (means, other):
        expected = evaluate(files / "qrels", runs, ["map", "P_5"],
                            zscores=z.encode()).format("trec", per_query=True)
        cached = evaluate(files / "qrels", runs, ["map", "P_5"], zscores=z.encode(),
                          cache=cache).format("trec", per_query=True)
        assert cached == expected
    assert len(entries(cache)) == 1
    assert len(measured) == 3  # two fresh evaluations, one miss, then one hit


def test_a_hit_equals_pytrec_eval(files, tmp_path):
    """pytrec_eval (trec_eval 9.0.8's code) on the same files: an independent oracle."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels: dict[str, dict[str, int]] = {}
    for line in QRELS.splitlines():
        topic, _, docno, rel = line.split()
        qrels.setdefault(topic, {})[docno] = int(rel)
    run: dict[str, dict[str, float]] = {}
    for line in RUNS["a"].splitlines():
        topic, _, docno, _, score, _ = line.split()
        run.setdefault(topic, {})[docno] = float(score)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P.2", "ndcg"}).evaluate(run)
    cache = tmp_path / "cache"
    evaluate(files / "qrels", files / "a.run", ["map", "P.2", "ndcg"], cache=cache)
    hit = evaluate(files / "qrels", files / "a.run", ["map", "P.2", "ndcg"], cache=cache)
    table = hit.per_topic().set_index(["topic", "measure"])["value"]
    for topic, values in expected.items():
        for measure in ("map", "P_2", "ndcg"):
            assert table[(topic, measure)] == pytest.approx(values[measure], abs=1e-12)


def test_a_hit_on_real_runs_equals_pytrec_eval(tmp_path, clef):
    """The CLEF eHealth 2016 runs (many tied scores), read back from the cache."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    root = clef
    run_file = root / "runs" / "CUNI_EN_Run1.txt"
    with open(root / "task2.qrels") as stream:
        qrels = pytrec_eval.parse_qrel(stream)
    with open(run_file) as stream:
        run = pytrec_eval.parse_run(stream)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P", "ndcg_cut"}).evaluate(run)
    measures = ["map", "P.10", "ndcg_cut.10"]
    evaluate(root / "task2.qrels", run_file, measures, cache=tmp_path / "cache")
    hit = evaluate(root / "task2.qrels", run_file, measures, cache=tmp_path / "cache")
    table = hit.per_topic().set_index(["topic", "measure"])["value"]
    for topic, values in expected.items():
        for measure in ("map", "P_10", "ndcg_cut_10"):
            assert table[(topic, measure)] == pytest.approx(values[measure], abs=1e-12)


def changed_byte(path: Path) -> None:
    """Change one byte of a file, keeping its size (a score digit)."""
    data = bytearray(path.read_bytes())
    where = data.index(b"1.0")
    data[where] = ord("7")
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("which", ["qrels", "a.run"])
def test_a_changed_byte_evaluates_again(files, tmp_path, measured, which):
    cache = tmp_path / "cache"
    if which == "qrels":
        path = files / "qrels"
        text = path.read_text().replace("2 0 d4 1", "2 0 d4 0")
        assert len(text) == len(QRELS)
        first = evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
        path.write_text(text)
    else:
        first = evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
        changed_byte(files / "a.run")
    second = evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
    assert len(measured) == 2 and len(entries(cache)) == 2
    assert_same(second, evaluate(files / "qrels", files / "a.run", MEASURES))
    assert not first.per_topic().equals(second.per_topic())


@pytest.mark.parametrize("option", [
    {"relevance_level": 2}, {"max_docs": 1}, {"judged_only": True}, {"complete": True},
    {"num_docs_in_coll": 100}, {"compat": 10}, {"ties": "file-order"},
    {"allow_empty": True},
])
def test_a_changed_option_evaluates_again(files, tmp_path, measured, option):
    cache = tmp_path / "cache"
    evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
    evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache, **option)
    again = evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache, **option)
    assert len(measured) == 2 and len(entries(cache)) == 2
    assert_same(again, evaluate(files / "qrels", files / "a.run", MEASURES, **option))


def test_a_changed_measure_evaluates_again_and_names_are_requests(files, tmp_path, measured):
    """``map`` and ``AP`` are one family but two requests (two column labels): two
    entries; the same names again are a hit."""
    cache = tmp_path / "cache"
    for measures in (["map"], ["AP"], ["P@2"], ["map"], ["AP"], ["P@2"]):
        evaluate(files / "qrels", files / "a.run", measures, cache=cache)
    assert len(measured) == 3 and len(entries(cache)) == 3
    assert evaluate(files / "qrels", files / "a.run", ["AP"], cache=cache).measures == ("AP",)


def test_a_changed_version_evaluates_again(files, tmp_path, measured, monkeypatch):
    cache = tmp_path / "cache"
    evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
    monkeypatch.setattr(irscale.core.version, "__version__", "0.0.0+other")
    evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
    evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
    assert len(measured) == 2 and len(entries(cache)) == 2


def test_a_file_changed_while_evaluated_is_not_stored(files, tmp_path, monkeypatch):
    real = evaluation_module.compute_shared

    def changing(jr, requests, context):
        with open(files / "a.run", "a") as stream:
            stream.write("2 Q0 d7 3 0.1 a\n")
        return real(jr, requests, context)

    monkeypatch.setattr(evaluation_module, "compute_shared", changing)
    evaluate(files / "qrels", files / "a.run", MEASURES, cache=tmp_path / "cache")
    assert entries(tmp_path / "cache") == []


# ------------------------------------------------------------------ objects held in memory
def as_dicts(text: str, kind=float) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        fields = line.split()
        if kind is int:
            out.setdefault(fields[0], {})[fields[2]] = int(fields[3])
        else:
            out.setdefault(fields[0], {})[fields[2]] = float(fields[4])
    return out


def test_dicts_are_keyed_by_content_and_order(tmp_path, measured):
    cache = tmp_path / "cache"
    qrels, run = as_dicts(QRELS, int), as_dicts(RUNS["a"])
    first = evaluate(qrels, {"a": run}, MEASURES, cache=cache)
    assert_same(evaluate(as_dicts(QRELS, int), {"a": as_dicts(RUNS["a"])}, MEASURES,
                         cache=cache), first)
    assert len(measured) == 1
    run["1"]["d2"] = 2.25  # another score
    evaluate(qrels, {"a": run}, MEASURES, cache=cache)
    reordered = {"2": run["2"], "1": run["1"]}  # the same pairs in another order
    evaluate(qrels, {"a": reordered}, MEASURES, cache=cache)
    assert len(measured) == 3


def test_frames_and_objects_are_keyed_by_content(files, tmp_path, measured):
    cache = tmp_path / "cache"
    qrels = irscale.read_qrels(files / "qrels")
    run = irscale.read_run(files / "a.run")
    frame = pd.DataFrame([line.split() for line in RUNS["c"].splitlines()],
                         columns=["query_id", "q0", "doc_id", "rank", "score", "runid"])
    frame["score"] = frame["score"].astype(float)
    for _ in range(2):
        evaluate(qrels, run, MEASURES, cache=cache)
        evaluate(files / "qrels", {"c": frame[["query_id", "doc_id", "score"]]}, MEASURES,
                 cache=cache)
    assert len(measured) == 2
    frame.loc[0, "score"] = 0.5
    evaluate(files / "qrels", {"c": frame[["query_id", "doc_id", "score"]]}, MEASURES,
             cache=cache)
    assert len(measured) == 3


def test_arrow_text_is_keyed_by_its_strings_whatever_its_layout():
    """Chunks, offsets and offset widths are layout: the same strings are one key; other
    strings (the same bytes cut elsewhere), or a null against an empty string, are not."""
    pa = pytest.importorskip("pyarrow")
    from irscale.cache.keys import KeyWriter

    def key(value) -> str:
        writer = KeyWriter()
        writer.value(value)
        return writer.hexdigest()

    same = [pa.chunked_array([["ab", "c"], ["", "d"]]),
            pa.chunked_array([["ab"], ["c", "", "d"]], type=pa.large_string()),
            pa.array(["z", "ab", "c", "", "d"]).slice(1)]
    assert len({key(v) for v in same}) == 1
    assert key(pa.array(["a", "bc", "", "d"])) != key(same[0])
    assert key(pa.array(["x", None])) != key(pa.array(["x", ""]))


@pytest.mark.parametrize("spec", ["-", "iterator", "file object"])
def test_inputs_without_a_canonical_form_are_refused(files, tmp_path, spec):
    runs = ("-" if spec == "-" else iter([("1", "d1", 1.0)]) if spec == "iterator"
            else open(files / "a.run", "rb"))
    try:
        with pytest.raises(ParameterError, match="cache"):
            evaluate(files / "qrels", runs, MEASURES, cache=tmp_path / "cache")
    finally:
        if hasattr(runs, "close"):
            runs.close()
    assert not (tmp_path / "cache").exists()  # nothing written


def test_a_pipe_is_refused_not_consumed(files, tmp_path):
    """Hashing a pipe would consume what the evaluation reads: refused."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ParameterError, match="not a regular file"):
        evaluate(files / "qrels", fifo, MEASURES, cache=tmp_path / "cache")


@pytest.mark.parametrize("cache", [123, "", b"dir", None.__class__])
def test_a_cache_that_names_no_folder_is_a_parameter_error(files, cache):
    with pytest.raises(ParameterError, match="cache must name a folder"):
        evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)


def test_diversity_measures_are_refused(files, tmp_path):
    with pytest.raises(ParameterError, match="diversity"):
        evaluate(files / "qrels", files / "a.run", ["alpha-nDCG@20"], cache=tmp_path / "c")


# ------------------------------------------------------------------ the key
#: A value other than the default for every parameter of evaluate and evaluate_many that
#: can change a value (an option added to either must be added here: the test below fails
#: until then, and checks that the new option is in the key).
ALTERNATIVES = {
    "measures": ["AP"],
    "relevance_level": 2,
    "max_docs": 3,
    "judged_only": True,
    "complete": True,
    "num_docs_in_coll": 10,
    "compat": 10,
    "ties": "rank-column",
    "allow_empty": True,
    "labels": "labels",  # a label file (below)
    "intent_probabilities": "labels",
    "intent_types": "labels",
    "qrels": "other qrels",
    "runs": "other run",
    "names": ["x"],
    "relevance_format": "prefs",  # refused with a cache, yet in the key
}


def _setup(arguments):
    """The checked setup of a call's arguments (the options evaluation_setup takes)."""
    taken = inspect.signature(evaluation_setup).parameters
    return evaluation_setup(**{name: arguments[name] for name in taken})


def _arguments(function, files: Path, name: str | None = None) -> dict:
    arguments = {name: parameter.default
                 for name, parameter in inspect.signature(function).parameters.items()}
    arguments.update(qrels=str(files / "qrels"), runs=[str(files / "a.run")],
                     measures=["map"])
    if name is not None:
        value = ALTERNATIVES[name]
        value = {"labels": str(files / "labels"), "other qrels": str(files / "qrels2"),
                 "other run": [str(files / "b.run")]}.get(value, value) \
            if isinstance(value, str) else value
        if name == "labels":
            value = {"under": value}
        arguments[name] = value
    return arguments


@pytest.mark.parametrize("function", [evaluate, evaluate_many], ids=lambda f: f.__name__)
def test_every_option_is_in_the_key(files, function):
    (files / "labels").write_text("1 0 d1 1\n")
    (files / "qrels2").write_text(QRELS + "2 0 d9 1\n")
    parameters = list(inspect.signature(function).parameters)
    unknown = [name for name in parameters if name not in ALTERNATIVES and name not in NOT_IN_KEY]
    assert unknown == [], f"new option(s) {unknown}: add a value to ALTERNATIVES"

    def key(arguments: dict) -> str:
        setup = _setup(arguments)
        if function is evaluate:
            return call_key(evaluate, arguments, setup).hexdigest()
        prefix = call_key(evaluate_many, arguments, setup, per_run=True)
        names = arguments["names"]
        return run_key(prefix, arguments["runs"][0],
                       names[0] if isinstance(names, list) else None).hexdigest()

    base = key(_arguments(function, files))
    assert base == key(_arguments(function, files))
    for name in parameters:
        if name in NOT_IN_KEY:
            continue
        assert key(_arguments(function, files, name)) != base, f"{name} is not in the key"


# ------------------------------------------------------------------ damaged entries
def _truncated(data: bytes) -> bytes:
    return data[:len(data) // 2]


def _flipped(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1:]


def _garbage(data: bytes) -> bytes:
    return b"not an entry at all"


def _old_format(data: bytes) -> bytes:
    return MAGIC[:-1] + b"\x00" + data[len(MAGIC):]


def _format_2(data: bytes) -> bytes:
    """The entry as format 2 wrote it, intact: its header as JSON under a SHA-256 checksum
    (a format 3 entry's key is that of format 2: a miss, never a wrong answer)."""
    import hashlib
    import json

    from irscale.io.regular_files import unpack

    start = len(MAGIC) + 32 + 8
    length = int.from_bytes(data[start - 8:start], "little")
    header = json.dumps(unpack(data[start:start + length], "h")).encode()
    body = len(header).to_bytes(8, "little") + header + data[start + length:]
    return b"irscale-cache\x00\x00\x02" + hashlib.sha256(body).digest() + body


@pytest.mark.parametrize("damage", [_truncated, _flipped, _garbage, _old_format, _format_2,
                                    bytes],
                         ids=["truncated", "flipped", "garbage", "other-format", "format-2",
                              "empty"])
def test_a_damaged_entry_is_reported_and_evaluated_again(files, tmp_path, measured, damage):
    cache = tmp_path / "cache"
    fresh = evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
    (entry,) = entries(cache)
    entry.write_bytes(damage(entry.read_bytes()) if damage is not bytes else b"")
    with pytest.warns(UserWarning, match="is not used"):
        again = evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
    assert len(measured) == 2
    assert_same(again, fresh)
    assert_same(evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache), fresh)
    assert len(measured) == 2  # the entry was written again


def test_an_entry_of_another_key_is_not_trusted(files, tmp_path, measured):
    """A valid entry renamed to another key's name (its checksum holds) is refused."""
    cache = tmp_path / "cache"
    evaluate(files / "qrels", files / "a.run", ["map"], cache=cache)
    evaluate(files / "qrels", files / "a.run", ["P.2"], cache=cache)
    first, second = entries(cache)
    first.write_bytes(second.read_bytes())
    with pytest.warns(UserWarning, match="another key"):
        evaluate(files / "qrels", files / "a.run", ["map"], cache=cache)
        evaluate(files / "qrels", files / "a.run", ["P.2"], cache=cache)
    assert len(measured) == 3


def _count(n: int) -> bytes:
    return n.to_bytes(8, "little")


@pytest.mark.parametrize(("packed", "reason"), [
    (b"", "1 bytes announced, 0 left"),
    (b"X", "an unknown tag b'X'"),
    (b"NN", "1 bytes after its value"),
    (b"I" + bytes(4), "8 bytes announced, 4 left"),
    (b"S" + _count(5) + b"ab", "5 bytes announced, 2 left"),
    (b"S" + _count(2) + b"\xff\xfe", "not UTF-8"),
    (b"L" + _count(1 << 62) + b"N", "items announced"),
    ((b"L" + _count(1)) * 101 + b"N", "nested deeper than 100"),
    (b"D" + _count(1) + b"I" + bytes(8) + b"N", "a dict key that is not text"),
    (b"D" + _count(2) + (b"S" + _count(1) + b"k" + b"N") * 2, "the key 'k' given twice"),
    (b"A" + _count(3) + _count(3) + b"a\0b", "2 texts where 3 are announced"),
    (b"A" + _count(0) + _count(0), "1 texts where 0 are announced"),
    (b"A" + _count(2) + _count(3) + b"a\0\xff", "not UTF-8"),
    (b"A" + _count(2) + _count(9) + b"a\0b", "9 bytes announced, 3 left"),
    (b"R" + _count(3) + b"0xz", "not a float"),
], ids=["empty", "tag", "trailing", "int-cut", "text-cut", "not-utf8", "huge-count", "deep",
        "key-not-text", "key-twice", "texts-fewer", "texts-none", "texts-not-utf8",
        "texts-cut", "float"])
def test_a_packed_header_is_read_within_its_bounds(packed, reason):
    """An entry's header (:func:`irscale.io.regular_files.unpack`): anything
    :func:`~irscale.io.regular_files.pack` does not write is an
    :class:`~irscale.errors.InputFormatError` naming the source (a cache entry's then is a
    miss, with a warning: tests/faults/test_cache_faults.py)."""
    from irscale.errors import InputFormatError
    from irscale.io.regular_files import unpack

    with pytest.raises(InputFormatError, match="not a packed value") as caught:
        unpack(packed, "its header")
    assert reason in caught.value.reason and caught.value.source == "its header"


def test_packed_values_round_trip_and_refuse_what_they_cannot_hold():
    """JSON's values, lone surrogates (a file name's undecodable bytes), the 64-bit bounds
    and every bit of a float kept; bytes, a wider integer, a key that is not text refused."""
    import enum
    import math

    from irscale.io.regular_files import pack, unpack

    floats = unpack(pack([0.1, -0.0, math.inf, -math.inf, 5e-324, math.nan]), "h")
    assert [math.copysign(1, f) for f in floats[:2]] == [1, -1] and floats[:5] == [
        0.1, 0.0, math.inf, -math.inf, 5e-324] and math.isnan(floats[5])
    assert unpack(pack({"level": enum.IntEnum("L", "A B").B}), "h") == {"level": 2}

    value = {"files": [["a\udcff.run", None, [-(2**63), 2**63 - 1, 0]]], "ok": True,
             "no": False, "": {"nested": [[[]]], "é": "ü"},
             "texts": [["t1", "", "\udcff", "é"], [""], ["a\0b", "c"], [], ["x", 1]]}
    assert unpack(pack(value), "h") == value
    assert unpack(pack(("a", 1)), "h") == ["a", 1]
    for bad in (2**63, {1: "x"}, b"bytes", {"x"}):
        with pytest.raises((ValueError, OverflowError)):
            pack(bad)


def test_an_entry_is_read_within_the_memory_limit(tmp_path, monkeypatch):
    """A file read back (:func:`irscale.io.regular_files.read_regular`, a cache entry's)
    beyond the memory limit is refused (a miss, for an entry); one of at most
    ``UNDER_ANY_LIMIT`` bytes is read without the limit computed (below any limit an
    interpreter runs under)."""
    import irscale.core.budget
    from irscale.errors import InputError
    from irscale.io import regular_files

    small, large = tmp_path / "small", tmp_path / "large"
    small.write_bytes(b"x" * regular_files.UNDER_ANY_LIMIT)
    large.write_bytes(b"x" * (2 * regular_files.UNDER_ANY_LIMIT))
    monkeypatch.setattr(irscale.core.budget, "default_max_memory",
                        lambda: regular_files.UNDER_ANY_LIMIT * 3 // 2)
    with pytest.raises(InputError, match="memory limit"):
        regular_files.read_regular(large)
    monkeypatch.setattr(regular_files, "reading_limit", None)  # not called
    assert regular_files.read_regular(small) == small.read_bytes()


# ------------------------------------------------------------------ writers of one key
def test_two_writers_of_one_key_interleaved(files, tmp_path, monkeypatch):
    """Writer A has its entry complete in its temporary file when writer B writes and
    renames its own; A renames last. Readers only ever see complete entries, and no
    temporary file is left (the interleaving is forced, not timed)."""
    cache = tmp_path / "cache"
    evaluation = evaluate(files / "qrels", files / "a.run", MEASURES)
    folder = CacheDir(cache, [])
    real_replace = os.replace
    a_ready, b_done = threading.Event(), threading.Event()
    seen_between: list[list[str]] = []

    def replace(source, target):
        if threading.current_thread().name == "writer-a":
            a_ready.set()
            assert b_done.wait(60)
            seen_between.append(sorted(os.listdir(cache)))
        real_replace(source, target)

    key = "0" * 64
    monkeypatch.setattr(store_module.os, "replace", replace)
    try:
        writer_a = threading.Thread(name="writer-a", target=folder.put,
                                    args=(key, irscale.__version__, evaluation, [], encode))
        writer_a.start()
        assert a_ready.wait(60)
        assert folder.get(key, irscale.__version__, decode) is None  # A's: not visible yet
        folder.put(key, irscale.__version__, evaluation, [("builtins:UserWarning", "w")],
                   encode)
        b_done.set()
        writer_a.join(60)
    finally:
        monkeypatch.undo()
    assert len(seen_between[0]) == 2  # B's entry and A's temporary file
    assert os.listdir(cache) == [key + SUFFIX]
    found = folder.get(key, irscale.__version__, decode)
    assert found is not None and found[1] == []  # A's, complete
    assert_same(found[0], evaluation)


PROCESS = """
import sys, warnings
import irscale
warnings.simplefilter("ignore")
ev = irscale.evaluate(sys.argv[1], [sys.argv[2], sys.argv[3]], {measures!r}, cache=sys.argv[4])
sys.stdout.write(ev.format("trec", per_query=True))
"""


def test_processes_writing_one_key_at_once(files, tmp_path):
    """Four processes evaluate the same call into one cache at once: each prints the
    uncached text, one complete entry remains, no temporary file."""
    cache = tmp_path / "cache"
    cache.mkdir()
    argv = [sys.executable, "-c", PROCESS.format(measures=MEASURES), str(files / "qrels"),
            str(files / "a.run"), str(files / "b.run"), str(cache)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    processes = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=env) for _ in range(4)]
    outputs = [process.communicate(timeout=300) for process in processes]
    expected = evaluate(files / "qrels", [files / "a.run", files / "b.run"], MEASURES
                        ).format("trec", per_query=True)
    for (out, err), process in zip(outputs, processes, strict=True):
        assert process.returncode == 0, err.decode()
        assert out.decode() == expected
    assert os.listdir(cache) == [entries(cache)[0].name]
    hit = evaluate(files / "qrels", [files / "a.run", files / "b.run"], MEASURES, cache=cache)
    assert hit.format("trec", per_query=True) == expected


# ------------------------------------------------------------------ the folder
def test_the_folder_must_be_a_folder_holding_no_input(files, tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(FileAccessError, match="not a folder"):
        evaluate(files / "qrels", files / "a.run", MEASURES, cache=tmp_path / "file")
    with pytest.raises(OutputExistsError, match="is one of the inputs"):
        evaluate(files / "qrels", files / "a.run", MEASURES, cache=files / "qrels")
    with pytest.raises(FileAccessError, match="cannot create"):
        evaluate(files / "qrels", files / "a.run", MEASURES, cache=tmp_path / "no" / "c")
    with pytest.raises(OutputExistsError, match="holds the input"):
        evaluate(files / "qrels", files / "a.run", MEASURES, cache=files)
    with pytest.raises(OutputExistsError):
        evaluate_many(files / "qrels", files, MEASURES[:4], cache=files)
    assert not (tmp_path / "no").exists()


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes into any folder")
def test_a_read_only_folder_serves_hits_and_warns_on_a_miss(files, tmp_path):
    cache = tmp_path / "cache"
    expected = evaluate(files / "qrels", files / "a.run", MEASURES).format("trec")
    evaluate(files / "qrels", files / "b.run", MEASURES, cache=cache)  # one entry
    cache.chmod(0o500)
    try:
        with pytest.warns(CacheWriteWarning, match="not cached"):
            missed = evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
        assert missed.format("trec") == expected
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            evaluate(files / "qrels", files / "b.run", MEASURES, cache=cache)  # a hit
    finally:
        cache.chmod(0o700)


def test_orphan_temporary_files_older_than_an_hour_are_removed(files, tmp_path):
    """Temporary files of entries whose writer was killed: removed by the next write once
    older than an hour; a recent one (a writer at work) and other files stay."""
    cache = tmp_path / "cache"
    cache.mkdir()
    old = cache / f".{'ab' * 32}.k9_x2pqz.tmp"
    recent = cache / f".{'cd' * 32}.a1b2c3d4.tmp"
    other = cache / "notes.tmp"
    for path in (old, recent, other):
        path.write_bytes(b"partial")
    two_hours_ago = time.time() - 7200
    for path in (old, other):
        os.utime(path, (two_hours_ago, two_hours_ago))
    evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)
    assert not old.exists()
    assert recent.exists() and other.exists()


def test_nothing_is_written_outside_the_folder(files, tmp_path):
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for _ in range(2):
        evaluate(files / "qrels", [files / "a.run", files / "b.run"], MEASURES,
                 cache=tmp_path / "cache")
        evaluate_many(files / "qrels", [files / "a.run", files / "b.run"], MEASURES[:4],
                      cache=tmp_path / "cache")
    after = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    new = [p for p in after if p not in before]
    assert all(p.parts[0] == "cache" for p in new), new
    assert all(p.name.endswith(SUFFIX) for p in (tmp_path / "cache").iterdir())


# ------------------------------------------------------------------ evaluate_many
def test_evaluate_many_evaluates_only_new_or_changed_runs(files, tmp_path, measured):
    cache = tmp_path / "cache"
    measures = MEASURES[:4]
    runs = [files / f"{name}.run" for name in "abc"]
    cold = evaluate_many(files / "qrels", runs, measures, cache=cache, batch_size=2)
    assert sorted(measured) == [("a",), ("b",), ("c",)]
    warm, warned = recorded(evaluate_many, files / "qrels", runs, measures, cache=cache,
                            batch_size=2, out=tmp_path / "per-topic")
    assert len(measured) == 3
    changed_byte(files / "c.run")
    evaluate_many(files / "qrels", runs, measures, cache=cache, batch_size=2)
    assert measured[3:] == [("c",)]
    plain, plain_warned = recorded(evaluate_many, files / "qrels", runs, measures,
                                   batch_size=2, out=tmp_path / "plain")
    again = evaluate_many(files / "qrels", runs, measures, cache=cache, batch_size=2)
    assert len(measured) == 4 + 2  # the plain evaluation: two batches
    pd.testing.assert_frame_equal(again.aggregates(), plain.aggregates(), check_exact=True)
    assert again.unjudged_topics == plain.unjudged_topics
    pd.testing.assert_frame_equal(cold.aggregates(), warm.aggregates(), check_exact=True)
    assert warned == plain_warned


def test_evaluate_many_hits_equal_one_evaluation(files, tmp_path):
    """The per-topic parts and summaries read from the cache equal those of the runs
    evaluated together, and irscale.evaluate's."""
    cache = tmp_path / "cache"
    measures = MEASURES[:4]
    runs = [files / f"{name}.run" for name in "abc"]
    evaluate_many(files / "qrels", runs, measures, cache=cache)
    hit = evaluate_many(files / "qrels", runs, measures, cache=cache, out=tmp_path / "hit",
                        names="runid")
    plain = evaluate_many(files / "qrels", runs, measures, out=tmp_path / "plain",
                          names="runid")
    pd.testing.assert_frame_equal(hit.per_topic(), plain.per_topic(), check_exact=True)
    pd.testing.assert_frame_equal(hit.mean().frame,
                                  evaluate(files / "qrels", runs, measures).mean().frame,
                                  check_exact=True)


def test_evaluate_many_refuses_a_cluster_with_a_cache(files, tmp_path):
    with pytest.raises(ParameterError, match="local executor"):
        evaluate_many(files / "qrels", files / "a.run", ["map"], cache=tmp_path / "c",
                      executor="tcp://127.0.0.1:1")


def test_the_cli_reads_what_it_stored(files, tmp_path, measured, monkeypatch):
    """``eval`` stores the text it prints (computed by the engine alone), ``eval-many``
    each run's evaluation: the second time, both read what they stored."""
    from irscale.cli.main import main
    from irscale.evaluation import trec_text

    printed: list[bytes] = []
    real_text = trec_text._text

    def text(*args, **kwargs):
        printed.append(real_text(*args, **kwargs))
        return printed[-1]

    monkeypatch.setattr(trec_text, "_text", text)

    def run(*argv: str) -> None:
        assert main(list(argv)) == 0

    cache = str(tmp_path / "cache")
    qrels, a, b = (str(files / name) for name in ("qrels", "a.run", "b.run"))
    for _ in range(2):
        run("eval", qrels, a, b, "-m", "map", "--cache", cache, "-o", str(tmp_path / "e"),
            "--force")
        run("eval-many", qrels, a, b, "-m", "map", "--cache", cache, "--no-progress", "-o",
            str(tmp_path / "m"), "--force")
    assert len(printed) == 1  # eval: one text
    assert len(measured) == 2  # eval-many: one evaluation per run file
    assert (tmp_path / "e").read_bytes() == printed[0]


#: What a hit of ``irscale eval --cache DIR`` must not load (:mod:`irscale.cache.requests`:
#: the key of its command line and its reply's entry are all it reads): :mod:`json` and
#: :mod:`re` (a JSON header: some 30 million instructions without the launcher's ``re``),
#: OpenSSL's ``_hashlib`` (11 million: the checksum is BLAKE2b's, the interpreter's own
#: module), numpy, anything of the measures or the evaluation (the catalogue, the
#: judging, the evaluation's key), the memory limit (an entry of at most
#: ``UNDER_ANY_LIMIT`` bytes is below it: :func:`irscale.io.regular_files.read_regular`)
#: and the optional packages' declarations.
NOT_FOR_A_REPLY = ("json", "re", "enum", "_hashlib", "hashlib", "struct", "numpy",
                   "irscale.measures", "irscale.evaluation", "irscale.cache.keys",
                   "irscale.cache.evaluations", "irscale.io.json_input", "irscale.core.budget",
                   "irscale.core.extras")
#: ``irscale ARGV`` by :func:`irscale.cli.main.main` in an interpreter without ``site``,
#: the inputs' identities settled at once (a hit then hashes no input: the reply checks
#: the identities), writing last on standard error its status and the modules it loaded.
_REPLY_SCRIPT = """
import sys
before = set(sys.modules)
import irscale.io.regular_files
irscale.io.regular_files.SETTLED_NS = 0
from irscale.cli.main import main
status = main(sys.argv[1:])
sys.stdout.flush()
print(status, *sorted(set(sys.modules) - before), file=sys.stderr)
"""


def test_a_hit_of_eval_reads_its_key_and_its_entry_only(files, tmp_path):
    """``irscale eval -q --cache DIR`` run twice, each in a fresh interpreter: the second
    prints the first's text from the reply, and loads none of :data:`NOT_FOR_A_REPLY`."""
    home = os.path.dirname(os.path.dirname(irscale.__file__))
    argv = ["eval", "-q", str(files / "qrels"), str(files / "a.run"), "--cache",
            str(tmp_path / "cache")]
    printed, loaded = [], []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-S", "-c", _REPLY_SCRIPT, *argv],
                              env={**os.environ, "PYTHONPATH": home}, capture_output=True,
                              text=True, timeout=300, check=False)
        status, *modules = done.stderr.strip().splitlines()[-1].split()
        assert status == "0", done.stderr
        printed.append(done.stdout)
        loaded.append(modules)
    assert printed[0] == printed[1] and printed[0].count("\n") > 5, printed
    assert len(os.listdir(tmp_path / "cache")) == 2  # the evaluation's entry, the reply
    assert "irscale.measures.names" in loaded[0]  # (the miss: the guard sees what it loads)
    refused = [name for name in loaded[1]
               if name in NOT_FOR_A_REPLY or name.startswith(NOT_FOR_A_REPLY_PACKAGES)]
    assert refused == [], refused


#: Packages none of whose modules a hit loads.
NOT_FOR_A_REPLY_PACKAGES = tuple(f"{name}." for name in NOT_FOR_A_REPLY)


def test_an_unreadable_folder_is_refused_whoever_runs(files, tmp_path, monkeypatch):
    """A folder that cannot be read (the access check, as root too) is refused; one that
    can be read but not written is used."""
    cache = tmp_path / "cache"
    cache.mkdir()
    real = os.access
    monkeypatch.setattr(store_module.os, "access",
                        lambda path, mode: False if os.fspath(path) == str(cache)
                        and mode & os.R_OK else real(path, mode))
    with pytest.raises(FileAccessError, match="not readable"):
        evaluate(files / "qrels", files / "a.run", MEASURES, cache=cache)


def test_cached_evaluations_in_threads_keep_their_own_warnings(files, tmp_path):
    """Two threads evaluate with a cache at once: each entry holds its own run's warnings
    only (a hit in this thread shows exactly those of an uncached evaluation)."""
    cache = tmp_path / "cache"
    errors: list[BaseException] = []

    def work(run: str) -> None:
        try:
            for _ in range(3):
                evaluate(files / "qrels", files / run, MEASURES, cache=cache,
                         max_docs=None if run == "a.run" else 4)
        except BaseException as error:  # raised below
            errors.append(error)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        threads = [threading.Thread(target=work, args=(run,)) for run in ("a.run", "b.run")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    assert errors == []
    for run, max_docs in (("a.run", None), ("b.run", 4)):
        _, hit = recorded(evaluate, files / "qrels", files / run, MEASURES, cache=cache,
                          max_docs=max_docs)
        _, fresh = recorded(evaluate, files / "qrels", files / run, MEASURES,
                            max_docs=max_docs)
        assert hit == fresh


def test_the_entry_format_knows_every_field_of_an_evaluation():
    """An entry stores these fields by name (irscale.cache.entries): a field added to an
    evaluation, its rows, its averaging or its columns must be stored too (and the
    format's version in MAGIC raised), or a hit would lose it."""
    import dataclasses

    from irscale.core.rows import TopicRows
    from irscale.io.table import Averaging, Column
    from irscale.measures.results import Evaluation

    def names(kind) -> set[str]:
        return {field.name for field in dataclasses.fields(kind)}

    # conventions: the call's provenance, added by evaluate to a hit (not stored)
    assert names(Evaluation) == {"columns", "values", "rows", "averaging", "rankings",
                                 "runids", "conventions", "sources"}
    assert names(TopicRows) == {"runs", "topics", "ranking_run", "ranking_topic",
                                "unjudged_topics", "placeholder", "evaluated"}
    assert names(Averaging) == {"rule", "complete", "n_qrels_topics", "totals"}
    assert names(Column) == {"label", "aggregate", "value_type", "per_query"}


@pytest.mark.parametrize("options", [
    {"complete": True, "compat": 10},  # trec_eval 10's -c stand-in rows (placeholders)
    {"measures": ["uRBP(p=0.8,aspect=under)", "map"], "labels": "under"},
    {"measures": ["P.2"], "labels": "unused"},  # a warning of its own: a set unused
])
def test_hits_of_other_evaluations_equal_fresh_ones(files, tmp_path, measured, options):
    (files / "under").write_text("1 0 d1 20\n1 0 d3 80\n* 0 d4 60\n")
    options = dict(options)
    measures = options.pop("measures", MEASURES)
    unused = options.get("labels") == "unused"
    if "labels" in options:
        options["labels"] = {options["labels"]: str(files / "under")}
    runs = [files / "a.run", files / "c.run"]
    cache = tmp_path / "cache"
    _, miss = recorded(evaluate, files / "qrels", runs, measures, cache=cache, **options)
    hit, warned = recorded(evaluate, files / "qrels", runs, measures, cache=cache, **options)
    fresh, fresh_warned = recorded(evaluate, files / "qrels", runs, measures, **options)
    assert len(measured) == 2
    assert_same(hit, fresh)
    assert miss == warned == fresh_warned
    assert any("used by no measure" in message for _, message in warned) == unused
    if "compat" in options:
        assert fresh.rows.placeholder is not None
        np.testing.assert_array_equal(hit.rows.placeholder, fresh.rows.placeholder)

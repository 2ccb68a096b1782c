"""Work shared out between threads gives the values of the work done in one piece, bit for
bit: the measures computed on pieces of a batch of rankings
(:func:`irscale.measures.compute.compute_shared`) and the fingerprint lookups done chunk by
chunk (:meth:`tests.oracles.qrels_index._FingerprintTables.hits`, of the Python judge kept as
the engine's oracle), on every measure family.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale import evaluate
from irscale.errors import MeasureError
from irscale.io.memory import qrels_from_dict, run_from_dict
from irscale.measures import compute
from irscale.measures.base import REGISTRY
from irscale.measures.names import parse_measure
from irscale.parallel import threads

from .oracles import qrels_index
from .oracles.arrow_columns import index_in
from .oracles.qrels_index import QrelsIndex
from .test_measures_parameters import (
    AT_CUTOFF,
    CLICKS,
    CLICKS2,
    KEYWORD_CASES,
    NEEDS,
    NEEDS_CUTOFF,
    SPECIAL_BASES,
    TREC_CASES,
    keyword_name,
)

RNG = np.random.default_rng(20261125)
TOPICS = [f"q{t}" for t in range(40)]
DOCS = [f"d{d}" for d in range(60)]


def _collection() -> tuple[dict, dict, dict]:
    """Graded qrels (with unjudged, negative degrees), two runs with tied scores and one
    topic without judgments, and the label sets the keyword families read."""
    qrels = {t: {d: int(RNG.choice([-1, 0, 0, 1, 1, 2, 3]))
                 for d in RNG.choice(DOCS, size=int(RNG.integers(1, 25)), replace=False)}
             for t in TOPICS[:-1]}
    runs = {name: {t: {d: float(RNG.integers(0, 8))
                       for d in RNG.choice(DOCS, size=int(RNG.integers(1, 40)), replace=False)}
                   for t in TOPICS if RNG.random() < 0.9}
            for name in ("a", "b")}
    labels = {
        "under": {t: {d: int(RNG.integers(0, 100)) for d in DOCS} for t in TOPICS},
        "trust": {t: {d: int(RNG.integers(0, 100)) for d in DOCS} for t in TOPICS},
        "clk": {t: {d: float(RNG.random()) for d in DOCS} for t in TOPICS},
        "clk2": {t: {d: float(RNG.random()) for d in DOCS} for t in TOPICS},
        "doclen": {d: float(RNG.integers(50, 3000)) for d in DOCS},
        "doclen2": {d: float(RNG.integers(50, 3000)) for d in DOCS},
        "partial": {d: float(RNG.integers(50, 3000)) for d in DOCS[::2]},
    }
    return qrels, runs, labels


QRELS, RUNS, LABELS = _collection()


def _names() -> list[str]:
    """A name of every family, and of every parameter of every family."""
    names = [name for name, family in REGISTRY.items()
             if name not in TREC_CASES and name not in KEYWORD_CASES]
    names += [spec for specs in TREC_CASES.values() for spec in specs]
    for family, (base, cases) in KEYWORD_CASES.items():
        names.append(keyword_name(family, NEEDS.get(family, base), None, None,
                                  NEEDS_CUTOFF.get(family, "").lstrip("@") or None))
        for param, pair in cases.items():
            given = SPECIAL_BASES.get((family, param), base or NEEDS.get(family, ""))
            names += [keyword_name(family, given, param, value, AT_CUTOFF.get((family, param)))
                      for value in pair]
    names += [f"{name}{NEEDS_CUTOFF.get(name, '')}" for name in ("P", "R", "Success", "IPrec")]
    # click probabilities for every rank of these longer rankings
    long_clicks = {CLICKS: ":".join(["0.5"] * 40), CLICKS2: ":".join(["0.3"] * 40)}
    for short, long in long_clicks.items():
        names = [name.replace(short, long) for name in names]
    return list(dict.fromkeys(names))


NAMES = _names()
pytestmark = pytest.mark.filterwarnings("ignore:run .* no judgments are not evaluated")


def _evaluate() -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate(QRELS, RUNS, NAMES, labels=LABELS, compat=10,
                        num_docs_in_coll=100).values


def _in_pieces(monkeypatch: pytest.MonkeyPatch, rows: int) -> dict:
    """The values computed in pieces of about ``rows`` documents on three usable cores,
    even on a machine of one."""
    monkeypatch.setattr(compute, "_SHARED_ROWS", rows)
    monkeypatch.setattr(compute, "usable_cores", lambda: 3)
    monkeypatch.setattr(threads, "usable_cores", lambda: 3)
    return _evaluate()


def test_the_names_cover_every_family():
    families = {request.family for name in NAMES for request in parse_measure(name, compat=10)}
    assert families == set(REGISTRY)


@pytest.fixture(scope="module")
def whole() -> dict:
    return _evaluate()


def _same(a: dict, b: dict) -> None:
    assert list(a) == list(b)
    for name in a:
        x, y = np.asarray(a[name]), np.asarray(b[name])
        if x.dtype.kind == "f":
            assert np.array_equal(x, y, equal_nan=True), name
            assert np.array_equal(np.signbit(x), np.signbit(y)), name
        else:
            assert x.tolist() == y.tolist(), name


@pytest.mark.parametrize("rows", [1, 7, 150])
def test_measures_computed_in_pieces_equal_the_batch_computed_whole(whole, monkeypatch, rows):
    assert sum(len(r) for run in RUNS.values() for r in run.values()) > 3 * 150
    _same(whole, _in_pieces(monkeypatch, rows))


@pytest.mark.parametrize("rows", [1, 16, 100])
def test_fingerprint_lookups_in_chunks_equal_one_lookup(monkeypatch, rows):
    """The (row, qrels row) pairs found chunk by chunk in threads are those of one lookup
    (the string check that follows would hide wrong candidates)."""
    index = QrelsIndex.build(qrels_from_dict(QRELS))
    run = run_from_dict(RUNS["a"], name="a")
    block_topic = index_in(run.topic_blocks.heads.to_arrow(), index.topic_array)
    tables = index.tables
    assert tables is not None
    whole = tables.hits(run.docno_fingerprints, run.topic_blocks, block_topic)
    assert 0 < len(whole[0]) < len(run)
    monkeypatch.setattr(qrels_index, "_CHUNK_ROWS", rows)
    monkeypatch.setattr(threads, "usable_cores", lambda: 3)
    pieces = tables.hits(run.docno_fingerprints, run.topic_blocks, block_topic)
    assert sorted(zip(*pieces, strict=True)) == sorted(zip(*whole, strict=True))


@given(st.lists(st.integers(0, 2**64 - 1), max_size=80), st.integers(1, 9),
       st.sampled_from(("grouped", "interleaved", "code order")), st.booleans())
def test_fingerprint_tables_built_in_pieces_equal_those_built_whole(fingerprints, n_topics,
                                                                    layout, collide):
    """Tables built in pieces of whole topics on three cores are those built in one piece,
    array for array, and refused alike when two docnos of a topic share a fingerprint."""
    values = np.array(fingerprints, dtype=np.uint64)
    if layout == "interleaved":
        topic_code = np.arange(len(values)) % n_topics
    else:  # topics each consecutive, in code order or another order
        topic_code = np.sort(np.arange(len(values)) % n_topics)
        if layout == "grouped":
            topic_code = (n_topics - 1) - topic_code
    if collide and len(values) > n_topics:
        values[n_topics] = values[0]
    build = qrels_index._FingerprintTables.build
    whole = build(values, topic_code, n_topics + 1, grouped=layout != "interleaved")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(qrels_index, "_CHUNK_ROWS", 1)
        patch.setattr(threads, "usable_cores", lambda: 3)
        pieces = build(values, topic_code, n_topics + 1, grouped=layout != "interleaved")
    if whole is None:
        assert pieces is None
        return
    for name in ("base", "size", "start", "fp", "row"):
        np.testing.assert_array_equal(getattr(pieces, name), getattr(whole, name))


def test_pieces_are_whole_rankings_in_order(monkeypatch):
    """With more cores than the batch has rankings, every ranking is one piece."""
    seen = []
    original = compute.compute_requests

    def spy(jr, requests, context):
        seen.append((jr.n_rankings, len(jr.rel)))
        return original(jr, requests, context)

    monkeypatch.setattr(compute, "compute_requests", spy)
    monkeypatch.setattr(compute, "_SHARED_ROWS", 1)
    monkeypatch.setattr(compute, "usable_cores", lambda: 1000)
    ev = evaluate(QRELS, RUNS, ["map", "P.5"])
    assert [n for n, _ in seen] == [1] * ev.rankings.n_rankings
    assert [rows for _, rows in seen] == ev.rankings.lengths.tolist()


def test_a_batch_of_many_rankings_is_shared_however_few_its_documents(monkeypatch):
    """Many short rankings (a million topics of one document) are shared out although the
    documents are fewer than :data:`compute._SHARED_ROWS`; few documents in few rankings
    are computed in one piece."""
    seen = []
    original = compute.compute_requests

    def spy(jr, requests, context):
        seen.append(jr.n_rankings)
        return original(jr, requests, context)

    monkeypatch.setattr(compute, "compute_requests", spy)
    monkeypatch.setattr(compute, "usable_cores", lambda: 2)
    monkeypatch.setattr(compute, "_SHARED_ROWS", 1 << 40)
    ev = evaluate(QRELS, RUNS, ["map"])
    assert seen == [ev.rankings.n_rankings]
    seen.clear()
    monkeypatch.setattr(compute, "_SHARED_RANKINGS", 2)
    shared = evaluate(QRELS, RUNS, ["map"])
    assert len(seen) >= 2 and sum(seen) == ev.rankings.n_rankings
    assert np.array_equal(shared.values["map"], ev.values["map"], equal_nan=True)


def test_an_error_in_a_piece_is_worded_for_the_whole_batch(monkeypatch):
    longest = max(len(r) for run in RUNS.values() for r in run.values())
    name = f"uM(pclick={CLICKS})"
    with pytest.raises(MeasureError, match=f"a ranking has {longest} documents") as whole:
        evaluate(QRELS, RUNS, [name])
    monkeypatch.setattr(compute, "_SHARED_ROWS", 1)
    monkeypatch.setattr(compute, "usable_cores", lambda: 1000)
    with pytest.raises(MeasureError) as pieces:
        evaluate(QRELS, RUNS, [name])
    assert str(pieces.value) == str(whole.value)

"""The TREC writers (:mod:`irscale.io.trec_write`) write the bytes that pyarrow's
compute functions give for the same lines: Arrow's sort of topics (byte order) and scores
(descending, stable, NaN last), Arrow's cast of integers and floats to strings (the
oracle of ``ranked_run_text``'s shortest round-trip spelling) and Python's ``repr`` (the
scores of ``write_run``). The runs are drawn by hypothesis: integral, tiny, huge,
subnormal, negative-zero and many-digit scores, and unicode ids."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale.core.inputs import Qrels, Run
from irscale.core.strings import Strings
from irscale.io.text_columns import frame_text, shortest_text
from irscale.io.trec import read_qrels, read_run
from irscale.io.trec_write import ranked_run_text, write_qrels, write_run

from .property_examples import examples

pa = pytest.importorskip("pyarrow")
# scores beyond a C float's range are read back with trec_eval's warning about them
pytestmark = pytest.mark.filterwarnings("ignore:.*outside the range of a C float")
pc = pytest.importorskip("pyarrow.compute")

#: Ids: letters, digits and punctuation of any script, no blank (a field of a TREC line).
IDS = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
              min_size=1, max_size=6)
SCORES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-10**12, 10**12).map(float),
    st.floats(min_value=-1e-5, max_value=1e-5),
    st.floats(min_value=-1e-300, max_value=1e-300),
    st.sampled_from([0.0, -0.0, 5e-324, -2.2250738585072014e-308, 1e10, 9999999999.5,
                     1e-7, 1e-6, 1e16, 1.7976931348623157e308, 0.1 + 0.2, 1 / 3]),
)


@st.composite
def runs(draw: st.DrawFn, scores: st.SearchStrategy[float] = SCORES) -> Run:
    topics = draw(st.lists(IDS, min_size=1, max_size=4, unique=True))
    rows = draw(st.lists(st.tuples(st.sampled_from(topics), IDS, scores), max_size=40,
                         unique_by=lambda row: row[:2]))
    return Run(name=draw(IDS), topic=Strings.of([r[0] for r in rows]),
               docno=Strings.of([r[1] for r in rows]),
               score=np.array([r[2] for r in rows], dtype=np.float64))


def arrow_lines(columns: list) -> bytes:
    """The pyarrow oracle: the columns joined by blanks, a newline after every line."""
    text = pa.large_string()
    lines = pc.binary_join_element_wise(*[pc.cast(c, text) for c in columns],
                                        pa.scalar(" ", text))
    return ("\n".join(lines.to_pylist()) + "\n").encode()


def arrow_ranks(topics) -> np.ndarray:
    codes = pc.dictionary_encode(topics).indices.to_numpy(zero_copy_only=False)
    n = len(codes)
    starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    return np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n))) + 1


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs())
def test_write_run_is_arrows_sort_with_python_repr(tmp_path_factory, run):
    path = tmp_path_factory.mktemp("w") / "run"
    write_run(run, path)
    n = len(run)
    if n == 0:
        assert path.read_bytes() == b"\n"
        return
    topics = run.topic.to_arrow()
    order = pc.sort_indices(pa.table({"t": topics, "s": run.score}),
                            sort_keys=[("t", "ascending"), ("s", "descending")])
    ranked = topics.take(order)
    expected = arrow_lines([
        ranked, pa.array(["Q0"] * n), run.docno.to_arrow().take(order),
        pa.array(arrow_ranks(ranked)),
        pa.array([repr(float(s)) for s in run.score[order.to_numpy()]]),
        pa.array([run.name] * n)])
    assert path.read_bytes() == expected
    back = read_run(path)
    assert (sorted(zip(back.topic, back.docno, back.score.tolist(), strict=True))
            == sorted(zip(run.topic, run.docno, run.score.tolist(), strict=True)))


@settings(max_examples=examples(150), deadline=None)
@given(runs())
def test_ranked_run_text_is_arrows_cast_of_the_scores(run):
    text = ranked_run_text(run, "fused")
    n = len(run)
    if n == 0:
        assert text == b""
        return
    topics = run.topic.to_arrow()
    assert text == arrow_lines([topics, pa.array(["Q0"] * n), run.docno.to_arrow(),
                                pa.array(arrow_ranks(topics)), pa.array(run.score),
                                pa.array(["fused"] * n)])
    back = read_run(text)  # the same doubles read back
    assert (sorted(zip(back.topic, back.docno, back.score.tolist(), strict=True))
            == sorted(zip(run.topic, run.docno, run.score.tolist(), strict=True)))


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.one_of(SCORES, st.just(float("nan")), st.just(float("inf")),
                          st.just(-float("inf"))), max_size=30),
       st.sampled_from([np.float64, np.float32]))
def test_shortest_text_is_arrows_cast(values, dtype):
    with np.errstate(over="ignore"):
        column = np.array(values, dtype=np.float64).astype(dtype)
    assert shortest_text(column).to_pylist() == pc.cast(pa.array(column),
                                                        pa.string()).to_pylist()


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(IDS, IDS, st.integers(-3, 10**6)), min_size=1, max_size=30,
                unique_by=lambda row: row[:2]))
def test_write_qrels_is_arrows_cast(tmp_path_factory, rows):
    qrels = Qrels(topic=Strings.of([r[0] for r in rows]),
                  docno=Strings.of([r[1] for r in rows]),
                  rel=np.array([r[2] for r in rows], dtype=np.int64))
    path = tmp_path_factory.mktemp("w") / "qrels"
    write_qrels(qrels, path)
    n = len(rows)
    assert path.read_bytes() == arrow_lines([
        qrels.topic.to_arrow(), pa.array(["0"] * n), qrels.docno.to_arrow(),
        pa.array(qrels.rel)])
    back = read_qrels(path)
    assert back.rel.tolist() == qrels.rel.tolist()


@pytest.mark.parametrize("frame", [
    pd.DataFrame({"parameter": ["attractiveness", "examination", "gamma"],
                  "query": ["q 1", None, None], "docno": ["d1", None, None],
                  "rank": pd.array([None, 2, None], "Int64"),
                  "previous": pd.array([None, None, None], "Int64"),
                  "value": [0.1, 1e-7, 1e16]}),
    pd.DataFrame({"a": np.array([3, -12, 10**12]), "b": [float("nan"), -0.0, 1 / 3],
                  "c": ["é", "", "x"]}),
    pd.DataFrame({"a": pd.Series([], dtype="str"), "b": pd.Series([], dtype=np.float64)}),
], ids=["click-model", "numbers-and-text", "empty"])
def test_frame_text_is_pandas_tab_separated_text(frame):
    """``frame_text``: the bytes of pandas' own ``to_csv(sep="\\t", index=False)`` (the
    oracle), spelled a column at a time."""
    assert frame_text(frame) == frame.to_csv(sep="\t", index=False).encode()


@pytest.mark.parametrize("frame", [
    pd.DataFrame({"q": ["a\tb"]}), pd.DataFrame({"q": ['say "x"']}),
    pd.DataFrame({"q": ["two\nlines"]}), pd.DataFrame({"flag": [True, False]}),
    pd.DataFrame({"a\tb": [1]}),
], ids=["separator", "quote", "newline", "booleans", "header"])
def test_frame_text_leaves_what_pandas_quotes_to_pandas(frame):
    assert frame_text(frame) is None

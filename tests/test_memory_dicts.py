"""pytrec_eval-style dicts of dicts as inputs: columns built per topic, same values as the
equivalent TREC files, and the shapes told apart (one run vs a mapping of runs)."""

from types import MappingProxyType

import numpy as np
import pytest

import irscale
from irscale.errors import EmptyInputError, InputError
from irscale.io.memory import qrels_from_dict, run_from_dict
from irscale.io.sources import as_runs

QRELS = {"1": {"a": 1, "b": 0, "c": 2}, "2": {"x": 1}}
RUN = {"1": {"a": 0.5, "b": 0.9, "c": 0.5, "d": 0.1}, "2": {"x": 1.0, "y": 2.0}}


def _text(run):
    return "".join(f"{t} Q0 {d} 0 {s!r} r\n" for t, docs in run.items() for d, s in docs.items())


def test_dict_columns_follow_the_dict_order():
    run = run_from_dict(RUN)
    assert run.topic.to_pylist() == ["1"] * 4 + ["2"] * 2
    assert run.docno.to_pylist() == ["a", "b", "c", "d", "x", "y"]
    assert run.score.tolist() == [0.5, 0.9, 0.5, 0.1, 1.0, 2.0]
    qrels = qrels_from_dict(QRELS)
    assert qrels.rel.tolist() == [1, 0, 2, 1]


def test_dicts_score_as_the_same_trec_files(tmp_path):
    qrels_file = tmp_path / "q"
    qrels_file.write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in QRELS.items()
                                  for d, r in docs.items()))
    run_file = tmp_path / "r"
    run_file.write_text(_text(RUN))
    measures = ["map", "ndcg_cut.10", "recip_rank", "P.2"]
    from_dicts = irscale.evaluate(QRELS, RUN, measures).per_topic()
    from_files = irscale.evaluate(str(qrels_file), str(run_file), measures).per_topic()
    np.testing.assert_array_equal(from_dicts["value"].to_numpy(),
                                  from_files["value"].to_numpy())


def test_ids_that_are_not_strings_become_their_text():
    run = run_from_dict({1: {3: 0.5, "4": 0.25}})
    assert run.topic.to_pylist() == ["1", "1"]
    assert run.docno.to_pylist() == ["3", "4"]


@pytest.mark.parametrize("data", [{"1": {None: 1.0}}, {None: {"a": 1.0}}])
def test_a_missing_id_is_refused(data):
    with pytest.raises(InputError, match="is None"):
        run_from_dict(data)


def test_a_value_that_is_not_a_number_names_its_row():
    with pytest.raises(InputError, match="score is not a number: '1 b x'"):
        run_from_dict({"1": {"a": 1.0, "b": "x"}})


def test_empty_dicts_are_refused():
    with pytest.raises(EmptyInputError):
        run_from_dict({"1": {}})
    with pytest.raises(EmptyInputError):
        qrels_from_dict({})


def test_one_run_or_a_mapping_of_runs():
    assert [r.name for r in as_runs(RUN)] == ["run"]
    runs = as_runs({"A": RUN, "B": {"1": {"a": 1.0}}})
    assert [r.name for r in runs] == ["A", "B"]
    assert len(runs[0].score) == 6
    # mappings that are not dicts are told apart the same way
    proxied = MappingProxyType({"A": MappingProxyType({"1": MappingProxyType({"a": 1.0})})})
    assert [r.name for r in as_runs(proxied)] == ["A"]
    assert [r.name for r in as_runs(MappingProxyType({"1": {"a": 1.0}}))] == ["run"]


@pytest.mark.parametrize("data", [
    RUN,
    {"1": {}, "2": {"x": 1.0, "y": 2.0}, "3": {}, "4": {"z": 0.5}},  # topics without rows
    {1: {"a": 1.0}, "1": {"b": 2.0}, 2: {"c": 3.0}},  # two keys whose text is the same topic
    {"2": {"b": "0.5", "a": True}, "1": {"c": np.float32(0.25)}},  # values float() takes
])
def test_the_blocks_a_dict_gives_are_those_found_by_a_scan(data):
    """The topic blocks a dict's entry sizes give (its rows are grouped by construction)
    equal those found in the topic column; keys that collide as text are grouped as a file's
    shuffled lines are."""
    from irscale.core._columnar.blocks import TopicBlocks

    run = run_from_dict(data)
    grouped_rows, scanned = TopicBlocks.grouped(run.topic)
    assert grouped_rows is None
    np.testing.assert_array_equal(run.topic_blocks.bounds, scanned.bounds)
    assert run.topic_blocks.heads == scanned.heads
    np.testing.assert_array_equal(run.topic_blocks.first_codes, scanned.first_codes)
    assert run.topic_blocks.contiguous
    rows = [(str(t), d, float(s)) for t, docs in data.items() for d, s in docs.items()]
    first_seen = list(dict.fromkeys(topic for topic, _, _ in rows))
    by_topic = sorted(rows, key=lambda row: first_seen.index(row[0]))  # stable: dict order
    assert list(zip(run.topic.to_pylist(), run.docno.to_pylist(), run.score.tolist(),
                    strict=True)) == by_topic
    qrels = qrels_from_dict({t: {d: 1 for d in docs} for t, docs in data.items()})
    np.testing.assert_array_equal(qrels.topic_blocks.bounds,
                                  TopicBlocks.of(qrels.topic).bounds)


def test_scores_that_do_not_convert_are_named_as_before():
    with pytest.raises(InputError, match="score is not a number") as error:
        run_from_dict({"1": {"a": 1.0, "b": [2.0]}})
    assert "1 b [2.0]" in str(error.value)


@pytest.mark.parametrize("data", [
    {"1": {3: 1.0, "3": 2.0}},  # document keys whose text is the same
    {"1": {b"a": 1.0, "a": 2.0}},  # bytes and str
    {1: {"a": 1.0}, "1": {"a": 2.0}},  # topic keys whose text is the same
])
def test_keys_that_collide_as_text_are_duplicates(data):
    """Only dicts whose keys are all ``str`` (distinct as text by construction) skip the
    duplicate check; keys that become the same text are refused as in a file."""
    from irscale.errors import DuplicateError

    with pytest.raises(DuplicateError, match="duplicate document"):
        run_from_dict(data)
    with pytest.raises(DuplicateError, match="duplicate document"):
        qrels_from_dict({t: {d: 1 for d in docs} for t, docs in data.items()})


def test_labels_are_converted_as_before():
    """Labels come through one float conversion (as scores): integral values of any
    numeric type are taken, others are refused naming the row."""
    qrels = qrels_from_dict({"1": {"a": True, "b": np.int8(2), "c": 3.0, "d": "4"}})
    assert qrels.rel.tolist() == [1, 2, 3, 4]
    with pytest.raises(InputError, match=r"relevance is not an integer: '1 b 1\.5'"):
        qrels_from_dict({"1": {"a": 1, "b": 1.5}})
    with pytest.raises(InputError, match="relevance is not a number"):
        qrels_from_dict({"1": {"a": 1, "b": "x"}})
    with pytest.raises(InputError, match="relevance is not an integer"):
        qrels_from_dict({"1": {"a": 1, "b": None}})


@pytest.mark.parametrize("data", [{"1": {"d\ud800": 1.0}}, {"\udcff": {"a": 1.0}}])
def test_an_id_that_is_not_valid_text_is_refused(data):
    # a lone surrogate (a file name decoded with surrogateescape) has no UTF-8 form
    with pytest.raises(InputError, match=r"an id is not valid text \(a lone surrogate\): "
                                         r"'(d\\ud800|\\udcff)'$"):
        run_from_dict(data)


def test_a_frame_id_that_is_not_valid_text_names_its_row():
    import pandas as pd

    from irscale.io.memory import run_from_frame

    # pandas' own string type refuses such text: an object column holds it
    frame = pd.DataFrame({"query_id": ["1", "1"],
                          "doc_id": pd.Series(["a", "d\ud800"], dtype=object),
                          "score": [1.0, 0.5]})
    with pytest.raises(InputError, match=r"document id is not valid text \(a lone "
                                         r"surrogate\) in row 1: 'd\\ud800'"):
        run_from_frame(frame)


@pytest.mark.parametrize("degree", [2**53 + 1, 2**60 + 1, 2**63 - 1, -(2**63 - 1),
                                    "1152921504606846977", np.int64(2**62 + 3)])
def test_degrees_beyond_float_integers_are_read_exactly(degree):
    """float64 holds integers exactly only up to 2^53: a degree such as 2^60 + 1 read
    through a float would silently become 2^60 (dicts, namedtuples and frames alike)."""
    import collections

    import pandas as pd

    from irscale.io.memory import qrels_from_frame, qrels_from_records

    want = [int(degree), 0]
    assert qrels_from_dict({"1": {"a": degree, "b": 0}}).rel.tolist() == want
    row = collections.namedtuple("TrecQrel", "query_id doc_id relevance iteration")
    rows = [row("1", "a", degree, "0"), row("1", "b", 0, "0")]
    assert qrels_from_records(rows).rel.tolist() == want
    if not isinstance(degree, str):
        frame = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"],
                              "relevance": np.array(want, dtype=np.int64)})
        assert qrels_from_frame(frame).rel.tolist() == want


@pytest.mark.parametrize(("degree", "problem"), [
    (2**63, "too large"), (1e300, "too large"), ("1152921504606846977.5", "not an integer")])
def test_degrees_beyond_int64_or_not_integers_are_refused(degree, problem):
    with pytest.raises(InputError, match=problem):
        qrels_from_dict({"1": {"a": degree}})

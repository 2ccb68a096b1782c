"""The engine's readers of ndeval's files (``rust/src/read/diversity.rs``) through the public
API, on line soup drawn by hypothesis: diversity qrels (:func:`read_diversity_qrels`) and
runs read as ndeval reads them (:func:`read_ndeval_run`, and the run files that
:func:`evaluate_diversity` reads, orders and judges in the engine). No input crashes a
reader; each gives the values, or the error class and message, that the documented rules
below give (an oracle written here from the readers' documentation, token by token), and
the same from bytes, a gzip file, an open file and a path.
"""

from __future__ import annotations

import gzip
import io
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import DuplicateError, EmptyInputError, InputFormatError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import read_diversity_qrels, read_ndeval_run

from .property_examples import examples


class Token:
    """A field's text and what the documented rules read in it: ``integer`` (a judgment:
    sign, digits, maybe a point and zeros), ``number`` (a float of the readers' grammar,
    ``None``: not one), ``digits`` (``str.isdigit``), ``natural`` (ndeval's
    ``naturalNumber``: ASCII digits, a value above 100000 refusing its next digit) and
    ``topic`` (ndeval's ``parseTopic`` of a run topic)."""

    def __init__(self, text: str, integer: int | None, number: float | None,
                 natural: int | None, topic: int | None) -> None:
        self.text, self.integer, self.number = text, integer, number
        self.natural, self.topic = natural, topic
        self.digits = text.isdigit()


INF = float("inf")
TOKENS = [
    Token("1", 1, 1.0, 1, 1), Token("2", 2, 2.0, 2, 2), Token("07", 7, 7.0, 7, 7),
    Token("0", 0, 0.0, 0, 0), Token("-1", -1, -1.0, None, 1), Token("+2", 2, 2.0, None, None),
    Token("2.0", 2, 2.0, None, None), Token("3.", 3, 3.0, None, None),
    Token("1.5", None, 1.5, None, None), Token("1e2", None, 100.0, None, None),
    Token(".5", None, 0.5, None, None), Token("-0", 0, -0.0, None, 0),
    Token("inf", None, INF, None, None), Token("nan", None, float("nan"), None, None),
    Token("0x10", None, None, None, None), Token("x", None, None, None, None),
    Token("d1", None, None, None, None), Token("d2", None, None, None, None),
    Token("wt09-1", None, None, None, 1), Token("a-01", None, None, None, 1),
    Token("1000009", 1000009, 1000009.0, 1000009, 1000009),
    Token("1000010", 1000010, 1000010.0, None, None), Token("Q0", None, None, None, None),
]
BY_TEXT = {t.text: t for t in TOKENS}

QRELS_NAMES = "topic subtopic docno judgment"
RUN_NAMES = "qid Q0 docno rank score runid"
NOT_NATURAL = "is not a natural number as ndeval reads it (digits only, at most 1000009)"
NOT_TOPIC = ("topic is not a topic number as ndeval reads it (digits, or a task prefix "
             "ending in '-' and digits: wt09-1)")
NOT_RANK = "rank is not a natural number (ndeval ranks by the rank column)"


def soup(width: int):
    """Lines of ``width`` fields mostly (some of another count, some blank), each field a
    token, fields separated by blanks or tabs; a text ending with a newline or not."""
    field = st.sampled_from([t.text for t in TOKENS])
    count = st.one_of(st.just(width), st.just(width), st.just(width),
                      st.integers(0, width + 2))
    line = count.flatmap(lambda n: st.lists(field, min_size=n, max_size=n))
    separator = st.sampled_from([" ", "\t", "  ", " \t "])
    return st.tuples(st.lists(line, max_size=8), separator, st.booleans())


def text_of(lines: list[list[str]], separator: str, newline_at_end: bool) -> bytes:
    text = "\n".join(separator.join(fields) for fields in lines)
    return (text + ("\n" if newline_at_end and lines else "")).encode()


def numbered(lines: list[list[str]], separator: str) -> list[tuple[int, list[str], str]]:
    """(line number, fields, text) of the data lines (those with a field)."""
    return [(n, fields, separator.join(fields)) for n, fields in enumerate(lines, start=1)
            if fields]


def expected_qrels(lines: list[list[str]], separator: str, ndeval: bool):
    """The rules of :func:`read_diversity_qrels`: the first line of other than four fields
    or a judgment that is not an integer; no data line; with ``ndeval`` the first line
    (file order) of a topic, then of a subtopic, ndeval refuses; the first line whose
    (topic, subtopic, docno) was listed before."""
    data = numbered(lines, separator)
    for n, f, text in data:
        if len(f) != 4:
            return InputFormatError, (f"<bytes>, line {n}: expected 4 fields ({QRELS_NAMES}) "
                                      f"in diversity qrels, got {len(f)}: {text!r}")
        if BY_TEXT[f[3]].integer is None:
            return InputFormatError, f"<bytes>, line {n}: judgment is not an integer: {text!r}"
    if not data:
        return EmptyInputError, "<bytes>, empty diversity qrels: no data line"
    rows = [[*f[:3], BY_TEXT[f[3]].integer] for _, f, _ in data]
    if ndeval:
        for k, name in ((0, "topic"), (1, "subtopic")):
            for (n, _, text), row in zip(data, rows, strict=True):
                value = BY_TEXT[row[k]].natural
                if value is None:
                    return InputFormatError, f"<bytes>, line {n}: {name} {NOT_NATURAL}: {text!r}"
            for row in rows:
                row[k] = str(BY_TEXT[row[k]].natural)
    seen = set()
    for (n, _, text), row in zip(data, rows, strict=True):
        key = tuple(row[:3])
        if key in seen:
            return DuplicateError, f"<bytes>, line {n}: {' '.join(key)} judged twice: {text!r}"
        seen.add(key)
    return None, [list(column) for column in zip(*rows, strict=True)]


def expected_run(lines: list[list[str]], separator: str, ndeval: bool):
    """The rules of :func:`read_ndeval_run`. A line of other than six fields, or whose rank
    or score is no number, makes every line checked in turn: the first of other than six
    fields, or whose rank is not digits, or whose score is not a finite number. Otherwise
    the first line whose rank is not a natural number or whose score is not finite; with
    ``ndeval`` the first line of a topic ndeval refuses; then, of the lines whose (topic,
    docno) is listed more than once, the second."""
    data = numbered(lines, separator)
    if not data:
        return EmptyInputError, "<bytes>, empty run: no data line"
    if any(len(f) != 6 or BY_TEXT[f[3]].number is None or BY_TEXT[f[4]].number is None
           for _, f, _ in data):
        for n, f, text in data:
            if len(f) != 6:
                return InputFormatError, (f"<bytes>, line {n}: expected 6 fields ({RUN_NAMES}) "
                                          f"in run, got {len(f)}: {text!r}")
            if not BY_TEXT[f[3]].digits:
                return InputFormatError, f"<bytes>, line {n}: {NOT_RANK}: {text!r}"
            score = BY_TEXT[f[4]].number
            if score is None or score in (INF, -INF) or score != score:
                return InputFormatError, (f"<bytes>, line {n}: score is not a finite number: "
                                          f"{text!r}")
        raise AssertionError("a line does not fit")
    for n, f, text in data:
        rank, score = BY_TEXT[f[3]].number, BY_TEXT[f[4]].number
        if not (rank >= 0 and rank == int(rank) if rank != INF else True):
            return InputFormatError, f"<bytes>, line {n}: {NOT_RANK}: {text!r}"
        if score in (INF, -INF) or score != score:
            return InputFormatError, f"<bytes>, line {n}: score is not finite: {text!r}"
    topics = [f[0] for _, f, _ in data]
    if ndeval:
        for (n, _, text), topic in zip(data, topics, strict=True):
            if BY_TEXT[topic].topic is None:
                return InputFormatError, f"<bytes>, line {n}: {NOT_TOPIC}: {text!r}"
        topics = [str(BY_TEXT[t].topic) for t in topics]
    pairs = [(t, f[2]) for t, (_, f, _) in zip(topics, data, strict=True)]
    twice = [row for row, pair in enumerate(pairs) if pairs.count(pair) > 1]
    if twice:
        n, f, text = data[twice[1]]
        return DuplicateError, (f"<bytes>, line {n}: duplicate docno ({f[2]}) for topic "
                                f"{topics[twice[1]]}: {text!r}")
    rank = [BY_TEXT[f[3]].number for _, f, _ in data]
    return None, (data[0][1][5], topics, [f[2] for _, f, _ in data],
                  [BY_TEXT[f[4]].number for _, f, _ in data],
                  [int(r) if r != INF else -(2**63) for r in rank],
                  tuple(dict.fromkeys(f[5] for _, f, _ in data)))


def outcome(read):
    try:
        return None, read()
    except (InputFormatError, EmptyInputError, DuplicateError) as error:
        return type(error), str(error)


@settings(max_examples=examples(300))
@given(soup(4), st.booleans())
def test_diversity_qrels_line_soup(drawn, ndeval):
    lines, separator, newline = drawn
    data = text_of(lines, separator, newline)

    def read():
        q = read_diversity_qrels(data, ndeval=ndeval)
        return [q.topic.to_pylist(), q.subtopic.to_pylist(), q.docno.to_pylist(),
                q.judgment.tolist()]

    assert outcome(read) == expected_qrels(lines, separator, ndeval)


@settings(max_examples=examples(300))
@given(soup(6), st.booleans())
def test_ndeval_run_line_soup(drawn, ndeval):
    lines, separator, newline = drawn
    data = text_of(lines, separator, newline)

    def read():
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the reader warns of nothing
            r = read_ndeval_run(data, ndeval_topics=ndeval)
        return (r.name, r.topic.to_pylist(), r.docno.to_pylist(), r.score.tolist(),
                r.rank.tolist(), r.runids)

    got, want = outcome(read), expected_run(lines, separator, ndeval)
    assert repr(got) == repr(want)  # NaN scores compare by their text


QRELS = b"1 1 d1 1\n1 2 d2 1\n1 2 d3 2\n2 1 d1 1\n2 1 d5 0\n"


@settings(max_examples=examples(100))
@given(soup(6), st.booleans(), st.booleans())
def test_run_files_judged_by_the_engine(tmp_path_factory, drawn, ndeval, traditional):
    """A run file that :func:`evaluate_diversity` reads, orders and judges in the engine:
    the error of :func:`read_ndeval_run` named after the file, or (duplicate ranks aside)
    the values of the run read first, judged in Python."""
    lines, separator, newline = drawn
    data = text_of(lines, separator, newline)
    folder = tmp_path_factory.mktemp("run")
    (folder / "q.txt").write_bytes(QRELS)
    (folder / "r.txt").write_bytes(data)
    path = str(folder / "r.txt")
    kind, want = expected_run(lines, separator, ndeval)

    def evaluate(runs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return evaluate_diversity(str(folder / "q.txt"), runs, "ndeval", allow_empty=True,
                                      ndeval_ids=ndeval, traditional=traditional)

    if kind is not None:
        with pytest.raises(kind) as error:
            evaluate([path])
        assert str(error.value) == want.replace("<bytes>", path, 1)
        return
    run = read_ndeval_run(data, ndeval_topics=ndeval)
    try:
        from_objects = evaluate(run)
    except InputFormatError as refused:  # two equal ranks for a topic
        with pytest.raises(InputFormatError) as error:
            evaluate([path])
        assert str(error.value) == str(refused).replace("<bytes>", path, 1)
        return
    from_file = evaluate([path])
    assert from_file.values.keys() == from_objects.values.keys()
    for name, values in from_objects.values.items():
        assert repr(from_file.values[name].tolist()) == repr(values.tolist()), name


def test_sources_of_every_kind(tmp_path):
    """Bytes, a gzip file, an open file and a path give the same qrels and run."""
    run = b"wt09-1 Q0 d1 2 2.5 a\n01 Q0 d2 1 1 b\n"
    (tmp_path / "q.gz").write_bytes(gzip.compress(QRELS))
    (tmp_path / "r.gz").write_bytes(gzip.compress(run))
    (tmp_path / "r.txt").write_bytes(run)
    qrels = [read_diversity_qrels(s) for s in (QRELS, str(tmp_path / "q.gz"),
                                                io.BytesIO(QRELS))]
    assert {tuple(q.docno.to_pylist()) for q in qrels} == {("d1", "d2", "d3", "d1", "d5")}
    runs = [read_ndeval_run(s, ndeval_topics=True)
            for s in (run, tmp_path / "r.gz", str(tmp_path / "r.txt"), io.BytesIO(run))]
    for r, name in zip(runs, ["a", "r", "r", "a"], strict=True):  # files by their names
        assert (r.name, r.topic.to_pylist(), r.rank.tolist()) == (name, ["1", "1"], [2, 1])
        assert r.runids[0] == "a"  # ndeval's runid
    assert [r.source for r in runs[1:3]] == [str(tmp_path / "r.gz"), str(tmp_path / "r.txt")]
    # the run files judged by the engine give the values of the run read first
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # two files of one stem: named by their file names
        files = evaluate_diversity(QRELS, [str(tmp_path / "r.gz"), str(tmp_path / "r.txt")],
                                   "ndeval", ndeval_ids=True)
    objects = evaluate_diversity(QRELS, runs[0], "ndeval")
    assert objects.values["alpha-nDCG@5"].tolist()[0] > 0
    for name, values in objects.values.items():
        assert files.values[name].tolist() == values.tolist() * 2, name

"""Score CSVs (``ScoreMatrix.read_csv``, ``--scores``): what is read, what is refused.

Every refusal names the file, the 1-based line and the offending text; nothing is renamed,
guessed or lost silently.
"""

from __future__ import annotations

import gzip
import io
import warnings

import numpy as np
import pytest

from irscale.cli.main import main
from irscale.core import ScoreMatrix
from irscale.errors import EmptyInputError, FileAccessError, InputError, InputFormatError

GOOD = "bm25,dfr,lm\n0.10,0.20,0.30\n0.40,0.35,0.50\n0.20,0.10,0.60\n"


def write(tmp_path, text: str | bytes, name: str = "ap.csv") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_good_file_rows_are_topics_and_the_file_names_the_measure(tmp_path):
    matrix = ScoreMatrix.read_csv(write(tmp_path, GOOD))
    assert matrix.systems == ("bm25", "dfr", "lm")
    assert matrix.topics == ("1", "2", "3")
    assert matrix.measures == ("ap",)
    assert matrix.array()[1].tolist() == [0.40, 0.35, 0.50]


def test_gzip_standard_input_and_bytes_read_alike(tmp_path, monkeypatch):
    plain = ScoreMatrix.read_csv(write(tmp_path, GOOD))
    packed = tmp_path / "ap.csv.gz"
    packed.write_bytes(gzip.compress(GOOD.encode()))
    from_gzip = ScoreMatrix.read_csv(packed)
    assert from_gzip.measures == ("ap",)
    np.testing.assert_array_equal(from_gzip.values, plain.values)

    class Stdin:
        buffer = io.BytesIO(GOOD.encode())

    monkeypatch.setattr("sys.stdin", Stdin())
    from_stdin = ScoreMatrix.read_csv("-")
    np.testing.assert_array_equal(from_stdin.values, plain.values)
    np.testing.assert_array_equal(ScoreMatrix.read_csv(GOOD.encode()).values, plain.values)


def test_crlf_bom_blank_lines_and_spaces_are_harmless(tmp_path):
    text = "\ufeffbm25, dfr ,lm\r\n\r\n0.10, 0.20 ,0.30\r\n0.40,0.35,0.50\r\n\r\n"
    matrix = ScoreMatrix.read_csv(write(tmp_path, text))
    assert matrix.systems == ("bm25", "dfr", "lm") and matrix.n_topics == 2
    assert matrix.array()[0].tolist() == [0.10, 0.20, 0.30]


@pytest.mark.parametrize(("text", "line", "words"), [
    ("0.1,0.2\n0.3,0.4\n", 1, "no header"),
    ("a,a\n0.1,0.2\n0.3,0.4\n", 1, "duplicate column name 'a' (columns 1 and 2)"),
    ("a,b,a\n0.1,0.2,0.3\n0.3,0.4,0.5\n", 1, "duplicate column name 'a' (columns 1 and 3)"),
    (",a,b\n401,0.1,0.2\n402,0.3,0.4\n", 1, "column 1 has no name"),
    ("a,,b\n0.1,0.2,0.3\n0.3,0.4,0.5\n", 1, "column 2 has no name"),
    ("a,b\n0.1,0.2\n0.3,0.4,0.5\n", 3, "expected 2 comma-separated fields"),
    ("a,b\n0.1,0.2\n0.3\n", 3, "got 1"),
    ("a,b\n0.1,0.2\n0.3,x\n", 3, "non-numeric score for system 'b'"),
    ("a,b\n0.1,1_000\n0.3,0.4\n", 2, "non-numeric score"),
    ("a,b\n0.1,\n0.3,0.4\n", 2, "missing score for system 'b' (column 2: an empty cell)"),
    ("a,b\n0.1,NA\n0.3,0.4\n", 2, "missing score for system 'b' (column 2: 'NA')"),
    ("a,b\n0.1,nan\n0.3,0.4\n", 2, "missing score"),
    ("a,b\n0.1,inf\n0.3,0.4\n", 2, "infinite score"),
    ("a,b\n0.1,1e400\n0.3,0.4\n", 2, "beyond the range of 64-bit floats"),
    ("topic,a,b\n401,0.1,0.2\n401,0.3,0.4\n", 3, "topic '401' appears twice"),
    ("topic,a,b\n401,0.1,0.2\n,0.3,0.4\n", 3, "empty topic id"),
    ("t,a,b\n401,0.1,0.2\n402,0.3,0.4\n", 2, "column 't' holds distinct increasing integers"),
    ("qid,topic,a\n1,401,0.1\n2,402,0.3\n", 1, "several columns look like topic ids"),
    ('a,b\n0.1,"0.2\n', 2, "malformed CSV"),
])
def test_refused_with_file_line_and_text(tmp_path, text, line, words):
    path = write(tmp_path, text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InputFormatError) as info:
            ScoreMatrix.read_csv(path)
    error = info.value
    assert error.source == path and error.line == line, str(error)
    assert words in str(error) and str(error).startswith(f"{path}, line {line}: ")
    assert error.text is not None


def test_non_utf8_bytes_name_the_line(tmp_path):
    path = write(tmp_path, b"a,b\n0.1,0.2\n0.3,\xe90.4\n")
    with pytest.raises(InputFormatError, match=r"line 3: not valid UTF-8 text \(byte 0xe9"):
        ScoreMatrix.read_csv(path)


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty score file"),
    ("\n\n", "empty score file"),
    ("a,b\n", "header but no data row"),
])
def test_empty_file_and_header_only(tmp_path, text, message):
    with pytest.raises(EmptyInputError, match=message):
        ScoreMatrix.read_csv(write(tmp_path, text))


def test_missing_file_and_directory_are_file_access_errors(tmp_path):
    with pytest.raises(FileAccessError, match="no such file"):
        ScoreMatrix.read_csv(tmp_path / "nope.csv")
    with pytest.raises(FileAccessError, match="is a directory"):
        ScoreMatrix.read_csv(tmp_path)


def test_allow_missing_reads_empty_cells_as_nan(tmp_path):
    path = write(tmp_path, "a,b\n0.1,\n0.3,NA\n0.5,0.6\n")
    matrix = ScoreMatrix.read_csv(path, allow_missing=True)
    assert np.isnan(matrix.array()[:2, 1]).all() and matrix.array()[2].tolist() == [0.5, 0.6]
    with pytest.raises(InputFormatError, match="infinite"):  # inf is never "missing"
        ScoreMatrix.read_csv(write(tmp_path, "a,b\n0.1,inf\n0.2,0.3\n"), allow_missing=True)


def test_topic_column_named_or_recognised(tmp_path):
    text = "qid,a,b\n401,0.1,0.2\n402,0.3,0.4\n"
    path = write(tmp_path, text)
    with pytest.warns(UserWarning, match="column 'qid' read as the topic ids"):
        matrix = ScoreMatrix.read_csv(path)
    assert matrix.topics == ("401", "402") and matrix.systems == ("a", "b")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # named explicitly: no note
        named = ScoreMatrix.read_csv(path, topic_column="qid")
    assert named.topics == ("401", "402")
    rows = ScoreMatrix.read_csv(write(tmp_path, "t,a\n401,0.1\n402,0.3\n", "x.csv"),
                                topic_column=False)
    assert rows.systems == ("t", "a") and rows.topics == ("1", "2")


def test_named_topic_column_must_exist_and_be_the_only_one(tmp_path):
    path = write(tmp_path, "topic,query_id,a\nx,1,0.1\ny,2,0.3\n")
    with pytest.raises(InputError, match="no column 'nope'"):
        ScoreMatrix.read_csv(path, topic_column="nope")
    with pytest.raises(InputFormatError, match="column 'query_id' looks like topic ids too"):
        ScoreMatrix.read_csv(path, topic_column="topic")


def test_integer_scores_are_not_taken_for_topic_ids(tmp_path):
    # counts (num_rel_ret) are integers in every column: nothing looks like an id column
    path = write(tmp_path, "a,b\n3,4\n5,2\n9,1\n")
    assert ScoreMatrix.read_csv(path).array()[:, 0].tolist() == [3, 5, 9]
    # 0/1 scores in the first column beside fractions are scores, not ids
    path = write(tmp_path, "a,b\n0,0.5\n1,0.25\n", "b.csv")
    assert ScoreMatrix.read_csv(path).array()[:, 0].tolist() == [0, 1]


# --------------------------------------------------------------------------- CLI
def cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("command", [["compare"], ["meta", "dp", "-B", "50"]])
def test_cli_reports_csv_faults_in_one_line(tmp_path, capsys, command):
    for text, words in (
        ("0.1,0.2\n0.3,0.4\n", "line 1: the first line holds numbers"),
        ("a,a\n0.1,0.2\n0.3,0.4\n", "duplicate column name 'a'"),
        ("topic,a,b\n401,0.1,0.2\n402,0.3,0.4,9\n", "line 3: expected 3"),
        ("t,a,b\n401,0.1,0.2\n402,0.3,0.4\n", "pass --topic-column t"),
    ):
        path = write(tmp_path, text)
        status, out, err = cli(capsys, *command, "--scores", path)
        assert status == 2 and out == "", err
        lines = err.strip().splitlines()
        assert lines[-1].startswith(f"irscale: {path}") and words in lines[-1], err
        assert "Traceback" not in err


def test_cli_topic_column_note_and_fix(tmp_path, capsys):
    path = write(tmp_path, "topic,a,b,c\n401,0.1,0.2,0.5\n402,0.3,0.4,0.2\n403,0.2,0.5,0.1\n")
    status, out, err = cli(capsys, "compare", "--scores", path, "--test", "t")
    assert status == 0 and "401" not in out, err  # not a system
    assert "irscale: warning:" in err and "column 'topic' read as the topic ids" in err
    status, out2, err = cli(capsys, "compare", "--scores", path, "--test", "t",
                            "--topic-column", "topic")
    assert status == 0 and "warning" not in err and out2 == out
    idcol = write(tmp_path, "id,a,b\n401,0.1,0.2\n402,0.3,0.4\n403,0.2,0.1\n", "ids.csv")
    status, _, err = cli(capsys, "compare", "--scores", idcol, "--test", "t")
    assert status == 2 and "--topic-column id" in err
    status, _, err = cli(capsys, "compare", "--scores", idcol, "--test", "t",
                         "--topic-column", "id", "--format", "json")
    assert status == 0, err


def test_cli_missing_scores_file(tmp_path, capsys):
    status, _, err = cli(capsys, "compare", "--scores", str(tmp_path / "nope.csv"))
    assert status == 2 and "nope.csv" in err and "no such file" in err


# ------------------------------------------------- inputs read once, within the limits
#: The memory limit of the reads below: beyond the line limit (16 MiB), so that a line
#: beyond it is refused for its length, and small enough that an input held whole before
#: it is refused does no harm.
READING_LIMIT = 64 << 20


@pytest.fixture
def reading_limit(monkeypatch):
    import irscale.core.budget

    monkeypatch.setattr(irscale.core.budget, "default_max_memory", lambda: READING_LIMIT)


def test_dev_zero_is_refused_by_the_line_limit(reading_limit):
    """``/dev/zero`` (a device that never ends, one line of NUL bytes) is refused as soon as
    its first line passes the line limit, naming the file and the line; never read until
    the memory runs out."""
    with pytest.raises(InputFormatError, match="16 MiB") as raised:
        ScoreMatrix.read_csv("/dev/zero")
    assert (raised.value.source, raised.value.line) == ("/dev/zero", 1)


class _Endless:
    """A stream of ``block`` repeated forever (standard input that never ends)."""

    def __init__(self, block: bytes):
        self.block = block
        self.given = 0

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "read whole"
        self.given += size
        return (self.block * (size // len(self.block) + 1))[:size]


@pytest.mark.parametrize(("block", "error", "words"), [
    (b"x", InputFormatError, "16 MiB"),  # one endless line
    (b"0.5,0.25\n", InputError, "memory limit"),  # endless valid rows
])
def test_endless_standard_input_is_refused(block, error, words, reading_limit, monkeypatch):
    """Standard input that never ends: one endless line is refused by the line limit, valid
    rows by the memory limit, each once a little more than the limit has come."""
    stream = _Endless(block)
    monkeypatch.setattr("sys.stdin", type("Stdin", (), {"buffer": stream})())
    with pytest.raises(error, match=words) as raised:
        ScoreMatrix.read_csv("-")
    assert raised.value.source == "<stdin>"
    assert stream.given <= READING_LIMIT + (2 << 20)


def test_fifo_holding_a_line_beyond_the_limit(tmp_path, reading_limit):
    """A FIFO whose writer never stops writing one line: refused by the line limit, the
    FIFO opened once."""
    import os
    import threading

    fifo = tmp_path / "scores.csv"
    os.mkfifo(fifo)
    stop = threading.Event()

    def write() -> None:
        descriptor = os.open(fifo, os.O_WRONLY)
        try:
            while not stop.is_set():
                os.write(descriptor, b"y" * (1 << 20))
        except BrokenPipeError:
            pass
        finally:
            os.close(descriptor)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        with pytest.raises(InputFormatError, match="16 MiB") as raised:
            ScoreMatrix.read_csv(str(fifo))
    finally:
        stop.set()
        writer.join(10)
    assert (raised.value.source, raised.value.line) == (str(fifo), 1)


def test_a_score_file_through_a_fifo_reads_as_the_file(tmp_path):
    """The bounded reading of a FIFO gives the file's matrix (its lines within the limits)."""
    import os
    import threading

    fifo = tmp_path / "ap.csv"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as stream:
            stream.write(GOOD.encode())

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    matrix = ScoreMatrix.read_csv(str(fifo))
    writer.join(10)
    assert matrix.array().tolist() == ScoreMatrix.read_csv(GOOD.encode()).array().tolist()

"""Per-user tables (:func:`irscale.io.user_tables.read_user_table`): the quick check of a
plain table on its bytes decides as the full check of every cell does.

The oracle is a reading of its own: Python's ``csv`` module splits the rows and ``float``
reads the cells; a table is refused where a row has another field count than the header,
a number column (not ``user`` or ``variant``) holds a number and a cell that is neither a
number nor a missing value, or a user is listed twice; else its values are those of
``pandas.read_csv``.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest

from irscale.errors import InputError
from irscale.io.user_tables import MISSING_CELLS, read_user_table

#: Cells the random tables draw from: numbers, missing values, words, number bytes that
#: are no number, blanks around numbers.
CELLS = ["1", "2.5", "-3", "1e3", "+4", ".5", "", "nan", "NA", "x", "1.2.3", "e", " 7",
         "7 ", "0"]


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return cell == cell.strip() and "_" not in cell


def _oracle(text: str) -> str | None:
    """Why the table is refused (the kind of problem), or None."""
    rows = [row for row in csv.reader(io.StringIO(text), skipinitialspace=True) if row]
    names, body = rows[0], rows[1:]
    if any(len(row) != len(names) for row in body):
        return "fields"
    for k, name in enumerate(names):
        if name in ("user", "variant"):
            continue
        given = [row[k] for row in body if row[k] not in MISSING_CELLS]
        words = [cell for cell in given if not _number(cell)]
        if words and len(words) < len(given):
            return "number"
    users = [row[0] for row in body]
    return "user" if len(set(users)) < len(users) else None


@pytest.mark.parametrize("seed", range(40))
def test_quick_and_full_checks_agree(seed, tmp_path):
    rng = np.random.default_rng(seed)
    rows = int(rng.integers(1, 6))
    plain = rng.random() < 0.7  # mostly tables the quick check takes
    lines = ["user,variant,clicks,time"]
    for i in range(rows):
        cells = [f"u{int(rng.integers(0, 8)) if rng.random() < 0.2 else i}",
                 str(rng.choice(["A", "B"]))]
        cells += [str(rng.choice(CELLS[:7] if plain else CELLS)) for _ in range(2)]
        if rng.random() < 0.05:
            cells.pop()
        lines.append(",".join(cells))
    text = "\n".join(lines) + "\n"
    path = tmp_path / "t.csv"
    path.write_text(text)
    expected = _oracle(text)
    if expected is not None:
        with pytest.raises(InputError):
            read_user_table(str(path))
        return
    table = read_user_table(str(path))
    frame = pd.read_csv(io.StringIO(text), dtype={"user": str},
                        skipinitialspace=True).set_index("user")
    for column in ("clicks", "time"):
        got, want = table[column].to_numpy(), frame[column].to_numpy()
        if want.dtype.kind in "fi":
            assert np.array_equal(got.astype(float), want.astype(float), equal_nan=True)
        else:
            assert [str(v) for v in got] == [str(v) for v in want]


def _plain_oracle(text: str, sep: str, numeric: list[bool]) -> bool:
    """The quick check's rule line by line: every line under the header holds a field per
    column, and every byte of a number column's cell is a digit or one of ``.eE+-``."""
    lines = text.split("\n")[1:]
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        cells = line.split(sep)
        if len(cells) != len(numeric):
            return False
        if any(flag and any(c not in "0123456789.eE+-" for c in cell)
               for flag, cell in zip(numeric, cells, strict=True)):
            return False
    return True


@pytest.mark.parametrize("seed", range(60))
def test_the_quick_check_takes_the_plain_tables_only(seed):
    """The quick check (the native engine's one pass) says of random tables (number
    columns anywhere, in runs or alone; empty cells; lines of a field too many and too
    few, which keep the total count of separators; a last line without its end) what a
    line-by-line reading says, its rows are the lines, and it finds the users of a column
    distinct when they are and none starts with a blank."""
    from irscale.io.user_tables import _plain_rows

    rng = np.random.default_rng(seed)
    sep = str(rng.choice([",", "\t"]))
    width = int(rng.integers(1, 6))
    numeric = [bool(rng.random() < 0.6) for _ in range(width)]
    cells = ["1", "2.5", "-3e2", "", "x", "u7", "+", "ab c", " u7"]
    lines = [sep.join(f"c{k}" for k in range(width))]
    for _ in range(int(rng.integers(1, 7))):
        row = [str(rng.choice(cells[:4] if numeric[k] and rng.random() < 0.9 else cells))
               for k in range(width)]
        lines.append(sep.join(row))
    if len(lines) > 2 and width > 1 and rng.random() < 0.2:  # one field moves a line down
        first, second = lines[1].split(sep), lines[2].split(sep)
        second.append(first.pop())
        lines[1], lines[2] = sep.join(first), sep.join(second)
    text = "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")
    if any(line == "" for line in lines[1:]):
        return  # (a blank line is the full check's: pandas skips it)
    user = int(rng.integers(0, width))
    rows = _plain_rows(text.encode(), sep, numeric, user)
    assert (rows is not None) == _plain_oracle(text, sep, numeric), (text, numeric)
    if rows is not None:
        assert list(rows) == [(n, line) for n, line in enumerate(lines[1:], 2)]
        users = [line.split(sep)[user] for line in lines[1:]]
        assert rows.distinct == (len(set(users)) == len(users)
                                 and not any(u[:1] in (" ", "\t") for u in users))

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

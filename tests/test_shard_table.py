"""Shard scores read by ``irscale.io.scores_csv.read_shard_table`` (the rows checked as
arrays): values, labels and every cell's line against the table the test writes, and the
first refused row named whatever kind of fault comes first (the contract of the format:
``docs/collections.md`` §4, ``pool shards --shard-scores``)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from irscale.errors import InputError
from irscale.io.scores_csv import read_shard_table


def _write(tmp_path, rows: list[str]) -> str:
    path = tmp_path / "sh.csv"
    path.write_text("topic,run,shard,value\n" + "".join(f"{row}\n" for row in rows))
    return str(path)


def test_values_labels_and_lines(tmp_path):
    """A shuffled table with undefined scores: every value, label and line as written."""
    rng = random.Random(7)
    cells = list(itertools.product([f"t{t}" for t in range(5)], ["r0", "r1", "r2"],
                                   ["k0", "k1"]))
    rng.shuffle(cells)
    written = {cell: (None if rng.random() < 0.2 else round(rng.random(), 4))
               for cell in cells}
    rows = [f" {t} ,{r},{k},{'' if v is None else v}" for (t, r, k), v in written.items()]
    read = read_shard_table(_write(tmp_path, rows))
    topics, runs, shards = (tuple(dict.fromkeys(cell[axis] for cell in cells))
                            for axis in range(3))
    assert (read.topics, read.systems, read.shards) == (topics, runs, shards)
    for number, (cell, value) in enumerate(written.items(), start=2):
        at = tuple(labels.index(label) for labels, label in
                   zip((topics, runs, shards), cell, strict=True))
        got = read.values[at]
        assert np.isnan(got) if value is None else got == value
        assert read.lines.where(cell) == {"source": str(tmp_path / "sh.csv"),
                                          "line": number, "text": rows[number - 2]}


GOOD = ["1,r0,k0,0.1", "1,r0,k1,0.2", "1,r1,k0,0.3", "1,r1,k1,0.4"]


@pytest.mark.parametrize(("rows", "required", "expected"), [
    # the first row refused is named, whatever kind of fault a later row has
    ([*GOOD[:2], "1 ,r0,k0,0.5", "1,r1", *GOOD[2:]], None,
     "line 4: topic '1', run 'r0', shard 'k0' appears twice (lines 2 and 4)"),
    ([*GOOD[:2], "1,r1", "1,r0,k0,0.5", *GOOD[2:]], None,
     "line 4: expected 4 comma-separated fields (topic, run, shard, value), got 2"),
    (["1,,k0,0.1", *GOOD[1:3], "1,r1,k1,x"], None, "line 2: empty run"),
    ([*GOOD[:3], "1,r1,k1,x", "1,r1,k1,0.4"], None,
     "line 5: non-numeric score for system 'r1' (column 4): 'x'"),
    ([*GOOD[:3], "1,r1,k1,1_000"], None, "non-numeric score for system 'r1'"),
    ([*GOOD[:3], "1,r1,k1,\u0661"], None, "non-numeric score for system 'r1'"),
    ([*GOOD[:3], "1,r1,k1,+nan"], None, "non-numeric score for system 'r1'"),
    ([*GOOD[:3], "1,r1,k1,-inf"], None, "line 5: infinite score for system 'r1' (column 4)"),
    ([*GOOD[:3], "1,r1,k1,1e400"], None, "beyond the range of 64-bit floats"),
    ([*GOOD[:3], "1,r1,k1, NA "], "why", "line 5: no score of run 'r1' for topic '1' in "
     "shard 'k1': why: '1,r1,k1, NA '"),
    ([*GOOD[:3], "2,r1,k1,0.5"], None, "no score of run 'r1' for topic '1' in shard 'k1' "
     "(write an empty value for an undefined score)"),
])
def test_first_refused_row(tmp_path, rows, required, expected):
    with pytest.raises(InputError) as caught:
        read_shard_table(_write(tmp_path, rows), required=required)
    assert expected in str(caught.value)


def test_undefined_scores_allowed(tmp_path):
    rows = [*GOOD[:3], "1,r1,k1, NaN "]
    read = read_shard_table(_write(tmp_path, rows))
    assert read.values.shape == (1, 2, 2) and np.isnan(read.values[0, 1, 1])
    assert read.values[0, 1, 0] == 0.3

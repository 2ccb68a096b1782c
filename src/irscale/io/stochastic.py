"""Stochastic runs: several sampled rankings per topic in one TREC run file.

A stochastic ranking policy (Diaz et al., CIKM 2020) is evaluated from a sample of its
rankings. The file is a TREC run ``qid sample docno rank score runid`` whose second column
(``Q0`` in a deterministic run) names the sample: the lines of one (topic, sample) are one
ranking, ordered as trec_eval orders a run (score descending, then docno descending; the
rank column is not read). A deterministic run is a stochastic run of one sample per topic.
A document twice in one ranking is an error naming the line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..core._columnar import arrow
from ..core._columnar import arrow_compute as pc
from ..errors import InputFormatError
from ._text import is_float, line_of_record, parse_columns, source_name

#: The fields of a line of a stochastic run.
FIELDS = ("qid", "sample", "docno", "rank", "score", "runid")


@dataclass(frozen=True, eq=False)
class StochasticRun:
    """The sampled rankings of one run: row ``i`` puts ``docno[i]`` at 1-based ``position[i]``
    of sample ``sample[i]`` of topic ``topic[i]``; rows are sorted by topic, sample and
    position."""

    name: str
    topic: pa.Array
    sample: pa.Array
    docno: pa.Array
    position: np.ndarray
    source: str = "<run>"

    def __len__(self) -> int:
        return len(self.position)


def read_stochastic_run(source: str | os.PathLike | bytes, name: str | None = None
                        ) -> StochasticRun:
    """Read a stochastic run (see the module documentation), named ``name`` or after the
    run id of its first line.

    >>> run = read_stochastic_run(b"1 0 a 1 2 r\\n1 0 b 2 1 r\\n1 1 b 1 2 r\\n1 1 a 2 1 r\\n")
    >>> run.docno.to_pylist(), run.position.tolist()
    (['a', 'b', 'b', 'a'], [1, 2, 1, 2])
    """
    label = source_name(source)
    table, raw = parse_columns(
        source, FIELDS,
        {"qid": pa.string(), "sample": pa.string(), "docno": pa.string(),
         "score": pa.float64(), "runid": pa.string()},
        ("qid", "sample", "docno", "score", "runid"),
        {4: lambda text: None if is_float(text) else "is not a number"},
        "stochastic run")
    table = table.append_column("row", pa.array(np.arange(table.num_rows)))
    order = pc.sort_indices(table, [("qid", "ascending"), ("sample", "ascending"),
                                    ("score", "descending"), ("docno", "descending")])
    table = table.take(order)
    row = arrow.to_numpy(table["row"]).astype(np.int64)
    topic, sample, docno = (table[c].combine_chunks() for c in ("qid", "sample", "docno"))
    key_change = np.r_[True, arrow.to_numpy(pc.not_equal(topic[1:], topic[:-1]))
                       | arrow.to_numpy(pc.not_equal(sample[1:], sample[:-1]))] \
        if len(row) else np.empty(0, bool)
    starts = np.flatnonzero(key_change)
    block = np.cumsum(key_change) - 1
    position = np.arange(len(row)) - starts[block] + 1
    _refuse_repeats(table, row, block, label, raw)
    runid = table["runid"].combine_chunks()
    first = int(np.argmin(row)) if len(row) else 0
    return StochasticRun(name or (runid[first].as_py() if len(row) else label), topic, sample,
                         docno, position.astype(np.int64), label)


def _refuse_repeats(table: pa.Table, row: np.ndarray, block: np.ndarray, label: str,
                    raw) -> None:
    """A document twice in one (topic, sample) ranking: an error naming its second line."""
    if not len(row):
        return
    codes = arrow.to_numpy(pc.dictionary_encode(table["docno"].combine_chunks()).indices)
    key = block.astype(np.int64) * (int(codes.max()) + 1) + codes
    order = np.lexsort((row, key))
    repeated = np.flatnonzero(key[order][1:] == key[order][:-1])
    if len(repeated):
        second = order[repeated + 1]
        line, text = line_of_record(raw(), int(row[second].min()))
        raise InputFormatError("a document appears twice in one sampled ranking (same "
                               "topic and sample)", source=label, line=line, text=text)

"""Reading automatic judgments with a probability per label: ``topic iter docno rel prob``.

An automatic assessor may give a (topic, document) pair a distribution over the grades
instead of one grade (an LLM's probabilities of its label tokens, say). Every line is one
grade of a pair and its probability ``prob`` ∈ [0, 1]; the lines of a pair give distinct grades
whose probabilities sum to 1 (within :data:`SUM_TOLERANCE`): a binary label ``1`` held with
probability 0.8 is the two lines ``t 0 d 1 0.8`` and ``t 0 d 0 0.2``, a sure label one line
of probability 1. ``iter`` is ignored, as in a qrels file. Errors name the file, the line
and its text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import DuplicateError, InputError
from .sampled import COLUMNS, Where, read_columns, renamed_frame

if TYPE_CHECKING:
    import pandas as pd

#: How far the probabilities of a pair may sum from 1 (rounding of printed probabilities).
SUM_TOLERANCE = 1e-6

__all__ = ["COLUMNS", "SUM_TOLERANCE", "read_label_probabilities"]


def read_label_probabilities(source: Any) -> pd.DataFrame:
    """Automatic judgments with their grades' probabilities as a DataFrame ``topic, docno,
    rel, prob`` (file order; module documentation).

    ``source``: the inputs of :func:`~irscale.io.sampled.read_sampled_qrels`, its lines
    giving here each grade of a pair with its probability.

    >>> read_label_probabilities(b"1 0 d1 1 0.75\\n1 0 d1 0 0.25\\n1 0 d2 2 1\\n")
      topic docno  rel  prob
    0     1    d1    1  0.75
    1     1    d1    0  0.25
    2     1    d2    2  1.00
    """
    import pandas as pd

    if hasattr(source, "columns"):
        frame = renamed_frame(source, "label probabilities")
        columns = {"topic": frame["topic"].astype(str).to_numpy(dtype=object),
                   "docno": frame["docno"].astype(str).to_numpy(dtype=object),
                   "rel": pd.to_numeric(frame["rel"], errors="coerce").to_numpy(np.float64),
                   "prob": pd.to_numeric(frame["prob"], errors="coerce").to_numpy(np.float64)}
        _check(columns, "<DataFrame>", lambda row: (row + 1, " ".join(
            map(str, frame[["topic", "docno", "rel", "prob"]].iloc[row]))))
    else:
        columns, name, where = read_columns(source, "label probabilities")
        _check(columns, name, where)
    return pd.DataFrame({"topic": columns["topic"], "docno": columns["docno"],
                         "rel": np.asarray(columns["rel"]).astype(np.int64),
                         "prob": np.asarray(columns["prob"], dtype=np.float64)})


def _check(columns: dict[str, Any], source: str, where: Where) -> None:
    """Integer grades, probabilities in [0, 1], a grade once a pair and each pair's
    probabilities summing to 1 (module documentation); errors at the first line at fault
    (a pair's sum: at its first line)."""
    rel = np.asarray(columns["rel"], dtype=np.float64)
    prob = np.asarray(columns["prob"], dtype=np.float64)
    for bad, message in ((~np.isfinite(rel) | (rel != np.round(rel)), "rel is not an integer"),
                         (~np.isfinite(prob) | (prob < 0) | (prob > 1),
                          "prob is not a probability in [0, 1]")):
        if bad.any():
            line, text = where(int(np.flatnonzero(bad)[0]))
            raise InputError(message, source=source, line=line, text=text)
    import pandas as pd

    pair, _ = pd.factorize(pd.MultiIndex.from_arrays([columns["topic"], columns["docno"]]))
    twice = np.flatnonzero(pd.DataFrame({"pair": pair, "rel": rel}).duplicated().to_numpy())
    if len(twice):
        line, text = where(int(twice[0]))
        raise DuplicateError("the same grade of the document twice for the topic",
                             source=source, line=line, text=text)
    total = np.bincount(pair, weights=prob)  # row order within a pair, as a running sum
    off = np.flatnonzero(np.abs(total - 1.0) > SUM_TOLERANCE)
    if len(off):  # pairs are numbered in order of their first line
        row = int(np.flatnonzero(pair == off[0])[0])
        line, text = where(row)
        raise InputError(f"the probabilities of document {columns['docno'][row]!r} of topic "
                         f"{columns['topic'][row]!r} sum to {total[off[0]]:.6g}, not 1 (one "
                         "line a grade: a label held with probability p is two lines, p and "
                         "1 - p)", source=source, line=line, text=text)

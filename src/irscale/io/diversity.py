"""Readers of diversity (intent-aware) judgments and intent probabilities.

Formats (fields separated by any run of spaces or tabs; blank lines are ignored):

* diversity qrels, ndeval's format ``topic subtopic docno judgment``: one line per
  (topic, subtopic, document) judgment, ``judgment`` an integer (graded per-intent levels
  are kept as given: ndeval's measures count ``judgment ≥ 1`` as relevant, NTCIREVAL's
  per-intent graded measures use the levels themselves). The TREC Web track's
  ``qrels.web.*.ndeval.txt`` files are in this format.
* intent probabilities, NTCIR's Iprob format ``topic subtopic probability``: the
  probability of each intent (subtopic) of a topic; a topic not listed has uniform
  probabilities over its intents (:meth:`IntentProbabilities.weights`).

Errors follow the TREC readers (:mod:`irscale.io.trec`): one :class:`InputFormatError`
naming the file, the line and its text; :class:`EmptyInputError` for a file without data;
:class:`DuplicateError` for a (topic, subtopic, docno) judged twice.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core import arrow
from ..errors import DuplicateError, InputFormatError
from ._text import PathLike, check_int64, is_float, line_of_record, parse_columns, source_name
from .trec import _check_source

DIVERSITY_FIELDS = ("topic", "subtopic", "docno", "judgment")
IPROB_FIELDS = ("topic", "subtopic", "probability")


@dataclass(frozen=True, eq=False)
class DiversityQrels:
    """Per-intent relevance judgments: one row per (topic, subtopic, document) judgment.

    ``judgment`` holds the integer levels as read (0: judged not relevant to that
    subtopic). Topic, subtopic and document ids are strings.
    """

    topic: pa.ChunkedArray
    subtopic: pa.ChunkedArray
    docno: pa.ChunkedArray
    judgment: np.ndarray
    source: str = "<diversity qrels>"
    #: The file row (0-based, among non-blank lines) of every row, for error messages.
    file_row: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        n = len(self.judgment)
        if not (len(self.topic) == len(self.subtopic) == len(self.docno) == n):
            raise InputFormatError("diversity qrels columns have different lengths",
                                   source=self.source)

    def __len__(self) -> int:
        return len(self.judgment)

    @property
    def topics(self) -> list[str]:
        """Distinct topic ids, sorted by byte order."""
        return sorted(pc.unique(self.topic).to_pylist())

    def to_frame(self):
        """The judgments as a DataFrame ``query_id, subtopic_id, doc_id, relevance``."""
        import pandas as pd

        return pd.DataFrame({"query_id": self.topic.to_numpy(),
                             "subtopic_id": self.subtopic.to_numpy(),
                             "doc_id": self.docno.to_numpy(),
                             "relevance": self.judgment})

    def __repr__(self) -> str:
        return (f"DiversityQrels({len(self.topics)} topics, {len(self)} judgments, "
                f"source={self.source!r})")


def read_diversity_qrels(source: PathLike | io.IOBase | bytes) -> DiversityQrels:
    """Read diversity qrels in ndeval's format ``topic subtopic docno judgment``.

    Parameters
    ----------
    source : path, file object or bytes
        A path (plain or gzip-compressed; ``"-"`` reads standard input), an open binary
        file or the file's bytes; ``judgment`` is an integer.

    Returns
    -------
    DiversityQrels
        One row per judgment, in file order.

    Raises
    ------
    InputFormatError
        A malformed line (not four fields, a judgment that is not an integer), naming the
        source, the line and its text.
    EmptyInputError
        No data line.
    DuplicateError
        A (topic, subtopic, docno) triple judged twice (ndeval would count it twice in
        the subtopic's number of relevant documents).

    Examples
    --------
    >>> q = read_diversity_qrels(b"1 1 d1 1\\n1 2 d1 0\\n1 2 d2 2\\n2 1 d9 1\\n")
    >>> q
    DiversityQrels(2 topics, 4 judgments, source='<bytes>')
    >>> q.subtopic.to_pylist(), q.judgment.tolist()
    (['1', '2', '2', '1'], [1, 0, 2, 1])
    """
    source = _check_source(source, "read_diversity_qrels")
    name = source_name(source)
    table, raw = parse_columns(
        source,
        DIVERSITY_FIELDS,
        {"topic": pa.string(), "subtopic": pa.string(), "docno": pa.string(),
         "judgment": pa.int64()},
        DIVERSITY_FIELDS,
        {3: check_int64},
        "diversity qrels",
    )
    topic, subtopic, docno = table["topic"], table["subtopic"], table["docno"]
    judgment = arrow.to_numpy(table["judgment"])
    _check_duplicates((topic, subtopic, docno), name,
                      lambda row: line_of_record(raw(), row), "judged twice")
    return DiversityQrels(topic=topic, subtopic=subtopic, docno=docno, judgment=judgment,
                          source=name)


def _codes(values: pa.ChunkedArray) -> tuple[np.ndarray, int]:
    encoded = pc.dictionary_encode(values).combine_chunks()
    return (encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64),
            len(encoded.dictionary))


def _check_duplicates(columns, source: str, describe, what: str) -> None:
    """DuplicateError naming the second line of the first key (tuple of columns) repeated."""
    key = np.zeros(len(columns[0]), dtype=np.int64)
    for column in columns:
        codes, size = _codes(column)
        key = key * size + codes
    order = np.argsort(key, kind="stable")
    same = np.flatnonzero(key[order][1:] == key[order][:-1])
    if len(same):
        rows = np.minimum(order[same], order[same + 1]), np.maximum(order[same], order[same + 1])
        second = int(rows[1][np.argmin(rows[1])])
        line, text = describe(second)
        raise DuplicateError(f"{' '.join(str(c[second]) for c in columns)} {what}",
                             source=source, line=line, text=text)


@dataclass(frozen=True)
class IntentProbabilities:
    """Intent probabilities per topic: ``{topic: {subtopic: probability}}``.

    Topics not listed get uniform probabilities over their intents (NTCIREVAL's default).
    """

    probabilities: Mapping[str, Mapping[str, float]]
    source: str = "<intent probabilities>"

    def weights(self, topic: str, subtopics: list[str]) -> np.ndarray:
        """The probabilities of ``subtopics`` of ``topic`` (uniform when not listed; an
        intent missing from a listed topic has probability 0)."""
        given = self.probabilities.get(topic)
        if given is None:
            return np.full(len(subtopics), 1.0 / len(subtopics)) if subtopics else np.empty(0)
        return np.array([float(given.get(s, 0.0)) for s in subtopics])


def _check_probability(text: str) -> str | None:
    if not is_float(text):
        return "is not a number"
    value = float(text)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        return "must be a probability in [0, 1]"
    return None


def read_intent_probabilities(source: PathLike | io.IOBase | bytes) -> IntentProbabilities:
    """Read intent probabilities ``topic subtopic probability`` (NTCIR's Iprob files).

    Examples
    --------
    >>> p = read_intent_probabilities(b"1 1 0.7\\n1 2 0.3\\n")
    >>> p.weights("1", ["1", "2"]).tolist(), p.weights("5", ["a", "b"]).tolist()
    ([0.7, 0.3], [0.5, 0.5])
    """
    source = _check_source(source, "read_intent_probabilities")
    name = source_name(source)
    table, raw = parse_columns(
        source, IPROB_FIELDS,
        {"topic": pa.string(), "subtopic": pa.string(), "probability": pa.float64()},
        IPROB_FIELDS, {2: _check_probability}, "intent probabilities")
    probability = arrow.to_numpy(table["probability"])
    bad = np.flatnonzero(~((probability >= 0.0) & (probability <= 1.0)))
    if len(bad):
        line, text = line_of_record(raw(), int(bad[0]))
        raise InputFormatError("probability must be a probability in [0, 1]", source=name,
                               line=line, text=text)
    _check_duplicates((table["topic"], table["subtopic"]), name,
                      lambda row: line_of_record(raw(), row), "given twice")
    out: dict[str, dict[str, float]] = {}
    for t, s, p in zip(table["topic"].to_pylist(), table["subtopic"].to_pylist(),
                       probability.tolist(), strict=True):
        out.setdefault(t, {})[s] = p
    return IntentProbabilities(out, name)

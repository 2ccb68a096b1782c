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
* intent types ``topic subtopic inf|nav`` (the fourth field of NTCIREVAL's DINprob files):
  informational or navigational intents, for the intent-type-sensitive measures
  (DIN-nDCG, P+Q, EP); an intent not listed is informational (:class:`IntentTypes`).

Errors follow the TREC readers (:mod:`irscale.io.trec`): one :class:`InputFormatError`
naming the file, the line and its text; :class:`EmptyInputError` for a file without data;
:class:`DuplicateError` for a (topic, subtopic, docno) judged twice.

Diversity qrels and ndeval-format runs are read by the native engine
(``rust/src/read/diversity.rs``, on the TREC readers' passes of ``rust/src/read/``): plain or
gzip-compressed, from a path, standard input (``-``), an open binary file or bytes.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _engine
from ..core.inputs import identifier_column
from ..core.strings import Strings
from ..errors import DuplicateError, InputError, InputFormatError
from .files import (
    check_file_source,
    check_readable,
    display_name,
    is_stdio,
    read_input,
    reading_limit,
)
from .irds import is_irds
from .naming import source_name
from .native_files import raise_read_error

if TYPE_CHECKING:
    from ._text import PathLike

# The text reader (:mod:`irscale.io._text`) is imported by the readers of the small text
# files (intent probabilities and types, topic alphas) when called: the engine's readers
# of diversity qrels and runs, and the diversity measures, do without it and its imports.

IPROB_FIELDS = ("topic", "subtopic", "probability")
ITYPE_FIELDS = ("topic", "subtopic", "type")
INTENT_TYPES = ("inf", "nav")


def ndeval_ids(column: Strings, run_topics: bool = False) -> tuple[Strings, int | None]:
    """``column``'s ids as ndeval 4.5 reads them (ndeval.c's ``naturalNumber``: ASCII
    digits, a value above 100000 refusing its next digit; with ``run_topics`` its
    ``parseTopic``: a run's topic possibly after a task prefix ending in ``-``, ``wt09-1``
    is 1), read by the engine (``rust/src/read/diversity.rs``) and written back as decimal
    strings (so ``07`` and ``7`` are one topic, as in ndeval, and print as ``7``): the
    mapped column and the first row whose id ndeval refuses (``None`` if none). One parse
    per distinct id; the rows take their id's number by its code (:meth:`Strings.take`)."""
    column = Strings.of(column)
    codes, distinct = column.encode()
    values = _engine.ndeval_numbers(distinct.to_pylist(), run_topics)
    bad = next((code for code, value in enumerate(values) if value is None), None)
    if bad is not None:  # distinct ids in order of first appearance: its first row
        return column, int(np.argmax(codes == bad))
    return Strings.of(list(map(str, values))).take(codes), None


#: Why an id is refused where qrels ids are read as ndeval reads them.
NOT_NATURAL = "is not a natural number as ndeval reads it (digits only, at most 1000009)"
#: Why a run's topic id is refused where it is read as ndeval reads it.
NOT_TOPIC = ("topic is not a topic number as ndeval reads it (digits, or a task prefix "
             "ending in '-' and digits: wt09-1)")


def engine_file(source: PathLike | io.IOBase | bytes, where: str, *, checked: bool = True
                ) -> tuple[bytes | PathLike, str]:
    """``source`` as the engine reads it, and its name in messages: a path (``checked``:
    found readable, :class:`~irscale.errors.FileAccessError` otherwise; else the engine
    says why it cannot read it), or the bytes of standard input (``-``), of an open file
    or given (named as :func:`irscale.io._text.source_name` names them, without
    importing the text reader)."""
    source = check_file_source(source, where)
    if isinstance(source, bytes):
        return source, "<bytes>"
    if isinstance(source, (str, os.PathLike)):
        name = display_name(source)
        if is_stdio(source):
            return read_input(source), name
        if checked:
            check_readable(source)
        return source, name
    data = source.read()
    return (data.encode() if isinstance(data, str) else data), getattr(source, "name",
                                                                       "<stream>")


def engine_read(read: Callable[[], Any], files: Sequence[tuple[bytes | PathLike, str]]) -> Any:
    """``read()``, a reader of the engine, with its ``TrecReadError`` raised as the
    package's error (``files``: the bytes or path and name of every file it reads)."""
    try:
        return read()
    except _engine.TrecReadError as error:
        kind, reason, source, line, text, _, _ = error.args
        if kind == "duplicate":  # the engine words it
            raise DuplicateError(reason, source=source, line=line, text=text) from None
        raise_read_error(error, files)


@dataclass(frozen=True, eq=False)
class DiversityQrels:
    """Per-intent relevance judgments: one row per (topic, subtopic, document) judgment.

    ``judgment`` holds the integer levels as read (0: judged not relevant to that
    subtopic). Topic, subtopic and document ids are :class:`~irscale.core.strings.Strings`
    columns (given as Python strings, numpy, pandas or Arrow columns, they are converted).
    """

    topic: Strings
    subtopic: Strings
    docno: Strings
    judgment: np.ndarray
    source: str = "<diversity qrels>"
    #: The file row (0-based, among non-blank lines) of every row, for error messages.
    file_row: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        for name, what in (("topic", "topic id"), ("subtopic", "subtopic id"),
                           ("docno", "docno")):
            values = getattr(self, name)
            if not isinstance(values, Strings):
                object.__setattr__(self, name, identifier_column(values, what, self.source))
        n = len(self.judgment)
        if not (len(self.topic) == len(self.subtopic) == len(self.docno) == n):
            raise InputFormatError("diversity qrels columns have different lengths",
                                   source=self.source)

    def __len__(self) -> int:
        return len(self.judgment)

    @property
    def topics(self) -> list[str]:
        """Distinct topic ids, sorted by byte order."""
        return sorted(self.topic.unique().to_pylist())

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


def read_diversity_qrels(source: PathLike | io.IOBase | bytes, *, ndeval: bool = False
                         ) -> DiversityQrels:
    """Read diversity qrels in ndeval's format ``topic subtopic docno judgment``.

    Parameters
    ----------
    source : path, file object or bytes
        A path (plain or gzip-compressed; ``"-"`` reads standard input), an open binary
        file or the file's bytes; ``judgment`` is an integer.
    ndeval : bool
        Read topic and subtopic ids as ndeval does (:func:`ndeval_ids`): natural
        numbers, written back in decimal (``07`` is topic ``7``); any other id is an
        :class:`InputFormatError`, as in ndeval. Otherwise ids are kept as written.

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
    if is_irds(source):
        raise InputError(f"{source}: diversity qrels are read from ndeval-format files; "
                         "ir_datasets' subtopic qrels are not read (irds: gives ad hoc qrels)")
    file = engine_file(source, "read_diversity_qrels")
    topic, subtopic, docno, judgment = engine_read(
        lambda: _engine.read_diversity_qrels(*file, ndeval, reading_limit()), [file])
    return DiversityQrels(topic=Strings(*topic), subtopic=Strings(*subtopic),
                          docno=Strings(*docno), judgment=judgment, source=file[1])


def _check_duplicates(columns: Sequence[Strings], source: str,
                      describe: Callable[[int], tuple[int, str]], what: str) -> None:
    """DuplicateError naming the second line of the first key (tuple of columns) repeated."""
    key = np.zeros(len(columns[0]), dtype=np.int64)
    for column in columns:
        codes, distinct = column.encode()
        key = key * len(distinct) + codes
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
    Each probability is a number in [0, 1] (NaN is none) and a topic's sum to 1 within
    :data:`PROBABILITY_TOLERANCE`: the intent-aware measures weigh the intents by them as
    given (NTCIREVAL's ``Iprob`` files are used without renormalising, and the
    intent-aware measures of Agrawal et al. 2009 take Pr(i|q) summing to 1 over the
    topic's intents), so another sum would scale the topic's value. Either is an
    :class:`~irscale.errors.InputFormatError` naming the source and, for a file, the line
    (the topic's first line for a sum).
    """

    probabilities: Mapping[str, Mapping[str, float]]
    source: str = "<intent probabilities>"
    #: ``(topic, subtopic)`` → (line number, line text) in the file, for error messages.
    where: Mapping[tuple[str, str], tuple[int, str]] = field(default_factory=dict,
                                                             repr=False, compare=False)

    def __post_init__(self) -> None:
        for topic, given in self.probabilities.items():
            total = 0.0
            for subtopic, value in given.items():
                number = value if isinstance(value, (int, float)) and \
                    not isinstance(value, bool) else math.nan
                if not (0.0 <= number <= 1.0):
                    self._refuse(topic, subtopic, f"the probability of intent {subtopic} of "
                                 f"topic {topic} must be a number in [0, 1], got {value!r}")
                total += number
            if not abs(total - 1.0) <= PROBABILITY_TOLERANCE and given:
                self._refuse(topic, next(iter(given)), f"the probabilities of topic {topic} "
                             f"sum to {total:.6g}, not 1 (tolerance "
                             f"{PROBABILITY_TOLERANCE:g})")

    def _refuse(self, topic: str, subtopic: str, message: str) -> None:
        """Raise :class:`InputFormatError` ``message`` naming the line of ``(topic,
        subtopic)`` where known."""
        line, text = self.where.get((topic, subtopic), (None, None))
        raise InputFormatError(message, source=self.source, line=line, text=text)


#: Largest accepted |Σ_j Pr(j|q) − 1| of a topic's intent probabilities: files print
#: probabilities with a few decimals (seven intents at 4 decimals are off by up to
#: 3.5e-4), so a looser tolerance than rounding of doubles is needed; NTCIREVAL takes the
#: probabilities as given (no renormalising), ndeval has none (its intents are equally
#: likely).
PROBABILITY_TOLERANCE = 1e-3


def _check_probability(text: str) -> str | None:
    from ._text import is_float

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
    >>> {t: dict(ps) for t, ps in p.probabilities.items()}
    {'1': {'1': 0.7, '2': 0.3}}
    """
    from ._text import line_of_record, read_fields, source_name

    source = check_file_source(source, "read_intent_probabilities")
    name = source_name(source)
    table, raw = read_fields(
        source, IPROB_FIELDS, {"topic": "str", "subtopic": "str", "probability": "float"},
        {2: _check_probability}, "intent probabilities")
    topic, subtopic = table.strings("topic"), table.strings("subtopic")
    probability = table.numbers("probability")
    bad = np.flatnonzero(~((probability >= 0.0) & (probability <= 1.0)))
    if len(bad):
        line, text = line_of_record(raw(), int(bad[0]))
        raise InputFormatError("probability must be a probability in [0, 1]", source=name,
                               line=line, text=text)
    _check_duplicates((topic, subtopic), name, lambda row: line_of_record(raw(), row),
                      "given twice")
    out: dict[str, dict[str, float]] = {}
    for t, s, p in zip(topic.to_pylist(), subtopic.to_pylist(), probability.tolist(),
                       strict=True):
        out.setdefault(t, {})[s] = p
    return IntentProbabilities(out, name, _line_index(raw(), topic, subtopic))


@dataclass(frozen=True)
class TopicAlphas:
    """A redundancy intolerance α per topic: ``{topic: alpha}`` (``topic_alpha=1`` of
    ``alpha-nDCG`` and ``nERR-IA``); a topic not listed takes the name's α."""

    alphas: Mapping[str, float]
    source: str = "<topic alphas>"
    #: topic → (line number, line text) in the file, for error messages.
    where: Mapping[str, tuple[int, str]] = field(default_factory=dict, repr=False,
                                                 compare=False)


def read_topic_alphas(source: PathLike | io.IOBase | bytes) -> TopicAlphas:
    """Read one α per topic, lines ``topic alpha`` with α in [0, 1]; a topic given twice
    or a value out of range is an error naming the line.

    >>> read_topic_alphas(b"201 0.5\\n202 0.8\\n").alphas
    {'201': 0.5, '202': 0.8}
    """
    from ._text import iter_lines, line_of_record, read_fields, source_name

    source = check_file_source(source, "read_topic_alphas")
    name = source_name(source)
    table, raw = read_fields(source, ("topic", "alpha"), {"topic": "str", "alpha": "float"},
                             {1: _check_probability}, "topic alphas")
    alpha = table.numbers("alpha")
    bad = np.flatnonzero(~((alpha >= 0.0) & (alpha <= 1.0)))
    if len(bad):
        line, text = line_of_record(raw(), int(bad[0]))
        raise InputFormatError("alpha must be in [0, 1]", source=name, line=line, text=text)
    _check_duplicates((table.strings("topic"),), name,
                      lambda row: line_of_record(raw(), row), "given twice")
    topics = table.strings("topic").to_pylist()
    lines = [(number, text) for number, text in iter_lines(raw()) if text.strip()]
    return TopicAlphas(dict(zip(topics, alpha.tolist(), strict=True)), name,
                       dict(zip(topics, lines, strict=True)))


def _line_index(data: bytes, topic: Strings, subtopic: Strings
                ) -> dict[tuple[str, str], tuple[int, str]]:
    """``(topic, subtopic)`` → (line number, text) of every record (small files only)."""
    from ._text import iter_lines

    lines = [(number, text) for number, text in iter_lines(data) if text.strip()]
    return {(t, s): lines[row] for row, (t, s) in enumerate(zip(
        topic.to_pylist(), subtopic.to_pylist(), strict=True))}


@dataclass(frozen=True)
class IntentTypes:
    """Intent types per topic: ``{topic: {subtopic: "inf" | "nav"}}`` (informational or
    navigational, Sakai WWW 2012; Sakai 2014, §3.1). An intent not listed is informational."""

    types: Mapping[str, Mapping[str, str]]
    source: str = "<intent types>"
    #: ``(topic, subtopic)`` → (line number, line text) in the file, for error messages.
    where: Mapping[tuple[str, str], tuple[int, str]] = field(default_factory=dict,
                                                             repr=False, compare=False)

    def navigational(self, topic: str, subtopics: list[str]) -> np.ndarray:
        """Per intent of ``subtopics``: True when it is navigational."""
        given = self.types.get(topic, {})
        return np.array([given.get(s, "inf") == "nav" for s in subtopics], dtype=bool)


def _check_type(text: str) -> str | None:
    return None if text in INTENT_TYPES else "must be inf or nav"


def read_intent_types(source: PathLike | io.IOBase | bytes) -> IntentTypes:
    """Read intent types ``topic subtopic inf|nav`` (one line per intent; an intent not
    listed is informational).

    Raises :class:`InputFormatError` naming the file, the line and its text for a line
    without three fields or a type other than ``inf`` / ``nav``, and
    :class:`DuplicateError` for an intent given twice.

    Examples
    --------
    >>> t = read_intent_types(b"1 1 nav\\n1 2 inf\\n")
    >>> t.navigational("1", ["1", "2", "3"]).tolist()
    [True, False, False]
    """
    from ._text import line_of_record, read_fields, source_name

    source = check_file_source(source, "read_intent_types")
    name = source_name(source)
    table, raw = read_fields(source, ITYPE_FIELDS,
                             {"topic": "str", "subtopic": "str", "type": "str"},
                             {2: _check_type}, "intent types")
    topic, subtopic = table.strings("topic"), table.strings("subtopic")
    kinds = table.strings("type").to_pylist()
    bad = [row for row, kind in enumerate(kinds) if kind not in INTENT_TYPES]
    if bad:
        line, text = line_of_record(raw(), bad[0])
        raise InputFormatError("type must be inf or nav", source=name, line=line, text=text)
    _check_duplicates((topic, subtopic), name, lambda row: line_of_record(raw(), row),
                      "given twice")
    out: dict[str, dict[str, str]] = {}
    for t, s, kind in zip(topic.to_pylist(), subtopic.to_pylist(), kinds, strict=True):
        out.setdefault(t, {})[s] = kind
    return IntentTypes(out, name, _line_index(raw(), topic, subtopic))


def read_ndeval_run(source: PathLike | io.IOBase | bytes, *, name: str | None = None,
                    ndeval_topics: bool = False):
    """Read a TREC run ``qid Q0 docno rank score runid`` as ndeval reads it: the rank
    column is kept (a natural number: ndeval ranks by it unless ``-traditional``) and the
    run is named by its file (:mod:`irscale.io.naming`), bytes after the run id of its
    *first* line, as ndeval names it (ndeval's ``runid`` column prints that run id). With
    ``ndeval_topics`` the topic ids are read as ndeval reads them too
    (:func:`ndeval_ids`: ``wt09-1`` and ``01`` are topic ``1``; an id ndeval refuses is an
    :class:`InputFormatError` naming the line); otherwise they are kept as written. The
    engine reads the file (``rust/src/read/diversity.rs``).

    Returns a :class:`~irscale.core.inputs.Run` (``rank`` kept); a malformed line, a rank
    that is not a natural number or a score that is not finite is an
    :class:`InputFormatError`, a document retrieved twice for a topic a
    :class:`DuplicateError` (ndeval: "duplicate docno").

    Examples
    --------
    >>> run = read_ndeval_run(b"1 Q0 d1 1 2.5 a\\n1 Q0 d2 2 1.0 b\\n")
    >>> run.name, run.rank.tolist()
    ('a', [1, 2])
    """
    from ..core.inputs import Run

    file = engine_file(source, "read_ndeval_run")
    topics, topic, docno, score, rank, runids = engine_read(
        lambda: _engine.read_ndeval_run(*file, ndeval_topics, reading_limit()), [file])
    return Run(name=name if name is not None else source_name(file[1], runids[0]),
               topic=Strings.of(topics).take(topic), docno=Strings(*docno),
               score=score, rank=rank, source=file[1], runids=tuple(runids))


def ndeval_run(run):
    """A :class:`~irscale.core.inputs.Run` already read, with its topic ids read as ndeval
    reads them (:func:`ndeval_ids`; see :func:`read_ndeval_run`): an id ndeval refuses
    is an :class:`InputFormatError`, a document that two ids of one topic number both
    retrieve a :class:`DuplicateError` (ndeval: "duplicate docno")."""
    from dataclasses import replace

    from ..core._columnar.duplicates import duplicate_rows

    topic, bad = ndeval_ids(run.topic, run_topics=True)
    if bad is not None:
        raise InputFormatError(f"{NOT_TOPIC}: {run.topic[bad]!r}", source=run.source)
    dup = duplicate_rows(topic, run.docno)
    if len(dup):
        row = int(dup[1]) if len(dup) > 1 else int(dup[0])
        raise DuplicateError(f"duplicate docno ({run.docno[row]}) for topic "
                             f"{topic[row]}", source=run.source)
    return replace(run, topic=topic, blocks=None)


def ndeval_qrels(qrels: DiversityQrels) -> DiversityQrels:
    """Diversity qrels already read, with topic and subtopic ids read as ndeval reads them
    (see :func:`read_diversity_qrels`'s ``ndeval``)."""
    from dataclasses import replace

    columns = []
    for field_name in ("topic", "subtopic"):
        column, bad = ndeval_ids(getattr(qrels, field_name))
        if bad is not None:
            raise InputFormatError(f"{field_name} {NOT_NATURAL}: "
                                   f"{getattr(qrels, field_name)[bad]!r}",
                                   source=qrels.source)
        columns.append(column)
    return replace(qrels, topic=columns[0], subtopic=columns[1])

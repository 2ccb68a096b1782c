"""In-memory inputs: pandas DataFrames and pytrec_eval-style dicts of dicts.

Column names follow ir_measures (``query_id, doc_id, relevance, score``); trec_eval-style
and PyTerrier names (``qid``/``topic``, ``docno``, ``rel``/``label``) and ranx's
(``q_id, doc_id, score``, the label of a qrels frame in its ``score`` column, as
``ranx.Qrels.to_dataframe()`` writes it) are accepted too. Each role takes one column: a
frame with two names of one role (``qid`` and ``q_id``) is refused, naming them.
Dicts map a topic id to a mapping ``{docno: relevance}`` (qrels) or ``{docno: score}``
(run), as pytrec_eval takes them.
Lists (or any iterable) of namedtuples with those fields — ir_datasets' ``TrecQrel``,
``GenericQrel``, ``ScoredDoc``, ``GenericScoredDoc``, as ir_measures and ranx take them —
are read column by column (:func:`qrels_from_records`, :func:`run_from_records`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np

from ..core._columnar.blocks import TopicBlocks
from ..core._columnar.duplicates import DuplicatePolicy, resolve_duplicates
from ..core.inputs import Qrels, Run, assemble_run
from ..core.strings import Strings
from ..errors import EmptyInputError, InputError, InputFormatError, about

#: The names a frame's or a table's topic, document and score columns may have (every reader
#: of frames and tables: this module, :mod:`.run_parquet`, :mod:`.labels`).
TOPIC_COLUMNS = ("query_id", "qid", "q_id", "topic", "topic_id")
DOC_COLUMNS = ("doc_id", "docno", "doc", "document")
_REL = ("relevance", "rel", "label", "judgment")
SCORE_COLUMNS = ("score", "sim")
#: The label column of ranx's qrels frames (``Qrels.to_dataframe()``, ``Qrels.from_df``).
_RANX_LABEL = ("score",)


def find_column(columns: Sequence[str], names: Sequence[str], what: str, source: str) -> str:
    """The one of ``columns`` (a frame's or a table's) named as a ``what`` column may be
    (``names``); :class:`InputError` when none is, or when several are (which one holds the
    data would be a guess)."""
    found = [name for name in names if name in columns]
    if len(found) > 1:
        raise InputError(f"{len(found)} {what} columns: {', '.join(found)} (keep one)",
                         source=source)
    if found:
        return found[0]
    raise InputError(
        f"no {what} column: expected one of {', '.join(names)}, got {list(columns)}",
        source=source,
    )


#: Integers of at least this magnitude are not all exact in float64 (2^53).
_FLOAT_INTEGERS = 2.0**53


def _exact_beyond_floats(values: np.ndarray, originals: Callable[[], list]
                         ) -> np.ndarray | list:
    """``values`` (the float64 conversion of ``originals()``), or the original values when
    one of them lies beyond float64's exact integers (|v| ≥ 2^53), so that relevance
    degrees such as 2^60 + 1 are read as the input holds them, not rounded."""
    if len(values) and np.abs(values).max() >= _FLOAT_INTEGERS:
        return originals()
    return values


def _flatten(data: Mapping[str, Mapping[str, Any]], what: str
             ) -> tuple[Strings, Strings, list | np.ndarray, TopicBlocks | None,
                        bool]:
    """``{topic: {docno: value}}`` as topic and document columns, the values, the topics'
    blocks and whether the (topic, docno) pairs are known to be distinct.

    The work is per topic, not per document: documents and values are gathered by
    ``itertools.chain`` and converted in one call each (:meth:`Strings.of` for the ids; ids
    that are not strings, such as ints, become their ``str``). The values come as a float64
    array when every one converts (the list otherwise, for the error naming the first that
    does not). The rows of a topic are together, so its blocks follow from the entry sizes (``None``
    when two topic keys have the same ``str``). The pairs are distinct, and need no
    duplicate check, when the topics' ``str`` are and every document key is a ``str``: the
    keys of one dict then differ as text."""
    entries = list(data.values())
    for topic, entry in data.items():
        if topic is None:
            raise InputError(f"{what} dict: a topic or document id is None")
        if type(entry) is not dict and not isinstance(entry, Mapping):
            raise InputError(f"{what} dict: topic {topic!r} maps to {type(entry).__name__}, "
                             "expected a dict {docno: value}")
    topics = [str(topic) for topic in data]
    counts = np.fromiter(map(len, entries), dtype=np.int64, count=len(entries))
    docs = list(chain.from_iterable(entries))
    values: list | np.ndarray
    try:  # one C loop, no list of millions of Python numbers
        values = np.fromiter(chain.from_iterable(entry.values() for entry in entries),
                             dtype=np.float64, count=len(docs))
    except (TypeError, ValueError):
        values = list(chain.from_iterable(entry.values() for entry in entries))
    else:
        values = _exact_beyond_floats(values, lambda: list(
            chain.from_iterable(entry.values() for entry in entries)))
    return _grouped(topics, counts, docs, values, f"{what} dict")


def _grouped(topics: list[str], counts: np.ndarray, docs: list, values: list | np.ndarray,
             what: str) -> tuple[Strings, Strings, list | np.ndarray,
                                 TopicBlocks | None, bool]:
    """The columns of rows grouped by topic (``counts[k]`` rows of ``topics[k]``, the
    documents ``docs`` and ``values`` in row order), the topics' blocks and whether the
    pairs are known to be distinct, as :func:`_flatten` says."""
    docno, all_str = _identifiers(docs, what)
    heads = _identifiers(topics, what)[0]
    if docno is None or heads is None:
        raise InputError(f"{what}: a topic or document id is None")
    topic = heads.take(np.repeat(np.arange(len(topics), dtype=np.int64), counts))
    blocks = None
    if len(set(topics)) == len(topics):
        filled = counts > 0
        blocks = TopicBlocks.distinct(np.concatenate(([0], np.cumsum(counts[filled]))),
                                      heads.filter(filled))
    return topic, docno, values, blocks, blocks is not None and all_str


def _ranx_columns(obj: Any, kind: str) -> tuple[Strings, Strings,
                                                 list | np.ndarray, TopicBlocks | None, bool]:
    """The rows of a ranx ``Qrels`` or ``Run`` as :func:`_flatten` gives a dict's.

    ranx holds ``{q_id: {doc_id: value}}`` in numba typed dicts (``.qrels`` / ``.run``), whose
    values cost a boxed Python object each when read from Python. Its own compiled
    ``to_typed_list()`` gives every topic's values at once, a float64 column beside the
    hashed doc ids, in the typed dict's order (it sorts an unsorted object first, as every
    ranx evaluation does): those columns are the values, the ids are read by topic
    (``list(keys)``); the labels are doubles there, as a dict's are read
    (:func:`_flatten`). An object without ``to_typed_list`` is read from its mapping."""
    columns = obj.to_typed_list() if callable(getattr(obj, "to_typed_list", None)) else None
    held = getattr(obj, kind)  # read after to_typed_list: it may replace it, sorted
    topics = list(held.keys())
    entries = [held[topic] for topic in topics]
    counts = np.fromiter(map(len, entries), dtype=np.int64, count=len(entries))
    if not counts.sum():
        raise EmptyInputError(f"empty ranx {kind.capitalize()}",
                              source=f"<ranx {kind.capitalize()}>")
    docs = list(chain.from_iterable(entry.keys() for entry in entries))
    if columns is not None:
        values = np.concatenate([np.asarray(pairs)[:, 1] for pairs in columns])
    else:
        values = np.array(list(chain.from_iterable(e.values() for e in entries)))
    return _grouped([str(topic) for topic in topics], counts, docs, values,
                    f"ranx {kind.capitalize()}")


def _identifiers(ids: list, what: str) -> tuple[Strings | None, bool]:
    """A list of ids as a :class:`Strings` column (``None`` when an id is ``None``), and
    whether every id was a ``str``.

    Strings are joined and encoded at once (:meth:`Strings.of`); when some ids are not
    strings, ``bytes`` that are all UTF-8 text (beside strings) are decoded, and otherwise
    every id becomes its ``str`` (ints ...). Text that cannot be encoded (a lone surrogate,
    from a file name decoded with ``surrogateescape``) raises :class:`InputError`."""
    try:
        return Strings.of(ids), True
    except TypeError:
        pass
    except UnicodeEncodeError:
        bad = next(i for i in ids if isinstance(i, str) and not _encodes(i))
        raise InputError(f"{what}: an id is not valid text (a lone surrogate): {bad!r}"
                         ) from None
    if any(i is None for i in ids):
        return None, False
    try:
        texts = [i.decode() if isinstance(i, bytes) else i for i in ids]
        return Strings.of(texts), False
    except (TypeError, UnicodeDecodeError):
        return Strings.of(list(map(str, ids))), False


def _encodes(text: str) -> bool:
    """True when ``text`` has a UTF-8 form (no lone surrogate)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def is_records(obj: Any) -> bool:
    """True for an iterator (such as ir_datasets' ``qrels_iter()``), read as namedtuples,
    or a non-empty list or tuple whose first item is a namedtuple (``_fields``), such as
    ir_datasets' ``TrecQrel`` or ``ScoredDoc``."""
    if isinstance(obj, Iterator):
        return True
    return (isinstance(obj, (list, tuple)) and not hasattr(obj, "_fields") and len(obj) > 0
            and isinstance(obj[0], tuple) and hasattr(obj[0], "_fields"))


def _records(rows: Any, value_names: Sequence[str], what: str, source: str
             ) -> tuple[Strings, Strings, np.ndarray | list]:
    """Topic, document and value columns of namedtuples ``rows`` of one type.

    Each column is gathered by ``map(itemgetter(k), rows)`` (a C loop, no Python code per
    row) and converted once; rows of several types (whose fields could differ) and items
    that are not namedtuples are refused. Field names as the DataFrame columns
    (``query_id``/``qid``, ``doc_id``/``docno``, ``relevance``/``rel`` or ``score``)."""
    rows = rows if isinstance(rows, list) else list(rows)
    if not rows:
        raise EmptyInputError(f"empty {what} list", source=source)
    kinds = set(map(type, rows))
    if len(kinds) > 1 or not hasattr(rows[0], "_fields"):
        names = sorted(kind.__name__ for kind in kinds)
        raise InputError(f"{what} list: expected namedtuples of one type (e.g. ir_datasets' "
                         f"TrecQrel or ScoredDoc), got {', '.join(names[:4])}", source=source)
    fields: tuple[str, ...] = rows[0]._fields
    positions = {name: k for k, name in enumerate(fields)}

    def field(names: Sequence[str], kind: str) -> int:
        for name in names:
            if name in positions:
                return positions[name]
        raise InputError(f"{what} namedtuple {type(rows[0]).__name__} has no {kind} field: "
                         f"expected one of {', '.join(names)}, got {', '.join(fields)}",
                         source=source)

    t, d = field(TOPIC_COLUMNS, "topic"), field(DOC_COLUMNS, "document")
    v = field(value_names, "value")
    topic, docno = (_identifiers(list(map(itemgetter(k), rows)), f"{what} list")[0]
                    for k in (t, d))
    if topic is None or docno is None:
        raise InputError(f"{what} list: a topic or document id is None", source=source)
    given = list(map(itemgetter(v), rows))
    values: np.ndarray | list = given
    try:  # one conversion; _numbers names the first row that is not a number otherwise
        values = _exact_beyond_floats(np.array(given, dtype=np.float64), lambda: given)
    except (TypeError, ValueError):
        pass
    return topic, docno, values


def qrels_from_records(rows: Any, *, duplicates: DuplicatePolicy = "error",
                       source: str = "<qrels list>") -> Qrels:
    """Qrels from namedtuples with ``query_id``, ``doc_id`` and ``relevance`` fields
    (ir_datasets' ``TrecQrel``, ``GenericQrel``; a list or any iterable)."""
    topic, docno, values = _records(rows, _REL, "qrels", source)
    return _make_qrels(topic, docno, values, duplicates, source)


def run_from_records(rows: Any, *, name: str = "run", duplicates: DuplicatePolicy = "error",
                     source: str = "<run list>") -> Run:
    """A run from namedtuples with ``query_id``, ``doc_id`` and ``score`` fields
    (ir_datasets' ``ScoredDoc``, ``GenericScoredDoc``; a list or any iterable)."""
    topic, docno, values = _records(rows, SCORE_COLUMNS, "run", source)
    return make_run(topic, docno, values, name, duplicates, source)


def _frame_identifiers(frame, column: str, what: str, source: str) -> Strings:
    """A DataFrame column of identifiers as a :class:`Strings` column, without a Python
    list of new strings when the column holds strings (integers become their decimal text,
    other values their ``str``). A missing value is an error naming its row."""
    import pandas as pd

    series = frame[column]
    missing = series.isna().to_numpy()
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise InputFormatError(f"missing {what} id in row {row}", source=source,
                               text=" ".join(map(str, frame.iloc[row].tolist())))
    if pd.api.types.is_integer_dtype(series.dtype):
        return Strings.of(series.to_numpy(np.int64).astype(str))
    values = series.to_numpy(dtype=object)
    try:
        return Strings.of(values)
    except TypeError:  # not all of them strings
        return Strings.of(series.astype(str).to_numpy(dtype=object))
    except UnicodeEncodeError:
        row, bad = next((k, v) for k, v in enumerate(values)
                        if isinstance(v, str) and not _encodes(v))
        raise InputFormatError(f"{what} id is not valid text (a lone surrogate) in row {row}: "
                               f"{bad!r}", source=source) from None


def _row_describer(
    topic: Strings, docno: Strings, values: Sequence | np.ndarray
) -> Callable[[int], tuple[None, str]]:
    """``(None, text)`` of a row, for error messages (in-memory rows have no line number)."""

    def describe(row: int) -> tuple[None, str]:
        return None, f"{topic[row]} {docno[row]} {values[row]}"

    return describe


def qrels_from_frame(frame, *, duplicates: DuplicatePolicy = "error",
                     source: str = "<qrels DataFrame>") -> Qrels:
    """Qrels from a DataFrame with topic, document and relevance columns."""
    if len(frame) == 0:
        raise about(EmptyInputError("empty qrels table", source=source), frame)
    t = find_column(frame.columns, TOPIC_COLUMNS, "topic", source)
    d = find_column(frame.columns, DOC_COLUMNS, "document", source)
    # ranx's qrels frames (q_id, doc_id, score) hold the label in their score column
    r = find_column(frame.columns, _REL + (_RANX_LABEL if t == "q_id" else ()), "relevance",
                source)
    return _make_qrels(_frame_identifiers(frame, t, "topic", source),
                       _frame_identifiers(frame, d, "document", source),
                       frame[r].to_numpy(), duplicates, source)


def qrels_from_dict(data: Mapping[str, Mapping[str, int]], *,
                    duplicates: DuplicatePolicy = "error", source: str = "<qrels dict>") -> Qrels:
    """Qrels from ``{topic: {docno: relevance}}`` (two keys of a topic can be one docno as
    text, ``1`` and ``"1"``: ``duplicates`` says which judgment is kept)."""
    topic, docno, values, blocks, distinct = _flatten(data, "qrels")
    if not len(values):
        raise EmptyInputError("empty qrels dict", source=source)
    return _make_qrels(topic, docno, values, duplicates, source, blocks, distinct)


def qrels_from_ranx(obj: Any, *, duplicates: DuplicatePolicy = "error") -> Qrels:
    """Qrels from a ranx ``Qrels`` (read column by column as :func:`_ranx_columns` says)."""
    topic, docno, values, blocks, distinct = _ranx_columns(obj, "qrels")
    return _make_qrels(topic, docno, values, duplicates, "<ranx Qrels>", blocks, distinct)


def _make_qrels(topic: Strings, docno: Strings, values, duplicates,
                source, blocks: TopicBlocks | None = None, distinct: bool = False) -> Qrels:
    """Qrels of the columns; ``blocks``: the topics' blocks when the caller knows them;
    ``distinct``: no (topic, docno) pair occurs twice (no duplicate check)."""
    numeric = _numbers(topic, docno, values, "relevance", source)
    bad = np.flatnonzero(~np.isfinite(numeric) | (numeric != np.round(numeric)))
    if len(bad):
        raise InputFormatError("relevance is not an integer", source=source,
                               text=_row_describer(topic, docno, values)(int(bad[0]))[1])
    big = np.abs(numeric) >= _FLOAT_INTEGERS
    rel = np.where(big, 0.0, numeric).astype(np.int64)
    if big.any():  # beyond float64's integers: the exact integers the input holds
        originals = values if isinstance(values, list) else np.asarray(values)
        for row in np.flatnonzero(big).tolist():
            exact = Fraction(originals[row].item() if isinstance(originals[row], np.generic)
                             else originals[row])
            if exact.denominator != 1 or not -2**63 < exact.numerator < 2**63:
                problem = ("is not an integer" if exact.denominator != 1 else
                           "is too large (integers must lie within ±9,223,372,036,854,775,807)")
                raise InputFormatError(f"relevance {problem}", source=source,
                                       text=_row_describer(topic, docno, values)(row)[1])
            rel[row] = exact.numerator
    keep = None if distinct else resolve_duplicates(topic, docno, rel, duplicates, source,
                                                    _row_describer(topic, docno, rel))
    if keep is not None:
        topic, docno, rel, blocks = topic.take(keep), docno.take(keep), rel[keep], None
    return Qrels(topic=topic, docno=docno, rel=rel, source=source, blocks=blocks)


def run_from_frame(frame, *, name: str = "run", duplicates: DuplicatePolicy = "error",
                   source: str = "<run DataFrame>") -> Run:
    """A run from a DataFrame with topic, document and score columns (``rank`` optional)."""
    if len(frame) == 0:
        raise about(EmptyInputError("empty run table", source=source), frame)
    t = find_column(frame.columns, TOPIC_COLUMNS, "topic", source)
    d = find_column(frame.columns, DOC_COLUMNS, "document", source)
    s = find_column(frame.columns, SCORE_COLUMNS, "score", source)
    rank = _rank_column(frame, source) if "rank" in frame.columns else None
    return make_run(_frame_identifiers(frame, t, "topic", source),
                     _frame_identifiers(frame, d, "document", source),
                     frame[s].to_numpy(), name, duplicates, source, rank)


def _rank_column(frame, source: str) -> np.ndarray:
    """The ``rank`` column as integers; :class:`InputFormatError` naming a row that is not."""
    import pandas as pd

    column = frame["rank"]
    if pd.api.types.is_integer_dtype(column.dtype) and not pd.api.types.is_bool_dtype(
            column.dtype):
        return column.to_numpy(np.int64)
    numeric = pd.to_numeric(column, errors="coerce").to_numpy(np.float64, na_value=np.nan)
    bad = np.flatnonzero(~np.isfinite(numeric) | (numeric != np.round(numeric))
                         | (np.abs(numeric) >= 2.0**63))
    if len(bad) or pd.api.types.is_bool_dtype(column.dtype):
        row = int(bad[0]) if len(bad) else 0
        raise InputFormatError(f"rank is not an integer in row {row}", source=source,
                               text=" ".join(map(str, frame.iloc[row].tolist())))
    return numeric.astype(np.int64)


def run_from_dict(data: Mapping[str, Mapping[str, float]], *, name: str = "run",
                  duplicates: DuplicatePolicy = "error", source: str = "<run dict>") -> Run:
    """A run from ``{topic: {docno: score}}`` (``duplicates`` as :func:`qrels_from_dict`)."""
    topic, docno, values, blocks, distinct = _flatten(data, "run")
    if not len(values):
        raise EmptyInputError("empty run dict", source=source)
    return make_run(topic, docno, values, name, duplicates, source, blocks=blocks,
                     distinct=distinct)


def run_from_ranx(obj: Any, *, name: str | None = None,
                  duplicates: DuplicatePolicy = "error") -> Run:
    """A run from a ranx ``Run`` (as :func:`qrels_from_ranx`), named ``name``, else as the
    ``Run`` is named (``.name``), else ``"run"``."""
    topic, docno, values, blocks, distinct = _ranx_columns(obj, "run")
    given = name or getattr(obj, "name", None) or "run"
    return make_run(topic, docno, values, str(given), duplicates, "<ranx Run>",
                     blocks=blocks, distinct=distinct)


def make_run(topic: Strings, docno: Strings, values, name, duplicates,
              source, rank=None, blocks: TopicBlocks | None = None, distinct: bool = False,
              runids: tuple[str, ...] = ()) -> Run:
    score = _numbers(topic, docno, values, "score", source)
    bad_rows = np.flatnonzero(~np.isfinite(score))
    if len(bad_rows):
        raise InputFormatError("score is not finite (NaN or infinite scores cannot be ranked)",
                               source=source,
                               text=_row_describer(topic, docno, values)(int(bad_rows[0]))[1])
    return assemble_run(topic, docno, score, rank, name=name, source=source,
                        runids=runids or (name,),
                        duplicates=duplicates, blocks=blocks, distinct=distinct,
                        describe_row=_row_describer(topic, docno, score))


def _numbers(topic: Strings, docno: Strings, values, what: str,
             source: str) -> np.ndarray:
    """``values`` as float64; :class:`InputFormatError` naming the first non-number."""
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        for i, value in enumerate(values):
            try:
                float(value)
            except (TypeError, ValueError):
                raise InputFormatError(f"{what} is not a number", source=source,
                                       text=_row_describer(topic, docno, values)(i)[1]
                                       ) from None
        raise

"""The labelled topics × systems (× measures) score array used by statistics and meta-evaluation.

A :class:`ScoreMatrix` is built from evaluation results (:func:`irscale.evaluate`), from a
tidy or wide DataFrame, or read from CSV files with one column per system and one row per
topic (the layout of the score matrices published with Urbano et al., SIGIR 2019)::

    >>> import numpy as np
    >>> m = ScoreMatrix.from_array(np.array([[0.1, 0.3], [0.2, 0.5]]), systems=["a", "b"])
    >>> m.shape, m.topics, m.systems
    ((2, 2, 1), ('1', '2'), ('a', 'b'))
    >>> m.mean().round(2).tolist()
    [0.15, 0.4]
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..errors import AlignmentError, InputError, InputFormatError, about, shown
from .notebook import HtmlRepr

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


class RowPlaces(Protocol):
    """Where every row of a table read from a file is (the reader's
    :class:`~irscale.io.user_tables.RowLines`)."""

    def where(self, label: Hashable) -> dict[str, Any]:
        """``source``, ``line`` and ``text`` of the row of ``label``."""


@dataclass(frozen=True, eq=False)
class ScoreMatrix(HtmlRepr):
    """Scores of ``systems`` on ``topics`` for ``measures``: ``values[t, s, m]``.

    The input of every statistical and meta-evaluation routine. Build one with
    :meth:`from_array`, :meth:`from_wide`, :meth:`from_frame`, :meth:`read_csv` or
    :meth:`irscale.evaluation.Evaluation.to_matrix`.

    Parameters
    ----------
    values : array_like
        A topics × systems or topics × systems × measures array of numbers.
    topics, systems, measures : sequence of str
        Unique labels of each axis (``measures`` defaults to ``("score",)``).

    Raises
    ------
    InputError
        A label count that does not match its axis, a duplicate label, or an array that
        is not 2- or 3-dimensional.
    InputFormatError
        Values that are not numbers.

    Notes
    -----
    Values are finite floats unless ``allow_missing`` was given to the constructor
    method that built the matrix (missing values are NaN); the plain constructor does not
    check them (:meth:`check_complete` does).

    Examples
    --------
    >>> m = ScoreMatrix.read_csv(b"topic,bm25,ql\\n401,0.25,0.5\\n402,0.75,0.5\\n",
    ...                          topic_column="topic", measure="ap")
    >>> m
    ScoreMatrix(2 topics × 2 systems × 1 measures ['ap'])
    >>> m.topics, m.systems, m.mean().tolist()
    (('401', '402'), ('bm25', 'ql'), [0.5, 0.5])
    >>> m.array().tolist()  # topics × systems
    [[0.25, 0.5], [0.75, 0.5]]
    >>> m.subset(systems=["ql"]).to_frame().to_dict()
    {'ql': {'401': 0.5, '402': 0.5}}
    """

    values: np.ndarray
    topics: tuple[str, ...]
    systems: tuple[str, ...]
    measures: tuple[str, ...] = ("score",)
    #: Where the row of every topic was read, per measure read from a score CSV
    #: (:class:`~irscale.io.user_tables.RowLines`): :meth:`where` names the file, line and
    #: text of a score. Kept by :meth:`measure` and :meth:`subset`; a matrix computed from
    #: another (standardised, evaluated) has none.
    lines: Mapping[str, RowPlaces] = field(default_factory=dict, repr=False)
    #: The file of every system's run (``<...>``: a run without one) and its run id, where
    #: the matrix was evaluated from runs (:meth:`irscale.evaluation.Evaluation.to_matrix`);
    #: empty otherwise. A system is then designated by its name, its file (path, file name
    #: or stem) or its run id, as every argument that names a run
    #: (:func:`irscale.io.naming.find_in`); without them, by its name. Kept by
    #: :meth:`measure` and :meth:`subset`; a matrix computed from another has none.
    sources: tuple[str, ...] = field(default=(), repr=False)
    runids: tuple[str, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        values = _as_numbers(self.values)
        if values.ndim == 2:
            values = values[:, :, None]
        if values.ndim != 3:
            raise InputError(f"a score matrix has 2 or 3 dimensions, got {values.ndim}")
        object.__setattr__(self, "values", values)
        for axis, (label, names) in enumerate(
            (("topics", self.topics), ("systems", self.systems), ("measures", self.measures))
        ):
            names = tuple(str(n) for n in names)
            object.__setattr__(self, label, names)
            if len(names) != values.shape[axis]:
                raise InputError(
                    f"{len(names)} {label} labels for an axis of length {values.shape[axis]}"
                )
            if len(set(names)) != len(names):
                seen: set[str] = set()
                for dup in names:
                    if dup in seen:
                        raise InputError(f"duplicate {label[:-1]} label {dup!r}")
                    seen.add(dup)
        for label, keys in (("sources", self.sources), ("runids", self.runids)):
            keys = tuple(str(key) for key in keys)
            object.__setattr__(self, label, keys)
            if keys and len(keys) != values.shape[1]:
                raise InputError(f"{len(keys)} {label} for {values.shape[1]} systems")

    # ---------------------------------------------------------------- construction
    @classmethod
    def from_array(
        cls,
        values: np.ndarray,
        *,
        topics: Sequence[str] | None = None,
        systems: Sequence[str] | None = None,
        measures: Sequence[str] | None = None,
        allow_missing: bool = False,
    ) -> ScoreMatrix:
        """A matrix from a (topics × systems) or (topics × systems × measures) array.

        Missing labels default to ``1..n`` (topics), ``s1..sn`` (systems), ``score``
        (``m1..mn`` for several measures). A NaN or infinite value raises
        :class:`~irscale.errors.InputError` naming it, unless ``allow_missing`` (NaN is
        then a missing value).

        >>> import numpy as np
        >>> m = ScoreMatrix.from_array(np.array([[0.1, 0.3], [0.2, 0.5]]), systems=["a", "b"])
        >>> m.topics, m.systems, m.measures
        (('1', '2'), ('a', 'b'), ('score',))
        >>> ScoreMatrix.from_array([[0.1, float("nan")]])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        irscale.errors.InputError: ...missing or non-finite score for topic '1', system 's2', ...
        """
        array = _as_numbers(values)
        if array.ndim == 2:
            array = array[:, :, None]
        if array.ndim != 3:
            raise InputError(f"a score matrix is topics × systems (× measures): 2 or 3 "
                             f"dimensions, got {array.ndim}")
        n_t, n_s, n_m = array.shape
        matrix = cls(
            array,
            tuple(topics) if topics is not None else tuple(str(i + 1) for i in range(n_t)),
            tuple(systems) if systems is not None else tuple(f"s{i + 1}" for i in range(n_s)),
            tuple(measures) if measures is not None else (("score",) if n_m == 1 else
                                                          tuple(f"m{i + 1}" for i in range(n_m))),
        )
        if not allow_missing:
            matrix.check_complete()
        return matrix

    @classmethod
    def from_wide(
        cls, frame: pd.DataFrame, *, measure: str = "score", allow_missing: bool = False
    ) -> ScoreMatrix:
        """A one-measure matrix from a DataFrame with one column per system, one row per topic.

        A table with no system or no topic, columns of booleans (flags, not scores) or
        columns of several levels (whose names would be tuples) is refused."""
        import pandas as pd

        if frame.shape[0] == 0 or frame.shape[1] == 0:
            raise about(InputError(f"the score table has {frame.shape[0]} topic row(s) and "
                                   f"{frame.shape[1]} system column(s): it needs at least one "
                                   "of each"), frame)
        if isinstance(frame.columns, pd.MultiIndex):
            raise InputError("the score table's columns have several levels: one column per "
                             "system, named by the system, is needed (flatten the columns, "
                             "or select one level)")
        flags = [str(c) for c, kind in frame.dtypes.items() if pd.api.types.is_bool_dtype(kind)]
        if flags:
            raise InputFormatError(f"the score table's column(s) {flags} hold booleans, not "
                                   "scores (convert them to numbers if they are scores)")
        try:
            values = frame.to_numpy(dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise InputFormatError(f"non-numeric score in the table: {error}") from None
        return cls.from_array(
            values,
            topics=[str(t) for t in frame.index],
            systems=[str(c) for c in frame.columns],
            measures=[measure],
            allow_missing=allow_missing,
        )

    @classmethod
    def from_frame(
        cls,
        frame: pd.DataFrame,
        *,
        system: str = "run",
        topic: str = "topic",
        measure: str = "measure",
        value: str = "value",
        allow_missing: bool = False,
    ) -> ScoreMatrix:
        """A matrix from a tidy DataFrame with one row per (system, topic, measure) value."""
        import pandas as pd

        missing = [c for c in (system, topic, measure, value) if c not in frame.columns]
        if missing:
            raise InputError(f"tidy score table lacks the column(s) {missing}")
        if frame.duplicated([system, topic, measure]).any():
            row = frame[frame.duplicated([system, topic, measure])].iloc[0]
            raise InputError(
                f"several values for system {row[system]!r}, topic {row[topic]!r}, "
                f"measure {row[measure]!r}"
            )
        systems = tuple(dict.fromkeys(frame[system].astype(str)))
        topics = tuple(dict.fromkeys(frame[topic].astype(str)))
        measures = tuple(dict.fromkeys(frame[measure].astype(str)))
        t_index = pd.Index(topics).get_indexer(frame[topic].astype(str))
        s_index = pd.Index(systems).get_indexer(frame[system].astype(str))
        m_index = pd.Index(measures).get_indexer(frame[measure].astype(str))
        values = np.full((len(topics), len(systems), len(measures)), np.nan)
        numbers = pd.to_numeric(frame[value], errors="coerce")
        bad = numbers.isna() & frame[value].notna()
        if bad.any():  # text (or another object) that is no number: named, never a NaN
            row = frame[bad].iloc[0]
            raise InputFormatError(
                f"non-numeric score {shown(row[value])} for system {row[system]!r}, topic "
                f"{row[topic]!r}, measure {row[measure]!r} (column {value!r})")
        values[t_index, s_index, m_index] = numbers.to_numpy(np.float64)
        return cls.from_array(
            values, topics=topics, systems=systems, measures=measures,
            allow_missing=allow_missing,
        )

    @classmethod
    def read_csv(
        cls,
        path: str | os.PathLike | bytes,
        *,
        measure: str | None = None,
        topic_column: str | bool | None = None,
        allow_missing: bool = False,
    ) -> ScoreMatrix:
        """Read a CSV file with a header of system names and one row per topic.

        ``path`` is a file (plain or gzip), ``-`` for standard input, or the bytes
        themselves. The first line must be the header; every row has as many
        comma-separated fields as the header. Topics are the values of ``topic_column``;
        without it, a column named ``topic``, ``topic_id``, ``topicid``, ``qid``,
        ``query_id``, ``queryid`` or ``query`` (any case) is taken as the topic column,
        with a warning saying so, and otherwise topics are the row numbers ``1..n``
        (``topic_column=False``: always the row numbers). The measure is named ``measure``
        or after the file (``adhoc8_ap.csv`` → ``adhoc8_ap``).

        Refused, with :class:`~irscale.errors.InputFormatError` naming the file, the line
        and the offending text: non-UTF-8 bytes, a first line of numbers (no header), an
        empty or duplicate column name (pandas would silently rename a second ``a`` to
        ``a.1``), a first column of distinct increasing integers not named as the topic
        column (topic ids read as a system), a row with more or fewer fields than the
        header, an empty or duplicate topic id, a non-numeric or non-finite score and,
        unless ``allow_missing`` (then NaN), a missing score (an empty cell, ``NA``,
        ``NaN``). An empty file or a header without data rows raises
        :class:`~irscale.errors.EmptyInputError`; an unreadable file
        :class:`~irscale.errors.FileAccessError`.
        """
        # The one upward import of core (see tests/test_layers.py): the reader is io's.
        from ..io import scores_csv

        table = scores_csv.read(path, topic_column=topic_column,
                                allow_missing=allow_missing)
        name = measure or table.measure
        try:
            return cls.from_array(table.values, topics=table.topics, systems=table.systems,
                                  measures=[name], allow_missing=allow_missing)
        except InputError as error:
            raise InputError(error.reason, source=table.source) from None

    # ---------------------------------------------------------------- access
    @property
    def shape(self) -> tuple[int, int, int]:
        return self.values.shape

    @property
    def n_topics(self) -> int:
        return self.values.shape[0]

    @property
    def n_systems(self) -> int:
        return self.values.shape[1]

    def check_complete(self) -> ScoreMatrix:
        """Raise :class:`InputError` naming the first missing or non-finite value."""
        bad = ~np.isfinite(self.values)
        if bad.any():
            t, s, m = (int(i[0]) for i in np.nonzero(bad))
            raise InputError(
                f"missing or non-finite score for topic {self.topics[t]!r}, system "
                f"{self.systems[s]!r}, measure {self.measures[m]!r}"
            )
        return self

    def measure(self, name: str | None = None) -> ScoreMatrix:
        """The one-measure matrix of ``name`` (or of the only measure)."""
        if name is None:
            if len(self.measures) != 1:
                raise InputError(
                    f"the matrix holds {len(self.measures)} measures {list(self.measures)}: "
                    "name one"
                )
            return self
        if name not in self.measures:
            raise InputError(f"no measure {name!r} in the matrix (has {list(self.measures)})")
        k = self.measures.index(name)
        return ScoreMatrix(self.values[:, :, k : k + 1], self.topics, self.systems, (name,),
                           {m: v for m, v in self.lines.items() if m == name},
                           self.sources, self.runids)

    def where(self, topic: str, measure: str) -> dict[str, Any]:
        """The file, line and text of ``topic``'s row of ``measure``, as the keywords of
        :class:`~irscale.errors.InputError`; empty for scores not read from a file."""
        lines = self.lines.get(measure)
        return {} if lines is None else lines.where(topic)

    def array(self, measure: str | None = None) -> np.ndarray:
        """The topics × systems array of one measure."""
        return self.measure(measure).values[:, :, 0]

    def subset(
        self,
        *,
        topics: Sequence[str] | None = None,
        systems: Sequence[str] | None = None,
        measures: Sequence[str] | None = None,
    ) -> ScoreMatrix:
        """The matrix restricted to (and ordered by) the given labels."""

        def pick(labels: tuple[str, ...], wanted: Sequence[str] | None, what: str):
            if wanted is None:
                return labels, slice(None)
            wanted = [str(w) for w in wanted]
            missing = [w for w in wanted if w not in labels]
            if missing:
                raise AlignmentError(f"unknown {what}: {missing[:5]}")
            index = {label: i for i, label in enumerate(labels)}
            return tuple(wanted), np.array([index[w] for w in wanted], dtype=np.intp)

        t_labels, t_idx = pick(self.topics, topics, "topics")
        s_labels, s_idx = pick(self.systems, systems, "systems")
        m_labels, m_idx = pick(self.measures, measures, "measures")
        values = self.values[t_idx][:, s_idx][:, :, m_idx]
        kept = range(self.n_systems)[s_idx] if isinstance(s_idx, slice) else s_idx.tolist()
        return ScoreMatrix(values, t_labels, s_labels, m_labels,
                           {m: v for m, v in self.lines.items() if m in m_labels},
                           *(tuple(keys[i] for i in kept) if keys else ()
                             for keys in (self.sources, self.runids)))

    def mean(self, measure: str | None = None) -> np.ndarray:
        """Mean score of every system over topics (one measure)."""
        return self.array(measure).mean(axis=0)

    def align(self, other: ScoreMatrix) -> tuple[ScoreMatrix, ScoreMatrix]:
        """Both matrices restricted to their common topics, in this matrix's order.

        Raises :class:`AlignmentError` when they share no topic.
        """
        common = [t for t in self.topics if t in set(other.topics)]
        if not common:
            raise AlignmentError("the two score matrices share no topic")
        return self.subset(topics=common), other.subset(topics=common)

    def to_frame(self, measure: str | None = None, *, tidy: bool = False) -> pd.DataFrame:
        """A wide DataFrame (topics × systems) of one measure, or the tidy table of all."""
        import pandas as pd

        if tidy:
            t, s, m = np.meshgrid(
                np.arange(self.n_topics), np.arange(self.n_systems),
                np.arange(len(self.measures)), indexing="ij",
            )
            return pd.DataFrame(
                {
                    "run": np.array(self.systems, dtype=object)[s.ravel()],
                    "topic": np.array(self.topics, dtype=object)[t.ravel()],
                    "measure": np.array(self.measures, dtype=object)[m.ravel()],
                    "value": self.values.ravel(),
                }
            )
        frame = pd.DataFrame(self.array(measure), index=list(self.topics),
                             columns=list(self.systems))
        frame.index.name = "topic"
        frame.columns.name = "run"
        return frame

    def _html_frame(self) -> pd.DataFrame:
        """A notebook shows each system's mean over topics on every measure (NaN: missing
        values left out)."""
        import pandas as pd

        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a system missing everywhere
            means = np.nanmean(self.values, axis=0)
        frame = pd.DataFrame(means, index=list(self.systems), columns=list(self.measures))
        frame.index.name = "system (mean over topics)"
        return frame

    def __repr__(self) -> str:
        return (
            f"ScoreMatrix({self.n_topics} topics × {self.n_systems} systems × "
            f"{len(self.measures)} measures {list(self.measures)[:4]})"
        )


def _as_numbers(values: object) -> np.ndarray:
    """``values`` as float64; an :class:`InputFormatError` quoting the first one that is
    no number (as written: ``'a'``, not numpy's ``np.str_('a')``)."""
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        reason = str(error)
    try:
        for value in np.asarray(values, dtype=object).ravel():
            try:
                float(value)
            except (TypeError, ValueError):
                reason = f"got {shown(value)}"
                break
    except (TypeError, ValueError):  # ragged nesting: numpy's reason stands
        pass
    raise InputFormatError(f"scores must be numbers, {reason}")

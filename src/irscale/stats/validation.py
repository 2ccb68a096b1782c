"""Input coercion and validation shared by every statistical routine.

Statistics take a :class:`~irscale.core.ScoreMatrix` (topics × systems, one measure), a wide
:class:`pandas.DataFrame` (one column per system, one row per topic) or a plain 2-D array;
two-system tests also take two vectors (arrays, or :class:`pandas.Series` indexed by topic,
which are aligned by topic id). Bad input raises an :mod:`irscale.errors` exception that
says what is wrong and where: a missing or non-finite score, topics that do not match,
constant data, fewer than two systems or topics.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Literal, cast, overload

import numpy as np

from ..core import ScoreMatrix
from ..core.params import CUTOFF, Integers
from ..core.params import check_alpha as check_alpha
from ..core.params import check_count as check_count
from ..errors import AlignmentError, InputError, ParameterError, about, shown
from ..io.naming import RunKey, find_run, run_keys

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

Alternative = Literal["two-sided", "greater", "less"]
ALTERNATIVES: tuple[str, ...] = ("two-sided", "greater", "less")

#: Relative tolerance deciding ties between values (ranks, zero differences, resampled
#: statistics equal to the observed one, differences constant on every topic): two values
#: are tied when they differ by at most ``TIE_RTOL`` times the largest absolute value
#: involved. It absorbs floating-point noise such as ``0.3 - 0.1 != 0.2`` and is far below
#: the resolution of any IR measure. The noise it must absorb: a double holds a score to
#: within ε/2 of its value (ε = 2⁻⁵² ≈ 2.2e-16, the machine epsilon), a subtraction
#: x − y adds at most ε/2 · |x − y| ≤ ε · max(|x|, |y|) (Higham, 2002, §2.2), and a score
#: computed as a mean or sum of m terms carries up to about m · ε · |score| (§4.2: recursive
#: summation); 1e-10 ≈ 4.5e5 ε covers scores summed over hundreds of thousands of
#: documents, while every IR measure resolves differences far above 1e-10.
TIE_RTOL = 1e-10


@overload
def tie_tolerance(*arrays: np.ndarray, axis: None = None) -> float: ...


@overload
def tie_tolerance(*arrays: np.ndarray, axis: int) -> np.ndarray: ...


def tie_tolerance(*arrays: np.ndarray, axis: int | None = None) -> float | np.ndarray:
    """Absolute tie tolerance for values computed from ``arrays`` (see :data:`TIE_RTOL`):
    ``TIE_RTOL`` × the largest absolute value of them all (a float), or with ``axis=0``
    one tolerance per column of (n × k) arrays (their largest absolute value down the
    column), so that a column pair's ties do not depend on the other columns beside it."""
    if axis is None:
        scale = max((float(np.max(np.abs(a))) for a in arrays if np.size(a)), default=0.0)
        return TIE_RTOL * scale
    scales = [np.max(np.abs(np.asarray(a, dtype=np.float64)), axis=axis, initial=0.0)
              for a in arrays]
    return TIE_RTOL * np.maximum.reduce(np.broadcast_arrays(*scales))


def constant_columns(values: np.ndarray, tol: np.ndarray | float) -> np.ndarray:
    """Per column of ``values`` (n × k), whether it is constant up to rounding: its spread
    max − min is at most ``tol`` (:func:`tie_tolerance` of the scores the values come from,
    not of the values themselves: differences of large scores carry the scores' noise).
    Then its sample variance is rounding noise, not a variance (0.3 − 0.1 and 0.4 − 0.2
    differ by 2.8e-17: a standard deviation of 2e-17 and a t statistic of 1e16)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.ptp(values, axis=0) <= tol


def tied_differences(run: np.ndarray, baseline: np.ndarray) -> np.ndarray:
    """``run − baseline`` elementwise, differences within :func:`tie_tolerance` of the two
    arrays (column by column) counting as 0 (floating-point noise, not a win or a loss)."""
    delta = np.asarray(run, dtype=np.float64) - np.asarray(baseline, dtype=np.float64)
    return np.where(np.abs(delta) <= tie_tolerance(run, baseline, axis=0), 0.0, delta)


def wins_ties_losses(run: np.ndarray, baseline: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of topics × systems arrays, the topics where ``run`` beats ``baseline``,
    ties with it and loses to it (:func:`tied_differences` > 0, = 0, < 0): PyTerrier's
    ``baseline=`` counts (``+``/``-``), the wins/losses of risk-sensitive evaluation.

    >>> wins_ties_losses(np.array([[0.5], [0.3 - 0.1], [0.1]]),
    ...                  np.array([[0.25], [0.2], [0.5]]))
    (array([1]), array([1]), array([1]))
    """
    delta = tied_differences(run, baseline)
    return (delta > 0).sum(axis=0), (delta == 0).sum(axis=0), (delta < 0).sum(axis=0)


def check_alternative(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise ParameterError(
            f"alternative must be one of {list(ALTERNATIVES)}, got {alternative!r}"
        )
    return alternative


def check_counts(values: object, name: str, what: str, domain: Integers = CUTOFF) -> list[int]:
    """``values`` (a non-empty sequence, none twice) as ints of ``domain`` (default: ≥ 1);
    ``what`` names one value in messages (``"a cut-off"``, ``"a split size"``). Every
    error is about the parameter ``name`` (:attr:`ParameterError.param`)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence | np.ndarray):
        raise ParameterError(f"{name} must be a list of integers, got {values!r}", param=name)
    try:
        counts = [domain.check(v, f"{name}: {what}") for v in values]
    except ParameterError as error:
        error.param = name
        raise
    noun = what.removeprefix("a ")
    if not counts:
        raise ParameterError(f"{name} is empty: give at least one {noun}", param=name)
    twice = sorted({v for v in counts if counts.count(v) > 1})
    if twice:
        raise ParameterError(f"{name} lists the {noun}(s) {twice} twice", param=name)
    return counts


def check_choice(value: str, choices: Sequence[str], name: str) -> str:
    if value not in choices:
        raise ParameterError(f"{name} must be one of {list(choices)}, got {shown(value)}")
    return value


#: Smallest largest-|score| of a table: below, squares of differences underflow (variances
#: of 0 and infinite statistics).
SMALLEST_SCALE = 1e-140


def chosen_measures(measure: str | None, measures: str | Sequence[str] | None
                    ) -> list[str] | None:
    """The measures given to a function that tests several: ``measures`` (one name or a
    list of names, as :func:`irscale.evaluate` takes them) or ``measure`` (one name, the
    keyword of the tests of one measure: ``pairwise_tests(m, measure="AP")`` as
    ``tukey_hsd(m, measure="AP")``); None when neither is given (every measure). Both at
    once, a ``measure`` that is not one name, or a list of no name is a
    :class:`~irscale.errors.ParameterError`."""
    if measure is not None and measures is not None:
        raise ParameterError("give measure= (one measure) or measures= (one or several), "
                             "not both", param="measure")
    if measure is not None:
        if not isinstance(measure, str):
            raise ParameterError(f"measure: expected one measure name, got "
                                 f"{shown(measure)}; several go in measures=[...]",
                                 param="measure")
        return [measure]
    if measures is None:
        return None
    names = [measures] if isinstance(measures, str) else list(measures)
    if not names:
        raise ParameterError("measures= names no measure: name at least one, or leave it "
                             "out to test every measure", param="measures")
    return names


def check_magnitude(values: np.ndarray, what: str = "the scores") -> None:
    """Raise :class:`InputError` when scores are so large that the sums of squares of the
    statistics would overflow 64-bit floats (and give inf or NaN results), or so small
    (all below :data:`SMALLEST_SCALE` in absolute value, but not all 0) that their squares
    underflow to 0.

    The largest intermediate sums are sums of squared differences of two scores over every
    value, weighted by up to n resampling counts: they stay finite when
    |score| ≤ sqrt(max float / (64 · size · n)) (about 1e150 for TREC-size tables).
    """
    values = np.asarray(values, dtype=np.float64)
    finite = np.abs(values[np.isfinite(values)])
    if not finite.size:
        return
    scale = float(finite.max())
    rows = values.shape[0] if values.ndim else 1
    limit = math.sqrt(np.finfo(np.float64).max / (64.0 * values.size * max(rows, 1)))
    if scale > limit:
        raise InputError(
            f"scores too large: sums of squares of {what} would overflow 64-bit floats "
            f"(largest |score| {scale:.3g}, at most {limit:.3g} here); rescale the scores"
        )
    if 0.0 < scale < SMALLEST_SCALE:
        raise InputError(
            f"scores too small: squares of {what} would underflow to 0 in 64-bit floats "
            f"(largest |score| {scale:.3g}, at least {SMALLEST_SCALE:g} needed); rescale the "
            "scores"
        )


def score_table(
    data: object,
    measure: str | None = None,
    *,
    min_systems: int = 2,
    min_topics: int = 2,
) -> tuple[np.ndarray, tuple[str, ...], tuple[str, ...]]:
    """The (topics × systems) array of ``data`` with its topic and system labels.

    ``data`` is a :class:`ScoreMatrix` (``measure`` picks one of its measures), a wide
    DataFrame or a 2-D array-like. Raises :class:`InputError` for missing or non-finite
    scores and for fewer than ``min_systems`` systems or ``min_topics`` topics.
    """
    if isinstance(data, ScoreMatrix):
        matrix = data.measure(measure)  # an unknown measure is the measure's error
    try:
        if is_pandas(data, "DataFrame"):
            matrix = ScoreMatrix.from_wide(cast("pd.DataFrame", data), allow_missing=True)
        elif not isinstance(data, ScoreMatrix):
            array = as_floats(data, "the score table")
            if array.ndim != 2:
                raise InputError(f"expected a topics × systems score table (2-D), got "
                                 f"{array.ndim} dimension(s)")
            matrix = ScoreMatrix.from_array(array, allow_missing=True)
        matrix.check_complete()
        values = matrix.values[:, :, 0]
        check_magnitude(values)
        if matrix.n_systems < min_systems:
            raise InputError(
                f"at least {min_systems} systems are needed, got {matrix.n_systems}"
            )
        if matrix.n_topics < min_topics:
            raise InputError(f"at least {min_topics} topics are needed, got "
                             f"{matrix.n_topics}")
    except InputError as error:
        about(error, data)
        raise
    return values, matrix.topics, matrix.systems


def check_not_constant(values: np.ndarray, what: str = "the scores") -> None:
    """Raise :class:`InputError` when every value is the same (no variance to analyse)."""
    with np.errstate(over="ignore", invalid="ignore"):
        spread = float(np.ptp(values)) if values.size else 0.0
    if values.size and spread <= tie_tolerance(values):
        raise InputError(
            f"{what} are constant (every value is {float(values.flat[0])!r}): "
            "there is no variance to analyse"
        )


def is_pandas(value: object, kind: str) -> bool:
    """Whether ``value`` is a pandas object of the class ``kind`` (``DataFrame``,
    ``Series``), asked without importing pandas: only a loaded pandas can have made one."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(value, getattr(pandas, kind))


def as_floats(values: object, name: str) -> np.ndarray:
    """``values`` as an array of 64-bit floats; an iterator (a generator) is read once.
    Anything that holds no numbers (text, None, objects) is an :class:`InputError` naming
    ``name``, not numpy's ``ValueError``/``TypeError``."""
    if isinstance(values, Iterator):
        values = list(values)
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise about(InputError(f"{name} must hold numbers: {error}"), values) from None


def _vector(values: object, name: str) -> tuple[np.ndarray, pd.Index | None]:
    index = values.index if is_pandas(values, "Series") else None  # type: ignore[attr-defined]
    array = as_floats(values, name)
    if array.ndim != 1:
        raise about(InputError(f"{name} must be one-dimensional, got shape {array.shape}"),
                    values)
    bad = np.flatnonzero(~np.isfinite(array))
    if len(bad):
        where = f"topic {index[bad[0]]!r}" if index is not None else f"position {bad[0]}"
        raise InputError(f"missing or non-finite score in {name} at {where}")
    check_magnitude(array, f"the scores of {name}")
    return array, index


def _align(x: pd.Series, y: pd.Series, labels: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    xi = x.index.astype(str)
    yi = y.index.astype(str)
    if xi.has_duplicates or yi.has_duplicates:
        raise AlignmentError("duplicate topic ids in the paired scores")
    only_x = xi.difference(yi)
    only_y = yi.difference(xi)
    if len(only_x) or len(only_y):
        raise AlignmentError(
            f"paired scores must cover the same topics: {len(only_x)} topic(s) only for "
            f"{labels[0]!r} {list(only_x[:5])}, {len(only_y)} only for {labels[1]!r} "
            f"{list(only_y[:5])}"
        )
    import pandas as pd

    yv = pd.Series(y.to_numpy(), index=yi).reindex(xi).to_numpy(np.float64)
    return x.to_numpy(np.float64), yv


def two_samples(
    x: object,
    y: object = None,
    *,
    paired: bool,
    systems: Sequence[str] | None = None,
    measure: str | None = None,
) -> tuple[np.ndarray, np.ndarray, tuple[str, str]]:
    """The two score vectors of a two-system comparison and their system labels.

    Either ``x`` is a :class:`ScoreMatrix` / wide DataFrame / 2-D array and ``systems``
    names the two columns to compare (default: its only two systems), or ``x`` and ``y``
    are the two score vectors. Paired vectors must have the same length; paired
    :class:`pandas.Series` are aligned by topic id and must cover the same topics.
    """
    if y is None:
        values, _, names = score_table(x, measure, min_topics=1)
        if systems is None:
            if len(names) != 2:
                raise InputError(
                    f"the score table holds {len(names)} systems: name the two to compare"
                )
            pick = (0, 1)
        else:
            if len(systems) != 2:
                raise ParameterError(f"name exactly two systems, got {list(systems)}")
            # a system's name, or its run's file or run id where the matrix knows them
            keys = run_keys(x) if isinstance(x, ScoreMatrix) else \
                [RunKey(name) for name in names]
            found = [find_run(str(s), keys, "systems") for s in systems]
            pick = (names.index(found[0]), names.index(found[1]))
        xs, ys = values[:, pick[0]], values[:, pick[1]]
        labels = (names[pick[0]], names[pick[1]])
    else:
        given = tuple(str(s) for s in systems) if systems is not None else ("x", "y")
        if len(given) != 2:
            raise ParameterError(f"name exactly two systems, got {list(given)}")
        labels = (given[0], given[1])
        xs, _ = _vector(x, labels[0])
        ys, _ = _vector(y, labels[1])
        if paired and is_pandas(x, "Series") and is_pandas(y, "Series"):
            xs, ys = _align(x, y, labels)  # type: ignore[arg-type]
    if paired and len(xs) != len(ys):
        raise AlignmentError(
            f"paired scores need one value per topic for both systems: "
            f"{len(xs)} for {labels[0]!r}, {len(ys)} for {labels[1]!r}"
        )
    for values, label in ((xs, labels[0]), (ys, labels[1])):
        if len(values) < 2:
            raise InputError(f"at least 2 topics are needed, system {label!r} has {len(values)}")
    return xs, ys, (labels[0], labels[1])

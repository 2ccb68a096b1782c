"""The one result protocol of :mod:`irscale.stats` and :mod:`irscale.meta`.

Every statistical result speaks scipy's language (``scipy.stats.ttest_rel`` and
``scipy.stats.tukey_hsd`` are the models) plus irscale's tables:

``statistic``
    the test statistic or the estimate (a number; an array of one value per pair for
    results that hold a family of pairs);
``pvalue``
    the p-value (array for families); ``None`` for an estimate that is not a test
    (a correlation coefficient, an effect size);
``confidence_interval(confidence_level=0.95)``
    where defined: a :class:`ConfidenceInterval` with ``.low`` and ``.high`` (arrays for
    families), at any level (the default is 0.95 as in scipy, whatever α the result was
    computed with);
``effect_size``
    where defined: the standardised effect of the result;
``to_frame()``
    a :class:`pandas.DataFrame` with every value at full precision;
``format(fmt="text", *, digits=4)``
    the result as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table.

A test of one hypothesis (two systems, a rank test, an assumption check, document
sampling) unpacks as scipy's does: ``statistic, pvalue = result`` (:class:`Unpacks`).

Results that are reports rather than one inference (topic-splitting studies, leave-one-out,
the Ferrante et al. (2021) tables...) have ``to_frame()`` and ``format(fmt)`` only. Older attribute
names (``p``, ``f``, ``tau``, ``ext``, ``estimate``, ``ci_low``...) stay as aliases.

Functions that returned a bare ``float`` (``irscale.meta.tau_ap``, ``spearman``,
``correlation``, ``overall_correlation``...) return an :class:`Estimate`: a ``float``
subclass — it compares, computes, formats and serialises exactly as the float it was —
that also has ``statistic``, ``pvalue``, ``to_frame()`` and ``format()``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np

from ..core.edge import keyword_error
from ..core.notebook import HtmlRepr
from ..core.numbers import Meaning, declare
from ..errors import ParameterError, shown
from .tables import Format, check_digits, render

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..core.numbers import Table

__all__ = ["ConfidenceInterval", "Estimate", "TableResult", "Unpacks", "Untested",
           "check_confidence_level", "format_table"]


class ConfidenceInterval(NamedTuple):
    """A confidence interval, as scipy's: ``.low`` and ``.high`` (numbers, or arrays of one
    value per pair). A named tuple, so ``low, high = result.confidence_interval()`` works
    too; one-sided intervals have an infinite end."""

    low: Any
    high: Any


def check_confidence_level(confidence_level: object) -> float:
    """``confidence_level`` as a float in the open interval (0, 1)."""
    try:
        value = float(confidence_level)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ParameterError(f"confidence_level must be a number in (0, 1), got "
                             f"{confidence_level!r}") from None
    if isinstance(confidence_level, (bool, np.bool_)) or not 0.0 < value < 1.0:
        raise ParameterError(f"confidence_level must lie in (0, 1), got {shown(confidence_level)}")
    return value


def format_table(frame: Table, fmt: Format = "text", *, digits: int = 4,
                 title: str | None = None) -> str:
    """``frame`` rendered as every result's ``format`` does: ``text``/``markdown``/``latex``
    round to ``digits`` and show ``title``; ``csv``/``json`` keep full precision."""
    digits = check_digits(digits)
    return render(frame, fmt, digits=digits,
                  title=None if fmt in ("csv", "json") else title)


class Unpacks:
    """The unpacking of scipy's test results: ``statistic, pvalue = result``
    (``t, p = irscale.stats.paired_t(x, y)`` as ``t, p = scipy.stats.ttest_rel(x, y)``)."""

    statistic: Any
    pvalue: Any

    def __iter__(self) -> Iterator[Any]:
        return iter((self.statistic, self.pvalue))


class Untested(HtmlRepr):
    """The protocol of a result that measures and does not test (a rank correlation, a
    similarity, a distance): ``statistic`` is its field named by :attr:`statistic_field`,
    also ``float(result)``, and ``pvalue`` is ``None``."""

    #: The field that holds the statistic.
    statistic_field: ClassVar[str]

    @property
    def statistic(self) -> float:
        """The statistic (the field :attr:`statistic_field`)."""
        return getattr(self, self.statistic_field)

    @property
    def pvalue(self) -> None:
        """``None``: a measurement, not a test."""
        return None

    def __float__(self) -> float:
        return float(self.statistic)


class TableResult(HtmlRepr):
    """The protocol of a result whose table is its :meth:`to_frame`: :meth:`format`
    renders that table (a base of results that are one table)."""

    def to_frame(self) -> pd.DataFrame:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The result as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table of
        :meth:`to_frame` (``csv``/``json`` at full precision)."""
        return format_table(self.to_frame(), fmt, digits=digits)


def _rebuild(cls: type[Estimate], value: float, info: dict[str, Any]) -> Estimate:
    """An estimate of class ``cls`` unpickled (:meth:`Estimate.__reduce__`): made by
    :meth:`Estimate.__new__` itself, whatever the arguments of a subclass's own."""
    return Estimate.__new__(cls, value, **info)


class Estimate(float, HtmlRepr):
    """A number that is also a result: a ``float`` with the result protocol.

    It is the float it stands for — ``==``, arithmetic, ``math``/numpy functions, ``json``
    and f-strings treat it as that float, and its ``repr`` is the float's — so functions
    that returned a bare float return one without breaking their callers. ``kind`` names
    the estimate; subclasses declare more descriptive fields in ``_fields`` (an interval:
    :class:`irscale.meta.CorrelationCI`, :class:`irscale.collections.MeanEstimate`; a
    design: :class:`irscale.stats.effects.EffectSize`). It is irscale's one class of
    estimates: a result that is one number is an ``Estimate`` or a subclass that adds
    fields.
    """

    _fields: tuple[str, ...] = ("kind",)
    #: What the non-finite values of :meth:`to_frame`'s columns are
    #: (:mod:`irscale.core.numbers`): a subclass whose estimate can be undefined says why.
    _meanings: ClassVar[dict[str, Meaning]] = {}

    def __new__(cls, value: float, **info: Any) -> Estimate:
        error = keyword_error(cls.__name__, info, cls._fields)
        if error is not None:
            raise error
        obj = super().__new__(cls, value)
        for name in cls._fields:
            object.__setattr__(obj, name, info.get(name))
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), float(self), self.info))

    @property
    def info(self) -> dict[str, Any]:
        """The descriptive fields (``_fields``) as a dictionary."""
        return {name: getattr(self, name) for name in self._fields}

    @property
    def value(self) -> float:
        """The plain ``float``."""
        return float(self)

    @property
    def statistic(self) -> float:
        """The estimate itself (a plain ``float``)."""
        return float(self)

    @property
    def estimate(self) -> float:
        """The estimate itself (a plain ``float``; the name of the interval estimates)."""
        return float(self)

    @property
    def pvalue(self) -> float | None:
        """``None``: an estimate is not a test."""
        return None

    def _row(self) -> dict[str, object]:
        return {**self.info, "statistic": float(self)}

    def to_frame(self) -> pd.DataFrame:
        """One row: the descriptive fields and ``statistic``."""
        import pandas as pd

        return declare(pd.DataFrame([self._row()]), self._meanings)

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The estimate as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        return format_table(self.to_frame(), fmt, digits=digits)

    def describe(self) -> str:
        """A one-line description (the ``repr`` stays the float's)."""
        fields = ", ".join(f"{k}={v!r}" for k, v in self.info.items() if v is not None)
        return f"{type(self).__name__}({float(self)!r}{', ' if fields else ''}{fields})"


def interval_or_default(
    confidence_level: float, stored_level: float, stored: tuple[Any, Any],
    compute: Any,
) -> ConfidenceInterval:
    """The stored interval when ``confidence_level`` is the level it was computed at
    (bit-identical to the result's ``ci_low``/``ci_high``), else ``compute(level)``."""
    level = check_confidence_level(confidence_level)
    if math.isclose(level, stored_level, rel_tol=0.0, abs_tol=1e-12):
        return ConfidenceInterval(*stored)
    return ConfidenceInterval(*compute(level))

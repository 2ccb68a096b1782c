"""The runs × measures table of an evaluation's summaries, without pandas until a frame is
asked for.

:meth:`irscale.Evaluation.mean` (and the ``mean()`` of every result with summaries,
:class:`~irscale.measures.results.RunSummaries`) returns a :class:`Means`: the summary
value of every numeric measure for every run, as floats, in the evaluation's order (runs as
given, measures as the evaluation lists them). Its values, its ``repr`` (the table laid out
as pandas lays out a frame) and :meth:`Means.as_dict` need no pandas, so that a script that
evaluates dicts and prints the means pays for numpy only (``import pandas`` costs more than
the evaluation of a thousand topics). :attr:`Means.frame` (:meth:`Means.to_frame`) is the
pandas ``DataFrame`` earlier versions returned (index ``run``, columns ``measure``,
float64), built on first use; every other attribute and operator of a frame (``.loc``,
``.round(4)``, ``["map"]``, ``- other.mean()``, ``.equals(...)``) is the frame's, so code
written for the frame runs unchanged. A :class:`Means` is not a ``DataFrame`` instance:
``isinstance`` checks, ``pd.concat`` and ``pd.testing`` take :attr:`Means.frame`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from types import MethodType
from typing import TYPE_CHECKING, Any, cast

from ..errors import ParameterError, shorten

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import pandas as pd

#: pandas' ``display.precision``: the decimals a value is printed with before the zeros
#: every value of its column ends with are trimmed.
PRECISION = 6


class Means:
    """Runs × measures summary values (module documentation): ``runs``, ``measures`` and
    ``rows`` (one tuple of floats per run, a value per measure). Read-only: a frame to
    change is :meth:`to_frame` (a copy of :attr:`frame`)."""

    __slots__ = ("_frame", "measures", "rows", "runs")

    runs: tuple[str, ...]
    measures: tuple[str, ...]
    rows: tuple[tuple[float, ...], ...]

    def __init__(self, runs: Sequence[str], measures: Sequence[str],
                 rows: Sequence[Sequence[float]]) -> None:
        object.__setattr__(self, "runs", tuple(runs))
        object.__setattr__(self, "measures", tuple(measures))
        object.__setattr__(self, "rows", tuple(tuple(float(v) for v in row) for row in rows))
        object.__setattr__(self, "_frame", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Means is read-only (a frame to change: .to_frame()); "
                             f"cannot set {name!r}")

    def __setitem__(self, key: object, value: object) -> None:
        raise TypeError("Means is read-only: .to_frame() is a DataFrame to change")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Means, (self.runs, self.measures, self.rows))

    # ------------------------------------------------------------ without pandas
    def as_dict(self) -> dict[str, dict[str, float]]:
        """``{run: {measure: value}}``, in the table's order."""
        return {run: dict(zip(self.measures, row, strict=True))
                for run, row in zip(self.runs, self.rows, strict=True)}

    @property
    def shape(self) -> tuple[int, int]:
        """``(runs, measures)``, as a frame's."""
        return len(self.runs), len(self.measures)

    @property
    def values(self) -> np.ndarray:
        """The runs × measures float64 array (the frame's ``values``)."""
        import numpy as np

        return np.array(self.rows, dtype=np.float64).reshape(self.shape)

    def to_numpy(self, dtype: Any = None) -> np.ndarray:
        """:attr:`values` (as ``dtype``, a numpy data type, where given)."""
        if dtype is None:
            return self.values
        import numpy as np

        try:
            kind = np.dtype(dtype)
        except (TypeError, ValueError):
            raise ParameterError(f"dtype must be a numpy data type, such as float or "
                                 f"'float32', got {shorten(repr(dtype))}") from None
        return self.values.astype(kind)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.to_numpy(dtype)

    def __len__(self) -> int:  # a frame's length: its rows
        return len(self.runs)

    def __iter__(self) -> Iterator[str]:  # a frame iterates over its column labels
        return iter(self.measures)

    def __contains__(self, label: object) -> bool:
        return label in self.measures

    def __getitem__(self, key: Any) -> Any:
        """The frame's columns (``means["map"]``: a ``Series`` by run)."""
        return self.frame[_frame_of(key)]

    def __repr__(self) -> str:
        return table_text(self.runs, self.measures, self.rows)

    # ---------------------------------------------------------------- the frame
    @property
    def frame(self) -> pd.DataFrame:
        """The pandas ``DataFrame`` of the means (index ``run``, columns ``measure``,
        float64), built once (imports pandas)."""
        if self._frame is None:
            import pandas as pd

            frame = pd.DataFrame(self.values, index=pd.Index(list(self.runs), name="run"),
                                 columns=pd.Index(list(self.measures), name="measure"))
            object.__setattr__(self, "_frame", frame)
        return self._frame

    def to_frame(self) -> pd.DataFrame:
        """A copy of :attr:`frame`: the table as a pandas ``DataFrame`` (the result
        protocol's frame)."""
        return self.frame.copy()

    def _repr_html_(self) -> str:
        return str(cast(Any, self.frame)._repr_html_())

    def __getattr__(self, name: str) -> Any:
        """What a ``DataFrame`` has and a :class:`Means` does not define (``loc``,
        ``round``, ``to_string`` ...) is :attr:`frame`'s; a method's :class:`Means`
        arguments are their frames."""
        if name.startswith("_"):  # private or special: never the frame's (pickle, copy)
            raise AttributeError(name)
        try:
            found = getattr(self.frame, name)
        except AttributeError:
            raise AttributeError(f"'Means' object has no attribute {name!r} (nor has its "
                                 "frame)") from None
        # a method (not an indexer such as .loc, callable too)
        return _unwrapping(found) if isinstance(found, MethodType) else found

    def __dir__(self) -> list[str]:
        return sorted({*object.__dir__(self), *(n for n in dir(type(self.frame))
                                                if not n.startswith("_"))})


def _frame_of(value: Any) -> Any:
    """A :class:`Means` argument's frame; anything else as it is."""
    return value.frame if isinstance(value, Means) else value


def _unwrapping(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` with its :class:`Means` arguments replaced by their frames."""
    def call(*args: Any, **kwargs: Any) -> Any:
        return method(*map(_frame_of, args),
                      **{key: _frame_of(value) for key, value in kwargs.items()})
    return call


def _operator(name: str) -> Callable[..., Any]:
    def apply(self: Means, *others: Any) -> Any:
        return getattr(self.frame, name)(*map(_frame_of, others))
    apply.__name__ = name
    apply.__doc__ = f"The frame's ``{name}``."
    return apply


# a frame's operators: its arithmetic and its comparisons are element-wise (a frame)
for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv",
              "floordiv", "rfloordiv", "mod", "rmod", "pow", "rpow", "and", "rand", "or",
              "ror", "xor", "rxor", "eq", "ne", "lt", "le", "gt", "ge", "neg", "pos",
              "abs", "invert"):
    setattr(Means, f"__{_name}__", _operator(f"__{_name}__"))
Means.__hash__ = None  # type: ignore[assignment]  # equality is element-wise, as a frame's


def table_text(index: Sequence[str], columns: Sequence[str],
               rows: Sequence[Sequence[float]]) -> str:
    """A runs × measures table of floats as pandas prints a frame whose index is named
    ``run`` and columns ``measure`` (``DataFrame.to_string``, pandas' default options):
    each column's values with :data:`PRECISION` decimals, the zeros every value ends with
    trimmed (one decimal kept), in scientific notation where one is nonzero below
    ``10**-PRECISION``, or above 10⁶ and long; ``NaN``, ``inf``. Not shortened and not
    wrapped (pandas shortens a frame of more than 60 rows and wraps one wider than 80
    characters: :attr:`Means.frame` prints so)."""
    if not columns or not index:
        return (f"Empty DataFrame\nColumns: [{', '.join(columns)}]\n"
                f"Index: [{', '.join(index)}]")
    width = max(len(text) for text in ("measure", "run", *index))
    head, named = ["measure".ljust(width)], ["run".ljust(width)]
    body = [[str(label).ljust(width)] for label in index]
    for k, label in enumerate(columns):
        texts = column_texts([row[k] for row in rows])
        size = max(len(label) + 1, *(len(t) for t in texts))  # a sign place
        head.append(label.rjust(size))
        named.append(" " * size)
        for line, text in zip(body, texts, strict=True):
            line.append(text.rjust(size))
    return "\n".join(" ".join(line) for line in [head, named, *body])


def column_texts(values: Sequence[float]) -> list[str]:
    """One column's values as pandas formats floats (:func:`table_text`): a finite value
    with a sign place (a space or ``-``)."""
    finite = [abs(v) for v in values if math.isfinite(v)]
    numbers = [abs(v) for v in values if not math.isnan(v)]  # inf is large
    texts = _trim_zeros([f"{v: .{PRECISION}f}" if math.isfinite(v) else _special(v)
                         for v in values])
    small = any(0 < v < 10 ** -PRECISION for v in finite)
    large = any(v > 1e6 for v in numbers)
    if small or (large and max(map(len, texts)) > PRECISION + 6):
        return [f"{v: .{PRECISION}e}" if math.isfinite(v) else _special(v) for v in values]
    return texts


def _special(value: float) -> str:
    return "NaN" if math.isnan(value) else (" inf" if value > 0 else "-inf")


def _trim_zeros(texts: list[str]) -> list[str]:
    """The zeros every decimal number of a column ends with, trimmed (one decimal kept),
    as pandas trims them."""
    def decimal(text: str) -> bool:
        whole, dot, fraction = text.strip().lstrip("+-").partition(".")
        return bool(dot) and whole.isdigit() and (not fraction or fraction.isdigit())

    while (numbers := [t for t in texts if decimal(t)]) and \
            all(t.endswith("0") for t in numbers):
        texts = [t[:-1] if decimal(t) else t for t in texts]
    return [t + "0" if decimal(t) and t.endswith(".") else t for t in texts]


__all__ = ["Means"]

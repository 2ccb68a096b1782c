"""The measure registry: every measure family is one small module that registers itself.

A *family* (``P``, ``map``, ``ndcg_cut`` ...) is a kernel plus metadata, as in trec_eval's
measure table. The kernel receives the whole batch of judged rankings and the family's
parameters and returns, for every output name it produces (``P_5``, ``P_10`` ...), one value
per ranking. Kernels are vectorised over the batch: no Python loop per topic or document.

Writing a measure::

    @register(
        name="P",
        params=Cutoffs(5, 10, 15, 20, 30, 100, 200, 500, 1000),
        doc="Precision at cut-off k: |relevant in top k| / k (trec_eval m_P.c).",
    )
    def precision(jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext):
        return {f"P_{k}": hits_at(jr, k) / k for k in cutoffs}

Aggregation over topics follows trec_eval: ``mean`` (arithmetic mean over evaluated
topics, or over every qrels topic with ``-c``), ``sum`` (counts), ``gmean`` (geometric mean
with values floored at 1e-5, trec_eval's MIN_GEO_MEAN), ``count`` (number of topics
averaged over: num_q), ``runid`` (the run's name) and ``none`` (no summary value).
``per_query=False`` families print nothing per topic (num_q, runid, gm_map ...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from ..core.judged import JudgedRankings
from ..errors import MeasureError

Aggregate = Literal["mean", "sum", "gmean", "count", "runid", "none"]
ValueType = Literal["float", "int", "str"]

#: trec_eval's floor for values entering a geometric mean (MIN_GEO_MEAN).
MIN_GEO_MEAN = 0.00001


@dataclass(frozen=True)
class EvalContext:
    """Evaluation-wide settings that some measures depend on.

    ``compat`` is the trec_eval version profile (9 = 9.0.8, the default; 10 = 10.0).
    ``num_docs_in_coll`` is trec_eval's ``-N``; ``complete`` is ``-c``.
    """

    compat: int = 9
    num_docs_in_coll: int = 0
    complete: bool = False


# ------------------------------------------------------------------ parameter kinds
class ParamSpec:
    """How a family's parameter string (the part after '.' in trec_eval) is parsed."""

    default: Any = None

    def parse(self, text: str, family: str) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    def format(self, value: Any) -> str:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass(frozen=True)
class NoParams(ParamSpec):
    """The family takes no parameter."""

    default: Any = None

    def parse(self, text: str, family: str) -> Any:
        raise MeasureError(f"measure {family!r} takes no parameters, got {text!r}")

    def format(self, value: Any) -> str:
        return ""


@dataclass(frozen=True, init=False)
class Cutoffs(ParamSpec):
    """A comma-separated list of positive integer cut-offs, e.g. ``P.5,10``."""

    default: tuple[int, ...]

    def __init__(self, *default: int) -> None:
        object.__setattr__(self, "default", tuple(default))

    def parse(self, text: str, family: str) -> tuple[int, ...]:
        try:
            values = tuple(int(part) for part in text.split(","))
        except ValueError:
            raise MeasureError(
                f"measure {family!r}: cut-offs must be positive integers, got {text!r}"
            ) from None
        if not values or any(v <= 0 for v in values):
            raise MeasureError(f"measure {family!r}: cut-offs must be positive, got {text!r}")
        return tuple(sorted(set(values)))

    def format(self, value: tuple[int, ...]) -> str:
        return ",".join(str(v) for v in value)


@dataclass(frozen=True, init=False)
class Floats(ParamSpec):
    """A comma-separated list of numbers: ``iprec_at_recall.0.1,0.5``, ``utility.1,-1,0,0``."""

    default: tuple[float, ...]
    low: float | None = None
    high: float | None = None
    sort: bool = True

    def __init__(
        self, *default: float, low: float | None = None, high: float | None = None,
        sort: bool = True,
    ) -> None:
        object.__setattr__(self, "default", tuple(default))
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "sort", sort)

    def parse(self, text: str, family: str) -> tuple[float, ...]:
        try:
            values = tuple(float(part) for part in text.split(","))
        except ValueError:
            raise MeasureError(
                f"measure {family!r}: parameters must be numbers, got {text!r}"
            ) from None
        if not values or not all(np.isfinite(values)):
            raise MeasureError(f"measure {family!r}: parameters must be finite, got {text!r}")
        if (self.low is not None and min(values) < self.low) or (
            self.high is not None and max(values) > self.high
        ):
            raise MeasureError(
                f"measure {family!r}: parameters must lie in [{self.low}, {self.high}], "
                f"got {text!r}"
            )
        return tuple(sorted(set(values))) if self.sort else values

    def format(self, value: tuple[float, ...]) -> str:
        return ",".join(repr(v) for v in value)


@dataclass(frozen=True)
class GainMap(ParamSpec):
    """trec_eval's gain map for ndcg: ``level=gain`` pairs, e.g. ``ndcg.0=0,1=1,2=3``.

    The parsed value is a sorted tuple of ``(level, gain)`` pairs; an empty tuple means the
    default (gain = relevance level).
    """

    default: tuple[tuple[int, float], ...] = ()

    def parse(self, text: str, family: str) -> tuple[tuple[int, float], ...]:
        pairs = []
        for part in text.split(","):
            level, sep, gain = part.partition("=")
            try:
                if not sep:
                    raise ValueError
                pairs.append((int(level), float(gain)))
            except ValueError:
                raise MeasureError(
                    f"measure {family!r}: gain parameters are level=gain pairs, got {part!r}"
                ) from None
        return tuple(sorted(dict(pairs).items()))

    def format(self, value: tuple[tuple[int, float], ...]) -> str:
        return ",".join(f"{level}={gain:g}" for level, gain in value)


Kernel = Callable[[JudgedRankings, Any, EvalContext], Mapping[str, np.ndarray]]


@dataclass(frozen=True)
class Family:
    """A registered measure family (one trec_eval measure, or one of ours)."""

    name: str
    kernel: Kernel
    params: ParamSpec
    doc: str
    aggregate: Aggregate = "mean"
    value_type: ValueType = "float"
    per_query: bool = True
    #: Value given to topics missing from the run under trec_eval 10's ``-c`` (the
    #: placeholder ranking's value is replaced by this); ``None`` keeps the computed value.
    missing_value: float | None = None
    aliases: tuple[str, ...] = field(default=())

    def compute(
        self, jr: JudgedRankings, params: Any = None, ctx: EvalContext | None = None
    ) -> dict[str, np.ndarray]:
        """Evaluate the family on every ranking: ``{output name: values}``."""
        params = self.params.default if params is None else params
        return dict(self.kernel(jr, params, ctx or EvalContext()))


REGISTRY: dict[str, Family] = {}


def register(
    name: str,
    *,
    doc: str,
    params: ParamSpec | None = None,
    aggregate: Aggregate = "mean",
    value_type: ValueType = "float",
    per_query: bool = True,
    missing_value: float | None = None,
) -> Callable[[Kernel], Kernel]:
    """Class the decorated kernel as measure family ``name`` (see module docstring)."""

    def decorate(kernel: Kernel) -> Kernel:
        if name in REGISTRY:
            raise RuntimeError(f"measure family {name!r} registered twice")
        REGISTRY[name] = Family(
            name=name,
            kernel=kernel,
            params=params or NoParams(),
            doc=doc,
            aggregate=aggregate,
            value_type=value_type,
            per_query=per_query,
            missing_value=missing_value,
        )
        return kernel

    return decorate


def get_family(name: str) -> Family:
    """The registered family ``name``; :class:`MeasureError` listing close names otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        import difflib

        close = difflib.get_close_matches(name, list(REGISTRY), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise MeasureError(f"unknown measure {name!r}{hint}") from None


@dataclass(frozen=True)
class MeasureRequest:
    """One family evaluated with given parameters (and possibly its own relevance level).

    ``labels`` maps the family's output names to the names shown to the user; an empty
    mapping shows the family's own output names (trec_eval's names).
    """

    family: str
    params: Any = None
    relevance_level: int | None = None
    cutoff: int | None = None
    labels: tuple[tuple[str, str], ...] = ()
    requested: str = ""

    def with_labels(self, labels: Mapping[str, str]) -> MeasureRequest:
        return replace(self, labels=tuple(labels.items()))


def hits_at(jr: JudgedRankings, k: int) -> np.ndarray:
    """Number of relevant documents among the first ``k`` of each ranking."""
    return jr.segment_sum(jr.is_relevant & (jr.rank <= k))


def value_at_rank(jr: JudgedRankings, values: np.ndarray, k: np.ndarray, default=0):
    """``values`` at rank ``k_i`` of each ranking ``i`` (``default`` where k_i is out of range).

    ``k`` holds 1-based ranks, one per ranking.
    """
    k = np.asarray(k, dtype=np.int64)
    ok = (k >= 1) & (k <= jr.lengths)
    out = np.full(jr.n_rankings, default, dtype=np.asarray(values).dtype)
    out[ok] = values[jr.offsets[:-1][ok] + k[ok] - 1]
    return out


def safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator`` with 0 where the denominator is 0 (trec_eval's habit)."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.zeros(np.broadcast(numerator, denominator).shape)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def table_order(name: str) -> tuple[int, int]:
    """Sort key putting trec_eval's families in the order of its measure table."""
    from .trec_table import TREC_MEASURES

    if name in TREC_MEASURES:
        return (0, TREC_MEASURES.index(name))
    return (1, 0)

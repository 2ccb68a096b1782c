"""Checks of the evaluation options where they enter (trec_eval's ``-l``, ``-M``, ``-N``).

Every public function that judges runs takes these options and hands them to
:class:`RankingOptions` or :class:`~irscale.measures.base.EvalContext`,
which check them with :func:`integer_option` when they are built: a value that cannot be
meant is a :class:`~irscale.errors.ParameterError` naming the option as the command line
and the Python API spell it, and the range allowed. Kernels never check them again.
For example ``-l 0``: "relevance level (-l, relevance_level) must be an integer from 1 to
9223372036854775807, got 0". Loads no declaration (:mod:`irscale.core.params`): the
evaluation of trec_eval's measures checks its options here, and the command line's
declarations of these options are :mod:`irscale.core.trec_options`'.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InputError, ParameterError
from .option_values import DEFAULT_RELEVANCE_LEVEL as DEFAULT_RELEVANCE_LEVEL
from .option_values import INT64_MAX as INT64_MAX
from .option_values import RELEVANCE_LEVEL as RELEVANCE_LEVEL
from .records import record

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Literal, TypeAlias

#: How messages name ``-M`` and ``-N`` (``-l``: :data:`RELEVANCE_LEVEL`): as trec_eval's
#: options are named.
MAX_DOCS = "maximum number of documents per topic (-M, max_docs)"
NUM_DOCS_IN_COLL = "number of documents in the collection (-N, num_docs_in_coll)"

#: How documents with equal scores are ordered (:class:`RankingOptions`).
#: ``trec_eval``: docno descending (byte order), as trec_eval; ``file-order``: the order of
#: the run file (as NTCIREVAL and cwl_eval); ``rank-column``: by the file's rank column
#: (ascending) instead of the score, ties in file order.
TIE_ORDERS: tuple[str, ...] = ("trec_eval", "file-order", "rank-column")
#: The orders and ``expected``: the measures' tie-aware values, their expectations over
#: every order of the documents with equal scores (McSherry & Najork 2008;
#: ``rust/src/tie_aware.rs``), for the evaluation of judged rankings only.
TiePolicy: TypeAlias = 'Literal["trec_eval", "file-order", "rank-column", "expected"]'
TIE_POLICIES: tuple[str, ...] = (*TIE_ORDERS, "expected")
#: The tie policy of the tie-aware values.
EXPECTED = "expected"


def check_tie_order(ties: str, where: str) -> None:
    """A :class:`ParameterError` when ``ties`` is ``expected``, where only an order of the
    ties (:data:`TIE_ORDERS`) applies: the tie-aware values are the measures' of
    ``irscale eval`` and :func:`irscale.evaluate`, not ``where``'s."""
    if ties == EXPECTED:
        raise ParameterError(f"the tie policy 'expected' (tie-aware values) applies to the "
                             f"measures of irscale eval and irscale.evaluate, not to {where}: "
                             f"use one of {', '.join(TIE_ORDERS)}")


def integer_option(value: Any, name: str, *, low: int, high: int = INT64_MAX) -> int:
    """``value`` as an ``int`` when it is an integer in ``[low, high]`` (Python or numpy
    integers; not ``bool``); :class:`ParameterError` naming option ``name`` otherwise
    (:class:`~irscale.core.params.Integers`, ``strict``, which checks and words every value
    but a Python ``int`` in range: that one is taken here, so that the options of an
    evaluation are checked without loading the declarations' module)."""
    if type(value) is int and low <= value <= high:
        return value
    from .params import Integers  # (it imports nothing of this module: no circle)

    return Integers(low, high, strict=True).check(value, name)


def is_flag(value: Any) -> bool:
    """Whether ``value`` is True or False: a ``bool`` or numpy's ``bool_`` (recognised by
    its type's name, so that checking an option never imports numpy)."""
    kind = type(value)
    return isinstance(value, bool) or (kind.__module__ == "numpy"
                                       and kind.__name__ in ("bool", "bool_"))


def compat_option(value: Any) -> int:
    """``value`` when it names a trec_eval profile, 9 (9.0.8) or 10 (10.0) as a Python int
    (not ``bool``, not ``9.0``); :class:`ParameterError` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in (9, 10):
        raise ParameterError(f"compat must be 9 or 10, got {value!r}")
    return value


@record
class RankingOptions:
    """trec_eval's options that shape the judged rankings: ``relevance_level`` (``-l``, an
    integer ≥ 1), ``max_docs`` (``-M``, ``None`` or an integer from 1 to 2⁶³ − 1),
    ``judged_only`` (``-J``) and the tie policy; checked when built. ``compat``: the
    trec_eval whose scores the ``trec_eval`` tie policy compares, 9 (9.0.8: as C floats) or
    10 (10.0: as doubles).

    Ranking follows trec_eval 9.0.8 (``form_res_rels.c``): documents are sorted by score
    descending, ties broken by docno descending in byte order; ``max_docs`` keeps the first
    documents of that order; ``judged_only`` then removes documents that are not judged
    (keeping the order). 9.0.8 keeps scores as C floats (``TEXT_RESULTS.sim`` is a
    ``float``), so scores equal in single precision tie; 10.0 keeps them as doubles. The
    ``file-order`` and ``rank-column`` policies keep file order for ties, or rank by the
    file's rank column (:data:`TIE_POLICIES`). Runs are ranked so by the native engine
    (``rust/src/ties.rs``, :func:`irscale.core.judge.build_judged_rankings`)."""

    relevance_level: int = DEFAULT_RELEVANCE_LEVEL
    max_docs: int | None = None
    judged_only: bool = False
    ties: TiePolicy = "trec_eval"
    compat: int = 9

    def __post_init__(self) -> None:
        # trec_eval requires a positive level (every degree would be relevant otherwise, and
        # documents outside the qrels too below 0); -M 0 would evaluate empty rankings
        integer_option(self.relevance_level, RELEVANCE_LEVEL, low=1)
        if self.max_docs is not None:
            integer_option(self.max_docs, MAX_DOCS, low=1)
        compat_option(self.compat)
        if self.ties not in TIE_POLICIES:
            raise ParameterError(
                f"unknown tie policy {self.ties!r}: use one of {', '.join(TIE_POLICIES)}"
            )
        if self.ties == EXPECTED and self.max_docs is not None:
            raise ParameterError("--ties expected (ties='expected') does not apply with -M "
                                 "(max_docs): which documents the cut keeps depends on the "
                                 "order of the ties")


def check_run_names(runs: Sequence[str]) -> list[str]:
    """The names of the runs judged together: at least one, all distinct
    (:class:`~irscale.errors.InputError` otherwise)."""
    names = list(runs)
    if not names:
        raise InputError("no run to evaluate")
    if len(set(names)) != len(names):
        raise InputError(f"runs must have distinct names, got {names}")
    return names

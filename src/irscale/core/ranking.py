"""Ranking a run: the options that shape judged rankings (:class:`RankingOptions`).

Ranking follows trec_eval 9.0.8 (``form_res_rels.c``): documents are sorted by score
descending, ties broken by docno descending in byte order; ``max_docs`` (``-M``) keeps the
first documents of that order; ``judged_only`` (``-J``) then removes documents that are not
judged (keeping the order). 9.0.8 keeps scores as C floats (``TEXT_RESULTS.sim`` is a
``float``), so scores equal in single precision tie; 10.0 keeps them as doubles
(``RankingOptions.compat``). Runs are ranked so by the native engine (``rust/src/ties.rs``,
:func:`irscale.core.judge.build_judged_rankings`).

The ``file-order`` and ``rank-column`` tie policies keep file order for ties, or rank by
the file's rank column (:data:`irscale.core.options.TIE_POLICIES`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ParameterError
from .options import (
    MAX_DOCS,
    RELEVANCE_LEVEL,
    TIE_POLICIES,
    TiePolicy,
    compat_option,
    integer_option,
)


@dataclass(frozen=True)
class RankingOptions:
    """trec_eval's options that shape the judged rankings: ``relevance_level`` (``-l``, an
    integer ≥ 1), ``max_docs`` (``-M``, ``None`` or an integer from 1 to 2⁶³ − 1),
    ``judged_only`` (``-J``) and the tie policy; checked when built
    (:mod:`irscale.core.options`). ``compat``: the trec_eval whose scores the ``trec_eval``
    tie policy compares, 9 (9.0.8: as C floats) or 10 (10.0: as doubles)."""

    relevance_level: int = 1
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

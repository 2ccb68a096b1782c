"""Judged rankings from the arrays of the native engine (``irscale._engine.judge_trec_batch``).

The engine reads TREC qrels and run files from their bytes, ranks every run by the tie
policy and judges it (``rust/src/trec.rs``); its arrays are those of a
:class:`~irscale.core.judged.JudgedRankings`, built here as
:func:`irscale.core.judge.build_judged_rankings` builds it from ``Qrels`` and ``Run``
objects: rankings run by run, topics in byte order, ``degrees`` ``None`` when column ``g``
counts degree ``g``. The files are read by :mod:`irscale.io.native_trec`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .judged import JudgedRankings
from .options import RankingOptions, check_run_names


def judged_rankings(
    rel: np.ndarray,
    offsets: np.ndarray,
    rel_levels: np.ndarray,
    degrees: np.ndarray,
    dense: bool,
    ranking_topic: np.ndarray,
    ranking_run: np.ndarray,
    placeholder: np.ndarray,
    topics: Sequence[str],
    runs: Sequence[str],
    unjudged_topics: Sequence[Sequence[str]],
    options: RankingOptions,
    *,
    placeholders: bool = False,
    tie_groups: np.ndarray | None = None,
) -> JudgedRankings:
    """The :class:`JudgedRankings` of the engine's arrays for the runs named ``runs``
    (distinct names, as :func:`~irscale.core.judge.build_judged_rankings` requires);
    ``tie_groups``: the engine's tie group of each document (``--ties expected``)."""
    names = check_run_names(runs)
    return JudgedRankings(
        rel=rel,
        offsets=offsets,
        rel_levels=rel_levels,
        degrees=None if dense else degrees,
        ranking_topic=ranking_topic,
        ranking_run=ranking_run,
        topics=tuple(topics),
        runs=tuple(names),
        relevance_level=options.relevance_level,
        placeholder=placeholder if placeholders else None,
        unjudged_topics=tuple(tuple(found) for found in unjudged_topics),
        tie_groups=tie_groups,
    )

"""``irscale.fuse``: several runs combined into one (``docs/fusion.md``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ..core.inputs import Run
from ..core.params import (
    FUSION_K,
    FUSION_METHOD,
    FUSION_NORM,
    FUSION_RANK_METHODS,
    FUSION_WEIGHT,
)
from ..errors import ParameterError
from .methods import combine
from .normalize import normalize
from .table import FusionTable, fusion_table


def check_fusion(method: object, norm: object, n_runs: int, *, k: object = 60.0,
                 weights: object = None) -> tuple[str, str, float, list[float] | None]:
    """The fusion's parameters checked at the edge (``irscale:`` errors naming them):
    ``(method, norm, k, weights)`` canonical, ``norm`` resolved (min-max by default for a
    score method, none for a rank method, which refuses any other)."""
    if n_runs < 2:
        raise ParameterError(f"fusion needs two runs at least, got {n_runs}")
    method = str(FUSION_METHOD.check(method))
    rank_method = method in FUSION_RANK_METHODS
    norm = ("none" if rank_method else "min-max") if norm is None else FUSION_NORM.check(norm)
    if rank_method and norm != "none":
        raise ParameterError(f"norm: {method} reads each run's ranking only; a "
                             f"normalisation ({norm}) would change nothing or add unranked "
                             "documents: leave norm unset", param="norm")
    k = float(FUSION_K.check(k))
    if k != FUSION_K.default and method != "rrf":
        raise ParameterError(f"k applies to rrf only, not to {method}", param="k")
    if weights is not None:
        if method != "wsum":
            raise ParameterError(f"weights apply to wsum only, not to {method}",
                                 param="weights")
        if isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence | np.ndarray):
            raise ParameterError(f"weights must be a sequence of numbers, one per run, got "
                                 f"{weights!r}", param="weights")
        weights = [FUSION_WEIGHT.check(weight, "weights") for weight in weights]
        if len(weights) != n_runs:
            raise ParameterError(f"weights: {len(weights)} weights for {n_runs} runs (one "
                                 "per run, in order)", param="weights")
    return method, norm, k, weights


def fuse(runs: Any, method: str = "rrf", *, norm: str | None = None, k: float = 60.0,
         weights: Sequence[float] | None = None, name: str | None = None) -> Run:
    """Fuse several runs into one.

    Parameters
    ----------
    runs : run specs
        Two runs or more, as every irscale function reads them (paths, folders, glob
        patterns, ``Run`` objects, DataFrames, dicts ``{name: {topic: {docno: score}}}``,
        ranx runs: :func:`irscale.io.sources.as_runs`), in the order their weights follow.
    method : str, default "rrf"
        Score methods ``combsum``, ``combmnz``, ``combmax``, ``combmin``, ``combmed``,
        ``combanz``, ``wsum`` (the weighted sum); rank methods ``rrf``, ``isr``,
        ``log-isr``, ``bordafuse``, ``condorcet`` (ranx's ``sum``, ``mnz`` ... are
        accepted). Formulas and sources: ``docs/fusion.md``.
    norm : str, optional
        The score methods' normalisation per run and topic: ``none``, ``min-max``
        (default), ``max``, ``sum``, ``zmuv``, ``rank``, ``borda``. Rank methods take none.
    k : float, default 60
        RRF's constant (``rrf`` only).
    weights : sequence of float, optional
        ``wsum``: one weight per run (default 1 each).
    name : str, optional
        The fused run's name (default: the method's).

    Returns
    -------
    Run
        One row per (topic, document) retrieved by any run, over the union of the runs'
        topics (byte order); a topic's documents by fused score descending, ties by docno
        descending (as irscale ranks them).

    Raises
    ------
    ParameterError
        An unknown method or normalisation, a normalisation with a rank method, ``k``
        other than rrf's, weights other than wsum's or not one per run, fewer than two runs.
    InputError
        A run that cannot be read (file, line and text).

    Examples
    --------
    >>> a = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    >>> b = {"q1": {"d3": 9.0, "d1": 5.0}}
    >>> fused = fuse({"a": a, "b": b}, method="rrf")
    >>> fused.docno.to_pylist(), fused.score.round(6).tolist()
    (['d1', 'd3', 'd2'], [0.032522, 0.032266, 0.016129])
    """
    from ..io.sources import as_runs

    read = as_runs(runs)
    method, norm, k, weights = check_fusion(method, norm, len(read), k=k, weights=weights)
    table = normalize(fusion_table(read), norm)
    return fused_run(table, combine(table, method, k=k, weights=weights), name or method)


def fused_run(table: FusionTable, fused: np.ndarray, name: str) -> Run:
    """The run of the fused scores of ``table``'s pairs: topics in byte order, a topic's
    documents by score descending, ties by docno descending."""
    order = np.lexsort((-table.doc_order[table.pair_doc], -fused, table.pair_topic))
    topics = pa.array(table.topics, type=pa.string())
    return Run(name=name,
               topic=pa.chunked_array([topics.take(pa.array(table.pair_topic[order]))]),
               docno=pa.chunked_array([table.docnos.take(pa.array(table.pair_doc[order]))]),
               score=fused[order], source=f"<{name}: fused>")

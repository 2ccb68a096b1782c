"""``irscale.fuse``: several runs combined into one (``docs/fusion.md``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.inputs import Run
from ..core.params import check_fusion, check_weight_count
from ..core.strings import Strings
from .methods import combine
from .normalize import normalize
from .table import FusionTable, fusion_table


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

    method, norm, k, checked = check_fusion(method, norm, k, weights)
    read = as_runs(runs)
    check_weight_count(checked, len(read))
    table = normalize(fusion_table(read), norm)
    return fused_run(table, combine(table, method, k=k, weights=checked), name or method)


def fused_run(table: FusionTable, fused: np.ndarray, name: str) -> Run:
    """The run of the fused scores of ``table``'s pairs: topics in byte order, a topic's
    documents by score descending, ties by docno descending."""
    order = np.lexsort((-table.doc_order[table.pair_doc], -fused, table.pair_topic))
    return Run(name=name, topic=Strings.of(table.topics).take(table.pair_topic[order]),
               docno=table.docnos.take(table.pair_doc[order]),
               score=fused[order], source=f"<{name}: fused>")

"""``irscale.fuse``: several runs combined into one (``docs/fusion.md``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.inputs import Run
from ..core.strings import Strings
from .methods import combine
from .normalize import normalize
from .params import FUSE, FUSION_TRAINED, check_weight_count, fusion_norm, method_params
from .table import FusionTable, fusion_table
from .trained import read_training, train


@FUSE
def fuse(runs: Any, method: str = "rrf", *, norm: str | None = None, k: float = 60.0,
         weights: Sequence[float] | None = None, phi: float | None = None,
         gamma: float | None = None, sigma: float | None = None, segments: int | None = None,
         window: int | None = None, train_qrels: Any = None, train_runs: Any = None,
         name: str | None = None) -> Run:
    """Fuse several runs into one.

    Parameters
    ----------
    runs : run specs
        Two runs or more, as every irscale function reads them (paths, folders, glob
        patterns, ``Run`` objects, DataFrames, dicts ``{name: {topic: {docno: score}}}``,
        ranx runs: :func:`irscale.io.sources.as_runs`), in the order their weights follow.
    method : str, default "rrf"
        Score methods ``combsum``, ``combmnz``, ``combmax``, ``combmin``, ``combmed``,
        ``combanz``, ``wsum`` (the weighted sum), ``combgmnz``, ``mixed``, ``segfuse``;
        rank methods ``rrf``, ``isr``, ``log-isr``, ``logn-isr``, ``bordafuse``,
        ``w-bordafuse``, ``condorcet``, ``w-condorcet``, ``rbc``, ``probfuse``,
        ``slidefuse``, ``posfuse``, ``mapfuse``, ``bayesfuse`` (ranx's ``sum``, ``mnz``,
        ``gmnz``, ``w_bordafuse`` ... are accepted). Formulas and sources:
        ``docs/fusion.md``.
    norm : str, optional
        The score methods' normalisation per run and topic: ``none``, ``min-max``
        (default), ``max``, ``sum``, ``zmuv``, ``rank``, ``borda``. Rank methods take none.
    k : float, default 60
        RRF's constant (``rrf`` only).
    weights : sequence of float, optional
        ``wsum``, ``mixed``, ``w-bordafuse``, ``w-condorcet``: one weight per run (default
        1 each).
    phi : float, optional
        ``rbc`` (required): the persistence φ in (0, 1).
    gamma : float, optional
        ``combgmnz`` (required): the exponent γ in [0, 10].
    sigma : float, optional
        ``logn-isr``: σ in [0, 1] (default 0.01).
    segments : int, optional
        ``probfuse`` (required): the segments of each ranking.
    window : int, optional
        ``slidefuse`` (required): the half-width w ≥ 0 of the window of ranks.
    train_qrels, train_runs : qrels spec, run specs
        The supervised methods (``probfuse``, ``segfuse``, ``slidefuse``, ``posfuse``,
        ``mapfuse``, ``bayesfuse``; required): the training topics' qrels, and the same
        systems' runs of them, one per run fused, in the same order.
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
        other than rrf's, weights other than a weighted method's or not one per run, a
        method's parameter out of its domain, missing or given to another method, training
        data missing (supervised methods) or given to another method, fewer than two runs.
    InputError
        A run or qrels that cannot be read (file, line and text).
    AlignmentError
        Training runs none of whose topics the training qrels judge.

    Examples
    --------
    >>> a = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    >>> b = {"q1": {"d3": 9.0, "d1": 5.0}}
    >>> fused = fuse({"a": a, "b": b}, method="rrf")
    >>> fused.docno.to_pylist(), fused.score.round(6).tolist()
    (['d1', 'd3', 'd2'], [0.032522, 0.032266, 0.016129])
    """
    from ..io.sources import as_runs

    # (the method and its parameters checked on entry, and which apply: FUSE)
    norm = fusion_norm(method, norm)
    checked = None if weights is None else list(weights)
    params = method_params(method, {"phi": phi, "gamma": gamma, "sigma": sigma,
                                    "segments": segments, "window": window})
    trained = method in FUSION_TRAINED
    read = as_runs(runs)
    check_weight_count(checked, len(read))
    model = None
    if trained:
        qrels, training = read_training(train_qrels, train_runs, len(read))
        model = train(method, training, qrels, params)
    table = normalize(fusion_table(read), norm)
    return fused_run(table, combine(table, method, k=float(k), weights=checked, params=params,
                                    model=model), name or method)


def fused_run(table: FusionTable, fused: np.ndarray, name: str) -> Run:
    """The run of the fused scores of ``table``'s pairs: topics in byte order, a topic's
    documents by score descending, ties by docno descending."""
    order = np.lexsort((-table.doc_order[table.pair_doc], -fused, table.pair_topic))
    return Run(name=name, topic=Strings.of(table.topics).take(table.pair_topic[order]),
               docno=table.docnos.take(table.pair_doc[order]),
               score=fused[order], source=f"<{name}: fused>")

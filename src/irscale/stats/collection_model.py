"""The linear mixed model of systems compared on several collections.

Model (the mixed model of :mod:`irscale.stats.mixed`, the collection a random factor with
the topics nested in it; Robertson & Kanoulas 2012, and Ferro & Sanderson 2022 for crossed
and nested factors of IR experiments; Searle, Casella & McCulloch 1992, ch. 6)
    y_{c t s} = β_s + c_c + (sc)_{c s} + t_{c t} + ε_{c t s},
    c_c ~ N(0, σ²_collection), (sc)_{cs} ~ N(0, σ²_system:collection),
    t_{ct} ~ N(0, σ²_topic), ε ~ N(0, σ²), all independent:
    y_{cts} the score of system s on topic t of collection c; β_s the system's mean over
    the population of collections (and of their topics) that the given ones stand for.
    σ²_collection is how much whole collections are easier or harder, σ²_system:collection
    how much a system's advantage changes from one collection to another (the τ² of the
    meta-analysis, for every pair at once), σ²_topic the variance of topics within a
    collection, σ² the residual (the topic × system interaction within a collection).
    It is the model ``score ~ system + collection + system:collection`` with topic nested
    in collection, where the collection and its interaction with the system are random
    rather than fixed: with them fixed the test of the systems would speak of these
    collections only, and no variance would be "between collections".
Fit and test
    REML (:func:`irscale.stats.mixed.fit_linear`, statsmodels' ``MixedLM`` estimates:
    ``tests/test_across_collections.py``); the Wald χ²_{S−1} test that every β_s is the
    same, its Cov(β̂) the GLS one; each variance component with its share of their sum.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ._mixed_fit import Grouping
from .mixed import MixedModelResult, fit_linear
from .validation import TIE_RTOL

#: The random terms, in the order of the fit and of the table.
TERMS = ("collection", "system:collection", "topic")


def model_bytes(sizes: np.ndarray, systems: int) -> float:
    """The memory of the fit (bytes), estimated: collection ``c`` of ``sizes[c]`` topics has
    a block of ``n_c = 1 + systems + sizes[c]`` random levels, its n_c × n_c block of Z'Z
    kept dense and sparse (with its copy while the blocks are cut out: about four times
    ``8 n_c²`` in all), a group of :data:`~irscale.stats._mixed_fit.BLOCK_GROUP` blocks
    factorised at once (about five arrays of its size), and the scores, their codes and
    the sparse indicator columns, the tables of the result (about 400 bytes a score)."""
    from ._mixed_fit import BLOCK_GROUP

    n = 1.0 + systems + np.asarray(sizes, dtype=np.float64)
    group = min(len(n), BLOCK_GROUP) * float(n.max()) ** 2 if len(n) else 0.0
    return 32.0 * float(np.sum(n * n)) + 40.0 * group + 400.0 * float(np.sum(sizes)) * systems


def collection_model(arrays: Sequence[np.ndarray], systems: tuple[str, ...], *,
                     alpha: float, max_memory: str | int | float | None = None
                     ) -> MixedModelResult:
    """The REML fit of the model (module documentation) to each collection's complete
    topics × systems array of ``arrays``, the columns ``systems``; refused before the fit
    when its memory (:func:`model_bytes`) exceeds ``max_memory``
    (:func:`irscale.core.progress.declared_memory`: the collections declare the cost,
    :data:`irscale.evaluation.params.COLLECTION`)."""
    from ..core.budget import MAX_MEMORY
    from ..core.progress import declared_memory
    from ..evaluation.params import COLLECTION

    s = len(systems)
    sizes = np.array([x.shape[0] for x in arrays])
    need = model_bytes(sizes, s)
    declared_memory(COLLECTION, need, f"the mixed model of {len(arrays):,} collections of "
                    f"{s:,} systems and {int(sizes.sum()):,} topics in all",
                    max_memory=max_memory, option=None if max_memory is None else MAX_MEMORY)
    y = np.concatenate([x.ravel() for x in arrays])
    collection = np.repeat(np.arange(len(arrays)), sizes * s)
    system = np.tile(np.arange(s), int(sizes.sum()))
    topic = np.repeat(np.arange(int(sizes.sum())), s)
    groups = [Grouping("collection", collection, len(arrays)),
              Grouping("system:collection", collection * s + system, len(arrays) * s),
              Grouping("topic", topic, int(sizes.sum()))]
    k, first = len(arrays), np.concatenate([[0], np.cumsum(sizes)])
    blocks = [np.concatenate([[c], k + c * s + np.arange(s),  # every level within c
                              k + k * s + np.arange(first[c], first[c + 1])])
              for c in range(k)]
    # saturated when topic + system fit every collection exactly (mixed._saturated's test)
    residuals = sum(float(np.sum((x - x.mean(axis=1, keepdims=True) - x.mean(axis=0)
                                  + x.mean()) ** 2)) for x in arrays)
    exact = residuals <= TIE_RTOL * float(np.sum((y - y.mean()) ** 2))
    from threadpoolctl import threadpool_limits

    # one BLAS thread: the fit factorises a small block per collection many times, and
    # OpenBLAS's threads only spin on them (1.9 s against about 100 s on a busy 2-core
    # machine at 50 collections)
    with threadpool_limits(limits=1, user_api="blas"):
        return fit_linear(y, system, groups, method="reml", blocks=blocks, exact=exact,
                          family="gaussian", random=TERMS, systems=systems, n_obs=len(y),
                          levels=(("collection", len(arrays)),
                                  ("topic", int(sizes.sum()))),
                          alpha=alpha, correction="holm", note="topics nested in collections")


def variance_table(model: MixedModelResult) -> pd.DataFrame:
    """term, variance, share: each variance component and its part of their sum."""
    terms = [term for term, _ in model.components]
    values = np.array([value for _, value in model.components])
    total = values.sum()
    return pd.DataFrame({"term": terms, "variance": values,
                         "share": values / total if total > 0 else np.nan})

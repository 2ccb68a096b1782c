"""The same systems evaluated on several test collections, compared across them.

Input: per collection ``c`` a topics × systems table ``y[t, s]`` of one measure (a
:class:`~irscale.core.ScoreMatrix` or an :class:`~irscale.evaluation.Evaluation`), the
systems matched by name (run names) across collections; collection ``c`` has ``n_c``
topics. Output, per system and per pair of systems ``(a, b)``:

Per collection (paired over its topics)
    ``d_c = (1/n_c) Σ_t (y[t, a] − y[t, b])`` and the variance of that mean,
    ``v_c = s²_c / n_c`` (``s²_c`` the variance of the differences, divisor ``n_c − 1``),
    with its normal interval ``d_c ± z_{1−α/2} √v_c``.
Across collections, random effects
    The meta-analysis of the ``d_c`` with their ``v_c``
    (:func:`irscale.stats.meta_analysis.random_effects`) for each estimator of τ²,
    DerSimonian–Laird and REML: the pooled effect and its interval, τ² (the variance of the
    pair's true effect between collections), I², Cochran's Q and its p-value, and the
    prediction interval of Higgins, Thompson & Spiegelhalter (2009) for a new collection.
    A pair whose differences are constant on some collection (``v_c = 0``) has no
    meta-analysis (NaN, with a warning).
Across collections, the mixed model
    score = system + (collection) + (system:collection) + (topic within collection), by
    REML (:mod:`irscale.stats.collection_model`): the Wald test of the systems over the
    population of collections, and the variance components with their shares.
Across collections, stratified bootstrap
    A system's mean is the weighted mean of its collections' means, ``Σ_c w_c m_c``, and a
    pair's difference the difference of those means. ``weights="equal"`` (the default):
    ``w_c = 1/k``, each collection weighing the same (the macro average over a suite, as
    BEIR reports it); ``weights="topics"``: ``w_c = n_c / Σ n_c``, each collection weighing
    its topics (the micro average: the plain mean over every topic of every collection).
    Each bootstrap sample redraws ``n_c`` topics with replacement within every collection
    (the strata: Efron & Tibshirani 1993, §8.3, resampling within independent samples) and
    recomputes every weighted mean and difference; the ``1 − α`` interval is the percentile
    interval of ``samples`` such samples. Chunk ``i`` of the samples draws from child ``i``
    of the seed sequence of ``rng``, so that a seed gives the same intervals every time
    (:mod:`irscale.stats.resampling`). The weights govern these means only: the
    meta-analysis weighs each collection by the inverse of its variance, ``1/(v_c + τ²)``,
    whatever ``weights`` says.

Input by files
    ``collections`` may be the path of a manifest (:mod:`irscale.io.manifest`): its
    collections are read and evaluated with ``measure``
    (:func:`irscale.evaluation.suite.evaluate_collections`).
"""

from __future__ import annotations

import itertools
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..core.numbers import blank, declare, undefined
from ..core.params import RESAMPLES
from ..core.progress import ProgressArg, declared_memory, working
from ..errors import InputError, ParameterError, shown
from .bootstrap import CHUNK, resample_counts
from .meta_analysis import ESTIMATORS, random_effects
from .params import ACROSS_COLLECTIONS
from .resampling import RngArg, check_rng, chunk_sizes, run_chunks, seed_sequence

if TYPE_CHECKING:  # pragma: no cover
    from ..core import ScoreMatrix
    from .mixed import MixedModelResult
    from .tables import Format


@dataclass(frozen=True)
class AcrossCollections(HtmlRepr):
    """The comparison of :func:`across_collections` (module documentation): seven tables.

    ``systems``: system, mean (over collections), ci_low, ci_high (stratified bootstrap);
    ``pairs``: system_a, system_b, difference, ci_low, ci_high (the same bootstrap);
    ``means``: collection, system, topics, weight, mean (each system's mean per collection,
    the collection's weight in the means across collections: ``weights``);
    ``collections``: collection, system_a, system_b, topics, difference, variance, ci_low,
    ci_high; ``meta``: system_a, system_b, estimator, effect, se, ci_low, ci_high, tau2,
    i2, q, q_pvalue, pi_low, pi_high; ``mixed``: the mixed model's rows
    (:meth:`~irscale.stats.mixed.MixedModelResult.to_frame`), its fit in ``model``;
    ``variance``: term, variance, share (its variance components).
    """

    measure: str
    collections: tuple[str, ...]
    systems: tuple[str, ...]
    alpha: float
    samples: int
    weights: str
    system_table: pd.DataFrame
    pair_table: pd.DataFrame
    mean_table: pd.DataFrame
    collection_table: pd.DataFrame
    meta_table: pd.DataFrame
    model: MixedModelResult

    def __repr__(self) -> str:
        return (f"AcrossCollections({len(self.systems)} systems × {len(self.collections)} "
                f"collections, {self.measure})")

    def weighing(self) -> str:
        """How the collections weigh in the systems' means, in words (the tables' titles)."""
        return "weights equal: each collection weighs the same" if self.weights == "equal" \
            else "weights topics: each collection weighs its number of topics"

    def to_frame(self) -> pd.DataFrame:
        """The meta-analyses of every pair (``meta``)."""
        return self.meta_table

    def tables(self) -> dict[str, pd.DataFrame]:
        """The seven tables by the names JSON gives them."""
        from .collection_model import variance_table

        return {"systems": self.system_table, "pairs": self.pair_table,
                "means": self.mean_table, "collections": self.collection_table,
                "meta": self.meta_table, "mixed": self.model.to_frame(),
                "variance": variance_table(self.model)}

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The seven tables as ``fmt``: JSON as one document ``{"systems": [rows], "pairs":
        [rows], "means": [rows], "collections": [rows], "meta": [rows], "mixed": [rows],
        "variance": [rows]}``, the other
        formats one table after the other (``irscale compare --collection``)."""
        from ..core.numbers import json_text
        from ..io.formats import TABLE_FORMATS, check_format
        from .protocol import format_table
        from .tables import level_text, records

        check_format(fmt, TABLE_FORMATS, "a comparison across collections")
        if fmt == "json":
            return json_text({name: records(table, f"the table {name!r}")
                              for name, table in self.tables().items()}, indent=2) + "\n"
        level = level_text(1 - self.alpha)
        boot = (f"{level} stratified bootstrap interval, {self.samples} samples of the "
                "topics within each collection")
        titles = {
            "systems": f"{self.measure}: systems' means over {len(self.collections)} "
                       f"collections ({self.weighing()}; {boot})",
            "pairs": f"Differences of those means, a − b ({boot})",
            "means": "Per collection: each system's mean over its topics, the "
                     "collection's weight in the means across collections",
            "collections": f"Per collection: mean difference a − b over its topics, the "
                           f"variance of that mean, its {level} normal interval",
            "meta": f"Random-effects meta-analysis of each pair (τ² by DerSimonian–Laird "
                    f"and REML; {level} interval of the pooled effect; pi: {level} "
                    "prediction interval of a new collection's effect)",
            "mixed": self.model.summary(),
            "variance": "Variance components of the mixed model and their shares: between "
                        "collections, system × collection, between topics within "
                        "collections, residual"}
        return "\n".join(format_table(table, fmt, digits=digits, title=titles[name])
                         for name, table in self.tables().items())


def _matrix(name: str, value: object, measure: str | None) -> ScoreMatrix:
    """The one-measure matrix of ``measure`` of collection ``name``, complete."""
    from ..core import ScoreMatrix

    matrix = value.to_matrix() if hasattr(value, "to_matrix") else value
    if not isinstance(matrix, ScoreMatrix):
        raise ParameterError(f"collection {name!r}: expected a ScoreMatrix or an Evaluation, "
                             f"got {type(value).__name__}")
    if measure is not None and measure not in matrix.measures:
        raise InputError(f"collection {name!r} has no measure {measure!r} (it has "
                         f"{list(matrix.measures)})")
    if measure is None and len(matrix.measures) != 1:
        raise ParameterError(f"collection {name!r} has {len(matrix.measures)} measures "
                             f"{list(matrix.measures)}: choose one with measure=")
    matrix = matrix.measure(measure).check_complete()
    if matrix.n_topics < 2:
        raise InputError(f"collection {name!r} has {matrix.n_topics} topic: the variance "
                         "of a mean difference needs 2 at least")
    return matrix


def _aligned(collections: Mapping[str, Any], measure: str | None
             ) -> tuple[str, tuple[str, ...], list[np.ndarray]]:
    """The measure, the systems (in the first collection's order) and every collection's
    topics × systems array, columns in that order; a system missing from a collection is
    an :class:`~irscale.errors.AlignmentError` naming the collection."""
    from ..errors import AlignmentError
    from ..evaluation.suite import missing_systems

    matrices: dict[str, ScoreMatrix] = {str(name): _matrix(str(name), value, measure)
                                        for name, value in collections.items()}
    measures = {m.measures[0] for m in matrices.values()}
    if len(measures) > 1:
        raise InputError(f"the collections hold different measures {sorted(measures)}: "
                         "choose one with measure=")
    systems = tuple(dict.fromkeys(s for m in matrices.values() for s in m.systems))
    found = missing_systems({name: m.systems for name, m in matrices.items()})
    if found is not None:
        name, missing = found
        raise AlignmentError(f"collection {name!r} has no run of system(s) "
                             f"{missing[:5]} (systems are matched by run name across "
                             f"collections; it has {list(matrices[name].systems[:8])})")
    if len(systems) < 2:
        raise InputError(f"at least 2 systems are needed, got {len(systems)}")
    arrays = [matrix.subset(systems=list(systems)).array() for matrix in matrices.values()]
    return measures.pop(), systems, arrays


def _pair_index(systems: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The columns a and b of every pair a < b, in the systems' order."""
    pairs = list(itertools.combinations(range(len(systems)), 2))
    return np.array([a for a, _ in pairs]), np.array([b for _, b in pairs])


def _check_bootstrap_memory(samples: int, systems: int, pairs: int, topics: int,
                            max_memory: str | int | float | None) -> None:
    """Refuse ``samples`` whose means (every system's and every pair's difference, sorted
    for the percentiles, and a collection's draws) exceed the memory limit ``max_memory``
    (:func:`irscale.core.progress.declared_memory`: the samples declare the cost)."""
    from ..core.budget import MAX_MEMORY
    from ..core.notebook import counted

    need = 8.0 * samples * (2 * systems + 3 * pairs + 2 * topics)
    declared_memory(RESAMPLES, need, f"{samples:,} samples (-B/--samples, samples) of the "
                    f"stratified bootstrap of {counted(systems, 'system')} and "
                    f"{counted(pairs, 'pair')} keep their means", max_memory=max_memory,
                    option=None if max_memory is None else MAX_MEMORY)


def collection_weights(arrays: list[np.ndarray], weights: str) -> np.ndarray:
    """The weight ``w_c`` of every collection (its topics × systems array) in the means
    across collections (module documentation): ``1/k``, or ``n_c / Σ n_c`` for
    ``weights="topics"``."""
    counts = np.array([x.shape[0] for x in arrays], dtype=float)
    return counts / counts.sum() if weights == "topics" else np.full(len(arrays),
                                                                     1 / len(arrays))


def _stratified_chunk(arrays: tuple[np.ndarray, ...], weights: np.ndarray,
                      gen: np.random.Generator, size: int) -> np.ndarray:
    """``size`` × systems: the weighted means over the collections of the means of ``size``
    samples of each collection's topics (a matrix product a collection)."""
    total = np.zeros((size, arrays[0].shape[1]))
    for values, weight in zip(arrays, weights, strict=True):
        n = values.shape[0]
        total += weight * (resample_counts(gen.integers(0, n, size=(size, n)), n) @ values
                           / n)
    return total


def stratified_bootstrap(arrays: list[np.ndarray], *, samples: int, rng: RngArg,
                         weights: str = "equal", progress: ProgressArg = False) -> np.ndarray:
    """``samples`` × systems: each system's mean over the collections (weighted as
    ``weights`` says: :func:`collection_weights`) of its means over
    topics redrawn with replacement within each collection (module documentation), in
    chunks of :data:`~irscale.stats.bootstrap.CHUNK` samples, chunk ``i`` drawn from child
    ``i`` of ``rng``'s seed sequence (:func:`~irscale.stats.resampling.run_chunks`: the
    same samples for a seed whatever the threads; ``progress``, and ^C, as every
    resampling)."""
    out = np.empty((samples, arrays[0].shape[1]))
    sizes = chunk_sizes(samples, CHUNK)
    starts = np.concatenate([[0], np.cumsum(sizes)])

    def keep(index: int, means: np.ndarray) -> None:
        out[starts[index]:starts[index + 1]] = means

    run_chunks(_stratified_chunk, sizes, seed_sequence(rng=rng), keep,
               shared=(tuple(arrays), collection_weights(arrays, weights)),
               progress=progress)
    return out


@ACROSS_COLLECTIONS
def across_collections(collections: Mapping[str, Any] | str | os.PathLike[str],
                       measure: str | None = None, *, alpha: float = 0.05,
                       samples: int = 1000, rng: RngArg = None, weights: str = "equal",
                       progress: ProgressArg = False,
                       max_memory: str | int | float | None = None) -> AcrossCollections:
    """Compare the systems of several collections (module documentation): each
    collection's paired mean differences, every pair's random-effects meta-analysis
    (DerSimonian–Laird and REML; Higgins, Thompson & Spiegelhalter 2009 for the
    prediction interval) and the stratified bootstrap intervals of the systems' means and
    their differences.

    ``collections``: ``{name: ScoreMatrix or Evaluation}`` (2 at least), the systems
    matched by name, or the path of a manifest (:mod:`irscale.io.manifest`: a file
    ``collection<TAB>qrels<TAB>run``, one row per collection and run), its collections
    evaluated with ``measure``; ``measure``: the one compared (default: the only one; a
    manifest needs it); ``alpha``: 1 − the level of every interval; ``samples``, ``rng``,
    ``progress``: the bootstrap's (and, for a manifest, its evaluation's:
    :func:`irscale.evaluation.suite.evaluate_collections`); ``weights``: how the
    collections weigh in the systems' means and their bootstrap, ``"equal"`` or
    ``"topics"`` (module documentation); ``max_memory``: the memory limit (bytes or a size
    such as ``"2G"``; default half of the RAM) beyond which the evaluation of a manifest's
    collections, the bootstrap and the mixed model are refused before their work
    (:func:`irscale.core.progress.declared_memory`). Parameters checked on entry:
    :data:`irscale.stats.params.ACROSS_COLLECTIONS`.

    Examples
    --------
    >>> from irscale.core import ScoreMatrix
    >>> def table(rows):
    ...     return ScoreMatrix.from_array(rows, topics=[str(i) for i in range(len(rows))],
    ...                                   systems=["a", "b"], measures=["ap"])
    >>> result = across_collections({"x": table([[0.5, 0.4], [0.3, 0.3], [0.6, 0.2]]),
    ...                              "y": table([[0.2, 0.1], [0.4, 0.2], [0.3, 0.3]])},
    ...                             samples=200, rng=1)
    >>> result.meta_table[["estimator", "effect"]].round(4).values.tolist()
    [['dl', 0.1125], ['reml', 0.1125]]
    """
    from scipy import stats

    from .collection_model import collection_model

    rng = check_rng(rng)
    if isinstance(collections, (str, os.PathLike)):
        collections = _manifest(collections, measure, progress, max_memory)
    if not isinstance(collections, Mapping) or len(collections) < 2:
        raise ParameterError(f"collections: expected a mapping of 2 collections or more "
                             f"(name → ScoreMatrix or Evaluation), got {shown(collections)}")
    measure, systems, arrays = _aligned(collections, measure)
    names = tuple(str(name) for name in collections)
    a, b = _pair_index(systems)
    _check_bootstrap_memory(samples, len(systems), len(a), max(x.shape[0] for x in arrays),
                            max_memory)
    with working("the mixed model", enabled=progress is not False):
        model = collection_model(arrays, systems, alpha=alpha, max_memory=max_memory)
    first, second = [systems[i] for i in a], [systems[i] for i in b]
    z = stats.norm.ppf(1 - alpha / 2)

    differences = np.array([(x[:, a] - x[:, b]).mean(axis=0) for x in arrays]).T  # pairs × k
    variances = np.array([(x[:, a] - x[:, b]).var(axis=0, ddof=1) / x.shape[0]
                          for x in arrays]).T
    per_collection = pd.DataFrame({
        "collection": np.repeat(names, len(a)),
        "system_a": first * len(names), "system_b": second * len(names),
        "topics": np.repeat([x.shape[0] for x in arrays], len(a)),
        "difference": differences.T.ravel(), "variance": variances.T.ravel(),
        "ci_low": (differences - z * np.sqrt(variances)).T.ravel(),
        "ci_high": (differences + z * np.sqrt(variances)).T.ravel()})

    boot = stratified_bootstrap(arrays, samples=samples, rng=rng, weights=weights,
                                progress=progress)
    quantiles = [alpha / 2, 1 - alpha / 2]
    weight = collection_weights(arrays, weights)
    means = weight @ np.array([x.mean(axis=0) for x in arrays])
    low, high = np.quantile(boot, quantiles, axis=0)
    system_table = pd.DataFrame({"system": systems, "mean": means, "ci_low": low,
                                 "ci_high": high})
    boot_differences = boot[:, a] - boot[:, b]
    low, high = np.quantile(boot_differences, quantiles, axis=0)
    pair_table = pd.DataFrame({"system_a": first, "system_b": second,
                               "difference": means[a] - means[b], "ci_low": low,
                               "ci_high": high})
    mean_table = pd.DataFrame({
        "collection": np.repeat(names, len(systems)), "system": list(systems) * len(names),
        "topics": np.repeat([x.shape[0] for x in arrays], len(systems)),
        "weight": np.repeat(weight, len(systems)),
        "mean": np.concatenate([x.mean(axis=0) for x in arrays])})
    return AcrossCollections(measure, names, systems, alpha, samples, weights, system_table,
                             pair_table, mean_table, per_collection,
                             _meta(first, second, differences, variances, alpha),
                             model)


def _manifest(path: str | os.PathLike[str], measure: str | None, progress: ProgressArg,
              max_memory: str | int | float | None) -> dict[str, ScoreMatrix]:
    """The collections of the manifest at ``path`` evaluated with ``measure``
    (``progress``, ``max_memory``: :func:`irscale.evaluation.suite.evaluate_collections`)."""
    from ..evaluation.suite import evaluate_collections
    from ..io.manifest import read_collections

    if measure is None:
        raise ParameterError("measure: a manifest of collections is evaluated with the "
                             "measure compared: give measure= (e.g. 'ndcg_cut.10')")
    return evaluate_collections(read_collections(path), [measure], progress=progress,
                                max_memory=max_memory)


#: The columns of the meta-analysis table, as :class:`~irscale.stats.meta_analysis.
#: RandomEffects` names them.
META_COLUMNS = ("effect", "se", "ci_low", "ci_high", "tau2", "i2", "q", "q_pvalue", "pi_low",
                "pi_high")


def _meta(first: list[str], second: list[str], differences: np.ndarray,
          variances: np.ndarray, alpha: float) -> pd.DataFrame:
    """One row per pair and estimator of τ² (pair by pair): the random-effects meta-analysis of the
    pair's collections; NaN for a pair of a collection with no variance (warned)."""
    fit = (variances > 0).all(axis=1)
    if not fit.all():
        unfit = [f"{first[i]} − {second[i]}" for i in np.flatnonzero(~fit)[:5]]
        warnings.warn(f"{int((~fit).sum())} pairs ({', '.join(unfit)}) have the same "
                      "difference on every topic of a collection (variance 0): they have no "
                      "meta-analysis", stacklevel=3)
    frames = []
    for estimator in ESTIMATORS:
        columns = {name: np.full(len(first), np.nan) for name in META_COLUMNS}
        if fit.any():
            result = random_effects(differences[fit], variances[fit], estimator=estimator,
                                    alpha=alpha)
            for name in META_COLUMNS:
                columns[name][fit] = getattr(result, name)
        frames.append(pd.DataFrame({"system_a": first, "system_b": second,
                                    "estimator": estimator, **columns}))
    order = np.arange(len(first) * len(ESTIMATORS)).reshape(len(ESTIMATORS), -1).T.ravel()
    table = pd.concat(frames, ignore_index=True).iloc[order].reset_index(drop=True)
    constant = "a collection where the pair's difference is the same on every topic"
    meanings = {name: undefined(constant) for name in META_COLUMNS}
    if differences.shape[1] < 3:
        for name in ("pi_low", "pi_high"):
            meanings[name] = blank("a prediction interval needs 3 collections at least")
    return declare(table, meanings)

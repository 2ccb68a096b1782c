"""Discriminative power of measures (Sakai 2014, §5.1; Sakai, 2006, 2012).

For a topics × systems score matrix U of a measure, every pair of the m systems gets an
Achieved Significance Level (ASL, a p-value) from a test that uses the whole matrix; the
measure's *discriminative power* is the number (and share) of the m(m − 1)/2 pairs with
ASL below α, and its *ASL curve* the pairs' ASLs sorted increasingly (Sakai 2014, Fig. 16:
curves close to the origin mean high discriminative power).

``method="bootstrap"`` — Sakai's paired bootstrap test (Sakai 2014, §4.2, Fig. 11–12)
    For the pair (X, Y), z = x − y, w = z − z̄; each of B bootstrap samples w*ᵇ draws n
    topics of w with replacement; the studentised statistic is t(z) = z̄ / (σ̄/√n),
    σ̄² = Σ(zᵢ − z̄)²/(n − 1) (eq. 48–49) and the ASL counts |t(w*ᵇ)| ≥ |t(z)| (Fig. 12).
    All pairs share the same B draws of topic indices. Runs
    :func:`irscale.stats.paired_bootstrap_test`'s kernel through
    :func:`irscale.stats.pairwise_tests` (no correction: Sakai's pairwise ASLs).
``method="randomized-tukey-hsd"`` — Carterette's randomised Tukey HSD (Sakai 2014, §4.4,
Fig. 15)
    Each of B samples permutes every row (topic) of U independently; with ū*ⱼ the column
    means, the ASL of (X, Y) counts max*ᵇ − min*ᵇ > |ū(X) − ū(Y)| — Fig. 15's strict ``>``
    (``strict=True``, the default here) — over the one null distribution of all pairs
    (:func:`irscale.stats.randomized_tukey_hsd`).

p-value convention: ``convention="plus-one"`` (the default of :mod:`irscale.stats`) reports
ASL = (c + 1)/(B + 1) for c counted samples; ``"proportion"`` reports c/B, the figures'
ASL = count/B exactly. A pair is significant when ASL ≤ α (as everywhere in
:mod:`irscale.stats`). With the default, this is exactly Sakai's rule "ASL = c/B < α"
whenever αB is an integer (B = 1,000, α = 0.05): (c + 1)/(B + 1) ≤ α ⟺ c ≤ αB − (1 − α)
⟺ c < αB. With ``"proportion"`` the pairs with c = αB (ASL exactly α) count as well, a
few more pairs (about 13 of 8,256 on TREC-8 AP, see ``docs/meta.md``).

Minimum performance difference that is significant (Sakai 2014, §5.1)
    ``min_significant_difference``: the smallest |ū(X) − ū(Y)| among the pairs found
    significant — the estimate of Sakai (2012) [82] for the randomised Tukey HSD, reported
    for both methods. For the bootstrap, ``estimated_difference`` is Sakai's (2006) [77]
    estimate: for every pair, t_α = the ⌊Bα⌉-th largest of |t(w*¹)|, …, |t(w*ᴮ)| (the same
    draws as the ASLs) and the difference required for that pair is t_α σ̄/√n; the
    estimate is the largest over the pairs (pairs whose σ̄ is 0 or whose t_α is infinite —
    samples of zero variance — are left out and counted in ``excluded``). For the
    randomised Tukey HSD, ``critical_value`` is the (1 − α) quantile of the sampled ranges,
    the difference every pair must exceed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.budget import MAX_MEMORY
from ..core.notebook import HtmlRepr
from ..core.numbers import blank, declare, infinite, undefined
from ..core.progress import (
    ProgressArg,
    check_stop,
    declared_memory,
    phase_progress,
    progress_callback,
)
from ..parallel import ExecutorArg, check_workers, executor_scope, is_local, is_ready
from ..stats import pairwise_tests, randomized_tukey_hsd
from ..stats.bootstrap import CHUNK, resample_counts, studentised_means
from ..stats.effects import standard_error
from ..stats.randomized_tukey import check_ranges_memory
from ..stats.resampling import (
    Convention,
    RngArg,
    check_rng,
    chunk_sizes,
    run_chunks,
)
from ..stats.tables import Format, alpha_text
from ..stats.validation import check_not_constant
from .common import copy_seed, format_frame, pair_index, score_table, seed_sequence
from .params import (
    DISCRIMINATIVE,
    DISCRIMINATIVE_METHOD,
    DISCRIMINATIVE_SAMPLES,
    DISCRIMINATIVE_SPREAD,
)

#: Methods of :func:`discriminative_power`.
METHODS: tuple[str, ...] = DISCRIMINATIVE_METHOD.names
#: Pairs per block when collecting bootstrap statistics: each block's pairs × samples
#: temporaries stay small (TREC-8, 8,256 pairs, B = 1,000: 2,048 pairs a block took
#: 0.58-0.73 s and 134 MB traced, 256 pairs 0.48 s and 30 MB).
BLOCK = 256

__all__ = ["METHODS", "DiscriminativePower", "bootstrap_required_differences",
           "discriminative_power", "discriminative_power_spread",
           "discriminative_power_table"]


#: What the non-finite values of the tables of discriminative power are
#: (:mod:`irscale.core.numbers`): the pairs (``required_diff``) and the summaries
#: (:meth:`DiscriminativePower.summary`, their display names too).
MEANINGS = {
    **dict.fromkeys(("min_significant_diff", "min. significant Δ"), undefined(
        "no pair is significant: the smallest significant difference is a minimum of none")),
    "estimated_diff": blank("the bootstrap's estimate only"),
    "critical_value": blank("the randomised Tukey HSD's only"),
    "required_diff": undefined("the bootstrap samples of the pair have no spread: t_α has "
                               "none (the pair is left out of the estimated difference)")
    | infinite("the bootstrap samples of the pair have no spread: t_α has none"),
}


@dataclass(frozen=True, eq=False)
class DiscriminativePower(HtmlRepr):
    """ASLs of every pair of systems and the discriminative power of one measure.

    ``pairs`` has one row per pair: ``a``, ``b``, ``diff`` = ū(a) − ū(b), ``asl``,
    ``mc_se`` (Monte Carlo standard error of the ASL), ``significant`` (ASL ≤ α) and, for
    the bootstrap, ``required_diff`` (t_α σ̄/√n, Sakai 2006).

    Protocol (arrays of one value per pair, in ``pairs`` order): ``pvalue`` (the ASLs),
    ``statistic`` (the observed studentised t for the bootstrap, |ū(a) − ū(b)| for the
    randomised Tukey HSD), ``to_frame()`` (``pairs``), ``format(fmt)``. ``seed`` is the
    integer seed given as ``rng`` (``None`` for a Generator or fresh entropy).
    """

    method: str
    measure: str
    alpha: float
    samples: int
    convention: str
    n_topics: int
    n_systems: int
    pairs: pd.DataFrame
    min_significant_difference: float
    estimated_difference: float | None = None
    critical_value: float | None = None
    excluded: int = 0
    seed: object = None
    note: str = ""
    extra: Mapping[str, object] = field(default_factory=dict)

    @property
    def n_pairs(self) -> int:
        return len(self.pairs)

    @property
    def pvalue(self) -> np.ndarray:
        """The ASL of every pair (the column ``asl`` of ``pairs``)."""
        return self.pairs["asl"].to_numpy()

    @property
    def statistic(self) -> np.ndarray | None:
        """The observed statistic of every pair (``None`` if not recorded)."""
        value = self.extra.get("statistic")
        return None if value is None else np.asarray(value)

    @property
    def n_significant(self) -> int:
        return int(self.pairs["significant"].sum())

    @property
    def share(self) -> float:
        """Discriminative power: the share of pairs with ASL ≤ α."""
        return self.n_significant / self.n_pairs

    def asl_curve(self) -> np.ndarray:
        """The pairs' ASLs sorted increasingly (the y values of an ASL curve)."""
        return np.sort(self.pairs["asl"].to_numpy())

    def to_frame(self) -> pd.DataFrame:
        """One row per pair (see the class documentation)."""
        return self.pairs.copy()

    def summary(self) -> dict[str, object]:
        return {
            "measure": self.measure, "method": self.method, "topics": self.n_topics,
            "systems": self.n_systems, "pairs": self.n_pairs, "B": self.samples,
            "alpha": self.alpha, "significant": self.n_significant, "share": self.share,
            "min_significant_diff": self.min_significant_difference,
            "estimated_diff": self.estimated_difference,
            "critical_value": self.critical_value,
        }

    def format(self, fmt: Format = "text", *, digits: int = 4, pairs: bool = False) -> str:
        """The summary (or, with ``pairs=True``, every pair) as a table."""
        frame = self.pairs if pairs else declare(pd.DataFrame([self.summary()]).dropna(axis=1),
                                                 MEANINGS)
        return format_frame(frame, fmt, digits=digits, title=None if fmt in ("csv", "json")
                            else repr(self))

    def __repr__(self) -> str:
        est = "" if self.estimated_difference is None else \
            f", estimated difference {self.estimated_difference:.4f}"
        return (f"DiscriminativePower({self.measure}, {self.method}, B={self.samples}, "
                f"α={alpha_text(self.alpha)}: {self.n_significant}/{self.n_pairs} pairs "
                "significant "
                f"({self.share:.1%}); smallest significant difference "
                f"{self.min_significant_difference:.4f}{est})")


def _top_chunk(w: np.ndarray, rank: int, gen: np.random.Generator, size: int) -> np.ndarray:
    """Per pair (rows), the ``min(rank, size)`` largest |t(w*)| of ``size`` resamples."""
    n = w.shape[0]
    counts = resample_counts(gen.integers(0, n, size=(size, n)), n)
    keep = min(rank, size)
    top = np.empty((w.shape[1], keep))
    for start in range(0, w.shape[1], BLOCK):
        check_stop()  # (a chunk given up stops here: irscale.core.progress)
        part = slice(start, start + BLOCK)
        t = np.abs(studentised_means(counts, w[:, part])).T  # pairs × samples
        t = np.where(np.isnan(t), 0.0, t)  # 0/0: a sample of zeros, t = 0
        top[part] = np.partition(t, size - keep, axis=1)[:, size - keep:]
    return top


def check_required_memory(samples: int, alpha: float, pairs: int,
                          max_memory: str | int | None = None) -> None:
    """Refuse B = ``samples`` whose ⌊Bα⌉ largest |t*| of every pair
    (:func:`bootstrap_required_differences`: kept, with room for as many more) exceed
    ``max_memory`` (``--max-memory``), from the declared cost of the samples
    (:func:`irscale.core.progress.declared_memory`)."""
    rank = max(1, round(samples * alpha))
    declared_memory(DISCRIMINATIVE_SAMPLES, 8.0 * pairs * _pool_width(rank),
                    f"-B/--samples {samples:,} at alpha {alpha}: the bootstrap keeps the "
                    f"{rank:,} largest |t*| of each of {pairs:,} pairs of systems",
                    max_memory=max_memory, option=MAX_MEMORY)


def _pool_width(rank: int) -> int:
    """Columns of the pool of :func:`bootstrap_required_differences`: the ``rank`` largest
    |t*| kept and room for as many more, at least a chunk's."""
    return rank + max(rank, CHUNK)


def bootstrap_required_differences(
    values: np.ndarray, samples: int, seeds: np.random.SeedSequence, alpha: float,
    *, progress: ProgressArg = False, workers: int | None = None,
    executor: ExecutorArg = "local",
) -> tuple[np.ndarray, np.ndarray]:
    """Per pair: t_α, the ⌊Bα⌉-th largest |t(w*ᵇ)|, and t_α σ̄/√n (Sakai, 2006).

    Draws exactly the bootstrap samples of :func:`irscale.stats.paired_bootstrap_test`
    for the same ``seeds`` (same chunks, same streams), so t_α belongs to the samples
    that gave the ASLs. Each chunk keeps its own ⌊Bα⌉ largest |t*| per pair; they are
    merged as chunks finish (the ⌊Bα⌉ largest of all is the same set whatever the order):
    a pool per pair holds the ⌊Bα⌉ largest so far and room for as many more (at least a
    chunk's); the chunks' fill the room, and a full pool is partitioned in place, its
    ⌊Bα⌉ largest kept. Each value is partitioned a bounded number of times: the work is
    linear in B (merging every chunk into the ⌊Bα⌉ kept made it grow as B²/CHUNK).
    """
    k = values.shape[1]
    i, j = pair_index(k)
    z = values[:, i] - values[:, j]
    w = z - z.mean(axis=0)
    rank = max(1, round(samples * alpha))
    pool = np.empty((len(i), _pool_width(rank)))
    fill = 0  # columns in use: (once full) the `rank` largest |t*| so far, then the chunks'

    # The pool is written and partitioned BLOCK pairs at a time, so that ^C and SIGTERM are
    # heard between two blocks: at 8,256 pairs and B = 10^6 (6.6 GB) the first write of a
    # chunk's columns, which maps the memory of every row, held them 40 s in one call.
    blocks = [slice(start, start + BLOCK) for start in range(0, len(i), BLOCK)]

    def keep_largest() -> None:
        nonlocal fill
        if fill > rank:
            for rows in blocks:
                pool[rows, :fill].partition(fill - rank, axis=1)
                pool[rows, :rank] = pool[rows, fill - rank:fill]
            fill = rank

    def merge(_: int, chunk_top: np.ndarray) -> None:
        nonlocal fill
        width = chunk_top.shape[1]
        if fill + width > pool.shape[1]:
            keep_largest()
        for rows in blocks:
            pool[rows, fill:fill + width] = chunk_top[rows]
        fill += width

    run_chunks(_top_chunk, chunk_sizes(samples, CHUNK), copy_seed(seeds), merge,
               shared=(w, rank), workers=workers, executor=executor, progress=progress)
    keep_largest()  # (B ≥ rank values were kept: each chunk keeps min(rank, its size))
    t_alpha = pool[:, :rank].min(axis=1)
    se, _ = standard_error(values[:, i], values[:, j], "paired")  # 0 without spread
    with np.errstate(invalid="ignore"):
        required = np.where(se > 0, t_alpha * se, np.nan)
    return t_alpha, required


@DISCRIMINATIVE
def discriminative_power(
    data: object,
    method: str = "bootstrap",
    *,
    measure: str | None = None,
    samples: int = 1000,
    alpha: float = 0.05,
    rng: RngArg = None,
    convention: Convention = "plus-one",
    strict: bool = True,
    workers: int | None = None,
    progress: ProgressArg = False,
    B: int | None = None,
    executor: ExecutorArg = "local",
    max_memory: str | int | None = None,
) -> DiscriminativePower:
    """ASL of every pair and the discriminative power of one measure (module docs).

    ``data``: a score matrix (``measure`` picks one), wide DataFrame or topics × systems array.
    ``samples`` is B (``B=`` is accepted as an alias); ``strict`` applies to the randomised Tukey
    HSD (Fig. 15 counts ``>``). ``rng``: an integer seed, a :class:`numpy.random.Generator` or
    ``None``; ``progress``: a bool or a callable ``progress(done, total)`` (the bootstrap counts its
    two passes over the B samples, total 2B); ``workers`` / ``executor``: where the samples are
    drawn (:mod:`irscale.parallel`: local threads, or a Dask cluster; the same results for a seed
    either way). ``max_memory``: what the samples kept may take (bytes or a size such as
    ``"2G"``; default half of the RAM): a B beyond it is refused before any work. The
    method, ``samples`` (or ``B``, given instead of it), ``alpha``, ``convention`` and
    ``workers`` are checked on entry (:data:`irscale.meta.params.DISCRIMINATIVE`).
    """
    if B is not None:
        samples = B
    rng = check_rng(rng)
    executor = check_workers(workers, executor)
    # the two passes of the bootstrap: one bar, and the time of the rest of both stated
    # from the first chunk, in the declared units of the samples (:mod:`irscale.core.progress`)
    progress = progress_callback(progress, units=DISCRIMINATIVE_SAMPLES,
                                 elsewhere=not is_local(executor))
    if not is_ready(executor):  # one cluster (or connection) for both passes
        with executor_scope(executor) as ready:
            return discriminative_power(data, method, measure=measure, samples=samples,
                                        alpha=alpha, rng=rng, convention=convention,
                                        strict=strict, workers=workers, progress=progress,
                                        executor=ready, max_memory=max_memory)
    values, _, systems = score_table(data, measure)
    check_not_constant(values)
    label = measure or getattr(data, "measures", ("score",))[0]
    seeds = seed_sequence(rng=rng)
    n, k = values.shape
    i, j = pair_index(k)
    means = values.mean(axis=0)
    names = np.asarray(systems, dtype=object)
    columns: dict[str, np.ndarray] = {"a": names[i], "b": names[j], "diff": means[i] - means[j]}
    estimated = critical = None
    excluded = 0
    if method == "bootstrap":
        check_required_memory(samples, alpha, len(i), max_memory)
        # the t_α of every pair first: its samples cost 2.5 to 7 times the test's
        # (benchmarks/bench_dp_estimate.py), so the time of the rest, measured on the first
        # samples, errs long (each pass draws the same samples from its copy of the seeds)
        _, required = bootstrap_required_differences(
            values, samples, seeds, alpha, progress=phase_progress(progress, 0, 2),
            workers=workers, executor=executor)
        result = pairwise_tests(values, "bootstrap", correction="none", alpha=alpha,
                                samples=samples, rng=copy_seed(seeds), convention=convention,
                                workers=workers, executor=executor,
                                progress=phase_progress(progress, 1, 2))
        finite = np.isfinite(required)
        excluded = int((~finite).sum())
        estimated = float(required[finite].max()) if finite.any() else float("nan")
        columns.update(asl=result.columns["p"], mc_se=result.columns["mc_se"],
                       significant=result.columns["p"] <= alpha, required_diff=required)
        note = "paired studentised bootstrap test, Sakai (2014), Fig. 11-12 (|t*| >= |t|)"
    else:
        check_ranges_memory(samples, max_memory, MAX_MEMORY)
        result = randomized_tukey_hsd(values, samples=samples, alpha=alpha,
                                      rng=copy_seed(seeds), convention=convention,
                                      strict=strict, workers=workers, executor=executor,
                                      progress=progress, max_memory=max_memory)
        critical = float(result.critical_value)  # type: ignore[arg-type]
        columns.update(asl=result.columns["p"], mc_se=result.columns["mc_se"],
                       significant=result.columns["p"] <= alpha)
        note = f"randomised Tukey HSD, Sakai (2014), Fig. 15 ({'>' if strict else '>='})"
    pairs = declare(pd.DataFrame(columns), MEANINGS)
    significant = pairs["significant"].to_numpy()
    gaps = np.abs(pairs["diff"].to_numpy())[significant]
    return DiscriminativePower(
        method=method, measure=str(label), alpha=alpha, samples=samples,
        convention=convention, n_topics=n, n_systems=k, pairs=pairs,
        min_significant_difference=float(gaps.min()) if len(gaps) else float("nan"),
        estimated_difference=estimated, critical_value=critical, excluded=excluded,
        seed=None if isinstance(rng, (np.random.Generator, np.random.SeedSequence)) else rng,
        note=note, extra={"statistic": np.asarray(result.columns["statistic"])},
    )


def _measures_of(data: object, measures: Sequence[str] | None) -> list[tuple[str, object]]:
    if isinstance(data, Mapping):
        return [(str(name), value) for name, value in data.items()]
    names = list(measures) if measures is not None else list(getattr(data, "measures", ["score"]))
    if len(names) > 1 or measures is not None:
        return [(name, data.measure(name)) for name in names]  # type: ignore[attr-defined]
    return [(names[0], data)]


def discriminative_power_table(
    data: object,
    methods: Iterable[str] = METHODS,
    *,
    measures: Sequence[str] | None = None,
    **options: object,
) -> pd.DataFrame:
    """One summary row per (measure, method): ``data`` is a score matrix (every measure,
    or those in ``measures``) or a mapping ``{name: score table}``."""
    rows = []
    for name, table in _measures_of(data, measures):
        for method in methods:
            result = discriminative_power(table, method, **options)  # type: ignore[arg-type]
            rows.append({**result.summary(), "measure": name})
    return pd.DataFrame(rows)


@DISCRIMINATIVE_SPREAD
def discriminative_power_spread(
    data: object,
    method: str = "bootstrap",
    *,
    seeds: Iterable[int] = range(10),
    progress: ProgressArg = False,
    **options: object,
) -> pd.DataFrame:
    """Monte Carlo spread: the summary of :func:`discriminative_power` for each seed.

    ``frame.describe()`` of the result gives mean, standard deviation and range across
    seeds of the number of significant pairs and of the difference estimates.
    ``progress`` (a bool or a callable ``progress(done, total)``) counts the samples of
    every seed together: one bar for the whole spread. ``method`` and ``seeds`` (seeds ≥ 0,
    at least one, none twice) are checked on entry
    (:data:`irscale.meta.params.DISCRIMINATIVE_SPREAD`).
    """
    seeds = list(seeds)  # (the default's range; given seeds are checked on entry)
    progress = progress_callback(progress, units=DISCRIMINATIVE_SAMPLES,
                                 elsewhere=not is_local(options.get("executor", "local")))
    rows = []
    for index, seed in enumerate(seeds):
        result = discriminative_power(
            data, method, rng=seed, progress=phase_progress(progress, index, len(seeds)),
            **options)  # type: ignore[arg-type]
        rows.append({"seed": seed, **result.summary()})
    return pd.DataFrame(rows)


def spread_summary(spread: pd.DataFrame) -> pd.DataFrame:
    """The spread across seeds of the rows of :func:`discriminative_power_spread` (one per
    seed, of one or more measures and methods): for every measure and method, in the
    order they first appear, the seeds, the mean, standard deviation, least and most of
    the share of significant pairs, and the mean and standard deviation of the minimum
    significant difference (``irscale meta dp --seeds``)."""
    return spread.groupby(["measure", "method"], sort=False).agg(
        seeds=("seed", "count"), significant_mean=("significant", "mean"),
        significant_sd=("significant", "std"), significant_min=("significant", "min"),
        significant_max=("significant", "max"),
        min_sig_diff_mean=("min_significant_diff", "mean"),
        min_sig_diff_sd=("min_significant_diff", "std")).reset_index()

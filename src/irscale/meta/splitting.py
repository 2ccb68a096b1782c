"""Topic-splitting consistency of significance tests (Ferro & Sanderson 2022, §3.2–3.3) and the swap
method.

Splits (Ferro & Sanderson 2022, §3.2)
    For a topic-set size s, each of R repetitions draws a random permutation of the n
    topics: its first s topics form TS1, the next s' = min(s, n − s) form TS2 (disjoint;
    with 2s > n, TS2 holds the n − s topics left, as the 125/124 split of Ferro & Sanderson (2022)).
    The repetitions of a size come from their own random stream (the seed and the size),
    so they do not depend on which other sizes are studied.
Decisions
    A procedure (:mod:`irscale.meta.procedures`: MD1, MD2, the fake MD1f/MD2f/MD3f, shard
    models, Kruskal–Wallis, Friedman, randomised Tukey HSD, two-system tests) runs on each
    half; for the pair (S1, S2) it gives a direction, sign(estimate(S1) − estimate(S2)),
    and a decision S1 ≫ S2 / S2 ≫ S1 (significant) or S1 > S2 / S2 > S1 (not).
    *Same model*: one procedure on both halves; *different models*: procedure A on TS1,
    procedure B on TS2 (Ferro & Sanderson 2022, §3.2).
Measures per split (Ferro & Sanderson 2022, §3.3)
    AA  (active agreement)     significant on both halves, same direction;
    AD  (active disagreement)  significant on both halves, opposite directions;
    MA  (mixed agreement)      significant on exactly one half, same direction on both;
    MD  (mixed disagreement)   significant on exactly one half, opposite directions;
    Jaccard  J = |Sig1 ∩ Sig2| / |Sig1 ∪ Sig2|   (0 when both sets are empty),
    Overlap  O = |Sig1 ∩ Sig2| / min(|Sig1|, |Sig2|)   (0 when one set is empty),
    with Sig the sets of significantly different (unordered) pairs; Kendall's τ
    (:func:`irscale.stats.kendall.kendall_tau`) between the two rankings of systems by
    the procedures' estimates. Pairs whose difference is exactly 0 on a half have no
    direction and fall in none of AA, AD, MA, MD.
    Bias = 1 − AA / (AA + AD + MA/2 + MD/2), computed from the counts averaged over the
    repetitions (Ferro & Sanderson 2022, §5.2, Table 6; 0 when nothing is significant).
Swap method (Voorhees & Buckley, 2002; Sanderson & Zobel, 2005; Sakai 2014, §5.1)
    On the same kind of splits, a pair *swaps* when the differences of its mean scores on
    TS1 and TS2 have opposite signs (d1 · d2 < 0). Pairs are binned by |d1| (bins of
    ``bin_width``); the swap rate of a bin is swaps / pairs in it. With ``test`` only the
    pairs significant on TS1 are counted (Sanderson & Zobel's filter). Pairs with d1 = 0
    are left out.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..core.notebook import HtmlRepr
from ..core.numbers import declare, undefined
from ..core.progress import ProgressArg, check_progress, progress_reporter
from ..errors import AlignmentError, InputError, NoVarianceWarning, ParameterError
from ..io.formats import TABLE_FORMATS
from ..io.user_tables import place
from ..parallel import ExecutorArg, check_executor, executor_scope, is_local, run_tasks
from ..stats import ShardScores
from ..stats.corrections import Correction, correction_name
from ..stats.kendall import kendall_tau
from ..stats.names import SHARD_EMPTY, is_resampling
from ..stats.registry import TESTS
from ..stats.resampling import (
    RngArg,
    check_rng,
)
from ..stats.shards import _apply_policy
from ..stats.tables import Format, alpha_text, check_format, value_text
from ..stats.validation import as_floats, check_count, check_counts
from .common import (
    derived_seed,
    format_frame,
    generator,
    pair_index,
    restrict_systems,
    score_table,
    seed_sequence,
)
from .params import (
    SPLIT,
    SPLIT_METRICS,
    SPLIT_REPETITIONS,
    SPLIT_SIZE,
    SWAP,
    TOPIC_SPLITS,
)
from .procedures import Decisions, canonical_procedure, decide, is_shard_procedure

#: Bins of the swap method are numbered below this (exact in 64-bit floats).
MAX_BINS = 2.0**53
#: Repetitions of a split size per task on an executor (any number gives the same results:
#: every repetition and half draws from its own stream).
REPETITIONS_PER_TASK = 16
#: Default split sizes for a 50-topic collection (Ferro & Sanderson (2022) use 2–50% of 249 topics).
DEFAULT_SIZES: tuple[int, ...] = (5, 10, 15, 20, 25)
METRICS: tuple[str, ...] = SPLIT_METRICS

__all__ = ["DEFAULT_SIZES", "METRICS", "SplitStudy", "SwapRates", "TopicSplits",
           "agreement", "bias", "check_sizes", "split_study", "swap_rates", "topic_splits"]


@dataclass(frozen=True, eq=False)
class TopicSplits(HtmlRepr):
    """R repetitions of two disjoint topic sets: row r of ``first``/``second`` holds the
    topic indices of TS1/TS2 of repetition r. ``to_frame()``: one row per (repetition,
    set, position) with the topic index; ``format(fmt)``."""

    size: int
    first: np.ndarray
    second: np.ndarray

    @property
    def repetitions(self) -> int:
        return self.first.shape[0]

    def to_frame(self) -> pd.DataFrame:
        """Long form: ``repetition``, ``set`` (``TS1``/``TS2``), ``position``, ``topic``
        (the topic's index)."""
        parts = []
        for name, block in (("TS1", self.first), ("TS2", self.second)):
            reps, width = block.shape
            parts.append(pd.DataFrame({
                "repetition": np.repeat(np.arange(reps), width), "set": name,
                "position": np.tile(np.arange(width), reps), "topic": block.ravel(),
            }))
        return (pd.concat(parts, ignore_index=True)
                .sort_values(["repetition", "set", "position"], kind="stable")
                .reset_index(drop=True))

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The splits (:meth:`to_frame`) as a ``text``, ``csv``, ``markdown``, ``latex`` or
        ``json`` table."""
        return format_frame(self.to_frame(), fmt, digits=digits)

    def __repr__(self) -> str:
        return (f"TopicSplits({self.repetitions} repetitions of {self.size} + "
                f"{self.second.shape[1]} topics)")


@TOPIC_SPLITS
def topic_splits(
    n_topics: int, size: int, repetitions: int = 100, *, rng: RngArg = None,
) -> TopicSplits:
    """R random splits of ``n_topics`` topics into TS1 (``size`` topics) and TS2
    (min(size, n − size)), deterministic for a seed and a size (module documentation).
    ``rng``: an integer seed, a :class:`numpy.random.Generator` or ``None``."""
    rng = check_rng(rng)
    check_count(size, "size")
    if size >= n_topics:
        raise ParameterError(f"split size {size} leaves no topic for TS2 ({n_topics} topics)")
    second = min(size, n_topics - size)
    if second < 2 or size < 2:
        raise ParameterError(f"each topic set needs at least 2 topics (sizes {size}, {second})")
    gen = generator(derived_seed(seed_sequence(rng=rng), size))
    order = gen.permuted(np.tile(np.arange(n_topics), (repetitions, 1)), axis=1)
    return TopicSplits(size, order[:, :size], order[:, size:size + second])


def check_sizes(sizes: Sequence[int], n_topics: int, name: str = "sizes") -> list[int]:
    """The split sizes as ints, refused unless every one can be run on ``n_topics``
    topics: at least 2 topics in TS1 and in TS2 (sizes in [2, n − 2]), no size twice. A
    size above n/2 is run with the n − size topics left as TS2, and says so (warning)."""
    values = check_counts(sizes, name, "a split size")
    bad = [s for s in values if s < SPLIT_SIZE.low or s > n_topics - 2]
    if bad:
        raise ParameterError(
            f"{name}: split size(s) {bad} cannot be run on {n_topics} topics: TS1 and TS2 "
            f"need at least 2 topics each, so sizes must lie in [2, {n_topics - 2}]"
            if n_topics >= 4 else
            f"{name}: {n_topics} topics cannot be split into two sets of at least 2 topics",
            param=name)
    for s in values:
        if 2 * s > n_topics:
            warnings.warn(f"split size {s} is more than half of the {n_topics} topics: TS2 "
                          f"holds the {n_topics - s} topics left", stacklevel=3)
    return values


def agreement(
    sig_1: np.ndarray, dir_1: np.ndarray, sig_2: np.ndarray, dir_2: np.ndarray,
) -> dict[str, np.ndarray]:
    """AA, AD, MA, MD, Jaccard, Overlap and the significant counts, per row.

    Inputs are (repetitions × pairs): significance decisions and directions (−1, 0, +1)
    on TS1 and TS2 (module documentation).
    """
    same = dir_1 * dir_2 > 0
    opposite = dir_1 * dir_2 < 0
    both = sig_1 & sig_2
    one = sig_1 ^ sig_2
    n_1 = sig_1.sum(axis=-1)
    n_2 = sig_2.sum(axis=-1)
    inter = both.sum(axis=-1)
    union = n_1 + n_2 - inter
    smaller = np.minimum(n_1, n_2)
    with np.errstate(divide="ignore", invalid="ignore"):
        jaccard = np.where(union > 0, inter / np.maximum(union, 1), 0.0)
        overlap = np.where(smaller > 0, inter / np.maximum(smaller, 1), 0.0)
    return {
        "sig_1": n_1, "sig_2": n_2,
        "AA": (both & same).sum(axis=-1), "AD": (both & opposite).sum(axis=-1),
        "MA": (one & same).sum(axis=-1), "MD": (one & opposite).sum(axis=-1),
        "jaccard": jaccard, "overlap": overlap,
    }


def bias(aa: float, ad: float, ma: float, md: float) -> float:
    """Bias = 1 − AA / (AA + AD + MA/2 + MD/2) (Ferro & Sanderson 2022, §5.2; 0 when all are 0)."""
    total = aa + ad + ma / 2.0 + md / 2.0
    return 1.0 - aa / total if total > 0 else 0.0


def _inputs(
    data: object, measure: str | None, shards: object, systems: Sequence[str] | None,
) -> tuple[np.ndarray, np.ndarray | None, tuple[str, ...], tuple[str, ...]]:
    values, topics, names = score_table(data, measure)
    shard_values = None
    if shards is not None:
        if isinstance(shards, ShardScores):
            if isinstance(data, ScoreMatrix) and (set(shards.topics) != set(topics)
                                                  or set(shards.systems) != set(names)):
                raise AlignmentError("the shard scores and the score matrix have different "
                                     "topics or systems")
            t_index = {t: i for i, t in enumerate(shards.topics)}
            s_index = {s: i for i, s in enumerate(shards.systems)}
            if set(shards.topics) == set(topics) and set(shards.systems) == set(names):
                shard_values = shards.values[[t_index[t] for t in topics]][
                    :, [s_index[s] for s in names]]
            else:
                shard_values = shards.values
        else:
            shard_values = as_floats(shards, "shards")
        if shard_values.shape[:2] != values.shape:
            raise AlignmentError(f"shards: shard scores of shape {shard_values.shape} do not "
                                 f"match the {values.shape} score table")
    values, kept = restrict_systems(values, names, systems)
    if shard_values is not None:
        shard_values, _ = restrict_systems(shard_values, names, systems)
    return values, shard_values, topics, kept


@dataclass(frozen=True, eq=False)
class SplitStudy(HtmlRepr):
    """The per-split measures of a topic-splitting study and their summaries.

    ``per_split`` has one row per (size, repetition, comparison): ``size`` and ``size_2``
    (the sizes of TS1 and TS2), ``repetition``, ``model_1`` (on TS1), ``model_2`` (on TS2)
    and the measures :data:`METRICS`. A report: ``to_frame()`` is ``per_split``,
    ``format(fmt)`` the summary (or one metric's table: ``format(metric, fmt)``).
    """

    per_split: pd.DataFrame
    n_topics: int
    n_systems: int
    repetitions: int
    alpha: float
    seed: object = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def n_pairs(self) -> int:
        return self.n_systems * (self.n_systems - 1) // 2

    def to_frame(self) -> pd.DataFrame:
        """Every measure of every split (a copy of ``per_split``)."""
        return self.per_split.copy()

    def summary(self) -> pd.DataFrame:
        """Means over the repetitions per (size, model_1, model_2), plus the standard
        deviation of τ and the Bias (from the mean counts)."""
        keys = ["size", "size_2", "model_1", "model_2"]
        grouped = self.per_split.groupby(keys, sort=False)
        out = grouped[list(METRICS)].mean()
        out["tau_sd"] = grouped["tau"].std(ddof=1)
        out["bias"] = [bias(aa, ad, ma, md) for aa, ad, ma, md in
                       zip(out["AA"], out["AD"], out["MA"], out["MD"], strict=True)]
        return out.reset_index()

    def table(self, metric: str, *, cross: bool = False) -> pd.DataFrame:
        """``metric`` averaged over repetitions: one row per comparison, one column per
        split size (Ferro & Sanderson 2022, Tables 1–5, 7–12). ``cross``: the different-model
        rows."""
        if metric not in (*METRICS, "bias", "tau_sd"):
            raise ParameterError(f"unknown metric {metric!r}; choose from {list(METRICS)}")
        summary = self.summary()
        same = summary["model_1"] == summary["model_2"]
        summary = summary[~same if cross else same]
        label = np.where(summary["model_1"] == summary["model_2"], summary["model_1"],
                         summary["model_1"] + " vs " + summary["model_2"])
        frame = summary.assign(comparison=label).pivot(index="comparison", columns="size",
                                                       values=metric)
        order = list(dict.fromkeys(label))
        frame = frame.loc[order]
        frame.columns = [f"{c} topics" for c in frame.columns]
        return frame

    def agreement_table(self, size: int | None = None) -> pd.DataFrame:
        """AA, AD, MA, MD and Bias (%) per comparison at one size (default: the largest),
        like Ferro & Sanderson (2022), Table 6."""
        summary = self.summary()
        size = int(summary["size"].max()) if size is None else size
        rows = summary[summary["size"] == size]
        if rows.empty:
            raise ParameterError(f"no split of size {size} in the study")
        label = np.where(rows["model_1"] == rows["model_2"], rows["model_1"],
                         rows["model_1"] + " vs " + rows["model_2"])
        out = rows[["AA", "AD", "MA", "MD"]].copy()
        out.insert(0, "comparison", label)
        out["bias_%"] = 100.0 * rows["bias"].to_numpy()
        return out.reset_index(drop=True)

    def format(self, metric: str | None = None, fmt: Format = "text", *, digits: int = 2) -> str:
        """One metric's table (sizes as columns) or, by default, the whole summary.
        ``format(fmt)`` with a format name (``"json"``...) first is the summary in it."""
        if metric is not None and metric in TABLE_FORMATS and fmt == "text":
            fmt = check_format(metric)
            metric = None
        if metric is None:
            frame = self.summary()
        else:
            frame = self.table(metric).reset_index()
        title = None if fmt in ("csv", "json") else repr(self)
        return format_frame(frame, fmt, digits=digits, title=title)

    def __repr__(self) -> str:
        sizes = sorted(set(self.per_split["size"]))
        comparisons = list(dict.fromkeys(zip(self.per_split["model_1"],
                                             self.per_split["model_2"], strict=True)))
        return (f"SplitStudy({self.n_topics} topics, {self.n_systems} systems "
                f"({self.n_pairs} pairs), sizes {sizes}, {self.repetitions} repetitions, "
                f"{len(comparisons)} comparison(s), α={alpha_text(self.alpha)})")


@SPLIT
def split_study(
    data: object,
    sizes: Sequence[int] = DEFAULT_SIZES,
    repetitions: int = 100,
    *,
    models: Sequence[str] = ("MD1", "MD2", "MD2f"),
    cross: Sequence[tuple[str, str]] = (),
    measure: str | None = None,
    systems: Sequence[str] | None = None,
    shards: object = None,
    alpha: float = 0.05,
    rng: RngArg = None,
    correction: Correction | None = "none",
    options: Mapping[str, Mapping[str, object]] | None = None,
    progress: ProgressArg = False,
    executor: ExecutorArg = "local",
    procedures: tuple[str, ...] = (),
) -> SplitStudy:
    """Topic-splitting study (module documentation).

    ``data``: score matrix / wide DataFrame / topics × systems array; ``models``: the procedures
    compared with themselves on TS1 and TS2; ``cross``: (A, B) pairs run as A on TS1 and B on TS2;
    ``systems``: restrict to these runs (e.g. one participant's); ``shards``: topics × systems ×
    shards scores (:class:`irscale.stats.ShardScores` or an array) for shard models such as MD3 and
    MD3f; ``options``: per procedure name, its options (e.g. ``{"bootstrap": {"samples": 1000}}``,
    ``{"MD3": {"empty": "zero"}}``); Monte Carlo procedures get a stream per split size, repetition
    and half from ``rng`` (an integer seed, a :class:`numpy.random.Generator` or ``None``).
    ``progress``: ``True`` (a counter per split size on standard error) or a callable
    ``progress(done, total)`` over the len(sizes) × repetitions splits. ``executor``: where the
    repetitions run (:mod:`irscale.parallel`; on Dask, in tasks of :data:`REPETITIONS_PER_TASK`);
    the results do not depend on it.

    ``shards`` applies to the shard models among the procedures studied (``models`` and
    both of every ``cross`` pair, by their canonical names, in any case:
    :func:`~irscale.meta.params.split_procedures`): given without one, it is refused on
    entry by the binding (:data:`irscale.meta.params.SPLIT`), as ``irscale meta split``
    refuses ``--shard-scores`` and ``--empty``. ``procedures`` is that binding's, derived on
    entry (:class:`~irscale.core.binding.Derived`), never given.
    """
    del procedures  # (the body reads the procedures from models and cross, as it checks them)
    executor = check_executor(executor)
    rng = check_rng(rng)
    check_progress(progress)
    values, shard_values, topics, names = _inputs(data, measure, shards, systems)
    sizes = check_sizes(sizes, values.shape[0])
    comparisons = [(canonical_procedure(m), canonical_procedure(m)) for m in models]
    comparisons += [(canonical_procedure(a), canonical_procedure(b)) for a, b in cross]
    if not comparisons:
        raise ParameterError("no procedure to study: give models or cross pairs")
    needed = list(dict.fromkeys(name for pair in comparisons for name in pair))
    if correction_name(correction) != "none" and not any(m in TESTS for m in needed):
        raise ParameterError(f"correction {correction!r} applies to two-system tests, and "
                             f"the study has none ({needed})")
    if any(is_shard_procedure(m) for m in needed) and shard_values is None:
        raise InputError("shard models need shard scores (shards=...)")
    chosen = {canonical_procedure(name): dict(value) for name, value in (options or {}).items()}
    unused = sorted(set(chosen) - set(needed))
    if unused:
        raise ParameterError(f"options given for procedure(s) {unused} not in the study")
    if shard_values is not None:
        _check_undefined(shard_values, topics, names, shards, needed, chosen)
    seeds = seed_sequence(rng=rng)
    n, k = values.shape
    rows: list[pd.DataFrame] = []
    with executor_scope(executor) as ready:
        for position, size in enumerate(sizes):
            report = _split_progress(progress, size, position, repetitions, len(sizes))
            splits = topic_splits(n, int(size), repetitions, rng=derived_seed(seeds, 0))
            sig, way, est = _split_decisions(
                values, shard_values, splits, report, ready,
                (tuple(needed), chosen, correction, alpha, names, seeds))
            for first, second in comparisons:
                a, b = needed.index(first), needed.index(second)
                counts = agreement(sig[a, 0], way[a, 0], sig[b, 1], way[b, 1])
                taus = [kendall_tau(est[a, 0, r], est[b, 1, r]).tau
                        for r in range(repetitions)]
                frame = pd.DataFrame({"size": int(size), "size_2": splits.second.shape[1],
                                      "repetition": np.arange(repetitions), "model_1": first,
                                      "model_2": second, **counts, "tau": taus})
                rows.append(frame)
    return SplitStudy(per_split=pd.concat(rows, ignore_index=True), n_topics=n, n_systems=k,
                      repetitions=repetitions, alpha=alpha,
                      seed=None if isinstance(rng, (np.random.Generator,
                                                    np.random.SeedSequence)) else rng,
                      extra={"systems": names, "correction": correction})


def _check_undefined(shard_values: np.ndarray, topics: tuple[str, ...],
                     systems: tuple[str, ...], shards: object, needed: Sequence[str],
                     chosen: Mapping[str, Mapping[str, object]]) -> None:
    """The empty-shard policy of every shard model on the whole table, before the splits
    (whose scores have lost their labels): ``error``, the first undefined score named by
    its topic, system and shard (and by its file, line and text where it was read); any
    other, a warning that says how many it applies to."""
    missing = int(np.isnan(shard_values).sum())
    if not missing:
        return
    labels = shards.shards if isinstance(shards, ShardScores) else tuple(
        f"shard{k + 1}" for k in range(shard_values.shape[2]))
    lines = shards.lines if isinstance(shards, ShardScores) else None
    table = ShardScores(shard_values, topics, systems, labels, lines)
    for name in needed:
        if is_shard_procedure(name):
            policy = str(chosen.get(name, {}).get("empty", "error"))
            _apply_policy(table, SHARD_EMPTY.check(policy))  # (raises for "error")
            warnings.warn(f"{missing} undefined shard score(s): {name} applies the "
                          f"empty-shard policy {policy!r} to them in every half", stacklevel=3)


def _split_task(
    values: np.ndarray, shard_values: np.ndarray | None, setting: tuple[Any, ...],
    remote: bool, size: int, start: int, first: np.ndarray, second: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The decisions of every procedure on both halves of repetitions ``start, start + 1,
    ...`` (rows of ``first`` / ``second``): significance and direction arrays (procedures
    × 2 halves × repetitions × pairs) and estimates (procedures × 2 × repetitions ×
    systems). Monte Carlo procedures draw from stream (1, size, repetition, half) of
    ``seeds``; on a Dask worker (``remote``) they run on one thread unless told."""
    needed, chosen, correction, alpha, names, seeds = setting
    k = values.shape[1]
    shape = (len(needed), 2, len(first))
    sig = np.zeros((*shape, k * (k - 1) // 2), dtype=bool)
    way = np.zeros((*shape, k * (k - 1) // 2), dtype=np.int8)
    est = np.zeros((*shape, k))
    for r in range(len(first)):
        for half, topics in enumerate((first[r], second[r])):
            for m, model in enumerate(needed):
                opts: dict[str, Any] = dict(chosen.get(model, {}))
                if is_resampling(model):
                    opts["rng"] = derived_seed(seeds, 1, size, start + r, half)
                    if remote and "executor" not in opts:
                        opts.setdefault("workers", 1)
                if model in TESTS:
                    opts["correction"] = correction
                table = shard_values if is_shard_procedure(model) else values
                assert table is not None  # refused before without shards
                with warnings.catch_warnings():  # a subset's pair of no variance: p = 1
                    warnings.simplefilter("ignore", NoVarianceWarning)
                    result: Decisions = decide(table[topics], model, alpha=alpha,
                                               systems=names, **opts)
                sig[m, half, r] = result.significant
                way[m, half, r] = result.direction
                est[m, half, r] = result.estimates
    return sig, way, est


def _split_decisions(
    values: np.ndarray, shard_values: np.ndarray | None, splits: TopicSplits,
    report: Callable[[int], None], executor: ExecutorArg, setting: tuple[Any, ...],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_split_task` over every repetition of ``splits``, in tasks of
    :data:`REPETITIONS_PER_TASK` on ``executor`` (in this thread when local: Monte Carlo
    procedures use the local threads themselves)."""
    starts = range(0, splits.repetitions, REPETITIONS_PER_TASK)
    tasks = [(splits.size, s, splits.first[s:s + REPETITIONS_PER_TASK],
              splits.second[s:s + REPETITIONS_PER_TASK]) for s in starts]
    parts = _repetition_tasks(_split_task, tasks, (values, shard_values, setting), report,
                              executor)
    sig, way, est = (np.concatenate([part[i] for part in parts], axis=2) for i in range(3))
    return sig, way, est


def _split_progress(progress: ProgressArg, size: int, position: int, repetitions: int,
                    count: int):
    """``report(done)`` for the repetitions of one split size: a callable ``progress``
    sees the whole study (``done`` of ``count × repetitions``); ``True`` prints a counter
    per size."""
    if callable(progress):
        return progress_reporter(progress, repetitions, offset=position * repetitions,
                                 overall=count * repetitions)
    return progress_reporter(progress, repetitions, f"splits of {size} topics",
                             units=SPLIT_REPETITIONS)


@dataclass(frozen=True, eq=False)
class SwapRates(HtmlRepr):
    """Swap-method results: ``rates`` per (size, bin) and ``overall`` per size. A report:
    ``to_frame()`` (``overall``, or ``rates`` with ``by_bin=True``), ``format(fmt)``."""

    rates: pd.DataFrame
    overall: pd.DataFrame
    bin_width: float
    test: str | None

    def to_frame(self, *, by_bin: bool = False) -> pd.DataFrame:
        """The swap rate per size (a copy of ``overall``), or per size and bin."""
        return (self.rates if by_bin else self.overall).copy()

    def format(self, fmt: Format = "text", *, digits: int = 4, by_bin: bool = False) -> str:
        return format_frame(self.to_frame(by_bin=by_bin), fmt, digits=digits)

    def __repr__(self) -> str:
        parts = ", ".join(f"{int(size)} topics: {value_text(rate)}" for size, rate in
                          zip(self.overall["size"], self.overall["rate"], strict=True))
        return f"SwapRates(bin width {self.bin_width:g}; swap rate {parts})"


def _swap_task(values: np.ndarray, setting: tuple[Any, ...], remote: bool, size: int,
               start: int, first: np.ndarray) -> np.ndarray:
    """Per repetition ``start, start + 1, ...`` (rows of ``first``), the pairs the test
    finds significant on TS1 (stream (1, size, repetition, 0) of ``seeds``)."""
    test, alpha, names, seeds, resamples, samples = setting
    out = np.zeros((len(first), len(names) * (len(names) - 1) // 2), dtype=bool)
    for r in range(len(first)):
        opts: dict[str, Any] = {}
        if resamples:
            opts["rng"] = derived_seed(seeds, 1, size, start + r, 0)
            if samples is not None:
                opts["samples"] = samples
            if remote:
                opts["workers"] = 1
        with warnings.catch_warnings():  # a subset's pair of no variance: p = 1
            warnings.simplefilter("ignore", NoVarianceWarning)
            out[r] = decide(values[first[r]], test, alpha=alpha, systems=names,
                            **opts).significant
    return out


def _swap_filter(values: np.ndarray, splits: TopicSplits, report: Callable[[int], None],
                 executor: ExecutorArg, setting: tuple[Any, ...]) -> np.ndarray:
    """:func:`_swap_task` over every repetition of ``splits`` (as :func:`_split_decisions`)."""
    starts = range(0, splits.repetitions, REPETITIONS_PER_TASK)
    tasks = [(splits.size, s, splits.first[s:s + REPETITIONS_PER_TASK]) for s in starts]
    return np.concatenate(_repetition_tasks(_swap_task, tasks, (values, setting), report,
                                            executor))


def _repetition_tasks(task: Callable[..., Any], tasks: list[tuple[Any, ...]],
                      shared: tuple[Any, ...], report: Callable[[int], None],
                      executor: ExecutorArg) -> list[Any]:
    """The results of ``task`` over ``tasks`` (each holding its repetitions' first halves
    third), in task order, ``shared`` and a flag "runs remotely" sent once; ``report``
    counts the repetitions done. Local runs keep one thread for the loop (Monte Carlo
    procedures use the local threads themselves)."""
    parts: list[Any] = []
    finished = 0

    def done(index: int) -> None:
        nonlocal finished
        finished += len(tasks[index][2])
        report(finished)

    local = is_local(executor)
    report(0)  # progress from the start: one task may hold every repetition
    run_tasks(task, tasks, lambda _, part: parts.append(part), shared=(*shared, not local),
              executor=executor, workers=1 if local else None, done=done)
    return parts


def _swap_bins(size: int, splits: TopicSplits, d1: np.ndarray, d2: np.ndarray,
               counted: np.ndarray, bin_width: float) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The swap rates of one split size per bin of |d1|, and overall."""
    swapped = counted & (d1 * d2 < 0)
    position = np.floor(np.abs(d1[counted]) / bin_width)  # below 2^53: _check_bin_width
    present, inverse = np.unique(position.astype(np.int64), return_inverse=True)
    totals = np.bincount(inverse, minlength=len(present))
    swaps = np.bincount(inverse, weights=swapped[counted].astype(np.float64),
                        minlength=len(present))
    rates = pd.DataFrame({
        "size": size, "bin_low": present * bin_width,
        "bin_high": (present + 1) * bin_width, "pairs": totals,
        "swaps": swaps.astype(np.int64), "rate": swaps / totals,
    })
    total, swapped_total = int(counted.sum()), int(swapped.sum())
    return rates, {"size": size, "size_2": splits.second.shape[1], "pairs": total,
                   "swaps": swapped_total,
                   "rate": swapped_total / total if total else float("nan")}


#: Why a swap rate is undefined.
_NO_PAIR = undefined("no pair of systems is counted: a swap rate is 0/0")


def _check_bin_width(values: np.ndarray, topics: Sequence[str], names: Sequence[str],
                     bin_width: float, matrix: ScoreMatrix | None) -> None:
    """Refuse, before any split is drawn, a bin width that would number the bins of
    some possible mean difference beyond 2^53 (:data:`MAX_BINS`): the difference of two
    systems' means over a topic subset is at most the largest spread of one topic's scores
    (max − min over systems). The message names the topic, the system whose score lies
    farthest from that topic's median (the value that makes the bins impossible) and,
    read from a file (``matrix``, of one measure), its file, line and text."""
    with np.errstate(over="ignore", invalid="ignore"):
        spread = values.max(axis=1) - values.min(axis=1)
        fits = spread / bin_width < MAX_BINS
    if fits.all():
        return
    t = int(np.argmin(fits))
    row = values[t]
    with np.errstate(over="ignore", invalid="ignore"):
        s = int(np.argmax(np.abs(row - np.median(row))))
    at = {} if matrix is None else matrix.where(topics[t], matrix.measures[0])
    raise ParameterError(
        f"the bin width (--bin-width, bin_width) {bin_width:g} is too small for these "
        f"scores: system {names[s]!r} scores {row[s]:g} on topic {topics[t]!r}"
        f"{f' ({place(at)})' if at else ''} (the topic's scores span {row.min():g} to "
        f"{row.max():g}), so mean differences up to {spread[t]:.4g} would number the bins "
        "beyond 2^53")


@SWAP
def swap_rates(
    data: object,
    sizes: Sequence[int] = DEFAULT_SIZES,
    repetitions: int = 100,
    *,
    measure: str | None = None,
    systems: Sequence[str] | None = None,
    bin_width: float = 0.01,
    test: str | None = None,
    alpha: float = 0.05,
    samples: int | None = None,
    rng: RngArg = None,
    progress: ProgressArg = False,
    executor: ExecutorArg = "local",
) -> SwapRates:
    """The swap method on random disjoint splits (module documentation); the splits are
    those of :func:`split_study` for the same ``rng`` (an integer seed, a
    :class:`numpy.random.Generator` or ``None``).
    ``samples``: resamples of a resampling ``test`` (default: the test's own, 10,000 for
    randomization, 1,000 for the bootstraps); ``alpha``: the level of ``test``. Both are
    refused without a test, ``samples`` with a test that does not resample (checked on
    entry with the other parameters: :data:`irscale.meta.params.SWAP`). ``progress``: a
    bool or a callable ``progress(done, total)`` over the splits;
    ``executor``: where the test's repetitions run (:mod:`irscale.parallel`)."""
    executor = check_executor(executor)
    rng = check_rng(rng)
    check_progress(progress)
    values, _, topics, names = _inputs(data, measure, None, systems)
    sizes = check_sizes(sizes, values.shape[0])
    _check_bin_width(values, topics, names, bin_width,
                     data.measure(measure) if isinstance(data, ScoreMatrix) else None)
    if test is not None and is_shard_procedure(test):
        raise ParameterError(f"the swap method filters with a test on topics × systems "
                             f"scores; {test!r} needs shard scores")
    resamples = test is not None and is_resampling(test)
    seeds = seed_sequence(rng=rng)
    n, k = values.shape
    i, j = pair_index(k)
    rate_rows, overall_rows = [], []
    with executor_scope(executor) as ready:
        for position, size in enumerate(sizes):
            report = _split_progress(progress, size, position, repetitions, len(sizes))
            splits = topic_splits(n, int(size), repetitions, rng=derived_seed(seeds, 0))
            means_1 = values[splits.first].mean(axis=1)  # repetitions × systems
            means_2 = values[splits.second].mean(axis=1)
            d1 = means_1[:, i] - means_1[:, j]
            d2 = means_2[:, i] - means_2[:, j]
            counted = d1 != 0
            if test is not None:
                counted &= _swap_filter(values, splits, report, ready,
                                        (test, alpha, names, seeds, resamples, samples))
            else:
                report(repetitions)
            rates, overall = _swap_bins(int(size), splits, d1, d2, counted, bin_width)
            rate_rows.append(rates)
            overall_rows.append(overall)
    return SwapRates(rates=declare(pd.concat(rate_rows, ignore_index=True), {"rate": _NO_PAIR}),
                     overall=declare(pd.DataFrame(overall_rows), {"rate": _NO_PAIR}),
                     bin_width=bin_width,
                     test=test)

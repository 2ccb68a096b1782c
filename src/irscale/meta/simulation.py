"""Simulation studies of significance tests: Type I, II and III error rates.

The design of Urbano, Lima & Hanjalic (SIGIR 2019; Ferro & Sanderson 2022, §2 cites this line of
work): simulate many topics × systems score matrices whose true system means are known, run
every test (and correction) on every pair of systems of every matrix, and count

* **Type I** errors: a pair with no true difference found significant; the rate is over
  the comparisons of such pairs (the rate at which a test at level α should err is α);
* **Type II** errors: a pair with a true difference not found significant; the rate is
  over the comparisons of such pairs (1 − power);
* **Type III** errors: a pair with a true difference found significant in the wrong
  direction (sign of the observed mean difference ≠ sign of the true one); the rate is
  over the comparisons of such pairs. ``power`` counts the significant comparisons with
  the right direction.

Each rate comes with a 95% Wilson score interval on its counts (Wilson, 1927). It treats
the comparisons as independent: exact with one pair per matrix, an approximation when
several pairs of one matrix share its topics.

Generative models (stated, so that the truth is known)
    :class:`NormalModel` — X[t, s] = μ_s + u_t + e_ts with topic effects u_t ~ N(0,
    ``topic_sd``²) and errors e_ts ~ N(0, ``error_sd``²), all independent; the true
    difference of (i, j) is μ_i − μ_j (``effects``; all equal by default: every pair is
    null, and the paired t-test's assumptions hold exactly).
    :class:`BootstrapModel` — the n rows (topics) of a real matrix drawn with replacement
    (Sakai's and Urbano et al.'s resampling of topics); the truth is the real matrix's
    column means. ``null=True`` first moves every column to the grand mean (x_ts − x̄_s +
    x̄), so that every pair is null.
    :class:`~irscale.meta.stochastic.CopulaModel` — new topics drawn from margins and a
    copula fitted to a real matrix (Urbano & Nagler 2018; the model Urbano, Lima & Hanjalic
    2019 use); the truth is the margins' expected values, made equal for two systems
    (``equal``) or all (``null``) by transforming margins.
    :class:`~irscale.meta.simulated_runs.RunsModel` — runs drawn from qrels by a binormal
    score model of a given quality per system (after Parapar et al. 2020, 2021), scored
    with a measure; systems of equal quality have exactly equal true means.

Topic subsets (Boytsov, Belova & Westfall 2013; Sakai's topic-subset experiments)
    :class:`BootstrapModel` with ``sizes`` (``BootstrapModel.of(data, topics=[10, 25,
    50])``, ``meta simulate --model bootstrap --topics 10,25,50``): each repetition draws,
    for each size n, n of the matrix's topics without replacement and runs every test on
    them; the truth is each test's conclusion on the full set (per pair: not significant,
    or significant with the sign of its difference). Per size and (test, correction):
    **agreement** (the subset's conclusion is the full set's; over every comparison),
    **Type I** (significant on the subset, not on the full set; over the pairs the full set
    finds not significant), **Type II** (not significant on the subset, significant on the
    full set) and **Type III** (significant on both, in opposite directions), the last two
    over the pairs the full set finds significant; each with its Wilson interval. A size
    equal to the matrix's topics reproduces the full set's conclusions exactly (for the
    tests that do not resample).

Reproducibility and checkpoints
    Matrix r (and any Monte Carlo test run on it) draws from its own stream, child r of
    the study's seed (:func:`irscale.meta.common.derived_seed`), whatever the executor or
    the grouping of repetitions into tasks (:data:`REPETITIONS_PER_TASK`). With
    ``checkpoint=DIR`` the counts of every finished task are written to ``DIR`` (one file
    per task, renamed into place when complete) beside ``study.json``, the study's
    description; run again with the same arguments, the study reads the finished tasks and
    computes only the others (other arguments: refused, naming the difference), so an
    interrupted study resumes with the results it would have had uninterrupted.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd
from scipy import stats as sps

from ..core.budget import MAX_MEMORY, format_size
from ..core.numbers import blank, declare, undefined
from ..core.progress import ProgressArg, check_progress, counted_work, declared_memory
from ..errors import FileAccessError, InputError, ParameterError
from ..io.checkpoint import read_counts, read_study
from ..io.json_input import parse_json
from ..parallel import ExecutorArg, check_executor, is_local, run_tasks
from ..stats import pairwise_tests
from ..stats.corrections import Correction, correction_name
from ..stats.protocol import TableResult
from ..stats.registry import TESTS, test_spec
from ..stats.resampling import (
    RngArg,
    check_rng,
)
from ..stats.tables import alpha_text
from ..stats.validation import score_table
from .common import derived_seed, generator, pair_index, seed_sequence
from .params import (
    BOOTSTRAP_MODEL,
    EFFECT,
    NORMAL_MODEL,
    NORMAL_SYSTEMS,
    NORMAL_TOPICS,
    SIMULATED_MATRICES,
    SIMULATION,
    TOPIC_SUBSETS,
)
from .simulated_runs import RunsModel
from .stochastic import CopulaModel

#: Repetitions per task (any number gives the same results: each matrix has its stream).
REPETITIONS_PER_TASK = 25
#: Bytes of bookkeeping per task (its bounds, in the lists of tasks and of tasks to run:
#: 185 measured with tracemalloc on 400,000 tasks, CPython 3.11).
TASK_BYTES = 200
#: The counts kept per (test, correction): Type I errors, null comparisons, Type II and
#: Type III errors, correct significant directions, non-null comparisons.
COUNTS: tuple[str, ...] = ("type_I", "null", "type_II", "type_III", "power", "non_null")
#: Confidence level of the reported intervals.
LEVEL = 0.95

__all__ = ["BootstrapModel", "NormalModel", "SimulationStudy", "simulation_study"]


@dataclass(frozen=True)
class NormalModel:
    """X[t, s] = effects[s] + u_t + e_ts, u_t ~ N(0, topic_sd²), e_ts ~ N(0, error_sd²)
    (module documentation); ``topics`` × ``systems`` matrices."""

    topics: int = 50
    systems: int = 2
    effects: tuple[float, ...] | None = None
    topic_sd: float = 0.1
    error_sd: float = 0.1

    def __post_init__(self) -> None:
        """The fields checked against their declarations (:data:`~irscale.meta.params.
        NORMAL_MODEL`; an error s.d. of 0 would make the paired differences constant)."""
        for param in NORMAL_MODEL.params:
            param.domain.check(getattr(self, param.name), param.name)
        if self.effects is not None:
            if len(self.effects) != self.systems:
                raise ParameterError(f"effects must be {self.systems} finite numbers (one per "
                                     f"system), got {self.effects!r}", param="effects")
            for value in self.effects:
                EFFECT.check(value, "effects: a system mean")

    def means(self) -> np.ndarray:
        """The true system means μ_s."""
        return np.zeros(self.systems) if self.effects is None else \
            np.asarray(self.effects, dtype=np.float64)

    def draw(self, gen: np.random.Generator) -> np.ndarray:
        topic = gen.normal(0.0, self.topic_sd, size=(self.topics, 1))
        error = gen.normal(0.0, self.error_sd, size=(self.topics, self.systems))
        return self.means()[None, :] + topic + error

    def describe(self) -> dict[str, Any]:
        return {"model": "normal", "topics": self.topics, "systems": self.systems,
                "effects": None if self.effects is None else [float(v) for v in self.effects],
                "topic_sd": self.topic_sd, "error_sd": self.error_sd}


@dataclass(frozen=True, eq=False)
class BootstrapModel:
    """Topics of a real matrix drawn with replacement (module documentation)."""

    values: np.ndarray
    null: bool = False
    sizes: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        values, _, _ = score_table(self.values, None)  # a topics × systems table of numbers
        object.__setattr__(self, "values", np.ascontiguousarray(values, dtype=np.float64))
        if self.sizes is not None:
            sizes = tuple(TOPIC_SUBSETS.domain.check(self.sizes, "topics"))
            beyond = [n for n in sizes if n > len(values)]
            if beyond:
                raise ParameterError(f"topics: subsets of {beyond[0]} topics cannot be drawn "
                                     f"without replacement from {len(values)} topics",
                                     param="topics")
            object.__setattr__(self, "sizes", sizes)

    @classmethod
    @BOOTSTRAP_MODEL
    def of(cls, data: object, measure: str | None = None, *, null: bool = False,
           topics: int | Sequence[int] | None = None) -> BootstrapModel:
        """From a score matrix, wide DataFrame or topics × systems array; ``topics``: the
        sizes of the topic subsets to score against the full set (module documentation,
        "Topic subsets")."""
        values, _, _ = score_table(data, measure)
        if null:
            values = values - values.mean(axis=0) + values.mean()
        sizes = None if topics is None else tuple(cast(Sequence[int], topics))  # a list
        return cls(np.ascontiguousarray(values, dtype=np.float64), null, sizes)

    @property
    def systems(self) -> int:
        return self.values.shape[1]

    @property
    def topics(self) -> int:
        return self.values.shape[0]

    def means(self) -> np.ndarray:
        """The true system means: the columns' means (all equal with ``null``)."""
        if self.null:
            return np.full(self.systems, self.values.mean())
        return self.values.mean(axis=0)

    def draw(self, gen: np.random.Generator) -> np.ndarray:
        n = self.values.shape[0]
        return self.values[gen.integers(0, n, size=n)]

    def describe(self) -> dict[str, Any]:
        import hashlib

        described = {"model": "bootstrap", "null": self.null, "shape": list(self.values.shape),
                     "sha256": hashlib.sha256(self.values.tobytes()).hexdigest()}
        if self.sizes is not None:
            described["topics"] = list(self.sizes)
        return described


Model = NormalModel | BootstrapModel | CopulaModel | RunsModel
#: The models :func:`simulation_study` takes.
MODELS = (NormalModel, BootstrapModel, CopulaModel, RunsModel)


def _simulate(model: Model, procedures: tuple[tuple[str, Correction], ...], alpha: float,
              options: dict[str, dict[str, Any]], seeds: np.random.SeedSequence, start: int,
              stop: int) -> np.ndarray:
    """Counts (repetitions ``start`` to ``stop`` − 1 × procedures × :data:`COUNTS`)."""
    truth = model.means()
    i, j = pair_index(len(truth))
    true_diff = truth[i] - truth[j]
    null = true_diff == 0
    out = np.zeros((stop - start, len(procedures), len(COUNTS)), dtype=np.int64)
    for r in range(start, stop):
        matrix = model.draw(generator(derived_seed(seeds, r, 0)))
        for p, (test, correction) in enumerate(procedures):
            opts = dict(options.get(test, {}))
            if TESTS[test].resampling:
                opts["rng"] = derived_seed(seeds, r, 1, p)
                opts.setdefault("workers", 1)
            result = pairwise_tests(matrix, test, correction=correction, alpha=alpha, **opts)
            significant = np.asarray(result.significant, dtype=bool)
            right = np.sign(np.asarray(result.columns["diff"])) == np.sign(true_diff)
            out[r - start, p] = (
                np.count_nonzero(significant & null), np.count_nonzero(null),
                np.count_nonzero(~significant & ~null),
                np.count_nonzero(significant & ~null & ~right),
                np.count_nonzero(significant & ~null & right), np.count_nonzero(~null))
    return out


def wilson_interval(events: np.ndarray, trials: np.ndarray, level: float = LEVEL
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a binomial proportion (Wilson, 1927); NaN for 0 trials.

    centre ∓ half with centre = (p + z²/2n) / (1 + z²/n) and half = z √(p(1 − p)/n +
    z²/4n²) / (1 + z²/n); at p = 0 (p = 1) the two terms are equal, and the lower (upper)
    bound is exactly 0 (1), not their rounded difference."""
    z = sps.norm.ppf(0.5 + level / 2)
    n = np.asarray(trials, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.asarray(events, dtype=np.float64) / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return np.where(p == 0, 0.0, centre - half), np.where(p == 1, 1.0, centre + half)


@dataclass(frozen=True, eq=False)
class SimulationStudy(TableResult):
    """Error rates of every (test, correction) over ``repetitions`` simulated matrices.

    ``rates``: one row per (test, correction) with ``type_I``, ``type_II``, ``type_III``
    and ``power`` (rates) and their 95% Wilson intervals (``*_low``, ``*_high``), and the
    counts of comparisons (``null``, ``non_null``). ``counts``: per repetition and
    procedure, the raw counts (:data:`COUNTS`). A report: ``to_frame()`` (``rates``),
    ``format(fmt)``."""

    rates: pd.DataFrame
    counts: np.ndarray
    procedures: tuple[tuple[str, Correction], ...]
    repetitions: int
    alpha: float
    model: dict[str, Any]

    def to_frame(self) -> pd.DataFrame:
        """One row per (test, correction) (a copy of ``rates``)."""
        return self.rates.copy()

    def __repr__(self) -> str:
        parts = "; ".join(f"{r.test}/{r.correction}: type I {r.type_I:.4f}, type II "
                          f"{r.type_II:.4f}" for r in self.rates.itertuples())
        return (f"SimulationStudy({self.model.get('model')} model, {self.repetitions} "
                f"matrices, α={alpha_text(self.alpha)}; {parts})")


def _rates(counts: np.ndarray, procedures: tuple[tuple[str, Correction], ...]
           ) -> pd.DataFrame:
    total = counts.sum(axis=0)  # procedures × COUNTS
    columns = {name: total[:, k] for k, name in enumerate(COUNTS)}
    frame: dict[str, Any] = {"test": [t for t, _ in procedures],
                             "correction": [c for _, c in procedures]}
    for name, trials in (("type_I", "null"), ("type_II", "non_null"),
                         ("type_III", "non_null"), ("power", "non_null")):
        low, high = wilson_interval(columns[name], columns[trials])
        with np.errstate(divide="ignore", invalid="ignore"):
            frame[name] = columns[name] / columns[trials]
        frame[f"{name}_low"], frame[f"{name}_high"] = low, high
    frame["null"], frame["non_null"] = columns["null"], columns["non_null"]
    # a study without null pairs (or without others: --null) has no such rates by design
    no_null = (blank if not columns["null"].any() else undefined)(
        "the simulated systems have no pair of equal means: no comparison can make a Type I "
        "error (0/0)")
    no_effect = (blank if not columns["non_null"].any() else undefined)(
        "the simulated systems have equal means: no comparison can make a Type II or III "
        "error or be right (0/0)")
    return declare(pd.DataFrame(frame), {
        **{f"type_I{end}": no_null for end in ("", "_low", "_high")},
        **{f"{name}{end}": no_effect for name in ("type_II", "type_III", "power")
           for end in ("", "_low", "_high")}})


def _check_memory(model: Model, repetitions: int, procedures: int,
                  max_memory: str | int | None) -> None:
    """Refuse a study beyond ``max_memory`` (default half of the RAM) before any work, from
    the declared costs of the matrices, topics and systems
    (:func:`irscale.core.progress.declared_memory`): the counts of every repetition (kept:
    :attr:`SimulationStudy.counts`, and once more while the rates are reduced), the
    bookkeeping of its tasks (:data:`TASK_BYTES` each, one per
    :data:`REPETITIONS_PER_TASK` repetitions) and, per matrix, the topics × systems scores
    and the topics × pairs columns the paired tests take (x, y, their differences and a
    test's copy of them)."""
    topics = float(model.topics)
    systems = float(model.systems)
    pairs = systems * (systems - 1) / 2
    counts = 2 * 8.0 * len(COUNTS) * repetitions * procedures
    tasks = TASK_BYTES * math.ceil(repetitions / REPETITIONS_PER_TASK)
    matrix = 8.0 * topics * systems * 4 + 8.0 * topics * pairs * 5 + 200.0 * pairs
    declared_memory((SIMULATED_MATRICES, NORMAL_TOPICS, NORMAL_SYSTEMS), counts + tasks + matrix,
                    f"{repetitions:,} {SIMULATED_MATRICES.units} of {int(topics):,} "
                    f"{NORMAL_TOPICS.units} × {int(systems):,} {NORMAL_SYSTEMS.units}, "
                    f"{procedures} procedure(s) ({format_size(matrix)} per matrix, "
                    f"{format_size(counts + tasks)} of counts and tasks)",
                    max_memory=max_memory, option=MAX_MEMORY)


@SIMULATION
def simulation_study(
    model: Model,
    tests: Sequence[str] = ("t",),
    corrections: Sequence[str] = ("none",),
    repetitions: int = 1000,
    *,
    alpha: float = 0.05,
    options: dict[str, dict[str, Any]] | None = None,
    rng: RngArg = None,
    checkpoint: str | os.PathLike[str] | None = None,
    executor: ExecutorArg = "local",
    progress: ProgressArg = False,
    max_memory: str | int | None = None,
) -> SimulationStudy:
    """Run ``tests`` × ``corrections`` on ``repetitions`` matrices of ``model``
    (module documentation). ``options``: per test, its options (e.g. ``{"bootstrap":
    {"samples": 500}}``); ``checkpoint``: a directory to resume from; ``executor``: where
    the tasks run (:mod:`irscale.parallel`); ``progress``: a bool or ``progress(done,
    total)`` over the repetitions (``True``: with the time of the rest, measured on the
    first task, stated first when it is long); ``max_memory``: the study is refused, with
    its estimate, beyond this memory (bytes or a size such as ``"2G"``; default half of the
    RAM), before any work. ``repetitions``, ``alpha`` and ``checkpoint`` are checked on
    entry (:data:`irscale.meta.params.SIMULATION`: a checkpoint needs a seed, ``rng``)."""
    if not isinstance(model, MODELS):
        raise ParameterError(f"model must be one of {', '.join(m.__name__ for m in MODELS)}, "
                             f"got {type(model).__name__}")
    rng = check_rng(rng)
    executor = check_executor(executor)
    check_progress(progress)
    procedures, chosen = _procedures(tests, corrections, options)
    _check_memory(model, repetitions, len(procedures), max_memory)
    seeds = seed_sequence(rng=rng)
    if isinstance(model, BootstrapModel) and model.sizes is not None:
        if checkpoint is not None:
            raise ParameterError("checkpoint: a study of topic subsets runs in one piece; "
                                 "give no checkpoint", param="checkpoint")
        return _subset_study(model, procedures, chosen, repetitions, alpha, seeds, progress)
    starts = list(range(0, repetitions, REPETITIONS_PER_TASK))
    tasks = [(s, min(s + REPETITIONS_PER_TASK, repetitions)) for s in starts]
    description = {"model": model.describe(), "procedures": [list(p) for p in procedures],
                   "alpha": alpha, "repetitions": repetitions, "options": chosen,
                   "seed": [str(seeds.entropy), list(seeds.spawn_key)],
                   "per_task": REPETITIONS_PER_TASK}
    store = _Checkpoint(checkpoint, description) if checkpoint is not None else None
    counts = np.zeros((repetitions, len(procedures), len(COUNTS)), dtype=np.int64)
    todo = _resumed(store, tasks, counts)
    # the matrices of the tasks resumed from the checkpoint are done before the clock
    # starts: the time of the rest is measured on the tasks computed (the one mechanism)
    report = counted_work(SIMULATED_MATRICES, repetitions, "the simulation", progress,
                          elsewhere=not is_local(executor))
    finished = repetitions - sum(tasks[i][1] - tasks[i][0] for i in todo)
    report(finished)

    def keep(position: int, part: np.ndarray) -> None:
        nonlocal finished
        start, stop = tasks[todo[position]]
        counts[start:stop] = part
        if store is not None:
            store.save(todo[position], part)
        finished += stop - start
        report(finished)

    run_tasks(_simulate, [tasks[i] for i in todo], keep,
              shared=(model, procedures, alpha, chosen, seeds), executor=executor,
              workers=1 if is_local(executor) else None, ordered=False)
    return SimulationStudy(rates=_rates(counts, procedures), counts=counts,
                           procedures=procedures, repetitions=repetitions, alpha=alpha,
                           model=model.describe())


def _procedures(tests: Sequence[str], corrections: Sequence[str],
                options: dict[str, dict[str, Any]] | None
                ) -> tuple[tuple[tuple[str, Correction], ...], dict[str, dict[str, Any]]]:
    """Every (test, correction) of the study, each once, and the options of its tests
    (by canonical name; options of a test not in the study refused)."""
    procedures: tuple[tuple[str, Correction], ...] = tuple(
        (test_spec(t).name, cast(Correction, correction_name(c))) for t in tests
        for c in corrections)
    if not procedures:
        raise ParameterError("give at least one test and one correction")
    twice = list(dict.fromkeys(f"{t}/{c}" for t, c in procedures
                               if procedures.count((t, c)) > 1))
    if twice:
        raise ParameterError(f"tests and corrections name {twice} twice (an alias names its "
                             "test): give each once")
    chosen = {test_spec(name).name: dict(value) for name, value in (options or {}).items()}
    unused = sorted(set(chosen) - {t for t, _ in procedures})
    if unused:
        raise ParameterError(f"options given for test(s) {unused} not in the study")
    return procedures, chosen


def _resumed(store: _Checkpoint | None, tasks: list[tuple[int, int]], counts: np.ndarray
             ) -> list[int]:
    """The tasks still to compute: those whose counts ``store`` does not hold (the others'
    copied into ``counts``)."""
    todo = []
    for index, (start, stop) in enumerate(tasks):
        saved = store.load(index, (stop - start, *counts.shape[1:])) \
            if store is not None else None
        if saved is None:
            todo.append(index)
        else:
            counts[start:stop] = saved
    return todo


#: The counts of a study of topic subsets per (size, repetition, test, correction): the
#: comparisons whose conclusion is the full set's and all of them; Type I errors and the
#: pairs the full set finds not significant; Type II and III errors and the pairs it finds
#: significant.
SUBSET_COUNTS: tuple[str, ...] = ("agree", "compared", "type_I", "full_not", "type_II",
                                  "type_III", "full_significant")


def _conclusions(values: np.ndarray, procedures: tuple[tuple[str, Correction], ...],
                 options: dict[str, dict[str, Any]], alpha: float,
                 seeds: np.random.SeedSequence) -> np.ndarray:
    """Each procedure's conclusion on every pair of ``values`` (procedures × pairs): 0 not
    significant, else the sign of the significant difference."""
    out = []
    for p, (test, correction) in enumerate(procedures):
        opts = dict(options.get(test, {}))
        if TESTS[test].resampling:
            opts["rng"] = derived_seed(seeds, p)
            opts.setdefault("workers", 1)
        result = pairwise_tests(values, test, correction=correction, alpha=alpha, **opts)
        significant = np.asarray(result.significant, dtype=bool)
        out.append(np.where(significant, np.sign(np.asarray(result.columns["diff"])), 0.0))
    return np.array(out)


def _subset_counts(full: np.ndarray, got: np.ndarray) -> np.ndarray:
    """:data:`SUBSET_COUNTS` of the conclusions ``got`` of a subset against ``full``
    (procedures × pairs each)."""
    said, truth = got != 0, full != 0
    return np.stack([(got == full).sum(axis=1), np.full(len(full), full.shape[1]),
                     (said & ~truth).sum(axis=1), (~truth).sum(axis=1),
                     (~said & truth).sum(axis=1), (said & truth & (got != full)).sum(axis=1),
                     truth.sum(axis=1)], axis=1)


def _subset_study(model: BootstrapModel, procedures: tuple[tuple[str, Correction], ...],
                  options: dict[str, dict[str, Any]], repetitions: int, alpha: float,
                  seeds: np.random.SeedSequence, progress: ProgressArg) -> SimulationStudy:
    """The study of topic subsets (module documentation): ``counts`` sizes × repetitions
    × procedures × :data:`SUBSET_COUNTS`. Subset r of size index k draws its topics from
    the stream (1, k, r) of the seed and its Monte Carlo tests from (2, k, r); the full
    set's from (0,)."""
    sizes = cast(tuple[int, ...], model.sizes)
    full = _conclusions(model.values, procedures, options, alpha, derived_seed(seeds, 0))
    counts = np.zeros((len(sizes), repetitions, len(procedures), len(SUBSET_COUNTS)),
                      dtype=np.int64)
    report = counted_work(SIMULATED_MATRICES, repetitions * len(sizes), "the topic subsets",
                          progress)
    for k, n in enumerate(sizes):
        for r in range(repetitions):
            rows = generator(derived_seed(seeds, 1, k, r)).choice(model.topics, size=n,
                                                                  replace=False)
            got = _conclusions(model.values[np.sort(rows)], procedures, options, alpha,
                               derived_seed(seeds, 2, k, r))
            counts[k, r] = _subset_counts(full, got)
            report(k * repetitions + r + 1)
    return SimulationStudy(rates=_subset_rates(counts, sizes, procedures), counts=counts,
                           procedures=procedures, repetitions=repetitions, alpha=alpha,
                           model=model.describe())


def _subset_rates(counts: np.ndarray, sizes: tuple[int, ...],
                  procedures: tuple[tuple[str, Correction], ...]) -> pd.DataFrame:
    """The rates of a study of topic subsets: one row per (size, test, correction)."""
    total = counts.sum(axis=1).reshape(-1, len(SUBSET_COUNTS))  # (size, procedure) rows
    columns = {name: total[:, k] for k, name in enumerate(SUBSET_COUNTS)}
    frame: dict[str, Any] = {"topics": np.repeat(sizes, len(procedures)),
                             "test": [t for t, _ in procedures] * len(sizes),
                             "correction": [c for _, c in procedures] * len(sizes)}
    for name, trials in (("agreement", "compared"), ("type_I", "full_not"),
                         ("type_II", "full_significant"), ("type_III", "full_significant")):
        events = columns["agree" if name == "agreement" else name]
        with np.errstate(divide="ignore", invalid="ignore"):
            frame[name] = events / columns[trials]
        frame[f"{name}_low"], frame[f"{name}_high"] = wilson_interval(events, columns[trials])
    frame.update(compared=columns["compared"], full_significant=columns["full_significant"],
                 full_not=columns["full_not"])
    none_null = undefined("the full set finds every pair significant: no comparison can "
                          "make a Type I error (0/0)")
    none_significant = undefined("the full set finds no pair significant: no comparison "
                                 "can make a Type II or III error (0/0)")
    return declare(pd.DataFrame(frame), {
        **{f"type_I{end}": none_null for end in ("", "_low", "_high")},
        **{f"{name}{end}": none_significant for name in ("type_II", "type_III")
           for end in ("", "_low", "_high")}})


class _Checkpoint:
    """The files of a checkpoint directory: ``study.json`` and ``task-NNNNNNNN.npy``."""

    def __init__(self, folder: str | os.PathLike[str], description: dict[str, Any]) -> None:
        self.folder = Path(folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise FileAccessError(f"checkpoint {self.folder}: cannot create the directory "
                                  f"({error.strerror or error})", path=str(self.folder)
                                  ) from None
        manifest = self.folder / "study.json"
        text = json.dumps(description, sort_keys=True, indent=1)
        before = self._description(manifest)
        if before is not None:
            now = parse_json(text, "the study's description")  # as read back: lists, str keys
            if before != now:
                keys = sorted(k for k in set(before) | set(now) if before.get(k) != now.get(k))
                raise ParameterError(f"checkpoint {self.folder} holds another study (its "
                                     f"{', '.join(keys)} differ): give another directory "
                                     "or the same arguments")
        else:
            self._write(manifest, text.encode())

    @staticmethod
    def _description(manifest: Path) -> dict[str, Any] | None:
        """The study described by ``manifest`` (``None``: none yet); a file that is not one
        is refused (text that is not JSON, or beyond its bounds, by its line)."""
        try:
            before = read_study(manifest)
            if before is None:
                return None
        except InputError as error:
            raise InputError(f"not a study description of a checkpoint (a damaged or "
                             f"foreign file: give another directory): {error.reason}",
                             source=error.source, line=error.line, text=error.text) from None
        if not isinstance(before, dict):
            raise ParameterError(f"checkpoint {manifest}: not a study description (a "
                                 "damaged or foreign file): give another directory")
        return before

    def _path(self, index: int) -> Path:
        return self.folder / f"task-{index:08d}.npy"

    def load(self, index: int, shape: tuple[int, ...]) -> np.ndarray | None:
        path = self._path(index)
        try:
            part = read_counts(path)
        except (ValueError, EOFError):  # not a .npy file, or a truncated one
            raise ParameterError(f"checkpoint {path}: not a .npy file of counts (a damaged "
                                 "or foreign file)") from None
        if part is None:
            return None
        if part.shape != shape or part.dtype != np.int64:
            raise ParameterError(f"checkpoint {path}: holds {part.shape} {part.dtype} counts, "
                                 f"expected {shape} int64 (a damaged or foreign file)")
        return part

    def save(self, index: int, part: np.ndarray) -> None:
        import io

        buffer = io.BytesIO()
        np.save(buffer, part, allow_pickle=False)
        self._write(self._path(index), buffer.getvalue())

    @staticmethod
    def _write(path: Path, data: bytes) -> None:
        partial = path.with_name(path.name + ".partial")
        try:
            partial.write_bytes(data)
            os.replace(partial, path)
        except OSError as error:
            raise FileAccessError(f"checkpoint {path}: cannot write ({error.strerror or error})",
                                  path=str(path)) from None


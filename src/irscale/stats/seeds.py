"""Systems given as several runs: random seeds of a neural ranker, cross-validation folds.

A system ``s`` is the set of its runs ``r = 1..K_s`` (a folder, a glob pattern or a list of
run files; a mapping ``{system: runs}`` in the API). Every run is evaluated against the
same qrels; ``y[t, s, r]`` is the value of run ``r`` of system ``s`` on topic ``t``. Per
system and measure:

* the **mean** over its runs of each run's mean over topics, ``ȳ_s = (1/K_s) Σ_r ȳ_{·sr}``
  (every run weighs the same; a run lacking a topic counts 0 there, as trec_eval's ``-c``);
* the **spread** across its runs of those means: the standard deviation (divisor
  ``K_s − 1``), the smallest and the largest — the seed variance a single run hides
  (Colas, Sigaud and Oudeyer, "How many random seeds?", 2018, for the general argument).

**Intervals** (``interval=``, ``irscale eval-seeds --ci [--pairs]``): a system's mean, and
the difference of two systems' means, with an interval over the topics and the runs, the
seed variance inside (:mod:`irscale.stats.seed_intervals`: the two-way mean squares with
Satterthwaite's degrees of freedom, or the pigeonhole bootstrap). An interval over topics
alone (``irscale eval --ci`` of one run, or of the topics' averages over the runs) leaves
the run component out: too narrow when the seeds matter. With few runs (K of 5 or so) the
bootstrap's percentile interval falls short of its level (about 0.90 for 0.95 in a
simulation, against about 0.94 for ``"t"``: ``tests/test_seed_intervals.py``).

The per-topic values are a :class:`~irscale.stats.ShardScores` (topics × systems × runs,
NaN where a system has fewer runs than another), the replicates of Voorhees, Samarov and
Soboroff (TOIS 2017): :func:`irscale.stats.bootstrap_anova` and
:func:`irscale.stats.replicates_anova` then compare the systems with the seed variance in
the model (``irscale compare --shard-scores``, from the table ``--shard-scores`` writes);
systems of different numbers of runs are the unbalanced replicates model of
:mod:`irscale.stats.replicates` (``empty="missing"``, ``--empty missing``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from ..core.mean_intervals import INTERVAL_NAMES, check_interval
from ..core.notebook import HtmlRepr
from ..core.numbers import declare, undefined
from ..core.params import check_alpha
from ..errors import InputError, ParameterError, shown
from ..evaluation.params import EVALUATE_SEEDS, SEED_TABLE
from .seed_intervals import difference_intervals, seed_intervals
from .shards import ShardScores
from .tables import level_text

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack  # typing's from Python 3.11

    from ..core.mean_intervals import MeanInterval
    from ..evaluation.options import TrecEvalKeywords
    from .tables import Format


@dataclass(frozen=True)
class SeedEvaluation(HtmlRepr):
    """The evaluation of :func:`evaluate_seeds` (module documentation).

    ``values``: topics × systems × runs × measures (NaN past a system's last run);
    ``runs``: each system's run names, in order.
    """

    values: np.ndarray
    topics: tuple[str, ...]
    systems: tuple[str, ...]
    measures: tuple[str, ...]
    runs: tuple[tuple[str, ...], ...]

    def per_run(self) -> pd.DataFrame:
        """One row a system, run and measure: the run's mean over topics."""
        means = self.values.mean(axis=0)
        return pd.DataFrame([
            {"system": system, "run": run, "measure": measure, "mean": float(means[s, r, m])}
            for s, system in enumerate(self.systems) for r, run in enumerate(self.runs[s])
            for m, measure in enumerate(self.measures)])

    def to_frame(self, *, interval: MeanInterval | None = None, alpha: float = 0.05,
                 samples: int = 10_000, rng: int | np.random.Generator | None = None
                 ) -> pd.DataFrame:
        """One row a system and measure: ``runs``, ``mean`` (of the runs' means), ``sd``
        (divisor runs − 1; NaN for one run), ``min`` and ``max``; with ``interval``
        (``"t"`` or ``"bootstrap"``, ``samples`` and ``rng`` for the bootstrap), the
        1 − ``alpha`` interval of the mean over topics and runs, ``ci_low, ci_high``
        (module documentation)."""
        bounds = None
        if interval is not None:
            check_interval(interval)
            alpha = check_alpha(alpha)
            generator = _generator(interval, rng)
            bounds = [seed_intervals(self._system(s), interval, alpha=alpha, samples=samples,
                                     rng=generator)
                      for s in range(len(self.systems))]
        rows = []
        for s, system in enumerate(self.systems):
            k = len(self.runs[s])
            means = self.values[:, s, :k, :].mean(axis=0)
            for m, measure in enumerate(self.measures):
                column = means[:, m]
                row = {"system": system, "measure": measure, "runs": k,
                       "mean": float(column.mean()),
                       "sd": float(column.std(ddof=1)) if k > 1 else float("nan"),
                       "min": float(column.min()), "max": float(column.max())}
                if bounds is not None:
                    row["ci_low"], row["ci_high"] = (float(bounds[s][0][m]),
                                                     float(bounds[s][1][m]))
                rows.append(row)
        return declare(pd.DataFrame(rows), {"sd": undefined(
            "a system of one run has no spread over runs (divisor runs − 1 = 0)")})

    def _system(self, s: int) -> np.ndarray:
        """System ``s``'s values: topics × its runs × measures."""
        return self.values[:, s, :len(self.runs[s]), :]

    def differences(self, interval: MeanInterval = "t", *, alpha: float = 0.05,
                    samples: int = 10_000, rng: int | np.random.Generator | None = None
                    ) -> pd.DataFrame:
        """Every pair of systems (a before b in the systems' order) on every measure: the
        difference of their means ``diff`` = mean_a − mean_b with its 1 − ``alpha``
        interval ``ci_low, ci_high`` over the topics (paired) and each system's runs
        (:func:`irscale.stats.seed_intervals.difference_intervals`: the seed variance of
        both in it); an interval that excludes 0 is a difference significant at ``alpha``
        for that pair alone (no multiple-comparison correction)."""
        check_interval(interval)
        generator = _generator(interval, rng)
        rows = []
        for a, b in itertools.combinations(range(len(self.systems)), 2):
            low, high = difference_intervals(self._system(a), self._system(b), interval,
                                             alpha=alpha, samples=samples, rng=generator)
            diff = self._system(a).mean(axis=(0, 1)) - self._system(b).mean(axis=(0, 1))
            rows += [{"measure": measure, "a": self.systems[a], "b": self.systems[b],
                      "diff": float(diff[m]), "ci_low": float(low[m]),
                      "ci_high": float(high[m])} for m, measure in enumerate(self.measures)]
        return pd.DataFrame(rows, columns=["measure", "a", "b", "diff", "ci_low", "ci_high"])

    def shard_scores(self, measure: str | None = None) -> ShardScores:
        """The replicates of ``measure`` (the only one when None): topics × systems × runs,
        the runs labelled 1..K."""
        if measure is None:
            if len(self.measures) != 1:
                raise ParameterError(f"measure: name one of {list(self.measures)}")
            measure = self.measures[0]
        if measure not in self.measures:
            raise ParameterError(f"measure: {measure!r} was not evaluated "
                                 f"({list(self.measures)})")
        m = self.measures.index(measure)
        width = self.values.shape[2]
        return ShardScores(self.values[:, :, :, m], self.topics, self.systems,
                           tuple(str(r + 1) for r in range(width)))

    def shard_table(self, measure: str | None = None) -> str:
        """The CSV ``topic,run,shard,value`` of :meth:`shard_scores` (systems as runs,
        their runs as shards), as ``irscale compare --shard-scores`` reads it."""
        scores = self.shard_scores(measure)
        lines = ["topic,run,shard,value"]
        for t, topic in enumerate(scores.topics):
            for s, system in enumerate(scores.systems):
                for r, label in enumerate(scores.shards):
                    value = scores.values[t, s, r]
                    lines.append(f"{topic},{system},{label},"
                                 f"{'' if np.isnan(value) else repr(float(value))}")
        return "\n".join(lines) + "\n"

    @SEED_TABLE
    def format(self, fmt: Format = "text", *, digits: int = 4, runs: bool = False,
               pairs: bool = False, interval: MeanInterval | None = None,
               alpha: float = 0.05, samples: int = 10_000,
               rng: int | np.random.Generator | None = None) -> str:
        """The systems' table as ``fmt``: with ``interval``, the intervals of
        :meth:`to_frame`; ``runs``: every run's mean instead; ``pairs`` (with
        ``interval``): every pair's difference with its interval instead
        (:meth:`differences`)."""
        from ..io.formats import TABLE_FORMATS, check_format
        from .protocol import format_table

        check_format(fmt, TABLE_FORMATS, "a seed evaluation")
        if runs:
            return format_table(self.per_run(), fmt, digits=digits)
        level = "" if interval is None else \
            f"{level_text(1 - alpha)} {INTERVAL_NAMES[interval]} interval over topics and runs"
        if pairs:
            return format_table(
                self.differences(cast(Any, interval), alpha=alpha, samples=samples, rng=rng),
                fmt, digits=digits, title=f"Differences of the systems' means, a − b, with "
                f"their {level} (each pair alone, no multiple-comparison correction)")
        table = self.to_frame(interval=interval, alpha=alpha, samples=samples, rng=rng)
        return format_table(table, fmt, digits=digits, title="Systems over their runs (mean "
                            "of the runs' means, spread across runs"
                            + (f"; ci_low, ci_high: {level})" if level else ")"))


def _generator(method: str, rng: int | np.random.Generator | None
               ) -> int | np.random.Generator | None:
    """One generator for every system's bootstrap draws (``rng`` itself for ``"t"``)."""
    if method == "bootstrap" and not isinstance(rng, np.random.Generator):
        return np.random.default_rng(rng)
    return rng


def _system_runs(system: Any, spec: Any) -> list[Any]:
    """The runs of ``system`` (``spec``: a folder, a glob pattern or a list of run files or
    runs, :func:`~irscale.io.sources.as_runs`), one at least."""
    from ..io.sources import as_runs

    if not isinstance(spec, Iterable) and not hasattr(spec, "__fspath__"):
        raise ParameterError(f"systems: the runs of system {shown(system)} must be a "
                             f"folder, a glob pattern or a list, got {shown(spec)}",
                             param="systems")
    runs = as_runs(spec if isinstance(spec, (str, Mapping)) or hasattr(spec, "__fspath__")
                   else list(spec))
    if not runs:
        raise InputError(f"system {system!r} has no run")
    return list(runs)


@EVALUATE_SEEDS
def evaluate_seeds(qrels: Any, systems: Mapping[str, Any], measures: str | Sequence[str],
                   **trec: Unpack[TrecEvalKeywords]) -> SeedEvaluation:
    """Evaluate every run of every system (module documentation).

    Parameters
    ----------
    qrels : qrels (path, Qrels, DataFrame, dict)
    systems : mapping
        ``{system: runs}``: each value a folder, a glob pattern, a list of run files or of
        runs — the system's seeds or folds (one run at least; two for a spread).
    measures : str or sequence of str
        Measures with per-topic values.
    **trec
        trec_eval's options, as :func:`irscale.evaluate` takes them
        (:mod:`irscale.evaluation.options`): ``relevance_level`` (``-l``), ``max_docs``
        (``-M``), ``judged_only`` (``-J``), ``num_docs_in_coll`` (``-N``), ``compat`` and
        ``ties``. ``complete`` (``-c``) is always True here: a topic a run lacks counts 0,
        so that every run has every qrels topic; ``complete=False`` is refused.

    Returns
    -------
    SeedEvaluation
    """
    from ..evaluation import evaluate
    from ..io.sources import as_qrels

    if not isinstance(systems, Mapping) or not systems:
        raise ParameterError("systems: give a mapping {system: its runs (a folder, a glob "
                             "pattern or a list)}")
    if trec.get("complete", True) is not True:
        raise ParameterError("complete: evaluate_seeds counts a topic a run lacks as 0 "
                             "(trec_eval's -c) so that every run has every qrels topic: "
                             f"complete=False is not an option, got {trec['complete']!r}")
    trec["complete"] = True  # (the call's own dict of keywords)
    names = [measures] if isinstance(measures, str) else list(measures)
    judged = as_qrels(qrels)
    groups = [(str(system), _system_runs(system, spec)) for system, spec in systems.items()]
    matrices = []
    for system, runs in groups:
        renamed = {f"{system}/{run.name}": run for run in runs}
        if len(renamed) != len(runs):
            raise InputError(f"system {system!r}: two of its runs have one name")
        matrices.append(evaluate(judged, renamed, names, **trec)
                        .to_matrix(allow_missing=True))
    topics = list(dict.fromkeys(judged.topic.to_pylist()))  # every judged topic (-c)
    measure_labels = tuple(matrices[0].measures)
    width = max(matrix.n_systems for matrix in matrices)
    values = np.full((len(topics), len(groups), width, len(measure_labels)), np.nan)
    row = {t: i for i, t in enumerate(topics)}
    for s, matrix in enumerate(matrices):
        rows = [row[t] for t in matrix.topics]
        block = np.zeros((len(topics), matrix.n_systems, len(measure_labels)))
        block[rows] = np.nan_to_num(matrix.values, nan=0.0)  # trec_eval -c: 0
        values[:, s, :matrix.n_systems, :] = block
    run_names = tuple(tuple(name.split("/", 1)[1] for name in matrix.systems)
                      for matrix in matrices)
    return SeedEvaluation(values, tuple(topics), tuple(name for name, _ in groups),
                          measure_labels, run_names)

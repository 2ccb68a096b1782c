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

The per-topic values are a :class:`~irscale.stats.ShardScores` (topics × systems × runs,
NaN where a system has fewer runs than another), the replicates of Voorhees, Samarov and
Soboroff (TOIS 2017): :func:`irscale.stats.bootstrap_anova` and
:func:`irscale.stats.replicates_anova` then compare the systems with the seed variance in
the model (``irscale compare --shard-scores``, from the table ``--shard-scores`` writes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..errors import InputError, ParameterError
from .shards import ShardScores

if TYPE_CHECKING:  # pragma: no cover
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

    def to_frame(self) -> pd.DataFrame:
        """One row a system and measure: ``runs``, ``mean`` (of the runs' means), ``sd``
        (divisor runs − 1; NaN for one run), ``min`` and ``max``."""
        rows = []
        for s, system in enumerate(self.systems):
            k = len(self.runs[s])
            means = self.values[:, s, :k, :].mean(axis=0)
            for m, measure in enumerate(self.measures):
                column = means[:, m]
                rows.append({"system": system, "measure": measure, "runs": k,
                             "mean": float(column.mean()),
                             "sd": float(column.std(ddof=1)) if k > 1 else float("nan"),
                             "min": float(column.min()), "max": float(column.max())})
        return pd.DataFrame(rows)

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

    def format(self, fmt: Format = "text", *, digits: int = 4, runs: bool = False) -> str:
        """The systems' table (``runs``: every run's mean) as ``fmt``."""
        from ..io.formats import TABLE_FORMATS, check_format
        from .protocol import format_table

        check_format(fmt, TABLE_FORMATS, "a seed evaluation")
        table = self.per_run() if runs else self.to_frame()
        title = None if runs else "Systems over their runs (mean of the runs' means, spread " \
            "across runs)"
        return format_table(table, fmt, digits=digits, title=title)


def evaluate_seeds(qrels: Any, systems: Mapping[str, Any], measures: str | Sequence[str], *,
                   relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> SeedEvaluation:
    """Evaluate every run of every system (module documentation).

    Parameters
    ----------
    qrels : qrels (path, Qrels, DataFrame, dict)
    systems : mapping
        ``{system: runs}``: each value a folder, a glob pattern, a list of run files or of
        runs — the system's seeds or folds (one run at least; two for a spread).
    measures : str or sequence of str
        Measures with per-topic values.
    relevance_level : int
        Smallest relevant grade (trec_eval's ``-l``).

    Returns
    -------
    SeedEvaluation
    """
    from ..evaluation import evaluate
    from ..io.sources import as_qrels, as_runs

    if not isinstance(systems, Mapping) or not systems:
        raise ParameterError("systems: give a mapping {system: its runs (a folder, a glob "
                             "pattern or a list)}")
    names = [measures] if isinstance(measures, str) else list(measures)
    judged = as_qrels(qrels)
    groups = []
    for system, spec in systems.items():
        runs = as_runs(spec if isinstance(spec, (str, Mapping)) or hasattr(spec, "__fspath__")
                       else list(spec))
        if not runs:
            raise InputError(f"system {system!r} has no run")
        groups.append((str(system), runs))
    matrices = []
    for system, runs in groups:
        renamed = {f"{system}/{run.name}": run for run in runs}
        if len(renamed) != len(runs):
            raise InputError(f"system {system!r}: two of its runs have one name")
        matrices.append(evaluate(judged, renamed, names, relevance_level=relevance_level,
                                 complete=True).to_matrix(allow_missing=True))
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

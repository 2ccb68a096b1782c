"""Bounds of a run's measures under its unjudged documents.

A run retrieves documents the qrels do not judge; trec_eval counts them non-relevant. How
far could the judgments the collection lacks move a value? For every measure, the lowest
and highest value the run can take when each unjudged document it retrieves is given
either the lowest or the highest grade of the qrels (their smallest and largest ``rel``),
with ``R``, the ideal ranking and every other quantity recomputed from the completed
judgments as the measure defines them. Documents the run does not retrieve keep their
status: judged ones their grade, unjudged ones stay unjudged (no run's judgments are
invented outside its ranking; a relevant unretrieved document would only lower the run's
values further, without limit as the collection grows). RBP's residual (Moffat and Zobel,
"Rank-biased precision for measurement of retrieval effectiveness", TOIS 2008) is the one
bound of this kind the field already reports; this generalises it to every measure.

**The search.** With ``u`` unjudged documents there are ``2^u`` completions. For a measure
that never falls when a higher-graded document is swapped above a lower-graded one (the
trec_eval measures do: precision, recall, AP, nDCG, RR, R-precision, bpref ...) and whose
``R`` and ideal ranking depend only on how many documents get each grade, the best
completion giving ``k`` documents the highest grade gives it to the first ``k`` unjudged
documents of the ranking, the worst to the last ``k`` (exchange argument: swapping such a
pair keeps the grade counts). So the extremes are among the ``u + 1`` prefix and the
``u + 1`` suffix completions (both families are searched for both bounds, which also covers
a measure that never rises under such a swap), every one evaluated by the engine's own
kernels, exactly as the measure is computed. For measures cut off at depth
``c`` (``P``, ``ndcg_cut``, ``map_cut``, ``recall``, ``success``, ``relative_P``) the
documents below the deepest cut-off ``D`` asked for move a value only through ``R`` or the
ideal ranking, which they can only raise (as below any cut-off after ``@``, ``RR@10``,
or a ``cutoff`` parameter, ``Q@10``): they take the lowest grade in the prefix
completions and the highest in the suffix ones, and only the first ``D`` ranks are
evaluated. The tests check the bounds against every one of the ``2^u`` completions
evaluated by pytrec_eval (random cases and a hypothesis property).

Only the lowest and the highest grades are given: with graded gains an intermediate grade
can raise nDCG above the high bound (it raises the ideal ranking less), so the high bound
is that of the two grades, not of every grade. The low bound is that of every grade for
nDCG (a ratio of a gain sum linear in each grade to an ideal one convex in it is
quasi-concave in each grade, so its minimum over a grade's range is at an end; tested on
every ``g^u`` assignment).

**The cost.** Which of the ``2 (u' + 1)`` completions of a ranking (``u'`` its unjudged
documents in the searched depth) can hold an extreme is found first, in linear time
(:mod:`irscale.collections.bounds_chains`, the engine's ``rust/src/bounds/``): for
``map``, ``map_cut``, ``Rprec``, ``recall``, ``relative_P``, ``ndcg``, ``ndcg_cut``,
``bpref`` and the interpolated precision (``iprec_at_recall``, ``11pt_avg``, ``AP11``)
each measure's value is followed along both families of completions, and only the
completions at the extremes of these chains are evaluated, for these measures (a chain
whose values are the kernels' own, :data:`~irscale.collections.bounds_chains.EXACT`,
gives the bounds itself); measures of the grades of the retrieved documents alone (precision,
success, RR, RBP, DCG, ERR, the counts: :data:`~irscale.collections.bounds_chains.ENDS`),
which have no ``R`` and no ideal ranking or grow linearly with it, take their bounds at
the completions giving every unjudged document the lowest grade and every one the highest,
the only ones evaluated for them (RBP's residual is their difference, for the documents
the run retrieves). Any other measure (``infAP``, a gain
map, the catalogue's other families) makes the search evaluate every
completion: time ``O(u' · n)`` for a ranking of ``n`` documents, its rest measured on its
first batches and stated before it goes on, with its progress (``progress``). The
completions evaluated are judged rankings made in place from the run's own
(:class:`~irscale.core.judged.JudgedRankings`: the unjudged documents' values set, the
recall base per grade raised by the documents given each grade), each a topic of its own,
evaluated a batch of at most :data:`CHUNK_LINES` ranking lines at a time, so the memory is
that of one batch whatever ``u'``. A limit ``max_memory`` below one ranking's completion
is refused before the search (:func:`irscale.core.progress.declared_memory`) and makes
smaller batches otherwise. The runs declare the cost of the search, in ranking lines of
completions (:data:`irscale.collections.params.BOUNDED_RUNS`): its refusal and the
statement of its rest are the mechanism's.

The runs are evaluated once, together (the engine reads TREC files), and searched one
after the other. The mean bounds are the means of the per-topic bounds over the topics the
run is evaluated on (each topic's completion is independent). Two runs whose mean
intervals overlap are *undecided*: some completion of the judgments orders them either
way.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Literal

import numpy as np

from ..core.bounds_kernels import completed
from ..core.checked import Checked
from ..core.judged import NONPOOL, JudgedRankings
from ..core.notebook import HtmlRepr
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.progress import (
    ProgressArg,
    declared_memory,
    phase_progress,
    progress_callback,
    progress_reporter,
)
from ..core.segments import chunks, ranges
from ..errors import MeasureError, ParameterError
from ..evaluation.setup import EvaluationSetup
from ..io.sources import as_qrels
from ..measures.base import MeasureRequest
from ..measures.compute import compute_shared
from .bounds_chains import Chains, candidates
from .params import BOUNDED_RUNS, UNJUDGED_BOUNDS

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..core.inputs import Qrels
    from ..measures.results import Evaluation


def _bounds_format(fmt: object) -> str:
    """``fmt`` when it is a format of the bounds (:data:`~irscale.io.formats.BOUNDS_FORMATS`:
    a table's and ``trec``); a :class:`ParameterError` listing them otherwise."""
    from ..io.formats import BOUNDS_FORMATS, check_format

    return check_format(fmt, BOUNDS_FORMATS, "bounds")


#: The formats of :meth:`UnjudgedBounds.format`, refused on entry as
#: :func:`_bounds_format` refuses them.
BoundsFormat = Annotated[Literal["text", "csv", "markdown", "latex", "json", "trec"],
                         Checked(_bounds_format)]

#: Families whose parameters are depth cut-offs: a value at depth c depends on the
#: documents below c only through R or the ideal ranking (module documentation).
DEPTH_FAMILIES = frozenset({"P", "ndcg_cut", "map_cut", "recall", "success", "relative_P"})
#: Bytes of memory a ranking line of a completion costs at the peak of its evaluation (the
#: completed rankings, their batch and the kernels' arrays: about 30 measured by tracemalloc
#: on CLEF eHealth 2016 runs, doubled for the engine's own arrays).
BYTES_PER_LINE = 64
#: Ranking lines of completions evaluated at a time (at most: ``max_memory`` may ask for
#: fewer): the search's memory does not grow with the number of completions.
CHUNK_LINES = 1 << 21


@dataclass(frozen=True, repr=False, eq=False)
class UnjudgedBounds(HtmlRepr):
    """The bounds of :func:`unjudged_bounds`: ``per_topic`` (run, topic, measure, value,
    low, high, unjudged), ``means`` (run, measure, value, low, high) and ``undecided``
    (measure, a, b: the pairs of runs whose mean intervals overlap), data frames made when
    first read from the columns of each run's measure (``blocks``) and the rows of the
    means and of the pairs (trec_eval's lines, :meth:`format`, need no data frame)."""

    blocks: list[dict[str, Any]]
    mean_rows: list[dict[str, Any]]
    pairs: list[dict[str, str]]
    lowest: int
    highest: int

    @cached_property
    def per_topic(self) -> pd.DataFrame:
        import pandas as pd

        return pd.concat([pd.DataFrame(block) for block in self.blocks], ignore_index=True)

    @cached_property
    def means(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.mean_rows)

    @cached_property
    def undecided(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.pairs, columns=["measure", "a", "b"])

    def __repr__(self) -> str:
        return (f"UnjudgedBounds(per_topic={self.per_topic!r}, means={self.means!r}, "
                f"undecided={self.undecided!r}, lowest={self.lowest!r}, "
                f"highest={self.highest!r})")

    def to_frame(self) -> pd.DataFrame:
        """The mean bounds (one row a run and measure)."""
        return self.means

    def format(self, fmt: BoundsFormat = "text", *, digits: int = 4,
               per_topic: bool = False) -> str:
        """The mean bounds (``per_topic``: the per-topic ones too) and the undecided pairs
        as ``fmt`` (``csv``: the one table, per topic or of the means; ``json``: every
        table; ``trec``: trec_eval's lines ``measure_low topic value run`` and
        ``measure_high ...``, the topics' (``per_topic``) then the means' (``all``), and a
        line ``undecided measure a,b`` a pair of runs the judgments do not order)."""
        _bounds_format(fmt)
        if fmt == "trec":
            rows = [*(row for block in (self.blocks if per_topic else ())
                      for row in _rows(block)),
                    *({**row, "topic": "all"} for row in self.mean_rows)]
            lines = [f"{row['measure']}_{side:<{21 - len(str(row['measure']))}}\t"
                     f"{row['topic']}\t{row[side]:.{digits}f}\t{row['run']}"
                     for row in rows for side in ("low", "high")]
            lines += [f"{'undecided':<22}\t{row['measure']}\t{row['a']},{row['b']}"
                      for row in self.pairs]
            return "\n".join(lines) + "\n"
        from ..stats.protocol import format_table

        table = self.per_topic if per_topic else self.means
        if fmt == "csv":
            return format_table(table, "csv")
        if fmt == "json":
            from ..stats.tables import json_text, records

            return json_text({"lowest": self.lowest, "highest": self.highest,
                              **{name: records(getattr(self, name), name)
                                 for name in ("means", "per_topic", "undecided")}}, indent=2)
        title = (f"Bounds under the unjudged retrieved documents (each given grade "
                 f"{self.lowest} or {self.highest})")
        parts = [format_table(table, fmt, digits=digits, title=title)]
        if len(self.undecided):
            parts.append(format_table(self.undecided, fmt, digits=digits,
                                      title="Pairs of runs the judgments do not order (their "
                                      "mean intervals overlap)"))
        return "\n\n".join(parts)


def _rows(block: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The rows of the columns ``block`` (a column of one value: that value in every row)."""
    n = len(block["topic"])
    columns = {name: values if isinstance(values, list | np.ndarray) else [values] * n
               for name, values in block.items()}
    return (dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True))


def _mean(values: np.ndarray) -> float:
    """The mean of ``values`` but their NaN (NaN where every one is), as pandas' ``mean``
    adds them (the NaN as 0, then divided by the count of the others)."""
    values = np.asarray(values, dtype=np.float64)
    missing = np.isnan(values)
    count = len(values) - int(missing.sum())
    return float(np.where(missing, 0.0, values).sum() / count) if count else float("nan")


def _depth(measures: Sequence[str]) -> int | None:
    """The deepest cut-off of ``measures`` when every one is cut off (a depth family, a
    cut-off after ``@`` such as ``RR@10``, or a ``cutoff`` parameter such as ``Q@10``'s),
    else None (every rank is searched)."""
    from ..measures.names import parse_measures
    from ..measures.params import Params

    depths = []
    for request in parse_measures(list(measures)):
        family, params = getattr(request, "family", None), getattr(request, "params", None)
        declared = dict(params.items_) if isinstance(params, Params) else {}
        cutoff = getattr(request, "cutoff", None)
        if cutoff is not None:
            depths.append(int(cutoff))
        elif declared.get("cutoff") is not None:
            depths.append(int(declared["cutoff"]))
        elif family in DEPTH_FAMILIES and params:
            depths.append(max(int(p) for p in params))
        else:
            return None
    return max(depths)


@dataclass
class _Search:
    """The completions of one run's rankings (module documentation), evaluated a batch of
    at most ``lines`` ranking lines at a time, and the extremes found so far.

    ``view``: the run's judged rankings, cut at the depth searched; ``below``: per ranking,
    its unjudged documents below that depth; ``chosen``: what the chains leave to evaluate
    (:func:`~irscale.collections.bounds_chains.candidates`; None: every completion, every
    request); ``degrees`` and ``levels``: the columns of the recall base with the lowest
    and highest grades added, and every ranking's recall base in them; ``low`` and
    ``high``: per ranking and measure, the extremes so far."""

    view: JudgedRankings
    below: np.ndarray
    lowest: int
    highest: int
    chosen: Chains | None
    lines: int
    setup: EvaluationSetup
    labels: list[str]
    degrees: np.ndarray = field(init=False)
    levels: np.ndarray = field(init=False)
    low: np.ndarray = field(init=False)
    high: np.ndarray = field(init=False)
    seen: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        old = self.view.column_degrees
        given = [g for g in (self.lowest, self.highest) if g >= 0]
        # (a set of Python's: numpy's import numpy.ma, a tenth of a second)
        self.degrees = np.array(sorted({*old.tolist(), *given}), dtype=np.int64)
        self.levels = np.zeros((self.view.n_rankings, len(self.degrees)), dtype=np.int64)
        self.levels[:, np.searchsorted(self.degrees, old)] = self.view.rel_levels
        shape = (self.view.n_rankings, len(self.labels))
        self.low, self.high = np.full(shape, np.inf), np.full(shape, -np.inf)
        self.seen = np.zeros(shape, dtype=bool)

    def _added(self, n_high: np.ndarray, n_low: np.ndarray) -> np.ndarray:
        """The recall base's columns gained by completions giving ``n_high`` documents the
        highest grade and ``n_low`` the lowest."""
        added = np.zeros((len(n_high), len(self.degrees)), dtype=np.int64)
        for grade, count in ((self.highest, n_high), (self.lowest, n_low)):
            if grade >= 0:
                added[:, int(np.searchsorted(self.degrees, grade))] += count
        return added

    @cached_property
    def passes(self) -> list[tuple[Sequence[MeasureRequest], np.ndarray, np.ndarray,
                                   np.ndarray]]:
        """The completions searched, ``(requests, ranking, suffix, k)``: the requests and,
        per completion, its ranking, its family (the suffix one or the prefix one) and its
        ``k``. Family 0 gives the highest grade to the first ``k`` unjudged documents (the
        others and those below the depth the lowest), family 1 to the last ``k`` and to
        those below the depth. Every ``k`` from 0 to ``u`` for every request, or the slots
        of :attr:`chosen` for its ``chained`` requests and the all-lowest and all-highest
        completions for its ``ends``."""
        n, u = self.view.n_rankings, self.unjudged
        if self.chosen is None:
            ranking = np.repeat(np.arange(n), 2 * (u + 1))
            first = np.repeat(np.cumsum(2 * (u + 1)) - 2 * (u + 1), 2 * (u + 1))
            place = np.arange(len(ranking)) - first
            suffix = place > u[ranking]
            return [(self.setup.requests, ranking, suffix, place - suffix * (u[ranking] + 1))]
        chains = self.chosen
        found: list[tuple[Sequence[MeasureRequest], np.ndarray, np.ndarray, np.ndarray]] = []
        if chains.ends:
            found.append((chains.ends, np.repeat(np.arange(n), 2), np.tile([False, True], n),
                          np.stack([np.zeros(n, dtype=np.int64), chains.u], axis=1).ravel()))
        if chains.chained:
            slot_ranking = np.repeat(np.arange(n), chains.u + 1)
            slots = [np.flatnonzero(chains.prefix), np.flatnonzero(chains.suffix)]
            ranking = np.concatenate([slot_ranking[s] for s in slots])
            found.append((chains.chained, ranking,
                          np.repeat([False, True], [len(s) for s in slots]),
                          np.concatenate(slots) - chains.start[ranking]))
        return found

    def lines_searched(self) -> int:
        """The ranking lines of every completion searched."""
        return int(sum(self.view.lengths[ranking].sum() for _, ranking, _, _ in self.passes))

    def evaluate(self, requests: Sequence[MeasureRequest], ranking: np.ndarray,
                 suffix: np.ndarray, k: np.ndarray) -> None:
        """Evaluate ``requests`` on the completions ``(ranking, suffix, k)`` as one batch,
        each completion a topic of its own, and keep every ranking's extremes (NaN values,
        such as a 0/0, are passed over)."""
        if not len(ranking):
            return
        view = self.view
        rel, offsets = completed(view, ranking, suffix, k, (self.lowest, self.highest))
        u, below = self.unjudged[ranking], self.below[ranking]
        n_high = np.where(suffix, k + below, k)
        n = len(ranking)
        attributes: tuple[tuple[str, np.ndarray], ...] = ()
        if view.attributes:
            at = ranges(view.offsets[ranking], view.lengths[ranking])
            attributes = tuple((name, values[at]) for name, values in view.attributes)
        batch = JudgedRankings(
            rel=rel, offsets=offsets,
            rel_levels=self.levels[ranking] + self._added(n_high, u + below - n_high),
            ranking_topic=np.arange(n), ranking_run=np.zeros(n, dtype=np.int64),
            topics=tuple(map(str, range(n))), runs=view.runs,
            relevance_level=view.relevance_level,
            attributes=attributes, degrees=self.degrees)
        _, values = compute_shared(batch, requests, self.setup.context)
        for label, found in values.items():
            if (m := self.columns.get(label)) is not None:
                self.keep(m, ranking, np.asarray(found, dtype=np.float64))

    @cached_property
    def unjudged(self) -> np.ndarray:
        """Per ranking: its unjudged documents (in the view)."""
        view = self.view
        return np.bincount(view.segment[view.rel == NONPOOL], minlength=view.n_rankings)

    @cached_property
    def columns(self) -> dict[str, int]:
        """The column of each label."""
        return {label: m for m, label in enumerate(self.labels)}

    def keep(self, m: int, ranking: np.ndarray, found: np.ndarray) -> None:
        """Keep the values ``found`` of measure ``m`` in each of their ``ranking``'s
        extremes."""
        np.fmin.at(self.low[:, m], ranking, found)
        np.fmax.at(self.high[:, m], ranking, found)
        np.logical_or.at(self.seen[:, m], ranking, ~np.isnan(found))

    def run(self, report: Callable[[int], None] = lambda done: None
            ) -> tuple[np.ndarray, np.ndarray]:
        """Every completion searched evaluated (``report(lines)`` after each batch, the
        ranking lines evaluated so far): per ranking and measure, the lowest and the
        highest value (NaN where every completion's is NaN)."""
        done = 0
        for requests, ranking, suffix, k in self.passes:
            lengths = self.view.lengths[ranking]
            for first, stop in chunks(np.concatenate(([0], np.cumsum(lengths))), self.lines):
                self.evaluate(requests, ranking[first:stop], suffix[first:stop], k[first:stop])
                done += int(lengths[first:stop].sum())
                report(done)
        every = np.arange(self.view.n_rankings)
        for label, extremes in (self.chosen.known if self.chosen else {}).items():
            if (m := self.columns.get(label)) is not None:
                for found in extremes:
                    self.keep(m, every, found)
        if not done:
            report(done)
        return (np.where(self.seen, self.low, np.nan),
                np.where(self.seen, self.high, np.nan))


@UNJUDGED_BOUNDS
def unjudged_bounds(qrels: Any, runs: Any, measures: str | Sequence[str], *,
                    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                    max_memory: str | int | float | None = None,
                    progress: ProgressArg = False) -> UnjudgedBounds:
    """The lowest and highest value of every measure of every run when its unjudged
    retrieved documents take the lowest or the highest grade (module documentation).

    Parameters
    ----------
    qrels : qrels (path, Qrels, DataFrame, dict)
    runs : runs (paths, a folder, a list or mapping of runs)
    measures : str or sequence of str
        Measures with per-topic values (``P@10``, ``ndcg_cut_10``, ``map`` ...).
    relevance_level : int
        Smallest relevant grade (trec_eval's ``-l``).
    max_memory : size, optional
        The most memory a batch of completions may take (bytes or a size such as
        ``"2G"``; default half of the RAM): a limit below one ranking's completion is a
        :class:`~irscale.errors.ParameterError` before the search, a larger one sizes the
        batches (at most :data:`CHUNK_LINES` lines).
    progress : bool or callable
        Progress of the search, in ranking lines of completions evaluated
        (:mod:`irscale.core.progress`; ``True``: its rest stated when long, a bar).

    Returns
    -------
    UnjudgedBounds

    The relevance level and ``max_memory`` are checked on entry
    (:data:`irscale.collections.params.UNJUDGED_BOUNDS`).
    """
    from ..evaluation import evaluate

    names = [measures] if isinstance(measures, str) else list(measures)
    if not names:
        raise ParameterError("measures: give one measure at least (P@10, map ...)")
    judged = as_qrels(qrels)
    if isinstance(runs, Sequence | Mapping) and not isinstance(runs, str) and not len(runs):
        raise ParameterError("runs: give one run at least", param="runs")
    evaluation = evaluate(qrels_again(qrels, judged), runs, names,
                          relevance_level=relevance_level)
    evaluation.to_matrix(allow_missing=True)  # (a measure without per-topic values: refused)
    return evaluation_bounds(evaluation, judged, names, max_memory=max_memory,
                             progress=progress)


def qrels_again(source: Any, read: Qrels) -> Any:
    """The qrels ``source`` to evaluate once they are ``read`` (for their grades): the file
    itself where it can be read again (a regular file: the engine reads it with the runs'
    files), else what was read (standard input and FIFOs give their bytes once)."""
    import os
    import stat

    from ..io.files import is_stdio

    if isinstance(source, str | os.PathLike) and not is_stdio(source):
        try:
            if stat.S_ISREG(os.stat(source).st_mode):
                return source
        except OSError:
            pass
    return read


def evaluation_bounds(evaluation: Evaluation, qrels: Qrels, measures: Sequence[str], *,
                      max_memory: str | int | float | None = None,
                      progress: ProgressArg = False) -> UnjudgedBounds:
    """:func:`unjudged_bounds` of the runs of ``evaluation`` (of ``qrels``, at the
    evaluation's relevance level), the search's measures ``measures`` (the evaluation's, or
    their labels): each run's judged rankings searched in turn."""
    from ..core.budget import MAX_MEMORY, max_memory_of
    from ..evaluation.setup import evaluation_setup

    rankings = evaluation.rankings
    if rankings is None:  # measures of another context (sessions, texts ...)
        raise MeasureError(f"{', '.join(measures)}: the bounds apply to measures of judged "
                           "rankings (trec_eval's and the catalogue's)")
    grades = np.asarray(qrels.rel)
    lowest, highest = int(grades.min()), int(grades.max())
    relevance_level = rankings.relevance_level
    depth = _depth(measures)
    setup = evaluation_setup(measures, relevance_level=relevance_level)
    labels = list(evaluation.measures)
    limit = max_memory_of(max_memory)
    blocks: list[dict[str, Any]] = []
    means: list[dict[str, Any]] = []
    rows = evaluation.rows
    evaluated = rows.evaluated_rows()
    for index, run in enumerate(evaluation.runs):
        ranked = np.flatnonzero(rows.ranking_run == index)  # (run by run: one range)
        first, stop = (int(ranked[0]), int(ranked[-1]) + 1) if len(ranked) else (0, 0)
        kept = ranked[evaluated[ranked]]
        run_rankings = rankings.rankings(first, stop)
        view = run_rankings if depth is None else run_rankings.truncate(depth)
        unjudged = np.bincount(view.segment[view.rel == NONPOOL],
                               minlength=view.n_rankings)
        every = np.bincount(run_rankings.segment[run_rankings.rel == NONPOOL],
                            minlength=run_rankings.n_rankings)
        longest = int(view.lengths.max(initial=1))
        where = "every rank (a measure of the whole ranking)" if depth is None else \
            f"the first {depth} ranks"
        declared_memory(BOUNDED_RUNS, longest * BYTES_PER_LINE,
                        f"the bounds search evaluates {longest:,} ranking lines of "
                        f"completions at a time at least (a ranking searched in {where}; "
                        "cut-off measures such as P@10 or nDCG@10 search only their depth)",
                        max_memory=max_memory, option=MAX_MEMORY)
        chosen = candidates(view, every - unjudged, lowest, highest, setup.requests,
                            relevance_level, setup.context)
        search = _Search(view, every - unjudged, lowest, highest, chosen,
                         max(longest, min(CHUNK_LINES, limit // BYTES_PER_LINE)), setup,
                         labels)
        if not index:  # the clock of the rest's statement starts with the first search
            # (the set-up before it, the chains of a deep run, is no part of its rate)
            progress = progress_callback(progress, "bounds", units=BOUNDED_RUNS)
        low, high = search.run(progress_reporter(
            phase_progress(progress, index, len(evaluation.runs)), search.lines_searched()))
        topics = [rows.topics[code] for code in rows.ranking_topic[kept].tolist()]
        at = kept - first
        for m, measure in enumerate(labels):
            block: dict[str, Any] = {
                "run": run, "topic": topics, "measure": measure,
                "value": evaluation.values[measure][kept].astype(np.float64), "low": low[at, m],
                "high": high[at, m], "unjudged": unjudged[at]}
            blocks.append(block)
            means.append({"run": run, "measure": measure,
                          **{side: _mean(block[side]) for side in ("value", "low", "high")}})
    by_measure: dict[str, list[dict[str, Any]]] = {}
    for mean in means:
        by_measure.setdefault(mean["measure"], []).append(mean)
    undecided = [{"measure": measure, "a": a["run"], "b": b["run"]}
                 for measure, group in by_measure.items()
                 for a, b in itertools.combinations(group, 2)
                 if a["low"] <= b["high"] and b["low"] <= a["high"]]
    return UnjudgedBounds(blocks, means, undecided, lowest, highest)

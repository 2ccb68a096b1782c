"""Robustness of conclusions to judgment noise (Rashidi, Zobel & Moffat, "The impact of
judgment variability on the consistency of offline effectiveness measures", ACM TOIS 2023).

A judge labels a document of true grade ``i`` with grade ``j`` with probability
``P[i, j]`` (a :class:`Confusion`: stated in a file, a symmetric flip rate ``p`` of binary
qrels, ``P = [[1 − p, p], [p, 1 − p]]``, or estimated from a double-judged sample, such as
the human sample of automatic judgments). Taking
the qrels as the truth, each replicate relabels every judged document (grade ≥ 0; the
pooled but unjudged ones, grade < 0, are kept) with a draw from the row of its grade,
and the runs are evaluated again on the relabelled qrels. Over ``R`` replicates:

* per measure and pair of systems (``i < j`` in the runs' order): the share of replicates
  whose order of the two means is the original one (``sign(ū_i − ū_j)`` the same, a
  difference within 10⁻¹² a tie), and
  the share whose significance decision is (the pair significant in the same direction on
  both, or significant on neither; the test of :func:`irscale.meta.decide` on the topics ×
  systems matrix, with its correction);
* per measure: the mean Kendall's τ_b between the original and the replicates' orderings
  of the systems' means, the share of pairs whose order flips in some replicate, and the
  share of replicates with any flip.

**Estimated confusion** (:meth:`Confusion.estimate`): from two judgments of the same
(topic, document) pairs, ``n_ij`` the pairs graded ``i`` by the first and ``j`` by the
second, ``P[i, j] = (n_ij + ½) / (n_i + K/2)`` over the ``K`` grades either gives (add-½
smoothing: no transition is impossible because the sample did not show it). The human
sample of automatic judgments (:meth:`Confusion.from_sample`, ``irscale labels auto``'s
HUMAN and AUTO) is such a sample: the human grade first, the automatic one second, over
the pairs both judge.

**How.** The runs are judged once (:class:`~irscale.core.judged.JudgedRankings`) and
each retrieved document is tied to its judgment (a label set of judgment indices,
:func:`~irscale.core.labels.attach_labels`); a replicate only rewrites the ``rel`` values
and the recall base per grade (a count by topic and grade) and runs the measures' kernels
(:func:`~irscale.measures.compute.compute_shared`) — no file is read again. The draws are
made for a chunk of replicates at once (uniform numbers against the cumulative rows, one
vectorised search per grade). The draws are one stream of ``numpy.random.default_rng``
(``rng``), replicate after replicate, whatever the chunks: :func:`relabelled_qrels` gives
the same replicates' qrels (for checks with another evaluator).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.inputs import Qrels
from ..core.notebook import HtmlRepr
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.progress import ProgressArg, check_stop, declared_memory, progress_reporter
from ..errors import AlignmentError, InputError, InputFormatError, MeasureError, ParameterError
from ..io.sources import as_qrels, as_runs
from ..stats.corrections import Correction
from ..stats.tables import Format
from .params import JUDGE_NOISE, NOISE_REPLICATES

if TYPE_CHECKING:  # pragma: no cover
    from ..core import ScoreMatrix

__all__ = ["Confusion", "JudgeNoise", "judge_noise", "relabelled_qrels"]

#: Largest |row sum − 1| accepted in a confusion matrix.
ROW_TOLERANCE = 1e-6
#: Largest difference of two means taken for a tie (:func:`_direction`).
TIE_TOLERANCE = 1e-12
#: Most uniform draws held at once (replicates × judgments of a chunk).
CHUNK_DRAWS = 4_000_000


@dataclass(frozen=True, eq=False)
class Confusion(HtmlRepr):
    """A judges' confusion model: ``matrix[i, j]`` = P(observed ``grades[j]`` | true
    ``grades[i]``), ``grades`` distinct integers ≥ 0 (module documentation)."""

    grades: np.ndarray
    matrix: np.ndarray
    source: str = "<confusion>"

    def __post_init__(self) -> None:
        grades = np.asarray(self.grades)
        matrix = np.asarray(self.matrix, dtype=np.float64)
        if grades.ndim != 1 or not len(grades) or not np.issubdtype(grades.dtype, np.integer) \
                or (grades < 0).any() or len(np.unique(grades)) != len(grades):
            raise ParameterError(f"confusion grades must be distinct integers ≥ 0, got "
                                 f"{grades.tolist()}")
        order = np.argsort(grades)
        if matrix.shape != (len(grades), len(grades)):
            raise ParameterError(f"a confusion matrix of {len(grades)} grades must be "
                                 f"{len(grades)} × {len(grades)}, got {matrix.shape}")
        if not np.isfinite(matrix).all() or (matrix < 0).any() or (matrix > 1).any():
            raise ParameterError("confusion probabilities must lie in [0, 1]")
        matrix = matrix[np.ix_(order, order)]
        object.__setattr__(self, "grades", grades[order].astype(np.int64))
        object.__setattr__(self, "matrix", matrix)
        sums = matrix.sum(axis=1)
        bad = np.flatnonzero(np.abs(sums - 1) > ROW_TOLERANCE)
        if len(bad):
            raise ParameterError(f"the row of true grade {int(self.grades[bad[0]])} sums to "
                                 f"{sums[bad[0]]:.6g}, not 1 (the probabilities of the "
                                 f"observed grades of a true grade sum to 1)")

    @classmethod
    def flip(cls, rate: float) -> Confusion:
        """Binary qrels (grades 0 and 1) whose judges flip a label with probability
        ``rate``: ``[[1 − rate, rate], [rate, 1 − rate]]``."""
        rate = float(rate)
        if not 0 <= rate <= 1:
            raise ParameterError(f"flip_rate must lie in [0, 1], got {rate}", param="flip_rate")
        return cls(np.array([0, 1]), np.array([[1 - rate, rate], [rate, 1 - rate]]),
                   f"flip rate {rate:g}")

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Confusion:
        """The confusion of a file of ``true observed probability`` lines
        (:func:`irscale.io.confusion.read_confusion`); a row that does not sum to 1 is an
        error naming the file and the row's first line."""
        from ..io.confusion import read_confusion

        read = read_confusion(path)
        try:
            return cls(read.grades, read.matrix, read.source)
        except ParameterError as error:
            sums = read.matrix.sum(axis=1)
            row = int(np.flatnonzero(np.abs(sums - 1) > ROW_TOLERANCE)[0])
            first = read.first_line(int(read.grades[row]))
            if first is None:  # a grade only observed: its row has no line at all
                raise InputFormatError(f"grade {int(read.grades[row])} is observed but has "
                                       "no row (no line 'grade observed probability')",
                                       source=read.source) from None
            raise InputFormatError(str(error), source=read.source, line=first[0],
                                   text=first[1]) from None

    @classmethod
    def estimate(cls, first: Any, second: Any) -> Confusion:
        """The confusion of the second judgments given the first over the same (topic,
        document) pairs, add-½ smoothed (module documentation). Qrels that do not judge the
        same pairs are an :class:`~irscale.errors.AlignmentError` naming a pair one lacks;
        pairs with a grade < 0 (unjudged) in either are left out."""
        a, b = as_qrels(first), as_qrels(second)
        keys_a, keys_b = _keys(a), _keys(b)
        for one, other, keys in ((a, b, keys_b), (b, a, keys_a)):
            lacking = ~pd.Index(_keys(one)).isin(pd.Index(keys))
            if lacking.any():
                at = int(np.flatnonzero(lacking)[0])
                raise AlignmentError(
                    f"double-judged qrels differ: {other.source} lacks topic "
                    f"{one.topic.take(np.array([at])).to_pylist()[0]!r} document "
                    f"{one.docno.take(np.array([at])).to_pylist()[0]!r} of {one.source} (the "
                    f"two files must judge the same (topic, document) pairs; "
                    f"{int(lacking.sum())} of {len(one)} lacking)")
        order = pd.Index(keys_b).get_indexer(keys_a)
        grade_a, grade_b = np.asarray(a.rel, dtype=np.int64), np.asarray(b.rel,
                                                                         dtype=np.int64)[order]
        kept = (grade_a >= 0) & (grade_b >= 0)
        grades = np.unique(np.concatenate([grade_a[kept], grade_b[kept]]))
        if not len(grades):
            raise InputError(f"{a.source} and {b.source} share no judged document "
                             "(grade ≥ 0)")
        k = len(grades)
        counts = np.bincount(np.searchsorted(grades, grade_a[kept]) * k
                             + np.searchsorted(grades, grade_b[kept]),
                             minlength=k * k).reshape(k, k)
        matrix = (counts + 0.5) / (counts.sum(axis=1, keepdims=True) + k / 2)
        return cls(grades, matrix, f"estimated from {a.source} and {b.source}")

    @classmethod
    def from_sample(cls, automatic: Any, human: Any) -> Confusion:
        """The confusion of automatic judgments given human ones, from the human sample of
        :func:`irscale.collections.automatic_judgments` (``irscale labels auto AUTO HUMAN``):
        :meth:`estimate` of ``human`` then ``automatic`` over the (topic, document) pairs
        both judge (those of its confusion matrix), P(automatic grade | human grade). A
        sample sharing no pair with ``automatic`` is an
        :class:`~irscale.errors.InputError`."""
        auto, sample = as_qrels(automatic), as_qrels(human)
        in_sample = pd.Index(_keys(sample))
        auto_keys = _keys(auto)
        shared = np.flatnonzero(pd.Index(auto_keys).isin(in_sample))
        if not len(shared):
            raise InputError(f"the human sample {sample.source} and the automatic judgments "
                             f"{auto.source} share no (topic, document) pair (the human "
                             "sample of irscale labels auto judges pairs the automatic "
                             "judgments label)")
        kept = np.flatnonzero(in_sample.isin(pd.Index(auto_keys[shared])))
        return cls.estimate(_subset(sample, kept), _subset(auto, shared))

    def to_frame(self) -> pd.DataFrame:
        """One row per true grade, one column per observed grade."""
        return pd.DataFrame(self.matrix, index=pd.Index(self.grades.tolist(), name="true"),
                            columns=[f"observed {g}" for g in self.grades.tolist()])

    def __repr__(self) -> str:
        return f"Confusion({len(self.grades)} grades, {self.source})"


def _keys(q: Qrels) -> np.ndarray:
    """``topic␟docno`` of every judgment (the pair as one key)."""
    return np.char.add(np.char.add(np.asarray(q.topic.to_numpy(), dtype=str), "\x1f"),
                       np.asarray(q.docno.to_numpy(), dtype=str))


def _subset(q: Qrels, rows: np.ndarray) -> Qrels:
    """The judgments ``rows`` of ``q`` (its source kept, for messages)."""
    return Qrels(q.topic.take(rows), q.docno.take(rows), np.asarray(q.rel)[rows],
                 source=q.source)


def check_confusion(confusion: Any) -> Confusion:
    """``confusion`` if it is a :class:`Confusion`, else a
    :class:`~irscale.errors.ParameterError` naming the parameter and its forms."""
    if not isinstance(confusion, Confusion):
        raise ParameterError(f"confusion must be a Confusion (Confusion.read, .flip, "
                             f".estimate or .from_sample), got {type(confusion).__name__}",
                             param="confusion")
    return confusion


def _codes(qrels: Qrels, confusion: Confusion) -> tuple[np.ndarray, np.ndarray]:
    """The judgments relabelled (grade ≥ 0) and the row of the confusion of each (a
    :class:`Confusion`: :func:`check_confusion`); a grade the confusion lacks is an
    :class:`~irscale.errors.InputError` naming one judgment."""
    confusion = check_confusion(confusion)
    rel = np.asarray(qrels.rel, dtype=np.int64)
    judged = np.flatnonzero(rel >= 0)
    row = np.searchsorted(confusion.grades, rel[judged])
    missing = (row >= len(confusion.grades)) | (
        confusion.grades[np.minimum(row, len(confusion.grades) - 1)] != rel[judged])
    if missing.any():
        at = judged[int(np.flatnonzero(missing)[0])]
        pick = np.array([at])
        raise InputError(
            f"{qrels.source}: topic {qrels.topic.take(pick).to_pylist()[0]!r} document "
            f"{qrels.docno.take(pick).to_pylist()[0]!r} has grade {int(rel[at])}, not a grade "
            f"of the confusion ({confusion.source}: grades "
            f"{', '.join(map(str, confusion.grades.tolist()))}): give a confusion of every "
            "grade the qrels hold (a flip rate is for binary qrels; graded ones: a "
            "confusion file, double-judged qrels or a human sample)")
    return judged, row


def _draws(rows: np.ndarray, confusion: Confusion, replicates: int, rng: Any
           ) -> Iterator[tuple[int, np.ndarray]]:
    """``(first, rows')`` per chunk of replicates: the observed row of every judgment in
    each replicate of the chunk (shape replicates × judgments), one stream of draws
    (module documentation)."""
    gen = np.random.default_rng(rng)
    cumulative = np.cumsum(confusion.matrix, axis=1)
    cumulative[:, -1] = np.inf  # (a row summing to 1 − 1e-12 still lands in a grade)
    by_grade = [np.flatnonzero(rows == g) for g in range(len(confusion.grades))]
    size = max(1, CHUNK_DRAWS // max(len(rows), 1))
    for first in range(0, replicates, size):
        count = min(size, replicates - first)
        u = gen.random((count, len(rows)))
        out = np.empty((count, len(rows)), dtype=np.int64)
        for g, where in enumerate(by_grade):
            out[:, where] = np.searchsorted(cumulative[g], u[:, where], side="right")
        yield first, out


def relabelled_qrels(qrels: Any, confusion: Confusion, replicates: int, *,
                     rng: Any = None) -> list[Qrels]:
    """The qrels of the first ``replicates`` replicates of :func:`judge_noise` with the same
    ``rng`` (the same draws): every judged document's grade redrawn."""
    judged = as_qrels(qrels)
    where, rows = _codes(judged, confusion)
    out = []
    for _, drawn in _draws(rows, confusion, replicates, rng):
        for observed in drawn:
            rel = np.array(judged.rel, dtype=np.int64)
            rel[where] = confusion.grades[observed]
            out.append(Qrels(judged.topic, judged.docno, rel, source=judged.source))
    return out


@dataclass(frozen=True, eq=False)
class JudgeNoise(HtmlRepr):
    """What :func:`judge_noise` found: ``pairs`` (per measure and pair: the original
    difference and decision, the shares of replicates keeping the order and the decision),
    ``measures`` (per measure: mean τ_b, the share of pairs that flip in some replicate and
    of replicates with a flip) and ``means`` (measure → replicates × systems means)."""

    pairs: pd.DataFrame
    measures: pd.DataFrame
    means: dict[str, np.ndarray]
    systems: tuple[str, ...]
    confusion: Confusion
    replicates: int
    test: str
    correction: str
    alpha: float

    def to_frame(self) -> pd.DataFrame:
        return self.pairs

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The pairs' table, then (text formats) the measures' summary."""
        from ..stats.protocol import format_table

        text = format_table(self.pairs, fmt, digits=digits, title=repr(self))
        if fmt in ("csv", "json"):
            return text
        return text + "\n" + format_table(self.measures, fmt, digits=digits,
                                          title="fragility of each measure")

    def __repr__(self) -> str:
        return (f"judge noise: {self.replicates:,} replicates of the qrels relabelled by "
                f"{self.confusion.source}; {self.test} test, correction {self.correction}, "
                f"α = {self.alpha:g}")


@JUDGE_NOISE
def judge_noise(qrels: Any, runs: Any, measures: str | Sequence[str], confusion: Confusion, *,
                replicates: int = 1000, rng: Any = None, test: str = "t",
                correction: Correction = "none", alpha: float = 0.05,
                relevance_level: int = DEFAULT_RELEVANCE_LEVEL, allow_empty: bool = False,
                each_replicate: Callable[[ScoreMatrix], None] | None = None,
                progress: ProgressArg = False) -> JudgeNoise:
    """How the order and the significance of every pair of runs survive judgment noise
    (module documentation).

    The replicates, the procedure, the correction (a two-system test's alone), the level
    and the relevance level are checked on entry
    (:data:`irscale.collections.params.JUDGE_NOISE`).

    Parameters
    ----------
    qrels : qrels (path, Qrels, DataFrame, dict): the judgments taken as the truth.
    runs : runs (paths, a folder, a list or mapping of runs), two at least.
    measures : str or sequence of str
        Measures with per-topic values (``map``, ``P@10``, ``ndcg_cut_10`` ...).
    confusion : Confusion
        P(observed grade | true grade); every grade ≥ 0 of ``qrels`` must be one of its.
    replicates : int
        Relabelled qrels drawn.
    rng : seed or numpy Generator
        The draws (deterministic with a seed).
    test, correction, alpha
        The significance procedure of :func:`irscale.meta.decide` on the topics × systems
        matrix (a two-system test of the registry and its correction, or an ANOVA/Tukey
        procedure), and its level.
    relevance_level : int
        Smallest relevant grade (trec_eval's ``-l``).
    allow_empty : bool
        A run without a judged topic is evaluated on none instead of refused.
    each_replicate : callable, optional
        Called with every replicate's values, in the replicates' order, as a
        :class:`~irscale.core.ScoreMatrix` (the topics every run is evaluated on × the runs
        × the measures): other conclusions drawn from the same replicates (the report's
        comparison with a baseline).
    progress : bool or callable
        Progress over the replicates (:mod:`irscale.core.progress`).
    """
    from ..meta.procedures import canonical_procedure
    from ..stats.names import is_resampling

    names = [measures] if isinstance(measures, str) else list(measures)
    if not names:
        raise ParameterError("measures: give one measure at least (map, P@10 ...)")
    relabel = _Relabelling.of(qrels, runs, names, confusion, relevance_level, allow_empty)
    original = relabel.matrices(relabel.rows)
    labels = list(original)
    gen = np.random.default_rng(rng)
    # a resampling test draws from a child stream (spawning leaves ``gen``'s draws as they are)
    options = {"rng": gen.spawn(1)[0]} if is_resampling(canonical_procedure(test)) else {}
    decide_options = {"procedure": test, "alpha": alpha, "correction": correction, **options}
    need = 8.0 * replicates * len(labels) * (len(relabel.systems) + 2)  # means, τ and flips
    declared_memory(NOISE_REPLICATES, need, f"{replicates:,} replicates (--replicates, "
                    f"replicates) of {len(labels)} measure(s) × {len(relabel.systems)} runs: "
                    "their means kept")
    tally = _Tally.start(original, relabel.systems, replicates, decide_options)
    report = progress_reporter(progress, replicates, "judge noise", units=NOISE_REPLICATES)
    for first, drawn in _draws(relabel.rows, confusion, replicates, gen):
        for r, observed in enumerate(drawn, first):
            check_stop()
            found_values = relabel.matrices(observed)
            if each_replicate is not None:
                from ..core import ScoreMatrix

                each_replicate(ScoreMatrix.from_array(
                    np.stack([found_values[m] for m in labels], axis=2),
                    topics=relabel.topics, systems=relabel.systems, measures=labels))
            tally.add(r, found_values)
            report(r + 1)
    pairs, summary = tally.tables()
    return JudgeNoise(pairs, summary, tally.means, relabel.systems, confusion, replicates,
                      test, correction, alpha)


@dataclass
class _Relabelling:
    """The judged rankings of :func:`judge_noise` and where the judgments relabelled fall:
    ``rows`` the true grades' codes of the judgments ``where`` of ``confusion``'s grades,
    the rankings' rows that retrieve them (``retrieved``, each judgment's place among
    ``where`` in ``slot``), the topic of each judgment among the rankings' (``topic_of``,
    ``counted`` where it is one of them), and the topics every run is evaluated on
    (``cells``, named ``topics``)."""

    jr: Any
    setup: Any
    confusion: Confusion
    rows: np.ndarray
    retrieved: np.ndarray
    slot: np.ndarray
    topic_of: np.ndarray
    counted: np.ndarray
    cells: np.ndarray
    systems: tuple[str, ...]
    topics: list[str]

    @classmethod
    def of(cls, qrels: Any, runs: Any, names: list[str], confusion: Confusion,
           relevance_level: int, allow_empty: bool) -> _Relabelling:
        """The qrels and runs read and judged, two runs at least, every grade of the qrels
        one of ``confusion``'s."""
        from ..core.judge import build_judged_rankings
        from ..core.labels import LabelTable, attach_labels
        from ..evaluation.setup import check_topics, evaluation_setup

        setup = evaluation_setup(names, relevance_level=relevance_level)
        judged = as_qrels(qrels)
        run_list = as_runs(runs)
        if len(run_list) < 2:
            raise ParameterError(f"runs: give two runs at least (pairs are compared), got "
                                 f"{len(run_list)}", param="runs")
        where, rows = _codes(judged, confusion)
        jr = build_judged_rankings(judged, run_list, setup.options)
        check_topics(jr.rows, allow_empty=allow_empty, qrels_source=judged.source)
        table = LabelTable(judged.topic, judged.docno,
                           np.arange(len(judged), dtype=np.float64), source=judged.source)
        index = attach_labels(jr, judged, run_list, setup.options,
                              {"judgment": table}).attribute("judgment")
        slot = np.full(len(judged), -1, dtype=np.int64)  # judgment → its place in ``where``
        slot[where] = np.arange(len(where))
        retrieved = np.flatnonzero(~np.isnan(index))
        retrieved = retrieved[slot[index[retrieved].astype(np.int64)] >= 0]
        topic_of = judged.topic.take(where).index_in(jr.topics)
        cells = _complete_cells(jr, len(run_list))
        return cls(jr, setup, confusion, rows, retrieved,
                   slot[index[retrieved].astype(np.int64)], topic_of, topic_of >= 0, cells,
                   tuple(jr.runs),
                   [t for t, complete in zip(jr.topics, cells, strict=True) if complete])

    def matrices(self, observed: np.ndarray) -> dict[str, np.ndarray]:
        """Topics × systems values of every measure with judgment ``where[i]`` graded
        ``confusion.grades[observed[i]]``."""
        from ..measures.compute import compute_shared

        jr, grades = self.jr, self.confusion.grades
        n_topics, k = len(jr.topics), len(grades)
        rel = jr.rel.copy()
        rel[self.retrieved] = grades[observed[self.slot]]
        levels = np.bincount(self.topic_of[self.counted] * k + observed[self.counted],
                             minlength=n_topics * k).reshape(n_topics, k)
        batch = replace(jr.with_values(rel=rel), rel_levels=levels[jr.ranking_topic],
                        degrees=grades)
        _, values = compute_shared(batch, self.setup.requests, self.setup.context)
        for label, v in values.items():
            if not np.issubdtype(np.asarray(v).dtype, np.number):
                raise MeasureError(f"{label}: its per-topic values are not numbers (the "
                                   "pairs are compared on their means)")
        return {label: _matrix(np.asarray(v, dtype=np.float64), jr, self.cells)
                for label, v in values.items()}


@dataclass
class _Tally:
    """What :func:`judge_noise` counts over the replicates, per measure: the decisions on
    the original qrels (``base``), how often each pair keeps its order and its decision,
    Kendall's τ of each replicate's ranking with the original's, whether a pair flips, and
    every replicate's means."""

    original: dict[str, np.ndarray]
    systems: tuple[str, ...]
    replicates: int
    options: dict[str, Any]
    base: dict[str, Any]
    order_kept: dict[str, np.ndarray]
    decision_kept: dict[str, np.ndarray]
    taus: dict[str, np.ndarray]
    any_flip: dict[str, np.ndarray]
    means: dict[str, np.ndarray]

    @classmethod
    def start(cls, original: dict[str, np.ndarray], systems: tuple[str, ...],
              replicates: int, options: dict[str, Any]) -> _Tally:
        """Nothing counted yet; the decisions on ``original`` made (``options``: those of
        :func:`irscale.meta.decide`)."""
        from ..meta.procedures import decide

        labels = list(original)
        n_pairs = len(systems) * (len(systems) - 1) // 2
        return cls(original, systems, replicates, options,
                   {m: decide(original[m], systems=systems, **options) for m in labels},
                   {m: np.zeros(n_pairs) for m in labels},
                   {m: np.zeros(n_pairs) for m in labels},
                   {m: np.empty(replicates) for m in labels},
                   {m: np.zeros(replicates, dtype=bool) for m in labels},
                   {m: np.empty((replicates, len(systems))) for m in labels})

    def add(self, r: int, found_values: dict[str, np.ndarray]) -> None:
        """Count replicate ``r``'s values of every measure."""
        from ..meta.procedures import decide
        from ..stats.kendall import kendall_tau

        for m, values in found_values.items():
            found = decide(values, systems=self.systems, **self.options)
            base = self.base[m]
            same_order = _direction(found.diff) == _direction(base.diff)
            self.order_kept[m] += same_order
            self.decision_kept[m] += decisions(found.significant, found.diff) == decisions(
                base.significant, base.diff)
            self.any_flip[m][r] = not same_order.all()
            self.means[m][r] = values.mean(axis=0)
            self.taus[m][r] = kendall_tau(self.original[m].mean(axis=0), self.means[m][r]).tau

    def tables(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The pairs' table and the measures' summary of :class:`JudgeNoise`."""
        from ..core.numbers import declare
        from ..stats.kendall import NOTHING_TO_RANK

        systems, replicates = self.systems, self.replicates
        n_pairs = len(systems) * (len(systems) - 1) // 2
        i, j = np.triu_indices(len(systems), k=1)
        names_of = np.asarray(systems, dtype=object)
        pairs = pd.concat([pd.DataFrame({
            "measure": m, "system_a": names_of[i], "system_b": names_of[j],
            "diff": self.base[m].diff, "significant": self.base[m].significant,
            "order_kept": self.order_kept[m] / replicates,
            "decision_kept": self.decision_kept[m] / replicates}) for m in self.original],
            ignore_index=True)
        summary = declare(pd.DataFrame([{
            "measure": m, "mean_tau": _defined_mean(self.taus[m]),
            "pairs_flipping": float(np.mean(self.order_kept[m] < replicates)) if n_pairs
            else 0.0,
            "replicates_with_flip": float(np.mean(self.any_flip[m])),
            "decisions_changing": float(np.mean(self.decision_kept[m] < replicates))
            if n_pairs else 0.0} for m in self.original]), {"mean_tau": NOTHING_TO_RANK})
        return pairs, summary


def _defined_mean(taus: np.ndarray) -> float:
    """The mean of the replicates' τ_b where it is defined (NaN: a ranking all tied)."""
    defined = taus[~np.isnan(taus)]
    return float(defined.mean()) if len(defined) else float("nan")


def _direction(diff: np.ndarray) -> np.ndarray:
    """sign(diff), 0 for a difference within :data:`TIE_TOLERANCE` (two equal means whose
    sums were added in another order are tied, not ordered by their rounding)."""
    return np.where(np.abs(diff) > TIE_TOLERANCE, np.sign(diff), 0)


def decisions(significant: Any, diff: Any) -> np.ndarray:
    """Per comparison: 0 not significant, else the direction of the significant difference
    (:func:`_direction`): the decision a replicate keeps or changes."""
    return np.where(np.asarray(significant, dtype=bool),
                    _direction(np.asarray(diff, dtype=np.float64)), 0)


def _complete_cells(jr: Any, n_runs: int) -> np.ndarray:
    """The topics every run is evaluated on (a topic a run did not retrieve for has no
    value to test in pairs): an :class:`~irscale.errors.AlignmentError` when there is none."""
    seen = np.zeros((len(jr.topics), n_runs), dtype=bool)
    seen[jr.ranking_topic, jr.ranking_run] = True
    complete = np.asarray(seen.all(axis=1), dtype=bool)
    if not complete.any():
        raise AlignmentError("no topic is evaluated for every run: the runs' pairs are "
                             "compared on the topics they share")
    return complete


def _matrix(values: np.ndarray, jr: Any, complete: np.ndarray) -> np.ndarray:
    """Per-ranking ``values`` as topics × systems, the complete topics only."""
    out = np.full((len(jr.topics), len(jr.runs)), np.nan)
    out[jr.ranking_topic, jr.ranking_run] = values
    return out[complete]

"""The one result of every evaluation: per-topic values of measures and their summaries.

:func:`irscale.evaluate` (trec_eval's measures, the catalogue's and ndeval's diversity
measures), :func:`irscale.text.evaluate_sessions`, :func:`irscale.text.evaluate_rouge` and
:func:`irscale.text.evaluate_nuggets` all return an :class:`Evaluation`: one value per row
(a (run, topic) pair, :class:`~irscale.core.rows.TopicRows`) and measure, the
:class:`~irscale.io.table.Column` of each measure (how it is printed and how it
aggregates), and the :class:`Averaging` that turns a run's rows into its summary
(computed by the engine, ``rust/src/output/summary.rs``: the one implementation of these
rules). Every runner builds its result with the one builder, :func:`build_evaluation`.
The rules:

* ``trec_eval`` (judged rankings; ``meas_avg.c`` of trec_eval 9.0.8): a column's
  ``aggregate`` says how — ``mean`` divides the sum (added topic by topic, as trec_eval's
  ``accum += value``) by the number of evaluated topics, or with ``complete``
  (``-c``) by the number of qrels topics (topics the run misses count 0); ``gmean``
  averages ``log(max(v, 1e-5))`` (with ``complete`` each missing topic counts
  ``log(1e-5)``); ``sum`` adds (9.0.8's ``num_rel`` with ``-c``: :attr:`Averaging.totals`);
  ``count`` counts topics; ``runid`` is the run's name. No topic: 0.
* ``ndeval`` (diversity): ndeval's ``amean`` row, the sum of the run's rows (a run topic
  the qrels do not judge is printed with 0 and not counted) divided by the number of
  topics the qrels judge among the run's, or with ``complete`` by the number of qrels
  topics; no topic: C's ``0.0/0`` (``-nan``).
* ``mean`` (sessions, texts): the plain mean over the evaluated topics.

In every rule a mean over values one of which is NaN is that NaN, sign included (printed
``-nan`` as trec_eval and ndeval print it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import IO, TYPE_CHECKING, Any, Literal, cast

import numpy as np

from ..core.edge import keyword_error
from ..core.judged import JudgedRankings
from ..core.notebook import TableRepr, counted
from ..core.records import replace
from ..core.rows import RowKeys, TopicRows
from ..core.run_names import find_in
from ..errors import MeasureError, ParameterError
from ..io.formats import EVALUATION_FORMATS, SUMMARY_FORMATS, check_format
from ..io.table import Averaging, Column, check_run_index, run_summaries
from .means import Means

if TYPE_CHECKING:  # pragma: no cover - imported where tables and matrices are built
    import pandas as pd

    from ..core.mean_intervals import MeanInterval
    from ..core.scorematrix import ScoreMatrix
    from ..stats.baseline import BaselineComparison

#: The tables :meth:`Evaluation.to_frame` gives.
FrameShape = Literal["summary", "pyterrier"]
FRAME_SHAPES: tuple[str, ...] = ("summary", "pyterrier")

class RunSummaries(TableRepr):
    """The summary tables of a result that has ``columns``, ``runs`` and
    ``summary(run_index)`` (:class:`Evaluation`, and
    :class:`irscale.evaluation.many.ManyEvaluation`, which keeps the summaries only).
    Printed, its caption and its runs × measures table (:meth:`mean`)."""

    columns: tuple[Column, ...]

    @property
    def runs(self) -> tuple[str, ...]:
        raise NotImplementedError

    def summary(self, run_index: int) -> list[tuple[Column, Any]]:
        raise NotImplementedError

    @property
    def measures(self) -> tuple[str, ...]:
        """Labels of the numeric per-topic measures."""
        return tuple(c.label for c in self.columns
                     if c.per_query and c.value_type != "str")

    def aggregates(self) -> pd.DataFrame:
        """Summary value of every measure for every run (trec_eval's ``all`` lines,
        ndeval's ``amean`` row).

        Columns ``run, measure, value`` (``value`` is an object column: the run id is text).
        """
        import pandas as pd

        rows = []
        for run_index, run in enumerate(self.runs):
            for column, value in self.summary(run_index):
                rows.append((run, column.label, value))
        return pd.DataFrame(rows, columns=["run", "measure", "value"])

    def mean(self) -> Means:
        """Runs × measures table of the numeric summary values, as floats: a
        :class:`~irscale.measures.means.Means`, built without pandas (its ``repr`` is the
        frame's text; ``.frame`` the pandas ``DataFrame``, index ``run``, columns
        ``measure``, which earlier versions returned; the frame's attributes, ``.loc``,
        ``.round(4)``, ``["map"]``, are its too)."""
        found = [{column.label: value for column, value in self.summary(run_index)}
                 for run_index in range(len(self.runs))]
        # the numeric measures a run is summarised on (not those with no summary)
        labels = [m for m in self.measures if m in found[0]] if found else []
        return Means(self.runs, labels, [[float(run[m]) for m in labels] for run in found])

    @property
    def counted_topics(self) -> int | None:
        """With trec_eval's ``-c``, the number of topics every mean divides by (a topic a
        run lacks counts 0); None: a mean is over the topics the run was evaluated on."""
        return None

    def to_matrix(self, *, measures: Sequence[str] | None = None,
                  allow_missing: bool = False) -> ScoreMatrix:
        raise NotImplementedError

    def to_frame(self, *, interval: MeanInterval | None = None, alpha: float = 0.05,
                 samples: int = 10_000, rng: int | np.random.Generator | None = None
                 ) -> pd.DataFrame:
        """The summaries as a table (:meth:`aggregates`): the result protocol's frame; with
        ``interval`` (``"t"`` or ``"bootstrap"``), also the columns ``ci_low, ci_high`` of
        :meth:`intervals` (empty for a summary that is not a mean over topics)."""
        frame = self.aggregates()
        if interval is None:
            return frame
        found = self.intervals(interval, alpha=alpha, samples=samples, rng=rng)
        return frame.merge(found[["run", "measure", "ci_low", "ci_high"]],
                           on=["run", "measure"], how="left", validate="one_to_one")

    def intervals(self, method: MeanInterval = "t", *, alpha: float = 0.05,
                  samples: int = 10_000, rng: int | np.random.Generator | None = None
                  ) -> pd.DataFrame:
        """Every run's mean of every measure with per-topic values and its 1 − ``alpha``
        confidence interval (:mod:`irscale.core.mean_intervals`: ``"t"``, or
        ``"bootstrap"`` over topics with ``samples`` and ``rng``): ``run, measure, mean,
        ci_low, ci_high``. The mean is the summary value (with trec_eval's ``-c``, a topic
        of the qrels a run lacks counts 0, as in its mean: :attr:`counted_topics`).

        >>> import irscale
        >>> ev = irscale.evaluate({"1": {"a": 1}, "2": {"b": 1}, "3": {"c": 1}},
        ...                       {"r": {"1": {"a": 1.0}, "2": {"x": 1.0}, "3": {"c": 1.0}}},
        ...                       ["P@1"])
        >>> ev.intervals().round(4).to_dict("records")
        [{'run': 'r', 'measure': 'P@1', 'mean': 0.6667, 'ci_low': -0.7676, 'ci_high': 2.1009}]
        """
        import pandas as pd

        from ..core.mean_intervals import mean_intervals

        labels = [m for m in self.measures if m in {c.label for c in self.columns
                                                     if c.aggregate == "mean"}]
        if not labels:
            raise MeasureError("no measure with per-topic values to give an interval of (the "
                               "summaries over topics, gm_map or num_q, have none)")
        matrix = self.to_matrix(allow_missing=True, measures=labels)
        values = matrix.values
        counted = self.counted_topics
        if counted is not None:  # -c: every qrels topic, 0 where a run has none
            values = np.nan_to_num(values, nan=0.0)
            missing = max(0, counted - values.shape[0])
            values = np.concatenate([values, np.zeros((missing, *values.shape[1:]))])
        summaries = self.mean().frame.loc[list(matrix.systems), labels].to_numpy(
            np.float64)
        rows = []
        for r, run in enumerate(matrix.systems):
            column = values[:, r, :]
            kept = column[~np.isnan(column).any(axis=1)]
            low, high = mean_intervals(kept, method, alpha=alpha, samples=samples, rng=rng)
            for k, measure in enumerate(labels):
                mean, summary = float(kept[:, k].mean()), float(summaries[r, k])
                if not np.isclose(mean, summary, rtol=1e-9, atol=1e-12):
                    raise MeasureError(f"{run}, {measure}: the mean of the per-topic values "
                                       f"kept, {mean!r}, is not the summary value {summary!r} "
                                       "(topics counted 0 by -c that no run retrieved): no "
                                       "interval of it")
                rows.append({"run": run, "measure": measure, "mean": mean,
                             "ci_low": float(low[k]), "ci_high": float(high[k])})
        return pd.DataFrame(rows)


    def compare(self, baseline: str | Sequence[str], test: str = "t", *,
                correction: str | None = "holm",
                alpha: float = 0.05, alternative: str = "two-sided",
                measures: str | Sequence[str] | None = None, measure: str | None = None,
                **options: object) -> BaselineComparison:
        """Every other run against ``baseline``, as PyTerrier's ``baseline=``: per
        (measure, run) the two means, the delta and its CI, p, adjusted p and the topics
        won, tied and lost (:func:`irscale.stats.baseline.baseline_comparison`, which
        documents the arguments and the columns). The result's ``to_frame()`` is that
        table; its ``format("latex")`` (or ``"markdown"``, ``"html"``) the paper's table
        with ↑/↓ marks, as ``irscale eval --format latex --baseline`` prints it.
        ``interval="t"`` or ``"bootstrap"`` adds the interval over topics of each mean and
        of each delta (``irscale compare --ci``). The same for every result with summaries
        (an :class:`Evaluation`, :func:`irscale.evaluate_many`'s result on the per-topic
        values it kept), on :meth:`to_matrix`.

        >>> import irscale
        >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
        >>> runs = {"bm25": {"q1": {"d9": 2, "d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}},
        ...         "new": {"q1": {"d1": 2, "d9": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}}
        >>> comparison = irscale.evaluate(qrels, runs, ["map"]).compare("bm25")
        >>> table = comparison.to_frame()
        >>> table[["run", "baseline_mean", "run_mean", "delta", "wins", "ties", "losses"]]
          run  baseline_mean  run_mean     delta  wins  ties  losses
        0  new       0.833333       1.0  0.166667     1     2       0
        >>> print(comparison.format("latex").splitlines()[7:9])
        ['bm25 & 0.8333 \\\\\\\\', 'new & \\\\textbf{1.0000} \\\\\\\\']
        """
        from ..stats.baseline import baseline_comparison

        return baseline_comparison(self, baseline, test=test,
                                   correction=cast(Any, correction), alpha=alpha,
                                   alternative=cast(Any, alternative), measures=measures,
                                   measure=measure, **cast(dict[str, Any], options))

    def _html_frame(self) -> pd.DataFrame:
        """A notebook shows the runs × measures means (the summaries when no measure is
        numeric)."""
        return self.mean().frame if self.measures else self.aggregates()

    def format(self, fmt: str = "trec") -> str:
        """The summaries in one of :data:`~irscale.io.formats.SUMMARY_FORMATS`: trec_eval's
        ``all`` lines (``trec``), ``run, topic, measure, value`` records (``csv``,
        ``json``), the runs × measures table (``markdown``, ``latex``)."""
        fmt = check_format(fmt, SUMMARY_FORMATS, "summaries")
        if fmt == "latex":
            from ..stats.summary_table import summary_table

            return summary_table(cast(Any, self))
        import io

        from ..io.output import write_summary

        out = io.BytesIO()
        write_summary(self, out, fmt=fmt)
        return out.getvalue().decode()


@dataclass(frozen=True, eq=False, repr=False)
class Evaluation(RunSummaries):
    """Per-topic values of every requested measure for every run, and their summaries.

    ``values[label]`` holds one value per row of :attr:`rows` (rows are ordered run by
    run, topics in the evaluation's order within a run); :attr:`averaging` says how a
    run's rows are summarised (module documentation). :attr:`rankings`: the judged
    rankings that were measured (trec_eval's measures and the catalogue's, sessions),
    ``None`` for per-intent judgments and texts. :attr:`runids`: the run ids the run
    files name, one per run, where they differ from the run names: what trec_eval's
    ``runid`` measure and ndeval's ``runid`` column print (:mod:`irscale.io.naming`).
    :attr:`conventions`: the provenance lines of the dataset conventions applied (its
    official measures, its relevance level, what the call overrode:
    :mod:`irscale.evaluation.conventions`), empty where none were.
    """

    columns: tuple[Column, ...]
    values: dict[str, np.ndarray]
    rows: TopicRows
    averaging: Averaging = field(default_factory=Averaging)
    rankings: JudgedRankings | None = None
    runids: tuple[str, ...] = ()
    conventions: tuple[str, ...] = ()
    #: The runs' files (their names in messages: ``<bytes>`` ...), one per run, or none
    #: known: a run is designated by its file too (:func:`irscale.core.run_names.find_run`).
    sources: tuple[str, ...] = ()

    @property
    def runs(self) -> tuple[str, ...]:
        return self.rows.runs

    @property
    def unjudged_topics(self) -> dict[str, tuple[str, ...]]:
        """Per run, the topics it has results for that the gold standard does not judge."""
        return dict(zip(self.runs, self.rows.unjudged_topics, strict=True))

    # ---------------------------------------------------------------- tables
    def per_topic(self) -> pd.DataFrame:
        """Tidy table ``run, topic, measure, value`` of the numeric per-topic values
        (evaluated rows: not ndeval's 0 rows of topics the qrels do not judge)."""
        import pandas as pd

        labels = list(self.measures)
        if not labels:
            return pd.DataFrame(columns=["run", "topic", "measure", "value"])
        keep: np.ndarray | slice = slice(None)
        if self.rows.evaluated is not None:
            keep = np.flatnonzero(self.rows.evaluated)
        # one frame of whole columns, not a frame per measure concatenated
        topics = self.rows.topic_labels[keep]
        return pd.DataFrame({
            "run": np.tile(self.rows.run_labels[keep], len(labels)),
            "topic": np.tile(topics, len(labels)),
            "measure": np.repeat(np.array(labels, dtype=object), len(topics)),
            "value": np.concatenate([self.values[label][keep] for label in labels]
                                    ).astype(np.float64, copy=False),
        })

    def to_frame(self, shape: FrameShape = "summary", *,
                 interval: MeanInterval | None = None, alpha: float = 0.05,
                 samples: int = 10_000, rng: int | np.random.Generator | None = None
                 ) -> pd.DataFrame:
        """The evaluation as a table: ``"summary"``, the result protocol's frame
        (:meth:`aggregates`: ``run, measure, value``; with ``interval``, ``"t"`` or
        ``"bootstrap"``, each mean's 1 − ``alpha`` interval ``ci_low, ci_high`` too:
        :meth:`intervals`); ``"pyterrier"``, the per-topic frame
        of PyTerrier's ``Experiment(perquery=True)``: columns ``name, qid, measure, value``
        (:meth:`per_topic`'s rows, the run named ``name`` and the topic ``qid``).

        >>> import irscale
        >>> ev = irscale.evaluate({"q1": {"d1": 1}}, {"bm25": {"q1": {"d1": 1.0}}}, ["P@1"])
        >>> ev.to_frame("pyterrier")
           name qid measure  value
        0  bm25  q1     P@1    1.0
        """
        if shape == "summary":
            return super().to_frame(interval=interval, alpha=alpha, samples=samples, rng=rng)
        if shape != "pyterrier":
            raise ParameterError(f"shape must be one of {', '.join(FRAME_SHAPES)}, got "
                                 f"{shape!r}")
        if interval is not None:
            raise ParameterError("interval: the pyterrier frame holds per-topic values, no "
                                 "mean to give an interval of (shape='summary' has them)")
        return self.per_topic().rename(columns={"run": "name", "topic": "qid"})

    def to_ir_measures(self, run: str | None = None) -> list[Any]:
        """The per-topic values as ir_measures' records: ``ir_measures.Metric(query_id,
        measure, value)`` of one run (``run``: its name, its file's name with or without
        extension, its path or its run id, :func:`irscale.core.run_names.find_run`; needed
        when the evaluation has several), in :meth:`per_topic`'s order. ``measure`` is
        ir_measures' measure object where ir_measures has the measure irscale computed,
        value for value (:func:`ir_measure_of`: ``AP@10``, ``map`` → ``AP``), else the
        label. Needs ir_measures (``pip install ir-measures``).

        >>> import irscale
        >>> ev = irscale.evaluate({"q1": {"d1": 1}}, {"q1": {"d2": 2.0, "d1": 1.0}},
        ...                       ["map", "P@1"])
        >>> for metric in ev.to_ir_measures():
        ...     print(metric)
        Metric(query_id='q1', measure=AP, value=0.5)
        Metric(query_id='q1', measure=P@1, value=0.0)
        """
        try:
            import ir_measures
        except ImportError:
            raise ParameterError("to_ir_measures needs ir_measures (pip install "
                                 "ir-measures)") from None
        if run is None and len(self.runs) != 1:
            raise ParameterError(f"the evaluation has {len(self.runs)} runs: name one "
                                 f"(run=, one of {', '.join(self.runs)})")
        frame = self.per_topic()
        if run is not None:
            # a run's name, its file (path, file name or stem) or its run id (core.run_names)
            frame = frame[frame["run"] == find_in(run, self, "run=")]
        measures = {label: ir_measure_of(label) for label in self.measures}
        return [ir_measures.Metric(str(topic), measures[label], float(value))
                for topic, label, value in zip(frame["topic"], frame["measure"],
                                               frame["value"], strict=True)]

    def summary(self, run_index: int) -> list[tuple[Column, Any]]:
        """``(column, summary value)`` of one run, in output order (module documentation)."""
        shown = [c for c in self.columns if c.aggregate != "none"]
        return list(zip(shown, self._summaries[check_run_index(self, run_index)], strict=True))

    @cached_property
    def _summaries(self) -> list[list[Any]]:
        """The summary values of every run, computed by the engine
        (``rust/src/output/summary.rs``: the rules of the module documentation)."""
        averaging = self.averaging
        summaries = run_summaries(self.columns, self.values, self.rows, averaging.rule,
                                  averaging.complete, averaging.n_qrels_topics,
                                  averaging.totals)
        if len(self.runids) == len(summaries):  # trec_eval's runid: the run id, not the name
            shown = [c.aggregate for c in self.columns if c.aggregate != "none"]
            for runid, values in zip(self.runids, summaries, strict=True):
                values[:] = [runid if aggregate == "runid" else value
                             for aggregate, value in zip(shown, values, strict=True)]
        return summaries

    def to_matrix(self, *, allow_missing: bool = False,
                  measures: Sequence[str] | None = None) -> ScoreMatrix:
        """The topics × runs × measures :class:`ScoreMatrix` of the per-topic values.

        Rows are the evaluated topics (a run topic the diversity qrels do not judge, which
        ndeval prints as 0, is not a measurement: left out, as trec_eval leaves it out), in
        the evaluation's order. A topic some run was not evaluated on is missing (NaN);
        that raises unless ``allow_missing`` (``complete`` changes the means only).
        ``measures``: the labels to include (default: every column). Measures with no
        per-topic value (summaries over topics such as ``gm_map`` and ``num_q``, the text
        of ``runid`` and ``relstring``) cannot enter a matrix: a
        :class:`~irscale.errors.MeasureError` names them, as it names a diversity measure
        undefined on some topic (nNRBP's 0/0 on a topic without relevant documents,
        ``-nan`` in ndeval's output).
        """
        labels = [c.label for c in self.columns]
        wanted = labels if measures is None else list(measures)
        unknown = [m for m in wanted if m not in labels]
        if unknown:
            raise MeasureError(f"{', '.join(map(str, unknown))} not evaluated (measures: "
                               f"{', '.join(labels)})")
        summary_only = [m for m in wanted if m not in self.measures]
        if summary_only:
            raise MeasureError(
                f"{', '.join(summary_only)} {'has' if len(summary_only) == 1 else 'have'} no "
                "per-topic values to analyse (trec_eval prints "
                f"{'it' if len(summary_only) == 1 else 'them'} as a summary over topics or as "
                "text only): use per-topic measures"
                + _per_topic_hint(summary_only))
        keep = np.flatnonzero(self.rows.evaluated_rows())
        codes = self.rows.ranking_topic[keep]
        present = np.unique(codes)
        topics = [self.rows.topics[c] for c in present.tolist()]
        row = np.searchsorted(present, codes)
        run = self.rows.ranking_run[keep]
        values = np.full((len(topics), len(self.runs), len(wanted)), np.nan)
        for k, label in enumerate(wanted):
            column = self.values[label][keep]
            if self.averaging.rule == "ndeval":
                _check_defined(label, column, codes, self.rows.topics)
            values[row, run, k] = column
        from ..core.scorematrix import ScoreMatrix

        matrix = ScoreMatrix.from_array(values, topics=topics, systems=self.runs,
                                        measures=wanted, allow_missing=allow_missing)
        # the runs' files and run ids: a system is designated by them too (core.run_names)
        known = {key: getattr(self, key) for key in ("sources", "runids")
                 if len(getattr(self, key)) == len(self.runs)}
        return replace(matrix, **known) if known else matrix

    @property
    def counted_topics(self) -> int | None:
        return self.averaging.n_qrels_topics if self.averaging.complete else None

    # ---------------------------------------------------------------- outputs
    def write(self, stream: IO[bytes], fmt: str = "trec", *, per_query: bool = False,
              summary: bool = True, baseline: Evaluation | str | None = None,
              risk_alpha: float | str = "0", **table: Any) -> None:
        """Write :meth:`format`'s text to a binary stream (the trec format in blocks, so
        that millions of per-topic lines are never one string)."""
        fmt = check_format(fmt, EVALUATION_FORMATS, "an evaluation")
        ndeval = self.averaging.rule == "ndeval"
        if fmt == "ndeval" and not ndeval:
            raise ParameterError("format 'ndeval' prints diversity measures (ndeval's)")
        if baseline is not None and fmt not in ("ndeval", "latex"):
            raise ParameterError("baseline= applies to the latex table (a run name) and to "
                                 "ndeval's risk-sensitive output (a baseline evaluation)")
        if fmt == "ndeval" and baseline is not None and not isinstance(baseline, Evaluation):
            raise ParameterError("the baseline of ndeval's output is the evaluation of the "
                                 "baseline run (with the same measures and options), got "
                                 f"{type(baseline).__name__}")
        unknown = None if fmt == "latex" else \
            keyword_error(f"format {fmt!r}", table, (), " (the latex table takes more)")
        if unknown is not None:
            raise unknown
        if fmt == "latex":
            if per_query or not summary:
                raise ParameterError("the latex table prints the summary: per_query and "
                                     "summary=False do not apply")
            from ..stats.summary_table import summary_table

            stream.write(summary_table(self, baseline=cast(Any, baseline), **table).encode())
        elif ndeval and fmt in ("ndeval", "trec", "csv"):
            from .diversity.output import ndeval_text

            stream.write(ndeval_text(self, cast(Any, fmt), per_query=per_query,
                                     summary=summary,
                                     baseline=cast(Any, baseline),
                                     risk_alpha=risk_alpha).encode())
        else:
            from ..io.output import write_results

            write_results(self, stream, fmt=fmt, per_query=per_query, summary=summary)

    def format(self, fmt: str = "trec", *, per_query: bool = False,
               summary: bool = True, baseline: Evaluation | str | None = None,
               risk_alpha: float | str = "0", **table: Any) -> str:
        """The evaluation as text in one of :data:`~irscale.io.formats.EVALUATION_FORMATS`.

        ``trec``: trec_eval's lines (``per_query`` adds the per-topic lines, ``summary``
        the ``all`` lines; diversity measures: one block of lines per measure, values with
        four decimals, as ``irscale eval`` prints them); ``ndeval``: ndeval's CSV
        (diversity measures only; ``baseline``, the evaluation of one baseline run, and
        ``risk_alpha`` give ``ndeval -baseline B -riskAlpha A``'s output:
        :func:`irscale.measures.diversity.output.ndeval_text`); ``csv`` and ``json``:
        ``run, topic, measure, value`` records (``all`` / ``amean`` for the summaries);
        ``markdown``: the runs × measures table of the summaries; ``latex``: the table of a
        paper (:func:`irscale.stats.summary_table.summary_table`: ``baseline`` a run name,
        and its ``test``, ``correction``, ``alpha``, ``digits`` in ``table``).

        >>> import irscale
        >>> ev = irscale.evaluate({"q1": {"d1": 1}}, {"q1": {"d1": 1.0, "d2": 0.5}},
        ...                       ["P@2", "map"])
        >>> print(ev.format("markdown"), end="")
        | run | map | P@2 |
        |---|---:|---:|
        | run | 1.0000 | 0.5000 |
        """
        import io

        out = io.BytesIO()
        self.write(out, fmt, per_query=per_query, summary=summary, baseline=baseline,
                   risk_alpha=risk_alpha, **table)
        return out.getvalue().decode()

    def _caption(self) -> str:
        topics = np.unique(self.rows.ranking_topic[self.rows.evaluated_rows()]).size
        return (f"{type(self).__name__}: {counted(len(self.runs), 'run')}, "
                f"{counted(topics, 'topic')}, {counted(len(self.measures), 'measure')} "
                "(each run's summary; per topic: .per_topic())")


def build_evaluation(values: Mapping[str, Any], rows: TopicRows | RowKeys,
                     averaging: Averaging | None = None, *,
                     columns: Sequence[Column] | None = None,
                     rankings: JudgedRankings | None = None,
                     runids: tuple[str, ...] = (), sources: tuple[str, ...] = ()
                     ) -> Evaluation:
    """The one builder of every runner's result: per-row ``values`` of each measure (by
    label), whose each row is (``rows``: the :class:`TopicRows` of judged rankings, or the
    :class:`~irscale.core.rows.RowKeys` a runner knows, put in the evaluation's order here,
    the values with them), and how a run's rows are summarised (``averaging``; default:
    the plain mean, module documentation).

    ``columns``: how each measure is printed and summarised (default: one
    :class:`~irscale.io.table.Column` per label of ``values``, a mean of floats); the
    values of a ``float`` column are held as float64. ``rankings``, ``runids`` and
    ``sources``: as the :class:`Evaluation` holds them.
    """
    order = None
    if isinstance(rows, RowKeys):
        rows, order = rows.ordered()
    shown = tuple(Column(label) for label in values) if columns is None else tuple(columns)
    floats = {c.label for c in shown if c.value_type == "float"}
    held = {}
    for label, array in values.items():
        array = np.asarray(array, dtype=np.float64 if label in floats else None)
        held[label] = array if order is None else array[order]
    return Evaluation(columns=shown, values=held, rows=rows,
                      averaging=Averaging() if averaging is None else averaging,
                      rankings=rankings, runids=runids, sources=sources)


def _check_defined(label: str, column: np.ndarray, codes: np.ndarray,
                   topics: Sequence[str]) -> None:
    """A diversity measure undefined on some evaluated topic (NaN) cannot enter a matrix:
    :class:`MeasureError` naming the measure and the topics."""
    undefined = np.flatnonzero(np.isnan(column))
    if not len(undefined):
        return
    named = [topics[c] for c in np.unique(codes[undefined]).tolist()]
    raise MeasureError(
        f"{label} is undefined (0/0, ndeval prints -nan) on {len(named)} "
        f"topic(s) without relevant documents: {', '.join(named[:10])}"
        f"{' ...' if len(named) > 10 else ''}; leave {label} out or those "
        "topics out of the qrels")


def ir_measure_of(label: str) -> Any:
    """ir_measures' measure object for an evaluation's measure ``label``, or ``label``
    itself where ir_measures has no measure that is irscale's, value for value.

    ir_measures reads the label (``ir_measures.parse_measure``: ``AP@10``,
    ``nDCG(dcg='exp-log2')@10``; ``parse_trec_measure`` for one trec_eval name: ``map``,
    ``P_10``); the object is the answer when
    :func:`~irscale.measures.ir_measures_names.irscale_name` maps it back to the measure
    irscale computed for the label (a label irscale does not read itself was written by
    ir_measures, from such an object). Needs ir_measures installed."""
    import ir_measures

    from .ir_measures_names import irscale_name
    from .names import parse_measures

    try:
        measure = ir_measures.parse_measure(label)
    except (NameError, ValueError, SyntaxError, TypeError):
        try:
            found = ir_measures.parse_trec_measure(label)
        except (NameError, ValueError, SyntaxError, TypeError):
            return label
        if len(found) != 1:
            return label
        measure = found[0]
    try:
        same = _requests(parse_measures([irscale_name(measure)]))
    except MeasureError:
        return label
    try:
        own = _requests(parse_measures([label]))
    except MeasureError:
        return measure
    return measure if own == same else label


def _requests(requests: list[Any]) -> list[Any]:
    """Requests without their labels (what is computed)."""
    return [replace(request, requested="") for request in requests]


#: The per-topic measure behind a summary-only one (gm_map averages AP's logs ...).
PER_TOPIC_OF = {"gm_map": "map", "gm_bpref": "bpref"}


def _per_topic_hint(labels: Sequence[str]) -> str:
    hints = [f"{PER_TOPIC_OF[x]} for {x}" for x in labels if x in PER_TOPIC_OF]
    return f" ({', '.join(hints)})" if hints else ""


__all__ = ["FRAME_SHAPES", "Evaluation", "FrameShape",
           "RunSummaries", "build_evaluation", "ir_measure_of"]

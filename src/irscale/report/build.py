"""The data of the experiment report: every table and figure of :mod:`irscale.report.html`
computed once, from qrels and runs.

:func:`build_report` evaluates the runs (and trec_eval's ``iprec_at_recall`` for the
precision–recall curves) and assembles:

* ``means`` — runs × measures, trec_eval's ``all`` values (what ``irscale eval`` prints),
  with ``ci_low``/``ci_high`` the 1 − α t interval of each mean over the topics
  (mean ± t_{1−α/2, n−1} s/√n);
* ``comparison`` — with a baseline, every other run against it on every measure
  (:func:`irscale.stats.baseline.baseline_comparison`: delta, its CI, p, p adjusted over
  the whole table by ``correction`` — Holm by default, Ferro & Maistro (2024), §4.2.4 — and the
  topics won, tied and lost);
* ``anova`` / ``tukey`` / ``letters`` — per measure the two-way ANOVA (topic + system, MD2) with ω²
  (Ferro & Maistro 2024, eq. 8), the topic-blocked Tukey HSD on its error term (eq. 9–11) and the
  compact letter display of its decisions (Piepho 2004,
  :func:`irscale.stats.letters.compact_letters`), systems by decreasing mean; each ANOVA's
  ``assumptions`` (Shapiro & Wilk 1965 on its residuals, Levene 1960 and Brown & Forsythe
  1974 across runs and topics) are shown beside its table with the residuals' Q–Q plot;
* ``robustness`` — per measure, the check of the interval-scale assumption of Ferrante et al. (2021)
  on these runs: the runs cut at N (the measure's cut-off, else ``scale_depth``) and mapped to the
  measure's ranked version M_R = φ(M) (:func:`irscale.scales.transform.transform`, ties ``unq``,
  binary lenient mapping); Kendall's τ between the systems' means of M and of M_R (Table 2) and the
  pairs whose Tukey HSD decision (after MD2) changes from M to M_R (S2NS, NS2S: Tables 5–6). A
  measure with no scale gets the reason instead;
* ``discriminative`` — with ``dp``, discriminative power (Sakai 2014, §5: the paired
  bootstrap and the randomised Tukey HSD, B samples, one seed) per measure;
* ``across`` — with ``collections``, per measure the same systems compared across those
  collections (:func:`irscale.stats.across_collections.across_collections`: each pair's
  random-effects meta-analysis, the stratified bootstrap of the systems' means, the mixed
  model with the collection as a factor), shown with its forest plot;
* ``noise`` — with ``confusion``, every conclusion of the Tukey HSD (each pair of runs,
  per measure: significant in one direction, or not significant) under judge noise
  (:func:`irscale.collections.judge_noise` with ``test="MD2"``, the report's α, ``replicates``
  relabelled qrels drawn from ``seed``): a conclusion is **robust** when the replicates
  keep its decision (the same direction and significance) in at least
  :data:`~irscale.report.tables.ROBUST_SHARE` (95%) of them, **fragile** otherwise;
  ``noise_baseline`` — with a baseline too, every conclusion against it (per measure and
  run: significantly better, worse, or no significant difference) the same way: on each
  replicate's values, every run is compared with the baseline again as ``comparison``
  is (the same test, the correction over the same family of runs × measures) and the
  replicates keeping the decision (direction and significance after the correction)
  counted;
* ``provenance`` — the command, the versions and every input file's size and sha256.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd

from ..collections.params import (
    AUTO_SEED,
    DEFAULT_LABEL_DRAWS,
    DEFAULT_REPLICATES,
)
from ..core.mean_intervals import MeanInterval
from ..core.options import is_flag
from ..core.params import DEFAULT_RELEVANCE_LEVEL, SAMPLES
from ..core.progress import DELAY, ProgressArg, check_progress, progress_reporter
from ..errors import IrscaleError, MeasureError, ParameterError
from ..evaluation import Evaluation, evaluate
from ..evaluation.conventions import Applied, conventions_for
from ..evaluation.setup import evaluation_setup
from ..io.formats import REPORT_FORMATS, check_format
from ..io.naming import find_run
from ..io.regular_files import file_digest
from ..io.sources import as_qrels, as_runs
from ..measures.names import measure_names
from ..meta.discriminative import METHODS, discriminative_power_table
from ..meta.procedures import decide
from ..plots.runs import RECALL_LEVELS, interpolated_precision
from ..scales import scale_measure
from ..scales.transform import transform
from ..stats import anova as anova_of
from ..stats.baseline import baseline_comparison
from ..stats.corrections import correction_name
from ..stats.kendall import kendall_tau
from ..stats.letters import compact_letters
from ..stats.names import WEIGHTS
from ..stats.registry import test_spec
from ..stats.results import AnovaResult, PairwiseComparisons
from .content import SCALED_COLUMNS, Provenance, ReportContent
from .params import REPORT

__all__ = ["DEFAULT_MEASURES", "Provenance", "Report", "build_report"]

#: Measures of the report when none are named (trec_eval names).
DEFAULT_MEASURES: tuple[str, ...] = ("map", "P_10", "ndcg_cut_10")
#: Run length of the robustness panel for measures without a cut-off (Ferrante et al. 2021, §6 uses
#: 5, 10, 20 and 30).
DEFAULT_SCALE_DEPTH = 10


class Report(ReportContent):
    """Everything the report shows (module documentation), and how it is written."""

    def format(self, fmt: str = "html", *, digits: int = 4) -> str:
        """The whole report as a ``html`` page, or its tables as ``latex`` or
        ``markdown`` (:func:`~irscale.report.render_html`,
        :func:`~irscale.report.format_tables`): one of
        :data:`~irscale.io.formats.REPORT_FORMATS`."""
        check_format(fmt, REPORT_FORMATS, "a report")
        if fmt == "html":
            from .html import render_html

            return render_html(self, digits=digits)
        from .tables import format_tables

        return format_tables(self, cast(Any, fmt), digits=digits)


def provenance(command: str, paths: Iterable[object], conventions: Applied | None = None
               ) -> Provenance:
    """The :class:`Provenance` of a report made by ``command`` from ``paths`` (inputs that
    are not files — DataFrames, dicts — are listed by type) with the dataset
    ``conventions`` applied (their summary and source)."""
    import importlib.metadata

    import scipy

    from ..core.version import __version__

    try:
        plotting = importlib.metadata.version("matplotlib")
    except importlib.metadata.PackageNotFoundError:
        plotting = "not installed"
    versions = (("irscale", __version__), ("python", platform.python_version()),
                ("numpy", np.__version__), ("scipy", scipy.__version__),
                ("pandas", pd.__version__), ("matplotlib", plotting))
    inputs = []
    for path in paths:
        if isinstance(path, str | os.PathLike) and os.path.isfile(path):
            inputs.append((os.fspath(path), os.path.getsize(path), file_digest(path).hex()))
        else:
            inputs.append((f"<{type(path).__name__} in memory>", 0, ""))
    return Provenance(command=command, versions=versions, inputs=tuple(inputs),
                      conventions=None if conventions is None
                      else f"{conventions.summary()} (from {conventions.source})")


def _report_measures(evaluation: Evaluation, requested: Sequence[str]) -> tuple[str, ...]:
    """The per-topic measures averaged over topics, in order, without the precision–recall
    columns added for the curves (unless they were asked for). A requested measure that is
    not one (a count such as ``num_ret``, a summary such as ``gm_map``) is refused, never
    left out silently."""
    asked_iprec = any("iprec" in name for name in requested)
    columns = [c for c in evaluation.columns if asked_iprec or c.label not in RECALL_LEVELS]
    labels = tuple(c.label for c in columns
                   if c.label in evaluation.measures and c.aggregate == "mean")
    other = [c.label for c in columns if c.label not in labels]
    if other:
        raise MeasureError(
            f"{', '.join(other)}: the report compares measures with a per-topic value "
            "averaged over topics; counts, summaries over topics and text cannot be tested "
            f"(leave {'it' if len(other) == 1 else 'them'} out; irscale eval prints "
            f"{'it' if len(other) == 1 else 'them'})")
    return labels


def _mean_intervals(evaluation: Evaluation, measures: Sequence[str], alpha: float,
                    method: MeanInterval, samples: int, rng: Any) -> pd.DataFrame:
    """Runs × (measure, "low" | "high"): the interval of each run's mean over topics, as
    ``irscale eval --ci`` gives it (:meth:`irscale.measures.results.Evaluation.intervals`:
    t, or bootstrap of ``samples`` from ``rng``)."""
    table = evaluation.intervals(method, alpha=alpha, samples=samples, rng=rng)
    table = table[table["measure"].isin(list(measures))]
    frames = {}
    for measure in measures:
        rows = table[table["measure"] == measure].set_index("run")
        frames[(measure, "low")] = rows["ci_low"]
        frames[(measure, "high")] = rows["ci_high"]
    return pd.DataFrame(frames, index=list(evaluation.runs))


#: Units of progress of one step of the build (a step's own work, the resampling of
#: discriminative power, advances within it).
STEP_UNITS = 1000


def _stepper(progress: ProgressArg, steps: int
             ) -> tuple[Callable[[], None], Callable[[int, int], None]]:
    """``advance()``: one more of ``steps`` steps of the build done, and ``within(done,
    total)``: the step under way is that far (a bar labelled ``report analyses`` for work
    longer than :data:`~irscale.core.progress.DELAY`; :data:`STEP_UNITS` units a step)."""
    report = progress_reporter(progress, steps * STEP_UNITS, "report analyses", delay=DELAY)
    done = 0

    def advance() -> None:
        nonlocal done
        done += 1
        report(done * STEP_UNITS)

    def within(part: int, total: int) -> None:
        report(done * STEP_UNITS + min(part, total) * (STEP_UNITS - 1) // max(total, 1))

    return advance, within


def _dp_progress(within: Callable[[int, int], None], measures: int
                 ) -> Callable[[int, int], None]:
    """The resampling of discriminative power as the progress of its step: the methods of
    each measure in turn (:data:`~irscale.meta.discriminative.METHODS`), each counting its
    samples from 0 again."""
    passes = measures * len(METHODS)
    seen = {"pass": 0, "last": 0}

    def report(done: int, total: int) -> None:
        if done < seen["last"]:  # the next method's resampling has started
            seen["pass"] = min(seen["pass"] + 1, passes - 1)
        seen["last"] = done
        within(seen["pass"] * total + done, passes * total)

    return report


def _robustness(qrels: Any, runs: Any, measures: Sequence[str], depth: int,
                alpha: float, advance: Callable[[], None], level: int
                ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The τ(M, M_R) of Ferrante et al. (2021) and S2NS/NS2S of the Tukey HSD after MD2, per measure
    (``advance()`` after each), and the runs' means of M at N and of M_R (:attr:`Report.scaled`),
    the runs judged at relevance ``level`` (the report's)."""
    rows: list[dict[str, object]] = []
    scaled: list[dict[str, object]] = []
    by_depth: dict[int, list[str]] = {}
    for measure in measures:
        try:
            cutoff = scale_measure(measure).cutoff
        except IrscaleError as error:
            rows.append({"measure": measure, "N": None, "note": f"no scale: {error}"})
            advance()
            continue
        by_depth.setdefault(cutoff or depth, []).append(measure)
    for N, group in by_depth.items():
        try:
            results = [transform(qrels, runs, group, N, progress=False,
                                 relevance_level=level)]
        except IrscaleError:  # one measure's scale is out of reach: find which, keep others
            results = []
            for measure in group:
                try:
                    results.append(transform(qrels, runs, [measure], N, progress=False,
                                             relevance_level=level))
                except IrscaleError as error:
                    rows.append({"measure": measure, "N": N, "note": f"no scale: {error}"})
        for result, (measure, ranked) in ((r, pair) for r in results for pair in r.labels):
            before = result.matrix.array(measure)
            after = result.matrix.array(ranked)
            tau = kendall_tau(before.mean(axis=0), after.mean(axis=0)).tau
            sig = decide(before, "MD2", alpha=alpha).significant
            sig_r = decide(after, "MD2", alpha=alpha).significant
            rows.append({"measure": measure, "N": N, "tau": tau, "sig": int(sig.sum()),
                         "sig_ranked": int(sig_r.sum()), "s2ns": int((sig & ~sig_r).sum()),
                         "ns2s": int((~sig & sig_r).sum()), "note": ""})
            scaled.extend({"run": run, "measure": measure, "N": N, "value": float(m),
                           "ranked": float(r)}
                          for run, m, r in zip(result.matrix.systems, before.mean(axis=0),
                                               after.mean(axis=0), strict=True))
        for _ in group:
            advance()
    order = {m: i for i, m in enumerate(measures)}
    frame = pd.DataFrame(rows, columns=["measure", "N", "tau", "sig", "sig_ranked", "s2ns",
                                        "ns2s", "note"])
    table = pd.DataFrame(scaled, columns=list(SCALED_COLUMNS))
    return (frame.sort_values("measure", key=lambda s: s.map(order)).reset_index(drop=True),
            table.sort_values("measure", key=lambda s: s.map(order), kind="stable")
            .reset_index(drop=True))


class _BaselineTally:
    """The conclusions against the baseline over the judge-noise replicates: called with
    each replicate's values (:func:`~irscale.collections.judge_noise`'s ``each_replicate``),
    it compares them with the baseline as the report does (``compare``: the same test and
    correction over the same family of runs × measures) and counts, per (measure, run), the
    replicates that keep the stated decision (the same direction and significance after
    the correction)."""

    def __init__(self, stated: pd.DataFrame,
                 compare: Callable[[Any], pd.DataFrame]) -> None:
        from ..collections.judgment_noise import decisions

        self.stated = stated
        self.compare = compare
        self.keys = pd.MultiIndex.from_frame(stated[["measure", "run"]].astype(str))
        self.decision = decisions(stated["significant"], stated["delta"])
        self.kept = np.zeros(len(stated))

    def __call__(self, values: Any) -> None:
        from ..collections.judgment_noise import decisions

        found = self.compare(values)
        at = pd.MultiIndex.from_frame(found[["measure", "run"]].astype(str)).get_indexer(
            self.keys)
        self.kept += decisions(found["significant"].to_numpy()[at],
                               found["delta"].to_numpy()[at]) == self.decision

    def frame(self, replicates: int) -> pd.DataFrame:
        """``measure, run, baseline, delta, significant`` (the stated comparison) and
        ``decision_kept``: the share of the ``replicates`` that keep its decision."""
        out = self.stated[["measure", "run", "baseline", "delta", "significant"]].copy()
        out["decision_kept"] = self.kept / replicates
        return out.reset_index(drop=True)


@REPORT
def build_report(
    qrels: Any,
    runs: Any,
    measures: str | Sequence[str] | None = None,
    *,
    relevance_level: int | None = None,
    dataset: str | None = None,
    dataset_defaults: bool = True,
    conventions: Applied | None = None,
    baseline: str | None = None,
    test: str = "t",
    correction: str | None = "holm",
    alpha: float = 0.05,
    interval: MeanInterval = "t",
    interval_samples: int = 10_000,
    interval_rng: Any = None,
    dp: bool = False,
    dp_samples: int = 1000,
    seed: int = 0,
    scale_depth: int = DEFAULT_SCALE_DEPTH,
    robustness: bool = True,
    automatic: Any = None,
    design: str = "topics",
    label_probabilities: bool = False,
    draws: int = DEFAULT_LABEL_DRAWS,
    bounds: bool = False,
    collections: Mapping[str, Any] | str | os.PathLike[str] | None = None,
    collection_samples: int = 1000,
    confusion: Any = None,
    replicates: int = DEFAULT_REPLICATES,
    collection_weights: str = "equal",
    command: str | None = None,
    input_files: Sequence[str] | None = None,
    progress: ProgressArg = False,
) -> Report:
    """Evaluate ``runs`` against ``qrels`` and compute every table of the report (module
    documentation).

    Parameters
    ----------
    qrels, runs
        As :func:`irscale.evaluate` takes them (files, DataFrames, dicts); at least two runs,
        evaluated on the same topics.
    measures : str or sequence of str, optional
        Measure names (default: the dataset's official measures, else ``map``, ``P_10``,
        ``ndcg_cut_10``); the report shows those with a per-topic value averaged over
        topics.
    relevance_level : int, optional
        trec_eval's ``-l`` (default: the dataset's, else 1), of every evaluation the report
        makes: the runs', the robustness panel's, the automatic judgments', the bounds'
        and the judge-noise replicates'; the collections of ``collections`` are evaluated
        at 1, and refused with another level.
    dataset, dataset_defaults : optional
        A dataset's conventions, as :func:`irscale.evaluate` applies them
        (docs/evaluation.md, "Dataset conventions"): ``dataset``'s, or those of qrels
        ``irds:ID``, unless ``dataset_defaults`` is false; recorded in the provenance.
    conventions : Applied, optional
        The conventions the caller applied already to ``measures`` and
        ``relevance_level`` (``irscale report``), recorded in the provenance; not with
        ``dataset``.
    baseline : str, optional
        A run: significance marks and wins/ties/losses against it. Its name, or its file:
        the path, the file name or its stem (``runs/bm25.run.gz``, ``bm25.run.gz``,
        ``bm25``: :func:`irscale.io.naming.find_run`); a name that matches no run, or
        several, is an error listing the runs.
    test, correction, alpha
        The two-system test against the baseline, the correction over the family of
        (run, measure) comparisons (``"holm"`` default; ``None``/``"none"``) and α (also
        the level of every interval and of the Tukey HSD).
    interval, interval_samples, interval_rng : optional
        The interval of every mean over topics (:mod:`irscale.core.mean_intervals`): ``"t"``
        (Student, default) or ``"bootstrap"`` (percentile, topics resampled) with
        ``interval_samples`` samples from ``interval_rng`` (a seed; None: a fresh one).
    dp, dp_samples, seed
        Discriminative power (bootstrap and randomised Tukey HSD) with B = ``dp_samples``
        from ``seed`` (also the seed of the draws of ``label_probabilities``).
    scale_depth : int
        Run length N of the robustness panel for measures without a cut-off.
    robustness : bool
        Compute the robustness panel (default True).
    automatic : qrels, optional
        Automatic judgments of every topic; ``qrels`` are then the human judgments of a
        sample drawn as ``design`` says, and the report gets a section on the automatic
        judgments: agreement, every run's mean and every difference corrected with the
        human sample, and the conclusions that change
        (:func:`irscale.collections.automatic_judgments`, ``tuning="ppi++"``, level
        ``alpha``).
    design : {"topics", "uniform", "stratified", "inclusion"}
        How the human sample was drawn (``automatic`` only).
    label_probabilities, draws
        ``automatic`` gives every pair's grades with their probabilities (``topic iter docno
        rel prob``): the automatic values are the measures' expected values under them, by
        ``draws`` draws of the grades from ``seed`` for a measure that is not a sum over the
        ranked documents (:func:`irscale.collections.automatic_judgments`).
    bounds : bool
        Add each mean's bounds under the unjudged documents the runs retrieve and the
        pairs of runs the judgments do not order
        (:func:`irscale.collections.unjudged_bounds`).
    command : str, optional
        The command line shown in the reproducibility block (default: this call).
    collections, collection_samples, collection_weights : optional
        ``{name: ScoreMatrix or Evaluation}`` of 2 collections or more holding the report's
        measures for the same systems (matched by run name), or the path of their manifest
        (:mod:`irscale.io.manifest`, evaluated with the report's measures): the report
        gets a section comparing the systems across them, per measure
        (:func:`irscale.stats.across_collections.across_collections`, its stratified
        bootstrap of ``collection_samples`` samples seeded by ``seed``, the collections
        weighing as ``collection_weights`` says: ``"equal"`` or ``"topics"``), with a
        forest plot.
    confusion, replicates : optional
        A :class:`~irscale.collections.Confusion` of the judges: the report gets a section
        marking every conclusion of the Tukey HSD, and with ``baseline`` every conclusion
        against the baseline, robust or fragile under judge noise
        (:func:`irscale.collections.judge_noise`, ``replicates`` relabelled qrels drawn
        from ``seed``; module documentation).
    input_files : sequence of str, optional
        The files listed (size, SHA-256) in that block (default: ``qrels`` and ``runs``
        where they are paths).

    progress : bool or callable, default False
        Progress of the build (:mod:`irscale.core.progress`): one step for the evaluation,
        one per measure for its ANOVA and Tukey HSD, one per measure for the robustness
        panel, one for discriminative power, one for judge noise (a step is
        :data:`STEP_UNITS` units; a callable sees the resampling of discriminative power
        and the replicates of judge noise advance within their steps,
        ``True`` shows that resampling with a bar of its own, whose time left is its own).

    Raises
    ------
    ParameterError
        Bad options, a baseline that names several runs; AlignmentError when the runs do
        not cover the same topics or the baseline names no run; MeasureError for unknown
        measures.
    """
    # the domains and the sections each parameter applies to are checked on entry
    # (REPORT); those of the parameters the command line gives its own way here
    interval_samples = SAMPLES.check(interval_samples, "interval_samples")
    test_spec(test)
    dp_samples = SAMPLES.check(dp_samples, "dp_samples")
    collection_samples = SAMPLES.check(collection_samples, "collection_samples")
    if confusion is not None:
        from ..collections.judgment_noise import check_confusion

        check_confusion(confusion)
    collection_weights = WEIGHTS.domain.check(collection_weights, "collection_weights")
    correction_label = "none" if correction is None else correction_name(correction)
    if not is_flag(dataset_defaults):
        raise ParameterError(f"dataset_defaults must be True or False, got {dataset_defaults!r}")
    if conventions is None:
        conventions = conventions_for(qrels, dataset, dataset_defaults,
                                      measures_given=measures is not None,
                                      level_given=relevance_level,
                                      option_names=("measures=", "relevance_level="))
        if conventions is not None:
            measures = conventions.measures or measures
            relevance_level = conventions.relevance_level or relevance_level
    elif dataset is not None:
        raise ParameterError("conventions= are the dataset conventions applied already: "
                             "give no dataset= with them")
    # the one relevance level of every evaluation of the report (the panels' too)
    level = DEFAULT_RELEVANCE_LEVEL if relevance_level is None else relevance_level
    if collections is not None and level != DEFAULT_RELEVANCE_LEVEL:
        raise ParameterError(
            f"the collections compared across (collections=, --collection) are evaluated at "
            f"relevance level 1, not at the report's {level}"
            f"{'' if conventions is None else f' (the conventions of {conventions.dataset})'}"
            ": give relevance level 1, or leave the collections out")
    requested = measure_names(DEFAULT_MEASURES if measures is None else measures)
    paths = list(input_files) if input_files is not None else \
        [qrels, *(runs if isinstance(runs, list | tuple) else [runs])]
    check_progress(progress)
    # unknown measures and a bad level before any input
    evaluation_setup([*requested, "iprec_at_recall"], relevance_level=level)
    qrels_obj, run_objs = as_qrels(qrels), as_runs(runs)
    if baseline is not None:  # before the evaluation: a name that matches no run fails fast
        baseline = find_run(baseline, run_objs)
    evaluation = evaluate(qrels_obj, run_objs, [*requested, "iprec_at_recall"],
                          relevance_level=level)
    labels = _report_measures(evaluation, requested)
    advance, within = _stepper(progress, 1 + len(labels) * (2 if robustness else 1) + bool(dp)
                               + (confusion is not None))
    advance()
    run_names = tuple(evaluation.runs)
    if len(run_names) < 2:
        raise ParameterError(f"a report compares runs: give at least two (got {len(run_names)})")
    evaluation.to_matrix(measures=list(labels))  # the same topics for every run, or raise
    means = evaluation.mean()[list(labels)]
    intervals = _mean_intervals(evaluation, labels, alpha, interval, interval_samples,
                                interval_rng)

    def against_baseline(data: Any) -> pd.DataFrame:
        """Every run against the baseline on every measure of ``data`` (the evaluation,
        or a judge-noise replicate's values), one family."""
        return baseline_comparison(data, cast(str, baseline), test=test,
                                   correction=cast(Any, correction), alpha=alpha,
                                   measures=list(labels)).to_frame()

    comparison = None if baseline is None else against_baseline(evaluation)
    anovas: dict[str, AnovaResult] = {}
    tukeys: dict[str, PairwiseComparisons] = {}
    letters: dict[str, dict[str, str]] = {}
    for measure in labels:
        matrix = evaluation.to_matrix(measures=[measure])
        anovas[measure] = result = anova_of(matrix, "topic+system")
        tukeys[measure] = hsd = result.tukey_hsd(alpha)
        columns = hsd.columns
        pairs = [(str(a), str(b)) for a, b, s in zip(columns["a"], columns["b"],
                                                      columns["significant"], strict=True) if s]
        order = [run_names[i] for i in np.argsort(-means[measure].to_numpy(), kind="stable")]
        letters[measure] = compact_letters(order, pairs)
        advance()
    panel, scaled = (_robustness(qrels_obj, run_objs, labels, scale_depth, alpha, advance,
                                 level)
                     if robustness
                     else (pd.DataFrame(columns=["measure", "N", "tau", "sig", "sig_ranked",
                                                 "s2ns", "ns2s", "note"]),
                           pd.DataFrame(columns=list(SCALED_COLUMNS))))
    found_automatic = None
    if automatic is not None:
        from ..collections.automatic import automatic_judgments

        found_automatic = automatic_judgments(
            automatic, qrels, run_objs, list(labels), alpha=alpha, pairs=True,
            design=cast(Any, design), label_probabilities=label_probabilities,
            draws=draws, rng=seed if label_probabilities and design == "topics" else
            AUTO_SEED.default,
            progress=progress, relevance_level=level)
    found_bounds = None
    if bounds:
        from ..collections.bounds import unjudged_bounds

        found_bounds = unjudged_bounds(qrels_obj, run_objs, list(labels), progress=progress,
                                       relevance_level=level)
    across = {}
    if collections is not None:
        from ..stats.across_collections import across_collections

        if isinstance(collections, (str, os.PathLike)):  # read and evaluated once
            from ..evaluation.suite import evaluate_collections
            from ..io.manifest import read_collections

            collections = evaluate_collections(read_collections(collections), list(labels))
        across = {measure: across_collections(collections, measure, alpha=alpha,
                                              samples=collection_samples, rng=seed,
                                              weights=collection_weights)
                  for measure in labels}
    discriminative = None
    if dp:
        discriminative = discriminative_power_table(
            evaluation.to_matrix(measures=list(labels)), measures=list(labels),
            samples=dp_samples, alpha=alpha, rng=seed,
            progress=_dp_progress(within, len(labels)) if callable(progress)
            else bool(progress))  # a bar (lines) of its own: the resampling's time left
        advance()
    noise = noise_baseline = None
    if confusion is not None:
        from ..collections.judgment_noise import judge_noise

        tally = None if comparison is None else _BaselineTally(comparison, against_baseline)
        noise = judge_noise(qrels_obj, run_objs, list(labels), confusion, replicates=replicates,
                            rng=seed, test="MD2", alpha=alpha, each_replicate=tally,
                            progress=within if callable(progress) else bool(progress),
                            relevance_level=level)
        noise_baseline = None if tally is None else tally.frame(replicates)
        advance()
    return Report(
        evaluation=evaluation, measures=labels, runs=run_names, alpha=alpha,
        baseline=baseline, test=test, correction=correction_label, means=means,
        intervals=intervals,
        comparison=comparison, anova=anovas, tukey=tukeys, letters=letters,
        precision_recall=interpolated_precision(evaluation), robustness=panel,
        discriminative=discriminative,
        provenance=provenance(command or "irscale.report.build_report(...)", paths,
                              conventions),
        scaled=scaled, automatic=found_automatic, interval=interval,
        label_probabilities=label_probabilities,
        bounds=found_bounds, across=across, noise=noise, noise_baseline=noise_baseline)

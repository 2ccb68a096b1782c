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

Each part is a section of the report (:mod:`irscale.report.sections`, one module each, in
the order of :data:`~irscale.report.sections.SECTIONS`): :func:`build_report` reads the
inputs and evaluates the runs, then walks the sections, each in the report or not as its
declaration says (:class:`~irscale.report.section.Section`), checking what each needs
before the work and letting each fill its part.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from ..collections.params import DEFAULT_LABEL_DRAWS, DEFAULT_REPLICATES
from ..core.mean_intervals import MeanInterval
from ..core.options import is_flag
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.progress import DELAY, ProgressArg, check_progress, progress_reporter
from ..errors import ParameterError
from ..evaluation import evaluate
from ..evaluation.conventions import Applied, conventions_for
from ..evaluation.setup import evaluation_setup
from ..io.formats import REPORT_FORMATS, check_format
from ..io.sources import as_qrels, as_runs
from ..labels.plan_params import DEFAULT_UNIFORM_SHARE
from ..measures.name_hints import MeasureNames
from ..measures.names import measure_names
from . import sections as listed
from .content import Provenance, ReportContent
from .params import REPORT
from .section import (
    Build,
    Requirement,
    Section,
    check_needs,
    in_report,
    needs_of,
    step_count,
)
from .sections.robustness import DEFAULT_SCALE_DEPTH
from .sections.summary import report_measures

__all__ = ["DEFAULT_MEASURES", "Provenance", "Report", "build_report"]

#: Measures of the report when none are named (trec_eval names).
DEFAULT_MEASURES: tuple[str, ...] = ("map", "P_10", "ndcg_cut_10")


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


def _dataset_defaults(build: Build) -> None:
    """``dataset_defaults`` is a flag."""
    flag = build.options["dataset_defaults"]
    if not is_flag(flag):
        raise ParameterError(f"dataset_defaults must be True or False, got {flag!r}")


def _conventions_once(build: Build) -> None:
    """``conventions`` are those applied already: no ``dataset`` to apply besides."""
    if build.options["conventions"] is not None and build.options["dataset"] is not None:
        raise ParameterError("conventions= are the dataset conventions applied already: "
                             "give no dataset= with them")


#: What the report itself needs of the call, before the sections' requirements.
NEEDS: tuple[Requirement, ...] = (
    Requirement("dataset_defaults a flag", "call", _dataset_defaults),
    Requirement("dataset conventions applied once", "call", _conventions_once))


def _settle(options: dict[str, Any]) -> int:
    """Apply the dataset conventions (``dataset``'s, or those of qrels ``irds:ID``, unless
    given applied already or turned off) to ``options``' measures and relevance level, and
    return the one relevance level of every evaluation of the report (the panels' too)."""
    if options["conventions"] is None:
        applied = conventions_for(options["qrels"], options["dataset"],
                                  options["dataset_defaults"],
                                  measures_given=options["measures"] is not None,
                                  level_given=options["relevance_level"],
                                  option_names=("measures=", "relevance_level="))
        if applied is not None:
            options["measures"] = applied.measures or options["measures"]
            options["relevance_level"] = applied.relevance_level or options["relevance_level"]
        options["conventions"] = applied
    level = options["relevance_level"]
    return DEFAULT_RELEVANCE_LEVEL if level is None else level


def _evaluate(build: Build, needs: Sequence[Requirement]) -> None:
    """Read the inputs and evaluate the runs (and trec_eval's ``iprec_at_recall`` for the
    precision–recall curves), each stage's requirements checked before its work: unknown
    measures and a bad level before any input, the baseline before the evaluation."""
    options = build.options
    requested = tuple(measure_names(DEFAULT_MEASURES if options["measures"] is None
                                    else options["measures"]))
    check_progress(options["progress"])
    evaluation_setup([*requested, "iprec_at_recall"], relevance_level=build.level)
    build.set(qrels=as_qrels(options["qrels"]), runs=as_runs(options["runs"]),
              requested=requested)
    check_needs(needs, "inputs", build)
    build.set(evaluation=evaluate(build.qrels, build.runs, [*requested, "iprec_at_recall"],
                                  relevance_level=build.level))
    build.set(measures=report_measures(build.evaluation, requested))
    check_needs(needs, "evaluation", build)


def _part(section: Section, present: bool, build: Build) -> Mapping[str, Any]:
    """The fields of the report ``section`` fills: its part where it is in the report,
    else what it leaves there (:attr:`~irscale.report.section.Section.absent`)."""
    if present:
        return {} if section.build is None else section.build(build)
    return {} if section.absent is None else section.absent()


def _walk(options: dict[str, Any]) -> Report:
    """The report of a call with ``options`` (checked on entry): the report's requirements,
    then the sections' (:data:`~irscale.report.sections.SECTIONS`: those the options put in
    the report) at each stage, the evaluation, and each section's part in turn."""
    active = [section for section in listed.SECTIONS if in_report(section, options)]
    needs = needs_of(active)
    build = Build(options)
    check_needs(NEEDS, "call", build)
    build.set(level=_settle(options))
    check_needs(needs, "call", build)
    _evaluate(build, needs)
    advance, within = _stepper(options["progress"],
                               1 + step_count(active, len(build.measures)))
    build.set(advance=advance, within=within)
    advance()
    for section in listed.SECTIONS:
        build.fields.update(_part(section, section in active, build))
    correction = options["correction"]
    return Report(
        evaluation=build.evaluation, measures=build.measures,
        runs=tuple(build.evaluation.runs), alpha=options["alpha"],
        baseline=options["baseline"], test=options["test"],
        correction="none" if correction is None else correction,
        interval=options["interval"], label_probabilities=options["label_probabilities"],
        **build.fields)


@REPORT
def build_report(
    qrels: Any,
    runs: Any,
    measures: MeasureNames | None = None,
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
    judges: Any = None,
    plan_pilot: Any = None,
    plan_width: float | None = None,
    plan_design: str = "active",
    plan_pairs: Sequence[str] | None = None,
    plan_uniform_share: float = DEFAULT_UNIFORM_SHARE,
    assignments: Any = None,
    citations: Any = None,
    answer_measures: Sequence[str] | None = None,
    max_citations: int | None = None,
    assignments_sample: Any = None,
    assignments_design: str = "uniform",
    citations_sample: Any = None,
    citations_design: str = "answers",
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
    judges : qrels, or a sequence or mapping of qrels, optional
        Automatic judges' qrels: the report gets a section auditing them against ``qrels``
        under the first measure (:func:`irscale.labels.audit`: the report's ``test``,
        ``correction`` and ``alpha``, bootstrap intervals drawn from ``seed``).
    plan_pilot, plan_width, plan_design, plan_pairs, plan_uniform_share : optional
        Human labels of a pilot sample of ``qrels``' pairs, ``qrels`` being an automatic
        judge's labels of every pair: the report gets a section planning the human labels
        (per topic and in all) that make the prediction-powered interval of every run's
        mean, and of every difference ``plan_pairs`` names (``"A:B"``), ``plan_width``
        wide at level ``1 - alpha``, drawn as ``plan_design`` says (``uniform_share`` of
        the active design: ``plan_uniform_share``), with the unjudged documents' part of
        the width apart (:func:`irscale.labels.plan`, its numbers; the measures must be
        sums over the ranked documents); not with ``automatic``.
    assignments, citations, answer_measures, max_citations : optional
        The runs' generated answers, matched to the runs by name: nugget assignment
        records (:func:`irscale.text.evaluate_assignments`: A, V, W, strict and with
        partial credit) and support judgments of cited answers
        (:func:`irscale.text.evaluate_citations`: citation recall and precision, AIS,
        support precision and recall, the first ``max_citations`` citations of every
        sentence); the report gets a section on them: per run each of
        ``answer_measures`` (default: every measure of the files given) with its interval,
        and with ``baseline`` every run against it, the answer measures one family of
        ``correction`` (:mod:`irscale.report.sections.answers`).
    assignments_sample, assignments_design, citations_sample, citations_design : optional
        Human samples of the answers of ``assignments`` and ``citations``, which are then
        a model's labels, drawn as the designs say (those of
        :func:`irscale.text.evaluate_assignments`, default ``"uniform"``, and of
        :func:`irscale.text.evaluate_citations`, default ``"answers"``): the section adds
        every run's prediction-powered estimate of each answer measure, the model's score
        corrected on the sample (PPI++, level ``1 - alpha``), with the design and the size
        of the sample; no paired test against ``baseline`` is made on them.
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
    # the options' domains and when each applies are checked on entry (REPORT: the
    # sections' declarations); what each section needs, by the walk
    return _walk(dict(locals()))

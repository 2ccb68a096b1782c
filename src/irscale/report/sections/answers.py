"""The runs' generated answers (``assignments``, ``citations``): per run the mean over its
answers' topics of every answer measure with its 1 − α interval, and with a baseline
every run against it, paired by topic, all the answer measures one family of the report's
correction.

* ``assignments``: nugget assignment records (:mod:`irscale.io.assignments`) scored as
  the TREC 2024 RAG track does (:mod:`irscale.text.assignments`: All, Vital and Weighted,
  ``A``, ``V``, ``W`` with partial credit, ``A_strict``, ``V_strict``, ``W_strict``
  strict), by :func:`irscale.text.evaluate_assignments`;
* ``citations``: support judgments of the answers' sentences and citations
  (:mod:`irscale.io.citations`) scored by ALCE's citation recall and precision, the AIS
  rate and the RAG track's support precision and recall (:mod:`irscale.text.citations`),
  by :func:`irscale.text.evaluate_citations` (``max_citations``: the first K citations of
  every sentence).

The answers are matched to the report's runs by run name (a record's run id, else its
file's stem), every run of the report with answers and no answers of another run; in
each file set every run answers the same topics (the paired tests compare runs topic by
topic). Those topics need not be the qrels' topics: the answers' scores are the runs'
generation, the summary's the runs' retrieval. The intervals are the report's
(:meth:`irscale.measures.results.Evaluation.intervals`: ``interval``, ``alpha``,
``interval_samples``, ``interval_rng``); the comparison is
:func:`irscale.stats.baseline.baseline_comparison` with the report's ``test``, each file
set's measures tested alone, the p-values of both then adjusted together by the report's
``correction`` (one family: runs × answer measures, apart from the summary's family).

With a human sample of either file set (``assignments_sample``, ``citations_sample``:
the files are then a model's labels, and a sample of the same answers relabelled by
people, drawn as ``assignments_design``/``citations_design`` says: the designs of ``irscale
text nuggets --human-sample`` and ``irscale text citations --human-sample``), the section
adds every run's prediction-powered estimate of each of its measures, the model's score
corrected on the sample, with its 1 − ``alpha`` interval (Angelopoulos et al., Science
2023; λ by PPI++), the design and the size of the sample: the numbers of
:func:`irscale.text.evaluate_assignments` and :func:`irscale.text.evaluate_citations` with
``human_sample`` (:mod:`irscale.evaluation.assignments_ppi`,
:mod:`irscale.evaluation.citations_ppi`). The scores, intervals and comparison above stay
those of the model's labels, labelled so. No paired test against the baseline is made on
the corrected estimates: they are one per run, with no prediction-powered estimate of the
difference of two runs to test; the section says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.binding import Either
from ...core.params import InputFiles, Listed, Names, Needs, Param
from ...core.records import record, replace
from ...errors import AlignmentError, ParameterError
from ...measures.citations import CITATION_FAMILIES
from ...measures.nuggets import ASSIGNMENT_FAMILIES
from ...text.params import (
    CITATION_DESIGN,
    CITATION_SAMPLE,
    HUMAN_DESIGN,
    HUMAN_SAMPLE,
    MAX_CITATIONS,
)
from ..section import Build, Page, Requirement, Section, TablesFormat

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ...evaluation.assignments_ppi import AssignmentEstimates
    from ...measures.results import Evaluation
    from ..content import ReportContent

__all__ = ["ANSWER_MEASURES", "ASSIGNMENTS", "ASSIGNMENTS_DESIGN", "ASSIGNMENTS_SAMPLE",
           "CITATIONS", "CITATIONS_DESIGN", "CITATIONS_SAMPLE", "SECTION", "AnswerScores",
           "answer_frames"]

#: Nugget assignment records of the runs' answers (``--assignments FILE...``).
ASSIGNMENTS = Param("assignments", InputFiles(), None, "nugget assignment records of the "
                    "runs' answers (JSON lines of qid, run_id, nuggets: nuggetizer's, the TREC "
                    "RAG track's; the run named by run_id, else the file's stem): the report "
                    "gets a section on the answers (A, V, W, strict and with partial credit)",
                    ("--assignments",), "FILE")
#: Support judgments of the runs' cited answers (``--citations FILE...``).
CITATIONS = Param("citations", InputFiles(), None, "support judgments of the runs' cited "
                  "answers (JSON lines of qid, run_id, sentences with their citations: ALCE's, "
                  "the TREC RAG track's; as irscale text citations reads them): the report "
                  "gets a section on the answers (citation recall and precision, AIS, "
                  "support precision and recall)", ("--citations",), "FILE")
def _human_sample(files: str, sample: Param, design: Param, what: str) -> tuple[Param, Param]:
    """The human sample of the ``--{files}`` (``--{files}-sample FILE...``) and how it was
    drawn (``--{files}-design``): the text command's ``sample`` and ``design`` parameters
    under the report's names; ``what``, the records and what they sample."""
    return (replace(sample, name=f"{files}_sample", flags=(f"--{files}-sample",),
                    doc=f"{what} of the --{files}, which are then a model's: the section "
                    "adds every run's score corrected on the sample (prediction-powered, with "
                    "its interval)"),
            replace(design, name=f"{files}_design", flags=(f"--{files}-design",)))


#: A human sample of the nugget assignments and how it was drawn: the parameters of
#: ``irscale text nuggets --human-sample`` and ``--design`` under the report's names.
ASSIGNMENTS_SAMPLE, ASSIGNMENTS_DESIGN = _human_sample(
    "assignments", HUMAN_SAMPLE, HUMAN_DESIGN,
    "human assignment records (the same JSON lines) of a sample of the nuggets")
#: A human sample of the support judgments and how it was drawn: the parameters of
#: ``irscale text citations --human-sample`` and ``--design`` under the report's names.
CITATIONS_SAMPLE, CITATIONS_DESIGN = _human_sample(
    "citations", CITATION_SAMPLE, CITATION_DESIGN,
    "human support judgments (the same JSON lines) of a sample of the answers (or sentences)")
#: Each file set's human sample and its design.
SAMPLE_OF = {"assignments": (ASSIGNMENTS_SAMPLE, ASSIGNMENTS_DESIGN),
             "citations": (CITATIONS_SAMPLE, CITATIONS_DESIGN)}
#: The measures of each file set, in the order the section shows them.
MEASURES_OF = {"assignments": ASSIGNMENT_FAMILIES, "citations": CITATION_FAMILIES}
#: The answer measures shown (default: every measure of the files given).
ANSWER_MEASURES = Param("answer_measures", Listed(Names(
    "answer measure", (*ASSIGNMENT_FAMILIES, *CITATION_FAMILIES)), "an answer measure"), None,
    "the answer measures shown, comma-separated", ("--answer-measures",), "MEASURES",
    unset="every measure of --assignments and --citations")
#: What the section says of each file set (its option, its measures in words).
WORDS = {"assignments": ("--assignments", "nugget assignments: All, Vital, Weighted"),
         "citations": ("--citations", "support judgments: ALCE, AIS, RAG support")}


@record(eq=False)
class AnswerScores:
    """The section's part of the report: the ``evaluations`` of every file set given (by
    ``assignments``/``citations``: :class:`~irscale.measures.results.Evaluation`, the
    :mod:`irscale.text` API's), their ``topics`` (count), ``scores`` (``measure, run,
    mean, ci_low, ci_high``: the report's interval, ``interval``, level 1 − ``alpha``),
    ``comparison`` (None without a baseline: the columns of
    :meth:`~irscale.stats.baseline.BaselineComparison.to_frame`, ``p_adjusted`` and
    ``significant`` over the whole family) and ``max_citations``."""

    evaluations: dict[str, Evaluation]
    topics: dict[str, int]
    scores: pd.DataFrame
    comparison: pd.DataFrame | None
    interval: str
    alpha: float
    max_citations: int | None
    estimates: dict[str, AssignmentEstimates]
    corrected: pd.DataFrame | None


def _given(options: dict[str, Any]) -> list[str]:
    """The file sets given (``assignments``, ``citations``), in order."""
    return [name for name in MEASURES_OF if options.get(name) is not None]


def _measures(options: dict[str, Any], source: str) -> list[str]:
    """The measures of ``source`` shown: those of ``answer_measures`` (default: all)."""
    chosen = options["answer_measures"]
    return [m for m in MEASURES_OF[source] if chosen is None or m in chosen]


def _measures_given(build: Build) -> None:
    """Every answer measure asked for is one of a file set given, and each file set given
    has a measure shown."""
    options = build.options
    given = _given(options)
    for measure in options["answer_measures"] or ():
        source = next(s for s, names in MEASURES_OF.items() if measure in names)
        if source not in given:
            raise ParameterError(f"answer measure {measure!r} scores the {source} "
                                 f"({WORDS[source][0]}), which are not given")
    for source in given:
        if not _measures(options, source):
            raise ParameterError(f"{WORDS[source][0]} given, but none of its measures "
                                 f"({', '.join(MEASURES_OF[source])}) is among the answer "
                                 "measures")


#: The answer measures are those of the files given.
MEASURES_GIVEN = Requirement("answer measures of the files given", "call", _measures_given)


def _files(value: Any) -> Any:
    """The inputs of a file set: a list of them as given, one alone as one."""
    return list(value) if isinstance(value, tuple) else value


def _evaluate(build: Build, source: str) -> Evaluation:
    """The evaluation of the file set ``source`` (the :mod:`irscale.text` API's)."""
    from ...evaluation.assignments import score_assignments
    from ...evaluation.citations import evaluate_citations
    from ...measures.results import Evaluation

    options = build.options
    measures = _measures(options, source)
    if source == "assignments":
        return score_assignments(_files(options[source]), measures)
    found = evaluate_citations(_files(options[source]), measures,
                               max_citations=options["max_citations"])
    assert isinstance(found, Evaluation)  # (without a human sample)
    return found


def _estimate(build: Build, source: str) -> AssignmentEstimates:
    """The prediction-powered estimates of the file set ``source`` corrected on its human
    sample (the :mod:`irscale.text` API's, at the report's ``alpha``, λ by PPI++); a
    refusal of the design names the section's option."""
    from ...evaluation.assignments import evaluate_assignments
    from ...evaluation.assignments_ppi import AssignmentEstimates
    from ...evaluation.citations import evaluate_citations

    options = build.options
    sample, design = SAMPLE_OF[source]
    keywords = {"human_sample": _files(options[sample.name]), "design": options[design.name],
                "alpha": options["alpha"]}
    try:
        found = evaluate_assignments(_files(options[source]), _measures(options, source),
                                     **keywords) if source == "assignments" else \
            evaluate_citations(_files(options[source]), _measures(options, source),
                               max_citations=options["max_citations"], **keywords)
    except ParameterError as error:
        if error.param != HUMAN_DESIGN.name:
            raise
        raise ParameterError(design.name + str(error)[len(HUMAN_DESIGN.name):],
                             param=design.name) from None
    assert isinstance(found, AssignmentEstimates)  # (with a human sample)
    return found


def _aligned(evaluation: Evaluation, runs: tuple[str, ...], source: str) -> None:
    """Every run of the report answers the same topics in ``evaluation``, two at least,
    and no run besides them (refused otherwise, naming the run and the file set)."""
    option = WORDS[source][0]
    other = [run for run in evaluation.runs if run not in runs]
    if other:
        raise AlignmentError(f"{option}: answers of run {other[0]!r}, which is not a run of "
                             f"the report ({', '.join(runs)}): answers are matched to the "
                             "runs by run name (run_id, else the file's stem)")
    missing = [run for run in runs if run not in evaluation.runs]
    if missing:
        raise AlignmentError(f"{option}: no answers of run {missing[0]!r} (the report's "
                             f"runs: {', '.join(runs)}): give the answers of every run")
    table = evaluation.per_topic()
    topics = sorted(set(table["topic"]))
    if len(topics) < 2:
        raise AlignmentError(f"{option}: the answers cover {len(topics)} topic "
                             f"({', '.join(map(repr, topics))}): the intervals and the paired "
                             "tests need 2 at least")
    for run in runs:
        lacks = sorted(set(topics) - set(table.loc[table["run"] == run, "topic"]))
        if lacks:
            raise AlignmentError(f"{option}: run {run!r} has no answer of topic "
                                 f"{lacks[0]!r}, which other runs answer ({len(lacks)} "
                                 "topic(s) in all): the runs are compared topic by topic")


def _compared(build: Build, evaluations: dict[str, Evaluation]) -> pd.DataFrame:
    """Every run against the baseline on every answer measure: each file set's tests
    (:func:`~irscale.stats.baseline.baseline_comparison`, the report's test and α), the
    p-values then adjusted together by the report's correction."""
    import pandas as pd

    from ...stats.baseline import baseline_comparison
    from ...stats.corrections import adjust_pvalues

    options = build.options
    runs = list(build.evaluation.runs)
    frame = pd.concat([baseline_comparison(
        evaluation.to_matrix().subset(systems=runs), options["baseline"],
        test=options["test"], correction=None, alpha=options["alpha"],
        measures=_measures(options, source)).to_frame()
        for source, evaluation in evaluations.items()], ignore_index=True)
    frame["p_adjusted"] = adjust_pvalues(frame["p"].to_numpy(), options["correction"])
    frame["significant"] = frame["p_adjusted"] <= options["alpha"]
    return frame


def _read(build: Build) -> None:
    """Read and score the answers given (before the sections' work: a malformed record is
    reported before the analyses), matched to the report's runs; their evaluations are
    the section's part of the report made so far (``build.fields``), and with a human
    sample its estimates (``answer_estimates``, which :func:`_build` takes from there: a
    faulty sample file is reported before the analyses too)."""
    given = _given(build.options)
    if not given:
        return
    runs = tuple(build.evaluation.runs)
    evaluations = {source: _evaluate(build, source) for source in given}
    for source, evaluation in evaluations.items():
        _aligned(evaluation, runs, source)
    build.fields["answers"] = evaluations
    build.fields["answer_estimates"] = {
        source: _estimate(build, source) for source in given
        if build.options[SAMPLE_OF[source][0].name] is not None}


#: The answers read, every run of the report's with answers on the same topics.
ANSWERS_READ = Requirement("answers of the report's runs, on the same topics",
                           "evaluation", _read)


def _build(build: Build) -> dict[str, Any]:
    """The answers' scores, intervals and comparison (module documentation); None where
    no answers are given."""
    import pandas as pd

    options = build.options
    evaluations: dict[str, Evaluation] | None = build.fields.get("answers")
    if not evaluations:
        return {"answers": None}
    runs = tuple(build.evaluation.runs)
    topics = {source: len(set(evaluation.per_topic()["topic"]))
              for source, evaluation in evaluations.items()}
    scores = pd.concat([evaluation.intervals(
        options["interval"], alpha=options["alpha"], samples=options["interval_samples"],
        rng=options["interval_rng"]) for evaluation in evaluations.values()],
        ignore_index=True)
    shown = [(measure, run) for evaluation in evaluations.values()
             for measure in evaluation.measures for run in runs]
    scores = scores.set_index(["measure", "run"]).loc[shown].reset_index()
    comparison = _compared(build, evaluations) if options["baseline"] is not None else None
    estimates = build.fields.pop("answer_estimates", {})
    corrected = None
    if estimates:
        corrected = pd.concat([found.runs.assign(design=found.design)
                               for found in estimates.values()], ignore_index=True)
        shown = [key for key in shown if key[0] in set(corrected["measure"])]
        corrected = corrected.set_index(["measure", "run"]).loc[shown].reset_index()[
            ["measure", "run", "model", "ppi", "ppi_low", "ppi_high", "design", "labelled",
             "units"]]
    return {"answers": AnswerScores(
        evaluations=evaluations, topics=topics,
        scores=scores[["measure", "run", "mean", "ci_low", "ci_high"]],
        comparison=comparison, interval=options["interval"], alpha=options["alpha"],
        max_citations=options["max_citations"] if "citations" in evaluations else None,
        estimates=estimates, corrected=corrected)}


def answer_frames(report: ReportContent) -> list[tuple[str, str, pd.DataFrame]]:
    """The tables of the section (``report.answers``; none without): the scores with
    their intervals, then the comparison with the baseline, then with a human sample the
    scores corrected on it, ``(id, caption, frame)`` each. With a sample the first two
    are said to be the model's labels'."""
    import pandas as pd

    from ..frames import comparison_table

    found = report.answers
    if found is None:
        return []
    level = f"{100 * (1 - found.alpha):g}%"
    whose = " (the model's labels)" if found.corrected is not None else ""
    scores = found.scores
    frames = [("answers-scores", f"Answers{whose}: every run's mean over the topics "
               f"answered, with its {level} interval ({found.interval})", pd.DataFrame({
                   "measure": scores["measure"], "run": scores["run"],
                   "mean": scores["mean"], "CI low": scores["ci_low"],
                   "CI high": scores["ci_high"]}))]
    if found.comparison is not None:
        frames.append(("answers-baseline", f"Answers{whose}: every run against "
                       f"{report.baseline}: Δ, the run's mean minus the baseline's, with "
                       f"its {level} interval, p ({report.test}), p adjusted ({report.correction}, "
                       "over the answer measures), topics won/tied/lost",
                       comparison_table(found.comparison)))
    if found.corrected is not None:
        rows = found.corrected
        frames.append(("answers-corrected", "Answers corrected by the human sample: every "
                       "run's model score (the model's labels), its prediction-powered "
                       f"estimate (PPI++) with its {level} interval, the design, the units "
                       "the humans labelled and the units in all (answers under the answers "
                       "design, else nuggets or sentences); no paired test against the baseline on "
                       "these (one estimate per run)", pd.DataFrame({
                           "measure": rows["measure"], "run": rows["run"],
                           "model": rows["model"], "corrected": rows["ppi"],
                           "CI low": rows["ppi_low"], "CI high": rows["ppi_high"],
                           "design": rows["design"], "human n": rows["labelled"],
                           "of": rows["units"]})))
    return frames


def _said(report: ReportContent) -> str:
    """What the answers are: each file set, its topics, the citations counted."""
    found = report.answers
    parts = []
    for source, count in found.topics.items():
        option, words = WORDS[source]
        parts.append(f"{words} ({option}, {count} topic{'s' if count != 1 else ''})")
    cited = "" if found.max_citations is None else \
        f"; the first {found.max_citations} citations of every sentence counted"
    return "; ".join(parts) + cited


#: What the section says of the corrected estimates and the baseline (the page, and
#: docs/report.md).
NO_PAIRED_TEST = ("No paired test against the baseline is made on the corrected estimates: "
                  "they are one per run, with no prediction-powered estimate of the "
                  "difference of two runs; the comparison with the baseline is on the "
                  "model's labels.")


def _corrected_said(report: ReportContent) -> str:
    """What the human samples are: each file set sampled, its design."""
    found = report.answers
    return "; ".join(f"{WORDS[source][1].split(':')[0]} ({SAMPLE_OF[source][0].flags[0]}, "
                     f"{estimates.design} design)"
                     for source, estimates in found.estimates.items())


def _html(report: ReportContent, page: Page) -> list[str] | None:
    """What the answers are and their tables; with a human sample, what it is and that no
    paired test is made on the corrected estimates."""
    from ..page import esc, table

    if report.answers is None:
        return None
    sampled = [] if report.answers.corrected is None else [
        "<p>The labels of the files are a model's, and people relabelled a sample of the "
        f"answers: {esc(_corrected_said(report))}. The model's scores are corrected on the "
        "sample by prediction-powered inference (PPI++; Angelopoulos et al., Science "
        f"2023), shown beside them. {esc(NO_PAIRED_TEST)}</p>"]
    return [f"<p>The runs' generated answers, matched to the runs by name: "
            f"{esc(_said(report))}. Every run answers the same topics; scores are fractions "
            "(docs/text.md: the definitions).</p>", *sampled,
            *(table(frame, page.digits, table_id=table_id, caption=caption)
              for table_id, caption, frame in answer_frames(report))]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ..frames import frames_text

    return frames_text(answer_frames(report), fmt, digits)


#: Either file set puts the section in the report.
_EITHER = ((Needs((), on=ASSIGNMENTS),), (Needs((), on=CITATIONS),))

SECTION = Section(
    "answers", needs=(MEASURES_GIVEN, ANSWERS_READ), build=_build, html=_html, tables=_tables,
    params=(ASSIGNMENTS, CITATIONS, ANSWER_MEASURES, MAX_CITATIONS, ASSIGNMENTS_SAMPLE,
            ASSIGNMENTS_DESIGN, CITATIONS_SAMPLE, CITATIONS_DESIGN),
    rules=(Needs((MAX_CITATIONS,), "the support judgments", on=CITATIONS),
           Needs((ASSIGNMENTS_SAMPLE,), "the nugget assignments", on=ASSIGNMENTS),
           Needs((ASSIGNMENTS_DESIGN,), "a human sample of the nugget assignments",
                 on=ASSIGNMENTS_SAMPLE),
           Needs((CITATIONS_SAMPLE,), "the support judgments", on=CITATIONS),
           Needs((CITATIONS_DESIGN,), "a human sample of the support judgments",
                 on=CITATIONS_SAMPLE),
           Either((ANSWER_MEASURES,), _EITHER, "the answers")),
    absent=lambda: {"answers": None}, heading=("Generated answers", "answers"))

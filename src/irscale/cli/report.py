"""``irscale report``: the experiment report of a set of runs, one self-contained HTML page
or its tables in LaTeX or Markdown (usage: ``docs/cli.md``, ``docs/report.md``).

The report's options are built from its sections' declarations
(:data:`irscale.report.sections.SECTIONS`, in that order: one group of ``--help`` a section
with options, :func:`add_section_options`), and their values handed to
:func:`~irscale.report.build_report` under the parameters' names
(:func:`section_values`): a new section's options reach the command line and the function
with no line here. What the command line gives its own way (the intervals, the test and the
correction against the baseline, ``-B``, the judges' confusion, the collections,
``--no-robustness``), or in words of its own, is :data:`GIVEN`."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any

from ..collections.params import AUTO_PROBABILITIES, NOISE_REPLICATES
from ..core.params import (
    RELEVANCE,
    RESAMPLES,
    SIGNIFICANCE,
    TABLE_DIGITS,
    Param,
    Switch,
)
from ..core.records import record
from ..errors import ParameterError
from ..evaluation.params import COLLECTION, COLLECTIONS
from ..io.formats import REPORT_FORMATS
from ..io.sources import expands
from ..report import sections
from ..report.params import JUDGES, TITLE
from ..report.section import SEED_OF_DRAWS, Section, command_binding
from ..report.sections.answers import (
    ASSIGNMENTS,
    ASSIGNMENTS_DESIGN,
    ASSIGNMENTS_SAMPLE,
    CITATIONS,
    CITATIONS_DESIGN,
    CITATIONS_SAMPLE,
)
from ..stats.names import MULTIPLE_CORRECTION, WEIGHTS
from .common_params import FORMAT, MEASURES, QRELS, RUNS
from .compare_collections import (
    WEIGHTS_RULE,
    across,
    check_sources,
    evaluate_collections,
)
from .confusion_options import (
    CONFUSION_OPTIONS,
    confusion_files,
    confusion_given,
    read_confusion_options,
)
from .confusion_options import (
    SOURCES as CONFUSION_SOURCES,
)
from .dataset_options import add_dataset_options, apply_dataset_conventions, note, refuse_level
from .eval_options import TABLE_TEST, TABLE_TESTS
from .inputs import check_measure_names
from .intervals import add_interval_options
from .main import SUBCOMMANDS
from .options import (
    Argument,
    add_command,
    add_output,
    add_param,
    add_progress,
    command_line,
    wants_progress,
)
from .outputs import Done
from .rules import Declared, Negated, Rule, Sources
from .runargs import add_names, named_runs, read_inputs

#: ``--no-robustness``: the robustness panel left out (``robustness=False``).
NO_ROBUSTNESS = Param("no_robustness", Switch(), False, "leave out the robustness panel",
                      ("--no-robustness",))

#: What :func:`section_values` is given besides the parsed options: the inputs the command
#: line read itself, by name (``confusion``: the judges' confusion, ``collections``: the
#: collections evaluated; None where not given).
Read = Mapping[str, Any]


@record(eq=False)
class Given:
    """How the command line gives parameters of the sections its own way: the
    ``arguments`` it adds (:data:`~irscale.cli.options.Argument`: a parameter, one with the
    command's words, or a function adding options and their rules to the parser) and
    ``values(args, read)``, the keywords of :func:`~irscale.report.build_report` it passes
    (None: each parameter of ``arguments`` under its name, as parsed)."""

    arguments: tuple[Argument, ...]
    values: Callable[[argparse.Namespace, Read], Mapping[str, Any]] | None = None


def _given_collections(args: argparse.Namespace, read: Read) -> dict[str, Any]:
    """``--collection``'s evaluated collections, and with them the resamples (``-B``) and
    ``--weights`` of their bootstrap."""
    if read["collections"] is None:
        return {"collections": None}
    return {"collections": read["collections"], "collection_samples": args.samples,
            "collection_weights": args.weights}


#: ``-B``: the resamples of two sections (discriminative power, the collections' bootstrap).
_SAMPLES = (RESAMPLES, {"doc": "samples of --dp and of --collection's bootstrap",
                        "default": 1000})
_INTERVALS = Given((lambda p: add_interval_options(p, "every mean of the summary (default t)"),),
                   lambda args, read: {"interval": args.ci or "t",
                                       "interval_samples": args.ci_samples,
                                       "interval_rng": args.ci_seed})
_COLLECTIONS = Given((
    (COLLECTION, {"action": "append", "doc": "a collection: its name, its qrels file, then its "
                  "runs (comma-separated run files, a folder or a glob pattern, quoted); "
                  "repeatable, 2 at least, every collection with runs of the same systems "
                  "(matched by run name): adds a section comparing the systems across the "
                  "collections (meta-analysis, mixed model, forest plot)"}),
    COLLECTIONS, _SAMPLES, WEIGHTS), _given_collections)

#: The parameters of the sections (their ``on``, ``params`` and ``own``) that the command
#: line gives its own way or in its own words, by name; each :class:`Given` is added once,
#: where its first parameter comes (``-B``'s option with discriminative power), and read
#: once. Every other parameter of a section is an option built from its declaration
#: (:func:`~irscale.cli.options.add_param`), passed under its name.
GIVEN: dict[str, Given] = {
    "relevance_level": Given(((RELEVANCE, {
        "doc": "smallest relevant grade of every evaluation of the report (trec_eval's -l; "
        "default: 1, or the dataset's)"}),)),
    "alpha": Given(((SIGNIFICANCE, {"doc": "significance level, also of every interval"}),)),
    "interval": _INTERVALS,
    "interval_samples": _INTERVALS,
    "test": Given(((TABLE_TEST, {"choices": TABLE_TESTS}),)),
    "correction": Given(((MULTIPLE_CORRECTION, {
        "doc": "correction over the runs x measures compared with --baseline"}),)),
    "robustness": Given((NO_ROBUSTNESS,),
                        lambda args, read: {"robustness": not args.no_robustness}),
    "dp_samples": Given((_SAMPLES,), lambda args, read: {"dp_samples": args.samples}
                        if args.dp else {}),
    "label_probabilities": Given(((AUTO_PROBABILITIES, {
        "doc": "AUTO_QRELS gives every pair's grades with their probabilities (topic iter "
        "docno rel prob): the automatic values are the measures' expected values under "
        "them"}),)),
    "confusion": Given(CONFUSION_OPTIONS, lambda args, read: {"confusion": read["confusion"]}),
    "replicates": Given(((NOISE_REPLICATES, {
        "doc": "relabelled qrels of the section on judge noise (with --confusion, "
        "--flip-rate, --double-judged or --auto-sample: every Tukey HSD conclusion robust "
        "or fragile)"}),)),
    "judges": Given(((JUDGES, {"action": "append"}),)),
    "assignments": Given(((ASSIGNMENTS, {"nargs": "+"}),)),
    "citations": Given(((CITATIONS, {"nargs": "+"}),)),
    "assignments_sample": Given(((ASSIGNMENTS_SAMPLE, {"nargs": "+"}),)),
    "assignments_design": Given(((ASSIGNMENTS_DESIGN, {
        "choices": ASSIGNMENTS_DESIGN.domain.names}),)),
    "citations_sample": Given(((CITATIONS_SAMPLE, {"nargs": "+"}),)),
    "citations_design": Given(((CITATIONS_DESIGN, {
        "choices": CITATIONS_DESIGN.domain.names}),)),
    "collections": _COLLECTIONS,
    "collection_samples": _COLLECTIONS,
    "collection_weights": _COLLECTIONS,
}
#: The group of ``--help`` of the seed of the sections that draw (:data:`SEED_OF_DRAWS`).
SEED_GROUP = "the report's draws"


def _parameters(section: Section) -> tuple[Param, ...]:
    """The parameters of ``section`` the command line offers, in the order of its group
    of ``--help``: the one that puts it in the report, then its ``params`` and ``own``."""
    on = () if section.on is None or section.on in (*section.params, *section.own) \
        else (section.on,)
    return (*on, *section.params, *section.own)


def _givens(listed: tuple[Section, ...]) -> list[tuple[Section | None, Given]]:
    """Each :class:`Given` of the sections ``listed`` once, in order, with the section
    whose group holds it, then the seed's (none where no section draws)."""
    givens: dict[int, tuple[Section | None, Given]] = {}
    for section in listed:
        for param in _parameters(section):
            given = GIVEN.get(param.name) or Given((param,))
            givens.setdefault(id(given), (section, given))
    if any(section.draws for section in listed):
        givens[id(SEED_OF_DRAWS)] = (None, Given((SEED_OF_DRAWS,)))
    return list(givens.values())


def _title(section: Section | None) -> str:
    """The title of ``section``'s group of ``--help`` (None: the seed's), in lower case as
    argparse's own."""
    if section is None:
        return SEED_GROUP
    title = section.group or (section.heading[0] if section.heading else section.name)
    return title[0].lower() + title[1:]


def add_section_options(parser: argparse.ArgumentParser) -> None:
    """The options of the report's sections (:data:`~irscale.report.sections.SECTIONS`), a
    group of ``--help`` each, in the order of the list (a function of :data:`GIVEN` adds
    its options and rules to the parser, which makes their group)."""
    groups: dict[str, Any] = {}
    added: set[int] = set()
    for section, given in _givens(sections.SECTIONS):
        for argument in given.arguments:
            if id(argument) in added:  # -B: shared by two sections
                continue
            added.add(id(argument))
            if callable(argument):
                argument(parser)
                continue
            title = _title(section)
            group = groups.get(title) or groups.setdefault(
                title, parser.add_argument_group(title))
            param, words = argument if isinstance(argument, tuple) else (argument, {})
            add_param(group, param, **words)


def section_values(args: argparse.Namespace, read: Read) -> dict[str, Any]:
    """The keywords of :func:`~irscale.report.build_report` from the options of the
    sections (:func:`add_section_options`) and the inputs ``read``: a parameter built from
    its declaration under its name as parsed, the others as :data:`GIVEN` says."""
    values: dict[str, Any] = {}
    for _, given in _givens(sections.SECTIONS):
        if given.values is not None:
            values.update(given.values(args, read))
            continue
        for argument in given.arguments:
            param = argument[0] if isinstance(argument, tuple) else argument
            if isinstance(param, Param):
                values[param.name] = getattr(args, param.dest or param.name)
    return values


def add_parser(subparsers) -> None:
    """Register ``irscale report`` and the rules of its options."""
    add_command(
        subparsers, "report", run, (QRELS, {"metavar": "QRELS", "doc": "qrels file"}),
        (RUNS, {"nargs": "+", "metavar": "RUN", "doc": "run files (at least two), a folder "
                "of them or a quoted glob pattern ('runs/*.gz')"}),
        (MEASURES, {"action": "append", "doc": "measure (repeatable; default: the dataset's "
                    "official measures, else map, P_10, ndcg_cut_10)"}),
        add_dataset_options, add_names, add_section_options,
        (FORMAT, {"choices": REPORT_FORMATS, "default": "html", "doc": "html: one "
                  "self-contained page; latex or markdown: the tables"}),
        TABLE_DIGITS, TITLE, add_progress, lambda p: add_output(p, what="report"),
        binding=command_binding(sections.SECTIONS), sources=SOURCES, rules=RULES,
        example="qrels.txt a.run b.run c.run --no-robustness --format markdown",
        help=SUBCOMMANDS["report"],
        description="Evaluate runs and write the experiment report: significance against a "
        "baseline, ANOVA and Tukey HSD groups, plots, robustness and the commands that "
        "produced it. See docs/report.md.")


def _runs(args: argparse.Namespace) -> None:
    """A report compares runs: two at least (a folder may hold several)."""
    if len(args.runs) < 2 and not expands(args.runs[0]):
        raise ParameterError("a report compares runs: give a qrels file and at least two "
                             "run files (or a folder of them)")


def _collections_level(args: argparse.Namespace) -> None:
    """``--collection``'s collections are evaluated at relevance level 1: another level
    (``-l``, the dataset's) is refused with them."""
    if across(args):
        refuse_level(args, "--collection evaluates its collections at relevance level 1")


def _inclusion(args: argparse.Namespace) -> None:
    """``--design inclusion`` reads sampled judgments, which a report does not evaluate."""
    if args.design == "inclusion":
        raise ParameterError("--design inclusion reads sampled judgments (topic iter docno rel "
                             "prob), not the qrels a report evaluates: use irscale labels auto "
                             "--design inclusion")


#: The options the command line gives its own way, by the parameter of the sections'
#: binding they give (:func:`~irscale.report.section.command_binding`): the collections
#: (``--collection`` or a manifest), the judges' confusion (four ways).
SOURCES: Sources = {"collections": ("collections", "collections_file"),
                    "confusion": tuple(dest for dest, _ in CONFUSION_SOURCES),
                    # --no-robustness: robustness=False (the panel's --scale-depth refused)
                    "robustness": Negated("no_robustness")}

#: The rules of the command line's own, after those of the function's binding
#: (:func:`~irscale.report.section.command_binding`), in the order they are checked, before any
#: input is read: ``--samples`` is the resamples of two sections (``dp_samples`` and
#: ``collection_samples``), ``--title`` is the HTML page's.
RULES: tuple[Declared, ...] = (
    Rule(("samples",), lambda args: args.dp or across(args), "{options} applies to "
         "--dp (discriminative power) and to --collection (its bootstrap)"),
    Rule(("title",), lambda args: args.fmt == "html", "--title applies to --format html"),
    _inclusion,
    WEIGHTS_RULE,
    _runs,
    check_sources,
    apply_dataset_conventions,
    _collections_level,
)


def run(args: argparse.Namespace) -> Done:
    """``irscale report``: the tables and panels of the runs, as ``--format`` says; off a
    terminal, plain progress lines span the whole of it, the reading, the imports and the
    figures included (:func:`~irscale.core.progress.working`)."""
    from ..core.progress import working

    note(args)  # the dataset conventions applied (--dataset, irds: qrels)
    with working("report", enabled=wants_progress(args)):
        return _report(args)


def _report(args: argparse.Namespace) -> Done:
    """The report of ``args`` (:func:`run`)."""
    check_measure_names(args.measures)
    # the inputs first: a malformed file is reported before the analyses are imported
    qrels, runs = read_inputs(args.qrels, named_runs(args.runs, args.names))
    confusion = read_confusion_options(args) if confusion_given(args) else None
    from ..report import DEFAULT_MEASURES, build_report, format_tables, render_html

    measures = args.measures or list(DEFAULT_MEASURES)
    collections, collection_files = evaluate_collections(args, measures) if across(args) \
        else (None, [])
    report = build_report(
        qrels, runs, measures,
        **section_values(args, {"confusion": confusion, "collections": collections}),
        conventions=args.conventions, command=command_line(args),
        input_files=[args.qrels, *args.runs, *([args.automatic] if args.automatic else []),
                     *(args.judges or []), *([args.plan_pilot] if args.plan_pilot else []),
                     *(args.assignments or []), *(args.citations or []),
                     *(args.assignments_sample or []), *(args.citations_sample or []),
                     *collection_files, *confusion_files(args)],
        progress=wants_progress(args))
    if args.fmt != "html":
        return format_tables(report, args.fmt, digits=args.digits)
    return render_html(report, digits=args.digits, title=args.title)

"""``irscale report``: the experiment report of a set of runs, one self-contained HTML page
or its tables in LaTeX or Markdown (usage: ``docs/cli.md``, ``docs/report.md``)."""

from __future__ import annotations

import argparse

from ..collections.params import AUTO_DESIGN, AUTO_DRAWS, AUTO_PROBABILITIES, NOISE_REPLICATES
from ..core.params import (
    RELEVANCE,
    RESAMPLES,
    SIGNIFICANCE,
    TABLE_DIGITS,
    Param,
    Switch,
)
from ..errors import ParameterError
from ..evaluation.params import COLLECTION, COLLECTIONS
from ..io.formats import FORMAT, REPORT_FORMATS
from ..io.sources import expands
from ..report.params import (
    AUTOMATIC,
    BASELINE,
    BOUNDS,
    DP,
    JUDGES,
    REPORT_OPTIONS,
    SCALE_DEPTH,
    SEED_OF_DRAWS,
    TITLE,
)
from ..stats.names import MULTIPLE_CORRECTION, WEIGHTS
from .common_params import MEASURES, QRELS, RUNS
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
    add_command,
    add_output,
    add_progress,
    command_line,
    wants_progress,
)
from .outputs import Done
from .rules import Declared, Rule
from .runargs import add_names, named_runs, read_inputs

#: ``--no-robustness``: the robustness panel left out (``robustness=False``).
NO_ROBUSTNESS = Param("no_robustness", Switch(), False, "leave out the robustness panel",
                      ("--no-robustness",))

def add_parser(subparsers) -> None:
    """Register ``irscale report`` and the rules of its options."""
    add_command(
        subparsers, "report", run, (QRELS, {"metavar": "QRELS", "doc": "qrels file"}),
        (RUNS, {"nargs": "+", "metavar": "RUN", "doc": "run files (at least two), a folder "
                "of them or a quoted glob pattern ('runs/*.gz')"}),
        (MEASURES, {"action": "append", "doc": "measure (repeatable; default: the dataset's "
                    "official measures, else map, P_10, ndcg_cut_10)"}),
        (RELEVANCE, {"doc": "smallest relevant grade of every evaluation of the report "
                     "(trec_eval's -l; default: 1, or the dataset's)"}), add_dataset_options,
        add_names, BASELINE, (TABLE_TEST, {"choices": TABLE_TESTS}),
        (MULTIPLE_CORRECTION, {"doc": "correction over the runs x measures compared with "
                               "--baseline"}),
        (SIGNIFICANCE, {"doc": "significance level, also of every interval"}),
        lambda p: add_interval_options(p, "every mean of the summary (default t)"), DP,
        (RESAMPLES, {"doc": "samples of --dp and of --collection's bootstrap",
                     "default": 1000}),
        SEED_OF_DRAWS,
        SCALE_DEPTH, NO_ROBUSTNESS, AUTOMATIC, AUTO_DESIGN,
        (AUTO_PROBABILITIES, {"doc": "AUTO_QRELS gives every pair's grades with their "
                              "probabilities (topic iter docno rel prob): the automatic "
                              "values are the measures' expected values under them"}),
        AUTO_DRAWS, (JUDGES, {"action": "append"}), BOUNDS, *CONFUSION_OPTIONS,
        (NOISE_REPLICATES, {"doc": "relabelled qrels of the section on judge noise (with "
                            "--confusion, --flip-rate, --double-judged or --auto-sample: "
                            "every Tukey HSD conclusion robust or fragile)"}),
        (COLLECTION, {"action": "append", "doc": "a collection: its name, its qrels file, "
                      "then its runs "
                      "(comma-separated run files, a folder or a glob pattern, quoted); "
                      "repeatable, 2 at least, every collection with runs of the same "
                      "systems (matched by run name): adds a section comparing the systems "
                      "across the collections (meta-analysis, mixed model, forest plot)"}),
        COLLECTIONS, WEIGHTS,
        (FORMAT, {"choices": REPORT_FORMATS, "default": "html", "doc": "html: one "
                  "self-contained page; latex or markdown: the tables"}),
        TABLE_DIGITS, TITLE, add_progress, lambda p: add_output(p, what="report"),
        binding=REPORT_OPTIONS, sources=SOURCES, rules=RULES,
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


#: The options the command line gives its own way, by the parameter of
#: :data:`~irscale.report.params.REPORT_OPTIONS` they give: the collections (``--collection`` or a
#: manifest), the judges' confusion (four ways).
SOURCES = {"collections": ("collections", "collections_file"),
           "confusion": tuple(dest for dest, _ in CONFUSION_SOURCES)}

#: The rules of the command line's own, after those of the function's binding
#: (:data:`~irscale.report.params.REPORT_OPTIONS`), in the order they are checked, before any
#: input is read: ``--samples`` is the resamples of two sections (``dp_samples`` and
#: ``collection_samples``), ``--no-robustness`` leaves out the panel (``robustness=False``),
#: ``--title`` is the HTML page's.
RULES: tuple[Declared, ...] = (
    Rule(("samples",), lambda args: args.dp or across(args), "{options} applies to "
         "--dp (discriminative power) and to --collection (its bootstrap)"),
    Rule(("scale_depth",), lambda args: not args.no_robustness, "--scale-depth applies to the "
         "robustness panel, which --no-robustness leaves out"),
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
        qrels, runs, measures, relevance_level=args.relevance_level,
        conventions=args.conventions,
        baseline=args.baseline, test=args.test, correction=args.correction, alpha=args.alpha,
        interval=args.ci or "t", interval_samples=args.ci_samples, interval_rng=args.ci_seed,
        dp=args.dp, seed=args.seed, scale_depth=args.scale_depth,
        robustness=not args.no_robustness, automatic=args.automatic, design=args.design,
        label_probabilities=args.label_probabilities, draws=args.draws,
        bounds=args.bounds, collections=collections, confusion=confusion,
        replicates=args.replicates, judges=args.judges,
        command=command_line(args),
        input_files=[args.qrels, *args.runs, *([args.automatic] if args.automatic else []),
                     *(args.judges or []),
                     *collection_files, *confusion_files(args)],
        progress=wants_progress(args),
        # --samples: the resamples of the sections asked for (each applies to its own)
        **({"dp_samples": args.samples} if args.dp else {}),
        **({"collection_samples": args.samples, "collection_weights": args.weights}
           if collections is not None else {}))
    if args.fmt != "html":
        return format_tables(report, args.fmt, digits=args.digits)
    return render_html(report, digits=args.digits, title=args.title)

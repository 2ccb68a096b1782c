"""``irscale eval``: trec_eval's command line, for one run or many (usage: ``docs/cli.md``).

With several runs every line of the ``trec`` format gets a fourth field, its run; with
``--batch-size``, ``--scheduler``, ``--workers`` or ``--per-topic-out`` the runs are streamed
in batches as ``irscale eval-many`` streams them (:mod:`irscale.cli.eval_many`). Also the
output options that ``irscale text`` and ``irscale session`` share with it."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..core.params import NDEVAL_RISK_ALPHA, SIGNIFICANCE
from ..evaluation.context import DEFAULT
from ..io.formats import OUTPUT_FORMATS
from ..stats.names import MULTIPLE_CORRECTION
from .common_params import ALLOW_EMPTY, MEASURES, NO_SUMMARY, PER_QUERY, QRELS, RUNS
from .eval_context import eval_context, refuse_unread_options
from .eval_diversity import (
    QRELS_FORMATS,
    add_intent_options,
    add_topic_alpha_option,
    run_diversity,
    wants_diversity,
)
from .eval_fairness import run_fairness
from .intervals import add_interval_options, intervals_text
from .options import (
    add_format,
    add_output,
    add_param,
    add_progress,
    check_scheduler,
    wants_progress,
)
from .outputs import declare_inputs, label_file, open_output
from .rules import Declared, Default, Rule, add_rules, check_options, each
from .runargs import add_run_options, add_trec_eval_options, label_files, named_runs

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.results import Evaluation

#: The forms of QRELS (trec_eval's ``-R``).
RELEVANCE_FORMATS = ("qrels", "prefs", "qrels_prefs")

#: Paired tests of the latex table and the report: deterministic (no resampling seed to
#: report).
TABLE_TESTS = ("t", "wilcoxon", "sign")


def add_parser(subparsers) -> None:
    """Register ``irscale eval``: trec_eval's options and irscale's, and their rules."""
    parser = subparsers.add_parser(
        "eval",
        help="evaluate runs against qrels (a drop-in for trec_eval)",
        description="Evaluate TREC runs against TREC qrels, exactly as trec_eval 9.0.8 "
        "(or 10.0 with --compat 10). Files may be gzip-compressed; - reads standard input. "
        "Output (--format trec): one line 'measure<TAB>topic<TAB>value' per value, as "
        "trec_eval prints it (topic 'all' for the summary); with several runs, run after "
        "run, every line also names its run in a fourth field "
        "'measure<TAB>topic<TAB>value<TAB>run' (tools that read the first three fields "
        "keep working). csv, json and markdown have a run column.",
    )
    add_param(parser, QRELS, doc="qrels file: qid iter docno rel")
    add_param(parser, RUNS, nargs="+",
              doc="run file(s): qid Q0 docno rank score runid (plain, gzip or "
              "Parquet); a folder gives its files sorted by name, a quoted glob "
              "pattern ('runs/*.gz') the files it matches (thousands of files: "
              "--batch-size streams them, as irscale eval-many)")
    add_param(parser, MEASURES, action="append", metavar="MEASURE",
              doc="measure or nickname (repeatable): map, P.5,10, ndcg_cut_10, "
              "all_trec, AP@100, P(rel=2)@5 ... (default: official)")
    add_values_options(parser)
    add_trec_eval_options(parser, trec_eval=True)
    parser.add_argument("-Z", "--Zscore", dest="zscores", metavar="FILE",
                        help="print z-scores instead of the values, as trec_eval -Z: FILE "
                        "holds lines 'qid measure_name mean std_dev' from a reference set "
                        "of runs (irscale eval-many --write-zscores writes one); a value "
                        "with no line is printed -1000000")
    parser.add_argument("-R", "--relevance-format", choices=RELEVANCE_FORMATS,
                        default="qrels", help="the form of QRELS (trec_eval -R): qrels, or "
                        "preference judgments 'qid jg jsg docno level' (prefs) or a qrels "
                        "file read as preferences (qrels_prefs), evaluated by the preference "
                        "measures (-m all_prefs, -m prefs, -m prefs_simp ...); default qrels")
    add_labels_option(parser, "a second label file (qrels format: topic iter docno value; "
                      "topic * = every topic) for the measures that use one, e.g. --labels "
                      "under=task2.qunder -m 'uRBP(p=0.8)'")
    parser.add_argument("--qrels-format", choices=QRELS_FORMATS, default="auto",
                        help="diversity: read QRELS as ndeval's 'topic subtopic docno "
                        "judgment' (default auto: when every measure is a diversity measure)")
    add_intent_options(parser)
    add_topic_alpha_option(parser)
    add_format(parser, (*OUTPUT_FORMATS, "latex", "ndeval"), default="trec",
               doc="output format (trec: byte-identical to trec_eval for one run; several "
               "runs add a fourth field, the run); latex: the runs x measures table of a "
               "paper, best values in bold")
    table = parser.add_argument_group("latex table (--format latex)")
    table.add_argument("--baseline", metavar="RUN",
                       help="mark values significantly better (up arrow) or worse (down "
                       "arrow) than this run's (default: no marks); with --format ndeval, "
                       "a baseline run FILE for ndeval's risk-sensitive output (ndeval "
                       "-baseline)")
    table.add_argument("--test", default="t", choices=TABLE_TESTS,
                       help="paired test against the baseline (default t)")
    add_param(table, MULTIPLE_CORRECTION, doc="correction over every comparison of the table")
    add_param(table, SIGNIFICANCE)
    add_interval_options(parser, "every mean", formats=("latex", "csv", "json", "markdown"))
    parser.add_argument("--bounds", action="store_true",
                        help="instead of the values, each mean's (with -q every topic's) "
                        "lowest and highest value when the unjudged documents a run retrieves "
                        "take the lowest or the highest grade, and the pairs of runs the "
                        "judgments do not order (irscale pool bounds)")
    add_param(parser, NDEVAL_RISK_ALPHA)
    add_run_options(parser)
    from .eval_many import add_batch_options, add_cache_option

    add_cache_option(parser)
    add_batch_options(parser.add_argument_group(
        "many run files, streamed in batches (as irscale eval-many)",
        "with one of these the runs are read and evaluated a batch of files at a time "
        "(memory bounded by a batch per worker), on a Dask cluster with --scheduler; the "
        "summary is printed as without them, the runs named after their files unless "
        "--names says otherwise; per-topic values go to --per-topic-out"))
    add_progress(parser)
    add_output(parser)
    declare_inputs(parser, "qrels", "runs", "--baseline", "--Zscore")
    add_rules(parser, *RULES)
    parser.set_defaults(func=run)


def add_labels_option(parser: argparse.ArgumentParser, doc: str) -> None:
    """``--labels NAME=FILE`` (repeatable): the label files of the measures that read one
    (``eval``, ``session``); ``doc`` says which."""
    parser.add_argument("--labels", action="append", default=[], metavar="NAME=FILE",
                        help=f"{doc} (repeatable)")
    declare_inputs(parser, "--labels", path=label_file)


def run(args: argparse.Namespace) -> int:
    """``irscale eval``: the measures of every run, as trec_eval (or ndeval) prints them."""
    check_options(args)  # before any input is read or numpy imported
    own = RUNNERS.get(args.context.name)
    if own is not None:
        return own(args)
    if _batches(args):
        from . import eval_many

        return eval_many.run(args)
    from .eval_many import trec_eval_arguments

    labels = label_files(args.labels)
    keep_rank = args.ties == "rank-column"
    runs = named_runs(args.runs, args.names, keep_rank=keep_rank, progress=wants_progress(args))
    baseline = args.baseline
    if args.fmt == "trec" and baseline is None and not labels and args.zscores is None \
            and args.context.name == DEFAULT and not args.bounds:
        # (--ci applies to other formats; --bounds prints the bounds below)
        # trec_eval's measures of TREC files: from the files to the text in the engine,
        # without numpy (None: a measure or an input it does not take alone), --cache's
        # entry the text itself
        from ..evaluation.trec_text import trec_eval_text

        printed = trec_eval_text(args.qrels, runs, args.measures or ["official"],
                                 allow_empty=args.allow_empty, per_query=args.per_query,
                                 summary=not args.no_summary, cache=args.cache,
                                 **trec_eval_arguments(args))
        if printed is not None:
            with open_output(args) as stream:
                stream.write(printed)
            return 0
    from ..evaluation import evaluate

    if baseline is not None:  # a run's name, or its file (path, file name or stem)
        from ..io.naming import find_run
        from ..io.sources import as_runs

        runs = as_runs(runs, keep_rank=keep_rank)
        baseline = find_run(baseline, runs)
    qrels = args.qrels
    if args.bounds:  # the inputs are read twice: once (a FIFO or - gives its bytes once)
        from ..io.sources import as_qrels, as_runs

        qrels, runs = as_qrels(qrels), as_runs(runs, keep_rank=keep_rank)
    evaluation = evaluate(qrels, runs, args.measures or ["official"], labels=labels,
                          allow_empty=args.allow_empty, zscores=args.zscores,
                          cache=args.cache, relevance_format=args.relevance_format,
                          **trec_eval_arguments(args))
    if args.bounds:  # the bounds under the unjudged documents instead of the values
        from ..collections.bounds import unjudged_bounds

        bounds = unjudged_bounds(qrels, runs, list(evaluation.measures),
                                 relevance_level=args.relevance_level)
        with open_output(args) as stream:
            stream.write(bounds.format(args.fmt, per_topic=args.per_query).encode())
        return 0
    if args.ci is not None and args.fmt != "latex":  # the means with their intervals
        with open_output(args) as stream:
            stream.write(intervals_text(args, evaluation).encode())
        return 0
    if args.fmt == "latex":  # the table (and its tests) before the output is opened
        text = evaluation.format("latex", baseline=baseline, test=args.test,
                                 correction=args.correction, alpha=args.alpha,
                                 interval=args.ci, interval_samples=args.ci_samples,
                                 interval_rng=args.ci_seed)
        with open_output(args) as stream:
            stream.write(text.encode())
        return 0
    return write_evaluation(args, evaluation)


def add_values_options(parser: argparse.ArgumentParser, unit: str = "topic") -> None:
    """``-q`` and ``-n``: the values printed, every ``unit``'s and the summary (``eval``,
    ``text``, ``session``)."""
    add_param(parser, PER_QUERY, doc=f"also print the value of every {unit}")
    add_param(parser, NO_SUMMARY)


def add_evaluation_output(parser: argparse.ArgumentParser, unit: str, empty: str) -> None:
    """``--format`` (``eval``'s formats, one value per line), ``--allow-empty`` (a run
    ``empty``: an error without it) and ``-o``: the output of ``text`` and ``session``."""
    add_format(parser, OUTPUT_FORMATS, default="trec",
               doc=f"output format (trec: 'measure<TAB>{unit}<TAB>value')")
    add_param(parser, ALLOW_EMPTY, doc=f"evaluate a run {empty} (an error otherwise)")
    add_output(parser)


def write_evaluation(args: argparse.Namespace, evaluation: Evaluation) -> int:
    """Write ``evaluation`` as ``--format``, ``-q`` and ``-n`` say; the exit status."""
    with open_output(args) as stream:
        evaluation.write(stream, args.fmt, per_query=args.per_query,
                         summary=not args.no_summary)
    return 0


def _batches(args: argparse.Namespace) -> bool:
    """Whether the runs are streamed in batches (:func:`irscale.cli.eval_many.wants_batches`,
    imported when ``eval`` runs)."""
    from .eval_many import wants_batches

    return wants_batches(args)


def _check_labels(args: argparse.Namespace) -> None:
    """``--labels NAME=FILE``: its form, before any input is read."""
    label_files(args.labels)


#: The contexts with a command line of their own (any other declared context is evaluated
#: by :func:`irscale.evaluate` with the options given).
RUNNERS = {"intents": run_diversity, "fairness": run_fairness}

#: The options of the latex table's tests (--alpha also sets the level of --ci).
TABLE_OPTIONS = ("test", "correction", "alpha")
#: What the batches refuse: an option, and why.
BATCH_REFUSED = (("per_query", "-q/--per-query", "per-topic values go to --per-topic-out DIR "
                  "as Parquet"),
                 ("no_summary", "-n/--no-summary", "the summary is what is printed"),
                 ("labels", "--labels", "measures with label sets need irscale eval without "
                  "batches"))
#: The start of the batches' refusals.
NOT_WITH_BATCHES = "does not apply with --batch-size, --scheduler, --workers or " \
    "--per-topic-out"

#: What -Z/--Zscore is refused with: trec_eval 9.0.8's measures and text only.
ZSCORE_RULES = (
    Rule(("zscores",), lambda args: args.compat == 9, "-Z/--Zscore reproduces trec_eval "
         "9.0.8's -Z: not with --compat 10"),
    Rule(("zscores",), lambda args: not args.labels, "-Z/--Zscore applies to trec_eval's "
         "measures: not with --labels"),
    Rule(("zscores",), lambda args: args.fmt not in ("latex", "ndeval"), "-Z/--Zscore "
         "prints trec_eval's z-scores: --format trec, csv, json or markdown"),
    Rule(("zscores",), lambda args: not _batches(args), f"-Z/--Zscore {NOT_WITH_BATCHES}"),
)


def _bounds_ignore(args: argparse.Namespace) -> bool:
    """Whether a trec_eval option other than -l was given (the bounds read the qrels and
    the runs as trec_eval's defaults do, with -l)."""
    from .eval_context import TREC_EVAL_DESTS
    from .main import given

    return any(given(args, dest) for dest in TREC_EVAL_DESTS.values()
               if dest != "relevance_level")


#: When the options apply, in the order they are checked: the table options need --format
#: latex (and --baseline for the test's options; the latex table holds the summary only),
#: ``--baseline`` and ``--risk-alpha`` with --format ndeval are ndeval's (diversity
#: measures); then the context's (:mod:`irscale.cli.eval_context`: the options it does not
#: read, refused by one rule, and its formats) and the batches'.
RULES: tuple[Declared, ...] = (
    Rule(("risk_alpha",), lambda args: args.fmt == "ndeval" and args.baseline is not None,
         "--risk-alpha applies to ndeval's risk-sensitive output (diversity measures, --format "
         "ndeval --baseline FILE); for URisk/TRisk of any measure see irscale compare "
         "--baseline --risk-alpha"),
    *each(TABLE_OPTIONS, lambda args: args.fmt in ("latex", "ndeval")
          or (args.ci is not None and args.test == "t" and args.correction == "holm"),
          "{options} applies to --format latex only"),
    Rule(("bounds",), lambda args: args.fmt != "ndeval" and args.ci is None
         and args.baseline is None and not args.no_summary,
         "--bounds prints the bounds table, in --format trec, csv, json, markdown or latex, "
         "without --ci, --baseline or -n/--no-summary"),
    Rule(("baseline",), lambda args: args.fmt in ("latex", "ndeval"), "--baseline applies to "
         "--format latex (the run the table tests against) and --format ndeval (ndeval's "
         "-baseline FILE, with diversity measures)"),
    Rule(("per_query", "no_summary"), lambda args: args.fmt != "latex", "--format latex "
         "prints the summary table: -q/--per-query and -n/--no-summary do not apply"),
    Rule(("no_summary",), lambda args: args.fmt != "ndeval",
         "-n does not apply to --format ndeval (ndeval always prints its amean row)"),
    *each(TABLE_OPTIONS, lambda args: args.fmt != "latex" or args.baseline is not None
          or (args.ci is not None and args.test == "t" and args.correction == "holm"),
          "{options} applies to the tests against --baseline RUN"),
    _check_labels,
    check_scheduler,
    Default("diversity", lambda args: args.relevance_format == "qrels" and wants_diversity(args)),
    Default("context", eval_context),
    refuse_unread_options,
    Rule(("fmt",), lambda args: args.context.formats is None
         or args.fmt in args.context.formats,
         lambda args: args.context.format_refusal("--format {fmt}")),
    Rule(("ci",), lambda args: not _batches(args),
         f"--ci {NOT_WITH_BATCHES}: the batches print the means without intervals"),
    Rule(("bounds",), lambda args: not _batches(args) and not args.labels
         and args.zscores is None and not _bounds_ignore(args),
         "--bounds applies to the evaluation of judged rankings with qrels, not to label "
         "files, --zscores or batches, and of trec_eval's options takes -l only"),
    *(Rule((dest,), lambda args: not _batches(args), f"{option} {NOT_WITH_BATCHES}: {why}")
      for dest, option, why in BATCH_REFUSED),
    *ZSCORE_RULES,
    Rule(("fmt",), lambda args: not _batches(args) or args.fmt not in ("latex", "ndeval"),
         f"--format {{fmt}} {NOT_WITH_BATCHES}: the batches print the trec, csv, json or "
         "markdown summary"),
    Rule(("risk_alpha",), lambda args: not _batches(args),
         f"--risk-alpha {NOT_WITH_BATCHES}: see irscale compare"),
)

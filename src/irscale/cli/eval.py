"""``irscale eval``: trec_eval's command line for one run or many, any declared evaluation
context (:mod:`irscale.evaluation.context`) chosen as :func:`irscale.evaluate` chooses it,
the options it does not read refused by the same rule (usage: ``docs/cli.md``); also the
output options that ``irscale text`` and ``irscale session`` share with it."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..core.params import NDEVAL_RISK_ALPHA, SIGNIFICANCE, InputFiles, Param, Switch, Text
from ..errors import ParameterError
from ..evaluation.context import RUNNER_OPTIONS, Context, choose, refuse_unread
from ..io.formats import OUTPUT_FORMATS
from ..stats.names import MULTIPLE_CORRECTION
from .common_params import (
    ALLOW_EMPTY,
    LABEL_FILES,
    MEASURES,
    NO_SUMMARY,
    PER_QUERY,
    QRELS,
    RUNS,
)
from .eval_diversity import (
    add_intent_options,
    add_qrels_format,
    add_topic_alpha_option,
    wants_diversity,
)
from .eval_many import (
    TREC_EVAL_DESTS,
    add_batch_options,
    add_cache_option,
    trec_eval_arguments,
    wants_batches,
)
from .intervals import add_interval_options, intervals_text
from .main import SUBCOMMANDS
from .options import (
    add_command,
    add_format,
    add_output,
    add_param,
    add_progress,
    check_scheduler,
    wants_progress,
)
from .outputs import open_output, write_text
from .rules import Declared, Default, Rule, each, given, spelling
from .runargs import (
    add_run_options,
    add_trec_eval_options,
    label_files,
    named_runs,
    run_paths,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ..io.naming import NameSpec
    from ..measures.results import Evaluation

#: The forms of QRELS (trec_eval's ``-R``).
RELEVANCE_FORMATS = ("qrels", "prefs", "qrels_prefs")
#: Paired tests of the latex table and the report: deterministic (no seed to report).
TABLE_TESTS = ("t", "wilcoxon", "sign")

ZSCORES = Param("zscores", InputFiles(), None, "print z-scores instead of the values, as trec_eval "
                "-Z: FILE holds lines 'qid measure_name mean std_dev' from a reference set of "
                "runs (irscale eval-many --write-zscores writes one); a value with no line is "
                "printed -1000000", ("-Z", "--Zscore"), "FILE")
RELEVANCE_FORMAT = Param("relevance_format", Text(), "qrels", "the form of QRELS (trec_eval "
                         "-R): qrels, or preference judgments 'qid jg jsg docno level' (prefs) "
                         "or a qrels file read as preferences (qrels_prefs), evaluated by the "
                         "preference measures (-m all_prefs, -m prefs ...)",
                         ("-R", "--relevance-format"))
BASELINE = Param("baseline", InputFiles(), None, "mark values significantly better (up arrow) or "
                 "worse (down arrow) than this run's; with --format ndeval, a baseline run "
                 "FILE for ndeval's risk-sensitive output (ndeval -baseline)", ("--baseline",),
                 "RUN", unset="no marks")
TABLE_TEST = Param("test", Text(), "t", "paired test against --baseline", ("--test",))
BOUNDS = Param("bounds", Switch(), False, "instead of the values, each mean's (with -q every "
               "topic's) lowest and highest value when the unjudged documents a run retrieves "
               "take the lowest or the highest grade, and the pairs of runs the judgments do "
               "not order (irscale pool bounds)", ("--bounds",))


def add_parser(subparsers) -> None:
    """Register ``irscale eval``: trec_eval's options and irscale's, and their rules."""
    add_command(
        subparsers, "eval", run, (QRELS, {"doc": "qrels file: qid iter docno rel"}),
        (RUNS, {"nargs": "+", "doc": "run file(s): qid Q0 docno rank score runid (plain, gzip "
                "or Parquet); a folder or a quoted glob pattern ('runs/*.gz'): its files"}),
        (MEASURES, {"action": "append", "metavar": "MEASURE", "doc": "measure or nickname "
                    "(repeatable): map, P.5,10, ndcg_cut_10, all_trec, AP@100, P(rel=2)@5 ... "
                    "(default: official)"}),
        add_values_options, lambda p: add_trec_eval_options(p, trec_eval=True), ZSCORES,
        (RELEVANCE_FORMAT, {"choices": RELEVANCE_FORMATS}),
        lambda p: add_labels_option(p, "a second label file (qrels format: topic iter docno "
                                    "value; topic * = every topic) for the measures that use "
                                    "one, e.g. --labels under=task2.qunder -m 'uRBP(p=0.8)'"),
        add_qrels_format, add_intent_options, add_topic_alpha_option,
        lambda p: add_format(p, (*OUTPUT_FORMATS, "latex", "ndeval"), default="trec",
                             doc="output format (trec: byte-identical to trec_eval for one "
                             "run); latex: the runs x measures table of a paper, best values "
                             "in bold"),
        _add_table_options,
        lambda p: add_interval_options(p, "every mean",
                                       formats=("latex", "csv", "json", "markdown")),
        BOUNDS, NDEVAL_RISK_ALPHA, add_run_options, add_cache_option,
        lambda p: add_batch_options(p.add_argument_group(
            "many run files, streamed in batches (as irscale eval-many)", "memory bounded by "
            "a batch per worker; the runs named after their files unless --names says "
            "otherwise; per-topic values go to --per-topic-out")),
        add_progress, add_output,
        rules=RULES, help=SUBCOMMANDS["eval"],
        description="Evaluate TREC runs against TREC qrels, exactly as trec_eval 9.0.8 (or "
        "10.0 with --compat 10); with several runs every line of --format trec also names "
        "its run in a fourth field. See docs/cli.md.")


def _add_table_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``--format latex``'s table."""
    table = parser.add_argument_group("latex table (--format latex)")
    add_param(table, BASELINE)
    add_param(table, TABLE_TEST, choices=TABLE_TESTS)
    add_param(table, MULTIPLE_CORRECTION, doc="correction over every comparison of the table")
    add_param(table, SIGNIFICANCE)


def add_labels_option(parser: argparse.ArgumentParser, doc: str) -> None:
    """``--labels NAME=FILE`` (repeatable): the label files of the measures that read one
    (``eval``, ``session``); ``doc`` says which."""
    add_param(parser, LABEL_FILES, action="append", doc=f"{doc} (repeatable)")


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


def write_evaluation(args: argparse.Namespace, evaluation: Evaluation, **output: Any) -> int:
    """Write ``evaluation`` as ``--format``, ``-q`` and ``-n`` say, with the ``output``
    options of :meth:`~irscale.measures.results.Evaluation.write` (ndeval's ``baseline``
    and ``risk_alpha``); the exit status."""
    with open_output(args) as stream:
        evaluation.write(stream, args.fmt, per_query=args.per_query,
                         summary=not args.no_summary, **output)
    return 0


def run(args: argparse.Namespace) -> int:
    """``irscale eval``: the measures of every run, as trec_eval (or ndeval) prints them, by
    the context of the call (``args.context``) as it declares (how its run files are read,
    its text straight from the files, the options of its runner an output format asks for,
    its baseline run)."""
    if wants_batches(args):
        from . import eval_many

        return eval_many.run(args)
    context = args.context
    labels = label_files(args.labels)
    keep_rank = context.keep_rank or args.ties == "rank-column"
    runs = _read_runs(args, args.runs, args.names, keep_rank=keep_rank)
    measures = args.measures or ["official"]
    baseline = args.baseline
    if context.text is not None and args.fmt == "trec" and baseline is None and not labels \
            and args.zscores is None and not args.bounds:
        # the text from the files (None: a measure or an input it does not take alone),
        # --cache's entry the text itself
        printed = context.text(args.qrels, runs, measures, allow_empty=args.allow_empty,
                               per_query=args.per_query, summary=not args.no_summary,
                               cache=args.cache, **trec_eval_arguments(args))
        if printed is not None:
            with open_output(args) as stream:
                stream.write(printed)
            return 0
    if baseline is not None and not context.baseline_run:
        # a run's name, or its file (path, file name or stem)
        from ..io.naming import find_run
        from ..io.sources import as_runs

        runs = as_runs(runs, keep_rank=keep_rank)
        baseline = find_run(baseline, runs)
    qrels = args.qrels
    if args.bounds:  # the qrels read for their grades, evaluated again from their file
        from ..collections.bounds import qrels_again
        from ..io.sources import as_qrels

        judged = as_qrels(qrels)
        qrels = qrels_again(qrels, judged)
    evaluation = _evaluate(args, qrels, runs, measures, labels)
    if baseline is not None and context.baseline_run:
        # the baseline run evaluated with the same measures and options
        baseline = _evaluate(args, qrels, _read_runs(args, [baseline], "runid",
                                                     keep_rank=keep_rank), measures, labels)
    if args.bounds:  # the bounds under the unjudged documents instead of the values
        from ..collections.bounds import evaluation_bounds

        bounds = evaluation_bounds(evaluation, judged, list(evaluation.measures),
                                   progress=wants_progress(args))
        return write_text(args, bounds.format(args.fmt, per_topic=args.per_query))
    if args.ci is not None and args.fmt != "latex":  # the means with their intervals
        return write_text(args, intervals_text(args, evaluation))
    if args.fmt == "latex":  # the table (and its tests) before the output is opened
        return write_text(args, evaluation.format(
            "latex", baseline=baseline, test=args.test, correction=args.correction,
            alpha=args.alpha, interval=args.ci, interval_samples=args.ci_samples,
            interval_rng=args.ci_seed))
    if baseline is not None:  # the baseline run's evaluation (ndeval's -baseline FILE)
        return write_evaluation(args, evaluation, baseline=baseline,
                                risk_alpha=args.risk_alpha)
    return write_evaluation(args, evaluation)


def _read_runs(args: argparse.Namespace, paths: Sequence[str], names: NameSpec | None, *,
               keep_rank: bool) -> Sequence[object]:
    """The runs of ``paths`` (run files, folders, glob patterns), named as ``names`` says,
    read as the context declares (:attr:`~irscale.evaluation.context.Context.read_runs`),
    else as TREC run files (``keep_rank``: their rank column kept)."""
    if args.context.read_runs is not None:
        return args.context.read_runs(run_paths(paths), names)
    return named_runs(paths, names, keep_rank=keep_rank, progress=wants_progress(args))


def _evaluate(args: argparse.Namespace, qrels: object, runs: object, measures: list[str],
              labels: dict[str, str]) -> Evaluation:
    """The evaluation of ``runs`` against ``qrels`` by ``args.context``
    (:func:`irscale.evaluation.api.evaluate_by`) with the options of
    :func:`irscale.evaluate` given (the others refused by :func:`refuse_unread_options`),
    the options of its runner it reads (:data:`~irscale.evaluation.context.RUNNER_OPTIONS`)
    and those ``--format`` asks for
    (:attr:`~irscale.evaluation.context.Context.format_options`)."""
    from ..evaluation.api import call_values, evaluate_by

    context = args.context
    values = call_values(labels=labels, allow_empty=args.allow_empty, zscores=args.zscores,
                         cache=args.cache, relevance_format=args.relevance_format,
                         intent_probabilities=args.intent_probs,
                         intent_types=args.intent_types, **trec_eval_arguments(args))
    runner = {option: getattr(args, dest) for dest, option in API_OPTIONS.items()
              if option in RUNNER_OPTIONS & context.reads}
    if context.format_options is not None:
        runner.update(context.format_options(args.fmt))
    return evaluate_by(context, [qrels, runs], measures, values, **runner)


#: ``eval``'s options that a context may read (:attr:`~irscale.evaluation.context.Context.reads`:
#: :func:`irscale.evaluate`'s and its outputs', :data:`~irscale.evaluation.context.OUTPUT_OPTIONS`):
#: destination → option name.
API_OPTIONS = {**{dest: name for name, dest in TREC_EVAL_DESTS.items()},
               "labels": "labels", "zscores": "zscores", "cache": "cache",
               "intent_probs": "intent_probabilities", "intent_types": "intent_types",
               "relevance_format": "relevance_format", "baseline": "baseline",
               "test": "test", "correction": "correction", "alpha": "alpha",
               "topic_alpha": "topic_alphas", "ci": "interval", "bounds": "bounds",
               **dict.fromkeys(("batch_size", "scheduler", "workers", "per_topic_out"),
                               "batches")}


def eval_context(args: argparse.Namespace) -> Context:
    """The context of the call, chosen as :func:`irscale.evaluate` chooses it, given the
    form the qrels are read in (``qrels_format``: ``"diversity"`` when ``args.diversity``
    says so, else ``"trec"``); a context with a command of its own (its inputs are not
    qrels and TREC runs) is refused, naming it."""
    from ..evaluation import contexts  # noqa: F401  (declares the contexts)

    measures = [n for spec in (args.measures or []) for n in spec.split()]
    context = choose(args.qrels, measures, {
        "relevance_format": args.relevance_format,
        "qrels_format": "diversity" if args.diversity else "trec"})
    if context.command is not None:
        raise ParameterError(context.elsewhere())
    return context


def refuse_unread_options(args: argparse.Namespace) -> None:
    """The one rule of :func:`irscale.evaluate` on the command line: an option of
    :data:`API_OPTIONS` given that ``args.context`` does not read is refused, spelt as
    the command declares it."""
    named: dict[str, str] = {}
    for dest, option in API_OPTIONS.items():
        if given(args, dest):
            named.setdefault(option, spelling(args, dest))
    refuse_unread(args.context, named)


def _check_labels(args: argparse.Namespace) -> None:
    """``--labels NAME=FILE``: its form, before any input is read."""
    label_files(args.labels)


def _bounds_ignore(args: argparse.Namespace) -> bool:
    """Whether a trec_eval option other than -l was given (the bounds read the qrels and
    the runs as trec_eval's defaults do, with -l)."""
    return any(given(args, dest) for dest in TREC_EVAL_DESTS.values()
               if dest != "relevance_level")


#: The options of the latex table's tests (--alpha also sets the level of --ci).
TABLE_OPTIONS = ("test", "correction", "alpha")
#: Where the table options apply besides the latex table: the default t-test and holm
#: correction, with --ci (whose level --alpha sets).
_CI_ONLY = ("t", "holm")
#: The start of the batches' refusals.
NOT_WITH_BATCHES = "does not apply with --batch-size, --scheduler, --workers or " \
    "--per-topic-out"
#: What the batches refuse: an option, and why.
BATCH_REFUSED = (("ci", "--ci", "the batches print the means without intervals"),
                 ("per_query", "-q/--per-query", "per-topic values go to --per-topic-out DIR "
                  "as Parquet"),
                 ("no_summary", "-n/--no-summary", "the summary is what is printed"),
                 ("labels", "--labels", "measures with label sets need irscale eval without "
                  "batches"),
                 ("zscores", "-Z/--Zscore", ""),
                 ("risk_alpha", "--risk-alpha", "see irscale compare"))


def _ci_defaults(args: argparse.Namespace) -> bool:
    """With ``--ci``, the table options at the defaults of the intervals."""
    return args.ci is not None and (args.test, args.correction) == _CI_ONLY


#: When the options apply, in the order they are checked: the table options need --format
#: latex (and --baseline for the test's options), ``--baseline`` and ``--risk-alpha`` with
#: --format ndeval are ndeval's (diversity measures); then the context's (the options it
#: does not read, refused by one rule, and its formats) and the batches'.
RULES: tuple[Declared, ...] = (
    Rule(("risk_alpha",), lambda args: args.fmt == "ndeval" and args.baseline is not None,
         "--risk-alpha applies to ndeval's risk-sensitive output (diversity measures, --format "
         "ndeval --baseline FILE); for URisk/TRisk of any measure see irscale compare "
         "--baseline --risk-alpha"),
    *each(TABLE_OPTIONS, lambda args: args.fmt in ("latex", "ndeval") or _ci_defaults(args),
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
          or _ci_defaults(args), "{options} applies to the tests against --baseline RUN"),
    _check_labels,
    check_scheduler,
    Default("diversity", lambda args: args.relevance_format == "qrels" and wants_diversity(args)),
    Default("context", eval_context),
    refuse_unread_options,
    Rule(("fmt",), lambda args: args.context.formats is None
         or args.fmt in args.context.formats,
         lambda args: args.context.format_refusal("--format {fmt}")),
    Rule(("bounds",), lambda args: not wants_batches(args) and not args.labels
         and args.zscores is None and not _bounds_ignore(args),
         "--bounds applies to the evaluation of judged rankings with qrels, not to label "
         "files, --zscores or batches, and of trec_eval's options takes -l only"),
    *(Rule((dest,), lambda args: not wants_batches(args),
           f"{option} {NOT_WITH_BATCHES}{': ' + why if why else ''}")
      for dest, option, why in BATCH_REFUSED),
    Rule(("zscores",), lambda args: args.compat == 9, "-Z/--Zscore reproduces trec_eval "
         "9.0.8's -Z: not with --compat 10"),
    Rule(("zscores",), lambda args: not args.labels, "-Z/--Zscore applies to trec_eval's "
         "measures: not with --labels"),
    Rule(("zscores",), lambda args: args.fmt not in ("latex", "ndeval"), "-Z/--Zscore "
         "prints trec_eval's z-scores: --format trec, csv, json or markdown"),
    Rule(("fmt",), lambda args: not wants_batches(args) or args.fmt not in ("latex", "ndeval"),
         f"--format {{fmt}} {NOT_WITH_BATCHES}: the batches print the trec, csv, json or "
         "markdown summary"),
)

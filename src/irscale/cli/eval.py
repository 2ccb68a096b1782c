"""``irscale eval``: trec_eval's command line for one run or many, any declared evaluation
context (:mod:`irscale.evaluation.context`) chosen as :func:`irscale.evaluate` chooses it,
the options it does not read refused by the same rule, and those of the output formats of a
context's own by the rules the context declares (:class:`~irscale.evaluation.context.Output`;
usage: ``docs/cli.md``); also the output options that ``irscale text`` and ``irscale
session`` share with it."""

from __future__ import annotations

import argparse

from ..io.formats import OUTPUT_FORMATS
from .common_params import (
    ALLOW_EMPTY,
    LABEL_FILES,
    MEASURES,
    NO_SUMMARY,
    PER_QUERY,
    QRELS,
    RUNS,
)
from .dataset_options import add_dataset_options, apply_dataset_conventions
from .eval_options import (
    BOUNDS_INPUTS,
    BOUNDS_TABLE,
    EVAL_FORMATS,
    LATER_RULES,
    RELEVANCE_FORMAT,
    RELEVANCE_FORMATS,
    ZSCORES,
    add_intent_options,
    add_outputs,
    add_qrels_format,
    add_topic_alpha_option,
    ci_takes,
)
from .eval_path import eval_context as eval_context
from .eval_path import refuse_unread_options
from .eval_run import API_OPTIONS as API_OPTIONS
from .eval_run import INTERVAL_KEYWORDS as INTERVAL_KEYWORDS
from .eval_run import run as run
from .eval_run import write_evaluation as write_evaluation
from .main import SUBCOMMANDS
from .options import (
    add_command,
    add_format,
    add_output,
    add_param,
    add_progress,
    check_scheduler,
)
from .rules import Declared, Default, Rule, words
from .runargs import (
    add_batch_options,
    add_cache_option,
    add_run_options,
    add_trec_eval_options,
    label_files,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..evaluation.context import Output


def add_parser(subparsers) -> None:
    """Register ``irscale eval``: trec_eval's options and irscale's, and their rules."""
    add_command(
        subparsers, "eval", run, (QRELS, {"doc": "qrels file: qid iter docno rel"}),
        (RUNS, {"nargs": "+", "doc": "run file(s): qid Q0 docno rank score runid (plain, gzip "
                "or Parquet); a folder or a quoted glob pattern ('runs/*.gz'): its files"}),
        (MEASURES, {"action": "append", "metavar": "MEASURE", "doc": "measure or nickname "
                    "(repeatable): map, P.5,10, ndcg_cut_10, all_trec, AP@100, P(rel=2)@5 ... "
                    "(default: official); with --format trec a trec_eval family given "
                    "twice keeps its first parameters, as in trec_eval (-m P.5 -m P.7: "
                    "P_5)"}),
        add_values_options, lambda p: add_trec_eval_options(p, trec_eval=True), ZSCORES,
        (RELEVANCE_FORMAT, {"choices": RELEVANCE_FORMATS}),
        lambda p: add_labels_option(p, "a second label file (qrels format: topic iter docno "
                                    "value; topic * = every topic) for the measures that use "
                                    "one, e.g. --labels under=task2.qunder -m 'uRBP(p=0.8)'"),
        add_qrels_format, add_intent_options, add_topic_alpha_option, add_outputs,
        add_run_options, add_cache_option, add_dataset_options,
        lambda p: add_batch_options(p.add_argument_group(
            "many run files, streamed in batches (as irscale eval-many)", "memory bounded by "
            "a batch per worker; the runs named after their files unless --names says "
            "otherwise; per-topic values go to --per-topic-out")),
        add_progress, add_output,
        example="qrels.txt a.run -m map -m P@5",
        rules=RULES, binding="irscale.evaluation.params:EVALUATE", help=SUBCOMMANDS["eval"],
        description="Evaluate TREC runs against TREC qrels, exactly as trec_eval 9.0.8 (or "
        "10.0 with --compat 10); with several runs every line of --format trec also names "
        "its run in a fourth field. See docs/cli.md.")


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


def _check_labels(args: argparse.Namespace) -> None:
    """``--labels NAME=FILE``: its form, before any input is read."""
    label_files(args.labels)


def _outputs() -> list[Output]:
    """The output formats of the contexts' own (:attr:`Context.outputs`), in the order the
    contexts are asked, read without loading them (the manifest,
    :func:`~irscale.evaluation.contexts.declared_outputs`)."""
    from ..evaluation.contexts import declared_outputs

    return declared_outputs()


def _check(args: argparse.Namespace, dests: tuple[str, ...], holds: bool,
           message: str) -> None:
    """Refuse the options of ``dests`` given, with ``message``, unless ``holds``
    (:meth:`Rule.check`)."""
    Rule(dests, lambda _: holds, message).check(args)


def refuse_output_options(args: argparse.Namespace) -> None:
    """The options only an output format of a context's own reads (:attr:`Output.options`),
    given with another format: refused at once by their message where it says so
    (:attr:`Output.at_once`: without the format or its ``--baseline``), else with a format
    every evaluation writes (another context's own format: that context refuses them),
    unless ``--ci`` takes them."""
    outputs = _outputs()
    own = {output.name for output in outputs}
    for output in outputs:
        for dest in output.options:
            if output.at_once:
                _check(args, (dest,), args.fmt == output.name and args.baseline is not None,
                       output.unbaselined)
            else:
                _check(args, (dest,), args.fmt in own or ci_takes(args, dest),
                       f"{{options}} applies to --format {output.name} only")


def _baseline_refusal(args: argparse.Namespace) -> str:
    """The refusal of ``--baseline`` with a format that reads none: what it is with each
    format that reads one (:attr:`Output.baseline`), as ``--format`` lists them."""
    outputs = sorted(_outputs(), key=lambda output: EVAL_FORMATS.index(output.name))
    return "--baseline applies to " + words(
        [f"--format {output.name} ({output.baseline})" for output in outputs])


def refuse_with_outputs(args: argparse.Namespace) -> None:
    """With an output format of a context's own: the options it refuses
    (:attr:`Output.refused`), then its options without ``--baseline`` unless ``--ci`` takes
    them (:attr:`Output.unbaselined`; those refused at once are not asked again)."""
    for output in _outputs():
        _check(args, output.refused, args.fmt != output.name, output.refusal)
        for dest in () if output.at_once else output.options:
            _check(args, (dest,), args.fmt != output.name or args.baseline is not None
                   or ci_takes(args, dest), output.unbaselined)


#: When the options apply, in the order they are checked: those of the contexts' own output
#: formats (declared on the contexts), ``--bounds``' table, ``--baseline`` with the formats
#: that read one, and those the contexts' own formats refuse; then the context's (the
#: options it does not read, refused by one rule, and its formats), ``--bounds``' inputs,
#: the batches' and ``-Z``'s.
RULES: tuple[Declared, ...] = (
    refuse_output_options,
    BOUNDS_TABLE,
    Rule(("baseline",), lambda args: args.fmt in {output.name for output in _outputs()},
         _baseline_refusal),
    refuse_with_outputs,
    _check_labels,
    check_scheduler,
    apply_dataset_conventions,
    Default("context", eval_context),
    refuse_unread_options,
    Rule(("fmt",), lambda args: args.context.formats is None
         or args.fmt in args.context.formats,
         lambda args: args.context.format_refusal("--format {fmt}")),
    BOUNDS_INPUTS,
    *LATER_RULES,
)

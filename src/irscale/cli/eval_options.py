"""The options of ``irscale eval`` beside trec_eval's and the batches' (:mod:`.runargs`),
each declared once with its help and the rules that refuse it where it
does not apply: ``-Z``, ``-R``, the output options (``--format``, the latex table's,
``--ci``, ``--bounds``, ndeval's ``--risk-alpha``) and the options of the diversity measures
that ``compare``, ``meta`` and ``scale`` share (``--qrels-format``, the intents' files); and
the form QRELS are read in, chosen as the contexts declare it (:func:`qrels_context`).

The rules of an output format of a context's own (``--format latex``, ``--format ndeval``)
are declared on that context (:class:`~irscale.evaluation.context.Output`), and
``cli/eval.py`` applies them; the formats and forms named here are those the parser offers
before any context is loaded (usage: ``docs/cli.md``, ``docs/diversity.md``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..core.params import NDEVAL_RISK_ALPHA, SIGNIFICANCE, InputFiles, Param, Switch, Text
from ..evaluation.params import RELEVANCE_FORMAT as RELEVANCE_FORMAT
from ..evaluation.params import RELEVANCE_FORMATS as RELEVANCE_FORMATS
from ..evaluation.params import ZSCORES as ZSCORES
from ..io.formats import BOUNDS_FORMATS, OUTPUT_FORMATS
from ..stats.names import MULTIPLE_CORRECTION
from .common_params import INTENT_PROBS, INTENT_TYPES
from .eval_path import qrels_context as qrels_context
from .eval_path import refuse_outputs as refuse_outputs
from .intervals import add_interval_options
from .options import add_format, add_param
from .rules import Rule, each, given, words
from .runargs import BATCH_DESTS, TREC_EVAL_DESTS, wants_batches

# ------------------------------------------------------------------ inputs
#: The values of ``--qrels-format``: ``auto``, QRELS read as TREC qrels, or in the form of
#: a context's own (:attr:`~irscale.evaluation.context.Context.qrels_format`).
QRELS_FORMATS = ("auto", "trec", "diversity")
#: ``--qrels-format``: how QRELS are read.
QRELS_FORMAT = Param("qrels_format", Text(), "auto", "diversity: read QRELS as ndeval's 'topic "
                     "subtopic docno judgment'; auto: when every measure is a diversity "
                     "measure, such as alpha-nDCG@20", ("--qrels-format",))
#: ``--topic-alpha FILE``: one α per topic.
TOPIC_ALPHA = Param("topic_alpha", InputFiles(), None, "diversity: one redundancy intolerance per "
                    "topic, lines 'topic alpha', for alpha-nDCG-w(topic_alpha=1)@k and "
                    "nERR-IA-w(topic_alpha=1)@k", ("--topic-alpha",), "FILE")
#: Where the intent options apply.
DIVERSITY_ONLY = "diversity measures only (I-rec@10, D#-nDCG@10, P+Q ...)"

# ------------------------------------------------------------------ outputs
#: The formats of ``irscale eval``: those every evaluation writes, then the contexts' own
#: (:attr:`~irscale.evaluation.context.Context.outputs`), in the order ``--format`` offers
#: them.
EVAL_FORMATS = (*OUTPUT_FORMATS, "latex", "ndeval")
#: The formats of ``irscale eval`` that print the means' intervals (``--ci``).
INTERVAL_FORMATS = ("latex", "csv", "json", "markdown")
#: Paired tests of the latex table and the report: deterministic (no seed to report).
TABLE_TESTS = ("t", "wilcoxon", "sign")
BASELINE = Param("baseline", InputFiles(), None, "mark values significantly better (up arrow) or "
                 "worse (down arrow) than this run's; with --format ndeval, a baseline run "
                 "FILE for ndeval's risk-sensitive output (ndeval -baseline)", ("--baseline",),
                 "RUN", unset="no marks")
TABLE_TEST = Param("test", Text(), "t", "paired test against --baseline", ("--test",))
BOUNDS = Param("bounds", Switch(), False, "instead of the values, each mean's (with -q every "
               "topic's) lowest and highest value when the unjudged documents a run retrieves "
               "take the lowest or the highest grade, and the pairs of runs the judgments do "
               "not order (irscale pool bounds)", ("--bounds",))
#: The options ``--ci`` takes too: ``--alpha`` sets its level, and ``--test`` and
#: ``--correction`` at their defaults are the intervals' own (t, holm).
CI_TAKES = ("test", "correction", "alpha")


def add_outputs(parser: argparse.ArgumentParser) -> None:
    """``--format`` (:data:`EVAL_FORMATS`), the latex table's options, the intervals of the
    means, ``--bounds`` and ndeval's ``--risk-alpha``, in that order."""
    add_format(parser, EVAL_FORMATS, default="trec", doc="output format (trec: "
               "byte-identical to trec_eval for one run); latex: the runs x measures table "
               "of a paper, best values in bold")
    table = parser.add_argument_group("latex table (--format latex)")
    add_param(table, BASELINE)
    add_param(table, TABLE_TEST, choices=TABLE_TESTS)
    add_param(table, MULTIPLE_CORRECTION, doc="correction over every comparison of the table")
    add_param(table, SIGNIFICANCE)
    add_interval_options(parser, "every mean", formats=INTERVAL_FORMATS)
    add_param(parser, BOUNDS)
    add_param(parser, NDEVAL_RISK_ALPHA)


def add_intent_options(parser: argparse.ArgumentParser) -> None:
    """``--intent-probs FILE`` and ``--intent-types FILE`` (NTCIREVAL's family)."""
    add_param(parser, INTENT_PROBS)
    add_param(parser, INTENT_TYPES)


def add_qrels_format(parser: argparse.ArgumentParser) -> None:
    """``--qrels-format`` (:data:`QRELS_FORMAT`; ``eval``, and the commands of
    :mod:`irscale.cli.inputs`)."""
    add_param(parser, QRELS_FORMAT, choices=QRELS_FORMATS)


def add_topic_alpha_option(parser: argparse.ArgumentParser) -> None:
    """``--topic-alpha FILE`` (:data:`TOPIC_ALPHA`)."""
    add_param(parser, TOPIC_ALPHA)


# ------------------------------------------------------------------ rules
def intent_rules(where: str, holds: Callable[[argparse.Namespace], bool]
                 ) -> tuple[Rule, ...]:
    """``--intent-probs``/``--intent-types`` apply to ``where`` (where ``holds``): no other
    measure reads them."""
    return each(("intent_probs", "intent_types"), holds, f"{{options}} applies to {where}",
                {"intent_probs": "--intent-probs", "intent_types": "--intent-types"})


def ci_takes(args: argparse.Namespace, dest: str) -> bool:
    """Whether ``--ci`` takes the option stored in ``dest`` (:data:`CI_TAKES`): given with
    ``--ci``, and ``--test`` and ``--correction`` at their defaults."""
    return dest in CI_TAKES and args.ci is not None and \
        (args.test, args.correction) == (TABLE_TEST.default, MULTIPLE_CORRECTION.default)


def _bounds_ignore(args: argparse.Namespace) -> bool:
    """Whether a trec_eval option other than -l was given (the bounds read the qrels and
    the runs as trec_eval's defaults do, with -l)."""
    return any(given(args, dest) for dest in TREC_EVAL_DESTS.values()
               if dest != "relevance_level")


#: ``--bounds`` prints a table of the bounds alone, in the formats of that table.
BOUNDS_TABLE = Rule(("bounds",), lambda args: args.fmt in BOUNDS_FORMATS and args.ci is None
                    and args.baseline is None and not args.no_summary,
                    "--bounds prints the bounds table, in --format "
                    f"{words([f for f in EVAL_FORMATS if f in BOUNDS_FORMATS], 'or')}, "
                    "without --ci, --baseline or -n/--no-summary")
#: ``--bounds`` reads judged rankings against qrels, as trec_eval's defaults do.
BOUNDS_INPUTS = Rule(("bounds",), lambda args: not wants_batches(args) and not args.labels
                     and args.zscores is None and not _bounds_ignore(args),
                     "--bounds applies to the evaluation of judged rankings with qrels, not "
                     "to label files, --zscores or batches, and of trec_eval's options takes "
                     "-l only")
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
                 ("risk_alpha", "--risk-alpha", "see irscale compare"))
#: The options the batches refuse, then ``-Z``'s formats (its other rules are
#: :data:`irscale.evaluation.params.EVALUATE`'s), then the formats of the batches.
LATER_RULES = (
    *(Rule((dest,), lambda args: not wants_batches(args),
           f"{option} {NOT_WITH_BATCHES}{': ' + why if why else ''}")
      for dest, option, why in BATCH_REFUSED),
    # -Z is evaluate's (its rules are the binding's): the batches and the formats that do
    # not print z-scores refuse it, spelt as their own options
    Rule(BATCH_DESTS, lambda args: args.zscores is None, "{options} {applies} without "
         "-Z/--Zscore: the batches print the values, not their z-scores"),
    Rule(("fmt",), lambda args: args.zscores is None or args.fmt in OUTPUT_FORMATS,
         "--format {fmt} does not print -Z/--Zscore's z-scores: --format "
         f"{words(OUTPUT_FORMATS, 'or')}"),
    Rule(("fmt",), lambda args: not wants_batches(args) or args.fmt in OUTPUT_FORMATS,
         f"--format {{fmt}} {NOT_WITH_BATCHES}: the batches print the "
         f"{words(OUTPUT_FORMATS, 'or')} summary"),
)


# ------------------------------------------------------------------ the form of QRELS
def diversity_inputs(args: argparse.Namespace) -> bool:
    """True when QRELS are diversity qrels evaluated with diversity measures (the one
    context with a form of its own, :func:`qrels_context`)."""
    return qrels_context(args) is not None



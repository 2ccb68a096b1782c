"""``irscale labels plan`` and ``labels select``: the human labels prediction-powered
intervals need, and the pairs to send to people (usage: ``docs/collections.md``, §7)."""

from __future__ import annotations

import argparse

from ..core.params import RELEVANCE, RNG_SEED, TABLE_DIGITS
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..io.sources import as_runs
from ..labels import plan_params as lp
from .common_params import INPUTS as INPUT_FILES
from .common_params import MEASURES
from .options import DIGITS_RULE, add_command, add_format, add_output
from .outputs import Done, lines_text, table_text
from .runargs import add_names, named_runs, read_inputs

# (cli/labels.py registers these actions; the declarations below are not imported from it,
# which would make the two modules import each other)

#: The inputs of both actions.
INPUTS = (INPUT_FILES, {"nargs": "*", "metavar": "JUDGE PILOT RUN",
                        "doc": "the judge's qrels, the pilot's human qrels, then runs"})
#: ``-m``: measures that are sums over the ranked documents.
SUMS = (MEASURES, {"action": "append", "required": True, "metavar": "MEASURE",
                   "doc": "a measure that is a sum over the ranked documents: P@k, DCG@k, "
                   "RBP (repeatable)"})


def _three(args: argparse.Namespace) -> None:
    """Both actions read two qrels files and one run at least."""
    if len(args.inputs) < 3:
        raise ParameterError("give the judge's qrels, the pilot's human qrels and one run "
                             f"file at least (got {len(args.inputs)} files)")


def add_plan_actions(sub) -> None:
    """Register ``labels plan`` and ``labels select`` (called by
    :func:`irscale.cli.labels.add_parser`)."""
    add_command(
        sub, "plan", run_plan, INPUTS, SUMS, (lp.PLAN_WIDTH, {"required": True}),
        lp.PLAN_CONFIDENCE, lp.PLAN_DESIGN, lp.PLAN_PAIRS, lp.UNIFORM_SHARE,
        (RELEVANCE, {"doc": "smallest relevant grade, for both qrels"}), add_names,
        lambda parser: add_format(parser, TABLE_FORMATS), TABLE_DIGITS, add_output,
        example="qrels.txt h.txt a.run b.run c.run -m P@5 --width 0.3",
        help="how many human labels prediction-powered intervals of a width need",
        description="From a pilot of human labels beside a judge's (JUDGE, PILOT: pairs of "
        "the judge's), the human labels (per topic and in all) that prediction-powered "
        "intervals of the runs' means (and of --pairs' differences) need to be --width "
        "wide, under --design; the unjudged documents' part of the interval beside; see "
        "docs/collections.md.",
        binding=lp.PLAN, rules=(DIGITS_RULE, _three))
    add_command(
        sub, "select", run_select, INPUTS, SUMS, (lp.SELECT_BUDGET, {"required": True}),
        lp.PLAN_DESIGN, lp.PLAN_PAIRS, lp.UNIFORM_SHARE,
        (RNG_SEED, {"doc": "seed of the draw"}),
        (RELEVANCE, {"doc": "smallest relevant grade, for both qrels"}), add_names,
        lambda parser: add_output(parser, what="sampled judgments (topic 0 docno rel prob; "
                                  "rel -1: to label)"),
        example="qrels.txt h.txt a.run b.run c.run -m P@5 --budget 6 --seed 1",
        help="the pairs to send to people, with their inclusion probabilities",
        description="Draw --budget (topic, document) pairs of the judge's outside the pilot "
        "for people to label, with their inclusion probabilities, as 'topic 0 docno rel "
        "prob' lines (the pilot's with its grades and prob 1; rel -1: to label), which "
        "'irscale labels auto JUDGE FILE RUN... --design inclusion' reads once labelled; "
        "see docs/collections.md.",
        binding=lp.SELECT, rules=(_three,))


def _read(args: argparse.Namespace) -> tuple[object, object, object]:
    """The judge's qrels, the pilot's and the runs, every file read and checked before the
    analysis is imported (a malformed one is reported before pandas)."""
    judge = read_inputs(args.inputs[0], [])[0]
    pilot = read_inputs(args.inputs[1], [])[0]
    return judge, pilot, as_runs(named_runs(args.inputs[2:], args.names))


def run_plan(args: argparse.Namespace) -> Done:
    """``labels plan``: the tables of :class:`~irscale.labels.LabelPlan`."""
    judge, pilot, runs = _read(args)
    from ..labels.plan import plan

    return table_text(args, plan(judge, pilot, runs, args.measures, width=args.width,
                                 confidence=args.confidence, design=args.design,
                                 pairs=args.pairs, uniform_share=args.uniform_share,
                                 relevance_level=args.relevance_level))


def run_select(args: argparse.Namespace) -> Done:
    """``labels select``: the sampled judgments to fill in."""
    judge, pilot, runs = _read(args)
    from ..labels.plan_select import select

    return lines_text(select(judge, pilot, runs, args.measures, budget=args.budget,
                             design=args.design, pairs=args.pairs,
                             uniform_share=args.uniform_share,
                             relevance_level=args.relevance_level, rng=args.seed).lines())

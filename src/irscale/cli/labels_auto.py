"""``irscale labels auto``: automatic judgments checked and corrected with a human sample
of topics (:mod:`irscale.collections.automatic`); usage: ``docs/collections.md``."""

from __future__ import annotations

import argparse

from ..collections.params import AUTO_DESIGN
from ..core.params import RELEVANCE, SIGNIFICANCE
from ..errors import ParameterError
from .common_params import MEASURES
from .options import add_param
from .rules import add_rules, check_options
from .runargs import add_names

#: How the corrected means weigh the automatic values (:func:`ppi_mean`).
TUNINGS = ("ppi++", "ppi", "classical")


def add_auto(sub, inputs, table_options) -> None:
    """Register ``labels auto`` (``inputs`` and ``table_options``: the helpers of the
    ``labels`` actions)."""
    p = sub.add_parser(
        "auto", help="automatic judgments against a human sample of topics: agreement and "
        "prediction-powered means",
        description="Automatic judgments (AUTO: qrels of every topic) checked against human "
        "judgments of a random sample of the topics or of the (topic, document) pairs (HUMAN; "
        "--design): label and system-ranking "
        "agreement, and the runs' means (and with --pairs every difference) corrected with "
        "the human sample by prediction-powered inference (Angelopoulos et al., Science "
        "2023; PPI++), beside the human sample's own estimate.")
    inputs(p, "AUTO HUMAN RUN", "the automatic qrels, the human qrels, then two runs or more")
    add_param(p, MEASURES, action="append", required=True,
              metavar="MEASURE", doc="measure with per-topic values (repeatable)")
    add_param(p, SIGNIFICANCE, doc="1 - the intervals' level, and the level of the paired "
              "t-tests of the system agreement")
    p.add_argument("--tuning", choices=TUNINGS, default="ppi++",
                   help="ppi++: the weight of the automatic values estimated (default); ppi: "
                   "1; classical: 0 (the human sample alone)")
    p.add_argument("--pairs", action="store_true",
                   help="also estimate the difference of every pair of runs")
    add_param(p, RELEVANCE, doc="smallest relevant grade, for both qrels")
    add_param(p, AUTO_DESIGN)
    add_names(p)
    table_options(p)
    add_rules(p, _auto_inputs)
    p.set_defaults(func=run_auto)


def _auto_inputs(args: argparse.Namespace) -> None:
    """``auto`` reads two qrels files, then two run files at least."""
    if len(args.inputs) < 4:
        raise ParameterError("give the automatic qrels, the human qrels and two run files "
                             "at least")


def run_auto(args: argparse.Namespace) -> int:
    """``labels auto``: the four tables of :class:`AutomaticJudgmentsResult`."""
    check_options(args)
    from .outputs import write_text
    from .runargs import named_runs, read_inputs

    automatic, runs = read_inputs(args.inputs[0], named_runs(args.inputs[2:], args.names))
    # sampled judgments (topic iter docno rel prob) are read by the design's own reader
    human = args.inputs[1] if args.design == "inclusion" else read_inputs(args.inputs[1], [])[0]
    from ..collections.automatic import automatic_judgments

    result = automatic_judgments(automatic, human, runs, args.measures, alpha=args.alpha,
                                 tuning=args.tuning, pairs=args.pairs,
                                 relevance_level=args.relevance_level, design=args.design)
    return write_text(args, result.format(args.fmt, digits=args.digits).rstrip("\n") + "\n")

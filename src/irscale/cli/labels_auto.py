"""``irscale labels auto``: automatic judgments checked and corrected with a human sample
of topics (:mod:`irscale.collections.automatic`); usage: ``docs/collections.md``."""

from __future__ import annotations

import argparse

from ..collections.params import (
    AUTO_DESIGN,
    AUTO_DRAWS,
    AUTO_PAIRS,
    AUTO_PROBABILITIES,
    AUTO_SEED,
    AUTO_TUNING,
)
from ..core.params import RELEVANCE, SIGNIFICANCE
from ..errors import ParameterError
from ..io.sources import as_runs
from .common_params import MEASURES
from .options import add_command
from .outputs import write_text
from .rules import each
from .runargs import add_names, named_runs, read_inputs


def add_auto(sub, inputs, table_options) -> None:
    """Register ``labels auto`` (``inputs`` and ``table_options``: the input and table
    arguments of the ``labels`` actions)."""
    add_command(
        sub, "auto", run_auto,
        inputs("AUTO HUMAN RUN", "the automatic qrels, the human qrels, then two runs or more"),
        (MEASURES, {"action": "append", "required": True, "metavar": "MEASURE",
                    "doc": "measure with per-topic values (repeatable)"}),
        (SIGNIFICANCE, {"doc": "1 - the intervals' level, and the level of the paired t-tests "
                        "of the system agreement"}),
        (AUTO_TUNING, {"choices": AUTO_TUNING.domain.names}), AUTO_PAIRS, AUTO_PROBABILITIES,
        AUTO_DRAWS, AUTO_SEED,
        (RELEVANCE, {"doc": "smallest relevant grade, for both qrels"}), AUTO_DESIGN,
        add_names, *table_options, inputs=["inputs"],
        help="automatic judgments against a human sample of topics: agreement and "
        "prediction-powered means",
        description="Automatic judgments (AUTO) against human judgments of a sample (HUMAN; "
        "--design): label and system-ranking agreement, and the runs' means corrected by "
        "prediction-powered inference (Angelopoulos et al., Science 2023; PPI++); see "
        "docs/collections.md.",
        rules=[_auto_inputs, *each(
            ("draws", "seed"), lambda args: args.label_probabilities and args.design == "topics",
            "{options} applies to --label-probabilities with --design topics (the draws of "
            "every pair's grade for a measure that is not a sum over the ranked documents)")])


def _auto_inputs(args: argparse.Namespace) -> None:
    """``auto`` reads two qrels files, then two run files at least."""
    if len(args.inputs) < 4:
        raise ParameterError("give the automatic qrels, the human qrels and two run files "
                             "at least")


def run_auto(args: argparse.Namespace) -> int:
    """``labels auto``: the four tables of :class:`AutomaticJudgmentsResult`."""
    # label probabilities and sampled judgments (topic iter docno rel prob) are read by
    # their own readers
    automatic = args.inputs[0] if args.label_probabilities else \
        read_inputs(args.inputs[0], [])[0]
    runs = as_runs(named_runs(args.inputs[2:], args.names))
    human = args.inputs[1] if args.design == "inclusion" else read_inputs(args.inputs[1], [])[0]
    from ..collections.automatic import automatic_judgments

    result = automatic_judgments(automatic, human, runs, args.measures, alpha=args.alpha,
                                 tuning=args.tuning, pairs=args.pairs,
                                 relevance_level=args.relevance_level, design=args.design,
                                 label_probabilities=args.label_probabilities,
                                 draws=args.draws, rng=args.seed)
    return write_text(args, result.format(args.fmt, digits=args.digits).rstrip("\n") + "\n")

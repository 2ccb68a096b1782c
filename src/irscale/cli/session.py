"""``irscale session``: evaluate multi-query session runs, printed as ``irscale eval`` prints
its values, one "topic" per session (usage: ``docs/cli.md``, ``docs/sessions.md``)."""

from __future__ import annotations

import argparse

from ..core.params import RELEVANCE
from ..text.params import CLICK_ORDER, CLICKS, SESSION_CLICK_GAIN, SESSION_MAP, SESSIONS
from .common_params import MEASURES, QRELS, RUNS
from .eval import (
    add_evaluation_output,
    add_labels_option,
    add_values_options,
    write_evaluation,
)
from .main import SUBCOMMANDS
from .options import add_command
from .outputs import Done
from .runargs import label_files

DEFAULT_MEASURES = ("sDCG@10", "nsDCG@10")


def add_parser(subparsers) -> None:
    """Register ``irscale session`` and the rules of its options."""
    add_command(
        subparsers, "session", run,
        (QRELS, {"doc": "qrels file: qid iter docno rel"}),
        (RUNS, {"nargs": "+", "metavar": "session_run",
                "doc": "session run file(s): session query_no docno rank score runid"}),
        (MEASURES, {"action": "append", "metavar": "MEASURE",
                    "doc": "session measure (repeatable): sDCG@10, 'sDCG(bq=4)@10', "
                    "'nsDCG(norm=jarvelin)@10', 'sRBP(p=0.8,b=0.5)', sERR@10, "
                    "'esnDCG(p_reform=0.5,p_down=0.8)@10', 'tsCG(budget=300)', "
                    "'MsM(p=0.7,q=0.1,r=0.1,s=0.1)@10', 'U(L=132000)' ... (default: "
                    f"{','.join(DEFAULT_MEASURES)})"}),
        lambda parser: add_values_options(parser, "session"), RELEVANCE, SESSION_MAP,
        (CLICKS, {"action": "append"}), CLICK_ORDER, SESSION_CLICK_GAIN,
        lambda parser: add_labels_option(
            parser, "a label file (qrels format: topic iter docno value) for U, e.g. "
            "--labels doclen=lengths.txt (document lengths in characters)"),
        lambda parser: add_evaluation_output(parser, "session",
                                             "none of whose sessions has judgments"),
        binding=SESSIONS,
        example="qrels.txt s.run",
        help=SUBCOMMANDS["session"],
        description="Evaluate session runs against TREC qrels, each session judged with the "
        "qrels of its topic; output as irscale eval prints it. See docs/sessions.md.")


def run(args: argparse.Namespace) -> Done:
    """``irscale session``: the session measures of every run."""
    from ..evaluation.sessions import evaluate_sessions

    evaluation = evaluate_sessions(
        args.qrels, args.runs, args.measures or list(DEFAULT_MEASURES),
        topics=args.topics, clicks=args.clicks, click_order=args.click_order,
        click_gain=args.click_gain, labels=label_files(args.labels),
        relevance_level=args.relevance_level, allow_empty=args.allow_empty)
    return write_evaluation(args, evaluation)

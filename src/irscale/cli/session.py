"""``irscale session``: evaluate multi-query session runs (``docs/sessions.md``).

    irscale session QRELS SESSION_RUN [SESSION_RUN ...] [-m MEASURE ...] [-q] [-n] [-l N]
                    [--topics FILE] [--clicks FILE ...] [--click-order time|rank]
                    [--click-gain G] [--labels NAME=FILE ...]
                    [--format trec|csv|json|markdown] [--allow-empty] [-o FILE] [--force]

Output as ``irscale eval`` prints it, one "topic" per session.
"""

from __future__ import annotations

import argparse

from ..core.options import RELEVANCE_LEVEL
from ..core.params import CLICK_GAIN, RELEVANCE
from ..errors import ParameterError
from ..io.formats import OUTPUT_FORMATS
from .main import given
from .options import Checked, add_param
from .outputs import add_output, declare_inputs, label_file, open_output
from .runargs import label_files

DEFAULT_MEASURES = ("sDCG@10", "nsDCG@10")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "session",
        help="evaluate multi-query session runs (sDCG, nsDCG, sRBP, sERR, session U-measure)",
        description="Evaluate session runs ('session query_no docno rank score runid' "
        "lines; the rank column orders each query's list) against TREC qrels. A session "
        "is judged with the qrels of the topic of the same id (or of --topics). Output as "
        "irscale eval prints it, with one line per session (-q) and the mean over sessions "
        "(all). See docs/sessions.md.",
    )
    parser.add_argument("qrels", help="qrels file: qid iter docno rel")
    parser.add_argument("runs", nargs="+", metavar="session_run",
                        help="session run file(s): session query_no docno rank score runid")
    parser.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                        help="session measure (repeatable): sDCG@10, 'sDCG(bq=4)@10', "
                        "'nsDCG(norm=jarvelin)@10', 'sRBP(p=0.8,b=0.5)', sERR@10, "
                        "'U(L=132000)' ... (default: "
                        f"{','.join(DEFAULT_MEASURES)})")
    parser.add_argument("-q", "--per-query", action="store_true",
                        help="also print the value of every session")
    parser.add_argument("-n", "--no-summary", action="store_true",
                        help="do not print the summary (all) lines")
    add_param(parser, RELEVANCE, label=RELEVANCE_LEVEL)
    parser.add_argument("--topics", default=None, metavar="FILE",
                        help="session map, lines 'session topic': the qrels topic of each "
                        "session (default: the session id is the topic id)")
    parser.add_argument("--clicks", action="append", default=None, metavar="FILE",
                        help="click log 'session query_no rank timestamp', one per run in "
                        "the runs' order (repeatable): U is computed from the clicks")
    parser.add_argument("--click-order", choices=("time", "rank"), default="time",
                        help="read the clicks in time order (non-linear traversal) or by "
                        "query and rank (default time)")
    parser.add_argument("--click-gain", action=Checked, domain=CLICK_GAIN, api="click_gain",
                        default=None, metavar="G",
                        help="gain of every click (0.5: 'clicked = relevant' as Sakai's "
                        "algorithm; default: the qrels gain of the clicked document)")
    parser.add_argument("--labels", action="append", default=[], metavar="NAME=FILE",
                        help="a label file (qrels format: topic iter docno value) for U, e.g. "
                        "--labels doclen=lengths.txt (document lengths in characters; "
                        "repeatable)")
    parser.add_argument("--format", choices=OUTPUT_FORMATS, default="trec", dest="fmt",
                        help="output format (default trec: 'measure<TAB>session<TAB>value')")
    parser.add_argument("--allow-empty", action="store_true",
                        help="evaluate a run none of whose sessions has judgments (an error "
                        "otherwise)")
    add_output(parser)
    declare_inputs(parser, "qrels", "runs", "--topics", "--clicks")
    declare_inputs(parser, "--labels", path=label_file)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.clicks is None:
        for option in ("--click-order", "--click-gain"):
            if given(args, option[2:].replace("-", "_")):
                raise ParameterError(f"{option} applies to click logs (--clicks)")
    from ..text.sessions import evaluate_sessions

    evaluation = evaluate_sessions(
        args.qrels, args.runs, args.measures or list(DEFAULT_MEASURES),
        topics=args.topics, clicks=args.clicks, click_order=args.click_order,
        click_gain=args.click_gain, labels=label_files(args.labels),
        relevance_level=args.relevance_level, allow_empty=args.allow_empty)
    with open_output(args) as stream:
        evaluation.write(stream, args.fmt, per_query=args.per_query,
                         summary=not args.no_summary)
    return 0

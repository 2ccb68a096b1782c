"""``irscale online qrels|prefs``: relevance inferred from clicks — qrels from a fitted
click model's parameters (Chapelle & Zhang 2009) and preferences by the rules of Joachims
et al. (2005, 2007); usage: ``docs/online.md``."""

from __future__ import annotations

import argparse

from ..core.params import LOG_SERP
from ..errors import InputError
from ..online.params import CLICK_QRELS_SCORE, CLICK_THRESHOLDS, MIN_SESSIONS, PREFERENCE_RULE
from .common_params import INPUTS
from .online_clicks import EM_RULES, _model_options
from .options import add_output, add_param
from .outputs import declare_inputs, write_text
from .rules import add_rules, check_options


def add_parser(subparsers) -> None:
    """Register ``online qrels`` and ``online prefs``."""
    qrels = subparsers.add_parser(
        "qrels", help="qrels inferred from a click model fitted on a click log",
        description="Fit a click model on LOG and write TREC qrels: every (query, "
        "document) pair graded by the thresholds its attractiveness, satisfaction or "
        "relevance (alpha sigma) reaches. See docs/online.md.")
    add_param(qrels, INPUTS, nargs=1, metavar="LOG", doc="click log (text or Parquet)")
    _model_options(qrels, required=False, default="sdbn")
    add_param(qrels, CLICK_QRELS_SCORE)
    add_param(qrels, CLICK_THRESHOLDS, many=True, unique=False)
    add_param(qrels, MIN_SESSIONS)
    add_output(qrels, what="qrels")
    declare_inputs(qrels, "inputs")
    add_rules(qrels, *EM_RULES)
    qrels.set_defaults(func=run_qrels)

    prefs = subparsers.add_parser(
        "prefs", help="preferences inferred from clicks (skip-above rules)",
        description="Pairwise preferences of a click log by a rule of Joachims et al. "
        "(2005, 2007), aggregated over sessions, written as trec_eval -R prefs "
        "judgments (irscale eval -R prefs). See docs/online.md.")
    add_param(prefs, INPUTS, nargs=1, metavar="LOG", doc="click log (text or Parquet; "
              "last-skip-above and earlier-click need its timestamps)")
    add_param(prefs, PREFERENCE_RULE)
    add_param(prefs, MIN_SESSIONS)
    add_param(prefs, LOG_SERP)
    add_output(prefs, what="preferences")
    declare_inputs(prefs, "inputs")
    prefs.set_defaults(func=run_prefs)


def run_qrels(args: argparse.Namespace) -> int:
    """``online qrels``: qrels from the click model fitted on the log."""
    check_options(args)
    from ..online.clicklog import read_click_log

    log = read_click_log(args.inputs[0], serp_size=args.serp_size)  # before pandas
    from ..online.click_labels import click_qrels

    inferred = click_qrels(log, args.model, score=args.score, thresholds=args.thresholds,
                           min_sessions=args.min_sessions, smoothing=args.smoothing,
                           iterations=args.iterations, tol=args.tol)
    if inferred.table.empty:
        raise InputError(f"no (query, document) pair is shown in --min-sessions "
                         f"{args.min_sessions} sessions: no qrels to write",
                         source=args.inputs[0])
    return write_text(args, inferred.to_trec())


def run_prefs(args: argparse.Namespace) -> int:
    """``online prefs``: the preferences of the log by the rule."""
    from ..online.clicklog import read_click_log

    log = read_click_log(args.inputs[0], serp_size=args.serp_size)  # before pandas
    from ..online.click_labels import click_preferences

    found = click_preferences(log, args.rule, min_sessions=args.min_sessions)
    if found.table.empty:
        raise InputError(f"rule {args.rule} finds no preference kept (--min-sessions "
                         f"{args.min_sessions}): no judgment to write (trec_eval's -R prefs "
                         "reads none from an empty file)", source=args.inputs[0])
    return write_text(args, found.to_prefs())

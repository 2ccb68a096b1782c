"""``irscale online qrels|prefs``: relevance inferred from clicks (``docs/online.md``)."""

from __future__ import annotations

import argparse
import functools

from ..core.params import LOG_SERP
from ..errors import InputError
from ..online import params
from .online import CLICK_LOG, add_action
from .online_clicks import EM_RULES, FITTING
from .options import add_output
from .outputs import write_text


def add_parser(subparsers) -> None:
    """Register ``online qrels`` and ``online prefs``."""
    add_action(subparsers, "qrels", run_qrels, CLICK_LOG,
               (params.CLICK_MODEL, {"default": "sdbn"}), *FITTING, params.CLICK_QRELS_SCORE,
               (params.CLICK_THRESHOLDS, {"many": True, "unique": False}), params.MIN_SESSIONS,
               functools.partial(add_output, what="qrels"), inputs=("inputs",),
               rules=EM_RULES, help="TREC qrels graded by thresholds on the attractiveness, "
               "satisfaction or relevance of a click model fitted on a click log")
    add_action(subparsers, "prefs", run_prefs,
               (CLICK_LOG, {"doc": "click log (text or Parquet; last-skip-above and "
                            "earlier-click need its timestamps)"}),
               params.PREFERENCE_RULE, params.MIN_SESSIONS, LOG_SERP,
               functools.partial(add_output, what="preferences"), inputs=("inputs",),
               help="preferences of a click log by a rule of Joachims et al. (2005, 2007), "
               "as trec_eval -R prefs judgments")


def _log(args: argparse.Namespace):
    """The click log ``LOG`` (read before pandas is imported)."""
    from ..online.clicklog import read_click_log

    return read_click_log(args.inputs, serp_size=args.serp_size)


def run_qrels(args: argparse.Namespace) -> int:
    """``online qrels``: qrels from the click model fitted on the log."""
    log = _log(args)
    from ..online.click_labels import click_qrels

    inferred = click_qrels(log, args.model, score=args.score, thresholds=args.thresholds,
                           min_sessions=args.min_sessions, smoothing=args.smoothing,
                           iterations=args.iterations, tol=args.tol)
    if inferred.table.empty:
        raise InputError(f"no (query, document) pair is shown in --min-sessions "
                         f"{args.min_sessions} sessions: no qrels to write", source=args.inputs)
    return write_text(args, inferred.to_trec())


def run_prefs(args: argparse.Namespace) -> int:
    """``online prefs``: the preferences of the log by the rule."""
    log = _log(args)
    from ..online.click_labels import click_preferences

    found = click_preferences(log, args.rule, min_sessions=args.min_sessions)
    if found.table.empty:
        raise InputError(f"rule {args.rule} finds no preference kept (--min-sessions "
                         f"{args.min_sessions}): no judgment to write (trec_eval's -R prefs "
                         "reads none from an empty file)", source=args.inputs)
    return write_text(args, found.to_prefs())

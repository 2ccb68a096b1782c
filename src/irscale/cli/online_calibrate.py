"""``irscale online calibrate``: :func:`irscale.online.calibrate` (``docs/online.md``)."""

from __future__ import annotations

import argparse
import functools

from ..core.params import LOG_SERP
from ..errors import ParameterError
from ..online import params
from .common_params import QRELS_OPTION
from .online import CLICK_LOG, add_action
from .options import add_output
from .outputs import write_text
from .rules import Rule


def add_parser(subparsers) -> None:
    """Register ``online calibrate``."""
    add_action(
        subparsers, "calibrate", run, CLICK_LOG, (params.CALIBRATED, {"required": True}),
        (QRELS_OPTION, {"metavar": "QRELS",
                        "doc": "-m ERR: the degrees of the logged documents (TREC format)"}),
        params.ERR_CLICK_MODEL,
        (params.FIT_SMOOTHING, {"doc": "-m ERR: pseudo-trials at 0.5 per parameter of the click "
                         "model; -m MP: pseudo-moves out of every rank, spread evenly (0: "
                         "maximum likelihood)"}),
        LOG_SERP, functools.partial(add_output, what="parameters"),
        inputs=("inputs", "--qrels"),
        rules=(Rule(("qrels",), lambda args: args.measure == "ERR",
                    "online calibrate: --qrels applies to -m ERR"),
               Rule(("click_model",), lambda args: args.measure == "ERR",
                    "online calibrate: --click-model applies to -m ERR"),
               Rule(("smoothing",), lambda args: args.measure != "RBP",
                    "online calibrate: --smoothing applies to -m ERR and -m MP"),
               _qrels_for_err),
        help="fit RBP's persistence, ERR's stopping probabilities or Markov precision's "
        "chain on a click log, and print the measure name for irscale eval -m")


def _qrels_for_err(args: argparse.Namespace) -> None:
    if args.measure == "ERR" and args.qrels is None:
        raise ParameterError("online calibrate: -m ERR needs --qrels (the degrees of the "
                             "logged documents)")


def run(args: argparse.Namespace) -> int:
    """``online calibrate``: ``parameter<TAB>value`` lines, then ``measure<TAB>NAME``."""
    from ..io.clicklog import read_click_log
    from ..io.sources import as_qrels

    # the files first: a malformed one is reported before pandas and the models are imported
    log = read_click_log(args.inputs, serp_size=args.serp_size)
    qrels = None if args.qrels is None else as_qrels(args.qrels)
    from ..online.user_models import calibrate

    fit = calibrate(log, args.measure, qrels=qrels, click_model=args.click_model,
                    smoothing=args.smoothing, serp_size=args.serp_size)
    lines = [f"{name}\t{value!r}" for name, value in fit.parameters]
    return write_text(args, "\n".join([*lines, f"measure\t{fit.measure}"]) + "\n")

"""``irscale online calibrate``: the user model of RBP, ERR or Markov precision fitted on a
click log (:func:`irscale.online.calibrate`), printed as its parameters and the measure
name that ``irscale eval -m`` reads; usage: ``docs/cli.md``, ``docs/online.md``."""

from __future__ import annotations

import argparse

from ..core.params import LOG_SERP
from ..errors import ParameterError
from ..online.params import FIT_SMOOTHING
from .common_params import INPUTS, QRELS_OPTION
from .options import add_output, add_param
from .outputs import declare_inputs, write_text
from .rules import Rule, add_rules, check_options

#: The measures whose user model is fitted (-m), and the click models of ERR's.
MEASURES = ("RBP", "ERR", "MP")
CLICK_MODELS = ("sdbn", "dbn")


def add_parser(subparsers) -> None:
    """Register ``online calibrate``."""
    parser = subparsers.add_parser(
        "calibrate", help="fit RBP's persistence, ERR's stopping probabilities or Markov "
        "precision's chain on a click log",
        description="Fit the user model of a measure on a click log and print its "
        "parameters and the measure name to evaluate with (irscale eval -m NAME): RBP's "
        "persistence p (maximum likelihood of the last-click depths), ERR's stopping "
        "probability of every degree (a DBN fitted on the log with its parameters tied by "
        "degree: needs --qrels) or Markov precision's chain over the ranks (moves between "
        "successive clicks). See docs/online.md.")
    add_param(parser, INPUTS, nargs=1, metavar="LOG", doc="click log (text or Parquet)")
    parser.add_argument("-m", "--measure", required=True, choices=MEASURES,
                        help="the measure whose user model is fitted: " + ", ".join(MEASURES))
    add_param(parser, QRELS_OPTION, metavar="QRELS",
              doc="-m ERR: the degrees of the logged documents (TREC format)")
    parser.add_argument("--click-model", choices=CLICK_MODELS,
                        help="-m ERR: sdbn (closed form, default) or dbn (EM)")
    add_param(parser, FIT_SMOOTHING, doc="-m ERR: pseudo-trials at 0.5 per parameter of "
              "the click model; -m MP: pseudo-moves out of every rank, spread evenly (0: "
              "maximum likelihood)")
    add_param(parser, LOG_SERP)
    add_output(parser, what="parameters")
    declare_inputs(parser, "inputs", "--qrels")
    add_rules(parser,
              Rule(("qrels",), lambda args: args.measure == "ERR",
                   "online calibrate: --qrels applies to -m ERR"),
              Rule(("click_model",), lambda args: args.measure == "ERR",
                   "online calibrate: --click-model applies to -m ERR"),
              Rule(("smoothing",), lambda args: args.measure != "RBP",
                   "online calibrate: --smoothing applies to -m ERR and -m MP"),
              _qrels_for_err)
    parser.set_defaults(func=run)


def _qrels_for_err(args: argparse.Namespace) -> None:
    if args.measure == "ERR" and args.qrels is None:
        raise ParameterError("online calibrate: -m ERR needs --qrels (the degrees of the "
                             "logged documents)")


def run(args: argparse.Namespace) -> int:
    """``online calibrate``: ``parameter<TAB>value`` lines, then ``measure<TAB>NAME``."""
    check_options(args)
    from ..io.clicklog import read_click_log
    from ..io.sources import as_qrels

    # the files first: a malformed one is reported before pandas and the models are imported
    log = read_click_log(args.inputs[0], serp_size=args.serp_size)
    qrels = None if args.qrels is None else as_qrels(args.qrels)
    from ..online.user_models import calibrate

    fit = calibrate(log, args.measure, qrels=qrels,
                    click_model=args.click_model or "sdbn", smoothing=args.smoothing,
                    serp_size=args.serp_size)
    lines = [f"{name}\t{value!r}" for name, value in fit.parameters]
    return write_text(args, "\n".join([*lines, f"measure\t{fit.measure}"]) + "\n")

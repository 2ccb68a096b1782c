"""``irscale online fit|loglik|simulate-clicks|measures``: click models (Chuklin, Markov &
de Rijke 2015) and the measures calibrated by them (Chuklin, Serdyukov & de Rijke 2013);
usage: ``docs/cli.md``, ``docs/online.md``."""

from __future__ import annotations

import argparse

from ..core.params import LOG_SERP, RNG_SEED, Text
from ..errors import ParameterError
from ..io.extras import require_pyarrow
from ..online.params import (
    CLICK_MODELS,
    CLICK_RELEVANCE,
    CLICK_SESSIONS,
    CLOSED_FORM_MODELS,
    FIT_ITERATIONS,
    FIT_SMOOTHING,
    FIT_TOL,
    PAGE_DEPTH,
    SHOWN,
    USER_GAMMA,
    USERS,
    Param,
)
from .common_params import INPUTS, MEASURES, QRELS, RUNS
from .inputs import check_click_model
from .main import given
from .options import add_output, add_param, add_ties
from .outputs import declare_inputs, open_output, write_text
from .rules import add_rules, check_options, each
from .runargs import distinct_runs, read_inputs

#: ``--params FILE``: a click model fitted before.
FITTED = Param("params", Text(), None, "a fitted model (fit --format json)", ("--params",),
               "FILE")
#: Click models (:func:`irscale.online.fit_click_model`).
MODELS = CLICK_MODELS


def add_parser(subparsers) -> None:
    """Register ``online fit``, ``loglik``, ``simulate-clicks`` and ``measures``."""
    fit = subparsers.add_parser(
        "fit", help="fit a click model on a click log",
        description="Fit a click model (PBM, CM, UBM, DCM, DBN, SDBN, CCM) on a click log "
        "and write its parameters. See docs/online.md.")
    add_param(fit, INPUTS, nargs=1, metavar="LOG", doc="click log (text or Parquet)")
    _model_options(fit, required=True)
    fit.add_argument("--format", choices=("tsv", "json"), default="tsv",
                     help="tsv: parameters as TSV rows, json: as JSON (read by --params); "
                     "default tsv")
    add_output(fit, what="parameters")
    declare_inputs(fit, "inputs")
    add_rules(fit, *EM_RULES)
    fit.set_defaults(func=run_fit)

    loglik = subparsers.add_parser(
        "loglik", help="log-likelihood and perplexity of held-out sessions",
        description="Fit a click model on LOG (or read --params) and print the "
        "log-likelihood and the perplexity by rank of the sessions of --test.")
    add_param(loglik, INPUTS, nargs="?", metavar="LOG", doc="training click log")
    _model_options(loglik, required=False)
    add_param(loglik, FITTED, doc=FITTED.doc + " instead of LOG and --model")
    loglik.add_argument("--test", required=True, metavar="LOG2", help="held-out click log")
    add_output(loglik, what="table")
    declare_inputs(loglik, "inputs", "--params", "--test")
    add_rules(loglik, _params_or_fit, *EM_RULES)
    loglik.set_defaults(func=run_loglik)

    simulate = subparsers.add_parser(
        "simulate-clicks", help="simulate users clicking on a run's result pages",
        description="Simulate --sessions impressions of every topic of RUN (its first "
        "--serp-size documents) clicked by a user from QRELS (--user, Hofmann et al. "
        "2011) or by a fitted model (--params), and write the click log.")
    add_param(simulate, QRELS, metavar="QRELS",
              doc="qrels file: the grades of the --user (TREC format)")
    add_param(simulate, RUNS, nargs=1, metavar="RUN",
              doc="run file whose result pages are shown (TREC format)")
    group = simulate.add_mutually_exclusive_group()
    group.add_argument("--user", choices=USERS,
                       help="user from the qrels' grades (default navigational)")
    add_param(group, FITTED)
    add_param(simulate, CLICK_RELEVANCE,
              doc="lowest grade a user counts as relevant")
    for param in (USER_GAMMA, CLICK_SESSIONS, SHOWN, RNG_SEED):
        add_param(simulate, param)
    simulate.add_argument("--format", choices=("tsv", "parquet"), default="tsv",
                          help="log format (default tsv; parquet needs -o)")
    add_ties(simulate)
    add_output(simulate, what="click log")
    declare_inputs(simulate, "qrels", "runs", "--params")
    add_rules(simulate, _parquet_to_file,
              *each(("relevance_level", "gamma"), lambda args: args.params is None,
                    "online simulate-clicks: {options} sets a --user from the qrels, not a "
                    "fitted model (--params)",
                    {"relevance_level": "-l/--relevance-level", "gamma": "--gamma"}))
    simulate.set_defaults(func=run_simulate)

    measures = subparsers.add_parser(
        "measures", help="uM and rrM with a click model's probabilities",
        description="Click-calibrated measures (Chuklin, Serdyukov & de Rijke 2013): uM "
        "and rrM of every run with the click and satisfaction probabilities of a fitted "
        "click model.")
    add_param(measures, QRELS, metavar="QRELS", doc="qrels file (TREC format)")
    add_param(measures, RUNS, nargs="+", metavar="RUN", doc="run files (TREC format)")
    add_param(measures, FITTED, required=True)
    add_param(measures, MEASURES, action="append", metavar="NAME",
              doc="uM or rrM with parameters and cut-off (repeatable; default uM and rrM)")
    add_param(measures, PAGE_DEPTH)
    measures.add_argument("-q", dest="per_topic", action="store_true",
                          help="print per-topic values too")
    add_ties(measures)
    add_output(measures, what="table")
    declare_inputs(measures, "qrels", "runs", "--params")
    measures.set_defaults(func=run_measures)


def _model_options(parser: argparse.ArgumentParser, *, required: bool,
                   default: str | None = None) -> None:
    """``--model`` (``required`` or not, ``default``) and the fitting options."""
    parser.add_argument("--model", choices=MODELS, required=required, default=default,
                        help="click model: " + ", ".join(MODELS)
                        + (f" (default: {default})" if default else ""))
    for param in (LOG_SERP, FIT_ITERATIONS, FIT_TOL, FIT_SMOOTHING):
        add_param(parser, param)


#: EM's options: of the models fitted by EM.
EM_RULES = each(("iterations", "tol"), lambda args: args.model not in CLOSED_FORM_MODELS,
                "{options} applies to the models fitted by EM, not to --model {model} "
                "(closed form)", {"iterations": "--iterations", "tol": "--tol"})


def _params_or_fit(args: argparse.Namespace) -> None:
    """``online loglik``: a fitted model (``--params``) replaces LOG, ``--model`` and the
    fitting options; without it, LOG and ``--model`` are fitted."""
    if args.params is not None:
        replaced = [o for o, v in (("LOG", args.inputs), ("--model", args.model)) if v is not None]
        replaced += [f"--{name}" for name in ("iterations", "tol", "smoothing")
                     if given(args, name)]
        if replaced:
            raise ParameterError(f"online loglik: --params replaces {' and '.join(replaced)}")
    elif args.inputs is None or args.model is None:
        raise ParameterError("online loglik: give LOG and --model (or --params FILE)")


def _parquet_to_file(args: argparse.Namespace) -> None:
    """Parquet is written to a file, not to standard output."""
    if args.format == "parquet" and args.output == "-":
        raise ParameterError("online simulate-clicks: --format parquet needs -o FILE")
    if args.format == "parquet":
        require_pyarrow("writing a Parquet click log", args.output)


def _fitted(args: argparse.Namespace, log_path: object):
    """The model of ``--model`` fitted on the click log ``log_path`` (a path, or the log
    read; the fitting options' defaults are the API's)."""
    options = {name: getattr(args, name) for name in ("iterations", "tol", "smoothing")}
    from ..io.clicklog import read_click_log

    log = read_click_log(log_path, serp_size=args.serp_size)  # before pandas is imported
    from ..online.clickmodels import fit_click_model

    return fit_click_model(log, args.model, **options)


def run_fit(args: argparse.Namespace) -> int:
    """``online fit``: the click model fitted on the log."""
    check_options(args)  # before numpy is imported
    model = _fitted(args, args.inputs[0])
    if args.format == "json":
        return write_text(args, model.to_json() + "\n")
    return write_text(args, model.to_frame().to_csv(sep="\t", index=False))


def run_loglik(args: argparse.Namespace) -> int:
    """``online loglik``: the log-likelihood and perplexity of a model on the test log."""
    check_options(args)
    from ..io.clicklog import read_click_log

    # every file read before pandas and the click models are imported
    params = None if args.params is None else check_click_model(args.params)
    train = None if params is not None else read_click_log(args.inputs,
                                                           serp_size=args.serp_size)
    test = read_click_log(args.test, serp_size=args.serp_size)
    model = params.build() if params is not None else _fitted(args, train)
    table = model.evaluate(test)
    return write_text(args, table.to_csv(sep="\t", float_format="%.6g"))


def run_simulate(args: argparse.Namespace) -> int:
    """``online simulate-clicks``: a click log of the run, clicked by a model."""
    check_options(args)
    from ..io.sources import as_qrels, as_runs

    # every file read before pandas and the click models are imported
    params = None if args.params is None else check_click_model(args.params)
    qrels = None if params is not None else as_qrels(args.qrels)
    run = as_runs([args.runs[0]], keep_rank=args.ties == "rank-column")[0]
    if params is not None:
        model = params.build()
    else:
        from ..online.simulate import qrels_click_model

        model = qrels_click_model(qrels, args.user or "navigational",
                                  relevance_level=args.relevance_level, gamma=args.gamma)
    from ..online.simulate import simulate_click_log

    log = simulate_click_log(run, model, sessions=args.sessions,
                             serp_size=args.serp_size, ties=args.ties, rng=args.seed)
    frame = log.to_frame()
    if args.format == "parquet":
        with open_output(args) as stream:
            frame.to_parquet(stream, index=False)
        return 0
    with open_output(args, "w") as stream:
        frame.to_csv(stream, sep="\t", index=False, header=False)
    return 0


def run_measures(args: argparse.Namespace) -> int:
    """``online measures``: uM and rrM of every run with a fitted click model."""
    from ..online.params import split_calibrated

    for name in args.measures or ():
        split_calibrated(name)
    # the inputs first: a malformed file is reported before pandas is imported
    qrels, runs = read_inputs(args.qrels, distinct_runs(args.runs),
                              keep_rank=args.ties == "rank-column")
    model = check_click_model(args.params).build()
    from ..online.calibrated import calibrated_summary, click_calibrated

    frame = click_calibrated(qrels, runs, model,
                             args.measures or ("uM", "rrM"), depth=args.depth, ties=args.ties)
    table = calibrated_summary(frame, per_topic=args.per_topic)
    return write_text(args, table.to_csv(sep="\t", index=False, float_format="%.6g"))

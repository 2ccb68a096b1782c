"""``irscale online fit|loglik|simulate-clicks|measures``: click models (docs/online.md)."""

from __future__ import annotations

import argparse
import functools

from ..core.extras import PYARROW, Requires
from ..core.params import LOG_SERP, RNG_SEED, Names, Param
from ..errors import ParameterError
from ..online import params
from .common_params import MEASURES, PER_QUERY, QRELS, RUNS
from .inputs import check_click_model
from .online import CLICK_LOG, FITTING, add_action, one_of
from .options import add_output, add_ties, wants_progress
from .outputs import Done, Output
from .rules import each, given
from .runargs import add_names, named_runs, read_inputs

#: The formats of a fitted model and of a simulated click log.
FIT_FORMAT = Param("format", Names("format", ("tsv", "json")), "tsv", "tsv: parameters as "
                   "TSV rows, json: as JSON (read by --params)", ("--format",))
LOG_FORMAT = Param("format", Names("format", ("tsv", "parquet")), "tsv", "log format "
                   "(parquet needs -o)", ("--format",),
                   requires=(Requires(PYARROW, "{output}, writing a Parquet click log",
                                      lambda value: value == "parquet"),))


def add_parser(subparsers) -> None:
    """Register ``online fit``, ``loglik``, ``simulate-clicks`` and ``measures``."""
    fitted = params.FITTED
    add_action(subparsers, "fit", run_fit, CLICK_LOG, (params.CLICK_MODEL, {"required": True}),
               *FITTING, FIT_FORMAT, functools.partial(add_output, what="parameters"),
               binding=params.FIT,
               example="train.log --model dbn --iterations 5",
               help="fit a click model on a click log and write its parameters")
    add_action(subparsers, "loglik", run_loglik,
               (CLICK_LOG, {"nargs": "?", "doc": "training click log"}), params.CLICK_MODEL,
               *FITTING, (fitted, {"doc": fitted.doc + " instead of LOG and --model"}),
               (params.HELD_OUT, {"required": True}),
               functools.partial(add_output, what="table"),
               binding=params.FIT, rules=(_params_or_fit,),
               example="train.log --model dbn --test test.log --iterations 5",
               help="log-likelihood and perplexity by rank of held-out sessions")
    add_action(subparsers, "simulate-clicks", run_simulate,
               (QRELS, {"metavar": "QRELS",
                        "doc": "qrels file: the grades of the --user (TREC format)"}),
               (RUNS, {"metavar": "RUN",
                       "doc": "run file whose result pages are shown (TREC format)"}),
               one_of(params.QRELS_USER, fitted),
               (params.CLICK_RELEVANCE, {"doc": "lowest grade a user counts as relevant"}),
               params.USER_GAMMA, params.CLICK_SESSIONS, params.SHOWN, RNG_SEED, LOG_FORMAT,
               add_ties, functools.partial(add_output, what="click log"),
               rules=(_parquet_to_file, *each(
                   ("relevance_level", "gamma"), lambda args: args.params is None,
                   "online simulate-clicks: {options} sets a --user from the qrels, not a "
                   "fitted model (--params)",
                   {"relevance_level": "-l/--relevance-level", "gamma": "--gamma"})),
               binding=params.SIMULATE_LOG, example="qrels.txt a.run --sessions 3 --seed 1",
               help="simulate users (Hofmann et al. 2011, or a fitted model) clicking on "
               "a run's result pages")
    add_action(subparsers, "measures", run_measures,
               (QRELS, {"metavar": "QRELS", "doc": "qrels file (TREC format)"}),
               (RUNS, {"nargs": "+", "metavar": "RUN", "doc": "run files (TREC format)"}),
               add_names, (fitted, {"required": True}),
               (MEASURES, {"action": "append", "metavar": "NAME", "doc": "uM or rrM with "
                           "parameters and cut-off (repeatable; default uM and rrM)"}),
               params.PAGE_DEPTH, PER_QUERY, add_ties,
               functools.partial(add_output, what="table"),
               binding=params.CALIBRATED_MEASURES, rules=(_calibrated,),
               example="qrels.txt a.run b.run --params pbm.json",
               help="uM and rrM with a click model's probabilities")


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
    if args.format == "parquet" and args.output == "-":
        raise ParameterError("online simulate-clicks: --format parquet needs -o FILE")


def _calibrated(args: argparse.Namespace) -> None:
    """``-m``: uM and rrM, refused before the files are read."""
    for name in args.measures or ():
        params.split_calibrated(name)


def _fitted(args: argparse.Namespace, log: object):
    """The model of ``--model`` fitted on the click log ``log`` (a path, or the log read;
    the fitting options' defaults are the API's)."""
    from ..io.clicklog import read_click_log

    log = read_click_log(log, serp_size=args.serp_size)  # before pandas is imported
    from ..online.clickmodels import fit_click_model

    return fit_click_model(log, args.model, iterations=args.iterations, tol=args.tol,
                           smoothing=args.smoothing, progress=wants_progress(args))


def run_fit(args: argparse.Namespace) -> Done:
    """``online fit``: the click model fitted on the log."""
    model = _fitted(args, args.inputs)
    if args.format == "json":
        return model.to_json() + "\n"
    from ..core.numbers import check_table, spelled
    from ..io.text_columns import frame_text

    # a row per (query, document) pair: millions from a large log, spelled a column at a
    # time (pandas' writer, a Python step a field, took 12 s for 10^7 sessions' pairs)
    frame = model.to_frame()
    # the guard of numbers: frame_text writes a missing value empty, as a blank is spelt
    meanings = check_table(frame, "the click model")
    text = None if any(not m.empty for m in meanings.values()) else frame_text(frame)
    return (spelled(frame, meanings).to_csv(sep="\t", index=False)
            if text is None else text.decode())


#: Bytes of every rank of ``online loglik``'s table at its peak: the frame's row (the rank's
#: label and four numbers) and its line of text (measured with pandas 3: about 430).
LOGLIK_RANK_BYTES = 400


def run_loglik(args: argparse.Namespace) -> Done:
    """``online loglik``: the log-likelihood and perplexity of a model on the test log."""
    from ..io.clicklog import read_click_log

    if args.serp_size is not None:  # a row per rank: refused before the logs are read
        _check_loglik_table(args.serp_size)
    # every file read before pandas and the click models are imported
    checked = None if args.params is None else check_click_model(args.params)
    train = None if checked is not None else read_click_log(args.inputs,
                                                            serp_size=args.serp_size)
    test = read_click_log(args.test, serp_size=args.serp_size)
    model = checked.build() if checked is not None else _fitted(args, train)
    table = model.evaluate(test)
    from ..core.numbers import csv_text

    return csv_text(table, "the evaluation of the click model", sep="\t",
                                     float_format="%.6g")


def _check_loglik_table(serp_size: int) -> None:
    """Refuse a table of ``serp_size`` ranks (and its text), :data:`LOGLIK_RANK_BYTES` a
    rank, beyond the memory limit (:func:`irscale.core.progress.declared_memory`: the SERP
    size declares the cost): the ranks past the logs' are rows too."""
    from ..core.progress import declared_memory

    declared_memory(LOG_SERP, float(serp_size) * LOGLIK_RANK_BYTES,
                    f"a row for each of {serp_size:,} ranks (--serp-size): a table")


def run_simulate(args: argparse.Namespace) -> Done:
    """``online simulate-clicks``: a click log of the run, clicked by a model."""
    from ..io.sources import as_qrels, as_runs

    # every file read before pandas and the click models are imported
    checked = None if args.params is None else check_click_model(args.params)
    qrels = None if checked is not None else as_qrels(args.qrels)
    run = as_runs([args.runs], keep_rank=args.ties == "rank-column")[0]
    if checked is not None:
        model = checked.build()
    else:
        from ..online.simulate import qrels_click_model

        model = qrels_click_model(qrels, args.user, relevance_level=args.relevance_level,
                                  gamma=args.gamma)
    from ..online.simulate import simulate_click_log

    frame = simulate_click_log(run, model, sessions=args.sessions, serp_size=args.serp_size,
                               ties=args.ties, rng=args.seed).to_frame()
    if args.format == "parquet":
        return Output(lambda stream: frame.to_parquet(stream, index=False), binary=True)
    return Output(lambda stream: frame.to_csv(stream, sep="\t", index=False, header=False),
                  mode="w")


def run_measures(args: argparse.Namespace) -> Done:
    """``online measures``: uM and rrM of every run with a fitted click model."""
    # the inputs first: a malformed file is reported before pandas is imported
    qrels, runs = read_inputs(args.qrels, named_runs(args.runs, args.names),
                              keep_rank=args.ties == "rank-column")
    model = check_click_model(args.params).build()
    from ..online.calibrated import calibrated_summary, click_calibrated

    frame = click_calibrated(qrels, runs, model, args.measures or ("uM", "rrM"),
                             depth=args.depth, ties=args.ties)
    table = calibrated_summary(frame, per_topic=args.per_query)
    from ..core.numbers import csv_text

    return csv_text(table, "the calibrated measures", sep="\t", index=False,
                                     float_format="%.6g")

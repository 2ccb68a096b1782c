"""``irscale online counterfactual|historical``: :func:`irscale.online.counterfactual`,
:func:`irscale.online.historical_interleaving` (``docs/online.md``)."""

from __future__ import annotations

import argparse
import os

from ..core.params import RNG_SEED, SIGNIFICANCE, Param, Switch
from ..errors import ParameterError
from ..online import params
from .common_params import INPUTS
from .inputs import check_click_model
from .online import CLICK_LOG, add_action, add_table, one_of, write_result
from .options import add_progress, wants_progress
from .outputs import declare_inputs
from .rules import Rule
from .runargs import distinct_runs

#: The estimators with a reward model; those whose policy files are slate tables.
MODEL = ("dm", "dr", "switch-dr", "sndr")
SLATE = ("sips", "iips", "rips")
#: ``--plain``: ``historical`` without self-normalisation.
PLAIN = Param("plain", Switch(), False, "plain importance sampling (unbiased) instead of "
              "self-normalised", ("--plain",))
#: The interval of an estimate and its table.
INTERVAL = ((SIGNIFICANCE, {"doc": "the interval is at level 1 - alpha"}), params.OPE_BOOTSTRAP,
            (RNG_SEED, {"doc": "seed of the bootstrap"}), add_table)


def add_parser(subparsers) -> None:
    """Register ``online counterfactual`` and ``online historical``."""
    parser = add_action(
        subparsers, "counterfactual", run, CLICK_LOG,
        one_of(params.TARGET_RUN, params.TARGET_POLICY, required=True), params.OPE_ESTIMATOR,
        params.LOGGING_POLICY, params.EXAMINATION, params.REWARD_MODEL, params.OPE_CLIP,
        params.OPE_SWITCH_TAU, *INTERVAL, add_progress,
        inputs=("inputs", "--run", "--policy", "--reward"),
        rules=(Rule(("logging",), lambda args: args.estimator not in ("pbm-ips", "dm"),
                    "--logging applies to every --estimator but pbm-ips and dm"),
               Rule(("propensities",), lambda args: args.estimator in ("pbm-ips", *MODEL),
                    "--propensities applies to --estimator pbm-ips, dm, dr, switch-dr or "
                    "sndr"),
               Rule(("reward",), lambda args: args.estimator in MODEL,
                    "--reward applies to --estimator dm, dr, switch-dr or sndr"),
               Rule(("clip",), lambda args: args.estimator != "dm",
                    "--clip applies to the weighting estimators, not dm"),
               Rule(("switch_tau",), lambda args: args.estimator == "switch-dr",
                    "--switch-tau applies to --estimator switch-dr"),
               _needs_logging),
        help="off-policy estimate of a ranking policy's expected clicks per session from a "
        "click log (IPS, SNIPS, DM, DR, Switch-DR, SNDR, position-based IPS, slate IPS)")
    declare_inputs(parser, "--logging", keywords=(params.EMPIRICAL,))
    declare_inputs(parser, "--propensities", path=_model_path)
    add_action(subparsers, "historical", run_historical,
               (INPUTS, {"metavar": "LOG",
                         "doc": "interleaving log (impression topic rank docno team clicked)"}),
               (params.SOURCE_RUNS, {"nargs": 2, "required": True}),
               (params.TARGET_RUNS, {"nargs": 2, "required": True}),
               (params.SOFTMAX_TAU, {"doc": "softmax exponent of the target interleaving"}),
               params.SOURCE_TAU, PLAIN, *INTERVAL, add_progress,
               inputs=("inputs", "--source", "--target"),
               help="probabilistic interleaving outcome of two rankers from a log "
               "interleaving two others (Hofmann, Whiteson & de Rijke 2012)")


def _model_path(value: str) -> str | None:
    """``--propensities`` names a file unless it is a list of numbers."""
    return None if _numbers(value) is not None else value


def _numbers(value: str) -> list[float] | None:
    try:
        return [float(v) for v in value.split(",")]
    except ValueError:
        return None


def _needs_logging(args: argparse.Namespace) -> None:
    if args.estimator not in ("pbm-ips", "dm") and args.logging is None:
        raise ParameterError(f"--estimator {args.estimator} needs the logging policy's "
                             "propensities: --logging FILE or --logging empirical")
    if args.estimator == "switch-dr" and args.switch_tau is None:
        raise ParameterError("--estimator switch-dr needs its threshold: --switch-tau T")


def _propensities(value: str | None) -> object:
    """γ from a comma-separated list, or a click model's JSON (checked, built later:
    :class:`~irscale.io.pending.Pending`)."""
    if value is None:
        return None
    numbers = _numbers(value)
    if numbers is not None:
        return numbers
    return check_click_model(value)


def _reward(value: str | None) -> object:
    """A click model's JSON (``.json``), or ``query docno value`` lines (checked, built
    later: :class:`~irscale.io.pending.Pending`)."""
    if value is None:
        return None
    if os.path.splitext(value)[1].lower() == ".json":
        return check_click_model(value)
    from ..io.policy import check_probability_table

    return check_probability_table(value, ranked=False)


def run(args: argparse.Namespace) -> int:
    """``online counterfactual``: the estimate, its standard error and intervals."""
    from ..io.clicklog import read_click_log
    from ..io.pending import Pending
    from ..io.policy import check_probability_table, check_slate_table
    from ..io.sources import as_runs

    # every file checked before pandas and the estimators are imported
    log = read_click_log(args.inputs)
    check = check_slate_table if args.estimator in SLATE else check_probability_table
    policy = check(args.policy) if args.policy else as_runs(distinct_runs([args.run]))[0]
    logging = args.logging
    if logging is not None and logging != params.EMPIRICAL:
        logging = check(logging)
    given = (policy, logging, _propensities(args.propensities), _reward(args.reward))
    built = [read.build() if isinstance(read, Pending) else read for read in given]
    from ..online.counterfactual import counterfactual

    return write_result(args, counterfactual(
        log, built[0], estimator=args.estimator, logging=built[1], propensities=built[2],
        reward=built[3], clip=args.clip, switch_tau=args.switch_tau,
        confidence_level=1 - args.alpha, bootstrap=args.bootstrap, rng=args.seed,
        progress=wants_progress(args)))


def run_historical(args: argparse.Namespace) -> int:
    """``online historical``: the target pair's expected outcome from the source log."""
    from ..io.interleaving_log import read_interleaving_log
    from ..io.sources import as_runs

    # the inputs first: a malformed file is reported before pandas is imported
    log = read_interleaving_log(args.inputs)
    source = as_runs(distinct_runs(args.source))
    target = as_runs(distinct_runs(args.target))
    from ..online.historical import historical_interleaving

    return write_result(args, historical_interleaving(
        log, list(source), list(target), tau=args.tau, source_tau=args.source_tau,
        normalise=not args.plain, confidence_level=1 - args.alpha, bootstrap=args.bootstrap,
        rng=args.seed, progress=wants_progress(args)))

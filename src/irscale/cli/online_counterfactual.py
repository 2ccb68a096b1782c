"""``irscale online counterfactual`` and ``irscale online historical``: off-policy
estimates of a ranking policy's expected clicks from a click log
(:func:`irscale.online.counterfactual`), and probabilistic-interleaving outcomes of a pair
of rankers from a log interleaving another pair
(:func:`irscale.online.historical_interleaving`); usage: ``docs/cli.md``,
``docs/online.md``."""

from __future__ import annotations

import argparse
import os

from ..core.params import RNG_SEED, SIGNIFICANCE, Param, Switch, Text
from ..errors import ParameterError
from ..online.params import (
    OPE_BOOTSTRAP,
    OPE_CLIP,
    OPE_ESTIMATOR,
    OPE_SWITCH_TAU,
    SOFTMAX_TAU,
    SOURCE_TAU,
)
from .common_params import INPUTS
from .online import CLICK_LOG, add_action, add_table, one_of, write_result
from .outputs import declare_inputs
from .rules import Rule
from .runargs import distinct_runs

#: The value of ``--logging`` that estimates the propensities from the log.
EMPIRICAL = "empirical"
#: The estimators with a reward model; those whose policy files are slate tables.
MODEL = ("dm", "dr", "switch-dr", "sndr")
SLATE = ("sips", "iips", "rips")
#: The target policy, the logging policy and the models of ``counterfactual``.
RUN = Param("run", Text(), None, "target policy: a TREC run (its first SERP-size documents "
            "per query)", ("--run",), "RUN")
POLICY = Param("policy", Text(), None, "target policy: 'query docno rank probability' lines "
               "(a stochastic policy); sips, iips, rips: 'query slate probability' lines",
               ("--policy",), "FILE")
LOGGING = Param("logging", Text(), None, "logging propensities: 'query docno rank "
                "probability' lines (sips, iips, rips: 'query slate probability' lines), or "
                "'empirical' (their frequencies in the log); all but dm, pbm-ips",
                ("--logging",), "FILE|" + EMPIRICAL)
PROPENSITIES = Param("propensities", Text(), None, "examination propensities γ_r of ranks "
                     "1.. (comma-separated) or a position-based click model (online fit "
                     "--format json); pbm-ips (default: a PBM fitted on the log), dm, dr, "
                     "switch-dr, sndr", ("--propensities",), "G1,G2,...|PARAMS.json")
REWARD = Param("reward", Text(), None, "reward model of dm, dr, switch-dr, sndr: 'query docno "
               "value' lines (click probabilities, times γ_r of --propensities) or a "
               "position-based click model (default: a PBM fitted on the log)",
               ("--reward",), "FILE|PARAMS.json")
#: The runs of ``historical``, and its estimator.
SOURCE = Param("source", Text(), None, "the two runs that built the log (run ids = its "
               "teams)", ("--source",), "RUN")
TARGET = Param("target", Text(), None, "the two runs to compare", ("--target",), "RUN")
PLAIN = Param("plain", Switch(), False, "plain importance sampling (unbiased) instead of "
              "self-normalised", ("--plain",))
#: The interval of an estimate and its table.
INTERVAL = ((SIGNIFICANCE, {"doc": "the interval is at level 1 - alpha"}), OPE_BOOTSTRAP,
            (RNG_SEED, {"doc": "seed of the bootstrap"}), add_table)


def add_parser(subparsers) -> None:
    """Register ``online counterfactual`` and ``online historical``."""
    parser = add_action(
        subparsers, "counterfactual", run, CLICK_LOG, one_of(RUN, POLICY, required=True),
        OPE_ESTIMATOR, LOGGING, PROPENSITIES, REWARD, OPE_CLIP, OPE_SWITCH_TAU, *INTERVAL,
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
    declare_inputs(parser, "--logging", keywords=(EMPIRICAL,))
    declare_inputs(parser, "--propensities", path=_model_path)
    add_action(subparsers, "historical", run_historical,
               (INPUTS, {"metavar": "LOG",
                         "doc": "interleaving log (impression topic rank docno team clicked)"}),
               (SOURCE, {"nargs": 2, "required": True}),
               (TARGET, {"nargs": 2, "required": True}),
               (SOFTMAX_TAU, {"doc": "softmax exponent of the target interleaving"}),
               SOURCE_TAU, PLAIN, *INTERVAL, inputs=("inputs", "--source", "--target"),
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
    """γ from a comma-separated list, or a click model's JSON."""
    if value is None:
        return None
    numbers = _numbers(value)
    if numbers is not None:
        return numbers
    from ..online.clickmodels import read_click_model

    return read_click_model(value)


def _reward(value: str | None) -> object:
    """A click model's JSON (``.json``), or ``query docno value`` lines."""
    if value is None:
        return None
    if os.path.splitext(value)[1].lower() == ".json":
        from ..online.clickmodels import read_click_model

        return read_click_model(value)
    from ..io.policy import read_probability_table

    return read_probability_table(value, ranked=False)


def run(args: argparse.Namespace) -> int:
    """``online counterfactual``: the estimate, its standard error and intervals."""
    from ..io.policy import read_probability_table, read_slate_table
    from ..online.counterfactual import counterfactual

    read = read_slate_table if args.estimator in SLATE else read_probability_table
    policy = read(args.policy) if args.policy else distinct_runs([args.run])[0]
    logging = args.logging
    if logging is not None and logging != EMPIRICAL:
        logging = read(logging)
    return write_result(args, counterfactual(
        args.inputs, policy, estimator=args.estimator, logging=logging,
        propensities=_propensities(args.propensities),
        reward=_reward(args.reward),
        clip=args.clip, switch_tau=args.switch_tau, confidence_level=1 - args.alpha,
        bootstrap=args.bootstrap, rng=args.seed))


def run_historical(args: argparse.Namespace) -> int:
    """``online historical``: the target pair's expected outcome from the source log."""
    from ..online.historical import historical_interleaving

    return write_result(args, historical_interleaving(
        args.inputs, list(distinct_runs(args.source)), list(distinct_runs(args.target)),
        tau=args.tau, source_tau=args.source_tau, normalise=not args.plain,
        confidence_level=1 - args.alpha, bootstrap=args.bootstrap, rng=args.seed))

"""``irscale online counterfactual`` and ``irscale online historical``: off-policy
estimates of a ranking policy's expected clicks from a click log
(:func:`irscale.online.counterfactual`), and probabilistic-interleaving outcomes of a pair
of rankers from a log interleaving another pair
(:func:`irscale.online.historical_interleaving`); usage: ``docs/cli.md``,
``docs/online.md``."""

from __future__ import annotations

import argparse
import os

from ..core.params import RNG_SEED, SIGNIFICANCE
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..online.params import (
    OPE_BOOTSTRAP,
    OPE_CLIP,
    OPE_ESTIMATOR,
    OPE_SWITCH_TAU,
    SOFTMAX_TAU,
    SOURCE_TAU,
)
from .common_params import INPUTS
from .inputs import check_click_model
from .options import add_format, add_output, add_param
from .outputs import declare_inputs
from .rules import Rule, add_rules, check_options
from .runargs import distinct_runs

#: The value of ``--logging`` that estimates the propensities from the log.
EMPIRICAL = "empirical"
#: The estimators with a reward model; those whose policy files are slate tables.
MODEL = ("dm", "dr", "switch-dr", "sndr")
SLATE = ("sips", "iips", "rips")


def add_parser(subparsers) -> None:
    """Register ``online counterfactual`` and ``online historical``."""
    parser = subparsers.add_parser(
        "counterfactual", help="off-policy estimate of a ranking's expected clicks from a "
        "click log (IPS, SNIPS, DM, DR, Switch-DR, SNDR, position-based IPS, slate IPS)",
        description="Estimate the expected clicks per session that a target ranking policy "
        "(--run, or a stochastic --policy) would get, from a click log collected under "
        "another policy, with its standard error and a normal (optionally bootstrap) "
        "interval. All estimators but dm and pbm-ips need the logging policy's "
        "propensities (--logging); dm, dr, switch-dr and sndr a reward model (--reward, "
        "default a PBM fitted on the log); pbm-ips examination propensities "
        "(--propensities, default a PBM fitted on the log); sips, iips and rips read "
        "--policy and --logging as distributions over whole rankings ('query slate "
        "probability' lines, a slate's documents joined by commas). See docs/online.md.")
    add_param(parser, INPUTS, nargs=1, metavar="LOG", doc="click log (text or Parquet)")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--run", metavar="RUN", help="target policy: a TREC run (its first "
                        "SERP-size documents per query)")
    target.add_argument("--policy", metavar="FILE", help="target policy: 'query docno rank "
                        "probability' lines (a stochastic policy); sips, iips, rips: "
                        "'query slate probability' lines")
    add_param(parser, OPE_ESTIMATOR)
    parser.add_argument("--logging", metavar="FILE|" + EMPIRICAL,
                        help="logging propensities: 'query docno rank probability' lines "
                        "(sips, iips, rips: 'query slate probability' lines), or "
                        "'empirical' (their frequencies in the log); all but dm, pbm-ips")
    parser.add_argument("--propensities", metavar="G1,G2,...|PARAMS.json",
                        help="examination propensities γ_r of ranks 1.. (comma-separated) "
                        "or a position-based click model (online fit --format json); "
                        "pbm-ips (default: a PBM fitted on the log), dm, dr, switch-dr, "
                        "sndr")
    parser.add_argument("--reward", metavar="FILE|PARAMS.json",
                        help="reward model of dm, dr, switch-dr, sndr: 'query docno value' "
                        "lines (click "
                        "probabilities, times γ_r of --propensities) or a position-based "
                        "click model (default: a PBM fitted on the log)")
    add_param(parser, OPE_CLIP)
    add_param(parser, OPE_SWITCH_TAU)
    _interval_options(parser)
    declare_inputs(parser, "inputs", "--run", "--policy", "--reward")
    declare_inputs(parser, "--logging", keywords=(EMPIRICAL,))
    declare_inputs(parser, "--propensities", path=_model_path)
    add_rules(parser,
              Rule(("logging",), lambda args: args.estimator not in ("pbm-ips", "dm"),
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
              _needs_logging)
    parser.set_defaults(func=run)

    historical = subparsers.add_parser(
        "historical", help="probabilistic interleaving outcome of two rankers from a log "
        "interleaving two others (importance sampling)",
        description="Estimate the expected outcome E[o] (P(first wins) - P(second wins)) "
        "of probabilistic interleaving of the --target runs from an interleaving log built "
        "by probabilistic interleaving of the --source runs (Hofmann, Whiteson & de Rijke "
        "2012), importance-weighted, self-normalised unless --plain. See docs/online.md.")
    add_param(historical, INPUTS, nargs=1, metavar="LOG",
              doc="interleaving log (impression topic rank docno team "
              "clicked)")
    historical.add_argument("--source", nargs=2, required=True, metavar="RUN",
                            help="the two runs that built the log (run ids = its teams)")
    historical.add_argument("--target", nargs=2, required=True, metavar="RUN",
                            help="the two runs to compare")
    add_param(historical, SOFTMAX_TAU, doc="softmax exponent of the target interleaving")
    add_param(historical, SOURCE_TAU)
    historical.add_argument("--plain", action="store_true",
                            help="plain importance sampling (unbiased) instead of "
                            "self-normalised")
    _interval_options(historical)
    declare_inputs(historical, "inputs", "--source", "--target")
    historical.set_defaults(func=run_historical)


def _interval_options(parser: argparse.ArgumentParser) -> None:
    add_param(parser, SIGNIFICANCE, doc="the interval is at level 1 - alpha")
    add_param(parser, OPE_BOOTSTRAP)
    add_param(parser, RNG_SEED, doc="seed of the bootstrap")
    add_format(parser, TABLE_FORMATS)
    add_output(parser)


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
    check_options(args)
    from ..io.clicklog import read_click_log
    from ..io.pending import Pending
    from ..io.policy import check_probability_table, check_slate_table
    from ..io.sources import as_runs

    # every file checked before pandas and the estimators are imported
    log = read_click_log(args.inputs[0])
    check = check_slate_table if args.estimator in SLATE else check_probability_table
    policy = check(args.policy) if args.policy else as_runs(distinct_runs([args.run]))[0]
    logging = args.logging
    if logging is not None and logging != EMPIRICAL:
        logging = check(logging)
    given = (policy, logging, _propensities(args.propensities), _reward(args.reward))
    built = [read.build() if isinstance(read, Pending) else read for read in given]
    from ..online.counterfactual import counterfactual
    from .outputs import write_text

    result = counterfactual(log, built[0], estimator=args.estimator,
                            logging=built[1], propensities=built[2],
                            reward=built[3], clip=args.clip,
                            switch_tau=args.switch_tau,
                            confidence_level=1 - args.alpha, bootstrap=args.bootstrap,
                            rng=args.seed)
    return write_text(args, result.format(args.fmt) + "\n")


def run_historical(args: argparse.Namespace) -> int:
    """``online historical``: the target pair's expected outcome from the source log."""
    from ..io.interleaving_log import read_interleaving_log
    from ..io.sources import as_runs

    # the inputs first: a malformed file is reported before pandas is imported
    log = read_interleaving_log(args.inputs[0])
    source = as_runs(distinct_runs(args.source))
    target = as_runs(distinct_runs(args.target))
    from ..online.historical import historical_interleaving
    from .outputs import write_text

    result = historical_interleaving(log, list(source), list(target),
                                     tau=args.tau, source_tau=args.source_tau,
                                     normalise=not args.plain,
                                     confidence_level=1 - args.alpha,
                                     bootstrap=args.bootstrap, rng=args.seed)
    return write_text(args, result.format(args.fmt) + "\n")

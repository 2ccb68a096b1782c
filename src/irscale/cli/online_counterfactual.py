"""``irscale online counterfactual``: :func:`irscale.online.counterfactual` (docs/online.md)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..online import params
from .inputs import check_click_model
from .online import CLICK_LOG, add_action, one_of
from .online_interleave import interval
from .options import add_progress, wants_progress
from .runargs import distinct_runs

#: The estimators with a reward model; those whose policy files are slate tables.
MODEL = params.OPE_REWARD_ESTIMATORS
SLATE = params.OPE_SLATE_ESTIMATORS


def add_parser(subparsers) -> None:
    """Register ``online counterfactual``."""
    add_action(
        subparsers, "counterfactual", run, CLICK_LOG,
        one_of(params.TARGET_RUN, params.TARGET_POLICY, required=True), params.OPE_ESTIMATOR,
        params.LOGGING_POLICY, params.EXAMINATION, params.REWARD_MODEL, params.OPE_CLIP,
        params.OPE_SWITCH_TAU, params.OPE_SHRINKAGE,
        *interval(params.OPE_BOOTSTRAP, "seed of the bootstrap and of hcope's split"),
        add_progress,
        binding=params.COUNTERFACTUAL,
        example="cf.log --run a.run --logging uniform.txt --bootstrap 20 --seed 1",
        help="off-policy estimate of a ranking policy's expected clicks per session from a "
        "click log (IPS, SNIPS, DM, DR, Switch-DR, DRos, SNDR, position-based IPS, slate IPS and "
        "their self-normalised forms, Cascade-DR), or HCOPE's lower bound")


def _propensities(value: str | None) -> object:
    """γ from a comma-separated list, or a click model's JSON (checked, built later:
    :class:`~irscale.io.pending.Pending`): a file unless its domain reads a list of numbers
    (:class:`~irscale.core.params.InputFiles`)."""
    if value is None:
        return None
    if not params.EXAMINATION.domain.paths(value):
        return [float(v) for v in value.split(",")]
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


def run(args: argparse.Namespace) -> Any:
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
    built: list[Any] = [read.build() if isinstance(read, Pending) else read for read in given]
    from ..online.counterfactual import counterfactual

    return counterfactual(
        log, built[0], estimator=args.estimator, logging=built[1], propensities=built[2],
        reward=built[3], clip=args.clip, switch_tau=args.switch_tau,
        shrinkage=args.shrinkage,
        confidence_level=1 - args.alpha, bootstrap=args.bootstrap, rng=args.seed,
        progress=wants_progress(args))

"""``--ci``, ``--ci-samples``, ``--ci-seed``: the interval of every mean over topics, one
declaration for every command whose tables print means (``eval``, ``eval-many``,
``eval-seeds``, ``compare``; :mod:`irscale.core.mean_intervals`)."""

from __future__ import annotations

import argparse
from typing import Any

from ..core.params import MEAN_INTERVALS, SAMPLES, SEED
from .options import Checked
from .rules import Rule, add_rules


def add_interval_options(parser: argparse.ArgumentParser, what: str, *,
                         formats: str = "every format") -> None:
    """The options of the intervals of ``what`` (a phrase: "every mean", "each system's
    mean and every pair's difference"), printed in ``formats``, and their rule
    (:data:`SAMPLES_RULE`)."""
    group = parser.add_argument_group(f"confidence intervals ({formats})")
    group.add_argument("--ci", choices=MEAN_INTERVALS,
                       help=f"{what} with its 1 - --alpha confidence interval over topics: t "
                       "(Student) or bootstrap (percentile, topics resampled)")
    group.add_argument("--ci-samples", action=Checked, domain=SAMPLES, api="samples",
                       default=10_000, metavar="B",
                       help="bootstrap samples of --ci bootstrap (default 10000)")
    group.add_argument("--ci-seed", action=Checked, domain=SEED, api="rng", metavar="S",
                       help="seed of --ci bootstrap (default: a fresh random seed)")
    add_rules(parser, SAMPLES_RULE)


#: ``--ci-samples`` and ``--ci-seed`` are the bootstrap's.
SAMPLES_RULE = Rule(("ci_samples", "ci_seed"), lambda args: args.ci == "bootstrap",
                    "{options} applies to --ci bootstrap")


def interval_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of the intervals asked for: ``samples`` and ``rng`` (the
    method is ``args.ci``)."""
    return {"samples": args.ci_samples, "rng": args.ci_seed}

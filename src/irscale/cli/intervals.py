"""``--ci``, ``--ci-samples``, ``--ci-seed``: the interval of every mean over topics, one
declaration for every command whose tables print means (``eval``, ``eval-many``,
``eval-seeds``, ``compare``; :mod:`irscale.core.mean_intervals`)."""

from __future__ import annotations

import argparse

from ..core.params import (
    MEAN_INTERVAL,
    MEAN_INTERVALS,
    MEAN_SAMPLES,
    MEAN_SEED,
    SIGNIFICANCE,
)
from .options import add_param
from .rules import Rule, add_rules

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any


def add_interval_options(parser: argparse.ArgumentParser, what: str, *,
                         formats: tuple[str, ...] | None = None, alpha: bool = False,
                         how: str = "over topics: t (Student) or bootstrap (percentile, "
                         "topics resampled)", bound: bool = False) -> None:
    """The options of the intervals of ``what`` (a phrase: "every mean", "each system's
    mean and every pair's difference") and their rules: :data:`SAMPLES_RULE`, and where
    the command has a format without a place for them (trec_eval's), the ``formats``
    that print them; ``alpha``: also ``--alpha`` (a command without one of its own),
    which then applies to ``--ci`` only; ``how``: the intervals' methods, in words;
    ``bound``: those two rules are the binding's of the function that prints the intervals
    (:data:`irscale.evaluation.params.SEED_TABLE`), not stated here."""
    shown = "every format" if formats is None else "--format " + ", ".join(formats)
    group = parser.add_argument_group(f"confidence intervals ({shown})")
    add_param(group, MEAN_INTERVAL, choices=MEAN_INTERVALS,
              doc=f"{what} with its 1 - --alpha confidence interval {how}")
    add_param(group, MEAN_SAMPLES)
    add_param(group, MEAN_SEED)
    if alpha:
        add_param(group, SIGNIFICANCE, doc="1 - the level of the --ci intervals")
    if alpha and not bound:
        add_rules(parser, Rule(("alpha",), lambda args: args.ci is not None,
                               "--alpha sets the level of --ci: give --ci t or bootstrap"))
    if not bound:
        add_rules(parser, SAMPLES_RULE)
    if formats is not None:
        listed = f"{', '.join(formats[:-1])} and {formats[-1]}"
        add_rules(parser, Rule(("ci",), lambda args: args.fmt in formats,
                               f"--ci applies to --format {listed} (trec_eval's layout has "
                               "no place for an interval), not {fmt}"))


def intervals_text(args: argparse.Namespace, result: Any) -> str:
    """``result``'s means with their ``--ci`` intervals (its ``intervals()`` table: run,
    measure, mean, ci_low, ci_high) as ``--format`` (``eval``, ``eval-many``)."""
    from ..stats.protocol import format_table

    frame = result.intervals(args.ci, alpha=args.alpha, **interval_arguments(args))
    return format_table(frame, args.fmt)


#: ``--ci-samples`` and ``--ci-seed`` are the bootstrap's.
SAMPLES_RULE = Rule(("ci_samples", "ci_seed"), lambda args: args.ci == "bootstrap",
                    "{options} applies to --ci bootstrap")


def interval_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of the intervals asked for: ``samples`` and ``rng`` (the
    method is ``args.ci``)."""
    return {"samples": args.ci_samples, "rng": args.ci_seed}

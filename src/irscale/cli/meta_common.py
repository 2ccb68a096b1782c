"""What the analyses of ``irscale meta`` share (each is a module ``meta_<analysis>``,
:mod:`irscale.cli.meta`): their inputs and table options, the check made before anything
heavy is imported, the score matrix and its measures, and the rendering of a table.

Scores come from score-matrix CSV files (``--scores``) or from qrels and runs evaluated
with ``-m MEASURE`` (:mod:`irscale.cli.inputs`). Every analysis prints a table in
``--format``; ``--plot FILE`` writes a PNG or SVG where a plot exists. Options an analysis
would ignore are refused by the rules declared with its options (:mod:`irscale.cli.rules`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..meta.params import SPLIT_REPETITIONS, SPLIT_SIZES
from .inputs import SOURCES_RULE, add_inputs, add_standardise, check_inputs, load_matrix
from .options import (
    DIGITS_RULE,
    Argument,
    add_command,
    add_digits,
    add_format,
    add_output,
    add_progress,
    check_scheduler,
)
from .rules import add_rules, check_options

#: ``--sizes`` and ``--repetitions`` of ``split`` and ``swap``.
SIZES = ((SPLIT_SIZES, {"many": True, "item": "a split size"}), SPLIT_REPETITIONS)
MEASURE_HELP = ("measure (repeatable; default: every measure of the --scores files, one "
                "file per measure)")


def add_analysis(subparsers, name: str, run: Callable[[argparse.Namespace], int],
                 *arguments: Argument, min_runs: int | None = 2, standardise: bool = False,
                 scores: bool = True, systems: bool | None = None,
                 measure_help: str = MEASURE_HELP, aliases: Sequence[str] = (),
                 **declared: Any) -> argparse.ArgumentParser:
    """The analysis ``name`` (:func:`irscale.cli.options.add_command`), also called by its
    ``aliases``: its inputs (``scores``: or ``--scores`` files; ``systems``: and
    ``--systems``, by default with ``scores``), ``--format``, ``--digits``,
    ``--no-progress`` and ``-o`` (and with ``standardise``
    :func:`irscale.cli.inputs.add_standardise`) before its own ``arguments``; ``run`` after
    :func:`check` with ``min_runs``."""
    def common(parser: argparse.ArgumentParser) -> None:
        add_inputs(parser, scores=scores, systems=scores if systems is None else systems,
                   measure_help=measure_help)
        add_format(parser, TABLE_FORMATS)
        add_digits(parser)
        add_progress(parser)
        add_output(parser)
        add_rules(parser, DIGITS_RULE, SOURCES_RULE)

    return add_command(subparsers, name, partial(_checked, run, min_runs), common,
                       *([add_standardise] if standardise else []), *arguments,
                       aliases=aliases, **declared)


def _checked(run: Callable[[argparse.Namespace], int], min_runs: int | None,
             args: argparse.Namespace) -> int:
    """``run(args)`` after :func:`check`."""
    check(args, min_runs=min_runs)
    return run(args)


def check(args: argparse.Namespace, *, min_runs: int | None = 2) -> None:
    """Every option of the analysis, before anything heavy is imported: the scheduler, the
    rules of the options, then the inputs with ``min_runs`` runs at least (None: the
    analysis reads no QRELS RUN... or ``--scores``, or checks them itself)."""
    check_scheduler(args)
    check_options(args)
    if min_runs is not None:
        check_inputs(args, min_runs=min_runs)


def measure_names(matrix, args: argparse.Namespace) -> list[str]:
    """The ``-m`` measures, else every measure of the matrix."""
    return list(args.measures or matrix.measures)


def one_measure(args: argparse.Namespace, what: str):
    """The one-measure score matrix an analysis of a single measure needs."""
    matrix = load_matrix(args)
    names = measure_names(matrix, args)
    if len(names) != 1:
        raise ParameterError(f"{what} studies one measure: choose one with -m ({names})")
    return matrix.measure(names[0])


def render(frame, args: argparse.Namespace, title: str | None = None) -> str:
    """``frame`` in ``--format`` with ``--digits``; the title for tables a person reads."""
    from ..meta.common import format_frame

    return format_frame(frame, args.fmt, digits=args.digits,
                        title=None if args.fmt in ("csv", "json") else title)


def resampling_options(args: argparse.Namespace, procedures: Sequence[str]
                       ) -> dict[str, dict[str, object]]:
    """``-B/--samples``, given to every resampling procedure among ``procedures`` (none
    without the option): the ``options`` of :func:`irscale.meta.split_study` and
    :func:`irscale.meta.simulation_study`."""
    from ..stats.names import resampling_procedures

    if args.samples is None:
        return {}
    return {name: {"samples": args.samples} for name in resampling_procedures(procedures)}


def given_contributors(args: argparse.Namespace) -> dict[str, str] | None:
    """The runs' contributors of ``--contributors`` (``meta loo``, ``meta pool-bias``,
    ``pool simulate``), or None without it."""
    if args.contributors is None:
        return None
    from ..io.contributors import read_contributors

    return read_contributors(args.contributors)

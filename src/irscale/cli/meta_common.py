"""The runner of the analyses of ``irscale meta`` (:mod:`irscale.cli.meta`) and what they
share; docs/meta.md."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..core.params import TABLE_DIGITS
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..meta.params import SPLIT_REPETITIONS, SPLIT_SIZES
from .common_params import PLOT
from .inputs import SOURCES_RULE, add_inputs, add_standardise, check_inputs, load_matrix
from .options import (
    DIGITS_RULE,
    Argument,
    add_command,
    add_format,
    add_output,
    add_param,
    add_progress,
    check_scheduler,
    declare,
    described,
)
from .rules import Rule, add_rules

#: ``--sizes`` and ``--repetitions`` of ``split`` and ``swap``.
SIZES = ((SPLIT_SIZES, {"many": True, "item": "a split size"}), SPLIT_REPETITIONS)
MEASURE_HELP = ("measure (repeatable; default: every measure of the --scores files, one "
                "file per measure)")
#: An analysis: what it writes to ``-o`` (:func:`irscale.cli.outputs.write_outputs`).
Run = Callable[[argparse.Namespace], Any]


def add_analysis(subparsers, name: str, run: Run, *arguments: Argument,
                 min_runs: int | None = 2, inputs: bool = True, standardise: bool = False,
                 scores: bool = True, systems: bool | None = None,
                 measure_help: str = MEASURE_HELP, aliases: Sequence[str] = (),
                 **declared: Any) -> argparse.ArgumentParser | None:
    """The analysis ``name`` (:func:`irscale.cli.options.add_command`, also called by its
    ``aliases``): with ``inputs`` its inputs (``scores``: or ``--scores`` files;
    ``systems``: and ``--systems``), ``--format``, ``--digits``, with ``inputs``
    ``--no-progress``, ``-o`` (with ``standardise`` :func:`irscale.cli.inputs.add_standardise`),
    then its own ``arguments``. ``run`` after ``--scheduler`` and the inputs with ``min_runs`` runs
    at least are checked (None: ``run`` checks them); described by its help and docs/meta.md
    unless ``declared`` says otherwise."""
    def common(parser: argparse.ArgumentParser) -> None:
        if inputs:
            add_inputs(parser, scores=scores, systems=scores if systems is None else systems,
                       measure_help=measure_help)
        add_format(parser, TABLE_FORMATS)
        add_param(parser, TABLE_DIGITS)
        if inputs:
            add_progress(parser)
        add_output(parser)
        add_rules(parser, DIGITS_RULE, *([SOURCES_RULE] if inputs else []))

    declared.setdefault("description", described(declared["help"], "docs/meta.md"))
    return add_command(subparsers, name, partial(_run, run, min_runs), common,
                       *([add_standardise] if standardise else []), *arguments,
                       aliases=aliases, **declared)


def _run(run: Run, min_runs: int | None, args: argparse.Namespace) -> Any:
    """``run(args)`` after the checks of :func:`add_analysis`: what it returned."""
    check_scheduler(args)
    if min_runs is not None:
        check_inputs(args, min_runs=min_runs)
    return run(args)


#: An analysis declared (:func:`irscale.cli.options.declare`) for :func:`add_analysis`.
analysis = partial(declare, add_analysis)


def add_plot(doc: str) -> Callable[[argparse.ArgumentParser], None]:
    """``--plot FILE`` with its ``doc``, a plot the call writes."""
    def build(parser: argparse.ArgumentParser) -> None:
        add_param(parser, PLOT, doc=doc)
    return build


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
    """``-B/--samples`` for every resampling procedure among ``procedures`` (none without
    it): the ``options`` of :func:`irscale.meta.split_study` and ``simulation_study``."""
    from ..stats.names import resampling_procedures

    if args.samples is None:
        return {}
    return {name: {"samples": args.samples} for name in resampling_procedures(procedures)}


#: ``--contributor-pattern`` names the runs' contributors where no ``--contributors`` file
#: does (``meta loo``, ``pool simulate``).
CONTRIBUTOR_PATTERN_RULE = Rule(("contributor_pattern",), lambda args: args.contributors is None,
                                "--contributor-pattern applies without --contributors (the "
                                "file names every run's contributor)")


def shard_scores(path: str) -> Any:
    """The topics × runs × shards scores of a ``--shard-scores`` file (``compare``, ``meta
    split``): :class:`irscale.stats.ShardScores`, the file read before the statistics are
    imported."""
    from ..io.scores_csv import read_shard_table

    read = read_shard_table(path)
    from ..stats import ShardScores

    return ShardScores(read.values, read.topics, read.systems, read.shards, read.lines)


def given_contributors(args: argparse.Namespace) -> dict[str, str] | None:
    """The runs' contributors of ``--contributors`` (``meta loo``, ``meta pool-bias``,
    ``pool simulate``), or None without it."""
    if args.contributors is None:
        return None
    from ..io.contributors import read_contributors

    return read_contributors(args.contributors)

"""``irscale eval-seeds``: systems given as several runs (random seeds, folds), each system's
mean and spread across its runs (:mod:`irscale.stats.seeds`; usage: ``docs/stats.md``)."""

from __future__ import annotations

import argparse

from ..core.params import RELEVANCE
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from .common_params import MEASURES, QRELS
from .intervals import add_interval_options, interval_arguments
from .options import DIGITS_RULE, add_digits, add_format, add_output, add_param
from .outputs import declare_inputs, declare_outputs
from .rules import Rule, add_rules, check_options


def add_parser(subparsers) -> None:
    """Register ``irscale eval-seeds``."""
    parser = subparsers.add_parser(
        "eval-seeds", help="systems of several runs (seeds, folds): mean and spread",
        description="Evaluate systems given as several runs each (random seeds of a neural "
        "ranker, cross-validation folds): every system's mean of its runs' means and their "
        "spread (sd, min, max) across runs; --shard-scores FILE writes the per-topic values "
        "as replicates for 'irscale compare --shard-scores FILE --test bootstrap-anova', "
        "which compares the systems with the seed variance in the model.")
    add_param(parser, QRELS, doc="qrels file")
    parser.add_argument("--system", dest="systems", action="append", required=True,
                        metavar="NAME=RUNS",
                        help="a system and its runs: a folder, a glob pattern (quoted) or "
                        "comma-separated run files (repeatable, one per system)")
    add_param(parser, MEASURES, action="append", required=True,
              metavar="MEASURE", doc="measure with per-topic values (repeatable)")
    add_param(parser, RELEVANCE)
    parser.add_argument("--runs", action="store_true",
                        help="print every run's mean instead of the systems' table")
    parser.add_argument("--pairs", action="store_true",
                        help="with --ci: print every pair of systems' difference of means "
                        "with its interval over topics and both systems' runs instead")
    parser.add_argument("--shard-scores", metavar="FILE",
                        help="also write the per-topic values of the one -m measure as the "
                        "CSV topic,run,shard,value (systems as runs, their runs as shards)")
    add_interval_options(parser, "each system's mean", alpha=True,
                         how="over topics and its runs, the seed variance inside: t "
                         "(two-way mean squares, Satterthwaite's df) or bootstrap "
                         "(percentile, topics and runs resampled)")
    add_format(parser, TABLE_FORMATS)
    add_digits(parser)
    add_output(parser)
    declare_inputs(parser, "qrels")
    declare_outputs(parser, "--shard-scores")
    add_rules(parser, DIGITS_RULE, _systems,
              Rule(("shard_scores",), lambda args: len(args.measures or ()) == 1,
                   "--shard-scores writes the values of one measure: give one -m"),
              Rule(("ci",), lambda args: not args.runs, "--ci gives the systems' intervals "
                   "(over topics and runs): not with --runs"),
              Rule(("pairs",), lambda args: args.ci is not None and not args.runs,
                   "--pairs prints the differences with their intervals: give --ci t or "
                   "bootstrap (and not --runs)"))
    parser.set_defaults(func=run)


def _systems(args: argparse.Namespace) -> None:
    """Every ``--system`` is ``NAME=RUNS``, each name once."""
    names = []
    for text in args.systems or ():
        name, sep, runs = text.partition("=")
        if not sep or not name.strip() or not runs.strip():
            raise ParameterError(f"--system must be NAME=RUNS (a folder, a glob pattern or "
                                 f"comma-separated run files), got {text!r}")
        names.append(name.strip())
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ParameterError(f"--system names {repeated} twice")


def _runs_of(spec: str) -> str | list[str]:
    """A folder or glob pattern as it is; comma-separated files as a list."""
    return [part.strip() for part in spec.split(",")] if "," in spec else spec.strip()


def run(args: argparse.Namespace) -> int:
    """``irscale eval-seeds``: the systems' table (or every run's), and the replicates."""
    check_options(args)
    from ..io.files import atomic_output
    from ..stats.seeds import evaluate_seeds
    from .outputs import write_text

    systems = {}
    for text in args.systems:
        name, _, runs = text.partition("=")
        systems[name.strip()] = _runs_of(runs)
    result = evaluate_seeds(args.qrels, systems, args.measures,
                            relevance_level=args.relevance_level)
    text = result.format(args.fmt, digits=args.digits, runs=args.runs, pairs=args.pairs,
                         interval=args.ci,
                         alpha=args.alpha, **interval_arguments(args)).rstrip("\n") + "\n"
    if args.shard_scores is not None:
        with atomic_output(args.shard_scores, "w", force=args.force) as stream:
            stream.write(result.shard_table())
    return write_text(args, text)

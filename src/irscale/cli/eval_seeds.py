"""``irscale eval-seeds``: systems given as several runs (random seeds, folds), each system's
mean and spread across its runs (:mod:`irscale.stats.seeds`; usage: ``docs/stats.md``)."""

from __future__ import annotations

import argparse

from ..core.params import TABLE_DIGITS, InputFiles, OutputPath, Param
from ..evaluation.params import EVALUATE_SEEDS, EVERY_RUN, PAIRS, SEED_TABLE
from ..io.formats import TABLE_FORMATS
from .common_params import FORMAT, MEASURES, QRELS
from .intervals import add_interval_options, interval_arguments
from .main import SUBCOMMANDS
from .options import DIGITS_RULE, add_command, add_output
from .outputs import Done, Output
from .rules import Rule, spec_names
from .runargs import add_trec_eval_options

#: ``--system NAME=RUNS`` (repeatable): a system and its runs.
SYSTEM = Param("systems", InputFiles(named=True, lists=True), None, "a system and its "
               "runs: a folder, a glob pattern (quoted) or comma-separated run files "
               "(repeatable, one per system)", ("--system",), "NAME=RUNS")
#: ``--shard-scores FILE``: the per-topic values as replicates.
SHARD_SCORES = Param("shard_scores", OutputPath(), None, "also write the per-topic values of the "
                     "one -m measure as the CSV topic,run,shard,value (systems as runs, "
                     "their runs as shards; a system of fewer runs leaves the others' "
                     "empty: compare them with --empty missing)", ("--shard-scores",), "FILE")


def add_parser(subparsers) -> None:
    """Register ``irscale eval-seeds``."""
    add_command(
        subparsers, "eval-seeds", run, (QRELS, {"doc": "qrels file"}),
        (SYSTEM, {"action": "append", "required": True}),
        (MEASURES, {"action": "append", "required": True,
                    "doc": "measure with per-topic values (repeatable)"}),
        lambda p: add_trec_eval_options(p, leave_out=("complete",)),  # -c: always
        EVERY_RUN, PAIRS, SHARD_SCORES,
        lambda p: add_interval_options(p, "each system's mean", alpha=True, bound=True,
                                       how="over topics and its runs, the seed variance "
                                       "inside: t (two-way mean squares, Satterthwaite's df) "
                                       "or bootstrap (percentile, topics and runs "
                                       "resampled)"),
        (FORMAT, {"choices": TABLE_FORMATS}),
        TABLE_DIGITS, add_output,
        rules=(DIGITS_RULE, _systems,
               Rule(("shard_scores",), lambda args: len(args.measures or ()) == 1,
                    "--shard-scores writes the values of one measure: give one -m")),
        binding=(EVALUATE_SEEDS, SEED_TABLE),
        example="qrels.txt --system A=a.run,b.run -m map",
        help=SUBCOMMANDS["eval-seeds"],
        description="Every system's mean of its runs' means and their spread across runs "
        "(trec_eval's options as irscale eval; a topic a run lacks counts 0, as -c); "
        "--shard-scores FILE feeds 'irscale compare --shard-scores FILE --test "
        "bootstrap-anova'. See docs/stats.md.")


def _systems(args: argparse.Namespace) -> None:
    """Every ``--system`` is ``NAME=RUNS``, each name once."""
    spec_names(args.systems or (), SYSTEM, "NAME=RUNS (a folder, a glob pattern or "
               "comma-separated run files)")


def run(args: argparse.Namespace) -> Done:
    """``irscale eval-seeds``: the systems' table (or every run's), and the replicates."""
    from ..io.sources import as_qrels, as_runs
    from .eval_many import TREC_EVAL_DESTS

    # the inputs first: a malformed file is reported before the statistics are imported
    qrels = as_qrels(args.qrels)
    systems = {}
    for text in args.systems:  # a folder or glob pattern as it is; files as a list
        name, paths = SYSTEM.domain.split(text)
        systems[name.strip()] = as_runs(paths if len(paths) > 1 else paths[0])
    trec = {name: getattr(args, dest) for name, dest in TREC_EVAL_DESTS.items()
            if name != "complete"}  # every qrels topic counts (trec_eval's -c) in any case
    from ..stats.seeds import evaluate_seeds

    result = evaluate_seeds(qrels, systems, args.measures, **trec)
    side = [] if args.shard_scores is None else [Output(result.shard_table(),
                                                        args.shard_scores)]
    text = result.format(args.fmt, digits=args.digits, runs=args.runs, pairs=args.pairs,
                         interval=args.ci, alpha=args.alpha, **interval_arguments(args))
    return [*side, Output(text.rstrip("\n") + "\n")]

"""``irscale meta scales``: measures against their interval-scaled versions."""

from __future__ import annotations

import argparse
import os

from ..core.params import SIGNIFICANCE, OutputPath, Param
from ..meta.params import (
    SCALE_COLLECTION,
    SCALE_LENGTHS,
    SCALE_MEASURES,
    SCALE_REPORT,
    SCALES_TABLE,
    TABLE_CUTOFF,
)
from .inputs import diversity_inputs, qrels_and_runs
from .meta_common import add_analysis
from .options import add_ties, wants_progress
from .outputs import Done, Output, plot_output
from .rules import Default, Rule
from .runargs import read_inputs

#: ``meta scales --plot-dir``: the scatter plots of each measure against its ranked version.
PLOT_DIR = Param("plot_dir", OutputPath("folder"), None, "write a scatter of each measure vs its "
                 "ranked version (PNG) to DIR", ("--plot-dir",), "DIR", unset="no plots")


def add_parser(subparsers) -> None:
    """``meta scales``."""
    add_analysis(
        subparsers, "scales", run_scales,
        SCALE_LENGTHS,
        (SCALES_TABLE, {"choices": SCALES_TABLE.domain.names}), TABLE_CUTOFF, SCALE_COLLECTION,
        (SIGNIFICANCE, {"doc": "significance level of tables 5, 6 and invariants"}),
        lambda p: add_ties(p, phi=True), PLOT_DIR, scores=False,
        example="qrels.txt a.run b.run c.run -m P -m AP --cutoffs 3",
        measure_help="measure (repeatable; default: the eleven of Ferrante, Ferro & Fuhr "
        "2021: " + ", ".join(SCALE_MEASURES) + ")",
        help="measures vs their interval-scaled versions (Ferrante, Ferro & Fuhr 2021, Tables "
        "2, 4, 5, 6)", binding=SCALE_REPORT,
        rules=(Default("measures", lambda args: list(SCALE_MEASURES)),
               Rule(("alpha",), lambda args: args.table not in ("2", "4"), "--alpha applies "
                    "to the significance tables (5, 6, invariants, all), not to --table "
                    "{table}"),
               Rule(("table_n",), lambda args: args.table in ("all", "4", "5", "6"),
                    "--table-cutoff applies to tables 4, 5 and 6 (and all), not to --table "
                    "{table}"),
               Rule(("table_n",), lambda args: args.table_n in args.cutoffs,
                    "--table-cutoff {table_n} is not one of the --cutoffs {cutoffs}")))


def run_scales(args: argparse.Namespace) -> Done:
    """``meta scales``: Tables 2, 4, 5 and 6 of Ferrante, Ferro & Fuhr (2021)."""
    from .. import meta

    if diversity_inputs(args):  # refused before the qrels are read, with the reason
        from ..scales.measures import scale_measure

        scale_measure(args.measures[0])
    keep_rank = args.ties == "rank-column"
    # read before the analyses are imported: a malformed file is reported without scipy
    qrels, runs = read_inputs(*qrels_and_runs(args, keep_rank=keep_rank), keep_rank=keep_rank)
    # Tables 2 and 4 are rank correlations: no significance test is run for them (one
    # that cannot be, e.g. an ANOVA of identical runs, refused them too)
    tests = {"tests": ()} if args.table in ("2", "4") else {}
    report = meta.scale_report(qrels, runs, args.measures, args.cutoffs, **tests,
                               collection=args.collection, alpha=args.alpha,
                               ties=args.phi_ties, tie_policy=args.ties,
                               allow_empty=args.allow_empty,
                               progress=wants_progress(args))
    text = report.format(args.table, args.fmt, N=args.table_n, digits=args.digits)
    if not args.plot_dir:
        return text
    from ..io.files import check_output

    effect = report.effects[-1]
    plots = [(os.path.join(args.plot_dir, f"{effect.label}_{measure}.png"), measure, ranked)
             for measure, ranked in effect.pairs]
    if os.path.isdir(args.plot_dir):  # every plot checked before the first is drawn
        for path, _, _ in plots:
            check_output(path, force=args.force, option="--plot-dir")
    return [*(plot_output(meta.plot_measure_vs_ranked(effect.matrix, measure, ranked), path,
                          folder=args.plot_dir) for path, measure, ranked in plots),
            Output(text)]

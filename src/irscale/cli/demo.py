"""``irscale demo``: generate an example collection and evaluate it end to end. All or
nothing: the files are written to a staging folder, renamed to ``--out`` only once the
report has been written and flushed (:func:`irscale.io.files.staged_folder`)."""

from __future__ import annotations

import argparse
import os
import sys

from ..core.params import DEMO_TOPIC_COUNT, RNG_SEED, OutputPath, Param
from ..io.files import check_new_folder, staged_folder
from .main import SUBCOMMANDS
from .options import add_command

#: ``--out DIR``: the folder of the example files.
OUT = Param("out", OutputPath("folder"), "irscale-demo", "new or empty folder for the example "
            "files", ("--out",), "OUT")


def add_parser(subparsers) -> None:
    """Register ``irscale demo``."""
    add_command(subparsers, "demo", run, OUT, DEMO_TOPIC_COUNT, (RNG_SEED, {"default": 0}),
                help=SUBCOMMANDS["demo"],
                description="Write a synthetic graded test collection (qrels and five runs) "
                "to a folder and evaluate it: a summary table, a two-way ANOVA with "
                "topic-blocked Tukey HSD on AP, and trec_eval's output of one run.")


def run(args: argparse.Namespace) -> int:
    """``irscale demo``: the example collection, evaluated end to end."""
    check_new_folder(args.out, "--out")
    from ..datasets import synthetic_collection
    from ..evaluation import evaluate
    from ..io.output import markdown_table, trec_text
    from ..stats import anova, tukey_hsd

    collection = synthetic_collection(n_topics=args.topics, seed=args.seed)
    # all or nothing: the files are evaluated in the staging folder, the report goes to
    # standard output, and only when that has been written and flushed does the folder
    # take its name (the report names the files by their final paths)
    with staged_folder(args.out, "--out") as staging:
        staged_qrels, staged_runs = collection.write(staging)
        qrels_path = os.path.join(args.out, "qrels.txt")
        run_paths = [os.path.join(args.out, os.path.basename(p)) for p in staged_runs]
        out = sys.stdout
        out.write(f"Example collection written to {args.out}/ ({len(run_paths)} runs, "
                  f"{args.topics} topics)\n\n")
        summary = evaluate(staged_qrels, staged_runs, ["AP", "P@10", "RR", "Rprec", "bpref",
                                                       "nDCG@10", "num_rel_ret"])
        out.write("Summary over topics (trec_eval semantics):\n\n")
        out.write(markdown_table(summary))
        out.write(f"\n$ irscale compare {qrels_path} {args.out}/*.run -m AP --test "
                  "tukey-hsd\n")
        scores = summary.to_matrix()
        out.write(anova(scores, measure="AP").format("text") + "\n")
        out.write(tukey_hsd(scores, measure="AP").format("text"))
        out.write(f"\n$ irscale eval {qrels_path} {run_paths[-1]}\n")
        official = evaluate(staged_qrels, staged_runs[-1:], ["official"])
        out.write(trec_text(official).decode())
        out.flush()
    return 0

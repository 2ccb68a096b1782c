"""``irscale demo``: generate an example collection and evaluate it end to end."""

from __future__ import annotations

import argparse
import sys


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="generate example data and run an evaluation on it",
        description="Write a synthetic graded test collection (qrels and five runs) to a "
        "folder and evaluate it: a summary table, a two-way ANOVA with topic-blocked Tukey "
        "HSD on AP, and trec_eval's output of one run.",
    )
    parser.add_argument("--out", default="irscale-demo", help="folder for the example files")
    parser.add_argument("--topics", type=int, default=50, help="number of topics (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..datasets import synthetic_collection
    from ..evaluation import evaluate
    from ..io.output import markdown_table, trec_text
    from ..stats import anova, tukey_hsd

    collection = synthetic_collection(n_topics=args.topics, seed=args.seed)
    qrels_path, run_paths = collection.write(args.out)
    out = sys.stdout
    out.write(f"Example collection written to {args.out}/ ({len(run_paths)} runs, "
              f"{args.topics} topics)\n\n")
    summary = evaluate(qrels_path, run_paths, ["AP", "P@10", "RR", "Rprec", "bpref",
                                               "nDCG@10", "num_rel_ret"])
    out.write("Summary over topics (trec_eval semantics):\n\n")
    out.write(markdown_table(summary))
    out.write(f"\n$ irscale compare {qrels_path} {args.out}/*.run -m AP --test tukey-hsd\n")
    scores = summary.to_matrix()
    out.write(anova(scores, measure="AP").format("text") + "\n")
    out.write(tukey_hsd(scores, measure="AP").format("text"))
    out.write(f"\n$ irscale eval {qrels_path} {run_paths[-1]}\n")
    official = evaluate(qrels_path, run_paths[-1:], ["official"])
    out.write(trec_text(official).decode())
    return 0

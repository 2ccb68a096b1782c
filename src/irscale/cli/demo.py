"""``irscale demo``: generate an example collection and evaluate it end to end."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from ..errors import FileAccessError, OutputExistsError, ParameterError
from ..io.files import current_umask
from .outputs import check_output_folder


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="generate example data and run an evaluation on it",
        description="Write a synthetic graded test collection (qrels and five runs) to a "
        "folder and evaluate it: a summary table, a two-way ANOVA with topic-blocked Tukey "
        "HSD on AP, and trec_eval's output of one run.",
    )
    parser.add_argument("--out", default="irscale-demo",
                        help="new or empty folder for the example files (default irscale-demo)")
    parser.add_argument("--topics", type=int, default=50, help="number of topics (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.set_defaults(func=run)


def _check_folder(path: str) -> None:
    """``--out`` must be a new or empty folder whose parent exists: nothing is overwritten."""
    folder = Path(path)
    if folder.exists():
        if not folder.is_dir():
            raise FileAccessError(f"--out {path}: exists and is not a folder", path=path)
        if any(folder.iterdir()):
            raise OutputExistsError(f"--out {path}: folder is not empty; refusing to write "
                                    "into it (choose a new folder)", path=path)
    check_output_folder(path, "--out")


def _write_collection(collection, path: str) -> tuple[str, list[str]]:
    """Write the collection into a temporary folder beside ``path``, renamed to ``path``
    when complete."""
    folder = Path(path)
    staging = tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".part",
                               dir=folder.parent if str(folder.parent) else ".")
    try:
        collection.write(staging)
        os.chmod(staging, 0o777 & ~current_umask())
        os.replace(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    qrels_path = os.path.join(path, "qrels.txt")
    return qrels_path, [os.path.join(path, f"{run.name}.run") for run in collection.runs]


def run(args: argparse.Namespace) -> int:
    from ..datasets import synthetic_collection
    from ..evaluation import evaluate
    from ..io.output import markdown_table, trec_text
    from ..stats import anova, tukey_hsd

    if args.topics < 2:
        raise ParameterError(f"--topics must be at least 2 (the ANOVA needs two), got "
                             f"{args.topics}")
    if args.seed < 0:
        raise ParameterError(f"--seed must be a non-negative integer, got {args.seed}")
    _check_folder(args.out)
    collection = synthetic_collection(n_topics=args.topics, seed=args.seed)
    qrels_path, run_paths = _write_collection(collection, args.out)
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

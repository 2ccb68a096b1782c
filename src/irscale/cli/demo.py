"""``irscale demo``: generate an example collection and evaluate it end to end. All or
nothing: the command returns the folder (:class:`~irscale.cli.outputs.Folder`) and its
report, and the one writer builds the folder in a staging folder, renamed to ``--out``
only once the report has been written and flushed (:func:`irscale.io.folders.
staged_folder`)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterator

from ..core.params import DEMO_TOPIC_COUNT, RNG_SEED, OutputPath, Param
from ..io.folders import check_new_folder
from .main import SUBCOMMANDS
from .options import add_command, add_progress, wants_progress
from .outputs import Folder, Output

#: The steps of the demo's progress: the collection drawn, written, evaluated, tested, and
#: one run evaluated with trec_eval's measures.
STEPS = 5
#: ``--out DIR``: the folder of the example files.
OUT = Param("out", OutputPath("folder"), "irscale-demo", "new or empty folder for the example "
            "files", ("--out",), "OUT")


def add_parser(subparsers) -> None:
    """Register ``irscale demo``."""
    add_command(subparsers, "demo", run, OUT, DEMO_TOPIC_COUNT, (RNG_SEED, {"default": 0}),
                add_progress, help=SUBCOMMANDS["demo"],
                example="--out demo --topics 3",
                description="Write a synthetic graded test collection (qrels and five runs) "
                "to a folder and evaluate it: a summary table, a two-way ANOVA with "
                "topic-blocked Tukey HSD on AP, and trec_eval's output of one run.")


def run(args: argparse.Namespace) -> list[Output]:
    """``irscale demo``: the example collection, evaluated end to end; the progress of its
    :data:`STEPS` steps shown once it takes more than a second (its work grows with
    ``--topics``: about 30 s at 10,000 topics). The folder comes first: the one writer
    fills it (its files written by the collection), then writes the report, which
    evaluates those files, and gives the folder its name after the report."""
    check_new_folder(args.out, "--out")  # refused before numpy is imported
    from ..core.progress import DELAY, progress_reporter
    from ..datasets import synthetic_collection

    report = progress_reporter(wants_progress(args), STEPS, "demo", delay=DELAY)
    report(0)
    collection = synthetic_collection(n_topics=args.topics, seed=args.seed)
    report(1)
    written: list[tuple[str, list[str]]] = []  # the staged paths of the qrels and runs

    def fill(folder: str) -> None:
        written.append(collection.write(folder))
        report(2)

    return [Output(Folder(fill, "--out"), args.out),
            Output(_demo(args, written, report), "-")]


def _demo(args: argparse.Namespace, written: list[tuple[str, list[str]]],
          report: Callable[[int], None]) -> Iterator[str]:
    """The report of :func:`run`, a chunk at a time (the one writer writes and flushes
    each before the next step), evaluating the files in their staging folder
    (``written``, once the folder is filled); it names them by their final paths."""
    from ..evaluation import evaluate
    from ..io.output import markdown_table, trec_text
    from ..stats import anova, tukey_hsd

    staged_qrels, staged_runs = written[0]
    qrels_path = os.path.join(args.out, "qrels.txt")
    run_paths = [os.path.join(args.out, os.path.basename(p)) for p in staged_runs]
    yield (f"Example collection written to {args.out}/ ({len(run_paths)} runs, "
           f"{args.topics} topics)\n\n")
    summary = evaluate(staged_qrels, staged_runs, ["AP", "P@10", "RR", "Rprec", "bpref",
                                                   "nDCG@10", "num_rel_ret"])
    yield "Summary over topics (trec_eval semantics):\n\n"
    yield markdown_table(summary)
    yield (f"\n$ irscale compare {qrels_path} {args.out}/*.run -m AP --test "
           "tukey-hsd\n")
    report(3)
    scores = summary.to_matrix()
    yield anova(scores, measure="AP").format("text") + "\n"
    yield tukey_hsd(scores, measure="AP").format("text")
    report(4)
    yield f"\n$ irscale eval {qrels_path} {run_paths[-1]}\n"
    official = evaluate(staged_qrels, staged_runs[-1:], ["official"])
    yield trec_text(official).decode()
    report(STEPS)

"""``irscale demo``: generate an example collection and evaluate it end to end.

All or nothing: the files are written to a hidden staging folder beside ``--out`` and
evaluated there; the folder is renamed to ``--out`` only after the report has been written
to standard output and flushed. A failure (a full device, ``> /dev/full``) or ^C removes
the staging folder, so no partial folder is left behind.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..core.params import DEMO_TOPICS, RNG_SEED
from ..errors import FileAccessError, OutputExistsError
from ..io.files import access_error, current_umask, interrupts_held, output_target
from .options import Checked, add_param
from .outputs import declare_outputs


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
    parser.add_argument("--topics", action=Checked, domain=DEMO_TOPICS, default=50,
                        help="number of topics (default 50)")
    add_param(parser, RNG_SEED, default=0)
    declare_outputs(parser, "--out", kind="folder")
    parser.set_defaults(func=run)


def _check_folder(path: str) -> None:
    """``--out`` must be a new or empty folder (its parent exists and is writable: checked
    with every output, :func:`irscale.cli.outputs.check_outputs`): nothing is overwritten."""
    folder = Path(output_target(path))  # a symbolic link stands for its target
    if folder.exists():
        if not folder.is_dir():
            raise FileAccessError(f"--out {path}: exists and is not a folder", path=path)
        if any(folder.iterdir()):
            raise OutputExistsError(f"--out {path}: folder is not empty; refusing to write "
                                    "into it (choose a new folder)", path=path)
        here = Path.cwd().resolve()
        if folder.resolve() in (here, *here.parents):
            raise FileAccessError(f"--out {path}: the current folder (or one above it) "
                                  "cannot be replaced (choose a new folder)", path=path)


def _is_empty_folder(folder: Path) -> bool:
    try:
        return folder.is_dir() and not any(folder.iterdir())
    except OSError:
        return False


@contextlib.contextmanager
def _staged_folder(path: str) -> Iterator[str]:
    """A new hidden folder beside ``path`` to write the example files to.

    It is renamed to ``path`` when the ``with`` block ends without an exception (after the
    block has written and flushed standard output), and removed otherwise: a full device,
    a closed pipe or ^C leave neither ``path`` nor the staging folder behind. A ``path``
    that is a symbolic link stands for its target: the staging folder is made beside the
    target and renamed onto it, and the link stays a link.
    """
    folder = Path(output_target(path))
    staging = None
    try:
        with interrupts_held():  # no ^C between making the folder and knowing its name
            try:
                staging = tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".part",
                                           dir=folder.parent)
            except OSError as error:
                raise access_error(error, path, "write") from None
        yield staging
        with interrupts_held():
            os.chmod(staging, 0o777 & ~current_umask())
            try:
                os.replace(staging, folder)
            except OSError as error:
                if folder.exists() and not _is_empty_folder(folder):
                    raise OutputExistsError(
                        f"--out {path}: appeared or was filled while irscale was writing "
                        "the example files: refusing to replace it", path=path) from None
                raise access_error(error, path, "write") from None
    except BaseException:
        if staging is not None:
            with interrupts_held():
                shutil.rmtree(staging, ignore_errors=True)
        raise


def run(args: argparse.Namespace) -> int:
    _check_folder(args.out)
    from ..datasets import synthetic_collection
    from ..evaluation import evaluate
    from ..io.output import markdown_table, trec_text
    from ..stats import anova, tukey_hsd

    collection = synthetic_collection(n_topics=args.topics, seed=args.seed)
    # all or nothing: the files are evaluated in the staging folder, the report goes to
    # standard output, and only when that has been written and flushed does the folder
    # take its name (the report names the files by their final paths)
    with _staged_folder(args.out) as staging:
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

"""Options shared by the subcommands that read qrels and runs: ``--names`` (how runs are
named) and ``--allow-empty`` (evaluate a run with no topic in common with the qrels)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..errors import ParameterError
from ..io.files import is_stdio
from ..io.naming import NAME_MODES, NameSpec
from .options import ListAction

NAMES_HELP = ("how to name the runs: runid (default: the run id of each file; runs that "
              "share one are named after their files, with a warning), file (the file name "
              "without extension, e.g. bm25.run.gz -> bm25), or one name per run in order: "
              "a,b,c")

ALLOW_EMPTY_HELP = ("evaluate a run that has no topic in common with the qrels (an error "
                    "otherwise, with or without -c: qrels of another collection, or topic ids "
                    "written differently?)")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """``--names`` and ``--allow-empty``."""
    parser.add_argument("--names", action=ListAction, kind="str", keywords=NAME_MODES,
                        default=None, metavar="runid|file|A,B,...", help=NAMES_HELP)
    parser.add_argument("--allow-empty", action="store_true", help=ALLOW_EMPTY_HELP)


def distinct_runs(paths: Sequence[str]) -> Sequence[str]:
    """``paths``, after refusing a run file named twice, under one name or two
    (:func:`~irscale.io.sources.check_distinct`; standard input is one input anyway)."""
    from ..io.sources import check_distinct

    check_distinct(path for path in paths if not is_stdio(path))
    return paths


def named_runs(paths: Sequence[str], names: NameSpec | None, *, keep_rank: bool = False,
               progress: bool = False) -> Sequence[object]:
    """The runs to evaluate: the paths themselves, a folder or glob pattern replaced by its
    run files (:func:`~irscale.io.sources.run_files`), when neither ``--names`` nor
    ``progress`` on a terminal was given (the evaluation reads them, after the qrels, so
    that the qrels' errors come first, naming runs that share a run id after their files,
    as :func:`~irscale.io.trec.read_runs` does), otherwise the runs read here, named as
    ``--names`` says, with a bar of the files read (``progress``). A file named twice,
    under one name or two, is refused (:func:`~irscale.io.sources.check_distinct`)."""
    import sys

    from ..io.sources import expands, run_files

    paths = distinct_runs([file for path in paths
                           for file in (run_files(path) if expands(path) else [path])])
    if names is None and not (progress and sys.stderr.isatty()):
        return paths
    from ..io.sources import read_runs

    return read_runs(list(paths), names=names or "runid", keep_rank=keep_rank,
                     progress=progress)


def check_no_runs_option(args: argparse.Namespace, where: str) -> None:
    """``--names`` / ``--allow-empty`` name and judge runs: refused with score files."""
    given = [option for option, value in (("--names", getattr(args, "names", None)),
                                          ("--allow-empty", getattr(args, "allow_empty", False)))
             if value]
    if given:
        raise ParameterError(f"{' and '.join(given)} appl{'ies' if len(given) == 1 else 'y'} "
                             f"to runs evaluated against qrels, not to {where}")

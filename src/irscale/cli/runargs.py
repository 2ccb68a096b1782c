"""Options shared by the subcommands that read qrels and runs: ``--names`` (how runs are
named) and ``--allow-empty`` (evaluate a run with no topic in common with the qrels)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from ..core.options import (
    MAX_DOCS,
    NONNEGATIVE_LONG,
    NUM_DOCS_IN_COLL,
    POSITIVE_LONG,
    TIE_POLICIES,
)
from ..core.params import RELEVANCE, Param
from ..errors import ParameterError
from ..io.files import is_stdio
from ..io.naming import NAME_MODES, NameSpec
from .common_params import ALLOW_EMPTY, NAMES
from .main import given
from .options import TIE_POLICY, add_option, add_param
from .rules import Rule

#: trec_eval's ``-M``: the documents of each ranking evaluated.
MAX_RETRIEVED = Param("max_docs", POSITIVE_LONG, None, "evaluate only the first N documents "
                      "of each topic", ("-M", "--max-retrieved"), "N", label=MAX_DOCS,
                      unset="every document", dest="max_retrieved")
#: trec_eval's ``-N``: the documents of the collection (0: unknown).
COLLECTION_SIZE = Param("num_docs_in_coll", NONNEGATIVE_LONG, 0, "number of documents in "
                        "the collection (trec_eval -N; 0: unknown)", ("-N", "--num-docs-in-coll"),
                        "N", label=NUM_DOCS_IN_COLL)


def add_names(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *,
              doc: str | None = None, metavar: str | None = None) -> None:
    """``--names``: how the runs are named (:data:`~irscale.cli.common_params.NAMES`, or
    ``doc`` where the default differs)."""
    add_param(parser, NAMES, doc=doc, many=True, unique=False, keywords=NAME_MODES,
              **({"metavar": metavar} if metavar else {}))


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """``--names`` and ``--allow-empty``."""
    add_names(parser)
    add_param(parser, ALLOW_EMPTY)


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


def read_inputs(qrels: str, runs: Sequence[object], *, keep_rank: bool = False
                ) -> tuple[object, list[object]]:
    """The qrels and runs read as the analyses read them (:func:`~irscale.io.sources.as_qrels`,
    then :func:`~irscale.io.sources.as_runs`), for a command to call before it imports its
    analysis: a malformed file is then reported before scipy and the statistics are
    loaded. The analyses take the objects as they are."""
    from ..io.sources import as_qrels, as_runs

    judged = as_qrels(qrels)
    return judged, list(as_runs(runs, keep_rank=keep_rank))


def runs_rule(where: str, holds: Callable[[argparse.Namespace], bool]) -> Rule:
    """``--names`` / ``--allow-empty`` name and judge runs: refused with ``where`` (where
    ``holds`` is false), which reads none."""
    def named(args: argparse.Namespace) -> str:
        """The options given, joined by "and"."""
        return " and ".join(option for option, dest in (("--names", "names"),
                                                        ("--allow-empty", "allow_empty"))
                            if given(args, dest))

    return Rule(("names", "allow_empty"), holds, lambda args: named(args) + " {applies} to "
                f"runs evaluated against qrels, not to {where}")


def add_trec_eval_options(parser: argparse.ArgumentParser, *, trec_eval: bool = False
                          ) -> None:
    """trec_eval's options of how runs are judged and averaged: ``-l``, ``-M``, ``-J``,
    ``-c``, ``-N``, ``--compat`` and ``--ties`` (``irscale eval`` and ``eval-many``);
    ``trec_eval``: ``-l`` is also spelt as trec_eval spells it, ``--level-for-rel``."""
    add_param(parser, RELEVANCE, aliases=("--level-for-rel",) if trec_eval else ())
    add_param(parser, MAX_RETRIEVED)
    parser.add_argument("-J", "--judged-only", action="store_true",
                        help="drop unjudged documents before evaluating (trec_eval -J)")
    parser.add_argument("-c", "--complete", action="store_true",
                        help="average over every qrels topic; missing topics count 0")
    add_param(parser, COLLECTION_SIZE)
    add_option(parser, "--compat", type=int, choices=(9, 10), default=9,
               doc="trec_eval version to reproduce (9 = 9.0.8)")
    add_param(parser, TIE_POLICY, choices=TIE_POLICIES)


def label_files(specs: list[str]) -> dict[str, str]:
    """``["under=task2.qunder"]`` → ``{"under": "task2.qunder"}``."""
    labels: dict[str, str] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise ParameterError(f"--labels takes NAME=FILE, got {spec!r}")
        if name in labels:
            raise ParameterError(f"--labels: label set {name!r} given twice")
        labels[name] = path
    return labels

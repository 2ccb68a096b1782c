"""``irscale compare --collection NAME=QRELS,RUNS ...`` (or ``--collections FILE``): the
same systems compared across several test collections
(:mod:`irscale.stats.across_collections`; usage: ``docs/stats.md``). Each ``--collection``
names a collection, its qrels and its runs, or a manifest names them
(:mod:`irscale.io.manifest`); the systems are matched by run name across collections."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..errors import ParameterError
from ..evaluation.params import COLLECTION
from .options import wants_progress
from .parser import GIVEN
from .rules import Rule, spec_names, words

if TYPE_CHECKING:  # pragma: no cover
    from ..io.manifest import CollectionFiles

#: The options of ``compare`` that apply with ``--collection`` (``dest``), besides it.
APPLY = ("collections", "collections_file", "weights", "measures", "alpha", "samples",
         "seed", "fmt", "digits", "plot", "output", "force", "no_progress", "max_memory")


def across(args: argparse.Namespace) -> bool:
    """Whether the call compares systems across collections (``--collection`` or
    ``--collections``)."""
    return bool(args.collections) or args.collections_file is not None


#: ``--weights`` and ``--max-memory`` apply to the comparisons across collections.
WEIGHTS_RULE = Rule(("weights", "max_memory"), across, "{options} {applies} to the "
                    "comparison across collections (--collection or --collections)")


def check_sources(args: argparse.Namespace) -> None:
    """The collections are given by ``--collection`` (:func:`collection_names`) or by
    ``--collections``, not both."""
    if args.collections and args.collections_file is not None:
        raise ParameterError("give the collections by --collection or by --collections "
                             "FILE, not both")
    if args.collections:
        collection_names(args.collections)


def collection_names(texts: list[str]) -> list[str]:
    """The names of the ``--collection`` specs ``texts``: each ``NAME=QRELS,RUNS``, each
    name once, 2 of them at least (before any file is read)."""
    names = spec_names(texts, COLLECTION, "NAME=QRELS,RUNS (a qrels file, then run files, a "
                       "folder or a glob pattern)", 2)
    if len(names) < 2:
        raise ParameterError("a comparison across collections needs 2 --collection at least")
    return names


def check_collections(args: argparse.Namespace) -> None:
    """With ``--collection`` or ``--collections``: the specs (:func:`check_sources`), one
    ``-m``, and none of ``compare``'s other options (:data:`APPLY`)."""
    if not across(args):
        return
    record = getattr(args, GIVEN)
    others = sorted(record.spelt.get(dest, dest) for dest in record.dests
                    if dest not in APPLY)
    if others:
        raise ParameterError(f"{words(others)} {'applies' if len(others) == 1 else 'apply'} "
                             "to the comparisons of one collection, not with --collection "
                             "(which takes -m, --alpha, --samples, --seed, --weights, --plot, "
                             "--format, --digits, --max-memory and -o)")
    check_sources(args)
    if not args.measures or len(args.measures) != 1:
        raise ParameterError("compare --collection compares one measure: give one -m "
                             "(e.g. -m ndcg_cut.10)")


def collection_files(args: argparse.Namespace) -> dict[str, CollectionFiles]:
    """The files of every collection of ``--collection`` (checked by :func:`check_sources`)
    or of the manifest of ``--collections`` (read here, once)."""
    from ..io.manifest import CollectionFiles, read_collections

    if args.collections_file is not None:
        return read_collections(args.collections_file)
    files = {}
    for text in args.collections:
        name, paths = COLLECTION.domain.split(text)
        files[name.strip()] = CollectionFiles(paths[0], tuple(paths[1:]),
                                              f"--collection {name.strip()}")
    return files


def evaluate_collections(args: argparse.Namespace, measures: list[str]
                         ) -> tuple[dict[str, object], list[str]]:
    """``({name: ScoreMatrix}, files)``: the collections of ``args``
    (:func:`collection_files`) evaluated with ``measures``
    (:func:`irscale.evaluation.suite.evaluate_collections`: its progress, and its memory
    within ``--max-memory`` where the command takes it), and every file they name (the
    manifest first: the provenance)."""
    from ..evaluation.suite import evaluate_collections as evaluate

    files = collection_files(args)
    named = [*([args.collections_file] if args.collections_file is not None else []),
             *(path for given in files.values() for path in (given.qrels, *given.runs))]
    return dict(evaluate(files, measures, progress=wants_progress(args),
                         max_memory=getattr(args, "max_memory", None))), named


def compare_collections(args: argparse.Namespace):
    """The comparison across the collections of ``--collection`` (checked by
    :func:`check_collections`): :func:`evaluate_collections`, then
    :func:`irscale.stats.across_collections.across_collections`."""
    from ..errors import AlignmentError
    from .inputs import check_measure_names

    check_measure_names(args.measures)
    matrices, _ = evaluate_collections(args, args.measures)
    from ..stats.across_collections import across_collections

    try:
        return across_collections(matrices, alpha=args.alpha, samples=args.samples or 1000,
                                  rng=args.seed, weights=args.weights,
                                  progress=wants_progress(args), max_memory=args.max_memory)
    except AlignmentError as error:
        where = "--collection" if args.collections else f"--collections {args.collections_file}"
        raise AlignmentError(f"{where}: {error}") from None

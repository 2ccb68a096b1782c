"""``irscale compare --collection NAME=QRELS,RUNS ...``: the same systems compared across
several test collections (:mod:`irscale.stats.across_collections`; usage:
``docs/stats.md``). Each ``--collection`` names a collection, its qrels and its runs; the
systems are matched by run name across collections."""

from __future__ import annotations

import argparse
import warnings

from ..core.params import InputFiles, Param
from ..errors import ParameterError
from .options import wants_progress
from .parser import GIVEN
from .rules import words

#: ``--collection NAME=QRELS,RUNS`` (repeatable): a collection, its qrels and its runs.
COLLECTION = Param("collections", InputFiles(named=True, lists=True), None, "a collection: "
                   "its name, its qrels file, then its runs (comma-separated run files, a "
                   "folder or a glob pattern, quoted); repeatable, 2 at least, every "
                   "collection with runs of the same systems (matched by run name): "
                   "compares the systems across the collections instead",
                   ("--collection",), "NAME=QRELS,RUNS")
#: The options of ``compare`` that apply with ``--collection`` (``dest``), besides it.
APPLY = ("collections", "measures", "alpha", "samples", "seed", "fmt", "digits", "plot",
         "output", "force", "no_progress")


def collection_names(texts: list[str]) -> list[str]:
    """The names of the ``--collection`` specs ``texts``: each ``NAME=QRELS,RUNS``, each
    name once, 2 of them at least (before any file is read)."""
    names = []
    for text in texts:
        name, paths = COLLECTION.domain.split(text)
        if "=" not in text or not name.strip() or len(paths) < 2:
            raise ParameterError(f"--collection must be NAME=QRELS,RUNS (a qrels file, then "
                                 f"run files, a folder or a glob pattern), got {text!r}")
        names.append(name.strip())
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ParameterError(f"--collection names {repeated} twice")
    if len(names) < 2:
        raise ParameterError("a comparison across collections needs 2 --collection at least")
    return names


def collection_paths(texts: list[str]) -> list[str]:
    """Every file named by the ``--collection`` specs ``texts`` (their provenance)."""
    return [path for text in texts for path in COLLECTION.domain.split(text)[1]]


def check_collections(args: argparse.Namespace) -> None:
    """With ``--collection``: the specs (:func:`collection_names`), one ``-m``, and none of
    ``compare``'s other options (:data:`APPLY`)."""
    if not args.collections:
        return
    record = getattr(args, GIVEN)
    others = sorted(record.spelt.get(dest, dest) for dest in record.dests
                    if dest not in APPLY)
    if others:
        raise ParameterError(f"{words(others)} {'applies' if len(others) == 1 else 'apply'} "
                             "to the comparisons of one collection, not with --collection "
                             "(which takes -m, --alpha, --samples, --seed, --plot, --format, "
                             "--digits and -o)")
    collection_names(args.collections)
    if not args.measures or len(args.measures) != 1:
        raise ParameterError("compare --collection compares one measure: give one -m "
                             "(e.g. -m ndcg_cut.10)")


def evaluate_collections(texts: list[str], measures: list[str]) -> dict[str, object]:
    """``{name: ScoreMatrix}``: the runs of every ``--collection`` spec of ``texts``
    evaluated with ``measures`` against its qrels, every file read first, collection by
    collection; the errors and warnings of each name it."""
    from ..errors import AlignmentError, InputError
    from ..evaluation import evaluate_matrix
    from ..io.sources import as_qrels, as_runs

    read = {}
    for text in texts:  # every file read before any evaluation
        name, paths = COLLECTION.domain.split(text)
        runs = paths[1:] if len(paths) > 2 else paths[1]  # a folder or pattern as it is
        read[name.strip()] = as_qrels(paths[0]), as_runs(runs)
    matrices: dict[str, object] = {}
    for name, (qrels, runs) in read.items():
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                matrices[name] = evaluate_matrix(qrels, runs, measures)
        except (AlignmentError, InputError) as error:
            raise type(error)(f"--collection {name}: {error}") from None
        for warning in caught:
            warnings.warn(f"--collection {name}: {warning.message}", warning.category,
                          stacklevel=1)
    return matrices


def compare_collections(args: argparse.Namespace):
    """The comparison across the collections of ``--collection`` (checked by
    :func:`check_collections`): :func:`evaluate_collections`, then
    :func:`irscale.stats.across_collections.across_collections`."""
    from ..errors import AlignmentError
    from .inputs import check_measure_names

    check_measure_names(args.measures)
    matrices = evaluate_collections(args.collections, args.measures)
    from ..stats.across_collections import across_collections

    try:
        return across_collections(matrices, alpha=args.alpha, samples=args.samples or 1000,
                                  rng=args.seed, progress=wants_progress(args))
    except AlignmentError as error:
        raise AlignmentError(f"--collection: {error}") from None

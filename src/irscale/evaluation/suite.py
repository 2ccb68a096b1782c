"""The collections of a suite evaluated from their files (``irscale compare --collection``,
``--collections FILE``; :func:`irscale.stats.across_collections.across_collections` given a
manifest): collection by collection, its files read and its runs evaluated against its
qrels, only its score matrix kept (the files of every collection were held at once); the
systems of a manifest's collections are checked as they come, before a collection whose
runs are of other systems than the first's is evaluated. An error or warning names the
collection where it was given (``--collection X``, or the manifest's line and its text).

The work grows with the collections, as many as the input names: it is declared as the
cost of the option that names them (:data:`irscale.evaluation.params.COLLECTIONS`,
``COLLECTION``) and kept by the one mechanism
(:func:`irscale.core.progress.counted_work`): their matrices refused beyond the memory
limit before any work (:data:`MATRIX_BYTES` a collection), the time of the rest stated,
progress shown, ^C answered between two collections.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..errors import AlignmentError, FileAccessError, InputError

if TYPE_CHECKING:  # pragma: no cover
    from ..core import ScoreMatrix
    from ..core.inputs import Qrels, Run
    from ..io.manifest import CollectionFiles


def missing_systems(systems: Mapping[str, Sequence[str]]) -> tuple[str, list[str]] | None:
    """The first collection of ``systems`` (``{collection: its systems}``) that lacks some
    of the systems of the others, and those systems in their first order; None when every
    collection has them all (the systems are matched by name across collections)."""
    every = list(dict.fromkeys(s for names in systems.values() for s in names))
    for name, have in systems.items():
        missing = [s for s in every if s not in have]
        if missing:
            return name, missing
    return None


#: Bytes a collection's score matrix and its bookkeeping take while the others are
#: evaluated (about 25 KiB measured on collections of 6 topics and 3 runs; the matrices
#: grow with topics × systems, far smaller than the collection's files).
MATRIX_BYTES = 32 << 10


def evaluate_collections(files: Mapping[str, CollectionFiles], measures: Sequence[str], *,
                         progress: object = False,
                         max_memory: str | int | float | None = None
                         ) -> dict[str, ScoreMatrix]:
    """``{name: ScoreMatrix}``: the runs of every collection of ``files`` (module
    documentation) evaluated with ``measures`` against its qrels, a collection at a time;
    the collections of a manifest must have runs of the same systems
    (:func:`missing_systems`), refused naming the line of a run that a collection lacks.
    ``progress`` and ``max_memory``: the mechanism's (module documentation)."""
    from ..core.budget import MAX_MEMORY
    from ..core.progress import counted_work
    from .params import COLLECTION, COLLECTIONS

    manifest = any(given.lines for given in files.values())
    report = counted_work(COLLECTIONS if manifest else COLLECTION, len(files),
                          "reading and evaluating the collections", progress,
                          memory=MATRIX_BYTES, max_memory=max_memory, option=MAX_MEMORY)
    matrices: dict[str, ScoreMatrix] = {}
    runs: dict[str, list[tuple[str, str | None]]] = {}
    for done, (name, given) in enumerate(files.items(), 1):
        qrels, ranked = _read(given)
        runs[name] = [(run.name, run.source) for run in ranked]
        if manifest and {run for run, _ in runs[name]} != {run for run, _ in
                                                          next(iter(runs.values()))}:
            _check_systems(files, runs)  # (refused before the collection is evaluated)
        matrices[name] = _evaluate(name, given, qrels, ranked, measures)
        del qrels, ranked
        report(done)
    return matrices


def _read(given: CollectionFiles) -> tuple[Qrels, list[Run]]:
    """The qrels and runs of one collection, an error naming where they were given."""
    from ..io.sources import as_qrels, as_runs

    try:
        qrels = as_qrels(given.qrels)
    except (InputError, FileAccessError) as error:
        raise type(error)(f"{given.at(0)}: {error}") from None
    try:  # a folder or a pattern as it is
        return qrels, as_runs(list(given.runs) if len(given.runs) > 1 else given.runs[0])
    except (InputError, FileAccessError) as error:
        failed = getattr(error, "source", None) or getattr(error, "path", None)
        raise type(error)(f"{given.at(_row(given, failed))}: {error}") from None


def _evaluate(name: str, given: CollectionFiles, qrels: Qrels, ranked: list[Run],
              measures: Sequence[str]) -> ScoreMatrix:
    """The score matrix of one collection, an error or warning naming where it was
    given."""
    from .api import evaluate_matrix

    where = given.where if not given.lines else f"{given.where}, collection {name!r}"
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            matrix = evaluate_matrix(qrels, ranked, list(measures))
    except (AlignmentError, InputError) as error:
        raise type(error)(f"{where}: {error}") from None
    for warning in caught:
        warnings.warn(f"{where}: {warning.message}", warning.category, stacklevel=3)
    return matrix


def _check_systems(files: Mapping[str, CollectionFiles],
                   runs: Mapping[str, list[tuple[str, str | None]]]) -> None:
    """The runs of every collection of a manifest (``runs``: each collection's run names
    and sources) are of the same systems: a run that a collection lacks is refused naming
    its line (:func:`missing_systems`)."""
    found = missing_systems({name: [run for run, _ in named] for name, named in runs.items()})
    if found is None:
        return
    lacking, missing = found
    other, source = next((name, source) for name, named in runs.items()
                         for run, source in named if run == missing[0])
    raise AlignmentError(
        f"{files[other].at(_row(files[other], source))}: collection {lacking!r} has no "
        f"run of system(s) {missing[:5]} (systems are matched by run name across "
        f"collections; it has {[run for run, _ in runs[lacking]][:8]})")


def _row(given: CollectionFiles, source: str | None) -> int:
    """The index of the run of ``given`` that names the file ``source`` (itself, its folder
    or a glob pattern that matches it); 0 when none does."""
    from ..io.sources import expands, run_files

    if source is None:
        return 0
    for index, item in enumerate(given.runs):
        if os.path.normpath(item) == os.path.normpath(source):
            return index
    for index, item in enumerate(given.runs):
        try:
            if expands(item) and os.path.normpath(source) in map(os.path.normpath,
                                                                  run_files(item)):
                return index
        except (InputError, FileAccessError):  # the folder or pattern that failed
            return index
    return 0


__all__ = ["evaluate_collections", "missing_systems"]

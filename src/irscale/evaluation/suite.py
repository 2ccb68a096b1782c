"""The collections of a suite evaluated from their files (``irscale compare --collection``,
``--collections FILE``; :func:`irscale.stats.across_collections.across_collections` given a
manifest): every file read first, collection by collection, then each collection's runs
evaluated against its qrels. An error or warning names the collection where it was given
(``--collection X``, or the manifest's line and its text)."""

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


def evaluate_collections(files: Mapping[str, CollectionFiles], measures: Sequence[str]
                         ) -> dict[str, ScoreMatrix]:
    """``{name: ScoreMatrix}``: the runs of every collection of ``files`` (module
    documentation) evaluated with ``measures`` against its qrels; the collections of a
    manifest must have runs of the same systems (:func:`missing_systems`), refused naming
    the line of a run that a collection lacks."""
    from ..io.sources import as_qrels, as_runs
    from .api import evaluate_matrix

    read: dict[str, tuple[Qrels, list[Run]]] = {}
    for name, given in files.items():
        try:
            qrels = as_qrels(given.qrels)
        except (InputError, FileAccessError) as error:
            raise type(error)(f"{given.at(0)}: {error}") from None
        try:  # a folder or a pattern as it is
            read[name] = qrels, as_runs(list(given.runs) if len(given.runs) > 1
                                        else given.runs[0])
        except (InputError, FileAccessError) as error:
            failed = getattr(error, "source", None) or getattr(error, "path", None)
            raise type(error)(f"{given.at(_row(given, failed))}: {error}") from None
    if any(given.lines for given in files.values()):
        _check_systems(files, read)
    matrices = {}
    for name, (qrels, ranked) in read.items():
        where = files[name].where if not files[name].lines else \
            f"{files[name].where}, collection {name!r}"
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                matrices[name] = evaluate_matrix(qrels, ranked, list(measures))
        except (AlignmentError, InputError) as error:
            raise type(error)(f"{where}: {error}") from None
        for warning in caught:
            warnings.warn(f"{where}: {warning.message}", warning.category, stacklevel=2)
    return matrices


def _check_systems(files: Mapping[str, CollectionFiles],
                   read: Mapping[str, tuple[Qrels, list[Run]]]) -> None:
    """The runs of every collection of a manifest are of the same systems: a run that a
    collection lacks is refused naming its line (:func:`missing_systems`)."""
    found = missing_systems({name: [run.name for run in runs]
                             for name, (_, runs) in read.items()})
    if found is None:
        return
    lacking, missing = found
    other, run = next((name, run) for name, (_, runs) in read.items() for run in runs
                      if run.name == missing[0])
    raise AlignmentError(
        f"{files[other].at(_row(files[other], run.source))}: collection {lacking!r} has no "
        f"run of system(s) {missing[:5]} (systems are matched by run name across "
        f"collections; it has {[r.name for r in read[lacking][1]][:8]})")


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

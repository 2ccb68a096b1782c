"""Which evaluations the native engine judges: the one place that decides between the
engine (``irscale._engine.judge_trec_batch``, :mod:`irscale.io.native_trec`) and the Python
readers and judge (:mod:`irscale.io.sources`, :func:`irscale.core.judge.build_judged_rankings`).

:func:`native_inputs` answers for the qrels and runs of :func:`irscale.evaluate`
(``irscale eval``) and of :func:`irscale.evaluate_many` (``irscale eval-many``). The engine
judges them when every input is a TREC file it reads as the Python readers do:

* the qrels: a TREC file's path (plain or gzip), ``-`` (standard input) or its bytes;
* the runs: one such run file, a folder or glob pattern of them, a list of those (named
  by their files, as :func:`irscale.read_runs` names them: :mod:`irscale.io.naming`), or
  a mapping ``{name: run file}``;
* the default duplicate policy (``"error"``): a policy that keeps one of two lines is the
  Python readers';
* no label sets (``labels=``): the engine carries no per-document attributes.

Or, both in memory, when the engine reads them as the Python reader does
(:mod:`irscale.io.native_dicts`): qrels ``{topic: {docno: degree}}`` and one run
``{topic: {docno: score}}`` or a mapping ``{name: run}`` of them, ``str`` keys and
``int``, ``bool`` or ``float`` values.

Everything else keeps the Python path, and the answer says why (:data:`PYTHON_INPUTS`): a
``Qrels`` or ``Run`` already read, DataFrames, other dicts (``"dicts"``: the engine does not
read them), namedtuples, ``irds:`` datasets, open files, Parquet runs, nested lists, and a
file that cannot be read (or a folder or pattern that names none): the Python readers raise
its error in reading order. Diversity qrels and
measures are chosen before (:func:`irscale.evaluation.evaluate`). Run files named by a rule
of ``--names`` (:class:`~irscale.io.naming.NamedFiles`) are run files like the others,
named by the rule from what the engine says of each (:meth:`NativeInputs.run_names`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping

from ..core.extras import irds_name as is_irds  # (io.irds reads the datasets)
from ..core.options import RankingOptions
from ..core.records import record, replace
from ..errors import IrscaleError
from .call_inputs import is_ranx_json
from .files import PathLike, check_readable, display_name, is_parquet, is_stdio, read_input
from .naming import NamedFiles, file_names, files_names
from .native_files import RunNote, trec_file

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - numpy's, loaded when the engine judges
    from typing import Any, TypeAlias

    from ..core.judged import JudgedRankings

#: Why an evaluation's inputs are judged by the Python path (:func:`native_inputs`'s answers
#: other than :class:`NativeInputs`).
PYTHON_INPUTS = {
    "duplicates": "a duplicate policy other than 'error'",
    "labels": "label sets (labels=): the engine carries no per-document attributes",
    "scores": "a measure that reads the run's scores (ADM): the engine carries no "
              "per-document attributes",
    "qrels": "qrels that are no TREC file's path, '-' or bytes",
    "runs": "runs that are no TREC run file's path, '-', bytes, folder, glob pattern, or a "
            "list or mapping of those",
    "parquet": "a Parquet run file",
    "ranx-json": "ranx's JSON qrels or runs (irscale.io.ranx_json)",
    "dicts": "dicts with a key that is no str, a value that is no int, bool or float, or "
             "one the Python reader refuses or warns of (its message says why), or the "
             "rank-column tie policy",
    "unreadable": "a file that cannot be read, or a folder or pattern that names none: the "
                  "Python readers say why, in reading order",
}

#: One input file: ``("path", path)``, ``("stdin", "-")``, ``("bytes", data)`` or
#: ``("read", (data, name))`` (standard input read already, named ``name`` in messages);
#: or the qrels and runs held by the engine, read from dicts: ``("dicts", held)``.
Source: TypeAlias = "tuple[str, Any]"


@record
class NativeInputs:
    """Inputs the engine judges: the qrels, the run files in order, and how the runs are
    named: ``names`` given (a mapping), or by their files, standard input and bytes by
    their run ids (:mod:`irscale.io.naming`; ``folders``: the ranges of runs of each folder
    or pattern, ``listed``: the runs were given as a list), as
    :func:`irscale.io.sources.as_runs` names them."""

    qrels: Source
    runs: tuple[Source, ...]
    names: tuple[str, ...] | None = None
    folders: tuple[tuple[int, int], ...] = ()
    listed: bool = False
    #: The ``--names`` rule of run files given with it (:class:`~irscale.io.naming.
    #: NamedFiles`): ``"file"``, ``"runid"`` or one name per run; ``None``: by file.
    rule: str | tuple[str, ...] | None = None

    @property
    def sources(self) -> list[str]:
        """The runs' names in messages: their paths, ``<stdin>``, ``<bytes>``."""
        return [_name(run) for run in self.runs]

    @property
    def qrels_name(self) -> str:
        """The qrels' name in messages."""
        return _name(self.qrels)

    def run_names(self, notes: list[RunNote]) -> list[str]:
        """The runs' names, from what the engine says of them, with the warnings of each
        run, and of runs named after their files, in the Python readers' order (a folder's
        runs are named once they are read, then the runs of a list); when a file is refused
        (``notes`` stop at it), the warnings that come before its error only."""
        sources = self.sources
        starts = {start: stop for start, stop in self.folders}
        chosen: list[str] = []
        while len(chosen) < len(notes):
            start = len(chosen)
            stop = starts.get(start, start + 1)
            for note in notes[start:stop]:
                note.warn()
            if stop > len(notes) or notes[stop - 1].refused:
                return []  # a file refused: its error follows
            chosen.extend(note.last for note in notes[start:stop])
        if len(chosen) < len(self.runs):
            return []  # a file refused before it was read
        if self.names is not None:
            return list(self.names)
        # one rule over every run, whatever folder it came from (io.naming): by file,
        # unless --names chose another
        files = [source if kind == "path" else None
                 for (kind, _), source in zip(self.runs, sources, strict=True)]
        if self.rule is None:
            return file_names(files, chosen, stacklevel=5)
        return files_names(self.rule, chosen, files, stacklevel=5)

    def runids(self, notes: list[RunNote]) -> list[str]:
        """The runs' run ids (the last line's: trec_eval's ``runid``), from what the engine
        says of them."""
        return [note.last for note in notes]


def native_inputs(qrels: Any, runs: Any, *, labels: Mapping[str, Any] | None = None,
                  duplicates: str = "error", ties: str = "trec_eval",
                  scores: bool = False) -> NativeInputs | str:
    """The decision: :class:`NativeInputs` when the engine judges ``qrels`` and ``runs``
    (module documentation), otherwise the key of :data:`PYTHON_INPUTS` that says why the
    Python path does. Reads nothing of files but the first bytes of run files (Parquet or
    not); dicts are read by the engine (``ties``: the tie policy, for dicts). ``scores``:
    a measure reads the run's scores (the Python path attaches them)."""
    if duplicates != "error":
        return "duplicates"
    if labels:
        return "labels"
    if scores:
        return "scores"
    if isinstance(qrels, dict) and isinstance(runs, dict):  # (those engine_dicts reads)
        from .native_dicts import engine_dicts

        held = engine_dicts(qrels, runs, ties)
        if isinstance(held, str):
            return held
        if held is not None:
            return NativeInputs(("dicts", held[0]), (), held[1])
    qrels_source = _source(qrels)
    if qrels_source is None:
        return "qrels"
    if is_ranx_json(qrels):
        return "ranx-json"
    if qrels_source[0] == "path" and not _readable(qrels_source[1]):
        return "unreadable"
    found = _runs(runs)
    if isinstance(found, str):
        return found
    sources, names, folders, listed = found
    rule = runs.names if isinstance(runs, NamedFiles) else None
    return NativeInputs(qrels_source, tuple(sources), names, tuple(folders), listed, rule)


def _runs(runs: Any) -> tuple[list[Source], tuple[str, ...] | None,
                              list[tuple[int, int]], bool] | str:
    """The run files of ``runs``, their given names, the ranges found in one folder or
    pattern and whether they were listed; or why the Python path reads them. Run files
    named by a ``--names`` rule (:class:`~irscale.io.naming.NamedFiles`) are a list of
    files."""
    if isinstance(runs, NamedFiles):
        runs = list(runs.files)
    names: tuple[str, ...] | None = None
    listed = isinstance(runs, (list, tuple)) and not hasattr(runs, "_fields")
    if isinstance(runs, Mapping):  # {name: run file}; a dict of dicts is one run
        names = tuple(str(key) for key in runs)
        items = list(runs.values())
    else:
        items = list(runs) if listed else [runs]
    if not items:
        return "runs"
    files: list[Source] = []
    folders: list[tuple[int, int]] = []
    for item in items:
        if names is None and _expands(item):
            from .sources import run_files

            try:
                found = [("path", path) for path in run_files(item)]
            except IrscaleError:
                return "unreadable"
            folders.append((len(files), len(files) + len(found)))
            files.extend(found)
            continue
        source = _source(item)
        if source is None:
            return "runs"
        files.append(source)
    for kind, path in files:
        if kind == "path":
            if not _readable(path):
                return "unreadable"
            if is_parquet(path):
                return "parquet"
            if is_ranx_json(path):
                return "ranx-json"
        elif kind == "bytes" and is_ranx_json(path):
            return "ranx-json"
    return files, names, folders, listed


def _expands(item: Any) -> bool:
    """A folder or glob pattern (:func:`irscale.io.call_inputs.expands`)."""
    from .call_inputs import expands

    return isinstance(item, (str, os.PathLike)) and not is_irds(item) and expands(item)


def _source(spec: Any) -> Source | None:
    """The input file ``spec`` names (a path, ``-``, bytes), or ``None``."""
    if isinstance(spec, (bytes, bytearray, memoryview)):
        return ("bytes", bytes(spec))
    if isinstance(spec, (str, os.PathLike)) and not is_irds(spec):
        if is_stdio(spec):
            return ("stdin", "-")
        return ("path", spec)
    return None


def _readable(path: Any) -> bool:
    """Whether ``path`` is a readable file (otherwise the Python readers say why)."""
    try:
        check_readable(path)
    except (IrscaleError, ValueError, TypeError):
        return False
    return True


def _regular(path: PathLike) -> bool:
    """Whether ``path`` is a regular file (read as often as needed)."""
    info = check_readable(path)
    return info is not None and stat.S_ISREG(info.st_mode)


def _name(source: Source) -> str:
    """A source's name in messages (as :func:`irscale.io._text.source_name` gives it)."""
    kind, spec = source
    if kind == "read":
        return spec[1]
    if kind == "dicts":
        from .native_dicts import QRELS_NAME

        return QRELS_NAME
    return "<bytes>" if kind == "bytes" else display_name(spec)


def read_source(source: Source) -> tuple[bytes | PathLike, str]:
    """The bytes of an input file (its path: read by the engine) and its name in
    messages, when it is judged."""
    kind, spec = source
    if kind == "read":
        return spec
    if kind == "bytes":
        return spec, "<bytes>"
    if kind == "stdin":
        return read_input(spec), "<stdin>"
    return trec_file(spec)


def read_qrels_once(inputs: NativeInputs) -> NativeInputs:
    """``inputs`` with the qrels read when they cannot be read again (standard input, a
    FIFO, a pipe such as ``<(zcat qrels.gz)``, a device: anything but a regular file), to
    be judged with batch after batch of runs; a regular file is read by each batch."""
    kind, spec = inputs.qrels
    if kind == "stdin":
        return replace(inputs, qrels=("read", read_source(inputs.qrels)))
    if kind == "path" and not _regular(spec):
        return replace(inputs, qrels=("read", (read_input(spec), display_name(spec))))
    return inputs


def judge_native(inputs: NativeInputs, options: RankingOptions, *, placeholders: bool = False,
                 names: Callable[[list[RunNote]], list[str]] | None = None,
                 ) -> tuple[JudgedRankings, Callable[[int], int]]:
    """The judged rankings of ``inputs`` by the engine, and the number of the qrels'
    judgments with a degree at least ``level`` (a function of ``level``:
    :func:`~irscale.io.native_trec.judge_counted`). The files are read in order, the qrels
    first, and their errors and warnings are the Python readers'. ``names``: the runs'
    names from what the engine says of them (default :meth:`NativeInputs.run_names`).
    Dicts (``("dicts", held)``) are judged by
    :func:`~irscale.io.native_dicts.judge_dicts`, the runs named as given."""
    from .native_dicts import judge_dicts
    from .native_trec import judge_counted

    if inputs.qrels[0] == "dicts":
        return judge_dicts(inputs.qrels[1], inputs.names or (), options,
                           placeholders=placeholders)
    qrels = read_source(inputs.qrels)
    runs = [read_source(run) for run in inputs.runs]
    return judge_counted(qrels, runs, options, names=names or inputs.run_names,
                         placeholders=placeholders)


__all__ = ["PYTHON_INPUTS", "NativeInputs", "judge_native", "native_inputs", "read_qrels_once",
           "read_source"]

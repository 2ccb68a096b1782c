"""Every input spec resolved in one place: what an object given as qrels or runs is, and
which reader reads it.

:func:`read_qrels`, :func:`read_run` and :func:`read_runs` (``irscale.read_qrels`` ...),
:func:`irscale.evaluate`, :func:`irscale.evaluate_many` and the command line resolve their
inputs here, so that a spec is accepted or refused alike everywhere (``docs/inputs.md``):

=============================================  =========================================
spec                                           read by
=============================================  =========================================
:class:`~irscale.core.inputs.Qrels`, ``Run``   itself
a path, ``"-"`` (standard input)               :mod:`irscale.io.trec` (plain or gzip);
                                               a run: :mod:`irscale.io.run_parquet` too;
                                               ranx's JSON: :mod:`irscale.io.ranx_json`
a folder, a glob pattern (runs only)           its run files (:func:`run_files`)
``"irds:DATASET_ID"``                          :mod:`irscale.io.irds`
bytes, an open binary or text file             :mod:`irscale.io.trec`
a DataFrame, a dict of dicts, namedtuples      :mod:`irscale.io.memory`
an ir_datasets dataset object                  :mod:`irscale.io.irds`, then as namedtuples
                                               (its qrels; its scored documents as a run)
ranx ``Qrels`` / ``Run``                       :mod:`irscale.io.memory`, column by column
                                               (:func:`~irscale.io.memory.qrels_from_ranx`)
=============================================  =========================================

Several runs: a list of run specs, a mapping ``{name: run spec}``, a folder or glob pattern,
or a DataFrame with a ``run`` column. The readers are leaves: none imports this module,
and only this module chooses between them.

The files a spec reads (:func:`input_files`) are what the outputs of a call are compared
with, by resolved path and inode (:class:`CallInputs`, :func:`check_not_input`,
:func:`check_folder_inputs`): an output is never an input (``docs/errors.md``, rule 4).

This module imports no numerical package itself (the command line's checks use it before
any work): the readers are imported when a spec is read.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence

from ..core.extras import PYARROW
from ..core.records import replace
from ..errors import EmptyInputError, InputError, ParameterError, about
from .call_inputs import CallInputs, InputFile, check_distinct, expands, is_ranx_json
from .files import (
    access_error,
    describe,
    is_parquet,
    is_stdio,
)
from .irds import is_irds

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ..core._columnar.duplicates import DuplicatePolicy
    from ..core.inputs import Qrels, Run
    from ..core.progress import ProgressArg
    from .naming import NamedFiles, NameSpec

#: What a qrels spec may be, for error messages.
QRELS_KINDS = ("a file path, '-' (standard input), 'irds:DATASET_ID', bytes, an open file, "
               "a DataFrame, a dict {topic: {docno: relevance}}, namedtuples (TrecQrel), an "
               "ir_datasets dataset, ranx Qrels or irscale Qrels")
#: What a run spec may be, for error messages.
RUN_KINDS = ("a file path (TREC or Parquet), '-' (standard input), 'irds:DATASET_ID', bytes, "
             "an open file, a DataFrame, a dict {topic: {docno: score}}, namedtuples "
             "(ScoredDoc), ranx Run or irscale Run")


def is_data(obj: object) -> bool:
    """A file's content held in memory (bytes-like) or an open file, binary or text: read
    as the file would be (:mod:`irscale.io.trec`), never iterated item by item."""
    return isinstance(obj, (bytes, bytearray, memoryview, io.IOBase)) or (
        callable(getattr(obj, "read", None)) and not hasattr(obj, "columns"))


def _data(obj: Any) -> Any:
    """Bytes-like data as ``bytes``; a stream as it is."""
    return bytes(obj) if isinstance(obj, (bytearray, memoryview)) else obj


def _is_ranx(obj: object, kind: str) -> bool:
    """A ranx ``Qrels`` (``kind="qrels"``) or ``Run`` (``"run"``), known by its class name
    and the mapping it holds in ``.qrels`` / ``.run``: neither ranx nor numpy is imported."""
    return type(obj).__name__ == kind.capitalize() and hasattr(obj, kind)


def _is_dataset(obj: object) -> bool:
    """An ir_datasets dataset object (``ir_datasets.load(ID)``)."""
    return hasattr(obj, "qrels_iter")


def read_qrels(source: Any, *, duplicates: DuplicatePolicy = "error") -> Qrels:
    """Read qrels from any qrels spec (module documentation).

    Parameters
    ----------
    source : path, file object, bytes, DataFrame, dict, namedtuples, dataset or Qrels
        A path to a TREC qrels file ``qid iter docno rel`` (plain or gzip-compressed;
        ``"-"`` reads standard input), an open file or the file's bytes: fields are
        separated by spaces or tabs; ``iter`` is ignored; ``rel`` is an integer, negative
        for pooled documents that were not judged (``2.0`` is 2, as trec_eval reads it;
        ``1.5`` and ``1e1`` are refused). ``"irds:DATASET_ID"`` or an ir_datasets dataset
        object reads a dataset's qrels (:mod:`irscale.io.irds`; ``pip install
        'irscale[irds]'``). A DataFrame (``query_id, doc_id, relevance``, ``qid, docno,
        rel``, PyTerrier's ``qid, docno, label``, ranx's ``q_id, doc_id, score``), a dict
        ``{topic: {docno: relevance}}``, namedtuples (``TrecQrel``, ir_measures' ``Qrel``)
        or a ranx ``Qrels`` are read as :mod:`irscale.io.memory` says.
    duplicates : {"error", "first", "last", "max"}, default "error"
        What to do with a (topic, docno) pair judged twice: raise, or keep the first, the
        last or the highest judgment.

    Returns
    -------
    Qrels
        One row per judgment, in the source's order.

    Raises
    ------
    InputFormatError
        A malformed line (wrong number of fields, a non-integer label), naming the source
        and line.
    EmptyInputError
        No data line.
    DuplicateError
        A pair judged twice, with ``duplicates="error"``.
    FileAccessError
        The file cannot be read.
    ParameterError
        An unknown ``duplicates`` policy (checked before the file is read).
    InputError
        ``source`` is none of the above (``None``, a number ...).

    Examples
    --------
    >>> qrels = read_qrels(b"101 0 d1 1\\n101 0 d2 0\\n102 0 d7 2\\n")
    >>> qrels
    Qrels(2 topics, 3 judgments, source='<bytes>')
    >>> qrels.topics, qrels.rel.tolist()
    (['101', '102'], [1, 0, 2])
    >>> read_qrels(b"101 0 d1 1\\n101 0 d1 2\\n", duplicates="max").rel.tolist()
    [2]
    >>> read_qrels({"101": {"d1": 1}}).rel.tolist()
    [1]
    """
    from ..core._columnar.duplicates import check_duplicate_policy

    check_duplicate_policy(duplicates)
    return _qrels(source, duplicates, "read_qrels: ")


def as_qrels(obj: Any) -> Qrels:
    """The qrels of any qrels spec (:func:`read_qrels`, every default), as the evaluations
    and analyses take them."""
    return _qrels(obj, "error", "")


def _qrels(source: Any, duplicates: DuplicatePolicy, where: str) -> Qrels:
    """:func:`read_qrels`; ``where`` starts a refusal's message (the entry point)."""
    from ..core.inputs import Qrels

    if isinstance(source, Qrels):
        return source
    if is_irds(source) or _is_dataset(source):
        from .irds import dataset_rows, load_dataset

        dataset = load_dataset(source) if is_irds(source) else source
        rows, name = dataset_rows(dataset, "qrels", source if is_irds(source) else None)
        from .memory import qrels_from_records

        return qrels_from_records(rows, duplicates=duplicates, source=name)
    if isinstance(source, (str, os.PathLike)) or is_data(source):
        if is_ranx_json(source):
            from .ranx_json import read_ranx_qrels

            return read_ranx_qrels(_data(source), duplicates=duplicates)
        from .trec import read_qrels as read_trec_qrels

        return read_trec_qrels(_data(source), duplicates=duplicates)
    from . import memory

    if _is_ranx(source, "qrels"):
        return memory.qrels_from_ranx(source, duplicates=duplicates)
    if isinstance(source, Mapping):
        return memory.qrels_from_dict(source, duplicates=duplicates)
    if hasattr(source, "columns"):
        return memory.qrels_from_frame(source, duplicates=duplicates)
    if memory.is_records(source):
        return memory.qrels_from_records(source, duplicates=duplicates)
    raise about(InputError(f"{where}expected qrels ({QRELS_KINDS}), got {describe(source)}"),
                source)


def _several(source: Any) -> str | None:
    """Why ``source`` holds several runs (a list, a mapping ``{name: run}``), or ``None``
    (a folder or a glob pattern is read as one file by :func:`read_run`: its error says
    why it cannot be)."""
    if isinstance(source, (list, tuple)) and not hasattr(source, "_fields") and not \
            _records(source):
        return f"a {type(source).__name__} of runs"
    if isinstance(source, Mapping) and not _is_single_run(source):
        return "a mapping {name: run}"
    return None


def _records(obj: Any) -> bool:
    """:func:`irscale.io.memory.is_records`, imported when asked (memory loads pyarrow)."""
    from .memory import is_records

    return is_records(obj)


def read_run(source: Any, *, name: str | None = None, duplicates: DuplicatePolicy = "error",
             keep_rank: bool = False) -> Run:
    """Read one run from any run spec (module documentation).

    Parameters
    ----------
    source : path, file object, bytes, DataFrame, dict, namedtuples or Run
        A path to a TREC run file ``qid Q0 docno rank score runid`` (plain or
        gzip-compressed; ``"-"`` reads standard input) or to a Parquet run
        (:mod:`irscale.io.run_parquet`), an open file or the file's bytes: column 2 is
        ignored, as is the rank column unless ``keep_rank``; scores must be finite
        numbers. ``"irds:DATASET_ID"`` reads the scored documents of an ir_datasets dataset
        (:mod:`irscale.io.irds`), named after the dataset. A DataFrame (``query_id,
        doc_id, score``, PyTerrier's ``qid, docno, score``, ranx's ``q_id, doc_id,
        score``; ``rank`` optional), a dict ``{topic: {docno: score}}``,
        namedtuples (``ScoredDoc``) or a ranx ``Run`` are read as :mod:`irscale.io.memory`
        says. Several runs (a list, a folder, a glob pattern): :func:`read_runs`.
    name : str, optional
        The run's name; by default its file's name without extension (``bm25.run.gz`` →
        ``bm25``, :mod:`irscale.io.naming`); for standard input and bytes, as in trec_eval
        9.0.8, the run id of its last line (a warning says so when the data hold several
        run ids), which stays the run's run id (``runids``, last); ``"run"`` for data held
        in memory that name none.
    duplicates : {"error", "first", "last", "max"}, default "error"
        What to do with a document retrieved twice for a topic: raise, or keep the first,
        the last or the highest-scored line.
    keep_rank : bool, default False
        Keep the rank column (integers), needed by the ``rank-column`` tie policy.

    Returns
    -------
    Run
        One row per retrieved document. Ranking (by score, ties by docno as trec_eval)
        happens when the run is evaluated, not here.

    Raises
    ------
    InputFormatError
        A malformed line (wrong number of fields, a score that is not a finite number),
        naming the source and line.
    EmptyInputError
        No data line.
    DuplicateError
        A document retrieved twice for a topic, with ``duplicates="error"``.
    FileAccessError
        The file cannot be read.
    ParameterError
        An unknown ``duplicates`` policy (checked before the file is read).
    InputError
        ``source`` is none of the above (``None``, a number ...), or holds several runs.

    Examples
    --------
    >>> run = read_run(b"101 Q0 d1 1 2.5 bm25\\n101 Q0 d2 2 1.0 bm25\\n")
    >>> run
    Run('bm25', 1 topics, 2 results, source='<bytes>')
    >>> run.name, run.score.tolist()
    ('bm25', [2.5, 1.0])
    >>> read_run(b"101 Q0 d1 1 2.5 bm25\\n", name="baseline").name
    'baseline'
    """
    from ..core._columnar.duplicates import check_duplicate_policy

    check_duplicate_policy(duplicates)
    return _one_run(source, name=name, duplicates=duplicates, keep_rank=keep_rank,
                    where="read_run: ")


def _one_run(source: Any, *, name: str | None, duplicates: DuplicatePolicy, keep_rank: bool,
             where: str) -> Run:
    """:func:`read_run`; ``where`` starts a refusal's message (the entry point)."""
    several = _several(source)
    if several is not None:
        raise about(InputError(f"{where}expected one run, got {several} (several runs: "
                               "read_runs)"), source)
    if isinstance(source, (str, os.PathLike)) and not is_irds(source):
        return read_run_file(source, name=name, duplicates=duplicates, keep_rank=keep_rank)
    runs = _runs(source, name=name, duplicates=duplicates, keep_rank=keep_rank, where=where)
    if len(runs) != 1:
        raise about(InputError(f"{where}expected one run, got {len(runs)} (a DataFrame with "
                               "a run column; several runs: read_runs)"), source)
    return runs[0]


def _runs(obj: Any, *, name: str | None = None, duplicates: DuplicatePolicy = "error",
          keep_rank: bool = False, where: str = "", named: bool = True) -> list[Run]:
    """The runs of any run spec (module documentation), ``name`` naming a single run;
    ``where`` starts a refusal's message (the entry point). Each value of a mapping
    ``{name: run}`` is one run (:func:`_one_run`). ``named``: the runs of a folder or a list
    named by :func:`~irscale.io.naming.name_runs` (not when they are an item of a list,
    whose runs are named together)."""
    from ..core.inputs import Run
    from .naming import NamedFiles

    if isinstance(obj, Run):
        return [obj if name is None or obj.name == name else replace(obj, name=name)]
    if isinstance(obj, NamedFiles):  # run files and their --names rule
        return read_runs(list(obj.files), names=obj.names, duplicates=duplicates,
                         keep_rank=keep_rank)
    if is_irds(obj) or hasattr(obj, "scoreddocs_iter"):
        return [_dataset_run(obj, name=name, duplicates=duplicates, keep_rank=keep_rank)]
    if is_data(obj):
        if is_ranx_json(obj) and not keep_rank:
            from .ranx_json import read_ranx_run

            return [read_ranx_run(_data(obj), name=name, duplicates=duplicates)]
        from .trec import read_run as read_trec_run

        return [read_trec_run(_data(obj), name=name, duplicates=duplicates,
                              keep_rank=keep_rank)]
    if isinstance(obj, (str, os.PathLike)):
        if not expands(obj):
            return [read_run_file(obj, name=name, duplicates=duplicates, keep_rank=keep_rank)]
        found = [read_run_file(path, duplicates=duplicates, keep_rank=keep_rank)
                 for path in run_files(obj)]
    elif isinstance(obj, Sequence) and not _in_memory(obj):
        # one naming rule over every run of the list, its folders' included (io.naming)
        found = [run for item in obj
                 for run in _runs(item, duplicates=duplicates, keep_rank=keep_rank,
                                  named=False)]
    else:
        return _memory_runs(obj, name=name, duplicates=duplicates, keep_rank=keep_rank,
                            where=where)
    if not named:
        return found
    from .naming import name_runs

    return name_runs(found)


def _in_memory(obj: Any) -> bool:
    """Whether the sequence ``obj`` holds one run's rows (a ranx run, records), not runs."""
    from . import memory

    return _is_ranx(obj, "run") or hasattr(obj, "columns") or memory.is_records(obj)


def _dataset_run(obj: Any, *, name: str | None, duplicates: DuplicatePolicy,
                 keep_rank: bool) -> Run:
    """The run of an ir_datasets dataset's scored documents (``irds:`` id or dataset)."""
    from .irds import PREFIX, dataset_rows, load_dataset
    from .memory import run_from_records

    if keep_rank:
        raise ParameterError(f"{obj if is_irds(obj) else 'an ir_datasets dataset'}: "
                             "ir_datasets' scored documents have no rank column to keep "
                             "(use another tie policy)")
    dataset = load_dataset(obj) if is_irds(obj) else obj
    rows, source = dataset_rows(dataset, "scoreddocs", obj if is_irds(obj) else None)
    return run_from_records(rows, duplicates=duplicates, source=source,
                            name=name if name is not None else source.removeprefix(PREFIX))


def _memory_runs(obj: Any, *, name: str | None, duplicates: DuplicatePolicy, keep_rank: bool,
                 where: str) -> list[Run]:
    """The runs of data held in memory (:mod:`irscale.io.memory`): a ranx run, a DataFrame
    (a ``run`` column holds several), a dict of one run or a mapping ``{name: run}``,
    records; anything else is refused (``where``: as :func:`_runs`)."""
    from . import memory

    if _is_ranx(obj, "run"):
        return [memory.run_from_ranx(obj, name=name, duplicates=duplicates)]
    if hasattr(obj, "columns"):
        if "run" in obj.columns:
            return [memory.run_from_frame(part, name=str(key), duplicates=duplicates)
                    for key, part in obj.groupby("run", sort=False)]
        return [memory.run_from_frame(obj, name=name or "run", duplicates=duplicates)]
    if isinstance(obj, Mapping):
        if _is_single_run(obj):
            return [memory.run_from_dict(obj, name=name or "run", duplicates=duplicates)]
        return [_one_run(value, name=str(key), duplicates=duplicates, keep_rank=keep_rank,
                         where=f"{where}run {str(key)!r}: ") for key, value in obj.items()]
    if memory.is_records(obj):
        return [memory.run_from_records(obj, name=name or "run", duplicates=duplicates)]
    raise about(InputError(f"{where}expected a run ({RUN_KINDS}), got {describe(obj)}"), obj)


def as_runs(obj: Any, *, keep_rank: bool = False, names: NameSpec | None = None
            ) -> list[Run]:
    """The runs of any run spec or collection of them (module documentation): a list of
    specs, a mapping ``{name: run spec}``, a folder or a glob pattern (its run files:
    :func:`run_files`), a DataFrame with a ``run`` column.

    Runs of a list or folder are named by :func:`irscale.io.naming.name_runs`: by their
    files, the runs that share a name by the shortest end of their paths that tells them
    apart (with a warning); ``names`` names them otherwise (``"runid"``, or one name per
    run)."""
    if names is None:
        return _runs(obj, keep_rank=keep_rank)
    from .naming import name_runs

    return name_runs(_runs(obj, keep_rank=keep_rank, named=False), names)


def named_run_files(runs: Any, names: NameSpec) -> NamedFiles | None:
    """``runs`` (a run file, folder or glob pattern, or a list of those) as its run files
    to be named by ``names`` once they are read (:class:`~irscale.io.naming.NamedFiles`:
    the engine reads and judges them where it takes every input); ``None`` for other runs
    (in memory, read already, a mapping), which :func:`as_runs` names."""
    from .naming import named_files

    listed = isinstance(runs, (list, tuple)) and not hasattr(runs, "_fields")
    items = list(runs) if listed else [runs]
    if not items or not all(isinstance(item, (str, os.PathLike)) and not is_irds(item)
                            for item in items):
        return None
    return named_files([os.fspath(file) for item in items
                        for file in (run_files(item) if expands(item) else [item])], names)


def read_run_file(path: str | os.PathLike[str], *, name: str | None = None,
                  duplicates: DuplicatePolicy = "error", keep_rank: bool = False) -> Run:
    """One run file: Parquet (:func:`~irscale.io.run_parquet.read_run_parquet`, a name
    ending in ``.parquet`` or ``.pq`` or a file starting with ``PAR1``) or TREC text, plain
    or gzip (:func:`irscale.io.trec.read_run`); ``name``, ``duplicates`` and ``keep_rank``
    as :func:`read_run` says. Unless ``name`` is given, the run is named by its file
    (:func:`~irscale.io.naming.file_stem`: ``bm25.run.gz`` → ``bm25``; :mod:`irscale.io.naming`),
    standard input by its run id."""
    if name is None and not is_stdio(path):
        from .naming import file_stem

        name = file_stem(path)
    if is_parquet(path):
        PYARROW.load("reading a Parquet run", InputError, source=str(path))
        from .run_parquet import read_run_parquet

        return read_run_parquet(path, name=name, duplicates=duplicates, keep_rank=keep_rank)
    if is_ranx_json(path):
        if keep_rank:
            raise ParameterError(f"{describe(path)}: ranx's JSON runs have no rank column to "
                                 "keep (use another tie policy)")
        from .ranx_json import read_ranx_run

        return read_ranx_run(path, name=name, duplicates=duplicates)
    from .trec import read_run as read_trec_run

    return read_trec_run(path, name=name, duplicates=duplicates, keep_rank=keep_rank)


def _is_single_run(obj: Mapping) -> bool:
    """True for ``{topic: {docno: score}}`` (one run), False for ``{name: run}``: every value
    is a mapping whose first value is not one (one look per topic, not per document)."""
    values = list(obj.values())
    return bool(values) and all(
        _is_mapping(v) and not _is_mapping(next(iter(v.values()), None)) for v in values)


def _is_mapping(value: object) -> bool:
    """``isinstance(value, Mapping)``, answered without the ABC's (slow) check for dicts,
    numbers and strings."""
    if type(value) is dict:
        return True
    return not isinstance(value, (int, float, str)) and isinstance(value, Mapping)


def read_runs(
    sources: Any,
    *,
    names: NameSpec = "file",
    duplicates: DuplicatePolicy = "error",
    keep_rank: bool = False,
    progress: ProgressArg = False,
) -> list[Run]:
    """Read several runs, every run with a distinct name.

    Parameters
    ----------
    sources : iterable of run specs, mapping ``{name: run spec}``, folder or glob pattern
        The runs: each item anything :func:`read_run` reads, a folder or glob pattern
        standing for its run files (:func:`run_files`) or a DataFrame with a ``run``
        column. A mapping names the runs itself (each value one run).
    names : {"file", "runid"} or sequence of str, default "file"
        How to name the runs read from files (see :mod:`irscale.io.naming`): ``"file"``
        names each by its file name without extension (``bm25.run.gz`` → ``bm25``), the
        runs that share one by the shortest end of their paths that tells them apart
        (``bm25/run``, ``splade/run``), with a warning; ``"runid"`` names each run by its
        run id, the runs that share one by their files; a sequence gives one name per run.
    duplicates : {"error", "first", "last", "max"}, default "error"
        The duplicate policy of :func:`read_run`.
    keep_rank : bool, default False
        Keep the rank column (see :func:`read_run`).
    progress : bool or callable, default False
        Progress by run read (:mod:`irscale.core.progress`; a bar for reading that takes
        longer than a second).

    Returns
    -------
    list of Run
        One run per item (per file of a folder or pattern), in the order given, with
        distinct names.

    Raises
    ------
    ParameterError
        ``names`` given with a mapping, an unknown naming rule, or a list of names of the
        wrong length or with repeats.
    InputError, FileAccessError
        As :func:`read_run`, for the first item that cannot be read; ``InputError`` also
        for ``sources`` that are one run (:func:`read_run`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     folder = pathlib.Path(tmp)
    ...     _ = (folder / "a.run").write_text("1 Q0 d1 1 2.5 bm25\\n")
    ...     _ = (folder / "b.run").write_text("1 Q0 d1 1 1.0 ql\\n")
    ...     paths = [folder / "a.run", folder / "b.run"]
    ...     by_file = [run.name for run in read_runs(paths)]
    ...     by_runid = [run.name for run in read_runs(paths, names="runid")]
    ...     given = [run.name for run in read_runs({"x": paths[0], "y": paths[1]})]
    ...     folder_runs = [run.name for run in read_runs(folder)]
    >>> by_file, by_runid, given, folder_runs
    (['a', 'b'], ['bm25', 'ql'], ['x', 'y'], ['a', 'b'])
    """
    from ..core._columnar.duplicates import check_duplicate_policy
    from ..core.progress import DELAY, progress_reporter
    from .naming import name_runs

    check_duplicate_policy(duplicates)
    items = _read_items(sources, names)
    report = progress_reporter(progress, len(items), "reading runs", delay=DELAY)
    runs = []
    for number, (item, name, where) in enumerate(items, 1):
        if name is None:  # an item of a list: a DataFrame with a run column holds several
            runs.extend(_runs(item, duplicates=duplicates, keep_rank=keep_rank, where=where))
        else:
            runs.append(_one_run(item, name=name, duplicates=duplicates, keep_rank=keep_rank,
                                 where=where))
        report(number)
    return name_runs(runs, names)


def _read_items(sources: Any, names: NameSpec) -> list[tuple[Any, str | None, str]]:
    """The items :func:`read_runs` reads, in order: ``(spec, name or None, where)``, a
    mapping's values named by their keys, a folder's or pattern's files, a list's items
    (its folders and patterns expanded); ``sources`` that are one run are refused."""
    if isinstance(sources, Mapping) and _several(sources) is not None:
        if not (isinstance(names, str) and names == "file"):
            raise ParameterError("read_runs: a mapping {name: path} names the runs already; "
                                 "names= applies to a list of files")
        return [(value, str(key), f"read_runs: run {str(key)!r}: ")
                for key, value in sources.items()]
    if isinstance(sources, (str, os.PathLike)) and expands(sources):
        return [(path, None, "read_runs: ") for path in run_files(sources)]
    if isinstance(sources, (str, os.PathLike, Mapping)) or is_data(sources) or \
            hasattr(sources, "columns") or not isinstance(sources, Iterable) or \
            (isinstance(sources, (list, tuple)) and _records(sources)):
        raise about(InputError(f"read_runs: expected a list of runs, a mapping {{name: run}}, "
                               f"a folder or a glob pattern, got {describe(sources)} "
                               "(one run: read_run, or read_runs([...]))"), sources)
    return [(path, None, f"read_runs: item {number}: ")
            for number, item in enumerate(sources, 1)
            for path in (run_files(item) if isinstance(item, (str, os.PathLike))
                         and expands(item) else [item])]


def input_files(spec: Any, how: str = "") -> Iterator[InputFile]:
    """The files an input spec reads, for the rule that an output is never an input: a
    folder or a glob pattern gives its files (as :func:`source_files` expands them, each
    named ``how`` + where it was found), a path itself, run files named by a ``--names``
    rule (:class:`~irscale.io.naming.NamedFiles`) each; ``-`` (standard input), an
    ``irds:`` id and objects that are no path read no file of the call."""
    from .naming import NamedFiles

    if isinstance(spec, NamedFiles):  # run files and their --names rule
        for file in spec.files:
            yield from input_files(file, how)
        return
    if not isinstance(spec, (str, os.PathLike)) or is_stdio(spec) or is_irds(spec):
        return
    path = os.fspath(spec)
    files = source_files(path)
    if files == [path]:
        yield InputFile(path, how)
        return
    where = f"in folder {path}" if os.path.isdir(path) else f"matched by {path}"
    named = f"{how} {where}" if how else where
    yield from (InputFile(file, named) for file in files)


def call_inputs(specs: Iterable[Any | tuple[Any, str]]) -> CallInputs:
    """The files a call reads (:func:`input_files` of each spec; a pair ``(spec, how)``
    says how the call named it), to compare with its outputs by resolved path and inode."""
    return CallInputs(file for spec in specs
                      for file in (input_files(*spec) if isinstance(spec, tuple)
                                   else input_files(spec)))


def source_files(source: str | os.PathLike[str]) -> list[str]:
    """The files one item of :func:`run_files` names, without its checks: a folder's files
    (not those whose name starts with a dot, not its subfolders) sorted by name, the files a
    glob pattern (:func:`expands`) matches sorted by path, otherwise ``source`` itself (also
    when it does not exist). An empty list when the folder or pattern holds no file.

    The outputs of a call are checked against these files before any work
    (:func:`irscale.cli.outputs.check_outputs`): the files a command reads, named as the
    command names them."""
    text = os.fspath(source)
    if not expands(text):
        return [text]
    if os.path.isdir(text):
        try:
            names = sorted(os.listdir(text))
        except OSError as error:
            raise access_error(error, text) from None
        return [os.path.join(text, name) for name in names if not name.startswith(".")
                and not os.path.isdir(os.path.join(text, name))]
    import glob

    return sorted(path for path in glob.glob(text, recursive=True) if not os.path.isdir(path))


def run_files(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    """The run files ``sources`` names, in order: a folder gives its files (not those whose
    name starts with a dot, not its subfolders) sorted by name, a glob pattern
    (``runs/*.gz``, ``runs/**/*.run``) the files it matches sorted by path, a file itself;
    a list gives those of each item in its order (:func:`source_files`). A folder with no
    file, a pattern that matches none, a missing path or a file named twice (under one
    name or two: a symbolic or hard link, ``./a`` and ``a``, compared by resolved path and
    inode, :func:`~irscale.io.call_inputs.file_identity`) is an error, and so is standard
    input (``-``): these files are read by path, a batch at a time."""
    if isinstance(sources, (str, os.PathLike)):
        items: list[Any] = [sources]
    elif isinstance(sources, Iterable) and not (is_data(sources) or hasattr(sources, "columns")
                                                or isinstance(sources, Mapping)):
        items = list(sources)
    else:
        raise ParameterError(f"run files: expected a folder, a glob pattern, a file or a "
                             f"list of them, got {describe(sources)} (runs held in memory: "
                             "irscale.evaluate)")
    if not items:
        raise ParameterError("no run files given")
    files: list[str] = []
    for item in items:
        text = os.fspath(item) if isinstance(item, (str, os.PathLike)) else None
        if not isinstance(text, str) or not text:
            raise ParameterError(f"run files: expected a folder, a glob pattern or a file, "
                                 f"got {describe(item)} (runs held in memory: "
                                 "irscale.evaluate)")
        if is_stdio(text):
            raise ParameterError("run files: standard input ('-') is no run file here: the "
                                 "runs are read by path, a batch at a time, possibly by "
                                 "other processes (give files; irscale eval and "
                                 "irscale.evaluate read one run from it)")
        found = source_files(text)
        if not found:
            raise EmptyInputError(f"folder {text} holds no run file" if os.path.isdir(text)
                                  else f"pattern {text} matches no run file")
        if found == [text] and not os.path.lexists(text):
            raise access_error(OSError(2, "no such file or directory"), text)
        files.extend(found)
    check_distinct(files)
    return files

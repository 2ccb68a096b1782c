"""``irscale.evaluate_many``: thousands of run files evaluated in batches, with memory bounded
by a batch.

The run files (a folder, a glob pattern, files, or a list of those: :func:`run_files`) are
cut into batches of ``batch_size`` files in their order. Each batch is a task of the
executor (:mod:`irscale.parallel`: this process's threads, or a Dask cluster): it reads its
files (TREC text, plain or gzip, or Parquet: :func:`irscale.io.sources.read_run_file`),
judges them against the qrels and computes the measures exactly as :func:`irscale.evaluate`
does (:func:`irscale.evaluation.evaluate_judged`, the same code), and returns its per-topic
table and the summary values of its runs. Nothing else of a batch outlives its task, so the
memory of the evaluation is that of the batches running at once (``workers`` of them
locally, one per Dask worker) plus the qrels, whatever the number of files.

The qrels are read once; a Dask executor receives them once per worker (scattered,
broadcast) and reads the run files by their paths, so the workers must see the files under
the same paths (one machine, or a shared file system).

Per-topic output (``out``)
    A folder of Parquet files, one per batch: ``part-00000.parquet``, ``part-00001.parquet``
    ... (five digits at least; more when there are more batches), in batch order. Each holds
    the batch's :meth:`irscale.Evaluation.per_topic` table: columns ``run, topic, measure,
    value`` (float64), rows measure by measure, runs in file order, topics in byte order.
    ``pandas.read_parquet(out)`` (or :meth:`ManyEvaluation.per_topic`) reads them all back.
    The folder is written under a temporary name beside ``out`` and renamed to ``out`` when
    every batch is written: an error (or ^C) leaves nothing behind. An ``out`` that is a
    symbolic link stands for the folder it points to (written there; the link stays). An
    existing ``out`` holding files is refused unless ``force``, which replaces it only when
    it holds nothing but part files (an earlier output); an ``out`` that is or holds one of
    the call's input files (the qrels, a run file), under any name, is refused even with
    ``force``.

Errors
    A run file that cannot be read (malformed line, unreadable file, no topic in common with
    the qrels) stops the whole evaluation with the reader's error, which names the file and
    the line; the tasks not yet run are cancelled and no output is left (there is no option
    to skip bad files: a summary silently missing runs would not be honest).

Results equal :func:`irscale.evaluate` on the same runs, value for value, whatever the batch
size and the executor: per-topic values do not depend on the other runs of a batch, and a
run's summary is computed from its own values in topic order.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cache.calls import CacheCall, RunCache
from ..core.extras import PYARROW
from ..core.inputs import Qrels
from ..core.notebook import counted
from ..core.progress import DELAY, ProgressArg, progress_reporter
from ..core.records import replace
from ..errors import (
    FileAccessError,
    InputError,
    MeasureError,
    OutputExistsError,
    ParameterError,
)
from ..io.call_inputs import CallInputs, check_folder_inputs
from ..io.files import (
    access_error,
    current_umask,
    interrupts_held,
    make_staging,
    output_target,
)
from ..io.naming import NAME_MODES, NameSpec, file_names, given_names, run_id
from ..io.native_files import RunNote
from ..io.native_inputs import NativeInputs, native_inputs, read_qrels_once
from ..io.parquet_parts import read_parts
from ..io.sources import as_qrels, call_inputs, read_run_file, run_files
from ..io.table import Column, check_run_index
from ..measures.base import get_family, scores_needed
from ..measures.diversity import is_diversity_name
from ..measures.names import measure_names
from ..measures.results import Evaluation, RunSummaries
from ..measures.trec_table import NICKNAMES, NICKNAMES10
from ..parallel import ExecutorArg, check_workers, is_local, run_tasks
from .judged import evaluate_judged, evaluate_native, tie_warning
from .options import trec_eval_keywords, trec_eval_options
from .params import DEFAULT_BATCH_SIZE, EVALUATE_MANY
from .setup import EvaluationSetup, evaluation_setup

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from typing_extensions import Unpack  # typing's from Python 3.11

    from ..core.scorematrix import ScoreMatrix
    from ..measures.name_hints import MeasureNames
    from .options import TrecEvalKeywords

#: Name of the per-topic file of batch ``k`` (the number is zero-padded to the width
#: :func:`part_name` gives).
PART_PREFIX = "part-"
PART_SUFFIX = ".parquet"


@dataclass(frozen=True, eq=False, repr=False)
class ManyEvaluation(RunSummaries):
    """The summaries of :func:`evaluate_many`: per run (one per file, in file order) the
    summary value of every measure, as :class:`irscale.Evaluation` holds them
    (:meth:`summary`, :meth:`aggregates`, :meth:`mean`), and where the per-topic values
    went (:attr:`per_topic_dir`, read back by :meth:`per_topic`)."""

    columns: tuple[Column, ...]
    files: tuple[str, ...]
    run_names: tuple[str, ...]
    #: Per run, ``(column, summary value)`` in output order.
    summaries: tuple[tuple[tuple[Column, Any], ...], ...]
    #: Per run, the topics it retrieved documents for that the qrels do not judge.
    unjudged_topics: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    per_topic_dir: str | None = None
    batch_size: int = DEFAULT_BATCH_SIZE

    @property
    def runs(self) -> tuple[str, ...]:
        return self.run_names

    def summary(self, run_index: int) -> list[tuple[Column, Any]]:
        """``(column, summary value)`` of one run, in output order."""
        return list(self.summaries[check_run_index(self, run_index)])

    def per_topic(self) -> pd.DataFrame:
        """The per-topic table ``run, topic, measure, value`` read back from
        :attr:`per_topic_dir`, part after part (module documentation for the order)."""
        import pandas as pd

        if self.per_topic_dir is None:
            raise ParameterError("the per-topic values were not kept: give out=FOLDER to "
                                 "evaluate_many")
        parts = _parts(Path(self.per_topic_dir))
        if not parts:
            return pd.DataFrame(columns=["run", "topic", "measure", "value"])
        return read_parts(parts)

    def to_matrix(self, *, measures: Sequence[str] | None = None,
                  allow_missing: bool = False) -> ScoreMatrix:
        """The topics × runs × measures :class:`~irscale.core.scorematrix.ScoreMatrix` of
        the per-topic values kept in :attr:`per_topic_dir` (:meth:`per_topic`), as
        :meth:`irscale.Evaluation.to_matrix` gives it: ``measures`` the labels (default:
        every measure with per-topic values); a topic some run has no value for raises
        unless ``allow_missing`` (NaN)."""
        from ..core.scorematrix import ScoreMatrix

        frame = self.per_topic()
        per_topic = [c.label for c in self.columns if c.per_query and c.value_type != "str"]
        wanted = per_topic if measures is None else [str(m) for m in measures]
        unknown = [m for m in wanted if m not in per_topic]
        if unknown:
            raise MeasureError(f"{', '.join(unknown)}: no per-topic values kept (measures "
                               f"with per-topic values: {', '.join(per_topic)})")
        frame = frame[frame["measure"].isin(wanted)]
        matrix = ScoreMatrix.from_frame(frame, allow_missing=True)
        order = [r for r in self.runs if r in matrix.systems]
        matrix = matrix.subset(systems=order, measures=wanted)
        if not allow_missing:
            matrix.check_complete()
        return matrix

    def _caption(self) -> str:
        kept = "not kept" if self.per_topic_dir is None else \
            f"in {self.per_topic_dir!r}, .per_topic()"
        return (f"ManyEvaluation: {counted(len(self.runs), 'run')}, "
                f"{counted(len(self.measures), 'measure')} (each run's summary; per-topic "
                f"values {kept})")


@dataclass(frozen=True)
class _Batch:
    """What a batch task returns (small: no judged ranking)."""

    runs: tuple[str, ...]
    columns: tuple[Column, ...]
    summaries: tuple[tuple[tuple[Column, Any], ...], ...]
    unjudged: tuple[tuple[str, ...], ...]
    per_topic: Any  # a pandas DataFrame (None when not kept)
    #: Warnings of a task run on a Dask worker (their ``(category, message)``), shown here.
    warnings: tuple[tuple[type[Warning], str], ...] = ()
    #: With ``--ties expected``: the topic rankings whose order of ties matters and all
    #: the topic rankings of the batch, warned of once per call (:func:`tie_warning`);
    #: with a cache, each file's evaluation warns (its warning stored with it) instead.
    tied: tuple[int, int] = (0, 0)


def part_name(index: int, count: int) -> str:
    """File name of batch ``index`` of ``count``: ``part-00003.parquet``."""
    width = max(5, len(str(max(count - 1, 0))))
    return f"{PART_PREFIX}{index:0{width}d}{PART_SUFFIX}"


def _parts(folder: Path) -> list[Path]:
    return sorted(path for path in folder.iterdir()
                  if path.name.startswith(PART_PREFIX) and path.name.endswith(PART_SUFFIX))


def _run_names(files: Sequence[str], names: NameSpec) -> list[str | None]:
    """Names known before reading (``None``: the file's run id, known once read)."""
    if isinstance(names, str):
        if names not in NAME_MODES:
            raise ParameterError(f"names must be {' or '.join(NAME_MODES)} or one name per "
                                 f"run, got {names!r}")
        if names == "runid":
            return [None] * len(files)
        return list(file_names(files, stacklevel=4))
    return list(given_names(names, len(files)))


def _check_kept(setup: EvaluationSetup) -> None:
    """Every measure named has a summary or a number per topic to keep: a family with
    neither (relstring: text per topic, no summary) would be lost without a word (in a
    nickname such as ``all_trec`` it is left out, as ``irscale eval`` without ``-q`` does)."""
    for request in setup.requests:
        if get_family(request.family).aggregate == "none" and \
                request.requested not in {*NICKNAMES, *NICKNAMES10}:
            raise ParameterError(f"{request.requested or request.family} has no summary over "
                                 "topics and a text value per topic: evaluate_many (irscale "
                                 "eval-many) keeps summaries and numbers per topic; print it "
                                 "with irscale eval -q (irscale.evaluate)")


def check_out(out: str | os.PathLike[str], files: Iterable[Any] | CallInputs, *,
              force: bool = False, option: str = "out") -> str:
    """``out`` as a path, after the checks of the module documentation (before any work);
    ``files``: the files the call reads (the run files, the qrels when a path), none of
    which ``out`` may be or hold, under any name (:func:`~irscale.io.sources.
    check_folder_inputs`)."""
    path = os.fspath(out)
    if not path:
        raise ParameterError(f"{option} is empty: give a folder")
    folder = Path(output_target(path))  # a link stands for its target (kept a link)
    check_folder_inputs(path, files, option=option)
    if folder.exists():
        if not folder.is_dir():
            raise FileAccessError(f"{option} {path}: not a folder", path=path)
        held = sorted(p.name for p in folder.iterdir())
        if held and not force:
            raise OutputExistsError(f"{option} {path}: the folder holds files already "
                                    f"({', '.join(held[:3])}{' ...' if len(held) > 3 else ''}); "
                                    "--force (force=True) replaces an earlier output",
                                    path=path)
        foreign = [name for name in held
                   if not (name.startswith(PART_PREFIX) and name.endswith(PART_SUFFIX))]
        if foreign:
            raise OutputExistsError(f"{option} {path}: holds {foreign[0]!r}, which is no part "
                                    "file of an earlier output: not replaced, even with "
                                    "--force (choose an empty or new folder)", path=path)
    parent = folder.absolute().parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise FileAccessError(f"{option} {path}: cannot create it (folder {parent} does not "
                              "exist or is not writable)", path=path)
    return path


@EVALUATE_MANY
@trec_eval_keywords
def evaluate_many(
    qrels: Any,
    runs: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    measures: MeasureNames = "official",
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    executor: ExecutorArg = "local",
    workers: int | None = None,
    out: str | os.PathLike[str] | None = None,
    force: bool = False,
    names: NameSpec = "file",
    allow_empty: bool = False,
    progress: ProgressArg = False,
    cache: str | os.PathLike[str] | None = None,
    **trec: Unpack[TrecEvalKeywords],
) -> ManyEvaluation:
    """Evaluate many run files in batches, memory bounded by the batches running at once.

    Every value equals :func:`irscale.evaluate`'s on the same runs (module documentation).

    Parameters
    ----------
    qrels : Qrels, path, DataFrame or dict
        The judgments, as :func:`irscale.evaluate` takes them (read once).
    runs : folder, glob pattern, file, or a list of those
        The run files (:func:`run_files`): TREC text (plain or gzip) or Parquet
        (:mod:`irscale.io.run_parquet`), one run per file.
    measures : str or iterable of str, default "official"
        Measure names, as :func:`irscale.evaluate` takes them.
    batch_size : int, default 64
        Run files per batch (per task).
    executor, workers
        Where the batches run (:mod:`irscale.parallel`): ``"local"`` (``workers`` threads
        of this process, ``None``: one per CPU core), ``"local:N"``, a scheduler address or
        a ``dask.distributed.Client``. Memory holds about one batch per thread or worker.
    out : folder, optional
        Where the per-topic values go, as Parquet files (module documentation); ``None``:
        they are not kept (the summaries are).
    force : bool, default False
        Replace an earlier output in ``out``.
    names : {"file", "runid"} or sequence of str, default "file"
        How runs are named: by file stem (longer forms where stems collide, with a
        warning), by the run id of each file (two files with one run id are an error: use
        ``"file"``), or one name per file.
    allow_empty : bool, default False
        As in :func:`irscale.evaluate`.
    progress : bool or callable, default False
        Progress by run file evaluated (:mod:`irscale.core.progress`).
    cache : folder, optional
        A results cache (docs/evaluation.md, "The results cache"), one entry per run file:
        a run file whose bytes, name, qrels, measures and options were evaluated before is
        read from the folder, the others are evaluated (one file at a time) and stored.
        Local executor only.

    Returns
    -------
    ManyEvaluation
        The summaries (:meth:`~ManyEvaluation.mean`: runs × measures, as
        ``irscale.evaluate(...).mean()``) and the per-topic folder.

    Other Parameters
    ----------------
    relevance_level, max_docs, judged_only, complete, num_docs_in_coll, compat, ties : \
see irscale.evaluate
        trec_eval's options, as in :func:`irscale.evaluate` (``-l``, ``-M``, ``-J``,
        ``-c``, ``-N``; declared once: :mod:`irscale.evaluation.options`).

    Raises
    ------
    ParameterError, MeasureError
        A bad option (checked before any file is read).
    InputError, FileAccessError, AlignmentError
        As :func:`irscale.evaluate`, for the first run file that fails (its name and line
        in the message); nothing is written then.
    OutputExistsError
        ``out`` holds files (without ``force``), or files that are no earlier output.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "qrels").write_text("1 0 d1 1\\n1 0 d2 0\\n2 0 d3 1\\n")
    >>> (folder / "runs").mkdir()
    >>> _ = (folder / "runs" / "bm25.run").write_text(
    ...     "1 Q0 d2 1 2.0 x\\n1 Q0 d1 2 1.0 x\\n2 Q0 d3 1 1.0 x\\n")
    >>> _ = (folder / "runs" / "ql.run").write_text("1 Q0 d1 1 1.0 y\\n2 Q0 d9 1 1.0 y\\n")
    >>> many = evaluate_many(folder / "qrels", folder / "runs", ["map", "P@1"],
    ...                      batch_size=1, out=folder / "per-topic")
    >>> many.mean().to_dict("index")
    {'bm25': {'map': 0.75, 'P@1': 0.5}, 'ql': {'map': 0.5, 'P@1': 0.5}}
    >>> sorted(p.name for p in (folder / "per-topic").iterdir())
    ['part-00000.parquet', 'part-00001.parquet']
    >>> many.per_topic().query("measure == 'map'")["value"].tolist()
    [0.5, 1.0, 1.0, 0.0]
    """
    # the parameters, for the key
    call = {**locals(), **vars(trec_eval_options(trec))} if cache is not None else None
    diversity = [name for name in measure_names(measures) if is_diversity_name(name)]
    if diversity:
        raise ParameterError(f"{diversity[0]} is a diversity measure: evaluate_many (irscale "
                             "eval-many) computes trec_eval's and ir_measures' measures; "
                             "use irscale.evaluate (irscale eval) with diversity qrels")
    setup = evaluation_setup(measures, **trec)
    _check_kept(setup)
    size = batch_size
    executor = check_workers(workers, executor)
    if not isinstance(allow_empty, bool) or not isinstance(force, bool):
        raise ParameterError("allow_empty and force must be True or False")
    files = run_files(runs)
    chosen = _run_names(files, names)
    if out is not None:
        PYARROW.load("writing per-topic Parquet files", InputError, source=str(out))
    target = None if out is None else check_out(out, call_inputs([qrels, *files]),
                                                force=force)
    cached = None if call is None else _cache(call, setup, files, executor)
    inputs = native_inputs(qrels, files, scores=scores_needed(setup.requests))
    judged: Judged = (read_qrels_once(inputs) if isinstance(inputs, NativeInputs) else
                      as_qrels(qrels))
    batches = [(tuple(files[i:i + size]), tuple(chosen[i:i + size]))
               for i in range(0, len(files), size)]
    capture = not is_local(executor)
    tasks = [(paths, batch_names, target is not None, capture) for paths, batch_names in batches]
    collected = _Collected(files, len(batches))
    report = progress_reporter(progress, len(files), "evaluating runs", delay=DELAY)
    sizes = [len(paths) for paths, _ in batches]

    finished = 0

    def done(index: int) -> None:
        nonlocal finished
        finished += sizes[index]
        report(finished)

    with _output_folder(target, force) as temporary, \
            (nullcontext() if cached is None else cached.installed()):
        def on_result(index: int, batch: _Batch) -> None:
            collected.add(index, batch, temporary)

        run_tasks(_evaluate_batch, tasks, on_result,
                  shared=(judged, setup, allow_empty, cached), executor=executor,
                  workers=workers, done=done)
    return collected.result(target, size)


def _cache(call: dict[str, Any], setup: EvaluationSetup, files: list[str],
           executor: ExecutorArg) -> RunCache | None:
    """The cache of a call with ``cache=`` (``call``: its parameters), one entry per run
    file; ``None`` when the qrels name no readable file (the evaluation reports it, as
    without a cache)."""
    if not is_local(executor):
        raise ParameterError("a cache (--cache, cache=) applies to the local executor (this "
                             "process's threads): evaluate on a Dask cluster without it")
    return RunCache.of(CacheCall(call["cache"], evaluate_many, call), setup, files)


class _Collected:
    """The summaries of the batches as they come (in batch order), and the part files."""

    def __init__(self, files: Sequence[str], count: int) -> None:
        self.files = files
        self.count = count
        self.columns: tuple[Column, ...] | None = None
        self.names: list[str] = []
        self.summaries: list[tuple[tuple[Column, Any], ...]] = []
        self.unjudged: dict[str, tuple[str, ...]] = {}
        self.file_of: dict[str, str] = {}
        self.tied = (0, 0)

    def add(self, index: int, batch: _Batch, temporary: str | None) -> None:
        for category, message in batch.warnings:
            warnings.warn(message, category, stacklevel=2)
        if self.columns is None:
            self.columns = batch.columns
        first = len(self.names)
        for offset, name in enumerate(batch.runs):
            path = self.files[first + offset]
            if name in self.file_of:  # run ids of two files (names="runid")
                raise ParameterError(f"run files {self.file_of[name]} and {path} both name "
                                     f"their run {name!r}: name runs by file (names='file', "
                                     "--names file) or one name per file")
            self.file_of[name] = path
        self.tied = (self.tied[0] + batch.tied[0], self.tied[1] + batch.tied[1])
        self.names.extend(batch.runs)
        self.summaries.extend(batch.summaries)
        self.unjudged.update(zip(batch.runs, batch.unjudged, strict=True))
        if temporary is not None:
            part = os.path.join(temporary, part_name(index, self.count))
            try:
                batch.per_topic.to_parquet(part, index=False, compression="zstd")
            except OSError as error:
                raise access_error(error, part, "write") from None

    def result(self, target: str | None, batch_size: int) -> ManyEvaluation:
        """The call's result, after its one warning of the rankings whose order of ties
        matters (``--ties expected``; the batches' evaluations give none)."""
        if self.tied[0]:
            warnings.warn(tie_warning(*self.tied), stacklevel=3)
        return ManyEvaluation(columns=self.columns or (), files=tuple(self.files),
                              run_names=tuple(self.names), summaries=tuple(self.summaries),
                              unjudged_topics=self.unjudged, per_topic_dir=target,
                              batch_size=batch_size)


@contextmanager
def _output_folder(target: str | None, force: bool) -> Iterator[str | None]:
    """The temporary folder beside ``target`` the parts are written to, renamed to
    ``target`` at the end (replacing an earlier output: ``force``), removed on an error."""
    if target is None:
        yield None
        return
    folder = Path(output_target(target)).absolute()  # a link: its target, the link stays
    with interrupts_held():
        try:
            temporary, handle = make_staging(folder, folder=True)
        except OSError as error:
            raise access_error(error, target, "write") from None
    try:
        yield temporary
        with interrupts_held():
            os.chmod(temporary, 0o777 & ~current_umask())
            _publish(temporary, folder, force)
    except BaseException:
        with interrupts_held():
            shutil.rmtree(temporary, ignore_errors=True)
        raise
    finally:
        os.close(handle)


def _publish(temporary: str, folder: Path, force: bool) -> None:
    """Rename ``temporary`` to ``folder``, replacing an earlier output there (checked by
    :func:`check_out`; one that appeared meanwhile is refused)."""
    if os.path.lexists(folder):
        if not folder.is_dir() or (any(folder.iterdir()) and not force):
            raise OutputExistsError(f"{folder} appeared while irscale was writing it: "
                                    "refusing to replace it (--force)", path=str(folder))
        old = tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".old", dir=folder.parent)
        os.rmdir(old)
        os.rename(folder, old)
        os.rename(temporary, folder)
        shutil.rmtree(old, ignore_errors=True)
        return
    os.rename(temporary, folder)


#: How a batch's runs are judged: as TREC files (:class:`NativeInputs`, the qrels read
#: once: :func:`irscale.io.native_inputs.native_inputs`), or as runs read by the Python
#: readers, against the qrels read once by them.
Judged = NativeInputs | Qrels


def _evaluate_batch(judged: Judged, setup: EvaluationSetup, allow_empty: bool,
                    cached: RunCache | None, paths: tuple[str, ...],
                    names: tuple[str | None, ...], per_topic: bool, capture: bool) -> _Batch:
    """One batch: read, judge and evaluate its run files (a task of the executor); with a
    cache, each run file's evaluation read from it, or evaluated alone and stored with its
    warnings (shown by the caller in either case)."""
    if cached is not None:  # each file's warnings stored with it, that of ties included
        evaluations, shown = cached.evaluations(
            zip(paths, names, strict=True),
            lambda path, name: _evaluated(judged, setup, allow_empty, (path,), (name,),
                                          warn_ties=True))
        return replace(_batch(evaluations, per_topic), warnings=tuple(shown), tied=(0, 0))
    if not capture:
        return _batch([_evaluated(judged, setup, allow_empty, paths, names)], per_topic)
    with warnings.catch_warnings(record=True) as caught:  # a Dask worker: shown by the client
        warnings.simplefilter("always")
        batch = _batch([_evaluated(judged, setup, allow_empty, paths, names)], per_topic)
    return replace(batch, warnings=tuple((w.category, str(w.message)) for w in caught))


def _batch(evaluations: list[Evaluation], per_topic: bool) -> _Batch:
    """The batch of the evaluations of its run files (one evaluation of them all, or one
    per file): its per-topic table measure by measure, runs in file order."""
    frame = None
    if per_topic:
        frames = [evaluation.per_topic() for evaluation in evaluations]
        frame = frames[0] if len(frames) == 1 else _by_measure(frames)
    judged = [e.rankings for e in evaluations if e.rankings is not None]
    return _Batch(
        tied=(sum(jr.tie_dependent() for jr in judged), sum(jr.n_rankings for jr in judged)),
        runs=tuple(run for evaluation in evaluations for run in evaluation.runs),
        columns=evaluations[0].columns,
        summaries=tuple(tuple(evaluation.summary(k)) for evaluation in evaluations
                        for k in range(len(evaluation.runs))),
        unjudged=tuple(unjudged for evaluation in evaluations
                       for unjudged in evaluation.rows.unjudged_topics),
        per_topic=frame)


def _by_measure(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Per-topic tables of consecutive runs as one table of them all: rows measure by
    measure (in the order of the first table), runs in order within a measure."""
    import pandas as pd

    joined = pd.concat(frames, ignore_index=True)
    order = {label: k for k, label in enumerate(dict.fromkeys(frames[0]["measure"]))}
    rank = joined["measure"].map(order)
    return joined.iloc[rank.argsort(kind="stable")].reset_index(drop=True)


def _evaluated(judged: Judged, setup: EvaluationSetup, allow_empty: bool,
               paths: tuple[str, ...], names: tuple[str | None, ...], *,
               warn_ties: bool = False) -> Evaluation:
    """The evaluation of run files ``paths`` named ``names`` (``None``: by run id);
    ``warn_ties``: it warns of the rankings whose order of ties matters itself (else the
    call does, once: :class:`_Collected`)."""
    if isinstance(judged, NativeInputs):
        batch = replace(judged, runs=tuple(("path", path) for path in paths))
        evaluation = evaluate_native(
            batch, setup, allow_empty=allow_empty, warn_ties=warn_ties,
            names=lambda notes: _batch_names(paths, names, _warned(notes)))
    else:
        keep_rank = setup.options.ties == "rank-column"
        runs = [read_run_file(path, name=name, keep_rank=keep_rank)
                for path, name in zip(paths, names, strict=True)]
        chosen = _batch_names(paths, names, [run_id(run) for run in runs])
        runs = [run if run.name == name else replace(run, name=name)
                for run, name in zip(runs, chosen, strict=True)]
        evaluation = evaluate_judged(judged, runs, setup, allow_empty=allow_empty,
                                     warn_ties=warn_ties)
        del runs
    return evaluation


def _warned(notes: list[RunNote]) -> list[str]:
    """The last run id of every run file, after the file's warnings; none when a file is
    refused after it was read (``notes`` stop at it: its error follows)."""
    for note in notes:
        note.warn()
    return [] if notes and notes[-1].refused else [note.last for note in notes]


def _batch_names(paths: Sequence[str], names: Sequence[str | None], runids: Sequence[str]
                 ) -> list[str]:
    """The names of a batch's runs: those chosen (``names``), else their run ids (the run
    id of each file's last line); two files of the batch with one run id are an error.
    No run ids (a file refused, whose error follows): no names."""
    if len(runids) != len(paths):
        return []
    chosen = [runid if name is None else name
              for name, runid in zip(names, runids, strict=True)]
    seen: dict[str, str] = {}
    for path, name in zip(paths, chosen, strict=True):
        if name in seen:
            raise ParameterError(f"run files {seen[name]} and {path} both name their run "
                                 f"{name!r}: name runs by file (names='file', --names "
                                 "file) or one name per file")
        seen[name] = path
    return chosen


__all__ = ["DEFAULT_BATCH_SIZE", "ManyEvaluation", "check_out", "evaluate_many", "part_name",
           "run_files"]

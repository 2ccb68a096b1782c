"""Readers of TREC qrels and run files (plain or gzip-compressed).

Formats (fields separated by any run of spaces or tabs; blank lines are ignored):

* qrels: ``qid iter docno rel``, ``rel`` an integer; negative values mark documents in the
  pool that were not judged (trec_eval's convention, used by infAP's sampled pools).
* run: ``qid Q0 docno rank score runid``; column 2 is ignored (``Q0`` or ``0``), as is the
  rank column unless the ``rank-column`` tie policy asks for it. Scores must be finite.
"""

from __future__ import annotations

import io
import math
import os
import warnings
from collections.abc import Callable, Iterable, Mapping

import numpy as np
import pyarrow as pa

from ..core._columnar import arrow
from ..core._columnar import arrow_compute as pc
from ..core._columnar.blocks import TopicBlocks
from ..core._columnar.duplicates import DuplicatePolicy, check_duplicate_policy, resolve_duplicates
from ..core._columnar.fingerprints import string_fingerprints
from ..core.inputs import Qrels, Run, assemble_run
from ..core.progress import DELAY, ProgressArg, progress_reporter
from ..errors import InputError, InputFormatError, ParameterError, shorten
from ._text import (
    FieldCheck,
    PathLike,
    check_int64,
    is_float,
    line_of_record,
    parse_columns,
    source_name,
)
from .irds import is_irds
from .naming import NameSpec, name_runs

QRELS_FIELDS = ("qid", "iter", "docno", "rel")
RUN_FIELDS = ("qid", "Q0", "docno", "rank", "score", "runid")


def _check_score(text: str) -> str | None:
    if not is_float(text):
        return "is not a number"
    if not math.isfinite(float(text)):
        return "is not finite (NaN or infinite scores cannot be ranked)"
    return None


_SOURCES = "a file path, '-' (standard input), an open binary file or bytes"


def _describe(value: object) -> str:
    """``int 3``, ``None``, ``DataFrame``: what a caller passed, for an error message."""
    if value is None:
        return "None"
    kind = type(value).__name__
    if isinstance(value, os.PathLike):
        return f"{kind} {shorten(repr(os.fspath(value)), 120)}"
    text = repr(value)
    return f"{kind} {text}" if len(text) <= 60 and "\n" not in text else kind


def _check_source(source: object, where: str, hint: str = "") -> PathLike | io.IOBase | bytes:
    """``source`` if the readers can read it (a path, ``-``, a binary stream, bytes; a
    bytearray or memoryview as bytes); :class:`InputError` naming ``where`` otherwise."""
    if isinstance(source, str) and any(c in source for c in "\n\r\t") and \
            not os.path.lexists(source):
        raise InputError(f"{where}: no file is named {shorten(repr(source), 120)} (a str "
                         "is read as a file name; data held in memory are read as bytes: "
                         "b'...' or text.encode())")
    if isinstance(source, (str, os.PathLike, bytes)):
        return source
    if isinstance(source, (bytearray, memoryview)):
        return bytes(source)
    if callable(getattr(source, "read", None)):
        return source  # type: ignore[return-value]
    if hint and not (isinstance(source, Mapping) or hasattr(source, "columns")):
        hint = ""
    raise InputError(f"{where}: expected {_SOURCES}, got {_describe(source)}{hint}")


def _memory_hint(values: str) -> str:
    return (f" (a DataFrame or a dict {{topic: {{docno: {values}}}}} is not read: pass it to "
            f"irscale.evaluate as it is)")


def read_qrels(
    source: PathLike | io.IOBase | bytes, *, duplicates: DuplicatePolicy = "error"
) -> Qrels:
    """Read a TREC qrels file ``qid iter docno rel``.

    Parameters
    ----------
    source : path, file object or bytes
        A path (plain or gzip-compressed; ``"-"`` reads standard input), an open binary
        file or the file's bytes. Fields are separated by spaces or tabs; ``iter`` is
        ignored; ``rel`` is an integer, negative for pooled documents that were not judged
        (``2.0`` is 2, as trec_eval reads it; ``1.5`` and ``1e1`` are refused).
        ``"irds:DATASET_ID"`` reads the qrels of an ir_datasets dataset
        (:mod:`irscale.io.irds`; ``pip install 'irscale[irds]'``).
    duplicates : {"error", "first", "last", "max"}, default "error"
        What to do with a (topic, docno) pair judged twice: raise, or keep the first, the
        last or the highest judgment.

    Returns
    -------
    Qrels
        One row per judgment, in file order.

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
        ``source`` is none of the above (``None``, a number, a DataFrame or dict: those
        go to :func:`irscale.evaluate` as they are).

    Examples
    --------
    >>> qrels = read_qrels(b"101 0 d1 1\\n101 0 d2 0\\n102 0 d7 2\\n")
    >>> qrels
    Qrels(2 topics, 3 judgments, source='<bytes>')
    >>> qrels.topics, qrels.rel.tolist()
    (['101', '102'], [1, 0, 2])
    >>> read_qrels(b"101 0 d1 1\\n101 0 d1 2\\n", duplicates="max").rel.tolist()
    [2]
    """
    check_duplicate_policy(duplicates)
    if is_irds(source):
        from .irds import irds_qrels

        return irds_qrels(source, duplicates=duplicates)
    source = _check_source(source, "read_qrels", _memory_hint("relevance"))
    name = source_name(source)
    table, raw = parse_columns(
        source,
        QRELS_FIELDS,
        {"qid": pa.string(), "docno": pa.string(), "rel": pa.int64()},
        ("qid", "docno", "rel"),
        {3: check_int64},
        "qrels",
    )
    topic = table["qid"]
    docno = table["docno"]
    rel = arrow.to_numpy(table["rel"])
    fingerprints = string_fingerprints(docno)
    blocks: TopicBlocks | None = TopicBlocks.of(topic)
    keep = resolve_duplicates(
        topic, docno, rel, duplicates, name, lambda row: line_of_record(raw(), row),
        fingerprints, blocks, explain=_diversity_hint(raw),
    )
    if keep is not None:
        take = arrow.array(keep)
        topic, docno, rel = pc.take(topic, take), pc.take(docno, take), rel[keep]
        fingerprints, blocks = fingerprints[keep], None
    return Qrels(
        topic=topic, docno=docno, rel=rel, source=name, fingerprints=fingerprints, blocks=blocks
    )


def _diversity_hint(raw: Callable[[], bytes]) -> Callable[[int, int], str]:
    """What a duplicate (topic, docno) of plain qrels adds when the two lines differ in
    their second field: diversity qrels (``topic subtopic docno judgment``, ndeval's
    format) judge a document once per intent, and are read as such on request."""

    def explain(first: int, second: int) -> str:
        fields = [line_of_record(raw(), row)[1].split() for row in (first, second)]
        if fields[0][1] == fields[1][1]:
            return ""
        return (f"; its lines differ in the second field ({fields[0][1]!r}, "
                f"{fields[1][1]!r}), as diversity qrels 'topic subtopic docno judgment' "
                "do: read them with --qrels-format diversity or a diversity measure "
                "(-m ndeval, alpha-nDCG@20; read_diversity_qrels in Python)")

    return explain


def read_run(
    source: PathLike | io.IOBase | bytes,
    *,
    name: str | None = None,
    duplicates: DuplicatePolicy = "error",
    keep_rank: bool = False,
) -> Run:
    """Read a TREC run file ``qid Q0 docno rank score runid``.

    Parameters
    ----------
    source : path, file object or bytes
        A path (plain or gzip-compressed; ``"-"`` reads standard input), an open binary
        file or the file's bytes. Column 2 is ignored, as is the rank column unless
        ``keep_rank``; scores must be finite numbers. ``"irds:DATASET_ID"`` reads the
        scored documents of an ir_datasets dataset (:mod:`irscale.io.irds`), named after
        the dataset.
    name : str, optional
        The run's name; by default, as in trec_eval 9.0.8, the run id of its last line
        (a warning says so when the file holds several run ids).
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
        ``source`` is none of the above (``None``, a number, a DataFrame or dict: those
        go to :func:`irscale.evaluate` as they are).

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
    check_duplicate_policy(duplicates)
    if isinstance(source, (list, tuple)):
        raise InputError(f"read_run: expected {_SOURCES}, got {_describe(source)} "
                         f"(several runs: read_runs)")
    if is_irds(source):
        if keep_rank:
            raise ParameterError(f"{source}: ir_datasets' scored documents have no rank "
                                 "column to keep (use another tie policy)")
        from .irds import irds_run

        return irds_run(source, name=name, duplicates=duplicates)
    source = _check_source(source, "read_run", _memory_hint("score"))
    source_label = source_name(source)
    include = ["qid", "docno", "score", "runid"] + (["rank"] if keep_rank else [])
    checks: dict[int, FieldCheck] = {4: _check_score}
    if keep_rank:
        checks[3] = check_int64
    table, raw = parse_columns(
        source,
        RUN_FIELDS,
        {
            "qid": pa.string(),
            "docno": pa.string(),
            "rank": pa.int64(),
            "score": pa.float64(),
            "runid": pa.string(),
        },
        include,
        checks,
        "run",
    )
    score = arrow.to_numpy(table["score"])
    bad = np.flatnonzero(~np.isfinite(score))
    if len(bad):
        line, text = line_of_record(raw(), int(bad[0]))
        raise InputFormatError(
            "score is not finite (NaN or infinite scores cannot be ranked)",
            source=source_label,
            line=line,
            text=text,
        )
    topic = table["qid"]
    docno = table["docno"]
    rank = arrow.to_numpy(table["rank"]) if keep_rank else None
    last_runid, runids = _run_ids(table["runid"])
    del table  # the run id and score columns are not needed any more: free them
    if len(runids) > 1:
        warnings.warn(
            f"{source_label}: {len(runids)} different run ids; the run is named after the "
            f"last one ({last_runid!r}), as trec_eval 9.0.8 does",
            stacklevel=2,
        )
    return assemble_run(
        topic, docno, score, rank,
        name=name if name is not None else last_runid,
        source=source_label,
        runids=runids,
        duplicates=duplicates,
        describe_row=lambda row: line_of_record(raw(), row),
    )


def _run_ids(column: pa.ChunkedArray) -> tuple[str, tuple[str, ...]]:
    """The run id of the last line and the distinct run ids (in order of first appearance).

    A run file almost always names one run on every line: comparing every id with the first
    one is much cheaper than hashing them all (or dictionary-encoding them while parsing).
    """
    first = column[0]
    if pc.all(pc.elementwise_shared(pc.equal, column, first)).as_py():
        return first.as_py(), (first.as_py(),)
    return column[-1].as_py(), tuple(pc.unique(column).to_pylist())


def read_runs(
    sources: Iterable[PathLike] | Mapping[str, PathLike],
    *,
    names: NameSpec = "runid",
    duplicates: DuplicatePolicy = "error",
    keep_rank: bool = False,
    progress: ProgressArg = False,
) -> list[Run]:
    """Read several run files, every run with a distinct name.

    Parameters
    ----------
    sources : iterable of paths, or mapping ``{name: path}``
        The run files (plain or gzip-compressed). A mapping names the runs itself.
    names : {"runid", "file"} or sequence of str, default "runid"
        How to name the runs of a list of files (see :mod:`irscale.io.naming`):
        ``"runid"`` names each run by its run id, except runs that share one: those are
        named after their files (``bm25.run.gz`` → ``bm25``; a longer form where stems
        collide too), with a warning; ``"file"`` names every run by its file stem; a
        sequence gives one name per file.
    duplicates : {"error", "first", "last", "max"}, default "error"
        The duplicate policy of :func:`read_run`.
    keep_rank : bool, default False
        Keep the rank column (see :func:`read_run`).
    progress : bool or callable, default False
        Progress by file read (:mod:`irscale.core.progress`; a bar for reading that takes
        longer than a second).

    Returns
    -------
    list of Run
        One run per file, in the order given, with distinct names.

    Raises
    ------
    ParameterError
        ``names`` given with a mapping, an unknown naming rule, or a list of names of the
        wrong length or with repeats.
    InputError, FileAccessError
        As :func:`read_run`, for the first file that cannot be read; ``InputError`` also
        for ``sources`` that are not a list or mapping of files (one path: :func:`read_run`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     folder = pathlib.Path(tmp)
    ...     _ = (folder / "a.run").write_text("1 Q0 d1 1 2.5 bm25\\n")
    ...     _ = (folder / "b.run").write_text("1 Q0 d1 1 1.0 ql\\n")
    ...     paths = [folder / "a.run", folder / "b.run"]
    ...     by_runid = [run.name for run in read_runs(paths)]
    ...     by_file = [run.name for run in read_runs(paths, names="file")]
    ...     given = [run.name for run in read_runs({"x": paths[0], "y": paths[1]})]
    >>> by_runid, by_file, given
    (['bm25', 'ql'], ['a', 'b'], ['x', 'y'])
    """
    expected = "expected a list of run files or a mapping {name: run file}"
    if isinstance(sources, Mapping):
        if not (isinstance(names, str) and names == "runid"):
            raise ParameterError("read_runs: a mapping {name: path} names the runs already; "
                                 "names= applies to a list of files")
        return [
            read_run(_check_source(path, f"read_runs: run {str(key)!r}"), name=str(key),
                     duplicates=duplicates, keep_rank=keep_rank)
            for key, path in sources.items()
        ]
    if isinstance(sources, (str, os.PathLike, bytes, bytearray, memoryview)) \
            or callable(getattr(sources, "read", None)):
        raise InputError(f"read_runs: {expected}, got {_describe(sources)} "
                         f"(one run: read_run, or read_runs([...]))")
    if not isinstance(sources, Iterable) or hasattr(sources, "columns"):
        raise InputError(f"read_runs: {expected}, got {_describe(sources)}")
    items = list(sources)
    report = progress_reporter(progress, len(items), "reading runs", delay=DELAY)
    runs = []
    for number, path in enumerate(items, 1):
        runs.append(read_run(_check_source(path, f"read_runs: item {number}"),
                             duplicates=duplicates, keep_rank=keep_rank))
        report(number)
    return name_runs(runs, names)

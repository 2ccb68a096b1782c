"""TREC qrels and run files judged by the native engine: from the files' bytes to one
:class:`~irscale.core.judged.JudgedRankings`, without ``Qrels`` or ``Run`` objects.

The engine (``irscale._engine.judge_trec_batch``, ``rust/src/read``) reads the files as
:mod:`irscale.io.trec` does: the same lines accepted and refused, the same values, the
same errors (file, line and text). It decompresses gzip data itself; when they are
truncated or corrupt, :func:`irscale.io.files.gunzip` says why, in Python's words. It
ranks every run by the tie policy and judges it against the qrels as
:func:`irscale.core.judge.build_judged_rankings` does (:mod:`irscale.core.native_judge`).

>>> jr = judge_trec((b"1 0 d1 1\\n1 0 d2 0\\n", "qrels"),
...                 [(b"1 Q0 d2 1 2.0 bm25\\n1 Q0 d1 2 1.0 bm25\\n", "run")])
>>> jr.rel.tolist(), jr.runs
([0, 1], ('bm25',))
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NoReturn

from .. import _engine
from ..core._columnar.duplicates import duplicate_reason
from ..core.inputs import c_float_warning
from ..core.judged import JudgedRankings
from ..core.native_judge import judged_rankings
from ..core.options import TiePolicy
from ..core.ranking import RankingOptions
from ..errors import DuplicateError, EmptyInputError, InputFormatError
from .files import PathLike, access_error, check_readable, display_name, gunzip, read_file
from .trec import diversity_hint, several_runids


def judge_trec(
    qrels: tuple[bytes | PathLike, str],
    runs: Sequence[tuple[bytes | PathLike, str]],
    options: RankingOptions | None = None,
    *,
    names: Sequence[str | None] | Callable[[list[RunNote]], list[str]] | None = None,
    placeholders: bool = False,
) -> JudgedRankings:
    """The judged rankings of the run files ``runs`` against the qrels file ``qrels``,
    each given as ``(bytes or path, name in messages)`` (plain or gzip-compressed; the
    engine reads a file given by its path when its turn comes, so that a run's bytes are
    held while it is read and judged only).

    ``names``: each run's name (``None``: as trec_eval 9.0.8, the run id of its last line;
    a file that holds several run ids is warned of), or a function from the runs'
    :class:`RunNote` to their names, which gives the runs' warnings (:meth:`RunNote.warn`)
    in its order (also when a file is refused: given the notes of the files read before,
    and the refused file's if it was read, it gives their warnings only).
    ``placeholders``: trec_eval 10's ``-c`` (:func:`~irscale.core.judge.build_judged_rankings`).
    Faults of a file raise the errors of :func:`irscale.read_qrels` and
    :func:`irscale.read_run`, with the same messages.
    """
    return judge_counted(qrels, runs, options, names=names, placeholders=placeholders)[0]


def judge_counted(
    qrels: tuple[bytes | PathLike, str],
    runs: Sequence[tuple[bytes | PathLike, str]],
    options: RankingOptions | None = None,
    *,
    names: Sequence[str | None] | Callable[[list[RunNote]], list[str]] | None = None,
    placeholders: bool = False,
) -> tuple[JudgedRankings, Callable[[int], int]]:
    """:func:`judge_trec`, and the number of the qrels' judgments with a degree at least
    ``level`` (a function of ``level`` ≥ 0, over every qrels topic: the summary of
    ``num_rel`` with ``-c``, :func:`irscale.evaluation.complete_num_rel`)."""
    options = options or RankingOptions()
    try:
        batch = _engine.judge_trec_batch(
            qrels[0], qrels[1], [(data, name) for data, name in runs], options.ties,
            options.compat, options.max_docs, options.judged_only, placeholders)
    except _engine.TrecReadError as error:
        raise_read_error(error, [qrels, *runs], names if callable(names) else None)
    notes = batch.notes()
    found = [RunNote(source, runids, last, beyond)
             for (_, source), (runids, last, beyond) in zip(runs, notes, strict=True)]
    if callable(names):
        run_names = names(found)
    else:
        for note in found:
            note.warn()
        run_names = [note.last if given is None else given
                     for note, given in zip(found, names or [None] * len(runs), strict=True)]
    return engine_judgment(batch.arrays(), run_names, options, placeholders=placeholders)


def engine_judgment(judged: tuple, run_names: Sequence[str], options: RankingOptions, *,
                    placeholders: bool = False
                    ) -> tuple[JudgedRankings, Callable[[int], int]]:
    """The judged rankings of the arrays of the engine's judged batch
    (``judge_trec_batch(...).arrays()``, or ``judge_dicts``), the runs named
    ``run_names``, and the number of the qrels' judgments with a degree at least ``level``
    (a function of ``level``)."""
    (rel, offsets, rel_levels, degrees, dense, judgments, ranking_topic, ranking_run,
     placeholder, topics, _, unjudged) = judged
    jr = judged_rankings(rel, offsets, rel_levels, degrees, dense, ranking_topic,
                         ranking_run, placeholder, topics, run_names, unjudged, options,
                         placeholders=placeholders)

    def at_least(level: int) -> int:
        return int(judgments[degrees >= level].sum())

    return jr, at_least


def judge_files(
    qrels: PathLike,
    runs: Sequence[PathLike],
    *,
    ties: TiePolicy = "trec_eval",
    relevance_level: int = 1,
    max_docs: int | None = None,
    judged_only: bool = False,
    compat: int = 9,
    complete: bool = False,
) -> JudgedRankings:
    """:func:`judge_trec` of files given by their paths; the options are trec_eval's
    (:class:`~irscale.core.ranking.RankingOptions`), ``complete`` its ``-c``. Runs are
    named after their last run id."""
    options = RankingOptions(relevance_level=relevance_level, max_docs=max_docs,
                             judged_only=judged_only, ties=ties, compat=compat)
    return judge_trec(trec_file(qrels), [trec_file(path) for path in runs], options,
                      placeholders=complete)


def trec_file(path: PathLike) -> tuple[PathLike, str]:
    """The file at ``path`` (checked readable: :class:`FileAccessError` otherwise) and its
    name in messages, for the engine to read."""
    check_readable(path)
    return path, display_name(path)


@dataclass(frozen=True)
class RunNote:
    """What the engine says of a run file beside its rankings: its name in messages
    (``source``), its distinct run ids, the run id of its last line, and the scores no C
    float holds (how many, the line and text of the first), if any."""

    source: str
    runids: list[str]
    last: str
    beyond: tuple[int, int, str] | None
    #: The file was read, then refused (its warnings come before its error).
    refused: bool = False

    def warn(self) -> None:
        """The warnings :func:`irscale.read_run` gives of this file."""
        _warn(self.source, self.runids, self.last, self.beyond, stacklevel=4)


def _warn(source: str, runids: list[str], last: str,
          beyond: tuple[int, int, str] | None, stacklevel: int = 3) -> None:
    """The warnings :func:`irscale.read_run` gives of a run file: several run ids (named or
    not), scores beyond a C float."""
    if len(runids) > 1:
        warnings.warn(several_runids(source, len(runids), last), stacklevel=stacklevel)
    if beyond is not None:
        count, line, text = beyond
        warnings.warn(c_float_warning(f"{source}, line {line}", count, text),
                      stacklevel=stacklevel)


def raise_read_error(error: Exception, files: Sequence[tuple[bytes | PathLike, str]],
           names: Callable[[list[RunNote]], list[str]] | None = None) -> NoReturn:
    """The package's error for the engine's ``TrecReadError`` (``files``: the bytes or path
    and the name of every file, for gzip data that cannot be decompressed), after the warnings
    of the runs read before the faulty file, as the Python readers give them (by
    ``names``, given the notes of the runs read, the faulty file's last and ``refused``
    when it was read)."""
    kind, reason, source, line, text, details, notes = error.args
    found = [RunNote(*note) for note in notes]
    if found and found[-1].source == source:  # a file read, then refused (duplicates)
        found[-1] = replace(found[-1], refused=True)
    if names is not None:
        names(found)
    else:
        for note in found:
            note.warn()
    if kind == "empty":
        raise EmptyInputError(reason, source=source) from None
    if kind == "duplicate":
        topic, docno, *fields = details
        why = diversity_hint(*fields) if fields else ""
        raise DuplicateError(duplicate_reason(topic, docno, why), source=source, line=line,
                             text=text) from None
    given = [data for data, name in files if name == source]
    if kind == "access":  # the OS's error number, if any, and its words
        path = next((data for data in given if not isinstance(data, bytes)), source)
        raise access_error(OSError(int(details[0]) if details else None, reason),
                           path) from None
    if kind == "gzip":
        for data in given:  # Python's words, where Python refuses the data too
            raw = data if isinstance(data, bytes) else read_file(data)
            if raw[:2] == b"\x1f\x8b":
                gunzip(raw, source)
        raise InputFormatError(f"corrupt gzip data ({reason})", source=source) from None
    raise InputFormatError(reason, source=source, line=line, text=text) from None

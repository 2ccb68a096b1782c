"""TREC files read and judged by the native engine, in the package's words: the judged
batch the engine holds (:func:`judge_batch`), the notes of every run file
(:class:`RunNote`: run ids, scores beyond a C float) and the warnings they give, and the
package's error for the engine's ``TrecReadError`` (:func:`raise_read_error`), as
:func:`irscale.read_qrels` and :func:`irscale.read_run` word them.

Imports neither numpy nor pyarrow: the command line's evaluation of TREC files
(:mod:`irscale.evaluation.trec_text`) reads, warns and fails through here; the batch's arrays
become a :class:`~irscale.core.judged.JudgedRankings` in :mod:`irscale.io.native_trec`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence

from .. import _engine
from ..core.options import RankingOptions
from ..core.records import record, replace
from ..errors import DuplicateError, EmptyInputError, ParameterError
from .files import (
    PathLike,
    check_readable,
    display_name,
    engine_error,
    read_file,
    reading_limit,
    refuse_parquet,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import NoReturn


def judge_batch(
    qrels: tuple[bytes | PathLike, str],
    runs: Sequence[tuple[bytes | PathLike, str]],
    options: RankingOptions,
    *,
    names: Sequence[str | None] | Callable[[list[RunNote]], list[str]] | None = None,
    placeholders: bool = False,
) -> tuple[_engine.JudgedTrec, list[str]]:
    """The engine's judged batch of the run files ``runs`` against the qrels file
    ``qrels``, each given as ``(bytes or path, name in messages)`` (plain or gzip; a file
    given by its path is read when its turn comes), and the runs' names.

    ``names``: each run's name (``None``: as trec_eval 9.0.8, the run id of its last line;
    a file that holds several run ids is warned of), or a function from the runs'
    :class:`RunNote` to their names, which gives the runs' warnings (:meth:`RunNote.warn`)
    in its order (also when a file is refused: given the notes of the files read before,
    and the refused file's if it was read, it gives their warnings only).
    ``placeholders``: trec_eval 10's ``-c``. Faults of a file raise the errors of
    :func:`irscale.read_qrels` and :func:`irscale.read_run`, with the same messages.
    """
    try:
        batch = _engine.judge_trec_batch(
            qrels[0], qrels[1], [(data, name) for data, name in runs], options.ties,
            options.compat, options.max_docs, options.judged_only, placeholders,
            reading_limit())
    except _engine.TrecReadError as error:
        raise_read_error(error, [qrels, *runs], names if callable(names) else None)
    found = [RunNote(source, runids, last, beyond)
             for (_, source), (runids, last, beyond) in zip(runs, batch.notes(), strict=True)]
    if callable(names):
        return batch, names(found)
    for note in found:
        note.warn()
    return batch, [note.last if given is None else given
                   for note, given in zip(found, names or [None] * len(runs), strict=True)]


def trec_file(path: PathLike) -> tuple[PathLike, str]:
    """The file at ``path`` (checked readable: :class:`FileAccessError` otherwise) and its
    name in messages, for the engine to read."""
    check_readable(path)
    return path, display_name(path)


@record
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
        warn_run(self.source, self.runids, self.last, self.beyond, stacklevel=4)


def warn_run(source: str, runids: list[str], last: str,
          beyond: tuple[int, int, str] | None, stacklevel: int = 3) -> None:
    """The warnings :func:`irscale.read_run` gives of a run file: several run ids (named or
    not), scores beyond a C float (their words loaded where one is given)."""
    if len(runids) < 2 and beyond is None:
        return
    from ..core.input_messages import c_float_warning, several_runids

    if len(runids) > 1:
        warnings.warn(several_runids(source, len(runids), last), stacklevel=stacklevel)
    if beyond is not None:
        count, line, text = beyond
        warnings.warn(c_float_warning(f"{source}, line {line}", count, text),
                      stacklevel=stacklevel)


def raise_read_error(error: Exception, files: Sequence[tuple[bytes | PathLike, str]],
           names: Callable[[list[RunNote]], list[str]] | None = None) -> NoReturn:
    """The package's error for the engine's ``TrecReadError`` (``files``: the bytes or path
    and the name of every file, for a Parquet file read as text), after the warnings
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
        from ..core.input_messages import diversity_hint, duplicate_reason

        topic, docno, *fields = details
        why = diversity_hint(*fields) if fields else ""
        raise DuplicateError(duplicate_reason(topic, docno, why), source=source, line=line,
                             text=text) from None
    if kind == "format":  # a Parquet file read as text: say so, not its first odd byte
        for data, name in files:
            # a FIFO or a device is read once: opened again, it would wait for a writer
            if name != source or not (isinstance(data, bytes) or os.path.isfile(data)):
                continue
            try:
                refuse_parquet(data if isinstance(data, bytes) else read_file(data, 4), source)
            except OSError:
                pass  # gone since: the reason stands
    raise engine_error(error) from None


def run_suffixes(runs: Sequence[str]) -> list[bytes]:
    """What ends every trec-format line of each run, before the newline: nothing for one
    run (trec_eval's output), ``b"\\t" + run`` for several. A run name with a tab or a line
    break cannot be written so: :class:`ParameterError`."""
    if len(runs) < 2:
        return [b""] * len(runs)
    for run in runs:
        if any(c in run for c in "\t\n\r"):
            raise ParameterError(f"run name {run!r} holds a tab or a line break: it cannot "
                                 "name the runs of the trec format (rename the run)")
    return [b"\t" + run.encode() for run in runs]


def declare_trec_text(text: bytes) -> None:
    """Declare to the guard on text (:func:`irscale.core.numbers.check_text`) what the
    trec format ``text`` writes on purpose: trec_eval's ``-nan`` (its 0/0), and its
    identifiers, the topic (second field), the run of several runs' lines (fourth) and the
    ``runid`` line's value, read from the text only when the guard finds such a word."""
    from ..core.numbers import declare_words, identifiers

    def fields() -> list[str]:
        found = []
        for line in text.decode("utf-8", "replace").splitlines():
            parts = line.split("\t")
            found.extend(parts[1::2])  # the topic, and the run of several runs' lines
            if parts[0].rstrip() == "runid" and len(parts) > 2:
                found.append(parts[2])
        return found

    declare_words("-nan")
    identifiers(fields)


__all__ = ["RunNote", "declare_trec_text", "judge_batch", "raise_read_error", "run_suffixes",
           "trec_file", "warn_run"]

"""Readers of TREC qrels and run files (plain or gzip-compressed).

Formats (fields separated by any run of spaces or tabs; blank lines are ignored):

* qrels: ``qid iter docno rel``, ``rel`` an integer; negative values mark documents in the
  pool that were not judged (trec_eval's convention, used by infAP's sampled pools).
* run: ``qid Q0 docno rank score runid``; column 2 is ignored (``Q0`` or ``0``), as is the
  rank column unless the ``rank-column`` tie policy asks for it. Scores must be finite.

These readers take a file (a path, ``-``, an open file or its bytes) and nothing else:
:func:`irscale.read_qrels` and :func:`irscale.read_run` (:mod:`irscale.io.sources`) decide
which reader reads a spec, and call these for TREC text.
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Callable

import numpy as np

from ..core._columnar.blocks import TopicBlocks
from ..core._columnar.duplicates import DuplicatePolicy, check_duplicate_policy, resolve_duplicates
from ..core._columnar.fingerprints import string_fingerprints
from ..core.input_messages import diversity_hint, several_runids
from ..core.inputs import Qrels, Run, assemble_run
from ..core.strings import Strings
from ..errors import InputFormatError
from ._text import (
    FieldCheck,
    FieldKind,
    PathLike,
    check_int64,
    is_float,
    line_of_record,
    read_fields,
    source_name,
)
from .files import check_file_source

QRELS_FIELDS = ("qid", "iter", "docno", "rel")
RUN_FIELDS = ("qid", "Q0", "docno", "rank", "score", "runid")


def _check_score(text: str) -> str | None:
    if not is_float(text):
        return "is not a number"
    if not math.isfinite(float(text)):
        return "is not finite (NaN or infinite scores cannot be ranked)"
    return None


def read_qrels(
    source: PathLike | io.IOBase | bytes, *, duplicates: DuplicatePolicy = "error"
) -> Qrels:
    """Read a TREC qrels file ``qid iter docno rel`` (module documentation): a path (plain
    or gzip-compressed; ``"-"`` reads standard input), an open file or the file's bytes.

    ``duplicates``, the result and the errors are those of :func:`irscale.read_qrels`,
    which reads every other kind of qrels too and chooses this reader for files
    (:mod:`irscale.io.sources`). ``rel`` is an integer (``2.0`` is 2, as trec_eval reads
    it; ``1.5`` and ``1e1`` are refused), negative for pooled documents not judged.

    >>> read_qrels(b"101 0 d1 1\\n102 0 d7 2\\n").rel.tolist()
    [1, 2]
    """
    check_duplicate_policy(duplicates)
    source = check_file_source(source, "read_qrels")
    name = source_name(source)
    fields, raw = read_fields(
        source,
        QRELS_FIELDS,
        {"qid": "str", "docno": "str", "rel": "int"},
        {3: check_int64},
        "qrels",
    )
    topic, docno, rel = fields.strings("qid"), fields.strings("docno"), fields.numbers("rel")
    del fields
    fingerprints = string_fingerprints(docno)
    blocks: TopicBlocks | None = TopicBlocks.of(topic)
    keep = resolve_duplicates(
        topic, docno, rel, duplicates, name, lambda row: line_of_record(raw(), row),
        fingerprints, blocks, explain=_diversity_hint(raw),
    )
    if keep is not None:
        topic, docno, rel = topic.take(keep), docno.take(keep), rel[keep]
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
        return diversity_hint(fields[0][1], fields[1][1])

    return explain


def read_run(
    source: PathLike | io.IOBase | bytes,
    *,
    name: str | None = None,
    duplicates: DuplicatePolicy = "error",
    keep_rank: bool = False,
) -> Run:
    """Read a TREC run file ``qid Q0 docno rank score runid`` (module documentation): a
    path (plain or gzip-compressed; ``"-"`` reads standard input), an open file or the
    file's bytes.

    ``name``, ``duplicates``, ``keep_rank``, the result and the errors are those of
    :func:`irscale.read_run`, which reads every other kind of run too and chooses this
    reader for TREC files (:mod:`irscale.io.sources`). Unless ``name`` is given, the run is
    named, as in trec_eval 9.0.8, after the run id of its last line, with a warning when
    the file holds several run ids.

    >>> read_run(b"101 Q0 d1 1 2.5 bm25\\n").name
    'bm25'
    """
    check_duplicate_policy(duplicates)
    source = check_file_source(source, "read_run")
    source_label = source_name(source)
    kinds: dict[str, FieldKind] = {"qid": "str", "docno": "str", "score": "float",
                                   "runid": "str"}
    checks: dict[int, FieldCheck] = {4: _check_score}
    if keep_rank:
        kinds["rank"] = "int"
        checks[3] = check_int64
    fields, raw = read_fields(source, RUN_FIELDS, kinds, checks, "run")
    score = fields.numbers("score")
    bad = np.flatnonzero(~np.isfinite(score))
    if len(bad):
        line, text = line_of_record(raw(), int(bad[0]))
        raise InputFormatError(
            "score is not finite (NaN or infinite scores cannot be ranked)",
            source=source_label,
            line=line,
            text=text,
        )
    topic, docno = fields.strings("qid"), fields.strings("docno")
    rank = fields.numbers("rank") if keep_rank else None
    last_runid, runids = _run_ids(fields.strings("runid"))
    del fields  # the run id column is not needed any more: free it
    if len(runids) > 1:
        warnings.warn(several_runids(source_label, len(runids), last_runid), stacklevel=2)
    return assemble_run(
        topic, docno, score, rank,
        name=name if name is not None else last_runid,
        source=source_label,
        runids=runids,
        duplicates=duplicates,
        describe_row=lambda row: line_of_record(raw(), row),
    )


def _run_ids(column: Strings) -> tuple[str, tuple[str, ...]]:
    """The run id of the last line and the distinct run ids (in order of first appearance,
    but the last line's last).

    A run file almost always names one run on every line: comparing every id's bytes with
    the first one's is much cheaper than hashing them all.
    """
    first = column[0]
    size = len(first.encode())
    lengths, data = column.lengths, column.data[column.offsets[0]: column.offsets[-1]]
    if (lengths == size).all() and (data.reshape(-1, size) == data[:size]).all():
        return first, (first,)
    last = column[-1]  # kept last: the run id trec_eval prints (io.naming.run_id)
    return last, (*(runid for runid in column.unique().to_pylist() if runid != last), last)

"""Names of the formats of results (one vocabulary, :data:`FORMATS`, and the subset each
kind of result writes, the measure catalogue's included) and of the image files of a
scale (:mod:`irscale.scales.stream`), in a module of their own so that the command line
can offer and check them without loading the writers; and the run field of the trec
format's lines (:func:`run_suffixes`). Declares no option (``--format`` is
:data:`irscale.cli.common_params.FORMAT`): the readers of runs and trec_eval's text use
it without loading the declarations."""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..errors import ParameterError, shown

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Literal, TypeAlias

#: Every format a result's ``format(fmt)`` knows, one vocabulary for all results:
#: ``text`` (an aligned table), ``trec`` (trec_eval's lines), ``ndeval`` (ndeval's CSV),
#: ``csv``, ``markdown``, ``latex``, ``json`` and ``html`` (the report). Each kind of result
#: writes the subset below that applies to it.
FORMATS: tuple[str, ...] = ("text", "trec", "ndeval", "csv", "markdown", "latex", "json",
                            "html")


def formats(*names: str) -> tuple[str, ...]:
    """A subset of :data:`FORMATS`, in the order given (each name checked to be one)."""
    unknown = [name for name in names if name not in FORMATS]
    if unknown:  # pragma: no cover - the subsets below are fixed
        raise ValueError(f"not formats: {unknown}")
    return names


#: Formats of the tables of every statistical, meta-evaluation, collection and online
#: result (:func:`irscale.stats.tables.render`).
TABLE_FORMATS = formats("text", "csv", "markdown", "latex", "json")
#: Formats of :meth:`irscale.measures.results.Evaluation.format` (``ndeval``: diversity
#: measures only).
EVALUATION_FORMATS = formats("trec", "ndeval", "csv", "json", "markdown", "latex")
#: Formats of the summaries of many runs (:class:`irscale.evaluation.many.ManyEvaluation`).
SUMMARY_FORMATS = formats("trec", "csv", "json", "markdown", "latex")
#: Formats of :func:`irscale.io.output.write_results` (evaluations, summaries of many runs).
OUTPUT_FORMATS = formats("trec", "csv", "json", "markdown")
#: Formats of the bounds under the unjudged documents
#: (:meth:`irscale.collections.bounds.Bounds.format`): a table's, and trec_eval's lines.
BOUNDS_FORMATS = formats(*TABLE_FORMATS, "trec")
#: Formats of ``irscale scale image`` (its summary, the JSON object, the image as CSV) and
#: of Table 2 of Ferrante, Ferro & Fuhr (2021) (``irscale scale table``).
SCALE_IMAGE_FORMATS = formats("text", "json", "csv")
TAU_TABLE_FORMATS = formats("text", "csv", "markdown")
#: Formats of the report (:mod:`irscale.report`).
REPORT_FORMATS = formats("html", "latex", "markdown")
#: Formats of the measure catalogue (:func:`irscale.measures.listing.format_catalogue`).
CATALOGUE_FORMATS = formats("text", "json", "markdown")


def check_format(fmt: object, allowed: tuple[str, ...], what: str) -> str:
    """``fmt`` when it is one of ``allowed`` (the formats of ``what``, a kind of result);
    a :class:`ParameterError` listing them otherwise."""
    if isinstance(fmt, str) and fmt in allowed:
        return fmt
    why = (f" ({fmt!r} does not apply to {what})"
           if isinstance(fmt, str) and fmt in FORMATS else "")
    raise ParameterError(f"format must be one of {list(allowed)}, got {shown(fmt)}{why}")

ImageFormat: TypeAlias = 'Literal["parquet", "csv"]'
#: File name endings and their formats.
SUFFIXES: dict[str, ImageFormat] = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}


def image_format(path: str | os.PathLike[str], option: str = "path") -> ImageFormat:
    """The format of an image file from its name (:data:`SUFFIXES`); ``ParameterError``
    naming ``option`` for any other name."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in SUFFIXES:
        raise ParameterError(
            f"{option} {os.fspath(path)!r}: the image is written as Parquet (a name ending "
            f"in .parquet or .pq) or CSV (.csv), got {suffix or 'no extension'!r} (--format "
            "csv prints the CSV on standard output)")
    return SUFFIXES[suffix]


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


#: The endings of the name of a ranx JSON file.
RANX_JSON_SUFFIXES = (".json", ".json.gz")
#: How many bytes of a regular file :func:`is_ranx_json` looks at for its first brace.
_SNIFF = 4096


def ranx_json_name(path: str) -> bool:
    """Whether the file name ``path`` ends as ranx's JSON files do (``.json``,
    ``.json.gz``; any case)."""
    return path.lower().endswith(RANX_JSON_SUFFIXES)


def is_ranx_json(source: object) -> bool:
    """Whether ``source`` (a path or bytes) is read as ranx's JSON (module documentation):
    a name ending in ``.json`` or ``.json.gz``, or a first byte that is not white space
    ``{`` in bytes or in a regular file that is not gzip-compressed (a pipe is read once,
    by its reader: it is taken for TREC text unless its name says JSON; an unreadable file
    is not JSON: its reader says why)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _opens_object(bytes(source[:_SNIFF]))
    if not isinstance(source, (str, os.PathLike)):
        return False
    path = os.fspath(source)
    if isinstance(path, bytes) or path == "-":
        return False
    if ranx_json_name(path):
        return True
    if not os.path.isfile(path):
        return False
    from .files import read_file

    try:
        head = read_file(path, _SNIFF)
    except OSError:
        return False
    return _opens_object(head)


def _opens_object(head: bytes) -> bool:
    """Whether ``head``'s first byte that is not white space (after a UTF-8 byte order
    mark) is ``{``."""
    return head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n").startswith(b"{")

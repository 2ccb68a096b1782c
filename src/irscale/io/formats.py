"""Names of the formats of results (one vocabulary, :data:`FORMATS`, and the subset each
kind of result writes, the measure catalogue's included) and of the image files of a
scale (:mod:`irscale.scales.stream`), in a module of their own so that the command line
can offer and check them without loading the writers. Declares no option (``--format`` is
:data:`irscale.cli.common_params.FORMAT`). The run field of the trec format's lines is
:func:`irscale.io.native_files.run_suffixes`, the sniffing of ranx's JSON
:func:`irscale.io.call_inputs.is_ranx_json`: trec_eval's text of TREC files uses them
without loading this module."""

from __future__ import annotations

import os

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

"""Names of the output formats of evaluation results (:mod:`irscale.io.output`), of the
measure catalogue, and of the image files of a scale (:mod:`irscale.scales.stream`), in a
module of their own so that the command line can offer and check them without loading the
writers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from ..errors import ParameterError

#: Output formats of :func:`irscale.io.output.write_results`.
FORMATS: tuple[str, ...] = ("trec", "csv", "json", "markdown")
#: Output formats of the measure catalogue
#: (:func:`irscale.measures.listing.format_catalogue`).
CATALOGUE_FORMATS: tuple[str, ...] = ("text", "json", "markdown")

ImageFormat = Literal["parquet", "csv"]
#: File name endings and their formats.
SUFFIXES: dict[str, ImageFormat] = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}


def image_format(path: str | os.PathLike[str], option: str = "path") -> ImageFormat:
    """The format of an image file from its name (:data:`SUFFIXES`); ``ParameterError``
    naming ``option`` for any other name."""
    suffix = Path(os.fspath(path)).suffix.lower()
    if suffix not in SUFFIXES:
        raise ParameterError(
            f"{option} {os.fspath(path)!r}: the image is written as Parquet (a name ending "
            f"in .parquet or .pq) or CSV (.csv), got {suffix or 'no extension'!r} (--format "
            "csv prints the CSV on standard output)")
    return SUFFIXES[suffix]

"""The sorted image of a measure streamed to a file (Parquet or CSV) with bounded memory.

:func:`write_image` writes one row per distinct value of ``M(REL^N)`` in increasing order::

    value     the measure's value (float64, the image algorithm's own arithmetic)
    phi       its rank on the interval scale, φ = |{x ∈ image : x ≤ value}| (Ferrante et al. 2021,
              eq. 2: 1, 2, ..., |image|)
    n_runs    the number of runs of the space with this value (its multiplicity; > 1 for
              tied runs)

Values are grouped exactly as the image algorithm groups them (exact integer or rational
keys, or the documented tolerance, :attr:`Scale.exactness`): the rows are those of
:meth:`Scale.iter_values`, never re-grouped by floating point here.

**Bounded memory.** Nothing is materialised: for the meet-in-the-middle engines
(:mod:`irscale.scales.pairs`) the image is generated directly in increasing order by
partitioning the range of values into slices ``[lo, hi)``: for every partial value ``a``
of one half, ``searchsorted`` gives the range of the other half's sorted partial values in
``[lo − a, hi − a)``; the slice's pairs are gathered, sorted and de-duplicated, written and
dropped before the next slice. A slice holds at most about :data:`SLICE_PAIRS` candidate
pairs, fewer when ``max_memory`` (default half of the RAM) leaves less room beside the
engine's own structures (:attr:`Scale.estimate`); no external merge is needed since the
slices are disjoint and ordered. Other images (closed forms, the chunked enumeration)
stream the chunks they already produce.

**One pass.** The summary statistics of :func:`irscale.scales.diagnostics.summarize`
(ties, gaps, largest gap, unused range, tenths) are gathered while writing
(:class:`~irscale.scales.diagnostics.StreamStats`); where the number of distinct values is
not known before (AP's integer keys, tolerance clusters) it is counted first by the
engine's counting pass, which also indexes the slices.

**Files.** The format follows the file name (``.parquet``/``.pq``: Parquet, zstd, values
byte-stream-split and φ delta-encoded, about 3.5 bytes per value for nDCG@30; ``.csv``:
``value,phi,n_runs`` with values written as Python's ``repr``, which reads back as the same
float64). An existing file is refused unless ``force`` (``--force``); the output is written
to a temporary file in the same folder and renamed only when complete (an interruption or
a full disk leaves nothing under the name); a file the free disk space clearly cannot hold
is refused before any work. The Parquet file's metadata holds the measure, N, levels, the
space, the runs and distinct values, the algorithm and its exactness (keys ``irscale.*``).
A write estimated at :data:`~irscale.scales.cost.NOTICE_SECONDS` or more is announced
(``irscale: writing ...``, its time and memory) and shows a progress bar with the time left
(``progress=False``, ``IRSCALE_NO_PROGRESS=1`` silence them).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from ..core.budget import MAX_MEMORY, format_size
from ..core.extras import PYARROW
from ..core.progress import Progress, declared_memory, notice
from ..errors import InputError, ParameterError
from ..io.files import atomic_output, check_output, is_stdio, output_target
from ..io.formats import SUFFIXES as SUFFIXES
from ..io.formats import image_format as image_format
from .cost import NOTICE_SECONDS
from .diagnostics import StreamStats
from .pairs import BUCKET_PAIRS, PairImage
from .params import SCALE_LENGTH, SCALE_LEVELS
from .scale import Scale, ScaledImage

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..io.formats import ImageFormat

#: Candidate pairs of a slice when memory allows (the engine's own bucket size).
SLICE_PAIRS = BUCKET_PAIRS
#: Smallest slice worth making: below it, the memory limit is refused instead.
MIN_SLICE_PAIRS = 1 << 14
#: Peak bytes per candidate pair of a slice: gathered values, multiplicities and indices,
#: the sort order and sorted copies, the rows handed to the writer and its buffers
#: (measured: 0.84–1.05 GiB peak with 4M-pair slices beside the engine's 0.35 GiB for
#: nDCG@24..30, about 150–175 bytes per pair; docs/benchmarks-scales.md).
BYTES_PER_SLICE_PAIR = 176
#: Seconds per written value (nDCG@30 to Parquet: 114 s for 2^30 values; nDCG@24 to CSV:
#: 14.6 s for 2^24, docs/benchmarks-scales.md), for the notice before a long write.
SECONDS_PER_ROW: dict[ImageFormat, float] = {"parquet": 1.1e-7, "csv": 9e-7}
#: CSV lines formatted at a time.
CSV_LINES = 1 << 16
#: Smallest bytes per row a file can take: used only to refuse a file that the free disk
#: space certainly cannot hold (Parquet of nDCG@30: 3.5 bytes per row; CSV: ≥ 7 bytes).
MIN_BYTES_PER_ROW: dict[ImageFormat, float] = {"parquet": 1.0, "csv": 7.0}


@dataclass(frozen=True)
class WrittenImage:
    """What :func:`write_image` wrote: the file, its format, its rows (= the distinct
    values), and the statistics of the pass (the fields of
    :class:`~irscale.scales.diagnostics.ImageSummary` it fills: ties, gaps, unused range)."""

    path: str
    format: ImageFormat
    rows: int
    slice_pairs: int
    stats: dict[str, Any]


def slice_pairs(sc: Scale, max_memory: str | int | None = None) -> int:
    """Candidate pairs per slice within ``max_memory`` (module documentation):
    :data:`SLICE_PAIRS`, or fewer where the limit leaves less room beside the engine's
    estimated memory; ``ParameterError`` naming ``--max-memory`` when even
    :data:`MIN_SLICE_PAIRS` do not fit."""
    held = sc.estimate.memory if sc.estimate is not None else 0
    limit = declared_memory(
        (SCALE_LENGTH, SCALE_LEVELS), held + MIN_SLICE_PAIRS * BYTES_PER_SLICE_PAIR,
        f"writing the image of {sc.measure.label} (the engine's {format_size(held)} and "
        f"slices of at least {MIN_SLICE_PAIRS:,} values)", max_memory=max_memory,
        option=MAX_MEMORY)
    room = (limit - held) // BYTES_PER_SLICE_PAIR
    return int(min(SLICE_PAIRS, room))


def sorted_slices(sc: Scale, pairs: int = SLICE_PAIRS
                  ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The image's sorted distinct values and run counts, in increasing order; slices of
    about ``pairs`` candidate pairs for the meet-in-the-middle engines (with their progress
    bar), the image's own chunks otherwise."""
    image, factor = sc.image, 1.0
    if isinstance(image, ScaledImage):
        factor = image.factor
        image = image.inner
    if isinstance(image, PairImage) and pairs != SLICE_PAIRS:
        for bucket in image.buckets(pairs):
            yield factor * image.post(bucket.values), bucket.counts
        return
    yield from sc.iter_values()


def _uses_pair_slices(sc: Scale) -> bool:
    image = sc.image.inner if isinstance(sc.image, ScaledImage) else sc.image
    return isinstance(image, PairImage)


def check_disk(path: str | os.PathLike[str], rows: int, fmt: ImageFormat) -> None:
    """Refuse (``ParameterError``) a file the free space of its folder cannot hold even at
    :data:`MIN_BYTES_PER_ROW` bytes per row (a standard stream: nothing to check)."""
    if is_stdio(path):
        return
    folder = Path(output_target(path)).parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError:  # the folder is checked by check_output; no figure, no refusal
        return
    need = rows * MIN_BYTES_PER_ROW[fmt]
    if need > free:
        raise ParameterError(
            f"the image has {rows:,} distinct values: as {fmt} it needs more than "
            f"{format_size(need)} and {os.fspath(folder)} has {format_size(free)} free")


def write_image(sc: Scale, path: str | os.PathLike[str], *, fmt: ImageFormat | None = None,
                force: bool = False, max_memory: str | int | None = None,
                progress: bool = True, wide: float = 2.0) -> WrittenImage:
    """Write the sorted image of ``sc`` (``value, phi, n_runs``) to ``path`` and return the
    statistics of the pass (module documentation).

    ``fmt``: ``"parquet"`` or ``"csv"`` (default: from the file name); ``force``: replace
    an existing file; ``max_memory``: the memory limit the slices are sized to (bytes or
    a size such as ``"2G"``; default half of the RAM); ``progress``: a progress bar with
    the time left on standard error; ``wide``: the gap width (in equi-spaced steps) of the
    unused range, as :func:`~irscale.scales.diagnostics.summarize`.

    >>> import tempfile, pandas as pd
    >>> from irscale.scales import scale
    >>> folder = tempfile.mkdtemp()
    >>> written = write_image(scale("DCG_b02", 4), f"{folder}/dcg.parquet", progress=False)
    >>> written.rows, written.stats["tied_values"], written.stats["max_tie"]
    (12, 4, 2)
    >>> pd.read_parquet(f"{folder}/dcg.parquet").tail(2)
          value  phi  n_runs
    10  2.63093   11       1
    11  3.13093   12       1
    """
    fmt = image_format(path) if fmt is None else fmt
    if fmt not in ("parquet", "csv"):
        raise ParameterError(f"fmt must be 'parquet' or 'csv', got {fmt!r}")
    if is_stdio(path) and fmt != "csv":
        raise ParameterError("a Parquet image is written to a file, not to standard output")
    check_output(path, force=force, option="path")
    if fmt == "parquet":
        _parquet_writer(path)  # the extra named before any file is made
    check_disk(path, sc.n_distinct, fmt)
    with atomic_output(path, "wb" if fmt == "parquet" else "w", force=force) as stream:
        return stream_image(sc, stream, fmt, name=os.fspath(path), max_memory=max_memory,
                            progress=progress, wide=wide)


def stream_image(sc: Scale, stream: IO[Any], fmt: ImageFormat, *, name: str = "the image",
                 max_memory: str | int | None = None, progress: bool = True,
                 wide: float = 2.0) -> WrittenImage:
    """Write the sorted image of ``sc`` to the open ``stream`` (bytes for ``"parquet"``,
    text for ``"csv"``; ``name``: where it goes, in the notice and the progress bar) and
    return the statistics of the pass: the writer of :func:`write_image`, given a stream
    by whoever commits the file (``irscale scale image -o``: the command line's one
    writer, :func:`irscale.cli.outputs.write_outputs`; the free disk space checked first
    by :func:`check_disk`). Options as :func:`write_image`."""
    arrow = _parquet_writer(name) if fmt == "parquet" else None
    pairs = slice_pairs(sc, max_memory)
    n = sc.n_distinct
    seconds = n * SECONDS_PER_ROW[fmt]
    if seconds >= NOTICE_SECONDS:
        held = sc.estimate.memory if sc.estimate is not None else 0
        duration = f"{seconds / 60:.0f} min" if seconds >= 120 else f"{seconds:.0f} s"
        notice(f"writing the {n:,} values of {sc.measure.label} to {name} as "
               f"{fmt}: about {duration} and "
               f"{format_size(held + pairs * BYTES_PER_SLICE_PAIR)} (value slices of up to "
               f"{pairs:,} pairs)", enabled=progress)
    lo, _, hi, _ = sc.image.extremes()
    stats = StreamStats(lo, hi, n, wide)
    meter = Progress(n, f"write {name}",
                     enabled=progress and not _uses_pair_slices(sc))
    try:
        with (_CsvRows(stream) if arrow is None else _ParquetRows(stream, sc, arrow)) as rows:
            for values, counts in sorted_slices(sc, pairs):
                rows.write(values, stats.rows + 1, counts)
                stats.add(values, counts)
                meter.update(len(values))
            if stats.rows != n:  # pragma: no cover - the image's own contract
                raise AssertionError(f"wrote {stats.rows} values of {n}")
    finally:
        meter.close()
    return WrittenImage(name, fmt, stats.rows, pairs, stats.result())


class _CsvRows:
    """``value,phi,n_runs`` lines (values as ``repr``: the float64 reads back exactly) on a
    text stream."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def __enter__(self) -> _CsvRows:
        self.stream.write("value,phi,n_runs\n")
        return self

    def write(self, values: np.ndarray, first: int, counts: np.ndarray) -> None:
        """Lines in pieces of :data:`CSV_LINES` (Python strings take about 100 bytes a
        line: a whole slice at once would double the memory of a slice)."""
        counts = np.asarray(counts)
        for start in range(0, len(values), CSV_LINES):
            stop = min(start + CSV_LINES, len(values))
            self.stream.write("".join(map("{!r},{},{}\n".format, values[start:stop].tolist(),
                                          range(first + start, first + stop),
                                          counts[start:stop].tolist())))

    def __exit__(self, *exc: object) -> None:
        pass


def write_csv(sc: Scale, stream: IO[str]) -> None:
    """The sorted image of ``sc`` as ``value,phi,n_runs`` lines on a text stream (the
    rows of :func:`write_image`'s CSV files; ``irscale scale image --format csv``)."""
    with _CsvRows(stream) as rows:
        first = 1
        for values, counts in sc.iter_values():
            rows.write(values, first, counts)
            first += len(values)


def _parquet_writer(path: str | os.PathLike[str]) -> Any:
    """pyarrow, its Parquet writer loaded (an optional dependency: the ``parquet`` extra),
    or the :class:`~irscale.errors.InputError` naming the extra when it is not
    installed."""
    pa = PYARROW.load("writing a Parquet image", InputError, source=str(path))
    import pyarrow.parquet  # noqa: F401  # loads pa.parquet
    return pa


class _ParquetRows:
    """Row groups of ``value`` (float64, byte-stream-split), ``phi`` (int64,
    delta-encoded) and ``n_runs`` (int64; decimal digits as text when the space holds
    2^63 runs or more), zstd-compressed, with the scale in the file's metadata; ``pa``:
    pyarrow (:func:`_parquet_writer`)."""

    def __init__(self, stream: IO[bytes], sc: Scale, pa: Any) -> None:
        self.stream, self.pa = stream, pa
        self.huge = sc.n_runs >= 1 << 63
        self.schema = pa.schema(
            [("value", pa.float64()), ("phi", pa.int64()),
             ("n_runs", pa.string() if self.huge else pa.int64())],
            metadata={f"irscale.{k}": str(v) for k, v in (
                ("measure", sc.measure.label), ("N", sc.N), ("levels", sc.levels),
                ("space", sc.space.label()), ("n_runs", sc.n_runs),
                ("n_distinct", sc.n_distinct), ("algorithm", sc.algorithm),
                ("exactness", sc.exactness))})
        self.writer: Any = None

    def __enter__(self) -> _ParquetRows:
        encodings = {"value": "BYTE_STREAM_SPLIT", "phi": "DELTA_BINARY_PACKED"}
        if not self.huge:
            encodings["n_runs"] = "DELTA_BINARY_PACKED"
        self.writer = self.pa.parquet.ParquetWriter(
            self.stream, self.schema, compression="zstd",
            use_dictionary=["n_runs"] if self.huge else False, column_encoding=encodings)
        return self

    def write(self, values: np.ndarray, first: int, counts: np.ndarray) -> None:
        counts = np.asarray(counts)
        runs = [str(int(c)) for c in counts] if self.huge else counts.astype(np.int64)
        phi = np.arange(first, first + len(values), dtype=np.int64)
        self.writer.write_table(self.pa.table(
            {"value": np.asarray(values, dtype=np.float64), "phi": phi, "n_runs": runs},
            schema=self.schema))

    def __exit__(self, *exc: object) -> None:
        self.writer.close()

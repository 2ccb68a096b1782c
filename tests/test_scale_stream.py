"""``irscale scale image -o FILE.parquet|FILE.csv`` streams the sorted image
(value, φ, run count) to disk. The files equal the in-memory image and a brute-force
enumeration of every run (the kernel's values, tied within 1e-9 of the range); the
statistics of the writing pass equal those of ``summarize``; slices sized to a small memory
limit give the same file; nothing is left behind on failure; existing files are refused."""

from __future__ import annotations

import errno
import math
import shutil

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import irscale.scales.stream as stream
from irscale.cli.main import main
from irscale.errors import FileAccessError, OutputExistsError, ParameterError
from irscale.io.csv_floats import EXACT_FLOATS
from irscale.scales import scale, summarize
from irscale.scales.enumeration import runs_from_index
from irscale.scales.stream import image_format, write_image


def brute_image(sc) -> tuple[np.ndarray, np.ndarray]:
    """Every run of the space scored by the measure's kernel; values closer than 1e-9 of
    the largest magnitude are one value (the runs' float sums differ by a few ulps)."""
    runs = runs_from_index(np.arange(sc.levels**sc.N), sc.N, sc.levels)
    runs = runs[sc.space.allows(runs)]
    values = np.sort(sc.measure.kernel_values(runs, sc.context))
    tol = 1e-9 * max(1.0, float(np.abs(values).max()))
    starts = np.flatnonzero(np.concatenate(([True], np.diff(values) > tol)))
    return values[starts], np.diff(np.append(starts, len(values)))


def read(path) -> pd.DataFrame:
    if str(path).endswith(".parquet"):
        return pd.read_parquet(path)
    return pd.read_csv(path, **EXACT_FLOATS)


CASES = [  # (measure, N, levels, recall base, feasible): every engine of the package
    ("nDCG@8", 8, 2, None, False), ("DCG_b02", 9, 2, None, False),
    ("RBP(p=0.8)", 7, 3, None, False), ("AP", 9, 2, None, False), ("AP", 6, 3, 2, False),
    ("P", 8, 3, None, False), ("RR", 6, 2, None, False), ("gP", 6, 3, None, False),
    ("SBTO", 5, 3, None, False), ("RBTO", 5, 3, None, False), ("RBP_p05", 6, 3, None, False),
    ("ERR@6", 6, 3, None, False), ("nDCG", 6, 3, [1, 2], True), ("R", 7, 2, 3, True),
]


@pytest.mark.parametrize("name,N,levels,rb,feasible", CASES)
@pytest.mark.parametrize("suffix", ["parquet", "csv"])
def test_file_equals_memory_and_brute_force(tmp_path, name, N, levels, rb, feasible,
                                            suffix):
    sc = scale(name, N, levels, recall_base=rb, feasible=feasible, progress=False)
    path = tmp_path / f"image.{suffix}"
    written = write_image(sc, path, progress=False)
    table = read(path)
    assert list(table.columns) == ["value", "phi", "n_runs"]
    values, counts = sc.image_values()
    assert written.rows == len(table) == sc.n_distinct
    # the same float64 values (Parquet stores them, CSV's repr reads back exactly)
    assert np.array_equal(table["value"].to_numpy(), np.asarray(values, dtype=np.float64))
    assert np.array_equal(table["phi"].to_numpy(), np.arange(1, len(table) + 1))
    assert np.array_equal(table["n_runs"].to_numpy(), np.asarray(counts, dtype=np.int64))
    brute_values, brute_counts = brute_image(sc)
    assert len(table) == len(brute_values)
    assert np.allclose(table["value"], brute_values, rtol=1e-12, atol=1e-14)
    assert np.array_equal(table["n_runs"].to_numpy(), brute_counts)
    # the statistics of the writing pass are those of summarize's own pass
    summary = summarize(sc, orders=False)
    for key, value in written.stats.items():
        assert getattr(summary, key) == value, key


@pytest.mark.parametrize("name,N,levels,rb,feasible", [
    ("nDCG@12", 12, 2, None, False),       # independent blocks: every pair distinct
    ("AP", 12, 2, None, False),            # exact integer keys, de-duplicated
    ("DCG_b02", 8, 3, None, False),        # ties inside a block
    ("nDCG", 8, 3, [2, 3], True),          # feasible graded: pairs merged by identities
])
def test_small_slices_give_the_same_file(tmp_path, monkeypatch, name, N, levels, rb,
                                         feasible):
    """A memory limit leaving room for about 200 pairs per slice: many value slices,
    generated directly in increasing order, give the file of the default slices."""
    sc = scale(name, N, levels, recall_base=rb, feasible=feasible, progress=False)
    whole = write_image(sc, tmp_path / "whole.parquet", progress=False)
    monkeypatch.setattr(stream, "MIN_SLICE_PAIRS", 100)
    limit = sc.estimate.memory + 200 * stream.BYTES_PER_SLICE_PAIR
    sliced = write_image(sc, tmp_path / "sliced.parquet", max_memory=limit, progress=False)
    assert sliced.slice_pairs == 200 and whole.slice_pairs == stream.SLICE_PAIRS
    assert sum(1 for _ in stream.sorted_slices(sc, 200)) > 5
    a, b = read(tmp_path / "whole.parquet"), read(tmp_path / "sliced.parquet")
    assert a.equals(b) and len(a) == sc.n_distinct
    for key, value in whole.stats.items():  # sums over other chunks: rounding differs
        assert sliced.stats[key] == (pytest.approx(value, rel=1e-12)
                                     if isinstance(value, float) else value), key


def test_memory_limit_too_small_is_refused(tmp_path):
    sc = scale("nDCG@10", 10, 2, progress=False)
    with pytest.raises(ParameterError, match="max-memory"):
        write_image(sc, tmp_path / "a.parquet", max_memory=sc.estimate.memory + 1000)
    assert list(tmp_path.iterdir()) == []


def test_existing_file_refused_unless_force(tmp_path):
    sc = scale("AP", 5, progress=False)
    path = tmp_path / "a.csv"
    path.write_text("precious\n")
    with pytest.raises(OutputExistsError, match="exists already"):
        write_image(sc, path, progress=False)
    assert path.read_text() == "precious\n"
    write_image(sc, path, force=True, progress=False)
    assert len(read(path)) == sc.n_distinct


def test_nothing_left_behind_on_failure(tmp_path, monkeypatch):
    """A write failing half-way (a full disk) leaves neither the file nor its temporary."""
    sc = scale("nDCG@12", 12, 2, progress=False)
    calls = []

    def failing(self, values, first, counts):
        calls.append(first)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(stream._ParquetRows, "write", failing)
    monkeypatch.setattr(stream, "MIN_SLICE_PAIRS", 100)
    with pytest.raises(FileAccessError, match="no space left on device"):
        write_image(sc, tmp_path / "a.parquet", progress=False,
                    max_memory=sc.estimate.memory + 500 * stream.BYTES_PER_SLICE_PAIR)
    assert len(calls) == 2 and list(tmp_path.iterdir()) == []


def test_disk_too_small_is_refused_before_the_work(tmp_path, monkeypatch):
    sc = scale("nDCG@12", 12, 2, progress=False)
    monkeypatch.setattr(stream.shutil, "disk_usage",
                        lambda folder: shutil._ntuple_diskusage(10**6, 10**6 - 4000, 4000))
    with pytest.raises(ParameterError, match="4,096 distinct values"):
        write_image(sc, tmp_path / "a.csv", progress=False)
    assert list(tmp_path.iterdir()) == []


def test_format_from_the_name():
    assert image_format("a.parquet") == "parquet" and image_format("b.PQ") == "parquet"
    assert image_format("dir.x/c.csv") == "csv"
    for bad in ("a.txt", "image", "-", "a.csv.gz"):
        with pytest.raises(ParameterError, match="Parquet"):
            image_format(bad, "-o")


def test_parquet_metadata_and_huge_run_counts(tmp_path):
    """Run counts of 2^63 or more (P at N = 70) are written as exact decimal text."""
    sc = scale("P", 70, progress=False)
    write_image(sc, tmp_path / "p.parquet", progress=False)
    table = pq.read_table(tmp_path / "p.parquet")
    meta = {k.decode(): v.decode() for k, v in table.schema.metadata.items()}
    assert meta["irscale.measure"] == "P" and meta["irscale.N"] == "70"
    assert meta["irscale.n_runs"] == str(2**70) and meta["irscale.n_distinct"] == "71"
    assert table.column("n_runs").to_pylist() == [str(math.comb(70, h)) for h in range(71)]


def run_cli(argv, capsys):
    status = main(argv)
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured


def test_cli_output_summary_and_csv(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = ["scale", "image", "-m", "DCG_b02", "-N", "10", "--no-progress"]
    plain = run_cli(base, capsys).out
    written = run_cli([*base, "-o", "img.parquet"], capsys)
    assert written.out == plain  # the summary's gaps and ties come from the writing pass
    assert "tied values" in plain and "gaps" in plain
    new = run_cli([*base, "-o", "new.csv"], capsys)
    assert new.err == "" and new.out == plain
    assert read(tmp_path / "img.parquet").equals(read(tmp_path / "new.csv"))
    stdout = run_cli([*base, "--format", "csv"], capsys).out
    assert stdout == (tmp_path / "new.csv").read_text()


def test_csv_lines_in_pieces(tmp_path, monkeypatch):
    """CSV lines are formatted a few at a time within a slice: the same file."""
    sc = scale("AP", 8, progress=False)
    write_image(sc, tmp_path / "whole.csv", progress=False)
    monkeypatch.setattr(stream, "CSV_LINES", 7)
    write_image(sc, tmp_path / "pieces.csv", progress=False)
    assert (tmp_path / "whole.csv").read_text() == (tmp_path / "pieces.csv").read_text()
    assert len(read(tmp_path / "pieces.csv")) == sc.n_distinct > 7 * 10

"""``--cache DIR`` of ``irscale eval`` and ``irscale eval-many``: the folder's rules (a file,
an input, a folder holding inputs, a folder that cannot be created, unwritable), inputs with
no content to key (standard input), diversity measures and Dask clusters refused; and the
output with a cache, written and then read back, equal to the output without one.
"""

from __future__ import annotations

import os

import pytest

from .conftest import Link, all_checks, assert_ok, err, ok, opt, run_case

EVAL = ["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "-m", "P.5", "-q"]
MANY = ["eval-many", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map", "-m", "P.5",
        "--no-progress"]
RUNS_ONLY = {"runs/a.run": Link("../a.run"), "runs/b.run": Link("../b.run")}


def hit_equals(*argv: str):
    """Run ``argv`` (with ``--cache c``) again: it reads the cache and prints the same."""

    def check(result, ws, run) -> None:
        names = os.listdir(ws.root / "c")
        assert names and all(name.endswith(".entry") for name in names), names
        again = run([*argv, "--cache", "c"])
        assert_ok(again)
        assert sorted(os.listdir(ws.root / "c")) == sorted(names)  # nothing new
        assert again.out == result.out

    return check


def same_as_uncached(*argv: str):
    def check(result, ws, run) -> None:
        reference = run(list(argv))
        assert_ok(reference)
        assert result.out == reference.out

    return check


CASES = [
    # ---- the output: as without a cache, on a miss and on a hit
    ok("eval-cache-miss-then-hit", [*EVAL, "--cache", "c"],
       all_checks(same_as_uncached(*EVAL), hit_equals(*EVAL)), allowed_new=["c/"]),
    ok("eval-cache-latex", [*EVAL[:-1], "--format", "latex", "--cache", "c"],
       same_as_uncached(*EVAL[:-1], "--format", "latex"), allowed_new=["c/"]),
    ok("many-cache-miss-then-hit", [*MANY, "--cache", "c"],
       all_checks(same_as_uncached(*MANY), hit_equals(*MANY)), allowed_new=["c/"]),
    ok("eval-batches-cache", [*EVAL[:-1], "--batch-size", "1", "--no-progress", "--cache",
                              "c"],
       all_checks(same_as_uncached(*EVAL[:-1], "--names", "file"),
                  hit_equals(*EVAL[:-1], "--batch-size", "1", "--no-progress")),
       allowed_new=["c/"]),
    # ---- the folder
    err("eval-cache-is-the-qrels", [*EVAL, "--cache", "qrels.txt"], opt("--cache"),
        "qrels.txt"),
    err("eval-cache-is-a-run", [*EVAL, "--cache", "b.run"], opt("--cache"), "b.run"),
    err("eval-cache-is-a-file", [*EVAL, "--cache", "labels.txt"], opt("--cache"),
        "labels.txt", "not a folder"),
    err("eval-cache-is-the-runs-folder", ["eval", "qrels.txt", "runs", "-m", "map",
                                          "--cache", "runs"], opt("--cache"), "runs",
        files=RUNS_ONLY),
    err("many-cache-is-the-runs-folder", ["eval-many", "qrels.txt", "runs", "-m", "map",
                                          "--cache", "runs"], opt("--cache"), "runs",
        files=RUNS_ONLY),
    err("eval-cache-holds-the-qrels", [*EVAL, "--cache", "."], opt("--cache"), "qrels.txt"),
    err("eval-cache-parent-missing", [*EVAL, "--cache", "no/such/folder"], opt("--cache"),
        "no/such/folder", "cannot create"),
    err("many-cache-parent-missing", [*MANY, "--cache", "no/such/folder"], opt("--cache"),
        "cannot create"),
    err("eval-cache-same-as-per-topic-out", [*MANY, "--per-topic-out", "pt", "--cache", "pt"],
        "--per-topic-out", "--cache", "pt"),
    # ---- what a cache cannot key, and where it does not apply
    err("eval-cache-stdin-run", ["eval", "qrels.txt", "-", "-m", "map", "--cache", "c"],
        "--cache", "standard input", stdin=b"1 Q0 d1 1 1.0 x\n"),
    err("eval-cache-diversity", ["eval", "qrels.txt", "a.run", "-m", "alpha-nDCG@20",
                                 "--cache", "c"], "--cache", "diversity"),
]


@pytest.mark.parametrize("case", CASES)
def test_cache(case, ws, run_cli):
    run_case(case, ws, run_cli)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes into any folder")
def test_cache_unwritable_folder(ws, run_cli):
    (ws.root / "ro").mkdir()
    (ws.root / "ro").chmod(0o500)
    try:
        run_case(err("eval-cache-unwritable", [*EVAL, "--cache", "ro"], opt("--cache"), "ro",
                     "not writable").values[0], ws, run_cli)
    finally:
        (ws.root / "ro").chmod(0o700)

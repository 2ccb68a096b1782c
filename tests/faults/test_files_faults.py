"""No file is ever lost: ``-o``, ``--csv``, ``--plot``, ``--plot-dir`` and ``demo --out``
refuse inputs and existing files (unless ``--force``), are checked before the work, leave
nothing behind on failure; ``/dev/full``, ^C (SIGINT), standard input and output of the
real process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import (
    Link,
    any_of,
    changes,
    either,
    err,
    file_holds_output_of,
    ok,
    opt,
    run_case,
    same_output_as,
)

CORR = ["meta", "correlate", "--scores", "ap.csv", "--scores", "p10.csv"]
DP = ["meta", "dp", "--scores", "ap.csv", "-B", "30", "--seed", "1"]
SPLIT = ["meta", "split", "--scores", "ap.csv", "--sizes", "2,3", "--repetitions", "3",
         "--seed", "1", "--models", "MD1"]
SWAP = ["meta", "swap", "--scores", "ap.csv", "--sizes", "2,3", "--repetitions", "3",
        "--seed", "1"]
CONC = ["meta", "concordance", "--scores", "ap.csv", "--scores", "p10.csv", "--scores",
        "gold.csv", "--gold", "gold"]
RUNS = ["qrels.txt", "a.run", "b.run", "c.run"]
LOO = ["meta", "loo", *RUNS, "-m", "map", "--depth", "3", "--contributors", "contrib.txt"]
SCALES = ["meta", "scales", *RUNS, "-m", "P", "-m", "AP", "--cutoffs", "3"]
IMAGE = ["scale", "image", "-m", "AP", "-N", "3", "--no-progress"]

#: command → (valid call, one of its input files)
COMMANDS = {
    "eval": (["eval", "qrels.txt", "a.run", "-m", "map", "-q"], "a.run"),
    "eval-qrels": (["eval", "qrels.txt", "a.run", "b.run", "-m", "map"], "qrels.txt"),
    "eval-labels": (["eval", "qrels.txt", "a.run", "--labels", "under=labels.txt", "-m",
                     "uRBP(p=0.8)"], "labels.txt"),
    "compare": (["compare", "--scores", "ap.csv"], "ap.csv"),
    "compare-runs": (["compare", "qrels.txt", "a.run", "b.run", "-m", "map"], "b.run"),
    "transform": (["scale", "transform", "qrels.txt", "a.run", "-m", "AP", "-N", "3",
                   "--no-progress"], "qrels.txt"),
    "correlate": (CORR, "p10.csv"),
    "dp": (DP, "ap.csv"),
    "split": (SPLIT, "ap.csv"),
    "swap": (SWAP, "ap.csv"),
    "concordance": (CONC, "gold.csv"),
    "loo": (LOO, "contrib.txt"),
    "scales": (SCALES, "c.run"),
}

UNREADABLE = b"\xff\xfe\x00 not a valid input\n"


def output_cases(name: str, argv: list[str], source: str) -> list:
    """``-o`` rows of one command; ``source`` is one of its inputs."""
    out = [
        ok(f"{name}-o-new-file", [*argv, "-o", "out.txt"],
           file_holds_output_of("out.txt", *argv), allowed_new=["out.txt"]),
        ok(f"{name}-o-dash-is-stdout", [*argv, "-o", "-"], same_output_as(*argv)),
        ok(f"{name}-o-new-file-in-subfolder", [*argv, "-o", "adir/out.txt"],
           file_holds_output_of("adir/out.txt", *argv), allowed_new=["adir/out.txt"]),
        err(f"{name}-o-is-input", [*argv, "-o", source], source),
        err(f"{name}-o-is-input-force", [*argv, "-o", source, "--force"], source),
        err(f"{name}-o-is-input-dot-slash-force", [*argv, "-o", f"./{source}", "--force"],
            source),
        err(f"{name}-o-is-input-absolute-force", [*argv, "-o", "<abs>" + source, "--force"],
            source),
        err(f"{name}-o-symlink-to-input-force", [*argv, "-o", "link.txt", "--force"],
            any_of("link.txt", source), files={"link.txt": Link(source)}),
        err(f"{name}-o-hardlink-to-input-force", [*argv, "-o", "hard.txt", "--force"],
            any_of("hard.txt", source), files={"hard.txt": Link(source, hard=True)}),
        err(f"{name}-o-existing-file", [*argv, "-o", "old.txt"], "old.txt",
            files={"old.txt": b"precious results\n"}),
        ok(f"{name}-o-existing-file-force", [*argv, "-o", "old.txt", "--force"],
           file_holds_output_of("old.txt", *argv), files={"old.txt": b"old results\n"},
           allowed_new=["old.txt"]),
        err(f"{name}-o-missing-folder", [*argv, "-o", "nodir/out.txt"], "nodir"),
        err(f"{name}-o-is-directory", [*argv, "-o", "adir"], "adir"),
        err(f"{name}-o-is-directory-force", [*argv, "-o", "adir", "--force"], "adir"),
        err(f"{name}-o-under-a-file", [*argv, "-o", "qrels.txt/out.txt"], "qrels.txt"),
        err(f"{name}-o-dev-full", [*argv, "-o", "/dev/full"], "/dev/full",
            "no space left on device"),
        err(f"{name}-o-on-bad-input", [*argv, "-o", "out.txt"], source,
            files={source: UNREADABLE}),
    ]
    return out


PNG = b"\x89PNG\r\n\x1a\n"


def is_png(name: str):
    def check(result, ws, run):
        assert (ws.root / name).read_bytes()[:8] == PNG, f"{name} is not a PNG"

    return check


def plot_cases(name: str, argv: list[str], source: str) -> list:
    return [
        ok(f"{name}-plot-new", [*argv, "--plot", "fig.png"], is_png("fig.png"),
           allowed_new=["fig.png"]),
        err(f"{name}-plot-existing", [*argv, "--plot", "old.png"], "old.png",
            files={"old.png": b"an old figure"}),
        ok(f"{name}-plot-existing-force", [*argv, "--plot", "old.png", "--force"],
           is_png("old.png"), files={"old.png": b"an old figure"}, allowed_new=["old.png"]),
        err(f"{name}-plot-is-input-force", [*argv, "--plot", source, "--force"], source),
        err(f"{name}-plot-missing-folder", [*argv, "--plot", "nodir/fig.png"], "nodir"),
        err(f"{name}-plot-is-directory", [*argv, "--plot", "adir"], "adir"),
        err(f"{name}-plot-same-as-o", [*argv, "--plot", "fig.png", "-o", "fig.png"],
            "fig.png"),
        err(f"{name}-plot-on-bad-input", [*argv, "--plot", "fig.png"], source,
            files={source: UNREADABLE}),
    ]


CASES = [
    *(case for name, (argv, source) in COMMANDS.items()
      for case in output_cases(name, argv, source)),
    *plot_cases("dp", DP, "ap.csv"),
    *plot_cases("split", SPLIT, "ap.csv"),
    # ---- scale image --csv
    ok("image-csv-new", [*IMAGE, "--csv", "img.csv"], allowed_new=["img.csv"]),
    err("image-csv-existing", [*IMAGE, "--csv", "old.csv"], "old.csv",
        files={"old.csv": b"value,phi,n_runs\n"}),
    ok("image-csv-existing-force", [*IMAGE, "--csv", "old.csv", "--force"],
       files={"old.csv": b"value,phi,n_runs\n"}, allowed_new=["old.csv"]),
    err("image-csv-missing-folder", [*IMAGE, "--csv", "nodir/img.csv"], "nodir"),
    err("image-csv-is-directory", [*IMAGE, "--csv", "adir"], "adir"),
    err("image-csv-dev-full", [*IMAGE, "--csv", "/dev/full"], "/dev/full",
        "no space left on device"),
    err("image-csv-on-bad-option", [*IMAGE, "--csv", "img.csv", "--levels", "1"],
        opt("--levels", "degrees")),
    # ---- meta scales --plot-dir
    ok("scales-plot-dir-new", [*SCALES, "--plot-dir", "figs"], allowed_new=["figs/"]),
    err("scales-plot-dir-is-file", [*SCALES, "--plot-dir", "ap.csv"], "ap.csv"),
    err("scales-plot-dir-is-input-force", [*SCALES, "--plot-dir", "c.run", "--force"],
        "c.run"),
    err("scales-plot-dir-on-bad-input", [*SCALES, "--plot-dir", "figs"], "c.run",
        files={"c.run": UNREADABLE}),
    err("scales-plot-dir-missing-parent", [*SCALES, "--plot-dir", "nodir/figs"], "nodir"),
    err("scales-plot-dir-existing-png", [*SCALES, "--plot-dir", "figs"],
        any_of("figs", "png"),
        files={f"figs/T_03_{m}.png": b"an old figure" for m in ("P", "AP")}),
    # ---- demo
    ok("demo-new-folder", ["demo", "--out", "demo", "--topics", "5"], allowed_new=["demo/"]),
    ok("demo-empty-folder", ["demo", "--out", "empty", "--topics", "5"],
       files={"empty": "<dir>"}, allowed_new=["empty/"]),
    err("demo-non-empty-folder", ["demo", "--out", "adir", "--topics", "5"], "adir"),
    err("demo-out-is-file", ["demo", "--out", "qrels.txt", "--topics", "5"], "qrels.txt"),
    err("demo-topics-0", ["demo", "--out", "demo", "--topics", "0"], opt("--topics")),
    err("demo-topics-negative", ["demo", "--out", "demo", "--topics", "-1"], opt("--topics")),
    err("demo-topics-text", ["demo", "--out", "demo", "--topics", "ten"], opt("--topics")),
    err("demo-seed-negative", ["demo", "--out", "demo", "--seed", "-1"], opt("--seed")),
    err("demo-seed-text", ["demo", "--out", "demo", "--seed", "abc"], opt("--seed")),
    err("demo-out-under-a-file", ["demo", "--out", "qrels.txt/demo", "--topics", "5"],
        "qrels.txt"),
    either("demo-out-missing-parent", ["demo", "--out", "nodir/demo", "--topics", "5"],
           "nodir"),
]


def _absolute(case, root: Path):
    argv = tuple(str(root / a[5:]) if a.startswith("<abs>") else a for a in case.argv)
    return type(case)(**{**case.__dict__, "argv": argv})


@pytest.mark.parametrize("case", CASES)
def test_files(case, ws, run_cli):
    if any("/dev/full" in a for a in case.argv) and not os.path.exists("/dev/full"):
        pytest.skip("/dev/full is absent")
    run_case(_absolute(case, ws.root), ws, run_cli)


def test_inputs_are_read_only_safe(ws, run_cli):
    """Every input of a long call is byte-for-byte unchanged (a sweep over the commands)."""
    before = ws.snapshot()
    for argv, _ in COMMANDS.values():
        result = run_cli(argv)
        assert result.status == 0, result.describe()
    assert not changes(before, ws.snapshot())


def test_keyboard_interrupt_in_process(ws, capsys, monkeypatch):
    """^C while standard input is read (in-process): 130, one line, no output file."""

    class Interrupting:
        def read(self, *args):
            raise KeyboardInterrupt

        buffer = property(lambda self: self)

    before = ws.snapshot()
    monkeypatch.setattr("sys.stdin", Interrupting())
    from irscale.cli.main import main

    capsys.readouterr()
    status = main(["eval", "qrels.txt", "-", "-o", "out.txt"])
    captured = capsys.readouterr()
    assert status == 130, captured.err
    assert captured.err.splitlines() == ["irscale: interrupted"], captured.err
    assert not changes(before, ws.snapshot())

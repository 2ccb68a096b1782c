"""No file is ever lost: ``-o``, ``--csv``, ``--plot``, ``--plot-dir`` and ``demo --out``
refuse inputs and existing files (unless ``--force``), are checked before the work, leave
nothing behind on failure; ``/dev/full``, ^C (SIGINT), standard input and output of the
real process."""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

from .conftest import (
    BIN,
    Link,
    all_checks,
    any_of,
    assert_error,
    changes,
    either,
    err,
    file_holds_output_of,
    gz,
    ok,
    opt,
    populate,
    run_case,
    run_lines,
    same_output_as,
    snapshot,
    subprocess_env,
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
REPRO = ["meta", "reproduce", "--scores", "ap.csv", "--original", "sysA,sysB",
         "--reproduced", "sysC,sysD"]
INFO = ["meta", "informativeness", *RUNS, "-m", "AP"]
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
    "reproduce": (REPRO, "ap.csv"),
    "informativeness": (INFO, "b.run"),
}

UNREADABLE = b"\xff\xfe\x00 not a valid input\n"


def output_cases(name: str, argv: list[str], source: str) -> list:
    """``-o`` rows of one command; ``source`` is one of its inputs."""
    out = [
        ok(f"{name}-o-new-file", [*argv, "-o", "out.txt"],
           file_holds_output_of("out.txt", *argv), allowed_new=["out.txt"]),
        ok(f"{name}-o-dash-is-stdout", [*argv, "-o", "-"], same_output_as(*argv)),
        ok(f"{name}-o-dev-stdout-is-stdout", [*argv, "-o", "/dev/stdout"],
           same_output_as(*argv)),
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


def link_kept(link: str, target: str):
    """``link`` is still a symbolic link to ``target`` (relative to the link's folder),
    which is a regular file now."""

    def check(result, ws, run):
        path = ws.root / link
        assert path.is_symlink() and os.readlink(path) == target, \
            f"{link} is no longer a link to {target}" + result.describe()
        written = path.parent / target
        assert written.is_file() and not written.is_symlink(), \
            f"{target} not written" + result.describe()

    return check


def folder_link_kept(link: str, target: str):
    """``link`` is still a symbolic link to ``target``, a folder holding the demo's files."""

    def check(result, ws, run):
        path = ws.root / link
        assert path.is_symlink() and os.readlink(path) == target, \
            f"{link} is no longer a link to {target}" + result.describe()
        assert (ws.root / target / "qrels.txt").is_file(), \
            f"{target} not written" + result.describe()

    return check


def symlink_cases(name: str, argv: list[str], source: str) -> list:
    """``-o`` rows where the output path is a symbolic link."""
    return [
        ok(f"{name}-o-dangling-symlink-creates-target", [*argv, "-o", "link.txt"],
           all_checks(file_holds_output_of("made.txt", *argv),
                      link_kept("link.txt", "made.txt")),
           files={"link.txt": Link("made.txt")}, allowed_new=["made.txt"]),
        ok(f"{name}-o-dangling-symlink-into-subfolder", [*argv, "-o", "link.txt"],
           all_checks(file_holds_output_of("adir/made.txt", *argv),
                      link_kept("link.txt", "adir/made.txt")),
           files={"link.txt": Link("adir/made.txt")}, allowed_new=["adir/made.txt"]),
        ok(f"{name}-o-dangling-symlink-in-subfolder", [*argv, "-o", "adir/link.txt"],
           all_checks(file_holds_output_of("made.txt", *argv),
                      link_kept("adir/link.txt", "../made.txt")),
           files={"adir/link.txt": Link("../made.txt")}, allowed_new=["made.txt"]),
        err(f"{name}-o-symlink-to-existing-file", [*argv, "-o", "link.txt"], "link.txt",
            "exists", files={"old.txt": b"precious results\n", "link.txt": Link("old.txt")}),
        ok(f"{name}-o-symlink-to-existing-file-force", [*argv, "-o", "link.txt", "--force"],
           all_checks(file_holds_output_of("old.txt", *argv),
                      link_kept("link.txt", "old.txt")),
           files={"old.txt": b"old results\n", "link.txt": Link("old.txt")},
           allowed_new=["old.txt"]),
        err(f"{name}-o-symlink-chain-to-input-force", [*argv, "-o", "link.txt", "--force"],
            any_of("link.txt", source),
            files={"link2.txt": Link(source), "link.txt": Link("link2.txt")}),
        err(f"{name}-o-symlink-from-subfolder-to-input-force",
            [*argv, "-o", "adir/link.txt", "--force"], any_of("link.txt", source),
            files={"adir/link.txt": Link(f"../{source}")}),
        err(f"{name}-o-dangling-symlink-into-missing-folder", [*argv, "-o", "link.txt"],
            "link.txt", "nodir", files={"link.txt": Link("nodir/made.txt")}),
        err(f"{name}-o-dangling-symlink-into-missing-folder-force",
            [*argv, "-o", "link.txt", "--force"], "link.txt", "nodir",
            files={"link.txt": Link("nodir/made.txt")}),
        err(f"{name}-o-symlink-to-folder", [*argv, "-o", "link.txt", "--force"],
            any_of("link.txt", "adir"), files={"link.txt": Link("adir")}),
    ]


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
    # ---- scale image -o FILE.csv
    ok("image-csv-new", [*IMAGE, "-o", "img.csv"], allowed_new=["img.csv"]),
    err("image-csv-existing", [*IMAGE, "-o", "old.csv"], "old.csv",
        files={"old.csv": b"value,phi,n_runs\n"}),
    ok("image-csv-existing-force", [*IMAGE, "-o", "old.csv", "--force"],
       files={"old.csv": b"value,phi,n_runs\n"}, allowed_new=["old.csv"]),
    err("image-csv-missing-folder", [*IMAGE, "-o", "nodir/img.csv"], "nodir"),
    err("image-csv-is-directory", [*IMAGE, "-o", "adir"], "adir"),
    err("image-output-dev-full", [*IMAGE, "-o", "/dev/full"], "/dev/full", ".csv"),
    err("image-csv-full-device", [*IMAGE, "-o", "full.csv"], "full.csv",
        "no space left on device", files={"full.csv": Link("/dev/full")}),
    err("image-csv-on-bad-option", [*IMAGE, "-o", "img.csv", "--levels", "1"],
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
    # a collection without end (the topics were listed one by one) is refused up front
    err("demo-topics-10001", ["demo", "--out", "demo", "--topics", "10001"], opt("--topics"),
        "10,000"),
    err("demo-topics-huge", ["demo", "--out", "demo", "--topics", str(2**63 - 1)],
        opt("--topics")),
    err("demo-topics-text", ["demo", "--out", "demo", "--topics", "ten"], opt("--topics")),
    err("demo-seed-negative", ["demo", "--out", "demo", "--seed", "-1"], opt("--seed")),
    err("demo-seed-text", ["demo", "--out", "demo", "--seed", "abc"], opt("--seed")),
    err("demo-out-under-a-file", ["demo", "--out", "qrels.txt/demo", "--topics", "5"],
        "qrels.txt"),
    either("demo-out-missing-parent", ["demo", "--out", "nodir/demo", "--topics", "5"],
           "nodir"),
    # a symbolic link stands for its target (made or an empty folder); the link stays
    ok("demo-out-dangling-symlink", ["demo", "--out", "link", "--topics", "5"],
       folder_link_kept("link", "made"), files={"link": Link("made")},
       allowed_new=["made/", "link"]),  # (a link to a folder now: listed as one)
    ok("demo-out-symlink-to-empty-folder", ["demo", "--out", "link", "--topics", "5"],
       folder_link_kept("link", "empty"), files={"empty": "<dir>", "link": Link("empty")},
       allowed_new=["empty/"]),
    err("demo-out-symlink-to-non-empty-folder", ["demo", "--out", "link", "--topics", "5"],
        "link", files={"link": Link("adir")}),
    err("demo-out-dangling-symlink-into-missing-folder",
        ["demo", "--out", "link", "--topics", "5"], "link", "nodir",
        files={"link": Link("nodir/made")}),
    # ---- an output path that is a symbolic link stands for its target: the checks apply
    # to the target, the output is renamed onto the target and the link stays a link
    *(case for name in ("eval", "compare", "correlate")
      for case in symlink_cases(name, *COMMANDS[name])),
    ok("image-csv-dangling-symlink", [*IMAGE, "-o", "link.csv"],
       link_kept("link.csv", "made.csv"), files={"link.csv": Link("made.csv")},
       allowed_new=["made.csv"]),
    ok("dp-plot-dangling-symlink", [*DP, "--plot", "link.png"],
       all_checks(is_png("made.png"), link_kept("link.png", "made.png")),
       files={"link.png": Link("made.png")}, allowed_new=["made.png"]),
    err("dp-plot-symlink-to-existing", [*DP, "--plot", "link.png"], "link.png",
        "exists", files={"old.png": b"an old figure", "link.png": Link("old.png")}),
    # ---- the outputs of one call are distinct: nothing is written when two name one path
    err("scales-plot-dir-same-as-o", [*SCALES, "--plot-dir", "figs", "-o", "figs"],
        "figs", opt("--plot-dir")),
    err("scales-plot-dir-same-as-o-spelt-differently",
        [*SCALES, "--plot-dir", "./figs/", "-o", "figs"], "figs", opt("--plot-dir")),
    err("scales-plot-dir-same-as-o-existing-folder",
        [*SCALES, "--plot-dir", "figs", "-o", "figs", "--force"], "figs",
        files={"figs": "<dir>"}),
    err("scales-plot-dir-same-as-o-through-a-link",
        [*SCALES, "--plot-dir", "figs", "-o", "link.txt"], any_of("figs", "link.txt"),
        files={"link.txt": Link("figs")}),
    err("scales-o-could-be-a-plot-in-plot-dir",
        [*SCALES, "--plot-dir", "figs", "-o", "figs/T_03_P.png"], "figs",
        files={"figs": "<dir>"}),
    ok("scales-o-text-in-plot-dir", [*SCALES, "--plot-dir", "figs", "-o", "figs/sum.txt"],
       file_holds_output_of("figs/sum.txt", *SCALES), files={"figs": "<dir>"},
       allowed_new=["figs/"]),
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


# ------------------------------------------------------------------- inputs read once
# A FIFO, a pipe (``<(cat run)``, ``/dev/stdin``) or a device can be read only once: the
# bytes an earlier open takes (to look for gzip's magic number) are lost, and a second
# open waits for a writer that never comes. Inputs that are not regular files are read
# exactly once.
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


class FifoWriter(threading.Thread):
    """Writes ``data`` to the FIFO at ``path`` once a reader opens it, then keeps opening
    and closing it for writing until stopped, so that a reader that opens the FIFO a
    second time gets end-of-file (and the test an error) instead of waiting forever."""

    def __init__(self, path: Path, data: bytes):
        super().__init__(daemon=True)
        self.path, self.data = path, data
        self.stop = threading.Event()
        self.opens = 0

    def _open(self) -> int | None:
        try:
            return os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:  # ENXIO: no reader has the FIFO open
            if error.errno != errno.ENXIO:
                raise
            return None

    def run(self) -> None:
        descriptor = None
        while descriptor is None and not self.stop.is_set():
            descriptor = self._open()
            if descriptor is None:
                self.stop.wait(0.002)
        if descriptor is None:
            return
        os.set_blocking(descriptor, True)
        try:
            view = memoryview(self.data)
            while view:
                view = view[os.write(descriptor, view):]
        except BrokenPipeError:  # the reader closed it early
            pass
        finally:
            os.close(descriptor)
        while not self.stop.is_set():
            descriptor = self._open()
            if descriptor is not None:
                self.opens += 1
                os.close(descriptor)
            self.stop.wait(0.002)


def fifo_with(tmp_path: Path, name: str, data: bytes) -> tuple[Path, FifoWriter]:
    """A FIFO outside the workspace (whose snapshot reads every file), with its writer."""
    folder = tmp_path / "fifos"
    folder.mkdir(exist_ok=True)
    path = folder / name
    os.mkfifo(path)
    writer = FifoWriter(path, data)
    writer.start()
    return path, writer


def run_with_fifos(ws, run_cli, tmp_path, argv, fifos: dict[str, bytes]):
    """``argv`` with every ``<fifo:NAME>`` replaced by a FIFO fed ``fifos[NAME]``."""
    paths, writers = {}, []
    for name, data in fifos.items():
        path, writer = fifo_with(tmp_path, name, data)
        paths[f"<fifo:{name}>"] = str(path)
        writers.append(writer)
    before = ws.snapshot()
    try:
        expanded = []
        for arg in argv:
            for placeholder, path in paths.items():
                arg = arg.replace(placeholder, path)
            expanded.append(arg)
        result = run_cli(expanded)
    finally:
        for writer in writers:
            writer.stop.set()
            writer.join(10)
    assert not changes(before, ws.snapshot()), result.describe()
    return result, paths

FIFO_CASES = [
    # (id, argv with <fifo:NAME>, {NAME: file of the workspace, "gz:" to compress}, argv
    #  of the same call on the files)
    ("eval-run", ["eval", "qrels.txt", "<fifo:run>", "-m", "map", "-q"], {"run": "a.run"},
     ["eval", "qrels.txt", "a.run", "-m", "map", "-q"]),
    ("eval-run-gzip", ["eval", "qrels.txt", "<fifo:run>", "-m", "map", "-q"],
     {"run": "gz:a.run"}, ["eval", "qrels.txt", "a.run", "-m", "map", "-q"]),
    ("eval-qrels", ["eval", "<fifo:qrels>", "a.run", "b.run", "-m", "map"],
     {"qrels": "qrels.txt"}, ["eval", "qrels.txt", "a.run", "b.run", "-m", "map"]),
    ("eval-qrels-gzip", ["eval", "<fifo:qrels>", "a.run", "-m", "ndcg"],
     {"qrels": "gz:qrels.txt"}, ["eval", "qrels.txt", "a.run", "-m", "ndcg"]),
    ("eval-qrels-and-run", ["eval", "<fifo:qrels>", "<fifo:run>", "-m", "P.5"],
     {"qrels": "gz:qrels.txt", "run": "a.run"}, ["eval", "qrels.txt", "a.run", "-m", "P.5"]),
    ("eval-labels", ["eval", "qrels.txt", "a.run", "--labels", "under=<fifo:labels>", "-m",
                     "uRBP(p=0.8)"], {"labels": "labels.txt"},
     ["eval", "qrels.txt", "a.run", "--labels", "under=labels.txt", "-m", "uRBP(p=0.8)"]),
    # (score files name their measure by the file's stem: the FIFOs are named alike)
    ("compare-scores", ["compare", "--scores", "<fifo:ap.csv>"], {"ap.csv": "ap.csv"},
     ["compare", "--scores", "ap.csv"]),
    ("compare-scores-gzip", ["compare", "--scores", "<fifo:ap.csv>"],
     {"ap.csv": "gz:ap.csv"}, ["compare", "--scores", "ap.csv"]),
    ("correlate-scores", [*CORR[:3], "<fifo:ap.csv>", *CORR[4:]], {"ap.csv": "ap.csv"},
     CORR),
    ("loo-contributors", [*LOO[:-1], "<fifo:contrib>"], {"contrib": "contrib.txt"}, LOO),
    # one batch per run: the qrels are read once, for every batch
    ("eval-many-qrels-batches", ["eval-many", "<fifo:qrels>", "a.run", "b.run", "c.run", "-m",
                                 "map", "--batch-size", "1", "--no-progress"],
     {"qrels": "qrels.txt"}, ["eval-many", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
                              "--batch-size", "1", "--no-progress"]),
    ("eval-many-qrels-batches-gzip", ["eval-many", "<fifo:qrels>", "a.run", "b.run", "c.run",
                                      "-m", "map", "--batch-size", "1", "--no-progress"],
     {"qrels": "gz:qrels.txt"}, ["eval-many", "qrels.txt", "a.run", "b.run", "c.run", "-m",
                                 "map", "--batch-size", "1", "--no-progress"]),
]


@needs_fifo
@pytest.mark.parametrize("case", FIFO_CASES, ids=[c[0] for c in FIFO_CASES])
def test_fifo_input_read_once(case, ws, run_cli, tmp_path):
    """A named pipe as an input gives the same output as the file, without hanging."""
    _, argv, sources, reference = case
    fifos = {}
    for name, source in sources.items():
        data = ws.read(source.removeprefix("gz:"))
        fifos[name] = gz(data) if source.startswith("gz:") else data
    result, _ = run_with_fifos(ws, run_cli, tmp_path, argv, fifos)
    expected = run_cli(reference)
    assert expected.status == 0, expected.describe()
    assert result.status == 0, result.describe()
    assert result.out == expected.out, result.describe()


#: Click logs (not in the workspace of every case): (id, argv, the file fed to the FIFO).
CLICK_FIFO_CASES = [
    ("online-prefs", ["online", "prefs", "<fifo:log>", "--rule", "skip-above"], "train.log"),
    ("online-qrels", ["online", "qrels", "<fifo:log>"], "train.log"),
    ("online-fit", ["online", "fit", "<fifo:log>", "--model", "pbm"], "train.log"),
    ("online-loglik-test", ["online", "loglik", "train.log", "--model", "pbm", "--test",
                            "<fifo:log>"], "test.log"),
]


@needs_fifo
@pytest.mark.parametrize("case", CLICK_FIFO_CASES, ids=[c[0] for c in CLICK_FIFO_CASES])
@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_click_log_fifo_read_once(case, compressed, ws, run_cli, tmp_path):
    """A click log in a named pipe is read once (not opened first to look for Parquet's
    magic number, then again): the output of the same call on the file, no wait for a
    second writer."""
    from .test_online_clicks_faults import FILES

    for name, data in FILES.items():
        ws.write(name, data)
    _, argv, source = case
    data = ws.read(source)
    result, _ = run_with_fifos(ws, run_cli, tmp_path, argv,
                               {"log": gz(data) if compressed else data})
    expected = run_cli([source if a == "<fifo:log>" else a for a in argv])
    assert expected.status == 0, expected.describe()
    assert result.status == 0, result.describe()
    assert result.out == expected.out, result.describe()


@needs_fifo
@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_fifo_error_names_the_fifo_and_line(compressed, ws, run_cli, tmp_path):
    """A malformed line in a FIFO is named by the FIFO's path and the line's number."""
    lines = run_lines("a")
    lines[2] = lines[2].replace(" Q0", "")
    data = ("\n".join(lines) + "\n").encode()
    result, paths = run_with_fifos(
        ws, run_cli, tmp_path, ["eval", "qrels.txt", "<fifo:bad.run>", "-o", "out.txt"],
        {"bad.run": gz(data) if compressed else data})
    line = assert_error(result)
    assert paths["<fifo:bad.run>"] in line and "line 3" in line, result.describe()


@needs_fifo
def test_fifo_duplicate_named_by_line(ws, run_cli, tmp_path):
    """A diagnostic that needs the input's text again (a duplicate document) reads it
    from memory, not from the FIFO a second time."""
    lines = run_lines("a")
    lines.append(lines[0])
    result, paths = run_with_fifos(ws, run_cli, tmp_path,
                                   ["eval", "qrels.txt", "<fifo:dup.run>"],
                                   {"dup.run": ("\n".join(lines) + "\n").encode()})
    line = assert_error(result)
    assert paths["<fifo:dup.run>"] in line and f"line {len(lines)}" in line, \
        result.describe()


def _pipe_feeder(data: bytes) -> tuple[int, threading.Thread]:
    """The read end of a pipe fed ``data`` by a thread (as ``<(cat file)`` is)."""
    read_end, write_end = os.pipe()

    def feed() -> None:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view):]
        except BrokenPipeError:
            pass
        finally:
            os.close(write_end)

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    return read_end, thread


@pytest.mark.skipif(not os.path.exists("/dev/fd") or sys.platform == "win32",
                    reason="no /dev/fd")
@pytest.mark.parametrize("how", ["dev-fd", "dev-fd-gzip", "dev-stdin", "dev-stdin-gzip"])
def test_pipe_paths_read_once(how, tmp_path):
    """``irscale eval qrels <(cat run)`` (a ``/dev/fd/N`` path) and ``/dev/stdin``: the
    pipe is read once, in a real process (no 'lseek failed', no hang)."""
    populate(tmp_path)
    data = (tmp_path / "a.run").read_bytes()
    if how.endswith("gzip"):
        data = gz(data)
    reference = subprocess.run([*BIN, "eval", "qrels.txt", "a.run", "-m", "map"],
                               cwd=tmp_path, env=subprocess_env(), capture_output=True,
                               timeout=120)
    assert reference.returncode == 0, reference.stderr
    if how.startswith("dev-stdin"):
        proc = subprocess.run([*BIN, "eval", "qrels.txt", "/dev/stdin", "-m", "map"],
                              cwd=tmp_path, env=subprocess_env(), input=data,
                              capture_output=True, timeout=120)
    else:
        read_end, feeder = _pipe_feeder(data)
        try:
            proc = subprocess.run([*BIN, "eval", "qrels.txt", f"/dev/fd/{read_end}", "-m",
                                   "map"], cwd=tmp_path, env=subprocess_env(),
                                  pass_fds=(read_end,), stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=120)
        finally:
            os.close(read_end)
            feeder.join(10)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert proc.stdout == reference.stdout


#: ``-o`` naming a descriptor of the process, and where its output must go: standard output
#: or standard error of the process, or the extra pipe the test passes it (``{fd}``).
STREAMS = {"/dev/stdout": "stdout", "/dev/fd/1": "stdout", "/proc/self/fd/1": "stdout",
           "/dev/stderr": "stderr", "/dev/fd/2": "stderr", "/dev/fd/{fd}": "pipe"}


@pytest.mark.skipif(not os.path.exists("/dev/fd") or sys.platform == "win32",
                    reason="no /dev/fd")
@pytest.mark.parametrize("path", list(STREAMS))
def test_standard_streams_as_outputs(path, tmp_path):
    """``-o /dev/stdout | ...``, ``/dev/stderr``, ``/dev/fd/N`` in a real process whose
    descriptors are pipes: the output is written to that descriptor, byte for byte what
    ``-o -`` prints, as a shell means it: no ``--force`` (the path exists), no staging
    file, nothing else written."""
    populate(tmp_path)
    argv = [*BIN, "eval", "qrels.txt", "a.run", "-m", "map", "-q"]
    reference = subprocess.run(argv, cwd=tmp_path, env=subprocess_env(), capture_output=True,
                               timeout=120)
    assert reference.returncode == 0 and reference.stdout, reference.stderr
    before = snapshot(tmp_path)
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.run([*argv, "-o", path.format(fd=write_end)], cwd=tmp_path,
                              env=subprocess_env(), pass_fds=(write_end,),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as pipe:
            written = {"stdout": proc.stdout, "stderr": proc.stderr, "pipe": pipe.read()}
    finally:
        for descriptor in (read_end, write_end):
            with contextlib.suppress(OSError):
                os.close(descriptor)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert written.pop(STREAMS[path]) == reference.stdout
    assert not any(written.values()), written  # nothing on the other descriptors
    assert not changes(before, snapshot(tmp_path))


@pytest.mark.parametrize("redirect", ["new-file", "appended-to-input", "closed-descriptor"])
def test_standard_output_redirected_to_a_file(redirect, tmp_path):
    """``-o /dev/stdout > new.txt`` writes ``new.txt`` through the descriptor (no
    ``--force``, though the shell made the file); ``-o /dev/stdout >> a.run``, where
    ``a.run`` is an input, is refused (one line, status 2, the input as it was); ``-o
    /dev/fd/9`` with no descriptor 9 is refused before the work."""
    populate(tmp_path)
    argv = [*BIN, "eval", "qrels.txt", "a.run", "-m", "map"]
    reference = subprocess.run(argv, cwd=tmp_path, env=subprocess_env(), capture_output=True,
                               timeout=120)
    name = {"new-file": "new.txt", "appended-to-input": "a.run"}.get(redirect, "out.txt")
    path = "/dev/fd/9" if redirect == "closed-descriptor" else "/dev/stdout"
    before = (tmp_path / "a.run").read_bytes()
    with open(tmp_path / name, "ab") as stream:
        proc = subprocess.run([*argv, "-o", path], cwd=tmp_path, env=subprocess_env(),
                              stdin=subprocess.DEVNULL, stdout=stream,
                              stderr=subprocess.PIPE, timeout=120)
    err = proc.stderr.decode(errors="replace")
    if redirect == "new-file":
        assert proc.returncode == 0, err
        assert (tmp_path / name).read_bytes() == reference.stdout
    else:
        assert proc.returncode == 2 and len(err.splitlines()) == 1, err
        assert err.startswith("irscale: ") and path in err, err
        assert ("an input is never replaced" if redirect == "appended-to-input"
                else "no such open file descriptor") in err, err
        assert (tmp_path / name).read_bytes() == (before if name == "a.run" else b"")
    assert (tmp_path / "a.run").read_bytes() == before


# --------------------------------------------------------------- demo: all or nothing
def _hidden_leftovers(root: Path, name: str) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith(f".{name}."))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="/dev/full is absent")
def test_demo_stdout_full_leaves_no_folder(tmp_path):
    """``irscale demo --out d > /dev/full``: one line, status 2, no folder ``d`` and no
    staging folder left behind."""
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([*BIN, "demo", "--out", "d", "--topics", "5"], cwd=tmp_path,
                              env=subprocess_env(), stdin=subprocess.DEVNULL, stdout=full,
                              stderr=subprocess.PIPE, timeout=120)
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode == 2, err
    assert err.splitlines() == ["irscale: cannot write standard output: no space left on "
                                "device"], err
    assert sorted(os.listdir(tmp_path)) == [], os.listdir(tmp_path)


def test_demo_interrupted_in_process_leaves_no_folder(ws, run_cli, monkeypatch):
    """^C while the demo evaluates (after its files are written): 130, one line, and
    neither the folder nor its staging folder is left."""
    import irscale.stats

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(irscale.stats, "tukey_hsd", interrupted)
    before = ws.snapshot()
    result = run_cli(["demo", "--out", "d", "--topics", "5"])
    assert result.status == 130, result.describe()
    assert result.err.splitlines() == ["irscale: interrupted"], result.describe()
    assert not changes(before, ws.snapshot())


def test_demo_stdout_error_in_process_leaves_no_folder(ws, run_cli, monkeypatch):
    """A write error on standard output (flushed at the end) removes the staged folder."""

    class Full:
        def write(self, text):
            return len(text)

        def flush(self):
            raise OSError(errno.ENOSPC, "No space left on device")

        def fileno(self):
            raise OSError(errno.EBADF, "no descriptor")

    before = ws.snapshot()
    monkeypatch.setattr(sys, "stdout", Full())
    from irscale.cli.main import main

    status = main(["demo", "--out", "d", "--topics", "5"])
    monkeypatch.undo()
    assert status == 2
    assert not changes(before, ws.snapshot())


def test_demo_out_current_folder_refused(tmp_path, monkeypatch, run_cli):
    """``--out .`` in an empty folder: the current folder cannot be replaced (one line)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    assert_error(run_cli(["demo", "--out", ".", "--topics", "5"]), opt("--out"))
    assert os.listdir(empty) == []


@pytest.mark.parametrize("delay", [0.0, 0.1, 0.3])
def test_demo_sigint_leaves_all_or_nothing(delay, tmp_path):
    """^C (a real SIGINT) at a few moments of ``irscale demo``, with ResourceWarnings made
    errors: no 'unclosed file' warning, no traceback, status 130 (or 0 when the demo was
    done), and either no folder or the complete one, never a partial or staging folder."""
    proc = subprocess.Popen(
        [sys.executable, "-W", "error::ResourceWarning", "-m", "irscale.cli.main", "demo",
         "--out", "d"], cwd=tmp_path, env=subprocess_env(), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        # the work has started once the staging folder (or the folder) is there
        while proc.poll() is None and time.monotonic() < deadline and \
                not any(n == "d" or n.startswith(".d.") for n in os.listdir(tmp_path)):
            time.sleep(0.002)
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    stderr = err.decode(errors="replace")
    described = f"status {proc.returncode}, stderr {stderr[-1500:]!r}"
    assert "Traceback" not in stderr, described
    assert "ResourceWarning" not in stderr and "unclosed" not in stderr, described
    # killed by SIGINT after main() returned (as the interpreter exits) reads as 130 in a
    # shell too
    assert proc.returncode in (0, 130, -signal.SIGINT), described
    assert [line for line in stderr.splitlines() if line.strip()] in (
        [], ["irscale: interrupted"]), described
    left = sorted(os.listdir(tmp_path))
    assert left in ([], ["d"]), f"left behind: {left}; {described}"
    done = out.decode(errors="replace").rstrip().split("\n")[-1].startswith("P_1000")
    if left:
        files = sorted(os.listdir(tmp_path / "d"))
        assert files == ["qrels.txt", *(f"system{i}.run" for i in range(1, 6))], files
        assert done, f"the folder is there but the report is incomplete; {described}"
    if proc.returncode == 0:
        assert left == ["d"] and done, described


def test_no_unclosed_file_when_interrupted_after_open(ws, monkeypatch):
    """^C just after ``open()`` returned (where Python 3.11 checks for signals, before
    ``with`` takes the file) must not leave an unclosed file object to be collected with
    a ``ResourceWarning``: reading and writing go through descriptors."""
    import builtins

    from irscale.io import files

    real_open = builtins.open

    def interrupted_open(*args, **kwargs):
        real_open(*args, **kwargs)  # the file object is made, then dropped
        raise KeyboardInterrupt

    monkeypatch.setattr(files, "open", interrupted_open, raising=False)
    ws.write("a.run.gz", gz(ws.read("a.run")))
    calls = [
        lambda: files.read_input("a.run"),
        lambda: files.read_input("a.run.gz"),
        lambda: files.write_output("out.txt", "text\n"),
        lambda: files.write_output("out.bin", b"bytes\n"),
    ]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for call in calls:
            try:
                call()
            except KeyboardInterrupt:
                pass
            gc.collect()
    unclosed = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    assert not unclosed, unclosed
    assert not _hidden_leftovers(ws.root, "out.txt") and not _hidden_leftovers(ws.root,
                                                                                 "out.bin")


# ------------------------------------------------- staging files a killed writer left
#: A staging file or folder as a writer killed by SIGKILL leaves it: made by
#: ``make_staging`` in a process that is then killed (its lock dies with it).
KILLED_WRITER = (
    "import sys\n"
    "from pathlib import Path\n"
    "from irscale.io.files import make_staging\n"
    "path, handle = make_staging(Path(sys.argv[1]), folder=sys.argv[2] == 'folder')\n"
    "if sys.argv[2] == 'folder':\n"
    "    Path(path, 'part-0.parquet').write_bytes(b'partial')\n"
    "print(path, flush=True)\n"
    "sys.stdin.read()\n"
)


def _staging_of_killed_writer(root: Path, target: str, kind: str) -> Path:
    """A staging path of ``target`` whose writer was killed (SIGKILL), dated two hours
    back (older than any moment between making and locking it)."""
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(root / target), kind],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        path = Path(proc.stdout.readline().decode().strip())
    finally:
        proc.kill()
        proc.communicate()
    assert path.name.startswith(f".{target}.") and path.exists(), path
    old = time.time() - 7200
    os.utime(path, (old, old))
    return path


@pytest.mark.parametrize("target,kind,argv", [
    ("out.txt", "file", ["eval", "qrels.txt", "a.run", "-m", "map", "-o", "out.txt"]),
    ("pt", "folder", ["eval-many", "qrels.txt", "a.run", "b.run", "-m", "map",
                      "--per-topic-out", "pt", "--no-progress"]),
], ids=["output-file", "per-topic-folder"])
def test_orphan_staging_of_a_killed_writer_is_swept(target, kind, argv, ws, run_cli):
    """The next command that writes ``target`` removes the staging file or folder a killed
    writer left; one a live writer holds (locked) and one made a moment ago stay."""
    import fcntl

    orphan = _staging_of_killed_writer(ws.root, target, kind)
    held = _staging_of_killed_writer(ws.root, target, kind)
    young = ws.root / f".{target}.abcd1234.part"
    young.write_bytes(b"") if kind == "file" else young.mkdir()
    other = ws.root / f".{target}.x.part"  # not of the pattern: not ours
    other.write_bytes(b"keep")
    handle = os.open(held, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # as its (live) writer holds it
        result = run_cli(argv)
    finally:
        os.close(handle)
    assert result.status == 0, result.describe()
    assert not orphan.exists(), "the orphan was not removed"
    assert held.exists() and young.exists() and other.exists(), sorted(os.listdir(ws.root))
    assert (ws.root / target).exists()

"""Figures, folders and the per-topic folder of ``eval-many`` leave through the one writer
(:func:`irscale.cli.outputs.write_outputs`): a command returns them (``plot_output``,
``Output(Folder(fill, option), path)``, ``Output(..., folder=)``) and the writer writes them
with its other outputs, complete or not at all.

* An interrupted write leaves nothing: when a later output of the call fails (``-o
  /dev/full``), the figure, the plots of ``--plot-dir``, the files of ``--qrels-out`` and
  the ``--per-topic-out`` folder are gone with it, and no folder made for them is left.
* An output that appears while the call works is not replaced without ``--force``: a
  figure is checked again when it is renamed into place.
* A command written after ``docs/architecture.md`` that returns a figure or a folder gets
  these promises from the writer: onto an input, onto an existing file or folder without
  ``--force``, a failure while it is written.
"""

from __future__ import annotations

import math
import os
import sys
import types
from collections.abc import Callable, Iterator

import pytest

from irscale.cli import main as cli_main
from irscale.core.params import InputFiles, OutputPath, Param

from .conftest import assert_error, assert_ok, opt
from .test_files_faults import DP, PNG, SCALES, SPLIT

needs_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="/dev/full is absent")

SIM = ["pool", "simulate", "qrels.txt", "a.run", "b.run", "c.run", "--strategy", "depth",
       "--budget", "2"]
MANY = ["eval-many", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map", "--no-progress"]

#: (id, a call whose -o fails after its other outputs are made, the path they would take)
INTERRUPTED = [
    ("compare-plot", ["compare", "--scores", "ap.csv", "--plot", "fig.png"], "fig.png"),
    ("dp-plot", [*DP, "--plot", "fig.png"], "fig.png"),
    ("split-plot", [*SPLIT, "--plot", "fig.svg"], "fig.svg"),
    ("pool-simulate-plot", [*SIM, "--plot", "fig.pdf"], "fig.pdf"),
    ("pool-simulate-qrels-out", [*SIM, "--qrels-out", "induced"], "induced"),
    ("scales-plot-dir", [*SCALES, "--plot-dir", "figs"], "figs"),
    ("eval-many-per-topic-out", [*MANY, "--per-topic-out", "pt"], "pt"),
    ("eval-many-per-topic-out-zscores",
     [*MANY, "--per-topic-out", "pt", "--write-zscores", "z.txt"], "pt"),
    ("eval-batches-per-topic-out", ["eval", "qrels.txt", "a.run", "b.run", "-m", "map",
                                    "--per-topic-out", "pt"], "pt"),
]


@needs_full
@pytest.mark.parametrize(("argv", "made"), [case[1:] for case in INTERRUPTED],
                         ids=[case[0] for case in INTERRUPTED])
def test_a_failed_write_leaves_no_figure_or_folder(argv, made, ws, run_cli):
    before = sorted(os.listdir(ws.root))
    result = run_cli([*argv, "-o", "/dev/full"])
    assert_error(result, "/dev/full", "no space left on device")
    assert not os.path.lexists(ws.root / made), result.describe()
    assert sorted(os.listdir(ws.root)) == before, result.describe()  # no staging folder


@pytest.mark.parametrize("force", [False, True], ids=["refused", "force"])
def test_a_figure_that_appears_meanwhile_is_replaced_only_with_force(force, ws, run_cli,
                                                                     monkeypatch):
    """``meta dp --plot fig.png``: a ``fig.png`` made while the analysis runs is kept
    (one line naming it, status 2), and replaced with ``--force``."""
    import irscale.meta

    drawn = irscale.meta.plot_asl_curves

    def drawing(*args, **kwargs):
        (ws.root / "fig.png").write_bytes(b"made meanwhile")
        return drawn(*args, **kwargs)

    monkeypatch.setattr(irscale.meta, "plot_asl_curves", drawing)
    result = run_cli([*DP, "--plot", "fig.png", *(["--force"] if force else [])])
    written = (ws.root / "fig.png").read_bytes()
    if force:
        assert_ok(result)
        assert written[:8] == PNG, result.describe()
    else:
        assert_error(result, "fig.png", "appeared", "--force")
        assert written == b"made meanwhile", result.describe()


def test_the_per_topic_folder_is_named_with_the_summary(ws, run_cli):
    """``eval-many --per-topic-out pt -o sum.txt``: both written, the summary the one of
    the call without the folder, the parts in ``pt`` and no staging folder beside them."""
    result = run_cli([*MANY, "--per-topic-out", "pt", "-o", "sum.txt"])
    assert_ok(result)
    assert sorted(os.listdir(ws.root / "pt")) == ["part-00000.parquet"]
    assert not [name for name in os.listdir(ws.root) if name.startswith(".pt.")]
    plain = run_cli(MANY)
    assert (ws.root / "sum.txt").read_text() == plain.out


# ------------------------------------------------------- a newcomer's figure and folder
NUMBERS = Param("inputs", InputFiles(), None, "a file of numbers, one a line", ("inputs",),
                "FILE")
FIGURE = Param("plot", OutputPath("plot"), None, "write the plot to FILE", ("--plot",), "FILE")
FOLDER = Param("folder", OutputPath("folder"), None, "write the values to DIR",
               ("--folder",), "DIR")


def _values(args) -> list[float]:
    from irscale.io.files import read_lines

    return [float(line) for line in read_lines(args.inputs) if line.strip()]


def _figure_then(text: Callable[[list[float]], str]) -> Callable:
    """A command that draws its values (``--plot``) and returns ``text`` of them."""

    def run(args):
        from irscale.cli.outputs import Output, plot_output
        from irscale.io.figures import new_axes

        values = _values(args)
        ax = new_axes()
        ax.plot(values)
        return [plot_output(ax.figure, args.plot), Output(text(values))]

    return run


def _folder_then(text: Callable[[list[float]], str]) -> Callable:
    """A command that writes its values to ``--folder`` (by a library's writer of a
    folder, given the folder to fill) and returns ``text`` of them."""

    def run(args):
        from irscale.cli.outputs import Folder, Output

        values = _values(args)

        def fill(folder: str) -> None:  # as a library writes a folder it is given
            with open(os.path.join(folder, "values.txt"), "w") as stream:
                stream.write("".join(f"{v}\n" for v in values))

        return [Output(Folder(fill, "--folder"), args.folder), Output(text(values))]

    return run


def _largest(values: list[float]) -> str:
    return f"largest\t{max(values, default=math.nan)}\n"


@pytest.fixture
def newcomer(monkeypatch) -> Iterator[Callable[[Callable], None]]:
    """``newcomer(run)``: ``irscale newcomer FILE --plot FILE --folder DIR [-o FILE]``."""
    def register(run: Callable) -> None:
        from irscale.cli.options import add_command, add_output

        module = types.ModuleType("irscale.cli.newcomer")
        module.add_parser = lambda subparsers: add_command(  # type: ignore[attr-defined]
            subparsers, "newcomer", run, NUMBERS, FIGURE, FOLDER, add_output,
            help="the largest of numbers")
        monkeypatch.setitem(sys.modules, "irscale.cli.newcomer", module)
        monkeypatch.setitem(cli_main.SUBCOMMANDS, "newcomer", "the largest of numbers")

    yield register


@pytest.fixture
def numbers(ws):
    ws.write("numbers.txt", b"1.5\n2.5\n")
    return ws


def test_its_figure_and_folder_are_written(numbers, run_cli, newcomer):
    newcomer(_folder_then(_largest))
    assert_ok(run_cli(["newcomer", "numbers.txt", "--folder", "values"]))
    assert (numbers.root / "values" / "values.txt").read_text() == "1.5\n2.5\n"
    newcomer(_figure_then(_largest))
    result = run_cli(["newcomer", "numbers.txt", "--plot", "fig.png"])
    assert_ok(result)
    assert result.out == "largest\t2.5\n"
    assert (numbers.root / "fig.png").read_bytes()[:8] == PNG


def test_its_figure_onto_an_input_is_refused(numbers, run_cli, newcomer):
    newcomer(_figure_then(_largest))
    numbers.write("numbers.png", b"1\n")
    before = numbers.snapshot()
    assert_error(run_cli(["newcomer", "numbers.png", "--plot", "numbers.png", "--force"]),
                 "numbers.png")
    assert numbers.snapshot() == before


def test_its_folder_holding_an_input_is_refused(numbers, run_cli, newcomer):
    newcomer(_folder_then(_largest))
    numbers.write("inputs/numbers.txt", b"1\n")
    before = numbers.snapshot()
    assert_error(run_cli(["newcomer", "inputs/numbers.txt", "--folder", "inputs",
                          "--force"]), "inputs")
    assert numbers.snapshot() == before


def test_its_figure_onto_an_existing_file_needs_force(numbers, run_cli, newcomer):
    newcomer(_figure_then(_largest))
    numbers.write("old.png", b"an old figure")
    assert_error(run_cli(["newcomer", "numbers.txt", "--plot", "old.png"]), "old.png",
                 "--force")
    assert (numbers.root / "old.png").read_bytes() == b"an old figure"
    assert_ok(run_cli(["newcomer", "numbers.txt", "--plot", "old.png", "--force"]))
    assert (numbers.root / "old.png").read_bytes()[:8] == PNG


def test_its_folder_holding_files_is_not_replaced(numbers, run_cli, newcomer, monkeypatch):
    """A folder filled while the command works is kept as it is, even with ``--force``
    (its command declared no earlier output it may replace: ``Folder(replace=False)``)."""
    newcomer(_folder_then(_largest))
    drawn = _values

    def filled(args):
        (numbers.root / "values").mkdir()
        (numbers.root / "values" / "mine.txt").write_text("mine\n")
        return drawn(args)

    monkeypatch.setattr(sys.modules[__name__], "_values", filled)
    result = run_cli(["newcomer", "numbers.txt", "--folder", "values", "--force"])
    assert_error(result, opt("--folder"), "values", "refusing to replace it")
    assert os.listdir(numbers.root / "values") == ["mine.txt"]


@pytest.mark.parametrize("make", [_figure_then, _folder_then], ids=["figure", "folder"])
def test_its_nan_leaves_no_figure_or_folder(make, numbers, run_cli, newcomer):
    """The text after the figure or folder holds an undeclared ``nan`` (status 3, the line
    naming what to declare): neither the figure nor the folder is left."""
    newcomer(make(_largest))
    numbers.write("none.txt", b"\n")
    result = run_cli(["newcomer", "none.txt", "--plot", "fig.png", "--folder", "values"])
    assert result.status == 3, result.describe()
    assert "irscale.core.numbers.declare" in result.err and "declare_words" in result.err, \
        result.describe()
    assert not os.path.lexists(numbers.root / "fig.png")
    assert not os.path.lexists(numbers.root / "values")
    assert not [n for n in os.listdir(numbers.root) if n.startswith((".fig", ".values"))]

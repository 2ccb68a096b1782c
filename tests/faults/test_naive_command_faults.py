"""A command written by a newcomer after ``docs/architecture.md`` is safe on the promises
of the one writer and the guard on numbers, with nothing declared by hand.

The command is registered here, in process (its module in :data:`sys.modules`, its line in
:data:`irscale.cli.main.SUBCOMMANDS`), as a newcomer writes one: its arguments built from
parameters by :func:`irscale.cli.options.add_param` (``add_command``, ``add_output``), a
``run(args)`` that reads a file of numbers and returns its own text. Its largest value is
``nan`` for a file without a number: the command line refuses to write that text (one
``irscale:`` line naming the output, its line and the field, nothing written); a ``nan``
it prints itself is refused the same way. A bad line read through irscale's reader
(``read_fields``), or an :class:`~irscale.errors.IrscaleError` of its own, is one line and
status 2; a ``ValueError`` of its own parsing is its bug (status 3), which the reader
spares it.
"""

from __future__ import annotations

import math
import sys
import types
from collections.abc import Callable, Iterator

import pytest

from irscale.cli import main as cli_main
from irscale.core.params import InputFiles, Param
from irscale.errors import InputError

from .conftest import assert_error, assert_ok

NUMBERS = Param("inputs", InputFiles(), None, "a file of numbers, one a line", ("inputs",),
                "FILE")


def _largest_by_reader(args) -> str:
    """The largest value, the file read by irscale's reader of fields."""
    from irscale.io._text import read_fields

    fields, _ = read_fields(args.inputs, ["value"], {"value": "float"}, {}, "numbers")
    return f"largest\t{max(fields.numbers('value').tolist(), default=math.nan)}\n"


def _largest_by_hand(args) -> str:
    """The largest value, the file parsed by hand (``float`` of each line), ``nan`` for a
    file without a number, as a newcomer writes it."""
    from irscale.io.files import read_lines

    values = [float(line) for line in read_lines(args.inputs) if line.strip()]
    return f"value\tlargest\nall\t{max(values, default=math.nan)}\n"


def _printed(args) -> None:
    """The largest value printed rather than returned."""
    print(_largest_by_hand(args), end="")


def _json(args) -> str:
    """The largest value in a JSON line, as ``json.dumps`` writes an infinity."""
    import json

    return json.dumps({"largest": -math.inf}) + "\n"


def _refusing(args) -> str:
    """A command that refuses its input with irscale's error."""
    raise InputError("the numbers do not add up", source=args.inputs, line=1, text="x")


@pytest.fixture
def naive(monkeypatch) -> Iterator[Callable[[Callable], None]]:
    """``naive(run)``: ``irscale naive FILE [-o FILE]`` registered with ``run``."""
    def register(run: Callable, *, output: bool = True) -> None:
        """``output``: whether the command declares ``-o`` (``add_output``)."""
        from irscale.cli.options import add_command, add_output

        arguments = (NUMBERS, add_output) if output else (NUMBERS,)
        module = types.ModuleType("irscale.cli.naive")
        module.add_parser = lambda subparsers: add_command(  # type: ignore[attr-defined]
            subparsers, "naive", run, *arguments, help="the largest of numbers")
        monkeypatch.setitem(sys.modules, "irscale.cli.naive", module)
        monkeypatch.setitem(cli_main.SUBCOMMANDS, "naive", "the largest of numbers")

    yield register


def _refused(result, *needles: str) -> None:
    """One ``irscale:`` line naming ``needles``, a nonzero status, nothing written."""
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert result.status == 3 and len(lines) == 1, result.describe()
    assert lines[0].startswith("irscale: internal error: ") and "Traceback" not in \
        result.err, result.describe()
    assert all(needle in lines[0] for needle in needles), result.describe()
    assert result.out == "", result.describe()


def test_its_nan_is_refused(ws, run_cli, naive):
    naive(_largest_by_hand)
    ws.write("none.txt", b"\n")
    _refused(run_cli(["naive", "none.txt"]), "standard output, line 2", "'nan'",
             "no computation declared")


def test_its_nan_to_a_file_leaves_no_file(ws, run_cli, naive):
    naive(_largest_by_hand)
    ws.write("none.txt", b"\n")
    _refused(run_cli(["naive", "none.txt", "-o", "out.txt"]), "out.txt, line 2", "'nan'")
    assert not (ws.root / "out.txt").exists()


def test_its_printed_nan_is_refused(ws, run_cli, naive):
    naive(_printed)
    ws.write("none.txt", b"\n")
    _refused(run_cli(["naive", "none.txt"]), "standard output, line 2", "'nan'")


def test_its_json_infinity_is_refused(ws, run_cli, naive):
    naive(_json)
    _refused(run_cli(["naive", "run.txt"]), "'-Infinity'")


def test_its_numbers_are_written(ws, run_cli, naive):
    naive(_largest_by_hand)
    ws.write("numbers.txt", b"1.5\n2.5\n")
    result = run_cli(["naive", "numbers.txt"])
    assert_ok(result)
    assert result.out == "value\tlargest\nall\t2.5\n"


def test_without_an_output_option_its_text_goes_to_standard_output(ws, run_cli, naive):
    naive(_largest_by_hand, output=False)
    ws.write("numbers.txt", b"1.5\n2.5\n")
    result = run_cli(["naive", "numbers.txt"])
    assert_ok(result)
    assert result.out == "value\tlargest\nall\t2.5\n"


def test_a_bad_line_read_by_the_reader_is_one_line_and_status_2(ws, run_cli, naive):
    naive(_largest_by_reader)
    ws.write("numbers.txt", b"1.5\nabc\n")
    assert_error(run_cli(["naive", "numbers.txt"]), "numbers.txt", "line 2", "abc")


def test_its_own_error_is_one_line_and_status_2(ws, run_cli, naive):
    naive(_refusing)
    assert_error(run_cli(["naive", "run.txt"]), "run.txt", "line 1",
                 "the numbers do not add up")


def test_its_own_parsing_error_is_its_bug(ws, run_cli, naive):
    naive(_largest_by_hand)
    ws.write("numbers.txt", b"1.5\nabc\n")
    result = run_cli(["naive", "numbers.txt"])
    assert result.status == 3 and result.err.startswith(
        "irscale: internal error: ValueError"), result.describe()


def test_a_parameter_without_spellings_is_named(ws, run_cli, monkeypatch):
    """A parameter declared without flags (``Param(..., ())``), which the command line
    cannot spell, is the declaration's fault: one line naming it and what to declare."""
    from irscale.cli.options import add_command

    unspelt = Param("inputs", InputFiles(), None, "a file of numbers", ())
    module = types.ModuleType("irscale.cli.naive")
    module.add_parser = lambda subparsers: add_command(  # type: ignore[attr-defined]
        subparsers, "naive", _largest_by_hand, unspelt, help="the largest of numbers")
    monkeypatch.setitem(sys.modules, "irscale.cli.naive", module)
    monkeypatch.setitem(cli_main.SUBCOMMANDS, "naive", "the largest of numbers")
    _refused(run_cli(["naive", "run.txt"]), "parameter 'inputs' declares no spellings",
             "flags")

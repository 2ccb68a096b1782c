"""``irscale throwaway``: a new command written as ``docs/architecture.md`` says ("a
subcommand": its module's ``add_parser`` and ``run``, its line in
:data:`irscale.cli.main.SUBCOMMANDS`, its arguments built from parameters, its example
declared), registered in process only, never by the package.

``tests/faults/test_command_examples.py`` uses it to show that the sweeps of
``tests/faults`` take a new command from its declarations alone: loaded as a pytest plugin
(``-p tests.faults.throwaway_command``), it registers itself (:func:`pytest_configure`)
before the sweeps are collected, and nothing in them names it; declared without an example
where :data:`NO_EXAMPLE` is set in the environment.
"""

from __future__ import annotations

import argparse
import os
import sys
import types
from typing import Any

import pytest

#: The command's name, help and declared example (its arguments: the example files).
NAME = "throwaway"
HELP = "a throw-away command: runs evaluated, their table written"
EXAMPLE = "qrels.txt a.run b.run -m P@5 --digits 3"
#: The environment variable under which the plugin declares the command without example.
NO_EXAMPLE = "IRSCALE_TEST_THROWAWAY_WITHOUT_EXAMPLE"


def add_parser(subparsers: Any, example: str | None = EXAMPLE) -> None:
    """Register ``irscale throwaway`` (declared with ``example``; None: none declared)."""
    from irscale.cli.common_params import MEASURES, QRELS, RUNS
    from irscale.cli.options import add_command, add_output
    from irscale.core.params import TABLE_DIGITS

    add_command(subparsers, NAME, run, QRELS, (RUNS, {"nargs": "+"}),
                (MEASURES, {"action": "append", "required": True}), TABLE_DIGITS, add_output,
                help=HELP, example=example)


def run(args: argparse.Namespace) -> str:
    """The runs' means over topics as a LaTeX table of ``--digits`` decimals (returned: the
    command line writes it)."""
    from irscale import evaluate

    return evaluate(args.qrels, args.runs, args.measures).format("latex",
                                                                  digits=args.digits) + "\n"


def module(example: str | None = EXAMPLE) -> types.ModuleType:
    """A module of the command declared with ``example``, as :func:`irscale.cli.main.
    build_parser` imports it."""
    made = types.ModuleType(f"irscale.cli.{NAME}")
    made.add_parser = lambda subparsers: add_parser(subparsers, example)  # type: ignore[attr-defined]
    return made


def register(monkeypatch: pytest.MonkeyPatch, example: str | None = EXAMPLE) -> None:
    """``irscale throwaway`` among the commands of this process, declared with ``example``,
    until ``monkeypatch`` undoes it."""
    from irscale.cli.main import SUBCOMMANDS

    monkeypatch.setitem(SUBCOMMANDS, NAME, HELP)
    monkeypatch.setitem(sys.modules, f"irscale.cli.{NAME}", module(example))


def pytest_configure(config: pytest.Config) -> None:
    """As a plugin: the command registered for the whole session, before collection
    (without example where :data:`NO_EXAMPLE` is set)."""
    register(pytest.MonkeyPatch(), None if os.environ.get(NO_EXAMPLE) else EXAMPLE)

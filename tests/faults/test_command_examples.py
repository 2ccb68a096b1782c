"""Every command declares one example invocation (``docs/architecture.md``, "a
subcommand"; ``docs/cli.md``, "Examples"), from which the sweeps of this folder derive
their command lines (:mod:`tests.faults.examples`).

* every command reachable from :func:`irscale.cli.main.build_parser` (each subcommand and
  each action of a group) declares one: a command without fails
  :func:`test_every_command_declares_an_example`, which names it and says what to declare;
* each example parses and runs to exit status 0 in the example workspace (the one fixture
  :func:`~tests.faults.examples.sweep_ws`), and ``--help`` shows it;
* a new command is swept the day it is declared: :func:`test_a_new_command_is_swept` runs
  the sweeps with a throw-away command registered in process
  (:mod:`tests.faults.throwaway_command`), and each takes it, with no line added to any.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from irscale.cli.main import build_parser

from ..cli_parsers import irscale_parser
from . import throwaway_command
from .examples import COMMANDS, EXAMPLES, FILES, POPULATED, example, undeclared, what_to_declare
from .examples import sweep_ws as sweep_ws

ROOT = Path(__file__).parents[2]


def test_every_command_declares_an_example():
    """Each command of the parser declares its example (``add_command(..., example=...)``)."""
    missing = undeclared(irscale_parser())
    assert not missing, "\n".join(map(what_to_declare, missing))
    assert len(EXAMPLES) >= 65, sorted(EXAMPLES)


def test_the_example_files_are_documented():
    """Every example file an example names is in docs/cli.md's table of the example files,
    and every file there is one of the workspace's."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text[text.index("## Examples"):text.index("## Option names")]
    documented = {name for line in section.splitlines() if line.startswith("| `")
                  for name in re.findall(r"`([\w.-]+)`", line.split(" | ")[0])}
    files = FILES.keys() | POPULATED
    named = {item for argv in EXAMPLES.values() for argument in argv
             for item in argument.rpartition("=")[2].split(",") if item in files}
    assert not named - documented, f"not in docs/cli.md, Examples: {sorted(named - documented)}"
    assert not documented - files, f"no example file: {sorted(documented - files)}"


@pytest.mark.parametrize("command", sorted(EXAMPLES))
def test_the_example_runs(command, sweep_ws, run_cli):
    """The example parses and runs to exit status 0 in the example workspace."""
    result = run_cli(example(command))
    assert result.status == 0, "the declared example fails" + result.describe()


@pytest.mark.parametrize("command", sorted(EXAMPLES))
def test_help_shows_the_example(command):
    """``irscale COMMAND --help`` ends with the example, on one line."""
    parser = COMMANDS[command]
    line = f"example: irscale {command} {parser.example}"
    assert parser.format_help().endswith(f"\n\n{line}\n"), parser.format_help()[-300:]


def test_a_command_without_an_example_is_named(monkeypatch):
    """A command declared without an example is the one the test names, with what to
    declare."""
    throwaway_command.register(monkeypatch, example=None)
    missing = undeclared(build_parser())
    assert missing == [throwaway_command.NAME], missing
    message = what_to_declare(missing[0])
    assert "irscale throwaway declares no example" in message
    assert 'example="ARGUMENTS"' in message


def test_a_new_command_runs_in_process(monkeypatch, sweep_ws, run_cli):
    """The throw-away command, registered in process, runs its example."""
    throwaway_command.register(monkeypatch)
    parser = build_parser()
    assert undeclared(parser) == []
    result = run_cli([throwaway_command.NAME, *throwaway_command.EXAMPLE.split()])
    assert result.status == 0 and "\nb & " in result.out, result.describe()


#: The sweeps that take a command from its declared example, and the cases each must make
#: of the throw-away command (its example reads qrels.txt, a.run and b.run, writes -o and
#: has one numeric option, --digits); their coverage tests run too.
SWEEPS = {
    "test_numeric_options_faults.py": {"test_numeric_option[throwaway --digits]"},
    "test_outputs_onto_inputs_sweep.py": {
        f"test_outputs_onto_inputs[throwaway {throwaway_command.EXAMPLE}]"},
    "test_fifo_sweep_faults.py": {"test_fifo_input[throwaway qrels]",
                                  "test_fifo_input[throwaway runs]"},
    "test_depth_sweep_faults.py": {"test_deep_inputs_end_or_announce[throwaway]"},
    "test_command_examples.py": {"test_the_example_runs[throwaway]",
                                 "test_help_shows_the_example[throwaway]"},
}


#: The tests of coverage of the sweeps (a command without an example must fail one test
#: only: :func:`test_every_command_declares_an_example`).
COVERAGE = "every or covers"


def _sweep(tmp_path: Path, *, without_example: bool
           ) -> tuple[dict[tuple[str, str], set[str]], str]:
    """Run the sweeps of :data:`SWEEPS` in a pytest of their own, the throw-away command
    registered before they are collected (a plugin, :mod:`tests.faults.throwaway_command`;
    ``without_example``: declared without), their cases of it and their tests of coverage
    only: ``{(module, test): outcomes}`` (``failure``, ``error``, ``skipped``; none: passed)
    and the end of its output."""
    report = tmp_path / "report.xml"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop(throwaway_command.NO_EXAMPLE, None)
    if without_example:
        env[throwaway_command.NO_EXAMPLE] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
         "tests.faults.throwaway_command", f"--basetemp={tmp_path / 'inner'}",
         f"--junitxml={report}", "-k", f"{throwaway_command.NAME} or {COVERAGE}",
         *(f"tests/faults/{name}" for name in SWEEPS), "--deselect",
         "tests/faults/test_command_examples.py::test_a_new_command_is_swept", "--deselect",
         "tests/faults/test_command_examples.py::test_a_missing_example_fails_one_test"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    output = done.stdout[-3000:] + done.stderr[-3000:]
    assert report.exists(), output
    cases = {(case.get("classname", "").rsplit(".", 1)[-1] + ".py", case.get("name", "")):
             {child.tag for child in case} & {"failure", "error", "skipped"}
             for case in ElementTree.parse(report).iter("testcase")}
    return cases, output


def test_a_new_command_is_swept(tmp_path):
    """The sweeps make the throw-away command's cases from its declarations and pass them;
    their tests of coverage pass with it."""
    cases, output = _sweep(tmp_path, without_example=False)
    failed = sorted(f"{module}::{name}" for (module, name), outcome in cases.items()
                    if outcome - {"skipped"})
    assert not failed, f"failed: {failed}\n{output}"
    missing = sorted(f"{module}::{name}" for module, names in SWEEPS.items() for name in names
                     if (module, name) not in cases or cases[module, name])
    assert not missing, f"not swept: {missing}\n{output}"


def test_a_missing_example_fails_one_test(tmp_path):
    """Declared without an example, the throw-away command fails one test of the sweeps,
    :func:`test_every_command_declares_an_example`, which names it; no other."""
    cases, output = _sweep(tmp_path, without_example=True)
    failed = sorted(f"{module}::{name}" for (module, name), outcome in cases.items()
                    if outcome - {"skipped"})
    assert failed == ["test_command_examples.py::test_every_command_declares_an_example"], \
        f"failed: {failed}\n{output}"
    assert "irscale throwaway declares no example" in output, output

"""Every output of every subcommand written onto every input it reads, with ``--force``:
refused with one ``irscale:`` line, exit status 2, every file as it was (``docs/errors.md``
§4: an input is never replaced, whatever ``--force`` says).

The sweep is derived from the parsers and the command lines, never from a list of the
cases:

* the **outputs** of a command are what its declarations say (every option whose
  parameter's domain is an :class:`~irscale.core.params.OutputPath`: ``-o``, ``--plot``,
  ``--shard-scores``, ``--per-topic-out``, ...), so a new output option is swept the day
  it is declared;
* the **inputs** of a command line are found in the command line itself, not in the
  declarations: every argument that names a file of the workspace, as a whole, after the
  ``=`` of ``NAME=…``, in a comma-separated list, as a file of a folder or matched by a
  glob pattern. An input that an option reads without declaring it (``eval-seeds
  --system NAME=RUNS``, ``report --automatic`` once did) is therefore still swept: the
  declared check (:func:`irscale.cli.outputs.check_outputs`) refuses it before any work,
  and failing that the backstop of the writer (:mod:`irscale.core.reads`) after it; the
  refusal must say that an input is never replaced either way.

The command lines are every command's declared example (:mod:`tests.faults.examples`),
the FIFO sweep's :data:`~tests.faults.test_fifo_sweep_faults.USES` and :data:`FORMS`, the
compound forms of the values that name files. Every call is refused before any input is
read, in-process.
"""

from __future__ import annotations

import argparse
import fnmatch
import glob
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from irscale.cli.main import build_parser
from irscale.cli.outputs import file_role

from ..cli_parsers import parsers
from .conftest import Result, changes, error_line
from .examples import EXAMPLES, FILES, POPULATED
from .examples import sweep_ws as sweep_ws
from .test_fifo_sweep_faults import USES

#: What every refusal of an output that is an input says.
NEVER_REPLACED = "an input is never replaced"

#: Command lines whose values name files in compound forms (the example files' ``seeds``
#: folder): a folder, a quoted glob
#: pattern, a comma-separated list, ``NAME=FILE``, ``NAME=PATHS`` and an option read only
#: with another one.
FORMS: list[list[str]] = [
    ["eval-seeds", "qrels.txt", "--system", "A=seeds", "--system", "B=c.run", "-m", "map"],
    ["eval-seeds", "qrels.txt", "--system", "A=seeds/*.run", "--system", "B=a.run,b.run",
     "-m", "map"],
    ["eval", "qrels.txt", "seeds", "c.run", "-m", "map"],
    ["eval", "qrels.txt", "seeds/s*.run", "-m", "map"],
    ["eval-many", "qrels.txt", "seeds", "-m", "map", "--no-progress"],
    ["report", "human.qrels", "a.run", "b.run", "c.run", "--no-robustness", "--automatic",
     "qrels.txt", "-m", "P@5", "--format", "markdown"],
    ["report", "qrels.txt", "seeds", "c.run", "--no-robustness", "--format", "markdown"],
    ["compare", "qrels.txt", "seeds", "c.run", "-m", "map"],
    ["pool", "build", "seeds/*.run", "--strategy", "depth", "--depth", "2"],
    ["fuse", "seeds", "--method", "combsum"],
]

PARSER = build_parser()


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every subcommand (``pool build``) of ``parser`` that reads files and writes outputs,
    by name."""
    found = {}
    for prog, command in parsers(parser):
        roles = [file_role(action) for action in command._actions]
        kinds = {role.kind for role in roles if role is not None}
        if "input" in kinds and kinds - {"input"}:
            found[prog.removeprefix("irscale").strip()] = command
    return found


COMMANDS = _commands(PARSER)


def _spellings(parser: argparse.ArgumentParser, prefix: str = "") -> Iterator[tuple[str, int]]:
    """``(name, parser id)`` of every subcommand below ``parser``, aliases included
    (``meta dp``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield f"{prefix}{name}", id(sub)
                yield from _spellings(sub, f"{prefix}{name} ")


#: Every spelling of a command of :data:`COMMANDS` → its name there.
SPELT = {spelt: name for name, parser in COMMANDS.items()
         for spelt, kept in _spellings(PARSER) if kept == id(parser)}


def _command_of(argv: list[str]) -> str | None:
    """The subcommand of :data:`COMMANDS` that ``argv`` runs, or None."""
    words = [word for word in argv if not word.startswith("-")]
    return next((SPELT[" ".join(words[:k])] for k in range(len(words), 0, -1)
                 if " ".join(words[:k]) in SPELT), None)


def _names_a_file(argv: list[str]) -> bool:
    """Whether an argument of ``argv`` names a file of the workspace (:data:`FILES`, the
    collection of :func:`~tests.faults.conftest.populate`) in one of the forms
    :func:`named_files` reads."""
    known = [*FILES, *POPULATED]
    return any(fnmatch.fnmatch(file, item) or file.startswith(item.rstrip("/") + "/")
               for argument in argv for item in argument.rpartition("=")[2].split(",")
               if item and not item.startswith("-") for file in known)


def command_lines(examples: dict[str, list[str]]) -> list[list[str]]:
    """The valid command lines of every subcommand of :data:`COMMANDS` that name a file,
    each once: the declared ``examples``, :data:`USES` and :data:`FORMS`."""
    lines: dict[tuple[str, ...], None] = {}
    for argv in [*examples.values(), *USES.values(), *FORMS]:
        if _command_of(argv) is not None and _names_a_file(argv):
            lines.setdefault(tuple(argv))
    return [list(argv) for argv in lines]


LINES = command_lines(EXAMPLES)


def outputs(command: str) -> list[tuple[str, ...]]:
    """The spellings of every output option of ``command``, from its declarations."""
    return [tuple(action.option_strings) for action in COMMANDS[command]._actions
            if (role := file_role(action)) is not None and role.kind != "input"
            and action.option_strings]


def named_files(argv: list[str]) -> Iterator[tuple[str, str]]:
    """``(file, argument)``: every regular file an argument of ``argv`` names in the current
    folder, as it is, after the ``=`` of ``NAME=…``, in a comma-separated list, in a folder
    (its files not hidden) or matched by a glob pattern."""
    for argument in argv:
        for item in argument.rpartition("=")[2].split(","):
            if not item or item.startswith("-"):
                continue
            if os.path.isdir(item):
                files = [os.path.join(item, name) for name in sorted(os.listdir(item))
                         if not name.startswith(".")]
            elif not os.path.lexists(item) and set("*?[") & set(item):
                files = sorted(glob.glob(item))
            else:
                files = [item]
            yield from ((file, argument) for file in files if os.path.isfile(file))


def with_output(argv: list[str], spellings: tuple[str, ...], path: str) -> list[str]:
    """``argv`` with the output option (however spelt there) set to ``path``, and
    ``--force``."""
    argv = list(argv)
    for spelling in spellings:
        while spelling in argv:
            at = argv.index(spelling)
            del argv[at:at + 2]
    return [*argv, spellings[-1], path, *([] if "--force" in argv else ["--force"])]


def test_every_command_is_swept(sweep_ws):
    """Every subcommand that reads files and writes an output has a command line here that
    names a file: its declared example (or, where the example names none of the example
    files, a line of :data:`FORMS`). A command without an example is named by
    ``tests/faults/test_command_examples.py``."""
    swept = {_command_of(argv) for argv in LINES if any(named_files(argv))}
    missing = sorted(set(COMMANDS) & EXAMPLES.keys() - swept)
    assert not missing, f"no command line names an example file for {missing}: the " \
        "example files are those of tests/faults/examples.py"
    assert len(COMMANDS) > 50, len(COMMANDS)


def refused(result: Result) -> None:
    """One ``irscale:`` line saying that an input is never replaced, status 2."""
    assert result.status == 2, f"exit status {result.status}" + result.describe()
    line = error_line(result)
    # an output option declared without --force (irscale.cli.common_params.FORCE, which
    # irscale.cli.options.add_output adds with -o) is named as what to declare
    assert "unrecognized arguments: --force" not in line, "an output option without " \
        "--force: declare FORCE with it (irscale.cli.options.add_output)" + result.describe()
    assert NEVER_REPLACED in line, "refused for another reason" + result.describe()


@pytest.mark.parametrize("argv", [pytest.param(argv, id=" ".join(argv)) for argv in LINES])
def test_outputs_onto_inputs(argv, sweep_ws, run_cli):
    """Every output option of the command of ``argv`` set to every file ``argv`` names,
    with ``--force``: refused, and the workspace as it was (every failing pair listed)."""
    command = _command_of(argv)
    assert command is not None
    pairs = [(spellings, file) for spellings in outputs(command)
             for file in dict.fromkeys(file for file, _ in named_files(argv))]
    assert pairs, f"{command}: no output onto an input to try"
    failures = []
    contents = {path: path.read_bytes() for path in sweep_ws.root.rglob("*")
                if path.is_file() and not path.is_symlink()}
    before = sweep_ws.snapshot()
    for spellings, file in pairs:
        result = run_cli(with_output(argv, spellings, file))
        diff = changes(before, sweep_ws.snapshot())
        try:
            refused(result)
            assert not diff, f"the workspace changed: {diff}" + result.describe()
        except AssertionError as failure:
            failures.append(f"{spellings[-1]} {file}: {failure}")
        if diff:  # the next pair starts from the files as they were
            restore(sweep_ws.root, contents)
    assert not failures, "\n".join(failures)


def restore(root: Path, contents: dict[Path, bytes]) -> None:
    """The files under ``root`` as ``contents`` holds them, and no other file."""
    for path in sorted(root.rglob("*"), reverse=True):
        if path.is_dir() and not path.is_symlink():
            if not any(path.iterdir()) and not any(p.is_relative_to(path) for p in contents):
                path.rmdir()
        elif path not in contents:
            path.unlink()
    for path, data in contents.items():
        path.write_bytes(data)

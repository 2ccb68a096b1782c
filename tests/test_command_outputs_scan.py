"""A command does not write: its ``run(args)`` returns what it made, and the command line
writes it through the one writer and the guard on numbers
(:func:`irscale.cli.outputs.write_outputs`; ``docs/architecture.md``, "What a new command
inherits"). A scan of the source of the command modules (``src/irscale/cli/``) fails on any
that prints to standard output (``print`` without ``file=sys.stderr``, ``sys.stdout``
written or passed on) or opens a file for writing by itself (``open`` with a write mode,
``Path.write_text``/``write_bytes``/``open("w")``, the writers of :mod:`irscale.io.files`),
naming the file and line and what to do instead. Standard error is scanned by
``tests/faults/test_terminal_faults.py`` (every line through ``errors.message_line``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import irscale

CLI = Path(irscale.__file__).parent / "cli"
#: The modules of the command line that are not commands: the one writer itself, and the
#: entry point that hands it what a command returned (and flushes standard output).
NOT_COMMANDS = {"outputs.py": "the one writer", "main.py": "the entry point"}
#: The writers of :mod:`irscale.io.files` a command would write a file with by itself.
FILE_WRITERS = ("atomic_output", "atomic_path", "write_output")
#: What a command does instead.
INSTEAD = ("return what the command made (a text, an iterator of chunks, a result, a data "
           "frame, irscale.cli.outputs.Output for another file): the command line writes it")


def _is_stderr(node: ast.expr) -> bool:
    return ast.unparse(node) == "sys.stderr"


def _write_mode(call: ast.Call, position: int) -> bool:
    """Whether ``call`` (an ``open``) gives a mode that writes, as its argument at
    ``position`` or ``mode=``."""
    modes = [k.value for k in call.keywords if k.arg == "mode"]
    if len(call.args) > position:
        modes.append(call.args[position])
    return any(not isinstance(mode, ast.Constant)  # a mode computed: assume it writes
               or any(c in str(mode.value) for c in "wax+") for mode in modes)


def writes(source: str) -> list[tuple[int, str]]:
    """The places of ``source`` (a module's text) that print to standard output or open a
    file for writing: (line, what)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and ast.unparse(node) == "sys.stdout":
            found.append((node.lineno, "uses sys.stdout"))
        if not isinstance(node, ast.Call):
            continue
        func = ast.unparse(node.func)
        name = func.rsplit(".", 1)[-1]
        if func == "print" and not any(k.arg == "file" and _is_stderr(k.value)
                                       for k in node.keywords):
            found.append((node.lineno, "prints to standard output"))
        elif func in ("open", "io.open", "builtins.open") and _write_mode(node, 1):
            found.append((node.lineno, f"opens a file for writing ({ast.unparse(node)})"))
        elif func.endswith(".open") and func not in ("os.open",) and _write_mode(node, 0):
            found.append((node.lineno, f"opens a file for writing ({ast.unparse(node)})"))
        elif name in ("write_text", "write_bytes") and "." in func:
            found.append((node.lineno, f"writes a file ({func})"))
        elif name in FILE_WRITERS:
            found.append((node.lineno, f"writes a file itself ({func})"))
        elif func == "os.open" and any(flag in ast.unparse(node)
                                       for flag in ("O_WRONLY", "O_RDWR", "O_CREAT")):
            found.append((node.lineno, "opens a descriptor for writing"))
    return sorted(found)


def test_no_command_prints_or_writes_a_file_itself():
    found = []
    for path in sorted(CLI.glob("*.py")):
        if path.name in NOT_COMMANDS:
            continue
        found.extend(f"src/irscale/cli/{path.name}:{line}: {what}"
                     for line, what in writes(path.read_text(encoding="utf-8")))
    assert not found, "\n".join(found) + f"\n(instead: {INSTEAD})"


@pytest.mark.parametrize(("source", "what"), [
    ("print(text)", "prints to standard output"),
    ("print(text, file=sys.stdout)", "prints to standard output"),
    ("sys.stdout.write(text)", "uses sys.stdout"),
    ("frame.to_csv(sys.stdout)", "uses sys.stdout"),
    ("out = sys.stdout", "uses sys.stdout"),
    ("open(path, 'w')", "opens a file for writing"),
    ("open(path, mode='ab')", "opens a file for writing"),
    ("open(path, mode)", "opens a file for writing"),
    ("Path(path).open('w')", "opens a file for writing"),
    ("Path(path).write_text(text)", "writes a file (Path(path).write_text)"),
    ("target.write_bytes(data)", "writes a file (target.write_bytes)"),
    ("with atomic_output(args.output, 'w') as s: s.write(text)", "writes a file itself"),
    ("write_output(path, text)", "writes a file itself"),
    ("os.open(path, os.O_WRONLY | os.O_CREAT)", "opens a descriptor for writing"),
])
def test_the_scan_finds_each_way_of_writing(source, what):
    found = writes(source)
    assert any(said.startswith(what) for _, said in found), found


@pytest.mark.parametrize("source", [
    "print(message_line(text), file=sys.stderr)",
    "open(path)",
    "open(path, 'rb')",
    "os.open(path, os.O_RDONLY)",
    "return Output(text, args.weights_out)",
])
def test_the_scan_lets_reading_and_standard_error_through(source):
    assert writes(source) == []

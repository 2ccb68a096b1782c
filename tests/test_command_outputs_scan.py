"""A command does not write: its ``run(args)`` returns what it made, and the command line
writes it through the one writer and the guard on numbers
(:func:`irscale.cli.outputs.write_outputs`; ``docs/architecture.md``, "What a new command
inherits"). A scan of the source of the command modules (``src/irscale/cli/``) fails on any
that prints to standard output (``print`` without ``file=sys.stderr``, ``sys.stdout``
written or passed on), opens a file for writing by itself (``open`` with a write mode,
``Path.write_text``/``write_bytes``/``open("w")``, the writers of :mod:`irscale.io.files`),
saves a figure (``savefig``), writes a data frame to a path (``to_csv(path)``,
``to_parquet(path)``: only to the stream a writing function is given), makes a folder
(``mkdir``, ``makedirs``), or hands the path of one of its output options (``args.plot``,
or a name given it) to a function that is no check of paths: a library function that
would write it (``plot_asl_curves(results, args.plot)``, ``evaluate_many(out=out)``);
naming the file and line and what to do instead. Standard error is scanned by
``tests/faults/test_terminal_faults.py`` (every line through ``errors.message_line``).
"""

from __future__ import annotations

import argparse
import ast
import functools
from pathlib import Path

import pytest

import irscale
from irscale.cli.main import build_parser
from irscale.cli.outputs import file_role

CLI = Path(irscale.__file__).parent / "cli"
#: The modules of the command line that are not commands: the one writer itself, and the
#: entry point that hands it what a command returned (and flushes standard output).
NOT_COMMANDS = {"outputs.py": "the one writer", "main.py": "the entry point"}
#: The writers of :mod:`irscale.io.files` a command would write a file with by itself.
FILE_WRITERS = ("atomic_output", "atomic_path", "write_output")
#: What a command does instead.
INSTEAD = ("return what the command made (a text, an iterator of chunks, a result, a data "
           "frame, irscale.cli.outputs.Output for another file, plot_output(figure, path) "
           "for a figure, Output(Folder(fill, option), path) for a folder a library function "
           "writes, Output(..., folder=) for a file in an output folder): the command line "
           "writes it")
#: Writers of a data frame (pandas) that take a path or a stream first.
FRAME_WRITERS = ("to_csv", "to_parquet", "to_json", "to_excel", "to_feather", "to_pickle",
                 "to_html", "to_latex", "to_markdown", "to_stata", "to_hdf", "to_orc",
                 "to_xml")
#: Functions that may be given an output path: the outputs handed to the one writer, and
#: the checks and spellings of paths that write nothing.
TAKES_OUTPUT_PATHS = {
    "Output", "plot_output", "check_output", "check_out", "check_new_folder",
    "check_output_folder", "check_plot_path", "inside_folder", "is_stdio", "join", "isdir",
    "exists", "lexists", "abspath", "realpath", "relpath", "dirname", "basename", "fspath",
    "given", "bool", "str", "len", "image_format", "check_disk",
}
#: Kinds of output options whose path a command hands to no library function (a cache is
#: the library's own: read and written by the function that takes it).
WRITTEN_KINDS = ("file", "plot", "folder")
#: Output folders a library function keeps as it works, as a cache: option → why.
KEPT_BY_THE_LIBRARY = {
    "checkpoint": "meta simulate --checkpoint: the counts of a study kept as it goes (read "
                  "back by the next call to resume), written by the study itself",
}
def output_options() -> dict[str, frozenset[str]]:
    """The destinations (``args.NAME``) of the output options of each command module (the
    module of the command's ``run``), and under ``""`` those of the modules that run no
    command (helpers): every destination that names an output wherever it is used."""
    by_module: dict[str, set[str]] = {}
    inputs: set[str] = set()
    outputs: set[str] = set()

    def module(parser: argparse.ArgumentParser) -> str:
        func = parser.get_default("func")
        while isinstance(func, functools.partial):  # a group's runner: the action's run
            func = next((a for a in func.args if callable(a)), func.func)
        return getattr(func, "__module__", "").rsplit(".", 1)[-1] + ".py"

    def walk(parser: argparse.ArgumentParser) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if subs:
            for sub in {id(p): p for p in subs[0].choices.values()}.values():
                walk(sub)
            return
        names = by_module.setdefault(module(parser), set())
        for action in parser._actions:
            role = file_role(action)
            kind = None if role is None else getattr(role, "kind", "input")
            if kind in WRITTEN_KINDS and action.dest not in KEPT_BY_THE_LIBRARY:
                names.add(action.dest)
                outputs.add(action.dest)
            elif kind is not None:
                inputs.add(action.dest)

    walk(build_parser())
    found = {name: frozenset(dests) for name, dests in by_module.items()}
    found[""] = frozenset(outputs - inputs)
    return found


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


class _Scan(ast.NodeVisitor):
    """The places of a module that write (:func:`writes`), the names that hold an output
    path known (``out = args.per_topic_out``) and the parameters of the functions around
    each call (the stream a writing function is given)."""

    def __init__(self, outputs: frozenset[str], held: set[str]) -> None:
        self.outputs = outputs
        self.held = held
        self.scopes: list[set[str]] = []
        self.found: list[tuple[int, str]] = []

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self.scopes.append({a.arg for a in [*node.args.posonlyargs, *node.args.args,
                                              *node.args.kwonlyargs]})
        self.generic_visit(node)
        self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def is_output(self, node: ast.expr) -> bool:
        """Whether ``node`` is the path of an output option (``args.plot``, or a name
        that holds one)."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return node.value.id == "args" and node.attr in self.outputs
        return isinstance(node, ast.Name) and node.id in self.held

    def writes_a_path(self, call: ast.Call) -> bool:
        """Whether ``call`` (a data frame's ``to_csv``...) is given a path: a first
        argument that is neither None (a text returned) nor a parameter of the function
        around it (the stream a writing function is given)."""
        first = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg in ("path_or_buf", "path", "buf")), None)
        if first is None or (isinstance(first, ast.Constant) and first.value is None):
            return False
        return not (isinstance(first, ast.Name) and self.scopes
                    and first.id in self.scopes[-1])

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if ast.unparse(node) == "sys.stdout":
            self.found.append((node.lineno, "uses sys.stdout"))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        func = ast.unparse(node.func)
        name = func.rsplit(".", 1)[-1]
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if func == "print" and not any(k.arg == "file" and _is_stderr(k.value)
                                       for k in node.keywords):
            self.found.append((node.lineno, "prints to standard output"))
        elif func in ("open", "io.open", "builtins.open") and _write_mode(node, 1):
            self.found.append((node.lineno, f"opens a file for writing ({ast.unparse(node)})"))
        elif func.endswith(".open") and func not in ("os.open",) and _write_mode(node, 0):
            self.found.append((node.lineno, f"opens a file for writing ({ast.unparse(node)})"))
        elif name in ("write_text", "write_bytes") and "." in func:
            self.found.append((node.lineno, f"writes a file ({func})"))
        elif name in FILE_WRITERS:
            self.found.append((node.lineno, f"writes a file itself ({func})"))
        elif func == "os.open" and any(flag in ast.unparse(node)
                                       for flag in ("O_WRONLY", "O_RDWR", "O_CREAT")):
            self.found.append((node.lineno, "opens a descriptor for writing"))
        elif name == "savefig":
            self.found.append((node.lineno, f"saves a figure itself ({func})"))
        elif name in ("mkdir", "makedirs", "mkdtemp") and func != "tempfile.mkdtemp":
            self.found.append((node.lineno, f"makes a folder itself ({func})"))
        elif name in FRAME_WRITERS and "." in func and self.writes_a_path(node):
            self.found.append((node.lineno, f"writes a data frame to a path itself "
                               f"({ast.unparse(node)})"))
        elif name not in TAKES_OUTPUT_PATHS and any(map(self.is_output, arguments)):
            self.found.append((node.lineno, f"hands an output path to {func}, which may "
                               "write it"))


def _held(tree: ast.AST, outputs: frozenset[str]) -> set[str]:
    """The names assigned an output option's path in ``tree`` (``out = args.plot``)."""
    return {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "args" and node.value.attr in outputs
            for target in node.targets if isinstance(target, ast.Name)}


def writes(source: str, outputs: frozenset[str] = frozenset({"plot", "per_topic_out"})
           ) -> list[tuple[int, str]]:
    """The places of ``source`` (a module's text) that print to standard output, open a
    file for writing, save a figure, write a data frame to a path, make a folder or hand
    the path of an output option (``outputs``: the destinations of the output options)
    to a function that may write it: (line, what)."""
    tree = ast.parse(source)
    scan = _Scan(outputs, _held(tree, outputs))
    scan.visit(tree)
    return sorted(scan.found)


def test_no_command_prints_or_writes_a_file_itself():
    found = []
    outputs = output_options()
    assert {"plot", "plot_dir", "qrels_out"} <= outputs["meta_scales.py"] | \
        outputs["meta_split.py"] | outputs["pool.py"], outputs
    for path in sorted(CLI.glob("*.py")):
        if path.name in NOT_COMMANDS:
            continue
        found.extend(f"src/irscale/cli/{path.name}:{line}: {what}"
                     for line, what in writes(path.read_text(encoding="utf-8"),
                                              outputs.get(path.name, outputs[""])))
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
    ("figure.savefig(args.plot)", "saves a figure itself"),
    ("ax.figure.savefig(path, dpi=150)", "saves a figure itself"),
    ("frame.to_csv(path)", "writes a data frame to a path itself"),
    ("frame.to_parquet(args.out_file, index=False)", "writes a data frame to a path itself"),
    ("def run(args):\n    return frame.to_parquet(f'{args.prefix}.parquet')",
     "writes a data frame to a path itself"),
    ("os.makedirs(args.plot_dir, exist_ok=True)", "makes a folder itself"),
    ("Path(folder).mkdir()", "makes a folder itself"),
    ("meta.plot_asl_curves(results, args.plot)", "hands an output path to"),
    ("save_figure(forest(found).figure, args.plot)", "hands an output path to"),
    ("out = args.per_topic_out\nmany = evaluate_many(qrels, files, out=out)",
     "hands an output path to"),
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
    "return [plot_output(figure, args.plot), Output(text)]",
    "return Output(lambda stream: frame.to_parquet(stream, index=False), binary=True)",
    "return frame.to_csv(sep='\\t', index=False)",
    "return frame.to_csv(None)",
    "check_output(args.plot, force=args.force, option='--plot')",
    "out = args.per_topic_out\ncheck_out(out, files)\nreturn Output(Folder(fill, '--o'), out)",
    "path = os.path.join(args.plot_dir, name)",
    "tempfile.TemporaryDirectory()",
    "evaluate_many(qrels, files, out=os.path.join(work, 'per-topic'))",
])
def test_the_scan_lets_reading_and_standard_error_through(source):
    assert writes(source) == []

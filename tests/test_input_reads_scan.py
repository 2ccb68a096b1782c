"""Every input comes through one bounded reader (the design notes, "Inputs come through one
bounded reader"; ``docs/errors.md`` §1): no module of ``src/irscale`` outside ``io/`` opens
or parses an input by itself.

The source is read, nothing is imported. A read is a call of the builtin ``open`` (or
``io.open``, or any ``.open(...)`` method: ``Path.open``, ``gzip.open``, ``tarfile.open``)
whose mode does not write, ``os.open`` without ``O_WRONLY``, ``Path.read_text`` and
``Path.read_bytes``, a parser of a file or of its text (``json.load``/``loads``,
``pickle``, ``tomllib``, ``np.load``/``loadtxt``/``genfromtxt``/``fromfile``/``memmap``,
``pd.read_*``, ``pyarrow.parquet.read_*`` and ``ParquetFile``, ``pyarrow``'s file
readers), and any use of ``sys.stdin``; names are resolved through the module's imports
(``import numpy as np``, ``from json import loads``). Such reads belong in ``io/``
(``io.files``: the memory and line limits, FIFOs read once, files irscale reads back;
``io.json_input``: every JSON text), where the rest of ``irscale`` calls them.

:data:`ALLOWED` names the few reads that are not of an input, each with its reason: fix a
new finding by moving the read into ``io/``, not by adding an entry. A second scan keeps
JSON to one parser: no module but ``io/json_input.py`` calls ``json.load`` or
``json.loads``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "irscale"

#: (module path under src/irscale, the read as :func:`reads` names it) → why it is no
#: input. Keep it short.
ALLOWED: dict[tuple[str, str], str] = {
    ("core/budget.py", "open"):
        "the memory limit of the process's cgroup (/proc/self/cgroup, /sys/fs/cgroup): the "
        "system's settings, read by the core, which io builds on",
}

#: Functions that read a file or parse an input's text, by their full names.
READERS = frozenset({
    "open", "io.open", "builtins.open", "json.load", "json.loads", "pickle.load",
    "pickle.loads", "marshal.load", "marshal.loads", "tomllib.load", "tomllib.loads",
    "numpy.load", "numpy.loadtxt", "numpy.genfromtxt", "numpy.fromfile", "numpy.memmap",
    "pyarrow.parquet.ParquetFile", "pyarrow.parquet.ParquetDataset", "pyarrow.memory_map",
    "pyarrow.OSFile", "pyarrow.ipc.open_file", "pyarrow.ipc.open_stream",
    "pyarrow.dataset.dataset", "zipfile.ZipFile", "shelve.open", "dbm.open",
})
#: Prefixes of the full names of functions that read files.
READER_PREFIXES = ("pandas.read_", "pyarrow.parquet.read_", "pyarrow.csv.read_",
                   "pyarrow.json.read_", "pyarrow.feather.read_")
#: Methods that read a file whatever their object (``Path.read_text``).
READING_METHODS = frozenset({"read_text", "read_bytes", "read_parquet", "read_csv",
                             "read_feather"})
#: Letters of a mode of ``open`` that writes (a mode without one reads).
WRITING = frozenset("wax")


def _aliases(tree: ast.AST) -> dict[str, str]:
    """Every name a module's imports bind (anywhere in it) → the full name it stands for."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    names[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` of a name or an attribute of one; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def _mode(call: ast.Call, position: int) -> str | None:
    """The constant mode of an ``open`` call (argument ``position`` or ``mode=``)."""
    given = call.args[position] if len(call.args) > position else next(
        (k.value for k in call.keywords if k.arg == "mode"), None)
    return given.value if isinstance(given, ast.Constant) and isinstance(
        given.value, str) else None


def _writes(call: ast.Call, name: str) -> bool:
    """Whether an ``open`` call opens for writing only."""
    if name == "os.open":
        flags = ast.unparse(call.args[1]) if len(call.args) > 1 else ""
        return "O_WRONLY" in flags
    mode = _mode(call, 0 if isinstance(call.func, ast.Attribute)
                 and name not in ("io.open", "builtins.open", "gzip.open", "bz2.open",
                                  "lzma.open", "tarfile.open") else 1)
    return mode is not None and bool(WRITING & set(mode))


def reads(source: str) -> list[tuple[int, str]]:
    """``(line, the read)`` of every read of a file or an input in the Python ``source``
    (module documentation); the read is named by its full name (``numpy.load``,
    ``open``, ``sys.stdin``) or, for a method, ``.read_text`` or ``.open``."""
    tree = ast.parse(source)
    aliases = _aliases(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _dotted(node) == "sys.stdin" and \
                aliases.get("sys") == "sys":
            found.append((node.lineno, "sys.stdin"))
        if not isinstance(node, ast.Call):
            continue
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        head, _, rest = (_dotted(node.func) or "").partition(".")
        name = f"{aliases.get(head, head)}.{rest}" if rest else aliases.get(head, head)
        if name in READERS or name.startswith(READER_PREFIXES) or name == "os.open" or \
                method == "open":
            if not _writes(node, name):
                found.append((node.lineno, name if head in aliases or method is None
                              else f".{method}"))
        elif method in READING_METHODS:
            found.append((node.lineno, f".{method}"))
    return sorted(set(found))


def _modules() -> list[Path]:
    return sorted(path for path in SOURCE.rglob("*.py")
                  if path.relative_to(SOURCE).parts[0] != "io")


def test_no_module_outside_io_reads_an_input_by_itself():
    """Every read of a file or an input outside ``io/`` (file:line: what), bar
    :data:`ALLOWED`."""
    found = []
    used = set()
    for path in _modules():
        module = path.relative_to(SOURCE).as_posix()
        for line, read in reads(path.read_text(encoding="utf-8")):
            if (module, read) in ALLOWED:
                used.add((module, read))
            else:
                found.append(f"src/irscale/{module}:{line}: {read}")
    assert not found, ("inputs read outside io/ (move the read into an io/ reader, "
                       "io.files or io.json_input):\n" + "\n".join(found))
    assert used == set(ALLOWED), f"allow-list entries that match nothing: " \
                                 f"{sorted(set(ALLOWED) - used)}"



def test_every_json_text_goes_through_the_one_parser():
    """No module but ``io/json_input.py`` parses JSON (``json.load``, ``json.loads``):
    every JSON text irscale reads is bounded in nesting and integers by one parser
    (:func:`irscale.io.json_input.parse_json`)."""
    found = [f"src/irscale/{path.relative_to(SOURCE).as_posix()}:{line}: {read}"
             for path in sorted(SOURCE.rglob("*.py")) if path.name != "json_input.py"
             for line, read in reads(path.read_text(encoding="utf-8"))
             if read in ("json.load", "json.loads")]
    assert not found, "JSON parsed outside irscale.io.json_input:\n" + "\n".join(found)

SAMPLE = '''
import gzip, json, os, sys
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
from json import loads
from pathlib import Path

def f(path, d):
    open(path)
    open(path, "rb")
    open(path, "w")
    open(d, "wb", closefd=False)
    gzip.open(path, "rt")
    gzip.open(path, "wt")
    Path(path).read_text()
    Path(path).read_bytes()
    Path(path).open()
    Path(path).open("w")
    os.open(path, os.O_RDONLY)
    os.open(path, os.O_WRONLY | os.O_CREAT)
    json.load(d)
    loads("[]")
    json.dumps([])
    np.load(path)
    np.loadtxt(path)
    np.save(path, d)
    pd.read_csv(path)
    pd.read_parquet(path)
    pq.read_table(path)
    sys.stdin.read()
'''


@pytest.mark.parametrize(("line", "read"), [
    (10, "open"), (11, "open"), (14, "gzip.open"), (16, ".read_text"), (17, ".read_bytes"),
    (18, ".open"), (20, "os.open"), (22, "json.load"), (23, "json.loads"),
    (25, "numpy.load"), (26, "numpy.loadtxt"), (28, "pandas.read_csv"),
    (29, "pandas.read_parquet"), (30, "pyarrow.parquet.read_table"), (31, "sys.stdin")])
def test_the_scan_finds_each_kind_of_read(line, read):
    """Each kind of read is found, by its line (the scan is not vacuous)."""
    assert (line, read) in reads(SAMPLE)


def test_the_scan_leaves_writes_and_other_calls():
    """Opening to write, writing and serialising are not reads."""
    lines = {line for line, _ in reads(SAMPLE)}
    assert not lines & {12, 13, 15, 19, 21, 24, 27}, sorted(lines)

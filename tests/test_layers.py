"""The layers of irscale run one way: no module imports from a layer above its own.

Every module under ``src/irscale`` is read as source (nothing is imported) and every
``import`` / ``from ... import`` in it is checked — at module level, inside functions and
methods, under ``if TYPE_CHECKING:``, relative or absolute. A module's layer is that of its
top-level package (or top-level module) of ``irscale``:

    errors < core, parallel < io < measures < evaluation, datasets, text, fusion < stats
    < scales
    < meta, collections, labels, online < plots < report < cli, __main__

``core`` holds the data model (inputs, judged rankings, score matrices), ``parallel`` the
executors every parallel loop runs on (local threads or Dask), ``io`` reads and
writes it, ``measures`` compute on judged rankings, ``evaluation`` (and ``datasets``, which
evaluates bundled collections, and ``text``, which evaluates sessions and texts) runs
measures over qrels and runs, ``fusion`` combines runs (and evaluates them to search
weights), ``stats`` tests score matrices, ``scales`` builds interval
scales (using evaluation and stats), ``meta`` evaluates measures and tests (using all of
them), and ``cli`` is the command. Modules of one layer may import each other.
``irscale/__init__.py`` is exempt: it re-exports the public API lazily (PEP 562).

A second rule (the design notes): no module imports a private (``_name``) module of
another top-level package; a module used across packages is public. One seam is named
(:data:`ENGINE_USERS`): the columnar helpers behind the core, ``irscale.core._columnar``,
and the native engine, ``irscale._engine``, are imported by the core and the readers
(``io``) only: the layers above use the core's public helpers
(:mod:`irscale.core.identifiers`, :mod:`irscale.core.judge`).

A third rule keeps the modules small: none has more than :data:`MAX_MODULE_LINES` lines.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "irscale"

#: Layer of every top-level package or module of irscale (lower imports nothing higher).
LAYERS: dict[str, int] = {
    "_manifest": 0,  # the declarations as data, generated (tools/manifest.py); imports nothing
    "errors": 0,
    "core": 1,
    "parallel": 1,
    "io": 2,
    "measures": 3,
    "cache": 4,
    "evaluation": 4,
    "text": 4,
    "datasets": 4,
    "fusion": 4,
    "stats": 5,
    "scales": 6,
    "meta": 7,
    "collections": 7,
    "labels": 7,
    "online": 7,
    "plots": 8,
    "report": 9,
    "cli": 10,
    "__main__": 10,  # python -m irscale: the command line
}

#: Upward imports allowed, as (importing module, imported module) → why. Keep it short:
#: fix a violation by moving code to the layer both sides use, not by adding an entry.
ALLOWED: dict[tuple[str, str], str] = {
    ("irscale.core.scorematrix", "irscale.io.scores_csv"):
        "ScoreMatrix.read_csv is the core type's documented constructor from a CSV file; "
        "the strict reader belongs to io and is imported inside the method only, so "
        "importing core never loads io",
    ("irscale.evaluation.assignments_ppi", "irscale.stats.protocol"):
        "AssignmentEstimates.format renders its table as every result's format does; the "
        "table renderer is imported inside the method only",
    ("irscale.measures.results", "irscale.stats.baseline"):
        "Evaluation.compare (RunSummaries.compare, evaluate_many's too) is the documented "
        "shortcut for comparing an evaluation's runs "
        "with a baseline; the statistics stay in stats and are imported inside the method "
        "only, so importing an evaluation never loads stats",
    ("irscale.measures.results", "irscale.stats.summary_table"):
        "Evaluation.format('latex') is the paper's table of stats.summary_table (its "
        "significance marks are tests of stats); imported inside the method only, so "
        "importing an evaluation never loads stats",
}


#: The private engines behind the core, and the modules that may import them besides the
#: core's own: the readers build the columnar helpers' columns (topic blocks, fingerprints,
#: duplicates) as they parse and hand TREC files and dicts to the native engine
#: (``irscale._engine``, compiled from ``rust/``), which judges every run (``Qrels`` and
#: ``Run`` objects through ``irscale.core.judge``); the package's root reads only its
#: version from it.
ENGINES = ("irscale.core._columnar", "irscale._engine")
ENGINE_USERS = ("irscale.core", "irscale.io")


def _modules() -> list[tuple[str, Path]]:
    modules = []
    for path in sorted(SOURCE.rglob("*.py")):
        parts = ["irscale", *path.relative_to(SOURCE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules.append((".".join(parts), path))
    return modules


def _imported(name: str, path: Path, *, runtime: bool = False
              ) -> list[tuple[int, str, str | None]]:
    """(line, absolute module name, name imported from it) of every import of ``path``
    (module ``name``): for ``import X`` the module ``X`` and no name; for ``from X import
    y`` the module ``X.y`` and no name when ``X.y`` is a module, ``X`` and ``y`` otherwise.
    ``runtime``: without the imports under ``if TYPE_CHECKING:`` (for type checkers
    only)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: list[tuple[int, str, str | None]] = []
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    if runtime:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                node.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = SOURCE.parent.joinpath(*f"{target}.{alias.name}".split("."))
                if any(sub.with_suffix(suffix).is_file() for suffix in (".py", ".pyi")) \
                        or (sub / "__init__.py").is_file():
                    found.append((node.lineno, f"{target}.{alias.name}", None))
                else:
                    found.append((node.lineno, target, alias.name))
    return sorted({(line, target, imported) for line, target, imported in found
                   if target == "irscale" or target.startswith("irscale.")},
                  key=lambda item: (item[0], item[1], item[2] or ""))


def _imports(name: str, path: Path, *, runtime: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import of ``path`` (module ``name``)
    (:func:`_imported`, without the names)."""
    return sorted({(line, target) for line, target, _ in _imported(name, path,
                                                                    runtime=runtime)})


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


MODULES = _modules()


def test_every_top_level_module_has_a_layer():
    tops = {name.split(".")[1] for name, _ in MODULES if name != "irscale"}
    assert tops - set(LAYERS) == set(), "place the new top-level module in LAYERS"


def test_the_scan_sees_relative_absolute_and_function_level_imports():
    """The scan itself: imports of every kind are found and resolved."""
    found = dict((target, line) for line, target in _imports(
        "irscale.core.scorematrix", SOURCE / "core" / "scorematrix.py"))
    assert "irscale.errors" in found  # module level, relative
    assert "irscale.io.scores_csv" in found  # inside a method, relative, a submodule


def test_no_module_imports_from_a_higher_layer():
    violations = []
    used = set()
    for name, path in MODULES:
        if name == "irscale":
            continue  # re-exports the public API lazily
        own = _layer(name)
        for line, target in _imports(name, path):
            layer = _layer(target)
            if layer is None or layer <= own:
                continue
            if (name, target) in ALLOWED:
                used.add((name, target))
                continue
            violations.append(f"{path.relative_to(SOURCE.parent)}:{line}: {name} "
                              f"(layer {own}) imports {target} (layer {layer})")
    assert violations == [], "\n".join(violations)
    assert used == set(ALLOWED), f"allow-list entries no longer needed: {set(ALLOWED) - used}"


@pytest.mark.parametrize("reason", list(ALLOWED.values()))
def test_every_allowed_upward_import_says_why(reason):
    assert len(reason) > 40


def test_no_module_imports_another_packages_private_module():
    """Packages are the top-level ones (``irscale.stats``, ...): ``irscale.measures.graded``
    may use ``irscale.measures.trec._segments``, ``irscale.meta`` no private module of
    ``irscale.stats``."""
    violations = []
    for name, path in MODULES:
        for line, target in _imports(name, path):
            parts = target.split(".")
            if not any(part.startswith("_") for part in parts[2:]):
                continue
            if _engine(target) and any(_within(name, user) for user in ENGINE_USERS):
                continue
            if name.split(".")[:2] != parts[:2]:
                violations.append(f"{path.relative_to(SOURCE.parent)}:{line}: {name} "
                                  f"imports the private module {target}")
    assert violations == [], "\n".join(violations)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _engine(module: str) -> bool:
    return any(_within(module, engine) for engine in ENGINES)


def test_only_the_named_modules_import_the_engine():
    """The seam above, in so many words: no other module imports ``irscale.core._columnar``
    or the native ``irscale._engine`` (the private-module rule would also refuse most of
    them; ``irscale.core`` itself may)."""
    violations = [f"{path.relative_to(SOURCE.parent)}:{line}: {name} imports {target}"
                  for name, path in MODULES for line, target in _imports(name, path)
                  if _engine(target) and name != "irscale"
                  and not any(_within(name, user) for user in ENGINE_USERS)]
    assert violations == [], "\n".join(violations)
    assert (SOURCE / "core" / "_columnar" / "__init__.py").is_file()


#: The readers (the design notes: the measures layer computes, the runners read): the
#: modules that resolve and open input files, and the functions that read one, by name
#: (``read_*``, and the engine's file readers of :mod:`irscale.io.diversity`). The data
#: types and formats of ``io`` may be used below the runners; its readers may not.
READER_MODULES = ("irscale.io.sources", "irscale.io.naming", "irscale.io.files")
READER_NAMES = re.compile(r"read_\w*|engine_file|engine_read")


def _reads(target: str, imported: str | None) -> bool:
    """Whether an import (module ``target``, name ``imported``) is one of a reader."""
    return any(_within(target, reader) for reader in READER_MODULES) or (
        imported is not None and _within(target, "irscale.io")
        and READER_NAMES.fullmatch(imported) is not None)


def test_the_measures_layer_reads_no_file():
    """No module under ``irscale.measures`` imports a reader, at module level or inside a
    function: the runners of :mod:`irscale.evaluation` read the inputs and hand the
    measures what was read."""
    violations = [f"{path.relative_to(SOURCE.parent)}:{line}: {name} imports "
                  f"{target}{'' if imported is None else '.' + imported}"
                  for name, path in MODULES if _within(name, "irscale.measures")
                  for line, target, imported in _imported(name, path)
                  if _reads(target, imported)]
    assert violations == [], "\n".join(violations)


def test_the_reader_rule_sees_readers_by_module_and_by_name():
    """The rule itself, on imports of every kind: a reader module, a reader function of an
    io module, and not a data type of the same module."""
    assert _reads("irscale.io.sources", None) and _reads("irscale.io.naming", "name_runs")
    assert _reads("irscale.io.diversity", "read_ndeval_run")
    assert _reads("irscale.io.diversity", "engine_file")
    assert not _reads("irscale.io.diversity", "DiversityQrels")
    assert not _reads("irscale.core.labels", "read_only")


def _import_graph() -> dict[str, list[str]]:
    """Every module of irscale and the modules of irscale it imports (at run time, in
    functions, and for type checkers only)."""
    known = {name for name, _ in MODULES}
    return {name: sorted({target for _, target in _imports(name, path)
                          if target in known and target != name})
            for name, path in MODULES}


def _circles(graph: dict[str, list[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module of ``graph`` (Tarjan's
    algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if child < len(graph[node]):
                work.append((node, child + 1))
                target = graph[node][child]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(frozenset(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return circles


def test_no_import_circle():
    """No modules import each other in a loop, counting every import. A circle is broken
    by moving the shared code to the module both sides need, or by typing the upper side
    with a protocol of the lower layer (as :mod:`irscale.io.table`'s ``RunTable`` and
    ``AveragedTable`` type the writers that :class:`irscale.evaluation.Evaluation`'s
    methods call)."""
    assert _circles(_import_graph()) == []


def test_the_circle_finder_finds_a_circle():
    """The finder on a graph with one circle of three, a module that enters it, a
    self-contained pair and a module alone."""
    graph = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"], "e": ["f"], "f": ["e"],
             "g": []}
    assert set(_circles(graph)) == {frozenset("abc"), frozenset("ef")}


#: The most lines a module of irscale may have: a larger one holds more than one thing
#: (split it by what it holds, as ``cli/meta_*.py`` split the meta analyses).
MAX_MODULE_LINES = 800


def test_no_module_is_over_800_lines():
    long = {name: lines for name, path in _modules()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, long

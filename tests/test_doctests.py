"""The examples in the docstrings of ``src/irscale`` run and print what they show (doctest).

Run with the normal test suite (``python -m pytest`` or ``python -m pytest tests``), one
test per module that has examples; ``python -m pytest --doctest-modules src/irscale``
runs the same examples with the same option flags (``[tool.pytest.ini_options]``).
Examples run in a temporary working directory, so that a file one writes by mistake lands
there; they should write files into a ``tempfile.TemporaryDirectory`` of their own. A module
whose optional dependency (matplotlib) is missing is skipped.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "irscale"
#: Optional dependencies (the ``plot`` extra): a module that needs one is skipped without it.
OPTIONAL = frozenset({"matplotlib"})
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: Modules whose source has an example prompt (found without importing anything).
MODULES = sorted(
    _module_name(path) for path in PACKAGE.rglob("*.py")
    if path.name != "__main__.py"
    and re.search(r"^\s*>>> ", path.read_text(encoding="utf-8"), flags=re.M)
)


def test_the_public_api_has_examples():
    documented = {"irscale.evaluation.api", "irscale.io.trec", "irscale.core.scorematrix",
                  "irscale.measures.names", "irscale.stats.parametric", "irscale.stats.power",
                  "irscale.meta.rank_correlation"}
    assert documented <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, tmp_path, monkeypatch):
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name in OPTIONAL:
            pytest.skip(f"{name} needs {error.name}")
        raise
    monkeypatch.chdir(tmp_path)
    tests = [test for test in doctest.DocTestFinder().find(module, name) if test.examples]
    assert tests, f"{name}: '>>>' in the source but no docstring example found"
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    for test in sorted(tests, key=lambda t: t.name):
        runner.run(test, out=report.append)
    assert runner.tries > 0 and runner.failures == 0, "".join(report)

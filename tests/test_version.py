"""One version number: ``irscale.__version__`` in ``src/irscale/__init__.py``.

pyproject.toml declares the version dynamic and has setuptools read that attribute; the
value is a string literal, so setuptools reads it from the source without importing
irscale (or numpy), for a normal and an editable install alike, and ``irscale --version``
prints it without importing anything else.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import irscale
from irscale.cli.main import main

from .faults.conftest import subprocess_env

ROOT = Path(__file__).resolve().parents[1]
#: A release number as PEP 440 writes a final release, optionally with a pre-release part.
PEP440 = re.compile(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?")


def _literal_version() -> str:
    """``__version__`` as assigned in ``src/irscale/__init__.py`` (a string literal)."""
    tree = ast.parse((ROOT / "src" / "irscale" / "__init__.py").read_text(encoding="utf-8"))
    values = [node.value for node in tree.body if isinstance(node, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets)]
    assert len(values) == 1 and isinstance(values[0], ast.Constant), \
        "__version__ must be assigned once, a literal setuptools can read without importing"
    assert isinstance(values[0].value, str)
    return values[0].value


def test_the_version_is_a_literal_of_the_package():
    version = _literal_version()
    assert PEP440.fullmatch(version), version
    assert irscale.__version__ == version


def test_pyproject_takes_the_version_from_the_package():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in config["project"], "a second version number in pyproject.toml"
    assert "version" in config["project"]["dynamic"]
    assert config["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "irscale.__version__"}


def test_setuptools_reads_the_version_without_importing_irscale():
    pytest.importorskip("setuptools.config.pyprojecttoml")
    code = (
        "import json, sys, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "from setuptools.config.pyprojecttoml import read_configuration\n"
        "project = read_configuration('pyproject.toml', expand=True)['project']\n"
        "print(json.dumps([project['version'], 'irscale' in sys.modules,"
        " 'numpy' in sys.modules]))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=subprocess_env())
    assert done.returncode == 0, done.stderr
    version, imported, numpy = json.loads(done.stdout.splitlines()[-1])
    assert version == _literal_version()
    assert not imported and not numpy


def test_the_command_prints_the_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"irscale {_literal_version()}"

"""One version number: ``version`` in ``rust/Cargo.toml``.

pyproject.toml declares the version dynamic, so maturin writes the crate's version into the
package's metadata; the engine carries the same number (``CARGO_PKG_VERSION``) and
``irscale.__version__`` and ``irscale --version`` read it from there.
"""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import pytest

import irscale
from irscale.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
#: A release number as PEP 440 writes a final release, optionally with a pre-release part.
PEP440 = re.compile(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?")


def _crate_version() -> str:
    """``version`` of the ``[package]`` table of ``rust/Cargo.toml``."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "rust" / "Cargo.toml").read_text(encoding="utf-8"))
    return config["package"]["version"]


def test_the_version_is_the_crates():
    version = _crate_version()
    assert PEP440.fullmatch(version), version
    assert irscale.__version__ == version
    assert importlib.metadata.version("irscale") == version


def test_pyproject_takes_the_version_from_the_crate():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in config["project"], "a second version number in pyproject.toml"
    assert "version" in config["project"]["dynamic"]
    assert config["build-system"]["build-backend"] == "maturin"


def test_the_command_prints_the_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"irscale {_crate_version()}"

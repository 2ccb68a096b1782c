"""mypy stays clean: ``mypy`` with the [tool.mypy] settings of pyproject.toml
(``files = ["src"]``) reports no error anywhere in the package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .oracle_imports import lazy_importorskip

mypy = lazy_importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_clean() -> None:
    # the cache (.mypy_cache, git-ignored) makes a rerun take seconds; a cold run ~25 s
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--hide-error-context", "--no-pretty"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr

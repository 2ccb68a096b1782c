"""Shared fixtures: location of the real data in ../shared (tests skip when it is absent).

``IRSCALE_SHARED_DATA`` names another directory for it; set it to a missing path (e.g.
``IRSCALE_SHARED_DATA=/nonexistent python -m pytest tests``) to run the suite as a clone
without ``../shared`` runs it. The documentation examples still name ``../shared/data``
relative to the repository; they skip whenever this directory is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Timing is not what these tests check: no per-example deadline (CI machines are shared).
settings.register_profile("irscale", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("irscale")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("IRSCALE_SHARED_DATA") or REPO.parent / "shared" / "data")
CLEF = SHARED_DATA / "clef2016-task2"
URBANO = SHARED_DATA / "urbano-sigir2019"


def require(path: Path) -> Path:
    """``path`` if it exists, else skip the test (a user's clone has no ../shared)."""
    if not path.exists():
        pytest.skip(f"real data not available: {path}")
    return path


@pytest.fixture
def clef() -> Path:
    return require(CLEF)


@pytest.fixture
def urbano() -> Path:
    return require(URBANO)

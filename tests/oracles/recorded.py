"""When a recorded oracle is asked again: the answers of a reference too slow to run on
every run of the suite (ranx, compiled by numba) are recorded with the release that gave
them (``tests/oracles/ranx_fusion.py``, ``tests/oracles/ranx_evaluate.py``,
``tests/oracles/ranx_json.py``), and a test asks the reference again, failing on any
difference, where another release of it is installed or ``IRSCALE_REFRESH_ORACLES=1``
asks."""

from __future__ import annotations

import importlib.metadata
import os

#: ``IRSCALE_REFRESH_ORACLES=1``: every recorded oracle answers its cases again.
REFRESH = os.environ.get("IRSCALE_REFRESH_ORACLES", "") not in ("", "0")


def installed(package: str) -> str | None:
    """The installed release of ``package`` (None: not installed)."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def ask_again(package: str, recorded: str) -> str | None:
    """Why ``package`` must answer again (its release ``recorded`` answered the record), or
    None where the record stands: the release installed is ``recorded``, or none is and
    no refresh is asked. A refresh asked without the package installed is a failure of
    its own (``RuntimeError``)."""
    release = installed(package)
    if REFRESH:
        if release is None:
            raise RuntimeError(f"IRSCALE_REFRESH_ORACLES=1 asks {package} again, and "
                               f"{package} is not installed")
        return "IRSCALE_REFRESH_ORACLES=1"
    if release not in (None, recorded):
        return f"{package} {release} installed, {package} {recorded} recorded"
    return None

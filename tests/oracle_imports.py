"""Oracle libraries imported when a test runs, not when pytest collects its file.

``ranx = lazy_importorskip("ranx")`` at the top of a test module stands for ``ranx =
pytest.importorskip("ranx")``, and ``ppi_py = lazy_import("ppi_py")`` for ``import
ppi_py``: collecting the module imports nothing (ranx alone loads numba, matplotlib and
ir_datasets: seconds of every ``pytest`` start, even one that selects a single other test).

* A module's ``lazy_importorskip`` libraries are imported before each of its tests runs
  (:func:`import_or_skip_module_libraries`, called by tests/conftest.py), through
  :func:`pytest.importorskip`: without one, every test of the module skips with
  importorskip's reason — as the whole module did — the tests that reach the library
  only through irscale included.
* A ``lazy_import`` library is imported by the first look-up of one of its names (a test
  fails without it, as the import did).

Submodules are named in full: ``lazy_importorskip("ranx.fusion").probfuse_train`` for
``from ranx.fusion import probfuse_train``.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest


class LazyModule:
    """The module ``name``, imported on its first attribute look-up (with
    :func:`pytest.importorskip` where ``skip``).

    Names that start with ``_`` are not looked up: pytest's collection probes every module
    global for ``_mock_name`` and ``__wrapped__``, and that must not import the library.
    """

    __slots__ = ("_module", "_name", "_reason", "_skip")

    def __init__(self, name: str, skip: bool, reason: str | None = None) -> None:
        self._name = name
        self._skip = skip
        self._reason = reason
        self._module: ModuleType | None = None

    def _load(self) -> ModuleType:
        __tracebackhide__ = True  # a skip names the line of the test that needs the library
        if self._module is None:
            self._module = (pytest.importorskip(self._name, reason=self._reason) if self._skip
                            else importlib.import_module(self._name))
        return self._module

    def __getattr__(self, attribute: str) -> Any:
        __tracebackhide__ = True
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        return getattr(self._load(), attribute)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy_import(name: str) -> Any:
    """``import name``, done when one of the module's names is first looked up (typed
    ``Any``: its attributes are the module's)."""
    return LazyModule(name, skip=False)


def lazy_importorskip(name: str, reason: str | None = None) -> Any:
    """``pytest.importorskip(name, reason=reason)`` at module level, done before each test
    of the module runs (:func:`import_or_skip_module_libraries`)."""
    return LazyModule(name, skip=True, reason=reason)


#: each test module's lazy_importorskip libraries, found once per module
_SKIPPING: dict[str, tuple[LazyModule, ...]] = {}


def import_or_skip_module_libraries(module: ModuleType) -> None:
    """Import every :func:`lazy_importorskip` library of the test module ``module``; skip
    the running test without one."""
    __tracebackhide__ = True
    found = _SKIPPING.get(module.__name__)
    if found is None:
        found = _SKIPPING[module.__name__] = tuple(
            value for value in vars(module).values()
            if isinstance(value, LazyModule) and value._skip)
    for library in found:
        library._load()


@contextlib.contextmanager
def without_full_collections() -> Iterator[None]:
    """``gc.collect()`` a no-op within: statsmodels' ``multipletests`` (0.14) ends its Holm
    branch with ``import gc; gc.collect()``, a full collection of the caller's heap at every
    call — nothing of the correction, but in a pytest-xdist worker that has run a few
    thousand tests each one takes a large part of a second, and an oracle that corrects
    thousands of families (tests/test_report_judge_noise.py) took minutes in the suite
    where it takes seconds alone. The values are the same; the collector still runs on
    its own thresholds."""
    collect = gc.collect
    gc.collect = lambda generation=2: 0
    try:
        yield
    finally:
        gc.collect = collect

"""Every public function called once: the smoke subset of CI's run on the oldest numpy,
pandas, scipy and pyarrow that irscale declares (``.ci/minimums``).

Each callable of the API (:func:`tests.faults.test_api_types_faults._functions`: the
``__all__`` of irscale and its public packages, and every way into a class they export) is
called once on the example collection (:func:`tests.faults.conftest.populate`), its required
parameters given their examples and the light values of
:data:`~tests.faults.test_api_types_faults.LIGHT` (every one None where one has no example,
as the type sweep gives them): it returns, or raises an irscale error, never a raw
exception from numpy, pandas, scipy or pyarrow. Every command's example invocation is run
by ``tests/faults/test_command_examples.py``, which ``.ci/minimums`` runs beside this file;
the values are checked there by the files it names for what the releases change (I/O of
parquet and arrow, pandas frames, scipy's statistics).
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from irscale.errors import IrscaleError

from .faults.conftest import populate
from .faults.test_api_types_faults import WRONG, _call, _functions


def _callables() -> Iterator[Any]:
    """Each public callable once (re-exports once; a type alias, ``ExecutorArg``, is no
    call)."""
    seen: set[int] = set()
    for package, name, function in _functions():
        target = inspect.unwrap(function)
        if getattr(target, "__module__", "") == "typing":
            continue
        if id(target) not in seen:
            seen.add(id(target))
            yield pytest.param(function, id=f"{package}.{name}")


@pytest.mark.parametrize("function", list(_callables()))
def test_the_public_function_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  function: Callable[..., Any]) -> None:
    populate(tmp_path)
    monkeypatch.chdir(tmp_path)
    (args, kwargs), _ = _call(function, "", WRONG["None"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            function(*args, **kwargs)
    except IrscaleError:
        pass  # its examples do not suffice: refused, by irscale

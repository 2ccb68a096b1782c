"""Where irscale's embarrassingly parallel loops run: local threads or a Dask cluster.

See :mod:`irscale.parallel.executor` (one executor for every loop of tasks, local threads
or Dask) and :mod:`irscale.parallel.threads` (pieces of work of one computation spread over
this process's cores). Importing this package never imports Dask, nor the executor until
one of its names is used (PEP 562), so that the core modules' use of
:mod:`irscale.parallel.threads` costs the command's start-up nothing more.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = ["CONNECT_TIMEOUT", "EXTRA", "ExecutorArg", "check_executor", "check_workers",
           "executor_scope", "is_local", "is_ready", "map_tasks", "run_tasks"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'irscale.parallel' has no attribute {name!r}")
    value = getattr(importlib.import_module(".executor", __name__), name)
    from ..core.edge import guarded

    value = guarded(value)  # the API's edge (irscale.core.edge)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # pragma: no cover
    from .executor import (
        CONNECT_TIMEOUT,
        EXTRA,
        ExecutorArg,
        check_executor,
        check_workers,
        executor_scope,
        is_local,
        is_ready,
        map_tasks,
        run_tasks,
    )

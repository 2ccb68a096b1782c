"""Where irscale's embarrassingly parallel loops run: local threads or a Dask cluster.

See :mod:`irscale.parallel.executor`. Importing this package never imports Dask.
"""

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

__all__ = ["CONNECT_TIMEOUT", "EXTRA", "ExecutorArg", "check_executor", "check_workers",
           "executor_scope", "is_local", "is_ready", "map_tasks", "run_tasks"]

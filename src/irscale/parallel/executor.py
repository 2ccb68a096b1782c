"""One executor for every embarrassingly parallel loop: threads here, or a Dask cluster.

``executor=`` (API) and ``--scheduler`` (CLI) accept:

``"local"`` (the default)
    Threads of this process, ``workers`` of them (``None``: one per CPU core). Nothing of
    Dask is imported.
``"local:N"``
    A ``dask.distributed.LocalCluster`` of ``N`` worker processes (one thread each, no
    dashboard), started for the call (or for the ``with`` block of :func:`executor_scope`)
    and closed after it.
``"tcp://host:port"`` (also ``tls://``, ``ws://``, ``wss://``, ``ucx://``, ``inproc://``)
    The address of a running Dask scheduler (``dask scheduler`` / ``dask worker``).
a ``dask.distributed.Client``
    Used as it is and left open.

Dask is the optional extra ``irscale[dask]`` (``dask[distributed]``); asking for it without
the extra is a :class:`~irscale.errors.ParameterError` naming the extra.

Reproducibility
    A computation is cut into tasks by its own rule (a function of the data and of the
    method, never of the number of workers), every task gets its random stream as an
    argument (a :class:`numpy.random.SeedSequence` child chosen by the task's index), and
    the results are combined in task order (:func:`run_tasks` hands them over in that
    order whatever order they complete in). So the results are the same, bit for bit, for
    a seed whatever the executor and the number of workers. Tasks run with single-threaded
    BLAS on Dask workers too (as the local threads do), so that sums of products are
    rounded the same way.

Tasks
    ``func(*shared, *task)`` with ``func`` a module-level function (pickled by name) and
    ``shared`` the large arguments common to every task: on Dask they are sent once to
    every worker (``client.scatter(..., broadcast=True)``), not with each task. A worker
    lost mid-task (killed, out of memory) has its tasks run again elsewhere by the
    scheduler; since a task's result depends only on its arguments, the outcome is
    unchanged.
"""

from __future__ import annotations

import gc
import os
import re
import socket
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from functools import partial
from typing import Any, TypeVar, cast

from ..core.extras import DASK
from ..core.params import LOCAL_WORKERS, MAX_WORKERS, WORKERS
from ..errors import ParameterError, SchedulerError, shown

T = TypeVar("T")

#: The extra that installs Dask (named in the error when it is missing).
EXTRA = f"irscale[{DASK.extra}]"
#: Seconds to wait for a scheduler (TCP connection, then the Dask handshake).
CONNECT_TIMEOUT = 10.0
#: Seconds granted to a handshake beyond :data:`CONNECT_TIMEOUT` (Dask's own limit, which
#: a peer that answers nothing or garbage may escape) before it is abandoned.
HANDSHAKE_SLACK = 5.0
#: Schemes of Dask scheduler addresses.
SCHEMES: tuple[str, ...] = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
#: Times a task whose input data was lost with its workers is submitted again.
RESUBMISSIONS = 3
#: Memory of one worker process of ``local:N`` and its nanny once irscale is imported in
#: it (about 110 MiB measured with ``local:4``, rounded up): N of them are checked against
#: the memory limit before the cluster starts (the declared cost of
#: :data:`~irscale.core.params.LOCAL_WORKERS`).
LOCAL_WORKER_BYTES = 128 << 20
#: What ``executor=`` accepts: ``"local"``, ``"local:N"``, an address, or a Dask Client.
ExecutorArg = Any

_LOCAL = re.compile(r"local:(.*)")
_ADDRESS = re.compile(r"(?P<scheme>[a-z]+)://(?P<rest>.*)")
_FORMS = ("'local', 'local:N' (N worker processes on this machine), a scheduler address "
          "'tcp://host:port' or a dask.distributed.Client")


def _is_client(executor: object) -> bool:
    """Whether ``executor`` is a ``distributed.Client`` (without importing Dask)."""
    return type(executor).__module__.split(".")[0] == "distributed" and all(
        hasattr(executor, name) for name in ("submit", "scatter", "cancel"))


def check_executor(executor: object, option: str = "executor") -> ExecutorArg:
    """``executor`` if its form is valid (module documentation), ``"local"`` for ``None``;
    :class:`~irscale.errors.ParameterError` naming ``option`` otherwise. Nothing is
    connected or started here."""
    if executor is None:
        return "local"
    if _is_client(executor):
        return executor
    if not isinstance(executor, str):
        raise ParameterError(f"{option} must be {_FORMS}, got {executor!r}")
    if executor == "local":
        return executor
    local = _LOCAL.fullmatch(executor)
    if local:
        count = local.group(1)
        if not (count.isdigit() and 1 <= int(count) <= MAX_WORKERS):
            raise ParameterError(f"{option} {executor!r}: N of 'local:N' must be a whole number "
                                 f"of worker processes from 1 to {MAX_WORKERS}, "
                                 f"got {shown(count)}")
        from ..core.budget import format_size
        from ..core.progress import declared_memory

        declared_memory(LOCAL_WORKERS, int(count) * LOCAL_WORKER_BYTES,
                        f"{option} {executor}: {count} {LOCAL_WORKERS.units} of about "
                        f"{format_size(LOCAL_WORKER_BYTES)} each")
        return executor
    address = _ADDRESS.fullmatch(executor)
    if address is None or address.group("scheme") not in SCHEMES:
        raise ParameterError(f"{option} must be {_FORMS}, got {executor!r}")
    if address.group("scheme") in ("tcp", "tls", "ws", "wss"):
        _host_port(executor, option)
    elif not address.group("rest"):
        raise ParameterError(f"{option} {executor!r}: the address names no scheduler")
    return executor


def _host_port(address: str, option: str) -> tuple[str, int]:
    rest = address.split("://", 1)[1].rstrip("/")
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ParameterError(f"{option} {address!r}: a scheduler address is "
                             f"scheme://host:port with a port from 1 to 65535 "
                             f"(e.g. tcp://10.0.0.5:8786)")
    return host, int(port)


def is_local(executor: object) -> bool:
    """Whether ``executor`` (checked) runs on this process's threads."""
    return executor is None or (isinstance(executor, str) and executor == "local")


def check_workers(workers: object, executor: object) -> ExecutorArg:
    """The checked ``executor``, after checking ``workers``: ``None`` or a positive whole
    number of local threads, and not given with a Dask executor (whose workers are the
    cluster's)."""
    executor = check_executor(executor)
    if workers is None:
        return executor
    WORKERS.check(workers, "workers")
    if not is_local(executor):
        raise ParameterError("workers applies to the local executor; a Dask executor "
                             "runs on the cluster's workers (give one of the two)")
    return executor


def is_ready(executor: object) -> bool:
    """Whether ``executor`` (checked) is usable as it is: ``"local"`` or a Client (an
    address or ``local:N`` needs :func:`executor_scope` first)."""
    return is_local(executor) or _is_client(executor)


def _distributed(option: str = "executor", address: str = "") -> Any:
    return DASK.load(f"{option} {address}: a Dask scheduler")


@contextmanager
def executor_scope(executor: object, option: str = "executor") -> Iterator[ExecutorArg]:
    """The executor ready for any number of computations: ``"local"`` or a Client as
    given; a Client connected to an address (closed at the end); a new local cluster for
    ``"local:N"`` (shut down at the end). Unreachable schedulers are a
    :class:`~irscale.errors.SchedulerError` within :data:`CONNECT_TIMEOUT` seconds."""
    checked = check_executor(executor, option)
    if is_ready(checked):
        yield checked
        return
    address: str = checked
    distributed = _distributed(option, address)
    local = _LOCAL.fullmatch(address)
    if local:
        with _local_cluster(distributed, int(local.group(1))) as client:
            yield client
        return
    if address.split("://", 1)[0] in ("tcp", "tls", "ws", "wss"):
        host, port = _host_port(address, option)
        try:
            socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
        except OSError as error:
            raise SchedulerError(f"{option} {address}: no Dask scheduler answers there "
                                 f"({error.strerror or error})") from None
    with _connected(distributed, address, option) as client:
        yield client


@contextmanager
def _connected(distributed: Any, address: str, option: str) -> Iterator[Any]:
    """A Client of the scheduler at ``address``, Dask's handshake done within
    :data:`CONNECT_TIMEOUT` seconds (and a few more), closed at the end; else a
    :class:`~irscale.errors.SchedulerError` naming the address.

    The handshake runs in a thread that is waited for with a time limit: a peer that is no
    Dask scheduler may answer nothing (an HTTP server waits for a request), or bytes that
    Dask reads as the length of a frame and tries to allocate (``MemoryError``: not an
    allocation of irscale's, not reported as out of memory). A Client that connects after
    the limit is closed by its thread.
    """
    lock = threading.Lock()
    outcome: dict[str, Any] = {}

    def connect() -> None:
        # Dask's loop runner holds a lock that is not reentrant while a Client starts: a
        # Client collected by the garbage collector meanwhile (a Client whose construction
        # failed, left in a reference cycle) closes itself through that same lock and
        # deadlocks the thread and every later Dask call of the process. So no collection
        # while the Client starts, and a failed one is collected at once (the lock free).
        collecting = gc.isenabled()
        gc.disable()
        try:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
        except BaseException as error:  # reported by the caller, whatever it is
            # its type and words only: no traceback holding the failed Client's frames
            error.__traceback__ = error.__context__ = error.__cause__ = None
            outcome["error"] = error
            client = None
        finally:
            if collecting:
                gc.enable()
        if client is None:
            gc.collect()
            return
        with lock:
            if "abandoned" not in outcome:
                outcome["client"] = client
                return
        client.close()

    thread = threading.Thread(target=connect, name="irscale-dask-handshake", daemon=True)
    thread.start()
    thread.join(CONNECT_TIMEOUT + HANDSHAKE_SLACK)
    with lock:
        client = outcome.get("client")
        if client is None:
            outcome["abandoned"] = True
    if client is None:
        error = outcome.get("error")
        if error is None:
            reason = f"nothing answered Dask's handshake within {CONNECT_TIMEOUT:g} s"
        elif isinstance(error, (OSError, TimeoutError)):
            reason = str(error) or type(error).__name__
        else:
            reason = f"what answers does not speak Dask's protocol: {type(error).__name__}"
        raise SchedulerError(f"{option} {address}: no Dask scheduler answers there "
                             f"({reason})") from None
    with client:
        yield client


#: The loggers of the scheduler ``local:N`` runs in this process (Dask, Tornado, and
#: asyncio's "Task exception was never retrieved" of operations cut short by its
#: shutdown), and the level that silences them: a stopped cluster (^C, SIGTERM) logs
#: errors with tracebacks that are no news to the user, who sees ``irscale:`` lines only.
DASK_LOGGERS = ("distributed", "tornado", "asyncio")
SILENT = 100  # above logging.CRITICAL
#: Seconds a stopped local cluster (^C, SIGTERM) is given to close once its worker
#: processes are killed: the stop takes about a second, not Dask's 10 s of a graceful
#: shutdown.
STOP_TIMEOUT = 0.5
#: Seconds this thread waits at a time for Dask's start and shutdown, run in a thread of
#: their own (:func:`_interruptible`).
WAIT_SLICE = 0.05
#: The warnings of multiprocessing's resource tracker (a process of its own, started with
#: this one's ``-W`` options, :data:`sys.warnoptions`) about the semaphores of the worker
#: processes a stop killed: no news either.
TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"


@contextmanager
def _local_cluster(distributed: Any, workers: int) -> Iterator[Any]:
    """A Client of a new ``LocalCluster`` of ``workers`` processes, closed at the end.

    Dask's loggers are silenced meanwhile (:data:`DASK_LOGGERS`) and some warnings: the
    scheduler's HTTP server moves off a busy port 8787 and says so, and sockets of
    operations a stop cuts short are collected unclosed. The cluster starts and shuts
    down in a thread of its own (:func:`_interruptible`). A stop (``KeyboardInterrupt``:
    ^C, or SIGTERM raised as one by the command line) while it starts, works or shuts
    down is no time for Dask's graceful shutdown (up to 10 s, and a traceback from its
    exit handler for a cluster whose start was cut short): the cluster is abandoned
    (:func:`_abandon`) and the loggers stay silent, as what its dying parts log is no
    news."""
    import logging
    import multiprocessing
    import warnings

    from distributed.deploy.spec import SpecCluster

    loggers = [logging.getLogger(name) for name in DASK_LOGGERS]
    levels = [logger.level for logger in loggers]
    before = set(SpecCluster._instances), set(multiprocessing.active_children())
    if TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(TRACKER_QUIET)
    for logger in loggers:
        logger.setLevel(SILENT)
    parts: list[Any] = []  # the client, then the cluster (closed in this order)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Port .* is already in use", UserWarning)
            warnings.filterwarnings("ignore", "unclosed <socket", ResourceWarning)
            try:
                parts.append(_interruptible(lambda: distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=SILENT)))
                parts.insert(0, _interruptible(
                    lambda: distributed.Client(parts[-1], set_as_default=False)))
                yield parts[0]
            except BaseException as error:
                if not isinstance(error, KeyboardInterrupt):  # a stop: _abandon below
                    _shut_down(parts)
                raise
            else:
                _shut_down(parts)
            finally:
                gc.collect()  # the cut-short sockets, under these filters
    except KeyboardInterrupt:  # while it started, worked or shut down
        _abandon(parts[:-1], *before)
        raise  # the loggers stay silent
    except BaseException:
        _restore(loggers, levels)
        raise
    _restore(loggers, levels)


def _restore(loggers: list[Any], levels: list[int]) -> None:
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


def _shut_down(parts: list[Any]) -> None:
    """Dask's graceful shutdown of the client and the cluster of ``parts``."""
    for part in parts:
        _interruptible(part.close)


def _interruptible(call: Callable[[], T]) -> T:
    """``call()`` (a blocking call of Dask's) run in a thread of its own while this thread
    waits for it :data:`WAIT_SLICE` seconds at a time, so that a stop signal is acted on
    at once. Dask's own waits for its event loop last 10 s, and a signal the kernel gives
    to another thread than the main one (any of Dask's threads) is acted on by the main
    thread only when its wait ends."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # raised in the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=run, name="irscale-dask", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(WAIT_SLICE)
    if "error" in outcome:
        raise outcome["error"]
    return cast(T, outcome["value"])


def _abandon(clients: list[Any], clusters: set[Any], processes: set[Any]) -> None:
    """Stop at once the local clusters made since ``clusters`` (those that existed before):
    their nannies told not to restart a worker, the worker processes started since
    ``processes`` killed, then the ``clients`` and the clusters closed within
    :data:`STOP_TIMEOUT` seconds each (whatever they fail on, cut short where it started),
    and Dask's exit handler told to leave them alone (it would wait 10 s for each and
    print a traceback): also those that a start cut short by the stop, still going on in
    its thread, makes later (an exit handler of ours, which runs before Dask's)."""
    import atexit
    import multiprocessing

    from distributed.deploy.spec import SpecCluster

    known = {id(cluster) for cluster in clusters}

    def leave_alone() -> list[Any]:
        made = [cluster for cluster in list(SpecCluster._instances) if id(cluster) not in known]
        for cluster in made:
            cluster.shutdown_on_close = False
        return made

    atexit.register(leave_alone)
    made = leave_alone()
    for cluster in made:
        for nanny in list(getattr(cluster, "workers", {}).values()):
            with suppress(Exception):
                nanny.close_gracefully()
    for process in set(multiprocessing.active_children()) - processes:
        with suppress(OSError, ValueError):
            process.kill()
    for client in clients:
        with suppress(Exception):
            client.close(timeout=STOP_TIMEOUT)
    for cluster in made:
        with suppress(Exception):
            cluster.close(timeout=STOP_TIMEOUT)


def _limited(func: Callable[..., T], *args: object) -> T:
    """``func(*args)`` with single-threaded BLAS (a task on a Dask worker)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        return func(*args)


def run_tasks(
    func: Callable[..., T],
    tasks: Sequence[tuple[Any, ...]],
    on_result: Callable[[int, T], None],
    *,
    shared: tuple[Any, ...] = (),
    executor: ExecutorArg = "local",
    workers: int | None = None,
    done: Callable[[int], None] | None = None,
    ordered: bool = True,
) -> None:
    """Run ``func(*shared, *task)`` for every task; ``on_result(index, result)`` is called
    in this thread in task order (``ordered=False``: as each task completes, for callers
    that keep results by index, such as checkpoints), ``done(index)`` as each task
    completes (any order).

    ``executor``: see the module documentation; ``workers``: threads of the local
    executor (``None``: one per CPU core; refused with a Dask executor, whose workers are
    the cluster's). A failing task cancels the tasks not yet run and its error is raised.
    """
    executor = check_workers(workers, executor)
    if is_local(executor):
        count = (os.cpu_count() or 1) if workers is None else int(workers)
        _run_threads(func, tasks, on_result, shared, count, done)
        return
    with executor_scope(executor) as client:
        _run_dask(client, func, tasks, on_result, shared, done, ordered)


def map_tasks(
    func: Callable[..., T],
    tasks: Sequence[tuple[Any, ...]],
    *,
    shared: tuple[Any, ...] = (),
    executor: ExecutorArg = "local",
    workers: int | None = None,
    done: Callable[[int], None] | None = None,
) -> list[T]:
    """The results of :func:`run_tasks`, in task order."""
    results: list[T] = []
    run_tasks(func, tasks, lambda _, result: results.append(result), shared=shared,
              executor=executor, workers=workers, done=done)
    return results


def _run_threads(func: Callable[..., T], tasks: Sequence[tuple[Any, ...]],
                 on_result: Callable[[int, T], None], shared: tuple[Any, ...], workers: int,
                 done: Callable[[int], None] | None) -> None:
    if workers == 1 or len(tasks) <= 1:
        for index, task in enumerate(tasks):
            result = func(*shared, *task)
            if done is not None:
                done(index)
            on_result(index, result)
        return
    # At most 2 * workers tasks are submitted ahead of the one awaited, and a result is
    # dropped once handed over: memory holds a window of results, not every task's (a
    # slow first task does not let the others pile up their results behind it).
    pool = ThreadPoolExecutor(max_workers=workers)
    window = 2 * workers
    stop = threading.Event()
    task_of = partial(_stoppable_task, stop, func)
    try:
        futures = deque(pool.submit(task_of, *shared, *task) for task in tasks[:window])
        for index in range(len(tasks)):
            result = futures.popleft().result()
            if index + window < len(tasks):
                futures.append(pool.submit(task_of, *shared, *tasks[index + window]))
            if done is not None:
                done(index)
            on_result(index, result)
            del result
    except BaseException:
        # ^C or a failed task: drop the queued tasks instead of computing them all, and
        # stop the running ones at their next check (irscale.core.progress.check_stop)
        stop.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _stoppable_task(stop: threading.Event, func: Callable[..., T], *args: Any) -> T:
    """``func(*args)``, stopped at its next :func:`~irscale.core.progress.check_stop` once
    ``stop`` is set."""
    from ..core.progress import stoppable  # (numpy is loaded by then)

    with stoppable(stop):
        return func(*args)


def _scatter(client: Any, shared: tuple[Any, ...]) -> list[Any]:
    """``shared`` broadcast to ``client``'s workers. A connection closed while the data is
    sent (a worker dying then, before its nanny restarts it) makes the scatter start again,
    after a pause, up to :data:`RESUBMISSIONS` times; then :class:`SchedulerError`."""
    failure: OSError | None = None
    for attempt in range(RESUBMISSIONS + 1):
        if attempt:
            time.sleep(0.25 * attempt)
        try:
            return client.scatter(list(shared), broadcast=True, hash=False)
        except OSError as error:  # distributed's CommClosedError is one
            failure = error
    raise SchedulerError(f"the data the tasks share could not be sent to the workers "
                         f"{RESUBMISSIONS + 1} times ({failure}): the computation was "
                         "stopped") from failure


def _run_dask(client: Any, func: Callable[..., T], tasks: Sequence[tuple[Any, ...]],
              on_result: Callable[[int, T], None], shared: tuple[Any, ...],
              done: Callable[[int], None] | None, ordered: bool) -> None:
    """The tasks on ``client``'s cluster. A task whose input was lost (the shared data
    died with the last worker holding it) is submitted again with the data scattered
    anew, up to :data:`RESUBMISSIONS` times; a task's own error is raised."""
    distributed = _distributed()
    name = getattr(func, "__name__", "task")
    waiting: dict[int, T] = {}
    following = 0
    pending = list(range(len(tasks)))
    for _ in range(RESUBMISSIONS + 1):
        scattered = _scatter(client, shared) if shared else []
        run = uuid.uuid4().hex[:12]
        futures: dict[int, Any] = {
            index: client.submit(_limited, func, *scattered, *tasks[index], pure=False,
                                 key=f"irscale-{name}-{run}-{index}")
            for index in pending}
        index_of = {future.key: index for index, future in futures.items()}
        lost: list[int] = []
        try:
            for future, result in distributed.as_completed(
                    list(futures.values()), loop=client.loop, with_results=True,
                    raise_errors=False):
                index = index_of[future.key]
                del futures[index]  # the result is here: the cluster may drop its copy
                if future.status == "error":
                    future.result()  # raises the task's own error
                if future.status != "finished":  # cancelled: an input was lost
                    lost.append(index)
                    continue
                if done is not None:
                    done(index)
                if not ordered:
                    on_result(index, result)
                    continue
                waiting[index] = result
                while following in waiting:
                    on_result(following, waiting.pop(following))
                    following += 1
        except BaseException:
            client.cancel(list(futures.values()))
            raise
        finally:
            del scattered
        if not lost:
            return
        pending = sorted(lost)
    raise SchedulerError(f"{len(pending)} task(s) lost their input data {RESUBMISSIONS + 1} "
                         "times (workers dying while the data was being sent?): the "
                         "computation was stopped")

"""Memory limits: estimate before the work, refuse what cannot fit (one mechanism).

Every computation whose memory grows faster than its input, or with an option (the run
length of an interval scale, resampling counts whose samples are kept, impressions × list
length, simulated sessions, topics × systems of a simulation), estimates its peak memory
from its sizes **before any work** and hands the estimate to :func:`check_memory`, which
raises :class:`~irscale.errors.ParameterError` when it exceeds the limit: one line that
states what was asked, the estimate, the limit and what to change, instead of an
out-of-memory kill after minutes of work (docs/errors.md, "Work bounded by the input").
The options that scale work say so where they are declared (:class:`irscale.core.params.
Cost`); work whose time grows, not its memory, states the time of its rest instead
(:func:`irscale.core.progress.progress_callback`).

The limit is ``max_memory`` (bytes or a size such as ``2G``; ``--max-memory`` of the
``irscale scale`` commands) and by default half of the machine's physical memory, or of
the process's own limit where one is lower (an address-space limit, ``ulimit -v``, as a
batch scheduler sets; the memory limit of its cgroup: :func:`default_max_memory`). The
readers hold the text and columns of the files of a call within it too (``docs/errors.md``
§1). Estimates are orders of magnitude (the arrays a step holds at once, counted in bytes),
not measurements.
"""

from __future__ import annotations

import os

from ..errors import ParameterError

__all__ = ["MAX_MEMORY", "check_memory", "default_max_memory", "format_size",
           "limit_name", "max_memory_of", "parse_size"]

#: How the memory limit is named where a command takes it.
MAX_MEMORY = "--max-memory/max_memory"

#: A size, ignoring case (a pattern compiled by :mod:`re` when first used, not by every
#: start-up).
_SIZE = r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([kmgtp]?)(i?b?)\s*$"


def format_size(n_bytes: float) -> str:
    """``1.5 GiB``."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if n_bytes < 1024 or unit == "EiB":
            return f"{n_bytes:.0f} {unit}" if unit == "bytes" else f"{n_bytes:.3g} {unit}"
        n_bytes /= 1024
    raise AssertionError("unreachable")


def parse_size(text: str | int | float, option: str = MAX_MEMORY) -> int:
    """Bytes of ``2G``, ``500M``, ``1.5GiB``, ``64k``, ``1000000`` (powers of 1024);
    :class:`ParameterError` naming ``option`` otherwise (also for 0 or less)."""
    if isinstance(text, bool):
        raise ParameterError(f"{option} takes a size such as 2G or 500M, got {text!r}")
    if isinstance(text, int | float):
        import math  # (a shared library: the limit of the readers needs none)

        value = float(text)
        if not (math.isfinite(value) and value >= 1):
            raise ParameterError(f"{option} must be a positive size, got {text!r}")
        return int(value)
    import re

    match = re.match(_SIZE, str(text), re.IGNORECASE)
    if not match:
        raise ParameterError(f"{option} takes a size such as 2G, 500M or 1.5GiB (powers of "
                             f"1024), got {text!r}")
    number, unit = float(match[1]), match[2].lower()
    value = number * 1024 ** " kmgtp".index(unit or " ")
    if value < 1:
        raise ParameterError(f"{option} must be a positive size, got {text!r}")
    return int(value)


def _default_limit() -> tuple[int, str]:
    """The default memory limit and what it is half of: the machine's physical memory (8
    GiB when it cannot be read), or the process's address-space limit (``ulimit -v``) or
    its cgroup's memory limit (cgroup v2 ``memory.max``) where lower."""
    try:
        limits = [(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"),
                   "this machine's memory")]
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        limits = [(16 << 30, "this machine's memory")]
    address = _address_limit()
    if address is not None:
        limits.append((address, "the address space ulimit -v allows"))
    cgroup = _cgroup_limit()
    if cgroup is not None:
        limits.append((cgroup, "the memory limit of its cgroup"))
    size, what = min(limits)
    return size // 2, what


def _address_limit() -> int | None:
    """This process's address-space limit (``ulimit -v``, the soft ``RLIMIT_AS``) in bytes,
    or ``None`` where there is none: Linux's ``/proc/self/limits`` where it can be read
    (its ``Max address space`` line), since :mod:`resource` is a shared library whose
    loading costs more instructions than reading a small run; :mod:`resource` otherwise."""
    try:
        with open("/proc/self/limits", "rb") as stream:
            line = next((line for line in stream if line.startswith(b"Max address space ")),
                        None)
        if line is not None:
            soft = line.split()[3]
            return None if soft == b"unlimited" else int(soft)
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        address = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):  # pragma: no cover - non-POSIX
        return None
    return None if address == resource.RLIM_INFINITY else address


def _cgroup_limit() -> int | None:
    """The ``memory.max`` of this process's cgroup (v2), or ``None``."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as stream:
            path = next((line[3:].strip() for line in stream if line.startswith("0::")), None)
        if path is None:
            return None
        with open(f"/sys/fs/cgroup{path}/memory.max", encoding="utf-8") as stream:
            text = stream.read().strip()
        return int(text) if text.isdigit() else None
    except (OSError, ValueError):
        return None


def default_max_memory() -> int:
    """Half of the machine's physical memory, or of this process's own limit where one is
    lower (module documentation; 8 GiB when none can be read)."""
    return _default_limit()[0]


def limit_name(max_memory: str | int | float | None = None,
               option: str | None = None) -> str:
    """The memory limit as a message names it: ``--max-memory/max_memory = 2 GiB`` (the
    caller's ``option`` given), ``the memory limit of 2 GiB``, or the default's ``the memory
    limit (half of this machine's memory, 11.8 GiB)``."""
    size = format_size(max_memory_of(max_memory))
    if option is not None:
        return f"{option} = {size}"
    if max_memory is not None:
        return f"the memory limit of {size}"
    return f"the memory limit (half of {_default_limit()[1]}, {size})"


def max_memory_of(value: str | int | float | None) -> int:
    """The memory limit in bytes: ``None`` is the default (half of the RAM)."""
    return default_max_memory() if value is None else parse_size(value)


def check_memory(need: float, what: str, change: str, *,
                 max_memory: str | int | float | None = None,
                 option: str | None = None) -> int:
    """Refuse work estimated at ``need`` bytes beyond the memory limit; return the limit.

    Parameters
    ----------
    need : float
        The estimated peak memory in bytes (may be a float: products of huge counts).
    what : str
        What was asked, stating the estimate, e.g. ``"--impressions 10^8 × --length 10 on
        6 topics: lists of about 45 GiB"``.
    change : str
        What to change, e.g. ``"fewer --impressions or a shorter --length"``.
    max_memory : size, optional
        The limit (bytes or a size such as ``"2G"``); default half of the RAM.
    option : str, optional
        How the caller's limit option is named (:data:`MAX_MEMORY`); ``None``: the caller
        takes none, the message names the default limit.

    Raises
    ------
    ParameterError
        ``"{what}: more than {limit} ({change})"``.
    """
    limit = max_memory_of(max_memory)
    if need > limit:
        raise ParameterError(f"{what}: more than {limit_name(max_memory, option)} "
                             f"({change})")
    return limit

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
``irscale scale`` commands) and by default half of the machine's physical memory
(:func:`default_max_memory`). Estimates are orders of magnitude (the arrays a step holds
at once, counted in bytes), not measurements.
"""

from __future__ import annotations

import math
import os
import re

from ..errors import ParameterError

__all__ = ["MAX_MEMORY", "check_memory", "default_max_memory", "format_size",
           "max_memory_of", "parse_size"]

#: How the memory limit is named where a command takes it.
MAX_MEMORY = "--max-memory/max_memory"

_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([kmgtp]?)(i?b?)\s*$", re.IGNORECASE)


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
        value = float(text)
        if not (math.isfinite(value) and value >= 1):
            raise ParameterError(f"{option} must be a positive size, got {text!r}")
        return int(value)
    match = _SIZE.match(str(text))
    if not match:
        raise ParameterError(f"{option} takes a size such as 2G, 500M or 1.5GiB (powers of "
                             f"1024), got {text!r}")
    number, unit = float(match[1]), match[2].lower()
    value = number * 1024 ** " kmgtp".index(unit or " ")
    if value < 1:
        raise ParameterError(f"{option} must be a positive size, got {text!r}")
    return int(value)


def default_max_memory() -> int:
    """Half of the machine's physical memory (8 GiB when it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 8 << 30


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
        size = format_size(limit)
        named = (f"{option} = {size}" if option is not None else
                 f"the memory limit of {size}" if max_memory is not None else
                 f"the memory limit (half of this machine's memory, {size})")
        raise ParameterError(f"{what}: more than {named} ({change})")
    return limit

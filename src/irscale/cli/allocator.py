"""Memory settings for the ``irscale`` process, made when ``IRSCALE_TUNE_MEMORY=1`` is set:
glibc's ``malloc`` and transparent huge pages.

numpy takes its arrays from ``malloc``, which maps fresh pages for every large request and
unmaps them when the array is freed: an ``irscale eval`` of a few million lines allocates
and frees arrays of 8-16 MB dozens of times, and the kernel zeroes fresh pages for each.
:func:`keep_freed_memory` raises glibc's map threshold to its largest, stops trimming the
heap and gives every thread the one heap, so that freed memory is reused (within any
thread); :func:`no_huge_pages` turns transparent huge pages off, which a virtual machine
whose host takes free memory back (free page reporting) serves slowly. Both made a 1-2M-line
evaluation 11-26 % faster on the 2-core virtual machines measured, and neither changes any
output; they are opt-in because they set up the whole process for one workload (see
``docs/benchmarks.md``, *The command line's memory settings, opt-in*).

Only the command line's own process is tuned (:func:`irscale.cli.main.main` as the entry
point): a program that calls irscale's functions keeps its allocator as it set it up. There,
``GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=2147483647:glibc.malloc.arena_max=1``
in the environment before Python starts does the same for ``malloc``, and
``MIMALLOC_ALLOW_THP=0`` for Arrow's allocator. The settings hold for the processes the
command starts (``prctl``'s setting is inherited).
"""

from __future__ import annotations

from collections.abc import Callable

#: ``mallopt`` parameters (glibc's ``malloc.h``).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
#: The largest map threshold glibc accepts on 64-bit systems (``HEAP_MAX_SIZE / 2``).
MMAP_THRESHOLD = 32 << 20
#: Free memory at the top of the heap kept up to this (the largest ``int``).
TRIM_THRESHOLD = (1 << 31) - 1
#: ``prctl`` option (Linux's ``linux/prctl.h``, since 3.15).
_PR_SET_THP_DISABLE = 41


def tune_memory() -> None:
    """The command line process's settings: :func:`keep_freed_memory` and
    :func:`no_huge_pages` (each does nothing where the system has no such setting)."""
    keep_freed_memory()
    no_huge_pages()


def keep_freed_memory() -> bool:
    """Raise glibc's map threshold to its largest, stop trimming the heap and give every
    thread the one heap (see the module documentation); ``True`` when ``malloc`` accepted
    all three, ``False`` on a system whose C library has no ``mallopt`` (macOS, musl) or
    refused one."""
    import ctypes

    mallopt = _c_function("mallopt", ctypes.c_int, ctypes.c_int)
    if mallopt is None:
        return False
    # both or neither: either one alone turns glibc's adjustment of the other off, and each
    # without the other was slower than glibc's defaults (case (iv): 1.1-1.4 s). A refused
    # map threshold (a 32-bit system's limit is lower) changes nothing; the trim threshold
    # is always accepted.
    if mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) != 1:
        return False
    # one heap for every thread: what a thread frees, the others reuse (with a heap per
    # thread, never trimmed, each kept what it had freed)
    return mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1 and mallopt(_M_ARENA_MAX, 1) == 1


def no_huge_pages() -> bool:
    """Turn transparent huge pages off for this process and those it starts (Linux's
    ``prctl(PR_SET_THP_DISABLE)``; see the module documentation), also where a library
    asked for them with ``madvise``. ``True`` when set, ``False`` on a system without
    ``prctl`` (macOS, a C library without it) or a kernel that refused it."""
    import ctypes

    prctl = _c_function("prctl", ctypes.c_int, *[ctypes.c_ulong] * 4)
    return prctl is not None and prctl(_PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0


def _c_function(name: str, *argtypes: type) -> Callable[..., int] | None:
    """The C library's function ``name`` returning an ``int`` (ctypes), or ``None`` where
    there is no C library to load or no such function in it."""
    import ctypes

    try:
        function = getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None
    function.argtypes = list(argtypes)
    function.restype = ctypes.c_int
    return function

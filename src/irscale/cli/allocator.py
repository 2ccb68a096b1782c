"""Memory settings of the ``irscale`` process when ``IRSCALE_TUNE_MEMORY=1`` asks for them:
glibc's ``malloc`` and transparent huge pages (``docs/benchmarks.md``, *The command line's
memory settings, opt-in*).

numpy takes large arrays from fresh pages that the kernel zeroes and unmaps when freed; an
``irscale eval`` of millions of lines does so dozens of times. :func:`keep_freed_memory`
keeps freed memory for reuse, :func:`no_huge_pages` turns transparent huge pages off (slow
on virtual machines whose host takes free memory back): together 11-26 % faster on the
2-core machines measured, the same output. A program calling irscale's functions keeps its
own allocator:
``GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=2147483647:glibc.malloc.arena_max=1``
and ``MIMALLOC_ALLOW_THP=0`` before Python starts do the same. Processes the command starts
inherit the settings.
"""

from __future__ import annotations

from collections.abc import Callable

#: ``mallopt`` parameters (glibc's ``malloc.h``) and ``prctl``'s (``linux/prctl.h``).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8
_PR_SET_THP_DISABLE = 41
#: The largest map threshold glibc takes on 64-bit systems (``HEAP_MAX_SIZE / 2``), and the
#: free memory kept at the top of the heap (the largest ``int``).
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = (1 << 31) - 1


def tune_memory() -> None:
    """:func:`keep_freed_memory` and :func:`no_huge_pages` (each where the system can)."""
    keep_freed_memory()
    no_huge_pages()


def keep_freed_memory() -> bool:
    """Raise glibc's map threshold to its largest, stop trimming the heap, one heap for
    every thread (what one frees, the others reuse); ``True`` when ``malloc`` took all
    three, ``False`` without ``mallopt`` (macOS, musl) or where refused."""
    import ctypes

    mallopt = _c_function("mallopt", ctypes.c_int, ctypes.c_int)
    # both thresholds or neither: one alone turns glibc's adjustment of the other off, and
    # was slower than the defaults; a refused map threshold (32-bit) changes nothing
    if mallopt is None or mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) != 1:
        return False
    return mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1 and mallopt(_M_ARENA_MAX, 1) == 1


def no_huge_pages() -> bool:
    """Transparent huge pages off for this process and its children (Linux's
    ``prctl(PR_SET_THP_DISABLE)``, also over ``madvise``); ``False`` where not set."""
    import ctypes

    prctl = _c_function("prctl", ctypes.c_int, *[ctypes.c_ulong] * 4)
    return prctl is not None and prctl(_PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0


def _c_function(name: str, *argtypes: type) -> Callable[..., int] | None:
    """The C library's function ``name`` returning an ``int``, or ``None`` where absent."""
    import ctypes

    try:
        function = getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None
    function.argtypes = list(argtypes)
    function.restype = ctypes.c_int
    return function

"""The ``irscale`` process's memory settings: glibc's ``malloc`` and transparent huge pages.

numpy takes the memory of its arrays from ``malloc``. glibc maps fresh pages for every
request above a threshold (128 KiB, raised after frees, at most 32 MiB) and unmaps them when
the array is freed, and it hands the free memory at the top of its heap back to the system
past a second threshold. An ``irscale eval`` of a few million lines allocates and frees
arrays of 8-16 MB dozens of times: each time, the kernel provides zeroed pages again (page
faults, system time), and on some machines slowly. With the first threshold at its largest
and the heap never trimmed, freed memory is reused instead. Measured (2026-11-25, 2-core
VM, medians of 6-8 alternating processes, outputs identical): case (iv) of the benchmark,
2M run and 2M qrels lines, 1.12-1.15 -> 0.85-0.86 s; URLs as docnos 0.57 -> 0.42 s; an
MS MARCO-like run of 2M lines 0.45 -> 0.40 s; the 10M-line cases within noise; peaks within
+0-6 % (arrays above 32 MiB are still mapped and unmapped). Every thread allocates from the
one heap (glibc gives threads heaps of their own, and one never trimmed keeps what its
thread freed, for no other thread to reuse): with the lookups and kernels shared out
between 2 cores, peaks 436 -> 468 MB on (iv) and 663 -> 707 MB on a million one-document
topics with a heap per thread, 427 and 663 MB with one, times equal or lower.

Transparent huge pages are turned off (:func:`no_huge_pages`). Arrow's allocator (mimalloc)
asks for them on the 1 GiB it reserves, numpy on its larger arrays. A huge page is 2 MiB of
contiguous free memory, zeroed whole when first touched; a virtual machine whose host takes
back the guest's free memory (free page reporting, as on Firecracker) serves such blocks
from memory the host must fault in again, page by page. There, an ``irscale eval`` that
followed processes using less memory spent most of its time in the kernel. Measured
(2026-11-25, 2-core Firecracker VM, medians of 4-6 alternating processes against the tree
before, outputs identical), each ``irscale eval`` after a pytrec_eval and a trec_eval of
the same files, as in the benchmark: case (iv) 1.47 -> 1.15 s (system time 0.98 -> 0.34 s),
URLs as docnos 0.67 -> 0.49 s, ClueWeb docnos 0.53 -> 0.38 s, 5 deep topics 0.50 -> 0.43 s;
after three idle seconds (iv) 1.30 -> 0.98 s. Back to back, where the memory just freed is at
hand, 4 KiB pages cost more faults: (iv) 0.95 -> 1.01 s, URLs 0.41 -> 0.47 s, (ii) 1.09 ->
1.03 s. Peaks are 14-48 MB lower (no 2 MiB rounding).

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

"""The ``irscale`` process's settings of C's memory allocator (glibc's ``malloc``).

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
+0-6 % (arrays above 32 MiB are still mapped and unmapped).

Only the command line's own process is tuned (:func:`irscale.cli.main.main` as the entry
point): a program that calls irscale's functions keeps its allocator as it set it up. There,
``GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=2147483647``
in the environment before Python starts does the same.
"""

from __future__ import annotations

#: ``mallopt`` parameters (glibc's ``malloc.h``).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: The largest map threshold glibc accepts on 64-bit systems (``HEAP_MAX_SIZE / 2``).
MMAP_THRESHOLD = 32 << 20
#: Free memory at the top of the heap kept up to this (the largest ``int``).
TRIM_THRESHOLD = (1 << 31) - 1


def keep_freed_memory() -> bool:
    """Raise glibc's map threshold to its largest and stop trimming the heap (see the module
    documentation); ``True`` when ``malloc`` accepted both, ``False`` on a system whose C
    library has no ``mallopt`` (macOS, musl) or refused them."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # no C library to load, or no mallopt in it
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # both or neither: either one alone turns glibc's adjustment of the other off, and each
    # without the other was slower than glibc's defaults (case (iv): 1.1-1.4 s). A refused
    # map threshold (a 32-bit system's limit is lower) changes nothing; the trim threshold
    # is always accepted.
    if mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) != 1:
        return False
    return mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1

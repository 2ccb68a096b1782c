"""64-bit fingerprints of strings, computed 8 bytes at a time with numpy.

Docnos are compared, de-duplicated and looked up by their fingerprints
(:func:`string_fingerprints`) instead of being hashed into dictionaries one by one; equal
fingerprints are only candidates for equal strings, which callers confirm on the strings.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ...parallel.threads import map_threads
from ..strings import Strings

_LOW_BYTES = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
#: Strings hashed at once: a block's words and hashes (512 KiB each) stay in the cache.
_BLOCK = 1 << 16
#: Strings longer than this (bytes) are hashed one by one (:func:`_long_fingerprint`), so
#: that the cost stays linear in the bytes whatever the longest docno.
LONG_STRING = 4096


def _mix64(h: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser (a bijection of uint64 with good avalanche), in place."""
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return h


def string_fingerprints(values: object) -> np.ndarray:
    """A 64-bit hash (uint64) of every string, computed 8 bytes at a time with numpy.

    Equal strings get equal fingerprints; different strings almost always get different
    ones, but callers must treat equal fingerprints only as candidates for equality.
    Cost: one vectorised pass per 8 bytes of the longest string of up to
    :data:`LONG_STRING` bytes, and a digest of each longer one, so linear in the bytes
    whatever the longest docno; pieces of :data:`_PIECE` strings are shared out between
    the usable cores (:func:`~irscale.parallel.threads.map_threads`; 10M docnos of a
    parsed run on 2 cores: 0.071 -> 0.04 s). ``values``: a :class:`Strings` or anything
    :meth:`Strings.of` takes.
    """
    values = Strings.of(values)
    out = np.empty(len(values), dtype=np.uint64)

    def fill(first: int) -> None:
        with np.errstate(over="ignore"):  # (numpy's error state is per thread)
            _piece_fingerprints(values[first: first + _PIECE], out[first: first + _PIECE])

    map_threads(fill, range(0, len(values), _PIECE))
    return out


#: Strings whose fingerprints one thread computes (:func:`string_fingerprints`).
_PIECE = 1 << 20


def _piece_fingerprints(strings: Strings, h: np.ndarray) -> None:
    """:func:`string_fingerprints` of some strings, written into ``h``, :data:`_BLOCK`
    strings at a time: a block's characters are copied (with the padding that keeps 8-byte
    reads inside) and its words and hashes stay in the cache. Copying the characters of a
    whole chunk at once made each chunk's copy, offsets and lengths (about 30 MB per 700,000
    docnos) fresh memory: 5M qrels docnos took 53 ms warm (22 ms so), and the process's
    resident memory grew by 90 MB over the loop."""
    for first in range(0, len(strings), _BLOCK):
        _block_fingerprints(strings[first: first + _BLOCK], h[first: first + _BLOCK])


def _padded(strings: Strings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(chars, starts, lengths)``: the strings' bytes followed by 8 zero bytes (an 8-byte
    read from any string's start stays inside), and every string's start in them and
    length (int64)."""
    offsets = strings.offsets
    low, high = int(offsets[0]), int(offsets[-1])
    chars = np.zeros(high - low + 8, dtype=np.uint8)
    chars[:-8] = strings.data[low:high]
    return chars, offsets[:-1] - low, np.diff(offsets)


def _block_fingerprints(strings: Strings, h: np.ndarray) -> None:
    """The fingerprints of a few strings, written into ``h``.

    The hash of a string of length ``L`` starts from ``L * golden`` and mixes in its bytes
    8 at a time (little-endian words, the last one zero-padded), so that it depends on the
    string only. When all strings have the same length (fixed-width docnos), word ``k`` of
    every string lies at a fixed stride in the data and is read without gathering.
    """
    padded, starts, lengths = _padded(strings)  # 8-byte reads stay inside
    size = len(padded) - 8
    longest = int(lengths.max())
    if longest > LONG_STRING:
        _mixed_fingerprints(padded, starts, lengths, h)
        return
    if longest * len(strings) == size:  # every string has the longest length
        h[:] = np.uint64(longest) * _GOLDEN
        for shift in range(0, longest, 8):
            word = np.ndarray(shape=(len(h),), dtype="<u8", buffer=padded, offset=shift,
                              strides=(longest,))
            h += word & _LOW_BYTES[longest - shift] if longest - shift < 8 else word
            _mix64(h)
        return
    _word_fingerprints(padded, starts, lengths, h)


def _mixed_fingerprints(padded: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                        h: np.ndarray) -> None:
    """:func:`_block_fingerprints` of a block holding strings longer than
    :data:`LONG_STRING` bytes: those get :func:`_long_fingerprint`, the others
    :func:`_word_fingerprints`."""
    long = lengths > LONG_STRING
    for i in np.flatnonzero(long):  # each at least LONG_STRING bytes: linear in the bytes
        h[i] = _long_fingerprint(padded[starts[i]: starts[i] + lengths[i]])
    short = ~long
    if short.any():
        part = np.empty(int(np.count_nonzero(short)), dtype=np.uint64)
        _word_fingerprints(padded, starts[short], lengths[short], part)
        h[short] = part


def _long_fingerprint(data: np.ndarray) -> int:
    """The fingerprint of one string of more than :data:`LONG_STRING` bytes: the 64-bit
    BLAKE2b digest of its bytes (RFC 7693; C speed, linear in the bytes). The word loop
    makes one numpy pass per 8 bytes of the block's longest string, so that a single docno
    of 5M characters took 625,000 passes (11 s per block); its digest takes 12 ms."""
    return int.from_bytes(hashlib.blake2b(data.data, digest_size=8).digest(), "little")


def _word_fingerprints(padded: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                       h: np.ndarray) -> None:
    """The fingerprints of the strings at ``starts`` of ``lengths`` bytes in ``padded``
    (followed by 8 zero bytes), 8 bytes at a time (:func:`_block_fingerprints`)."""
    size = len(padded) - 8
    longest = int(lengths.max())
    # every (unaligned) 8-byte little-endian word of the data, by starting byte
    words = np.ndarray(shape=(size + 1,), dtype="<u8", buffer=padded, strides=(1,))
    shortest = int(lengths.min())
    if (longest + 7) // 8 - (shortest + 7) // 8 > 1:
        _longest_first_fingerprints(words, starts, lengths, longest, h)
        return
    np.multiply(lengths.view(np.uint64), _GOLDEN, out=h)
    for shift in range(0, longest, 8):
        at = starts + shift
        ended = shift >= shortest  # some strings have no bytes left
        if ended:
            np.minimum(at, size, out=at)  # (their words are read but not used)
        word = words[at]
        if shift + 8 > shortest:  # some strings end within this word
            word &= _LOW_BYTES[np.clip(lengths - shift, 0, 8)]
        if ended:  # a string's hash must not depend on its neighbours: mixed for all,
            # kept for those with bytes left (2M docnos of 4-10 bytes: 30 -> 28 ms, where
            # gathering and scattering those took longer than mixing every one)
            word += h
            np.copyto(h, _mix64(word), where=lengths > shift)
        else:
            h += word
            _mix64(h)


def _longest_first_fingerprints(words: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                                longest: int, h: np.ndarray) -> None:
    """:func:`_block_fingerprints` of strings whose numbers of words differ by two or more
    (URLs, docnos of many lengths): the strings are hashed longest first, so that those with
    a word left at each step are a prefix of them, mixed without masks or scatters. 1M
    docnos of 5-62 bytes: 82 ms with masks, 40 ms so. Where the numbers differ by one
    (``FBIS3-10082`` beside ``FR940104-0-00001``), one masked step is cheaper than the sort
    and the final scatter (22 against 27 ms). At each word only the strings ending within it
    are masked (they follow those with a whole word there): 1M URLs of 30-79 bytes, 80
    against 75 ms. ``longest``: the longest length."""
    order = np.argsort((longest - lengths).astype(_narrowest(longest)), kind="stable")
    starts, lengths = starts[order], lengths[order]
    hashes = np.multiply(lengths.view(np.uint64), _GOLDEN)
    descending = -lengths
    for shift in range(0, longest, 8):
        remaining = int(np.searchsorted(descending, -shift))  # strings longer than shift
        # strings of shift + 8 bytes or more come first: only those after them end in
        # this word and are masked
        full = int(np.searchsorted(descending, -(shift + 8), "right"))
        word = words[starts[:remaining] + shift]
        if full < remaining:
            word[full:] &= _LOW_BYTES[lengths[full:remaining] - shift]
        mixed = hashes[:remaining]
        mixed += word
        _mix64(mixed)
    h[order] = hashes


def _narrowest(largest: int) -> type:
    """The narrowest unsigned integer type holding ``largest`` (at most
    :data:`LONG_STRING`): numpy sorts 8- and 16-bit keys by radix (a few passes over
    them)."""
    return np.uint8 if largest < 1 << 8 else np.uint16

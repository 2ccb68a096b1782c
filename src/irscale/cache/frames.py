"""The frame of every cache entry, and the entries that hold text: checked when read,
without numpy.

Layout (all integers little-endian)::

    MAGIC (16 bytes: b"irscale-cache" + format version)
    checksum (32 bytes: BLAKE2b-256 of everything after it)
    length of the header (8 bytes) · header (packed: :func:`irscale.io.regular_files.pack`) · data

The header holds at least the entry's key, irscale's version, its kind (``"text"`` or
``"evaluation"``) and the warnings its evaluation emitted (category and message).
:func:`unframe` raises :class:`BadEntry` for any entry that is not exactly what
:func:`frame` wrote for that key, version and kind (another format, a truncated or altered
file, another key): the caller evaluates again. Nothing is unpickled: an entry holds data
only. An entry is read without :mod:`json`, :mod:`re`, :mod:`struct` or OpenSSL's
:mod:`hashlib` (the header packed, the checksum BLAKE2b's, the interpreter's own module):
a hit reads its key and its entry, nothing else. Format 2, a JSON header under a SHA-256
checksum, loaded them: some 40 million instructions of the 104 million of a hit run by
``python -m irscale.cli.main``.

A text entry (:func:`encode_text`) holds the bytes that ``irscale eval`` printed, as the
engine wrote them (:func:`irscale.evaluation.trec_text.trec_eval_text`): a hit prints them
back without loading numpy.
"""

from __future__ import annotations

from ..errors import InputFormatError
from ..io.regular_files import pack, unpack

try:  # hashlib's own BLAKE2b (importing hashlib loads OpenSSL's _hashlib as well)
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - an interpreter without it
    from hashlib import blake2b as _blake2b

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover  (typing: not for a cache hit)
    from typing import Any

#: The first bytes of every entry: the format and its version.
MAGIC = b"irscale-cache\x00\x00\x03"
#: Bytes of the checksum (and of a digest: :func:`digest`).
_CHECKSUM = 32
#: Bytes of the header's length.
_LENGTH = 8


def digest(data: bytes | memoryview = b"") -> Any:
    """A BLAKE2b hash object of 32 bytes fed ``data``: the checksum of an entry, the key of
    the command line's reply (:func:`irscale.cache.requests.request_key`)."""
    return _blake2b(data, digest_size=_CHECKSUM)


class BadEntry(Exception):
    """An entry that cannot be trusted (its reason is the message)."""


#: A warning as stored: the category ``module:qualname`` and the message.
Warned = tuple[str, str]


def warning_name(category: type[Warning]) -> str:
    return f"{category.__module__}:{category.__qualname__}"


def warning_category(name: str) -> type[Warning]:
    """The category a stored warning names: a built-in one or irscale's
    (:class:`BadEntry` otherwise: an entry never makes irscale import a module)."""
    module, _, qualname = name.partition(":")
    if module != "builtins" and module != "irscale" and not module.startswith("irscale."):
        raise BadEntry(f"warning category {name!r}")
    try:
        import importlib  # (a stored warning only)

        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        raise BadEntry(f"warning category {name!r}") from None
    if not (isinstance(found, type) and issubclass(found, Warning)):
        raise BadEntry(f"warning category {name!r}")
    return found


def frame(key: str, version: str, kind: str, warned: list[Warned], header: dict[str, Any],
          parts: list[bytes]) -> bytes:
    """The bytes of an entry of ``kind`` under ``key``: ``header``'s items and the data
    ``parts`` (module documentation)."""
    whole = {"key": key, "version": version, "kind": kind,
             "warnings": [list(w) for w in warned], **header}
    try:
        text = pack(whole)
    except (ValueError, OverflowError) as error:  # a value a header cannot hold
        raise BadEntry(f"cannot be stored ({error})") from None
    body = b"".join([len(text).to_bytes(_LENGTH, "little"), text, *parts])
    return MAGIC + digest(body).digest() + body


def unframe(data: bytes, key: str, version: str, kind: str
            ) -> tuple[dict[str, Any], memoryview, list[Warned]]:
    """The header, data and warnings of an entry :func:`frame` wrote for ``key``,
    ``version`` and ``kind``; :class:`BadEntry` otherwise."""
    start = len(MAGIC) + _CHECKSUM
    if len(data) < start + _LENGTH or not data.startswith(MAGIC):
        raise BadEntry("not an entry of this format (or truncated)")
    body = memoryview(data)[start:]
    if digest(body).digest() != data[len(MAGIC):start]:
        raise BadEntry("checksum mismatch (truncated or altered)")
    length = int.from_bytes(body[:_LENGTH], "little")
    try:
        header = unpack(body[_LENGTH:_LENGTH + length], "its header")
        if header["key"] != key or header["version"] != version or header["kind"] != kind:
            raise BadEntry("written for another key, version or kind")
        warned = [(str(c), str(m)) for c, m in header["warnings"]]
    except InputFormatError as error:  # not a packed value, or beyond its bounds
        raise BadEntry(f"malformed header ({error.reason})") from None
    except (KeyError, TypeError, ValueError) as error:
        raise BadEntry(f"malformed header ({error})") from None
    return header, body[_LENGTH + length:], warned


#: The kind of the entries of :func:`encode_text`.
TEXT = "text"


def encode_text(key: str, version: str, text: bytes, warned: list[Warned]) -> bytes:
    """The bytes of the entry of the printed ``text`` under ``key``."""
    return frame(key, version, TEXT, warned, {}, [text])


def decode_text(data: bytes, key: str, version: str) -> tuple[bytes, list[Warned]]:
    """The text and warnings of an entry written by :func:`encode_text` for ``key`` and
    ``version``; :class:`BadEntry` otherwise."""
    _, text, warned = unframe(data, key, version, TEXT)
    return bytes(text), warned


__all__ = ["MAGIC", "TEXT", "BadEntry", "Warned", "decode_text", "digest", "encode_text",
           "frame", "unframe", "warning_category", "warning_name"]

"""The frame of every cache entry, and the entries that hold text: checked when read,
without numpy.

Layout (all integers little-endian)::

    MAGIC (16 bytes: b"irscale-cache" + format version)
    checksum (32 bytes: SHA-256 of everything after it)
    length of the header (8 bytes) · header (JSON, UTF-8) · data

The header holds at least the entry's key, irscale's version, its kind (``"text"`` or
``"evaluation"``) and the warnings its evaluation emitted (category and message).
:func:`unframe` raises :class:`BadEntry` for any entry that is not exactly what
:func:`frame` wrote for that key, version and kind (another format, a truncated or altered
file, another key): the caller evaluates again. Nothing is unpickled: an entry holds data
only.

A text entry (:func:`encode_text`) holds the bytes that ``irscale eval`` printed, as the
engine wrote them (:func:`irscale.evaluation.trec_text.trec_eval_text`): a hit prints them
back without loading numpy.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import struct

from ..errors import InputFormatError
from ..io.json_input import parse_json

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover  (typing: not for a cache hit)
    from typing import Any

#: The first bytes of every entry: the format and its version.
MAGIC = b"irscale-cache\x00\x00\x02"
_CHECKSUM = 32
_LENGTH = struct.Struct("<Q")


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
    text = json.dumps(whole, ensure_ascii=True, separators=(",", ":")).encode()
    body = b"".join([_LENGTH.pack(len(text)), text, *parts])
    return MAGIC + hashlib.sha256(body).digest() + body


def unframe(data: bytes, key: str, version: str, kind: str
            ) -> tuple[dict[str, Any], memoryview, list[Warned]]:
    """The header, data and warnings of an entry :func:`frame` wrote for ``key``,
    ``version`` and ``kind``; :class:`BadEntry` otherwise."""
    start = len(MAGIC) + _CHECKSUM
    if len(data) < start + _LENGTH.size or not data.startswith(MAGIC):
        raise BadEntry("not an entry of this format (or truncated)")
    body = memoryview(data)[start:]
    if hashlib.sha256(body).digest() != data[len(MAGIC):start]:
        raise BadEntry("checksum mismatch (truncated or altered)")
    (length,) = _LENGTH.unpack_from(body)
    try:
        header = parse_json(bytes(body[_LENGTH.size:_LENGTH.size + length]), "its header")
        if header["key"] != key or header["version"] != version or header["kind"] != kind:
            raise BadEntry("written for another key, version or kind")
        warned = [(str(c), str(m)) for c, m in header["warnings"]]
    except InputFormatError as error:  # not JSON, or beyond its bounds
        raise BadEntry(f"malformed header ({error.reason})") from None
    except (KeyError, TypeError, ValueError) as error:
        raise BadEntry(f"malformed header ({error})") from None
    return header, body[_LENGTH.size + length:], warned


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


__all__ = ["MAGIC", "TEXT", "BadEntry", "Warned", "decode_text", "encode_text", "frame",
           "unframe", "warning_category", "warning_name"]

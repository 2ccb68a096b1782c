"""Inputs read and checked now, built later: the check/build split of the readers.

A command that reads several files checks every one of them (the light pre-pass of its
reader: header, columns, cell syntax, shape, the values a set of keys or a comparison
finds) before it builds any (the numerical build, which may import pandas): so a
malformed second file is reported as soon as a malformed first one, before the heavy
packages are imported. A reader ``read_x(source)`` is ``check_x(source).build()``; the
pre-pass keeps what it read (the bytes of a FIFO or of standard input are read once) and
hands it to the build.

>>> pending = Pending("a.txt", lambda: 42)
>>> pending.source, pending.build()
('a.txt', 42)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Pending(Generic[T]):
    """An input whose text is checked (``source``: its name) and whose object ``build``
    makes from what the check kept."""

    def __init__(self, source: str, build: Callable[[], T]) -> None:
        self.source = source
        self._build = build

    def build(self) -> T:
        """The object of the input (:mod:`irscale.io.pending`)."""
        return self._build()

    def __repr__(self) -> str:
        return f"Pending({self.source!r})"


__all__ = ["Pending"]

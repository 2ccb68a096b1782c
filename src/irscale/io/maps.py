"""Key → value maps read from files (a session map ``session topic``, a contributors file
``run contributor``) that remember the file they were read from: an error about a key the
map lacks names that file, as an error about a line names it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class SourceMap(dict[str, str]):
    """A ``dict`` read from the file ``source`` (its display name)."""

    def __init__(self, pairs: Iterable[tuple[str, str]] | Mapping[str, str],
                 source: str) -> None:
        super().__init__(pairs)
        self.source = source


def source_of(mapping: object, default: str) -> str:
    """The file a map was read from (a :class:`SourceMap`), else ``default`` (how the
    caller names a map given in memory, e.g. ``"the session map (topics=)"``)."""
    return mapping.source if isinstance(mapping, SourceMap) else default


__all__ = ["SourceMap", "source_of"]

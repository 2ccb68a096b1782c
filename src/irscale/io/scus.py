"""Readers of pyramids of summary content units (SCUs) and of the SCUs peer summaries
express (``docs/text.md``, :mod:`irscale.text.pyramid`).

Formats (plain or gzip-compressed UTF-8, fields separated by one tab each, no field blank
or holding a blank; ``-`` reads standard input; blank lines are ignored; every error names
the file, the 1-based line and its text):

* **pyramid** ``topic<TAB>scu_id<TAB>contributors``: one SCU of a topic's pyramid. The
  third field is either the comma-separated ids of the reference (model) summaries
  expressing the SCU (its weight: how many they are; the topic's reference summaries are
  all the ids its lines name), or its weight as a whole number ≥ 0, or ``-``: an SCU no
  reference expresses (weight 0; found in peers only). A topic gives either lists or
  whole numbers (``-`` goes with both). A (topic, scu_id) given twice is an error, and so
  is a reference id given twice in one list.
* **peer SCUs** ``topic<TAB>peer<TAB>scu_id``: the summary of ``peer`` (a system or a
  person: the run) for ``topic`` expresses SCU ``scu_id`` of the topic's pyramid; ``-``
  for ``scu_id``: the summary expresses none (its only line). A (topic, peer, scu_id)
  given twice is an error.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from ..errors import EmptyInputError, InputFormatError
from ._text import LineRecords, PathLike
from .text import _Keys, _lines

PYRAMID_FIELDS = ("topic", "scu_id", "contributors|weight|-")
PEER_FIELDS = ("topic", "peer", "scu_id|-")
#: The third field of an SCU no reference expresses, or of a peer expressing no SCU.
NONE = "-"


@dataclass(frozen=True, eq=False)
class Pyramid(LineRecords):
    """SCUs ``topic scu_id`` with their weights, in file order. ``models``: per topic, the
    number of reference summaries (the distinct ids of its contributor lists), or
    ``None`` for a topic given by weights."""

    topic: tuple[str, ...]
    scu: tuple[str, ...]
    weight: tuple[int, ...]
    line: tuple[int, ...]
    models: dict[str, int | None]
    source: str = "<pyramid>"


@dataclass(frozen=True, eq=False)
class PeerScus(LineRecords):
    """SCUs expressed by peer summaries ``topic peer scu_id`` in file order (``scu`` is
    ``None`` on the line of a summary expressing none)."""

    topic: tuple[str, ...]
    peer: tuple[str, ...]
    scu: tuple[str | None, ...]
    line: tuple[int, ...]
    source: str = "<peer SCUs>"


def _fields(line: str, number: int, name: str, expected: tuple[str, ...], what: str
            ) -> list[str]:
    fields = line.rstrip("\r\n").split("\t")
    if len(fields) != len(expected):
        raise InputFormatError(f"expected {len(expected)} tab-separated fields "
                               f"({' '.join(expected)}) in {what}, got {len(fields)}",
                               source=name, line=number, text=line)
    for field, label in zip(fields, expected, strict=True):
        if not field or field != "".join(field.split()):
            raise InputFormatError(f"{label.split('|')[0]} {field!r} is empty or holds a "
                                   "blank", source=name, line=number, text=line)
    return fields


def read_pyramid(source: PathLike | io.IOBase | bytes) -> Pyramid:
    """Read a pyramid ``topic<TAB>scu_id<TAB>contributors|weight|-`` (module
    documentation).

    >>> p = read_pyramid(b"q1\\tscu1\\tA,B,C\\nq1\\tscu2\\tB\\nq1\\tscu3\\t-\\n")
    >>> p.weight, p.models
    ((3, 1, 0), {'q1': 3})
    """
    name, lines = _lines(source, "read_pyramid")
    topics, scus, weights, numbers = [], [], [], []
    contributors: dict[str, set[str]] = {}
    form: dict[str, tuple[str, int]] = {}
    seen = _Keys(name, "SCU")
    for number, line in lines:
        topic, scu, third = _fields(line, number, name, PYRAMID_FIELDS, "a pyramid")
        seen.add((topic, scu), number, line)
        if third == NONE:
            weight, kind = 0, None
        elif third.isascii() and third.isdigit():
            weight, kind = int(third), "weights"
        else:
            ids = third.split(",")
            if "" in ids:
                raise InputFormatError(f"contributor list {third!r} has an empty id",
                                       source=name, line=number, text=line)
            if len(set(ids)) != len(ids):
                twice = next(i for i in ids if ids.count(i) > 1)
                raise InputFormatError(f"reference {twice!r} given twice in the "
                                       "contributor list", source=name, line=number,
                                       text=line)
            weight, kind = len(ids), "contributor lists"
            contributors.setdefault(topic, set()).update(ids)
        if kind is not None:
            first = form.setdefault(topic, (kind, number))
            if first[0] != kind:
                raise InputFormatError(f"topic {topic!r} gives {first[0]} (line {first[1]}) "
                                       f"and {kind}: use one form per topic", source=name,
                                       line=number, text=line)
        topics.append(topic)
        scus.append(scu)
        weights.append(weight)
        numbers.append(number)
    if not numbers:
        raise EmptyInputError("no SCUs (the pyramid file is empty)", source=name)
    counts = {t: len(contributors[t]) if t in contributors else None for t in topics}
    return Pyramid(tuple(topics), tuple(scus), tuple(weights), tuple(numbers), counts, name)


def read_peer_scus(source: PathLike | io.IOBase | bytes) -> PeerScus:
    """Read the SCUs of peer summaries ``topic<TAB>peer<TAB>scu_id|-`` (module
    documentation).

    >>> read_peer_scus(b"q1\\tsysA\\tscu1\\nq1\\tsysB\\t-\\n").scu
    ('scu1', None)
    """
    name, lines = _lines(source, "read_peer_scus")
    topics, peers, scus, numbers = [], [], [], []
    seen = _Keys(name, "peer SCU (topic, peer, scu_id)")
    summaries: dict[tuple[str, str], tuple[bool, int]] = {}
    for number, line in lines:
        topic, peer, scu = _fields(line, number, name, PEER_FIELDS, "peer SCUs")
        seen.add((topic, peer, scu), number, line)
        empty = scu == NONE
        first = summaries.setdefault((topic, peer), (empty, number))
        if first[1] != number and (empty or first[0]):
            raise InputFormatError(f"peer {peer!r} for topic {topic!r} both expresses no "
                                   f"SCU ('-') and other lines (first on line {first[1]})",
                                   source=name, line=number, text=line)
        topics.append(topic)
        peers.append(peer)
        scus.append(None if empty else scu)
        numbers.append(number)
    if not numbers:
        raise EmptyInputError("no peer SCUs (the file is empty)", source=name)
    return PeerScus(tuple(topics), tuple(peers), tuple(scus), tuple(numbers), name)

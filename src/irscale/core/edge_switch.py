"""The on/off switch of the API's edge (:mod:`irscale.core.edge`), on its own so that the
command line turns the edge off (:func:`bypassed`) without loading the edge: a command
line of trec_eval's measures calls no public function through it. Imports only
:mod:`contextlib`."""

from __future__ import annotations

import contextlib

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterator

#: Whether the edge looks behind errors: off while the command line runs a command
#: (:func:`bypassed`), whose messages name its options and files, never a Python parameter.
ACTIVE = [True]


@contextlib.contextmanager
def bypassed() -> Iterator[None]:
    """The edge off for the calls inside (the command line's: it checks its options before
    it calls the API, and an error there names what the user typed, ``--scores s.csv``,
    not the argument the API was given, ``data``)."""
    was = ACTIVE[0]
    ACTIVE[0] = False
    try:
        yield
    finally:
        ACTIVE[0] = was


__all__ = ["ACTIVE", "bypassed"]

"""The type hint of a parameter of measure names (:data:`MeasureNames`), with its domain:
judged on entry by the API's edge (:func:`irscale.core.hints.check_entry`). Kept apart from
:mod:`irscale.measures.names`, which the command line's start reads: the hint needs
:mod:`typing`, which a plain ``irscale eval`` never imports (functions import it for type
checkers only; the edge reads it from there)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from ..core.checked import Checked


def _measure_names(value: object) -> object:
    """``value`` as given, once its names are read
    (:func:`irscale.measures.names.labelled_names`, its
    :class:`~irscale.errors.MeasureError`): a string, or a list or tuple of strings and
    ir_measures' measure objects; any other iterable (a generator) is read where it is
    used, never consumed here."""
    if isinstance(value, (str, list, tuple)) or not hasattr(value, "__iter__"):
        from .names import labelled_names

        labelled_names(value)
    return value


#: A parameter of measure names, as a signature declares it (``measures: MeasureNames =
#: "official"``): a name or names (:func:`irscale.measures.names.measure_names`), refused
#: on entry in the words of :func:`irscale.measures.names.labelled_names`.
MeasureNames = Annotated[str | Iterable[str], Checked(_measure_names)]

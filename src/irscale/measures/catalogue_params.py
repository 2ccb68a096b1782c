"""The parameters of the measure catalogue's listing (:func:`irscale.measures.catalogue`,
``irscale measures``), declared once. This module imports nothing numerical: the command
line reads it as it builds ``irscale measures``."""

from __future__ import annotations

from ..core.binding import Binding
from ..core.contexts import CONTEXTS
from ..core.params import Param
from ..core.records import record
from ..errors import ParameterError, about
from . import contexts as _declared  # noqa: F401  (the contexts, declared on import)


@record
class Context:
    """A context of the catalogue: one of :data:`irscale.core.contexts.CONTEXTS` as they
    are declared when the value is checked (a context declared after this module is
    loaded is one too)."""

    type = str

    @property
    def names(self) -> tuple[str, ...]:
        """The contexts declared, in the catalogue's order."""
        return tuple(CONTEXTS)

    def check(self, value: object, name: str) -> str:
        """``value``, a declared context."""
        if not isinstance(value, str) or value not in CONTEXTS:
            raise about(ParameterError(f"{name}: unknown measure context {value!r}; choose "
                                       f"from {', '.join(CONTEXTS)}", param=name), value)
        return value

    def outside(self) -> tuple[str, ...]:
        return ("no-such-context",)


#: ``--context``: the families of one context only.
CATALOGUE_CONTEXT = Param("context", Context(), None, "list the families of this context "
                          "only", ("--context",), unset="all")
#: :func:`irscale.measures.catalogue` and :func:`~irscale.measures.listing.catalogue_rows`
#: (``irscale measures``): the context, checked on entry.
LISTING = Binding((CATALOGUE_CONTEXT,))

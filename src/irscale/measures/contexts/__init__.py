"""The contexts of the one catalogue (:func:`irscale.core.contexts.declare_context`), one
module each, beside the families registered under them; importing this package declares
them, in the order the catalogue lists them (``irscale measures``). Each module is a
declaration only: loading them loads no family and no numerical package (``irscale
measures --help`` takes its ``--context`` choices from them)."""

from ...core.contexts import CONTEXTS

# the order the catalogue lists them
# isort: off
from . import rankings, intents, sessions, texts, nuggets, pyramids  # noqa: F401
from . import citations  # noqa: F401
from . import prefs, qrels_jg, policies  # noqa: F401
# isort: on

__all__ = ["CONTEXTS"]

"""Packages whose public names are imported on first use (PEP 562).

A package's ``__init__`` that imports all its submodules makes every light module of the
package pay for the heavy ones: the command line's ``text bleu`` loaded scipy through the
session measures, ``online prefs`` numpy through the interleaving log. A package made
lazy with :func:`lazy_package` imports a submodule when one of its names is first looked
up, and keeps a public function named like the submodule that defines it
(``irscale.text.rouge``) the function, as an eager ``from .rouge import rouge`` did.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Collection, Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any


def lazy_package(name: str, exports: Mapping[str, str], shadowed: Collection[str] = ()
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of the package ``name`` whose public
    names are ``exports`` (name → the module that defines it, relative to ``name`` or
    absolute: a kernels' module re-exports its runner so, with no import circle).

    ``shadowed``: public names that are also the names of submodules; the package's
    module type is changed so that importing such a submodule later does not rebind the
    name to the module (the import system sets a submodule as an attribute of its
    package when it first loads it).
    """
    module = sys.modules[name]

    def __getattr__(attribute: str) -> Any:
        if attribute not in exports:
            raise AttributeError(f"module {name!r} has no attribute {attribute!r}")
        value = getattr(importlib.import_module(exports[attribute], name), attribute)
        from .edge import guarded

        value = guarded(value)  # the API's edge: an argument's fault names it (core.edge)
        setattr(module, attribute, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(module)) | set(exports))

    if shadowed:
        keep = frozenset(shadowed)

        class Package(types.ModuleType):
            """The package's module type: a submodule does not replace a public name."""

            def __setattr__(self, attribute: str, value: Any) -> None:
                if attribute in keep and isinstance(value, types.ModuleType):
                    return
                super().__setattr__(attribute, value)

        module.__class__ = Package
    return __getattr__, __dir__

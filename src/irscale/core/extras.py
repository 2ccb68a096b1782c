"""The optional dependencies of irscale, declared once: the module each one is, the extra
that installs it, and the one message that names them.

irscale's dependencies (``pyproject.toml``) are those every user needs: numpy, pandas,
scipy, threadpoolctl and matplotlib (the report's figures). A few features need one more
package, installed by an extra (``pip install 'irscale[parquet]'``): each is an
:class:`Extra`, and every place that needs it loads it through :meth:`Extra.load`, so that
a missing package is always refused by one line, ``WHAT needs PACKAGE: pip install
'irscale[EXTRA]'``.

On the command line the refusal comes before any work: a parameter whose values may need
an extra declares it (:class:`Requires`, the ``requires=`` of
:class:`~irscale.core.params.Param`), and the command line checks the declarations of the
options given right after parsing them, before any file is read
(:func:`irscale.cli.requirements.check_requirements`). The loads inside the functions stay:
they are the Python API's check, and the command line's backstop (a folder of Parquet
runs, whose files are known once listed).

This module imports nothing but :mod:`irscale.errors` and :mod:`irscale.core.records`:
the declarations of the options import it.
"""

from __future__ import annotations

from ..errors import IrscaleError, ParameterError
from .records import record

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any, TypeGuard

#: The endings of a Parquet file's name (a run, a click log, a scale's image).
PARQUET_SUFFIXES = (".parquet", ".pq")
#: The prefix that marks an ir_datasets id where a file name is expected.
IRDS_PREFIX = "irds:"


@record
class Extra:
    """An optional dependency: ``module``, the module imported (its top-level name), and
    ``extra``, the extra of irscale that installs it; ``package``: how messages name it
    (default the module)."""

    module: str
    extra: str
    package: str = ""

    @property
    def install(self) -> str:
        """``pip install 'irscale[EXTRA]'``."""
        return f"pip install 'irscale[{self.extra}]'"

    def missing(self, what: str) -> str:
        """The message of ``what`` (``"--copula vine"``) without the package:
        ``--copula vine needs pyvinecopulib: pip install 'irscale[vines]'``."""
        return f"{what} needs {self.package or self.module}: {self.install}"

    def installed(self) -> bool:
        """Whether the module can be imported (found, not imported: a module blocked with
        ``sys.modules[name] = None`` or by an import hook is not)."""
        import importlib.util

        try:
            return importlib.util.find_spec(self.module) is not None
        except (ImportError, ValueError):
            return False

    def load(self, what: str, error: type[IrscaleError] = ParameterError,
             **details: Any) -> ModuleType:
        """The module, or ``error`` (with ``details``: ``source=``, ``param=``) with the
        message of :meth:`missing` when it cannot be imported."""
        import importlib

        try:
            return importlib.import_module(self.module)
        except ImportError:
            raise error(self.missing(what), **details) from None


#: Parquet files: runs, click logs, scale images, per-topic values.
PYARROW = Extra("pyarrow", "parquet")
#: The qrels and runs of ir_datasets datasets (``irds:ID``).
IR_DATASETS = Extra("ir_datasets", "irds")
#: ranx's ``Qrels`` and ``Run`` made from irscale's (``to_ranx()``).
RANX = Extra("ranx", "ranx")
#: The R-vine copulas of the copula simulation.
PYVINECOPULIB = Extra("pyvinecopulib", "vines")
#: A Dask cluster (``--scheduler``, ``executor=``).
DASK = Extra("distributed", "dask", "Dask's distributed package")
#: The Porter stemmer of ROUGE (``--stem``).
NLTK = Extra("nltk", "text")
#: The Unicode classes of BLEU's international tokeniser (``tokenize=intl``).
REGEX = Extra("regex", "text")


@record
class Requires:
    """What a parameter's value may need: ``extra``, where ``when(value)`` holds (every
    value given when ``when`` is None); ``what`` says what needs it in the message, with
    ``{option}`` (the option as given) and ``{value}`` (the value, or the path of a value
    that names files) and the command line's other values (``{output}``)."""

    extra: Extra
    what: str = "{option} {value}"
    when: Callable[[Any], bool] | None = None

    def needed(self, value: object) -> bool:
        """Whether ``value`` (one item of the option's values) needs the extra."""
        return self.when is None or bool(self.when(value))


def parquet_name(path: object) -> bool:
    """Whether ``path`` names a Parquet file by its name (:data:`PARQUET_SUFFIXES`)."""
    return isinstance(path, str) and path.lower().endswith(PARQUET_SUFFIXES)


def irds_name(source: object) -> TypeGuard[str]:
    """Whether ``source`` is an ir_datasets id, a string ``irds:...``."""
    return isinstance(source, str) and source.startswith(IRDS_PREFIX)


#: A file read as Parquet where its name ends in ``.parquet`` or ``.pq``.
PARQUET_INPUT = Requires(PYARROW, "{value}, reading a Parquet file", parquet_name)
#: ``irds:ID`` read by ir_datasets.
IRDS_INPUT = Requires(IR_DATASETS, "{value}, reading an ir_datasets dataset", irds_name)
#: What a run file may need (a Parquet run, an ir_datasets dataset's runs).
RUN_INPUTS = (PARQUET_INPUT, IRDS_INPUT)

__all__ = ["DASK", "IRDS_INPUT", "IRDS_PREFIX", "IR_DATASETS", "NLTK", "PARQUET_INPUT",
           "PARQUET_SUFFIXES", "PYARROW", "PYVINECOPULIB", "REGEX", "RUN_INPUTS", "Extra",
           "Requires", "irds_name", "parquet_name"]

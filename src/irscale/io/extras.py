"""The optional dependencies of the readers, named in one message.

pyarrow is not required by irscale: it is the ``parquet`` extra (``pip install
'irscale[parquet]'``), needed to read Parquet files only. A reader that meets a Parquet file
without pyarrow raises :func:`needs_pyarrow`'s error, which names the extra.
"""

from __future__ import annotations

from ..errors import InputError

#: How to install the optional dependency pyarrow.
PARQUET_EXTRA = "pip install 'irscale[parquet]'"


def needs_pyarrow(what: str, source: str) -> InputError:
    """The error for ``what`` (``"reading a Parquet run"``) of ``source`` without pyarrow
    installed: ``<source>, reading a Parquet run needs pyarrow: pip install
    'irscale[parquet]'``."""
    return InputError(f"{what} needs pyarrow: {PARQUET_EXTRA}", source=source)


def require_pyarrow(what: str, source: str) -> None:
    """Nothing where pyarrow is installed; :func:`needs_pyarrow`'s error otherwise, raised
    before any work is done (``what``: ``"writing per-topic Parquet files"``)."""
    try:
        import pyarrow  # noqa: F401  # the writer imports it next
    except ImportError as missing:
        raise needs_pyarrow(what, source) from missing


__all__ = ["PARQUET_EXTRA", "needs_pyarrow", "require_pyarrow"]

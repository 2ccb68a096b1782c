"""Warnings shown at the caller's line: a warning issued from irscale's code during a call
of a public function (:mod:`irscale.core.edge`) is issued again as if the line of the
user's code that made the call had issued it, as ``warnings.warn(..., stacklevel=n)`` with
the right ``n`` would: ``script.py:12: UserWarning: ...``, not
``irscale/io/native_files.py:67``, whatever depth of irscale's code issued it.

While a call runs, Python's ``warnings.showwarning`` is replaced (as
:func:`logging.captureWarnings` replaces it): a warning that Python's filters let through
at irscale's line, issued in the thread (or context) of the call, is issued again with
:func:`warnings.warn_explicit` at the caller's file, line, module and registry, where the
user's filters decide again (``error`` raises it, ``ignore`` drops it, ``default`` shows it
once per line of the user's); it is then shown by the ``showwarning`` that was in place
(pytest's recorder, logging's, Python's). Warnings issued from outside irscale (the user's
own, or a library's pointing into itself) and those of other threads are shown as they
are. The replacement is held by a count over the threads: installed by the first call,
removed by the last one, and left alone when something else replaced it meanwhile.
"""

from __future__ import annotations

import _thread
import contextvars
import os
import warnings

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from types import FrameType
    from typing import Any, TextIO

#: The folder of irscale's modules (with its separator): a line in it is irscale's.
PACKAGE = os.path.dirname(os.path.dirname(__file__)) + os.sep
#: The frame of the user's code that made the call running in this context (``None``
#: outside a call, and while a warning is issued again).
_CALLER: contextvars.ContextVar[FrameType | None] = contextvars.ContextVar(
    "irscale_caller", default=None)
_LOCK = _thread.allocate_lock()
#: How many calls hold the replacement, and the ``showwarning`` it replaced.
_held: list[Any] = [0, None]
#: What shows a warning when the one replaced is unknown (Python's).
_FALLBACK = warnings.showwarning


def enter(frame: FrameType | None) -> contextvars.Token[FrameType | None]:
    """Warnings of this context at the line of ``frame`` (the public function's caller; the
    first frame outside irscale above it), until :func:`leave` with the token returned."""
    while frame is not None and frame.f_code.co_filename.startswith(PACKAGE):
        frame = frame.f_back
    with _LOCK:
        if _held[0] == 0:
            shown = warnings.showwarning
            _held[1] = shown if shown is not _show else _FALLBACK
            warnings.showwarning = _show
        _held[0] += 1
    return _CALLER.set(frame)


def leave(token: contextvars.Token[FrameType | None]) -> None:
    """The end of :func:`enter`'s call."""
    _CALLER.reset(token)
    with _LOCK:
        _held[0] -= 1
        if _held[0] == 0:
            if warnings.showwarning is _show:
                warnings.showwarning = _held[1]
            _held[1] = None


def _show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
          file: TextIO | None = None, line: str | None = None) -> None:
    """``warnings.showwarning`` while calls run (module documentation)."""
    caller = _CALLER.get()
    if caller is None or not filename.startswith(PACKAGE):
        (_held[1] or _FALLBACK)(message, category, filename, lineno, file, line)
        return
    token = _CALLER.set(None)  # issued again below: then shown as it is
    try:
        # no module_globals: their loader would be asked for the source, and the loader of
        # a `python -c` script's __main__ (BuiltinImporter) raises ImportError; the line
        # shown is read by its file name, as warnings.warn reads it
        names = caller.f_globals
        warnings.warn_explicit(message, category, caller.f_code.co_filename, caller.f_lineno,
                               names.get("__name__", "<string>"),
                               names.setdefault("__warningregistry__", {}))
    finally:
        _CALLER.reset(token)


__all__ = ["PACKAGE", "enter", "leave"]

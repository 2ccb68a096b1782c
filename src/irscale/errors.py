"""The one exception hierarchy of irscale.

Every error raised on bad input derives from :class:`IrscaleError`. Errors about a file
name the file, the 1-based line number and the offending text, so that a user can go
straight to the problem::

    InputFormatError: run.txt, line 17: expected 6 fields (qid Q0 docno rank score runid),
    got 5: '101 Q0 doc7 3 0.25'
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import TypeVar

    E = TypeVar("E", bound=BaseException)

#: Longest offending text quoted in a message (longer text is cut in the middle).
SHOWN_TEXT = 200


def shorten(text: str, limit: int = SHOWN_TEXT, *, counted: bool = True) -> str:
    """``text``, or its start and end around ``…`` when it is longer than ``limit``
    (``counted``: followed by its length, ``(100,000 characters)``; else within
    ``limit``)."""
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    cut = f"{text[:half]}…{text[-half:]}"
    return f"{cut} ({len(text):,} characters)" if counted else cut


def printable(text: str) -> str:
    r"""``text`` with every character a terminal acts on escaped as ``repr`` writes it: the
    C0 and C1 controls (ESC, CR, BEL, backspace, ...), DEL, and the other characters
    :meth:`str.isprintable` refuses (line separators, bidirectional overrides, the
    surrogates of undecodable bytes), so that a hostile topic id, docno or file name in a
    message cannot recolour, move the cursor or clear the screen.

    >>> printable("9\x1b[31mx\r"), printable("φ ≤ 1")
    ('9\\x1b[31mx\\r', 'φ ≤ 1')
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def message_line(text: str) -> str:
    """``irscale: text`` as irscale writes every line of standard error (errors, warnings,
    notices, progress: the one path): its line breaks made spaces, one line, and every
    other control character escaped (:func:`printable`)."""
    return f"irscale: {printable(' '.join(text.split(chr(10))))}"


def shown(value: object) -> str:
    """``value`` as a message quotes it: its ``repr``, but a numpy scalar as the Python
    value it holds (``nan``, ``3``, ``'a'``; numpy 2 writes ``np.float64(nan)``).

    >>> import numpy as np
    >>> shown(np.float64("nan")), shown(np.int64(3)), shown("x"), shown(0.5)
    ('nan', '3', "'x'", '0.5')
    """
    item = getattr(value, "item", None)
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0 and \
            callable(item):
        value = item()
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple) and shape and not isinstance(value, type):
        return f"a {type(value).__name__} of shape {shape}"  # a table's repr is lines long
    return repr(value)


class IrscaleError(Exception):
    """Base class of every error raised by irscale."""


class InputError(IrscaleError, ValueError):
    """Bad input data: a file or an in-memory object that cannot be used as given.

    ``source`` is the file name (or a description of the in-memory object), ``line`` the
    1-based line number (``None`` when not applicable) and ``text`` the offending text.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        text: str | None = None,
    ) -> None:
        self.source = source
        self.line = line
        self.text = text
        self.reason = message
        where = ""
        if source is not None:
            where = f"{source}, " if line is None else f"{source}, line {line}: "
        elif line is not None:
            where = f"line {line}: "
        shown = "" if text is None else f": {shorten(text)!r}"
        super().__init__(f"{where}{message}{shown}")


class InputFormatError(InputError):
    """A line or field does not follow the expected format."""


class DuplicateError(InputError):
    """The same (topic, document) pair occurs more than once."""


class EmptyInputError(InputError):
    """A file or object holds no data at all."""


class MeasureError(IrscaleError, ValueError):
    """An unknown measure name, or bad measure parameters."""


class ParameterError(IrscaleError, ValueError):
    """An impossible option or parameter value (negative cut-off, alpha outside (0, 1), ...).

    ``param``: the Python name of the parameter when the message begins with it (``alpha
    must lie in (0, 1), got 2.0``); the command line names the option there instead
    (``--alpha (alpha) must lie in (0, 1), got 2.0``), as the parameter's declaration
    spells it (:class:`irscale.core.params.Param`).
    """

    def __init__(self, message: str, *, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


class AlignmentError(IrscaleError, ValueError):
    """Score matrices or result sets that cannot be aligned (topics or systems differ)."""


class FileAccessError(IrscaleError, OSError):
    """A file that cannot be read or written: missing, a directory, unreadable, a full disk.

    ``path`` is the file concerned; the message names it and says what is wrong.
    """

    def __init__(self, message: str, *, path: str | None = None, errno: int | None = None):
        super().__init__(message)
        self.path = path
        self.errno = errno

    def __str__(self) -> str:
        return self.args[0]


class OutputExistsError(FileAccessError):
    """An output file that exists already (or is one of the inputs): it is never overwritten
    unless asked (``--force`` / ``force=True``), and an input never is."""


class SchedulerError(IrscaleError, RuntimeError):
    """A Dask scheduler that cannot be reached (``--scheduler tcp://...``, ``executor=``):
    nothing listens at the address, or the handshake does not finish in time."""


class CacheEntryWarning(UserWarning):
    """An entry of a results cache (``--cache``, ``cache=``) that cannot be trusted (altered,
    truncated, of another format, not a regular file): it is not used, the evaluation is
    done again and stored in its place."""


class CacheWriteWarning(UserWarning):
    """A results cache (``--cache``, ``cache=``) whose entries cannot be written (a
    read-only folder, a full device): the evaluation is returned, and not stored."""


class NoteWarning(UserWarning):
    """What irscale applied that the call did not spell out and that changes what is
    computed (``ties="expected"`` leaving out the measures of the default set that have no
    tie-aware value): a warning in Python, a note on the command line (``irscale: note:
    ...``, docs/errors.md §6)."""


class NoVarianceWarning(UserWarning):
    """Pairs of a family of tests whose differences (or samples) have no variance up to
    rounding: they are not tested, their p-value is 1. Meta-evaluations that draw topic
    subsets themselves (split and swap studies) count such pairs as not significant
    without warning: the subsets are theirs, not the user's."""

def about(error: E, value: object) -> E:
    """``error`` marked as caused by the object ``value`` (what a coercion function was
    given: a score table, a run): the API's edge (:mod:`irscale.core.edge`) names the
    argument that passed it (``data: expected a topics × systems score table (2-D), got 1
    dimension(s)``)."""
    error.subject = value  # type: ignore[attr-defined]
    return error

"""What the command line gave, as the parsers record it (:class:`Given`, kept in the
namespace under :data:`GIVEN`), and the questions the commands ask of it: whether an
option was given (:func:`given`), how messages spell it (:func:`spelling`, :func:`named`),
whether progress is shown (:func:`wants_progress`). It imports nothing but
:mod:`irscale.errors`: both parsers fill it, :class:`irscale.cli.parser.Parser` and the
one of ``eval``'s trec_eval path read from the manifest (:mod:`irscale.cli.eval_path`),
which loads neither :mod:`argparse` nor the declarations of the options.
"""

from __future__ import annotations

from ..errors import ParameterError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import argparse

#: The namespace entry of the :class:`Given` record.
GIVEN = "_given"


class Given:
    """What a parser records besides the values: the ``dest``
    of every option given (even with its default value), the option of each Python
    parameter (``{"rng": "--seed"}``, for :func:`named`), each ``dest``'s spelling
    (``{"samples": "-B/--samples"}``) and the arguments as given."""

    def __init__(self) -> None:
        self.dests: set[str] = set()
        self.flags: dict[str, str] = {}
        self.spelt: dict[str, str] = {}
        self.argv: list[str] = []


def given(args: argparse.Namespace, dest: str) -> bool:
    """Whether the option stored in ``dest`` was given (a positional: with a value)."""
    record = getattr(args, GIVEN, None)
    return record is not None and dest in record.dests


def spelling(args: argparse.Namespace, dest: str) -> str:
    """How messages spell the option stored in ``dest`` (``-B/--samples``)."""
    record = getattr(args, GIVEN, None)
    return record.spelt.get(dest, dest) if record is not None else dest


def named(error: Exception, args: argparse.Namespace | None) -> Exception:
    """``error`` naming the option of its parameter: a function's
    :class:`~irscale.errors.ParameterError` about ``alpha`` whose message begins with it
    begins with ``--alpha (alpha)`` instead. Other errors are returned as they are."""
    param = getattr(error, "param", None)
    record = getattr(args, GIVEN, None)
    text = str(error)
    if param is None or record is None or param not in record.flags or \
            not text.startswith(param):
        return error
    return ParameterError(f"{record.flags[param]} ({param}){text[len(param):]}")


def wants_progress(args: argparse.Namespace) -> bool:
    """Whether to show the estimate and progress of long work (no ``--no-progress``)."""
    return not getattr(args, "no_progress", False)

"""The parameters of the readers' inputs whose size is the work, declared once.

An input whose size sets the memory of what is read from it declares that cost on the
:class:`~irscale.core.params.Param` that names it (``docs/errors.md`` §7), as an option's
value does: the refusal beyond the memory limit then names the option and reads what to
change from the declaration (:func:`irscale.core.progress.declared_memory`). The readers of
:mod:`irscale.io` refuse it, below the packages that take the option
(:mod:`irscale.collections.params` re-exports it), so it is declared here. Like every
``params`` module, this one imports nothing but :mod:`irscale.core.params` (no numpy: the
command line reads it before numpy is imported).
"""

from __future__ import annotations

from ..core.params import Cost, InputFiles, Param

__all__ = ["CONFUSION_FILE"]

#: ``--confusion FILE``: the judges' confusion (:func:`irscale.io.confusion.read_confusion`).
#: Its matrix holds a row and a column for every distinct grade of the file: the memory grows
#: as the square of its grades.
CONFUSION_FILE = Param("confusion", InputFiles(), None, "the judges' confusion: a file of "
                       "'true observed probability' lines, P(observed grade | true grade)",
                       ("--confusion",), "FILE", label="--confusion",
                       cost=Cost("grades", "quadratic", "a row and a column of the confusion "
                                 "matrix: a distinct grade of the file"))

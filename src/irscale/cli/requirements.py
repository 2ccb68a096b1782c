"""The optional packages a command line needs, checked before any work.

An option whose values may need an optional package declares it where it is declared (the
``requires=`` of its :class:`~irscale.core.params.Param`: a Parquet run needs pyarrow,
``irds:`` names ir_datasets, ``--copula vine`` pyvinecopulib, ``--scheduler local:2`` Dask,
``--stem`` nltk). :func:`check_requirements` reads those declarations for the options
given, right after parsing, before any file is read or listed, and refuses the call with
the declared message (:class:`~irscale.core.extras.Extra`): ``irscale: run.parquet,
reading a Parquet file needs pyarrow: pip install 'irscale[parquet]'``.
"""

from __future__ import annotations

import argparse

from ..core.params import InputFiles
from ..errors import ParameterError
from .outputs import command_parsers, file_role
from .rules import given, spelling

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterator

    from ..core.extras import Requires


def check_requirements(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Refuse, with one line naming the package and the extra that installs it, a command
    line whose options need an optional package that is not installed."""
    for requires, option, value in _needed(args, parser):
        if not requires.extra.installed():
            what = requires.what.format_map({**vars(args), "option": option,
                                             "value": value})
            raise ParameterError(requires.extra.missing(what))


def _needed(args: argparse.Namespace, parser: argparse.ArgumentParser
            ) -> Iterator[tuple[Requires, str, object]]:
    """``(requires, option, value)`` for every value given to an option that declares what
    it needs (``value``: each item of a list, each path of a value that names files)."""
    for command in command_parsers(parser, args):
        for action in command._actions:
            param = getattr(action, "irscale_param", None)
            if param is None or not param.requires or not given(args, action.dest):
                continue
            value = getattr(args, action.dest)
            items = value if isinstance(value, list) else [value]
            role = file_role(action)
            if isinstance(role, InputFiles):
                items = [path for item in items for path in role.paths(item)]
            for item in items:
                for requires in param.requires:
                    if requires.needed(item):
                        yield requires, spelling(args, action.dest), item

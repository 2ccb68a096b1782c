"""The parser of the ``irscale`` command line and its actions: errors as one-line
:class:`UsageError` s, an option of one value refused when given twice, negative numbers
taken as values, and a record of what was given (:class:`Given`). Light on purpose (only
:mod:`argparse` and :mod:`irscale.errors`): ``irscale --help`` and a mistyped command need
nothing else (:func:`irscale.cli.main.build_parser`); the options built from declarations
are :mod:`irscale.cli.options`'.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from ..errors import IrscaleError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import NoReturn

#: The namespace entry where the parser notes the options it stores (removed after; not an
#: identifier, so no ``dest`` clashes with it), and the one of its :class:`Given` record.
_SEEN = "irscale: options given"
GIVEN = "_given"


class Given:
    """What :class:`Parser` records besides the values: the ``dest``
    of every option given (even with its default value), the option of each Python
    parameter (``{"rng": "--seed"}``, for :func:`irscale.cli.rules.named`), each ``dest``'s spelling
    (``{"samples": "-B/--samples"}``) and the arguments as given."""

    def __init__(self) -> None:
        self.dests: set[str] = set()
        self.flags: dict[str, str] = {}
        self.spelt: dict[str, str] = {}
        self.argv: list[str] = []


#: A negative number or comma-separated numbers, the first negative: a value for
#: :class:`Parser`, not an option (``--effects -0.1,0``).
_NUMBER = r"(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_NEGATIVE_NUMBERS = re.compile(rf"^-{_NUMBER}(?:,\s*[-+]?{_NUMBER})*$")


def help_width() -> int:
    """The width of help texts, argparse's: the terminal's columns less 2, as
    :func:`shutil.get_terminal_size` finds them (``COLUMNS``, else standard output's
    terminal, else 80), without importing :mod:`shutil` and its ``bz2``, ``lzma`` and
    ``fnmatch`` on every command's start-up."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


class UsageError(IrscaleError, ValueError):
    """A command line argparse cannot parse."""


class StoreOnce(argparse._StoreAction):
    """argparse's ``store``, refusing an option given twice (``-M 10 -M 20`` would keep the
    last silently); ``action="append"`` options stay repeatable."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = vars(namespace).setdefault(_SEEN, {})
        if option_string is None:  # positionals are stored once by argparse
            if values:
                seen[self] = None
        elif self in seen:
            first = seen[self]
            spelt = "" if first == option_string else f" (first as {first})"
            parser.error(f"option {option_string} given twice{spelt}")
        else:
            seen[self] = option_string
        super().__call__(parser, namespace, values, option_string)


class Noted(argparse.Action):
    """An action noted in the parse record when given (a flag, a repeatable option)."""

    def __call__(self, parser, namespace, values, option_string=None):
        vars(namespace).setdefault(_SEEN, {}).setdefault(self, option_string)
        super().__call__(parser, namespace, values, option_string)


class AppendNoted(Noted, argparse._AppendAction):
    """argparse's ``append`` action, noted in the parse record."""


class FlagNoted(Noted, argparse._StoreTrueAction):
    """argparse's ``store_true`` action, noted in the parse record."""


class Parser(argparse.ArgumentParser):
    """A parser whose errors are one-line :class:`UsageError` s, that refuses an option of
    one value given twice, and takes ``-1e-3`` and ``-0.1,0`` as values (as argparse takes
    ``-1``), not options; it records what was given (:class:`~irscale.cli.main.Given`)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = _NEGATIVE_NUMBERS
        self.register("action", None, StoreOnce)
        self.register("action", "store", StoreOnce)
        self.register("action", "append", AppendNoted)
        self.register("action", "store_true", FlagNoted)

    @staticmethod
    def add_stub(subparsers: argparse._SubParsersAction, name: str, help: str) -> None:
        """Register the subcommand ``name`` in ``subparsers`` by its name and ``help`` only,
        without building a parser for it (a command line builds the parser of the one
        subcommand it names): the choices, their errors and ``irscale --help`` are those of
        :meth:`~argparse._SubParsersAction.add_parser`, without the cost of a parser per
        subcommand."""
        subparsers._name_parser_map[name] = None
        subparsers._choices_actions.append(
            subparsers._ChoicesPseudoAction(name, (), help))

    def _get_formatter(self) -> argparse.HelpFormatter:
        """argparse's formatter, of :func:`help_width` (argparse makes one per option it
        adds, to check its metavar, and imports :mod:`shutil` for the width)."""
        return self.formatter_class(prog=self.prog, width=help_width())  # type: ignore[call-arg]

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        seen = vars(namespace).pop(_SEEN, {})
        record = vars(namespace).setdefault(GIVEN, Given())
        record.argv = list(sys.argv[1:] if args is None else args)  # the outermost's last
        record.dests.update(action.dest for action in seen)
        options = [action for action in self._actions if action.option_strings]
        # a parameter two options pass (-B and --ci-samples: samples) is named as given
        for action in sorted(options, key=lambda action: (action not in seen,
                                                          not getattr(action, "api", None))):
            spelt = getattr(action, "spelt", "/".join(action.option_strings))
            record.flags.setdefault(getattr(action, "api", None) or action.dest, spelt)
            record.spelt.setdefault(action.dest, spelt)
        return namespace, extras

    def error(self, message: str) -> NoReturn:
        """A :class:`UsageError` naming the command."""
        command = self.prog.removeprefix("irscale").strip()
        raise UsageError(f"{command + ': ' if command else ''}{message} "
                         f"(see '{self.prog} --help')")

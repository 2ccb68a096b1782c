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
    from collections.abc import Sequence
    from typing import Any, NoReturn

#: The namespace entry where the parser notes the options it stores (removed after; not an
#: identifier, so no ``dest`` clashes with it).
_SEEN = "irscale: options given"


def __getattr__(name: str) -> Any:
    """The record of what was given (``Given``, ``GIVEN``: :mod:`irscale.cli.given`),
    loaded where a command line is parsed (``irscale --help`` needs none)."""
    if name not in ("Given", "GIVEN"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import given

    return getattr(given, name)


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


class Choices(argparse._SubParsersAction):
    """argparse's sub-parsers (the subcommands of ``irscale``, the analyses of ``irscale
    meta``, ...), built only where the command line names them.

    ``words``: the words of the command line below the parser that holds these choices, those
    that do not start with ``-`` (the first is the choice made; option values come after
    it, as a group takes no option of its own), or None to build every choice (the tests
    and documentation that walk every option). A choice the words do not name is
    registered by its name, aliases and help only (:meth:`add_stub`): the choices, their
    errors and ``--help`` are argparse's, without the cost of a parser for each one (the
    analyses of ``meta`` took 40 ms to build, for a command that runs one)."""

    words: list[str] | None = None

    def add_parser(self, name, **kwargs):
        parser = super().add_parser(name, **kwargs)
        if self.words is not None:  # the words below it, or none: it was not chosen
            chosen = bool(self.words) and self.words[0] in (name, *kwargs.get("aliases", ()))
            parser.words = self.words[1:] if chosen else []
        return parser

    def skips(self, name: str, aliases: Sequence[str] = ()) -> bool:
        """Whether the command line chose another choice than ``name`` (or ``aliases``)."""
        return self.words is not None and (not self.words
                                           or self.words[0] not in (name, *aliases))

    def add_stub(self, name: str, help: str, aliases: Sequence[str] = ()) -> None:
        """Register the choice ``name`` by its name, ``aliases`` and ``help`` only, as
        argparse's :meth:`add_parser` does, without building its parser."""
        self._name_parser_map[name] = None
        for alias in aliases:
            self._name_parser_map[alias] = None
        self._choices_actions.append(self._ChoicesPseudoAction(name, tuple(aliases), help))


class Parser(argparse.ArgumentParser):
    """A parser whose errors are one-line :class:`UsageError` s, that refuses an option of
    one value given twice, and takes ``-1e-3`` and ``-0.1,0`` as values (as argparse takes
    ``-1``), not options; it records what was given (:class:`~irscale.cli.given.Given`)."""

    def __init__(self, *args, **kwargs) -> None:
        self._width = help_width()  # (argparse's __init__ adds -h/--help)
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = _NEGATIVE_NUMBERS
        self.register("action", None, StoreOnce)
        self.register("action", "store", StoreOnce)
        self.register("action", "append", AppendNoted)
        self.register("action", "store_true", FlagNoted)
        self.register("action", "parsers", Choices)
        #: the words of the command line below this parser (:attr:`Choices.words`)
        self.words: list[str] | None = None
        #: the command's declared example: its arguments after the command's words
        #: (:func:`irscale.cli.options.add_command`), shown by ``--help``
        self.example: str | None = None

    def _get_formatter(self) -> argparse.HelpFormatter:
        """argparse's formatter, of :func:`help_width` found when the parser was made
        (argparse makes one per option it adds, to check its metavar, and imports
        :mod:`shutil` for the width)."""
        return self.formatter_class(prog=self.prog, width=self._width)  # type: ignore[call-arg]

    def format_help(self) -> str:
        """argparse's help, then the command's declared example (:attr:`example`) as one
        ``example: irscale COMMAND ARGUMENTS`` line, never wrapped: a command line to copy
        whole (argparse reflows an ``epilog``)."""
        text = super().format_help()
        if self.example is None:
            return text
        return f"{text}\nexample: {self.prog} {self.example}\n"

    def add_subparsers(self, **kwargs) -> Choices:
        """argparse's sub-parsers, as :class:`Choices` that know the command line's words
        below this parser."""
        choices = super().add_subparsers(**kwargs)
        assert isinstance(choices, Choices)  # registered in __init__
        choices.words = self.words
        return choices

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        from .given import GIVEN, Given  # (not loaded by a --help, which exits above)

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


#: The fields of an argument in :func:`help_data`, in order.
ARGUMENT_FIELDS = ("flags", "dest", "nargs", "metavar", "choices", "help", "required", "group")


def help_data(parser: Parser) -> dict[str, Any]:
    """What ``--help`` of ``parser`` shows, as data (:mod:`irscale._manifest`'s ``HELP``,
    written by ``tools/manifest.py``): its description and declared example, its groups
    (title, description) and its arguments in the order they were added, each a tuple of
    :data:`ARGUMENT_FIELDS`: what argparse's help and usage read of it (spellings,
    ``dest``, ``nargs``, metavar, ``choices``, help, whether required) and its group;
    argparse's own ``-h/--help`` aside. :func:`parser_of_help` builds from it a parser
    whose ``--help`` is the same text."""
    groups = list(parser._action_groups)
    arguments = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        group = next(index for index, each in enumerate(groups)
                     if action in each._group_actions)
        arguments.append((tuple(action.option_strings), action.dest, action.nargs,
                          action.metavar,
                          None if action.choices is None else tuple(action.choices),
                          action.help, action.required, group))
    return {"description": parser.description, "example": parser.example,
            "groups": [(group.title, group.description) for group in groups],
            "arguments": arguments}


def parser_of_help(choices: Choices, name: str, help: str, data: dict[str, Any]) -> Parser:
    """The parser of the choice ``name`` of ``choices`` built from :func:`help_data`'s
    ``data``: its ``--help`` (usage, groups, arguments, example) is that of the parser the
    data were taken from, without importing the declarations its options are built from
    (:func:`irscale.cli.main.build_parser`, for a command line that asks for that help
    alone). It only shows help: its options store their values unchecked."""
    parser = choices.add_parser(name, help=help, description=data["description"])
    assert isinstance(parser, Parser)
    parser.example = data["example"]
    groups: list[Any] = list(parser._action_groups)  # positional arguments, options
    for title, description in data["groups"][len(groups):]:
        groups.append(parser.add_argument_group(title, description))
    for fields in data["arguments"]:
        argument = dict(zip(ARGUMENT_FIELDS, fields, strict=True))
        group = groups[argument["group"]]
        shown = {"help": argument["help"], "metavar": argument["metavar"]}
        if argument["choices"] is not None:
            shown["choices"] = argument["choices"]
        if not argument["flags"]:  # a positional argument
            group.add_argument(argument["dest"], nargs=argument["nargs"], **shown)
        elif argument["nargs"] == 0:
            group.add_argument(*argument["flags"], dest=argument["dest"],
                               action="store_true", help=argument["help"])
        else:
            group.add_argument(*argument["flags"], dest=argument["dest"],
                               nargs=argument["nargs"], required=argument["required"],
                               **shown)
    return parser

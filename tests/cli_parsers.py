"""The parsers of the ``irscale`` command line, for the tests that walk every option."""

from __future__ import annotations

import argparse
from collections.abc import Iterator


def parsers(parser: argparse.ArgumentParser, prog: str = "irscale"
            ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``(command, parser)`` of ``parser`` and of every sub-parser below it, each once
    (aliases such as ``meta dp`` share the parser of ``meta discriminative-power``)."""
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:
                    seen.add(id(sub))
                    yield from parsers(sub, f"{prog} {name}")


def subcommand_helps(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str | None]]:
    """``(name, help)`` of the subcommands ``parser`` lists."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield choice.dest, choice.help


def expanded_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help of ``action`` as ``--help`` prints it (``%(default)s`` expanded)."""
    return parser._get_formatter()._expand_help(action)

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


#: Values of the required options that are neither inputs nor choices, for
#: :func:`input_cases`.
REQUIRED_VALUES = {"--measure": "AP", "--length": "3", "--salt": "s", "--min-diff": "0.1",
                   "--sd": "1"}


#: What the files of the malformed cases of :func:`input_cases` hold (``tests/test_startup.py``,
#: ``benchmarks/bench_startup.py``): a line of no input format, and a table of numbers with a
#: word among them (a per-user table's metric with a typo; to the line readers a line of too
#: few fields, a user id holding a blank).
MALFORMED = {"malformed": "this line is no input of any command\n",
             "malformed table": "user,variant,clicks\nu1,A,3\nu2,B,x y\n"}


def input_cases(parser: argparse.ArgumentParser, name: str) -> list[list[str]]:
    """A command line of every command of ``parser`` that reads files, each of its inputs
    (positional arguments and required options declared inputs,
    :func:`irscale.cli.outputs.declare_inputs`) a file of its own, named ``{name}{i}``;
    three of a repeatable argument; the other required options a value they take."""
    from irscale.cli.outputs import file_role

    cases = []
    for prog, command in parsers(parser):
        if any(isinstance(a, argparse._SubParsersAction) for a in command._actions):
            continue
        files = iter(f"{name}{i}" for i in range(100))
        positional, options, reads = [], [], False
        for action in command._actions:
            role = file_role(action)
            is_input = role is not None and role.kind == "input"
            if not action.option_strings:
                count = 3 if action.nargs in ("*", "+") else 1
                positional += [next(files) for _ in range(count)]
                reads |= is_input
            elif action.required:
                if is_input:
                    value, reads = next(files), True
                elif action.choices:
                    value = next(iter(action.choices))
                else:
                    value = REQUIRED_VALUES.get(action.option_strings[-1], "1")
                options += [action.option_strings[-1], value]
        if reads:
            cases.append([*prog.split()[1:], *options, *positional])
    return cases


def option_input_cases(name: str) -> list[list[str]]:
    """Command lines whose options choose another analysis, with inputs of their own (named
    ``{name}{i}``), besides those of :func:`input_cases`."""
    files = [f"{name}{i}" for i in range(3)]
    return [
        ["compare", "--test", "document-sampling", "-m", "map", *files],
        ["compare", "--shard-scores", files[0]],
        ["compare", "--shard-scores", files[0], "--test", "bootstrap-anova"],
        ["labels", "aggregate", "--method", "gp", "--features", files[1], files[0]],
        ["meta", "correlate", "--scores", files[0], "--scores", files[1]],
    ]


def subcommand_helps(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str | None]]:
    """``(name, help)`` of the subcommands ``parser`` lists."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield choice.dest, choice.help


def expanded_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help of ``action`` as ``--help`` prints it (``%(default)s`` expanded)."""
    return parser._get_formatter()._expand_help(action)

"""``irscale online`` (``docs/online.md``): one module ``online_<name>`` per action, and the
declarations and builders the actions share."""

from __future__ import annotations

import argparse
import functools
import importlib
from collections.abc import Callable
from typing import Any

from ..core.params import Param, Text
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from .options import Argument, add_command, add_format, add_output, add_param
from .outputs import write_text
from .rules import check_options

#: Actions of ``irscale online``: modules ``irscale.cli.online_<name>``.
ACTIONS = ("interleave", "score", "ab", "clicks", "calibrate", "labels", "sensitivity",
           "counterfactual", "satisfaction")
#: ``LOG``: the click log an action reads.
CLICK_LOG = Param("inputs", Text(), None, "click log (text or Parquet)", ("inputs",), "LOG")


def add_parser(subparsers) -> None:
    """Register ``irscale online`` and its actions."""
    actions = add_actions(subparsers, "online", "online evaluation: click models, "
                          "interleaving, multileaving, A/B tests")
    for name in ACTIONS:
        importlib.import_module(f".online_{name}", __package__).add_parser(actions)


def add_actions(subparsers: Any, name: str, help: str) -> Any:
    """The command ``name`` (``online``, ``online ab``) whose actions are registered on the
    sub-parsers returned; without an action, it names them."""
    parser = subparsers.add_parser(name, help=help, description=_described(help))
    actions = parser.add_subparsers(dest=f"{name}_command", metavar="ACTION")
    parser.set_defaults(func=functools.partial(_no_action, parser.prog, actions.choices))
    return actions


def _no_action(prog: str, names: dict, args: argparse.Namespace) -> int:
    raise ParameterError(f"{prog.removeprefix('irscale ')}: choose an action: "
                         f"{', '.join(names)} (see '{prog} --help')")


def _described(help: str) -> str:
    return f"{help[0].upper()}{help[1:]}. See docs/online.md."


def add_action(actions: Any, name: str, run: Callable[[argparse.Namespace], int],
               *arguments: Argument, help: str, **declared: Any) -> argparse.ArgumentParser:
    """The action ``name`` (:func:`irscale.cli.options.add_command`), described by its help
    and docs/online.md; its rules are checked before ``run``."""
    return add_command(actions, name, functools.partial(_checked, run), *arguments,
                       help=help, description=_described(help), **declared)


def _checked(run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    check_options(args)
    return run(args)


def one_of(*params: Param, required: bool = False) -> Callable[[argparse.ArgumentParser],
                                                                 None]:
    """A builder of the options of ``params``, which exclude each other."""
    def build(parser: argparse.ArgumentParser) -> None:
        group = parser.add_mutually_exclusive_group(required=required)
        for param in params:
            add_param(group, param)
    return build


def add_table(parser: argparse.ArgumentParser) -> None:
    """``--format`` (a table's) and ``-o``."""
    add_format(parser, TABLE_FORMATS)
    add_output(parser)


def write_result(args: argparse.Namespace, result: Any) -> int:
    """Write ``result`` in ``--format``."""
    return write_text(args, result.format(args.fmt) + "\n")

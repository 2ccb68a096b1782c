"""Count the arguments of the ``irscale`` command line by how they are built (issue 67's
"arguments derived from declarations"): ``derived`` (made by
:func:`irscale.cli.options.add_param` from a :class:`~irscale.core.params.Param`) and
``hand-written`` (any other ``add_argument``). An argument is counted once per command
that has it (``meta dp`` and ``meta discriminative-power`` share one parser); ``--help`` is
not counted.

Usage: ``python benchmarks/count_cli_arguments.py [COMMAND-PREFIX]`` (e.g. ``"irscale
meta"``); prints one line per command and the totals.
"""

from __future__ import annotations

import argparse
import collections
import sys
import traceback

#: How an argument was built, by the cli.options function found on the call stack.
_BUILDERS = {"add_param": "derived"}
#: The columns printed.
_KINDS = ("derived", "hand-written")

_made: dict[int, str] = {}
_add_argument = argparse._ActionsContainer.add_argument


def _recording(self, *args, **kwargs):
    action = _add_argument(self, *args, **kwargs)
    kind = "hand-written"
    for frame in traceback.extract_stack()[:-1]:
        if frame.filename.endswith("cli/options.py") and frame.name in _BUILDERS:
            kind = _BUILDERS[frame.name]
    _made[id(action)] = kind
    return action


def _parsers(parser: argparse.ArgumentParser, prog: str):
    """``(command, parser)`` of ``parser`` and every sub-parser, each once."""
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:
                    seen.add(id(sub))
                    yield from _parsers(sub, f"{prog} {name}")


def main(prefix: str = "irscale") -> None:
    argparse._ActionsContainer.add_argument = _recording  # type: ignore[method-assign]
    from irscale.cli.main import build_parser

    totals: collections.Counter[str] = collections.Counter()
    for prog, parser in _parsers(build_parser(), "irscale"):
        if not prog.startswith(prefix):
            continue
        counts = collections.Counter(
            _made.get(id(action), "hand-written") for action in parser._actions
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)))
        totals += counts
        print(f"{prog:40} " + "  ".join(f"{k} {counts[k]:3}" for k in _KINDS))
    everything = sum(totals.values())
    print(f"{'total':40} " + "  ".join(f"{k} {totals[k]:3}" for k in _KINDS)
          + f"  ({totals['derived'] / everything:.0%} of {everything} derived)")


if __name__ == "__main__":
    main(*sys.argv[1:])

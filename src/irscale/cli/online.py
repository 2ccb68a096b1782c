"""``irscale online``: online evaluation (``docs/online.md``). Each action is a module
``irscale.cli.online_<name>`` with ``add_parser(subparsers)``, as the subcommands are
(:mod:`irscale.cli.main`); :data:`ACTIONS` lists them in the order of ``--help``."""

from __future__ import annotations

import argparse
import functools
import importlib

from ..errors import ParameterError

#: Actions of ``irscale online``: modules ``irscale.cli.online_<name>``.
ACTIONS = ("interleave", "score", "ab", "clicks", "calibrate", "labels", "sensitivity",
           "counterfactual", "satisfaction")


def add_parser(subparsers) -> None:
    """Register ``irscale online`` and its actions."""
    parser = subparsers.add_parser(
        "online", help="online evaluation: click models, interleaving, multileaving, A/B "
        "tests",
        description="Online evaluation: fit and simulate click models, interleave rankings "
        "and score clicks, analyse A/B tests. See docs/online.md.")
    actions = parser.add_subparsers(dest="online_command", metavar="ACTION")
    for name in ACTIONS:
        importlib.import_module(f".online_{name}", __package__).add_parser(actions)
    parser.set_defaults(func=functools.partial(_no_action, list(actions.choices)))


def _no_action(names: list[str], args: argparse.Namespace) -> int:
    """``irscale online`` without an action: name them."""
    raise ParameterError(f"online: choose an action: {', '.join(names)} (see 'irscale "
                         "online --help')")

"""``irscale online``: online evaluation (``docs/online.md``).

    irscale online interleave RUN_A RUN_B ...   interleave two runs, simulate or read clicks
    irscale online ab assign|analyze|size ...   A/B tests: assignment, analysis, sample size

Each action is a module ``irscale.cli.online_<name>`` with ``add_parser(subparsers)``, as
the ``irscale`` subcommands are (:mod:`irscale.cli.main`); :data:`ACTIONS` lists them in
the order ``irscale online --help`` shows them. The action modules import their analysis
modules inside their ``run`` functions, so building every parser stays cheap.
"""

from __future__ import annotations

import argparse
import importlib

from ..errors import ParameterError

#: Actions of ``irscale online``: modules ``irscale.cli.online_<name>``.
ACTIONS = ("interleave", "ab", "clicks")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "online", help="online evaluation: interleaving, multileaving, A/B tests",
        description="Online evaluation: interleave rankings and score clicks, analyse A/B "
        "tests. See docs/online.md.")
    parser.set_defaults(func=_no_action)
    actions = parser.add_subparsers(dest="online_command", metavar="ACTION")
    for name in ACTIONS:
        importlib.import_module(f".online_{name}", __package__).add_parser(actions)


def _no_action(args: argparse.Namespace) -> int:
    raise ParameterError(f"online: choose an action: {', '.join(ACTIONS)} (see 'irscale "
                         "online --help')")

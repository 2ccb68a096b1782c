"""``irscale meta``: meta-evaluation of measures, test collections and significance tests
(``docs/meta.md``; usage in ``docs/cli.md``). Each analysis is a module
``irscale.cli.meta_<name>`` (``-`` spelt ``_``) with ``add_parser(subparsers)``, as the
subcommands are (:mod:`irscale.cli.main`); what they share is
:mod:`irscale.cli.meta_common`. :data:`ANALYSES` lists them in the order of ``--help``."""

from __future__ import annotations

import importlib

#: Analyses of ``irscale meta``: modules ``irscale.cli.meta_<name>``.
ANALYSES = ("correlate", "drank", "discriminative-power", "split", "swap", "concordance",
            "loo", "pool-bias", "reproduce", "predict", "informativeness", "scales",
            "simulate", "gstudy", "qpp")


def add_parser(subparsers) -> None:
    """Register ``irscale meta`` and its analyses, each with its options and rules."""
    parser = subparsers.add_parser(
        "meta",
        help="meta-evaluation: correlation, discriminative power, topic splitting, ...",
        description="Meta-evaluation of measures and significance tests (Sakai 2014; Ferro "
        "& Sanderson 2022; Ferrante, Ferro & Fuhr 2021).",
    )
    sub = parser.add_subparsers(dest="meta_command", metavar="ANALYSIS")
    for name in ANALYSES:
        importlib.import_module(f".meta_{name.replace('-', '_')}", __package__).add_parser(sub)
    parser.set_defaults(func=lambda args: parser.error(
        f"choose an analysis: {', '.join(sub.choices)}"))

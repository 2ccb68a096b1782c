"""Help of the command line (``docs/cli.md``): every option of every
subcommand has help text, states its default when it has one, and papers are named by
author and year (never by the project's seed numbers)."""

from __future__ import annotations

import argparse
import re

import pytest

from .cli_parsers import expanded_help, irscale_parser, parsers, subcommand_helps

PARSERS = list(parsers(irscale_parser()))


def _shown(default: object) -> str:
    """How a help text writes the default ``default``."""
    if isinstance(default, (list, tuple)):
        return ",".join(str(v) for v in default)
    if default == "-":
        return "standard output"
    return str(default)


def test_every_command_is_walked():
    names = {prog for prog, _ in PARSERS}
    for command in ("irscale eval", "irscale demo", "irscale compare", "irscale scale image",
                    "irscale scale transform", "irscale scale table",
                    "irscale meta correlate", "irscale meta discriminative-power",
                    "irscale meta split", "irscale meta swap", "irscale meta concordance",
                    "irscale meta loo", "irscale meta scales"):
        assert command in names, sorted(names)


@pytest.mark.parametrize(("prog", "parser"), PARSERS, ids=[prog for prog, _ in PARSERS])
def test_every_option_has_help(prog, parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help is not argparse.SUPPRESS, f"{prog} {name}: help hidden"
        assert action.help and expanded_help(parser, action).strip(), \
            f"{prog} {name}: no help text"
    for name, text in subcommand_helps(parser):
        assert text and text.strip(), f"{prog} {name}: no help text"


@pytest.mark.parametrize(("prog", "parser"), PARSERS, ids=[prog for prog, _ in PARSERS])
def test_every_default_is_stated(prog, parser):
    """An option that takes a value and has a default (not None) says which, e.g.
    '(default 0.05)' or '(default: standard output)'."""
    checked = 0
    for action in parser._actions:
        if not action.option_strings or action.nargs == 0:
            continue  # positionals and flags
        default = action.default
        if default is None or default is argparse.SUPPRESS or default == []:
            continue
        text = " ".join(expanded_help(parser, action).split())
        name = "/".join(action.option_strings)
        assert re.search(r"\bdefault\b", text), f"{prog} {name}: help does not say 'default'"
        assert _shown(default) in text, \
            f"{prog} {name}: help does not state the default {_shown(default)!r}: {text!r}"
        checked += 1
    if prog in ("irscale eval", "irscale scale table", "irscale meta split"):
        assert checked >= 3, (prog, checked)


@pytest.mark.parametrize(("prog", "parser"), PARSERS, ids=[prog for prog, _ in PARSERS])
def test_papers_are_named_by_author_and_year(prog, parser):
    texts = [parser.format_help(), parser.description or ""]
    texts += [text or "" for _, text in subcommand_helps(parser)]
    for text in texts:
        assert "seed 00" not in " ".join(text.split()), f"{prog}: {text!r}"


def test_no_seed_numbers_in_the_cli_sources():
    from pathlib import Path

    import irscale.cli

    for path in Path(irscale.cli.__file__).parent.glob("*.py"):
        assert "seed 00" not in path.read_text(encoding="utf-8"), path.name

"""The shared vocabulary of the command line (``irscale.cli.options``, ``docs/cli.md``):
one list parser, the two kinds of ties and the rules of when options apply."""

from __future__ import annotations

import subprocess
import sys

import pytest

from irscale.cli.options import parse_list
from irscale.errors import ParameterError

from .faults.conftest import populate, subprocess_env


@pytest.mark.parametrize(("text", "kind", "expected"), [
    ("5,10,20", "int", [5, 10, 20]),
    (" 5 , 10 ", "int", [5, 10]),
    ("7", "int", [7]),
    ("-1,0", "int", [-1, 0]),  # ranges are the analysis's to check
    ("a, b,c", "str", ["a", "b", "c"]),
    ("MD1:MD2", "str", ["MD1:MD2"]),
])
def test_parse_list(text, kind, expected):
    assert parse_list(text, "--x", kind) == expected


@pytest.mark.parametrize(("text", "kind", "message"), [
    ("", "int", "--x is empty: give comma-separated integers, e.g. 5,10,20"),
    (" , ", "int", "--x is empty: give comma-separated integers"),
    ("5,,10", "int", "--x has an empty value in '5,,10': give comma-separated integers"),
    ("5,", "int", "--x has an empty value in '5,'"),
    (",5", "int", "--x has an empty value in ',5'"),
    ("5,x", "int", "--x: 'x' is not an integer: give comma-separated integers"),
    ("5.0", "int", "--x: '5.0' is not an integer"),
    ("", "str", "--x is empty: give comma-separated names, e.g. a,b,c"),
    ("a,,b", "str", "--x has an empty name in 'a,,b': give comma-separated names"),
])
def test_parse_list_refuses(text, kind, message):
    with pytest.raises(ParameterError) as raised:
        parse_list(text, "--x", kind)
    assert str(raised.value).startswith(message), str(raised.value)


@pytest.mark.parametrize(("value", "expected"), [
    ("-0.1,0", [-0.1, 0.0]), ("-1e-2, .5", [-0.01, 0.5]), ("-.5,-1,2E1", [-0.5, -1.0, 20.0]),
])
def test_a_list_of_numbers_whose_first_is_negative_is_a_value(value, expected):
    """argparse reads ``-1`` and ``-0.5`` as values, and took ``-0.1,0`` for an option."""
    from irscale.cli.main import build_parser

    args = build_parser("meta").parse_args(["meta", "simulate", "--model", "normal",
                                            "--effects", value])
    assert args.effects == pytest.approx(expected)


def test_parse_list_unique():
    assert parse_list("a,b", "--x", "str", unique=True) == ["a", "b"]
    with pytest.raises(ParameterError, match=r"--x names \['a'\] twice in 'a,b,a'"):
        parse_list("a,b,a", "--x", "str", unique=True)


def test_python_dash_m_irscale_is_the_command_line(tmp_path):
    """``python -m irscale`` runs the ``irscale`` command: same output, same errors."""
    populate(tmp_path)
    argv = ["eval", "-q", "-m", "map", "qrels.txt", "a.run"]
    runs = [subprocess.run([sys.executable, "-m", module, *argv], cwd=tmp_path,
                           capture_output=True, text=True, env=subprocess_env(), timeout=120)
            for module in ("irscale", "irscale.cli.main")]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout and "map" in runs[0].stdout
    failed = subprocess.run([sys.executable, "-m", "irscale", "eval", "qrels.txt", "none.run"],
                            cwd=tmp_path, capture_output=True, text=True,
                            env=subprocess_env(), timeout=120)
    assert failed.returncode != 0
    assert failed.stderr.startswith("irscale: ") and "Traceback" not in failed.stderr


def _parser():
    """A command of three declared options and their rules (:mod:`irscale.cli.rules`)."""
    from irscale.cli.main import Parser
    from irscale.cli.options import add_param
    from irscale.cli.rules import Default, Rule, add_rules
    from irscale.core.params import RESAMPLES, RNG_SEED, SIGNIFICANCE

    parser = Parser(prog="irscale try")
    parser.add_argument("--test", default="t")
    add_param(parser, RESAMPLES)
    add_param(parser, RNG_SEED)
    add_param(parser, SIGNIFICANCE)
    add_rules(parser,
              Rule(("samples", "seed"), lambda args: args.test == "bootstrap",
                   "{options} {applies} to bootstrap, not to --test {test}"),
              Default("alpha", lambda args: 0.01 if args.test == "bootstrap" else 0.1))
    return parser


@pytest.mark.parametrize(("argv", "message"), [
    (["--seed", "3"], "--seed applies to bootstrap, not to --test t"),
    (["-B", "9", "--seed", "3", "--test", "sign"],
     "-B/--samples, --seed apply to bootstrap, not to --test sign"),
])
def test_a_rule_refuses_the_options_given_where_it_does_not_hold(argv, message):
    from irscale.cli.rules import check_options

    args = _parser().parse_args(argv)
    with pytest.raises(ParameterError) as error:
        check_options(args)
    assert str(error.value) == message


def test_a_dependent_default_applies_only_when_the_option_is_not_given():
    from irscale.cli.rules import check_options

    for argv, alpha in ((["--test", "bootstrap", "-B", "9"], 0.01), ([], 0.1),
                        (["--alpha", "0.2"], 0.2)):
        args = _parser().parse_args(argv)
        check_options(args)
        assert args.alpha == alpha, argv

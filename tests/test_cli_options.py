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
    from irscale.cli.options import add_param
    from irscale.cli.parser import Parser
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


def test_declared_flags_text_and_positionals_parse_as_argparse_writes_them_by_hand():
    """A :class:`~irscale.core.params.Switch`, a :class:`~irscale.core.params.Text` option
    with ``-`` for a default, a repeatable text option and a positional list, built by
    ``add_param``, parse as the same arguments written with argparse by hand (the oracle),
    and the help states the default of ``-`` as ``unset`` says it."""
    import argparse

    from irscale.cli.options import add_param
    from irscale.core.params import Param, Switch, Text

    declared = (Param("force", Switch(), False, "replace", ("--force",)),
                Param("output", Text(), "-", "write to FILE", ("-o", "--output"), "FILE",
                      unset="standard output"),
                Param("measure", Text(), None, "a measure", ("-m",), "M", dest="measures"),
                Param("inputs", Text(), None, "the files", ("inputs",), "FILE"))
    built = argparse.ArgumentParser(prog="built")
    for param, kwargs in zip(declared, ({}, {}, {"action": "append"}, {"nargs": "*"}),
                             strict=True):
        add_param(built, param, **kwargs)
    by_hand = argparse.ArgumentParser(prog="by_hand")
    by_hand.add_argument("--force", action="store_true")
    by_hand.add_argument("-o", "--output", default="-", metavar="FILE")
    by_hand.add_argument("-m", action="append", dest="measures", metavar="M")
    by_hand.add_argument("inputs", nargs="*", metavar="FILE")
    for argv in ([], ["a", "b"], ["--force", "-o", "x", "-m", "AP", "-m", "P@5", "q", "r"]):
        assert vars(built.parse_args(argv)) == vars(by_hand.parse_args(argv)), argv
    assert "write to FILE (default: standard output)" in " ".join(built.format_help().split())


def test_a_command_declared_with_aliases_is_called_by_each_name():
    """``add_command(..., aliases=)`` registers the other names as argparse's
    ``add_parser(aliases=)`` does by hand (the oracle): each name runs the command with the
    same arguments; ``irscale meta dp`` is ``meta discriminative-power``."""
    import argparse

    from irscale.cli.main import build_parser
    from irscale.cli.options import add_command

    def run(args: argparse.Namespace) -> int:
        return 0

    built, by_hand = (argparse.ArgumentParser(prog="p") for _ in range(2))
    add_command(built.add_subparsers(dest="command"), "long-name", run, help="h",
                aliases=["ln"])
    hand = by_hand.add_subparsers(dest="command").add_parser("long-name", help="h",
                                                             aliases=["ln"])
    hand.set_defaults(func=run)
    for argv in (["long-name"], ["ln"]):
        assert vars(built.parse_args(argv)) == vars(by_hand.parse_args(argv)), argv
    parser = build_parser("meta")
    short, full = (parser.parse_args(["meta", name, "--scores", "s.csv"])
                   for name in ("dp", "discriminative-power"))
    assert {**vars(short), "_given": None} == {**vars(full), "meta_command": "dp",
                                               "_given": None}


def test_engine_panic_is_one_internal_error_line(monkeypatch, capsys):
    """A panic of the engine reaches Python as pyo3's ``PanicException`` (a
    ``BaseException``): the command line reports it as an internal error (status 3), one
    ``irscale:`` line, no traceback; ``SystemExit`` still passes through."""
    import irscale.cli.outputs as outputs
    from irscale.cli.main import main

    class PanicException(BaseException):
        """Stands for ``pyo3_runtime.PanicException`` (matched by its name)."""

    def panics(args, parser):
        raise PanicException("called `Result::unwrap()` on an `Err` value")

    monkeypatch.delenv("IRSCALE_DEBUG", raising=False)
    monkeypatch.setattr(outputs, "check_outputs", panics)
    assert main(["measures"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("irscale: internal error: PanicException: called"), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err


def _every_command() -> list[list[str]]:
    """The words of every (sub)command and action of the fully built parser, aliases too."""
    import argparse

    from irscale.cli.main import build_parser

    found: list[list[str]] = []

    def walk(parser: argparse.ArgumentParser, words: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.append([*words, name])
                    walk(sub, [*words, name])

    walk(build_parser(), [])
    return found


def test_a_command_line_builds_only_what_it_names_and_parses_as_the_whole_parser():
    """``main`` builds the parsers of the choices its command line names (the others by name
    and help only: :class:`irscale.cli.parser.Choices`); what it prints is the fully built
    parser's (the oracle, argparse with every parser made): the help of every command and
    action, a group without its action, an unknown action, a value before the action."""
    import contextlib
    import io

    from irscale.cli.main import build_parser, main

    whole = build_parser()

    def whole_says(argv: list[str]) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                args = whole.parse_args(argv)
                status = 0
                if getattr(args, "func", None) is not None and argv[-1] != "--help":
                    args.func(args)
            except SystemExit as exit_:
                status = int(exit_.code or 0)
            except Exception as error:  # the groups' "choose an action", argparse's errors
                return 2, "", str(error)
        return status, out.getvalue(), err.getvalue()

    cases = [*([*words, "--help"] for words in _every_command()),
             ["meta"], ["online"], ["online", "ab"], ["meta", "nosuch"],
             ["online", "ab", "nosuch"], ["pool", "value", "build"]]
    for argv in cases:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exit_:
                status = int(exit_.code or 0)
        expected_status, expected_out, expected_err = whole_says(argv)
        assert (status, out.getvalue()) == (expected_status, expected_out), argv
        assert expected_err.strip() in err.getvalue(), argv
        parser, words = build_parser(argv=argv), [arg for arg in argv if arg[0] != "-"]
        while parser is not None and parser._subparsers is not None:
            choices = parser._subparsers._group_actions[0].choices
            chosen = choices.get(words[0]) if words else None
            for sub in choices.values():  # another's parser: a group's, its actions unbuilt
                assert sub is None or sub is chosen or (sub._subparsers is not None and not any(
                    sub._subparsers._group_actions[0].choices.values())), argv
            parser, words = chosen, words[1:]

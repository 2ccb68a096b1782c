"""The shared vocabulary of the command line (``irscale.cli.options``, ``docs/cli.md``):
one list parser and the two kinds of ties."""

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

"""The backstop of rule 4 (``docs/errors.md``): inside one call, no output is written onto
a file the call has read, under any name, whatever ``force`` says
(:mod:`irscale.core.reads`); a later call may replace it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import irscale
from irscale.core import reads
from irscale.core.edge import public
from irscale.errors import OutputExistsError
from irscale.io.files import atomic_output, write_output
from irscale.io.sources import read_qrels

QRELS = "1 0 d1 1\n1 0 d2 0\n"


@pytest.fixture
def qrels(tmp_path: Path) -> Path:
    path = tmp_path / "q.txt"
    path.write_text(QRELS)
    return path


@public
def rewrite(source: str, target: str) -> None:
    """A public function that reads ``source`` and writes ``target`` (``force=True``)."""
    read_qrels(source)
    write_output(target, "1 0 d1 2\n", force=True)


@pytest.mark.parametrize("how", ["same", "dot-dot", "symlink", "hard-link"])
def test_a_call_never_replaces_a_file_it_read(qrels, tmp_path, how):
    """A public call (the edge opens its scope) that writes onto the file it read, under
    any name: refused, the file as it was, no staging file left."""
    target = {"same": str(qrels), "dot-dot": str(tmp_path / "sub" / ".." / "q.txt"),
              "symlink": str(tmp_path / "link"), "hard-link": str(tmp_path / "hard")}[how]
    (tmp_path / "sub").mkdir()
    if how == "symlink":
        os.symlink(qrels, target)
    elif how == "hard-link":
        os.link(qrels, target)
    with pytest.raises(OutputExistsError, match="an input is never replaced"):
        rewrite(str(qrels), target)
    assert qrels.read_text() == QRELS
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        {"q.txt", "sub", *([Path(target).name] if how in ("symlink", "hard-link") else [])})


def test_another_file_is_written(qrels, tmp_path):
    rewrite(str(qrels), str(tmp_path / "new.txt"))
    assert (tmp_path / "new.txt").read_text() == "1 0 d1 2\n"


def test_a_later_call_may_replace_it(qrels):
    """What one call read is forgotten when it ends: a session may write the file later."""
    irscale.read_qrels(str(qrels))
    write_output(str(qrels), "1 0 d1 2\n", force=True)
    assert qrels.read_text() == "1 0 d1 2\n"
    assert not reads._READ and not reads._CALLS


def test_calls_nest(qrels, tmp_path):
    """A call inside a call is the same call: the files stay noted until the outer ends."""
    with reads.call():
        irscale.read_qrels(str(qrels))  # a public call that ends inside the scope
        with pytest.raises(OutputExistsError):
            write_output(str(qrels), "x", force=True)
    write_output(str(tmp_path / "q.txt"), QRELS + "2 0 d1 1\n", force=True)


def test_a_descriptor_open_on_an_input_is_not_written(qrels):
    """``/dev/fd/N`` whose descriptor is open on a file the call read (``3>>q.txt``)."""
    descriptor = os.open(qrels, os.O_WRONLY | os.O_APPEND)
    try:
        with reads.call():
            read_qrels(str(qrels))
            with pytest.raises(OutputExistsError), \
                    atomic_output(f"/dev/fd/{descriptor}", "w") as stream:
                stream.write("appended\n")
    finally:
        os.close(descriptor)
    assert qrels.read_text() == QRELS


def test_pipes_and_devices_are_not_noted(tmp_path):
    """Only regular files are noted: a device read in a call can still be written."""
    with reads.call():
        reads.note(os.stat(os.devnull))
        assert not reads._READ
        write_output(os.devnull, "x")

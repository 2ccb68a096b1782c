"""docs/getting-started.md: its ``$ irscale ...`` commands run in order in a new folder
(``irscale demo`` first, writing the files the others read), each prints the lines the page
shows under it (an excerpt: ``...`` elides lines), and its Python example, run in that
folder afterwards, prints what it shows."""

from __future__ import annotations

import pytest

from .docs_examples import (
    check_python_examples,
    check_shown_outputs,
    run_shell_example,
    shown_outputs,
)
from .docs_numbers import blocks, read

PAGE = "getting-started.md"
CONSOLE = blocks(read(PAGE), "console")


@pytest.fixture(scope="module")
def folder_and_outputs(tmp_path_factory):
    """The page's commands, all blocks in order, in one new folder: the folder and the
    standard output of every command."""
    folder = tmp_path_factory.mktemp("getting-started")
    outputs: dict[str, str] = {}
    for shell in CONSOLE:
        outputs.update(run_shell_example(shell, folder))
    return folder, outputs


def test_the_page_runs_demo_eval_and_compare():
    commands = [command for shell in CONSOLE for command in shown_outputs(shell)]
    assert commands[0] == "irscale demo"
    assert {command.split()[1] for command in commands} == {"demo", "eval", "compare"}


@pytest.mark.parametrize("shell", CONSOLE)
def test_every_command_prints_the_lines_shown(shell, folder_and_outputs):
    _, outputs = folder_and_outputs
    check_shown_outputs(shell, outputs)


def test_the_python_example_prints_what_it_shows(folder_and_outputs, monkeypatch):
    folder, _ = folder_and_outputs
    monkeypatch.chdir(folder)
    check_python_examples(PAGE)

"""Running a documentation page's examples: each fenced ``python`` block is executed on its
own and must print exactly the ``# ...`` lines it shows (the lines after each ``print``; a
bare ``#``, an empty line);
the ``$ irscale ...`` commands of a shell block run in order in a folder of their own."""

from __future__ import annotations

import contextlib
import glob
import io
import os
import re
import shlex
import warnings
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def check_python_examples(page: str, section: str | None = None) -> None:
    """Run every ``python`` block of ``docs/<page>`` (of its ``## section`` only, when
    given: from that heading to the next of the same level) and compare its output with
    the page."""
    doc = DOCS / page
    text = doc.read_text()
    if section is not None:
        start = text.index(f"\n## {section}")
        end = text.find("\n## ", start + 1)
        text = text[start:] if end < 0 else text[start:end]
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, f"{page} has no python example" + (f" in {section!r}" if section else "")
    for code in blocks:
        shown = [line[2:] for line in code.splitlines()
                 if line.startswith("# ") or line == "#"]  # "#": an empty line printed
        out = io.StringIO()
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(code, str(doc), "exec"), {})
        assert out.getvalue().splitlines() == shown


def shell_commands(shell: str, prompt: str = "$ ") -> list[list[str]]:
    """The commands of a shell example, the lines that start with ``prompt`` (``""``: every
    line but comments; other lines are output), continuation lines joined, a trailing
    ``# comment`` and a ``> /dev/null`` dropped, as words."""
    commands, current = [], None
    for line in shell.splitlines():
        if current is None and line.startswith(prompt) and line.strip() \
                and not line.startswith("#"):
            current = [line[len(prompt):]]
        elif current is None:
            continue
        else:
            current.append(line)
        if not line.endswith("\\"):
            text = " ".join(part.rstrip("\\") for part in current).split(" #")[0]
            commands.append(shlex.split(text.replace("> /dev/null", "")))
            current = None
    return commands


def run_shell_example(shell: str, folder: Path, prompt: str = "$ ") -> dict[str, str]:
    """Run the example's ``irscale`` commands (:func:`shell_commands`) in ``folder``, in
    order (globs expanded there), with ``irscale.cli.main.main``; the standard output of
    each, by its command line."""
    from .test_cli_eval import cli

    outputs = {}
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        for words in shell_commands(shell, prompt):
            assert words[0] == "irscale", words
            args = [match for word in words[1:]
                    for match in (sorted(glob.glob(word)) if "*" in word else [word])]
            status, out, err = cli(args)
            assert status == 0, (words, err)
            outputs[" ".join(words)] = out
    finally:
        os.chdir(cwd)
    return outputs


def shown_outputs(shell: str) -> dict[str, list[str]]:
    """The lines a page shows after each command of a console block (``...`` dropped),
    by the command's words joined as :func:`run_shell_example` keys its outputs."""
    shown: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in shell.splitlines():
        if line.startswith("$ "):
            words = shlex.split(line[2:].replace("> /dev/null", ""))
            lines = shown.setdefault(" ".join(words), [])
        elif line != "...":
            lines.append(line)
    return shown


def check_shown_outputs(shell: str, outputs: dict[str, str]) -> None:
    """Every command of a console block printed (``outputs``: :func:`run_shell_example`'s)
    the lines shown under it: an excerpt, every line shown printed, in the order shown."""
    for command, shown in shown_outputs(shell).items():
        printed = outputs[command].splitlines()
        for line in shown:
            assert line in printed, (command, line)
        positions = [printed.index(line) for line in shown]
        assert positions == sorted(positions), command

"""The README's commands: its test command is the one CI runs (``.ci/run``)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_s_test_command_is_ci_s():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install_and_test = next(line for line in readme.splitlines()
                            if line.startswith('pip install -e ".[test]" && '))
    command = install_and_test.split(" && ", 1)[1]
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.lstrip().startswith("#")]
    assert command.startswith("python -m pytest") and " -n auto" in command
    assert ci[-1] == command
    assert 'python -m pip install -q -e ".[test]"' in ci

"""The README's commands: its test command is the one CI runs (``.ci/run``), before the
suite on the declared minimums (``.ci/minimums``)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_s_test_command_is_ci_s():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install_and_test = next(line for line in readme.splitlines()
                            if line.startswith('pip install -e ".[test]" && '))
    install, *oracles, command = install_and_test.split(" && ")
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.lstrip().startswith("#")]
    assert command.startswith("python -m pytest") and " -n auto" in command
    assert command in ci
    # the first route without Rust: the wheel built, installed where no cargo is, and run
    assert "bash .ci/wheel" in ci
    assert ci[-1] == "bash .ci/minimums" and ci.index(command) < ci.index(ci[-1])
    assert install == 'pip install -e ".[test]"'
    assert f"python -m {install.replace('install', 'install -q', 1)}" in ci
    # the oracles installed apart (crowd-kit with --no-deps), as CI installs them
    assert [f"python -m {o.replace('install', 'install -q', 1)}" for o in oracles] == [
        line for line in ci if line.startswith("python -m pip install") and "[test]" not in line]

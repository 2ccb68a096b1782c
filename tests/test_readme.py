"""The README's commands: its test command is the one CI runs (``.ci/run``), before the
smoke subset on the declared minimums (``.ci/minimums``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_s_test_command_is_ci_s():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install_and_test = next(line for line in readme.splitlines()
                            if line.startswith('pip install -e ".[test]" && '))
    install, *oracles, command = install_and_test.split(" && ")
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.lstrip().startswith("#")
          and not line.startswith("phase ")]  # (each phase's time, printed after it)
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


def _check_toolchain(tmp_path, cargo=None, **env):
    """rust/check-toolchain.sh where PATH holds only ``tmp_path`` (a stub cargo printing
    ``cargo`` if given): no Rust, no network, nothing installed."""
    if cargo is not None:
        stub = tmp_path / "cargo"
        stub.write_text(f"#!{shutil.which('sh')}\necho '{cargo}'\n")
        stub.chmod(0o755)
    return subprocess.run([shutil.which("sh"), str(ROOT / "rust" / "check-toolchain.sh")],
                          env={"PATH": str(tmp_path), **env}, capture_output=True, text=True,
                          cwd=ROOT)


def test_the_first_command_checks_the_toolchain_before_pip():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = next(line for line in readme.splitlines() if line.startswith("python -m venv "))
    steps = first.split(" && ")
    assert steps[steps.index("pip install .") - 1] == "sh rust/check-toolchain.sh"


def test_without_cargo_the_check_says_what_maturin_downloads(tmp_path):
    said = _check_toolchain(tmp_path)
    assert said.returncode == 0 and said.stderr == ""
    # the size the README measured (its Installing section) and the folder it stays in
    size = re.search(r"(\d+) MB on disk", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert size is not None and f"about {size[1]} MB" in said.stdout
    assert said.stdout.startswith("irscale: no cargo on PATH")
    assert "~/.cache/puccinialin" in said.stdout and "MATURIN_NO_INSTALL_RUST=1" in said.stdout


def test_without_cargo_and_with_the_download_refused_the_check_stops(tmp_path):
    said = _check_toolchain(tmp_path, MATURIN_NO_INSTALL_RUST="1")
    assert said.returncode == 1 and said.stdout == ""
    assert said.stderr.startswith("irscale: no cargo on PATH and MATURIN_NO_INSTALL_RUST is set")


def test_with_cargo_the_check_names_it(tmp_path):
    said = _check_toolchain(tmp_path, cargo="cargo 1.85.0 (stub)")
    assert said.returncode == 0
    assert said.stdout.startswith("irscale: compiling the engine with cargo 1.85.0 (stub)")
    # how long, as the README measured it, and how to see the compilation as it goes
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    took = re.search(r"The engine compiles in about ([\d.]+) minutes of CPU time", readme)
    shown = " ".join(said.stdout.split())
    assert took is not None and f"about {took[1]} minutes of CPU time" in shown
    assert "still running" in shown and "pip install -v . shows cargo's progress" in shown


def test_the_check_s_cases_are_maturin_s(tmp_path):
    """The oracle: maturin's build backend asks for puccinialin (its Rust download) exactly
    where the check says a toolchain will be downloaded."""
    pytest.importorskip("maturin")
    probe = "import maturin; print('puccinialin' in maturin.get_requires_for_build_wheel())"
    for case, cargo, env in [("none", None, {}),
                             ("refused", None, {"MATURIN_NO_INSTALL_RUST": "1"}),
                             ("cargo", "cargo 1.85.0 (stub)", {})]:
        folder = tmp_path / case
        folder.mkdir()
        said = _check_toolchain(folder, cargo, **env)
        asked = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                               env={"PATH": str(folder), **env}, cwd=ROOT)
        assert asked.returncode == 0, asked.stderr
        downloads = said.stdout.startswith("irscale: no cargo on PATH:")
        assert asked.stdout.strip() == str(downloads), case

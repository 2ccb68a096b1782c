"""SIGTERM stops the suite: a pytest process whose tests ran irscale's command line in
process (which installs irscale's handlers of ^C, SIGTERM and SIGHUP, and, on the console
script's path, leaves them ignored when the command is done) ends within seconds of a
SIGTERM, as pytest does by default (``tests/conftest.py``: ``signal_handlers_restored``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from .conftest import REPO

#: Seconds the inner suite may take to start and reach its waiting test, and to end after
#: the SIGTERM (a process that ignores it would wait for its whole sleep, 120 s).
START_LIMIT = 120.0
STOP_LIMIT = 20.0

#: The inner suite: the console script's path run in process, then a test that waits.
INNER = textwrap.dedent('''
    import sys
    import time
    from pathlib import Path

    from irscale.cli.main import main


    def test_console_script_in_process(monkeypatch, capsys):
        monkeypatch.setattr(sys, "argv", ["irscale", "--version"])
        try:
            main()
        except SystemExit:
            pass


    def test_waits_for_the_signal():
        Path("waiting").write_text("")
        time.sleep(120)
''')


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")
def test_sigterm_stops_a_suite_that_ran_the_command_line(tmp_path: Path):
    (tmp_path / "test_inner.py").write_text(INNER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO / "src"), str(REPO), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-p", "tests.conftest", "--rootdir", str(tmp_path), str(tmp_path / "test_inner.py")],
        cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_LIMIT
        while not (tmp_path / "waiting").exists():
            assert proc.poll() is None, proc.communicate()[0].decode(errors="replace")
            assert time.monotonic() < deadline, f"the inner suite did not start in " \
                                                f"{START_LIMIT:g} s"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=STOP_LIMIT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the suite still runs {STOP_LIMIT:g} s after SIGTERM")
        assert proc.returncode == -signal.SIGTERM, proc.communicate()[0].decode(
            errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()

"""The command line's memory settings (:mod:`irscale.cli.allocator`): in effect after the
call (a 20 MB array is no longer mapped on its own, a 40 MB one still is; transparent huge
pages off), made by the ``irscale`` process when ``IRSCALE_TUNE_MEMORY=1`` asks for them,
and never by a program that calls :func:`irscale.cli.main.main`."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import textwrap

import pytest


def _has_mallinfo2() -> bool:
    import ctypes

    try:
        return hasattr(ctypes.CDLL(None), "mallinfo2")
    except OSError:
        return False


linux = pytest.mark.skipif(platform.system() != "Linux", reason="prctl is Linux's")
glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc" or not _has_mallinfo2(),
                           reason="mallopt and mallinfo2 are glibc's (2.33 and later)")


def _python(code: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@glibc
def test_arrays_below_the_threshold_come_from_the_heap():
    out = _python("""
        import ctypes
        import numpy as np
        from irscale.cli.allocator import keep_freed_memory

        class Info(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in (
                "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                "uordblks", "fordblks", "keepcost")]

        mallinfo2 = ctypes.CDLL(None).mallinfo2
        mallinfo2.restype = Info

        def mapped_for(size):  # chunks malloc maps for an array of `size` bytes
            before = mallinfo2().hblks
            array = np.ones(size, np.uint8)
            return mallinfo2().hblks - before, array

        default, first = mapped_for(20 << 20)
        del first
        accepted = keep_freed_memory()
        tuned, _ = mapped_for(20 << 20)
        large, _ = mapped_for(40 << 20)
        print(accepted, default, tuned, large)
    """)
    assert out.split() == ["True", "1", "0", "1"]


@glibc
@pytest.mark.parametrize("setting, low, high", [("tuned", 0, 1), ("thresholds", 10, 21)])
def test_memory_a_thread_freed_is_reused_by_another(setting, low, high):
    """One heap for every thread: an array freed by a thread that has ended is reused by the
    main thread (the heap grows by less than 1 MiB); with a heap per thread (the thresholds
    alone) the main heap grows by the array's 20 MiB, less what it had free at its top
    (which depends on what was imported before: most of the array all the same)."""
    out = _python("""
        import ctypes, sys, threading
        import numpy as np
        from irscale.cli.allocator import MMAP_THRESHOLD, TRIM_THRESHOLD, keep_freed_memory

        class Info(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in (
                "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                "uordblks", "fordblks", "keepcost")]

        library = ctypes.CDLL(None)
        library.mallinfo2.restype = Info
        if sys.argv[1] == "tuned":
            keep_freed_memory()
        else:  # the thresholds alone
            library.mallopt(-3, MMAP_THRESHOLD), library.mallopt(-1, TRIM_THRESHOLD)

        def work():
            array = np.ones(20 << 20, np.uint8)
            del array

        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        before = library.mallinfo2().arena
        array = np.ones(20 << 20, np.uint8)
        print((library.mallinfo2().arena - before) / 2**20)
    """, setting)
    assert low <= float(out) < high


@pytest.mark.parametrize("asked", ["1", "0", None])
def test_only_the_command_lines_own_process_is_tuned_when_asked(tmp_path, asked):
    env = {k: v for k, v in os.environ.items() if k != "IRSCALE_TUNE_MEMORY"}
    if asked is not None:
        env["IRSCALE_TUNE_MEMORY"] = asked
    tuned = "tuned\n" if asked == "1" else ""
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("1 0 d1 1\n")
    run.write_text("1 Q0 d1 1 2.5 x\n")
    patched = """
        import sys
        import irscale.cli.allocator as allocator
        allocator.tune_memory = lambda: print("tuned", file=sys.stderr)
        from irscale.cli.main import main
    """
    as_script = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(patched) + "sys.exit(main())", "eval", "-m", "map",
         str(qrels), str(run)], capture_output=True, text=True, timeout=120, env=env)
    assert as_script.returncode == 0, as_script.stderr
    assert as_script.stderr == tuned
    assert as_script.stdout == "map                   \tall\t1.0000\n"
    called = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(patched)
         + f"sys.exit(main(['eval', '-m', 'map', {str(qrels)!r}, {str(run)!r}]))"],
        capture_output=True, text=True, timeout=120, env=env)
    assert called.returncode == 0, called.stderr
    assert called.stderr == ""
    # refused arguments never reach the tuning
    refused = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(patched) + "sys.exit(main())", "eval", "--nosuch"],
        capture_output=True, text=True, timeout=120, env=env)
    assert refused.returncode == 2 and "tuned" not in refused.stderr


@linux
def test_huge_pages_are_turned_off_for_the_process_and_its_children():
    out = _python("""
        import ctypes
        import subprocess
        from irscale.cli.allocator import no_huge_pages

        PR_GET_THP_DISABLE = 42
        accepted = no_huge_pages()
        after = ctypes.CDLL(None).prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0)
        child = subprocess.run(["cat", "/proc/self/status"], capture_output=True, text=True)
        enabled = [line.split()[1] for line in child.stdout.splitlines()
                   if line.startswith("THP_enabled:")]
        print(accepted, after, *enabled)
    """)
    # (the setting may have been inherited already); THP_enabled is in /proc/PID/status
    # since Linux 5.0
    assert out.split()[:2] == ["True", "1"] and out.split()[2:] in ([], ["0"])


def test_without_mallopt_or_prctl_nothing_is_set(monkeypatch):
    import ctypes

    from irscale.cli import allocator

    class NoMallopt:
        def __init__(self, name):
            pass

        def __getattr__(self, name):
            raise AttributeError(name)

    monkeypatch.setattr(ctypes, "CDLL", NoMallopt)
    assert allocator.keep_freed_memory() is False
    assert allocator.no_huge_pages() is False
    allocator.tune_memory()  # neither setting: nothing raised


@pytest.mark.parametrize("accepted, result, calls", [
    ((-3, -1, -8), True, [-3, -1, -8]),
    ((-3, -1), False, [-3, -1, -8]),  # one heap refused
    ((-1, -8), False, [-3]),  # a map threshold refused: the trim threshold is left alone
])
def test_both_thresholds_or_neither(monkeypatch, accepted, result, calls):
    import ctypes

    from irscale.cli import allocator

    made = []

    class Mallopt:
        def __call__(self, parameter, value):
            made.append(parameter)
            return int(parameter in accepted)

    class Library:
        def __init__(self, name):
            self.mallopt = Mallopt()

    monkeypatch.setattr(ctypes, "CDLL", Library)
    assert allocator.keep_freed_memory() is result
    assert made == calls

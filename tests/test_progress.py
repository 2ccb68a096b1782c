"""One progress mechanism: irscale.core.progress's bar and reporter, used by
the resampling tests, the scale images, the report and the reading of many run files, and
``--no-progress`` on every command that does long work (a bar on a terminal, plain lines
elsewhere: their interval is tested with an injected clock, never with real time)."""

from __future__ import annotations

import importlib
import sys
import time

import pytest

import irscale.core.progress as progress_module
import irscale.evaluation.many
from irscale.cli.main import build_parser, main
from irscale.core.params import RESAMPLES
from irscale.core.progress import (
    Progress,
    Span,
    check_progress,
    measured_estimate,
    notice,
    phase_progress,
    progress_callback,
    progress_reporter,
)
from irscale.errors import ParameterError
from irscale.report.build import STEP_UNITS

from .report_data import write_collection


def test_callable_sees_the_whole_runs_count():
    seen: list[tuple[int, int]] = []
    report = progress_reporter(lambda d, t: seen.append((d, t)), 10, offset=10, overall=30)
    for done in (3, 10):
        report(done)
    assert seen == [(13, 30), (20, 30)]
    phase = phase_progress(lambda d, t: seen.append((d, t)), 2, 3)
    assert callable(phase)
    phase(5, 5)
    assert seen[-1] == (15, 15)


def test_true_draws_a_labelled_bar_and_ends_the_line(capsys, monkeypatch):
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    report = progress_reporter(True, 4, "resampling")
    for done in range(1, 5):
        report(done)
    err = capsys.readouterr().err
    assert err.startswith("\rresampling [") and "100.0%" in err and err.endswith("\n")


def test_short_work_is_silent_and_the_environment_silences_all(capsys, monkeypatch):
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    bar = Progress(3, "image")  # the default delay: work shorter than a second says nothing
    bar.update(3)
    bar.close()
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("IRSCALE_NO_PROGRESS", "1")
    report = progress_reporter(True, 2, "resampling")
    report(1)
    report(2)
    assert capsys.readouterr().err == ""


class FakeClock:
    """Seconds set by the test: ``clock.now = 31``."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_every_30_s_and_10_percent_whichever_is_rarer(capsys, monkeypatch):
    """Off a terminal: a line once 30 s have passed since the last one and the work has
    advanced 10% (the first needs no step; after 5 min one comes whatever the step), then
    a last line at the end; no carriage return, no escape code."""
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    clock = FakeClock()
    meter = Progress(100, "resampling", clock=clock, plain=True, delay=1.0)
    for now, done, line in [
        (0.5, 1, None),                    # within the delay
        (10, 5, None),                     # under 30 s
        (31, 6, "6% done, 31 s elapsed, about 8 min 6 s left"),
        (70, 10, None),                    # 39 s later but 4% more
        (80, 17, "17% done, 1 min 20 s elapsed, about 6 min 31 s left"),
        (100, 40, None),                   # 23% more but 20 s later
        (400, 41, "41% done, 6 min 40 s elapsed, about 9 min 36 s left"),  # quiet 5 min
        (401, 100, "done in 6 min 41 s"),
    ]:
        clock.now = now
        meter.set(done)
        assert capsys.readouterr().err == ("" if line is None else
                                           f"irscale: resampling: {line}\n"), now
    meter.close()
    assert capsys.readouterr().err == ""


def _wait_for(predicate, seconds: float = 20.0) -> bool:
    """Poll ``predicate`` until it holds (never a timing assertion: only a bound on a hang)."""
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def test_a_step_that_reports_nothing_still_prints_plain_lines(capsys, monkeypatch):
    """Off a terminal, a long step with no update gets a ``still working`` line every
    30 s (here the background thread wakes every 10 ms and reads the fake clock); the lines
    stop when the work advances past them, ends, or is dropped."""
    import gc
    import threading

    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    clock = FakeClock()
    meter = Progress(10, "report", clock=clock, plain=True, delay=1.0, heartbeat=0.01)
    meter.set(1)  # at 0 s: within the delay, nothing
    clock.now = 45.0
    seen = []
    assert _wait_for(lambda: seen.append(capsys.readouterr().err) or "".join(seen))
    assert "".join(seen) == "irscale: report: 10% done, 45 s elapsed, still working\n"
    clock.now = 50.0
    meter.set(2)  # 5 s after the last line: no line
    assert capsys.readouterr().err == ""
    clock.now = 80.0
    seen.clear()
    assert _wait_for(lambda: seen.append(capsys.readouterr().err) or "".join(seen))
    assert "".join(seen) == "irscale: report: 20% done, 1 min 20 s elapsed, still working\n"
    meter.set(10)
    meter.close()
    clock.now = 500.0
    assert _wait_for(lambda: not any(t.name == "irscale progress report"
                                     for t in threading.enumerate()))
    assert "still working" not in capsys.readouterr().err
    dropped = Progress(10, "dropped", clock=clock, plain=True, delay=0.0, heartbeat=0.01)
    dropped.set(1)
    del dropped
    gc.collect()
    assert _wait_for(lambda: not any(t.name == "irscale progress dropped"
                                     for t in threading.enumerate()))


def test_a_span_speaks_only_when_every_bar_is_silent(capsys, monkeypatch):
    """A command's span (the report's reading, imports and figures) writes a plain line
    when 30 s pass without any progress line or estimate, its own included, and ``done
    in`` at the end when it wrote one. Its looks are made here on a fake clock (its thread
    waits an hour between two)."""
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    clock = FakeClock()
    span = Span("report", clock=clock, plain=True, heartbeat=3600.0)
    looks = {29.0: "", 31.0: "irscale: report: 31 s elapsed, still working\n",
             45.0: "", 60.0: "", 70.0: "", 76.0: "irscale: report: 1 min 16 s elapsed, "
             "still working\n", 100.0: "", 106.0: "irscale: report: 1 min 46 s elapsed, "
             "still working\n"}
    for now, expected in looks.items():
        clock.now = now
        if now == 45.0:  # another bar's line (an estimate): silence counts from it
            notice("resampling: 9 more samples at 1 s each (measured), about 9 s")
            capsys.readouterr()
        assert span._beat() and capsys.readouterr().err == expected, now
    clock.now = 107.0
    span.set(1)
    span.close()
    assert not span._beat()
    assert capsys.readouterr().err == "irscale: report: done in 1 min 47 s\n"


@pytest.mark.parametrize("options", [{"plain": False}, {"plain": True, "enabled": False}])
def test_a_span_is_silent_on_a_terminal_and_when_disabled(options, capsys, monkeypatch):
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    clock = FakeClock()
    span = Span("report", clock=clock, heartbeat=3600.0, **options)
    clock.now = 1000.0
    assert not span._beat()
    span.set(1)
    span.close()
    assert capsys.readouterr().err == ""


class Stepping:
    """A clock that moves 40 s at every reading: every look of a span finds 30 s of
    silence."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 40.0
        return self.now


def test_the_report_is_spanned_from_its_reading_to_its_page(tmp_path, capsys, monkeypatch):
    """``irscale report`` off a terminal: its span looks every 10 ms here, on a clock that
    makes every look find 30 s of silence, from before the inputs are read to after the
    page is written: plain lines (no carriage return), ``done in`` last; none with
    ``--no-progress``."""
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    monkeypatch.setitem(Span.__init__.__kwdefaults__, "heartbeat", 0.01)
    monkeypatch.setitem(Span.__init__.__kwdefaults__, "clock", Stepping())
    qrels, runs = write_collection(tmp_path)
    argv = ["report", str(qrels), *map(str, runs), "-m", "map", "--no-robustness"]
    assert main([*argv, "-o", str(tmp_path / "a.html")]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("irscale: report: ")]
    assert lines[-1].startswith("irscale: report: done in ") and len(lines) > 1, err
    assert all(line.endswith(" elapsed, still working") for line in lines[:-1]), err
    assert "\r" not in err
    assert main([*argv, "-o", str(tmp_path / "b.html"), "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_plain_work_shorter_than_the_interval_and_silenced_work_say_nothing(capsys,
                                                                           monkeypatch):
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    clock = FakeClock()
    meter = Progress(10, "image", clock=clock, plain=True, delay=0.0)
    for step in range(1, 11):
        clock.now = 2.9 * step
        meter.set(step)
    meter.close()
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("IRSCALE_NO_PROGRESS", "1")
    meter = Progress(10, "image", clock=clock, plain=True, delay=0.0)
    clock.now += 1000
    meter.set(5)
    assert capsys.readouterr().err == ""


def test_the_mode_follows_standard_error(monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert Progress(3, "x").plain
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert not Progress(3, "x").plain


def test_bad_progress_values_are_refused():
    assert check_progress(None) is False
    with pytest.raises(ParameterError, match="progress must be"):
        check_progress("yes")


@pytest.mark.parametrize("command", [
    ["eval"], ["compare"], ["meta", "dp"], ["meta", "correlate"], ["meta", "split"],
    ["meta", "scales"], ["scale", "image"], ["scale", "transform"], ["report"],
])
def test_long_commands_take_no_progress(command):
    parser = build_parser(command[0])
    sub = parser._subparsers._group_actions[0].choices[command[0]]  # type: ignore[union-attr]
    if len(command) > 1:
        sub = sub._subparsers._group_actions[0].choices[command[1]]  # type: ignore[union-attr]
    assert any("--no-progress" in action.option_strings for action in sub._actions), command


def test_reading_many_runs_shows_a_bar_on_a_terminal_only(tmp_path, capsys, monkeypatch):
    """Off a terminal the runs are read after the qrels, by the evaluation, without a bar
    (so that the qrels' errors come first)."""
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    qrels, runs = write_collection(tmp_path)
    monkeypatch.setattr(progress_module, "DELAY", 0.0)  # io.sources reads it when called
    monkeypatch.setattr(progress_module, "PLAIN_INTERVAL", 0.0)
    argv = ["eval", "-m", "map", str(qrels), *map(str, runs)]
    assert main(argv) == 0
    plain = capsys.readouterr()
    assert "reading runs" not in plain.err  # not a terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(argv) == 0
    shown = capsys.readouterr()
    assert "reading runs [" in shown.err and shown.out == plain.out
    assert main([*argv, "--no-progress"]) == 0
    assert "reading runs" not in capsys.readouterr().err


def test_evaluating_many_runs_prints_plain_lines_off_a_terminal(tmp_path, capsys,
                                                                monkeypatch):
    """Off a terminal the same work prints plain lines (here with no delay and no
    interval, so that they appear whatever the time taken); --no-progress silences them."""
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    qrels, runs = write_collection(tmp_path)
    monkeypatch.setattr(irscale.evaluation.many, "DELAY", 0.0)
    argv = ["eval-many", "-m", "map", "--batch-size", "1", str(qrels), *map(str, runs)]
    assert main(argv) == 0
    quiet = capsys.readouterr()
    assert "evaluating runs" not in quiet.err  # nothing within 30 s
    monkeypatch.setattr(progress_module, "PLAIN_INTERVAL", 0.0)
    assert main(argv) == 0
    plain = capsys.readouterr()
    lines = [line for line in plain.err.splitlines() if "evaluating runs" in line]
    assert lines and all(line.startswith("irscale: evaluating runs: ") for line in lines)
    assert lines[-1].startswith("irscale: evaluating runs: done in ")
    assert "\r" not in plain.err and "\x1b" not in plain.err and plain.out == quiet.out
    assert main([*argv, "--no-progress"]) == 0
    assert "evaluating runs" not in capsys.readouterr().err


def test_the_estimate_of_long_declared_work_is_printed_off_a_terminal(capsys, monkeypatch):
    """A small image declared long (any estimate counts as long here): the estimate line
    reaches a standard error that is not a terminal, and --no-progress silences it."""
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    monkeypatch.setattr(importlib.import_module("irscale.scales.cost"), "NOTICE_SECONDS", 0.0)
    argv = ["scale", "image", "-m", "nDCG@5", "-N", "5"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert err.startswith("irscale: estimate for nDCG@5 on REL^5") and "\r" not in err
    assert main([*argv, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_report_build_steps_to_the_end(tmp_path):
    from irscale.report import build_report

    qrels, runs = write_collection(tmp_path)
    seen: list[tuple[int, int]] = []
    build_report(qrels, runs, ["map", "P_10"], baseline="bm25",
                 progress=lambda d, t: seen.append((d, t)))
    assert seen[-1][0] == seen[-1][1] == (1 + 2 * 2) * STEP_UNITS
    assert [d for d, _ in seen] == [STEP_UNITS * k for k in range(1, len(seen) + 1)]


def test_report_discriminative_power_advances_within_its_step(tmp_path):
    """``--dp``'s resampling, the longest step by far with a large -B, moves the report's
    progress forward within its step (it stood still until the step ended)."""
    from irscale.report import build_report

    qrels, runs = write_collection(tmp_path)
    seen: list[tuple[int, int]] = []
    build_report(qrels, runs, ["map"], dp=True, dp_samples=5000, robustness=False,
                 progress=lambda d, t: seen.append((d, t)))
    done = [d for d, _ in seen]
    total = (1 + 1 + 1) * STEP_UNITS
    assert done == sorted(done) and done[-1] == total and {t for _, t in seen} == {total}
    assert len([d for d in done if 2 * STEP_UNITS < d < total]) > 2


def test_the_passes_of_one_run_share_one_bar(monkeypatch):
    """``progress=True`` split into passes (the groups of a family, the two passes of the
    bootstrap): one bar, one clock, not a bar made again at every step (whose clock never
    reached the 30 s of a first plain line)."""
    made: list[Progress] = []

    class Counted(Progress):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(progress_module, "Progress", Counted)
    monkeypatch.setenv("IRSCALE_NO_PROGRESS", "1")
    shared = progress_callback(True)
    for index in range(3):
        phase = phase_progress(shared, index, 3)
        for done in (1, 5, 10):
            phase(done, 10)
    assert len(made) == 1 and made[0].total == 30 and made[0].done == 30


class Seconds:
    """A clock of the test: ``clock.now = 1.5``."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("elsewhere", [False, True])
def test_the_rest_is_stated_after_a_second_of_work_past_the_first_advance(
        elsewhere, capsys, monkeypatch):
    """``units``: the time of the rest, at the seconds per unit of the work after the first
    advance (the set-up and the threads' start left out) once a second of it is done;
    CPU time of this process, or the clock for work done elsewhere (a Dask cluster)."""
    monkeypatch.setenv("IRSCALE_NO_PROGRESS", "1")  # (the bar; the statement is forced)
    monkeypatch.setattr(progress_module, "notice",
                        lambda text, **_: sys.stderr.write(f"irscale: {text}\n"))
    cpu, wall = Seconds(), Seconds()
    monkeypatch.setattr(progress_module.time, "process_time", cpu)
    monkeypatch.setattr(progress_module.time, "monotonic", wall)
    measured, other = (wall, cpu) if elsewhere else (cpu, wall)
    report = progress_reporter(True, 1_000_000, units=RESAMPLES, elsewhere=elsewhere)
    for seconds, done in [(0.4, 1024), (0.9, 2048), (1.3, 3072)]:
        measured.now, other.now = seconds, 100 * seconds  # (the other clock is not read)
        report(done)
        assert capsys.readouterr().err == "", seconds
    measured.now = 1.5  # 1.1 s for 3,072 samples after the first 1,024
    report(4096)
    left, each = 1_000_000 - 4096, 1.1 / 3072  # 358.07 µs
    assert capsys.readouterr().err == (
        f"irscale: resampling: {left:,} more samples (-B/--samples) at 358 µs each "
        f"(measured), about {each * left / 60:.0f} min\n")
    measured.now = 3.0
    report(8192)
    assert capsys.readouterr().err == ""  # stated once


def test_one_call_is_stated_from_a_probe_scaled_as_its_cost_grows(capsys, monkeypatch):
    """A computation that reports no progress (one solve) is timed on a probe and scaled:
    stated, naming the option whose declared cost sizes it, when the estimate exceeds the
    notice threshold; silent below it."""
    from irscale.core.params import LOG_SERP, RNG_SEED

    monkeypatch.setattr(progress_module, "notice",
                        lambda text, **_: sys.stderr.write(f"irscale: {text}\n"))
    cpu = Seconds()
    monkeypatch.setattr(progress_module.time, "process_time", cpu)

    def probe() -> None:
        cpu.now += 0.002  # 2 ms on the probe

    assert measured_estimate(LOG_SERP, "the solve", probe, 1000.0, "on 10 ranks") == \
        pytest.approx(2.0)
    assert capsys.readouterr().err == ""
    seconds = measured_estimate(LOG_SERP, "the solve", probe, 30_000.0, "on 10 ranks")
    assert seconds == pytest.approx(60.0)
    assert capsys.readouterr().err == \
        "irscale: the solve (--serp-size): about 60 s (on 10 ranks)\n"
    with pytest.raises(ValueError, match="declares no cost"):
        measured_estimate(RNG_SEED, "x", probe, 1.0, "")


def test_a_long_first_advance_states_the_rest_at_once(capsys, monkeypatch):
    """A first advance after more than a second (a large matrix): the statement comes with
    it, the set-up counted in."""
    monkeypatch.setenv("IRSCALE_NO_PROGRESS", "1")
    monkeypatch.setattr(progress_module, "notice",
                        lambda text, **_: sys.stderr.write(f"irscale: {text}\n"))
    cpu = Seconds()
    monkeypatch.setattr(progress_module.time, "process_time", cpu)
    report = progress_callback(True, "the bootstrap", units=RESAMPLES)
    cpu.now = 8.0
    report(1000, 3000)
    assert capsys.readouterr().err == ("irscale: the bootstrap: 2,000 more samples "
                                       "(-B/--samples) at 8 ms each (measured), about 16 s\n")


@pytest.mark.parametrize("argv", [
    ["meta", "swap", "--sizes", "2,3", "--repetitions", "20", "--seed", "1", "--test", "t"],
    ["meta", "dp", "-B", "20", "--seed", "1", "--seeds", "3"],
])
def test_meta_swap_with_a_test_and_dp_seeds_report_progress(argv, tmp_path, capsys,
                                                             monkeypatch):
    """meta swap --test and meta dp --seeds ran their long work without a progress count
    (an hour without a line): off a terminal they print plain lines (here with no
    interval, so that they appear whatever the time taken); --no-progress silences them."""
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    scores = tmp_path / "ap.csv"
    scores.write_text("a,b,c\n" + "".join(f"{t / 10:.1f},{(t * 7 % 10) / 10:.1f},"
                                          f"{(t * 3 % 10) / 10:.1f}\n" for t in range(10)))
    monkeypatch.setattr(progress_module, "PLAIN_INTERVAL", 0.0)
    full = [*argv, "--scores", str(scores)]
    assert main(full) == 0
    assert "% done" in capsys.readouterr().err
    assert main([*full, "--no-progress"]) == 0
    assert "% done" not in capsys.readouterr().err


@pytest.mark.parametrize(("seconds", "text"), [
    (5.1e-7, "510 ns"), (1.234e-8, "12.3 ns"), (4e-10, "0.4 ns"), (2.53e-5, "25.3 µs"),
    (9.996e-5, "100 µs"), (9.994e-4, "999 µs"), (9.997e-4, "1 ms"), (0.008, "8 ms"),
    (0.18, "180 ms"), (1.8, "1.8 s"), (1234.0, "1,230 s"),
])
def test_a_unit_of_work_is_timed_in_a_unit_that_fits(seconds, text):
    """The time of a unit of work (the rest's statement) to three significant digits in
    ns, µs, ms or s, the number from 1 to 999 (it was ``0.00051 ms``)."""
    assert progress_module.time_text(seconds) == text


def test_a_task_in_a_thread_stops_at_its_next_check_once_given_up():
    """A task still running in another thread when its caller gives up (^C, SIGTERM, a
    failed task) stops at its next :func:`check_stop` instead of running to its end
    (``meta dp`` went on with the chunks under way for seconds after ^C)."""
    import threading

    from irscale.core.progress import Stopped, check_stop
    from irscale.parallel import run_tasks

    started, ended = threading.Event(), threading.Event()
    steps: dict[str, int | None] = {}

    def task(index: int) -> None:
        if index == 0:
            started.wait(10)
            raise RuntimeError("the first task fails: the caller gives up")
        started.set()
        try:
            for step in range(2000):  # 10 s at most
                try:
                    check_stop()
                except Stopped:
                    steps["stopped at"] = step
                    raise
                time.sleep(0.005)
            steps["stopped at"] = None
        finally:
            ended.set()

    with pytest.raises(RuntimeError, match="caller gives up"):
        run_tasks(task, [(0,), (1,)], lambda index, result: None, workers=2)
    assert ended.wait(60)
    assert steps["stopped at"] is not None, "the task ran to its end"
    check_stop()  # (this thread runs for no abandoned work)

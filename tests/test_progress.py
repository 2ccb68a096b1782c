"""One progress mechanism (issue 15 §5): irscale.core.progress's bar and reporter, used by
the resampling tests, the scale images, the report and the reading of many run files, and
``--no-progress`` on every command that does long work (bars only on a terminal)."""

from __future__ import annotations

import sys

import pytest

import irscale.io.trec
from irscale.cli.main import build_parser, main
from irscale.core.progress import Progress, check_progress, phase_progress, progress_reporter
from irscale.errors import ParameterError

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
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    qrels, runs = write_collection(tmp_path)
    monkeypatch.setattr(irscale.io.trec, "DELAY", 0.0)
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


def test_report_build_steps_to_the_end(tmp_path):
    from irscale.report import build_report

    qrels, runs = write_collection(tmp_path)
    seen: list[tuple[int, int]] = []
    build_report(qrels, runs, ["map", "P_10"], baseline="bm25",
                 progress=lambda d, t: seen.append((d, t)))
    assert seen[-1][0] == seen[-1][1] == 1 + 2 * 2
    assert [d for d, _ in seen] == list(range(1, len(seen) + 1))

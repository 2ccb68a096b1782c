"""Every option that scales work, of every subcommand, set to 10^6 times its usual value
(``docs/errors.md`` §7): the call finishes, or refuses up front with one ``irscale:``
line, or prints its estimate before the work (then shows progress). The sweep never runs
the work: a call is stopped (as by ^C) as soon as it prints an estimate.

The options are found by walking the real parsers (:func:`irscale.cli.main.build_parser`):
every option whose parameter declares a cost (:class:`irscale.core.params.Cost`, read by
:func:`irscale.cli.options.declared_cost`), so an option is swept the day it is declared
with one; its value asks 10^6 times more work (:meth:`~irscale.core.params.Cost.scaled`:
a grid step 10^6 times smaller), from the command lines of the numeric sweep
(:mod:`tests.faults.test_numeric_options_faults`: each command's declared example, or a
variation of it where the option applies only with another). The memory limit is pinned to 1 GiB,
so that a refusal does not depend on the machine. A call that neither ends nor prints an
estimate within :data:`PATIENCE` seconds is interrupted (a safety net) and fails.

Progress off a terminal is written after :data:`PROMPT` seconds here, not after the 30 s of
:data:`irscale.core.progress.PLAIN_INTERVAL`: what is checked is that a long call shows
its progress, not how long it stays silent first; a long call (``meta split -B``, ``swap
-B``, ``correlate -B``, ``simulate --topics``) then stops at its first line instead of
running its work for half a minute or more. A call that ends sooner is checked as before.

The inputs are swept too (:func:`test_deep_inputs_end_or_announce`): every command whose
command line reads runs, given runs of :data:`DEEP` documents a topic with few judgments,
and the pairwise labels given :data:`COMPARISONS` comparisons, ends or announces its work
within the same safety net.
"""

from __future__ import annotations

import _thread
import argparse
import io
import re
import signal
import sys
import threading

import pytest

import irscale.core.budget
import irscale.core.progress
from irscale.cli.options import declared_cost
from irscale.core.params import Cost

from ..cli_parsers import irscale_parser
from .conftest import error_line
from .examples import sweep_ws as sweep_ws
from .examples import varied
from .test_numeric_options_faults import USUAL, command_line

#: How much more work is asked.
FACTOR = 10**6
#: Seconds a call may run without an estimate before it is interrupted (safety net).
PATIENCE = 120.0
#: A line that states the cost of work before it is done (irscale.core.progress.
#: announce_rest, irscale.scales.cost.Estimate.line) or its progress.
ESTIMATE = re.compile(r"^irscale: (estimate for |.*each \(measured\)|.*% done)")
#: The statement of a long resampling's rest (irscale.core.progress.announce_rest).
REST = re.compile(r"^irscale: .*each \(measured\)")
#: Seconds of work before the first progress line, and between two background lines, in
#: the sweep (module documentation).
PROMPT = 2.0


def _names_input(action) -> bool:
    """Whether the option names an input (its parameter's domain is
    :class:`~irscale.core.params.InputFiles`): its cost counts what the input holds (the
    collections of a manifest, the lines of a file), not its value."""
    from irscale.core.params import InputFiles

    return isinstance(action.irscale_param.domain, InputFiles)


def work_options(parser: argparse.ArgumentParser, inputs: bool = False
                 ) -> list[tuple[str, str, Cost, int | None]]:
    """``(command, option, cost, most)`` of every option of ``parser`` declared with a cost:
    the command without ``irscale``, the option's longest spelling, its cost and the largest
    value its domain takes (None: no bound). ``inputs``: those that name an input instead,
    whose value cannot be scaled (:func:`_names_input`; their mechanism is tested by
    ``tests/faults/test_input_costs_faults.py``)."""
    from ..cli_parsers import parsers

    return sorted({(prog.removeprefix("irscale").strip(), max(action.option_strings, key=len),
                    cost, getattr(getattr(action, "domain", None), "high", None))
                   for prog, command in parsers(parser) for action in command._actions
                   if (cost := declared_cost(action)) is not None
                   and _names_input(action) == inputs},
                  key=lambda case: case[:2])


def _default(command: str, option: str) -> float | None:
    from irscale.cli.main import build_parser

    from ..cli_parsers import parsers

    for prog, parser in parsers(build_parser()):
        if prog.removeprefix("irscale").strip() == command:
            for action in parser._actions:
                if option in action.option_strings and isinstance(action.default,
                                                                    (int, float)):
                    return float(action.default)
    return None


def _value(command: str, option: str, cost: Cost, most: float | None) -> str | None:
    """The default (or the usual value) of ``option`` asking :data:`FACTOR` times more work
    (:meth:`~irscale.core.params.Cost.scaled`), at most the largest value of its domain
    (``most``: a larger one would be refused by its domain alone, and test nothing)."""
    base = _default(command, option)
    if (base is None or base <= 0) and option in USUAL:  # (0: the option's work is off)
        base = float(USUAL[option].split(",")[-1])
    if base is None or base <= 0:
        return None
    value = cost.scaled(base, FACTOR)
    if cost.grows == "inverse":
        return f"{value:g}"
    return str(int(value if most is None else min(value, most)))


CASES = work_options(irscale_parser())
#: The options that name an input whose size is the work (declared with a cost).
INPUT_CASES = work_options(irscale_parser(), inputs=True)


class _Stop(io.TextIOBase):
    """Standard error that interrupts the call (``KeyboardInterrupt``, as ^C) at its first
    line that matches ``wanted`` (an estimate or a progress line)."""

    def __init__(self, stream, wanted: re.Pattern[str] = ESTIMATE) -> None:
        self.stream, self.wanted, self.estimated, self.pending = stream, wanted, [], ""

    def write(self, text: str) -> int:
        self.stream.write(text)
        self.pending += text
        *lines, self.pending = self.pending.split("\n")
        found = [line for line in lines if self.wanted.match(line)]
        if found and not self.estimated:
            self.estimated.extend(found)
            if threading.current_thread() is not threading.main_thread():
                _thread.interrupt_main()  # (a progress line of a worker thread)
                return len(text)
            raise KeyboardInterrupt
        return len(text)

    def flush(self) -> None:
        self.stream.flush()


def test_the_sweep_covers_the_work_options():
    """The options found by their declarations include those a user types to ask for more
    work (the hand list the sweep had before)."""
    assert {option for _, option, _, _ in CASES} >= {
        "--samples", "--repetitions", "--topics", "--step", "--impressions", "--levels",
        "--bootstrap", "--sessions", "--depth", "--length", "--draws", "--ci-samples",
        "--seeds", "--n-iter", "--iterations"}
    assert len(CASES) > 60, CASES


def test_every_declared_cost_is_in_the_table_of_the_guarantees():
    """docs/errors.md §7 names every option declared with a cost."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")
    section = text[text.index("## 7. Work bounded by the input"):text.index("## 8.")]
    missing = sorted({f"{command} {option}" for command, option, _, _ in CASES + INPUT_CASES
                      if f"`{option}`" not in section and f"{option}`" not in section})
    assert not missing, f"not in docs/errors.md §7: {missing}"


@pytest.fixture
def one_gib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(irscale.core.budget, "default_max_memory", lambda: 1 << 30)


@pytest.fixture(autouse=True)
def prompt_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain progress lines after :data:`PROMPT` seconds (module documentation)."""
    monkeypatch.setattr(irscale.core.progress, "PLAIN_INTERVAL", PROMPT)
    monkeypatch.setitem(irscale.core.progress.Progress.__init__.__kwdefaults__,
                        "heartbeat", PROMPT)


@pytest.mark.parametrize(("command", "option", "cost", "most"), [
    pytest.param(command, option, cost, most, id=f"{command} {option}")
    for command, option, cost, most in CASES])
def test_work_refused_or_estimated(command, option, cost, most, sweep_ws, run_cli, one_gib,
                                   monkeypatch):
    value = _value(command, option, cost, most)
    if value is None:
        pytest.skip(f"{option} has no positive default")
    _refused_or_estimated([a for a in command_line(command, option, value)
                           if a != "--no-progress"], run_cli, monkeypatch)


#: A page of ranks far beyond the click logs' (their largest is 3): the work that grows
#: with the SERP size (a Markov chain over its ranks, EM over its ranks, a loop over them)
#: is refused or estimated, or costs nothing (irscale.online).
SERP = "200000"
SERP_CASES = {
    "prefs": varied("online prefs"),
    "calibrate-markov": varied("online calibrate", {"-m": "MP"}),
    "fit-dbn": varied("online fit", {"--model": "dbn", "--iterations": None}),
    "loglik-dbn": varied("online loglik", {"--model": "dbn", "--iterations": None}),
    "qrels": varied("online qrels"),
}


@pytest.mark.parametrize("argv", [pytest.param(argv, id=key)
                                  for key, argv in SERP_CASES.items()])
def test_serp_size_refused_or_estimated(argv, sweep_ws, run_cli, one_gib, monkeypatch):
    _refused_or_estimated([*argv, "--serp-size", SERP], run_cli, monkeypatch,
                          refusal="--serp-size")


#: Resampling whose memory is within the limit but whose time is long (hours at 10^8 to
#: 10^9 samples): its rest, timed on its first samples, is stated before it goes on (the
#: progress line came after 1 s on a terminal, 30 s in a log).
STATED = {
    "dp-bootstrap": varied("meta discriminative-power", {"-B": "100000000"}),
    "dp-tukey": varied("meta discriminative-power", {  # (the ranges kept: 0.67 GiB)
        "--method": "randomized-tukey-hsd", "-B": "30000000"}),
    "dp-seeds": varied("meta discriminative-power", {"-B": "10000000", "--seed": None,
                                                     "--seeds": "3"}),
    "compare-bootstrap": varied("compare", {"--test": "bootstrap", "--samples": "1000000000"}),
    "correlate": varied("meta correlate", {"-B": "10000000", "--seed": "1"}),
    "split": varied("meta split", {"--sizes": "3", "--models": "MD1",
                                   "--repetitions": "1000000"}),
    # an evaluation of every run a draw (it said nothing for hours); the automatic qrels
    # with their grades' probabilities (ap.txt, not the example's qrels)
    "auto-draws": ["labels", "auto", "ap.txt", "h.txt", "a.run", "b.run", "c.run", "-m", "map",
                   "--label-probabilities", "--draws", "1000000000"],
}


@pytest.mark.parametrize("argv", [pytest.param(argv, id=key) for key, argv in STATED.items()])
def test_long_resampling_states_its_rest(argv, sweep_ws, run_cli, one_gib, monkeypatch):
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    # stopped at the statement, not at a progress line before it (PROMPT)
    stop, result = _stopped_after_patience(argv, run_cli, monkeypatch, REST)
    assert stop.estimated, \
        "no statement of the rest" + result.describe()
    assert result.status == 130, result.describe()  # stopped there


#: The stratified bootstrap across collections (``--collection``; the same files twice are
#: two collections) at :data:`FACTOR` times its default samples: the sweep's options are
#: found with their usual command lines, which compare and report read without it.
ACROSS = ["--collection", "X=qrels.txt,a.run,b.run,c.run", "--collection",
          "Y=qrels.txt,a.run,b.run,c.run", "-m", "map", "--samples", str(1000 * FACTOR)]
COLLECTIONS = {
    "compare": ["compare", *ACROSS],
    "report": varied("report", {"--format": None}, *ACROSS),
}


@pytest.mark.parametrize("argv", [pytest.param(argv, id=key)
                                  for key, argv in COLLECTIONS.items()])
def test_collections_bootstrap_refused_or_estimated(argv, sweep_ws, run_cli, one_gib,
                                                    monkeypatch):
    _refused_or_estimated(argv, run_cli, monkeypatch, refusal="--samples")


def _stopped_after_patience(argv, run_cli, monkeypatch, wanted=ESTIMATE):
    """Run ``argv`` in process, its standard error watched for ``wanted`` (:class:`_Stop`),
    stopped by a SIGINT after :data:`PATIENCE` seconds: the watcher and the result."""
    stop = _Stop(sys.stderr, wanted)
    monkeypatch.setattr(sys, "stderr", stop)
    timer = threading.Timer(PATIENCE, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    try:
        result = run_cli(argv)
    finally:
        timer.cancel()
    return stop, result


#: A study of few repetitions (one task of :data:`irscale.meta.splitting.
#: REPETITIONS_PER_TASK` holds them all) of a long resampling test: its progress shows
#: from the start (it said nothing until the task ended: an hour of silence at -B 10^9).
FEW_REPETITIONS = {
    command: varied(f"meta {command}", {option: "bootstrap", "--samples": "1000000000"})
    for command, option in (("split", "--models"), ("swap", "--test"))}


@pytest.mark.parametrize("argv", [pytest.param(argv, id=key)
                                  for key, argv in FEW_REPETITIONS.items()])
def test_few_repetitions_of_long_resampling_show_progress(argv, sweep_ws, run_cli, one_gib,
                                                          monkeypatch):
    assert _refused_or_estimated(argv, run_cli, monkeypatch)


def _refused_or_estimated(argv, run_cli, monkeypatch, refusal: str = "") -> bool:
    """``argv`` ends, or refuses with one ``irscale:`` line (naming ``refusal``), or
    announces its estimate (then is stopped: ``True``) within :data:`PATIENCE` seconds."""
    monkeypatch.setenv("IRSCALE_NO_PROGRESS", "")
    stop, result = _stopped_after_patience(argv, run_cli, monkeypatch)
    if stop.estimated:
        return True  # estimated before the work (then stopped here)
    assert result.status != 130, f"ran {PATIENCE:.0f} s without an estimate" + \
        result.describe()
    if result.status != 0:
        assert result.status == 2, f"exit status {result.status}" + result.describe()
        assert refusal in error_line(result), result.describe()
    return False

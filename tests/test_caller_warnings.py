"""Warnings of the Python API point at the line of the user's code that made the call
(:mod:`irscale.core.caller_warnings`), not at irscale's code, and the user's filters decide
there; Python's ``warnings.showwarning`` is as it was once the calls end."""

from __future__ import annotations

import sys
import threading
import warnings

import pytest

import irscale

#: Qrels of topics 1 and 2; a run with two run ids (a warning of the reader, deep in
#: irscale) and a topic without judgments (a warning of the evaluation).
QRELS = b"1 0 a 1\n1 0 b 0\n2 0 c 1\n"
RUN = b"1 Q0 a 1 3 r1\n1 Q0 b 2 2 r2\n3 Q0 c 1 1 r1\n"


def _evaluate_here() -> tuple[int, list[warnings.WarningMessage]]:
    """The line of the call of :func:`irscale.evaluate` here and the warnings it issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        irscale.evaluate(QRELS, RUN, ["map"])
    return line, caught


def test_warnings_name_the_callers_line():
    line, caught = _evaluate_here()
    messages = [str(w.message) for w in caught]
    assert any("2 different run ids" in m for m in messages), messages
    assert any("no judgments are not evaluated" in m for m in messages), messages
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, line)}


def test_the_users_filters_decide_at_the_users_module():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", module=__name__)
        irscale.evaluate(QRELS, RUN, ["map"])
    assert caught == []
    with warnings.catch_warnings():
        warnings.filterwarnings("error", module=__name__)
        with pytest.raises(UserWarning, match="2 different run ids"):
            irscale.evaluate(QRELS, RUN, ["map"])


def test_showwarning_is_restored():
    before = warnings.showwarning
    _evaluate_here()
    with pytest.raises(irscale.errors.MeasureError):
        irscale.evaluate(QRELS, RUN, ["mapp"])
    assert warnings.showwarning is before


def test_calls_in_threads_name_their_own_callers():
    """Calls running side by side: each warning at the line of the call that issued it
    (each thread's), and showwarning restored when the last call ends."""
    before = warnings.showwarning
    lines: list[int] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            lines.append(sys._getframe().f_lineno + 1)
            irscale.evaluate(QRELS, RUN, ["map"])
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors, errors
    assert len(caught) == 8, [str(w.message) for w in caught]
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, lines[0])}
    assert warnings.showwarning is before

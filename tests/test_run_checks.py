"""Runs checked the same way wherever they are evaluated:

* no topic in common between the qrels and a run is an :class:`AlignmentError` (exit 2)
  naming the run and some topics of each side, with ``--allow-empty`` / ``allow_empty`` to
  opt out (also with ``-c``: a run with none of the qrels topics is almost certainly a
  mistake);
* every command that evaluates runs (eval, compare, scale transform, scale table, meta)
  prints the warnings ``irscale eval`` prints: topics with results but no judgments,
  several run ids in one file, runs that share a run id.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import irscale
from irscale.cli.main import main
from irscale.errors import AlignmentError
from irscale.scales.transform import transform


def write(path, text: str) -> str:
    path.write_text(text)
    return str(path)


@pytest.fixture
def other_collection(tmp_path):
    """Qrels of topic 101, a run on topic 202 (another collection), a good run."""
    qrels = write(tmp_path / "qrels", "101 0 d1 1\n101 0 d2 0\n102 0 d1 1\n102 0 d3 0\n")
    wrong = write(tmp_path / "wrong.run", "202 Q0 d1 1 2 wrong\n203 Q0 d2 1 1 wrong\n")
    good = write(tmp_path / "good.run", "101 Q0 d1 1 2 good\n101 Q0 d2 2 1 good\n"
                 "102 Q0 d3 1 2 good\n102 Q0 d1 2 1 good\n")
    return qrels, wrong, good


def one_error_line(err: str) -> str:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if not line.startswith("irscale: warning:")]
    assert len(lines) == 1 and lines[0].startswith("irscale: ")
    return lines[0]


# ---------------------------------------------------------------- no topic in common
def test_evaluate_refuses_a_run_without_common_topics(other_collection):
    qrels, wrong, good = other_collection
    for complete, compat in ((False, 9), (True, 9), (True, 10)):
        with pytest.raises(AlignmentError) as caught:
            irscale.evaluate(qrels, [good, wrong], ["map"], complete=complete, compat=compat)
        message = str(caught.value)
        assert "run 'wrong' has no topic in common with the qrels" in message
        assert "202, 203 (2 topics)" in message and "101, 102 (2 topics)" in message
        assert qrels in message and "allow_empty" in message and "\n" not in message


def test_allow_empty_evaluates_with_the_unjudged_warning(other_collection):
    qrels, wrong, good = other_collection
    with pytest.warns(UserWarning, match="run 'wrong': 2 topic.* not evaluated: 202, 203"):
        ev = irscale.evaluate(qrels, [good, wrong], ["map", "num_q"], allow_empty=True)
    assert ev.mean().loc["wrong", "map"] == 0.0
    with pytest.warns(UserWarning, match="not evaluated"):
        ev = irscale.evaluate(qrels, wrong, ["map", "num_q"], allow_empty=True,
                              complete=True)
    assert dict((c.label, v) for c, v in ev.summary(0))["num_q"] == 2


def test_several_runs_without_common_topics_are_all_named(other_collection, tmp_path):
    qrels, wrong, _ = other_collection
    also = write(tmp_path / "also.run", "7 Q0 d1 1 2 also\n")
    with pytest.raises(AlignmentError, match=r"2 runs \('wrong', 'also'\) have no topic"):
        irscale.evaluate(qrels, [wrong, also], ["map"])


def test_eval_no_common_topic_exits_2(other_collection, capsys):
    qrels, wrong, good = other_collection
    for extra in ([], ["-c"], ["-c", "--compat", "10"]):
        assert main(["eval", *extra, qrels, good, wrong]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        line = one_error_line(err)
        assert "run 'wrong' has no topic in common" in line and "--allow-empty" in line
        # the engine's path names the qrels' topics too (sorted only for this message)
        assert "202, 203 (2 topics)" in line and "101, 102 (2 topics)" in line
    assert main(["eval", "--allow-empty", "-m", "map", qrels, wrong]) == 0
    out, err = capsys.readouterr()
    assert out == "map                   \tall\t0.0000\n"
    assert "irscale: warning: run 'wrong': 2 topic(s) with results but no judgments" in err


@pytest.mark.parametrize("command", [
    ["compare", "-m", "map", "--test", "t"],
    ["scale", "transform", "-m", "P", "-N", "3", "--no-progress"],
    ["scale", "transform", "-m", "P", "-N", "3", "--no-progress", "--all-topics"],
    ["scale", "table", "-m", "P", "-N", "3", "--no-progress"],
    ["meta", "correlate", "-m", "P@1", "-m", "map"],
    ["meta", "loo", "-m", "map", "--depth", "5", "--contributor-pattern", "^[a-z]"],
    ["meta", "scales", "-m", "P", "--cutoffs", "3", "--table", "invariants"],
])
def test_every_command_refuses_a_run_without_common_topics(other_collection, command, capsys):
    qrels, wrong, good = other_collection
    args = [*command, qrels, good, wrong]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "run 'wrong' has no topic in common with the qrels" in one_error_line(err)


@pytest.mark.parametrize("command", [
    ["scale", "transform", "-m", "P", "-m", "AP", "-N", "3", "--no-progress"],
    ["scale", "transform", "-m", "P", "-N", "3", "--no-progress", "--all-topics"],
])
def test_transform_allow_empty(other_collection, command, capsys):
    qrels, wrong, good = other_collection
    assert main([*command, "--allow-empty", qrels, good, wrong]) == 0
    out, err = capsys.readouterr()
    assert "wrong" in out
    assert "irscale: warning: run 'wrong': 2 topic(s) with results but no judgments" in err


def test_transform_api_allow_empty(other_collection):
    qrels, wrong, good = other_collection
    with pytest.raises(AlignmentError, match="run 'wrong' has no topic in common"):
        transform(qrels, [good, wrong], ["P"], 3, progress=False)
    with pytest.warns(UserWarning, match="run 'wrong'.* not evaluated"):
        result = transform(qrels, wrong, ["P", "AP"], 3, progress=False, allow_empty=True,
                           all_topics=True)
    assert result.original("P").values.ravel().tolist() == [0.0, 0.0]


# ---------------------------------------------------------------- the same warnings
@pytest.fixture
def warned(tmp_path):
    """Inputs that make ``eval`` warn three ways: run A_1 has an unjudged topic (99), A_1
    and B_1 share the run id 'same', and C_1's lines carry two run ids."""
    rng = np.random.default_rng(7)
    topics, docs = range(1, 9), range(1, 11)
    qrels = write(tmp_path / "qrels", "".join(
        f"{t} 0 d{d} {rng.integers(0, 2)}\n" for t in topics for d in docs))

    def lines(runid):
        return "".join(f"{t} Q0 d{d} 0 {rng.random():.6f} {runid(t)}\n"
                       for t in topics for d in docs)

    a = write(tmp_path / "A_1.run", lines(lambda t: "same") + "99 Q0 d1 1 1 same\n")
    b = write(tmp_path / "B_1.run", lines(lambda t: "same"))
    c = write(tmp_path / "C_1.run", lines(lambda t: "c1" if t < 4 else "C"))
    return qrels, a, b, c


def warning_lines(err: str) -> list[str]:
    return sorted(line for line in err.splitlines() if line.startswith("irscale: warning:"))


def test_every_command_prints_the_warnings_eval_prints(warned, capsys):
    qrels, *runs = warned
    # runs are named by their files by default; the run-id rule warns of the shared id
    runs = [*runs, "--names", "runid"]
    assert main(["eval", "-m", "map", qrels, *runs]) == 0
    expected = warning_lines(capsys.readouterr().err)
    assert len(expected) == 3
    assert any("C_1.run: 2 different run ids" in line for line in expected)
    assert any("2 runs share a run id with another run ('same' ×2)" in line and "'A_1'" in line
               for line in expected)
    assert any("run 'A_1': 1 topic(s) with results but no judgments are not evaluated: 99"
               in line for line in expected)
    for command in (
        ["compare", "-m", "map", "--test", "t"],
        ["scale", "transform", "-m", "P", "-N", "3", "--no-progress"],
        ["scale", "table", "-m", "P", "-N", "3,4", "--no-progress"],
        ["meta", "correlate", "-m", "P@1", "-m", "map"],
        ["meta", "loo", "-m", "map", "--depth", "2"],
        ["meta", "scales", "-m", "P", "-m", "RR", "--cutoffs", "3,4", "--table",
         "invariants"],
    ):
        assert main([*command, qrels, *runs]) == 0, command
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert warning_lines(err) == expected, command


def test_transform_api_warns_as_evaluate(warned):
    qrels, *runs = warned
    with warnings.catch_warnings(record=True) as from_evaluate:
        warnings.simplefilter("always")
        irscale.evaluate(qrels, runs, ["map"])
    with warnings.catch_warnings(record=True) as from_transform:
        warnings.simplefilter("always")
        transform(qrels, runs, ["P"], 3, progress=False)
    assert sorted(str(w.message) for w in from_transform) == sorted(
        str(w.message) for w in from_evaluate)
    # runs named by their files (the default): A_1 and B_1 sharing a run id is no naming
    # matter, so two warnings, C_1's run ids and A_1's unjudged topic
    messages = [str(w.message) for w in from_evaluate]
    assert len(messages) == 2
    assert any("C_1.run: 2 different run ids" in m for m in messages)
    assert any("run 'A_1': 1 topic(s) with results but no judgments are not evaluated: 99"
               in m for m in messages)

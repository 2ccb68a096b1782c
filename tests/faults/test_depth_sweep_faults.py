"""Deep inputs (``docs/errors.md`` §7): every command whose command line reads runs, given
runs of :data:`DEEP` documents a topic of which few are judged, and every command that
reads pairwise labels, given :data:`COMPARISONS` comparisons, ends, or refuses up front, or
announces its work before doing it (then shows progress): a cost that grows faster than
its input (the bounds search grew as the square of the depth) is said, never silent.

The command lines are the commands' declared examples (:mod:`tests.faults.examples`: every
subcommand's small valid call) that name a run or the pairwise labels, run on the deep
files instead, and :data:`MORE` (the options whose work depends on the depth: ``--bounds``,
the measures of whole rankings, ``noisybt``). As in the work sweep
(:mod:`tests.faults.test_work_sweep_faults`), a call that neither ends nor announces within
its safety net is interrupted and fails; nothing is timed.
"""

from __future__ import annotations

import numpy as np
import pytest

from .conftest import RUN_IDS, TOPICS, run_lines, text
from .examples import EXAMPLES, varied
from .examples import sweep_ws as sweep_ws
from .test_work_sweep_faults import REST, _refused_or_estimated, _stopped_after_patience
from .test_work_sweep_faults import one_gib as one_gib
from .test_work_sweep_faults import prompt_progress as prompt_progress

#: Documents a topic of the deep runs (the conftest runs' five, then unjudged ones).
DEEP = 20_000
#: Comparisons of the deep pairwise labels.
COMPARISONS = 1_000_000
#: The files of the conftest collection replaced by deep ones.
RUN_FILES = {f"{which}.run" for which in RUN_IDS}
PAIRS_FILE = "pairs.txt"


def _deep_run(which: str) -> bytes:
    """The conftest run ``which``, each topic followed by :data:`DEEP` unjudged documents
    (a third of them retrieved by every run, the others by this run alone)."""
    lines = []
    for topic, head in zip(TOPICS, np.array_split(run_lines(which), len(TOPICS)),
                           strict=True):
        lines += head.tolist()
        lines += [f"{topic} Q0 {'x' if i % 3 == 0 else 'x' + which}{i} {6 + i} "
                  f"{-i / DEEP:.6f} {RUN_IDS[which]}" for i in range(DEEP)]
    return text(lines)


def _deep_pairs() -> bytes:
    """:data:`COMPARISONS` comparisons of 200 documents a topic by 50 workers, the document
    of the smaller number preferred two times in three (every topic strongly connected)."""
    rng = np.random.default_rng(0)
    topic = rng.integers(1, 7, COMPARISONS)
    left = rng.integers(0, 200, COMPARISONS)
    right = (left + rng.integers(1, 200, COMPARISONS)) % 200
    smaller = np.minimum(left, right)
    winner = np.where(rng.random(COMPARISONS) < 2 / 3, smaller, left + right - smaller)
    worker = rng.integers(0, 50, COMPARISONS)
    return "".join(f"{t} w{w} d{a} d{b} d{c}\n" for t, w, a, b, c in
                   zip(topic, worker, left, right, winner, strict=True)).encode()


@pytest.fixture(scope="module")
def deep_files() -> dict[str, bytes]:
    return {**{name: _deep_run(name[0]) for name in RUN_FILES}, PAIRS_FILE: _deep_pairs()}


#: Command lines whose work depends on the depth beyond the examples'. Those of eval are
#: given whole: two runs and eval's default measures, or measures repeated (``-m``), which
#: a variation of the example's options does not give.
MORE = {
    "eval --bounds": ["eval", "qrels.txt", "a.run", "b.run", "--bounds"],
    "eval --bounds -m map": ["eval", "qrels.txt", "a.run", "-m", "map", "-m", "bpref",
                             "-m", "ndcg", "--bounds"],
    "eval --bounds -m infAP": ["eval", "qrels.txt", "a.run", "-m", "infAP", "--bounds"],
    "pool bounds -m map": varied("pool bounds", {"-m": "map"}),
    "report --bounds": varied("report", {}, "--bounds"),
    "labels pairwise --method noisybt": varied("labels pairwise", {"--method": "noisybt"}),
}


def cases(examples: dict[str, list[str]]) -> dict[str, list[str]]:
    """The declared ``examples`` that name a run or the pairwise labels, and :data:`MORE`."""
    return {**{command: argv for command, argv in examples.items()
               if any(arg in RUN_FILES | {PAIRS_FILE} for arg in argv)}, **MORE}


CASES = cases(EXAMPLES)


def test_the_sweep_covers_the_readers_of_runs_and_comparisons():
    assert len(CASES) > 25 and "labels pairwise" in CASES, sorted(CASES)


@pytest.mark.parametrize("argv", [pytest.param(argv, id=key) for key, argv in CASES.items()])
def test_deep_inputs_end_or_announce(argv, deep_files, sweep_ws, run_cli, one_gib,
                                     monkeypatch):
    for name, data in deep_files.items():
        sweep_ws.write(name, data)
    _refused_or_estimated([a for a in argv if a != "--no-progress"], run_cli, monkeypatch)


#: Deep work whose time grows beyond the input's size: its rest, timed on its first part,
#: is stated before it goes on (they said nothing for minutes, then hours). The bounds of
#: a measure without a chain (infAP) search every completion; those of eval's default set
#: (every one chained) end.
STATED = ("labels pairwise --method noisybt", "eval --bounds -m infAP")


@pytest.mark.parametrize("key", STATED)
def test_deep_work_states_its_rest(key, deep_files, sweep_ws, run_cli, one_gib, monkeypatch):
    for name, data in deep_files.items():
        sweep_ws.write(name, data)
    monkeypatch.delenv("IRSCALE_NO_PROGRESS", raising=False)
    stop, result = _stopped_after_patience(MORE[key], run_cli, monkeypatch, REST)
    assert stop.estimated, "no statement of the rest" + result.describe()
    assert result.status == 130, result.describe()  # stopped there

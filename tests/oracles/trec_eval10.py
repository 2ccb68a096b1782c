"""trec_eval 10.0, recorded: generated qrels and runs, the option sets
``tests/test_trec_eval10_recorded.py`` evaluates them with, and what the trec_eval 10.0
binary printed on each (standard output, standard error, exit status), written to
``tests/fixtures/trec_eval10.json.gz``.

No trec_eval 10.0 binary is installed where the suite runs (CI builds none): the test
compares ``irscale eval --compat 10`` with these recordings. The binary that answered was
built from trec_eval's source at commit f425365 ("Updating CHANGELOG for version 10.0"; it
prints ``trec_eval version 10.0-rc3``). To record again, with such a binary::

    TREC_EVAL10=/path/to/trec_eval PYTHONPATH=src python -m tests.oracles.trec_eval10

The cases, drawn from a fixed seed: a few topics, graded judgments (negative ones too),
runs with tied scores, topics missing from the run (``-c`` and its placeholder rankings)
and from the qrels; the option sets are the ones where 10.0 differs from 9.0.8 — ``-c``
with ``-l``, ``-J``, ``rbp_resid`` with a parameter, no ``-c`` where the run lacks a qrels
topic (10.0 stops, exit 4) — and the default measures. Every value of the fixture is the
binary's own.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import tempfile
from pathlib import Path

#: The recorded answers.
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "trec_eval10.json.gz"
#: The version the binary prints (``trec_eval -v``) and the commit it was built from.
VERSION = "trec_eval version 10.0-rc3"
COMMIT = "f425365"
#: The option sets every case is evaluated with (before the two files).
OPTIONS: tuple[tuple[str, ...], ...] = (
    (),
    ("-q",),
    ("-c", "-q"),
    ("-c", "-l", "2", "-q", "-m", "num_rel", "-m", "map", "-m", "P.5"),
    ("-c", "-l", "2"),
    ("-c", "-q", "-m", "rbp_resid.p=0.8", "-m", "rbp.p=0.5"),
    ("-c", "-q", "-m", "rbp_resid", "-m", "unj.5", "-m", "num_ret", "-m", "utility",
     "-m", "relstring.5"),
    ("-c", "-J", "-q", "-m", "iprec_at_recall", "-m", "11pt_avg", "-m", "map",
     "-m", "ndcg"),
    ("-c", "-J", "-q", "-m", "rbp_resid.p=0.5"),
    ("-c", "-q", "-m", "all_trec"),
)
#: Cases drawn.
CASES = 12
#: The seed of the draws.
SEED = 10


def draw_case(rng: random.Random) -> dict[str, str]:
    """One case: qrels and a run as TREC text. Topics 1..5; the run lacks one or two qrels
    topics (the first drawn case lacks none) and holds one the qrels lack; scores from a
    small alphabet (ties)."""
    topics = [str(t) for t in range(1, rng.randint(3, 5) + 1)]
    qrels = []
    for topic in topics:
        docs = rng.sample(range(1, 13), rng.randint(1, 7))
        qrels.extend(f"{topic} 0 d{d} {rng.choice((-1, 0, 0, 1, 1, 2, 3))}" for d in docs)
        if not any(int(line.split()[3]) > 0 for line in qrels if line.split()[0] == topic):
            qrels.append(f"{topic} 0 d{docs[0] + 20} 1")  # a relevant document each
    missing = set(rng.sample(topics, rng.randint(0, 2)))
    run = []
    for topic in [t for t in topics if t not in missing] + ["9"]:
        for d in rng.sample(range(1, 16), rng.randint(1, 8)):
            run.append(f"{topic} Q0 d{d} 0 {rng.choice((0.5, 1.0, 1.5, 2.0, 3.25))} r")
    return {"qrels": "\n".join(qrels) + "\n", "run": "\n".join(run) + "\n"}


def cases() -> list[dict[str, str]]:
    """The drawn cases, the same on every call (:data:`SEED`)."""
    rng = random.Random(SEED)
    drawn = [draw_case(rng) for _ in range(CASES)]
    return drawn


def record(binary: str) -> dict:
    """Every case under every option set, as the ``binary`` answers."""
    version = subprocess.run([binary, "-v"], capture_output=True, text=True)
    assert (version.stdout + version.stderr).strip() == VERSION, version
    answers = []
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = Path(folder) / "qrels.txt", Path(folder) / "run.txt"
        for index, case in enumerate(cases()):
            qrels.write_text(case["qrels"])
            run.write_text(case["run"])
            for options in OPTIONS:
                done = subprocess.run([binary, *options, str(qrels), str(run)],
                                      capture_output=True, text=True)
                answer = {"case": index, "options": list(options), "stdout": done.stdout,
                          "stderr": done.stderr, "status": done.returncode}
                if done.returncode == 4:  # stopped at a qrels topic the run lacks
                    answer["common_stdout"] = _on_common_topics(binary, options, case,
                                                                Path(folder))
                answers.append(answer)
    return {"version": VERSION, "commit": COMMIT, "cases": cases(), "answers": answers}


def _on_common_topics(binary: str, options: tuple[str, ...], case: dict[str, str],
                      folder: Path) -> str:
    """What the ``binary`` prints for ``case`` with the qrels cut to the topics the run
    holds: 10.0's values of the topics in common, which ``--compat 10`` gives where 10.0
    itself stops."""
    held = {line.split()[0] for line in case["run"].splitlines()}
    cut = folder / "common.txt"
    cut.write_text("".join(f"{line}\n" for line in case["qrels"].splitlines()
                           if line.split()[0] in held))
    done = subprocess.run([binary, *options, str(cut), str(folder / "run.txt")],
                          capture_output=True, text=True, check=True)
    return done.stdout


def load() -> dict:
    """The recorded answers."""
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as stream:
        return json.load(stream)


if __name__ == "__main__":  # pragma: no cover - run by hand, where the binary is
    recorded = record(os.environ["TREC_EVAL10"])
    with gzip.open(FIXTURE, "wt", encoding="utf-8") as out:
        json.dump(recorded, out, indent=1, sort_keys=True)
    print(f"{FIXTURE}: {len(recorded['answers'])} answers")

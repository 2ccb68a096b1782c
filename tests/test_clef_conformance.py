"""Real data: ``irscale eval -q`` reproduces trec_eval 9.0.8's output on 16 CLEF runs.

The reference output in ../shared/data/clef2016-task2/trec_eval-9.0.8 was produced by
``trec_eval -q qrels run`` (official measures). Our trec-format output must be byte-identical.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from irscale.cli.main import main

from .conftest import CLEF

RUNS = sorted(p.name for p in (CLEF / "runs").glob("*.txt")) if CLEF.exists() else []




def run_cli(args: list[str]) -> bytes:
    buffer = io.BytesIO()
    stream = io.TextIOWrapper(buffer, encoding="utf-8")
    with redirect_stdout(stream):
        status = main(args)
    stream.flush()
    assert status == 0
    return buffer.getvalue()


@pytest.mark.parametrize("run", RUNS or ["<no data>"])
def test_official_per_query_output_is_byte_identical(clef, run):
    reference = (clef / "trec_eval-9.0.8" / run.replace(".txt", ".official.txt")).read_bytes()
    ours = run_cli(["eval", "-q", str(clef / "task2.qrels"), str(clef / "runs" / run)])
    assert ours.decode().splitlines() == reference.decode().splitlines()
    assert ours == reference


def test_several_runs_add_the_run_as_a_fourth_field(clef):
    """``eval -q`` of several runs: every line ends with a tab and its run; without that
    field, each run's lines are trec_eval's output for the run alone, its runid line
    included: the fourth field names the run by its file (KDEIR_EN_Run1 and KDEIR_EN_Run2
    share the run id KDEIR, GUIR_EN_Run1's is GUIR_EN_RUN1), the runid line prints its run id
    (``--names runid``: the same lines, the runs named by run id where it is theirs alone)."""
    runs = ["GUIR_EN_Run1.txt", "KDEIR_EN_Run1.txt", "KDEIR_EN_Run2.txt"]
    for names, given in (({runs[0]: "GUIR_EN_Run1", runs[1]: "KDEIR_EN_Run1",
                           runs[2]: "KDEIR_EN_Run2"}, []),
                         ({runs[0]: "GUIR_EN_RUN1", runs[1]: "KDEIR_EN_Run1",
                           runs[2]: "KDEIR_EN_Run2"}, ["--names", "runid"])):
        ours = run_cli(["eval", "-q", *given, str(clef / "task2.qrels"),
                        *[str(clef / "runs" / run) for run in runs]]).decode()
        lines = [line.split("\t") for line in ours.splitlines()]
        assert {len(fields) for fields in lines} == {4}
        assert list(dict.fromkeys(fields[3] for fields in lines)) == list(names.values())
        for run, name in names.items():
            reference = (clef / "trec_eval-9.0.8" / run.replace(".txt", ".official.txt")
                         ).read_text()
            own = "".join("\t".join(fields[:3]) + "\n" for fields in lines
                          if fields[3] == name)
            assert own == reference

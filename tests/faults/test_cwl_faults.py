"""``irscale eval`` with the C/W/L measures (irscale.measures.cwl_models): bad parameters,
cut-offs, outputs and cost label sets. Table-driven: every row is one call checked against
the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from .conftest import err, ok, output_contains, run_case

EVAL = ["eval", "--ties", "file-order", "qrels.txt", "a.run"]
COSTS = "1 0 d1 2.5\n1 0 d2 0\n"

CASES = [
    ok("cwl-inst-outputs", [*EVAL, "-m", "INST(T=3)", "-m", "INST(T=3,out=ETU)",
                            "-m", "INST(T=3,out=ResED)"],
       output_contains("INST(T=3)", "INST(T=3,out=ETU)", "INST(T=3,out=ResED)")),
    ok("cwl-costs", [*EVAL, "--labels", "cost=costs.txt", "-m", "CWL-TBG(h=3,costs=cost)"],
       output_contains("CWL-TBG(h=3,costs=cost)"), files={"costs.txt": "1 0 d1 2.5\n"}),
    err("cwl-inst-T-0", [*EVAL, "-m", "INST(T=0)"], "INST", "T", "0"),
    err("cwl-inst-T-text", [*EVAL, "-m", "INST(T=abc)"], "INST", "abc"),
    err("cwl-out-unknown", [*EVAL, "-m", "INST(out=EUU)"], "EUU", "ETU"),
    err("cwl-mincost-without-residual", [*EVAL, "-m", "INST(mincost=0.5)"], "mincost",
        "residuals"),
    err("cwl-maxcost-0", [*EVAL, "-m", "INST(maxcost=0)"], "maxcost", "0"),
    err("cwl-depth-0", [*EVAL, "-m", "CWL-RBP(depth=0)"], "depth", "0"),
    err("cwl-depth-beyond", [*EVAL, "-m", "INST(depth=2000000)"], "depth", "2000000"),
    err("cwl-depth-on-a-cutoff-of-ranks", [*EVAL, "-m", "CWL-P(depth=5)@3"], "CWL-P",
        "depth"),
    err("cwl-p-cutoff-beyond", [*EVAL, "-m", "CWL-P@2000000"], "CWL-P", "2000000"),
    err("cwl-p-without-cutoff", [*EVAL, "-m", "CWL-P"], "CWL-P", "CWL-P@k"),
    err("cwl-bpm-without-budget", [*EVAL, "-m", "BPM(T=2)"], "BPM", "@k"),
    err("cwl-bpm-gmed-static", [*EVAL, "-m", "BPM(gmed=0.3)@10"], "gmed", "dynamic"),
    err("cwl-rbp-p-above-1", [*EVAL, "-m", "CWL-RBP(p=1.5)"], "CWL-RBP", "1.5"),
    err("cwl-ift-b1-0", [*EVAL, "-m", "IFT-goal(b1=0)"], "IFT-goal", "b1"),
    err("cwl-set-beta-0", [*EVAL, "-m", "SET(beta=0)@5"], "SET", "beta"),
    err("cwl-costs-absent", [*EVAL, "-m", "INST(costs=cost)"], "cost", "--labels"),
    err("cwl-costs-not-positive", [*EVAL, "--labels", "cost=costs.txt", "-m",
                                   "INST(costs=cost)"], "cost", "> 0",
        files={"costs.txt": COSTS}),
    err("cwl-maxrel-binary", [*EVAL, "-m", "INST(gain=binary,maxrel=2)"], "maxrel"),
]


@pytest.mark.parametrize("case", CASES)
def test_cwl(case, ws, run_cli):
    run_case(case, ws, run_cli)

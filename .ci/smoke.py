"""Smoke test of an installed irscale (.ci/wheel runs it in the wheel's fresh environment).

The API and the command line on two runs of two topics, checked against values worked out
by hand from the definitions (trec_eval 9.0.8's ``map`` and ``P_5``; Student's paired
t-test, whose t distribution with one degree of freedom is the Cauchy distribution:
p = 1 - 2·atan(|t|)/π, quantile tan(π(q - 1/2))). Nothing here is irscale's own output.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import irscale

QRELS = {"1": {"d1": 1, "d3": 2, "d5": 0}, "2": {"d2": 1}}
RUN_A = {"1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "2": {"d2": 3.0, "d1": 2.0}}
RUN_B = {"1": {"d2": 3.0, "d4": 2.0, "d1": 1.0}, "2": {"d1": 3.0, "d2": 2.0}}
# AP: A finds d1 at 1 and d3 at 3 of topic 1 ((1 + 2/3) / 2) and d2 at 1 of topic 2 (1);
# B finds d1 at 3 of topic 1 ((1/3) / 2) and d2 at 2 of topic 2 (1/2)
AP_A, AP_B = [5 / 6, 1.0], [1 / 6, 1 / 2]
MAP = {"A": sum(AP_A) / 2, "B": sum(AP_B) / 2}
P5 = {"A": (2 / 5 + 1 / 5) / 2, "B": (1 / 5 + 1 / 5) / 2}
# the paired t-test of A against B on AP: differences 2/3 and 1/2
DIFFS = [a - b for a, b in zip(AP_A, AP_B, strict=True)]
MEAN = sum(DIFFS) / 2
SE = math.sqrt(sum((d - MEAN) ** 2 for d in DIFFS) / 1) / math.sqrt(2)
T = MEAN / SE
P = 1 - 2 * math.atan(abs(T)) / math.pi
HALF = math.tan(math.pi * (0.975 - 0.5)) * SE


def close(x: float, y: float, tol: float = 1e-9) -> bool:
    return abs(x - y) <= tol


def check(ok: bool, what: str) -> None:
    if not ok:
        sys.exit(f"irscale smoke test: {what}")


def main() -> None:
    # the API: evaluate, compare with a baseline, one test on the score matrix
    ev = irscale.evaluate(QRELS, {"A": RUN_A, "B": RUN_B}, ["map", "P_5"])
    means = ev.mean()
    for run in ("A", "B"):
        check(close(means.loc[run, "map"], MAP[run]), f"map of {run}: {means.loc[run, 'map']}")
        check(close(means.loc[run, "P_5"], P5[run]), f"P_5 of {run}: {means.loc[run, 'P_5']}")
    row = ev.compare("A", correction=None).to_frame().set_index("measure").loc["map"]
    check(close(row["delta"], -MEAN) and close(row["p"], P), f"compare: {row.to_dict()}")
    test = irscale.paired_t(ev.to_matrix(measures=["map"]))
    check(close(test.statistic, T, 1e-9) and close(test.pvalue, P),
          f"paired t: {test.statistic}, {test.pvalue}")
    check(close(test.ci_low, MEAN - HALF) and close(test.ci_high, MEAN + HALF),
          f"paired t interval: {test.ci_low}, {test.ci_high}")

    # the command line: trec_eval's output of one run, a comparison of two as JSON
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        (where / "qrels.txt").write_text("".join(
            f"{topic} 0 {doc} {grade}\n" for topic, docs in QRELS.items()
            for doc, grade in docs.items()))
        for name, run in (("A", RUN_A), ("B", RUN_B)):
            (where / f"{name}.run").write_text("".join(
                f"{topic} Q0 {doc} {rank} {score} {name}\n" for topic, docs in run.items()
                for rank, (doc, score) in enumerate(docs.items(), 1)))
        out = subprocess.run(["irscale", "eval", "-m", "map", "-m", "P.5", "qrels.txt", "A.run"],
                             cwd=where, capture_output=True, text=True, check=True).stdout
        check(out.split() == ["map", "all", f"{MAP['A']:.4f}", "P_5", "all", f"{P5['A']:.4f}"],
              f"irscale eval printed {out!r}")
        out = subprocess.run(["irscale", "compare", "-m", "map", "--test", "t", "--format",
                              "json", "qrels.txt", "A.run", "B.run"],
                             cwd=where, capture_output=True, text=True, check=True).stdout
        (pair,) = json.loads(out)["pairs"]
        check(close(pair["diff"], MEAN) and close(pair["p"], P), f"irscale compare: {pair}")
    print(f"irscale smoke test: irscale {irscale.__version__} from {Path(irscale.__file__).parent}"
          " evaluated, compared and tested as expected")


if __name__ == "__main__":
    main()

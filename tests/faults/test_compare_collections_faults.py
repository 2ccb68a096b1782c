"""``irscale compare --collection NAME=QRELS,RUNS`` (or ``--collections FILE``, a manifest):
systems compared across collections; malformed specs and manifests, missing and malformed
files, a system missing from a collection, ``--weights``, options that do not apply,
outputs onto inputs."""

from __future__ import annotations

import json

import pytest

from .conftest import (
    Link,
    all_checks,
    err,
    ok,
    opt,
    output_contains,
    qrels_lines,
    run_case,
    run_lines,
    same_output_as,
    text,
    warns_of,
)

#: A second collection: the qrels of the workspace with other documents relevant (d_k
#: judged as d_{7−k} was), the same runs.
Y_QRELS = text([f"{t} {q} d{7 - int(d[1:])} {r}"
                for t, q, d, r in (line.split() for line in qrels_lines())])
FILES = {"y.qrels": Y_QRELS}
X = "X=qrels.txt,a.run,b.run,c.run"
Y = "Y=y.qrels,a.run,b.run,c.run"
ACROSS = ["compare", "--collection", X, "--collection", Y, "-m", "map", "--samples", "50",
          "--seed", "1"]
#: The manifest of X and Y (``--collections``), a comment and a blank line in it.
HEADER = "collection\tqrels\trun"
ROWS = [f"{name}\t{qrels}\t{run}.run" for name, qrels in (("X", "qrels.txt"), ("Y", "y.qrels"))
        for run in "abc"]
SUITE = text(["# X and Y", HEADER, *ROWS[:3], "", *ROWS[3:]])
MANIFEST = {**FILES, "suite.tsv": SUITE}
BY_MANIFEST = ["compare", "--collections", "suite.tsv", "-m", "map", "--samples", "50",
               "--seed", "1"]


def manifest(*lines: str) -> dict:
    """The workspace's files with ``m.tsv`` holding ``lines``."""
    return {**FILES, "m.tsv": text(list(lines))}


def by(name: str = "m.tsv") -> list[str]:
    return ["compare", "--collections", name, "-m", "map"]



def json_tables(result, ws, run) -> None:
    """The JSON document holds the seven tables, the meta-analysis by both estimators."""
    document = json.loads(result.out)
    assert set(document) == {"systems", "pairs", "means", "collections", "meta", "mixed",
                             "variance"}, \
        result.describe()
    assert {row["estimator"] for row in document["meta"]} == {"dl", "reml"}
    assert {row["collection"] for row in document["collections"]} == {"X", "Y"}


CASES = [
    ok("across", ACROSS, output_contains(
        "systems' means over 2 collections", "Random-effects meta-analysis", "a − b",
        "reml", "system (Wald χ²)", "Variance components"), files=FILES),
    ok("across-csv", [*ACROSS, "--format", "csv"], output_contains(
        "collection,system_a,system_b,topics,difference,variance"), files=FILES),
    ok("across-json", [*ACROSS, "--format", "json"], json_tables, files=FILES),
    ok("across-glob", ["compare", "--collection", "X=qrels.txt,*.run", "--collection",
                       "Y=y.qrels,*.run", "-m", "P.5", "--alpha", "0.1"],
       output_contains("90% stratified bootstrap"), files=FILES),
    ok("across-plot", [*ACROSS, "--plot", "forest.png"],
       all_checks(output_contains("Random-effects")), files=FILES,
       allowed_new=("forest.png",)),
    ok("across-warning-names-the-collection",
       ["compare", "--collection", X, "--collection", "Y=y4.qrels,a.run,b.run,c.run", "-m",
        "map"], warns_of("--collection Y", "not evaluated"),
       files={"y4.qrels": text([line for line in qrels_lines() if line[0] in "1234"])}),
    # ---- the manifest (--collections)
    ok("manifest", BY_MANIFEST, same_output_as(*ACROSS), files=MANIFEST),
    ok("manifest-paths-from-its-folder", [*BY_MANIFEST[:2], "in/suite.tsv", *BY_MANIFEST[3:]],
       same_output_as(*ACROSS), files={**FILES, "in/suite.tsv": text(
           ["run\tcollection\tqrels", *(f"../{run}\t{name}\t../{qrels}"
                                         for name, qrels, run in (r.split("\t") for r in ROWS))])}),
    ok("manifest-stdin", [*BY_MANIFEST[:2], "-", *BY_MANIFEST[3:]], same_output_as(*ACROSS),
       files=FILES, stdin=SUITE),
    ok("manifest-weights-topics", [*BY_MANIFEST, "--weights", "topics"], output_contains(
        "weights topics: each collection weighs its number of topics"), files=MANIFEST),
    ok("weights-equal", [*ACROSS, "--weights", "equal"], same_output_as(*ACROSS),
       files=FILES),
    err("manifest-missing", by("nope.tsv"), "nope.tsv"),
    err("manifest-empty", by(), "m.tsv", "no header line", files=manifest("# only")),
    err("manifest-header-missing-column", by(), "m.tsv", "line 1", "no column 'run'",
        files=manifest("collection\tqrels", "X\tqrels.txt")),
    err("manifest-header-unknown-column", by(), "m.tsv", "line 2", "unknown column 'runs'",
        files=manifest("# suite", "collection\tqrels\truns", *ROWS)),
    err("manifest-header-column-twice", by(), "m.tsv", "line 1", "named twice",
        files=manifest("collection\tqrels\trun\trun", *ROWS)),
    err("manifest-row-missing-column", by(), "m.tsv", "line 3", "expected 3 tab-separated",
        r"'X\tqrels.txt'", files=manifest(HEADER, ROWS[0], "X\tqrels.txt", *ROWS[3:])),
    err("manifest-row-extra-column", by(), "m.tsv", "line 2", "got 4",
        files=manifest(HEADER, ROWS[0] + "\tx", *ROWS[1:])),
    err("manifest-row-empty-field", by(), "m.tsv", "line 2", "none empty",
        files=manifest(HEADER, "X\t\ta.run", *ROWS[1:])),
    err("manifest-run-twice", by(), "m.tsv", "line 3", "names the run a.run twice",
        "line 2 too", files=manifest(HEADER, ROWS[0], ROWS[0], *ROWS[1:])),
    err("manifest-run-twice-spelt-otherwise", by(), "m.tsv", "line 3", "twice",
        files=manifest(HEADER, ROWS[0], "X\tqrels.txt\t./a.run", *ROWS[1:])),
    err("manifest-two-qrels", by(), "m.tsv", "line 4", "one qrels file",
        files=manifest(HEADER, *ROWS[:2], "X\ty.qrels\tc.run", *ROWS[3:])),
    err("manifest-one-collection", by(), "m.tsv", "names 1 collection", "2 at least",
        files=manifest(HEADER, *ROWS[:3])),
    err("manifest-run-set-differs", by(), "m.tsv", "line 4", r"'X\tqrels.txt\tc.run'",
        "collection 'Y' has no run of system(s) ['c']",
        files=manifest(HEADER, *ROWS[:5])),
    err("manifest-qrels-missing", by(), "m.tsv", "line 5", "nope.qrels",
        files=manifest(HEADER, *ROWS[:3], *(r.replace("y.qrels", "nope.qrels")
                                            for r in ROWS[3:]))),
    err("manifest-run-missing", by(), "m.tsv", "line 6", "nope.run",
        files=manifest(HEADER, *ROWS[:4], "Y\ty.qrels\tnope.run", ROWS[5])),
    err("manifest-run-malformed", by(), "m.tsv", "line 6", "bad.run", "line 2",
        files={**manifest(HEADER, *ROWS[:4], "Y\ty.qrels\tbad.run", ROWS[5]),
               "bad.run": text(["1 Q0 d1 1 0.5 r", "1 Q0 d2"])}),
    err("manifest-and-collection", [*BY_MANIFEST, "--collection", X],
        "--collection or by --collections FILE, not both", files=MANIFEST),
    err("manifest-test", [*BY_MANIFEST, "--test", "t"], "--test", "not with --collection",
        files=MANIFEST),
    err("weights-without-collections", ["compare", "qrels.txt", "a.run", "b.run", "-m", "map",
                                        "--weights", "topics"],
        "--weights applies to the comparison across collections"),
    err("weights-unknown", [*ACROSS, "--weights", "micro"], "--weights",
        "unknown weighting 'micro'", files=FILES),
    err("manifest-o-is-manifest", [*BY_MANIFEST, "-o", "suite.tsv", "--force"], "suite.tsv",
        "input", files=MANIFEST),
    err("manifest-o-is-its-qrels", [*BY_MANIFEST, "-o", "y.qrels", "--force"], "y.qrels",
        "an input is never replaced", files=MANIFEST),
    err("manifest-plot-is-its-run", [*BY_MANIFEST, "--plot", "fig.png", "--force"],
        "fig.png", "an input is never replaced",
        files={**FILES, "fig.png": text(run_lines("c")), "suite.tsv": text(
            [HEADER, *ROWS[:2], "X\tqrels.txt\tfig.png", *ROWS[3:5], "Y\ty.qrels\tfig.png"])}),
    # ---- the specs
    err("across-without-equals", ["compare", "--collection", "qrels.txt,a.run",
                                  "--collection", Y, "-m", "map"],
        "--collection must be NAME=QRELS,RUNS", "'qrels.txt,a.run'", files=FILES),
    err("across-qrels-only", ["compare", "--collection", "X=qrels.txt", "--collection", Y,
                              "-m", "map"], "--collection must be NAME=QRELS,RUNS",
        files=FILES),
    err("across-empty-name", ["compare", "--collection", "=qrels.txt,a.run", "--collection",
                              Y, "-m", "map"], "--collection must be NAME=QRELS,RUNS",
        files=FILES),
    err("across-name-twice", ["compare", "--collection", X, "--collection",
                              "X=y.qrels,a.run,b.run,c.run", "-m", "map"],
        "--collection names ['X'] twice", files=FILES),
    err("across-one-collection", ["compare", "--collection", X, "-m", "map"],
        "2 --collection at least"),
    err("across-no-measure", ["compare", "--collection", X, "--collection", Y],
        "give one -m", files=FILES),
    err("across-two-measures", [*ACROSS, "-m", "P.5"], "give one -m", files=FILES),
    err("across-unknown-measure", ["compare", "--collection", X, "--collection", Y, "-m",
                                   "mapp"], "mapp", files=FILES),
    # ---- the files
    err("across-qrels-missing", ["compare", "--collection", X, "--collection",
                                 "Y=nope.qrels,a.run,b.run,c.run", "-m", "map"],
        "nope.qrels"),
    err("across-run-missing", ["compare", "--collection", X, "--collection",
                               "Y=y.qrels,a.run,b.run,nope.run", "-m", "map"], "nope.run",
        files=FILES),
    err("across-run-malformed", ["compare", "--collection", X, "--collection",
                                 "Y=y.qrels,a.run,b.run,bad.run", "-m", "map"],
        "bad.run", "line 2", files={**FILES, "bad.run": text(["1 Q0 d1 1 0.5 r", "1 Q0 d2"])}),
    err("across-qrels-malformed", ["compare", "--collection", X, "--collection",
                                   "Y=bad.qrels,a.run,b.run,c.run", "-m", "map"],
        "bad.qrels", "line 1", files={"bad.qrels": text(["1 0 d1"])}),
    err("across-system-missing", ["compare", "--collection", X, "--collection",
                                  "Y=y.qrels,a.run,b.run", "-m", "map"],
        "collection 'Y'", "['c']", files=FILES),
    # ---- options of one collection's comparisons
    err("across-test", [*ACROSS, "--test", "t"], "--test", "not with --collection",
        files=FILES),
    err("across-positional-inputs", [*ACROSS, "qrels.txt", "a.run", "b.run"],
        "not with --collection", files=FILES),
    err("across-scores", [*ACROSS, "--scores", "ap.csv"], "--scores",
        "not with --collection", files=FILES),
    err("across-ci", [*ACROSS, "--ci", "t"], "--ci", "not with --collection", files=FILES),
    err("across-samples-0", [*ACROSS[:-4], "--samples", "0"], opt("-B", "--samples"),
        files=FILES),
    err("across-samples-beyond-the-memory-limit", [*ACROSS[:-4], "--samples", "1000000000"],
        "1,000,000,000 samples", "memory limit", "fewer -B/--samples", files=FILES),
    # ---- outputs onto inputs
    err("across-o-is-qrels", [*ACROSS, "-o", "y.qrels", "--force"], "y.qrels", "input",
        files=FILES),
    err("across-o-is-run-of-list", [*ACROSS, "-o", "./b.run", "--force"], "b.run", "input",
        files=FILES),
    err("across-o-is-run-of-glob", ["compare", "--collection", "X=qrels.txt,in/*.run",
                                    "--collection", "Y=y.qrels,in/*.run", "-m", "map", "-o",
                                    "in/a.run", "--force"], "in/a.run", "input",
        files={**FILES, "in/a.run": text(run_lines("a")), "in/b.run": text(run_lines("b"))}),
    err("across-plot-is-input", [*ACROSS, "--plot", "fig.png", "--force"], "fig.png",
        "input", files={**FILES, "fig.png": Link("y.qrels", hard=True)}),
]


@pytest.mark.parametrize("case", CASES)
def test_compare_collections(case, ws, run_cli):
    run_case(case, ws, run_cli)

"""``irscale labels pairwise``: faulty pairwise-judgment files (file/line/text named),
methods, options of the other method, a topic whose Bradley–Terry scores do not exist,
outputs that exist or are inputs; ``irscale labels aggregate --method hrm`` (ordinal
grades): one label value, the scale, options of other methods, its side files."""

from __future__ import annotations

import pytest

from .conftest import (
    any_of,
    err,
    gz,
    ok,
    opt,
    output_contains,
    replace_line,
    run_case,
    same_output_as,
    text,
    warns_of,
    with_option,
)

#: Two topics: a cycle of wins through a, b, c (and more) on topic 1, x and y on topic 2;
#: line 3 is '1 w1 c a c'.
PAIRS = ["1 w1 a b a", "1 w2 b c b", "1 w1 c a c", "1 w2 a b a", "1 w3 b a a",
         "2 w1 x y y", "2 w2 y x x", "2 w3 x y x"]
FILES = {"pairs.txt": text(PAIRS)}
BT = ["labels", "pairwise", "pairs.txt"]
NBT = [*BT, "--method", "noisybt"]
LOC = any_of("pairs.txt, line 3", "pairs.txt:3")


def good(id, argv, check=None, *, files=None, allowed_new=()):
    return ok(id, argv, check, files={**FILES, **(files or {})}, allowed_new=allowed_new)


def bad(id, argv, *needles, files=None):
    return err(id, argv, *needles, files={**FILES, **(files or {})})


def line3(new: str) -> dict:
    return {"pairs.txt": replace_line(PAIRS, 3, new)}


def workers_file(result, ws, run):
    rows = [line.split() for line in (ws.root / "w.txt").read_text().splitlines()]
    assert [r[:2] for r in rows] == [["w1", "3"], ["w2", "3"], ["w3", "2"]], rows
    assert all(0 <= float(v) <= 1 for r in rows for v in r[2:]), rows


def file_faults(prefix: str, argv: list[str]):
    same = same_output_as(*argv)
    return [
        bad(f"{prefix}-missing-file", [a if a != "pairs.txt" else "nope.txt" for a in argv],
            "nope.txt"),
        bad(f"{prefix}-empty-file", argv, "pairs.txt", files={"pairs.txt": b""}),
        bad(f"{prefix}-blank-lines-only", argv, "pairs.txt", files={"pairs.txt": b"\n \n"}),
        good(f"{prefix}-crlf", argv, same,
             files={"pairs.txt": text(PAIRS).replace(b"\n", b"\r\n")}),
        good(f"{prefix}-gzip", argv, same, files={"pairs.txt": gz(text(PAIRS))}),
        bad(f"{prefix}-too-few-fields", argv, LOC, "1 w1 c a", files=line3("1 w1 c a")),
        bad(f"{prefix}-too-many-fields", argv, LOC, "extra", files=line3("1 w1 c a c extra")),
        bad(f"{prefix}-pair-with-itself", argv, LOC, "1 w1 c c c", "itself",
            files=line3("1 w1 c c c")),
        bad(f"{prefix}-unknown-label", argv, LOC, "1 w1 c a b", "neither left nor right",
            files=line3("1 w1 c a b")),
        bad(f"{prefix}-non-utf8", argv, LOC,
            files={"pairs.txt": replace_line(PAIRS, 3, "1 w1 cQ a cQ").replace(b"Q", b"\xe9")}),
    ]


#: Grades 0..2 of three workers on four documents (line 3: '1 d1 w3 0').
GRADES = ["1 d1 w1 1", "1 d1 w2 1", "1 d1 w3 0", "1 d2 w1 2", "1 d2 w2 2", "1 d2 w3 1",
          "1 d3 w1 0", "1 d3 w2 0", "1 d3 w3 0", "2 d1 w1 2", "2 d1 w2 1", "2 d1 w3 2"]
HRM = ["labels", "aggregate", "grades.txt", "--method", "hrm"]
HRM_FILES = {"grades.txt": text(GRADES)}


def hrm_side_files(result, ws, run):
    conf = [line.split() for line in (ws.root / "c.txt").read_text().splitlines()]
    assert len(conf) == 4 and all(0 < float(r[3]) <= 1 for r in conf), conf
    workers = [line.split() for line in (ws.root / "w.txt").read_text().splitlines()]
    assert [w[:2] for w in workers] == [["w1", "4"], ["w2", "4"], ["w3", "4"]], workers


CASES = [
    # topic 2: x wins 2 of its 3 comparisons with y, so p_x = 2/3
    good("pairwise-bt", BT, output_contains("2 x 0.666666666666666")),
    good("pairwise-bt-alias", with_option(BT, "--method", "BradleyTerry"), same_output_as(*BT)),
    good("pairwise-noisybt-workers", [*NBT, "--workers", "w.txt", "-o", "s.txt",
                                      "--regularization", "0.01"],
         workers_file, allowed_new=("w.txt", "s.txt")),
    good("pairwise-noisybt-alias", with_option(NBT, "--method", "NoisyBT"),
         same_output_as(*NBT)),
    good("pairwise-n-iter-1-warns", [*BT, "--n-iter", "1"],
         warns_of("bt", "1 iterations", "--n-iter")),
    *file_faults("pairwise-bt", BT),
    *file_faults("pairwise-noisybt", NBT),
    # a beats b, b beats c, nothing beats a: the Bradley–Terry scores do not exist
    bad("pairwise-bt-not-connected", BT, "pairs.txt", "topic 1", "chains of wins",
        files={"pairs.txt": text(["1 w1 a b a", "1 w1 b c b"])}),
    good("pairwise-noisybt-not-connected", NBT,
         files={"pairs.txt": text(["1 w1 a b a", "1 w1 b c b"])}),
    bad("pairwise-unknown-method", with_option(BT, "--method", "elo"), "elo"),
    bad("pairwise-regularization-with-bt", [*BT, "--regularization", "0.1"],
        opt("--regularization"), "noisybt"),
    bad("pairwise-workers-with-bt", [*BT, "--workers", "w.txt"], opt("--workers"), "noisybt"),
    bad("pairwise-regularization-0", [*NBT, "--regularization", "0"],
        opt("--regularization")),
    bad("pairwise-n-iter-0", [*BT, "--n-iter", "0"], opt("--n-iter")),
    good("pairwise-tol", [*BT, "--tol", "1e-6"]),
    bad("pairwise-tol-nan", [*BT, "--tol", "nan"], "--tol (tol) must be a number"),
    bad("pairwise-no-file", ["labels", "pairwise"], "pairwise judgments file"),
    bad("pairwise-two-files", [*BT, "pairs.txt"], "pairwise judgments file"),
    bad("pairwise-output-exists", [*BT, "-o", "pairs2.txt"], "pairs2.txt",
        files={"pairs2.txt": b"old\n"}),
    bad("pairwise-output-is-input", [*BT, "-o", "pairs.txt", "--force"], "pairs.txt"),
    bad("pairwise-workers-is-input", [*NBT, "--workers", "pairs.txt", "--force"],
        "pairs.txt"),
    bad("pairwise-workers-stdout", [*NBT, "--workers", "-"], opt("--workers")),
    # ================================================================ hrm
    good("hrm", HRM, output_contains("1 0 d2 2\n", "1 0 d3 0\n"), files=HRM_FILES),
    good("hrm-scale-side-files", [*HRM, "--scale", "0,1,2,3", "-o", "q.txt", "--confidence",
                                  "c.txt", "--workers", "w.txt", "--n-iter", "50"],
         hrm_side_files, files=HRM_FILES, allowed_new=("q.txt", "c.txt", "w.txt")),
    bad("hrm-one-label-value", HRM, "grades.txt", "two label values",
        files={"grades.txt": text(["1 d1 w1 1", "1 d2 w2 1"])}),
    bad("hrm-label-outside-scale", [*HRM, "--scale", "0,1"],
        any_of("grades.txt, line 4", "grades.txt:4"), "1 d2 w1 2", files=HRM_FILES),
    bad("hrm-label-not-integer", HRM, any_of("grades.txt, line 3", "grades.txt:3"), "1.5",
        files={"grades.txt": replace_line(GRADES, 3, "1 d1 w3 1.5")}),
    bad("hrm-worker-twice", HRM, any_of("grades.txt, line 3", "grades.txt:3"),
        files={"grades.txt": replace_line(GRADES, 3, "1 d1 w1 0")}),
    bad("hrm-seed", [*HRM, "--seed", "1"], opt("--seed"), files=HRM_FILES),
    bad("hrm-restarts", [*HRM, "--restarts", "3"], opt("--restarts"), files=HRM_FILES),
    bad("hrm-n-iter-0", [*HRM, "--n-iter", "0"], opt("--n-iter"), files=HRM_FILES),
]


@pytest.mark.parametrize("case", CASES)
def test_pairwise(case, ws, run_cli):
    run_case(case, ws, run_cli)

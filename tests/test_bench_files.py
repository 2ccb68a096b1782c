"""The benchmark on files made elsewhere (``bench_eval.py --files``, ``datagen.py --files``):
their statistics equal the generator's own, and the report names them and says when
trec_eval gave no output to compare with."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import datagen  # noqa: E402


@pytest.mark.parametrize("case", [
    datagen.Case("plain", 60, 30, 7),
    datagen.Case("ties", 40, 50, 8, decimals=1, unranked=True, docnos="clueweb"),
    datagen.Case("tabs", 30, 20, 9, delimiter="\t", qrels_shuffled=True, shuffled=True),
])
def test_file_stats_equal_those_of_the_generator(tmp_path, case):
    qrels, run = tmp_path / "q", tmp_path / "r"
    generated = datagen.generate(case, qrels, run)
    assert datagen.file_stats(qrels, run) == generated


def _bench(tmp_path: Path, *options: str, repeat: int = 1) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_eval.py"), *options, "--sets", "three",
         "--repeat", str(repeat), "--no-warmup", "--no-snapshot", "--no-check", "--timeout", "60",
         "--work-dir", str(tmp_path / "work"), "--markdown", str(tmp_path / "report.md")],
        capture_output=True, text=True, timeout=300)


def test_files_are_measured_and_compared_with_trec_eval(tmp_path):
    qrels, run = tmp_path / "mine.qrels", tmp_path / "mine.run"
    stats = datagen.generate(datagen.Case("mine", 30, 20, 11), qrels, run)
    # a stand-in for trec_eval that writes what irscale writes (byte-identical) ...
    same = tmp_path / "same_trec_eval"
    same.write_text(f"#!/bin/sh\nexec {sys.executable} -c 'import sys; "
                    "from irscale.cli.main import main; sys.exit(main())' eval \"$@\"\n")
    # ... and one that crashes, as a build may on input it cannot read
    crash = tmp_path / "crash_trec_eval"
    crash.write_text("#!/bin/sh\nkill -SEGV $$\n")
    for path in (same, crash):
        path.chmod(0o755)

    done = _bench(tmp_path, "--files", "mine", str(qrels), str(run), "--tools", "irscale",
                  "--trec-eval", str(same))
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.md").read_text()
    assert f"* mine (`{qrels}`, `{run}`): {stats['run_lines']:,} run lines" in report
    # 29 judged topics (the generator leaves one without judgments) and the means
    assert "| output byte-identical to trec_eval, mine, map ndcg_cut_10 recip_rank | " \
           f"{3 * 29 + 3:,} lines identical | met |" in report
    results = json.loads((tmp_path / "work" / "results.json").read_text())
    assert {(r["tool"], r["status"]) for r in results["rows"]} == {("irscale", "ok"),
                                                                   ("trec_eval", "ok")}

    crashed = _bench(tmp_path, "--files", "mine", str(qrels), str(run), "--tools", "irscale",
                     "--trec-eval", str(crash))
    assert crashed.returncode == 0, crashed.stderr
    report = (tmp_path / "report.md").read_text()
    assert "trec_eval error (exit code -11): not compared | n/a |" in report
    assert "n/a (no peer gave a result)" in report


@pytest.mark.parametrize("name, qrels, message", [
    ("i", "q", "--files i: a case name"),  # a generated case's name
    ("a/b", "q", "--files a/b: a case name"),
    ("mine", "nowhere", "nowhere is not a file"),
])
def test_files_options_are_checked(tmp_path, name, qrels, message):
    (tmp_path / "q").write_text("1 0 d 1\n")
    (tmp_path / "r").write_text("1 Q0 d 1 1 x\n")
    done = _bench(tmp_path, "--files", name, str(tmp_path / qrels), str(tmp_path / "r"))
    assert done.returncode == 2
    assert message in done.stderr.splitlines()[-1]


def test_a_run_that_fails_leaves_the_complete_output_of_an_earlier_one(tmp_path):
    """Repetitions write one output file per tool and case: a last run stopped mid-way (at
    the time limit, or failing) must not leave its partial output to be compared."""
    qrels, run = tmp_path / "mine.qrels", tmp_path / "mine.run"
    datagen.generate(datagen.Case("mine", 30, 20, 12), qrels, run)
    counter = tmp_path / "calls"
    flaky = tmp_path / "flaky_trec_eval"  # complete twice, then one line and a failure
    flaky.write_text(
        f"#!/bin/sh\nn=$(cat {counter} 2>/dev/null || echo 0); n=$((n + 1)); "
        f"echo $n > {counter}\nif [ $n -ge 3 ]; then echo partial; exit 3; fi\n"
        f"exec {sys.executable} -c 'import sys; from irscale.cli.main import main; "
        "sys.exit(main())' eval \"$@\"\n")
    flaky.chmod(0o755)
    done = _bench(tmp_path, "--files", "mine", str(qrels), str(run), "--tools", "irscale",
                  "--trec-eval", str(flaky), repeat=3)
    assert done.returncode == 0, done.stderr
    assert counter.read_text().strip() == "3"
    report = (tmp_path / "report.md").read_text()
    assert "| output byte-identical to trec_eval, mine, map ndcg_cut_10 recip_rank | " \
           f"{3 * 29 + 3:,} lines identical | met |" in report
    assert not list((tmp_path / "work" / "out").glob("*.partial.txt"))


def _rows(irscale: float, floor: float, trec_eval: float) -> list[dict]:
    """Result rows of one case with the given wall times (seconds), as ``bench_eval.py``
    writes them."""
    return [{"case": "mine", "set": "three", "tool": tool, "status": "ok", "wall_s": wall}
            for tool, wall in (("irscale", irscale), ("floor", floor),
                               ("trec_eval", trec_eval))]


@pytest.mark.parametrize("irscale, floor, trec_eval, verdict", [
    (1.0, 0.5, 0.1, "**missed** (the floor alone misses it)"),  # floor 5 × > 0.25 ×
    (1.0, 0.02, 0.1, "**missed**"),  # floor 0.2 × meets the target, irscale 10 × does not
    (1.0, 0.5, 4.0, "met"),  # irscale 0.25 × (the target, inclusive)
    (1.0, 2.0, 5.0, "met"),  # the floor's time does not matter once irscale meets it
])
def test_a_target_the_floor_misses_too_is_marked_so(irscale, floor, trec_eval, verdict):
    """The floor (``--tools floor``: import numpy and pyarrow, parse both files, nothing
    else) is reported beside the tools and is not a peer; a time target (irscale ≤ 0.25 ×
    the fastest peer) it misses too says so, one it meets does not. Wall times are given, so
    that the verdict does not depend on the machine's load."""
    import bench_eval

    assert bench_eval.TIME_TARGET == 0.25
    [(name, measured, got)] = bench_eval.targets(_rows(irscale, floor, trec_eval), {})
    assert name == "time, mine, map ndcg_cut_10 recip_rank: irscale ≤ 0.25 × fastest peer"
    assert got == verdict
    assert f"; floor {bench_eval.secs(floor)} s = {floor / trec_eval:.2f} ×" in measured


def test_the_floor_is_measured_beside_the_tools(tmp_path):
    """A run with ``--tools irscale floor``: the floor has a row of its own and its time
    stands in the target's line; the verdict is the one the recorded times give."""
    import bench_eval

    qrels, run = tmp_path / "mine.qrels", tmp_path / "mine.run"
    datagen.generate(datagen.Case("mine", 30, 20, 13), qrels, run)
    peer = tmp_path / "instant_trec_eval"
    peer.write_text("#!/bin/sh\nexit 0\n")
    peer.chmod(0o755)
    done = _bench(tmp_path, "--files", "mine", str(qrels), str(run), "--tools", "irscale",
                  "floor", "--trec-eval", str(peer))
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.md").read_text()
    assert "| floor | mine | map ndcg_cut_10 recip_rank |" in report
    line = next(row for row in report.splitlines()
                if row.startswith("| time, mine, map ndcg_cut_10 recip_rank"))
    assert "; floor " in line and "trec_eval" in line
    results = json.loads((tmp_path / "work" / "results.json").read_text())
    assert {(r["tool"], r["status"]) for r in results["rows"]} == {
        ("irscale", "ok"), ("floor", "ok"), ("trec_eval", "ok")}
    wall = {r["tool"]: r["wall_s"] for r in results["rows"]}
    target = bench_eval.TIME_TARGET * wall["trec_eval"]
    expected = ("met" if wall["irscale"] <= target
                else "**missed** (the floor alone misses it)" if wall["floor"] > target
                else "**missed**")
    assert line.rsplit("|", 2)[1].strip() == expected

"""``irscale eval-many``: its options and its inputs.

Every faulty run file of the TREC catalogue, given as the third of three files (batch size
1, so that two batches are done before it); ``--batch-size`` and ``--workers`` out of range;
folders and patterns with no run file; ``--per-topic-out`` rules (an existing folder, an
earlier output replaced with ``--force`` only, a folder holding other files never, -o inside
it, nothing written when a run file is bad); run ids shared by two files; ``--scheduler``
forms; and the output equal to ``irscale eval``'s summary on the same runs. ``irscale eval``
with a batch option (``--batch-size``, ``--scheduler``, ``--workers``, ``--per-topic-out``)
streams its runs the same way: the same output, the same option rules, and the options that
need every run at once (``-q``, ``-n``, ``--labels``, latex and ndeval formats, diversity
measures) refused.
"""

from __future__ import annotations

import os
import signal

import pandas as pd
import pytest

from .catalog import trec_file_faults
from .conftest import (
    Link,
    any_of,
    changes,
    err,
    ok,
    opt,
    output_contains,
    qrels_lines,
    run_case,
    run_lines,
    same_output_as,
    text,
)

BASE = ["--names", "b,c,x", "-m", "map", "-m", "P.5", "--batch-size", "1", "--no-progress"]


def third(name: str) -> list[str]:
    """The command with ``name`` the third of three run files."""
    return ["eval-many", "qrels.txt", "b.run", "c.run", name, *BASE]


EVAL = ["eval", "qrels.txt", "a.run", "b.run", "c.run", "--names", "file", "-m", "map",
        "-m", "P.5"]
MANY = ["eval-many", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map", "-m", "P.5",
        "--no-progress"]
RUNS_ONLY = {"runs/a.run": Link("../a.run"), "runs/b.run": Link("../b.run"),
             "runs/c.run": Link("../c.run")}


def parts_written(folder: str, count: int):
    """``folder`` holds ``count`` part files whose rows cover runs a, b and c."""

    def check(result, ws, run) -> None:
        names = sorted(p.name for p in (ws.root / folder).iterdir())
        assert names == [f"part-{k:05d}.parquet" for k in range(count)], names
        frame = pd.concat([pd.read_parquet(ws.root / folder / n) for n in names])
        assert sorted(set(frame["run"])) == ["a", "b", "c"], result.describe()

    return check


def link_kept(link: str, target: str):
    """``link`` is still a symbolic link to ``target``, a folder now."""

    def check(result, ws, run) -> None:
        path = ws.root / link
        assert path.is_symlink() and os.readlink(path) == target, \
            f"{link} is no longer a link to {target}" + result.describe()
        assert (ws.root / target).is_dir(), f"{target} not written" + result.describe()

    return check


def all_checks(*checks):
    def check(result, ws, run) -> None:
        for c in checks:
            c(result, ws, run)

    return check


CASES = [
    # standard input is read once: the qrels before the first batch, for every batch; a run
    # file is read by path in its batch (possibly by another process): '-' is refused
    ok("eval-many-qrels-stdin-batches", ["eval-many", "-", *MANY[2:], "--batch-size", "1"],
       same_output_as(*MANY), stdin=text(qrels_lines())),
    err("eval-many-run-stdin", ["eval-many", "qrels.txt", "-", "b.run", "--no-progress"],
        "standard input ('-')", "irscale eval", stdin=text(run_lines("a"))),
    err("eval-batch-size-run-stdin", ["eval", "qrels.txt", "-", "--batch-size", "1"],
        "standard input ('-')", stdin=text(run_lines("a"))),
    *trec_file_faults("many-run", "run", third, third("a.run"), name="bad.run"),
    # ---- the output: irscale eval's summary lines
    ok("many-equals-eval-summary", MANY, same_output_as(*EVAL)),
    # ---- the means with their intervals (--ci): irscale eval's table
    ok("many-ci-equals-eval", [*MANY, "--ci", "t", "--alpha", "0.1", "--format", "csv"],
       same_output_as(*EVAL, "--ci", "t", "--alpha", "0.1", "--format", "csv")),
    ok("many-ci-bootstrap-batches", [*MANY, "--ci", "bootstrap", "--ci-samples", "50",
                                     "--ci-seed", "3", "--batch-size", "1", "--format",
                                     "markdown"], output_contains("ci_low", "ci_high")),
    err("many-ci-trec", [*MANY, "--ci", "t"], "--ci applies to --format csv, json and "
        "markdown (trec_eval's layout has no place for an interval), not trec"),
    err("many-alpha-without-ci", [*MANY, "--alpha", "0.1"], "--alpha sets the level of --ci"),
    err("many-ci-seed-with-t", [*MANY, "--ci", "t", "--ci-seed", "1", "--format", "csv"],
        "--ci-seed applies to --ci bootstrap"),
    # -c counts a qrels topic no run retrieved 0: its per-topic values are not kept
    err("many-ci-complete", [*MANY, "--ci", "t", "-c", "--format", "csv"],
        "is not the summary value", files={"qrels.txt": text([*qrels_lines(), "99 0 dz 1"])}),
    ok("many-batch-2-same", [*MANY, "--batch-size", "2"], same_output_as(*EVAL)),
    ok("many-folder-same", ["eval-many", "qrels.txt", "runs", "-m", "map", "-m", "P.5"],
       same_output_as(*EVAL), files=RUNS_ONLY),
    ok("many-glob-same", ["eval-many", "qrels.txt", "runs/*.run", "-m", "map", "-m", "P.5"],
       same_output_as(*EVAL), files=RUNS_ONLY),
    ok("many-csv-format", [*MANY, "--format", "csv"], same_output_as(*EVAL, "--format", "csv")),
    ok("many-markdown-format", [*MANY, "--format", "markdown"],
       same_output_as(*EVAL, "--format", "markdown")),
    # ---- irscale eval takes folders and patterns as eval-many does
    ok("eval-folder-same", ["eval", "qrels.txt", "runs", "--names", "file", "-m", "map", "-m",
                            "P.5"], same_output_as(*EVAL), files=RUNS_ONLY),
    ok("eval-glob-same", ["eval", "qrels.txt", "runs/*.run", "--names", "file", "-m", "map",
                          "-m", "P.5"], same_output_as(*EVAL), files=RUNS_ONLY),
    err("eval-empty-folder", ["eval", "qrels.txt", "empty"], "empty", "no run file",
        files={"empty": "<dir>"}),
    err("eval-glob-matches-nothing", ["eval", "qrels.txt", "runs/*.nothing"],
        "runs/*.nothing", "matches no run file", files=RUNS_ONLY),
    err("eval-folder-names-wrong-count", ["eval", "qrels.txt", "runs", "--names", "x,y"],
        "2 names", "3", files=RUNS_ONLY),
    # ---- irscale eval with a batch option streams its runs as eval-many does
    ok("eval-batches-same", [*EVAL, "--batch-size", "1", "--no-progress"],
       same_output_as(*EVAL)),
    ok("eval-batches-folder-same", ["eval", "qrels.txt", "runs", "-m", "map", "-m", "P.5",
                                    "--batch-size", "2", "--no-progress"],
       same_output_as(*EVAL), files=RUNS_ONLY),
    ok("eval-workers-csv-same", [*EVAL, "--workers", "2", "--format", "csv", "--no-progress"],
       same_output_as(*EVAL, "--format", "csv")),
    ok("eval-per-topic-out", [*EVAL, "--per-topic-out", "pt", "--batch-size", "2"],
       all_checks(parts_written("pt", 2), same_output_as(*EVAL)), allowed_new=["pt/"]),
    err("eval-batches-per-query", [*EVAL, "--batch-size", "2", "-q"], "-q", "--batch-size",
        "--per-topic-out"),
    err("eval-batches-no-summary", [*EVAL, "--workers", "1", "-n"], "-n", "--workers"),
    err("eval-batches-labels", [*EVAL, "--batch-size", "2", "--labels", "under=ap.csv"],
        "--labels", "--batch-size"),
    err("eval-batches-latex", [*EVAL, "--batch-size", "2", "--format", "latex"],
        "--format latex", "--batch-size"),
    err("eval-batches-ndeval-format", [*EVAL, "--batch-size", "2", "--format", "ndeval"],
        "ndeval"),
    err("eval-batches-risk-alpha", [*EVAL, "--batch-size", "2", "--risk-alpha", "1"],
        "--risk-alpha"),
    err("eval-batches-diversity-measure", ["eval", "qrels.txt", "a.run", "-m",
                                           "alpha-nDCG@20", "--workers", "2"],
        "diversity", "--workers"),
    err("eval-batch-size-0", [*EVAL, "--batch-size", "0"], opt("--batch-size"), "0"),
    err("eval-workers-0", [*EVAL, "--workers", "0"], opt("--workers")),
    # more threads than any machine runs were silently capped at the number of batches
    err("eval-workers-beyond-the-domain", [*EVAL, "--workers", str(10**20)], opt("--workers"),
        "from 1 to 1024", str(10**20)),
    err("many-workers-1025", [*MANY, "--workers", "1025"], opt("--workers"), "1025"),
    err("eval-per-topic-earlier-output", [*EVAL, "--per-topic-out", "pt"], "pt", "--force",
        files={"pt/part-00000.parquet": b"old"}),
    err("eval-scheduler-bare-word", [*EVAL, "--scheduler", "cluster"], opt("--scheduler"),
        "'cluster'"),
    err("eval-batches-bad-third-file", ["eval", "qrels.txt", "b.run", "c.run", "bad.run",
                                        "--batch-size", "1", "--no-progress"],
        "bad.run", "line 2", files={"bad.run": text(["1 Q0 d1 1 0.9 x", "1 Q0 d2 2 x"])}),
    # ---- --batch-size, --workers
    err("many-batch-size-0", [*MANY, "--batch-size", "0"], opt("--batch-size"), "0"),
    err("many-batch-size-negative", [*MANY, "--batch-size", "-2"], opt("--batch-size")),
    err("many-batch-size-text", [*MANY, "--batch-size", "ten"], opt("--batch-size"), "ten"),
    err("many-batch-size-float", [*MANY, "--batch-size", "1.5"], opt("--batch-size"), "1.5"),
    err("many-workers-0", [*MANY, "--workers", "0"], opt("--workers")),
    # ---- sources
    err("many-empty-folder", ["eval-many", "qrels.txt", "empty"], "empty", "no run file",
        files={"empty": "<dir>"}),
    err("many-folder-of-folders", ["eval-many", "qrels.txt", "top"], "top", "no run file",
        files={"top/sub": "<dir>"}),
    err("many-glob-matches-nothing", ["eval-many", "qrels.txt", "runs/*.nothing"],
        "runs/*.nothing", "matches no run file", files=RUNS_ONLY),
    err("many-missing-path", ["eval-many", "qrels.txt", "nowhere"], "nowhere"),
    err("many-file-twice", ["eval-many", "qrels.txt", "a.run", "runs"], "a.run", "twice",
        files={"runs/a.run": Link("../a.run")}),
    err("many-dangling-link-in-folder", ["eval-many", "qrels.txt", "runs"], "gone.run",
        files={**RUNS_ONLY, "runs/gone.run": Link("../nothing-here.run")}),
    err("many-run-ids-shared", ["eval-many", "qrels.txt", "a.run", "copy.run", "--names",
                                "runid"], "a.run", "copy.run", "teamA_r1",
        files={"copy.run": text(run_lines("a"))}),
    err("many-run-ids-shared-across-batches", ["eval-many", "qrels.txt", "a.run", "copy.run",
                                               "--names", "runid", "--batch-size", "1",
                                               "--per-topic-out", "pt"],
        "a.run", "copy.run", files={"copy.run": text(run_lines("a"))}),
    err("many-names-wrong-count", [*MANY, "--names", "x,y"], "2 names", "3 runs"),
    # relstring (text per topic, no summary) was printed nowhere and kept as an empty part
    err("many-relstring", [*MANY, "-m", "relstring", "--per-topic-out", "pt"], "relstring",
        "irscale eval -q"),
    err("eval-batches-relstring", [*EVAL, "-m", "relstring.5", "--batch-size", "2"],
        "relstring.5"),
    # ---- --per-topic-out
    ok("many-per-topic-new", [*MANY, "--per-topic-out", "pt", "--batch-size", "2"],
       all_checks(parts_written("pt", 2), same_output_as(*EVAL)), allowed_new=["pt/"]),
    ok("many-per-topic-empty-folder", [*MANY, "--per-topic-out", "pt"],
       parts_written("pt", 1), files={"pt": "<dir>"}, allowed_new=["pt/"]),
    err("many-per-topic-earlier-output", [*MANY, "--per-topic-out", "pt"], "pt", "--force",
        files={"pt/part-00000.parquet": b"old"}),
    ok("many-per-topic-earlier-output-force", [*MANY, "--per-topic-out", "pt", "--force"],
       parts_written("pt", 1), files={"pt/part-00000.parquet": b"old",
                                      "pt/part-00001.parquet": b"old"},
       allowed_new=["pt/part-00000.parquet", "pt/part-00001.parquet"]),
    err("many-per-topic-foreign-file", [*MANY, "--per-topic-out", "adir"], "adir",
        "keep.txt"),
    err("many-per-topic-foreign-file-force", [*MANY, "--per-topic-out", "adir", "--force"],
        "adir", "keep.txt"),
    # a symbolic link stands for its target: written there, the link stays a link
    ok("many-per-topic-symlink-to-folder", [*MANY, "--per-topic-out", "link"],
       all_checks(parts_written("pt", 1), link_kept("link", "pt")),
       files={"pt": "<dir>", "link": Link("pt")}, allowed_new=["pt/"]),
    ok("many-per-topic-dangling-symlink", [*MANY, "--per-topic-out", "link"],
       all_checks(parts_written("pt", 1), link_kept("link", "pt")),
       files={"link": Link("pt")}, allowed_new=["pt/", "link"]),  # (listed as a folder now)
    err("many-per-topic-dangling-symlink-into-missing-folder",
        [*MANY, "--per-topic-out", "link"], "link", "nodir",
        files={"link": Link("nodir/pt")}),
    err("many-per-topic-is-file", [*MANY, "--per-topic-out", "qrels.txt"], "qrels.txt"),
    err("many-per-topic-missing-parent", [*MANY, "--per-topic-out", "nodir/pt"], "nodir"),
    err("many-per-topic-holds-runs", ["eval-many", "qrels.txt", "runs", "--per-topic-out",
                                      "runs", "--force"], "runs", files=RUNS_ONLY),
    err("many-o-inside-per-topic", [*MANY, "--per-topic-out", "pt", "-o", "pt/summary.txt"],
        "pt/summary.txt", opt("--per-topic-out"), files={"pt": "<dir>"}),
    err("many-per-topic-bad-third-file", [*third("bad.run"), "--per-topic-out", "pt"],
        "bad.run", "line 2", files={"bad.run": text(["1 Q0 d1 1 0.9 x", "1 Q0 d2 2 x"])}),
    err("many-o-on-bad-third-file", [*third("bad.run"), "-o", "out.txt"], "bad.run",
        files={"bad.run": b"\x1f\x8bnot gzip"}),
    ok("many-o-file", [*MANY, "-o", "out.txt"], allowed_new=["out.txt"]),
    err("many-o-existing", [*MANY, "-o", "ap.csv"], "ap.csv"),
    # ---- --scheduler
    err("many-scheduler-local-0", [*MANY, "--scheduler", "local:0"], opt("--scheduler"),
        "local:0"),
    err("many-scheduler-bare-word", [*MANY, "--scheduler", "cluster"], opt("--scheduler"),
        "'cluster'"),
    err("many-scheduler-unreachable", [*MANY, "--scheduler", "tcp://127.0.0.1:1"],
        opt("--scheduler"), "no Dask scheduler answers"),
    err("many-scheduler-and-workers", [*MANY, "--scheduler", "local:2", "--workers", "2"],
        "--workers", "--scheduler"),
    # ---- measures and options checked before reading
    err("many-unknown-measure", [*MANY, "-m", "nosuch"], "nosuch"),
    err("many-diversity-measure", [*MANY, "-m", "alpha-nDCG@20"], "alpha-nDCG@20",
        "diversity", "irscale eval"),
    err("many-measure-needing-labels", [*MANY, "-m", "uRBP(p=0.8)"], "uRBP", "under"),
    err("many-bad-level", [*MANY, "-l", "0"], any_of("-l", "relevance_level", "level")),
    # trec_eval's spelling is irscale eval's alone; eval-many spells it as every command
    err("many-level-trec-eval-spelling", [*MANY, "--level-for-rel", "2"], "--level-for-rel"),
]


@pytest.mark.parametrize("case", CASES)
def test_eval_many(case, ws, run_cli):
    run_case(case, ws, run_cli)


def test_eval_many_local_cluster_same_output(ws, run_cli):
    pytest.importorskip("distributed")
    run_case(ok("many-scheduler-local-1", [*MANY, "--scheduler", "local:1"],
                same_output_as(*EVAL)).values[0], ws, run_cli)


def test_eval_scheduler_local_cluster_same_output(ws, run_cli):
    """``irscale eval --scheduler local:1``: the batches on a Dask LocalCluster."""
    pytest.importorskip("distributed")
    run_case(ok("eval-scheduler-local-1", [*EVAL, "--scheduler", "local:1", "--no-progress"],
                same_output_as(*EVAL)).values[0], ws, run_cli)


def test_eval_many_parquet_run(ws, run_cli):
    """A Parquet run gives the values of the same run as TREC text."""
    rows = [line.split() for line in run_lines("c")]
    pd.DataFrame({"qid": [r[0] for r in rows], "docno": [r[2] for r in rows],
                  "score": [float(r[4]) for r in rows], "runid": [r[5] for r in rows]}
                 ).to_parquet(ws.root / "c.parquet", index=False)
    run_case(ok("many-parquet", ["eval-many", "qrels.txt", "a.run", "b.run", "c.parquet",
                                 "-m", "map", "-m", "P.5"], same_output_as(*EVAL)).values[0],
             ws, run_cli)


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_stop_signal_leaves_no_staging_folder(name, ws, run_cli, monkeypatch):
    """A real SIGTERM or SIGHUP, sent by the process to itself once the first per-topic
    part is written into the staging folder (``.pt.<random>.part``): one ``irscale:
    terminated`` line, status 128 + the signal's number, and neither ``pt`` nor the staging
    folder left behind (as for ^C)."""
    number = getattr(signal, name)
    write = pd.DataFrame.to_parquet

    def write_then_signal(frame, path, *args, **kwargs):
        write(frame, path, *args, **kwargs)
        assert any(p.name.startswith(".pt.") for p in ws.root.iterdir()), "no staging"
        os.kill(os.getpid(), number)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", write_then_signal)
    before = ws.snapshot()
    result = run_cli([*MANY, "--batch-size", "1", "--per-topic-out", "pt"])
    assert result.status == 128 + number, result.describe()
    assert result.err.splitlines() == ["irscale: terminated"], result.describe()
    assert not changes(before, ws.snapshot()), result.describe()

"""An input is never an output, however it was named (``docs/errors.md``, rule 4).

For every subcommand, an output named as one of the call's inputs, with ``--force``: the
input spelt ``./``, a symbolic link to it, a hard link of it, and the input reached
through a folder or a quoted glob pattern (``-o runs/r02.run ... runs``). Every row must
exit 2 with one line naming the output, write nothing and leave the input byte for byte
as it was. Output folders (``--per-topic-out``, ``--plot-dir``, ``--qrels-out``,
``--checkpoint``) that are or hold an input, directly or through a link named as a file
the command would write, are refused as well.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import Case, Link, any_of, err, ok, opt, run_case
from .test_collections_faults import BUILD, ESTIMATE, SAMPLE, SAMPLED, SHARDS, SIM
from .test_files_faults import CONC, CORR, DP, INFO, LOO, REPRO, SCALES, SPLIT, SWAP
from .test_labels_faults import AGG, AGREE, AWARE, Q2, QAGREE
from .test_labels_faults import FILES as CROWD
from .test_meta_simulate_faults import BOOT
from .test_online_clicks_faults import FILES as CLICKS
from .test_online_clicks_faults import fit, loglik, measures, simulate
from .test_online_faults import ANALYZE, ASSIGN, INTER, LOGS, MEASURES, MODEL, SRM, TABLE, USERS
from .test_online_score_faults import BASE as SCORE
from .test_online_score_faults import FILES as SCORE_LOGS
from .test_online_sensitivity_faults import BASE as SENSITIVITY
from .test_report_faults import FAST as REPORT
from .test_report_faults import HUMAN
from .test_text_faults import FILES as SESSIONS
from .test_text_faults import NFILES, RFILES

RUNS = ["qrels.txt", "a.run", "b.run", "c.run"]
#: Two systems of one run each (``--system NAME=RUNS``).
SEEDS = ["eval-seeds", "qrels.txt", "--system", "A=a.run", "--system", "B=b.run", "-m", "map"]
#: A system of two runs (a comma-separated list), and another.
SEEDS_LIST = ["eval-seeds", "qrels.txt", "--system", "A=a.run,b.run", "--system", "B=c.run",
              "-m", "map"]

#: name → (a valid call, the input of it the rows write over, the files it needs besides
#: the collection of ``conftest.populate``). The input is one argument of the call, or
#: the FILE of a NAME=FILE argument.
COMMANDS: dict[str, tuple[list[str], str, dict[str, str | bytes]]] = {
    "eval": (["eval", "qrels.txt", "a.run", "-m", "map"], "a.run", {}),
    "eval-qrels": (["eval", "qrels.txt", "a.run", "b.run", "-m", "map"], "qrels.txt", {}),
    "eval-labels": (["eval", "qrels.txt", "a.run", "--labels", "under=labels.txt", "-m",
                     "uRBP(p=0.8)"], "labels.txt", {}),
    "eval-batches": (["eval", "qrels.txt", "a.run", "b.run", "-m", "map", "--batch-size",
                      "1"], "b.run", {}),
    "eval-many": (["eval-many", "qrels.txt", "a.run", "b.run", "-m", "map"], "b.run", {}),
    "fuse": (["fuse", "a.run", "b.run", "--method", "rrf"], "b.run", {}),
    "fuse-optimize-qrels": (["fuse", "a.run", "b.run", "--method", "wsum", "--optimize",
                             "--qrels", "qrels.txt", "--step", "0.5"], "qrels.txt", {}),
    "session": (["session", "qrels.txt", "s.run"], "s.run", SESSIONS),
    "session-clicks": (["session", "qrels.txt", "s.run", "-m", "U", "--labels",
                        "doclen=len.txt", "--clicks", "c.log"], "c.log", SESSIONS),
    "session-topics": (["session", "qrels.txt", "s.run", "--topics", "map.txt"], "map.txt",
                       SESSIONS),
    "rouge": (["text", "rouge", "refs.tsv", "cands.tsv"], "cands.tsv", RFILES),
    "rouge-stopwords": (["text", "rouge", "refs.tsv", "cands.tsv", "--stopwords",
                         "stop.txt"], "stop.txt", RFILES),
    "nuggets": (["text", "nuggets", "nug.txt", "match.txt", "--lengths", "len.txt"],
                "len.txt", NFILES),
    "compare": (["compare", "--scores", "ap.csv"], "ap.csv", {}),
    "compare-runs": (["compare", "qrels.txt", "a.run", "b.run", "-m", "map"], "b.run", {}),
    "transform": (["scale", "transform", "qrels.txt", "a.run", "-m", "AP", "-N", "3",
                   "--no-progress"], "a.run", {}),
    "table": (["scale", "table", "qrels.txt", "a.run", "b.run", "-m", "AP", "-N", "3",
               "--no-progress"], "b.run", {}),
    "correlate": (CORR, "p10.csv", {}),
    "dp": (DP, "ap.csv", {}),
    "split": (SPLIT, "ap.csv", {}),
    "swap": (SWAP, "ap.csv", {}),
    "concordance": (CONC, "gold.csv", {}),
    "loo": (LOO, "contrib.txt", {}),
    "scales": (SCALES, "c.run", {}),
    "reproduce": (REPRO, "ap.csv", {}),
    "informativeness": (INFO, "a.run", {}),
    "predict": (["meta", "predict", "--scores", "ap.csv", "--preferences", "prefs.txt"],
                "prefs.txt", {"prefs.txt": "1 sysA sysB left\n2 sysC sysA right\n"}),
    "simulate": (BOOT, "ap.csv", {}),
    "pool-build": (BUILD, "b.run", {}),
    "pool-simulate": ([*SIM, "--no-loo"], "qrels.txt", {}),
    "pool-shards": (SHARDS, "c.run", {}),
    "pool-sample": (SAMPLE, "a.run", {}),
    "pool-estimate": (ESTIMATE, "sampled.txt", SAMPLED),
    "labels-aggregate": (AGG, "crowd.txt", CROWD),
    "labels-agree": (AGREE, "crowd.txt", CROWD),
    "labels-agree-qrels": (QAGREE, "q2.txt", Q2),
    "labels-aware": (AWARE, "crowd.txt", CROWD),
    "interleave": (INTER, "b.run", {}),
    "interleave-qrels": (INTER, "qrels.txt", {}),
    "interleave-model": (["online", "interleave", "a.run", "b.run", "--clicks", "pbm.json",
                          "--impressions", "20", "--seed", "1", "--bootstrap", "200"],
                         "pbm.json", MODEL),
    "online-score": (SCORE, "log.txt", SCORE_LOGS),
    "online-score-runs": ([*SCORE, "--runs", "a.run", "b.run"], "b.run", SCORE_LOGS),
    "ab-assign": (ASSIGN, "users.txt", USERS),
    "ab-measures": (MEASURES, "su.txt", LOGS),
    "ab-analyze": (ANALYZE, "t.csv", TABLE),
    "ab-srm": (SRM, "t.csv", TABLE),
    "fit": (fit(), "train.log", CLICKS),
    "loglik": (loglik(), "test.log", CLICKS),
    "simulate-clicks": (simulate("--params", "pbm.json", "--serp-size", "3"), "pbm.json",
                        CLICKS),
    "online-measures": (measures(), "pbm.json", CLICKS),
    "sensitivity": (SENSITIVITY, "b.run", {}),
    "sensitivity-model": ([*SENSITIVITY, "--model", "pbm.json"], "pbm.json", MODEL),
    "report": (REPORT, "c.run", {}),
    "report-automatic": (["report", "h.txt", "a.run", "b.run", "c.run", "--no-robustness",
                          "--automatic", "qrels.txt", "-m", "P@5", "--format", "markdown"],
                         "qrels.txt", HUMAN),
    "eval-seeds": (SEEDS, "b.run", {}),
}

#: How the output names the input: spelt ``./INPUT``, a symbolic link to it, a hard link
#: of it; or the input is a file of folder ``in``, which the call names (``in``), or a glob
#: pattern matches (``in/*.run``), and the output is ``in/INPUT``.
VARIANTS = ("dot-slash", "symlink", "hard-link", "folder", "glob")


def _replace_input(argv: list[str], source: str, new: str) -> list[str]:
    """``argv`` with the argument that names ``source`` naming ``new`` instead."""
    hits = [i for i, a in enumerate(argv) if a == source or a.endswith("=" + source)]
    assert len(hits) == 1, (argv, source)
    out = list(argv)
    out[hits[0]] = argv[hits[0]][: len(argv[hits[0]]) - len(source)] + new
    return out


def _case(name: str, variant: str, ws) -> Case:
    argv, source, files = COMMANDS[name]
    made: dict[str, object] = dict(files)
    if variant == "dot-slash":
        out = f"./{source}"
    elif variant in ("symlink", "hard-link"):
        out = "link.txt" if variant == "symlink" else "hard.txt"
        made[out] = Link(source, hard=variant == "hard-link")
    else:
        data = files.get(source)
        if data is None:
            data = ws.read(source)
        out = f"in/{source}"
        made[out] = data
        argv = _replace_input(argv, source, "in" if variant == "folder"
                              else "in/*" + Path(source).suffix)
    return Case(f"{name}-{variant}", (*argv, "-o", out, "--force"), "error",
                (out, "-o", "input"), tuple(made.items()))


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_calls_are_valid(name, ws, run_cli):
    """Each call of the table succeeds as it is: the rows below fail for their output."""
    argv, _, files = COMMANDS[name]
    run_case(ok(name, [*argv, "-o", "out.txt"], files=files, allowed_new=["out.txt"]).values[0],
             ws, run_cli)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_output_is_an_input(name, variant, ws, run_cli):
    run_case(_case(name, variant, ws), ws, run_cli)


# ------------------------------------------------------------------ other outputs
OTHER_OUTPUTS = [
    # an output option other than -o, named as an input (a plot through a link named .png)
    err("dp-plot-symlink-to-input", [*DP, "--plot", "fig.png", "--force"],
        any_of("fig.png", "ap.csv"), "input", files={"fig.png": Link("ap.csv")}),
    err("dp-plot-hard-link-of-input", [*DP, "--plot", "fig.png", "--force"], "fig.png",
        "input", files={"fig.png": Link("ap.csv", hard=True)}),
    err("split-plot-hard-link-of-input", [*SPLIT, "--plot", "fig.png", "--force"], "fig.png",
        "input", files={"fig.png": Link("ap.csv", hard=True)}),
    err("pool-simulate-plot-symlink-to-input", [*SIM, "--no-loo", "--plot", "fig.png",
                                                "--force"], any_of("fig.png", "qrels.txt"),
        "input", files={"fig.png": Link("qrels.txt")}),
    err("pool-shards-scores-is-input", [*SHARDS, "--shard-scores", "./c.run", "--force"],
        opt("--shard-scores"), "c.run"),
    err("pool-shards-scores-hard-link", [*SHARDS, "--shard-scores", "hard.csv", "--force"],
        opt("--shard-scores"), "hard.csv", files={"hard.csv": Link("a.run", hard=True)}),
    err("labels-confidence-is-input", [*AGG, "--confidence", "./crowd.txt", "--force"],
        opt("--confidence"), "crowd.txt", files=CROWD),
    err("labels-workers-symlink-to-input", [*AGG, "--workers", "w.txt", "--force"],
        opt("--workers"), any_of("w.txt", "crowd.txt"),
        files={**CROWD, "w.txt": Link("crowd.txt")}),
    err("labels-workers-input-in-folder", ["labels", "aggregate", "in", "--method", "mv",
                                           "--workers", "in/crowd.txt", "--force"],
        opt("--workers"), "in/crowd.txt", files={"in/crowd.txt": CROWD["crowd.txt"]}),
    # the runs of eval-seeds --system NAME=RUNS, a comma-separated list of them
    *[err(f"eval-seeds-{option.strip('-')}-is-run-of-list", [*SEEDS_LIST, option, run,
                                                              "--force"],
          opt(option), run, "input")
      for option in ("-o", "--shard-scores") for run in ("a.run", "b.run", "./c.run")],
    err("eval-seeds-o-is-qrels", [*SEEDS_LIST, "-o", "qrels.txt", "--force"], "qrels.txt",
        "input"),
    # ---- output folders that are or hold an input
    err("many-per-topic-out-holds-runs-folder",
        ["eval-many", "qrels.txt", "runs", "-m", "map", "--per-topic-out", "runs", "--force"],
        opt("--per-topic-out"), "runs", files={"runs/a.run": Link("a.run", hard=True)}),
    err("many-per-topic-out-holds-glob", ["eval-many", "qrels.txt", "runs/*.run", "-m", "map",
                                          "--per-topic-out", "runs", "--force"],
        opt("--per-topic-out"), "runs", files={"runs/a.run": Link("a.run", hard=True)}),
    err("many-per-topic-out-holds-qrels", ["eval-many", "qrels.txt", "a.run", "-m", "map",
                                           "--per-topic-out", ".", "--force"],
        opt("--per-topic-out"), any_of("qrels.txt", "a.run")),
    err("many-per-topic-out-hard-link-as-part",
        ["eval-many", "qrels.txt", "a.run", "-m", "map", "--per-topic-out", "pt", "--force"],
        opt("--per-topic-out"), "a.run",
        files={"pt/part-00000.parquet": Link("a.run", hard=True)}),
    err("many-per-topic-out-symlink-as-part",
        ["eval-many", "qrels.txt", "a.run", "-m", "map", "--per-topic-out", "pt", "--force"],
        opt("--per-topic-out"), "qrels.txt",
        files={"pt/part-00000.parquet": Link("../qrels.txt")}),
    err("eval-per-topic-out-holds-run", ["eval", "qrels.txt", "in/a.run", "-m", "map",
                                         "--per-topic-out", "in", "--force"],
        opt("--per-topic-out"), "in/a.run", files={"in/a.run": Link("a.run", hard=True)}),
    err("scales-plot-dir-holds-inputs", [*SCALES, "--plot-dir", ".", "--force"],
        opt("--plot-dir"), any_of(*RUNS)),
    err("scales-plot-dir-symlink-as-plot", [*SCALES, "--plot-dir", "figs", "--force"],
        opt("--plot-dir"), "c.run", files={"figs/T_03_P.png": Link("../c.run")}),
    err("scales-plot-dir-hard-link-as-plot", [*SCALES, "--plot-dir", "figs", "--force"],
        opt("--plot-dir"), "c.run", files={"figs/T_03_AP.png": Link("c.run", hard=True)}),
    err("pool-qrels-out-symlink-as-induced", [*SIM, "--no-loo", "--qrels-out", "out",
                                              "--force"],
        opt("--qrels-out"), "qrels.txt", files={"out/depth-2.qrels": Link("../qrels.txt")}),
    err("pool-qrels-out-holds-inputs", [*SIM, "--no-loo", "--qrels-out", ".", "--force"],
        opt("--qrels-out"), any_of(*RUNS)),
    err("simulate-checkpoint-holds-input", [*BOOT, "--checkpoint", "."],
        opt("--checkpoint"), "ap.csv"),
    err("simulate-checkpoint-symlink-to-input", [*BOOT, "--checkpoint", "ck"],
        opt("--checkpoint"), "ap.csv", files={"ck/study.json": Link("../ap.csv")}),
    # ---- the same run twice, under two names
    err("eval-many-run-twice-hard-link", ["eval-many", "qrels.txt", "a.run", "hard.run",
                                          "-m", "map"], "hard.run", "given twice",
        files={"hard.run": Link("a.run", hard=True)}),
    err("eval-many-run-twice-symlink-and-folder", ["eval-many", "qrels.txt", "runs",
                                                   "link.run", "-m", "map"],
        "link.run", "given twice",
        files={"runs/a.run": Link("a.run", hard=True), "link.run": Link("runs/a.run")}),
    err("eval-run-twice-hard-link", ["eval", "qrels.txt", "a.run", "hard.run", "-m", "map"],
        "hard.run", "given twice", files={"hard.run": Link("a.run", hard=True)}),
    err("compare-run-twice-symlink", ["compare", "qrels.txt", "a.run", "b.run", "link.run",
                                      "-m", "map"], "link.run", "given twice",
        files={"link.run": Link("a.run")}),
    *[err(f"{name}-run-twice-hard-link", [("hard.run" if a == "b.run" else a) for a in argv],
          "hard.run", "given twice", files={**files, "hard.run": Link("a.run", hard=True)})
      for name, argv, files in (
          ("interleave", INTER, {}), ("sensitivity", SENSITIVITY, {}),
          ("online-score", [*SCORE, "--runs", "a.run", "b.run"], SCORE_LOGS),
          ("online-measures", measures(), CLICKS))],
    err("eval-run-twice-folder-and-glob", ["eval", "qrels.txt", "runs", "runs/*.run", "-m",
                                           "map"], "given twice",
        files={"runs/a.run": Link("a.run", hard=True)}),
]


@pytest.mark.parametrize("case", OTHER_OUTPUTS)
def test_other_outputs(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ------------------------------------------------------------------ the reproductions
def _demo_runs(ws, run_cli) -> None:
    """``irscale demo --out demo; mkdir runs; cp demo/*.run runs/``."""
    result = run_cli(["demo", "--out", "demo", "--topics", "5"])
    assert result.status == 0, result.describe()
    (ws.root / "runs").mkdir()
    for path in sorted((ws.root / "demo").glob("*.run")):
        (ws.root / "runs" / path.name).write_bytes(path.read_bytes())


@pytest.mark.parametrize("argv", [
    ["eval", "-m", "map", "--names", "file", "-o", "runs/system2.run", "--force",
     "demo/qrels.txt", "runs"],
    ["eval-many", "-m", "map", "--names", "file", "-o", "runs/system2.run", "--force",
     "demo/qrels.txt", "runs"],
    ["eval-many", "-m", "map", "-o", "runs/system2.run", "--force", "demo/qrels.txt",
     "runs/*.run"],
    ["eval", "-m", "map", "-o", "runs/system2.run", "--force", "demo/qrels.txt",
     "runs/*.run"],
], ids=["eval-folder", "eval-many-folder", "eval-many-glob", "eval-glob"])
def test_summary_never_replaces_a_run_of_the_folder(argv, ws, run_cli):
    """The reproductions: the summary written over a run that the call reads through its
    folder or a quoted pattern, with --force: refused, the run unchanged."""
    _demo_runs(ws, run_cli)
    run_case(Case("reproduction", tuple(argv), "error", ("runs/system2.run", "input")),
             ws, run_cli)


# ------------------------------------------------------------------ the backstop
#: Calls whose input loses its declared role in the test (the option, or the positional
#: argument's name): the declared check cannot see it, and the one writer must refuse to
#: rename the output onto the file the call read (:mod:`irscale.core.reads`).
UNDECLARED = {
    "eval-seeds-system": ("--system", [*SEEDS_LIST, "-o", "b.run", "--force"], {}),
    "eval-seeds-system-shard-scores": ("--system", [*SEEDS_LIST, "--shard-scores", "c.run",
                                                    "--force"], {}),
    "report-automatic": ("--automatic", [*COMMANDS["report-automatic"][0], "-o", "qrels.txt",
                                         "--force"], HUMAN),
    "eval-runs-read-by-the-engine": ("runs", ["eval", "qrels.txt", "a.run", "b.run", "-m",
                                              "map", "-o", "hard.run", "--force"],
                                     {"hard.run": Link("b.run", hard=True)}),
    "fuse-runs": ("runs", ["fuse", "a.run", "b.run", "--method", "combsum", "-o", "a.run",
                           "--force"], {}),
}


@pytest.mark.parametrize("name", list(UNDECLARED))
def test_undeclared_input_is_never_replaced(name, ws, run_cli, monkeypatch):
    """An input whose declaration lost its role (``file_role`` says nothing of it): the
    call does its work, then its output is refused at the rename, with one line saying
    that an input is never replaced; every file as it was, no staging file left."""
    from irscale.cli import outputs

    argument, argv, files = UNDECLARED[name]
    declared = outputs.file_role

    def forgotten(action):
        return None if argument in (*action.option_strings, action.dest) else \
            declared(action)

    monkeypatch.setattr(outputs, "file_role", forgotten)
    run_case(Case(name, tuple(argv), "error", ("an input is never replaced",),
                  tuple(files.items())), ws, run_cli)

"""``irscale online score``: malformed interleaving logs (every check of the reader and of
the scoring against the runs names file, line and text), faulty runs, and every option's
bad values and combinations."""

from __future__ import annotations

import numpy as np
import pytest

from .catalog import trec_file_faults
from .conftest import (
    RUN_IDS,
    any_of,
    err,
    gz,
    ok,
    opt,
    output_contains,
    run_case,
    run_lines,
    same_output_as,
    with_option,
)

A, B, C = "a", "b", "c"  # the runs' names (their files), as the logs name the teams


def _rankings(*which: str) -> dict[str, dict[str, list[str]]]:
    """The fixture's runs as {name: {topic: [docno, ...]}} (rank order)."""
    out: dict[str, dict[str, list[str]]] = {}
    for w in which:
        for line in run_lines(w):
            topic, _, doc, *_ = line.split()
            out.setdefault(w, {}).setdefault(topic, []).append(doc)
    return out


def _log(which: str, method: str, *, team: bool = True) -> list[str]:
    """A log of the fixture's runs interleaved by irscale (2 impressions per topic, 4
    documents), the first and last document of every impression clicked."""
    from irscale.online.interleaving import interleave_runs

    frame = interleave_runs(_rankings(*which), 2, method=method, length=4, rng=0).to_frame()
    if not team or "team" not in frame:
        frame["team"] = "-"
    clicked = (frame["rank"] == 1) | (frame["rank"] == 4)
    return [f"i{i} {t} {r} {d} {s} {int(c)}" for i, t, r, d, s, c in zip(
        frame["impression"], frame["topic"], frame["rank"], frame["docno"], frame["team"],
        clicked, strict=True)]


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


LINES = _log("ab", "team-draft")
LOG = _text(LINES)
FILES = {"log.txt": LOG, "multi.txt": _text(_log("abc", "team-draft")),
         "balanced.txt": _text(_log("ab", "balanced")),
         "prob.txt": _text(_log("ab", "probabilistic"))}
BASE = ["online", "score", "log.txt", "--seed", "1", "--bootstrap", "200"]
RUNS = ["--runs", "a.run", "b.run"]
PLAIN = [*BASE[:2], "plain.txt", *BASE[3:]]  # (the log of the fixture, kept as plain.txt)
LOC = any_of("log.txt, line 3", "log.txt:3", "log.txt line 3")


def _line3(new: str) -> str:
    """The log with its third line replaced (impression i0, rank 3)."""
    lines = list(LINES)
    lines[2] = new
    return _text(lines)


def _field3(index: int, value: str) -> str:
    fields = LINES[2].split()
    fields[index] = value
    return _line3(" ".join(fields))


def files(**more: str | bytes) -> dict:
    return {**FILES, **{k.replace("_", "."): v for k, v in more.items()}}


def run_argv(name: str) -> list[str]:
    return [*BASE, "--runs", name, "b.run"]


# the impression of the third line, its teams in ranks 1..4
_I0 = [line.split() for line in LINES if line.split()[0] == "i0"]
_ONE_TEAM = _text([" ".join([*f[:4], A, f[5]]) for f in _I0] + LINES[4:])
_TWICE = _text([" ".join([*f[:4], [A, A, B, B][k], f[5]]) for k, f in enumerate(_I0)]
               + LINES[4:])
_ONLY_A = _text([" ".join([*line.split()[:4], A, line.split()[5]]) for line in LINES])


def _teams(names: dict[str, str], log: list[str] = LINES) -> str:
    """The log with its teams renamed as ``names`` says (``{"a": "teamA_r1"}``)."""
    return _text([" ".join([*f[:4], names.get(f[4], f[4]), f[5]]) for f in map(str.split, log)])


#: The logs whose teams name the runs otherwise than by their names: by run id, file name
#: and path.
BY_RUNID = _teams(RUN_IDS)
BY_FILE = _teams({A: "a.run", B: "./b.run"})
PROBABILISTIC_BY_RUNID = _teams(RUN_IDS, _log("ab", "probabilistic"))
_BLANKS = "\n".join("  " + "\t \t".join(line.split()) + " \t" for line in LINES) + "\n"

CASES = [
    ok("score", BASE, output_contains("team-draft interleaving", A, B, "binomial"),
       files=FILES),
    ok("score-runs", [*BASE, *RUNS], same_output_as(*BASE), files=FILES),
    ok("score-multileaving", [*BASE[:2], "multi.txt", *BASE[3:]], output_contains(A, B, C),
       files=FILES),
    ok("score-multileaving-runs", [*BASE[:2], "multi.txt", *BASE[3:], "--runs", "a.run",
                                   "b.run", "c.run"], output_contains(C), files=FILES),
    ok("score-balanced", [*BASE[:2], "balanced.txt", *BASE[3:], "--method", "balanced",
                          *RUNS], output_contains("balanced"), files=FILES),
    ok("score-optimized", [*BASE[:2], "balanced.txt", *BASE[3:], "--method", "optimized",
                           *RUNS], output_contains("optimized"), files=FILES),
    ok("score-optimized-linear", [*BASE[:2], "balanced.txt", *BASE[3:], "--method",
                                  "optimized", "--credit", "linear", *RUNS], files=FILES),
    ok("score-probabilistic", [*BASE[:2], "prob.txt", *BASE[3:], "--method",
                               "probabilistic", *RUNS], output_contains("t (mean"),
       files=FILES),
    ok("score-probabilistic-tau", [*BASE[:2], "prob.txt", *BASE[3:], "--method",
                                   "probabilistic", "--tau", "2", *RUNS], files=FILES),
    ok("score-probabilistic-assignment", [*BASE[:2], "prob.txt", *BASE[3:], "--method",
                                          "probabilistic", "--credit", "assignment"],
       output_contains("binomial"), files=FILES),
    ok("score-alpha", [*BASE, "--alpha", "0.1"], files=FILES),
    ok("score-csv", [*BASE, "--format", "csv"], output_contains("a,b,n,wins"), files=FILES),
    ok("score-json", [*BASE, "--format", "json"], output_contains('"wins"'), files=FILES),
    ok("score-markdown", [*BASE, "--format", "markdown"], files=FILES),
    ok("score-output", [*BASE, "-o", "out.txt"], files=FILES, allowed_new=("out.txt",)),
    ok("score-stdin", [*BASE[:2], "-", *BASE[3:]], same_output_as(*BASE), files=FILES,
       stdin=LOG.encode()),
    ok("score-gzip", [*BASE[:2], "log.gz", *BASE[3:]], same_output_as(*BASE),
       files=files(log_gz=gz(LOG.encode()))),
    ok("score-crlf", BASE, same_output_as(*BASE[:2], "plain.txt", *BASE[3:]),
       files={**FILES, "plain.txt": LOG, "log.txt": LOG.replace("\n", "\r\n")}),
    ok("score-tabs-and-blank-runs", BASE, same_output_as(*BASE[:2], "plain.txt",
                                                          *BASE[3:]),
       files={**FILES, "plain.txt": LOG, "log.txt": _BLANKS}),
    ok("score-lines-in-any-order", BASE, same_output_as(*BASE[:2], "plain.txt", *BASE[3:]),
       files={**FILES, "plain.txt": LOG,
              "log.txt": _text(list(np.random.default_rng(0).permutation(LINES)))}),
    # ---- the file
    err("score-missing-log", [*BASE[:2], "nope.txt", *BASE[3:]], "nope.txt", files=FILES),
    err("score-log-is-a-folder", [*BASE[:2], "adir", *BASE[3:]], "adir", files=FILES),
    err("score-empty-log", BASE, "log.txt", "empty", files=files(log_txt="")),
    err("score-blank-log", BASE, "log.txt", "empty", files=files(log_txt="\n \n\t\n")),
    err("score-log-not-utf8", BASE, "log.txt", files=files(log_txt=b"i0 1 1 d\xff A 1\n")),
    err("score-no-log", BASE[:2], any_of("LOG", "arguments")),
    # ---- malformed lines: file, line, text
    err("score-too-few-fields", BASE, LOC, files=files(log_txt=_line3("i0 1 3 d2 1"))),
    err("score-too-many-fields", BASE, LOC, "extra",
        files=files(log_txt=_line3(LINES[2] + " extra"))),
    err("score-rank-text", BASE, LOC, "rank", files=files(log_txt=_field3(2, "three"))),
    err("score-rank-zero", BASE, LOC, "rank", files=files(log_txt=_field3(2, "0"))),
    err("score-rank-repeated", BASE, LOC, "twice", files=files(log_txt=_field3(2, "2"))),
    err("score-rank-gap", BASE, any_of("log.txt, line 3", "log.txt, line 4"), "1..n",
        files=files(log_txt=_field3(2, "5"))),
    err("score-clicked-two", BASE, LOC, "0 or 1", files=files(log_txt=_field3(5, "2"))),
    err("score-clicked-text", BASE, LOC, "clicked", files=files(log_txt=_field3(5, "yes"))),
    err("score-docno-twice", BASE, LOC, "twice", LINES[0].split()[3],
        files=files(log_txt=_field3(3, LINES[0].split()[3]))),
    err("score-impression-two-topics", BASE, LOC, "topic",
        files=files(log_txt=_field3(1, "5" if LINES[2].split()[1] != "5" else "4"))),
    err("score-no-team", BASE, LOC, "team", files=files(log_txt=_field3(4, "-"))),
    err("score-one-team-impression", BASE, "log.txt", "line 1", "only",
        files=files(log_txt=_ONE_TEAM)),
    err("score-team-twice-in-round", BASE, "log.txt", "line 2", "round",
        files=files(log_txt=_TWICE)),
    err("score-one-team-in-log", BASE, "log.txt", "one team", files=files(log_txt=_ONLY_A)),
    err("score-team-not-a-run", [*BASE, *RUNS], LOC, "nobody",
        files=files(log_txt=_field3(4, "nobody"))),
    err("score-team-without-its-run", [*BASE, "--runs", "a.run", "c.run"], "log.txt", B,
        files=FILES),
    err("score-doc-not-in-runs", [*BASE, *RUNS], LOC, "d99",
        files=files(log_txt=_field3(3, "d99"))),
    err("score-team-does-not-rank-doc", [*BASE, *RUNS], "log.txt", "does not rank",
        files=files(log_txt=_text([" ".join([*f[:4], {A: B, B: A}[f[4]], f[5]])
                                   for f in map(str.split, LINES)]))),
    err("score-topic-not-in-runs", [*BASE, *RUNS], "log.txt", "line 1", "99",
        files=files(log_txt=_text([*[" ".join([f[0], "99", *f[2:]]) for f in
                                     map(str.split, LINES[:4])], *LINES[4:]]))),
    # ---- the teams name the runs as every run argument does (io.naming.find_run)
    ok("score-teams-by-run-id", [*BASE, *RUNS], same_output_as(*PLAIN, *RUNS),
       files=files(log_txt=BY_RUNID, plain_txt=LOG)),
    ok("score-teams-by-file", [*BASE, *RUNS], same_output_as(*PLAIN, *RUNS),
       files=files(log_txt=BY_FILE, plain_txt=LOG)),
    ok("score-probabilistic-teams-by-run-id",
       [*BASE[:2], "prob.txt", *BASE[3:], "--method", "probabilistic", *RUNS],
       same_output_as(*PLAIN, "--method", "probabilistic", *RUNS),
       files=files(prob_txt=PROBABILISTIC_BY_RUNID, plain_txt=FILES["prob.txt"])),
    ok("score-names-runid", [*BASE, *RUNS, "--names", "runid"],
       output_contains(RUN_IDS[A], RUN_IDS[B]), files=files(log_txt=BY_RUNID)),
    ok("score-names-given", [*BASE, *RUNS, "--names", "x,y"], output_contains("x  y"),
       files=FILES),
    err("score-team-names-no-run", [*BASE, *RUNS], LOC, "names no run", "'a' (a.run)",
        files=files(log_txt=_field3(4, "nobody"))),
    err("score-team-ambiguous", [*BASE, *RUNS], "log.txt", "ambiguous", "a.run", "b.run",
        files=files(b_run=_text([line.rsplit(" ", 1)[0] + " a" for line in run_lines("b")]))),
    err("score-two-teams-one-run", [*BASE, *RUNS], "log.txt", "both name", RUN_IDS[A],
        files=files(log_txt=_teams({B: RUN_IDS[A]}))),
    err("score-names-without-runs", [*BASE, "--names", "runid"], opt("--names"), "--runs",
        files=FILES),
    err("score-names-count", [*BASE, *RUNS, "--names", "x"], opt("--names", "names"),
        "2 runs", files=FILES),
    # ---- options
    err("score-balanced-without-runs", [*BASE, "--method", "balanced"], opt("--runs"),
        files=FILES),
    err("score-optimized-without-runs", [*BASE, "--method", "optimized"], opt("--runs"),
        files=FILES),
    err("score-probabilistic-without-runs", [*BASE, "--method", "probabilistic"],
        opt("--runs"), files=FILES),
    err("score-balanced-three-runs", [*BASE, "--method", "balanced", "--runs", "a.run",
                                      "b.run", "c.run"], "two", files=FILES),
    err("score-runs-one", [*BASE, "--runs", "a.run"], "one ranker", files=FILES),
    err("score-runs-empty", [*BASE, "--runs"], opt("--runs"), files=FILES),
    err("score-runs-twice-same", [*BASE, "--runs", "a.run", "a.run"], "twice",
        files=FILES),
    err("score-method-unknown", [*BASE, "--method", "tdi"], "tdi", files=FILES),
    err("score-credit-team-draft", [*BASE, "--credit", "team"], opt("--credit"), files=FILES),
    err("score-credit-unknown", [*BASE, "--method", "optimized", "--credit", "log", *RUNS],
        "log", files=FILES),
    err("score-tau-team-draft", [*BASE, "--tau", "2"], opt("--tau"), files=FILES),
    err("score-tau-assignment", [*BASE, "--method", "probabilistic", "--credit",
                                 "assignment", "--tau", "2"], opt("--tau"), files=FILES),
    err("score-tau-zero", [*BASE, "--method", "probabilistic", "--tau", "0", *RUNS],
        opt("--tau"), files=FILES),
    err("score-tau-nan", [*BASE, "--method", "probabilistic", "--tau", "nan", *RUNS],
        opt("--tau"), files=FILES),
    err("score-tau-text", [*BASE, "--tau", "x"], opt("--tau"), files=FILES),
    err("score-alpha-0", [*BASE, "--alpha", "0"], opt("--alpha"), files=FILES),
    err("score-alpha-1", [*BASE, "--alpha", "1"], opt("--alpha"), files=FILES),
    err("score-alpha-nan", [*BASE, "--alpha", "nan"], opt("--alpha"), files=FILES),
    err("score-bootstrap-0", with_option(BASE, "--bootstrap", "0"), opt("--bootstrap"),
        files=FILES),
    err("score-bootstrap-text", with_option(BASE, "--bootstrap", "x"), opt("--bootstrap"),
        files=FILES),
    err("score-bootstrap-huge", with_option(BASE, "--bootstrap", str(2**63 - 1)),
        opt("--bootstrap"), "1,000,000,000", files=FILES),
    err("score-seed-negative", with_option(BASE, "--seed", "-1"), opt("--seed"),
        files=FILES),
    err("score-seed-text", with_option(BASE, "--seed", "x"), opt("--seed"), files=FILES),
    err("score-format-unknown", [*BASE, "--format", "xml"], "xml", files=FILES),
    err("score-output-is-log", [*BASE, "-o", "log.txt", "--force"], "log.txt", files=FILES),
    err("score-output-is-run", [*BASE, *RUNS, "-o", "a.run", "--force"], "a.run",
        files=FILES),
    err("score-output-exists", [*BASE, "-o", "qrels.txt"], "qrels.txt", files=FILES),
    err("score-unknown-option", [*BASE, "--bogus"], "--bogus", files=FILES),
]
# faulty run files at the place of a.run, named a by their file (with the log of the
# fixture's runs, whose teams are the runs' names); a topic the
# log does not show is no fault here (runs rank every topic, a log shows some): no warning
RUN_FAULTS = [case for case in trec_file_faults("score-run", "run", run_argv,
                                                run_argv("a.run"), name="bad/a.run")
              if case.id != "score-run-extra-topic-warns"]
RUN_FAULTS.append(ok("score-run-extra-topic", run_argv("bad/a.run"),
                     same_output_as(*run_argv("a.run")),
                     files={"bad/a.run": _text([*run_lines("a"), "99 Q0 d1 1 0.5 " + A])}))


@pytest.mark.parametrize("case", CASES)
def test_online_score(case, ws, run_cli):
    run_case(case, ws, run_cli)


@pytest.mark.parametrize("case", RUN_FAULTS)
def test_online_score_runs(case, ws, run_cli):
    ws.write("log.txt", LOG)
    run_case(case, ws, run_cli)

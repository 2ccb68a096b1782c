"""The functions of ``online ab assign | srm``, ``meta gstudy``, ``text pyramid`` and
``text bleu``, bound where they are defined: the API refuses what the command line
refuses (the splits of an A/B test, the D-study's sizes, a switch given another value),
and the command line checks the options as parsed, before its inputs are read; a domain
that depends on another value (optimized interleaving's length) stated by the binding."""

from __future__ import annotations

import numpy as np
import pytest

import irscale.online
from irscale import stats
from irscale.text import evaluate_bleu, evaluate_corpus_bleu, evaluate_pyramid

from .conftest import err, ok, opt, output_contains, run_case
from .test_api_faults import Row, bad, check_row

PYRAMID = b"q1\ts1\tA,B,C\nq1\ts2\tA,B\nq1\ts3\tC\n"
PEERS = b"q1\tsys\ts2\nq1\tsys\ts3\n"
REFERENCES = b"q1\tr1\tthe cat sat on the mat\n"
CANDIDATES = b"q1\tsys\tthe cat sat on a mat\n"


def _gstudy() -> stats.GStudy:
    return stats.gstudy(np.random.default_rng(0).normal(size=(10, 4)))


ROWS = [
    # a variant's name that 'user variant' files cannot hold (the command line refused it)
    bad("assign-splits-name-blank", lambda a: irscale.online.assign(
        ["u1", "u2"], salt="s", splits={"a b": 0.5, "c": 0.5}), "splits", "'a b'", "blank"),
    bad("assign-splits-name-tab", lambda a: irscale.online.assign(
        ["u1", "u2"], salt="s", splits=["a\tb", "c"]), "splits", "tab"),
    bad("assign-splits-name-empty", lambda a: irscale.online.assign(
        ["u1", "u2"], salt="s", splits={"": 0.5, "c": 0.5}), "splits", "empty"),
    bad("srm-splits-name-blank", lambda a: irscale.online.sample_ratio_mismatch(
        {"a b": 5, "c": 5}, {"a b": 0.5, "c": 0.5}), "splits", "'a b'"),
    bad("srm-splits-share-bool", lambda a: irscale.online.sample_ratio_mismatch(
        {"a": 5, "c": 5}, {"a": True, "c": 0.5}), "splits", "not a number"),
    # a D-study size given twice: the command line refused it, the API made a row twice
    bad("dstudy-topics-twice", lambda a: _gstudy().dstudy([10, 10]), "n_topics", "twice"),
    bad("dstudy-facet-twice", lambda a: stats.gstudy(np.random.default_rng(0).normal(
        size=(6, 3, 2))).dstudy(10, [2, 2]), "n_facet", "twice"),
    # a switch given a value that Python reads as true ("no")
    bad("pyramid-allow-empty-text", lambda a: evaluate_pyramid(PYRAMID, PEERS,
                                                               allow_empty="no"),
        "allow_empty", "True or False", "'no'"),
    bad("bleu-allow-empty-text", lambda a: evaluate_bleu(REFERENCES, CANDIDATES,
                                                         allow_empty="no"),
        "allow_empty", "True or False"),
    # a domain that depends on another value, declared in the binding (Narrows): the
    # message names the method that narrows it
    bad("interleave-optimized-length-17", lambda a: irscale.online.interleave_runs(
        {"A": {"q": [f"d{i}" for i in range(20)]}, "B": {"q": [f"d{i}" for i in range(20)]}},
        2, method="optimized", length=17, rng=1), "length with method='optimized'", "17"),
    bad("corpus-bleu-allow-empty", lambda a: evaluate_corpus_bleu(
        REFERENCES, CANDIDATES, allow_empty=True), "allow_empty", "unknown keyword"),
]


@pytest.mark.parametrize("row", ROWS)
def test_api_refuses_what_the_command_line_refuses(row: Row):
    check_row(row, None)  # (the rows' calls need no files)


def test_api_takes_the_command_lines_splits():
    """The text the command line takes is a value of the declared domain too."""
    text = irscale.online.assign(["u1", "u2", "u3"], salt="s", splits="a=0.25,b=0.75")
    mapping = irscale.online.assign(["u1", "u2", "u3"], salt="s",
                                    splits={"a": 0.25, "b": 0.75})
    assert text.tolist() == mapping.tolist()
    assert irscale.online.sample_ratio_mismatch({"a": 5, "b": 15}, "a=0.25,b=0.75").pvalue \
        == pytest.approx(1.0)


GSTUDY_FACET = ["meta", "gstudy", "--facet-scores", "nope.csv"]
USERS = {"users.txt": "u1\nu2\nu3\n"}

CASES = [
    # --facet checked as parsed, before --facet-scores is read (it was refused by the
    # function, after the file)
    err("gstudy-facet-system", [*GSTUDY_FACET, "--facet", "system"], opt("--facet"),
        "system and topic"),
    err("gstudy-facet-blank", [*GSTUDY_FACET, "--facet", "a b"], opt("--facet"), "'a b'"),
    # the splits checked as parsed, before the users' file is read
    err("assign-splits-before-users", ["online", "ab", "assign", "nope.txt", "--salt", "s",
                                       "--splits", "a=1"], opt("--splits"), "two"),
    err("srm-splits-before-table", ["online", "ab", "srm", "nope.csv", "--splits",
                                    "a=0.5,b=0.6"], opt("--splits"), "sum to 1"),
    err("interleave-optimized-length-17",
        ["online", "interleave", "a.run", "b.run", "--clicks", "perfect", "--qrels",
         "qrels.txt", "--method", "optimized", "--length", "17"],
        "--length with --method optimized", "[1, 16]", "17"),
    ok("assign-splits-default", ["online", "ab", "assign", "users.txt", "--salt", "s"],
       output_contains("u1\t"), files=USERS),
]


@pytest.mark.parametrize("case", CASES)
def test_bound_commands(case, ws, run_cli):
    run_case(case, ws, run_cli)

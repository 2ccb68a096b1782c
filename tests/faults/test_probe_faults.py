"""What a fresh hostile probe of every subcommand found (issue 66, "a fresh probe of every
subcommand finds nothing of these classes"): each row a class of fault, through the command
line and, where the rule lives below it, the Python API. Table-driven: every row is one
call checked against the contract of ``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import pytest

import irscale.core.progress
from irscale.errors import IrscaleError

from .conftest import err, ok, qrels_lines, run_case, run_lines, text, warns_of
from .test_compare_faults import SHARDS
from .test_fifo_sweep_faults import FILES as SWEEP_FILES
from .test_online_score_faults import LOG as SCORE_LOG
from .test_text_faults import FILES as SESSION_FILES

#: Document lengths (``topic iter docno length``) with one negative length, that of d1.
NEGATIVE_LENGTH = SESSION_FILES["len.txt"].replace(b"* 0 d1 100", b"* 0 d1 -100")
LENGTHS = {"len.txt": NEGATIVE_LENGTH}

#: ``meta split`` of shard models on shard scores with one undefined score (then --empty).
SPLIT_SHARDS = ["meta", "split", "--scores", "shm.csv", "--topic-column", "topic",
                "--shard-scores", "sh.csv", "--sizes", "2,3", "--repetitions", "3", "--seed",
                "1", "--models", "shard-main", "--empty"]
UNDEFINED = {"shm.csv": SWEEP_FILES["shm.csv"],
             "sh.csv": SHARDS.replace("0,r0,k1,0.2700", "0,r0,k1,nan")}

CASES = [
    # ======================================= an absurd value in a file is never used
    # a negative document length (a count) was used as given: U and TBG printed values
    # (deflen=-100 is refused)
    *[err(f"{measure}-negative-document-length",
          ["eval", "qrels.txt", "a.run", "-m", measure, "--labels", "doclen=len.txt"],
          f"measure '{measure}'", "document length of -100", "'doclen'", "topic '1'",
          "0 or more", files=LENGTHS) for measure in ("U", "TBG")],
    err("session-U-negative-document-length",
        ["session", "qrels.txt", "s.run", "-m", "U", "--labels", "doclen=len.txt",
         "--clicks", "c.log"], "measure 'U'", "document length of -100", "'doclen'",
        "0 or more", files={**SESSION_FILES, **LENGTHS}),
    # ======================================= the labels of the user's file, and a word
    # an undefined shard score was named by the labels of a split ('topic '1', shard
    # 'shard2'' for topic '0', shard 'k1'); --empty zero set it to 0 in silence
    err("split-undefined-shard-score-named-by-its-labels", [*SPLIT_SHARDS, "error"],
        "topic '0'", "system 'r0'", "shard 'k1'", "--empty", files=UNDEFINED),
    ok("split-undefined-shard-score-set-to-zero-says-so", [*SPLIT_SHARDS, "zero"],
       warns_of("1 undefined shard score(s)", "'zero'"), files=UNDEFINED),
    # ======================================= an error names the file, line and text
    # a preference of a topic or a system the scores lack named neither file nor line
    err("predict-preference-of-a-topic-the-scores-lack",
        ["meta", "predict", "--scores", "ap.csv", "--preferences", "p.txt"], "p.txt",
        "line 2", "'13 sysC sysA right'", "topic(s) ['13']",
        files={"p.txt": b"1 sysA sysB left\n13 sysC sysA right\n"}),
    # the ordering comparison named neither run of a topic the reproduction lacks
    err("reproduce-topic-the-reproduced-run-lacks",
        ["meta", "reproduce", "qrels.txt", "a.run", "b.run", "c.run", "-m", "map",
         "--original", "teamA_r1,teamB_r1", "--reproduced", "teamC_r2,teamB_r1"],
        "reproduced run 'c'", "topic(s) ['9']", "original run 'a'",
        files={"a.run": text([*run_lines("a"), "9 Q0 d1 1 0.9 teamA_r1"])}),
    # a human topic the automatic qrels lack named neither file
    err("auto-human-topic-the-automatic-qrels-lack",
        ["labels", "auto", "qrels.txt", "h.txt", "a.run", "b.run", "c.run", "-m", "map"],
        "human qrels (h.txt)", "automatic qrels (qrels.txt)", "['9']",
        files={"h.txt": text([*qrels_lines(), "9 0 d1 1"])}),
    err("predict-preference-of-a-system-the-runs-lack",
        ["meta", "predict", "qrels.txt", "a.run", "b.run", "-m", "map", "--preferences",
         "p.txt"], "p.txt", "line 3", "'2 a sysQ tie'", "system 'sysQ' names no run",
        files={"p.txt": b"1 a b left\n\n2 a sysQ tie\n"}),
]


@pytest.mark.parametrize("case", CASES)
def test_probe(case, ws, run_cli):
    run_case(case, ws, run_cli)


# ---------------------------------------------------------------- long work, announced
#: Interleaving outcomes bootstrapped (``online score``, ``online interleave``): 10^8
#: samples took a minute in one uninterruptible draw, silent, ^C answered when it ended.
BOOTSTRAPPED = {
    "score": ["online", "score", "score.log", "--seed", "1", "--bootstrap", "2500000"],
    "interleave": ["online", "interleave", "a.run", "b.run", "--clicks", "perfect",
                   "--qrels", "qrels.txt", "--impressions", "5", "--seed", "1",
                   "--bootstrap", "2500000"],
}


@pytest.mark.parametrize("argv", [pytest.param(v, id=k) for k, v in BOOTSTRAPPED.items()])
def test_interleaving_bootstrap_is_drawn_in_timed_chunks(argv, ws, run_cli, monkeypatch):
    """The bootstrap is drawn in chunks (^C and SIGTERM are answered between two), and
    the rest is announced from the first: with any duration worth a notice (the notice's
    threshold and the time measured before it set to 0 s, so that the test does not
    depend on the machine's speed)."""
    ws.write("score.log", SCORE_LOG)
    monkeypatch.setattr(irscale.core.progress, "NOTICE_SECONDS", 0.0)
    monkeypatch.setattr(irscale.core.progress, "DELAY", 0.0)  # stated at the first chunk
    result = run_cli(argv)
    assert result.status == 0 and "Traceback" not in result.err, result.describe()
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("irscale: the bootstrap: ") and \
        "more samples (--bootstrap) at" in lines[0] and "(measured)" in lines[0], \
        "not one estimate" + result.describe()


# ---------------------------------------------------------------- the Python API
def _api_calls() -> list:
    import irscale
    import irscale.collections
    import irscale.meta
    import irscale.online
    import irscale.plots
    import irscale.stats

    huge = 10**30
    return [
        # a Python integer beyond 64 bits reached scipy or numpy: TypeError, OverflowError
        pytest.param(lambda: irscale.stats.power_paired_t(0.5, huge), "n",
                     id="power_paired_t-n-huge"),
        pytest.param(lambda: irscale.stats.power_anova(0.5, huge, 10), "n_systems",
                     id="power_anova-n_systems-huge"),
        pytest.param(lambda: irscale.online.ab_power(0.1, 1.0, huge), "n",
                     id="ab_power-n-huge"),
        pytest.param(lambda: irscale.meta.kendall_tau([0.1, 0.4, 0.3], [0.2, 0.5, 0.1],
                                                      decimals=huge), "decimals",
                     id="kendall_tau-decimals-huge"),
        # no domain check: 'math domain error', ZeroDivisionError
        pytest.param(lambda: irscale.stats.expected_ci_width(-1, 0.2), "n",
                     id="expected_ci_width-n-negative"),
        pytest.param(lambda: irscale.stats.expected_ci_width(True, 0.2), "n",
                     id="expected_ci_width-n-True"),
        # an empty collection where one was declared 'object' or 'Any': IndexError, KeyError
        pytest.param(lambda: irscale.pairwise_tests({}), "data", id="pairwise_tests-empty"),
        pytest.param(lambda: irscale.collections.unjudged_bounds("qrels.txt", [], ["P@3"]),
                     "runs", id="unjudged_bounds-no-run"),
        # 2^(10^30) runs were counted before the limit was compared: no end
        pytest.param(lambda: irscale.plots.measure_hasse("AP", N=huge), "N",
                     id="measure_hasse-N-huge"),
    ]


@pytest.mark.parametrize(("call", "param"), _api_calls())
def test_api_wrong_value_is_named(call, param, ws):
    """An irscale error that names the argument, never a raw exception (nor no end)."""
    with pytest.raises(IrscaleError) as caught:
        call()
    assert str(caught.value).startswith((f"{param}: ", f"{param} ")), str(caught.value)

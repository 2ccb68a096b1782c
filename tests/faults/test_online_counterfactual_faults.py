"""``irscale online counterfactual`` and ``irscale online historical``: off-policy
estimates from click logs and interleaving logs; faulty logs, policy and propensity
tables (file, line and text named), and every option's bad values and combinations."""

from __future__ import annotations

import math
from itertools import permutations

import pytest

from .conftest import any_of, err, ok, opt, output_contains, run_case, run_lines

A, B = "a", "b"  # the runs' names (their files), as the logs name the teams


def _top(which: str, topic: str, k: int = 3) -> list[str]:
    return [line.split()[2] for line in run_lines(which) if line.split()[0] == topic][:k]


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


#: Topics 1 and 2, each shown in the six orders of run a's first three documents; a
#: click on the document at rank 1 of every other session and on rank 3 of every third.
_LOG = []
for _t in ("1", "2"):
    for _n, _order in enumerate(permutations(_top("a", _t))):
        _s = f"s{_t}{_n}"
        _clicks = (_n % 2 == 0, False, _n % 3 == 0)
        _LOG += [f"{_s} {_t} {r + 1} {d} {int(_clicks[r])}" for r, d in enumerate(_order)]
LOG = _text(_LOG)
UNIFORM = _text([f"{t} {d} {r} {1 / 3:.17g}" for t in ("1", "2") for d in _top("a", t)
                 for r in (1, 2, 3)])
POLICY = _text([f"{t} {d} {r + 1} 1" for t in ("1", "2")
                for r, d in enumerate(_top("a", t))])
REWARD = _text([f"{t} {d} 0.4" for t in ("1", "2") for d in _top("a", t)])
#: The logging policy as a distribution over whole rankings: the six orders, 1/6 each.
SLATES = _text([f"{t} {','.join(order)} {1 / 6:.17g}" for t in ("1", "2")
                for order in permutations(_top("a", t))])


def _historical_log() -> str:
    """Probabilistic interleaving of runs a and b (2 impressions per topic, 4 documents),
    the first document of every impression clicked."""
    from irscale.online.interleaving import interleave_runs

    rankings: dict[str, dict[str, list[str]]] = {}
    for w in "ab":
        for line in run_lines(w):
            topic, _, doc, *_ = line.split()
            rankings.setdefault(w, {}).setdefault(topic, []).append(doc)
    frame = interleave_runs(rankings, 2, method="probabilistic", length=4, rng=0).to_frame()
    return _text([f"i{i} {t} {r} {d} {s} {int(r == 1)}" for i, t, r, d, s in zip(
        frame["impression"], frame["topic"], frame["rank"], frame["docno"], frame["team"],
        strict=True)])


#: A cascade click model's parameters (online fit --format json) for the documents shown.
CM_JSON = ('{"model": "cm", "attractiveness": ['
           + ", ".join(f'["{t}", "{d}", 0.4]' for t in ("1", "2") for d in _top("a", t))
           + "]}\n")
FILES = {"log.txt": LOG, "uniform.txt": UNIFORM, "policy.txt": POLICY,
         "reward.txt": REWARD, "slates.txt": SLATES, "ilog.txt": _historical_log(),
         "cm.json": CM_JSON}
BASE = ["online", "counterfactual", "log.txt", "--run", "a.run", "--logging",
        "uniform.txt"]
PBM = ["online", "counterfactual", "log.txt", "--run", "a.run", "--estimator", "pbm-ips"]
DM = ["online", "counterfactual", "log.txt", "--run", "a.run", "--estimator", "dm"]
SLATE = [*BASE[:5], "--logging", "slates.txt", "--estimator"]
HIST = ["online", "historical", "ilog.txt", "--source", "a.run", "b.run", "--target",
        "b.run", "c.run"]


def files(**more: str) -> dict:
    return {**FILES, **{k.replace("_", "."): v for k, v in more.items()}}


def _line2(text: str, new: str) -> str:
    lines = text.splitlines()
    lines[1] = new
    return _text(lines)


def with_log(argv: list[str], log: str) -> list[str]:
    """``argv`` reading the click log ``log`` instead of log.txt."""
    return [log if word == "log.txt" else word for word in argv]


def _finite_ess(result, ws, run) -> None:
    """The CSV's effective sample size is a number of sessions (1 to n), with no warning."""
    header, row = result.out.splitlines()[:2]
    fields = dict(zip(header.split(","), row.split(","), strict=True))
    assert 1.0 <= float(fields["ess"]) <= float(fields["n"]), result.describe()
    assert "warning" not in result.err, result.describe()


def _finite_numbers(result, ws, run) -> None:
    """Every number of the CSV's row is finite (the standard error of weights of 10³⁰⁰ was
    inf, its interval ±inf): the bootstrap and clipping columns not asked for are empty."""
    header, row = result.out.splitlines()[:2]
    fields = dict(zip(header.split(","), row.split(","), strict=True))
    for name in ("estimate", "se", "low", "high", "max_weight", "ess"):
        assert math.isfinite(float(fields[name])), result.describe()
    assert fields["bootstrap_low"] == fields["clip"] == "", result.describe()


def _bound_row(result, ws, run) -> None:
    """hcope's CSV row: the bound is the estimate and the interval's low end; no standard
    error, no upper end (empty cells); a threshold ≥ 0; the level 1 − alpha."""
    header, row = result.out.splitlines()[:2]
    fields = dict(zip(header.split(","), row.split(","), strict=True))
    assert fields["estimator"] == "hcope", result.describe()
    assert fields["estimate"] == fields["low"] and math.isfinite(float(fields["low"]))
    assert fields["se"] == fields["high"] == "", result.describe()
    # the two sessions of D_pre (12 sessions, 1/20 of them, at least 2) predict no
    # positive bound (no click weighted, or a bound of 10 sessions too wide): then the
    # threshold is 0 and so is the bound
    threshold = float(fields["threshold"])
    assert threshold > 0 or threshold == float(fields["estimate"]) == 0.0, result.describe()
    assert float(fields["level"]) == 0.9, result.describe()


#: The log with a click at rank 2 of every session of topic 1 (where --propensities puts
#: its tiny γ_2).
RANK2_LOG = _text([f"{s} {t} {r} {d} {1 if t == '1' and r == '2' else c}"
                   for s, t, r, d, c in (line.split() for line in _LOG)])

CASES = [
    ok("ips", BASE, output_contains("ips", "estimate", "se"), files=FILES),
    # by hand: of the four clicks per topic, two (session 0: ranks 1 and 3) fall where
    # run a puts the document shown, each weighted 1/(1/3): 2 × 6 / 12 sessions = 1
    ok("ips-by-hand", [*BASE, "--format", "csv"], output_contains("ips,1.0,"),
       files=FILES),
    ok("snips", [*BASE, "--estimator", "snips"], output_contains("snips"), files=FILES),
    ok("dr", [*BASE, "--estimator", "dr"], output_contains("dr"), files=FILES),
    ok("dr-reward-table", [*BASE, "--estimator", "dr", "--reward", "reward.txt",
                           "--propensities", "1,0.5,0.25"], files=FILES),
    ok("pbm-ips", PBM, output_contains("pbm-ips"), files=FILES),
    ok("pbm-ips-given", [*PBM, "--propensities", "1,0.5,0.25", "--clip", "0.3"],
       files=FILES),
    # a propensity near 0: weights of 1e300, whose squares overflow; the effective sample
    # size is still a number (it was NaN, with numpy's "invalid value" warning)
    ok("pbm-ips-tiny-propensity", [*PBM, "--propensities", "1,1e-300,0.3", "--format",
                                   "csv"], _finite_ess, files=FILES),
    # clicks weighted by 1/γ_2 = 10³⁰⁰: the standard error computed without overflowing
    # its squares (it was inf, with numpy's "overflow encountered in square")
    ok("pbm-ips-tiny-propensity-clicked", [*with_log(PBM, "rank2.txt"), "--propensities",
                                           "1,1e-300,0.3", "--format", "csv"],
       _finite_numbers, files={**FILES, "rank2.txt": RANK2_LOG}),
    # a propensity whose weight 1/γ is beyond the doubles: refused, naming the log's line
    err("pbm-ips-propensity-beyond-the-doubles", [*PBM, "--propensities", "1,5e-324,0.3"],
        "log.txt", "line", "propensities too near 0", opt("--clip"), files=FILES),
    ok("policy-file", ["online", "counterfactual", "log.txt", "--policy", "policy.txt",
                       "--logging", "uniform.txt"], files=FILES),
    ok("logging-empirical", [*BASE[:5], "--logging", "empirical"], files=FILES),
    ok("bootstrap", [*BASE, "--bootstrap", "100", "--seed", "1", "--format", "csv"],
       output_contains("bootstrap_low"), files=FILES),
    ok("json", [*BASE, "--format", "json"], output_contains('"estimate"'), files=FILES),
    ok("output", [*BASE, "-o", "out.txt"], files=FILES, allowed_new=("out.txt",)),
    ok("dm", DM, output_contains("dm"), files=FILES),
    # by hand: every document's click probability 0.4 and γ = 1 at every rank: 3 × 0.4
    ok("dm-by-hand", [*DM, "--reward", "reward.txt", "--format", "csv"],
       output_contains("dm,1.2"), files=FILES),
    ok("switch-dr", [*BASE, "--estimator", "switch-dr", "--switch-tau", "3"],
       output_contains("switch-dr"), files=FILES),
    ok("sndr", [*BASE, "--estimator", "sndr"], output_contains("sndr"), files=FILES),
    ok("dr-os", [*BASE, "--estimator", "dr-os", "--shrinkage", "4"],
       output_contains("dr-os"), files=FILES),
    # by hand: the target's ranking is the log's first order of each topic, shown in one
    # session of six with 2 clicks, weight 1/(1/6): 6 × 2 / 6 = 2
    ok("sips-by-hand", [*SLATE, "sips", "--format", "csv"], output_contains("sips,2.0,"),
       files=FILES),
    ok("rips", [*SLATE, "rips"], output_contains("rips"), files=FILES),
    ok("iips", [*SLATE, "iips"], output_contains("iips"), files=FILES),
    ok("rips-empirical", [*BASE[:5], "--logging", "empirical", "--estimator", "rips"],
       output_contains("rips"), files=FILES),
    # by hand: every rank's weights average 1 (each order shown once, π0 = 1/6): the
    # self-normalised estimates are the plain ones (sips: 2)
    ok("sn-sips-by-hand", [*SLATE, "sn-sips", "--format", "csv"],
       output_contains("sn-sips,2.0,"), files=FILES),
    ok("sn-rips", [*SLATE, "sn-rips"], output_contains("sn-rips"), files=FILES),
    ok("sn-iips", [*SLATE, "sn-iips"], output_contains("sn-iips"), files=FILES),
    ok("sn-rips-empirical", [*BASE[:5], "--logging", "empirical", "--estimator", "sn-rips"],
       output_contains("sn-rips"), files=FILES),
    ok("cascade-dr", [*SLATE, "cascade-dr"], output_contains("cascade-dr"), files=FILES),
    ok("cascade-dr-click-model", [*SLATE, "cascade-dr", "--reward", "cm.json"],
       output_contains("cascade-dr"), files=FILES),
    ok("cascade-dr-reward-table", [*SLATE, "cascade-dr", "--reward", "reward.txt",
                                   "--propensities", "1,0.5,0.25", "--format", "json"],
       output_contains('"cascade-dr"'), files=FILES),
    ok("hcope", [*SLATE, "hcope", "--alpha", "0.1", "--seed", "3", "--format", "csv"],
       _bound_row, files=FILES),
    ok("hcope-markdown", [*SLATE, "hcope", "--seed", "3", "--format", "markdown"],
       output_contains("| hcope |", "threshold"), files=FILES),
    ok("hcope-latex", [*SLATE, "hcope", "--seed", "3", "--format", "latex"],
       output_contains("hcope"), files=FILES),
    ok("hcope-json", [*SLATE, "hcope", "--seed", "3", "--format", "json"],
       output_contains('"se": null', '"threshold"'), files=FILES),
    ok("historical", HIST, output_contains("pi-ma-is-normalised"), files=FILES),
    ok("historical-plain", [*HIST, "--plain", "--source-tau", "3", "--tau", "2"],
       output_contains("pi-ma-is"), files=FILES),
    # ---- inputs
    err("missing-log", [*BASE[:2], "nope.txt", *BASE[3:]], "nope.txt", files=FILES),
    err("empty-log", BASE, "log.txt", "empty", files=files(log_txt="")),
    err("log-bad-click", BASE, any_of("log.txt, line 2", "log.txt:2"), "0 or 1",
        files=files(log_txt=_line2(LOG, " ".join([*LOG.splitlines()[1].split()[:4], "2"])))),
    err("no-target", [*BASE[:3], *BASE[5:]], any_of("--run", "--policy")),
    err("run-and-policy", [*BASE, "--policy", "policy.txt"], "--policy", files=FILES),
    err("missing-run", [*BASE[:4], "nope.run", *BASE[5:]], "nope.run", files=FILES),
    err("run-ranks-no-query", BASE, "none of the log's queries",
        files=files(log_txt=_text([" ".join([f.split()[0], "99", *f.split()[2:]])
                                   for f in LOG.splitlines()]))),
    err("logging-bad-probability", BASE, any_of("uniform.txt, line 2", "uniform.txt:2"),
        "[0, 1]", files=files(uniform_txt=_line2(UNIFORM, "1 d2 2 1.5"))),
    err("logging-bad-rank", BASE, any_of("uniform.txt, line 2", "uniform.txt:2"), "rank",
        files=files(uniform_txt=_line2(UNIFORM, "1 d2 two 0.5"))),
    err("logging-short-line", BASE, any_of("uniform.txt, line 2", "uniform.txt:2"),
        files=files(uniform_txt=_line2(UNIFORM, "1 d2 2"))),
    err("logging-zero-where-shown", BASE, "probability 0",
        files=files(uniform_txt=UNIFORM.replace(f" 1 {1 / 3:.17g}", " 1 0"))),
    err("policy-sums-over-one", ["online", "counterfactual", "log.txt", "--policy",
                                 "policy.txt", "--logging", "uniform.txt"], "sum to",
        files=files(policy_txt=POLICY + POLICY.splitlines()[0].replace(" 1 1", " 1 0.5")
                    .replace(POLICY.split()[1], "dzz") + "\n")),
    err("reward-bad-value", [*BASE, "--estimator", "dr", "--reward", "reward.txt"],
        any_of("reward.txt, line 2", "reward.txt:2"), "[0, 1]",
        files=files(reward_txt=_line2(REWARD, "1 d2 7"))),
    err("reward-missing-pair", [*BASE, "--estimator", "dr", "--reward", "reward.txt"],
        "no value", files=files(reward_txt=_text(REWARD.splitlines()[1:]))),
    # γ_r apply to a reward table only: a click model's reward (given, or fitted) has its own
    err("propensities-with-dr-fitted-reward", [*BASE, "--estimator", "dr", "--propensities",
                                                "1,0.5,0.25"], "reward", "table", files=FILES),
    err("propensities-with-dm-click-model", [*DM, "--reward", "cm.json", "--propensities",
                                              "1,0.5,0.25"], "click model", files=FILES),
    err("propensities-with-cascade-dr-click-model", [*SLATE, "cascade-dr", "--reward",
                                                      "cm.json", "--propensities",
                                                      "1,0.5,0.25"], "click model",
        files=FILES),
    err("propensities-too-few", [*PBM, "--propensities", "1,0.5"], "rank", files=FILES),
    err("propensities-zero", [*PBM, "--propensities", "1,0,0.2"], "(0, 1]", files=FILES),
    err("propensities-missing-file", [*PBM, "--propensities", "nope.json"], "nope.json",
        files=FILES),
    err("slates-repeated-document", [*SLATE, "sips"],
        any_of("slates.txt, line 2", "slates.txt:2"), "once",
        files=files(slates_txt=_line2(SLATES, "1 d1,d1,d2 0.1"))),
    err("slates-bad-probability", [*SLATE, "rips"],
        any_of("slates.txt, line 2", "slates.txt:2"), "[0, 1]",
        files=files(slates_txt=_line2(SLATES, "1 d1,d2 2"))),
    err("slates-empty-docno", [*SLATE, "rips"],
        any_of("slates.txt, line 2", "slates.txt:2"), "commas",
        files=files(slates_txt=_line2(SLATES, "1 d1,,d2 0.1"))),
    err("slates-sum-over-one", [*SLATE, "sips"], "sum to",
        files=files(slates_txt=SLATES + SLATES.splitlines()[0].replace(
            SLATES.split()[1], "dzz") + "\n")),
    err("slates-given-marginals", [*BASE, "--estimator", "sips"],
        any_of("uniform.txt, line 1", "uniform.txt:1"), files=FILES),
    err("slates-zero-where-shown", [*SLATE, "rips"], "probability 0",
        files=files(slates_txt=_text(SLATES.splitlines()[1:]))),
    err("cascade-dr-reward-missing-pair", [*SLATE, "cascade-dr", "--reward", "reward.txt"],
        "no value", files=files(reward_txt=_text(REWARD.splitlines()[1:]))),
    err("cascade-dr-click-model-not-probability", [*SLATE, "cascade-dr", "--reward",
                                                    "cm.json"], "cm.json", "probabilit",
        files=files(cm_json=CM_JSON.replace("0.4]", "4]", 1))),
    err("cascade-dr-zero-where-shown", [*SLATE, "cascade-dr"], "probability 0",
        files=files(slates_txt=_text(SLATES.splitlines()[1:]))),
    err("cascade-dr-given-marginals", [*BASE, "--estimator", "cascade-dr"],
        any_of("uniform.txt, line 1", "uniform.txt:1"), files=FILES),
    err("hcope-zero-where-shown", [*SLATE, "hcope"], "probability 0",
        files=files(slates_txt=_text(SLATES.splitlines()[1:]))),
    err("hcope-empirical", [*BASE[:5], "--logging", "empirical", "--estimator", "hcope"],
        "empirical", files=FILES),
    err("hcope-three-sessions", [*SLATE, "hcope"], "four sessions",
        files=files(log_txt=_text(_LOG[:9]))),
    # ---- options
    err("hcope-bootstrap", [*SLATE, "hcope", "--bootstrap", "10"], opt("--bootstrap"),
        files=FILES),
    err("reward-with-sn-sips", [*SLATE, "sn-sips", "--reward", "reward.txt"],
        opt("--reward"), files=FILES),
    err("propensities-with-hcope", [*SLATE, "hcope", "--propensities", "1,0.5,0.25"],
        opt("--propensities"), files=FILES),
    err("switch-dr-without-tau", [*BASE, "--estimator", "switch-dr"], opt("--switch-tau"),
        files=FILES),
    err("switch-tau-with-dr", [*BASE, "--estimator", "dr", "--switch-tau", "2"],
        opt("--switch-tau"), files=FILES),
    err("switch-tau-negative", [*BASE, "--estimator", "switch-dr", "--switch-tau", "-1"],
        opt("--switch-tau"), files=FILES),
    err("dr-os-without-shrinkage", [*BASE, "--estimator", "dr-os"], opt("--shrinkage"),
        files=FILES),
    err("shrinkage-with-dr", [*BASE, "--estimator", "dr", "--shrinkage", "2"],
        opt("--shrinkage"), files=FILES),
    err("shrinkage-negative", [*BASE, "--estimator", "dr-os", "--shrinkage", "-1"],
        opt("--shrinkage"), files=FILES),
    err("shrinkage-infinite", [*BASE, "--estimator", "dr-os", "--shrinkage", "inf"],
        opt("--shrinkage"), files=FILES),
    err("logging-with-dm", [*DM, "--logging", "uniform.txt"], opt("--logging"),
        files=FILES),
    err("clip-with-dm", [*DM, "--clip", "0.5"], opt("--clip"), files=FILES),
    err("reward-with-sips", [*SLATE, "sips", "--reward", "reward.txt"], opt("--reward"),
        files=FILES),
    err("ips-without-logging", BASE[:5], opt("--logging"), files=FILES),
    err("estimator-unknown", [*BASE, "--estimator", "magic"], "magic", files=FILES),
    err("logging-with-pbm-ips", [*PBM, "--logging", "uniform.txt"], opt("--logging"),
        files=FILES),
    err("reward-with-ips", [*BASE, "--reward", "reward.txt"], opt("--reward"), files=FILES),
    err("propensities-with-snips", [*BASE, "--estimator", "snips", "--propensities", "1"],
        opt("--propensities"), files=FILES),
    err("clip-zero", [*BASE, "--clip", "0"], opt("--clip"), files=FILES),
    err("clip-above-one", [*BASE, "--clip", "1.5"], opt("--clip"), files=FILES),
    err("clip-nan", [*BASE, "--clip", "nan"], opt("--clip"), files=FILES),
    err("bootstrap-negative", [*BASE, "--bootstrap", "-1"], opt("--bootstrap"),
        files=FILES),
    err("alpha-zero", [*BASE, "--alpha", "0"], opt("--alpha"), files=FILES),
    err("seed-text", [*BASE, "--seed", "x"], opt("--seed"), files=FILES),
    err("format-unknown", [*BASE, "--format", "xml"], "xml", files=FILES),
    err("output-is-log", [*BASE, "-o", "log.txt", "--force"], "log.txt", files=FILES),
    # ---- historical
    err("historical-no-target", HIST[:6], opt("--target"), files=FILES),
    err("historical-one-target", HIST[:-1], opt("--target"), files=FILES),
    err("historical-tau-zero", [*HIST, "--tau", "0"], opt("--tau"), files=FILES),
    err("historical-source-tau-impossible", [*HIST, "--source-tau", "1e300"], "ilog.txt",
        "probability 0 under the source interleaving", files=FILES),
    err("historical-source-tau-nan", [*HIST, "--source-tau", "nan"], opt("--source-tau"),
        files=FILES),
    err("historical-wrong-source", [*HIST[:4], "c.run", "b.run", *HIST[6:]], "ilog.txt",
        files=FILES),
    err("historical-missing-log", [*HIST[:2], "nope.txt", *HIST[3:]], "nope.txt",
        files=FILES),
    err("historical-topic-no-target-ranks", [*HIST[:7], "b1.run", "c1.run"], "ilog.txt",
        "ranked by neither target ranker",
        files=files(b1_run=_text([x for x in run_lines("b") if x.startswith("1 ")]),
                    c1_run=_text([x for x in run_lines("c") if x.startswith("1 ")]))),
]


@pytest.mark.parametrize("case", CASES)
def test_online_counterfactual(case, ws, run_cli):
    run_case(case, ws, run_cli)

"""``irscale measures``: the listing of the measure catalogue, and its usage errors; and
the bad parameters of the catalogue's families in ``irscale eval -m`` (NCU, WRR, NSR, GAP,
gAP, AUCPR, cRBP, rpref, PRES). Table-driven: every row is one call checked against the contract of
``docs/errors.md`` (see ``conftest.py``)."""

from __future__ import annotations

import json

import pytest

from .conftest import all_checks, err, ok, output_contains, run_case


def json_families(*contexts: str):
    """The output is a JSON list of families of ``contexts`` only, each with a formula and
    a source, and its parameters detailed."""
    def check(result, ws, run):
        rows = json.loads(result.out)
        assert rows and {row["context"] for row in rows} == set(contexts), result.describe()
        assert all(row["formula"] and row["source"] for row in rows), result.describe()
        assert all(isinstance(row["parameters"], list) for row in rows), result.describe()

    return check


CASES = [
    ok("measures-all", ["measures"], output_contains(
        "rankings:", "intents:", "sessions:", "texts:", "nuggets:", "P.5,10,15",
        "alpha-nDCG(alpha=0.5)@k", "sDCG(bq=4, gain=linear, form=sakai", "ROUGE-L(stat=f, beta=1)",
        "F_QA(beta=1, allowance=100, nuggets=all)")),
    ok("measures-context-json", ["measures", "--context", "sessions", "--format", "json"],
       json_families("sessions")),
    ok("measures-markdown", ["measures", "--context", "texts", "--format", "markdown"],
       all_checks(output_contains("| name | context |", "| ROUGE-<n>(stat=f, beta=1) |"))),
    ok("measures-output-file", ["measures", "-o", "catalogue.txt"],
       allowed_new=["catalogue.txt"]),
    err("measures-bad-context", ["measures", "--context", "clicks"], "--context", "clicks",
        "rankings"),
    err("measures-bad-format", ["measures", "--format", "csv"], "--format", "csv", "json"),
    err("measures-context-twice", ["measures", "--context", "texts", "--context", "nuggets"],
        "--context", "given twice"),
    err("measures-stray-argument", ["measures", "map"], "map"),
    # an existing file (an input of other commands) is not replaced without --force
    err("measures-output-exists", ["measures", "-o", "qrels.txt"], "qrels.txt", "--force"),
    err("measures-output-folder-missing", ["measures", "-o", "nowhere/list.txt"],
        "nowhere"),
    err("measures-output-is-folder", ["measures", "-o", "adir", "--force"], "adir"),
]




def _eval(measure: str) -> list[str]:
    return ["eval", "qrels.txt", "a.run", "-m", measure]


CASES += [
    err("ncu-stop-unknown", _eval("NCU(stop=xx)"), "NCU", "xx", "u, gu, rb"),
    err("ncu-gamma-without-rb", _eval("NCU(gamma=0.5)"), "gamma", "stop=rb"),
    err("ncu-stops-without-gu", _eval("NCU(stop=u,stops=linear)"), "stops", "stop=gu"),
    err("ncu-gamma-zero", _eval("NCU(stop=rb,gamma=0)"), "gamma", "> 0"),
    err("ncu-gamma-above-one", _eval("NCU(stop=rb,gamma=1.5)"), "gamma", "1.5"),
    err("ncu-beta-negative", _eval("NCU(beta=-1)"), "beta", "-1"),
    err("wrr-beta-positive", _eval("WRR(betas=0.5)"), "betas", "0.5"),
    err("wrr-betas-too-few", _eval("WRR(betas=-1)"), "betas", "degree 2"),
    err("twist-length-0", _eval("twist(N=0)"), "N", "≥ 1"),
    err("twist-length-huge", _eval("twist(N=10000000)"), "N", "10"),
    err("twist-cutoff", _eval("twist@5"), "twist"),
    err("crp-rank-text", _eval("CRP(k=x)"), "k", "x"),
    err("crp-rank-0", _eval("CRP(k=0)"), "k", "≥ 1"),
    err("wrr-betas-empty", _eval("WRR(betas=-1::0)"), "betas"),
    err("nsr-gain-unknown", _eval("NSR(gain=foo)"), "NSR", "foo"),
    ok("ncg-name", _eval("NCG(gain=exp)@3"), output_contains("NCG(gain=exp)@3")),
    err("ncg-gain-unknown", _eval("NCG(gain=foo)@3"), "gain", "foo"),
    # ESL (Cooper 1968): a ranking short of the k relevant documents wanted needs the size
    # of the collection (topic 1 has 3 relevant documents, run a retrieves 2 of them)
    err("esl-short-without-collection", _eval("ESL(k=3)"), "ESL", "topic '1'", "2 of the 3",
        "collection=N"),
    err("esl-collection-too-small", _eval("ESL(k=3,collection=5)"), "collection=5",
        "smaller"),
    err("esl-k-zero", _eval("ESL(k=0)"), "ESL", "k", "'0'"),
    err("esl-cutoff", _eval("ESL@5"), "ESL", "@5"),
    ok("esl-with-collection", _eval("ESL(k=3,collection=100)"),
       output_contains("ESL(k=3,collection=100)")),
    err("est-time-negative", _eval("EST(t_rel=-1)"), "EST", "t_rel", "-1"),
    err("gap-thresholds-zero", _eval("GAP(thresholds=0:0)"), "thresholds", "> 0"),
    err("gap-thresholds-negative", _eval("GAP(thresholds=-1:2)"), "thresholds", "-1"),
    err("gap-thresholds-too-few", _eval("GAP(thresholds=1)"), "thresholds", "degree 2"),
    err("gap-kishida-maxrel", _eval("gAP(maxrel=3)"), "gAP", "maxrel"),
    err("aucpr-interp-unknown", _eval("AUCPR(interp=linear)"), "linear", "trapezoid"),
    err("crbp-aspect-given", _eval("cRBP(aspect=under)"), "cRBP", "aspect=trust"),
    # rpref (De Beer & Moens 2006; Sakai 2007): gmax acts in rpref_N only
    ok("rpref", [*_eval("rpref_N(maxrel=3)"), "-m", "rpref_relative", "-m",
                 "ntcir:rpref_relative2"],
       output_contains("rpref_N(maxrel=3)", "rpref_relative", "ntcir:rpref_relative2")),
    err("rpref-relative-maxrel", _eval("rpref_relative(maxrel=3)"), "rpref_relative",
        "maxrel"),
    err("rpref-n-maxrel-zero", _eval("rpref_N(maxrel=0)"), "maxrel", "0"),
    err("rpref-n-maxrel-binary", _eval("rpref_N(gain=binary,maxrel=2)"), "maxrel",
        "gain=linear"),
    err("rpref-n-gain-unknown", _eval("rpref_N(gain=foo)"), "rpref_N", "foo"),
    err("crbp-without-trust-labels", _eval("cRBP"), "trust", "--labels"),
    # ADM reads the run's scores
    ok("adm-scores", _eval("ADM"), output_contains("ADM", "all")),
    ok("adm-with-trec-measures", [*_eval("ADM@10"), "-m", "map", "-q"],
       output_contains("ADM@10", "map", "all")),
    err("adm-norm-unknown", _eval("ADM(norm=zscore)"), "ADM", "zscore", "minmax"),
    err("adm-norm-none-scores-above-one", ["eval", "qrels.txt", "big.run", "-m",
                                           "ADM(norm=none)"], "ADM", "norm=none",
        "[0, 1]", "norm=minmax", files={"big.run": "1 Q0 d1 1 12.5 big\n"}),
    err("adm-bad-maxrel", _eval("ADM(maxrel=0)"), "maxrel"),
    ok("adm-in-eval-many", ["eval-many", "qrels.txt", "a.run", "-m", "ADM", "-m", "map"],
       output_contains("ADM", "map", "all")),
    # calibrated user models, Compat, CAM and MM
    ok("err-stop", _eval("ERR(stop=0.05:0.3:0.7)"), output_contains("ERR(stop=")),
    ok("mp-given", _eval("MP(model=given,pi=5:4:3:2:1)"), output_contains("MP(model=given")),
    ok("compat", _eval("Compat(p=0.8)"), output_contains("Compat(p=0.8)")),
    ok("cam-mm", [*_eval("CAM(aspects=cred,threshold=50)"), "-m", "MM(aspects=cred)",
                  "--labels", "cred=labels.txt"], output_contains("CAM(", "MM(")),
    err("err-stop-too-few-degrees", _eval("ERR(stop=0.1:0.2)"), "stop", "degree 2"),
    err("err-stop-not-probability", _eval("ERR(stop=0.1:1.5)"), "stop", "1.5"),
    err("err-stop-with-prob", _eval("ERR(stop=0.1:0.2:0.3,prob=ntcir)"), "prob", "stop="),
    err("mp-given-without-pi", _eval("MP(model=given)"), "pi"),
    err("mp-pi-without-given", _eval("MP(pi=1:2:3)"), "pi", "model=given"),
    err("mp-pi-too-short", _eval("MP(model=given,pi=1:2)"), "pi", "MP(...)@2"),
    err("compat-p-one", _eval("Compat(p=1)"), "Compat", "p"),
    err("cam-without-labels", _eval("CAM"), "cred", "--labels"),
    err("mm-weights-count", [*_eval("MM(w=1:1:1)"), "--labels", "cred=labels.txt"], "w",
        "3 weights"),
    err("cam-aspect-twice", _eval("CAM(aspects=cred:cred)"), "twice"),
]

# PRES@N_max (Magdy & Jones 2010): N_max is the @k, needed, a whole number ≥ 1, not a
# keyword
CASES += [
    ok("pres", [*_eval("PRES@10"), "-m", "PRES(rel=2)@3", "-q"],
       output_contains("PRES@10", "PRES(rel=2)@3", "all")),
    ok("pres-listed", ["measures"], output_contains("PRES@k", "Magdy & Jones 2010")),
    err("pres-without-cutoff", _eval("PRES"), "'PRES'", "needs a cut-off", "PRES@k"),
    err("pres-without-cutoff-parens", _eval("PRES(rel=2)"), "'PRES'", "PRES@k"),
    err("pres-cutoff-zero", _eval("PRES@0"), "PRES@0", "from 1"),
    err("pres-cutoff-text", _eval("PRES@x"), "PRES@x", "'x'"),
    err("pres-cutoff-keyword", _eval("PRES(cutoff=10)"), "PRES(cutoff=10)", "@k"),
    err("pres-unknown-parameter", _eval("PRES(p=0.5)@10"), "'PRES'", "p", "accepted"),
]

# ranx's names (docs/evaluation.md): read as the irscale measures of ranx's values, labelled
# as given; the forms no irscale measure gives, refused naming the nearest; close names
# suggested with the cut-off kept
CASES += [
    ok("ranx-names", [*_eval("precision@5"), "-m", "recall@10", "-m", "ndcg@10", "-m", "mrr",
                      "-m", "map@100", "-m", "hits@10", "-m", "hit_rate@5", "-m", "f1@10",
                      "-m", "r-precision", "-m", "ndcg_burges@10", "-m", "dcg@10"],
       output_contains("precision@5", "recall@10", "ndcg@10", "mrr", "map@100", "hits@10",
                       "hit_rate@5", "f1@10", "r-precision", "ndcg_burges@10", "dcg@10")),
    err("ranx-typo", _eval("nDGC@10"), "unknown measure 'nDGC@10'", "did you mean nDCG@10"),
    err("ranx-typo-precision", _eval("precison@10"), "did you mean precision@10"),
    err("ranx-case", _eval("Ndcg@10"), "did you mean ndcg@10"),
    err("trec-output-name-case", _eval("p_10"), "did you mean P_10?"),
    err("ranx-bpref-cutoff", _eval("bpref@10"), "bpref@10", "ranx ignores the cut-off",
        "Bpref@10"),
    err("ranx-r-precision-cutoff", _eval("r-precision@5"), "r-precision@5", "Rprec@5"),
    err("ranx-hit-rate-without-cutoff", _eval("hit_rate"), "hit_rate", "Success@10"),
    err("ranx-rbp", _eval("rbp.95"), "rbp.95", "RBP(p=0.95)", "binary"),
    err("ranx-cutoff-zero", _eval("precision@0"), "precision@0", "'0'"),
    err("ranx-cutoff-text", _eval("hits@x"), "hits@x", "'x'"),
]

# measures written as one comma list: refused, saying to give -m once per measure; a comma
# between one measure's parameters (trec_eval's P.5,10 and gain maps, keyword lists) keeps
# its meaning
CASES += [
    err("comma-list-ir-names", _eval("ndcg@10,precision@10"), "'ndcg@10,precision@10'",
        "list of measures", "-m ndcg@10 -m precision@10"),
    err("comma-list-unknown-first", _eval("map,P@5"), "-m map -m P@5"),
    err("comma-list-trec-family", _eval("P.5,map"), "-m P.5 -m map"),
    err("comma-list-trec-family-csv", [*_eval("P.5,map"), "--format", "csv"], "-m P.5 -m map"),
    err("comma-list-with-an-unknown-name", _eval("mapp,P@5"), "unknown measure 'mapp,P@5'"),
    ok("comma-trec-parameters", _eval("P.5,10"), output_contains("P_5", "P_10")),
    ok("comma-trec-gain-map", _eval("ndcg.0=0,1=1,2=3"), output_contains("ndcg_0=0,1=1,2=3")),
    ok("comma-keyword-parameters", _eval("RBP(p=0.8,gain=binary)"),
       output_contains("RBP(p=0.8,gain=binary)")),
]


@pytest.mark.parametrize("case", CASES)
def test_measures(case, ws, run_cli):
    run_case(case, ws, run_cli)

"""Every accepted measure parameter changes the result as documented.

For every registered family and every parameter it declares — keyword parameters
(``Q(beta=...)``), trec_eval parameters (``P.5``, ``ndcg.1=3``, ``utility.a,b,c,d``) and the
generic ``rel`` / ``condensed`` / ``conditional`` of ir_measures-style names — two valid
values are evaluated on small data and the values must differ. A parameter that has no
effect in some case says so in its documentation; the data (or the base name) is then chosen
where it must act. The tables below must name every declared parameter: a new parameter
needs a row here.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from irscale import evaluate
from irscale.errors import MeasureError
from irscale.measures.base import REGISTRY, Cutoffs, FloatParams, Floats, GainPairs, NoParams
from irscale.measures.names import IR_NAMES, parse_measure
from irscale.measures.params import Keywords

QRELS = {
    "t1": {"a": 3, "b": 0, "c": 1, "d": 2, "e": -1, "f": 1, "g": 0, "h": 2, "i": 1},
    "t2": {"a": 1, "b": 2, "c": 0, "x": 0, "y": -2, "z": 3, "w": 1},
}
RUN = {
    "t1": {"n1": 10, "a": 9, "e": 8, "b": 7, "c": 6, "n2": 5, "d": 4, "g": 3, "f": 2, "n3": 1,
           "h": 0.5},
    "t2": {"y": 9, "c": 8, "a": 7.5, "n4": 7, "x": 5, "n6": 4.5, "b": 4, "n5": 3},
}
_DOCS = sorted({d for ranking in RUN.values() for d in ranking})
LABELS = {
    "under": {t: {d: (i * 37) % 100 for i, d in enumerate(_DOCS)} for t in RUN},
    "trust": {t: {d: (i * 53) % 100 for i, d in enumerate(_DOCS)} for t in RUN},
    "doclen": {d: 100.0 + 50 * i for i, d in enumerate(_DOCS)},
    "doclen2": {d: 900.0 - 40 * i for i, d in enumerate(_DOCS)},
    "partial": {d: 100.0 + 50 * i for i, d in enumerate(_DOCS) if i % 3},
    "clk": {t: {d: ((i * 13) % 10) / 10 for i, d in enumerate(_DOCS)} for t in RUN},
    "clk2": {t: {d: ((i * 7) % 10) / 10 for i, d in enumerate(_DOCS)} for t in RUN},
    # conditional groups: t1's a (rank 2) + d (rank 7) and b + h (rank 11) completed, c + i
    # never; t2's c + a completed at rank 3, z + b never
    "conditional": {"t1": {"a": 1, "d": 1, "c": 2, "i": 2, "b": 3, "h": 3},
                    "t2": {"z": 1, "b": 1, "c": 2, "a": 2}},
}
CLICKS = "0.9:0.8:0.7:0.6:0.5:0.4:0.3:0.2:0.1:0.1:0.1"
CLICKS2 = "0.5:0.5:0.4:0.4:0.3:0.3:0.2:0.2:0.1:0.1:0.1"
PCLICK = f"pclick={CLICKS}"

#: Keyword families: ``{family: (base parameters, {parameter: (value 1, value 2)})}``;
#: ``cutoff`` values are given as ``@k``. A base is needed where a parameter acts only
#: together with another (documented in the parameter's description).
KEYWORD_CASES: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {
    "ERR": ("", {"prob": ("exp", "ntcir"), "gain": ("linear", "exp"), "maxrel": ("3", "5"),
                 "stop": ("0.1:0.2:0.3:0.4", "0.3:0.3:0.5:0.9"), "cutoff": ("2", "5")}),
    "nERR": ("", {"prob": ("exp", "ntcir"), "gain": ("linear", "exp"), "maxrel": ("3", "5"),
                  "cutoff": ("2", "5")}),
    "RBP": ("", {"p": ("0.5", "0.9"), "gain": ("linear", "exp"), "maxrel": ("3", "5")}),
    "RBPres": ("", {"p": ("0.5", "0.9")}),
    "rpref_N": ("", {"gain": ("linear", "exp"), "maxrel": ("3", "5")}),
    "rpref_relative": ("", {"gain": ("linear", "exp")}),
    "rpref_relative2": ("", {"gain": ("linear", "exp")}),
    # scale acts with u=linear (threshold with u=binary), maxrel with a graded gain
    "uRBP": ("u=linear,gain=linear", {
        "p": ("0.5", "0.9"), "aspect": ("under", "trust"), "u": ("binary", "linear"),
        "threshold": ("30", "70"), "scale": ("50", "200"), "gain": ("binary", "linear"),
        "maxrel": ("3", "5")}),
    "uM": ("", {"click": ("clk", "clk2"), "pclick": (CLICKS, CLICKS2),
                "gain": ("linear", "exp")}),
    # maxrel acts through the default satisfaction (2^g - 1)/2^gmax (no sat, no psat)
    "rrM": ("", {"click": ("clk", "clk2"), "pclick": (CLICKS, CLICKS2),
                 "sat": ("clk", "clk2"), "psat": ("0.2:0.4:0.6", "0.5:0.5:0.9"),
                 "gain": ("linear", "exp"), "maxrel": ("3", "5")}),
    "bpref_R": ("", {}),
    "bpref_N": ("", {}),
    "Judged": ("", {"cutoff": ("2", "5")}),
    # base acts with discount=log, jk or 1+log (log2 has base 2: another base is refused)
    "DCG": ("discount=log", {"gain": ("linear", "exp"), "discount": ("log2", "jk"),
                             "base": ("3", "10"), "cutoff": ("2", "5")}),
    "nDCG": ("discount=log", {"gain": ("linear", "exp"), "discount": ("log2", "jk"),
                              "base": ("1.5", "10"), "cutoff": ("2", "5")}),
    "gP": ("", {"gain": ("linear", "exp"), "maxrel": ("3", "5"), "cutoff": ("2", "5")}),
    "gR": ("", {"gain": ("linear", "exp"), "cutoff": ("2", "5")}),
    # norm acts with a cut-off (Q@l divides by min(l, R) or R)
    "Q": ("", {"beta": ("0.5", "2"), "gain": ("linear", "exp"), "norm": ("min", "R"),
               "cutoff": ("2", "5")}),
    "Rmeasure": ("", {"beta": ("0.5", "2"), "gain": ("linear", "exp")}),
    "Omeasure": ("", {"beta": ("0.5", "2"), "gain": ("linear", "exp")}),
    "Pmeasure": ("", {"beta": ("0.5", "2"), "gain": ("linear", "exp")}),
    "Pplus": ("", {"beta": ("0.5", "2"), "gain": ("linear", "exp")}),
    # stops acts with stop=gu (the default), gamma with stop=rb; cutoff also divides stop=u
    "NCU": ("", {"stop": ("u", "rb"), "beta": ("0", "2"), "gain": ("linear", "exp"),
                 "stops": ("exp", "1:1:1"), "gamma": ("0.2", "0.9"), "cutoff": ("2", "5")}),
    "WRR": ("", {"betas": ("-3:0:0", "0:-3:0")}),
    "CRP": ("", {"k": ("1", "3"), "N": ("5", "1000")}),
    "twist": ("", {"N": ("5", "1000")}),
    "PRES": ("", {"cutoff": ("2", "5")}),
    "NSR": ("", {"gain": ("linear", "exp"), "cutoff": ("2", "5")}),
    # a ranking short of the k wanted needs the collection's size
    "ESL": ("collection=1000", {"k": ("1", "3"), "collection": ("100", "1000")}),
    "EST": ("collection=1000", {"k": ("1", "3"), "collection": ("100", "1000"),
                                "t_rel": ("1", "5"), "t_nonrel": ("1", "5")}),
    "GAP": ("", {"thresholds": ("uniform", "0.1:0.1:0.8")}),
    "gAP": ("", {"gain": ("linear", "exp")}),
    "AUCPR": ("", {"interp": ("trapezoid", "step")}),
    # alpha acts in the distance model (the default)
    "MP": ("", {"model": ("uniform", "distance"), "alpha": ("0.5", "2"), "recall": ("0", "1"),
                "pi": ("1:2:3:4:5:6:7:8:9:10:11", "11:10:9:8:7:6:5:4:3:2:1")}),
    "Compat": ("", {"p": ("0.5", "0.9"), "normalize": ("0", "1")}),
    "SBTO": ("", {"cutoff": ("2", "5")}),
    "RBTO": ("", {"maxrel": ("3", "5"), "cutoff": ("2", "5"), "norm": ("0", "1")}),
    "AP": ("", {"norm": ("R", "min"), "cutoff": ("2", "5")}),
    "AP11": ("", {}),
    "F": ("", {"beta": ("0.5", "2"), "cutoff": ("2", "5")}),
    "E": ("", {"beta": ("0.5", "2"), "cutoff": ("2", "5")}),
    "TBG": ("", {"h": ("50", "224"), "ts": ("1", "10"), "pc1": ("0.3", "0.9"),
                 "pc0": ("0.1", "0.6"), "psave": ("0.5", "0.9"), "a": ("0.01", "0.05"),
                 "b": ("2", "12"), "lengths": ("doclen", "doclen2")}),
    "U": ("", {"L": ("500", "5000"), "snippet": ("50", "300"), "F": ("0.1", "0.8"),
               "norm": ("1", "2"), "gain": ("linear", "exp"), "lengths": ("doclen", "doclen2")}),
    "ADM": ("", {"norm": ("minmax", "max"), "maxrel": ("3", "5")}),
}
# CAM and MM: the label sets of LABELS (cred, the default, is not one); threshold acts with
# u=binary (the default), scale with u=linear; u on fractional labels (clk), since with the
# default threshold 1 and scale 1 both read integer labels alike
for _family in ("CAM", "MM"):
    KEYWORD_CASES[_family] = ("aspects=under", {
        "p": ("0.5", "0.9"), "aspects": ("under", "trust"), "w": ("1:2", "2:1"),
        "u": ("binary", "linear"), "threshold": ("30", "70"), "scale": ("50", "200"),
        "gain": ("binary", "linear"), "maxrel": ("3", "5")})
#: Cases that need their own base: ``(family, parameter): base``.
SPECIAL_BASES = {
    ("uM", "click"): "", ("uM", "pclick"): "", ("uM", "gain"): PCLICK,
    ("rrM", "click"): "", ("rrM", "pclick"): "", ("rrM", "sat"): PCLICK,
    ("rrM", "psat"): PCLICK, ("rrM", "gain"): PCLICK, ("rrM", "maxrel"): PCLICK,
    ("DCG", "discount"): "", ("nDCG", "discount"): "",
    # the collection acts on rankings short of the k relevant documents wanted
    ("ESL", "collection"): "k=3", ("EST", "collection"): "k=3",
    ("Q", "norm"): "", ("AP", "norm"): "", ("uRBP", "threshold"): "gain=linear",
    ("uRBP", "u"): "gain=linear", ("NCU", "gamma"): "stop=rb",
    # deflen: the length of documents missing from the label set
    ("TBG", "deflen"): "lengths=partial", ("U", "deflen"): "lengths=partial",
    ("MP", "pi"): "model=given",
    **{(family, param): base for family in ("CAM", "MM") for param, base in (
        ("u", "aspects=clk"), ("scale", "aspects=under,u=linear"),
        ("aspects", "threshold=50"))},
}
KEYWORD_CASES["TBG"][1]["deflen"] = ("50", "5000")
KEYWORD_CASES["U"][1]["deflen"] = ("50", "5000")
#: Parameters compared at a cut-off (``(family, parameter)``: the @k used).
AT_CUTOFF = {("Q", "norm"): "3", ("AP", "norm"): "3", ("MP", "pi"): "11"}

#: The C/W/L measures (irscale.measures.cwl_models): their own parameters, then those every
#: one takes; costs and maxcost act on the costs (out=EC), mincost on the residuals only
#: (out=ResEC), gmed in dynamic BPM (hb ≠ 0), hc once the budget binds before the benefit
#: (T=10), TrAP's uniform costs on its total cost (ETC). A cut-off of ranks (CWL-P, SDCG,
#: NERR8, NERR9, SET) is also the depth.
CWL_CASES: dict[str, dict[str, tuple[str, str]]] = {
    "CWL-P": {"cutoff": ("2", "5")},
    "CWL-RR": {},
    "CWL-RBP": {"p": ("0.5", "0.9")},
    "NPV": {"rate": ("0.1", "0.5")},
    "SDCG": {"cutoff": ("2", "5")},
    "CWL-AP": {},
    "TrAP": {},
    "INST": {"T": ("1", "3")},
    "INSQ": {"T": ("1", "3")},
    "CWL-TBG": {"h": ("2", "224")},
    "CWL-U": {"L": ("5", "1000")},
    "BPM": {"T": ("1", "3"), "hb": ("0", "1"), "hc": ("0", "1"), "gmed": ("0.2", "0.8"),
            "cutoff": ("2", "5")},
    "IFT-goal": {"T": ("1", "3"), "b1": ("0.5", "2"), "R1": ("0", "10")},
    "IFT-rate": {"A": ("0.1", "0.5"), "b2": ("0.5", "2"), "R2": ("0", "10")},
    "IFT": {"T": ("1", "3"), "b1": ("0.5", "2"), "R1": ("0", "10"), "A": ("0.1", "0.5"),
            "b2": ("0.5", "2"), "R2": ("0", "10")},
    "NERR8": {"cutoff": ("2", "5")},
    "NERR9": {"cutoff": ("2", "5")},
    "NERR10": {"p": ("0.5", "0.9")},
    "NERR11": {"T": ("1", "3")},
    "SET": {"beta": ("0.5", "1"), "cutoff": ("2", "5")},
}
CWL_RANK_CUTOFF = {"CWL-P", "SDCG", "NERR8", "NERR9", "SET"}
for _family, _own in CWL_CASES.items():
    KEYWORD_CASES[_family] = ("", {
        **_own, "gain": ("linear", "exp"), "maxrel": ("3", "5"),
        "costs": ("doclen", "doclen2"), "maxcost": ("1", "2"), "mincost": ("0.5", "2"),
        **({} if _family in CWL_RANK_CUTOFF else {"depth": ("2", "20")}),
        "out": ("EU", "ETU")})
    SPECIAL_BASES.update({(_family, "costs"): "out=EC", (_family, "maxcost"): "out=EC",
                          (_family, "mincost"): "out=ResEC"})
    if "cutoff" in _own:
        AT_CUTOFF.update({(_family, param): "5" for param in KEYWORD_CASES[_family][1]
                          if param != "cutoff"})
# TrAP's weights CG/CC/R make EC the same for any uniform cost: its total cost changes
SPECIAL_BASES.update({("BPM", "gmed"): "hb=1", ("BPM", "hc"): "T=10",
                      ("TrAP", "maxcost"): "out=ETC", ("TrAP", "mincost"): "out=ResETC"})

#: trec_eval families: ``{family: (spec 1, spec 2, ...)}``; every pair of consecutive specs
#: must give different values (for a multi-number parameter, each position changes once).
TREC_CASES: dict[str, tuple[str, ...]] = {
    "map_cut": ("map_cut.2", "map_cut.5"),
    "P": ("P.2", "P.5"),
    "recall": ("recall.2", "recall.5"),
    "relative_P": ("relative_P.2", "relative_P.5"),
    "success": ("success.1", "success.3"),
    "ndcg_cut": ("ndcg_cut.2", "ndcg_cut.5"),
    "unj": ("unj.2", "unj.5"),
    "iprec_at_recall": ("iprec_at_recall.0.2", "iprec_at_recall.0.8"),
    "Rprec_mult": ("Rprec_mult.0.5", "Rprec_mult.1.5"),
    "11pt_avg": ("11pt_avg.0.2,0.5", "11pt_avg.0.5,0.9"),
    "set_F": ("set_F.0.25", "set_F.4"),
    "relstring": ("relstring.3", "relstring.5"),
    "utility": ("utility.1,-1,0,0", "utility.2,-1,0,0", "utility.2,-3,0,0",
                "utility.2,-3,1,0", "utility.2,-3,1,2"),
    "G": ("G.1=1", "G.1=5"),
    "ndcg": ("ndcg.1=1", "ndcg.1=5"),
    "dcg": ("dcg.1=1", "dcg.1=5"),
    "ideal_dcg": ("ideal_dcg.1=1", "ideal_dcg.1=5"),
    "Rndcg": ("Rndcg.1=1", "Rndcg.1=5"),
    "ndcg_rel": ("ndcg_rel.1=1", "ndcg_rel.1=5"),
    "rbp": ("rbp.p=0.5", "rbp.p=0.9", "rbp.p=0.9,1=0.5"),
    "rbp_resid": ("rbp_resid.p=0.5", "rbp_resid.p=0.9"),
}

#: ir_measures-style names (and the keyword families) on which ``rel`` / ``condensed`` is
#: documented to change nothing without a cut-off: unjudged documents count neither as
#: relevant nor as judged non-relevant there, so removing them (condensed) changes a
#: value only when a cut-off lets other documents move up into the top k.
CONDENSED_NEEDS_CUTOFF = {"Bpref", "bpref_R", "bpref_N", "rpref_N", "rpref_relative",
                          "rpref_relative2", "SetR", "NumRelRet", "gR"}
#: ... and those on which they are refused (the family's ``ignores``).
REFUSED = {("NumQ", "rel"), ("NumQ", "condensed"), ("NumRel", "condensed"),
           ("nDCG", "rel"), ("NDCG", "rel"), ("Judged", "rel"), ("Judged", "condensed"),
           ("RBPres", "rel"), ("NumQ", "conditional"), ("NumRet", "conditional"),
           ("Judged", "conditional"), ("RBPres", "conditional"), ("CRP", "rel"),
           ("twist", "rel")}
#: Extra parameters some names need to be evaluated at all.
NEEDS = {"uM": PCLICK, "rrM": PCLICK, "CAM": "aspects=under", "MM": "aspects=under"}
#: ir-style names that need a cut-off (or a recall level) to be evaluated.
NEEDS_CUTOFF = {"P": "@5", "R": "@5", "Recall": "@5", "Success": "@3", "IPrec": "@0.5",
                "PRES": "@5"}
NEEDS_CUTOFF.update({family: "@5" for family, own in CWL_CASES.items() if "cutoff" in own})
#: ... where condensed needs another cut-off to act on this data.
CONDENSED_CUTOFF = {"Success": "@2", "NSR": "@2"}
#: ... and the cut-off at which condensed acts on those of CONDENSED_NEEDS_CUTOFF (@2 if
#: not named: rpref_relative ignores a relevant document at condensed rank 1).
CONDENSED_ACTS_AT = {"rpref_relative": "@4"}


def values(name: str, **options) -> dict[str, np.ndarray]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate(QRELS, RUN, [name], labels=LABELS, **options).values


def single(name: str, **options) -> np.ndarray:
    (array,) = values(name, **options).values()
    return np.asarray(array, dtype=np.float64)


def differ(a: np.ndarray, b: np.ndarray) -> bool:
    return not np.array_equal(a, b, equal_nan=True)


def keyword_name(family: str, base: str, param: str | None, value: str | None,
                 cutoff: str | None = None) -> str:
    items = [item for item in base.split(",") if item and item.split("=")[0] != param]
    if param is not None and param != "cutoff":
        items.append(f"{param}={value}")
    if param == "cutoff":
        cutoff = value
    text = f"{family}({','.join(items)})" if items else family
    return text + (f"@{cutoff}" if cutoff else "")


# ====================================================================== coverage of the tables
def test_tables_name_every_declared_parameter():
    keyword_families = {n for n, f in REGISTRY.items() if isinstance(f.params, Keywords)}
    assert set(KEYWORD_CASES) == keyword_families
    for family, (_, cases) in KEYWORD_CASES.items():
        assert set(cases) == set(REGISTRY[family].params.keywords), family
    with_trec_params = {n for n, f in REGISTRY.items()
                        if isinstance(f.params, (Cutoffs, Floats, FloatParams, GainPairs))}
    assert set(TREC_CASES) == with_trec_params
    plain = {n for n, f in REGISTRY.items() if isinstance(f.params, NoParams)}
    assert plain.isdisjoint(TREC_CASES) and plain.isdisjoint(KEYWORD_CASES)


# ====================================================================== keyword parameters
KEYWORD_PARAMS = [(family, param) for family, (_, cases) in KEYWORD_CASES.items()
                  for param in cases]


@pytest.mark.parametrize(("family", "param"), KEYWORD_PARAMS,
                         ids=[f"{f}-{p}" for f, p in KEYWORD_PARAMS])
def test_every_keyword_parameter_changes_the_values(family, param):
    base, cases = KEYWORD_CASES[family]
    base = SPECIAL_BASES.get((family, param), base)
    if not base and family in NEEDS and param not in ("click", "pclick"):
        base = NEEDS[family]
    if family in NEEDS and param in ("click", "pclick"):
        base = ""
    cutoff = AT_CUTOFF.get((family, param))
    first, second = cases[param]
    a = single(keyword_name(family, base, param, first, cutoff))
    b = single(keyword_name(family, base, param, second, cutoff))
    assert differ(a, b), (family, param, a, b)


# ====================================================================== trec_eval parameters
TREC_PAIRS = [(family, specs[i], specs[i + 1]) for family, specs in TREC_CASES.items()
              for i in range(len(specs) - 1)]


@pytest.mark.parametrize(("family", "first", "second"), TREC_PAIRS,
                         ids=[f"{s}-{t}" for _, s, t in TREC_PAIRS])
def test_every_trec_parameter_changes_the_values(family, first, second):
    options = {"compat": 10} if family in ("unj", "rbp", "rbp_resid", "dcg",
                                           "ideal_dcg") else {}
    if family == "utility":
        options["num_docs_in_coll"] = 100  # the d coefficient multiplies N + r - n - R
    a = values(first, **options)
    b = values(second, **options)
    if family == "relstring":
        (x,), (y,) = a.values(), b.values()
        assert x.tolist() != y.tolist()
        return
    (x,), (y,) = a.values(), b.values()
    assert differ(np.asarray(x, float), np.asarray(y, float)), (first, second)


# ====================================================================== rel, condensed, conditional
IR_STYLE = sorted(set(IR_NAMES) | set(KEYWORD_CASES))
GENERIC = [(name, generic) for name in IR_STYLE
           for generic in ("rel", "condensed", "conditional")]


def _ir_name(name: str, generic_item: str, cutoff: str | None = None) -> str:
    items = [item for item in (NEEDS.get(name, ""), generic_item) if item]
    suffix = cutoff if cutoff is not None else NEEDS_CUTOFF.get(name, "")
    return (f"{name}({','.join(items)})" if items else name) + suffix


@pytest.mark.parametrize(("name", "generic"), GENERIC, ids=[f"{n}-{g}" for n, g in GENERIC])
def test_rel_condensed_and_conditional_change_the_values_or_are_refused(name, generic):
    given, default = ("rel=2", "rel=1") if generic == "rel" else (f"{generic}=1",
                                                                   f"{generic}=0")
    if (name, generic) in REFUSED:
        with pytest.raises(MeasureError, match=f"{generic} cannot apply to"):
            parse_measure(_ir_name(name, given))
        return
    cutoff = CONDENSED_CUTOFF.get(name) if generic == "condensed" else None
    a = single(_ir_name(name, default, cutoff))
    b = single(_ir_name(name, given, cutoff))
    if generic == "condensed" and name in CONDENSED_NEEDS_CUTOFF:
        assert not differ(a, b), name  # documented: no effect without a cut-off
        at = CONDENSED_ACTS_AT.get(name, "@2")
        a = single(_ir_name(name, default, at))
        b = single(_ir_name(name, given, at))
    assert differ(a, b), (name, generic, a, b)


# ====================================================================== NumRet(rel=k)
def test_numret_with_rel_counts_retrieved_documents_of_that_degree_like_ir_measures():
    ir_measures = pytest.importorskip("ir_measures")
    ours = {}
    names = ["NumRet", "NumRet(rel=1)", "NumRet(rel=2)", "NumRet(rel=3)"]
    ev = evaluate(QRELS, RUN, names)
    for name in names:
        ours[name] = dict(zip(ev.rankings.topic_labels, ev.values[name].tolist(), strict=True))
    theirs = {name: {} for name in names}
    qrels = [ir_measures.Qrel(t, d, r) for t, docs in QRELS.items() for d, r in docs.items()]
    run = [ir_measures.ScoredDoc(t, d, float(s)) for t, docs in RUN.items()
           for d, s in docs.items()]
    for metric in ir_measures.iter_calc([ir_measures.parse_measure(n) for n in names],
                                        qrels, run):
        theirs[str(metric.measure)][metric.query_id] = metric.value
    for name in names:
        assert ours[name] == pytest.approx(theirs[name]), name
    # by definition: retrieved documents judged with degree >= k
    for k in (1, 2, 3):
        expected = {t: sum(1 for d in RUN[t] if QRELS[t].get(d, -1) >= k) for t in RUN}
        assert ours[f"NumRet(rel={k})"] == expected
    assert ours["NumRet"] == {t: len(RUN[t]) for t in RUN}
    assert evaluate(QRELS, RUN, ["NumRelRet"]).values["NumRelRet"].tolist() == [
        ours["NumRet(rel=1)"][t] for t in sorted(RUN)]


# ====================================================================== refused combinations
@pytest.mark.parametrize("name", [
    "nDCG(base=10)@5", "DCG(base=3)", "uRBP(u=linear,threshold=30)", "uRBP(u=binary,scale=50)",
    "uRBP(maxrel=3)", "ERR(gain=binary,maxrel=3)", "RBP(gain=1:3,maxrel=2)",
    "gP(gain=binary,maxrel=4)",
    "MP(model=uniform,alpha=2)", "MP(pi=1:2)", "MP(model=given)", "ERR(stop=0.5,prob=exp)",
    "ERR(stop=0.5,gain=exp)", "ERR(stop=1.5)", "CAM(scale=2)", "MM(u=linear,threshold=2)",
    "CAM(w=1:1:1)", "Compat(p=1)", "AP(norm=min)", "Q(norm=R)", "rrM(sat=clk,psat=0.5)",
    "rrM(sat=clk,gain=exp)", "rrM(psat=0.5,maxrel=3)", "nDCG(rel=2)@10", "NumQ(rel=2)",
    "NumQ(condensed=1)", "NumRel(condensed=1)", "Judged(condensed=1)@10", "RBPres(rel=2)",
    "NumQ(conditional=1)", "NumRet(conditional=1)", "Judged(conditional=1)@10",
    "RBPres(conditional=1)", "AP(conditional=2)", "P(conditional=maybe)@5",
    "P(rel=0)@5", "NumRet(rel=-1)", "AP(rel=1.5)", "set_F.0.5,2", "set_F.-1",
    "Rprec_mult.0", "Rprec_mult.-0.5", "iprec_at_recall.1.5", "iprec_at_recall.-0.1",
    "11pt_avg.0.5,1.2", "relstring.0", "rbp.p=1", "rbp.p=0.5,p=0.9", "rbp_resid.p=0",
    f"P@{2**63}", f"P.{2**63}", f"nDCG@{2**63}", f"RR@{2**63}", "Rprec_mult.1e7",
])
def test_parameters_that_cannot_act_are_refused(name):
    with pytest.raises(MeasureError) as error:
        parse_measure(name)
    assert "\n" not in str(error.value)


def test_extreme_valid_parameters_evaluate_without_warnings():
    big = 2**63 - 1
    names = [f"P@{big}", f"ndcg_cut.{big}", f"relstring.{big}", f"nDCG@{big}", f"Q@{big}",
             f"AP(norm=min)@{big}", f"RBTO(norm=1)@{big}", f"Judged@{big}", f"SBTO@{big}",
             "Rprec_mult.1e6", "utility.1e308,1e308,0,0"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = evaluate(QRELS, RUN, names)
    assert ev.values[f"P@{big}"].tolist() == [5 / big, 2 / big]
    assert ev.values["utility_1e308,1e308,0,0"].tolist() == [math.inf, math.inf]
    with pytest.raises(MeasureError, match="beyond the range of a double"):
        evaluate(QRELS, RUN, [f"RBTO@{big}"])


def test_paper_names_of_the_scale_engine_take_only_parameters_that_act():
    from irscale.scales.measures import scale_measure

    assert scale_measure("nDCG_b10(rel=2)").relevance_level == 2
    assert scale_measure("RBP_p05(rel=3)").relevance_level == 3
    assert scale_measure("F(beta=2)").beta == 2.0
    for name in ("P(gain=exp)", "AP(beta=2)", "RR(beta=0.5)", "F(beta=-1)", "AP(rel=0)",
                 "nDCG_b10(rel=x)", "P(norm=min)"):
        with pytest.raises(MeasureError):
            scale_measure(name)

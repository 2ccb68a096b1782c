"""The one catalogue: every measure family, whatever the context it needs, is registered
once with its parameters, formula and source, and :func:`irscale.measures.catalogue` lists
them all."""

from __future__ import annotations

import re

import pytest

from irscale.core.contexts import CONTEXTS
from irscale.measures import (  # diversity, fairness: register intents and policies
    CATALOGUE,
    catalogue,
    diversity,  # noqa: F401
    fairness,  # noqa: F401
)
from irscale.measures.listing import catalogue_rows, format_catalogue
from irscale.measures.params import Keywords

#: Families each context must hold, from the documentation of the modules computing them
#: (a family lost from the catalogue is a failure here, not a shorter listing).
EXPECTED = {
    "rankings": {"map", "P", "ndcg_cut", "iprec_at_recall", "AP", "nDCG", "Q", "ERR", "RBP",
                 "U", "uM", "rrM", "TBG", "SBTO"},
    "intents": {"alpha-nDCG", "alpha-DCG", "ERR-IA", "nERR-IA", "NRBP", "nNRBP", "MAP-IA",
                "P-IA", "strec", "I-rec", "D-nDCG", "D#-nDCG", "DIN-nDCG", "DIN#-nDCG",
                "D-Q", "D#-Q", "D-nERR", "D#-nERR", "D-P+", "D#-P+", "P+Q", "P+Q#", "PMP", "EP",
                "IA", "D-U", "U-IA"},
    "sessions": {"sDCG", "nsDCG", "sRBP", "sERR", "U", "MsM"},
    "texts": {"ROUGE-N", "ROUGE-L", "ROUGE-S", "ROUGE-SU", "BLEU"},
    "nuggets": {"W-Rec", "Prec_allow", "F_QA", "S", "T", "Ssharp"},
    "pyramids": {"pyramid", "pyramid_modified"},
    "citations": {"citation_recall", "citation_precision", "ais", "support_precision",
                  "support_recall"},
    "policies": {"EE-L", "EE-R", "EE-D", "AWRF", "nDCG-AWRF"},
    "prefs": {"prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
              "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
              "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
              "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
              "prefs_avgjg_imp"},
    "qrels_jg": {"map_avgjg", "P_avgjg", "Rprec_mult_avgjg"},
}


def test_every_context_holds_its_families():
    assert set(CATALOGUE) == set(CONTEXTS) == set(EXPECTED)
    for context, names in EXPECTED.items():
        assert names <= set(CATALOGUE[context]), (context, names - set(CATALOGUE[context]))
        assert all(f.context == context for f in CATALOGUE[context].values())


def test_the_catalogue_lists_every_family_of_every_context():
    table = catalogue()
    listed = set(zip(table["context"], table["name"], strict=True))
    registered = {(c, name) for c, families in CATALOGUE.items() for name in families}
    assert listed == registered and len(table) == len(registered)
    assert list(table.columns[:2]) == ["name", "context"]
    for context in CONTEXTS:
        part = catalogue(context)
        assert set(part["context"]) == {context}
        assert set(part["name"]) == set(CATALOGUE[context])


@pytest.mark.parametrize("context", list(CONTEXTS))
def test_every_family_states_formula_source_and_parameters(context):
    for family in CATALOGUE[context].values():
        assert family.formula.strip() and family.source.strip(), family.name
        assert "\n" not in family.formula and not re.search(r"seed 0\d\d", family.source)
    for row in catalogue_rows(context):
        params = CATALOGUE[context][row["name"]].params
        if isinstance(params, Keywords):  # each declared keyword, with its default
            assert [p["name"] for p in row["parameter_details"]] == list(params.keywords)
            assert all(p["domain"] and p["doc"] for p in row["parameter_details"]), row


def test_parameters_show_their_domains_and_defaults():
    rows = {(r["context"], r["name"]): r for r in catalogue_rows()}
    rbp = {p["name"]: p for p in rows["rankings", "RBP"]["parameter_details"]}
    assert rbp["p"]["default"] == "0.8" and rbp["p"]["domain"] == "number in (0, 1)"
    assert rows["rankings", "RBP"]["signature"] == "RBP(p=0.8, gain=linear, maxrel=none)"
    assert rows["rankings", "P"]["signature"] == "P.5,10,15,20,30,100,200,500,1000"
    assert rows["rankings", "map"]["aliases"] == "AP, MAP"
    assert rows["rankings", "map_cut"]["aliases"] == "AP@k, MAP@k"
    assert rows["intents", "ERR-IA"]["signature"] == "ERR-IA(alpha=0.5)@k"
    assert rows["texts", "ROUGE-N"]["signature"] == "ROUGE-<n>(stat=f, beta=1)"
    assert rows["texts", "ROUGE-SU"]["signature"] == "ROUGE-SU(stat=f, beta=1, skip=inf)"
    assert rows["nuggets", "Ssharp"]["aliases"] == "S#"
    stat = {p["name"]: p for p in rows["texts", "ROUGE-L"]["parameter_details"]}["stat"]
    assert stat["domain"] == "one of f, p, r"


def test_formats():
    rows = catalogue_rows("nuggets")
    markdown = format_catalogue(rows, "markdown").splitlines()
    assert len(markdown) == 2 + len(rows) and "\\|V\\|" in markdown[3]  # '|' escaped
    text = format_catalogue(rows)
    assert text.startswith("nuggets: ") and all(r["signature"] in text for r in rows)
    with pytest.raises(Exception, match="csv"):
        format_catalogue(rows, "csv")
    with pytest.raises(Exception, match="clicks"):
        catalogue("clicks")

"""The one name grammar of every context: each family of the catalogue is reached by its
own canonical name, a name written back (:func:`~irscale.measures.names.format_name`) reads
as the same measure, and any text is either a measure or a :class:`MeasureError`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import MeasureError
from irscale.measures import (  # diversity, fairness: register intents and policies
    CATALOGUE,
    diversity,  # noqa: F401
    fairness,  # noqa: F401
)
from irscale.measures.names import (
    canonical_name,
    format_name,
    parse_measures,
    parse_name,
    split_name,
)
from irscale.measures.params import Keywords

from .property_examples import examples

FAMILIES = [family for families in CATALOGUE.values() for family in families.values()]
#: Families whose names carry keyword parameters (what format_name writes back).
KEYWORD_FAMILIES = [f for f in FAMILIES if isinstance(f.params, Keywords)]


def parse(text: str, context: str):
    """``(family, parameters, cut-off)`` of a name of ``context`` (a family's default
    parameters where a name of judged rankings gives none)."""
    if context == "rankings":
        request = parse_measures([text])[0]
        params = request.params
        if params is None:
            params = CATALOGUE["rankings"][request.family].params.default
        return request.family, params, request.cutoff
    measure = parse_name(text, context)
    return measure.family, measure.params, measure.cutoff


def values(params) -> dict | None:
    return None if params is None else dict(params)


@pytest.mark.parametrize("family", FAMILIES, ids=[f"{f.context}:{f.name}" for f in FAMILIES])
def test_every_family_parses_its_canonical_name_and_round_trips(family):
    name = canonical_name(family)
    got, params, cutoff = parse(name, family.context)
    assert got == family.name, name
    if isinstance(family.params, Keywords):
        defaults = dict(family.params.default)
        expected = {**defaults, "cutoff": 10} if "cutoff" in defaults and "@" in name \
            else defaults
        assert dict(params) == expected, name
        again = format_name(family.name, params, cutoff, context=family.context)
        assert parse(again, family.context)[0] == family.name
        assert values(parse(again, family.context)[1]) == dict(params), again


def test_the_names_of_every_context():
    """Examples of each context, read by the one grammar (values from the modules'
    documentation)."""
    family, params, cutoff = parse("alpha-nDCG(alpha=0.3)@20", "intents")
    assert (family, dict(params), cutoff) == ("alpha-nDCG", {"alpha": 0.3}, 20)
    assert dict(parse("alpha-nDCG-w(topic_alpha=1)@20", "intents")[1])["topic_alpha"] is True
    assert parse("ERR-IA(alpha=0.5)@10", "intents")[0] == "ERR-IA"
    assert parse("D\u266f-nDCG@10", "intents")[0] == "D#-nDCG"
    family, params, cutoff = parse("sDCG(bq=2)@5", "sessions")
    assert (family, params["bq"], cutoff) == ("sDCG", 2.0, 5)
    assert parse("ROUGE-2", "texts")[1]["n"] == 2
    assert parse("ROUGE-SU4(stat=p)", "texts")[1]["skip"] == 4.0
    assert parse("ROUGE-S*", "texts")[1]["skip"] == float("inf")
    assert parse("ROUGE-L", "texts")[0] == "ROUGE-L"
    assert parse("W-Rec", "nuggets")[0] == "W-Rec" and parse("S#", "nuggets")[0] == "Ssharp"
    assert parse("P(rel=2)@5", "rankings")[0] == "P"
    assert parse("EE-L(gamma=0.8,level=group)", "policies")[1]["gamma"] == 0.8
    assert parse("nDCG-AWRF(target=uniform)@10", "policies")[2] == 10
    assert parse("U(L=1000)", "sessions")[1]["L"] == parse("U(L=1000)", "rankings")[1]["L"]


@pytest.mark.parametrize(("text", "context", "needles"), [
    ("DCG@10", "sessions", ("unknown session measure", "sDCG, nsDCG")),
    ("ROUGE-W", "texts", ("unknown ROUGE measure", "ROUGE-<n>")),
    ("ROUGE-0", "texts", ("unknown ROUGE measure", "n must be ≥ 1")),
    ("nDCG", "nuggets", ("unknown nugget measure", "W-Rec")),
    ("alphanDCG@5", "intents", ("unknown diversity measure", "did you mean alpha-nDCG")),
    ("alpha-nDCG", "intents", ("needs a cut-off", "alpha-nDCG@k")),
    ("NRBP@10", "intents", ("takes no cut-off",)),
    ("T@5", "nuggets", ("takes no cut-off",)),
    ("sDCG@0", "sessions", ("cut-off", "documents per query")),
    ("P-IA@x", "intents", ("cut-off", "'x'")),
    ("ROUGE-S4(skip=2)", "texts", ("skip is given twice",)),
    ("sRBP(bq=2)", "sessions", ("unknown parameter", "bq")),
    ("IA()", "intents", ("IA(<measure>)",)),
])
def test_refused_names_say_why(text, context, needles):
    with pytest.raises(MeasureError) as info:
        parse_name(text, context)
    assert all(needle in str(info.value) for needle in needles), str(info.value)


#: Values a parameter may be given: valid ones of some parameters, and others.
VALUES = st.one_of(
    st.sampled_from(["0", "1", "0.5", "0.8", "2", "4", "10", "-1", "1e300", "inf", "nan",
                     "none", "linear", "exp", "binary", "1:3:7", "log", "jk", "log2",
                     "ntcir", "min", "R", "all", "vital", "f", "p", "r", "single",
                     "jarvelin", "doclen", "", "x", "1:", "0.3:0.2"]),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.integers(min_value=-5, max_value=10**20).map(str))


@settings(max_examples=examples(300), deadline=None)
@given(family=st.sampled_from(KEYWORD_FAMILIES), data=st.data())
def test_any_parameters_parse_or_are_refused_and_round_trip(family, data):
    """A name with any parameters and cut-off is a measure, or a MeasureError (never
    another exception); a measure written back is the same measure."""
    keys = data.draw(st.lists(st.sampled_from([*sorted(family.params.keywords), "rel", "x"]),
                              unique=True, max_size=3))
    items = ",".join(f"{key}={data.draw(VALUES)}" for key in keys)
    cutoff = data.draw(st.one_of(st.none(), st.sampled_from(["1", "10", "0", "x"])))
    name = canonical_name(family).split("@")[0].split("(")[0]
    text = f"{name}({items})" if items else name
    text += "" if cutoff is None else f"@{cutoff}"
    try:
        got, params, k = parse(text, family.context)
    except MeasureError:
        return
    if not isinstance(CATALOGUE[family.context][got].params, Keywords):
        return  # nDCG, AP without keyword parameters: trec_eval's ndcg and map
    again = format_name(got, params, k, context=family.context)
    got2, params2, k2 = parse(again, family.context)
    assert (got2, values(params2), k2) == (got, values(params), k), (text, again)


@given(st.text(alphabet="aAP-#+*_@()=,.0159 \u266f", max_size=20),
       st.sampled_from(sorted(CATALOGUE)))
def test_any_text_is_a_measure_or_a_measure_error(text, context):
    try:
        parse(text, context)
    except MeasureError:
        pass


@given(st.from_regex(r"[A-Za-z][A-Za-z0-9_+#*-]{0,8}", fullmatch=True),
       st.one_of(st.none(), st.from_regex(r"[a-z]=[0-9a-z.]{0,4}", fullmatch=True)),
       st.one_of(st.none(), st.from_regex(r"[0-9x@]{0,4}", fullmatch=True)))
def test_split_name_reads_the_parts_it_is_given(name, params, cutoff):
    text = name + ("" if params is None else f"({params})") + \
        ("" if cutoff is None else f"@{cutoff}")
    parts = split_name(text)
    assert parts is not None and (parts.name, parts.params, parts.cutoff) == (
        name, params, cutoff)

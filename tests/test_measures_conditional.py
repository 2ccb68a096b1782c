"""Conditional relevance (``conditional=1``, the groups of the label set ``conditional``):
hand-worked values on Sakai's patent example (Sakai 2014, §2.3), an independent oracle (the
rule written here in plain Python rewrites the qrels of each ranking, and pytrec_eval, or
irscale's plain measures for the families pytrec_eval lacks, evaluate the rewritten
judgments), properties (groups of one document change nothing; topics without groups keep
their values) and the errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irscale import evaluate
from irscale.errors import InputError, MeasureError

from .property_examples import examples

pytrec_eval = pytest.importorskip("pytrec_eval")

SETTINGS = settings(max_examples=examples(40), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

Qrels = dict[str, dict[str, int]]
Ranking = list[str]
Groups = dict[str, dict[str, int]]


def run_of(rankings: dict[str, Ranking]) -> dict[str, dict[str, float]]:
    """Rankings as a run: distinct scores falling with the rank."""
    return {t: {d: float(len(r) - i) for i, d in enumerate(r)} for t, r in rankings.items()}


def values(qrels: Qrels, rankings: dict[str, Ranking], names: list[str],
           groups: Groups | None = None) -> dict[str, dict[str, float]]:
    """``{name: {topic: value}}`` computed by irscale."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate(qrels, run_of(rankings), names,
                      labels=None if groups is None else {"conditional": groups})
    topics = ev.rankings.topic_labels
    return {name: dict(zip(topics, np.asarray(ev.values[name], dtype=float).tolist(),
                           strict=True)) for name in names}


# ====================================================================== the patent example
#: Patent 1 at rank 1 and Patent 2 at rank 10 invalidate the application only together
#: (Sakai 2014, §2.3); another relevant document a at rank 5, n judged non-relevant.
PATENT_QRELS = {"q": {"p1": 1, "p2": 2, "a": 1, "n": 0}}
PATENT_RANKING = {"q": ["p1", "x1", "x2", "x3", "a", "x5", "x6", "x7", "x8", "p2"]}
PATENT_GROUPS = {"q": {"p1": 7, "p2": 7}}


def patent(*names: str) -> dict[str, float]:
    found = values(PATENT_QRELS, PATENT_RANKING, list(names), PATENT_GROUPS)
    return {name: found[name]["q"] for name in names}


def test_the_patent_example_by_hand():
    got = patent("AP", "AP(conditional=1)", "P(conditional=1)@5", "P(conditional=1)@10",
                 "RR(conditional=1)", "NumRel(conditional=1)", "NumRelRet(conditional=1)",
                 "Rprec(conditional=1)", "nDCG(conditional=1)", "Bpref(conditional=1)",
                 "AP(conditional=1)@9", "R(conditional=1)@9")
    # plain: relevant at ranks 1, 5, 10, R = 3
    assert got["AP"] == pytest.approx((1 / 1 + 2 / 5 + 3 / 10) / 3)
    # conditional: p1 not relevant, the group {p1, p2} (degree max(1, 2) = 2) at rank 10,
    # a at rank 5; R = 2 (the group once, a)
    assert got["AP(conditional=1)"] == pytest.approx((1 / 5 + 2 / 10) / 2)
    assert got["P(conditional=1)@5"] == pytest.approx(1 / 5)
    assert got["P(conditional=1)@10"] == pytest.approx(2 / 10)
    assert got["RR(conditional=1)"] == pytest.approx(1 / 5)
    assert got["NumRel(conditional=1)"] == 2
    assert got["NumRelRet(conditional=1)"] == 2
    assert got["Rprec(conditional=1)"] == pytest.approx(0 / 2)  # no relevant in the top 2
    # DCG = 1/log2(5 + 1) + 2/log2(10 + 1); ideal: the group (2), a (1), then p1 and n (0)
    dcg = 1 / math.log2(6) + 2 / math.log2(11)
    assert got["nDCG(conditional=1)"] == pytest.approx(dcg / (2 + 1 / math.log2(3)))
    # bpref: R = 2, N = 2 (n and p1, now judged non-relevant); p1 is above a and p2
    assert got["Bpref(conditional=1)"] == pytest.approx(((1 - 1 / 2) + (1 - 1 / 2)) / 2)
    # cut-offs apply to the original ranks: at 9 the group is not completed
    assert got["AP(conditional=1)@9"] == pytest.approx((1 / 5) / 2)
    assert got["R(conditional=1)@9"] == pytest.approx(1 / 2)


def test_the_patent_example_with_rel_and_condensed():
    got = patent("AP(conditional=1,rel=2)", "P(conditional=1,condensed=1)@3",
                 "AP(conditional=1,condensed=1)")
    # rel=2: only the group (degree 2) is relevant, at rank 10; R = 1
    assert got["AP(conditional=1,rel=2)"] == pytest.approx(1 / 10)
    # condensed list: p1, a, p2 (the x's unjudged): a at 2, the group at 3
    assert got["P(conditional=1,condensed=1)@3"] == pytest.approx(2 / 3)
    assert got["AP(conditional=1,condensed=1)"] == pytest.approx((1 / 2 + 2 / 3) / 2)


def test_a_group_never_completed_counts_nowhere_but_in_the_recall_base():
    got = values(PATENT_QRELS, {"q": PATENT_RANKING["q"][:9]}, ["AP(conditional=1)",
                                                               "nDCG(conditional=1)"],
                 PATENT_GROUPS)
    assert got["AP(conditional=1)"]["q"] == pytest.approx((1 / 5) / 2)
    ideal = 2 + 1 / math.log2(3)
    assert got["nDCG(conditional=1)"]["q"] == pytest.approx((1 / math.log2(6)) / ideal)


# ====================================================================== the oracle
def rewrite(qrels: dict[str, int], ranking: Ranking, groups: dict[str, int]
            ) -> dict[str, int]:
    """The judgments of one ranking under conditional relevance, by the rule: a group has
    the largest degree of its members; the member retrieved last takes it when the ranking
    holds every member, else a member not retrieved does; every other member has 0."""
    out = dict(qrels)
    members: dict[int, list[str]] = {}
    for doc, group in groups.items():
        members.setdefault(group, []).append(doc)
    position = {doc: i for i, doc in enumerate(ranking)}
    for docs in members.values():
        degree = max(qrels[d] for d in docs)
        retrieved = [d for d in docs if d in position]
        if len(retrieved) == len(docs):
            holder = max(docs, key=lambda d: position[d])
        else:
            holder = next(d for d in docs if d not in position)
        for doc in docs:
            out[doc] = degree if doc == holder else 0
    return out


#: irscale's names and pytrec_eval's measure of the same definition.
PYTREC = {"AP": "map", "nDCG": "ndcg", "P@5": "P_5", "P@10": "P_10", "R@10": "recall_10",
          "Rprec": "Rprec", "RR": "recip_rank", "Bpref": "bpref", "AP@5": "map_cut_5",
          "nDCG@10": "ndcg_cut_10", "NumRelRet": "num_rel_ret", "NumRel": "num_rel"}


def conditional_name(name: str, extra: str = "") -> str:
    head, at, cutoff = name.partition("@")
    return f"{head}(conditional=1{extra}){at}{cutoff}"


def pytrec(qrels: Qrels, rankings: dict[str, Ranking], level: int = 1
           ) -> dict[str, dict[str, float]]:
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(PYTREC.values()),
                                               relevance_level=level)
    return evaluator.evaluate(run_of(rankings))


@st.composite
def collections(draw):
    """Two or three topics of judged (0..3), pooled-unjudged (-1) and unjudged documents,
    a ranking per topic, and groups of 1 to 3 judged documents for some topics."""
    pool = [f"d{i}" for i in range(10)]
    qrels: Qrels = {}
    rankings: dict[str, Ranking] = {}
    groups: Groups = {}
    for t in ("t1", "t2", "t3")[: draw(st.integers(2, 3))]:
        degrees = draw(st.lists(st.sampled_from([None, -1, 0, 1, 2, 3]), min_size=10,
                                max_size=10))
        judged = {d: g for d, g in zip(pool, degrees, strict=True) if g is not None}
        if not any(g >= 0 for g in judged.values()):  # (pytrec_eval crashes without one)
            judged["d0"] = draw(st.integers(0, 3))
        qrels[t] = judged
        rankings[t] = draw(st.permutations(pool))[: draw(st.integers(1, 10))]
        members = [d for d, g in sorted(judged.items()) if g >= 0]
        chosen = draw(st.lists(st.sampled_from(members), unique=True, max_size=6)) if members \
            else []
        if chosen:
            ids = draw(st.lists(st.integers(1, 3), min_size=len(chosen),
                                max_size=len(chosen)))
            groups[t] = dict(zip(chosen, ids, strict=True))
    if not groups:  # at least one group somewhere
        groups["t1"] = {"d0": 1}
        qrels["t1"]["d0"] = max(qrels["t1"].get("d0", 0), 0)
    return qrels, rankings, groups


@SETTINGS
@given(collections(), st.sampled_from([1, 2]))
def test_the_trec_measures_equal_pytrec_eval_on_the_rewritten_judgments(data, level):
    qrels, rankings, groups = data
    extra = "" if level == 1 else f",rel={level}"
    # trec_eval's ndcg takes the degrees as gains whatever the level (nDCG refuses rel)
    names = {name: conditional_name(name, "" if name.startswith("nDCG") else extra)
             for name in PYTREC}
    ours = values(qrels, rankings, list(names.values()), groups)
    for topic, ranking in rankings.items():
        rewritten = {topic: rewrite(qrels[topic], ranking, groups.get(topic, {}))}
        theirs = pytrec(rewritten, {topic: ranking}, level)[topic]
        for name, spelled in names.items():
            assert ours[spelled][topic] == pytest.approx(theirs[PYTREC[name]], abs=1e-12), (
                spelled, topic, ranking, rewritten)


@SETTINGS
@given(collections())
def test_condensed_lists_after_conditional_relevance_equal_pytrec_eval(data):
    qrels, rankings, groups = data
    names = ["AP", "P@5", "nDCG@10"]
    ours = values(qrels, rankings, [conditional_name(n, ",condensed=1") for n in names],
                  groups)
    for topic, ranking in rankings.items():
        rewritten = rewrite(qrels[topic], ranking, groups.get(topic, {}))
        condensed = [d for d in ranking if rewritten.get(d, -1) >= 0]
        if not condensed:  # nothing judged retrieved: every value is 0 either way
            assert all(ours[conditional_name(n, ",condensed=1")][topic] == 0 for n in names)
            continue
        theirs = pytrec({topic: rewritten}, {topic: condensed})[topic]
        for name in names:
            assert ours[conditional_name(name, ",condensed=1")][topic] == pytest.approx(
                theirs[PYTREC[name]], abs=1e-12), (name, topic)


#: Families pytrec_eval lacks: irscale's plain measure on the rewritten judgments.
KEYWORD_NAMES = ["Q", "Q(beta=0.5)@5", "ERR@10", "nERR@5", "RBP(p=0.8)",
                 "AP(norm=min)@5", "gAP", "DCG(discount=jk,base=2)@10", "nDCG(gain=exp)"]


@SETTINGS
@given(collections())
def test_keyword_families_equal_their_plain_values_on_the_rewritten_judgments(data):
    qrels, rankings, groups = data
    spelled = {name: with_conditional(name) for name in KEYWORD_NAMES}
    ours = values(qrels, rankings, list(spelled.values()), groups)
    for topic, ranking in rankings.items():
        # the other topics' judgments stay: some gains read the largest degree of the qrels
        rewritten = {**qrels, topic: rewrite(qrels[topic], ranking, groups.get(topic, {}))}
        theirs = values(rewritten, {topic: ranking}, KEYWORD_NAMES)
        for name in KEYWORD_NAMES:
            assert ours[spelled[name]][topic] == pytest.approx(theirs[name][topic],
                                                               abs=1e-12), (name, topic)


def with_conditional(name: str) -> str:
    """``name`` with ``conditional=1`` among its parameters."""
    head, at, cutoff = name.partition("@")
    if head.endswith(")"):
        return f"{head[:-1]},conditional=1){at}{cutoff}"
    return f"{head}(conditional=1){at}{cutoff}"


# ====================================================================== properties
PROPERTY_NAMES = ["AP", "nDCG", "P@5", "Bpref", "Rprec", "Q", "ERR@10", "NumRel",
                  "AP(condensed=1)", "bpref_N", "infAP"]


@SETTINGS
@given(collections())
def test_groups_of_one_document_change_nothing(data):
    qrels, rankings, _ = data
    singletons = {t: {d: i for i, d in enumerate(sorted(judged)) if judged[d] >= 0}
                  for t, judged in qrels.items()}
    plain = values(qrels, rankings, PROPERTY_NAMES)
    ours = values(qrels, rankings, [with_conditional(n) for n in PROPERTY_NAMES],
                  singletons)
    for name in PROPERTY_NAMES:
        assert ours[with_conditional(name)] == pytest.approx(plain[name], abs=1e-15), name


@SETTINGS
@given(collections())
def test_topics_without_groups_keep_their_values(data):
    qrels, rankings, groups = data
    plain = values(qrels, rankings, PROPERTY_NAMES)
    ours = values(qrels, rankings, [with_conditional(n) for n in PROPERTY_NAMES], groups)
    for topic in set(rankings) - set(groups):
        for name in PROPERTY_NAMES:
            assert ours[with_conditional(name)][topic] == plain[name][topic], (name, topic)


# ====================================================================== errors
def test_no_groups_given_is_one_error_naming_the_measure():
    with pytest.raises(MeasureError, match=r"'AP\(conditional=1\)'.*--labels conditional="):
        evaluate(PATENT_QRELS, run_of(PATENT_RANKING), ["AP(conditional=1)"])


def test_a_member_the_qrels_do_not_judge_is_refused():
    with pytest.raises(InputError, match=r"must be judged: .q x1 1."):
        evaluate(PATENT_QRELS, run_of(PATENT_RANKING), ["AP(conditional=1)"],
                 labels={"conditional": {"q": {"p1": 1, "x1": 1}}})


def test_a_group_for_every_topic_is_refused():
    with pytest.raises(InputError, match="one topic"):
        evaluate(PATENT_QRELS, run_of(PATENT_RANKING), ["AP(conditional=1)"],
                 labels={"conditional": {"p1": 1, "p2": 1}})


@pytest.mark.parametrize("name", ["AP(conditional=2)", "NumQ(conditional=1)",
                                  "Judged(conditional=1)@10", "NumRet(conditional=1)"])
def test_names_that_cannot_take_it_are_refused(name):
    with pytest.raises(MeasureError):
        evaluate(PATENT_QRELS, run_of(PATENT_RANKING), [name],
                 labels={"conditional": PATENT_GROUPS})


def test_the_interval_scales_refuse_it():
    from irscale.scales.measures import scale_measure

    with pytest.raises(MeasureError, match="conditional=1 cannot apply to interval scales"):
        scale_measure("AP(conditional=1)")


# ====================================================================== batches in pieces
PIECES_QRELS = {"t1": {"a": 2, "b": 1, "c": 0, "d": 1}, "t2": {"a": 1, "b": 3, "e": 0},
                "t3": {"x": 1, "y": 2}}
PIECES_RANKINGS = {"t1": ["a", "z", "b", "d", "c"], "t2": ["e", "b", "q", "a"],
                   "t3": ["y", "x"]}
PIECES_GROUPS = {"t1": {"a": 1, "d": 1, "b": 2, "c": 2}, "t2": {"a": 5, "e": 5},
                 "t3": {"x": 1, "y": 1}}


def test_views_and_pieces_keep_the_conditional_judgments_aligned(monkeypatch):
    from irscale.measures import compute
    from irscale.parallel import threads

    names = ["AP(conditional=1)", "nDCG(conditional=1)@3", "P(conditional=1,condensed=1)@2",
             "Bpref(conditional=1)"]
    whole = values(PIECES_QRELS, PIECES_RANKINGS, names, PIECES_GROUPS)
    # t1: group 1 {a, d} completed at rank 4 (degree 2), group 2 {b, c} at rank 5 (degree
    # 1); R = 2: AP = (1/4 + 2/5) / 2
    assert whole["AP(conditional=1)"]["t1"] == pytest.approx((1 / 4 + 2 / 5) / 2)
    monkeypatch.setattr(compute, "_SHARED_ROWS", 1)
    monkeypatch.setattr(compute, "usable_cores", lambda: 3)
    monkeypatch.setattr(threads, "usable_cores", lambda: 3)
    assert values(PIECES_QRELS, PIECES_RANKINGS, names, PIECES_GROUPS) == whole
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        jr = evaluate(PIECES_QRELS, run_of(PIECES_RANKINGS), names,
                      labels={"conditional": PIECES_GROUPS}).rankings
    judged = jr.conditional()
    for first, stop in ((0, 1), (1, 3)):
        piece, expected = jr.rankings(first, stop).conditional(), judged.rankings(first, stop)
        assert piece.rel.tolist() == expected.rel.tolist()
        assert piece.rel_levels.tolist() == expected.rel_levels.tolist()
    assert jr.truncate(2).conditional().rel.tolist() == judged.truncate(2).rel.tolist()
    assert jr.condensed().conditional().rel.tolist() == judged.condensed().rel.tolist()


def test_the_group_degree_is_exact_however_large():
    big = 2**60 + 1  # not a double: a degree read through a float would be 2**60
    qrels = f"q 0 p1 1\nq 0 p2 {big}\nq 0 a 1\nq 0 n 0\n".encode()
    run = "".join(f"q Q0 {d} {i} {11 - i} r\n"
                  for i, d in enumerate(PATENT_RANKING["q"], 1)).encode()
    name = f"P(conditional=1,rel={big})@10"
    ev = evaluate(qrels, run, [name], labels={"conditional": PATENT_GROUPS})
    assert ev.values[name].tolist() == [1 / 10]  # the group, degree 2**60 + 1, at rank 10

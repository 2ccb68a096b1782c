"""FairPairs (irscale.online.fairpairs) against a loop-by-loop transcription of Radlinski &
Joachims (2006), Algorithm 1: the distribution of the lists shown (offset and flips fair,
every document shown once), and, by simulation with a known truth, preferences that
recover the more attractive document of every adjacent pair under position-biased users
where the naive "clicked above unclicked" counts of the unrandomised ranking do not."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest, chisquare

from irscale.errors import InputError, ParameterError
from irscale.online import ClickModel, fair_pairs, fair_pairs_run, simulate_click_log
from irscale.online.fairpairs import sign_test

DOCS = [f"d{i}" for i in range(1, 9)]
#: The users' truth: attractiveness of d1..d8 (d1 < d2, d2 = d3, d3 > d4, d4 = d5 = d6,
#: d6 < d7, d7 > d8) and a steep position bias.
ALPHA = np.array([0.5, 0.6, 0.6, 0.4, 0.4, 0.4, 0.7, 0.2])
GAMMA = np.array([1.0, 0.6, 0.45, 0.35, 0.28, 0.22, 0.18, 0.15])
#: p-values below this reject at the fixed seeds (a bound that a fair draw misses with
#: probability 10^-3 per check).
STRICT = 1e-3


def algorithm_1(ranking, k, coins):
    """Radlinski & Joachims (2006), Algorithm 1, loop by loop: pairs (d_i, d_{i+1}) for
    i = 1, 3, 5, ... (k = 0) or i = 2, 4, ... (k = 1), pair j swapped when coins[j]."""
    shown = list(ranking)
    j = 0
    for i in range(k, len(shown) - 1, 2):
        if coins[j]:
            shown[i], shown[i + 1] = shown[i + 1], shown[i]
        j += 1
    return tuple(shown)


def exact_distribution(ranking):
    """P(list) over every offset and every assignment of the coins."""
    prob: Counter = Counter()
    for k in (0, 1):
        n_pairs = len(range(k, len(ranking) - 1, 2))
        for coins in itertools.product((0, 1), repeat=n_pairs):
            prob[algorithm_1(ranking, k, coins)] += 0.5 * 0.5 ** n_pairs
    return prob


def _model(kind):
    index = pd.MultiIndex.from_tuples([("q", d) for d in DOCS], names=["query", "docno"])
    if kind == "pbm":
        return ClickModel("pbm", pd.Series(ALPHA, index=index), examination=GAMMA)
    return ClickModel("cm", pd.Series(ALPHA, index=index))


# --------------------------------------------------------------------------- presentation
@pytest.mark.parametrize("size,length", [(7, 7), (6, 6), (7, 5)])
def test_lists_follow_algorithm_1s_distribution(size, length):
    ranking = [f"x{i}" for i in range(size)]
    n = 40_000
    shown = fair_pairs_run({"t": ranking}, n, length=length, rng=7)
    lists = [tuple(row) for row in shown.documents().tolist()]
    expected = exact_distribution(ranking[:length])
    # every document of the first `length` shown exactly once, nothing else
    assert all(sorted(row) == sorted(ranking[:length]) for row in set(lists))
    assert set(lists) <= set(expected)
    observed = Counter(lists)
    keys = sorted(expected)
    assert chisquare([observed[key] for key in keys],
                     [expected[key] * n for key in keys]).pvalue > STRICT
    # the offset is a fair coin, and each pair of an offset is flipped by a fair coin
    assert binomtest(int(shown.offset.sum()), n).pvalue > STRICT
    for k in (0, 1):
        rows = shown.documents()[shown.offset == k]
        for i in range(k, length - 1, 2):
            flips = int((rows[:, i] == ranking[i + 1]).sum())
            assert binomtest(flips, len(rows)).pvalue > STRICT
            # a flipped pair is that pair swapped, and nothing but pairs of the offset moves
            assert ((rows[:, i] == ranking[i + 1]) == (rows[:, i + 1] == ranking[i])).all()
        alone = [i for i in range(length) if not any(i in (j, j + 1) for j in
                                                     range(k, length - 1, 2))]
        for i in alone:
            assert (rows[:, i] == ranking[i]).all()


def test_topics_of_different_lengths_in_one_batch():
    rankings = {"a": ["p", "q", "r", "s", "t"], "b": ["u", "v"], "c": ["w"]}
    shown = fair_pairs_run(rankings, 500, length=4, rng=3)
    docs = shown.documents()
    for t, name in enumerate(shown.candidates.topics):
        rows = docs[shown.topic == t]
        kept = rankings[name][:4]
        assert all(sorted(d for d in row if d is not None) == sorted(kept) for row in rows)
        assert all(d is None for row in rows for d in row[len(kept):])
    frame = shown.to_frame()
    assert (frame["flipped"] == (frame["rank"] != frame["ranked"])).all()


def test_same_seed_same_lists():
    first = fair_pairs_run({"t": DOCS}, 50, rng=11)
    again = fair_pairs_run({"t": DOCS}, 50, rng=11)
    assert (first.documents() == again.documents()).all()
    assert (first.offset == again.offset).all()


# --------------------------------------------------------------------------- preferences
def test_preferences_by_hand():
    shown = fair_pairs(["d1", "d2", "d3", "d4", "d5"], 3, rng=29)
    # impression 0: offset 1, pairs (d2, d3) flipped and (d4, d5) not; impression 1:
    # offset 0, (d1, d2) and (d3, d4) flipped, d5 alone; impression 2: offset 1, (d4, d5)
    # flipped
    assert shown.offset.tolist() == [1, 0, 1]
    assert shown.documents().tolist() == [["d1", "d3", "d2", "d4", "d5"],
                                          ["d2", "d1", "d4", "d3", "d5"],
                                          ["d1", "d2", "d3", "d5", "d4"]]
    clicks = np.zeros((3, 5), dtype=bool)
    clicks[0, [2, 4]] = True  # d2 below d3: d2 over d3; d5 below d4: d5 over d4
    clicks[1, 4] = True  # d5 is in no pair: nothing
    clicks[2, 3] = True  # d5 above d4: a click on the upper document is no preference
    table = shown.preferences(clicks).to_frame().set_index(["a", "b"])
    counts = ["impressions", "flipped", "a_over_b", "b_over_a"]
    assert table.loc[("d1", "d2"), counts].tolist() == [1, 1, 0, 0]
    assert table.loc[("d2", "d3"), counts].tolist() == [2, 1, 1, 0]
    assert table.loc[("d3", "d4"), counts].tolist() == [1, 1, 0, 0]
    assert table.loc[("d4", "d5"), counts].tolist() == [2, 1, 0, 1]
    assert table["preferred"].tolist() == ["none", "d2", "none", "d5"]
    # both documents of a pair clicked: no preference
    clicks[0, 1] = True
    table = shown.preferences(clicks).to_frame().set_index(["a", "b"])
    assert table.loc[("d2", "d3"), ["a_over_b", "b_over_a"]].tolist() == [0, 0]


def test_sign_test_is_scipys_binomial_test():
    k = np.array([0, 1, 3, 5, 10, 17, 0, 40])
    other = np.array([0, 0, 4, 5, 2, 30, 9, 61])
    p = sign_test(k, other)
    for ki, oi, pi in zip(k, other, p, strict=True):
        expected = binomtest(int(ki), int(ki + oi)).pvalue if ki + oi else 1.0
        assert pi == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("kind", ["pbm", "cm"])
def test_preferences_recover_the_truth_where_naive_counts_are_biased(kind):
    model = _model(kind)
    n = 60_000
    shown = fair_pairs_run({"q": DOCS}, n, length=8, rng=1)
    table = shown.preferences(shown.simulate_clicks(model, rng=2), alpha=STRICT).to_frame()
    upper, lower = ALPHA[:-1], ALPHA[1:]
    differ = upper != lower
    truth = np.where(upper > lower, table["a"], table["b"])
    # every pair whose attractiveness differs: the more attractive document, significant
    assert (table["preferred"][differ] == truth[differ]).all()
    assert table["significant"][differ].all()
    # pairs of equal attractiveness: no significant preference (unbiased by position)
    assert not table["significant"][~differ].any()
    # the naive counts of the ranking shown as it is: a clicked above b unclicked against b
    # clicked below a unclicked, at the same two positions, with as many users
    log = simulate_click_log({"q": {d: 8.0 - i for i, d in enumerate(DOCS)}}, model,
                             sessions=n, serp_size=8, rng=3)
    c = log.clicks
    above = (c[:, :-1] & ~c[:, 1:]).sum(axis=0)
    below = (c[:, 1:] & ~c[:, :-1]).sum(axis=0)
    naive_p = np.array([binomtest(int(x), int(x + y)).pvalue for x, y in
                        zip(above, below, strict=True)])
    biased = (naive_p <= STRICT) & (above > below)
    # position bias makes them prefer the upper document of every pair of equal
    # attractiveness, and of a pair whose lower document is the more attractive one
    assert biased[~differ].all()
    assert biased[differ & (lower > upper)].any()


def test_counts_match_the_position_based_model_exactly():
    # PBM, pair (a, b) at positions i, i + 1: P(b over a | a above) = (1 − γ_i α_a) γ_{i+1}
    # α_b; given the impressions of each order the counts are binomial
    n = 60_000
    shown = fair_pairs_run({"q": DOCS}, n, length=8, rng=5)
    table = shown.preferences(shown.simulate_clicks(_model("pbm"), rng=6)).to_frame()
    for i, row in enumerate(table.itertuples()):
        g_up, g_low = GAMMA[i], GAMMA[i + 1]
        a, b = ALPHA[i], ALPHA[i + 1]
        in_order = row.impressions - row.flipped
        assert binomtest(int(row.b_over_a), int(in_order),
                         (1 - g_up * a) * g_low * b).pvalue > STRICT
        assert binomtest(int(row.a_over_b), int(row.flipped),
                         (1 - g_up * b) * g_low * a).pvalue > STRICT
        # each pair is held by the impressions of its offset: half of them
        assert binomtest(int(row.impressions), n).pvalue > STRICT


def test_perfect_clicks_prefer_the_relevant_document():
    qrels = {"q": {"d2": 1, "d5": 2}}
    shown = fair_pairs_run({"q": DOCS}, 400, length=8, rng=4)
    table = shown.preferences(shown.simulate_clicks("perfect", qrels=qrels)).to_frame()
    decided = table[table["preferred"] != "none"]
    assert set(zip(decided["a"], decided["b"], decided["preferred"], strict=True)) == {
        ("d1", "d2", "d2"), ("d2", "d3", "d2"), ("d4", "d5", "d5"), ("d5", "d6", "d5")}


# --------------------------------------------------------------------------- errors
def test_bad_input_is_refused():
    with pytest.raises(InputError, match="one run"):
        fair_pairs_run({"A": {"q": {"a": 1.0}}, "B": {"q": {"b": 1.0}}}, 3)
    with pytest.raises(InputError, match="twice"):
        fair_pairs(["a", "b", "a"], 1)
    with pytest.raises(ParameterError, match=r"^ranking: expected Sequence\[str\], got 'abc'"):
        fair_pairs("abc", 1)
    with pytest.raises(ParameterError):
        fair_pairs(["a", "b"], 0)
    with pytest.raises(ParameterError):
        fair_pairs(["a", "b"], 2, length=0)
    shown = fair_pairs(["a", "b", "c"], 2, rng=1)
    with pytest.raises(InputError, match="2 impressions"):
        shown.preferences(np.zeros((3, 3), dtype=bool))
    with pytest.raises(InputError, match="0/1"):
        shown.preferences(np.full((2, 3), 2))
    with pytest.raises(ParameterError):
        shown.preferences(np.zeros((2, 3), dtype=bool), alpha=1.5)

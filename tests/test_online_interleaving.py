"""Interleaving and multileaving (irscale.online.interleaving) against loop-by-loop
transcriptions of the papers' algorithms written here, and the fidelity properties:
fair prefixes, ties under random clicks, the better ranker winning under a
perfect click model, identical rankings tying."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from irscale.errors import InputError, ParameterError
from irscale.online import interleave, interleave_runs
from irscale.online.interleaving import TAU, InterleavingResult

from .conftest import CLEF, require
from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


# --------------------------------------------------------------------------- references
def balanced_reference(a, b, a_first, length):
    """Radlinski, Kurup & Joachims (2008), Algorithm 1, loop by loop."""
    out, ka, kb = [], 0, 0
    while ka < len(a) and kb < len(b):
        if ka < kb or (ka == kb and a_first):
            if a[ka] not in out:
                out.append(a[ka])
            ka += 1
        else:
            if b[kb] not in out:
                out.append(b[kb])
            kb += 1
    return out[:length]


def team_draft_reference(rankings, orders, length):
    """Team-draft (multileaving): in each round the rankers pick in the given order."""
    out, team = [], []
    for order in orders:
        for s in order:
            if len(out) == length:
                return out, team
            left = [d for d in rankings[s] if d not in out]
            if not left:
                return out, team
            out.append(left[0])
            team.append(s)
    return out, team


def balanced_credit_reference(a, b, shown, clicked):
    """Joachims' rule: k from the lowest click; clicks within the top k of each ranking."""
    if not clicked:
        return 0, 0
    d = shown[max(clicked)]
    k = min(a.index(d) + 1 if d in a else np.inf, b.index(d) + 1 if d in b else np.inf)
    h_a = sum(1 for i in clicked if shown[i] in a[: int(min(k, len(a)))])
    h_b = sum(1 for i in clicked if shown[i] in b[: int(min(k, len(b)))])
    return h_a, h_b


def softmax_probability(ranking, doc, shown, tau=TAU):
    """P_s(doc | documents ``shown`` removed), Hofmann et al. (2011)."""
    weights = {d: (i + 1) ** -tau for i, d in enumerate(ranking)}
    left = sum(w for d, w in weights.items() if d not in shown)
    return weights[doc] / left if doc in weights else 0.0


def random_rankings(rng, n_topics, pool, depth):
    rankers = {}
    for name in ("A", "B"):
        rankers[name] = {f"q{t}": [f"d{i}" for i in rng.permutation(pool)[:depth]]
                         for t in range(n_topics)}
    return rankers


# --------------------------------------------------------------------------- mixing
def test_balanced_equals_algorithm_1_for_both_coins():
    rng = np.random.default_rng(5)
    rankers = random_rankings(rng, 40, 12, 8)
    batch = interleave_runs(rankers, 20, method="balanced", length=6, rng=1)
    docs = batch.documents()
    topics = np.asarray(batch.candidates.topics)[batch.topic]
    seen = set()
    for n, topic in enumerate(topics):
        a, b = rankers["A"][topic], rankers["B"][topic]
        shown = [d for d in docs[n] if d is not None]
        options = [balanced_reference(a, b, bit, 6) for bit in (0, 1)]
        assert shown in options
        seen.add((topic, options.index(shown) if options[0] != options[1] else 2))
    assert len({s for s in seen if s[1] != 2}) > 40  # both coins occur


def test_balanced_prefixes_are_unions_of_prefixes_within_one():
    """Every prefix of a balanced list is top-k_a(A) ∪ top-k_b(B) with |k_a − k_b| ≤ 1."""
    rng = np.random.default_rng(8)
    rankers = random_rankings(rng, 30, 10, 10)
    batch = interleave_runs(rankers, 4, method="balanced", length=10, rng=2)
    docs = batch.documents()
    for n, t in enumerate(batch.topic):
        topic = batch.candidates.topics[t]
        a, b = rankers["A"][topic], rankers["B"][topic]
        shown = [d for d in docs[n] if d is not None]
        for j in range(1, len(shown) + 1):
            prefix = set(shown[:j])
            assert any(prefix == set(a[:ka]) | set(b[:kb])
                       for ka in range(len(a) + 1) for kb in range(len(b) + 1)
                       if abs(ka - kb) <= 1)


@pytest.mark.parametrize("n_rankers", [2, 3, 4])
def test_team_draft_equals_the_reference_with_the_same_coins(n_rankers):
    rng = np.random.default_rng(n_rankers)
    names = "ABCD"[:n_rankers]
    rankers = {s: {f"q{t}": [f"d{i}" for i in rng.permutation(9)[:7]] for t in range(25)}
               for s in names}
    batch = interleave_runs(rankers, 30, method="team-draft", length=8, rng=3)
    docs, team = batch.documents(), batch.team
    for n, t in enumerate(batch.topic):
        topic = batch.candidates.topics[t]
        shown_team = [int(s) for s in team[n] if s >= 0]
        # the order of each round is the order in which the rankers picked
        rounds = [shown_team[i:i + n_rankers] for i in range(0, len(shown_team), n_rankers)]
        orders = [r + [s for s in range(n_rankers) if s not in r] for r in rounds]
        lists = [rankers[s][topic] for s in names]
        expected, expected_team = team_draft_reference(lists, orders, 8)
        shown = [d for d in docs[n] if d is not None]
        assert shown == expected[:len(shown)] and shown_team == expected_team[:len(shown)]
        if len(shown) < len(expected):  # the list ended: a ranker yet to pick had none left
            waiting = set(range(n_rankers)) - set(rounds[-1] if len(rounds[-1]) < n_rankers
                                                  else [])
            assert any(not [d for d in lists[s] if d not in shown] for s in waiting)
        # fairness: in every prefix, team sizes differ by at most one
        for j in range(1, len(shown_team) + 1):
            sizes = np.bincount(shown_team[:j], minlength=n_rankers)
            assert sizes.max() - sizes.min() <= 1
        # every round is a permutation (every ranker first in some impressions)
        assert sorted(orders[0]) == list(range(n_rankers))


def test_team_draft_first_pickers_are_fair_coins():
    rankers = {"A": {"q": ["a", "b", "c", "d"]}, "B": {"q": ["e", "f", "g", "h"]}}
    batch = interleave_runs(rankers, 20_000, length=4, rng=11)
    first_a = int((batch.team[:, 0] == 0).sum())
    assert binomtest(first_a, 20_000).pvalue > 1e-3


@pytest.mark.parametrize("tau", [TAU, 30.0])
def test_probabilistic_probabilities_follow_the_softmax(tau):
    """Also with τ = 30, where the mass left after a few draws is below 1e-30 of the
    whole: no document twice, probabilities as computed here."""
    rng = np.random.default_rng(2)
    rankers = random_rankings(rng, 10, 8, 6)
    batch = interleave_runs(rankers, 30, method="probabilistic", length=6, tau=tau, rng=4)
    docs = batch.documents()
    for n, t in enumerate(batch.topic):
        topic = batch.candidates.topics[t]
        a, b = rankers["A"][topic], rankers["B"][topic]
        shown = [d for d in docs[n] if d is not None]
        assert len(set(shown)) == len(shown) == len(set(a) | set(b)) or len(shown) == 6
        for i, d in enumerate(shown):
            left = [len([x for x in r if x not in shown[:i]]) > 0 for r in (a, b)]
            pick = 0.5 if all(left) else 1.0
            for s, ranking in enumerate((a, b)):
                expected = (pick if left[s] else 0.0) * softmax_probability(
                    ranking, d, shown[:i], tau)
                assert batch.prob[n, i, s] == pytest.approx(expected, rel=1e-9, abs=1e-12)
            assert batch.prob[n, i, batch.team[n, i]] > 0  # the ranker that drew it


def test_probabilistic_draws_match_the_softmax_distribution():
    """The first document's frequency is 0.5 P_A(d) + 0.5 P_B(d)."""
    a, b = ["a", "b", "c", "d"], ["d", "c", "b", "a"]
    batch = interleave_runs({"A": {"q": a}, "B": {"q": b}}, 40_000,
                            method="probabilistic", length=2, rng=9)
    first = pd.Series(batch.documents()[:, 0]).value_counts() / 40_000
    for d in a:
        expected = 0.5 * softmax_probability(a, d, []) + 0.5 * softmax_probability(b, d, [])
        assert first.get(d, 0.0) == pytest.approx(expected, abs=4 * np.sqrt(0.25 / 40_000))


def test_probabilistic_marginal_outcome_equals_enumeration():
    """E[o] by convolution equals the sum over all 2^L assignments."""
    rng = np.random.default_rng(6)
    rankers = random_rankings(rng, 5, 6, 5)
    batch = interleave_runs(rankers, 20, method="probabilistic", length=5, rng=1)
    clicks = rng.random(batch.pairs.shape) < 0.5
    clicks &= batch.pairs >= 0
    win, loss = batch._marginal_outcome(clicks)
    got = batch.outcomes(clicks)[:, 0]
    assert np.allclose(got, win - loss)
    for n in range(len(batch)):
        total = 0.0
        norm = 0.0
        wins = 0.0
        for assign in itertools.product((0, 1), repeat=batch.length):
            weight = np.prod([batch.prob[n, i, s] if batch.pairs[n, i] >= 0 else 1.0
                              for i, s in enumerate(assign)])
            c_a = sum(1 for i, s in enumerate(assign) if clicks[n, i] and s == 0)
            c_b = sum(1 for i, s in enumerate(assign) if clicks[n, i] and s == 1)
            total += weight * np.sign(c_a - c_b)
            wins += weight * (c_a > c_b)
            norm += weight
        assert got[n] == pytest.approx(total / norm, abs=1e-12)
        assert win[n] == pytest.approx(wins / norm, abs=1e-12)


def test_optimized_lists_obey_the_prefix_constraint_and_are_unbiased():
    from irscale.online.interleaving import rankings_from_lists
    from irscale.online.mixing import Cube, list_credits, optimized_lists

    rng = np.random.default_rng(4)
    rankers = random_rankings(rng, 6, 7, 6)
    cube = Cube(rankings_from_lists(rankers))
    pairs, topic, prob = optimized_lists(cube, 4, "inverse")
    docnos = np.asarray([*cube.candidates.pair_docno.to_pylist(), None], dtype=object)
    for t in range(len(cube.candidates.topics)):
        mine = topic == t
        assert prob[mine].sum() == pytest.approx(1.0)
        name = cube.candidates.topics[t]
        a, b = rankers["A"][name], rankers["B"][name]
        for row in docnos[pairs[mine]]:
            for j, d in enumerate(row):
                if d is None:
                    continue
                left_a = [x for x in a if x not in row[:j]]
                left_b = [x for x in b if x not in row[:j]]
                assert d in (left_a[:1] + left_b[:1])
        delta = list_credits(cube, pairs[mine], topic[mine], "inverse")
        bias = (prob[mine][:, None] * np.cumsum(delta[:, :, 0] - delta[:, :, 1], axis=1))
        assert np.abs(bias.sum(axis=0)).max() < 1e-8
        # inverse credit by hand for one list
        row = docnos[pairs[mine][0]]
        for j, d in enumerate(row):
            expected = 1 / (a.index(d) + 1 if d in a else len(a) + 1)
            assert delta[0, j, 0] == pytest.approx(expected)


# --------------------------------------------------------------------------- credit
def test_balanced_credit_equals_joachims_rule():
    rng = np.random.default_rng(3)
    rankers = random_rankings(rng, 20, 10, 8)
    batch = interleave_runs(rankers, 10, method="balanced", length=8, rng=5)
    clicks = (rng.random(batch.pairs.shape) < 0.3) & (batch.pairs >= 0)
    credit = batch.credits(clicks)
    docs = batch.documents()
    for n, t in enumerate(batch.topic):
        topic = batch.candidates.topics[t]
        shown = list(docs[n])
        clicked = [int(i) for i in np.flatnonzero(clicks[n])]
        assert tuple(credit[n]) == balanced_credit_reference(
            rankers["A"][topic], rankers["B"][topic], shown, clicked)


def test_hand_example_of_every_credit_rule():
    a, b = ["d1", "d2", "d3"], ["d2", "d4", "d1"]
    # balanced, AFirst = 1: d1 (A), d2 (B), d2 skipped, d4 (B), d3 (A), d1 skipped
    shown = interleave(a, b, method="balanced", rng=0)
    assert [d for d in shown.documents()[0]] in (["d1", "d2", "d4", "d3"],
                                                 ["d2", "d1", "d4", "d3"])
    # a click on d3 at the end: k = 3 (d3 = a[3]): A's top 3 hold it, B's top 3 do not
    position = list(shown.documents()[0]).index("d3")
    clicks = np.zeros((1, 4), dtype=bool)
    clicks[0, position] = True
    assert shown.credits(clicks).tolist() == [[1.0, 0.0]]
    # optimized, inverse credit: a click on d4 gives A 1/(3+1) and B 1/2
    shown = interleave(a, b, method="optimized", rng=0)
    position = list(shown.documents()[0]).index("d4")
    clicks = np.zeros(shown.pairs.shape, dtype=bool)
    clicks[0, position] = True
    assert shown.credits(clicks).tolist() == [[0.25, 0.5]]
    assert shown.score(clicks).statistic == -0.5


@pytest.mark.parametrize("method", ["balanced", "team-draft", "probabilistic", "optimized"])
def test_identical_rankings_always_tie(method):
    ranking = [f"d{i}" for i in range(10)]
    batch = interleave_runs({"A": {"q": ranking}, "B": {"q": list(ranking)}}, 2000,
                            method=method, rng=1)
    rng = np.random.default_rng(0)
    clicks = rng.random(batch.pairs.shape) < 0.5
    result = batch.score(clicks, rng=1)
    if method == "team-draft":  # the only method whose teams differ on equal rankings
        assert result.frame["ties"].iloc[0] < 2000
    elif method == "probabilistic":  # marginal: P(win) = P(loss) in every impression
        assert result.statistic == pytest.approx(0.0, abs=1e-12) and result.pvalue > 0.99
    else:
        assert result.frame["ties"].iloc[0] == 2000
        assert result.statistic == 0.0 and result.pvalue == 1.0


def test_team_draft_with_identical_rankings_ties_in_expectation():
    """Team-draft credits identical rankings' documents by coin: wins = losses in law."""
    ranking = [f"d{i}" for i in range(10)]
    batch = interleave_runs({"A": {"q": ranking}, "B": {"q": list(ranking)}}, 100_000,
                            rng=4)
    clicks = np.random.default_rng(1).random(batch.pairs.shape) < 0.3
    result = batch.score(clicks, rng=2)
    low, high = result.confidence_interval(0.999)
    assert low < 0 < high and result.pvalue > 1e-3


# --------------------------------------------------------------------------- fidelity
@pytest.mark.parametrize("method", ["team-draft", "probabilistic"])
def test_random_clicks_give_a_win_rate_of_one_half(method):
    """10^5 impressions of random rankings with clicks at random: Δ_AB's 99.9% interval
    holds 0 and the binomial test does not reject."""
    rng = np.random.default_rng(12)
    rankers = random_rankings(rng, 50, 30, 20)
    n = 2000 if method == "team-draft" else 400
    batch = interleave_runs(rankers, n, method=method, length=10, rng=7)
    clicks = (rng.random(batch.pairs.shape) < 0.3) & (batch.pairs >= 0)
    result = batch.score(clicks, rng=3)
    low, high = result.confidence_interval(0.999)
    assert low < 0 < high
    assert result.pvalue > 1e-3
    assert len(batch) == 50 * n


def test_balanced_is_fair_under_random_clicks_on_disjoint_rankings():
    """Balanced interleaving is fair when the rankings share no document (it is biased
    when they overlap, as Radlinski et al. 2008 show, see docs/online.md)."""
    rng = np.random.default_rng(13)
    rankers = {"A": {f"q{t}": [f"a{i}" for i in range(10)] for t in range(20)},
               "B": {f"q{t}": [f"b{i}" for i in range(10)] for t in range(20)}}
    batch = interleave_runs(rankers, 5000, method="balanced", rng=1)
    clicks = rng.random(batch.pairs.shape) < 0.3
    result = batch.score(clicks, rng=3)
    assert result.confidence_interval(0.999).low < 0 < result.confidence_interval(0.999).high


def test_overlapping_rankings_under_random_clicks():
    """A = (a, b, c), B = (b, c, a), clicks at random: balanced interleaving favours B
    (Radlinski et al. 2008's example of its bias: Δ = −1/8 exactly with these clicks'
    probability 1/2), team-draft and probabilistic interleaving (mean of E[o]) do not."""
    rankers = {"A": {"q": ["a", "b", "c"]}, "B": {"q": ["b", "c", "a"]}}
    found = {}
    for method in ("balanced", "team-draft", "probabilistic"):
        batch = interleave_runs(rankers, 100_000, method=method, length=3, rng=1)
        clicks = np.random.default_rng(2).random(batch.pairs.shape) < 0.5
        found[method] = batch.score(clicks, rng=1).confidence_interval(0.999)
    assert found["balanced"].low < -0.125 < found["balanced"].high
    assert found["team-draft"].low < 0 < found["team-draft"].high
    assert found["probabilistic"].low < 0 < found["probabilistic"].high


def test_optimized_credit_is_unbiased_under_random_clicks():
    rng = np.random.default_rng(14)
    rankers = random_rankings(rng, 20, 12, 10)
    batch = interleave_runs(rankers, 5000, method="optimized", length=6, rng=2)
    clicks = (rng.random(batch.pairs.shape) < 0.3) & (batch.pairs >= 0)
    credit = batch.credits(clicks)
    diff = credit[:, 0] - credit[:, 1]
    assert abs(diff.mean()) < 4 * diff.std() / np.sqrt(len(diff))


def test_multileaving_random_clicks_give_no_preference():
    rng = np.random.default_rng(15)
    rankers = {s: {f"q{t}": [f"d{i}" for i in rng.permutation(30)[:20]] for t in range(50)}
               for s in "ABC"}
    batch = interleave_runs(rankers, 1000, length=10, rng=8)
    clicks = (rng.random(batch.pairs.shape) < 0.3) & (batch.pairs >= 0)
    result = batch.score(clicks, rng=1)
    low, high = result.confidence_interval(0.999)
    assert (low < 0).all() and (high > 0).all()
    matrix = result.preference_matrix()
    assert list(matrix.index) == ["A", "B", "C"]
    assert np.allclose(matrix.to_numpy(), -matrix.to_numpy().T)


@pytest.mark.parametrize("method", ["balanced", "team-draft", "probabilistic", "optimized"])
def test_perfect_clicks_prefer_the_better_ranking(method):
    """B is A with its relevant documents moved below the others (nDCG(A) > nDCG(B)):
    with a click on every relevant document A wins most impressions and never loses —
    except under probabilistic interleaving, whose posterior can give a click to B (B's
    softmax, renormalised over what is left, can make its document the likelier draw)."""
    rng = np.random.default_rng(16)
    a_lists, b_lists, relevant = {}, {}, {}
    for t in range(30):
        docs = [f"d{i}" for i in rng.permutation(20)[:10]]
        rel = set(docs[:3]) | {docs[6]}
        a_lists[f"q{t}"] = docs
        b_lists[f"q{t}"] = [d for d in docs if d not in rel] + [d for d in docs if d in rel]
        relevant[f"q{t}"] = rel
    batch = interleave_runs({"A": a_lists, "B": b_lists}, 300, method=method, length=8,
                            rng=3)
    docs = batch.documents()
    topics = np.asarray(batch.candidates.topics)[batch.topic]
    clicks = np.array([[d in relevant[t] for d in row] for row, t in zip(docs, topics,
                                                                          strict=True)])
    outcome = batch.outcomes(clicks)[:, 0]
    if method == "probabilistic":
        assert (outcome < 0).mean() < 0.1 * (outcome > 0).mean()
    else:
        assert (outcome >= 0).all()
    assert (outcome > 0).mean() > 0.5


def test_perfect_clicks_agree_with_ndcg_on_clef_runs():
    """On real runs the interleaving winner of a topic agrees with nDCG@10 on most topics
    with a clear difference (not all: clicks count relevant documents, nDCG grades and
    discounts them)."""
    import irscale

    data = require(CLEF)
    runs = sorted((data / "runs").iterdir())[:2]
    qrels = data / "task2.qrels"
    table = irscale.evaluate(qrels, runs, ["nDCG@10"]).per_topic()
    ndcg = table.pivot_table(index="topic", columns="run", values="value")
    batch = interleave_runs(runs, 400, method="team-draft", rng=1)
    a, b = batch.rankers
    outcome = batch.outcomes(batch.relevance(qrels) > 0)[:, 0]
    per_topic = pd.Series(outcome).groupby(
        np.asarray(batch.candidates.topics)[batch.topic]).mean()
    diff = (ndcg[a] - ndcg[b]).reindex(per_topic.index)
    clear = diff.abs() >= 0.1
    agree = (np.sign(diff[clear]) == np.sign(per_topic[clear])).mean()
    assert clear.sum() >= 10 and agree >= 0.8


# --------------------------------------------------------------------------- statistics
def test_result_statistics_by_hand():
    outcomes = np.array([1] * 30 + [-1] * 10 + [0] * 10)[:, None]
    result = InterleavingResult.of(outcomes > 0, outcomes < 0, [("A", "B")],
                                   method="team-draft", rng=1)
    row = result.to_frame().iloc[0]
    assert (row.wins, row.losses, row.ties, row.n) == (30, 10, 10, 50)
    assert result.statistic == pytest.approx((30 + 5) / 50 - 0.5)
    assert result.pvalue == pytest.approx(binomtest(30, 40).pvalue)
    # bootstrap: the multinomial resampling of impressions; its spread is that of Δ
    se = np.sqrt(np.var(np.r_[np.ones(30), np.zeros(10), np.full(10, 0.5)]) / 50)
    assert result.samples.std() == pytest.approx(se, rel=0.05)
    low, high = result.confidence_interval(0.95)
    assert low < result.statistic < high
    again = InterleavingResult.of(outcomes > 0, outcomes < 0, [("A", "B")],
                                  method="team-draft", rng=1)
    assert np.array_equal(again.samples, result.samples)
    assert "wins" in result.format("csv")


def test_marginal_result_by_hand():
    """Fractional outcomes: expected counts, Δ = mean(o)/2, scipy's one-sample t-test."""
    win = np.array([0.7, 0.2, 1.0, 0.0, 0.5])
    loss = np.array([0.1, 0.6, 0.0, 0.0, 0.25])
    result = InterleavingResult.of(win[:, None], loss[:, None], [("A", "B")],
                                   method="probabilistic")
    row = result.to_frame().iloc[0]
    assert row.wins == pytest.approx(2.4) and row.losses == pytest.approx(0.95)
    o = win - loss
    assert result.statistic == pytest.approx(o.mean() / 2)
    assert result.pvalue == pytest.approx(stats.ttest_1samp(o, 0).pvalue)
    low, high = result.confidence_interval(0.9)
    half = stats.t.ppf(0.95, 4) * o.std(ddof=1) / np.sqrt(5) / 2
    assert (low, high) == pytest.approx((o.mean() / 2 - half, o.mean() / 2 + half))


def test_same_seed_same_lists_and_errors():
    rankers = {"A": {"q": ["a", "b", "c"]}, "B": {"q": ["c", "b", "a"]}}
    for method in ("balanced", "team-draft", "probabilistic", "optimized"):
        one = interleave_runs(rankers, 50, method=method, rng=3)
        two = interleave_runs(rankers, 50, method=method, rng=3)
        assert np.array_equal(one.pairs, two.pairs)
    with pytest.raises(ParameterError, match="method"):
        interleave_runs(rankers, 5, method="teamdraft")
    with pytest.raises(ParameterError, match="credit"):
        interleave_runs(rankers, 5, method="optimized", credit="log")
    with pytest.raises(ParameterError, match="length"):
        interleave_runs(rankers, 5, method="optimized", length=17)
    with pytest.raises(ParameterError, match="tau"):
        interleave_runs(rankers, 5, method="probabilistic", tau=0)
    with pytest.raises(InputError, match="topic 'x'"):
        interleave_runs(rankers, ["q", "x"])
    with pytest.raises(InputError, match="twice"):
        interleave_runs({"A": {"q": ["a", "a"]}, "B": {"q": ["b"]}}, 1)
    three = dict(rankers, C={"q": ["b"]})
    with pytest.raises(ParameterError, match="team-draft"):
        interleave_runs(three, 1, method="balanced")
    batch = interleave_runs(rankers, 2, length=3, rng=1)
    with pytest.raises(InputError, match="shape"):
        batch.score(np.zeros((2, 4)))
    with pytest.raises(InputError, match="0/1"):
        batch.score(np.full((2, 3), 2))
    short = interleave_runs({"A": {"q": ["a"]}, "B": {"q": ["b"]}}, 1, length=3, rng=1)
    with pytest.raises(InputError, match="past the end"):
        short.score([[0, 0, 1]])


def test_team_draft_of_a_million_impressions_is_vectorised():
    """A smoke test of the batch size the benchmark times (benchmarks/ times it)."""
    rankers = {s: {f"q{t}": [f"d{i}" for i in range(10 if s == "A" else 12)]
                   for t in range(100)} for s in "AB"}
    batch = interleave_runs(rankers, 10_000, rng=1)
    assert batch.pairs.shape == (1_000_000, 10)
    assert ((batch.team == 0).sum(axis=1) == 5).all()


def test_lists_are_never_longer_than_the_documents_of_a_topic():
    """A list shows each document once: lists asked longer than the rankings' documents
    together end there (the arrays are that wide, not ``length`` wide), the outcome is the
    same as with the exact length, and clicks may come at either width (none past the
    end)."""
    rankers = {"A": {"q": ["a", "b"], "r": ["x"]}, "B": {"q": ["b", "c"], "r": ["y"]}}
    exact = interleave_runs(rankers, 4, length=3, rng=7)
    long = interleave_runs(rankers, 4, length=10**9, rng=7)
    assert long.pairs.shape == (8, 3) and long.length == 3  # q holds a, b, c
    assert long.documents().tolist() == exact.documents().tolist()
    clicks = np.zeros((8, 3), dtype=bool)
    clicks[:, 0] = True
    wide = np.zeros((8, 10**3), dtype=bool)
    wide[:, 0] = True
    asked = interleave_runs(rankers, 4, length=10**3, rng=7)
    assert asked.score(wide, rng=3).to_frame().equals(exact.score(clicks, rng=3).to_frame())
    wide[0, 5] = True
    with pytest.raises(InputError, match="past the end"):
        asked.score(wide)
    with pytest.raises(InputError, match="8 impressions × 1000 positions"):
        asked.score(np.zeros((8, 5)))


def test_marginal_credit_t_test_needs_a_spread_of_expected_outcomes():
    """Marginal credit's t-test of mean E[o]: one impression, or the same E[o] on every
    impression, has no variance (it read p = 0, 'significant'): no p-value nor interval;
    every E[o] = 0 is p = 1; otherwise scipy's one-sample t-test and t interval."""
    def result(win, loss):
        return InterleavingResult.of(np.array(win)[:, None], np.array(loss)[:, None],
                                     [("A", "B")], method="probabilistic").frame.iloc[0]

    one = result([0.9643], [0.0357])
    assert np.isnan(one.p) and not one.significant and np.isnan(one.ci_low)
    same = result([0.7] * 5, [0.2] * 5)
    assert np.isnan(same.p) and not same.significant and np.isnan(same.ci_high)
    even = result([0.3, 0.4, 0.25], [0.3, 0.4, 0.25])
    assert even.p == 1.0 and (even.ci_low, even.ci_high) == (0.0, 0.0)
    win, loss = np.array([0.9, 0.2, 0.6, 0.7]), np.array([0.05, 0.5, 0.3, 0.1])
    row = result(win, loss)
    o = win - loss
    assert row.p == pytest.approx(stats.ttest_1samp(o, 0.0).pvalue, rel=1e-12)
    low, high = stats.t.interval(0.95, len(o) - 1, loc=o.mean() / 2,
                                 scale=stats.sem(o) / 2)
    assert (row.ci_low, row.ci_high) == pytest.approx((low, high), rel=1e-12)


def test_the_bootstrap_beyond_the_memory_limit_is_refused_from_its_declared_cost(monkeypatch):
    """The bootstrap samples of Δ kept beyond the memory limit: refused before they are
    drawn, the change asked for read from the declared cost of ``--bootstrap``."""
    from irscale.core import budget
    from irscale.errors import ParameterError
    from irscale.online.interleaving import check_bootstrap

    monkeypatch.setattr(budget, "default_max_memory", lambda: 1 << 20)
    with pytest.raises(ParameterError, match=r"100,000 bootstrap samples of delta for 3 "
                       r"pair\(s\) of rankers, about 13\.7 MiB: .*\(fewer --bootstrap\)"):
        check_bootstrap(100_000, 3)

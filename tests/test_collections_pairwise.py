"""Bradley–Terry and noisy Bradley–Terry aggregation of pairwise judgments.

Oracles: crowd-kit 1.4.2 (``BradleyTerry``: the same MM iterations, compared value by value
for the iterations it runs; ``NoisyBradleyTerry``: the same model with a mismatched
gradient, compared by the order of well-separated documents), an independent
maximum-likelihood fit (scipy on the log-likelihood written here, one comparison at a
time), Zermelo's likelihood equations, and planted crowds whose true order and spammers
are known.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import approx_fprime, brentq, minimize
from scipy.stats import kendalltau

from irscale.collections.pairwise import _noisy_bt_objective, aggregate_pairwise
from irscale.errors import InputError
from irscale.io.pairwise import read_pairwise

from .oracle_imports import lazy_importorskip
from .property_examples import examples

ck = lazy_importorskip("crowdkit.aggregation")
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:crowdkit"),
              pytest.mark.filterwarnings("ignore::FutureWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning:crowdkit")]

SETTINGS = settings(max_examples=examples(25), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def planted(seed: int, n_docs: int = 10, spread: float = 3.0, per_worker: int = 80,
            good: int = 5, biased: int = 2, topic: str = "1") -> pd.DataFrame:
    """Comparisons of ``n_docs`` documents with worths ``exp(s)``, ``s`` evenly spread
    over [-spread, spread] (d00 lowest): ``good`` workers answer by the Bradley–Terry model,
    ``biased`` ones pick the left document with probability 0.9 whatever the pair."""
    rng = np.random.default_rng(seed)
    s = np.linspace(-spread, spread, n_docs)
    rows = []
    for w in range(good + biased):
        for _ in range(per_worker):
            i, j = rng.choice(n_docs, 2, replace=False)
            p_left = 1 / (1 + math.exp(s[j] - s[i])) if w < good else 0.9
            rows.append((topic, f"w{w}", f"d{i:02d}", f"d{j:02d}",
                         f"d{i:02d}" if rng.random() < p_left else f"d{j:02d}"))
    return pd.DataFrame(rows, columns=["topic", "worker", "left", "right", "label"])


@st.composite
def comparisons(draw):
    """A strongly connected one-topic table: a cycle of wins through every document (so
    the Bradley–Terry worths exist), then random comparisons."""
    n = draw(st.integers(2, 8))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    rows = [(f"w{rng.integers(3)}", order[k], order[(k + 1) % n]) for k in range(n)]
    for _ in range(draw(st.integers(0, 30))):
        a, b = rng.choice(n, 2, replace=False)
        rows.append((f"w{rng.integers(3)}", a, b))
    table = []
    for worker, winner, loser in rows:
        left, right = (winner, loser) if rng.random() < 0.5 else (loser, winner)
        table.append(("1", worker, f"d{left}", f"d{right}", f"d{winner}"))
    return pd.DataFrame(table, columns=["topic", "worker", "left", "right", "label"])


def scores(result) -> pd.Series:
    return result.scores.set_index("docno")["score"]


# ------------------------------------------------------------------------- Bradley–Terry
@SETTINGS
@given(comparisons(), st.integers(1, 2))
def test_bt_same_iterations_as_crowdkit(table, n_iter):
    """The first and second MM iterations equal crowd-kit's to rounding."""
    theirs = ck.BradleyTerry(n_iter=n_iter).fit_predict(table)
    mine = scores(aggregate_pairwise(table, "bt", n_iter=n_iter, tol=0.0))
    np.testing.assert_allclose(mine[theirs.index].to_numpy(), theirs.to_numpy(), atol=1e-12)


def test_crowdkit_bt_stops_after_two_iterations():
    """crowd-kit's stopping test compares the worths with an alias of themselves: any
    n_iter ≥ 2 gives its second iteration (what docs/collections.md says of it)."""
    table = planted(3)
    two = scores(aggregate_pairwise(table, "bt", n_iter=2, tol=0.0))
    theirs = ck.BradleyTerry(n_iter=500).fit_predict(table)
    np.testing.assert_allclose(two[theirs.index].to_numpy(), theirs.to_numpy(), atol=1e-12)
    assert not np.allclose(scores(aggregate_pairwise(table, "bt"))[theirs.index], theirs)


def bt_mle(table: pd.DataFrame) -> pd.Series:
    """The Bradley–Terry maximum-likelihood worths by scipy: log-likelihood
    Σ_c θ_winner − log(e^θ_winner + e^θ_loser), one comparison at a time, θ_0 fixed at 0;
    worths e^θ normalised to sum 1."""
    docs = sorted(set(table["left"]) | set(table["right"]))
    index = {d: k for k, d in enumerate(docs)}
    games = [(index[lab], index[r if lab == le else le])
             for le, r, lab in zip(table["left"], table["right"], table["label"], strict=True)]

    def negative(free):
        theta = np.concatenate([[0.0], free])
        return -sum(theta[w] - np.logaddexp(theta[w], theta[lo]) for w, lo in games)

    fit = minimize(negative, np.zeros(len(docs) - 1), method="BFGS",
                   options={"gtol": 1e-10, "maxiter": 10_000})
    worth = np.exp(np.concatenate([[0.0], fit.x]))
    return pd.Series(worth / worth.sum(), index=docs)


@SETTINGS
@given(comparisons())
def test_bt_is_the_maximum_likelihood(table):
    mine = aggregate_pairwise(table, "bt")
    assert mine.converged
    oracle = bt_mle(table)
    np.testing.assert_allclose(scores(mine)[oracle.index].to_numpy(), oracle.to_numpy(),
                               rtol=1e-5, atol=1e-7)


@SETTINGS
@given(comparisons())
def test_bt_solves_zermelos_equations(table):
    """W_i = Σ_j n_ij p_i / (p_i + p_j) at the worths returned."""
    p = scores(aggregate_pairwise(table, "bt"))
    expected = {d: 0.0 for d in p.index}
    for left, right in zip(table["left"], table["right"], strict=True):
        expected[left] += p[left] / (p[left] + p[right])
        expected[right] += p[right] / (p[left] + p[right])
    wins = table["label"].value_counts().reindex(p.index, fill_value=0)
    np.testing.assert_allclose([expected[d] for d in p.index], wins.to_numpy(), atol=1e-6)


def test_bt_topics_are_fitted_apart():
    """Two topics together: each one's scores are those of its topic alone (sum 1 each)."""
    one, two = planted(1, topic="1"), planted(2, n_docs=6, topic="2")
    both = aggregate_pairwise(pd.concat([one, two]), "bt").scores
    for table, topic in ((one, "1"), (two, "2")):
        alone = scores(aggregate_pairwise(table, "bt"))
        part = both[both["topic"] == topic].set_index("docno")["score"]
        np.testing.assert_allclose(part[alone.index].to_numpy(), alone.to_numpy(),
                                   atol=1e-12)
        assert part.sum() == pytest.approx(1.0)
    assert list(both["topic"].drop_duplicates()) == ["1", "2"]


def test_bt_recovers_the_planted_order():
    truth = [f"d{i:02d}" for i in range(10)]
    table = planted(5, biased=0, per_worker=200)
    ranked = aggregate_pairwise(table, "bt").scores["docno"].tolist()
    assert kendalltau([ranked.index(d) for d in truth], range(10, 0, -1)).statistic > 0.9


def test_bt_refuses_a_graph_not_strongly_connected():
    """a beats b, b beats c, nothing beats a: the worths of b and c would be 0."""
    with pytest.raises(InputError, match=r"topic 1: documents .* not linked both ways"):
        aggregate_pairwise(b"1 w1 a b a\n1 w1 b c b\n", "bt")
    # noisybt is regularised: scores exist
    assert len(aggregate_pairwise(b"1 w1 a b a\n1 w1 b c b\n", "noisybt").scores) == 3


# ------------------------------------------------------------------- noisy Bradley–Terry
def noisy_bt_loglik(x: np.ndarray, table: pd.DataFrame, docs: list[str],
                    workers: list[str], weight: float) -> float:
    """Bugakova et al.'s penalised log-likelihood, one comparison at a time: P(left) =
    σ(γ_w) σ(s_l − s_r) + (1 − σ(γ_w)) σ(q_w); x = (s_0, s, q, γ)."""
    n, m = len(docs), len(workers)
    s0, s, q, g = x[0], x[1:n + 1], x[n + 1:n + 1 + m], x[n + 1 + m:]

    def sig(v):
        return 1 / (1 + math.exp(-v))

    total = 0.0
    for w, le, r, lab in zip(table["worker"], table["left"], table["right"], table["label"],
                             strict=True):
        i, j, k = docs.index(le), docs.index(r), workers.index(w)
        p_left = sig(g[k]) * sig(s[i] - s[j]) + (1 - sig(g[k])) * sig(q[k])
        total += math.log(p_left if lab == le else 1 - p_left)
    total += weight * sum(math.log(sig(s0 - v)) + math.log(sig(v - s0)) for v in s)
    return total


def test_noisy_bt_objective_and_gradient():
    """irscale's objective is minus the log-likelihood written here, and its gradient that
    of this function by finite differences."""
    table = planted(7, n_docs=5, per_worker=12, good=2, biased=1)
    data = read_pairwise(table)
    docs, workers = data.items["docno"].tolist(), data.workers.tolist()
    rng = np.random.default_rng(0)
    for weight in (1e-5, 0.5):
        x = rng.normal(0, 1.5, 1 + len(docs) + 2 * len(workers))
        value, grad = _noisy_bt_objective(x, data, weight)
        assert value == pytest.approx(-noisy_bt_loglik(x, table, docs, workers, weight),
                                      rel=1e-12)
        numeric = approx_fprime(x, lambda v, w=weight: -noisy_bt_loglik(v, table, docs,
                                                                         workers, w), 1e-7)
        np.testing.assert_allclose(grad, numeric, atol=1e-5)


def test_crowdkit_noisy_bt_gradient_does_not_match_its_objective():
    """What docs/collections.md says of crowd-kit's NoisyBradleyTerry: without the anchor,
    its gradient is right for the first documents' scores and wrong for the last one's
    and the workers'; with it, the anchor's component has the wrong sign."""
    model = ck.NoisyBradleyTerry
    data = np.array([[1, 2, 1], [2, 3, 3], [3, 1, 1], [1, 3, 3]])   # coded as crowd-kit does
    workers, n, m = np.array([0, 1, 0, 1]), 3, 2
    x = np.random.default_rng(0).normal(0, 1, 1 + n + 2 * m)
    for weight in (0.0, 0.5):
        theirs = model._compute_gradient(x, data, workers, n, m, weight)
        numeric = approx_fprime(x, lambda v, r=weight: model._compute_log_likelihood(
            v, data, workers, n, m, r), 1e-7)
        if weight == 0.0:
            np.testing.assert_allclose(theirs[1:3], numeric[1:3], atol=1e-5)
            assert not np.allclose(theirs[3:], numeric[3:], atol=1e-3)
        else:
            assert theirs[0] == pytest.approx(-numeric[0], rel=1e-4)


def test_noisy_bt_is_a_maximum():
    """At the fit (parameters read back from the scores, skills and biases; the anchor
    solving its own equation), the log-likelihood written here has a zero gradient, and no
    small step raises it."""
    weight = 0.05
    table = planted(11, n_docs=6, per_worker=60, good=3, biased=1)
    result = aggregate_pairwise(table, "noisybt", regularization=weight)
    assert result.converged
    data = read_pairwise(table)
    docs, workers = data.items["docno"].tolist(), data.workers.tolist()
    s = np.log(1 / scores(result)[docs].to_numpy() - 1) * -1
    w = result.workers.set_index("worker").loc[workers]
    logit = lambda p: np.log(p / (1 - p))  # noqa: E731
    s0 = brentq(lambda v: np.tanh((s - v) / 2).sum(), s.min() - 1, s.max() + 1)
    x = np.concatenate([[s0], s, logit(w["bias"].to_numpy()), logit(w["skill"].to_numpy())])

    def f(v):
        return -noisy_bt_loglik(v, table, docs, workers, weight)

    assert np.abs(approx_fprime(x, f, 1e-7)).max() < 1e-3
    rng = np.random.default_rng(1)
    for _ in range(10):
        assert f(x + rng.normal(0, 1e-2, len(x))) >= f(x) - 1e-9


def test_noisy_bt_finds_the_order_and_the_spammers():
    """Planted crowd: the true order, and the two workers who always lean left get a low
    skill and a bias near 0.9; crowd-kit finds the same order of these well-separated
    documents (its values differ: see the module doc)."""
    truth = [f"d{i:02d}" for i in range(10)]
    table = planted(2, spread=4.5, per_worker=150)
    result = aggregate_pairwise(table, "noisybt")
    mine = scores(result)[truth]
    assert mine.sort_values().index.tolist() == truth
    workers = result.workers.set_index("worker")
    assert (workers.loc[["w5", "w6"], "skill"] < 0.2).all()
    assert (workers.loc[["w0", "w1", "w2", "w3", "w4"], "skill"] > 0.8).all()
    assert workers.loc[["w5", "w6"], "bias"].to_numpy() == pytest.approx([0.9, 0.9], abs=0.06)
    theirs = ck.NoisyBradleyTerry().fit_predict(table.drop(columns="topic"))[truth]
    assert theirs.sort_values().index.tolist() == truth


def test_noisy_bt_topics_share_workers():
    """Topics are fitted together (one anchor, workers shared), as crowd-kit's grouped
    fit: the same as one topic whose documents are the (topic, docno) pairs."""
    one, two = planted(1, n_docs=5, topic="1"), planted(2, n_docs=4, topic="2")
    both = aggregate_pairwise(pd.concat([one, two]), "noisybt")
    merged = pd.concat([one, two])
    for side in ("left", "right", "label"):
        merged[side] = merged["topic"] + ":" + merged[side]
    flat = scores(aggregate_pairwise(merged.assign(topic="x"), "noisybt"))
    keyed = both.scores.assign(key=both.scores["topic"] + ":" + both.scores["docno"])
    np.testing.assert_allclose(keyed.set_index("key")["score"][flat.index].to_numpy(),
                               flat.to_numpy(), atol=1e-9)


def test_frame_and_file_agree():
    table = planted(4, n_docs=4, per_worker=10)
    text = "".join(" ".join(row) + "\n" for row in table.itertuples(index=False)).encode()
    for method in ("bt", "noisybt"):
        a, b = aggregate_pairwise(table, method), aggregate_pairwise(text, method)
        pd.testing.assert_frame_equal(a.scores, b.scores)
        pd.testing.assert_frame_equal(a.workers, b.workers)


@pytest.mark.parametrize("line, needle", [
    ("1 w1 a a a", "compared with itself"),
    ("1 w1 a b c", "neither left nor right"),
])
def test_bad_comparisons_name_the_line(line, needle):
    with pytest.raises(InputError, match=needle) as info:
        read_pairwise(f"1 w1 a b a\n{line}\n".encode())
    assert info.value.line == 2 and info.value.text == line


def test_frame_with_a_missing_value_is_refused():
    table = planted(4, n_docs=4, per_worker=3)
    table.loc[2, "label"] = None
    with pytest.raises(InputError, match="missing") as info:
        read_pairwise(table)
    assert info.value.line == 3

"""Pooling strategies against hand-checked cases and a plain per-topic
reference written here (one loop per topic and step, dictionaries, no numpy tricks)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.collections import ADAPTIVE, STRATEGIES, pool, ranked_candidates
from irscale.errors import InputError, ParameterError

from .property_examples import examples


def frame(rows: list[tuple[str, str, float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


def random_runs(seed: int, n_runs: int = 4, n_topics: int = 3, n_docs: int = 12,
                length: int = 8) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    runs = {}
    for r in range(n_runs):
        rows = []
        for t in range(n_topics):
            docs = rng.choice(n_docs, size=rng.integers(1, length + 1), replace=False)
            # scores with ties: trec_eval breaks them by docno descending
            scores = rng.integers(0, 4, size=len(docs)).astype(float)
            rows += [(f"t{t}", f"d{d}", s) for d, s in zip(docs, scores, strict=True)]
        runs[f"r{r}"] = frame(rows)
    return runs


def random_qrels(seed: int, n_topics: int = 3, n_docs: int = 12) -> pd.DataFrame:
    rng = np.random.default_rng(seed + 1000)
    rows = [(f"t{t}", f"d{d}", int(rng.integers(0, 3))) for t in range(n_topics)
            for d in range(n_docs) if rng.random() < 0.8]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])


# ------------------------------------------------------------------ the plain reference
def ranked(runs: dict[str, pd.DataFrame], depth: int | None = None
           ) -> dict[str, list[list[str]]]:
    """topic → every run's ranking (trec_eval: score desc, docno desc by bytes)."""
    topics = sorted({t for f in runs.values() for t in f["query_id"]})
    out: dict[str, list[list[str]]] = {t: [] for t in topics}
    for f in runs.values():
        for t in topics:
            rows = [(s, d) for q, d, s in zip(f["query_id"], f["doc_id"], f["score"],
                                              strict=True) if q == t]
            rows.sort(key=lambda x: (x[0], x[1].encode()), reverse=True)
            docs = [d for _, d in rows]
            out[t].append(docs if depth is None else docs[:depth])
    return out


def round_robin(rankings: list[list[str]]) -> list[str]:
    seen: list[str] = []
    for k in range(max((len(r) for r in rankings), default=0)):
        for r in rankings:
            if k < len(r) and r[k] not in seen:
                seen.append(r[k])
    return seen


def weighted(rankings: list[list[str]], weight) -> list[str]:
    total: dict[str, float] = {}
    for r in rankings:
        for k, d in enumerate(r, 1):
            total[d] = total.get(d, 0.0) + weight(k)
    rr = round_robin(rankings)
    return sorted(rr, key=lambda d: (-round(total[d], 12), rr.index(d)))


def bandit(rankings: list[list[str]], rel: dict[str, int], strategy: str, budget: int,
           tie: np.ndarray, discount: float) -> list[str]:
    """MTF, MM and MM-NS one judgment at a time; ties by ``tie`` (larger wins)."""
    pointer = [0] * len(rankings)
    judged: list[str] = []
    good = [0.0] * len(rankings)
    bad = [0.0] * len(rankings)
    priority = [0] * len(rankings)
    current, switch = None, True
    forget = discount if strategy == "mm-ns" else 1.0

    def head(r: int) -> str | None:
        while pointer[r] < len(rankings[r]) and rankings[r][pointer[r]] in judged:
            pointer[r] += 1
        return rankings[r][pointer[r]] if pointer[r] < len(rankings[r]) else None

    while len(judged) < budget:
        alive = [r for r in range(len(rankings)) if head(r) is not None]
        if not alive:
            break
        if strategy == "mtf":
            if switch or current not in alive:
                others = [r for r in alive if r != current] or alive
                top = max(priority[r] for r in others)
                current = max((r for r in others if priority[r] == top), key=lambda r: tie[r])
            run = current
        else:
            mean = {r: (1 + good[r]) / (2 + good[r] + bad[r]) for r in alive}
            top = max(mean.values())
            run = max((r for r in alive if mean[r] == top), key=lambda r: tie[r])
        doc = head(run)
        judged.append(doc)
        hit = rel.get(doc, 0) >= 1
        good[run] = forget * good[run] + hit
        bad[run] = forget * bad[run] + (not hit)
        if strategy == "mtf":
            switch = not hit
            if not hit:
                priority[run] -= 1
    return judged


def tie_orders(seed: int, n_topics: int, n_runs: int) -> np.ndarray:
    """The documented tie order: rng.permuted of 0..R-1, one row per topic."""
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(n_runs, dtype=float), (n_topics, 1)), axis=1)


def by_topic(result) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for t, d in zip(result.frame["query_id"], result.frame["doc_id"], strict=True):
        out.setdefault(t, []).append(d)
    return out


# ------------------------------------------------------------------ hand-checked cases
A = frame([("1", "d1", 3), ("1", "d2", 2), ("1", "d3", 1)])
B = frame([("1", "d2", 3), ("1", "d4", 2), ("1", "d1", 1)])


def test_depth_k_by_hand():
    assert pool({"a": A, "b": B}, "depth", depth=1).lines() == ["1 d1", "1 d2"]
    assert pool({"a": A, "b": B}, "depth", depth=2).lines() == ["1 d1", "1 d2", "1 d4"]


def test_rbp_by_hand():
    # p = 0.5: d1 = .5 + .125, d2 = .25 + .5, d4 = .25, d3 = .125 (d3 after d4)
    result = pool({"a": A, "b": B}, "rbp", budget=4, p=0.5)
    assert result.lines() == ["1 d2", "1 d1", "1 d4", "1 d3"]


def test_rrf_by_hand():
    # k = 0: d1 = 1 + 1/3, d2 = 1/2 + 1, d4 = 1/2, d3 = 1/3
    result = pool({"a": A, "b": B}, "rrf", budget=2, k=0)
    assert result.lines() == ["1 d2", "1 d1"]


def test_ties_are_ranked_as_trec_eval():
    # equal scores: docno descending, so d9 before d10 is wrong: "d9" > "d10" by bytes
    run = frame([("1", "d10", 1), ("1", "d9", 1), ("1", "d2", 0)])
    assert pool({"a": run}, "depth", depth=1).lines() == ["1 d9"]


def test_mtf_by_hand():
    # a: d1 (rel) d2 d3; b: d4 d5 (rel). Tie order decides who starts; whoever starts,
    # a relevant document keeps the run current, a non-relevant one switches runs
    a = frame([("1", "d1", 3), ("1", "d2", 2), ("1", "d3", 1)])
    b = frame([("1", "d4", 3), ("1", "d5", 2)])
    q = pd.DataFrame({"query_id": "1", "doc_id": ["d1", "d5"], "relevance": [1, 1]})
    for seed in range(6):
        order = pool({"a": a, "b": b}, "mtf", budget=5, qrels=q, rng=seed,
                     unjudged="nonrelevant").frame["doc_id"]
        assert list(order) in (["d1", "d2", "d4", "d3", "d5"], ["d4", "d1", "d2", "d5", "d3"])


# ------------------------------------------------------------------ against the reference
@pytest.mark.parametrize("seed", range(8))
def test_fixed_strategies_match_the_reference(seed):
    runs = random_runs(seed)
    reference = ranked(runs)
    for depth in (1, 3, 8):
        got = by_topic(pool(runs, "depth", depth=depth))
        for t, rankings in ranked(runs, depth).items():
            assert got[t] == round_robin(rankings)
            assert set(got[t]) == {d for r in rankings for d in r}  # the union of top k
    for n in (1, 4, 20):
        got = by_topic(pool(runs, "take", budget=n))
        for t, rankings in reference.items():
            expected = round_robin(rankings)
            assert got[t] == expected[:n]
            assert len(got[t]) == min(n, len(expected))
    got = by_topic(pool(runs, "rbp", budget=5, p=0.7))
    for t, rankings in reference.items():
        assert got[t] == weighted(rankings, lambda k: 0.3 * 0.7 ** (k - 1))[:5]
    got = by_topic(pool(runs, "rrf", budget=6, k=60))
    for t, rankings in reference.items():
        assert got[t] == weighted(rankings, lambda k: 1 / (60 + k))[:6]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("strategy", ["mtf", "mm", "mm-ns"])
def test_bandits_match_the_reference(seed, strategy):
    runs = random_runs(seed)
    qrels = random_qrels(seed)
    rel = {(t, d): r for t, d, r in qrels.itertuples(index=False)}
    reference = ranked(runs)
    ties = tie_orders(seed, len(reference), len(runs))
    discount = {"discount": 0.5} if strategy.endswith("-ns") else {}  # the others take none
    got = by_topic(pool(runs, strategy, budget=7, qrels=qrels, rng=seed, **discount,
                        unjudged="nonrelevant"))
    for i, (t, rankings) in enumerate(reference.items()):
        expected = bandit(rankings, {d: r for (q, d), r in rel.items() if q == t}, strategy,
                          7, ties[i], 0.5)
        assert got[t] == expected, (t, strategy)


# ------------------------------------------------------------------ properties
@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10_000), strategy=st.sampled_from(ADAPTIVE),
       depth=st.one_of(st.none(), st.integers(1, 8)))
def test_a_bandit_with_the_whole_pool_as_budget_finds_every_relevant_document(
        seed, strategy, depth):
    runs = random_runs(seed)
    qrels = random_qrels(seed)
    cand = ranked_candidates(runs, depth=depth)
    budget = int(cand.pool_sizes.max())
    result = pool(runs, strategy, depth=depth, budget=budget, qrels=qrels, rng=seed,
                  unjudged="nonrelevant")
    pooled = {(t, d) for t, rankings in ranked(runs, depth).items()
              for r in rankings for d in r}
    relevant = {(t, d) for t, d, r in qrels.itertuples(index=False) if r >= 1}
    found = {(t, d) for t, d, r in zip(result.frame["query_id"], result.frame["doc_id"],
                                       result.frame["relevant"], strict=True) if r == 1}
    assert found == relevant & pooled
    judged = set(zip(result.frame["query_id"], result.frame["doc_id"], strict=True))
    assert judged == pooled  # the whole pool, every document once
    assert len(judged) == len(result.frame)


@pytest.mark.parametrize("strategy", ADAPTIVE)
def test_same_seed_same_order(strategy):
    runs = random_runs(3, n_runs=6)
    qrels = random_qrels(3)
    first = pool(runs, strategy, budget=9, qrels=qrels, rng=42).frame
    again = pool(runs, strategy, budget=9, qrels=qrels, rng=np.random.default_rng(42)).frame
    pd.testing.assert_frame_equal(first, again)


def test_live_use_stops_at_the_first_unknown_judgment():
    q = pd.DataFrame({"query_id": "1", "doc_id": ["d1"], "relevance": [1]})
    result = pool({"a": A, "b": B}, "mm", qrels=q, rng=0)
    frame_ = result.frame
    unknown = frame_[frame_["next"]]
    assert len(unknown) == 1 and unknown["relevant"].iloc[0] == -1
    assert frame_["next"].iloc[-1]
    without = pool({"a": A, "b": B}, "mm", rng=0).frame
    assert len(without) == 1 and without["next"].all()


# ------------------------------------------------------------------ errors
def test_bad_parameters():
    runs = {"a": A, "b": B}
    with pytest.raises(ParameterError, match="unknown pooling strategy"):
        pool(runs, "nope", depth=1)
    with pytest.raises(ParameterError, match="strategy='depth' needs depth="):
        pool(runs, "depth")
    with pytest.raises(ParameterError, match="budget"):
        pool(runs, "take")
    with pytest.raises(ParameterError, match="budget"):
        pool(runs, "take", budget=0)
    with pytest.raises(ParameterError, match="p must"):
        pool(runs, "rbp", budget=2, p=1.0)
    with pytest.raises(ParameterError, match="k must"):
        pool(runs, "rrf", budget=2, k=-1)
    with pytest.raises(ParameterError, match="discount"):
        pool(runs, "mm-ns", budget=2, discount=0)
    with pytest.raises(ParameterError, match="rng"):
        pool(runs, "ts", budget=2, rng="x")
    with pytest.raises(InputError, match="empty"):
        pool(runs, "depth", depth=1, topics=["99"])


@pytest.mark.parametrize(("options", "message"), [
    # the command line refuses the same calls (tests/faults/test_collections_faults.py)
    ({"depth": 2, "relevance_level": 5}, "relevance_level= applies only with qrels="),
    ({"depth": 2, "p": 0.5}, "p= applies to strategy 'rbp', not to strategy 'depth'"),
    ({"depth": 2, "k": 10}, "k= applies to strategy 'rrf'"),
    ({"strategy": "mtf", "discount": 0.5}, "discount= applies to strategy 'mm-ns' and "
     "'ts-ns', not to strategy 'mtf'"),
    ({"depth": 2, "rng": 1}, "rng= applies to strategy 'mtf', 'mm', 'mm-ns', 'ts' and "
     "'ts-ns', not to strategy 'depth'"),
    ({"strategy": "rrf"}, "strategy='rrf' needs budget="),
    ({"depth": 2, "relevance_level": 0}, r"relevance level \(-l, relevance_level\) must be an "
     "integer from 1"),
    ({"depth": 2, "dpeth": 2}, r"unknown keyword argument\(s\) dpeth \(did you mean depth\?\)"),
])
def test_parameters_refused_by_the_binding(options, message):
    """pool()'s declarations (collections.params.POOL) refuse what ``pool build`` refuses."""
    with pytest.raises(ParameterError, match=message):
        pool({"a": A, "b": B}, **options)


def test_arity_is_a_parameter_error():
    with pytest.raises(ParameterError, match=r"pool takes at most 2 positional arguments "
                       r"\(runs and strategy\), got 3"):
        pool({"a": A}, "depth", 2)


def test_strategies_listed():
    assert set(STRATEGIES) == {"depth", "take", "rbp", "rrf", "mtf", "mm", "mm-ns", "ts",
                               "ts-ns"}

"""Pooling strategies: which documents of a set of runs are judged, and in which order.

Every strategy works on the runs' rankings (:func:`~irscale.collections.candidates.
ranked_candidates`: trec_eval's order, cut at ``depth``) and returns, per topic, the
documents to judge in judging order. Rank ``k`` below is 1-based; ``R`` runs are taken in
the order given.

Fixed strategies (the order does not depend on judgments; vectorised over all topics):

* ``depth`` — depth-k pooling (Spärck Jones & van Rijsbergen 1975; TREC): the union of
  every run's top ``depth`` documents. Listed in round-robin order (below), so that a
  ``budget`` judges the shallowest documents first.
* ``take`` — take@N: the first ``budget`` distinct documents met in round robin over the
  runs: rank 1 of run 1, rank 1 of run 2, …, rank 1 of run R, rank 2 of run 1, …
  (Lipani, Losada, Zuccon & Lupu 2021 call this *take@N*; it is depth-k pooling cut at a
  number of documents rather than a depth).
* ``rbp`` — RBP-weighted pooling (Moffat, Webber & Zobel 2007): a document's weight is the
  RBP weight it carries summed over the runs, w(d) = Σ_r (1 − p) p^{k_r(d) − 1}; documents
  in decreasing weight (``p``, default 0.8).
* ``rrf`` — reciprocal-rank-fusion pooling (Cormack, Clarke & Büttcher 2009):
  s(d) = Σ_r 1 / (``k`` + k_r(d)) (default ``k`` = 60), decreasing.

Weights within a relative 10⁻¹² of each other tie; ties, and documents of equal round-robin
standing, keep round-robin order.

Adaptive strategies (the next document depends on the judgments so far; sequential per
topic by nature, vectorised over topics at every step). A run is an *arm*: pulling run r
judges its highest-ranked document not judged yet; the reward is 1 when it is relevant
(an oracle — the qrels — says so). Runs whose documents are all judged drop out. Only the
pulled run learns from a judgment (documents it shares with other runs are skipped by them
later, without reward):

* ``mtf`` — move-to-front (Cormack, Palmer & Clarke 1998): every run starts with the same
  priority; the current run is pulled as long as its documents are relevant; after a
  non-relevant one its priority drops by 1 and the run of highest priority among the others
  becomes current.
* ``mm`` — maximum mean (Losada, Parapar & Barreiro 2016, 2017): run r holds a Beta(1 +
  rel_r, 1 + nrel_r) posterior of its chance to give a relevant document (rel_r, nrel_r:
  relevant and non-relevant documents judged from it); the run with the largest posterior
  mean (1 + rel_r) / (2 + rel_r + nrel_r) is pulled.
* ``mm-ns`` — maximum mean, non-stationary (Losada et al. 2017): as ``mm`` with counts that
  forget: on every pull of r, rel_r ← γ·rel_r + reward and nrel_r ← γ·nrel_r + 1 − reward
  (``discount`` γ, default 0.9), since a run's chance of relevance falls as it goes deeper.
* ``ts`` — Thompson sampling (the Bayesian learning automaton of Losada et al. 2016,
  Granmo 2010): a value θ_r ~ Beta(1 + rel_r, 1 + nrel_r) is drawn for every run and the
  largest is pulled; ``ts-ns`` draws from the forgetting counts of ``mm-ns``.

Ties between runs (equal priorities, equal means) are broken by a random order of the runs
drawn once per topic from ``rng`` (so the first run pulled is a random one); with a seed,
the judging order is reproducible. Losada et al. give these methods' definitions; the
discount γ = 0.9 is irscale's default, not a value from the papers.

``budget`` is a number of judgments *per topic*; with an oracle, the adaptive strategies
judge until the budget is spent or the topic's candidates are exhausted. Without an oracle
(live use), they emit the judging order up to the first document whose judgment is not
known yet (that document is the next one to judge, flagged ``next``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

import numpy as np
import pandas as pd

from ..core.inputs import Qrels
from ..core.options import TiePolicy
from ..core.params import DEFAULT_RELEVANCE_LEVEL, DEFAULT_RRF_K
from ..errors import InputError, ParameterError
from ..io.sources import as_qrels
from ..stats.protocol import TableResult
from ..stats.resampling import check_rng
from .candidates import Candidates, ranked_candidates, warn_missing_topics
from .params import (
    ADAPTIVE_STRATEGIES,
    DEFAULT_DISCOUNT,
    DEFAULT_RBP_P,
    FIXED_STRATEGIES,
    JUDGING_ORDER,
    POOL,
)

__all__ = ["ADAPTIVE", "FIXED", "STRATEGIES", "Pool", "judging_order", "pool"]

Strategy = Literal["depth", "take", "rbp", "rrf", "mtf", "mm", "mm-ns", "ts", "ts-ns"]
#: Strategies whose order does not depend on judgments, and those that adapt to them
#: (:data:`irscale.collections.params.STRATEGY`).
FIXED = cast(tuple[Strategy, ...], FIXED_STRATEGIES)
ADAPTIVE = cast(tuple[Strategy, ...], ADAPTIVE_STRATEGIES)
STRATEGIES: tuple[Strategy, ...] = FIXED + ADAPTIVE
#: Pooling weights (rbp, rrf) within a relative 10^-WEIGHT_DIGITS tie.
WEIGHT_DIGITS = 12


@dataclass(frozen=True, eq=False)
class Pool(TableResult):
    """A pool: ``frame`` has one row per judged (topic, document), in judging order, with
    columns ``query_id, doc_id, order`` (1-based judging order within the topic) and, when
    an oracle was given, ``relevant`` (1, 0; -1: not known) — for adaptive strategies in
    live use, the last row of a topic whose judgment is not known is the next document to
    judge (``next`` True).
    """

    frame: pd.DataFrame
    strategy: str
    budget: int | None
    depth: int | None
    adaptive: bool
    parameters: dict[str, float] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        return self.frame.copy()

    def relevant_found(self) -> pd.Series:
        """Relevant documents judged per topic (needs an oracle)."""
        if "relevant" not in self.frame:
            raise ParameterError("the pool was built without qrels: relevance is unknown")
        found = self.frame["relevant"].eq(1).groupby(self.frame["query_id"], sort=False).sum()
        return found.astype(np.int64)

    def lines(self) -> list[str]:
        """The pool file: ``topic docno`` (adaptive: ``topic docno order``) per row."""
        frame = self.frame
        if self.adaptive:
            return [f"{t} {d} {o}" for t, d, o in zip(frame["query_id"], frame["doc_id"],
                                                      frame["order"], strict=True)]
        return [f"{t} {d}" for t, d in zip(frame["query_id"], frame["doc_id"], strict=True)]

    def __repr__(self) -> str:
        n_topics = self.frame["query_id"].nunique()
        return (f"Pool({self.strategy}, {len(self.frame)} documents over {n_topics} topics"
                f"{'' if self.budget is None else f', budget {self.budget} per topic'})")


def _round_robin(cand: Candidates) -> np.ndarray:
    """The round-robin position of every pair (its first appearance visiting rank 1 of
    every run, then rank 2, ...; topic-major, so positions also sort pairs by topic)."""
    flat = cand.pairs[:, :, :-1].transpose(0, 2, 1).reshape(-1)
    valid = np.flatnonzero(flat >= 0)
    first = np.full(cand.n_pairs, -1, dtype=np.int64)
    pairs, at = np.unique(flat[valid], return_index=True)  # first occurrence of each
    first[pairs] = valid[at]
    return first


def _weights(cand: Candidates, per_rank: np.ndarray) -> np.ndarray:
    """Σ over the runs of ``per_rank[k]`` at every rank k (0-based) where a pair appears."""
    cube = cand.pairs[:, :, :-1]
    ranks = np.broadcast_to(np.arange(cube.shape[2]), cube.shape)
    valid = cube >= 0
    return np.bincount(cube[valid], weights=per_rank[ranks[valid]], minlength=cand.n_pairs)


def _per_topic_prefix(order: np.ndarray, topic: np.ndarray, n_topics: int,
                      budget: int | None) -> tuple[np.ndarray, np.ndarray]:
    """``order`` (pairs, topic-major) cut to the first ``budget`` of every topic; and the
    1-based position of each kept pair within its topic."""
    counts = np.bincount(topic[order], minlength=n_topics)
    position = np.arange(len(order)) - np.repeat(np.cumsum(counts) - counts, counts)
    keep = position < budget if budget is not None else np.ones(len(order), dtype=bool)
    return order[keep], position[keep] + 1


def _fixed_order(cand: Candidates, strategy: Strategy, *, depth_k: int | None, p: float,
                 k: float) -> np.ndarray:
    """Pairs of a fixed strategy in judging order (topic-major)."""
    rr = _round_robin(cand)
    topic = cand.pair_topic
    if strategy in ("depth", "take"):
        order = np.argsort(rr, kind="stable")
        if strategy == "depth" and depth_k is not None:
            order = order[_first_rank(cand, rr)[order] < depth_k]
        return order
    ranks = np.arange(cand.pairs.shape[2] - 1, dtype=np.float64)
    per_rank = (1.0 - p) * p ** ranks if strategy == "rbp" else 1.0 / (k + ranks + 1.0)
    return np.lexsort((rr, -_tie_classes(_weights(cand, per_rank)), topic))


def _tie_classes(weight: np.ndarray) -> np.ndarray:
    """Weights as the index of their class: sorted weights within a relative 10^-12 of
    their neighbour share one (sums of the same terms in another order then tie)."""
    order = np.argsort(weight, kind="stable")
    ordered = weight[order]
    new = np.ones(len(ordered), dtype=bool)
    new[1:] = ordered[1:] - ordered[:-1] > 10.0 ** -WEIGHT_DIGITS * np.abs(ordered[1:])
    classes = np.empty(len(weight), dtype=np.int64)
    classes[order] = np.cumsum(new)
    return classes


def _first_rank(cand: Candidates, rr: np.ndarray) -> np.ndarray:
    """0-based rank at which every pair first appears in any run (from its round-robin
    position ``t·width·R + k·R + r``)."""
    n_runs = cand.pairs.shape[1]
    width = cand.pairs.shape[2] - 1
    return (rr - cand.pair_topic * (width * n_runs)) // max(n_runs, 1)


@JUDGING_ORDER
def judging_order(
    cand: Candidates,
    strategy: str,
    *,
    budget: int | None = None,
    labels: np.ndarray | None = None,
    p: float = DEFAULT_RBP_P,
    k: float = DEFAULT_RRF_K,
    discount: float = DEFAULT_DISCOUNT,
    depth_k: int | None = None,
    rng: object = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pairs in judging order, their 1-based order within the topic, next flags) of
    ``strategy`` on ``cand`` (module documentation). ``labels``: the oracle, the relevance
    of every pair (:meth:`Candidates.labels`; -1 unknown); adaptive strategies need it
    (without one, every judgment is unknown). ``strategy`` is checked on entry
    (:data:`irscale.collections.params.JUDGING_ORDER`)."""
    if strategy in FIXED:
        order = _fixed_order(cand, strategy, depth_k=depth_k, p=p, k=k)
        order, position = _per_topic_prefix(order, cand.pair_topic, len(cand.topics), budget)
        return order, position, np.zeros(len(order), dtype=bool)
    if labels is None:
        labels = np.full(cand.n_pairs, -1, dtype=np.int8)
    return _adaptive(cand, cast(Strategy, strategy), budget, labels, discount, rng)


def _adaptive(cand: Candidates, strategy: Strategy, budget: int | None, labels: np.ndarray,
              discount: float, rng: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The adaptive strategies, one judgment per topic and step, all topics at once."""
    generator = np.random.default_rng(check_rng(rng))
    cube = cand.pairs
    n_topics, n_runs, _ = cube.shape
    sizes = cand.pool_sizes
    limit = sizes if budget is None else np.minimum(sizes, budget)
    steps = int(limit.max(initial=0))
    # random tie order of the runs, one per topic: larger wins
    tie = generator.permuted(np.tile(np.arange(n_runs, dtype=np.float64), (n_topics, 1)),
                             axis=1)
    pointer = np.zeros((n_topics, n_runs), dtype=np.int64)
    judged = np.zeros(cand.n_pairs, dtype=bool)
    rel = np.zeros((n_topics, n_runs))
    nonrel = np.zeros((n_topics, n_runs))
    priority = np.zeros((n_topics, n_runs))
    current = np.full(n_topics, -1, dtype=np.int64)
    switch = np.ones(n_topics, dtype=bool)  # MTF: choose a new current run
    forget = discount if strategy.endswith("-ns") else 1.0
    out_pair = np.full((n_topics, max(steps, 0)), -1, dtype=np.int64)
    out_next = np.zeros((n_topics, max(steps, 0)), dtype=bool)
    done = np.zeros(n_topics, dtype=int)
    stopped = limit == 0
    for step in range(steps):
        active = np.flatnonzero(~stopped & (done < limit))
        if len(active) == 0:
            break
        heads = cube[active[:, None], np.arange(n_runs)[None, :], pointer[active]]
        alive = heads >= 0
        if strategy == "mtf":
            run = _mtf_choice(active, alive, priority, tie, current, switch)
        else:
            if strategy in ("ts", "ts-ns"):
                value = generator.beta(1.0 + rel[active], 1.0 + nonrel[active])
            else:
                value = (1.0 + rel[active]) / (2.0 + rel[active] + nonrel[active])
            value = np.where(alive, value, -np.inf)
            best = value == value.max(axis=1, keepdims=True)
            run = np.argmax(np.where(best & alive, tie[active], -1.0), axis=1)
        pair = heads[np.arange(len(active)), run]
        reward = labels[pair]
        out_pair[active, step] = pair
        unknown = reward < 0
        out_next[active, step] = unknown
        done[active] += 1
        if unknown.any():  # live use: stop at the first document whose judgment is unknown
            stopped[active[unknown]] = True
        judged[pair] = True
        hit = (reward == 1).astype(np.float64)
        rel[active, run] = forget * rel[active, run] + hit
        nonrel[active, run] = forget * nonrel[active, run] + (1.0 - hit)
        if strategy == "mtf":
            switch[active] = reward != 1
            priority[active[reward != 1], run[reward != 1]] -= 1.0
        _advance(cube, pointer, judged, active, pair)
    t_idx, s_idx = np.nonzero(out_pair >= 0)  # row-major: topic by topic, in step order
    return out_pair[t_idx, s_idx], s_idx + 1, out_next[t_idx, s_idx]


def _mtf_choice(active: np.ndarray, alive: np.ndarray, priority: np.ndarray,
                tie: np.ndarray, current: np.ndarray, switch: np.ndarray) -> np.ndarray:
    """Move-to-front: keep the current run while it gives relevant documents (and has some
    left); otherwise the highest-priority other run still alive (ties: the tie order), or
    the current run when it is the only one left."""
    n = len(active)
    cur = current[active]
    rows = np.arange(n)
    cur_alive = (cur >= 0) & alive[rows, np.maximum(cur, 0)]
    change = switch[active] | ~cur_alive
    others = alive.copy()
    others[rows[cur >= 0], cur[cur >= 0]] = False
    others[~others.any(axis=1)] = alive[~others.any(axis=1)]  # only the current run left
    score = np.where(others, priority[active], -np.inf)
    best = others & (score == score.max(axis=1, keepdims=True))
    chosen = np.argmax(np.where(best, tie[active], -1.0), axis=1)
    run = np.where(change, chosen, cur)
    current[active] = run
    return run


def _advance(cube: np.ndarray, pointer: np.ndarray, judged: np.ndarray,
             topics: np.ndarray, pairs: np.ndarray) -> None:
    """Move the pointers of ``topics`` past the documents judged already, given that
    ``pairs`` (one per topic) were just judged: before, every run's head was unjudged, so
    only the runs whose head is one of ``pairs`` move, as far as their next unjudged
    document."""
    heads = cube[topics[:, None], np.arange(cube.shape[1])[None, :], pointer[topics]]
    row, run = np.nonzero(heads == pairs[:, None])
    topic = topics[row]
    while len(topic):
        pointer[topic, run] += 1
        head = cube[topic, run, pointer[topic, run]]
        stale = (head >= 0) & judged[np.maximum(head, 0)]
        topic, run = topic[stale], run[stale]


@POOL
def pool(
    runs: object,
    strategy: str = "depth",
    *,
    depth: int | None = None,
    budget: int | None = None,
    qrels: object = None,
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
    p: float = DEFAULT_RBP_P,
    k: float = DEFAULT_RRF_K,
    discount: float = DEFAULT_DISCOUNT,
    rng: object = None,
    ties: TiePolicy = "trec_eval",
    topics: Sequence[str] | None = None,
    unjudged: Literal["stop", "nonrelevant"] = "stop",
) -> Pool:
    """Pool ``runs`` with ``strategy`` (module documentation) and return a :class:`Pool`.

    ``depth``: the runs are cut at this many documents first (for ``depth``, the pool
    depth k, required; for the others the candidates, default: whole runs). ``budget``:
    judgments per topic (required for ``take``, ``rbp`` and ``rrf``; without one,
    ``depth`` takes the whole pool, an adaptive strategy judges until the candidates are
    exhausted or, in live use, a judgment is unknown). ``qrels``: the
    oracle (documents not in it are *unknown*; see :func:`irscale.collections.simulate`
    for simulation, where they count as non-relevant). ``p``: RBP persistence; ``k``:
    RRF constant; ``discount``: γ of the non-stationary bandits; ``rng``: seed or numpy
    Generator (adaptive strategies). ``topics``: the topics to pool (default: every topic
    of any run). ``unjudged``: what a document the qrels do not judge is to an adaptive
    strategy — ``stop`` (live use: the topic stops there, the document is the next to
    judge) or ``nonrelevant`` (simulation: a pooled document nobody judged counts as
    non-relevant, as trec_eval counts it).

    Examples
    --------
    >>> import pandas as pd
    >>> from irscale.collections import pool
    >>> a = pd.DataFrame({"query_id": "1", "doc_id": ["d1", "d2", "d3"], "score": [3, 2, 1]})
    >>> b = pd.DataFrame({"query_id": "1", "doc_id": ["d2", "d4", "d1"], "score": [3, 2, 1]})
    >>> pool({"a": a, "b": b}, "depth", depth=2).lines()
    ['1 d1', '1 d2', '1 d4']
    """
    check_rng(rng)
    if unjudged not in ("stop", "nonrelevant"):
        raise ParameterError(f"unjudged must be 'stop' or 'nonrelevant', got {unjudged!r}")
    cand = ranked_candidates(runs, depth=depth, ties=ties, topics=topics)
    warn_missing_topics(cand, "pooled", "it contributes nothing there")
    labels = None
    oracle: Qrels | None = None
    if qrels is not None:
        oracle = as_qrels(qrels)
        labels = cand.labels(oracle, relevance_level)
        if unjudged == "nonrelevant":
            labels[labels < 0] = 0
    order, position, flags = judging_order(cand, strategy, budget=budget, labels=labels,
                                           p=p, k=k, discount=discount,
                                           depth_k=depth if strategy == "depth" else None,
                                           rng=rng)
    if len(order) == 0:
        raise InputError("the pool is empty: the runs retrieve no document"
                         + ("" if topics is None else " for the topics asked"))
    frame = pd.DataFrame({
        "query_id": np.asarray(cand.topics, dtype=object)[cand.pair_topic[order]],
        "doc_id": cand.pair_docno.take(order).to_numpy(),
        "order": position.astype(np.int64),
    })
    if labels is not None:
        frame["relevant"] = labels[order].astype(np.int64)
    if strategy in ADAPTIVE:
        frame["next"] = flags
    parameters = {"rbp": {"p": p}, "rrf": {"k": k}, "mm-ns": {"discount": discount},
                  "ts-ns": {"discount": discount}}.get(strategy, {})
    return Pool(frame=frame, strategy=strategy, budget=budget, depth=depth,
                adaptive=strategy in ADAPTIVE, parameters=parameters)

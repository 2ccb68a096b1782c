"""Counterfactual (off-policy) evaluation of rankings from a click log.

A log of sessions ``s = 1..n`` (query ``q_s``, the ranking ``y_s`` shown by a *logging
policy* π0, clicks ``c_{s,r}`` at ranks r ≤ K, K the SERP size) estimates the expected
number of clicks a *target policy* π would get on the same queries,
``V(π) = E_q Σ_r P(C_r = 1 | q, π)``, without showing π to anyone. The target is a run
(its first K documents of every query, shown deterministically) or a stochastic policy:
``π(d, r | q)``, the probability that it shows document d at rank r for query q.

Every estimate is a mean over sessions of one term per session, ``V̂ = (1/n) Σ_s ψ_s``
(SNIPS: ``ψ_s`` its linearisation), so its standard error is ``sd(ψ)/√n`` and the normal
interval ``V̂ ± z_{1−α/2} SE``; a percentile bootstrap over sessions is an option.

``ips`` — inverse propensity scoring in the item-position model (Horvitz & Thompson 1952;
    Li, Kim & Zitouni 2015, *Toward predicting the outcome of an A/B experiment for search
    relevance*, WSDM; Li et al. 2018, *Offline evaluation of ranking policies with click
    models*, KDD): ``ψ_s = Σ_r c_{s,r} w_{s,r}``, ``w_{s,r} = π(d_{s,r}, r | q_s) /
    π0(d_{s,r}, r | q_s)``. Unbiased when the click probability of a document at a rank
    depends on the query, the document and the rank only (PBM and the CTR models; not the
    cascades, where it depends on the documents above) and π0 > 0 wherever π > 0.
``snips`` — self-normalised IPS (Swaminathan & Joachims 2015, *The self-normalized
    estimator for counterfactual learning*, NeurIPS): per rank,
    ``V̂ = Σ_r Σ_s c_{s,r} w_{s,r} / Σ_s w_{s,r}``. E[w_{s,r}] = 1 under π0 when π fills
    rank r, so the denominator is a control variate: biased by O(1/n), consistent, and of
    lower variance than IPS when the weights vary much.
``dr`` — doubly robust (Dudík, Langford & Li 2011, *Doubly robust policy evaluation and
    learning*, ICML): a reward model ``m̂(q, d, r)`` (a position-based click model's
    ``α̂_qd γ̂_r``, or a given ``α̂_qd`` times γ_r) gives
    ``ψ_s = Σ_{d,r} π(d, r | q_s) m̂(q_s, d, r) + Σ_r w_{s,r} (c_{s,r} − m̂(q_s, d_{s,r}, r))``:
    unbiased when the propensities are right, whatever m̂; of lower variance than IPS when
    m̂ is close to the click probabilities.
``pbm-ips`` — position-based IPS (Wang et al. 2016, *Learning to rank with selection bias
    in personal search*, SIGIR; Joachims, Swaminathan & Schnabel 2017, *Unbiased
    learning-to-rank with biased feedback*, WSDM): under the PBM,
    ``P(C = 1 | q, d, r) = γ_r α_qd``, so a click at rank r weighted by ``1/γ_r`` is an
    unbiased estimate of α_qd, and ``ψ_s = Σ_r c_{s,r} λ(q_s, d_{s,r}) / γ_r`` with
    ``λ(q, d) = Σ_k π(d, k | q) γ_k`` (the target's examination of d). Needs the
    examination propensities γ_r only (a fitted PBM's, or given; their scale cancels), not
    π0; unbiased when the PBM holds and every document π shows is shown in every logged
    session of its query (Joachims et al. 2017, Prop. 1: the documents the log never shows
    add nothing).

``dm`` — the direct method (Beygelzimer & Langford 2009, *The offset tree for learning
    with partial labels*, KDD; Dudík, Langford & Li 2011): the reward model alone,
    ``ψ_s = Σ_{d,r} π(d, r | q_s) m̂(q_s, d, r)``; no propensities, no weights; biased as
    much as m̂ is wrong, of the least variance.
``switch-dr`` — switch doubly robust (Wang, Agarwal & Dudík 2017, *Optimal and adaptive
    off-policy evaluation in contextual bandits*, ICML; the Open Bandit Pipeline's
    ``SwitchDoublyRobust``): DR's correction kept only where the weight is at most τ,
    ``ψ_s = Σ_{d,r} π m̂ + Σ_r 1{w_{s,r} ≤ τ} w_{s,r} (c_{s,r} − m̂(q_s, d_{s,r}, r))``;
    τ = 0 gives dm, τ ≥ the largest weight dr. Unbiased where no weight exceeds τ; above
    it, biased by the reward model's error there, with the variance of the large weights
    removed.
``dr-os`` — doubly robust with optimistic shrinkage (Su, Dimakakou, Krishnamurthy & Dudík
    2020, *Doubly robust off-policy evaluation with shrinkage*, ICML; the Open Bandit
    Pipeline's ``DoublyRobustWithShrinkage``): DR's correction with each weight shrunk
    to ``ŵ = λ w / (w² + λ)`` (``shrinkage=λ``), ``ψ_s = Σ_{d,r} π m̂ + Σ_r ŵ_{s,r}
    (c_{s,r} − m̂(q_s, d_{s,r}, r))``; λ = 0 gives dm (ŵ = 0, a weight of 0 included,
    where the formula reads 0/0), dr the limit as λ grows. ŵ ≤ √λ / 2: the variance of large weights
    bounded, biased by the reward model's error where ŵ < w.
``sndr`` — self-normalised doubly robust (the Open Bandit Pipeline's
    ``SelfNormalizedDoublyRobust``; Kallus & Uehara 2019, *Intrinsically efficient,
    stable, and bounded off-policy evaluation for reinforcement learning*, NeurIPS): DR
    whose correction at each rank is divided by the mean weight there, as SNIPS does,
    ``V̂ = (1/n) Σ_s Σ_{d,r} π m̂ + Σ_r Σ_s w_{s,r} (c_{s,r} − m̂) / Σ_s w_{s,r}``;
    consistent, biased by O(1/n).

Slate estimators (McInerney, Brost, Chandar, Mehrotra & Carterette 2020, *Counterfactual
evaluation of slate recommendations with sequential reward interactions*, KDD; Li et al.
2018; the Open Bandit Pipeline's ``SlateStandardIPS``, ``SlateIndependentIPS``,
``SlateRewardInteractionIPS``): the clicks weighted by ratios of probabilities of the
shown ranking y_s under distributions over whole rankings (:mod:`.slates`),
``ψ_s = Σ_k c_{s,k} w_{s,k}``:

``sips`` — standard (whole-slate) IPS, ``w_{s,k} = π(y_s | q_s) / π0(y_s | q_s)`` at
    every rank: unbiased for any click behaviour where π0 > 0 wherever π > 0, of the
    largest variance.
``iips`` — independent IPS, ``w_{s,k} = π(y_{s,k}, k | q_s) / π0(y_{s,k}, k | q_s)``,
    the item-position marginals: the same estimate as ``ips`` (unbiased when a click at
    rank k depends only on the document there).
``rips`` — reward-interaction IPS, ``w_{s,k} = π(y_{s,1..k} | q_s) /
    π0(y_{s,1..k} | q_s)``, the probabilities of the prefix down to rank k: unbiased when
    a click at rank k depends on the documents at ranks 1..k only (the cascade models),
    of variance between iips's and sips's.
``sn-sips``, ``sn-iips``, ``sn-rips`` — their self-normalised forms (Swaminathan &
    Joachims 2015; the Open Bandit Pipeline's ``SelfNormalizedSlateStandardIPS``,
    ``SelfNormalizedSlateIndependentIPS``, ``SelfNormalizedSlateRewardInteractionIPS``):
    per rank, as ``snips``, ``V̂ = Σ_k Σ_s c_{s,k} w_{s,k} / Σ_s w_{s,k}`` with the weights
    above; consistent, biased by O(1/n), each rank's part a weighted mean of its clicks
    (within their range); equal to the plain estimator when the weights of every rank
    average 1. ``sn-iips`` is ``snips``.
``cascade-dr`` — Cascade doubly robust (Kiyohara, Saito, Matsuhiro, Narita, Shimizu &
    Yamamoto 2022, *Doubly robust off-policy evaluation for ranking policies under the
    cascade behavior model*, WSDM; the Open Bandit Pipeline's ``SlateCascadeDoublyRobust``):
    with rips's prefix weights ``w_{s,1..k}`` (``w_{s,1..0} = 1``) and a reward model's
    ``Q̂_k(y_{1..k})``, the expected clicks at ranks k.. of the rankings π shows after the
    prefix, ``ψ_s = Σ_k [w_{s,1..k} (c_{s,k} − Q̂_k(y_{s,1..k})) + w_{s,1..k−1}
    E_{a ∼ π(·|y_{s,1..k−1})} Q̂_k(y_{s,1..k−1}, a)]``; with ``r̂_m(y)`` the reward model's
    click probability at rank m of ranking y, ``π(y_{1..k}) Q̂_k(y_{1..k}) = Σ_{y ⊇ y_{1..k}}
    π(y) Σ_{m ≥ k} r̂_m(y)`` (:func:`~irscale.online.slates.prefix_values`): the weighted
    terms divide by π0 alone. Unbiased under rips's assumption whatever the model; of lower
    variance than rips when the model is close to the clicks (:mod:`.rewards`).
``hcope`` — the high-confidence lower bound of Thomas, Theocharous & Ghavamzadeh 2015
    (:mod:`.hcope`) on sips's terms ``X_s = Σ_k c_{s,k} π(y_s | q_s) / π0(y_s | q_s)`` (the
    paper's importance-weighted returns; ≥ 0, unbiased under any click behaviour): the value
    is at least the bound with probability at least ``confidence_level`` = 1 − δ, the
    threshold chosen on a random share of the sessions (``rng``). Not an estimate: no
    standard error; the logging probabilities must be known (not ``"empirical"``).

Clipping (``clip=τ``, another τ than switch-dr's): the propensity in a denominator (π0,
or its slate probability, for all but dm and pbm-ips; γ_r for pbm-ips) is replaced by
``max(p, τ)`` (Ionides 2008, *Truncated importance sampling*; Joachims et al. 2017, §4).
It bounds the weights and the variance; with clicks ≥ 0 it can only lower the IPS and
PBM-IPS estimates: their bias is ``−Σ c (1/p − 1/τ)`` over the terms with p < τ, in
expectation ≤ 0 (clipped IPS under-estimates). For DR the sign of the bias follows the
reward model's error on the clipped terms.

Numbers: propensities near 0 give huge weights (a propensity of 10⁻³⁰⁰, weights of
10³⁰⁰); the standard error is computed on the terms scaled by a power of two
(:func:`irscale.core.numbers.standard_deviation`), so that their squares do not overflow.
A weight, an estimate, a standard error or an interval end beyond the largest double is
refused, naming the log's line of the click weighted most (clip the propensities).
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..core.identifiers import index_in
from ..core.numbers import blank, declare, standard_deviation, undefined
from ..core.progress import ProgressArg, check_progress, counted_work
from ..errors import InputError, ParameterError
from ..stats.distributions import normal_ppf
from ..stats.protocol import ConfidenceInterval, Estimate, check_confidence_level
from ..stats.resampling import RngArg, check_rng
from .clicklog import ClickLog, read_click_log
from .clickmodels import ClickModel
from .keyed import (
    Keyed,
    factorize,
    first_over,
    first_repeat,
    group,
    group_sums,
    ungroup,
)
from .params import (
    COUNTERFACTUAL,
    OPE_BOOTSTRAP,
    OPE_BOUND,
    OPE_ESTIMATORS,
    OPE_REWARD_ESTIMATORS,
    OPE_SELF_NORMALISED,
)
from .rewards import check_propensities, examination, reward_values, slate_rewards
from .slates import (
    logged_slates,
    prefix_propensities,
    prefix_values,
    slate_frame,
    slate_marginals,
)

__all__ = ["ESTIMATORS", "CounterfactualResult", "counterfactual", "policy_table"]

Estimator = Literal["ips", "snips", "dr", "pbm-ips", "dm", "switch-dr", "dr-os", "sndr",
                    "sips",
                    "iips", "rips", "sn-sips", "sn-iips", "sn-rips", "cascade-dr", "hcope"]
#: The estimators of :func:`counterfactual`.
ESTIMATORS = OPE_ESTIMATORS
#: Cells (samples × sessions) of the resampling counts drawn at a time: about 32 MB, and
#: few enough Python steps that the loop costs nothing beside the draws.
_CHUNK_CELLS = 1 << 22
_KEY = ["query", "docno", "rank"]


class CounterfactualResult(Estimate):
    """An off-policy estimate with its standard error and intervals.

    It is the estimate itself, a ``float`` (an :class:`~irscale.stats.protocol.Estimate`:
    ``statistic``, ``pvalue`` ``None``, ``to_frame()``, ``format(fmt)``), with fields:
    ``estimate`` (also ``statistic``) is the estimated expected clicks per session of the
    target policy (for :func:`~irscale.online.historical_interleaving`, the expected
    interleaving outcome E[o]); ``se`` the standard error ``sd(ψ)/√n`` over the ``n``
    sessions; ``low``/``high`` the normal interval at ``confidence_level``;
    ``bootstrap_low``/``bootstrap_high`` the percentile bootstrap interval over sessions
    (NaN without bootstrap); ``clip`` the clipping threshold (None: none); ``clipped``
    the share of weighted terms whose propensity was clipped; ``max_weight`` the largest
    importance weight and ``ess`` the effective sample size ``(Σw)² / Σw²`` of the
    per-session weights; ``terms`` the per-session terms ψ_s (their mean is the estimate).
    ``hcope``'s ``estimate`` (and ``low``) is its lower bound at ``confidence_level``,
    ``threshold`` the clipping threshold c of the returns it chose (NaN for the others);
    it has no standard error, upper end or terms (NaN, None).
    """

    _fields = ("estimator", "se", "n", "low", "high", "confidence_level", "bootstrap",
               "bootstrap_low", "bootstrap_high", "clip", "clipped", "max_weight", "ess",
               "threshold", "terms")
    # the fields, set by Estimate.__new__ (declarations only, for type checkers)
    estimator: str
    se: float
    n: int
    low: float
    high: float
    confidence_level: float
    bootstrap: int
    bootstrap_low: float
    bootstrap_high: float
    clip: float | None
    clipped: float
    max_weight: float
    ess: float
    threshold: float
    terms: np.ndarray | None

    def __new__(cls, estimator: str, estimate: float, se: float, n: int, low: float,
                high: float, confidence_level: float, bootstrap: int = 0,
                bootstrap_low: float = math.nan, bootstrap_high: float = math.nan,
                clip: float | None = None, clipped: float = 0.0, max_weight: float = math.nan,
                ess: float = math.nan, threshold: float = math.nan,
                terms: np.ndarray | None = None) -> CounterfactualResult:
        return super().__new__(  # type: ignore[return-value]
            cls, estimate, estimator=estimator, se=se, n=n, low=low, high=high,
            confidence_level=confidence_level, bootstrap=bootstrap,
            bootstrap_low=bootstrap_low, bootstrap_high=bootstrap_high, clip=clip,
            clipped=clipped, max_weight=max_weight, ess=ess, threshold=threshold,
            terms=terms)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The normal interval ``estimate ± z SE`` at ``confidence_level``; hcope's
        one-sided ``[bound, ∞)``, at the level it was computed at only."""
        level = check_confidence_level(confidence_level)
        if self.estimator == OPE_BOUND:
            if not math.isclose(level, self.confidence_level):
                raise ParameterError(f"hcope's bound holds at the level it was computed at, "
                                     f"{self.confidence_level:g}; compute it again at "
                                     f"{level:g} (confidence_level=)")
            return ConfidenceInterval(self.low, math.inf)
        return _normal(self.estimate, self.se, level)

    def to_frame(self) -> pd.DataFrame:
        return declare(pd.DataFrame([{
            "estimator": self.estimator, "estimate": self.estimate, "se": self.se,
            "n": self.n, "low": self.low, "high": self.high,
            "level": self.confidence_level, "bootstrap": self.bootstrap,
            "bootstrap_low": self.bootstrap_low, "bootstrap_high": self.bootstrap_high,
            "clip": math.nan if self.clip is None else self.clip, "clipped": self.clipped,
            "max_weight": self.max_weight, "ess": self.ess, "threshold": self.threshold}]),
            _MEANINGS)

    def __repr__(self) -> str:
        if self.estimator == OPE_BOUND:
            return (f"CounterfactualResult({self.estimator}: ≥ {self.estimate:.4g} at "
                    f"{self.confidence_level:g}, n={self.n:,})")
        return (f"CounterfactualResult({self.estimator}: {self.estimate:.4g} ± "
                f"{self.se:.2g}, n={self.n:,})")


#: What the NaNs of :meth:`CounterfactualResult.to_frame` are.
_MEANINGS = {"bootstrap_low": blank("no bootstrap asked"),
             "bootstrap_high": blank("no bootstrap asked"), "clip": blank("no clipping"),
             "max_weight": blank("no importance weights (dm)"),
             "se": blank("hcope: a bound, not an estimate with a standard error"),
             "high": blank("hcope: a lower bound, no upper end"),
             "threshold": blank("the clipping threshold of hcope's returns only"),
             "ess": undefined("no click has a positive weight: the effective sample size "
                              "(Σw)²/Σw² is 0/0")}


def _normal(estimate: float, se: float, level: float) -> ConfidenceInterval:
    z = float(normal_ppf(0.5 + level / 2))
    return ConfidenceInterval(estimate - z * se, estimate + z * se)


# --------------------------------------------------------------------------- policies
def policy_table(policy: Any, depth: int) -> pd.Series:
    """The target policy as ``π(d, r | q)``: a Series of probabilities indexed by
    (query, docno, rank), ranks 1..``depth``.

    ``policy``: a DataFrame with columns ``query docno rank probability`` (a stochastic
    policy: the probabilities of every (query, rank) sum to at most 1, those of every
    (query, document) too), or ``query slate probability`` (a distribution over whole
    rankings: its item-position marginals); a mapping ``{query: [docno, ...]}``
    (rankings); or a run (a TREC run file, a ``{query: {docno: score}}`` dict, a Run),
    ranked as trec_eval does. Rankings show their first ``depth`` documents.
    """
    rows = _policy(policy, depth)
    ranks, rank = np.unique(rows.rank, return_inverse=True)
    index = pd.MultiIndex(levels=[rows.queries, rows.docs, ranks],  # type: ignore[list-item]
                          codes=[rows.query, rows.doc, rank],  # type: ignore[list-item]
                          names=_KEY, verify_integrity=False)
    table = pd.Series(rows.value, index=index, name="probability")
    return table[(table > 0) & (table.index.get_level_values("rank") <= depth)]


def _policy(policy: Any, depth: int) -> Keyed:
    """:func:`policy_table`'s rows, checked, all of them (any probability and rank)."""
    if isinstance(policy, pd.Series) and list(policy.index.names) == _KEY:
        frame = policy.rename("probability").reset_index()
    elif isinstance(policy, pd.DataFrame) and "slate" in policy.columns:
        frame = slate_marginals(slate_frame(policy), depth)
    elif isinstance(policy, pd.DataFrame):
        frame = policy
    else:
        query, docno, rank = _rankings(policy, depth)
        return _checked(query, docno, rank, np.ones(len(rank)))
    missing = [c for c in (*_KEY, "probability") if c not in frame.columns]
    if missing:
        raise InputError(f"a stochastic policy has columns query docno rank probability; "
                         f"missing {', '.join(missing)}")
    rank = pd.to_numeric(frame["rank"], errors="coerce").to_numpy(np.float64)
    prob = pd.to_numeric(frame["probability"], errors="coerce").to_numpy(np.float64)
    bad = ~np.isfinite(rank) | (rank % 1 != 0) | (rank < 1)
    if bad.any():
        raise InputError(f"policy row {int(np.flatnonzero(bad)[0]) + 1}: rank must be an "
                         f"integer ≥ 1, got {frame['rank'].iloc[np.flatnonzero(bad)[0]]!r}")
    bad = ~np.isfinite(prob) | (prob < 0) | (prob > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"policy row {i + 1}: probability must lie in [0, 1], got "
                         f"{frame['probability'].iloc[i]!r}")
    return _checked(frame["query"].astype(str).to_numpy(),
                    frame["docno"].astype(str).to_numpy(), rank.astype(np.int64), prob)


def _checked(query: np.ndarray, docno: np.ndarray, rank: np.ndarray, prob: np.ndarray
             ) -> Keyed:
    """The rows (queries and docnos: strings, NaN where missing; ranks ≥ 1; probabilities
    in [0, 1]) keyed, checked: no (query, document, rank) twice, the probabilities of every
    (query, rank) and of every (query, document) summing to at most 1 (the first in sorted
    order named, as a pandas groupby orders them; a missing query or document is in no
    sum)."""
    query_code, queries = factorize(query)
    doc_code, docs = factorize(docno)
    table = Keyed(queries, docs, query_code, doc_code, rank, prob)
    ranks, rank_code = np.unique(rank, return_inverse=True)
    pairs, pair = group(query_code, doc_code, len(docs))
    i = first_repeat(group(pair, rank_code, len(ranks))[1])
    if i is not None:
        q, d = table.label(i)
        raise InputError(f"the policy gives document {d!r} at rank {rank[i]} of query "
                         f"{q!r} twice")
    ranked = query_code >= 0
    for (keys, codes), size, what, named in (
            (group(query_code, rank_code, len(ranks)), len(ranks), "rank", ranked),
            ((pairs, pair), len(docs), "document", ranked & (doc_code >= 0))):
        over = first_over(prob, np.where(named, codes, -1), len(keys), 1 + 1e-9)
        if over is not None:
            q, k = (int(code) for code in ungroup(keys[over[0]], size))
            key = repr(str(docs[k])) if what == "document" else str(ranks[k])
            raise InputError(f"the policy's probabilities of {what} {key} of query "
                             f"{queries[q]!r} sum to {over[1]:.6g} > 1")
    return table


def _shown(table: Keyed, depth: int) -> Keyed:
    """The rows of ``table`` a ranking of ``depth`` ranks shows: probability > 0, rank ≤
    ``depth``."""
    return table.take((table.value > 0) & (table.rank <= depth))


def _rankings(policy: Any, depth: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A deterministic policy's rows (query, docno, rank; probability 1) from rankings or
    a run: the queries and docnos as ``str`` objects."""
    if isinstance(policy, Mapping) and policy and all(
            isinstance(v, Sequence) and not isinstance(v, (str, bytes))
            for v in policy.values()):
        ranked = [[str(d) for d in list(docs)[:depth]] for docs in policy.values()]
        lengths = np.array([len(docs) for docs in ranked], dtype=np.int64)
        query = np.repeat(np.array([str(q) for q in policy], dtype=object), lengths)
        docno = np.array([d for docs in ranked for d in docs], dtype=object)
        rank = np.arange(len(docno)) - np.repeat(np.cumsum(lengths) - lengths, lengths) + 1
        return query, docno, rank
    from ..collections.candidates import ranked_candidates

    cube = ranked_candidates([policy] if isinstance(policy, Mapping) else policy,
                             depth=depth)
    if len(cube.runs) != 1:
        raise InputError(f"the target policy is one run, got {len(cube.runs)}")
    t, r = np.nonzero(cube.pairs[:, 0] >= 0)
    docno = np.asarray(cube.pair_docno.to_pylist(), dtype=object)[cube.pairs[t, 0, r]]
    return np.array([str(q) for q in cube.topics], dtype=object)[t], docno, r + 1


def _logging_table(logging: Any, log: ClickLog) -> Keyed:
    """π0(d, r | q) where it is positive, ranks 1..K: given (as a policy), or
    ``"empirical"``: the share of the log's sessions of q that showed d at r."""
    if isinstance(logging, str) and logging == "empirical":
        s, r = np.nonzero(log.valid)
        query_code, queries = factorize(log.queries.astype(str).astype(object))
        doc_code, docs = factorize(log.docs.astype(str).astype(object))
        query, doc = query_code[log.query[s]], doc_code[log.doc[s, r]]
        pair = group(query, doc, len(docs))[1]
        cells, first, cell = np.unique(pair * log.serp_size + r, return_index=True,
                                       return_inverse=True)
        sessions = np.bincount(query_code[log.query], minlength=len(queries))
        count = np.bincount(cell.reshape(-1), minlength=len(cells))
        return Keyed(queries, docs, query[first], doc[first], r[first] + 1,
                     count / sessions[query[first]])
    if isinstance(logging, str):
        raise ParameterError(f"logging is a table or 'empirical', got {logging!r}")
    return _shown(_policy(logging, log.serp_size), log.serp_size)


# --------------------------------------------------------------------------- estimators
@COUNTERFACTUAL
def counterfactual(log: Any, policy: Any, *, estimator: Estimator = "ips",
                   logging: Any = None,
                   propensities: ClickModel | Sequence[float] | np.ndarray | None = None,
                   reward: Any = None,
                   clip: float | None = None, switch_tau: float | None = None,
                   shrinkage: float | None = None, confidence_level: float = 0.95,
                   bootstrap: int = 0,
                   rng: RngArg = None, progress: ProgressArg = False
                   ) -> CounterfactualResult:
    """Estimate the expected clicks per session of ``policy`` from ``log`` (module doc).

    Parameters
    ----------
    log : ClickLog, path, bytes or DataFrame
        The logged sessions (:func:`~irscale.online.read_click_log`).
    policy : run, ``{query: [docno, ...]}``, or a DataFrame
        The target policy: ``query docno rank probability`` (:func:`policy_table`), or a
        distribution over whole rankings ``query slate probability``
        (:func:`~irscale.online.slates.slate_frame`; needed by sips and rips unless the
        policy is deterministic); it shows ranks 1..K, K the SERP size.
    estimator : one of :data:`ESTIMATORS` (module doc)
    logging : DataFrame, or ``"empirical"``
        The logging policy π0 (all estimators but pbm-ips and dm): ``query docno rank
        probability`` propensities, or ``query slate probability`` (the only form the
        prefix-weighted ones take besides ``"empirical"``); ``"empirical"``: the share of
        the log's sessions of q showing d at r (or the slate's prefix) — consistent for a
        randomised logging policy, not unbiased (hcope refuses it).
    propensities : ClickModel or sequence of γ_1..γ_K, optional
        Examination propensities of pbm-ips (default: a PBM fitted on the log), and the
        γ_r of a per-(query, docno) ``reward`` (default 1).
    reward : ClickModel, or per-(query, docno) values, optional
        The reward model of dm, dr, switch-dr, dr-os, sndr (a position-based click model, ``α̂
        γ̂_r``; default: a PBM fitted on the log) and cascade-dr (any click model; default
        an SDBN fitted on the log), or click probabilities ``α̂_qd`` (times γ_r).
    clip : float in (0, 1], optional
        Clip the propensities in denominators at ``max(p, clip)`` (biased: module doc).
    switch_tau : float ≥ 0
        switch-dr's threshold τ on the importance weights (required there, only there).
    shrinkage : float ≥ 0
        dr-os's λ (required there, only there).
    confidence_level : float
        Level of the normal (and bootstrap) interval; hcope's 1 − δ.
    bootstrap : int
        Percentile bootstrap samples over sessions (0: none).
    rng : seed or Generator
        The bootstrap's randomness, and hcope's split.
    progress : bool or callable
        The bootstrap's progress: ``True`` a bar on standard error and, when the samples
        left after the first chunk would take long, their time measured on it;
        ``callable(done, total)``; ``False`` (default) nothing.

    Examples
    --------
    >>> log = read_click_log(b"s1 q 1 a 1\\ns1 q 2 b 0\\ns2 q 1 b 0\\ns2 q 2 a 1\\n")
    >>> uniform = pd.DataFrame({"query": "q", "docno": ["a", "a", "b", "b"],
    ...                         "rank": [1, 2, 1, 2], "probability": 0.5})
    >>> r = counterfactual(log, {"q": ["a", "b"]}, logging=uniform)
    >>> r.estimate, r.se   # session terms 1/0.5 and 0
    (1.0, 1.0)
    """
    _check_options(estimator, logging, propensities, reward)
    level = check_confidence_level(confidence_level)
    check_rng(rng)
    progress = check_progress(progress)
    log = read_click_log(log)
    slates = _slates(policy, log.serp_size) if estimator in _PREFIX else None
    table = _shown(_policy(policy, log.serp_size), log.serp_size)
    queries = log.queries.astype(str)
    _check_queries(queries, table)
    table = table.take(np.append(index_in(table.queries, queries), -1)[table.query] >= 0)
    clicks = (log.clicks & log.valid).astype(np.float64)
    floor = 0.0 if clip is None else clip
    weight: np.ndarray | None
    if estimator == "pbm-ips":
        weight, clipped = _pbm_ips_weights(table, examination(propensities, log), floor, log)
        return _result(estimator, (clicks * weight)[:, :, None], False, weight, clipped,
                       clip, level, bootstrap, rng, progress, log)
    model = None
    if estimator in _ITEM_MODEL:
        exam = None if propensities is None else examination(propensities, log)
        model = reward_values(reward, log, table, exam)
    if estimator == "dm":
        assert model is not None
        terms = model[1][log.query][:, None, None]
        return _result(estimator, terms, False, None, np.zeros(log.doc.shape, bool), clip,
                       level, bootstrap, rng, progress)
    if slates is not None:
        target, p0 = _prefix_weights(estimator, log, slates, logging)
    else:
        logged = _logging_table(logging, log)
        _warn_support(table, logged)
        target, p0 = table.at(log), logged.at(log)
    shown = log.valid
    impossible = shown & (target > 0) & (p0 <= 0)
    if impossible.any():
        s, r = log.first(impossible)
        what = (f"its first {r + 1} document(s)" if slates is not None else
                f"document {log.docs[log.doc[s, r]]!r} at rank {r + 1}")
        raise log.error(InputError, f"session {log.sessions[s]!r} shows {what}, where the "
                        "logging propensities give it probability 0", impossible)
    clipped = shown & (target > 0) & (p0 < floor)
    weight = np.where(shown & (target > 0),
                      target / np.maximum(np.maximum(p0, floor), 1e-300), 0.0)
    ratio = estimator in OPE_SELF_NORMALISED
    if estimator == OPE_BOUND:
        return _bound(clicks, weight, clipped, clip, level, rng, log)
    if estimator == "cascade-dr":
        assert slates is not None
        prefixes = _query_slates(slates, log)
        here, before = prefix_values(log, prefixes, slate_rewards(
            reward, propensities, log, prefixes, table))
        terms = _cascade_terms(clicks, weight, here, before, np.maximum(p0, floor))
    elif model is None:
        terms = np.stack([clicks * weight, weight] if ratio else [clicks * weight], axis=2)
    else:
        terms = _dr_terms(estimator, model, clicks, weight, ratio, switch_tau, shrinkage, log)
    return _result(estimator, terms, ratio, weight, clipped, clip, level, bootstrap, rng,
                   progress, log)


def _pbm_ips_weights(table: Keyed, gamma: np.ndarray, floor: float, log: ClickLog
                     ) -> tuple[np.ndarray, np.ndarray]:
    """pbm-ips's weights ``λ_qd / max(γ_r, clip)``, ``λ_qd = Σ_r π(d at r | q) γ_r`` (module
    doc), and the ranks whose γ the clip raised; a weight beyond the doubles: refused."""
    pairs, pair = group(table.query, table.doc, len(table.docs))
    lam = Keyed(table.queries, table.docs, *ungroup(pairs, len(table.docs)),
                np.zeros(len(pairs), np.int64),
                group_sums(table.value * gamma[table.rank - 1],
                           np.where(table.doc >= 0, pair, -1), len(pairs)))
    denom = np.broadcast_to(np.maximum(gamma, floor), log.doc.shape)
    with np.errstate(over="ignore"):  # a weight beyond the doubles: refused below
        weight = np.where(log.valid, lam.at(log, by_rank=False) / denom, 0.0)
    if not np.isfinite(weight).all():
        raise _overflow(weight, log)
    return weight, np.broadcast_to(gamma < floor, log.doc.shape)


def _dr_terms(estimator: str, model: tuple[np.ndarray, np.ndarray], clicks: np.ndarray,
              weight: np.ndarray, ratio: bool, switch_tau: float | None,
              shrinkage: float | None, log: ClickLog) -> np.ndarray:
    """dr, switch-dr, dr-os, sndr: the direct value plus the residuals ``w (c − m)`` (switch-dr:
    where ``w ≤ τ``; dr-os: shrunk w); sndr's direct term one more "rank" of denominator 1."""
    m, direct = model
    residual = weight * (clicks - m)
    if estimator == "switch-dr":
        assert switch_tau is not None
        residual = np.where(weight <= switch_tau, residual, 0.0)
    elif estimator == "dr-os":
        assert shrinkage is not None
        residual = shrunk(weight, shrinkage) * (clicks - m)
    base = direct[log.query]
    if ratio:
        return np.concatenate([np.stack([residual, weight], axis=2),
                               np.stack([base, np.ones_like(base)], axis=1)[:, None]],
                              axis=1)
    return (base + residual.sum(axis=1))[:, None, None]


#: The estimators with a reward model of (query, document, rank) cells; those weighting by
#: slate (prefix) propensities, and among them by the whole slate's at every rank.
_ITEM_MODEL = ("dm", "dr", "switch-dr", "dr-os", "sndr")


def shrunk(weight: np.ndarray, shrinkage: float) -> np.ndarray:
    """dr-os's weights ``λ w / (w² + λ)`` (Su et al. 2020, eq. 7): 0 for λ = 0 (where a
    weight of 0 would read 0/0)."""
    if shrinkage == 0:
        return np.zeros_like(weight)
    with np.errstate(over="ignore"):  # w² beyond the doubles: ŵ → 0, its limit
        return shrinkage * weight / (weight * weight + shrinkage)
_PREFIX = ("sips", "rips", "sn-sips", "sn-rips", "cascade-dr", "hcope")
_WHOLE = ("sips", "sn-sips", "hcope")


def _check_options(estimator: str, logging: Any, propensities: Any, reward: Any) -> None:
    """Each estimator's inputs beyond its binding (:data:`irscale.online.params.
    COUNTERFACTUAL`: which inputs apply to it and which it needs): the propensities a reward
    model takes, and hcope's logging policy."""
    if estimator in OPE_REWARD_ESTIMATORS:
        check_propensities(estimator, reward, propensities)
    if estimator == OPE_BOUND and isinstance(logging, str) and logging == "empirical":
        raise ParameterError("hcope's guarantee needs the logging policy's probabilities "
                             "(a table query slate probability), not frequencies estimated "
                             "from the log it bounds ('empirical')")


def _slates(policy: Any, depth: int) -> pd.DataFrame:
    """The target as a distribution over rankings: given (``query slate probability``), or
    a deterministic policy's rankings with probability 1."""
    if isinstance(policy, pd.DataFrame) and "slate" in policy.columns:
        return slate_frame(policy)
    if isinstance(policy, (pd.DataFrame, pd.Series)):
        raise ParameterError(f"{', '.join(_PREFIX)} need the target as a distribution over "
                             "whole rankings (query slate probability) or rankings, not "
                             "per-rank marginals")
    frame = pd.DataFrame(dict(zip(_KEY, _rankings(policy, depth), strict=True))
                         ).sort_values(["query", "rank"])
    slates = frame.groupby("query", sort=False)["docno"].agg(tuple)
    return pd.DataFrame({"query": slates.index.astype(str), "slate": slates.to_numpy(),
                         "probability": 1.0})


def _prefix_weights(estimator: str, log: ClickLog, target: pd.DataFrame, logging: Any
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Numerator and denominator of the slate weights at every (session, rank): the
    prefix probabilities ``π(y_1..y_k)``, ``π0(y_1..y_k)`` (rips, sn-rips, cascade-dr), or
    those of the whole shown ranking at every rank (sips, sn-sips, hcope)."""
    if isinstance(logging, str) and logging == "empirical":
        logged = logged_slates(log)
    elif isinstance(logging, pd.DataFrame) and "slate" in logging.columns:
        logged = slate_frame(logging)
    else:
        raise ParameterError(f"{estimator} needs the logging policy as a distribution "
                             "over whole rankings (query slate probability) or "
                             "'empirical'")
    num, den = prefix_propensities(log, target), prefix_propensities(log, logged)
    if estimator in _WHOLE:
        last = np.maximum(log.lengths - 1, 0)[:, None]
        rows = np.arange(len(num))[:, None]
        num = np.where(log.valid, num[rows, last], 0.0)
        den = np.where(log.valid, den[rows, last], 0.0)
    return num, den


def _query_slates(slates: pd.DataFrame, log: ClickLog) -> pd.DataFrame:
    """The rankings of ``slates`` of the log's queries, with a positive probability."""
    keep = slates["query"].isin(log.queries.astype(str)) & (slates["probability"] > 0)
    return slates[keep.to_numpy()].reset_index(drop=True)


def _cascade_terms(clicks: np.ndarray, weight: np.ndarray, here: np.ndarray,
                   before: np.ndarray, p0: np.ndarray) -> np.ndarray:
    """Cascade-DR's ψ_s (sessions × 1 × 1; module doc): the prefix weights' clicks, less
    ``here / π0(y_{1..k})``, plus ``before / π0(y_{1..k−1})`` (π0 of the empty prefix 1;
    ``p0`` the prefix propensities, clipped)."""
    previous = np.concatenate([np.ones((len(p0), 1)), p0[:, :-1]], axis=1)
    with np.errstate(over="ignore"):  # beyond the doubles: refused by _result
        model = (np.divide(before, previous, out=np.zeros_like(before), where=before > 0)
                 - np.divide(here, p0, out=np.zeros_like(here), where=here > 0))
        return ((clicks * weight).sum(axis=1) + model.sum(axis=1))[:, None, None]


def _bound(clicks: np.ndarray, weight: np.ndarray, clipped: np.ndarray, clip: float | None,
           level: float, rng: RngArg, log: ClickLog) -> CounterfactualResult:
    """hcope's result: the bound of :func:`~irscale.online.hcope.high_confidence_bound` at
    δ = 1 − ``level`` on sips's terms (the whole slate's weight times the session's
    clicks), with the weight diagnostics of the others."""
    from .hcope import high_confidence_bound

    returns = (clicks * weight).sum(axis=1)
    if len(returns) < 4:
        raise InputError(f"hcope needs at least four sessions (two choose its threshold, "
                         f"two at least are bounded), got {len(returns)}")
    if not np.isfinite(returns).all():
        raise _overflow(weight, log)
    value, c, _ = high_confidence_bound(returns, 1 - level, np.random.default_rng(rng))
    base = _result(OPE_BOUND, returns[:, None, None], False, weight, clipped, clip, level,
                   0, rng, log=log)
    return CounterfactualResult(OPE_BOUND, value, math.nan, base.n, value, math.nan, level,
                                clip=clip, clipped=base.clipped, max_weight=base.max_weight,
                                ess=base.ess, threshold=c)


def _check_queries(queries: np.ndarray, table: Keyed) -> None:
    """The policy ranks the log's ``queries`` (as strings): none is an error, some
    missing a warning (the target shows nothing for them)."""
    known = table.queries[np.unique(table.query[table.query >= 0])]
    missing = [str(q) for q in queries[index_in(queries, known) < 0]]
    if len(missing) == len(queries):
        raise InputError(f"the target policy ranks none of the log's queries "
                         f"({', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''})")
    if missing:
        warnings.warn(f"{len(missing)} query(ies) of the log have no ranking in the target "
                      f"policy (it shows nothing for them): {', '.join(missing[:5])}",
                      stacklevel=3)


def _warn_support(target: Keyed, logging: Keyed) -> None:
    """Target mass (of the log's queries) where the logging policy never shows: the
    weighted clicks cannot see it (no full support): IPS and SNIPS under-estimate, DR has
    only its reward model there."""
    row = logging.find(target.queries, target.docs, target.query, target.doc, target.rank)
    lacking = np.flatnonzero(np.append(logging.value, 0.0)[row] <= 0)
    if len(lacking):
        q, d = target.label(int(lacking[0]))
        warnings.warn(f"the logging policy never shows {len(lacking)} (query, document, "
                      f"rank) cell(s) the target policy uses (e.g. {d!r} at rank "
                      f"{target.rank[lacking[0]]} of query {q!r}): no logged click speaks "
                      "for them", stacklevel=3)


def _estimate(means: np.ndarray, ratio: bool) -> np.ndarray:
    """The estimates from the means of the terms over sessions (``... × K × 2`` for a
    ratio)."""
    if not ratio:
        return means.sum(axis=(-1, -2))
    num, den = means[..., 0], means[..., 1]
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0).sum(axis=-1)


def _overflow(weight: np.ndarray | None, log: ClickLog | None) -> InputError:
    """The error of an estimate whose numbers overflow the largest double: its importance
    weights are too large (propensities too near 0), naming the line of ``log`` whose
    click is weighted most."""
    if weight is None:  # pragma: no cover - dm weights nothing; its terms are bounded
        return InputError("the estimate overflows the largest double")
    with np.errstate(invalid="ignore"):
        largest = np.nanmax(np.abs(weight))
    message = (f"importance weights up to {largest:.4g} (propensities too near 0) make the "
               f"estimate overflow the largest double ({sys.float_info.max:.4g}); clip the "
               "propensities (clip=, --clip)")
    most = np.abs(weight) == largest
    return InputError(message) if log is None else log.error(InputError, message, most)


def _bootstrap(terms: np.ndarray, ratio: bool, level: float, samples: int, rng: RngArg,
               progress: ProgressArg) -> tuple[float, float]:
    """The percentile bootstrap interval over sessions: ``samples`` resamplings of the
    sessions (multinomial counts), the estimate of each, in chunks of
    :data:`_CHUNK_CELLS` counts; the time of the rest stated from the first chunks, in the
    samples ``--bootstrap`` declares (:func:`irscale.core.progress.counted_work`)."""
    n = len(terms)
    gen = np.random.default_rng(rng)
    flat = terms.reshape(n, -1)
    chunk = max(1, _CHUNK_CELLS // n)
    work = counted_work(OPE_BOOTSTRAP, samples, "the bootstrap", progress)
    values = []
    for start in range(0, samples, chunk):
        size = min(chunk, samples - start)
        counts = gen.multinomial(n, np.full(n, 1.0 / n), size=size)
        values.append(_estimate((counts @ flat / n).reshape(size, *terms.shape[1:]), ratio))
        work(start + size)
    low, high = np.quantile(np.concatenate(values), [0.5 - level / 2, 0.5 + level / 2])
    return float(low), float(high)


def _result(estimator: str, terms: np.ndarray, ratio: bool, weight: np.ndarray | None,
            clipped: np.ndarray, clip: float | None, level: float, bootstrap: int,
            rng: RngArg, progress: ProgressArg = False, log: ClickLog | None = None
            ) -> CounterfactualResult:
    """The estimate of ``terms`` (sessions × K × 1, or × 2 for a per-rank ratio), its
    standard error by the linearisation ψ, intervals and weight diagnostics; numbers
    beyond the largest double refused (:func:`_overflow`, naming the line of ``log``)."""
    n = len(terms)
    if n < 2:
        raise InputError("an off-policy estimate needs at least two sessions")
    if weight is not None and not np.isfinite(weight).all():
        raise _overflow(weight, log)
    try:
        with np.errstate(over="raise", invalid="raise"):
            value = float(_estimate(terms.mean(axis=0), ratio))
            if ratio:
                mean = terms.mean(axis=0)
                rates = np.divide(mean[:, 0], mean[:, 1], out=np.zeros(len(mean)),
                                  where=mean[:, 1] > 0)
                psi = (np.divide(terms[:, :, 0] - rates * terms[:, :, 1], mean[:, 1],
                                 out=np.zeros(terms.shape[:2]), where=mean[:, 1] > 0
                                 ).sum(axis=1) + value)
            else:
                psi = terms.sum(axis=(1, 2))
    except FloatingPointError:
        raise _overflow(weight, log) from None
    se = standard_deviation(psi) / math.sqrt(n)
    low, high = _normal(value, se, level)
    if not all(math.isfinite(v) for v in (value, se, low, high)):
        raise _overflow(weight, log)
    boot_low = boot_high = math.nan
    if bootstrap:
        boot_low, boot_high = _bootstrap(terms, ratio, level, bootstrap, rng, progress)
    if weight is None:  # dm: no importance weights
        return CounterfactualResult(estimator, value, se, n, float(low), float(high), level,
                                    int(bootstrap), float(boot_low), float(boot_high),
                                    terms=psi)
    per_session = weight.sum(axis=1)
    largest = float(np.abs(per_session).max(initial=0.0))
    # the effective sample size (Σw)²/Σw² is scale-free: computed on w/max|w|, so that
    # huge weights (propensities near 0) do not overflow the squares
    scaled = per_session / largest if 0.0 < largest < math.inf else per_session
    total = float((scaled ** 2).sum())
    used = weight > 0
    return CounterfactualResult(
        estimator, value, se, n, float(low), float(high), level, int(bootstrap),
        float(boot_low), float(boot_high), clip,
        float((clipped & used).sum() / max(int(used.sum()), 1)),
        float(weight.max(initial=0.0)),
        float(scaled.sum() ** 2 / total) if 0.0 < total < math.inf else math.nan,
        terms=psi)

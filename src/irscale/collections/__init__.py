"""Building test collections: pooling strategies and simulated pooling.

Pooling (:mod:`irscale.collections.pooling`)
    :func:`pool`: depth-k, take@N, RBP-weighted and RRF pooling, move-to-front, and the
    multi-armed bandits of Losada, Parapar & Barreiro (MM, MM-NS, Thompson sampling),
    vectorised over topics; :class:`Pool` (the judging order, a pool file).
Simulated pooling (:mod:`irscale.collections.simulate`)
    :func:`simulate_pooling`: replay strategies with budgets on existing qrels (the
    oracle): relevant documents found, the induced qrels, system-ranking τ and τ_ap against
    the full qrels, and the leave-one-contributor-out bias.
Shards (:mod:`irscale.collections.shards`)
    :func:`evaluate_shards`: split the documents into shards (seeded random partition or a
    stable docno hash, :func:`shard_documents`), score every run on every topic within every
    shard, and fit Ferro & Sanderson's (2022) MD3 (:meth:`ShardedEvaluation.anova`).
Sampled judgments (:mod:`irscale.collections.sampling`)
    :func:`sample_judgments`: a probability sample of the runs' documents (AP-prior
    sampling distribution, with replacement or Poisson), :func:`estimate_sampled`: statAP,
    R̂ and P̂@k from the sampled judgments and their inclusion probabilities
    (Horvitz–Thompson; Aslam, Pavlu & Yilmaz 2006).
Crowd labels (:mod:`irscale.collections.labels`, :mod:`~irscale.collections.agreement`,
:mod:`~irscale.collections.aware`)
    :func:`aggregate_labels`: MV, WMV, Dawid–Skene, GLAD, MACE, one-coin Dawid–Skene,
    ZBS, KOS and M-MSR into qrels with confidences (or scores) and worker quality;
    :func:`label_agreement` and :func:`qrels_agreement` (percent, Fleiss' and Cohen's κ,
    Krippendorff's α, τ of the rankings);
    :func:`aggregate_pairwise` (:mod:`~irscale.collections.pairwise`): Bradley–Terry and
    noisy Bradley–Terry scores from pairwise judgments;
    :func:`irscale.collections.aware.aware`: AWARE scores (Ferrante, Ferro & Maistro 2017)
    as a score matrix (not exported here: the name is its module's);
    :func:`allocate_labels` (:mod:`~irscale.collections.allocation`): answers per document
    by adaptive stopping (Abraham et al. 2016) or uniformly, under a budget.
Automatic judgments (:mod:`irscale.collections.automatic`)
    :func:`automatic_judgments`: automatic qrels checked against human judgments of a sample
    of topics (label and system-ranking agreement) and the runs' means corrected by
    prediction-powered inference (:func:`ppi_mean`; Angelopoulos et al. 2023).
Judgment noise (:mod:`irscale.collections.judgment_noise`)
    :func:`judge_noise`: qrels relabelled by a confusion model of the judges
    (:class:`Confusion`: stated, a flip rate, or estimated from a double-judged sample),
    the runs evaluated on every replicate, and how often each pair keeps its order and
    its significance decision (Rashidi, Zobel & Moffat 2023).
Bounds under unjudged documents (:mod:`irscale.collections.bounds`)
    :func:`unjudged_bounds`: the lowest and highest value of every measure when each
    unjudged retrieved document takes the lowest or the highest grade.
Plots (matplotlib) — :func:`plot_relevant_found`.

See ``docs/collections.md``.

Names are imported on first use (:func:`irscale.core.lazy.lazy_package`), so that a command
that uses one module of this package does not load the others (and scipy with them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_package

#: Public name → the module that defines it.
_EXPORTS = {
    "ADAPTIVE": ".pooling",
    "Aggregation": ".labels",
    "AutomaticJudgmentsResult": ".automatic",
    "AwareResult": ".aware",
    "Candidates": ".candidates",
    "Confusion": ".judgment_noise",
    "DESIGNS": ".sampling",
    "FIXED": ".pooling",
    "LabelAllocation": ".allocation",
    "METHODS": ".labels",
    "MeanEstimate": ".automatic",
    "PairwiseAggregation": ".pairwise",
    "Pool": ".pooling",
    "PoolingSimulation": ".simulate",
    "SHARD_METHODS": ".shards",
    "STRATEGIES": ".pooling",
    "SampledEstimates": ".sampling",
    "ShardedEvaluation": ".shards",
    "UnjudgedBounds": ".bounds",
    "WEIGHTINGS": ".aware",
    "aggregate_labels": ".labels",
    "aggregate_pairwise": ".pairwise",
    "allocate_labels": ".allocation",
    "automatic_judgments": ".automatic",
    "aware_weights": ".aware",
    "estimate_sampled": ".sampling",
    "evaluate_shards": ".shards",
    "JudgeNoise": ".judgment_noise",
    "judge_noise": ".judgment_noise",
    "judging_order": ".pooling",
    "label_agreement": ".agreement",
    "plot_relevant_found": ".plots",
    "pool": ".pooling",
    "ppi_mean": ".automatic",
    "qrels_agreement": ".agreement",
    "ranked_candidates": ".candidates",
    "relabelled_qrels": ".judgment_noise",
    "sample_judgments": ".sampling",
    "sampling_distribution": ".sampling",
    "shard_documents": ".shards",
    "simulate_pooling": ".simulate",
    "unjudged_bounds": ".bounds",
}

__all__ = ["ADAPTIVE", "DESIGNS", "FIXED", "METHODS", "SHARD_METHODS", "STRATEGIES",
           "WEIGHTINGS", "Aggregation", "AutomaticJudgmentsResult", "AwareResult", "Candidates",
           "Confusion", "JudgeNoise", "LabelAllocation", "MeanEstimate",
           "PairwiseAggregation", "Pool",
           "PoolingSimulation", "SampledEstimates", "ShardedEvaluation", "UnjudgedBounds",
           "aggregate_labels", "aggregate_pairwise", "allocate_labels",
           "automatic_judgments",
           "aware_weights", "estimate_sampled", "evaluate_shards", "judge_noise",
           "judging_order",
           "label_agreement", "plot_relevant_found", "pool", "ppi_mean", "qrels_agreement",
           "ranked_candidates", "relabelled_qrels", "sample_judgments", "sampling_distribution",
           "shard_documents", "simulate_pooling", "unjudged_bounds"]

__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from .agreement import label_agreement, qrels_agreement
    from .allocation import LabelAllocation, allocate_labels
    from .automatic import AutomaticJudgmentsResult, MeanEstimate, automatic_judgments, ppi_mean
    from .aware import WEIGHTINGS, AwareResult, aware_weights
    from .bounds import UnjudgedBounds, unjudged_bounds
    from .candidates import Candidates, ranked_candidates
    from .judgment_noise import Confusion, JudgeNoise, judge_noise, relabelled_qrels
    from .labels import METHODS, Aggregation, aggregate_labels
    from .pairwise import PairwiseAggregation, aggregate_pairwise
    from .plots import plot_relevant_found
    from .pooling import ADAPTIVE, FIXED, STRATEGIES, Pool, judging_order, pool
    from .sampling import (
        DESIGNS,
        SampledEstimates,
        estimate_sampled,
        sample_judgments,
        sampling_distribution,
    )
    from .shards import SHARD_METHODS, ShardedEvaluation, evaluate_shards, shard_documents
    from .simulate import PoolingSimulation, simulate_pooling

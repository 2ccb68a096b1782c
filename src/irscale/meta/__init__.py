"""Meta-evaluation: judging measures, test collections and significance tests.

Rank correlation (Sakai 2014, §5.2; Ferrante et al. 2021, §3.3) —
:mod:`irscale.meta.rank_correlation`
    :func:`kendall_tau` (τ_b, Ferrante et al. 2021, §3.3; from :mod:`irscale.stats.kendall`),
    :func:`tau_ap` and :func:`tau_ap_symmetric` (Sakai 2014, eq. 52), :func:`rbo` /
    :func:`rbo_scores` (rank-biased overlap), :func:`spearman`, :func:`correlation` by
    name, :func:`overall_correlation` and :func:`topic_correlations` between two
    measures, :func:`correlation_ci` (bootstrap interval), :func:`correlation_matrix`;
    :func:`d_rank` / :func:`rank_distance` (Carterette 2009, :mod:`irscale.meta.drank`),
    the distance of per-topic scores from a ranking, the systems' correlations accounted.
Discriminative power (Sakai 2014, §5.1) — :mod:`irscale.meta.discriminative`
    :func:`discriminative_power` (ASL of every pair with Sakai's paired bootstrap test or
    the randomised Tukey HSD, share below α, ASL curve, minimum significant difference),
    :func:`discriminative_power_table`, :func:`discriminative_power_spread` (Monte Carlo
    spread across seeds) and :func:`spread_summary` (its mean, sd and range).
Topic splitting (Ferro & Sanderson 2022, §3.2–3.3) — :mod:`irscale.meta.splitting`
    :func:`split_study` (AA, AD, MA, MD, Jaccard, Overlap, τ between halves, Bias; same
    and different models; fake models; subsets of runs), :func:`topic_splits`,
    :func:`swap_rates` (Voorhees & Buckley's swap method).
Simulation studies of tests — :mod:`irscale.meta.simulation`
    :func:`simulation_study` (Type I, II and III error rates with Wilson intervals over
    matrices of a :class:`NormalModel` or :class:`BootstrapModel`; checkpointed, resumable,
    on any executor).
Stochastic simulation of test collections — :mod:`irscale.meta.stochastic`,
:mod:`irscale.meta.simulated_runs`
    :func:`simulate_scores` and :class:`CopulaModel` (new topics from margins chosen by AIC
    and a Gaussian or t copula fitted to a matrix; Urbano & Nagler 2018),
    :func:`simulate_runs` and :class:`RunsModel` (runs of a given quality drawn from qrels;
    after Parapar et al. 2020, 2021); both models feed :func:`simulation_study`.
Concordance and reusability (Sakai 2014, §5.3–5.4)
    :func:`concordance_test`, :func:`concordance_table` (Fig. 17 with the sign test on
    wins); :func:`leave_one_out` (remove a contributor's unique documents, re-evaluate);
    :func:`pooling_bias` (Webber & Park 2009: the scores of runs that did not contribute to
    the pool adjusted by the contributors' mean leave-one-out error, :mod:`.pool_bias`).
Predictive power (Sanderson et al., SIGIR 2010; Sakai 2014, §5.3) —
:mod:`irscale.meta.predictive`
    :func:`predictive_power`: the share of side-by-side user preferences a measure
    predicts, with measure ties, a Δ threshold, bins of |ΔM| and a binomial test.
Informativeness (Aslam, Yilmaz & Pavlu, SIGIR 2005) — :mod:`irscale.meta.informativeness`
    :func:`informativeness` (RMS error of the precision–recall curve inferred by maximum
    entropy from a measure's value), :func:`maxent_relevance` (the distribution),
    :func:`judged_lists` (the 0/1 lists of qrels and runs).
Informativeness of diversity measures (Ashkan & Clarke, WWW 2011) —
:mod:`irscale.meta.intent_informativeness`
    :func:`intent_informativeness` (RMS error of the per-intent curves inferred from
    α-nDCG, ERR-IA, NRBP, P-IA), :func:`maxent_intent_relevance` (the distribution),
    :func:`judged_intent_lists` (the per-intent 0/1 lists of diversity qrels and runs).
Reproducibility (Breuer et al., SIGIR 2020) — :mod:`irscale.meta.reproducibility`
    :func:`reproducibility` (Effect Ratio, Delta Relative Improvement, per-topic RMSE and
    t-tests of a reproduced or replicated experiment; nRMSE, the TOST of equivalence and
    bootstrap intervals of ER and ΔRI), :func:`ranking_agreement` (Kendall's τ, RBO and
    repro_eval's KTU between the original and reproduced document orderings),
    :func:`replicability_across` (several collections pooled by random effects).
Measure versus interval-scaled measure (Ferrante et al. 2021, §7) —
:mod:`irscale.meta.scale_effects`
    :func:`scale_report` (Tables 2, 4, 5, 6 for measures and cut-offs),
    :func:`scale_effects` (the same from a matrix holding M and M_R).
Procedures — :mod:`irscale.meta.procedures`
    :func:`decide`: the pairwise decisions of a test or model of :mod:`irscale.stats`.
Plots (matplotlib) — :mod:`irscale.meta.plots`
    :func:`plot_asl_curves`, :func:`plot_measure_vs_ranked`, :func:`plot_split_metric`.

Results speak the protocol of :mod:`irscale.stats.protocol` (``statistic``, ``pvalue``,
``confidence_interval(level)`` where defined, ``to_frame()``, ``format(fmt)``); the
correlation functions that returned a float return a :class:`Correlation`, a ``float``
subclass. Random routines take ``rng`` and ``progress``.

See ``docs/meta.md`` for formulas, sources and examples.

Names are imported on first use (:func:`irscale.core.lazy.lazy_package`), so that a command
that uses one module of this package does not load the others (and scipy with them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_package

#: Public name → the module that defines it.
_EXPORTS = {
    "BootstrapModel": ".simulation",
    "Concordance": ".concordance",
    "CopulaModel": ".stochastic",
    "Correlation": ".rank_correlation",
    "CorrelationCI": ".rank_correlation",
    "DRank": ".drank",
    "Decisions": ".procedures",
    "DiscriminativePower": ".discriminative",
    "Informativeness": ".informativeness",
    "KendallTau": ".rank_correlation",
    "LeaveOneOut": ".loo",
    "NormalModel": ".simulation",
    "PoolingBias": ".pool_bias",
    "PredictivePower": ".predictive",
    "RBO": ".rank_correlation",
    "RankingAgreement": ".reproducibility",
    "Reproducibility": ".reproducibility",
    "RunsModel": ".simulated_runs",
    "SCALE_PAPER_TESTS": ".procedures",
    "ScaleEffects": ".scale_effects",
    "ScaleReport": ".scale_effects",
    "SimulatedRuns": ".simulated_runs",
    "SimulatedScores": ".stochastic",
    "SimulationStudy": ".simulation",
    "SplitStudy": ".splitting",
    "SwapRates": ".splitting",
    "TopicSplits": ".splitting",
    "concordance_table": ".concordance",
    "concordance_test": ".concordance",
    "contributors_by_prefix": ".loo",
    "correlation": ".rank_correlation",
    "correlation_ci": ".rank_correlation",
    "correlation_matrix": ".rank_correlation",
    "d_rank": ".drank",
    "decide": ".procedures",
    "discriminative_power": ".discriminative",
    "discriminative_power_spread": ".discriminative",
    "discriminative_power_table": ".discriminative",
    "informativeness": ".informativeness",
    "intent_informativeness": ".intent_informativeness",
    "judged_intent_lists": ".intent_informativeness",
    "judged_lists": ".informativeness",
    "kendall_tau": ".rank_correlation",
    "leave_one_out": ".loo",
    "maxent_intent_relevance": ".intent_informativeness",
    "maxent_relevance": ".informativeness",
    "overall_correlation": ".rank_correlation",
    "plot_asl_curves": ".plots",
    "plot_measure_vs_ranked": ".plots",
    "plot_split_metric": ".plots",
    "pool_contributions": ".loo",
    "pooling_bias": ".pool_bias",
    "predictive_power": ".predictive",
    "rank_distance": ".drank",
    "ranking_agreement": ".reproducibility",
    "ktau_union": ".reproducibility",
    "replicability_across": ".reproducibility",
    "rbo": ".rank_correlation",
    "rbo_scores": ".rank_correlation",
    "reproducibility": ".reproducibility",
    "scale_effects": ".scale_effects",
    "scale_report": ".scale_effects",
    "simulate_runs": ".simulated_runs",
    "simulate_scores": ".stochastic",
    "simulation_study": ".simulation",
    "spearman": ".rank_correlation",
    "split_study": ".splitting",
    "spread_summary": ".discriminative",
    "swap_rates": ".splitting",
    "tau_ap": ".rank_correlation",
    "tau_ap_symmetric": ".rank_correlation",
    "topic_correlations": ".rank_correlation",
    "topic_splits": ".splitting",
}

__all__ = [
    "RBO",
    "SCALE_PAPER_TESTS",
    "BootstrapModel",
    "Concordance",
    "CopulaModel",
    "Correlation",
    "CorrelationCI",
    "DRank",
    "Decisions",
    "DiscriminativePower",
    "Informativeness",
    "KendallTau",
    "LeaveOneOut",
    "NormalModel",
    "PoolingBias",
    "PredictivePower",
    "RankingAgreement",
    "Reproducibility",
    "RunsModel",
    "ScaleEffects",
    "ScaleReport",
    "SimulatedRuns",
    "SimulatedScores",
    "SimulationStudy",
    "SplitStudy",
    "SwapRates",
    "TopicSplits",
    "concordance_table",
    "concordance_test",
    "contributors_by_prefix",
    "correlation",
    "correlation_ci",
    "correlation_matrix",
    "d_rank",
    "decide",
    "discriminative_power",
    "discriminative_power_spread",
    "discriminative_power_table",
    "informativeness",
    "intent_informativeness",
    "judged_intent_lists",
    "judged_lists",
    "kendall_tau",
    "ktau_union",
    "leave_one_out",
    "maxent_intent_relevance",
    "maxent_relevance",
    "overall_correlation",
    "plot_asl_curves",
    "plot_measure_vs_ranked",
    "plot_split_metric",
    "pool_contributions",
    "pooling_bias",
    "predictive_power",
    "rank_distance",
    "ranking_agreement",
    "rbo",
    "rbo_scores",
    "replicability_across",
    "reproducibility",
    "scale_effects",
    "scale_report",
    "simulate_runs",
    "simulate_scores",
    "simulation_study",
    "spearman",
    "split_study",
    "spread_summary",
    "swap_rates",
    "tau_ap",
    "tau_ap_symmetric",
    "topic_correlations",
    "topic_splits",
]

__getattr__, __dir__ = lazy_package(
    __name__, _EXPORTS, shadowed={"informativeness", "intent_informativeness", "reproducibility",
                               "scale_effects"})

if TYPE_CHECKING:  # pragma: no cover
    from .concordance import Concordance, concordance_table, concordance_test
    from .discriminative import (
        DiscriminativePower,
        discriminative_power,
        discriminative_power_spread,
        discriminative_power_table,
        spread_summary,
    )
    from .drank import DRank, d_rank, rank_distance
    from .informativeness import (
        Informativeness,
        informativeness,
        judged_lists,
        maxent_relevance,
    )
    from .intent_informativeness import (
        intent_informativeness,
        judged_intent_lists,
        maxent_intent_relevance,
    )
    from .loo import LeaveOneOut, contributors_by_prefix, leave_one_out, pool_contributions
    from .plots import plot_asl_curves, plot_measure_vs_ranked, plot_split_metric
    from .pool_bias import PoolingBias, pooling_bias
    from .predictive import PredictivePower, predictive_power
    from .procedures import SCALE_PAPER_TESTS, Decisions, decide
    from .rank_correlation import (
        RBO,
        Correlation,
        CorrelationCI,
        KendallTau,
        correlation,
        correlation_ci,
        correlation_matrix,
        kendall_tau,
        overall_correlation,
        rbo,
        rbo_scores,
        spearman,
        tau_ap,
        tau_ap_symmetric,
        topic_correlations,
    )
    from .reproducibility import (
        RankingAgreement,
        Reproducibility,
        ktau_union,
        ranking_agreement,
        replicability_across,
        reproducibility,
    )
    from .scale_effects import ScaleEffects, ScaleReport, scale_effects, scale_report
    from .simulated_runs import RunsModel, SimulatedRuns, simulate_runs
    from .simulation import BootstrapModel, NormalModel, SimulationStudy, simulation_study
    from .splitting import SplitStudy, SwapRates, TopicSplits, split_study, swap_rates, topic_splits
    from .stochastic import CopulaModel, SimulatedScores, simulate_scores

"""The bindings of the statistics' public functions, declared once beside their parameters.

Each :class:`~irscale.core.binding.Binding` names the parameters a function checks on entry
(their domains: :mod:`irscale.stats.names` and :mod:`irscale.core.params`) and the rules of
when they apply; the function's module applies it as its decorator, and a command that
calls the function builds its rules from it (``add_command(..., binding=...)``), so that
the API and the command line refuse the same calls. Like :mod:`irscale.stats.names`, this
module imports nothing numerical: the command line reads it before numpy.
"""

from __future__ import annotations

from ..core.binding import Binding
from ..core.params import (
    INTERVAL_SAMPLES,
    MEMORY_LIMIT,
    RESAMPLES,
    SIGNIFICANCE,
    Cost,
    Needs,
    Param,
)
from .names import ANOVA_TRANSFORM, FAMILY, MIXED_METHOD, RESAMPLE, SHARD_EMPTY, WEIGHTS

#: :func:`irscale.stats.mixed_model` (``irscale compare --test mixed``): the estimator
#: applies to the linear mixed model. The binomial GLMM has one, maximum likelihood
#: (adaptive Gauss–Hermite quadrature: :mod:`irscale.stats._glmm`; REML, which removes the
#: fixed effects from a Gaussian likelihood, has no counterpart for it: lme4's ``glmer``
#: takes no ``REML``, statsmodels' ``BinomialBayesMixedGLM`` no ``method``), so ``method``
#: is refused with ``family="binomial"`` whatever its value, as ``--method`` is.
MIXED = Binding(
    (FAMILY, MIXED_METHOD, SIGNIFICANCE),
    rules=(Needs((MIXED_METHOD,), "the linear mixed model (the binomial GLMM is fit by "
                 "maximum likelihood only)", on=FAMILY, values=("gaussian",)),))

#: The bootstrap samples B of :func:`irscale.stats.bootstrap_anova` (two at least: its
#: intervals and standard errors).
BOOTSTRAP_ANOVA_SAMPLES = Param(
    "samples", INTERVAL_SAMPLES, 1000, "--test bootstrap-anova: bootstrap samples B",
    ("-B", "--samples"), "B",
    cost=Cost("samples", per="a resample of the replicated scores and its two ANOVA fits "
              "(the data's and the null's)"))
#: :func:`irscale.stats.bootstrap_anova` (``irscale compare --test bootstrap-anova``).
BOOTSTRAP_ANOVA = Binding((RESAMPLE, BOOTSTRAP_ANOVA_SAMPLES, SIGNIFICANCE, SHARD_EMPTY))

#: The document bootstrap samples of :func:`irscale.stats.document_sampling.document_variance`
#: (two at least: a variance).
DOCUMENT_SAMPLES = Param(
    "samples", INTERVAL_SAMPLES, 1000, "--test document-sampling: bootstrap samples of "
    "each topic's documents", ("-B", "--samples"), "B",
    cost=Cost("samples", per="a Poisson resample of every topic's documents, both runs "
              "scored on it"))
#: :func:`irscale.stats.document_sampling.document_variance` (``irscale compare --test
#: document-sampling``).
DOCUMENT_VARIANCE = Binding((DOCUMENT_SAMPLES,))

#: :func:`irscale.stats.shard_anova` (``irscale pool shards``, ``ShardedEvaluation.anova``).
SHARD_ANOVA = Binding((SHARD_EMPTY, ANOVA_TRANSFORM))

#: :func:`irscale.stats.across_collections.across_collections` (``irscale compare
#: --collection``): the level, the stratified bootstrap's samples, the collections'
#: weights and the memory limit.
ACROSS_COLLECTIONS = Binding((SIGNIFICANCE, RESAMPLES, WEIGHTS, MEMORY_LIMIT))

"""Measures: the registry, the name parser, and every family (trec_eval's and ours).

Importing this package registers trec_eval's families (:mod:`irscale.measures.trec`) and the
families of the papers' catalogue (one module per family group: dcg, graded, cascade, rbp,
precision_recall, generalized, condensed, coverage, tbg, umeasure, markov, click_models,
order_measures, multi_aspect). The diversity families have their own registry, filled when
:mod:`irscale.measures.diversity` is imported (by the diversity evaluation, never by an
evaluation of trec_eval's measures).
"""

from . import (  # noqa: F401  (importing a module registers its families)
    cascade,
    click_models,
    condensed,
    coverage,
    dcg,
    generalized,
    graded,
    markov,
    multi_aspect,
    order_measures,
    precision_recall,
    rbp,
    tbg,
    trec,
    umeasure,
)
from .base import REGISTRY, EvalContext, Family, MeasureRequest, get_family, register

__all__ = ["REGISTRY", "EvalContext", "Family", "MeasureRequest", "get_family", "register"]

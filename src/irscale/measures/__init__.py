"""Measures: the one catalogue, the name parser, and every family (trec_eval's and ours).

The catalogue (:data:`~irscale.measures.base.CATALOGUE`) holds every measure family by the
context it needs (:data:`irscale.core.contexts.CONTEXTS`, each declared once in
:mod:`irscale.measures.contexts`): judged rankings, per-intent judgments, sessions, texts
and nuggets. trec_eval's families (:mod:`irscale.measures.trec`, computed by the engine,
numpy-free until they compute) are registered by the name parser
(:mod:`irscale.measures.names`) and the catalogue; those of judged rankings from the
literature (one module per family group: dcg, graded, cascade, rbp, precision_recall,
generalized, condensed, rpref, coverage, tbg, umeasure, markov, click_models,
order_measures, multi_aspect, ncu, wrr, sliding_ratio, graded_ap, pr_curve, adm) and the
families of sessions, texts and nuggets (sessions, rouge, nuggets: declared here, computed
by :mod:`irscale.text`) are registered the first time a name or a listing needs them
(:func:`~irscale.measures.base.load_catalogue`). The families of per-intent judgments are
registered when :mod:`irscale.measures.diversity` is imported (by the diversity evaluation
and by :func:`catalogue`, never by an evaluation of trec_eval's measures), those of
stochastic rankings (fairness and exposure) when :mod:`irscale.measures.fairness` is.
:mod:`irscale.measures.carterette` describes measures by Carterette's three components
(browsing model, document utility, utility accumulation) and recomputes them from those.
"""

from ..core.lazy import lazy_package

#: Public name → the module that defines it, imported on first use: a module of this package
#: (the name parser, the plan of trec_eval's measures) loads only what it reads.
_EXPORTS = {
    "CATALOGUE": ".base",
    "REGISTRY": ".base",
    "EvalContext": ".base",
    "Family": ".base",
    "MeasureRequest": ".base",
    "catalogue": ".listing",
    "declare": ".base",
    "get_family": ".base",
    "register": ".base",
}

__all__ = ["CATALOGUE", "REGISTRY", "EvalContext", "Family", "MeasureRequest", "catalogue",
           "declare", "get_family", "register"]

# The API's edge (irscale.core.edge) is applied by lazy_package to each name it imports.
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from .base import (
        CATALOGUE,
        REGISTRY,
        EvalContext,
        Family,
        MeasureRequest,
        declare,
        get_family,
        register,
    )
    from .listing import catalogue

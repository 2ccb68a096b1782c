"""trec_eval 9.0.8's measures (the ``all_trec`` set), one module per family group.

Importing a module of this package registers its families in
:data:`irscale.measures.base.REGISTRY`; the package itself imports none of them, so that
reading one family (``-m map``) loads its module alone (the catalogue finds it by the
manifest, :data:`irscale._manifest.TREC_FAMILIES`). :func:`register_all` registers every
family, in the order of :data:`MODULES` (the catalogue's order, ``all_trec``'s).
"""

import importlib

#: The modules of trec_eval's families, in the order they register them.
MODULES = ("average_precision", "bpref", "counts", "gain_g", "interpolated", "ndcg",
           "ndcg_averaged", "precision", "rbp", "recall", "reciprocal_rank", "relstring",
           "set_measures", "unjudged")


def register_all() -> None:
    """Register every family of trec_eval's (import every module of :data:`MODULES`)."""
    for module in MODULES:
        importlib.import_module(f"{__name__}.{module}")

"""trec_eval 9.0.8's measures (the ``all_trec`` set), one module per family group.

Importing this package registers every family in :data:`irscale.measures.base.REGISTRY`.
"""

from . import (  # noqa: F401
    average_precision,
    bpref,
    counts,
    gain_g,
    interpolated,
    ndcg,
    ndcg_averaged,
    precision,
    rbp,
    recall,
    reciprocal_rank,
    relstring,
    set_measures,
    unjudged,
)

"""trec_eval 9.0.8's measures (the ``all_trec`` set), one module per family group.

Importing this package registers every family in :data:`irscale.measures.base.REGISTRY`.
"""

from . import counts, precision, average_precision  # noqa: F401

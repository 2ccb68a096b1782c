"""The pyramid scores of summaries: names, formulas (Nenkova & Passonneau 2004; Nenkova,
Passonneau & McKeown 2007).

Declared here, in the one catalogue under the context ``pyramids``; computed by
:func:`irscale.evaluation.pyramids.evaluate_pyramid`, whose module documentation states the
definitions in full: a peer expressing X SCUs of total weight D, Max(X) the weight of the
best X SCUs of the topic's pyramid, X̄ the average number of SCUs of a reference summary.
"""

from __future__ import annotations

from .base import Family, declare
from .params import Keywords

_SOURCE = "Nenkova & Passonneau 2004; Nenkova, Passonneau & McKeown 2007"

declare(Family("pyramid", None, Keywords(), "Original pyramid score: the weight of the "
               "peer's SCUs over the best weight of as many SCUs.", context="pyramids",
               cutoff="none", formula="D / Max(X)", source=_SOURCE))
declare(Family("pyramid_modified", None, Keywords(), "Modified pyramid score: the weight "
               "of the peer's SCUs over the best weight of an average reference's SCU "
               "count (may exceed 1).", context="pyramids", cutoff="none",
               formula="D / Max(X̄), X̄ = Σ weights / number of references", source=_SOURCE))

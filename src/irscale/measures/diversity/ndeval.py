"""ndeval's novelty and diversity measures (TREC Web track 2009–2014, ndeval 4.5).

Every measure is intent-aware over the topic's S intents that have a relevant document
(ndeval's ``actualSubtopics``); a document relevant to intent j adds the gain
``(1 − α)^{c_j}``, c_j being the number of documents relevant to j ranked above it
(Clarke et al., SIGIR 2008). With ``score_i`` = Σ_j of these gains at rank i (intents added
in index order) and ``disc(i) = log 2 / log(i + 1)`` (1 at rank 1):

* ``alpha-DCG@k`` = Σ_{i≤k} score_i·disc(i) / Σ_{i≤k} S(1 − α)^{i−1}·disc(i) (ndeval's
  "ideal ideal", collection-independent normalisation);
* ``ERR-IA@k`` = Σ_{i≤k} score_i / i / Σ_{i≤k} S(1 − α)^{i−1} / i (Chapelle et al., CIKM
  2009, as ndeval computes it; at k = 1 ndeval leaves the sum unnormalised);
* ``alpha-nDCG@k``, ``nERR-IA@k``: the same divided by its value on ndeval's greedy ideal
  ranking (:func:`~irscale.measures.diversity.rankings.ideal_rankings`), 0 when the run's
  value is 0;
* ``NRBP`` = (1 − (1 − α)β)/S · Σ_i score_i·β^{i−1} over the whole ranking (Clarke et al.,
  ICTIR 2009); ``nNRBP`` = NRBP / NRBP of the ideal ranking (0/0 = NaN, printed ``-nan``,
  for a topic without relevant documents, as ndeval prints it);
* ``MAP-IA`` = (1/S) Σ_j AP_j, AP_j the average precision of intent j alone;
* ``P-IA@k`` = Σ_j |relevant to j in top k| / (k·S); ``strec@k`` = |intents covered in top
  k| / S (subtopic recall).

A topic without relevant documents (S = 0) scores 0 on all but nNRBP. The engine computes
them (``rust/src/diversity/``: ``cascade``, ``nrbp``, ``intent_counts``; called through
:mod:`irscale.core.diversity_kernels`), every ranking on its own: powers of (1 − α) and β
come from repeated multiplication and sums are made in ndeval's order (ranks in order,
intents in index order), so values are ndeval's doubles.
"""

from __future__ import annotations

import numpy as np

from ...core.diversity_kernels import ndeval_family
from .context import DiversityContext

#: The families divided by their value on the greedy ideal ranking.
NORMALISED = frozenset({"alpha-nDCG", "nERR-IA", "nNRBP"})


def ndeval_values(ctx: DiversityContext, family: str, k: int | None = None,
                  alpha: float = 0.5, beta: float = 0.5) -> np.ndarray:
    """Per ranking of the context: ndeval's ``family`` (``alpha-DCG``, ``alpha-nDCG``,
    ``ERR-IA``, ``nERR-IA``, ``NRBP``, ``nNRBP``, ``MAP-IA``, ``P-IA``, ``strec``) at
    cut-off ``k`` (``strec`` without a cut-off: the whole ranking), with ``alpha`` and
    ``beta`` (memoised per context)."""
    ideal = ctx.ideal(alpha) if family in NORMALISED else None
    return ctx.memo(f"ndeval:{family}:{k}:{alpha!r}:{beta!r}", lambda: ndeval_family(
        family, ctx.run, cutoff=k, alpha=alpha, beta=beta, ideal=ideal))

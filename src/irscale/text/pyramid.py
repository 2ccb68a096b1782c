"""Pyramid scores of peer summaries from semantic content units (SCUs): Nenkova &
Passonneau 2004; Nenkova, Passonneau & McKeown 2007 (Sakai 2014, §3.3, mentions them
among ROUGE's hand-made alternatives).

A topic's pyramid holds its SCUs, each weighted by the number of reference (model)
summaries expressing it: tier T_i holds the SCUs of weight i (i = 1..n, n reference
summaries). A peer summary expressing X distinct SCUs, D_i of them in tier T_i (an SCU
of weight 0, in no reference, counts in X only), has the weight D = Σ_i i·D_i, and the
best summary of X SCUs the weight

    Max(X) = Σ_{i=j+1}^{n} i·|T_i| + j·(X − Σ_{i=j+1}^{n} |T_i|),
    j = max {i : Σ_{t=i}^{n} |T_t| ≥ X}

(the X largest weights of the pyramid added up; all of them, the rest weighing 0, if the
pyramid has fewer than X SCUs of weight ≥ 1). Measures:

* ``pyramid`` (the original score, 2004): D / Max(X), X the peer's SCU count;
* ``pyramid_modified`` (2007, used at DUC 2005–2006): D / Max(X̄), X̄ the average number
  of SCUs in a reference summary: Σ weights / n (each reference counts each SCU it
  expresses once). X̄ need not be whole: Max then adds the share X̄ − ⌊X̄⌋ of the
  (⌊X̄⌋ + 1)-th largest weight, as the formula above does with j·(X − ...). It may
  exceed 1 (a peer richer in content than an average reference); it needs the
  references, so a topic given by weights (not contributor lists) has none.

A peer expressing no SCU scores 0 (D = 0 and Max(0) = 0).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

PYRAMID_MEASURES = ("pyramid", "pyramid_modified")
#: What ``measures`` may be (the start of the error otherwise).
PYRAMID_EXPECTED = 'measures must be "pyramid", "pyramid_modified" or a list of them'


def best_weight(weights: Iterable[float], x: float) -> float:
    """Max(x): the weight of the best summary of ``x`` SCUs of a pyramid whose SCUs have
    ``weights`` (module documentation; ``x`` ≥ 0 need not be whole).

    >>> best_weight([3, 2, 2, 1, 1, 1], 4), best_weight([3, 2, 2, 1], 2.5)
    (8.0, 6.0)
    """
    ranked = np.sort(np.asarray(list(weights), dtype=np.float64))[::-1]
    whole = int(np.floor(x))
    total = float(ranked[:whole].sum())
    if whole < len(ranked):
        total += (x - whole) * float(ranked[whole])
    return total

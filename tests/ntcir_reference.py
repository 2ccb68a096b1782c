"""A plain, one-topic-at-a-time model of NTCIREVAL's ``ntcir_eval compute`` (version
190111), written from its documented definitions (README, README.adhoc) to test irscale's
vectorised kernels against: one Python loop over the labelled ranked list, as the C program
runs it. Not NTCIREVAL's code.

Inputs: the relevance level of every document of the labelled list (``None``: unjudged),
the number of judged documents per level (``xrel[0]`` judged non-relevant), the gains of
levels 1..c (``-g``), β (``-beta``, default 1), log base (``-logb``, 2), RBP persistence
(``-rbp``, 0.95) and the cut-offs. Output: NTCIREVAL's measure names → values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def ntcir_compute(levels: Sequence[int | None], xrel: Sequence[int], gains: Sequence[float],
                  cutoffs: Sequence[int] = (1000,), beta: float = 1.0, logb: float = 2.0,
                  rbp_p: float = 0.95) -> dict[str, float]:
    gv = [0.0, *gains]
    maxrl = len(gains)
    hgain = gv[maxrl]
    jrel = sum(xrel[1:])
    syslen = len(levels)
    maxlen = max(jrel, syslen)

    def jk_log(i: int) -> float:
        return 1.0 if i == 1 or i <= logb else math.log(i) / math.log(logb)

    # ideal list: relevant documents by decreasing level
    ideal = [gv[level] for level in range(maxrl, 0, -1) for _ in range(xrel[level])]
    cgi, dcgi, msdcgi, erri = [0.0], [0.0], [0.0], [0.0]
    dsat_i = 1.0
    for i in range(1, maxlen + 1):
        g = ideal[i - 1] if i <= jrel else 0.0
        cgi.append(cgi[-1] + g)
        dcgi.append(dcgi[-1] + g / jk_log(i))
        msdcgi.append(msdcgi[-1] + g / math.log(i + 1))
        erri.append(erri[-1] + (dsat_i / i) * (g / (hgain + 1)))
        dsat_i *= 1 - g / (hgain + 1)

    count, cgs, dcgs, msdcgs, err, rbp = [0], [0.0], [0.0], [0.0], [0.0], [0.0]
    gs, br = [0.0], [0.0]
    power, dsat = 1.0, 1.0
    r1 = rp = 0
    best_level = 0
    for i in range(1, maxlen + 1):
        level = levels[i - 1] if i <= syslen else None
        g = gv[level] if level is not None and level > 0 else 0.0
        relevant = level is not None and level > 0
        count.append(count[-1] + (1 if relevant else 0))
        gs.append(g)
        cgs.append(cgs[-1] + g)
        dcgs.append(dcgs[-1] + g / jk_log(i))
        msdcgs.append(msdcgs[-1] + g / math.log(i + 1))
        if relevant and count[-1] == 1:
            r1 = i
        if relevant and level > best_level:
            best_level, rp = level, i
        br.append((beta * cgs[i] + count[i]) / (beta * cgi[i] + i))
        if i > 1:
            power *= rbp_p
        rbp.append(rbp[-1] + g * power)
        err.append(err[-1] + (dsat / i) * (g / (hgain + 1)))
        dsat *= 1 - g / (hgain + 1)

    out: dict[str, float] = {}
    out["RR"] = 1 / r1 if r1 else 0.0
    out["O-measure"] = br[r1] if r1 else 0.0
    out["P-measure"] = br[rp] if r1 else 0.0
    out["P-plus"] = (sum(br[i] for i in range(1, rp + 1) if gs[i] > 0) / count[rp]
                     if r1 else 0.0)
    ap_terms = [count[i] / i for i in range(1, syslen + 1) if gs[i] > 0]
    q_terms = [br[i] for i in range(1, syslen + 1) if gs[i] > 0]
    out["AP"] = sum(ap_terms) / jrel
    out["Q-measure"] = sum(q_terms) / jrel
    out["RBP"] = (1 - rbp_p) * rbp[syslen] / hgain
    out["ERR"] = err[syslen]
    for cutoff in cutoffs:
        minlen = min(cutoff, syslen)
        ap = sum(count[j] / j for j in range(1, minlen + 1) if gs[j] > 0)
        q = sum(br[j] for j in range(1, minlen + 1) if gs[j] > 0)
        out[f"AP@{cutoff}"] = ap / min(cutoff, jrel)
        out[f"Q@{cutoff}"] = q / min(cutoff, jrel)
        at = min(cutoff, maxlen)
        out[f"nDCG@{cutoff}"] = dcgs[at] / dcgi[at]
        out[f"MSnDCG@{cutoff}"] = msdcgs[at] / msdcgi[at]
        out[f"P@{cutoff}"] = count[at] / cutoff
        out[f"RBP@{cutoff}"] = (1 - rbp_p) * rbp[at] / hgain
        out[f"ERR@{cutoff}"] = err[at]
        out[f"nERR@{cutoff}"] = err[at] / erri[at]
        out[f"Hit@{cutoff}"] = 1.0 if count[at] > 0 else 0.0
    return out

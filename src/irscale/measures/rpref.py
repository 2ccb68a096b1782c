"""rpref: the graded-relevance generalisations of bpref of De Beer and Moens ("Rpref: a
generalization of bpref towards graded relevance judgments", SIGIR 2006, pp. 637–638), with
Sakai's fix ("Alternatives to bpref", SIGIR 2007, pp. 71–78).

Sources. De Beer and Moens (§2.1) count *misplaced* documents: bpref's judged non-relevant
documents ranked above a relevant one become, for rpref, "weighted counts of judged less
relevant documents that are ranked higher than judged more relevant documents". Sakai
(2014, §2.2) says rpref has two forms, "one of them is similar to bpref_N and therefore
suffers from the same problem; the other has a minor flaw, which can be fixed" (Sakai 2007).
The formulas below are those of NTCIREVAL (``ntcir_eval compute -j`` / ``gcompute -j``,
Sakai's tool, which prints ``rpref_N``, ``rpref_relative`` and the fixed
``rpref_relative2``); the formula section of De Beer and Moens' paper was not at hand, so
the names and the weighting are NTCIREVAL's reading of it.

On the condensed list (unjudged documents removed, as trec_eval's bpref ignores them;
:meth:`JudgedRankings.condensed`), with r the condensed rank, g(r) the gain of its document
(``gain=``, 0 for a judged non-relevant document), the *penalty* of a document is its
misplaced documents, each weighted by how much less relevant it is::

    penalty(r) = Σ_{i < r, g(i) < g(r)} (g(r) − g(i)) / g(r)

(a judged non-relevant document above weighs 1, as in bpref). With CG = Σ g over the topic's
judged documents (the ideal cumulative gain at rank R), J its judged documents and gmax the
gain of the highest degree of the scale (as NTCIREVAL's ``compute``: ``gv[maxrl]``)::

    rpref_N         = (1/CG) Σ_r g(r) (1 − penalty(r) / (J − CG/gmax))
    rpref_relative  = (1/CG) Σ_{r > 1} g(r) (1 − penalty(r) / (r − 1))
    rpref_relative2 = (1/CG) Σ_r g(r) (1 − penalty(r) / r)

J − CG/gmax = Σ_{judged d} (1 − g(d)/gmax) is the largest penalty a document of gain gmax
can collect (R + N − CG/gmax in NTCIREVAL; N with binary relevance). rpref_relative divides
by the documents above r, so a relevant document at rank 1 (r − 1 = 0) adds nothing: the
minor flaw; rpref_relative2 divides by r and credits it in full (Sakai's fix).

With binary relevance (degrees 0/1, or ``gain=binary``) the penalty is the number of judged
non-relevant documents above, n(r), and CG = R: rpref_N is bpref_N (Sakai 2014, eq. 23;
trec_eval's bpref when R ≥ N), rpref_relative2 is (1/R) Σ_r I(r)·C(r)/r, AP on the condensed
list (AP′, eq. 21), and rpref_relative is NTCIREVAL's bpref_relative (1/R) Σ_{r>1} I(r)
(1 − n(r)/(r − 1)). Every term lies in [0, g(r)], so each measure lies in [0, 1]. 0 when
the topic has no relevant document; with J − CG/gmax = 0 (every judged document of gain
gmax) no document is ever misplaced and every term of rpref_N is g(r), as bpref_N's with
N = 0 (NTCIREVAL refuses topics without judged non-relevant documents).
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import memo
from .arrays import safe_divide
from .base import EvalContext, register
from .gain_discount import (
    MAXREL,
    MAXREL_CHECK,
    GainMap,
    degree_gains,
    element_gains,
    gain_keyword,
    max_gain,
)
from .params import Keywords, Params
from .trec._segments import running_sum


def misplaced_penalties(jr: JudgedRankings, gain: GainMap, maxrel: int | None,
                        family: str) -> tuple[JudgedRankings, np.ndarray, np.ndarray]:
    """The condensed rankings, the gain of each of their documents and its penalty
    Σ_{i < r, g(i) < g(r)} (g(r) − g(i)) / g(r) (0 for a document of gain 0); cached per
    batch, gains and ``maxrel``, so the three rpref families share them."""

    def compute() -> tuple[JudgedRankings, np.ndarray, np.ndarray]:
        condensed = jr.condensed()
        gains = element_gains(condensed, gain, maxrel, family)
        penalty = np.zeros(len(gains))
        # One running sum per distinct positive gain v: Σ (v − g(i)) over the documents of
        # lower gain up to each document (a document of gain v adds 0 to its own sum).
        for value in np.unique(gains[gains > 0]):
            shortfall = np.where(gains < value, value - gains, 0.0)
            at = gains == value
            penalty[at] = running_sum(condensed, shortfall)[at] / value
        return condensed, gains, penalty

    return memo(jr, f"rpref:{gain}:{maxrel}", compute)


def _rpref(jr: JudgedRankings, params: Params, family: str, divisor: str) -> np.ndarray:
    gain, maxrel = params["gain"], params.get("maxrel")
    condensed, gains, penalty = misplaced_penalties(jr, gain, maxrel, family)
    column_gains = degree_gains(jr, gain, jr.column_degrees, family)  # of each judged degree
    total = jr.rel_levels @ column_gains  # CG: the gains of the topic's judged documents
    rank = condensed.rank.astype(np.float64)
    if divisor == "N":
        gmax = max_gain(jr, gain, maxrel, family)
        if gmax <= 0:  # no degree gains anything
            return np.zeros(jr.n_rankings)
        most = jr.rel_levels @ (1.0 - column_gains / gmax)  # J − CG/gmax, each term ≥ 0
        ratio = 1.0 - safe_divide(penalty, np.repeat(most, condensed.lengths))
    elif divisor == "relative":
        ratio = np.where(rank > 1, 1.0 - safe_divide(penalty, rank - 1.0), 0.0)
    else:
        ratio = 1.0 - penalty / rank
    return safe_divide(condensed.segment_sum(gains * ratio), total)


#: rpref_N depends on gmax (``maxrel``); the relative forms do not.
_PARAMS_N = Keywords(gain=gain_keyword("linear"), maxrel=MAXREL).checked(MAXREL_CHECK)
_PARAMS_RELATIVE = Keywords(gain=gain_keyword("linear"))
_SOURCE = "De Beer & Moens 2006; Sakai 2007; NTCIREVAL"


@register(
    "rpref_N",
    doc="rpref_N: bpref_N with graded relevance: each relevant document of the condensed "
    "list gains g(r)·(1 − penalty/(J − CG/gmax)), the penalty weighting every less relevant "
    "document above by (g(r) − g(i))/g(r) (De Beer & Moens 2006; NTCIREVAL).",
    params=_PARAMS_N,
    missing_value=0.0,
    formula="(1/CG) Σ_r g(r) (1 − penalty(r)/(J − CG/gmax)), penalty(r) = Σ_{i<r, g(i)<g(r)} "
            "(g(r) − g(i))/g(r), on the condensed list",
    source=_SOURCE,
)
def rpref_n(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"rpref_N": _rpref(jr, params, "rpref_N", "N")}


@register(
    "rpref_relative",
    doc="rpref_relative: the penalty of each relevant document of the condensed list "
    "relative to the r − 1 documents above it; a relevant document at rank 1 adds nothing "
    "(the flaw Sakai 2007 fixes: rpref_relative2) (De Beer & Moens 2006; NTCIREVAL).",
    params=_PARAMS_RELATIVE,
    missing_value=0.0,
    formula="(1/CG) Σ_{r>1} g(r) (1 − penalty(r)/(r − 1)), on the condensed list",
    source=_SOURCE,
)
def rpref_relative(jr: JudgedRankings, params: Params,
                   ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"rpref_relative": _rpref(jr, params, "rpref_relative", "relative")}


@register(
    "rpref_relative2",
    doc="rpref_relative2: rpref_relative fixed (Sakai 2007): the penalty divided by the rank "
    "r, so a relevant document at rank 1 counts in full; AP′ with binary relevance "
    "(NTCIREVAL).",
    params=_PARAMS_RELATIVE,
    missing_value=0.0,
    formula="(1/CG) Σ_r g(r) (1 − penalty(r)/r), on the condensed list",
    source=_SOURCE,
)
def rpref_relative2(jr: JudgedRankings, params: Params,
                    ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"rpref_relative2": _rpref(jr, params, "rpref_relative2", "relative2")}

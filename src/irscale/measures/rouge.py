"""The ROUGE families of texts: names, parameters, formulas (Lin 2004).

Declared here, in the one catalogue under the context ``texts``; computed by
the kernels of :mod:`irscale.text.rouge` (runner:
:func:`irscale.evaluation.rouge.evaluate_rouge`), whose module documentation states each
definition in full. A name may carry a parameter after the family's stem: ``ROUGE-2``
(n = 2), ``ROUGE-SU4`` (skip = 4), ``ROUGE-S*`` (skip = inf).
"""

from __future__ import annotations

import math

from .base import Family, declare
from .params import Keyword, Keywords, choice, integer, number, states

_STAT = Keyword(choice("f", "p", "r"), "f", "f: F_β, p: precision, r: recall")
_BETA = Keyword(number(low=0.0, open_low=True), 1.0, "β of F_β")


@states("whole number ≥ 0, or inf (*)")
def skip_distance(text: str) -> float:
    """A skip distance: ``inf`` or ``*``, or a whole number ≥ 0 (one of 2^53 or more, more
    tokens than any text has, counts the same pairs as ``inf``)."""
    if text.lower() in ("inf", "*"):
        return math.inf
    if not (text.isascii() and text.isdigit()):
        raise ValueError("a whole number ≥ 0, or inf")
    return float(int(text)) if int(text) < 2**53 else math.inf

_SKIP = Keyword(skip_distance, math.inf, "most tokens between the two of a skip bigram "
                "(inf: any)")
_F = "F_β = (1 + β²)·P·R / (β²·P + R)"


def _rouge(name: str, params: Keywords, doc: str, formula: str,
           suffix: tuple[str, str] | None = None) -> None:
    declare(Family(name, None, params, doc, context="texts", cutoff="none",
                   formula=formula, source="Lin 2004", suffix=suffix))


_rouge("ROUGE-N", Keywords(n=Keyword(integer(low=1, high=2**31 - 1), 1,
                                     "n of the n-grams (written after ROUGE-: ROUGE-2)"),
                           stat=_STAT, beta=_BETA),
       "n-gram co-occurrence of a candidate s and a reference s*.",
       f"{_F}, R = Σ_e min(#(e, s), #(e, s*)) / Σ_e #(e, s*), P the same over #(e, s)",
       suffix=("ROUGE-", "n"))
_rouge("ROUGE-L", Keywords(stat=_STAT, beta=_BETA),
       "Longest common subsequence of the two token sequences (whole texts).",
       f"{_F}, R = LCS(s, s*) / |s*|, P = LCS(s, s*) / |s|")
_rouge("ROUGE-S", Keywords(stat=_STAT, beta=_BETA, skip=_SKIP),
       "Skip bigrams: ordered token pairs at most skip tokens apart.",
       f"{_F} over skip bigrams, counted as n-grams are", suffix=("ROUGE-S", "skip"))
_rouge("ROUGE-SU", Keywords(stat=_STAT, beta=_BETA, skip=_SKIP),
       "Skip bigrams and unigrams together (ROUGE-1.5.5 -2 skip -u).",
       f"{_F} over skip bigrams and unigrams", suffix=("ROUGE-SU", "skip"))

"""BLEU of texts: name, parameters, formula (Papineni et al. 2002, as sacrebleu 2.6).

Declared here, in the one catalogue under the context ``texts``; computed by
the kernels of :mod:`irscale.text.bleu` (runner:
:func:`irscale.evaluation.bleu.evaluate_bleu`), whose module documentation states the definition
in full (tokenisers, smoothing, effective order). Its per-text value is sentence BLEU;
corpus BLEU, which pools the n-gram counts of all texts before dividing, is no mean of
per-text values: :func:`irscale.text.bleu.corpus_bleu` and ``irscale text bleu --corpus``
give it.
"""

from __future__ import annotations

from .base import Family, declare
from .params import Keyword, Keywords, choice, flag, integer, number, only_with, optional

TOKENIZERS = ("13a", "intl", "none")
SMOOTHING = ("exp", "floor", "add-k", "none")

declare(Family(
    "BLEU", None,
    Keywords(
        tokenize=Keyword(choice(*TOKENIZERS), "13a",
                         "tokeniser: 13a (mteval-v13a), intl (mteval-v14 international), "
                         "none (split at blanks)"),
        smooth=Keyword(choice(*SMOOTHING), "exp",
                       "smoothing of zero n-gram precisions (Chen & Cherry 2014): exp "
                       "(method 3), floor (method 1), add-k (method 2), none"),
        value=Keyword(optional(number(low=0.0)), None,
                      "floor's ε (default 0.1) or add-k's k (default 1)"),
        order=Keyword(integer(low=1, high=64), 4, "largest n-gram order N"),
        lowercase=Keyword(flag, False, "lower-case texts before tokenising"),
        effective=Keyword(flag, True, "effective order: average over the orders n with "
                          "n-grams in the hypothesis only (sentence BLEU's default)"),
    ).checked(only_with("value", lambda p: p["smooth"] in ("floor", "add-k"),
                        "with smooth=floor or smooth=add-k")),
    "Clipped n-gram precisions of a hypothesis against its references, with a brevity "
    "penalty (per text: sentence BLEU; corpus BLEU: irscale text bleu --corpus).",
    context="texts", cutoff="none",
    formula="BP · exp(Σ_{n≤N'} log p_n / N'), p_n = Σ min(#(g, h), max_r #(g, r)) / "
            "Σ #(g, h) over n-grams g, BP = min(1, exp(1 − r/c))",
    source="Papineni et al. 2002; sacrebleu 2.6 (Post 2018)"))

"""Fairness and exposure measures of stochastic rankings: expected exposure (EE-L, EE-R,
EE-D; Diaz et al., CIKM 2020), per document or per group (TREC Fair Ranking 2019–2020),
AWRF (Sapiezynski et al. 2019) and nDCG × AWRF (TREC Fair Ranking 2021–2022).

Each family is a kernel ``kernel(ctx, params, k)`` over a
:class:`~.context.FairnessContext` (a stochastic run's sampled rankings judged against
the qrels, documents in groups), registered in the one catalogue under the context
``policies``; names are read by the one grammar with the parameters in the name:
``EE-L(gamma=0.5)``, ``EE-R(level=group)``, ``AWRF(discount=geometric,p=0.8)@10``,
``nDCG-AWRF@20``. The groups are the label set ``groups`` (``--labels groups=FILE``), a
document in several groups listed once per group (``membership``: :mod:`.context`). Every
evaluation entry point computes them: ``irscale.evaluate`` and ``irscale eval`` with these
names read each run as a stochastic run (:mod:`irscale.evaluation.fairness`).
"""

from __future__ import annotations

from ..base import CATALOGUE, register
from ..params import Keyword, Keywords, choice, identifier, number, only_with
from .awrf import awrf, ndcg
from .exposure import ee_values

#: The fairness families, by name.
FAIRNESS_REGISTRY = CATALOGUE["policies"]

GAMMA = Keyword(number(low=0.0, high=1.0, open_low=True, open_high=True), 0.5,
                "patience γ of the RBP browsing model: rank i is seen with γ^(i−1)")
GROUPS = Keyword(identifier, "groups", "name of the label set of document groups")
MEMBERSHIP = Keyword(choice("split", "full"), "split",
                     "a document of m groups: weight 1/m in each (TREC Fair 2022), or 1 in "
                     "each (TREC Fair 2021)")


def _ee_params() -> Keywords:
    return Keywords(
        gamma=GAMMA,
        level=Keyword(choice("document", "group"), "document",
                      "exposure of documents, or of their groups (TREC Fair 2019–2020)"),
        groups=GROUPS,
        membership=MEMBERSHIP,
    ).checked(only_with("groups", lambda p: p["level"] == "group", "with level=group"),
              only_with("membership", lambda p: p["level"] == "group", "with level=group"))


def _awrf_params() -> Keywords:
    return Keywords(
        discount=Keyword(choice("jk", "log2", "geometric"), "jk",
                         "attention at rank i: 1/log2(max(i, 2)) (the TREC Fair Ranking "
                         "code's), 1/log2(i + 1), or p^(i−1)"),
        p=Keyword(number(low=0.0, high=1.0, open_low=True), 0.5,
                  "persistence of the geometric attention"),
        target=Keyword(choice("relevant", "uniform"), "relevant",
                       "target shares: the relevant documents' groups, or equal shares"),
        base=Keyword(choice("e", "2"), "e",
                     "logarithm base of the Jensen–Shannon divergence: e (nats, the TREC Fair "
                     "Ranking code's: scipy's jensenshannon), or 2 (bits, 0 ≤ JSD ≤ 1)"),
        groups=GROUPS,
        membership=MEMBERSHIP,
    ).checked(only_with("p", lambda p: p["discount"] == "geometric", "with discount=geometric"))


def _ee(which: str, doc: str, formula: str) -> None:
    @register(which, params=_ee_params(), cutoff="none", context="policies", doc=doc,
              formula=formula, source="Diaz et al. 2020; TREC Fair Ranking 2019–2020")
    def kernel(ctx, p, k):
        return ee_values(ctx, which, p["gamma"], p["level"], p["membership"])


_ee("EE-L", "Expected exposure loss ‖ε − ε*‖² of a stochastic policy (lower is better).",
    "Σ_d (ε_d − ε*_d)², ε_d = mean over samples of γ^(rank − 1)")
_ee("EE-R", "Expected exposure relevance ε·ε* (higher is better).", "Σ_d ε_d ε*_d")
_ee("EE-D", "Expected exposure disparity ‖ε‖² (lower is fairer).", "Σ_d ε_d²")


@register("AWRF", params=_awrf_params(), context="policies",
          doc="Attention-weighted rank fairness: 1 − JSD(group exposure, target shares).",
          formula="1 − JSD(E, T), E_g = Σ_{i≤k} a(i) w_{d_i g} / Σ_{i≤k} Σ_h a(i) w_{d_i h}",
          source="Sapiezynski et al. 2019; TREC Fair Ranking 2021–2022")
def _awrf(ctx, p, k):
    return ctx.per_topic_mean(awrf(ctx, k, p, "AWRF"))


@register("nDCG-AWRF", params=_awrf_params(), context="policies",
          doc="TREC Fair Ranking 2021–2022's score: nDCG@k × AWRF@k per ranking.",
          formula="nDCG@k · (1 − JSD(E, T))",
          source="TREC Fair Ranking 2021–2022")
def _ndcg_awrf(ctx, p, k):
    fair = awrf(ctx, k, p, "nDCG-AWRF")
    return ctx.per_topic_mean(fair * ndcg(ctx, k, p["discount"], p["p"]))


__all__ = ["FAIRNESS_REGISTRY"]

"""The families of multi-query sessions: names, parameters, formulas (Järvelin et al.
2008; Lipani, Carterette & Yilmaz 2019; Sakai & Dou 2013; Kanoulas, Carterette, Clough &
Sanderson 2011; Baskaya, Keskustalo & Järvelin 2012, 2013; van Dijk, Ferrante, Ferro &
Kanoulas 2019).

Declared here, in the one catalogue under the context ``sessions``; computed by
:func:`irscale.evaluation.sessions.evaluate_sessions`, whose module documentation states each
definition in full (esnDCG and esAP: :mod:`irscale.text.session_paths`; tsCG and
tsCGrate: :mod:`irscale.text.session_cost`; MsM: :mod:`irscale.text.session_markov`). The
cut-off ``@k`` of a session measure is the number of documents read in every query's list.
"""

from __future__ import annotations

from ..errors import MeasureError
from . import umeasure  # noqa: F401  (registers U, whose parameters the session U takes)
from .base import REGISTRY, Family, declare
from .cascade import PROB
from .gain_discount import (
    BASE,
    DISCOUNT_KIND,
    MAXREL,
    MAXREL_CHECK,
    check_discount,
    gain_keyword,
)
from .params import Keyword, Keywords, Params, ParamSpec, choice, number, only_with, optional
from .rbp import PERSISTENCE

#: The largest cut-off of a session measure (documents per query: k times the number of
#: queries of a session must fit an int64).
MAX_CUTOFF = 2**62 - 1

_BQ = Keyword(number(low=1.0, open_low=True), 4.0,
              "base b_q of the query discount: log_bq(qnum + b_q − 1) (form=sakai), "
              "1 + log_bq(qnum) (form=jarvelin)")
_FORM = Keyword(choice("sakai", "jarvelin"), "sakai",
                "sakai: Sakai's (2014) eq. 35 over the concatenated list, duplicates removed; "
                "jarvelin: Järvelin et al.'s (2008) sum over queries of each list's DCG "
                "divided by 1 + log_bq(qnum)")
#: form=jarvelin's rank discount within a query's list: Järvelin & Kekäläinen's DCG.
_RANK_DISCOUNT = Keyword(DISCOUNT_KIND.parse, "jk", "form=jarvelin's rank discount within "
                         "a query's list: jk (max(1, log_b j), Järvelin & Kekäläinen's DCG), "
                         "1+log (1 + log_b j), log (log_b(j + 1)) or log2")
_JARVELIN_ONLY = (*(only_with(name, lambda p: p["form"] == "jarvelin", "with form=jarvelin")
                    for name in ("discount", "base")), check_discount)


def _session(name: str, params: ParamSpec, doc: str, formula: str, source: str) -> None:
    declare(Family(name, None, params, doc, context="sessions", formula=formula,
                   source=source, max_cutoff=MAX_CUTOFF))


_session("sDCG", Keywords(bq=_BQ, gain=gain_keyword("linear"), form=_FORM,
                          discount=_RANK_DISCOUNT, base=BASE).checked(*_JARVELIN_ONLY),
         "Session DCG: over the concatenated, de-duplicated lists of the session's queries "
         "(form=sakai), or the sum of the queries' DCGs discounted by query (form=jarvelin).",
         "sakai: Σ_r g(r) / (log_bq(qnum(r) + bq − 1) · log2(r + 1)); jarvelin: Σ_q "
         "DCG_q / (1 + log_bq q)", "Järvelin et al. 2008; Sakai 2014")
_session("nsDCG", Keywords(bq=_BQ, gain=gain_keyword("linear"), form=_FORM,
                           discount=_RANK_DISCOUNT, base=BASE,
                           norm=Keyword(choice("single", "jarvelin"), "single",
                                        "ideal: the lecture's single ideal list, or Järvelin "
                                        "et al.'s m ideal lists")).checked(*_JARVELIN_ONLY),
         "sDCG divided by an ideal sDCG of the same form (0 when that is 0).",
         "sDCG / ideal sDCG", "Järvelin et al. 2008; Sakai 2014")
_session("sRBP", Keywords(p=PERSISTENCE,
                          b=Keyword(number(low=0.0, high=1.0), 0.8,
                                    "probability b of going down the same list rather than "
                                    "reformulating, when the user goes on"),
                          gain=gain_keyword("linear"), maxrel=MAXREL).checked(MAXREL_CHECK),
         "Session RBP: the user goes down a list (b) or on to the next query (1 − b).",
         "(1 − p) Σ_(m,k) ((p − bp)/(1 − bp))^(m−1) · (bp)^(k−1) · g(m,k) / gmax",
         "Lipani, Carterette & Yilmaz 2019")
_session("sERR", Keywords(bq=_BQ, prob=PROB, gain=gain_keyword("linear"),
                          maxrel=MAXREL).checked(MAXREL_CHECK),
         "Session ERR: the cascade model over the concatenated, de-duplicated lists.",
         "Σ_r dsat(r − 1) · R_r / (r · log_bq(qnum(r) + bq − 1))",
         "Chapelle et al. 2009; Järvelin et al. 2008")
_session("U", REGISTRY["U"].params,
         "U-measure over the session's trailtext (from a click log when one is given).",
         "Σ_pos g(pos) · max(0, 1 − pos/L) over the session's trailtext", "Sakai & Dou 2013")

_P_REFORM = Keyword(number(low=0.0, high=1.0), 0.5,
                    "probability p_reform of reformulating (going on to the next query's "
                    "list) on leaving a list")
_P_DOWN = Keyword(number(low=0.0, high=1.0), 0.8,
                  "probability p_down of going down to the next document of a list")
_session("esnDCG", Keywords(p_reform=_P_REFORM, p_down=_P_DOWN, gain=gain_keyword("linear")),
         "Expected session nDCG: nDCG of a browsing path's concatenated list (documents "
         "seen before on the path non-relevant), expected over the paths of the "
         "p_reform/p_down user model.",
         "Σ_ω P(ω) · DCG(ω) / IDCG(|ω|), P(ω) = Π_i p_down^(k_i−1)(1−p_down) · "
         "p_reform^(j−1)(1−p_reform), truncated at the lists' ends",
         "Kanoulas, Carterette, Clough & Sanderson 2011")
_session("esAP", Keywords(p_reform=_P_REFORM, p_down=_P_DOWN),
         "Expected session AP: AP of a browsing path's concatenated list (documents seen "
         "before on the path non-relevant, R the topic's relevant documents), expected "
         "over the paths of the p_reform/p_down user model.",
         "Σ_ω P(ω) · (1/R) Σ_(t relevant in ω) prec_ω(t)",
         "Kanoulas, Carterette, Clough & Sanderson 2011")

_COSTS = {"qcost": Keyword(number(low=0.0), 15.0, "seconds to formulate and issue a query"),
          "scan": Keyword(number(low=0.0), 3.0, "seconds to scan a result's snippet"),
          "read": Keyword(number(low=0.0), 30.0, "seconds to read a document of positive "
                          "gain")}
_session("tsCG", Keywords(**_COSTS, budget=Keyword(optional(number(low=0.0)), None,
                                                   "session time budget in seconds "
                                                   "(default: the whole session)"),
                          gain=gain_keyword("linear")),
         "Session cumulated gain within a time budget: queries, snippets and documents "
         "read cost time; a document's gain counts when its reading ends.",
         "Σ_(d: t(d) ≤ budget) g(d), t(d) = qcost·q(d) + scan·r(d) + read·n(d)",
         "Baskaya, Keskustalo & Järvelin 2012, 2013")
_session("tsCGrate", Keywords(**_COSTS, gain=gain_keyword("linear")),
         "Session gain per second: the session's cumulated gain over the time its "
         "queries, snippets and documents read take.",
         "Σ_d g(d) / (qcost·m + scan·scanned + read·read)",
         "Baskaya, Keskustalo & Järvelin 2012, 2013")

#: How far p + q + r + s of MsM may differ from 1 (rounding in the decimal values given).
SUM_TOLERANCE = 1e-9


def check_probabilities(params: Params, family: str) -> None:
    """MsM's p + q + r + s must be 1: they are the probabilities of the four moves."""
    total = params["p"] + params["q"] + params["r"] + params["s"]
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise MeasureError(
            f"measure {family!r}: p + q + r + s must be 1 (the probabilities of moving to "
            f"the next or previous document, to the next query, and of ending the session), "
            f"got {params['p']:g} + {params['q']:g} + {params['r']:g} + {params['s']:g} = "
            f"{total:g}")


_MOVE = "probability of moving from a document of a list to "
_session("MsM", Keywords(p=Keyword(number(low=0.0, high=1.0, open_low=True), 0.7,
                                   _MOVE + "the next document of the list"),
                         q=Keyword(number(low=0.0, high=1.0), 0.1,
                                   _MOVE + "the previous document of the list"),
                         r=Keyword(number(low=0.0, high=1.0, open_low=True), 0.1,
                                   _MOVE + "the first document of the next query's list"),
                         s=Keyword(number(low=0.0, high=1.0, open_low=True), 0.1,
                                   "probability of ending the session from a document "
                                   "(p + q + r + s = 1)"),
                         discount=Keyword(choice("lin", "log"), "lin",
                                          "lin: 1/(1 + t), log: 1/(1 + ln(1 + t)), t the "
                                          "average time to reach the document"),
                         gain=gain_keyword("linear")).checked(check_probabilities),
         "Markovian session measure: the user moves to the next or previous document, to "
         "the next query or ends the session; a document's gain is discounted by the "
         "average time to reach it and weighed by the probability of reaching its query.",
         "Σ_j h^(j−1) Σ_i g(j,i) / (1 + e_i + (j−1)·e_Q) (discount=lin; log: 1 + ln(...)), "
         "e_i, e_Q average times to reach position i and the next query, h the probability "
         "of reaching the next query", "van Dijk, Ferrante, Ferro & Kanoulas 2019")

"""The user models of the C/W/L framework, as cwl_eval 1.0.12 ships them (Azzopardi, Thomas
& Moffat, SIGIR 2019): each is its continuation C(i) (or its weights W(i)); the framework
(:mod:`irscale.measures.cwl`) derives W, L and the five outputs. Ranks i = 1..N (N =
``depth``), g(i) the gain and c(i) the cost of rank i, CG(i) = Σ_{j≤i} g(j) and
CC(i) = Σ_{j≤i} c(j). Defaults are cwl_eval's (its classes' defaults, or the example
metrics file of its README where a class has none).

Names: measures irscale defines otherwise (P, RR, RBP, AP, TBG, U) are prefixed ``CWL-``;
the others keep the names of cwl_eval and of ir_measures' cwl_eval provider (``INST``,
``INSQ``, ``SDCG`` for cwl_eval's NDCG-k, ``NERR8`` ... ``NERR11``, ``BPM``).

* ``CWL-P@k``: C(i) = 1 for i < k, else 0 (Van Rijsbergen 1979);
* ``CWL-RR``: C(i) = 1 until the first rank of positive gain, then 0 (Kantor & Voorhees 2000);
* ``CWL-RBP(p)``: C(i) = p (Moffat & Zobel 2008); ``NPV(rate)``: C(i) = 1/(1 + rate);
* ``SDCG@k``: C(i) = log(i + 1)/log(i + 2) for i < k, else 0 (Järvelin & Kekäläinen 2002);
* ``CWL-AP``: C(i) = S(i+1)/S(i), S(i) = Σ_{j≥i} g(j)/j, 0 where S(i+1) = 0 (Harman 1992);
* ``TrAP``: W(i) = CG'(i)/CC(i)/R, not normalised (Harman 1992);
* ``INST(T)``: C(i) = ((i + T + T_i − 1)/(i + T + T_i))², T_i = T − CG(i) (Moffat et al. 2015);
* ``INSQ(T)``: C(i) = ((i + 2T − 1)/(i + 2T))² (Moffat, Scholer & Thomas 2012);
* ``CWL-TBG(h)``: W(i) ∝ h·2^(−CC(i−1)/h)/ln 2 (Smucker & Clarke 2012);
* ``CWL-U(L)``: W(i) ∝ max(0, 1 − CC(i−1)/L) for i < N, W(N) = 0 (Sakai & Dou 2013);
* ``BPM(T,hb,hc,gmed)@K``: C(i) = 1 while CG(j) < T_j and CC(j) < K_j for every j ≤ i
  (Zhang et al. 2017);
* ``IFT-goal``: C1(i) = 1 − 1/(1 + b1·e^((T − CG(i))·R1)); ``IFT-rate``: C2(i) =
  1/(1 + b2·e^((A − CG(i)/CC(i))·R2)); ``IFT``: C1·C2 (Azzopardi, Thomas & Craswell 2018);
* ``NERR8@k``: 1 − g(i) for i < k; ``NERR9@k``: (i/(i + 1))·(1 − g(i)) for i < k;
  ``NERR10(p)``: p·(1 − g(i)); ``NERR11(T)``: ((i + 2T − 1)/(i + 2T))²·(1 − g(i)); 0 from
  rank k (Azzopardi, Mackenzie & Moffat 2021);
* ``SET(beta)@k``: C(i) = w(i+1)/w(i) for i < k, else 0, w(i) = (i + 1)^β − i^β
  (Azzopardi 2014).

Notes on cwl_eval's definitions, reproduced as they are:

* ``CWL-AP``'s EU is Σ_i g(i)·CG(i)/i divided by the gain retrieved in the first N ranks
  (not by R: trec_eval's AP divides by R); ``TrAP``'s EU is Σ_i g(i)·CG(i)/CC(i) / R, R the
  topic's documents of positive gain: trec_eval's AP with binary gains and unit costs.
  In TrAP, CG'(i) = 1 where CG(i) = 0 at the ranks before the first gain (but rank N).
* ``CWL-TBG``, ``CWL-U`` and ``TrAP`` are weights: C(i) = W(i+1)/W(i), ED = 1/W(1).
* ``BPM``: T_j = T + hb·Σ_{m<j}(g(m) − gmed), K_j = K + hc·Σ_{m<j}(g(m) − gmed) (Zhang
  et al.'s dynamic BPM; hb = hc = 0, the default, is static BPM). cwl_eval's BPMDCWLMetric never
  changes K (it adds the hc term to T after T's use): it equals ``BPM(hb=…,hc=0)``.
"""

from __future__ import annotations

import numpy as np

from ..errors import MeasureError
from .cwl import Vectors, cwl_measure
from .params import Keyword, Params, number, only_with

_POSITIVE = number(low=0.0, open_low=True)
_PROBABILITY = number(low=0.0, high=1.0)


def _below(v: Vectors, k: int, values: np.ndarray | float) -> np.ndarray:
    """``values`` at ranks i < k, 0 from rank k."""
    return np.where(v.ranks < k, values, 0.0) * np.ones(v.gains.shape)


def _squared_ratio(v: Vectors, shift: np.ndarray | float) -> np.ndarray:
    """((i + shift − 1) / (i + shift))² per rank."""
    top = v.ranks + shift
    return ((top - 1.0) / top) ** 2


def _before(values: np.ndarray, first: float) -> np.ndarray:
    """Per rank i: ``values`` at rank i − 1 (``first`` at rank 1)."""
    out = np.empty(values.shape)
    out[:, 0] = first
    out[:, 1:] = values[:, :-1]
    return out


def _normalised(weights: np.ndarray) -> np.ndarray:
    return weights / weights.sum(axis=1, keepdims=True)


def _needs_two_ranks(v: Vectors, name: str) -> None:
    if v.depth < 2:
        raise MeasureError(f"measure {name!r} needs depth ≥ 2 (its weights are 0 at rank N)")


@cwl_measure("CWL-P", by="C", cutoff="ranks", static=True,
             doc="Precision at k as a C/W/L measure: the user reads k items (cwl_eval's P@k).",
             formula="C(i) = 1 for i < k, else 0; EU = Σ_{i≤k} g(i) / k",
             source="cwl_eval 1.0.12 (Van Rijsbergen 1979)")
def precision(v: Vectors, p: Params) -> np.ndarray:
    return _below(v, p["cutoff"], 1.0)


@cwl_measure("CWL-RR", by="C",
             doc="Reciprocal rank as a C/W/L measure: the user stops at the first item of "
             "positive gain (cwl_eval's RR).",
             formula="C(i) = 1 until the first rank of positive gain, then 0",
             source="cwl_eval 1.0.12 (Kantor & Voorhees 2000)")
def reciprocal_rank(v: Vectors, p: Params) -> np.ndarray:
    return np.logical_and.accumulate(v.gains <= 0.0, axis=1).astype(np.float64)


@cwl_measure("CWL-RBP", by="C", static=True,
             params={"p": Keyword(_PROBABILITY, 0.9, "persistence θ")},
             doc="Rank-biased precision as a C/W/L measure (cwl_eval's RBP@θ); EU is RBP "
             "divided by 1 − p^N.",
             formula="C(i) = p",
             source="cwl_eval 1.0.12 (Moffat & Zobel 2008)")
def rank_biased_precision(v: Vectors, p: Params) -> np.ndarray:
    return v.full(p["p"])


@cwl_measure("NPV", by="C", static=True,
             params={"rate": Keyword(number(low=0.0), 0.1, "discount rate r of the future")},
             doc="Net present value: RBP with θ = 1/(1 + rate) (cwl_eval's NPV).",
             formula="C(i) = 1 / (1 + rate)",
             source="cwl_eval 1.0.12 (Azzopardi, Thomas & Moffat 2019)")
def net_present_value(v: Vectors, p: Params) -> np.ndarray:
    return v.full(1.0 / (1.0 + p["rate"]))


@cwl_measure("SDCG", by="C", cutoff="ranks", static=True,
             doc="Scaled DCG@k: DCG@k with log2 discount divided by the sum of the discounts "
             "(cwl_eval's NDCG-k, ir_measures' SDCG).",
             formula="C(i) = log(i + 1) / log(i + 2) for i < k, else 0",
             source="cwl_eval 1.0.12 (Järvelin & Kekäläinen 2002)")
def scaled_dcg(v: Vectors, p: Params) -> np.ndarray:
    return _below(v, p["cutoff"], np.log(v.ranks + 1.0) / np.log(v.ranks + 2.0))


@cwl_measure("CWL-AP", by="C",
             doc="Average precision as a C/W/L measure (cwl_eval's AP): EU = Σ g(i)·CG(i)/i "
             "over the gain retrieved.",
             formula="C(i) = S(i+1)/S(i), S(i) = Σ_{j≥i} g(j)/j (0 where S(i+1) = 0)",
             source="cwl_eval 1.0.12 (Harman 1992)")
def average_precision(v: Vectors, p: Params) -> np.ndarray:
    terms = v.gains / v.ranks
    suffix = np.cumsum(terms[:, ::-1], axis=1)[:, ::-1]
    cont = np.zeros(terms.shape)
    np.divide(suffix[:, 1:], suffix[:, :-1], out=cont[:, :-1], where=suffix[:, 1:] > 0)
    return cont


@cwl_measure("TrAP", by="W",
             doc="AP of cwl_eval's TrAP: weights CG(i)/CC(i)/R, so that EU = Σ g(i)·CG(i)/"
             "CC(i) / R (trec_eval's AP with binary gains and unit costs).",
             formula="W(i) = CG'(i) / CC(i) / R, CG' = 1 before the first gain",
             source="cwl_eval 1.0.12 (Harman 1992)")
def trec_average_precision(v: Vectors, p: Params) -> np.ndarray:
    _needs_two_ranks(v, "TrAP")
    gained = v.cum_gains.copy()
    leading = np.logical_and.accumulate(gained == 0.0, axis=1)
    leading[:, -1] = False
    gained[leading] = 1.0
    weights = gained / v.cum_costs
    rels = v.total_rels[:, None]
    return np.divide(weights, rels, out=weights, where=rels > 0)


_T = Keyword(_POSITIVE, 1.0, "target T: the gain the user wants")


@cwl_measure("INST", by="C", params={"T": _T},
             doc="INST: the user expects T relevant items and reads on while they lack "
             "some (Moffat et al. 2015; gains in [0, 1]).",
             formula="C(i) = ((i + T + T_i − 1)/(i + T + T_i))², T_i = T − CG(i)",
             source="Moffat, Bailey, Scholer & Thomas 2015")
def inst(v: Vectors, p: Params) -> np.ndarray:
    target = p["T"]
    return _squared_ratio(v, target + (target - v.cum_gains))


@cwl_measure("INSQ", by="C", params={"T": _T}, static=True,
             doc="INSQ: INST's static precursor (Moffat, Scholer & Thomas 2012).",
             formula="C(i) = ((i + 2T − 1)/(i + 2T))²",
             source="Moffat, Scholer & Thomas 2012")
def insq(v: Vectors, p: Params) -> np.ndarray:
    return v.full(_squared_ratio(v, 2.0 * p["T"]))


@cwl_measure("CWL-TBG", by="W",
             params={"h": Keyword(_POSITIVE, 224.0, "half-life h, in units of cost")},
             doc="Time-biased gain as a C/W/L measure: weights decay with the cost spent "
             "before each rank (cwl_eval's TBG-H).",
             formula="W(i) ∝ h·2^(−CC(i−1)/h) / ln 2",
             source="cwl_eval 1.0.12 (Smucker & Clarke 2012)")
def time_biased_gain(v: Vectors, p: Params) -> np.ndarray:
    h = p["h"]
    return _normalised(h * 2.0 ** (-_before(v.cum_costs, 0.0) / h) / np.log(2.0))


@cwl_measure("CWL-U", by="W",
             params={"L": Keyword(_POSITIVE, 1000.0, "patience L, in units of cost")},
             doc="U-measure as a C/W/L measure: weights fall linearly with the cost spent "
             "before each rank (cwl_eval's U-L).",
             formula="W(i) ∝ max(0, 1 − CC(i−1)/L) for i < N, W(N) = 0",
             source="cwl_eval 1.0.12 (Sakai & Dou 2013)")
def u_measure(v: Vectors, p: Params) -> np.ndarray:
    _needs_two_ranks(v, "CWL-U")
    weights = np.maximum(0.0, 1.0 - _before(v.cum_costs, 0.0) / p["L"])
    weights[:, -1] = 0.0
    return _normalised(weights)


@cwl_measure("BPM", by="C", cutoff="budget",
             params={"T": Keyword(_POSITIVE, 1.0, "benefit T the user wants (E_b)"),
                     "hb": Keyword(number(), 0.0, "change of T per unit of gain above gmed "
                                   "(dynamic BPM)"),
                     "hc": Keyword(number(), 0.0, "change of the cost budget K per unit of "
                                   "gain above gmed (dynamic BPM)"),
                     "gmed": Keyword(_PROBABILITY, 0.5, "median gain (rel_med)")},
             checks=(only_with("gmed", lambda p: p["hb"] != 0 or p["hc"] != 0,
                               "in dynamic BPM only (hb or hc not 0)"),),
             doc="Bejeweled player model: the user stops once she has T of gain or has spent "
             "the budget K (the @K); hb, hc make it dynamic (Zhang et al. 2017).",
             formula="C(i) = 1 while CG(j) < T_j and CC(j) < K_j for every j ≤ i",
             source="Zhang, Liu, Li, Zhang, Xu & Ma 2017")
def bejeweled(v: Vectors, p: Params) -> np.ndarray:
    step = v.gains[:, :-1] - p["gmed"]
    rows = (len(v.gains), 1)

    def limit(start: float, scale: float) -> np.ndarray:
        # added one rank at a time, as the user model updates it
        return np.cumsum(np.concatenate((np.full(rows, start), scale * step), axis=1), axis=1)

    going = (v.cum_gains < limit(p["T"], p["hb"])) & (v.cum_costs < limit(p["cutoff"], p["hc"]))
    return np.logical_and.accumulate(going, axis=1).astype(np.float64)


_GOAL = {"T": Keyword(number(), 2.0, "target gain T"),
         "b1": Keyword(_POSITIVE, 0.9, "intercept b1 of the goal"),
         "R1": Keyword(number(low=0.0), 10.0, "rationality R1 towards the goal")}
_RATE = {"A": Keyword(number(), 0.2, "expected rate of gain A"),
         "b2": Keyword(_POSITIVE, 0.9, "intercept b2 of the rate"),
         "R2": Keyword(number(low=0.0), 10.0, "rationality R2 towards the rate")}


def _goal(v: Vectors, p: Params) -> np.ndarray:
    return 1.0 - 1.0 / (1.0 + p["b1"] * np.exp((p["T"] - v.cum_gains) * p["R1"]))


def _rate(v: Vectors, p: Params) -> np.ndarray:
    return 1.0 / (1.0 + p["b2"] * np.exp((p["A"] - v.cum_gains / v.cum_costs) * p["R2"]))


_IFT_SOURCE = "Azzopardi, Thomas & Craswell 2018"


@cwl_measure("IFT-goal", by="C", params=_GOAL,
             doc="Information foraging, goal only: the user goes on while short of the "
             "target gain T (cwl_eval's IFT-C1).",
             formula="C(i) = 1 − 1/(1 + b1·e^((T − CG(i))·R1))", source=_IFT_SOURCE)
def ift_goal(v: Vectors, p: Params) -> np.ndarray:
    return _goal(v, p)


@cwl_measure("IFT-rate", by="C", params=_RATE,
             doc="Information foraging, rate only: the user goes on while the rate of gain "
             "beats A (cwl_eval's IFT-C2).",
             formula="C(i) = 1/(1 + b2·e^((A − CG(i)/CC(i))·R2))", source=_IFT_SOURCE)
def ift_rate(v: Vectors, p: Params) -> np.ndarray:
    return _rate(v, p)


@cwl_measure("IFT", by="C", params={**_GOAL, **_RATE},
             doc="Information foraging, goal and rate (cwl_eval's IFT-C1-C2).",
             formula="C(i) = C1(i)·C2(i) (IFT-goal's and IFT-rate's)", source=_IFT_SOURCE)
def ift(v: Vectors, p: Params) -> np.ndarray:
    return _goal(v, p) * _rate(v, p)


_NERR_SOURCE = "Azzopardi, Mackenzie & Moffat 2021"


@cwl_measure("NERR8", by="C", cutoff="ranks",
             doc="Not (but nearly) ERR, eq. 8: a cascade truncated at k (gains in [0, 1]).",
             formula="C(i) = 1 − g(i) for i < k, else 0", source=_NERR_SOURCE)
def nerr8(v: Vectors, p: Params) -> np.ndarray:
    return _below(v, p["cutoff"], 1.0 - v.gains)


@cwl_measure("NERR9", by="C", cutoff="ranks",
             doc="Not (but nearly) ERR, eq. 9: the cascade with RR's rank decay, truncated at k.",
             formula="C(i) = (i/(i + 1))·(1 − g(i)) for i < k, else 0", source=_NERR_SOURCE)
def nerr9(v: Vectors, p: Params) -> np.ndarray:
    return _below(v, p["cutoff"], v.ranks / (v.ranks + 1.0) * (1.0 - v.gains))


@cwl_measure("NERR10", by="C", params={"p": Keyword(_PROBABILITY, 0.9, "persistence φ")},
             doc="Not (but nearly) ERR, eq. 10: the cascade with RBP's persistence φ.",
             formula="C(i) = φ·(1 − g(i))", source=_NERR_SOURCE)
def nerr10(v: Vectors, p: Params) -> np.ndarray:
    return p["p"] * (1.0 - v.gains)


@cwl_measure("NERR11", by="C", params={"T": _T},
             doc="Not (but nearly) ERR, eq. 11: the cascade with INSQ's continuation.",
             formula="C(i) = ((i + 2T − 1)/(i + 2T))²·(1 − g(i))", source=_NERR_SOURCE)
def nerr11(v: Vectors, p: Params) -> np.ndarray:
    return _squared_ratio(v, 2.0 * p["T"]) * (1.0 - v.gains)


@cwl_measure("SET", by="C", cutoff="ranks", static=True,
             params={"beta": Keyword(number(low=0.0, high=1.0, open_low=True), 0.5,
                                     "diminishing returns β of the gain i^β")},
             doc="Search economic measure: total gain i^β of the first i items, read to k "
             "(cwl_eval's SET; β = 1 is P@k).",
             formula="C(i) = w(i+1)/w(i) for i < k, else 0; w(i) = (i + 1)^β − i^β",
             source="cwl_eval 1.0.12 (Azzopardi 2014)")
def search_economic(v: Vectors, p: Params) -> np.ndarray:
    beta = p["beta"]
    weight = (v.ranks + 1.0) ** beta - v.ranks ** beta
    after = (v.ranks + 2.0) ** beta - (v.ranks + 1.0) ** beta
    return _below(v, p["cutoff"], after / weight)

"""Which measure a scale is built for: names, kernels and the structure the algorithms use.

A :class:`ScaleMeasure` names a measure of the catalogue (:mod:`irscale.measures`) evaluated
on runs of length N, and says which exact algorithm applies to it:

============  =====================================  ======================================
kind          kernel (run length N)                   exact image algorithm
============  =====================================  ======================================
``P``         ``P@N``           h/N                   count vectors (closed form)
``R``         ``R@N``           h/RB                  count vectors (closed form)
``F``         ``F(beta=β)@N``   (β²+1)h/(β²RB+N)      count vectors (closed form)
``SBTO``      ``SBTO@N``        eq. 3 †               count vectors (closed form)
``RR``        ``RR``            1/(first relevant)    first relevant rank (closed form)
``RBTO``      ``RBTO@N``        eq. 6 †               lexicographic order (closed form)
``RBP``       ``RBP(p=p)``      (1−p)Σp^(i−1)g_i/gmax  closed form for p ≤ 1/(c+1); else
                                                      additive counting (:mod:`.additive`)
``DCG``       ``DCG(discount=jk,base=b)@N``           additive counting
``nDCG``      ``nDCG(discount=jk,base=b)@N``          DCG's scale / ideal DCG@N
``AP``        ``AP@N``  (1/RB)Σ C(i)/i                integer meet-in-the-middle
              (``AP(norm=min)@N`` divides by min(N,RB))  (:mod:`.average_precision`)
``gP``        ``gP@N``  Σ g(r_i)/(N·gmax)            count vectors (closed form)
other         any name irscale evaluates             chunked enumeration (tolerance)
============  =====================================  ======================================

† of Ferrante et al. (2019). h is the number of relevant documents (degree ≥ the relevance
level ``rel``) among the N, RB the recall base. Binary measures (P, R, F, AP, RR) see a graded
run through its binary projection at level ``rel`` (Ferrante et al. 2021, §6: the lenient
mapping with rel = 1).

Names (:func:`scale_measure`): the paper's ``P``, ``R``, ``F``, ``AP``, ``RR``, ``RBP_p05``
(p = 0.5; ``p03``, ``p08``, ``p095`` ...), ``DCG_b02`` / ``nDCG_b10`` (Järvelin–Kekäläinen
discount ``max(1, log_b r)`` with base 2 / 10, Ferrante et al. (2021), §6), ``SBTO``, ``RBTO``, each
with optional parameters ``(rel=2)``, ``(gain=exp)``; or any irscale measure name
(``RBP(p=0.8)``, ``DCG(discount=log2)``, ``nDCG(discount=jk,base=10)``, ``AP``, ``ERR``, ...;
trec_eval's ``ndcg`` and ``ndcg_cut_k`` — ``nDCG``, ``nDCG@k`` — are nDCG with gain = degree and
discount log2(r + 1), evaluated by their own kernels):
recognised families get the exact algorithms, the others the generic enumeration. A name
with a cut-off other than N (``P@5`` on runs of length 10) is evaluated generically.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..errors import MeasureError
from ..measures.base import EvalContext, MeasureRequest, get_family
from ..measures.compute import compute_requests
from ..measures.diversity import is_diversity_name
from ..measures.gain_discount import Discount, GainMap, gain_table, parse_gain
from ..measures.names import parse_measure, parse_relevance_level
from .enumeration import format_run, synthetic_rankings
from .params import SCALE_PAPER_NAME
from .space import Context

#: Kinds with an exact algorithm (see the module table).
EXACT_KINDS = ("P", "R", "F", "SBTO", "RR", "RBTO", "RBP", "DCG", "nDCG", "AP", "gP")
#: Binary measures: they see a graded run through its projection at level ``rel``.
BINARY_KINDS = ("P", "R", "F", "AP", "RR")
#: Measures whose values depend on the topic's recall base (Ferrante et al. 2021, §5.2.2).
RECALL_BASE_KINDS = ("R", "F", "AP", "nDCG")



@dataclass(frozen=True)
class ScaleMeasure:
    """A measure on runs of length N, with what the exact algorithms need to know.

    ``label`` is the name shown; ``kind`` selects the algorithm (module table);
    ``relevance_level`` is the binary measures' ``rel``; ``gain`` and ``discount`` define
    DCG/nDCG, ``gain`` and ``p`` RBP; ``beta`` F; ``ap_norm`` AP's divisor (``R`` or
    ``min`` = min(N, RB)); ``text`` is the irscale name of a generic measure; ``cutoff``
    the cut-off given in the name (``None``: N); ``kernel`` the name whose registered
    kernel gives the values (trec_eval's ``ndcg``/``ndcg_cut``; default: built from the
    kind); ``ideal_cut``: nDCG's ideal DCG is cut at N (``False`` for trec_eval's ``ndcg``,
    whose ideal ranking holds every relevant document).
    """

    label: str
    kind: str
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL
    p: float | None = None
    beta: float = 1.0
    gain: GainMap = field(default_factory=lambda: parse_gain("linear"))
    discount: Discount | None = None
    ap_norm: str = "R"
    text: str = ""
    cutoff: int | None = None
    kernel: str = ""
    ideal_cut: bool = True

    # ------------------------------------------------------------ classification
    @property
    def binary(self) -> bool:
        return self.kind in BINARY_KINDS

    @property
    def depends_on_recall_base(self) -> bool:
        """Values depend on the topic's recall base (generic measures: assumed so)."""
        return self.kind in RECALL_BASE_KINDS or self.kind == "generic"

    def for_length(self, N: int) -> ScaleMeasure:
        """This measure on runs of length N: generic when its cut-off is not N."""
        if self.kind != "generic" and self.cutoff not in (None, N):
            text = self.text or self.label
            return ScaleMeasure(label=self.label, kind="generic", text=text,
                                relevance_level=self.relevance_level, cutoff=self.cutoff)
        return self

    # ------------------------------------------------------------ kernels
    def request(self, N: int) -> MeasureRequest:
        """The catalogue request that computes this measure on runs of length N."""
        if self.kernel:
            return parse_measure(self.kernel)[0]
        rel = f"rel={self.relevance_level}"
        gain = f"gain={self.gain}"
        if self.kind in ("DCG", "nDCG"):
            assert self.discount is not None
            discount = f"discount={self.discount.kind},base={self.discount.base!r}"
            text = f"{self.kind}({gain},{discount},{rel})@{N}"
        else:
            text = {
                "P": f"P({rel})@{N}",
                "R": f"R({rel})@{N}",
                "F": f"F(beta={self.beta!r},{rel})@{N}",
                "AP": f"AP(norm={self.ap_norm},{rel})@{N}",
                "RR": f"RR({rel})",
                "SBTO": f"SBTO({rel})@{N}",
                "RBTO": f"RBTO({rel})@{N}",
                "RBP": f"RBP(p={self.p!r},{gain},{rel})",
            }.get(self.kind, self.text)
        return parse_measure(text)[0]

    def kernel_values(self, degrees: np.ndarray, context: Context | np.ndarray
                      ) -> np.ndarray:
        """The measure's values (the registered kernel) on runs given as a degree matrix;
        ``context``: one topic context, or one recall-base row per run."""
        degrees = np.asarray(degrees)
        if len(degrees) == 0:
            return np.zeros(0)
        jr = synthetic_rankings(degrees, context)
        request = self.request(degrees.shape[1])
        columns, values = compute_requests(jr, [request], EvalContext())
        out = np.asarray(values[columns[0].label], dtype=np.float64)
        bad = ~np.isfinite(out)
        if bad.any():
            row = int(np.argmax(bad))
            raise MeasureError(
                f"{self.label} is {out[row]} on the run {format_run(degrees[row])} of length "
                f"{degrees.shape[1]}: a measure needs a finite value on every run to have a "
                "scale")
        return out

    # ------------------------------------------------------------ definitions
    def gain_floats(self, levels: int) -> np.ndarray:
        """Gain of every degree ``0..levels-1`` exactly as the kernels use it
        (:func:`irscale.measures.gain_discount.gain_table`)."""
        jr = synthetic_rankings(np.zeros((1, 1), dtype=np.int8), Context((0,) * levels),
                                self.relevance_level)
        return gain_table(jr, self.gain, None, self.label)

    def gain_exact(self, levels: int) -> list[Fraction]:
        """The gains as exact rationals (the decimal values of the gain map)."""
        return [Fraction(repr(float(g))) for g in self.gain_floats(levels)]


def _parse_p(digits: str) -> float:
    """``05`` → 0.5, ``095`` → 0.95, ``3`` → 0.3 (Ferrante et al. (2021) write RBP_p05)."""
    return float("0." + digits.lstrip("0")) if digits.strip("0") else 0.0


def scale_measure(name: str | ScaleMeasure) -> ScaleMeasure:
    """The :class:`ScaleMeasure` of a name (see the module documentation)."""
    if isinstance(name, ScaleMeasure):
        return name
    text = name.strip()
    if is_diversity_name(text):
        raise MeasureError(
            f"{text!r} is a diversity measure: its scale is over runs judged per intent, "
            "built by scale(..., intents=S) and irscale scale image --intents S; scale "
            "transform, scale table and meta scales take no diversity measure (a real topic "
            "has its own number of intents S and qrels: one enumeration of (2^S)^N runs per "
            "topic, 2^40 runs already at S = 8, N = 5)")
    match = re.match(SCALE_PAPER_NAME, text)
    if match and not (set(_options(text, match)) - {"rel", "gain", "beta", "norm"}):
        return _paper_measure(text, match)
    requests = parse_measure(text)
    if len(requests) != 1:
        raise MeasureError(f"{text!r} names {len(requests)} measures; a scale is built for "
                           "one measure at a time (e.g. AP, P@10, nDCG)")
    request = requests[0]
    family = get_family(request.family)
    if not family.per_query or family.value_type == "str":
        shown = "as text" if family.value_type == "str" else "as a summary over topics only"
        raise MeasureError(
            f"measure {text!r} has no numeric value per run (trec_eval prints {family.name} "
            f"{shown}): it has no scale; name a per-topic measure (e.g. AP, P@10, nDCG)")
    return _from_request(text, request)


def _options(text: str, match: re.Match) -> dict[str, str]:
    options = {}
    if match["params"]:
        for part in match["params"].split(","):
            key, sep, value = part.partition("=")
            if not sep:
                raise MeasureError(f"measure {text!r}: parameters are name=value pairs")
            options[key.strip()] = value.strip()
    return options


def _paper_measure(text: str, match: re.Match) -> ScaleMeasure:
    options = _options(text, match)
    level = parse_relevance_level(text, options.pop("rel", "1"))
    head = match["name"]
    graded = match["p"] is not None or match["b"] is not None
    if "gain" in options and not graded:
        raise MeasureError(f"measure {text!r}: gain applies to RBP_p.. and (n)DCG_b.. only")
    if "beta" in options and head != "F":
        raise MeasureError(f"measure {text!r}: beta applies to F only")
    gain = parse_gain(options.pop("gain", "linear"))
    if match["p"] is not None:
        p = _parse_p(match["p"])
        if not 0.0 < p < 1.0:
            raise MeasureError(f"measure {text!r}: p must lie in (0, 1)")
        measure = ScaleMeasure(text, "RBP", p=p, gain=gain, relevance_level=level)
    elif match["b"] is not None:
        base = int(match["b"])
        if base < 2:
            raise MeasureError(f"measure {text!r}: the log base must be ≥ 2")
        kind = "nDCG" if match["n"] else "DCG"
        measure = ScaleMeasure(text, kind, gain=gain, discount=Discount("jk", float(base)),
                               relevance_level=level)
    else:
        try:
            beta = float(options.pop("beta", 1.0))
        except ValueError:
            raise MeasureError(f"measure {text!r}: beta must be a number") from None
        if not (math.isfinite(beta) and beta >= 0):
            raise MeasureError(f"measure {text!r}: beta must be a finite number ≥ 0")
        norm = options.pop("norm", "R") if head == "AP" else "R"
        if norm not in ("R", "min"):
            raise MeasureError(f"measure {text!r}: norm is R or min")
        measure = ScaleMeasure(text, head, relevance_level=level, beta=beta, gain=gain,
                               ap_norm=norm)
    if options:
        raise MeasureError(f"measure {text!r}: unknown parameter(s) {sorted(options)}")
    return measure


def _from_request(text: str, request: MeasureRequest) -> ScaleMeasure:
    """Recognise the catalogue families that have an exact algorithm (conditional
    relevance refused: the enumerated rankings hold no conditional groups); any other
    measure is computed on the enumerated rankings by its kernel (``generic``)."""
    if request.conditional:
        raise MeasureError(f"measure {text!r}: conditional=1 cannot apply to interval "
                           "scales: their rankings are enumerated, without conditional groups")
    level = 1 if request.relevance_level is None else request.relevance_level
    generic = ScaleMeasure(text, "generic", text=text, relevance_level=level)
    if request.condensed:
        return generic
    family, params, cutoff = request.family, request.params, request.cutoff
    exact = _trec_eval_family(text, family, params, cutoff, level) \
        if params is None or isinstance(params, tuple) \
        else _keyword_family(text, family, params, cutoff, level)
    return generic if exact is None else exact


def _trec_eval_family(text: str, family: str, params: tuple[int, ...] | None,
                      cutoff: int | None,
                      level: int) -> ScaleMeasure | None:
    """The exact measure of a trec_eval family (``params``: its list of cut-offs, or
    ``None``), or ``None`` when it has none."""
    if family in ("P", "recall", "map_cut") and params is not None and len(params) == 1:
        kind = {"P": "P", "recall": "R", "map_cut": "AP"}[family]
        return ScaleMeasure(text, kind, relevance_level=level, cutoff=params[0], text=text)
    if family in ("map", "recip_rank"):
        kind = "AP" if family == "map" else "RR"
        return ScaleMeasure(text, kind, relevance_level=level, cutoff=cutoff, text=text)
    if family in ("ndcg", "DCG", "nDCG", "gP") and params is None:
        # trec_eval's ndcg (ideal not cut), DCG, nDCG and gP with their defaults:
        # gain = degree, discount log2(r + 1)
        kind = "nDCG" if family == "ndcg" else family
        return ScaleMeasure(text, kind, discount=Discount("log2", 2.0), cutoff=cutoff,
                            text=text, kernel=text, ideal_cut=family != "ndcg")
    if family == "ndcg_cut" and params is not None and len(params) == 1:
        return ScaleMeasure(text, "nDCG", discount=Discount("log2", 2.0), cutoff=params[0],
                            text=text, kernel=text)
    return None


def _keyword_family(text: str, family: str, params: Mapping[str, Any], cutoff: int | None,
                    level: int) -> ScaleMeasure | None:
    """The exact measure of a catalogue family read with keyword parameters (its cut-off
    the parameters' ``cutoff``, else the name's ``@k``), or ``None`` when it has none."""
    k = params.get("cutoff") if params.get("cutoff") is not None else cutoff
    if family == "F":
        return ScaleMeasure(text, "F", relevance_level=level, beta=params["beta"],
                            cutoff=k, text=text)
    if family == "AP":
        return ScaleMeasure(text, "AP", relevance_level=level, ap_norm=params["norm"],
                            cutoff=k, text=text)
    if family in ("RBP", "gP", "SBTO", "RBTO") and params.get("maxrel") is not None:
        return None
    if family == "RBP":
        return ScaleMeasure(text, "RBP", p=params["p"], gain=params["gain"], cutoff=cutoff,
                            text=text, relevance_level=level)
    if family == "gP":
        return ScaleMeasure(text, "gP", gain=params["gain"], cutoff=k, text=text,
                            relevance_level=level, kernel=text)
    if family in ("DCG", "nDCG"):
        discount = Discount(params["discount"],
                            2.0 if params["discount"] == "log2" else params["base"])
        return ScaleMeasure(text, family, gain=params["gain"], discount=discount, cutoff=k,
                            text=text, relevance_level=level)
    if family in ("SBTO", "RBTO") and not params.get("norm", False):
        return ScaleMeasure(text, family, cutoff=k, text=text, relevance_level=level)
    return None


__all__ = ["BINARY_KINDS", "EXACT_KINDS", "RECALL_BASE_KINDS", "ScaleMeasure", "scale_measure"]

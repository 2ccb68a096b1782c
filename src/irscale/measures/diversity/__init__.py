"""Diversity (intent-aware) measures: their families, their names, and ndeval's set.

Each family is one small kernel ``kernel(ctx, params, k)`` over a
:class:`~.context.DiversityContext` (the run's rankings judged per intent, the qrels'
graded levels, intent probabilities and types, ndeval's greedy ideal rankings), registered
in the one catalogue under the context ``intents`` with its parameters, as the families of
judged rankings are (:mod:`irscale.measures.base`). Names are read by the one grammar
(:func:`irscale.measures.names.parse_name`), parameters in the name: ``alpha-nDCG@20``,
``alpha-nDCG(alpha=0.5)@20``, ``NRBP(alpha=0.5,beta=0.5)``, ``MAP-IA``, ``P-IA@10``,
``strec@5``. The nickname ``ndeval`` stands for ndeval's 21 columns in its order, and
accepts ``alpha``, ``beta`` and ``traditional`` (``ndeval(traditional=1)``: ndeval's
``-traditional`` ranking by score).

NTCIREVAL's family (:mod:`.dmeasures`): ``I-rec@10``, ``D-nDCG@10``,
``D#-nDCG(gamma=0.5)@10``, ``DIN-nDCG@10``, ``P+Q@10``, ``P+Q#@10``, ``D-Q@10``,
``D-nERR@10``, ``D-P+``..., and the gold standards of Sakai's concordance test ``PMP@10``
and ``EP@10``; ``♯`` may be written for ``#``, and NTCIREVAL's output names
are accepted with the prefix ``ntcir:`` (``ntcir:D#-nDCG@0010``, :data:`NTCIR_DIVERSITY`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...errors import MeasureError
from ..base import (
    CATALOGUE,
    REGISTRY,
    Family,
    MeasureRequest,
    declare,
    get_family,
    register,
)
from ..names import NameParts, parse_measures, parse_name, split_name
from ..params import Keyword, Keywords, Params, ParamSpec, flag, number, split_items
from . import ndeval as nd
from .context import DiversityContext
from .weighted import weighted_values

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    import numpy as np

    from ..base import CutoffRule

#: The diversity families: the one catalogue's families of per-intent judgments, each a
#: kernel ``kernel(ctx, params, k)`` → one value per ranking.
DIVERSITY_REGISTRY = CATALOGUE["intents"]


ALPHA = Keyword(number(low=0.0, high=1.0), 0.5,
                "redundancy intolerance α (ndeval -alpha): intent gain (1 − α)^c")
BETA = Keyword(number(low=0.0, high=1.0), 0.5, "patience β of NRBP (ndeval -beta)")


def _alpha() -> Keywords:
    return Keywords(alpha=ALPHA)


TOPIC_ALPHA = Keyword(flag, False, "take each topic's α from --topic-alpha FILE (a topic "
                      "not listed: alpha=)")


def _weighted() -> Keywords:
    return Keywords(alpha=ALPHA, topic_alpha=TOPIC_ALPHA)


def _declare(name: str, values: Callable[..., np.ndarray], cutoff: CutoffRule,
             params: Keywords, doc: str, formula: str, source: str) -> None:
    """Register the family ``name`` of per-intent judgments whose values are
    ``values(ctx, name, k, **params)`` at the name's cut-off k with the parameters it
    declares: ndeval's (:func:`.ndeval.ndeval_values`, ndeval's α and β where the family
    declares none) or the weighted ones (:func:`.weighted.weighted_values`)."""

    def kernel(ctx: DiversityContext, p: Params, k: int | None) -> np.ndarray:
        return values(ctx, name, k, **p)

    register(name, cutoff=cutoff, params=params, doc=doc, context="intents",
             formula=formula, source=source)(kernel)


# ndeval's families and their weighted variants
_declare("ERR-IA", nd.ndeval_values, "required", _alpha(),
         "Intent-aware ERR with ndeval's collection-independent normalisation.",
         "Σ_{i≤k} score_i/i / Σ_{i≤k} S(1 − α)^(i−1)/i, score_i = Σ_j (1 − α)^c_j(i)",
         "Chapelle et al. 2009; ndeval 4.5")
_declare("nERR-IA", nd.ndeval_values, "required", _alpha(),
         "ERR-IA normalised by the greedy ideal ranking (ndeval).",
         "ERR-IA@k / ERR-IA@k of the greedy ideal ranking", "ndeval 4.5")
_declare("alpha-DCG", nd.ndeval_values, "required", _alpha(),
         "α-DCG with ndeval's collection-independent normalisation.",
         "Σ_{i≤k} score_i·disc(i) / Σ_{i≤k} S(1 − α)^(i−1)·disc(i)",
         "Clarke et al. 2008; ndeval 4.5")
_declare("alpha-nDCG", nd.ndeval_values, "required", _alpha(),
         "α-nDCG (Clarke et al. 2008): α-DCG over the greedy ideal's (ndeval).",
         "α-DCG@k / α-DCG@k of the greedy ideal ranking", "Clarke et al. 2008; ndeval 4.5")
_declare("alpha-nDCG-w", weighted_values, "required", _weighted(),
         "α-nDCG with the intents weighted by Pr(i|q) (--intent-probs; uniform: ndeval's), "
         "optionally an α per topic.",
         "Σ_{i≤k} score_i/log2(i+1) over the greedy ideal's, score_i = "
         "Σ_j Pr(j|q)·(1 − α_t)^c_j(i)", "Clarke et al. 2008; Agrawal et al. 2009")
_declare("nERR-IA-w", weighted_values, "required", _weighted(),
         "nERR-IA with the intents weighted by Pr(i|q) (--intent-probs; uniform: ndeval's), "
         "optionally an α per topic.",
         "Σ_{i≤k} score_i/i over the greedy ideal's, score_i = Σ_j Pr(j|q)·(1 − α_t)^c_j(i)",
         "Chapelle et al. 2009; Agrawal et al. 2009")
_declare("NRBP", nd.ndeval_values, "none", Keywords(alpha=ALPHA, beta=BETA),
         "Novelty- and rank-biased precision (Clarke et al. 2009), ndeval's.",
         "(1 − (1 − α)β)/S · Σ_i score_i·β^(i−1)", "Clarke et al. 2009; ndeval 4.5")
_declare("nNRBP", nd.ndeval_values, "none", Keywords(alpha=ALPHA, beta=BETA),
         "NRBP over the greedy ideal's NRBP (ndeval).",
         "NRBP / NRBP of the greedy ideal ranking", "Clarke et al. 2009; ndeval 4.5")
_declare("MAP-IA", nd.ndeval_values, "none", Keywords(),
         "Intent-aware average precision (ndeval).", "(1/S) Σ_j AP_j",
         "Agrawal et al. 2009; ndeval 4.5")
_declare("P-IA", nd.ndeval_values, "required", Keywords(),
         "Intent-aware precision at k (Agrawal et al. 2009; ndeval).",
         "Σ_j |relevant to j in top k| / (k·S)", "Agrawal et al. 2009; ndeval 4.5")
_declare("strec", nd.ndeval_values, "required", Keywords(), "Subtopic recall at k (ndeval).",
         "|intents covered in top k| / S", "Zhai et al. 2003; ndeval 4.5")


#: ndeval's columns, in the order it prints them.
NDEVAL_COLUMNS = tuple(
    [f"{m}@{k}" for m in ("ERR-IA", "nERR-IA", "alpha-DCG", "alpha-nDCG") for k in (5, 10, 20)]
    + ["NRBP", "nNRBP", "MAP-IA"]
    + [f"{m}@{k}" for m in ("P-IA", "strec") for k in (5, 10, 20)])

NDEVAL_NICKNAME = Keywords(alpha=ALPHA, beta=BETA, traditional=Keyword(
    flag, False, "rank by score then docno (ndeval -traditional) instead of by rank"))


#: NTCIREVAL's output names of its diversity measures (the ``D-``/``D#-`` scripts, ``irec``
#: and the intent-type-sensitive ``DIN``/``P+Q`` ones), as ``ntcir:Name@k`` with k as
#: printed (``ntcir:D#-nDCG@0010``) → the irscale name (``D#-nDCG@10``).
NTCIR_DIVERSITY = ("I-rec", "D-nDCG", "D#-nDCG", "D-Q", "D#-Q", "D-nERR", "D#-nERR",
                   "DIN-nDCG", "DIN#-nDCG", "P+Q", "P+Q#")


def _normalise(text: str) -> str:
    """``♯`` written as ``#``; ``ntcir:Name@0010`` as ``Name@10`` (a MeasureError for an
    NTCIREVAL name that is not a diversity measure of NTCIREVAL)."""
    text = text.strip().replace("\u266f", "#")
    if not text.startswith("ntcir:"):
        return text
    name, at, cutoff = text[len("ntcir:"):].partition("@")
    if name not in NTCIR_DIVERSITY or (at and not cutoff.isdigit()) or not at:
        raise MeasureError(f"unknown NTCIREVAL diversity measure {text!r} (known: "
                           f"{', '.join('ntcir:' + n + '@k' for n in NTCIR_DIVERSITY)})")
    return f"{name}@{int(cutoff)}"


@dataclass(frozen=True)
class DiversityRequest:
    """One diversity family with its parameters and cut-off, shown as ``label``."""

    family: str
    params: Params
    cutoff: int | None
    label: str
    #: Options the name sets for the whole evaluation (``traditional``).
    options: tuple[tuple[str, Any], ...] = field(default=())
    #: Computed on the condensed rankings (``condensed=1``: :mod:`.condensed`).
    condensed: bool = False


def is_diversity_name(name: str) -> bool:
    """True when ``name`` names a diversity measure (or the ``ndeval`` set): a family of
    per-intent judgments (:func:`~irscale.measures.names.parse_name` reads it), an
    NTCIREVAL diversity name, or ``ndeval``."""
    text = name.strip().replace("\u266f", "#")
    if text.startswith("ntcir:"):
        return text[len("ntcir:"):].partition("@")[0] in NTCIR_DIVERSITY
    if any(getattr(f.params, "inner", None) and text.startswith(f"{f.name}(")
           and text.endswith(")") for f in DIVERSITY_REGISTRY.values()):  # IA(nDCG@10)
        return True
    parts = split_name(text)
    return parts is not None and (parts.name in DIVERSITY_REGISTRY or parts.name == "ndeval")


def parse_diversity_measures(names: str | Iterable[str]) -> list[DiversityRequest]:
    """Requests for diversity measure names: the names of the families of per-intent
    judgments as :func:`~irscale.measures.names.parse_name` reads them, NTCIREVAL's output
    names (``ntcir:D#-nDCG@0010``) and the nickname ``ndeval`` (ndeval's 21 columns).

    Examples
    --------
    >>> [r.label for r in parse_diversity_measures("alpha-nDCG@10 NRBP(beta=0.8)")]
    ['alpha-nDCG@10', 'NRBP(beta=0.8)']
    >>> len(parse_diversity_measures("ndeval"))
    21
    >>> parse_diversity_measures("NRBP(alpha=2)")
    Traceback (most recent call last):
        ...
    irscale.errors.MeasureError: measure 'NRBP(alpha=2)': bad value '2' for alpha: must be ≤ 1.0
    """
    items = [part for name in ([names] if isinstance(names, str) else names)
             for part in str(name).split()]
    if not items:
        raise MeasureError("no measure requested")
    out: list[DiversityRequest] = []
    for name in items:
        out.extend(_parse_one(str(name).strip()))
    return out


def _parse_one(requested: str) -> list[DiversityRequest]:
    from dataclasses import replace

    from .condensed import strip_condensed

    text = _normalise(requested)
    parts = split_name(text)
    if parts is not None and parts.name in DIVERSITY_REGISTRY \
            and DIVERSITY_REGISTRY[parts.name].kernel is not None:
        plain, condensed = strip_condensed(text)
        if condensed:
            return [replace(r, condensed=True, label=requested) for r in _parse_one(plain)]
    if parts is not None and parts.name == "ndeval":
        return _ndeval(text, parts)
    measure = parse_name(text, "intents")
    if DIVERSITY_REGISTRY[measure.family].kernel is None:  # IA(...), D-U, U-IA: per intent
        return [DiversityRequest("IA", Keywords().from_items({}, text), None, requested)]
    return [DiversityRequest(measure.family, measure.params, measure.cutoff, requested)]


def _ndeval(text: str, parts: NameParts) -> list[DiversityRequest]:
    """The nickname ``ndeval``: ndeval's columns, with its α, β and ``traditional``."""
    if parts.cutoff is not None:
        raise MeasureError(f"measure 'ndeval' takes no cut-off, got {text!r} (ndeval "
                           "reports @5, @10 and @20)")
    params = NDEVAL_NICKNAME.from_items(split_items(parts.params or "", "ndeval"), "ndeval")
    options = (("traditional", params["traditional"]),) if "traditional" in params.given \
        else ()
    requests = []
    for column in NDEVAL_COLUMNS:
        family, _, k = column.partition("@")
        spec = DIVERSITY_REGISTRY[family].params
        assert isinstance(spec, Keywords)
        given = {key: repr(params[key]) for key in spec.keywords}
        requests.append(DiversityRequest(family, spec.from_items(given, family),
                                         int(k) if k else None, column, options))
    return requests


from . import dmeasures  # noqa: E402  (registers NTCIREVAL's families)


class InnerMeasure(ParamSpec):
    """The parameter of ``IA(<measure>)``: one measure of judged rankings with one mean
    value per topic, written between the parentheses and read by
    :func:`~irscale.measures.names.parse_measures` (its parsed value is that
    :class:`~irscale.measures.base.MeasureRequest`)."""

    #: A measure it takes, for examples and :func:`~irscale.measures.names.canonical_name`.
    example = "nDCG@10"

    def inner(self, inner: str, label: str) -> MeasureRequest:
        if not inner.strip():
            raise MeasureError(f"{label!r}: write IA(<measure>), e.g. IA(nDCG@10)")
        try:
            requests = parse_measures(inner)
        except MeasureError as error:
            raise MeasureError(f"{label}: {error}") from None
        request = requests[0]
        if request.conditional:
            raise MeasureError(f"{label}: conditional=1 cannot apply per intent: the "
                               "conditional groups judge the documents of a topic")
        count = len(requests)
        if count == 1 and isinstance(request.params, tuple):  # P.5,10: columns
            count = len(request.params)
        if count != 1:
            raise MeasureError(f"{label}: IA(...) takes one measure, {inner.strip()!r} names "
                               f"{count}")
        family = get_family(request.family)
        if not family.per_query or family.aggregate != "mean" or family.value_type == "str":
            what = {"sum": "a count", "gmean": "a geometric mean", "runid": "text",
                    "count": "a count"}.get(family.aggregate, "not a mean over topics")
            raise MeasureError(f"{label}: IA(...) averages a per-topic measure over intents; "
                               f"{inner.strip()!r} is not one (its summary is {what})")
        return request

    def describe(self) -> list[dict[str, str]]:
        return [{"name": "measure", "domain": "a measure of judged rankings with one mean "
                 "value per topic", "default": "", "doc": "the measure M computed per intent"}]


class UParameters(ParamSpec):
    """The parameters of ``D-U(...)`` and ``U-IA(...)``: those of the catalogue's ``U``, read
    by :func:`~irscale.measures.names.parse_measures` as ``U(...)`` (its parsed value is
    that :class:`~irscale.measures.base.MeasureRequest`)."""

    def inner(self, inner: str, label: str) -> MeasureRequest:
        try:
            return parse_measures("U" + (f"({inner})" if inner else ""))[0]
        except MeasureError as error:
            raise MeasureError(f"{label}: {error}") from None

    def describe(self) -> list[dict[str, str]]:
        from ..describe import parameters

        return parameters(REGISTRY["U"].params)


#: Families computed by the main engine on each intent's judgments (:mod:`.intent_aware`,
#: :mod:`.umeasures`): their requests are of family ``IA``, told apart by their label.
declare(Family("IA", None, InnerMeasure(), "Intent-aware version of any per-topic measure "
               "of judged rankings.", context="intents", cutoff="none",
               formula="Σ_i Pr(i|q) · M_i, M_i the measure with intent i's judgments alone",
               source="Agrawal et al. 2009"))
declare(Family("U-IA", None, UParameters(), "Intent-aware U-measure: IA(U(...)).",
               context="intents", cutoff="none",
               formula="Σ_i Pr(i|q) · U_i, U_i over the local trailtext of intent i",
               source="Sakai & Dou 2013"))
declare(Family("D-U", None, UParameters(), "U-measure of one trailtext read with the "
               "global gains of the intents.", context="intents", cutoff="none",
               formula="(1/𝒩) Σ_k g(pos_k) · D(pos_k), g(pos) = Σ_i Pr(i|q) · g_i(pos)",
               source="Sakai & Dou 2013"))

__all__ = ["DIVERSITY_REGISTRY", "NDEVAL_COLUMNS", "NTCIR_DIVERSITY", "DiversityContext",
           "DiversityRequest", "dmeasures", "is_diversity_name", "parse_diversity_measures"]

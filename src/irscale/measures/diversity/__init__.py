"""Diversity (intent-aware) measures: a registry of families, their names, and ndeval's set.

Each family is one small kernel ``kernel(ctx, params, k)`` over a
:class:`~.context.DiversityContext` (the run's rankings judged per intent, the qrels'
graded levels, intent probabilities and types, ndeval's greedy ideal rankings), registered
with its parameters as the one-degree families are (:mod:`irscale.measures.base`). Names
follow the ir_measures style with parameters in the name: ``alpha-nDCG@20``,
``alpha-nDCG(alpha=0.5)@20``, ``NRBP(alpha=0.5,beta=0.5)``, ``MAP-IA``, ``P-IA@10``,
``strec@5``. The nickname ``ndeval`` stands for ndeval's 21 columns in its order, and
accepts ``alpha``, ``beta`` and ``traditional`` (``ndeval(traditional=1)``: ndeval's
``-traditional`` ranking by score).

NTCIREVAL's family (:mod:`.dmeasures`): ``I-rec@10``, ``D-nDCG@10``,
``D#-nDCG(gamma=0.5)@10``, ``DIN-nDCG@10``, ``P+Q@10``, ``P+Q#@10``, ``D-Q@10``,
``D-nERR@10``, ``D-P+``...; ``♯`` may be written for ``#``, and NTCIREVAL's output names
are accepted with the prefix ``ntcir:`` (``ntcir:D#-nDCG@0010``, :data:`NTCIR_DIVERSITY`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...errors import MeasureError
from ..base import CATALOGUE, REGISTRY, Family, ParamSpec, declare, register
from ..params import Keyword, Keywords, Params, flag, number, split_items
from . import ndeval as nd
from .context import DiversityContext

#: The diversity families: the one catalogue's families of per-intent judgments, each a
#: kernel ``kernel(ctx, params, k)`` → one value per ranking.
DIVERSITY_REGISTRY = CATALOGUE["intents"]


ALPHA = Keyword(number(low=0.0, high=1.0), 0.5,
                "redundancy intolerance α (ndeval -alpha): intent gain (1 − α)^c")
BETA = Keyword(number(low=0.0, high=1.0), 0.5, "patience β of NRBP (ndeval -beta)")


def _alpha() -> Keywords:
    return Keywords(alpha=ALPHA)


@register("ERR-IA", cutoff="required", params=_alpha(),
          doc="Intent-aware ERR with ndeval's collection-independent normalisation.",
          context="intents",
          formula="Σ_{i≤k} score_i/i / Σ_{i≤k} S(1 − α)^(i−1)/i, score_i = Σ_j (1 − α)^c_j(i)",
          source="Chapelle et al. 2009; ndeval 4.5")
def _err_ia(ctx, p, k):
    return nd.err_at(ctx.run, p["alpha"], k)


@register("nERR-IA", cutoff="required", params=_alpha(),
          doc="ERR-IA normalised by the greedy ideal ranking (ndeval).",
          context="intents",
          formula="ERR-IA@k / ERR-IA@k of the greedy ideal ranking",
          source="ndeval 4.5")
def _nerr_ia(ctx, p, k):
    dr, ideal = ctx.run, ctx.ideal(p["alpha"])
    return nd.normalised(nd.err_at(dr, p["alpha"], k), nd.err_at(ideal, p["alpha"], k),
                         dr.ranking_topic, nd.dcg_at(dr, p["alpha"], k))


@register("alpha-DCG", cutoff="required", params=_alpha(),
          doc="α-DCG with ndeval's collection-independent normalisation.",
          context="intents",
          formula="Σ_{i≤k} score_i·disc(i) / Σ_{i≤k} S(1 − α)^(i−1)·disc(i)",
          source="Clarke et al. 2008; ndeval 4.5")
def _alpha_dcg(ctx, p, k):
    return nd.dcg_at(ctx.run, p["alpha"], k)


@register("alpha-nDCG", cutoff="required", params=_alpha(),
          doc="α-nDCG (Clarke et al. 2008): α-DCG over the greedy ideal's (ndeval).",
          context="intents",
          formula="α-DCG@k / α-DCG@k of the greedy ideal ranking",
          source="Clarke et al. 2008; ndeval 4.5")
def _alpha_ndcg(ctx, p, k):
    run = nd.dcg_at(ctx.run, p["alpha"], k)
    return nd.normalised(run, nd.dcg_at(ctx.ideal(p["alpha"]), p["alpha"], k),
                         ctx.run.ranking_topic, run)


@register("NRBP", cutoff="none", params=Keywords(alpha=ALPHA, beta=BETA),
          doc="Novelty- and rank-biased precision (Clarke et al. 2009), ndeval's.",
          context="intents",
          formula="(1 − (1 − α)β)/S · Σ_i score_i·β^(i−1)",
          source="Clarke et al. 2009; ndeval 4.5")
def _nrbp(ctx, p, k):
    return nd.nrbp(ctx.run, p["alpha"], p["beta"])


@register("nNRBP", cutoff="none", params=Keywords(alpha=ALPHA, beta=BETA),
          doc="NRBP over the greedy ideal's NRBP (ndeval).",
          context="intents",
          formula="NRBP / NRBP of the greedy ideal ranking",
          source="Clarke et al. 2009; ndeval 4.5")
def _nnrbp(ctx, p, k):
    return nd.nnrbp(ctx.run, ctx.ideal(p["alpha"]), p["alpha"], p["beta"])


@register("MAP-IA", params=Keywords(), cutoff="none",
          doc="Intent-aware average precision (ndeval).",
          context="intents",
          formula="(1/S) Σ_j AP_j",
          source="Agrawal et al. 2009; ndeval 4.5")
def _map_ia(ctx, p, k):
    return nd.map_ia(ctx.run)


@register("P-IA", params=Keywords(), cutoff="required",
          doc="Intent-aware precision at k (Agrawal et al. 2009; ndeval).",
          context="intents",
          formula="Σ_j |relevant to j in top k| / (k·S)",
          source="Agrawal et al. 2009; ndeval 4.5")
def _p_ia(ctx, p, k):
    return nd.precision_ia(ctx.run, k)


@register("strec", params=Keywords(), cutoff="required", doc="Subtopic recall at k (ndeval).",
          context="intents",
          formula="|intents covered in top k| / S",
          source="Zhai et al. 2003; ndeval 4.5")
def _strec(ctx, p, k):
    return nd.subtopic_recall(ctx.run, k)


#: ndeval's columns, in the order it prints them.
NDEVAL_COLUMNS = tuple(
    [f"{m}@{k}" for m in ("ERR-IA", "nERR-IA", "alpha-DCG", "alpha-nDCG") for k in (5, 10, 20)]
    + ["NRBP", "nNRBP", "MAP-IA"]
    + [f"{m}@{k}" for m in ("P-IA", "strec") for k in (5, 10, 20)])

NDEVAL_NICKNAME = Keywords(alpha=ALPHA, beta=BETA, traditional=Keyword(
    flag, False, "rank by score then docno (ndeval -traditional) instead of by rank"))

_NAME = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9_+#-]*)(?:\((?P<params>[^()]*)\))?"
                   r"(?:@(?P<cutoff>[^@]*))?$")

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


def is_diversity_name(name: str) -> bool:
    """True when ``name`` names a diversity measure (or the ``ndeval`` set)."""
    text = name.strip().replace("\u266f", "#")
    if _intent_aware_name(text):
        return True
    if text.startswith("ntcir:"):
        return text[len("ntcir:"):].partition("@")[0] in NTCIR_DIVERSITY
    match = _NAME.match(text)
    return match is not None and (match["name"] in _kernels() or match["name"] == "ndeval")


def parse_diversity_measures(names: str | Iterable[str]) -> list[DiversityRequest]:
    """Requests for diversity measure names.

    Examples
    --------
    >>> [r.label for r in parse_diversity_measures("alpha-nDCG@10 NRBP(beta=0.8)")]
    ['alpha-nDCG@10', 'NRBP(beta=0.8)']
    >>> len(parse_diversity_measures("ndeval"))
    21
    >>> parse_diversity_measures("alpha-nDCG(alpha=2)@5")
    Traceback (most recent call last):
        ...
    irscale.errors.MeasureError: measure 'alpha-nDCG': bad value '2' for alpha: must be ≤ 1.0
    """
    items = [part for name in ([names] if isinstance(names, str) else names)
             for part in str(name).split()]
    if not items:
        raise MeasureError("no measure requested")
    out: list[DiversityRequest] = []
    for name in items:
        out.extend(_parse_one(str(name).strip()))
    return out


def _kernels() -> list[str]:
    """The families computed by a kernel of their own (not ``IA(...)``, ``D-U``, ``U-IA``)."""
    return [name for name, family in DIVERSITY_REGISTRY.items() if family.kernel is not None]


def _intent_aware_name(text: str) -> bool:
    """``IA(<measure>)``, ``D-U(...)`` or ``U-IA(...)`` (:mod:`.intent_aware`,
    :mod:`.umeasures`: computed by the main engine per intent, not by a registered kernel)."""
    from .intent_aware import is_intent_aware_name
    from .umeasures import is_umeasure_name

    return is_intent_aware_name(text) or is_umeasure_name(text)


def _parse_one(requested: str) -> list[DiversityRequest]:
    if _intent_aware_name(requested):
        from .intent_aware import inner_request
        from .umeasures import is_umeasure_name, u_request

        text = requested.strip()
        (u_request if is_umeasure_name(text) else inner_request)(text)  # checks the name
        return [DiversityRequest("IA", Keywords().from_items({}, text), None, text)]
    text = _normalise(requested)
    match = _NAME.match(text)
    if not match or not (match["name"] in _kernels() or match["name"] == "ndeval"):
        import difflib

        known = [*_kernels(), "ndeval"]
        close = difflib.get_close_matches(text.split("(")[0].split("@")[0], known, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise MeasureError(f"unknown diversity measure {text!r}{hint}; known: "
                           f"{', '.join(known)}")
    name, cutoff_text = match["name"], match["cutoff"]
    items = split_items(match["params"] or "", name)
    if name == "ndeval":
        if cutoff_text is not None:
            raise MeasureError(f"measure 'ndeval' takes no cut-off, got {text!r} (ndeval "
                               "reports @5, @10 and @20)")
        params = NDEVAL_NICKNAME.from_items(items, name)
        options = ((("traditional", params["traditional"]),)
                   if "traditional" in params.given else ())
        requests = []
        for column in NDEVAL_COLUMNS:
            family, _, k = column.partition("@")
            spec = DIVERSITY_REGISTRY[family].params
            assert isinstance(spec, Keywords)
            given = {key: repr(params[key]) for key in spec.keywords}
            requests.append(DiversityRequest(family, spec.from_items(given, family),
                                             int(k) if k else None, column, options))
        return requests
    chosen = DIVERSITY_REGISTRY[name]
    assert isinstance(chosen.params, Keywords)
    params = chosen.params.from_items(items, name)
    if chosen.cutoff == "required" and cutoff_text is None:
        raise MeasureError(f"measure {name!r} needs a cut-off: {name}@k (ndeval: "
                           f"{name}@5, @10, @20)")
    if chosen.cutoff == "none" and cutoff_text is not None:
        raise MeasureError(f"measure {name!r} takes no cut-off (it uses the whole "
                           f"ranking), got {text!r}")
    cutoff: int | None = None
    if cutoff_text is not None:
        if not cutoff_text.isdigit() or int(cutoff_text) < 1:
            raise MeasureError(f"measure {name!r}: the cut-off must be a positive integer, "
                               f"got {cutoff_text!r}")
        cutoff = int(cutoff_text)
    return [DiversityRequest(name, params, cutoff, requested)]


from . import dmeasures  # noqa: E402  (registers NTCIREVAL's families)


class InnerMeasure(ParamSpec):
    """The one parameter of ``IA(<measure>)``: a measure of judged rankings, written inside
    the parentheses (parsed by :func:`.intent_aware.inner_request`)."""

    def describe(self) -> list[dict[str, str]]:
        return [{"name": "measure", "domain": "a measure of judged rankings with one mean "
                 "value per topic", "default": "", "doc": "the measure M computed per intent"}]


#: Families computed by the main engine on each intent's judgments (:mod:`.intent_aware`,
#: :mod:`.umeasures`): their requests are of family ``IA``, told apart by their label.
declare(Family("IA", None, InnerMeasure(), "Intent-aware version of any per-topic measure "
               "of judged rankings.", context="intents", cutoff="none",
               formula="Σ_i Pr(i|q) · M_i, M_i the measure with intent i's judgments alone",
               source="Agrawal et al. 2009"))
declare(Family("U-IA", None, REGISTRY["U"].params, "Intent-aware U-measure: IA(U(...)).",
               context="intents", cutoff="none",
               formula="Σ_i Pr(i|q) · U_i, U_i over the local trailtext of intent i",
               source="Sakai & Dou 2013"))
declare(Family("D-U", None, REGISTRY["U"].params, "U-measure of one trailtext read with "
               "the global gains of the intents.", context="intents", cutoff="none",
               formula="(1/𝒩) Σ_k g(pos_k) · D(pos_k), g(pos) = Σ_i Pr(i|q) · g_i(pos)",
               source="Sakai & Dou 2013"))

__all__ = ["DIVERSITY_REGISTRY", "NDEVAL_COLUMNS", "NTCIR_DIVERSITY", "DiversityContext",
           "DiversityRequest", "dmeasures", "is_diversity_name", "parse_diversity_measures"]

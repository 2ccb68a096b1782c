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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ...errors import MeasureError
from ..params import Keyword, Keywords, Params, flag, number, split_items
from . import ndeval as nd
from .context import DiversityContext

DiversityKernel = Callable[[DiversityContext, Params, "int | None"], np.ndarray]

#: Cut-off rule of a family: ``required`` (``name@k``), ``none`` (no ``@k``) or
#: ``optional`` (``name@k``, or the whole ranking without one).
CutoffRule = Literal["required", "none", "optional"]


@dataclass(frozen=True)
class DiversityFamily:
    """A registered diversity family: kernel(context, params, k) → one value per ranking."""

    name: str
    kernel: DiversityKernel
    params: Keywords
    doc: str
    cutoff: CutoffRule


DIVERSITY_REGISTRY: dict[str, DiversityFamily] = {}


def register_diversity(name: str, *, doc: str, params: Keywords | None = None,
                       cutoff: CutoffRule) -> Callable[[DiversityKernel], DiversityKernel]:
    def decorate(kernel: DiversityKernel) -> DiversityKernel:
        if name in DIVERSITY_REGISTRY:
            raise RuntimeError(f"diversity measure {name!r} registered twice")
        DIVERSITY_REGISTRY[name] = DiversityFamily(name, kernel, params or Keywords(), doc,
                                                   cutoff)
        return kernel
    return decorate


ALPHA = Keyword(number(low=0.0, high=1.0), 0.5,
                "redundancy intolerance α (ndeval -alpha): intent gain (1 − α)^c")
BETA = Keyword(number(low=0.0, high=1.0), 0.5, "patience β of NRBP (ndeval -beta)")


def _alpha() -> Keywords:
    return Keywords(alpha=ALPHA)


@register_diversity("ERR-IA", cutoff="required", params=_alpha(),
                    doc="Intent-aware ERR with ndeval's collection-independent normalisation.")
def _err_ia(ctx, p, k):
    return nd.err_at(ctx.run, p["alpha"], k)


@register_diversity("nERR-IA", cutoff="required", params=_alpha(),
                    doc="ERR-IA normalised by the greedy ideal ranking (ndeval).")
def _nerr_ia(ctx, p, k):
    dr, ideal = ctx.run, ctx.ideal(p["alpha"])
    return nd.normalised(nd.err_at(dr, p["alpha"], k), nd.err_at(ideal, p["alpha"], k),
                         dr.ranking_topic, nd.dcg_at(dr, p["alpha"], k))


@register_diversity("alpha-DCG", cutoff="required", params=_alpha(),
                    doc="α-DCG with ndeval's collection-independent normalisation.")
def _alpha_dcg(ctx, p, k):
    return nd.dcg_at(ctx.run, p["alpha"], k)


@register_diversity("alpha-nDCG", cutoff="required", params=_alpha(),
                    doc="α-nDCG (Clarke et al. 2008): α-DCG over the greedy ideal's (ndeval).")
def _alpha_ndcg(ctx, p, k):
    run = nd.dcg_at(ctx.run, p["alpha"], k)
    return nd.normalised(run, nd.dcg_at(ctx.ideal(p["alpha"]), p["alpha"], k),
                         ctx.run.ranking_topic, run)


@register_diversity("NRBP", cutoff="none", params=Keywords(alpha=ALPHA, beta=BETA),
                    doc="Novelty- and rank-biased precision (Clarke et al. 2009), ndeval's.")
def _nrbp(ctx, p, k):
    return nd.nrbp(ctx.run, p["alpha"], p["beta"])


@register_diversity("nNRBP", cutoff="none", params=Keywords(alpha=ALPHA, beta=BETA),
                    doc="NRBP over the greedy ideal's NRBP (ndeval).")
def _nnrbp(ctx, p, k):
    return nd.nnrbp(ctx.run, ctx.ideal(p["alpha"]), p["alpha"], p["beta"])


@register_diversity("MAP-IA", cutoff="none", doc="Intent-aware average precision (ndeval).")
def _map_ia(ctx, p, k):
    return nd.map_ia(ctx.run)


@register_diversity("P-IA", cutoff="required",
                    doc="Intent-aware precision at k (Agrawal et al. 2009; ndeval).")
def _p_ia(ctx, p, k):
    return nd.precision_ia(ctx.run, k)


@register_diversity("strec", cutoff="required", doc="Subtopic recall at k (ndeval).")
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
    return match is not None and (match["name"] in DIVERSITY_REGISTRY
                                  or match["name"] == "ndeval")


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
    if not match or not (match["name"] in DIVERSITY_REGISTRY or match["name"] == "ndeval"):
        import difflib

        known = [*DIVERSITY_REGISTRY, "ndeval"]
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
            given = {key: repr(params[key]) for key in spec.keywords}
            requests.append(DiversityRequest(family, spec.from_items(given, family),
                                             int(k) if k else None, column, options))
        return requests
    chosen = DIVERSITY_REGISTRY[name]
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

__all__ = ["DIVERSITY_REGISTRY", "NDEVAL_COLUMNS", "NTCIR_DIVERSITY", "CutoffRule",
           "DiversityContext", "DiversityFamily", "DiversityRequest", "dmeasures",
           "is_diversity_name", "parse_diversity_measures", "register_diversity"]

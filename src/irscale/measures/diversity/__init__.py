"""Diversity (intent-aware) measures: a registry of families, their names, and ndeval's set.

Each family is one small kernel over a :class:`~.rankings.DiversityRankings` batch (the
run's rankings judged per intent) and the batch of ideal rankings of the qrels, registered
with its parameters as the one-degree families are (:mod:`irscale.measures.base`). Names
follow the ir_measures style with parameters in the name: ``alpha-nDCG@20``,
``alpha-nDCG(alpha=0.5)@20``, ``NRBP(alpha=0.5,beta=0.5)``, ``MAP-IA``, ``P-IA@10``,
``strec@5``. The nickname ``ndeval`` stands for ndeval's 21 columns in its order, and
accepts ``alpha``, ``beta`` and ``traditional`` (``ndeval(traditional=1)``: ndeval's
``-traditional`` ranking by score).

NTCIREVAL's family (I-rec, D-nDCG, D♯-measures, IA(...)) can be registered here alike: the
batch keeps per-intent relevant entries and the qrels keep graded levels
(:class:`~irscale.io.diversity.DiversityQrels`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import MeasureError
from ..params import Keyword, Keywords, Params, flag, number, split_items
from . import ndeval as nd
from .rankings import DiversityRankings

DiversityKernel = Callable[[DiversityRankings, DiversityRankings, Params, "int | None"],
                           np.ndarray]


@dataclass(frozen=True)
class DiversityFamily:
    """A registered diversity family: kernel(run batch, ideal batch, params, k) → values."""

    name: str
    kernel: DiversityKernel
    params: Keywords
    doc: str
    cutoff: bool  # True: the name needs @k; False: it takes none


DIVERSITY_REGISTRY: dict[str, DiversityFamily] = {}


def register_diversity(name: str, *, doc: str, params: Keywords | None = None,
                       cutoff: bool) -> Callable[[DiversityKernel], DiversityKernel]:
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


@register_diversity("ERR-IA", cutoff=True, params=_alpha(),
                    doc="Intent-aware ERR with ndeval's collection-independent normalisation.")
def _err_ia(dr, ideal, p, k):
    return nd.err_at(dr, p["alpha"], k)


@register_diversity("nERR-IA", cutoff=True, params=_alpha(),
                    doc="ERR-IA normalised by the greedy ideal ranking (ndeval).")
def _nerr_ia(dr, ideal, p, k):
    return nd.normalised(nd.err_at(dr, p["alpha"], k), nd.err_at(ideal, p["alpha"], k),
                         dr.ranking_topic, nd.dcg_at(dr, p["alpha"], k))


@register_diversity("alpha-DCG", cutoff=True, params=_alpha(),
                    doc="α-DCG with ndeval's collection-independent normalisation.")
def _alpha_dcg(dr, ideal, p, k):
    return nd.dcg_at(dr, p["alpha"], k)


@register_diversity("alpha-nDCG", cutoff=True, params=_alpha(),
                    doc="α-nDCG (Clarke et al. 2008): α-DCG over the greedy ideal's (ndeval).")
def _alpha_ndcg(dr, ideal, p, k):
    run = nd.dcg_at(dr, p["alpha"], k)
    return nd.normalised(run, nd.dcg_at(ideal, p["alpha"], k), dr.ranking_topic, run)


@register_diversity("NRBP", cutoff=False, params=Keywords(alpha=ALPHA, beta=BETA),
                    doc="Novelty- and rank-biased precision (Clarke et al. 2009), ndeval's.")
def _nrbp(dr, ideal, p, k):
    return nd.nrbp(dr, p["alpha"], p["beta"])


@register_diversity("nNRBP", cutoff=False, params=Keywords(alpha=ALPHA, beta=BETA),
                    doc="NRBP over the greedy ideal's NRBP (ndeval).")
def _nnrbp(dr, ideal, p, k):
    return nd.nnrbp(dr, ideal, p["alpha"], p["beta"])


@register_diversity("MAP-IA", cutoff=False, doc="Intent-aware average precision (ndeval).")
def _map_ia(dr, ideal, p, k):
    return nd.map_ia(dr)


@register_diversity("P-IA", cutoff=True,
                    doc="Intent-aware precision at k (Agrawal et al. 2009; ndeval).")
def _p_ia(dr, ideal, p, k):
    return nd.precision_ia(dr, k)


@register_diversity("strec", cutoff=True, doc="Subtopic recall at k (ndeval).")
def _strec(dr, ideal, p, k):
    return nd.subtopic_recall(dr, k)


#: ndeval's columns, in the order it prints them.
NDEVAL_COLUMNS = tuple(
    [f"{m}@{k}" for m in ("ERR-IA", "nERR-IA", "alpha-DCG", "alpha-nDCG") for k in (5, 10, 20)]
    + ["NRBP", "nNRBP", "MAP-IA"]
    + [f"{m}@{k}" for m in ("P-IA", "strec") for k in (5, 10, 20)])

NDEVAL_NICKNAME = Keywords(alpha=ALPHA, beta=BETA, traditional=Keyword(
    flag, False, "rank by score then docno (ndeval -traditional) instead of by rank"))

_NAME = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9_-]*)(?:\((?P<params>[^()]*)\))?"
                   r"(?:@(?P<cutoff>[^@]*))?$")


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
    match = _NAME.match(name.strip())
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
    items = names.split() if isinstance(names, str) else list(names)
    if not items:
        raise MeasureError("no measure requested")
    out: list[DiversityRequest] = []
    for name in items:
        out.extend(_parse_one(str(name).strip()))
    return out


def _parse_one(text: str) -> list[DiversityRequest]:
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
    if chosen.cutoff:
        if cutoff_text is None:
            raise MeasureError(f"measure {name!r} needs a cut-off: {name}@k (ndeval: "
                               f"{name}@5, @10, @20)")
        if not cutoff_text.isdigit() or int(cutoff_text) < 1:
            raise MeasureError(f"measure {name!r}: the cut-off must be a positive integer, "
                               f"got {cutoff_text!r}")
        cutoff: int | None = int(cutoff_text)
    else:
        if cutoff_text is not None:
            raise MeasureError(f"measure {name!r} takes no cut-off (it uses the whole "
                               f"ranking), got {text!r}")
        cutoff = None
    return [DiversityRequest(name, params, cutoff, text)]


__all__ = ["DIVERSITY_REGISTRY", "NDEVAL_COLUMNS", "DiversityFamily", "DiversityRequest",
           "is_diversity_name", "parse_diversity_measures", "register_diversity"]

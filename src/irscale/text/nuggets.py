"""Nuggets and iUnits: TREC QA nugget F and the one-click S, T and S♯ measures (Sakai 2014,
§3.3 eq. 40–46).

For a topic with gold-standard nuggets V* (weights w(v), vital strings vs(v)) and an output
of length l in which the nuggets V ⊆ V* were found, nugget v ending at character pos(v):

* ``W-Rec(nuggets=all)`` (eq. 40): Σ_V w(v) / Σ_V* w(v). ``nuggets=vital``: V and V*
  restricted to the vital nuggets (TREC QA's official recall with all weights 1).
* ``Prec_allow(allowance=100)`` (eq. 41): 1 − max(0, l − allow) / l, allow = allowance ·
  |V| (every matched nugget, vital or okay, is entitled to ``allowance`` characters).
* ``F_QA(beta=1,allowance=100,nuggets=all)`` (eq. 42): (β² + 1)·P·R / (β²·P + R), P =
  Prec_allow, R = W-Rec (0 when both are 0). TREC QA used β = 5 (2003) and β = 3
  (2004–2005).
* ``S(L=1000)`` (eq. 43–44): Σ_V w(v)·max(0, L − pos(v)) / Σ_V* w(v)·max(0, L − pos*(v)),
  pos*(v) the end of vs(v) in the *pseudo-minimal output* (PMO): every vital string of
  the topic, by decreasing weight, then increasing length (then nugget id), concatenated.
* ``T`` (eq. 45): Σ_V |vs(v)| / l.
* ``Ssharp(L=1000,beta=1)`` (eq. 46; also spelt ``S#``): (1 + β²)·T♭·S♭ / (β²·T♭ + S♭),
  S♭ = min(1, S), T♭ = min(1, T) (0 when both are 0).

Lengths l, offsets pos(v) and |vs(v)| are counts of characters in one unit. With output
texts (``texts=``) irscale counts the non-blank characters (Sakai 2014, §3.3: "in characters,
excluding white spaces"), and vital strings are always counted so; a lengths file
(``lengths=``) gives l as you count it.

These are the kernels, functions of arrays (:class:`NuggetArrays`); the runner of files,
:func:`evaluate_nuggets`, is :mod:`irscale.evaluation.nuggets`'s (also importable from
here).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.lazy import lazy_package
from ..core.scaling import binary_exponent
from ..errors import MeasureError
from ..measures.arrays import f_beta
from ..measures.base import CATALOGUE
from ..measures.nuggets import ASSIGNMENT_FAMILIES

#: The measures of matches (those of assignment records are :mod:`irscale.text.assignments`').
NUGGET_MEASURES = tuple(n for n in CATALOGUE["nuggets"] if n not in ASSIGNMENT_FAMILIES)
DEFAULT_MEASURES = NUGGET_MEASURES
#: What ``measures`` may be (the start of the error otherwise).
NUGGETS_EXPECTED = 'measures must be nugget measure names such as "W-Rec" or ["S(L=1000)", "T"]'


def nonblank_chars(text: str) -> int:
    """Characters of ``text`` other than blanks (an output's length l, |vs(v)|)."""
    return sum(len(part) for part in text.split())


@dataclass(frozen=True, eq=False)
class NuggetArrays:
    """The gold-standard nuggets, the evaluated outputs (one per (run, topic)) and their
    matches, as arrays: what the kernels compute on."""

    topics: Sequence[str]  # the topics with nuggets (named in errors)
    source: str  # where the nuggets come from (named in errors)
    topic_code: np.ndarray  # topic index of every nugget
    weight: np.ndarray  # w(v) of every nugget, scaled per topic into [0, 1)
    vital: np.ndarray  # whether every nugget is vital
    vs_len: np.ndarray  # |vs(v)| of every nugget (-1: none)
    nugget_rank: np.ndarray  # rank of every nugget's id among the ids (ties of the PMO)
    out_topic: np.ndarray  # topic index of every output
    out_length: np.ndarray  # l of every output
    m_out: np.ndarray  # output of every match
    m_nugget: np.ndarray  # nugget of every match
    m_offset: np.ndarray  # pos(v) of every match


def _per_output(a: NuggetArrays, values: np.ndarray) -> np.ndarray:
    return np.bincount(a.m_out, weights=values, minlength=len(a.out_topic))


def pmo_positions(a: NuggetArrays) -> np.ndarray:
    """pos*(v) of every nugget: the end of vs(v) in its topic's pseudo-minimal output
    (vital strings by decreasing weight, then increasing length, then nugget id; eq. 43)."""
    order = np.lexsort((a.nugget_rank, a.vs_len, -a.weight, a.topic_code))
    ends = np.cumsum(a.vs_len[order])
    code = a.topic_code[order]
    first = np.r_[True, code[1:] != code[:-1]] if len(order) else np.zeros(0, dtype=bool)
    start = np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))
    before = np.where(start > 0, ends[np.maximum(start - 1, 0)], 0.0)
    out = np.empty(len(order))
    out[order] = ends - before
    return out


def _per_topic(a: NuggetArrays, weights: np.ndarray) -> tuple[np.ndarray, str | None]:
    """The sums of ``weights`` (one per nugget) per topic, and the first topic of an
    output whose sum is not positive (None when there is none)."""
    total = np.bincount(a.topic_code, weights=weights, minlength=len(a.topics))
    used = np.unique(a.out_topic)
    empty = used[total[used] <= 0]
    return total, a.topics[empty[0]] if len(empty) else None


def _gain(offset: np.ndarray, patience: float, unit: float) -> np.ndarray:
    """(L − pos)⁺ · unit: a nugget's gain in S (eq. 43), scaled by ``unit``."""
    return np.maximum(0.0, patience - offset) * unit


def recall(a: NuggetArrays, which: str) -> np.ndarray:
    """W-Rec of every output (eq. 40); ``which``: ``all`` or ``vital`` nuggets."""
    counted = a.vital if which == "vital" else np.ones(len(a.weight), dtype=bool)
    total, empty = _per_topic(a, np.where(counted, a.weight, 0.0))
    if empty is not None:
        raise MeasureError(f"topic {empty!r} of {a.source}: its "
                           f"{'vital ' if which == 'vital' else ''}nuggets weigh 0 "
                           "in all: recall is undefined")
    return _per_output(a, np.where(counted[a.m_nugget], a.weight[a.m_nugget], 0.0)) / \
        total[a.out_topic]


def prec_allow(a: NuggetArrays, allowance: float) -> np.ndarray:
    """Prec_allow of every output (eq. 41)."""
    # an allowance ≥ l allows the whole output: min(allowance, l) keeps the product
    # finite with the same value
    allow = np.minimum(allowance, a.out_length) * np.bincount(a.m_out,
                                                              minlength=len(a.out_topic))
    return 1.0 - np.maximum(0.0, a.out_length - allow) / a.out_length


def s_measure(a: NuggetArrays, patience: float) -> np.ndarray:
    """S of every output (eq. 43–44), L = ``patience``."""
    # L − pos(v) times 2^−e(L) (exact, as weights are scaled): every term w·(L − pos)
    # is below 1, and sums of them finite however large L is
    unit = math.ldexp(1.0, -binary_exponent(np.array([patience])))
    ideal, empty = _per_topic(a, a.weight * _gain(pmo_positions(a), patience, unit))
    if empty is not None:
        raise MeasureError(f"S(L={patience:g}): the pseudo-minimal output of topic "
                           f"{empty!r} gains nothing before L (its first "
                           "vital string ends at L or later, or its weights are 0)")
    return _per_output(a, a.weight[a.m_nugget] * _gain(a.m_offset, patience, unit)) / \
        ideal[a.out_topic]


def t_measure(a: NuggetArrays) -> np.ndarray:
    """T of every output (eq. 45)."""
    return _per_output(a, a.vs_len[a.m_nugget]) / a.out_length


def nugget_values(a: NuggetArrays, requests: Sequence[Any]) -> dict[str, np.ndarray]:
    """The values of every request (parsed names of the catalogue's ``nuggets`` context)
    for every output, by label."""
    values: dict[str, np.ndarray] = {}
    for r in requests:
        if r.label in values:
            continue
        p = r.params
        if r.family == "W-Rec":
            values[r.label] = recall(a, p["nuggets"])
        elif r.family == "Prec_allow":
            values[r.label] = prec_allow(a, p["allowance"])
        elif r.family == "F_QA":
            values[r.label] = f_beta(prec_allow(a, p["allowance"]), recall(a, p["nuggets"]),
                                     p["beta"])
        elif r.family == "S":
            values[r.label] = s_measure(a, p["L"])
        elif r.family == "T":
            values[r.label] = t_measure(a)
        else:
            values[r.label] = f_beta(np.minimum(1.0, t_measure(a)),
                                     np.minimum(1.0, s_measure(a, p["L"])), p["beta"])
    return values


#: The runner of files, :mod:`irscale.evaluation.nuggets`'s, importable from here too.
__getattr__, __dir__ = lazy_package(__name__,
                                    {"evaluate_nuggets": "irscale.evaluation.nuggets"})

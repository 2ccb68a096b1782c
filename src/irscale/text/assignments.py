"""Nugget assignment scores as the TREC 2024 RAG track reports them (Pradeep et al. 2024;
nuggetizer's ``calculate_nugget_scores``), for one answer (a (topic, run)) whose nuggets v
were judged ``support``, ``partial_support`` or ``not_support`` and are ``vital`` or
``okay``:

* ``A`` (All): Σ_v s(v) / |v|, over all the nuggets;
* ``V`` (Vital): Σ_vital s(v) / |vital|, over the vital nuggets;
* ``W`` (Weighted): Σ_v w(v)·s(v) / Σ_v w(v), w = 1 for a vital nugget, 0.5 for an okay one;

with s(v) = 1 for support, 0.5 for partial_support and 0 for not_support (the RAG track's
"partial credit"); ``A_strict``, ``V_strict``, ``W_strict``: s(v) = 1 for support, 0
otherwise. nuggetizer's names: ``all_score``, ``vital_score``, ``strict_all_score``,
``strict_vital_score``; ``W``/``W_strict`` are the track's weighted scores, which
nuggetizer's metrics do not compute.

Two answers worked by hand:

* vital support, vital partial_support, okay support, okay not_support: W = (1·1 + 1·0.5
  + 0.5·1 + 0.5·0) / (1 + 1 + 0.5 + 0.5) = 2/3; W_strict = (1 + 0 + 0.5 + 0) / 3 = 1/2;
  A = 2.5/4, V = 1.5/2.
* okay support, okay partial_support: W = (0.5·1 + 0.5·0.5) / (0.5 + 0.5) = 3/4;
  W_strict = 1/2; V has no nugget to average: undefined.

An answer without a vital nugget has no Vital score: nuggetizer gives it 0, which a mean
over topics would count as a failure; irscale refuses to evaluate V or V_strict there
(a :class:`~irscale.errors.MeasureError` naming the topics), so no meaningless number is
printed or averaged. Every sum is one :func:`numpy.bincount` over all the nuggets.

>>> from irscale.io.assignments import read_assignments
>>> a = read_assignments([{"qid": "q1", "run_id": "A", "nuggets": [
...     {"text": t, "importance": i, "assignment": s} for t, i, s in (
...         ("a", "vital", "support"), ("b", "vital", "partial_support"),
...         ("c", "okay", "support"), ("d", "okay", "not_support"))]}])
>>> from irscale.measures.names import parse_name
>>> v = assignment_values(a, [parse_name(n, "nuggets") for n in ("W", "W_strict", "A", "V")])
>>> {k: round(float(x[0]), 4) for k, x in v.items()}
{'W': 0.6667, 'W_strict': 0.5, 'A': 0.625, 'V': 0.75}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import MeasureError
from ..io.assignments import Assignments
from ..measures.nuggets import ASSIGNMENT_FAMILIES

#: Every measure of assignment records, in the order a call without ``measures`` gives.
DEFAULT_MEASURES = ASSIGNMENT_FAMILIES
#: What ``measures`` may be (the start of the error otherwise).
ASSIGNMENTS_EXPECTED = ('measures must be nugget assignment measure names such as "V" or '
                        '["A", "W_strict"]')
#: s(v) by assignment code (:data:`irscale.io.assignments.ASSIGNMENT`: not_support,
#: partial_support, support): with partial credit, strict.
PARTIAL_CREDIT = np.array([0.0, 0.5, 1.0])
STRICT_CREDIT = np.array([0.0, 0.0, 1.0])
#: w(v) of W by importance (okay, vital).
WEIGHTED = np.array([0.5, 1.0])


def nugget_weights(a: Assignments, which: str) -> np.ndarray:
    """w(v) of every nugget for ``which`` (``A``: 1; ``V``: 1 vital, 0 okay; ``W``: 1
    vital, 0.5 okay)."""
    if which == "A":
        return np.ones(len(a.vital))
    if which == "V":
        return a.vital.astype(np.float64)
    return WEIGHTED[a.vital.astype(np.int64)]


def credit_table(family: str) -> np.ndarray:
    """s(v) by assignment code for the measure ``family`` (``_strict``: support alone)."""
    return STRICT_CREDIT if family.endswith("_strict") else PARTIAL_CREDIT


def undefined_vital(a: Assignments) -> list[int]:
    """The records with no vital nugget (their V and V_strict are undefined)."""
    has = np.bincount(a.record, weights=a.vital, minlength=len(a.topic))
    return np.flatnonzero(has == 0).tolist()


def assignment_values(a: Assignments, requests: Sequence[Any]) -> dict[str, np.ndarray]:
    """The values of every request (parsed names of :data:`ASSIGNMENT_FAMILIES`) for every
    record of ``a``, by label: Σ w·s / Σ w per record (module documentation)."""
    values: dict[str, np.ndarray] = {}
    for r in requests:
        which = r.family[0]
        if which == "V":
            missing = undefined_vital(a)
            if missing:
                named = sorted({f"{a.topic[k]} ({a.run[k]})" for k in missing})
                raise MeasureError(
                    f"{r.label} is undefined (0/0) on {len(missing)} answer(s) without a "
                    f"vital nugget: {', '.join(named[:10])}{' ...' if len(named) > 10 else ''}"
                    f" in {a.source} (nuggetizer gives them 0); leave {r.label} out or "
                    "those records out")
        w = nugget_weights(a, which)
        s = credit_table(r.family)[a.credit]
        n = len(a.topic)
        values[r.label] = np.bincount(a.record, weights=w * s, minlength=n) / \
            np.bincount(a.record, weights=w, minlength=n)
    return values

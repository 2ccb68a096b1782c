"""Condensed-list diversity measures: ``alpha-nDCG(condensed=1)@20``, ``ERR-IA(condensed=1)@20``,
``D#-nDCG(condensed=1)@10`` ... (Sakai 2014, §2.2 and §3.1: condensed-list versions of
D(♯)-nDCG and ERR-IA evaluate runs that did not contribute to the pool).

The condensed list of a ranking drops the documents the diversity qrels do not judge (no
line for the topic and document, or only negative judgments) and moves the judged ones up,
as the generic ``condensed=1`` of the ad-hoc measures does
(:mod:`irscale.measures.condensed`, :meth:`~irscale.core.judged.JudgedRankings.condensed`);
the measure is then computed on the condensed rankings, the cut-off (and ``-M``) applying
to the condensed list. A ranking left without a judged document holds no relevant one,
condensed or not, so its value is the plain measure's. The measures computed per intent
(``IA(<measure>)``) condense through their inner measure: ``IA(nDCG(condensed=1)@10)``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...core import identifiers
from ...core.inputs import Run
from ...core.labels import LabelTable, lookup
from ...errors import MeasureError
from ...io.diversity import DiversityQrels
from ..names import split_name
from ..params import flag, split_items

#: The generic parameter (and its alias) asking for the condensed list.
CONDENSED = ("condensed", "judged_only")


def strip_condensed(text: str) -> tuple[str, bool]:
    """``text`` without its ``condensed=1`` / ``judged_only=1`` parameter, and whether it
    asked for the condensed list (MeasureError for a value that is not 1 or 0)."""
    parts = split_name(text)
    if parts is None or not parts.params:
        return text, False
    items = split_items(parts.params, parts.name)
    asked = False
    for key in CONDENSED:
        if key in items:
            try:
                asked = flag(items.pop(key)) or asked
            except ValueError:
                raise MeasureError(f"measure {text!r}: {key} must be 1 or 0") from None
    inside = ",".join(f"{k}={v}" for k, v in items.items())
    rebuilt = parts.name + (f"({inside})" if inside else "") + \
        (f"@{parts.cutoff}" if parts.cutoff is not None else "")
    return rebuilt, asked


def judged_only(qrels: DiversityQrels, runs: list[Run]) -> list[Run]:
    """Each run without the rows the qrels do not judge (a judgment ≥ 0 for some intent of
    the topic); its other rows, rank and score kept."""
    judged = np.flatnonzero(qrels.judgment >= 0)
    table = LabelTable(identifiers.take(qrels.topic, judged),
                       identifiers.take(qrels.docno, judged), np.ones(len(judged)),
                       qrels.source)
    out = []
    for run in runs:
        keep = np.flatnonzero(~np.isnan(lookup(table, run.topic, run.docno)))
        out.append(replace(run, topic=identifiers.take(run.topic, keep),
                           docno=identifiers.take(run.docno, keep), score=run.score[keep],
                           rank=None if run.rank is None else run.rank[keep],
                           fingerprints=None, blocks=None, file_row=None))
    return out


def place(values: np.ndarray, keys: list[tuple[int, str]],
          condensed_values: np.ndarray, condensed_keys: list[tuple[int, str]]) -> np.ndarray:
    """``values`` (per ranking, keyed ``(run, topic)``) with those of the condensed rankings
    put in their place (a ranking without a condensed one keeps its value)."""
    where = {key: i for i, key in enumerate(keys)}
    out = np.array(values, dtype=np.float64)
    for i, key in enumerate(condensed_keys):
        out[where[key]] = condensed_values[i]
    return out

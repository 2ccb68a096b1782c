"""Pyramid scores of peer summaries from semantic content units (SCUs): Nenkova &
Passonneau 2004; Nenkova, Passonneau & McKeown 2007 (Sakai 2014, §3.3, mentions them
among ROUGE's hand-made alternatives).

A topic's pyramid holds its SCUs, each weighted by the number of reference (model)
summaries expressing it: tier T_i holds the SCUs of weight i (i = 1..n, n reference
summaries). A peer summary expressing X distinct SCUs, D_i of them in tier T_i (an SCU
of weight 0, in no reference, counts in X only), has the weight D = Σ_i i·D_i, and the
best summary of X SCUs the weight

    Max(X) = Σ_{i=j+1}^{n} i·|T_i| + j·(X − Σ_{i=j+1}^{n} |T_i|),
    j = max {i : Σ_{t=i}^{n} |T_t| ≥ X}

(the X largest weights of the pyramid added up; all of them, the rest weighing 0, if the
pyramid has fewer than X SCUs of weight ≥ 1). Measures:

* ``pyramid`` (the original score, 2004): D / Max(X), X the peer's SCU count;
* ``pyramid_modified`` (2007, used at DUC 2005–2006): D / Max(X̄), X̄ the average number
  of SCUs in a reference summary: Σ weights / n (each reference counts each SCU it
  expresses once). X̄ need not be whole: Max then adds the share X̄ − ⌊X̄⌋ of the
  (⌊X̄⌋ + 1)-th largest weight, as the formula above does with j·(X − ...). It may
  exceed 1 (a peer richer in content than an average reference); it needs the
  references, so a topic given by weights (not contributor lists) has none.

A peer expressing no SCU scores 0 (D = 0 and Max(0) = 0).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..errors import InputError, InputFormatError, ParameterError
from ..evaluation import Evaluation
from ..io.scus import PeerScus, Pyramid, read_peer_scus, read_pyramid
from ..measures.names import measure_names, parse_name
from .results import text_evaluation

PYRAMID_MEASURES = ("pyramid", "pyramid_modified")
#: What ``measures`` may be (the start of the error otherwise).
PYRAMID_EXPECTED = 'measures must be "pyramid", "pyramid_modified" or a list of them'


def best_weight(weights: Iterable[float], x: float) -> float:
    """Max(x): the weight of the best summary of ``x`` SCUs of a pyramid whose SCUs have
    ``weights`` (module documentation; ``x`` ≥ 0 need not be whole).

    >>> best_weight([3, 2, 2, 1, 1, 1], 4), best_weight([3, 2, 2, 1], 2.5)
    (8.0, 6.0)
    """
    ranked = np.sort(np.asarray(list(weights), dtype=np.float64))[::-1]
    whole = int(np.floor(x))
    total = float(ranked[:whole].sum())
    if whole < len(ranked):
        total += (x - whole) * float(ranked[whole])
    return total


def _source(source: Any, reader: Any, kind: type) -> Any:
    return source if isinstance(source, kind) else reader(source)


def evaluate_pyramid(pyramid: Any,
                     peers: Any,
                     measures: str | Iterable[str] = PYRAMID_MEASURES, *,
                     allow_empty: bool = False) -> Evaluation:
    """Pyramid scores of every (peer, topic) summary (module documentation).

    Parameters
    ----------
    pyramid : path, bytes or Pyramid
        SCUs ``topic<TAB>scu_id<TAB>contributors|weight|-``
        (:func:`irscale.io.scus.read_pyramid`).
    peers : path, bytes or PeerScus, or a list of them
        The SCUs of the peers' summaries ``topic<TAB>peer<TAB>scu_id|-``
        (:func:`irscale.io.scus.read_peer_scus`); the peers are the runs. A (peer, topic)
        summary is described in one file.
    measures : str or list of str
        ``pyramid`` and/or ``pyramid_modified`` (default both): the families of the
        catalogue's context ``pyramids`` (:mod:`irscale.measures.pyramid`).
    allow_empty : bool
        Evaluate a peer none of whose topics has a pyramid.

    Returns
    -------
    Evaluation
        One value per (peer, topic) with a pyramid, summarised by the mean over topics; a
        peer's topics without a pyramid are named in a warning.

    Examples
    --------
    >>> pyr = b"q1\\ts1\\tA,B,C\\nq1\\ts2\\tA,B\\nq1\\ts3\\tC\\nq1\\ts4\\tB\\nq1\\tnew\\t-\\n"
    >>> peer = b"q1\\tsys\\ts2\\nq1\\tsys\\ts3\\nq1\\tsys\\tnew\\n"
    >>> evaluate_pyramid(pyr, peer).mean().round(4).to_dict("records")
    [{'pyramid': 0.5, 'pyramid_modified': 0.5625}]
    """
    names = measure_names(measures, split=False, expected=PYRAMID_EXPECTED)
    wanted = list(dict.fromkeys(parse_name(name, "pyramids").family for name in names))
    pyr = _source(pyramid, read_pyramid, Pyramid)
    parts = [_source(p, read_peer_scus, PeerScus)
             for p in (peers if isinstance(peers, (list, tuple)) else [peers])]
    if not parts:
        raise InputError("no peer SCUs to evaluate: give a file (or its bytes), or a list "
                         "of them")
    weight_of = {(t, s): w for t, s, w in zip(pyr.topic, pyr.scu, pyr.weight, strict=True)}
    by_topic: dict[str, list[int]] = {}
    for t, w in zip(pyr.topic, pyr.weight, strict=True):
        by_topic.setdefault(t, []).append(w)
    runs: list[str] = []
    expressed: dict[tuple[str, str], list[int]] = {}
    unjudged: dict[str, set[str]] = {}
    described: dict[tuple[str, str], str] = {}
    for scus in parts:
        for t, peer, scu, line in zip(scus.topic, scus.peer, scus.scu, scus.line,
                                      strict=True):
            text = f"{t}\t{peer}\t{scu or '-'}"
            if described.setdefault((peer, t), scus.source) != scus.source:
                raise InputFormatError(f"peer {peer!r} has SCUs for topic {t!r} in "
                                       f"{described[peer, t]} too", source=scus.source,
                                       line=line, text=text)
            if peer not in runs:
                runs.append(peer)
            if t not in by_topic:
                unjudged.setdefault(peer, set()).add(t)
                continue
            found = expressed.setdefault((peer, t), [])
            if scu is None:
                continue
            if (t, scu) not in weight_of:
                raise InputFormatError(f"SCU {scu!r} is not in the pyramid of topic {t!r} "
                                       f"({pyr.source})", source=scus.source, line=line,
                                       text=text)
            found.append(weight_of[t, scu])
    keys = list(expressed)
    values: dict[str, np.ndarray] = {m: np.zeros(len(keys)) for m in wanted}
    for k, (peer, t) in enumerate(keys):
        weights = expressed[peer, t]
        gained = float(sum(weights))
        if "pyramid" in values:
            best = best_weight(by_topic[t], len(weights))
            values["pyramid"][k] = gained / best if best > 0 else 0.0
        if "pyramid_modified" in values:
            models = pyr.models[t]
            if not models:
                raise ParameterError(f"pyramid_modified needs the reference summaries of "
                                     f"topic {t!r}: {pyr.source} gives its SCUs' weights, "
                                     "not their contributor lists")
            best = best_weight(by_topic[t], sum(by_topic[t]) / models)
            values["pyramid_modified"][k] = gained / best if best > 0 else 0.0
    run_pos = {r: i for i, r in enumerate(runs)}
    return text_evaluation(runs, np.array([run_pos[p] for p, _ in keys], dtype=np.int64),
                           [t for _, t in keys], values, gold_topics=sorted(by_topic),
                           unjudged=[sorted(unjudged.get(r, ())) for r in runs],
                           allow_empty=allow_empty, source=pyr.source, gold="pyramids")

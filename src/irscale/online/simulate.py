"""Simulated users: click models parametrised from qrels, and click logs simulated over a
run's result pages, for studying online methods offline.

A user of :func:`qrels_click_model` is a DBN (:mod:`irscale.online.clickmodels`): ranks are
examined top-down, a document of relevance grade g is clicked with ``P(click | g)``, a
click satisfies (the user stops) with ``P(stop | g)``, and an unsatisfied user goes on with
``gamma`` (1 by default: Hofmann et al.'s cascade). The instantiations of Hofmann,
Whiteson & de Rijke (CIKM 2011, Table 1), for binary relevance (R: grade ≥
``relevance_level``; NR: below it, or not judged):

=================  ==============  ===============  =============  ==============
instantiation      P(click | NR)   P(click | R)     P(stop | NR)   P(stop | R)
=================  ==============  ===============  =============  ==============
``perfect``        0.0             1.0              0.0            0.0
``navigational``   0.05            0.95             0.2            0.9
``informational``  0.4             0.9              0.1            0.5
=================  ==============  ===============  =============  ==============

Graded tables are given as ``click=(p0, p1, ...)`` and ``stop=(s0, s1, ...)``, one value
per grade 0, 1, ... (a judged grade beyond the table is an error; an unjudged document, or
a negative grade, counts as grade 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..collections.candidates import ranked_candidates
from ..core.options import TiePolicy
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.progress import declared_memory
from ..errors import ParameterError
from ..io.clicklog import CELL_BYTES
from ..io.sources import as_qrels
from .clicklog import ClickLog
from .clickmodels import ClickModel
from .params import CLICK_SESSIONS, QRELS_USERS, SHOWN, SIMULATE_LOG

__all__ = ["INSTANTIATIONS", "qrels_click_model", "simulate_click_log"]

#: Hofmann et al. (2011)'s users: (P(click | NR), P(click | R)), (P(stop | NR), P(stop | R)).
INSTANTIATIONS: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "perfect": ((0.0, 1.0), (0.0, 0.0)),
    "navigational": ((0.05, 0.95), (0.2, 0.9)),
    "informational": ((0.4, 0.9), (0.1, 0.5)),
}

#: Peak bytes per simulated session besides its ranks (its id ``topic:i``, query, length
#: and the written log's line; measured: 6·10^5 sessions of 5 ranks, 680 bytes in all).
SESSION_BYTES = 400


def _table(values: Sequence[float], name: str) -> np.ndarray:
    table = np.asarray(list(values), dtype=np.float64)
    if table.ndim != 1 or len(table) < 1 or not ((table >= 0) & (table <= 1)).all():
        raise ParameterError(f"{name} must list probabilities in [0, 1], one per grade "
                             f"0, 1, ...; got {list(values)}")
    return table


@QRELS_USERS
def qrels_click_model(qrels: Any, instantiation: str | None = "navigational", *,
                      relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                      click: Sequence[float] | None = None,
                      stop: Sequence[float] | None = None, gamma: float = 1.0) -> ClickModel:
    """A DBN user whose attractiveness and satisfaction come from the qrels' grades
    (module documentation): an ``instantiation`` of Hofmann et al. (binary), or the
    per-grade tables ``click`` and ``stop`` (``instantiation=None``). Query ids are the
    topic ids; an unjudged document takes grade 0's values.

    >>> user = qrels_click_model({"t1": {"a": 1, "b": 0}}, "navigational")
    >>> user.attractiveness.to_dict(), user.prior
    ({('t1', 'a'): 0.95, ('t1', 'b'): 0.05}, (0.05, 0.2))
    """
    if (instantiation is None) == (click is None and stop is None):
        raise ParameterError("give an instantiation (perfect, navigational, informational) "
                             "or the tables click= and stop=, not both")
    if instantiation is not None:
        if instantiation not in INSTANTIATIONS:
            raise ParameterError(f"unknown user instantiation {instantiation!r}: choose "
                                 f"one of {', '.join(INSTANTIATIONS)}")
        level = relevance_level
        click_nr_r, stop_nr_r = INSTANTIATIONS[instantiation]
        click_of = np.array(click_nr_r)
        stop_of = np.array(stop_nr_r)
    else:
        if click is None or stop is None:
            raise ParameterError("the tables click= and stop= go together")
        click_of, stop_of = _table(click, "click"), _table(stop, "stop")
        if len(click_of) != len(stop_of):
            raise ParameterError(f"click= and stop= give {len(click_of)} and {len(stop_of)} "
                                 "grades: give one value per grade in both")
    judged = as_qrels(qrels)
    grade = np.maximum(np.asarray(judged.rel, dtype=np.int64), 0)
    if instantiation is not None:
        grade = (grade >= level).astype(np.int64)
    elif grade.size and int(grade.max()) >= len(click_of):
        bad = int(np.flatnonzero(grade >= len(click_of))[0])
        raise ParameterError(f"the tables give grades 0..{len(click_of) - 1}, the qrels have "
                             f"grade {int(grade[bad])} (topic {judged.topic[bad]}, document "
                             f"{judged.docno[bad]})")
    index = pd.MultiIndex.from_arrays(
        [np.asarray(judged.topic.to_pylist(), dtype=object),
         np.asarray(judged.docno.to_pylist(), dtype=object)], names=["query", "docno"])
    model = ClickModel("dbn", pd.Series(click_of[grade], index=index),
                       satisfaction=pd.Series(stop_of[grade], index=index),
                       gamma=float(gamma), prior=(float(click_of[0]), float(stop_of[0])))
    model.check()
    return model


def _check_sessions(sessions: int, topics: int, size: int) -> None:
    """Refuse a log of ``sessions`` per topic beyond the memory limit, :data:`SESSION_BYTES`
    a session and :data:`~irscale.io.clicklog.CELL_BYTES` a rank
    (:func:`irscale.core.progress.declared_memory`: the sessions and the SERP size declare
    the cost)."""
    total = float(sessions) * topics
    need = total * (SESSION_BYTES + size * CELL_BYTES)
    declared_memory((CLICK_SESSIONS, SHOWN), need,
                    f"{sessions:,} sessions (--sessions) of each of {topics:,} topics, "
                    f"pages of {size:,} documents")


@SIMULATE_LOG
def simulate_click_log(run: Any, model: ClickModel, *, sessions: int = 1000,
                       serp_size: int = 10, ties: TiePolicy = "trec_eval",
                       rng: Any = None) -> ClickLog:
    """``sessions`` impressions of every topic of ``run`` (its first ``serp_size``
    documents, ranked as trec_eval ranks them, or by ``ties``) clicked by ``model`` (a
    fitted or parametrised :class:`ClickModel`, e.g. :func:`qrels_click_model`; its queries
    are the topic ids). Sessions are numbered ``topic:i``; ``rng`` is a seed, a
    :class:`numpy.random.SeedSequence` or a Generator (same seed, same log).

    >>> user = qrels_click_model({"t1": {"a": 1, "b": 0}}, "perfect")
    >>> log = simulate_click_log({"t1": {"a": 1.0, "b": 2.0}}, user, sessions=2, rng=1)
    >>> print(log.to_frame().to_string(index=False))
    session query  rank docno  clicked
       t1:0    t1     1     b        0
       t1:0    t1     2     a        1
       t1:1    t1     1     b        0
       t1:1    t1     2     a        1
    """
    if not isinstance(model, ClickModel):
        raise ParameterError(f"model must be a ClickModel (qrels_click_model, "
                             f"fit_click_model), got {type(model).__name__}")
    generator = np.random.default_rng(rng)
    cube = ranked_candidates(run, depth=serp_size, ties=ties)
    pages = cube.pairs[:, 0, :serp_size]  # topics x ranks, -1 past a ranking
    lengths = (pages >= 0).sum(axis=1)
    shown = np.flatnonzero(lengths > 0)
    pages, lengths = pages[shown], lengths[shown]
    n = int(lengths.max()) if len(lengths) else 1
    pages = pages[:, :n]
    _check_sessions(sessions, len(shown), n)
    docnos = np.asarray(cube.pair_docno.to_pylist(), dtype=object)
    docs, doc_of_pair = np.unique(docnos, return_inverse=True)
    page_docs = np.where(pages >= 0, doc_of_pair[np.maximum(pages, 0)], -1)
    topics = np.asarray(cube.topics, dtype=object)[shown]
    model.check_queries(topics)
    query = np.repeat(np.arange(len(shown)), sessions)
    number = np.tile(np.arange(sessions), len(shown))
    ids = pd.Series(topics[query]).str.cat(pd.Series(number).astype(str), sep=":")
    log = ClickLog(ids.to_numpy(dtype=object), topics, docs.astype(object), query,
                   page_docs[query], np.zeros((len(query), n), dtype=bool),
                   lengths[query], None, "<simulated>")
    return model.simulate(log, rng=generator)

"""Expected search length, ESL (Cooper 1968), and its time-based reading, EST (after Dunlop
1997; both cited by Sakai 2014, §2.2).

W. S. Cooper, *Expected search length: a single measure of retrieval effectiveness based on
the weak ordering action of retrieval systems*, American Documentation (JASIS) 19(1):30–41,
1968. The user wants ``k`` relevant documents (``k=``, default 1; all R of the topic when it
has fewer, Cooper's request for "all relevant documents"), reads down the system's ordering
and stops at the k-th relevant one; the search length is the number of **non-relevant**
documents read on the way (unjudged documents count as non-relevant, as in trec_eval).
Cooper's systems return a *weak* ordering: levels of documents the system does not order;
within the level where the search ends (r relevant, i non-relevant, s relevant still
wanted) the user meets the documents in a random order and reads on average i·s/(r + 1)
non-relevant ones, so::

    ESL = j + i · s / (r + 1)

with j the non-relevant documents of the levels before it. irscale's rankings are *simple*
orderings (Cooper's special case of one document per level): the tie policy (trec_eval's by
default: score descending, then docno descending) has already ordered tied documents, so
over the retrieved documents ESL is the number of non-relevant documents above the k-th
relevant one (``r_k − k``, r_k its rank). The retrieved list is followed, as in Cooper's
orderings of the whole collection, by one last level: the documents not retrieved, holding
the topic's u = R − f relevant documents not found (f found) and the rest of the collection
— ``collection=N`` (the number of documents of the collection) gives their count,
N − n − u. A ranking that holds fewer than the documents wanted therefore scores::

    ESL = (n − f) + (N − n − u) · (w − f) / (u + 1),     w = min(k, R)

and without ``collection`` such a ranking is an error (Cooper's measure is defined on the
ordering of the whole collection; irscale does not guess its size). A topic without
relevant documents wants none: ESL = 0. ESL is an *expected cost*: lower is better.

EST, the time-based reading the seed mentions (Sakai 2014, §2.2: "Dunlop proposed a
time-based evaluation method based on Cooper's expected search length"; M. D. Dunlop, *Time,
relevance and interaction modelling for information retrieval*, SIGIR 1997, pp. 206–213):
the expected time the user spends reading until the k-th relevant document, each
non-relevant document read costing ``t_nonrel`` and each relevant one ``t_rel`` (seconds,
default 1 each: EST is then the expected number of documents read)::

    EST = t_rel · w + t_nonrel · ESL

Dunlop's paper is not available here: this linear cost per document read is the assumed
reading (the user reads exactly w relevant documents and, on average, ESL non-relevant
ones), not a transcription of his model.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import relevant_documents
from ..errors import MeasureError
from .base import EvalContext, register
from .params import Keyword, Keywords, Params, integer, number, optional

WANTED = Keyword(integer(low=1), 1, "k: the number of relevant documents the user wants "
                 "(all R of a topic with fewer)")
COLLECTION = Keyword(optional(integer(low=1)), None,
                     "N: the number of documents of the collection (the last, unordered level "
                     "holds the N − n documents not retrieved); none: a ranking with fewer "
                     "relevant documents than wanted is an error")
_ESL_PARAMS = Keywords(k=WANTED, collection=COLLECTION)


def search_length(jr: JudgedRankings, k: int, collection: int | None,
                  family: str) -> tuple[np.ndarray, np.ndarray]:
    """Per ranking: Cooper's expected search length for ``k`` relevant documents, and w,
    the number of relevant documents the user reads (see the module docstring)."""
    relevant = relevant_documents(jr)
    base = jr.num_rel
    wanted = np.minimum(k, base)
    found = relevant.counts
    retrieved = jr.lengths if jr.placeholder is None else np.where(jr.placeholder, 0,
                                                                   jr.lengths)
    out = np.zeros(jr.n_rankings)
    done = (found >= wanted) & (wanted > 0)
    # the w-th relevant document of a satisfied ranking: r_w − w non-relevant above it
    kth = relevant.offsets[:-1][done] + wanted[done] - 1
    out[done] = relevant.rank[kth] - wanted[done]
    short = found < wanted
    if not short.any():
        return out, wanted.astype(np.float64)
    first = int(np.flatnonzero(short)[0])
    where = (f"run {jr.runs[jr.ranking_run[first]]!r}, topic "
             f"{jr.topics[jr.ranking_topic[first]]!r}: {int(found[first])} of the "
             f"{int(wanted[first])} relevant documents wanted are retrieved")
    if collection is None:
        raise MeasureError(f"measure {family!r}: {where}; give collection=N (the number of "
                           "documents of the collection) to search on among the documents "
                           "not retrieved")
    missing = base[short] - found[short]
    unread = collection - retrieved[short] - missing
    if (unread < 0).any():
        raise MeasureError(f"measure {family!r}: collection={collection} is smaller than "
                           "the documents retrieved plus the relevant documents not "
                           f"retrieved ({where})")
    out[short] = (retrieved[short] - found[short]
                  + unread * (wanted[short] - found[short]) / (missing + 1.0))
    return out, wanted.astype(np.float64)


@register(
    "ESL",
    doc="Expected search length: the non-relevant documents read before the k-th relevant "
    "one, the documents not retrieved read in random order (Cooper 1968). Lower is better.",
    params=_ESL_PARAMS,
    formula="r_k − k; short rankings: (n − f) + (N − n − u)(w − f)/(u + 1)",
    source="Cooper 1968",
    cutoff="none",
)
def esl(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"ESL": search_length(jr, params["k"], params["collection"], "ESL")[0]}


_SECONDS = number(low=0.0)


@register(
    "EST",
    doc="Expected search time: t_rel · w + t_nonrel · ESL, the time spent reading until the "
    "k-th relevant document (after Dunlop 1997, from Cooper's ESL). Lower is better.",
    params=Keywords(k=WANTED, collection=COLLECTION,
                    t_rel=Keyword(_SECONDS, 1.0, "time to read a relevant document"),
                    t_nonrel=Keyword(_SECONDS, 1.0, "time to read a non-relevant document")),
    formula="t_rel · min(k, R) + t_nonrel · ESL",
    source="Dunlop 1997; Cooper 1968",
    cutoff="none",
)
def est(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    length, wanted = search_length(jr, params["k"], params["collection"], "EST")
    return {"EST": params["t_rel"] * wanted + params["t_nonrel"] * length}

"""Cost-based session evaluation: cumulated gain against the time a session takes
(Baskaya, Keskustalo & Järvelin, "Time drives interaction: simulating sessions in diverse
searching environments", SIGIR 2012, and "Modeling behavioral factors in interactive
information retrieval", CIKM 2013).

Baskaya et al. simulate a searcher whose every action costs time — formulating a query,
scanning a result's snippet, reading a document — and measure the gain cumulated as session
time goes by. irscale evaluates a given session run with that cost model, as it reads it
(the papers simulate the queries and the clicks; here the run gives the queries, and the
user's behaviour is fixed):

* the user formulates query 1 (``qcost`` seconds), scans the snippets of its list from the
  top (``scan`` seconds each; the first k with ``@k``) and reads every document of
  positive gain (``read`` seconds each), whose gain counts when its reading ends; then
  formulates query 2 (``qcost``) and so on, to the end of the last list;
* a document shown again in a later query is scanned, not read, and gains nothing;
* ``t(d)``: the session time when document d has been scanned (and, if it has a gain, read)::

      t(d) = qcost · q(d) + scan · r(d) + read · n(d)

  with q(d) the number of queries issued so far (d's query being the q(d)-th of the
  session, whatever its number), r(d) the documents scanned so far (d included) and n(d)
  the documents read so far (d included when it is read).

Measures (gains as the catalogue's, ``gain=linear`` by default):

* ``tsCG(qcost,scan,read,budget,gain)@k`` — the gain cumulated within the time budget
  (``budget`` seconds; the whole session without one): Σ_(d: t(d) ≤ budget) g(d), a point
  of the papers' gain-by-time curve;
* ``tsCGrate(qcost,scan,read,gain)@k`` — the session's gain per second: Σ_d g(d) / T,
  T = qcost · m + scan · (documents scanned) + read · (documents read) the whole session's
  time (0 when T = 0).

The default costs (qcost = 15 s, scan = 3 s, read = 30 s) are irscale's round numbers, not
the papers' calibrated values, which differ by searching environment (device, typing
speed): give the costs of the environment studied.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.segments import segment_cumsum
from ..measures.arrays import safe_divide
from ..measures.gain_discount import element_gains
from ..measures.params import Params


def session_times(view: JudgedRankings, queries: np.ndarray, gains: np.ndarray,
                  params: Params) -> np.ndarray:
    """t(d) of every document of a ``no-gain`` session view (module documentation);
    ``queries``: the number of queries issued up to each document's, included."""
    read = (gains > 0).astype(np.int64)
    return (params["qcost"] * queries + params["scan"] * view.rank
            + params["read"] * segment_cumsum(read, view.offsets))


def cost_values(view: JudgedRankings, queries: np.ndarray, params: Params,
                family: str) -> np.ndarray:
    """``tsCG`` or ``tsCGrate`` (module documentation) of every ranking of ``view``."""
    gains = element_gains(view, params["gain"], None, family)
    times = session_times(view, queries, gains, params)
    if family == "tsCG":
        budget = params["budget"]
        return view.segment_sum(gains if budget is None else np.where(times <= budget,
                                                                     gains, 0.0))
    nonempty = view.lengths > 0
    total = np.zeros(view.n_rankings)
    total[nonempty] = times[view.offsets[1:][nonempty] - 1]
    return safe_divide(view.segment_sum(gains), total)

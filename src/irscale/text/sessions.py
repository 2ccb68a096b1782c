"""Multi-query sessions: session DCG and the session U-measure (Sakai 2014, §3.2 eq. 35,
§2.2 eq. 19–20, Fig. 8–9).

A session is the chronological sequence of the ranked lists a system returned for the
queries a user issued for one information need (read by
:func:`irscale.io.sessions.read_session_run`). Every (run, session) becomes one ranking of
a :class:`~irscale.core.judged.JudgedRankings` batch: the *concatenated list* of its
queries' lists (query 1's documents by rank, then query 2's ...), judged against the
qrels of the session's topic, with per-document attributes ``qnum`` (query number),
``qrank`` (the rank shown), ``qpos`` (position within its query's list) and ``doc`` (a
document code). The batch's "topics" are the session ids, so the
:class:`~irscale.evaluation.Evaluation` returned by
:func:`irscale.evaluation.sessions.evaluate_sessions` (the runner) prints and analyses
sessions as :func:`irscale.evaluate` does topics.

Measures (names as in :func:`irscale.evaluate`, parameters in the name):

* ``sDCG(bq=4,gain=linear)@k`` — session DCG (Järvelin et al. 2008, as formulated in
  Sakai 2014, eq. 35)::

      sDCG = Σ_r g(r) / (log_bq(qnum(r) + bq − 1) · log2(r + 1))

  over the concatenated list of the first k documents of every query (every document
  without @k), r its rank in that list. Duplicates are removed before ranks are counted
  (the first occurrence of a document is kept, as a condensed list: Sakai 2014, §3.2), so a
  relevant document is rewarded once.
* ``sDCG(form=jarvelin,discount=jk,base=2,bq=4,gain=linear)@k`` — session DCG as
  Järvelin, Price, Delcambre & Nielsen (ECIR 2008) define it: each query's DCG, discounted
  by the query's number::

      sDCG = Σ_q (1 + log_bq q)^(−1) · DCG_q,   DCG_q = Σ_j g(q, j) / disc(j)

  over the first k documents of every query's list (every document without @k), j the
  position of a document within its query's list (not in the concatenated list). The rank
  discount is Järvelin & Kekäläinen's (2002) DCG, max(1, log_b j) (``discount=jk``, the
  default), or ``discount=1+log``: 1 + log_b j, the variant Sakai (2014, §2.2) ascribes to
  the same paper (``log``, ``log2`` as the catalogue's DCG). Each query's DCG is that of
  its own list, as in the paper: a document shown again in a later query gains again.
  With one query it is the catalogue's ``DCG(discount=jk,base=b)``.
* ``nsDCG(bq=4,gain=linear,norm=single)@k`` — sDCG divided by an ideal sDCG (0 when that
  is 0). ``norm=single`` (the lecture's): the DCG of the topic's single ideal list (its
  relevant documents by decreasing gain, all at query 1, discount log2(r + 1)), cut at
  m·k documents for a session of m queries with @k, whole without. ``norm=jarvelin``
  (Järvelin et al. 2008): the sDCG of m ideal lists concatenated — for each of the
  session's queries, the topic's ideal list cut at k documents (without @k, at the
  length of that query's list), duplicates allowed, discounted as eq. 35 with the
  query's number. With ``form=jarvelin`` the ideal is discounted as that form's sDCG:
  ``norm=single`` the ideal list's DCG with the rank discount 1 + log_b r (cut at m·k),
  ``norm=jarvelin`` Järvelin et al.'s normalisation (the m ideal lists, each discounted
  by 1 + log_b j within it and 1 + log_bq q).
* ``U(L=132000,snippet=200,F=0.2,...)@k`` — U-measure (eq. 19–20) over the session's
  trailtext, with the parameters of the catalogue's ``U``
  (:mod:`irscale.measures.umeasure`). Without clicks (linear traversal, Fig. 5 extended
  to sessions): the user reads the snippet of every document of the concatenated list
  and, after the snippet of a relevant document, F of its text; a document shown again
  in a later query costs its snippet but gains nothing. With a click log (Fig. 8–9): the
  trailtext of :func:`click_u` — clicks in time order (non-linear traversal, Fig. 8
  (g)–(h)) or in rank order (``click_order="rank"``: each list read down to its lowest
  click, Fig. 8 (e)–(f)).

* ``sRBP(p=0.8,b=0.8,gain=linear)@k`` — session RBP, the user model of Lipani, Carterette
  & Yilmaz (SIGIR 2019) as stated here: the user examines the first document of query 1;
  after examining a document they stop with probability 1 − p, and otherwise (p) go on —
  down the same list with probability b, or to the first document of the next query's
  list (reformulating) with probability 1 − b. Each list is taken as unbounded (as RBP
  takes a ranking). The probability of examining the document at position k of the list
  of query m is then ((p − bp)/(1 − bp))^(m−1) · (bp)^(k−1), and::

      sRBP = (1 − p) Σ_(m,k) ((p − bp)/(1 − bp))^(m−1) · (bp)^(k−1) · g(m,k) / gmax

  (the weights sum to 1 over unbounded lists). m is the query number as given, k the
  position in that query's list (first k documents of each with @k); a document shown
  again in a later query is examined but gains nothing (0 gain at its position). With
  b = 1 and one query it is the catalogue's ``RBP(p)``; a one-query session with b < 1
  gives (1 − p)/(1 − bp) · RBP(p=bp).
* ``sERR(bq=4,prob=exp,gain=linear)@k`` — session ERR: the catalogue's cascade model
  (Chapelle et al. 2009, Sakai 2014, eq. 15) over the concatenated de-duplicated list (the
  view of ``sDCG``), the utility of stopping, satisfied, at rank r reached in query
  qnum(r) being 1/(r · log_bq(qnum(r) + bq − 1)) (eq. 35's query discount)::

      sERR = Σ_r dsat(r − 1) · R_r / (r · log_bq(qnum(r) + bq − 1))

  with R_r the satisfaction probability of the catalogue's ERR (``prob=exp``:
  (2^g − 1)/2^gmax; ``ntcir``: g/(gmax + 1)).

* ``esnDCG(p_reform,p_down,gain)@k``, ``esAP(p_reform,p_down)@k`` — Kanoulas et al.'s
  (SIGIR 2011) expected session measures over browsing paths: :mod:`irscale.text.session_paths`.
* ``tsCG(qcost,scan,read,budget,gain)@k``, ``tsCGrate(qcost,scan,read,gain)@k`` — gain
  within a session-time budget, and per second, with query, snippet and reading costs
  (Baskaya et al. 2012, 2013, as irscale reads them): :mod:`irscale.text.session_cost`.
* ``MsM(p,q,r,s,discount,gain)@k`` — van Dijk et al.'s (ECIR 2019) Markovian session
  measures: a random walk over the lists' positions with moves to the next and previous
  document, the next query and the end of the session; the gain of a document discounted
  by the average time to reach it and weighed by the probability of reaching its query:
  :mod:`irscale.text.session_markov`.

A one-query session's ``sDCG`` equals the catalogue's ``DCG`` (gain linear, discount
log2) of the same ranked list, its ``nsDCG@k`` the catalogue's ``nDCG@k``, its ``sERR``
the catalogue's ``ERR``, and its ``sRBP(b=1)`` the catalogue's ``RBP``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from ..core import identifiers
from ..core.inputs import Qrels
from ..core.judge import PairJudge
from ..core.judged import JudgedRankings
from ..core.labels import LabelTable, lookup
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.segments import chunks, ranges, segment_cumsum, segment_scan
from ..core.subsets import relevant_documents
from ..errors import InputError
from ..io.maps import source_of
from ..io.sessions import (
    ClickLog,
    SessionRun,
    composite,
)
from ..measures.base import CATALOGUE
from ..measures.cascade import satisfaction, unsatisfied_before
from ..measures.gain_discount import (
    Discount,
    GainMap,
    discount_of,
    element_gains,
    ideal_rankings,
    max_gain,
    parse_gain,
)
from ..measures.names import NamedMeasure
from ..measures.params import Params
from ..measures.tbg import document_lengths
from ..measures.umeasure import u_measure
from .params import CLICK_ORDERS as CLICK_ORDERS
from .session_paths import Sessions, expected_ap_many, expected_ndcg_many

#: Documents judged at once by :func:`build_session_rankings`: bounds its temporaries.
_CHUNK_ROWS = 1 << 20

#: Session measure families.
SESSION_MEASURES = tuple(CATALOGUE["sessions"])
#: What ``measures`` of :func:`evaluate_sessions` may be (the start of the error otherwise).
SESSION_MEASURES_EXPECTED = 'measures must be session measure names such as "sDCG@10" or ' \
    '["sDCG@10", "nsDCG@10"]'
ClickOrder = Literal["time", "rank"]
#: The session views (:func:`session_view`, or the cut alone).
ViewKind = Literal["remove", "no-gain", "cut"]

_LOG2 = Discount("log2")


# ----------------------------------------------------------------------------- batch
@dataclass(frozen=True, eq=False)
class SessionRankings:
    """The judged concatenated lists of every (run, session) (module documentation), and
    per run the ids of its sessions whose topic has no judgments (not evaluated)."""

    jr: JudgedRankings
    #: The topic of every session id of ``jr.topics``.
    session_topics: tuple[str, ...]


def _session_topics(run: SessionRun, topic_of: Mapping[str, str] | None) -> list[str]:
    """The topic of every session of ``run`` (in :attr:`SessionLayout.sessions` order): the
    session id without a map; a session the map lacks is an error naming the map and the
    session's first line in the run."""
    names = run.layout.sessions
    if topic_of is None:
        return names
    missing = [s for s in names if s not in topic_of]
    if missing:
        raise InputError(f"session {missing[0]!r} is not in the session map "
                         f"({run.where(missing[0])}; {len(missing)} session(s) of "
                         f"{run.source} missing)",
                         source=source_of(topic_of, "the session map (topics=)"))
    return [topic_of[s] for s in names]


def build_session_rankings(qrels: Qrels, runs: Sequence[SessionRun],
                           topic_of: Mapping[str, str] | None = None, *,
                           relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                           labels: Mapping[str, LabelTable] | None = None) -> SessionRankings:
    """Judge every session of every run (module documentation); label sets are attached
    as per-document attributes by name (e.g. ``doclen`` for U).

    Sessions, documents and topics are handled as integer codes (the run's
    :class:`~irscale.io.sessions.SessionLayout`): a docno, session id or topic id is
    looked up once, not once per row, and a run written session by session, query by
    query, rank by rank is put in order by moving its sessions' blocks of rows.
    """
    names = [run.name for run in runs]
    if len(set(names)) != len(names):
        raise InputError(f"session runs must have distinct run ids, got {names}")
    judge = PairJudge(qrels)
    parts, unjudged, sessions = _judged_sessions(runs, topic_of, judge)
    position = {s: i for i, s in enumerate(sessions)}
    topic_code_of = np.full(len(sessions), -1, dtype=np.int64)
    session_topics = [""] * len(sessions)
    orders = []
    for run, topics, topic_code in parts:
        g_of = np.array([position.get(s, -1) for s in run.layout.sessions], dtype=np.int64)
        mine = np.flatnonzero(g_of >= 0)
        topic_code_of[g_of[mine]] = topic_code[mine]
        for i in mine.tolist():
            session_topics[g_of[i]] = topics[i]
        orders.append(_session_rows(run, g_of, len(sessions)))
    counts_all = _joined([order.counts for order in orders])
    offsets = np.zeros(len(counts_all) + 1, dtype=np.int64)
    np.cumsum(counts_all, out=offsets[1:])
    # every per-document array is allocated once and filled chunk by chunk (whole
    # rankings, about _CHUNK_ROWS documents): the temporaries stay small
    rel = np.empty(offsets[-1], dtype=np.int64)
    values = {name: np.empty(offsets[-1]) for name in ("qnum", "qrank", "qpos", "doc",
                                                        *(labels or {}))}
    topic_text = identifiers.strings(session_topics)
    base = 0
    for (run, _, _), order in zip(parts, orders, strict=True):
        layout, ranking_session, counts = run.layout, order.ranking_session, order.counts
        starts = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(counts, out=starts[1:])
        for first, stop in chunks(starts, _CHUNK_ROWS):
            lo, hi = int(starts[first]), int(starts[stop])
            part = order.part(first, stop, lo, hi)
            out = slice(base + lo, base + hi)
            doc = layout.doc_code[part]
            row_session = np.repeat(ranking_session[first:stop], counts[first:stop])
            rel[out] = judge.degrees_of(topic_code_of[row_session], layout.docs, doc)
            qnum = run.query_no[part]
            values["qnum"][out] = qnum
            values["qrank"][out] = run.rank[part]
            values["qpos"][out] = query_positions(qnum, starts[first:stop + 1] - lo)
            values["doc"][out] = doc
            for name, table in (labels or {}).items():
                values[name][out] = lookup(table, topic_text, layout.docs,
                                           topic_code=row_session, doc_code=doc)
        base += int(starts[-1])
    ranking_topic = _joined([order.ranking_session for order in orders])
    jr = JudgedRankings(
        rel=rel,
        offsets=offsets,
        rel_levels=judge.rel_levels(topic_code_of[ranking_topic]),
        degrees=judge.degrees,
        ranking_topic=ranking_topic,
        ranking_run=np.repeat(np.arange(len(runs), dtype=np.int64),
                              [len(order.counts) for order in orders]),
        topics=sessions,
        runs=tuple(names),
        relevance_level=relevance_level,
        unjudged_topics=tuple(unjudged),
    )
    return SessionRankings(jr=jr.with_attributes(**values),
                           session_topics=tuple(session_topics))


def _judged_sessions(runs: Sequence[SessionRun], topic_of: Mapping[str, str] | None,
                     judge: PairJudge
                     ) -> tuple[list[tuple[SessionRun, list[str], np.ndarray]],
                                list[tuple[str, ...]], tuple[str, ...]]:
    """Each run with its sessions' topics (:func:`_session_topics`) and their codes in the
    qrels (``-1``: not judged); per run, its sessions whose topic the qrels do not judge;
    and every session judged in some run, sorted (the sessions evaluated)."""
    parts: list[tuple[SessionRun, list[str], np.ndarray]] = []
    unjudged: list[tuple[str, ...]] = []
    judged_sessions: set[str] = set()
    for run in runs:
        topics = _session_topics(run, topic_of)
        topic_code = judge.topic_codes(topics)
        judged = list(zip(run.layout.sessions, (topic_code >= 0).tolist(), strict=True))
        judged_sessions.update(s for s, j in judged if j)
        unjudged.append(tuple(sorted(s for s, j in judged if not j)))
        parts.append((run, topics, topic_code))
    return parts, unjudged, tuple(sorted(judged_sessions))


def _joined(pieces: list[np.ndarray]) -> np.ndarray:
    """The pieces end to end (the piece itself when there is one: no copy)."""
    return pieces[0] if len(pieces) == 1 else np.concatenate(pieces)


@dataclass(frozen=True, eq=False)
class _RowOrder:
    """The rows of one run's rankings (judged sessions, ascending by session position),
    each in (query_no, rank) order: ranking ``i`` has ``counts[i]`` rows and is session
    ``ranking_session[i]``."""

    ranking_session: np.ndarray
    counts: np.ndarray
    #: Every row, in ranking order (a run whose rows had to be sorted).
    rows: np.ndarray | None = None
    #: The first row of every ranking, its rows following it (a grouped run's blocks
    #: moved); ``None`` with ``rows``: the file's rows as they are.
    first_row: np.ndarray | None = None

    def part(self, first: int, stop: int, lo: int, hi: int) -> slice | np.ndarray:
        """The rows of rankings ``first:stop``, documents ``lo:hi`` of the order."""
        if self.rows is not None:
            return self.rows[lo:hi]
        if self.first_row is None:
            return slice(lo, hi)
        return ranges(self.first_row[first:stop], self.counts[first:stop])


def _session_rows(run: SessionRun, g_of: np.ndarray, n_sessions: int) -> _RowOrder:
    """The order of the run's rows of judged sessions: by (session position, query_no,
    rank).

    ``g_of`` is the position of every distinct session of the run's layout (-1: not
    judged). A :attr:`~irscale.io.sessions.SessionLayout.grouped` run only has its blocks
    of rows moved; other runs have their rows sorted.
    """
    layout = run.layout
    if layout.grouped:
        block_g = g_of[layout.block_session]
        chosen = np.flatnonzero(block_g >= 0)
        chosen = chosen[np.argsort(block_g[chosen])]  # one block per session: no ties
        first_row = None
        if len(chosen) != len(block_g) or (chosen[1:] < chosen[:-1]).any():
            first_row = layout.blocks.bounds[chosen]
        return _RowOrder(block_g[chosen], layout.blocks.lengths[chosen], first_row=first_row)
    g = g_of[layout.session_code()]
    rows = np.flatnonzero(g >= 0)
    query_no, rank = run.query_no[rows], run.rank[rows]
    key = composite((g[rows], n_sessions), (query_no, int(query_no.max(initial=0)) + 1),
                    (rank, int(rank.max(initial=0)) + 1))
    rows = rows[np.argsort(key, kind="stable")]
    counts = np.bincount(g[rows], minlength=n_sessions)
    present = np.flatnonzero(counts)
    return _RowOrder(present, counts[present], rows=rows)


def query_starts(qnum: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Flags the first document of every query's list in the concatenated lists
    (``offsets``: the rankings' bounds)."""
    start = np.ones(len(qnum), dtype=bool)
    np.not_equal(qnum[1:], qnum[:-1], out=start[1:])
    start[offsets[:-1][offsets[1:] > offsets[:-1]]] = True
    return start


def query_positions(qnum: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """1-based position (int64) of every document within its query's list."""
    position = np.arange(1, len(qnum) + 1, dtype=np.int64)
    first = np.where(query_starts(qnum, offsets), position, 0)
    np.maximum.accumulate(first, out=first)
    position -= first
    position += 1
    return position


#: Per-document attributes that describe the batch as built (:func:`session_view` drops
#: them): the rank shown, the position within its query's list, the document code.
_BATCH_ATTRIBUTES = ("qrank", "qpos", "doc")


def keep_only(jr: JudgedRankings, keep: np.ndarray | None, rel: np.ndarray | None = None
          ) -> JudgedRankings:
    """The rankings reduced to the documents flagged in ``keep`` (``None``: all of them),
    ``rel`` replacing the degrees first, with ``qnum`` and the label sets (not
    :data:`_BATCH_ATTRIBUTES`). Keeping every document copies nothing."""
    attributes = tuple((k, v) for k, v in jr.attributes if k not in _BATCH_ATTRIBUTES)
    if keep is None:
        return jr.with_values(rel=rel, attributes=attributes)
    lengths = np.bincount(jr.segment[keep], minlength=jr.n_rankings)
    return replace(jr, rel=(jr.rel if rel is None else rel)[keep],
                   offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
                   attributes=tuple((k, v[keep]) for k, v in attributes))


def cut_flags(jr: JudgedRankings, cutoff: int | None) -> np.ndarray | None:
    """Flags the first ``cutoff`` documents of every query (``None``: every document)."""
    if cutoff is None:
        return None
    keep = jr.attribute("qpos") <= cutoff
    return None if keep.all() else keep


def first_occurrences(jr: JudgedRankings, keep: np.ndarray | None) -> np.ndarray:
    """Flags the documents of ``keep`` (``None``: all) that are the first occurrence of
    their document in their ranking (among the kept ones).

    The (ranking, document) keys, packed with their position, are sorted once: the first
    entry of every key is its first occurrence.
    """
    kept = None if keep is None else np.flatnonzero(keep)
    doc = jr.attribute("doc").astype(np.int64) if kept is None else \
        jr.attribute("doc")[kept].astype(np.int64)
    key = composite((jr.segment if kept is None else jr.segment[kept], jr.n_rankings),
                    (doc, int(doc.max(initial=0)) + 1))
    del doc
    out = np.zeros(len(jr.rel), dtype=bool)
    if not len(key):
        return out
    shift = len(key).bit_length()
    if int(key.max()) < 1 << (63 - shift):
        key <<= shift
        key |= np.arange(len(key))
        key.sort()
        first = np.ones(len(key), dtype=bool)
        np.not_equal(key[1:] >> shift, key[:-1] >> shift, out=first[1:])
        found = key[first] & ((1 << shift) - 1)
    else:
        found = np.unique(key, return_index=True)[1]
    out[found if kept is None else kept[found]] = True
    return out


def session_view(jr: JudgedRankings, cutoff: int | None,
                 duplicates: Literal["remove", "no-gain"],
                 first: np.ndarray | None = None) -> JudgedRankings:
    """The concatenated lists of the first ``cutoff`` documents of every query, a document
    shown again removed (``remove``: later documents move up) or kept as judged
    non-relevant (``no-gain``), with the attributes ``qnum`` and the label sets.
    ``first``: the :func:`first_occurrences` of the cut, when known."""
    keep = cut_flags(jr, cutoff)
    if first is None:
        first = first_occurrences(jr, keep)
    if duplicates == "remove":
        return keep_only(jr, first)
    return keep_only(jr, keep, np.where(~first & (jr.rel > 0), 0, jr.rel))


# ----------------------------------------------------------------------------- sDCG
def query_discount(qnum: np.ndarray, bq: float) -> np.ndarray:
    """``log_bq(qnum + bq − 1)`` (Sakai 2014, eq. 35): 1 for the first query."""
    return np.log(np.asarray(qnum, dtype=np.float64) + bq - 1.0) / np.log(bq)


@dataclass(frozen=True)
class SessionDiscount:
    """The discounts of sDCG's ``form``: ``sakai`` divides a gain by log_bq(qnum + bq − 1)
    and log2(r + 1), r its rank in the concatenated list (Sakai 2014, eq. 35);
    ``jarvelin`` by 1 + log_bq(qnum) and the rank discount ``rank`` of j, its position in
    its query's list (Järvelin et al. 2008; by default Järvelin & Kekäläinen's
    max(1, log_2 j))."""

    form: str
    bq: float
    rank: Discount

    @classmethod
    def of(cls, params: Params) -> SessionDiscount:
        return cls(params["form"], params["bq"], discount_of(params))

    def __call__(self, qnum: np.ndarray, rank: np.ndarray, position: np.ndarray
                 ) -> np.ndarray:
        """The divisor of the gain of a document of query ``qnum`` at ``rank`` in the
        concatenated list and ``position`` in its query's list."""
        if self.form == "sakai":
            return query_discount(qnum, self.bq) * _LOG2(rank)
        return Discount("1+log", self.bq)(qnum) * self.rank(position)


def jarvelin_sdcg(cut: JudgedRankings, gain: GainMap, discount: SessionDiscount,
                  family: str = "sDCG") -> np.ndarray:
    """sDCG of ``form=jarvelin`` (module documentation) of every ranking of ``cut``, the
    first k documents of every query's list, duplicates kept."""
    qnum = cut.attribute("qnum")
    terms = element_gains(cut, gain, None, family)
    terms /= discount(qnum, cut.rank, query_positions(qnum, cut.offsets))
    return cut.segment_sum(terms)


def sdcg_values(view: JudgedRankings, gain: GainMap, bq: float, family: str = "sDCG"
                ) -> np.ndarray:
    """sDCG (eq. 35) of every ranking of a session view (:func:`session_view`); ``family``
    names the measure in errors (``sDCG`` or ``nsDCG``)."""
    discount = query_discount(view.attribute("qnum"), bq)
    discount *= _LOG2(view.rank)
    terms = element_gains(view, gain, None, family)
    terms /= discount
    return view.segment_sum(terms)


def _queries(view: JudgedRankings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per query list of a view: its ranking, query number and length."""
    starts = np.flatnonzero(query_starts(view.attribute("qnum"), view.offsets))
    bounds = np.append(starts, len(view.rel))
    return view.segment[starts], view.attribute("qnum")[starts], np.diff(bounds)


def ideal_sdcg(cut: JudgedRankings, gain: GainMap, discount: SessionDiscount,
               cutoff: int | None, norm: str) -> np.ndarray:
    """The ideal sDCG of every ranking (module documentation, ``nsDCG``), discounted as
    ``discount``'s form; ``cut`` is the view of the first ``cutoff`` documents of every
    query, duplicates kept."""
    ideal = ideal_rankings(cut, gain, None, "nsDCG")
    batch = ideal.batch
    gains = element_gains(batch, gain, None, "nsDCG")
    ranking, qnum, length = _queries(cut)
    if norm == "single":
        first = np.ones(len(batch.rank))
        cum = segment_cumsum(gains / discount(first, batch.rank, batch.rank), batch.offsets)
        depth = ideal.length
        if cutoff is not None:
            queries = np.bincount(ranking, minlength=cut.n_rankings)
            depth = np.minimum(depth, queries * cutoff)
        at = batch.offsets[ideal.row] + depth - 1
        return np.where(depth > 0, cum[np.maximum(at, 0)] if len(cum) else 0.0, 0.0)
    slots = np.full(len(length), cutoff) if cutoff is not None else length
    first = np.concatenate(([0], np.cumsum(slots)))[:-1]
    element_query = np.repeat(np.arange(len(slots)), slots)
    t = np.arange(int(slots.sum())) - first[element_query] + 1  # position in its list
    owner = ranking[element_query]  # ascending: lists come ranking after ranking
    r = np.arange(len(owner)) - np.searchsorted(owner, owner) + 1  # concatenated rank
    depth = ideal.length[owner]
    at = batch.offsets[ideal.row[owner]] + t - 1
    g = np.where(t <= depth, gains[np.minimum(at, max(len(gains) - 1, 0))]
                 if len(gains) else 0.0, 0.0)
    terms = g / discount(qnum[element_query], r, t)
    return np.bincount(owner, weights=terms, minlength=cut.n_rankings)


# ----------------------------------------------------------------------------- sRBP, sERR
def srbp_values(view: JudgedRankings, params: Params) -> np.ndarray:
    """sRBP (module documentation) of every ranking of a ``no-gain`` session view."""
    p, b, gain, maxrel = params["p"], params["b"], params["gain"], params["maxrel"]
    gmax = max_gain(view, gain, maxrel, "sRBP")
    if gmax <= 0:
        return np.zeros(view.n_rankings)
    scoring = relevant_documents(view)
    index = scoring.index
    qnum = view.attribute("qnum")[index]
    k = query_positions(view.attribute("qnum"), view.offsets)[index]
    weights = np.power((p - b * p) / (1.0 - b * p), qnum - 1.0) * np.power(b * p, k - 1.0)
    terms = element_gains(view, gain, maxrel, "sRBP", index) * weights
    total = np.bincount(view.segment[index], weights=terms, minlength=view.n_rankings)
    return (1.0 - p) * total / gmax


def serr_values(view: JudgedRankings, params: Params) -> np.ndarray:
    """sERR (module documentation) of every ranking of a ``remove`` session view."""
    subset = relevant_documents(view)
    stop = satisfaction(view, params["prob"], params["gain"], params["maxrel"], "sERR",
                        subset.index)
    before = unsatisfied_before(subset, stop)
    discount = query_discount(view.attribute("qnum")[subset.index], params["bq"])
    discount *= subset.rank
    return subset.total(before * stop / discount)


def path_model_values(jr: JudgedRankings, request: NamedMeasure) -> np.ndarray:
    """esnDCG or esAP (:mod:`irscale.text.session_paths`) of every ranking of ``jr``, over
    the first ``request.cutoff`` documents of every query's list."""
    params, family = request.params, request.family
    keep = cut_flags(jr, request.cutoff)
    rows = np.arange(len(jr.rel)) if keep is None else np.flatnonzero(keep)
    gain = params["gain"] if family == "esnDCG" else parse_gain("linear")
    gains = element_gains(jr, gain, None, family)[rows]
    sessions = Sessions(jr.n_rankings, jr.segment[rows], jr.attribute("qnum")[rows],
                        jr.attribute("doc")[rows].astype(np.int64), gains,
                        jr.is_relevant[rows])
    if family == "esAP":
        return expected_ap_many(sessions, params["p_reform"], params["p_down"],
                                np.asarray(jr.num_rel, dtype=np.int64))
    ideal = ideal_rankings(jr, gain, None, family)
    batch = ideal.batch
    ideal_cum = segment_cumsum(element_gains(batch, gain, None, family) / _LOG2(batch.rank),
                               batch.offsets)
    bounds = np.column_stack([batch.offsets[ideal.row], batch.offsets[ideal.row + 1]])
    return expected_ndcg_many(sessions, params["p_reform"], params["p_down"], ideal_cum,
                              bounds)


# ----------------------------------------------------------------------------- U
def click_u(jr: JudgedRankings, run_index: int, clicks: ClickLog, params: Params, *,
            order: ClickOrder = "time", click_gain: float | None = None,
            unjudged: Sequence[str] = ()) -> np.ndarray:
    """Session U-measure from clicks (Sakai 2014, Fig. 9) for the rankings of one run.

    Clicks are read in time order (``order="time"``; equal times in file order) or by
    query and rank (``"rank"``). For each click on the document at rank c of query q, the
    user first reads the snippets of ranks 1..c of query q not read yet (``snippet``
    characters each), then F of the document's text (``F`` × its length from label set
    ``lengths``); the click's gain (``click_gain``, Fig. 9's 0.5 for "clicked = relevant";
    default the qrels gain of the document) is credited at the end of that text, once per
    document and session. U = Σ g·max(0, 1 − pos/L)/norm (eq. 19–20, via
    :func:`irscale.measures.umeasure.u_measure`). Sessions of ``unjudged`` (no judgments)
    are skipped; a click on a session or rank the run did not show is an
    :class:`InputError`.
    """
    mine = np.flatnonzero(jr.ranking_run == run_index)
    ranking_of = np.full(len(jr.topics), -1, dtype=np.int64)
    ranking_of[jr.ranking_topic[mine]] = mine
    session = identifiers.index_in(clicks.session, identifiers.strings(jr.topics))
    ranking = np.where(session >= 0, ranking_of[np.maximum(session, 0)], -1)
    skipped = clicks.session.isin(list(unjudged)) if unjudged else \
        np.zeros(len(ranking), dtype=bool)
    qnum, qrank = jr.attribute("qnum"), jr.attribute("qrank")
    element = np.full(len(ranking), -1, dtype=np.int64)
    asked = np.flatnonzero(ranking >= 0)
    if len(asked):
        width_r = int(max(qrank.max(initial=0), clicks.rank.max(initial=0))) + 1
        width_q = int(max(qnum.max(initial=0), clicks.query_no.max(initial=0))) + 1
        if jr.n_rankings * width_q * width_r >= 2**62:
            raise InputError(f"{clicks.source}: query numbers or ranks too large")
        keys = (jr.segment * width_q + qnum.astype(np.int64)) * width_r + qrank.astype(
            np.int64)
        wanted = (ranking[asked] * width_q + clicks.query_no[asked]) * width_r + \
            clicks.rank[asked]
        slot = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
        hit = keys[slot] == wanted if len(keys) else np.zeros(len(asked), dtype=bool)
        element[asked[hit]] = slot[hit]
    bad = np.flatnonzero((element < 0) & ~skipped)
    if len(bad):
        row = int(bad[0])
        line, text = clicks.line_of(row)
        raise InputError(
            f"click on rank {clicks.rank[row]} of query {clicks.query_no[row]} of session "
            f"{clicks.session[row]}: run {jr.runs[run_index]!r} shows no document "
            "there", source=clicks.source, line=line, text=text)
    used = np.flatnonzero(element >= 0)
    element, ranking = element[used], ranking[used]
    if order == "time":
        process = np.lexsort((used, clicks.timestamp[used], ranking))
    else:
        process = np.lexsort((used, qrank[element], qnum[element], ranking))
    element, ranking = element[process], ranking[process]
    # snippets: per (ranking, query), ranks above the deepest one read so far
    by_query = np.lexsort((np.arange(len(element)), qnum[element], ranking))
    group_key = ranking[by_query] * (int(qnum.max(initial=0)) + 1) + qnum[element[by_query]]
    group_start = np.r_[True, group_key[1:] != group_key[:-1]] if len(by_query) else \
        np.zeros(0, dtype=bool)
    offsets = np.append(np.flatnonzero(group_start), len(by_query))
    deepest = segment_scan(qrank[element[by_query]], offsets, np.maximum, -np.inf)
    before = np.where(group_start, 0.0, np.r_[0.0, deepest[:-1]])
    new_snippets = np.empty(len(element))
    new_snippets[by_query] = np.maximum(0.0, qrank[element[by_query]] - before)
    lengths = document_lengths(jr, params["lengths"], params["deflen"], "U",
                               np.isin(np.arange(len(jr.rel)), element))[element]
    text = params["snippet"] * new_snippets + params["F"] * lengths
    if click_gain is None:
        gains = element_gains(jr, params["gain"], None, "U")[element]
    else:
        gains = np.full(len(element), float(click_gain))
    doc = jr.attribute("doc")[element].astype(np.int64)
    _, first = np.unique(ranking * (int(doc.max(initial=0)) + 1) + doc, return_index=True)
    once = np.zeros(len(element), dtype=bool)
    once[first] = True
    counts = np.bincount(ranking, minlength=jr.n_rankings)
    values = u_measure(np.concatenate(([0], np.cumsum(counts))), text,
                       np.where(once, gains, 0.0), patience=params["L"],
                       norm=params["norm"])
    return values[mine]

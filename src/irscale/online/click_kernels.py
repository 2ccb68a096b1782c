"""The vectorised kernels of the click models (:mod:`irscale.online.clickmodels`): the
posteriors of examination and of the cascade chains over all sessions at once, the
per-rank tables of UBM, the smoothed ratios of counts, and the codes of the
(query, document) pairs of a click log. Arrays in, arrays out: no loop over sessions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ParameterError
from .clicklog import ClickLog

#: Attractiveness and satisfaction of an unseen (query, document) pair; EM's start.
PRIOR = 0.5

def examination_posteriors(alpha: np.ndarray, exam: np.ndarray, clicks: np.ndarray
                            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """PBM/UBM E-step, ``P(C = 1) = α·γ``: posteriors ``P(A = 1 | c)`` and
    ``P(E = 1 | c)`` (``c + (1 − c)·α(1 − γ)/(1 − αγ)`` and its mirror; book §4.2.1) and
    each session's log-likelihood."""
    p = alpha * exam
    rest = 1.0 - p
    with np.errstate(divide="ignore", invalid="ignore"):
        post_a = np.where(clicks, 1.0, alpha * (1.0 - exam) / rest)
        post_e = np.where(clicks, 1.0, exam * (1.0 - alpha) / rest)
        ll = np.log(np.where(clicks, p, rest))
    return post_a, post_e, ll


@dataclass(frozen=True, eq=False)
class Layout:
    """A log's clicks laid out rank-major (``[rank, session]``, contiguous per rank) with
    the masks and indices the cascade chain needs, computed once for all EM iterations.

    ``click_*`` describe the clicks in rank-major order (``np.flatnonzero(clicks)``), and
    ``skip_*`` the skips above a session's last click (examined, not clicked)."""

    clicks: np.ndarray
    valid: np.ndarray
    last: np.ndarray  # rank of the last click, 1-based; 0 without click
    any_click: np.ndarray
    before: np.ndarray  # ranks 1..l
    after: np.ndarray  # ranks l+1.. of the session
    skip_step: np.ndarray  # float: a skip followed by a rank of the session
    click_at: np.ndarray
    click_session: np.ndarray
    click_last: np.ndarray  # the session's last click
    click_step: np.ndarray  # a rank of the session follows
    skip_at: np.ndarray
    skip_session: np.ndarray

    @classmethod
    def of(cls, clicks: np.ndarray, valid: np.ndarray) -> Layout:
        """From session-major ``clicks`` and ``valid`` (``[session, rank]``)."""
        valid = np.ascontiguousarray(valid.T)
        clicks = np.ascontiguousarray(clicks.T) & valid
        n, s = clicks.shape
        any_click = np.asarray(clicks.any(axis=0))
        last = np.where(any_click, n - clicks[::-1].argmax(axis=0), 0)
        rank = np.arange(n)[:, None]
        before = rank < last
        step = np.zeros_like(valid)
        step[:-1] = valid[1:]
        click_at = np.flatnonzero(clicks)
        click_rank, click_session = np.divmod(click_at, s)
        skip_at = np.flatnonzero(before & ~clicks)
        return cls(clicks, valid, last, any_click, before, (rank >= last) & valid,
                   (step & ~clicks).astype(np.float64), click_at, click_session,
                   np.asarray(click_rank == last[click_session] - 1), step.ravel()[click_at],
                   skip_at, skip_at % s)


def chain_posteriors(alpha: np.ndarray, sig: np.ndarray, g0: float, gs0: float,
                      gs1: float, lay: Layout) -> dict[str, Any]:
    """Exact posteriors of the cascade chain (module doc) given each session's clicks;
    ``α`` rank-major (``[rank, session]``, as ``lay``), 0 beyond a session; ``sig`` the
    satisfaction ``σ`` at the clicks (``lay.click_at`` order: it is not read elsewhere).

    With l the last click (0 if none), ranks up to l are examined. After it, with
    ``Z_r = P(no click at r..n | E_r = 1) = (1 − α_r)(1 − g0 + g0·Z_{r+1})``, ``Z_{n+1} =
    1``, ``ε`` the probability of going on after l (``κ_l = σ_l g1 + (1 − σ_l) g0'``; 1 if
    l = 0) and ``D = 1 − ε + ε·Z_{l+1}`` (the probability of the ranks after l):
    ``P(E_r = 1 | C) = ε Π_{l<k<r} (1 − α_k) g0 · Z_r / D`` for r > l,
    ``P(S_l = 1 | C) = σ_l (1 − g1 + g1 Z_{l+1}) / D``, a click above l satisfied with
    ``σ g1 / κ``, and ``P(A_r = 1 | C) = α_r (1 − P(E_r = 1 | C))`` at a skip.
    ``log P(C) = Σ_{r ≤ l} log P(C_r | E_r = 1) + Σ_{r < l} log(κ_r or g0) + log D``.

    Returns ``skip_attracted`` (``P(A_r = 1 | C)`` at skips, 0 at clicks and beyond a
    session; a click is attracted), ``satisfied`` (``P(S_r = 1 | C)`` at each click, in
    ``lay.click_at`` order), ``loglik`` per session and ``transitions``: rows (skip g0,
    unsatisfied click g0', satisfied click g1), columns (expected trials, expected
    successes), over transitions r → r + 1 inside each session.
    """
    n, s = alpha.shape
    last = lay.last
    sessions = np.arange(s)
    z = np.empty((n + 1, s))
    z[n] = 1.0
    for j in range(n - 1, -1, -1):  # alpha is 0 beyond a session: Z stays 1 there
        np.multiply(1.0 - alpha[j], (1.0 - g0) + g0 * z[j + 1], out=z[j])
    kap = sig * gs1 + (1.0 - sig) * gs0
    eps = np.ones(s)
    eps[lay.click_session[lay.click_last]] = kap[lay.click_last]
    z_after = z[last, sessions]
    denom = 1.0 - eps + eps * z_after
    with np.errstate(divide="ignore", invalid="ignore"):
        # P(E_r = 1 | C): 1 up to l, then the forward product ε/D·Π(1 − α_k) g0 times Z_r
        examined = z[:n]  # overwritten rank by rank (Z_r is read before)
        forward = eps / denom
        for j in range(n):
            if j > 0:
                forward = np.where(lay.after[j - 1], forward * (1.0 - alpha[j - 1]) * g0,
                                   forward)
            row = examined[j]
            row *= forward
            row *= lay.after[j]
            row += lay.before[j]
        trials = float(np.vdot(examined[:-1], lay.skip_step[:-1]))
        successes = float(np.vdot(examined[1:], lay.skip_step[:-1]))
        # satisfaction at the clicks; after the last one it is observed through Z_{l+1}
        d_c = denom[lay.click_session]
        z_c = z_after[lay.click_session]
        satisfied = np.where(lay.click_last, sig * (1.0 - gs1 + gs1 * z_c) / d_c,
                             np.where(kap > 0, sig * gs1 / kap, 0.0))
        stepped = lay.click_step
        inner = stepped & ~lay.click_last
        at_last = stepped & lay.click_last
        go_sat = np.where(inner, satisfied, sig * gs1 * z_c / d_c)
        go_unsat = np.where(inner, 1.0 - satisfied, (1.0 - sig) * gs0 * z_c / d_c)
        # log P(C): clicks (and the move on after those above l), skips above l, and D
        alpha_c = alpha.ravel()[lay.click_at]
        click_terms = np.log(alpha_c) + np.where(lay.click_last, 0.0, np.log(kap))
        skip_terms = np.log((1.0 - alpha.ravel()[lay.skip_at]) * g0)
        ll = (np.bincount(lay.click_session, click_terms, s)
              + np.bincount(lay.skip_session, skip_terms, s) + np.log(denom))
    transitions = np.array([
        [trials, successes],
        [(1.0 - satisfied)[stepped].sum(), go_unsat[inner | at_last].sum()],
        [satisfied[stepped].sum(), go_sat[inner | at_last].sum()],
    ])
    np.subtract(1.0, examined, out=examined)
    examined *= alpha  # P(A = 1 | C) at a skip: α (1 − P(E = 1 | C)); 0 at a click
    return {"skip_attracted": examined, "satisfied": satisfied, "loglik": ll,
            "transitions": transitions}


def ubm_full(alpha: np.ndarray, table: np.ndarray) -> np.ndarray:
    """UBM's unconditional click probabilities: ``P(C_r = 1) = Σ_{r'} P(previous click at
    r') α_r γ_{r r'}``, the distribution of the previous click carried down the ranks."""
    s, n = alpha.shape
    where = np.zeros((s, n + 1))
    where[:, 0] = 1.0
    out = np.empty((s, n))
    for j in range(n):
        p = alpha[:, j, None] * table[j, : j + 1]
        clicked = (where[:, : j + 1] * p).sum(axis=1)
        where[:, : j + 1] *= 1.0 - p
        where[:, j + 1] = clicked
        out[:, j] = clicked
    return out


def previous_click(clicks: np.ndarray) -> np.ndarray:
    """``previous[s, r]``: the rank (1-based) of the last click above rank r + 1, 0 if
    none."""
    s, n = clicks.shape
    marks = np.where(clicks, np.arange(1, n + 1), 0)
    running = np.maximum.accumulate(marks, axis=1)
    previous = np.zeros((s, n), dtype=np.int64)
    previous[:, 1:] = running[:, :-1]
    return previous


def ubm_table(values: np.ndarray, n: int) -> np.ndarray:
    """UBM's γ[r − 1, r'] for the ranks r ≤ ``n`` of a log (a model fitted on longer pages
    holds them in its top-left corner)."""
    table = np.asarray(values, dtype=np.float64)
    check_ranks(table.shape[0], n, "ubm examination")
    return table[:n, :n]


def per_rank(values: np.ndarray, n: int, name: str) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    check_ranks(len(values), n, name)
    return values[:n]


def check_ranks(ranks: int, n: int, name: str) -> None:
    """A model with parameters for ``ranks`` ranks on pages of ``n``: refused when shorter."""
    if ranks < n:
        raise ParameterError(f"click model: {name} gives {ranks} ranks, the log's SERP size "
                             f"is {n} (pages of at most {ranks} ranks, --serp-size {ranks}, "
                             f"or a model fitted with --serp-size {n})")


def widened(values: np.ndarray, n: int, fill: Any = 0) -> np.ndarray:
    """``values[session, rank]`` (or ``values[rank]``) computed on the ranks a log shows
    (:meth:`~irscale.online.clicklog.ClickLog.trimmed`), given ``n`` rank columns again:
    ``fill`` beyond them (no session there: no click; a parameter keeps its start)."""
    width = values.shape[-1]
    if width == n:
        return values
    out = np.full((*values.shape[:-1], n), fill, dtype=values.dtype)
    out[..., :width] = values
    return out


def ratio(top: np.ndarray, bottom: np.ndarray, default: Any = PRIOR) -> np.ndarray:
    """``top / bottom``, ``default`` where nothing was counted."""
    top, bottom = np.asarray(top, np.float64), np.asarray(bottom, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1.0), default)


def smoothed(top: np.ndarray, bottom: np.ndarray, k: float) -> np.ndarray:
    """``(top + k·prior) / (bottom + k)`` (the prior where nothing was counted)."""
    return ratio(np.asarray(top, np.float64) + k * PRIOR, np.asarray(bottom, np.float64) + k)


def pair_codes(log: ClickLog) -> tuple[np.ndarray, pd.MultiIndex]:
    """A code per shown (query, document) pair (-1 beyond a session's length) and the
    pairs, in first-appearance order: a MultiIndex on the log's vocabularies (its levels,
    unique already: no string is hashed or sorted again)."""
    valid = log.valid
    key = log.query[:, None] * len(log.docs) + log.doc
    code = np.full(key.shape, -1, dtype=np.int64)
    shown, unique = pd.factorize(key[valid])
    code[valid] = shown
    query, doc = np.divmod(np.asarray(unique, dtype=np.int64), len(log.docs))
    pairs = pd.MultiIndex(levels=[pd.Index(log.queries), pd.Index(log.docs)],
                          codes=[query, doc],  # type: ignore[list-item]
                          names=["query", "docno"], verify_integrity=False)
    return code, pairs


def pair_positions(index: pd.Index, pairs: pd.MultiIndex) -> np.ndarray:
    """The position in ``index`` (unique (query, document) pairs) of every pair of
    ``pairs``, -1 where absent: what ``index.get_indexer(pairs)`` gives, with the strings
    matched once per level (each vocabulary against the other's) and the pairs as integer
    keys (a MultiIndex's matching re-codes every level of both sides first)."""
    assert isinstance(index, pd.MultiIndex)
    width = len(index.levels[1]) + 1
    positions = [np.append(index.levels[k].get_indexer(pairs.levels[k]), -1)
                 for k in (0, 1)]  # (a code -1, a missing value, stays -1)
    query = positions[0][pairs.codes[0]].astype(np.int64)
    doc = positions[1][pairs.codes[1]].astype(np.int64)
    wanted = np.where((query >= 0) & (doc >= 0), query * width + doc, -1)
    known = np.asarray(index.codes[0], np.int64) * width + np.asarray(index.codes[1], np.int64)
    return pd.Index(known).get_indexer(pd.Index(wanted))


def pair_series(query: np.ndarray, docno: np.ndarray, values: np.ndarray) -> pd.Series:
    return pd.Series(values, index=pd.MultiIndex.from_arrays([query, docno],
                                                            names=["query", "docno"]))


def lookup(values: np.ndarray, index: np.ndarray, default: float) -> np.ndarray:
    return np.where(index >= 0, values[np.maximum(index, 0)], default)

"""FairPairs: unbiased pairwise preferences from clicks on a minimally randomised ranking
(Radlinski & Joachims, "Minimally invasive randomization for collecting unbiased
preferences from clickthrough logs", AAAI 2006, arXiv cs/0605037; Ferro & Maistro 2024,
§6.5: with the documents of a pair shown in both orders, the click > skip above rule
judges documents without the bias of their position).

Presentation (:func:`fair_pairs_run`, :func:`fair_pairs`): the ranking's first L documents
d_1 .. d_L are cut into adjacent pairs at a random offset k ∈ {0, 1} (P = 1/2 each):
(d_1, d_2), (d_3, d_4), ... for k = 0, (d_2, d_3), (d_4, d_5), ... for k = 1 (d_1 alone at
the top, and d_L alone at the bottom where the pairs do not reach it); every pair is
flipped with probability 1/2, independently. Every document is shown once, at its rank or
at a neighbour's; the coins are drawn for all impressions at once.

Preferences (:meth:`FairPairs.preferences`): in an impression, a pair shown as (upper,
lower) gives the preference lower ≻ upper when the lower document is clicked and the upper
one is not ("click on lower, skip upper"); nothing otherwise. For the documents a = d_i and
b = d_{i+1} of the ranking (every adjacent pair of the first L), over the impressions
that cut the ranking into pairs holding (a, b): ``a_over_b`` counts the preferences for a
(shown below b: the pair flipped) and ``b_over_a`` those for b (shown below a). Position
bias cancels: both orders are shown at the same two positions with the same probability,
so under a user whose examination of a position does not depend on the documents below it
(the paper's assumptions; a position-based or cascade click model) P(a ≻ b) > P(b ≻ a) in
an impression holding the pair exactly when a is the more attractive (PBM with
examination γ_i, γ_{i+1} and attractiveness α: P(b ≻ a) = (1 − γ_i α_a) γ_{i+1} α_b / 2,
so P(b ≻ a) − P(a ≻ b) = γ_{i+1}(α_b − α_a)/2).

Test: under H0 (neither document preferred) an impression holding the pair yields a ≻ b
and b ≻ a with the same probability, the flip being a fair coin, so given the n =
a_over_b + b_over_a preferences, a_over_b ~ Binomial(n, 1/2): the two-sided binomial
(sign) test, p = min(1, 2 · min(F(k), 1 − F(k − 1))) with k = a_over_b and F the
Binomial(n, 1/2) distribution function (``scipy.stats.binomtest``'s p for a symmetric
null; 1 when n = 0; :func:`irscale.online.harness.sign_test`). ``preferred`` is the
document with more preferences (``none`` on a tie) and ``significant`` is p ≤ α.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
import pandas as pd

from ..collections.candidates import Candidates, ranked_candidates
from ..core.notebook import HtmlRepr
from ..errors import InputError
from ..stats.protocol import TableResult, format_table
from ..stats.resampling import RngArg
from ..stats.tables import Format
from ..stats.validation import check_alpha
from .harness import sign_test
from .interleaving import LENGTH, impression_topics, list_width, ranking_scores
from .params import FAIR_PAIRS
from .shown import ShownLists, generator

__all__ = ["FairPairs", "FairPairsResult", "fair_pairs", "fair_pairs_run"]

#: ``preferred`` of a pair with as many preferences each way.
NO_PREFERENCE = "none"


@dataclass(frozen=True, eq=False)
class FairPairs(ShownLists, TableResult):
    """The lists of a batch of FairPairs impressions (module documentation).

    ``pairs`` (impressions × L) are the (topic, document) pair ids of ``candidates`` shown
    (-1 past the end of a shorter ranking), ``topic`` the topic index of every impression,
    ``rank`` the 0-based rank in the ranking of the document shown at every position (-1
    past the end), ``offset`` the offset k of every impression (0: pairs (d_1, d_2), ...;
    1: pairs (d_2, d_3), ...), ``asked`` the length asked for when longer than the
    rankings.
    """

    candidates: Candidates
    topic: np.ndarray
    pairs: np.ndarray
    rank: np.ndarray
    offset: np.ndarray
    asked: int | None = None

    SOURCE: ClassVar[str] = "<fairpairs>"

    def flipped(self) -> np.ndarray:
        """Impressions × L booleans: the position holds a document of a flipped pair."""
        return (self.rank >= 0) & (self.rank != np.arange(self.length))

    def to_frame(self) -> pd.DataFrame:
        """One row per shown document: impression, topic, rank shown, docno, its rank in
        the ranking (``ranked``) and whether its pair was flipped."""
        imp, pos = np.nonzero(self.pairs >= 0)
        return pd.DataFrame({
            "impression": imp,
            "topic": np.asarray(self.candidates.topics, dtype=object)[self.topic[imp]],
            "rank": pos + 1,
            "docno": self.documents()[imp, pos],
            "ranked": self.rank[imp, pos] + 1,
            "flipped": self.flipped()[imp, pos],
        })

    def pair_starts(self) -> np.ndarray:
        """Impressions × L booleans: position s and s + 1 are a pair of the impression
        (s ≥ k, s − k even, both shown)."""
        s = np.arange(self.length)
        k = self.offset[:, None]
        shown = self.pairs >= 0
        below = np.pad(shown[:, 1:], ((0, 0), (0, 1)), constant_values=False)
        return (s >= k) & ((s - k) % 2 == 0) & shown & below

    def preferences(self, clicks: object, *, alpha: float = 0.05) -> FairPairsResult:
        """The preferences of ``clicks`` (impressions × L booleans, real or simulated):
        one row per adjacent pair (a, b) of every topic's ranking shown, with its counts
        both ways and the sign test (module documentation)."""
        alpha = check_alpha(alpha)
        click = self._check_clicks(clicks)
        width = self.length
        imp, s = np.nonzero(self.pair_starts())
        upper_rank, lower_rank = self.rank[imp, s], self.rank[imp, s + 1]
        flip = upper_rank > lower_rank  # b shown above a
        prefer_lower = click[imp, s + 1] & ~click[imp, s]
        key = self.topic[imp] * width + np.minimum(upper_rank, lower_rank)
        size = len(self.candidates.topics) * width

        def count(weights: np.ndarray | None = None) -> np.ndarray:
            return np.bincount(key, weights=weights, minlength=size).astype(np.int64)

        held, flipped = count(), count(flip)
        a_over_b, b_over_a = count(prefer_lower & flip), count(prefer_lower & ~flip)
        # every adjacent pair of the rankings as far as the lists show them
        ranked = self.candidates.pairs[:, 0, :width]
        rows = np.flatnonzero(np.pad(ranked[:, 1:] >= 0, ((0, 0), (0, 1)),
                                     constant_values=False).reshape(-1))
        t, r = np.divmod(rows, width)
        docnos = np.asarray(self.candidates.pair_docno.to_pylist(), dtype=object)
        a, b = docnos[ranked[t, r]], docnos[ranked[t, r + 1]]
        won, lost = a_over_b[rows], b_over_a[rows]
        preferred = np.where(won > lost, a, np.where(lost > won, b, NO_PREFERENCE))
        p = sign_test(won, lost)
        frame = pd.DataFrame({
            "topic": np.asarray(self.candidates.topics, dtype=object)[t], "rank": r + 1,
            "a": a, "b": b, "impressions": held[rows], "flipped": flipped[rows],
            "a_over_b": won, "b_over_a": lost, "preferred": preferred, "p": p,
            "significant": p <= alpha,
        })
        return FairPairsResult(frame, alpha)


@dataclass(frozen=True, eq=False)
class FairPairsResult(HtmlRepr):
    """The FairPairs preferences of every adjacent pair (a, b) = (d_i, d_{i+1}) of the
    rankings (module documentation): columns ``topic``, ``rank`` (i), ``a``, ``b``,
    ``impressions`` (that held the pair), ``flipped`` (of them, showing b above a),
    ``a_over_b`` (clicks on a shown below b, b not clicked), ``b_over_a``, ``preferred``
    (``a`` or ``b``'s docno, or ``none``), ``p`` (sign test) and ``significant``
    (p ≤ ``alpha``)."""

    frame: pd.DataFrame
    alpha: float

    def to_frame(self) -> pd.DataFrame:
        return self.frame.copy()

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return format_table(self.frame, fmt, digits=digits, title="FairPairs preferences")

    def __repr__(self) -> str:
        decided = self.frame[self.frame["significant"]]
        return (f"FairPairsResult({len(self.frame)} pairs, {len(decided)} preferences "
                f"significant at {self.alpha:g})")


@FAIR_PAIRS
def fair_pairs_run(run: object, impressions: int | Sequence[str] | np.ndarray, *,
                   length: int = LENGTH, rng: RngArg = None) -> FairPairs:
    """FairPairs presentations of a ranking (module documentation), all at once.

    Parameters
    ----------
    run : run file or object, or Candidates
        The ranking of every topic: a run as :func:`irscale.evaluate` takes it (ranked as
        trec_eval ranks it), a mapping ``{topic: [docno, ...]}`` (best first), or a
        :class:`~irscale.collections.Candidates` cube of one run.
    impressions : int or sequence of topic ids
        Impressions per topic (every topic of the run), or the topic of every impression.
    length : int, default 10
        Documents shown (at most the topic's ranking); impressions × positions beyond the
        memory limit are refused (:func:`~irscale.online.interleaving.check_impressions`).
    rng : seed, SeedSequence or numpy Generator
        The offsets and flips; the same seed gives the same lists.
    """
    cube = _ranking(run)
    width = list_width(cube, length)
    topic = impression_topics(cube, impressions, width, "fairpairs")
    n = len(topic)
    gen = generator(rng)
    offset = gen.integers(0, 2, n).astype(np.int64)
    coin = gen.integers(0, 2, (n, max(width // 2, 1))).astype(bool)
    ranked = cube.pairs[:, 0, :width]
    size = (ranked >= 0).sum(axis=1)[topic]  # documents of every impression's list
    s = np.arange(width)
    k = offset[:, None]
    start = (s >= k) & ((s - k) % 2 == 0) & (s + 1 < size[:, None])
    pair = np.clip((s - k) // 2, 0, coin.shape[1] - 1)
    down = start & np.take_along_axis(coin, pair, axis=1)  # the document at s goes to s + 1
    up = np.pad(down[:, :-1], ((0, 0), (1, 0)), constant_values=False)
    rank = np.where(down, s + 1, np.where(up, s - 1, s))
    rank = np.where(s < size[:, None], rank, -1)
    pairs = np.where(rank >= 0, ranked[topic[:, None], np.maximum(rank, 0)], -1)
    batch = FairPairs(cube, topic, pairs, rank, offset)
    return replace(batch, asked=length)


def fair_pairs(ranking: Sequence[str], impressions: int, *, length: int | None = None,
               rng: RngArg = None) -> FairPairs:
    """``impressions`` FairPairs presentations of one ranking (topic ``q``); ``length``
    defaults to the ranking's.

    >>> shown = fair_pairs(["d1", "d2", "d3", "d4", "d5"], 3, rng=29)
    >>> shown.offset.tolist(), shown.documents()[0].tolist()
    ([1, 0, 1], ['d1', 'd3', 'd2', 'd4', 'd5'])
    >>> clicks = [[0, 0, 1, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0, 0, 1]]
    >>> shown.preferences(clicks).to_frame()[["a", "b", "flipped", "a_over_b", "b_over_a"]]
        a   b  flipped  a_over_b  b_over_a
    0  d1  d2        1         1         0
    1  d2  d3        1         1         0
    2  d3  d4        1         0         0
    3  d4  d5        1         1         0
    """
    if isinstance(ranking, (str, bytes)) or not isinstance(ranking, Sequence):
        raise InputError(f"a ranking is a list of docnos, got {ranking!r}")
    return fair_pairs_run({"q": list(ranking)}, impressions,
                          length=max(len(ranking), 1) if length is None else length, rng=rng)


def _ranking(run: object) -> Candidates:
    """The ranking of :func:`fair_pairs_run` as a cube of one run."""
    if isinstance(run, Candidates):
        cube = run
    elif isinstance(run, Mapping) and run and all(
            isinstance(v, Sequence) and not isinstance(v, (str, bytes)) for v in run.values()):
        cube = ranked_candidates({"ranking": ranking_scores("ranking", run)})
    else:
        cube = ranked_candidates(run)
    if len(cube.runs) != 1:
        raise InputError(f"FairPairs presents one ranking per topic: give one run, not "
                         f"{len(cube.runs)}")
    if not (cube.pairs >= 0).any():
        raise InputError("FairPairs: the ranking holds no document")
    return cube

"""Interleaving and multileaving: online comparisons of rankers from one user's clicks.

An *impression* shows one user a single list built from the rankers' rankings of a topic
(the *mixing policy*); the user's clicks on it are turned into a preference (the *scoring
rule*; Ferro & Maistro 2024, §6.4). Every method here takes the rankings of many topics at once
(:class:`~irscale.collections.Candidates`, a cube ``pairs[topic, ranker, rank]``) and
builds the lists of all impressions with array operations over impressions (a loop over
the ``length`` positions of a list, never over impressions or topics).

The mixing policies (balanced, team-draft and its multileaving, probabilistic, optimized)
and their credit rules are described, and built, in :mod:`irscale.online.mixing`.

Outcome statistics (:class:`InterleavingResult`, per pair of rankers): wins, losses and
ties over n impressions; the preference Δ_AB = (wins_A + ties/2)/n − 0.5 (Chapelle et al.
2012); the two-sided binomial (sign) test of wins against losses (ties left out,
``scipy.stats.binomtest``, H0: P(win | not a tie) = 1/2); and a percentile bootstrap
interval of Δ_AB (impressions resampled: (wins, losses, ties)* ~ Multinomial(n, the
observed proportions), seeded). Marginal credit has expected counts instead, a t-test
and a t interval (see :class:`InterleavingResult`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeGuard

import numpy as np
import pandas as pd

from ..collections.candidates import Candidates, ranked_candidates, warn_missing_topics
from ..core.notebook import HtmlRepr
from ..core.progress import ProgressArg, check_progress, counted_work, declared_memory
from ..errors import InputError, ParameterError
from ..stats.protocol import (
    ConfidenceInterval,
    TableResult,
    check_confidence_level,
    format_table,
)
from ..stats.resampling import RngArg
from ..stats.tables import Format
from ..stats.validation import (
    constant_columns,
    tie_tolerance,
)
from .mixing import (
    Cube,
    balanced_lists,
    draft,
    list_credits,
    optimized_lists,
    probabilistic_lists,
    to_pairs,
)
from .params import CREDITS as CREDITS
from .params import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_TAU,
    INTERLEAVE,
    INTERLEAVING_METHODS,
    INTERVAL_BOOTSTRAP,
    OUTCOMES,
    SHOWN_LENGTH,
    TOPIC_IMPRESSIONS,
    check_credit,
)
from .params import MAX_OPTIMIZED_LENGTH as MAX_OPTIMIZED_LENGTH
from .shown import ShownLists, generator

__all__ = ["CREDITS", "METHODS", "InterleavingResult", "Interleavings", "interleave",
           "interleave_runs", "rankings_from_lists"]

#: Mixing policies.
METHODS = INTERLEAVING_METHODS
Method = Literal["balanced", "team-draft", "probabilistic", "optimized"]
#: Softmax exponent of probabilistic interleaving (Hofmann et al. 2011).
TAU = DEFAULT_TAU
#: Default SERP length.
LENGTH = 10
#: Bootstrap samples of Δ_AB's interval.
BOOTSTRAP = DEFAULT_BOOTSTRAP
#: Peak bytes per shown position of an impression, lists and simulated clicks together
#: (measured on 6·10^5 impressions of 5 positions clicked by a PBM: team-draft 74;
#: probabilistic interleaving also keeps its draw probabilities and the ranks shown, 136
#: more; FairPairs (:mod:`irscale.online.fairpairs`), its ranks shown and preferences, 90),
#: with a margin.
POSITION_BYTES = {"team-draft": 96, "balanced": 96, "optimized": 96, "probabilistic": 240,
                  "fairpairs": 128}
#: Peak bytes per bootstrap sample of Δ for one pair of rankers (the multinomial draws,
#: the samples kept for :meth:`InterleavingResult.confidence_interval` and a sorted copy).
SAMPLE_BYTES = 48
#: Bootstrap samples of Δ drawn at a time (24 MB of counts): ^C and a stop signal are
#: answered between two draws, and the rest of the work is timed on the first.
SAMPLE_CHUNK = 1 << 20


# --------------------------------------------------------------------------- rankings
def rankings_from_lists(rankers: Mapping[str, Mapping[str, Sequence[str]]]) -> Candidates:
    """The rankings ``{ranker: {topic: [docno, ...]}}`` (best first) as a
    :class:`~irscale.collections.Candidates` cube (what :func:`interleave_runs` takes).

    A document listed twice in one ranking is an :class:`~irscale.errors.InputError`."""
    if not isinstance(rankers, Mapping) or len(rankers) < 2:
        raise InputError("interleaving needs the rankings of at least two rankers, as "
                         "{ranker: {topic: [docno, ...]}}")
    return ranked_candidates({str(name): ranking_scores(str(name), topics)
                              for name, topics in rankers.items()})


def ranking_scores(name: str, topics: object) -> dict[str, dict[str, float]]:
    """The ranker ``name``'s rankings ``{topic: [docno, ...]}`` (best first) as a run of
    scores (the first document the highest), topics without a document left out; a
    document listed twice in one ranking is an :class:`~irscale.errors.InputError`."""
    if not isinstance(topics, Mapping):
        raise InputError(f"ranker {name!r}: expected {{topic: [docno, ...]}}, got a "
                         f"{type(topics).__name__}")
    run: dict[str, dict[str, float]] = {}
    for topic, docs in topics.items():
        if isinstance(docs, (str, bytes)) or not isinstance(docs, Sequence):
            raise InputError(f"ranker {name!r}, topic {topic!r}: expected a list of "
                             f"docnos, got {docs!r}")
        scores = {str(d): float(len(docs) - i) for i, d in enumerate(docs)}
        if len(scores) != len(docs):
            seen = sorted({str(d) for d in docs if list(map(str, docs)).count(str(d)) > 1})
            raise InputError(f"ranker {name!r}, topic {topic!r}: document(s) listed "
                             f"twice: {seen}")
        if scores:
            run[str(topic)] = scores
    return run


def list_width(candidates: Candidates, length: int) -> int:
    """Positions of the lists of ``length`` documents: at most the documents a topic's
    rankings hold together (a list shows each document once, so it ends there; a longer
    ``length`` changes no list and no outcome, and is not allocated)."""
    union = np.bincount(np.asarray(candidates.pair_topic, dtype=np.int64))
    return max(1, min(int(length), int(union.max(initial=1))))


def check_impressions(n: int, width: int, method: str, what: str) -> None:
    """Refuse ``n`` impressions of lists of ``width`` positions beyond the memory limit
    (:data:`POSITION_BYTES` each; :func:`irscale.core.progress.declared_memory`, the
    change asked for read from the declared costs of ``--impressions`` and ``--length``);
    ``what`` says how ``n`` was asked for."""
    declared_memory((TOPIC_IMPRESSIONS, SHOWN_LENGTH), float(n) * width * POSITION_BYTES[method],
                    f"{what} of lists of {width:,} documents")


def _delta_samples(n: int, probs: np.ndarray, samples: int, gen: np.random.Generator,
                   progress: ProgressArg) -> np.ndarray:
    """``samples`` bootstrap samples of Δ = (wins* + ties*/2)/n − 1/2 for every pair of
    rankers (samples × pairs), (wins*, losses*, ties*) ~ Multinomial(n, ``probs`` of the
    pair): drawn pair after pair in chunks of :data:`SAMPLE_CHUNK` (the same numbers as
    one draw of each pair's samples), the work counted in the samples of ``--bootstrap``
    (:func:`irscale.core.progress.counted_work`: the rest stated, measured on the first
    chunks, and a stop answered between two chunks)."""
    out = np.empty((samples, len(probs)))
    work = counted_work(INTERVAL_BOOTSTRAP, samples * len(probs), "the bootstrap", progress)
    done = 0
    for k, pr in enumerate(probs):
        for start in range(0, samples, SAMPLE_CHUNK):
            draws = gen.multinomial(n, pr, size=min(SAMPLE_CHUNK, samples - start))
            out[start:start + len(draws), k] = (draws[:, 0] + draws[:, 2] / 2) / n - 0.5
            done += len(draws)
            work(done)
    return out


def check_bootstrap(samples: int, pairs: int) -> int:
    """``samples`` bootstrap samples of Δ for ``pairs`` pairs of rankers (a count its
    caller's binding checked: :data:`~irscale.online.params.OUTCOMES`), refused beyond the
    memory limit (:data:`SAMPLE_BYTES`; they are kept for intervals at any level)."""
    declared_memory(INTERVAL_BOOTSTRAP, float(samples) * max(pairs, 1) * SAMPLE_BYTES,
                    f"{samples:,} bootstrap samples of delta for {pairs:,} pair(s) of rankers")
    return samples


# --------------------------------------------------------------------------- the batch
@dataclass(frozen=True, eq=False)
class Interleavings(ShownLists, TableResult):
    """The lists shown in a batch of impressions, and what their credit rule needs.

    ``pairs`` (impressions × L) are (topic, document) pair ids of ``candidates`` (-1 past
    the end of a shorter list); ``topic`` is the topic index of every impression;
    ``team`` the ranker of every position (team-draft; the ranker that drew it, for
    probabilistic); ``prob`` P(choose s) P_s(I_i | prefix) (probabilistic); ``asked`` the
    list length asked for, when longer than the lists can be (:func:`list_width`: clicks
    may then have that many positions, none clicked past the end). See the module
    docstring for the methods and :meth:`score` for the outcomes.
    """

    method: str
    credit: str
    candidates: Candidates
    topic: np.ndarray
    pairs: np.ndarray
    team: np.ndarray | None = None
    prob: np.ndarray | None = field(default=None, repr=False)
    asked: int | None = field(default=None, repr=False)

    SOURCE = "<interleavings>"

    @property
    def rankers(self) -> tuple[str, ...]:
        return self.candidates.runs

    def to_frame(self) -> pd.DataFrame:
        """One row per shown document: impression, topic, rank, docno and team (the
        ranker credited with it, where the method assigns one)."""
        shown = self.pairs >= 0
        imp, pos = np.nonzero(shown)
        frame = pd.DataFrame({
            "impression": imp,
            "topic": np.asarray(self.candidates.topics, dtype=object)[self.topic[imp]],
            "rank": pos + 1,
            "docno": self.documents()[imp, pos],
        })
        if self.team is not None:
            frame["team"] = np.asarray(self.rankers, dtype=object)[self.team[imp, pos]]
        return frame

    def credits(self, clicks: object) -> np.ndarray:
        """The credit of every ranker in every impression (impressions × rankers) from
        ``clicks`` (booleans, impressions × L: position i of impression n was clicked)."""
        click = self._check_clicks(clicks)
        if self.method == "balanced":
            return self._balanced_credits(click)
        if self.method == "optimized":
            delta = list_credits(Cube(self.candidates), self.pairs, self.topic, self.credit)
            return (delta * click[:, :, None]).sum(axis=1)
        if self.method == "probabilistic" and self.credit == "marginal":
            assert self.prob is not None
            total = self.prob.sum(axis=2)
            p_a = np.divide(self.prob[:, :, 0], total, out=np.zeros_like(total),
                            where=total > 0)
            expected_a = (p_a * click).sum(axis=1)
            return np.stack([expected_a, click.sum(axis=1) - expected_a], axis=1)
        assert self.team is not None
        n_rankers = len(self.rankers)
        return np.stack([((self.team == s) & click).sum(axis=1)
                         for s in range(n_rankers)], axis=1).astype(np.float64)

    def outcomes(self, clicks: object) -> np.ndarray:
        """The outcome of every impression for every pair of rankers (impressions ×
        pairs, pairs in :meth:`pair_names` order): +1 the first ranker wins, -1 it loses,
        0 a tie; probabilistic interleaving with marginal credit: E[o] =
        P(win) − P(loss) under the posterior of the assignments (in [-1, 1])."""
        win, loss = self.outcome_probabilities(clicks)
        return win - loss

    def outcome_probabilities(self, clicks: object) -> tuple[np.ndarray, np.ndarray]:
        """P(the first ranker of a pair wins) and P(it loses) per impression and pair
        (impressions × pairs): 0 or 1, but posterior probabilities for probabilistic
        interleaving with marginal credit."""
        click = self._check_clicks(clicks)
        if self.method == "probabilistic" and self.credit == "marginal":
            win, loss = self._marginal_outcome(click)
            return win[:, None], loss[:, None]
        credit = self.credits(click)
        i, j = self._pair_index()
        diff = credit[:, i] - credit[:, j]
        scale = np.maximum(np.abs(credit).max(initial=0.0), 1.0)
        decided = np.abs(diff) > 1e-9 * scale
        return ((diff > 0) & decided).astype(np.float64), ((diff < 0) & decided).astype(
            np.float64)

    def score(self, clicks: object, *, alpha: float = 0.05, bootstrap: int = BOOTSTRAP,
              rng: RngArg = None, progress: ProgressArg = False) -> InterleavingResult:
        """Wins, losses, ties, Δ_AB with its interval and test for every pair of rankers
        (:class:`InterleavingResult`; ``progress``: that of its bootstrap)."""
        win, loss = self.outcome_probabilities(clicks)
        return InterleavingResult.of(win, loss, self.pair_names(), method=self.method,
                                     alpha=alpha, bootstrap=bootstrap, rng=rng,
                                     progress=progress)

    def pair_names(self) -> list[tuple[str, str]]:
        i, j = self._pair_index()
        return [(self.rankers[a], self.rankers[b]) for a, b in zip(i, j, strict=True)]

    def _pair_index(self) -> tuple[np.ndarray, np.ndarray]:
        i, j = np.triu_indices(len(self.rankers), k=1)
        return i, j

    def _balanced_credits(self, click: np.ndarray) -> np.ndarray:
        ranks = Cube(self.candidates).ranks().astype(np.float64)
        r = np.where(ranks > 0, ranks, np.inf)[np.maximum(self.pairs, 0)]  # n × L × 2
        clicked = click.any(axis=1)
        last = self.length - 1 - np.argmax(click[:, ::-1], axis=1)
        rows = np.arange(len(self))
        k = r[rows, last].min(axis=1)
        within = (r <= k[:, None, None]) & click[:, :, None] & np.asarray(clicked)[:, None,
                                                                                   None]
        return within.sum(axis=1).astype(np.float64)

    def _marginal_outcome(self, click: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """P(c_A > c_B) and P(c_A < c_B) over the posterior of the assignments: the
        distribution of c_A − c_B by convolution over positions (all impressions at once)."""
        assert self.prob is not None
        total = self.prob.sum(axis=2)
        p_a = np.divide(self.prob[:, :, 0], total, out=np.full_like(total, 0.5),
                        where=total > 0)
        n, length = click.shape
        dist = np.zeros((n, 2 * length + 1))
        dist[:, length] = 1.0  # c_A − c_B = 0
        for i in range(length):
            c = click[:, i]
            if not c.any():
                continue
            moved = dist[c]
            pa = p_a[c, i][:, None]
            step = np.zeros_like(moved)
            step[:, 1:] += moved[:, :-1] * pa
            step[:, :-1] += moved[:, 1:] * (1.0 - pa)
            dist[c] = step
        return dist[:, length + 1:].sum(axis=1), dist[:, :length].sum(axis=1)


@INTERLEAVE
def interleave_runs(
    runs: object,
    impressions: int | Sequence[str] | np.ndarray,
    *,
    method: Method = "team-draft",
    length: int = LENGTH,
    credit: str | None = None,
    tau: float = TAU,
    rng: RngArg = None,
) -> Interleavings:
    """Interleave (multileave) the rankings of every impression, all at once.

    Parameters
    ----------
    runs : Candidates, mapping, run files or objects
        The rankers' rankings: a :class:`~irscale.collections.Candidates` cube, a mapping
        ``{ranker: {topic: [docno, ...]}}`` (:func:`rankings_from_lists`), or runs as
        :func:`irscale.evaluate` takes them (ranked as trec_eval ranks them).
    impressions : int or sequence of topic ids
        Impressions per topic (every topic of the rankings: a ranker that ranks nothing
        for some of them is warned about, the other rankers win every click there), or
        the topic of every impression.
    method : {"balanced", "team-draft", "probabilistic", "optimized"}
        The mixing policy (:mod:`irscale.online.mixing`); more than two rankers: ``team-draft``
        (team-draft multileaving).
    length : int, default 10
        Documents shown (the list is shorter where the method stops earlier, and never
        longer than the documents of the topic's rankings together: :func:`list_width`).
        Impressions × positions beyond the memory limit are refused
        (:class:`~irscale.errors.ParameterError`, :func:`check_impressions`).
    credit : str, optional
        ``probabilistic``: ``"marginal"`` (default) or ``"assignment"``; ``optimized``:
        ``"inverse"`` (default) or ``"linear"``; refused with the other methods
        (:data:`~irscale.online.params.INTERLEAVE`).
    tau : float, default 3
        The softmax exponent of probabilistic interleaving (refused with the others).
    rng : seed or numpy Generator
        Coins and draws; the same seed gives the same lists.

    Examples
    --------
    >>> batch = interleave_runs({"A": {"q1": ["a", "b", "c"]}, "B": {"q1": ["b", "c", "a"]}},
    ...                         4, length=3, rng=1)
    >>> batch.documents().tolist()[0]
    ['b', 'a', 'c']
    >>> batch.team.tolist()  # the first picker is A in two impressions
    [[1, 0, 1], [0, 1, 0], [1, 0, 1], [0, 1, 1]]
    >>> batch.score([[1, 0, 0]] * 4).to_frame()[["a", "b", "wins", "losses", "ties"]]
       a  b  wins  losses  ties
    0  A  B     2       2     0
    """
    credit = check_credit(method, credit)
    cube = Cube(candidates_of(runs))
    n_rankers = cube.n_rankers
    if n_rankers < 2:
        raise InputError("interleaving needs at least two rankers")
    if n_rankers > 2 and method != "team-draft":
        raise ParameterError(f"{method} interleaving compares two rankers; for "
                             f"{n_rankers} use team-draft (multileaving)")
    width = list_width(cube.candidates, length)  # (bounded for optimized: INTERLEAVE)
    topic = impression_topics(cube.candidates, impressions, width, method)
    if isinstance(impressions, (int, np.integer)):  # every topic of any ranker is shown
        warn_missing_topics(cube.candidates, "interleaved", "its lists there hold the other "
                            "rankers' documents only, and every click there counts for them")
    batch = _mix(cube, topic, method, credit, width, tau, generator(rng))
    return replace(batch, asked=length)


def _mix(cube: Cube, topic: np.ndarray, method: str, credit: str, length: int, tau: float,
         gen: np.random.Generator) -> Interleavings:
    """The lists of the impressions of topics ``topic`` (:func:`interleave_runs`)."""
    n, n_rankers = len(topic), cube.n_rankers
    if method == "team-draft":
        local, table = cube.local(length)
        rounds = -(-length // n_rankers)
        order: np.ndarray
        if n_rankers == 2:  # a coin per round: who picks first
            first = gen.integers(0, 2, (n, rounds), dtype=np.int8)
            order = np.stack([first, 1 - first], axis=2)
        else:  # a random permutation per round
            order = np.argsort(gen.random((n, rounds, n_rankers)), axis=2)
        docs, team = draft(local, table.shape[1], topic, order.reshape(n, -1)[:, :length])
        pairs = to_pairs(table, docs, topic)
        return Interleavings(method, credit, cube.candidates, topic, pairs, team)
    if method == "balanced":
        local, table = cube.local(2 * length + 1)
        lists = to_pairs(table, balanced_lists(local, table.shape[1], length),
                          np.repeat(np.arange(local.shape[0]), 2))
        a_first = gen.integers(0, 2, n)
        return Interleavings(method, credit, cube.candidates, topic,
                             lists[2 * topic + a_first])
    if method == "probabilistic":
        pairs, drawn, prob = probabilistic_lists(cube, topic, length, tau, gen)
        return Interleavings(method, credit, cube.candidates, topic, pairs, drawn, prob)
    lists, list_topic, prob = optimized_lists(cube, length, credit)
    start = np.searchsorted(list_topic, np.arange(len(cube.candidates.topics) + 1))
    cum = np.cumsum(prob)
    before = np.concatenate([[0.0], cum])[start[:-1]]
    u = before[topic] + gen.random(n) * (cum[np.maximum(start[1:] - 1, 0)][topic]
                                         - before[topic])
    pick = np.clip(np.searchsorted(cum, u, side="right"), start[topic], start[topic + 1] - 1)
    return Interleavings(method, credit, cube.candidates, topic, lists[pick])


def candidates_of(runs: object) -> Candidates:
    """The rankers' rankings as :func:`interleave_runs` takes them (a
    :class:`~irscale.collections.Candidates` cube, ``{ranker: {topic: [docno, ...]}}`` or
    runs) as a cube."""
    if isinstance(runs, Candidates):
        return runs
    if _is_lists(runs):
        return rankings_from_lists(runs)
    return ranked_candidates(runs)


def _is_lists(runs: object) -> TypeGuard[Mapping[str, Mapping[str, Sequence[str]]]]:
    """``{ranker: {topic: [docno, ...]}}`` (rather than runs as dicts of scores)."""
    if not isinstance(runs, Mapping) or not runs:
        return False
    first = next(iter(runs.values()))
    if not isinstance(first, Mapping) or not first:
        return False
    value = next(iter(first.values()))
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def impression_topics(candidates: Candidates, impressions: int | Sequence[str] | np.ndarray,
                      width: int, method: str) -> np.ndarray:
    """The topic index of every impression (``impressions`` per topic or the topic of
    every impression, as the bindings of its callers checked them:
    :data:`~irscale.online.params.TOPIC_IMPRESSIONS`); a count beyond the memory limit is
    refused (:func:`check_impressions`)."""
    topics = candidates.topics
    if isinstance(impressions, int):
        check_impressions(impressions * len(topics), width, method,
                          f"{impressions:,} impressions on each of {len(topics):,} topics")
        return np.repeat(np.arange(len(topics)), impressions)
    index = pd.Index(list(topics)).get_indexer([str(t) for t in impressions])
    if (index < 0).any():
        missing = str(list(impressions)[int(np.argmax(index < 0))])
        raise InputError(f"impression of topic {missing!r}, which no ranker ranks")
    if len(index) == 0:
        raise InputError("no impression to interleave")
    return index.astype(np.int64)


def interleave(
    a: Sequence[str],
    b: Sequence[str],
    *,
    method: Method = "team-draft",
    length: int | None = None,
    credit: str | None = None,
    tau: float = TAU,
    rng: RngArg = None,
) -> Interleavings:
    """Interleave two rankings once (an :class:`Interleavings` of one impression; rankers
    ``A`` and ``B``, topic ``q``). ``length`` defaults to the number of distinct documents
    (at most 16 for ``optimized``).

    >>> shown = interleave(["d1", "d2", "d3"], ["d2", "d4", "d1"], rng=0)
    >>> shown.documents()[0].tolist(), shown.team[0].tolist()
    (['d1', 'd2', 'd4', 'd3'], [0, 1, 1, 0])
    >>> shown.score([[0, 0, 1, 0]]).statistic  # B's document clicked: B wins, Δ_AB = −0.5
    -0.5
    """
    if length is None:
        length = max(len(set(map(str, a)) | set(map(str, b))), 1)
        if method == "optimized":
            length = min(length, MAX_OPTIMIZED_LENGTH)
    return interleave_runs({"A": {"q": list(a)}, "B": {"q": list(b)}}, 1, method=method,
                           length=length, credit=credit, tau=tau, rng=rng)


# --------------------------------------------------------------------------- outcomes
@dataclass(frozen=True, eq=False)
class InterleavingResult(HtmlRepr):
    """Interleaving outcomes for every pair of rankers (a, b) over n impressions.

    Columns of :meth:`to_frame`: ``a``, ``b``, ``n``, ``wins`` (a beats b), ``losses``,
    ``ties``, ``delta`` = (wins + ties/2)/n − 0.5 with its interval ``ci_low``,
    ``ci_high`` (level 1 − α), ``p`` and ``test``.

    Outcomes decided by the clicks (every method but probabilistic interleaving with
    marginal credit): wins, losses and ties are counts, ``p`` is the two-sided binomial
    (sign) test of wins against losses (ties left out; 1 when every impression is a tie)
    and the interval is the percentile bootstrap of Δ (impressions resampled:
    (wins, losses, ties)* ~ Multinomial(n, observed shares); ``bootstrap`` samples).
    Marginal credit: impression i wins with P_i(win) and loses with P_i(loss) (the
    posterior), ``wins`` = Σ P_i(win) and ``losses`` = Σ P_i(loss) are expected counts,
    Δ = mean(o_i)/2 with o_i = P_i(win) − P_i(loss) = E[o] (Hofmann et al. 2011), ``p``
    is the one-sample t-test of mean(o) = 0 and the interval the t interval of Δ (an
    impression's sign of E[o] is biased under random clicks; its expectation is not).

    Protocol: ``statistic`` (Δ_AB; an array of one value per pair for multileaving),
    ``pvalue``, :meth:`confidence_interval` (any level), ``to_frame()``,
    ``format(fmt)``; :meth:`preference_matrix` for multileaving.
    """

    method: str
    alpha: float
    frame: pd.DataFrame
    samples: np.ndarray | None = field(default=None, repr=False)
    se: np.ndarray | None = field(default=None, repr=False)

    @classmethod
    @OUTCOMES
    def of(cls, win: np.ndarray, loss: np.ndarray, pairs: Sequence[tuple[str, str]], *,
           method: str, alpha: float = 0.05, bootstrap: int = BOOTSTRAP,
           rng: RngArg = None, progress: ProgressArg = False) -> InterleavingResult:
        """The result of the outcome probabilities ``win`` and ``loss`` (impressions ×
        pairs; 0/1 where the clicks decide); ``progress``: that of the bootstrap."""
        from scipy.stats import binomtest, t

        bootstrap = check_bootstrap(bootstrap, len(pairs))  # (checked on entry: OUTCOMES)
        progress = check_progress(progress)
        win, loss = np.asarray(win, dtype=np.float64), np.asarray(loss, dtype=np.float64)
        n = win.shape[0]
        if n == 0:
            raise InputError("no impression to score")
        wins, losses = win.sum(axis=0), loss.sum(axis=0)
        ties = n - wins - losses
        delta = (wins + ties / 2) / n - 0.5
        counted = bool(np.isin(win, (0.0, 1.0)).all() and np.isin(loss, (0.0, 1.0)).all())
        samples = se = None
        if counted:
            wins, losses, ties = (np.rint(v).astype(np.int64) for v in (wins, losses, ties))
            p = np.array([binomtest(int(w), int(w + lo)).pvalue if w + lo else 1.0
                          for w, lo in zip(wins, losses, strict=True)])
            probs = np.stack([wins, losses, ties], axis=1) / n
            samples = _delta_samples(n, probs, bootstrap, generator(rng), progress)
            low, high = np.quantile(samples, [alpha / 2, 1 - alpha / 2], axis=0)
            test = "binomial"
        else:
            o = win - loss
            # E[o] the same on every impression up to the rounding of the probabilities
            # (one impression, or the same posterior every time): no variance to test, so
            # no p-value nor interval unless every E[o] is 0 (p = 1, as all ties)
            tol = tie_tolerance(win, loss, axis=0)
            flat = constant_columns(o, tol)
            zero = np.all(np.abs(o) <= tol, axis=0)
            spread = o.std(axis=0, ddof=1) / np.sqrt(n) / 2 if n > 1 else np.zeros(len(delta))
            se = np.where(flat, np.where(zero, 0.0, np.nan), spread)
            with np.errstate(divide="ignore", invalid="ignore"):
                stat = delta / se
            p = np.where(se > 0, 2 * t.sf(np.abs(stat), max(n - 1, 1)),
                         np.where(zero, 1.0, np.nan))
            half = np.where(se == 0, 0.0, t.ppf(1 - alpha / 2, max(n - 1, 1)) * se)
            low, high = delta - half, delta + half
            test = "t (mean of E[o])"
        frame = pd.DataFrame({
            "a": [x for x, _ in pairs], "b": [y for _, y in pairs], "n": n,
            "wins": wins, "losses": losses, "ties": ties, "delta": delta,
            "ci_low": low, "ci_high": high, "p": p, "significant": p <= alpha,
            "test": test,
        })
        return cls(method, alpha, frame, samples, se)

    @property
    def statistic(self) -> float | np.ndarray:
        values = self.frame["delta"].to_numpy()
        return float(values[0]) if len(values) == 1 else values

    @property
    def pvalue(self) -> float | np.ndarray:
        values = self.frame["p"].to_numpy()
        return float(values[0]) if len(values) == 1 else values

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The interval of Δ_AB (of every pair) at ``confidence_level``: percentile
        bootstrap, or the t interval for marginal credit (class docstring)."""
        from scipy.stats import t

        level = check_confidence_level(confidence_level)
        if self.samples is not None:
            low, high = np.quantile(self.samples, [(1 - level) / 2, (1 + level) / 2], axis=0)
        else:
            assert self.se is not None
            delta = self.frame["delta"].to_numpy()
            df = max(int(self.frame["n"].iloc[0]) - 1, 1)
            half = np.where(self.se == 0, 0.0, t.ppf((1 + level) / 2, df) * self.se)
            low, high = delta - half, delta + half
        if len(low) == 1:
            return ConfidenceInterval(float(low[0]), float(high[0]))
        return ConfidenceInterval(low, high)

    def preference_matrix(self) -> pd.DataFrame:
        """Δ of every ordered pair of rankers (row beats column): Δ_ba = −Δ_ab."""
        names = list(dict.fromkeys(list(self.frame["a"]) + list(self.frame["b"])))
        matrix = pd.DataFrame(0.0, index=names, columns=names)
        for a, b, d in self.frame[["a", "b", "delta"]].itertuples(index=False):
            matrix.loc[a, b], matrix.loc[b, a] = d, -d
        return matrix

    def to_frame(self) -> pd.DataFrame:
        return self.frame.copy()

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return format_table(self.frame, fmt, digits=digits,
                            title=f"{self.method} interleaving")

    def __repr__(self) -> str:
        rows = "; ".join(f"{a} vs {b}: {w:g}/{lo:g}/{t:g}, Δ={d:+.4f}, p={p:.4g}"
                         for a, b, w, lo, t, d, p in self.frame[
                             ["a", "b", "wins", "losses", "ties", "delta", "p"]
                         ].itertuples(index=False))
        return f"InterleavingResult({self.method}: {rows})"


"""Interleaved comparisons estimated from historical data: the clicks of a probabilistic
interleaving log of one pair of rankers reused to compare another pair.

Hofmann, Whiteson & de Rijke (2012), *Estimating interleaved comparison outcomes from
historical click data* (CIKM), and Hofmann, Schuth, Whiteson & de Rijke (2013), *Reusing
historical interaction data for faster online learning to rank for IR* (WSDM):
probabilistic interleaving (Hofmann et al. 2011, :mod:`irscale.online.interleaving`) shows
list l with probability
``P(l | A, B) = Π_i Σ_s P(choose s) P_s(l_i | l_1..l_{i−1})``, a product over positions
(every ranker's softmax loses the documents shown, whoever drew them), which is known for
any pair of rankers, not only the pair that built the list. A log of lists ``l_n`` drawn
from the *source* pair (A', B') with clicks ``c_n`` then estimates the expected outcome of
a *target* pair (A, B) by importance sampling (their PI-MA-IS):

    w_n = P(l_n | A, B) / P(l_n | A', B'),   o_n = E[o | l_n, c_n; A, B]

with ``o_n`` the marginalised outcome of the target pair on the logged list and clicks
(:meth:`~irscale.online.interleaving.Interleavings.outcomes`: P(A wins) − P(B wins) over
the posterior of the assignments). ``normalise=True`` (the paper's estimator) gives
``Σ w_n o_n / Σ w_n`` (consistent, biased by O(1/n), lower variance); ``False`` gives
``(1/n) Σ w_n o_n`` (unbiased). Both assume that the user's clicks depend on the list
shown only (not on the rankers that built it) and that the source pair gives every list
the target pair can show a positive probability (a list the target cannot show has
``w = 0``). The preference Δ of :class:`~irscale.online.InterleavingResult` is E[o]/2.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.progress import ProgressArg, check_progress
from ..errors import InputError, ParameterError
from ..io.interleaving_log import read_interleaving_log
from ..stats.protocol import check_confidence_level
from ..stats.resampling import RngArg, check_rng
from .counterfactual import CounterfactualResult, _result
from .interleaving import TAU, Interleavings, candidates_of
from .logged import _assignment_probabilities, _pairs, _topics, logged_interleavings
from .mixing import Cube
from .params import HISTORICAL

__all__ = ["historical_interleaving"]


@HISTORICAL
def historical_interleaving(log: Any, source: object, target: object, *, tau: float = TAU,
                            source_tau: float | None = None, normalise: bool = True,
                            confidence_level: float = 0.95, bootstrap: int = 0,
                            rng: RngArg = None, progress: ProgressArg = False
                            ) -> CounterfactualResult:
    """The expected probabilistic-interleaving outcome E[o] of the ``target`` pair of
    rankers, estimated from a log built by probabilistic interleaving of the ``source``
    pair (module doc); positive: the first target ranker (in name order) wins.

    Parameters
    ----------
    log : path, bytes, stream, DataFrame or InterleavingLog
        The interleaving log (``impression topic rank docno team clicked``).
    source, target : runs, ``{ranker: {topic: [docno, ...]}}`` or Candidates
        Two rankers each: those that built the log, those to compare.
    tau, source_tau : float
        Softmax exponents of the target and source interleavings (``source_tau``: default
        ``tau``).
    normalise : bool
        Self-normalised importance sampling (default) or plain.
    confidence_level, bootstrap, rng, progress
        As :func:`~irscale.online.counterfactual`.
    """
    source_tau = tau if source_tau is None else source_tau
    level = check_confidence_level(confidence_level)
    check_rng(rng)
    progress = check_progress(progress)
    log = read_interleaving_log(log)
    logged = logged_interleavings(log, source, method="probabilistic", credit="marginal",
                                  tau=source_tau)
    assert logged.prob is not None
    candidates = candidates_of(target)
    if len(candidates.runs) != 2:
        raise ParameterError(f"the target is a pair of rankers, got {len(candidates.runs)}")
    topic = _topics(log, candidates, "neither target ranker")
    pairs = _pairs(log, candidates, topic, strict=False)
    prob = _assignment_probabilities(Cube(candidates), topic, pairs, tau)
    shown = log.valid
    with np.errstate(divide="ignore"):
        log_source = np.where(shown, np.log(logged.prob.sum(axis=2)), 0.0).sum(axis=1)
        log_target = np.where(shown, np.log(prob.sum(axis=2)), 0.0).sum(axis=1)
    impossible = np.isneginf(log_source)
    if impossible.any():
        raise log.error(InputError, f"this impression has probability 0 under the source "
                        f"interleaving (source_tau={source_tau:g}): the log cannot come from "
                        "it", shown & impossible[:, None])
    weight = np.exp(log_target - log_source)
    batch = Interleavings("probabilistic", "marginal", candidates, topic, pairs, None, prob)
    outcome = batch.outcomes(log.clicks & (pairs >= 0))[:, 0]
    value = weight * outcome
    terms = (np.stack([value, weight], axis=1) if normalise else value[:, None])[:, None, :]
    estimator = "pi-ma-is" + ("-normalised" if normalise else "")
    return _result(estimator, terms, normalise, weight[:, None], np.zeros((len(weight), 1),
                                                                          dtype=bool),
                   None, level, int(bootstrap), rng, progress)

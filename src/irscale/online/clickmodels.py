"""Click models of web search (Chuklin, Markov & de Rijke 2015, *Click Models for Web
Search*, chapters 3–5), fitted on a :class:`~irscale.online.clicklog.ClickLog`.

Every model says when the user examines the result at rank r (``E_r``) and clicks it
(``C_r = 1`` iff ``E_r = 1`` and the result attracts, ``A_r = 1``, with
``P(A_r = 1) = α_qu``, the attractiveness of document u for query q):

=======  ==========================================================================  =========
model    examination                                                                 fitted by
=======  ==========================================================================  =========
``pbm``  ``P(E_r = 1) = γ_r`` (position-based; book §3.3)                            EM
``cm``   cascade: ranks examined in order until the first click (§3.4)               closed form
``ubm``  ``P(E_r = 1) = γ_{r r'}``, r' the rank of the previous click, 0 if none     EM
         (user browsing model, §3.5)
``dcm``  cascade; after a click at rank r the user goes on with ``λ_r`` (§3.6)       EM
``dbn``  cascade; after a click, satisfied with ``σ_qu`` and stops; otherwise goes   EM
         on with ``γ`` (dynamic Bayesian network, §3.8)
``sdbn`` the DBN with ``γ = 1`` (§3.8.1)                                             closed form
``ccm``  cascade; goes on with ``τ1`` after a skip, ``τ2 (1 − α_qu) + τ3 α_qu``     EM
         after a click (click chain model, §3.7)
``gctr`` ``P(C_r = 1) = ρ`` for every rank and document: α = 1, ``γ_r = ρ`` (global   closed form
         click-through rate, §3.2)
``rctr`` ``P(C_r = 1) = ρ_r``: α = 1, ``γ_r = ρ_r`` (rank-based CTR, §3.2)           closed form
``dctr`` ``P(C = 1) = ρ_qu``: ``α_qu = ρ_qu``, ``γ_r = 1`` (document-based CTR, §3.2) closed form
=======  ==========================================================================  =========

The CTR models are the book's baselines: clicks independent of one another, like PBM's
given the examination (:data:`~irscale.online.params.INDEPENDENT_CLICK_MODELS`), fitted as
ratios of counts over the shown results: ρ = clicks / results shown; ρ_r = clicks at rank
r / sessions with a rank r (0.5, the prior, for a rank no session has); ρ_qu = clicks on u
/ times u was shown for q (smoothed as the other (query, document) parameters). GCTR and
RCTR have no (query, document) parameter: their ``attractiveness`` is 1 for every pair,
and so is their prior.

The cascade models are one hidden chain (:func:`chain_posteriors`): at an examined rank
the user clicks with ``α``; after a skip goes on with ``g0``; after a click is satisfied
with ``σ`` and goes on with ``g1`` (satisfied) or ``g_0'`` (not). DBN: ``g0 = g_0' = γ,
g1 = 0``; DCM: ``g0 = g_0' = 1, g1 = 0, σ_r = 1 − λ_r``; CCM: ``g0 = τ1, g_0' = τ2,
g1 = τ3, σ = α_qu`` (the relevance that attracts also satisfies); CM: ``g0 = 1, σ = 1,
g1 = 0``. The EM updates are the expected counts of the complete-data likelihood (book
§4.2): each Bernoulli parameter is its expected successes over its expected trials, with
the posteriors computed exactly by a forward–backward pass over the ranks, vectorised over
all sessions (one ``bincount`` per parameter group; no loop over sessions). CCM's α counts
both its clicks (attraction) and its satisfactions, two independent draws of the same
Bernoulli. A transition past a session's last rank is unobserved and not counted.

Closed forms: CM, ``α_qu`` = clicks on u at the first click / times u was shown at or
above the first click (or anywhere in a session without click; ranks after the first click
lie outside the model and are not counted; Craswell et al. 2008). SDBN (Chapelle & Zhang
2009, book §4.1): ``α_qu`` = clicks / times shown at or above the last click (a session
without click: every rank, all examined when ``γ = 1``), ``σ_qu`` = times u was the last
click / clicks on u.

Evaluation (book §5.2): the log-likelihood of held-out sessions, ``Σ_s log P(C^s)`` (the
probability of the session's whole click vector, the product of the conditional
probabilities of its clicks given the clicks above), and the perplexity at rank r,
``2^(−1/|S_r| Σ_s log2 P(C_r = c_r^s))`` with ``P(C_r = 1)`` the model's full
(unconditional) click probability at r and ``S_r`` the sessions with a rank r.

Unseen (query, document) pairs take the prior ``0.5`` for ``α`` and ``σ`` (also the EM's
starting value; the other parameters start at 0.5 too). The (query, document) parameters
are smoothed by default (``smoothing=1``: one pseudo-trial at the prior, a MAP estimate) so
that none is exactly 0 or 1; with ``smoothing=0`` they are maximum-likelihood estimates, and
a held-out click they make impossible gives a log-likelihood of ``-inf``, as does a second
click for the CM (which allows one). Parameters the log says nothing about keep their
start: DCM's ``λ_n`` (the move after a click on the last rank is never seen), UBM cells
``(r, r')`` never met. PBM and UBM identify ``α·γ`` only (a common factor may move
between them).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..core.numbers import blank, declare, undefined
from ..core.params import LOG_SERP
from ..core.progress import ProgressArg, check_progress, counted_work, declared_memory
from ..errors import InputError, ParameterError
from ..io.click_params import click_params, not_parameters, read_click_params
from ..stats.protocol import TableResult
from .click_kernels import (
    PRIOR,
    Layout,
    chain_posteriors,
    check_ranks,
    examination_posteriors,
    lookup,
    pair_codes,
    pair_positions,
    pair_series,
    per_rank,
    previous_click,
    ratio,
    smoothed,
    ubm_full,
    ubm_table,
    widened,
)
from .clicklog import ClickLog, read_click_log
from .params import (
    CLICK_MODELS,
    CLICK_PROBABILITIES,
    CLOSED_FORM_MODELS,
    FIT,
    FIT_ITERATIONS,
    INDEPENDENT_CLICK_MODELS,
    click_model_needs,
    click_values_fault,
)

__all__ = ["MODELS", "PRIOR", "ClickModel", "ClickModelFit", "fit_click_model"]

#: The click models, by name.
MODELS = CLICK_MODELS
#: ``α[s, r]`` and ``σ[s, r]`` (None: no satisfaction) of a log's shown documents
#: (:meth:`ClickModel.pair_values`).
PairValues = tuple[np.ndarray, np.ndarray | None]
ModelName = Literal["pbm", "cm", "ubm", "dcm", "dbn", "sdbn", "ccm", "gctr", "rctr", "dctr"]


#: JSON's names of the types :func:`json.loads` returns (for messages).
@dataclass(frozen=True, eq=False)
class ClickModel(TableResult):
    """A click model's parameters.

    ``attractiveness`` (and ``satisfaction`` for DBN/SDBN) are Series indexed by
    (query, docno); ``examination`` is PBM's ``γ_r`` (length = SERP size) or UBM's
    ``γ[r − 1, r']`` (r' the previous click's rank, 0 if none); ``continuation`` is DCM's
    ``λ_r``; ``gamma`` the DBN's (1 for SDBN and CM's chain); ``tau`` CCM's (τ1, τ2, τ3);
    ``prior`` the (α, σ) of a (query, document) pair the model has no value for.
    """

    model: ModelName
    attractiveness: pd.Series
    satisfaction: pd.Series | None = None
    examination: np.ndarray | None = None
    continuation: np.ndarray | None = None
    gamma: float | None = None
    tau: tuple[float, float, float] | None = None
    prior: tuple[float, float] = (PRIOR, PRIOR)

    # ---- the parameters on a log
    def pair_values(self, log: ClickLog) -> PairValues:
        """``α[s, r]`` (and ``σ[s, r]`` for DBN/SDBN) of the log's shown documents; the
        prior where the model has no value; 0 beyond a session's length."""
        code, pairs = pair_codes(log)
        index = pair_positions(self.attractiveness.index, pairs)
        alpha = lookup(self.attractiveness.to_numpy(np.float64), index, self.prior[0])[code]
        sigma = None
        if self.satisfaction is not None:
            sigma = lookup(self.satisfaction.to_numpy(np.float64),
                            pair_positions(self.satisfaction.index, pairs),
                            self.prior[1])[code]
        valid = log.valid
        alpha[~valid] = 0.0
        return alpha, sigma

    def _chain(self, log: ClickLog, values: PairValues
               ) -> tuple[np.ndarray, np.ndarray, float, float, float]:
        """(α, σ, g0, g0', g1) of the cascade models on ``log``, given its
        :meth:`pair_values`."""
        alpha, sigma = values
        m = self.model
        if m == "cm":
            return alpha, np.ones_like(alpha), 1.0, 1.0, 0.0
        if m == "dcm":
            assert self.continuation is not None
            lam = per_rank(self.continuation, log.serp_size, "continuation")
            return alpha, np.broadcast_to(1.0 - lam, alpha.shape), 1.0, 1.0, 0.0
        if m == "ccm":
            assert self.tau is not None
            t1, t2, t3 = self.tau
            return alpha, alpha, t1, t2, t3
        assert sigma is not None
        gamma = 1.0 if m == "sdbn" else float(self.gamma if self.gamma is not None else 1)
        return alpha, sigma, gamma, gamma, 0.0

    def _exam_matrix(self, log: ClickLog) -> np.ndarray:
        """PBM/UBM: ``γ`` of every (session, rank) given the observed clicks."""
        assert self.examination is not None
        n = log.serp_size
        if self.model != "ubm":
            gamma = per_rank(self.examination, n, "examination")
            return np.broadcast_to(gamma, log.doc.shape)
        gamma = ubm_table(self.examination, n)
        previous = previous_click(log.clicks)
        return gamma[np.arange(n), previous]

    def _ranks_of(self, log: ClickLog) -> ClickLog:
        """``log`` cut to the ranks its sessions have (:meth:`ClickLog.trimmed`), once the
        model's per-rank parameters are known to cover its whole SERP size
        (:func:`~irscale.online.click_kernels.check_ranks`): the kernels walk the ranks
        shown, not a larger declared page, and their results beyond them (no session
        there: no click) are padded."""
        n = log.serp_size
        if self.examination is not None:
            check_ranks(np.shape(self.examination)[0], n,
                        "ubm examination" if self.model == "ubm" else "examination")
        if self.continuation is not None:
            check_ranks(len(self.continuation), n, "continuation")
        return log.trimmed()

    # ---- probabilities
    def click_probabilities(self, log: ClickLog) -> np.ndarray:
        """``P(C_r = 1)`` of every (session, rank) of ``log``, unconditional (the clicks
        of the log are not used); 0 beyond a session's length."""
        shown = self._ranks_of(log)
        return widened(self._probabilities(shown, self.pair_values(shown)), log.serp_size)

    def _probabilities(self, log: ClickLog, values: PairValues) -> np.ndarray:
        """``P(C_r = 1)`` of every (session, rank) of ``log``, given its
        :meth:`pair_values`."""
        return self._full_probabilities(values[0], log.serp_size, self._chain(log, values)
                                        if self.model not in INDEPENDENT_CLICK_MODELS
                                        else None)

    def satisfaction_probabilities(self, log: ClickLog) -> np.ndarray | None:
        """``P(S_r = 1 | C_r = 1)`` of every (session, rank) of ``log``: DBN/SDBN ``σ_qu``,
        CM 1, DCM ``1 − λ_r``, CCM ``α_qu``; None for PBM, UBM and the CTR models (no
        satisfaction)."""
        if self.model in INDEPENDENT_CLICK_MODELS:
            return None
        return np.array(np.broadcast_to(self._chain(log, self.pair_values(log))[1],
                                        log.doc.shape))

    def _full_probabilities(self, alpha: np.ndarray, n: int, chain: Any) -> np.ndarray:
        if self.model in INDEPENDENT_CLICK_MODELS and self.model != "ubm":
            assert self.examination is not None
            return alpha * per_rank(self.examination, n, "examination")
        if self.model == "ubm":
            assert self.examination is not None
            return ubm_full(alpha, ubm_table(self.examination, n))
        _, sigma, g0, gs0, gs1 = chain
        out = np.empty_like(alpha)
        examined = np.ones(len(alpha))
        for j in range(n):
            a = alpha[:, j]
            out[:, j] = a * examined
            kappa = sigma[:, j] * gs1 + (1.0 - sigma[:, j]) * gs0
            examined = examined * ((1.0 - a) * g0 + a * kappa)
        return out

    def session_loglik(self, log: ClickLog) -> np.ndarray:
        """``log P(C^s)`` of every session of ``log`` (natural logarithm)."""
        log = self._ranks_of(read_click_log(log))
        return self._session_loglik(log, self.pair_values(log))

    def _session_loglik(self, log: ClickLog, values: PairValues) -> np.ndarray:
        """:meth:`session_loglik` of ``log`` (cut to its ranks), given its
        :meth:`pair_values`."""
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.model in INDEPENDENT_CLICK_MODELS:
                return examination_posteriors(values[0], self._exam_matrix(log),
                                               log.clicks & log.valid)[2].sum(axis=1)
            alpha, sigma, g0, gs0, gs1 = self._chain(log, values)
            lay = Layout.of(log.clicks, log.valid)
            at_clicks = np.ascontiguousarray(np.broadcast_to(sigma, alpha.shape).T).ravel()
            return chain_posteriors(np.ascontiguousarray(alpha.T), at_clicks[lay.click_at],
                                     g0, gs0, gs1, lay)["loglik"]

    def evaluate(self, log: Any) -> pd.DataFrame:
        """Log-likelihood and perplexity of held-out sessions (book §5.2), per rank and
        overall: a frame indexed by rank (1..n, then ``all``) with columns ``sessions``,
        ``perplexity`` (rank r: ``2^(−mean log2 P(C_r = c_r))``, full click probabilities;
        ``all``: the mean over ranks) and ``loglik`` (``all`` only: the mean of
        ``log P(C^s)`` over sessions, natural log; ``loglik_total`` their sum)."""
        log = read_click_log(log)
        n = log.serp_size
        log = self._ranks_of(log)  # ranks beyond: no session, perplexity NaN
        values = self.pair_values(log)  # the pairs' index built once, for both steps
        full = self._probabilities(log, values)
        valid = log.valid
        with np.errstate(divide="ignore"):
            logs = np.where(log.clicks, np.log2(full), np.log2(1.0 - full))
        logs[~valid] = 0.0
        count = valid.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            per_rank = np.exp2(-logs.sum(axis=0) / count)
        session = self._session_loglik(log, values)
        beyond = n - log.serp_size
        rows = [str(r) for r in range(1, n + 1)] + ["all"]
        frame = pd.DataFrame({
            "sessions": np.concatenate((count, np.zeros(beyond, count.dtype),
                                        [len(session)])),
            "perplexity": np.concatenate((per_rank, np.full(beyond, np.nan),
                                          [per_rank[count > 0].mean()])),
            "loglik": np.append(np.full(n, np.nan), session.mean()),
            "loglik_total": np.append(np.full(n, np.nan), session.sum()),
        }, index=pd.Index(rows, name="rank"))
        return declare(frame, {
            "perplexity": undefined("no session of the test log has a document at that rank"),
            **dict.fromkeys(("loglik", "loglik_total"),
                            blank("a log-likelihood is of whole sessions: the 'all' row's"))})

    # ---- simulation
    def check_queries(self, topics: Iterable[str]) -> None:
        """The topics to click on are the model's queries: a topic it has no parameter for
        is warned about (its documents all take the model's prior, e.g. a qrels user's
        grade 0), topics with none of them are an error (every click would be drawn from
        the prior)."""
        known = set(self.attractiveness.index.get_level_values(0).astype(str))
        topics = [str(t) for t in topics]
        unknown = [t for t in topics if t not in known]
        if not unknown:
            return
        shown = ", ".join(unknown[:5]) + (" ..." if len(unknown) > 5 else "")
        prior = f"attractiveness {self.prior[0]:g}, satisfaction {self.prior[1]:g}"
        if len(unknown) == len(topics):
            raise InputError(f"the click model has no parameter for any topic of the run "
                             f"({shown}): every click would be drawn from its prior "
                             f"({prior}); qrels or a model of another collection, or topic "
                             "ids written differently?")
        warnings.warn(f"{len(unknown)} topic(s) of the run are not among the click model's "
                      f"queries (their documents take its prior, {prior}): {shown}",
                      stacklevel=3)

    def simulate(self, log: ClickLog, rng: Any = None) -> ClickLog:
        """The sessions of ``log`` (its queries and result lists) with clicks drawn from
        the model (vectorised over sessions; ``rng``: a seed or numpy Generator)."""
        generator = np.random.default_rng(rng)
        page = log
        if self.model not in INDEPENDENT_CLICK_MODELS or self.model == "ubm":
            log = self._ranks_of(log)  # the loops below: the same draws, on the ranks shown
        values = self.pair_values(log)
        alpha = values[0]
        n = log.serp_size
        s = len(alpha)
        clicks = np.zeros((s, n), dtype=bool)
        if self.model in INDEPENDENT_CLICK_MODELS and self.model != "ubm":
            clicks = generator.random((s, n)) < self._full_probabilities(alpha, n, None)
        elif self.model == "ubm":
            assert self.examination is not None
            table = ubm_table(self.examination, n)
            previous = np.zeros(s, dtype=np.int64)
            for j in range(n):
                p = alpha[:, j] * table[j, previous]
                clicks[:, j] = generator.random(s) < p
                previous = np.where(clicks[:, j], j + 1, previous)
        else:
            _, sigma, g0, gs0, gs1 = self._chain(log, values)
            examined = np.ones(s, dtype=bool)
            for j in range(n):
                u = generator.random((s, 3))
                clicks[:, j] = examined & (u[:, 0] < alpha[:, j])
                satisfied = u[:, 1] < sigma[:, j]
                go_on = np.where(clicks[:, j], np.where(satisfied, gs1, gs0), g0)
                examined &= u[:, 2] < go_on
        clicks &= log.valid
        return replace(page, clicks=widened(clicks, page.serp_size), timestamps=None)

    # ---- output
    def to_frame(self) -> pd.DataFrame:
        """Every parameter as a row: ``parameter query docno rank previous value``
        (empty where not applicable; ``previous``: UBM's previous click rank)."""
        rows: list[pd.DataFrame] = []
        for name in ("attractiveness", "satisfaction"):
            series = getattr(self, name)
            if series is not None:
                rows.append(pd.DataFrame({"parameter": name,
                                          "query": series.index.get_level_values(0),
                                          "docno": series.index.get_level_values(1),
                                          "value": series.to_numpy()}))
        for name in ("examination", "continuation"):
            values = getattr(self, name)
            if values is None:
                continue
            values = np.asarray(values)
            if values.ndim == 1:
                rows.append(pd.DataFrame({"parameter": name,
                                          "rank": np.arange(1, len(values) + 1),
                                          "value": values}))
            else:
                r, p = np.nonzero(np.tril(np.ones_like(values, dtype=bool)))
                rows.append(pd.DataFrame({"parameter": name, "rank": r + 1,
                                          "previous": p, "value": values[r, p]}))
        scalars = {"gamma": self.gamma} if self.gamma is not None else {}
        if self.tau is not None:
            scalars.update(zip(("tau1", "tau2", "tau3"), self.tau, strict=True))
        if scalars:
            rows.append(pd.DataFrame({"parameter": list(scalars),
                                      "value": list(scalars.values())}))
        frame = pd.concat(rows, ignore_index=True)
        for column in ("query", "docno", "rank", "previous"):
            if column not in frame:
                frame[column] = np.nan
        frame["rank"] = frame["rank"].astype("Int64")
        frame["previous"] = frame["previous"].astype("Int64")
        return declare(frame[["parameter", "query", "docno", "rank", "previous", "value"]],
                       dict.fromkeys(("rank", "previous"), blank(
                           "a parameter of another kind (per pair, or a scalar) has none")))

    def to_json(self) -> str:
        """The parameters as JSON (read back by :meth:`from_json`)."""
        def pairs(series: pd.Series | None) -> Any:
            if series is None:
                return None
            index = series.index
            return [[q, d, float(v)] for q, d, v in zip(
                index.get_level_values(0), index.get_level_values(1), series.to_numpy(),
                strict=True)]

        def array(values: np.ndarray | None) -> Any:
            return None if values is None else np.asarray(values).tolist()

        return json.dumps({"model": self.model, "prior": list(self.prior),
                           "attractiveness": pairs(self.attractiveness),
                           "satisfaction": pairs(self.satisfaction),
                           "examination": array(self.examination),
                           "continuation": array(self.continuation),
                           "gamma": self.gamma,
                           "tau": None if self.tau is None else list(self.tau)}, indent=1)

    @classmethod
    def from_json(cls, text: str | dict[str, Any], source: str = "text") -> ClickModel:
        """A model written by :meth:`to_json` (its text, or the object
        :func:`irscale.io.click_params.read_click_params` read and checked); anything else
        is an :class:`~irscale.errors.InputFormatError` naming ``source`` and what is wrong
        (a missing field, a row that is not ``[query, docno, value]``), or the
        :class:`~irscale.errors.ParameterError` of :meth:`check`."""
        data = click_params(text, source) if isinstance(text, str) else text
        try:
            fault = click_values_fault(data)
            if fault is not None:
                raise ValueError(fault)
            model = data["model"]

            def series(name: str) -> pd.Series | None:
                rows = data.get(name)
                if rows is None:
                    return None
                frame = pd.DataFrame(rows, columns=["query", "docno", "value"])
                return pair_series(frame["query"].astype(str).to_numpy(dtype=object),
                                    frame["docno"].astype(str).to_numpy(dtype=object),
                                    frame["value"].to_numpy(dtype=np.float64))

            def array(values: Any) -> np.ndarray | None:
                return None if values is None else np.asarray(values, dtype=np.float64)

            attractiveness = series("attractiveness")
            if attractiveness is None:
                raise ValueError("no attractiveness")
            tau = None
            if data.get("tau") is not None:
                t1, t2, t3 = map(float, data["tau"])
                tau = (t1, t2, t3)
            alpha0, sigma0 = map(float, data.get("prior", (PRIOR, PRIOR)))
            result = cls(model, attractiveness,
                         series("satisfaction"), array(data.get("examination")),
                         array(data.get("continuation")),
                         None if data.get("gamma") is None else float(data["gamma"]),
                         tau, (alpha0, sigma0))
        except (ValueError, TypeError) as error:
            raise not_parameters(str(error), source) from None
        result.check()
        return result

    def check(self) -> None:
        """Every probability in [0, 1] and every parameter the model needs present
        (:class:`ParameterError` otherwise)."""
        for name in click_model_needs(self.model):
            if getattr(self, name) is None:
                raise ParameterError(f"click model {self.model}: parameter {name} missing")
        for name in CLICK_PROBABILITIES:
            value = getattr(self, name)
            if value is None:
                continue
            values = np.asarray(value, dtype=np.float64).ravel()
            if not ((values >= 0.0) & (values <= 1.0)).all():
                raise ParameterError(f"click model {self.model}: {name} holds values "
                                     "outside [0, 1] (probabilities)")

    def __repr__(self) -> str:
        extra = ""
        if self.gamma is not None and self.model == "dbn":
            extra = f", gamma={self.gamma:.4g}"
        if self.tau is not None:
            extra = ", tau=(" + ", ".join(f"{t:.4g}" for t in self.tau) + ")"
        return f"ClickModel({self.model}, {len(self.attractiveness):,} pairs{extra})"


def read_click_model(path: str) -> ClickModel:
    """The click model of the JSON file ``path`` (what :meth:`ClickModel.to_json` writes;
    ``-`` reads standard input): a file that is not UTF-8 text is an
    :class:`~irscale.errors.InputFormatError` naming its first line that is not; its
    object is checked (:func:`irscale.io.click_params.read_click_params`) before the
    model is built."""
    return ClickModel.from_json(read_click_params(path), source=path)


@dataclass(frozen=True, eq=False)
class ClickModelFit(ClickModel):
    """A :class:`ClickModel` fitted on a log: ``iterations`` of EM run (0 for a closed
    form), ``loglik`` its training log-likelihood after each (mean per session), and
    ``sessions[q, d]`` the number of training sessions that showed each pair."""

    iterations: int = 0
    loglik: tuple[float, ...] = field(default=())
    sessions: pd.Series | None = None


@FIT
def fit_click_model(log: Any, model: ModelName = "dbn", *, iterations: int = 100,
                    tol: float = 1e-7, smoothing: float = 1.0,
                    progress: ProgressArg = True) -> ClickModelFit:
    """Fit click model ``model`` (one of :data:`MODELS`) on a click log.

    Parameters
    ----------
    log : ClickLog, path, bytes or DataFrame
        The training sessions (:func:`~irscale.online.clicklog.read_click_log`).
    model : str
        ``pbm``, ``cm``, ``ubm``, ``dcm``, ``dbn``, ``sdbn``, ``ccm``, ``gctr``, ``rctr`` or
        ``dctr`` (module doc).
    iterations : int
        Most EM iterations (EM models only: :data:`~irscale.online.params.FIT`).
    tol : float
        EM stops when the mean log-likelihood per session rises by less than ``tol`` (EM
        models only).
    smoothing : float
        Pseudo-trials at the prior 0.5 added to the counts of every (query, document)
        parameter (α, σ): ``(successes + k/2) / (trials + k)``, the MAP estimate under a
        Beta(1 + k/2, 1 + k/2) prior, so that no estimate is exactly 0 or 1 (a held-out
        click it forbids would give a log-likelihood of -inf); 0: maximum likelihood.
    progress : bool or callable
        The EM iterations' progress (:func:`irscale.core.progress.counted_work`, in
        ``--iterations``' units): by default shown, the time of the rest stated when long
        (timed on the first iterations), whoever fits (the commands that fit a model on the
        way, ``online qrels`` and the reward models of ``online counterfactual``, too);
        ``False``: nothing; a callable ``progress(done, total)``. A fit in closed form has
        no iterations and shows nothing.

    Examples
    --------
    >>> log = read_click_log(b"s1 q 1 a 1\\ns1 q 2 b 0\\ns2 q 1 b 0\\ns2 q 2 a 0\\n")
    >>> fit = fit_click_model(log, "sdbn", smoothing=0)
    >>> fit.attractiveness.round(3).to_dict()  # a: 1 click / 2 counted; b: 0 / 1 (s2)
    {('q', 'a'): 0.5, ('q', 'b'): 0.0}
    >>> fit_click_model(log, "sdbn").attractiveness.round(3).to_dict()  # (c + ½)/(n + 1)
    {('q', 'a'): 0.5, ('q', 'b'): 0.25}
    """
    k = smoothing
    progress = check_progress(progress)
    log = read_click_log(log)
    # per-rank parameters for the SERP size; the work on the ranks shown (the parameters
    # of the ranks beyond them keep their start: widened below)
    n = log.serp_size
    log = log.trimmed()
    code, pairs = pair_codes(log)
    valid = log.valid
    flat = code[valid]
    npairs = len(pairs)
    shown = np.bincount(flat, minlength=npairs).astype(np.float64)
    sessions = pd.Series(shown, index=pairs)
    if model in CLOSED_FORM_MODELS:
        fitted = _closed_form(model, log, code, npairs, pairs, k, n)
        return ClickModelFit(**fitted, sessions=sessions)
    if model == "ubm":  # γ_{r r'} of every pair of ranks: a few SERP size² tables
        need = 32.0 * n * n
        declared_memory(LOG_SERP, need, f"UBM on a SERP size of {n:,} (--serp-size): its "
                        "tables of pairs of ranks")
    alpha_pair = np.full(npairs, PRIOR)
    n, serp = log.serp_size, n
    state: dict[str, Any] = {
        "sigma": np.full(npairs, PRIOR), "gamma": PRIOR, "lam": np.full(n, PRIOR),
        "tau": (PRIOR, PRIOR, PRIOR), "exam": np.full(n, PRIOR),
        "ubm": np.tril(np.full((n, n), PRIOR)) if model == "ubm" else None,
    }
    # everything rank-major ([rank, session]): the kernels walk the ranks
    lay = Layout.of(log.clicks, valid)
    valid, clicked = lay.valid, lay.clicks
    code = np.ascontiguousarray(code.T)
    # past a session's end: a pair of its own, whose attractiveness stays 0
    safe = np.where(valid, code, npairs).astype(np.int32 if npairs < 2**31 - 1
                                                 else np.int64)
    flat, click_code = code[valid], code[clicked]
    clicks_of = np.bincount(click_code, minlength=npairs).astype(np.float64)
    rank = np.broadcast_to(np.arange(n)[:, None], code.shape)
    click_rank = rank[clicked]
    history: list[float] = []
    done = 0
    if model in ("pbm", "ubm"):
        # the examination parameter of every (rank, session): γ_r, or UBM's γ[r, r'];
        # past a session's end a cell of its own, whose γ is 0
        cells = n if model == "pbm" else n * n
        if model == "pbm":
            cell = np.where(valid, rank, cells)
        else:
            previous = np.ascontiguousarray(previous_click(log.clicks).T)
            cell = np.where(valid, rank * n + previous, cells)
        cell = cell.astype(safe.dtype)
        cell_count = np.bincount(cell.ravel(), minlength=cells + 1)[:cells]
    # the rest, timed on the first iterations and stated when long (a long page:
    # --serp-size); at most: EM stops once converged
    work = counted_work(FIT_ITERATIONS, iterations, f"{model} on {len(log.sessions):,} "
                        f"sessions of a SERP size of {serp:,} (at most: stops once "
                        "converged)", progress)
    for done in range(1, iterations + 1):
        alpha = np.append(alpha_pair, 0.0)[safe]
        if model in ("pbm", "ubm"):
            table = state["exam"] if model == "pbm" else state["ubm"].ravel()
            post_a, post_e, ll = examination_posteriors(
                alpha, np.append(table, 0.0)[cell], clicked)
            alpha_pair = smoothed(np.bincount(safe.ravel(), post_a.ravel(), npairs + 1)
                                   [:npairs], shown, k)
            examined = ratio(np.bincount(cell.ravel(), post_e.ravel(), cells + 1)[:cells],
                              cell_count)
            if model == "pbm":
                state["exam"] = examined
            else:  # (rank, previous) cells never seen keep their value
                state["ubm"] = np.where(cell_count.reshape(n, n) > 0,
                                        examined.reshape(n, n), state["ubm"])
            ll = ll.sum(axis=0)
        else:
            sigma, g = _chain_sigma(model, state, alpha_pair, click_code, click_rank)
            post = chain_posteriors(alpha, sigma, *g, lay)
            ll = post["loglik"]
            attracted = np.bincount(safe.ravel(), post["skip_attracted"].ravel(),
                                    npairs + 1)[:npairs] + clicks_of
            satisfied = post["satisfied"]
            t = post["transitions"]
            if model == "ccm":
                alpha_pair = smoothed(attracted + np.bincount(click_code, satisfied, npairs),
                                       shown + clicks_of, k)
                state["tau"] = tuple(float(x) for x in ratio(t[:, 1], t[:, 0]))
            else:
                alpha_pair = smoothed(attracted, shown, k)
                if model == "dbn":
                    state["sigma"] = smoothed(np.bincount(click_code, satisfied, npairs),
                                               clicks_of, k)
                    state["gamma"] = float(ratio(t[0, 1] + t[1, 1], t[0, 0] + t[1, 0]))
                else:
                    sat = ratio(np.bincount(click_rank, satisfied, n),
                                 np.bincount(click_rank, minlength=n), 1.0 - state["lam"])
                    state["lam"] = 1.0 - sat
        history.append(float(ll.mean()))
        work(done)
        if len(history) > 1 and history[-1] - history[-2] < tol:
            break
    if done < iterations:
        work(iterations)  # (over: converged)
    return ClickModelFit(model=model, attractiveness=pd.Series(alpha_pair, index=pairs),
                         iterations=done, loglik=tuple(history), sessions=sessions,
                         **_em_parameters(model, state, pairs, n, serp))


def _chain_sigma(model: str, state: dict[str, Any], alpha_pair: np.ndarray,
                 click_code: np.ndarray, click_rank: np.ndarray
                 ) -> tuple[np.ndarray, tuple[float, float, float]]:
    """The satisfaction σ at each click and the continuations ``(g0, g_0', g1)`` that a
    chain model hands :func:`chain_posteriors` for one E-step (module documentation): σ is
    read at the clicks only. DBN: its σ per pair, ``(γ, γ, 0)``; DCM: ``σ = 1 − λ_r`` of
    the click's rank, ``(1, 1, 0)``; CCM: ``σ = α_qu`` of the clicked pair, ``τ``."""
    if model == "dbn":
        return state["sigma"][click_code], (state["gamma"], state["gamma"], 0.0)
    if model == "dcm":
        return 1.0 - state["lam"][click_rank], (1.0, 1.0, 0.0)
    return alpha_pair[click_code], state["tau"]


def _em_parameters(model: str, state: dict[str, Any], pairs: pd.MultiIndex, n: int,
                   serp: int) -> dict[str, Any]:
    """The fitted parameters of an EM model beyond its attractiveness, from the EM
    ``state`` on ``n`` ranks shown, widened to ``serp`` ranks (a rank no session reached
    keeps the prior)."""
    if model == "pbm":
        return {"examination": widened(state["exam"], serp, PRIOR)}
    if model == "ubm":
        examination = np.tril(np.full((serp, serp), PRIOR))
        examination[:n, :n] = state["ubm"]
        return {"examination": examination}
    if model == "dbn":
        return {"satisfaction": pd.Series(state["sigma"], index=pairs),
                "gamma": state["gamma"]}
    if model == "dcm":
        return {"continuation": widened(state["lam"], serp, PRIOR)}
    return {"tau": tuple(float(t) for t in state["tau"])}


def _closed_form(model: str, log: ClickLog, code: np.ndarray, npairs: int,
                 pairs: pd.MultiIndex, k: float, serp: int) -> dict[str, Any]:
    """The closed forms (module documentation) on ``log`` (its ranks shown); per-rank
    parameters for ``serp`` ranks."""
    clicks, valid = log.clicks & log.valid, log.valid
    n = log.serp_size
    if model in ("gctr", "rctr", "dctr"):
        return _ctr(model, clicks, valid, code, npairs, pairs, k, serp)
    columns = np.arange(n)
    any_click = clicks.any(axis=1)
    if model == "cm":
        first = np.where(any_click, clicks.argmax(axis=1), log.lengths - 1)
        counted = valid & (columns <= first[:, None])
        hits = clicks & counted
    else:
        last = np.where(any_click, n - 1 - clicks[:, ::-1].argmax(axis=1), log.lengths - 1)
        counted = valid & (columns <= last[:, None])
        hits = clicks
    alpha = smoothed(np.bincount(code[hits], minlength=npairs),
                      np.bincount(code[counted], minlength=npairs), k)
    out: dict[str, Any] = {"model": model, "attractiveness": pd.Series(alpha, index=pairs)}
    if model == "sdbn":
        is_last = clicks & (columns == last[:, None])
        sigma = smoothed(np.bincount(code[is_last], minlength=npairs),
                          np.bincount(code[clicks], minlength=npairs), k)
        out.update(satisfaction=pd.Series(sigma, index=pairs), gamma=1.0)
    return out


def _ctr(model: str, clicks: np.ndarray, valid: np.ndarray, code: np.ndarray, npairs: int,
         pairs: pd.MultiIndex, k: float, n: int) -> dict[str, Any]:
    """The CTR models (module documentation): ratios of clicks over results shown, over
    all of them (GCTR), per rank (RCTR) or per (query, document) pair (DCTR, smoothed);
    ``n`` ranks (a rank no session has: the prior)."""
    if model == "dctr":
        alpha = smoothed(np.bincount(code[clicks], minlength=npairs),
                          np.bincount(code[valid], minlength=npairs), k)
        return {"model": model, "attractiveness": pd.Series(alpha, index=pairs),
                "examination": np.ones(n)}
    if model == "rctr":
        rates = widened(ratio(clicks.sum(axis=0).astype(np.float64),
                               valid.sum(axis=0).astype(np.float64)), n, PRIOR)
    else:
        rates = np.full(n, float(ratio(np.float64(clicks.sum()), np.float64(valid.sum()))))
    return {"model": model, "attractiveness": pd.Series(np.ones(npairs), index=pairs),
            "examination": rates, "prior": (1.0, PRIOR)}

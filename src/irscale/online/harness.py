"""Sensitivity of interleaving and A/B tests to an offline measure's preference, by
simulation (the comparison of Chapelle et al. 2012, TOIS 30(1), §6, and
Schuth et al. 2014, CIKM, §5).

For every pair of runs (A, B):

* the **offline preference** is the sign of Δ = mean_t m(A, t) − mean_t m(B, t), the
  mean difference of an offline measure m (default nDCG@10, :func:`irscale.evaluate`)
  over the *simulation topics*: the qrels topics that every run ranks. Δ = 0 (|Δ| ≤
  1e-12) is *no offline preference*: the pair is reported with ``preference = "none"``
  and NaN agreement, and left out of the summary;
* an **experiment** of N impressions draws N users: each user draws a topic uniformly
  from the simulation topics (with replacement) and the click model's random numbers
  (one set per rank, as :meth:`~irscale.online.clickmodels.ClickModel.simulate` draws
  them). ``repetitions`` experiments are simulated for every N of ``impressions``;
* **interleaving**: every user sees the lists of A and B interleaved by ``method``
  (:func:`~irscale.online.interleaving.interleave_runs`) and clicks; the experiment
  prefers A when Σ_i o_i > 0 and B when Σ_i o_i < 0 (o_i ∈ {−1, 0, 1} the impression's
  outcome, or E[o_i] for probabilistic interleaving with marginal credit:
  :meth:`~irscale.online.interleaving.Interleavings.outcomes`), i.e. the sign of Δ_AB;
* **A/B test**: the *same* users (same topics, same click-model random numbers) are split
  at random into two halves of ⌊N/2⌋ and ⌈N/2⌉ (a random permutation per experiment); the
  first half sees A's first ``length`` documents, the second B's; the experiment prefers
  the arm with the better mean online measure (``ab_measure``:
  :func:`~irscale.online.abtest.session_measures`' ``clicks`` per impression — the
  default —, ``reciprocal_rank`` of the first click, both higher-is-better, or
  ``abandoned``, lower-is-better);
* **agreement** = k/R, the share of the R experiments whose preference is the offline
  one. An experiment without a preference (a tie: Σ o_i = 0, or equal A/B means) does
  not agree. With ``significance`` given, an experiment agrees only when its test is
  also significant at that level: interleaving, the two-sided sign test of wins against
  losses (ties left out; for probabilistic interleaving with marginal credit the
  one-sample t-test of mean E[o] = 0, as
  :class:`~irscale.online.interleaving.InterleavingResult` tests); A/B, Welch's t-test of
  the two arms (a zero standard error: significant unless the means are equal). The
  agreement's interval is Clopper–Pearson's exact binomial interval at level 1 − ``alpha``:
  [B(α/2; k, R − k + 1), B(1 − α/2; k + 1, R − k)] (B the beta quantile; 0 for k = 0, 1
  for k = R);
* **impressions needed** (:meth:`SensitivityResult.summary`): the smallest N of the grid
  whose agreement is ≥ ``target`` (0.95), NaN when none reaches it.

Simulation is vectorised over impressions and repetitions (one batch of R × N users per
grid point and pair). Seeds: ``SeedSequence(seed)`` spawns a child per pair, which spawns
one per grid point, which spawns the topic draws, the interleaving coins, the users'
click draws (shared by interleaving and A/B) and the A/B split: the same seed gives the
same table, and a pair's rows do not depend on the other pairs.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from ..collections.candidates import Candidates, ranked_candidates
from ..core.notebook import HtmlRepr
from ..core.numbers import blank, declare
from ..core.progress import declared_memory
from ..errors import InputError, ParameterError
from ..io.naming import find_run
from ..io.sources import as_qrels, as_runs
from ..stats.protocol import format_table
from ..stats.resampling import seed_sequence
from ..stats.tables import Format
from ..stats.validation import check_choice
from .abtest import session_measures
from .clickmodels import ClickModel
from .interleaving import (
    LENGTH,
    Interleavings,
    Method,
    interleave_runs,
    list_width,
)
from .params import (
    EXPERIMENT_REPETITIONS,
    EXPERIMENT_SIZES,
    SENSITIVITY,
    SENSITIVITY_IMPRESSIONS,
    SHOWN_LENGTH,
    check_credit,
)
from .simulate import INSTANTIATIONS, qrels_click_model

__all__ = ["AB_MEASURES", "IMPRESSIONS", "SensitivityResult", "sensitivity"]

#: Default grid of impressions per experiment.
IMPRESSIONS = SENSITIVITY_IMPRESSIONS
#: Online measures of the A/B arm: the column of ``session_measures`` and +1 when higher is
#: better, −1 when lower is.
AB_MEASURES: dict[str, int] = {"clicks": 1, "reciprocal_rank": 1, "abandoned": -1}
#: Peak bytes per shown position of a simulated user, interleaved and A/B lists, clicks and
#: session measures together (measured: 2·10^5 users of 5 positions, 145 bytes; 1.3 GB per
#: 10^6 users of 10 positions), with a margin.
USER_POSITION_BYTES = 160
#: |Δ| at or below which the offline measure prefers neither run.
TIE = 1e-12


@dataclass(frozen=True, eq=False)
class SensitivityResult(HtmlRepr):
    """Agreement curves of :func:`sensitivity`.

    ``curves``: one row per (pair, method, impressions): ``a``, ``b``, ``delta`` (mean
    offline difference A − B), ``preference`` (``a``'s or ``b``'s name, or ``"none"``),
    ``method`` (an interleaving method or ``"ab"``), ``impressions``, ``repetitions``,
    ``agree`` (k), ``ties`` (experiments without a preference), ``agreement`` (k/R),
    ``ci_low``, ``ci_high``.
    """

    curves: pd.DataFrame
    measure: str
    target: float
    settings: dict[str, Any]

    def summary(self) -> pd.DataFrame:
        """Impressions needed per pair (rows ``a``, ``b``, ``delta``) and method (columns):
        the smallest N of the grid with agreement ≥ ``target``; NaN when no N reaches it.
        Pairs without an offline preference are left out."""
        rows = self.curves[self.curves["preference"] != "none"]
        reached = rows[rows["agreement"] >= self.target]
        needed = reached.groupby(["a", "b", "method"], sort=False)["impressions"].min()
        table = rows[["a", "b", "delta", "method"]].drop_duplicates().join(
            needed, on=["a", "b", "method"])
        wide = table.set_index(["a", "b", "delta", "method"])["impressions"].unstack()
        wide = wide.reindex(index=pd.MultiIndex.from_frame(
            rows[["a", "b", "delta"]].drop_duplicates()),
            columns=list(dict.fromkeys(rows["method"])))
        wide.columns.name = None
        return declare(wide.astype("Int64").reset_index(), dict.fromkeys(
            wide.columns, blank("no number of impressions of the grid reaches the "
                                "target agreement")))

    def to_frame(self) -> pd.DataFrame:
        """The agreement curves (:attr:`curves`)."""
        return self.curves.copy()

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The curves (``csv``/``json``: the curves alone); text, markdown and LaTeX add
        the summary."""
        curves = format_table(self.curves, fmt, digits=digits,
                              title=f"agreement with {self.measure} (sensitivity)")
        if fmt in ("csv", "json"):
            return curves
        needed = format_table(self.summary(), fmt, digits=digits,
                              title=f"impressions needed for agreement >= {self.target}")
        return curves + "\n\n" + needed


def _model(model: object, qrels: object) -> ClickModel:
    if isinstance(model, str):
        check_choice(model, tuple(INSTANTIATIONS), "click model")
        return qrels_click_model(qrels, model)
    if not isinstance(model, ClickModel):
        raise ParameterError(f"model must be one of {', '.join(INSTANTIATIONS)} or a "
                             f"ClickModel, got {type(model).__name__}")
    return model


def _check_batch(users: int, width: int, repetitions: int, impressions: int) -> None:
    """Refuse a batch of ``users`` (``repetitions`` × ``impressions``) shown lists of
    ``width`` positions beyond the memory limit, :data:`USER_POSITION_BYTES` a position
    (:func:`irscale.core.progress.declared_memory`: the repetitions, the impressions and the
    length declare the cost)."""
    need = float(users) * width * USER_POSITION_BYTES
    declared_memory((EXPERIMENT_REPETITIONS, EXPERIMENT_SIZES, SHOWN_LENGTH), need,
                    f"{repetitions:,} repetitions (--repetitions) of {impressions:,} "
                    f"impressions (--impressions) simulate {users:,} users in one batch, "
                    f"lists of {width:,} documents")


def _grid(impressions: Sequence[int]) -> list[int]:
    """The grid of impressions (counts, none twice: its domain), refused unless it
    increases."""
    grid = list(impressions)
    if grid != sorted(grid):
        raise ParameterError(f"impressions must increase: got {grid}", param="impressions")
    return grid


def _offline(qrels: object, runs: list, measure: str) -> pd.DataFrame:
    """Topics × runs table of ``measure`` over the qrels topics that every run ranks."""
    from ..evaluation import evaluate

    evaluation = evaluate(qrels, runs, measure)
    if len(evaluation.measures) != 1:
        raise ParameterError(f"measure {measure!r} names {len(evaluation.measures)} "
                             "measures; give one (e.g. nDCG@10)")
    table = evaluation.per_topic().pivot(index="topic", columns="run", values="value")
    table = table.reindex(columns=list(evaluation.runs))
    ranked = table.notna().all(axis=1).to_numpy()
    if not ranked.any():
        raise InputError("no topic is judged in the qrels and ranked by every run")
    if not ranked.all():
        left = [str(t) for t in table.index[~ranked]]
        warnings.warn(f"{len(left)} judged topic(s) not ranked by every run left out of the "
                      f"comparison: {', '.join(left[:10])}{' ...' if len(left) > 10 else ''}",
                      stacklevel=3)
    return table[ranked]


def _pairs(runs: Sequence[Any], pairs: Sequence[tuple[str, str]] | None
           ) -> list[tuple[str, str]]:
    """The pairs of runs' names to compare: every pair of ``runs`` in order, or those of
    ``pairs``, each run designated by its name, file or run id
    (:func:`~irscale.io.naming.find_run`)."""
    if pairs is None:
        return list(itertools.combinations([run.name for run in runs], 2))
    chosen = []
    for pair in map(tuple, pairs):
        found = [find_run(str(name), runs, f"pairs: run of {pair!r}")
                 for name in pair] if len(pair) == 2 else []
        if len(found) != 2 or found[0] == found[1]:
            raise ParameterError(f"pairs: a pair names two different runs, got {pair!r}",
                                 param="pairs")
        chosen.append((found[0], found[1]))
    if not chosen:
        raise ParameterError("pairs: give at least one pair of runs")
    return [(a, b) for a, b in chosen]


def _clopper_pearson(k: np.ndarray, n: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    from scipy.stats import beta

    low = np.where(k > 0, beta.ppf(alpha / 2, k, n - k + 1), 0.0)
    high = np.where(k < n, beta.ppf(1 - alpha / 2, k + 1, n - k), 1.0)
    return low, high


def _p_or_limit(stat: np.ndarray, se: np.ndarray, df: np.ndarray) -> np.ndarray:
    """Two-sided t-test p of ``stat / se`` on ``df`` degrees of freedom; se = 0: 0 when
    the statistic is not 0, 1 when it is; undefined (one observation): 1."""
    from scipy.stats import t

    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * t.sf(np.abs(stat / se), df)
    p = np.where(se > 0, p, np.where(stat != 0, 0.0, 1.0))
    return np.where(np.isnan(p) | np.isnan(se), 1.0, p)


def _interleaving_scores(cube: Candidates, topic_ids: np.ndarray,
                         experiment: np.ndarray, repetitions: int, model: ClickModel,
                         user: int, coins: np.random.SeedSequence, *, method: Method,
                         length: int, credit: str | None) -> tuple[np.ndarray, np.ndarray]:
    """Σ_i o_i of every experiment (A − B: > 0 prefers A) and the p-value of its test:
    the sign test of wins against losses (:func:`sign_test`), or, for marginal credit,
    the one-sample t-test of mean E[o] = 0 (as :class:`InterleavingResult`)."""
    shown = interleave_runs(cube, topic_ids, method=method, length=length, credit=credit,
                            rng=coins)
    width = list_width(cube, length)
    if shown.length != width:  # the users' click draws must be the A/B arm's
        raise AssertionError(f"{method} lists of {shown.length} positions, not {width}")
    win, loss = (x[:, 0] for x in shown.outcome_probabilities(
        shown.simulate_clicks(model, rng=user)))
    outcome = win - loss
    total = np.bincount(experiment, weights=outcome, minlength=repetitions)
    if np.isin(win, (0.0, 1.0)).all() and np.isin(loss, (0.0, 1.0)).all():
        wins = np.bincount(experiment, weights=win, minlength=repetitions)
        losses = np.bincount(experiment, weights=loss, minlength=repetitions)
        return total, sign_test(wins, losses)
    n = len(outcome) // repetitions
    spread = outcome.reshape(repetitions, n).std(axis=1, ddof=1) if n > 1 else \
        np.full(repetitions, np.nan)
    return total, _p_or_limit(total / n, spread / np.sqrt(n), np.full(repetitions, n - 1))


def _ab_scores(cube: Candidates, topic: np.ndarray, experiment: np.ndarray,
               repetitions: int, model: ClickModel, user: int, split: np.random.SeedSequence,
               *, length: int, ab_measure: str) -> tuple[np.ndarray, np.ndarray]:
    """The A/B difference of every experiment, oriented so that > 0 prefers A (half of
    its users, a random permutation, see A's list, the others B's), and the p-value of
    Welch's t-test (:func:`_welch`)."""
    n = len(topic) // repetitions
    order = np.argsort(np.random.default_rng(split).random((repetitions, n)), axis=1)
    arm = (order >= n // 2).astype(np.int64).reshape(-1)  # 0: A, 1: B
    shown = cube.pairs[topic, arm, :length]
    if shown.shape[1] < length:
        shown = np.pad(shown, ((0, 0), (0, length - shown.shape[1])), constant_values=-1)
    # the lists as an Interleavings whose every position is the user's arm, so that the
    # click simulation (same users as the interleaving's) and to_click_log apply
    lists = Interleavings("team-draft", "team", cube, topic, shown,
                          np.broadcast_to(arm[:, None], shown.shape).copy())
    clicked = replace(lists.to_click_log(), clicks=lists.simulate_clicks(model, rng=user))
    value = session_measures(clicked)[ab_measure].to_numpy(dtype=np.float64)
    diff, p = _welch(value, experiment * 2 + arm, repetitions)
    return AB_MEASURES[ab_measure] * diff, p


def _welch(value: np.ndarray, cell: np.ndarray, repetitions: int
           ) -> tuple[np.ndarray, np.ndarray]:
    """m_A − m_B and Welch's two-sided p of every experiment: ``cell`` = 2 × experiment +
    arm (0: A, 1: B); t = (m_A − m_B)/√(s_A²/n_A + s_B²/n_B) on Welch–Satterthwaite's
    degrees of freedom (s² with n − 1)."""
    size = np.bincount(cell, minlength=2 * repetitions).reshape(repetitions, 2)
    means = np.bincount(cell, weights=value, minlength=2 * repetitions).reshape(
        repetitions, 2) / size
    squares = np.bincount(cell, weights=(value - means.reshape(-1)[cell]) ** 2,
                          minlength=2 * repetitions).reshape(repetitions, 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = squares / (size - 1) / size  # s²/n per arm (NaN for a lone user)
        df = share.sum(axis=1) ** 2 / (share ** 2 / (size - 1)).sum(axis=1)
    diff = means[:, 0] - means[:, 1]
    return diff, _p_or_limit(diff, np.sqrt(share.sum(axis=1)), df)


def sign_test(wins: np.ndarray, losses: np.ndarray) -> np.ndarray:
    """Two-sided sign test of wins against losses: min(1, 2 F(min(w, l); w + l, 1/2)), F
    the binomial CDF (``scipy.stats.binomtest``'s p for p = 1/2); 1 without any."""
    from scipy.stats import binom

    p = np.minimum(1.0, 2 * binom.cdf(np.minimum(wins, losses), wins + losses, 0.5))
    return np.where(wins + losses > 0, p, 1.0)


@SENSITIVITY
def sensitivity(
    qrels: Any,
    runs: Any,
    model: str | ClickModel = "navigational",
    *,
    impressions: Sequence[int] = IMPRESSIONS,
    repetitions: int = 100,
    methods: Sequence[Method] = ("team-draft",),
    measure: str = "nDCG@10",
    ab_measure: str = "clicks",
    length: int = LENGTH,
    credit: str | None = None,
    pairs: Sequence[tuple[str, str]] | None = None,
    target: float = 0.95,
    alpha: float = 0.05,
    significance: float | None = None,
    seed: int | Sequence[int] | np.random.SeedSequence | None = None,
) -> SensitivityResult:
    """Agreement of interleaving and A/B experiments with an offline measure's preference,
    as a function of the impressions per experiment (module documentation).

    Parameters
    ----------
    qrels : Qrels, path, DataFrame or dict
        The judgments (of the offline measure and of a named click model).
    runs : runs as :func:`irscale.evaluate` takes them
        Two or more runs; every pair is compared (or those of ``pairs``).
    model : {"navigational", "perfect", "informational"} or ClickModel
        The users: an instantiation of :func:`~irscale.online.simulate.qrels_click_model`
        on ``qrels``, or a fitted / parametrised click model (its queries the topic ids).
    impressions : increasing counts ≥ 2
        The grid N of users per experiment.
    repetitions : int
        Experiments R per grid point.
    methods : interleaving methods
        Any of ``balanced``, ``team-draft``, ``probabilistic``, ``optimized``; an A/B test
        (method ``"ab"``) is always added.
    measure : str
        The offline measure (one name :func:`irscale.evaluate` accepts).
    ab_measure : {"clicks", "reciprocal_rank", "abandoned"}
        The A/B test's online measure per impression.
    length : int
        Documents shown per impression (interleaved list and A/B list alike; at most the
        documents of a topic's two rankings together: a longer ``length`` changes nothing).
        A batch of users beyond the memory limit is refused (:func:`_check_batch`).
    credit : str, optional
        The credit rule of ``probabilistic`` or ``optimized`` (with one of them only).
    pairs : sequence of (run, run), optional
        The pairs to compare (default: every pair, in the runs' order).
    target, alpha : float
        Agreement that counts as reached; 1 − ``alpha`` is the level of its interval.
    significance : float, optional
        When given, an experiment agrees only when its test is also significant at this
        level (p ≤ ``significance``; module documentation).
    seed : int, sequence of ints or SeedSequence
        Same seed, same table (module documentation).

    Examples
    --------
    >>> qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1, "d": 0}}
    >>> runs = {"good": {"q1": {"a": 2, "b": 1}, "q2": {"c": 2, "d": 1}},
    ...         "bad": {"q1": {"a": 1, "b": 2}, "q2": {"c": 1, "d": 2}}}
    >>> result = sensitivity(qrels, runs, "perfect", impressions=[10, 20],
    ...                      repetitions=50, seed=1)
    >>> result.curves[["method", "impressions", "agreement"]]
           method  impressions  agreement
    0  team-draft           10        1.0
    1  team-draft           20        1.0
    2          ab           10        0.0
    3          ab           20        0.0
    >>> result.summary()
          a    b    delta  team-draft    ab
    0  good  bad  0.36907          10  <NA>

    (A perfect user clicks the one relevant document of each list wherever it is ranked:
    both runs get one click per impression, and A/B on clicks never prefers either.)
    """
    grid = _grid(impressions)
    level = 1.0 if significance is None else significance
    if credit is not None:
        for method in methods:  # one of each method's rules
            check_credit(method, credit)
    judged = as_qrels(qrels)
    run_list = as_runs(runs)
    if len(run_list) < 2:
        raise InputError(f"sensitivity compares runs: give two or more, got {len(run_list)}")
    user_model = _model(model, judged)
    offline = _offline(judged, run_list, measure)
    by_name = {run.name: run for run in run_list}
    chosen = _pairs(run_list, pairs)
    topics = list(offline.index)
    methods = list(methods)
    rows = []
    pair_seeds = seed_sequence(seed).spawn(len(chosen))
    cubes = [ranked_candidates([by_name[a], by_name[b]], topics=topics) for a, b in chosen]
    widths = [list_width(cube, length) for cube in cubes]
    _check_batch(repetitions * grid[-1], max(widths), repetitions, grid[-1])
    for index, ((a, b), pair_seed) in enumerate(zip(chosen, pair_seeds, strict=True)):
        delta = float((offline[a] - offline[b]).mean())
        sign = 0 if abs(delta) <= TIE else (1 if delta > 0 else -1)
        cube, width = cubes[index], widths[index]
        for n, point in zip(grid, pair_seed.spawn(len(grid)), strict=True):
            topic_seed, user_seed, split_seed, *coins = point.spawn(3 + len(methods))
            topic = np.random.default_rng(topic_seed).integers(0, len(topics), repetitions * n)
            topic_ids = np.asarray(topics, dtype=object)[topic]
            experiment = np.repeat(np.arange(repetitions), n)
            user = int(user_seed.generate_state(1)[0])
            scores = [_interleaving_scores(cube, topic_ids, experiment, repetitions, user_model,
                                           user, coin, method=method, length=length,
                                           credit=credit)
                      for method, coin in zip(methods, coins, strict=True)]
            scores.append(_ab_scores(cube, topic, experiment, repetitions, user_model, user,
                                     split_seed, length=width, ab_measure=ab_measure))
            for m, (score, p) in enumerate(scores):
                agree = (np.sign(score) * sign > 0) & (p <= level)
                rows.append((index, m, a, b, delta, sign, [*methods, "ab"][m], n,
                             int(agree.sum()), int((score == 0).sum())))
    curves = pd.DataFrame(rows, columns=["pair", "m", "a", "b", "delta", "sign", "method",
                                         "impressions", "agree", "ties"])
    curves = curves.sort_values(["pair", "m", "impressions"], kind="stable")
    sign = curves["sign"].to_numpy()
    curves.insert(5, "preference", np.where(sign > 0, curves["a"], np.where(
        sign < 0, curves["b"], "none")))
    low, high = _clopper_pearson(curves["agree"].to_numpy(), repetitions, alpha)
    curves["repetitions"] = repetitions
    curves["agreement"] = np.where(sign == 0, np.nan, curves["agree"] / repetitions)
    curves["ci_low"] = np.where(sign == 0, np.nan, low)
    curves["ci_high"] = np.where(sign == 0, np.nan, high)
    curves = curves.drop(columns=["pair", "m", "sign"]).reset_index(drop=True)
    return SensitivityResult(curves, measure, float(target), {
        "model": model if isinstance(model, str) else user_model.model, "methods": methods,
        "ab_measure": ab_measure, "length": length, "repetitions": repetitions,
        "impressions": grid, "topics": len(topics), "alpha": alpha,
        "significance": significance})

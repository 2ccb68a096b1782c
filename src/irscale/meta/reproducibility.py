"""Reproducibility and replicability of system-oriented experiments (Breuer, Ferro, Fuhr,
Maistro, Sakai, Schaer & Soboroff, SIGIR 2020, "How to Measure the Reproducibility of
System-oriented IR Experiments").

An experiment compares an *advanced* run a with a *baseline* run b; it is *reproduced*
(same collection, same topics) or *replicated* (another collection) by re-implementing
both, giving a′ and b′. With M_j(x) the score of run x on topic j (n topics of the
original, n′ of the reproduction) and M̄(x) its mean:

Effect Ratio (ER, Breuer et al. 2020, §3.3)
    ER = ((1/n′) Σ_j ΔM′_j) / ((1/n) Σ_j ΔM_j), ΔM_j = M_j(a) − M_j(b) and ΔM′_j =
    M_j(a′) − M_j(b′): the mean per-topic improvement of the reproduction over the
    original's. 1 is a perfectly reproduced effect; 0 < ER < 1 a smaller one; ER > 1 a
    larger one; ER ≤ 0 an effect lost or reversed. Undefined (reported, not shown as
    ``nan``) when the original mean improvement is 0.
Delta Relative Improvement (ΔRI, §3.3)
    RI = (M̄(a) − M̄(b)) / M̄(b), RI′ likewise on the reproduction, ΔRI = RI − RI′: 0 is a
    perfectly reproduced relative improvement (ΔRI < 0: the reproduction improves more).
    Undefined when a baseline mean is 0.
Root mean square error (RMSE, §3.2; reproducibility only)
    RMSE(x, x′) = sqrt((1/n) Σ_j (M_j(x) − M_j(x′))²) for the baseline and for the
    advanced run: how far the reproduced per-topic scores lie from the original ones.
Normalised RMSE (nRMSE; repro_eval 0.5.0's ``nrmse``; reproducibility only)
    nRMSE(x, x′) = RMSE(x, x′) / RMSE_max(x), RMSE_max(x) = sqrt((1/n) Σ_j max(M_j(x),
    1 − M_j(x))²): the RMSE as a share of the largest a reproduction of scores in [0, 1]
    could have (each topic's score moved to the farther end of [0, 1]).
Equivalence test (TOST; ``margin=``, ``meta reproduce --margin``)
    Two one-sided t-tests (Schuirmann 1987) of H0: |mean difference| ≥ margin between the
    original run and its reproduction, paired on the topics for a reproduction, Student's
    unpaired for a replication: p = max of the two one-sided p-values; a small p says the
    reproduction is equivalent within the margin the user states (``statsmodels.stats.
    weightstats.ttost_paired`` / ``ttost_ind``).
Bootstrap intervals of ER and ΔRI (:meth:`Reproducibility.effect_intervals`)
    Percentile intervals over B resamples of the topics, seeded: the four runs' topics
    drawn together for a reproduction, the original's and the replication's topic sets
    drawn apart for a replication.
Replicability over several collections (:func:`replicability_across`)
    Each collection's difference of mean improvements D = mean ΔM′ − mean ΔM, its
    variance var(ΔM′)/n′ + var(ΔM)/n (the two topic sets apart), pooled by the
    random-effects meta-analysis (:func:`irscale.stats.random_effects`) with the
    prediction interval of D on a new collection.
Statistical test (§3.4)
    The original run against its reproduction: the paired t-test (reproducibility: the
    same topics) or the unpaired Student t-test (replicability); a small p-value says the
    reproduction differs from the original (:func:`irscale.stats.paired_t`,
    :func:`irscale.stats.student_t`).
Intervals of the means (``to_frame(interval=)``, ``irscale meta reproduce --ci``)
    Each of the four runs' mean M̄(x) with its 1 − α confidence interval over the topics,
    by a method of :mod:`irscale.core.mean_intervals` (``"t"``: Student's interval;
    ``"bootstrap"``: the percentile interval with the topics resampled, the runs of one
    topic set drawn together: the four runs' for a reproduction, each pair's for a
    replication), as the columns ``<run>_low, <run>_high`` beside ``<run>``.
Ordering of documents (§3.1; reproducibility only): :func:`ranking_agreement`
    Kendall's τ and rank-biased overlap (RBO) between the original and the reproduced
    ranking of each topic.

*Reproducibility* is chosen when the reproduced runs cover exactly the original topics
(RMSE and the paired test are then defined), *replicability* otherwise. Each pair of
runs (b, a) and (b′, a′) must cover the same topics (per-topic improvements pair them).

The reference implementation is the ``repro_eval`` package (Breuer, Ferro, Maistro &
Schaer, SIGIR 2021); irscale does not call it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, cast

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..core.mean_intervals import check_interval, mean_intervals
from ..core.notebook import HtmlRepr
from ..core.numbers import blank, declare, undefined
from ..core.params import check_alpha
from ..core.progress import ProgressArg, counted_work
from ..errors import AlignmentError, InputError, ParameterError
from ..stats import paired_t, student_t
from ..stats.kendall import kendall_tau
from ..stats.tables import Format
from ..stats.validation import tie_tolerance
from .common import format_frame, interval_note
from .params import (
    EFFECT_INTERVALS,
    EFFECT_SAMPLES,
    RANKING_AGREEMENT,
    REPLICABILITY_ACROSS,
    REPRO_DEPTH,
    REPRO_RBO_P,
    REPRODUCIBILITY,
)
from .rank_correlation import rbo

if TYPE_CHECKING:
    from ..collections.candidates import Candidates
    from ..core.mean_intervals import MeanInterval
    from ..stats.resampling import RngArg

__all__ = ["RankingAgreement", "Reproducibility", "ktau_union", "ranking_agreement",
           "replicability_across", "reproducibility"]

#: Resamples of the bootstrap of ER and ΔRI drawn at a time.
_CHUNK = 1000
#: The four runs of an experiment and its reproduction, in the order of the arguments.
ROLES = ("original_baseline", "original_advanced", "reproduced_baseline",
         "reproduced_advanced")


def per_topic_table(scores: object, role: str) -> pd.DataFrame:
    """The per-topic scores of one run as a topics × measures frame of floats.

    ``scores``: a :class:`~irscale.core.ScoreMatrix` of one system, a DataFrame (topics ×
    measures), a Series or a mapping topic → score (one measure, named ``score`` or after
    the Series), or a 1-D array or list (one measure, ``score``; topics by position)."""
    if isinstance(scores, ScoreMatrix):
        if scores.n_systems != 1:
            raise InputError(f"{role}: a score matrix of one run is needed, got the systems "
                             f"{list(scores.systems)[:5]}")
        frame = pd.DataFrame(scores.values[:, 0, :], index=list(scores.topics),
                             columns=list(scores.measures))
    elif isinstance(scores, pd.DataFrame):
        frame = scores.copy()
    elif isinstance(scores, pd.Series):
        frame = scores.to_frame(str(scores.name) if scores.name is not None else "score")
    elif isinstance(scores, Mapping):
        frame = pd.Series(dict(scores), dtype=object).to_frame("score")
    elif isinstance(scores, (np.ndarray, list, tuple)) and np.ndim(scores) == 1:
        frame = pd.Series(list(scores), dtype=object).to_frame("score")
    else:
        raise ParameterError(f"{role}: per-topic scores are a ScoreMatrix of one run, a "
                             "DataFrame, a Series, a mapping or a 1-D array, not "
                             f"{type(scores).__name__}")
    if frame.empty:
        raise InputError(f"{role}: no per-topic score")
    frame.index = [str(t) for t in frame.index]
    frame.columns = [str(c) for c in frame.columns]
    if frame.index.duplicated().any():
        raise InputError(f"{role}: topic {frame.index[frame.index.duplicated()][0]!r} is "
                         "given twice")
    try:
        values = frame.to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{role}: a per-topic score is not a number") from None
    bad = ~np.isfinite(values)
    if bad.any():
        t, m = (int(v[0]) for v in np.nonzero(bad))
        raise InputError(f"{role}: the score of topic {frame.index[t]!r} for "
                         f"{frame.columns[m]!r} is {values[t, m]}: not a finite number")
    return pd.DataFrame(values, index=frame.index, columns=frame.columns)


def _paired(base: pd.DataFrame, advanced: pd.DataFrame, roles: tuple[str, str]) -> None:
    """Refuse a baseline and an advanced run over different topics (never dropped)."""
    if set(base.index) != set(advanced.index):
        only = sorted(set(base.index) ^ set(advanced.index))
        raise AlignmentError(f"{roles[0]} and {roles[1]} must cover the same topics (per-topic "
                             f"improvements pair them); topic(s) {only[:5]} are in one only")


def _ratio(numerator: float, denominator: float, values: np.ndarray) -> float:
    """numerator / denominator, NaN (undefined) when the denominator is 0 within the tie
    tolerance of the scores it comes from."""
    if abs(denominator) <= tie_tolerance(values):
        return float("nan")
    return numerator / denominator


@dataclass(frozen=True)
class Reproducibility(HtmlRepr):
    """ER, ΔRI, RMSE and the t-tests of a reproduced experiment, per measure (module
    documentation). A report: ``to_frame()`` (one row per measure) and ``format(fmt)``.

    ``kind``: ``"reproducibility"`` (the reproduction covers the original topics) or
    ``"replicability"`` (other topics: no RMSE, unpaired tests). ``scores``: the four runs'
    per-topic scores (topics × :attr:`measures`, in the order of :data:`ROLES`), what the
    intervals of the means are computed from."""

    kind: Literal["reproducibility", "replicability"]
    measures: tuple[str, ...]
    topics: int
    reproduced_topics: int
    table: pd.DataFrame
    scores: tuple[pd.DataFrame, ...] = field(default=(), repr=False)

    def to_frame(self, *, interval: MeanInterval | None = None, alpha: float = 0.05,
                 samples: int = 10_000, rng: int | np.random.Generator | None = None
                 ) -> pd.DataFrame:
        """One row per measure; with ``interval`` (``"t"`` or ``"bootstrap"``, ``samples``
        and ``rng`` for the bootstrap), each run's mean followed by its 1 − ``alpha``
        interval over the topics, ``<run>_low, <run>_high`` (module documentation)."""
        frame = self.table.copy()
        if interval is None:
            return frame
        check_interval(interval)
        alpha = check_alpha(alpha)
        if len(self.scores) != len(ROLES):
            raise ParameterError("this result holds no per-topic scores to give intervals "
                                 "of: build it with reproducibility()")
        generator = np.random.default_rng(rng) if interval == "bootstrap" \
            and not isinstance(rng, np.random.Generator) else rng
        groups = [ROLES] if self.kind == "reproducibility" else [ROLES[:2], ROLES[2:]]
        bounds: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for group in groups:  # the runs of one topic set drawn together
            tables = [self.scores[ROLES.index(role)] for role in group]
            low, high = mean_intervals(np.hstack([t.to_numpy() for t in tables]), interval,
                                       alpha=alpha, samples=samples, rng=generator)
            width = len(self.measures)
            for r, role in enumerate(group):
                bounds[role] = (low[r * width:(r + 1) * width], high[r * width:(r + 1) * width])
        for role in reversed(ROLES):  # each after its mean
            at = frame.columns.get_loc(role) + 1
            frame.insert(at, f"{role}_high", bounds[role][1])
            frame.insert(at, f"{role}_low", bounds[role][0])
        return frame

    def effect_intervals(self, samples: int = 1000, *, alpha: float = 0.05,
                         rng: RngArg = None, progress: ProgressArg = False) -> pd.DataFrame:
        """Percentile bootstrap intervals of ER and ΔRI over ``samples`` resamples of the
        topics, seeded by ``rng`` (module documentation): one row per measure, ``ER_low``,
        ``ER_high``, ``delta_RI_low``, ``delta_RI_high`` and ``defined``, the resamples in
        which both were defined (a resample whose original mean improvement or baseline
        mean is 0 has none)."""
        return effect_intervals(self, samples, alpha=alpha, rng=rng, progress=progress)

    def format(self, fmt: Format = "text", *, digits: int = 4,
               interval: MeanInterval | None = None, alpha: float = 0.05,
               samples: int = 10_000, rng: int | np.random.Generator | None = None) -> str:
        """The table (:meth:`to_frame`, with ``interval`` its intervals) as ``text``,
        ``csv``, ``markdown``, ``latex`` or ``json``; undefined ratios (a zero denominator)
        are said in words, never printed as ``nan``."""
        frame = self.to_frame(interval=interval, alpha=alpha, samples=samples, rng=rng)
        if fmt not in ("csv", "json"):
            frame = frame.astype(object).where(frame.notna(), "undefined")
        return format_frame(frame, fmt, digits=digits,
                            title=None if fmt in ("csv", "json") else
                            repr(self) + interval_note("<run>_low, <run>_high", interval,
                                                       alpha, "topics"))

    def __repr__(self) -> str:
        topics = (f"{self.topics} topics" if self.kind == "reproducibility"
                  else f"{self.topics} original / {self.reproduced_topics} reproduced topics")
        return f"Reproducibility({self.kind}, {len(self.measures)} measure(s), {topics})"


@REPRODUCIBILITY
def reproducibility(
    original_baseline: object,
    original_advanced: object,
    reproduced_baseline: object,
    reproduced_advanced: object,
    *,
    measures: Sequence[str] | None = None,
    margin: float | None = None,
) -> Reproducibility:
    """ER, ΔRI, per-topic RMSE and t-tests of a reproduced experiment (Breuer et al. 2020;
    module documentation).

    Parameters
    ----------
    original_baseline, original_advanced, reproduced_baseline, reproduced_advanced
        Per-topic scores of each run: a :class:`~irscale.core.ScoreMatrix` of one system
        (e.g. ``evaluation.to_matrix()`` of one run), a DataFrame (topics × measures), a
        Series, a mapping topic → score or a 1-D array (topics by position).
    measures
        The measures to compare (default: those all four runs have, in the order of the
        original baseline's).
    margin
        The equivalence margin of the TOST of each original run against its reproduction
        (module documentation; None: no equivalence test), in the measure's units.

    Returns
    -------
    Reproducibility
        One row per measure: the four means, ``RI``, ``RI_reproduced``, ``ER``,
        ``delta_RI``, then ``RMSE_baseline``, ``RMSE_advanced``, ``nRMSE_baseline``,
        ``nRMSE_advanced`` (reproducibility only), the p-values ``p_baseline``,
        ``p_advanced`` of the original run against its reproduction and, with ``margin``,
        those of the equivalence tests ``tost_p_baseline``, ``tost_p_advanced``.

    Examples
    --------
    >>> result = reproducibility({"1": 0.2, "2": 0.4}, {"1": 0.3, "2": 0.7},
    ...                          {"1": 0.2, "2": 0.3}, {"1": 0.3, "2": 0.4})
    >>> row = result.to_frame().iloc[0]
    >>> float(round(row["ER"], 4)), float(round(row["delta_RI"], 4))
    (0.5, 0.2667)
    """
    tables = [per_topic_table(s, role) for s, role in zip(
        (original_baseline, original_advanced, reproduced_baseline, reproduced_advanced),
        ROLES, strict=True)]
    _paired(tables[0], tables[1], ROLES[:2])
    _paired(tables[2], tables[3], ROLES[2:])
    common = [m for m in tables[0].columns if all(m in t.columns for t in tables[1:])]
    if measures is None:
        if not common:
            raise AlignmentError("the four runs have no measure in common")
        measures = common
    measures = [str(m) for m in measures]
    for role, t in zip(ROLES, tables, strict=True):
        missing = [m for m in measures if m not in t.columns]
        if missing:
            raise AlignmentError(f"{role} has no scores for {missing}; it has "
                                 f"{list(t.columns)[:8]}")
    topics = list(tables[0].index)
    reproduced = list(tables[2].index)
    same = set(topics) == set(reproduced)
    if same:
        reproduced = topics
    ob, oa = (t.loc[topics] for t in tables[:2])
    rb, ra = (t.loc[reproduced] for t in tables[2:])
    rows = [_measure_row(m, ob[m].to_numpy(), oa[m].to_numpy(), rb[m].to_numpy(),
                         ra[m].to_numpy(), same, margin) for m in measures]
    return Reproducibility(kind="reproducibility" if same else "replicability",
                           measures=tuple(measures), topics=len(topics),
                           reproduced_topics=len(reproduced), table=pd.DataFrame(rows),
                           scores=tuple(t[measures] for t in (ob, oa, rb, ra)))


@EFFECT_INTERVALS
def effect_intervals(result: Reproducibility, samples: int = 1000, *, alpha: float = 0.05,
                     rng: RngArg = None, progress: ProgressArg = False) -> pd.DataFrame:
    """:meth:`Reproducibility.effect_intervals` (checked on entry: :data:`irscale.meta.
    params.EFFECT_INTERVALS`); the resamples drawn :data:`_CHUNK` at a time, the work
    counted in resamples (``progress``: a bool or ``progress(done, total)``)."""
    from ..stats.qpp import defined_percentiles
    from ..stats.resampling import seed_sequence

    if len(result.scores) != len(ROLES):
        raise ParameterError("this result holds no per-topic scores to resample: build it "
                             "with reproducibility()")
    gen = np.random.default_rng(seed_sequence(rng=rng))
    ob, oa, rb, ra = (t.to_numpy() for t in result.scores)  # topics × measures
    report = counted_work(EFFECT_SAMPLES, samples, "the bootstrap of ER and delta RI",
                          progress)
    er_parts, dri_parts, done = [], [], 0
    while done < samples:  # a chunk of resamples at a time (its memory: chunk × topics)
        size = min(_CHUNK, samples - done)
        first = gen.integers(0, len(ob), size=(size, len(ob)))
        second = first if result.kind == "reproducibility" else \
            gen.integers(0, len(rb), size=(size, len(rb)))
        mb, ma = ob[first].mean(axis=1), oa[first].mean(axis=1)  # chunk × measures
        nb, na = rb[second].mean(axis=1), ra[second].mean(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            er_parts.append(np.where(np.abs(ma - mb) > 0, (na - nb) / (ma - mb), np.nan))
            dri_parts.append(np.where((mb != 0) & (nb != 0),
                                      (ma - mb) / mb - (na - nb) / nb, np.nan))
        done += size
        report(done)
    er, dri = np.concatenate(er_parts), np.concatenate(dri_parts)
    frame = pd.DataFrame({"measure": list(result.measures)})
    for name, values in (("ER", er), ("delta_RI", dri)):
        bounds = [defined_percentiles(values[:, m], alpha) for m in range(values.shape[1])]
        frame[f"{name}_low"] = [b[0] for b in bounds]
        frame[f"{name}_high"] = [b[1] for b in bounds]
    frame["defined"] = np.isfinite(er + dri).sum(axis=0)
    none = undefined("fewer than two resamples had a defined ratio (a zero original "
                     "improvement or baseline mean in every other)")
    return declare(frame, {c: none for c in frame.columns if c.endswith(("_low", "_high"))})


def _pvalue(x: np.ndarray, y: np.ndarray, paired: bool) -> float:
    """The two-sided p-value of the original against the reproduced scores; NaN where the
    test has nothing to test (fewer than two topics, or differences without variance, as
    :mod:`irscale.stats` refuses them: a perfect reproduction)."""
    if len(x) < 2 or len(y) < 2:
        return float("nan")
    try:
        return float((paired_t(x, y) if paired else student_t(x, y)).pvalue)
    except InputError:
        return float("nan")


def _nrmse(x: np.ndarray, y: np.ndarray) -> float:
    """repro_eval's nRMSE (module documentation): RMSE(x, y) / sqrt(mean(max(x, 1 − x)²))."""
    largest = np.sqrt(np.mean(np.maximum(x, 1 - x) ** 2))
    return float(np.sqrt(np.mean((x - y) ** 2)) / largest) if largest > 0 else float("nan")


def _tost(x: np.ndarray, y: np.ndarray, paired: bool, margin: float) -> float:
    """The p-value of the two one-sided t-tests of |mean(x − y)| < ``margin`` (paired) or
    |mean x − mean y| < ``margin`` (Student's, unpaired): the larger one-sided p-value; NaN
    where a t-test has nothing to test (fewer than two topics, or no variance)."""
    if len(x) < 2 or len(y) < 2:
        return float("nan")
    test = paired_t if paired else student_t
    try:
        lower = test(x + margin, y, alternative="greater").pvalue
        upper = test(x - margin, y, alternative="less").pvalue
    except InputError:
        return float("nan")
    return float(max(lower, upper))


def _measure_row(measure: str, ob: np.ndarray, oa: np.ndarray, rb: np.ndarray,
                 ra: np.ndarray, same: bool, margin: float | None = None
                 ) -> dict[str, object]:
    """One measure's row of :class:`Reproducibility`."""
    scores = np.concatenate([ob, oa, rb, ra])
    improvement, improvement_r = float(np.mean(oa - ob)), float(np.mean(ra - rb))
    ri = _ratio(float(oa.mean() - ob.mean()), float(ob.mean()), scores)
    ri_r = _ratio(float(ra.mean() - rb.mean()), float(rb.mean()), scores)
    row: dict[str, object] = {
        "measure": measure, "original_baseline": float(ob.mean()),
        "original_advanced": float(oa.mean()), "reproduced_baseline": float(rb.mean()),
        "reproduced_advanced": float(ra.mean()), "RI": ri, "RI_reproduced": ri_r,
        "ER": _ratio(improvement_r, improvement, scores), "delta_RI": ri - ri_r,
    }
    if same:
        row["RMSE_baseline"] = float(np.sqrt(np.mean((ob - rb) ** 2)))
        row["RMSE_advanced"] = float(np.sqrt(np.mean((oa - ra) ** 2)))
        row["nRMSE_baseline"], row["nRMSE_advanced"] = _nrmse(ob, rb), _nrmse(oa, ra)
    row["p_baseline"] = _pvalue(ob, rb, same)
    row["p_advanced"] = _pvalue(oa, ra, same)
    if margin is not None:
        row["tost_p_baseline"] = _tost(ob, rb, same, margin)
        row["tost_p_advanced"] = _tost(oa, ra, same, margin)
    return row


# ------------------------------------------------------------------ document orderings
@dataclass(frozen=True)
class RankingAgreement(HtmlRepr):
    """Kendall's τ and RBO between an original and a reproduced run, topic by topic
    (:func:`ranking_agreement`). A report: ``to_frame()`` (one row per topic) and
    ``format(fmt)``; :attr:`mean` averages each over the topics."""

    depth: int
    p: float
    table: pd.DataFrame

    @property
    def mean(self) -> pd.Series:
        """The mean τ and RBO over the topics."""
        return self.table[["tau", "rbo"]].mean()

    @property
    def ktu(self) -> float:
        """The mean KTU over the topics where it is defined (NaN: none)."""
        values = self.table["ktu"].to_numpy(dtype=np.float64)
        return float(values[np.isfinite(values)].mean()) if np.isfinite(values).any() \
            else float("nan")

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return format_frame(self.to_frame(), fmt, digits=digits,
                            title=None if fmt in ("csv", "json") else repr(self))

    def __repr__(self) -> str:
        tau, overlap = self.mean
        return (f"RankingAgreement({len(self.table)} topics at depth {self.depth}: mean τ "
                f"{tau:.4f}, mean RBO(p={self.p:g}) {overlap:.4f})")


def union_ranks(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray]:
    """Scores of the union of two rankings' documents, one per ranking, for Kendall's τ:
    a document gets minus its rank in a ranking, a document that ranking lacks is tied
    below every document it holds (−(len + 1))."""
    union = list(dict.fromkeys([*a, *b]))
    pos_a = {d: i + 1 for i, d in enumerate(a)}
    pos_b = {d: i + 1 for i, d in enumerate(b)}
    x = np.array([-pos_a.get(d, len(a) + 1) for d in union], dtype=np.float64)
    y = np.array([-pos_b.get(d, len(b) + 1) for d in union], dtype=np.float64)
    return x, y


def ktau_union(a: Sequence[str], b: Sequence[str]) -> float:
    """repro_eval's Kendall's tau Union (module documentation of :func:`ranking_agreement`):
    τ_b of the positions of ``a``'s and of ``b``'s documents in their sorted union, paired
    position by position; NaN where the rankings differ in length (repro_eval stops
    there) or hold fewer than two documents."""
    if len(a) != len(b) or len(a) < 2:
        return float("nan")
    union = {d: i for i, d in enumerate(sorted(set(a) | set(b)))}
    return kendall_tau(np.array([union[d] for d in a], dtype=np.float64),
                       np.array([union[d] for d in b], dtype=np.float64)).tau


@RANKING_AGREEMENT
def ranking_agreement(original: object, reproduced: object, *,
                      depth: int = cast(int, REPRO_DEPTH.default),
                      p: float = cast(float, REPRO_RBO_P.default)) -> RankingAgreement:
    """Kendall's τ and rank-biased overlap between the original and the reproduced
    ranking of every topic (Breuer et al. 2020, §3.1).

    Both runs are ranked as trec_eval ranks them (score descending, then docno descending)
    and cut at ``depth`` documents. **τ (irscale's reading of the paper's "Kendall's τ
    Union")**: over the union of the two rankings' documents, each ranking ranks its own
    documents by position and ties every document it lacks below them; Kendall's τ_b
    (:func:`irscale.stats.kendall.kendall_tau`) of the two orders. It is 1 for identical
    rankings and falls as documents are reordered or replaced. ``repro_eval`` computes its
    τ otherwise (on positions in a sorted union), so the values may differ from its. **RBO**:
    extrapolated rank-biased overlap with persistence ``p`` (:func:`irscale.meta.rbo`;
    the paper reports p = 0.8; ``repro_eval``'s default is p = 0.95, so give ``p=0.95``
    to compare with it). **KTU** (``ktu``): ``repro_eval``'s Kendall's tau Union, the τ_b
    of the positions in the lexicographically sorted union of the two rankings' documents
    of the original's documents against the reproduction's, position by position
    (:func:`ktau_union`); undefined (NaN, left out of the mean) where the two rankings hold
    different numbers of documents at the depth.

    ``original``, ``reproduced``: runs (files or objects, as :func:`irscale.evaluate`
    takes them). The topics are the original run's; a topic the reproduction lacks is an
    error (never dropped), and topics only the reproduction has are not compared (they
    have no original ordering). ``depth`` and ``p`` are checked on entry
    (:data:`irscale.meta.params.RANKING_AGREEMENT`).
    """
    from ..collections.candidates import ranked_candidates

    first = ranked_candidates([original], depth=depth)
    second = ranked_candidates([reproduced], depth=depth)
    missing = sorted(set(first.topics) - set(second.topics))
    if missing:
        raise AlignmentError(f"the reproduced run {second.runs[0]!r} has no ranking for "
                             f"topic(s) {missing[:5]} of the original run {first.runs[0]!r}")
    where = {t: i for i, t in enumerate(second.topics)}
    rows = []
    for t, topic in enumerate(first.topics):
        a, b = _docnos(first, t), _docnos(second, where[topic])
        x, y = union_ranks(a, b)
        tau = kendall_tau(x, y).tau if len(x) > 1 else float("nan")
        rows.append({"topic": topic, "tau": tau, "rbo": rbo(a, b, p).ext,
                     "ktu": ktau_union(a, b)})
    table = declare(pd.DataFrame(rows), {"ktu": undefined(
        "the two rankings hold different numbers of documents at the depth (or fewer than "
        "two): repro_eval's KTU pairs them position by position")})
    return RankingAgreement(depth=depth, p=p, table=table)


def _docnos(cand: Candidates, t: int) -> list[str]:
    """The ranked docnos of topic index ``t`` of a one-run :class:`Candidates`."""
    pairs = cand.pairs[t, 0]
    pairs = pairs[pairs >= 0]
    return [str(d) for d in cand.pair_docno.take(pairs).to_pylist()]


# ------------------------------------------------------------------ several collections
@REPLICABILITY_ACROSS
def replicability_across(experiments: Mapping[str, Sequence[object]], *, measure: str,
                         alpha: float = 0.05) -> pd.DataFrame:
    """Replicability of one experiment on several collections, pooled (module
    documentation): ``experiments`` maps each collection to its four runs' per-topic
    scores ``(original_baseline, original_advanced, replicated_baseline,
    replicated_advanced)`` (as :func:`reproducibility` takes them). One row per collection
    (its ER, ΔRI, D = mean ΔM′ − mean ΔM and its variance), then the row ``pooled``: the
    random-effects estimate of D (REML τ²) with its ``1 − alpha`` interval, τ², I² and the
    prediction interval of D on a new collection (Higgins, Thompson & Spiegelhalter 2009;
    :func:`irscale.stats.random_effects`)."""
    from ..stats import random_effects

    if not isinstance(experiments, Mapping) or len(experiments) < 2:
        raise ParameterError("experiments: a mapping of two collections at least to their "
                             "four runs", param="experiments")
    rows = []
    for name, runs in experiments.items():
        if isinstance(runs, (str, bytes)) or not isinstance(runs, Sequence) or len(runs) != 4:
            raise ParameterError(f"experiments[{name!r}]: expected the four runs (original "
                                 "baseline, original advanced, replicated baseline, "
                                 "replicated advanced)", param="experiments")
        result = reproducibility(*runs, measures=[measure])
        ob, oa, rb, ra = (t[measure].to_numpy() for t in result.scores)
        original, replicated = oa - ob, ra - rb
        if len(original) < 2 or len(replicated) < 2:
            raise InputError(f"collection {name!r}: the variance of a mean improvement "
                             "needs two topics at least on each side")
        row = result.table.iloc[0]
        rows.append({"collection": str(name), "ER": row["ER"], "delta_RI": row["delta_RI"],
                     "D": replicated.mean() - original.mean(),
                     "variance": replicated.var(ddof=1) / len(replicated)
                     + original.var(ddof=1) / len(original)})
    frame = pd.DataFrame(rows)
    if not (frame["variance"] > 0).all():
        name = frame["collection"][~(frame["variance"] > 0)].iloc[0]
        raise InputError(f"collection {name!r}: the improvements are the same on every "
                         "topic (no variance): the meta-analysis cannot weigh it")
    pooled = random_effects(frame["D"].to_numpy(), frame["variance"].to_numpy(), alpha=alpha)
    summary = {"collection": "pooled", "D": float(pooled.effect),
               "ci_low": float(pooled.ci_low), "ci_high": float(pooled.ci_high),
               "pi_low": float(pooled.pi_low), "pi_high": float(pooled.pi_high),
               "tau2": float(pooled.tau2), "i2": float(pooled.i2)}
    frame = pd.concat([frame, pd.DataFrame([summary])], ignore_index=True)
    return declare(frame, {
        **dict.fromkeys(("ER", "delta_RI", "variance"), blank(
            "the pooled row holds D alone; a collection's ER or ΔRI is empty where its "
            "original mean improvement (baseline mean) is 0, the ratio undefined")),
        **dict.fromkeys(("ci_low", "ci_high", "tau2", "i2"), blank(
            "a collection's row holds its own estimate, not the pooled one")),
        **dict.fromkeys(("pi_low", "pi_high"), blank(
            "a collection's row has no prediction interval; the pooled one needs three "
            "collections"))})

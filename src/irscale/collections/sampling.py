"""Sampled judgments: a probability sample of the pool and the statAP estimators.

Instead of judging a whole pool, judge a random sample of it drawn with known inclusion
probabilities, and estimate the measures from the sample (Aslam, Pavlu & Yilmaz, SIGIR
2006, "A statistical method for system evaluation using incomplete judgments"; the statAP
of the TREC Million Query track, Carterette, Pavlu, Kanoulas, Aslam & Allan, SIGIR 2008,
which Sakai (2014) cites for statAP).

The sampling design (:func:`sample_judgments`)
    1. *Sampling distribution* (:func:`sampling_distribution`): every run gives rank k of
       its ranking of Z documents (cut at ``depth``) the AP-prior weight
       w(k) = (1 + 1/k + 1/(k+1) + … + 1/Z) / (2Z) = (1 + H_Z − H_{k−1}) / (2Z)
       (Aslam, Pavlu & Savell 2003; H_n the n-th harmonic number; Σ_k w(k) = 1); a
       document's probability p_d is the mean of its weights over the runs that retrieved
       for the topic (0 where a run did not retrieve it), so Σ_d p_d = 1 per topic.
    2. *Drawing*, per topic, with ``size`` = n:
       ``"with-replacement"`` (default; the 2006 paper samples with replacement): n
       independent draws from p; the distinct documents drawn are judged; the inclusion
       probability of d is π_d = 1 − (1 − p_d)^n.
       ``"poisson"``: every document is included independently with π_d = min(1, c·p_d),
       c chosen so that Σ_d π_d = n (documents whose c·p_d reaches 1 are taken surely and c
       is solved again for the rest): n judgments in expectation.
       ``"stratified"`` (instead of the AP-prior; the stratified sampling of the TREC
       tracks after 2008, Yilmaz, Kanoulas & Aslam 2008): ``strata`` = ((d₁, f₁), (d₂, f₂),
       …) with d₁ < d₂ < …: stratum h holds the documents whose best rank over the runs
       lies in (d_{h−1}, d_h]; n_h = max(1, round(f_h·N_h)) of its N_h documents are drawn
       uniformly without replacement, π_d = n_h / N_h. Documents below d_last are not in
       the population.
       Draws come from one :class:`numpy.random.Generator` (``rng``: a seed or a
       generator): the same seed gives the same sample.

The estimators (:func:`estimate_sampled`), Horvitz–Thompson: with S the sampled documents
of a topic, x_d = 1 when d's degree is ≥ the relevance level, r(d) its rank in the run,

    R̂      = Σ_{d∈S} x_d / π_d
    P̂@k    = (1/k) Σ_{d∈S, r(d)≤k} x_d / π_d
    statAP = (1/R̂) Σ_{d∈S retrieved} (x_d / π_d) · (1/r(d))
                    · (1 + Σ_{d'∈S, r(d')<r(d)} x_{d'} / π_{d'})

(statAP is 0 when R̂ = 0). R̂ and P̂@k are unbiased under any design with the stated
π_d. The numerator of statAP, an estimate of Σ_d x_d·prec@r(d), counts the document
itself once (the 1: it is sampled and relevant) and every document above it with weight
1/π_{d'}: unbiased when inclusions are independent (``"poisson"``, π_dd' = π_d·π_d'),
approximately so with replacement or within strata (there π_dd' differs slightly from
π_d·π_d'). statAP is a ratio of two estimates, hence consistent rather than exactly
unbiased. (For the stratified design these are the Horvitz–Thompson estimates, not
xinfAP's, which estimates AP within strata as infAP does.) With every
π_d = 1 (a complete sample) R̂, P̂@k and statAP are trec_eval's R, P@k and AP.

What could not be checked: the full texts of the papers were not available while this
was written (abstracts and later descriptions only); the AP-prior, the with-replacement
design and the estimators above follow those descriptions, and the ``"poisson"`` design
is irscale's addition (the design under which the statAP numerator is exactly unbiased).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from ..core import identifiers
from ..core.notebook import HtmlRepr
from ..core.options import TiePolicy
from ..core.params import DEFAULT_RELEVANCE_LEVEL, DEPTH
from ..core.progress import declared_memory
from ..core.scaling import binary_exponents
from ..errors import InputError, ParameterError
from ..io.sampled import read_sampled_qrels
from ..io.sources import as_qrels, as_runs
from ..stats.resampling import check_rng
from ..stats.tables import Format
from .candidates import Candidates, ranked_candidates
from .params import DESIGNS as DESIGNS
from .params import ESTIMATE, SAMPLE, SAMPLE_CUTOFFS, SAMPLE_DRAWS, STRATUM_RATE

__all__ = ["DESIGNS", "SampledEstimates", "estimate_sampled", "sample_judgments", "sample_lines",
           "sampling_distribution"]

Design = Literal["with-replacement", "poisson", "stratified"]
#: Peak bytes per draw of the with-replacement design (the uniform draws and the documents
#: they select, topics × size at once).
DRAW_BYTES = 24


def _ap_prior(cand: Candidates) -> np.ndarray:
    """p of every candidate pair: the AP-prior weights averaged over the runs that
    retrieved for its topic (module documentation, step 1)."""
    pairs = cand.pairs[:, :, :-1]
    valid = pairs >= 0
    length = valid.sum(axis=2)  # Z of every (topic, run)
    width = pairs.shape[2]
    harmonic = np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, width + 1))))
    with np.errstate(divide="ignore", invalid="ignore"):
        weight = (1.0 + harmonic[length][:, :, None] - harmonic[None, None, :width]) \
            / (2.0 * length[:, :, None])
        weight /= np.maximum((length > 0).sum(axis=1), 1)[:, None, None]
    return np.bincount(pairs[valid], weights=weight[valid], minlength=cand.n_pairs)


def sampling_distribution(runs: object, *, depth: int | None = None,
                          ties: TiePolicy = "trec_eval",
                          topics: Sequence[str] | None = None) -> pd.DataFrame:
    """The AP-prior sampling distribution: ``topic, docno, p`` for every document of the
    runs (cut at ``depth``), p summing to 1 per topic (module documentation, step 1).

    >>> import pandas as pd
    >>> run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    >>> sampling_distribution({"x": run})["p"].tolist()  # (1 + 1 + 1/2)/4, (1 + 1/2)/4
    [0.625, 0.375]
    """
    cand = ranked_candidates(runs, depth=depth, ties=ties, topics=topics)
    return _frame(cand, np.arange(cand.n_pairs), {"p": _ap_prior(cand)})


def _frame(cand: Candidates, chosen: np.ndarray, columns: dict[str, np.ndarray]
           ) -> pd.DataFrame:
    """``topic, docno, ...`` of the pairs ``chosen``, sorted by topic then docno."""
    frame = pd.DataFrame({
        "topic": np.asarray(cand.topics, dtype=object)[cand.pair_topic[chosen]],
        "docno": np.asarray(identifiers.take(cand.pair_docno, chosen).to_pylist(),
                            dtype=object),
        **{name: values[chosen] for name, values in columns.items()},
    })
    return frame.sort_values(["topic", "docno"], kind="stable").reset_index(drop=True)


def _poisson_probabilities(p: np.ndarray, topic: np.ndarray, n_topics: int,
                           size: int) -> np.ndarray:
    """π = min(1, c_t p) with Σ π = min(size, documents) per topic (step 2, poisson)."""
    counts = np.bincount(topic, minlength=n_topics)
    target = np.minimum(size, counts).astype(np.float64)
    sure = np.zeros(len(p), dtype=bool)
    while True:
        left = target - np.bincount(topic, weights=sure, minlength=n_topics)
        mass = np.bincount(topic, weights=np.where(sure, 0.0, p), minlength=n_topics)
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.where(mass > 0, left / mass, 0.0)
        pi = np.where(sure, 1.0, scale[topic] * p)
        newly = (pi >= 1.0) & ~sure
        if not newly.any():
            return np.minimum(pi, 1.0)
        sure |= newly


def check_strata(strata: object) -> tuple[np.ndarray, np.ndarray]:
    """``((depth, rate), ...)``: depths increasing integers ≥ 1, rates in (0, 1]."""
    try:
        pairs = [(d, r) for d, r in strata]  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise ParameterError(f"strata must be (depth, rate) pairs, got {strata!r}") from None
    if not pairs:
        raise ParameterError("strata: give at least one (depth, rate) pair")
    depths = np.array([DEPTH.check(d, "strata depth") for d, _ in pairs])
    rates = np.array([STRATUM_RATE.check(r, "strata rate") for _, r in pairs])
    if (np.diff(depths) <= 0).any():
        raise ParameterError(f"strata depths must increase, got {depths.tolist()}")
    return depths, rates


def _stratified(cand: Candidates, depths: np.ndarray, rates: np.ndarray,
                generator: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """π of every pair and the pairs drawn (stratified design, module documentation)."""
    pairs = cand.pairs[:, :, :-1]
    valid = pairs >= 0
    best = np.full(cand.n_pairs, np.iinfo(np.int64).max)
    np.minimum.at(best, pairs[valid], np.nonzero(valid)[2] + 1)  # best rank, 1-based
    stratum = np.searchsorted(depths, best, side="left")
    group = cand.pair_topic * len(depths) + stratum
    n_groups = len(cand.topics) * len(depths)
    population = np.bincount(group, minlength=n_groups)
    rate = np.tile(rates, len(cand.topics))
    wanted = np.where(population > 0,
                      np.clip(np.round(rate * population), 1, population), 0).astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        pi = (wanted / population)[group]
    order = np.lexsort((generator.random(cand.n_pairs), group))
    start = np.concatenate(([0], np.cumsum(population)))[:-1]
    position = np.arange(cand.n_pairs) - start[group[order]]
    return pi, np.sort(order[position < wanted[group[order]]])


@SAMPLE
def sample_judgments(
    runs: object,
    size: int | None = None,
    *,
    design: Design = "with-replacement",
    strata: Sequence[tuple[int, float]] | None = None,
    depth: int | None = None,
    rng: object = None,
    qrels: object = None,
    ties: TiePolicy = "trec_eval",
) -> pd.DataFrame:
    """Draw the documents to judge (module documentation): ``topic, docno, prob`` (the
    inclusion probability π), one row per sampled document, by topic then docno.

    ``size``: draws per topic (with replacement) or expected judgments per topic
    (poisson); ``strata`` (stratified design only, instead of ``size`` and ``depth``):
    ``((depth, rate), ...)``; ``depth``: the runs are cut there first; ``rng``: seed or
    generator.
    ``qrels`` (a simulation: the qrels act as the assessor): adds ``rel``, each sampled
    document's degree (0 when the qrels do not judge it), so the frame is a sample
    :func:`estimate_sampled` reads.

    >>> import pandas as pd
    >>> run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    >>> sample_judgments({"x": run}, 2, design="poisson", rng=1)["prob"].tolist()
    [1.0, 1.0]
    """
    # (which of strata, size and depth a design takes: its binding, SAMPLE)
    if design == "stratified":
        depths, rates = check_strata(strata)
        depth, draws_per_topic = int(depths[-1]), 0
    else:
        draws_per_topic = int(size)  # type: ignore[arg-type]
    generator = np.random.default_rng(check_rng(rng))
    oracle = as_qrels(qrels) if qrels is not None else None
    cand = ranked_candidates(runs, depth=depth, ties=ties)
    n_topics = len(cand.topics)
    if design == "stratified":
        pi, chosen = _stratified(cand, depths, rates, generator)
    elif design == "poisson":
        p = _ap_prior(cand)
        pi = _poisson_probabilities(p, cand.pair_topic, n_topics, draws_per_topic)
        chosen = np.flatnonzero(generator.random(cand.n_pairs) < pi)
    else:
        need = DRAW_BYTES * float(n_topics) * draws_per_topic
        declared_memory(SAMPLE_DRAWS, need, f"{draws_per_topic:,} draws (--size, size) for "
                        f"each of {n_topics:,} topics (--design poisson's size costs "
                        "nothing)")
        p = _ap_prior(cand)
        # π = 1 − (1 − p)^n; a topic's only candidate (p = 1) is drawn every time: π = 1
        # (log1p(−1) would be −inf, with numpy's divide-by-zero warning)
        certain = p >= 1.0
        pi = np.ones(len(p))
        pi[~certain] = -np.expm1(draws_per_topic * np.log1p(-p[~certain]))
        start = cand.topic_start
        cumulative = np.cumsum(p)
        base = np.concatenate(([0.0], cumulative))[start[:-1]]
        mass = np.concatenate(([0.0], cumulative))[start[1:]] - base
        draws = base[:, None] + generator.random((n_topics, draws_per_topic)) * mass[:, None]
        drawn = np.searchsorted(cumulative, draws, side="right")
        drawn = np.clip(drawn, start[:-1, None], start[1:, None] - 1)
        chosen = np.unique(drawn)
    columns = {"prob": pi}
    if oracle is not None:
        columns["rel"] = np.maximum(cand.degrees(oracle), 0)
    frame = _frame(cand, chosen, columns)
    return frame[["topic", "docno", "rel", "prob"]] if oracle is not None else frame


@dataclass(frozen=True, eq=False)
class SampledEstimates(HtmlRepr):
    """Result of :func:`estimate_sampled`: ``per_topic``, a tidy table ``run, topic,
    measure, value`` (measures ``statAP``, ``statR``, ``statP@k``), for the topics each
    run retrieved documents for and the sample covers."""

    per_topic: pd.DataFrame
    measures: tuple[str, ...]

    def mean(self) -> pd.DataFrame:
        """Runs × measures: the mean over each run's topics."""
        table = self.per_topic.pivot_table(index="run", columns="measure", values="value",
                                           aggfunc="mean", sort=False)
        return table[list(self.measures)]

    def to_frame(self) -> pd.DataFrame:
        return self.per_topic.copy()

    def format(self, fmt: Format = "text", *, digits: int = 4, per_topic: bool = False
               ) -> str:
        from ..meta.common import format_frame

        if per_topic:
            return format_frame(self.per_topic, fmt, digits=digits)
        return format_frame(self.mean().reset_index(), fmt, digits=digits)

    def __repr__(self) -> str:
        runs = self.per_topic["run"].nunique()
        topics = self.per_topic["topic"].nunique()
        return f"SampledEstimates({runs} runs, {topics} topics, {', '.join(self.measures)})"


def sample_lines(sample: pd.DataFrame) -> list[str]:
    """The lines of a :func:`sample_judgments` sample: ``topic docno prob`` (the documents
    to judge) or, judged by qrels (a ``rel`` column), ``topic 0 docno rel prob``, what
    :func:`estimate_sampled` reads; ``prob`` is the shortest text of the float that reads
    back exactly."""
    prob = pd.Series([repr(float(v)) for v in sample["prob"]], index=sample.index)
    if "rel" not in sample:
        return (sample["topic"] + " " + sample["docno"] + " " + prob).tolist()
    return (sample["topic"] + " 0 " + sample["docno"] + " " + sample["rel"].astype(str)
            + " " + prob).tolist()


def _unscaled(values: np.ndarray, exponent: np.ndarray, name: str,
              topics: Sequence[str]) -> np.ndarray:
    """topics × runs ``values`` times 2^``exponent`` of their topic; an
    :class:`InputError` naming the topic where a double cannot hold the product."""
    with np.errstate(over="ignore"):
        out = np.ldexp(values, exponent[:, None])
    beyond = ~np.isfinite(out)
    if beyond.any():
        topic = topics[int(np.nonzero(beyond)[0][0])]
        raise InputError(f"{name} of topic {topic!r} is beyond the range of a double "
                         "(1.8e308): its inclusion probabilities are too small")
    return out


@ESTIMATE
def estimate_sampled(
    sample: object,
    runs: object,
    *,
    cutoffs: int | Sequence[int] = SAMPLE_CUTOFFS,
    relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
    ties: TiePolicy = "trec_eval",
) -> SampledEstimates:
    """statAP, R̂ and P̂@k of every run from sampled judgments (module documentation).

    ``sample``: a ``topic 0 docno rel prob`` file or a frame (:func:`irscale.io.sampled.
    read_sampled_qrels`); ``runs``: run files or objects (ranked by ``ties``, whole
    rankings as trec_eval evaluates them); ``cutoffs``: the k of P̂@k.

    >>> import pandas as pd
    >>> sample = pd.DataFrame({"topic": "1", "docno": ["a", "c"], "rel": [1, 1],
    ...                        "prob": [0.5, 0.25]})
    >>> run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c"],
    ...                     "score": [3.0, 2.0, 1.0]})
    >>> estimate_sampled(sample, {"x": run}, cutoffs=[2]).mean().round(4).to_dict("records")
    [{'statAP': 1.0, 'statR': 6.0, 'statP@2': 1.0}]

    (R̂ = 2 + 4; P̂@2 = 2/2; statAP = (2·1/1 + 4·(1 + 2)/3)/6.)
    """
    levels = list(cutoffs)  # type: ignore[arg-type]  # a list once bound (ESTIMATE)
    frame = read_sampled_qrels(sample)
    run_list = as_runs(runs, keep_rank=ties == "rank-column")
    topics = sorted(set(frame["topic"]))
    cand = ranked_candidates(run_list, ties=ties, topics=topics)
    weight_of_row = (frame["rel"].to_numpy() >= relevance_level) / frame["prob"].to_numpy()
    topic_index = pd.Index(topics)
    topic_of_row = topic_index.get_indexer(frame["topic"])
    # weights 1/π divided by a power of 2 per topic, 2^e (irscale.core.scaling): the
    # estimates, sums of weights and of products of two, are 2^e times sums of numbers
    # below the number of documents, exactly, whatever π (down to 2.2e-308)
    exponent = binary_exponents(weight_of_row, topic_of_row, len(topics))
    weight_of_row = np.ldexp(weight_of_row, -exponent[topic_of_row])
    r_hat = np.bincount(topic_of_row, weights=weight_of_row, minlength=len(topics))
    mine = pd.DataFrame({"topic": np.asarray(cand.topics, dtype=object)[cand.pair_topic],
                         "docno": cand.pair_docno.to_numpy()})
    hit = mine.reset_index().merge(frame.assign(w=weight_of_row), on=["topic", "docno"])
    pair_weight = np.zeros(cand.n_pairs + 1)  # the last entry: past a ranking's end
    pair_weight[hit["index"].to_numpy()] = hit["w"].to_numpy()
    pairs = cand.pairs[:, :, :-1]
    weight = pair_weight[pairs]  # -1 reads the trailing 0
    length = (pairs >= 0).sum(axis=2)
    width = pairs.shape[2]
    cumulative = np.cumsum(weight, axis=2)
    above = cumulative - weight  # Σ over the sampled documents above
    rank = np.arange(1, width + 1)
    one = np.ldexp(1.0, -exponent)[:, None, None]  # 1, scaled as the weights
    numerator = np.where(weight > 0, weight * (one + above) / rank, 0.0).sum(axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        stat_ap = np.where(r_hat[:, None] > 0, numerator / r_hat[:, None], 0.0)
    values = {"statAP": stat_ap, "statR": np.broadcast_to(r_hat[:, None], stat_ap.shape)}
    total = np.concatenate((np.zeros((*stat_ap.shape, 1)), cumulative), axis=2)
    for k in levels:
        # a float divisor: an int beyond int64 would make numpy 1.x divide object arrays
        values[f"statP@{k}"] = total[:, :, min(k, width)] / float(k)
    values = {name: _unscaled(array, exponent, name, topics) for name, array in values.items()}
    t_index, r_index = np.nonzero(length > 0)
    if len(t_index) == 0:
        raise InputError("the runs retrieve no document for any topic of the sample")
    per_topic = pd.concat([pd.DataFrame({
        "run": np.asarray(cand.runs, dtype=object)[r_index],
        "topic": np.asarray(cand.topics, dtype=object)[t_index],
        "measure": name, "value": array[t_index, r_index]}) for name, array in values.items()],
        ignore_index=True)
    order = np.lexsort((per_topic["topic"].map(topic_index.get_loc),
                        per_topic["measure"].map(list(values).index),
                        per_topic["run"].map(cand.runs.index)))
    return SampledEstimates(per_topic=per_topic.iloc[order].reset_index(drop=True),
                            measures=tuple(values))

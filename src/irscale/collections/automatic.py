"""Evaluation with automatic relevance judgments, checked and corrected with human ones.

Automatic judgments (an LLM's labels, say: Thomas, Spielman, Craswell and Mitra, "Large
language models can accurately predict searcher preferences", SIGIR 2024; Faggioli et al.,
"Perspectives on large language models for relevance judgment", ICTIR 2023) arrive as qrels
of every topic; human judgments as qrels of a sample of the same topics. irscale calls no
model.

**The design.** The unit is the topic: the human qrels judge a sample of ``n`` of the ``n +
N`` topics of the automatic qrels, drawn uniformly at random (the assumption behind every
interval below; a topic of the human qrels that the automatic qrels lack is an error). For a
run and a measure with per-topic values, ``Y_t`` is the topic's value under the human
judgments (known on the ``n`` labelled topics ``L``) and ``Ŷ_t`` its value under the
automatic judgments (known on every topic; ``U`` the ``N`` others). A topic a run does not
retrieve counts 0, as trec_eval's ``-c`` counts it. (Human samples of (topic, document)
pairs, ``design`` ≠ ``"topics"``: :mod:`irscale.collections.automatic_pairs`.)

**Prediction-powered inference** (Angelopoulos, Bates, Fannjiang, Jordan and Zrnic,
"Prediction-powered inference", *Science* 382, 2023; with power tuning, PPI++:
Angelopoulos, Duchi and Zrnic, arXiv:2311.01453, 2023). The estimate of the mean of ``Y``
over topics is the automatic mean on ``U`` corrected by the error measured on ``L``::

    θ̂_λ = λ · mean_U(Ŷ) + mean_L(Y − λ·Ŷ)
    θ̂_λ ± z_{1−α/2} · sqrt(λ² · var_U(Ŷ) / N + var_L(Y − λ·Ŷ) / n)

(variances with divisor the count, ``z`` the normal quantile). ``λ = 1`` is PPI; PPI++
chooses ``λ̂ = cov_L(Y, Ŷ) / ((1 + n/N) · var_{L∪U}(Ŷ))`` (the covariance with divisor
``n``, the variance of every automatic value with divisor ``n + N − 1``), clipped to
``[0, 1]``; ``λ = 0`` is the classical estimate from the human sample alone, ``mean_L(Y) ±
z · sqrt(var_L(Y) / n)``, reported beside the corrected one so that what the automatic
judgments bought is seen (the width of the two intervals). The difference of two runs is
the mean of the per-topic differences, estimated the same way. These are ppi-python's
``ppi_mean_pointestimate`` and ``ppi_mean_ci`` (the authors' library), the oracle of the
tests.

**Label probabilities** (``label_probabilities=True``). The automatic qrels may give each
pair a distribution over the grades (``topic iter docno rel prob``, one line a grade:
:mod:`irscale.io.label_probs`). The automatic label of a pair is then its most probable
grade (the lower on a tie: the agreement, the confusion matrix and the strata use it), and
the automatic values are the measures' **expected values** under the distributions, the
pairs' grades independent: for a measure that is a sum over the ranked documents of a
weight of the rank times a gain of the grade (``P@k``, ``DCG@k``, ``RBP``; the
contributions of :mod:`irscale.collections.automatic_pairs`), ``E[M_t] = Σ_d w(rank_d) ·
Σ_k P_d(k)·g(k)`` exactly; for other measures (AP, nDCG: ratios, whose expectation is
not a sum of the documents') with a sample of topics, the mean of the measure over
``draws`` draws of every pair's grade from its distribution (a Monte Carlo estimate: its
error adds to that of the prediction, not to the bias of the corrected estimate); the
document-level designs take sums only. Prediction-powered inference takes any prediction
of ``Y`` made without the human labels (Angelopoulos et al. 2023): its intervals keep their
coverage whatever the probabilities, and they are narrower as the error ``Y − Ŷ`` is
smaller, which the expected value of calibrated probabilities makes it (the most probable
grade may do as well with probabilities that are not; docs/collections.md §7 measures
both).

**Agreement.** Label level: the (topic, document) pairs both qrels judge, Cohen's κ and
Krippendorff's α (:func:`irscale.collections.qrels_agreement`) and the confusion matrix of
the grades. System level, on the labelled topics (each ranking of the systems by its mean
over the same topics): Kendall's τ_b, τ_ap (Yilmaz, Aslam and Robertson 2008) and RBO (p =
0.9; Webber, Moffat and Zobel 2010) between the human and the automatic rankings, the
largest swap (the pair of runs the two order differently whose human means differ most),
and the pairs a paired t-test finds significantly different (level ``alpha``) under each
set of judgments and under both in the same direction.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..core.numbers import blank, declare
from ..core.params import DEFAULT_RELEVANCE_LEVEL, check_alpha
from ..core.ppi_means import normal_interval
from ..core.progress import ProgressArg, check_progress, progress_reporter
from ..errors import AlignmentError, InputError, ParameterError
from ..io.sources import as_qrels, as_runs
from ..stats.kendall import NOTHING_TO_RANK
from ..stats.protocol import Estimate
from ..stats.resampling import check_rng
from .automatic_pairs import PairDesign, human_sample, sampled_mean
from .params import AUTO_DRAWS, AUTO_SEED, AUTOMATIC, DEFAULT_LABEL_DRAWS

if TYPE_CHECKING:  # pragma: no cover
    from ..stats.tables import Format

Tuning = Literal["ppi++", "ppi", "classical"]
Design = Literal["topics", "uniform", "stratified", "inclusion"]


class MeanEstimate(Estimate):
    """A mean (or a difference of means) estimated from a human sample: the estimate (the
    ``float`` itself, also ``estimate``), its ``1 − alpha`` interval (``low``, ``high``) and
    the λ used (``lam``; module documentation); it unpacks as ``estimate, low, high, lam``.
    """

    _fields = ("low", "high", "lam")
    # the fields, set by Estimate.__new__ (declarations only, for type checkers)
    low: float
    high: float
    lam: float

    def __iter__(self) -> Iterator[float]:
        return iter((float(self), self.low, self.high, self.lam))


def _values(values: Sequence[float] | np.ndarray, name: str) -> np.ndarray:
    """``values`` as a vector of finite floats, or an error naming the argument."""
    try:
        vector = np.asarray(values, dtype=np.float64).ravel()
    except (TypeError, ValueError) as error:
        raise ParameterError(f"{name}: expected numbers, got {values!r:.60}") from error
    if vector.size and not np.isfinite(vector).all():
        raise InputError(f"{name}: the values of a prediction-powered estimate must be "
                         "finite")
    return vector


def ppi_mean(y: Sequence[float] | np.ndarray, yhat: Sequence[float] | np.ndarray,
             yhat_unlabeled: Sequence[float] | np.ndarray, *, alpha: float = 0.05,
             tuning: Tuning = "ppi++") -> MeanEstimate:
    """The prediction-powered estimate of the mean of ``y`` (module documentation).

    Parameters
    ----------
    y, yhat : array_like
        The human values of the ``n`` labelled units and the automatic values of the same.
    yhat_unlabeled : array_like
        The automatic values of the ``N`` other units.
    alpha : float
        The interval's level is ``1 − alpha``.
    tuning : {"ppi++", "ppi", "classical"}
        λ estimated (PPI++), 1 (PPI) or 0 (the human sample alone).

    Examples
    --------
    >>> est = ppi_mean([0.5, 0.25, 0.75], [0.4, 0.3, 0.7], [0.6, 0.2, 0.5, 0.4], tuning="ppi")
    >>> round(est.estimate, 4), round(est.low, 4), round(est.high, 4)
    (0.4583, 0.2971, 0.6195)
    """
    alpha = check_alpha(alpha)
    if tuning not in ("ppi++", "ppi", "classical"):
        raise ParameterError(f"tuning must be 'ppi++', 'ppi' or 'classical', got {tuning!r}")
    y, yhat, rest = (_values(v, name) for v, name in ((y, "y"), (yhat, "yhat"),
                                                      (yhat_unlabeled, "yhat_unlabeled")))
    if len(y) != len(yhat):
        raise ParameterError(f"y and yhat: one automatic value per human value, got {len(y)} "
                             f"and {len(yhat)}")
    if len(y) < 2 or len(rest) < 1:
        raise InputError(f"a prediction-powered estimate needs 2 labelled units and 1 other at "
                         f"least, got {len(y)} and {len(rest)}")
    return _interval(*sampled_mean(y, yhat, rest, "uniform", tuning=tuning), alpha)


def _interval(estimate: float, se: float, lam: float, alpha: float) -> MeanEstimate:
    """``estimate ± z_{1−α/2}·se`` (:func:`~irscale.core.ppi_means.normal_interval`)."""
    low, high = normal_interval(estimate, se, alpha)
    return MeanEstimate(estimate, low=low, high=high, lam=lam)


@dataclass(frozen=True)
class AutomaticJudgmentsResult(HtmlRepr):
    """What :func:`automatic_judgments` finds (module documentation).

    ``estimates``: one row a measure and run (``kind`` ``mean``) or pair of runs (``kind``
    ``difference``, ``a − b``): ``automatic`` (the mean over every topic under the
    automatic judgments), ``human`` with ``human_low``/``human_high`` (the labelled topics
    alone), ``ppi`` with ``ppi_low``/``ppi_high`` and ``lam``, and ``labelled``/``others``
    (n, N). ``labels``: the label-level agreement (one row); ``confusion``: the grades'
    confusion matrix (automatic grades as rows, human as columns); ``systems``: the
    system-level agreement, one row a measure.
    """

    estimates: pd.DataFrame
    labels: pd.DataFrame
    confusion: pd.DataFrame
    systems: pd.DataFrame
    alpha: float
    tuning: str

    def to_frame(self) -> pd.DataFrame:
        """The estimates (one row a measure and run or pair)."""
        return self.estimates

    def conclusions(self) -> pd.DataFrame:
        """Which order of every pair of runs each source of judgments supports: one row a
        measure and pair (``pairs=True``), ``human`` (the human sample's interval),
        ``corrected`` (the prediction-powered interval), ``automatic`` (the sign of the
        automatic means' difference, which has no interval), each ``a > b``, ``a < b`` or
        ``undecided`` (the interval holds 0; ``tie`` for equal automatic means), and
        ``changed``: the corrected conclusion differs from the human sample's."""
        rows = []
        for row in self.estimates[self.estimates["kind"] == "difference"].itertuples():
            a, b = str(row.system).split(" − ", 1)
            human = _decided(row.human_low, row.human_high, a, b)
            corrected = _decided(row.ppi_low, row.ppi_high, a, b)
            auto = f"{a} > {b}" if row.automatic > 0 else \
                f"{a} < {b}" if row.automatic < 0 else "tie"
            rows.append({"measure": row.measure, "pair": row.system, "human": human,
                         "corrected": corrected, "automatic": auto,
                         "changed": corrected != human})
        return pd.DataFrame(rows, columns=["measure", "pair", "human", "corrected",
                                           "automatic", "changed"])

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The four tables as ``fmt`` (``text``, ``markdown``, ``latex``, ``csv``: the
        estimates; ``json``: every table)."""
        from ..io.formats import TABLE_FORMATS, check_format
        from ..stats.protocol import format_table

        check_format(fmt, TABLE_FORMATS, "automatic judgments")
        if fmt == "csv":
            return format_table(self.estimates, "csv")
        if fmt == "json":
            from ..stats.tables import json_text, records

            return json_text({name: records(getattr(self, name), name)
                              for name in ("estimates", "labels", "confusion", "systems")},
                             indent=2)
        level = f"{100 * (1 - self.alpha):g}%"
        parts = [
            format_table(self.estimates, fmt, digits=digits,
                         title=f"Means corrected with the human sample ({self.tuning}, "
                         f"{level} intervals)"),
            format_table(self.labels, fmt, digits=digits,
                         title="Agreement of the labels both judge"),
            format_table(self.confusion.reset_index(), fmt, digits=digits,
                         title="Confusion of the grades (automatic rows, human columns)"),
            format_table(self.systems, fmt, digits=digits,
                         title="Agreement of the system rankings on the labelled topics"),
        ]
        return "\n\n".join(parts)


def _decided(low: float, high: float, a: str, b: str) -> str:
    """The order of ``a`` and ``b`` an interval of ``a − b`` supports."""
    return f"{a} > {b}" if low > 0 else f"{a} < {b}" if high < 0 else "undecided"


def _per_topic(qrels: Any, runs: list[Any], measures: Sequence[str], topics: list[str],
               relevance_level: int, *, sample: bool = False) -> tuple[np.ndarray, list[str]]:
    """topics × runs × measures values of ``runs`` under ``qrels`` on ``topics`` (a topic a
    run does not retrieve: 0, as trec_eval -c counts it), and the measures' labels;
    ``sample``: ``qrels`` judge a sample of the runs' topics (the others left out in
    silence)."""
    import warnings

    from ..evaluation import evaluate

    with warnings.catch_warnings():  # the human qrels judge a sample of the topics: the
        # runs' other topics are left out by design
        if sample:
            warnings.filterwarnings("ignore", message=r".*with results but no judgments")
        matrix = evaluate(qrels, runs, list(measures), relevance_level=relevance_level,
                          complete=True).to_matrix(allow_missing=True)
    row = {topic: i for i, topic in enumerate(matrix.topics)}
    values = np.zeros((len(topics), matrix.n_systems, len(matrix.measures)))
    for i, topic in enumerate(topics):
        if topic in row:
            values[i] = np.nan_to_num(matrix.values[row[topic]], nan=0.0)
    return values, list(matrix.measures)


def _confusion(automatic: Any, human: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The label-level agreement (the ``all`` row of :func:`qrels_agreement`) and the
    confusion matrix of the pairs both judge."""
    from .agreement import _qrels_frame, qrels_agreement

    table, _ = qrels_agreement(automatic, human)
    both = _qrels_frame(automatic).merge(_qrels_frame(human), on=["topic", "docno"],
                                         suffixes=("_automatic", "_human"))
    confusion = pd.crosstab(both["rel_automatic"], both["rel_human"])
    confusion.index.name = "automatic"
    confusion.columns = [f"human={c}" for c in confusion.columns]
    return table.tail(1).reset_index(drop=True), confusion


def _system_agreement(human: np.ndarray, auto: np.ndarray, names: list[str],
                      measures: list[str], alpha: float) -> pd.DataFrame:
    """One row a measure: τ_b, τ_ap, RBO, the largest swap and the significant pairs
    (module documentation), from the labelled topics' values (topics × runs × measures)."""
    from scipy.stats import ttest_rel

    from ..meta.rank_correlation import rbo_scores, tau_ap
    from ..stats.kendall import kendall_tau

    pairs = list(itertools.combinations(range(len(names)), 2))
    first, second = (np.array([p[k] for p in pairs], dtype=np.intp) for k in (0, 1))
    rows = []
    for m, measure in enumerate(measures):
        h_mean, a_mean = human[:, :, m].mean(axis=0), auto[:, :, m].mean(axis=0)
        h_diff, a_diff = h_mean[first] - h_mean[second], a_mean[first] - a_mean[second]
        swapped = np.flatnonzero(np.sign(h_diff) * np.sign(a_diff) < 0)
        worst = swapped[np.argmax(np.abs(h_diff[swapped]))] if len(swapped) else None
        with np.errstate(invalid="ignore", divide="ignore"):
            h_p = ttest_rel(human[:, first, m], human[:, second, m], axis=0).pvalue
            a_p = ttest_rel(auto[:, first, m], auto[:, second, m], axis=0).pvalue
        h_sig, a_sig = np.nan_to_num(h_p, nan=1.0) < alpha, np.nan_to_num(a_p, nan=1.0) < alpha
        rows.append({
            "measure": measure,
            "tau": float(kendall_tau(h_mean, a_mean).tau),
            "tau_ap": float(tau_ap(a_mean, h_mean)),
            "rbo": float(rbo_scores(h_mean, a_mean).ext),
            "swaps": len(swapped),
            "largest_swap": "" if worst is None else
            f"{names[first[worst]]} vs {names[second[worst]]}",
            "largest_swap_human_diff": float("nan") if worst is None else
            float(abs(h_diff[worst])),
            "significant_human": int(h_sig.sum()),
            "significant_automatic": int(a_sig.sum()),
            "significant_both": int((h_sig & a_sig & (np.sign(h_diff) == np.sign(a_diff))
                                     ).sum()),
        })
    return declare(pd.DataFrame(rows), {
        **dict.fromkeys(("tau", "tau_ap", "rbo"), NOTHING_TO_RANK),
        "largest_swap_human_diff": blank("no pair of runs is ordered differently")})


def _columns(measures: list[str], names: list[str], pairs: bool
             ) -> list[tuple[str, str, str, Callable[[np.ndarray], np.ndarray]]]:
    """``measure, system, kind`` of every row of the estimates, and how to take its values
    from an array ``(units × runs × measures)``: one run's, or the difference of two."""
    rows: list[tuple[str, str, str, Callable[[np.ndarray], np.ndarray]]] = []
    for m, measure in enumerate(measures):
        for r, name in enumerate(names):
            rows.append((measure, name, "mean", partial(_run_values, run=r, measure=m)))
        if pairs:
            for a, b in itertools.combinations(range(len(names)), 2):
                rows.append((measure, f"{names[a]} − {names[b]}", "difference",
                             partial(_difference, first=a, second=b, measure=m)))
    return rows


def _run_values(values: np.ndarray, run: int, measure: int) -> np.ndarray:
    return values[:, run, measure]


def _difference(values: np.ndarray, first: int, second: int, measure: int) -> np.ndarray:
    return values[:, first, measure] - values[:, second, measure]


def _label_distribution(source: Any) -> tuple[Any, pd.DataFrame]:
    """Automatic judgments with label probabilities (module documentation): the qrels of
    every pair's most probable grade (the lower on a tie) and the lines ``topic, docno,
    rel, prob``."""
    from ..io.label_probs import read_label_probabilities

    lines = read_label_probabilities(source)
    likeliest = lines.sort_values(["prob", "rel"], ascending=[False, True], kind="mergesort"
                                  ).drop_duplicates(["topic", "docno"]).sort_index()
    return as_qrels(pd.DataFrame({"query_id": likeliest["topic"], "doc_id": likeliest["docno"],
                                  "relevance": likeliest["rel"]})), lines


def _probabilities(lines: pd.DataFrame, auto: pd.DataFrame, grades: Sequence[int]
                   ) -> np.ndarray:
    """Rows of ``auto`` (topic, docno) × ``grades`` (ascending): each pair's probability of
    each grade (``lines`` of :func:`_label_distribution`)."""
    row = pd.MultiIndex.from_frame(auto[["topic", "docno"]]).get_indexer(
        pd.MultiIndex.from_frame(lines[["topic", "docno"]]))
    table = np.zeros((len(auto), len(grades)))
    np.add.at(table, (row, np.searchsorted(np.asarray(grades), lines["rel"].to_numpy())),
              lines["prob"].to_numpy())
    return table


def _auto_frame(auto_qrels: Any) -> pd.DataFrame:
    """The automatic qrels as ``topic, docno, rel``."""
    return pd.DataFrame({"topic": auto_qrels.topic.to_pylist(),
                         "docno": auto_qrels.docno.to_pylist(),
                         "rel": np.asarray(auto_qrels.rel)})


def _expected_values(auto_qrels: Any, lines: pd.DataFrame, run_list: list[Any],
                     names: list[str], measures: list[str], topics: list[str],
                     values: np.ndarray, relevance_level: int, draws: int, rng: Any,
                     progress: ProgressArg = False) -> np.ndarray:
    """topics × runs × measures: every measure's expected value under the label
    probabilities (module documentation): exact for the sums over the ranked documents
    (``values``: the measures under the most probable grades, which tell them), the mean
    over ``draws`` draws of every pair's grade otherwise (``names``: the measures asked
    for, whose labels are ``measures``), each draw an evaluation of every run, its
    ``progress`` shown and the time of the rest stated when long
    (:func:`~irscale.core.progress.progress_reporter`)."""
    from .automatic_pairs import contributions, is_linear

    auto = _auto_frame(auto_qrels)
    grades = sorted(set(auto["rel"].tolist()) | set(lines["rel"].tolist()))
    probabilities = _probabilities(lines, auto, grades)
    topic_of = pd.Index(topics).get_indexer(auto["topic"])
    expected = np.zeros_like(values)
    drawn = []
    for m, measure in enumerate(measures):
        table, sums = contributions(auto, run_list, measure, topics, relevance_level, grades)
        if not is_linear(values[:, :, m], sums):
            drawn.append(m)
            continue
        mean = (table * probabilities[:, None, :]).sum(axis=2) * len(topics)
        for s in range(len(run_list)):
            expected[:, s, m] = np.bincount(topic_of, weights=mean[:, s],
                                            minlength=len(topics))
    if drawn:
        generator = np.random.default_rng(rng)
        cumulative = probabilities.cumsum(axis=1)
        total = np.zeros_like(values)
        report = progress_reporter(progress, draws, "label draws", units=AUTO_DRAWS)
        for done in range(1, draws + 1):
            column = (generator.random(len(auto))[:, None] > cumulative).sum(axis=1)
            grade = np.asarray(grades)[np.minimum(column, len(grades) - 1)]
            qrels = as_qrels(pd.DataFrame({"query_id": auto["topic"], "doc_id": auto["docno"],
                                           "relevance": grade}))
            total += _per_topic(qrels, run_list, names, topics, relevance_level)[0]
            report(done)
        expected[:, :, drawn] = total[:, :, drawn] / draws
    return expected


def _pair_design(auto_qrels: Any, human: Any, run_list: list[Any], measures: list[str], *,
                 alpha: float, tuning: str, pairs: bool, relevance_level: int,
                 design: PairDesign, lines: pd.DataFrame | None = None
                 ) -> AutomaticJudgmentsResult:
    """:func:`automatic_judgments` with a sample of (topic, document) pairs
    (:mod:`irscale.collections.automatic_pairs`); ``lines``: the label probabilities
    (:func:`_label_distribution`), whose expected contributions are then the
    predictions."""
    from .automatic_pairs import (
        InclusionOverflow,
        check_pairs,
        pair_contributions,
        refuse_overflow,
    )

    sample, prob, located = human_sample(human, design)
    auto = _auto_frame(auto_qrels)
    where = check_pairs(sample, auto)
    if len(where) >= len(auto) and design != "inclusion":
        raise InputError("the human qrels judge every pair of the automatic qrels: there is "
                         "nothing left to the automatic judgments")
    topics = list(dict.fromkeys(auto["topic"]))
    human_topics = list(dict.fromkeys(sample["topic"]))
    auto_values, measures_out = _per_topic(auto_qrels, run_list, measures, topics,
                                           relevance_level)
    grades = sorted(set(auto["rel"].tolist()) | set(sample["rel"].tolist())
                    | (set() if lines is None else set(lines["rel"].tolist())))
    probabilities = None if lines is None else _probabilities(lines, auto, grades)
    grade_of = {k: j for j, k in enumerate(grades)}
    human_column = np.array([grade_of[k] for k in sample["rel"]], dtype=np.intp)
    auto_column = np.array([grade_of[k] for k in auto["rel"]], dtype=np.intp)
    scale = 1.0 if design == "inclusion" else float(len(auto))  # c_p, or z_p = P·c_p
    # units (pairs) × runs × measures, the human grades on the sample, automatic ones
    shape = (len(where), len(run_list), len(measures_out))
    y, yhat = np.zeros(shape), np.zeros(shape)
    every = np.zeros((len(auto), len(run_list), len(measures_out)))
    for m, measure in enumerate(measures_out):
        values = pair_contributions(auto, run_list, measure, topics, auto_values[:, :, m],
                                    relevance_level, grades) * scale
        every[:, :, m] = (
            np.take_along_axis(values, auto_column[:, None, None], axis=2)[:, :, 0]
            if probabilities is None else (values * probabilities[:, None, :]).sum(axis=2))
        y[:, :, m] = np.take_along_axis(values[where], human_column[:, None, None],
                                        axis=2)[:, :, 0]
        yhat[:, :, m] = every[where, :, m]
    stratum = auto["rel"].to_numpy()
    rows: list[dict[str, Any]] = []
    for measure, system, kind, select in _columns(measures_out, [r.name for r in run_list],
                                                  pairs):
        ys, yhats, alls = select(y), select(yhat), select(every)
        try:
            found = {name: _interval(*sampled_mean(ys, yhats, alls, design,
                                                   stratum=stratum[where],
                                                   stratum_all=stratum, prob=prob,
                                                   tuning=name), alpha)
                     for name in ("classical", tuning)}
        except InclusionOverflow as overflow:
            assert located is not None
            raise refuse_overflow(overflow, located) from None
        classical, corrected = found["classical"], found[tuning]
        rows.append({
            "measure": measure, "system": system, "kind": kind,
            "automatic": float(alls.sum()) if design == "inclusion" else float(alls.mean()),
            "human": classical.estimate, "human_low": classical.low,
            "human_high": classical.high, "ppi": corrected.estimate,
            "ppi_low": corrected.low, "ppi_high": corrected.high, "lam": corrected.lam,
            "labelled": len(where), "others": len(auto) - len(where)})
    human_qrels = as_qrels(pd.DataFrame({"query_id": sample["topic"], "doc_id": sample["docno"],
                                         "relevance": sample["rel"]}))
    judged = auto.iloc[np.sort(where)]
    auto_judged = as_qrels(pd.DataFrame({"query_id": judged["topic"], "doc_id": judged["docno"],
                                         "relevance": judged["rel"]}))
    h_values, _ = _per_topic(human_qrels, run_list, measures, human_topics, relevance_level,
                             sample=True)
    a_values, _ = _per_topic(auto_judged, run_list, measures, human_topics, relevance_level,
                             sample=True)
    labels, confusion = _confusion(auto_qrels, human_qrels)
    systems = _system_agreement(h_values, a_values, [r.name for r in run_list], measures_out,
                                alpha)
    return AutomaticJudgmentsResult(pd.DataFrame(rows), labels, confusion, systems, alpha,
                                    tuning)


@AUTOMATIC
def automatic_judgments(automatic: Any, human: Any, runs: Any, measures: str | Sequence[str],
                        *, alpha: float = 0.05, tuning: Tuning = "ppi++",
                        pairs: bool = False,
                        relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                        design: Design = "topics", label_probabilities: bool = False,
                        draws: int = DEFAULT_LABEL_DRAWS,
                        rng: object = AUTO_SEED.default, progress: ProgressArg = False
                        ) -> AutomaticJudgmentsResult:
    """Automatic judgments checked and corrected with a human sample of topics (module
    documentation).

    Parameters
    ----------
    automatic : qrels (path, Qrels, DataFrame, dict), or label probabilities
        The automatic judgments of every topic; with ``label_probabilities``, a
        ``topic iter docno rel prob`` file or frame of every pair's grades with their
        probabilities (:mod:`irscale.io.label_probs`).
    human : qrels, or sampled judgments (``design="inclusion"``)
        The human judgments of a sample of those topics (``design="topics"``) or of the
        (topic, document) pairs of the automatic qrels (the other designs).
    runs : runs (paths, a folder, a list or mapping of runs)
        Two runs at least.
    measures : str or sequence of str
        Measures with per-topic values (``map``, ``ndcg_cut_10``, ``P@10`` ...).
    alpha : float
        Level of the intervals (``1 − alpha``) and of the paired t-tests.
    tuning : {"ppi++", "ppi", "classical"}
        How the corrected means weigh the automatic values (:func:`ppi_mean`).
    pairs : bool
        Also estimate the difference of every pair of runs.
    relevance_level : int
        Smallest relevant grade (trec_eval's ``-l``), for both qrels.
    design : {"topics", "uniform", "stratified", "inclusion"}
        How the human sample was drawn: a uniform sample of the topics (the module
        documentation), or of the (topic, document) pairs: uniform, stratified by the
        automatic grade, or with stated inclusion probabilities
        (:mod:`irscale.collections.automatic_pairs`).
    label_probabilities : bool
        ``automatic`` gives the grades' probabilities: the automatic values are the
        measures' expected values under them, for measures that are sums over the ranked
        documents, estimated by drawing the labels for the others (module documentation).
    draws : int
        With ``label_probabilities`` and the topic design, how many draws of every pair's
        grade estimate the expected value of a measure that is not a sum over the ranked
        documents (with ``label_probabilities`` only, as ``rng``).
    rng : seed or numpy.random.Generator
        The draws' generator (default 0: the same draws at every call).
    progress : bool or callable
        Progress of the draws (:mod:`irscale.core.progress`; ``True``: the time of the rest
        stated when long, measured on the first draws, and a bar).

    Returns
    -------
    AutomaticJudgmentsResult
    """
    # (alpha, tuning, design and draws are checked on entry, and where draws and rng apply:
    # AUTOMATIC)
    names_given = [measures] if isinstance(measures, str) else list(measures)
    if not names_given:
        raise ParameterError("measures: give one measure at least (map, ndcg_cut_10 ...)")
    rng = check_rng(rng)
    auto_qrels, lines = _label_distribution(automatic) if label_probabilities else \
        (as_qrels(automatic), None)
    run_list = as_runs(runs)
    if len(run_list) < 2:
        raise ParameterError(f"runs: give two runs at least, got {len(run_list)}")
    if design != "topics":
        return _pair_design(auto_qrels, human, run_list, names_given, alpha=alpha,
                            tuning=tuning, pairs=pairs, relevance_level=relevance_level,
                            design=design, lines=lines)
    human_qrels = as_qrels(human)
    auto_topics = list(dict.fromkeys(auto_qrels.topic.to_pylist()))
    human_topics = list(dict.fromkeys(human_qrels.topic.to_pylist()))
    outside = [t for t in human_topics if t not in set(auto_topics)]
    if outside:
        human_file, auto_file = (f" ({q.source})" if not q.source.startswith("<") else ""
                                 for q in (human_qrels, auto_qrels))  # file names only
        raise AlignmentError(f"the human qrels{human_file} judge topics the automatic "
                             f"qrels{auto_file} do not: "
                             f"{outside[:5]}{' ...' if len(outside) > 5 else ''}; the human "
                             "sample must be topics of the automatic judgments")
    labelled = set(human_topics)
    others = [t for t in auto_topics if t not in labelled]
    if len(human_topics) < 2 or not others:
        raise InputError(f"the human qrels must judge 2 topics at least and leave 1 of the "
                         f"automatic qrels' topics at least to the automatic judgments; they "
                         f"judge {len(human_topics)} of {len(auto_topics)}")
    auto_all, measures_out = _per_topic(auto_qrels, run_list, names_given,
                                        human_topics + others, relevance_level)
    if lines is not None:
        auto_all = _expected_values(auto_qrels, lines, run_list, names_given, measures_out,
                                    human_topics + others, auto_all, relevance_level,
                                    draws, rng, check_progress(progress))
    y, _ = _per_topic(human_qrels, run_list, names_given, human_topics, relevance_level,
                      sample=True)
    n = len(human_topics)
    yhat, rest = auto_all[:n], auto_all[n:]
    names = [run.name for run in run_list]
    rows: list[dict[str, Any]] = []
    for measure, system, kind, select in _columns(measures_out, names, pairs):
        ys, yhats, rests = select(y), select(yhat), select(rest)
        classical = ppi_mean(ys, yhats, rests, alpha=alpha, tuning="classical")
        corrected = ppi_mean(ys, yhats, rests, alpha=alpha, tuning=tuning)
        rows.append({
            "measure": measure, "system": system, "kind": kind,
            "automatic": float(np.concatenate([yhats, rests]).mean()),
            "human": classical.estimate, "human_low": classical.low,
            "human_high": classical.high, "ppi": corrected.estimate,
            "ppi_low": corrected.low, "ppi_high": corrected.high, "lam": corrected.lam,
            "labelled": n, "others": len(others)})
    labels, confusion = _confusion(auto_qrels, human_qrels)
    systems = _system_agreement(y, yhat, names, measures_out, alpha)
    return AutomaticJudgmentsResult(pd.DataFrame(rows), labels, confusion, systems, alpha,
                                    tuning)

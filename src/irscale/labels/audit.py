"""The audit of automatic (LLM) relevance judges against human labels: can a judge's qrels
stand in for people's? (Ferro and Maistro's survey, §8; Faggioli et al., "Perspectives on
large language models for relevance judgment", ICTIR 2023; Thomas et al., SIGIR 2024.)

Given the human qrels (every topic, or a sample of topics or pairs), the qrels of one or
more judges and the runs, :func:`audit` answers per judge, on the topics both judge:

1. **Label agreement**, over the (topic, document) pairs both judge (grades ≥ 0; a negative
   grade marks a document trec_eval holds unjudged): Cohen's κ (Cohen 1960) unweighted,
   linear and quadratic (weighted κ, Cohen 1968: ``κ_w = 1 − Σ w_ij p_ij / Σ w_ij p_i· p_·j``
   with disagreement weights ``w_ij`` = ``[i ≠ j]``, ``|i − j|``, ``(i − j)²`` over the
   indices of the grades either gives, as scikit-learn's ``cohen_kappa_score``), and
   Krippendorff's α ordinal of the two coders (the coincidences ``o = C + Cᵀ`` of the
   confusion matrix ``C``; :mod:`irscale.collections.agreement`), and the confusion
   matrix (the judge's grades as rows, the human ones as columns).
2. **System-ranking fidelity**: the runs ordered by their mean ``measure`` under the human
   and under the judge's qrels, compared by Kendall's τ_b, τ_ap (the judge's ranking
   against the human one as gold; Yilmaz, Aslam and Robertson 2008), RBO (``p``; ties as
   RBO^a, Corsi and Urbano 2024; Webber, Moffat and Zobel 2010) and the top-k agreement
   (the expected share of the k best runs under the human qrels among the k best under the
   judge's, ties in either ranking ordered at random: ``Σ_i P_h(i ∈ top k) P_j(i ∈ top k)
   / k``). Means tied within the tolerance of :mod:`irscale.stats.kendall` are ties.
3. **Decision fidelity**: every pair of runs tested under each qrels (``test``, paired over
   the topics, p-values adjusted by ``correction`` over the pairs, level ``alpha``:
   :func:`irscale.stats.pairwise_tests`), and whether the pair is significant under both
   in the same direction (``both``), in opposite directions (``reversed``), under the
   human qrels only (``human only``), the judge's only (``judge only``) or neither.
4. **System bias**: ``d_tr`` = the run's score under the judge minus under the humans on
   topic ``t``, modelled as ``d_tr = β_r + u_t + ε_tr`` (run fixed effects, a topic random
   intercept ``u_t ~ N(0, σ²_t)``, REML: :func:`irscale.stats.mixed_model`). A run's bias
   relative to the others is the contrast ``β_r − mean(β)`` (its standard error from the
   model's covariance of ``β``), tested with Student's t on ``(T − 1)(R − 1)`` degrees of
   freedom (exact for complete topics × runs tables, where the contrasts are those of the
   two-way ANOVA), the p-values adjusted over the runs by ``correction`` (Holm by default):
   a run flagged is one the judge favours (or disfavours) beyond the others. The mean bias
   ``mean(β)`` is reported beside it.
5. **Consistency** (``samples=True``: the judges are repeated samples of one judge):
   Fleiss' κ and Krippendorff's α (ordinal) of the samples over the pairs every sample
   judges (:func:`irscale.collections.label_agreement`), the share of the variance of the
   scores due to the sample in a G-study of topics × runs × samples
   (:func:`irscale.stats.gstudy`, facet ``sample``: the components that involve it over
   the total), and the labels of votes over the samples (majority, Dawid–Skene:
   :func:`irscale.collections.aggregate_labels`) audited as two more judges.
6. **Unjudged pairs, stated**: per judge, the pairs the judge labels that the humans do
   not and the reverse, the topics one of them lacks, and for every run the documents it
   retrieves on the compared topics that each qrels leaves unjudged. Nothing is imputed:
   the measures count an unjudged document as non-relevant, as trec_eval does; the
   condensed list (unjudged documents removed, Sakai 2007) is the measure's own
   parameter, ``measure="nDCG(condensed=1)"`` (docs/measures.md).

**Intervals.** Every statistic of 1 and 2 carries a percentile bootstrap interval at level
``1 − alpha``: the topics resampled with replacement ``n_boot`` times (the same draws for
the agreement and the rankings of a judge; each judge its own stream from ``rng``,
identical for a seed). A replicate where a statistic is undefined (one grade only, every
run tied) is left out of its interval, and the count of replicates kept is stated.

Statistics 1 to 4 are computed from the per-topic confusions of the labels both give and
the per-topic scores under each side (:func:`fidelity`), so that the audit of model-made
nugget assignments (:mod:`irscale.labels.audit_assignments`) and that of citation support
labels (:mod:`irscale.labels.audit_citations`) compute them as this one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.notebook import HtmlRepr
from ..core.numbers import declare, undefined
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.progress import ProgressArg, check_progress, counted_work
from ..errors import AlignmentError, InputError, ParameterError
from .audit_samples import consistency_of, votes
from .audit_samples import judged_pairs as _judged
from .params import AUDIT, AUDIT_SAMPLES, DEFAULT_AUDIT_MEASURE, DEFAULT_TOP_K

if TYPE_CHECKING:  # pragma: no cover
    from ..core.inputs import Qrels
    from ..stats.corrections import Correction
    from ..stats.tables import Format

__all__ = ["AuditResult", "JudgeAudit", "audit"]

#: The agreement statistics, in the order of the tables.
AGREEMENT_STATISTICS = ("kappa", "kappa_linear", "kappa_quadratic", "alpha_ordinal")
#: The ranking statistics, in the order of the tables.
RANKING_STATISTICS = ("tau_b", "tau_ap", "rbo", "top_k")
#: The rows of a judge's coverage table that count pairs, on the topics compared.
BOTH = "pairs judged by both (compared topics)"
JUDGE_ONLY = "pairs judged by the judge only (compared topics)"
HUMAN_ONLY = "pairs judged by the humans only (compared topics)"
#: The verdicts on a pair of runs (decision fidelity), in the order of the counts.
VERDICTS = ("both", "reversed", "human only", "judge only", "neither")

_NO_REPLICATE = undefined("no bootstrap replicate where the statistic is defined")
_UNDEFINED = undefined("one grade or one tie group only: the statistic is 0/0")
_NO_SPREAD = undefined("the judge's scores minus the human ones leave no residual variance "
                       "(the same difference on every topic, up to a run's constant): "
                       "nothing to test")


@dataclass(frozen=True)
class JudgeAudit(HtmlRepr):
    """The audit of one judge (:func:`audit`, module documentation): ``agreement`` and
    ``ranking`` (one row a statistic: ``estimate``, ``low``, ``high``, ``replicates`` kept),
    ``confusion`` (the judge's grades as rows, the human ones as columns), ``decisions``
    (one row a pair of runs: the mean differences, adjusted p-values and ``verdict``),
    ``bias`` (one row a run: its mean bias ``beta``, the contrast with the others, its
    standard error, t, p adjusted and ``flagged``), ``unjudged`` (one row a run: the
    documents it retrieves on the compared topics and those unjudged under each qrels) and
    ``coverage`` (the pairs and topics each qrels judges that the other does not)."""

    judge: str
    source: str
    topics: int
    agreement: pd.DataFrame
    confusion: pd.DataFrame
    ranking: pd.DataFrame
    decisions: pd.DataFrame
    bias: pd.DataFrame
    unjudged: pd.DataFrame
    coverage: pd.DataFrame

    def verdicts(self) -> dict[str, int]:
        """How many pairs of runs fall under each verdict (:data:`VERDICTS`)."""
        counts = self.decisions["verdict"].value_counts()
        return {verdict: int(counts.get(verdict, 0)) for verdict in VERDICTS}

    def frames(self) -> dict[str, pd.DataFrame]:
        """The judge's tables by name."""
        return {"agreement": self.agreement, "confusion": self.confusion.reset_index(),
                "ranking": self.ranking, "decisions": self.decisions, "bias": self.bias,
                "unjudged": self.unjudged, "coverage": self.coverage}


@dataclass(frozen=True)
class AuditResult(HtmlRepr):
    """What :func:`audit` finds: one :class:`JudgeAudit` a judge (``judges``; with
    ``samples``, the votes ``vote:majority`` and ``vote:dawid-skene`` after the samples),
    ``consistency`` (with ``samples``: one row a statistic of the samples' consistency;
    else None), the settings the numbers depend on and what the judges give (``subject``:
    ``qrels``, or ``assignments``, :func:`irscale.labels.audit_assignments`, or
    ``citations``, :func:`irscale.labels.audit_citations`)."""

    judges: tuple[JudgeAudit, ...]
    measure: str
    alpha: float
    test: str
    correction: str
    n_boot: int
    top_k: int
    p: float
    consistency: pd.DataFrame | None = field(default=None)
    subject: str = "qrels"

    def judge(self, name: str) -> JudgeAudit:
        """The audit of the judge ``name``."""
        for found in self.judges:
            if found.judge == name:
                return found
        raise ParameterError(f"no judge {name!r}; the judges are "
                             f"{', '.join(j.judge for j in self.judges)}")

    def to_frame(self) -> pd.DataFrame:
        """One row a judge: the estimates of the agreement and ranking statistics, the
        verdicts' counts, the runs flagged for bias and the unjudged pairs."""
        rows = []
        for found in self.judges:
            row: dict[str, Any] = {"judge": found.judge, "topics": found.topics}
            for table in (found.agreement, found.ranking):
                row.update(zip(table["statistic"], table["estimate"], strict=True))
            row.update({verdict.replace(" ", "_"): count
                        for verdict, count in found.verdicts().items()})
            row["mean_bias"] = float(found.bias["beta"].mean())
            row["flagged"] = int(found.bias["flagged"].sum())
            counts = found.coverage["count"]  # rows: both, the judge only, the humans only
            unit = "pairs" if self.subject == "qrels" else "items"
            row[f"judge_only_{unit}"] = int(counts.iloc[1])
            row[f"human_only_{unit}"] = int(counts.iloc[2])
            rows.append(row)
        return declare(pd.DataFrame(rows), dict.fromkeys(
            (*AGREEMENT_STATISTICS, *RANKING_STATISTICS), _UNDEFINED))

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The tables as ``fmt``: ``csv`` the summary (:meth:`to_frame`), ``json`` every
        table, the others the summary then every judge's tables under a title."""
        from ..io.formats import TABLE_FORMATS, check_format
        from ..stats.protocol import format_table

        check_format(fmt, TABLE_FORMATS, "audit")
        if fmt == "csv":
            return format_table(self.to_frame(), "csv")
        if fmt == "json":
            from ..stats.tables import json_text, records

            tree: dict[str, Any] = {"summary": records(self.to_frame(), "summary")}
            if self.consistency is not None:
                tree["consistency"] = records(self.consistency, "consistency")
            tree["judges"] = {found.judge: {name: records(frame, name) for name, frame in
                                            found.frames().items()}
                              for found in self.judges}
            return json_text(tree, indent=2)
        level = f"{100 * (1 - self.alpha):g}%"
        parts = [format_table(self.to_frame(), fmt, digits=digits,
                              title=f"Audit of the judges against the human {self.subject} "
                              f"({self.measure}; {level} bootstrap intervals, "
                              f"{self.n_boot} resamples of the topics)")]
        if self.consistency is not None:
            parts.append(format_table(self.consistency, fmt, digits=digits,
                                      title="Consistency of the repeated samples"))
        for found in self.judges:
            for name, title in SUBJECT_TITLES[self.subject].items():
                parts.append(format_table(found.frames()[name], fmt, digits=digits,
                                          title=f"{found.judge}: {title.format(self=self)}"))
        return "\n\n".join(parts)


#: The titles of a judge's tables.
TITLES = {
    "agreement": "agreement of the labels both judge",
    "confusion": "confusion of the grades (judge rows, human columns)",
    "ranking": "agreement of the system rankings (top-k: k = {self.top_k}, RBO p = {self.p})",
    "decisions": "pairs of runs significant under each qrels ({self.test}, {self.correction})",
    "bias": "bias of the judge per run (judge minus human, run effect, {self.correction})",
    "unjudged": "documents retrieved and unjudged (counted non-relevant, as trec_eval)",
    "coverage": "pairs and topics judged by one side only",
}
#: The titles of a judge's tables in the audit of nugget assignments.
ASSIGNMENT_TITLES = {
    **TITLES,
    "confusion": "confusion of the assignments (0 not_support, 1 partial_support, "
                 "2 support; judge rows, human columns)",
    "decisions": "pairs of runs significant under each side ({self.test}, {self.correction})",
    "unjudged": "nuggets of each run on the compared topics, by who labels them",
    "coverage": "items, records and topics labelled by one side only",
}
#: The titles of a judge's tables in the audit of citation support labels.
CITATION_TITLES = {
    **ASSIGNMENT_TITLES,
    "confusion": "confusion of the support labels (0 not_supported, 1 partially_supported, "
                 "2 supported; judge rows, human columns)",
    "unjudged": "support labels of each run on the compared topics, by who gives them",
}
#: The titles of a judge's tables by what the judges give (:attr:`AuditResult.subject`).
SUBJECT_TITLES = {"qrels": TITLES, "assignments": ASSIGNMENT_TITLES,
                  "citations": CITATION_TITLES}


# ---------------------------------------------------------------------------- inputs
def _judges(judges: Any) -> list[tuple[str, Qrels]]:
    """The judges' names and qrels: a mapping keeps its names, a sequence is named by its
    files (:func:`irscale.io.naming.file_names`; ``judge1`` ... where a qrels has no
    file)."""
    from ..io.naming import file_names
    from ..io.sources import as_qrels

    if isinstance(judges, Mapping) and not _one_qrels(judges):
        named = [(str(name), as_qrels(q)) for name, q in judges.items()]
    else:
        listed = list(judges) if isinstance(judges, (list, tuple)) else [judges]
        read = [as_qrels(q) for q in listed]
        names = file_names([None if q.source.startswith("<") else q.source for q in read],
                           [f"judge{i + 1}" for i in range(len(read))], stacklevel=4)
        named = list(zip(names, read, strict=True))
    if not named:
        raise ParameterError("judges: give the qrels of one judge at least")
    return named


def _one_qrels(value: Mapping) -> bool:
    """Whether a mapping is one qrels (``{topic: {docno: grade}}``), not ``{name: qrels}``."""
    return all(isinstance(inner, Mapping) and not any(isinstance(v, Mapping)
                                                      for v in inner.values())
               for inner in value.values())


# ---------------------------------------------------------------------------- agreement
def _confusions(both: pd.DataFrame, topics: list[str], grades: np.ndarray) -> np.ndarray:
    """topics × judge grade × human grade counts of the pairs ``both`` judge."""
    k = len(grades)
    t = pd.Index(topics).get_indexer(both["topic"])
    j = np.searchsorted(grades, both["rel_judge"].to_numpy())
    h = np.searchsorted(grades, both["rel_human"].to_numpy())
    counts = np.bincount((t * k + j) * k + h, minlength=len(topics) * k * k)
    return counts.reshape(len(topics), k, k).astype(np.float64)


def _agreement(c: np.ndarray, grades: np.ndarray) -> np.ndarray:
    """κ unweighted, linear, quadratic and α ordinal (module documentation) of confusion
    matrices ``c`` (… × k × k): an array … × 4 (NaN where undefined)."""
    from ..collections.agreement import _distances

    k = c.shape[-1]
    index = np.arange(k, dtype=np.float64)
    gap = np.abs(index[:, None] - index[None, :])
    n = c.sum(axis=(-2, -1))
    out = np.full((*c.shape[:-2], 4), np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = c / n[..., None, None]
        expected = p.sum(axis=-1)[..., :, None] * p.sum(axis=-2)[..., None, :]
        for s, weight in enumerate((gap > 0, gap, gap**2)):
            w = weight.astype(np.float64)
            out[..., s] = 1 - (p * w).sum(axis=(-2, -1)) / (expected * w).sum(axis=(-2, -1))
        o = c + np.swapaxes(c, -1, -2)
        n_c = o.sum(axis=-1)
        d = _distances(grades, n_c, "ordinal")
        observed = (o * d).sum(axis=(-2, -1))
        chance = (n_c[..., :, None] * n_c[..., None, :] * d).sum(axis=(-2, -1))
        out[..., 3] = 1 - (2 * n - 1) * observed / chance
    out[~np.isfinite(out)] = np.nan
    return out


# ---------------------------------------------------------------------------- rankings
def _tau_b(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall's τ_b of the rows of ``x`` and ``y`` (replicates × runs), ties within the
    tolerance of :func:`irscale.stats.kendall.kendall_tau`."""
    from ..stats.kendall import ATOL, RTOL

    i, j = np.triu_indices(x.shape[1], 1)

    def signs(v: np.ndarray) -> np.ndarray:
        a, b = v[:, i], v[:, j]
        tied = np.abs(a - b) <= ATOL + RTOL * np.maximum(np.abs(a), np.abs(b))
        return np.where(tied, 0, np.sign(a - b))

    sx, sy = signs(x), signs(y)
    prod = sx * sy
    concordant, discordant = (prod > 0).sum(axis=1), (prod < 0).sum(axis=1)
    only_x = ((sx == 0) & (sy != 0)).sum(axis=1)
    only_y = ((sx != 0) & (sy == 0)).sum(axis=1)
    denominator = np.sqrt((concordant + discordant + only_x)
                          * (concordant + discordant + only_y)).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, (concordant - discordant) / denominator, np.nan)


def _rankings(human: np.ndarray, judge: np.ndarray, p: float, k: int) -> np.ndarray:
    """τ_b, τ_ap, RBO and the top-k agreement (module documentation) of the runs' means
    ``human`` and ``judge`` (replicates × runs): replicates × 4."""
    from ..meta.rank_correlation import _contributions, _ranks_nothing, _rbo_tied, _tau_ap
    from ..stats.kendall import ATOL, RTOL

    out = np.full((human.shape[0], 4), np.nan)
    out[:, 0] = _tau_b(human, judge)
    for b in range(human.shape[0]):
        h, j = human[b], judge[b]
        if _ranks_nothing(h, RTOL, ATOL) or _ranks_nothing(j, RTOL, ATOL):
            continue
        out[b, 1] = _tau_ap(j, h, RTOL, ATOL)
        c_h, c_j = _contributions(h, "a", RTOL, ATOL), _contributions(j, "a", RTOL, ATOL)
        out[b, 2] = _rbo_tied(c_h, c_j, p, "a").ext
        out[b, 3] = float(np.sum(c_h[:, k - 1] * c_j[:, k - 1])) / k
    return out


def _interval_table(names: Sequence[str], estimate: np.ndarray, replicates: np.ndarray,
                    alpha: float) -> pd.DataFrame:
    """One row a statistic: its estimate and percentile interval at ``1 − alpha`` over the
    replicates where it is defined, and their count."""
    from ..meta.rank_correlation import _percentile

    rows = []
    for s, name in enumerate(names):
        low, high = _percentile(replicates[:, s], 1 - alpha)
        rows.append({"statistic": name, "estimate": float(estimate[s]), "low": low,
                     "high": high, "replicates": int(np.isfinite(replicates[:, s]).sum())})
    return declare(pd.DataFrame(rows), {"estimate": _UNDEFINED, "low": _NO_REPLICATE,
                                        "high": _NO_REPLICATE})


# ---------------------------------------------------------------------------- decisions
def _decisions(human: np.ndarray, judge: np.ndarray, names: list[str], test: str,
               correction: Correction, alpha: float) -> pd.DataFrame:
    """One row a pair of runs: the mean differences and adjusted p-values under each qrels
    and the verdict (module documentation)."""
    import warnings

    from ..stats.pairwise import pairwise_tests

    with warnings.catch_warnings():  # a pair with identical scores has p = 1: the verdict
        # says it (neither)
        warnings.simplefilter("ignore")
        found = [pairwise_tests(pd.DataFrame(values, columns=names), test,
                                correction=correction, alpha=alpha).to_frame()
                 for values in (human, judge)]
    h, j = found
    sig_h, sig_j = h["significant"].to_numpy(bool), j["significant"].to_numpy(bool)
    same = np.sign(h["diff"].to_numpy()) == np.sign(j["diff"].to_numpy())
    verdict = np.select([sig_h & sig_j & same, sig_h & sig_j, sig_h, sig_j],
                        list(VERDICTS[:4]), VERDICTS[4])
    return pd.DataFrame({"a": h["a"], "b": h["b"], "diff_human": h["diff"],
                         "p_human": h["p"], "diff_judge": j["diff"], "p_judge": j["p"],
                         "verdict": verdict})


# ---------------------------------------------------------------------------- bias
def _bias(diff: np.ndarray, names: list[str], correction: Correction, alpha: float
          ) -> pd.DataFrame:
    """One row a run: the judge's mean bias on it (``beta``), its contrast with the mean of
    every run's, the standard error, t, the adjusted p-value and ``flagged`` (module
    documentation), from ``diff`` (topics × runs: judge minus human)."""
    from scipy.stats import t as student

    from ..stats.corrections import adjust_pvalues
    from ..stats.mixed import mixed_model

    n_topics, n_runs = diff.shape
    centred = np.eye(n_runs) - 1.0 / n_runs  # row r: the contrast β_r − mean(β)
    try:
        model = mixed_model(pd.DataFrame(diff, columns=names), random=("topic",),
                            method="reml")
    except InputError:  # no residual variance: every contrast is exact, nothing to test
        beta = diff.mean(axis=0)
        se = np.full(n_runs, np.nan)
    else:
        beta = np.asarray(model.estimates, dtype=np.float64)
        cov = np.asarray(model.cov, dtype=np.float64)
        se = np.sqrt(np.maximum(np.einsum("ri,ij,rj->r", centred, cov, centred), 0.0))
    contrast = centred @ beta
    df = (n_topics - 1) * (n_runs - 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(se > 0, contrast / se, np.nan)
    p_raw = np.where(np.isfinite(t), 2 * student.sf(np.abs(t), df), 1.0)
    p = adjust_pvalues(p_raw, correction)
    return declare(pd.DataFrame({
        "run": names, "beta": beta, "contrast": contrast, "se": se, "t": t, "df": df,
        "p_raw": p_raw, "p": p, "flagged": p <= alpha}), {"se": _NO_SPREAD, "t": _NO_SPREAD})


# ---------------------------------------------------------------------------- coverage
#: Joins a topic and a document id into one key (a character neither holds in a TREC file).
_JOIN = "\x1f"


def _keys(topics: Any, docnos: Any) -> pd.Series:
    """One string key a (topic, docno) pair."""
    return pd.Series(topics, dtype=object).astype(str) + _JOIN + \
        pd.Series(docnos, dtype=object).astype(str)


@dataclass(frozen=True)
class _Retrieved:
    """Every run's retrieved pairs, together: the run of each (``run``), its topic and
    its key (:func:`_keys`)."""

    run: np.ndarray
    topic: pd.Series
    key: pd.Series

    @classmethod
    def of(cls, run_list: Sequence[Any]) -> _Retrieved:
        topics = np.concatenate([run.topic.to_numpy() for run in run_list]) if run_list \
            else np.array([], dtype=object)
        docnos = np.concatenate([run.docno.to_numpy() for run in run_list]) if run_list \
            else np.array([], dtype=object)
        counts = [len(run.topic) for run in run_list]
        topic = pd.Series(topics, dtype=object).astype(str)
        return cls(np.repeat(np.arange(len(run_list)), counts), topic, _keys(topic, docnos))


def _coverage(human: pd.DataFrame, judge: pd.DataFrame, human_all: Qrels, judge_all: Qrels,
              common: list[str], retrieved: _Retrieved, names: list[str]
              ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The pairs and topics one side judges and the other does not, and per run the
    documents retrieved on the ``common`` topics and unjudged under each qrels."""
    in_common_h = human[human["topic"].isin(common)]
    in_common_j = judge[judge["topic"].isin(common)]
    keys_h = _keys(in_common_h["topic"], in_common_h["docno"])
    keys_j = _keys(in_common_j["topic"], in_common_j["docno"])
    topics_h = set(human_all.topic.to_pylist())
    topics_j = set(judge_all.topic.to_pylist())
    unjudged_marks = [int((np.asarray(q.rel) < 0).sum()) for q in (human_all, judge_all)]
    judged_by_human = keys_j.isin(keys_h).to_numpy()
    coverage = pd.DataFrame({"what": [
        BOTH, JUDGE_ONLY, HUMAN_ONLY, "topics judged by the humans only",
        "topics judged by the judge only", "human lines with a negative grade (unjudged)",
        "judge lines with a negative grade (unjudged)"], "count": [
        int(judged_by_human.sum()), int((~judged_by_human).sum()),
        int((~keys_h.isin(keys_j)).sum()), len(topics_h - topics_j), len(topics_j - topics_h),
        *unjudged_marks]})
    on = retrieved.topic.isin(common).to_numpy()
    unjudged_h = on & ~retrieved.key.isin(keys_h).to_numpy()
    unjudged_j = on & ~retrieved.key.isin(keys_j).to_numpy()
    n = len(names)

    def per_run(mask: np.ndarray) -> np.ndarray:
        return np.bincount(retrieved.run[mask], minlength=n)

    return coverage, pd.DataFrame({
        "run": names, "retrieved": per_run(on), "unjudged_human": per_run(unjudged_h),
        "unjudged_judge": per_run(unjudged_j),
        "unjudged_both": per_run(unjudged_h & unjudged_j)})


# ---------------------------------------------------------------------------- bootstrap
#: Resamples of the topics drawn at once (a chunk × topics matrix of draw counts): the
#: memory does not grow with B beyond the replicates kept.
CHUNK = 1024
#: Bytes per replicate kept: the four agreement and four ranking statistics.
REPLICATE_BYTES = 64


def _bootstrap(flat: np.ndarray, grades: np.ndarray, human: np.ndarray, judge: np.ndarray,
               options: _Options, generator: np.random.Generator, work: Any, done: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """The agreement and ranking statistics of ``options.n_boot`` resamples of the topics
    (``flat``: topics × the confusion matrix's cells; ``human``, ``judge``: topics × runs),
    the same draws for both, a chunk at a time, ``work`` told after each."""
    from ..stats.bootstrap import resample_counts

    n_topics, k = flat.shape[0], len(grades)
    agreement = np.empty((options.n_boot, len(AGREEMENT_STATISTICS)))
    ranking = np.empty((options.n_boot, len(RANKING_STATISTICS)))
    for first in range(0, options.n_boot, CHUNK):
        size = min(CHUNK, options.n_boot - first)
        weights = resample_counts(generator.integers(0, n_topics, size=(size, n_topics)),
                                  n_topics)
        agreement[first:first + size] = _agreement((weights @ flat).reshape(-1, k, k),
                                                   grades)
        ranking[first:first + size] = _rankings(weights @ human / n_topics,
                                                weights @ judge / n_topics, options.p,
                                                options.top_k)
        work(done + first + size)
    return agreement, ranking


# ---------------------------------------------------------------------------- one judge
@dataclass(frozen=True)
class _Options:
    """The options every judge's statistics share (the audit of qrels and that of nugget
    assignments alike)."""

    alpha: float
    test: str
    correction: Correction
    n_boot: int
    p: float
    top_k: int


@dataclass(frozen=True)
class _Setting(_Options):
    """What every judge's audit of qrels shares: the runs, the human values and the
    options."""

    run_list: list[Any]
    names: list[str]
    retrieved: _Retrieved
    human_qrels: Qrels
    human: pd.DataFrame
    human_topics: list[str]
    human_scores: np.ndarray
    measure: str
    relevance_level: int


def fidelity(confusions: np.ndarray, grades: np.ndarray, h_scores: np.ndarray,
             j_scores: np.ndarray, names: list[str], options: _Options,
             generator: np.random.Generator, work: Any, done: int) -> dict[str, pd.DataFrame]:
    """A judge's ``agreement``, ``confusion``, ``ranking``, ``decisions`` and ``bias``
    tables (module documentation) from the per-topic confusion matrices of the items both
    label (topics × judge grade × human grade, over ``grades``) and the per-topic scores
    of the runs ``names`` under each side (topics × runs): what the audit of qrels and
    that of nugget assignments share."""
    n_topics, k = len(confusions), len(grades)
    flat = confusions.reshape(n_topics, -1)
    point = _rankings(h_scores.mean(axis=0)[None], j_scores.mean(axis=0)[None], options.p,
                      options.top_k)[0]
    agreed, replicated = _bootstrap(flat, grades, h_scores, j_scores, options, generator,
                                    work, done)
    return {
        "agreement": _interval_table(AGREEMENT_STATISTICS,
                                     _agreement(flat.sum(axis=0).reshape(k, k), grades),
                                     agreed, options.alpha),
        "confusion": pd.DataFrame(confusions.sum(axis=0).astype(np.int64),
                                  index=pd.Index(grades, name="judge"),
                                  columns=[f"human={g}" for g in grades]),
        "ranking": _interval_table(RANKING_STATISTICS, point, replicated, options.alpha),
        "decisions": _decisions(h_scores, j_scores, names, options.test, options.correction,
                                options.alpha),
        "bias": _bias(j_scores - h_scores, names, options.correction, options.alpha)}


def _source(qrels: Qrels) -> str:
    return "" if qrels.source.startswith("<") else f" ({qrels.source})"


def _audit_judge(name: str, qrels: Qrels, setting: _Setting, seed: np.random.SeedSequence,
                 work: Any, done: int) -> JudgeAudit:
    """The audit of one judge (module documentation)."""
    from ..collections.automatic import _per_topic

    judge = _judged(qrels)
    judge_topics = set(judge["topic"])
    common = [t for t in setting.human_topics if t in judge_topics]
    if not common:
        raise AlignmentError(f"judge {name!r}{_source(qrels)} judges no topic of the human "
                             f"qrels{_source(setting.human_qrels)}: topic ids written "
                             "differently, or qrels of another collection?")
    if len(common) < 2:
        raise InputError(f"judge {name!r}{_source(qrels)} and the human qrels share one "
                         f"topic ({common[0]!r}): the intervals and the tests need two at "
                         "least")
    both = setting.human.merge(judge, on=["topic", "docno"], suffixes=("_human", "_judge"))
    if both.empty:
        raise InputError(f"judge {name!r}{_source(qrels)} and the human qrels judge no "
                         "(topic, document) pair in common: there is no agreement to "
                         "measure")
    rows = pd.Index(setting.human_topics).get_indexer(common)
    h_scores = setting.human_scores[rows]
    j_scores = _per_topic(qrels, setting.run_list, [setting.measure], common,
                          setting.relevance_level, sample=True)[0][:, :, 0]
    grades = np.unique(np.concatenate([both["rel_human"], both["rel_judge"]]))
    tables = fidelity(_confusions(both, common, grades), grades, h_scores, j_scores,
                      setting.names, setting, np.random.default_rng(seed), work, done)
    coverage, unjudged = _coverage(setting.human, judge, setting.human_qrels, qrels, common,
                                   setting.retrieved, setting.names)
    return JudgeAudit(judge=name, source=qrels.source, topics=len(common), **tables,
                      unjudged=unjudged, coverage=coverage)


# ---------------------------------------------------------------------------- the audit
def _warn_unjudged_topics(setting: _Setting, judges: list[Qrels]) -> None:
    """One warning naming the runs' topics that no qrels judges (left out of every
    comparison): the human qrels may be a sample of the topics, but a topic no one judges
    is said, not dropped in silence."""
    import warnings

    judged = set(setting.human_topics).union(*(set(q.topic.to_pylist()) for q in judges))
    retrieved = setting.retrieved
    outside = ~retrieved.topic.isin(judged).to_numpy()
    left = {setting.names[r]: sorted(set(retrieved.topic[outside & (retrieved.run == r)]))
            for r in np.unique(retrieved.run[outside])}
    if left:
        name, topics = next(iter(left.items()))
        more = f" (and {len(left) - 1} other runs)" if len(left) > 1 else ""
        warnings.warn(f"run {name!r}{more} has results for topics no qrels judges, left out "
                      f"of the audit: {', '.join(map(repr, topics[:5]))}"
                      f"{' ...' if len(topics) > 5 else ''}", stacklevel=3)


@AUDIT
def audit(human: Any, judges: Any, runs: Any, *, measure: str = DEFAULT_AUDIT_MEASURE,
          samples: bool = False, alpha: float = 0.05, test: str = "t",
          correction: Correction = "holm", n_boot: int = 1000, rng: int = 0, p: float = 0.9,
          top_k: int | None = None, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
          progress: ProgressArg = False) -> AuditResult:
    """Audit automatic relevance judges against human labels (module documentation).

    Parameters
    ----------
    human : qrels (path, Qrels, DataFrame, dict)
        The human judgments (every topic, or a sample of topics or pairs).
    judges : qrels, a sequence of qrels, or a mapping ``{name: qrels}``
        The judges' judgments, named by their files (a mapping: by its keys).
    runs : runs (paths, a folder, a list or mapping of runs)
        Two runs at least.
    measure : str
        The measure (one, with per-topic values) whose means order the runs; default
        trec_eval's ``ndcg``.
    samples : bool
        The judges are repeated samples of one judge: also their consistency, and the votes
        over them audited as judges (two samples at least).
    alpha : float
        Level of the tests and of the flags; the intervals are at ``1 − alpha``.
    test, correction : str
        The paired test of every pair of runs and the correction over the pairs (and over
        the runs' bias tests).
    n_boot : int
        Bootstrap resamples of the topics.
    rng : int
        Seed of the resamples.
    p : float
        RBO's persistence.
    top_k : int, optional
        The k of the top-k agreement (at most the number of runs; default 5, or the number
        of runs where fewer).
    relevance_level : int
        Smallest relevant grade (trec_eval's ``-l``), for every qrels.
    progress : bool or callable
        Progress of the resamples (:mod:`irscale.core.progress`).
    """
    from ..collections.automatic import _per_topic
    from ..io.sources import as_qrels, as_runs

    check_progress(progress)
    human_qrels = as_qrels(human)
    named = _judges(judges)
    run_list = as_runs(runs)
    if len(run_list) < 2:
        raise ParameterError(f"runs: give two runs at least, got {len(run_list)}",
                             param="runs")
    if top_k is None:
        top_k = min(DEFAULT_TOP_K, len(run_list))
    elif top_k > len(run_list):
        raise ParameterError(f"top_k {top_k} exceeds the number of runs ({len(run_list)})",
                             param="top_k")
    if samples and len(named) < 2:
        raise ParameterError(f"samples: give two samples of the judge at least, got "
                             f"{len(named)}", param="samples")
    human_frame = _judged(human_qrels)
    if human_frame.empty:
        raise InputError(f"the human qrels{_source(human_qrels)} judge no pair (every grade "
                         "is negative)")
    human_topics = list(dict.fromkeys(human_frame["topic"]))
    scores, labels = _per_topic(human_qrels, run_list, [measure], human_topics,
                                relevance_level, sample=True)
    if len(labels) != 1:
        raise ParameterError(f"measure: give one measure, {measure!r} names {len(labels)} "
                             f"({', '.join(labels[:5])})")
    setting = _Setting(
        run_list=run_list, names=[run.name for run in run_list],
        retrieved=_Retrieved.of(run_list), human_qrels=human_qrels, human=human_frame,
        human_topics=human_topics, human_scores=scores[:, :, 0], measure=labels[0],
        alpha=alpha, test=test, correction=correction, n_boot=n_boot, p=p, top_k=top_k,
        relevance_level=relevance_level)
    consistency = None
    if samples:
        consistency = consistency_of(named, run_list, setting.names, setting.measure,
                                     human_topics, relevance_level)
        named = [*named, *votes(named)]
    work = counted_work(AUDIT_SAMPLES, n_boot * len(named), "bootstrap of every judge's "
                        "agreement and rankings", progress,
                        need=float(REPLICATE_BYTES) * n_boot)
    seeds = np.random.SeedSequence(rng).spawn(len(named))
    audits = tuple(_audit_judge(name, qrels, setting, seed, work, i * n_boot)
                   for i, ((name, qrels), seed) in enumerate(zip(named, seeds, strict=True)))
    _warn_unjudged_topics(setting, [qrels for _, qrels in named])
    return AuditResult(judges=audits, measure=setting.measure, alpha=alpha, test=test,
                       correction=correction, n_boot=n_boot, top_k=top_k, p=p,
                       consistency=consistency)


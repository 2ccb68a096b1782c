"""The parameters of :mod:`irscale.labels`, declared once for the functions and the command
line (:class:`~irscale.core.params.Param`, :class:`~irscale.core.binding.Binding`)."""

from __future__ import annotations

from ..core.binding import Binding, Choice
from ..core.params import (
    INTERVAL_SAMPLES,
    NO_WORK,
    RELEVANCE,
    SEED,
    SIGNIFICANCE,
    Cost,
    Integers,
    Name,
    Names,
    Param,
    Switch,
)
from ..measures.citations import CITATION_FAMILIES
from ..meta.params import PERSISTENCE
from ..stats.names import MULTIPLE_CORRECTION
from ..text.params import MAX_CITATIONS

# ------------------------------------------------------------------ audit
#: The measure whose per-topic values order the systems in :func:`irscale.labels.audit`:
#: trec_eval's ``ndcg`` (nDCG over the whole ranking, graded gains), which uses the grades
#: a judge gives, not only their binary cut.
DEFAULT_AUDIT_MEASURE = "ndcg"
AUDIT_MEASURE = Param("measure", Name(), DEFAULT_AUDIT_MEASURE, "the measure (one, with "
                      "per-topic values) whose means order the runs under the human and the "
                      "judge's qrels", ("-m", "--measure"), "MEASURE")
#: The paired tests of the decisions (tests of two systems on the same topics).
AUDIT_TESTS: tuple[str, ...] = ("t", "wilcoxon", "sign")
AUDIT_TEST = Param("test", Names("test", AUDIT_TESTS, {"paired-t": "t",
                                                       "signed-rank": "wilcoxon"}, fold=True),
                   "t", "paired test of every pair of runs, under each qrels", ("--test",),
                   "TEST")
AUDIT_SAMPLES = Param("n_boot", INTERVAL_SAMPLES, 1000, "bootstrap resamples of the topics "
                      "(the percentile intervals of the agreement and of the rankings' "
                      "correlations)", ("-B", "--boot"), "B",
                      cost=Cost("resamples", per="a resample of the topics, a judge's "
                                "agreement and rankings recomputed"))
AUDIT_SEED = Param("rng", SEED, 0, "seed of the bootstrap resamples", ("--seed",), "S",
                   dest="seed", cost=NO_WORK)
AUDIT_RBO_P = Param("p", PERSISTENCE, 0.9, "RBO persistence of the system rankings",
                    ("--rbo-p",), "P")
#: The k of the top-k agreement where none is given (or the number of runs, where fewer).
DEFAULT_TOP_K = 5
AUDIT_TOP_K = Param("top_k", Integers(1), None, "the top-k agreement: the expected share of "
                    "the k best runs under the human qrels among the k best under the "
                    "judge's (at most the number of runs)", ("--top-k",), "K",
                    unset=f"{DEFAULT_TOP_K}, or the number of runs where fewer", cost=NO_WORK)
AUDIT_REPEATED = Param("samples", Switch(), False, "the judges are repeated samples of one "
                       "judge (the same model and prompt asked again): also their "
                       "consistency, and the votes over them audited as judges",
                       ("--samples",))
#: :func:`irscale.labels.audit`.
AUDIT = Binding((AUDIT_MEASURE, AUDIT_REPEATED, SIGNIFICANCE, AUDIT_TEST, MULTIPLE_CORRECTION,
                 AUDIT_SAMPLES, AUDIT_SEED, AUDIT_RBO_P, AUDIT_TOP_K, RELEVANCE))

# ------------------------------------------------------------------ audits of records
#: The parameters every audit of a model's records (assignments, citations) takes after its
#: score: the decisions' tests and the bootstrap of the agreement's intervals.
_RECORD_AUDIT = (SIGNIFICANCE, AUDIT_TEST, MULTIPLE_CORRECTION, AUDIT_SAMPLES, AUDIT_SEED,
                 AUDIT_RBO_P, AUDIT_TOP_K)


def _records_measure(domain: Name | Names, default: str, score: str, labels: str) -> Param:
    """``-m``: the ``score`` whose means order the runs under the human and the model's
    ``labels``."""
    return Param("measure", domain, default, f"the {score} whose means order the runs under "
                 f"the human and the model's {labels}", ("-m", "--measure"), "MEASURE")


def _records_mode(name: str, files: str, labels: str) -> Param:
    """``--<name>``: HUMAN and every ``--judge`` are ``files`` of records, a model's
    ``labels`` audited against human ones."""
    return Param(name, Switch(), False, f"HUMAN and every --judge are {files}: a model's "
                 f"{labels} audited against human ones, no runs", (f"--{name}",))


# ------------------------------------------------------------------ audit of assignments
#: The score whose per-topic values order the runs in
#: :func:`irscale.labels.audit_assignments`: the TREC 2024 RAG track's Weighted score with
#: partial credit (:mod:`irscale.text.assignments`).
DEFAULT_ASSIGNMENT_MEASURE = "W"
ASSIGNMENT_AUDIT_MEASURE = _records_measure(Name(), DEFAULT_ASSIGNMENT_MEASURE, "score (A, V "
                                            "or W, strict or with partial credit)",
                                            "assignments")
AUDIT_ASSIGNMENTS_MODE = _records_mode("assignments", "nugget assignment files (JSON lines, "
                                       "as text nuggets --assignments reads)", "assignments")
#: :func:`irscale.labels.audit_assignments`.
AUDIT_ASSIGNMENTS = Binding((ASSIGNMENT_AUDIT_MEASURE, *_RECORD_AUDIT))

# ------------------------------------------------------------------ audit of citations
#: The score whose per-topic values order the runs in
#: :func:`irscale.labels.audit_citations`: ALCE's citation recall
#: (:mod:`irscale.text.citations`).
DEFAULT_CITATION_MEASURE = "citation_recall"
CITATION_AUDIT_MEASURE = _records_measure(Names("citation measure", CITATION_FAMILIES),
                                          DEFAULT_CITATION_MEASURE, "citation score",
                                          "support labels")
AUDIT_CITATIONS_MODE = _records_mode("citations", "support judgment files of cited answers "
                                     "(JSON lines, as text citations reads)", "support labels")
#: :func:`irscale.labels.audit_citations`.
AUDIT_CITATIONS = Binding((CITATION_AUDIT_MEASURE, MAX_CITATIONS, *_RECORD_AUDIT))
#: ``irscale labels audit``: ``--assignments`` chooses the function, unless ``--citations``
#: is given (:data:`CITATIONS_CHOICE`).
AUDIT_CHOICE = Choice(AUDIT_ASSIGNMENTS_MODE, {False: AUDIT, True: AUDIT_ASSIGNMENTS},
                      shared=(AUDIT_MEASURE,), unless=(AUDIT_CITATIONS_MODE,))
#: ``irscale labels audit --citations`` calls :func:`irscale.labels.audit_citations`:
#: every other function's parameter it does not take is refused with it, and its own
#: (``--max-citations``) without it.
CITATIONS_CHOICE = Choice(AUDIT_CITATIONS_MODE, {
    True: AUDIT_CITATIONS,
    False: Binding(tuple({param.name: param for param in
                          (*AUDIT.params, *AUDIT_ASSIGNMENTS.params)}.values()))},
    shared=(AUDIT_MEASURE,))

"""The contexts a measure needs: what it is computed from (the keys of the one catalogue).

A measure family is registered under one context (:data:`CONTEXTS`); the one name parser
(:mod:`irscale.measures.names`) reads a name in the context of the evaluation that asks for
it, so that a name may stand for different families in two contexts (``U`` of a ranking
and ``U`` of a session; ``S`` of nuggets). This module imports nothing heavy: the command
line takes its ``--context`` choices from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Context = Literal["rankings", "intents", "sessions", "texts", "nuggets", "pyramids", "prefs",
                  "policies"]


@dataclass(frozen=True)
class ContextInfo:
    """What a context holds, the word naming its measures in messages, and examples."""

    what: str
    noun: str
    examples: tuple[str, ...]
    evaluated_by: str
    #: What a cut-off @k counts, and what a measure without one reads whole.
    unit: str = "documents"
    whole: str = "ranking"


#: Every context, in the order the catalogue lists them.
CONTEXTS: dict[str, ContextInfo] = {
    "rankings": ContextInfo(
        "judged rankings: a run's ranked lists judged against qrels (trec_eval's input)",
        "", ("map", "P@10", "nDCG(gain=exp)@10"), "irscale eval; irscale.evaluate"),
    "intents": ContextInfo(
        "rankings judged per intent (diversity qrels: topic intent docno rel)",
        "diversity", ("alpha-nDCG@20", "ERR-IA(alpha=0.5)@10", "D#-nDCG@10", "IA(nDCG@10)",
                      "ndeval"),
        "irscale eval with diversity qrels; irscale.evaluate with diversity qrels"),
    "sessions": ContextInfo(
        "multi-query sessions: the ranked lists of a session's queries, in order",
        "session", ("sDCG@10", "nsDCG(norm=jarvelin)@10", "U(L=132000)"),
        "irscale session; irscale.text.evaluate_sessions", unit="documents per query",
        whole="session"),
    "texts": ContextInfo(
        "candidate texts against reference texts (summaries, translations)",
        "ROUGE", ("ROUGE-2", "ROUGE-L(stat=r)", "ROUGE-SU4", "ROUGE-S(skip=inf,beta=2)",
                  "BLEU(smooth=floor)"),
        "irscale text rouge, irscale text bleu; irscale.text.evaluate_rouge, "
        "irscale.text.evaluate_bleu", whole="text"),
    "nuggets": ContextInfo(
        "answers matched against gold-standard nuggets (TREC QA, one-click iUnits)",
        "nugget", ("F_QA(beta=3)", "S(L=1000)", "Ssharp(L=1000,beta=1)"),
        "irscale text nuggets; irscale.text.evaluate_nuggets", whole="output"),
    "pyramids": ContextInfo(
        "peer summaries by the summary content units (SCUs) they express, against each "
        "topic's pyramid of SCUs weighted by the reference summaries expressing them",
        "pyramid", ("pyramid", "pyramid_modified"),
        "irscale text pyramid; irscale.text.evaluate_pyramid", whole="summary"),
    "prefs": ContextInfo(
        "a ranking against preference judgments (trec_eval's -R prefs and -R qrels_prefs: "
        "judgment groups of documents ordered by level)",
        "preference", ("prefs_simp", "prefs_pair", "prefs_avgjg"),
        "irscale eval -R prefs; irscale.evaluate(relevance_format='prefs')"),
    "policies": ContextInfo(
        "stochastic rankings: sampled rankings per topic (a run's second column numbers the "
        "sample) judged against qrels, documents in groups (a label set)",
        "fairness", ("EE-L(gamma=0.5)", "EE-R(level=group)", "AWRF@10", "nDCG-AWRF@20"),
        "irscale eval with fairness measures; irscale.evaluate"),
}

__all__ = ["CONTEXTS", "Context", "ContextInfo"]

"""Citations: the measures of answers' citations (``citation_recall``,
``citation_precision``, ``ais``, ``support_precision``, ``support_recall``,
:mod:`irscale.evaluation.citations`), averaged over the topics. They read support
judgments, an input :func:`irscale.evaluate` does not take: it names the runner that does."""

from __future__ import annotations

from ..context import RunnerContext, register


class Citations(RunnerContext):
    """Citations: evaluated by a command of their own (:attr:`command`)."""

    name = "citations"
    what = "citation measures"
    why = "they read the support judgments of the answers' sentences and citations"
    command = "irscale text citations"
    refused = ("citation measures read support judgments of the answers' sentences, not "
               "qrels and runs: irscale.text.evaluate_citations(judgments, measures)")


CITATIONS = register(Citations())

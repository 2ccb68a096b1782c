"""The measures of cited answers: names, formulas (Gao et al. 2023, ALCE; Rashkin et al.
2023, AIS; Thakur et al. 2025, the TREC 2024 RAG track's support evaluation).

Declared here, in the one catalogue under the context ``citations``; computed by the
kernels of :mod:`irscale.text.citations` (runner:
:func:`irscale.evaluation.citations.evaluate_citations`), whose module documentation
states each definition in full: an answer of sentences s, each citing the passages C(s),
judged supported (1), partially supported (0.5) or not (0) by C(s) together (j(s)) and
by each passage c alone (a(c)).
"""

from __future__ import annotations

from .base import Family, declare
from .params import Keywords

_ALCE = "Gao et al. 2023 (ALCE, eval.py compute_autoais)"
_AIS = "Rashkin et al. 2023 (AIS)"
_RAG = "Thakur et al. 2025 (TREC 2024 RAG track, support evaluation)"
#: Every measure of support judgments, in the order a call without measures gives.
CITATION_FAMILIES = ("citation_recall", "citation_precision", "ais", "support_precision",
                     "support_recall")


def _citation(name: str, doc: str, formula: str, source: str) -> None:
    declare(Family(name, None, Keywords(), doc, context="citations", cutoff="none",
                   formula=formula, source=source))


_citation("citation_recall", "ALCE citation recall: share of the sentences their "
          "citations together fully support (none cited: 0).",
          "Σ_s [j(s) = 1] / |s|", _ALCE)
_citation("citation_precision", "ALCE citation precision: share of the citations that "
          "are not superfluous in a supported sentence (a citation alone not supporting "
          "whose removal keeps the support is superfluous; no citation: 0).",
          "Σ_s p(s) / Σ_s |C(s)|, p(s) = [j(s) = 1]·|C(s)| − #superfluous", _ALCE)
_citation("ais", "AIS rate: mean attribution of the sentences to their citations, "
          "partial support counting 0.5.", "Σ_s j(s) / |s|", _AIS)
_citation("support_precision", "TREC RAG weighted precision: mean support of the "
          "citations, each judged alone (no citation: 0).",
          "Σ_s Σ_C(s) a(c) / Σ_s |C(s)|", _RAG)
_citation("support_recall", "TREC RAG weighted recall: mean over the sentences of the "
          "best support of one of their citations (none cited: 0).",
          "Σ_s max_C(s) a(c) / |s|", _RAG)

"""Citation measures of answers from the support judgments of their sentences
(:mod:`irscale.io.citations`): ALCE's citation recall and precision (Gao et al. 2023,
"Enabling Large Language Models to Generate Text with Citations", EMNLP; ``eval.py``'s
``compute_autoais`` in princeton-nlp/ALCE), the AIS rate (Rashkin et al. 2023,
"Measuring Attribution in Natural Language Generation Models", Computational
Linguistics) and the TREC 2024 RAG track's support scores (Thakur et al. 2025, "Support
Evaluation for the TREC 2024 RAG Track: Comparing Human versus LLM Judges", SIGIR).

An answer is its sentences s; sentence s cites the passages C(s) (the first K with
``max_citations=K``); j(s) is the judgment of C(s) together, a(c) of passage c alone,
w(c) of C(s) without c; each is 1 (supported), 0.5 (partially) or 0 (not). Per answer:

* ``citation_recall`` (ALCE): Σ_s [j(s) = 1] / |s|. ALCE's entailment model says yes or
  no: a partial support is no; a sentence citing nothing scores 0.
* ``citation_precision`` (ALCE): Σ_s p(s) / Σ_s |C(s)|, 0 when the answer cites nothing
  (ALCE's rule). p(s) = [j(s) = 1] for a sentence of one citation (0 for one of none); for
  one of several, 0 unless j(s) = 1, then the number of its citations that are not
  superfluous, a citation being superfluous when a(c) ≠ 1 and w(c) = 1 (it does not
  support the sentence alone, and the others support it without it).
* ``ais``: Σ_s j(s) / |s|, the mean attribution of the sentences, a partial support
  counting 0.5 as in the RAG track's partial credit (Rashkin et al.'s AIS is the share
  of sentences fully attributable, which is ``citation_recall``).
* ``support_precision`` (the RAG track's weighted precision): Σ_s Σ_{c ∈ C(s)} a(c) /
  Σ_s |C(s)|, 0 when the answer cites nothing;
* ``support_recall`` (the RAG track's weighted recall): Σ_s max_{c ∈ C(s)} a(c) / |s|,
  0 for a sentence citing nothing.

ALCE reports its scores × 100, irscale as fractions. ALCE's ``--at_most_citations`` (3)
and the RAG track's ``--max_citations`` (3) judge only a sentence's first three
citations: ``max_citations=3`` counts those only (a sentence's own ``support`` must then
be the judgment of those three, as ALCE's is). ALCE gives a sentence citing a passage it
was not given 0 and counts none of its citations: its record cites nothing.

The Thakur et al. paper's text could not be read where this was written: the two RAG
measures follow its stated summary (the share of citations, and of sentences, supported,
weighted 1 full, 0.5 partial) and the track's judging script (each (sentence,
citation) pair judged alone, first three citations); a sentence's recall taking its best
citation is irscale's reading (``docs/text.md``).

Two answers worked by hand (labels: j(s); a(c), w(c)):

* s1 cites c1 (a = 1); s2 cites nothing; s3 cites c2 (a = 0, w = 1), c3 (a = 1) with
  j = 1: recall 2/3, precision (1 + 0 + 1)/3 = 2/3 (c2 superfluous), support_precision
  (1 + 0 + 1)/3 = 2/3, support_recall (1 + 0 + 1)/3 = 2/3.
* s1 cites c1 (a = 0.5), c2 (a = 0.5) with j = 1, w(c1) = w(c2) = 0.5: recall 1,
  precision 2/2 = 1 (neither alone nor without, so both needed), ais 1,
  support_precision 0.5, support_recall 0.5.

A label a measure reads and the record does not give is an
:class:`~irscale.errors.InputFormatError` naming the file, the answer's line and its
text, the sentence and the citation. Every sum is one :func:`numpy.bincount`.

>>> from irscale.io.citations import read_citations
>>> c = read_citations([{"qid": "q1", "run": "A", "sentences": [
...     {"citations": [{"id": "c1", "support": 1}]}, {"citations": []},
...     {"support": 1, "citations": [{"id": "c2", "support": 0, "without": 1},
...                                  {"id": "c3", "support": 1}]}]}])
>>> v = citation_values(c, ["citation_recall", "citation_precision", "support_recall"])
>>> {k: round(float(x[0]), 4) for k, x in v.items()}
{'citation_recall': 0.6667, 'citation_precision': 0.6667, 'support_recall': 0.6667}
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import InputFormatError
from ..io.citations import NOT_GIVEN, Citations
from ..measures.citations import CITATION_FAMILIES
from .assignments import PARTIAL_CREDIT

#: Every measure of support judgments, in the order a call without measures gives.
DEFAULT_MEASURES = CITATION_FAMILIES
#: What ``measures`` may be (the start of the error otherwise).
CITATIONS_EXPECTED = ('measures must be citation measure names such as "citation_recall" or '
                      '["citation_precision", "support_recall"]')
#: The measures whose denominator is the answer's citations (0 when it cites none).
PER_CITATION = ("citation_precision", "support_precision")


def _missing(c: Citations, sentences: np.ndarray, citations: np.ndarray | None,
             label: str, measure: str) -> InputFormatError:
    """The error of the first sentence (citation) whose ``label`` ``measure`` reads."""
    s = int(sentences[0])
    record = int(c.sentence[s])
    number = s - int(np.searchsorted(c.sentence, record)) + 1
    where = f"sentence {number}"
    if citations is not None:
        k = int(citations[0])
        where += f", citation {k - int(np.searchsorted(c.citation, s)) + 1}"
    return InputFormatError(f"{where} has no {label!r}, which {measure} reads",
                            source=c.source, line=c.line[record],
                            text=c.text[record] if c.text else None)


class _Answers:
    """The judgments of ``c`` as the measures read them: the citations kept (the first
    ``max_citations`` of each sentence), their count and the joint judgment per
    sentence (a sentence of one citation taking its citation's when it gives none; of two,
    a citation's ``without`` being the other's label alone when not given)."""

    def __init__(self, c: Citations, max_citations: int | None,
                 read: np.ndarray | None = None) -> None:
        self.c = c
        n = len(c.sentence)
        #: The sentences whose labels are read (refused where missing): every one, or a
        #: human sample's.
        self.read = np.ones(n, dtype=bool) if read is None else read
        first = np.searchsorted(c.citation, np.arange(n))
        rank = np.arange(len(c.citation)) - first[c.citation]
        self.keep = np.ones(len(c.citation), dtype=bool) if max_citations is None \
            else rank < max_citations
        self.cited = c.citation[self.keep]
        self.alone = c.alone[self.keep].astype(np.int64)
        self.without = c.without[self.keep].astype(np.int64)
        self.kept = np.flatnonzero(self.keep)
        self.count = np.bincount(self.cited, minlength=n)
        # of two citations, the others without one are the other one: its label alone
        pair = np.flatnonzero((self.count[self.cited] == 2) & (self.without == NOT_GIVEN))
        first = np.searchsorted(self.cited, self.cited[pair]) == pair
        self.without[pair] = self.alone[np.where(first, pair + 1, pair - 1)]
        joint = c.support.astype(np.int64)
        joint[self.count == 0] = 0
        single = (self.count == 1) & (joint == NOT_GIVEN)
        joint[single] = self.alone[np.searchsorted(self.cited, np.flatnonzero(single))]
        self.joint = joint

    def joint_for(self, measure: str) -> np.ndarray:
        """j(s) of every sentence, refused where not given."""
        missing = np.flatnonzero((self.joint == NOT_GIVEN) & self.read)
        if len(missing):
            raise _missing(self.c, missing, None, "support", measure)
        return self.joint

    def alone_for(self, measure: str, where: np.ndarray | None = None) -> np.ndarray:
        """a(c) of every citation kept (``where``: those read), refused where not given."""
        alone = self.alone.copy()
        single = (self.count[self.cited] == 1) & (alone == NOT_GIVEN)
        alone[single] = self.joint[self.cited[single]]
        missing = np.flatnonzero((alone == NOT_GIVEN) & self.read[self.cited] &
                                 (True if where is None else where))
        if len(missing):
            raise _missing(self.c, self.cited[missing], self.kept[missing], "support",
                           measure)
        return alone


def sentence_scores(c: Citations, measure: str, *, max_citations: int | None = None,
                    read: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per sentence of ``c``, the numerator and the denominator ``measure`` adds up over
    an answer's sentences (module documentation): the per-item labels of a measure before
    it is averaged, each answer's value being Σ numerator / Σ denominator. ``read``: the
    sentences whose labels are read (a human sample of the sentences), the others' labels
    left unread (their numerators are meaningless); default every sentence. The
    denominator of a sentence (1, or its citations counted) reads no label."""
    a = _Answers(c, max_citations, read)
    n = len(c.sentence)
    if measure == "citation_recall":
        return (a.joint_for(measure) == 2).astype(np.float64), np.ones(n)
    if measure == "ais":
        return PARTIAL_CREDIT[a.joint_for(measure)], np.ones(n)
    count = a.count.astype(np.float64)
    if measure == "citation_precision":
        joint = a.joint_for(measure) == 2
        several = joint[a.cited] & (a.count[a.cited] > 1)
        alone = a.alone_for(measure, several)
        read = several & (alone != 2)
        missing = np.flatnonzero(read & (a.without == NOT_GIVEN) & a.read[a.cited])
        if len(missing):
            raise _missing(c, a.cited[missing], a.kept[missing], "without", measure)
        superfluous = np.bincount(a.cited[read & (a.without == 2)], minlength=n)
        return np.where(joint, count - superfluous, 0.0), count
    credit = PARTIAL_CREDIT[a.alone_for(measure)]
    if measure == "support_precision":
        return np.bincount(a.cited, weights=credit, minlength=n), count
    best = np.zeros(n)
    np.maximum.at(best, a.cited, credit)
    return best, np.ones(n)


def sentence_support(c: Citations, reader: str, *, max_citations: int | None = None
                     ) -> np.ndarray:
    """The code of every sentence's support j(s) as the measures read it (0 for a sentence
    citing nothing, its citation's for one of one citation), refused naming ``reader``
    where a sentence gives none."""
    return _Answers(c, max_citations).joint_for(reader)


def citation_values(c: Citations, measures: Sequence[str], *,
                    max_citations: int | None = None) -> dict[str, np.ndarray]:
    """The value of every measure (names of :data:`CITATION_FAMILIES`) for every answer of
    ``c``: Σ numerator / Σ denominator of its sentences (:func:`sentence_scores`), 0 for
    an answer citing nothing under a measure per citation (ALCE's rule)."""
    values: dict[str, np.ndarray] = {}
    for measure in measures:
        top, bottom = sentence_scores(c, measure, max_citations=max_citations)
        top = np.bincount(c.sentence, weights=top, minlength=len(c))
        bottom = np.bincount(c.sentence, weights=bottom, minlength=len(c))
        values[measure] = np.divide(top, bottom, out=np.zeros(len(c)), where=bottom > 0)
    return values


__all__ = ["CITATIONS_EXPECTED", "DEFAULT_MEASURES", "citation_values", "sentence_scores",
           "sentence_support"]

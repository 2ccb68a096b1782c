"""The runner of ROUGE: reference texts + candidate texts + measure names → an
:class:`~irscale.measures.results.Evaluation`. It reads the texts (:mod:`irscale.io.text`),
pairs every candidate with its topic's references and calls the kernels of
:mod:`irscale.text.rouge` (:func:`~irscale.text.rouge.tokenize`,
:func:`~irscale.text.rouge.rouge_scores`), whose module documentation states the measures,
their formulas and their sources. Declared as the ``texts`` context in
:mod:`.contexts.texts`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..core.segments import ranges
from ..io.text import read_stopwords
from ..measures.results import Evaluation
from ..text.params import EVALUATE_ROUGE
from ..text.rouge import DEFAULT_MEASURES, Multi, rouge_requests, rouge_scores, tokenize
from .outputs import pair_texts

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames


@EVALUATE_ROUGE
def evaluate_rouge(references: Any, candidates: Any,
                   measures: MeasureNames = DEFAULT_MEASURES, *, stem: bool = False,
                   stopwords: Any = None, multi: Multi = "max",
                   allow_empty: bool = False) -> Evaluation:
    """Evaluate runs of texts against reference texts with ROUGE
    (:mod:`irscale.text.rouge`).

    Parameters
    ----------
    references : path, bytes or Texts
        Reference texts ``topic<TAB>ref_id<TAB>text`` (:func:`irscale.io.text.read_texts`).
    candidates : path, bytes or Texts, or a list of them
        Candidate texts ``topic<TAB>run<TAB>text``; a file may hold several runs.
    measures, stem, multi
        As :func:`irscale.text.rouge.rouge`.
    stopwords : path, bytes or iterable of str, optional
        Stop words (a file: words separated by blanks or lines, ``#`` comments).
    allow_empty : bool
        Evaluate a run none of whose topics has references.

    Returns
    -------
    Evaluation
        One value per (run, topic) with references (``per_topic()``, ``mean()``,
        ``to_matrix()``); a run's topics without references are named in a warning and
        not evaluated, and the topics a run has no text for are missing for it.

    Examples
    --------
    >>> refs = b"q1\\tr1\\tthe cat sat on the mat\\nq2\\tr1\\ta dog barked\\n"
    >>> cands = b"q1\\tA\\tthe cat sat\\nq2\\tA\\ta dog\\nq1\\tB\\ton the mat\\nq2\\tB\\tdog\\n"
    >>> e = evaluate_rouge(refs, cands, ["ROUGE-1(stat=r)"])
    >>> e.mean().round(4)
    measure  ROUGE-1(stat=r)
    run
    A                 0.5833
    B                 0.4167
    """
    requests = rouge_requests(measures)
    pairs = pair_texts(references, candidates)
    words: Iterable[str] = ()
    if stopwords is not None:
        words = stopwords if isinstance(stopwords, (set, frozenset, list, tuple)) else \
            read_stopwords(stopwords)
    per_topic = np.bincount(pairs.reference_code, minlength=len(pairs.topics))
    first = np.cumsum(per_topic) - per_topic
    order = np.argsort(pairs.reference_code, kind="stable")
    sizes = per_topic[pairs.topic_code]
    ref_rows = order[ranges(first[pairs.topic_code], sizes)]
    n = len(pairs.texts)
    ids, offsets, vocabulary = tokenize(pairs.texts + list(pairs.references.text), stem=stem,
                                        stopwords=words)
    values = rouge_scores(ids, offsets, len(vocabulary), np.repeat(np.arange(n), sizes),
                          n + ref_rows, n, requests, multi)
    return pairs.evaluation(values, allow_empty=allow_empty)

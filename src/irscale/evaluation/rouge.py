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
from ..io.text import candidate_runs, read_stopwords
from ..measures.results import Evaluation
from ..text.params import ROUGE_MULTI
from ..text.rouge import DEFAULT_MEASURES, Multi, rouge_requests, rouge_scores, tokenize
from .outputs import read_candidates, read_text_source, text_evaluation


def evaluate_rouge(references: Any, candidates: Any,
                   measures: str | Iterable[str] = DEFAULT_MEASURES, *, stem: bool = False,
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
    multi = ROUGE_MULTI.check(multi)
    refs = read_text_source(references, "references")
    cands = read_candidates(candidates)
    words: Iterable[str] = ()
    if stopwords is not None:
        words = stopwords if isinstance(stopwords, (set, frozenset, list, tuple)) else \
            read_stopwords(stopwords)
    runs = candidate_runs(cands)
    ref_topics = np.asarray(refs.topic, dtype=object)
    order = np.argsort(ref_topics, kind="stable")
    topics, first, per_topic = np.unique(ref_topics[order], return_index=True,
                                         return_counts=True)
    topic_pos = {t: k for k, t in enumerate(topics.tolist())}
    c_topic = [t for c in cands for t in c.topic]
    c_run = [r for c in cands for r in c.id]
    c_text = [x for c in cands for x in c.text]
    known = np.array([t in topic_pos for t in c_topic], dtype=bool)
    kept = np.flatnonzero(known)
    unjudged = [sorted({t for t, r, k in zip(c_topic, c_run, known.tolist(), strict=True)
                        if r == run and not k}) for run in runs]
    t_code = np.array([topic_pos[c_topic[i]] for i in kept.tolist()], dtype=np.int64)
    sizes = per_topic[t_code] if len(t_code) else np.zeros(0, dtype=np.int64)
    ref_rows = order[ranges(first[t_code], sizes)] if len(t_code) else \
        np.zeros(0, dtype=np.int64)
    texts = [c_text[i] for i in kept.tolist()] + list(refs.text)
    ids, offsets, vocabulary = tokenize(texts, stem=stem, stopwords=words)
    cand = np.repeat(np.arange(len(kept)), sizes)
    values = rouge_scores(ids, offsets, len(vocabulary), cand, len(kept) + ref_rows,
                          len(kept), requests, multi)
    run_pos = {r: k for k, r in enumerate(runs)}
    return text_evaluation(runs, np.array([run_pos[c_run[i]] for i in kept.tolist()],
                                          dtype=np.int64),
                           [c_topic[i] for i in kept.tolist()], values,
                           gold_topics=topics.tolist(), unjudged=unjudged,
                           allow_empty=allow_empty, source=refs.source)

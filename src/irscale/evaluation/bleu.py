"""The runners of BLEU: reference texts + candidate texts + measure names → an
:class:`~irscale.measures.results.Evaluation` of sentence BLEU, or each run's corpus BLEU
(:class:`CorpusScores`). They read the texts (:mod:`irscale.io.text`), pair every candidate
with its topic's references and call the kernels of :mod:`irscale.text.bleu`
(:func:`~irscale.text.bleu.bleu_values`), whose module documentation states the formula,
its choices and its sources. Declared, with ROUGE, as the ``texts`` context in
:mod:`.contexts.texts`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from ..io.table import Column
from ..io.text import candidate_runs
from ..measures.results import Evaluation, RunSummaries
from ..text.bleu import DEFAULT_MEASURES, bleu_requests, bleu_values
from .outputs import read_candidates, read_text_source, text_evaluation


def _prepare(references: Any, candidates: Any) -> tuple[Any, ...]:
    """The rows to evaluate: runs, per kept candidate its run, topic and text, the
    reference texts with their topic codes, the topics and the unjudged topics per run."""
    refs = read_text_source(references, "references")
    cands = read_candidates(candidates)
    runs = candidate_runs(cands)
    topics = sorted(set(refs.topic))
    topic_pos = {t: k for k, t in enumerate(topics)}
    rows = [(r, t, x) for c in cands for t, r, x in zip(c.topic, c.id, c.text, strict=True)]
    kept = [row for row in rows if row[1] in topic_pos]
    unjudged = [sorted({t for r, t, _ in rows if r == run and t not in topic_pos})
                for run in runs]
    run_pos = {r: k for k, r in enumerate(runs)}
    run_index = np.array([run_pos[r] for r, _, _ in kept], dtype=np.int64)
    hyp_group = np.array([topic_pos[t] for _, t, _ in kept], dtype=np.int64)
    ref_group = np.array([topic_pos[t] for t in refs.topic], dtype=np.int64)
    return runs, run_index, kept, hyp_group, refs, ref_group, topics, unjudged


def evaluate_bleu(references: Any, candidates: Any,
                  measures: str | Iterable[str] = DEFAULT_MEASURES, *,
                  allow_empty: bool = False) -> Evaluation:
    """Sentence BLEU of every (run, topic) text against the topic's reference texts.

    Parameters
    ----------
    references : path, bytes or Texts
        Reference texts ``topic<TAB>ref_id<TAB>text`` (:func:`irscale.io.text.read_texts`).
    candidates : path, bytes or Texts, or a list of them
        Candidate texts ``topic<TAB>run<TAB>text``; a file may hold several runs.
    measures : str or list of str
        ``BLEU``, ``BLEU(smooth=floor,value=0.1)``, ``BLEU(tokenize=intl)`` ...
    allow_empty : bool
        Evaluate a run none of whose topics has references.

    Returns
    -------
    Evaluation
        One value per (run, topic) with references, summarised by their mean (corpus BLEU
        is no function of these values: :func:`evaluate_corpus_bleu`).

    Examples
    --------
    >>> refs = b"q1\\tr1\\tthe cat sat on the mat\\nq2\\tr1\\ta dog barked\\n"
    >>> cands = b"q1\\tA\\tthe cat sat on a mat\\nq2\\tA\\ta dog barked\\n"
    >>> evaluate_bleu(refs, cands).mean().round(4)
    measure    BLEU
    run
    A        0.7686
    """
    requests = bleu_requests(measures)
    runs, run_index, kept, hyp_group, refs, ref_group, topics, unjudged = \
        _prepare(references, candidates)
    values = bleu_values([x for _, _, x in kept], list(refs.text), ref_group, hyp_group,
                         requests, None)
    return text_evaluation(runs, run_index, [t for _, t, _ in kept], values,
                           gold_topics=topics, unjudged=unjudged, allow_empty=allow_empty,
                           source=refs.source)


@dataclass(frozen=True)
class CorpusScores(RunSummaries):
    """Corpus values of every run (a :class:`~irscale.io.table.SummaryTable`: the output
    writers print them as the runs' summary lines; :meth:`mean` is the runs × measures
    table, :meth:`to_frame` and :meth:`format` those of every evaluation's summaries)."""

    run_names: tuple[str, ...]
    columns: tuple[Column, ...]
    values: dict[str, np.ndarray]

    @property
    def runs(self) -> tuple[str, ...]:
        return self.run_names

    def summary(self, run_index: int) -> list[tuple[Column, Any]]:
        """``(column, corpus value)`` of one run."""
        return [(c, float(self.values[c.label][run_index])) for c in self.columns]


def evaluate_corpus_bleu(references: Any, candidates: Any,
                         measures: str | Iterable[str] = ("BLEU(effective=0)",)
                         ) -> CorpusScores:
    """Corpus BLEU of every run over its topics with references (inputs as
    :func:`evaluate_bleu`'s; a run with none of them is an error).

    >>> refs = b"q1\\tr1\\tthe cat sat on the mat\\nq2\\tr1\\ta dog barked\\n"
    >>> cands = b"q1\\tA\\tthe cat sat on a mat\\nq2\\tA\\ta dog barked\\n"
    >>> evaluate_corpus_bleu(refs, cands).mean().round(4)
    measure  BLEU(effective=0)
    run
    A                   0.5969
    """
    requests = bleu_requests(measures)
    runs, run_index, kept, hyp_group, refs, ref_group, _, _ = _prepare(references,
                                                                       candidates)
    missing = sorted(set(range(len(runs))) - set(run_index.tolist()))
    if missing:
        raise InputError(f"run {runs[missing[0]]!r} has no text for a topic of the "
                         f"references ({refs.source})")
    values = bleu_values([x for _, _, x in kept], list(refs.text), ref_group, hyp_group,
                         requests, run_index)
    return CorpusScores(tuple(runs), tuple(Column(label) for label in values), values)

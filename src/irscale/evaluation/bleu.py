"""The runners of BLEU: reference texts + candidate texts + measure names → an
:class:`~irscale.measures.results.Evaluation` of sentence BLEU, or each run's corpus BLEU
(:class:`CorpusScores`). They read the texts (:mod:`irscale.io.text`), pair every candidate
with its topic's references and call the kernels of :mod:`irscale.text.bleu`
(:func:`~irscale.text.bleu.bleu_values`), whose module documentation states the formula,
its choices and its sources. Declared, with ROUGE, as the ``texts`` context in
:mod:`.contexts.texts`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.notebook import counted
from ..errors import InputError
from ..io.table import Column, check_run_index
from ..measures.results import Evaluation, RunSummaries
from ..text.bleu import DEFAULT_MEASURES, bleu_requests, bleu_values
from ..text.params import BLEU, CORPUS_BLEU
from .outputs import pair_texts

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames


@BLEU
def evaluate_bleu(references: Any, candidates: Any,
                  measures: MeasureNames = DEFAULT_MEASURES, *,
                  allow_empty: bool = False) -> Evaluation:
    """Sentence BLEU of every (run, topic) text against the topic's reference texts.

    Parameters
    ----------
    references, candidates
        As :func:`~irscale.evaluation.rouge.evaluate_rouge` takes them: reference texts,
        and the candidate texts of one run or several.
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
    pairs = pair_texts(references, candidates)
    return pairs.evaluation(bleu_values(pairs.texts, list(pairs.references.text),
                                        pairs.reference_code, pairs.topic_code, requests, None),
                            allow_empty=allow_empty)


@dataclass(frozen=True, repr=False)
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

    def _caption(self) -> str:
        return (f"CorpusScores: {counted(len(self.runs), 'run')}, "
                f"{counted(len(self.measures), 'measure')} (each run's corpus value)")

    def summary(self, run_index: int) -> list[tuple[Column, Any]]:
        """``(column, corpus value)`` of one run."""
        run_index = check_run_index(self, run_index)
        return [(c, float(self.values[c.label][run_index])) for c in self.columns]


@CORPUS_BLEU
def evaluate_corpus_bleu(references: Any, candidates: Any,
                         measures: MeasureNames = ("BLEU(effective=0)",)
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
    pairs = pair_texts(references, candidates)
    missing = sorted(set(range(len(pairs.runs))) - set(pairs.run_index.tolist()))
    if missing:
        raise InputError(f"run {pairs.runs[missing[0]]!r} has no text for a topic of the "
                         f"references ({pairs.references.source})")
    values = bleu_values(pairs.texts, list(pairs.references.text), pairs.reference_code,
                         pairs.topic_code, requests, pairs.run_index)
    return CorpusScores(tuple(pairs.runs), tuple(Column(label) for label in values), values)

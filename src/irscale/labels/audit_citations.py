"""The audit of a model's citation support labels against human ones
(:func:`audit_citations`): the questions :func:`irscale.labels.audit` asks of relevance
judges, asked of the support judgments of cited answers (records of
:mod:`irscale.io.citations`: per (topic, run) the answer's sentences, the passages each
cites and whether they support it, as ALCE and the TREC 2024 RAG track judge them), a
human file against one or more model files (an entailment model, an LLM judge).

**Items.** A label is the item: a sentence's ``support`` (its citations together, ALCE's
recall), a citation's ``support`` (the passage alone) and its ``without`` (the sentence's
other citations without it, ALCE's precision's second condition). An item is named by
(topic, run, sentence index, citation, label): the sentence's place in its answer
(1-based, the order of the record's ``sentences``), the cited passage's id (none for the
sentence's own label) and which label; the labels of two files are matched by that name.
A label a record leaves out (a human sample of the labels, a label no measure reads) is no
item of that side.

**The same answers.** A record (topic, run) of both files must be the same answer: as
many sentences, each citing the same passages (in any order). One that differs is
refused (:class:`~irscale.errors.InputFormatError` naming the model's file, line and
text, and the human file and line): the files are not labels of the same answers. A
record of one file only is no fault: it is counted (``coverage``), never dropped in
silence.

**Topics compared** and the statistics are those of the audit of nugget assignments
(:mod:`irscale.labels.audit_records`): 1. **label agreement** over the items both label,
the label as an ordinal grade (``not_supported`` 0, ``partially_supported`` 1,
``supported`` 2), every kind of label together: Cohen's κ unweighted, linear and
quadratic, Krippendorff's α ordinal, the confusion matrix (the model's grades as rows),
with bootstrap intervals over the topics; 2. **ranking fidelity** of the runs' mean
citation score ``measure`` (:mod:`irscale.text.citations`: ``citation_recall`` by
default, ``citation_precision``, ``ais``, ``support_precision``, ``support_recall``; the
first ``max_citations`` of each sentence), each side's score of an answer computed from
its own labels: τ_b, τ_ap, RBO, top-k; 3. **decision fidelity** of the paired tests of
every pair of runs; 4. **bias** per run of the model's score minus the human one (the
mixed model, Holm by default). The items one side labels and the other does not, the
records, runs and topics of one side only are counted in ``coverage``, per run in
``unjudged``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..errors import InputFormatError
from .audit import AuditResult
from .audit_records import Side, Subject, audit_sides, named_inputs, score_table
from .params import AUDIT_CITATIONS, DEFAULT_CITATION_MEASURE

if TYPE_CHECKING:  # pragma: no cover
    from ..core.progress import ProgressArg
    from ..io.citations import Citations
    from ..stats.corrections import Correction

__all__ = ["audit_citations"]

#: The columns that name an item (module documentation).
ITEM = ("topic", "run", "sentence", "citation", "label")
#: The labels, by the name of the item's ``label`` column: a sentence's support, a
#: citation's alone and without it.
SENTENCE, ALONE, WITHOUT = "support", "citation support", "without"


def _places(c: Citations) -> tuple[np.ndarray, np.ndarray]:
    """Per sentence its record and its 1-based place in the record's answer."""
    record = np.asarray(c.sentence, dtype=np.int64)
    first = np.searchsorted(record, np.arange(len(c)))
    return record, np.arange(len(record)) - first[record] + 1


def _frame(c: Citations, sentence: np.ndarray, citation: list[str], label: str,
           rel: np.ndarray) -> pd.DataFrame:
    """The items of one label (module documentation), ``sentence`` the sentences' rows."""
    record, place = _places(c)
    rows = record[sentence]
    return pd.DataFrame({
        "topic": np.asarray(c.topic, dtype=object)[rows],
        "run": np.asarray(c.run, dtype=object)[rows], "sentence": place[sentence],
        "citation": citation, "label": label, "rel": rel.astype(np.int64),
        "line": np.asarray(c.line, dtype=np.int64)[rows], "record": rows})


def _items(c: Citations) -> pd.DataFrame:
    """One row a label ``c`` gives (:data:`ITEM`, its grade ``rel``, its record's line)."""
    from ..io.citations import NOT_GIVEN

    passage = np.asarray(c.passage, dtype=object)
    parts = [_frame(c, np.flatnonzero(c.support != NOT_GIVEN),
                    [""] * int((c.support != NOT_GIVEN).sum()), SENTENCE,
                    c.support[c.support != NOT_GIVEN])]
    for label, codes in ((ALONE, c.alone), (WITHOUT, c.without)):
        given = np.flatnonzero(codes != NOT_GIVEN)
        parts.append(_frame(c, c.citation[given], list(passage[given]), label, codes[given]))
    return pd.concat(parts, ignore_index=True)


def _structure(c: Citations) -> pd.DataFrame:
    """One row a sentence (``citation`` empty) and one a citation of every answer of
    ``c``: what two records of the same answer share whatever their labels."""
    sentences = _frame(c, np.arange(len(c.sentence)), [""] * len(c.sentence), "",
                       np.zeros(len(c.sentence)))
    cited = _frame(c, np.asarray(c.citation), list(c.passage), "",
                   np.zeros(len(c.citation)))
    return pd.concat([sentences, cited], ignore_index=True)[
        ["topic", "run", "sentence", "citation", "line", "record"]]


def _same_answers(human: Citations, judge: Citations) -> None:
    """Every record (topic, run) of both is the same answer (module documentation): the
    first sentence or citation of one of them only is refused, naming the judge's file,
    line and text and the human file and line."""
    mine, theirs = _structure(judge), _structure(human)
    shared = set(zip(human.topic, human.run, strict=True)) & \
        set(zip(judge.topic, judge.run, strict=True))
    if not shared:
        return
    key = ["topic", "run", "sentence", "citation"]

    def on_shared(frame: pd.DataFrame) -> pd.DataFrame:
        return frame[pd.MultiIndex.from_frame(frame[["topic", "run"]]).isin(list(shared))]

    both = on_shared(mine).merge(on_shared(theirs), on=key, how="outer",
                                 suffixes=("_judge", "_human"), indicator=True)
    odd = both[both["_merge"] != "both"]
    if odd.empty:
        return
    row = odd.sort_values(["topic", "run", "sentence"], kind="stable").iloc[0]
    here = row["_merge"] == "left_only"
    record = int(row["record_judge"]) if here else \
        list(zip(judge.topic, judge.run, strict=True)).index((row["topic"], row["run"]))
    h_lines = dict(zip(zip(human.topic, human.run, strict=True), human.line, strict=True))
    what = f"sentence {row['sentence']}" if not row["citation"] else \
        f"sentence {row['sentence']}'s citation of {row['citation']!r}"
    human_at = f"the human support judgments ({human.source}, line " \
        f"{h_lines[(row['topic'], row['run'])]})"
    raise InputFormatError(
        f"{what} of (topic {row['topic']!r}, run {row['run']!r}) is "
        f"{f'here and not in {human_at}' if here else f'in {human_at} and not here'}: the "
        "audit compares labels of the same answers (the same sentences citing the same "
        "passages)", source=judge.source, line=judge.line[record],
        text=judge.text[record] if judge.text else None)


def _side(c: Citations, measure: str, max_citations: int | None) -> Side:
    """The records of ``c`` as one side of the audit, scored by ``measure``."""
    from ..text.citations import citation_values

    def scores(topics: list[str], runs: list[str]) -> np.ndarray:
        values = citation_values(c, [measure], max_citations=max_citations)[measure]
        return score_table(values, c.topic, c.run, topics, runs)

    return Side(c.source, c.topic, c.run, _items(c), scores)


@AUDIT_CITATIONS
def audit_citations(human: Any, judges: Any, *, measure: str = DEFAULT_CITATION_MEASURE,
                    max_citations: int | None = None, alpha: float = 0.05, test: str = "t",
                    correction: Correction = "holm", n_boot: int = 1000, rng: int = 0,
                    p: float = 0.9, top_k: int | None = None, progress: ProgressArg = False
                    ) -> AuditResult:
    """Audit a model's citation support labels against human ones (module documentation).

    Parameters
    ----------
    human : path, bytes, list of record dicts or Citations, or a list of them
        The human support judgments (:func:`irscale.io.read_citations`' JSON lines).
    judges : one such input, a sequence of them, or a mapping ``{name: input}``
        The models' support judgments, named by their files (a mapping: by its keys).
    measure : str
        The citation score whose per-topic values order the runs: ``citation_recall``
        (default), ``citation_precision``, ``ais``, ``support_precision``,
        ``support_recall`` (:mod:`irscale.text.citations`).
    max_citations : int, optional
        Score the first ``max_citations`` citations of every sentence only (the agreement
        compares every label given).
    alpha, test, correction, n_boot, rng, p, top_k, progress
        As for :func:`irscale.labels.audit`.

    Returns
    -------
    AuditResult
        One :class:`~irscale.labels.JudgeAudit` a model (``subject`` ``"citations"``):
        its ``unjudged`` table counts per run the labels each side gives.

    Examples
    --------
    >>> def answer(topic, run, label):
    ...     return {"qid": topic, "run_id": run, "sentences": [
    ...         {"citations": [{"docid": "d1", "support": label}]}]}
    >>> human = [answer(t, r, "supported" if r == "A" else "not_supported")
    ...          for t in ("1", "2", "3") for r in ("A", "B")]
    >>> result = audit_citations(human, {"model": human}, n_boot=10)
    >>> result.judge("model").agreement["estimate"].tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    from ..evaluation.citations import read_judgments

    records = read_judgments(human)
    named = named_inputs(judges, read_judgments)
    found = dict(named)
    subject = Subject("human support judgments", "support label",
                      "passage ids or topics written differently?", ITEM,
                      lambda both, judge, name: _same_answers(records, found[name]))
    return audit_sides(_side(records, measure, max_citations),
                       [(name, _side(c, measure, max_citations)) for name, c in named],
                       subject, measure, alpha=alpha, test=test, correction=correction,
                       n_boot=n_boot, rng=rng, p=p, top_k=top_k, progress=progress,
                       kind="citations")

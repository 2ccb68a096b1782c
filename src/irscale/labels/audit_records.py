"""What the audits of labelled answer records share (:mod:`irscale.labels.audit_assignments`,
nugget assignments; :mod:`irscale.labels.audit_citations`, citation support labels): a
human file and one or more model files of records, one a (topic, run), whose labelled
items are matched by a key, audited as :func:`irscale.labels.audit` audits qrels.

**Topics compared.** The runs both sides have records of (two at least); the topics where
every one of those runs has a record under both sides (two at least: the intervals and
the tests). Every statistic is computed on those topics, the same draws of them for the
agreement and the rankings (:func:`irscale.labels.audit.fidelity`): the agreement over
the items both label (their grades 0, 1, 2), the rankings, decisions and bias of the
runs' mean score under each side's own labels.

**Nothing imputed.** The items one side labels and the other does not, the records
(topic, run) of one side only, the runs of one side only and the topics left out (a run
without a record there) are counted in the ``coverage`` table, and per run the items
labelled by both and by each (the ``unjudged`` table); an item one side lacks is left out
of the agreement, never given a label.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.progress import ProgressArg, check_progress, counted_work
from ..errors import AlignmentError, InputError, ParameterError
from .audit import REPLICATE_BYTES, AuditResult, JudgeAudit, _confusions, _Options, fidelity
from .params import AUDIT_SAMPLES, DEFAULT_TOP_K

if TYPE_CHECKING:  # pragma: no cover
    from ..stats.corrections import Correction


@dataclass(frozen=True)
class Side:
    """One side's records: their ``source``, per record its ``topic`` and ``run``; its
    labelled ``items`` (one row an item: the key columns, ``topic``, ``run``, the grade
    ``rel`` 0 to 2 and the record's ``line``); ``scores(topics, runs)``: the score of every
    (topic, run) under its own labels, topics × runs."""

    source: str
    topic: tuple[str, ...]
    run: tuple[str, ...]
    items: pd.DataFrame
    scores: Callable[[list[str], list[str]], np.ndarray]


@dataclass(frozen=True)
class Subject:
    """What is audited, in the words of the messages: the human file's ``what`` (``human
    assignments``), the item (``nugget``), why no item may be shared (``nugget texts
    written differently?``), the key columns of an item and ``same``, called with the
    items both label (the key, ``_human`` and ``_judge`` columns) and the judge's
    :class:`Side` and name, which refuses items whose fixed parts differ."""

    what: str
    item: str
    why_none: str
    key: tuple[str, ...]
    same: Callable[[pd.DataFrame, Side, str], None]


def score_table(values: np.ndarray, topic: Sequence[str], run: Sequence[str],
                topics: list[str], runs: list[str]) -> np.ndarray:
    """``values`` (one a record of ``topic``, ``run``) as topics × runs."""
    table = pd.Series(values, index=pd.MultiIndex.from_arrays([list(topic), list(run)]))
    return table.reindex(pd.MultiIndex.from_product([topics, runs])).to_numpy(
        dtype=np.float64).reshape(len(topics), len(runs))


def _audit_one(name: str, judge: Side, human: Side, subject: Subject, options: _Options,
               seed: np.random.SeedSequence, work: Any, done: int) -> JudgeAudit:
    """The audit of one model's records (module documentation)."""
    items_h, items_j = human.items, judge.items
    key = list(subject.key)
    where = f"{name!r} ({judge.source})"
    runs_h, runs_j = list(dict.fromkeys(human.run)), set(judge.run)
    runs = [r for r in runs_h if r in runs_j]
    if len(runs) < 2:
        raise AlignmentError(f"judge {where} and the {subject.what} ({human.source}) "
                             f"share {len(runs)} run{'s' if len(runs) != 1 else ''} "
                             f"({', '.join(map(repr, runs))}): the rankings need two at "
                             "least; run ids written differently, or files of other runs?")
    records_h = set(zip(human.topic, human.run, strict=True))
    records_j = set(zip(judge.topic, judge.run, strict=True))
    topics = [t for t in dict.fromkeys(human.topic)
              if all((t, r) in records_h and (t, r) in records_j for r in runs)]
    if len(topics) < 2:
        raise InputError(f"judge {where} and the {subject.what} ({human.source}) have "
                         f"records of every shared run on {len(topics)} topic"
                         f"{'s' if len(topics) != 1 else ''}: the intervals and the tests "
                         "need two at least")
    if options.top_k > len(runs):
        raise InputError(f"judge {where} shares {len(runs)} runs with the {subject.what}: "
                         f"fewer than top_k {options.top_k}")
    both = items_h.merge(items_j, on=key, suffixes=("_human", "_judge"))
    subject.same(both, judge, name)
    compared = both[both["topic"].isin(topics)]
    if compared.empty:
        raise InputError(f"judge {where} and the {subject.what} label no {subject.item} in "
                         "common on the compared topics: there is no agreement to measure "
                         f"({subject.why_none})")
    grades = np.unique(np.concatenate([compared["rel_human"], compared["rel_judge"]]))
    tables = fidelity(_confusions(compared, topics, grades), grades,
                      human.scores(topics, runs), judge.scores(topics, runs), runs, options,
                      np.random.default_rng(seed), work, done)
    on_h = items_h[items_h["topic"].isin(topics) & items_h["run"].isin(runs)]
    on_j = items_j[items_j["topic"].isin(topics) & items_j["run"].isin(runs)]
    compared = compared[compared["run"].isin(runs)]
    shared_elsewhere = len(both) - len(compared)
    n_both = len(compared)
    coverage = pd.DataFrame({"what": [
        "items labelled by both (compared topics and runs)",
        "items labelled by the judge only (compared topics and runs)",
        "items labelled by the humans only (compared topics and runs)",
        "items labelled by both on topics or runs left out",
        "topics of the humans left out (a shared run without a record under one side)",
        "records (topic, run) of the humans only", "records (topic, run) of the judge only",
        "runs of the humans only", "runs of the judge only"], "count": [
        n_both, len(on_j) - n_both, len(on_h) - n_both, shared_elsewhere,
        len(set(human.topic)) - len(topics), len(records_h - records_j),
        len(records_j - records_h), len(set(runs_h) - runs_j), len(runs_j - set(runs_h))]})

    def per_run(frame: pd.DataFrame) -> np.ndarray:
        return frame["run"].value_counts().reindex(runs, fill_value=0).to_numpy(np.int64)

    items = pd.DataFrame({"run": runs, "records": len(topics), "items_human": per_run(on_h),
                          "items_judge": per_run(on_j), "items_both": per_run(compared)})
    return JudgeAudit(judge=name, source=judge.source, topics=len(topics), **tables,
                      unjudged=items, coverage=coverage)


def audit_sides(human: Side, named: list[tuple[str, Side]], subject: Subject, label: str,
                *, alpha: float, test: str, correction: Correction, n_boot: int, rng: int,
                p: float, top_k: int | None, progress: ProgressArg, kind: str
                ) -> AuditResult:
    """Every model's records (``named``) audited against the human ones (module
    documentation): the :class:`~irscale.labels.AuditResult` of the score ``label``, its
    ``subject`` ``kind`` (``assignments``, ``citations``)."""
    check_progress(progress)
    if not named:
        raise ParameterError(f"judges: give the {kind} of one model at least", param="judges")
    runs = len(set(human.run))
    if top_k is None:
        top_k = min(DEFAULT_TOP_K, runs)
    elif top_k > runs:
        raise ParameterError(f"top_k {top_k} exceeds the number of runs of the "
                             f"{subject.what} ({runs})", param="top_k")
    options = _Options(alpha=alpha, test=test, correction=correction, n_boot=n_boot, p=p,
                       top_k=top_k)
    work = counted_work(AUDIT_SAMPLES, n_boot * len(named), "bootstrap of every model's "
                        "agreement and rankings", progress,
                        need=float(REPLICATE_BYTES) * n_boot)
    seeds = np.random.SeedSequence(rng).spawn(len(named))
    audits = tuple(_audit_one(name, judge, human, subject, options, seed, work, i * n_boot)
                   for i, ((name, judge), seed) in enumerate(zip(named, seeds, strict=True)))
    return AuditResult(judges=audits, measure=label, alpha=alpha, test=test,
                       correction=correction, n_boot=n_boot, top_k=top_k, p=p, subject=kind)


def named_inputs(judges: Any, read: Callable[[Any], Any]) -> list[tuple[str, Any]]:
    """The judges' names and records (``read`` of each input): a mapping keeps its names;
    one input or a sequence of inputs (paths, bytes, records read) is named by its files
    (:func:`irscale.io.naming.file_names`; ``judge1`` ... where an input has no file)."""
    from collections.abc import Mapping

    from ..io.naming import file_names

    if isinstance(judges, Mapping):
        return [(str(name), read(source)) for name, source in judges.items()]
    listed = list(judges) if isinstance(judges, (list, tuple)) and judges and \
        not all(isinstance(j, Mapping) for j in judges) else [judges]
    found = [read(source) for source in listed]
    names = file_names([None if a.source.startswith("<") else a.source for a in found],
                       [f"judge{i + 1}" for i in range(len(found))], stacklevel=4)
    return list(zip(names, found, strict=True))


__all__ = ["Side", "Subject", "audit_sides", "named_inputs", "score_table"]

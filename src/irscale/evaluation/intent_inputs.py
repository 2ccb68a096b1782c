"""The inputs of the diversity runner (:mod:`.diversity`), read: the diversity qrels, the runs
judged per intent as they are read, and the optional files of NTCIREVAL's families (intent
probabilities and types, α per topic).

The measures layer computes on what is read here (:mod:`irscale.measures.diversity`: the
qrels' index, the judging of a run held in memory, the kernels); every file is opened here,
through the readers of :mod:`irscale.io.diversity` and :mod:`irscale.io.sources`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

import numpy as np

from ..core.inputs import Run
from ..core.strings import Strings
from ..errors import InputError
from ..io.diversity import (
    DiversityQrels,
    engine_file,
    engine_read,
    ndeval_qrels,
    ndeval_run,
    read_diversity_qrels,
    read_ndeval_run,
)
from ..io.files import reading_limit
from ..io.naming import name_runs, source_name
from ..measures.diversity.rankings import DiversityIndex, DiversityRankings, RunJudge
from ..parallel.threads import map_threads

Read = TypeVar("Read")


class JudgedRuns(NamedTuple):
    """The runs read and judged per intent (:func:`read_and_judge`): the runs, named; their
    rankings as one batch (run by run, topics in ndeval's order); the run of each ranking;
    and each ranking's topic id."""

    runs: list[Run]
    rankings: DiversityRankings
    run_of: np.ndarray
    topic_ids: list[str]


def read_qrels(qrels: Any, ndeval_ids: bool) -> DiversityQrels:
    """The diversity qrels ``qrels`` (a path, bytes or :class:`DiversityQrels`), their ids
    read as ndeval reads them with ``ndeval_ids``."""
    if isinstance(qrels, DiversityQrels):
        return ndeval_qrels(qrels) if ndeval_ids else qrels
    return read_diversity_qrels(qrels, ndeval=ndeval_ids)


def read_optional(source: Any, reader: Callable[[Any], Read], kind: type[Read]
                  ) -> Read | None:
    """An optional input: ``None`` stays ``None``, one of type ``kind`` is already read,
    anything else is read with ``reader``."""
    if source is None or isinstance(source, kind):
        return source
    return reader(source)


def read_and_judge(index: DiversityIndex, runs: Any, traditional: bool,
                   max_docs: int | None = None, *, keep_rows: bool = True,
                   ndeval_ids: bool = False) -> JudgedRuns:
    """Read ``runs`` and judge every run against ``index``
    (:class:`~irscale.measures.diversity.rankings.RunJudge`): the runs, named
    (:func:`~irscale.io.naming.name_runs`), the batch of rankings (run by run, topics in
    :func:`~irscale.measures.diversity.rankings.id_sort_key` order), the run of each
    ranking, and each ranking's topic id.

    Paths are read as ndeval reads them (:func:`~irscale.io.diversity.read_ndeval_run`).
    Without ``keep_rows`` the engine reads, orders and judges the files side by side
    (:meth:`~irscale.core.diversity_kernels.IntentJudge.judge_files`), no run's rows
    reaching Python (the returned runs keep their names, sources and run ids only); with
    it, each file is read by the engine in a thread of its own and judged there.
    Other inputs (:class:`Run` objects aside) go through
    :func:`irscale.io.sources.as_runs`. With ``ndeval_ids`` the runs' topic ids are read as
    ndeval reads them (:func:`~irscale.io.diversity.ndeval_run`).
    """
    items = runs if isinstance(runs, (list, tuple)) else [runs]
    judge = RunJudge.of(index, traditional, max_docs)
    if not keep_rows and items and all(isinstance(item, (str, os.PathLike)) for item in items):
        return _judge_files(judge, items, ndeval_ids)
    if not all(isinstance(item, (str, os.PathLike, Run)) for item in items):
        from ..io.sources import as_runs

        run_list = as_runs(runs, keep_rank=True)
        if ndeval_ids:
            run_list = [ndeval_run(run) for run in run_list]
        return JudgedRuns(run_list, *judge.batch([judge.run(run) for run in run_list]))

    def read(item: Any) -> tuple[Run, Any]:
        if isinstance(item, Run):
            run = ndeval_run(item) if ndeval_ids else item
        else:
            run = read_ndeval_run(item, ndeval_topics=ndeval_ids)
        return run, judge.run(run)

    pairs = map_threads(read, items)  # errors: those of the first run (in order) with one
    return JudgedRuns(name_runs([run for run, _ in pairs]),
                      *judge.batch([part for _, part in pairs]))


def _judge_files(judge: RunJudge, paths: Sequence[Any], ndeval_ids: bool) -> JudgedRuns:
    """:func:`read_and_judge` of run files whose rows are not kept: read, put in ndeval's
    order and judged by the engine (:meth:`RunJudge.file` orders each run's rankings)."""
    files, refused = [], None
    for path in paths:  # a file refused here comes after the faults of those before it
        try:
            files.append(engine_file(path, "read_ndeval_run", checked=False))
        except InputError as error:
            refused = error
            break
    judged = engine_read(lambda: judge.engine.judge_files(
        files, judge.index.topics, judge.traditional, judge.max_docs, ndeval_ids,
        reading_limit()), files)
    if refused is not None:
        raise refused
    runs = [Run(name=source_name(source, result[0][0]), topic=_NO_STRINGS,
                docno=_NO_STRINGS, score=_NO_SCORES, source=source, runids=tuple(result[0]))
            for (_, source), result in zip(files, judged, strict=True)]
    return JudgedRuns(name_runs(runs), *judge.batch([judge.file(result) for result in judged]))


_NO_STRINGS = Strings.of([])
_NO_SCORES = np.empty(0)


__all__ = ["JudgedRuns", "read_and_judge", "read_optional", "read_qrels"]

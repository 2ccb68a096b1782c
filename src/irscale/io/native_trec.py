"""TREC qrels and run files judged by the native engine: from the files' bytes to one
:class:`~irscale.core.judged.JudgedRankings`, without ``Qrels`` or ``Run`` objects.

The engine (``irscale._engine.judge_trec_batch``, ``rust/src/read``) reads the files as
:mod:`irscale.io.trec` does: the same lines accepted and refused, the same values, the
same errors (file, line and text). It decompresses gzip data itself, a block at a time,
within the line and memory limits every reader keeps (:func:`irscale.io.files.read_text`).
It ranks every run by the tie policy and judges it against the qrels as
:func:`irscale.core.judge.build_judged_rankings` does (:mod:`irscale.core.native_judge`).

>>> jr = judge_trec((b"1 0 d1 1\\n1 0 d2 0\\n", "qrels"),
...                 [(b"1 Q0 d2 1 2.0 bm25\\n1 Q0 d1 2 1.0 bm25\\n", "run")])
>>> jr.rel.tolist(), jr.runs
([0, 1], ('bm25',))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.judged import JudgedRankings
from ..core.native_judge import judged_rankings
from ..core.options import RankingOptions
from .files import PathLike
from .native_files import RunNote, judge_batch, trec_file


def judge_trec(
    qrels: tuple[bytes | PathLike, str],
    runs: Sequence[tuple[bytes | PathLike, str]],
    options: RankingOptions | None = None,
    *,
    names: Sequence[str | None] | Callable[[list[RunNote]], list[str]] | None = None,
    placeholders: bool = False,
) -> JudgedRankings:
    """The judged rankings of the run files ``runs`` against the qrels file ``qrels``,
    each given as ``(bytes or path, name in messages)`` (plain or gzip-compressed; the
    engine reads a file given by its path when its turn comes, so that a run's bytes are
    held while it is read and judged only).

    ``names``: each run's name (``None``: as trec_eval 9.0.8, the run id of its last line;
    a file that holds several run ids is warned of), or a function from the runs'
    :class:`RunNote` to their names, which gives the runs' warnings (:meth:`RunNote.warn`)
    in its order (also when a file is refused: given the notes of the files read before,
    and the refused file's if it was read, it gives their warnings only).
    ``placeholders``: trec_eval 10's ``-c`` (:func:`~irscale.core.judge.build_judged_rankings`).
    Faults of a file raise the errors of :func:`irscale.read_qrels` and
    :func:`irscale.read_run`, with the same messages.
    """
    return judge_counted(qrels, runs, options, names=names, placeholders=placeholders)[0]


def judge_counted(
    qrels: tuple[bytes | PathLike, str],
    runs: Sequence[tuple[bytes | PathLike, str]],
    options: RankingOptions | None = None,
    *,
    names: Sequence[str | None] | Callable[[list[RunNote]], list[str]] | None = None,
    placeholders: bool = False,
) -> tuple[JudgedRankings, Callable[[int], int]]:
    """:func:`judge_trec`, and the number of the qrels' judgments with a degree at least
    ``level`` (a function of ``level`` ≥ 0, over every qrels topic: the summary of
    ``num_rel`` with ``-c``, :func:`irscale.evaluation.setup.complete_num_rel`)."""
    options = options or RankingOptions()
    batch, run_names = judge_batch(qrels, runs, options, names=names, placeholders=placeholders)
    return engine_judgment(batch.arrays(), run_names, options, placeholders=placeholders)


def engine_judgment(judged: tuple, run_names: Sequence[str], options: RankingOptions, *,
                    placeholders: bool = False
                    ) -> tuple[JudgedRankings, Callable[[int], int]]:
    """The judged rankings of the arrays of the engine's judged batch
    (``judge_trec_batch(...).arrays()``, or ``judge_dicts``), the runs named
    ``run_names``, and the number of the qrels' judgments with a degree at least ``level``
    (a function of ``level``)."""
    (rel, offsets, rel_levels, degrees, dense, judgments, ranking_topic, ranking_run,
     placeholder, topics, _, unjudged, tie_groups) = judged
    jr = judged_rankings(rel, offsets, rel_levels, degrees, dense, ranking_topic,
                         ranking_run, placeholder, topics, run_names, unjudged, options,
                         placeholders=placeholders, tie_groups=tie_groups)

    def at_least(level: int) -> int:
        return int(judgments[degrees >= level].sum())

    return jr, at_least


def judge_files(
    qrels: PathLike,
    runs: Sequence[PathLike],
    options: RankingOptions | None = None,
    *,
    complete: bool = False,
) -> JudgedRankings:
    """:func:`judge_trec` of files given by their paths; the options are trec_eval's
    ranking options, declared once (:class:`~irscale.core.options.RankingOptions`, its
    defaults when ``None``), ``complete`` its ``-c``. Runs are named after their last run
    id."""
    return judge_trec(trec_file(qrels), [trec_file(path) for path in runs], options,
                      placeholders=complete)

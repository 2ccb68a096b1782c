"""What every evaluation of judged rankings checks: its options and measure requests before
any input is read (:func:`evaluation_setup`), the runs' topics once they are judged
(:func:`check_run_topics`, :func:`check_topics`), and the totals that replace a summary with ``-c``
(:func:`complete_num_rel`).

Imports neither numpy nor pyarrow: :func:`irscale.evaluate` and the command line's
evaluation of TREC files by the engine (:mod:`irscale.evaluation.trec_text`) share it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

from ..core.options import EXPECTED, RankingOptions, compat_option, is_flag
from ..core.records import record
from ..errors import AlignmentError, NoteWarning, ParameterError
from ..measures.engine_calls import EvalContext
from .options import trec_eval_keywords, trec_eval_options

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack  # typing's from Python 3.11

    from ..core.rows import TopicRows
    from ..measures.base import MeasureRequest
    from ..measures.name_hints import MeasureNames
    from ..measures.trec_plain import PlainRequest
    from .options import TrecEvalKeywords


@record
class EvaluationSetup:
    """The checked options of an evaluation: how runs are ranked and judged, the context of
    the measures and the parsed measure requests (:func:`evaluation_setup`)."""

    options: RankingOptions
    context: EvalContext
    #: (those of plain names, :class:`~irscale.measures.trec_plain.PlainRequest`, on the
    #: path of trec_eval's text: :func:`irscale.evaluation.trec_text.trec_eval_text`)
    requests: tuple[MeasureRequest, ...]


@trec_eval_keywords
def evaluation_setup(measures: MeasureNames = "official",
                     **trec: Unpack[TrecEvalKeywords]) -> EvaluationSetup:
    """The options of :func:`irscale.evaluate` (same names and meaning), checked before any input is
    read: a :class:`ParameterError` or :class:`MeasureError` otherwise."""
    from ..measures.names import parse_measures

    options, context = setup_options(trec)
    requests = tuple(parse_measures(measures, compat=context.compat))
    if options.ties == EXPECTED:
        requests = tie_aware_members(requests)
    return EvaluationSetup(options, context, requests)


def setup_options(trec: TrecEvalKeywords) -> tuple[RankingOptions, EvalContext]:
    """trec_eval's options of :func:`evaluation_setup` checked (``--compat`` first, as
    before any other option): how runs are ranked and judged, and the measures' context."""
    o = trec_eval_options(trec)
    compat_option(o.compat)  # first, as before any other option
    for flag, value in (("judged_only (-J)", o.judged_only), ("complete (-c)", o.complete)):
        if not is_flag(value):
            raise ParameterError(f"{flag} must be True or False, got {value!r}")
    options = RankingOptions(relevance_level=o.relevance_level, max_docs=o.max_docs,
                             judged_only=o.judged_only, ties=o.ties, compat=o.compat)
    return options, EvalContext(compat=o.compat, num_docs_in_coll=o.num_docs_in_coll,
                                complete=o.complete)


def tie_aware_members(requests: tuple[MeasureRequest, ...]) -> tuple[MeasureRequest, ...]:
    """``requests`` without the members of trec_eval's measure sets (``official``, the
    default, ``all_trec``, ``set``) that have no tie-aware value (``iprec_at_recall``...),
    named in one :class:`~irscale.errors.NoteWarning`: with ``--ties expected`` a set
    gives the tie-aware values of those of its measures that have one. A measure named by
    itself is kept, to be refused naming the tie-aware ones
    (:func:`~irscale.measures.compute.check_tie_aware`), as is a set none of whose
    measures has a tie-aware value."""
    from ..measures.compute import check_tie_aware, has_tie_aware_value
    from ..measures.trec_table import NICKNAMES, NICKNAMES10

    left = [request for request in requests
            if request.requested in (*NICKNAMES, *NICKNAMES10)
            and not has_tie_aware_value(request)]
    if not left:
        return requests
    kept = tuple(request for request in requests if request not in left)
    if not kept:
        check_tie_aware(left[0])
    sets = list(dict.fromkeys(request.requested for request in left))
    names = list(dict.fromkeys(request.family for request in left))
    one, several = len(names) == 1, len(sets) > 1
    warnings.warn(NoteWarning(
        f"--ties expected: {', '.join(names)}, of the measure set{'s' if several else ''} "
        f"{', '.join(sets)}, {'has' if one else 'have'} no tie-aware value and "
        f"{'is' if one else 'are'} left out; {'their' if several else 'its'} other "
        "measures are evaluated"), stacklevel=3)
    return kept


def check_run_topics(runs: Sequence[str], evaluated: Sequence[int],
                     unjudged_topics: Sequence[Sequence[str]],
                     gold_topics: Sequence[str] | Callable[[], Sequence[str]], *,
                     allow_empty: bool = False, qrels_source: str | None = None,
                     gold: str = "qrels", results: str = "results",
                     judgments: str = "judgments", stacklevel: int = 2,
                     why: str | None = None) -> None:
    """The checks of :func:`irscale.evaluation.check_topics` on what they read of judged
    runs: each run's name, its number of evaluated topics (``evaluated``), its topics with
    results but no judgments, and the gold standard's topics in the order shown (or the
    function that gives them, called only for the message of a run with none of them: a
    million topics take a while to sort). A run with
    no evaluated topic raises :class:`AlignmentError` unless ``allow_empty``; then each
    run's unjudged topics are named in a warning (``stacklevel``: the warning's, seen from
    here)."""
    empty = [k for k, count in enumerate(evaluated) if count == 0]
    if empty and not allow_empty:
        first = empty[0]
        named = (f"run {runs[first]!r} has" if len(empty) == 1 else
                 f"{len(empty)} runs ({', '.join(repr(runs[k]) for k in empty[:5])}"
                 f"{', ...' if len(empty) > 5 else ''}) have")
        where = f" ({qrels_source})" if qrels_source else ""
        which = "the run" if len(empty) == 1 else repr(runs[first])
        raise AlignmentError(
            f"{named} no topic in common with the {gold}{where}: {which} has topics "
            f"{some_topics(unjudged_topics[first])}, the {gold} "
            f"{some_topics(gold_topics() if callable(gold_topics) else gold_topics)} "
            f"({why or f'{gold} of another collection, or topic ids written differently?'}); "
            "--allow-empty (allow_empty=True) evaluates it anyway")
    for run, unjudged in zip(runs, unjudged_topics, strict=True):
        if unjudged:
            listed = f"{', '.join(unjudged[:10])}{' ...' if len(unjudged) > 10 else ''}"
            warnings.warn(
                f"run {run!r}: {len(unjudged)} topic(s) with {results} but no {judgments} are "
                f"not evaluated: {listed}",
                stacklevel=stacklevel + 1,
            )


def check_topics(rankings: TopicRows, *, allow_empty: bool = False,
                 qrels_source: str | None = None, gold: str = "qrels",
                 results: str = "results", judgments: str = "judgments",
                 stacklevel: int = 3, gold_topics: Sequence[str] | None = None,
                 why: str | None = None) -> None:
    """The checks of the topics of judged runs, made by every function that evaluates runs
    (:func:`evaluate`, :func:`irscale.scales.transform`, ...), so that they all say the same.

    A run with no topic in common with the qrels raises :class:`AlignmentError` naming it
    and showing some topic ids of each side, unless ``allow_empty``. Then each run's topics
    with results but no judgments (not evaluated, as in trec_eval) are named in a warning.
    ``gold``, ``results`` and ``judgments`` name the three for evaluations of other
    outputs (``irscale text``: "references", "outputs", "references"); ``stacklevel`` is
    that of the warning (default: the caller of the function that calls this one).
    ``gold_topics``: the gold standard's topics, when they are not ``rankings.topics``
    (sessions: the rankings' topics are session ids); ``why``: the likely cause said when
    no topic is in common (default: another collection, or topic ids written differently).
    """
    import numpy as np  # (the rankings' arrays are numpy's: loaded by their maker)

    evaluated = rankings.ranking_run
    if rankings.placeholder is not None:  # trec_eval 10's -c stand-ins are not in common
        evaluated = evaluated[~rankings.placeholder]
    counts = np.bincount(evaluated, minlength=len(rankings.runs)).tolist()
    check_run_topics(rankings.runs, counts, rankings.unjudged_topics,
                     sorted(rankings.topics if gold_topics is None else gold_topics),
                     allow_empty=allow_empty, qrels_source=qrels_source, gold=gold,
                     results=results, judgments=judgments, stacklevel=stacklevel + 1,
                     why=why)


def warn_unfinished_10(runs: Sequence[str], evaluated: Sequence[int], qrels_topics: int,
                       setup: EvaluationSetup, *, stacklevel: int = 2) -> None:
    """Warn, under ``--compat 10`` without ``-c``, of each run that lacks some of the
    ``qrels_topics`` qrels topics (``evaluated``: each run's topics in common).

    trec_eval 10.0 (trec_eval.c, commit f425365) loops over the qrels topics; without
    ``-c``, the first one a run lacks stops it: ``trec_eval: result qid '3' not found in
    qrels`` (the qrels topic's id, the words inverted), exit 4, no value printed. Its loop
    says it evaluates "each topic which has both qrels and top results information", as
    9.0.8 does: irscale takes the abort for a bug and evaluates the topics in common, and
    says that 10.0 prints nothing here (docs/trec_eval_semantics.md, ``-c``)."""
    if setup.context.compat != 10 or setup.context.complete:
        return
    for run, count in zip(runs, evaluated, strict=True):
        if count < qrels_topics:
            warnings.warn(
                f"run {run!r} has no results for {qrels_topics - count} of the "
                f"{qrels_topics} qrels topics: trec_eval 10.0 stops at the first of them "
                "(\"trec_eval: result qid '...' not found in qrels\", exit 4, no values); "
                "irscale evaluates the topics in common, as 9.0.8 does (-c: every qrels "
                "topic, as 10.0 does)", stacklevel=stacklevel + 1)


def some_topics(topics: Sequence[str], shown: int = 5) -> str:
    """``'101, 102, 103 ... (50 topics)'``: a few topic ids and their number."""
    listed = ", ".join(topics[:shown]) + (" ..." if len(topics) > shown else "")
    return f"{listed} ({len(topics)} topic{'s' if len(topics) != 1 else ''})"


def complete_totals(at_least: Callable[[int], int], setup: EvaluationSetup
                     ) -> dict[str, int]:
    """The totals of ``-c`` in trec_eval 9.0.8 and 10.0 (:func:`complete_num_rel`: both
    have the one ``te_calc_avg_num_rel``; none without ``-c``), ``at_least(level)`` the
    number of the qrels' judgments with a degree ≥ ``level``."""
    if not setup.context.complete:
        return {}
    return complete_num_rel(at_least, setup.requests, setup.options.relevance_level)


def complete_num_rel(at_least: Callable[[int], int],
                     requests: Sequence[MeasureRequest | PlainRequest],
                     relevance_level: int) -> dict[str, int]:
    """The ``num_rel`` summary with ``-c`` in trec_eval 9.0.8 and 10.0, per ``num_rel`` column.

    trec_eval's ``te_calc_avg_num_rel`` (m_num_rel.c, the same in 9.0.8 and 10.0) replaces
    the sum over evaluated topics by a count over the whole qrels: every judgment line with
    ``rel > 0``, of every qrels topic (topics the run misses included) — whatever ``-l``.
    A column whose name sets its own level (``NumRel(rel=2)``) counts the judgments of
    degree ≥ that level. With ``-l`` above 1 the two differ: a warning says so.
    ``at_least(level)``: the number of the qrels' judgments with a degree ≥ ``level`` (≥ 1).
    A request of a plain name (:class:`~irscale.measures.trec_plain.PlainRequest`) is
    spelt the trec_eval way.
    """
    totals: dict[str, int] = {}
    for request in requests:
        if request.family != "num_rel":
            continue
        label = request.family if trec_spelt(request) else request.requested
        if request.relevance_level is not None:
            totals[label] = at_least(request.relevance_level)
            continue
        totals[label] = at_least(1)
        at_level = at_least(relevance_level)
        if at_level != totals[label]:
            warnings.warn(
                f"{label} with -c: the summary counts the {totals[label]} judgments > 0 of "
                f"every qrels topic, as trec_eval 9.0.8 does whatever -l (10.0 too; with degree ≥ "
                f"{relevance_level}: {at_level}; per topic, num_rel uses -l)",
                stacklevel=3,
            )
    return totals


def trec_spelt(request: MeasureRequest | PlainRequest) -> bool:
    """Whether ``request`` was spelt the trec_eval way: a plain name's always
    (``trec_spelt``), the catalogue's as :func:`irscale.measures.names.is_trec_request`
    reads it."""
    if getattr(request, "trec_spelt", False):
        return True
    from ..measures.names import is_trec_request

    return is_trec_request(request)  # type: ignore[arg-type]


__all__ = ["EvaluationSetup", "check_run_topics", "check_topics", "complete_num_rel",
           "complete_totals", "evaluation_setup", "setup_options", "some_topics",
           "warn_unfinished_10"]

"""``irscale.evaluate``: qrels + runs + measure names → per-topic values and summaries.

The runs are judged once into a :class:`~irscale.core.judged.JudgedRankings` batch by the
native engine: from the files' bytes when the qrels and runs are TREC files (or dicts),
from the columns of the ``Qrels`` and ``Run`` objects the Python readers make otherwise
(:func:`irscale.io.native_inputs.native_inputs` decides); every requested measure family
is then computed by its kernel over the whole batch. Summaries
follow trec_eval 9.0.8's rules (``meas_avg.c``):

* means divide by the number of evaluated topics, or with ``complete`` (``-c``) by the
  number of topics in the qrels (topics the run misses count 0);
* geometric means (gm_map, gm_bpref) average ``log(max(v, 1e-5))`` and, with ``complete``,
  count each missing topic as ``log(1e-5)``;
* counts (num_ret, num_rel, num_rel_ret, ...) are summed; ``num_q`` counts topics. With
  ``complete``, 9.0.8's ``num_rel`` counts the judgments > 0 of every qrels topic instead
  (:func:`~irscale.evaluation.setup.complete_num_rel`);
* a mean over values one of which is NaN is that NaN, sign included (printed ``-nan`` as
  trec_eval prints it; the engine computes the summaries: ``rust/src/output/summary.rs``).

The result is an :class:`~irscale.measures.results.Evaluation` (the one result of every
evaluation, diversity measures included: their summaries are ndeval's). Topics a run
retrieved documents for but that have no judgments are not evaluated (as in trec_eval);
they are listed in :attr:`Evaluation.unjudged_topics` and a warning says so.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cache.calls import CacheCall, cached
from ..core.inputs import Qrels, Run
from ..core.judge import build_judged_rankings
from ..core.judged import JudgedRankings
from ..io.naming import NameSpec, run_id
from ..io.native_files import RunNote
from ..io.native_inputs import NativeInputs, judge_native, native_inputs
from ..io.sources import as_qrels, as_runs, named_run_files
from ..io.table import Averaging
from ..measures.base import label_sets_named, scores_needed
from ..measures.compute import compute_shared
from ..measures.results import Evaluation, build_evaluation
from .options import trec_eval_keywords
from .setup import (
    EvaluationSetup,
    check_topics,
    complete_totals,
    evaluation_setup,
    warn_unfinished_10,
)

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack  # typing's from Python 3.11

    from .options import TrecEvalKeywords


@trec_eval_keywords
def run_judged(held: list[Any], measures: Any, *,
               labels: Mapping[str, Any] | None = None, allow_empty: bool = False,
               zscores: Any = None, cache: CacheCall | None = None,
               names: NameSpec | None = None,
               **trec: Unpack[TrecEvalKeywords]) -> Evaluation:
    """The runner of judged rankings (:data:`~irscale.evaluation.contexts.judged.JUDGED`):
    :func:`irscale.evaluate` of ``held`` (``[qrels, runs]``, handed over and emptied here)
    with trec_eval's and the catalogue's measures; the options are
    :func:`~irscale.evaluate`'s (``cache``: the results cache and the call it keys). The
    options are checked before any file is read; the Z
    file (``zscores``) is read before the qrels and runs, as ``trec_eval -Z`` reads it."""
    reference = None
    if zscores is not None:  # (not with compat=10 or labels: irscale.evaluate's binding)
        from ..io.zscores import read_zscores

        reference = read_zscores(zscores)
    setup = evaluation_setup(measures, **trec)
    # the warnings name the caller of irscale.evaluate: _evaluate, the lambda, cached, this
    # runner, the context's, irscale.evaluate, the caller (with a cache: recorded, shown
    # again by cached from there)
    evaluation = cached(cache, setup, lambda: _evaluate(held, setup, labels, allow_empty,
                                                        names, stacklevel=8), stacklevel=5)
    if reference is None:
        return evaluation
    from ..measures.zscored import zscore_evaluation

    return zscore_evaluation(evaluation, reference)


def _evaluate(held: list[Any], setup: EvaluationSetup, labels: Mapping[str, Any] | None,
              allow_empty: bool, names: NameSpec | None = None, *, stacklevel: int = 4
              ) -> Evaluation:
    """:func:`evaluate` of ``held`` (``[qrels, runs]``, emptied here) once its options are
    checked (``setup``), the runs named as ``names`` says (``None``: the default rule).
    ``stacklevel``: that of the warnings, seen from here."""
    qrels, runs = held
    held.clear()
    ties = setup.options.ties
    if names is not None:  # run files named once read (by the engine where it judges
        # them), other runs read here and named
        runs = named_run_files(runs, names) or \
            as_runs(runs, keep_rank=ties == "rank-column", names=names)
    inputs = native_inputs(qrels, runs, labels=labels, ties=ties,
                           scores=scores_needed(setup.requests))
    if isinstance(inputs, NativeInputs):  # TREC files or dicts: judged by the engine
        judged = _judge_native(inputs, setup, allow_empty=allow_empty, stacklevel=stacklevel)
    else:
        judged = _judge(as_qrels(qrels), as_runs(runs, keep_rank=ties == "rank-column"),
                        setup, labels=labels, allow_empty=allow_empty, stacklevel=stacklevel)
    # the inputs are not needed for the measures: runs and qrels read here from files (or
    # passed on by a caller that keeps no reference, as the command line) are freed before
    # them, and the measures' arrays reuse their memory ((iv): a 2M-line run and 2M qrels
    # lines, peak 428 -> 366 MB)
    del qrels, runs
    return _measure(*judged, setup, labels, stacklevel=stacklevel)


def evaluate_judged(
    qrels: Qrels, runs: list[Run], setup: EvaluationSetup, *,
    labels: Mapping[str, Any] | None = None, allow_empty: bool = False, stacklevel: int = 2,
    warn_ties: bool = True,
) -> Evaluation:
    """:func:`evaluate` of runs already read, with options already checked (``setup``).
    ``stacklevel``: that of the warnings (default: the caller). ``warn_ties``: warn of the
    rankings whose order of ties matters (:func:`tie_warning`; else the caller does).
    """
    judged = _judge(qrels, runs, setup, labels=labels, allow_empty=allow_empty,
                    stacklevel=stacklevel + 1)
    return _measure(*judged, setup, labels, stacklevel=stacklevel + 1, warn_ties=warn_ties)


def evaluate_native(inputs: NativeInputs, setup: EvaluationSetup, *, allow_empty: bool = False,
                    names: Callable[[list[RunNote]], list[str]] | None = None,
                    stacklevel: int = 2, warn_ties: bool = True) -> Evaluation:
    """:func:`evaluate_judged` of TREC files judged by the engine
    (:func:`irscale.io.native_inputs.native_inputs`); ``names``: the runs' names from what
    the engine says of them (:func:`irscale.io.native_inputs.judge_native`)."""
    judged = _judge_native(inputs, setup, allow_empty=allow_empty, names=names,
                           stacklevel=stacklevel + 1)
    return _measure(*judged, setup, None, stacklevel=stacklevel + 1, warn_ties=warn_ties)


def tie_warning(dependent: int, rankings: int) -> str:
    """The warning of ``--ties expected`` when ``dependent`` of ``rankings`` topic rankings
    hold tied documents of different relevance
    (:meth:`~irscale.core.judged.JudgedRankings.tie_dependent`)."""
    return (f"{dependent} of {rankings} topic rankings hold tied documents of different "
            "relevance: their trec_eval values depend on the order of the ties; the values "
            "given are their expectations over every order (--ties expected)")


def _judge(qrels: Qrels, runs: list[Run], setup: EvaluationSetup, *,
           labels: Mapping[str, Any] | None = None,
           allow_empty: bool = False, stacklevel: int = 3
           ) -> tuple[JudgedRankings, dict[str, int], tuple[str, ...], tuple[str, ...]]:
    """The first half of :func:`evaluate_judged`: the judged rankings (labels attached,
    topics checked), the totals of ``-c`` (trec_eval 9.0.8), the runs' run ids
    (:func:`~irscale.io.naming.run_id`) and sources, all that the measures need of
    ``qrels`` and ``runs``. ``stacklevel``: that of the warnings, seen from here."""
    options, context = setup.options, setup.context
    jr = build_judged_rankings(qrels, runs, options,
                               placeholders=context.complete and context.compat == 10)
    scores = scores_needed(setup.requests)
    if labels or scores:  # (their modules imported here: an evaluation without them is
        # spared their import)
        from ..core.conditional import CONDITIONAL, with_conditional
        from ..core.labels import attach_labels
        from ..io.labels import read_labels

        tables = {str(name): read_labels(source) for name, source in (labels or {}).items()}
        jr = attach_labels(jr, qrels, runs, options, tables, scores=scores)
        if CONDITIONAL in tables and any(r.conditional for r in setup.requests):
            jr = with_conditional(jr, qrels, tables[CONDITIONAL])
    check_topics(jr.rows, allow_empty=allow_empty, qrels_source=qrels.source,
                 stacklevel=stacklevel + 1)
    _warn_unfinished(jr, len(qrels.topics), setup, stacklevel + 1)
    rel = qrels.rel
    return jr, complete_totals(lambda level: int(np.count_nonzero(rel >= level)), setup), \
        tuple(run_id(run) for run in runs), tuple(run.source for run in runs)


def _judge_native(inputs: NativeInputs, setup: EvaluationSetup, *, allow_empty: bool = False,
                  names: Callable[[list[RunNote]], list[str]] | None = None,
                  stacklevel: int = 3
                  ) -> tuple[JudgedRankings, dict[str, int], tuple[str, ...], tuple[str, ...]]:
    """:func:`_judge` of TREC files judged by the engine
    (:func:`irscale.io.native_inputs.native_inputs`)."""
    context = setup.context
    runids: list[str] = []

    def named(notes: list[RunNote]) -> list[str]:
        runids[:] = inputs.runids(notes)
        return (names or inputs.run_names)(notes)

    jr, at_least = judge_native(inputs, setup.options, names=named,
                                placeholders=context.complete and context.compat == 10)
    check_topics(jr.rows, allow_empty=allow_empty, qrels_source=inputs.qrels_name,
                 stacklevel=stacklevel + 1)
    _warn_unfinished(jr, len(jr.rows.topics), setup, stacklevel + 1)
    return jr, complete_totals(at_least, setup), tuple(runids), tuple(inputs.sources)


def _warn_unfinished(jr: JudgedRankings, qrels_topics: int, setup: EvaluationSetup,
                     stacklevel: int) -> None:
    """:func:`~irscale.evaluation.setup.warn_unfinished_10` of the judged rankings."""
    counts = np.bincount(jr.rows.ranking_run, minlength=len(jr.rows.runs)).tolist()
    warn_unfinished_10(jr.rows.runs, counts, qrels_topics, setup, stacklevel=stacklevel + 1)


def _measure(jr: JudgedRankings, totals: dict[str, int], runids: tuple[str, ...],
             sources: tuple[str, ...], setup: EvaluationSetup,
             labels: Mapping[str, Any] | None, *, stacklevel: int = 3,
             warn_ties: bool = True) -> Evaluation:
    """The second half of :func:`evaluate_judged`: the measures of judged rankings
    (:func:`_judge`'s; ``runids``: the runs' run ids, which trec_eval's ``runid``
    prints; ``sources``: the runs' files, by which a run is designated too).
    ``stacklevel``: that of the warnings, seen from here."""
    columns, values = compute_shared(jr, setup.requests, setup.context)
    if warn_ties and (dependent := jr.tie_dependent()):
        warnings.warn(tie_warning(dependent, jr.n_rankings), stacklevel=stacklevel)
    # after the measures: a measure that needs a label set not given is the one error,
    # not a warning about the set given in its place followed by that error
    unused = []
    if labels:
        from ..core.labels import unused_label_sets

        unused = unused_label_sets(labels, label_sets_named(setup.requests))
    if unused:
        warnings.warn(f"label set(s) {', '.join(unused)} given but used by no measure "
                      "requested", stacklevel=stacklevel)
    return build_evaluation(values, jr.rows,
                                  Averaging("trec_eval", complete=setup.context.complete,
                                            n_qrels_topics=len(jr.topics), totals=totals),
                                  columns=columns, rankings=jr, runids=runids,
                                  sources=sources)

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
  (:func:`~irscale.evaluation_setup.complete_num_rel`);
* a mean over values one of which is NaN is that NaN, sign included (printed ``-nan`` as
  trec_eval prints it; the engine computes the summaries: ``rust/src/output/summary.rs``).

The result is an :class:`~irscale.measures.results.Evaluation` (the one result of every
evaluation, diversity measures included: their summaries are ndeval's). Topics a run
retrieved documents for but that have no judgments are not evaluated (as in trec_eval);
they are listed in :attr:`Evaluation.unjudged_topics` and a warning says so.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .core.conditional import CONDITIONAL, with_conditional
from .core.inputs import Qrels, Run
from .core.judge import build_judged_rankings
from .core.judged import JudgedRankings
from .core.labels import attach_labels, unused_label_sets
from .core.options import MAX_DOCS, TiePolicy, integer_option, is_flag
from .core.rows import TopicRows
from .errors import AlignmentError, ParameterError, shorten
from .evaluation_setup import (
    EvaluationSetup,
    check_run_topics,
    complete_totals,
    evaluation_setup,
)
from .io.labels import read_labels
from .io.naming import NameSpec
from .io.native_files import RunNote
from .io.native_inputs import NativeInputs, judge_native, native_inputs
from .io.sources import as_qrels, as_runs
from .measures.base import label_sets_named, scores_needed
from .measures.compute import compute_shared
from .measures.names import is_measure_name
from .measures.results import Averaging, Evaluation

if TYPE_CHECKING:  # pragma: no cover
    from .core import ScoreMatrix


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
    evaluated = rankings.ranking_run
    if rankings.placeholder is not None:  # trec_eval 10's -c stand-ins are not in common
        evaluated = evaluated[~rankings.placeholder]
    counts = np.bincount(evaluated, minlength=len(rankings.runs)).tolist()
    check_run_topics(rankings.runs, counts, rankings.unjudged_topics,
                     sorted(rankings.topics if gold_topics is None else gold_topics),
                     allow_empty=allow_empty, qrels_source=qrels_source, gold=gold,
                     results=results, judgments=judgments, stacklevel=stacklevel + 1,
                     why=why)


def evaluate(
    qrels: Any,
    runs: Any,
    measures: str | Iterable[str] = "official",
    *,
    relevance_level: int = 1,
    max_docs: int | None = None,
    judged_only: bool = False,
    complete: bool = False,
    num_docs_in_coll: int = 0,
    compat: Literal[9, 10] = 9,
    ties: TiePolicy = "trec_eval",
    labels: Mapping[str, Any] | None = None,
    allow_empty: bool = False,
    intent_probabilities: Any = None,
    intent_types: Any = None,
    zscores: Any = None,
    cache: str | os.PathLike[str] | None = None,
    relevance_format: Literal["qrels", "prefs", "qrels_prefs"] = "qrels",
    names: NameSpec | None = None,
) -> Evaluation:
    """Evaluate runs against qrels.

    The runs are ranked as trec_eval ranks them (score descending, ties by docno
    descending) and judged once; every requested measure is then computed for every
    (run, topic) ranking.

    Parameters
    ----------
    qrels : Qrels, path, DataFrame or dict
        The judgments: a :class:`~irscale.core.inputs.Qrels`, a qrels file (plain or
        gzip; ``"irds:DATASET_ID"``: an ir_datasets dataset's, :mod:`irscale.io.irds`), a
        DataFrame, a dict of dicts ``{topic: {docno: degree}}``, a list or iterator of
        namedtuples with ``query_id``, ``doc_id``, ``relevance`` fields (ir_datasets'
        ``TrecQrel``), an ir_datasets dataset object or a ranx ``Qrels``
        (docs/inputs.md: PyTerrier's and ranx's frames too). Diversity
        qrels (:func:`irscale.read_diversity_qrels`, or a path with diversity measures
        such as ``ndeval`` or ``alpha-nDCG@20``) give an evaluation of diversity measures,
        summarised as ndeval summarises them (docs/diversity.md).
    runs : Run, path, DataFrame, dict, a list of those, or a mapping ``{name: run}``
        One or several runs; a dict of dicts ``{topic: {docno: score}}`` is one run, and
        so is a list or iterator of namedtuples with ``query_id``, ``doc_id``, ``score``
        fields (ir_datasets' ``GenericScoredDoc``, ir_measures' ``ScoredDoc``), and a
        ranx ``Run`` (named as it is). A path
        names a TREC run file (plain or gzip) or a Parquet one, a folder its run files
        (sorted by name), a glob pattern (``"runs/*.gz"``) the files it matches
        (:func:`irscale.io.sources.run_files`); for thousands of files,
        :func:`irscale.evaluate_many` streams them with bounded memory.
    measures : str or iterable of str or of ir_measures' measures, default "official"
        Measure names as accepted by :func:`irscale.measures.names.parse_measures`:
        trec_eval's (``map``, ``P.5,10``, ``ndcg_cut_10``, nicknames such as
        ``all_trec``) or ir_measures' (``AP@100``, ``P(rel=2)@5``, ``nDCG@10``), or
        ir_measures' measure objects (``ir_measures.AP@10``: the irscale measure that is
        the same, :mod:`irscale.measures.ir_measures_names`). Fairness and exposure
        measures (``EE-L``, ``AWRF@10``, ``nDCG-AWRF`` ...) are evaluated in a call of their
        own: every run is then a stochastic run (a run file's second column numbers the
        sample; a dict or DataFrame run is one sample per topic), the document groups the
        label set ``labels={"groups": ...}``, and the options other than ``labels`` and
        ``allow_empty`` are refused (:mod:`irscale.measures.fairness`, docs/measures.md).
    relevance_level : int, default 1
        trec_eval ``-l``: the lowest degree counted as relevant (an integer ≥ 1).
    max_docs : int, optional
        trec_eval ``-M``: evaluate the first ``max_docs`` documents of each ranking
        (an integer from 1 to 2⁶³ − 1).
    judged_only : bool, default False
        trec_eval ``-J``: drop the documents the qrels do not judge before evaluating.
    complete : bool, default False
        trec_eval ``-c``: average over every qrels topic, topics a run misses counting
        as trec_eval 9.0.8 (or 10.0) counts them.
    num_docs_in_coll : int, default 0
        trec_eval ``-N``: the number of documents in the collection (an integer ≥ 0).
    compat : {9, 10}, default 9
        The trec_eval version whose behaviour is reproduced where 9.0.8 and 10.0 differ
        (among them the scores: 9.0.8 compares them as C floats, so ``1.0`` and
        ``1.00000001`` tie and are ordered by docno; 10.0 as doubles).
    ties : {"trec_eval", "file-order", "rank-column"}, default "trec_eval"
        Order of documents with equal scores: trec_eval's (docno descending), the order
        of the file (as NTCIREVAL and cwl_eval), or the file's rank column.
    labels : mapping, optional
        Extra per-document values by name, for the measures that use them
        (``{"under": "task2.qunder"}`` for uRBP, document lengths for TBG and U, click
        probabilities...): each a path to a qrels-format file ``topic iter docno value``
        (topic ``*``: every topic), a mapping ``{topic: {docno: value}}`` or a DataFrame
        (see :func:`irscale.io.labels.read_labels`).
    allow_empty : bool, default False
        Evaluate a run that has no topic in common with the qrels instead of raising.
    intent_probabilities, intent_types : path or object, optional
        Diversity measures only (NTCIREVAL's family): intent probabilities
        ``topic subtopic probability`` and intent types ``topic subtopic inf|nav``
        (:func:`irscale.measures.diversity.evaluate.evaluate_diversity`).
    zscores : path, bytes or ZScores, optional
        trec_eval ``-Z``: a Z file (lines ``topic measure mean std_dev``,
        :func:`irscale.io.zscores.read_zscores`, read before the qrels and runs); every
        value becomes its z-score ``(v - mean) / std_dev`` against it, summarised and
        printed as ``trec_eval -Z`` does (:mod:`irscale.measures.zscored`: values with no
        line in the file are -1000000, with a warning). trec_eval's measures only (not
        with ``compat=10``, diversity measures or ``labels``).
    cache : folder, optional
        A results cache (:mod:`irscale.cache`; docs/evaluation.md, "The results cache"):
        the evaluation is read from the folder when the same inputs (their bytes), measures,
        options and irscale version were evaluated before, and stored there otherwise. The
        warnings of the evaluation are stored with it and shown again. Inputs held in memory
        are keyed by their content (dicts, DataFrames, ``Qrels`` and ``Run`` objects); others
        (standard input, open files, iterators, ``irds:``) are refused. Not for diversity
        measures. An evaluation read from the cache has ``rankings=None``.
    relevance_format : {"qrels", "prefs", "qrels_prefs"}, default "qrels"
        trec_eval ``-R``: ``qrels`` are judgments; ``prefs`` (``qid jg jsg docno level``)
        and ``qrels_prefs`` (a qrels file read as preferences) are preference judgments,
        evaluated by the preference measures (``all_prefs``, ``prefs_simp`` ...) with
        ``max_docs``, ``complete`` and ``allow_empty`` only
        (:func:`irscale.evaluation_prefs.evaluate_prefs`, docs/measures.md).
    names : {"runid", "file"} or sequence of str, optional
        How the runs are named, as ``--names`` says (:mod:`irscale.io.naming`, one rule for
        every table): by default their run ids, or every run after its file when two share
        a run id (a mapping ``{name: run}`` names them itself); ``"file"``: every run by
        its file stem; or one name per run, in order (they replace the names of a mapping
        ``{name: run}``). Evaluations of judged rankings (trec_eval's and the catalogue's
        measures).

    Returns
    -------
    Evaluation
        Per-topic values (:meth:`Evaluation.per_topic`), summaries as trec_eval computes
        them (ndeval for diversity measures: :meth:`Evaluation.mean`,
        :meth:`Evaluation.aggregates`), the topics × runs × measures
        :class:`~irscale.core.scorematrix.ScoreMatrix` (:meth:`Evaluation.to_matrix`),
        every run against a baseline (:meth:`Evaluation.compare`) and the outputs of
        :meth:`Evaluation.format`. Topics come in byte order (numeric order for diversity
        measures), runs in the order given.

    Raises
    ------
    ParameterError
        An option out of range (checked before anything is read).
    MeasureError
        An unknown measure name or parameter, listing the valid ones.
    AlignmentError
        A run with no topic in common with the qrels (qrels of another collection, or
        topic ids written differently), also with ``complete``, unless ``allow_empty``.
    InputError
        A malformed or unreadable input (see :func:`irscale.io.trec.read_qrels` and
        :func:`irscale.io.trec.read_run`), or two runs with the same name.

    Warns
    -----
    UserWarning
        Topics a run retrieved documents for that the qrels do not judge: they are not
        evaluated, as in trec_eval (:attr:`Evaluation.unjudged_topics`,
        :func:`check_topics`).

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d1": 0, "d5": 1}}
    >>> bm25 = {"q1": {"d1": 3.0, "d2": 2.0, "d4": 1.0}, "q2": {"d5": 1.0, "d1": 0.5}}
    >>> ql = {"q1": {"d3": 2.0, "d1": 2.0}, "q2": {"d1": 1.0, "d5": 1.0}}
    >>> ev = evaluate(qrels, {"bm25": bm25, "ql": ql}, ["map", "P@2", "ndcg_cut.2"])
    >>> ev.runs, ev.measures
    (('bm25', 'ql'), ('map', 'ndcg_cut_2', 'P@2'))
    >>> table = ev.mean()  # runs × measures
    >>> table.loc["bm25"].round(4).tolist(), table.loc["ql"].round(4).tolist()
    ([0.75, 0.69, 0.5], [1.0, 1.0, 0.75])

    ``ql`` scores d1 and d5 equally on q2: trec_eval's order puts d5 (docno descending)
    first, so q2's P@2 is 0.5 and ndcg_cut_2 is 1.

    >>> ev.per_topic().query("run == 'bm25' and measure == 'map'")["value"].tolist()
    [0.5, 1.0]
    >>> evaluate(qrels, bm25, "P.1", relevance_level=2).mean()["P_1"].tolist()
    [0.0]
    """
    call = dict(locals()) if cache is not None else None  # the parameters, for the key
    _check_call_options(labels, allow_empty)
    if relevance_format != "qrels":
        return _prefs_evaluation(
            qrels, runs, measures, relevance_format, max_docs=max_docs, complete=complete,
            allow_empty=allow_empty,
            not_applicable={"relevance_level": relevance_level != 1, "judged_only": judged_only,
                            "num_docs_in_coll": num_docs_in_coll != 0, "compat": compat != 9,
                            "ties": ties != "trec_eval", "labels": bool(labels),
                            "intent_probabilities": intent_probabilities is not None,
                            "intent_types": intent_types is not None,
                            "zscores": zscores is not None, "cache": cache is not None,
                            "names": names is not None})
    fairness = _fairness_evaluation(
        qrels, runs, measures, labels=labels, allow_empty=allow_empty,
        not_applicable={"relevance_level": relevance_level != 1, "max_docs": max_docs is not None,
                        "judged_only": judged_only, "complete": complete,
                        "num_docs_in_coll": num_docs_in_coll != 0, "compat": compat != 9,
                        "ties": ties != "trec_eval",
                        "intent_probabilities": intent_probabilities is not None,
                        "intent_types": intent_types is not None,
                        "zscores": zscores is not None, "cache": cache is not None,
                        "names": names is not None})
    if fairness is not None:
        return fairness
    reference = None
    if zscores is not None:
        if compat != 9 or labels:
            raise ParameterError("zscores= (-Z) applies to trec_eval 9.0.8's evaluations "
                                 "(compat=9, no labels=)")
        from .io.zscores import read_zscores

        reference = read_zscores(zscores)
    if cache is not None and _is_diversity(qrels, measures):
        raise ParameterError("a cache (--cache, cache=) applies to trec_eval's and the "
                             "catalogue's measures; diversity measures are evaluated "
                             "without it")
    diversity = _diversity_evaluation(
        qrels, runs, measures, complete=complete, max_docs=max_docs,
        intent_probabilities=intent_probabilities, intent_types=intent_types,
        label_sets=labels or None, allow_empty=allow_empty,
        not_applicable={"relevance_level": relevance_level != 1, "judged_only": judged_only,
                        "num_docs_in_coll": num_docs_in_coll != 0, "compat": compat != 9,
                        "ties": ties != "trec_eval", "names": names is not None})
    if diversity is not None:
        if reference is not None:
            raise ParameterError("zscores= (-Z) does not apply to diversity measures")
        return diversity
    if intent_probabilities is not None or intent_types is not None:
        raise ParameterError("intent_probabilities= and intent_types= apply to diversity "
                             "measures only (I-rec@10, D#-nDCG@10, P+Q ...)")
    # the options are checked before any file is read
    setup = evaluation_setup(measures, relevance_level=relevance_level, max_docs=max_docs,
                             judged_only=judged_only, complete=complete,
                             num_docs_in_coll=num_docs_in_coll, compat=compat, ties=ties)
    if call is not None:
        from .cache.evaluations import cached_evaluation

        evaluation = cached_evaluation(cache, evaluate, call, setup, lambda: _evaluate(
            [call["qrels"], call["runs"]], setup, labels, allow_empty, names))
    else:
        held = [qrels, runs]  # handed over: this frame keeps no reference (below)
        del qrels, runs
        evaluation = _evaluate(held, setup, labels, allow_empty, names)
    if reference is None:
        return evaluation
    from .measures.zscored import zscore_evaluation

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
    if names is not None:  # the runs read here, then named: the engine judges them after
        runs = as_runs(runs, keep_rank=ties == "rank-column", names=names)
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


def _check_call_options(labels: object, allow_empty: object) -> None:
    """``labels`` a mapping {name: label set} (or None) and ``allow_empty`` a bool, before
    any input is read (a ``ParameterError``, not an ``AttributeError`` from deep inside)."""
    if labels is not None and not isinstance(labels, Mapping):
        raise ParameterError("labels must be a mapping {name: label file or values}, such "
                             f"as {{'under': 'task2.qunder'}}, got {shorten(repr(labels))}")
    if not is_flag(allow_empty):
        raise ParameterError(f"allow_empty must be True or False, got {allow_empty!r}")


def evaluate_judged(
    qrels: Qrels, runs: list[Run], setup: EvaluationSetup, *,
    labels: Mapping[str, Any] | None = None, allow_empty: bool = False, stacklevel: int = 2,
) -> Evaluation:
    """:func:`evaluate` of runs already read, with options already checked (``setup``).
    ``stacklevel``: that of the warnings (default: the caller).
    """
    judged = _judge(qrels, runs, setup, labels=labels, allow_empty=allow_empty,
                    stacklevel=stacklevel + 1)
    return _measure(*judged, setup, labels, stacklevel=stacklevel + 1)


def evaluate_native(inputs: NativeInputs, setup: EvaluationSetup, *, allow_empty: bool = False,
                    names: Callable[[list[RunNote]], list[str]] | None = None,
                    stacklevel: int = 2) -> Evaluation:
    """:func:`evaluate_judged` of TREC files judged by the engine
    (:func:`irscale.io.native_inputs.native_inputs`); ``names``: the runs' names from what
    the engine says of them (:func:`irscale.io.native_inputs.judge_native`)."""
    judged = _judge_native(inputs, setup, allow_empty=allow_empty, names=names,
                           stacklevel=stacklevel + 1)
    return _measure(*judged, setup, None, stacklevel=stacklevel + 1)


def _judge(qrels: Qrels, runs: list[Run], setup: EvaluationSetup, *,
           labels: Mapping[str, Any] | None = None,
           allow_empty: bool = False, stacklevel: int = 3
           ) -> tuple[JudgedRankings, dict[str, int]]:
    """The first half of :func:`evaluate_judged`: the judged rankings (labels attached,
    topics checked) and the totals of ``-c`` (trec_eval 9.0.8), all that the measures need
    of ``qrels`` and ``runs``. ``stacklevel``: that of the warnings, seen from here."""
    options, context = setup.options, setup.context
    jr = build_judged_rankings(qrels, runs, options,
                               placeholders=context.complete and context.compat == 10)
    scores = scores_needed(setup.requests)
    if labels or scores:
        tables = {str(name): read_labels(source) for name, source in (labels or {}).items()}
        jr = attach_labels(jr, qrels, runs, options, tables, scores=scores)
        if CONDITIONAL in tables and any(r.conditional for r in setup.requests):
            jr = with_conditional(jr, qrels, tables[CONDITIONAL])
    check_topics(jr.rows, allow_empty=allow_empty, qrels_source=qrels.source,
                 stacklevel=stacklevel + 1)
    rel = qrels.rel
    return jr, complete_totals(lambda level: int(np.count_nonzero(rel >= level)), setup)


def _judge_native(inputs: NativeInputs, setup: EvaluationSetup, *, allow_empty: bool = False,
                  names: Callable[[list[RunNote]], list[str]] | None = None,
                  stacklevel: int = 3) -> tuple[JudgedRankings, dict[str, int]]:
    """:func:`_judge` of TREC files judged by the engine
    (:func:`irscale.io.native_inputs.native_inputs`)."""
    context = setup.context
    jr, at_least = judge_native(inputs, setup.options, names=names,
                                placeholders=context.complete and context.compat == 10)
    check_topics(jr.rows, allow_empty=allow_empty, qrels_source=inputs.qrels_name,
                 stacklevel=stacklevel + 1)
    return jr, complete_totals(at_least, setup)


def _measure(jr: JudgedRankings, totals: dict[str, int], setup: EvaluationSetup,
             labels: Mapping[str, Any] | None, *, stacklevel: int = 3) -> Evaluation:
    """The second half of :func:`evaluate_judged`: the measures of judged rankings
    (:func:`_judge`'s). ``stacklevel``: that of the warnings, seen from here."""
    columns, values = compute_shared(jr, setup.requests, setup.context)
    # after the measures: a measure that needs a label set not given is the one error,
    # not a warning about the set given in its place followed by that error
    unused = unused_label_sets(labels, label_sets_named(setup.requests)) if labels else []
    if unused:
        warnings.warn(f"label set(s) {', '.join(unused)} given but used by no measure "
                      "requested", stacklevel=stacklevel)
    return Evaluation(columns=columns, values=values, rows=jr.rows,
                      averaging=Averaging("trec_eval", complete=setup.context.complete,
                                          n_qrels_topics=len(jr.topics), totals=totals),
                      rankings=jr)


def _is_diversity(qrels: Any, measures: Any) -> bool:
    """Whether :func:`evaluate` evaluates diversity measures (:func:`_diversity_evaluation`
    answers by evaluating them): diversity qrels, or a diversity measure named."""
    from .io.diversity import DiversityQrels
    from .measures.diversity import is_diversity_name

    names = (measures.split() if isinstance(measures, str) else
             [m for m in measures if isinstance(m, str)]
             if isinstance(measures, (list, tuple)) else [])
    return isinstance(qrels, DiversityQrels) or any(is_diversity_name(n) for n in names)


def _prefs_evaluation(prefs: Any, runs: Any, measures: Any, form: str, *,
                      not_applicable: Mapping[str, bool], **options: Any) -> Evaluation:
    """The :class:`Evaluation` of preference judgments (``relevance_format`` ``prefs`` or
    ``qrels_prefs``); an option that their measures do not read is a
    :class:`ParameterError`, never ignored."""
    if form not in ("prefs", "qrels_prefs"):
        raise ParameterError(f"relevance_format (-R) must be qrels, prefs or qrels_prefs, got "
                             f"{form!r}")
    if options["max_docs"] is not None:
        integer_option(options["max_docs"], MAX_DOCS, low=1)
    if not is_flag(options["complete"]):
        raise ParameterError(f"complete (-c) must be True or False, got {options['complete']!r}")
    given = [name for name, differs in not_applicable.items() if differs]
    if given:
        raise ParameterError(f"{given[0]}= does not apply to preference judgments "
                             f"(relevance_format={form!r}): their measures read max_docs (-M) "
                             "and complete (-c) only, as trec_eval's prefs measures do")
    from .evaluation_prefs import evaluate_prefs

    return evaluate_prefs(prefs, runs, measures, form=form, **options)  # type: ignore[arg-type]


def _fairness_evaluation(qrels: Any, runs: Any, measures: Any, *,
                         not_applicable: Mapping[str, bool], **options: Any
                         ) -> Evaluation | None:
    """The :class:`Evaluation` of fairness and exposure measures (``EE-L``, ``AWRF@10`` ...:
    :func:`irscale.measures.fairness.evaluate.evaluate_fairness`, every run a stochastic
    run) when every measure is one; ``None`` otherwise. Names that trec_eval or the
    catalogue's rankings read never load the fairness modules. An option of
    :func:`evaluate` that they do not read (``not_applicable``: name → given with a value
    other than its default) is a :class:`ParameterError`, never ignored."""
    if isinstance(measures, str):
        names = measures.split()
    elif isinstance(measures, (list, tuple)):
        names = [n for m in measures if isinstance(m, str) for n in m.split()]
    else:
        return None
    if not names or all(map(is_measure_name, names)):
        return None
    from .measures.fairness.evaluate import evaluate_fairness, fairness_requested

    if not fairness_requested(names):
        return None
    given = [name for name, differs in not_applicable.items() if differs]
    if given:
        raise ParameterError(f"{given[0]}= does not apply to fairness measures (they read "
                             "stochastic runs: the sampled rankings of each topic, ranked by "
                             "score, and the document groups, labels={'groups': ...})")
    return evaluate_fairness(qrels, runs, names, **options)


def _diversity_evaluation(qrels: Any, runs: Any, measures: Any, *,
                          not_applicable: Mapping[str, bool] | None = None,
                          **options: Any) -> Evaluation | None:
    """The :class:`Evaluation` of diversity measures (ndeval's summaries) when the
    measures are diversity measures (``ndeval``, ``alpha-nDCG@20`` ...) or the qrels are
    :class:`~irscale.io.diversity.DiversityQrels`; ``None`` otherwise. An option of
    :func:`evaluate` that ndeval's measures do not read (``not_applicable``: name → given
    with a value other than its default) is a :class:`ParameterError`, never ignored."""
    if isinstance(measures, str):
        names = measures.split()
    elif isinstance(measures, (list, tuple)):  # other iterables are read once, later
        names = [m for m in measures if isinstance(m, str)]
    else:
        names = []
    # qrels can be DiversityQrels only once their module is loaded, and a name of
    # trec_eval's or of the catalogue is never a diversity one: neither loads the diversity
    # modules (part of a small evaluation's start-up)
    loaded = sys.modules.get("irscale.io.diversity")
    if (loaded is None or not isinstance(qrels, loaded.DiversityQrels)) and (
            not names or is_measure_name(names[0])):
        return None
    from .io.diversity import DiversityQrels
    from .measures.diversity import is_diversity_name

    flags = [is_diversity_name(n) for n in names]
    if not (isinstance(qrels, DiversityQrels) or (flags and all(flags))):
        return None
    if isinstance(qrels, DiversityQrels) and names == ["official"]:
        names = ["ndeval"]
    given = [name for name, differs in (not_applicable or {}).items() if differs]
    if given:
        raise ParameterError(f"{given[0]}= does not apply to diversity measures (ndeval ranks "
                             "by the rank column, or by score with 'ndeval(traditional=1)', "
                             "and counts every judgment ≥ 1 as relevant)")
    from .measures.diversity.evaluate import evaluate_diversity

    return evaluate_diversity(qrels, runs, names, **options)


def evaluate_matrix(qrels: Any, runs: Any, measures: Sequence[str], *,
                    diversity: bool = False, intent_probabilities: Any = None,
                    intent_types: Any = None, allow_empty: bool = False) -> ScoreMatrix:
    """The per-topic scores of ``runs`` against ``qrels`` for every measure, as a
    :class:`~irscale.core.ScoreMatrix` (topics × runs × measures), for the analyses of
    score matrices (``irscale compare``, ``meta``). Every run must cover the same topics:
    a topic a run lacks is an :class:`~irscale.errors.AlignmentError` naming it.

    With ``diversity`` the measures are diversity measures, computed as ndeval does
    (:func:`irscale.measures.diversity.evaluate.evaluate_diversity`, with the intent
    probabilities and types of NTCIREVAL's family) over the topics the qrels judge: run
    topics the qrels do not judge (ndeval prints 0 for them) are left out with a warning;
    a run with none of the qrels topics is an error unless ``allow_empty``."""
    if diversity:
        matrix = _diversity_matrix(qrels, runs, measures, intent_probabilities,
                                   intent_types, allow_empty)
    else:
        matrix = evaluate(qrels, runs, measures,
                          allow_empty=allow_empty).to_matrix(allow_missing=True)
    missing = ~np.isfinite(matrix.values)
    if missing.any():
        rows, cols, _ = np.nonzero(missing)
        detail = "; ".join(
            f"{matrix.systems[s]!r} lacks topic {matrix.topics[t]!r}"
            for t, s in list(dict.fromkeys(zip(rows.tolist(), cols.tolist(), strict=True)))[:5]
        )
        raise AlignmentError(
            f"the runs do not cover the same topics ({int(missing.any(axis=(1, 2)).sum())} "
            f"topic(s) missing somewhere: {detail})"
        )
    return matrix


def _diversity_matrix(qrels: Any, runs: Any, measures: Sequence[str],
                      intent_probabilities: Any, intent_types: Any,
                      allow_empty: bool) -> ScoreMatrix:
    """Diversity measures of :func:`evaluate_matrix`: the matrix of the topics the qrels
    judge (:meth:`~irscale.measures.results.Evaluation.to_matrix`); ndeval's "score 0" note
    about the other topics is replaced by one warning per run naming them."""
    from .measures.diversity.evaluate import evaluate_diversity

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluation = evaluate_diversity(qrels, runs, measures,
                                        intent_probabilities=intent_probabilities,
                                        intent_types=intent_types, allow_empty=allow_empty)
    for warning in caught:
        if "not in the diversity qrels" not in str(warning.message):
            warnings.warn(warning.message, stacklevel=3)
    for run, unjudged in evaluation.unjudged_topics.items():
        if unjudged:
            warnings.warn(f"run {run!r}: {len(unjudged)} topic(s) with results but no "
                          f"diversity judgments are not analysed: {', '.join(unjudged[:10])}"
                          f"{' ...' if len(unjudged) > 10 else ''}", stacklevel=3)
    return evaluation.to_matrix(allow_missing=True)

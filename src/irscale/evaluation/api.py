"""``irscale.evaluate``: qrels + runs + measure names → per-topic values and summaries.

The call is evaluated by the context that claims it (:mod:`.context`: judged rankings,
the default, :mod:`.judged`; intents, :mod:`.diversity`; stochastic runs,
:mod:`.fairness`; preference judgments, :mod:`.prefs`), chosen by one rule; an option the
context does not read is refused by one rule too, before anything is read.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np

from ..cache.calls import CacheCall
from ..core.binding import is_given
from ..core.extras import irds_name
from ..core.options import is_flag
from ..errors import AlignmentError, ParameterError, shorten
from ..io.naming import NameSpec
from ..measures.results import Evaluation
from . import contexts  # noqa: F401  (declares the contexts)
from .context import Context, refuse_unread
from .contexts import choose
from .options import trec_eval_keywords, trec_eval_options
from .params import EVALUATE

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack  # typing's from Python 3.11

    from ..core import ScoreMatrix
    from ..measures.name_hints import MeasureNames
    from .conventions import Applied
    from .options import TrecEvalKeywords


@EVALUATE.on_entry  # checked by its first statement: it hands the runs over
@trec_eval_keywords
def evaluate(
    qrels: Any,
    runs: Any,
    measures: MeasureNames | None = None,
    *,
    labels: Mapping[str, Any] | None = None,
    allow_empty: bool = False,
    intent_probabilities: Any = None,
    intent_types: Any = None,
    zscores: Any = None,
    cache: str | os.PathLike[str] | None = None,
    relevance_format: Literal["qrels", "qrels_jg", "prefs", "qrels_prefs"] = "qrels",
    names: NameSpec | None = None,
    dataset: str | None = None,
    dataset_defaults: bool = True,
    **trec: Unpack[TrecEvalKeywords],
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
    measures : str or iterable of str or of ir_measures' measures, optional
        By default the dataset's official measures where its conventions apply
        (``dataset``), trec_eval's ``official`` otherwise.
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
        Session measures (``sDCG@10`` ...: ``runs`` are session runs, read
        ``relevance_level``, ``labels`` and ``allow_empty``), ROUGE or BLEU (``qrels`` the
        reference texts, ``runs`` the candidate texts) and pyramid scores (``qrels`` the
        pyramid, ``runs`` the peers' SCUs), both reading ``allow_empty`` only, are
        evaluated by their own contexts (:mod:`irscale.evaluation.contexts`); every other
        option is refused.
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
        (:func:`irscale.evaluation.diversity.evaluate_diversity`).
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
    relevance_format : {"qrels", "qrels_jg", "prefs", "qrels_prefs"}, default "qrels"
        trec_eval ``-R``: ``qrels`` are judgments; ``qrels_jg`` multi-judge qrels (``qid jg
        docno rel``, one set of judgments per judgment group), evaluated by the measures
        averaged over a topic's groups (``qrels_jg``, ``map_avgjg``, ``P_avgjg``,
        ``Rprec_mult_avgjg``) with ``max_docs``, ``complete``, ``relevance_level``,
        ``judged_only`` and ``allow_empty`` only
        (:func:`irscale.evaluation.qrels_jg.evaluate_qrels_jg`); ``prefs`` (``qid jg jsg
        docno level``) and ``qrels_prefs`` (a qrels file read as preferences) are
        preference judgments, evaluated by the preference measures (``all_prefs``,
        ``prefs_simp`` ...) with ``max_docs``, ``complete`` and ``allow_empty`` only
        (:func:`irscale.evaluation.prefs.evaluate_prefs`, docs/measures.md).
    names : {"runid", "file"} or sequence of str, optional
        How the runs are named, as ``--names`` says (:mod:`irscale.io.naming`, one rule for
        every table): by default their run ids, the runs that share one with another after
        their files (a mapping ``{name: run}`` names them itself); ``"file"``: every run by
        its file stem; or one name per run, in order (they replace the names of a mapping
        ``{name: run}``). Evaluations of judged rankings (trec_eval's and the catalogue's
        measures).
    dataset : str, optional
        The conventions of a dataset (:mod:`irscale.evaluation.conventions`, docs/evaluation.md,
        "Dataset conventions"): a collection of irscale's table
        (:mod:`irscale.io.collections_table`: ``"trec-dl-2019-passage"`` ...) or an
        ir_datasets id. Its official measures are evaluated where ``measures`` is not given,
        and its relevance level applied where ``relevance_level`` is not; qrels read as
        ``"irds:ID"`` apply their dataset's conventions without it.
        :attr:`Evaluation.conventions` says what was applied and what was overridden.
    dataset_defaults : bool, default True
        False: no dataset's conventions (``irds:`` qrels evaluated as trec_eval would
        evaluate their file); ``dataset`` is then refused.

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

    Other Parameters
    ----------------
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
    checked = EVALUATE.check_entry(evaluate, {
        **trec, "labels": labels, "zscores": zscores, "cache": cache,
        "relevance_format": relevance_format, "dataset": dataset})
    trec = {name: checked[name] for name in trec}  # type: ignore[assignment]
    applied = _conventions(qrels, dataset, dataset_defaults, measures, trec,
                           implicit=relevance_format == "qrels")
    if measures is None:
        measures = applied.measures if applied is not None and applied.measures else "official"
    # named one by one, not by locals(): its snapshot would keep the inputs alive
    values = dict(**vars(trec_eval_options(trec)), labels=labels, allow_empty=allow_empty,
                  intent_probabilities=intent_probabilities, intent_types=intent_types,
                  zscores=zscores, cache=cache, relevance_format=relevance_format,
                  names=names)
    context = chosen(qrels, measures, values)
    _apply_level(values, context, applied)
    held = [qrels, runs]  # handed over: this frame keeps no reference (the runner's memory)
    del qrels, runs
    evaluation = evaluate_by(context, held, measures, values)
    if applied is None:
        return evaluation
    from dataclasses import replace

    return replace(evaluation, conventions=applied.lines)


def _conventions(qrels: Any, dataset: object, enabled: object, measures: object,
                 trec: Mapping[str, Any], *, implicit: bool) -> Applied | None:
    """The dataset conventions :func:`evaluate` applies
    (:func:`irscale.evaluation.conventions.conventions_for`), or ``None``; ``implicit``:
    those of ``irds:`` qrels too (judgments, not preferences or multi-judge qrels)."""
    if not is_flag(enabled):
        raise ParameterError(f"dataset_defaults must be True or False, got {enabled!r}")
    if dataset is None and not (enabled and implicit and irds_name(qrels)):
        return None  # (a dataset with other than judgments: refused by the binding)
    from .conventions import conventions_for

    return conventions_for(qrels, cast(Any, dataset), bool(enabled),
                           measures_given=measures is not None,
                           level_given=trec.get("relevance_level"),
                           option_names=("measures=", "relevance_level="))


def _apply_level(values: dict[str, Any], context: Context, applied: Applied | None) -> None:
    """The dataset's relevance level into ``values`` (the call's options) where ``applied``
    has one and ``context`` reads a level (preference judgments, diversity qrels do not)."""
    if applied is not None and applied.relevance_level is not None \
            and "relevance_level" in context.accepts:
        values["relevance_level"] = applied.relevance_level


#: The options of :func:`evaluate` and their defaults, read from its signature: a context
#: reads some of them (:attr:`~irscale.evaluation.context.Context.reads`). The dataset's
#: conventions are not among them: :func:`evaluate` applies them before the context runs.
OPTIONS: dict[str, Any] = {
    name: parameter.default for name, parameter in
    inspect.signature(evaluate).parameters.items() if parameter.kind == parameter.KEYWORD_ONLY
    and name not in ("dataset", "dataset_defaults")}


def call_values(**given: Any) -> dict[str, Any]:
    """Every option of :func:`evaluate` with its value in a call: those ``given``, the
    others at their defaults (:data:`OPTIONS`; a name that is none of them is a
    :class:`TypeError`, as in a call)."""
    unknown = sorted(set(given) - set(OPTIONS))
    if unknown:
        raise TypeError(f"evaluate() got an unexpected keyword argument {unknown[0]!r}")
    return {**OPTIONS, **given}


def chosen(qrels: Any, measures: Any, values: Mapping[str, Any]) -> Context:
    """The context that evaluates a call of :func:`evaluate` with the options ``values``
    (every one, :func:`call_values`): the call's options checked, the context chosen by
    the one rule (:func:`~irscale.evaluation.contexts.choose`) and the options given that
    it does not read refused by the other (:func:`~irscale.evaluation.context.refuse_unread`),
    before any input is read."""
    _check_call_options(values["labels"], values["allow_empty"])
    given = {name for name, value in values.items() if is_given(value, OPTIONS[name])}
    context = choose(qrels, measures, {name: values[name] for name in given})
    refuse_unread(context, {name: f"{name}=" for name in sorted(given, key=list(OPTIONS).index)})
    return context


def evaluate_by(context: Context, held: list[Any], measures: Any, values: Mapping[str, Any],
                **runner: Any) -> Evaluation:
    """The evaluation of ``held`` (``[qrels, runs]``, handed over: no frame but the
    runner's keeps them) by ``context``, chosen by :func:`chosen` (or by ``irscale eval``,
    which also reads the form of its qrels): its runner is handed the options of
    ``values`` (every option of :func:`evaluate`, :func:`call_values`) that it reads,
    ``cache`` as the :class:`~irscale.cache.calls.CacheCall` of the whole call, and
    ``runner``, options of its runner that :func:`evaluate` does not take (those of its
    outputs: :data:`~irscale.evaluation.context.RUNNER_OPTIONS`,
    :meth:`~irscale.evaluation.context.Context.format_options`)."""
    # the options of evaluate it reads, with their values (defaults too)
    options = {name: value for name, value in values.items() if name in context.accepts}
    if values["cache"] is not None:  # a cacheable context: the key is that of the whole call
        options["cache"] = CacheCall(values["cache"], evaluate,
                                     {"qrels": held[0], "runs": held[1], "measures": measures,
                                      **values})
    return context.run(held, measures, **options, **runner)


def _check_call_options(labels: object, allow_empty: object) -> None:
    """``labels`` a mapping {name: label set} (or None) and ``allow_empty`` a bool, before
    any input is read (a ``ParameterError``, not an ``AttributeError`` from deep inside)."""
    if labels is not None and not isinstance(labels, Mapping):
        raise ParameterError("labels must be a mapping {name: label file or values}, such "
                             f"as {{'under': 'task2.qunder'}}, got {shorten(repr(labels))}")
    if not is_flag(allow_empty):
        raise ParameterError(f"allow_empty must be True or False, got {allow_empty!r}")


def evaluate_matrix(qrels: Any, runs: Any, measures: Sequence[str] | None = None, *,
                    intent_probabilities: Any = None, intent_types: Any = None,
                    allow_empty: bool = False, relevance_level: int | None = None,
                    dataset: str | None = None, dataset_defaults: bool = True
                    ) -> ScoreMatrix:
    """The per-topic scores of ``runs`` against ``qrels`` for every measure, as a
    :class:`~irscale.core.ScoreMatrix` (topics × runs × measures), for the analyses of
    score matrices (``irscale compare``, ``meta``). Every run must cover the same topics:
    a topic a run lacks is an :class:`~irscale.errors.AlignmentError` naming it.

    The context is chosen and the options refused as :func:`evaluate` chooses and refuses
    them; the matrix is the context's (:meth:`~irscale.evaluation.context.Context.matrix`).
    ``relevance_level`` is trec_eval's ``-l`` (``None``: 1, or the dataset's); a dataset's
    conventions apply as :func:`evaluate` applies them (``dataset``, qrels ``irds:ID``,
    ``dataset_defaults``; docs/evaluation.md, "Dataset conventions"): its official
    measures where ``measures`` is ``None``, its level where ``relevance_level`` is;
    :func:`~irscale.evaluation.conventions.conventions_for` tells what applies.
    Diversity measures are computed as ndeval does
    (:func:`irscale.evaluation.diversity.evaluate_diversity`, with the intent
    probabilities and types of NTCIREVAL's family) over the topics the qrels judge: run
    topics the qrels do not judge (ndeval prints 0 for them) are left out with a warning
    per run; a run with none of the qrels topics is an error unless ``allow_empty``."""
    trec = {} if relevance_level is None else {"relevance_level": relevance_level}
    applied = _conventions(qrels, dataset, dataset_defaults, measures, trec, implicit=True)
    if measures is None:
        if applied is None or not applied.measures:
            raise ParameterError("name the measures (a score matrix's default measures are "
                                 "a dataset's official ones: dataset=, qrels irds:ID)")
        measures = list(applied.measures)
    values = call_values(intent_probabilities=intent_probabilities, intent_types=intent_types,
                         allow_empty=allow_empty, **trec)
    context = chosen(qrels, measures, values)
    _apply_level(values, context, applied)

    def evaluation() -> Evaluation:
        return evaluate_by(context, [qrels, runs], measures, values)

    matrix = context.matrix(evaluation)
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

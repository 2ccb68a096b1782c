"""trec_eval's text of TREC files, from the files to the text in the native engine: what
``irscale eval`` prints with trec_eval's measures and output, without loading numpy,
pyarrow or pandas (whose imports take longer than trec_eval's whole job on a track run).

:func:`trec_eval_text` answers when the engine alone computes every requested measure
(:func:`irscale.measures.plan.plan_trec`) and reads every input
(:func:`irscale.io.native_inputs.native_inputs`: TREC files, folders or patterns of them,
standard input); otherwise ``None``, and the caller evaluates with
:func:`irscale.evaluate`. Both give the same text, byte for byte, and the same warnings and
errors in the same order: the options and names are checked by the same functions
(:mod:`irscale.evaluation.setup`), the files read, judged, measured, summarised and written
by the same engine code (``rust/src/output``: trec_eval's ``meas_avg`` rules and its
``%-22s\\t%s\\t%6.4f`` lines).

With ``cache=DIR`` the text is the results cache's (:func:`irscale.cache.calls.cached`:
keyed by this function's signature, the files' bytes and the checked setup), so that a hit
costs hashing the files, not numpy's import.
"""

from __future__ import annotations

import warnings

from ..core.options import EXPECTED, check_run_names
from ..io.native_files import RunNote, declare_trec_text, judge_batch, run_suffixes
from ..io.native_inputs import NativeInputs, native_inputs, read_source
from ..measures.trec_plain import plain_plan, plain_requests
from .options import trec_eval_keywords, trec_eval_options
from .setup import (
    EvaluationSetup,
    check_run_topics,
    complete_totals,
    evaluation_setup,
    setup_options,
    warn_unfinished_10,
)

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from typing_extensions import Unpack  # typing's from Python 3.11

    from ..measures.name_hints import MeasureNames
    from ..measures.plan import TrecPlan
    from .options import TrecEvalKeywords


@trec_eval_keywords
def trec_eval_text(
    qrels: Any,
    runs: Any,
    measures: MeasureNames = "official",
    *,
    allow_empty: bool = False,
    per_query: bool = False,
    summary: bool = True,
    cache: Any = None,
    **trec: Unpack[TrecEvalKeywords],
) -> bytes | None:
    """``irscale.evaluate(qrels, runs, measures, ...).format("trec", per_query=...,
    summary=...)`` encoded, computed by the engine alone; ``None`` when it cannot be (a
    measure or an input the engine does not take alone: module documentation).

    The arguments are :func:`irscale.evaluate`'s; the options and measure names are checked
    first, as there, and nothing is read when the answer is ``None``. ``cache``: the
    results cache's folder (module documentation).
    """
    # every parameter, by name: the cache's key
    arguments = {**vars(trec_eval_options(trec)), "qrels": qrels, "runs": runs,
                 "measures": measures, "allow_empty": allow_empty, "per_query": per_query,
                 "summary": summary, "cache": cache}
    if arguments["ties"] == EXPECTED:  # tie-aware: by irscale.evaluate, which checks all
        return None
    setup, plan = _planned(measures, trec, cache)
    if plan is None:
        return None
    inputs = native_inputs(qrels, runs, ties=setup.options.ties)
    if not isinstance(inputs, NativeInputs) or inputs.qrels[0] == "dicts":
        return None

    def compute() -> bytes:
        return _text(inputs, setup, plan, **arguments)

    if cache is None:  # the results cache loaded only where one is asked for
        text = compute()
    else:
        from ..cache.calls import CacheCall, cached

        text = cached(CacheCall(cache, trec_eval_text, arguments), setup, compute, text=True,
                      stacklevel=3)
    declare_trec_text(text)  # trec_eval's -nan and the topics: text, not a fault
    return text


def _planned(measures: MeasureNames, trec: TrecEvalKeywords, cache: Any
             ) -> tuple[EvaluationSetup, TrecPlan | None]:
    """The checked setup of the call and its plan (``None``: not the engine's alone). Plain
    names of trec_eval's (:mod:`irscale.measures.trec_plain`) without a cache are read and
    planned from the manifest's data, after the options are checked as
    :func:`~irscale.evaluation.setup.evaluation_setup` checks them; any other by the
    catalogue (:func:`~irscale.measures.plan.plan_trec`), which checks and refuses them."""
    if cache is None:
        options, context = setup_options(trec)
        names = measures.split() if isinstance(measures, str) else measures
        requests = plain_requests(names, context.compat) \
            if isinstance(names, (list, tuple)) else None
        plan = None if requests is None else plain_plan(requests, context.compat,
                                                         context.num_docs_in_coll)
        if requests is not None and plan is not None:
            # the plain requests stand for the catalogue's where this path reads them
            setup = EvaluationSetup(options, context,
                                    tuple(requests))  # type: ignore[arg-type]
            return setup, plan
    from ..measures.plan import plan_trec

    setup = evaluation_setup(measures, **trec)
    return setup, plan_trec(setup.requests, setup.context)


def _text(inputs: NativeInputs, setup: EvaluationSetup, plan: TrecPlan, *, complete: bool,
          compat: int, relevance_level: int, num_docs_in_coll: int, allow_empty: bool,
          per_query: bool, summary: bool, **_: Any) -> bytes:
    """The text of :func:`trec_eval_text` (its arguments), read, judged and written by
    the engine."""
    runids: list[str] = []

    def named(notes: list[RunNote]) -> list[str]:
        runids[:] = inputs.runids(notes)
        return inputs.run_names(notes)

    batch, names = judge_batch(read_source(inputs.qrels),
                               [read_source(run) for run in inputs.runs], setup.options,
                               names=named, placeholders=complete and compat == 10)
    names = check_run_names(names)
    check_run_topics(names, batch.evaluated_counts(), batch.unjudged(),
                     lambda: sorted(batch.topics()), allow_empty=allow_empty,
                     qrels_source=inputs.qrels_name)
    warn_unfinished_10(names, batch.evaluated_counts(), batch.n_qrels_topics(), setup,
                       stacklevel=2)
    totals = complete_totals(batch.at_least, setup)
    for call in plan.calls:
        if call.gains and call.ideal:
            for table in batch.gain_sort_unreplayable(list(call.gains)):
                from ..measures.native import unreplayable_sort_warning

                warnings.warn(unreplayable_sort_warning(*table), stacklevel=2)
    run_suffixes(names)  # several runs' names must fit the lines' fourth field
    if len(names) == 1:  # trec_eval's text: its runid line prints the run id
        names = runids
    text = batch.evaluate_trec(
        [(call.family, list(call.ints), list(call.floats), list(call.gains))
         for call in plan.calls],
        [(column.call, column.output, column.label, column.value_type, column.aggregate,
          column.per_query, column.missing_value) for column in plan.columns],
        names, complete, list(totals.items()), per_query, summary, relevance_level,
        compat, num_docs_in_coll)
    return runid_lines(text, names, runids) if len(names) > 1 else text


def runid_lines(text: bytes, names: list[str], runids: list[str]) -> bytes:
    """``text`` whose ``runid`` lines (one per run, with several runs: ``runid  all  NAME
    NAME``) print each run's run id before its name, as trec_eval's ``runid`` measure
    prints it (:func:`irscale.io.naming.run_id`)."""
    label = b"runid                 \tall\t"
    # each run's first such line rewritten, in one pass over the text (a replace per run
    # copied the whole text once a run: 0.24 s of -q's 5 MB for 100 runs); a name holds no
    # tab or line end, so a line is "NAME\tNAME\n" after the label, as a replace finds it
    wanted = {f"{name}\t{name}\n".encode(): f"{runid}\t{name}\n".encode()
              for name, runid in zip(names, runids, strict=True) if name != runid}
    pieces: list[bytes] = []
    start, at = 0, text.find(label)
    while wanted and at >= 0:
        head = at + len(label)
        end = text.find(b"\n", head) + 1 or len(text)
        new = wanted.pop(text[head:end], None)
        if new is not None:
            pieces += [text[start:head], new]
            start = end
        at = text.find(label, head)
    return b"".join([*pieces, text[start:]]) if pieces else text


__all__ = ["trec_eval_text"]

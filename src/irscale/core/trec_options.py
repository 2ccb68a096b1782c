"""trec_eval's options as the command line and the bindings declare them
(:class:`~irscale.core.params.Param`: ``-M``, ``-J``, ``-c``, ``-N``, ``--compat``,
``--ties``; ``-l`` is :data:`irscale.core.params.RELEVANCE`), apart from their checks
(:mod:`irscale.core.options`), which the evaluation of trec_eval's measures runs without
loading the declarations."""

from __future__ import annotations

from .option_values import INT64_MAX
from .options import MAX_DOCS, NUM_DOCS_IN_COLL, TIE_POLICIES
from .params import NO_WORK, RELEVANCE, Integers, Names, Param, Switch

#: The domains of ``-l`` and ``-M`` (integers from 1) and of ``-N`` (from 0): trec_eval
#: reads them into C longs (:data:`INT64_MAX`).
POSITIVE_LONG = Integers(1, INT64_MAX, strict=True)
NONNEGATIVE_LONG = Integers(0, INT64_MAX, strict=True)

#: trec_eval's options as the command line builds them (``-l``, ``-M``, ``-J``, ``-c``,
#: ``-N``, ``--compat``, ``--ties``), in trec_eval's order; their Python names and defaults
#: are :class:`irscale.evaluation.options.TrecEvalOptions`'.
MAX_RETRIEVED = Param("max_docs", POSITIVE_LONG, None, "evaluate only the first N documents "
                      "of each topic", ("-M", "--max-retrieved"), "N", label=MAX_DOCS,
                      unset="every document", dest="max_retrieved",
                      cost=NO_WORK)
JUDGED_ONLY = Param("judged_only", Switch(), False, "drop unjudged documents before "
                    "evaluating (trec_eval -J)", ("-J", "--judged-only"))
COMPLETE = Param("complete", Switch(), False, "average over every qrels topic; missing topics "
                 "count 0", ("-c", "--complete"))
COLLECTION_SIZE = Param("num_docs_in_coll", NONNEGATIVE_LONG, 0, "number of documents in the "
                        "collection (trec_eval -N; 0: unknown)", ("-N", "--num-docs-in-coll"),
                        "N", label=NUM_DOCS_IN_COLL,
                        cost=NO_WORK)
COMPAT = Param("compat", Integers(9, 10, strict=True), 9, "trec_eval version to reproduce "
               "(9 = 9.0.8)", ("--compat",))
TIE_POLICY = Param("tie_policy", Names("tie policy", TIE_POLICIES), "trec_eval",
                   "order of documents with equal scores: trec_eval (score descending, then "
                   "docno descending), file-order (as NTCIREVAL and cwl_eval) or rank-column; "
                   "expected (irscale eval): each measure's expectation over every order of "
                   "the tied documents (tie-aware values)",
                   ("--ties",), dest="ties")
TREC_EVAL_PARAMS = (RELEVANCE, MAX_RETRIEVED, JUDGED_ONLY, COMPLETE, COLLECTION_SIZE, COMPAT,
                    TIE_POLICY)

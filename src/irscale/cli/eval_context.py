"""``irscale eval``'s context, chosen from the declared evaluation contexts
(:mod:`irscale.evaluation.context`) by the rule :func:`irscale.evaluate` follows, and the
options it does not read refused by the same rule and message (``-J does not apply to
diversity measures (...)``). No context is named here but those with a command line of
their own (:data:`RUNNERS`); any other declared context is evaluated by
:func:`irscale.evaluate` with the options given."""

from __future__ import annotations

import argparse

from ..errors import ParameterError
from ..evaluation.context import CONTEXTS, Context, choose, refuse_unread
from ..evaluation.options import TREC_EVAL_DEFAULTS
from .main import given, spelling

#: trec_eval's options (:mod:`irscale.evaluation.options`) → ``eval``'s destination of each
#: (``-M`` is stored as ``max_retrieved``).
TREC_EVAL_DESTS = {name: "max_retrieved" if name == "max_docs" else name
                   for name in TREC_EVAL_DEFAULTS}
#: ``eval``'s options that a context may read (:attr:`~irscale.evaluation.context.Context.reads`:
#: :func:`irscale.evaluate`'s and its outputs', :data:`~irscale.evaluation.context.OUTPUT_OPTIONS`):
#: destination → option name.
API_OPTIONS = {**{dest: name for name, dest in TREC_EVAL_DESTS.items()},
               "labels": "labels", "zscores": "zscores", "cache": "cache",
               "intent_probs": "intent_probabilities", "intent_types": "intent_types",
               "relevance_format": "relevance_format", "baseline": "baseline",
               "test": "test", "correction": "correction", "alpha": "alpha",
               "topic_alpha": "topic_alphas", "ci": "interval", "bounds": "bounds",
               "batch_size": "batches",
               "scheduler": "batches", "workers": "batches", "per_topic_out": "batches"}


def eval_context(args: argparse.Namespace) -> Context:
    """The context of the call: intents when the qrels are read as diversity qrels
    (``args.diversity``: :func:`~irscale.cli.eval_diversity.wants_diversity`, which also
    reads ``--qrels-format``), else the one :func:`~irscale.evaluation.context.choose`
    picks, as :func:`irscale.evaluate` picks it. A context with a command of its own
    (:attr:`~irscale.evaluation.context.Context.command`: its inputs are not qrels and TREC
    runs) is refused by one rule that names it."""
    from ..evaluation import contexts  # noqa: F401  (declares the contexts)

    if args.diversity:
        return CONTEXTS["intents"]
    measures = [n for spec in (args.measures or []) for n in spec.split()]
    context = choose(args.qrels, measures, {"relevance_format": args.relevance_format})
    if context.command is not None:
        raise ParameterError(context.elsewhere())
    return context


def refuse_unread_options(args: argparse.Namespace) -> None:
    """The one rule of :func:`irscale.evaluate` on the command line: an option of
    :data:`API_OPTIONS` given that ``args.context`` does not read is refused, spelt as
    the command declares it."""
    named: dict[str, str] = {}
    for dest, option in API_OPTIONS.items():
        if given(args, dest):
            named.setdefault(option, spelling(args, dest))
    refuse_unread(args.context, named)


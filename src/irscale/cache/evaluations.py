"""The keys of cached evaluations: :func:`irscale.evaluate` and :func:`irscale.evaluate_many`
with ``cache=DIR`` (docs/evaluation.md, "The results cache"); the entries are looked up and
stored by :mod:`irscale.cache.calls`.

The key of an evaluation is derived from the signature of the function evaluated, not
from a list of its options written here: every parameter goes into the key by name, in
order, as

* an input (:data:`INPUTS`: the qrels, the runs, label sets, intent files): by content
  (:meth:`~irscale.cache.keys.KeyWriter.input`);
* the measures: as the catalogue resolves them, in the checked
  :class:`~irscale.evaluation.setup.EvaluationSetup` that goes into every key (its ranking
  options, its measure context and its parsed requests, every field of each);
* anything else: by value (:meth:`~irscale.cache.keys.KeyWriter.value`), unless it is
  one of :data:`NOT_IN_KEY`, the parameters that change where and how fast work is done but
  no value.

The same keys serve the text that ``irscale eval`` prints with trec_eval's measures
(:func:`irscale.evaluation.trec_text.trec_eval_text` with ``cache=``, keyed by its own
signature: the declared trec_eval options, the output's options), stored as text
(:func:`irscale.cache.calls.cached` with ``text``): a hit prints it without loading numpy.

So an option added to any of these functions is in the key without a word here
(``tests/test_cache.py`` checks that a change of each changes the key). irscale's version
(``irscale.__version__``) is in every key and every entry.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .keys import KeyWriter

if TYPE_CHECKING:  # pragma: no cover
    from ..evaluation.setup import EvaluationSetup

#: Parameters that are inputs, keyed by content.
INPUTS = frozenset({"qrels", "runs", "labels", "intent_probabilities", "intent_types"})
#: Parameters keyed as resolved in the evaluation's setup.
RESOLVED = frozenset({"measures"})
#: Parameters that change no value (evaluate_many's batches, executor, output, progress),
#: ``zscores``: trec_eval's -Z is applied to the evaluation read from the cache, and the
#: dataset's conventions (``dataset``, ``dataset_defaults``): keyed by what they set, the
#: measures and the relevance level, their provenance added to the evaluation read.
NOT_IN_KEY = frozenset({"cache", "batch_size", "executor", "workers", "out", "force",
                        "progress", "zscores", "dataset", "dataset_defaults"})
#: Parameters of evaluate_many keyed per run file (the file, and the run's name).
PER_RUN = frozenset({"runs", "names"})


def version() -> str:
    from ..core.version import __version__

    return __version__


def call_key(function: Callable[..., Any], arguments: Mapping[str, Any],
             setup: EvaluationSetup, *, per_run: bool = False) -> KeyWriter:
    """The key of a call of ``function`` with ``arguments`` (every parameter by name) and
    its checked ``setup`` (module documentation); ``per_run``: without the parameters keyed
    per run file (:func:`run_key`). :class:`~irscale.cache.keys.Unkeyable` for an input
    with no canonical form, :class:`~irscale.cache.keys.MissingFile` for a path that names
    no readable file."""
    writer = KeyWriter()
    writer.text(f"{function.__module__}.{function.__qualname__}")
    writer.text(version())
    writer.field("setup")
    writer.value(setup)
    for name in inspect.signature(function).parameters:
        if name in NOT_IN_KEY or name in RESOLVED or (per_run and name in PER_RUN):
            continue
        writer.field(name)
        if name in INPUTS:
            writer.input(arguments[name])
        else:
            writer.value(arguments[name])
    return writer


def run_key(prefix: KeyWriter, path: str, name: str | None) -> KeyWriter:
    """The key of one run file of :func:`irscale.evaluate_many` (``prefix``:
    :func:`call_key` with ``per_run``): the file and the name chosen for it (``None``:
    its run id, read from the file)."""
    writer = prefix.copy()
    writer.field("runs")
    writer.file(path)
    writer.field("names")
    writer.value(name)
    return writer


__all__ = ["INPUTS", "NOT_IN_KEY", "PER_RUN", "RESOLVED", "call_key", "run_key", "version"]

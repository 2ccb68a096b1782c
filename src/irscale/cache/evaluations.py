"""Cached evaluations: :func:`irscale.evaluate` and :func:`irscale.evaluate_many` with
``cache=DIR`` (docs/evaluation.md, "The results cache").

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
(:func:`cached_text`): a hit prints it without loading numpy.

So an option added to any of these functions is in the key without a word here
(``tests/test_cache.py`` checks that a change of each changes the key). irscale's version
(``irscale.__version__``) is in every key and every entry.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .frames import decode_text, encode_text
from .keys import FileStamps, KeyWriter, MissingFile
from .store import CacheDir, Decode, Encode, Held, Recorder, shown, stored

if TYPE_CHECKING:  # pragma: no cover
    from ..evaluation.setup import EvaluationSetup
    from ..measures.results import Evaluation

#: Parameters that are inputs, keyed by content.
INPUTS = frozenset({"qrels", "runs", "labels", "intent_probabilities", "intent_types"})
#: Parameters keyed as resolved in the evaluation's setup.
RESOLVED = frozenset({"measures"})
#: Parameters that change no value (evaluate_many's batches, executor, output, progress),
#: and ``zscores``: trec_eval's -Z is applied to the evaluation read from the cache.
NOT_IN_KEY = frozenset({"cache", "batch_size", "executor", "workers", "out", "force",
                        "progress", "zscores"})
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


def cached_evaluation(cache: Any, function: Callable[..., Any], arguments: Mapping[str, Any],
                      setup: EvaluationSetup, evaluate: Callable[[], Evaluation],
                      *, stacklevel: int = 3) -> Evaluation:
    """:func:`irscale.evaluate` with ``cache``: the entry of the call if there is one
    that can be trusted, else ``evaluate()``, stored with its warnings. The warnings are
    shown in both cases (``stacklevel``: theirs, seen from here)."""
    from .entries import decode, encode

    return _cached(cache, function, arguments, setup, evaluate, decode, encode,
                   stacklevel=stacklevel + 1)


def cached_text(cache: Any, function: Callable[..., Any], arguments: Mapping[str, Any],
                setup: EvaluationSetup, write: Callable[[], bytes]) -> bytes:
    """The text ``write()`` prints for a call of ``function`` with ``arguments`` (as
    :func:`cached_evaluation`, stored as text)."""
    return _cached(cache, function, arguments, setup, write, decode_text, encode_text,
                   stacklevel=4)


def _cached(cache: Any, function: Callable[..., Any], arguments: Mapping[str, Any],
            setup: EvaluationSetup, evaluate: Callable[[], Held], decode: Decode[Held],
            encode: Encode[Held], *, stacklevel: int) -> Held:
    """The entry of the call (read by ``decode``) if there is one that can be trusted,
    else ``evaluate()``, stored (written by ``encode``) with its warnings, shown in both
    cases."""
    folder = CacheDir(cache, _inputs(arguments))
    try:
        writer = call_key(function, arguments, setup)
    except MissingFile:  # the evaluation reports it, as without a cache
        return evaluate()
    key = writer.hexdigest()
    found = folder.get(key, version(), decode)
    if found is not None:
        held, warned = found
        _show(shown(warned), stacklevel)
        return held
    held, caught = evaluate_recorded(evaluate)
    store(folder, key, writer.stamps, held, caught, encode)
    _show(caught, stacklevel)
    return held


def evaluate_recorded(evaluate: Callable[[], Held]
                      ) -> tuple[Held, list[tuple[type[Warning], str]]]:
    """``evaluate()`` and the warnings it emitted (not shown: the caller shows them)."""
    recorder = Recorder()
    with recorder.installed(), recorder.recording() as caught:
        held = evaluate()
    return held, caught


def store(folder: CacheDir, key: str, stamps: FileStamps, held: Held,
          caught: Sequence[tuple[type[Warning], str]], encode: Encode[Held]) -> None:
    """Store an evaluation (or text) unless a file of its key changed while it was
    evaluated (its values may then be those of the new bytes, the key those of the old)."""
    if stamps.unchanged():
        folder.put(key, version(), held, stored(caught), encode)


def _show(caught: Sequence[tuple[type[Warning], str]], stacklevel: int) -> None:
    for category, message in caught:
        warnings.warn(message, category, stacklevel=stacklevel + 1)


def _inputs(arguments: Mapping[str, Any]) -> list[Any]:
    """The specs of the inputs of a call (those that name files: none may be the cache
    folder or lie in it)."""
    specs: list[Any] = []
    for name in sorted(INPUTS & set(arguments)):
        value = arguments[name]
        if isinstance(value, Mapping):
            specs.extend(value.values())
        elif isinstance(value, (list, tuple)):
            specs.extend(value)
        elif value is not None:
            specs.append(value)
    return specs


__all__ = ["INPUTS", "NOT_IN_KEY", "PER_RUN", "RESOLVED", "cached_evaluation", "cached_text",
           "call_key", "evaluate_recorded", "run_key", "store"]

"""The calls between the evaluations and the results cache (docs/evaluation.md, "The results
cache"): a runner hands its work to :func:`cached`, :func:`irscale.evaluate_many` its run
files to a :class:`RunCache`; neither sees the folder, the keys, the entries or the
recorded warnings.

* :func:`cached`: the entry of a whole call (:func:`irscale.evaluate` of judged rankings,
  an :class:`~irscale.measures.results.Evaluation`; the text ``irscale eval`` prints with
  trec_eval's measures, :func:`irscale.evaluation.trec_text.trec_eval_text`), keyed by the
  function called and every parameter (:func:`~irscale.cache.evaluations.call_key`);
  without a cache, the work itself.
* :class:`RunCache`: one entry per run file of :func:`irscale.evaluate_many`, keyed by the
  call without its run files and by the file and its name
  (:func:`~irscale.cache.evaluations.run_key`), so that a run file evaluated once is read
  back in any batch of any later call.

Either way an entry found is trusted only when it is exactly what was written for its key
(:mod:`irscale.cache.entries`, :mod:`irscale.cache.frames`), the warnings of an evaluation
are stored with it and shown again when it is read back, and an entry is stored only when
no file of its key changed while it was evaluated.

Imports neither numpy nor the cache's folder and keys until a cache is used: the command
line's evaluation of TREC files (numpy-free) names :class:`CacheCall`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager

from ..core.records import record

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ..evaluation.setup import EvaluationSetup
    from ..measures.results import Evaluation
    from .keys import FileStamps, KeyWriter
    from .store import CacheDir, Decode, Encode, Held, Recorder

#: A warning as it is shown again: its category and message.
Shown = tuple[type[Warning], str]


@record
class CacheCall:
    """A call whose result the results cache may hold: its folder (``cache=``), the
    function called and every parameter by name (the key:
    :func:`~irscale.cache.evaluations.call_key`). A cacheable evaluation context is handed
    one as its ``cache`` option (:class:`irscale.evaluation.context.Context`)."""

    folder: str | os.PathLike[str]
    function: Callable[..., Any]
    arguments: Mapping[str, Any]


def cached(call: CacheCall | None, setup: EvaluationSetup, compute: Callable[[], Held], *,
           text: bool = False, stacklevel: int = 2) -> Held:
    """``compute()`` through the results cache of ``call`` (``None``: no cache, the work
    itself): the entry of the call if there is one that can be trusted, else ``compute()``,
    stored with its warnings (module documentation). The warnings are shown in both cases
    (``stacklevel``: theirs, seen from here). ``setup``: the call's checked options, in
    its key; ``text``: ``compute()`` gives the bytes of a text, not an
    :class:`~irscale.measures.results.Evaluation`."""
    if call is None:
        return compute()
    from .evaluations import call_key, version
    from .keys import MissingFile
    from .store import CacheDir, Recorder, shown

    folder = CacheDir(call.folder, _inputs(call.arguments))
    try:
        writer = call_key(call.function, call.arguments, setup)
    except MissingFile:  # the evaluation reports it, as without a cache
        return compute()
    decoder, encoder = _codec(text)
    key = writer.hexdigest()
    found = folder.get(key, version(), decoder)
    if found is not None:
        held, warned = found
        _show(shown(warned), stacklevel)
    else:
        recorder = Recorder()
        with recorder.installed(), recorder.recording() as caught:
            held = compute()
        _store(folder, key, writer.stamps, held, caught, encoder)
        _show(caught, stacklevel)
    if text:  # the command line's reply to its request (irscale.cache.requests)
        from .requests import offer

        offer(call.folder, writer.stamps, held)
    return held


@record
class RunCache:
    """The results cache of :func:`irscale.evaluate_many`: its folder, the key of the call
    without its run files (:func:`~irscale.cache.evaluations.call_key` with ``per_run``)
    and the recorder of the warnings of each run file evaluated (:meth:`installed` while
    the batches run)."""

    folder: CacheDir
    prefix: KeyWriter
    recorder: Recorder

    @classmethod
    def of(cls, call: CacheCall, setup: EvaluationSetup, files: Sequence[str]
           ) -> RunCache | None:
        """The cache of ``call`` (``evaluate_many`` and its parameters, ``qrels`` among
        them) over the run files ``files``; ``None`` when the qrels name no readable file
        (the evaluation reports it, as without a cache)."""
        from .evaluations import call_key
        from .keys import MissingFile
        from .store import CacheDir, Recorder

        folder = CacheDir(call.folder, [call.arguments["qrels"], *files])
        try:
            prefix = call_key(call.function, call.arguments, setup, per_run=True)
        except MissingFile:
            return None
        return cls(folder, prefix, Recorder())

    def installed(self) -> AbstractContextManager[Recorder]:
        """Record the warnings of the run files evaluated in the block (in any thread);
        the others are shown at its end."""
        return self.recorder.installed()

    def evaluations(self, runs: Iterable[tuple[str, str | None]],
                    evaluate: Callable[[str, str | None], Evaluation]
                    ) -> tuple[list[Evaluation], list[Shown]]:
        """The evaluation of every run file ``(path, name)`` (``name`` ``None``: the run
        id), each read from the cache or ``evaluate(path, name)`` alone and stored with its
        warnings; and the warnings of them all, in order, for the caller to show."""
        from ..parallel.threads import map_threads
        from .entries import decode, encode
        from .evaluations import version
        from .store import shown

        runs = list(runs)
        # the files are hashed side by side (hashlib releases the GIL)
        writers = map_threads(lambda run: self._writer(*run), runs)
        evaluations, warned = [], []
        for (path, name), writer in zip(runs, writers, strict=True):
            key = None if writer is None else writer.hexdigest()
            found = None if key is None else self.folder.get(key, version(), decode)
            if found is not None:
                evaluations.append(found[0])
                warned.extend(shown(found[1]))
                continue
            with self.recorder.recording() as caught:
                evaluation = evaluate(path, name)
            if writer is not None and key is not None:
                _store(self.folder, key, writer.stamps, evaluation, caught, encode)
            evaluations.append(evaluation)
            warned.extend(caught)
        return evaluations, warned

    def _writer(self, path: str, name: str | None) -> KeyWriter | None:
        """The key of a run file (:func:`~irscale.cache.evaluations.run_key`); ``None``
        when it can no longer be read (evaluated without the cache: its reader says why)."""
        from .evaluations import run_key
        from .keys import MissingFile

        try:
            return run_key(self.prefix, path, name)
        except MissingFile:
            return None


def _codec(text: bool) -> tuple[Decode[Any], Encode[Any]]:
    """How an entry is read and written: the bytes of a text (:mod:`.frames`, numpy-free:
    a hit prints them without loading numpy), or an evaluation (:mod:`.entries`)."""
    if text:
        from .frames import decode_text, encode_text

        return decode_text, encode_text
    from .entries import decode, encode

    return decode, encode


def _store(folder: CacheDir, key: str, stamps: FileStamps, held: Held,
           caught: Sequence[Shown], encode: Encode[Held]) -> None:
    """Store an evaluation (or text) unless a file of its key changed while it was
    evaluated (its values may then be those of the new bytes, the key those of the old)."""
    from .evaluations import version
    from .store import stored

    if stamps.unchanged():
        folder.put(key, version(), held, stored(caught), encode)


def _show(caught: Sequence[Shown], stacklevel: int) -> None:
    for category, message in caught:
        warnings.warn(message, category, stacklevel=stacklevel + 1)


def _inputs(arguments: Mapping[str, Any]) -> list[Any]:
    """The specs of the inputs of a call (those that name files: none may be the cache
    folder or lie in it)."""
    from .evaluations import INPUTS

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


__all__ = ["CacheCall", "RunCache", "cached"]

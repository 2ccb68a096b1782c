"""The evaluation contexts as the manifest declares them: what the command line reads of a
context before, or instead of, importing its module.

The manifest (:data:`irscale._manifest.CONTEXTS`, written by ``tools/manifest.py`` from
each context's declaration, :func:`irscale.evaluation.contexts.declaration`, and compared
with it by ``tests/test_manifest.py``) holds what every context declares as data: what it
evaluates and why it refuses the options it does not read, the options it reads, its
formats, its own command and qrels form, its own output formats, how it reads run files
and makes trec_eval's text straight from the files (:attr:`~irscale.evaluation.context.
Context.text_by`, :attr:`~irscale.evaluation.context.Context.named_runs_by`: functions
named ``"module:function"``), and whether it claims a call of trec_eval's measures. A call
of trec_eval's measures of TREC files that the manifest says no other context claims is
the default context's (:func:`trec_eval_only`), and the command line takes that context
as the manifest declares it (:class:`Declared`, :func:`declared_default`): neither the
contexts' registry (:mod:`irscale.evaluation.context`, :mod:`irscale.evaluation.contexts`)
nor the context's module is imported (about 2.7 million instructions of a 10-line
``eval``); what the manifest does not hold loads the context (:meth:`Declared.loaded`).
This module imports only the manifest and :mod:`irscale.errors`; the registry imports its
rules and messages from here (:func:`refuse_unread`, :func:`refusal`, :func:`read_runs`,
:func:`text`), so that both read the same.
"""

from __future__ import annotations

import importlib
import sys

from .._manifest import CONTEXTS as MANIFEST
from .._manifest import DEFAULT_CONTEXT
from ..errors import ParameterError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any, Protocol

    class Refusing(Protocol):
        """A context as :func:`refuse_unread` reads it (a
        :class:`~irscale.evaluation.context.Context` or a :class:`Declared`)."""

        @property
        def accepts(self) -> frozenset[str]: ...

        def refusal(self, option: str) -> str: ...

#: A call of trec_eval's measures, as the command line and :func:`irscale.evaluate` make
#: one: the qrels (a path, or none given: a claim of measures alone) and the options.
TREC_EVAL_CALLS: tuple[tuple[str | None, dict[str, str]], ...] = (
    ("qrels", {}), ("qrels", {"relevance_format": "qrels"}),
    ("qrels", {"relevance_format": "qrels", "qrels_format": "trec"}), (None, {}))
#: The name of the context of a call no other context claims (judged rankings).
DEFAULT = DEFAULT_CONTEXT
#: The contexts' registry (:mod:`irscale.evaluation.context`), which every context's
#: module imports to register it.
REGISTRY = f"{__package__}.context"


def declarations() -> dict[str, dict[str, Any]]:
    """What every context declares, by name, in the order they are asked: the manifest's
    (no module imported), then those registered since
    (:func:`~irscale.evaluation.context.declared_data`: a context is registered only where
    the registry, :mod:`irscale.evaluation.context`, is loaded; this module does not load
    it)."""
    found: dict[str, dict[str, Any]] = dict(MANIFEST)
    registry = sys.modules.get(REGISTRY)
    if registry is not None:
        found.update((name, registry.declared_data(context))
                     for name, context in registry.CONTEXTS.items() if name not in MANIFEST)
    return found


def measure_names(measures: Any) -> list[str]:
    """The names in ``measures`` as a claim reads them: a string's words, the strings of a
    list or tuple (its other items, ir_measures' objects, are never a context's own), none
    for other iterables (read once, later)."""
    if isinstance(measures, str):
        return measures.split()
    if isinstance(measures, (list, tuple)):
        return [n for m in measures if isinstance(m, str) for n in m.split()]
    return []


def trec_eval_call(qrels: Any, names: list[str], options: Mapping[str, Any]) -> bool:
    """Whether a call is one of trec_eval's measures as the contexts' claims of it were
    asked (``claims_trec_eval``, :func:`~irscale.evaluation.contexts.declaration`):
    ``qrels`` a path (or none) and ``options`` as in one of :data:`TREC_EVAL_CALLS`, every
    one of ``names`` a name of trec_eval's
    (:func:`~irscale.measures.trec_reading.is_trec_eval_name`)."""
    if not (qrels is None or isinstance(qrels, str)) or (
            None if qrels is None else "qrels", dict(options)) not in TREC_EVAL_CALLS:
        return False
    from ..measures.trec_reading import is_trec_eval_name

    return all(map(is_trec_eval_name, names))


def trec_eval_only(qrels: Any, measures: Any, options: Mapping[str, Any]) -> bool:
    """Whether a call is the default context's without asking the others: names alone (a
    string, or a list or tuple of strings), all trec_eval's (:func:`trec_eval_call`), and
    no other context claims such a call (the manifest's ``claims_trec_eval``)."""
    names_alone = isinstance(measures, str) or (
        isinstance(measures, (list, tuple)) and all(isinstance(m, str) for m in measures))
    return names_alone and trec_eval_call(qrels, measure_names(measures), options) \
        and not any(entry["claims_trec_eval"] for name, entry in declarations().items()
                    if name != DEFAULT)


def load(name: str) -> Any:
    """The context declared as ``name``: its module (the one :func:`declarations` names)
    imported, which registers it (and loads the registry)."""
    importlib.import_module(declarations()[name]["module"])
    return sys.modules[REGISTRY].CONTEXTS[name]


def declared_default(qrels: Any, measures: Any, options: Mapping[str, Any]
                     ) -> Declared | None:
    """The default context as the manifest declares it (:class:`Declared`: no context's
    module imported), where a call is its without asking the others
    (:func:`trec_eval_only`) and the manifest holds all the command line reads of it
    (``by_data``); None otherwise (the contexts choose,
    :func:`~irscale.evaluation.contexts.choose`)."""
    if trec_eval_only(qrels, measures, options) and \
            declarations()[DEFAULT]["by_data"] is not None:
        return Declared(DEFAULT)
    return None


def refusal(what: str, why: str, option: str) -> str:
    """The one message that refuses ``option`` (``"labels="``, ``"-J"``) in the context
    that evaluates ``what`` and refuses it because ``why``
    (:meth:`~irscale.evaluation.context.Context.refusal`)."""
    return f"{option} does not apply to {what} ({why})"


def refuse_unread(context: Refusing, given: Mapping[str, str]) -> None:
    """The one rule of the options a context does not read: ``given`` maps each option
    given with a value other than its default to the way the caller spells it
    (``"labels="`` in the API, ``"-J"`` on the command line); the first one ``context``
    does not read is a :class:`ParameterError`
    (:meth:`~irscale.evaluation.context.Context.refusal`)."""
    for option, spelled in given.items():
        if option not in context.accepts:
            raise ParameterError(context.refusal(spelled))


def _function(reference: str) -> Callable[..., Any]:
    """The function named ``"module:function"``, its module imported."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


def read_runs(named_runs_by: str | None, paths: Sequence[str], names: Any,
              trec: Callable[[], Any]) -> Any:
    """How ``irscale eval`` reads the run files of a context that declares it as data
    (:meth:`~irscale.evaluation.context.Context.read_runs`): ``trec()``, the command line's
    reading of TREC run files, unless ``--names`` is given (``names``) and the context
    reads named files itself (``named_runs_by(paths, names)``: judged rankings hand the
    files and their rule to the evaluation, :func:`irscale.io.naming.named_files`)."""
    if names is None or named_runs_by is None:
        return trec()
    return _function(named_runs_by)(paths, names)


def text(text_by: str | None, qrels: Any, runs: Any, measures: Any,
         **options: Any) -> bytes | None:
    """trec_eval's text straight from the files of a context that declares how it makes
    it (``text_by(qrels, runs, measures, **options)``: judged rankings',
    :func:`irscale.evaluation.trec_text.trec_eval_text`), None for a context that has none
    (:meth:`~irscale.evaluation.context.Context.text`)."""
    if text_by is None:
        return None
    return _function(text_by)(qrels, runs, measures, **options)


class Declared:
    """A context as the manifest declares it (its entry of :func:`declarations`, where it
    has ``by_data``: how it reads run files and makes its text are data there): what the
    command line reads of it before the evaluation (what it evaluates, the options it
    reads and their refusal, its ranking of runs, its baseline, its formats, its reading of
    run files, its text straight from the files) without its module; anything else (its
    runner, its output formats, its claim) is the context's own, loaded on first use
    (:meth:`loaded`)."""

    def __init__(self, name: str) -> None:
        entry = declarations()[name]
        data = entry["by_data"]
        self.name = name
        self.what: str = entry["what"]
        self.accepts = frozenset(entry["reads"])
        self.formats: tuple[str, ...] | None = entry["formats"]
        self.command: str | None = entry["command"]
        self.qrels_format: str | None = entry["qrels_format"]
        self.examples: tuple[str, ...] = entry["examples"]
        self.why: str = data["why"]
        self.keep_rank: bool = data["keep_rank"]
        self.baseline_run: bool = data["baseline_run"]
        self.text_by: str | None = data["text_by"]
        self.named_runs_by: str | None = data["named_runs_by"]

    def __repr__(self) -> str:
        return f"Declared(name={self.name!r})"

    def __eq__(self, other: object) -> bool:
        """The same context as the manifest declares it (one per name)."""
        return isinstance(other, Declared) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("Declared", self.name))

    def loaded(self) -> Any:
        """The context itself (:class:`~irscale.evaluation.context.Context`), its module
        imported."""
        return load(self.name)

    def __getattr__(self, name: str) -> Any:
        """What the manifest does not hold: the context's own (:meth:`loaded`)."""
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.loaded(), name)

    def refusal(self, option: str) -> str:
        """The one message that refuses ``option`` here (:func:`refusal`)."""
        return refusal(self.what, self.why, option)

    def read_runs(self, paths: Sequence[str], names: Any, trec: Callable[[], Any]) -> Any:
        """Its run files read as it declares (:func:`read_runs`)."""
        return read_runs(self.named_runs_by, paths, names, trec)

    def text(self, qrels: Any, runs: Any, measures: Any, **options: Any) -> bytes | None:
        """Its text straight from the files, as it declares (:func:`text`)."""
        return text(self.text_by, qrels, runs, measures, **options)


__all__ = ["DEFAULT", "TREC_EVAL_CALLS", "Declared", "declarations", "declared_default", "load",
           "measure_names", "read_runs", "refusal", "refuse_unread", "text", "trec_eval_call",
           "trec_eval_only"]

"""The edge of the Python API: what a function's binding cannot know about its call.

Every public function of irscale (what the ``__all__`` of a public package exports) is
wrapped once, where its package exports it (:func:`guard`); the public methods of the
objects it returns are wrapped too. Its parameters are bound where it is defined
(:mod:`irscale.core.binding`): arity and keywords (:func:`~irscale.core.binding.
bind_arguments`, a :class:`~irscale.errors.ParameterError` naming the function, never
Python's ``TypeError``), and for a function declared with a :class:`~irscale.core.binding.
Binding`, its parameters' domains and rules, all on entry. The edge binds the arity of a
function declared without one (or :meth:`~irscale.core.binding.Binding.on_entry`), and
keeps what a declaration cannot know, because it happens only during the call:

* **one call**: no file it writes replaces a file it has read (:mod:`irscale.core.reads`);
  its warnings are shown at the caller's line (:mod:`irscale.core.caller_warnings`);
  numpy's floating-point warnings are errors where they happen
  (:func:`irscale.core.numbers.raising`);
* **which argument an irscale error is about** (:func:`_name_argument`): an error raised
  deep inside (a file's fault, an empty input) that names no parameter begins with the
  argument that passed its subject (:func:`irscale.errors.about`);
* **keywords handed on** through ``**options`` to a function the call chooses
  (:func:`irscale.core.binding.forwarded_keyword_error`);
* **each argument against its parameter's declared type** (:func:`_checked_on_entry`):
  the signature is a declaration, judged on entry, before the body runs
  (:func:`irscale.core.hints.check_entry`; the annotations read at a function's first
  call and kept, :func:`irscale.core.hints.entry_checks`): None where the type does not
  admit it, a value but True or False where it is ``bool``, a frame, a text, a list of
  texts or NaN where it declares something else (``scores: expected ShardScores, got
  DataFrame``), an integer beyond 64 bits, an empty container where data is declared
  without a default. A parameter a binding declares is refused in its domain's words, and
  so is one whose annotation carries its domain (``Annotated``:
  :data:`irscale.measures.name_hints.MeasureNames`); a ``Literal``'s choices are named. A raw
  exception raised once every argument had its declared type propagates unchanged: it is
  irscale's own fault, never disguised as the user's.

The edge is the outermost public call: public functions and methods that call others
(``Evaluation.format`` calls ``Evaluation.write``) run inside it, and the messages name the
caller's arguments. The wrapper keeps the call's arguments until it returns (to name one
in a message): a caller that hands over its only reference so that the function frees an
input early (the command line's runs) calls the module's function itself. The
translators are listed, each with why no declaration can hold it, in
``tests/test_binding.py`` (``EDGE_TRANSLATORS``).

This module imports only the standard library, :mod:`irscale.errors`,
:mod:`irscale.core.reads`, :mod:`irscale.core.numbers` (numpy when a call begins) and its
on/off switch (:mod:`irscale.core.edge_switch`, which the command line turns off); the
binding and the type hints are loaded when a call needs them (the hints at a function's
first call through the edge): the packages' lazy exports stay lazy.
"""

from __future__ import annotations

import contextvars
import functools
import sys
import types
from collections.abc import Callable, MutableMapping

from ..errors import IrscaleError, ParameterError
from .edge_switch import ACTIVE as _ACTIVE
from .edge_switch import bypassed as bypassed
from .numbers import raising
from .reads import enter as enter_call
from .reads import leave as leave_call
from .records import is_record_init

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])

#: The raw exceptions the edge looks behind.
RAW: tuple[type[BaseException], ...] = (TypeError, AttributeError, ValueError, KeyError,
                                        IndexError, OverflowError, ZeroDivisionError)

#: Whether this thread is inside a call through the edge already: the public functions and
#: methods that call others (``Evaluation.format`` calls ``Evaluation.write``) are one
#: call of the caller's, whose arguments the outermost edge names.
_INSIDE: contextvars.ContextVar[bool] = contextvars.ContextVar("irscale_edge", default=False)
#: No subject: an error that :func:`irscale.errors.about` did not tie to a value.
_MISSING = object()


def public(function: F) -> F:
    """``function`` behind the edge (idempotent): its arity bound on entry where no binding
    wraps it, the call made one call, and its errors translated (module documentation)."""
    if getattr(function, "__irscale_edge__", False):
        return function

    #: The parameters judged on entry by their declared types (:func:`_checked_on_entry`),
    #: read at the first call: by the class of the record being made for the constructor
    #: records share, else under None.
    declared: dict[type | None, tuple[tuple[int, str, Any, str | None, Any], ...]] = {}
    record = is_record_init(function)

    @functools.wraps(function)
    def edge(*args: Any, **kwargs: Any) -> Any:
        if not _ACTIVE[0]:
            return function(*args, **kwargs)
        if _INSIDE.get():
            return _with_methods_guarded(function(*args, **kwargs))
        from .caller_warnings import enter as enter_warnings
        from .caller_warnings import leave as leave_warnings

        if not hasattr(function, "__irscale_binding__") or \
                hasattr(function, "__irscale_on_entry__"):
            # arity and keywords on entry (a bound function's wrapper checks its own:
            # Binding; one bound on_entry has no wrapper)
            _bind_arity(function, args, kwargs)
        key = type(args[0]) if record and args else None
        checks = declared.get(key)
        if checks is None:
            from .hints import entry_checks

            checks = declared[key] = entry_checks(function, args)
        if checks:
            _checked_on_entry(function, checks, args, kwargs)
        inside = _INSIDE.set(True)
        enter_call()  # one call: no output replaces a file it reads (irscale.core.reads)
        caller = enter_warnings(sys._getframe(1))  # its warnings at the caller's line
        try:
            with raising():
                result = function(*args, **kwargs)
            return _with_methods_guarded(result)
        except IrscaleError as error:
            if hasattr(error, "keywords"):  # options a function it hands them to refused
                own = _forwarded(function, args, kwargs, error)
                if own is not None:
                    raise own from error
            if not _names_parameter(function, args, error):
                _name_argument(function, args, kwargs, error)
            raise
        except RAW as error:
            forwarded = _forwarded(function, args, kwargs, error)
            if forwarded is None:
                raise
            raise forwarded from error
        finally:
            leave_warnings(caller)
            leave_call()
            _INSIDE.reset(inside)

    edge.__irscale_edge__ = True  # type: ignore[attr-defined]
    return edge  # type: ignore[return-value]


def _with_methods_guarded(result: Any) -> Any:
    """``result``, its class behind the edge (:func:`guarded`) if irscale defines it: the
    methods of what a public function returns (an evaluation's ``format``, a table's
    ``row``) are public too, whether or not its class was reached through an export."""
    kind = type(result)
    if kind.__module__.startswith("irscale.") and \
            not vars(kind).get("__irscale_edge__", False):
        guarded(kind)
    return result


def guard(namespace: MutableMapping[str, Any], names: list[str] | None = None) -> None:
    """Put the functions and classes of ``namespace`` (a package's globals) named in
    ``names`` (its ``__all__``) behind the edge (:func:`guarded`); constants and modules
    are left as they are."""
    for name in namespace.get("__all__", []) if names is None else names:
        if name in namespace:
            namespace[name] = guarded(namespace[name])


def guarded(value: Any) -> Any:
    """``value`` behind the edge (a lazy export): a function wrapped (:func:`public`); a
    class with its constructor (``__init__``, or a ``__new__`` written in Python), the
    public class methods it defines (``ScoreMatrix.from_frame``), as they are its ways
    in, and the public methods of its objects, its own and those it inherits from
    irscale's classes (``ScoreMatrix.subset``, ``AnovaResult.format``), wrapped in place
    (an inherited method in the class itself: the base class is left as it is); anything
    else (an exception class, an enumeration, a constant) as it is."""
    if isinstance(value, types.FunctionType):
        return public(value)
    import enum

    if isinstance(value, type) and not issubclass(value, (BaseException, enum.Enum)) and \
            not vars(value).get("__irscale_edge__", False):
        inherited = getattr(value, "__init__", None)  # a base's of irscale (Report's)
        if "__init__" not in vars(value) and isinstance(inherited, types.FunctionType) and \
                inherited.__module__.startswith("irscale"):
            value.__init__ = public(inherited)  # type: ignore[method-assign]
        for name, member in list(vars(value).items()):
            if name == "__init__" and isinstance(member, types.FunctionType):
                setattr(value, name, public(member))
            elif name.startswith("_"):
                continue
            elif isinstance(member, classmethod):
                setattr(value, name, classmethod(public(member.__func__)))
        for name, method in _methods(value).items():
            setattr(value, name, public(method))
        new = getattr(value, "__new__", None)  # a float result's (its own or a base's)
        if isinstance(new, types.FunctionType):
            value.__new__ = staticmethod(public(new))  # type: ignore[method-assign]
        value.__irscale_edge__ = True  # type: ignore[attr-defined]
    return value


def _methods(cls: type) -> dict[str, types.FunctionType]:
    """The public methods of the objects of ``cls`` written in irscale (its own and those
    it inherits from irscale's classes), by name: plain functions, not properties."""
    found: dict[str, types.FunctionType] = {}
    for base in reversed(cls.__mro__):
        if not base.__module__.startswith("irscale"):
            continue
        for name, member in vars(base).items():
            if not name.startswith("_") and isinstance(member, types.FunctionType):
                found[name] = member
    return found



def _bind_arity(function: Callable[..., Any], args: tuple[Any, ...],
                kwargs: dict[str, Any]) -> None:
    """The arity and keywords of the call (:func:`irscale.core.binding.bind_arguments`)."""
    from .binding import arity_of_call, bind_arguments, qualified_name

    bind_arguments(function, args, kwargs, owner=qualified_name(function, args),
                   found=arity_of_call(function, args))


def _checked_on_entry(function: Callable[..., Any],
                      checks: tuple[tuple[int, str, Any, str | None, Any], ...],
                      args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse, on entry, an argument that does not fit its parameter's declared type
    (:func:`irscale.core.hints.check_entry`): None where the type does not admit it, a
    value but True or False where it is ``bool``, a frame, a text or NaN where it declares
    something else, an integer beyond 64 bits, an empty container for required data. A
    missing argument is named first, as the binding of a bound function, whose wrapper
    runs after the edge, names it."""
    from .hints import check_entry

    try:
        error = check_entry(function, checks, args, kwargs)
    except IrscaleError:  # (a switch's, or a domain's an annotation carries)
        _bind_arity(function, args, kwargs)
        raise
    if error is not None:
        _bind_arity(function, args, kwargs)
        raise error


# --------------------------------------------------------------------------- translators
def _forwarded(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
               error: BaseException) -> ParameterError | None:
    """:func:`irscale.core.binding.forwarded_keyword_error` (the binding's keyword check of
    a function that hands its ``**options`` on): it cannot run on entry, as the function
    that takes them is chosen by the call (a test named by ``test=``)."""
    from .binding import forwarded_keyword_error

    return forwarded_keyword_error(function, args, kwargs, error)


def __getattr__(name: str) -> Any:
    """``keyword_error``, where the modules that refuse keywords read it (loaded on first
    use: :mod:`irscale.core.binding` is not on the start-up path of ``irscale eval``)."""
    if name == "keyword_error":
        from .binding import keyword_error

        return keyword_error
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _names_parameter(function: Callable[..., Any], args: tuple[Any, ...],
                     error: IrscaleError) -> bool:
    """Whether the message of ``error`` names a parameter of ``function`` already (its
    ``param``, or a parameter's name at the head of a clause)."""
    from .binding import arity_of_call

    found = arity_of_call(function, args)
    if found is None:
        return True
    names = {*found.positional, *found.keyword_only, *found.extra}
    if getattr(error, "param", None) in names:
        return True
    import re

    message = str(error)
    return any(message.startswith(f"{name} ") or
               re.search(rf"(?:^|[\s(]){re.escape(name)}(?=:\s|:$|=|\s+must|\)|\[)", message)
               for name in names)


def _name_argument(function: Callable[..., Any], args: tuple[Any, ...],
                   kwargs: dict[str, Any], error: IrscaleError) -> None:
    """Begin the message of ``error`` (which names no parameter) with the argument that
    passed its subject (:func:`irscale.errors.about`); the message and the class stay what
    they were. It cannot
    move to a declaration: the error is raised where a value is read (a file's line, an
    empty table), by code that does not know which of the call's arguments the value
    came from; only the call does."""
    from .hints import call_arguments

    if not error.args or not isinstance(error.args[0], str):
        return
    call = call_arguments(function, args, kwargs)
    if call is None:
        return
    subject = getattr(error, "subject", _MISSING)
    named = next((name for name, value, _ in call[0] if value is subject), None)
    if named is not None:
        # after the entry point where the message begins with it (``read_qrels: ``)
        entry = f"{getattr(function, '__name__', '')}: "
        text = error.args[0]
        head, text = (entry, text[len(entry):]) if text.startswith(entry) else ("", text)
        error.args = (f"{head}{named}: {text}", *error.args[1:])
        if isinstance(error, ParameterError):
            error.param = named

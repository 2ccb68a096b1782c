"""The edge of the Python API: a raw exception caused by an argument becomes an irscale error.

Every public function of irscale (what the ``__all__`` of a public package exports) is
wrapped once, where its package exports it (:func:`guard`). On the way in, the call's
arity and keywords are bound by the binding's mechanism
(:func:`irscale.core.binding.bind_arguments`: too many positional arguments, a missing
one, one given twice, a keyword the function does not take, a :class:`~irscale.errors.
ParameterError` naming the function), and a function declared with a
:class:`~irscale.core.binding.Binding` has its parameters' domains and rules checked by
it. What the declarations cannot know is left here: the types of the data a function is
given. The wrapper keeps the call's arguments until it returns (to name one in a
message): a caller that hands over its only reference so that the function frees an
input early (the command line's runs) calls the module's function itself. When the call
ends in a raw Python exception (:data:`RAW`: ``TypeError``, ``AttributeError``,
``ValueError``, ``KeyError``, ``IndexError``, ``OverflowError``, ``ZeroDivisionError``;
never an :class:`~irscale.errors.IrscaleError`), the arguments are checked against the
function's type hints:

* the first argument that does not have its declared type — ``None`` where the annotation
  does not allow it, a string where it declares numbers or a sequence of names, a list of
  strings where it declares numbers, NaN where it declares a number, a data frame where it
  declares a :class:`~irscale.stats.ShardScores` — turns the exception into a
  :class:`~irscale.errors.ParameterError` that names the argument (``scores: expected
  ShardScores, got DataFrame``), the raw exception kept as its ``__cause__``;
* failing that, an integer beyond the 64 bits of numpy's and the engine's integers
  (``10**30`` where a count is declared), then an argument declared as a container that
  holds nothing (an empty data frame, list or array), turns it into one that says so;
* otherwise the raw exception propagates unchanged: every argument had its declared type,
  so it is a fault of irscale, never disguised as the user's.

A keyword a function hands on through its ``**options`` is checked where it is handed:
to another function or a dataclass of options (Python's ``TypeError`` there names the
callee, whose keywords are read), or to one that reads them itself (a test's, a
correlation's options: its :func:`keyword_error`); the message names them all, with the
nearest keyword taken. The edge is the outermost public call: public functions and
methods that call others (``Evaluation.format`` calls ``Evaluation.write``) run inside
it, and the messages name the caller's arguments.

The annotations are read only then, from their text (``from __future__ import
annotations``): names resolved in the function's module, its ``TYPE_CHECKING`` imports by
the class names in the value's type hierarchy; an annotation that cannot be read blames
nothing. This module imports only the standard library, :mod:`irscale.errors`,
:mod:`irscale.core.reads` and :mod:`irscale.core.numbers` (numpy when a call begins): the
packages' lazy exports stay lazy.

A call through the edge is also one call of :mod:`irscale.core.reads`: no file it writes
replaces a file it has read; its warnings are shown at the caller's line
(:mod:`irscale.core.caller_warnings`: ``script.py:12: UserWarning: ...``, not a line of
irscale's). Inside the call, numpy's floating-point warnings are errors
(:func:`irscale.core.numbers.raising`: an overflow raises ``FloatingPointError`` where it
happens, never a ``RuntimeWarning`` and an infinity in a result).

The same contract as scikit-learn's ``validate_params`` (parameters checked against their
declared types at the public edge, errors naming the parameter), obtained from the type
hints rather than from a second declaration.
"""

from __future__ import annotations

import builtins
import collections.abc
import contextlib
import contextvars
import enum
import functools
import math
import numbers
import re
import sys
import types
from collections.abc import Callable, Iterator, MutableMapping, Sequence

from ..errors import IrscaleError, ParameterError, shorten
from .numbers import raising
from .reads import enter as enter_call
from .reads import leave as leave_call
from .records import is_record_init

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import ast
    from typing import Any, TypeVar

    from .binding import Arity

    F = TypeVar("F", bound=Callable[..., Any])

#: The raw exceptions the edge looks behind.
RAW: tuple[type[BaseException], ...] = (TypeError, AttributeError, ValueError, KeyError,
                                        IndexError, OverflowError, ZeroDivisionError)
#: The integers numpy and the engine hold (int64): a Python integer beyond them cannot be
#: a count, a cut-off or a size.
_INT64 = 2**63


#: Module aliases the annotations use (``pd.DataFrame``, ``np.ndarray``).
_ALIASES = {"pd": "pandas", "np": "numpy", "npt": "numpy.typing"}
#: Most elements of a sequence checked against its element type.
_ELEMENTS = 10_000

_UNKNOWN = None  # an annotation that cannot be read: it blames nothing
_MISSING = object()


#: Whether the edge looks behind errors: off while the command line runs a command
#: (:func:`bypassed`), whose messages name its options and files, never a Python parameter.
_ACTIVE = [True]
#: Whether this thread is inside a call through the edge already: the public functions and
#: methods that call others (``Evaluation.format`` calls ``Evaluation.write``) are one
#: call of the caller's, whose arguments the outermost edge names.
_INSIDE: contextvars.ContextVar[bool] = contextvars.ContextVar("irscale_edge", default=False)
#: Python's error for a keyword a function does not take (or is given twice), raised where
#: the function is called: the function's qualified name and the keyword (a pattern
#: compiled by :mod:`re` when first used).
_KEYWORD_ERROR = (r"^([\w.]+)\(\) got (?:an unexpected|multiple values for) "
                  r"keyword argument '(\w+)'$")


@contextlib.contextmanager
def bypassed() -> Iterator[None]:
    """The edge off for the calls inside (the command line's: it checks its options before
    it calls the API, and an error there names what the user typed, ``--scores s.csv``,
    not the argument the API was given, ``data``)."""
    was = _ACTIVE[0]
    _ACTIVE[0] = False
    try:
        yield
    finally:
        _ACTIVE[0] = was


def public(function: F) -> F:
    """``function`` behind the edge (idempotent)."""
    if getattr(function, "__irscale_edge__", False):
        return function

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
            from .binding import bind_arguments

            bind_arguments(function, args, kwargs, owner=_qualified(function, args),
                           found=_arity_of(function, args))
        inside = _INSIDE.set(True)
        enter_call()  # one call: no output replaces a file it reads (irscale.core.reads)
        caller = enter_warnings(sys._getframe(1))  # its warnings at the caller's line
        try:
            with raising():
                result = function(*args, **kwargs)
            return _with_methods_guarded(result)
        except IrscaleError as error:
            if hasattr(error, "keywords"):  # options a function it hands them to refused
                own = _unknown_keywords(function, args, kwargs, error)
                if own is not None:
                    raise own from error
            if not _names_parameter(function, args, error):
                _name_argument(function, args, kwargs, error)
            raise
        except RAW as error:
            blamed = _unknown_keywords(function, args, kwargs, error) or \
                blame(function, args, kwargs)
            if blamed is None:
                raise
            raise blamed from error
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


# --------------------------------------------------------------------------- blame
def _arity_of(function: Any, args: tuple[Any, ...] = ()) -> Arity | None:
    """:func:`irscale.core.binding.arity_of_call` (loaded when a call goes wrong)."""
    from .binding import arity_of_call

    return arity_of_call(function, args)


def _keywords_of(function: Any, args: tuple[Any, ...] = ()) -> list[str]:
    """The keywords ``function`` takes (none where its arity cannot be read)."""
    found = _arity_of(function, args)
    return [] if found is None else found.keywords


def _unknown_keywords(function: Callable[..., Any], args: tuple[Any, ...],
                      kwargs: dict[str, Any], error: BaseException) -> ParameterError | None:
    """The error of keywords that ``function`` hands on through its ``**options`` and the
    function it hands them to does not take (``error``: Python's ``TypeError`` raised where
    that function is called (:func:`_callee`), or the :func:`keyword_error` of a function
    that reads its options itself), naming them all with the keywords taken, the
    function's and that one's; None otherwise. (A keyword that a function without
    ``**options`` does not take is refused on entry: :func:`irscale.core.binding.
    bind_arguments`.)"""
    found = _arity_of(function, args)
    if found is None or not found.varkw:
        return None
    unknown: Sequence[str]
    inner: Sequence[str]
    match = re.match(_KEYWORD_ERROR, str(error)) if isinstance(error, TypeError) else None
    if match is not None:
        unknown, inner, note = [match[2]], _keywords_of(_callee(error, match[1])), ""
    else:
        unknown, inner, note = getattr(error, "keywords", ((), (), ""))
    if not unknown or any(name not in kwargs for name in unknown):
        return None  # not the caller's keywords: the function's own fault
    taken = found.keywords
    taken += [name for name in inner if name not in taken and name not in unknown]
    return _keyword_error(_name(function, args), unknown, taken, note)


def _keyword_error(*args: Any) -> ParameterError | None:
    """:func:`irscale.core.binding.keyword_error` (loaded when a call goes wrong)."""
    from .binding import keyword_error

    return keyword_error(*args)


def __getattr__(name: str) -> Any:
    """``keyword_error``, where the modules that refuse keywords read it (loaded on first
    use: :mod:`irscale.core.binding` is not on the start-up path of ``irscale eval``)."""
    if name == "keyword_error":
        from .binding import keyword_error

        return keyword_error
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _name(function: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """The name a caller gave ``function``: its class's for a constructor (the class a
    base's ``__new__`` or ``__init__`` makes), else its own."""
    name = getattr(function, "__name__", "the function")
    if name == "__new__" and args and isinstance(args[0], type):
        return args[0].__name__
    if (name == "__init__" or is_record_init(function)) and args:
        return type(args[0]).__name__
    return name


def _qualified(function: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """How arity errors name ``function``: its class's name for a constructor, the class
    and method (``ScoreMatrix.from_frame``) for a method, else its own name."""
    name = _name(function, args)
    qualified = getattr(function, "__qualname__", name)
    if name != getattr(function, "__name__", None) or "<locals>" in qualified:
        return name
    return qualified


def _callee(error: BaseException, qualname: str) -> Any:
    """The function called where ``error`` was raised, found by its qualified name
    (``TrecEvalOptions.__init__``) among the names of the innermost frame of its traceback
    that has it: the caller's (a function that refuses its arguments has no frame yet, or
    one of its own when it checks them itself, as a record's shared ``__init__`` does), or
    None."""
    frames = []
    trace = error.__traceback__
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    head, *rest = qualname.split(".")
    value = next((scope[head] for frame in reversed(frames)
                  for scope in (frame.f_locals, frame.f_globals) if head in scope),
                 vars(builtins).get(head))
    for attribute in rest:
        if attribute == "__init__" and isinstance(value, type):
            break  # the class's arity is its constructor's (a record's: its fields)
        value = getattr(value, attribute, None)
    return value


def _annotations(function: Callable[..., Any], args: tuple[Any, ...]
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The annotations of the parameters of ``function`` (a record's constructor: those of
    the fields of the class of ``args[0]``; a function that shows the options it takes as
    ``**options`` in a ``__signature__``, theirs too) and the names of the module they are
    read in."""
    if is_record_init(function) and args:
        kind = type(args[0])
        found: dict[str, Any] = {}
        for base in reversed(kind.__mro__):
            found.update(vars(base).get("__annotations__", {}))
        module = sys.modules.get(kind.__module__)
        return found, vars(module) if module is not None else {}
    inner: Any = function
    while hasattr(inner, "__wrapped__"):
        inner = inner.__wrapped__
    found = dict(getattr(inner, "__annotations__", {}))
    declared = getattr(inner, "__signature__", None)  # options shown as its keywords
    if declared is not None:  # (evaluation.options.TrecEvalSignature: trec_eval's)
        found.update((name, parameter.annotation)
                     for name, parameter in declared.parameters.items()
                     if parameter.annotation is not parameter.empty)
    return found, getattr(inner, "__globals__", {})


def _arguments(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
               ) -> tuple[list[tuple[str, Any, list[Any]]], dict[str, Any]] | None:
    """Each argument of the call (its arity checked on entry): its name, its value and the
    values its annotation applies to (each one of ``*args`` and ``**kwargs``); and the
    annotations, by name. None where the arity of ``function`` cannot be read."""
    found = _arity_of(function, args)
    if found is None:
        return None
    annotations, _ = _annotations(function, args)
    bound = [(name, value, [value]) for name, value in zip(found.positional, args,
                                                           strict=False)]
    rest = list(args[len(found.positional):])
    if rest and found.varargs:
        bound.append((found.extra[0], tuple(rest), rest))
    taken = [*found.keywords, *(name for name in annotations if name not in found.extra)]
    options = {key: value for key, value in kwargs.items() if key not in taken}
    bound += [(key, value, [value]) for key, value in kwargs.items() if key in taken]
    if options and found.varkw:
        bound.append((found.extra[-1], options, list(options.values())))
    return bound, annotations


def _names_parameter(function: Callable[..., Any], args: tuple[Any, ...],
                     error: IrscaleError) -> bool:
    """Whether the message of ``error`` names a parameter of ``function`` already."""
    found = _arity_of(function, args)
    if found is None:
        return True
    names = {*found.positional, *found.keyword_only, *found.extra}
    if getattr(error, "param", None) in names:
        return True
    message = str(error)
    return any(message.startswith(f"{name} ") or
               re.search(rf"(?:^|[\s(]){re.escape(name)}(?=:\s|:$|=|\s+must|\)|\[)", message)
               for name in names)


def _name_argument(function: Callable[..., Any], args: tuple[Any, ...],
                   kwargs: dict[str, Any], error: IrscaleError) -> None:
    """Begin the message of ``error`` (which names no parameter) with the argument that
    passed its subject (:func:`about`), else with the one argument that does not have its
    declared type; the message and the class stay what they were."""

    if not error.args or not isinstance(error.args[0], str):
        return
    call = _arguments(function, args, kwargs)
    if call is None:
        return
    subject = getattr(error, "subject", _MISSING)
    named = next((name for name, value, _ in call[0] if value is subject), None)
    if named is None:
        blamed = blame(function, args, kwargs)
        named = None if blamed is None else blamed.param
    if named is not None:
        # after the entry point where the message begins with it (``read_qrels: ``)
        entry = f"{getattr(function, '__name__', '')}: "
        text = error.args[0]
        head, text = (entry, text[len(entry):]) if text.startswith(entry) else ("", text)
        error.args = (f"{head}{named}: {text}", *error.args[1:])
        if isinstance(error, ParameterError):
            error.param = named


def blame(function: Callable[..., Any], args: tuple[Any, ...],
          kwargs: dict[str, Any]) -> ParameterError | None:
    """The error naming the argument of ``function`` that does not fit its declaration,
    or None when every argument fits (or cannot be judged). A parameter a binding
    declares is judged too: the raw exception may come from its checks themselves (a data
    frame compared with a rule's values), before its domain refused it."""
    call = _arguments(function, args, kwargs)
    if call is None:
        return None
    arguments, annotations = call
    namespace = _annotations(function, args)[1]
    for name, _, items in arguments:
        annotation = annotations.get(name)
        if annotation is None:
            continue
        for item in items:
            if _fits(item, annotation, namespace) is False:
                return ParameterError(f"{name}: expected {_text(annotation)}, got "
                                      f"{_what(item)}", param=name)
    for name, value, _ in arguments:
        if isinstance(value, int) and not -_INT64 <= value < _INT64:
            return ParameterError(f"{name}: {shorten(str(value), 80)} is beyond a 64-bit "
                                  "integer", param=name)
    for name, value, _ in arguments:
        if _is_empty(value) and _is_container(annotations.get(name, ""), namespace):
            return ParameterError(f"{name}: got an empty {type(value).__name__} (no data)",
                                  param=name)
    return None


def _text(annotation: Any) -> str:
    return annotation if isinstance(annotation, str) else \
        getattr(annotation, "__name__", str(annotation))


def _what(value: Any) -> str:
    """``'abc' (str)``, ``None``, ``an empty DataFrame``, ``DataFrame of shape (3, 2)``."""
    if value is None:
        return "None"
    kind = type(value).__name__
    if isinstance(value, (str, bytes, numbers.Number)):
        return f"{shorten(repr(value), 80)} ({kind})"
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple):
        return f"a {kind} of shape {shape}"
    if isinstance(value, (list, tuple)):
        return f"a {kind} of {len(value)} values: {shorten(repr(value), 80)}"
    return f"a {kind}"


def _is_empty(value: Any) -> bool:
    if isinstance(value, (str, bytes)) or value is None:
        return False
    try:
        return len(value) == 0
    except Exception:
        return False


def _is_container(annotation: Any, namespace: dict[str, Any]) -> bool:
    """Whether the annotation's text declares data (frames, arrays, sequences, score
    matrices), not a scalar."""
    text = _text(annotation)
    return any(word in text for word in ("Sequence", "Iterable", "DataFrame", "ndarray",
                                         "Series", "ArrayLike", "Mapping", "ScoreMatrix",
                                         "list", "Scores"))


# --------------------------------------------------------------------------- fitting
def _fits(value: Any, annotation: Any, namespace: dict[str, Any]) -> bool | None:
    """Whether ``value`` fits ``annotation`` (a text or a typing object): True, False, or
    None when the annotation cannot be judged."""
    import ast

    if isinstance(annotation, str):  # (the text of compiled source: it parses)
        return _fits_node(value, ast.parse(annotation, mode="eval").body, namespace)
    return _fits_object(value, annotation, namespace)


def _any(results: list[bool | None]) -> bool | None:
    if any(result is True for result in results):
        return True
    if any(result is None for result in results):
        return _UNKNOWN
    return False


def _fits_node(value: Any, node: ast.expr, namespace: dict[str, Any]) -> bool | None:
    """Whether ``value`` fits the parsed annotation ``node``: a union ``A | B``, a constant
    (``None``, a forward reference), a subscript (``Literal[...]``, ``Sequence[float]``) or
    a (dotted) name; None when it cannot be judged."""
    import ast

    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _any([_fits_node(value, node.left, namespace),
                     _fits_node(value, node.right, namespace)])
    if isinstance(node, ast.Constant):
        if node.value is None:
            return value is None
        if isinstance(node.value, str):  # a forward reference
            return _fits(value, node.value, namespace)
        return _UNKNOWN
    if isinstance(node, ast.Subscript):
        return _fits_subscript(value, node, namespace)
    if isinstance(node, (ast.Name, ast.Attribute)):
        target = _resolve(node, namespace)
        if target is _MISSING:
            return _fits_name(value, ast.unparse(node), namespace)
        return _fits_object(value, target, namespace)
    return _UNKNOWN


def _fits_subscript(value: Any, node: ast.Subscript,
                    namespace: dict[str, Any]) -> bool | None:
    """A parsed subscripted annotation: ``Literal[...]`` (irscale writes unions ``A | B``,
    :func:`_fits_node`), else a parametrised container (:func:`_fits_generic`; ``...``
    is no element type)."""
    import ast
    import typing

    origin = _resolve(node.value, namespace)
    if origin is _MISSING:
        return _UNKNOWN
    arguments = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if origin is typing.Literal:
        return any(isinstance(a, ast.Constant) and type(value) is type(a.value) and
                   value == a.value for a in arguments)
    return _fits_generic(value, origin, [
        functools.partial(_fits_node, node=a, namespace=namespace) for a in arguments
        if not (isinstance(a, ast.Constant) and a.value is Ellipsis)])


def _resolve(node: ast.expr, namespace: dict[str, Any]) -> Any:
    """The object a name or dotted name of an annotation stands for, or :data:`_MISSING`."""
    import ast
    import typing

    if isinstance(node, ast.Name):
        for scope in (namespace, vars(typing), vars(collections.abc), vars(builtins)):
            if node.id in scope:
                return scope[node.id]
        if node.id in _ALIASES:
            return sys.modules.get(_ALIASES[node.id], _MISSING)
        return _MISSING
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, namespace)
        return _MISSING if base is _MISSING else getattr(base, node.attr, _MISSING)
    return _MISSING


def _fits_name(value: Any, name: str, namespace: dict[str, Any]) -> bool | None:
    """An annotation name the module imports for type checkers only (``ScoreMatrix``,
    ``pd.DataFrame``): resolved by importing what its ``if TYPE_CHECKING:`` block imports;
    a module alias whose package is not loaded holds no value of its types."""
    head, _, rest = name.partition(".")
    if rest and head in _ALIASES:
        return False if _ALIASES[head] not in sys.modules else _UNKNOWN
    target = _checking_imports(namespace.get("__name__", "")).get(head, _MISSING)
    for attribute in rest.split(".") if rest else ():
        target = getattr(target, attribute, _MISSING)
    if target is _MISSING:
        return _UNKNOWN
    return _fits_object(value, target, namespace)


@functools.cache
def _checking_imports(module_name: str) -> dict[str, Any]:
    """The names a module imports under ``if TYPE_CHECKING:``, imported now."""
    import ast
    import importlib
    import inspect

    module = sys.modules.get(module_name)
    try:
        tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    except (OSError, TypeError, SyntaxError):
        return {}
    found: dict[str, Any] = {}
    for node in tree.body:
        if not (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)):
            continue
        for statement in node.body:
            if not isinstance(statement, ast.ImportFrom):
                continue
            source = "." * statement.level + (statement.module or "")
            try:
                imported = importlib.import_module(source, module.__package__)  # type: ignore[union-attr]
            except ImportError:
                continue
            for alias in statement.names:
                value = getattr(imported, alias.name, _MISSING)
                if value is not _MISSING:
                    found[alias.asname or alias.name] = value
    return found


def _fits_object(value: Any, target: Any, namespace: dict[str, Any]) -> bool | None:
    import typing

    if target is typing.Any or target is object:
        return True
    if target is None or target is type(None):
        return value is None
    if isinstance(target, str):
        return _fits(value, target, namespace)
    origin = typing.get_origin(target)
    if origin is not None:
        arguments = typing.get_args(target)
        if origin is typing.Literal:
            return any(type(value) is type(a) and value == a for a in arguments)
        if origin is typing.Union or _is_union_type(origin):
            return _any([_fits_object(value, a, namespace) for a in arguments])
        return _fits_generic(value, origin, [
            functools.partial(_fits_object, target=a, namespace=namespace) for a in arguments
            if a is not Ellipsis])
    if isinstance(target, type):
        return _fits_class(value, target)
    return _UNKNOWN


def _is_union_type(origin: Any) -> bool:
    return getattr(origin, "__name__", "") == "UnionType"


def _fits_class(value: Any, target: type) -> bool:
    """``isinstance`` with the numeric tower of type hints (an int is a float, numpy's
    numbers are Python's) and NaN refused where a number is declared."""
    import typing

    if target is float or target is complex:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return False
        return not math.isnan(value)
    if target is int:  # (True is no count: an int declared, a bool given)
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if target is bool:
        return isinstance(value, bool) or type(value).__name__ == "bool_"
    if target is str:
        return isinstance(value, str)
    if issubclass(target, typing.IO):  # a protocol in all but name: any open file fits
        return hasattr(value, "read") or hasattr(value, "write")
    try:
        return isinstance(value, target)
    except TypeError:
        return True


def _fits_generic(value: Any, origin: Any, elements: list[Callable[[Any], bool | None]]
                  ) -> bool | None:
    """A parametrised container (``Sequence[float]``, ``Mapping[str, int]``,
    ``tuple[str, ...]``, ``Callable[..., T]``)."""
    import typing

    if origin in (collections.abc.Callable, typing.Callable):
        return callable(value)
    if isinstance(origin, type) and origin is type:
        return isinstance(value, type)
    if not isinstance(origin, type):
        return _UNKNOWN
    if isinstance(value, str) and origin is not str and not issubclass(origin, str) and \
            issubclass(origin, (collections.abc.Iterable,)):
        return False  # a name is not a collection of names (nor of numbers)
    if not _isinstance_generic(value, origin):
        return False
    return _fits_elements(value, origin, elements)


def _fits_elements(value: Any, origin: type, elements: list[Callable[[Any], bool | None]]
                   ) -> bool | None:
    """The elements of a container that is an ``origin``: a mapping's first
    :data:`_ELEMENTS` keys and values, a list's or tuple's first :data:`_ELEMENTS` items
    (against the first element type); any other container (an array) is not looked
    into."""
    if issubclass(origin, collections.abc.Mapping):
        if len(elements) != 2:
            return True
        results = []
        for key, item in list(value.items())[:_ELEMENTS]:
            results += [elements[0](key), elements[1](_number(item))]
        return _all(results)
    if isinstance(value, (list, tuple)) and elements:
        return _all([elements[0](_number(item)) for item in value[:_ELEMENTS]])
    return True


def _isinstance_generic(value: Any, origin: type) -> bool:
    if origin is collections.abc.Sequence and isinstance(value, collections.abc.Mapping):
        return False  # {"a": 1} is no sequence of values (its iteration, its keys, is not)
    if origin in (collections.abc.Sequence, collections.abc.Iterable,
                  collections.abc.Collection):
        # a pandas Series and a set are iterables of values; arrays are handled above
        return isinstance(value, origin) or hasattr(value, "__iter__")
    return _fits_class(value, origin)


def _number(item: Any) -> Any:
    """An element as its type is checked: NaN inside data is a value (a missing score),
    refused only where a single number is declared."""
    return 0.0 if isinstance(item, float) and math.isnan(item) else item


def _all(results: list[bool | None]) -> bool | None:
    if any(result is False for result in results):
        return False
    if any(result is None for result in results):
        return _UNKNOWN
    return True

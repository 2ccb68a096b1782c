"""The declared types of a public function's parameters, read from its annotations.

A public function declares the type of each parameter in its signature (``scores:
ShardScores``, ``measure: str | None``, ``values: Sequence[float]``): the annotation is
its declaration of what the parameter holds, as a :class:`~irscale.core.params.Param`'s
domain is of the values it takes. This module reads those declarations and judges a value
against them (:func:`misfit`): ``None`` where the annotation does not allow it, a string
where it declares numbers or a sequence of names, a list of strings where it declares
numbers, NaN where it declares a number, a data frame where it declares a
:class:`~irscale.stats.ShardScores`; failing that, an integer beyond the 64 bits of numpy's
and the engine's integers, then an empty container where data is declared.

The API's edge consults it at a function's first call, for the parameters that refuse
None on entry (:func:`refused_on_entry`), and when a call has ended in a raw Python exception
(:func:`irscale.core.edge.blame`): the annotations are read only then, from their text
(``from __future__ import annotations``), names resolved in the function's module and its
``TYPE_CHECKING`` imports; an annotation that cannot be read blames nothing. It imports
only the standard library and :mod:`irscale.errors` (numpy and pandas are judged by the
class names of the values, never imported here).
"""

from __future__ import annotations

import builtins
import collections.abc
import functools
import math
import numbers
import sys
from collections.abc import Callable

from ..errors import ParameterError, shorten
from .records import is_record_init

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import ast
    from typing import Any

#: The integers numpy and the engine hold (int64): a Python integer beyond them cannot be
#: a count, a cut-off or a size.
_INT64 = 2**63
#: Module aliases the annotations use (``pd.DataFrame``, ``np.ndarray``).
_ALIASES = {"pd": "pandas", "np": "numpy", "npt": "numpy.typing"}
#: Most elements of a sequence checked against its element type.
_ELEMENTS = 10_000

_UNKNOWN = None  # an annotation that cannot be read: it blames nothing
_MISSING = object()


def declared_types(function: Callable[..., Any], args: tuple[Any, ...]
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


def call_arguments(function: Callable[..., Any], args: tuple[Any, ...],
                   kwargs: dict[str, Any]
                   ) -> tuple[list[tuple[str, Any, list[Any]]], dict[str, Any]] | None:
    """Each argument of the call (its arity checked on entry): its name, its value and the
    values its annotation applies to (each one of ``*args`` and ``**kwargs``); and the
    annotations, by name. None where the arity of ``function`` cannot be read."""
    from .binding import arity_of_call

    found = arity_of_call(function, args)
    if found is None:
        return None
    annotations, _ = declared_types(function, args)
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


def misfit(function: Callable[..., Any], args: tuple[Any, ...],
           kwargs: dict[str, Any]) -> ParameterError | None:
    """The error naming the argument of ``function`` that does not fit its declared type
    (its annotation), or None when every argument fits (or cannot be judged): the first
    argument of another type, else an integer beyond 64 bits, else an empty container
    where data is declared. A parameter a binding declares is judged too: a domain that
    takes any value (a :class:`~irscale.core.params.Text`) leaves its type to the
    annotation."""
    call = call_arguments(function, args, kwargs)
    if call is None:
        return None
    arguments, annotations = call
    namespace = declared_types(function, args)[1]
    for name, _, items in arguments:
        annotation = annotations.get(name)
        if annotation is None:
            continue
        for item in items:
            if _fits(item, annotation, namespace) is False:
                return _expected(name, annotation, item)
    for name, value, _ in arguments:
        if isinstance(value, int) and not -_INT64 <= value < _INT64:
            return ParameterError(f"{name}: {shorten(str(value), 80)} is beyond a 64-bit "
                                  "integer", param=name)
    for name, value, _ in arguments:
        if _is_empty(value) and _is_container(annotations.get(name, ""), namespace):
            return ParameterError(f"{name}: got an empty {type(value).__name__} (no data)",
                                  param=name)
    return None


#: The message of an entry of :func:`refused_on_entry` for a switch: the parameter is declared
#: ``bool``, and :class:`irscale.core.params.Switch` judges its value (None included).
SWITCH = ""


def refused_on_entry(function: Callable[..., Any], args: tuple[Any, ...]
                 ) -> tuple[tuple[int, str, str], ...]:
    """The parameters of ``function`` (as called with ``args``: a record's constructor
    has its class's fields) that refuse None on entry (:func:`irscale.core.edge.public`):
    each as its position among the positional parameters (-1 for a keyword-only one), its
    name and the message :func:`misfit` would give for None. A parameter
    refuses None where its annotation does not admit it (no ``None`` nor ``Optional``,
    :func:`_admits_none`: an annotation that cannot be read refuses nothing), its
    default is not None, and no binding declares it with a domain that refuses None in
    its own words (:meth:`irscale.core.binding.Binding.bind`; a parameter a rule governs
    or that the binding only ``takes`` has no domain, and a domain not consulted for
    None, or that lets it pass, leaves it to the body); ``*args`` and ``**kwargs`` are left to
    :func:`misfit`. A parameter declared ``bool`` alone, which no binding declares, is a
    switch (the message :data:`SWITCH`): True or False, never another value read as one
    (``correction="yes"``, NaN), as :class:`irscale.core.params.Switch` says. Read once per
    function (per record class) by the edge, which keeps it."""
    from .binding import arity_of_call, binding_of

    found = arity_of_call(function, args)
    if found is None:
        return ()
    annotations, namespace = declared_types(function, args)
    binding = binding_of(function)
    # those whose None the binding judges (:meth:`~irscale.core.binding.Binding.bind`)
    judged = binding.defaults(found) if binding is not None else {}
    declared = {param.name for param in binding.params
                if judged.get(param.name, _MISSING) is not None and
                _refuses_none(param.domain)} if binding is not None else set()
    bound = {param.name for param in binding.params} if binding is not None else set()
    refused = []
    for index, name in [*enumerate(found.positional), *((-1, n) for n in found.keyword_only)]:
        annotation = annotations.get(name)
        if annotation is None or name in declared or \
                found.defaults.get(name, _MISSING) is None:
            continue
        if annotation in ("bool", bool) and name not in bound:
            refused.append((index, name, SWITCH))
        elif _admits_none(annotation, namespace) is False:
            refused.append((index, name, str(_expected(name, annotation, None))))
    return tuple(refused)


def _admits_none(annotation: Any, namespace: dict[str, Any]) -> bool | None:
    """Whether None fits ``annotation`` (:func:`_fits`), read without resolving the names
    of an annotation whose text names None (``ShardScores | None``: no module imported
    for it); an annotation that cannot be read admits it (None: unknown)."""
    if isinstance(annotation, str) and ("None" in annotation or "Optional" in annotation):
        return True
    try:
        return _fits(None, annotation, namespace)
    except Exception:  # (an annotation of another dialect: the edge judges nothing)
        return _UNKNOWN


def _refuses_none(domain: Any) -> bool:
    """Whether a binding's ``domain`` refuses None (its ``check`` raises)."""
    check = getattr(domain, "check", None)
    if check is None:
        return False
    try:
        check(None, "")
    except Exception:
        return True
    return False


def _expected(name: str, annotation: Any, value: Any) -> ParameterError:
    """``name: expected <annotation>, got <value>``: ``value`` does not fit the declared
    type of parameter ``name``."""
    return ParameterError(f"{name}: expected {_text(annotation)}, got {_what(value)}",
                          param=name)


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


def _decided(results: list[bool | None], decisive: bool) -> bool | None:
    """Three-valued ``or`` (``decisive`` True) or ``and`` (False) of ``results``: one
    ``decisive`` result decides; else one unknown (None) leaves it unknown."""
    if any(result is decisive for result in results):
        return decisive
    if any(result is None for result in results):
        return _UNKNOWN
    return not decisive


def _any(results: list[bool | None]) -> bool | None:
    return _decided(results, True)


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
    return _decided(results, False)

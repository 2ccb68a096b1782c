"""The declared types of a public function's parameters, read from its annotations.

A public function declares the type of each parameter in its signature (``scores:
ShardScores``, ``measure: str | None``, ``values: Sequence[float]``): the annotation is
its declaration of what the parameter holds, as a :class:`~irscale.core.params.Param`'s
domain is of the values it takes. This module reads those declarations and judges a call's
arguments against them on entry (:func:`entry_checks`, :func:`check_entry`): ``None``
where the annotation does not allow it, a string where it declares numbers or a sequence
of names, a list of strings where it declares numbers, NaN where it declares a number, a
data frame where it declares a :class:`~irscale.stats.ShardScores`; then an integer beyond
the 64 bits of numpy's and the engine's integers, then an empty container where data is
declared. What the bodies take beyond the letter of an annotation is part of the
declaration's reading: a list where a homogeneous tuple is declared (records keep tuples),
a list of numbers where an ``np.ndarray`` is (numpy makes one), a ``Literal``'s text in any
case; a protocol's structure (numpy's ``ArrayLike``) is not judged. An annotation that
carries a domain (``Annotated[T, domain]``) is judged by the domain, in its words.

The API's edge (:mod:`irscale.core.edge`) reads the checks at a function's first call and
keeps them: the annotations are read from their text (``from __future__ import
annotations``), names resolved in the function's module and its ``TYPE_CHECKING`` imports;
an annotation that cannot be read judges nothing. It imports only the standard library and
:mod:`irscale.errors` (numpy and pandas are judged by the class names of the values, never
imported here).
"""

from __future__ import annotations

import collections.abc
import functools
import itertools
import math
import numbers
import sys
from collections.abc import Callable

from ..errors import IrscaleError, ParameterError, shorten, shown
from .hint_names import ALIASES as _ALIASES
from .hint_names import MISSING as _MISSING
from .hint_names import alias as _alias
from .hint_names import checking_imports as _checking_imports
from .hint_names import parsed as _parsed
from .hint_names import resolve as _resolve
from .hint_names import without_none as _without_none
from .records import is_record_init

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import ast
    from typing import Any

#: The integers numpy and the engine hold (int64): a Python integer beyond them cannot be
#: a count, a cut-off or a size.
_INT64 = 2**63
#: Most elements of a sequence checked against its element type.
_ELEMENTS = 10_000

_UNKNOWN = None  # an annotation that cannot be read: it refuses nothing


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


#: The refusal of None of an :func:`entry_checks` entry for a switch: the parameter is
#: declared ``bool``, and :class:`irscale.core.params.Switch` judges its value (None included).
SWITCH = ""


def entry_checks(function: Callable[..., Any], args: tuple[Any, ...]
                 ) -> tuple[tuple[int, str, Any, str | None, Any], ...]:
    """The parameters of ``function`` (as called with ``args``: a record's constructor
    has its class's fields) judged on entry against their declared types
    (:func:`check_entry`), each as its position among the positional parameters (-1 for a
    keyword-only one, or an option a ``__signature__`` shows), its name, its annotation,
    its refusal of None and its binding's domain (or None).

    The refusal of None: ``name: expected <type>, got None`` where the annotation
    does not admit it (no ``None`` nor ``Optional``, :func:`_admits_none`), the default is
    not None, and no binding declares the parameter with a domain that refuses None in
    its own words (:meth:`irscale.core.binding.Binding.bind`); :data:`SWITCH` for a
    parameter declared ``bool`` alone that no binding declares: True or False, never
    another value read as one (``correction="yes"``, NaN), as
    :class:`irscale.core.params.Switch` says; None where None is left to the body (its
    default, or a domain). ``*args`` and ``**kwargs`` are judged by :func:`check_entry`
    from the annotations of the call. Read once per function (per record class) by the
    edge, which keeps it; an annotation that cannot be read judges nothing."""
    from .binding import arity_of_call

    found = arity_of_call(function, args)
    if found is None:
        return ()
    annotations, namespace = declared_types(function, args)
    domains, declared = _bound(function, found)
    options = [name for name in annotations if found.varkw and name != "return" and
               name not in (*found.positional, *found.keyword_only, *found.extra)]
    checks = []
    record = _is_constructor(function)
    for index, name in [*enumerate(found.positional),
                        *((-1, n) for n in (*found.keyword_only, *options))]:
        annotation = annotations.get(name)
        if annotation is None:
            continue
        kept = annotation  # what the parameter declares (a field: what the object keeps)
        if record and _coerced(annotation, namespace):
            annotation = "object"  # what the field's class coerces (``Strings.of``): its own
        refuse = None if name in declared or found.defaults.get(name, _MISSING) is None \
            else _none_refusal(name, kept, namespace, bound=name in domains)
        own = None if name in domains else _annotated_domain(annotation, namespace)
        checks.append((index, name, annotation, None if own is not None else refuse,
                       domains.get(name) or own))
    return tuple(checks)


def _bound(function: Callable[..., Any], found: Any) -> tuple[dict[str, Any], set[str]]:
    """The domains the binding of ``function`` declares, by parameter, and the parameters
    whose None it judges in a domain's words (:meth:`irscale.core.binding.Binding.bind`:
    their default is not None and the domain refuses None)."""
    from .binding import binding_of

    binding = binding_of(function)
    if binding is None:
        return {}, set()
    judged = binding.defaults(found)
    domains = {param.name: param.domain for param in binding.params}
    return domains, {name for name, domain in domains.items()
                     if judged.get(name, _MISSING) is not None and _refuses_none(domain)}


def _none_refusal(name: str, kept: Any, namespace: dict[str, Any], *, bound: bool
                  ) -> str | None:
    """The refusal of None of parameter ``name`` declared ``kept`` whose default is not
    None (:func:`entry_checks`): :data:`SWITCH` for a ``bool`` no binding declares, the
    type's words where the annotation does not admit None, else None."""
    if kept in ("bool", bool) and not bound:
        return SWITCH
    if _admits_none(kept, namespace) is False:
        return str(_expected(name, kept, None))
    return None


def _is_constructor(function: Callable[..., Any]) -> bool:
    """Whether ``function`` makes an object (a record's or a class's ``__init__``, a
    ``__new__``): its parameters are the object's fields, declared as the object keeps
    them (a column of :class:`~irscale.core.strings.Strings`, NaN for an undefined value,
    an empty run's empty arrays)."""
    return is_record_init(function) or getattr(function, "__name__", "") in ("__init__",
                                                                            "__new__")


def _coerced(annotation: Any, namespace: dict[str, Any]) -> bool:
    """Whether a record's field is declared as a class that makes its values from what it
    is given (a class method ``of``: :meth:`irscale.core.strings.Strings.of` takes lists,
    arrays, Arrow columns): the field's annotation declares what the record keeps, and the
    class judges what it is given."""
    import ast

    try:
        node = _parsed(annotation) if isinstance(annotation, str) else None
    except SyntaxError:
        return False
    if not isinstance(node, ast.Name):
        return False
    target = _alias(node.id, namespace)
    return isinstance(target, type) and isinstance(vars(target).get("of"), classmethod)


def _annotated_domain(annotation: Any, namespace: dict[str, Any]) -> Any:
    """The domain an annotation carries (``Annotated[str | Iterable[str], MEASURE_NAMES]``,
    named by an alias such as :data:`irscale.measures.name_hints.MeasureNames`): an object with
    a ``check(value, name)``, consulted on every call (:func:`check_entry`); None if it
    carries none."""
    import ast
    import typing

    if not isinstance(annotation, str):  # an object (a ``__signature__``'s)
        return next((item for item in getattr(annotation, "__metadata__", ())
                     if callable(getattr(item, "check", None))), None)
    try:
        node = _parsed(annotation)
    except SyntaxError:
        return None
    # the alias alone, or with None (``MeasureNames | None``): in a union with another type
    # (``Format | Literal["trec"]``), the other may take what the domain does not
    node = _without_none(node)[0]
    if not isinstance(node, ast.Name):
        return None
    target = _alias(node.id, namespace)
    if typing.get_origin(target) is not typing.Annotated:
        return None
    return next((item for item in target.__metadata__
                 if callable(getattr(item, "check", None))), None)


def check_entry(function: Callable[..., Any],
                checks: tuple[tuple[int, str, Any, str | None, Any], ...],
                args: tuple[Any, ...], kwargs: dict[str, Any]) -> IrscaleError | None:
    """The error naming the first argument of the call that does not fit its parameter's
    declared type (:func:`entry_checks`), judged on entry, before the body runs; None when
    every argument fits. A value given to a parameter a binding declares with a domain is
    refused in the domain's words where the domain refuses it (its own message), else as
    not of the declared type; then an integer beyond the 64 bits of numpy's and the
    engine's integers, then an empty container given for a parameter that declares data
    and has no default, or None (the call has nothing to work on; a parameter whose default
    is empty, ``exclude=()``, takes an empty one)."""
    if not checks:
        return None
    namespace = declared_types(function, args)[1]
    constructor = _is_constructor(function)
    for index, name, annotation, refuse, domain in checks:
        value = args[index] if 0 <= index < len(args) else kwargs.get(name, _MISSING)
        if value is _MISSING:
            continue
        if getattr(domain, "annotated", False):  # the annotation's own domain decides
            refused = _domain_refusal(domain, value, name)
            if refused is not None:
                if name not in str(refused):  # (``format must be``: of ``fmt``)
                    refused.args = (f"{name}: {refused.args[0]}", *refused.args[1:])
                    refused.param = name  # type: ignore[attr-defined]
                raise refused
            continue
        if refuse == SWITCH:
            if type(value) is not bool:
                from .params import Switch

                Switch().check(value, name)
            continue
        if value is None:
            if refuse:
                return ParameterError(refuse, param=name)
            continue
        if callable(getattr(domain, "check", None)):  # bound: its binding judges it
            continue  # (in its words; a domain that takes any text, its declared type)
        # (a field of an object may hold NaN: a result's undefined value)
        if _fits(_number(value) if constructor else value, annotation, namespace) is False:
            refused = _domain_refusal(domain, value, name)
            if refused is not None:
                return refused
            error = _expected(name, annotation, value, namespace)
            if isinstance(value, (list, tuple)) and \
                    any(other == f"{name}s" for _, other, _, _, _ in checks):
                error.args = (f"{error.args[0]}; several go in {name}s=[...]",)
            return error
    return _beyond(function, args, kwargs, checks)


def _domain_refusal(domain: Any, value: Any, name: str) -> IrscaleError | None:
    """The refusal of ``value`` in the words of the ``domain`` declared for parameter
    ``name`` (its irscale error: a :class:`~irscale.errors.ParameterError`, a
    :class:`~irscale.errors.MeasureError`), None if it has none or takes the value (or
    cannot judge it: the declared type then says why)."""
    check = getattr(domain, "check", None)
    if check is None:
        return None
    try:
        check(value, name)
    except IrscaleError as error:
        return error
    except Exception:  # (a domain that cannot judge it)
        return None
    return None


def _beyond(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
            checks: tuple[tuple[int, str, Any, str | None, Any], ...]
            ) -> IrscaleError | None:
    """An integer beyond 64 bits given for any parameter, then an empty container given
    for a parameter that declares data and has no default, or None (:func:`check_entry`);
    a parameter a binding's domain judges is left to it, but for an integer domain without
    an upper bound (``n`` of a power analysis: numpy's integers end at 64 bits)."""
    from .binding import arity_of_call

    found = arity_of_call(function, args)
    positional = found.positional if found is not None else ()
    given = [*((positional[i] if i < len(positional) else "args", value)
               for i, value in enumerate(args)), *kwargs.items()]
    domains = {name: domain for _, name, _, _, domain in checks if domain is not None}
    huge = _beyond_64_bits(given, domains)
    if huge is not None:
        return huge
    defaults = found.defaults if found is not None else {}
    required = set() if _is_constructor(function) else {  # (a field may be empty: a run's)
        name for _, name, annotation, _, _ in checks
        if defaults.get(name) is None and _is_container(annotation, {})}
    for index, name, _, _, _ in checks:
        if name not in required or name in domains:
            continue
        value = args[index] if 0 <= index < len(args) else kwargs.get(name, _MISSING)
        if value is not _MISSING and _is_empty(value):
            return ParameterError(f"{name}: got an empty {type(value).__name__} (no data)",
                                  param=name)
    return None


def _beyond_64_bits(given: list[tuple[str, Any]], domains: dict[str, Any]
                    ) -> ParameterError | None:
    """The error of the first integer of ``given`` (name, value) beyond 64 bits whose
    parameter no domain bounds (a domain with an upper bound refuses it in its words;
    one without, ``n`` of a power analysis, takes it, but numpy's integers end at 64
    bits), or None."""
    from .params import Integers

    for name, value in given:
        domain = domains.get(name)
        if type(value) is int and not -_INT64 <= value < _INT64 and \
                (domain is None or (isinstance(domain, Integers) and domain.high is None)):
            return ParameterError(f"{name}: {shorten(str(value), 80)} is beyond a 64-bit "
                                  "integer", param=name)
    return None


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
    """Whether a binding's ``domain`` refuses None in its own words (its ``check`` raises
    an irscale error; a raw exception is no refusal: the type hint's refuses it)."""
    check = getattr(domain, "check", None)
    if check is None:
        return False
    try:
        check(None, "")
    except IrscaleError:
        return True
    except Exception:
        return False
    return False


def _expected(name: str, annotation: Any, value: Any,
              namespace: dict[str, Any] | None = None) -> ParameterError:
    """``name: expected <annotation>, got <value>``: ``value`` does not fit the declared
    type of parameter ``name``; for an alias of a ``Literal`` (``Alternative``), the
    values it takes (``alternative must be one of ['two-sided', 'greater', 'less'], got
    'bogus'``)."""
    choices = _literal_choices(annotation, namespace or {})
    if choices is not None:
        return ParameterError(f"{name} must be one of {choices}, got {shown(value)}",
                              param=name)
    members = _members(annotation, namespace or {})
    return ParameterError(f"{name}: expected {_text(annotation)}{members}, got "
                          f"{_what(value)}", param=name)


def _members(annotation: Any, namespace: dict[str, Any]) -> str:
    """`` (A | B | C)``: the classes an alias of a union stands for (``Model``: the
    simulation's models), so that the message names what may be given; else nothing."""
    import typing

    if not (isinstance(annotation, str) and annotation.isidentifier()):
        return ""
    target = _alias(annotation, namespace)
    if not (typing.get_origin(target) is typing.Union or
            _is_union_type(typing.get_origin(target)) or _is_union_type(type(target))):
        return ""
    return f" ({' | '.join(_text(member) for member in typing.get_args(target))})"


def _literal_choices(annotation: Any, namespace: dict[str, Any]) -> list[Any] | None:
    """The values a ``Literal`` takes where ``annotation`` is one, an alias of one
    (``DuplicatePolicy``, also one a module imports for type checkers only), or either
    with None (``MeanInterval | None``: None last); None otherwise."""
    import ast
    import typing

    if not isinstance(annotation, str):
        literal = annotation
        optional = False
    else:
        try:
            node = _parsed(annotation)
        except SyntaxError:
            return None
        node, optional = _without_none(node)
        if isinstance(node, ast.Subscript) and \
                _resolve(node.value, namespace) is typing.Literal:  # (written out)
            elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return [*(ast.literal_eval(element) for element in elements),
                    *((None,) if optional else ())]
        if not isinstance(node, ast.Name):
            return None
        literal = _alias(node.id, namespace)
    if typing.get_origin(literal) is not typing.Literal:
        return None
    return [*typing.get_args(literal), *((None,) if optional else ())]


def _text(annotation: Any) -> str:
    """An annotation as its source writes it (``str | None``, ``Literal[9, 10]``)."""
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def _what(value: Any) -> str:
    """``'abc' (str)``, ``None``, ``an empty DataFrame``, ``DataFrame of shape (3, 2)``."""
    if value is None:
        return "None"
    kind = type(value).__name__
    if isinstance(value, (str, bytes, numbers.Number)):
        return f"{shorten(shown(value), 80)} ({kind})"  # (numpy's scalars as Python's)
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
    if isinstance(annotation, str):  # (the text of compiled source: it parses)
        return _fits_node(value, _parsed(annotation), namespace)
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
        return any(isinstance(a, ast.Constant) and _is_literal(value, a.value)
                   for a in arguments)
    return _fits_generic(value, origin, [
        functools.partial(_fits_node, node=a, namespace=namespace) for a in arguments
        if not (isinstance(a, ast.Constant) and a.value is Ellipsis)])


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
        if origin is typing.Annotated:  # the type it annotates (its domain: check_entry)
            return _fits_object(value, arguments[0], namespace)
        if origin is typing.Literal:
            return any(_is_literal(value, a) for a in arguments)
        if origin is typing.Union or _is_union_type(origin):
            return _any([_fits_object(value, a, namespace) for a in arguments])
        return _fits_generic(value, origin, [
            functools.partial(_fits_object, target=a, namespace=namespace) for a in arguments
            if a is not Ellipsis])
    if isinstance(target, type):
        return _fits_class(value, target)
    return _UNKNOWN


def _is_literal(value: Any, choice: Any) -> bool:
    """Whether ``value`` is the ``Literal`` value ``choice``: of its type and equal, a
    text in any case (irscale reads its choices so: ``"ERR"`` is ``"err"``)."""
    if isinstance(value, str) and isinstance(choice, str):
        return value.lower() == choice.lower()
    return type(value) is type(choice) and value == choice


def _is_protocol(target: type) -> bool:
    """Whether ``target`` is a protocol: a structure, which a value's class need not
    declare; parametrised (numpy's ``ArrayLike`` is a union of such, nested sequences of
    any depth), it is not judged (a plain one is judged by ``isinstance`` where it is
    runtime-checkable: :func:`_fits_class`)."""
    return bool(getattr(target, "_is_protocol", False))


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
    if target.__name__ == "ndarray" and target.__module__ == "numpy" and \
            not isinstance(value, target):
        return _array_like(value)
    try:
        return isinstance(value, target)
    except TypeError:
        return True


def _array_like(value: Any) -> bool:
    """Whether numpy makes an array of numbers of ``value``, where an ``np.ndarray`` is
    declared: an object that gives its array (a frame: its values are judged where it is
    read), or a list or tuple of numbers, or of such lists (the scalars of each class judged
    by one of them, :func:`_fits_items`)."""
    if hasattr(value, "__array__"):
        return True
    if not isinstance(value, (list, tuple)):
        return False
    return _fits_items(list(value[:_ELEMENTS]), lambda item: isinstance(
        item, numbers.Number) or _array_like(item)) is not False


def _fits_generic(value: Any, origin: Any, elements: list[Callable[[Any], bool | None]]
                  ) -> bool | None:
    """A parametrised container (``Sequence[float]``, ``Mapping[str, int]``,
    ``tuple[str, ...]``, ``Callable[..., T]``)."""
    import typing

    if origin in (collections.abc.Callable, typing.Callable):
        return callable(value)
    if isinstance(origin, type) and origin is type:
        return isinstance(value, type)
    if not isinstance(origin, type) or _is_protocol(origin):
        return _UNKNOWN
    if isinstance(value, str) and origin is not str and not issubclass(origin, str) and \
            issubclass(origin, (collections.abc.Iterable,)) and not _any_items(elements):
        return False  # a name is not a collection of names (nor of numbers)
    if isinstance(value, list) and origin is tuple and len(elements) <= 1:
        origin = list  # a homogeneous tuple declared: a list of its elements is taken
    if not _isinstance_generic(value, origin):
        return False
    return _fits_elements(value, origin, elements)


def _any_items(elements: list[Callable[[Any], bool | None]]) -> bool:
    """Whether a container's declared elements are any hashable items
    (``Sequence[Hashable]``: a ranking of letters may be given as ``"ABC"``)."""
    targets = [getattr(element, "keywords", {}) for element in elements]
    targets = [found.get("target", getattr(found.get("node"), "id", None))
               for found in targets]  # (an object, or the name an annotation's text writes)
    return bool(targets) and all(target in _ANY_ITEM for target in targets)


#: The element types that any item fits (as objects or as the source writes them).
_ANY_ITEM = (collections.abc.Hashable, object, "Hashable", "object", "Any")


def _fits_elements(value: Any, origin: type, elements: list[Callable[[Any], bool | None]]
                   ) -> bool | None:
    """The elements of a container that is an ``origin``: a mapping's first
    :data:`_ELEMENTS` keys and values, a list's or tuple's first :data:`_ELEMENTS` items
    (against the first element type); any other container (an array) is not looked
    into. Elements of one scalar class are judged by one of them (:func:`_fits_items`)."""
    if issubclass(origin, collections.abc.Mapping):
        if len(elements) != 2:
            return True
        items = list(itertools.islice(value.items(), _ELEMENTS))
        return _all([_fits_items([key for key, _ in items], elements[0]),
                     _fits_items([item for _, item in items], elements[1])])
    if isinstance(value, tuple) and issubclass(origin, tuple) and len(elements) > 1:
        return _all([fits(_number(item)) for fits, item in zip(elements, value, strict=False)]
                    ) if len(value) == len(elements) else False  # tuple[str, float]
    if isinstance(value, (list, tuple)) and elements:
        return _fits_items(list(value[:_ELEMENTS]), elements[0])
    return True


def _fits_items(items: list[Any], fits: Callable[[Any], bool | None]) -> bool | None:
    """Whether every one of ``items`` fits: a scalar's type decides for every element of
    its class (NaN inside data is a value, :func:`_number`), so one of each class is
    judged; a container (a mapping of a mapping's values) is judged each, its elements
    too, at most :data:`_ELEMENTS` in all."""
    kinds = {type(item): item for item in items}
    results = []
    for kind, item in kinds.items():
        if kind in _SCALARS:
            results.append(fits(_number(item)))
        else:
            results += [fits(each) for each in items[:max(1, _ELEMENTS // max(1, len(items)))]
                        if type(each) is kind]
    return _all(results)


#: The classes whose type alone decides whether an element fits (:func:`_fits_items`).
_SCALARS = frozenset({str, int, float, bool, bytes, type(None)})


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

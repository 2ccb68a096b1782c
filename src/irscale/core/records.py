"""Frozen records: the value types of declarations, made without cost at import.

A declaration (a parameter and its domain, a command-line rule, a measure family, an
evaluation context) is a small frozen value created when its module is imported, so on
every command's start-up path. :func:`dataclasses.dataclass` writes the methods of each
class as source text and compiles it (with :mod:`inspect` and :mod:`dataclasses` imported
first): about 3.7 million instructions per class of three fields with CPython 3.11, and 72
million for the two imports, where the interpreter's whole start-up is 38 million. A
:func:`record` is the same value type built from shared methods that read the class's
field table, so declaring one costs a dictionary walk:

* the fields are the annotated class attributes, in order, a base record's first
  (``ClassVar`` annotations are not fields); a class attribute is a field's default, and
  :func:`field` gives a ``default_factory``, ``init=False``, ``repr=False`` or
  ``compare=False`` as :func:`dataclasses.field` does;
* instances are frozen (assigning a field raises :class:`FrozenRecordError`, an
  ``AttributeError`` as :class:`dataclasses.FrozenInstanceError`; ``__post_init__`` and
  hand-written ``__init__`` set fields with ``object.__setattr__``), compare equal when of
  the same class with equal fields and hash by those fields (``eq=False``: by identity),
  and print as ``Name(field=value, ...)``; methods written in the class are kept;
* :func:`fields` and :func:`replace` are those of :mod:`dataclasses` for records.

Type checkers read :func:`record` as a dataclass maker (:pep:`681`). The results of
analyses, made after the work rather than at import, stay dataclasses.
"""

from __future__ import annotations

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from typing import Any, TypeVar, overload

    from typing_extensions import dataclass_transform

    T = TypeVar("T")
else:
    def dataclass_transform(**_: object):
        return lambda target: target

__all__ = ["FrozenRecordError", "field", "fields", "is_record", "is_record_init", "record",
           "replace"]


class FrozenRecordError(AttributeError):
    """A field of a frozen record was assigned or deleted."""


class _Missing:
    """No default (the marker of :class:`Field`)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Field:
    """A field of a record: its ``name``, ``default`` or ``default_factory`` (or
    :data:`MISSING`), and whether it is an argument of ``__init__`` (``init``), shown by
    ``repr`` and compared and hashed (``compare``)."""

    __slots__ = ("compare", "default", "default_factory", "init", "name", "repr")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING,
                 init: bool = True, repr: bool = True, compare: bool = True) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.compare = init, repr, compare

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r}, default={self.default!r}, "
                f"default_factory={self.default_factory!r}, init={self.init}, "
                f"repr={self.repr}, compare={self.compare})")


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True,
          repr: bool = True, compare: bool = True) -> Any:
    """A field with a ``default`` or ``default_factory`` (a function of no argument called
    for each instance), left out of ``__init__`` (``init=False``: then it needs a default),
    of ``repr`` or of comparisons and hashes (:func:`dataclasses.field`'s meanings)."""
    return Field(default, default_factory, init, repr, compare)


def _is_class_var(annotation: object) -> bool:
    """Whether an annotation (a string under ``from __future__ import annotations``) is a
    ``ClassVar``."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return str(text).replace("typing.", "").startswith("ClassVar")


def _fields_of(cls: type) -> tuple[Field, ...]:
    """The fields of ``cls``: its record bases' (in method resolution order, the farthest
    first), then its own annotated attributes; each default is set on the class as
    :mod:`dataclasses` does (a ``default_factory`` field leaves no class attribute)."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for inherited in base.__dict__.get("__record_fields__", ()):
            found[inherited.name] = inherited
    # (the class's own annotations, as inspect.get_annotations reads them: inspect is one
    # of the imports this module saves)
    own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
    for name, annotation in own.items():
        if _is_class_var(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        made = value if isinstance(value, Field) else Field(default=value)
        made.name = name
        if made.default is MISSING:
            if isinstance(value, Field):
                delattr(cls, name)
        else:
            setattr(cls, name, made.default)
        found[name] = made  # (a field written again keeps its place)
    made_fields = tuple(found.values())
    seen_default = False
    for item in made_fields:
        if not item.init:
            continue
        if item.default is not MISSING or item.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {item.name!r} follows default argument")
    return made_fields


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    """``__init__`` of every record: its ``init`` fields by position or name, defaults
    filled in, then ``__post_init__``; the messages of Python's own signatures (worked out
    only for a call that fails: a declaration's start-up pays for the filling alone)."""
    cls = type(self)
    spec = cls.__record_init__
    if len(args) > len(spec):
        raise TypeError(f"{cls.__qualname__}.__init__() takes {len(spec) + 1} positional "
                        f"arguments but {len(args) + 1} were given")
    setter = object.__setattr__
    given = len(args)
    missing = []
    for index, item in enumerate(spec):
        name = item.name
        if index < given:
            value = args[index]
        elif name in kwargs:
            value = kwargs.pop(name)
        elif item.default is not MISSING:
            value = item.default
        elif item.default_factory is not MISSING:
            value = item.default_factory()
        else:
            missing.append(name)
            continue
        setter(self, name, value)
    if kwargs:  # a name no field has, or a field given by position too
        _refuse_keywords(cls, spec, given, kwargs)
    if missing:
        quoted = [repr(name) for name in missing]
        listed = quoted[0] if len(quoted) == 1 else " and ".join(quoted) if len(quoted) == 2 \
            else ", ".join(quoted[:-1]) + ", and " + quoted[-1]
        raise TypeError(f"{cls.__qualname__}.__init__() missing {len(missing)} required "
                        f"positional argument{'s' if len(missing) > 1 else ''}: {listed}")
    for item in cls.__record_late__:
        setter(self, item.name, item.default_factory())
    post_init = getattr(self, "__post_init__", None)
    if post_init is not None:
        post_init()


def _refuse_keywords(cls: type, spec: tuple[Field, ...], given: int,
                     kwargs: dict[str, Any]) -> None:
    """Raise Python's ``TypeError`` for the first of ``kwargs`` (in the order given) that
    names no ``init`` field of ``spec``, or one of the first ``given``, passed by position."""
    names = [item.name for item in spec]
    for name in kwargs:
        if name not in names:
            raise TypeError(f"{cls.__qualname__}.__init__() got an unexpected keyword "
                            f"argument {name!r}")
        if names.index(name) < given:
            raise TypeError(f"{cls.__qualname__}.__init__() got multiple values for "
                            f"argument {name!r}")


def is_record_init(function: object) -> bool:
    """Whether ``function`` is the ``__init__`` every record shares (its class, not the
    function, has the signature: :func:`inspect.signature` of the class)."""
    return function is _init


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, item.name) for item in type(self).__record_fields__
                 if item.compare)


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{item.name}={getattr(self, item.name)!r}"
                      for item in type(self).__record_fields__ if item.repr)
    return f"{type(self).__qualname__}({shown})"


def _setattr(self: Any, name: str, value: object) -> None:
    raise FrozenRecordError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise FrozenRecordError(f"cannot delete field {name!r}")


class _Signature:
    """The ``__signature__`` of a record class (a descriptor shared by every class), built
    from its ``__init__`` fields when :func:`inspect.signature` asks for it, as the
    signature of a dataclass's generated ``__init__`` reads: the shared ``__init__`` takes
    ``*args, **kwargs``."""

    def __get__(self, instance: object, owner: type) -> Any:
        import inspect

        parameters = [inspect.Parameter(
            item.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=inspect.Parameter.empty if item.default is MISSING and
            item.default_factory is MISSING else
            item.default if item.default is not MISSING else item.default_factory())
            for item in owner.__dict__.get("__record_init__", ())]
        return inspect.Signature(parameters)


_SIGNATURE = _Signature()


def _make(cls: type, eq: bool, init: bool) -> type:
    own_fields = _fields_of(cls)
    attributes: dict[str, Any] = {
        "__record_fields__": own_fields,
        "__record_init__": tuple(item for item in own_fields if item.init),
        # the fields left out of __init__ that a factory fills
        "__record_late__": tuple(item for item in own_fields if not item.init
                                 and item.default_factory is not MISSING),
        "__setattr__": _setattr, "__delattr__": _delattr}
    if init:
        attributes["__init__"] = _init
        attributes["__signature__"] = _SIGNATURE
    if "__repr__" not in cls.__dict__:
        attributes["__repr__"] = _repr
    if eq:
        if "__eq__" not in cls.__dict__:
            attributes["__eq__"] = _eq
        # a hash of the class's own is kept, as dataclasses does (a class that writes
        # __eq__ gets __hash__ = None from Python: not its own)
        written = cls.__dict__.get("__hash__", MISSING)
        if written is MISSING or (written is None and "__eq__" in cls.__dict__):
            attributes["__hash__"] = _hash
    for name, value in attributes.items():
        setattr(cls, name, value)
    return cls


if TYPE_CHECKING:  # pragma: no cover
    @overload
    def record(cls: type[T], /) -> type[T]: ...

    @overload
    def record(*, eq: bool = True, init: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: Any = None, /, *, eq: bool = True, init: bool = True) -> Any:
    """Make ``cls`` a frozen record (module documentation): ``@record`` as
    ``@dataclass(frozen=True)``, ``@record(eq=False)`` (identity equality and hash) and
    ``@record(init=False)`` (the class writes its own ``__init__``) as the same keywords of
    :func:`dataclasses.dataclass`."""
    if cls is None:
        return lambda target: _make(target, eq, init)
    return _make(cls, eq, init)


def is_record(value: object) -> bool:
    """Whether ``value`` is a record or a record class."""
    return hasattr(value, "__record_fields__")


def fields(value: Any) -> tuple[Field, ...]:
    """The fields of a record or record class, in order (:func:`dataclasses.fields`)."""
    try:
        return tuple(value.__record_fields__)
    except AttributeError:
        raise TypeError("must be called with a record type or instance") from None


def replace(value: T, /, **changes: Any) -> T:
    """A copy of the record ``value`` with ``changes`` (:func:`dataclasses.replace`: the
    ``init`` fields are passed to the class again, ``__post_init__`` included); a dataclass
    is handed to :func:`dataclasses.replace` (code that holds either writes one call)."""
    if not is_record(value):
        import dataclasses

        return dataclasses.replace(value, **changes)  # type: ignore[type-var]
    for item in fields(value):
        if not item.init:
            if item.name in changes:
                raise ValueError(f"field {item.name!r} is declared with init=False, it "
                                 "cannot be specified with replace()")
            continue
        changes.setdefault(item.name, getattr(value, item.name))
    return type(value)(**changes)

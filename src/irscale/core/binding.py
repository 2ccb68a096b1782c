"""Parameters bound once, at the function: arity, keywords, domains and applicability.

A public function declares its parameters where it is defined, with a :class:`Binding`
used as its decorator::

    POOL = Binding((POOL_STRATEGY, RUN_DEPTH, POOL_BUDGET, RELEVANCE, POOL_P, ...),
                   rules=(Needs((POOL_P,), on=POOL_STRATEGY, values=("rbp",)), ...))

    @POOL
    def pool(runs, strategy="depth", *, depth=None, ...): ...

One mechanism then checks every call on entry (:meth:`Binding.bind`), before the body runs:

* **arity and keywords** (:func:`bind_arguments`): too many positional arguments, a
  required one missing, one given twice, a keyword the function does not take (named with
  the nearest it takes) are a :class:`~irscale.errors.ParameterError` naming the function
  and the argument, never Python's ``TypeError`` (keywords a function hands on through
  its ``**options`` are checked against the function the call hands them to, once it has
  chosen it: :func:`forwarded_keyword_error`);
* **domains**: each declared parameter given a value other than ``None`` is checked against
  its :class:`~irscale.core.params.Param`'s domain, and the body receives the value the
  domain returns (``5.0`` as ``5``, an alias as its canonical name): no body repeats a check;
* **applicability** (:class:`~irscale.core.params.Needs`, :class:`Required`): parameters
  given where another parameter does not hold the values they apply to are refused, and a
  parameter that another's value makes necessary is asked for; a value of the parameter
  a rule depends on that cannot be compared with the rule's values (a data frame for a
  switch) is refused in its domain's words, never left to fail inside the rule.

The command line builds its rules from the same declarations
(:func:`irscale.cli.rules.binding_rules`, through ``add_command(..., binding=...)``), each
message spelling the parameters its own way (``p=`` and ``strategy=``; ``--p`` and
``--strategy``): the API and the command line refuse the same values with one rule.

Declarations are data: a :class:`Binding` is made where its parameters are declared (a
package's ``params.py``, which imports nothing numerical), so the command line reads it
before numpy is imported; the function's module applies it. The arity of a function is
read from its code object (no :mod:`inspect`, whose import costs more than a small
evaluation), once per function.

This is scikit-learn's ``validate_params`` contract (parameters validated once at the
public edge, errors naming the parameter) with the declarations the command line shares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ..errors import ParameterError
from .params import Needs, Param
from .records import is_record_init, record

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, ClassVar, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])

#: The code flags of ``*args`` and ``**kwargs`` (CPython's ``CO_VARARGS``, ``CO_VARKEYWORDS``).
_VARARGS, _VARKEYWORDS = 0x04, 0x08
#: No default: the argument is required.
_REQUIRED = object()


class Arity:
    """What a Python function takes, read from its code object: the names it takes by
    position (``positional``; ``self``/``cls`` of a method included), those of them that
    cannot be given by keyword (``positional_only``), its keyword-only names, whether it
    takes ``*args`` and ``**kwargs``, and the defaults by name."""

    __slots__ = ("defaults", "extra", "keyword_only", "positional", "positional_only",
                 "varargs", "varkw")

    def __init__(self, function: Callable[..., Any]) -> None:
        code = function.__code__
        names = code.co_varnames
        count, kwcount = code.co_argcount, code.co_kwonlyargcount
        self.positional: tuple[str, ...] = names[:count]
        self.positional_only = frozenset(names[:code.co_posonlyargcount])
        self.keyword_only: tuple[str, ...] = names[count:count + kwcount]
        self.varargs = bool(code.co_flags & _VARARGS)
        self.varkw = bool(code.co_flags & _VARKEYWORDS)
        #: The names of ``*args`` and ``**kwargs``, those it takes.
        self.extra = names[count + kwcount:count + kwcount + self.varargs + self.varkw]
        values = function.__defaults__ or ()
        defaults: dict[str, object] = dict(zip(self.positional[count - len(values):], values,
                                               strict=True))
        defaults.update(function.__kwdefaults__ or {})
        self.defaults = defaults

    @classmethod
    def of_record(cls, kind: type) -> Arity:
        """The arity of the constructor of a record class (:mod:`irscale.core.records`:
        every record shares one ``__init__``, its class's fields are its parameters)."""
        from .records import MISSING

        made = object.__new__(cls)
        spec = kind.__record_init__  # type: ignore[attr-defined]
        made.positional = ("self", *(item.name for item in spec))
        made.positional_only = frozenset(("self",))
        made.keyword_only, made.varargs, made.varkw, made.extra = (), False, False, ()
        made.defaults = {item.name: item.default for item in spec
                         if item.default is not MISSING or item.default_factory is not MISSING}
        return made

    @property
    def keywords(self) -> list[str]:
        """The names that can be given by keyword (``self`` and ``cls`` left out)."""
        return [name for name in (*self.positional, *self.keyword_only)
                if name not in self.positional_only and name not in ("self", "cls")]


#: The arity of each function met, by function (read once).
_ARITIES: dict[Callable[..., Any], Arity] = {}


def arity(function: Callable[..., Any]) -> Arity | None:
    """The :class:`Arity` of ``function`` (the innermost of its wrappers, ``__wrapped__``),
    or None where it is not a Python function (a builtin, a class)."""
    inner = function
    while hasattr(inner, "__wrapped__"):
        inner = inner.__wrapped__
    found = _ARITIES.get(inner)
    if found is None:
        if not hasattr(inner, "__code__"):
            return None
        found = _ARITIES[inner] = Arity(inner)
    return found


def arity_of_call(function: Any, args: tuple[Any, ...] = ()) -> Arity | None:
    """What ``function`` takes as called with ``args``: a record's constructor (the
    ``__init__`` records share, :func:`irscale.core.records.is_record_init`), the fields of
    the class of ``args[0]`` (the object being made); a class, its constructor's; else
    :func:`arity`. None where it cannot be read."""
    if is_record_init(function) and args and hasattr(type(args[0]), "__record_init__"):
        return Arity.of_record(type(args[0]))
    if isinstance(function, type):
        if hasattr(function, "__record_init__"):
            return Arity.of_record(function)
        init: Any = getattr(function, "__init__", None)
        return arity(init) if callable(init) else None
    return arity(function) if callable(function) else None


def keyword_error(owner: str, given: Iterable[str], taken: Sequence[str], note: str = ""
                  ) -> ParameterError | None:
    """The error of the keywords of ``given`` that ``owner`` (a function's name, ``the
    paired t-test``) does not take, or None: each named with the nearest keyword taken
    (:func:`difflib.get_close_matches`), then the keywords taken (``note`` after them). A
    public function that hands its ``**options`` to ``owner`` makes it its own, with its
    own keywords besides (:func:`forwarded_keyword_error`)."""
    unknown = [name for name in given if name not in taken]
    if not unknown:
        return None
    import difflib

    named = []
    for name in unknown:
        near = difflib.get_close_matches(name, taken, n=1)
        named.append(f"{name} (did you mean {near[0]}?)" if near else name)
    error = ParameterError(f"{owner}: unknown keyword argument(s) {', '.join(named)}; it "
                           f"takes {', '.join(taken) or 'none'}{note}")
    error.keywords = (unknown, list(taken), note)  # type: ignore[attr-defined]
    return error


#: Python's error for a keyword a function does not take (or is given twice), raised where
#: the function is called: the function's qualified name and the keyword.
_KEYWORD_ERROR = (r"^([\w.]+)\(\) got (?:an unexpected|multiple values for) "
                  r"keyword argument '(\w+)'$")


def call_name(function: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """The name a caller gave ``function``: its class's for a constructor (the class a
    base's ``__new__`` or ``__init__`` makes), else its own."""
    name = getattr(function, "__name__", "the function")
    if name == "__new__" and args and isinstance(args[0], type):
        return str(args[0].__name__)
    if (name == "__init__" or is_record_init(function)) and args:
        return type(args[0]).__name__
    return str(name)


def qualified_name(function: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """How arity errors name ``function``: its class's name for a constructor, the class
    and method (``ScoreMatrix.from_frame``) for a method, else its own name."""
    name = call_name(function, args)
    qualified = getattr(function, "__qualname__", name)
    if name != getattr(function, "__name__", None) or "<locals>" in qualified:
        return name
    return str(qualified)


def forwarded_keyword_error(function: Callable[..., Any], args: tuple[Any, ...],
                            kwargs: Mapping[str, Any], error: BaseException
                            ) -> ParameterError | None:
    """The error of keywords that ``function`` hands on through its ``**options`` and the
    function it hands them to does not take, or None. ``error`` is what that function
    raised: Python's ``TypeError`` where it is called (a dataclass of options: its keywords
    read from it, :func:`_callee`), or the :func:`keyword_error` of one that reads its
    options itself (a test's, a correlation's). The message names them all, with the
    keywords taken, the function's and that one's. This is the arity check of
    :func:`bind_arguments` for a function whose keywords are another's: which one is known
    only once the call has chosen it (a test named by ``test=``), never on entry."""
    import re

    found = arity_of_call(function, args)
    if found is None or not found.varkw:
        return None
    unknown: Sequence[str]
    inner: Sequence[str]
    match = re.match(_KEYWORD_ERROR, str(error)) if isinstance(error, TypeError) else None
    if match is not None:
        callee = arity_of_call(_callee(error, match[1]))
        unknown, inner, note = [match[2]], [] if callee is None else callee.keywords, ""
    else:
        unknown, inner, note = getattr(error, "keywords", ((), (), ""))
    if not unknown or any(name not in kwargs for name in unknown):
        return None  # not the caller's keywords: the function's own fault
    taken = found.keywords
    taken += [name for name in inner if name not in taken and name not in unknown]
    return keyword_error(call_name(function, args), unknown, taken, note)


def _callee(error: BaseException, qualname: str) -> Any:
    """The function called where ``error`` was raised, found by its qualified name
    (``TrecEvalOptions.__init__``) among the names of the innermost frame of its traceback
    that has it: the caller's (a function that refuses its arguments has no frame yet, or
    one of its own when it checks them itself, as a record's shared ``__init__`` does), or
    None."""
    import builtins

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

def _names(names: Sequence[str], last: str = "and") -> str:
    said = list(names)
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} {last} {said[-1]}"


def bind_arguments(function: Callable[..., Any], args: tuple[Any, ...],
                   kwargs: Mapping[str, Any], *, owner: str | None = None,
                   found: Arity | None = None) -> dict[str, Any] | None:
    """The arguments of a call of ``function`` by name, defaults left out, or a
    :class:`~irscale.errors.ParameterError` naming ``owner`` (default: the function's name)
    and what is wrong: too many positional arguments, a required one missing, one given by
    position and by keyword, a keyword it does not take. ``found``: its arity where the
    function does not tell it (a record's constructor, :meth:`Arity.of_record`). A keyword
    that ``**kwargs`` takes is bound by its name too (a declared option of the function's
    ``**options``). None where the function's arity cannot be read (:func:`arity`)."""
    found = found or arity(function)
    if found is None:
        return None
    name = owner or str(getattr(function, "__name__", "the function"))
    _check_positional(found, len(args), name)
    bound: dict[str, Any] = dict(zip(found.positional, args, strict=False))
    unknown, twice = _bind_keywords(found, kwargs, bound)
    if unknown:
        error = keyword_error(name, unknown, found.keywords)
        if error is not None:
            raise error
    if twice:
        raise ParameterError(f"{name}: {_names(twice)} given twice (by position and by "
                             "keyword)", param=twice[0])
    missing = [p for p in (*found.positional, *found.keyword_only)
               if p not in bound and p not in found.defaults and p not in ("self", "cls")]
    if missing:
        raise ParameterError(f"{name}: missing {_names(missing)} (required)",
                             param=missing[0])
    return bound


def _check_positional(found: Arity, given: int, name: str) -> None:
    """Refuse more positional arguments (``given``) than ``found`` takes, naming ``name``."""
    positional = found.positional
    if given <= len(positional) or found.varargs:
        return
    shown = [p for p in positional if p not in ("self", "cls")]
    most = len(shown)
    takes = "no positional argument" if most == 0 else \
        f"at most {most} positional argument{'s' if most > 1 else ''} ({_names(shown)})"
    own = len(positional) - most  # self or cls, given by the method's call
    raise ParameterError(f"{name} takes {takes}, got {given - own}: give the others by "
                         "keyword")


def _bind_keywords(found: Arity, kwargs: Mapping[str, Any], bound: dict[str, Any]
                   ) -> tuple[list[str], list[str]]:
    """``kwargs`` into ``bound`` (the positional arguments by name); the keywords
    ``found`` does not take, and those given by position too."""
    unknown, twice = [], []
    for key, value in kwargs.items():
        if key in found.positional_only or key not in found.keywords or key in ("self", "cls"):
            if not found.varkw:
                unknown.append(key)
            elif key not in bound:  # taken by ``**options``: bound by its name too
                bound[key] = value
        elif key in bound:
            twice.append(key)
        else:
            bound[key] = value
    return unknown, twice


@record
class Required:
    """``param`` is needed where ``on`` takes one of ``values`` (``depth`` for depth-k
    pooling), or with ``values`` None, wherever ``on`` is given (the report's
    ``plan_width`` with ``plan_pilot``): refused without it, in the function's and the
    command line's words."""

    param: Param
    on: Param
    values: tuple[object, ...] | None

    def message(self, needed: str, chosen: str) -> str:
        """The refusal: ``chosen`` (``on`` and its value, spelt: ``strategy='depth'``,
        ``--strategy depth``) needs ``needed`` (spelt)."""
        return f"{chosen} needs {needed}"


@record
class Excludes:
    """``params`` apply only where ``on`` is not given (``kernel_fit`` learns the
    length-scale that ``length_scale`` fixes), or with ``values``, where it holds none of
    them (an ANOVA's ``transform`` and a rank model, which ranks the scores itself):
    refused elsewhere, ``why`` saying why."""

    params: tuple[Param, ...]
    on: Param
    why: str
    values: tuple[object, ...] | None = None

    def message(self, options: str, on: str, applies: str) -> str:
        """The refusal of ``options`` (spelt) given with ``on`` (spelt, with its value
        where the rule names ``values``)."""
        return f"{options} {applies} without {on} ({self.why})"

    def holds(self, value: object, default: object = None) -> bool:
        """Whether ``value`` of ``on`` excludes the parameters: given (not None, not its
        ``default``), or with ``values``, one of them."""
        return applies(self.values, value, default)


@record
class Either:
    """``params`` apply where one of ``cases`` holds, each case one condition or several
    that hold together (a :class:`~irscale.core.params.Needs` without parameters: its
    ``on`` given, or holding one of its ``values``): the seed of a report applies to each
    section that draws (discriminative power, the collections' bootstrap, the label draws
    of the topic design, judge noise). ``what``: those cases, in words."""

    params: tuple[Param, ...]
    cases: tuple[tuple[Needs, ...], ...]
    what: str

    @property
    def on(self) -> Param:
        """The parameter of the first condition (every rule names one it depends on)."""
        return self.cases[0][0].on  # type: ignore[return-value]

    def depends(self) -> tuple[Param, ...]:
        """Every parameter the cases depend on, once, in order."""
        found: dict[str, Param] = {}
        for case in self.cases:
            for need in case:
                if need.on is not None:
                    found.setdefault(need.on.name, need.on)
        return tuple(found.values())

    def message(self, options: str, cases: Sequence[str], applies: str) -> str:
        """The refusal of ``options`` (spelt) where none of ``cases`` (each spelt) holds."""
        return f"{options} {applies} to {self.what} ({_names(list(cases), 'or')})"


@record
class Narrows:
    """``param`` lies in ``domain``, narrower than its own, where ``on`` takes one of
    ``values`` (``length`` at most 16 for ``method='optimized'``, which enumerates the
    2^length lists): a domain that depends on another value, checked after the domains,
    ``why`` saying why, in the function's and the command line's words."""

    param: Param
    domain: Any
    on: Param
    values: tuple[object, ...]
    why: str

    def label(self, param: str, chosen: str) -> str:
        """How a message names the parameter (``param`` spelt) where ``chosen`` (``on``
        and its value, spelt) narrows it: ``length with method='optimized' (why)``."""
        return f"{param} with {chosen} ({self.why})"

    def refusal(self, value: object, param: str, chosen: str) -> str | None:
        """The message refusing ``value`` outside ``domain``, or None where it lies in it
        (None given: the function's default, worked out where it is used)."""
        if value is None:
            return None
        try:
            self.domain.check(value, self.label(param, chosen))
        except ParameterError as error:
            return str(error)
        return None


@record
class SizedBy:
    """``param``'s default, where the call gives none, read from the call's other
    arguments: ``size(arguments)`` (the arguments by name, as the domains returned them),
    the rows of the matrix ``data`` for ``CopulaModel.fit``'s ``topics``. The value is
    checked against ``param``'s domain, the message naming it as ``param`` (``what``),
    and the function receives it as if given: a bound that depends on the data, declared
    where the parameter is, no body check. ``size`` reads the data only where ``param``
    is not given (its module may import the numerical modules it needs when called). The
    command line has no rule of it: the value exists once the data is read."""

    param: Param
    size: Callable[[Mapping[str, Any]], object]
    what: str

    #: A default read from the data depends on no other parameter (the command line
    #: derives no rule of it: :func:`irscale.cli.rules.binding_rules`).
    on: ClassVar[None] = None

    def value(self, arguments: Mapping[str, Any]) -> object:
        """``param``'s value read from ``arguments``, checked against its domain."""
        found = self.size(arguments)
        check = getattr(self.param.domain, "check", None)
        if check is None:
            return found
        try:
            return check(found, f"{self.param.name} ({self.what})")
        except ParameterError as error:
            error.param = self.param.name
            raise


#: What a binding's rules can be.
Rule = Needs | Required | Excludes | Either | Narrows | SizedBy


@record
class Derived:
    """A value the rules read, ``value(arguments)`` of the call's arguments by name
    (defaults included), never given: the kind of a measure, the procedures of a
    topic-splitting study. ``param``, a keyword of the function, is worked out on entry
    after the domains, before the rules, and passed as if given; a caller who gives it is
    refused as for a keyword not taken. The command line derives it ahead of its rules."""

    param: Param
    value: Callable[[Mapping[str, Any]], object]


def _label(param: Param) -> str:
    """How a message names ``param``: its label where the label names its Python name too
    (``relevance level (-l, relevance_level)``, as every function and trec_eval's options
    name it), else its Python name."""
    label = param.label
    return label if label is not None and param.name in label else param.name


def is_given(value: object, default: object) -> bool:
    """Whether a value counts as given: not None and not the default (a value that cannot
    be compared with it, a data frame, is given); where the default is None, an empty
    mapping is none given (``labels={}``: no label set)."""
    if value is None or value is default:
        return False
    if default is None and isinstance(value, Mapping) and not value:
        return False
    try:
        return not bool(value == default)
    except (TypeError, ValueError):
        return True


@record(eq=False)
class Binding:
    """The parameters of a public function, declared once and checked on every call by
    one mechanism (module documentation): ``params``, whose domains are checked;
    ``rules``, when some of them apply (:class:`~irscale.core.params.Needs` with ``on``,
    :class:`Excludes`) or are needed (:class:`Required`); ``takes``, parameters the
    function takes whose domain cannot be declared (a seed that also takes a numpy
    Generator), named so that a :class:`Choice` knows the function takes them;
    ``derived``, values the rules depend on that the call's other arguments give
    (:class:`Derived`)."""

    params: tuple[Param, ...]
    rules: tuple[Rule, ...] = ()
    takes: tuple[Param, ...] = ()
    derived: tuple[Derived, ...] = ()

    def declares(self) -> dict[str, Param]:
        """Every parameter the binding names, by name: its ``params``, ``takes`` and the
        parameters its rules govern (not those they depend on)."""
        named: dict[str, Param] = {}
        for rule in self.rules:
            for param in (rule.param,) if isinstance(rule, (Required, Narrows, SizedBy)) \
                    else rule.params:
                named.setdefault(param.name, param)
        for param in (*self.params, *self.takes):
            named[param.name] = param
        return named

    def extended(self, *params: Param) -> Binding:
        """This binding with parameters a command adds to its function's, for a
        :class:`Choice` (``compare --test bootstrap-anova --model``, which chooses the
        function's ``interaction``; the level of the test that follows a function)."""
        return Binding((*self.params, *params), rules=self.rules, takes=self.takes,
                       derived=self.derived)

    def __call__(self, function: F) -> F:
        """``function`` checked on entry (its declared parameters must be its own, or
        taken by its ``**options``)."""
        import functools

        self._check_declared(function)

        @functools.wraps(function)
        def bound(*args: Any, **kwargs: Any) -> Any:
            args, kwargs = self.bind(function, args, kwargs)
            return function(*args, **kwargs)

        bound.__irscale_binding__ = self  # type: ignore[attr-defined]
        return bound  # type: ignore[return-value]

    def on_entry(self, function: F) -> F:
        """``function`` declared with this binding, which its first statement applies
        (:meth:`check_entry`) instead of a wrapper: for a function that hands its inputs
        over (:func:`irscale.evaluate` frees the runs it is given before the measures run),
        which a wrapper's frame, holding the call's arguments, would keep alive throughout.
        The command line and the tests read the binding as a wrapper's
        (:func:`binding_of`); the API's edge binds the call's arguments, which a wrapper
        would (:mod:`irscale.core.edge`)."""
        self._check_declared(function)
        function.__irscale_binding__ = self  # type: ignore[attr-defined]
        function.__irscale_on_entry__ = True  # type: ignore[attr-defined]  # (core.edge)
        return function

    def check_entry(self, function: Callable[..., Any], values: Mapping[str, Any]
                    ) -> dict[str, Any]:
        """The parameters of a call of ``function`` (declared :meth:`on_entry`), ``values``
        by name, checked as :meth:`bind` checks them (domains, then rules), each as its
        domain returns it."""
        found = arity(function)
        assert found is not None  # (on_entry: a Python function)
        return self._checked(values, found)

    def _check_declared(self, function: Callable[..., Any]) -> None:
        """Refuse a declared parameter that ``function`` does not take (nor its
        ``**options``)."""
        found = arity(function)
        taken = set() if found is None else {*found.positional, *found.keyword_only}
        strays = [] if found is not None and found.varkw else \
            [p.name for p in (*self.params, *self.takes, *(d.param for d in self.derived))
             if p.name not in taken]
        if strays:
            raise TypeError(f"{function.__qualname__} declares {strays}, which it does not "
                            "take")

    def defaults(self, found: Arity) -> dict[str, object]:
        """The defaults of a function of arity ``found``: its own, and for a parameter it
        takes by ``**options`` (trec_eval's options of :func:`irscale.evaluate`), the
        declared one (:attr:`~irscale.core.params.Param.default`)."""
        if not found.varkw:
            return found.defaults
        declared = {param.name: param.default for param in (*self.params, *self.takes)}
        return {**declared, **found.defaults}

    def bind(self, function: Callable[..., Any], args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The call's arguments checked (arity, domains, rules), as the function receives
        them: each declared parameter given a value holds the value its domain returns."""
        found = arity(function)
        derived = [item.param.name for item in self.derived]
        if found is not None and any(name in kwargs for name in derived):
            error = keyword_error(str(getattr(function, "__name__", "the function")), kwargs,
                                  [name for name in found.keywords if name not in derived])
            assert error is not None  # (a derived name is not taken)
            raise error
        bound = bind_arguments(function, args, kwargs)
        if bound is None or found is None:  # pragma: no cover - a Python function always has one
            return args, kwargs
        checked = self._checked(bound, found)
        names = found.positional[:len(args)]
        args = tuple(checked[name] for name in names) + args[len(names):]
        kwargs = {key: checked.get(key, value) for key, value in kwargs.items()}
        kwargs.update((name, checked[name]) for name in derived)
        for rule in self.rules:  # a default read from the data: given as if by keyword
            name = rule.param.name if isinstance(rule, SizedBy) else None
            if name is not None and name not in names and checked.get(name) is not None:
                kwargs[name] = checked[name]
        return args, kwargs

    def _checked(self, bound: Mapping[str, Any], found: Arity) -> dict[str, Any]:
        """The arguments ``bound`` by name (of a function of arity ``found``), each
        declared parameter's checked against its domain (as the domain returns it), the
        derived values worked out, then the rules."""
        checked = dict(bound)
        defaults = self.defaults(found)
        for param in self.params:
            check = getattr(param.domain, "check", None)
            if param.name not in bound or check is None:
                continue  # a default holds its domain (tests/test_binding.py)
            value = bound[param.name]
            if value is not None or defaults.get(param.name, _REQUIRED) is not None:
                try:
                    checked[param.name] = check(value, _label(param))
                except ParameterError as error:
                    error.param = param.name
                    raise
        for item in self.derived:
            checked[item.param.name] = item.value({**defaults, **checked})
        for rule in self.rules:
            if isinstance(rule, SizedBy) and checked.get(rule.param.name) is None:
                checked[rule.param.name] = rule.value(checked)
        self.check_rules(checked, defaults)
        return checked

    def check_rules(self, values: Mapping[str, object], defaults: Mapping[str, object]
                    ) -> None:
        """Refuse what the rules refuse, in the functions' words (``p=``, ``strategy=``)."""
        def value(name: str) -> object:
            return values.get(name, defaults.get(name))

        for rule in self.rules:
            text = _refusal(rule, value, defaults)
            if text is not None:
                governed = rule.param if isinstance(rule, (Required, Narrows, SizedBy)) \
                    else rule.params[0]
                raise ParameterError(text, param=governed.name)


def _refusal(rule: Rule, value: Callable[[str], object], defaults: Mapping[str, object]
             ) -> str | None:
    """What ``rule`` refuses in a call whose parameters have ``value(name)`` (their
    ``defaults`` telling the given ones), in the functions' words; None where it holds."""
    def holds(values: tuple[object, ...] | None, on: Param) -> bool:
        try:
            return applies(values, value(on.name), defaults.get(on.name))
        except (TypeError, ValueError):  # (a data frame compared with a rule's values)
            raise _incomparable(on, value(on.name)) from None

    if isinstance(rule, SizedBy):
        return None  # (a default, worked out by Binding._checked)
    if isinstance(rule, Narrows):
        if not holds(rule.values, rule.on):
            return None
        return rule.refusal(value(rule.param.name), rule.param.name,
                            f"{rule.on.name}={value(rule.on.name)!r}")
    if isinstance(rule, Required):
        if holds(rule.values, rule.on) and value(rule.param.name) is None:
            return rule.message(f"{rule.param.name}=",
                                f"{rule.on.name}={value(rule.on.name)!r}")
        return None
    given = [f"{p.name}=" for p in rule.params
             if is_given(value(p.name), defaults.get(p.name, p.default))]
    verb = "applies" if len(given) == 1 else "apply"
    if not given:
        return None
    if isinstance(rule, Either):
        if any(all(holds(need.values, need.on) for need in case if need.on is not None)
               for case in rule.cases):
            return None
        return rule.message(", ".join(given), [_case(case) for case in rule.cases], verb)
    if isinstance(rule, Excludes):
        if not rule.holds(value(rule.on.name), defaults.get(rule.on.name)):
            return None
        said = f"{rule.on.name}=" if rule.values is None else \
            f"{rule.on.name}={value(rule.on.name)!r}"
        return rule.message(", ".join(given), said, verb)
    return _needs_refusal(rule, ", ".join(given), verb, value, holds)


def _incomparable(on: Param, value: object) -> ParameterError:
    """The refusal of ``value`` of the parameter ``on`` that a rule depends on and that
    cannot be compared with the values the rule tests (a data frame for a switch): its
    domain's, where it declares one, else one naming the parameter and the value."""
    check = getattr(on.domain, "check", None)
    if check is not None:
        try:
            check(value, _label(on))
        except ParameterError as error:
            error.param = on.name
            return error
    from ..errors import shown

    return ParameterError(f"{on.name}: {shown(value)} cannot be compared with the values "
                          "its rules test", param=on.name)


def _needs_refusal(rule: Needs, given: str, verb: str, value: Callable[[str], object],
                   holds: Callable[[tuple[object, ...] | None, Param], bool]) -> str | None:
    """What a :class:`~irscale.core.params.Needs` refuses of the parameters ``given``
    (spelt), where its condition does not hold (``holds``); None where it does."""
    on = rule.on
    if on is None or holds(rule.values, on):
        return None
    if rule.values is None:
        return rule.message(given, f"{on.name}=", verb)
    return rule.message(given, on.name, verb, chosen=repr(value(on.name)),
                        said=_names([repr(v) for v in rule.values]))


def _case(case: tuple[Needs, ...]) -> str:
    """A case of an :class:`Either` in the functions' words (``dp=``, ``design='topics'``)."""
    return " with ".join(f"{need.on.name}=" if need.values is None else
                         f"{need.on.name}={_names([repr(v) for v in need.values], 'or')}"
                         for need in case if need.on is not None)


def applies(values: tuple[object, ...] | None, value: object, default: object = None) -> bool:
    """Whether a rule holds for ``value`` of the parameter it depends on: given (not None,
    not its ``default``) where ``values`` is None, else one of ``values`` (a list: one of
    its items)."""
    if values is None:
        return is_given(value, default)
    items = value if isinstance(value, (list, tuple)) else [value]
    return any(item in values for item in items)


def binding_of(function: Callable[..., Any]) -> Binding | None:
    """The :class:`Binding` a function was declared with (through its wrappers), or None."""
    inner: Any = function
    while inner is not None:
        found = getattr(inner, "__irscale_binding__", None)
        if found is not None:
            return found
        inner = getattr(inner, "__wrapped__", None)
    return None


@record(eq=False)
class Choice:
    """A call of one of several functions, chosen by the value of ``on`` (``irscale
    compare --test``: a two-system test, Tukey's HSD, the mixed model ...): ``bindings``
    maps each value of ``on`` to the :class:`Binding` of the function it calls (values
    may share one; a function bound later is one more entry). ``shared``: parameters
    every choice takes (the significance level), never refused by the choice;
    ``unless``: parameters whose being given calls another function altogether (the
    choice is not made: ``--risk-alpha``, the comparison across collections).

    The command line derives its rules from it (:func:`irscale.cli.rules.choice_rules`,
    through ``add_command(..., binding=choice)``): each parameter a binding declares
    (:meth:`Binding.declares`) applies to the values whose function takes it
    (:meth:`applies_to`), refused elsewhere in :class:`~irscale.core.params.Needs`' words
    (``--family applies to --test mixed, not to --test t``); where a value is chosen, its
    binding's domains and rules apply, as the function applies them on entry."""

    on: Param
    bindings: Mapping[Any, Binding]
    shared: tuple[Param, ...] = ()
    unless: tuple[Param, ...] = ()

    def declared(self) -> dict[str, Param]:
        """The parameters the choice governs, by name: those the bindings declare, less
        ``on`` and ``shared``."""
        skip = {self.on.name, *(param.name for param in self.shared)}
        named: dict[str, Param] = {}
        for binding in self.bindings.values():
            for name, param in binding.declares().items():
                if name not in skip:
                    named.setdefault(name, param)
        return named

    def applies_to(self, name: str) -> tuple[str, ...]:
        """The values of ``on`` whose function takes the parameter ``name``, less those
        its binding's own :class:`~irscale.core.params.Needs` on a parameter of
        ``on``'s name rules out (the resamples of a pairwise test: the resampling tests)."""
        found = []
        for value, binding in self.bindings.items():
            if name not in binding.declares():
                continue
            ruled = [rule for rule in binding.rules if isinstance(rule, Needs)
                     and rule.on is not None and rule.on.name == self.on.name
                     and rule.values is not None and any(p.name == name for p in rule.params)]
            if all(value in (rule.values or ()) for rule in ruled):
                found.append(value)
        return tuple(found)

    def chosen(self) -> dict[int, tuple[Binding, tuple[str, ...]]]:
        """Each binding once (by identity), with the values of ``on`` that choose it."""
        grouped: dict[int, tuple[Binding, tuple[str, ...]]] = {}
        for value, binding in self.bindings.items():
            _, values = grouped.get(id(binding), (binding, ()))
            grouped[id(binding)] = (binding, (*values, value))
        return grouped

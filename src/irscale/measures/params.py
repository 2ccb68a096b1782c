"""Keyword parameters of measure families: ``Name(key=value,...)@cutoff``.

A family declares its parameters once, as a :class:`Keywords` spec of named
:class:`Keyword` s (parser, default, documentation). The one measure-name parser
(:mod:`irscale.measures.names`) hands it the ``key=value`` pairs of an ir_measures-style
name (``Q(beta=0.5)@10``, ``nDCG(gain=exp,discount=log2)@10``) or of a trec-style name
(``Q.beta=0.5``); the kernel receives the parsed :class:`Params` (a read-only mapping with
every parameter, defaults filled in). A family whose spec declares ``cutoff`` receives the
``@k`` of the name as ``params["cutoff"]`` (it needs k itself, e.g. to normalise by
``min(k, R)``); other families are evaluated on the rankings truncated to k.

Value parsers (``number``, ``integer``, ``choice``, ``flag``, ``numbers``, ``identifier``)
turn the text of one value into a Python value or raise ``ValueError`` with a reason; the
reason is reported with the family and the offending text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from ..core.records import record
from ..errors import MeasureError


class ParamSpec:
    """How a family's parameter string is parsed (the part after '.' of a trec_eval name,
    or the ``key=value`` items of ``Name(...)``): the interface of every kind of parameters
    (:class:`Keywords` here, trec_eval's kinds in :mod:`irscale.measures.base`)."""

    default: Any = None

    def parse(self, text: str, family: str) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    def format(self, value: Any) -> str:  # pragma: no cover - interface
        raise NotImplementedError


@record
class Keyword:
    """One named parameter: how its text is parsed, its default, and what it means."""

    parse: Callable[[str], Any]
    default: Any
    doc: str

    @property
    def domain(self) -> str:
        """The values the parameter takes, in words (the ``domain`` its parser states)."""
        return getattr(self.parse, "domain", "text")

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, TypeAlias

    _Mapping: TypeAlias = Mapping[str, Any]
else:  # (typing's Any is not imported at run time)
    _Mapping = Mapping


@record
class Params(_Mapping):
    """Parsed keyword parameters (every declared name, defaults included), hashable."""

    items_: tuple[tuple[str, Any], ...]
    given: tuple[str, ...] = ()

    def __getitem__(self, key: str) -> Any:
        for name, value in self.items_:
            if name == key:
                return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self.items_)

    def __len__(self) -> int:
        return len(self.items_)

    def key(self) -> str:
        """A stable text key of the values (for caches)."""
        return ",".join(f"{name}={value!r}" for name, value in self.items_)


class Keywords(ParamSpec):
    """A family's named parameters (see the module documentation)."""

    def __init__(self, **keywords: Keyword) -> None:
        self.keywords = dict(keywords)
        self.default = Params(tuple((name, kw.default) for name, kw in keywords.items()))
        self.checks: tuple[Callable[[Params, str], None], ...] = ()

    def checked(self, *checks: Callable[[Params, str], None]) -> Keywords:
        """These parameters, with every ``check(params, family)`` run on each parsed set:
        it raises :class:`MeasureError` for values that cannot go together, such as a
        parameter given where it has no effect (:func:`only_with`)."""
        self.checks = self.checks + checks
        return self

    @property
    def takes_cutoff(self) -> bool:
        return "cutoff" in self.keywords

    def parse(self, text: str, family: str) -> Params:
        """``key=value,key=value`` (the trec-style ``Family.key=value`` spelling)."""
        return self.from_items(split_items(text, family), family)

    def from_items(self, items: Mapping[str, str], family: str) -> Params:
        unknown = sorted(set(items) - set(self.keywords))
        if unknown:
            accepted = ", ".join(sorted(self.keywords)) or "none"
            raise MeasureError(
                f"measure {family!r}: unknown parameter(s) {unknown} (accepted: {accepted})"
            )
        values = []
        for name, keyword in self.keywords.items():
            if name not in items:
                values.append((name, keyword.default))
                continue
            try:
                values.append((name, keyword.parse(items[name])))
            except ValueError as error:
                raise MeasureError(
                    f"measure {family!r}: bad value {items[name]!r} for {name}: {error}"
                ) from None
        params = Params(tuple(values), tuple(items))
        for check in self.checks:
            check(params, family)
        return params

    def format(self, value: Params) -> str:
        return ",".join(f"{name}={value[name]}" for name in value.given)


def split_items(text: str, family: str) -> dict[str, str]:
    """``a=1,b=x`` → ``{"a": "1", "b": "x"}`` (MeasureError for a malformed or repeated item)."""
    items: dict[str, str] = {}
    if not text:
        return items
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise MeasureError(f"measure {family!r}: parameters are name=value pairs, got {part!r}")
        if key in items:
            raise MeasureError(f"measure {family!r}: parameter {key!r} given twice")
        items[key] = value.strip()
    return items


def only_with(name: str, applies: Callable[[Params], bool],
              where: str) -> Callable[[Params, str], None]:
    """A check (:meth:`Keywords.checked`) refusing parameter ``name`` when it is given where
    it has no effect: it acts only when ``applies(params)``, which ``where`` says in words.
    An accepted parameter always changes the result as documented."""

    def check(params: Params, family: str) -> None:
        if name in params.given and not applies(params):
            raise MeasureError(f"measure {family!r}: {name} has no effect here: it acts {where}")

    return check


def needs_cutoff(params: Params, family: str) -> None:
    """A check (:meth:`Keywords.checked`, and the kernel's, as a bare name brings the
    defaults unchecked) of a family that needs its ``@k`` (declared ``cutoff="required"``):
    the cut-off is given."""
    if params["cutoff"] is None:
        raise MeasureError(f"measure {family!r} needs a cut-off: {family}@k")


# ---------------------------------------------------------------- value parsers
Parser: TypeAlias = "Callable[[str], Any]"


def states(domain: str) -> Callable[[Parser], Parser]:
    """Note on a value parser the values it accepts, in words (:attr:`Keyword.domain`)."""

    def note(parse: Parser) -> Parser:
        parse.domain = domain  # type: ignore[attr-defined]
        return parse

    return note


def _bounds(low: float | None, high: float | None, open_low: bool, open_high: bool) -> str:
    """``in [0, 1]``, ``> 0``, ``≥ 1`` ... (empty without bounds)."""
    if low is not None and high is not None:
        return (f" in {'(' if open_low else '['}{low:g}, {high:g}"
                f"{')' if open_high else ']'}")
    if low is not None:
        return f" {'>' if open_low else '≥'} {low:g}"
    if high is not None:
        return f" {'<' if open_high else '≤'} {high:g}"
    return ""


def number(*, low: float | None = None, high: float | None = None,
           open_low: bool = False, open_high: bool = False) -> Callable[[str], float]:
    """A finite number in ``[low, high]`` (bounds open where asked)."""

    @states("number" + _bounds(low, high, open_low, open_high))
    def parse(text: str) -> float:
        import math  # (a shared library: loaded by the measures that take numbers)

        try:
            value = float(text)
        except ValueError:
            raise ValueError("not a number") from None
        if not math.isfinite(value):
            raise ValueError("not finite")
        if low is not None and (value < low or (open_low and value == low)):
            raise ValueError(f"must be {'>' if open_low else '≥'} {low}")
        if high is not None and (value > high or (open_high and value == high)):
            raise ValueError(f"must be {'<' if open_high else '≤'} {high}")
        return value

    return parse


def integer(*, low: int | None = None, high: int = 2**63 - 1) -> Callable[[str], int]:
    """An integer ≥ ``low`` and ≤ ``high`` (default 2⁶³ − 1: it must fit numpy's int64)."""

    @states("integer" + _bounds(low, None if high == 2**63 - 1 else high, False, False))
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError("not an integer") from None
        if low is not None and value < low:
            raise ValueError(f"must be ≥ {low}")
        if value > high:
            raise ValueError(f"must be ≤ {high}")
        return value

    return parse


def optional(parse_value: Callable[[str], Any]) -> Callable[[str], Any]:
    """``parse_value`` or ``None`` for an empty text / ``none``."""

    @states(f"{getattr(parse_value, 'domain', 'text')}, or none")
    def parse(text: str) -> Any:
        return None if text.lower() in ("", "none") else parse_value(text)

    return parse


def choice(*names: str, aliases: Mapping[str, str] | None = None) -> Callable[[str], str]:
    """One of ``names`` (``aliases`` map other spellings onto them)."""
    aliases = dict(aliases or {})

    @states(f"one of {', '.join(names)}")
    def parse(text: str) -> str:
        value = aliases.get(text, text)
        if value not in names:
            raise ValueError(f"use one of {', '.join(names)}")
        return value

    return parse


@states("1 or 0")
def flag(text: str) -> bool:
    """A boolean: 1/0, true/false, yes/no."""
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError("use 1 or 0 (true/false)")


def numbers(*, low: float | None = None, high: float | None = None) -> Callable[[str], tuple]:
    """Colon-separated numbers, e.g. ``0.6:0.3:0.1`` (each in ``[low, high]``)."""
    one = number(low=low, high=high)

    @states("numbers n1:n2:..." + _bounds(low, high, False, False))
    def parse(text: str) -> tuple[float, ...]:
        if not text:
            raise ValueError("no number given")
        return tuple(one(part) for part in text.split(":"))

    return parse


@states("a name (letters, digits, _ and -)")
def identifier(text: str) -> str:
    """A name (letters, digits, ``_``, ``-``): e.g. the name of a label set."""
    if not text or not all(c.isalnum() or c in "_-" for c in text):
        raise ValueError("not a name (letters, digits, _ and - only)")
    return text


#: ``cutoff``: the @k of a name, for families that use k themselves.
CUTOFF = Keyword(optional(integer(low=1)), None,
                 "document cut-off k (the @k of the name); none: the whole ranking")

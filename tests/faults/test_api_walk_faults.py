"""A walk over the whole Python API with hostile arguments: nothing but irscale's errors.

Every public callable (:func:`~tests.faults.test_api_types_faults._functions`: what the
``__all__`` of irscale and its public packages exports, and every way into a class they
export), and every public method of the objects they return (those of the calls below that
return one of irscale's objects, found as the walk goes), is called

* once per parameter and per hostile value of :data:`HOSTILE` (a mapping of numbers where
  paths, runs or numbers are expected, an integer beyond 64 bits, an empty list, a float
  where a count or a name is expected, an object of no kind irscale knows), its other
  required parameters given their examples (every one hostile where one has none), the
  optional ones left at their defaults: it returns, or raises an
  :class:`~irscale.errors.IrscaleError`;
* with no argument, with one positional argument more than it takes, and with its first
  parameter given twice (by position and by keyword): a
  :class:`~irscale.errors.ParameterError` (or, with no argument, a result), never Python's
  ``TypeError`` (the arity is bound on entry: :mod:`irscale.core.binding`);
* once with a misspelt keyword (its last keyword of four letters or more with its third
  letter doubled, or ``no_such_keyword``): a :class:`~irscale.errors.ParameterError`; where
  its examples make a valid call, one naming the keyword and the keyword it resembles,
  whatever the callable hands its ``**options`` on to.

The values of :data:`~tests.faults.test_api_types_faults.WRONG` (None, a text, an empty
data frame, a list of strings, NaN) are walked by that file, which checks the parameter
named as well. One test per callable, in one folder (:func:`populate`), so that the walk is
quick: its failure lists every call that ended in another exception.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from irscale.errors import IrscaleError, ParameterError

from .test_api_types_faults import EXAMPLES, LIGHT, _call, _functions, folder  # noqa: F401

#: The hostile values, by the name they are reported with (fresh each call).
HOSTILE: dict[str, Callable[[], object]] = {
    "mapping": lambda: {"a": 1},
    "huge": lambda: 10**30,
    "empty": list,
    "float": lambda: 2.5,
    "object": object,
}
#: The misspelt keyword of a callable without keyword parameters.
NO_SUCH = "no_such_keyword"

#: The classes whose methods this process has walked (each once: many calls return one).
_WALKED: set[type] = set()


def _callables() -> Iterator[Any]:
    seen: set[int] = set()
    for package, name, function in _functions():
        target = inspect.unwrap(function)
        if id(target) in seen or not getattr(target, "__module__", "").startswith("irscale"):
            continue  # re-exported, or a type alias (ExecutorArg)
        seen.add(id(target))
        yield pytest.param(function, id=f"{package}.{name}")


def _parameters(function: Callable[..., Any]) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(function).parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _arguments(function: Callable[..., Any], param: str, value: Callable[[], object]
               ) -> tuple[list[Any], dict[str, Any]]:
    """The arguments of one call (:func:`_call`): ``value()`` for ``param``."""
    (args, kwargs), _ = _call(function, param, value)
    return args, kwargs


def _quietly(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _misspelt(function: Callable[..., Any]) -> tuple[str, str | None]:
    """A keyword ``function`` does not take, and the one it was made from (None)."""
    keywords = [p.name for p in _parameters(function)
                if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and len(p.name) > 3]
    if not keywords:
        return NO_SUCH, None
    name = keywords[-1]
    return name[:3] + name[2] + name[3:], name


def _walk(label: str, function: Callable[..., Any], failures: list[str]) -> None:
    """Call ``function`` with every hostile value and a misspelt keyword, noting in
    ``failures`` every call that ends in an exception that is not irscale's; then walk the
    methods of what its call with the examples returns."""
    for parameter in _parameters(function):
        for kind, value in HOSTILE.items():
            args, kwargs = _arguments(function, parameter.name, value)
            try:
                _quietly(function, *args, **kwargs)
            except IrscaleError:
                pass
            except Exception as error:
                failures.append(f"{label}({parameter.name}={kind}): "
                                f"{type(error).__name__}: {error}")
    _arity(label, function, failures)
    accepted, result = _valid_call(label, function, failures)
    keyword, near = _misspelt(function)
    args, kwargs = _arguments(function, "", HOSTILE["float"])
    try:
        _quietly(function, *args, **kwargs, **{keyword: 1})
        failures.append(f"{label}({keyword}=1): no error")
    except ParameterError as error:
        message = str(error)
        if accepted and (keyword not in message or (near is not None and
                                                     f"did you mean {near}?" not in message)):
            failures.append(f"{label}({keyword}=1): {message!r} names not {keyword} "
                            f"and {near}")
    except IrscaleError as error:
        if accepted:  # the examples do suit it: the keyword is the one thing wrong
            failures.append(f"{label}({keyword}=1): {type(error).__name__}: {error}")
    except Exception as error:
        failures.append(f"{label}({keyword}=1): {type(error).__name__}: {error}")
    kind = type(result)
    if accepted and kind.__module__.startswith("irscale.") and kind not in _WALKED:
        _WALKED.add(kind)
        for name in dir(kind):
            method = getattr(result, name, None)
            if not name.startswith("_") and inspect.ismethod(method) and \
                    inspect.isfunction(getattr(kind, name, None)):
                _walk(f"{label}().{name}", method, failures)


def _arity(label: str, function: Callable[..., Any], failures: list[str]) -> None:
    """Calls of the wrong arity: none but irscale's errors, a
    :class:`~irscale.errors.ParameterError` where the arity is wrong."""
    parameters = inspect.signature(function).parameters.values()
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY,
                                                      p.POSITIONAL_OR_KEYWORD)]
    calls: list[tuple[str, list[Any], dict[str, Any], bool]] = [("no argument", [], {}, False)]
    if not any(p.kind is p.VAR_POSITIONAL for p in parameters):
        calls.append(("one positional argument too many", [None] * (len(positional) + 1), {},
                      True))
    if positional and positional[0].kind is positional[0].POSITIONAL_OR_KEYWORD:
        calls.append(("a parameter given twice", [None], {positional[0].name: None}, True))
    for what, args, kwargs, wrong in calls:
        try:
            _quietly(function, *args, **kwargs)
            if wrong:
                failures.append(f"{label} with {what}: no error")
        except ParameterError:
            pass
        except IrscaleError as error:
            if wrong:
                failures.append(f"{label} with {what}: {type(error).__name__}: {error}")
        except Exception as error:
            failures.append(f"{label} with {what}: {type(error).__name__}: {error}")


def _valid_call(label: str, function: Callable[..., Any], failures: list[str]
                ) -> tuple[bool, Any]:
    """Whether ``function`` returns given its examples (every required parameter has
    one), and what it returns; a call that ends in another exception than irscale's is
    noted in ``failures``."""
    required = [p for p in _parameters(function) if p.default is inspect.Parameter.empty]
    if any(p.name not in EXAMPLES and p.name not in LIGHT.get(function.__name__, {})
           for p in required):
        return False, None
    args, kwargs = _arguments(function, "", HOSTILE["float"])
    try:
        return True, _quietly(function, *args, **kwargs)
    except IrscaleError:
        return False, None
    except Exception as error:
        failures.append(f"{label}(): {type(error).__name__}: {error}")
        return False, None


@pytest.mark.parametrize("function", list(_callables()))
def test_hostile_arguments_raise_irscale_errors(folder, function):  # noqa: F811
    failures: list[str] = []
    _walk(getattr(function, "__qualname__", str(function)), function, failures)
    assert not failures, "\n".join(failures)

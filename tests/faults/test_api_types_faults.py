"""Every public function, every parameter, every wrong type: an irscale error, never a raw one.

The rows are generated: every function exported by the ``__all__`` of a public package
(:data:`PACKAGES`), and every way into a class it exports (the constructor, the public class
and static methods such as ``ScoreMatrix.from_frame``), is called once per parameter and per
wrong value of :data:`WRONG` (None, a string, an empty data frame, a list of strings, NaN),
the other required parameters given a valid example where :data:`EXAMPLES` has one (every
required parameter wrong otherwise), the optional ones left at their defaults. The call must
either return (a documented result: the value is one the parameter accepts) or raise an
:class:`~irscale.errors.IrscaleError` whose message names a parameter given a wrong value
(or the wrong text itself, as a file error names its file) — never a ``TypeError``,
``AttributeError``, ``ValueError``, ``KeyError`` or ``IndexError`` from inside
(:mod:`irscale.core.edge`).
"""

from __future__ import annotations

import enum
import importlib
import inspect
import math
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from irscale.core.edge import public
from irscale.errors import IrscaleError

from .conftest import populate

#: The public packages whose ``__all__`` is the API.
PACKAGES = ("irscale", "irscale.stats", "irscale.meta", "irscale.scales",
            "irscale.collections", "irscale.online", "irscale.text", "irscale.fusion",
            "irscale.io", "irscale.report", "irscale.plots", "irscale.measures",
            "irscale.parallel", "irscale.core", "irscale.labels")

#: A text no parameter takes: not a file, a measure, a choice or a number.
TEXT = "no-such-thing"
#: The wrong values, by the name of their row.
WRONG: dict[str, Callable[[], object]] = {
    "None": lambda: None,
    "text": lambda: TEXT,
    "empty-frame": pd.DataFrame,
    "strings": lambda: ["xx", "yy"],
    "nan": lambda: math.nan,
}


def _matrix() -> Any:
    from irscale.core import ScoreMatrix

    table = ScoreMatrix.read_csv("ap.csv")
    return ScoreMatrix.from_array(table.values, topics=table.topics, systems=table.systems,
                                  measures=["AP"])


#: A valid value of a required parameter, by its name (the files are those of
#: :func:`~tests.faults.conftest.populate`, in the current folder).
EXAMPLES: dict[str, Callable[[], object]] = {
    "qrels": lambda: "qrels.txt",
    "human": lambda: "qrels.txt",
    "judges": lambda: ["qrels.txt"],
    "run": lambda: "a.run",
    "runs": lambda: ["a.run", "b.run"],
    "matrix": _matrix,
    "data": _matrix,
    "reference": _matrix,
    "x": lambda: np.array([0.1, 0.4, 0.3, 0.8, 0.5, 0.2]),
    "y": lambda: np.array([0.2, 0.3, 0.5, 0.6, 0.4, 0.1]),
    "a": lambda: ["d1", "d2", "d3"],
    "b": lambda: ["d2", "d1", "d3"],
    "d": lambda: [0.1, -0.2, 0.3, 0.05],
    "v": lambda: [0.01, 0.02, 0.01, 0.03],
    "values": lambda: [0.1, 0.2, 0.3],
    "pvalues": lambda: np.array([0.01, 0.2, 0.03]),
    "measure": lambda: "AP",
    "gold": lambda: ["AP"],
    "measures": lambda: ["AP"],
    "n": lambda: 10,
    "sd": lambda: 0.2,
    "effect_size": lambda: 0.5,
    "min_diff": lambda: 0.1,
    "k": lambda: 3,
    "N": lambda: 3,
}


#: Values of the parameters of particular functions: small ones where the defaults ask for
#: much work (the rows test the types of arguments, not the work), examples of required
#: parameters whose name means another thing elsewhere (``systems``, ``log``).
LIGHT: dict[str, dict[str, object]] = {
    "scale_report": {"measures": ["P"], "cutoffs": [5], "tests": ["sign"]},
    "split_study": {"sizes": [6], "repetitions": 2, "rng": 1},
    "swap_rates": {"sizes": [6], "repetitions": 2, "rng": 1},
    "pool": {"depth": 3},
    "sample_judgments": {"size": 3},
    "evaluate_nuggets": {"lengths": b"q1 A 60\n"},
    "simulate_pooling": {"strategies": ["depth"], "budgets": [5], "loo": False},
    "audit": {"n_boot": 5, "top_k": 2},
    "build_report": {"measures": ["map"], "robustness": False},
    "sensitivity": {"impressions": [10], "repetitions": 2},
    "evaluate_seeds": {"systems": {"A": ["a.run", "b.run"], "B": ["c.run"]}},
    "Confusion": {"matrix": [[0.9, 0.1], [0.2, 0.8]]},
    "counterfactual": {"log": b"s1 q 1 a 1\ns1 q 2 b 0\ns2 q 1 b 0\ns2 q 2 a 1\n",
                       "policy": {"q": ["a", "b"]}, "estimator": "pbm-ips"},
}
#: Optional parameters given their example too (``y``: without it, ``x`` must be a table).
COMPANIONS = ("y",)


def _functions() -> Iterator[tuple[str, str, Callable[..., Any]]]:
    """Every public function, and every way into a public class: the class itself (its
    constructor) and the public class and static methods it defines
    (``ScoreMatrix.from_frame``)."""
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            value = getattr(module, name)
            if not inspect.isclass(value):
                if callable(value):
                    yield package, name, value
                continue
            if issubclass(value, (BaseException, enum.Enum)):
                continue
            yield package, name, value
            for attribute, member in vars(value).items():
                if not attribute.startswith("_") and \
                        isinstance(member, (classmethod, staticmethod)):
                    yield package, f"{name}.{attribute}", getattr(value, attribute)


def _rows() -> Iterator[Any]:
    """One row per public callable (re-exports once): its cases are its parameters × the
    values of :data:`WRONG` (:func:`_cases`), run together by the test."""
    seen: set[int] = set()
    for package, name, function in _functions():
        target = inspect.unwrap(function)
        if id(target) in seen:  # re-exported by irscale and its package
            continue
        seen.add(id(target))
        yield pytest.param(function, id=f"{package}.{name}")


def _cases(function: Callable[..., Any]) -> Iterator[tuple[str, str]]:
    """(parameter, wrong value) of every case of ``function``: each parameter (but
    ``*args``, ``**kwargs``) with each value of :data:`WRONG` (None not where it is the
    documented default)."""
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        for wrong in WRONG:
            if parameter.default is None and wrong == "None":
                continue  # the documented default
            yield parameter.name, wrong


def _call(function: Callable[..., Any], param: str, wrong: Callable[[], object]
          ) -> tuple[Any, set[str]]:
    """The arguments of the row: the wrong value ``wrong()`` for ``param``, examples for
    the other required parameters (all wrong when one has none). Returns (kwargs/args,
    names given a wrong value)."""
    signature = inspect.signature(function)
    light = LIGHT.get(function.__name__, {})
    required = [p for p in signature.parameters.values()
                if p.default is inspect.Parameter.empty
                and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    all_wrong = any(p.name != param and p.name not in EXAMPLES and p.name not in light
                    for p in required)
    wrongs = {param} | ({p.name for p in required} if all_wrong else set())
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in signature.parameters.values():
        if p.name in wrongs:
            value = wrong()
        elif p.name in light:
            value = light[p.name]
        elif p.name in COMPANIONS and p.name in EXAMPLES:
            value = EXAMPLES[p.name]()
        elif p.default is inspect.Parameter.empty and \
                p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            value = EXAMPLES[p.name]()
        else:
            continue
        if p.kind is p.POSITIONAL_ONLY:
            args.append(value)
        else:
            kwargs[p.name] = value
    return (args, kwargs), wrongs


#: Whether a function's call with valid examples alone raises an irscale error (the examples
#: do not suffice: its errors need not then name the wrong argument).
_REFUSED: dict[str, bool] = {}


def _examples_refused(function: Callable[..., Any]) -> bool:
    """Whether the call of ``function`` with every required parameter given its example
    (and the light values) raises an irscale error."""
    key = f"{function.__module__}.{function.__qualname__}"
    if key not in _REFUSED:
        signature = inspect.signature(function)
        light = LIGHT.get(function.__name__, {})
        if any(p.default is inspect.Parameter.empty and p.name not in EXAMPLES and
               p.name not in light and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in signature.parameters.values()):
            _REFUSED[key] = False  # every row gives its required parameters wrong values
        else:
            (args, kwargs), _ = _call(function, "", WRONG["None"])
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    function(*args, **kwargs)
                _REFUSED[key] = False
            except IrscaleError:
                _REFUSED[key] = True
    return _REFUSED[key]


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    """:func:`populate`'s files in the test's folder, made current (the walk's:
    tests/faults/test_api_walk_faults.py)."""
    populate(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _fresh_folder(root: Path, monkeypatch: pytest.MonkeyPatch, number: int) -> None:
    """A folder of its own for case ``number`` (:func:`populate`'s files), made current:
    the cases of a callable share no file (a call may write or move one)."""
    folder = root / f"case{number}"
    folder.mkdir()
    populate(folder)
    monkeypatch.chdir(folder)


def _failures(cases: Iterator[tuple[str, Callable[[], None]]], root: Path,
              monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each case (its name, its check) run in a fresh folder; the failures, one line each
    naming the case: an assertion's message, or the exception that escaped."""
    failed = []
    for number, (name, check) in enumerate(cases):
        _fresh_folder(root, monkeypatch, number)
        try:
            check()
        except AssertionError as error:
            failed.append(f"{name}: {error}")
        except Exception as error:  # a raw exception: the case's failure, named
            failed.append(f"{name}: {type(error).__name__}: {error}")
    return failed


def _check_named(function: Callable[..., Any], param: str, wrong: str) -> None:
    """The call with ``param`` given the wrong value returns, or raises an irscale error
    naming a parameter given a wrong value (or the wrong text itself)."""
    (args, kwargs), wrongs = _call(function, param, WRONG[wrong])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            function(*args, **kwargs)
    except IrscaleError as error:
        if _examples_refused(function):
            return  # an irscale error about the examples, the row's wrong value unread
        message = str(error)
        named = wrongs | {getattr(error, "param", None) or ""} - {""}
        named = {name for name in named if name in wrongs}
        assert any(name in message for name in named) or \
            any(text in message for text in (TEXT, "xx")), message


@pytest.mark.parametrize("function", list(_rows()))
def test_a_wrong_argument_is_named(tmp_path, monkeypatch, function):
    """Every case of the callable (:func:`_cases`), each in a fresh folder; the test fails
    listing every case that broke, with its message."""
    cases = ((f"{param}-{wrong}",
              lambda param=param, wrong=wrong: _check_named(function, param, wrong))
             for param, wrong in _cases(function))
    failed = _failures(cases, tmp_path, monkeypatch)
    assert not failed, f"{len(failed)} cases failed:\n" + "\n".join(failed)


# ----------------------------------------------------------------------------- the issue's calls
def _issue_calls() -> list[Any]:
    import irscale.report
    import irscale.stats

    return [
        pytest.param(lambda: irscale.stats.bootstrap_anova(pd.DataFrame()), "scores",
                     id="bootstrap_anova-empty-frame"),
        pytest.param(lambda: irscale.stats.bootstrap_anova([1, 2, 3]), "scores",
                     id="bootstrap_anova-list"),
        pytest.param(lambda: irscale.stats.document_sampling_test("abc", "def"), "d",
                     id="document_sampling_test-strings"),
        pytest.param(lambda: irscale.report.format_tables(None), "report",
                     id="format_tables-None"),
    ]


@pytest.mark.parametrize(("call", "param"), _issue_calls())
def test_the_issue_calls_name_their_argument(call, param):
    with pytest.raises(IrscaleError) as caught:
        call()
    assert str(caught.value).startswith(f"{param}: ")
    assert getattr(caught.value, "param", param) == param


# ----------------------------------------------------------------------------- the edge itself
def test_an_internal_error_is_not_disguised_as_the_users():
    """Every argument of its declared type: the raw exception of a fault inside propagates
    unchanged; an argument of another type is refused on entry, naming it, before the body
    runs (no raw exception behind the refusal)."""
    from irscale.core.edge import public
    from irscale.errors import ParameterError

    ran = []

    def kernel(values: list[float], *, depth: int = 3) -> float:
        ran.append(depth)
        return {}[depth]  # a bug: KeyError whatever the arguments

    guarded = public(kernel)
    with pytest.raises(KeyError):
        guarded([0.5, 0.25], depth=2)
    assert ran == [2]
    with pytest.raises(ParameterError, match=r"^depth: expected int, got 'two' \(str\)$") \
            as caught:
        guarded([0.5], depth="two")
    assert caught.value.__cause__ is None
    with pytest.raises(ParameterError, match=r"^values: expected list\[float\]"):
        guarded(["a", "b"])
    with pytest.raises(ParameterError, match=r"^depth: expected int, got nan"):
        guarded([0.5], depth=math.nan)
    assert ran == [2]  # the body never ran on a refused call


@dataclass(frozen=True)
class _Options:
    depth: int = 3
    width: int = 2


def _forwarding(values: list[float], **options: object) -> _Options:
    return _Options(**options)  # type: ignore[arg-type]


def _counted(text: int) -> int:
    return text + 1  # a TypeError for a str


def _calling(values: list[float]) -> int:
    return public(_counted)(str(len(values)))  # a fault of its own: a str for text


def test_a_keyword_handed_on_is_checked_against_what_takes_it():
    """A keyword a function hands on through ``**options`` is unknown where its callee
    does not take it: named with the nearest keyword of the two functions."""
    from irscale.errors import ParameterError

    guarded = public(_forwarding)
    assert guarded([0.5], depth=2) == _Options(depth=2)
    with pytest.raises(ParameterError, match=r"^_forwarding: unknown keyword argument\(s\) "
                       r"dpeth \(did you mean depth\?\); it takes values, depth, width$"):
        guarded([0.5], dpeth=2)


def test_the_outermost_call_is_the_edge():
    """A public function calling another with arguments of its own making: the inner
    call's raw error is the outer's fault, never blamed on an argument of the inner."""
    with pytest.raises(TypeError):
        public(_calling)([0.5, 0.25])


def test_the_exports_are_the_functions_behind_the_edge():
    """The wrapper keeps the function's name, signature and documentation (the API pages
    and ``help`` read them), and it is put once."""
    import irscale
    import irscale.stats
    from irscale.core.edge import public
    from irscale.stats.replicates import bootstrap_anova

    exported = irscale.stats.bootstrap_anova
    assert inspect.unwrap(exported) is inspect.unwrap(bootstrap_anova)  # (through its binding)
    assert exported.__doc__ == bootstrap_anova.__doc__
    assert inspect.signature(exported) == inspect.signature(bootstrap_anova)
    assert public(exported) is exported
    assert inspect.unwrap(irscale.anova) is inspect.unwrap(irscale.stats.anova)


# ----------------------------------------------------------------------------- the results' methods
#: Objects the public functions return, made in the case's folder: their public
#: methods are part of the API as much as the functions that return them.
RESULTS: dict[str, Callable[[], object]] = {
    "Evaluation": lambda: __import__("irscale").evaluate("qrels.txt", ["a.run", "b.run"],
                                                         ["map", "P@5"]),
    "ScoreMatrix": _matrix,
    "AnovaResult": lambda: __import__("irscale").stats.anova(_matrix()),
    "PairwiseComparisons": lambda: __import__("irscale").stats.tukey_hsd(_matrix()),
    "UnjudgedBounds": lambda: __import__("irscale").collections.unjudged_bounds(
        "qrels.txt", ["a.run", "b.run"], ["P@3"]),
}


def _method_rows() -> Iterator[Any]:
    """(result, method) of every public method of every object of :data:`RESULTS`, its
    class read from the source (the objects are made in the test)."""
    from irscale.collections.bounds import UnjudgedBounds
    from irscale.core import ScoreMatrix
    from irscale.measures.results import Evaluation
    from irscale.stats.results import AnovaResult, PairwiseComparisons

    classes = {"Evaluation": Evaluation, "ScoreMatrix": ScoreMatrix, "AnovaResult": AnovaResult,
               "PairwiseComparisons": PairwiseComparisons, "UnjudgedBounds": UnjudgedBounds}
    for result, cls in classes.items():
        for name in dir(cls):
            method = getattr(cls, name)
            if name.startswith("_") or not inspect.isfunction(method):
                continue
            yield pytest.param(result, name, method, id=f"{result}.{name}")


def _method_cases(method: Callable[..., Any]) -> Iterator[tuple[str, str]]:
    """(parameter, wrong value) of every case of a method: each parameter but ``self``,
    ``*args`` and ``**kwargs``, with each value of :data:`WRONG` and a number beyond 64
    bits (None not where it is the documented default)."""
    for parameter in list(inspect.signature(method).parameters.values())[1:]:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        for wrong in (*WRONG, "huge"):
            if parameter.default is None and wrong == "None":
                continue
            yield parameter.name, wrong


def _check_method_named(result: str, method: str, param: str, wrong: str) -> None:
    """The method of a fresh :data:`RESULTS` object given the wrong value returns, or
    raises an irscale error naming a parameter given a wrong value."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        target = getattr(RESULTS[result](), method)
    value = 10**20 if wrong == "huge" else WRONG[wrong]()
    required = [p.name for p in inspect.signature(target).parameters.values()
                if p.default is inspect.Parameter.empty and p.name != param and
                p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    all_wrong = any(name not in EXAMPLES for name in required)
    wrongs = {param, *(required if all_wrong else ())}
    kwargs = {name: value if name in wrongs else EXAMPLES[name]() for name in required}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target(**kwargs, **{param: value})
    except IrscaleError as error:
        assert any(name in str(error) for name in wrongs) or TEXT in str(error) or \
            "xx" in str(error), str(error)


@pytest.mark.parametrize(("result", "method", "function"), list(_method_rows()))
def test_a_wrong_argument_of_a_results_method_is_named(tmp_path, monkeypatch, result, method,
                                                       function):
    """A method of an object a public function returns (``Evaluation.format``,
    ``AnovaResult.row``) given a wrong value (or a number beyond 64 bits), its other
    required parameters their example (all wrong where one has none), the optional ones
    left at their defaults: it returns, or raises an irscale error that names a parameter
    given a wrong value. Every case of the method (:func:`_method_cases`) runs in a fresh
    folder, on a fresh object; the test fails listing every case that broke."""
    cases = ((f"{param}-{wrong}",
              lambda param=param, wrong=wrong: _check_method_named(result, method, param,
                                                                   wrong))
             for param, wrong in _method_cases(function))
    failed = _failures(cases, tmp_path, monkeypatch)
    assert not failed, f"{len(failed)} cases failed:\n" + "\n".join(failed)

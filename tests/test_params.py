"""The declarations of :mod:`irscale.core.params`: a domain takes its values and refuses
the values it says are outside, whatever their type or size (a ``ParameterError``, never
an ``OverflowError``); every domain the module declares keeps that promise."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irscale.collections import params as cparams
from irscale.core import params
from irscale.core.params import Integers, Names, NumberText, Reals
from irscale.errors import ParameterError
from irscale.evaluation import params as eparams
from irscale.fusion import params as fparams
from irscale.meta import params as mparams
from irscale.online import params as oparams
from irscale.report import params as rparams
from irscale.scales import params as sparams
from irscale.stats import names as stats_names
from irscale.text import params as tparams

#: The modules that declare parameters: the mechanism's and the owners'.
DECLARING = (params, cparams, eparams, fparams, mparams, oparams,
             rparams, sparams, tparams, stats_names)

#: Every domain the modules declare, alone or in a parameter's declaration (text, used as
#: it is given, and a switch have nothing to refuse).
DOMAINS = [(name, domain) for name, domain in (
    (name, value.domain if isinstance(value, params.Param) else value)
    for module in DECLARING for name, value in vars(module).items()
    if isinstance(value, (Integers, Reals, Names, NumberText, params.Size, params.Pattern,
                          params.Param))) if not isinstance(domain, (params.Text, params.Switch))]


@pytest.mark.parametrize(("name", "domain"), DOMAINS, ids=[name for name, _ in DOMAINS])
def test_every_declared_domain_refuses_what_it_says_is_outside(name, domain):
    assert domain.outside()
    for text in domain.outside():
        with pytest.raises(ParameterError, match=r"^where"):
            try:
                value = domain.type(text)
            except ValueError:  # "nan" is a float; "one" is no number: refused as text
                value = text
            domain.check(value, "where")


@given(low=st.integers(-10**6, 10**6), width=st.integers(0, 10**6), strict=st.booleans(),
       value=st.integers(-10**7, 10**7))
def test_integers_take_exactly_their_range(low, width, strict, value):
    domain = Integers(low, low + width, strict=strict)
    if low <= value <= low + width:
        assert domain.check(value, "n") == value
        if strict:  # integer types only
            with pytest.raises(ParameterError, match=r"^n must be"):
                domain.check(float(value), "n")
        else:
            assert domain.check(float(value), "n") == value
    else:
        with pytest.raises(ParameterError, match=f"^n must be {re.escape(domain.text())}"):
            domain.check(value, "n")


@given(value=st.floats(allow_nan=True, allow_infinity=True))
def test_reals_take_exactly_their_interval(value):
    for bounds in ("[]", "()", "(]", "[)"):
        domain = Reals(0.0, 1.0, bounds)
        inside = math.isfinite(value) and (value > 0 or (value == 0 and bounds[0] == "[")) \
            and (value < 1 or (value == 1 and bounds[1] == "]"))
        if inside:
            assert domain.check(value, "x") == value
        else:
            with pytest.raises(ParameterError, match=r"^x must lie in"):
                domain.check(value, "x")


@pytest.mark.parametrize("value", [10**400, -10**400, Fraction(10**400), True, "1", None])
def test_numbers_of_any_size_or_type_are_refused_cleanly(value):
    for domain in (Integers(1, 10), Integers(1, 10, strict=True), Reals(0.0, 1.0), Reals(),
                   params.RISK_ALPHA):
        if domain is params.RISK_ALPHA and value == "1":
            assert domain.check(value, "x") == "1"  # its text, kept as typed
            continue
        with pytest.raises(ParameterError, match=r"^x must"):
            domain.check(value, "x")


def test_integers_strict_refuses_integral_floats_and_names_keep_their_spelling():
    assert Integers(1).check(5.0, "n") == 5
    with pytest.raises(ParameterError, match=re.escape("n must be an integer ≥ 1, got 5.0")):
        Integers(1, strict=True).check(5.0, "n")
    tests = stats_names.TEST
    assert tests.check("Paired-T", "test") == "t" and tests.check("wilcoxon", "test") == \
        "wilcoxon"
    with pytest.raises(ParameterError,
                       match=re.escape("--test: unknown test 'tt'; choose from t, ")):
        tests.check("tt", "--test")


#: Public parameters that share a declaration's name but are another parameter (the
#: generated check below reads every other one as the declaration's): function → its
#: parameter → why it is not the declared one.
NOT_THE_DECLARATION: dict[str, dict[str, str]] = {
    # cli.common_params.FORMAT is the command line's --format of the tables (text by default);
    # the writers' fmt= picks a file format of their own
    "irscale.measures.results.Evaluation.write": {"fmt": "trec_eval's text by default"},
    "irscale.measures.results.Evaluation.format": {"fmt": "trec_eval's text by default"},
    "irscale.measures.results.RunSummaries.format": {"fmt": "trec_eval's text by default"},
    "irscale.measures.zscored.ZScoredEvaluation.write": {"fmt": "trec_eval's text by default"},
    "irscale.io.output.write_results": {"fmt": "trec_eval's text by default"},
    "irscale.io.output.write_summary": {"fmt": "trec_eval's text by default"},
    "irscale.measures.diversity.output.ndeval_text": {"fmt": "ndeval's text by default"},
    "irscale.report.build.Report.format": {"fmt": "the report is a page by default"},
    "irscale.report.tables.format_tables": {"fmt": "the paper's tables by default"},
    "irscale.stats.summary_table.summary_table": {"fmt": "the paper's table by default"},
    # alpha is ndeval's intent redundancy (α-nDCG), not a significance level
    "irscale.core.diversity_kernels.ndeval_family": {"alpha": "ndeval's -alpha"},
    "irscale.measures.diversity.ndeval.ndeval_values": {"alpha": "ndeval's -alpha"},
    # tables of their own precision
    "irscale.meta.splitting.SplitStudy.format": {"digits": "rates in two decimals"},
    "irscale.meta.concordance.concordance_table": {"digits": "whole percentages (Sakai's "
                                                             "Table 2)"},
    # the procedures' decisions as the studies make them, uncorrected unless asked;
    # Benjamini-Hochberg for the bootstrap ANOVA's contrasts
    "irscale.meta.procedures.decide": {"correction": "uncorrected decisions"},
    "irscale.meta.splitting.split_study": {"correction": "uncorrected decisions"},
    "irscale.collections.judgment_noise.judge_noise": {"correction": "uncorrected decisions"},
    "irscale.stats.replicates.bootstrap_anova": {"correction": "FDR of the contrasts"},
    # the click model to fit or calibrate, not the simulated users of --model
    "irscale.online.clickmodels.fit_click_model": {"model": "a click model's name"},
    "irscale.online.user_models.calibrate": {"model": "a user model's name"},
    # the switches --runs (every run's mean) and --pairs (every pair's difference) and the
    # label files of --labels share the names only
    "irscale.scales.enumeration.synthetic_rankings": {"runs": "the synthetic runs' names"},
    "irscale.scales.stream.sorted_slices": {"pairs": "a slice's number of candidate pairs"},
    "irscale.stats.qpp.qpp_anova": {"labels": "the two tables' names in messages"},
    "irscale.stats.qpp.qpp_compare": {"labels": "the two tables' names in messages"},
    "irscale.stats.qpp.qpp_correlations": {"labels": "the two tables' names in messages"},
}


def _declarations():
    """Every :class:`~irscale.core.params.Param` that a module of irscale declares (``NAME =
    Param(...)`` at its top level, read from the source: an imported declaration is counted
    once, with its owner), outside the command line: (owner module, declaration)."""
    import ast
    import importlib
    from pathlib import Path

    import irscale

    root = Path(irscale.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        module = ".".join(("irscale", *path.relative_to(root).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        if module.startswith("irscale.cli") or module == "irscale.__main__":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                    getattr(node.value.func, "id", None) == "Param":
                loaded = importlib.import_module(module)
                found += [(module, getattr(loaded, target.id)) for target in node.targets
                          if isinstance(target, ast.Name)]
    return found


def _public_callables():
    """The public functions of irscale: every name of ``__all__`` (a module without one: its
    public names defined there) of irscale and of every public module of its packages
    outside the command line, with the public methods and constructors of public classes;
    as (qualified name, function)."""
    import importlib
    import inspect
    import pkgutil

    import irscale

    modules = [irscale] + [importlib.import_module(info.name) for info in
                           pkgutil.walk_packages(irscale.__path__, "irscale.")
                           if not info.name.startswith("irscale.cli") and not any(
                               part.startswith("_") for part in info.name.split("."))]
    seen: set[object] = set()  # objects, and the names of the API edge's wrappers
    for module in modules:
        names = getattr(module, "__all__", None) or [
            name for name, value in vars(module).items() if not name.startswith("_")
            and getattr(value, "__module__", None) == module.__name__]
        for name in names:
            value = getattr(module, name)
            if id(value) in seen or not getattr(value, "__module__", "").startswith("irscale"):
                continue
            seen.add(id(value))
            if inspect.isfunction(value):
                full = f"{value.__module__}.{value.__qualname__}"
                if full not in seen:
                    seen.add(full)
                    yield full, value
            elif inspect.isclass(value):
                for attribute, member in vars(value).items():
                    member = getattr(member, "__func__", member)  # class and static methods
                    if not inspect.isfunction(member) or (
                            attribute != "__init__" and attribute.startswith("_")):
                        continue
                    # named where it is written: the edge puts wrappers of inherited methods
                    # in the class itself once one of its objects is returned
                    full = f"{member.__module__}.{member.__qualname__}"
                    if full not in seen:
                        seen.add(full)
                        yield full, member


def _same(param, value) -> bool:
    """Whether ``value`` is the declared default (a number kept as typed, ndeval's
    ``-riskAlpha``, compares as the number)."""
    if isinstance(param.domain, NumberText) and value is not None and param.default is not None:
        return float(value) == float(param.default)
    return value == param.default


def _declared(param, value) -> bool:
    """Whether ``value`` is one of the declaration's values (a parameter whose default lies
    outside shares the name only: ``correction=True`` of the Mann-Whitney test)."""
    if not hasattr(param.domain, "check"):  # text and switches
        return True
    try:
        param.domain.check(value, param.name)
    except (ParameterError, TypeError, ValueError):
        return False
    return True


def _links():
    """(function's name, parameter, its default, the declarations it is read as): every
    parameter of a public function whose name is the Python name (or the command line's
    ``dest``) of a declaration the function's layer can read (tests/test_layers.py), whose
    default is one of that declaration's values, and which :data:`NOT_THE_DECLARATION` does
    not set apart. Several declarations of one name (``depth``: pooling's and
    leave-one-out's) are all candidates."""
    import inspect

    from tests.test_layers import LAYERS

    def layer(module: str) -> int:
        return LAYERS[module.split(".")[1]] if "." in module else max(LAYERS.values())

    declarations = _declarations()
    for name, function in _public_callables():
        readable = [param for owner, param in declarations
                    if layer(owner) <= layer(function.__module__)]
        for parameter in inspect.signature(function).parameters.values():
            if parameter.default is parameter.empty or \
                    parameter.name in NOT_THE_DECLARATION.get(name, {}):
                continue
            named = [param for param in readable if parameter.name in (param.name, param.dest)]
            if named and any(_declared(param, parameter.default) for param in named):
                yield name, parameter.name, parameter.default, named


def test_the_functions_take_the_declared_defaults():
    """Every public function's parameter that is a declared parameter (:func:`_links`, found
    by walking the API, no hand-written table) takes the declared default, or None, the
    function's sentinel for "the declared default"; a declaration whose default is None
    leaves the default to each function (its ``unset`` says so: ``-B`` is 10,000
    randomizations or 1,000 bootstraps). A default changed in one place only fails here,
    so the help of an option built from a declaration states the functions' default."""
    links = list(_links())
    assert {("irscale.evaluation.api.evaluate", "relevance_level"),
            ("irscale.collections.pooling.pool", "p")} <= {(f, p) for f, p, _, _ in links}
    wrong = [(function, parameter, default, [param.default for param in named])
             for function, parameter, default, named in links
             if default is not None and not any(param.default is None or _same(param, default)
                                                for param in named)]
    assert not wrong, wrong


def test_every_exception_names_a_public_parameter_of_another_default():
    """:data:`NOT_THE_DECLARATION` names public parameters that exist and differ from the
    declaration of their name (an entry left after a fix would hide a later change)."""
    import inspect

    functions = dict(_public_callables())
    for name, parameters in NOT_THE_DECLARATION.items():
        signature = inspect.signature(functions[name])
        for parameter in parameters:
            assert parameter in signature.parameters, (name, parameter)


def test_an_api_error_names_the_option_its_declaration_spells():
    """An error a function raises about a parameter carries its name, and the command line
    names the option there (``cli.main.named``), in one place for every subcommand."""
    from irscale.cli.main import build_parser, named

    args = build_parser("pool").parse_args(["pool", "build", "--strategy", "rbp", "a.run",
                                            "b.run"])
    with pytest.raises(ParameterError) as error:
        cparams.POOL_P.check(1.5)
    assert error.value.param == "p"
    assert str(named(error.value, args)).startswith("-p/--p (p) must lie in (0, 1)")
    assert named(error.value, None) is error.value  # outside a command line: as raised

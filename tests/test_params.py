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

from irscale.core import params
from irscale.core.params import Integers, Names, NumberText, Reals
from irscale.errors import ParameterError
from irscale.stats import names as stats_names

DOMAINS = [(name, value) for module in (params, stats_names)
           for name, value in vars(module).items()
           if isinstance(value, (Integers, Reals, Names, NumberText, params.Size))]


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

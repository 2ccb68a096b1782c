"""The two-system tests by name, and a dispatcher :func:`two_sample_test`.

=================== ======== ====================================================
name                paired   test
=================== ======== ====================================================
``t``               yes      paired Student's t-test
``student``         no       two-sample t-test, pooled variance
``welch``           no       two-sample Welch t-test
``wilcoxon``        yes      Wilcoxon signed-rank test
``sign``            yes      sign test
``mann-whitney``    no       Wilcoxon rank-sum / Mann–Whitney U test
``randomization``   yes      paired randomisation (sign-flip) test
``bootstrap``       yes      Sakai's paired studentised bootstrap test
``bootstrap-shift`` yes      bootstrap-shift test
``unpaired-bootstrap`` no    Sakai's unpaired bootstrap test
=================== ======== ====================================================
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .names import TEST, TEST_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from ._twosample import TestSpec
    from .results import TestResult
    from .validation import Alternative

#: Where each test of :data:`~irscale.stats.names.TEST_NAMES` is declared (its module and
#: the :class:`~irscale.stats._twosample.TestSpec` there): a call imports the module of the
#: test it runs, not those of the others (``irscale compare --test t`` loads neither the
#: resampling nor the rank tests).
DECLARED: dict[str, tuple[str, str]] = {
    "t": ("parametric", "PAIRED_T"), "student": ("parametric", "STUDENT_T"),
    "welch": ("parametric", "WELCH_T"), "wilcoxon": ("nonparametric", "WILCOXON"),
    "sign": ("nonparametric", "SIGN"), "mann-whitney": ("nonparametric", "MANN_WHITNEY"),
    "randomization": ("randomization", "RANDOMIZATION"),
    "bootstrap": ("bootstrap", "PAIRED_BOOTSTRAP"),
    "bootstrap-shift": ("bootstrap", "BOOTSTRAP_SHIFT"),
    "unpaired-bootstrap": ("bootstrap", "UNPAIRED_BOOTSTRAP"),
}
#: Every registered test by name, in :data:`~irscale.stats.names.TEST_NAMES`' order: built
#: (every test's module imported) when first read, by the module's ``__getattr__``.
TESTS: dict[str, TestSpec]


def _declared(name: str) -> TestSpec:
    """The test ``name`` (a key of :data:`DECLARED`), its module imported."""
    module, attribute = DECLARED[name]
    spec: TestSpec = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
    return spec


def __getattr__(name: str) -> Any:
    """``TESTS``: every registered test by name (:data:`~irscale.stats.names.TEST_NAMES`'
    order), their modules imported when it is first read."""
    if name == "TESTS":
        tests = {test: _declared(test) for test in TEST_NAMES}
        globals()["TESTS"] = tests
        return tests
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def test_spec(name: str) -> TestSpec:
    """The registered test called ``name`` (or one of its aliases:
    :data:`irscale.stats.names.TEST`)."""
    return _declared(TEST.check(name, "test"))


test_spec.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def two_sample_test(
    x: object,
    y: object = None,
    *,
    test: str = "t",
    systems: Sequence[str] | None = None,
    measure: str | None = None,
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
    **options: object,
) -> TestResult:
    """Run the two-system test named ``test`` (see the table above) with its ``options``."""
    from ._twosample import run_test

    return run_test(test_spec(test), x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, **options)


two_sample_test.__test__ = False  # type: ignore[attr-defined]

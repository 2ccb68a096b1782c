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

from collections.abc import Sequence

from ._twosample import TestSpec, run_test
from .bootstrap import BOOTSTRAP_SHIFT, PAIRED_BOOTSTRAP, UNPAIRED_BOOTSTRAP
from .names import TEST
from .nonparametric import MANN_WHITNEY, SIGN, WILCOXON
from .parametric import PAIRED_T, STUDENT_T, WELCH_T
from .randomization import RANDOMIZATION
from .results import TestResult
from .validation import Alternative

TESTS: dict[str, TestSpec] = {
    spec.name: spec
    for spec in (PAIRED_T, STUDENT_T, WELCH_T, WILCOXON, SIGN, MANN_WHITNEY, RANDOMIZATION,
                 PAIRED_BOOTSTRAP, BOOTSTRAP_SHIFT, UNPAIRED_BOOTSTRAP)
}

def test_spec(name: str) -> TestSpec:
    """The registered test called ``name`` (or one of its aliases:
    :data:`irscale.stats.names.TEST`)."""
    return TESTS[TEST.check(name, "test")]


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
    return run_test(test_spec(test), x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, **options)


two_sample_test.__test__ = False  # type: ignore[attr-defined]

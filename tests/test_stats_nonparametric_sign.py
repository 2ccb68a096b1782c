"""The sign test when its threshold leaves no topic untied."""

from __future__ import annotations

import numpy as np
import pytest

from irscale.errors import NoVarianceWarning
from irscale.stats import sign_test


def test_a_threshold_no_difference_exceeds_is_said_to_leave_nothing_to_test():
    x, y = np.array([0.1, 0.2, 0.3, 0.5]), np.array([0.2, 0.1, 0.3, 0.4])
    with pytest.warns(NoVarianceWarning, match="exceeds the threshold"):
        result = sign_test(x, y, threshold=1.0)
    assert result.pvalue == 1.0


def test_a_threshold_some_differences_exceed_tests_them_without_a_warning():
    import warnings

    x, y = np.array([0.1, 0.2, 0.3, 0.5]), np.array([0.2, 0.1, 0.3, 0.4])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = sign_test(x, y, threshold=0.01)
    # two positive (0.1 > 0.01 on topics 2 and 4) and one negative difference: binomial
    # two-sided p of 2 successes in 3 trials is 1
    assert result.statistic == 2 and result.pvalue == 1.0

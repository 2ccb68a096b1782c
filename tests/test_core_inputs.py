"""The readers' duplicate policy (``duplicates=``) is checked with the error of the contract;
scores beyond a C float are warned about, counted and the first named."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import irscale
from irscale.core import inputs
from irscale.core._columnar.duplicates import DUPLICATE_POLICIES, check_duplicate_policy
from irscale.errors import ParameterError


@pytest.mark.parametrize("policy", ["bogus", "", "ERROR", None, ["first"]])
def test_unknown_duplicate_policy(policy):
    with pytest.raises(ParameterError, match=r"unknown duplicate policy \(duplicates\) .*: "
                       r"use one of 'error', 'first', 'last', 'max'$"):
        check_duplicate_policy(policy)


def test_readers_refuse_unknown_duplicate_policy(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n1 0 d1 2\n")
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 d1 1 0.5 r\n")
    with pytest.raises(ParameterError, match="'bogus'"):
        irscale.read_qrels(qrels, duplicates="bogus")
    with pytest.raises(ParameterError, match="'x'"):
        irscale.read_run(run, duplicates="x")
    for policy in DUPLICATE_POLICIES[1:]:
        assert len(irscale.read_qrels(qrels, duplicates=policy).topic) == 1


@given(st.lists(st.sampled_from([0.0, -0.0, 1.5, -2.0, 1e39, -1e39, 1e-50, -1e-50, 3.4e38,
                                 1e-45]), min_size=1, max_size=40),
       st.sampled_from([1, 3, 7, 1 << 18]))
def test_scores_beyond_c_floats_warned_with_count_and_first_row(scores, chunk):
    """Checked in pieces of any size, the warning counts every score that becomes infinite
    or 0 as a C float and names the first, as a check of the whole column does."""
    score = np.array(scores)
    with np.errstate(over="ignore", under="ignore"):
        single = score.astype(np.float32)
    lost = [i for i, (s, f) in enumerate(zip(score, single, strict=True))
            if np.isinf(f) or (f == 0 and s != 0)]
    with pytest.MonkeyPatch.context() as patch, warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        patch.setattr(inputs, "_CHECKED_ROWS", chunk)
        inputs.warn_single_precision(score, "run", lambda row: (row + 1, f"row {row}"))
    if not lost:
        assert not seen
    else:
        (warning,) = seen
        assert f"run, line {lost[0] + 1}: " in str(warning.message)
        assert f"({len(lost)} such score(s), e.g. 'row {lost[0]}')" in str(warning.message)

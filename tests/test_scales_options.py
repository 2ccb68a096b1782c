"""The options of the scales (N, levels, recall base) are checked where they enter, and the
errors name them as the command line and the Python API spell them (docs/errors.md §2)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from irscale.errors import InputError, ParameterError
from irscale.scales import Context, Space, scale, tau_table, transform
from irscale.scales.space import MAX_LEVELS, MAX_RECALL_BASE
from irscale.stats.kendall import kendall_tau


@pytest.mark.parametrize("levels", [1, 0, -3, MAX_LEVELS + 1, 10**30, 2.0, True, "3"])
def test_levels_named(levels):
    with pytest.raises(ParameterError, match=r"\(--levels, levels\) must be an integer from "
                       rf"2 to {MAX_LEVELS}"):
        scale("AP", 3, levels, progress=False)


@pytest.mark.parametrize("N", [0, -2, 2**63, 3.0])
def test_length_named(N):
    with pytest.raises(ParameterError, match=r"run length N \(-N, N\) must be an integer"):
        scale("AP", N, progress=False)


def test_length_none_refused_on_entry():
    """None is refused on entry by the length's domain, which the binding of
    :func:`irscale.scales.scale` declares (``SCALE_LENGTH``), in its words."""
    with pytest.raises(ParameterError, match=r"^run length N \(-N, N\) must be an integer "
                       r"from 1 to \d+, got None$") as caught:
        scale("AP", None, progress=False)
    assert caught.value.param == "N" and caught.value.__cause__ is None


def test_highest_levels_allowed():
    assert scale("P", 2, MAX_LEVELS, progress=False).n_runs == MAX_LEVELS**2
    assert Space(np.int64(3), np.int8(3)) == Space(3, 3)


@pytest.mark.parametrize("levels, recall_base", [
    (2, [1, 2]),  # more counts than relevant degrees (the c + 1 form is a Context)
    (3, [5]),  # fewer
    (2, []),
])
def test_recall_base_one_count_per_relevant_degree(levels, recall_base):
    with pytest.raises(ParameterError, match=r"recall base \(--recall-base, recall_base\) "
                       rf"takes {levels - 1} count"):
        scale("AP", 3, levels, recall_base=recall_base, progress=False)


@pytest.mark.parametrize("recall_base", [[-1], [MAX_RECALL_BASE + 1], [10**20], [1.5],
                                         ["2"], [None], 10**20, -1])
def test_recall_base_counts_bounded(recall_base):
    with pytest.raises(ParameterError, match=r"recall base count \(--recall-base, "
                       rf"recall_base\) must be an integer from 0 to {MAX_RECALL_BASE}"):
        scale("AP", 3, recall_base=recall_base, progress=False)


@pytest.mark.parametrize("recall_base", ["5", 2.5, object()])
def test_recall_base_not_a_sequence(recall_base):
    with pytest.raises(ParameterError, match="recall_base"):
        scale("AP", 3, recall_base=recall_base, progress=False)


def test_recall_base_forms_accepted():
    base = scale("AP", 3, recall_base=[MAX_RECALL_BASE], progress=False).context
    assert base.recall_base == (0, MAX_RECALL_BASE)
    assert scale("AP", 3, recall_base=np.int64(4), progress=False).context.recall_base == (0, 4)
    graded = scale("nDCG_b02", 3, 3, recall_base=2, progress=False).context
    assert graded.recall_base == (0, 0, 2)
    full = scale("AP", 3, recall_base=Context((5, 2)), progress=False).context
    assert full.recall_base == (5, 2)
    with pytest.raises(ParameterError, match="Context for 3 relevance degrees"):
        scale("AP", 3, 3, recall_base=Context((5, 2)), progress=False)
    with pytest.raises(ParameterError, match="recall base count"):
        Context((0, MAX_RECALL_BASE + 1))


@pytest.mark.parametrize("kwargs, needle", [
    ({"N": 0}, r"run length N \(-N, N\)"),
    ({"N": -2}, r"run length N \(-N, N\)"),
    ({"N": 3, "levels": 1}, r"\(--levels, levels\)"),
    ({"N": 3, "relevance_level": 0}, r"\(-l, relevance_level\)"),
])
def test_transform_checks_before_reading(kwargs, needle):
    # the files do not exist: the options are refused before anything is read
    with pytest.raises(ParameterError, match=needle):
        transform("missing.qrels", ["missing.run"], "AP", **kwargs)


@pytest.mark.parametrize("Ns, kwargs, needle", [
    ([3, -4], {}, r"\(-N, Ns\): a run length N must be an integer from 1 .*got -4"),
    ([0], {}, r"\(-N, Ns\)"),
    ([], {}, r"\(-N, Ns\)"),
    ([5], {"levels": 0}, r"\(--levels, levels\)"),
    (5.0, {}, r"\(-N, Ns\): a run length N must be an integer from 1 .*got 5.0"),
    ("5", {}, r"\(-N, Ns\): a run length N must be an integer from 1 .*got '5'"),
])
def test_tau_table_checks_before_reading(Ns, kwargs, needle):
    with pytest.raises(ParameterError, match=needle):
        tau_table("missing.qrels", ["missing.run"], ["AP"], Ns, **kwargs)


@pytest.mark.parametrize("x, y, needle", [
    ([0.1, np.nan, 0.3], [0.3, 0.2, 0.1], r"x\[1\] = nan"),
    ([0.1, 0.2, 0.3], [np.inf, np.inf, 0.1], r"y\[0\] = inf \(2 such scores\)"),
    (["a", "b"], [1.0, 2.0], "scores x must be numbers"),
])
def test_kendall_tau_refuses_non_finite_scores_without_warnings(x, y, needle):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InputError, match=needle):
            kendall_tau(np.asarray(x, dtype=object), y)

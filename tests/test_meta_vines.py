"""R-vine copulas of the copula simulation (irscale.meta.vines, the optional pyvinecopulib):
the draws keep the input's Kendall τ matrix (scipy.stats) on a non-elliptical (Clayton)
dependence where a Gaussian copula's tail is visibly wrong, discrete margins enter the vine
and stay on their grid, seeds reproduce the draws, the one-line error without
pyvinecopulib (its import blocked) while ``auto`` keeps working, and importing irscale
does not import pyvinecopulib."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import ParameterError
from irscale.meta import CopulaModel, simulate_scores
from irscale.meta.vines import VINE_FAMILIES, vine_observations

from .oracle_imports import lazy_import, lazy_importorskip

sps = lazy_import("scipy.stats")

pyvinecopulib = lazy_importorskip("pyvinecopulib")  # what every test here needs


def clayton_scores(n: int, theta: float, seed: int) -> np.ndarray:
    """n topics of three systems whose pairs (1, 2) and (2, 3) follow Clayton copulas of
    parameter θ (τ = θ/(θ + 2)), drawn by the conditional inverse
    u₂ = (u₁^(−θ) (w^(−θ/(1+θ)) − 1) + 1)^(−1/θ), with beta margins."""
    rng = np.random.default_rng(seed)
    w = rng.random((n, 3))
    u = np.empty_like(w)
    u[:, 0] = w[:, 0]
    for s in (1, 2):
        u[:, s] = (u[:, s - 1] ** -theta * (w[:, s] ** (-theta / (1 + theta)) - 1) + 1) \
            ** (-1 / theta)
    return np.column_stack([sps.beta(2, 5).ppf(u[:, 0]), sps.beta(3, 3).ppf(u[:, 1]),
                            sps.beta(5, 2).ppf(u[:, 2])])


def lower_tail(values: np.ndarray, i: int, j: int, q: float = 0.05) -> float:
    """P(U_j ≤ q | U_i ≤ q) of the empirical ranks: the lower-tail dependence at q."""
    u = sps.rankdata(values, axis=0) / len(values)
    low = u[:, i] <= q
    return float(np.mean(u[low, j] <= q))


@pytest.fixture(scope="module")
def clayton():
    return clayton_scores(1500, 3.0, seed=1)


def test_the_vine_keeps_the_kendall_tau_matrix_and_the_tails(clayton):
    """20,000 simulated topics: every Kendall τ within 0.03 of the input's (scipy.stats),
    the lower-tail dependence of the Clayton pairs within 0.1 of the input's, where the
    Gaussian copula's is lower by more than 0.1."""
    model = CopulaModel.fit(clayton, copula="vine", topics=20_000)
    drawn = model.draw(np.random.default_rng(2))
    gaussian = CopulaModel.fit(clayton, topics=20_000).draw(np.random.default_rng(2))
    for i, j in ((0, 1), (0, 2), (1, 2)):
        assert sps.kendalltau(drawn[:, i], drawn[:, j])[0] == pytest.approx(
            sps.kendalltau(clayton[:, i], clayton[:, j])[0], abs=0.03)
    for i, j in ((0, 1), (1, 2)):
        truth = lower_tail(clayton, i, j)
        assert lower_tail(drawn, i, j) == pytest.approx(truth, abs=0.1)
        assert lower_tail(gaussian, i, j) < truth - 0.1
    described = model.describe()
    assert described["copula"] == "vine"
    assert len(described["pair_copulas"]) == 3
    assert set(described["pair_copulas"]) <= set(VINE_FAMILIES)


def test_discrete_margins_enter_the_vine_and_stay_on_their_grid(clayton):
    """A P@10-like system (the Clayton scores cut into tenths): its draws are multiples of
    0.1 and its Kendall τ with the others is the input's within 0.03."""
    data = clayton[:, :2].copy()
    data[:, 1] = np.floor(sps.rankdata(data[:, 1]) / (len(data) + 1) * 11) / 10
    model = CopulaModel.fit(data, copula="vine", topics=20_000)
    assert model.margins[1].family in ("bbinom", "dks")
    drawn = model.draw(np.random.default_rng(3))
    assert set(np.unique(drawn[:, 1])) <= set(np.arange(11) / 10)
    assert sps.kendalltau(drawn[:, 0], drawn[:, 1])[0] == pytest.approx(
        sps.kendalltau(data[:, 0], data[:, 1])[0], abs=0.03)


def test_vine_observations_of_discrete_systems_are_the_cdf_and_its_left_limit():
    """By hand: scores (0.1, 0.3, 0.3, 0.7) of n = 4 topics give F̂ = #{x_t ≤ x}/5 and
    F̂(x⁻) = #{x_t < x}/5; a continuous system's left limit is its u."""
    values = np.array([[0.1, 0.2], [0.3, 0.4], [0.3, 0.1], [0.7, 0.3]])
    u = vine_observations(values, np.array([True, False]))
    np.testing.assert_allclose(u[:, 0], [1 / 5, 3 / 5, 3 / 5, 4 / 5])
    np.testing.assert_allclose(u[:, 2], [0, 1 / 5, 1 / 5, 3 / 5])
    np.testing.assert_allclose(u[:, 1], [2 / 5, 4 / 5, 1 / 5, 3 / 5])
    np.testing.assert_array_equal(u[:, 3], u[:, 1])
    assert vine_observations(values, np.array([False, False])).shape == (4, 2)


def test_seeds_make_the_vine_draws_reproducible(clayton):
    data = clayton[:60]
    a = simulate_scores(data, copula="vine", n_topics=40, rng=1)
    b = simulate_scores(data, copula="vine", n_topics=40, rng=1)
    c = simulate_scores(data, copula="vine", n_topics=40, rng=2)
    assert a.scores.equals(b.scores) and not a.scores.equals(c.scores)
    assert "vine copula" in repr(a)


def test_without_pyvinecopulib_the_vine_is_one_clear_error(clayton, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyvinecopulib", None)  # its import raises
    matrix = ScoreMatrix.from_array(clayton[:40], systems=["a", "b", "c"])
    with pytest.raises(ParameterError) as error:
        simulate_scores(matrix, copula="vine", rng=1)
    assert str(error.value) == ("copula 'vine' needs pyvinecopulib: "
                                "pip install 'irscale[vines]'")
    assert simulate_scores(matrix, copula="auto", rng=1).model.copula.family in ("gaussian",
                                                                                 "t")


def test_importing_irscale_does_not_import_pyvinecopulib():
    code = ("import sys, irscale, irscale.meta, irscale.meta.vines; "
            "print('pyvinecopulib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"

"""Damped Newton's method and continuation in a constraint's value, shared by the maximum
entropy distributions of :mod:`irscale.meta.informativeness` (AP) and
:mod:`irscale.meta.intent_informativeness` (the cascade and intent-aware measures).

Both solve the stationarity conditions of a maximum entropy problem, ``r(z) = 0`` with
z = (logits, multipliers) and the measure's value in the last residual, and follow the
solution in that value from a point where it is known (Allgower & Georg 1990, "Numerical
Continuation Methods", ch. 2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

#: ``residual(z)`` → (r, state): the residual at z and what the step needs there.
Residual = Callable[[np.ndarray], "tuple[np.ndarray, Any]"]
#: ``solver(z, state)`` → ``r ↦ d`` with J(z)·d = −r (one factorisation, many steps).
Solver = Callable[[np.ndarray, Any], Callable[[np.ndarray], np.ndarray]]


def damped_newton(z: np.ndarray, residual: Residual, solver: Solver, iterations: int = 100,
                  shortest: float = 1e-10, tolerance: float = 1e-11
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """Newton's method from ``z`` until max |r| < ``tolerance``: the last (z, r) reached
    within ``iterations`` steps (the caller checks r), None where a damped step shorter
    than ``shortest`` is needed.

    Damping by the natural monotonicity test (Deuflhard 2004, "Newton Methods for
    Nonlinear Problems", §3.3): a step t is taken when the simplified Newton correction at
    z + t·step (the same Jacobian) shrinks by (1 − t/4); it needs a few steps where a test
    on the residual's norm took dozens of tiny ones."""
    (r, state), t = residual(z), 1.0
    for _ in range(iterations):
        if np.max(np.abs(r)) < tolerance:
            break
        solve = solver(z, state)
        step = solve(r)
        norm = np.linalg.norm(step)
        t = min(1.0, 2.0 * t)
        while t > shortest:
            trial = z + t * step
            r_trial, state_trial = residual(trial)
            if np.all(np.isfinite(r_trial)) and \
                    np.linalg.norm(solve(r_trial)) <= (1 - t / 4) * norm:
                break
            t /= 2
        else:
            return None
        z, r, state = trial, r_trial, state_trial
    return z, r


def follow(z: np.ndarray, at: float, value: float,
           correct: Callable[[np.ndarray, float], np.ndarray | None],
           tangent: Callable[[np.ndarray], np.ndarray], attempts: int = 60
           ) -> np.ndarray | None:
    """Continuation of the solution ``z`` at value ``at`` to ``value``: a tangent predictor
    (``tangent(z)`` = dz/dvalue) and the corrector ``correct(z, target)`` (Newton's method
    at that value, None where it fails), the step doubled after a success and cut by 4
    after a failure; None where the steps shrink below 10⁻³ of the way left (the branch
    folds back before ``value``) or ``attempts`` corrections do not get there."""
    step = value - at
    for _ in range(attempts):
        if at == value:
            return z
        target = value if abs(step) >= abs(value - at) else at + step
        solved = correct(z + (target - at) * tangent(z), target)
        if solved is None:
            step /= 4
            if abs(step) < 1e-3 * abs(value - at):
                return None
            continue
        z, at, step = solved, target, 2 * step
    return z if at == value else None

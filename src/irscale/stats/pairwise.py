"""Pairwise two-system tests over a declared family, with multiple-comparison control.

The family is every pair of systems × every measure × every collection given: all their
p-values are adjusted together (:mod:`irscale.stats.corrections`), which is what
controlling the FWER or FDR of the whole experiment means (Ferro & Maistro 2024, §4.2.4; Fuhr, 2017;
Sakai, 2018). Each (collection, measure) group runs the test's kernel once on all its
pairs (vectorised; Monte Carlo tests use the same seed in every group — common random
numbers — so a pair's p-value equals that of the single-pair test with the same seed).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core import ScoreMatrix
from ..core.params import RESAMPLES
from ..core.progress import phase_progress, progress_callback
from ..errors import NoVarianceWarning, ParameterError
from ..io.naming import RunKey, find_names, find_run, run_keys
from ..parallel import check_executor, executor_scope, is_local, is_ready
from ._twosample import NO_SPREAD, pair_columns, spreadless_warning
from .corrections import Correction, adjust_pvalues, correction_name
from .params import PAIRWISE
from .registry import test_spec
from .resampling import (
    check_rng,
    fresh_seed_sequence,
    rng_options,
    seed_sequence,
)
from .results import PairwiseComparisons
from .validation import (
    Alternative,
    chosen_measures,
    score_table,
    wins_ties_losses,
)


def _groups(
    data: object, measures: list[str] | None
) -> list[tuple[str | None, str | None, object]]:
    """(collection, measure, data) for every group of the family."""
    collections: list[tuple[str | None, object]]
    if isinstance(data, Mapping):
        collections = [(str(name), value) for name, value in data.items()]
        if not collections:
            raise ParameterError("data: an empty mapping (no collection of scores)",
                                 param="data")
    else:
        collections = [(None, data)]
    groups: list[tuple[str | None, str | None, object]] = []
    for name, value in collections:
        if isinstance(value, ScoreMatrix):
            wanted = measures if measures is not None else list(value.measures)
            groups += [(name, m, value) for m in wanted]
        else:
            groups.append((name, None, value))
    return groups


@PAIRWISE
def pairwise_tests(
    data: object,
    test: str = "t",
    *,
    correction: Correction | None = "holm",
    alpha: float = 0.05,
    alternative: Alternative = "two-sided",
    measures: str | Sequence[str] | None = None,
    measure: str | None = None,
    systems: Sequence[str] | None = None,
    baseline: str | Sequence[str] | None = None,
    **options: object,
) -> PairwiseComparisons:
    """Test every pair of systems and adjust the p-values over the whole family.

    ``data`` is a score matrix (every measure in it, or those in ``measures``: one name or
    a list; ``measure="AP"``, the keyword of the tests of one measure, is ``measures=["AP"]``),
    a wide DataFrame or 2-D array, or a mapping ``{collection: score matrix}``. ``systems``
    restricts the systems compared. ``baseline`` names one system: the family is then every
    other system against it (pairs ``a`` = the system, ``b`` = the baseline, so that
    ``diff`` > 0 means better than the baseline), not every pair. Several baselines
    (``baseline=["bm25", "dph"]``) make one family of every system against each of them,
    corrected together: each pair of systems once, against the first of its two systems
    among the baselines (with baselines A, B: every other system against A, then against B,
    and B against A). ``test`` names a two-system test
    (:data:`irscale.stats.registry.TESTS`) and ``options`` are its options (e.g.
    ``samples``, ``rng``, ``progress``). The result has, per pair, the raw p-value
    ``p_raw``, the adjusted ``p`` and ``significant`` = p ≤ α, with the mean difference,
    its (per-pair, unadjusted) confidence interval, the statistic and effect sizes. Monte
    Carlo tests draw the same random numbers in every group (one stream from ``rng``);
    their ``workers`` / ``executor`` options say where (:mod:`irscale.parallel`).
    Against a ``baseline``, each pair also counts the topics the system ``wins``, ``ties``
    and ``losses`` against it (:func:`~irscale.stats.validation.wins_ties_losses`).
    A pair with nothing to test (identical scores; for the t-tests and the paired
    bootstraps, differences the same on every topic up to rounding: see
    :func:`irscale.stats._twosample.degenerate`) has p = 1 and no statistic; the latter
    with a warning naming them. The test, level and alternative are checked on entry, and
    the resamples, seed and threads given to a test that does not resample refused
    (:data:`irscale.stats.params.PAIRWISE`).
    """
    spec = test_spec(test)
    wanted_measures = chosen_measures(measure, measures)
    baselines = baseline_names(baseline)
    spec.check_options(options)
    options = rng_options(options)
    if "executor" in options and not is_ready(check_executor(options["executor"])):
        # one cluster (or connection) for every group, not one each
        with executor_scope(options["executor"]) as executor:
            return pairwise_tests(data, test, correction=correction, alpha=alpha,
                                  alternative=alternative, measures=wanted_measures,
                                  systems=systems, baseline=baseline,
                                  **{**options, "executor": executor})
    seeds = seed_sequence(rng=check_rng(options.get("rng"))) if spec.resampling else None
    method = correction_name(correction)
    groups = _groups(data, wanted_measures)
    parts: list[dict[str, np.ndarray]] = []
    samples = convention = None
    # the groups: one bar, and the time of the rest stated from the first chunk
    shared = progress_callback(options.get("progress"), units=RESAMPLES,
                               elsewhere=not is_local(options.get("executor", "local")))
    for index, group in enumerate(groups):
        group_options = dict(options)
        if seeds is not None:
            group_options["rng"] = fresh_seed_sequence(seeds)
        if group_options.get("progress") and len(groups) > 1:
            group_options["progress"] = phase_progress(shared, index, len(groups))
        values, names, found, where = _group_inputs(group, systems, baselines)
        outcome, part = _group_part(spec, values, names, found, where, alpha, alternative,
                                    group_options)
        samples, convention = outcome.samples, outcome.convention
        labels: dict[str, np.ndarray] = {}
        collection, group_measure, _ = group
        if isinstance(data, Mapping):
            labels["collection"] = np.full(len(part["a"]), collection, dtype=object)
        if group_measure is not None and (len(groups) > 1 or wanted_measures is not None):
            labels["measure"] = np.full(len(part["a"]), group_measure, dtype=object)
        parts.append({**labels, **part})
    merged = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    ci_se, ci_df = merged.pop("ci_se"), merged.pop("ci_df")
    adjusted = adjust_pvalues(merged["p_raw"], method)
    if method == "none":
        merged["p"] = merged.pop("p_raw")
    else:
        merged["p"] = adjusted
    merged["significant"] = merged["p"] <= alpha
    return PairwiseComparisons(
        method=f"pairwise {spec.label}",
        alpha=alpha,
        columns=merged,
        correction=None if method == "none" else method,
        samples=samples,
        convention=convention,
        note=f"family of {len(adjusted)} comparisons ({len(groups)} group(s) of pairs"
        + _against(baselines),
        extra={"family_size": len(adjusted), "alternative": alternative, "test": spec.name,
               "paired": spec.paired, "ci_se": ci_se, "ci_df": ci_df,
               "baselines": baselines},
    )


def _selected(values: np.ndarray, keys: Sequence[RunKey], systems: Sequence[str],
              collection: str | None) -> tuple[np.ndarray, tuple[str, ...]]:
    """The columns of ``systems`` (two different ones at least, each designating a system
    of the table, ``keys``: :func:`~irscale.io.naming.find_run`), in their order."""
    names = [key.name for key in keys]
    position = {s: i for i, s in enumerate(names)}
    wanted = [find_run(str(s), keys, f"systems of {collection or 'the score table'}:")
              for s in systems]
    if len(set(wanted)) != len(wanted) or len(wanted) < 2:
        raise ParameterError(f"systems must name at least two different systems, "
                             f"got {wanted[:5]}")
    keep = [position[s] for s in wanted]
    return values[:, keep], tuple(names[i] for i in keep)


def _group_inputs(group: tuple[str | None, str | None, object],
                  systems: Sequence[str] | None, baselines: tuple[str, ...] | None
                  ) -> tuple[np.ndarray, list[str], tuple[str, ...] | None,
                             tuple[str | None, str]]:
    """One group's scores and systems (those of ``systems`` only), its baselines found
    among them and how it is named (its collection; collection/measure in a warning): a
    system by its name, or its run's file or run id where the matrix knows them."""
    collection, group_measure, value = group
    values, _, names = score_table(value, group_measure)
    keys = run_keys(value) if isinstance(value, ScoreMatrix) else \
        [RunKey(name) for name in names]
    if systems is not None:
        values, names = _selected(values, keys, systems, collection)
    where = "/".join(str(w) for w in (collection, group_measure) if w is not None)
    found = None if baselines is None else tuple(
        find_run(str(b), keys, f"baseline of {collection or 'the score table'}:")
        for b in baselines)
    return values, list(names), found, (collection, where)


def _group_part(spec: Any, values: np.ndarray, names: Sequence[str],
                baselines: tuple[str, ...] | None, group: tuple[str | None, str], alpha: float,
                alternative: Alternative, options: dict[str, object]
                ) -> tuple[Any, dict[str, np.ndarray]]:
    """The test's outcome on one group's pairs and the group's columns of the family;
    ``group``: its collection and how a warning names it (collection/measure)."""
    collection, where = group
    if baselines is None:
        i, j = np.triu_indices(len(names), k=1)
    else:
        i, j = _baseline_pairs(names, baselines, collection)
    x, y = values[:, i], values[:, j]
    outcome, columns = pair_columns(spec, x, y, alpha=alpha, alternative=alternative,
                                    options=options)
    labels = np.asarray(names, dtype=object)
    spreadless = columns["degenerate"] == NO_SPREAD
    if spreadless.any():
        warnings.warn(spreadless_warning(
            spec, labels[i[spreadless]], labels[j[spreadless]], columns["diff"][spreadless],
            where), NoVarianceWarning, stacklevel=3)
    part: dict[str, np.ndarray] = dict(
        a=labels[i], b=labels[j], mean_a=columns["mean_a"], mean_b=columns["mean_b"],
        diff=columns["diff"], ci_low=columns["ci_low"], ci_high=columns["ci_high"],
        statistic=outcome.statistic)
    if outcome.df is not None:
        part["df"] = outcome.df
    if baselines is not None:
        part["wins"], part["ties"], part["losses"] = wins_ties_losses(x, y)
    part["p_raw"] = outcome.pvalue
    if outcome.mc_se is not None:
        part["mc_se"] = outcome.mc_se
    for key in ("d_z", "hedges_g", "glass_delta", "ci_se", "ci_df"):
        part[key] = columns[key]
    return outcome, part


def baseline_names(baseline: object) -> tuple[str, ...] | None:
    """The baselines ``baseline`` names: None, one system name or a sequence of distinct
    names (a :class:`~irscale.errors.ParameterError` otherwise)."""
    if baseline is None:
        return None
    names = (baseline,) if isinstance(baseline, str) else baseline
    if not isinstance(names, Sequence) or not names or not all(isinstance(n, str)
                                                                for n in names):
        raise ParameterError(f"baseline must name a system or a list of systems, got "
                             f"{baseline!r}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ParameterError(f"baseline names {repeated[0]!r} twice")
    return tuple(names)


def _against(baselines: tuple[str, ...] | None) -> str:
    """The end of a family's note: whom the systems were compared with."""
    if baselines is None:
        return ")"
    if len(baselines) == 1:
        return f" against the baseline {baselines[0]})"
    return f" against the baselines {', '.join(baselines)})"


def _baseline_pairs(names: Sequence[str], baselines: tuple[str, ...], collection: str | None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of every system ``i`` paired with each baseline ``j``: for the
    baselines in order, every system but that baseline and the baselines before it (whose
    pair with it came already)."""
    baselines = tuple(find_names(baselines, names,
                                 f"baseline of {collection or 'the score table'}:"))
    if len(names) < 2:
        raise ParameterError("a baseline needs at least one other system to compare")
    position = {name: k for k, name in enumerate(names)}
    i: list[int] = []
    j: list[int] = []
    done: set[int] = set()
    for name in baselines:
        b = position[name]
        done.add(b)
        others = [k for k in range(len(names)) if k not in done]
        i += others
        j += [b] * len(others)
    return np.array(i, dtype=np.intp), np.array(j, dtype=np.intp)

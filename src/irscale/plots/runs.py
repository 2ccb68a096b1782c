"""Plots of runs evaluated on topics: score distributions, per-topic differences against a
baseline, interpolated precision–recall curves and Tukey HSD intervals.

Every function draws on ``ax`` when given (else on new axes in the style of
:mod:`irscale.io.figures`) and returns the matplotlib ``Axes``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..errors import MeasureError, ParameterError
from ..evaluation import Evaluation
from ..io.figures import PALETTE, label, new_axes
from ..io.naming import find_in, find_names
from ..stats.results import AnovaResult, PairwiseComparisons

__all__ = ["RECALL_LEVELS", "baseline_differences", "interpolated_precision",
           "precision_recall", "score_distributions", "tukey_intervals"]

#: The 11 recall levels of trec_eval's ``iprec_at_recall_*`` (0.0, 0.1, …, 1.0).
RECALL_LEVELS: tuple[str, ...] = tuple(f"iprec_at_recall_{k / 10:.2f}" for k in range(11))


def _matrix(data: Evaluation | ScoreMatrix, measure: str) -> ScoreMatrix:
    if isinstance(data, Evaluation):
        return data.to_matrix(measures=[measure])
    if isinstance(data, ScoreMatrix):
        return data.measure(measure)
    raise ParameterError(f"expected an Evaluation or a ScoreMatrix, got {type(data).__name__}")


def _found(runs: Sequence[str], matrix: ScoreMatrix, what: str) -> list[str]:
    """The names of the runs ``runs`` designate, each by its name, its file or its run id
    where the data knows them (:func:`irscale.core.run_names.find_in`)."""
    return [find_in(str(name), matrix, what) for name in runs]


def _in_table(runs: Sequence[str], data: Evaluation | pd.DataFrame, table: pd.DataFrame
              ) -> list[Any]:
    """The rows of ``table`` (one per run) that ``runs`` designate: by the runs' names,
    files or run ids where ``data`` is an evaluation, else by the table's row labels."""
    if isinstance(data, Evaluation):
        return [find_in(str(name), data, "runs:") for name in runs]
    rows = {str(row): row for row in table.index}
    return [rows[name] for name in find_names([str(name) for name in runs], list(rows),
                                              "runs:")]


def score_distributions(data: Evaluation | ScoreMatrix, measure: str, *,
                        kind: Literal["box", "violin", "both"] = "box",
                        runs: Sequence[str] | None = None, ax: Any = None) -> Any:
    """The per-topic scores of ``measure`` of each run as a box plot (quartiles, whiskers at
    1.5 IQR, the mean as a white dot), a violin plot (kernel density, the mean marked) or
    ``both`` (narrow boxes inside the violins); runs in the given order (default: the
    data's)."""
    if kind not in ("box", "violin", "both"):
        raise ParameterError(f"kind must be 'box', 'violin' or 'both', got {kind!r}")
    matrix = _matrix(data, measure)
    names = list(matrix.systems) if runs is None else _found(runs, matrix, "runs:")
    frame = matrix.to_frame(measure)
    columns = [frame[r].dropna().to_numpy(dtype=np.float64) for r in names]
    ax = new_axes(ax, (max(4.0, 0.45 * len(names) + 1.5), 3.6))
    positions = np.arange(1, len(names) + 1)
    if kind != "box":
        drawn = [k for k, c in enumerate(columns) if len(c)]  # a density needs values
        parts = ax.violinplot([columns[k] for k in drawn], positions=positions[drawn],
                              widths=0.8, showextrema=False)
        for body in parts["bodies"]:
            body.set_facecolor(PALETTE[0])
            body.set_alpha(0.35)
    if kind != "violin":
        ax.boxplot(columns, positions=positions, widths=0.6 if kind == "box" else 0.18,
                   showfliers=True, flierprops={"markersize": 2.5, "alpha": 0.5},
                   medianprops={"color": PALETTE[3]})
    ax.scatter(positions, [c.mean() if len(c) else np.nan for c in columns], s=14,
               color="white", edgecolor="black", zorder=3, label="mean")
    ax.set_xticks(positions, [label(name) for name in names], rotation=60, ha="right")
    ax.set_ylabel(measure)
    shape = {"box": "box plot", "violin": "violin plot", "both": "violin and box plot"}
    ax.set_title(f"{measure} per topic ({shape[kind]})")
    return ax


def baseline_differences(data: Evaluation | ScoreMatrix, measure: str, baseline: str,
                         runs: Sequence[str] | None = None, *, ax: Any = None) -> Any:
    """Per-topic differences ``run − baseline`` of ``measure``, sorted decreasingly.

    One run: a bar per topic (above zero: the run wins the topic). Several runs (default:
    every run but the baseline): one line per run through its sorted differences, so that
    the share of topics above zero (wins) and below (losses) reads off each line.
    """
    matrix = _matrix(data, measure)
    frame = matrix.to_frame(measure)
    baseline = find_in(baseline, matrix)
    names = [r for r in frame.columns if r != baseline] if runs is None else \
        _found(runs, matrix, "runs:")
    if not names:
        raise ParameterError("no run to compare with the baseline")
    diffs = frame[names].to_numpy(np.float64) - frame[[baseline]].to_numpy(np.float64)
    ordered = -np.sort(-diffs, axis=0)  # each column decreasing
    ax = new_axes(ax, (6.0, 3.6))
    x = np.arange(1, len(frame) + 1)
    if len(names) == 1:
        colours = np.where(ordered[:, 0] > 0, PALETTE[2],
                           np.where(ordered[:, 0] < 0, PALETTE[3], "grey"))
        ax.bar(x, ordered[:, 0], color=colours, width=0.85)
        ax.set_title(f"{label(names[0])} − {label(baseline)}: {measure} per topic")
    else:
        for k, name in enumerate(names):
            ax.plot(x, ordered[:, k], label=label(name), linewidth=1.0)
        ax.legend(fontsize=6, ncols=2 if len(names) > 8 else 1)
        ax.set_title(f"{measure}: run − {label(baseline)} per topic (sorted)")
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel("topics, sorted by difference")
    ax.set_ylabel(f"Δ {measure}")
    return ax


def interpolated_precision(evaluation: Evaluation) -> pd.DataFrame:
    """Runs × 11 recall levels (0.0 … 1.0): the mean interpolated precision of each run
    (trec_eval's ``iprec_at_recall_*`` summaries, evaluated with the measure
    ``iprec_at_recall``)."""
    missing = [m for m in RECALL_LEVELS if m not in evaluation.measures]
    if missing:
        raise MeasureError("precision–recall curves need the measure iprec_at_recall "
                           f"(missing: {', '.join(missing)})")
    table = evaluation.mean()[list(RECALL_LEVELS)]
    table.columns = [k / 10 for k in range(11)]
    return table


def precision_recall(data: Evaluation | pd.DataFrame, runs: Sequence[str] | None = None, *,
                     ax: Any = None) -> Any:
    """11-point interpolated precision–recall curves (one line per run) from an
    evaluation with ``iprec_at_recall`` or a table from :func:`interpolated_precision`.
    Interpolated precision at recall r is the highest precision at any recall ≥ r
    (trec_eval; Ferro & Maistro 2024, §3.1). ``runs``: the runs drawn, in order, each by
    its name, or its file or run id where ``data`` is an evaluation
    (:func:`irscale.core.run_names.find_run`; default: every run)."""
    table = interpolated_precision(data) if isinstance(data, Evaluation) else data
    names = list(table.index) if runs is None else _in_table(runs, data, table)
    ax = new_axes(ax, (5.0, 4.0))
    markers = "osD^v<>ph*"
    for k, name in enumerate(names):
        ax.plot(table.columns.astype(float), table.loc[name].to_numpy(np.float64),
                marker=markers[k % len(markers)], markersize=3, linewidth=1.0,
                label=label(name))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, None)
    ax.set_xlabel("recall")
    ax.set_ylabel("interpolated precision")
    ax.set_title("11-point interpolated precision–recall")
    ax.legend(fontsize=6, ncols=2 if len(names) > 8 else 1)
    return ax


def tukey_intervals(result: PairwiseComparisons | AnovaResult, alpha: float = 0.05, *,
                    ax: Any = None) -> Any:
    """Each system's mean with its Tukey HSD comparison interval μ̂_u ± ½ Q^α_{k,ν}
    sqrt(MS_E/m) (Ferro & Maistro 2024, eq. 11, Hochberg & Tamhane), best system on top; two
    intervals overlap exactly when the pair is not significant. Systems that differ from the best
    are drawn in a second colour (as MATLAB's ``multcompare``).

    ``result``: a Tukey HSD (:meth:`AnovaResult.tukey_hsd`, whose α is used) or an ANOVA,
    whose HSD at ``alpha`` is computed."""
    comparisons = result.tukey_hsd(alpha) if isinstance(result, AnovaResult) else result
    if comparisons.half_width is None or "mean_a" not in comparisons.columns:
        raise ParameterError("the per-system intervals of eq. 11 need a Tukey HSD of a "
                             "balanced design (a common half-width and the system means)")
    half = comparisons.half_width
    frame = comparisons.to_frame()
    means = pd.concat([pd.Series(frame["mean_a"].to_numpy(), index=frame["a"]),
                       pd.Series(frame["mean_b"].to_numpy(), index=frame["b"])])
    means = means[~means.index.duplicated()].astype(np.float64)
    means = means.iloc[np.argsort(-means.to_numpy(), kind="stable")]
    best = str(means.index[0])
    differs = {str(r.b) if r.a == best else str(r.a)
               for r in frame.itertuples() if r.significant and best in (r.a, r.b)}
    ax = new_axes(ax, (5.5, max(2.5, 0.25 * len(means) + 1.2)))
    y = np.arange(len(means))[::-1]
    for row, (name, mean) in zip(y, means.items(), strict=True):
        colour = PALETTE[3] if str(name) in differs else PALETTE[0]
        ax.errorbar(mean, row, xerr=half, fmt="o", color=colour, markersize=4, capsize=2,
                    linewidth=1.2)
    ax.set_yticks(y, [label(n) for n in means.index])
    ax.axvspan(means.iloc[0] - half, means.iloc[0] + half, color=PALETTE[0], alpha=0.08)
    ax.grid(True, axis="x")
    ax.set_xlabel("mean")
    ax.set_title(f"Tukey HSD, {100 * (1 - comparisons.alpha):g}% intervals")
    return ax

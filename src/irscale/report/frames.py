"""The tables of the experiment report as data frames (``(id, caption, frame)`` where a
section has several), and their rendering as LaTeX or Markdown: what the sections
(:mod:`irscale.report.sections`) show on the page and print as tables
(:mod:`irscale.report.tables`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..core.numbers import declare, declared
from ..stats.registry import test_spec
from ..stats.summary_table import SummaryCell
from ..stats.tables import check_digits, format_number, render
from .section import TablesFormat

if TYPE_CHECKING:  # pragma: no cover - the type only: build renders through this module
    from ..stats.across_collections import AcrossCollections
    from .content import ReportContent

__all__ = ["ROBUST_SHARE", "SummaryCell", "TablesFormat", "across_frames", "ascii_headers",
           "automatic_frames", "bounds_frames", "comparison_frame", "comparison_table",
           "discriminative_frame", "frames_text", "groups_frame", "noise_frames",
           "robustness_frame", "summary_caption", "summary_cells", "title_text"]


#: The least share of the judge-noise replicates that keep a conclusion's decision (its
#: direction and significance) for the conclusion to be robust (:func:`noise_frames`).
ROBUST_SHARE = 0.95


def _marks(report: ReportContent) -> dict[tuple[str, str], int]:
    if report.comparison is None:
        return {}
    frame = report.comparison
    return {(str(run), str(measure)): (1 if delta > 0 else -1)
            for run, measure, delta, significant in zip(
                frame["run"], frame["measure"], frame["delta"].to_numpy(np.float64),
                frame["significant"], strict=True)
            if significant and delta != 0}


def summary_cells(report: ReportContent, digits: int = 4) -> list[tuple[str, list[SummaryCell]]]:
    """Per run (in input order), its cells in the order of the measures."""
    digits = check_digits(digits)
    marks = _marks(report)
    best = {m: report.best(m, digits) for m in report.measures}
    means = report.means.astype(np.float64)
    intervals = report.intervals.astype(np.float64)
    rows = []
    for run in report.runs:
        cells = []
        for measure in report.measures:
            value = float(means.at[run, measure])
            low = float(intervals.at[run, (measure, "low")])
            high = float(intervals.at[run, (measure, "high")])
            cells.append(SummaryCell(
                value=value, text=format_number(value, digits), bold=run in best[measure],
                mark=marks.get((run, measure), 0),
                interval=f"[{format_number(low, digits)}, {format_number(high, digits)}]"))
        rows.append((run, cells))
    return rows


def summary_caption(report: ReportContent) -> str:
    """What the summary shows: the best in bold, the marks' test, correction and α."""
    n_topics = report.evaluation.to_matrix(measures=[report.measures[0]]).n_topics
    parts = [f"Mean over {n_topics} topics of {len(report.runs)} runs, best in bold, "
             f"{100 * (1 - report.alpha):g}% {report.interval} interval of the mean in brackets"]
    if report.baseline is not None and report.comparison is not None:
        correction = ("no correction" if report.correction == "none"
                      else f"{report.correction.capitalize()} correction over "
                      f"{len(report.comparison)} comparisons")
        parts.append(f"↑/↓: significantly better/worse than the baseline {report.baseline} "
                     f"({test_spec(report.test).name} test, {correction}, "
                     f"α = {report.alpha:g})")
    return "; ".join(parts) + "."


def comparison_frame(report: ReportContent) -> pd.DataFrame:
    """Every run against the baseline: measure, run, Δ, its interval, p, adjusted p,
    wins/ties/losses (empty without a baseline)."""
    return comparison_table(report.comparison)


def comparison_table(frame: pd.DataFrame | None) -> pd.DataFrame:
    """The table of a comparison with the baseline (``frame``:
    :meth:`~irscale.stats.baseline.BaselineComparison.to_frame`'s columns): measure, run,
    Δ, its interval, p, adjusted p, wins/ties/losses (empty for None)."""
    if frame is None:
        return pd.DataFrame()
    return pd.DataFrame({
        "measure": frame["measure"], "run": frame["run"], "Δ": frame["delta"],
        "CI low": frame["ci_low"], "CI high": frame["ci_high"], "p": frame["p"],
        "p adjusted": frame["p_adjusted"],
        "W/T/L": [f"{w}/{t}/{lo}" for w, t, lo in zip(frame["wins"], frame["ties"],
                                                       frame["losses"], strict=True)],
    })


def groups_frame(report: ReportContent, measure: str) -> pd.DataFrame:
    """The runs by decreasing mean of ``measure`` with their Tukey HSD letters (runs that
    share a letter are not significantly different)."""
    letters = report.letters[measure]
    means = report.means[measure]
    return pd.DataFrame({"run": list(letters), "mean": [float(means[r]) for r in letters],
                         "group": list(letters.values())})


def robustness_frame(report: ReportContent) -> pd.DataFrame:
    """Per measure: N, τ(M, M_R), significant pairs with M and M_R, S2NS, NS2S."""
    frame = report.robustness
    return pd.DataFrame({
        "measure": frame["measure"], "N": frame["N"].astype("Int64"), "τ": frame["tau"],
        "sig. pairs M": frame["sig"].astype("Int64"),
        "sig. pairs M_R": frame["sig_ranked"].astype("Int64"),
        "S2NS": frame["s2ns"].astype("Int64"), "NS2S": frame["ns2s"].astype("Int64"),
        "note": frame["note"]})


def discriminative_frame(report: ReportContent) -> pd.DataFrame:
    """Discriminative power per measure and method (empty without ``dp``)."""
    if report.discriminative is None:
        return pd.DataFrame()
    from ..meta.discriminative import MEANINGS

    frame = report.discriminative
    return declare(pd.DataFrame({"measure": frame["measure"], "method": frame["method"],
                                 "B": frame["B"], "significant pairs": frame["significant"],
                                 "pairs": frame["pairs"], "share": frame["share"],
                                 "min. significant Δ": frame["min_significant_diff"]}),
                   MEANINGS)


#: LaTeX spellings (plain ASCII, as pdflatex reads without extra packages) of the Greek
#: letters of the titles and of the headers :func:`irscale.stats.tables.render` does not
#: translate itself.
_LATEX_WORDS = {"α": "alpha", "τ": "Kendall tau", "Δ": "diff."}


def ascii_headers(frame: pd.DataFrame, fmt: str) -> pd.DataFrame:
    r"""``frame`` with the Greek of its headers spelt out for LaTeX (Δ alone is rendered
    as ``$\Delta$`` by :func:`~irscale.stats.tables.render`)."""
    if fmt != "latex":
        return frame

    def spelt(column: object) -> object:
        return column if column == "Δ" else "".join(
            _LATEX_WORDS.get(ch, ch) for ch in str(column))

    # the meanings of its non-finite values follow the columns (irscale.core.numbers)
    return declare(frame.rename(columns=spelt), {
        str(spelt(column)): meaning for column, meaning in declared(frame).items()})


def title_text(text: str, fmt: str) -> str:
    """``text`` with its Greek spelt out for LaTeX (:data:`_LATEX_WORDS`)."""
    return "".join(_LATEX_WORDS.get(ch, ch) for ch in text) if fmt == "latex" else text


def frames_text(frames: list[tuple[str, str, pd.DataFrame]], fmt: TablesFormat, digits: int
                ) -> list[str]:
    """The tables of ``frames`` (``(id, caption, frame)`` each) as ``fmt``, the caption
    their title; in LaTeX, ASCII: the minus of the pairs' names as a hyphen."""
    out = []
    for _, caption, frame in frames:
        if fmt == "latex":
            frame = frame.replace("\u2212", "-", regex=True)
        out.append(render(ascii_headers(frame, fmt), fmt, digits=digits,
                          title=title_text(caption, fmt)))
    return out


def automatic_frames(report: ReportContent) -> list[tuple[str, str, pd.DataFrame]]:
    """The tables of the section on automatic judgments (``report.automatic``; none
    without): ``(id, caption, frame)`` each, for the page and for the LaTeX and Markdown
    tables."""
    found = report.automatic
    if found is None:
        return []
    level = f"{100 * (1 - found.alpha):g}%"
    means = found.estimates[found.estimates["kind"] == "mean"].drop(columns="kind")
    return [
        ("automatic-labels", "Automatic judgments: agreement of the labels both judge",
         found.labels),
        ("automatic-confusion", "Automatic judgments: confusion of the grades (automatic "
         "rows, human columns)", found.confusion.reset_index()),
        ("automatic-systems", "Automatic judgments: agreement of the system rankings (human "
         "vs automatic judgments)", found.systems),
        ("automatic-means", f"Every run's mean corrected with the human sample "
         f"({found.tuning}, {level} intervals"
         + ("; automatic values: the expected values under the label probabilities)"
            if report.label_probabilities else ")"), means),
        ("automatic-conclusions", f"The order of every pair of runs by each source of "
         f"judgments ({level} intervals)", found.conclusions()),
    ]


def bounds_frames(report: ReportContent) -> list[tuple[str, str, pd.DataFrame]]:
    """The tables of the bounds under the unjudged documents (``report.bounds``; none
    without): ``(id, caption, frame)`` each."""
    found = report.bounds
    if found is None:
        return []
    return [
        ("bounds", f"Each mean's bounds when the unjudged documents a run retrieves take "
         f"grade {found.lowest} or {found.highest}", found.means),
        ("bounds-undecided", "Pairs of runs the judgments do not order (their bounds "
         "overlap)", found.undecided),
    ]


def noise_frames(report: ReportContent) -> list[tuple[str, str, pd.DataFrame]]:
    """The tables of the section on judge noise (``report.noise``; none without): every
    conclusion of the Tukey HSD (per measure and pair of runs: ``a > b`` or ``a < b``
    significant, or not significant) with the shares of the replicates that keep the
    order of the two means and the decision, ``robust`` when the decision is kept in at
    least :data:`ROBUST_SHARE` of them (``fragile`` otherwise); with a baseline, every
    conclusion against it (per measure and run: better, worse, or no significant
    difference after the report's correction) with the share of the replicates that keep
    it and its verdict (``report.noise_baseline``); then each measure's fragility.
    ``(id, caption, frame)`` each."""
    found = report.noise
    if found is None:
        return []
    pairs = found.pairs
    a, b = pairs["system_a"].astype(str), pairs["system_b"].astype(str)
    up = pairs["diff"].to_numpy(np.float64) > 0
    conclusion = np.where(pairs["significant"].to_numpy(bool),
                          np.where(up, a + " > " + b, a + " < " + b), "not significant")
    kept = pairs["decision_kept"].to_numpy(np.float64)
    where = (f"{found.replicates} replicates of the qrels relabelled by "
             f"{found.confusion.source}")
    tukey = [
        ("judge-noise", f"Every conclusion of the Tukey HSD (α = {found.alpha:g}) under judge "
         f"noise ({where}): the share of replicates keeping the order of the two means and "
         f"the decision; robust: the decision kept in at least {100 * ROBUST_SHARE:g}% of "
         "them", pd.DataFrame({
             "measure": pairs["measure"], "a": a, "b": b, "conclusion": conclusion,
             "order kept": pairs["order_kept"], "decision kept": kept,
             "verdict": _verdicts(kept)}))]
    return [*tukey, *_baseline_noise_frames(report, where), (
        "judge-noise-measures", f"Fragility of each measure under judge noise ({where}): "
         "mean Kendall τ_b of the replicates' rankings with the original, the shares of "
         "pairs whose order or decision changes in some replicate and of replicates with a "
         "flipped pair", _renamed(found.measures, {
             "mean_tau": "mean τ_b", "pairs_flipping": "pairs flipping",
             "replicates_with_flip": "replicates with a flip",
             "decisions_changing": "decisions changing"}))]


def _verdicts(kept: np.ndarray) -> np.ndarray:
    """``robust`` where the share of replicates keeping a decision is at least
    :data:`ROBUST_SHARE`, ``fragile`` otherwise."""
    return np.where(kept >= ROBUST_SHARE, "robust", "fragile")


def _baseline_noise_frames(report: ReportContent, where: str
                           ) -> list[tuple[str, str, pd.DataFrame]]:
    """The conclusions against the baseline under judge noise (:func:`noise_frames`;
    none without a baseline)."""
    found = report.noise_baseline
    if found is None:
        return []
    up = found["delta"].to_numpy(np.float64) > 0
    conclusion = np.where(found["significant"].to_numpy(bool),
                          np.char.add(np.where(up, "better than ", "worse than "),
                                      found["baseline"].astype(str).to_numpy(str)),
                          "no significant difference")
    kept = found["decision_kept"].to_numpy(np.float64)
    correction = ("no correction" if report.correction == "none" else
                  f"{report.correction} correction over the {len(found)} comparisons")
    return [("judge-noise-baseline", f"Every conclusion against the baseline "
             f"{report.baseline} ({test_spec(report.test).name} test, {correction}, "
             f"α = {report.alpha:g}) "
             f"under judge noise ({where}): the share of replicates keeping the decision "
             f"(direction and significance after the correction); robust: kept in at least "
             f"{100 * ROBUST_SHARE:g}% of them", pd.DataFrame({
                 "measure": found["measure"], "run": found["run"], "conclusion": conclusion,
                 "decision kept": kept, "verdict": _verdicts(kept)}))]


def _renamed(frame: pd.DataFrame, names: dict[str, str]) -> pd.DataFrame:
    """``frame`` with its columns renamed, the meanings of their non-finite values
    (:mod:`irscale.core.numbers`) following them."""
    out = frame.rename(columns=names)
    out.attrs = {}
    return declare(out, {names.get(c, c): m for c, m in declared(frame).items()})


def across_frames(measure: str, found: AcrossCollections) -> list[tuple[str, str, pd.DataFrame]]:
    """The tables of the comparison of ``measure`` across collections (``found``, an
    :class:`~irscale.stats.across_collections.AcrossCollections` of ``report.across``):
    the meta-analysis of every pair, the systems' means, the mixed model's test of the
    systems and its variance components, ``(id, caption, frame)`` each."""
    level = f"{100 * (1 - found.alpha):g}%"
    where = f"{measure} across {len(found.collections)} collections"
    model = found.model.to_frame()
    return [
        (f"across-meta-{measure}", f"{where}: random-effects meta-analysis of each pair "
         f"a − b (τ² by DerSimonian–Laird and REML; {level} interval of the pooled "
         f"effect; pi: {level} prediction interval of a new collection)", found.meta_table),
        (f"across-systems-{measure}", f"{where}: each system's mean over the collections "
         f"({found.weighing()}; {level} stratified bootstrap interval, {found.samples} "
         "samples)", found.system_table),
        (f"across-mixed-{measure}", f"{where}: {found.model.summary()}",
         model[model.section.isin(("fixed", "test"))]),
        (f"across-variance-{measure}", f"{where}: the mixed model's variance components "
         "and their shares (between collections, system × collection, topics within "
         "collections, residual)", found.tables()["variance"]),
    ]

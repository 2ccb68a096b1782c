"""The report's data and tables against independent oracles (scipy, statsmodels, loops
written here), the LaTeX/Markdown output, and irscale.plots."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

import irscale
import irscale.cli.main
from irscale.errors import MeasureError, ParameterError
from irscale.report import build_report, format_tables, render_html
from irscale.report.tables import summary_cells
from tests.report_data import RUNS, TOPICS, write_collection

from .oracle_imports import lazy_import

sps = lazy_import("scipy.stats")

MEASURES = ["map", "P.10"]


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    return write_collection(tmp_path_factory.mktemp("collection"))


@pytest.fixture(scope="module")
def report(collection):
    qrels, runs = collection
    return build_report(qrels, [str(r) for r in runs], MEASURES, baseline="bm25",
                        scale_depth=5, dp=True, dp_samples=200, seed=3)


def _per_topic(collection, measure):
    qrels, runs = collection
    ev = irscale.evaluate(qrels, [str(r) for r in runs], [measure])
    return ev.to_matrix().to_frame(ev.measures[0])


def test_means_and_intervals_by_hand(report, collection):
    for label in ("map", "P_10"):
        frame = _per_topic(collection, label)
        for run in RUNS:
            x = frame[run].to_numpy()
            assert report.means.at[run, label] == pytest.approx(x.mean(), abs=1e-12)
            low, high = sps.t.interval(0.95, len(x) - 1, loc=x.mean(),
                                       scale=x.std(ddof=1) / np.sqrt(len(x)))
            assert report.intervals.at[run, (label, "low")] == pytest.approx(low)
            assert report.intervals.at[run, (label, "high")] == pytest.approx(high)


def test_bootstrap_intervals_agree_with_scipy(collection, tmp_path):
    """``irscale report --ci bootstrap``: the summary's intervals agree with scipy's
    percentile bootstrap within the Monte Carlo error, and the caption names them."""
    qrels, runs = collection
    out = tmp_path / "report.md"
    assert irscale.cli.main.main(
        ["report", str(qrels), *map(str, runs), "-m", "map", "-m", "P.10", "--no-robustness",
         "--ci", "bootstrap", "--ci-samples", "20000", "--ci-seed", "3", "--format",
         "markdown", "--digits", "6", "-o", str(out)]) == 0
    text = out.read_text()
    assert "95% bootstrap interval of the mean in brackets" in text
    cells = {}
    for line in text.splitlines():
        row = [cell.strip(" *") for cell in line.strip("|").split("|")]
        if line.startswith("|") and row[0] in RUNS and row[0] not in cells:  # the summary
            cells[row[0]] = [re.findall(r"[-\d.]+", cell) for cell in row[1:]]
    assert sorted(cells) == sorted(RUNS)
    for k, label in enumerate(("map", "P_10")):
        frame = _per_topic(collection, label)
        for run in RUNS:
            x = frame[run].to_numpy()
            theirs = sps.bootstrap((x,), np.mean, n_resamples=20_000, method="percentile",
                                   random_state=5).confidence_interval
            # 4 standard deviations of the difference of two 2.5% quantiles of 20,000
            # normal means (sd √(q(1−q)/B) / density at the quantile)
            spread = x.std(ddof=1) / np.sqrt(len(x))
            density = sps.norm.pdf(sps.norm.ppf(0.025)) / spread
            tolerance = 4 * np.sqrt(2 * 0.025 * 0.975 / 20_000) / density
            _, low, high = map(float, cells[run][k])
            assert low == pytest.approx(theirs.low, abs=tolerance)
            assert high == pytest.approx(theirs.high, abs=tolerance)


def test_marks_are_holm_adjusted_paired_t_tests(report, collection):
    """scipy's ttest_rel on every (run, measure) against bm25, Holm over the 4 by
    statsmodels: the marks of the summary cells."""
    family = []
    for label in ("map", "P_10"):
        frame = _per_topic(collection, label)
        for run in ("lm", "neural"):
            diff = frame[run] - frame["bm25"]
            family.append((run, label, sps.ttest_rel(frame[run], frame["bm25"]).pvalue,
                           diff.mean()))
    reject, adjusted, _, _ = multipletests([p for *_, p, _ in family], 0.05, "holm")
    cells = {(run, m): c for run, row in summary_cells(report)
             for m, c in zip(report.measures, row, strict=True)}
    for (run, label, _, delta), significant, p in zip(family, reject, adjusted, strict=True):
        expected = (1 if delta > 0 else -1) if significant else 0
        assert cells[(run, label)].mark == expected
        row = report.comparison[(report.comparison["run"] == run)
                                & (report.comparison["measure"] == label)]
        assert float(row["p_adjusted"].iloc[0]) == pytest.approx(p)
    assert all(cells[("bm25", m)].mark == 0 for m in report.measures)


def test_best_in_bold(report):
    for k, measure in enumerate(report.measures):
        shown = {run: round(report.means.at[run, measure], 4) for run in RUNS}
        top = max(shown.values())
        for run, row in summary_cells(report):
            assert row[k].bold == (shown[run] == top)


def test_letters_follow_the_tukey_decisions(report):
    for measure in report.measures:
        frame = report.tukey[measure].to_frame()
        letters = report.letters[measure]
        for row in frame.itertuples():
            shared = set(letters[row.a]) & set(letters[row.b])
            assert bool(shared) != bool(row.significant)


def test_assumptions_beside_each_anova_by_scipy(report, collection):
    """Beside each measure's two-way ANOVA: scipy's Shapiro-Wilk on statsmodels' residuals
    and scipy's Levene / Brown-Forsythe across runs and across topics; the page shows them
    (table and Q-Q plot) right after the ANOVA table, and the LaTeX tables list them."""
    smf = pytest.importorskip("statsmodels.formula.api")
    page = render_html(report)
    latex = format_tables(report, "latex")
    for label in ("map", "P_10"):
        wide = _per_topic(collection, label)
        long = wide.rename_axis("topic").reset_index().melt(
            id_vars="topic", var_name="system", value_name="y")
        residuals = smf.ols("y ~ C(topic) + C(system)", long).fit().resid
        checks = report.anova[label].assumptions
        shapiro = sps.shapiro(residuals.to_numpy())
        assert checks.test("Shapiro-Wilk").statistic == pytest.approx(shapiro.statistic,
                                                                      rel=1e-9)
        assert checks.test("Shapiro-Wilk").pvalue == pytest.approx(shapiro.pvalue, rel=1e-6)
        for factor in ("system", "topic"):
            samples = [group.to_numpy() for _, group in residuals.groupby(long[factor])]
            for name, center in (("Levene", "mean"), ("Brown-Forsythe", "median")):
                ref = sps.levene(*samples, center=center)
                got = checks.test(name, factor)
                assert got.statistic == pytest.approx(ref.statistic, rel=1e-9)
                assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
        anova_at = page.index(f'id="anova-{label}"')
        table_at = page.index(f'id="assumptions-{label}"')
        assert anova_at < table_at < page.index(f'id="groups-{label}"')
        section = page[table_at:page.index("</figure>", table_at)]
        assert f"{shapiro.statistic:.4f}" in section and "<svg" in section
        assert "Shapiro-Wilk W" in section  # the Q-Q plot's title
    assert latex.count("Assumptions of the ANOVA topic + system") == 2


def test_robustness_tau_by_scipy(report, collection):
    """τ_b of the run means of M and M_R (from the transform) by scipy's kendalltau."""
    from irscale.scales.transform import transform

    qrels, runs = collection
    for row in report.robustness.itertuples():
        result = transform(qrels, [str(r) for r in runs], [row.measure], int(row.N),
                           progress=False)
        measure, ranked = result.labels[0]
        tau = sps.kendalltau(result.matrix.mean(measure), result.matrix.mean(ranked))[0]
        assert row.tau == pytest.approx(tau)
    assert report.robustness.set_index("measure").at["P_10", "N"] == 10  # its cut-off
    assert report.robustness.set_index("measure").at["map", "N"] == 5  # --scale-depth


def test_provenance(report, collection):
    import hashlib

    qrels, runs = collection
    files = dict((name, (size, digest)) for name, size, digest in report.provenance.inputs)
    for path in [qrels, *runs]:
        data = path.read_bytes()
        assert files[str(path)] == (len(data), hashlib.sha256(data).hexdigest())
    versions = dict(report.provenance.versions)
    assert versions["numpy"] == np.__version__ and versions["irscale"] == irscale.__version__


def test_result_protocol(report):
    assert report.to_frame().equals(report.means)
    assert report.format("markdown") == format_tables(report, "markdown")
    assert report.format("html") == render_html(report)
    with pytest.raises(ParameterError, match="'html', 'latex', 'markdown'"):
        report.format("csv")
    assert repr(report).startswith("Report(3 runs, measures=['map', 'P_10'], "
                                   "baseline='bm25', correction='holm'")


def test_discriminative_power_rows(report):
    table = report.discriminative
    assert set(table["measure"]) == {"map", "P_10"}
    assert set(table["method"]) == {"bootstrap", "randomized-tukey-hsd"}
    assert (table["B"] == 200).all()


def _check_latex_structure(latex: str) -> None:
    """Environments nest and close, braces balance, and every row has as many cells as
    its tabular has columns."""
    stack = []
    for kind, name in re.findall(r"\\(begin|end)\{(\w+)\}", latex):
        if kind == "begin":
            stack.append(name)
        else:
            assert stack and stack.pop() == name, name
    assert not stack
    depth = 0
    for ch in re.sub(r"\\[{}]", "", latex):
        depth += (ch == "{") - (ch == "}")
        assert depth >= 0
    assert depth == 0
    for block in re.findall(r"\\begin\{tabular\}\{(\w+)\}(.*?)\\end\{tabular\}", latex, re.S):
        spec, body = block
        for line in body.splitlines():
            if line.endswith("\\\\"):
                assert len(re.split(r"(?<!\\)&", line)) == len(spec), line


def test_latex_tables(report, tmp_path):
    latex = format_tables(report, "latex")
    assert latex.count("\\begin{table}") == 1 + 1 + 2 * 3 + 1 + 1  # summary, baseline,
    # ANOVA, its assumptions and groups per measure, robustness, dp
    assert "Holm correction over 4 comparisons" in latex and "\\textbf{" in latex
    assert latex.isascii()  # pdflatex reads no Greek without extra packages
    _check_latex_structure(latex)
    if shutil.which("pdflatex") is None:
        return
    document = tmp_path / "t.tex"
    document.write_text("\\documentclass{article}\\usepackage[utf8]{inputenc}"
                        "\\usepackage{booktabs}\\usepackage{textcomp}\\begin{document}\n"
                        + latex + "\\end{document}\n", encoding="utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                           document.name], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-3000:]


def test_markdown_tables(report):
    markdown = format_tables(report, "markdown")
    for block in markdown.split("\n\n"):
        rows = [line for line in block.splitlines() if line.startswith("|")]
        widths = {len(re.split(r"(?<!\\)\|", row)) for row in rows}
        assert len(widths) <= 1, block
    assert "**" in markdown and "| Run |" in markdown


def test_html_is_complete_without_a_baseline(collection):
    qrels, runs = collection
    page = render_html(build_report(qrels, [str(r) for r in runs], ["P.10"],
                                    robustness=False))
    assert "↑" not in page and "Every run against" not in page
    assert page.count("<svg") == 4  # residuals' Q-Q, Tukey, box plot, precision-recall


def test_errors(collection):
    qrels, runs = collection
    paths = [str(r) for r in runs]
    with pytest.raises(ParameterError, match="'nosuch' names no run"):
        build_report(qrels, paths, ["map"], baseline="nosuch", robustness=False)
    with pytest.raises(ParameterError, match="at least two"):
        build_report(qrels, paths[:1], ["map"], robustness=False)
    with pytest.raises(ParameterError, match="alpha"):
        build_report(qrels, paths, ["map"], alpha=2)
    with pytest.raises(ParameterError):
        build_report(qrels, paths, ["map"], test="nosuch")
    with pytest.raises(MeasureError, match="num_ret, gm_map: the report compares"):
        build_report(qrels, paths, ["map", "num_ret", "gm_map"])


# ---------------------------------------------------------------------------- plots
def test_every_plot_returns_its_axes(report):
    import matplotlib
    from matplotlib.figure import Figure

    from irscale import plots

    matplotlib.use("Agg")
    ev = report.evaluation
    drawn = [plots.score_distributions(ev, "map"), plots.score_distributions(ev, "map",
                                                                              kind="violin"),
             plots.baseline_differences(ev, "map", "bm25"),
             plots.baseline_differences(ev, "map", "bm25", ["lm"]),
             plots.precision_recall(ev), plots.tukey_intervals(report.anova["map"]),
             plots.interval_spacing("RR", 3), plots.measure_hasse("AP", 3)]
    for ax in drawn:
        assert hasattr(ax, "figure") and ax.has_data()
    ax = Figure().add_subplot()
    assert plots.score_distributions(ev, "map", ax=ax) is ax
    assert plots.score_distributions(ev, "map", kind="both").has_data()
    with pytest.raises(ParameterError, match="violin"):
        plots.score_distributions(ev, "map", kind="bar")
    with pytest.raises(ParameterError, match="256"):
        plots.measure_hasse("AP", 9)


def test_differences_are_run_minus_baseline_sorted(report):
    from irscale import plots

    ax = plots.baseline_differences(report.evaluation, "map", "bm25", ["lm"])
    heights = [p.get_height() for p in ax.patches]
    frame = report.evaluation.to_matrix(measures=["map"]).to_frame("map")
    assert heights == pytest.approx(sorted(frame["lm"] - frame["bm25"], reverse=True))
    assert len(heights) == len(TOPICS)


def test_hasse_edges_are_the_covering_relation_by_brute_force():
    """The partial order by its definition (top-k counts of each degree, loops), its
    covering pairs by looking for a run in between: the diagram's edges."""
    from irscale.plots.scales import _cover, dominance

    for N, levels in ((3, 2), (2, 3), (4, 2)):
        runs = np.array(list(itertools.product(range(levels), repeat=N)))

        def leq(r, s, N=N, levels=levels):
            return all(sum(v >= g for v in r[:k]) <= sum(v >= g for v in s[:k])
                       for k in range(1, N + 1) for g in range(1, levels))

        n = len(runs)
        order = np.array([[leq(runs[i], runs[j]) for j in range(n)] for i in range(n)])
        assert (dominance(runs) == order).all()
        cover = {(i, j) for i in range(n) for j in range(n)
                 if order[i, j] and not order[j, i]
                 and not any(order[i, k] and order[k, j] and not order[k, i]
                             and not order[j, k] for k in range(n))}
        assert set(zip(*np.nonzero(_cover(order)), strict=True)) == cover
    # N = 4 binary: Ferrante et al. (2021), Fig. 1 — (0,0,1,1) and (0,1,0,0) are incomparable
    runs = np.array(list(itertools.product(range(2), repeat=4)))
    order = dominance(runs)
    a, b = 0b0011, 0b0100
    assert not order[a, b] and not order[b, a]


def test_interval_spacing_points_are_the_image(report):
    from irscale import plots
    from irscale.scales import scale

    ax = plots.interval_spacing("AP", 3)
    values = np.sort(np.unique(np.round(scale("AP", 3, progress=False).values(
        np.array(list(itertools.product(range(2), repeat=3)))), 12)))
    points = ax.collections[0].get_offsets()
    assert np.allclose(np.sort(points[:, 1]), values)


def test_a_measure_without_a_scale_is_noted_not_dropped(collection, monkeypatch):
    """A measure whose scale cannot be built gets the reason in the panel; the others
    keep their rows."""
    import importlib

    where = importlib.import_module("irscale.scales.transform")  # the panel's transform
    qrels, runs = collection
    real = where.transform

    def transform(qrels, runs, measures, N, **options):
        if "P_10" in measures:
            raise ParameterError("scale too large for this test")
        return real(qrels, runs, measures, N, **options)

    monkeypatch.setattr(where, "transform", transform)
    report = build_report(qrels, [str(r) for r in runs], ["map", "P.10", "P.5"],
                          scale_depth=10)
    panel = report.robustness.set_index("measure")
    assert list(panel.index) == ["map", "P_10", "P_5"]
    assert "scale too large" in panel.at["P_10", "note"]
    # map shares N = 10 with P_10: its transform is redone alone and keeps its row
    assert panel.at["map", "note"] == "" and np.isfinite(panel.at["map", "tau"])
    assert np.isfinite(panel.at["P_5", "tau"])


def test_the_same_inputs_give_the_same_page(collection):
    """No date, random id or unseeded draw: the reproducibility block's promise."""
    qrels, runs = collection
    pages = [render_html(build_report(qrels, [str(r) for r in runs], ["map"],
                                      baseline="bm25", scale_depth=5, dp=True,
                                      dp_samples=50, seed=9))
             for _ in range(2)]
    assert pages[0] == pages[1]

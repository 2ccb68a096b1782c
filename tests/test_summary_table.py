"""The paper's runs × measures table (``irscale eval --format latex``) and tests against a
baseline (``pairwise_tests(baseline=)``, ``irscale compare --baseline``), checked against
scipy's paired tests and statsmodels' Holm correction."""

from __future__ import annotations

import re

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

import irscale
from irscale.cli.main import main
from irscale.core import ScoreMatrix
from irscale.errors import ParameterError
from irscale.stats import pairwise_tests
from irscale.stats.summary_table import summary_table

from .oracle_imports import lazy_import

sps = lazy_import("scipy.stats")

RUNS = ("base", "good", "bad", "same")


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    """30 topics, 10 documents each; 'good' ranks relevant documents first more often than
    'base', 'bad' less often, 'same' is 'base' with another run id."""
    rng = np.random.default_rng(7)
    root = tmp_path_factory.mktemp("table")
    qrels, runs = [], {name: [] for name in RUNS}
    for t in range(30):
        rel = rng.random(10) < 0.4
        rel[0] = True
        qrels += [f"q{t} 0 d{d} {int(rel[d])}" for d in range(10)]
        base_noise = rng.random(10)
        for name, skill in (("base", 0.0), ("good", 1.5), ("bad", -1.5), ("same", 0.0)):
            noise = base_noise if name in ("base", "same") else rng.random(10)
            score = noise + skill * rel
            order = np.argsort(-score, kind="stable")
            runs[name] += [f"q{t} Q0 d{d} {r + 1} {score[d]:.6f} {name}"
                           for r, d in enumerate(order)]
    (root / "qrels.txt").write_text("\n".join(qrels) + "\n")
    for name, lines in runs.items():
        (root / f"{name}.run").write_text("\n".join(lines) + "\n")
    return root


def _evaluation(root, measures=("map", "P@5", "num_rel_ret", "gm_map")):
    return irscale.evaluate(root / "qrels.txt", [root / f"{n}.run" for n in RUNS],
                            list(measures))


def _cells(table: str) -> dict[str, list[str]]:
    rows = {}
    for line in table.splitlines():
        if line.endswith("\\\\") and not line.startswith("Run"):
            cells = [c.strip() for c in line[:-2].split("&")]
            rows[cells[0]] = cells[1:]
    return rows


def test_pairwise_baseline_equals_scipy_and_statsmodels():
    rng = np.random.default_rng(3)
    values = rng.random((25, 4)) + np.array([0.0, 0.1, -0.05, 0.02])
    matrix = ScoreMatrix.from_array(values, systems=["a", "b", "c", "d"])
    result = pairwise_tests(matrix, "t", baseline="c")
    frame = result.to_frame()
    assert list(frame["a"]) == ["a", "b", "d"] and set(frame["b"]) == {"c"}
    raw = [sps.ttest_rel(values[:, k], values[:, 2]).pvalue for k in (0, 1, 3)]
    np.testing.assert_allclose(frame["p_raw"], raw, rtol=1e-10)
    np.testing.assert_allclose(frame["p"], multipletests(raw, method="holm")[1], rtol=1e-10)
    np.testing.assert_allclose(frame["diff"], values[:, [0, 1, 3]].mean(0) - values[:, 2].mean())


def test_pairwise_baseline_unknown_system():
    matrix = ScoreMatrix.from_array(np.random.default_rng(0).random((5, 3)))
    with pytest.raises(ParameterError, match="baseline of the score table: 'zz' names no run"):
        pairwise_tests(matrix, "t", baseline="zz")


def test_table_values_bold_and_marks(collection):
    ev = _evaluation(collection)
    table = summary_table(ev, baseline="base")
    rows = _cells(table)
    means = ev.mean()
    header = next(line for line in table.splitlines() if line.startswith("Run"))
    labels = [c.strip().replace("\\_", "_") for c in header[:-2].split("&")][1:]
    assert set(labels) == {"map", "P@5", "num_rel_ret", "gm_map"}
    for run in RUNS:
        for label, cell in zip(labels, rows[run], strict=True):
            number = re.sub(r"\\textbf\{|\}|\$\^\{\\(up|down)arrow\}\$", "", cell)
            if label in means.columns:
                assert float(number) == pytest.approx(means.loc[run, label], abs=5e-5)
    k = labels.index("map")
    assert rows["good"][k].startswith("\\textbf{") and rows["good"][k].endswith("uparrow}$")
    assert rows["bad"][k].endswith("downarrow}$")
    assert "arrow" not in rows["same"][k] and "arrow" not in rows["base"][k]
    # counts: no bold, no marks; gm_map (no per-topic values): bold but never tested
    assert all("textbf" not in rows[r][labels.index("num_rel_ret")] for r in RUNS)
    assert all("arrow" not in rows[r][labels.index("gm_map")] for r in RUNS)
    # the marks are the decisions of pairwise_tests over the table's family
    decisions = pairwise_tests(ev.to_matrix(measures=["map", "P@5"]), "t",
                               baseline="base").to_frame()
    assert "Holm over 6 comparisons" in table
    for _, row in decisions.iterrows():
        cell = rows[row["a"]][labels.index(row["measure"])]
        assert ("arrow" in cell) == bool(row["significant"])


def test_table_ties_all_bold(collection):
    ev = _evaluation(collection, ["map"])
    rows = _cells(summary_table(ev))
    assert rows["base"][0].startswith("\\textbf") == rows["same"][0].startswith("\\textbf")


def test_table_escapes_names(tmp_path):
    (tmp_path / "q").write_text("1 0 d1 1\n2 0 d2 1\n")
    (tmp_path / "r").write_text("1 Q0 d1 1 1 my_run&50%\n2 Q0 d2 1 1 my_run&50%\n")
    # runs read from files are named by their file; names="runid" keeps the run id
    table = summary_table(irscale.evaluate(tmp_path / "q", tmp_path / "r", ["P@1"],
                                           names="runid"))
    assert "my\\_run\\&50\\%" in table
    (tmp_path / "my_run&50%").write_text("1 Q0 d1 1 1 r\n2 Q0 d2 1 1 r\n")
    table = summary_table(irscale.evaluate(tmp_path / "q", tmp_path / "my_run&50%", ["P@1"]))
    assert "my\\_run\\&50\\%" in table


def test_cli_latex_equals_api(collection, tmp_path, capsys):
    argv = ["eval", str(collection / "qrels.txt"), *(str(collection / f"{n}.run") for n in RUNS),
            "-m", "map", "-m", "P@5", "--format", "latex", "--baseline", "base", "--test",
            "wilcoxon", "--correction", "bonferroni", "--alpha", "0.01"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    ev = _evaluation(collection, ["map", "P@5"])
    assert out == summary_table(ev, baseline="base", test="wilcoxon", correction="bonferroni",
                                alpha=0.01)
    assert "Bonferroni over 6 comparisons, alpha = 0.01" in out


def test_cli_compare_baseline(collection, capsys):
    argv = ["compare", str(collection / "qrels.txt"),
            *(str(collection / f"{n}.run") for n in RUNS), "-m", "map", "--test", "t",
            "--baseline", "base", "--format", "csv"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0].split(",")
    pairs = [dict(zip(header, line.split(","), strict=True)) for line in lines[1:]]
    assert [(p["a"], p["b"]) for p in pairs] == [("good", "base"), ("bad", "base"),
                                                 ("same", "base")]


# ------------------------------------------------- the comparison's paper table (Python)
def test_compare_formats_the_cli_latex_table(collection, capsys):
    """``Evaluation.compare(...).format("latex")`` is the table ``irscale eval --format
    latex --baseline`` prints (one Python call), its marks the decisions of scipy's paired
    t-test adjusted by statsmodels' Holm over every (run, measure)."""
    argv = ["eval", str(collection / "qrels.txt"), *(str(collection / f"{n}.run") for n in RUNS),
            "-m", "map", "-m", "P@5", "--format", "latex", "--baseline", "base"]
    assert main(argv) == 0
    ev = _evaluation(collection, ["map", "P@5"])
    comparison = ev.compare("base")
    assert comparison.format("latex") == capsys.readouterr().out
    per_topic = ev.per_topic()
    rows, keys = _cells(comparison.format("latex")), []
    pvalues = []
    for measure in ("map", "P@5"):
        frame = per_topic[per_topic["measure"] == measure].pivot(index="topic", columns="run",
                                                                 values="value")
        for run in RUNS[1:]:
            keys.append((run, measure, frame[run].mean() - frame["base"].mean()))
            same = (frame[run] == frame["base"]).all()  # scipy: NaN; no evidence: p = 1
            pvalues.append(1.0 if same else sps.ttest_rel(frame[run], frame["base"]).pvalue)
    reject = multipletests(pvalues, method="holm", alpha=0.05)[0]
    for (run, measure, delta), significant in zip(keys, reject, strict=True):
        cell = rows[run][("map", "P@5").index(measure)]
        mark = "uparrow" if delta > 0 else "downarrow"
        assert (mark in cell) == bool(significant), (run, measure)
    assert any(reject)


def test_compare_markdown_and_html_mark_the_same_cells(collection):
    comparison = _evaluation(collection, ["map"]).compare("base")
    latex = _cells(comparison.format("latex"))
    markdown = {line.split("|")[1].strip(): line.split("|")[2].strip()
                for line in comparison.format("markdown").splitlines()
                if line.startswith("| ") and not line.startswith("| Run")}
    html = comparison._repr_html_()
    for run in RUNS:
        up, down = "uparrow" in latex[run][0], "downarrow" in latex[run][0]
        assert markdown[run].endswith("↑") == up and markdown[run].endswith("↓") == down
        row = next(line for line in html.splitlines() if f'<th scope="row">{run}</th>' in line)
        assert ("↑" in row) == up and ("↓" in row) == down
    assert "<table" in comparison._repr_html_() and repr(comparison).splitlines()[0] in \
        comparison._repr_html_().replace("&#x27;", "'")
    assert comparison.to_frame().equals(comparison.to_frame()) and len(comparison) == 3
    assert comparison.format("csv").splitlines()[0].startswith("measure,run,baseline")

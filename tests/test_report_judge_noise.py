"""The report's section on judge noise (``build_report(confusion=...)``, ``irscale report
--flip-rate``): its shares are those of :func:`irscale.collections.judge_noise` for the same
inputs and seed, its conclusions those of the report's Tukey HSD, and every pair's shares
agree, within binomial error, with a simulation written here (the qrels relabelled with
numpy under the flip model, evaluated by pytrec_eval, the topic-blocked Tukey HSD by
scipy's studentized range); the verdict follows the stated threshold; the LaTeX and
Markdown tables and the page's table of contents hold the section."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from irscale.collections import Confusion, judge_noise
from irscale.errors import ParameterError
from irscale.report import build_report, format_tables, render_html
from irscale.report.tables import ROBUST_SHARE, noise_frames

from .oracle_imports import lazy_import, lazy_importorskip

pytrec_eval = lazy_importorskip("pytrec_eval")
sps = lazy_import("scipy.stats")

FLIP = 0.15
REPLICATES = 200
SEED = 1
#: irscale's labels and pytrec_eval's names of the measures.
MEASURES = {"map": "map", "P_10": "P_10"}


def collection(seed=3, topics=12, docs=40):
    """Binary qrels and three runs of decreasing skill (scores: the grade times the skill
    plus normal noise), as dicts."""
    rng = np.random.default_rng(seed)
    qrels = {f"t{t}": {f"d{d}": int(rng.random() < 0.3) for d in range(docs)}
             for t in range(topics)}
    runs = {f"r{k}": {t: {d: float(skill * g + rng.normal()) for d, g in judged.items()}
                      for t, judged in qrels.items()}
            for k, skill in enumerate((1.6, 1.1, 0.8))}
    return qrels, runs


@pytest.fixture(scope="module")
def data():
    qrels, runs = collection()
    report = build_report(qrels, runs, list(MEASURES), robustness=False,
                          confusion=Confusion.flip(FLIP), replicates=REPLICATES, seed=SEED)
    return qrels, runs, report


def _values(qrels, runs, measure):
    """pytrec_eval's topics × runs values of ``measure``."""
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {measure})
    per_run = {name: evaluator.evaluate(run) for name, run in runs.items()}
    return np.array([[per_run[name][t][measure] for name in runs] for t in sorted(qrels)])


@functools.cache
def _critical(alpha, k, df):
    """The 1 − α quantile of the studentized range of ``k`` means, ``df`` degrees of
    freedom (scipy)."""
    return sps.studentized_range.ppf(1 - alpha, k, df)


def _tukey(values, alpha=0.05):
    """Per pair (i < j): +1/−1 the sign of the significant difference of the means, 0 not
    significant; Tukey's HSD on the topic + system ANOVA's error (residual
    x − row mean − column mean + grand mean, df (n − 1)(k − 1)), the critical value
    scipy's studentized range."""
    n, k = values.shape
    residual = (values - values.mean(axis=1, keepdims=True) - values.mean(axis=0)
                + values.mean())
    df = (n - 1) * (k - 1)
    half = _critical(alpha, k, df) * np.sqrt((residual ** 2).sum() / df / n)
    means = values.mean(axis=0)
    out = []
    for i, j in itertools.combinations(range(k), 2):
        diff = means[i] - means[j]
        out.append(np.sign(diff) if abs(diff) > half else 0)
    return np.array(out)


def test_the_section_is_judge_noise_with_the_reports_tukey(data):
    qrels, runs, report = data
    found = judge_noise(qrels, runs, list(MEASURES), Confusion.flip(FLIP),
                        replicates=REPLICATES, rng=SEED, test="MD2")
    np.testing.assert_array_equal(report.noise.pairs.to_numpy(), found.pairs.to_numpy())
    table = noise_frames(report)[0][2]
    np.testing.assert_array_equal(table["decision kept"], found.pairs["decision_kept"])
    np.testing.assert_array_equal(table["order kept"], found.pairs["order_kept"])
    assert (table["verdict"] == np.where(found.pairs["decision_kept"] >= ROBUST_SHARE,
                                         "robust", "fragile")).all()
    assert set(table["verdict"]) == {"robust", "fragile"}  # the data make both
    for measure in MEASURES:  # the conclusions are those the report states
        hsd = report.tukey[measure].columns
        stated = {(str(a), str(b)): bool(s) for a, b, s in zip(
            hsd["a"], hsd["b"], hsd["significant"], strict=True)}
        rows = report.noise.pairs[report.noise.pairs["measure"] == measure]
        for a, b, significant in zip(rows["system_a"], rows["system_b"], rows["significant"],
                                     strict=True):
            assert stated.get((a, b), stated.get((b, a))) == significant, (measure, a, b)


def test_the_shares_agree_with_a_simulation_by_pytrec_eval_and_scipy(data):
    """Every pair's share of replicates that keep the order and the decision, against
    300 replicates drawn here: the difference within 4.5 standard errors of a
    difference of two binomial shares (pooled), plus one replicate of each."""
    qrels, runs, report = data
    own = 300
    rng = np.random.default_rng(12345)
    topics = sorted(qrels)
    pairs = report.noise.pairs
    for label, name in MEASURES.items():
        base = _values(qrels, runs, name)
        base_order = np.sign([base.mean(axis=0)[i] - base.mean(axis=0)[j]
                              for i, j in itertools.combinations(range(len(runs)), 2)])
        base_decision = _tukey(base)
        order_kept, decision_kept = np.zeros(len(base_order)), np.zeros(len(base_order))
        for _ in range(own):
            relabelled = {t: {d: int(g ^ (rng.random() < FLIP)) for d, g in qrels[t].items()}
                          for t in topics}
            values = _values(relabelled, runs, name)
            means = values.mean(axis=0)
            order = np.sign([means[i] - means[j]
                             for i, j in itertools.combinations(range(len(runs)), 2)])
            order_kept += order == base_order
            decision_kept += _tukey(values) == base_decision
        rows = pairs[pairs["measure"] == label]
        np.testing.assert_array_equal(rows["significant"], base_decision != 0)
        for column, counts in (("order_kept", order_kept), ("decision_kept", decision_kept)):
            mine, theirs = counts / own, rows[column].to_numpy()
            pooled = (counts + theirs * REPLICATES) / (own + REPLICATES)
            tolerance = 4.5 * np.sqrt(pooled * (1 - pooled) * (1 / own + 1 / REPLICATES)) \
                + 1 / own + 1 / REPLICATES
            assert (np.abs(mine - theirs) <= tolerance).all(), (label, column, mine, theirs)


def test_the_tables_and_the_page_hold_the_section(data):
    _, _, report = data
    for fmt in ("markdown", "latex"):
        text = format_tables(report, fmt)
        assert "under judge noise" in text and "fragile" in text and "robust" in text
    page = render_html(report)
    contents = page[page.index('<nav id="contents"'):page.index("</nav>")]
    assert 'href="#judge-noise-section"' in contents
    assert 'href="#reproducibility"' in contents
    assert '<section id="judge-noise-section">' in page and 'id="judge-noise-measures"' in page
    fragile = int((noise_frames(report)[0][2]["verdict"] == "fragile").sum())
    assert f"{fragile} of {len(report.noise.pairs)} conclusions are fragile" in page


def test_without_a_confusion_no_section_and_replicates_refused(data):
    qrels, runs, _ = data
    report = build_report(qrels, runs, ["P_10"], robustness=False)
    assert report.noise is None and noise_frames(report) == []
    assert 'href="#judge-noise-section"' not in render_html(report)
    with pytest.raises(ParameterError, match="replicates applies to judge noise"):
        build_report(qrels, runs, ["P_10"], robustness=False, replicates=5)

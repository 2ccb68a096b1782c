"""The report's section on judge noise (``build_report(confusion=...)``, ``irscale report
--flip-rate``): its shares are those of :func:`irscale.collections.judge_noise` for the same
inputs and seed, its conclusions those of the report's Tukey HSD, and every pair's shares
agree, within binomial error, with a simulation written here (the qrels relabelled with
numpy under the flip model, evaluated by pytrec_eval, the topic-blocked Tukey HSD by
scipy's studentized range); the verdict follows the stated threshold; the LaTeX and
Markdown tables and the page's table of contents hold the section. With a baseline, the
conclusions against it are marked from the same replicates, and their shares agree with
the simulation's paired t-tests (scipy) Holm-corrected over every run × measure
(statsmodels); corrected over another family (none, each measure apart), they would not."""

from __future__ import annotations

import functools
import itertools
import re

import numpy as np
import pytest

from irscale.collections import Confusion, judge_noise, relabelled_qrels
from irscale.errors import ParameterError
from irscale.report import build_report, format_tables, render_html
from irscale.report.tables import ROBUST_SHARE, noise_frames

from .oracle_imports import lazy_import, lazy_importorskip, without_full_collections

pytrec_eval = lazy_importorskip("pytrec_eval")
sps = lazy_import("scipy.stats")
multitest = lazy_import("statsmodels.stats.multitest")

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


@pytest.fixture(scope="module")
def against_baseline(data):
    """The report of :func:`data` with the baseline r0 (t-test, Holm over the family)."""
    qrels, runs, _ = data
    return build_report(qrels, runs, list(MEASURES), robustness=False, baseline="r0",
                        confusion=Confusion.flip(FLIP), replicates=REPLICATES, seed=SEED)


def _relabelled(qrels, rng):
    """The qrels with every binary grade flipped with probability :data:`FLIP` (numpy)."""
    return {t: {d: int(g ^ (rng.random() < FLIP)) for d, g in judged.items()}
            for t, judged in sorted(qrels.items())}


def _within(counts, own, theirs):
    """Whether the shares ``counts / own`` of the simulation and ``theirs`` (of
    :data:`REPLICATES`) differ by at most 4.5 standard errors of a difference of two
    binomial shares (pooled), plus one replicate of each; per share."""
    pooled = (counts + theirs * REPLICATES) / (own + REPLICATES)
    tolerance = 4.5 * np.sqrt(pooled * (1 - pooled) * (1 / own + 1 / REPLICATES)) \
        + 1 / own + 1 / REPLICATES
    return np.abs(counts / own - theirs) <= tolerance


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
    pairs = report.noise.pairs
    for label, name in MEASURES.items():
        base = _values(qrels, runs, name)
        base_order = np.sign([base.mean(axis=0)[i] - base.mean(axis=0)[j]
                              for i, j in itertools.combinations(range(len(runs)), 2)])
        base_decision = _tukey(base)
        order_kept, decision_kept = np.zeros(len(base_order)), np.zeros(len(base_order))
        for _ in range(own):
            relabelled = _relabelled(qrels, rng)
            values = _values(relabelled, runs, name)
            means = values.mean(axis=0)
            order = np.sign([means[i] - means[j]
                             for i, j in itertools.combinations(range(len(runs)), 2)])
            order_kept += order == base_order
            decision_kept += _tukey(values) == base_decision
        rows = pairs[pairs["measure"] == label]
        np.testing.assert_array_equal(rows["significant"], base_decision != 0)
        for column, counts in (("order_kept", order_kept), ("decision_kept", decision_kept)):
            theirs = rows[column].to_numpy()
            assert _within(counts, own, theirs).all(), (label, column, counts / own, theirs)


#: The families of the comparisons with the baseline: every run × measure (the report's),
#: none (each comparison alone), each measure apart.
FAMILIES = ("all", "none", "measure")


def _baseline_decisions(scores, family, alpha=0.05):
    """Per (measure, run ≠ r0), in the measures' then the runs' order: +1/−1 the direction
    of a difference with r0 significant after Holm's correction over ``family``, 0 not
    significant; paired t-tests by scipy, the correction by statsmodels."""
    diffs = [(values[:, k] - values[:, 0]) for values in scores.values()
             for k in range(1, values.shape[1])]
    p = np.array([sps.ttest_rel(d, np.zeros_like(d)).pvalue for d in diffs])
    with without_full_collections():
        return np.where(_rejected(p, family, len(scores), alpha),
                        np.sign([d.mean() for d in diffs]), 0)


def _rejected(p, family, measures, alpha):
    """Which of the p-values ``p`` are rejected by Holm's correction over ``family``
    (statsmodels; "none": uncorrected)."""
    if family == "all":
        reject = multitest.multipletests(p, alpha, method="holm")[0]
    elif family == "none":
        reject = p <= alpha
    else:
        per = len(p) // measures
        reject = np.concatenate([multitest.multipletests(p[i:i + per], alpha,
                                                         method="holm")[0]
                                 for i in range(0, len(p), per)])
    return reject


def test_the_conclusions_against_the_baseline_agree_with_a_simulation(data, against_baseline):
    """The same replicates as the Tukey HSD's (same seed), the conclusions those of the
    report's comparison (as scipy and statsmodels decide them), and every conclusion's
    share of replicates that keep its decision against 300 replicates drawn here."""
    qrels, runs, _ = data
    report = against_baseline
    np.testing.assert_array_equal(report.noise.pairs.to_numpy(),
                                  data[2].noise.pairs.to_numpy())
    found = report.noise_baseline
    np.testing.assert_array_equal(found[["measure", "run", "delta", "significant"]],
                                  report.comparison[["measure", "run", "delta", "significant"]])
    scores = {label: _values(qrels, runs, name) for label, name in MEASURES.items()}
    base = _baseline_decisions(scores, "all")
    np.testing.assert_array_equal(
        base, np.where(found["significant"], np.sign(found["delta"]), 0))
    own = 300
    rng = np.random.default_rng(54321)
    kept = np.zeros(len(base))
    for _ in range(own):
        relabelled = _relabelled(qrels, rng)
        kept += _baseline_decisions({label: _values(relabelled, runs, name)
                                     for label, name in MEASURES.items()}, "all") == base
    theirs = found["decision_kept"].to_numpy()
    assert _within(kept, own, theirs).all(), (kept / own, theirs)
    table = dict((i, f) for i, _, f in noise_frames(report))["judge-noise-baseline"]
    np.testing.assert_array_equal(table["decision kept"], theirs)
    assert (table["verdict"] == np.where(theirs >= ROBUST_SHARE, "robust", "fragile")).all()
    assert set(table["verdict"]) == {"robust", "fragile"}


def test_the_baseline_family_is_every_run_and_measure(data, against_baseline):
    """On the report's own replicates (:func:`~irscale.collections.relabelled_qrels`, the
    same draws), evaluated by pytrec_eval and decided by scipy and statsmodels: the shares
    are those of Holm over every run × measure, and not those of no correction or of each
    measure apart (whose decisions differ here already on the original qrels)."""
    qrels, runs, _ = data
    scores = {label: _values(qrels, runs, name) for label, name in MEASURES.items()}
    base = _baseline_decisions(scores, "all")
    assert all((_baseline_decisions(scores, f) != base).any() for f in FAMILIES[1:])
    kept = {family: np.zeros(len(base)) for family in FAMILIES}
    for replicate in relabelled_qrels(qrels, Confusion.flip(FLIP), REPLICATES, rng=SEED):
        judged = {}
        for t, d, g in zip(replicate.topic.to_pylist(), replicate.docno.to_pylist(),
                           np.asarray(replicate.rel).tolist(), strict=True):
            judged.setdefault(t, {})[d] = int(g)
        values = {label: _values(judged, runs, name) for label, name in MEASURES.items()}
        for family in FAMILIES:
            kept[family] += _baseline_decisions(values, family) == base
    theirs = against_baseline.noise_baseline["decision_kept"].to_numpy()
    np.testing.assert_allclose(kept["all"] / REPLICATES, theirs)
    for family in FAMILIES[1:]:
        assert not np.allclose(kept[family] / REPLICATES, theirs), family


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


def test_the_tables_and_the_page_hold_the_conclusions_against_the_baseline(
        data, against_baseline):
    report = against_baseline
    caption = "Every conclusion against the baseline r0"
    for fmt in ("markdown", "latex"):
        text = format_tables(report, fmt)
        assert caption in text and "no significant difference" in text
    page = render_html(report)
    assert 'id="judge-noise-baseline"' in page and caption in page
    fragile = int((report.noise_baseline["decision_kept"] < ROBUST_SHARE).sum())
    assert f"{fragile} of {len(report.noise_baseline)} are" in page
    assert data[2].noise_baseline is None  # no baseline, no table
    assert 'id="judge-noise-baseline"' not in render_html(data[2])


def test_without_a_confusion_no_section_and_replicates_refused(data):
    qrels, runs, _ = data
    report = build_report(qrels, runs, ["P_10"], robustness=False)
    assert report.noise is None and noise_frames(report) == []
    assert 'href="#judge-noise-section"' not in render_html(report)
    with pytest.raises(ParameterError,
                       match=re.escape("replicates= applies to judge noise (confusion=)")):
        build_report(qrels, runs, ["P_10"], robustness=False, replicates=5)

"""Automatic judgments corrected with a human sample (irscale.collections.automatic):
the prediction-powered means equal ppi-python's (the authors' library); the per-topic values
behind them equal pytrec_eval's; the agreement tables equal scipy's tests and counts made
here from the files; and on the CLEF eHealth 2016 qrels, with automatic labels made noisy
with a known confusion, the intervals cover the human mean of all topics at least at the
nominal rate (a simulation with a fixed seed)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from irscale.cli.main import main
from irscale.collections import automatic_judgments, ppi_mean
from irscale.errors import AlignmentError, InputError, ParameterError

from .conftest import CLEF, require
from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")

ppi_py = lazy_import("ppi_py")


def _data(seed: int, n: int, big_n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.beta(2, 5, n + big_n)
    guess = np.clip(truth + rng.normal(0.05, 0.1, n + big_n), 0, 1)
    return truth[:n], guess[:n], guess[n:]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(("tuning", "lam"), [("ppi++", None), ("ppi", 1), ("classical", 0)])
def test_ppi_mean_equals_ppi_python(seed, tuning, lam):
    n, big_n = [(5, 40), (20, 30), (100, 900), (3, 3)][seed % 4]
    y, yhat, rest = _data(seed, n, big_n)
    alpha = [0.05, 0.1, 0.01][seed % 3]
    ours = ppi_mean(y, yhat, rest, alpha=alpha, tuning=tuning)
    low, high = ppi_py.ppi_mean_ci(y, yhat, rest, alpha=alpha, lam=lam)
    point = ppi_py.ppi_mean_pointestimate(y, yhat, rest, lam=lam)
    assert ours.estimate == pytest.approx(float(np.ravel(point)[0]), rel=1e-12, abs=1e-14)
    assert ours.low == pytest.approx(float(np.ravel(low)[0]), rel=1e-10, abs=1e-13)
    assert ours.high == pytest.approx(float(np.ravel(high)[0]), rel=1e-10, abs=1e-13)
    assert 0 <= ours.lam <= 1


def test_ppi_mean_refuses_what_it_cannot_estimate():
    with pytest.raises(ParameterError, match="tuning"):
        ppi_mean([1, 2], [1, 2], [1], tuning="best")
    with pytest.raises(ParameterError, match="one automatic value per human value"):
        ppi_mean([1, 2, 3], [1, 2], [1])
    with pytest.raises(InputError, match="2 labelled units"):
        ppi_mean([1], [1], [1, 2])
    with pytest.raises(InputError, match="finite"):
        ppi_mean([1, np.nan], [1, 2], [1])
    with pytest.raises(ParameterError, match="alpha"):
        ppi_mean([1, 2], [1, 2], [1], alpha=1.5)


# ----------------------------------------------------------------- CLEF eHealth 2016
def _qrels(path) -> list[tuple[str, str, int]]:
    rows = []
    for line in path.read_text().splitlines():
        topic, _, docno, rel = line.split()
        rows.append((topic, docno, int(rel)))
    return rows


def _noisy(rows, rng, miss: float = 0.3, false: float = 0.1) -> list[tuple[str, str, int]]:
    """The automatic labels: a relevant document judged 0 with probability ``miss``, a
    non-relevant one judged 1 with probability ``false``."""
    draws = rng.random(len(rows))
    return [(t, d, 0 if r > 0 and u < miss else 1 if r == 0 and u < false else r)
            for (t, d, r), u in zip(rows, draws, strict=True)]


def _write(path, rows) -> str:
    path.write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in rows))
    return str(path)


@pytest.fixture(scope="module")
def clef_setup(tmp_path_factory):
    from .conftest import CLEF, require

    clef = require(CLEF)
    tmp = tmp_path_factory.mktemp("automatic")
    rng = np.random.default_rng(2024)
    truth = _qrels(clef / "task2.qrels")
    auto = _noisy(truth, rng)
    topics = sorted({t for t, _, _ in truth})
    labelled = set(rng.choice(topics, 20, replace=False).tolist())
    runs = sorted(str(p) for p in (clef / "runs").iterdir())[:4]
    return {"truth": truth, "auto": auto, "topics": topics, "labelled": labelled,
            "runs": runs,
            "auto_path": _write(tmp / "auto.qrels", auto),
            "human_path": _write(tmp / "human.qrels",
                                 [r for r in truth if r[0] in labelled]),
            "truth_path": str(clef / "task2.qrels")}


def _pytrec_values(rows, run_path, measure: str, topics) -> np.ndarray:
    """Per-topic values by pytrec_eval, 0 for a topic the run does not retrieve."""
    import pytrec_eval

    qrels: dict[str, dict[str, int]] = {}
    for t, d, r in rows:
        qrels.setdefault(t, {})[d] = r
    run: dict[str, dict[str, float]] = {}
    for line in open(run_path):
        t, _, d, _, score, _ = line.split()
        run.setdefault(t, {})[d] = float(score)
    found = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(
        {t: docs for t, docs in run.items() if t in qrels})
    return np.array([found.get(t, {}).get(measure, 0.0) for t in topics])


def test_estimates_equal_ppi_python_on_pytrec_eval_values(clef_setup):
    s = clef_setup
    result = automatic_judgments(s["auto_path"], s["human_path"], s["runs"], ["map", "P.10"],
                                 pairs=True)
    frame = result.to_frame()
    labelled = [t for t in s["topics"] if t in s["labelled"]]
    others = [t for t in s["topics"] if t not in s["labelled"]]
    human_rows = [r for r in s["truth"] if r[0] in s["labelled"]]
    for measure, label in (("map", "map"), ("P_10", "P_10")):
        y = {p: _pytrec_values(human_rows, p, measure, labelled) for p in s["runs"]}
        yhat = {p: _pytrec_values(s["auto"], p, measure, labelled) for p in s["runs"]}
        rest = {p: _pytrec_values(s["auto"], p, measure, others) for p in s["runs"]}
        rows = frame[frame.measure == label]
        means = rows[rows.kind == "mean"]
        pair_rows = rows[rows.kind == "difference"]
        assert len(means) == 4 and len(pair_rows) == 6
        for (_, row), path in zip(means.iterrows(), s["runs"], strict=True):
            _check_row(row, y[path], yhat[path], rest[path])
        for (_, row), (a, b) in zip(pair_rows.iterrows(),
                                    itertools.combinations(s["runs"], 2), strict=True):
            _check_row(row, y[a] - y[b], yhat[a] - yhat[b], rest[a] - rest[b])


def _check_row(row, y, yhat, rest) -> None:
    low, high = ppi_py.ppi_mean_ci(y, yhat, rest, alpha=0.05)
    point = ppi_py.ppi_mean_pointestimate(y, yhat, rest)
    c_low, c_high = ppi_py.ppi_mean_ci(y, yhat, rest, alpha=0.05, lam=0)
    assert row.ppi == pytest.approx(float(np.ravel(point)[0]), abs=1e-12)
    assert (row.ppi_low, row.ppi_high) == pytest.approx(
        (float(np.ravel(low)[0]), float(np.ravel(high)[0])), abs=1e-12)
    assert row.human == pytest.approx(float(np.mean(y)), abs=1e-12)
    assert (row.human_low, row.human_high) == pytest.approx(
        (float(np.ravel(c_low)[0]), float(np.ravel(c_high)[0])), abs=1e-12)
    assert row.automatic == pytest.approx(float(np.mean(np.concatenate([yhat, rest]))),
                                          abs=1e-12)
    assert (row.labelled, row.others) == (len(y), len(rest))


def test_agreement_tables_equal_counts_and_scipy(clef_setup):
    s = clef_setup
    result = automatic_judgments(s["auto_path"], s["human_path"], s["runs"], "map")
    human = {(t, d): r for t, d, r in s["truth"] if t in s["labelled"]}
    pairs = Counter((r, human[(t, d)]) for t, d, r in s["auto"] if (t, d) in human)
    for (auto_grade, human_grade), count in pairs.items():
        assert result.confusion.loc[auto_grade, f"human={human_grade}"] == count
    assert result.labels["documents"].iloc[0] == sum(pairs.values())
    labelled = [t for t in s["topics"] if t in s["labelled"]]
    human_rows = [r for r in s["truth"] if r[0] in s["labelled"]]
    y = np.array([_pytrec_values(human_rows, p, "map", labelled) for p in s["runs"]]).T
    yhat = np.array([_pytrec_values(s["auto"], p, "map", labelled) for p in s["runs"]]).T
    row = result.systems.iloc[0]
    assert row.tau == pytest.approx(stats.kendalltau(y.mean(0), yhat.mean(0)).statistic)
    significant = {"human": 0, "automatic": 0, "both": 0}
    for a, b in itertools.combinations(range(4), 2):
        h = stats.ttest_rel(y[:, a], y[:, b]).pvalue < 0.05
        g = stats.ttest_rel(yhat[:, a], yhat[:, b]).pvalue < 0.05
        same = np.sign(y[:, a].mean() - y[:, b].mean()) == \
            np.sign(yhat[:, a].mean() - yhat[:, b].mean())
        significant["human"] += h
        significant["automatic"] += g
        significant["both"] += h and g and same
    assert (row.significant_human, row.significant_automatic, row.significant_both) == (
        significant["human"], significant["automatic"], significant["both"])


def _tau_ap(x: np.ndarray, gold: np.ndarray) -> float:
    """τ_ap of the ranking by ``x`` against the gold ranking by ``gold`` (Yilmaz, Aslam and
    Robertson 2008, eq. 3: 2/(n−1)·Σ_{i≥2} C(i)/(i−1) − 1, C(i) the items above the i-th of
    x's ranking that the gold ranking also puts above it); no ties."""
    order = np.argsort(-x)
    total = sum(sum(gold[order[j]] > gold[order[i]] for j in range(i)) / i
                for i in range(1, len(x)))
    return 2 * total / (len(x) - 1) - 1


def _rbo(x: np.ndarray, y: np.ndarray, p: float = 0.9) -> float:
    """Extrapolated RBO of two rankings of the same k items (Webber, Moffat and Zobel 2010,
    eq. 32: (X_k/k)·p^k + (1−p)/p·Σ_{d≤k} (X_d/d)·p^d, X_d the overlap at depth d)."""
    a, b, k = np.argsort(-x), np.argsort(-y), len(x)
    overlap = [len(set(a[:d]) & set(b[:d])) for d in range(1, k + 1)]
    return overlap[-1] / k * p**k + (1 - p) / p * sum(
        overlap[d - 1] / d * p**d for d in range(1, k + 1))


def test_ranking_agreement_with_swaps_equals_the_definitions(clef_setup, tmp_path):
    """Automatic grades inverted (2 − the human grade): the rankings disagree, and τ_b
    (scipy), τ_ap, RBO (p = 0.9), the number of swapped pairs and the largest swap (the
    swapped pair whose human means differ most) equal their definitions computed here from
    pytrec_eval's values on the labelled topics."""
    s = clef_setup
    inverted = [(t, d, 2 - r) for t, d, r in s["truth"]]
    runs = sorted(str(p) for p in (require(CLEF) / "runs").iterdir())[:8]
    result = automatic_judgments(_write(tmp_path / "inverted.qrels", inverted),
                                 s["human_path"], runs, ["map", "ndcg_cut_10"])
    labelled = [t for t in s["topics"] if t in s["labelled"]]
    names = result.estimates["system"].iloc[:len(runs)].tolist()
    for measure, row in zip(("map", "ndcg_cut_10"), result.systems.itertuples(),
                            strict=True):
        human_rows = [r for r in s["truth"] if r[0] in s["labelled"]]
        y = np.array([_pytrec_values(human_rows, p, measure, labelled).mean() for p in runs])
        yhat = np.array([_pytrec_values(inverted, p, measure, labelled).mean() for p in runs])
        assert len(set(y)) == len(set(yhat)) == len(runs)  # no ties: the definitions hold
        assert row.tau == pytest.approx(stats.kendalltau(y, yhat).statistic, abs=1e-12)
        assert row.tau_ap == pytest.approx(_tau_ap(yhat, y), abs=1e-12)
        assert row.rbo == pytest.approx(_rbo(y, yhat), abs=1e-12)
        swapped = [(a, b) for a, b in itertools.combinations(range(len(runs)), 2)
                   if (y[a] - y[b]) * (yhat[a] - yhat[b]) < 0]
        assert row.swaps == len(swapped) > 0
        a, b = max(swapped, key=lambda pair: abs(y[pair[0]] - y[pair[1]]))
        assert row.largest_swap == f"{names[a]} vs {names[b]}"
        assert row.largest_swap_human_diff == pytest.approx(abs(y[a] - y[b]), abs=1e-12)


def test_intervals_cover_the_human_mean_of_every_topic(clef_setup):
    """200 human samples of 20 of the 50 topics (seed 7): the 95% PPI++ interval of each
    run's MAP covers the mean over all 50 topics under the human judgments at a rate within
    the binomial band of 0.95 or above, and is narrower on average than the interval of the
    human sample alone."""
    s = clef_setup
    truth = np.array([_pytrec_values(s["truth"], p, "map", s["topics"]) for p in s["runs"]]).T
    auto = np.array([_pytrec_values(s["auto"], p, "map", s["topics"]) for p in s["runs"]]).T
    target = truth.mean(axis=0)
    rng = np.random.default_rng(7)
    covered = np.zeros(len(s["runs"]))
    ppi_width = human_width = 0.0
    repetitions = 200
    for _ in range(repetitions):
        chosen = np.zeros(len(s["topics"]), dtype=bool)
        chosen[rng.choice(len(s["topics"]), 20, replace=False)] = True
        for r in range(len(s["runs"])):
            est = ppi_mean(truth[chosen, r], auto[chosen, r], auto[~chosen, r])
            alone = ppi_mean(truth[chosen, r], auto[chosen, r], auto[~chosen, r],
                             tuning="classical")
            covered[r] += est.low <= target[r] <= est.high
            ppi_width += est.high - est.low
            human_width += alone.high - alone.low
    rate = covered / repetitions
    band = 3 * np.sqrt(0.95 * 0.05 / repetitions)
    assert (rate >= 0.95 - band).all(), rate
    assert ppi_width < human_width


def test_refusals(clef_setup, tmp_path):
    s = clef_setup
    other = _write(tmp_path / "other.qrels", [("999", "d", 1), ("998", "d", 0)])
    with pytest.raises(AlignmentError, match="'999'"):
        automatic_judgments(s["auto_path"], other, s["runs"], "map")
    with pytest.raises(InputError, match="leave 1"):
        automatic_judgments(s["auto_path"], s["truth_path"], s["runs"], "map")
    with pytest.raises(ParameterError, match="two runs"):
        automatic_judgments(s["auto_path"], s["human_path"], s["runs"][:1], "map")
    with pytest.raises(Exception, match="gm_map"):
        automatic_judgments(s["auto_path"], s["human_path"], s["runs"], "gm_map")


def test_command_line_prints_the_api_estimates(clef_setup, tmp_path, capsys):
    s = clef_setup
    out = tmp_path / "est.csv"
    assert main(["labels", "auto", s["auto_path"], s["human_path"], *s["runs"], "-m", "map",
                 "--format", "csv", "-o", str(out)]) == 0
    import pandas as pd

    printed = pd.read_csv(out)
    expected = automatic_judgments(s["auto_path"], s["human_path"], s["runs"], "map").to_frame()
    assert printed["ppi"].tolist() == pytest.approx(expected["ppi"].tolist(), abs=1e-12)
    assert printed["system"].tolist() == expected["system"].tolist()
    assert main(["labels", "auto", s["auto_path"], s["human_path"], *s["runs"], "-m", "map",
                 "--pairs", "--tuning", "ppi"]) == 0
    text = capsys.readouterr().out
    assert "Means corrected with the human sample (ppi, 95% intervals)" in text
    assert "Agreement of the system rankings" in text

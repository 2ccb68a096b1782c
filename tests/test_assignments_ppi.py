"""Nugget scores of a model's assignments corrected on a human sample
(:mod:`irscale.evaluation.assignments_ppi`): a tiny case by hand, ppi-python's
``ppi_mean_ci`` on the same arrays (uniform and answers designs), and the coverage of the
intervals over simulated collections whose human labels are all known."""

from __future__ import annotations

import numpy as np
import pytest

from irscale.text import evaluate_assignments

from .oracle_imports import lazy_import

ppi_py = lazy_import("ppi_py")

LABELS = ("not_support", "partial_support", "support")
CREDIT = np.array([0.0, 0.5, 1.0])


def nugget(importance: str, assignment: str, text: str, **more: object) -> dict:
    return {"text": text, "importance": importance, "assignment": assignment, **more}


#: Two answers of one run, 6 nuggets; the human sample relabels 4 of them.
MODEL = [{"qid": "q1", "run_id": "m", "nuggets": [
    nugget("vital", "support", "a"), nugget("okay", "partial_support", "b"),
    nugget("vital", "not_support", "c")]},
    {"qid": "q2", "run_id": "m", "nuggets": [
        nugget("vital", "not_support", "a"), nugget("okay", "support", "b"),
        nugget("okay", "support", "d")]}]
HUMAN = [{"qid": "q1", "run_id": "m", "nuggets": [
    nugget("vital", "partial_support", "a"), nugget("okay", "support", "b")]},
    {"qid": "q2", "run_id": "m", "nuggets": [
        nugget("vital", "support", "a"), nugget("okay", "support", "d")]}]


def test_tiny_case_by_hand():
    """A: every nugget weighs 1/3 of its answer, 2 answers, 6 nuggets, so z = 6·(1/3)/2·s
    = s. Model credits of all 6: 1, .5, 0, 0, 1, 1 (mean 7/12, the model's A: (1.5/3 +
    2/3)/2); sampled: human 0.5, 1, 1, 1 against model 1, .5, 0, 1, errors -.5, .5, 1, 0
    (mean 1/4). PPI: 7/12 + 1/4 = 5/6; variance var_P(ẑ)/6 + var_S(e)/4 = (29/144)/6 +
    (5/16)/4 (divisor the count). Human alone: mean 7/8, variance (3/64)/4."""
    found = evaluate_assignments(MODEL, "A", human_sample=HUMAN, tuning="ppi",
                                 alpha=0.05).to_frame().iloc[0]
    z = 1.959963984540054
    se = np.sqrt(29 / 144 / 6 + 5 / 16 / 4)
    assert found["model"] == pytest.approx(7 / 12)
    assert found["correction"] == pytest.approx(1 / 4)
    assert found["ppi"] == pytest.approx(5 / 6)
    assert found["ppi_low"] == pytest.approx(5 / 6 - z * se)
    assert found["ppi_high"] == pytest.approx(5 / 6 + z * se)
    assert found["lam"] == 1.0
    assert found["human"] == pytest.approx(7 / 8)
    assert found["human_high"] == pytest.approx(7 / 8 + z * np.sqrt(3 / 64 / 4))
    assert (found["labelled"], found["units"], found["topic"]) == (4, 6, "all")


def test_tiny_case_answers_by_hand():
    """q1 alone relabelled... is too few (2 answers a run at least): both relabelled
    whole, the PPI estimate is the human mean exactly (every answer labelled)."""
    human = [{"qid": "q1", "run_id": "m", "nuggets": [
        nugget("vital", "partial_support", "a"), nugget("okay", "support", "b"),
        nugget("vital", "not_support", "c")]},
        {"qid": "q2", "run_id": "m", "nuggets": [
            nugget("vital", "support", "a"), nugget("okay", "support", "b"),
            nugget("okay", "support", "d")]}]
    found = evaluate_assignments(MODEL, "A", human_sample=human, design="answers",
                                 tuning="ppi").to_frame().iloc[0]
    assert found["ppi"] == pytest.approx((1.5 / 3 + 1) / 2)
    assert found["model"] == pytest.approx((1.5 / 3 + 2 / 3) / 2)
    assert (found["labelled"], found["units"]) == (2, 2)


def collection(rng: np.random.Generator, runs: int = 2, answers: int = 30, size: int = 5,
               accuracy: float = 0.7) -> tuple[list[dict], np.ndarray, np.ndarray,
                                               np.ndarray, np.ndarray]:
    """Records of a model whose label is the truth with probability ``accuracy`` (a
    uniform label otherwise), and per nugget its run, answer, vital flag, true and model
    code."""
    n = answers * size
    run_of = np.repeat(np.arange(runs), n)
    answer_of = np.repeat(np.arange(runs * answers), size)
    vital = np.tile(np.arange(size) < 2, runs * answers)
    skill = 0.2 * run_of  # the runs differ
    draw = rng.random(len(run_of))
    truth = (draw > 0.4 - skill / 2).astype(int) + (draw > 0.6 - skill / 2)
    model = np.where(rng.random(len(truth)) < accuracy, truth, rng.integers(3, size=len(truth)))
    records = [{"qid": f"q{a % answers}", "run_id": f"r{a // answers}", "nuggets": [
        nugget("vital" if v < 2 else "okay", LABELS[model[a * size + v]], f"n{v}")
        for v in range(size)]} for a in range(runs * answers)]
    return records, run_of, answer_of, vital, np.array([truth, model])


def human_records(records: list[dict], truth: np.ndarray, chosen: np.ndarray,
                  prob: np.ndarray | None = None) -> list[dict]:
    """The human records of the nuggets ``chosen`` (flat indices), their true labels."""
    out, k = [], 0
    for record in records:
        nuggets = []
        for v in record["nuggets"]:
            if k in chosen:
                more = {} if prob is None else {"prob": float(prob[k])}
                nuggets.append({**v, "assignment": LABELS[truth[k]], **more})
            k += 1
        if nuggets:
            out.append({**record, "nuggets": nuggets})
    return out


def weights(vital: np.ndarray, answer: np.ndarray, measure: str) -> np.ndarray:
    """c_v: the nugget's share of its answer's score (W: 1 vital, 0.5 okay)."""
    w = np.where(vital, 1.0, 0.5) if measure == "W" else np.ones(len(vital))
    return w / np.bincount(answer, weights=w)[answer]


@pytest.mark.parametrize(("tuning", "lam"), [("ppi++", None), ("ppi", 1), ("classical", 0)])
@pytest.mark.parametrize("measure", ["A", "W"])
def test_uniform_design_equals_ppi_python(tuning, lam, measure):
    rng = np.random.default_rng(7)
    records, run_of, answer, vital, (truth, model) = collection(rng)
    chosen = np.sort(rng.choice(len(truth), 70, replace=False))
    found = evaluate_assignments(records, measure, human_sample=human_records(
        records, truth, set(chosen.tolist())), tuning=tuning, alpha=0.1).to_frame()
    c = weights(vital, answer, measure)
    for r in range(2):
        inside = run_of == r
        big_p, answers = int(inside.sum()), len(set(answer[inside].tolist()))
        z = big_p * c / answers * CREDIT[truth]
        zhat = big_p * c / answers * CREDIT[model]
        picked = chosen[run_of[chosen] == r]
        low, high = ppi_py.ppi_mean_ci(z[picked], zhat[picked], zhat[inside], alpha=0.1,
                                       lam=lam)
        point = ppi_py.ppi_mean_pointestimate(z[picked], zhat[picked], zhat[inside], lam=lam)
        row = found.iloc[r]
        assert row["run"] == f"r{r}"
        assert row["ppi"] == pytest.approx(float(np.ravel(point)[0]), rel=1e-9)
        assert row["ppi_low"] == pytest.approx(float(np.ravel(low)[0]), rel=1e-9)
        assert row["ppi_high"] == pytest.approx(float(np.ravel(high)[0]), rel=1e-9)
        assert row["model"] == pytest.approx(float(zhat[inside].mean()), rel=1e-12)
        assert row["correction"] == pytest.approx(row["ppi"] - row["model"], abs=1e-15)


def test_answers_design_equals_ppi_python():
    rng = np.random.default_rng(3)
    records, run_of, answer, vital, (truth, model) = collection(rng)
    sampled = rng.choice(len(records), 24, replace=False)
    chosen = set(np.flatnonzero(np.isin(answer, sampled)).tolist())
    found = evaluate_assignments(records, "W", human_sample=human_records(
        records, truth, chosen), design="answers", alpha=0.1).to_frame()
    c = weights(vital, answer, "W")
    y = np.bincount(answer, weights=c * CREDIT[truth])
    yhat = np.bincount(answer, weights=c * CREDIT[model])
    for r in range(2):
        mine = np.unique(answer[run_of == r])
        picked = np.intersect1d(mine, sampled)
        low, high = ppi_py.ppi_mean_ci(y[picked], yhat[picked], yhat[mine], alpha=0.1)
        assert found.iloc[r]["ppi_low"] == pytest.approx(float(np.ravel(low)[0]), rel=1e-9)
        assert found.iloc[r]["ppi_high"] == pytest.approx(float(np.ravel(high)[0]), rel=1e-9)


@pytest.mark.parametrize(("design", "reps"), [("uniform", 300), ("stratified", 150),
                                              ("inclusion", 150)])
def test_intervals_cover_the_human_score(design, reps):
    """Over simulated collections (the model right 60% of the time), the 90% interval of
    each run's W holds the score under the true labels of every nugget at 90% at least,
    less three Monte Carlo standard errors."""
    rng = np.random.default_rng(11)
    alpha, covered, total = 0.1, 0, 0
    for _ in range(reps):
        records, _, answer, vital, (truth, model) = collection(
            rng, runs=1, answers=20, size=5, accuracy=0.6)
        c = weights(vital, answer, "W")
        target = float(np.bincount(answer, weights=c * CREDIT[truth]).mean())
        prob = None
        if design == "inclusion":  # nuggets the model calls supported twice as likely
            prob = np.where(model == 2, 0.5, 0.25)
            chosen = np.flatnonzero(rng.random(len(truth)) < prob)
        elif design == "stratified":
            chosen = np.concatenate([rng.choice(np.flatnonzero(model == h), 10, replace=False)
                                     for h in range(3)])
        else:
            chosen = rng.choice(len(truth), 30, replace=False)
        row = evaluate_assignments(records, "W", human_sample=human_records(
            records, truth, set(chosen.tolist()), prob), design=design,
            alpha=alpha).to_frame().iloc[0]
        covered += row["ppi_low"] <= target <= row["ppi_high"]
        total += 1
    assert covered / total >= 1 - alpha - 3 * np.sqrt(alpha * (1 - alpha) / total)


def test_answers_rows_and_per_topic_rows():
    """The answers' rows: their model score, and an estimate where the answer's own
    sample allows one (2 sampled nuggets: both answers here)."""
    found = evaluate_assignments(MODEL, ["A", "W"], human_sample=HUMAN)
    frame = found.to_frame(per_topic=True)
    assert frame["topic"].tolist() == ["q1", "q2", "all", "q1", "q2", "all"]
    q1 = frame.iloc[0]
    assert q1["model"] == pytest.approx(0.5)
    assert q1["labelled"] == 2 and q1["units"] == 3
    assert found.to_frame(per_topic=True, summary=False)["topic"].tolist() == ["q1", "q2"] * 2


def test_stratum_too_small_names_a_run_with_braces():
    """A run id holding braces is named as it is (the message is no format template)."""
    from irscale.errors import InputError

    model = [{**r, "run_id": "m{0}"} for r in MODEL]
    human = [{**r, "run_id": "m{0}"} for r in HUMAN]
    with pytest.raises(InputError, match=r"of run 'm\{0\}' the model labels"):
        evaluate_assignments(model, "A", human_sample=human, design="stratified")

"""Click logs and click models: the reader's errors, EM against a plain
per-session EM that enumerates every latent configuration, closed forms by hand, the
session probabilities summing to 1, parameter recovery and held-out comparisons."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from irscale.errors import DuplicateError, EmptyInputError, InputFormatError, ParameterError
from irscale.online.click_kernels import pair_codes
from irscale.online.clicklog import ClickLog, read_click_log
from irscale.online.clickmodels import MODELS, ClickModel, fit_click_model, read_click_model
from irscale.online.params import CLOSED_FORM_MODELS

# ------------------------------------------------------------------------ the reader


def lines(*rows: str) -> bytes:
    return ("\n".join(rows) + "\n").encode()


GOOD = ["s1 q1 1 d1 1", "s1 q1 2 d2 0", "s1 q1 3 d3 1", "s2 q2 2 d1 0", "s2 q2 1 d4 0"]


def test_reader_builds_the_matrices_in_any_line_order():
    log = read_click_log(lines(*GOOD))
    assert log.sessions.tolist() == ["s1", "s2"]
    assert log.queries[log.query].tolist() == ["q1", "q2"]
    assert log.docs[log.doc[0]].tolist() == ["d1", "d2", "d3"]
    assert log.docs[log.doc[1, :2]].tolist() == ["d4", "d1"] and log.doc[1, 2] == -1
    assert log.clicks.astype(int).tolist() == [[1, 0, 1], [0, 0, 0]]
    assert log.lengths.tolist() == [3, 2] and log.serp_size == 3
    back = read_click_log(log.to_frame())
    assert back.to_frame().equals(log.to_frame())


def test_reader_timestamps_tabs_and_parquet(tmp_path):
    text = "\n".join("\t".join(line.split()) + f"\t{i}.5" for i, line in enumerate(GOOD))
    log = read_click_log(text.encode())
    assert log.timestamps is not None and log.timestamps[0, 2] == 2.5
    assert np.isnan(log.timestamps[1, 2])
    path = tmp_path / "log.parquet"
    log.to_frame().to_parquet(path)
    again = read_click_log(path)
    assert again.to_frame().equals(log.to_frame())


def test_tabs_single_or_mixed_with_blanks_read_as_blanks():
    spaced = read_click_log(lines(*GOOD)).to_frame()
    tabbed = "\n".join("\t".join(line.split()) for line in GOOD).encode()
    mixed = b"\n".join([b"  s1\t q1 \t1\td1  1 "] + [line.encode() for line in GOOD[1:]])
    assert read_click_log(tabbed).to_frame().equals(spaced)
    assert read_click_log(mixed).to_frame().equals(spaced)
    with pytest.raises(InputFormatError, match="line 2"):
        read_click_log(tabbed.replace(b"s1\tq1\t2", b"s1\tq1\t0x2"))


def test_serp_size_declared():
    assert read_click_log(lines(*GOOD), serp_size=10).serp_size == 10
    wider = read_click_log(read_click_log(lines(*GOOD)), serp_size=4)
    assert wider.serp_size == 4 and wider.doc[:, 3].tolist() == [-1, -1]
    with pytest.raises(InputFormatError, match=r"line 3: rank beyond the SERP size 2"):
        read_click_log(lines(*GOOD), serp_size=2)
    with pytest.raises(ParameterError):
        read_click_log(lines(*GOOD), serp_size=0)


@pytest.mark.parametrize("bad, line, error, words", [
    ("s1 q1 2 d2 2", 2, InputFormatError, "clicked must be 0 or 1"),
    ("s1 q1 2 d2 x", 2, InputFormatError, "clicked is not an integer"),
    ("s1 q1 0 d2 0", 2, InputFormatError, "rank must be 1 or more"),
    ("s1 q1 1 d2 0", 2, DuplicateError, "rank given twice"),
    ("s1 q1 2 d1 0", 2, DuplicateError, "document 'd1' shown twice in session 's1'"),
    ("s1 q9 2 d2 0", 2, InputFormatError, "one query"),
    ("s1 q1 2 d2", 2, InputFormatError, "expected 5 fields"),
    ("s1 q1 4 d2 0", 4, InputFormatError, "not 1..n"),
])
def test_reader_errors_name_the_line(bad, line, error, words):
    rows = list(GOOD)
    rows[1] = bad
    if "4 d2" in bad:  # session s1: ranks 1, 3, 4: rank 2 missing (named at rank 4)
        rows[1] = GOOD[1].replace(" 2 d2", " 4 d2")
        rows.insert(3, rows.pop(1))
    with pytest.raises(error, match=words) as caught:
        read_click_log(lines(*rows))
    assert f"line {line}:" in str(caught.value)


def test_reader_empty_and_parquet_errors(tmp_path):
    with pytest.raises(EmptyInputError):
        read_click_log(b"\n  \n")
    frame = read_click_log(lines(*GOOD)).to_frame()
    frame.loc[3, "clicked"] = 3
    path = tmp_path / "bad.parquet"
    frame.to_parquet(path)
    with pytest.raises(InputFormatError, match="row 4: clicked must be 0 or 1"):
        read_click_log(path)


# ------------------------------------------------------------- synthetic click logs


def serps(sessions: int, ranks: int, queries: int, docs: int, seed: int,
          lengths: bool = False) -> ClickLog:
    """Random result pages (no clicks yet): each query shows ``ranks`` of its ``docs``."""
    rng = np.random.default_rng(seed)
    query = rng.integers(0, queries, sessions)
    doc = np.argsort(rng.random((sessions, docs)), axis=1)[:, :ranks]
    length = rng.integers(1, ranks + 1, sessions) if lengths else np.full(sessions, ranks)
    doc = np.where(np.arange(ranks) < length[:, None], doc, -1)
    return ClickLog(np.array([f"s{i}" for i in range(sessions)], dtype=object),
                    np.array([f"q{i}" for i in range(queries)], dtype=object),
                    np.array([f"d{i}" for i in range(docs)], dtype=object),
                    query, doc, np.zeros((sessions, ranks), dtype=bool), length)


def pair_series(log: ClickLog, values: np.ndarray) -> pd.Series:
    """``values[q, d]`` as a Series over every (query, docno) of ``log``."""
    q, d = np.meshgrid(np.arange(len(log.queries)), np.arange(len(log.docs)), indexing="ij")
    index = pd.MultiIndex.from_arrays([log.queries[q.ravel()], log.docs[d.ravel()]])
    return pd.Series(values.ravel(), index=index)


def truth(log: ClickLog, model: str, seed: int = 0) -> ClickModel:
    rng = np.random.default_rng(seed)
    shape = (len(log.queries), len(log.docs))
    n = log.serp_size
    extra = {
        "pbm": {"examination": 0.95 / np.arange(1, n + 1) ** 0.6},
        "ubm": {"examination": np.tril(rng.uniform(0.3, 0.95, (n, n)))},
        "dcm": {"continuation": np.linspace(0.9, 0.4, n)},
        "dbn": {"satisfaction": pair_series(log, rng.uniform(0.1, 0.8, shape)),
                "gamma": 0.85},
        "sdbn": {"satisfaction": pair_series(log, rng.uniform(0.1, 0.8, shape)),
                 "gamma": 1.0},
        "ccm": {"tau": (0.85, 0.6, 0.3)},
        "cm": {},
        "gctr": {"examination": np.full(n, 0.3)},
        "rctr": {"examination": 0.9 / np.arange(1, n + 1)},
        "dctr": {"examination": np.ones(n)},
    }[model]
    if model in ("gctr", "rctr"):  # no (query, document) parameter: α = 1
        return ClickModel(model, pair_series(log, np.ones(shape)), prior=(1.0, 0.5), **extra)
    return ClickModel(model, pair_series(log, rng.uniform(0.1, 0.8, shape)), **extra)


# ------------------------------------------------- a plain per-session EM (the oracle)


def chain_of(model: str, alpha: float, sigma: float, rank: int, p: dict) -> tuple:
    """(σ, g0, g0', g1) of a rank for the cascade models (module doc of clickmodels)."""
    if model == "dbn":
        return sigma, p["gamma"], p["gamma"], 0.0
    if model == "dcm":
        return 1.0 - p["lam"][rank], 1.0, 1.0, 0.0
    return alpha, *p["tau"]  # ccm


def plain_em(log: ClickLog, model: str, iterations: int, k: float) -> dict:
    """EM written session by session: every configuration of the latent variables of a
    session (attraction A_r, satisfaction S_r, the coin K_r that decides whether the
    user goes on) is enumerated, its probability computed from the model's definition,
    and the expected counts of the complete-data likelihood summed."""
    pairs: dict[tuple[int, int], int] = {}
    for s in range(len(log.sessions)):
        for r in range(log.lengths[s]):
            pairs.setdefault((int(log.query[s]), int(log.doc[s, r])), len(pairs))
    n = log.serp_size
    alpha = np.full(len(pairs), 0.5)
    sigma = np.full(len(pairs), 0.5)
    p = {"gamma": 0.5, "lam": np.full(n, 0.5), "tau": (0.5, 0.5, 0.5),
         "exam": np.full(n, 0.5), "ubm": np.full((n, n), 0.5)}
    for _ in range(iterations):
        a_num = np.zeros(len(pairs))
        a_den = np.zeros(len(pairs))
        s_num = np.zeros(len(pairs))
        s_den = np.zeros(len(pairs))
        exam_num = np.zeros((n, n))  # PBM: [rank, 0]; UBM: [rank, previous click]
        exam_den = np.zeros((n, n))
        sat_rank = np.zeros((2, n))
        moves = np.zeros((3, 2))  # (skip, unsatisfied click, satisfied click) x (trials, on)
        for s in range(len(log.sessions)):
            m = int(log.lengths[s])
            codes = [pairs[(int(log.query[s]), int(log.doc[s, r]))] for r in range(m)]
            c = log.clicks[s, :m].astype(int)
            if model in ("pbm", "ubm"):
                previous = 0
                for r in range(m):
                    cell = (r, 0) if model == "pbm" else (r, previous)
                    a = alpha[codes[r]]
                    e = p["exam"][r] if model == "pbm" else p["ubm"][cell]
                    joint = {(ev, av): (e if ev else 1 - e) * (a if av else 1 - a)
                             for ev in (0, 1) for av in (0, 1) if ev * av == c[r]}
                    total = sum(joint.values())
                    a_num[codes[r]] += sum(v for (ev, av), v in joint.items() if av) / total
                    a_den[codes[r]] += 1
                    exam_num[cell] += sum(v for (ev, av), v in joint.items() if ev) / total
                    exam_den[cell] += 1
                    previous = r + 1 if c[r] else previous
                continue
            weights = []
            clicked = [r for r in range(m) if c[r]]
            for config in itertools.product((0, 1), repeat=2 * m + len(clicked)):
                # S_r exists at a click only (the user is satisfied, or not, by a click)
                att, coin = config[:m], config[m:2 * m]
                sat = [0] * m
                for r, bit in zip(clicked, config[2 * m:], strict=True):
                    sat[r] = bit
                prob, examined, ok = 1.0, 1, True
                path = []
                for r in range(m):
                    a = alpha[codes[r]]
                    sg, g0, gs0, gs1 = chain_of(model, a, sigma[codes[r]], r, p)
                    click = examined * att[r]
                    if click != c[r]:
                        ok = False
                        break
                    prob *= a if att[r] else 1 - a
                    if click:
                        prob *= sg if sat[r] else 1 - sg
                    go = (gs1 if sat[r] else gs0) if click else g0
                    prob *= go if coin[r] else 1 - go
                    path.append((examined, click, sat[r], coin[r]))
                    examined = examined * coin[r]
                if ok:
                    weights.append((prob, att, path))
            total = sum(w for w, _, _ in weights)
            for w, att, path in weights:
                w /= total
                for r, (examined, click, sat, coin) in enumerate(path):
                    a_num[codes[r]] += w * att[r]
                    if click:
                        s_num[codes[r]] += w * sat
                        sat_rank[0, r] += w * sat
                    if examined and r < m - 1:  # a move to a rank of the session
                        row = (2 if sat else 1) if click else 0
                        moves[row] += w * np.array([1, coin])
            for r in range(m):
                a_den[codes[r]] += 1
                if c[r]:
                    s_den[codes[r]] += 1
                    sat_rank[1, r] += 1
        if model == "ccm":
            alpha = (a_num + s_num + k / 2) / (a_den + s_den + k)
        else:
            alpha = (a_num + k / 2) / (a_den + k)
        if model == "pbm":
            p["exam"] = exam_num[:, 0] / exam_den[:, 0]
        elif model == "ubm":
            seen = exam_den > 0
            p["ubm"] = np.where(seen, exam_num / np.where(seen, exam_den, 1), p["ubm"])
        elif model == "dbn":
            sigma = (s_num + k / 2) / (s_den + k)
            p["gamma"] = (moves[0, 1] + moves[1, 1]) / (moves[0, 0] + moves[1, 0])
        elif model == "dcm":
            seen = sat_rank[1] > 0
            p["lam"] = np.where(seen, 1 - sat_rank[0] / np.where(seen, sat_rank[1], 1),
                                p["lam"])
        else:
            p["tau"] = tuple(moves[:, 1] / moves[:, 0])
    return {"alpha": alpha, "sigma": sigma, "pairs": list(pairs), **p}


@pytest.mark.parametrize("model", ["pbm", "ubm", "dbn", "dcm", "ccm"])
@pytest.mark.parametrize("k", [0.0, 1.0])
def test_em_equals_a_plain_per_session_em(model, k):
    log = serps(80, 4, 2, 5, seed=3, lengths=True)
    log = truth(log, model, seed=4).simulate(log, rng=5)
    iterations = 5
    plain = plain_em(log, model, iterations, k)
    fit = fit_click_model(log, model, iterations=iterations, tol=0.0,
                          smoothing=k)
    assert fit.iterations == iterations
    index = pd.MultiIndex.from_tuples([(log.queries[q], log.docs[d])
                                       for q, d in plain["pairs"]])
    np.testing.assert_allclose(fit.attractiveness.reindex(index), plain["alpha"],
                               rtol=0, atol=1e-12)
    if model == "pbm":
        np.testing.assert_allclose(fit.examination, plain["exam"], atol=1e-12)
    elif model == "ubm":
        lower = np.tril(np.ones((4, 4), dtype=bool))
        np.testing.assert_allclose(fit.examination[lower], plain["ubm"][lower], atol=1e-12)
    elif model == "dbn":
        assert fit.satisfaction is not None
        np.testing.assert_allclose(fit.satisfaction.reindex(index), plain["sigma"],
                                   atol=1e-12)
        assert fit.gamma == pytest.approx(plain["gamma"], abs=1e-12)
    elif model == "dcm":
        np.testing.assert_allclose(fit.continuation, plain["lam"], atol=1e-12)
    else:
        np.testing.assert_allclose(fit.tau, plain["tau"], atol=1e-12)


# ------------------------------------------- probabilities of sessions, by enumeration


@pytest.mark.parametrize("model", MODELS)
def test_session_probabilities_sum_to_one_and_give_the_click_marginals(model):
    """Over the 2^n click vectors of one page, P(C) sums to 1 (log-likelihood) and
    Σ_C P(C)·c_r is the model's full click probability at r (perplexity's input)."""
    n = 4
    page = serps(1, n, 1, 6, seed=1)
    model_ = truth(page, model, seed=2)
    vectors = np.array(list(itertools.product((0, 1), repeat=n)), dtype=bool)
    every = ClickLog(np.array([f"v{i}" for i in range(len(vectors))], dtype=object),
                     page.queries, page.docs, np.zeros(len(vectors), dtype=np.int64),
                     np.repeat(page.doc, len(vectors), axis=0), vectors,
                     np.full(len(vectors), n))
    probability = np.exp(model_.session_loglik(every))
    assert probability.sum() == pytest.approx(1.0, abs=1e-12)
    marginal = (probability[:, None] * vectors).sum(axis=0)
    np.testing.assert_allclose(model_.click_probabilities(page)[0], marginal, atol=1e-12)


def test_closed_forms_by_hand():
    log = read_click_log(lines(
        "s1 q 1 a 1", "s1 q 2 b 0", "s1 q 3 c 1",   # clicks at 1 and 3
        "s2 q 1 b 0", "s2 q 2 a 0", "s2 q 3 c 0",   # no click
        "s3 q 1 c 1", "s3 q 2 a 1", "s3 q 3 b 0"))  # clicks at 1 and 2
    sdbn = fit_click_model(log, "sdbn", smoothing=0)
    # SDBN: α = clicks / shown at or above the last click (every rank without click)
    assert sdbn.attractiveness[("q", "a")] == pytest.approx(2 / 3)  # s1, s2, s3
    assert sdbn.attractiveness[("q", "b")] == pytest.approx(0 / 2)  # s1, s2 (s3: below)
    assert sdbn.attractiveness[("q", "c")] == pytest.approx(2 / 3)  # s1, s2, s3
    assert sdbn.satisfaction is not None
    # σ = last clicks / clicks: a is the last click in s3 of its 2 clicks, c in s1 of 2
    assert sdbn.satisfaction[("q", "a")] == pytest.approx(1 / 2)
    assert sdbn.satisfaction[("q", "c")] == pytest.approx(1 / 2)
    assert sdbn.satisfaction[("q", "b")] == pytest.approx(0.5)  # never clicked: prior
    cm = fit_click_model(log, "cm", smoothing=0)
    # CM: ranks up to the first click (every rank without click)
    assert cm.attractiveness[("q", "a")] == pytest.approx(1 / 2)  # s1 (click), s2
    assert cm.attractiveness[("q", "b")] == pytest.approx(0 / 1)  # s2 only
    assert cm.attractiveness[("q", "c")] == pytest.approx(1 / 2)  # s2, s3 (click)
    smoothed = fit_click_model(log, "cm", smoothing=2)
    assert smoothed.attractiveness[("q", "b")] == pytest.approx((0 + 1) / (1 + 2))
    # CM allows one click: a session with two has probability 0
    assert np.isneginf(cm.session_loglik(log)[[0, 2]]).all()


def test_ctr_models_by_hand():
    """Chuklin et al. (2015, §3.2): GCTR the clicks over every result shown, RCTR per
    rank, DCTR per (query, document); the session's probability the product of its
    independent clicks."""
    log = read_click_log(lines(
        "s1 q 1 a 1", "s1 q 2 b 0", "s1 q 3 c 1",
        "s2 q 1 b 0", "s2 q 2 a 0",                 # a page of two results
        "s3 q 1 c 1", "s3 q 2 a 1", "s3 q 3 b 0"))
    gctr = fit_click_model(log, "gctr", smoothing=0)
    assert gctr.examination.tolist() == pytest.approx([4 / 8] * 3)
    assert (gctr.attractiveness == 1.0).all() and gctr.prior[0] == 1.0
    rctr = fit_click_model(log, "rctr", smoothing=0)
    assert rctr.examination.tolist() == pytest.approx([2 / 3, 1 / 3, 1 / 2])
    dctr = fit_click_model(log, "dctr", smoothing=0)
    assert dctr.attractiveness.to_dict() == pytest.approx(
        {("q", "a"): 2 / 3, ("q", "b"): 0 / 3, ("q", "c"): 2 / 2})
    assert fit_click_model(log, "dctr", smoothing=2).attractiveness[("q", "b")] == \
        pytest.approx(1 / 5)
    # s2 under RCTR: no click at rank 1 (1 − 2/3), none at rank 2 (1 − 1/3)
    assert np.exp(rctr.session_loglik(log))[1] == pytest.approx((1 / 3) * (2 / 3))
    assert rctr.satisfaction_probabilities(log) is None
    assert fit_click_model(log, "gctr").iterations == 0
    # pages declared 6 ranks long: the ranks no session has take the prior (RCTR; DCTR's
    # examination is 1, GCTR's its one rate)
    wide = widen(log, 6)
    assert fit_click_model(wide, "rctr", smoothing=0).examination.tolist() == \
        pytest.approx([2 / 3, 1 / 3, 1 / 2, 0.5, 0.5, 0.5])
    assert fit_click_model(wide, "gctr", smoothing=0).examination.tolist() == \
        pytest.approx([4 / 8] * 6)
    assert fit_click_model(wide, "dctr").examination.tolist() == [1.0] * 6


@pytest.mark.parametrize("model", ["gctr", "rctr", "dctr"])
def test_ctr_models_recover_their_rates(model):
    """Clicks drawn from a CTR model, refitted: every rate within 4 standard errors."""
    log = serps(40_000, 4, 3, 6, seed=11, lengths=True)
    true = truth(log, model, seed=5)
    fitted = fit_click_model(true.simulate(log, rng=3), model, smoothing=0)
    if model == "dctr":
        shown = fitted.sessions
        rates, expected = fitted.attractiveness, true.attractiveness[fitted.attractiveness.index]
    else:
        shown = pd.Series(log.valid.sum(axis=0) if model == "rctr"
                          else np.full(4, log.valid.sum()))
        rates, expected = pd.Series(fitted.examination), pd.Series(true.examination)
    se = np.sqrt(expected * (1 - expected) / shown.to_numpy())
    assert (np.abs(rates.to_numpy() - expected.to_numpy()) <= 4 * se.to_numpy()).all()


# ------------------------------------------------- recovery and held-out comparison


def test_dbn_recovers_its_parameters_from_100000_sessions():
    log = serps(100_000, 5, 20, 12, seed=7)
    model = truth(log, "dbn", seed=8)
    fit = fit_click_model(model.simulate(log, rng=9), "dbn")
    assert fit.gamma == pytest.approx(model.gamma, abs=0.01)
    shown = fit.sessions.reindex(model.attractiveness.index)
    # each pair is shown ~2,000 times, examined ~700 times or more: a standard error of
    # α about sqrt(0.25 / 700) = 0.02; over 240 pairs the largest error stays below 4 of
    # them, the mean absolute error below one
    counted = shown > 1500
    assert counted.sum() > 200
    error = (fit.attractiveness.reindex(model.attractiveness.index) - model.attractiveness)
    assert error[counted].abs().max() < 0.08
    assert error[counted].abs().mean() < 0.02
    assert model.satisfaction is not None and fit.satisfaction is not None
    sat_error = fit.satisfaction.reindex(model.satisfaction.index) - model.satisfaction
    # σ is seen through the clicks only, and after a last click on rank 5 not at all
    assert sat_error[counted].abs().median() < 0.05


def test_pbm_and_ccm_recover_their_rank_parameters():
    log = serps(100_000, 5, 20, 12, seed=11)
    pbm = truth(log, "pbm", seed=12)
    fit = fit_click_model(pbm.simulate(log, rng=13), "pbm")
    # α·γ is identified, not α and γ apart: compare the examination up to its scale
    assert fit.examination is not None and pbm.examination is not None
    ratio = fit.examination / pbm.examination
    np.testing.assert_allclose(ratio / ratio[0], 1.0, atol=0.03)
    ccm = truth(log, "ccm", seed=14)
    fit = fit_click_model(ccm.simulate(log, rng=15), "ccm")
    assert fit.tau is not None
    np.testing.assert_allclose(fit.tau, ccm.tau, atol=0.03)


def test_held_out_log_likelihood_prefers_the_true_model():
    log = serps(60_000, 5, 10, 8, seed=21)
    model = truth(log, "dbn", seed=22)
    train, test = model.simulate(log, rng=23), model.simulate(log, rng=24)
    scores = {name: fit_click_model(train, name).evaluate(test).loc["all"]
              for name in ("dbn", "pbm", "cm", "ubm")}
    best = max(scores, key=lambda name: scores[name]["loglik"])
    assert best == "dbn"
    # the fitted model's perplexity is within 1% of the true model's
    true_perplexity = model.evaluate(test).loc["all", "perplexity"]
    assert scores["dbn"]["perplexity"] == pytest.approx(true_perplexity, rel=0.01)


def test_perplexity_by_rank_by_hand():
    page = serps(3, 2, 1, 4, seed=0)
    model = ClickModel("pbm", pair_series(page, np.full((1, 4), 0.5)),
                       examination=np.array([1.0, 0.5]))
    clicked = ClickLog(page.sessions, page.queries, page.docs, page.query, page.doc,
                       np.array([[1, 0], [0, 1], [0, 0]], dtype=bool), page.lengths)
    table = model.evaluate(clicked)
    # rank 1: P(C=1) = 0.5 for every session: perplexity 2; rank 2: P(C=1) = 0.25
    assert table.loc["1", "perplexity"] == pytest.approx(2.0)
    expected = 2 ** (-(np.log2(0.25) + 2 * np.log2(0.75)) / 3)
    assert table.loc["2", "perplexity"] == pytest.approx(expected)
    assert table.loc["all", "perplexity"] == pytest.approx((2.0 + expected) / 2)
    lls = np.log([0.5 * 0.75, 0.5 * 0.25, 0.5 * 0.75])
    assert table.loc["all", "loglik"] == pytest.approx(lls.mean())


@pytest.mark.parametrize("model", MODELS)
def test_parameters_round_trip_through_json(model):
    log = serps(500, 4, 3, 6, seed=31, lengths=True)
    em = {} if model in CLOSED_FORM_MODELS else {"iterations": 3}  # (EM's alone)
    fit = fit_click_model(truth(log, model).simulate(log, rng=1), model, **em)
    again = ClickModel.from_json(fit.to_json())
    np.testing.assert_array_equal(again.session_loglik(log), fit.session_loglik(log))
    frame = fit.to_frame()
    assert set(frame["parameter"]) >= {"attractiveness"}


def test_a_model_file_is_read_back_and_a_file_not_utf8_named_by_its_line(tmp_path):
    log = read_click_log(lines(*GOOD))
    fit = fit_click_model(log, "pbm")
    path = tmp_path / "pbm.json"
    path.write_text(fit.to_json(), encoding="utf-8")
    again = read_click_model(str(path))
    np.testing.assert_array_equal(again.session_loglik(log), fit.session_loglik(log))
    path.write_bytes(b'{\n"model": "pbm\xff"\n}')
    with pytest.raises(InputFormatError, match="line 2"):
        read_click_model(str(path))


def test_fit_refuses_bad_options():
    log = read_click_log(lines(*GOOD))
    for kwargs in ({"model": "xyz"}, {"iterations": 0}, {"tol": -1.0},
                   {"smoothing": float("nan")}):
        with pytest.raises(ParameterError):
            fit_click_model(log, **kwargs)
    with pytest.raises(InputFormatError):
        ClickModel.from_json('{"model": "dbn"}')
    with pytest.raises(InputFormatError, match=r"prior holds 1\.5, not a probability"):
        ClickModel.from_json(fit_click_model(log, "pbm").to_json().replace(
            '"prior": [\n  0.5', '"prior": [\n  1.5'))


# ---------------------------------------------- users from qrels, simulated logs


def test_qrels_users_follow_hofmanns_table_and_graded_tables():
    from irscale.online.simulate import qrels_click_model

    qrels = {"t1": {"a": 2, "b": 1, "c": 0}, "t2": {"a": -1}}
    user = qrels_click_model(qrels, "informational", relevance_level=2)
    assert user.attractiveness.to_dict() == {("t1", "a"): 0.9, ("t1", "b"): 0.4,
                                             ("t1", "c"): 0.4, ("t2", "a"): 0.4}
    assert user.satisfaction is not None
    assert user.satisfaction[("t1", "a")] == 0.5 and user.prior == (0.4, 0.1)
    graded = qrels_click_model(qrels, None, click=[0.1, 0.5, 0.9], stop=[0.0, 0.3, 0.7],
                               gamma=0.9)
    assert graded.attractiveness[("t1", "b")] == 0.5 and graded.gamma == 0.9
    for bad in ({"instantiation": "xyz"}, {"click": [0.1], "stop": [0.2]},
                {"instantiation": None, "click": [0.1, 1.5], "stop": [0, 0]},
                {"instantiation": None, "click": [0.1, 0.2], "stop": [0, 0]},  # grade 2
                {"gamma": 1.5}):
        with pytest.raises(ParameterError):
            qrels_click_model(qrels, **bad)


def test_simulated_log_pages_clicks_and_seeds():
    from irscale.online.simulate import qrels_click_model, simulate_click_log

    qrels = {"t1": {"a": 1, "b": 0, "c": 1, "d": 0}}
    run = {"t1": {"a": 1.0, "b": 3.0, "c": 1.0, "d": 2.0, "e": 0.5}}
    # trec_eval's order: score descending, ties by docno descending: b d c a (e cut)
    perfect = qrels_click_model(qrels, "perfect")
    log = simulate_click_log(run, perfect, sessions=3, serp_size=4, rng=0)
    assert log.docs[log.doc[0]].tolist() == ["b", "d", "c", "a"]
    assert log.clicks.astype(int).tolist() == [[0, 0, 1, 1]] * 3  # relevant ones, all
    user = qrels_click_model(qrels, "navigational")
    big = simulate_click_log(run, user, sessions=200_000, serp_size=4, rng=1)
    again = simulate_click_log(run, user, sessions=200_000, serp_size=4, rng=1)
    np.testing.assert_array_equal(big.clicks, again.clicks)
    # the cascade by hand: P(E_1) = 1, P(E_{i+1}) = P(E_i)(1 − α_i σ_i) with γ = 1
    alpha = np.array([0.05, 0.05, 0.95, 0.95])
    sigma = np.array([0.2, 0.2, 0.9, 0.9])
    examined = np.cumprod(np.r_[1.0, 1.0 - alpha * sigma][:-1])
    expected = alpha * examined
    rate = big.clicks.mean(axis=0)
    se = np.sqrt(expected * (1 - expected) / 200_000)
    assert (np.abs(rate - expected) < 5 * se).all()
    np.testing.assert_allclose(user.click_probabilities(big)[0], expected, atol=1e-15)


# ------------------------------------------------------ click-calibrated measures


def test_click_calibrated_measures_equal_a_cascade_by_hand():
    from irscale.online.calibrated import click_calibrated

    qrels = {"t1": {"a": 2, "b": 0, "c": 1}, "t2": {"x": 1}}
    runs = {"r1": {"t1": {"a": 0.5, "b": 0.9, "c": 0.5, "z": 0.1}, "t2": {"x": 1.0}},
            "r2": {"t1": {"c": 3.0, "a": 2.0}, "t2": {"y": 1.0, "x": 0.5}}}
    alpha = {("t1", "a"): 0.7, ("t1", "b"): 0.2, ("t1", "c"): 0.5, ("t2", "x"): 0.6}
    sigma = {("t1", "a"): 0.8, ("t1", "b"): 0.1, ("t1", "c"): 0.4, ("t2", "x"): 0.9}
    prior = (0.3, 0.25)
    dbn = ClickModel("dbn", pd.Series(alpha), satisfaction=pd.Series(sigma), gamma=0.9,
                     prior=prior)
    got = click_calibrated(qrels, runs, dbn, ["uM", "rrM", "uM@2"])
    for run, topics in runs.items():
        for topic, scores in topics.items():
            ranking = sorted(scores, key=lambda d: (-scores[d], [-ord(ch) for ch in d]))
            examined, um, rrm, um2 = 1.0, 0.0, 0.0, 0.0
            for i, doc in enumerate(ranking, start=1):
                a = alpha.get((topic, doc), prior[0])
                s = sigma.get((topic, doc), prior[1])
                click = a * examined
                gain = qrels[topic].get(doc, 0)
                um += click * gain
                um2 += click * gain if i <= 2 else 0.0
                rrm += s * click / i
                examined *= (1 - a) * 0.9 + a * (1 - s) * 0.9
            values = got[(got.run == run) & (got.topic == topic)].set_index("measure")
            assert values.loc["uM", "value"] == pytest.approx(um, abs=1e-12)
            assert values.loc["rrM", "value"] == pytest.approx(rrm, abs=1e-12)
            assert values.loc["uM@2", "value"] == pytest.approx(um2, abs=1e-12)
    with pytest.raises(ParameterError):
        click_calibrated(qrels, runs, dbn, ["uM(pclick=0.5)"])
    with pytest.raises(ParameterError):
        click_calibrated(qrels, runs, dbn, ["AP"])
    pbm = ClickModel("pbm", pd.Series(alpha), examination=np.array([1.0, 0.5]))
    with pytest.raises(ParameterError, match="2 ranks"):
        click_calibrated(qrels, runs, pbm, ["uM"], depth=3)


@pytest.mark.parametrize("model", ["pbm", "ubm", "dcm"])
def test_a_model_of_longer_pages_evaluates_shorter_ones(model):
    """A model fitted on pages of 3 ranks scores a held-out log of pages of 1 rank with its
    first rank's parameters (UBM refused what PBM and DCM took); the probability of one
    click on a one-rank page is α·P(E_1) by hand."""
    train = read_click_log(b"s1 q 1 a 1\ns1 q 2 b 0\ns1 q 3 c 1\ns2 q 1 b 0\ns2 q 2 a 1\n"
                           b"s2 q 3 c 0\ns3 q 1 c 1\ns3 q 2 a 0\ns3 q 3 b 1\n")
    fit = fit_click_model(train, model)
    row = fit.evaluate(read_click_log(b"t q 1 a 1\n")).loc["all"]
    examined = {"pbm": lambda f: f.examination[0], "ubm": lambda f: f.examination[0, 0],
                "dcm": lambda f: 1.0}[model](fit)
    assert row["loglik"] == pytest.approx(np.log(fit.attractiveness[("q", "a")] * examined),
                                          rel=1e-12)
    short = fit_click_model(read_click_log(b"t q 1 a 1\n"), model)
    with pytest.raises(ParameterError, match=r"gives 1 ranks.*--serp-size 1"):
        short.evaluate(train)


def test_calibrated_summary_is_each_runs_mean_on_topic_all():
    from irscale.online.calibrated import calibrated_summary

    frame = pd.DataFrame({"run": ["a", "a", "b", "b"], "topic": ["1", "2", "1", "2"],
                          "measure": ["uM"] * 4, "value": [0.2, 0.4, 1.0, 0.0]})
    means = calibrated_summary(frame)
    assert means.to_dict("list") == {"run": ["a", "b"], "topic": ["all", "all"],
                                     "measure": ["uM", "uM"],
                                     "value": [pytest.approx(0.3), 0.5]}
    both = calibrated_summary(frame, per_topic=True)
    assert both["topic"].tolist() == ["1", "2", "1", "2", "all", "all"]


# ------------------------------------------- a SERP size beyond the ranks the log shows


def widen(log: ClickLog, n: int) -> ClickLog:
    """``log`` declared on pages of ``n`` ranks (its sessions as they are)."""
    return read_click_log(log.to_frame(), serp_size=n)


@pytest.fixture
def kernel_ranks(monkeypatch):
    """The shapes of the (session, rank) matrices the kernels over the ranks received."""
    import irscale.online.clickmodels as clickmodels

    seen: list[tuple[int, ...]] = []
    for name in ("chain_posteriors", "examination_posteriors", "ubm_full"):
        kernel = getattr(clickmodels, name)

        def spy(*args, kernel=kernel):
            seen.append(args[0].shape)
            return kernel(*args)

        monkeypatch.setattr(clickmodels, name, spy)
    return seen


@pytest.mark.parametrize("model", ["pbm", "ubm", "dbn", "dcm", "ccm"])
def test_em_on_a_wider_page_is_the_plain_em_of_the_ranks_shown(model, kernel_ranks):
    """On pages declared 40 ranks long whose sessions show at most 4, EM walks the 4 ranks
    shown (not 40) and gives the plain per-session EM's values; a per-rank parameter of a
    rank no session has keeps its start, the prior 0.5 (module documentation)."""
    log = serps(80, 4, 2, 5, seed=3, lengths=True)
    log = truth(log, model, seed=4).simulate(log, rng=5)
    plain = plain_em(log, model, 4, 1.0)
    fit = fit_click_model(widen(log, 40), model, iterations=4, tol=0.0)
    assert kernel_ranks and {s[0] for s in kernel_ranks} == {4}, kernel_ranks  # [rank, session]
    index = pd.MultiIndex.from_tuples([(log.queries[q], log.docs[d])
                                       for q, d in plain["pairs"]])
    np.testing.assert_allclose(fit.attractiveness.reindex(index), plain["alpha"], atol=1e-12)
    if model == "pbm":
        np.testing.assert_allclose(fit.examination[:4], plain["exam"], atol=1e-12)
        assert fit.examination[4:].tolist() == [0.5] * 36
    elif model == "ubm":
        lower = np.tril(np.ones((40, 40), dtype=bool))
        expected = np.where(lower, 0.5, 0.0)
        expected[:4, :4] = np.where(lower[:4, :4], plain["ubm"], 0.0)
        np.testing.assert_allclose(fit.examination, expected, atol=1e-12)
    elif model == "dcm":
        np.testing.assert_allclose(fit.continuation[:4], plain["lam"], atol=1e-12)
        assert fit.continuation[4:].tolist() == [0.5] * 36
    elif model == "dbn":
        assert fit.gamma == pytest.approx(plain["gamma"], abs=1e-12)
    else:
        np.testing.assert_allclose(fit.tau, plain["tau"], atol=1e-12)


@pytest.mark.parametrize("model", MODELS)
def test_session_probabilities_on_a_wider_page(model, kernel_ranks):
    """A page of 4 ranks declared 30 long: over its 2^4 click vectors P(C) sums to 1, the
    marginals are the model's click probabilities at the 4 ranks, 0 beyond (no result
    there), and the kernels walk 4 ranks; the held-out table has a row per declared rank,
    those beyond the page without session."""
    n = 4
    page = serps(1, n, 1, 6, seed=1)
    model_ = truth(page, model, seed=2)
    if model_.examination is not None:  # per-rank parameters for the 30 ranks
        wide = np.full((30, 30) if model == "ubm" else 30, 0.5)
        wide[(slice(0, n),) * model_.examination.ndim] = model_.examination
        model_ = ClickModel(model, model_.attractiveness, examination=wide,
                            prior=model_.prior)
    if model_.continuation is not None:
        model_ = ClickModel(model, model_.attractiveness,
                            continuation=np.append(model_.continuation, np.full(26, 0.5)))
    vectors = np.array(list(itertools.product((0, 1), repeat=n)), dtype=bool)
    every = ClickLog(np.array([f"v{i}" for i in range(len(vectors))], dtype=object),
                     page.queries, page.docs, np.zeros(len(vectors), dtype=np.int64),
                     np.repeat(page.doc, len(vectors), axis=0), vectors,
                     np.full(len(vectors), n))
    probability = np.exp(model_.session_loglik(widen(every, 30)))
    assert probability.sum() == pytest.approx(1.0, abs=1e-12)
    marginal = (probability[:, None] * vectors).sum(axis=0)
    full = model_.click_probabilities(widen(page, 30))
    assert full.shape == (1, 30) and not full[0, n:].any()
    np.testing.assert_allclose(full[0, :n], marginal, atol=1e-12)
    table = model_.evaluate(widen(every, 30))
    assert table.index.tolist() == [str(r) for r in range(1, 31)] + ["all"]
    assert table["sessions"].tolist() == [16] * n + [0] * 26 + [16]
    assert table["perplexity"].iloc[n:30].isna().all()
    with np.errstate(divide="ignore"):  # (CM: a second click is impossible)
        assert table.loc["all", "loglik_total"] == pytest.approx(
            np.sum(np.log(probability)), rel=1e-12)
    assert all(n in shape and 30 not in shape for shape in kernel_ranks), kernel_ranks


def test_a_wider_page_still_needs_parameters_for_every_rank():
    """A model of 3 ranks is refused on a log declared 5 ranks long even when its sessions
    show 3 (the SERP size is the log's page, as before)."""
    train = read_click_log(b"s1 q 1 a 1\ns1 q 2 b 0\ns1 q 3 c 1\n")
    for model in ("pbm", "dcm", "ubm"):
        fit = fit_click_model(train, model)
        with pytest.raises(ParameterError, match="gives 3 ranks, the log's SERP size is 5"):
            fit.evaluate(widen(train, 5))


@pytest.mark.parametrize("model", sorted(MODELS))
def test_evaluate_builds_the_pair_index_once(model, monkeypatch):
    """``evaluate`` (``online loglik``) looks the log's (query, document) pairs up once for
    its click probabilities and its sessions' likelihoods (it did once per step, three
    times for the cascade models), and still equals the two public steps."""
    from irscale.online import clickmodels

    log = read_click_log(lines(*GOOD))
    fit = fit_click_model(log, model)
    built = []
    monkeypatch.setattr(clickmodels, "pair_codes",
                        lambda *args: built.append(1) or pair_codes(*args))
    table = fit.evaluate(log)
    assert len(built) == 1
    np.testing.assert_allclose(table.loc["all", "loglik_total"],
                               fit.session_loglik(log).sum(), rtol=1e-12)

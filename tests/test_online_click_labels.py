"""Relevance inferred from clicks (irscale.online.click_labels): qrels from click models
checked against the qrels the clicks were simulated from, and every preference rule of
Joachims et al. (2005, 2007) on sessions worked out by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.errors import InputError, ParameterError
from irscale.online.click_labels import click_preferences, click_qrels
from irscale.online.clickmodels import ClickModel
from irscale.online.simulate import qrels_click_model, simulate_click_log


@pytest.fixture(scope="module")
def simulated():
    """Clicks of Hofmann et al.'s informational user on 8 shufflings of 5 topics × 10
    documents (40% relevant), 100 sessions each: the truth and the log."""
    rng = np.random.default_rng(7)
    qrels = {f"t{t}": {f"d{d}": int(rng.random() < 0.4) for d in range(10)} for t in range(5)}
    user = qrels_click_model(qrels, "informational")
    frames = []
    for k in range(8):
        run = {t: {d: float(x) for d, x in zip(docs, rng.permutation(10), strict=True)}
               for t, docs in qrels.items()}
        frame = simulate_click_log(run, user, sessions=100, rng=k).to_frame()
        frame["session"] = f"r{k}:" + frame["session"]
        frames.append(frame)
    return qrels, pd.concat(frames, ignore_index=True)


def _truth(qrels, table, column="docno"):
    return np.array([qrels[q][d] for q, d in zip(table["query"], table[column], strict=True)])


@pytest.mark.parametrize(("model", "score", "threshold"), [
    ("sdbn", "relevance", 0.25), ("dbn", "relevance", 0.25), ("sdbn", "attractiveness", 0.65),
    ("ccm", "attractiveness", 0.65),
    ("dcm", "attractiveness", 0.65)])
def test_qrels_recover_the_simulated_truth(simulated, model, score, threshold):
    # informational user: P(click | R) = 0.9, P(stop | R) = 0.5; NR 0.4 and 0.1; so
    # α σ is 0.45 against 0.04 and α 0.9 against 0.4: the thresholds lie between (PBM
    # identifies α γ only, and is left out)
    qrels, log = simulated
    inferred = click_qrels(log, model, score=score, thresholds=threshold).to_frame()
    assert len(inferred) == 50
    truth = _truth(qrels, inferred)
    assert (inferred["grade"].to_numpy() == truth).mean() >= 0.94
    # every relevant pair scores above every non-relevant one but a few (AUC)
    s = inferred["score"].to_numpy()
    auc = (s[truth == 1][:, None] > s[truth == 0][None, :]).mean()
    assert auc >= 0.95


def test_qrels_thresholds_grade_the_scores():
    model = ClickModel("sdbn", pd.Series([0.1, 0.5, 0.8], index=pd.MultiIndex.from_tuples(
        [("q", "a"), ("q", "b"), ("q", "c")])), satisfaction=pd.Series(
        [1.0, 1.0, 0.5], index=pd.MultiIndex.from_tuples([("q", "a"), ("q", "b"), ("q", "c")])))
    graded = click_qrels(model, score="attractiveness", thresholds=(0.3, 0.5, 0.9))
    assert graded.to_frame()["grade"].tolist() == [0, 2, 2]
    assert click_qrels(model, thresholds=0.45).to_frame()["grade"].tolist() == [0, 1, 0]
    assert graded.to_trec() == "q 0 a 0\nq 0 b 2\nq 0 c 2\n"
    assert click_qrels(model, score="satisfaction").to_frame()["score"].tolist() == [1, 1, .5]
    # a fitted model takes no model name or fitting option (they were ignored)
    for kwargs in ({"model": "dbn"}, {"smoothing": 0.0}):
        with pytest.raises(ParameterError, match="fitted already"):
            click_qrels(model, **kwargs)


def test_qrels_min_sessions_and_refusals():
    log = b"s1 q 1 a 1\ns1 q 2 b 0\ns2 q 1 a 1\ns2 q 2 c 0\n"
    assert click_qrels(log, min_sessions=2).to_frame()["docno"].tolist() == ["a"]
    with pytest.raises(ParameterError, match="needs a satisfaction"):
        click_qrels(log, "pbm", score="relevance")
    with pytest.raises(ParameterError, match="no parameter per"):
        click_qrels(log, "gctr")
    with pytest.raises(ParameterError, match="thresholds"):
        click_qrels(log, thresholds=(0.6, 0.4))
    with pytest.raises(ParameterError, match="thresholds"):
        click_qrels(log, thresholds=1.5)


# a session: ranks 1..6 = a b c d e f, clicks on c (t=5), e (t=2); shown: a..f
SESSION = (b"s q 1 a 0 0\ns q 2 b 0 0\ns q 3 c 1 5\ns q 4 d 0 0\ns q 5 e 1 2\n"
           b"s q 6 f 0 0\n")


def _pairs(rule, log=SESSION):
    table = click_preferences(log, rule).to_frame()
    return sorted(zip(table["preferred"], table["other"], strict=True))


def test_rules_by_hand():
    # click > skip above: c > a, b; e > a, b, d
    assert _pairs("skip-above") == [("c", "a"), ("c", "b"), ("e", "a"), ("e", "b"),
                                    ("e", "d")]
    # the click last in time is c (t=5): c > a, b only
    assert _pairs("last-skip-above") == [("c", "a"), ("c", "b")]
    # c was clicked after e
    assert _pairs("earlier-click") == [("c", "e")]
    # c > b (rank 2 skipped), e > d
    assert _pairs("skip-previous") == [("c", "b"), ("e", "d")]
    # c > d, e > f
    assert _pairs("no-click-next") == [("c", "d"), ("e", "f")]


def test_rules_on_a_page_declared_wider(monkeypatch):
    """The same session declared on pages of 10^5 ranks: the same pairs by hand, and the
    rules walk its 6 ranks (not the page's)."""
    import irscale.online.click_labels as labels
    from irscale.online.clicklog import read_click_log

    widths = []
    walk = labels._session_pairs

    def spy(log, rule):
        widths.append(log.serp_size)
        return walk(log, rule)

    monkeypatch.setattr(labels, "_session_pairs", spy)
    wide = read_click_log(SESSION, serp_size=100_000)
    assert _pairs("skip-above", wide) == [("c", "a"), ("c", "b"), ("e", "a"), ("e", "b"),
                                          ("e", "d")]
    assert _pairs("earlier-click", wide) == [("c", "e")]
    assert _pairs("no-click-next", wide) == [("c", "d"), ("e", "f")]
    assert widths == [6, 6, 6]


def test_rules_edges():
    # a click at rank 1 has nothing above; the next of the last rank is not shown
    log = b"s q 1 a 1 1\ns q 2 b 1 2\n"
    for rule in ("skip-above", "skip-previous", "no-click-next", "last-skip-above"):
        assert _pairs(rule, log) == []
    assert _pairs("earlier-click", log) == [("b", "a")]
    # two clicks at the same latest time: no last click; equal times: no order
    tied = b"s q 1 a 0 0\ns q 2 b 1 3\ns q 3 c 1 3\n"
    assert _pairs("last-skip-above", tied) == []
    assert _pairs("earlier-click", tied) == []


def test_sessions_are_aggregated():
    # two sessions prefer b to a (skip above), one a to b: b > a kept, counted 2 against 1
    log = (b"s1 q 1 a 0\ns1 q 2 b 1\ns2 q 1 a 0\ns2 q 2 b 1\n"
           b"s3 q 1 b 0\ns3 q 2 a 1\n")
    table = click_preferences(log, "skip-above").to_frame()
    assert table[["preferred", "other", "sessions", "against"]].values.tolist() == [
        ["b", "a", 2, 1]]
    assert click_preferences(log, "skip-above", min_sessions=3).to_frame().empty
    # one each way: neither kept
    tie = b"s1 q 1 a 0\ns1 q 2 b 1\ns3 q 1 b 0\ns3 q 2 a 1\n"
    assert click_preferences(tie, "skip-above").to_frame().empty


def test_timed_rules_need_timestamps():
    with pytest.raises(InputError, match="no timestamps"):
        click_preferences(b"s q 1 a 0\ns q 2 b 1\n", "earlier-click")
    with pytest.raises(ParameterError, match="rule"):
        click_preferences(SESSION, "skip-below")


def test_prefs_file_is_read_by_the_prefs_evaluation(simulated, tmp_path):
    qrels, log = simulated
    prefs = click_preferences(log, "skip-above")
    table = prefs.to_frame()
    # the clicks of a user who clicks the relevant more: of the pairs of unequal grades,
    # nearly every preference goes the truth's way
    truth_a, truth_b = _truth(qrels, table, "preferred"), _truth(qrels, table, "other")
    unequal = truth_a != truth_b
    assert unequal.sum() >= 50
    assert (truth_a[unequal] > truth_b[unequal]).mean() >= 0.95
    path = tmp_path / "click.prefs"
    path.write_text(prefs.to_prefs())
    ideal = {q: {d: float(g) for d, g in docs.items()} for q, docs in qrels.items()}
    reversed_run = {q: {d: -float(g) for d, g in docs.items()} for q, docs in qrels.items()}
    good = irscale.evaluate(str(path), ideal, ["prefs_simp"], relevance_format="prefs")
    bad = irscale.evaluate(str(path), reversed_run, ["prefs_simp"],
                           relevance_format="prefs")
    assert good.mean().iloc[0]["prefs_simp"] > bad.mean().iloc[0]["prefs_simp"] + 0.3

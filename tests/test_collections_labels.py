"""Crowd-label aggregation: crowd-kit as the oracle of MV, WMV (Wawa) and
Dawid–Skene where it is installed, an independent loop-by-loop Dawid–Skene from the paper
otherwise, recovery of planted labels, the tie rule, and the reader's errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.collections.labels import aggregate_labels, read_crowd_labels
from irscale.errors import DuplicateError, InputError, ParameterError

#: crowd-kit 1.4.2 (the oracle) calls pandas methods with inplace=, deprecated in pandas 3:
#: thousands of warnings from its code, none from irscale's
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:crowdkit")


def planted(n_items=240, n_workers=25, k=3, per=5, seed=1, low=0.3, high=0.95):
    """Labels of workers with planted accuracies (a wrong answer is uniform over classes)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    accuracy = rng.uniform(low, high, n_workers)
    rows = []
    for i in range(n_items):
        for w in rng.choice(n_workers, per, replace=False):
            label = truth[i] if rng.random() < accuracy[w] else rng.integers(0, k)
            rows.append((str(i // 40), f"d{i}", f"w{w}", int(label)))
    frame = pd.DataFrame(rows, columns=["topic", "docno", "worker", "label"])
    return frame, truth, accuracy


def crowdkit_input(frame):
    return frame.assign(task=frame.topic + "/" + frame.docno)[["task", "worker", "label"]]


def mine(agg):
    p = agg.probabilities.copy()
    p.index = [f"{t}/{d}" for t, d in p.index]
    return p


def naive_dawid_skene(frame, n_iter=100, tol=1e-5, eps=1e-10):
    """Dawid & Skene (1979) written label by label with dicts: MV initialisation, M-step
    (priors = mean posterior; confusion rows from the posteriors of the answered items,
    observed cells clipped at eps), E-step (product of the answered cells times the prior),
    stopped when the evidence lower bound per label grows by less than tol."""
    classes = sorted(frame.label.unique())
    items = sorted(set(zip(frame.topic, frame.docno, strict=True)))
    rows = list(zip(zip(frame.topic, frame.docno, strict=True), frame.worker, frame.label,
                    strict=True))
    post = {i: np.zeros(len(classes)) for i in items}
    for i, _, label in rows:
        post[i][classes.index(label)] += 1
    post = {i: p / p.sum() for i, p in post.items()}

    def m_step(post):
        prior = np.mean([post[i] for i in items], axis=0)
        err: dict = {}
        for i, w, label in rows:
            err.setdefault(w, {}).setdefault(label, np.zeros(len(classes)))
            err[w][label] = err[w][label] + post[i]
        for w in err:
            for label in err[w]:
                err[w][label] = np.maximum(err[w][label], eps)
            total = sum(err[w].values())
            for label in err[w]:
                err[w][label] = err[w][label] / total
        return prior, err

    prior, err = m_step(post)
    loss = -np.inf
    for _ in range(n_iter):
        prior = np.maximum(prior, eps)
        like = {i: np.log(prior).copy() for i in items}
        for i, w, label in rows:
            like[i] = like[i] + np.log(err[w][label])
        post = {}
        for i in items:
            e = np.exp(like[i] - like[i].max())
            post[i] = e / e.sum()
        prior, err = m_step(post)
        joint = sum((post[i] * (np.log(err[w][label]) + np.log(np.maximum(prior, eps)))).sum()
                    for i, w, label in rows)
        entropy = -sum((np.maximum(post[i], eps) * np.log(np.maximum(post[i], eps))).sum()
                       for i in items)
        new = (joint + entropy) / len(rows)
        if new - loss < tol:
            break
        loss = new
    return items, classes, np.array([post[i] for i in items])


def test_dawid_skene_matches_the_paper_written_out():
    frame, _, _ = planted(n_items=120, n_workers=12)
    items, classes, post = naive_dawid_skene(frame)
    agg = aggregate_labels(frame, "ds")
    got = agg.probabilities.loc[pd.MultiIndex.from_tuples(items), classes].to_numpy()
    np.testing.assert_allclose(got, post, atol=1e-9)


@pytest.mark.parametrize("method", ["mv", "wmv", "ds"])
def test_crowdkit_agrees(method):
    ck = pytest.importorskip("crowdkit.aggregation")
    # binary labels and five votes: no ties, so the label of every method is defined
    # (crowd-kit breaks MV ties by the order pandas' value_counts gives, not a stated rule)
    frame, _, _ = planted(k=2 if method != "ds" else 3, per=5)
    model = {"mv": ck.MajorityVote, "wmv": ck.Wawa, "ds": lambda: ck.DawidSkene(100)}[method]()
    data = crowdkit_input(frame)
    theirs = model.fit_predict_proba(data)
    agg = aggregate_labels(frame, method)
    ours = mine(agg)
    theirs = theirs.reindex(index=ours.index, columns=list(ours.columns)).fillna(0.0)
    np.testing.assert_allclose(ours.to_numpy(), theirs.to_numpy(), atol=2e-10)
    labels = model.fit_predict(data).reindex(ours.index).to_numpy()
    assert (agg.qrels["label"].to_numpy() == labels).all()
    if method == "ds":
        assert agg.iterations == len(model.loss_history_)
    if method == "wmv":
        skills = model.skills_.reindex(agg.workers["worker"]).to_numpy()
        np.testing.assert_allclose(agg.workers["quality"].to_numpy(), skills, atol=1e-12)


def test_planted_labels_and_workers_are_recovered():
    frame, truth, accuracy = planted(n_items=600, n_workers=30, per=7, low=0.4, high=0.95)
    ds = aggregate_labels(frame, "ds")
    mv = aggregate_labels(frame, "mv")
    order = [int(d[1:]) for d in ds.qrels["docno"]]
    assert (ds.qrels["label"].to_numpy() == truth[order]).mean() > 0.95
    assert ((ds.qrels["label"].to_numpy() == truth[order]).mean()
            >= (mv.qrels["label"].to_numpy() == truth[order]).mean())
    planted_acc = accuracy[[int(w[1:]) for w in ds.workers["worker"]]]
    # DS's quality Σ_c π_c e(c|c) of a worker with accuracy a is a + (1 - a)/K
    np.testing.assert_allclose(ds.workers["quality"], planted_acc + (1 - planted_acc) / 3,
                               atol=0.12)
    assert ds.converged and ds.iterations < 100
    again = aggregate_labels(frame.sample(frac=1, random_state=5), "ds")
    pd.testing.assert_frame_equal(
        again.qrels.set_index(["topic", "docno"]).sort_index(),
        ds.qrels.set_index(["topic", "docno"]).sort_index(), atol=1e-9)


def test_majority_ties_go_to_the_lower_label_and_confidence_is_the_share():
    agg = aggregate_labels(b"1 a w1 2\n1 a w2 1\n1 b w1 0\n1 b w2 2\n1 b w3 2\n", "mv")
    assert agg.lines() == ["1 0 a 1", "1 0 b 2"]
    assert agg.qrels["confidence"].tolist() == [0.5, 2 / 3]
    # w1 agrees with 0 of 2 majority labels, w2 with 1 of 2 (a's tie went to 1), w3 1 of 1
    assert agg.workers["quality"].tolist() == [0.0, 1.0, 1.0]
    assert agg.confidence_lines() == ["1 a 1 0.5", f"1 b 2 {2 / 3!r}"]
    assert agg.worker_lines() == ["w1 2 0.0", "w2 2 1.0", "w3 1 1.0"]


def test_weighted_majority_by_hand():
    # MV: a -> 1 (w1, w2 against w3), b -> 0 (w1, w2 against w3), c and d tie -> 0.
    # Quality (agreement with MV): w1 2 of 4 = 0.5, w2 3 of 3 = 1, w3 1 of 3.
    # WMV: c: 0 weighs 1 (w2) against 0.5 (w1) -> 0, confidence 1 / 1.5;
    #      d: 1 weighs 0.5 (w1) against 1/3 (w3) -> 1, confidence 0.5 / (5/6) = 0.6.
    data = (b"1 a w1 1\n1 a w2 1\n1 a w3 0\n1 b w1 0\n1 b w2 0\n1 b w3 1\n"
            b"1 c w1 1\n1 c w2 0\n1 d w1 1\n1 d w3 0\n")
    agg = aggregate_labels(data, "wmv")
    np.testing.assert_allclose(agg.workers["quality"], [0.5, 1.0, 1 / 3])
    assert agg.lines() == ["1 0 a 1", "1 0 b 0", "1 0 c 0", "1 0 d 1"]
    np.testing.assert_allclose(agg.qrels["confidence"].iloc[2:], [2 / 3, 0.6])


def test_reader_errors_name_file_line_and_text(tmp_path):
    path = tmp_path / "labels.tsv"
    path.write_text("1 a w1 1\n1 a w2 3\n")
    with pytest.raises(InputError, match=r"labels.tsv, line 2: label outside the scale 0,1,2"
                       r".*'1 a w2 3'"):
        read_crowd_labels(path, scale=[0, 1, 2])
    path.write_text("1 a w1 1\n\n1 a w1 0\n")
    with pytest.raises(DuplicateError, match="line 3: a worker labels this document twice"):
        read_crowd_labels(path)
    path.write_text("1 a w1 1\n1 a w2 x\n")
    with pytest.raises(InputError, match="line 2: label is not an integer"):
        read_crowd_labels(path)
    path.write_text("1 a w1\n")
    with pytest.raises(InputError, match="line 1: expected 4 fields"):
        read_crowd_labels(path)
    with pytest.raises(InputError, match="line 2: label is not an integer"):
        read_crowd_labels(pd.DataFrame({"topic": [1, 1], "docno": ["a", "b"],
                                        "worker": ["w", "w"], "label": [1, 0.5]}))
    with pytest.raises(ParameterError, match="scale lists a label twice"):
        read_crowd_labels(b"1 a w 1\n", scale=[0, 1, 1])
    with pytest.raises(ParameterError, match="unknown aggregation method 'zz'"):
        aggregate_labels(b"1 a w 1\n", "zz")  # type: ignore[arg-type]


def crowdkit_ordered(k):
    """Planted labels whose workers and labels first appear in sorted order: crowd-kit's
    MACE indexes its M-step counts (sorted by groupby) with first-appearance codes, so it
    is only comparable on such data."""
    frame, _, _ = planted(k=k, n_items=200, n_workers=20)
    frame["worker"] = frame.worker.str.slice(1).astype(int).map("w{:02d}".format)
    frame = frame.sort_values(["worker", "label"], kind="stable").reset_index(drop=True)
    assert list(pd.unique(frame.label)) == list(range(k))
    return frame


@pytest.mark.parametrize("k", [2, 3])
def test_glad_matches_crowdkit(k):
    ck = pytest.importorskip("crowdkit.aggregation")
    frame = crowdkit_ordered(k)
    model = ck.GLAD()
    theirs = model.fit_predict_proba(crowdkit_input(frame))
    agg = aggregate_labels(frame, "glad")
    ours = mine(agg)
    theirs = theirs.reindex(index=ours.index, columns=list(ours.columns))
    np.testing.assert_allclose(ours.to_numpy(), theirs.to_numpy(), atol=1e-9)
    assert agg.iterations == len(model.loss_history_)
    np.testing.assert_allclose(agg.workers["quality"],
                               model.alphas_.reindex(agg.workers["worker"]), atol=1e-8)


@pytest.mark.parametrize("k", [2, 3])
def test_mace_matches_crowdkit_from_its_start(k):
    ck = pytest.importorskip("crowdkit.aggregation")
    from irscale.collections.labels import _mace

    frame = crowdkit_ordered(k)
    model = ck.MACE()
    theirs = model.fit_predict_proba(crowdkit_input(frame))
    data = read_crowd_labels(frame)
    n_w = len(data.workers)
    # crowd-kit draws every restart from scipy's uniform(1, 1.5) with random_state=0
    start = (1 + 1.5 * np.random.RandomState(0).uniform(0, 1, (n_w, 2)),
             1 + 1.5 * np.random.RandomState(0).uniform(0, 1, (n_w, k)))
    posterior, knowing = _mace(data, 50, [start])
    index = [f"{t}/{d}" for t, d in data.items.itertuples(index=False)]
    theirs = theirs.reindex(index=index, columns=data.classes.tolist())
    np.testing.assert_allclose(posterior, theirs.to_numpy(), atol=1e-12)
    np.testing.assert_allclose(knowing, model.spamming_[:, 1], atol=1e-12)


@pytest.mark.parametrize("method", ["glad", "mace"])
def test_glad_and_mace_recover_planted_labels(method):
    frame, truth, accuracy = planted(n_items=400, n_workers=30, per=7, low=0.4, high=0.95)
    seed = {"rng": 7} if method == "mace" else {}  # (glad is deterministic: takes none)
    agg = aggregate_labels(frame, method, **seed)
    order = [int(d[1:]) for d in agg.qrels["docno"]]
    assert (agg.qrels["label"].to_numpy() == truth[order]).mean() > 0.95
    planted_acc = accuracy[[int(w[1:]) for w in agg.workers["worker"]]]
    assert pd.Series(agg.workers["quality"].to_numpy()).corr(
        pd.Series(planted_acc), method="spearman") > 0.8
    again = aggregate_labels(frame, method, **seed)
    pd.testing.assert_frame_equal(again.qrels, agg.qrels)


@pytest.mark.parametrize("method", ["mv", "wmv"])
def test_crowdkit_agrees_on_four_grades(method):
    """K = 4 (graded 0..3) on items without a majority tie (crowd-kit breaks ties by an
    unstated order, and Wawa's skills follow MV's labels): the probabilities of every item,
    and the label of every item without a tie for the top."""
    ck = pytest.importorskip("crowdkit.aggregation")
    frame, _, _ = planted(k=4, per=5, n_items=300)
    counts = frame.groupby(["docno", "label"]).size().unstack(fill_value=0).to_numpy()
    top = np.sort(counts, axis=1)
    keep = frame.docno.isin(frame.docno.drop_duplicates().sort_values()[
        top[:, -1] > top[:, -2]])
    frame = frame[keep.to_numpy()].reset_index(drop=True)
    model = {"mv": ck.MajorityVote, "wmv": ck.Wawa}[method]()
    data = crowdkit_input(frame)
    agg = aggregate_labels(frame, method)
    ours = mine(agg)
    theirs = model.fit_predict_proba(data).reindex(index=ours.index,
                                                   columns=list(ours.columns)).fillna(0.0)
    np.testing.assert_allclose(ours.to_numpy(), theirs.to_numpy(), atol=2e-10)
    p = ours.to_numpy()
    top = np.sort(p, axis=1)
    untied = top[:, -1] > top[:, -2] + 1e-12
    labels = model.fit_predict(data).reindex(ours.index).to_numpy()
    assert untied.sum() > 100
    assert (agg.qrels["label"].to_numpy()[untied] == labels[untied]).all()


def test_majority_vote_on_four_grades_by_hand():
    # a: 3 ×2, 1 → 3 (2/3); b: 0, 1, 2, 3 tie → 0 (the lowest, 1/4); c: 2, 2, 3, 3 → 2
    data = (b"1 a w1 3\n1 a w2 3\n1 a w3 1\n1 b w1 0\n1 b w2 1\n1 b w3 2\n1 b w4 3\n"
            b"1 c w1 2\n1 c w2 2\n1 c w3 3\n1 c w4 3\n")
    agg = aggregate_labels(data, "mv", scale=[0, 1, 2, 3])
    assert agg.lines() == ["1 0 a 3", "1 0 b 0", "1 0 c 2"]
    np.testing.assert_allclose(agg.qrels["confidence"], [2 / 3, 1 / 4, 1 / 2])
    assert list(agg.probabilities.columns) == [0, 1, 2, 3]


@pytest.mark.parametrize("method", ["ds", "glad", "mace"])
def test_em_methods_recover_four_grades(method):
    frame, truth, _ = planted(k=4, n_items=400, n_workers=30, per=7, low=0.5, high=0.95)
    agg = aggregate_labels(frame, method, **({"rng": 3} if method == "mace" else {}))
    order = [int(d[1:]) for d in agg.qrels["docno"]]
    assert list(agg.probabilities.columns) == [0, 1, 2, 3]
    assert (agg.qrels["label"].to_numpy() == truth[order]).mean() > 0.95
    np.testing.assert_allclose(agg.probabilities.sum(axis=1), 1.0)

"""Agreement: Fleiss' and Cohen's κ against statsmodels, Krippendorff's α
against a brute force of its definition (every ordered pair of values within a document)
and the ``krippendorff`` package where installed, percent agreement by hand, per topic and
overall; the system-ranking agreement of two qrels against kendall_tau / tau_ap directly."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa

from irscale.collections.agreement import label_agreement, qrels_agreement


def random_labels(seed=3, topics=3, docs=20, equal=False):
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(topics):
        for d in range(docs):
            n = 4 if equal else rng.integers(1, 5)
            for w in rng.choice(6, n, replace=False):
                rows.append((f"t{t}", f"d{d}", f"w{w}", int(rng.choice([0, 1, 3]))))
    return pd.DataFrame(rows, columns=["topic", "docno", "worker", "label"])


def brute_alpha(groups, level, values):
    """α = 1 − D_o / D_e from the pairable values: D_o over ordered pairs within a document
    (each weighted 1 / (m − 1)), D_e over all ordered pairs of pairable values."""
    groups = [g for g in groups if len(g) >= 2]
    pooled = [v for g in groups for v in g]
    n = len(pooled)
    freq = {v: pooled.count(v) for v in values}

    def delta(a, b):
        if level == "nominal":
            return float(a != b)
        if level == "interval":
            return float(a - b) ** 2
        lo, hi = sorted((a, b))
        between = sum(freq[v] for v in values if lo <= v <= hi)
        return (between - (freq[a] + freq[b]) / 2) ** 2

    observed = sum(delta(a, b) / (len(g) - 1) for g in groups
                   for a, b in itertools.permutations(g, 2)) / n
    expected = sum(delta(a, b) for a, b in itertools.permutations(pooled, 2)) / (n * (n - 1))
    return 1 - observed / expected


def test_alpha_and_percent_by_brute_force():
    frame = random_labels()
    table = label_agreement(frame).set_index("topic")
    for topic, group in [*frame.groupby("topic"), ("all", frame)]:
        docs = [list(g.label) for _, g in group.groupby(["topic", "docno"])]
        for level in ("nominal", "ordinal", "interval"):
            assert table.loc[topic, f"alpha_{level}"] == pytest.approx(
                brute_alpha(docs, level, [0, 1, 3]), abs=1e-12)
        pairs = [(a, b) for g in docs for a, b in itertools.permutations(g, 2)]
        assert table.loc[topic, "percent"] == pytest.approx(
            np.mean([a == b for a, b in pairs]))
        assert table.loc[topic, "documents"] == sum(len(g) >= 2 for g in docs)
    assert np.isnan(table["fleiss_kappa"]).all()  # unequal numbers of ratings


def test_alpha_matches_the_krippendorff_package():
    krippendorff = pytest.importorskip("krippendorff")
    frame = random_labels(seed=8)
    table = label_agreement(frame).set_index("topic")
    for topic, group in [*frame.groupby("topic"), ("all", frame)]:
        data = group.assign(item=group.topic + group.docno).pivot(
            index="worker", columns="item", values="label").to_numpy(dtype=float)
        for level in ("nominal", "ordinal", "interval"):
            assert table.loc[topic, f"alpha_{level}"] == pytest.approx(krippendorff.alpha(
                reliability_data=data, level_of_measurement=level, value_domain=[0, 1, 3]),
                abs=1e-12)


def test_fleiss_matches_statsmodels():
    frame = random_labels(seed=5, equal=True)
    table = label_agreement(frame).set_index("topic")
    for topic, group in [*frame.groupby("topic"), ("all", frame)]:
        counts = pd.crosstab(group.topic + group.docno, group.label).to_numpy()
        assert table.loc[topic, "fleiss_kappa"] == pytest.approx(fleiss_kappa(counts),
                                                                 abs=1e-12)


def qrels_text(frame, column):
    return "".join(f"{t} 0 {d} {r}\n" for t, d, r in zip(frame.topic, frame.docno,
                                                          frame[column], strict=True)).encode()


def test_two_qrels_cohen_kappa_matches_statsmodels():
    rng = np.random.default_rng(2)
    n = 90
    frame = pd.DataFrame({"topic": [f"q{i % 3}" for i in range(n)],
                          "docno": [f"d{i}" for i in range(n)],
                          "a": rng.integers(0, 3, n)})
    frame["b"] = np.where(rng.random(n) < 0.6, frame["a"], rng.integers(0, 3, n))
    extra = b"q0 0 only-in-a 1\n"  # judged by one side only: left out
    table, ranking = qrels_agreement(qrels_text(frame, "a") + extra, qrels_text(frame, "b"))
    assert ranking is None
    table = table.set_index("topic")
    for topic, group in [*frame.groupby("topic"), ("all", frame)]:
        contingency = pd.crosstab(group.a, group.b).reindex(
            index=[0, 1, 2], columns=[0, 1, 2], fill_value=0).to_numpy()
        assert table.loc[topic, "cohen_kappa"] == pytest.approx(
            cohens_kappa(contingency).kappa, abs=1e-12)
        assert table.loc[topic, "percent"] == pytest.approx((group.a == group.b).mean())
        assert table.loc[topic, "documents"] == len(group)


def test_system_ranking_agreement(tmp_path):
    from irscale.collections.simulate import _means
    from irscale.io.sources import as_runs
    from irscale.io.trec import read_qrels
    from irscale.meta.rank_correlation import tau_ap
    from irscale.stats.kendall import kendall_tau

    rng = np.random.default_rng(4)
    docs = [f"d{i}" for i in range(30)]
    qa = "".join(f"1 0 {d} {int(rng.integers(0, 2))}\n" for d in docs).encode()
    qb = "".join(f"1 0 {d} {int(rng.integers(0, 2))}\n" for d in docs).encode()
    runs = []
    for r in range(5):
        order = rng.permutation(docs)[:10]
        runs.append(tmp_path / f"r{r}.run")
        runs[-1].write_text("".join(f"1 Q0 {d} {k + 1} {10 - k} r{r}\n"
                                    for k, d in enumerate(order)))
    _, ranking = qrels_agreement(qa, qb, runs, measure="P_5")
    run_list = as_runs(runs)
    a = _means(read_qrels(qa), run_list, "P_5", 1)
    b = _means(read_qrels(qb), run_list, "P_5", 1)
    assert ranking == {"tau": kendall_tau(b, a).tau, "tau_ap": float(tau_ap(b, a))}


def test_cli_prints_the_api_tables(tmp_path, monkeypatch, capsys):
    import io

    from irscale.cli.main import main

    monkeypatch.chdir(tmp_path)
    frame = random_labels()
    (tmp_path / "labels.txt").write_text("".join(
        f"{t} {d} {w} {x}\n" for t, d, w, x in frame.itertuples(index=False)))
    assert main(["labels", "agree", "labels.txt", "--format", "csv"]) == 0
    # an undefined coefficient is written "undefined" (the guard of numbers)
    printed = pd.read_csv(io.StringIO(capsys.readouterr().out), dtype={"topic": str},
                          na_values=["undefined"])
    expected = label_agreement(frame)
    pd.testing.assert_frame_equal(printed, expected, check_dtype=False)
    a = frame.drop_duplicates(["topic", "docno"])
    b = frame.drop_duplicates(["topic", "docno"], keep="last")
    for name, q in (("a.qrels", a), ("b.qrels", b)):
        (tmp_path / name).write_text("".join(
            f"{t} 0 {d} {x}\n" for t, d, _, x in q.itertuples(index=False)))
    runs = []
    rng = np.random.default_rng(1)
    for r in range(3):
        (tmp_path / f"r{r}.run").write_text("".join(
            f"{t} Q0 {d} 1 {rng.random()} r{r}\n" for t, d in
            a[["topic", "docno"]].itertuples(index=False)))
        runs.append(f"r{r}.run")
    assert main(["labels", "agree-qrels", "a.qrels", "b.qrels", *runs, "--format",
                 "csv"]) == 0
    printed = pd.read_csv(io.StringIO(capsys.readouterr().out), dtype={"topic": str},
                          na_values=["undefined"])
    table, ranking = qrels_agreement(str(tmp_path / "a.qrels"), str(tmp_path / "b.qrels"),
                                     [str(tmp_path / r) for r in runs])
    pd.testing.assert_frame_equal(printed.drop(columns=["tau", "tau_ap"]), table,
                                  check_dtype=False)
    assert printed["tau"].iloc[-1] == pytest.approx(ranking["tau"])
    assert printed["tau_ap"].iloc[-1] == pytest.approx(ranking["tau_ap"])
    assert printed["tau"].iloc[:-1].isna().all()


def test_with_ranking_puts_the_ranking_on_the_all_row():
    from irscale.collections.agreement import with_ranking

    table = pd.DataFrame({"topic": ["t1", "t2", "all"], "percent": [1.0, 0.5, 0.75]})
    merged = with_ranking(table, {"tau": 0.5, "tau_ap": 0.25})
    assert list(merged.columns) == ["topic", "percent", "tau", "tau_ap"]
    assert merged["tau"].isna().tolist() == [True, True, False]
    assert (merged["tau"].iloc[-1], merged["tau_ap"].iloc[-1]) == (0.5, 0.25)
    assert "tau" not in table.columns  # a new table
    assert with_ranking(table, None) is table

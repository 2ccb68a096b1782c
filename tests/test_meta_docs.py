"""docs/meta.md: the Python examples run as written (on the data they make; files they
write go to a temporary directory), and the numbers the page states — the examples'
comments, and the sentences and tables on TREC-8 and the CLEF runs (on those data, where
they are present) — are what the code gives. The
expected numbers are read from the page (:mod:`tests.docs_numbers`), so the page and the
code cannot drift apart. The tables at N = 30 of section 6 need the transform at N = 30
(minutes): ``IRSCALE_SLOW_DOCS=1`` runs that test too."""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from irscale import evaluate, meta
from irscale.core import ScoreMatrix

from .conftest import CLEF, URBANO, require
from .docs_numbers import (
    assert_close,
    blocks,
    close,
    comment,
    decimals,
    number_after,
    numbers,
    paragraph,
    table,
)
from .docs_numbers import read as read_doc

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "meta.md"
TEXT = read_doc("meta.md")
BLOCKS = blocks(TEXT)


def test_the_doc_has_examples():
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_documented_example_runs(code, tmp_path, monkeypatch, capsys):
    """Every example runs where a user runs it: it makes its own data (no ../shared); the
    plots it writes land in a temporary folder."""
    assert "shared/data" not in code
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    assert capsys.readouterr().out  # every example prints something


def _run_block(anchor: str, folder: Path, capsys) -> dict[str, object]:
    """The namespace of the example containing ``anchor``, run as written in ``folder``."""
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        namespace: dict[str, object] = {}
        exec(compile(_block(anchor), str(DOC), "exec"), namespace)
    finally:
        os.chdir(cwd)
    capsys.readouterr()
    return namespace


def test_documented_example_comments(tmp_path, capsys):
    """``# Kendall τ_b: 0.9524`` and ``# 147/190 pairs significant (77.4%), estimated diff
    0.0325``: what the examples print on their data (20 synthetic systems)."""
    example = _run_block("meta.overall_correlation(ap, p10)", tmp_path, capsys)
    code = _block("meta.overall_correlation(ap, p10)")
    tau = meta.overall_correlation(example["ap"], example["p10"])
    assert_close(numbers(comment(code, "print(meta.overall_correlation(ap, p10))"))[-1], tau)
    boot = _run_block("meta.discriminative_power(ap", tmp_path, capsys)["boot"]
    stated = comment(_block("meta.discriminative_power(ap"), "print(boot)")
    significant, pairs, share, difference = numbers(stated)
    assert (int(significant), int(pairs)) == (boot.n_significant, boot.n_pairs)
    assert_close(share, boot.n_significant / boot.n_pairs, "share", scale=100)
    assert_close(difference, boot.estimated_difference, "estimated difference")


def _block(anchor: str) -> str:
    found = [code for code in BLOCKS if anchor in code]
    assert len(found) == 1, anchor
    return found[0]


def _assignment(code: str, name: str) -> str:
    """The right-hand side of the documented ``name = ...`` statement (one or more lines)."""
    lines = code.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{name} = "))
    source = lines[start][len(name) + 3:]
    for line in lines[start + 1:]:
        if not line.startswith(" "):
            break
        source += " " + line.strip()
    return source.split("#")[0].strip()


def within_spread(stated: str, value: float) -> bool:
    """Whether one Monte Carlo result lies in the spread the docs state over seeds:
    ``mean ± sd [min, max]`` (within [min, max]) or ``mean ± sd`` (within 3 sd)."""
    found = numbers(stated)
    mean, sd = found[0], found[1]
    half = 0.5 * 10.0 ** -max(decimals(mean), decimals(sd))
    if "[" in stated:
        low, high = float(found[2]), float(found[3])
        half = max(half, 0.5 * 10.0 ** -decimals(found[2]))
        return low - half <= value <= high + half
    return abs(value - float(mean)) <= 3 * float(sd) + half


@pytest.fixture(scope="module")
def trec8():
    data = require(URBANO)
    return {"AP": ScoreMatrix.read_csv(data / "adhoc8_ap.csv"),
            "P@10": ScoreMatrix.read_csv(data / "adhoc8_p10.csv")}


# ---------------------------------------------------------------- 1. rank correlation
def test_documented_correlations(trec8):
    """"On TREC-8 (129 systems): τ(AP, P@10) = 0.8266, 95% bootstrap CI [0.7575, 0.8425]
    (B = 1,000, seed 1; ...), τ_ap(AP | P@10) = 0.7556, symmetric τ_ap = 0.7518,
    RBO(p = 0.9) = 0.7766, Spearman 0.9500, mean topic-by-topic τ 0.6542."""
    ap, p10 = trec8["AP"], trec8["P@10"]
    text = paragraph(TEXT, "On TREC-8 (")
    assert int(number_after(text, "On TREC-8 (")) == ap.n_systems == p10.n_systems
    tau = meta.overall_correlation(ap, p10)
    assert_close(number_after(text, "τ(AP, P@10) = "), tau, "τ")
    low, high, samples, seed = re.search(
        r"CI \[([\d.]+), ([\d.]+)\] \(B =\s*([\d,]+), seed (\d+)", text).groups()
    ci = meta.correlation_ci(ap, p10, samples=int(samples.replace(",", "")), rng=int(seed))
    assert_close(low, ci.low, "CI low")
    assert_close(high, ci.high, "CI high")
    assert_close(number_after(text, "τ_ap(AP | P@10) = "),
                 meta.overall_correlation(ap, p10, method="tau_ap"), "τ_ap")
    assert_close(number_after(text, "symmetric τ_ap = "),
                 meta.overall_correlation(ap, p10, method="tau_ap_sym"), "symmetric τ_ap")
    p = float(number_after(text, "RBO(p = "))
    assert_close(number_after(text, f"RBO(p = {p:g}) = "),
                 meta.overall_correlation(ap, p10, method="rbo", p=p), "RBO")
    assert_close(number_after(text, "Spearman "),
                 meta.overall_correlation(ap, p10, method="spearman"), "Spearman")
    assert_close(number_after(text, "mean topic-by-topic τ "),
                 meta.topic_correlations(ap, p10).mean(), "topic-by-topic τ")


# ---------------------------------------------------------------- 2. discriminative power
@pytest.fixture(scope="module")
def discriminative(trec8):
    """The documented calls (seed 1, B = 1,000) on AP and P@10."""
    code = _block("meta.discriminative_power(ap")
    calls = {"paired bootstrap": _assignment(code, "boot"),
             "randomised Tukey HSD": _assignment(code, "rtukey")}
    results = {}
    for measure, matrix in trec8.items():
        for method, call in calls.items():
            results[measure, method] = eval(call, {"meta": meta, "ap": matrix})
    return results


def test_documented_discriminative_power_table(discriminative):
    """The table on TREC-8: seed 1's values (in parentheses) exactly, and seed 1 inside
    the spread stated over 20 seeds."""
    rows = table(TEXT, "### Discriminative power on TREC-8")
    assert len(rows) == len(discriminative)
    for row in rows:
        result = discriminative[row["measure"], row["method"]]
        what = f"{row['measure']} {row['method']}"
        count = row["significant pairs"]
        mean = float(numbers(count)[0])
        assert int(re.search(r"\((\d+)\)", count)[1]) == result.n_significant, what
        assert within_spread(count, result.n_significant), what
        assert_close(row["share"], mean / result.n_pairs, f"{what} share", scale=100)
        assert within_spread(row["min. significant difference"],
                             result.min_significant_difference), what
        estimated = row["Sakai (2006) estimated difference"]
        critical = row["range critical value"]
        if row["method"] == "paired bootstrap":
            assert critical == "—" and within_spread(estimated, result.estimated_difference)
        else:
            assert estimated == "—" and within_spread(critical, result.critical_value)


# ---------------------------------------------------------------- 3. topic splitting
@pytest.fixture(scope="module")
def splitting(trec8):
    """The documented study (``split_study(matrix, (5, 10, 15, 20, 25), 100, ...)``, as the
    page writes it) and swap rates over the same splits, on AP and P@10."""
    call = re.search(r"`(split_study\(matrix, \(.*?\))`",
                     paragraph(TEXT, "deterministic for the seed (tested)"))
    assert call is not None
    source = call[1]
    sizes = eval(re.search(r"\(matrix, (\([\d, ]+\))", source)[1])
    repetitions = int(re.search(r"\), (\d+),", source)[1])
    seed = int(re.search(r"(?:rng|seed)=(\d+)", source)[1])
    out = {}
    for measure, matrix in trec8.items():
        study = eval(source, {"split_study": meta.split_study, "matrix": matrix})
        swaps = meta.swap_rates(matrix, sizes=sizes, repetitions=repetitions, rng=seed)
        out[measure] = (study, swaps)
    return out


def _sizes(row: dict[str, str]) -> list[tuple[int, str]]:
    return [(int(key.split()[0]), value) for key, value in row.items()
            if key.split()[0].isdigit()]


def test_documented_split_tau(splitting):
    for row in table(TEXT, "| τ between halves"):
        measure = row["τ between halves"].split()[0]
        study, _ = splitting[measure]
        taus = study.table("tau")
        models = re.search(r"\((.*)\)", row["τ between halves"])[1].split(" = ")
        for size, stated in _sizes(row):
            for model in models:
                assert_close(stated, taus.loc[model, f"{size} topics"], f"τ {model} {size}")


METRICS = {"significant": "sig_1", "AA": "AA", "AD": "AD", "AD (= swaps)": "AD",
           "Jaccard": "jaccard"}


def test_documented_split_metrics(splitting):
    study, _ = splitting["AP"]
    rows = table(TEXT, "AP — significant pairs on TS1")
    assert rows
    for row in rows:
        metric = METRICS[row["metric"]]
        if " on TS1, " in row["AP"]:  # MD1 on TS1, MD2 on TS2: the different-model rows
            first, second = re.match(r"(\w+) on TS1, (\w+) on TS2", row["AP"]).groups()
            frame, labels = study.table(metric, cross=True), [f"{first} vs {second}"]
        else:
            frame, labels = study.table(metric), row["AP"].split(", ")
        for label in labels:
            for size, stated in _sizes(row):
                assert_close(stated, frame.loc[label, f"{size} topics"],
                             f"AP {row['metric']} {label} {size}")


def test_documented_split_agreement(splitting):
    rows = table(TEXT, "Agreement at 25 + 25 topics")
    header = next(iter(rows[0]))  # "AP, 25 topics"
    measure, size = header.split(",")[0], int(numbers(header.split(",")[1])[0])
    checked = 0
    for row in rows:
        label = row[header]
        if label.endswith("topics"):  # "P@10, 25 topics": the rows of another measure
            measure, size = label.split(",")[0], int(numbers(label.split(",")[1])[0])
            continue
        frame = splitting[measure][0].agreement_table(size).set_index("comparison")
        for column in ("AA", "AD", "MA", "MD"):
            assert_close(row[column], frame.loc[label, column], f"{measure} {label} {column}")
        assert_close(row["Bias"], frame.loc[label, "bias_%"], f"{measure} {label} Bias")
        checked += 1
    assert checked == 7


def test_documented_swap_rates(splitting):
    """"Swap rates (all pairs with d₁ ≠ 0; AP: 0.212, ... for 5…25 topics; P@10: ...)"."""
    text = paragraph(TEXT, "Swap rates (")
    text = text[text.index("Swap rates ("):]
    for measure in ("AP", "P@10"):
        stated = re.search(rf"{re.escape(measure)}: ((?:[\d.]+, )+[\d.]+)", text)[1].split(", ")
        overall = splitting[measure][1].overall
        assert len(stated) == len(overall)
        for value, (_, rate) in zip(stated, overall[["size", "rate"]].values, strict=True):
            assert_close(value, rate, f"{measure} swap rate")


# ---------------------------------------------------------------- 4. concordance
def test_documented_concordance_table():
    clef = require(CLEF)
    runs = sorted(str(p) for p in (clef / "runs").glob("*.txt"))
    text = paragraph(TEXT, "with recall@100 as the gold standard")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # runs sharing a run id
        matrix = evaluate(clef / "task2.qrels", runs, ["P@10", "nDCG@10", "AP", "R@100"]
                          ).to_matrix()
    assert int(number_after(text, "On the ")) == len(runs)
    rows = table(TEXT, "with recall@100 as the gold standard")
    assert len(rows) == 3
    for row in rows:
        result = meta.concordance_test(matrix.measure(row["M1"]), matrix.measure(row["M2"]),
                                       [matrix.measure("R@100")])
        what = f"{row['M1']} vs {row['M2']}"
        assert int(number_after(text, "runs (")) == result.comparisons
        assert int(row["disagreements"]) == result.disagreements, what
        assert_close(row["Conc(M1)"], result.conc_1, what, scale=100)
        assert_close(row["Conc(M2)"], result.conc_2, what, scale=100)
        wins = [int(n) for n in numbers(row["wins M1 / M2"])]
        assert wins == [result.wins_1, result.wins_2], what
        assert_close(row["sign test p"], result.pvalue, what)


# ---------------------------------------------------------------- 5. leave one out
def test_documented_leave_one_out():
    """"On the 16 CLEF runs (6 teams; pool depth 100 / 10): τ(map) = 0.967 / 0.983, ...,
    largest rank drop 1 / 3; mean relative score change of map −17% / −25%. ...
    (WHUIRGroup: 2,630 unique judged documents, 380 relevant, at depth 100)"."""
    clef = require(CLEF)
    runs = {p.stem: p for p in sorted((clef / "runs").glob("*.txt"))}
    text = paragraph(TEXT, "pool depth 100 / 10")
    depths = [int(n) for n in numbers(text[text.index("pool depth"):])[:2]]
    measures = ["map", "P@10", "nDCG@10"]
    results = {depth: meta.leave_one_out(clef / "task2.qrels", runs, measures, depth=depth)
               for depth in depths}
    assert int(number_after(text, "On the ")) == len(runs)
    for depth, loo in results.items():
        assert int(number_after(text, "runs (")) == len(loo.unique)
        summary = loo.summary.set_index("measure")
        for measure in measures:
            label = f"τ({measure}) = "
            stated = numbers(text[text.index(label) + len(label):])[depths.index(depth)]
            assert_close(stated, summary.loc[measure, "tau"], f"τ({measure}) depth {depth}")
        drop = numbers(text[text.index("largest rank drop"):])[depths.index(depth)]
        assert int(drop) == summary["max_rank_drop"].max(), depth
        change = numbers(text[text.index("relative score change of map"):])[depths.index(depth)]
        assert_close(change, summary.loc["map", "mean_relative_diff"], "map change", scale=100)
    team, judged, relevant, depth = re.search(
        r"\((\w+): ([\d,]+) unique judged documents, ([\d,]+) relevant, at depth (\d+)\)",
        text).groups()
    unique = results[int(depth)].unique.set_index("contributor")
    assert int(judged.replace(",", "")) == unique.loc[team, "unique_judged"]
    assert int(relevant.replace(",", "")) == unique.loc[team, "unique_relevant"]


# ---------------------------------------------------------------- 6. interval scales
def test_documented_table_2():
    """Table 2 (overall τ between each measure and its ranked version) at N ≤ 20; N = 30
    takes minutes (the transform) and is left to tests/test_scales_transform.py's
    invariants."""
    clef = require(CLEF)
    runs = sorted(str(p) for p in (clef / "runs").glob("*.txt"))
    rows = [row for row in table(TEXT, "Table 2 — overall τ") if int(row["track"][-2:]) <= 20]
    cutoffs = [int(row["track"][-2:]) for row in rows]
    assert cutoffs == [5, 10, 20]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # runs sharing a run id
        report = meta.scale_report(clef / "task2.qrels", runs, cutoffs=cutoffs,
                                   collection="CLEF")
    frame = report.table2()
    for row in rows:
        track = row.pop("track")
        assert set(row) == set(frame.columns)
        for measure, stated in row.items():
            assert_close(stated, frame.loc[track, measure], f"{track} {measure}")


#: The tests of Tables 5 and 6 as the text names them (Sig of the hidden rows).
TEST_NAMES = {"sign": "Sign Test", "rank-sum": "Wilcoxon Rank Sum Test",
              "Kruskal–Wallis": "Kruskal-Wallis Test", "Friedman": "Friedman Test"}


@pytest.mark.skipif(not os.environ.get("IRSCALE_SLOW_DOCS"),
                    reason="the transform at N = 30 takes minutes: IRSCALE_SLOW_DOCS=1 runs it")
def test_documented_tables_at_n30():
    """Tables 2 (N = 30), 4, 5 and 6 at N = 30 and the Sig of Table 5's hidden rows."""
    clef = require(CLEF)
    runs = sorted(str(p) for p in (clef / "runs").glob("*.txt"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # runs sharing a run id
        report = meta.scale_report(clef / "task2.qrels", runs, cutoffs=[30],
                                   collection="CLEF")
    row = next(r for r in table(TEXT, "Table 2 — overall τ") if r["track"] == "CLEF_30")
    frame = report.table2()
    for measure, stated in row.items():
        if measure != "track":
            assert_close(stated, frame.loc["CLEF_30", measure], f"CLEF_30 {measure}")
    for anchor, recall_base in (("Table 5 at N = 30", False), ("Table 6 at N = 30", True)):
        frame = report.table5(30, recall_base=recall_base)
        computed = {(r["measure"], r["test"]): r for r in frame.to_dict("records")}
        shown = set()
        for row in table(TEXT, anchor):
            if row["test"] == "all eight tests":
                ours = [r for r in frame.to_dict("records") if r["measure"] == row["measure"]]
                assert [int(n) for n in numbers(row["Sig"])] == [r["Sig"] for r in ours]
                keys = [(row["measure"], r["test"]) for r in ours]
            else:
                keys = [(row["measure"], row["test"])]
                assert int(row["Sig"]) == computed[keys[0]]["Sig"], keys[0]
            for key in keys:
                for column in ("S2NS (%)", "NS2S (%)", "Δ%"):
                    assert row[column] == computed[key][column], (key, column)
            shown.update(keys)
        for key in set(computed) - shown:  # "Rows not shown have no change"
            assert computed[key]["S2NS (%)"].startswith("0 ("), key
            assert computed[key]["NS2S (%)"].startswith("0 ("), key
        if not recall_base:
            text = paragraph(TEXT, "Sig of the hidden rows")
            hidden = text[text.index("Sig of the hidden rows"):]
            order = [TEST_NAMES[t.strip()] for t in
                     re.search(r"\(([^)]*Friedman)\)", hidden)[1].split(",")]
            for measure, counts in re.findall(r"(\w+) ((?:\d+, ){3}\d+)", hidden):
                for test, count in zip(order, counts.split(", "), strict=True):
                    assert computed[measure, test]["Sig"] == int(count), (measure, test)
            measure, test, count = re.search(r"(\w+) (sign) (\d+)\.", hidden).groups()
            assert computed[measure, TEST_NAMES[test]]["Sig"] == int(count)
    frame = report.table4(30).set_index("measure")
    for row in table(TEXT, "Table 4 at N = 30"):
        pair = row["measures"]
        assert_close(row["Msr"], frame.loc[pair, "Msr"], f"{pair} Msr")
        assert_close(row["RnkMsr"], frame.loc[pair, "RnkMsr"], f"{pair} RnkMsr")
        assert_close(row["Δ%"], frame.loc[pair, "delta_%"], f"{pair} Δ%")


def test_close_reads_precision():
    assert close("0.8266", 0.82656) and not close("0.8266", 0.8267)
    assert close("71.6%", 0.7162, scale=100) and close("1.7e-52", 1.687e-52)
    assert within_spread("5910.0 ± 15.0 [5887, 5939] (5913)", 5913)
    assert not within_spread("0.1334 ± 0.0010", 0.1400)


def test_reproducibility_example_comment(tmp_path, capsys):
    """``# ER of AP 0.917, ΔRI 0.133``: what section 7's example prints."""
    example = _run_block("meta.reproducibility(", tmp_path, capsys)
    row = example["result"].to_frame().set_index("measure").loc["AP"]
    stated = numbers(comment(_block("meta.reproducibility("), "print(result.format("))
    assert_close(stated[0], row["ER"])
    assert_close(stated[1], row["delta_RI"])


def test_predictive_power_sentence(tmp_path, capsys):
    """"P@10 predicts 88.9% of the judgments it orders, but it ties on 321 of 2,000;
    counting ties as misses, nDCG@10 ... comes first": what section 8's example gives."""
    example = _run_block("meta.predictive_power(preferences", tmp_path, capsys)
    preferences, scores = example["preferences"], example["scores"]
    sentence = paragraph(TEXT, "P@10 predicts")
    power, ties, judgments = numbers(sentence)[1:4]
    p10 = meta.predictive_power(preferences, scores, measure="P@10")
    assert_close(power, p10.power, "power", scale=100)
    assert (int(ties), int(judgments)) == (p10.measure_ties, p10.judgments)
    missed = {m: meta.predictive_power(preferences, scores, measure=m, ties="miss").power
              for m in scores.measures}
    assert max(missed, key=missed.get) == "ndcg_cut_10"


def test_informativeness_example_comment(tmp_path, capsys):
    """``# mean RMS error: AP 0.0971, R-prec 0.154, P@10 0.200``."""
    example = _run_block("meta.informativeness(lists", tmp_path, capsys)
    summary = example["result"].summary.set_index("measure")["mean_rms_error"]
    stated = comment(_block("meta.informativeness(lists"), "print(result.format())")
    for measure in ("AP", "R-prec", "P@10"):
        assert_close(number_after(stated, f"{measure} "), summary[measure], measure)


def test_intent_informativeness_example_comment(tmp_path, capsys):
    """``# mean RMS error: alpha-DCG@20 0.262, ERR-IA@20 0.273, NRBP(beta=0.9) 0.216,
    P-IA@1 0.312`` and ``Σ_i p_ij = R_j: [4. 2. 6.]``."""
    example = _run_block("meta.intent_informativeness(lists", tmp_path, capsys)
    summary = example["result"].summary.set_index("measure")["mean_rms_error"]
    stated = comment(_block("meta.intent_informativeness(lists"), "print(result.format())")
    for measure in ("alpha-DCG@20", "ERR-IA@20", "NRBP(beta=0.9)", "P-IA@1"):
        assert_close(number_after(stated, f"{measure} "), summary[measure], measure)
    np.testing.assert_allclose(example["p"].sum(axis=0), [4, 2, 6], atol=1e-9)


def test_judge_noise_example_comments(tmp_path, capsys):
    """The tables the judgment-noise example prints are its comments, line for line."""
    code = _block("judge_noise(collection.qrels")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(code, str(DOC), "exec"), {})
    finally:
        os.chdir(cwd)
    printed = capsys.readouterr().out.splitlines()
    stated = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    assert printed == stated

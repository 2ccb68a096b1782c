"""Edges of :mod:`irscale.stats` and ``irscale compare``: impossible values
refused, options a test ignores refused, no numpy warning on edge inputs, scores too large
or too small for sums of squares refused, JSON pairs with ``p`` and ``p_adjusted``."""

from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from irscale import stats
from irscale.cli.main import main
from irscale.errors import InputError, ParameterError

RESAMPLING = ("randomization", "bootstrap", "bootstrap-shift", "unpaired-bootstrap")


def table(seed: int = 0, topics: int = 12, systems: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.random((topics, 1)) * 0.6 + np.linspace(0, 0.2, systems)
                   + rng.normal(0, 0.05, (topics, systems)), 0, 1)


# --------------------------------------------------------------------------- values
@pytest.mark.parametrize("value", [0, -1, 2.5, float("nan"), "10", True, 10**10])
def test_samples_outside_the_range_are_refused(value):
    x = table()
    for test in RESAMPLING:
        with pytest.raises(ParameterError, match="samples must be an integer in"):
            stats.two_sample_test(x, systems=("s1", "s2"), test=test, samples=value)
    with pytest.raises(ParameterError, match="samples"):
        stats.randomized_tukey_hsd(x, samples=value)


@pytest.mark.parametrize("seed", [-1, 1.5, "x", [1, -2], [], True])
def test_seeds_numpy_cannot_take_are_refused(seed):
    with pytest.raises(ParameterError, match="rng must be"):
        stats.randomization_test(table(), systems=("s1", "s2"), samples=100, rng=seed)


def test_large_and_sequence_seeds_are_accepted():
    x = table()
    for seed in (2**100, [1, 2, 3], np.int64(5)):
        stats.randomization_test(x, systems=("s1", "s2"), samples=50, rng=seed, exact=False)


@pytest.mark.parametrize("workers, message", [
    (0, "workers must be an integer"), (-2, "workers must be an integer"),
    (1.5, r"workers: expected int \| None, got 1.5 \(float\)")])
def test_workers_below_one_are_refused_even_when_enumerating(workers, message):
    x = table(topics=5)  # 2^5 ≤ samples: exact enumeration, no worker ever used
    with pytest.raises(ParameterError, match=message):
        stats.randomization_test(x, systems=("s1", "s2"), samples=1000, workers=workers)


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 1.5, float("nan"), "a"])
def test_alpha_outside_the_open_interval(alpha):
    with pytest.raises(ParameterError, match="alpha must"):
        stats.pairwise_tests(table(), "t", alpha=alpha)


@pytest.mark.parametrize("digits, message", [
    (-1, r"digits must be an integer in \[0, 17\]"),
    (18, r"digits must be an integer in \[0, 17\]"),
    (2.0, r"^digits: expected int, got 2.0 \(float\)$"),
    (True, r"^digits: expected int, got True \(bool\)$")])
def test_digits_outside_0_17(digits, message):
    result = stats.pairwise_tests(table(), "t")
    with pytest.raises(ParameterError, match=message):
        result.format("text", digits=digits)


# --------------------------------------------------------------------------- warnings
def test_sidak_of_p_equal_1_is_exact_without_warning():
    p = np.array([1.0, 0.0, 0.2, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sidak = stats.adjust_pvalues(p, "sidak")
        holm_sidak = stats.adjust_pvalues(p, "holm-sidak")
    assert sidak.tolist() == [1.0, 0.0, pytest.approx(1 - 0.8**4), 1.0]
    assert holm_sidak[[0, 1, 3]].tolist() == [1.0, 0.0, 1.0]
    assert holm_sidak[2] == pytest.approx(1 - 0.8**3)


EDGE_TABLES = {
    "two-topics": np.array([[0.1, 0.5, 0.3], [0.2, 0.4, 0.9]]),
    "constant-column": np.column_stack([np.full(6, 0.5), table(1, 6, 2)]),
    "ties": np.round(table(2, 8, 4) * 2) / 2,
    "mostly-zero": np.column_stack([np.zeros(5), np.zeros(5), [0, 0, 0, 0, 1.0]]),
    "identical-systems": np.column_stack([np.arange(5) / 10, np.arange(5) / 10,
                                          table(3, 5, 1)[:, 0]]),
    "binary": (table(4, 10, 4) > 0.5).astype(float),
    "constant-rows": np.tile(table(5, 6, 1), (1, 4)),
    "large": table(6, 6, 3) * 1e140,
    "small": table(7, 6, 3) * 1e-130,
}


@pytest.mark.parametrize("name", sorted(EDGE_TABLES))
def test_no_numpy_warning_on_edge_inputs(name):
    values = EDGE_TABLES[name]
    calls = [
        lambda: stats.anova(values), lambda: stats.anova(values, "system"),
        lambda: stats.kruskal_wallis(values).tukey_hsd(),
        lambda: stats.friedman(values).tukey_hsd(),
        lambda: stats.randomized_tukey_hsd(values, samples=100, rng=1),
    ]
    for test in stats.TESTS:
        options = {"samples": 100, "rng": 1} if test in RESAMPLING else {}
        for correction in ("sidak", "holm-sidak", "by"):
            calls.append(lambda t=test, c=correction, o=options:
                         stats.pairwise_tests(values, t, correction=c, **o))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for call in calls:
            try:
                call()
            except (InputError, ParameterError):
                pass  # a clear refusal (constant data, a perfect fit) is fine


@pytest.mark.parametrize("scale", [1e300, 1e200, 1e-300, 1e-200])
def test_scores_too_large_or_too_small_are_refused(scale):
    values = table() * scale
    word = "too large" if scale > 1 else "too small"
    for call in (lambda: stats.anova(values), lambda: stats.pairwise_tests(values, "welch"),
                 lambda: stats.paired_t(values[:, 0], values[:, 1])):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(InputError, match=f"scores {word}"):
                call()


def test_welch_df_is_scale_free():
    values = table()
    small = stats.welch_t(values[:, 0], values[:, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        large = stats.welch_t(values[:, 0] * 1e120, values[:, 1] * 1e120)
    assert large.df == pytest.approx(small.df, rel=1e-12)
    assert large.pvalue == pytest.approx(small.pvalue, rel=1e-9)


# --------------------------------------------------------------------------- results
def test_json_and_csv_name_the_raw_and_the_adjusted_p_value():
    result = stats.pairwise_tests(table(), "t", correction="holm")
    frame = result.to_frame()
    pairs = result.json_pairs()
    assert [p["p"] for p in pairs] == pytest.approx(frame["p_raw"].tolist())
    assert [p["p_adjusted"] for p in pairs] == pytest.approx(frame["p"].tolist())
    assert all(p["significant"] == (p["p_adjusted"] <= 0.05) for p in pairs)
    header = result.format("csv").splitlines()[0].split(",")
    assert header.index("p_adjusted") == header.index("p") + 1 and "p_raw" not in header
    none = stats.pairwise_tests(table(), "t", correction="none").json_pairs()
    assert all(p["p"] == p["p_adjusted"] for p in none)
    tukey = stats.tukey_hsd(table()).json_pairs()
    assert all(p["p"] == p["p_adjusted"] for p in tukey)


def test_json_pairs_of_several_measures_say_which():
    from irscale.core import ScoreMatrix

    matrix = ScoreMatrix.from_array(np.stack([table(), table(1)], axis=2),
                                    measures=["ap", "p10"])
    pairs = stats.pairwise_tests(matrix, "t").json_pairs()
    assert {p["measure"] for p in pairs} == {"ap", "p10"} and len(pairs) == 12


# --------------------------------------------------------------------------- CLI
@pytest.fixture
def scores(tmp_path):
    path = tmp_path / "ap.csv"
    pd.DataFrame(table().round(4), columns=["bm25", "dfr", "lm", "neural"]).to_csv(
        path, index=False)
    return str(path)


def compare(capsys, scores, *argv: str) -> tuple[int, str, str]:
    status = main(["compare", "--scores", scores, *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("argv", "message"), [
    (["--test", "randomization", "--samples", "0"],
     "--samples (samples) must be an integer in [1, 1,000,000,000], got 0"),
    (["--test", "bootstrap", "--samples", "-5"], "--samples (samples) must be"),
    (["--test", "bootstrap", "--samples", "99999999999999999999"], "--samples (samples)"),
    (["--test", "randomized-tukey-hsd", "--samples", "0"], "--samples (samples)"),
    (["--test", "randomization", "--seed", "-1"],
     "--seed (seed) must be a non-negative integer, got -1"),
    (["--test", "randomization", "--workers", "0"], "--workers (workers) must be an integer"),
    (["--digits", "-1"], "--digits (digits) must be an integer in [0, 17], got -1"),
    (["--digits", "1000"], "--digits (digits)"),
    (["--alpha", "0"], "--alpha (alpha) must lie in (0, 1)"),
    (["--alpha", "nan"], "--alpha (alpha)"),
    (["--test", "t", "--correction", "nope"],
     "--correction (correction): unknown correction 'nope'"),
    (["--test", "nope"], "unknown test 'nope'"),
    # options the chosen test ignores
    (["--alternative", "less"], "--alternative applies to --test t, student, welch"),
    (["--test", "randomized-tukey-hsd", "--alternative", "greater"], "--alternative"),
    (["--correction", "bonferroni"], "--correction applies to --test mixed, bootstrap-anova, t"),
    (["--test", "randomized-tukey-hsd", "--correction", "holm"], "--correction"),
    (["--model", "friedman", "--alternative", "less"], "--alternative"),
    (["--test", "t", "--samples", "100"], "--samples applies to --test randomized-tukey-hsd"),
    (["--test", "wilcoxon", "--seed", "1"], "--seed applies to --test randomized-tukey-hsd"),
    (["--test", "sign", "--workers", "2"], "--workers applies to --test randomized-tukey-hsd, "
     "randomization, bootstrap, bootstrap-shift and unpaired-bootstrap, not to --test sign"),
    (["--test", "t", "--samples", "10", "--seed", "1"], "--samples applies"),
    (["--model", "friedman", "--transform", "rank"], "--transform applies without --model "
     "friedman (a rank test ranks the scores itself)"),
    (["--test", "mixed", "--family", "binomial", "--method", "ml"],
     "--method applies to the linear mixed model (the binomial GLMM is fit by maximum "
     "likelihood only), not to --family binomial"),
    (["--samples", "100"], "not to --test tukey-hsd"),
    (["--test", "t", "--model", "MD1"], "--model applies to --test tukey-hsd"),
    (["--format", "json", "--digits", "3"], "--digits applies to text, markdown and latex"),
    (["--format", "csv", "--digits", "3"], "--format csv keeps every digit"),
    (["--systems", ""], "--systems is empty"),
    (["--systems", "bm25,,dfr"], "--systems has an empty name"),
    (["--systems", "bm25,bm25"], "--systems names ['bm25'] twice"),
    (["--systems", "bm25,nosuch"],
     "--systems 'nosuch' names no run: give a run's name, its run id or its file"),
    (["--test", "t", "-m", "p10"], "-m p10: no such measure in the --scores files"),
])
def test_compare_refuses_impossible_and_ignored_options(argv, message, scores, capsys):
    status, out, err = compare(capsys, scores, *argv)
    assert status == 2 and out == "", err
    assert err.startswith("irscale: ") and message in err, err
    assert len(err.strip().splitlines()) == 1


def test_compare_topic_column_needs_scores(tmp_path, capsys):
    qrels = tmp_path / "q"
    qrels.write_text("1 0 d1 1\n")
    status = main(["compare", str(qrels), "a", "b", "-m", "map", "--topic-column", "t"])
    err = capsys.readouterr().err
    assert status == 2 and "--topic-column applies to --scores files" in err


def test_compare_defaults_apply_when_options_are_not_given(scores, capsys):
    status, out, _ = compare(capsys, scores, "--test", "t", "--format", "json")
    assert status == 0
    pairs = json.loads(out)["pairs"]
    raw = np.array([p["p"] for p in pairs])
    adjusted = stats.adjust_pvalues(raw, "holm")  # default correction: holm
    assert [p["p_adjusted"] for p in pairs] == pytest.approx(adjusted.tolist())
    status, out, _ = compare(capsys, scores, "--test", "t", "--correction", "none",
                             "--alternative", "greater", "--digits", "2")
    assert status == 0 and "p_adjusted" not in out  # no correction: one p column
    table_lines = out.splitlines()[3:]
    assert not re.findall(r"\d\.\d{3}", "\n".join(table_lines))  # two decimals


def test_compare_json_carries_p_and_p_adjusted(scores, capsys):
    status, out, _ = compare(capsys, scores, "--test", "randomization", "--samples", "200",
                             "--seed", "3", "--correction", "bonferroni", "--format", "json")
    assert status == 0
    for pair in json.loads(out)["pairs"]:
        assert set(pair) == {"a", "b", "diff", "ci_low", "ci_high", "p", "p_adjusted",
                             "significant"}
        assert pair["p_adjusted"] == pytest.approx(min(1.0, 6 * pair["p"]))
    status, out, _ = compare(capsys, scores, "--test", "t", "--correction", "none",
                             "--format", "json")
    assert all(p["p"] == p["p_adjusted"] for p in json.loads(out)["pairs"])


def test_compare_randomization_with_one_sample_runs(scores, capsys):
    status, out, err = compare(capsys, scores, "--test", "randomization", "--samples", "1",
                               "--seed", "1", "--format", "json")
    assert status == 0, err
    assert all(p["p"] >= 0.5 for p in json.loads(out)["pairs"])  # (c + 1)/(B + 1) ≥ 1/2


def test_compare_huge_scores_give_a_clear_error(tmp_path, capsys):
    path = tmp_path / "big.csv"
    pd.DataFrame(table() * 1e300, columns=list("abcd")).to_csv(path, index=False)
    for argv in ([], ["--test", "t"], ["--test", "welch"], ["--model", "friedman"]):
        status, out, err = compare(capsys, str(path), *argv)
        assert status == 2 and "scores too large" in err and "overflow" in err, err
        assert "Warning" not in err and "nan" not in out.lower()


def test_pairwise_systems_are_never_dropped_silently():
    x = table()
    with pytest.raises(ParameterError, match=r"'zz' names no run: .*runs: 's1', 's2'"):
        stats.pairwise_tests(x, "t", systems=["s1", "s2", "zz"])
    with pytest.raises(ParameterError, match="two different systems"):
        stats.pairwise_tests(x, "t", systems=["s1", "s1"])


def test_score_matrix_and_effect_size_inputs():
    from irscale.core import ScoreMatrix

    for bad in (np.zeros(5), np.zeros((2, 2, 1, 1)), np.array([["a", "b"], ["c", "d"]])):
        with pytest.raises(InputError):
            ScoreMatrix.from_array(bad)
    x = table()[:, 0]
    with pytest.raises(Exception, match="one value per topic") as info:
        stats.effect_sizes(x, x[:-1])
    assert isinstance(info.value, ValueError) and "irscale.errors" in type(info.value).__module__
    with pytest.raises(InputError, match="non-finite"):
        stats.effect_sizes(np.r_[np.nan, x[1:]], x)



@pytest.mark.parametrize("test", ["paired_t", "welch_t", "student_t"])
def test_constant_difference_is_refused_not_infinite(test):
    """x − y = −0.1 on every topic (and each sample constant): the standard error is 0, so
    there is nothing to test (not t = −inf, p = 0, nor −1e16 from the rounding of the
    mean: tests/test_stats_degenerate.py), and the standardised effect sizes are
    undefined (NaN), as with identical columns."""
    x, y = [0.1, 0.1, 0.1], [0.2, 0.2, 0.2]
    with pytest.raises(InputError, match="with no variance"):
        getattr(stats, test)(x, y)
    effects = stats.effect_sizes(x, y, paired=test == "paired_t")
    assert np.isnan(effects.cohen_d) and np.isnan(effects.glass_delta)
    if test == "paired_t":
        assert np.isnan(effects.d_z)

"""Edges of :mod:`irscale.meta` and ``irscale meta``: impossible values and
options an analysis ignores refused before the work, RBO ties within the τ tolerance, no
numpy warning on edge inputs."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

from irscale import meta
from irscale.cli.main import main
from irscale.core import ScoreMatrix
from irscale.errors import InputError, ParameterError
from irscale.meta.rank_correlation import rbo_scores
from irscale.stats.kendall import RTOL


def table(seed: int = 0, topics: int = 12, systems: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.random((topics, 1)) * 0.6 + np.linspace(0, 0.2, systems)
                   + rng.normal(0, 0.05, (topics, systems)), 0, 1)


# --------------------------------------------------------------------------- RBO ties
def test_rbo_of_scores_ties_values_within_the_tau_tolerance():
    exact = np.array([0.5, 0.3, 0.3, 0.3, 0.1, 0.7])
    noisy = exact.copy()
    noisy[[1, 3]] += [-1e-15, 1e-15]  # 0.3 ± noise: still tied, input order kept
    other = np.array([0.9, 0.1, 0.2, 0.8, 0.3, 0.95])
    for p in (0.5, 0.9):
        assert rbo_scores(noisy, other, p) == rbo_scores(exact, other, p)
        assert rbo_scores(other, noisy, p) == rbo_scores(other, exact, p)
        assert meta.correlation(noisy, other, "rbo", p=p) == \
            meta.correlation(exact, other, "rbo", p=p)
        # without the tolerance the noise reorders the tied items and changes RBO
        assert rbo_scores(noisy, other, p, rtol=0.0) != rbo_scores(exact, other, p)
    # the same tolerance as Kendall's τ: its ties agree
    assert meta.kendall_tau(noisy, other).ties_x == meta.kendall_tau(exact, other).ties_x
    # differences beyond the tolerance are not ties
    apart = exact.copy()
    apart[[1, 3]] += [-1e3 * RTOL, 1e3 * RTOL]
    assert rbo_scores(apart, other).ext != rbo_scores(exact, other).ext


def test_rbo_tolerance_is_an_option():
    x = np.array([0.3, 0.3 + 1e-6, 0.1])
    y = np.array([0.9, 0.1, 0.3])
    loose = meta.correlation(x, y, "rbo", rtol=1e-3)
    assert loose == rbo_scores(np.array([0.3, 0.3, 0.1]), y).ext
    assert loose != meta.correlation(x, y, "rbo")


@pytest.mark.parametrize("p", [0, 1, -0.5, 1.5, float("nan"), "x"])
def test_rbo_persistence_outside_0_1(p):
    with pytest.raises(ParameterError, match=r"^p must lie in \(0, 1\)"):
        rbo_scores([0.1, 0.2], [0.2, 0.1], p)


def test_correlation_refuses_options_the_method_does_not_take():
    x, y = table()[:, 0], table(1)[:, 0]
    with pytest.raises(ParameterError, match="persistence p applies to RBO only"):
        meta.correlation(x, y, "kendall", p=0.9)
    # RBO's options, refused with another method by the binding (meta.params.RBO_ONLY)
    with pytest.raises(ParameterError, match=r"^p= applies to method 'rbo', not to method "
                       r"'spearman'"):
        meta.overall_correlation(table(), table(1), method="spearman", p=0.5)
    with pytest.raises(ParameterError, match=r"^overall_correlation: unknown keyword "
                       r"argument\(s\) q; it takes a, b, .*, method, rtol, atol"):
        meta.overall_correlation(table(), table(1), method="spearman", q=0.5)


# --------------------------------------------------------------------------- values
def test_split_sizes_are_checked_before_the_work():
    values = table(topics=10)
    for sizes, message in (([], "empty"), ([0], "must be an integer"),
                           ([2.5], r"sizes: expected Sequence\[int\]"), ([5, 5], "twice"),
                           ([9], r"\[2, 8\]"), ([1], r"\[2, 8\]"),
                           ([10], "cannot be run on 10 topics")):
        with pytest.raises(ParameterError, match=message):
            meta.split_study(values, sizes, 2, models=("MD2",))
        with pytest.raises(ParameterError, match=message):
            meta.swap_rates(values, sizes, 2)
    with pytest.warns(UserWarning, match="more than half of the 10 topics: TS2 holds the 3"):
        study = meta.split_study(values, [7], 2, models=("MD2",), rng=1)
    assert set(study.per_split["size_2"]) == {3}


@pytest.mark.parametrize("repetitions", [0, -1, 1.5, 10**7])
def test_repetitions(repetitions):
    with pytest.raises(ParameterError, match="repetitions must be an integer"):
        meta.split_study(table(), [4], repetitions, models=("MD2",))
    with pytest.raises(ParameterError, match="repetitions must be an integer"):
        meta.swap_rates(table(), [4], repetitions)


@pytest.mark.parametrize("width", [0, -0.01, float("nan"), float("inf"), "x"])
def test_bin_width(width):
    with pytest.raises(ParameterError, match="bin_width must be a positive number"):
        meta.swap_rates(table(), [4], 2, bin_width=width)


def test_bin_width_too_small_for_the_differences():
    with pytest.raises(ParameterError, match=r"too small for these scores: .* mean "
                       r"differences up to .* beyond 2\^53"):
        meta.swap_rates(table() * 1e10, [4], 2, bin_width=1e-10, rng=1)


def test_correction_only_where_it_applies():
    with pytest.raises(ParameterError, match="applies to two-system tests"):
        meta.decide(table(), "MD2", correction="holm")
    with pytest.raises(ParameterError, match="applies to two-system tests"):
        meta.split_study(table(), [4], 2, models=("MD1", "MD2"), correction="holm")
    meta.split_study(table(), [4], 2, models=("MD2", "t"), correction="holm", rng=1)


def test_discriminative_power_values():
    values = table()
    for options, message in (({"samples": 0}, "samples"), ({"rng": -3}, "rng"),
                             ({"workers": 0}, "workers"), ({"samples": 10, "B": 20}, "once")):
        with pytest.raises(ParameterError, match=message):
            meta.discriminative_power(values, **options)
    with pytest.raises(ParameterError, match="seeds is empty"):
        meta.discriminative_power_spread(values, seeds=[])
    with pytest.raises(ParameterError, match="samples must be an integer in"):
        meta.correlation_ci(values, values**2, samples=1)


def test_scale_report_cutoffs_and_loo_depth(tmp_path):
    from irscale.meta.scale_effects import check_cutoffs

    for cutoffs, message in (([], "empty"), ([0], "integer"), ([5, 5], "twice")):
        with pytest.raises(ParameterError, match=message):
            check_cutoffs(cutoffs)
        with pytest.raises(ParameterError, match=message):
            meta.scale_report("qrels", ["run"], ["P"], cutoffs)  # refused before reading
    with pytest.raises(ParameterError, match="depth must be an integer"):
        meta.leave_one_out("qrels", ["run"], "map", depth=0)
    with pytest.raises(ParameterError, match="not a valid regular expression"):
        meta.contributors_by_prefix(["a_1"], "(")


EDGES = {
    "constant-column": np.column_stack([np.full(8, 0.5), table(1, 8, 3)]),
    "ties": np.round(table(2, 8, 4) * 2) / 2,
    "identical-systems": np.column_stack([table(3, 8, 1), table(3, 8, 1), table(4, 8, 2)]),
    "binary": (table(5, 10, 4) > 0.5).astype(float),
    "constant-rows": np.tile(table(6, 8, 1), (1, 4)),
    "large": table(7, 8, 4) * 1e140,
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_no_numpy_warning_on_edge_inputs(name):
    values = EDGES[name]
    matrix = ScoreMatrix.from_array(np.stack([values, values**0.5, np.round(values, 1)], 2),
                                    measures=["m", "root", "rounded"])
    calls = [
        lambda: meta.discriminative_power(values, samples=100, rng=1),
        lambda: meta.discriminative_power(values, "randomized-tukey-hsd", samples=100, rng=1),
        lambda: meta.split_study(values, [2, 4], 3, models=("MD1", "MD2", "MD2f", "t",
                                                            "kruskal-wallis", "friedman"),
                                 rng=1),
        lambda: meta.swap_rates(values, [2, 4], 3, rng=1, test="t"),
        lambda: meta.correlation_ci(matrix, measure_a="m", measure_b="root", samples=20,
                                    rng=1),
        lambda: meta.concordance_table(matrix, ["m", "root"], ["rounded"]),
    ]
    for method in ("kendall", "tau_ap", "tau_ap_sym", "spearman", "rbo"):
        calls.append(lambda m=method: meta.correlation_matrix(matrix, method=m))
        calls.append(lambda m=method: meta.topic_correlations(matrix, measure_a="m",
                                                              measure_b="rounded", method=m))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # irscale's own word that a correlation is undefined (a measure ties every system)
        warnings.filterwarnings("ignore", r".* is undefined \(NaN\)", UserWarning)
        for call in calls:
            try:
                call()
            except (InputError, ParameterError):
                pass


# --------------------------------------------------------------------------- CLI
@pytest.fixture
def scores(tmp_path):
    paths = []
    for name, values in (("ap", table()), ("p10", np.round(table() * 10) / 10)):
        path = tmp_path / f"{name}.csv"
        pd.DataFrame(values, columns=[f"run{i}" for i in range(5)]).to_csv(path, index=False)
        paths.append(str(path))
    return paths


@pytest.mark.parametrize(("argv", "message"), [
    # correlate
    (["correlate", "-p", "0.5"], "-p/--p applies to --method rbo, not to --method kendall"),
    (["correlate", "--method", "tau_ap", "--ties", "b"],
     "--ties applies to --method rbo, not to --method tau_ap"),
    (["correlate", "--method", "rbo", "-p", "1"], "-p/--p (p) must lie in (0, 1)"),
    (["correlate", "--method", "nope"], "--method: unknown correlation method"),
    (["correlate", "--samples", "0"], "-B/--samples (samples) must be an integer in [2,"),
    (["correlate", "-B", "1"], "-B/--samples (samples)"),
    (["correlate", "--by", "topic", "-B", "50"],
     "-B/--samples applies to --by overall"),
    (["correlate", "--seed", "1"], "--seed applies to -B/--samples"),
    (["correlate", "-B", "50", "--seed", "-1"], "--seed (seed) must be a "
     "non-negative integer"),
    (["correlate", "--format", "json", "--digits", "2"], "--digits applies to text"),
    (["correlate", "--digits", "-2"], "--digits (digits)"),
    (["correlate", "--systems", ""], "--systems is empty"),
    (["correlate", "--systems", "run0,nope"],
     "--systems 'nope' names no run: give a run's name, its run id or its file"),
    (["correlate", "-m", "ap", "-m", "map"], "-m map: no such measure"),
    # discriminative power
    (["dp", "-m", "ap", "-B", "0"], "-B/--samples (samples) must be an integer in [1,"),
    (["dp", "-m", "ap", "--seeds", "0"], "--seeds (seeds) must be an integer"),
    (["dp", "-m", "ap", "--seeds", "-3"], "--seeds (seeds)"),
    (["dp", "-m", "ap", "--seed", "-1"], "--seed (seed)"),
    (["dp", "-m", "ap", "--alpha", "1"], "--alpha (alpha) must lie in (0, 1)"),
    (["dp", "-m", "ap", "--seeds", "2", "--pairs"], "--pairs applies to one resampling run"),
    (["dp", "-m", "ap", "--seeds", "2", "--plot", "x.png"], "--plot applies"),
    (["dp", "-m", "ap", "--method", "nope"], "--method: unknown method 'nope'"),
    # split
    (["split", "-m", "ap", "--sizes", "0"], "--sizes (sizes): a split size must be"),
    (["split", "-m", "ap", "--sizes", "11"], "--sizes (sizes): split size(s) [11] cannot be "
     "run on 12 topics"),
    (["split", "-m", "ap", "--sizes", "4,4"], "--sizes (sizes) names [4] twice"),
    (["split", "-m", "ap", "--sizes", ""], "--sizes (sizes) is empty"),
    (["split", "-m", "ap", "--repetitions", "0"], "--repetitions (repetitions) must be"),
    (["split", "-m", "ap", "--metric", "nope"], "--metric: unknown metric 'nope'"),
    (["split", "-m", "ap", "--models", "", "--sizes", "4"], "--models is empty"),
    (["split", "-m", "ap", "--models", "nope"], "unknown procedure 'nope'"),
    (["split", "-m", "ap", "--cross", "MD1"], "--cross takes A:B pairs"),
    (["split", "-m", "ap", "--models", "MD2,MD3"], "MD3 is a shard model"),
    (["split", "-m", "ap", "--cross", "MD2:MD3f"], "MD3f is a shard model"),
    # swap
    (["swap", "-m", "ap", "--bin-width", "0"], "--bin-width (bin_width) must be a positive"),
    (["swap", "-m", "ap", "--bin-width", "nan"], "--bin-width (bin_width)"),
    (["swap", "-m", "ap", "--alpha", "0.01"], "--alpha applies to the significance filter "
     "of the swap method (--test)"),
    (["swap", "-m", "ap", "--test", "t", "--alpha", "2"], "--alpha (alpha)"),
    (["swap", "-m", "ap", "--test", "nope"], "unknown procedure 'nope'"),
    # concordance
    (["concordance", "--gold", "", "--alpha", "0.05"], "--gold is empty"),
    (["concordance", "--gold", "p10", "--alpha", "0"], "--alpha (alpha)"),
])
def test_meta_refuses_impossible_and_ignored_options(argv, message, scores, capsys):
    command, *rest = argv
    status = main(["meta", command, "--scores", scores[0], "--scores", scores[1], *rest])
    out, err = capsys.readouterr()
    assert status == 2 and out == "", err
    assert err.startswith("irscale: ") and message in err, err
    assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(("argv", "message"), [
    (["loo", "q", "a", "b", "-m", "map", "--depth", "0"], "--depth (depth) must be"),
    (["loo", "q", "a", "b", "-m", "map", "--contributor-pattern", "("],
     "--contributor-pattern (contributor_pattern) '(' is not a valid regular expression"),
    (["loo", "q", "a", "b", "-m", "map", "--contributors", "t.txt", "--contributor-pattern",
      "^x"], "--contributor-pattern applies without --contributors"),
    (["loo", "q", "a", "b", "-m", "map", "--format", "csv", "--digits", "3"],
     "--digits applies"),
    (["scales", "q", "a", "b", "--cutoffs", "0"], "--cutoffs (cutoffs): a cut-off must be"),
    (["scales", "q", "a", "b", "--cutoffs", "5,5"], "--cutoffs (cutoffs) names [5] twice"),
    (["scales", "q", "a", "b", "--cutoffs", ""], "--cutoffs (cutoffs) is empty"),
    (["scales", "q", "a", "b", "--table", "2", "--alpha", "0.1"], "--alpha applies to the "
     "significance tables"),
    (["scales", "q", "a", "b", "--alpha", "1.5"], "--alpha (alpha)"),
    (["scales", "q", "a", "b", "--table", "2", "--table-cutoff", "5"],
     "--table-cutoff applies to tables 4, 5 and 6"),
    (["scales", "q", "a", "b", "--cutoffs", "5,10", "--table-cutoff", "20"],
     "--table-cutoff 20 is not one of the --cutoffs [5, 10]"),
    (["correlate", "q", "a", "b", "-m", "map", "-m", "P@10", "--topic-column", "t"],
     "--topic-column applies to --scores files"),
])
def test_meta_on_runs_refuses_before_reading(argv, message, capsys):
    status = main(["meta", *argv])  # the files do not exist: the options are checked first
    err = capsys.readouterr().err
    assert status == 2 and message in err, err


def test_meta_defaults_still_apply(scores, capsys):
    assert main(["meta", "correlate", "--scores", scores[0], "--scores", scores[1],
                 "--method", "rbo", "--format", "csv"]) == 0
    default = capsys.readouterr().out
    assert main(["meta", "correlate", "--scores", scores[0], "--scores", scores[1],
                 "--method", "rbo", "-p", "0.9", "--format", "csv"]) == 0
    assert capsys.readouterr().out == default
    assert main(["meta", "swap", "--scores", scores[0], "--sizes", "4", "--repetitions", "3",
                 "--seed", "1", "--test", "t"]) == 0
    assert "swap rate" in capsys.readouterr().out


@pytest.mark.parametrize("method", ["kendall", "tau_ap", "tau_ap_sym", "spearman", "rbo"])
def test_every_correlation_method_refuses_nan_and_unequal_lengths(method):
    x, y = table()[:, 0], table(1)[:, 0]
    with pytest.raises(InputError, match=r"non-finite score in a ranking: x\[0\] = nan"):
        meta.correlation(np.r_[np.nan, x[1:]], y, method)
    with pytest.raises(InputError, match=r"y\[2\] = inf"):
        meta.correlation(x, np.r_[y[:2], np.inf, y[3:]], method)
    with pytest.raises(ParameterError, match="same length"):
        meta.correlation(x, y[:-1], method)


def test_swap_samples_reach_the_resampling_test():
    """``samples`` sets the resamples of a resampling filter test: with B = 1 the plus-one
    p-value is never below 0.5, so no pair is counted; with B = 5000 the clear differences
    are; ``samples`` without a resampling test is refused."""
    rng = np.random.default_rng(3)
    values = rng.random((30, 4))
    values[:, 0] += 0.3
    few = meta.swap_rates(values, [10], 5, test="randomization", samples=1, rng=1)
    many = meta.swap_rates(values, [10], 5, test="randomization", samples=5000, rng=1)
    assert few.overall["pairs"].sum() == 0 < many.overall["pairs"].sum()
    for test, refusal in ((None, "the significance filter of the swap method (test=)"),
                          ("t", "a resampling test")):
        with pytest.raises(ParameterError, match=re.escape(f"samples= applies to {refusal}")):
            meta.swap_rates(values, [10], 5, test=test, samples=100, rng=1)
    with pytest.raises(ParameterError, match="samples"):
        meta.swap_rates(values, [10], 5, test="bootstrap", samples=0, rng=1)

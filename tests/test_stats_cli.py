"""``irscale compare``: inputs, tests, models, output formats and errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from irscale.cli.main import main


def run_compare(argv: list[str], capsys) -> tuple[int, str, str]:
    """Run ``irscale compare`` through the command line's entry point (its parser records
    the options given, which the checks read)."""
    status = main(["compare", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def scores_csv(tmp_path):
    rng = np.random.default_rng(0)
    values = rng.random((15, 1)) + np.linspace(0, 0.3, 4) + rng.normal(0, 0.05, (15, 4))
    path = tmp_path / "toy_ap.csv"
    pd.DataFrame(values.round(4), columns=["bm25", "dfr", "lm", "neural"]).to_csv(
        path, index=False)
    return path


def test_seed004_example_as_json(urbano, capsys):
    status, out, _ = run_compare(
        ["--scores", str(urbano / "adhoc8_ap.csv"), "--model", "topic+system",
         "--test", "tukey-hsd", "--alpha", "0.05", "--format", "json"], capsys)
    assert status == 0
    document = json.loads(out)
    assert set(document) == {"anova", "assumptions", "pairs"}
    assert [r["factor"] for r in document["anova"]] == ["topic", "system", "error", "total"]
    assert [(r["test"], r["groups"]) for r in document["assumptions"]] == [
        ("Shapiro-Wilk", ""), ("Levene", "system"), ("Brown-Forsythe", "system"),
        ("Levene", "topic"), ("Brown-Forsythe", "topic")]
    assert document["assumptions"][0]["n"] == 6450 and "above the 5000" in \
        document["assumptions"][0]["note"]
    for row in document["anova"]:
        assert set(row) == {"factor", "ss", "df", "ms", "f", "p", "omega2"}
    system = document["anova"][1]
    assert system["ss"] == pytest.approx(60.0299, abs=5e-4)
    assert system["f"] == pytest.approx(34.46, abs=5e-3)
    assert system["omega2"] == pytest.approx(0.3991, abs=5e-5)
    assert len(document["pairs"]) == 8256
    assert set(document["pairs"][0]) == {"a", "b", "diff", "ci_low", "ci_high", "p",
                                         "p_adjusted", "significant"}
    assert all(p["p_adjusted"] == p["p"] for p in document["pairs"])  # Tukey: no correction
    assert sum(p["significant"] for p in document["pairs"]) == 3423


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "welch", "mann-whitney",
                                  "randomization", "bootstrap", "bootstrap-shift"])
def test_pairwise_tests_print_pairs_only(test, scores_csv, capsys):
    extra = ["--samples", "200", "--seed", "1"] if "boot" in test or test == "randomization" \
        else []
    status, out, _ = run_compare(["--scores", str(scores_csv), "--test", test,
                                  "--correction", "bh", "--format", "json", *extra], capsys)
    assert status == 0
    document = json.loads(out)
    assert list(document) == ["pairs"] and len(document["pairs"]) == 6
    assert all(0 <= p["p"] <= 1 for p in document["pairs"])


def test_seeded_resampling_is_reproducible(scores_csv, capsys):
    argv = ["--scores", str(scores_csv), "--test", "randomized-tukey-hsd", "--samples", "500",
            "--seed", "7", "--format", "csv"]
    first = run_compare(argv, capsys)[1]
    assert first == run_compare(argv, capsys)[1]
    assert first.splitlines()[0].startswith("a,b,mean_a,mean_b,diff,ci_low,ci_high")
    document = json.loads(run_compare([*argv[:-1], "json"], capsys)[1])
    assert "anova" not in document


@pytest.mark.parametrize("model", ["system", "topic+system", "MD2f", "kruskal-wallis",
                                   "friedman"])
def test_models_and_formats(model, scores_csv, capsys):
    for fmt in ("text", "markdown", "latex", "csv"):
        status, out, _ = run_compare(["--scores", str(scores_csv), "--model", model,
                                      "--format", fmt], capsys)
        assert status == 0 and "bm25" in out
    status, out, _ = run_compare(["--scores", str(scores_csv), "--model", model,
                                  "--format", "json"], capsys)
    assert json.loads(out)["anova"][0]["factor"] in ("topic", "system")


def test_anova_assumptions_transforms_and_qq_plot(scores_csv, tmp_path, capsys):
    """The checks of the ANOVA's assumptions are printed between its table and Tukey's
    pairs, on the transformed scores with --transform; --plot writes the Q-Q plot; a rank
    model has no residuals to check."""
    import io

    from irscale import stats
    from irscale.core import ScoreMatrix

    scaled = tmp_path / "scaled_ap.csv"  # scores in [0, 1], as the arcsine transform needs
    frame = pd.read_csv(scores_csv)
    (frame / 2).clip(0, 1).to_csv(scaled, index=False)
    matrix = ScoreMatrix.read_csv(scaled)
    for transform in ("none", "arcsine", "rank"):
        status, out, err = run_compare(["--scores", str(scaled), "--transform", transform,
                                      "--format", "csv"], capsys)
        assert status == 0, err
        anova_part, checks_part, pairs_part = out.split("\n\n")
        expected = stats.anova(matrix, transform=transform)
        pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(anova_part)),
                                      expected.to_frame(), rtol=1e-12)
        got = pd.read_csv(io.StringIO(checks_part), keep_default_na=False,
                          na_values={"statistic": [""], "df1": [""], "df2": [""], "p": [""]})
        pd.testing.assert_frame_equal(got, expected.assumptions.to_frame(), rtol=1e-12,
                                      check_dtype=False)
        assert pairs_part.startswith("a,b,")
    plot = tmp_path / "qq.svg"
    status, out, _ = run_compare(["--scores", str(scores_csv), "--model", "MD1",
                                  "--plot", str(plot)], capsys)
    assert status == 0 and "Shapiro-Wilk" in plot.read_text()
    assert "Assumptions of the ANOVA system on the scores" in out
    status, out, _ = run_compare(["--scores", str(scores_csv), "--model", "friedman",
                                  "--format", "json"], capsys)
    assert status == 0 and "assumptions" not in json.loads(out)


def test_text_output_has_marks_intervals_and_effects(scores_csv, capsys):
    status, out, _ = run_compare(["--scores", str(scores_csv), "--test", "t",
                                  "--systems", "bm25,neural"], capsys)
    assert status == 0
    assert "95% CI" in out and "d_z" in out and "***" in out


def write(path, frame: pd.DataFrame) -> str:
    frame.to_csv(path, index=False)
    return str(path)


@pytest.mark.parametrize(("frame", "message"), [
    (pd.DataFrame({"a": [0.1, np.nan, 0.3], "b": [0.2, 0.3, 0.1]}),
     "line 3: missing score for system 'a'"),
    (pd.DataFrame({"a": [0.5, 0.5, 0.5], "b": [0.5, 0.5, 0.5]}), "constant"),
    (pd.DataFrame({"a": [0.1, 0.2, 0.3]}), "at least 2 systems"),
    (pd.DataFrame({"a": [0.1], "b": [0.2]}), "at least 2 topics"),
])
def test_bad_score_files(frame, message, tmp_path, capsys):
    status, _, err = run_compare(["--scores", write(tmp_path / "s.csv", frame)], capsys)
    assert status == 2 and message in err


def test_misaligned_topics_and_bad_options(tmp_path, capsys):
    one = write(tmp_path / "ap.csv", pd.DataFrame({"topic": ["1", "2", "3"], "a": [.1, .2, .3],
                                                   "b": [.3, .1, .2]}))
    two = write(tmp_path / "p10.csv", pd.DataFrame({"topic": ["1", "2", "4"],
                                                    "a": [.1, .2, .3], "b": [.3, .1, .2]}))
    status, _, err = run_compare(["--scores", one, "--scores", two, "--topic-column", "topic",
                                  "--test", "t"], capsys)
    assert status == 2 and "topics differ" in err
    one = ["--topic-column", "topic", "--scores", one]
    for argv, message in (
        ([*one, "--test", "nope"], "unknown test"),
        ([*one, "--test", "t", "--model", "system"], "--model applies"),
        ([*one, "--model", "nope"], "unknown model"),
        ([*one, "--alpha", "2"], "alpha"),
        ([], "nothing to compare"),
    ):
        status, _, err = run_compare(argv, capsys)
        assert status == 2 and message in err, (argv, err)


def test_qrels_and_runs_are_evaluated(tmp_path, capsys):
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 d{d} {int((t + d) % 3 == 0)}\n"
                             for t in range(1, 6) for d in range(8)))
    runs = []
    for r, seed in enumerate((1, 2, 3)):
        rng = np.random.default_rng(seed)
        lines = [f"{t} Q0 d{d} {rank + 1} {10 - rank} run{r}\n"
                 for t in range(1, 6) for rank, d in enumerate(rng.permutation(8))]
        path = tmp_path / f"run{r}"
        path.write_text("".join(lines))
        runs.append(str(path))
    status, out, err = run_compare([str(qrels), *runs, "-m", "map", "--test", "t",
                                    "--format", "json"], capsys)
    assert status == 0, err
    assert len(json.loads(out)["pairs"]) == 3
    status, _, err = run_compare([str(qrels), *runs], capsys)
    assert status == 2 and "-m MEASURE" in err
    short = tmp_path / "short"
    short.write_text("".join(line for line in open(runs[0]) if not line.startswith("5 ")))
    status, _, err = run_compare([str(qrels), str(short), *runs[1:], "-m", "map"], capsys)
    assert status == 2 and "same topics" in err


def test_registered_in_the_irscale_command():
    from irscale.cli import main

    assert "compare" in main.SUBCOMMANDS

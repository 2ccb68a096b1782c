"""Score standardisation (Webber, Moffat and Zobel 2008): :func:`irscale.stats.standardise`
against z-scores and normal CDF values computed here by hand with numpy and
``scipy.stats.norm``, its reference sets and its topics of standard deviation 0; the
command line's ``--standardise``; ``eval-many --write-zscores`` against numpy's moments."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

from irscale.core import ScoreMatrix
from irscale.errors import InputError
from irscale.io.zscores import read_zscores
from irscale.stats import reference_moments, standardise

from .test_cli_eval import cli

REFERENCE = Path(__file__).resolve().parent / "fixtures" / "reference"

#: topics × systems: AP-like scores of four systems on three topics.
SCORES = np.array([[0.10, 0.30, 0.20, 0.60],
                   [0.05, 0.05, 0.15, 0.00],
                   [0.90, 0.70, 0.80, 0.40]])


def _by_hand(scores: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """z-scores, one topic at a time with Python's arithmetic: the sample standard
    deviation with denominator n − 1."""
    out = np.empty_like(scores)
    for t in range(scores.shape[0]):
        ref = [float(v) for v in reference[t]]
        mean = sum(ref) / len(ref)
        sd = math.sqrt(sum((v - mean) ** 2 for v in ref) / (len(ref) - 1))
        out[t] = [(float(v) - mean) / sd for v in scores[t]]
    return out


def test_z_scores_and_their_normal_cdf_against_a_hand_computation():
    matrix = ScoreMatrix.from_array(SCORES, systems=["a", "b", "c", "d"])
    z = _by_hand(SCORES, SCORES)
    assert np.allclose(standardise(matrix, cdf=False).array(), z, rtol=0, atol=1e-12)
    assert np.allclose(standardise(matrix).array(), norm.cdf(z), rtol=0, atol=1e-12)
    # the systems' z-scores on a topic have mean 0 and sample standard deviation 1
    plain = standardise(matrix, cdf=False).array()
    assert np.allclose(plain.mean(axis=1), 0, atol=1e-12)
    assert np.allclose(plain.std(axis=1, ddof=1), 1, atol=1e-12)


def test_two_reference_systems_give_the_gap_over_root_two():
    # sd of {x1, x2} with denominator n - 1 is |x1 - x2| / sqrt(2): z = ±1/sqrt(2)
    matrix = ScoreMatrix.from_array([[0.2, 0.6], [0.3, 0.1]])
    assert np.allclose(standardise(matrix, cdf=False).array(),
                       [[-2 ** -0.5, 2 ** -0.5], [2 ** -0.5, -2 ** -0.5]], atol=1e-12)


def test_a_reference_set_of_other_systems():
    reference = ScoreMatrix.from_array(SCORES[::-1], topics=["3", "2", "1"])
    new = ScoreMatrix.from_array([[0.5], [0.1], [0.75]], systems=["new"])
    z = _by_hand(np.array([[0.5], [0.1], [0.75]]), SCORES)  # topics matched by label
    assert np.allclose(standardise(new, reference, cdf=False).array(), z, atol=1e-12)
    with pytest.raises(InputError, match="no scores of topic"):
        standardise(ScoreMatrix.from_array([[0.1, 0.2]], topics=["9"]), reference)


def test_a_z_file_is_a_reference():
    zfile = read_zscores(b"1 score 0.25 0.125\n2 score 0.5 0.25\n")
    matrix = ScoreMatrix.from_array([[0.5, 0.0], [0.5, 1.0]])
    assert standardise(matrix, zfile, cdf=False).array().tolist() == [[2.0, -2.0],
                                                                      [0.0, 2.0]]
    with pytest.raises(InputError, match="no mean and std_dev of 'score' on topic '3'"):
        standardise(ScoreMatrix.from_array([[0.5, 0.0]], topics=["3"]), zfile)


def test_a_topic_of_standard_deviation_zero():
    # every system scores 0 on topic 2: z = 0 (cdf 0.5), as trec_eval -Z gives it
    matrix = ScoreMatrix.from_array([[0.1, 0.3, 0.2], [0.0, 0.0, 0.0]])
    assert standardise(matrix, cdf=False).array()[1].tolist() == [0.0, 0.0, 0.0]
    assert standardise(matrix).array()[1].tolist() == [0.5, 0.5, 0.5]
    # another system's score differs from the reference's one value: an error, not a NaN
    other = ScoreMatrix.from_array([[0.2], [0.4]], systems=["new"])
    with pytest.raises(InputError, match=r"topic '2'.*standard deviation 0.*'new'"):
        standardise(other, matrix)


def test_fewer_than_two_reference_scores_is_an_error():
    matrix = ScoreMatrix.from_array([[0.1, np.nan], [0.2, 0.4]], allow_missing=True)
    with pytest.raises(InputError, match="topic '1' has 1 score"):
        standardise(matrix)
    mean, sd = reference_moments(matrix, partial=True)
    assert np.isnan(mean[0, 0]) and mean[1, 0] == pytest.approx(0.3)
    assert np.isnan(sd[0, 0]) and sd[1, 0] == pytest.approx(0.2 / 2 ** 0.5)


def test_moments_with_missing_scores_are_numpy_nan_moments():
    rng = np.random.default_rng(3)
    values = rng.uniform(0, 1, (6, 5, 2))
    values[rng.uniform(size=values.shape) < 0.2] = np.nan
    values[:, :2, :] = rng.uniform(0, 1, (6, 2, 2))  # at least two scores everywhere
    mean, sd = reference_moments(ScoreMatrix.from_array(values, allow_missing=True))
    assert np.allclose(mean, np.nanmean(values, axis=1), rtol=0, atol=1e-14)
    assert np.allclose(sd, np.nanstd(values, axis=1, ddof=1), rtol=0, atol=1e-14)


@pytest.mark.parametrize("cdf", [True, False], ids=["cdf", "no-cdf"])
def test_compare_standardise_equals_compare_of_the_standardised_scores(tmp_path, cdf):
    header = "topic,a,b,c,d\n"
    raw = tmp_path / "ap.csv"
    raw.write_text(header + "".join(f"{t + 1},{','.join(map(str, row))}\n"
                                    for t, row in enumerate(SCORES)))
    z = _by_hand(SCORES, SCORES)
    done = tmp_path / "standardised.csv"
    done.write_text(header + "".join(f"{t + 1},{','.join(map(repr, row.tolist()))}\n"
                                     for t, row in enumerate(norm.cdf(z) if cdf else z)))
    argv = ["compare", "--test", "t", "--topic-column", "topic", "--digits", "6"]
    status, out, err = cli([*argv, "--scores", str(raw), "--standardise",
                            *([] if cdf else ["--no-cdf"])])
    assert status == 0, err
    status, expected, err = cli([*argv, "--scores", str(done)])
    assert status == 0, err
    assert out == expected


def test_eval_many_writes_the_runs_moments_as_a_z_file(tmp_path):
    zfile = tmp_path / "ref.z"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status, _, err = cli(["eval-many", "-m", "map", "-m", "P.5", "-m", "gm_map",
                              "--write-zscores",
                              str(zfile), str(REFERENCE / "qrels.txt"),
                              str(REFERENCE / "runs")])
    assert status == 0, err
    assert any("3, 34" in str(w.message) for w in caught) or "3, 34" in err
    from irscale import evaluate

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = evaluate(str(REFERENCE / "qrels.txt"),
                         [str(REFERENCE / "runs" / f"{r}.run") for r in
                          ("alpha", "beta", "gamma")], ["map", "P.5"]).per_topic()
    written = {}
    for line in zfile.read_text().splitlines():
        topic, measure, mean, sd = line.split()
        written[topic, measure] = (float(mean), float(sd))
    expected = {}
    for (topic, measure), group in table.groupby(["topic", "measure"]):
        values = group["value"].to_numpy()
        if len(values) >= 2:  # topics 3 and 34: one run each, no line
            expected[topic, measure] = (values.mean(), values.std(ddof=1))
            if measure == "map":  # trec_eval's gm_map per topic: log(max(AP, 1e-5))
                logs = np.array([math.log(max(v, 1e-5)) for v in values])
                expected[topic, "gm_map"] = (logs.mean(), logs.std(ddof=1))
    assert written.keys() == expected.keys()
    for key, (mean, sd) in expected.items():
        assert written[key] == pytest.approx((mean, sd), rel=1e-12, abs=1e-15)

"""Loyalty measures and their intervals (irscale.online.engagement): search sessions,
queries per session and absence time of hand-built logs, the ``session user time``
reader, the CLI's per-user table against the API, and the coverage of the t intervals
over simulated users."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.errors import (
    DuplicateError,
    EmptyInputError,
    InputError,
    InputFormatError,
    ParameterError,
)
from irscale.online.engagement import (
    engagement_summary,
    loyalty_measures,
    read_session_users,
)

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


def test_loyalty_measures_by_hand():
    # u: pages at 0, 60, 1860 (60 + 1800: not more than the gap, same session), 10000,
    # 10100, 50000 -> sessions [0, 60, 1860], [10000, 10100], [50000]; absences
    # 10000 - 1860 = 8140 and 50000 - 10100 = 39900, mean 24020; pages given out of order
    visits = pd.DataFrame({"user": ["u", "u", "v", "u", "u", "u", "u", "v"],
                           "time": [10100, 0, 7, 60, 1860, 50000, 10000, 4000]})
    table = loyalty_measures(visits, session_gap=1800)
    assert table.loc["u"].tolist() == [3, 2.0, 24020.0]
    # v: 7 and 4000 (3993 > 1800): two sessions of one page, one absence of 3993
    assert table.loc["v"].tolist() == [2, 1.0, 3993.0]
    # a longer gap joins them
    assert loyalty_measures(visits, session_gap=4000).loc["v"].tolist()[:2] == [1, 2.0]
    with pytest.raises(ParameterError, match="session_gap"):
        loyalty_measures(visits, session_gap=0)


def test_loyalty_measures_of_times_near_the_double_range():
    visits = pd.DataFrame({"user": ["u", "u", "u"], "time": [-1.5e308, 0.0, 1.5e308]})
    table = loyalty_measures(visits, session_gap=1.0)
    assert table.loc["u"].tolist() == [3, 1.0, 1.5e308]


def test_read_session_users(tmp_path):
    path = tmp_path / "su.txt"
    path.write_text("s1 u1 10\ns2\tu2\t-3.5\n")
    frame = read_session_users(str(path))
    assert frame["user"].to_dict() == {"s1": "u1", "s2": "u2"}
    assert frame["time"].tolist() == [10.0, -3.5]
    path.write_text("s1 u1\ns2 u2\n")
    assert "time" not in read_session_users(str(path)).columns
    path.write_bytes(b"\xef\xbb\xbfs1 u1\r\ns2 u2\r\n")  # a byte order mark: not the id's
    assert read_session_users(str(path))["user"].to_dict() == {"s1": "u1", "s2": "u2"}
    for content, error, needle in (
            ("s1 u1 10\ns2 u2\n", InputFormatError, "3 fields, as the first line"),
            ("s1 u1 10\ns2 u2 soon\n", InputFormatError, "finite"),
            ("s1 u1 10\ns2 u2 inf\n", InputFormatError, "finite"),
            ("s1 u1 1 2\n", InputFormatError, "2 fields"),
            ("s1 u1 1\ns1 u2 2\n", DuplicateError, "twice"),
            ("", EmptyInputError, "no 'session user")):
        path.write_text(content)
        with pytest.raises(error, match=needle) as caught:
            read_session_users(str(path))
        assert "su.txt" in str(caught.value)


def test_summary_is_the_t_interval_per_variant():
    table = pd.DataFrame({"variant": ["a", "a", "a", "b", "b"],
                          "x": [1.0, 2.0, 6.0, 4.0, np.nan], "y": [1, 1, 1, 2, 3]})
    with pytest.raises(InputError, match="column 'x': user 4 has no value"):
        engagement_summary(table, alpha=0.1)
    with pytest.warns(UserWarning, match="1 user\\(s\\) without a value left out of the "
                      "mean of 'x'"):
        summary = engagement_summary(table, alpha=0.1, missing="drop")
    frame = summary.to_frame().set_index(["variant", "measure"])
    values = np.array([1.0, 2.0, 6.0])
    low, high = stats.t.interval(0.9, 2, loc=values.mean(), scale=stats.sem(values))
    row = frame.loc[("a", "x")]
    assert row["users"] == 3 and row["mean"] == pytest.approx(3.0)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high))
    # one user with a value (NaN left out, as asked): a mean, no interval
    assert frame.loc[("b", "x"), "users"] == 1 and np.isnan(frame.loc[("b", "x"), "ci_low"])
    assert frame.loc[("b", "y"), "mean"] == 2.5


def test_summary_refuses_words_infinities_and_tables_without_numbers():
    words = pd.DataFrame({"variant": ["a", "b"], "x": [1.0, 2.0]})
    with pytest.raises(InputError, match="'variant' is not a column of numbers"):
        engagement_summary(words, ["variant"])
    with pytest.raises(InputError, match="'x': user 1 has no finite value \\(inf\\)"):
        engagement_summary(pd.DataFrame({"x": [1.0, np.inf]}), variant=None)
    with pytest.raises(InputError, match="no numeric column"):
        engagement_summary(pd.DataFrame({"variant": ["a"], "name": ["n"]}))


def test_intervals_cover_the_mean_absence_at_the_nominal_rate():
    # 200 experiments of 50 users; every user comes back 2..8 times after exponential
    # absences of mean 3 days (far beyond the 30-minute gap), 1..4 pages per visit 60 s
    # apart: the mean over users of a user's mean absence is 3 days, of queries per
    # session 2.5
    rng = np.random.default_rng(11)
    day = 86400.0
    hits = {"absence_time": 0, "queries_per_session": 0}
    reps = 200
    for _ in range(reps):
        visits = rng.integers(3, 10, 50)  # per user
        owner = np.repeat(np.arange(50), visits)
        gaps = rng.exponential(3 * day, len(owner))
        first = np.r_[0, np.cumsum(visits)[:-1]]
        start = np.cumsum(gaps) - np.repeat(np.cumsum(gaps)[first] - gaps[first], visits)
        pages = rng.integers(1, 5, len(owner))
        users = np.repeat(owner, pages)
        page = np.arange(len(users)) - np.repeat(np.cumsum(pages) - pages, pages)
        times = np.repeat(start, pages) + 60.0 * page
        table = loyalty_measures(pd.DataFrame({"user": users, "time": times}))
        frame = engagement_summary(table, variant=None).to_frame().set_index("measure")
        truth = {"absence_time": 3 * day, "queries_per_session": 2.5}
        for measure, value in truth.items():
            row = frame.loc[measure]
            hits[measure] += row["ci_low"] <= value <= row["ci_high"]
    band = stats.binom.interval(0.999, reps, 0.95)
    assert band[0] <= hits["queries_per_session"] <= band[1]
    # the absence is measured from a visit's last page: 90 s shorter on average than the
    # gap between starts (1.5 gaps of 60 s), 0.03% of 3 days
    assert band[0] <= hits["absence_time"] <= band[1]


def test_cli_measures_with_times_equal_the_api(tmp_path):
    from irscale.cli.main import main
    from irscale.online.abtest import session_measures, user_measures

    log = (b"s1 q1 1 d1 1 5\ns1 q1 2 d2 0 nan\ns2 q1 1 d2 0 nan\ns3 q2 1 d1 1 3\n"
           b"s4 q2 1 d1 0 nan\n")
    (tmp_path / "log.txt").write_bytes(log)
    (tmp_path / "su.txt").write_text("s1 u1 0\ns2 u1 100\ns3 u2 50\ns4 u1 9000\n")
    (tmp_path / "answered.txt").write_text("s2\n")
    out = tmp_path / "m.csv"
    assert main(["online", "ab", "measures", str(tmp_path / "log.txt"), "--users",
                 str(tmp_path / "su.txt"), "--salt", "e1", "--answered",
                 str(tmp_path / "answered.txt"), "-o", str(out)]) == 0
    written = pd.read_csv(out, index_col="user")
    # u1: pages at 0, 100 (one search session), 9000: 2 sessions, 1.5 queries each, an
    # absence of 8900; s2 abandoned with the answer shown: good abandonment 1/3
    assert written.loc["u1", ["search_sessions", "queries_per_session",
                              "absence_time"]].tolist() == [2, 1.5, 8900.0]
    assert written.loc["u1", "good_abandonment"] == pytest.approx(1 / 3)
    assert np.isnan(written.loc["u2", "absence_time"])
    expected = user_measures(session_measures(log, satisfied=[False, True, False, False]),
                             {"s1": "u1", "s2": "u1", "s3": "u2", "s4": "u1"})
    pd.testing.assert_frame_equal(written[expected.columns], expected, check_dtype=False,
                                  check_names=False)
    # the table feeds the A/B analysis and the summary; its measures undefined for some
    # users (the absence time of a user who never came back) are refused, or left out
    # when asked
    summary = tmp_path / "s.txt"
    assert main(["online", "ab", "summary", str(out), "--format", "csv", "-o",
                 str(summary)]) == 2
    assert main(["online", "ab", "summary", str(out), "--format", "csv", "--missing",
                 "drop", "-o", str(summary)]) == 0
    frame = pd.read_csv(summary).set_index(["variant", "measure"])
    variant_of_u1 = written.loc["u1", "variant"]
    # (a variant whose users have no value of a measure has its mean written undefined)
    assert float(frame.loc[(variant_of_u1, "absence_time"), "mean"]) == 8900.0


def test_ab_test_leaves_out_users_without_a_value_when_asked():
    from irscale.online.abtest import ab_test

    rng = np.random.default_rng(2)
    table = pd.DataFrame({"variant": np.repeat(["control", "treatment"], 30),
                          "absence_time": rng.exponential(3.0, 60)})
    table.loc[[0, 5, 40], "absence_time"] = np.nan
    with pytest.raises(InputError, match="user 0 has no value"):
        ab_test(table, "absence_time")
    with pytest.warns(UserWarning, match="3 user"):
        result = ab_test(table, "absence_time", missing="drop")
    kept = table.dropna()
    expected = stats.ttest_ind(kept.loc[kept.variant == "treatment", "absence_time"],
                               kept.loc[kept.variant == "control", "absence_time"],
                               equal_var=False)
    assert result.pvalue == pytest.approx(expected.pvalue)
    assert result.n == (29, 28) and "3 user(s)" in result.method
    with pytest.raises(ParameterError, match="missing"):
        ab_test(table, "absence_time", missing="keep")

"""A/B tests (irscale.online.abtest): hash assignment against hashlib by hand and across
processes, splits within binomial intervals, the delta method against a bootstrap,
Welch/CUPED against scipy on the adjusted values, SRM against the χ² by hand, sample sizes
against statsmodels, and online measures of a click log by hand."""

from __future__ import annotations

import hashlib
import math
import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.errors import InputError, ParameterError
from irscale.online.abtest import (
    aa_test,
    ab_power,
    ab_sample_size,
    ab_test,
    assign,
    read_pairs,
    read_user_table,
    read_users,
    sample_ratio_mismatch,
    session_measures,
    user_measures,
)
from irscale.online.clicklog import read_click_log

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


# --------------------------------------------------------------------------- assignment
def test_assignment_is_md5_of_salt_and_user_by_hand():
    users = [f"user{i}" for i in range(200)]
    got = assign(users, salt="exp7", splits={"c": 0.25, "t1": 0.25, "t2": 0.5})
    for user in users:
        u = int(hashlib.md5(f"exp7:{user}".encode()).hexdigest()[:16], 16) / 2**64
        expected = "c" if u < 0.25 else "t1" if u < 0.5 else "t2"
        assert got[user] == expected


def test_assignment_is_stable_across_processes():
    users = [f"u{i}" for i in range(50)]
    here = assign(users, salt="s").tolist()
    code = ("from irscale.online.abtest import assign; "
            "print(','.join(assign([f'u{i}' for i in range(50)], salt='s')))")
    for seed in ("1", "2"):  # Python's own hash() differs between these processes
        # the irscale under test (PYTHONPATH, where the suite runs a checkout's sources)
        env = {"PYTHONHASHSEED": seed, "PATH": "", "PYTHONPATH": os.pathsep.join(
            p for p in (os.path.dirname(os.path.dirname(irscale.__file__)),
                        os.environ.get("PYTHONPATH", "")) if p)}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True)
        assert out.stdout.strip().split(",") == here
    assert assign(users, salt="s").tolist() == here


def test_importing_the_module_loads_neither_pandas_nor_scipy_stats():
    """The module imports pandas and scipy.stats where a function needs them (a second or
    more of CPU each, under load): ``import irscale.online.abtest`` loads neither (its
    normal and t tails are scipy.special's, tests/test_stats_distributions.py)."""
    code = ("import sys, irscale.online.abtest; "
            "print(sorted({'pandas', 'scipy.stats'} & set(sys.modules)))")
    env = {"PATH": "", "PYTHONPATH": os.pathsep.join(
        p for p in (os.path.dirname(os.path.dirname(irscale.__file__)),
                    os.environ.get("PYTHONPATH", "")) if p)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.strip() == "[]"


def test_splits_are_within_binomial_intervals_and_salts_independent():
    users = np.arange(100_000)
    splits = {"a": 0.2, "b": 0.3, "c": 0.5}
    variant = assign(users, salt="x", splits=splits)
    counts = variant.value_counts()
    for name, share in splits.items():
        assert stats.binomtest(int(counts[name]), len(users), share).pvalue > 1e-3
    assert sample_ratio_mismatch(variant, splits).pvalue > 1e-3
    other = assign(users, salt="y", splits=splits)
    table = pd.crosstab(variant.to_numpy(), other.to_numpy())
    assert stats.chi2_contingency(table).pvalue > 1e-3
    equal = assign(users[:1000], salt="x", splits=["a", "b"])
    assert set(equal) == {"a", "b"}


def test_bad_splits_are_refused():
    with pytest.raises(ParameterError, match="sum to 1"):
        assign(["u"], salt="s", splits={"a": 0.5, "b": 0.6})
    with pytest.raises(ParameterError, match="two distinct"):
        assign(["u"], salt="s", splits=["a"])
    with pytest.raises(ParameterError, match="positive"):
        assign(["u"], salt="s", splits={"a": 1.5, "b": -0.5})
    with pytest.raises(InputError, match="no user"):
        assign([], salt="s")


# --------------------------------------------------------------------------- analysis
def ratio_population(rng, n, rate):
    impressions = rng.poisson(5, n) + 1
    p = rng.beta(2, 2 / rate - 2, n)
    clicks = rng.binomial(impressions, p)
    return clicks.astype(float), impressions.astype(float)


@pytest.mark.parametrize("scale", [1.0, 1e-6, 1e6])
def test_delta_method_refuses_ratios_constant_up_to_rounding(scale):
    # every user's ratio is 0.1 in one variant and 0.11 in the other: the residuals
    # num − R·den are rounding noise, which would give |z| ~ 1e7 and p = 0
    impressions = np.array([10.0, 20.0, 30.0, 40.0, 70.0])
    table = pd.DataFrame({"variant": ["control"] * 5 + ["treatment"] * 5,
                          "clicks": np.r_[impressions * 0.1, impressions * 0.11] * scale,
                          "impressions": np.r_[impressions, impressions]})
    with pytest.raises(InputError, match="no variance"):
        ab_test(table, "clicks", analysis="delta", denominator="impressions")
    # one user off the ratio in one variant: a variance, and the hand-worked test
    table.loc[9, "clicks"] += 0.5 * scale
    result = ab_test(table, "clicks", analysis="delta", denominator="impressions")
    num, den = table["clicks"].to_numpy()[5:], impressions
    ratio = num.sum() / den.sum()
    var = np.var(num - ratio * den, ddof=1) / (5 * den.mean() ** 2)
    assert result.diff == pytest.approx(ratio - 0.1 * scale, rel=1e-9)
    assert result.ci_se == pytest.approx(math.sqrt(var), rel=1e-9)


def test_delta_method_variance_matches_a_bootstrap():
    rng = np.random.default_rng(1)
    n = 3000
    c_num, c_den = ratio_population(rng, n, 0.3)
    t_num, t_den = ratio_population(rng, n, 0.32)
    table = pd.DataFrame({"variant": ["control"] * n + ["treatment"] * n,
                          "clicks": np.r_[c_num, t_num], "impressions": np.r_[c_den, t_den]})
    result = ab_test(table, "clicks", analysis="delta", denominator="impressions")
    assert result.diff == pytest.approx(t_num.sum() / t_den.sum() - c_num.sum() / c_den.sum())
    boots = 4000
    draws = []
    for num, den in ((c_num, c_den), (t_num, t_den)):
        idx = rng.integers(0, n, (boots, n))
        draws.append(num[idx].sum(axis=1) / den[idx].sum(axis=1))
    boot_var = np.var(draws[1] - draws[0], ddof=1)
    # the bootstrap variance's own relative standard error is about sqrt(2/(B-1))
    tolerance = 4 * math.sqrt(2 / (boots - 1))
    assert result.ci_se**2 == pytest.approx(boot_var, rel=tolerance)
    z = result.diff / math.sqrt(boot_var)
    assert result.statistic == pytest.approx(z, rel=tolerance)
    assert result.pvalue == pytest.approx(2 * stats.norm.sf(abs(result.statistic)))


def test_welch_and_cuped_equal_scipy_on_the_adjusted_values():
    rng = np.random.default_rng(2)
    n = 500
    pre = rng.normal(10, 3, 2 * n)
    y = 0.8 * pre + rng.normal(0, 1, 2 * n) + np.r_[np.zeros(n), np.full(n, 0.3)]
    table = pd.DataFrame({"variant": ["control"] * n + ["treatment"] * n, "y": y,
                          "pre": pre})
    welch = ab_test(table, "y")
    expected = stats.ttest_ind(y[n:], y[:n], equal_var=False)
    assert welch.statistic == pytest.approx(expected.statistic)
    assert welch.pvalue == pytest.approx(expected.pvalue)
    cuped = ab_test(table, "y", analysis="cuped", covariate="pre")
    theta = np.cov(pre, y)[0, 1] / np.var(pre, ddof=1)
    adjusted = y - theta * (pre - pre.mean())
    expected = stats.ttest_ind(adjusted[n:], adjusted[:n], equal_var=False)
    assert cuped.statistic == pytest.approx(expected.statistic)
    assert cuped.pvalue == pytest.approx(expected.pvalue)
    # variance reduced by about 1 − ρ²
    rho = np.corrcoef(pre, y)[0, 1]
    assert (cuped.ci_se / welch.ci_se) ** 2 == pytest.approx(1 - rho**2, rel=0.1)
    assert cuped.test.startswith("CUPED")


@pytest.mark.parametrize("power", [1000, -1000])
@pytest.mark.parametrize("column", ["clicks", "impressions", "pre"])
def test_metrics_near_the_ends_of_the_double_range(column, power):
    """A column times 2^±1000 (1e301 or 1e-301: sums of squares beyond a double): the
    delta method's z, p and ratios scaled by exactly that power, CUPED unchanged, no
    numpy warning (the oracle: the same table with small values)."""
    rng = np.random.default_rng(3)
    n = 40
    num, den = ratio_population(rng, 2 * n, 0.3)
    table = pd.DataFrame({"variant": ["control"] * n + ["treatment"] * n, "clicks": num,
                          "impressions": den, "pre": num + rng.normal(0, 1, 2 * n)})
    scaled = table.copy()
    scaled[column] = np.ldexp(table[column].to_numpy(dtype=float), power)
    factor = {"clicks": 2.0**power, "impressions": 2.0**-power, "pre": 1.0}[column]
    with np.errstate(all="raise"):
        delta = [ab_test(t, "clicks", analysis="delta", denominator="impressions")
                 for t in (table, scaled)]
        if column == "clicks":  # the t-test's own check of the adjusted metric
            with pytest.raises(InputError, match=r"scores too (large|small)"):
                ab_test(scaled, "clicks", analysis="cuped", covariate="pre")
            cuped = [ab_test(table, "clicks", analysis="cuped", covariate="pre")] * 2
        else:
            cuped = [ab_test(t, "clicks", analysis="cuped", covariate="pre")
                     for t in (table, scaled)]
    assert (delta[1].statistic, delta[1].pvalue) == (delta[0].statistic, delta[0].pvalue)
    for field in ("diff", "mean_x", "mean_y", "ci_low", "ci_high", "ci_se"):
        assert getattr(delta[1], field) == getattr(delta[0], field) * factor, field
    assert (cuped[1].diff, cuped[1].statistic, cuped[1].pvalue) == \
        (cuped[0].diff, cuped[0].statistic, cuped[0].pvalue)


def test_sample_ratio_mismatch_by_hand():
    result = sample_ratio_mismatch({"control": 5200, "treatment": 4800})
    chi2 = 200**2 / 5000 * 2
    assert result.statistic == pytest.approx(chi2)
    assert result.pvalue == pytest.approx(stats.chi2.sf(chi2, 1))
    frame = result.to_frame()
    assert frame["expected"].tolist() == [5000.0, 5000.0]
    with pytest.raises(InputError, match="do not plan"):
        sample_ratio_mismatch({"control": 1, "other": 2})


def test_aa_test_rejects_at_the_nominal_rate():
    rng = np.random.default_rng(3)
    values = pd.Series(rng.exponential(1.0, 4000), index=[f"u{i}" for i in range(4000)])
    result = aa_test(values, splits=400, alpha=0.05)
    assert result.pvalue > 1e-3
    assert 0.01 < result.statistic < 0.1
    # one split by hand: Welch's test of the halves the salt gives
    side = np.array([int(hashlib.md5(f"aa-0:{u}".encode()).hexdigest()[:16], 16) / 2**64
                     < 0.5 for u in values.index])
    expected = stats.ttest_ind(values[side], values[~side], equal_var=False).pvalue
    assert result.pvalues[0] == pytest.approx(expected)


@pytest.mark.parametrize("diff,sd,alpha,power", [(0.01, 0.2, 0.05, 0.8), (0.5, 1.0, 0.01, 0.9),
                                                 (0.05, 0.3, 0.05, 0.95)])
def test_sample_sizes_equal_statsmodels(diff, sd, alpha, power):
    from statsmodels.stats.power import TTestIndPower

    expected = TTestIndPower().solve_power(effect_size=diff / sd, alpha=alpha, power=power)
    assert ab_sample_size(diff, sd, alpha=alpha, power=power) == math.ceil(expected)
    n = math.ceil(expected)
    assert ab_power(diff, sd, n, alpha=alpha) == pytest.approx(
        TTestIndPower().power(effect_size=diff / sd, nobs1=n, alpha=alpha))


def test_analysis_errors():
    table = pd.DataFrame({"variant": ["control", "control", "treatment", "treatment"],
                          "y": [1.0, 2.0, 3.0, np.nan], "pre": [1.0, 1.0, 1.0, 1.0]})
    with pytest.raises(InputError, match="user 3 has no value"):
        ab_test(table, "y")
    with pytest.raises(InputError, match="no metric column"):
        ab_test(table, "z")
    with pytest.raises(InputError, match="variant 'b'"):
        ab_test(table, "y", treatment="b")
    with pytest.raises(ParameterError, match="denominator"):
        ab_test(table, "y", denominator="pre")
    with pytest.raises(ParameterError, match="covariate"):
        ab_test(table, "y", analysis="cuped")
    table["y"] = [1.0, 2.0, 3.0, 5.0]
    with pytest.raises(InputError, match="constant"):
        ab_test(table, "y", analysis="cuped", covariate="pre")
    with pytest.raises(ParameterError, match="analysis"):
        ab_test(table, "y", analysis="bayes")


# --------------------------------------------------------------------------- measures
LOG = (b"s1 q1 1 d1 1 5\ns1 q1 2 d2 0 nan\ns1 q1 3 d3 1 50\n"
       b"s2 q1 1 d2 0 nan\ns2 q1 2 d1 0 nan\n"
       b"s3 q2 1 d1 0 nan\ns3 q2 2 d3 1 2\n")


def test_session_measures_by_hand():
    log = read_click_log(LOG)
    frame = session_measures(log, k=1, satisfied={"s1": False, "s2": True, "s3": False},
                             ends={"s1": 60, "s2": 0, "s3": 40})
    assert frame["clicks"].tolist() == [2, 0, 1]
    assert frame["clicks@1"].tolist() == [1, 0, 0]
    assert frame["abandoned"].tolist() == [0, 1, 0]
    assert frame["good_abandonment"].tolist() == [0, 1, 0]
    assert frame["reciprocal_rank"].tolist() == [1.0, 0.0, 0.5]
    assert frame["time_to_first_click"].tolist()[::2] == [5.0, 2.0]
    # s1: clicks at 5 and 50, leaves at 60: dwells 45 and 10; s3: 40 - 2
    assert frame["dwell"].tolist()[::2] == [27.5, 38.0]
    assert frame["success"].tolist() == [1.0, 0.0, 1.0]
    # without the ends the last clicks have no dwell
    plain = session_measures(log)
    assert plain["dwell"].tolist()[0] == 45.0 and math.isnan(plain["dwell"].tolist()[2])
    assert plain["success"].tolist() == [1.0, 0.0, 0.0]
    users = user_measures(frame, {"s1": "u1", "s2": "u1", "s3": "u2"})
    assert users.loc["u1", "impressions"] == 2 and users.loc["u1", "clicks"] == 2
    assert users.loc["u1", "ctr"] == 1.0 and users.loc["u1", "abandoned"] == 0.5
    no_time = session_measures(read_click_log(b"s1 q 1 d 1\ns2 q 1 d 0\n"))
    assert no_time["time_to_first_click"].isna().all()
    with pytest.raises(InputError, match="not before the last click"):
        session_measures(log, ends={"s1": 10, "s2": 0, "s3": 40})
    with pytest.raises(InputError, match="no value for session 's3'"):
        session_measures(log, satisfied={"s1": True, "s2": True})


def test_session_measures_of_times_near_the_double_range():
    """The hand example's times and ends times 2^1018 (sums of their dwell times overflow
    unless scaled): dwell times and per-user means 2^1018 times the plain ones exactly,
    the same successes, no numpy warning; a mean dwell beyond a double is an error naming
    the session."""
    ends = {"s1": 60, "s2": 0, "s3": 40}
    plain = session_measures(read_click_log(LOG), ends=ends)
    big = b"\n".join(_times_scaled(line, 1018) for line in LOG.splitlines()) + b"\n"
    with np.errstate(all="raise"):
        scaled = session_measures(read_click_log(big),
                                  ends={s: math.ldexp(t, 1018) for s, t in ends.items()})
    assert scaled["dwell"].tolist()[::2] == [math.ldexp(v, 1018)
                                             for v in plain["dwell"].tolist()[::2]]
    assert scaled["success"].tolist() == plain["success"].tolist()
    users = {"s1": "u1", "s2": "u1", "s3": "u1"}
    with np.errstate(all="raise"):
        per_user = user_measures(scaled, users)
    assert per_user["dwell"].tolist() == [math.ldexp(v, 1018) for v in
                                          user_measures(plain, users)["dwell"].tolist()]
    with np.errstate(all="raise"):  # the longest dwell there is: a finite double
        widest = session_measures(read_click_log(b"s1 q 1 d 1 0\ns1 q 2 e 0 nan\n"),
                                  ends={"s1": 1.7976931348623157e308})
    assert widest["dwell"].tolist() == [1.7976931348623157e308]


@pytest.mark.parametrize("time", ["-5", "-1e+308", "inf", "-inf"])
def test_session_measures_refuse_a_click_before_the_page_or_at_no_time(time):
    """Timestamps are seconds since the page was shown: a negative click time gave a
    negative time to first click, an infinite one an infinite dwell."""
    log = read_click_log(f"s1 q 1 d 1 2\ns1 q 2 e 1 {time}\n".encode())
    with pytest.raises(InputError, match=re.escape(f"session 's1': a click at time {time}")):
        session_measures(log)


@pytest.mark.parametrize("end", [math.inf, 1.0, math.nan])
def test_session_measures_refuse_an_end_not_after_the_last_click(end):
    log = read_click_log(b"s1 q 1 d 1 2\ns1 q 2 e 1 3\n")
    with pytest.raises(InputError, match="session 's1' ends at"):
        session_measures(log, ends={"s1": end})


def _times_scaled(line: bytes, power: int) -> bytes:
    fields = line.split()
    if len(fields) == 6:
        fields[5] = repr(math.ldexp(float(fields[5]), power)).encode()
    return b" ".join(fields)


def test_cli_measures_then_analyze_equal_the_api(tmp_path, capsys):
    from irscale.cli.main import main

    (tmp_path / "log.txt").write_bytes(LOG)
    (tmp_path / "su.txt").write_text("s1 u1\ns2 u2\ns3 u3\n")
    out = tmp_path / "m.csv"
    assert main(["online", "ab", "measures", str(tmp_path / "log.txt"), "--users",
                 str(tmp_path / "su.txt"), "--salt", "e1", "-k", "2", "-o", str(out)]) == 0
    written = pd.read_csv(out, index_col="user")
    expected = user_measures(session_measures(read_click_log(LOG), k=2),
                             {"s1": "u1", "s2": "u2", "s3": "u3"})
    variants = assign(["u1", "u2", "u3"], salt="e1")
    assert written["variant"].tolist() == variants.tolist()
    pd.testing.assert_frame_equal(written.drop(columns="variant"), expected,
                                  check_dtype=False, check_names=False)


def test_with_variants_puts_each_users_variant_first():
    from irscale.online.abtest import with_variants

    table = pd.DataFrame({"clicks": [3, 1]}, index=pd.Index(["u1", "u2"], name="user"))
    variants = pd.Series({"u2": "treatment", "u1": "control", "u3": "control"})
    joined = with_variants(table, variants)
    assert list(joined.columns) == ["variant", "clicks"]
    assert joined["variant"].tolist() == ["control", "treatment"]
    assert "variant" not in table.columns
    with pytest.raises(InputError, match="no variant for user 'u2'"):
        with_variants(table, pd.Series({"u1": "control"}), source="variants.tsv")


@pytest.mark.parametrize(("content", "needle"), [
    ("user,variant,x\nu1,a,1\nu2,a\n", "line 3: expected 3 fields, as the header, got 2"),
    ("user,variant,x\nu1,a,1,9\nu2,a,2\n", "line 2: expected 3 fields, as the header, got 4"),
    ("user,variant,x\nu1,a,1\n\nu2,a,two\n", "line 4: column 'x' holds numbers, and 'two'"),
    ("user,variant,x\nu1,a,1\n\nu1,b,2\n", "line 4: user listed twice"),
])
def test_user_table_refuses_ragged_rows_and_words_among_numbers(tmp_path, content, needle):
    path = tmp_path / "t.csv"
    path.write_text(content)
    with pytest.raises(InputError, match=re.escape(needle)):
        read_user_table(str(path))


def test_user_table_takes_names_in_the_label_columns(tmp_path):
    """Variants named by numbers and words, missing values among numbers: read."""
    path = tmp_path / "t.csv"
    path.write_text("user,arm,x\nu1,1,1\nu2,b,\nu3,b,nan\n")
    table = read_user_table(str(path), labels=("arm",))
    assert table["arm"].tolist() == ["1", "b", "b"]
    assert table["x"].isna().tolist() == [False, True, True]


def test_id_files_ignore_a_byte_order_mark(tmp_path):
    """A UTF-8 BOM (Windows editors) is not part of the first id (it hashed as one)."""
    users, pairs = tmp_path / "u.txt", tmp_path / "p.txt"
    users.write_bytes(b"\xef\xbb\xbfu1\r\nu2\r\n")
    pairs.write_bytes(b"\xef\xbb\xbfu1 control\nu2 treatment\n")
    assert read_users(str(users)) == ["u1", "u2"]
    assert read_pairs(str(pairs), "user", "variant").to_dict() == {"u1": "control",
                                                                   "u2": "treatment"}

"""A/B tests: assignment, online measures, analysis, sample-ratio checks and sample sizes.

A between-subject experiment (Ferro & Maistro 2024, §6.3; Kohavi et al. 2009, "Controlled
experiments on the web: survey and practical guide"): every user sees one variant, and the variants
are compared on an online measure of their users.

Assignment (:func:`assign`)
    u = (the first 8 bytes of MD5("salt:user"), big-endian) / 2^64 ∈ [0, 1); the user gets
    the variant whose slice of [0, 1) holds u, slices in the order of ``splits`` with the
    given shares. The same (user, salt) always gets the same variant, on every platform and
    process (``hashlib``, never Python's salted ``hash()``); a new salt gives an
    independent assignment (Kohavi et al.'s three properties, Ferro & Maistro 2024, §6.3).

Online measures of a session (one result page shown; :func:`session_measures`)
    ``clicks``: number of clicked results; ``clicks@k``: clicks at ranks 1..k;
    ``abandoned``: 1 when nothing was clicked; ``good_abandonment``: 1 when nothing was
    clicked and the page ``satisfied`` the user (an answer on the page itself; given per
    session); ``reciprocal_rank``: 1/rank of the first (highest-ranked) click, 0 without
    a click (click reciprocal rank, Ferro & Maistro 2024, §6.5); ``time_to_first_click``: the
    smallest click timestamp (timestamps are seconds since the page was shown), NaN
    without a click; ``dwell``: the mean dwell time of the session's clicks, the dwell of
    a click being the time to the next click in time order (the last click's dwell is
    unknown and left out; NaN with fewer than two clicks); ``success``: 1 when some click
    is *satisfied* — dwell ≥ 30 s (Ferro & Maistro 2024, §6.5), the last click counting as satisfied
    since the user did not come back.
    Per user (:func:`user_measures`): ``impressions`` (sessions), the sum of every count
    and the mean of every rate over the user's sessions (NaN ignored), and ``ctr`` =
    clicks / impressions, a ratio metric.

Analysis (:func:`ab_test`; treatment − control; results are
:class:`~irscale.stats.results.TestResult`, as every two-system test of irscale.stats)
    ``welch``: Welch's t-test of the per-user values (:func:`irscale.stats.welch_t`).
    ``delta``: a ratio metric R = Σ num / Σ den per variant (e.g. CTR = clicks /
    impressions over users), whose users are the independent units: by the delta method
    (Deng, Knoblich & Lu 2018), Var(R) ≈ (σ²_num − 2R σ_num,den + R² σ²_den) / (n μ²_den)
    with the sample (co)variances of the n users' numerators and denominators;
    z = (R_t − R_c) / sqrt(Var(R_t) + Var(R_c)), a normal test and interval.
    ``cuped``: CUPED (Deng, Xu, Kohavi & Walker 2013): Y' = Y − θ (X − mean(X)) with X a
    pre-experiment covariate of every user and θ = cov(X, Y)/var(X) pooled over both
    variants; Welch's t-test of Y' (same mean difference in expectation, variance
    reduced by the factor 1 − ρ²).
Sample-ratio mismatch (:func:`sample_ratio_mismatch`)
    Pearson's χ² of the users per variant against the planned shares, k − 1 degrees of
    freedom (``scipy.stats.chisquare``): a small p-value says the assignment is broken.
A/A tests (:func:`aa_test`)
    The users are split by R independent salts into two halves that saw the same system
    and Welch's test is run on each split: the rejection rate at α must be close to α
    (its binomial test against α is reported).
Power and sample size (:func:`ab_sample_size`, :func:`ab_power`)
    Users per variant for a two-sample t-test to detect ``min_diff`` with power 1 − β
    given the per-user standard deviation: :func:`irscale.stats.power.topic_set_size`
    with the ``two-sample-t`` design (the exact noncentral t, as ``statsmodels``'
    ``TTestIndPower``).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

import numpy as np

from ..core.notebook import HtmlRepr
from ..core.scaling import binary_exponent
from ..errors import InputError, ParameterError, about, shown
from ..io.user_tables import (
    LINES,
    RowLines,
    place,
    read_pairs,
    read_user_table,
    read_users,
)
from ..stats.distributions import normal_sf, t_sf
from ..stats.effects import EffectSizes, t_interval
from ..stats.parametric import welch_t
from ..stats.protocol import format_table
from ..stats.results import TestResult
from ..stats.tables import Format
from ..stats.validation import (
    check_alpha,
    check_count,
    constant_columns,
    tie_tolerance,
)
from .params import (
    AB_ANALYSES,
    AB_ASSIGN,
    AB_POWER_OF,
    AB_SIZE,
    AB_SRM,
    AB_TEST,
    SESSION_MEASURES,
)
from .user_values import (
    check_labels,
    located,
    users_with_values,
    warn_left_out,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["AATestResult", "SampleRatioResult", "aa_test", "ab_power", "ab_sample_size",
           "ab_test", "assign", "read_pairs", "read_user_table", "read_users",
           "sample_ratio_mismatch", "session_measures", "user_measures", "with_variants"]

#: Analyses of :func:`ab_test`.
ANALYSES = AB_ANALYSES
Analysis = Literal["welch", "delta", "cuped"]
#: Dwell time (seconds) of a satisfied click (Ferro & Maistro 2024, §6.5).
SATISFIED_DWELL = 30.0
_SCALE = float(2**64)


# --------------------------------------------------------------------------- assignment
def _planned(splits: Mapping[str, float] | Sequence[str]) -> tuple[list[str], np.ndarray]:
    """The variants and shares of ``splits`` as the binding returns them (a dict,
    :class:`~irscale.online.params.Splits`), or of the default (variants, equal shares)."""
    if isinstance(splits, Mapping):
        return list(splits), np.fromiter(splits.values(), np.float64, count=len(splits))
    return list(splits), np.full(len(splits), 1.0 / len(splits))


def hash_unit(users: Sequence[object], salt: str) -> np.ndarray:
    """u = first 8 bytes of MD5("salt:user") / 2^64 for every user (see the module doc)."""
    salt = str(salt)
    return np.fromiter(
        (int.from_bytes(hashlib.md5(f"{salt}:{user}".encode()).digest()[:8], "big")
         for user in users), dtype=np.float64, count=len(users)) / _SCALE


@AB_ASSIGN
def assign(users: Sequence[object] | pd.Series | np.ndarray, *, salt: str,
           splits: Mapping[str, float] | Sequence[str] | str = ("control", "treatment"),
           ) -> pd.Series:
    """The variant of every user (a Series indexed by user), by hashing (module doc).

    Parameters
    ----------
    users : sequence of user ids (converted with ``str``)
    salt : str
        The experiment's salt: the same salt gives the same assignment.
    splits : mapping {variant: share}, list of variants (equal shares) or ``NAME=SHARE,...``
        Shares are positive and sum to 1 (:class:`irscale.online.params.Splits`, checked
        on entry).

    Examples
    --------
    >>> assign(["u1", "u2", "u3", "u4"], salt="exp-1").tolist()
    ['treatment', 'treatment', 'control', 'control']
    """
    import pandas as pd

    names, shares = _planned(splits)
    ids = [str(u) for u in (users.tolist() if hasattr(users, "tolist") else users)]
    if not ids:
        raise InputError("no user to assign")
    u = hash_unit(ids, salt)
    bounds = np.cumsum(shares)[:-1]
    return pd.Series(np.asarray(names, dtype=object)[np.searchsorted(bounds, u, "right")],
                     index=pd.Index(ids, name="user"), name="variant")


# --------------------------------------------------------------------------- measures
@SESSION_MEASURES
def session_measures(log: object, *, k: int = 3, satisfied: object = None,
                     ends: object = None) -> pd.DataFrame:
    """The online measures of every session of a click log (module doc), one row per
    session indexed by session id.

    ``log``: a :class:`~irscale.online.clicklog.ClickLog` or anything
    :func:`~irscale.online.clicklog.read_click_log` reads. ``k``: the cut-off of
    ``clicks@k``. ``satisfied``: per session, whether the page answered without a click
    (a mapping or Series session → bool, or an array in the log's session order);
    ``good_abandonment`` is computed only with it. ``ends``: per session, the time the
    user left the page (seconds, as the timestamps), which gives the last click its dwell.
    Time measures (``time_to_first_click``, ``dwell``, ``success``) need the log's
    timestamps and are NaN without them.
    """
    import pandas as pd

    from .clicklog import ClickLog, read_click_log

    clicklog = log if isinstance(log, ClickLog) else read_click_log(log)
    clicks = clicklog.clicks & clicklog.valid
    n = clicks.shape[0]
    count = clicks.sum(axis=1)
    first = np.where(clicks.any(axis=1), np.argmax(clicks, axis=1) + 1, 0)
    frame = pd.DataFrame({
        "clicks": count,
        f"clicks@{k}": clicks[:, :k].sum(axis=1),
        "abandoned": (count == 0).astype(np.int64),
        "reciprocal_rank": np.divide(1.0, first, out=np.zeros(n), where=first > 0),
    }, index=pd.Index(clicklog.sessions, name="session"))
    lines = clicklog.session_lines()
    if lines is not None:  # where each session is, for a later error (user_measures)
        frame.attrs[LINES] = RowLines(clicklog.source, frame.index, lines)
    if satisfied is not None:
        answered = _per_session(satisfied, clicklog.sessions, "satisfied")
        if not np.isin(answered, (0, 1)).all():
            raise InputError("satisfied must be True/False (or 1/0) per session")
        answered = answered.astype(bool)
        frame["good_abandonment"] = ((count == 0) & answered).astype(np.int64)
    if clicklog.timestamps is None:
        if ends is not None:
            raise InputError("ends give the last click its dwell: the log has no "
                             "timestamps", source=clicklog.source)
        for name in ("time_to_first_click", "dwell", "success"):
            frame[name] = np.nan
        return frame
    times = np.where(clicks, clicklog.timestamps, np.nan)
    untimed = clicks & np.isnan(times)
    if untimed.any():
        s, _ = clicklog.first(untimed)
        raise clicklog.error(InputError, f"session {clicklog.sessions[s]!r}: a click without "
                             "a timestamp (time measures need every click's time)", untimed)
    outside = clicks & ((times < 0) | np.isinf(times))
    if outside.any():
        s, r = clicklog.first(outside)
        raise clicklog.error(InputError, f"session {clicklog.sessions[s]!r}: a click at time "
                             f"{times[s, r]:g} (timestamps are seconds since the page was "
                             "shown: finite, 0 or more)", outside)
    ordered = np.sort(times, axis=1)  # click times in time order, NaN after them
    after = np.full((n, ordered.shape[1] + 1), np.nan)
    after[:, :-1] = ordered
    if ends is not None:
        end = pd.to_numeric(pd.Series(_per_session(ends, clicklog.sessions, "ends")),
                            errors="coerce").to_numpy(dtype=np.float64)
        last = np.nanmax(np.where(np.isnan(ordered), -np.inf, ordered), axis=1)
        wrong = (count > 0) & (~(end >= last) | np.isinf(end))
        if wrong.any():
            s = int(np.argmax(wrong))
            raise InputError(f"session {clicklog.sessions[s]!r} ends at {end[s]:g}: an end "
                             f"is a finite time, not before the last click ({last[s]:g})")
        after[np.arange(n), count] = np.where(count > 0, end, np.nan)
    # times divided by a power of 2 (irscale.core.scaling): differences and their means
    # are the same, scaled exactly, and cannot overflow for times near 1.8e308 (times
    # lie in [0, 1.8e308]: a dwell time, and a session's mean, is a finite double)
    shift = binary_exponent(np.where(np.isnan(after), 0.0, after))
    gaps = np.diff(np.ldexp(after, -shift), axis=1)  # the dwell of every click whose
    known = ~np.isnan(gaps)                          # next time is known
    total = np.where(known, gaps, 0.0).sum(axis=1)
    frame["time_to_first_click"] = ordered[:, 0]
    frame["dwell"] = np.ldexp(np.divide(total, known.sum(axis=1), out=np.full(n, np.nan),
                                        where=known.any(axis=1)), shift)
    frame["success"] = (np.where(known, gaps, -1.0) >= math.ldexp(SATISFIED_DWELL, -shift)
                        ).any(axis=1).astype(np.float64)
    return frame


def _per_session(values: object, sessions: np.ndarray, name: str,
                 table: pd.DataFrame | None = None) -> np.ndarray:
    """One value per session of ``sessions``: from a mapping or Series session → value
    (every session needs one), or an array in the sessions' order. ``table``: the
    sessions' table, whose :class:`~irscale.io.user_tables.RowLines` name the click log's
    line of a session the file of ``values`` lacks."""
    import pandas as pd

    if isinstance(values, (Mapping, pd.Series)):
        series = pd.Series(values)
        series.index = series.index.astype(str)
        index = series.index.get_indexer(np.asarray(sessions).astype(str))
        if (index < 0).any():
            session = sessions[int(np.argmax(index < 0))]
            source = getattr(values, "attrs", {}).get("source")  # read_pairs: its file
            if source is not None:
                at = {} if table is None else located(table, session)
                shown_at = f" ({place(at)})" if "line" in at else ""
                raise InputError(f"no line for session {session!r} of the click log"
                                 f"{shown_at}", source=source)
            raise InputError(f"{name}: no value for session {session!r}")
        return series.to_numpy()[index]
    array = np.asarray(values)
    if array.shape != (len(sessions),):
        raise InputError(f"{name} must hold one value per session ({len(sessions)}), got "
                         f"shape {array.shape}")
    return array


def user_measures(sessions: pd.DataFrame, users: object) -> pd.DataFrame:
    """Per-user table of :func:`session_measures`' output: ``impressions``, the sums of
    ``clicks`` and ``clicks@k``, the means of the other measures (NaN ignored), and
    ``ctr`` = clicks / impressions. ``users``: the user of every session (a mapping or
    Series session → user, or an array in the table's order)."""
    import pandas as pd

    who = pd.Series(_per_session(users, sessions.index.to_numpy(), "users", sessions),
                    index=sessions.index, name="user")
    counts = [c for c in sessions.columns if c.startswith("clicks")]
    grouped = sessions.groupby(who.to_numpy(), sort=True)
    table = grouped[counts].sum()
    rates = [c for c in sessions.columns if c not in counts]
    # each rate divided by a power of 2 before its means (exact; irscale.core.scaling):
    # means of dwell times near 1e308 are not the inf of their sums
    shift = {c: binary_exponent(np.nan_to_num(sessions[c].to_numpy(dtype=np.float64)))
             for c in rates}
    means = sessions[rates].apply(lambda col: np.ldexp(col.to_numpy(dtype=np.float64),
                                                       -shift[col.name]))
    means = means.groupby(who.to_numpy(), sort=True).mean()
    table = table.join(means.apply(lambda col: np.ldexp(col.to_numpy(), shift[col.name])))
    table.insert(0, "impressions", grouped.size())
    table["ctr"] = table["clicks"] / table["impressions"]
    table.index.name = "user"
    return table


def with_variants(table: pd.DataFrame, variants: pd.Series, *,
                  source: str | None = None) -> pd.DataFrame:
    """The per-user ``table`` of :func:`user_measures` with a first column ``variant``:
    each user's in ``variants`` (user → variant, as :func:`assign` or :func:`read_pairs`
    give it). A user without one is an :class:`~irscale.errors.InputError` (naming
    ``source``, the file of the variants)."""
    missing = table.index[~table.index.isin(variants.index)]
    if len(missing):
        raise InputError(f"no variant for user {missing[0]!r}", source=source)
    table = table.copy()
    table.insert(0, "variant", variants.reindex(table.index).to_numpy())
    return table


# --------------------------------------------------------------------------- analysis
def _groups(table: pd.DataFrame, variant: str, control: str, treatment: str,
            ) -> tuple[pd.DataFrame, pd.DataFrame]:
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise about(InputError(f"an A/B test needs a per-user DataFrame, got a "
                               f"{type(table).__name__}"), table)
    if variant not in table.columns:
        raise InputError(f"no variant column {variant!r} in the table (columns: "
                         f"{list(table.columns)})")
    check_labels(table[variant], f"variant ({variant!r})")
    if control == treatment:  # a Welch test of a variant against itself
        raise ParameterError(f"control and treatment are both {control!r}: an A/B test "
                             "compares two different variants")
    found = set(table[variant].astype(str))
    for name in (control, treatment):
        if name not in found:
            raise InputError(f"no user in variant {name!r} (variants: {sorted(found)})")
    labels = table[variant].astype(str)
    return table[labels == control], table[labels == treatment]


def _column(frame: pd.DataFrame, name: str, what: str) -> np.ndarray:
    import pandas as pd

    if name not in frame.columns:
        raise InputError(f"no {what} column {name!r} in the table (columns: "
                         f"{list(frame.columns)})")
    values = pd.to_numeric(frame[name], errors="coerce").to_numpy(dtype=np.float64)
    if not np.isfinite(values).all():
        bad = frame.index[int(np.argmax(~np.isfinite(values)))]
        raise InputError(f"{what} column {name!r}: user {shown(bad)} has no finite value "
                         f"({shown(frame.loc[bad, name])})", **located(frame, bad))
    return values


@AB_TEST
def ab_test(
    table: pd.DataFrame,
    metric: str,
    *,
    analysis: Analysis = "welch",
    denominator: str | None = None,
    covariate: str | None = None,
    variant: str = "variant",
    control: str = "control",
    treatment: str = "treatment",
    alpha: float = 0.05,
    missing: Literal["error", "drop"] = "error",
) -> TestResult:
    """Compare ``treatment`` with ``control`` on a per-user ``metric`` (module doc).

    Parameters
    ----------
    table : DataFrame
        One row per user: the ``variant`` column and the metric columns.
    metric : str
        The column analysed (the numerator of a ratio metric for ``delta``).
    analysis : {"welch", "delta", "cuped"}
        Welch's t-test, the delta method for the ratio Σ metric / Σ ``denominator``, or
        CUPED with the pre-period ``covariate``: each needs its column, refused with the
        others (:data:`~irscale.online.params.AB_TEST`).
    alpha : float
        Level of the test and of the 1 − α interval of the difference.
    missing : {"error", "drop"}
        A user without a value (NaN) of the metric, denominator or covariate is an error,
        or (``drop``) left out, with a warning and the result's ``method`` saying how
        many were (a
        measure missing for some users, e.g. the absence time of users who never came
        back, compares the users who have one: not the same population in both variants
        when the treatment changes who comes back).

    Returns
    -------
    TestResult
        ``diff`` = treatment − control (of means; of ratios for ``delta``) with its
        interval, ``statistic`` (t or z), ``pvalue``.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"variant": ["control"] * 4 + ["treatment"] * 4,
    ...                       "clicks": [1, 2, 0, 3, 2, 3, 1, 4],
    ...                       "impressions": [4, 4, 2, 5, 4, 5, 2, 6]})
    >>> result = ab_test(table, "clicks", analysis="delta", denominator="impressions")
    >>> round(result.diff, 4), round(result.pvalue, 4)
    (0.1882, 0.1187)
    """
    groups = _groups(table, variant, control, treatment)
    used = [c for c in (metric, denominator, covariate) if c is not None]
    (ctrl, ctrl_out), (treat, treat_out) = (users_with_values(g, used, missing)
                                            for g in groups)
    result = _ab_test(ctrl, treat, metric, analysis, denominator, covariate, control,
                      treatment, alpha)
    if not ctrl_out + treat_out:
        return result
    note = warn_left_out(ctrl_out + treat_out, f"the test of {metric!r}")
    return replace(result, method=f"{result.method}; {note}" if result.method else note)


def _ab_test(ctrl: pd.DataFrame, treat: pd.DataFrame, metric: str, analysis: str,
             denominator: str | None, covariate: str | None, control: str, treatment: str,
             alpha: float) -> TestResult:
    """:func:`ab_test` of the users of the two variants."""
    y_c, y_t = _column(ctrl, metric, "metric"), _column(treat, metric, "metric")
    if analysis != "delta":
        _check_spread(y_c, y_t, metric, (control, treatment),
                      "Welch's t-test" if analysis == "welch" else "CUPED")
    if analysis == "welch":
        return welch_t(y_t, y_c, systems=(treatment, control), alpha=alpha)
    if analysis == "cuped":
        assert covariate is not None
        x_c, x_t = _column(ctrl, covariate, "covariate"), _column(treat, covariate,
                                                                    "covariate")
        x, y = np.concatenate([x_c, x_t]), np.concatenate([y_c, y_t])
        # θ·(X − mean X) is the same for X times a power of 2 (irscale.core.scaling):
        # X in [0, 1) keeps var(X) and cov(X, Y) in range for covariates near 1e308 or
        # 1e-200 (Y itself is checked by the t-test)
        shift = binary_exponent(x)
        x, x_c, x_t = (np.ldexp(v, -shift) for v in (x, x_c, x_t))
        y_unit = np.ldexp(y, -binary_exponent(y))
        var = x.var(ddof=1)
        if not var > 0:
            raise InputError(f"covariate {covariate!r} is constant: CUPED needs a "
                             "covariate that varies")
        theta = float(np.cov(x, y_unit, ddof=1)[0, 1] / var) * \
            math.ldexp(1.0, binary_exponent(y))
        mean_x = x.mean()
        adj_t, adj_c = y_t - theta * (x_t - mean_x), y_c - theta * (x_c - mean_x)
        if _constant_within(adj_c, adj_t, y_c, y_t):
            raise InputError(f"covariate {covariate!r} predicts {metric} exactly (the "
                             "adjusted values are the same within each variant up to "
                             "rounding): with no variance CUPED has nothing to test")
        result = welch_t(adj_t, adj_c, systems=(treatment, control), alpha=alpha)
        theta = math.ldexp(theta, -shift)  # per unit of the covariate as given
        return replace(result, test="CUPED Welch t-test",
                       method=f"CUPED on {covariate}, theta = {theta:.6g}")
    assert denominator is not None
    d_c, d_t = _column(ctrl, denominator, "denominator"), _column(treat, denominator,
                                                                  "denominator")
    # numerators and denominators divided by powers of 2 (irscale.core.scaling): the
    # ratios, their difference and its standard error scale by 2^(e_num − e_den) exactly,
    # and the sums and covariances stay in range for metrics near 1e308 or 1e-200
    e_num, e_den = binary_exponent(y_c, y_t), binary_exponent(d_c, d_t)
    (r_c, v_c), (r_t, v_t) = (
        _delta_ratio(np.ldexp(num, -e_num), np.ldexp(den, -e_den), name, e_den)
        for num, den, name in ((y_c, d_c, control), (y_t, d_t, treatment)))
    r_c, r_t, se = (_rescaled(v, e_num - e_den, metric, denominator)
                    for v in (r_c, r_t, math.sqrt(v_c + v_t)))
    if se == 0:
        raise InputError(f"every user's {metric}/{denominator} is the same up to rounding "
                         f"within each variant ({r_t:g} in {treatment!r}, {r_c:g} in "
                         f"{control!r}): with no variance the delta method has nothing to "
                         "test")
    diff = r_t - r_c
    z = diff / se
    p = float(2 * normal_sf(abs(z)))
    low, high = t_interval(diff, se, math.inf, alpha=alpha, alternative="two-sided")
    nan = math.nan
    return TestResult(
        test="delta-method z-test", systems=(treatment, control), paired=False,
        alternative="two-sided", n=(len(y_t), len(y_c)), mean_x=r_t, mean_y=r_c,
        diff=diff, ci_low=float(low), ci_high=float(high), ci_method="delta-method normal "
        "interval", statistic=z, df=None, pvalue=p, alpha=alpha,
        effect=EffectSizes(nan, nan, nan, nan, nan, n=len(y_t), m=len(y_c), paired=False),
        method=f"ratio {metric}/{denominator}", ci_se=se, ci_df=math.inf)


def _check_spread(y_c: np.ndarray, y_t: np.ndarray, metric: str, names: tuple[str, str],
                  test: str) -> None:
    """Welch's test and CUPED need two users per variant and a metric that varies within
    a variant: each variant constant up to rounding (the tolerance of
    :func:`~irscale.stats.validation.tie_tolerance`, as every test of :mod:`irscale.stats`)
    leaves Welch's variance rounding noise, and CUPED's adjusted values only the
    covariate's chance imbalance between the variants (p = 1e-59 on two constant
    variants); both are refused, named in users and variants."""
    control, treatment = names
    for values, name in ((y_c, control), (y_t, treatment)):
        if len(values) < 2:
            raise InputError(f"variant {name!r} has {len(values)} user(s): {test} needs 2")
    if not _constant_within(y_c, y_t):
        return
    if abs(float(y_t[0]) - float(y_c[0])) <= tie_tolerance(y_c, y_t):
        raise InputError(f"every user has the same {metric} ({float(y_c[0]):g}) in "
                         f"{treatment!r} and {control!r} (up to rounding): there is nothing "
                         "to test")
    raise InputError(f"every user's {metric} is the same within each variant (up to "
                     f"rounding: {float(y_t[0]):g} in {treatment!r}, {float(y_c[0]):g} in "
                     f"{control!r}): with no variance {test} has nothing to test")


def _constant_within(y_c: np.ndarray, y_t: np.ndarray, *scale: np.ndarray) -> bool:
    """Both variants' values constant up to rounding: within the tie tolerance of the
    values and of the arrays ``scale`` they were computed from."""
    tol = tie_tolerance(y_c, y_t, *scale)
    return bool(constant_columns(y_c[:, None], tol)[0]
                and constant_columns(y_t[:, None], tol)[0])


def _rescaled(value: float, exponent: int, metric: str, denominator: str) -> float:
    """``value``·2^exponent, an :class:`InputError` when a double cannot hold it."""
    try:
        out = math.ldexp(value, exponent)
    except OverflowError:
        out = math.inf
    if not math.isfinite(out):
        raise InputError(f"the ratio {metric}/{denominator} is beyond the range of a "
                         "double (1.8e308): rescale the metric or the denominator")
    return out


def _delta_ratio(num: np.ndarray, den: np.ndarray, name: str, den_exponent: int = 0
                 ) -> tuple[float, float]:
    """R = Σ num / Σ den and its delta-method variance (module doc); ``den`` is the
    denominators divided by 2^``den_exponent`` (named as given in an error)."""
    n = len(num)
    if n < 2:
        raise InputError(f"variant {name!r} has {n} user(s): the delta method needs 2")
    mean_den = den.mean()
    if not mean_den > 0:
        raise InputError(f"variant {name!r}: the denominators sum to "
                         f"{math.ldexp(float(den.sum()), den_exponent):g}; a "
                         "ratio needs a positive total")
    ratio = num.sum() / den.sum()
    # Var(num − R·den) = Var(num) − 2R·Cov(num, den) + R²·Var(den); residuals within
    # rounding of 0 (every user's ratio is R) have no variance, only rounding noise
    # (irscale.stats.validation.tie_tolerance, as the paired tests decide it)
    residual = num - ratio * den
    if np.max(np.abs(residual)) <= tie_tolerance(num, ratio * den):
        return float(ratio), 0.0
    return float(ratio), float(residual.var(ddof=1) / (n * mean_den**2))


# --------------------------------------------------------------------------- SRM
@dataclass(frozen=True)
class SampleRatioResult(HtmlRepr):
    """Pearson's χ² test of the users per variant against the planned shares.

    Protocol: ``statistic`` (χ²), ``pvalue``, ``df``, ``to_frame()`` (one row per
    variant: observed and expected users), ``format(fmt)``."""

    statistic: float
    pvalue: float
    df: int
    observed: pd.Series
    expected: pd.Series

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd

        frame = pd.DataFrame({"observed": self.observed, "expected": self.expected})
        frame["share"] = frame["observed"] / frame["observed"].sum()
        frame.index.name = "variant"
        return frame.reset_index()

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return format_table(self.to_frame(), fmt, digits=digits,
                            title=f"sample ratio: chi2 = {self.statistic:.4g}, df = "
                            f"{self.df}, p = {self.pvalue:.4g}")


@AB_SRM
def sample_ratio_mismatch(
    assignment: pd.Series | Mapping[str, int],
    splits: Mapping[str, float] | Sequence[str] | str = ("control", "treatment"),
) -> SampleRatioResult:
    """χ² test of a sample-ratio mismatch: ``assignment`` is the variant of every user (a
    Series) or the users per variant (a mapping); ``splits`` the planned shares (as
    :func:`assign`'s).

    >>> round(sample_ratio_mismatch({"control": 5200, "treatment": 4800}).pvalue, 6)
    6.3e-05
    """
    import pandas as pd
    from scipy import stats

    names, shares = _planned(splits)
    if isinstance(assignment, pd.Series):
        check_labels(assignment)
        counts = assignment.astype(str).value_counts()
    elif isinstance(assignment, Mapping):
        counts = pd.Series({str(k): v for k, v in assignment.items()})
    else:
        raise InputError("assignment must be a Series of variants or a mapping of counts")
    unknown = sorted(set(counts.index) - set(names))
    if unknown:
        raise InputError(f"users in variant(s) {unknown} that the splits do not plan "
                         f"({names})")
    observed = pd.to_numeric(counts.reindex(names, fill_value=0), errors="coerce")
    if not (np.isfinite(observed) & (observed >= 0) & (observed == np.round(observed))).all() \
            or observed.sum() == 0:
        raise InputError(f"the users per variant must be non-negative counts, not all 0: "
                         f"{observed.to_dict()}")
    expected = pd.Series(shares * observed.sum(), index=names)
    chi2, p = stats.chisquare(observed.to_numpy(), expected.to_numpy())
    return SampleRatioResult(float(chi2), float(p), len(names) - 1,
                             observed.astype(np.int64), expected)


# --------------------------------------------------------------------------- A/A
@dataclass(frozen=True)
class AATestResult(HtmlRepr):
    """R A/A splits of one population: the p-value of Welch's test on each, and the
    rejection rate at α with the binomial test of rate = α.

    Protocol: ``statistic`` (the rejection rate), ``pvalue`` (of the binomial test),
    ``to_frame()`` (one row per split), ``format(fmt)``."""

    alpha: float
    pvalues: np.ndarray
    statistic: float
    pvalue: float

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame({"split": np.arange(len(self.pvalues)), "p": self.pvalues,
                             "rejected": self.pvalues <= self.alpha})

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return format_table(self.to_frame(), fmt, digits=digits,
                            title=f"A/A: {self.statistic:.4g} rejected at alpha "
                            f"{self.alpha:g} (binomial p = {self.pvalue:.4g})")


def aa_test(values: Sequence[float] | np.ndarray | pd.Series, users: Sequence[object]
            | None = None, *, splits: int = 100, salt: str = "aa", alpha: float = 0.05,
            ) -> AATestResult:
    """A/A test: split the users ``splits`` times in halves (salts ``salt-0``, ...) and
    test each split with Welch's t-test (all splits at once). ``values``: the per-user
    metric (a Series indexed by user, or an array with ``users``)."""
    import pandas as pd
    from scipy import stats

    alpha = check_alpha(alpha)
    splits = check_count(splits, "splits", 1)
    if isinstance(values, pd.Series) and users is None:
        users = [str(u) for u in values.index]
    y = np.asarray(values, dtype=np.float64)
    if users is None or len(users) != len(y):
        raise InputError("aa_test needs one user id per value")
    if len(y) < 4 or not np.isfinite(y).all():
        raise InputError("aa_test needs at least 4 finite per-user values")
    ids = [str(u) for u in users]
    side = np.stack([hash_unit(ids, f"{salt}-{r}") < 0.5 for r in range(splits)])  # R × n
    n_a = side.sum(axis=1)
    n_b = len(y) - n_a
    if (n_a < 2).any() or (n_b < 2).any():
        raise InputError("an A/A split left fewer than 2 users in a half")
    sum_a, sq_a = side @ y, side @ (y**2)
    sum_b, sq_b = y.sum() - sum_a, (y**2).sum() - sq_a
    mean_a, mean_b = sum_a / n_a, sum_b / n_b
    var_a = (sq_a - n_a * mean_a**2) / (n_a - 1)
    var_b = (sq_b - n_b * mean_b**2) / (n_b - 1)
    a, b = var_a / n_a, var_b / n_b
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (mean_a - mean_b) / np.sqrt(a + b)
        df = (a + b) ** 2 / (a**2 / (n_a - 1) + b**2 / (n_b - 1))
    p = np.where(np.isfinite(t), 2 * t_sf(np.abs(t), df), 1.0)
    rejected = int((p <= alpha).sum())
    return AATestResult(alpha, p, rejected / splits,
                        float(stats.binomtest(rejected, splits, alpha).pvalue))


# --------------------------------------------------------------------------- sizes
@AB_SIZE
def ab_sample_size(min_diff: float, sd: float, *, alpha: float = 0.05,
                   power: float = 0.8) -> int:
    """Users per variant for a two-sample t-test to detect ``min_diff`` with ``power``
    (per-user standard deviation ``sd``): the smallest n whose exact power reaches it
    (:func:`irscale.stats.power.topic_set_size`, design ``two-sample-t``).

    >>> ab_sample_size(0.01, 0.2)
    6281
    """
    from ..stats.power import topic_set_size

    beta = 1 - power  # the design's β, in (0, 1)
    if beta == 1:
        raise ParameterError(f"power {power:g} cannot be told from 0 in floating point "
                             "(1 - power rounds to 1)")
    return topic_set_size("two-sample-t", sd=sd, min_diff=min_diff, alpha=alpha,
                          beta=beta).n


@AB_POWER_OF
def ab_power(min_diff: float, sd: float, n: int, *, alpha: float = 0.05) -> float:
    """Power of the two-sample t-test with n users per variant (effect min_diff / sd)."""
    from ..stats.power import power_two_sample_t

    return power_two_sample_t(min_diff / sd, n, alpha=alpha)

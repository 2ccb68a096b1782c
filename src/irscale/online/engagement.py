"""Session-level and loyalty measures of users over time, and their means with intervals.

A click log's *sessions* are impressions (one result page each; :mod:`irscale.io.
clicklog`). With the time every page was shown and the user it was shown to (the ``session
user time`` file, :func:`read_session_users`), a user's pages ordered by time form *search
sessions*: a new one starts when the user comes back after more than ``session_gap``
seconds without a page (1800 s by default, the 30-minute inactivity timeout customary in
web analytics; declared, since no rule is universal). Per user (:func:`loyalty_measures`;
Ferro & Maistro 2024, §6.5, "loyalty measures"; Lehmann, Lalmas, Yom-Tov & Dupret, UMAP
2012):

``search_sessions``
    the number of the user's search sessions;
``queries_per_session``
    pages shown / search sessions (the "number of queries in a session", averaged);
``absence_time``
    the mean time between the user's consecutive search sessions: the start (first page)
    of one minus the last page of the one before (Dupret & Lalmas, WSDM 2013, "Absence
    time and user engagement"). NaN for a user with one search session. Dupret & Lalmas
    model the absence times by survival analysis, the last absence of every user being
    censored at the end of the log; irscale reports the observed absences only (no
    censored one), so that a treatment's users who never return weigh nothing here: read
    ``search_sessions`` beside it.

The page-level measures (clicks, abandonment, good abandonment with a declared answer on
the page, time to first click, dwell) are :func:`~irscale.online.abtest.session_measures`.

:func:`engagement_summary` gives the mean of every measure over users (the units: a user's
sessions are not independent) with its Student t interval, mean ± t_{1−α/2, n−1} s/√n (n
the users), per variant when the table has one. A user without a value of a measure (NaN:
the absence time of a user with one search session) is an error, or, with
``missing="drop"``, left out of that measure's mean, with a warning saying how many
(:mod:`irscale.online.user_values`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from scipy import stats

from ..core.numbers import declare, undefined
from ..errors import InputError, shown
from ..io.user_tables import read_session_users
from ..stats.protocol import TableResult
from .params import ENGAGEMENT, LOYALTY_MEASURES
from .user_values import check_labels, located, users_with_values, warn_left_out

__all__ = ["EngagementSummary", "engagement_summary", "loyalty_measures",
           "read_session_users"]

#: The columns of :func:`loyalty_measures`.
LOYALTY = ("search_sessions", "queries_per_session", "absence_time")


@LOYALTY_MEASURES
def loyalty_measures(visits: pd.DataFrame, *, session_gap: float = 1800.0) -> pd.DataFrame:
    """Per-user ``search_sessions``, ``queries_per_session`` and ``absence_time`` (module
    documentation) of ``visits``: one row per page shown, with columns ``user`` and
    ``time`` (as :func:`read_session_users` reads them). Indexed by user (sorted).

    >>> visits = pd.DataFrame({"user": ["u", "u", "u", "v"], "time": [0, 60, 7260, 5]})
    >>> loyalty_measures(visits, session_gap=1800)
          search_sessions  queries_per_session  absence_time
    user
    u                   2                  1.5        7200.0
    v                   1                  1.0           NaN
    """
    gap = session_gap
    for column in ("user", "time"):
        if column not in visits.columns:
            source = visits.attrs.get("source")
            raise InputError(f"loyalty measures need every page's {column} (the 'session "
                             "user time' lines)", source=source)
    time = pd.to_numeric(visits["time"], errors="coerce").to_numpy(dtype=np.float64)
    if not np.isfinite(time).all():
        raise InputError("loyalty measures need a finite time for every page shown")
    user = visits["user"].astype(str).to_numpy()
    order = np.lexsort((time, user))
    user, time = user[order], time[order]
    first_of_user = np.r_[True, user[1:] != user[:-1]]
    # differences of times divided by a power of 2 cannot overflow (times near 1.8e308)
    scale = math.ldexp(1.0, -1 - max(0, math.frexp(float(np.abs(time).max()))[1]))
    step = np.r_[0.0, np.diff(time * scale)]
    starts = first_of_user | (step > gap * scale)
    absent = starts & ~first_of_user  # the gap before a search session of a returning user
    frame = pd.DataFrame({"user": user, "start": starts, "absent": np.where(absent, step,
                                                                            np.nan)})
    grouped = frame.groupby("user", sort=True)
    sessions = grouped["start"].sum().astype(np.int64)
    table = pd.DataFrame({"search_sessions": sessions,
                          "queries_per_session": grouped.size() / sessions,
                          "absence_time": grouped["absent"].mean() / scale})
    table.index.name = "user"
    return table


@dataclass(frozen=True, eq=False)
class EngagementSummary(TableResult):
    """Means over users with their t intervals (:func:`engagement_summary`): ``table``
    has a row per (variant, measure): ``users`` (with a value), ``mean``, ``sd``,
    ``ci_low``, ``ci_high``."""

    table: pd.DataFrame
    alpha: float

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def __repr__(self) -> str:
        measures = self.table["measure"].nunique()
        return (f"EngagementSummary({measures} measures, {100 * (1 - self.alpha):g}% t "
                f"intervals over users)")


def _numeric_measures(table: pd.DataFrame, measures: Sequence[str] | None,
                      variant: str | None, source: str | None) -> list[str]:
    """The measures to summarise (by default every numeric column but ``variant``), each
    a column of ``table`` whose values are finite numbers or missing (an
    :class:`~irscale.errors.InputError` naming the column, and the user, otherwise)."""
    if measures is None:
        measures = [c for c in table.columns if c != variant
                    and pd.api.types.is_numeric_dtype(table[c])
                    and not pd.api.types.is_bool_dtype(table[c])]
        if not measures:
            raise InputError(f"no numeric column to summarise (columns: "
                             f"{list(table.columns)})", source=source)
    absent = [m for m in measures if m not in table.columns]
    if absent:
        raise InputError(f"no column {absent[0]!r} in the table (columns: "
                         f"{list(table.columns)})", source=source)
    for measure in measures:
        given = table[measure].dropna()
        numbers = pd.to_numeric(given, errors="coerce")
        if numbers.isna().any():
            raise InputError(f"column {measure!r} is not a column of numbers (user "
                             f"{given.index[numbers.isna().to_numpy()][0]!r}: "
                             f"{given[numbers.isna()].iloc[0]!r})", source=source)
        infinite = ~np.isfinite(numbers.to_numpy(np.float64))
        if infinite.any():
            user = given.index[infinite][0]
            raise InputError(f"column {measure!r}: user {shown(user)} has no finite value "
                             f"({shown(given[infinite].iloc[0])})",
                             **{"source": source, **located(table, user)})
    return list(measures)


@ENGAGEMENT
def engagement_summary(table: pd.DataFrame, measures: Sequence[str] | None = None, *,
                       variant: str | None = "variant", alpha: float = 0.05,
                       source: str | None = None,
                       missing: Literal["error", "drop"] = "error") -> EngagementSummary:
    """The mean of every measure (column) of a per-user ``table`` over its users, with
    the Student t interval (module documentation), per value of the ``variant`` column
    when the table has it (``variant=None``: all users together). ``measures``: the
    numeric columns by default (their values numbers, NaN for a missing one: a word or an
    infinity is an error); ``source``: the table's file, for messages; ``missing``
    (``"error"`` or ``"drop"``): a user without a value of a measure is an error naming
    it, or left out of that measure's mean with a warning saying how many (the ``users``
    column counts those kept).

    >>> table = pd.DataFrame({"clicks": [1.0, 2.0, 3.0, 6.0]})
    >>> print(engagement_summary(table).to_frame().round(3).to_string(index=False))
    variant measure  users  mean   sd  ci_low  ci_high
        all  clicks      4   3.0 2.16  -0.437    6.437
    """
    if not isinstance(table, pd.DataFrame) or table.empty:
        raise InputError("engagement_summary needs a per-user table with rows",
                         source=source)
    by_variant = variant is not None and variant in table.columns
    if by_variant:
        check_labels(table[variant], f"variant ({variant!r})")
    groups = table.groupby(table[variant].astype(str), sort=True) if by_variant \
        else [("all", table)]
    measures = _numeric_measures(table, measures, variant, source)
    if missing == "error":  # the first user without a value, in the table's order
        users_with_values(table, measures, missing, "measure")
    rows = []
    left_out = dict.fromkeys(measures, 0)
    for name, group in groups:
        for measure in measures:
            kept, out = users_with_values(group, [measure], "drop")
            left_out[measure] += out
            values = pd.to_numeric(kept[measure]).to_numpy(np.float64)
            n = len(values)
            mean = float(values.mean()) if n else math.nan
            sd = float(values.std(ddof=1)) if n > 1 else math.nan
            half = (float(stats.t.ppf(1 - alpha / 2, n - 1)) * sd / math.sqrt(n)
                    if n > 1 else math.nan)
            rows.append((str(name), measure, n, mean, sd, mean - half, mean + half))
    frame = declare(pd.DataFrame(rows, columns=["variant", "measure", "users", "mean", "sd",
                                                "ci_low", "ci_high"]), {
        "mean": undefined("no user of the variant has a value of the measure"),
        **dict.fromkeys(("sd", "ci_low", "ci_high"), undefined(
            "fewer than two users of the variant have a value of the measure"))})
    for measure, count in left_out.items():
        if count:
            warn_left_out(count, f"the mean of {measure!r}")
    return EngagementSummary(frame, alpha)

"""``irscale online ab ...``: A/B tests (Kohavi et al. 2009; docs/online.md)."""

from __future__ import annotations

import argparse
from typing import Any

from ..core.params import SIGNIFICANCE
from ..errors import InputError, ParameterError
from ..online import params
from .common_params import INPUTS
from .online import add_action, add_actions, add_table, one_of
from .options import add_output
from .rules import Required, Rule, given

#: ``TABLE``: the per-user table that ``summary``, ``analyze`` and ``srm`` read.
TABLE = (INPUTS, {"metavar": "TABLE", "doc": "per-user table (CSV or TSV, header)"})


def add_parser(subparsers) -> None:
    """Register ``irscale online ab`` and its actions."""
    actions = add_actions(subparsers, "ab", "A/B tests: hash assignment, per-user online "
                          "measures, Welch/delta-method/CUPED analysis, sample-ratio "
                          "mismatch, sample size")
    add_action(actions, "assign", run_assign,
               (INPUTS, {"metavar": "USERS", "doc": "user ids, one per line"}),
               (params.AB_SALT, {"required": True}), params.AB_SPLITS, add_output,
               binding=params.AB_ASSIGN, example="users.txt --salt s1",
               help="assign users to variants by MD5(salt:user): 'user<TAB>variant' lines")
    add_action(actions, "measures", run_measures,
               (INPUTS, {"metavar": "CLICKLOG",
                         "doc": "click log: session query rank docno clicked [timestamp]"}),
               (params.SESSION_USERS, {"required": True}), params.ANSWERED,
               params.SESSION_GAP, one_of(params.VARIANTS, params.AB_SALT, required=True),
               params.AB_SPLITS, params.CLICKS_CUTOFF, add_output,
               rules=(Rule(("splits",), lambda args: args.salt is not None,
                           "--splits applies to --salt"),),
               binding=params.SESSION_MEASURES, example="ab.log --users su.txt --salt s",
               help="per-user online measures of a click log, with each user's variant "
               "(CSV for analyze, srm and summary)")
    add_action(actions, "summary", run_summary, TABLE, (params.AB_METRICS, {"many": True}),
               params.AB_MISSING, params.AB_VARIANT, SIGNIFICANCE, add_table,
               example="t.csv", binding=params.ENGAGEMENT,
               help="means over users with t intervals, per variant")
    add_action(actions, "analyze", run_analyze, TABLE, params.AB_METRIC, params.OEC,
               params.AB_ANALYSIS, params.AB_DENOMINATOR, params.AB_COVARIATE,
               params.AB_MISSING, params.AB_VARIANT, params.AB_CONTROL, params.AB_TREATMENT,
               SIGNIFICANCE, add_table,
               ahead=(Rule(("oec",), lambda args: args.metric is None,
                           "--oec and --metric: give one (the OEC names its measures)"),
                      Rule(("analysis", "missing"),
                           lambda args: args.oec is None, "{options} {applies} to --metric; "
                           "--oec is its own delta-method test"),
                      Required("metric", lambda args: args.oec is None, "analyze needs "
                               "--metric COLUMN or --oec MEASURE=WEIGHT,...")),
               binding=params.AB_TEST, example="t.csv --metric clicks",
               help="compare treatment with control on a metric (Welch, delta method, "
               "CUPED) or an OEC")
    add_action(actions, "srm", run_srm, TABLE, (params.AB_SPLITS, {"doc": "planned shares"}),
               params.AB_VARIANT, add_table, binding=params.AB_SRM,
               example="t.csv",
               help="sample-ratio mismatch: chi2 of users per variant")
    add_action(actions, "size", run_size, (params.MIN_DIFF, {"required": True}),
               (params.USER_SD, {"required": True}), SIGNIFICANCE, params.AB_POWER,
               add_output, binding=params.AB_SIZE,
               help="users per variant for a two-sample t-test",
               example="--min-diff 0.1 --sd 1")


def run_assign(args: argparse.Namespace) -> str:
    """``online ab assign``: every user's variant."""
    from ..io.user_tables import read_users

    users = read_users(args.inputs)  # before pandas is imported
    from ..online.abtest import assign

    variant = assign(users, salt=args.salt, splits=args.splits)
    return "".join(f"{u}\t{v}\n" for u, v in variant.items())


def run_measures(args: argparse.Namespace) -> str:
    """``online ab measures``: every user's measures and variant."""
    from ..io.clicklog import read_click_log
    from ..io.user_tables import check_pairs, check_session_users, read_users

    # every file checked before pandas and the analyses are imported
    checked = check_session_users(args.users)
    log = read_click_log(args.inputs)
    listed = None if args.answered is None else read_users(args.answered, what="session")
    pairs = None if args.salt is not None else check_pairs(args.variants, "user", "variant")
    owners = checked.build()
    if "time" not in owners.columns and given(args, "session_gap"):
        raise ParameterError("--session-gap splits the users' pages into search sessions "
                             "by their times: the --users file has no time column")
    from ..online.abtest import assign, session_measures, user_measures, with_variants
    from ..online.engagement import loyalty_measures

    answered = None
    if listed is not None:
        known = set(log.sessions.astype(str))
        stray = [n for n, session in enumerate(listed) if session not in known]
        if stray:
            raise InputError(f"session {listed[stray[0]]!r} is not in the click log "
                             f"{args.inputs}", source=args.answered, line=stray[0] + 1,
                             text=listed[stray[0]])
        shown = set(listed)
        answered = [session in shown for session in log.sessions.astype(str)]
    sessions = session_measures(log, k=args.k, satisfied=answered)
    users = owners["user"]
    users.attrs["source"] = args.users  # the message of a session without a user names it
    table = user_measures(sessions, users)
    if "time" in owners.columns:
        pages = owners.loc[owners.index.isin(sessions.index.astype(str))]
        table = table.join(loyalty_measures(pages, session_gap=args.session_gap))
    if pairs is None:
        variants = assign(table.index.to_numpy(), salt=args.salt, splits=args.splits)
    else:
        variants = pairs.build()
    return with_variants(table, variants, source=args.variants).to_csv()


def _read_table(args: argparse.Namespace):
    """The per-user table ``TABLE``."""
    from ..io.user_tables import read_user_table

    return read_user_table(args.inputs, labels=(args.variant_column,))


def run_summary(args: argparse.Namespace) -> Any:
    """``online ab summary``: every metric's mean over users with its interval."""
    table = _read_table(args)
    from ..online.engagement import engagement_summary

    variant = args.variant_column if args.variant_column in table.columns else None
    return engagement_summary(table, args.metrics, variant=variant, alpha=args.alpha,
                              source=args.inputs, missing=args.missing)


def run_analyze(args: argparse.Namespace) -> Any:
    """``online ab analyze``: the A/B test of a metric, or of an OEC."""
    table = _read_table(args)
    compared = {"variant": args.variant_column, "control": args.control,
                "treatment": args.treatment, "alpha": args.alpha}
    if args.oec is not None:
        from ..online.oec import oec_test

        return oec_test(table, args.oec, **compared)
    from ..online.abtest import ab_test

    return ab_test(table, args.metric, analysis=args.analysis, denominator=args.denominator,
                   covariate=args.covariate, missing=args.missing, **compared)


def run_srm(args: argparse.Namespace) -> Any:
    """``online ab srm``: the sample ratio mismatch test."""
    table = _read_table(args)
    from ..online.abtest import sample_ratio_mismatch

    if args.variant_column not in table.columns:
        raise InputError(f"no variant column {args.variant_column!r} (columns: "
                         f"{list(table.columns)})", source=args.inputs)
    return sample_ratio_mismatch(table[args.variant_column], args.splits)


def run_size(args: argparse.Namespace) -> str:
    """``online ab size``: the users per variant for the power asked."""
    from ..online.abtest import ab_power, ab_sample_size

    n = ab_sample_size(args.min_diff, args.sd, alpha=args.alpha, power=args.power)
    achieved = ab_power(args.min_diff, args.sd, n, alpha=args.alpha)
    return f"users per variant\t{n}\npower\t{achieved:.4f}\n"

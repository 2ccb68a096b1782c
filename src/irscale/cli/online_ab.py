"""``irscale online ab assign|measures|analyze|srm|size``: A/B tests (Kohavi et al. 2009) —
assignment by hashing, per-user online measures, their analysis, the sample-ratio check and
the sample size; usage: ``docs/cli.md``, ``docs/online.md``."""

from __future__ import annotations

import argparse

from ..core.params import SIGNIFICANCE, Text
from ..errors import InputError, ParameterError
from ..io.formats import TABLE_FORMATS
from ..online.params import (
    AB_ANALYSIS,
    AB_MISSING,
    AB_POWER,
    CLICKS_CUTOFF,
    MIN_DIFF,
    SESSION_GAP,
    USER_SD,
    Param,
)
from .common_params import INPUTS
from .main import given
from .options import ListAction, add_command, add_format, add_output, add_param
from .outputs import declare_inputs, write_text
from .rules import Rule, add_rules, check_options

DEFAULT_SPLITS = "control=0.5,treatment=0.5"
#: ``TABLE``: the per-user table that ``summary``, ``analyze`` and ``srm`` read.
_TABLE_INPUT = (INPUTS, {"metavar": "TABLE", "doc": "per-user table (CSV or TSV, header)"})


def _splits(text: str) -> dict[str, float]:
    """``name=share,name=share,...`` (shares as numbers); a name given twice, or holding a
    blank or a tab (the ``user variant`` files written and read are split there), is an
    error."""
    out: dict[str, float] = {}
    for part in text.split(","):
        name, sep, share = part.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ParameterError(f"--splits: expected name=share,name=share,..., got "
                                 f"{text!r}")
        if len(name.split()) > 1:
            raise ParameterError(f"--splits: variant {name!r} holds a blank or a tab "
                                 "('user variant' files are split there)")
        if name in out:
            raise ParameterError(f"--splits: variant {name!r} given twice")
        try:
            out[name] = float(share)
        except ValueError:
            raise ParameterError(f"--splits: the share of {name!r} is not a number: "
                                 f"{share!r}") from None
    return out


def add_parser(subparsers) -> None:
    """Register ``irscale online ab`` and its actions."""
    parser = subparsers.add_parser(
        "ab", help="A/B tests: hash assignment, per-user online measures, "
        "Welch/delta-method/CUPED analysis, sample-ratio mismatch, sample size",
        description="A/B tests (Kohavi et al. 2009). See docs/online.md.")
    parser.set_defaults(func=_no_action)
    actions = parser.add_subparsers(dest="ab_command", metavar="ACTION")

    p = actions.add_parser("assign", help="assign users to variants by MD5(salt:user)",
                           description="Print 'user<TAB>variant' for every user of USERS "
                           "(one id per line): the same salt gives the same variants.")
    add_param(p, INPUTS, metavar="USERS", doc="user ids, one per line")
    p.add_argument("--salt", required=True, help="the experiment's salt")
    _splits_option(p, "variants and their shares, summing to 1")
    add_output(p)
    declare_inputs(p, "inputs")
    p.set_defaults(func=run_assign)

    p = actions.add_parser("measures", help="per-user online measures of a click log",
                           description="CTR, clicks, clicks@k, abandonment, good "
                           "abandonment (--answered), click reciprocal rank, time to first "
                           "click, dwell and success per user (sessions grouped by "
                           "--users), and with the pages' times the loyalty measures "
                           "(search sessions, queries per session, absence time), with "
                           "each user's variant; written as CSV for 'analyze', 'srm' and "
                           "'summary'.")
    add_param(p, INPUTS, metavar="CLICKLOG",
              doc="click log: session query rank docno clicked [timestamp]")
    p.add_argument("--users", required=True, metavar="FILE",
                   help="'session user [time]' lines: the user of every session of the "
                   "log and the time its page was shown (seconds; gives the loyalty "
                   "measures)")
    p.add_argument("--answered", metavar="FILE",
                   help="the sessions whose page showed the answer, one id per line: "
                   "good_abandonment is a session of them without a click")
    add_param(p, SESSION_GAP)
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--variants", metavar="FILE",
                       help="'user variant' lines (what 'assign' writes)")
    group.add_argument("--salt",
                       help="assign the users by MD5(salt:user) instead")
    _splits_option(p, "with --salt: variants and shares")
    add_param(p, CLICKS_CUTOFF)
    add_output(p)
    declare_inputs(p, "inputs", "--users", "--variants", "--answered")
    add_rules(p, Rule(("splits",), lambda args: args.salt is not None,
                      "--splits applies to --salt"))
    p.set_defaults(func=run_measures)

    p = actions.add_parser("summary", help="means over users with t intervals",
                           description="The mean of every metric column of a per-user "
                           "table over its users, with its Student t interval, per variant "
                           "(users are the units).")
    add_param(p, INPUTS, metavar="TABLE", doc="per-user table (CSV or TSV, header)")
    p.add_argument("--metrics", action=ListAction, kind="str", unique=True,
                   metavar="COLUMN,...",
                   help="the columns to summarise (default: every numeric column)")
    add_param(p, AB_MISSING)
    _variant_options(p)
    add_param(p, SIGNIFICANCE)
    _table(p)
    p.set_defaults(func=run_summary)

    p = actions.add_parser("analyze", help="compare treatment with control on a metric",
                           description="Welch's t-test, the delta method for a ratio "
                           "metric, or CUPED with a pre-period covariate, on a per-user "
                           "table; or an OEC (--oec), a weighted combination of metrics "
                           "by the delta method; treatment - control.")
    add_param(p, INPUTS, metavar="TABLE", doc="per-user table (CSV or TSV, header)")
    p.add_argument("--metric", help="the metric column (the numerator of a ratio for "
                   "--analysis delta); or --oec")
    p.add_argument("--oec", metavar="MEASURE=WEIGHT,...",
                   help="an overall evaluation criterion: weighted columns (their per-user "
                   "means) and ratios num/den of column sums, e.g. "
                   "'clicks/impressions=0.5,success=1', tested by the delta method")
    add_param(p, AB_ANALYSIS)
    p.add_argument("--denominator", metavar="COLUMN",
                   help="delta: the denominator column (e.g. impressions)")
    p.add_argument("--covariate", metavar="COLUMN",
                   help="cuped: the pre-period covariate column")
    add_param(p, AB_MISSING)
    _variant_options(p)
    p.add_argument("--control", default="control", help="control variant (default control)")
    p.add_argument("--treatment", default="treatment",
                   help="treatment variant (default treatment)")
    add_param(p, SIGNIFICANCE)
    _table(p)
    add_rules(p, Rule(("oec",), lambda args: args.metric is None,
                      "--oec and --metric: give one (the OEC names its measures)"),
              Rule(("analysis", "denominator", "covariate", "missing"),
                   lambda args: args.oec is None,
                   "{options} {applies} to --metric; --oec is its own delta-method test"),
              _metric_or_oec)
    p.set_defaults(func=run_analyze)

    add_command(actions, "srm", run_srm, _TABLE_INPUT, (SPLITS, {"doc": "planned shares"}),
                _variant_options, _table,
                help="sample-ratio mismatch: chi2 of users per variant",
                description="Pearson's chi2 test of the users per variant of TABLE against "
                "the planned shares.")
    add_command(actions, "size", run_size, (MIN_DIFF, {"required": True}),
                (USER_SD, {"required": True}), SIGNIFICANCE, AB_POWER, add_output,
                help="users per variant for a two-sample t-test",
                description="The smallest number of users per variant whose two-sample "
                "t-test detects --min-diff with --power.")


#: ``--splits NAME=SHARE,...``: the variants and their shares (:func:`_splits`).
SPLITS = Param("splits", Text(), DEFAULT_SPLITS, "variants and their shares",
               ("--splits",), "NAME=SHARE,...")
#: ``--variant-column COLUMN``: the column of a user's variant.
VARIANT_COLUMN = Param("variant_column", Text(), "variant", "the column naming every user's "
                       "variant", ("--variant-column",), "COLUMN")


def _splits_option(p: argparse.ArgumentParser, doc: str) -> None:
    """``--splits NAME=SHARE,...`` (:func:`_splits`)."""
    add_param(p, SPLITS, doc=doc)


def _table(p: argparse.ArgumentParser) -> None:
    """``--format`` and ``-o`` of a table read from ``TABLE`` (``analyze``, ``srm``)."""
    add_format(p, TABLE_FORMATS)
    add_output(p)
    declare_inputs(p, "inputs")


def _variant_options(p: argparse.ArgumentParser) -> None:
    """``--variant-column``: the column of a user's variant."""
    add_param(p, VARIANT_COLUMN)


def _no_action(args: argparse.Namespace) -> int:
    """``irscale online ab`` without an action: name them."""
    raise ParameterError("online ab: choose an action: assign, measures, analyze, srm, "
                         "size or summary (see 'irscale online ab --help')")


def run_assign(args: argparse.Namespace) -> int:
    """``online ab assign``: every user's variant."""
    splits = _splits(args.splits)
    from ..io.user_tables import read_users

    users = read_users(args.inputs)
    from ..online.abtest import assign

    variant = assign(users, salt=args.salt, splits=splits)
    return write_text(args, "".join(f"{u}\t{v}\n" for u, v in variant.items()))


def run_measures(args: argparse.Namespace) -> int:
    """``online ab measures``: every user's measures and variant."""
    check_options(args)
    splits = _splits(args.splits)
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
    table = user_measures(sessions, _with_source(owners["user"], args.users))
    if "time" in owners.columns:
        pages = owners.loc[owners.index.isin(sessions.index.astype(str))]
        table = table.join(loyalty_measures(pages, session_gap=args.session_gap))
    if pairs is None:
        variants = assign(table.index.to_numpy(), salt=args.salt, splits=splits)
    else:
        variants = pairs.build()
    return write_text(args, with_variants(table, variants, source=args.variants).to_csv())


def _metric_or_oec(args: argparse.Namespace) -> None:
    """``analyze`` tests a ``--metric`` or an ``--oec``: one of them is needed."""
    if args.metric is None and args.oec is None:
        raise ParameterError("analyze needs --metric COLUMN or --oec MEASURE=WEIGHT,...")


def run_analyze(args: argparse.Namespace) -> int:
    """``online ab analyze``: the A/B test of a metric, or of an OEC."""
    check_options(args)
    from ..io.user_tables import read_user_table

    table = read_user_table(args.inputs, labels=(args.variant_column,))
    from ..online.abtest import ab_test

    if args.oec is not None:
        from ..online.oec import oec_test

        result = oec_test(table, args.oec, variant=args.variant_column,
                          control=args.control, treatment=args.treatment, alpha=args.alpha)
    else:
        result = ab_test(table, args.metric, analysis=args.analysis,
                         denominator=args.denominator, covariate=args.covariate,
                         variant=args.variant_column, control=args.control,
                         treatment=args.treatment, alpha=args.alpha, missing=args.missing)
    return write_text(args, result.format(args.fmt) + "\n")


def _with_source(series, source: str):
    """``series`` naming its file (the message of a session without a user names it)."""
    series.attrs["source"] = source
    return series


def run_summary(args: argparse.Namespace) -> int:
    """``online ab summary``: every metric's mean over users with its interval."""
    from ..io.user_tables import read_user_table

    table = read_user_table(args.inputs, labels=(args.variant_column,))
    from ..online.engagement import engagement_summary

    variant = args.variant_column if args.variant_column in table.columns else None
    result = engagement_summary(table, args.metrics, variant=variant, alpha=args.alpha,
                                source=args.inputs, missing=args.missing)
    return write_text(args, result.format(args.fmt) + "\n")


def run_srm(args: argparse.Namespace) -> int:
    """``online ab srm``: the sample ratio mismatch test."""

    splits = _splits(args.splits)
    from ..io.user_tables import read_user_table

    table = read_user_table(args.inputs, labels=(args.variant_column,))
    from ..online.abtest import sample_ratio_mismatch

    if args.variant_column not in table.columns:
        raise InputError(f"no variant column {args.variant_column!r} (columns: "
                         f"{list(table.columns)})", source=args.inputs)
    result = sample_ratio_mismatch(table[args.variant_column], splits)
    return write_text(args, result.format(args.fmt) + "\n")


def run_size(args: argparse.Namespace) -> int:
    """``online ab size``: the users per variant for the power asked."""
    from ..online.abtest import ab_power, ab_sample_size

    n = ab_sample_size(args.min_diff, args.sd, alpha=args.alpha, power=args.power)
    achieved = ab_power(args.min_diff, args.sd, n, alpha=args.alpha)
    return write_text(args, f"users per variant\t{n}\npower\t{achieved:.4f}\n")

"""``irscale meta qpp``: query performance predictors: sARE, sMARE and the ANOVA of sARE
(:func:`irscale.stats.qpp_anova`; Faggioli et al. 2021). Usage: ``docs/cli.md``,
``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import SIGNIFICANCE
from ..io.formats import TABLE_FORMATS
from .meta_common import check
from .options import DIGITS_RULE, add_digits, add_format, add_option, add_output, add_param
from .outputs import declare_inputs, write_text
from .rules import Rule, add_rules


def add_parser(subparsers) -> None:
    """``meta qpp``: sARE, sMARE and the ANOVA of :func:`irscale.stats.qpp_anova`."""
    p = subparsers.add_parser(
        "qpp", help="query performance predictors: sARE, sMARE and their ANOVA (Faggioli et al. "
        "2021)",
        description="Rank the topics by every predictor's predictions and by the effectiveness of "
        "the same queries, score each topic by sARE (the scaled absolute rank error), and print "
        "every predictor's sMARE and the ANOVA of sARE over topics, predictors (systems, query "
        "variants) (irscale.stats.qpp_anova; docs/stats.md).")
    p.add_argument("--predictions", metavar="FILE", required=True,
                   help="CSV with the columns topic, predictor, value and optionally system "
                   "and variant: one prediction per row")
    p.add_argument("--observed", metavar="FILE", required=True,
                   help="CSV with the columns topic, value and the same optional columns: "
                   "the effectiveness (e.g. AP) of each query")
    add_option(p, "--model", default=None, metavar="FORMULA",
               doc="ANOVA formula over topic, predictor, system and variant, e.g. 'topic + "
               "predictor' (None: the main effects and the predictor's interactions with "
               "system and variant)")
    p.add_argument("--tukey", action="store_true",
                   help="also print Tukey's HSD of every pair of predictors")
    add_param(p, SIGNIFICANCE, doc="significance level of --tukey")
    add_format(p, TABLE_FORMATS)
    add_digits(p)
    add_output(p)
    declare_inputs(p, "--predictions", "--observed")
    add_rules(p, DIGITS_RULE, Rule(("alpha",), lambda args: args.tukey,
                                   "--alpha applies to --tukey (the only test decision)"))
    p.set_defaults(func=run_qpp)


def run_qpp(args: argparse.Namespace) -> int:
    """``meta qpp``: sMARE of every predictor and the ANOVA of sARE."""
    check(args, min_runs=None)

    from ..io.scores_csv import read_keyed_table
    from ..stats.names import QPP_OPTIONAL_FACTORS as optional

    predictions = read_keyed_table(args.predictions, ("topic", "predictor"), optional)
    observed = read_keyed_table(args.observed, ("topic",), optional)
    import pandas as pd

    from .. import stats

    result = stats.qpp_anova(
        pd.DataFrame({**predictions.keys, "value": predictions.values}),
        pd.DataFrame({**observed.keys, "value": observed.values}), model=args.model,
        labels=(predictions.source, observed.source))
    text = result.format(args.fmt, digits=args.digits)
    if args.tukey:
        text += "\n" + result.anova.tukey_hsd(args.alpha).format(args.fmt, digits=args.digits)
    return write_text(args, text)

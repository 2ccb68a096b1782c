"""``irscale meta qpp``: query performance predictors: sARE, sMARE and the ANOVA of sARE
(:func:`irscale.stats.qpp_anova`; Faggioli et al. 2021). Usage: ``docs/cli.md``,
``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import SIGNIFICANCE, Param, Switch, Text
from ..io.formats import TABLE_FORMATS
from ..stats.names import QPP_MODEL
from .meta_common import check
from .options import DIGITS_RULE, add_command, add_digits, add_format, add_output
from .outputs import write_text
from .rules import Rule

#: ``--predictions FILE`` and ``--observed FILE``: the two tables of
#: :func:`irscale.stats.qpp_anova`.
PREDICTIONS = Param("predictions", Text(), None, "CSV with the columns topic, predictor, value "
                    "and optionally system and variant: one prediction per row",
                    ("--predictions",), "FILE")
OBSERVED = Param("observed", Text(), None, "CSV with the columns topic, value and the same "
                 "optional columns: the effectiveness (e.g. AP) of each query", ("--observed",),
                 "FILE")
#: ``--tukey``: Tukey's HSD of the predictors too.
TUKEY = Param("tukey", Switch(), False, "also print Tukey's HSD of every pair of predictors",
              ("--tukey",))


def add_parser(subparsers) -> None:
    """``meta qpp``: sARE, sMARE and the ANOVA of :func:`irscale.stats.qpp_anova`."""
    add_command(
        subparsers, "qpp", run_qpp, (PREDICTIONS, {"required": True}),
        (OBSERVED, {"required": True}), QPP_MODEL, TUKEY,
        (SIGNIFICANCE, {"doc": "significance level of --tukey"}),
        lambda p: add_format(p, TABLE_FORMATS), add_digits, add_output,
        inputs=["--predictions", "--observed"],
        help="query performance predictors: sARE, sMARE and their ANOVA (Faggioli et al. "
        "2021)",
        description="Every predictor's sMARE and the ANOVA of sARE (the scaled absolute rank "
        "error of each topic) over topics and predictors; see docs/stats.md.",
        rules=[DIGITS_RULE, Rule(("alpha",), lambda args: args.tukey,
                                 "--alpha applies to --tukey (the only test decision)")])


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

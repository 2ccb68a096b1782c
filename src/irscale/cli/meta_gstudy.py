"""``irscale meta gstudy``: generalisability theory: the G-study, the D-study and the topics
a target needs (:func:`irscale.stats.gstudy`). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..errors import InputError
from ..meta.params import DSTUDY_FACET, DSTUDY_TOPICS, GSTUDY_TARGET
from .eval_diversity import intent_rules
from .main import given
from .meta_common import add_common, check, one_measure, render
from .options import add_option, add_param
from .outputs import declare_inputs, write_text
from .rules import Rule, add_rules
from .runargs import runs_rule


def _facet_scores(args: argparse.Namespace) -> bool:
    """Whether ``meta gstudy`` reads ``--facet-scores`` rather than a score matrix."""
    return given(args, "facet_scores")


def _reads_matrix(args: argparse.Namespace) -> bool:
    return not _facet_scores(args)


def add_parser(subparsers) -> None:
    """``meta gstudy``: the G-study and D-study of :func:`irscale.stats.gstudy`."""
    p = subparsers.add_parser(
        "gstudy", help="generalisability theory: variance components, Eρ² and Φ, D-study (Bodoff & "
        "Li 2007; Brennan 2001; Sakai 2016)",
        description="G-study of systems crossed with topics (and a second facet: query variants, "
        "assessors): the variance components by the ANOVA's expected mean squares, the "
        "generalisability coefficient Eρ² and the dependability Φ; then the D-study for --topics "
        "topic set sizes, and the topics a --target needs (irscale.stats.gstudy; docs/stats.md).")
    add_common(p, measure_help="measure (one; default: the one measure of the --scores file)")
    p.add_argument("--facet-scores", metavar="FILE",
                   help="topics x runs x levels of a second facet, a CSV with the header "
                   "topic,run,FACET,value (FACET as --facet), read instead of QRELS RUN... "
                   "or --scores (default: none)")
    add_option(p, "--facet", default="variant", metavar="NAME",
               doc="name of the second facet, the third column of --facet-scores")
    add_param(p, DSTUDY_TOPICS, many=True, item="a topic set size")
    add_param(p, DSTUDY_FACET, many=True, item="a number of levels")
    add_param(p, GSTUDY_TARGET)
    declare_inputs(p, "--facet-scores")
    add_rules(p, Rule(("facet", "n_facet"), _facet_scores, "{options} {applies} to "
                      "--facet-scores (the scores of a second facet)"),
              Rule(("inputs", "scores", "measures", "topic_column", "systems"), _reads_matrix,
                   "{options} {applies} to the topics x systems scores, not to --facet-scores "
                   "(which hold the scores of the G-study)",
                   spelt={"inputs": "QRELS RUN...", "measures": "-m"}),
              runs_rule("--facet-scores", _reads_matrix),
              *intent_rules("diversity measures of QRELS RUN..., not to --facet-scores",
                            _reads_matrix),
              Rule(("qrels_format",), lambda args: _reads_matrix(args)
                   or args.qrels_format == "auto", "--qrels-format applies to QRELS "
                   "RUN..., not to --facet-scores"))
    p.set_defaults(func=run_gstudy)


def run_gstudy(args: argparse.Namespace) -> int:
    """``meta gstudy``: the G-study, the D-study and (``--target``) the topics needed."""
    check(args, min_runs=None if _facet_scores(args) else 2)

    if args.facet_scores is not None:
        from ..io.scores_csv import read_shard_table

        read = read_shard_table(args.facet_scores, facet=args.facet)
    else:
        matrix = one_measure(args, "a G-study")  # (read before the statistics are imported)

    from .. import stats
    from ..stats.gtheory import COEFFICIENTS

    if args.facet_scores is not None:
        data = stats.ShardScores(read.values, read.topics, read.systems, read.shards)
        try:
            result = stats.gstudy(data, facet=args.facet)
        except InputError as error:  # the scores of the file: name it
            raise InputError(error.reason, source=read.source) from None
    else:
        result = stats.gstudy(matrix)
    parts = [result.format(args.fmt, digits=args.digits),
             result.dstudy(args.n_topics, args.n_facet).format(args.fmt, digits=args.digits)]
    if args.target is not None:
        import pandas as pd

        designs = [result.topics_for(args.target, c) for c in COEFFICIENTS]
        frame = pd.concat([d.to_frame() for d in designs], ignore_index=True)
        parts.append(render(frame[["design", "n", "achieved", "target"]], args,
                            "topics needed"))
    return write_text(args, "\n".join(parts))

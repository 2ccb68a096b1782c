"""``irscale meta gstudy``: :func:`irscale.stats.gstudy` (docs/stats.md)."""

from __future__ import annotations

import argparse

from ..core.params import InputFiles, Param
from ..errors import InputError
from ..stats.params import (
    DSTUDY,
    DSTUDY_FACET,
    DSTUDY_TOPICS,
    GSTUDY,
    GSTUDY_FACET,
    GSTUDY_TARGET,
    TOPICS_FOR,
)
from .eval_options import intent_rules
from .inputs import check_inputs
from .meta_common import add_analysis, one_measure, render
from .rules import Rule, given
from .runargs import runs_rule

#: ``--facet-scores FILE``: the scores of a second facet, read instead of a score matrix.
FACET_SCORES = Param("facet_scores", InputFiles(), None, "topics x runs x levels of a second "
                     "facet, a CSV with the header topic,run,FACET,value (FACET as --facet), read "
                     "instead of QRELS RUN... or --scores", ("--facet-scores",), "FILE",
                     unset="none")


def _reads_matrix(args: argparse.Namespace) -> bool:
    """Whether ``meta gstudy`` reads a score matrix, not ``--facet-scores``."""
    return not given(args, "facet_scores")


def add_parser(subparsers) -> None:
    """``meta gstudy``."""
    add_analysis(
        subparsers, "gstudy", run_gstudy, FACET_SCORES, GSTUDY_FACET,
        DSTUDY_TOPICS, DSTUDY_FACET, GSTUDY_TARGET, binding=(GSTUDY, DSTUDY, TOPICS_FOR),
        example="--scores ap.csv",
        min_runs=None, measure_help="measure (one; default: the one measure of the --scores "
        "file)",
        help="generalisability theory: variance components, Eρ² and Φ, D-study (Bodoff & Li "
        "2007; Brennan 2001; Sakai 2016)",
        description="G-study, D-study and the topics a --target needs. See docs/stats.md.",
        rules=(Rule(("facet", "n_facet"), lambda args: not _reads_matrix(args),
                    "{options} {applies} to --facet-scores (the scores of a second facet)"),
               Rule(("inputs", "scores", "measures", "topic_column", "systems"),
                    _reads_matrix, "{options} {applies} to the topics x systems scores, not "
                    "to --facet-scores (which hold the scores of the G-study)",
                    spelt={"inputs": "QRELS RUN...", "measures": "-m"}),
               runs_rule("--facet-scores", _reads_matrix),
               *intent_rules("diversity measures of QRELS RUN..., not to --facet-scores",
                             _reads_matrix),
               Rule(("qrels_format",), lambda args: _reads_matrix(args)
                    or args.qrels_format == "auto", "--qrels-format applies to QRELS "
                    "RUN..., not to --facet-scores")))


def run_gstudy(args: argparse.Namespace) -> str:
    """``meta gstudy``: the G-study, the D-study and (``--target``) the topics needed."""
    if _reads_matrix(args):
        check_inputs(args)
        matrix = one_measure(args, "a G-study")  # (read before the statistics are imported)
    else:
        from ..io.scores_csv import read_shard_table

        read = read_shard_table(args.facet_scores, facet=args.facet,
                                required="the G-study needs a score in every cell")
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
    return "\n".join(parts)

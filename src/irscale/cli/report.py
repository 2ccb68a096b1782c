"""``irscale report``: the experiment report of a set of runs, one self-contained HTML page
or its tables in LaTeX or Markdown (usage: ``docs/cli.md``, ``docs/report.md``)."""

from __future__ import annotations

import argparse
import shlex

from ..collections.params import AUTO_DESIGN
from ..core.params import RESAMPLES, RNG_SEED, SCALE_DEPTH, SIGNIFICANCE
from ..errors import ParameterError
from ..io.formats import REPORT_FORMATS
from ..io.sources import expands
from ..stats.names import MULTIPLE_CORRECTION
from .common_params import MEASURES, QRELS, RUNS
from .eval import TABLE_TESTS
from .inputs import check_measure_names
from .main import given
from .options import add_digits, add_format, add_output, add_param, add_progress, wants_progress
from .outputs import declare_inputs, write_text
from .rules import Declared, Rule, add_rules, check_options, each
from .runargs import add_names, named_runs, read_inputs


def add_parser(subparsers) -> None:

    """Register ``irscale report`` and the rules of its options."""
    parser = subparsers.add_parser(
        "report",
        help="the experiment report: one HTML page (or LaTeX/Markdown tables) of runs",
        description="Evaluate runs and write the experiment report: runs x measures with "
        "significance against a baseline, two-way ANOVA and Tukey HSD groups, per-topic "
        "and precision-recall plots, robustness (interval scale, discriminative power) and "
        "the commands and versions that produced it.",
    )
    add_param(parser, QRELS, metavar="QRELS", doc="qrels file")
    add_param(parser, RUNS, nargs="+", metavar="RUN",
              doc="run files (at least two), a folder of them or a quoted glob "
              "pattern ('runs/*.gz')")
    add_param(parser, MEASURES, action="append",
              doc="measure (repeatable; default map, P_10, ndcg_cut_10)")
    add_names(parser)
    parser.add_argument("--baseline", metavar="RUN",
                        help="mark runs significantly better/worse than this one and count "
                        "the topics they win, tie and lose against it (its name, or its "
                        "file's path, name or stem)")
    parser.add_argument("--test", default="t", choices=TABLE_TESTS,
                        help="two-system test against --baseline (default t)")
    add_param(parser, MULTIPLE_CORRECTION, doc="correction over the runs x measures compared "
              "with --baseline")
    add_param(parser, SIGNIFICANCE, doc="significance level, also of every interval")
    parser.add_argument("--dp", action="store_true",
                        help="add discriminative power (paired bootstrap and randomised "
                        "Tukey HSD)")
    add_param(parser, RESAMPLES, doc="samples of --dp", default=1000)
    add_param(parser, RNG_SEED, doc="seed of --dp (the report is reproducible)", default=0)
    add_param(parser, SCALE_DEPTH)
    parser.add_argument("--no-robustness", action="store_true",
                        help="leave out the robustness panel")
    parser.add_argument("--automatic", metavar="AUTO_QRELS",
                        help="automatic judgments of every topic: QRELS are then the human "
                        "judgments of a sample (--design), and the report gets a section on "
                        "the automatic judgments (agreement, corrected means, conclusions "
                        "that change)")
    add_param(parser, AUTO_DESIGN)
    parser.add_argument("--bounds", action="store_true",
                        help="add each mean's bounds under the unjudged documents the runs "
                        "retrieve and the pairs of runs the judgments do not order")
    add_format(parser, REPORT_FORMATS, default="html", doc="html: one self-contained page; "
               "latex or markdown: the tables")
    add_digits(parser)
    parser.add_argument("--title", help="title of the HTML page")
    add_progress(parser)
    add_output(parser, what="report")
    declare_inputs(parser, "qrels", "runs")
    add_rules(parser, *RULES)
    parser.set_defaults(func=run)


def _runs(args: argparse.Namespace) -> None:
    """A report compares runs: two at least (a folder may hold several)."""
    if len(args.runs) < 2 and not expands(args.runs[0]):
        raise ParameterError("a report compares runs: give a qrels file and at least two "
                             "run files (or a folder of them)")


#: When the options apply, in the order they are checked, before any input is read.
RULES: tuple[Declared, ...] = (
    *each(("test", "correction"), lambda args: args.baseline is not None,
          "{options} applies to the comparison with --baseline: name a baseline run",
          {"test": "--test", "correction": "--correction"}),
    *each(("samples", "seed"), lambda args: args.dp,
          "{options} applies to --dp (discriminative power)",
          {"samples": "-B/--samples", "seed": "--seed"}),
    Rule(("scale_depth",), lambda args: not args.no_robustness, "--scale-depth applies to the "
         "robustness panel, which --no-robustness leaves out"),
    Rule(("title",), lambda args: args.fmt == "html", "--title applies to --format html"),
    Rule(("design",), lambda args: args.automatic is not None,
         "--design applies to --automatic (how QRELS, the human sample, were drawn)"),
    Rule(("design",), lambda args: args.design != "inclusion",
         "--design inclusion reads sampled judgments (topic iter docno rel prob), not the "
         "qrels a report evaluates: use irscale labels auto --design inclusion"),
    _runs,
)


def command_line(args: argparse.Namespace) -> str:
    """The command as parsed, every option given spelt out (the reproducibility block):
    it makes the same report from the same files."""
    words = ["irscale", "report", args.qrels, *args.runs]
    for measure in args.measures or ():
        words += ["-m", measure]
    options = (("--names", ",".join(args.names) if args.names else None),
               ("--baseline", args.baseline),
               *((flag, getattr(args, dest)) for flag, dest in (
                   ("--test", "test"), ("--correction", "correction"), ("--alpha", "alpha"),
                   ("-B", "samples"), ("--seed", "seed"), ("--scale-depth", "scale_depth"),
                   ("--digits", "digits")) if given(args, dest)),
               ("--format", None if args.fmt == "html" else args.fmt),
               ("--automatic", args.automatic),
               ("--design", args.design if given(args, "design") else None),
               ("--title", args.title), ("-o", None if args.output == "-" else args.output))
    for option, value in options:
        if value is not None:
            words += [option, str(value)]
    words += [flag for flag, on in (("--dp", args.dp), ("--no-robustness", args.no_robustness),
                                    ("--bounds", args.bounds)) if on]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    """``irscale report``: the tables and panels of the runs, as ``--format`` says."""
    check_options(args)
    check_measure_names(args.measures)
    # the inputs first: a malformed file is reported before the analyses are imported
    qrels, runs = read_inputs(args.qrels, named_runs(args.runs, args.names))
    from ..report import DEFAULT_MEASURES, build_report, format_tables, render_html

    report = build_report(
        qrels, runs, args.measures or DEFAULT_MEASURES,
        baseline=args.baseline, test=args.test, correction=args.correction, alpha=args.alpha,
        dp=args.dp, dp_samples=args.samples, seed=args.seed, scale_depth=args.scale_depth,
        robustness=not args.no_robustness, automatic=args.automatic, design=args.design,
        bounds=args.bounds,
        command=command_line(args),
        input_files=[args.qrels, *args.runs, *([args.automatic] if args.automatic else [])],
        progress=wants_progress(args))
    if args.fmt == "html":
        title = {} if args.title is None else {"title": args.title}
        text = render_html(report, digits=args.digits, **title)
    else:
        text = format_tables(report, args.fmt, digits=args.digits)
    return write_text(args, text)

"""``irscale fuse``: several runs fused into one TREC run (:mod:`irscale.fusion`; usage:
``docs/cli.md``, methods: ``docs/fusion.md``)."""

from __future__ import annotations

import argparse

from ..core.params import MEMORY_LIMIT
from ..errors import ParameterError
from ..fusion.params import (
    FUSION_K,
    FUSION_METHOD,
    FUSION_METHOD_PARAMS,
    FUSION_NORM,
    FUSION_STEP,
    FUSION_WEIGHT,
    FUSION_WEIGHTS,
    check_fusion,
    check_fusion_params,
    check_training,
)
from .common_params import QRELS_OPTION, RUNS
from .main import given
from .options import add_output, add_param, add_progress, wants_progress
from .outputs import declare_inputs, declare_outputs, open_output
from .rules import Rule, add_rules, check_options


def add_parser(subparsers) -> None:
    """Register ``irscale fuse``."""
    parser = subparsers.add_parser(
        "fuse", help="fuse runs into one (CombSUM, CombMNZ, RRF, BordaFuse, ProbFuse ...)",
        description="Fuse two runs or more into one TREC run, as ranx's fuse does: a score "
        "method (combsum, combmnz, combmax, combmin, combmed, combanz, wsum, combgmnz, "
        "mixed, segfuse) after a score normalisation per run and topic, or a rank method "
        "(rrf, isr, log-isr, logn-isr, bordafuse, w-bordafuse, condorcet, w-condorcet, rbc, "
        "probfuse, slidefuse, posfuse, mapfuse, bayesfuse). The supervised methods "
        "(probfuse, segfuse, slidefuse, posfuse, mapfuse, bayesfuse) learn on "
        "--train-qrels and --train-runs. With --optimize, the weights of wsum are searched "
        "on a grid for the best mean of --measure on the --qrels topics. The run is "
        "written whole once complete, never over an input.")
    add_param(parser, RUNS, nargs="+", metavar="RUN",
              doc="run files (TREC, plain or gzip, or Parquet), folders or glob "
              "patterns; weights follow this order")
    add_param(parser, FUSION_METHOD, required=True)
    add_param(parser, FUSION_NORM)
    add_param(parser, FUSION_K)
    add_param(parser, FUSION_WEIGHTS, many=True, domain=FUSION_WEIGHT, item="a weight",
              unique=False)
    for _, param in FUSION_METHOD_PARAMS.values():  # None: not given (another method's)
        add_param(parser, param, default=None,
                  unset=None if param.default is None else str(param.default))
    parser.add_argument("--train-qrels", metavar="FILE",
                        help="supervised methods: the qrels of the training topics")
    parser.add_argument("--train-runs", nargs="+", metavar="RUN",
                        help="supervised methods: the same systems' runs of the training "
                        "topics, one per RUN, in the same order")
    parser.add_argument("--optimize", action="store_true",
                        help="wsum: search the weights on a grid for the best mean of "
                        "--measure on --qrels (the training topics)")
    add_param(parser, QRELS_OPTION, metavar="FILE", doc="--optimize: the training qrels")
    parser.add_argument("--measure", default="AP", metavar="MEASURE",
                        help="--optimize: the measure maximised, one value per topic "
                        "(default: AP)")
    add_param(parser, FUSION_STEP)
    add_param(parser, MEMORY_LIMIT, doc="--optimize: refuse, with the estimate, a grid of "
              "weights whose estimated memory exceeds SIZE (2G, 500M; powers of 1024)")
    add_progress(parser)
    parser.add_argument("--weights-out", metavar="FILE",
                        help="--optimize: write every weight vector tried and its mean "
                        "(CSV) to FILE")
    parser.add_argument("--run-tag", metavar="TAG",
                        help="the run tag of the output's lines (default: the method)")
    add_output(parser, what="fused run")
    declare_inputs(parser, "runs", "--qrels", "--train-qrels", "--train-runs")
    declare_outputs(parser, "--weights-out")
    optimizing = "{options} {applies} to --optimize only"
    add_rules(parser,
              Rule(("qrels", "measure", "step", "weights_out", "max_memory"),
                   lambda a: a.optimize,
                   optimizing),
              Rule(("weights",), lambda a: not a.optimize,
                   "--weights and --optimize: the weights are given or searched, not both"),
              _optimize_needs)
    parser.set_defaults(func=run)


def _optimize_needs(args: argparse.Namespace) -> None:
    """The fusion's options checked together (:func:`~irscale.fusion.params.check_fusion`);
    ``--optimize`` searches wsum's weights on ``--qrels``."""
    method, _, _, _ = check_fusion(args.method, args.norm, args.k, args.weights)
    check_fusion_params(method, {name: getattr(args, name) for name in FUSION_METHOD_PARAMS})
    check_training(method, args.train_qrels, args.train_runs)
    if not args.optimize:
        return
    if FUSION_METHOD.check(args.method) != "wsum":
        raise ParameterError(f"--optimize searches the weights of wsum, not of --method "
                             f"{args.method}")
    if args.qrels is None:
        raise ParameterError("--optimize needs --qrels FILE (the training topics)")


def run(args: argparse.Namespace) -> int:
    """``irscale fuse``: the fused run, written whole to ``-o``."""
    check_options(args)
    from ..io.trec_write import ranked_run_text

    runs = list(args.runs)
    if args.optimize:
        from ..fusion import optimize_fusion

        found = optimize_fusion(args.qrels, runs, args.measure, norm=args.norm,
                                step=args.step, name=args.run_tag,
                                max_memory=args.max_memory, progress=wants_progress(args))
        fused = found.run
        if given(args, "weights_out"):
            from ..io.files import atomic_output

            with atomic_output(args.weights_out, "w", force=args.force) as stream:
                found.to_frame().to_csv(stream, index=False)
    else:
        from ..fusion import fuse

        params = {name: getattr(args, name) for name in FUSION_METHOD_PARAMS}
        fused = fuse(runs, args.method, norm=args.norm, k=args.k, weights=args.weights,
                     train_qrels=args.train_qrels, train_runs=args.train_runs,
                     name=args.run_tag, **params)
    with open_output(args) as stream:
        stream.write(ranked_run_text(fused, args.run_tag or fused.name))
    return 0

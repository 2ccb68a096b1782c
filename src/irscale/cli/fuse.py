"""``irscale fuse``: several runs fused into one TREC run (:mod:`irscale.fusion`; usage:
``docs/cli.md``, methods: ``docs/fusion.md``)."""

from __future__ import annotations

import argparse

from ..core.params import MEMORY_LIMIT, OutputPath, Param, Switch
from ..errors import ParameterError
from ..fusion.params import (
    FUSE,
    FUSION_K,
    FUSION_MEASURE,
    FUSION_METHOD,
    FUSION_METHOD_PARAMS,
    FUSION_NAME,
    FUSION_NORM,
    FUSION_STEP,
    FUSION_TRAIN_QRELS,
    FUSION_TRAIN_RUNS,
    FUSION_WEIGHT,
    FUSION_WEIGHTS,
)
from .common_params import QRELS_OPTION, RUNS
from .main import SUBCOMMANDS
from .options import add_command, add_output, add_progress, wants_progress
from .outputs import Done, Output
from .rules import Rule

#: ``--optimize``: wsum's weights searched on a grid.
OPTIMIZE = Param("optimize", Switch(), False, "wsum: search the weights on a grid for the "
                 "best mean of --measure on --qrels (the training topics)", ("--optimize",))
#: ``--weights-out FILE``: every weight vector tried.
WEIGHTS_OUT = Param("weights_out", OutputPath(), None, "--optimize: write every weight vector "
                    "tried and its mean (CSV) to FILE", ("--weights-out",), "FILE")


def add_parser(subparsers) -> None:
    """Register ``irscale fuse``."""
    add_command(
        subparsers, "fuse", run,
        (RUNS, {"nargs": "+", "metavar": "RUN", "doc": "run files (TREC, plain or gzip, or "
                "Parquet), folders or glob patterns; weights follow this order"}),
        (FUSION_METHOD, {"required": True}), FUSION_NORM, FUSION_K,
        (FUSION_WEIGHTS, {"many": True, "domain": FUSION_WEIGHT, "item": "a weight",
                          "unique": False}),
        *((param, {"default": None, "unset": None if param.default is None
                   else str(param.default)})  # None: not given (another method's)
          for _, param in FUSION_METHOD_PARAMS.values()),
        FUSION_TRAIN_QRELS, (FUSION_TRAIN_RUNS, {"nargs": "+"}), OPTIMIZE,
        (QRELS_OPTION, {"doc": "--optimize: the training qrels"}), FUSION_MEASURE,
        FUSION_STEP, (MEMORY_LIMIT, {"doc": "--optimize: refuse, with the estimate, a grid of "
                                     "weights whose estimated memory exceeds SIZE (2G, 500M; "
                                     "powers of 1024)"}),
        add_progress, WEIGHTS_OUT, FUSION_NAME, lambda p: add_output(p, what="fused run"),
        rules=(Rule(("qrels", "measure", "step", "weights_out", "max_memory"),
                    lambda args: args.optimize, "{options} {applies} to --optimize only"),
               _optimize_needs),
        example="a.run b.run --method wsum --weights 0.5,0.5",
        help=SUBCOMMANDS["fuse"],
        description="Fuse two runs or more into one TREC run, as ranx's fuse does, by a "
        "score or a rank method; --optimize searches wsum's weights. See docs/fusion.md.",
        binding=FUSE)


def _optimize_needs(args: argparse.Namespace) -> None:
    """``--optimize`` searches wsum's weights on ``--qrels`` (which options apply to the
    method is the binding's: :data:`~irscale.fusion.params.FUSE`)."""
    if args.optimize and args.weights is not None:
        raise ParameterError("--weights and --optimize: the weights are given or searched, "
                             "not both")
    if args.optimize and args.method != "wsum":
        raise ParameterError(f"--optimize searches the weights of wsum, not of --method "
                             f"{args.method}")
    if args.optimize and args.qrels is None:
        raise ParameterError("--optimize needs --qrels FILE (the training topics)")


def run(args: argparse.Namespace) -> Done:
    """``irscale fuse``: the fused run, written whole to ``-o``."""
    from ..io.trec_write import ranked_run_text

    if args.optimize:
        from ..fusion import optimize_fusion

        found = optimize_fusion(args.qrels, list(args.runs), args.measure, norm=args.norm,
                                step=args.step, name=args.run_tag,
                                max_memory=args.max_memory, progress=wants_progress(args))
        fused = found.run
        side = [] if args.weights_out is None else [
            Output(found.to_frame().to_csv(index=False), args.weights_out)]
    else:
        from ..fusion import fuse

        fused = fuse(list(args.runs), args.method, norm=args.norm, k=args.k,
                     weights=args.weights, train_qrels=args.train_qrels,
                     train_runs=args.train_runs, name=args.run_tag,
                     **{name: getattr(args, name) for name in FUSION_METHOD_PARAMS})
        side = []
    return [*side, Output(ranked_run_text(fused, args.run_tag or fused.name))]

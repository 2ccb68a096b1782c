"""``irscale meta reproduce``: reproducibility measures of a reproduced experiment: ER, ΔRI,
RMSE, τ and RBO (Breuer et al. 2020). Usage: ``docs/cli.md``, ``docs/meta.md``."""

from __future__ import annotations

import argparse

from ..core.params import RNG_SEED, Param, Text
from ..errors import ParameterError
from ..meta.params import (
    EFFECT_SAMPLES,
    RANKING_AGREEMENT,
    REPRO_DEPTH,
    REPRO_MARGIN,
    REPRO_RBO_P,
)
from .inputs import load_matrix, qrels_and_runs
from .intervals import add_interval_options, interval_arguments
from .meta_common import add_analysis, measure_names, render
from .options import wants_progress
from .outputs import Done
from .rules import Rule

#: ``--original`` and ``--reproduced``: the baseline and advanced systems of each experiment.
ORIGINAL, REPRODUCED = (
    Param(name, Text(), None, f"the {what} baseline and advanced systems (runs)",
          (f"--{name}",), "BASELINE,ADVANCED", label=f"--{name}")
    for name, what in (("original", "original experiment's"), ("reproduced", "reproduced")))


def _runs_given(args: argparse.Namespace) -> bool:
    """Whether the scores come from QRELS RUN... (not ``--scores``): the runs' document
    orderings can then be compared."""
    return not getattr(args, "scores", None)


def add_parser(subparsers) -> None:
    """``meta reproduce``: ER, ΔRI, RMSE, τ and RBO of a reproduced experiment."""
    pair = {"many": True, "unique": False, "required": True}
    add_analysis(
        subparsers, "reproduce", run_reproduce, (ORIGINAL, pair), (REPRODUCED, pair),
        REPRO_DEPTH, REPRO_RBO_P, REPRO_MARGIN,
        (EFFECT_SAMPLES, {"default": None, "unset": "no intervals of ER and delta RI"}),
        (RNG_SEED, {"doc": "seed of --effect-samples"}),
        lambda p: add_interval_options(p, "each run's mean, beside it", alpha=True),
        systems=False,
        example="qrels.txt a.run b.run c.run -m map --original teamA_r1,teamB_r1 "
        "--reproduced teamC_r2,teamB_r1",
        help="reproducibility of an experiment: ER, ΔRI, RMSE, τ and RBO (Breuer et al. 2020)",
        description="An original experiment (baseline and advanced run) against its "
        "reproduction: Effect Ratio, Delta Relative Improvement, per-topic RMSE, t-tests and, "
        "with QRELS RUN..., τ and RBO of the document orderings; see docs/meta.md.",
        binding=RANKING_AGREEMENT,
        rules=[Rule(("depth", "p"), _runs_given, "{options} {applies} to the document "
                    "orderings of QRELS RUN..., which --scores files do not hold"),
               Rule(("seed",), lambda args: args.samples is not None, "--seed applies to "
                    "--effect-samples (the bootstrap of ER and delta RI)")])


def _pair(args: argparse.Namespace, option: str) -> list[str]:
    """The two systems of ``--original`` or ``--reproduced``."""
    names = list(getattr(args, option))
    if len(names) != 2:
        raise ParameterError(f"--{option} names two systems, the baseline and the advanced "
                             f"one, got {len(names)}: {','.join(names)}")
    return names


def run_reproduce(args: argparse.Namespace) -> Done:
    """``meta reproduce``: reproducibility measures (Breuer et al. 2020)."""
    _pair(args, "original"), _pair(args, "reproduced")  # two systems each, before any work
    matrix = load_matrix(args)  # with runs, each name found among them (a run's name or file)
    from .. import meta
    from ..io.naming import find_names
    from ..meta.common import interval_note

    roles = [*find_names(_pair(args, "original"), matrix.systems, "--original"),
             *find_names(_pair(args, "reproduced"), matrix.systems, "--reproduced")]
    scores = matrix.subset(measures=measure_names(matrix, args))
    result = meta.reproducibility(*(scores.subset(systems=[r]) for r in roles),
                                  margin=args.margin)
    frame = result.to_frame(interval=args.ci, alpha=args.alpha, **interval_arguments(args))
    title = repr(result) + interval_note("<run>_low, <run>_high", args.ci, args.alpha, "topics")
    if args.samples is not None:
        effects = result.effect_intervals(args.samples, alpha=args.alpha, rng=args.seed,
                                          progress=wants_progress(args))
        for column in ("ER_low", "ER_high", "delta_RI_low", "delta_RI_high"):
            frame[column] = effects[column].to_numpy()
        title += (f"; ER_low, ER_high, delta_RI_low, delta_RI_high: percentile bootstrap over "
                  f"topics, B = {args.samples}")
    if _runs_given(args):  # the orderings of each run pair: the same on every measure's row
        from ..io.sources import read_runs

        _, paths = qrels_and_runs(args)
        runs = {run.name: run for run in read_runs(list(paths), names=args.names or "file")}
        for role, a, b in (("baseline", roles[0], roles[2]), ("advanced", roles[1], roles[3])):
            agreement = meta.ranking_agreement(runs[a], runs[b], depth=args.depth, p=args.p)
            frame[f"tau_{role}"], frame[f"RBO_{role}"] = agreement.mean
            frame[f"KTU_{role}"] = agreement.ktu
        title += (f"; tau, RBO (p = {args.p:g}; repro_eval's default is 0.95) and KTU "
                  f"(repro_eval's): document orderings at depth {args.depth}, mean over "
                  "topics")
    if args.fmt not in ("csv", "json"):  # an undefined ratio is said, never shown as nan
        frame = frame.astype(object).where(frame.notna(), "undefined")
    return render(frame, args, title)

"""``irscale meta split``: topic-splitting consistency (Ferro & Sanderson 2022, §3)."""

from __future__ import annotations

import argparse
from typing import Any

from ..core.params import RESAMPLES, RNG_SEED, SIGNIFICANCE
from ..meta.params import SPLIT, SPLIT_METRIC, SPLIT_SHARDS, split_procedures
from ..stats.names import (
    RESAMPLING,
    SHARD_EMPTY,
    SHARD_MODEL_NAMES,
    SPLIT_CROSS,
    SPLIT_MODELS,
    resampling_procedures,
)
from .meta_common import (
    SIZES,
    add_analysis,
    add_plot,
    one_measure,
    render,
    resampling_options,
    shard_scores,
)
from .options import add_scheduler, scheduler, wants_progress
from .outputs import Done, Output, plot_output
from .rules import Default, Rule


def _study_names(args: argparse.Namespace) -> list[str]:
    """The procedures of ``meta split``: ``--models``, then both of every ``--cross``."""
    return [*args.models, *(name for pair in args.cross for name in pair)]


def _shard_models(args: argparse.Namespace) -> list[str]:
    """The shard models among the procedures of ``meta split`` (derived by the binding's
    :func:`~irscale.meta.params.split_procedures`, each once)."""
    return [name for name in args.procedures if name in SHARD_MODEL_NAMES]


def _studied(args: argparse.Namespace) -> str:
    """The procedures of ``meta split``, each once, for a message."""
    return ", ".join(dict.fromkeys(_study_names(args)))


def add_parser(subparsers) -> None:
    """``meta split``."""
    add_analysis(
        subparsers, "split", run_split, *SIZES,
        (SPLIT_MODELS, {"many": True, "unique": False}),
        (SPLIT_CROSS, {"many": True, "unique": False}), SPLIT_METRIC, SIGNIFICANCE, RNG_SEED,
        (RESAMPLES, {"doc": "resamples of the resampling procedures among --models and "
                     "--cross"}), SPLIT_SHARDS,
        (SHARD_EMPTY, {"doc": "scores of a topic without relevant documents in a shard "
                       "(undefined) in the shard models: error, zero, drop-topic, drop-shard "
                       "or missing"}),
        add_plot("write the metric (default τ) against the split size to FILE, PNG/SVG"),
        lambda p: add_scheduler(p, "the repetitions"), standardise=True,
        example="--scores ap.csv --sizes 2,3 --repetitions 3 --seed 1",
        help="topic-splitting consistency (Ferro & Sanderson 2022, "
        "§3)", binding=SPLIT,
        ahead=(Default("procedures", lambda args: split_procedures(args.models, args.cross)),),
        sources={"procedures": ("models", "cross"), "shard_scores": ("shard_scores", "empty")},
        rules=(Rule(("alpha",), lambda args: args.metric not in ("tau", "tau_sd"),
                    "--alpha applies to the significance metrics; --metric {metric} "
                    "(Kendall's τ between the halves' rankings) uses no test decision"),
               Rule(("models", "cross"), lambda args: not _shard_models(args)
                    or args.shard_scores is not None,
                    lambda args: f"{_shard_models(args)[0]} is a shard model: it needs topics "
                    "× systems × shards scores: give them with --shard-scores FILE (irscale "
                    "pool shards --shard-scores writes them)"),
               Rule(("samples",), lambda args: bool(resampling_procedures(_study_names(args))),
                    lambda args: f"-B/--samples applies to the resampling procedures "
                    f"({RESAMPLING}) among --models and --cross, and the study has none "
                    f"({_studied(args)})")))


def run_split(args: argparse.Namespace) -> Done:
    """``meta split``: topic-splitting consistency (Ferro & Sanderson 2022, §3)."""
    from .. import meta

    table = one_measure(args, "topic splitting")
    shards = None
    options = resampling_options(args, _study_names(args))
    if args.shard_scores is not None:
        shards = shard_scores(args.shard_scores)
        options |= {name: {"empty": args.empty} for name in _shard_models(args)}
    with scheduler(args) as executor:
        study = meta.split_study(table, args.sizes, args.repetitions, models=args.models,
                                 cross=args.cross, shards=shards, alpha=args.alpha,
                                 rng=args.seed, progress=wants_progress(args),
                                 options=options or None, executor=executor)
    plots = [] if not args.plot else \
        [plot_output(meta.plot_split_metric(study, args.metric or "tau"), args.plot)]
    return [*plots, Output(_split_text(args, study))]


def _split_text(args: argparse.Namespace, study: Any) -> str:
    """The tables of ``meta split``: ``--metric``'s, or τ with the agreement measures."""
    if args.metric:
        return render(study.table(args.metric).reset_index(), args,
                      f"{args.metric} by topic-set size ({study!r})")
    return "\n".join([
        render(study.table("tau").reset_index(), args, f"Kendall τ between halves ({study!r})"),
        render(study.agreement_table(), args,
               f"AA, AD, MA, MD and Bias at {max(args.sizes)} topics")])

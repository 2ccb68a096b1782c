"""``irscale meta simulate``: :func:`irscale.meta.simulation_study` (docs/scale-out.md)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, cast

from ..core.binding import Choice
from ..core.params import (
    MEMORY_LIMIT,
    RESAMPLES,
    RNG_SEED,
    SIGNIFICANCE,
    Names,
    Param,
)
from ..errors import ParameterError
from ..meta import params as mp
from ..stats.names import (
    RESAMPLING_TESTS,
    SIMULATED_CORRECTIONS,
    SIMULATED_TESTS,
    resampling_procedures,
)
from .eval_options import intent_rules
from .inputs import check_inputs, input_paths
from .meta_common import add_analysis, one_measure, render, resampling_options
from .options import add_scheduler, scheduler, wants_progress
from .rules import Default, Rule
from .runargs import runs_rule

if TYPE_CHECKING:  # pragma: no cover - the parser imports no analysis module
    from ..meta import BootstrapModel, CopulaModel, NormalModel, RunsModel

#: Models of ``meta simulate``: NormalModel, BootstrapModel, CopulaModel, RunsModel.
SIMULATION_MODELS = ("normal", "bootstrap", "copula", "runs")


def _bootstrap(args: argparse.Namespace) -> bool:
    """Whether ``meta simulate`` reads a matrix (``--model bootstrap`` or ``copula``)."""
    return args.model in ("bootstrap", "copula")


#: ``meta simulate --model normal`` reads no runs and ``--model runs`` draws them: the
#: options of runs, of diversity qrels and ``--qrels-format`` are refused.
NORMAL_ONLY = (
    runs_rule("--model {model} (no runs are read)", _bootstrap),
    *intent_rules("diversity measures of --model bootstrap or copula, not to --model "
                  "{model}", _bootstrap),
    Rule(("qrels_format",), lambda args: _bootstrap(args) or args.qrels_format == "auto",
         "--qrels-format applies to the QRELS of --model bootstrap or copula, not to "
         "--model {model}"),
)


def _normal_systems(args: argparse.Namespace) -> int | None:
    """The systems of the normal model: one per ``--effects``, else the API's default
    (the bootstrap and copula models take every system of their matrix)."""
    if args.model != "normal":
        return None
    return len(args.effects) if args.effects else cast(int, mp.NORMAL_SYSTEMS.default)


def _output_outside_checkpoint(args: argparse.Namespace) -> None:
    """``-o`` outside ``--checkpoint``, whose files the study writes."""
    if args.checkpoint is not None and args.output != "-" and \
            os.path.dirname(os.path.realpath(args.output)) == os.path.realpath(args.checkpoint):
        raise ParameterError(f"-o {args.output} lies in --checkpoint {args.checkpoint}, whose "
                             "files the study writes: write it outside")


#: ``--model``: the model the matrices are drawn from.
MODEL = Param("model", Names("model", SIMULATION_MODELS), None, "normal (system means plus "
              "normal topic effects and errors), bootstrap or copula (of a real matrix) or "
              "runs (drawn from QRELS); see docs/scale-out.md", ("--model",))


#: ``--topics``: the topics of the normal and copula models' matrices (one number), or the
#: sizes of the bootstrap model's topic subsets (several): each model's parameter checks
#: what it takes (:data:`MODELS`), so several are refused but for ``--model bootstrap``.
TOPICS = Param("topics", mp.TopicCounts(), None, "normal and copula models: topics per "
               "matrix; bootstrap model: the sizes N,N,... of topic subsets drawn without "
               "replacement, each test's conclusions scored against the full set's",
               ("--topics",), "N[,N...]", unset=f"normal: {mp.NORMAL_TOPICS.default}; "
               "copula: the matrix's topics; bootstrap: the matrix's topics drawn with "
               "replacement", cost=mp.NORMAL_TOPICS.cost)


#: The function each ``--model`` calls to make its model, by its binding
#: (:class:`~irscale.core.binding.Choice`): an option is refused where the chosen function
#: does not take it (``--effects`` with ``--model bootstrap``), and the chosen function's
#: rules apply (``--equal`` without ``--null``; ``--null`` without ``--topics`` for the
#: bootstrap model's topic subsets).
MODELS = Choice(on=MODEL, bindings={"normal": mp.NORMAL_MODEL, "bootstrap": mp.BOOTSTRAP_MODEL,
                                    "copula": mp.COPULA_FIT, "runs": mp.RUNS_MODEL})


def add_parser(subparsers) -> None:
    """``meta simulate``: every option is an argument of the study or of its model."""
    add_analysis(
        subparsers, "simulate", run_simulate,
        (MODEL, {"required": True, "choices": SIMULATION_MODELS}),
        TOPICS,
        (mp.NORMAL_SYSTEMS, {"default": None, "unset": "the number of --effects, else "
                             f"{mp.NORMAL_SYSTEMS.default}"}),
        (mp.NORMAL_EFFECTS, {"many": True, "unique": False, "item": "a system mean"}),
        mp.NORMAL_TOPIC_SD, mp.NORMAL_ERROR_SD, mp.SIMULATION_NULL,
        mp.COPULA_MARGINS,
        mp.COPULA, (mp.COPULA_EQUAL, {"many": True, "unique": False}),
        (mp.RUNS_QUALITIES, {"many": True, "unique": False, "item": "a quality"}),
        mp.SIMULATED_MATRICES, (SIMULATED_TESTS, {"many": True}),
        (SIMULATED_CORRECTIONS, {"many": True}), SIGNIFICANCE, RNG_SEED,
        (RESAMPLES, {"doc": "resamples of the resampling tests among --test",
                     "unset": "each test's own"}), mp.CHECKPOINT, MEMORY_LIMIT,
        lambda p: add_scheduler(p, "the simulated matrices"), min_runs=None, systems=False,
        example="--model normal --topics 8 --repetitions 5 --seed 1",
        measure_help="measure of the bootstrap model's matrix (one; default: the one measure "
        "of the --scores file)",
        help="Type I, II and III error rates and power of tests over simulated score matrices "
        "(Urbano, Lima & Hanjalic 2019)",
        description="Type I, II and III error rates and power of tests over matrices drawn "
        "from a model whose true system means are known. See docs/scale-out.md.",
        rules=(
            Rule(("inputs", "scores", "measures", "topic_column"),
                 lambda args: args.model != "normal", "{options} {applies} to the models "
                 "read from data (--model bootstrap, copula or runs), not to --model normal "
                 "(which reads none)", spelt={"inputs": "QRELS RUN...", "measures": "-m"}),
            *NORMAL_ONLY,
            Rule(("scores", "topic_column"), lambda args: args.model != "runs",
                 "{options} {applies} to --model bootstrap or copula, not to --model runs "
                 "(which draws its runs from QRELS)"),
            Rule(("samples",), lambda args: bool(resampling_procedures(args.tests)),
                 lambda args: f"-B/--samples applies to the resampling tests "
                 f"({', '.join(RESAMPLING_TESTS)}) among --test, and the study has none "
                 f"({', '.join(args.tests)})"),
            _output_outside_checkpoint,
            Default("systems", _normal_systems)),
        binding=(MODELS, mp.SIMULATION))


def _check_runs_model(args: argparse.Namespace) -> None:
    """``meta simulate --model runs``: one QRELS file, one -m measure, --qualities."""
    paths = input_paths(args)
    if len(paths) != 1 and not getattr(args, "scores", None):
        raise ParameterError(f"--model runs reads QRELS only (it draws its runs): give one "
                             f"qrels file, got {len(paths)} inputs")
    check_inputs(args, min_runs=0)
    if len(args.measures) != 1:
        raise ParameterError("a runs simulation studies one measure: choose one with -m")
    if args.qualities is None:
        raise ParameterError("--model runs needs --qualities Q,Q,... (one quality per "
                             "system)")


def _simulation_model(args: argparse.Namespace
                      ) -> NormalModel | BootstrapModel | CopulaModel | RunsModel:
    """The model of ``--model`` (the API checks its options together; its errors name the
    option: :func:`irscale.cli.rules.named`)."""
    from .. import meta

    if args.model == "runs":
        return meta.RunsModel.of(input_paths(args)[0], args.qualities,
                                 measure=args.measures[0])
    if args.model == "bootstrap":
        matrix = one_measure(args, "a bootstrap simulation")  # read before the model loads
        return meta.BootstrapModel.of(matrix, null=args.null, topics=args.topics)
    if args.model == "copula":
        equal = None if args.equal is None else tuple(args.equal)
        matrix = one_measure(args, "a copula simulation")
        return meta.CopulaModel.fit(matrix,
                                    margins=args.margins, copula=args.copula,
                                    topics=args.topics, null=args.null, equal=equal)
    effects = None if args.effects is None else tuple(args.effects)
    topics = cast(int, mp.NORMAL_TOPICS.default) if args.topics is None else args.topics
    return meta.NormalModel(topics=topics, systems=args.systems, effects=effects,
                            topic_sd=args.topic_sd, error_sd=args.error_sd)


def run_simulate(args: argparse.Namespace) -> str:
    """``meta simulate``: error rates and power over simulated matrices."""
    if args.model == "runs":
        _check_runs_model(args)
    elif args.model != "normal":
        check_inputs(args)

    model = _simulation_model(args)

    from .. import meta
    from ..stats.tables import alpha_text

    options = resampling_options(args, args.tests) or None
    with scheduler(args) as executor:
        study = meta.simulation_study(model, args.tests, args.corrections, args.repetitions,
                                      alpha=args.alpha, options=options,
                                      checkpoint=args.checkpoint, rng=args.seed,
                                      executor=executor, progress=wants_progress(args),
                                      max_memory=args.max_memory)
    title = (f"error rates over {study.repetitions:,} matrices of the {args.model} model "
             f"(α = {alpha_text(study.alpha)}; 95% Wilson intervals)")
    if study.model.get("model") == "bootstrap" and "topics" in study.model:
        title = (f"conclusions on {study.repetitions:,} topic subsets of each size against "
                 f"the full set's (α = {alpha_text(study.alpha)}; 95% Wilson intervals)")
    return render(study.to_frame(), args, title)

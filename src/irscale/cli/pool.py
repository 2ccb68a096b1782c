"""``irscale pool``: pools, simulated pooling, shards, sampled judgments and bounds under
the unjudged documents (usage: ``docs/cli.md``, ``docs/collections.md``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from ..collections import params as cp
from ..core.params import (
    DEPTH,
    MEMORY_LIMIT,
    RELEVANCE,
    RNG_SEED,
    TABLE_DIGITS,
    OutputPath,
    Param,
    Switch,
)
from ..errors import InputError, ParameterError
from ..meta.params import CONTRIBUTOR_PATTERN, CONTRIBUTORS
from ..stats.names import EMPTY_POLICIES, SHARD_EMPTY, TABLE_FORMATS
from .common_params import MEASURES, PLOT, QRELS, QRELS_OPTION, RUNS
from .inputs import check_measure_names
from .meta_common import CONTRIBUTOR_PATTERN_RULE, given_contributors
from .options import (
    DIGITS_RULE,
    FULL_PRECISION,
    add_actions,
    add_command,
    add_format,
    add_output,
    add_progress,
    add_ties,
    wants_progress,
)
from .outputs import Done, Output, lines_text, plot_output, table_text
from .rules import Negated, Rule, applies_to
from .runargs import add_names, named_runs, read_inputs

#: ``simulate --no-loo``: no leave-one-contributor-out test.
NO_LOO = Param("no_loo", Switch(), False, "skip the leave-one-contributor-out test (faster)",
               ("--no-loo",))
#: ``simulate --qrels-out DIR``: the qrels every strategy and budget induces.
QRELS_OUT = Param("qrels_out", OutputPath("folder"), None, "write the qrels every strategy and "
                  "budget induces to DIR/STRATEGY-BUDGET.qrels ('topic 0 docno rel', readable by "
                  "irscale eval; DIR is made if missing; existing files are refused without "
                  "--force)", ("--qrels-out",), "DIR", unset="none")
#: ``shards --tukey``: Tukey's HSD on the systems after the model.
TUKEY = Param("tukey", Switch(), False, "add Tukey's HSD on the systems after the model "
              "(text, markdown and latex formats)", ("--tukey",))
#: ``shards --shard-scores FILE``: the scores of every topic, run and shard.
SHARD_SCORES = Param("shard_scores", OutputPath(), None, "write the topic × run × shard scores to "
                     "FILE as CSV (topic,run,shard,value; empty value: undefined)",
                     ("--shard-scores",), "FILE", unset="none")
#: ``estimate -q`` and ``bounds -q``: every topic, not each run's means.
PER_TOPIC = Param("per_topic", Switch(), False, "print every topic's estimates (run, topic, "
                  "measure, value) instead of each run's means", ("-q", "--per-topic"))


#: How the runs are read (``--ties``, ``--names``) and judged (``-l``).
JUDGED = (RELEVANCE, add_ties, add_names)
#: The options of the strategies (``build`` and ``simulate``).
STRATEGY_OPTIONS = (
    (cp.RUN_DEPTH, {"doc": "cut every run at K documents first: the pool depth of depth-k "
                 "pooling, the candidates of the others"}),
    cp.POOL_P, cp.POOL_K, cp.POOL_DISCOUNT,
    (RNG_SEED, {"doc": "seed of the adaptive strategies' tie order and draws"}), *JUDGED)
#: ``RUN...`` and ``QRELS RUN...``: the run files, and the qrels.
RUN_FILES = (RUNS, {"nargs": "+", "metavar": "RUN", "doc": "run files"})
QRELS_RUNS = (QRELS, {"metavar": "QRELS", "doc": "qrels file"}), RUN_FILES
#: ``--format``, ``--digits`` and ``-o`` of the tables.
TABLE = (lambda p: add_format(p, TABLE_FORMATS), TABLE_DIGITS, add_output)


def add_parser(subparsers) -> None:
    """Register ``irscale pool`` and its actions, with the rules of their options."""
    sub = add_actions(
        subparsers, "pool",
        description="Pooling strategies for building test collections (Cormack, Palmer & "
        "Clarke 1998; Moffat, Webber & Zobel 2007; Losada, Parapar & Barreiro 2016, 2017).")
    add_command(
        sub, "build", run_build, RUN_FILES, (cp.POOL_STRATEGY, {"default": None, "required": True}),
        cp.POOL_BUDGET,
        (QRELS_OPTION, {"doc": "judgments so far, adaptive strategies only: "
                     "replayed, and the first document they do not judge is each topic's next "
                     "to judge (default: none, the first document of every topic)"}),
        *STRATEGY_OPTIONS, lambda p: add_output(p, what="pool file"),
        example="a.run b.run c.run --strategy depth --depth 2",
        help="write a pool file from runs",
        description="Pool the runs with one strategy and write the pool file in judging order.",
        binding=cp.POOL,
        # the pool file holds no judgments: --qrels replays those of the adaptive strategies
        rules=applies_to("strategy", {"qrels": cp.ADAPTIVE_STRATEGIES}, flag="--strategy"))
    add_command(
        sub, "simulate", run_simulate, *QRELS_RUNS, cp.SIMULATED_STRATEGY_LIST,
        cp.SIMULATED_BUDGET_LIST,
        (cp.RANKING_MEASURE, {"doc": "measure whose system ranking is compared"}),
        CONTRIBUTOR_PATTERN, CONTRIBUTORS, NO_LOO, *STRATEGY_OPTIONS,
        lambda p: add_format(p, TABLE_FORMATS), TABLE_DIGITS,
        (PLOT, {"doc": "write the relevant-found curves to FILE, PNG/SVG/PDF"}), QRELS_OUT,
        add_output,
        example="qrels.txt a.run b.run c.run --strategy depth,mm-ns --budget 2,4 --seed 1",
        help="replay strategies with budgets on qrels",
        description="Simulated pooling: the qrels act as the assessor (an unjudged pooled "
        "document counts as non-relevant).",
        binding=cp.SIMULATE,
        # the function's contributors (a file or a pattern) apply to its leave-one-out
        # test, which --no-loo (loo=False) leaves out: SIMULATE's rule
        sources={"loo": Negated("no_loo"), "contributors": ("contributors",
                                                             "contributor_pattern")},
        rules=(DIGITS_RULE, _two_runs, CONTRIBUTOR_PATTERN_RULE))
    add_command(
        sub, "shards", run_shards, *QRELS_RUNS, cp.SHARD_MEASURE, cp.SHARD_COUNT, cp.SHARD_METHOD,
        (RNG_SEED, {"doc": "seed of the random partition"}), cp.SHARD_MODEL, SHARD_EMPTY,
        TUKEY, SHARD_SCORES, *JUDGED, *TABLE,
        example="qrels.txt a.run b.run c.run --shards 2 --seed 1 --empty zero",
        help="score runs within document shards and fit MD3",
        description="Score every run on every topic within every shard of the documents and "
        "fit the MD3 ANOVA (Ferro & Sanderson 2022) or another shard model; see "
        "docs/collections.md.",
        binding=cp.SHARDS,
        rules=(DIGITS_RULE, _two_runs,
               Rule(("tukey",), lambda args: args.fmt not in FULL_PRECISION, "--tukey adds a "
                    "second table: use --format text, markdown or latex, not {fmt}")))
    # (--model is checked as parsed: cp.SHARD_MODEL's domain, shard_anova's binding)
    add_command(
        sub, "sample", run_sample, RUN_FILES, cp.SAMPLE_DRAWS, cp.SAMPLE_DESIGN,
        (cp.SAMPLE_STRATA, {"many": True, "unique": False}), cp.RUN_DEPTH,
        (RNG_SEED, {"doc": "seed of the draws"}),
        (QRELS_OPTION, {"doc": "simulate: the qrels judge the sample (a document "
                     "they do not judge gets 0) and the output is 'topic 0 docno rel prob', "
                     "what 'pool estimate' reads (default: none, 'topic docno prob' lines to "
                     "judge)"}),
        add_ties, add_names, lambda p: add_output(p, what="sample"),
        example="a.run b.run c.run --size 3 --seed 1",
        help="draw the documents to judge for statAP",
        description="Draw a probability sample of the runs' documents (Aslam, Pavlu & Yilmaz "
        "2006) and write every sampled document with its inclusion probability.",
        binding=cp.SAMPLE)
    add_command(
        sub, "estimate", run_estimate,
        (QRELS, {"metavar": "SAMPLE", "doc": "sampled judgments 'topic 0 docno rel prob'"}),
        RUN_FILES,
        cp.SAMPLE_CUTOFF_LIST, PER_TOPIC,
        *JUDGED, *TABLE,
        example="sampled.txt a.run b.run c.run", binding=cp.ESTIMATE,
        help="statAP, R and P@k from sampled judgments",
        description="Estimate statAP, R and P@k of every run from sampled judgments 'topic 0 "
        "docno rel prob' (Horvitz-Thompson; prob is the inclusion probability).",
        rules=[DIGITS_RULE])
    add_command(
        sub, "bounds", run_bounds, *QRELS_RUNS,
        (MEASURES, {"required": True, "action": "append",
                    "doc": "measure with per-topic values (repeatable)"}),
        (PER_TOPIC, {"doc": "print every topic's bounds (run, topic, measure, value, low, "
                     "high, unjudged) instead of each run's means"}),
        RELEVANCE, MEMORY_LIMIT, add_names, *TABLE, add_progress,
        example="qrels.txt a.run b.run -m P.3",
        help="lowest and highest values under the unjudged documents",
        description="The lowest and highest value of every measure of every run when each "
        "unjudged document it retrieves takes the lowest or the highest grade of the qrels, "
        "and the pairs of runs whose mean intervals overlap; see docs/collections.md.",
        binding=cp.UNJUDGED_BOUNDS, rules=[DIGITS_RULE])


def _two_runs(args: argparse.Namespace) -> None:
    """``simulate`` and ``shards`` compare runs: at least two."""
    if len(args.runs) < 2:
        raise ParameterError("give a qrels file and at least two run files")




def _strategy_arguments(args: argparse.Namespace) -> dict[str, object]:
    """The API's parameters of the strategies' options (defaults filled in)."""
    return {"p": args.p, "k": args.k, "discount": args.discount, "rng": args.seed,
            "relevance_level": args.relevance_level, "ties": args.ties}


def _named_runs(args: argparse.Namespace) -> Sequence[object]:
    """The runs of ``RUN...``, named by ``--names``, read in the order of ``--ties``."""
    return named_runs(args.runs, args.names, keep_rank=args.ties == "rank-column")


def _runs_and_qrels(args: argparse.Namespace) -> tuple[list[Any], Any]:
    """The runs (:func:`_named_runs`) and ``--qrels`` (or None), read before pandas is
    imported: a malformed file is reported first."""
    from ..io.sources import as_qrels, as_runs

    runs = list(as_runs(_named_runs(args), keep_rank=args.ties == "rank-column"))
    return runs, None if args.qrels is None else as_qrels(args.qrels)


def run_build(args: argparse.Namespace) -> Done:
    """``pool build``: the pool file of one strategy."""
    runs, qrels = _runs_and_qrels(args)
    from ..collections import pool

    result = pool(runs, args.strategy, depth=args.depth, budget=args.budget,
                  qrels=qrels, **_strategy_arguments(args))  # type: ignore[arg-type]
    return lines_text(result.lines())


def run_simulate(args: argparse.Namespace) -> Done:
    """``pool simulate``: the strategies replayed with budgets on the qrels."""
    pattern = args.contributor_pattern
    qrels_paths = _induced_paths(args)
    # the inputs first: a malformed file is reported before the analyses are imported
    table = given_contributors(args)
    qrels, runs = read_inputs(args.qrels, _named_runs(args))
    from ..collections import simulate_pooling
    from ..meta import contributors_by_prefix

    contributors = table if table is not None else (
        lambda name: contributors_by_prefix([name], pattern)[name])
    result = simulate_pooling(qrels, runs, args.strategies, args.budgets,
                              measure=args.measure, depth=args.depth,
                              contributors=None if args.no_loo else contributors,
                              loo=not args.no_loo,
                              **_strategy_arguments(args))  # type: ignore[arg-type]
    plots = []
    if args.plot:
        from ..collections import plot_relevant_found

        plots.append(plot_output(plot_relevant_found(result), args.plot))
    return [*plots, *(Output(result.qrels_text(key), path, folder=args.qrels_out)
                      for key, path in qrels_paths.items()),
            Output(result.format(args.fmt, digits=args.digits) + "\n")]


def _induced_paths(args: argparse.Namespace) -> dict[tuple[str, int], str]:
    """``--qrels-out``: the file of every (strategy, budget), each checked before the work
    (not existing unless ``--force``); the folder itself is checked with the other outputs
    (:func:`irscale.cli.outputs.check_outputs`: it holds no input)."""
    if args.qrels_out is None:
        return {}
    from ..io.files import check_output, is_stdio

    paths: dict[tuple[str, int], str] = {}
    for name in args.strategies:  # canonical names, checked as they were parsed
        for budget in args.budgets:
            path = os.path.join(args.qrels_out, f"{name}-{budget}.qrels")
            if os.path.isdir(args.qrels_out):
                check_output(path, force=args.force, option="--qrels-out")
            if not is_stdio(args.output) and os.path.abspath(args.output) == \
                    os.path.abspath(path):
                raise ParameterError(f"-o {args.output} is one of the --qrels-out files: "
                                     "write the table elsewhere")
            paths[(name, int(budget))] = path
    return paths


def run_shards(args: argparse.Namespace) -> Done:
    """``pool shards``: every run scored within every shard, and the shard model."""
    # the inputs first: a malformed file is reported before the analyses are imported
    qrels, runs = read_inputs(args.qrels, _named_runs(args),
                              keep_rank=args.ties == "rank-column")
    from ..collections import evaluate_shards

    result = evaluate_shards(qrels, runs, args.measure, shards=args.shards,
                             method=args.method, rng=args.seed,
                             relevance_level=args.relevance_level, ties=args.ties)
    empty = result.scores.empty_cells()
    if args.empty == "error" and empty:
        topic, shard = empty[0]
        raise InputError(f"{len(empty)} (topic, shard) cell(s) have no relevant document, "
                         f"so no defined score, e.g. topic {topic!r} in {shard}: choose "
                         f"--empty {', '.join(EMPTY_POLICIES[1:])} (or fewer --shards)")
    anova = result.anova(args.model, empty=args.empty)
    text = anova.format(args.fmt, digits=args.digits)
    if args.tukey:
        text = text.rstrip("\n") + "\n\n" + anova.tukey_hsd().format(args.fmt,
                                                                      digits=args.digits)
    side = []
    if args.shard_scores is not None:
        from ..core.numbers import csv_text

        side.append(Output(csv_text(result.to_frame(), "the shard scores", index=False),
                           args.shard_scores))
    return [*side, Output(text.rstrip("\n") + "\n")]


def run_sample(args: argparse.Namespace) -> Done:
    """``pool sample``: the documents to judge, drawn with their inclusion probabilities."""
    strata = None if args.strata is None else [_stratum(text) for text in args.strata]
    runs, qrels = _runs_and_qrels(args)
    from ..collections.sampling import sample_judgments, sample_lines

    sample = sample_judgments(runs, args.size, design=args.design,
                              strata=strata, depth=args.depth, rng=args.seed,
                              qrels=qrels, ties=args.ties)
    return lines_text(sample_lines(sample))


def _stratum(text: str) -> tuple[int, float]:
    """``D:F`` of ``--strata``: a depth and a fraction (the rate drawn of the stratum)."""
    depth, colon, fraction = text.partition(":")
    try:
        if not colon:
            raise ValueError
        pair = int(depth), float(fraction)
    except ValueError:
        raise ParameterError(f"--strata: {text!r} is not DEPTH:FRACTION (e.g. 100:0.2)") \
            from None
    return DEPTH.check(pair[0], "--strata: a depth"), cp.STRATUM_RATE.check(
        pair[1], "--strata: a rate")


def run_estimate(args: argparse.Namespace) -> Done:
    """``pool estimate``: statAP, R and P@k of every run from sampled judgments."""
    from ..io.sampled import check_sampled_qrels
    from ..io.sources import as_runs

    checked = check_sampled_qrels(args.qrels)  # every file checked before pandas
    runs = list(as_runs(_named_runs(args), keep_rank=args.ties == "rank-column"))
    sample = checked.build()
    from ..collections import estimate_sampled

    result = estimate_sampled(sample, runs, cutoffs=args.cutoffs,
                              relevance_level=args.relevance_level, ties=args.ties)
    return table_text(args, result, per_topic=args.per_topic)


def run_bounds(args: argparse.Namespace) -> Done:
    """``pool bounds``: the bounds of every run under its unjudged documents."""
    check_measure_names(args.measures)
    from ..collections.bounds import unjudged_bounds

    # (the files read by the evaluation: the engine's, when they are TREC files)
    result = unjudged_bounds(args.qrels, named_runs(args.runs, args.names), args.measures,
                             relevance_level=args.relevance_level,
                             max_memory=args.max_memory, progress=wants_progress(args))
    return table_text(args, result, per_topic=args.per_topic)

"""``irscale labels``: crowd labels, pairwise and automatic judgments into qrels, scores and
agreement tables (usage: ``docs/cli.md``, ``docs/collections.md``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable

from ..collections import params as cp
from ..core.params import RELEVANCE, RNG_SEED, SIGNIFICANCE, TABLE_DIGITS, OutputPath, Param
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from ..io.sources import as_runs
from . import labels_audit
from .common_params import INPUTS, MEASURES
from .inputs import check_measure_names
from .options import (
    DIGITS_RULE,
    add_actions,
    add_command,
    add_format,
    add_output,
    add_progress,
    wants_progress,
)
from .outputs import Done, Output, lines_text, table_text
from .rules import Rule, applies_to
from .runargs import add_names, named_runs, read_inputs

#: The files some actions write beside their main output.
CONFIDENCE = Param("confidence", OutputPath(), None, "also write 'topic docno label confidence' "
                   "lines to FILE (not for kos and mmsr, which give no probability)",
                   ("--confidence",), "FILE", unset="none")
WORKERS_FILE = Param("workers_file", OutputPath(), None, "also write 'worker labels quality' lines "
                     "to FILE (not for kos, which estimates no worker quality)", ("--workers",),
                     "FILE", unset="none", dest="workers_file")
KERNEL_FILE = Param("kernel_file", OutputPath(), None, "gp: also write 'topic length_scale "
                    "variance log_evidence' lines to FILE (every topic's kernel and its Laplace "
                    "log marginal likelihood)", ("--kernel",), "FILE", unset="none",
                    dest="kernel_file")
TABLE = Param("table", OutputPath(), None, "also write 'topic docno labels label margin stopped' "
              "lines to FILE", ("--table",), "FILE")


def _inputs(metavar: str, doc: str) -> tuple[Param, dict]:
    """The input files of an action (``LABELS``, ``QRELS_A QRELS_B RUN``...)."""
    return INPUTS, {"nargs": "*", "metavar": metavar, "doc": doc}


def _count(holds: Callable[[int], bool], message: str) -> Callable[[argparse.Namespace], None]:
    """The check that the number of input files ``holds``, refused with ``message``."""
    def check(args: argparse.Namespace) -> None:
        if not holds(len(args.inputs)):
            raise ParameterError(message.format(n=len(args.inputs)))
    return check


#: ``--scale L,L,...`` of the actions that read crowd labels.
SCALE = (cp.LABEL_SCALE, {"many": True, "item": "a label"})
#: ``--format``, ``--digits`` and ``-o`` of the agreement tables.
TABLE_OPTIONS = (lambda p: add_format(p, TABLE_FORMATS), TABLE_DIGITS, add_output)
#: ``aggregate``, ``pairwise``, ``allocate`` and ``agree`` read one file.
CROWD_FILE = _count(lambda n: n == 1, "give a crowd labels file (got {n} files)")


def _output(what: str) -> Callable[[argparse.ArgumentParser], None]:
    """The builder of ``-o``, naming ``what`` it writes."""
    return lambda parser: add_output(parser, what=what)


def add_parser(subparsers) -> None:
    """Register ``irscale labels`` and its actions."""
    sub = add_actions(
        subparsers, "labels",
        description="Crowd labels ('topic docno worker label' lines) and pairwise judgments: "
        "aggregation, allocation, agreement, automatic judgments and AWARE; see "
        "docs/collections.md.")
    add_command(
        sub, "aggregate", run_aggregate, _inputs("LABELS", "crowd labels file"),
        cp.LABEL_METHOD, SCALE,
        (RNG_SEED, {"doc": "seed of the random starts of mace, kos and mmsr (the other "
                    "methods are deterministic)"}),
        cp.LABEL_ITERATIONS, cp.LABEL_TOLERANCE, cp.LABEL_RESTARTS, cp.ZBS_LR, cp.ZBS_LR_STEPS,
        cp.ZBS_LR_DECAY,
        cp.LABEL_FEATURES, cp.GP_LENGTH_SCALE, cp.GP_KERNEL_FIT, CONFIDENCE, WORKERS_FILE,
        KERNEL_FILE,
        _output("qrels"), add_progress,
        example="crowd.txt --method mace --seed 1 --n-iter 5",
        help="aggregate crowd labels into qrels",
        description="Aggregate crowd labels into qrels ('topic 0 docno label').",
        binding=cp.AGGREGATE,
        rules=(CROWD_FILE, *applies_to("method", {"kernel_file": ("gp",)}),
               Rule(("confidence",), lambda args: args.method not in ("kos", "mmsr"),
                    "--confidence: --method {method} gives scores, not probabilities"),
               Rule(("workers_file",), lambda args: args.method != "kos",
                    "--workers: --method kos estimates no worker quality")))
    add_command(
        sub, "pairwise", run_pairwise, _inputs("JUDGMENTS", "pairwise judgments file"),
        cp.PAIRWISE_METHOD, cp.PAIRWISE_ITERATIONS, cp.PAIRWISE_TOLERANCE,
        cp.NOISYBT_REGULARIZATION,
        (WORKERS_FILE, {"doc": "noisybt: also write 'worker comparisons skill bias' lines to "
                        "FILE"}), _output("scores"), add_progress,
        example="pairs.txt",
        help="aggregate pairwise judgments into document scores",
        description="Aggregate pairwise judgments ('topic worker left right label' lines, "
        "label: the preferred document) into 'topic docno score' lines.",
        rules=(_count(lambda n: n == 1, "give a pairwise judgments file (got {n} files)"),
               *applies_to("method", {"workers_file": ("noisybt",)})),
        binding=cp.PAIRWISE)
    add_command(
        sub, "allocate", run_allocate,
        _inputs("LABELS", "crowd labels file (the answers available)"), SCALE,
        cp.ALLOCATION_RULE, cp.LABEL_BUDGET, cp.ALLOCATION_C, cp.ALLOCATION_EPSILON,
        cp.MIN_LABELS, cp.MAX_LABELS,
        (RNG_SEED, {"doc": "shuffle every document's answers", "unset": "file order"}), TABLE,
        _output("qrels"),
        example="crowd.txt --seed 1",
        help="answers per document: adaptive stopping or uniform",
        description="Replay the allocation of crowd answers under a budget (Abraham et al. "
        "2016) and write the majority of the answers bought as qrels; see "
        "docs/collections.md.",
        binding=cp.ALLOCATE, rules=(CROWD_FILE,))
    add_command(
        sub, "agree", run_agree, _inputs("LABELS", "crowd labels file"), SCALE,
        *TABLE_OPTIONS, help="agreement of crowd labels, per topic and overall",
        example="crowd.txt",
        description="Percent agreement, Fleiss' kappa and Krippendorff's alpha (nominal, "
        "ordinal, interval) of crowd labels, per topic and overall.",
        binding=cp.LABEL_AGREEMENT,
        rules=(DIGITS_RULE, CROWD_FILE))
    add_command(
        sub, "agree-qrels", run_agree_qrels,
        _inputs("QRELS_A QRELS_B RUN", "two qrels files, then run files (optional)"),
        cp.RANKING_MEASURE, (RELEVANCE, {"doc": "smallest relevant degree, with runs"}),
        add_names, *TABLE_OPTIONS,
        example="qrels.txt qrels.txt a.run b.run c.run",
        help="agreement of two qrels (and of the rankings)",
        description="Agreement of two qrels over the documents both judge and, given two "
        "runs or more, Kendall's tau and tau_ap of the system rankings they induce.",
        binding=cp.QRELS_AGREEMENT,
        rules=(DIGITS_RULE, _count(lambda n: n >= 2, "give two qrels files (then, "
                                   "optionally, two run files or more)"),
               _count(lambda n: n != 3, "system-ranking agreement needs at least two run "
                      "files"),
               # (the binding's rule, stated by the count of the inputs: the runs follow
               # the two qrels)
               Rule(("measure", "relevance_level"), lambda args: len(args.inputs) > 2,
                    "-m/--measure and -l/--relevance-level apply with run files"),
               Rule(("names",), lambda args: len(args.inputs) > 2,
                    "--names names run files: give two or more after the qrels")))
    add_command(
        sub, "auto", run_auto,
        _inputs("AUTO HUMAN RUN", "the automatic qrels, the human qrels, then two runs or more"),
        (MEASURES, {"action": "append", "required": True, "metavar": "MEASURE",
                    "doc": "measure with per-topic values (repeatable)"}),
        (SIGNIFICANCE, {"doc": "1 - the intervals' level, and the level of the paired t-tests "
                        "of the system agreement"}),
        (cp.AUTO_TUNING, {"choices": cp.AUTO_TUNING.domain.names}), cp.AUTO_PAIRS,
        cp.AUTO_PROBABILITIES, cp.AUTO_DRAWS, cp.AUTO_SEED,
        (RELEVANCE, {"doc": "smallest relevant grade, for both qrels"}), cp.AUTO_DESIGN,
        add_names, *TABLE_OPTIONS, add_progress,
        example="qrels.txt h.txt a.run b.run c.run -m map",
        help="automatic judgments against a human sample of topics: agreement and "
        "prediction-powered means",
        description="Automatic judgments (AUTO) against human judgments of a sample (HUMAN; "
        "--design): agreement and the runs' means corrected by prediction-powered inference "
        "(Angelopoulos et al., Science 2023; PPI++); see docs/collections.md.",
        rules=[_count(lambda n: n >= 4, "give the automatic qrels, the human qrels and two "
                      "run files at least")], binding=cp.AUTOMATIC)
    add_command(
        sub, "aware", run_aware, _inputs("LABELS RUN", "labels file, then runs"),
        (cp.RANKING_MEASURE, {"default": None, "required": True, "doc": "one measure with "
                              "per-topic values, e.g. map or ndcg_cut_10"}),
        cp.AWARE_WEIGHTS, cp.AWARE_RANDOM, (RNG_SEED, {"doc": "seed of the random assessors"}),
        SCALE, cp.AWARE_UNRETRIEVED, (RELEVANCE, {"doc": "smallest relevant label"}),
        add_names,
        lambda p: add_format(p, ("csv", "text"), default="csv", doc="csv: the topics x runs "
                             "score matrix (topic,RUN,...; for irscale compare --scores); "
                             "text: the matrix, the runs' means and the weights"),
        TABLE_DIGITS, add_output,
        example="crowd.txt a.run b.run c.run -m map",
        help="AWARE: combine the runs' scores under every assessor",
        description="The runs' per-topic scores under every worker's labels, combined with "
        "assessor weights (Ferrante, Ferro & Maistro 2017).",
        rules=(_count(lambda n: n >= 2, "give a crowd labels file and at least one run file"),
               Rule(("digits",), lambda args: args.fmt == "text",
                    "--digits applies to --format text")), binding=cp.AWARE)
    labels_audit.add_parser(sub)
    from .labels_plan import add_plan_actions
    add_plan_actions(sub)


def _side_files(args: argparse.Namespace, **options: str) -> dict[str, str]:
    """The side outputs given (option: file; ``options``: option by dest), files, not
    standard output (checked with the other outputs: :func:`~.outputs.check_outputs`)."""
    from ..io.files import is_stdio

    named = {option: getattr(args, dest) for dest, option in options.items()
             if getattr(args, dest) is not None}
    for option, path in named.items():
        if is_stdio(path):
            raise ParameterError(f"{option} needs a file name, not standard output")
    return named


def _write_all(args: argparse.Namespace, side: dict[str, str], texts: dict[str, str],
               lines: Iterable[str]) -> list[Output]:
    """The ``side`` outputs (their ``texts`` by option), then ``lines`` to ``-o``: each
    file complete or none written (:func:`irscale.cli.outputs.write_outputs`)."""
    return [*(Output(texts[option], path) for option, path in side.items()),
            Output(lines_text(lines))]


def _warn_unconverged(result, method: str) -> None:
    """The warning of an iterative aggregation stopped by ``--n-iter``."""
    if not result.converged:
        import warnings

        warnings.warn(f"{method} stopped after {result.iterations} iterations without "
                      "converging (raise --n-iter)", stacklevel=1)


def run_allocate(args: argparse.Namespace) -> Done:
    """``labels allocate``: the qrels of the answers an allocation buys."""
    side = _side_files(args, table="--table")
    from ..io.crowd import read_crowd_labels

    labels = read_crowd_labels(args.inputs[0], args.scale)  # before the models are imported
    from ..collections.allocation import allocate_labels

    result = allocate_labels(labels, args.rule, budget=args.budget, c=args.c,
                             epsilon=args.epsilon, min_labels=args.min_labels,
                             max_labels=args.max_labels, rng=args.seed, scale=args.scale)
    table = result.to_frame()
    none = table[table["labels"] == 0]
    if len(none):
        import warnings

        warnings.warn(f"--budget {result.budget} bought no answer for {len(none)} of "
                      f"{len(table)} documents: they have no qrels line (e.g. topic "
                      f"{none['topic'].iloc[0]!r}, document {none['docno'].iloc[0]!r})",
                      stacklevel=1)
    text = table.to_csv(sep=" ", index=False, header=False, na_rep="-")
    return _write_all(args, side, {"--table": text}, result.lines())


def run_aggregate(args: argparse.Namespace) -> Done:
    """``labels aggregate``: the qrels of the crowd labels (and the side outputs)."""
    side = _side_files(args, confidence="--confidence", workers_file="--workers",
                       kernel_file="--kernel")
    from ..io.crowd import check_crowd_labels

    checked = check_crowd_labels(args.inputs[0], args.scale)  # every file before pandas
    features = args.features
    if features is not None:
        from ..io.features import read_features

        features = read_features(features)
    labels = checked.build()
    from ..collections.labels import aggregate_labels

    result = aggregate_labels(labels, args.method, scale=args.scale, n_iter=args.n_iter,
                              tol=args.tol, restarts=args.restarts, rng=args.seed, lr=args.lr,
                              lr_steps=args.lr_steps, lr_decay=args.lr_decay,
                              features=features, length_scale=args.length_scale,
                              kernel_fit=(args.kernel_fit if args.method == "gp"
                                          and args.length_scale is None else None),
                              progress=wants_progress(args))
    _warn_unconverged(result, args.method)
    made = {"--confidence": result.confidence_lines, "--workers": result.worker_lines,
            "--kernel": result.kernel_lines}
    texts = {option: lines_text(made[option]()) for option in side}
    return _write_all(args, side, texts, result.lines())


def run_pairwise(args: argparse.Namespace) -> Done:
    """``labels pairwise``: the documents' scores (and the workers' skill and bias)."""
    side = _side_files(args, workers_file="--workers")
    from ..io.pairwise import read_pairwise

    judgments = read_pairwise(args.inputs[0])  # before the models are imported
    from ..collections.pairwise import aggregate_pairwise

    result = aggregate_pairwise(
        judgments, args.method, n_iter=args.n_iter, tol=args.tol,
        regularization=args.regularization if args.method == "noisybt" else None,
        progress=wants_progress(args))
    _warn_unconverged(result, result.method)
    texts = {"--workers": lines_text(result.worker_lines())} if side else {}
    return _write_all(args, side, texts, result.lines())


def run_agree(args: argparse.Namespace) -> Done:
    """``labels agree``: the agreement of the crowd labels."""
    from ..io.crowd import read_crowd_labels

    labels = read_crowd_labels(args.inputs[0], args.scale)  # before pandas and scipy
    from ..collections.agreement import label_agreement

    return table_text(args, label_agreement(labels, scale=args.scale))


def run_agree_qrels(args: argparse.Namespace) -> Done:
    """``labels agree-qrels``: the agreement of two qrels (and of the rankings)."""
    # the inputs first: a malformed file is reported before pandas is imported
    first, runs = read_inputs(args.inputs[0], named_runs(args.inputs[2:], args.names)
                              if len(args.inputs) > 2 else [])
    second = read_inputs(args.inputs[1], [])[0]
    from ..collections.agreement import qrels_agreement, with_ranking

    table, ranking = qrels_agreement(first, second, runs, measure=args.measure,
                                     relevance_level=args.relevance_level)
    return table_text(args, with_ranking(table, ranking))


def run_auto(args: argparse.Namespace) -> Done:
    """``labels auto``: the four tables of :class:`AutomaticJudgmentsResult`."""
    # label probabilities and sampled judgments (topic iter docno rel prob) are read by
    # their own readers
    automatic = args.inputs[0] if args.label_probabilities else \
        read_inputs(args.inputs[0], [])[0]
    runs = as_runs(named_runs(args.inputs[2:], args.names))
    human = args.inputs[1] if args.design == "inclusion" else read_inputs(args.inputs[1], [])[0]
    from ..collections.automatic import automatic_judgments

    return table_text(args, automatic_judgments(
        automatic, human, runs, args.measures, alpha=args.alpha, tuning=args.tuning,
        pairs=args.pairs, relevance_level=args.relevance_level, design=args.design,
        label_probabilities=args.label_probabilities, draws=args.draws, rng=args.seed,
        progress=wants_progress(args)))


def run_aware(args: argparse.Namespace) -> Done:
    """``labels aware``: the runs' scores combined over the assessors."""
    check_measure_names(args.measure)
    from ..io.crowd import check_crowd_labels
    from ..io.sources import as_runs

    checked = check_crowd_labels(args.inputs[0], args.scale)  # every file before pandas
    runs = list(as_runs(named_runs(args.inputs[1:], args.names)))
    labels = checked.build()
    from ..collections.aware import aware

    result = aware(labels, runs, args.measure, weights=args.weights,
                   scale=args.scale, n_random=args.n_random, rng=args.seed,
                   relevance_level=args.relevance_level,
                   allow_unretrieved=args.allow_unretrieved)
    if args.fmt == "csv":
        return result.format("csv")
    return result.format("text", digits=args.digits) + "\n"

"""``irscale labels``: crowd labels into qrels (``aggregate``), pairwise judgments into
scores (``pairwise``), their agreement (``agree``, ``agree-qrels``) and AWARE scores
(``aware``); usage: ``docs/cli.md``,
``docs/collections.md``."""

from __future__ import annotations

import argparse
import contextlib

from ..collections.params import (
    ALLOCATION_C,
    ALLOCATION_EPSILON,
    ALLOCATION_RULE,
    AWARE_RANDOM,
    AWARE_WEIGHTS,
    GP_LENGTH_SCALE,
    LABEL_BUDGET,
    LABEL_ITERATIONS,
    LABEL_METHOD,
    LABEL_RESTARTS,
    LABEL_VALUE,
    MAX_LABELS,
    MIN_LABELS,
    NOISYBT_REGULARIZATION,
    PAIRWISE_ITERATIONS,
    PAIRWISE_METHOD,
    RANDOM_AGGREGATIONS,
    ZBS_LR,
    ZBS_LR_DECAY,
    ZBS_LR_STEPS,
    Param,
)
from ..core.params import RELEVANCE, RNG_SEED
from ..errors import ParameterError
from .common_params import INPUTS
from .inputs import check_measure_names
from .labels_auto import add_auto
from .options import DIGITS_RULE, add_digits, add_format, add_output, add_param
from .outputs import declare_inputs, declare_outputs
from .rules import Rule, add_rules, check_options, each
from .runargs import add_names


def _inputs(parser: argparse.ArgumentParser, metavar: str, doc: str) -> None:
    """The input files of an action (``LABELS``, ``QRELS_A QRELS_B RUN``...)."""
    add_param(parser, INPUTS, nargs="*", metavar=metavar, doc=doc)
    declare_inputs(parser, "inputs")


#: ``--scale L,L,...``: the label values allowed.
LABEL_SCALE = Param("scale", LABEL_VALUE, None, "the label values allowed, e.g. 0,1,2; a label "
                    "outside is an error", ("--scale",), "L,L,...", label="--scale",
                    unset="the values the file holds")


def _scale(parser: argparse.ArgumentParser) -> None:
    """``--scale L,L,...``: the label values allowed."""
    add_param(parser, LABEL_SCALE, many=True, item="a label")


def _table_options(parser: argparse.ArgumentParser) -> None:
    """``--format``, ``--digits`` and ``-o`` of the agreement tables."""
    from ..io.formats import TABLE_FORMATS

    add_format(parser, TABLE_FORMATS)
    add_digits(parser)
    add_output(parser)


def add_parser(subparsers) -> None:
    """Register ``irscale labels`` and its actions."""
    parser = subparsers.add_parser(
        "labels", help="aggregate crowd labels into qrels, measure their agreement, AWARE",
        description="Crowd labels ('topic docno worker label' lines): aggregation into qrels "
        "(MV, WMV, Dawid-Skene, GLAD, MACE, one-coin Dawid-Skene, ZBS, KOS, M-MSR, "
        "Gaussian process, ordinal HRM), pairwise judgments into scores (Bradley-Terry, noisy "
        "Bradley-Terry), "
        "inter-assessor agreement, and AWARE (Ferrante, Ferro & Maistro 2017).")
    parser.set_defaults(func=_no_action)
    sub = parser.add_subparsers(dest="labels_command", metavar="ACTION")

    p = sub.add_parser("aggregate", help="aggregate crowd labels into qrels",
                       description="Aggregate crowd labels into qrels ('topic 0 docno label').")
    _inputs(p, "LABELS", "crowd labels file")
    add_param(p, LABEL_METHOD)
    _scale(p)
    add_param(p, RNG_SEED, doc="seed of the random starts of mace, kos and mmsr (the other "
              "methods are deterministic)")
    add_param(p, LABEL_ITERATIONS)
    add_param(p, LABEL_RESTARTS)
    for param in (ZBS_LR, ZBS_LR_STEPS, ZBS_LR_DECAY):
        add_param(p, param)
    p.add_argument("--features", metavar="FILE",
                   help="gp: 'topic docno f1 f2 ...' lines, the features of every labelled "
                   "document (required with --method gp)")
    declare_inputs(p, "--features")
    add_param(p, GP_LENGTH_SCALE)
    p.add_argument("--confidence", metavar="FILE",
                   help="also write 'topic docno label confidence' lines to FILE (default: "
                   "none; not for kos and mmsr, which give no probability)")
    p.add_argument("--workers", metavar="FILE", dest="workers_file",
                   help="also write 'worker labels quality' lines to FILE (default: none; "
                   "not for kos, which estimates no worker quality)")
    add_output(p, what="qrels")
    declare_outputs(p, "--confidence", "--workers")
    add_rules(p, _one_input,
              _gp_features,
              Rule(("n_iter",), lambda args: args.method not in ("mv", "wmv"),
                   "--n-iter applies to ds, glad, mace, onecoin, zbs, kos, mmsr, gp and hrm, "
                   "not to --method {method}"),
              *each(("features", "length_scale"), lambda args: args.method == "gp",
                    "{options} applies to gp, not to --method {method}"),
              Rule(("seed",), lambda args: args.method in RANDOM_AGGREGATIONS,
                   "--seed applies to mace, kos and mmsr, not to --method {method} "
                   "(deterministic)"),
              Rule(("restarts",), lambda args: args.method == "mace",
                   "--restarts applies to mace, not to --method {method}"),
              *each(("lr", "lr_steps", "lr_decay"), lambda args: args.method == "zbs",
                    "{options} applies to zbs, not to --method {method}"),
              Rule(("confidence",), lambda args: args.method not in ("kos", "mmsr"),
                   "--confidence: --method {method} gives scores, not probabilities"),
              Rule(("workers_file",), lambda args: args.method != "kos",
                   "--workers: --method kos estimates no worker quality"))
    p.set_defaults(func=run_aggregate)

    p = sub.add_parser("pairwise", help="aggregate pairwise judgments into document scores",
                       description="Aggregate pairwise judgments ('topic worker left right "
                       "label' lines, label: the preferred document) into scores, every "
                       "topic's documents by decreasing score ('topic docno score' lines).")
    _inputs(p, "JUDGMENTS", "pairwise judgments file")
    add_param(p, PAIRWISE_METHOD)
    add_param(p, PAIRWISE_ITERATIONS)
    add_param(p, NOISYBT_REGULARIZATION)
    p.add_argument("--workers", metavar="FILE", dest="workers_file",
                   help="noisybt: also write 'worker comparisons skill bias' lines to FILE "
                   "(default: none)")
    add_output(p, what="scores")
    declare_outputs(p, "--workers")
    add_rules(p, _one_input,
              *each(("regularization", "workers_file"),
                    lambda args: args.method == "noisybt",
                    "{options} applies to noisybt, not to --method {method}",
                    {"workers_file": "--workers"}))
    p.set_defaults(func=run_pairwise)

    p = sub.add_parser("allocate", help="answers per document: adaptive stopping or uniform",
                       description="Replay the allocation of crowd answers under a budget "
                       "(Abraham et al. 2016): each document's answers in file order (or "
                       "shuffled by --seed), bought in rounds until the adaptive stopping "
                       "rule n1 - n2 >= c sqrt(t) - epsilon t, --max-labels or --budget "
                       "ends them; writes the majority of the answers bought as qrels.")
    _inputs(p, "LABELS", "crowd labels file (the answers available)")
    _scale(p)
    for param in (ALLOCATION_RULE, LABEL_BUDGET, ALLOCATION_C, ALLOCATION_EPSILON,
                  MIN_LABELS, MAX_LABELS):
        add_param(p, param)
    add_param(p, RNG_SEED, doc="shuffle every document's answers (default: file order)",
              unset="file order")
    p.add_argument("--table", metavar="FILE",
                   help="also write 'topic docno labels label margin stopped' lines to FILE")
    add_output(p, what="qrels")
    declare_outputs(p, "--table")
    add_rules(p, _one_input,
              *each(("c", "epsilon", "min_labels"), lambda args: args.rule == "adaptive",
                    "{options} applies to the adaptive stopping rule, not to --rule uniform",
                    {"c": "--c", "epsilon": "--epsilon", "min_labels": "--min-labels"}))
    p.set_defaults(func=run_allocate)

    p = sub.add_parser("agree", help="agreement of crowd labels, per topic and overall",
                       description="Percent agreement, Fleiss' kappa and Krippendorff's alpha "
                       "(nominal, ordinal, interval) of crowd labels, per topic and overall.")
    _inputs(p, "LABELS", "crowd labels file")
    _scale(p)
    _table_options(p)
    add_rules(p, DIGITS_RULE, _one_input)
    p.set_defaults(func=run_agree)

    p = sub.add_parser("agree-qrels", help="agreement of two qrels (and of the rankings)",
                       description="Agreement of two qrels over the documents both judge "
                       "(percent, Cohen's kappa, Krippendorff's alpha) and, given two runs or "
                       "more, Kendall's tau and tau_ap of the system rankings they induce.")
    _inputs(p, "QRELS_A QRELS_B RUN", "two qrels files, then run files (optional)")
    p.add_argument("-m", "--measure", default="map", metavar="MEASURE",
                   help="measure of the system rankings, with runs (default map)")
    add_param(p, RELEVANCE, doc="smallest relevant degree, with runs")
    add_names(p)
    _table_options(p)
    add_rules(p, DIGITS_RULE, _qrels_pair,
              Rule(("measure", "relevance_level"), lambda args: len(args.inputs) > 2,
                   "-m/--measure and -l/--relevance-level apply with run files"),
              Rule(("names",), lambda args: len(args.inputs) > 2,
                   "--names names run files: give two or more after the qrels"))
    p.set_defaults(func=run_agree_qrels)

    add_auto(sub, _inputs, _table_options)

    p = sub.add_parser("aware", help="AWARE: combine the runs' scores under every assessor",
                       description="Evaluate the runs against every worker's labels and "
                       "combine the per-topic scores with assessor weights (Ferrante, Ferro "
                       "& Maistro 2017).")
    _inputs(p, "LABELS RUN", "labels file, then runs")
    p.add_argument("-m", "--measure", required=True, metavar="MEASURE",
                   help="one measure with per-topic values, e.g. map or ndcg_cut_10")
    add_param(p, AWARE_WEIGHTS)
    add_param(p, AWARE_RANDOM)
    add_param(p, RNG_SEED, doc="seed of the random assessors")
    _scale(p)
    p.add_argument("--allow-unretrieved", action="store_true",
                   help="keep labels of documents that no run retrieves for the topic (they "
                   "count in the recall base; an error otherwise)")
    add_param(p, RELEVANCE, doc="smallest relevant label")
    add_names(p)
    add_format(p, ("csv", "text"), default="csv", doc="csv: the topics x runs score matrix "
               "(topic,RUN,...; for irscale compare --scores); text: the matrix, the runs' "
               "means and the weights")
    add_digits(p)
    add_output(p)
    add_rules(p, _labels_and_runs,
              Rule(("digits",), lambda args: args.fmt == "text",
                   "--digits applies to --format text"),
              Rule(("n_random", "seed"), lambda args: args.weights != "uniform",
                   "--random and --seed apply to the msd, msd-topic and tau weightings, not "
                   "to --weights uniform"))
    p.set_defaults(func=run_aware)


def _no_action(args: argparse.Namespace) -> int:
    """``irscale labels`` without an action: name them."""
    raise ParameterError("labels: choose an action: aggregate, pairwise, allocate, agree, "
                         "agree-qrels, auto or aware (see 'irscale labels --help')")


def _one_input(args: argparse.Namespace) -> None:
    """``aggregate``, ``pairwise`` and ``agree`` read one crowd labels file."""
    if len(args.inputs) != 1:
        what = "pairwise judgments" if args.labels_command == "pairwise" else "crowd labels"
        raise ParameterError(f"give a {what} file (got {len(args.inputs)} files)")


def _gp_features(args: argparse.Namespace) -> None:
    """``--method gp`` reads the documents' features."""
    if args.method == "gp" and args.features is None:
        raise ParameterError("--method gp needs the documents' features (--features FILE)")


def _qrels_pair(args: argparse.Namespace) -> None:
    """``agree-qrels`` reads two qrels files, then no run file or two at least."""
    if len(args.inputs) < 2:
        raise ParameterError("give two qrels files (then, optionally, two run files or more)")
    if len(args.inputs) == 3:
        raise ParameterError("system-ranking agreement needs at least two run files")


def _labels_and_runs(args: argparse.Namespace) -> None:
    """``aware`` reads a crowd labels file and runs."""
    if len(args.inputs) < 2:
        raise ParameterError("give a crowd labels file and at least one run file")


def _side_outputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """``--confidence`` and ``--workers``: files, not standard output (checked with the
    other outputs before the work: :func:`irscale.cli.outputs.check_outputs`)."""
    from ..io.files import is_stdio

    named = [(option, path) for option, path in (("--confidence", args.confidence),
                                                 ("--workers", args.workers_file))
             if path is not None]
    for option, path in named:
        if is_stdio(path):
            raise ParameterError(f"{option} needs a file name, not standard output")
    return named


def run_allocate(args: argparse.Namespace) -> int:
    """``labels allocate``: the qrels of the answers an allocation buys."""
    check_options(args)
    from ..io.files import atomic_output, is_stdio

    if args.table is not None and is_stdio(args.table):
        raise ParameterError("--table needs a file name, not standard output")
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
    with contextlib.ExitStack() as stack:
        if args.table is not None:
            stack.enter_context(atomic_output(args.table, "w", force=args.force)).write(
                table.to_csv(sep=" ", index=False, header=False, na_rep="-"))
        stack.enter_context(atomic_output(args.output, "w", force=args.force)).write(
            "".join(line + "\n" for line in result.lines()))
    return 0


def run_aggregate(args: argparse.Namespace) -> int:
    """``labels aggregate``: the qrels of the crowd labels (and the side outputs)."""
    check_options(args)
    path = args.inputs[0]
    outputs = _side_outputs(args)
    from ..io.crowd import check_crowd_labels

    checked = check_crowd_labels(path, args.scale)  # every file before pandas and the models
    features = args.features
    if features is not None:
        from ..io.features import read_features

        features = read_features(features)
    labels = checked.build()
    from ..collections.labels import aggregate_labels
    from ..io.files import atomic_output

    result = aggregate_labels(labels, args.method, scale=args.scale, n_iter=args.n_iter,
                              restarts=args.restarts, rng=args.seed, lr=args.lr,
                              lr_steps=args.lr_steps, lr_decay=args.lr_decay,
                              features=features, length_scale=args.length_scale)
    if not result.converged:
        import warnings

        warnings.warn(f"{args.method} stopped after {result.iterations} iterations without "
                      "converging (raise --n-iter)", stacklevel=1)
    texts = {"--confidence": result.confidence_lines(), "--workers": result.worker_lines()}
    with contextlib.ExitStack() as stack:
        for option, out in outputs:
            stack.enter_context(atomic_output(out, "w", force=args.force)).write(
                "".join(line + "\n" for line in texts[option]))
        stack.enter_context(atomic_output(args.output, "w", force=args.force)).write(
            "".join(line + "\n" for line in result.lines()))
    return 0


def run_pairwise(args: argparse.Namespace) -> int:
    """``labels pairwise``: the documents' scores (and the workers' skill and bias)."""
    check_options(args)
    from ..io.files import atomic_output, is_stdio

    if args.workers_file is not None and is_stdio(args.workers_file):
        raise ParameterError("--workers needs a file name, not standard output")
    from ..io.pairwise import read_pairwise

    judgments = read_pairwise(args.inputs[0])  # before the models are imported
    from ..collections.pairwise import aggregate_pairwise

    result = aggregate_pairwise(
        judgments, args.method, n_iter=args.n_iter,
        regularization=args.regularization if args.method == "noisybt" else None)
    if not result.converged:
        import warnings

        warnings.warn(f"{result.method} stopped after {result.iterations} iterations without "
                      "converging (raise --n-iter)", stacklevel=1)
    with contextlib.ExitStack() as stack:
        if args.workers_file is not None:
            stack.enter_context(atomic_output(args.workers_file, "w", force=args.force)).write(
                "".join(line + "\n" for line in result.worker_lines()))
        stack.enter_context(atomic_output(args.output, "w", force=args.force)).write(
            "".join(line + "\n" for line in result.lines()))
    return 0


def run_agree(args: argparse.Namespace) -> int:
    """``labels agree``: the agreement of the crowd labels."""
    check_options(args)
    from ..io.crowd import read_crowd_labels

    labels = read_crowd_labels(args.inputs[0], args.scale)  # before pandas and scipy
    from ..collections.agreement import label_agreement
    from ..stats.protocol import format_table
    from .outputs import write_text

    table = label_agreement(labels, scale=args.scale)
    return write_text(args, format_table(table, args.fmt, digits=args.digits) + "\n")


def run_agree_qrels(args: argparse.Namespace) -> int:
    """``labels agree-qrels``: the agreement of two qrels (and of the rankings)."""
    check_options(args)
    from .runargs import named_runs, read_inputs

    # the inputs first: a malformed file is reported before pandas is imported
    first, runs = read_inputs(args.inputs[0], named_runs(args.inputs[2:], args.names)
                              if len(args.inputs) > 2 else [])
    second = read_inputs(args.inputs[1], [])[0]
    from ..collections.agreement import qrels_agreement, with_ranking
    from ..stats.protocol import format_table
    from .outputs import write_text

    table, ranking = qrels_agreement(first, second, runs,
                                     measure=args.measure,
                                     relevance_level=args.relevance_level)
    table = with_ranking(table, ranking)
    return write_text(args, format_table(table, args.fmt, digits=args.digits) + "\n")


def run_aware(args: argparse.Namespace) -> int:
    """``labels aware``: the runs' scores combined over the assessors."""
    check_options(args)
    check_measure_names(args.measure)
    from ..io.crowd import check_crowd_labels
    from ..io.sources import as_runs
    from .runargs import named_runs

    checked = check_crowd_labels(args.inputs[0], args.scale)  # every file before pandas
    runs = list(as_runs(named_runs(args.inputs[1:], args.names)))
    labels = checked.build()
    from ..collections.aware import aware
    from .outputs import write_text

    result = aware(labels, runs, args.measure, weights=args.weights,
                   scale=args.scale, n_random=args.n_random, rng=args.seed,
                   relevance_level=args.relevance_level,
                   allow_unretrieved=args.allow_unretrieved)
    if args.fmt == "csv":
        return write_text(args, result.format("csv"))
    return write_text(args, result.format("text", digits=args.digits) + "\n")

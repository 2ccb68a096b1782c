"""``irscale labels``: crowd labels into qrels (``aggregate``), pairwise judgments into
scores (``pairwise``), answers bought under a budget (``allocate``), their agreement
(``agree``, ``agree-qrels``), automatic judgments (``auto``, :mod:`irscale.cli.labels_auto`)
and AWARE scores (``aware``); usage: ``docs/cli.md``, ``docs/collections.md``."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterable

from ..collections import params as cp
from ..core.params import RELEVANCE, RNG_SEED, Param, Text
from ..errors import ParameterError
from ..io.formats import TABLE_FORMATS
from .common_params import INPUTS
from .inputs import check_measure_names
from .labels_auto import add_auto
from .options import DIGITS_RULE, add_command, add_digits, add_format, add_output
from .outputs import declare_outputs, write_text
from .rules import Rule, check_options, each
from .runargs import add_names

#: ``--scale L,L,...``: the label values allowed.
LABEL_SCALE = Param("scale", cp.LABEL_VALUE, None, "the label values allowed, e.g. 0,1,2; a "
                    "label outside is an error", ("--scale",), "L,L,...", label="--scale",
                    unset="the values the file holds")
#: The files some actions write beside their main output.
CONFIDENCE = Param("confidence", Text(), None, "also write 'topic docno label confidence' "
                   "lines to FILE (not for kos and mmsr, which give no probability)",
                   ("--confidence",), "FILE", unset="none")
WORKERS_FILE = Param("workers_file", Text(), None, "also write 'worker labels quality' lines "
                     "to FILE (not for kos, which estimates no worker quality)", ("--workers",),
                     "FILE", unset="none", dest="workers_file")
TABLE = Param("table", Text(), None, "also write 'topic docno labels label margin stopped' "
              "lines to FILE", ("--table",), "FILE")


def _inputs(metavar: str, doc: str) -> tuple[Param, dict]:
    """The input files of an action (``LABELS``, ``QRELS_A QRELS_B RUN``...)."""
    return INPUTS, {"nargs": "*", "metavar": metavar, "doc": doc}


#: ``--scale L,L,...`` of the actions that read crowd labels.
SCALE = (LABEL_SCALE, {"many": True, "item": "a label"})
#: ``--format``, ``--digits`` and ``-o`` of the agreement tables.
TABLE_OPTIONS = (lambda p: add_format(p, TABLE_FORMATS), add_digits, add_output)


def _output(what: str, *side: str):
    """The builder of ``-o`` (naming ``what`` it writes) and of the ``side`` outputs."""
    def build(parser: argparse.ArgumentParser) -> None:
        add_output(parser, what=what)
        declare_outputs(parser, *side)
    return build


def add_parser(subparsers) -> None:
    """Register ``irscale labels`` and its actions."""
    parser = subparsers.add_parser(
        "labels", help="aggregate crowd labels into qrels, measure their agreement, AWARE",
        description="Crowd labels ('topic docno worker label' lines) and pairwise judgments: "
        "aggregation, allocation, agreement, automatic judgments and AWARE; see "
        "docs/collections.md.")
    parser.set_defaults(func=_no_action)
    sub = parser.add_subparsers(dest="labels_command", metavar="ACTION")
    add_command(
        sub, "aggregate", run_aggregate, _inputs("LABELS", "crowd labels file"),
        cp.LABEL_METHOD, SCALE,
        (RNG_SEED, {"doc": "seed of the random starts of mace, kos and mmsr (the other "
                    "methods are deterministic)"}),
        cp.LABEL_ITERATIONS, cp.LABEL_RESTARTS, cp.ZBS_LR, cp.ZBS_LR_STEPS, cp.ZBS_LR_DECAY,
        cp.LABEL_FEATURES, cp.GP_LENGTH_SCALE, CONFIDENCE, WORKERS_FILE,
        _output("qrels", "--confidence", "--workers"), inputs=["inputs", "--features"],
        help="aggregate crowd labels into qrels",
        description="Aggregate crowd labels into qrels ('topic 0 docno label').",
        rules=(_one_input, _gp_features,
               Rule(("n_iter",), lambda args: args.method not in ("mv", "wmv"),
                    "--n-iter applies to ds, glad, mace, onecoin, zbs, kos, mmsr, gp and "
                    "hrm, not to --method {method}"),
               *each(("features", "length_scale"), lambda args: args.method == "gp",
                     "{options} applies to gp, not to --method {method}"),
               Rule(("seed",), lambda args: args.method in cp.RANDOM_AGGREGATIONS,
                    "--seed applies to mace, kos and mmsr, not to --method {method} "
                    "(deterministic)"),
               Rule(("restarts",), lambda args: args.method == "mace",
                    "--restarts applies to mace, not to --method {method}"),
               *each(("lr", "lr_steps", "lr_decay"), lambda args: args.method == "zbs",
                     "{options} applies to zbs, not to --method {method}"),
               Rule(("confidence",), lambda args: args.method not in ("kos", "mmsr"),
                    "--confidence: --method {method} gives scores, not probabilities"),
               Rule(("workers_file",), lambda args: args.method != "kos",
                    "--workers: --method kos estimates no worker quality")))
    add_command(
        sub, "pairwise", run_pairwise, _inputs("JUDGMENTS", "pairwise judgments file"),
        cp.PAIRWISE_METHOD, cp.PAIRWISE_ITERATIONS, cp.NOISYBT_REGULARIZATION,
        (WORKERS_FILE, {"doc": "noisybt: also write 'worker comparisons skill bias' lines to "
                        "FILE"}), _output("scores", "--workers"), inputs=["inputs"],
        help="aggregate pairwise judgments into document scores",
        description="Aggregate pairwise judgments ('topic worker left right label' lines, "
        "label: the preferred document) into 'topic docno score' lines.",
        rules=(_one_input, *each(("regularization", "workers_file"),
                                 lambda args: args.method == "noisybt",
                                 "{options} applies to noisybt, not to --method {method}",
                                 {"workers_file": "--workers"})))
    add_command(
        sub, "allocate", run_allocate,
        _inputs("LABELS", "crowd labels file (the answers available)"), SCALE,
        cp.ALLOCATION_RULE, cp.LABEL_BUDGET, cp.ALLOCATION_C, cp.ALLOCATION_EPSILON,
        cp.MIN_LABELS, cp.MAX_LABELS,
        (RNG_SEED, {"doc": "shuffle every document's answers", "unset": "file order"}), TABLE,
        _output("qrels", "--table"), inputs=["inputs"],
        help="answers per document: adaptive stopping or uniform",
        description="Replay the allocation of crowd answers under a budget (Abraham et al. "
        "2016) and write the majority of the answers bought as qrels; see "
        "docs/collections.md.",
        rules=(_one_input, *each(("c", "epsilon", "min_labels"),
                                 lambda args: args.rule == "adaptive", "{options} applies to "
                                 "the adaptive stopping rule, not to --rule uniform",
                                 {"c": "--c", "epsilon": "--epsilon",
                                  "min_labels": "--min-labels"})))
    add_command(
        sub, "agree", run_agree, _inputs("LABELS", "crowd labels file"), SCALE,
        *TABLE_OPTIONS, inputs=["inputs"], help="agreement of crowd labels, per topic and overall",
        description="Percent agreement, Fleiss' kappa and Krippendorff's alpha (nominal, "
        "ordinal, interval) of crowd labels, per topic and overall.",
        rules=(DIGITS_RULE, _one_input))
    add_command(
        sub, "agree-qrels", run_agree_qrels,
        _inputs("QRELS_A QRELS_B RUN", "two qrels files, then run files (optional)"),
        cp.RANKING_MEASURE, (RELEVANCE, {"doc": "smallest relevant degree, with runs"}),
        add_names, *TABLE_OPTIONS, inputs=["inputs"],
        help="agreement of two qrels (and of the rankings)",
        description="Agreement of two qrels over the documents both judge and, given two "
        "runs or more, Kendall's tau and tau_ap of the system rankings they induce.",
        rules=(DIGITS_RULE, _qrels_pair,
               Rule(("measure", "relevance_level"), lambda args: len(args.inputs) > 2,
                    "-m/--measure and -l/--relevance-level apply with run files"),
               Rule(("names",), lambda args: len(args.inputs) > 2,
                    "--names names run files: give two or more after the qrels")))
    add_auto(sub, _inputs, TABLE_OPTIONS)
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
        add_digits, add_output, inputs=["inputs"],
        help="AWARE: combine the runs' scores under every assessor",
        description="The runs' per-topic scores under every worker's labels, combined with "
        "assessor weights (Ferrante, Ferro & Maistro 2017).",
        rules=(_labels_and_runs,
               Rule(("digits",), lambda args: args.fmt == "text",
                    "--digits applies to --format text"),
               Rule(("n_random", "seed"), lambda args: args.weights != "uniform",
                    "--random and --seed apply to the msd, msd-topic and tau weightings, not "
                    "to --weights uniform")))


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


def _side_files(args: argparse.Namespace, **options: str) -> dict[str, str]:
    """The side outputs given (option: file; ``options``: option by dest): files, not
    standard output, checked before the work (the files themselves are checked with the
    other outputs: :func:`irscale.cli.outputs.check_outputs`)."""
    from ..io.files import is_stdio

    named = {option: getattr(args, dest) for dest, option in options.items()
             if getattr(args, dest) is not None}
    for option, path in named.items():
        if is_stdio(path):
            raise ParameterError(f"{option} needs a file name, not standard output")
    return named


def _lines(lines: Iterable[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _write_all(args: argparse.Namespace, side: dict[str, str], texts: dict[str, str],
               lines: Iterable[str]) -> int:
    """The ``side`` outputs (their ``texts`` by option), then ``lines`` to ``-o``: each
    file complete or not written (:func:`irscale.io.files.atomic_output`)."""
    from ..io.files import atomic_output

    with contextlib.ExitStack() as stack:
        for option, path in side.items():
            stack.enter_context(atomic_output(path, "w", force=args.force)).write(texts[option])
        stack.enter_context(atomic_output(args.output, "w", force=args.force)).write(
            _lines(lines))
    return 0


def _warn_unconverged(result, method: str) -> None:
    """The warning of an iterative aggregation stopped by ``--n-iter``."""
    if not result.converged:
        import warnings

        warnings.warn(f"{method} stopped after {result.iterations} iterations without "
                      "converging (raise --n-iter)", stacklevel=1)


def run_allocate(args: argparse.Namespace) -> int:
    """``labels allocate``: the qrels of the answers an allocation buys."""
    check_options(args)
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


def run_aggregate(args: argparse.Namespace) -> int:
    """``labels aggregate``: the qrels of the crowd labels (and the side outputs)."""
    check_options(args)
    side = _side_files(args, confidence="--confidence", workers_file="--workers")
    from ..io.crowd import check_crowd_labels

    checked = check_crowd_labels(args.inputs[0], args.scale)  # every file before pandas
    features = args.features
    if features is not None:
        from ..io.features import read_features

        features = read_features(features)
    labels = checked.build()
    from ..collections.labels import aggregate_labels

    result = aggregate_labels(labels, args.method, scale=args.scale, n_iter=args.n_iter,
                              restarts=args.restarts, rng=args.seed, lr=args.lr,
                              lr_steps=args.lr_steps, lr_decay=args.lr_decay,
                              features=features, length_scale=args.length_scale)
    _warn_unconverged(result, args.method)
    made = {"--confidence": result.confidence_lines, "--workers": result.worker_lines}
    texts = {option: _lines(made[option]()) for option in side}
    return _write_all(args, side, texts, result.lines())


def run_pairwise(args: argparse.Namespace) -> int:
    """``labels pairwise``: the documents' scores (and the workers' skill and bias)."""
    check_options(args)
    side = _side_files(args, workers_file="--workers")
    from ..io.pairwise import read_pairwise

    judgments = read_pairwise(args.inputs[0])  # before the models are imported
    from ..collections.pairwise import aggregate_pairwise

    result = aggregate_pairwise(
        judgments, args.method, n_iter=args.n_iter,
        regularization=args.regularization if args.method == "noisybt" else None)
    _warn_unconverged(result, result.method)
    texts = {"--workers": _lines(result.worker_lines())} if side else {}
    return _write_all(args, side, texts, result.lines())


def run_agree(args: argparse.Namespace) -> int:
    """``labels agree``: the agreement of the crowd labels."""
    check_options(args)
    from ..io.crowd import read_crowd_labels

    labels = read_crowd_labels(args.inputs[0], args.scale)  # before pandas and scipy
    from ..collections.agreement import label_agreement
    from ..stats.protocol import format_table

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

    result = aware(labels, runs, args.measure, weights=args.weights,
                   scale=args.scale, n_random=args.n_random, rng=args.seed,
                   relevance_level=args.relevance_level,
                   allow_unretrieved=args.allow_unretrieved)
    if args.fmt == "csv":
        return write_text(args, result.format("csv"))
    return write_text(args, result.format("text", digits=args.digits) + "\n")

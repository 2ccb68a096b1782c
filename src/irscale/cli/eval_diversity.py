"""``irscale eval`` with diversity measures (ndeval's and NTCIREVAL's): the qrels are read as
``topic subtopic docno judgment`` when every measure requested is a diversity measure or
with ``--qrels-format diversity``; ``--format ndeval`` prints ndeval's CSV (usage:
``docs/cli.md``, ``docs/diversity.md``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..errors import MeasureError, ParameterError
from .rules import Rule, each

QRELS_FORMATS = ("auto", "trec", "diversity")


def add_intent_options(parser: argparse.ArgumentParser) -> None:
    """``--intent-probs FILE`` and ``--intent-types FILE`` (NTCIREVAL's family), as ``eval``,
    ``compare`` and ``meta`` declare them."""
    from .common_params import INTENT_PROBS, INTENT_TYPES
    from .options import add_param

    add_param(parser, INTENT_PROBS)
    add_param(parser, INTENT_TYPES)
    from .outputs import declare_inputs

    declare_inputs(parser, "--intent-probs", "--intent-types")


def add_topic_alpha_option(parser: argparse.ArgumentParser) -> None:
    """``--topic-alpha FILE``: one α per topic for ``alpha-nDCG-w(topic_alpha=1)@k`` and
    ``nERR-IA-w(topic_alpha=1)@k``."""
    parser.add_argument("--topic-alpha", metavar="FILE",
                        help="diversity: one redundancy intolerance per topic, lines 'topic "
                        "alpha', for alpha-nDCG-w(topic_alpha=1)@k and nERR-IA-w(topic_alpha=1)@k")
    from .outputs import declare_inputs

    declare_inputs(parser, "--topic-alpha")


def intent_rules(where: str, holds: Callable[[argparse.Namespace], bool]
                 ) -> tuple[Rule, ...]:
    """``--intent-probs``/``--intent-types`` apply to ``where`` (where ``holds``): no other
    measure reads them."""
    return each(("intent_probs", "intent_types"), holds, f"{{options}} applies to {where}",
                {"intent_probs": "--intent-probs", "intent_types": "--intent-types"})


#: Where the intent options apply.
DIVERSITY_ONLY = "diversity measures only (I-rec@10, D#-nDCG@10, P+Q ...)"


def _measure_names(names: list[str]) -> bool:
    """Whether every one of ``names`` names measures of trec_eval or of the catalogue."""
    from ..measures.names import is_measure_name

    return all(map(is_measure_name, names))


def wants_diversity(args: argparse.Namespace) -> bool:
    """True when the evaluation is a diversity one (see the module documentation);
    a mix of diversity and other measures, or ``--format ndeval`` without diversity
    measures, is a :class:`ParameterError`."""
    names = [n for spec in (args.measures or []) for n in spec.split()]
    if not names:  # trec_eval's official measures: the names need not be parsed
        flags: list[bool] = []
    elif _measure_names(names):  # trec_eval's or the catalogue's: not diversity
        flags = [False] * len(names)
    else:
        from ..measures.diversity import is_diversity_name

        flags = [is_diversity_name(n) for n in names]
    fmt = getattr(args, "qrels_format", "auto") or "auto"
    if flags and any(flags) and not all(flags):
        mixed = next(n for n, f in zip(names, flags, strict=True) if not f)
        raise MeasureError(f"diversity measures cannot be mixed with other measures "
                           f"({mixed!r}): run irscale eval once for each")
    diversity = bool(flags) and all(flags)
    if fmt == "diversity" and names and not diversity:
        raise MeasureError(f"--qrels-format diversity needs diversity measures (ndeval, "
                           f"alpha-nDCG@20 ...), got {names[0]!r}")
    if fmt == "trec" and diversity:
        raise ParameterError("diversity measures need diversity qrels: --qrels-format "
                             "diversity (or auto)")
    diversity = diversity or fmt == "diversity"
    if args.fmt == "ndeval" and not diversity:
        raise ParameterError("--format ndeval prints diversity measures (-m ndeval)")
    return diversity


def run_diversity(args: argparse.Namespace) -> int:
    """``eval`` with diversity measures (the options the intents' context does not read
    refused by the one rule of :mod:`irscale.cli.eval_context`)."""
    from ..evaluation.diversity import evaluate_diversity
    from .outputs import open_output
    from .runargs import label_files, named_runs

    options = dict(complete=args.complete, max_docs=args.max_retrieved,
                   intent_probabilities=args.intent_probs, intent_types=args.intent_types,
                   label_sets=label_files(args.labels), allow_empty=args.allow_empty,
                   topic_alphas=args.topic_alpha,
                   ndeval_ids=args.fmt == "ndeval")  # topic ids as ndeval reads them
    measures = args.measures or ["ndeval"]
    evaluation = evaluate_diversity(
        args.qrels, named_runs(args.runs, args.names, keep_rank=True), measures, **options)
    baseline = None
    if args.baseline is not None:  # ndeval -baseline FILE: same measures and options
        baseline = evaluate_diversity(args.qrels, named_runs([args.baseline], "runid",
                                                             keep_rank=True),
                                      measures, **options)
    text = evaluation.format(args.fmt, per_query=args.per_query, summary=not args.no_summary,
                             baseline=baseline, risk_alpha=args.risk_alpha)
    with open_output(args) as stream:
        stream.write(text.encode())
    return 0

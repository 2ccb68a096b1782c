"""Diversity measures (ndeval's and NTCIREVAL's) on the command line: their options, when
QRELS are read as ``topic subtopic docno judgment`` and ``eval --format ndeval`` (usage:
``docs/diversity.md``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..core.params import InputFiles, Param, Text
from ..errors import MeasureError, ParameterError
from .common_params import INTENT_PROBS, INTENT_TYPES
from .options import add_param
from .rules import Rule, each

QRELS_FORMATS = ("auto", "trec", "diversity")
#: ``--qrels-format``: how QRELS are read.
QRELS_FORMAT = Param("qrels_format", Text(), "auto", "diversity: read QRELS as ndeval's 'topic "
                     "subtopic docno judgment'; auto: when every measure is a diversity "
                     "measure, such as alpha-nDCG@20", ("--qrels-format",))
#: ``--topic-alpha FILE``: one α per topic.
TOPIC_ALPHA = Param("topic_alpha", InputFiles(), None, "diversity: one redundancy intolerance per "
                    "topic, lines 'topic alpha', for alpha-nDCG-w(topic_alpha=1)@k and "
                    "nERR-IA-w(topic_alpha=1)@k", ("--topic-alpha",), "FILE")
#: Where the intent options apply.
DIVERSITY_ONLY = "diversity measures only (I-rec@10, D#-nDCG@10, P+Q ...)"


def add_intent_options(parser: argparse.ArgumentParser) -> None:
    """``--intent-probs FILE`` and ``--intent-types FILE`` (NTCIREVAL's family)."""
    add_param(parser, INTENT_PROBS)
    add_param(parser, INTENT_TYPES)


def add_qrels_format(parser: argparse.ArgumentParser) -> None:
    """``--qrels-format`` (:data:`QRELS_FORMAT`; ``eval``, and the commands of
    :mod:`irscale.cli.inputs`)."""
    add_param(parser, QRELS_FORMAT, choices=QRELS_FORMATS)


def add_topic_alpha_option(parser: argparse.ArgumentParser) -> None:
    """``--topic-alpha FILE`` (:data:`TOPIC_ALPHA`)."""
    add_param(parser, TOPIC_ALPHA)


def intent_rules(where: str, holds: Callable[[argparse.Namespace], bool]
                 ) -> tuple[Rule, ...]:
    """``--intent-probs``/``--intent-types`` apply to ``where`` (where ``holds``): no other
    measure reads them."""
    return each(("intent_probs", "intent_types"), holds, f"{{options}} applies to {where}",
                {"intent_probs": "--intent-probs", "intent_types": "--intent-types"})


def diversity_inputs(args: argparse.Namespace) -> bool:
    """True when QRELS are diversity qrels evaluated with diversity measures: every ``-m``
    measure is one (``--qrels-format auto``) or ``--qrels-format diversity``. A mix of
    diversity and other measures, diversity measures with ``--qrels-format trec`` and
    ``--qrels-format diversity`` with other measures are refused. The diversity measures
    are imported only for a name that is none of trec_eval's or the catalogue's (the two
    sets of names do not meet)."""
    names = [name for spec in (args.measures or []) for name in spec.split()]
    flags = [False] * len(names)
    if names and not all(map(_measure_name(), names)):
        from ..measures.diversity import is_diversity_name

        flags = [is_diversity_name(name) for name in names]
    if any(flags) and not all(flags):
        from ..evaluation.contexts.intents import INTENTS

        raise MeasureError(INTENTS.mixed(names[flags.index(False)]))
    diversity = bool(flags) and all(flags)
    fmt = getattr(args, "qrels_format", "auto") or "auto"
    if fmt == "diversity" and names and not diversity:
        raise MeasureError(f"--qrels-format diversity needs diversity measures (ndeval, "
                           f"alpha-nDCG@20, ERR-IA@20 ...), got {names[0]!r}")
    if fmt == "trec" and diversity:
        raise ParameterError("diversity measures need diversity qrels: --qrels-format "
                             "diversity (or auto)")
    return diversity or fmt == "diversity"


def wants_diversity(args: argparse.Namespace) -> bool:
    """``eval``'s :func:`diversity_inputs` (``--format ndeval`` needs diversity measures)."""
    diversity = diversity_inputs(args)
    if args.fmt == "ndeval" and not diversity:
        raise ParameterError("--format ndeval prints diversity measures (-m ndeval)")
    return diversity


def _measure_name() -> Callable[[str], bool]:
    """:func:`irscale.measures.names.is_measure_name`, imported when a name is given."""
    from ..measures.names import is_measure_name

    return is_measure_name

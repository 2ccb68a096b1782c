"""The dataset conventions of ``irscale eval``, ``compare`` and ``report``: ``--dataset
NAME`` and ``--no-dataset-defaults``, and the rule that applies a dataset's official
measures and relevance level where ``-m`` and ``-l`` are not given
(:mod:`irscale.evaluation.conventions`; docs/evaluation.md, "Dataset conventions").
QRELS read as ``irds:ID`` apply their dataset's conventions without ``--dataset``; a
qrels file without ``--dataset`` is evaluated as trec_eval evaluates it, nothing
applied."""

from __future__ import annotations

import argparse

from ..core.extras import IR_DATASETS, irds_name
from ..core.params import DEFAULT_RELEVANCE_LEVEL, Param, Switch
from ..errors import ParameterError
from ..evaluation.params import DATASET as DATASET
from .options import add_param
from .rules import given

NO_DATASET_DEFAULTS = Param("no_dataset_defaults", Switch(), False, "apply no dataset's "
                            "conventions, not even those of QRELS irds:ID",
                            ("--no-dataset-defaults",))


def add_dataset_options(parser: argparse.ArgumentParser) -> None:
    """``--dataset`` and ``--no-dataset-defaults``."""
    group = parser.add_argument_group("dataset conventions", "official measures and "
                                      "relevance level of a dataset (docs/evaluation.md)")
    add_param(group, DATASET)
    add_param(group, NO_DATASET_DEFAULTS)


def apply_dataset_conventions(args: argparse.Namespace) -> None:
    """Set ``-m`` and ``-l`` from the dataset's conventions where they are not given,
    ``args.conventions`` (the :class:`~irscale.evaluation.conventions.Applied`, ``None``:
    none applied) and ``args.conventions_note``, the line :func:`note` prints. The qrels
    are ``QRELS`` (``eval``, ``report``) or the first of ``QRELS RUN...`` (``compare``);
    a command without them (``compare --scores``, ``--shard-scores``, ``--collection``)
    refuses ``--dataset``."""
    args.conventions = args.conventions_note = None
    if args.dataset is not None and args.no_dataset_defaults:
        raise ParameterError("--dataset names a dataset whose conventions "
                             "--no-dataset-defaults turns off: give one of the two")
    qrels = _qrels(args)
    relevance_format = getattr(args, "relevance_format", "qrels")
    implicit = irds_name(qrels) and relevance_format == "qrels"
    if args.no_dataset_defaults or (args.dataset is None and not implicit):
        return
    if args.dataset is None and not IR_DATASETS.installed():
        return  # QRELS irds:ID without ir_datasets: refused by its declaration, as any input
    if qrels is None:
        raise ParameterError("--dataset applies to the judgments of QRELS RUN..., not to "
                             "--scores, --shard-scores or --collection: a dataset's "
                             "conventions are for its qrels")
    # (--dataset with -R other than qrels: irscale.evaluate's binding, eval's rule)
    from ..evaluation.conventions import conventions_for

    applied = conventions_for(
        qrels, args.dataset, True, measures_given=bool(args.measures),
        level_given=args.relevance_level if given(args, "relevance_level") else None,
        option_names=("-m", "-l"))
    if applied is None:  # pragma: no cover - a name is given or QRELS is irds:
        return
    if applied.measures is not None:
        args.measures = list(applied.measures)
    if applied.relevance_level is not None:
        args.relevance_level = applied.relevance_level
    args.conventions = applied
    args.conventions_note = f"note: {applied.summary()} (--no-dataset-defaults: none)"


def _qrels(args: argparse.Namespace) -> str | None:
    """The qrels of the command line: ``QRELS``, else the first of ``QRELS RUN...``
    (``None``: none given)."""
    if hasattr(args, "qrels"):
        return str(args.qrels)
    inputs = getattr(args, "inputs", None) or ()
    return str(inputs[0]) if inputs else None


def refuse_level(args: argparse.Namespace, reason: str) -> None:
    """Refuse a relevance level other than trec_eval's 1, given with ``-l`` or by the
    dataset's conventions, where the command cannot honour it (``reason``: what evaluates
    at level 1) rather than compute at another level than the one asked for."""
    level = args.relevance_level
    if level == DEFAULT_RELEVANCE_LEVEL:
        return
    whence = ("-l" if args.conventions is None or given(args, "relevance_level") else
              f"the conventions of {args.conventions.dataset}; --no-dataset-defaults: none")
    raise ParameterError(f"{reason}: relevance level {level} ({whence}) cannot apply there: "
                         "give -l 1")


def note(args: argparse.Namespace) -> None:
    """The one line on standard error that says which conventions were applied."""
    text = getattr(args, "conventions_note", None)
    if text is not None:
        import sys

        from ..errors import message_line

        print(message_line(text), file=sys.stderr)


__all__ = ["DATASET", "NO_DATASET_DEFAULTS", "add_dataset_options",
           "apply_dataset_conventions", "note", "refuse_level"]

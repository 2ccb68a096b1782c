"""``irscale eval``'s dataset conventions: ``--dataset NAME`` and ``--no-dataset-defaults``,
and the rule that applies a dataset's official measures and relevance level where ``-m``
and ``-l`` are not given (:mod:`irscale.evaluation.conventions`; docs/evaluation.md,
"Dataset conventions"). QRELS read as ``irds:ID`` apply their dataset's conventions
without ``--dataset``; a qrels file without ``--dataset`` is evaluated as trec_eval
evaluates it, nothing applied."""

from __future__ import annotations

import argparse

from ..core.extras import irds_name
from ..core.params import Param, Switch, Text
from ..errors import ParameterError
from .options import add_param
from .rules import given

DATASET = Param("dataset", Text(), None, "apply the evaluation conventions of a dataset: its "
                "official measures where -m is not given, its relevance level where -l is "
                "not: a collection of irscale's table (trec-dl-2019-passage, trec-robust-2004 "
                "...) or an ir_datasets id", ("--dataset",), "NAME",
                unset="those of QRELS irds:ID, else none")
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
    """Set ``-m`` and ``-l`` from the dataset's conventions where they are not given, and
    ``args.conventions_note``, the line :func:`note` prints (``None``: none applied)."""
    args.conventions_note = None
    if args.dataset is not None and args.no_dataset_defaults:
        raise ParameterError("--dataset names a dataset whose conventions "
                             "--no-dataset-defaults turns off: give one of the two")
    implicit = irds_name(args.qrels) and args.relevance_format == "qrels"
    if args.no_dataset_defaults or (args.dataset is None and not implicit):
        return
    if args.relevance_format != "qrels":
        raise ParameterError(f"--dataset applies to judgments (-R qrels), not -R "
                             f"{args.relevance_format}: a dataset's conventions are for them")
    from ..evaluation.conventions import conventions_for

    applied = conventions_for(
        args.qrels, args.dataset, True, measures_given=bool(args.measures),
        level_given=args.relevance_level if given(args, "relevance_level") else None,
        option_names=("-m", "-l"))
    if applied is None:  # pragma: no cover - a name is given or QRELS is irds:
        return
    if applied.measures is not None:
        args.measures = list(applied.measures)
    if applied.relevance_level is not None:
        args.relevance_level = applied.relevance_level
    args.conventions_note = (f"note: dataset conventions: {applied.dataset}: "
                             f"{'; '.join(applied.lines[1:])} (--no-dataset-defaults: none)")


def note(args: argparse.Namespace) -> None:
    """The one line on standard error that says which conventions were applied."""
    text = getattr(args, "conventions_note", None)
    if text is not None:
        import sys

        from ..errors import message_line

        print(message_line(text), file=sys.stderr)


__all__ = ["DATASET", "NO_DATASET_DEFAULTS", "add_dataset_options",
           "apply_dataset_conventions", "note"]

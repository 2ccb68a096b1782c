"""Options shared by the subcommands that read qrels and runs: ``--names`` (how runs are
named), ``--allow-empty``, trec_eval's options and the measures asked (``-m``), and those
that ``eval`` shares with ``eval-many`` (the batches, ``--cache``): ``eval`` reads them here
without importing :mod:`irscale.cli.eval_many`."""

from __future__ import annotations

from ..errors import ParameterError
from ..evaluation.options import TREC_EVAL_DEFAULTS
from .given import given

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any

    from ..io.naming import NameSpec
    from .rules import Rule


def add_names(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *,
              doc: str | None = None, metavar: str | None = None) -> None:
    """``--names`` (``doc`` where the default differs); its keywords read from the manifest
    (:data:`irscale.io.naming.NAME_MODES`, without loading that module)."""
    from .._manifest import PARSER_DATA
    from .common_params import NAMES
    from .options import add_param

    add_param(parser, NAMES, doc=doc, many=True, unique=False,
              keywords=PARSER_DATA["name_modes"],
              **({"metavar": metavar} if metavar else {}))


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """``--names`` and ``--allow-empty``."""
    from .common_params import ALLOW_EMPTY
    from .options import add_param

    add_names(parser)
    add_param(parser, ALLOW_EMPTY)


def distinct_runs(paths: Sequence[str]) -> Sequence[str]:
    """``paths``, after refusing a run file named twice, under one name or two
    (:func:`~irscale.io.call_inputs.check_distinct`; standard input is one input anyway)."""
    from ..io.call_inputs import check_distinct
    from ..io.files import is_stdio

    check_distinct(path for path in paths if not is_stdio(path))
    return paths


def run_paths(paths: Sequence[str]) -> Sequence[str]:
    """The run files of ``paths`` (a folder or glob pattern: its run files), each once
    (:func:`distinct_runs`); the readers (:func:`~irscale.io.sources.run_files`) loaded
    for a folder or pattern alone."""
    from ..io.call_inputs import expands

    def files(path: str) -> Sequence[str]:
        if not expands(path):
            return [path]
        from ..io.sources import run_files

        return run_files(path)

    return distinct_runs([file for path in paths for file in files(path)])


def named_runs(paths: Sequence[str], names: NameSpec | None, *, keep_rank: bool = False,
               progress: bool = False) -> Sequence[object]:
    """The runs to evaluate (:func:`run_paths`): the paths, read by the evaluation after
    the qrels (whose errors come first), unless ``--names`` or a ``progress`` bar on a
    terminal asks for them read here."""
    return read_named(run_paths(paths), names, keep_rank=keep_rank, progress=progress)


def read_named(files: Sequence[str], names: NameSpec | None, *, keep_rank: bool = False,
               progress: bool = False) -> Sequence[object]:
    """The run files ``files`` (:func:`run_paths` of those given) as :func:`named_runs`
    hands them over: the paths, unless ``--names`` or a progress bar asks them read."""
    import sys

    if names is None and not (progress and sys.stderr.isatty()):
        return files
    from ..io.sources import read_runs

    return read_runs(list(files), names=names or "file", keep_rank=keep_rank,
                     progress=progress)


def read_inputs(qrels: str, runs: Sequence[object], *, keep_rank: bool = False
                ) -> tuple[object, list[object]]:
    """The qrels and runs read as the analyses read them, before a command imports its
    analysis (a malformed file is reported before scipy is loaded)."""
    from ..io.sources import as_qrels, as_runs

    judged = as_qrels(qrels)
    return judged, list(as_runs(runs, keep_rank=keep_rank))


def runs_rule(where: str, holds: Callable[[argparse.Namespace], bool]) -> Rule:
    """``--names`` / ``--allow-empty`` refused with ``where`` (where ``holds`` is false)."""
    from .rules import Rule

    def named(args: argparse.Namespace) -> str:
        """The options given, joined by "and"."""
        return " and ".join(option for option, dest in (("--names", "names"),
                                                        ("--allow-empty", "allow_empty"))
                            if given(args, dest))

    return Rule(("names", "allow_empty"), holds, lambda args: named(args) + " {applies} to "
                f"runs evaluated against qrels, not to {where}")


def add_trec_eval_options(parser: argparse.ArgumentParser, *, trec_eval: bool = False,
                          leave_out: tuple[str, ...] = ()) -> None:
    """trec_eval's options (:data:`~irscale.core.trec_options.TREC_EVAL_PARAMS`) but those named
    in ``leave_out`` (a command that fixes them); ``trec_eval``: ``-l`` also spelt
    ``--level-for-rel``."""
    from ..core.options import TIE_POLICIES
    from ..core.trec_options import TREC_EVAL_PARAMS
    from .options import add_param

    # the choices of trec_eval's options that argparse checks (its message and metavar)
    choices_of: dict[str, Any] = {"compat": (9, 10), "tie_policy": TIE_POLICIES}
    for param in (p for p in TREC_EVAL_PARAMS if p.name not in leave_out):
        aliases = ("--level-for-rel",) if trec_eval and param.name == "relevance_level" else ()
        choices = {"choices": choices_of[param.name]} if param.name in choices_of else {}
        add_param(parser, param, aliases=aliases, **choices)


def label_files(specs: list[str]) -> dict[str, str]:
    """``["under=task2.qunder"]`` → ``{"under": "task2.qunder"}``."""
    if not specs:
        return {}
    from .common_params import LABEL_FILES

    labels: dict[str, str] = {}
    for spec in specs:
        name, paths = LABEL_FILES.domain.split(spec)
        if not name or not paths:
            raise ParameterError(f"--labels takes NAME=FILE, got {spec!r}")
        if name in labels:
            raise ParameterError(f"--labels: label set {name!r} given twice")
        labels[name] = paths[0]
    return labels


def add_batch_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--batch-size``, ``--scheduler``, ``--workers`` and ``--per-topic-out``
    (``eval-many``, and ``eval``, which streams its runs in batches when one is given)."""
    from ..core.params import THREADS
    from ..evaluation.params import BATCH, PER_TOPIC_OUT
    from .options import add_param, add_scheduler

    add_param(parser, BATCH)
    add_scheduler(parser, "the batches")
    add_param(parser, THREADS, doc="threads of this process running batches")
    add_param(parser, PER_TOPIC_OUT)


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    """``--cache DIR``: the results cache of ``eval`` and ``eval-many``."""
    from ..evaluation.params import CACHE
    from .options import add_param

    add_param(parser, CACHE)


#: trec_eval's options (:mod:`irscale.evaluation.options`) → the destination of each on
#: the command line (``-M`` is stored as ``max_retrieved``).
TREC_EVAL_DESTS = {name: "max_retrieved" if name == "max_docs" else name
                   for name in TREC_EVAL_DEFAULTS}


def trec_eval_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The arguments of :func:`irscale.evaluate` that trec_eval's options give (``eval``
    and ``eval-many``)."""
    return {name: getattr(args, dest) for name, dest in TREC_EVAL_DESTS.items()}


def requested_measures(args: argparse.Namespace) -> list[str]:
    """The ``-m`` names (default: ``official``); with ``--format trec``, whose output stands
    for trec_eval's, read as trec_eval reads them: a family requested twice keeps its first
    parameters (:func:`irscale.measures.trec_reading.trec_eval_reading`). The other formats
    keep every request as given, as :func:`irscale.evaluate` does."""
    measures = args.measures or ["official"]
    if args.fmt != "trec":
        return measures
    from ..measures.trec_reading import trec_eval_reading

    return trec_eval_reading(measures, compat=args.compat,
                             per_query=getattr(args, "per_query", False))


#: The options of :func:`add_batch_options` (their dests): ``eval`` given one evaluates in
#: batches.
BATCH_DESTS = ("batch_size", "scheduler", "workers", "per_topic_out")


def wants_batches(args: argparse.Namespace) -> bool:
    """True when ``eval`` was given one of :func:`add_batch_options`' options."""
    return any(given(args, name) for name in BATCH_DESTS)

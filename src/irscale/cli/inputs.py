"""One loader of the inputs of ``compare``, ``meta`` and ``scale``: ``QRELS RUN...`` (runs
named as ``irscale eval`` names them) or ``--scores`` files, declared by :func:`add_inputs`
and read by :func:`qrels_and_runs` or :func:`load_matrix`, with the same messages
everywhere."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import InputError, ParameterError
from .common_params import (
    INPUTS,
    MEASURES,
    NO_CDF,
    SCORES,
    STANDARDISE,
    SYSTEMS,
    TOPIC_COLUMN,
)
from .eval_options import (
    DIVERSITY_ONLY,
    add_intent_options,
    add_qrels_format,
    diversity_inputs,
    intent_rules,
)
from .options import add_param, wants_progress
from .rules import Rule, add_rules
from .runargs import add_run_options, named_runs, runs_rule

if TYPE_CHECKING:  # pragma: no cover
    from ..core import ScoreMatrix
    from ..io.pending import Pending
    from ..online.clickmodels import ClickModel

def check_click_model(path: str) -> Pending[ClickModel]:
    """The click model of a JSON file of parameters (``--params``, ``--clicks``,
    ``--model``), its text checked now (:func:`irscale.io.click_params.read_click_params`)
    and the model built later: a command checks every file it reads before pandas and the
    click models are imported (:mod:`irscale.io.pending`)."""
    from ..io.click_params import not_parameters, read_click_params
    from ..io.pending import Pending
    from ..online.params import click_values_fault

    data = read_click_params(path)
    fault = click_values_fault(data)  # the values too, before pandas is imported
    if fault is not None:
        raise not_parameters(fault, path)

    def build() -> ClickModel:
        from ..online.clickmodels import ClickModel

        return ClickModel.from_json(data, source=path)

    return Pending(path, build)


#: ``--topic-column``: a column of the ``--scores`` files.
SOURCES_RULE = Rule(("topic_column",), lambda args: bool(getattr(args, "scores", None)),
                    "--topic-column applies to --scores files (score CSVs), not to runs "
                    "evaluated against qrels")


def _runs_read(args: argparse.Namespace) -> bool:
    """Whether runs are read (``QRELS RUN...``), not ``--scores`` files."""
    return not getattr(args, "scores", None)


#: The options of runs, refused with ``--scores`` files (:func:`check_inputs`).
SCORES_RULES = (
    runs_rule("--scores files", _runs_read),
    *intent_rules("diversity measures evaluated against qrels, not to --scores files",
                  _runs_read),
    Rule(("qrels_format",), lambda args: _runs_read(args) or args.qrels_format == "auto",
         "--qrels-format applies to QRELS RUN..., not to --scores files"),
)
#: The intent options, refused when the measures are not diversity measures.
NOT_DIVERSITY = intent_rules(DIVERSITY_ONLY, lambda args: False)


def add_inputs(parser: argparse.ArgumentParser, *, scores: bool = True,
               systems: bool = True, measure_help: str = "measure (repeatable)") -> None:
    """The input options: ``QRELS RUN...`` evaluated with ``-m``, or (``scores``)
    ``--scores FILE`` and ``--topic-column``; ``--names`` and ``--allow-empty``; (``systems``)
    ``--systems A,B,...``."""
    add_param(parser, INPUTS, nargs="*", doc=INPUTS.doc + (" (or --scores)" if scores else ""))
    if scores:
        add_param(parser, SCORES, action="append")
        add_param(parser, TOPIC_COLUMN)
    add_measures(parser, measure_help)
    add_run_options(parser)  # --names, --allow-empty
    add_qrels_format(parser)
    add_intent_options(parser)
    if systems:
        add_param(parser, SYSTEMS, many=True)


def add_standardise(parser: argparse.ArgumentParser) -> None:
    """``--standardise`` and ``--no-cdf``: the analyses of score matrices (``compare``,
    ``meta``) on Webber, Moffat and Zobel's standardised scores (:func:`load_matrix`)."""
    add_param(parser, STANDARDISE)
    add_param(parser, NO_CDF)
    add_rules(parser, Rule(("no_cdf",), lambda args: args.standardise,
                           "--no-cdf applies to --standardise"))


def add_measures(parser: argparse.ArgumentParser, doc: str = "measure (repeatable)", *,
                 required: bool = False) -> None:
    """``-m/--measure MEASURE``, repeatable: the measures the runs are evaluated with."""
    add_param(parser, MEASURES, action="append", doc=doc, required=required)


def check_measure_names(names: Sequence[str] | str | None) -> None:
    """Refuse an unknown measure among ``names`` (``-m``, ``--measure``) as the evaluation
    will (:func:`irscale.measures.names.parse_measures`), before the inputs are read and
    pandas, scipy or the catalogue is imported. Diversity measures
    (:func:`irscale.measures.diversity.is_diversity_name`, imported only for a name that is
    none of trec_eval's or the catalogue's) are left to their evaluation; what a command
    allows of the names parsed is checked where it evaluates them."""
    from ..measures.names import is_measure_name, parse_measures

    listed = [names] if isinstance(names, str) else list(names or ())
    unknown = [name for name in listed if not is_measure_name(name)]
    if unknown:
        from ..measures.diversity import is_diversity_name

        plain = [name for name in unknown if not is_diversity_name(name)]
        if plain:
            parse_measures(plain)


def input_paths(args: argparse.Namespace) -> list[str]:
    """The qrels and run files of the command line (``QRELS RUN...``)."""
    if hasattr(args, "inputs"):
        return list(args.inputs)
    return [args.qrels, *args.runs]


def check_inputs(args: argparse.Namespace, *, min_runs: int = 2) -> None:
    """The inputs the command line names, checked before anything is read (and before the
    numerical packages are imported): ``--scores`` files or ``QRELS RUN...``, not both;
    with score files none of the options of runs; with runs a qrels file, ``min_runs`` run
    files at least and ``-m``. Every command that reads them with :func:`qrels_and_runs`
    or :func:`load_matrix` calls it first."""
    paths = input_paths(args)
    if getattr(args, "scores", None):
        if paths:
            raise ParameterError("give either --scores FILE or QRELS RUN..., not both")
        for rule in SCORES_RULES:
            rule.check(args)
        return
    if len(paths) < 1 + min_runs:
        runs = "two run files" if min_runs >= 2 else "one run file"
        raise ParameterError(f"{'' if paths else 'nothing to compare: '}give a qrels file "
                             f"and at least {runs}"
                             f"{' (or --scores FILE)' if hasattr(args, 'scores') else ''}")
    if not args.measures:
        raise ParameterError("name the measure(s) with -m MEASURE (e.g. -m map)")


def qrels_and_runs(args: argparse.Namespace, *,
                   keep_rank: bool = False) -> tuple[str, Sequence[object]]:
    """The qrels file and the runs of ``QRELS RUN...`` (:func:`check_inputs`), named as
    ``--names`` says (see :func:`irscale.cli.runargs.named_runs`); ``keep_rank``: keep the
    rank column (for ``--ties rank-column``)."""
    paths = input_paths(args)
    return paths[0], named_runs(paths[1:], args.names, keep_rank=keep_rank,
                                progress=wants_progress(args))


def load_matrix(args: argparse.Namespace) -> ScoreMatrix:
    """The per-topic scores of the command line (:func:`check_inputs`): the ``--scores``
    files, or the runs evaluated against the qrels with every ``-m`` measure; standardised
    with ``--standardise`` (against every system given); restricted to ``--systems``; at
    least 2 systems and 2 topics, not all equal."""
    if getattr(args, "scores", None):
        from ..io.score_files import read_score_files

        matrix = read_score_files(args.scores, args.topic_column)
        unknown = [m for m in args.measures or () if m not in matrix.measures]
        if unknown:
            raise ParameterError(f"-m {unknown[0]}: no such measure in the --scores files "
                                 f"(they hold {list(matrix.measures)}, named after the files)")
    else:
        matrix = _evaluate(args)
        # -m by the names of the matrix's columns (P.10 is P_10, P.5,10 is two columns, a
        # measure named twice is one), so that every later choice by name finds each one
        args.measures = list(matrix.measures)
    if getattr(args, "standardise", None):
        from ..stats.standardisation import standardise

        matrix = standardise(matrix, cdf=not args.no_cdf)
    systems = getattr(args, "systems", None)  # parsed and checked by ListAction
    if systems is not None:  # a system's name (runs: found already, _find_systems)
        from ..io.naming import find_names

        matrix = matrix.subset(systems=find_names(systems, matrix.systems, "--systems"))
    if matrix.n_systems < 2:
        raise InputError(f"at least 2 systems are needed, got {matrix.n_systems}")
    if matrix.n_topics < 2:
        raise InputError(f"at least 2 topics are needed, got {matrix.n_topics}")
    from ..stats.validation import check_not_constant

    check_not_constant(matrix.values, "the scores")
    return matrix


def _evaluate(args: argparse.Namespace) -> ScoreMatrix:
    """The runs of ``QRELS RUN...`` evaluated with every ``-m`` measure, at ``-l`` where
    the command has it (:func:`irscale.evaluation.evaluate_matrix`; diversity measures as
    ndeval ranks: by the rank column). A dataset's conventions are the command's to apply
    (:func:`irscale.cli.dataset_options.apply_dataset_conventions`), not the evaluation's."""
    from ..evaluation import evaluate_matrix

    diversity = diversity_inputs(args)
    if not diversity:
        for rule in NOT_DIVERSITY:
            rule.check(args)
    qrels, runs = qrels_and_runs(args, keep_rank=diversity)
    runs = _find_systems(args, runs, keep_rank=diversity)
    return evaluate_matrix(qrels, runs, args.measures, intent_probabilities=args.intent_probs,
                           intent_types=args.intent_types, allow_empty=args.allow_empty,
                           relevance_level=getattr(args, "relevance_level", None),
                           dataset_defaults=False)


#: The options (``dest``) of the commands of score matrices that name runs.
RUN_NAMING = ("systems", "baseline", "original", "reproduced")


def _find_systems(args: argparse.Namespace, runs: Sequence[object], *, keep_rank: bool
                  ) -> Sequence[object]:
    """``runs``, read when an option names some of them (:data:`RUN_NAMING`): each name
    replaced by the name of the run it designates, a run's name or its file (path, file name
    or stem, :func:`irscale.io.naming.find_run`, as ``irscale eval --baseline`` takes it),
    so that a name of no run is refused before any evaluation."""
    options = [option for option in RUN_NAMING if getattr(args, option, None)]
    if not options:
        return runs
    from ..io.naming import find_run
    from ..io.sources import as_runs

    read = as_runs(list(runs), keep_rank=keep_rank)
    for option in options:
        setattr(args, option, [find_run(name, read, f"--{option}")
                               for name in getattr(args, option)])
    return read

"""Stochastic runs: fairness and exposure measures (``EE-L``, ``AWRF@10`` ...,
:mod:`irscale.evaluation.fairness`), every run a stochastic run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..context import Context, measure_names, register, take

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ...measures.results import Evaluation
    from ..context import TrecReader


class Fairness(Context):
    """Stochastic runs: every run file the sampled rankings of each topic."""

    name = "fairness"
    what = "fairness measures"
    why = ("they read stochastic runs: the sampled rankings of each topic, ranked by score, "
           "and the document groups of the label set 'groups'")
    reads = frozenset({"labels", "allow_empty"})
    averaging = "mean"
    formats = ("trec", "csv", "json", "markdown")

    def claims(self, qrels: Any, measures: Any, options: Mapping[str, Any]) -> bool:
        """Every measure a fairness measure (a mix with others is refused by the one rule
        of :func:`~irscale.evaluation.contexts.choose`); names that trec_eval or the
        catalogue's rankings read never load the fairness modules."""
        names = measure_names(measures)
        if not names:
            return False
        from ...measures.names import is_measure_name

        if all(map(is_measure_name, names)):
            return False
        from ..fairness import is_fairness_name

        return all(map(is_fairness_name, names))

    def run(self, held: list[Any], measures: Any, **options: Any) -> Evaluation:
        """:func:`~irscale.evaluation.fairness.evaluate_fairness` of ``held``
        (``[qrels, runs]``)."""
        from ..fairness import evaluate_fairness

        qrels, runs = take(held)
        return evaluate_fairness(qrels, runs, measure_names(measures), **options)

    def read_runs(self, paths: Sequence[str], names: Any, trec: TrecReader) -> list[Any]:
        """The run files of ``irscale eval``, every one a stochastic run
        (:func:`~irscale.evaluation.fairness.read_runs`), named as ``names`` says (by
        default by file, :func:`~irscale.io.naming.name_runs`)."""
        from ...io.naming import name_runs
        from ..fairness import read_runs

        return name_runs(read_runs(list(paths)), names or "file")


FAIRNESS = register(Fairness())

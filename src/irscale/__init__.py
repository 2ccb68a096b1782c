"""irscale: offline IR evaluation you can trust.

trec_eval-exact measures from TREC files or Python objects, interval scales for measures,
statistical inference for IR experiments and the meta-evaluation of measures and tests.

An experiment: :func:`read_qrels` and :func:`read_runs` read the inputs, :func:`evaluate`
measures the runs (an :class:`Evaluation`: per-topic values, means, ``compare`` with a
baseline, ``format`` as a table), and :func:`tukey_hsd`, :func:`pairwise_tests`,
:func:`paired_t` and :func:`anova` test the differences (every other test:
:mod:`irscale.stats`).

Implementation: names are imported on first use (PEP 562), so ``irscale eval`` does not
pay for scipy and the statistics when it only evaluates runs. This module imports nothing
when it is loaded (not even :mod:`typing`): the ``irscale`` script loads it before
:func:`irscale.cli.main.main` starts, whose protected region turns ^C into
``irscale: interrupted``.
"""

from __future__ import annotations

TYPE_CHECKING = False

#: Public name → the submodule that defines it.
_EXPORTS: dict[str, str] = {
    "__version__": ".core.version",
    "Evaluation": ".evaluation",
    "evaluate": ".evaluation",
    "evaluate_many": ".evaluation.many",
    "evaluate_sessions": ".evaluation.sessions",
    "fuse": ".fusion",
    "optimize_fusion": ".fusion",
    "IrscaleError": ".errors",
    "Qrels": ".core.inputs",
    "Run": ".core.inputs",
    "ScoreMatrix": ".core.scorematrix",
    "read_qrels": ".io.sources",
    "read_run": ".io.sources",
    "read_runs": ".io.sources",
    "read_diversity_qrels": ".io.diversity",
    "read_session_run": ".io.sessions",
    "read_intent_probabilities": ".io.diversity",
    "parse_measures": ".measures.names",
    "anova": ".stats",
    "paired_t": ".stats",
    "pairwise_tests": ".stats",
    "randomization_test": ".stats",
    "topic_set_size": ".stats",
    "tukey_hsd": ".stats",
}
_SUBMODULES = ("stats", "meta", "scales", "collections", "labels", "text", "online",
               "report")

__all__ = [
    "Evaluation",
    "IrscaleError",
    "Qrels",
    "Run",
    "ScoreMatrix",
    "__version__",
    "anova",
    "collections",
    "evaluate",
    "evaluate_many",
    "evaluate_sessions",
    "fuse",
    "labels",
    "meta",
    "online",
    "optimize_fusion",
    "paired_t",
    "pairwise_tests",
    "parse_measures",
    "randomization_test",
    "read_diversity_qrels",
    "read_intent_probabilities",
    "read_qrels",
    "read_run",
    "read_runs",
    "read_session_run",
    "report",
    "scales",
    "stats",
    "text",
    "topic_set_size",
    "tukey_hsd",
]


def __getattr__(name: str) -> Any:
    import importlib

    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
        # the API's edge: a raw exception caused by an argument names it
        value = importlib.import_module(".core.edge", __name__).guarded(value)
    elif name in _SUBMODULES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module 'irscale' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs
    from typing import Any

    from . import collections, meta, online, report, scales, stats, text
    from .core.inputs import Qrels, Run
    from .core.scorematrix import ScoreMatrix
    from .errors import IrscaleError
    from .evaluation import Evaluation, evaluate
    from .evaluation.many import evaluate_many
    from .evaluation.sessions import evaluate_sessions
    from .fusion import fuse, optimize_fusion
    from .io.diversity import read_diversity_qrels, read_intent_probabilities
    from .io.sessions import read_session_run
    from .io.sources import read_qrels, read_run, read_runs
    from .measures.names import parse_measures
    from .stats import (
        anova,
        paired_t,
        pairwise_tests,
        randomization_test,
        topic_set_size,
        tukey_hsd,
    )

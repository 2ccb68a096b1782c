"""The runners: qrels (or other judgments) + runs + measure names → an evaluation.

Each evaluation context (judged rankings, intents, fairness, preferences, sessions, texts,
pyramids, nuggets, citations) is declared once
(:mod:`.context`, one module of :mod:`.contexts` each); :func:`evaluate` and
``irscale eval`` pick the context from those declarations and refuse the options it does
not read by one rule. The modules:

* :mod:`.api`: :func:`evaluate`, built from the declared contexts;
* :mod:`.judged`: trec_eval's and the catalogue's measures over judged rankings;
* :mod:`.diversity`: ndeval's and NTCIREVAL's diversity measures over intents;
* :mod:`.fairness`: fairness and exposure measures over stochastic runs;
* :mod:`.prefs`: preference judgments (trec_eval ``-R prefs``);
* :mod:`.sessions`: multi-query sessions; :mod:`.pyramids`: pyramid scores of peers' SCUs;
  :mod:`.rouge`, :mod:`.bleu`: texts against references; :mod:`.nuggets`: outputs by
  their nuggets; :mod:`.citations`: cited answers by their support judgments
  (:mod:`.outputs`: the result of textual outputs; the kernels of all
  these: :mod:`irscale.text`);
* :mod:`.options`: trec_eval's seven options, declared once; :mod:`.setup`: the checks
  every evaluation makes; :mod:`.many`: thousands of runs with
  bounded memory; :mod:`.trec_text`: trec_eval's printed output straight from the engine.

The names below are loaded when first used (PEP 562): trec_eval's text output
(:mod:`.trec_text`) loads no numerical package, and neither does this package.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ..measures.results import Evaluation
    from .api import evaluate, evaluate_matrix
    from .judged import evaluate_judged, evaluate_native
    from .setup import check_topics

#: Public name → the module that defines it.
_LAZY = {"Evaluation": "..measures.results", "check_topics": ".setup", "evaluate": ".api",
         "evaluate_judged": ".judged", "evaluate_matrix": ".api",
         "evaluate_native": ".judged"}

__all__ = ["Evaluation", "check_topics", "evaluate", "evaluate_judged", "evaluate_matrix",
           "evaluate_native"]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name], __name__), name)

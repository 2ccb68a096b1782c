"""The parameters of rank fusion, declared once, and their joint checks.

:func:`irscale.fusion.fuse` and :func:`irscale.fusion.optimize_fusion` check their arguments
with these, and ``irscale fuse`` builds its options from them before numpy is imported:
this module imports nothing but :mod:`irscale.errors` and :mod:`irscale.core.params` (the
mechanism: domains, :class:`~irscale.core.params.Param`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.binding import Binding, Required
from ..core.params import (
    DEFAULT_RRF_K,
    RRF_K,
    Cost,
    InputFiles,
    Integers,
    Listed,
    Names,
    Needs,
    Param,
    Reals,
    Text,
)
from ..errors import ParameterError, shown

#: The fusion methods of :func:`irscale.fusion.fuse` (ranx's names as aliases). Score
#: methods combine (normalised) scores; rank methods read each run's ranking only.
#: The supervised methods (their probabilities or weights learnt on training topics: the
#: runs' rankings of them and their qrels) are in both lists.
FUSION_SCORE_METHODS: tuple[str, ...] = ("combsum", "combmnz", "combmax", "combmin",
                                         "combmed", "combanz", "wsum", "combgmnz", "mixed",
                                         "segfuse")
FUSION_RANK_METHODS: tuple[str, ...] = ("rrf", "isr", "log-isr", "logn-isr", "bordafuse",
                                        "w-bordafuse", "condorcet", "w-condorcet", "rbc",
                                        "probfuse", "slidefuse", "posfuse", "mapfuse",
                                        "bayesfuse")
#: The methods trained on training topics (``train_qrels`` and ``train_runs``).
FUSION_TRAINED: tuple[str, ...] = ("segfuse", "probfuse", "slidefuse", "posfuse", "mapfuse",
                                   "bayesfuse")
#: The methods that take one weight per run (default 1 each).
FUSION_WEIGHTED: tuple[str, ...] = ("wsum", "mixed", "w-bordafuse", "w-condorcet")
FUSION_METHOD = Param(
    "method", Names("fusion method", (*FUSION_SCORE_METHODS, *FUSION_RANK_METHODS),
                    {"sum": "combsum", "mnz": "combmnz", "max": "combmax", "min": "combmin",
                     "med": "combmed", "anz": "combanz", "gmnz": "combgmnz",
                     "log_isr": "log-isr", "logn_isr": "logn-isr",
                     "w_bordafuse": "w-bordafuse", "weighted-bordafuse": "w-bordafuse",
                     "w_condorcet": "w-condorcet", "weighted-condorcet": "w-condorcet",
                     "weighted-sum": "wsum"}, fold=True),
    None, "fusion method", ("--method",), "METHOD")
#: Score normalisations per run and topic (:func:`irscale.fusion.fuse`; ranx's names).
FUSION_NORMS: tuple[str, ...] = ("none", "min-max", "max", "sum", "zmuv", "rank", "borda")
FUSION_NORM = Param(
    "norm", Names("normalisation", FUSION_NORMS,
                  {"min_max": "min-max", "z-score": "zmuv", "zscore": "zmuv"}, fold=True),
    None, "score normalisation per run and topic, before a score method",
    ("--norm",), "NORM", unset="min-max for score methods; rank methods take none")
#: Reciprocal rank fusion's constant k (Cormack et al. 2009: 60), spelt as pooling's.
FUSION_K = Param("k", RRF_K, DEFAULT_RRF_K, "RRF constant k of 1/(k + rank), rrf only",
                 ("--k",), "K")
#: A weight of the weighted sum (any finite number).
FUSION_WEIGHT = Reals()
FUSION_WEIGHTS = Param("weights", Listed(FUSION_WEIGHT, "a weight", repeats=True), None,
                       "wsum, mixed, w-bordafuse, w-condorcet: one weight per run, in order",
                       ("--weights",), "W,W,...", unset="1 each")
#: The parameters of one fusion method each (Python name: the method, the Param); those
#: without a default are required by their method.
FUSION_PHI = Param("phi", Reals(0.0, 1.0, "()"), None, "rbc, required: the persistence phi "
                   "of the weights (1-phi)*phi^(rank-1)", ("--phi",), "PHI")
FUSION_GAMMA = Param("gamma", Reals(0.0, 10.0), None, "combgmnz, required: the exponent "
                     "gamma of |R(d)|^gamma", ("--gamma",), "G")
FUSION_SIGMA = Param("sigma", Reals(0.0, 1.0), 0.01, "logn-isr: sigma of ln(|R(d)| + sigma)",
                     ("--sigma",), "S")
FUSION_SEGMENTS = Param("segments", Integers(1, 100_000), None, "probfuse, required: the segments "
                        "of each ranking", ("--segments",), "K",
                        cost=Cost("segments", per="a segment of every ranking of every "
                                  "topic (the probabilities kept)"))
FUSION_WINDOW = Param("window", Integers(0, 100_000), None, "slidefuse, required: the "
                      "half-width w of the window of ranks averaged", ("--window",), "W",
                      cost=Cost("ranks", per="a rank of the window averaged at every rank "
                                "(at most the ranks of a run)"))
FUSION_METHOD_PARAMS: dict[str, tuple[str, Param]] = {
    "phi": ("rbc", FUSION_PHI), "gamma": ("combgmnz", FUSION_GAMMA),
    "sigma": ("logn-isr", FUSION_SIGMA), "segments": ("probfuse", FUSION_SEGMENTS),
    "window": ("slidefuse", FUSION_WINDOW)}
#: The grid step of weight optimisation: weights are multiples of it summing to 1.
FUSION_STEP = Param("step", Reals(0.0, 1.0, "(]"), 0.1, "optimisation: the grid step of "
                    "the weights (multiples of it summing to 1; 1/step an integer)",
                    ("--step",), "S",
                    cost=Cost("weight vectors", "inverse",
                              "(1/step)^(n-1) weight vectors of n runs"))

#: The supervised methods' training topics: their qrels and the same systems' runs of them.
FUSION_TRAIN_QRELS = Param("train_qrels", InputFiles(), None, "supervised methods: the qrels of "
                           "the training topics", ("--train-qrels",), "FILE")
FUSION_TRAIN_RUNS = Param("train_runs", InputFiles(), None, "supervised methods: the same "
                          "systems' runs of the training topics, one per RUN, in the same "
                          "order", ("--train-runs",), "RUN")
#: The measure the weights of :func:`irscale.fusion.optimize_fusion` maximise.
FUSION_MEASURE = Param("measure", Text(), "AP", "--optimize: the measure maximised, one "
                       "value per topic", ("--measure",), "MEASURE")
#: The run tag of the fused run (default: the method).
FUSION_NAME = Param("name", Text(), None, "the run tag of the output's lines",
                    ("--run-tag",), "TAG", unset="the method", dest="run_tag")


#: :func:`irscale.fusion.fuse` (``irscale fuse``): a normalisation applies to the score
#: methods, ``k`` to rrf, weights to the weighted methods, each method's own parameter to
#: it (those without a default needed), the training topics to the supervised methods
#: (and needed by them).
FUSE = Binding(
    (FUSION_METHOD, FUSION_NORM, FUSION_K, FUSION_WEIGHTS,
     *(param for _, param in FUSION_METHOD_PARAMS.values())),
    rules=(Needs((FUSION_NORM,), "the score methods (a rank method reads each run's ranking "
                 "only: leave it unset)", on=FUSION_METHOD, values=FUSION_SCORE_METHODS),
           Needs((FUSION_K,), on=FUSION_METHOD, values=("rrf",)),
           Needs((FUSION_WEIGHTS,), on=FUSION_METHOD, values=FUSION_WEIGHTED),
           *(Needs((param,), on=FUSION_METHOD, values=(owner,))
             for owner, param in FUSION_METHOD_PARAMS.values()),
           *(Required(param, on=FUSION_METHOD, values=(owner,))
             for owner, param in FUSION_METHOD_PARAMS.values() if param.default is None),
           Needs((FUSION_TRAIN_QRELS, FUSION_TRAIN_RUNS), "the supervised methods",
                 on=FUSION_METHOD, values=FUSION_TRAINED),
           Required(FUSION_TRAIN_QRELS, on=FUSION_METHOD, values=FUSION_TRAINED),
           Required(FUSION_TRAIN_RUNS, on=FUSION_METHOD, values=FUSION_TRAINED)))


#: The parameters of :func:`irscale.fusion.optimize_fusion` (the weighted sum's
#: normalisation and the step of its grid of weights).
OPTIMIZE_FUSION = Binding((FUSION_NORM, FUSION_STEP))


def fusion_norm(method: str, norm: str | None) -> str:
    """``norm`` (checked by :data:`FUSE`), or where None the default of ``method``:
    ``min-max`` for a score method, ``none`` for a rank method (where :data:`FUSE`
    refuses any)."""
    if norm is not None:
        return norm
    return "none" if method in FUSION_RANK_METHODS else "min-max"


def method_params(method: str, given: Mapping[str, object]) -> dict[str, Any]:
    """The parameters of :data:`FUSION_METHOD_PARAMS` that are ``method``'s own (``given``:
    name → value, None where not given), its default filled in where it has one (which
    apply and which are needed is :data:`FUSE`'s to say)."""
    return {name: FUSION_METHOD_PARAMS[name][1].default if value is None else value
            for name, value in given.items() if FUSION_METHOD_PARAMS[name][0] == method}


def check_weight_count(weights: list[float] | None, runs: int) -> None:
    """Two runs at least, and one weight per run where weights are given."""
    if runs < 2:
        raise ParameterError(f"fusion needs two runs at least, got {runs}")
    if weights is not None and len(weights) != runs:
        raise ParameterError(f"weights: {len(weights)} weights for {runs} runs (one per "
                             "run, in order)", param="weights")




def fusion_steps(step: float) -> int:
    """The number of grid steps ``1/step`` of a ``step`` of :data:`FUSION_STEP`
    (checked by :data:`OPTIMIZE_FUSION`), which must divide 1 within 1e-9: 0.1, 0.05, 0.25
    do; 0.3 does not."""
    count = round(1.0 / step)
    if abs(count * step - 1.0) > 1e-9:
        raise ParameterError(f"step must divide 1 (0.1, 0.05, 0.25 ...), got {shown(step)}",
                             param="step")
    return count

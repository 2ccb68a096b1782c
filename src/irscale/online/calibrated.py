"""Click-calibrated offline measures (Ferro & Maistro 2024, §5.1, eqs. 16–17): the
utility-based ``uM = Σ_i P[C_i = 1]·r̂_i`` and effort-based ``rrM = Σ_i s_i·P[C_i = 1]/i``
of :mod:`irscale.measures.click_models`, with the probabilities taken from a click model
(:mod:`irscale.online.clickmodels`) in one call.

For every run and topic, the run's first ``depth`` documents (ranked as the evaluation
ranks them) form the result page the click model sees: ``P[C_i = 1]`` is the model's full
(unconditional) click probability at rank i, and ``s_i = P[S_i = 1 | C_i = 1]`` its
satisfaction after a click (DBN/SDBN ``σ_qu``; CM 1, the user stops; DCM ``1 − λ_i``; CCM
``α_qu``, the relevance that satisfies). PBM and UBM have no satisfaction: rrM then uses its
own default (Chapelle's ``(2^g − 1)/2^gmax``) unless ``sat=``/``psat=`` is given. Documents
below ``depth`` are never clicked. The query ids of the model are the topic ids.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..collections.candidates import ranked_candidates
from ..core.labels import LabelTable
from ..core.options import TiePolicy
from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..core.strings import Strings
from ..errors import ParameterError
from ..evaluation import evaluate
from ..io.sources import as_qrels, as_runs
from .clicklog import ClickLog
from .clickmodels import ClickModel
from .params import CALIBRATED_MEASURES, INDEPENDENT_CLICK_MODELS, split_calibrated

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames

__all__ = ["calibrated_summary", "click_calibrated"]

#: Label sets the click model's probabilities are handed to the measures in.
CLICK, SATISFACTION = "clickmodel_click", "clickmodel_sat"
#: Result page size of models without rank parameters (DBN, SDBN, CM, CCM).
DEFAULT_DEPTH = 10


@CALIBRATED_MEASURES
def click_calibrated(qrels: Any, runs: Any, model: ClickModel,
                     measures: MeasureNames = ("uM", "rrM"), *,
                     depth: int | None = None, ties: TiePolicy = "trec_eval",
                     relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> pd.DataFrame:
    """uM and rrM of every run with ``model``'s click (and satisfaction) probabilities.

    Parameters
    ----------
    qrels, runs
        As :func:`irscale.evaluate` takes them.
    model : ClickModel
        Fitted (:func:`~irscale.online.clickmodels.fit_click_model`) or parametrised.
    measures : str or iterable of str
        ``uM`` and ``rrM`` names with their other parameters and cut-off (``uM(gain=exp)@5``,
        ``rrM(psat=0.2:0.8)``); ``click=``/``pclick=`` come from the model.
    depth : int, optional
        Result page size: default the model's number of rank parameters (PBM, UBM, DCM),
        else 10.

    Returns
    -------
    DataFrame
        ``run, topic, measure, value`` (the measure as named in ``measures``).

    Examples
    --------
    >>> from irscale.online.clickmodels import ClickModel
    >>> import pandas as pd
    >>> pbm = ClickModel("pbm", pd.Series({("t", "a"): 0.8, ("t", "b"): 0.4}),
    ...                  examination=[1.0, 0.5])
    >>> frame = click_calibrated({"t": {"a": 2, "b": 1}}, {"t": {"a": 2.0, "b": 1.0}},
    ...                          pbm, ["uM"])
    >>> frame["value"].tolist()  # 0.8·1.0·2 + 0.4·0.5·1
    [1.8]
    """
    if not isinstance(model, ClickModel):
        raise ParameterError(f"model must be a ClickModel, got {type(model).__name__}")
    names = [measures] if isinstance(measures, str) else list(measures)
    if not names:
        raise ParameterError("no measure: give uM and/or rrM")
    rank_params = (model.examination if model.model in INDEPENDENT_CLICK_MODELS
                   else model.continuation if model.model == "dcm" else None)
    most = None if rank_params is None else len(np.asarray(rank_params))
    if depth is None:
        depth = most or DEFAULT_DEPTH
    if most is not None and depth > most:
        raise ParameterError(f"depth {depth}: the {model.model} model has parameters for "
                             f"{most} ranks only")
    satisfied = model.model not in INDEPENDENT_CLICK_MODELS
    rewritten = {name: _with_model(name, satisfied) for name in names}
    judged = as_qrels(qrels)
    run_list = as_runs(runs, keep_rank=ties == "rank-column")
    cube = ranked_candidates(run_list, depth=depth, ties=ties)
    doc_of_pair, docs = cube.pair_docno.encode(sort=True)
    topics = np.asarray(cube.topics, dtype=object)
    frames = []
    for r, run in enumerate(run_list):
        pages = cube.pairs[:, r, :depth]
        lengths = (pages >= 0).sum(axis=1)
        shown = np.flatnonzero(lengths > 0)
        pages, lengths = pages[shown], lengths[shown]
        page_docs = np.where(pages >= 0, doc_of_pair[np.maximum(pages, 0)], -1)
        log = ClickLog(topics[shown], topics[shown], docs.to_numpy(),
                       np.arange(len(shown)), page_docs,
                       np.zeros(page_docs.shape, dtype=bool), lengths, None, run.name)
        valid = log.valid
        session, rank = np.nonzero(valid)
        topic_col = Strings.of(topics[shown][session])
        doc_col = docs.take(page_docs[session, rank])
        labels = {CLICK: LabelTable(topic_col, doc_col,
                                    model.click_probabilities(log)[valid], "click model")}
        sigma = model.satisfaction_probabilities(log)
        if sigma is not None:
            labels[SATISFACTION] = LabelTable(topic_col, doc_col, sigma[valid],
                                              "click model")
        for name, full in rewritten.items():
            used = {key: table for key, table in labels.items() if f"={key}" in full}
            values = evaluate(judged, [run], [full], ties=ties, labels=used,
                              relevance_level=relevance_level).per_topic()
            frames.append(values.assign(measure=name))
    return pd.concat(frames, ignore_index=True)[["run", "topic", "measure", "value"]]


def calibrated_summary(frame: pd.DataFrame, *, per_topic: bool = False) -> pd.DataFrame:
    """The mean of every run and measure of :func:`click_calibrated`'s per-topic values
    (rows ``run, topic, measure, value``), on rows of topic ``all``; with ``per_topic``,
    after the per-topic rows (``irscale online measures``)."""
    mean = frame.groupby(["run", "measure"], sort=False)["value"].mean().reset_index()
    mean.insert(1, "topic", "all")
    return pd.concat([frame, mean], ignore_index=True) if per_topic else mean


def _with_model(name: str, satisfied: bool) -> str:
    """``name`` with ``click=`` (and, for rrM with a satisfaction, ``sat=``) added."""
    head, params, given, cut = split_calibrated(name)
    extra = [f"click={CLICK}"]
    if head == "rrM" and satisfied and not given & {"sat", "psat", "gain", "maxrel"}:
        extra.append(f"sat={SATISFACTION}")
    inside = ",".join(([params] if params.strip() else []) + extra)
    return f"{head}({inside}){cut}"

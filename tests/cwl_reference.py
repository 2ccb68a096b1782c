"""cwl_eval (1.0.12, the ``cwl`` package) as an oracle: its own qrels, cost-file and ranking
classes and its metrics, driven as its ``main`` drives them (the run file read in file order,
a ranking per run of consecutive lines of one topic), with every output kept at full
precision (``cwl-eval`` prints four decimals)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

cwl_eval = pytest.importorskip("cwl.cwl_eval")
from cwl.ruler.measures import (  # noqa: E402  (after the skip when cwl is absent)
    cwl_ap,
    cwl_bpm,
    cwl_dcg,
    cwl_ift,
    cwl_insq,
    cwl_inst,
    cwl_nerr,
    cwl_npv,
    cwl_precision,
    cwl_rbp,
    cwl_rr,
    cwl_set,
    cwl_tbg,
    cwl_umeasure,
)

logging.getLogger("cwl").disabled = True  # its metrics log every vector at DEBUG level

#: cwl_eval's metric classes by the name of irscale's measure.
METRICS: dict[str, Any] = {
    "CWL-P": cwl_precision.PrecisionCWLMetric,
    "CWL-RR": cwl_rr.RRCWLMetric,
    "CWL-RBP": cwl_rbp.RBPCWLMetric,
    "NPV": cwl_npv.NPVCWLMetric,
    "SDCG": cwl_dcg.NDCGCWLMetric,
    "CWL-AP": cwl_ap.APCWLMetric,
    "TrAP": cwl_ap.TrAPCWLMetric,
    "INST": cwl_inst.INSTCWLMetric,
    "INSQ": cwl_insq.INSQCWLMetric,
    "CWL-TBG": cwl_tbg.TBGCWLMetric,
    "CWL-U": cwl_umeasure.UMeasureCWLMetric,
    "BPM": cwl_bpm.BPMCWLMetric,
    "BPMD": cwl_bpm.BPMDCWLMetric,
    "IFT-goal": cwl_ift.IFTGoalCWLMetric,
    "IFT-rate": cwl_ift.IFTRateCWLMetric,
    "IFT": cwl_ift.IFTGoalRateCWLMetric,
    "NERR8": cwl_nerr.NERReq8CWLMetric,
    "NERR9": cwl_nerr.NERReq9CWLMetric,
    "NERR10": cwl_nerr.NERReq10CWLMetric,
    "NERR11": cwl_nerr.NERReq11CWLMetric,
    "SET": cwl_set.SETCWLMetric,
}


def cwl_scores(gain_file: Path, run_file: Path, metric: Any, *, cost_file: Path | None = None,
               depth: int = 1000, max_cost: float = 1.0, min_cost: float = 1.0
               ) -> dict[str, list[float]]:
    """Per topic of ``run_file``: EU, ETU, EC, ETC, ED and their residuals, as cwl_eval
    computes them (``--max_gain 1``, the default)."""
    qrels = cwl_eval.TrecQrelHandler(str(gain_file))
    qrels.validate_gains(min_gain=0.0, max_gain=1.0)
    costs = None if cost_file is None else cwl_eval.read_in_cost_file(str(cost_file))
    metric.residuals = True
    blocks: list[tuple[str, list[tuple[str, str]]]] = []
    for line in Path(run_file).read_text().splitlines():
        topic, element, docno, _rank, _score, _run = line.split()
        if not blocks or blocks[-1][0] != topic:
            blocks.append((topic, []))
        blocks[-1][1].append((docno, element))
    scores: dict[str, list[float]] = {}
    for topic, rows in blocks:
        maker = cwl_eval.RankingMaker(topic, qrels, costs, max_gain=1.0, min_gain=0.0,
                                      max_cost=max_cost, min_cost=min_cost, max_n=depth)
        for docno, element in rows:
            maker.add(docno, element)
        metric.measure(maker.get_ranking())
        scores[topic] = [*metric.get_scores(), metric.residual_expected_utility,
                         metric.residual_expected_total_utility,
                         metric.residual_expected_cost, metric.residual_expected_total_cost,
                         metric.residual_expected_items]
    return scores

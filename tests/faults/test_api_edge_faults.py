"""Rows of the Python API's edge (:mod:`irscale.core.edge`), as :mod:`.test_api_faults`
checks them: a keyword a function does not take, also where the function hands its
``**options`` on to another (named with the nearest keyword taken), and containers of the
wrong contents (``{"A": 5}`` where a system's runs are expected, ``{"a": 1}`` where
propensities are), each an irscale error naming the argument, never a raw ``TypeError``."""

from __future__ import annotations

import numpy as np
import pytest

import irscale
import irscale.online
from irscale import meta, scales, stats

from ..oracle_imports import lazy_import
from .test_api_faults import Api, _ev, api, bad, check_row  # noqa: F401

#: imported when its row runs (matplotlib and pandas: seconds of every collection)
report = lazy_import("irscale.report")

#: The systems of evaluate_seeds' rows: one of two runs, one of one.
SEEDS = {"A": ["a.run", "b.run"], "B": ["c.run"]}
#: A click log of two sessions of one query (counterfactual's rows).
CLICKS = b"s1 q 1 a 1\ns1 q 2 b 0\ns2 q 1 b 0\ns2 q 2 a 1\n"

ROWS = [
    # keywords a function hands on (**options) are checked against what takes them
    bad("evaluate_seeds-unknown-keyword", lambda a: stats.evaluate_seeds(
        "qrels.txt", SEEDS, "map", bogus=1), "evaluate_seeds", "bogus", "relevance_level"),
    bad("evaluate_seeds-misspelt-keyword", lambda a: stats.evaluate_seeds(
        "qrels.txt", SEEDS, "map", relevence_level=2), "relevence_level",
        "did you mean relevance_level?"),
    bad("leave_one_out-misspelt-evaluate-keyword", lambda a: meta.leave_one_out(
        "qrels.txt", ["a.run", "b.run"], "map", judged_onyl=True), "judged_onyl",
        "did you mean judged_only?"),
    bad("transform-misspelt-keyword", lambda a: scales.transform(
        "qrels.txt", "a.run", "AP", 3, levles=2), "levles", "did you mean levels?"),
    bad("two_sample_test-misspelt-keyword", lambda a: stats.two_sample_test(
        a.x, a.y, test="t", alpah=0.1), "alpah", "did you mean alpha?"),
    bad("EffectSize-misspelt-keyword", lambda a: stats.EffectSize(0.5, knd="d"), "knd",
        "did you mean kind?"),
    bad("format-misspelt-keyword", lambda a: _ev().format("trec", rissk_alpha="0"),
        "rissk_alpha", "did you mean risk_alpha?"),
    # wrong contents of a container: the argument named
    bad("evaluate_seeds-system-not-runs", lambda a: stats.evaluate_seeds(
        "qrels.txt", {"A": 5}, "map"), "systems", "'A'", "5"),
    bad("counterfactual-propensities-mapping", lambda a: irscale.online.counterfactual(
        CLICKS, {"q": ["a", "b"]}, estimator="pbm-ips", propensities={"a": 1}),
        "propensities"),
    bad("phi_of_values-mapping", lambda a: scales.scale("AP", 3, progress=False)
        .phi_of_values({"a": 1}), "values"),
    bad("image_values-limit", lambda a: scales.scale("AP", 3, progress=False)
        .image_values(limit=2), "limit", "iter_sorted"),
    bad("decide-one-dimension", lambda a: meta.decide(np.array([0.1, 0.2, 0.3])), "values",
        "'MD2' needs a topics × systems array, got 1-D scores"),
    bad("decide-shard-model-two-dimensions", lambda a: meta.decide(
        np.ones((4, 3)), "MD3"), "'MD3' needs a topics × systems × shards array, got 2-D"),
    bad("BootstrapModel-one-dimension", lambda a: meta.BootstrapModel([0.1, 0.2, 0.3]),
        "values", "2-D"),
    bad("check_queries-not-topics", lambda a: irscale.online.qrels_click_model("qrels.txt")
        .check_queries(2.5), "topics"),
    bad("report-best-unknown-measure", lambda a: report.build_report(
        "qrels.txt", ["a.run", "b.run"], "map", robustness=False).best("P@5"), "measure",
        "'P@5'", "map"),
]


@pytest.mark.parametrize("row", ROWS)
def test_edge_row(row, api: Api):  # noqa: F811
    check_row(row, api)

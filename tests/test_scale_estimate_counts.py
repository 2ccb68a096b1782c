"""The up-front estimate of a scale's summary predicts the work the summary then does.

No timing: the φ searches that :func:`irscale.scales.cost.estimate` counts for the order
diagnostics of :func:`irscale.scales.diagnostics.summarize` are compared with the searches
the pair table performs (:attr:`irscale.scales.pairs.PairTable.searches`, counted where the
native sweep is called). The CPU time per unit of work is compared in
``benchmarks/bench_scale_estimate.py``.
"""

from __future__ import annotations

import pytest

from irscale.scales.diagnostics import summarize
from irscale.scales.scale import ScaledImage, scale


@pytest.mark.parametrize(("measure", "N", "levels"), [
    ("nDCG@14", 14, 3), ("DCG@16", 16, 3), ("RBP(p=0.8)", 15, 3), ("nDCG@12", 12, 4),
])
def test_predicted_searches_match_those_performed(measure, N, levels):
    sc = scale(measure, N, levels, progress=False, announce=False, queries=0, summary=0)
    assert sc.estimate is not None and sc.estimate.searches > 0
    image = sc.image.inner if isinstance(sc.image, ScaledImage) else sc.image
    table = image.table
    table.searches = 0
    summarize(sc, stream=False)
    # the estimate is an upper bound (repeated runs are queried once) within 2x
    assert sc.estimate.searches / 2 <= table.searches <= sc.estimate.searches


def test_the_summary_adds_its_queries_to_the_estimate():
    plain = scale("nDCG@14", 14, 3, progress=False, announce=False, queries=0)
    summary = scale("nDCG@14", 14, 3, progress=False, announce=False, queries=0, summary=0)
    assert plain.estimate is not None and summary.estimate is not None
    assert plain.estimate.searches == 0 < summary.estimate.searches
    assert summary.estimate.seconds > plain.estimate.seconds

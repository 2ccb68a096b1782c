"""Names of the choices of :mod:`irscale.stats` (tests, models, corrections, table formats).

A module of plain tuples without numpy or scipy, so that the command line can offer and
list the choices without loading the statistics. The implementations register the same
names (:data:`irscale.stats.registry.TESTS`, :data:`irscale.stats.anova.MODELS`);
``tests/test_startup.py`` checks that the two agree.
"""

from __future__ import annotations

#: Two-system tests of :func:`irscale.stats.two_sample_test`, in the registry's order.
TEST_NAMES: tuple[str, ...] = (
    "t", "student", "welch", "wilcoxon", "sign", "mann-whitney", "randomization",
    "bootstrap", "bootstrap-shift", "unpaired-bootstrap",
)

#: Named ANOVA models of :func:`irscale.stats.anova` (``MODELS``' keys).
MODEL_NAMES: tuple[str, ...] = ("system", "MD1", "topic+system", "MD2", "MD1f", "MD2f")

#: Multiple-comparison corrections of :func:`irscale.stats.adjust_pvalues`.
CORRECTIONS: tuple[str, ...] = ("none", "bonferroni", "sidak", "holm", "holm-sidak", "bh", "by")

#: Table formats of :func:`irscale.stats.render` and of every result's ``format``.
FORMATS: tuple[str, ...] = ("text", "csv", "markdown", "latex", "json")

"""Significance procedures by name, reduced to per-pair decisions for meta-evaluation.

Meta-evaluation compares the *decisions* of a test — which pairs of systems differ, and in
which direction — across topic sets, measures or scales. Every procedure runs the
implementation of :mod:`irscale.stats` and returns :class:`Decisions`: the per-system
estimates (mean scores, mean ranks or least-squares means), the per-pair difference
estimate[i] − estimate[j] and the significance decision at α, pairs in
``numpy.triu_indices(k, 1)`` order.

============================  ==============================================================
name                          procedure (``irscale.stats``)
============================  ==============================================================
``MD1`` (``system``)          one-way ANOVA + Tukey HSD (MD1 of Ferro & Sanderson 2022;
                              the one-way ANOVA of Ferrante et al. 2021)
``MD2`` (``topic+system``)    two-way ANOVA + topic-blocked Tukey HSD (MD2 of Ferro & Sanderson
                              2022)
``MD1f``, ``MD2f``            fake models: every non-zero difference significant (Ferro &
                              Sanderson 2022)
``kruskal-wallis``            Kruskal–Wallis + Tukey HSD on mean ranks (Ferrante et al. 2021, §7.3)
``friedman``                  Friedman + Tukey HSD on mean ranks (Ferrante et al. 2021, §7.3)
``MD3``, ``MD3f``, ...        shard models (:data:`irscale.stats.SHARD_MODELS`), on
                              topics × systems × shards scores, + Tukey HSD
``randomized-tukey-hsd``      randomised Tukey HSD (Sakai 2014, Fig. 15)
any two-system test           ``t``, ``wilcoxon``, ``sign``, ``mann-whitney``, ``bootstrap``,
                              ... (:data:`irscale.stats.TESTS`) on every pair, p-values
                              adjusted by ``correction`` (default ``none``, as in
                              Ferrante et al. 2021)
============================  ==============================================================

Tukey-based procedures decide with the critical value of the studentized range and skip
the p-values (``pvalues=False``), which are costly and not needed for decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.edge import keyword_error
from ..core.notebook import HtmlRepr
from ..errors import InputError, ParameterError
from ..stats import (
    SHARD_MODELS,
    ShardScores,
    anova,
    friedman,
    kruskal_wallis,
    pairwise_tests,
    randomized_tukey_hsd,
    shard_anova,
)
from ..stats.corrections import Correction, correction_name
from ..stats.names import PROCEDURE, RANK_MODELS
from ..stats.protocol import format_table
from ..stats.registry import TESTS
from ..stats.tables import Format

#: Names of ANOVA models accepted here → the model name of :func:`irscale.stats.anova`.
ANOVA_PROCEDURES: dict[str, str] = {
    "MD1": "system", "system": "system", "MD2": "topic+system", "topic+system": "topic+system",
    "MD1f": "MD1f", "MD2f": "MD2f",
}
RANK_PROCEDURES = RANK_MODELS

#: The eight tests of Ferrante et al. (2021), §7.3 (Tables 5 and 6), in the paper's order, with
#: labels.
SCALE_PAPER_TESTS: dict[str, str] = {
    "sign": "Sign Test",
    "mann-whitney": "Wilcoxon Rank Sum Test",
    "wilcoxon": "Wilcoxon Signed Rank Test",
    "t": "Student's t Test",
    "MD1": "One-way ANOVA",
    "kruskal-wallis": "Kruskal-Wallis Test",
    "MD2": "Two-way ANOVA",
    "friedman": "Friedman Test",
}
#: Tests of Ferrante et al. (2021) that assume only an ordinal scale (grey rows of Tables 5–6).
ORDINAL_TESTS: tuple[str, ...] = ("sign", "mann-whitney", "kruskal-wallis", "friedman")

__all__ = ["ANOVA_PROCEDURES", "ORDINAL_TESTS", "RANK_PROCEDURES", "SCALE_PAPER_TESTS",
           "Decisions", "canonical_procedure", "decide", "is_shard_procedure",
           "procedure_names"]


@dataclass(frozen=True, eq=False)
class Decisions(HtmlRepr):
    """Per-pair decisions of one procedure on one score table (module documentation).
    A report: ``to_frame()`` (one row per pair) and ``format(fmt)``."""

    procedure: str
    systems: tuple[str, ...]
    estimates: np.ndarray
    diff: np.ndarray
    significant: np.ndarray

    @property
    def direction(self) -> np.ndarray:
        """sign(diff) per pair: +1 when the first system of the pair is estimated better."""
        return np.sign(self.diff).astype(np.int8)

    @property
    def n_significant(self) -> int:
        return int(np.count_nonzero(self.significant))

    def to_frame(self) -> pd.DataFrame:
        """One row per pair (``triu`` order): ``a``, ``b``, ``diff``, ``direction`` and
        ``significant``."""
        i, j = np.triu_indices(len(self.systems), k=1)
        names = np.asarray(self.systems, dtype=object)
        return pd.DataFrame({"a": names[i], "b": names[j], "diff": self.diff,
                             "direction": self.direction, "significant": self.significant})

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The decisions as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        return format_table(self.to_frame(), fmt, digits=digits,
                            title=f"{self.procedure}: {self.n_significant} of "
                                  f"{len(self.diff)} pairs significant")


def procedure_names() -> list[str]:
    """Every name :func:`decide` accepts (:data:`irscale.stats.names.PROCEDURE`)."""
    return list(PROCEDURE.names)


def is_shard_procedure(name: str) -> bool:
    """Whether ``name`` is a shard model (it needs topics × systems × shards scores)."""
    return name in SHARD_MODELS


def canonical_procedure(name: str) -> str:
    """The canonical name of a procedure (two-system tests by their registry name; case
    does not matter)."""
    return PROCEDURE.check(name, "procedure")


def decide(
    values: np.ndarray,
    procedure: str = "MD2",
    *,
    alpha: float = 0.05,
    systems: tuple[str, ...] | None = None,
    correction: Correction | None = "none",
    **options: Any,
) -> Decisions:
    """Decisions of ``procedure`` on a topics × systems array (× shards for shard models).

    ``options`` go to the underlying routine (e.g. ``samples`` and ``rng`` for Monte
    Carlo procedures, ``empty`` for shard models); ``correction`` adjusts two-system tests.
    """
    name = canonical_procedure(procedure)
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != (3 if is_shard_procedure(name) else 2):
        raise InputError(f"values: {name!r} needs a topics × systems"
                         f"{' × shards' if is_shard_procedure(name) else ''} array, got "
                         f"{values.ndim}-D scores")
    labels = systems if systems is not None else tuple(f"s{i + 1}" for i in range(values.shape[1]))
    unknown = keyword_error(name, options, ()) \
        if name in ANOVA_PROCEDURES or name in RANK_PROCEDURES else None
    if unknown is not None:
        raise unknown
    if name not in TESTS and correction_name(correction) != "none":
        raise ParameterError(f"correction {correction!r} applies to two-system tests, not to "
                             f"{name} (its pairwise decisions are simultaneous already)")
    if is_shard_procedure(name):
        result = shard_anova(ShardScores.from_array(values, systems=labels), name, **options)
        pairs = result.tukey_hsd(alpha, pvalues=False)
        estimates = result.system_means
    elif name in ANOVA_PROCEDURES:
        result = anova(values, ANOVA_PROCEDURES[name])
        pairs = result.tukey_hsd(alpha, pvalues=False)
        estimates = result.system_means
    elif name in RANK_PROCEDURES:
        ranks = (kruskal_wallis if name == "kruskal-wallis" else friedman)(values)
        pairs = ranks.tukey_hsd(alpha, pvalues=False)
        estimates = ranks.mean_ranks
    elif name == "randomized-tukey-hsd":
        pairs = randomized_tukey_hsd(values, alpha=alpha, **options)
        estimates = values.mean(axis=0)
    else:
        pairs = pairwise_tests(values, name, correction=correction, alpha=alpha, **options)
        estimates = values.mean(axis=0)
    return Decisions(procedure=name, systems=labels,
                     estimates=np.asarray(estimates, dtype=np.float64),
                     diff=np.asarray(pairs.columns["diff"], dtype=np.float64),
                     significant=np.asarray(pairs.significant, dtype=bool))

"""Online evaluation (issue 14): interleaving and multileaving, A/B tests, click logs and
click models. See ``docs/online.md``.

Interleaving (:mod:`irscale.online.interleaving`)
    :func:`interleave`, :func:`interleave_runs`: balanced, team-draft (multileaving for
    more than two rankers), probabilistic and optimised interleaving, vectorised over
    impressions; :class:`Interleavings` scores clicks into an :class:`InterleavingResult`.
A/B tests (:mod:`irscale.online.abtest`)
    :func:`assign` (MD5 of salt and user, traffic splits), :func:`session_measures` and
    :func:`user_measures` (CTR, clicks@k, abandonment, good abandonment, time to first
    click, click reciprocal rank, dwell time, session success), :func:`ab_test` (Welch,
    delta method, CUPED), :func:`sample_ratio_mismatch`, :func:`aa_test`,
    :func:`ab_sample_size`, :func:`ab_power`.
"""

from __future__ import annotations

from .abtest import (
    aa_test,
    ab_power,
    ab_sample_size,
    ab_test,
    assign,
    sample_ratio_mismatch,
    session_measures,
    user_measures,
)
from .interleaving import (
    InterleavingResult,
    Interleavings,
    interleave,
    interleave_runs,
    rankings_from_lists,
)

__all__ = ["InterleavingResult", "Interleavings", "aa_test", "ab_power", "ab_sample_size",
           "ab_test", "assign", "interleave", "interleave_runs", "rankings_from_lists",
           "sample_ratio_mismatch", "session_measures", "user_measures"]

"""Online evaluation: interleaving and multileaving, A/B tests, click logs and
click models. See ``docs/online.md``.

Interleaving (:mod:`irscale.online.interleaving`)
    :func:`interleave`, :func:`interleave_runs`: balanced, team-draft (multileaving for
    more than two rankers), probabilistic and optimised interleaving, vectorised over
    impressions; :class:`Interleavings` scores clicks into an :class:`InterleavingResult`.
FairPairs (:mod:`irscale.online.fairpairs`)
    :func:`fair_pairs_run`, :func:`fair_pairs`: a ranking shown with adjacent pairs flipped
    at random (Radlinski & Joachims 2006); :class:`FairPairs` turns clicks into a
    :class:`FairPairsResult`, the preferences of every adjacent pair with a sign test.
Logged interleaving experiments (:mod:`irscale.online.logged`)
    :func:`score_log`, :func:`logged_interleavings`: an interleaving log (``impression
    topic rank docno team clicked``, :func:`read_interleaving_log`) scored by the same
    credit rules and statistics.
A/B tests (:mod:`irscale.online.abtest`)
    :func:`assign` (MD5 of salt and user, traffic splits), :func:`session_measures` and
    :func:`user_measures` (CTR, clicks@k, abandonment, good abandonment, time to first
    click, click reciprocal rank, dwell time, session success), :func:`ab_test` (Welch,
    delta method, CUPED), :func:`sample_ratio_mismatch`, :func:`aa_test`,
    :func:`ab_sample_size`, :func:`ab_power`; :func:`oec_test` (:mod:`~.oec`: a declared
    weighted combination of measures and ratio metrics, by the multivariate delta method).
Loyalty measures (:mod:`~.engagement`)
    :func:`loyalty_measures` (search sessions, queries per session, absence time of every
    user from the times of their pages), :func:`read_session_users` (``session user
    [time]``), :func:`engagement_summary` (means over users with t intervals).
Click logs and click models (:mod:`~irscale.online.clicklog`, :mod:`~.clickmodels`,
:mod:`~.simulate`, :mod:`~.calibrated`)
    :func:`read_click_log` into a :class:`ClickLog`; :func:`fit_click_model` (PBM, CM, UBM,
    DCM, DBN, SDBN, CCM) giving a :class:`ClickModel` (log-likelihood, perplexity,
    simulation); :func:`qrels_click_model` and :func:`simulate_click_log` (simulated users
    from qrels); :func:`click_calibrated` (uM/rrM with a click model's probabilities);
    :func:`calibrate` (:mod:`~.user_models`: RBP's persistence, ERR's stopping
    probabilities and Markov precision's chain fitted on a log, as measure names).
Relevance from clicks (:mod:`~.click_labels`)
    :func:`click_qrels`: qrels graded by declared thresholds on a fitted click model's
    attractiveness, satisfaction or relevance; :func:`click_preferences`: pairwise
    preferences by Joachims et al.'s rules (click > skip above and its variants), written
    as trec_eval ``-R prefs`` judgments.
Counterfactual evaluation (:mod:`~.counterfactual`, :mod:`~.historical`)
    :func:`counterfactual`: a ranking policy's expected clicks from a click log collected
    under another policy (IPS, SNIPS, DM, DR, Switch-DR, SNDR, position-based IPS, slate
    IPS: SIPS, IIPS, RIPS), with standard error and intervals;
    :func:`historical_interleaving`: probabilistic interleaving outcomes of a pair of
    rankers from a log interleaving another pair (importance sampling).
Learned satisfaction (:mod:`~.satisfaction`)
    :func:`fit_satisfaction`: a logistic-regression classifier of sessions over their
    online features (clicks, first-click rank, dwell, ...) trained on labelled sessions,
    with its cross-validated accuracy and AUC; its mean predicted satisfaction of a log is
    a measure.
Simulation harness (:mod:`irscale.online.harness`)
    :func:`sensitivity`: agreement of interleaving and A/B experiments of simulated users
    with an offline measure's preference, by impressions per experiment.

Names are imported on first use (:func:`irscale.core.lazy.lazy_package`): ``irscale
online prefs`` loads the click log and its rules, not the interleaving and A/B modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_package

#: Public name → the module that defines it.
_EXPORTS = {
    "ClickLog": ".clicklog",
    "ClickModel": ".clickmodels",
    "ClickPreferences": ".click_labels",
    "ClickQrels": ".click_labels",
    "CounterfactualResult": ".counterfactual",
    "EngagementSummary": ".engagement",
    "FairPairs": ".fairpairs",
    "FairPairsResult": ".fairpairs",
    "InterleavingLog": "..io.interleaving_log",
    "InterleavingResult": ".interleaving",
    "Interleavings": ".interleaving",
    "SatisfactionModel": ".satisfaction",
    "SensitivityResult": ".harness",
    "UserModelFit": ".user_models",
    "aa_test": ".abtest",
    "ab_power": ".abtest",
    "ab_sample_size": ".abtest",
    "ab_test": ".abtest",
    "assign": ".abtest",
    "calibrate": ".user_models",
    "click_calibrated": ".calibrated",
    "click_preferences": ".click_labels",
    "click_qrels": ".click_labels",
    "counterfactual": ".counterfactual",
    "engagement_summary": ".engagement",
    "fair_pairs": ".fairpairs",
    "fair_pairs_run": ".fairpairs",
    "fit_click_model": ".clickmodels",
    "fit_satisfaction": ".satisfaction",
    "historical_interleaving": ".historical",
    "interleave": ".interleaving",
    "interleave_runs": ".interleaving",
    "logged_interleavings": ".logged",
    "loyalty_measures": ".engagement",
    "oec_test": ".oec",
    "qrels_click_model": ".simulate",
    "rankings_from_lists": ".interleaving",
    "read_click_log": ".clicklog",
    "read_interleaving_log": "..io.interleaving_log",
    "read_session_users": ".engagement",
    "sample_ratio_mismatch": ".abtest",
    "satisfaction_features": ".satisfaction",
    "score_log": ".logged",
    "sensitivity": ".harness",
    "session_measures": ".abtest",
    "simulate_click_log": ".simulate",
    "user_measures": ".abtest",
}

__all__ = ["ClickLog", "ClickModel", "ClickPreferences", "ClickQrels", "CounterfactualResult",
    "EngagementSummary", "FairPairs", "FairPairsResult", "InterleavingLog", "InterleavingResult",
    "Interleavings", "SatisfactionModel", "SensitivityResult", "UserModelFit", "aa_test",
    "ab_power", "ab_sample_size", "ab_test", "assign", "calibrate", "click_calibrated",
    "click_preferences", "click_qrels", "counterfactual", "engagement_summary", "fair_pairs",
    "fair_pairs_run", "fit_click_model", "fit_satisfaction", "historical_interleaving",
    "interleave", "interleave_runs", "logged_interleavings", "loyalty_measures", "oec_test",
    "qrels_click_model", "rankings_from_lists", "read_click_log", "read_interleaving_log",
    "read_session_users", "sample_ratio_mismatch", "satisfaction_features", "score_log",
    "sensitivity", "session_measures", "simulate_click_log", "user_measures"]

__getattr__, __dir__ = lazy_package(__name__, _EXPORTS, shadowed={"counterfactual"})

if TYPE_CHECKING:  # pragma: no cover
    from ..io.interleaving_log import InterleavingLog, read_interleaving_log
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
    from .calibrated import click_calibrated
    from .click_labels import ClickPreferences, ClickQrels, click_preferences, click_qrels
    from .clicklog import ClickLog, read_click_log
    from .clickmodels import ClickModel, fit_click_model
    from .counterfactual import CounterfactualResult, counterfactual
    from .engagement import (
        EngagementSummary,
        engagement_summary,
        loyalty_measures,
        read_session_users,
    )
    from .fairpairs import FairPairs, FairPairsResult, fair_pairs, fair_pairs_run
    from .harness import SensitivityResult, sensitivity
    from .historical import historical_interleaving
    from .interleaving import (
        InterleavingResult,
        Interleavings,
        interleave,
        interleave_runs,
        rankings_from_lists,
    )
    from .logged import logged_interleavings, score_log
    from .oec import oec_test
    from .satisfaction import SatisfactionModel, fit_satisfaction, satisfaction_features
    from .simulate import qrels_click_model, simulate_click_log
    from .user_models import UserModelFit, calibrate

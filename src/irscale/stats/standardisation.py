"""Score standardisation (Webber, Moffat and Zobel, "Score standardization for
inter-collection comparison of retrieval systems", SIGIR 2008, pp. 51–58).

Per topic ``t`` (and measure), a system's score ``x`` becomes

    z = (x − μ_t) / σ_t

where ``μ_t`` and ``σ_t`` are the mean and the standard deviation of the scores of a
*reference* set of systems on ``t`` (by default the systems of the matrix itself), and with
``cdf`` the standard normal distribution function maps it to ``[0, 1]``: ``Φ(z)`` (the
paper's standardised score; the authors' page of standardisation factors suggests R's
``pnorm`` for it). ``σ_t`` is the sample standard deviation,
``sqrt(Σ (x_s − μ_t)² / (n − 1))`` over the ``n`` reference systems (R's ``sd``). The
paper and that page speak of "the standard deviation" of the reference systems' scores
without writing its denominator; the sample (n − 1) form is the one R, their suggested
tool, computes, and it is a choice here, not a quotation. With two reference systems
``σ_t = |x_1 − x_2| / √2``; with many the two forms differ by ``sqrt(n / (n − 1))``.

A topic whose reference scores are all equal has ``σ_t = 0``: the z-score of a score equal
to ``μ_t`` is then 0 (``Φ = 0.5``), as ``trec_eval -Z`` gives it (``convert_zscores.c``);
any other score has none, and :func:`standardise` raises an :class:`InputError` naming the
topic rather than returning a NaN or an infinity. Missing scores (NaN in a matrix built with
``allow_missing``) stay missing and are not part of the reference.

Where it differs from ``trec_eval -Z``: trec_eval takes μ and σ from a file and prints a
−1000000 where they are missing or where σ = 0 and the score is not μ; here a missing
reference is an error (a :class:`~irscale.io.zscores.ZScores` reference must hold every
topic and measure of the matrix).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.scorematrix import ScoreMatrix
from ..errors import InputError, ParameterError
from ..io.zscores import ZScores


def reference_moments(reference: ScoreMatrix, *, partial: bool = False
                      ) -> tuple[np.ndarray, np.ndarray]:
    """``(mean, sd)``, each topics × measures: the mean and the sample standard deviation
    (denominator ``n − 1``) of every topic's scores over the systems of ``reference``
    (missing scores left out). A topic with fewer than two scores of a measure has no
    standard deviation: an :class:`InputError` names it, or with ``partial`` both are NaN
    there.

    >>> m = ScoreMatrix.from_array([[0.2, 0.4, 0.6], [0.5, 0.5, 0.5]])
    >>> mean, sd = reference_moments(m)
    >>> mean[:, 0].round(12).tolist(), sd[:, 0].round(12).tolist()
    ([0.4, 0.5], [0.2, 0.0])
    """
    values = reference.values
    counts = np.sum(~np.isnan(values), axis=1)
    few = np.argwhere(counts < 2)
    if len(few) and not partial:
        t, m = few[0].tolist()
        raise InputError(
            f"topic {reference.topics[t]!r} has {int(counts[t, m])} score(s) of "
            f"{reference.measures[m]!r} in the reference systems: a standard deviation needs "
            "at least 2")
    enough = counts >= 2
    mean = np.full(counts.shape, np.nan)
    mean[enough] = (np.nansum(values, axis=1) / np.maximum(counts, 1))[enough]
    squares = np.nansum((values - mean[:, None, :]) ** 2, axis=1)
    sd = np.full(counts.shape, np.nan)
    sd[enough] = np.sqrt(squares[enough] / (counts[enough] - 1))
    return mean, sd


def standardise(matrix: ScoreMatrix, reference: ScoreMatrix | ZScores | None = None, *,
                cdf: bool = True) -> ScoreMatrix:
    """Webber, Moffat and Zobel's standardised scores of ``matrix`` (module documentation).

    Parameters
    ----------
    matrix : ScoreMatrix
        Topics × systems (× measures) scores.
    reference : ScoreMatrix or ZScores, optional
        Where ``μ_t`` and ``σ_t`` come from: the scores of a reference set of systems on the
        same topics and measures (matched by label; default ``matrix`` itself), or the
        means and deviations of a ``trec_eval -Z`` file
        (:func:`irscale.io.zscores.read_zscores`).
    cdf : bool, default True
        Map each z-score through the standard normal distribution function, to ``[0, 1]``
        (the paper's standardised score); ``False``: the z-score itself.

    Returns
    -------
    ScoreMatrix
        The standardised scores, with ``matrix``'s labels.

    Raises
    ------
    InputError
        A topic or measure the reference lacks, a topic with fewer than two reference
        scores, or a score that differs from its topic's reference mean where the reference
        standard deviation is 0.

    Examples
    --------
    >>> m = ScoreMatrix.from_array([[0.25, 0.5, 0.75], [0.125, 0.125, 0.5]],
    ...                            systems=["a", "b", "c"])
    >>> standardise(m, cdf=False).array().round(4).tolist()
    [[-1.0, 0.0, 1.0], [-0.5774, -0.5774, 1.1547]]
    >>> standardise(m).array().round(4).tolist()
    [[0.1587, 0.5, 0.8413], [0.2819, 0.2819, 0.8759]]
    """
    if not isinstance(matrix, ScoreMatrix):
        raise ParameterError(f"standardise takes a ScoreMatrix, got {type(matrix).__name__}")
    mean, sd = _moments(matrix, matrix if reference is None else reference)
    mean, sd = mean[:, None, :], sd[:, None, :]
    values = matrix.values
    flat = (sd == 0) & (values != mean) & ~np.isnan(values)
    if flat.any():
        t, s, m = np.argwhere(flat)[0].tolist()
        raise InputError(
            f"topic {matrix.topics[t]!r}: the reference scores of {matrix.measures[m]!r} are "
            f"all {mean[t, 0, m]!r} (standard deviation 0), so system {matrix.systems[s]!r}'s "
            f"{values[t, s, m]!r} has no z-score")
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(sd != 0, (values - mean) / np.where(sd != 0, sd, 1.0),
                     np.where(np.isnan(values), np.nan, 0.0))
    if cdf:
        from scipy.special import ndtr

        z = ndtr(z)
    return ScoreMatrix(z, matrix.topics, matrix.systems, matrix.measures)


def _moments(matrix: ScoreMatrix, reference: Any) -> tuple[np.ndarray, np.ndarray]:
    """The reference ``(mean, sd)`` of every topic and measure of ``matrix``, topics ×
    measures, in ``matrix``'s order."""
    if isinstance(reference, ZScores):
        pairs = [[reference.moments.get((t, m)) for m in matrix.measures]
                 for t in matrix.topics]
        for t, row in zip(matrix.topics, pairs, strict=True):
            for m, pair in zip(matrix.measures, row, strict=True):
                if pair is None:
                    raise InputError(f"the Z file has no mean and std_dev of {m!r} on topic "
                                     f"{t!r}", source=reference.source)
        moments = np.array(pairs, dtype=np.float64).reshape(len(matrix.topics),
                                                             len(matrix.measures), 2)
        return moments[..., 0], moments[..., 1]
    if not isinstance(reference, ScoreMatrix):
        raise ParameterError("reference must be a ScoreMatrix or ZScores, got "
                             f"{type(reference).__name__}")
    for what, ours, theirs in (("topic", matrix.topics, reference.topics),
                               ("measure", matrix.measures, reference.measures)):
        lacking = [label for label in ours if label not in theirs]
        if lacking:
            raise InputError(f"the reference systems have no scores of {what}(s) "
                             f"{', '.join(map(repr, lacking[:5]))}")
    reference = reference.subset(topics=list(matrix.topics), measures=list(matrix.measures))
    return reference_moments(reference)


def zscore_moments(evaluation: Any) -> tuple[list[tuple[str, str, float, float]], list[str]]:
    """The lines of a ``trec_eval -Z`` file of the runs of ``evaluation`` (an
    :func:`~irscale.evaluation.many.evaluate_many` result whose per-topic values were
    kept): per topic (in the table's order) and measure, ``(topic, measure, mean, sd)``
    over the runs (:func:`reference_moments`, ``partial``), and the topics left out
    because fewer than two runs were evaluated on them (``trec_eval -Z`` prints
    -1000000 there). gm_map and gm_bpref, which have no per-topic values of their own, get
    those of ``log(max(v, 1e-5))`` of map's and bpref's values where those were evaluated
    too (what trec_eval 9.0.8 holds per topic and ``-Z`` converts: ``m_gm_map.c``,
    ``MIN_GEO_MEAN``)."""
    from ..measures.results import PER_TOPIC_OF

    matrix = ScoreMatrix.from_frame(evaluation.per_topic(), allow_missing=True)
    logs = [(c.label, matrix.measures.index(PER_TOPIC_OF[c.label]))
            for c in evaluation.columns
            if c.aggregate == "gmean" and PER_TOPIC_OF.get(c.label) in matrix.measures]
    if logs:
        values = matrix.values[:, :, [k for _, k in logs]]
        floor = 1e-5  # trec_eval.h's MIN_GEO_MEAN, as C's MAX(v, MIN_GEO_MEAN)
        with np.errstate(invalid="ignore"):
            logged = np.where(np.isnan(values), np.nan,
                              np.log(np.where(values > floor, values, floor)))
        matrix = ScoreMatrix(np.concatenate([matrix.values, logged], axis=2), matrix.topics,
                             matrix.systems, (*matrix.measures, *(label for label, _ in logs)))
    mean, sd = reference_moments(matrix, partial=True)
    lacking = [topic for t, topic in enumerate(matrix.topics) if np.isnan(sd[t]).any()]
    return [(topic, measure, mean[t, m], sd[t, m]) for t, topic in enumerate(matrix.topics)
            for m, measure in enumerate(matrix.measures) if not np.isnan(sd[t, m])], lacking


__all__ = ["reference_moments", "standardise", "zscore_moments"]

"""Repeated samples of one judge (:func:`irscale.labels.audit` with ``samples=True``): the
same model and prompt asked again give qrels that differ by the judge's own randomness.
Their consistency (:func:`consistency_of`): over the (topic, document) pairs every sample
judges, percent agreement, Fleiss' κ and Krippendorff's α (ordinal, nominal) of the samples
as raters (:func:`irscale.collections.label_agreement`); and the share of the variance of
the runs' per-topic scores that the sample explains, in a G-study of topics × runs ×
samples (:func:`irscale.stats.gstudy`, facet ``sample``: the variance components of the
sample, of its interactions with the runs and the topics, and of the residual, which is
confounded with the three-way interaction, over the total). The votes over the samples
(:func:`votes`: the majority, ties broken as ``aggregate_labels(method="mv")`` breaks
them, and Dawid–Skene, by :func:`irscale.collections.aggregate_labels`) are qrels audited
as two more judges."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..core.numbers import declare, undefined
from ..errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from ..collections.labels import Method
    from ..core.inputs import Qrels

__all__ = ["consistency_of", "judged_pairs", "votes"]

#: The votes over the samples: the name of the judge each makes and the method of
#: :func:`irscale.collections.aggregate_labels`.
VOTES: tuple[tuple[str, Method], ...] = (("vote:majority", "mv"), ("vote:dawid-skene", "ds"))


def judged_pairs(qrels: Qrels) -> pd.DataFrame:
    """``topic, docno, rel`` of the judged pairs (grade ≥ 0) of ``qrels``."""
    from ..collections.agreement import _qrels_frame

    frame = _qrels_frame(qrels)
    return frame[frame["rel"] >= 0].reset_index(drop=True)


def _labels(named: list[tuple[str, Qrels]]) -> pd.DataFrame:
    """``topic, docno, worker, label`` of the pairs every sample judges (grades ≥ 0), the
    sample as the worker."""
    frames = [judged_pairs(qrels).assign(worker=name) for name, qrels in named]
    every = frames[0][["topic", "docno"]]
    for frame in frames[1:]:
        every = every.merge(frame[["topic", "docno"]], on=["topic", "docno"])
    if every.empty:
        raise InputError(f"the samples {', '.join(name for name, _ in named)} judge no "
                         "(topic, document) pair in common: there is no consistency to "
                         "measure")
    labels = pd.concat([every.merge(frame, on=["topic", "docno"]) for frame in frames],
                       ignore_index=True)
    return labels.rename(columns={"rel": "label"})[["topic", "docno", "worker", "label"]]


def consistency_of(named: list[tuple[str, Qrels]], runs: Sequence[Any], names: Sequence[str],
                   measure: str, human_topics: Sequence[str], relevance_level: int
                   ) -> pd.DataFrame:
    """One row a statistic of the samples' consistency (module documentation): the G-study
    on the ``human_topics`` every sample judges (every topic the samples share where they
    share none of those), of ``runs`` (named ``names``) under ``measure``."""
    from ..collections.agreement import label_agreement
    from ..collections.automatic import _per_topic
    from ..stats import ShardScores, gstudy

    labels = _labels(named)
    overall = label_agreement(labels).iloc[-1]
    judged = set.intersection(*(set(qrels.topic.to_pylist()) for _, qrels in named))
    topics = [t for t in human_topics if t in judged] or sorted(judged)
    if len(topics) < 2:
        raise InputError(f"the samples share {len(topics)} topic: the G-study needs two at "
                         "least")
    values = np.stack([_per_topic(qrels, list(runs), [measure], topics, relevance_level,
                                  sample=True)[0][:, :, 0]
                       for _, qrels in named], axis=2)
    shares = gstudy(ShardScores(values, tuple(topics), tuple(names),
                                tuple(name for name, _ in named)),
                    facet="sample").to_frame().set_index("effect")["share"]
    main = float(shares.get("sample", 0.0))
    interactions = float(sum(v for k, v in shares.items() if "sample" in k and k != "sample"
                             and not k.endswith(",e")))
    residual = float(sum(v for k, v in shares.items() if k.endswith(",e")))
    rows = [("pairs judged by every sample", float(overall["documents"])),
            ("percent agreement", float(overall["percent"])),
            ("fleiss_kappa", float(overall["fleiss_kappa"])),
            ("alpha_nominal", float(overall["alpha_nominal"])),
            ("alpha_ordinal", float(overall["alpha_ordinal"])),
            ("G-study topics", float(len(topics))),
            ("variance share: sample", main),
            ("variance share: sample x runs, sample x topics", interactions),
            ("variance share: residual (with runs x topics x sample)", residual),
            ("variance share: due to the sample (the three above)",
             main + interactions + residual)]
    return declare(pd.DataFrame(rows, columns=["statistic", "value"]), {"value": undefined(
        "one grade for every pair: the agreement expected by chance is 1, κ and α are 0/0, "
        "or the scores do not vary")})


def votes(named: list[tuple[str, Qrels]]) -> list[tuple[str, Qrels]]:
    """The qrels of the votes over the samples (module documentation), as judges."""
    from ..collections.labels import aggregate_labels
    from ..io.sources import as_qrels

    labels = _labels(named)
    out: list[tuple[str, Any]] = []
    for name, method in VOTES:
        voted = aggregate_labels(labels, method).qrels
        out.append((name, as_qrels(pd.DataFrame({
            "query_id": voted["topic"].astype(str), "doc_id": voted["docno"].astype(str),
            "relevance": voted["label"].astype(np.int64)}))))
    return out

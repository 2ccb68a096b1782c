"""ANOVA models with collection shards (Ferro & Sanderson 2022, §3.1; MD3 and family).

The document collection is split into shards; every system is scored on every topic
within every shard, giving y_ijk (topic i, system j, shard k). The full model of Ferro &
Sanderson (2022),

    y_ijk = μ + τ_i + α_j + β_k + (τα)_ij + (τβ)_ik + (αβ)_jk + ε_ijk        (MD3)

is the top of a nested family; any formula over ``topic``, ``system`` and ``shard`` with
``:`` interactions is accepted, and these names are predefined (:data:`SHARD_MODELS`):

==================  ==============================================================
``"MD3"``           topic + system + shard + topic:system + topic:shard + system:shard
``"MD3f"``          MD3, fake (every non-zero system difference significant, §3.1)
``"shard-main"``    topic + system + shard
``"shard-ts"``      topic + system + shard + topic:shard
``"shard-ss"``      topic + system + shard + system:shard
``"shard-ts-ss"``   topic + system + shard + topic:shard + system:shard
==================  ==============================================================

``"replicates"`` (topic + system + topic:system) and ``"replicates-main"`` (topic + system)
take the shards as exchangeable replicates (Voorhees et al. 2017;
:mod:`irscale.stats.replicates`).

The three-way interaction is the error term (one score per cell). The system marginal
mean is the mean over topics and shards, μ̂_·j· = (1/(T S)) Σ_i Σ_k y_ijk (Ferro & Sanderson 2022,
§3.1); Tukey's HSD on the system factor uses the model's error term (:meth:`AnovaResult.tukey_hsd`).

Empty shards
    A shard can hold no relevant document for a topic, leaving the measure undefined
    there: such scores are NaN. ``empty`` says what to do with NaN scores:
    ``"error"`` (default) raises, naming the first; ``"zero"`` scores them 0 (what
    trec_eval reports for a topic without relevant documents) and keeps the design
    balanced; ``"drop-topic"`` removes every topic with a NaN in any shard (balanced, fewer
    topics); ``"drop-shard"`` removes every shard with a NaN; ``"missing"`` keeps them as
    missing cells, making the design unbalanced: sums of squares are then type III and the
    system means least-squares means (Tukey–Kramer). Closed forms are used whenever the
    data left are complete.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..core import ScoreMatrix
from ..core.scorematrix import RowPlaces
from ..errors import AlignmentError, InputError, about
from ._factorial import parse_model
from .anova import fit_model
from .names import EMPTY_POLICIES as EMPTY_POLICIES
from .params import SHARD_ANOVA
from .results import AnovaResult
from .transforms import arcsine, ranks
from .validation import check_magnitude

FACTORS = ("topic", "system", "shard")
_MAIN = "topic + system + shard"
#: Named shard models: (formula, description, fake).
SHARD_MODELS: dict[str, tuple[str, str, bool]] = {
    "MD3": (f"{_MAIN} + topic:system + topic:shard + system:shard", "MD3", False),
    "MD3f": (f"{_MAIN} + topic:system + topic:shard + system:shard", "fake MD3 (MD3f)", True),
    "shard-main": (_MAIN, "shard model, main effects", False),
    "shard-ts": (f"{_MAIN} + topic:shard", "shard model with topic:shard", False),
    "shard-ss": (f"{_MAIN} + system:shard", "shard model with system:shard", False),
    "shard-ts-ss": (f"{_MAIN} + topic:shard + system:shard",
                    "shard model with topic:shard and system:shard", False),
    "replicates": ("topic + system + topic:system",
                   "replicates ANOVA (Voorhees et al. 2017)", False),
    "replicates-main": ("topic + system", "replicates ANOVA without interaction", False),
}
EmptyPolicy = Literal["error", "zero", "drop-topic", "drop-shard", "missing"]


@dataclass(frozen=True, eq=False)
class ShardScores:
    """Scores ``values[topic, system, shard]`` (NaN: undefined, e.g. an empty shard).

    ``lines``: where each score was read, for messages (:meth:`where`): the reader's
    places of its (topic, system, shard) cells (:class:`~irscale.io.scores_csv.CellLines`),
    or None for scores not read from a file."""

    values: np.ndarray
    topics: tuple[str, ...]
    systems: tuple[str, ...]
    shards: tuple[str, ...]
    lines: RowPlaces | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        values = np.asarray(self.values, dtype=np.float64)
        if values.ndim != 3:
            raise InputError(f"shard scores are topics × systems × shards, got {values.ndim}-D")
        object.__setattr__(self, "values", values)
        for axis, name in enumerate(("topics", "systems", "shards")):
            labels = tuple(str(v) for v in getattr(self, name))
            if len(labels) != values.shape[axis] or len(set(labels)) != len(labels):
                raise InputError(f"{name}: {values.shape[axis]} unique labels needed")
            object.__setattr__(self, name, labels)
        if np.isinf(values).any():
            raise InputError("infinite score in the shard scores")
        check_magnitude(values, "the shard scores")

    @classmethod
    def from_array(
        cls, values: np.ndarray, *, topics: Sequence[str] | None = None,
        systems: Sequence[str] | None = None, shards: Sequence[str] | None = None,
    ) -> ShardScores:
        array = np.asarray(values, dtype=np.float64)
        if array.ndim != 3:
            raise InputError(f"shard scores are topics × systems × shards, got {array.ndim}-D")
        t, s, k = array.shape
        return cls(
            array,
            tuple(topics) if topics is not None else tuple(str(i + 1) for i in range(t)),
            tuple(systems) if systems is not None else tuple(f"s{i + 1}" for i in range(s)),
            tuple(shards) if shards is not None else tuple(f"shard{i + 1}" for i in range(k)),
        )

    @classmethod
    def from_matrices(cls, shards: Mapping[str, ScoreMatrix], measure: str | None = None
                      ) -> ShardScores:
        """One score matrix per shard; topics and systems must be the same in each."""
        names = list(shards)
        if not names:
            raise InputError("no shard given")
        first = shards[names[0]].measure(measure)
        arrays = []
        for name in names:
            matrix = shards[name].measure(measure)
            if set(matrix.topics) != set(first.topics) or set(matrix.systems) != set(first.systems):
                raise AlignmentError(
                    f"shard {name!r} does not have the topics and systems of shard {names[0]!r}"
                )
            matrix = matrix.subset(topics=first.topics, systems=first.systems)
            arrays.append(matrix.values[:, :, 0])
        return cls(np.stack(arrays, axis=2), first.topics, first.systems, tuple(names))

    @classmethod
    def from_frame(
        cls, frame: pd.DataFrame, *, topic: str = "topic", system: str = "run",
        shard: str = "shard", value: str = "value",
    ) -> ShardScores:
        """From a tidy table with one row per (topic, system, shard) score."""
        missing = [c for c in (topic, system, shard, value) if c not in frame.columns]
        if missing:
            raise about(InputError(f"the shard score table lacks the column(s) {missing}"),
                        frame)
        if frame.duplicated([topic, system, shard]).any():
            raise about(InputError("several scores for the same (topic, system, shard)"),
                        frame)
        labels = [tuple(dict.fromkeys(frame[c].astype(str))) for c in (topic, system, shard)]
        index = [pd.Index(lab).get_indexer(frame[c].astype(str))
                 for lab, c in zip(labels, (topic, system, shard), strict=True)]
        values = np.full(tuple(len(lab) for lab in labels), np.nan)
        values[index[0], index[1], index[2]] = pd.to_numeric(frame[value]).to_numpy(np.float64)
        return cls(values, labels[0], labels[1], labels[2])

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.values.shape

    def where(self, t: int, s: int, k: int) -> dict[str, Any]:
        """The file, line and text of the score of cell ``[t, s, k]``, as the keywords of
        :class:`~irscale.errors.InputError`; empty for scores not read from a file."""
        if self.lines is None:
            return {}
        return self.lines.where((self.topics[t], self.systems[s], self.shards[k]))

    def empty_cells(self) -> list[tuple[str, str]]:
        """(topic, shard) pairs where every system's score is NaN (empty shards)."""
        empty = np.isnan(self.values).all(axis=1)
        return [(self.topics[t], self.shards[k]) for t, k in zip(*np.nonzero(empty), strict=True)]

    def __repr__(self) -> str:
        t, s, k = self.shape
        return (f"ShardScores({t} topics × {s} systems × {k} shards, "
                f"{int(np.isnan(self.values).sum())} missing)")


def _apply_policy(scores: ShardScores, empty: EmptyPolicy) -> tuple[np.ndarray, str]:
    values = scores.values
    missing = np.isnan(values)
    if not missing.any():
        return values, ""
    count = int(missing.sum())
    if empty == "error":
        t, s, k = (int(i[0]) for i in np.nonzero(missing))
        raise InputError(
            f"{count} undefined shard score(s), e.g. topic {scores.topics[t]!r}, system "
            f"{scores.systems[s]!r}, shard {scores.shards[k]!r}: choose an empty-shard policy "
            f"with --empty (empty=...): {', '.join(EMPTY_POLICIES[1:])}",
            **scores.where(t, s, k))
    if empty == "zero":
        return np.where(missing, 0.0, values), f"{count} undefined score(s) set to 0"
    if empty == "drop-topic":
        keep = ~missing.any(axis=(1, 2))
        if keep.sum() < 2:
            raise InputError("fewer than two topics are left after dropping incomplete topics")
        return values[keep], f"{int((~keep).sum())} topic(s) with undefined scores dropped"
    if empty == "drop-shard":
        keep = ~missing.any(axis=(0, 1))
        if keep.sum() < 1:
            raise InputError("every shard has undefined scores: no shard is left")
        return values[:, :, keep], f"{int((~keep).sum())} shard(s) with undefined scores dropped"
    return values, f"{count} undefined score(s) left missing (unbalanced design)"


@SHARD_ANOVA
def shard_anova(
    scores: ShardScores, model: str = "MD3", *, empty: EmptyPolicy = "error",
    transform: str | None = None,
) -> AnovaResult:
    """ANOVA of sharded scores for a named shard model or a formula (module docstring).

    ``empty`` is the empty-shard policy: ``"error"``, ``"zero"``, ``"drop-topic"``,
    ``"drop-shard"`` or ``"missing"``. ``transform`` (:mod:`irscale.stats.transforms`):
    ``"arcsine"`` transforms every score (a score outside [0, 1] is named), ``"rank"``
    ranks the scores the policy leaves (Conover & Iman 1981); ``None``/``"none"``: the
    scores themselves. Parameters checked on entry: :data:`irscale.stats.params.SHARD_ANOVA`.
    """
    transform = None if transform == "none" else transform
    formula, name, fake = SHARD_MODELS.get(model, (model, "shard ANOVA", False))
    terms = parse_model(formula, FACTORS)
    if transform == "arcsine":
        scores = replace(scores, values=arcsine(scores.values, FACTORS, (
            scores.topics, scores.systems, scores.shards)))
    values, note = _apply_policy(scores, empty)
    if values.shape[0] < 2 or values.shape[1] < 2:
        raise InputError("at least two topics and two systems are needed")
    if transform == "rank":
        values = ranks(values)
    return fit_model(values, FACTORS, terms, scores.systems, name=name, fake=fake, note=note,
                     transform=transform)

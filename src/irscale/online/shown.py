"""Lists shown to users, one per impression: what interleaving
(:class:`~irscale.online.interleaving.Interleavings`) and FairPairs
(:class:`~irscale.online.fairpairs.FairPairs`) share — the documents and relevance of every
shown position, the lists as a click log, clicks simulated on them by a user model, and
clicks given by the caller checked against them.

A batch of impressions holds ``candidates`` (the rankings' (topic, document) pairs),
``topic`` (the topic index of every impression), ``pairs`` (impressions × L pair ids, -1
past the end of a shorter list) and ``asked`` (the length asked for, when longer than the
lists can be).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
import pandas as pd

from ..core.params import DEFAULT_RELEVANCE_LEVEL
from ..errors import InputError, ParameterError
from ..stats.resampling import RngArg, check_rng, seed_sequence
from ..stats.validation import check_choice
from .params import SIMULATE_CLICKS

if TYPE_CHECKING:
    from ..collections.candidates import Candidates
    from .clicklog import ClickLog

__all__ = ["ShownLists", "generator"]


def generator(rng: RngArg) -> np.random.Generator:
    """The generator of a seed, a :class:`numpy.random.SeedSequence` or a Generator."""
    return np.random.default_rng(seed_sequence(rng=check_rng(rng)))


class ShownLists:
    """The lists of a batch of impressions (module documentation); a mixin of the frozen
    dataclasses that hold them."""

    #: The source named by :meth:`to_click_log`.
    SOURCE: ClassVar[str] = "<lists shown>"
    candidates: Candidates
    topic: np.ndarray
    pairs: np.ndarray
    asked: int | None

    def __len__(self) -> int:
        return len(self.topic)

    @property
    def length(self) -> int:
        return self.pairs.shape[1]

    def documents(self) -> np.ndarray:
        """The docnos shown (impressions × L, object array; ``None`` past the end)."""
        docnos = np.asarray([*self.candidates.pair_docno.to_pylist(), None], dtype=object)
        return docnos[self.pairs]

    def relevance(self, qrels: object, *, missing: int = 0) -> np.ndarray:
        """The relevance degree of every shown document by ``qrels`` (a path or
        :class:`~irscale.core.inputs.Qrels`): impressions × L, ``missing`` for documents
        not judged, -1 past the end of a list."""
        import warnings

        from ..io.sources import as_qrels

        judged = as_qrels(qrels)
        unjudged = sorted(set(self.candidates.topics) - set(judged.topics))
        if unjudged:
            shown = ", ".join(unjudged[:5]) + (" ..." if len(unjudged) > 5 else "")
            warnings.warn(f"{len(unjudged)} topic(s) of the rankings have no judgments in "
                          f"{judged.source} (their documents count as not relevant): "
                          f"{shown}", stacklevel=2)
        degree = self.candidates.degrees(judged)
        degree = np.where(degree < 0, missing, degree)
        return np.where(self.pairs >= 0, degree[np.maximum(self.pairs, 0)], -1)

    def to_click_log(self) -> ClickLog:
        """The lists shown as a :class:`~irscale.online.clicklog.ClickLog` without clicks
        (session = impression number, query = topic), e.g. for a click model's
        ``simulate``."""
        from .clicklog import ClickLog

        codes, docs = pd.factorize(np.asarray(self.candidates.pair_docno.to_pylist(),
                                              dtype=object))
        doc = np.where(self.pairs >= 0, codes[np.maximum(self.pairs, 0)], -1)
        return ClickLog(sessions=np.arange(len(self)).astype(str),
                        queries=np.asarray(self.candidates.topics, dtype=object),
                        docs=np.asarray(docs, dtype=object), query=self.topic.copy(),
                        doc=doc, clicks=np.zeros(self.pairs.shape, dtype=bool),
                        lengths=(self.pairs >= 0).sum(axis=1), source=self.SOURCE)

    @SIMULATE_CLICKS
    def simulate_clicks(self, model: object, *, qrels: object = None,
                        relevance_level: int = DEFAULT_RELEVANCE_LEVEL, probability: float = 0.5,
                        rng: RngArg = None) -> np.ndarray:
        """Clicks on the lists shown (impressions × L booleans) from a user model:
        ``"perfect"`` (a click on every document of degree ≥ ``relevance_level`` by
        ``qrels``, none elsewhere), ``"random"`` (every shown document clicked with
        ``probability``, independently), or a click model
        (:class:`~irscale.online.clickmodels.ClickModel`, its ``simulate``). ``qrels`` and
        ``relevance_level`` apply to the perfect user, who needs the qrels, ``probability``
        to the random one (:data:`~irscale.online.params.SIMULATE_CLICKS`)."""
        shown = self.pairs >= 0
        if isinstance(model, str):
            check_choice(model, ("perfect", "random"), "click model")
            if model == "perfect":
                return self.relevance(qrels) >= relevance_level
            return (generator(rng).random(self.pairs.shape) < float(probability)) & shown
        simulate = getattr(model, "simulate", None)
        if simulate is None:
            raise ParameterError(f"a click model is 'perfect', 'random' or a ClickModel, "
                                 f"got {model!r}")
        check_queries = getattr(model, "check_queries", None)
        if check_queries is not None:
            check_queries(self.candidates.topics)
        width = self.length
        clicks = simulate(self.to_click_log(), rng=generator(rng)).clicks
        return np.asarray(clicks[:, :width], dtype=bool) & shown

    def _check_clicks(self, clicks: object) -> np.ndarray:
        """``clicks`` as booleans of the lists' shape; clicks of the ``asked`` length
        (longer than the lists can be, :func:`list_width`) are accepted when those
        positions, past the end of every list, hold no click."""
        click = np.asarray(clicks)
        n, width = self.pairs.shape
        widths = {width, self.asked or width}
        if click.ndim != 2 or click.shape[0] != n or click.shape[1] not in widths:
            raise InputError(f"clicks must be an array of {n} impressions × "
                             f"{max(widths)} positions, got shape {click.shape}")
        if click.dtype != bool:
            if not np.isin(click, (0, 1)).all():
                raise InputError("clicks must be 0/1 or booleans")
            click = click.astype(bool)
        past = np.pad(self.pairs < 0, ((0, 0), (0, click.shape[1] - width)),
                      constant_values=True)
        bad = click & past
        if bad.any():
            row, i = np.argwhere(bad)[0]
            raise InputError(f"impression {row} has a click at rank {i + 1}, past the end of "
                             f"its list of {int((self.pairs[row] >= 0).sum())} documents")
        return click[:, :width]

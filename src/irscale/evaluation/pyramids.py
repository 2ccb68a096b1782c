"""The runner of pyramid scores: a pyramid of SCUs + peers' SCUs + measure names → an
:class:`~irscale.measures.results.Evaluation`. It reads the inputs (:mod:`irscale.io.scus`),
checks them and calls the kernel of :mod:`irscale.text.pyramid` (:func:`best_weight`),
whose module documentation states the measures, their formulas and their sources.
Declared as the ``pyramids`` context in :mod:`.contexts.pyramids`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError, InputFormatError, ParameterError
from ..io.scus import PeerScus, Pyramid, read_peer_scus, read_pyramid
from ..measures.names import measure_names, parse_name
from ..measures.results import Evaluation
from ..text.params import PYRAMID
from ..text.pyramid import PYRAMID_EXPECTED, PYRAMID_MEASURES, best_weight
from .outputs import text_evaluation

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames


def _source(source: Any, reader: Any, kind: type) -> Any:
    return source if isinstance(source, kind) else reader(source)


@PYRAMID
def evaluate_pyramid(pyramid: Any,
                     peers: Any,
                     measures: MeasureNames = PYRAMID_MEASURES, *,
                     allow_empty: bool = False) -> Evaluation:
    """Pyramid scores of every (peer, topic) summary (module documentation).

    Parameters
    ----------
    pyramid : path, bytes or Pyramid
        SCUs ``topic<TAB>scu_id<TAB>contributors|weight|-``
        (:func:`irscale.io.scus.read_pyramid`).
    peers : path, bytes or PeerScus, or a list of them
        The SCUs of the peers' summaries ``topic<TAB>peer<TAB>scu_id|-``
        (:func:`irscale.io.scus.read_peer_scus`); the peers are the runs. A (peer, topic)
        summary is described in one file.
    measures : str or list of str
        ``pyramid`` and/or ``pyramid_modified`` (default both): the families of the
        catalogue's context ``pyramids`` (:mod:`irscale.measures.pyramid`).
    allow_empty : bool
        Evaluate a peer none of whose topics has a pyramid.

    Returns
    -------
    Evaluation
        One value per (peer, topic) with a pyramid, summarised by the mean over topics; a
        peer's topics without a pyramid are named in a warning.

    Examples
    --------
    >>> pyr = b"q1\\ts1\\tA,B,C\\nq1\\ts2\\tA,B\\nq1\\ts3\\tC\\nq1\\ts4\\tB\\nq1\\tnew\\t-\\n"
    >>> peer = b"q1\\tsys\\ts2\\nq1\\tsys\\ts3\\nq1\\tsys\\tnew\\n"
    >>> evaluate_pyramid(pyr, peer).mean().round(4).to_dict("records")
    [{'pyramid': 0.5, 'pyramid_modified': 0.5625}]
    """
    names = measure_names(measures, split=False, expected=PYRAMID_EXPECTED)
    wanted = list(dict.fromkeys(parse_name(name, "pyramids").family for name in names))
    pyr = _source(pyramid, read_pyramid, Pyramid)
    parts = [_source(p, read_peer_scus, PeerScus)
             for p in (peers if isinstance(peers, (list, tuple)) else [peers])]
    if not parts:
        raise InputError("no peer SCUs to evaluate: give a file (or its bytes), or a list "
                         "of them")
    summaries = _Summaries.of(pyr, parts)
    keys = list(summaries.expressed)
    run_pos = {r: i for i, r in enumerate(summaries.runs)}
    return text_evaluation(summaries.runs,
                           np.array([run_pos[p] for p, _ in keys], dtype=np.int64),
                           [t for _, t in keys], _scores(wanted, pyr, summaries),
                           gold_topics=sorted(summaries.by_topic),
                           unjudged=[sorted(summaries.unjudged.get(r, ()))
                                     for r in summaries.runs],
                           allow_empty=allow_empty, source=pyr.source, gold="pyramids")


@dataclass
class _Summaries:
    """The peers' summaries paired with the pyramid: the runs (peers, in order of
    appearance), the weights of the SCUs each (peer, topic) summary expresses, per peer
    the topics it has a summary of but no pyramid, and the pyramid's weights by topic."""

    by_topic: dict[str, list[int]]
    weight_of: dict[tuple[str, str], int]
    runs: list[str] = field(default_factory=list)
    expressed: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    unjudged: dict[str, set[str]] = field(default_factory=dict)
    described: dict[tuple[str, str], str] = field(default_factory=dict)

    @classmethod
    def of(cls, pyr: Pyramid, parts: list[PeerScus]) -> _Summaries:
        """Every line of the peers' files (``parts``) against the pyramid ``pyr``: a
        summary described in two files, or an SCU the pyramid of its topic lacks, is an
        :class:`InputFormatError` naming its line."""
        by_topic: dict[str, list[int]] = {}
        for t, w in zip(pyr.topic, pyr.weight, strict=True):
            by_topic.setdefault(t, []).append(w)
        summaries = cls(by_topic, {(t, s): w for t, s, w in zip(pyr.topic, pyr.scu,
                                                                   pyr.weight, strict=True)})
        for scus in parts:
            for t, peer, scu, line in zip(scus.topic, scus.peer, scus.scu, scus.line,
                                          strict=True):
                summaries.add(scus, t, peer, scu, line, pyr.source)
        return summaries

    def add(self, scus: PeerScus, t: str, peer: str, scu: str | None, line: int,
            pyramid: str) -> None:
        """One line of ``scus``: the peer's summary of topic ``t`` expresses ``scu``."""
        text = f"{t}\t{peer}\t{scu or '-'}"
        if self.described.setdefault((peer, t), scus.source) != scus.source:
            raise InputFormatError(f"peer {peer!r} has SCUs for topic {t!r} in "
                                   f"{self.described[peer, t]} too", source=scus.source,
                                   line=line, text=text)
        if peer not in self.runs:
            self.runs.append(peer)
        if t not in self.by_topic:
            self.unjudged.setdefault(peer, set()).add(t)
            return
        found = self.expressed.setdefault((peer, t), [])
        if scu is None:
            return
        if (t, scu) not in self.weight_of:
            raise InputFormatError(f"SCU {scu!r} is not in the pyramid of topic {t!r} "
                                   f"({pyramid})", source=scus.source, line=line, text=text)
        found.append(self.weight_of[t, scu])


def _scores(wanted: list[str], pyr: Pyramid, summaries: _Summaries) -> dict[str, np.ndarray]:
    """The ``wanted`` scores of every (peer, topic) summary (:func:`best_weight`: the
    weight of an optimal summary of as many SCUs as the peer's, ``pyramid``, or as the
    average reference's, ``pyramid_modified``)."""
    keys = list(summaries.expressed)
    values: dict[str, np.ndarray] = {m: np.zeros(len(keys)) for m in wanted}
    for k, (peer, t) in enumerate(keys):
        weights = summaries.expressed[peer, t]
        gained = float(sum(weights))
        pyramid = summaries.by_topic[t]
        if "pyramid" in values:
            best = best_weight(pyramid, len(weights))
            values["pyramid"][k] = gained / best if best > 0 else 0.0
        if "pyramid_modified" in values:
            models = pyr.models[t]
            if not models:
                raise ParameterError(f"pyramid_modified needs the reference summaries of "
                                     f"topic {t!r}: {pyr.source} gives its SCUs' weights, "
                                     "not their contributor lists")
            best = best_weight(pyramid, sum(pyramid) / models)
            values["pyramid_modified"][k] = gained / best if best > 0 else 0.0
    return values

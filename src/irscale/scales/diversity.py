"""Interval scales of diversity measures: the image over runs judged per intent.

A topic with ``S`` intents judges each document relevant to a subset of them (binary per
intent, as ndeval counts every judgment ≥ 1). A judged run of length ``N`` is then a vector
of ``N`` intent sets; coding the set ``{j : document relevant to intent j}`` as the integer
``Σ 2^(j−1)`` (0: relevant to no intent, ``2^S − 1``: to every intent) makes the space of
runs ``REL^N`` with ``REL = {0..2^S − 1}``: ``(2^S)^N`` runs, the ``Space(N, levels=2^S)`` of
the scale engine. Its generic algorithm (:class:`~irscale.scales.generic.EnumeratedImage`,
chunked enumeration, values within ``1e-9`` tied) scores every chunk of runs with the
registered diversity kernel (:data:`~irscale.measures.diversity.DIVERSITY_REGISTRY`) on
one :class:`~irscale.measures.diversity.rankings.DiversityRankings` batch built for the
whole chunk, exactly as real runs are scored.

The qrels of the topic (the context) are counts of documents per intent set,
:class:`~irscale.scales.space.Context` with one count per code ``1..2^S − 1``. They fix the
per-intent recall base (MAP-IA) and ndeval's greedy ideal ranking (α-nDCG, nERR-IA, nNRBP); α-DCG,
ERR-IA, NRBP, P-IA and strec read nothing of the qrels but ``S``. The default is ``N`` documents
relevant to every intent (the measure's cut-off k when k > N), the counterpart of the default recall
base of Ferrante et al. (2021) (``N`` documents of the highest degree): its greedy ideal is ndeval's
collection-independent "ideal ideal" (``S(1 − α)^(i−1)`` at rank i), so α-nDCG@N equals α-DCG@N and
nERR-IA@N equals ERR-IA@N there, and no run exceeds 1. ``recall_base`` gives either ``S`` counts
(documents relevant to intent j alone, j = 1..S) or ``2^S − 1`` counts (documents relevant to
exactly the intent set of each code). See docs/scales.md.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..core.budget import MAX_MEMORY
from ..core.progress import declared_memory
from ..errors import MeasureError, ParameterError
from ..measures.diversity import DIVERSITY_REGISTRY, DiversityRequest, is_diversity_name
from ..measures.diversity import parse_diversity_measures as parse_names
from ..measures.diversity.context import DiversityContext, IntentRankings, diversity_context
from ..measures.diversity.rankings import DiversityIndex, DiversityRankings
from ..measures.diversity.umeasures import per_intent_measure
from ..parallel import ExecutorArg
from .cost import (
    BASE_MEMORY,
    ENUMERATION_BITS,
    CostEstimate,
    report,
)
from .enumeration import CHUNK_RUNS, format_run, synthetic_rankings
from .measures import ScaleMeasure
from .params import DIVERSITY_MEASURE, SCALE_INTENTS, SCALE_LENGTH
from .params import MAX_INTENTS as MAX_INTENTS

if TYPE_CHECKING:  # pragma: no cover
    from .generic import EnumeratedImage
from .space import Context, Space

#: Families that read nothing of the qrels but the number of intents S (ndeval's
#: collection-independent normalisation); any other family is assumed to read them.
QRELS_FREE = ("ERR-IA", "alpha-DCG", "NRBP", "P-IA", "strec")
#: Documents of the qrels of a scale (the greedy ideal takes one numpy step per rank).
MAX_IDEAL_DOCS = 100_000
#: Seconds per run of the diversity kernels in the enumeration (2-core machine, N = 5-10).
SECONDS_PER_RUN = 3e-6


class IntentSpace(Space):
    """``REL^N`` whose degrees are intent sets (``levels = 2^S``): the same space, named
    after its intents."""

    @property
    def intents(self) -> int:
        return self.levels.bit_length() - 1

    def label(self) -> str:
        where = "" if self.bounds is None else f", feasible {list(self.bounds)}"
        return (f"runs of {self.N} documents over {self.intents} intents "
                f"((2^{self.intents})^{self.N} runs{where})")


@dataclass(frozen=True)
class DiversityScaleMeasure(ScaleMeasure):
    """A diversity measure on runs of intent sets (module documentation)."""

    diversity: DiversityRequest | None = None
    intents: int = 1

    @property
    def reads_qrels(self) -> bool:
        """Values depend on the qrels beyond S (ideal ranking, per-intent recall base)."""
        assert self.diversity is not None
        return self.diversity.family not in QRELS_FREE

    @property
    def depends_on_recall_base(self) -> bool:
        return self.reads_qrels

    def for_length(self, N: int) -> ScaleMeasure:
        return self  # a cut-off other than N is the kernel's own (ranks below it ignored)

    def kernel_values(self, degrees: np.ndarray, context: Context | np.ndarray
                      ) -> np.ndarray:
        """The registered diversity kernel on runs given as intent-set codes."""
        degrees = np.asarray(degrees)
        if len(degrees) == 0:
            return np.zeros(0)
        if not isinstance(context, Context):
            raise ParameterError("a diversity scale takes one topic context")
        request = self.diversity
        assert request is not None
        n, N = degrees.shape
        index = _qrels(context.recall_base, self.intents)
        shifts = np.arange(self.intents, dtype=np.int8)
        bits = (degrees[:, :, None] >> shifts) & 1
        ranking, rank, intent = np.nonzero(bits)  # sorted by ranking, rank, intent
        batch = DiversityRankings(
            lengths=np.full(n, N, dtype=np.int64), ranking_topic=np.zeros(n, np.int64),
            entry_ranking=ranking.astype(np.int64), entry_rank=rank.astype(np.int64) + 1,
            entry_subtopic=intent.astype(np.int64), topics=index.topics,
            n_intents=index.n_intents, nrel_sub=index.nrel_sub,
            entry_level=np.ones(len(ranking), dtype=np.int64))
        ctx = diversity_context(index, batch, judge_intents=lambda ctx: _per_intent(
            ctx, bits, index.nrel_sub[0]))
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.asarray(
                per_intent_measure(ctx, request.label) if request.family == "IA" else
                DIVERSITY_REGISTRY[request.family].kernel(ctx, request.params,
                                                          request.cutoff), dtype=np.float64)
        bad = ~np.isfinite(out)
        if bad.any():
            row = int(np.argmax(bad))
            raise MeasureError(
                f"{self.label} is {out[row]} on the run {format_run(degrees[row])} of length "
                f"{N}: a measure needs a finite value on every run to have a scale")
        return out


def _per_intent(ctx: DiversityContext, bits: np.ndarray, nrel_sub: np.ndarray
                ) -> IntentRankings:
    """The context's rankings judged per intent (P+Q): ranking ``r`` for intent ``j`` is
    the run of degrees ``bits[r, :, j]`` (1: relevant to ``j``) with ``nrel_sub[j]``
    relevant documents, as a REL^N batch of the engine (:func:`synthetic_rankings`)."""
    n, N, intents = bits.shape
    rows = bits.transpose(0, 2, 1).reshape(n * intents, N)
    recall = np.zeros((n * intents, 2), dtype=np.int64)
    recall[:, 1] = np.tile(nrel_sub, n)
    batch = synthetic_rankings(rows, recall)
    return ctx.intent_pairs(batch, np.repeat(np.arange(n), intents),
                            np.tile(np.arange(intents), n))


def _nrel_sub(counts: tuple[int, ...], intents: int) -> np.ndarray:
    """Relevant documents of each intent: ``R_j = Σ_{codes ∋ j} count(code)``."""
    codes = np.arange(len(counts))
    holds = (codes[:, None] >> np.arange(intents)) & 1
    return (np.array(counts, dtype=np.int64) @ holds)[None, :]


@lru_cache(maxsize=64)
def _qrels(counts: tuple[int, ...], intents: int) -> DiversityIndex:
    """The qrels of a context as ndeval reads them: ``counts[code]`` documents relevant
    to exactly the intents of ``code`` (judgment 1), document ``i`` of ``code`` named
    ``code:i`` with ``code`` zero-padded, so that ndeval's tie rule in the greedy ideal (the
    larger docno first) prefers the larger code among documents of equal gain."""
    from ..core.strings import Strings
    from ..io.diversity import DiversityQrels

    if sum(counts) > MAX_IDEAL_DOCS:
        raise ParameterError(f"the recall base (--recall-base, recall_base) holds "
                             f"{sum(counts):,} documents, more than the {MAX_IDEAL_DOCS:,} "
                             "the ideal ranking is built from: give smaller counts")
    width = len(str(len(counts)))
    subtopics: list[str] = []
    docnos: list[str] = []
    for code in range(1, len(counts)):
        names = [f"{code:0{width}d}:{i}" for i in range(counts[code])]
        for j in range(intents):
            if code >> j & 1:
                docnos += names
                subtopics += [str(j + 1)] * len(names)
    topic, subtopic, docno = (Strings.of(values)
                              for values in (["1"] * len(docnos), subtopics, docnos))
    qrels = DiversityQrels(topic=topic, subtopic=subtopic, docno=docno,
                           judgment=np.ones(len(docnos), np.int64),
                           source="<intent space qrels>")
    return DiversityIndex.of(qrels)


def is_diversity_measure(name: object) -> bool:
    """True when ``name`` names one diversity measure (``alpha-nDCG@10``)."""
    return isinstance(name, str) and is_diversity_name(name)


@DIVERSITY_MEASURE
def diversity_measure(name: str, intents: int) -> DiversityScaleMeasure:
    """The :class:`DiversityScaleMeasure` of a diversity measure name for ``S`` intents
    (checked on entry: :data:`~irscale.scales.params.DIVERSITY_MEASURE`)."""
    text = name.strip()
    requests = parse_names([text])
    if len(requests) != 1:
        raise MeasureError(f"{text!r} names {len(requests)} measures; a scale is built for "
                           "one measure at a time (e.g. alpha-nDCG@10)")
    return DiversityScaleMeasure(label=text, kind="diversity", text=text,
                                 diversity=requests[0], intents=intents)


def intent_context(recall_base: Iterable[int] | int | Context | None, space: Space,
                   depth: int | None = None) -> Context:
    """The qrels of the space as counts per intent set (module documentation).

    ``None``: ``max(N, depth)`` documents relevant to every intent (``depth``: the
    measure's cut-off, so that its ideal is the "ideal ideal" down to it); an integer:
    that many documents relevant to every intent; ``S`` counts: documents relevant to
    intent j alone; ``2^S − 1`` counts: documents of each intent set, by code
    ``1..2^S − 1``; a :class:`Context` of ``2^S`` counts (code 0 first). Every intent
    needs a relevant document (S counts the intents with one, as ndeval's
    ``actualSubtopics``).
    """
    intents, sets = space.levels.bit_length() - 1, space.levels
    if recall_base is None:
        recall_base = max(space.N, depth or 0)
    if isinstance(recall_base, Context):
        counts = tuple(recall_base.recall_base)
        if len(counts) != sets:
            raise ParameterError(f"a recall base (--recall-base, recall_base) Context for "
                                 f"{intents} intents needs {sets} counts (codes 0..{sets - 1})"
                                 f", got {len(counts)}")
    elif not isinstance(recall_base, bool) and isinstance(recall_base, numbers.Integral):
        counts = (0,) * (sets - 1) + (int(recall_base),)
    elif isinstance(recall_base, (str, bytes)) or not isinstance(recall_base, Iterable):
        raise ParameterError(f"recall base (--recall-base, recall_base) must be a sequence "
                             f"of integer counts, got {recall_base!r}")
    else:
        given = tuple(recall_base)
        if len(given) == sets - 1:
            counts = (0, *given)
        elif len(given) == intents:
            full = [0] * sets
            for j, count in enumerate(given):
                full[1 << j] = count
            counts = tuple(full)
        else:
            raise ParameterError(
                f"recall base (--recall-base, recall_base) takes {intents} counts (documents "
                f"relevant to each intent alone) or {sets - 1} (documents of each intent set, "
                f"codes 1..{sets - 1}) for {intents} intents, got {len(given)}: {list(given)!r}")
    context = Context(counts)  # each count checked (RECALL_BASE)
    empty = np.flatnonzero(_nrel_sub(context.recall_base, intents)[0] == 0)
    if len(empty):
        raise ParameterError(
            f"the recall base (--recall-base, recall_base) gives intent {int(empty[0]) + 1} "
            f"no relevant document: S counts the intents with one (ndeval's actualSubtopics); "
            f"give it one, or fewer intents")
    return context


def estimate_diversity(measure: DiversityScaleMeasure, space: Space, *,
                       max_memory: int | None = None, queries: int = 800) -> CostEstimate:
    """The cost of the enumeration (the limits of :func:`irscale.scales.cost.estimate`):
    refused beyond ``2^40`` runs or ``max_memory`` bytes."""
    from .generic import DISTINCT_BUDGET

    bits = space.N * measure.intents
    if bits > ENUMERATION_BITS:
        raise ParameterError(
            f"-N/N = {space.N} with {measure.intents} intents is too large for "
            f"{measure.label}: its image is found by enumerating all (2^{measure.intents})^"
            f"{space.N} = 2^{bits} runs (at most 2^{ENUMERATION_BITS})")
    runs = space.n_runs
    chunk = min(runs, CHUNK_RUNS) * space.N * measure.intents * 48
    result = CostEstimate(measure.label, space.label(), runs, runs, "chunked enumeration",
                      "no exact structure is known for diversity measures: every run is "
                      "scored by its kernel, values closer than 1e-9 are tied",
                      runs * SECONDS_PER_RUN,
                      BASE_MEMORY + 32 * min(runs, DISTINCT_BUDGET) + chunk, queries)
    declared_memory((SCALE_LENGTH, SCALE_INTENTS), result.memory, result.line(),
                    max_memory=max_memory, option=MAX_MEMORY)
    return result


def diversity_scale(measure: str, N: int, intents: int, *,
                    recall_base: Iterable[int] | int | Context | None = None,
                    feasible: bool = False, progress: bool = True,
                    max_memory: str | int | None = None, explain: bool = False,
                    queries: int = 800, announce: bool = True,
                    executor: ExecutorArg = "local"
                    ) -> tuple[DiversityScaleMeasure, IntentSpace, Context, EnumeratedImage,
                               CostEstimate]:
    """The parts of the :class:`~irscale.scales.scale.Scale` of a diversity measure (its
    measure, space, context, image and cost estimate) over the runs of
    ``N`` documents judged for ``intents`` intents (module documentation); called by
    :func:`irscale.scales.scale` with ``intents=``.

    ``recall_base`` (the qrels assumed) and ``feasible`` (only the runs the qrels allow: at
    most ``count`` documents of each intent set) apply to measures that read the qrels
    (α-nDCG, nERR-IA, nNRBP, MAP-IA); with the others ``recall_base`` needs ``feasible``.
    """
    from ..core.budget import max_memory_of
    from .generic import EnumeratedImage

    dm = diversity_measure(measure, intents)
    space = IntentSpace(N, 2 ** dm.intents)
    limit = max_memory_of(max_memory)
    if not isinstance(feasible, (bool, np.bool_)):
        raise ParameterError(f"feasible must be True or False, got {feasible!r}")
    if recall_base is not None and not dm.reads_qrels and not feasible:
        raise ParameterError(
            f"{dm.label} reads nothing of the qrels but the number of intents: a recall base "
            "(--recall-base, recall_base) changes its image only with --feasible "
            "(feasible=True)")
    if feasible and recall_base is None:
        raise ParameterError(
            "--feasible (feasible=True) needs --recall-base (recall_base): the default "
            "qrels hold only documents relevant to every intent, so the feasible runs would "
            "be those of two kinds of documents")
    cost = estimate_diversity(dm, space, max_memory=limit, queries=queries)
    assert dm.diversity is not None
    context = intent_context(recall_base, space, dm.diversity.cutoff)
    if feasible:
        space = IntentSpace(N, 2 ** dm.intents, context.bounds())
    if announce:
        report(cost, progress=progress, explain=explain)
    if recall_base is not None and not feasible and dm.reads_qrels:
        short = [code for code in range(1, space.levels) if context.recall_base[code] < N]
        if short:
            warnings.warn(
                f"{dm.label}: the recall base has fewer than N = {N} documents of intent set "
                f"{short[0]}: the space holds runs with more of them than the qrels have, "
                f"where {dm.label} may leave its range (--feasible / feasible=True keeps "
                "only the runs the qrels allow)", stacklevel=3)
    image = EnumeratedImage(dm, space, context, progress=progress, executor=executor)
    return dm, space, context, image, cost


__all__ = ["MAX_INTENTS", "DiversityScaleMeasure", "IntentSpace", "diversity_measure",
           "diversity_scale", "intent_context", "is_diversity_measure"]

"""The parameters of interval scales, declared once: a scale's space (run length N,
relevance degrees, intents, recall base), φ's tie strategy and the shards of an image.

The functions of :mod:`irscale.scales` check their arguments against these declarations and
the command line builds its options from them (:func:`irscale.cli.options.add_param`),
before numpy is imported: this module imports nothing but :mod:`irscale.core.params` (the
mechanism: domains, :class:`~irscale.core.params.Param`), and the package's
``__init__`` is lazy.
"""

from __future__ import annotations

from ..core.params import INT64_MAX, NO_WORK, Cost, Integers, Listed, Names, Param, Switch

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from ..core.binding import Binding

    #: The bindings :func:`_bindings` makes on first use (:func:`__getattr__`).
    SCALE: Binding
    DIVERSITY_MEASURE: Binding
    TAU_TABLE: Binding
    TRANSFORM: Binding
    TRANSFORM_RANKINGS: Binding

#: How the functions name the parameters of a scale's space (command line and Python).
RUN_LENGTH = "run length N (-N, N)"
LEVELS = "number of relevance degrees (--levels, levels)"
RECALL_BASE = "recall base count (--recall-base, recall_base)"
INTENTS = "number of intents (--intents, intents)"
#: Degrees are stored as int8: at most 128 relevance degrees 0..127, and 2^S ≤ 128 intent
#: sets of S intents.
MAX_LEVELS = 128
MAX_INTENTS = 7
#: Largest number of documents of one degree in a recall base: 2^31 − 1 (no topic's qrels
#: come near it; sums over degrees stay far within 64 bits).
MAX_RECALL_BASE = 2**31 - 1
#: The domains of the run length N, the number of degrees, a recall base count, the number
#: of intents and of the shards an image is computed in.
LENGTH = Integers(1, INT64_MAX, strict=True)
DEGREES = Integers(2, MAX_LEVELS, strict=True)
RECALL_COUNT = Integers(0, MAX_RECALL_BASE, strict=True)
INTENT_COUNT = Integers(1, MAX_INTENTS, strict=True)
SHARDS = Integers(1, strict=True)
#: Tie strategies of φ for runs of equal value (Ferrante, Ferro & Fuhr 2021, eq. 2).
TIE_STRATEGIES: tuple[str, ...] = ("unq", "min", "max", "mid")
#: ``--phi-ties``: φ's tie strategy for runs of equal value (Ferrante, Ferro & Fuhr 2021,
#: eq. 2; the functions' ``ties``).
PHI_TIES = Param("ties", Names("tie strategy", TIE_STRATEGIES), "unq", "tie strategy of φ "
                 "for runs of equal value", ("--phi-ties",), dest="phi_ties")
#: The parameters of a scale's space (:func:`irscale.scales.scale`).
SCALE_LENGTH = Param("N", LENGTH, None, "run length N (runs cut at N, padded with "
                     "non-relevant)", ("-N", "--length"), label=RUN_LENGTH,
                     cost=Cost("ranks", "exponential", "a factor of levels to the rankings of "
                               "the space"))
#: The names of Ferrante, Ferro & Fuhr (2021) that :func:`irscale.scales.scale_measure` takes
#: beside the catalogue's (``RBP_p05``, ``nDCG_b10`` ...), with optional ``(options)``: a
#: pattern compiled by :mod:`re` when first used (not by every command's start-up).
SCALE_PAPER_NAME = (
    r"^(?P<name>P|R|F|AP|RR|SBTO|RBTO|RBP_p(?P<p>\d+)|(?P<n>n?)DCG_b(?P<b>\d+))"
    r"(?:\((?P<params>[^()]*)\))?$"
)
#: The run lengths of Table 2 (:func:`irscale.scales.diagnostics.tau_table`'s ``Ns``,
#: ``irscale scale table -N``), each a scale of its own.
TAU_LENGTHS = Param("Ns", Listed(LENGTH, "a run length N"), None, "comma-separated run "
                    "lengths N", ("-N", "--cutoffs"), "N,N,...", label="run lengths (-N, Ns)",
                    dest="lengths",
                    cost=Cost("ranks", "exponential", "a factor of levels to the rankings of "
                              "a scale"))
SCALE_LEVELS = Param("levels", DEGREES, 2, "number of relevance degrees |REL| = c + 1 (2: "
                     "binary)", ("--levels",), label=LEVELS,
                     cost=Cost("degrees", "exponential", "levels^N rankings in the space"))
SCALE_INTENTS = Param("intents", INTENT_COUNT, None, "diversity measures (alpha-nDCG@k, "
                      "ERR-IA@k, ...): the number of intents; the space holds the (2^S)^N "
                      "runs whose documents are each relevant to a subset of them (see "
                      "docs/scales.md)", ("--intents",), "S", label=INTENTS,
                      cost=Cost("intents", "exponential", "a factor of 2^N to the runs of the "
                                "space"))
SCALE_SHARDS = Param("shards", SHARDS, None, "meet-in-the-middle images (AP, DCG/nDCG, RBP "
                     "...): group the image's buckets (about 4M candidate pairs each) into at "
                     "most K tasks, run on --scheduler (or this process's threads without "
                     "it); same image and file", ("--shards",), "K", label="--shards",
                     unset="one task per bucket with --scheduler, none without",
                     cost=NO_WORK)
SCALE_RECALL_BASE = Param("recall_base", RECALL_COUNT, None, "the topic's documents per "
                          "relevant degree 1..c: c = levels - 1 comma-separated integers from "
                          "0 to 2^31 - 1; with --intents S: S counts (documents relevant to "
                          "each intent alone) or 2^S - 1 (documents of each intent set)",
                          ("--recall-base",), "COUNTS", unset="N of the highest degree",
                          label="--recall-base",
                          cost=NO_WORK)
#: The kind of a measure whose scale is built (:func:`irscale.scales.scale.measure_kind`):
#: the parameters of its space depend on it (``levels`` and ``shards``, or ``intents``).
#: Derived from the measure, never given: the command line sets it from ``-m``
#: (``irscale scale image``); messages name it as "a diversity measure".
MEASURE_KIND = Param("kind", Names("measure kind", ("graded measure", "diversity measure")),
                     None, "the kind of the measure, derived from it", ("a",),
                     dest="measure_kind")


def measure_kind(measure: object) -> str:
    """The kind of a measure whose scale is built (:data:`MEASURE_KIND`): ``"diversity
    measure"`` (``alpha-nDCG@5``, ``ERR-IA@10`` ...: its documents are relevant to subsets
    of the intents, its image enumerated over (2^S)^N runs) or ``"graded measure"`` (one
    degree per document, over REL^N). The value the binding of :func:`irscale.scales.scale`
    rules on (``SCALE``, which derives it on entry), derived alike by the function and the
    command line (the diversity measures, which import numpy, looked up only for a name that is
    neither a scale of the papers nor a measure of trec_eval or the catalogue: a call refused by
    its options is refused before numpy is imported)."""
    import re

    if not isinstance(measure, str) or re.match(SCALE_PAPER_NAME, measure.strip()):
        return "graded measure"
    from ..measures.names import is_measure_name

    if is_measure_name(measure):
        return "graded measure"
    from ..measures.diversity import is_diversity_name

    return "diversity measure" if is_diversity_name(measure) else "graded measure"


#: Only the runs a topic allows (:func:`irscale.scales.scale`, ``transform``, ``tau_table``).
FEASIBLE = Param("feasible", Switch(), False, "only the runs the topic allows (no more "
                 "documents of a degree than its recall base)", ("--feasible",))
#: The algorithm chosen for each measure, why and its cost, on standard error.
EXPLAIN = Param("explain", Switch(), False, "print on standard error the algorithm chosen for "
                "each measure, why, and its cost estimate (default: off; the estimate alone "
                "is printed before long computations)", ("--explain",))
#: The options of :func:`irscale.scales.transform.transform` alone.
RESCALE = Param("rescale", Switch(), False, "rescale M_R to [0, 1]: (φ − 1)/(|image| − 1)",
                ("--rescale",))
ALL_TOPICS = Param("all_topics", Switch(), False, "every qrels topic (runs without results "
                   "get N non-relevant documents)", ("--all-topics",))


def _bindings() -> dict[str, Any]:
    """The bindings of the scales' functions (:class:`~irscale.core.binding.Binding`):
    :func:`irscale.scales.diversity.diversity_measure` (``DIVERSITY_MEASURE``: the number
    of intents of its space) and :func:`irscale.scales.diagnostics.tau_table`
    (``TAU_TABLE``, ``irscale scale table``: the run lengths, the space's degrees, the
    relevance level and the orders of ties), :func:`irscale.scales.transform.transform`
    and :func:`~irscale.scales.transform.transform_rankings` (``TRANSFORM``,
    ``TRANSFORM_RANKINGS``, ``irscale scale transform``: the run length, the degrees, the
    relevance level, φ's ties and, for files, the order of ties), and
    :func:`irscale.scales.scale` (``SCALE``, ``irscale scale image``: the degrees, the
    intents and the shards, by the kind of the measure, :data:`MEASURE_KIND`)."""
    from ..core.binding import Binding, Derived, Required
    from ..core.params import RELEVANCE, Needs
    from ..core.trec_options import TIE_POLICY

    space = (SCALE_LENGTH, SCALE_LEVELS, RELEVANCE, PHI_TIES)
    diversity, graded = ("diversity measure",), ("graded measure",)
    return {"SCALE": Binding(
                (SCALE_LENGTH, SCALE_LEVELS, SCALE_INTENTS, SCALE_SHARDS),
                rules=(Needs((SCALE_INTENTS,), "diversity measures (alpha-nDCG@k, ERR-IA@k "
                             "...)", on=MEASURE_KIND, values=diversity),
                       Needs((SCALE_LEVELS, SCALE_SHARDS), "measures of one degree per "
                             "document (a diversity measure's documents are relevant to "
                             "subsets of the intents, its image enumerated in fixed shards)",
                             on=MEASURE_KIND, values=graded),
                       Required(SCALE_INTENTS, on=MEASURE_KIND, values=diversity)),
                derived=(Derived(MEASURE_KIND, lambda args: measure_kind(args["measure"])),)),
            "DIVERSITY_MEASURE": Binding((SCALE_INTENTS,)),
            "TAU_TABLE": Binding((TAU_LENGTHS, SCALE_LEVELS, RELEVANCE, PHI_TIES, TIE_POLICY)),
            "TRANSFORM": Binding((*space, TIE_POLICY)),
            "TRANSFORM_RANKINGS": Binding(space)}


def __getattr__(name: str) -> Any:
    """A binding of :func:`_bindings`, made on first use: this module is read at the
    start-up of ``irscale eval`` (the names of the measures' scales), which loads no
    binding (:mod:`irscale.core.binding`)."""
    if name.isupper():
        made = _bindings()
        if name in made:
            globals().update(made)
            return made[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

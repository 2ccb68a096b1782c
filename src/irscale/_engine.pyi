"""The native engine (``rust/``, compiled by maturin): its functions as Python sees them."""

import os
from collections.abc import Sequence
from typing import Any

__version__: str

def build_info() -> tuple[str, bool]:
    """The crate's name and whether it was compiled with optimisations."""

def trec_measure(
    family: str, ints: list[int], floats: list[float], gains: list[tuple[int, float]],
    rel: object, offsets: object, rel_levels: object, degrees: object,
    relevance_level: int, compat: int, num_docs_in_coll: int,
) -> list[tuple[str, object]]:
    """The outputs of one trec_eval measure family on a batch of judged rankings."""

def gain_sort_unreplayable(
    gains: list[tuple[int, float]], rel_levels: object, degrees: object,
) -> list[tuple[int, float, float]]:
    """The gain tables on which trec_eval's sort of gains cannot be replayed."""
class TrecReadError(ValueError):
    """A fault of a TREC file: ``args`` are (kind, reason, source, line, text, details,
    notes of the runs read before)."""

def judge_trec(
    qrels: bytes | str | os.PathLike[str], qrels_name: str,
    runs: list[tuple[bytes | str | os.PathLike[str], str]], ties: str, compat: int,
    max_docs: int | None, judged_only: bool, placeholders: bool,
) -> tuple[Any, ...]:
    """The judged rankings of TREC run files against a TREC qrels file, from their bytes
    or their paths."""

# pytrec_eval-style dicts (rust/src/bind/dicts.rs)
class Dicts:
    """Qrels and runs read from dicts by :func:`read_dicts`, judged once."""

def read_dicts(qrels: object, runs: object) -> tuple[Dicts, list[str]] | None:
    """The qrels dict and the run dicts (one run, or a dict ``{name: run}``) read, and the
    runs' names, or ``None`` when one is left to the Python reader."""

def judge_dicts(
    dicts: Dicts, ties: str, compat: int, max_docs: int | None, judged_only: bool,
    placeholders: bool,
) -> tuple[Any, ...]:
    """The judged rankings of dicts read by :func:`read_dicts`, as :func:`judge_trec`
    gives those of files."""

# diversity measures (rust/src/diversity/)
def ndeval_measure(
    family: str, cutoff: int | None, alpha: float, beta: float,
    run: tuple[object, object, object, object, object],
    ideal: tuple[object, object, object, object, object] | None,
    n_intents: object, nrel_sub: object,
) -> Any:
    """One of ndeval's diversity families on a batch judged per intent: float64 per ranking."""

def ntcir_measure(
    family: str, cutoff: int | None, beta: float, din: bool,
    run: tuple[object, object, object, object, object], entry_gain: object,
    probability: object, navigational: object, rel_topic: object, rel_gain: object,
    discounts: object, n_intents: object, nrel_sub: object,
) -> Any:
    """One of NTCIREVAL's D-measures on a batch judged per intent: float64 per ranking."""

class IntentJudge:
    """The relevant (topic, docno) pairs of diversity qrels, for judging runs per intent."""

    def __init__(self, topic: object, offsets: object, data: object, mask: object,
                 level: object) -> None: ...
    def judge(self, offsets: object, data: object, order: object, start: object,
              length: object, topic: object) -> tuple[Any, Any, Any, Any]:
        """The relevant entries (ranking, rank, intent, level) of a run."""

# the scale engine's counting kernels (rust/src/bind/scales.rs)
def int_pair_bucket(
    groups_arrays: Sequence[tuple[object, object, object, object]], lo: int, hi: int, counts: bool,
) -> tuple[Any, Any | None, int]:
    """The distinct integer sums ``a + b`` of the groups in ``[lo, hi)``, ascending, their
    runs (``counts``) and the number of candidate pairs."""

def int_pair_scan(
    groups_arrays: Sequence[tuple[object, object, object, object]], edges: object, queries: object,
    strict: bool,
) -> tuple[Any, Any]:
    """The distinct sums of each bucket of ``edges`` and, per query, the distinct sums ≤ it
    (< it when ``strict``)."""

def pair_count(
    groups: Sequence[tuple[object, object, object, object, object, object]], x: object,
    strict: bool, weighted: bool, integer: bool,
) -> Any:
    """Per query, the pairs (runs when ``weighted``) with ``a + b ≤ x`` (< x when
    ``strict``)."""

def pair_window(
    groups: Sequence[tuple[object, object, object, object, object, object]], lo: object,
    hi: object, weighted: bool, integer: bool,
) -> tuple[Any, Any, Any, Any, Any]:
    """``(below, query, group, a index, b index)``: the pairs with ``lo_q ≤ a + b ≤ hi_q``
    and the pairs (runs when ``weighted``) below each window."""

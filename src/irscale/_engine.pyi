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
    relevance_level: int, compat: int, num_docs_in_coll: int, groups: object = None,
) -> list[tuple[str, object]]:
    """The outputs of one trec_eval measure family on a batch of judged rankings (with
    ``groups``, the tie group of each document: their tie-aware values)."""

def tie_aware_families() -> tuple[list[str], list[str]]:
    """The trec_eval families with a tie-aware value: those computed in expectation over
    the orders of the tied documents, and those whose value does not depend on the order."""

def expected_err(stop: object, groups: object, offsets: object,
                 depth: int | None = None) -> Any:
    """Per ranking (``offsets``): the expectation of ERR over the orders of its tie groups
    (``groups``, one id per document), ``stop`` the stopping probability of each document,
    weights ``1/r`` up to rank ``depth`` (all ranks: None); a float64 array."""

def trec_output_names(
    family: str, ints: list[int], floats: list[float], gains: list[tuple[int, float]],
    compat: int, num_docs_in_coll: int,
) -> list[str]:
    """The output names of one trec_eval measure family (as trec_measure names them)."""

def trec_families() -> list[tuple[str, tuple[int, int | None], tuple[int, int | None],
                                  tuple[int, int | None], str]]:
    """The engine's table of trec_eval families: ``(name, cut-offs, numbers, gain pairs,
    role)``, each count of parameters ``(min, max)`` (``max`` None: no bound), the role
    ``measure`` (declared by ``declare_native``) or ``part`` (computed for other measures)."""

def gain_sort_unreplayable(
    gains: list[tuple[int, float]], rel_levels: object, degrees: object,
) -> list[tuple[int, float, float]]:
    """The gain tables on which trec_eval's sort of gains cannot be replayed."""

def bounds_chain(
    family: str, ints: list[int], floats: list[float],
    arrays: tuple[object, object, object, object, int], below: object,
    grades: tuple[int, int], level: int,
) -> list[tuple[Any, Any]] | None:
    """A measure's chain of the bounds at every slot of both families of completions (per
    output, the prefix and the suffix family's values); None where the completions do not
    change it."""

def bounds_marks(
    family: str, ints: list[int], floats: list[float],
    arrays: tuple[object, object, object, object, int], below: object,
    grades: tuple[int, int], level: int, marked: str,
) -> tuple[Any, Any, list[tuple[Any, Any]]] | None:
    """The slots of both families where a measure's chain reaches an extreme, and per
    output, per ranking, its lowest and highest value; None where the completions do not
    change it."""

def bounds_complete(
    rel: object, offsets: object, ranking: object, suffix: object, k: object, lowest: int,
    highest: int,
) -> tuple[Any, Any]:
    """The completed rankings of the bounds search: their degrees and offsets."""
class TrecReadError(ValueError):
    """A fault of a TREC file: ``args`` are (kind, reason, source, line, text, details,
    notes of the runs read before)."""

def judge_trec_batch(
    qrels: bytes | str | os.PathLike[str], qrels_name: str,
    runs: list[tuple[bytes | str | os.PathLike[str], str]], ties: str, compat: int,
    max_docs: int | None, judged_only: bool, placeholders: bool, limit: int,
) -> JudgedTrec:
    """The judged rankings of TREC run files against a TREC qrels file, from their bytes
    or their paths, held by the engine (their texts and columns within ``limit`` bytes)."""

#: The longest line any reader takes, in bytes (``rust/src/read/limits.rs``).
LINE_LIMIT: int

def read_text(source: bytes | str | os.PathLike[str], name: str, limit: int) -> bytes:
    """The text of a file's bytes or of the file at a path: gzip data decompressed a block
    at a time, no line beyond ``LINE_LIMIT``, within ``limit`` bytes (``TrecReadError``
    otherwise); plain bytes given back as they are."""

class JudgedTrec:
    """TREC files judged by the engine (rust/src/bind/trec.rs): numpy-free accessors, the
    arrays of the judged rankings, and trec_eval's output of measures on them."""

    def notes(self) -> list[tuple[list[str], str, tuple[int, int, str] | None]]:
        """Per run file: (run ids, last run id, scores beyond a C float or None)."""
    def topics(self) -> list[str]:
        """The qrels' topics, in byte order."""
    def unjudged(self) -> list[list[str]]:
        """Per run, the topics it has results for that the qrels do not judge."""
    def evaluated_counts(self) -> list[int]:
        """Per run, its rankings that are not trec_eval 10's -c placeholders."""
    def at_least(self, level: int) -> int:
        """The qrels' judgments with a degree >= level, over every topic."""
    def n_qrels_topics(self) -> int:
        """The number of the qrels' topics."""
    def gain_sort_unreplayable(
        self, gains: list[tuple[int, float]],
    ) -> list[tuple[int, float, float]]:
        """(num_levels, least, greatest) of the gain tables trec_eval's sort cannot be
        replayed on."""
    def arrays(self) -> tuple[Any, ...]:
        """(rel, offsets, rel_levels, degrees, dense, judgments, ranking_topic, ranking_run,
        placeholder, topics, run notes, unjudged topics per run, tie groups: an array with
        the tie policy "expected", None otherwise); the rankings move to
        Python: afterwards arrays() and evaluate_trec() raise ValueError."""
    def evaluate_trec(
        self, calls: list[tuple[str, list[int], list[float], list[tuple[int, float]]]],
        columns: list[tuple[int, int, str, str, str, bool, float | str | None]],
        run_names: list[str], complete: bool, totals: list[tuple[str, int]],
        per_query: bool, summary: bool, relevance_level: int, compat: int,
        num_docs_in_coll: int,
    ) -> bytes:
        """trec_eval's text of the planned columns computed on the batch."""

# an evaluation's output (rust/src/bind/output.rs, rust/src/output/)
def spell_floats(values: Any, style: str) -> tuple[Any, Any]: ...

def summaries(
    columns: Sequence[tuple[str, str]], values: list[object | None], ranking_run: object,
    evaluated: object | None, placeholders: bool, runs: list[str], rule: str,
    complete: bool, n_qrels_topics: int, totals: list[tuple[str, int]],
) -> list[list[Any]]:
    """The summary values of every run, one per column whose aggregate is not none."""

def summary_mean(values: object, divisor: int, rule: str) -> float:
    """The mean of values over divisor topics, added topic by topic."""

def trec_lines(
    columns: Sequence[tuple[str, str]], values: list[object], ranking_topic: object,
    topic_data: bytes, topic_offsets: object, suffix: bytes,
) -> bytes:
    """trec_eval's per-topic lines of the rows given."""

def trec_summary_lines(entries: Sequence[tuple[str, str, str, Any]], suffix: bytes) -> bytes:
    """One run's summary (all) lines: (label, value type, aggregate, value) each."""

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
    """The judged rankings of dicts read by :func:`read_dicts`, as
    :meth:`JudgedTrec.arrays` gives those of files."""

# ndeval's files (rust/src/read/diversity.rs)
def read_diversity_qrels(
    source: bytes | str | os.PathLike[str], name: str, ndeval: bool, limit: int,
) -> tuple[tuple[Any, Any], tuple[Any, Any], tuple[Any, Any], Any]:
    """Diversity qrels ``topic subtopic docno judgment`` from a file's bytes or path:
    ``(topic, subtopic, docno, judgment)``, each string column as ``(offsets, data)``."""

def read_ndeval_run(
    source: bytes | str | os.PathLike[str], name: str, ndeval_topics: bool, limit: int,
) -> tuple[list[str], Any, tuple[Any, Any], Any, Any, list[str]]:
    """A TREC run read as ndeval reads it: ``(topic ids, every row's topic number, docno
    as (offsets, data), score, rank, run ids)``."""

def ndeval_numbers(ids: list[str], run_topics: bool) -> list[int | None]:
    """Every id as ndeval reads it (a natural number, or with ``run_topics`` a run's
    topic), ``None`` where ndeval refuses it."""

# Qrels and Run objects as columns (rust/src/columns.rs): a string column is its Arrow
# offsets (int32 or int64) and data (uint8); see irscale.core.native_columns
def judge_columns(
    qrels: tuple[Any, ...], runs: list[tuple[Any, ...]], ties: str, compat: int,
    max_docs: int | None, judged_only: bool, placeholders: bool, keep_rows: bool,
) -> tuple[tuple[Any, ...], list[Any] | None]:
    """The judged rankings of runs against qrels given as columns, as :func:`judge_trec`
    gives those of files, and with ``keep_rows`` every run's row of each judged document
    but the placeholders (uint32, in the order of the rankings)."""

def qrels_levels(qrels: tuple[Any, ...]) -> tuple[list[str], Any, Any, bool]:
    """``(topics in byte order, rel_levels, degrees, dense)`` of qrels given as columns."""

def pair_degrees(qrels: tuple[Any, ...], codes: Any, docno_offsets: Any, docno_data: Any,
                 doc: Any | None = None) -> Any:
    """The degree (int64; -2 unjudged, -1 not in the qrels) of every pair (topic code among
    the qrels' topics in byte order, -1 for none; docno ``doc[i]``, or ``i``)."""

def ranked_rows(run: tuple[Any, ...], topics: list[str], ties: str, compat: int
                ) -> tuple[Any, Any]:
    """The rows (int64) of a run given as columns of the topics ``topics``, by their place
    there, each topic's in ranking order, and the topic's place of every row."""

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
    def judge_files(
        self, runs: list[tuple[bytes | str | os.PathLike[str], str]], qrels_topics: list[str],
        traditional: bool, max_docs: int | None, ndeval_topics: bool, limit: int,
    ) -> list[tuple[Any, ...]]:
        """Run files read as ndeval reads them, put in ndeval's order and judged: per run
        (run ids, topic ids, lengths, qrels topics, entries' ranking, rank, intent,
        level)."""


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

def int_pair_classes(
    groups_arrays: Sequence[tuple[object, object, object, object]], edges: object,
) -> bool:
    """Whether ``int_pair_scan`` over the buckets of ``edges`` counts by residue classes."""

#: Fewest buckets a pass of ``int_pair_scan`` spans to count by residue classes.
INT_PAIR_CLASS_BUCKETS: int

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

# string columns (rust/src/strings.rs): (offsets, data) as irscale.core.strings.Strings holds them
def strings_encode(offsets: Any, data: Any) -> tuple[Any, Any]:
    """Every string's code (distinct values numbered in order of first appearance) and
    the first row of every distinct value, int64."""
def strings_order(offsets: Any, data: Any) -> Any:
    """The rows in the byte order of their strings, stable (int64)."""
def strings_index_in(offsets: Any, data: Any, set_offsets: Any, set_data: Any) -> Any:
    """The first row of every string in the other column, -1 when absent (int64)."""
def strings_take(offsets: Any, data: Any, rows: Any) -> tuple[Any, Any]:
    """The strings at ``rows``: new int64 offsets from 0 and uint8 data."""
def strings_equal(offsets: Any, data: Any, other_offsets: Any, other_data: Any) -> Any:
    """Whether the strings of two columns of one length are equal, row by row (bool)."""
def plain_table(text: bytes, body: int, sep: int, numeric: Sequence[bool],
                user: int | None = None) -> tuple[Any, Any, bool] | None:
    """The quick check of a per-user table: ``None`` when it is not plain, else the int64
    offsets of its rows' starts and ends and whether its users are known distinct."""
def read_fields(
    source: bytes | str | os.PathLike[str], name: str, count: int,
    asked: Sequence[tuple[int, str]], limit: int, decompress: bool = True,
) -> tuple[str | None, int, list[Any]]:
    """The fields asked (``(index, kind)``, kind ``"str"``, ``"float"`` or ``"int"``) of
    every data line of a file of ``count`` fields separated by blanks and tabs:
    ``(fault, rows, columns)``, ``fault`` ``None``, ``"misfit"``, ``"nul"`` or
    ``"empty"``; a text column is ``(int64 offsets, uint8 data)``. ``TrecReadError`` when
    the file cannot be read or decompressed."""

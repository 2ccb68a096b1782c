"""BLEU: hypotheses against reference texts (Papineni et al. 2002), with the choices of
sacrebleu 2.6 (Post 2018).

**Statistics** of a hypothesis h with references r_1..r_m, for n = 1..N (``order``,
default 4): the clipped matches m_n = Σ_g min(#(g, h), max_j #(g, r_j)) over the n-grams g
of h, the n-gram total t_n = max(0, |h| − n + 1), the hypothesis length c = |h| in tokens
and the reference length r = the |r_j| closest to c (the shorter one on ties). Corpus
BLEU adds these statistics over the hypotheses before the formula; sentence BLEU applies
it to one hypothesis.

**Formula** (values in [0, 1]: sacrebleu's score / 100): BLEU = BP · exp(Σ_{n≤N'} log p_n
/ N') with the brevity penalty BP = 1 if c ≥ r, else exp(1 − r/c) (0 if c = 0), and

* BLEU = 0 when every m_n is 0 (before any smoothing);
* ``smooth=add-k`` (Chen & Cherry 2014, method 2; k = ``value``, default 1): m_n and t_n
  grow by k for n ≥ 2;
* the orders are taken while t_n > 0; p_n = m_n / t_n where m_n > 0, else, by ``smooth``:
  ``exp`` (method 3, mteval-v13a's smoothing; default) 1 / (2^z · t_n), z the number of
  orders up to n with m_n = 0; ``floor`` (method 1; ε = ``value``, default 0.1) ε / t_n;
  ``none`` and ``add-k`` 0;
* N' = N, the orders past the first with t_n = 0 counting with p_n = 0 (BLEU = 0);
  with ``effective=1`` (the default here, as sacrebleu's ``sentence_bleu``), N' is the
  last order with t_n > 0; log 0 counts as −9999999999 (BLEU = 0).

**Tokens**: the text is lower-cased (``lowercase=1``), stripped of its trailing blanks,
tokenised, and split at blanks (Python's ``str.split``):

* ``13a`` (mteval-v13a, the default): remove ``<skipped>`` and ``-`` + newline, turn
  newlines into blanks, unescape ``&quot; &amp; &lt; &gt;``; pad the text with a blank;
  put blanks around each of ``{ | } ~ [ \\ ] ^ _ ` ! " # $ % & ( ) * + : ; < = > ? @ /``;
  split off ``.`` and ``,`` after a character other than an ASCII digit (a blank after
  them), then before such a character (a blank before them), and ``-`` after a digit
  (blanks around it). Each rule is one left-to-right pass without overlaps, as the regular
  expressions of sacrebleu's ``TokenizerRegexp`` do.
* ``intl`` (mteval-v14 ``--international-tokenization``): split off a Unicode punctuation
  character (\\p{P}) after a character that is not a number (\\P{N}), then before one, and
  put blanks around every symbol (\\p{S}); needs the ``regex`` package (a sacrebleu
  dependency) for the Unicode classes.
* ``none``: the text as it is.

Tokenising is one regular-expression pass per rule and text (as sacrebleu's); n-grams and
their counts are then computed for all texts at once: tokens become ids, n-grams int64
codes (:mod:`irscale.text.rouge`'s), each reference group's maximal counts and each
hypothesis's clipped counts come from sorted keys, and the formula runs over arrays.

These are the kernels; the runners of files (:func:`evaluate_bleu`,
:func:`evaluate_corpus_bleu`) are :mod:`irscale.evaluation.bleu`'s (also importable from
here).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Any

import numpy as np

from ..core.extras import REGEX
from ..core.lazy import lazy_package
from ..errors import ParameterError
from ..measures.names import measure_names, parse_name
from .rouge import _joined, word_ids

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames

DEFAULT_MEASURES = ("BLEU",)
#: What ``measures`` may be (the start of the error otherwise).
BLEU_EXPECTED = 'measures must be BLEU measure names such as "BLEU" or ["BLEU(smooth=floor)"]'
#: sacrebleu's log of a zero precision.
_LOG_ZERO = -9999999999.0
_DEFAULT_VALUE = {"floor": 0.1, "add-k": 1.0}


@dataclass(frozen=True)
class BleuRequest:
    """One BLEU measure: tokeniser, smoothing (method, value), order N, lower-casing,
    effective order, and its label."""

    tokenize: str = "13a"
    smooth: str = "exp"
    value: float | None = None
    order: int = 4
    lowercase: bool = False
    effective: bool = True
    label: str = "BLEU"

    @property
    def units(self) -> tuple[str, bool, int]:
        """What is counted (requests with the same units share their statistics)."""
        return self.tokenize, self.lowercase, self.order


def parse_bleu(text: str) -> BleuRequest:
    """``BLEU``, ``BLEU(smooth=floor,value=0.2)`` ... → a :class:`BleuRequest`.

    >>> r = parse_bleu("BLEU(tokenize=intl,smooth=add-k)")
    >>> r.tokenize, r.smooth, r.value, r.effective
    ('intl', 'add-k', 1.0, True)
    """
    request = parse_name(text, "texts")
    if request.family != "BLEU":
        raise ParameterError(f"{text!r} is not a BLEU measure ({BLEU_EXPECTED}); ROUGE is "
                             "computed by irscale text rouge")
    p = request.params
    value = p["value"] if p["value"] is not None else _DEFAULT_VALUE.get(p["smooth"])
    return BleuRequest(p["tokenize"], p["smooth"], value, p["order"], p["lowercase"],
                       p["effective"], request.label)


# ----------------------------------------------------------------------------- tokens
#: 13a's separated symbols, each replaced by itself between blanks (one character at a
#: time, whatever is around it: a translation table does it in one pass).
_13A_SYMBOLS = str.maketrans({c: f" {c} " for c in "{|}~[\\]^_`!\"#$%&()*+:;<=>?@/"})
_13A_AFTER = re.compile(r"([^0-9])([.,])")
_13A_BEFORE = re.compile(r"([.,])([^0-9])")
_13A_DASH = re.compile(r"([0-9])(-)")
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def _spaced_after(match: re.Match[str]) -> str:
    return f"{match[1]} {match[2]} "


def _spaced_before(match: re.Match[str]) -> str:
    return f" {match[1]} {match[2]}"


def _tokens_13a(text: str) -> list[str]:
    """mteval-v13a's tokens (module documentation)."""
    text = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in text:
        for entity, char in _ENTITIES:
            text = text.replace(entity, char)
    text = f" {text} ".translate(_13A_SYMBOLS)
    if "." in text or "," in text:
        text = _13A_BEFORE.sub(_spaced_before, _13A_AFTER.sub(_spaced_after, text))
    if "-" in text:
        text = _13A_DASH.sub(_spaced_after, text)
    return text.split()


@lru_cache(maxsize=1)
def _intl_rules() -> tuple[Any, Any, Any]:
    regex = REGEX.load("tokenize=intl")  # the Unicode classes \p{P}, \p{S}, \p{N}
    return (regex.compile(r"(\P{N})(\p{P})"), regex.compile(r"(\p{P})(\P{N})"),
            regex.compile(r"(\p{S})"))


def _tokens_intl(text: str) -> list[str]:
    """mteval-v14's international tokens (module documentation)."""
    after, before, symbol = _intl_rules()
    text = after.sub(r"\1 \2 ", text)
    text = before.sub(r" \1 \2", text)
    return symbol.sub(r" \1 ", text).split()


_TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "13a": _tokens_13a, "intl": _tokens_intl, "none": str.split}


def bleu_tokens(text: str, tokenize: str = "13a", *, lowercase: bool = False) -> list[str]:
    """The tokens BLEU counts in ``text`` (module documentation).

    >>> bleu_tokens("It costs $3.50, isn't it?")
    ['It', 'costs', '$', '3.50', ',', "isn't", 'it', '?']
    """
    if tokenize not in _TOKENIZERS:
        raise ParameterError(f"tokenize must be one of {', '.join(_TOKENIZERS)}, not "
                             f"{tokenize!r}")
    if lowercase:
        text = text.lower()
    return _TOKENIZERS[tokenize](text.rstrip())


# ----------------------------------------------------------------------------- statistics
def _statistics(hyps: Sequence[str], refs: Sequence[str], ref_group: np.ndarray,
                hyp_group: np.ndarray, units: tuple[str, bool, int]) -> np.ndarray:
    """BLEU statistics of every hypothesis: rows ``c, r, m_1..m_N, t_1..t_N`` (int64);
    the references of hypothesis i are those with ``ref_group == hyp_group[i]``."""
    tokenize, lowercase, order = units
    words = [bleu_tokens(t, tokenize, lowercase=lowercase) for t in chain(hyps, refs)]
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    ids, _ = word_ids(chain.from_iterable(words))
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    n_hyps = len(hyps)
    group = np.concatenate((hyp_group, ref_group)).astype(np.int64)
    stats = np.zeros((n_hyps, 2 + 2 * order), dtype=np.int64)
    stats[:, 0] = lengths[:n_hyps]
    stats[:, 1] = _closest_lengths(lengths[:n_hyps], lengths[n_hyps:], hyp_group, ref_group)
    owner = np.repeat(np.arange(len(lengths)), lengths)  # the text of every token
    room = offsets[1:][owner] - np.arange(len(ids))  # tokens from each to its text's end
    code = ids
    for n in range(1, order + 1):
        if n > 1:  # the n-grams' codes from the (n − 1)-grams' at i and i + 1
            code = _joined(code, room, n - 1, 1)
        starts = np.flatnonzero(room >= n)
        stats[:, 1 + n] = _clipped(owner[starts], code[starts], group, n_hyps)
        stats[:, 1 + order + n] = np.maximum(lengths[:n_hyps] - n + 1, 0)
    return stats


def _clipped(text: np.ndarray, code: np.ndarray, group: np.ndarray, n_hyps: int
             ) -> np.ndarray:
    """Σ_g min(#(g, h), max over h's references #(g, r)) of every hypothesis h, from the
    (text, n-gram code) of every n-gram (codes small whole numbers: equal n-grams, equal
    codes)."""
    if not len(code):
        return np.zeros(n_hyps, dtype=np.int64)
    bound = int(code.max()) + 1
    keys, counts = np.unique(text * bound + code, return_counts=True)
    owner, unit = keys // bound, keys % bound
    is_ref = owner >= n_hyps
    ref_key, ref_count = _largest(group[owner[is_ref]] * bound + unit[is_ref],
                                  counts[is_ref])
    hyp_owner, hyp_count = owner[~is_ref], counts[~is_ref]
    hyp_key = group[hyp_owner] * bound + unit[~is_ref]
    at = np.minimum(np.searchsorted(ref_key, hyp_key), max(len(ref_key) - 1, 0))
    best = np.where(ref_key[at] == hyp_key, ref_count[at], 0) if len(ref_key) else 0
    return np.bincount(hyp_owner, weights=np.minimum(hyp_count, best),
                       minlength=n_hyps).astype(np.int64)


def _largest(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``keys``, sorted, each with its largest count (one sort of
    key·(c + 1) + count, c the largest count, where that fits int64)."""
    if not len(keys):
        return keys, counts
    scale = int(counts.max()) + 1
    if int(keys.max()) < 2**62 // scale:
        both = np.sort(keys * scale + counts)
        keys, counts = both // scale, both % scale
    else:  # pragma: no cover - beyond any real input (2^62 / counts n-gram keys)
        order = np.lexsort((counts, keys))
        keys, counts = keys[order], counts[order]
    last = np.append(keys[1:] != keys[:-1], True)
    return keys[last], counts[last]


def _closest_lengths(hyp_len: np.ndarray, ref_len: np.ndarray, hyp_group: np.ndarray,
                     ref_group: np.ndarray) -> np.ndarray:
    """The reference length closest to every hypothesis length (the shorter on ties)."""
    order = np.argsort(ref_group, kind="stable")
    sorted_group = ref_group[order]
    start = np.searchsorted(sorted_group, hyp_group, side="left")
    stop = np.searchsorted(sorted_group, hyp_group, side="right")
    sizes = stop - start
    hyp = np.repeat(np.arange(len(hyp_len)), sizes)
    within = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    lengths = ref_len[order[np.repeat(start, sizes) + within]]
    pick = np.lexsort((lengths, np.abs(hyp_len[hyp] - lengths), hyp))
    first = np.concatenate(([True], hyp[pick][1:] != hyp[pick][:-1])) if len(pick) else \
        np.zeros(0, dtype=bool)
    out = np.zeros(len(hyp_len), dtype=np.int64)
    out[hyp[pick][first]] = lengths[pick][first]
    return out


def bleu_from_statistics(stats: np.ndarray, request: BleuRequest) -> np.ndarray:
    """BLEU of every row ``c, r, m_1..m_N, t_1..t_N`` of ``stats`` (module documentation)."""
    stats = np.atleast_2d(np.asarray(stats, dtype=np.float64))
    order = request.order
    c, r = stats[:, 0], stats[:, 1]
    matches = stats[:, 2:2 + order].copy()
    totals = stats[:, 2 + order:2 + 2 * order].copy()
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bp = np.where(c >= r, 1.0, np.where(c > 0, np.exp(1.0 - r / np.where(c > 0, c, 1.0)),
                                            0.0))
        none_matched = ~(matches > 0).any(axis=1)
        if request.smooth == "add-k" and order > 1:
            matches[:, 1:] += request.value
            totals[:, 1:] += request.value
        reached = np.cumprod(totals > 0, axis=1).astype(bool)
        zero = (matches == 0) & reached
        if request.smooth == "exp":
            doubled = np.exp2(np.cumsum(zero, axis=1))
            fallback = 1.0 / (doubled * totals)
        elif request.smooth == "floor":
            fallback = request.value / totals
        else:
            fallback = np.zeros_like(totals)
        precision = np.where(reached, np.where(matches > 0, matches / totals, fallback), 0.0)
        logs = np.where(precision > 0, np.log(np.where(precision > 0, precision, 1.0)),
                        _LOG_ZERO)
        if request.effective:
            n_eff = np.maximum(reached.sum(axis=1), 1)
            total_log = np.where(reached, logs, 0.0).sum(axis=1)
        else:
            n_eff = np.full(len(c), order)
            total_log = logs.sum(axis=1)
        score = bp * np.exp(total_log / n_eff)
    return np.where(none_matched, 0.0, score)


# ----------------------------------------------------------------------------- API
def bleu_requests(measures: MeasureNames) -> list[BleuRequest]:
    """The requests of BLEU measure names (a :class:`~irscale.errors.MeasureError` names a
    name that is not one)."""
    names = measure_names(measures, split=False, expected=BLEU_EXPECTED)
    return [parse_bleu(name) for name in names]


def _groups(hypotheses: Sequence[str], references: Sequence[Sequence[str]]
            ) -> tuple[list[str], np.ndarray]:
    if isinstance(hypotheses, str) or len(references) != len(hypotheses):
        raise ParameterError(f"{len(hypotheses)} hypotheses but {len(references)} lists "
                             "of references: give one list per hypothesis")
    sizes = np.fromiter(map(len, references), dtype=np.int64, count=len(references))
    if len(sizes) and sizes.min() == 0:
        raise ParameterError(f"hypothesis {int(np.argmin(sizes))} has no reference text")
    refs = list(chain.from_iterable(references))
    if not all(isinstance(t, str) for t in chain(hypotheses, refs)):
        raise ParameterError("hypotheses and references must be strings")
    return refs, np.repeat(np.arange(len(hypotheses)), sizes)


def sentence_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                  measures: MeasureNames = DEFAULT_MEASURES) -> Any:
    """Sentence BLEU of every hypothesis against its references (module documentation).

    ``references[k]``: the reference texts of hypothesis k (one or more). Returns a
    ``pandas.DataFrame``, one row per hypothesis, one column per measure.

    >>> sentence_bleu(["the cat sat on the mat"], [["the cat sat on a mat"]]).round(4)
         BLEU
    0  0.5373
    """
    import pandas as pd

    requests = bleu_requests(measures)
    refs, ref_group = _groups(hypotheses, references)
    hyp_group = np.arange(len(hypotheses))
    return pd.DataFrame(bleu_values(list(hypotheses), refs, ref_group, hyp_group, requests,
                                None))


def corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                measures: MeasureNames = "BLEU(effective=0)") -> dict[str, float]:
    """Corpus BLEU of the hypotheses: their statistics added, then the formula (module
    documentation); ``references[k]`` as :func:`sentence_bleu`'s. The default measure has
    ``effective=0``, as sacrebleu's ``corpus_bleu``.

    >>> corpus_bleu(["the cat sat on the mat", "a dog"],
    ...             [["the cat sat on a mat"], ["a dog barked"]])
    {'BLEU(effective=0)': 0.4927...}
    """
    requests = bleu_requests(measures)
    refs, ref_group = _groups(hypotheses, references)
    values = bleu_values(list(hypotheses), refs, ref_group, np.arange(len(hypotheses)),
                     requests, np.zeros(len(hypotheses), dtype=np.int64))
    return {label: float(v[0]) for label, v in values.items()}


def bleu_values(hyps: list[str], refs: list[str], ref_group: np.ndarray, hyp_group: np.ndarray,
                requests: Sequence[BleuRequest], pool: np.ndarray | None
                ) -> dict[str, np.ndarray]:
    """Every request's values: per hypothesis, or (``pool``: the set of every hypothesis)
    per set, the statistics added within a set."""
    counted: dict[tuple[str, bool, int], np.ndarray] = {}
    out: dict[str, np.ndarray] = {}
    for request in requests:
        if request.units not in counted:
            counted[request.units] = _statistics(hyps, refs, ref_group, hyp_group,
                                                 request.units)
        stats = counted[request.units]
        if pool is not None:
            summed = np.zeros((int(pool.max(initial=-1)) + 1, stats.shape[1]), dtype=np.int64)
            np.add.at(summed, pool, stats)
            stats = summed
        out[request.label] = bleu_from_statistics(stats, request)
    return out


#: The runners of files, :mod:`irscale.evaluation.bleu`'s, importable from here too.
__getattr__, __dir__ = lazy_package(__name__, {
    "CorpusScores": "irscale.evaluation.bleu", "evaluate_bleu": "irscale.evaluation.bleu",
    "evaluate_corpus_bleu": "irscale.evaluation.bleu"})

"""ROUGE: texts against reference texts (Sakai 2014, §3.3 eq. 36–39; Lin 2004).

Measures (names as ``irscale eval``'s, parameters in the name):

* ``ROUGE-N`` (N = 1, 2, ...; eq. 36): n-gram co-occurrence. With hits =
  Σ_e min(Count(e, s), Count(e, s*)) over the n-grams e of the candidate s and the
  reference s*, recall R = hits / Σ Count(e, s*), precision P = hits / Σ Count(e, s)
  (0 when a text has no n-gram).
* ``ROUGE-L``: the longest common subsequence of the two token sequences (whole texts,
  no sentence split: rouge-score's ``rougeL``), R = LCS / |s*|, P = LCS / |s|, 0 when a
  text has no token.
* ``ROUGE-S`` (eq. 37–39): skip bigrams, the ordered token pairs (s_i, s_j), i < j, at
  most ``skip`` tokens apart in between (j − i ≤ skip + 1; ``skip=inf`` (default): any
  pair, Sakai's (2014) definition; ``ROUGE-S4`` spells ``skip=4`` as ROUGE-1.5.5 ``-2 4``),
  counted as n-grams are.
* ``ROUGE-SU``: skip bigrams and unigrams together (ROUGE-1.5.5 ``-2 skip -u``).

Every measure takes ``stat=f|p|r`` (default ``f``) and ``beta`` (default 1):
F_β = (1 + β²)·P·R / (β²·P + R) (eq. 39; 0 when P = R = 0).

**Tokens** follow rouge-score (the default semantics): lower-case the text, replace every
run of characters other than ``a–z`` and ``0–9`` by a space, split on spaces. ``stem=True``:
tokens longer than 3 characters are replaced by their Porter stem (NLTK's
``PorterStemmer``, as rouge-score's ``use_stemmer``). ``stopwords``: tokens in the list
are removed before stemming (ROUGE-1.5.5's ``-s`` with a list you give).

**Several references** (``multi``): ``max`` (default; rouge-score's ``score_multi``): the
reference with the greatest F_β gives P, R and F (the first one in file order on ties);
``mean``: P, R and F averaged over the references; ``pooled`` (ROUGE-1.5.5's ``-f A``
"model average" without jackknifing): R = Σ hits / Σ reference counts, P = Σ hits /
Σ candidate counts over the references, F from these.

Computation is batched: tokens become int64 ids through one vocabulary, n-grams dense
int64 codes (exact, by ``np.unique`` of pairs of codes, doubling the length: about log2(n)
passes for any n), counts are matched per (candidate, reference) pair by sorted keys, and
LCS lengths come from a row-by-row DP over a batch of pairs (L[i][j] = cummax_j
max(L[i−1][j], L[i−1][j−1] + [a_i = b_j])), or for two long texts from Hyyrö's
bit-parallel recurrence (:func:`lcs_bits`). Skip bigrams are
listed so only while there are few of them (a text of n tokens has n(n − 1)/2 with
``skip=inf``); beyond, they are counted without being listed, over the tokens a candidate
and a reference share (:func:`skip_bigram_hits`: time O(shared tokens × text length),
memory bounded), with the same values.

These are the kernels; the runner of files, :func:`evaluate_rouge`, is
:mod:`irscale.evaluation.rouge`'s (also importable from here).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, Literal

import numpy as np

from ..core import identifiers
from ..core.extras import NLTK
from ..core.lazy import lazy_package
from ..core.segments import chunks, padded_slots, ranges
from ..errors import InputError, ParameterError
from ..measures.arrays import f_beta
from ..measures.names import measure_names, parse_name
from .params import ROUGE, ROUGE_MULTI

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames

Multi = Literal["max", "mean", "pooled"]
MULTI: tuple[str, ...] = ROUGE_MULTI.domain.names
DEFAULT_MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
#: What ``measures`` may be (the start of the error otherwise).
ROUGE_EXPECTED = 'measures must be ROUGE measure names such as "ROUGE-L" or ["ROUGE-1", "ROUGE-2"]'

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_VALID = re.compile(r"[a-z0-9]+\Z")


@dataclass(frozen=True)
class RougeRequest:
    """One ROUGE measure: kind (``N``, ``L``, ``S``, ``SU``), n, skip, stat, β, label."""

    kind: str
    n: int
    skip: float
    stat: str
    beta: float
    label: str

    @property
    def units(self) -> tuple[str, int, float]:
        """What is counted (requests with the same units share their counts)."""
        return self.kind, self.n, self.skip


def parse_rouge(text: str) -> RougeRequest:
    """``ROUGE-2``, ``ROUGE-L(stat=r)``, ``ROUGE-SU4``, ``ROUGE-S(skip=9,beta=2)`` → a
    :class:`RougeRequest` (:class:`MeasureError` otherwise).

    >>> r = parse_rouge("ROUGE-SU4(stat=p)")
    >>> r.kind, r.skip, r.stat
    ('SU', 4.0, 'p')
    """
    request = parse_name(text, "texts")
    if not request.family.startswith("ROUGE-"):
        raise ParameterError(f"{text!r} is not a ROUGE measure ({ROUGE_EXPECTED}); "
                             f"{request.family} is computed by irscale text "
                             f"{request.family.lower()}")
    params, kind = request.params, request.family.removeprefix("ROUGE-")
    return RougeRequest(kind, params["n"] if kind == "N" else 2 if kind in ("S", "SU") else 0,
                        params["skip"] if kind in ("S", "SU") else 0.0, params["stat"],
                        params["beta"], request.label)


# ----------------------------------------------------------------------------- tokens
def rouge_requests(measures: MeasureNames) -> list[RougeRequest]:
    """The requests of ROUGE measure names (a :class:`~irscale.errors.MeasureError` names a
    name that is not one)."""
    return [parse_rouge(name) for name in measure_names(measures, split=False,
                                                        expected=ROUGE_EXPECTED)]


def _stemmer() -> Any:
    """nltk's Porter stemmer, the one rouge-score uses (nltk: the ``text`` extra)."""
    NLTK.load("stemming")
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


def tokenize(texts: Sequence[str], *, stem: bool = False,
             stopwords: Iterable[str] = ()) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Token ids of every text (module documentation): ``(ids, offsets, vocabulary)``,
    text k's tokens being ``vocabulary[ids[offsets[k]:offsets[k + 1]]]``.

    >>> ids, offsets, vocab = tokenize(["The cats ran!", "cat-like"], stem=True)
    >>> [vocab[i] for i in ids], offsets.tolist()
    (['the', 'cat', 'ran', 'cat', 'like'], [0, 3, 5])
    """
    words = [_NON_ALNUM.sub(" ", text.lower()).split() for text in texts]
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    ids, vocabulary = word_ids(chain.from_iterable(words), stem=stem, stopwords=stopwords)
    if (ids < 0).any():
        keep = ids >= 0
        text_of = np.repeat(np.arange(len(words)), lengths)
        lengths = np.bincount(text_of[keep], minlength=len(words)).astype(np.int64)
        ids = ids[keep]
    return ids, np.concatenate(([0], np.cumsum(lengths))).astype(np.int64), vocabulary


def word_ids(words: Iterable[str], *, stem: bool = False, stopwords: Iterable[str] = ()
             ) -> tuple[np.ndarray, list[str]]:
    """The term id of every word (lower-case alphanumeric runs, in order), -1 for a word
    dropped (a stop word, or a stem that is not alphanumeric), and the vocabulary: the
    tokens of :func:`tokenize`, with the dropped words still in place."""
    ids, distinct = identifiers.encode(identifiers.strings(list(words)))
    vocabulary: list[str] = distinct.to_pylist()
    stop = set(stopwords)
    if not (stem or stop):
        return ids, vocabulary
    stemmer = _stemmer() if stem else None
    final: list[str | None] = []
    for word in vocabulary:
        if word in stop:
            final.append(None)
        elif stemmer is not None and len(word) > 3:
            stemmed = stemmer.stem(word)
            final.append(stemmed if _VALID.match(stemmed) else None)
        else:
            final.append(word)
    kept = sorted({w for w in final if w is not None})
    position = {w: k for k, w in enumerate(kept)}
    remap = np.array([position[w] if w is not None else -1 for w in final] or [0],
                     dtype=np.int64)
    return remap[ids], kept


# ----------------------------------------------------------------------------- units
def _dense(keys: np.ndarray) -> np.ndarray:
    """Dense codes 0..k−1 of int64 keys (equal keys, equal codes)."""
    return np.unique(keys, return_inverse=True)[1].astype(np.int64).reshape(-1)


def _units(ids: np.ndarray, offsets: np.ndarray, vocabulary_size: int, kind: str, n: int,
           skip: float) -> tuple[np.ndarray, np.ndarray]:
    """(text, unit code) of every counted unit of every text: its n-grams (``N``) or
    skip bigrams (``S``; and its unigrams too for ``SU``); equal units, equal codes."""
    lengths = np.diff(offsets)
    text = np.repeat(np.arange(len(lengths)), lengths)
    position = np.arange(len(ids)) - offsets[:-1][text]  # 0-based position in its text
    v = max(vocabulary_size, 1)
    if kind == "N":
        starts, code = _ngrams(ids, lengths[text] - position, n)
        return text[starts], code
    first = position.copy()
    parts_text, parts_code = [], []
    gap = 1
    longest = int(lengths.max(initial=0))
    while gap < longest and gap <= skip + 1:  # pairs (i, i + gap)
        ok = first + gap < lengths[text]
        rows = np.flatnonzero(ok)
        parts_text.append(text[rows])
        parts_code.append(ids[rows] * v + ids[rows + gap])
        gap += 1
    if kind == "SU":
        parts_text.append(text)
        parts_code.append(v * v + ids)
    if not parts_text:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    code = np.concatenate(parts_code)
    if v * v + v >= 2**62 // max(len(lengths), 1):
        code = _dense(code)
    return np.concatenate(parts_text), code


def _ngrams(ids: np.ndarray, room: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(start, code) of every n-gram of the texts, ``room`` the tokens from each token to
    the end of its text: codes of 2w-grams from pairs of w-grams (w = 1, 2, 4 ...), then
    of the n-gram from the two w-grams at i and i + n − w, which cover it (w ≤ n < 2w):
    about log2(n) passes, whatever n (one per extra token took n passes)."""
    code, width = ids, 1
    while 2 * width <= n:
        code = _joined(code, room, width, width)
        width *= 2
    if width < n:
        code = _joined(code, room, width, n - width)
    starts = np.flatnonzero(room >= n)
    return starts, code[starts]


def _joined(code: np.ndarray, room: np.ndarray, width: int, shift: int) -> np.ndarray:
    """Codes of the (width + shift)-grams (−1 where none starts), from the codes ``code``
    of the width-grams at i and i + shift (shift ≤ width: together they cover it); equal
    grams, equal codes (dense, so that the next products stay below 2^62)."""
    out = np.full(len(code), -1, dtype=np.int64)
    starts = np.flatnonzero(room >= width + shift)
    if len(starts):
        v = int(code.max()) + 1
        out[starts] = _dense(code[starts] * v + code[starts + shift])
    return out


def _unit_counts(text: np.ndarray, code: np.ndarray, n_texts: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct units of every text: (offsets per text, code, count), sorted by text
    then code."""
    bound = int(code.max(initial=0)) + 1
    if bound * n_texts >= 2**62:
        code = _dense(code)
        bound = int(code.max(initial=0)) + 1
    keys, counts = np.unique(text * bound + code, return_counts=True)
    owner = keys // bound
    offsets = np.searchsorted(owner, np.arange(n_texts + 1))
    return offsets.astype(np.int64), keys % bound, counts.astype(np.int64)


def _pair_hits(text: np.ndarray, code: np.ndarray, n_texts: int, cand: np.ndarray,
               ref: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pair (cand[p], ref[p]): Σ min(count in candidate, count in reference) over the
    shared units, and each side's total count."""
    offsets, unit, count = _unit_counts(text, code, n_texts)
    totals = np.bincount(text, minlength=n_texts).astype(np.int64)
    bound = int(unit.max(initial=0)) + 1
    if bound * max(len(cand), 1) >= 2**62:  # pragma: no cover - beyond any real input
        raise InputError("too many distinct units to pair the texts")
    sides = []
    for texts in (cand, ref):
        sizes = offsets[texts + 1] - offsets[texts]
        rows = ranges(offsets[texts], sizes)
        pair = np.repeat(np.arange(len(texts)), sizes)
        sides.append((pair * bound + unit[rows], count[rows], pair))
    (c_key, c_count, _), (r_key, r_count, r_pair) = sides
    at = np.minimum(np.searchsorted(c_key, r_key), max(len(c_key) - 1, 0))
    hit = (c_key[at] == r_key) if len(c_key) else np.zeros(len(r_key), dtype=bool)
    hits = np.bincount(r_pair[hit], weights=np.minimum(c_count[at[hit]], r_count[hit]),
                       minlength=len(cand)).astype(np.int64)
    return hits, totals[cand], totals[ref]


#: skip bigrams (summed over the pairs of texts) that are listed and sorted at once; with
#: more, they are counted without being listed (:func:`skip_bigram_hits`)
_LISTED_UNITS = 1 << 22
#: elements of the arrays of one step of :func:`skip_bigram_hits`
_SKIP_CELLS = 1 << 20


def skip_bigram_totals(lengths: np.ndarray, skip: float) -> np.ndarray:
    """Skip bigrams of texts of ``lengths`` tokens: pairs i < j with j − i ≤ skip + 1,
    Σ_{g=1..G} (n − g) = G·n − G(G + 1)/2 with G = min(skip + 1, n − 1) (n(n − 1)/2 for
    ``skip=inf``)."""
    n = np.asarray(lengths, dtype=np.int64)
    gaps = np.maximum(n - 1, 0)
    if skip < int(n.max(initial=0)):
        gaps = np.minimum(gaps, int(skip) + 1)
    return gaps * n - gaps * (gaps + 1) // 2


def _skip_hits(ids: np.ndarray, offsets: np.ndarray, vocabulary_size: int, kind: str,
               skip: float, cand: np.ndarray, ref: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_pair_hits` of the skip bigrams (``S``; and unigrams, ``SU``) of the pairs
    (cand[p], ref[p]): listed and matched as n-grams are while all of them (every pair's
    two texts counted) are at most :data:`_LISTED_UNITS`, else counted by
    :func:`skip_bigram_hits` (ROUGE-S of two 21,000-token texts: 440 million skip
    bigrams)."""
    lengths = np.diff(offsets)
    totals = skip_bigram_totals(lengths, skip) + (lengths if kind == "SU" else 0)
    if float(totals[cand].sum(dtype=np.float64) + totals[ref].sum(dtype=np.float64)) <= \
            _LISTED_UNITS:
        text, code = _units(ids, offsets, vocabulary_size, kind, 2, skip)
        return _pair_hits(text, code, len(lengths), cand, ref)
    hits = skip_bigram_hits(ids, offsets, cand, ref, skip)
    if kind == "SU":
        text, code = _units(ids, offsets, vocabulary_size, "N", 1, 0.0)
        hits += _pair_hits(text, code, len(lengths), cand, ref)[0]
    return hits, totals[cand], totals[ref]


def skip_bigram_hits(ids: np.ndarray, offsets: np.ndarray, cand: np.ndarray,
                     ref: np.ndarray, skip: float, *, cells: int = _SKIP_CELLS
                     ) -> np.ndarray:
    """Σ_(a,b) min(C_x(a, b), C_y(a, b)) for every pair (x, y) = (cand[p], ref[p]) of texts
    (token ids ``ids``, text k being ``ids[offsets[k]:offsets[k + 1]]``), C_x(a, b) the
    number of skip bigrams (a, b) of x: positions i < j, x_i = a, x_j = b, j − i ≤ skip + 1
    (Lin 2004, ROUGE-S) — without listing the bigrams.

    Only tokens of both texts (the pair's k shared tokens) can give a hit. With E_a(j) the
    number of a's before position j of a text,

        C(a, b) = Σ_{j: x_j = b} (E_a(j) − E_a(j − skip − 1)),

    and E_a over the positions of shared tokens is one cumulative sum of [x_j = a]. Each
    row a of a pair's k × k counts is made from both texts, and the minima summed, for
    blocks of rows of pairs of similar size laid out as padded matrices: time
    O(k · (m_x + m_y)) for texts with m_x and m_y positions of shared tokens, memory
    O(cells) (a row needs m_x + m_y + k + 1 elements). Counts are summed as float64, exact
    below 2^53: texts of fewer than 2^26 tokens.
    """
    lengths = np.diff(offsets)
    if int(lengths.max(initial=0)) >= 2**26:
        raise InputError(f"a text of {int(lengths.max())} tokens: skip bigrams are counted "
                         "for texts of fewer than 2^26 (67,108,864) tokens")
    hits = np.zeros(len(cand), dtype=np.int64)
    cost = np.concatenate(([0], np.cumsum(lengths[cand] + lengths[ref])))
    for first, stop in chunks(cost, cells):
        hits[first:stop] = _SharedColumns.of(ids, offsets, cand[first:stop], ref[first:stop],
                                             skip).hits(cells)
    return hits


def _row_blocks(width: np.ndarray, cells: int) -> Iterator[tuple[int, int]]:
    """``(first, stop)`` of consecutive rows (``width`` ascending) of widths within a
    factor 2, about ``cells`` elements once padded to the widest (one row at least)."""
    if not len(width):
        return
    bucket = np.frexp(width.astype(np.float64))[1]
    bounds = np.concatenate(([0], np.flatnonzero(np.diff(bucket)) + 1, [len(width)]))
    for first, stop in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        step = max(1, cells // int(width[stop - 1]))
        for row in range(first, stop, step):
            yield row, min(row + step, stop)


@dataclass(frozen=True, eq=False)
class _SharedColumns:
    """The positions of shared tokens of a block of pairs of texts: segment 2p + s holds
    those of pair p's candidate (s = 0) or reference (s = 1), in text order."""

    shared: np.ndarray  # k: shared tokens of every pair
    offsets: np.ndarray  # segment bounds (2·pairs + 1)
    token: np.ndarray  # the shared token at every position, 0..k − 1 within its pair
    start: np.ndarray | None  # per position: index in its segment of the first position at
    #                           most skip + 1 tokens before it (None: skip = inf)

    @classmethod
    def of(cls, ids: np.ndarray, offsets: np.ndarray, cand: np.ndarray, ref: np.ndarray,
           skip: float) -> _SharedColumns:
        texts = np.column_stack((cand, ref)).reshape(-1)
        sizes = offsets[texts + 1] - offsets[texts]
        token = ids[ranges(offsets[texts], sizes)]
        segment = np.repeat(np.arange(len(texts)), sizes)
        bound = int(ids.max(initial=0)) + 1
        key = segment // 2 * bound + token  # (pair, token)
        shared = np.intersect1d(np.unique(key[segment % 2 == 0]),
                                np.unique(key[segment % 2 == 1]), assume_unique=True)
        at = np.minimum(np.searchsorted(shared, key), max(len(shared) - 1, 0))
        keep = shared[at] == key if len(shared) else np.zeros(len(key), dtype=bool)
        per_pair = np.bincount(shared // bound, minlength=len(cand))
        segment = segment[keep]
        local = at[keep] - (np.cumsum(per_pair) - per_pair)[segment // 2]
        col_offsets = np.concatenate(([0], np.cumsum(np.bincount(segment,
                                                                 minlength=len(texts)))))
        longest = int(sizes.max(initial=0))
        if skip >= longest:
            return cls(per_pair, col_offsets, local, None)
        position = (np.arange(len(token)) - np.repeat(np.cumsum(sizes) - sizes, sizes))[keep]
        width = longest + 1
        start = np.searchsorted(segment * width + position, segment * width +
                                np.maximum(position - int(skip) - 1, 0)) - col_offsets[segment]
        return cls(per_pair, col_offsets, local, start)

    def hits(self, cells: int) -> np.ndarray:
        """Σ_(a,b) min(C_x(a, b), C_y(a, b)) of every pair."""
        k = self.shared
        width = np.diff(self.offsets)
        order = np.argsort(width[0::2] + width[1::2] + k, kind="stable")
        row_pair = np.repeat(order, k[order])
        row_token = np.arange(len(row_pair)) - np.repeat(np.cumsum(k[order]) - k[order],
                                                         k[order])
        row_width = (width[0::2] + width[1::2] + k + 1)[row_pair]
        hits = np.zeros(len(k), dtype=np.int64)
        for first, stop in _row_blocks(row_width, cells):
            pairs = row_pair[first:stop]
            per_row = np.minimum(self._counts(pairs, row_token[first:stop], 0),
                                 self._counts(pairs, row_token[first:stop], 1))
            ends = np.cumsum(k[pairs] + 1)
            per_row[ends - 1] = 0  # the padding's cells
            hits += np.rint(np.bincount(pairs, weights=np.add.reduceat(
                per_row, ends - k[pairs] - 1), minlength=len(k))).astype(np.int64)
        return hits

    def _counts(self, pairs: np.ndarray, row_token: np.ndarray, side: int) -> np.ndarray:
        """C(a, b) of the rows (pair, a) over b = 0..k (k: the padding), rows end to end
        (the rows of a pair are consecutive)."""
        new = np.concatenate(([True], pairs[1:] != pairs[:-1]))
        distinct, row_of = pairs[new], np.cumsum(new) - 1
        segments = 2 * distinct + side
        sizes = self.offsets[segments + 1] - self.offsets[segments]
        columns = int(sizes.max(initial=0))
        slots = padded_slots(sizes, columns)
        elements = ranges(self.offsets[segments], sizes)
        token = np.repeat(self.shared[distinct], columns)  # the padding: token k
        token[slots] = self.token[elements]
        token = token.reshape(len(distinct), columns)[row_of]
        is_a = token == row_token[:, None]
        before = np.cumsum(is_a, axis=1, dtype=np.int64)
        before -= is_a  # E_a(j)
        if self.start is not None:
            start = np.zeros(len(distinct) * columns, dtype=np.int64)
            start[slots] = self.start[elements]
            before -= np.take_along_axis(before, start.reshape(len(distinct), columns)[row_of],
                                        axis=1)
        k = self.shared[pairs]
        token += (np.cumsum(k + 1) - k - 1)[:, None]
        return np.bincount(token.reshape(-1), weights=before.reshape(-1),
                           minlength=int((k + 1).sum()))


#: Pairs of texts both at least this long get the bit-parallel LCS (:func:`lcs_bits`).
LONG_LCS = 2048
#: Bits of the token masks :func:`lcs_bits` keeps for tokens met again (64 MiB).
MASK_BUDGET_BITS = 1 << 29


def lcs_lengths(ids: np.ndarray, offsets: np.ndarray, a: np.ndarray, b: np.ndarray,
                *, cells: int = 1 << 18, long: int = LONG_LCS) -> np.ndarray:
    """Length of the longest common subsequence of texts ``a[p]`` and ``b[p]`` for every
    pair p: the DP L[i][j] = max(L[i][j−1], L[i−1][j], L[i−1][j−1] + [x_i = y_j]) one row
    i at a time for a batch of pairs, as L[i][·] = cummax(max(L[i−1][·], (L[i−1][· − 1]
    + 1) where x_i matches)). Pairs are batched by length (about ``cells`` DP cells per
    step). A pair of texts both at least ``long`` tokens long is computed on its own, bit
    parallel (:func:`lcs_bits`: 64 DP cells per word operation, where a row of the DP
    takes several passes over every cell)."""
    lengths = np.diff(offsets)
    la, lb = lengths[a], lengths[b]
    out = np.zeros(len(a), dtype=np.int64)
    large = np.minimum(la, lb) >= long
    for p in np.flatnonzero(large).tolist():  # each costs at least long² / 64 word operations
        out[p] = lcs_bits(ids[offsets[a[p]]:offsets[a[p] + 1]],
                          ids[offsets[b[p]]:offsets[b[p] + 1]])
    rest = np.flatnonzero(~large)
    order = rest[np.lexsort((la[rest], lb[rest]))]  # similar lengths together: little padding
    size = max(1, cells // (int(lb[rest].max(initial=0)) + 1))
    for start in range(0, len(order), size):
        chunk = order[start:start + size]
        rows, cols = int(la[chunk].max(initial=0)), int(lb[chunk].max(initial=0))
        if rows == 0 or cols == 0:
            continue
        dtype = np.int16 if min(rows, cols) < 32000 else np.int64
        x = _padded(ids, offsets, a[chunk], rows, -2)
        y = _padded(ids, offsets, b[chunk], cols, -1)
        previous = np.zeros((len(chunk), cols + 1), dtype=dtype)
        step = np.empty((len(chunk), cols), dtype=dtype)
        for i in range(rows):
            match = y == x[:, i:i + 1]
            np.add(previous[:, :-1], 1, out=step)
            np.multiply(step, match, out=step)
            np.maximum(step, previous[:, 1:], out=step)
            np.maximum.accumulate(step, axis=1, out=previous[:, 1:])
        out[chunk] = previous[np.arange(len(chunk)), lb[chunk]]
    return out


def lcs_bits(x: np.ndarray, y: np.ndarray, *, budget: int = MASK_BUDGET_BITS) -> int:
    """Length of the longest common subsequence of token sequences ``x`` and ``y``, bit
    parallel (Allison & Dix 1986; Hyyrö 2004, "Bit-parallel LCS-length computation
    revisited"): with M_c the mask of the positions of token c in the longer sequence y
    and V a mask of |y| ones, every token c of x (one present in y) updates
    U = V & M_c, V ← ((V + U) | (V − U)) mod 2^|y|; the LCS length is the number of zero
    bits of V. O(|x|·|y| / w) for machine words of w bits (Python integers). Masks are
    built from the positions of their token, and kept for a token met again while they
    hold at most ``budget`` bits together.

    >>> lcs_bits(np.array([1, 2, 3, 4]), np.array([2, 4, 3, 1, 4]))  # 2 3 4
    3
    """
    if len(x) > len(y):
        x, y = y, x
    m = len(y)
    order = np.argsort(y, kind="stable")
    tokens, first, counts = np.unique(y[order], return_index=True, return_counts=True)
    slot = np.minimum(np.searchsorted(tokens, x), max(len(tokens) - 1, 0))
    rows = slot[tokens[slot] == x] if len(tokens) else slot[:0]
    full = (1 << m) - 1
    v = full
    kept: dict[int, int] = {}
    room = budget
    for k in rows.tolist():
        mask = kept.get(k)
        if mask is None:
            mask = _bit_mask(order[first[k]:first[k] + counts[k]], m)
            if room >= m:
                kept[k] = mask
                room -= m
        u = v & mask
        v = ((v + u) | (v - u)) & full
    return m - v.bit_count()


def _bit_mask(positions: np.ndarray, size: int) -> int:
    """The integer whose bits ``positions`` (of ``size`` bits) are set."""
    data = np.zeros((size + 7) // 8, dtype=np.uint8)
    np.bitwise_or.at(data, positions >> 3, np.left_shift(1, positions & 7).astype(np.uint8))
    return int.from_bytes(data.tobytes(), "little")


def _padded(ids: np.ndarray, offsets: np.ndarray, texts: np.ndarray, width: int,
            pad: int) -> np.ndarray:
    """The tokens of ``texts`` as rows of a (len(texts), width) array padded with ``pad``."""
    lengths = offsets[texts + 1] - offsets[texts]
    grid = np.full((len(texts), width), pad, dtype=np.int64)
    row = np.repeat(np.arange(len(texts)), lengths)
    column = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    grid[row, column] = ids[ranges(offsets[texts], lengths)]
    return grid


# ----------------------------------------------------------------------------- scores
def _ratio(hits: np.ndarray, total: np.ndarray) -> np.ndarray:
    return hits / np.maximum(total, 1)


def _aggregate(hits: np.ndarray, c_total: np.ndarray, r_total: np.ndarray,
               cand: np.ndarray, n_cands: int, request: RougeRequest, multi: str,
               empty: np.ndarray | None) -> np.ndarray:
    """The ``request.stat`` of every candidate over its pairs (``multi``)."""
    if multi == "pooled":
        sums = [np.bincount(cand, weights=v, minlength=n_cands) for v in
                (hits, c_total, r_total)]
        p, r = _ratio(sums[0], sums[1]), _ratio(sums[0], sums[2])
        f = f_beta(p, r, request.beta)
        return {"p": p, "r": r, "f": f}[request.stat]
    p, r = _ratio(hits, c_total), _ratio(hits, r_total)
    if empty is not None:  # ROUGE-L: 0 when a text has no token (rouge-score)
        p, r = np.where(empty, 0.0, p), np.where(empty, 0.0, r)
    f = f_beta(p, r, request.beta)
    stat = {"p": p, "r": r, "f": f}[request.stat]
    if multi == "mean":
        return np.bincount(cand, weights=stat, minlength=n_cands) / np.maximum(
            np.bincount(cand, minlength=n_cands), 1)
    best = np.full(n_cands, -np.inf)
    np.maximum.at(best, cand, f)
    top = np.flatnonzero(f == best[cand])
    first = top[np.unique(cand[top], return_index=True)[1]]  # pairs are in cand order
    out = np.zeros(n_cands)
    out[cand[first]] = stat[first]
    return out


@ROUGE
def rouge(candidates: Sequence[str], references: Sequence[Sequence[str]],
          measures: MeasureNames = DEFAULT_MEASURES, *, stem: bool = False,
          stopwords: Iterable[str] = (), multi: Multi = "max") -> Any:
    """ROUGE scores of every candidate text against its references (module documentation).

    Parameters
    ----------
    candidates : list of str
        The texts to evaluate.
    references : list of lists of str
        ``references[k]``: the reference texts of candidate k (at least one each).
    measures : str or list of str
        ``ROUGE-1``, ``ROUGE-2(stat=r)``, ``ROUGE-L``, ``ROUGE-SU4``, ...
    stem : bool
        Porter-stem tokens longer than 3 characters (rouge-score's ``use_stemmer``).
    stopwords : iterable of str
        Tokens removed before stemming.
    multi : {"max", "mean", "pooled"}
        How the scores against several references are combined.

    Returns
    -------
    pandas.DataFrame
        One row per candidate, one column per measure.

    Examples
    --------
    >>> s = rouge(["the cat sat on the mat"], [["the cat lay on the mat", "a cat sat"]],
    ...           ["ROUGE-1", "ROUGE-2(stat=r)", "ROUGE-L"])
    >>> s.round(4).to_dict("records")
    [{'ROUGE-1': 0.8333, 'ROUGE-2(stat=r)': 0.6, 'ROUGE-L': 0.8333}]
    """
    import pandas as pd

    requests = rouge_requests(measures)
    if len(references) != len(candidates):
        raise ParameterError(f"{len(candidates)} candidates but {len(references)} lists "
                             "of references: give one list per candidate")
    sizes = np.fromiter(map(len, references), dtype=np.int64, count=len(references))
    if len(sizes) and sizes.min() == 0:
        raise ParameterError(f"candidate {int(np.argmin(sizes))} has no reference text")
    texts = list(candidates) + list(chain.from_iterable(references))
    ids, offsets, vocabulary = tokenize(texts, stem=stem, stopwords=stopwords)
    cand = np.repeat(np.arange(len(candidates)), sizes)
    ref = len(candidates) + np.arange(int(sizes.sum()))
    values = rouge_scores(ids, offsets, len(vocabulary), cand, ref, len(candidates), requests,
                     multi)
    return pd.DataFrame(values, columns=list(values))


def rouge_scores(ids: np.ndarray, offsets: np.ndarray, vocabulary_size: int, cand: np.ndarray,
            ref: np.ndarray, n_cands: int, requests: Sequence[RougeRequest],
            multi: str) -> dict[str, np.ndarray]:
    """The values of every request for pairs (cand[p], ref[p]) of texts, cand[p] ascending
    (candidate k is text k)."""
    counted: dict[tuple[str, int, float], tuple[Any, ...]] = {}
    out: dict[str, np.ndarray] = {}
    lengths = np.diff(offsets)
    for request in requests:
        if request.label in out:
            continue
        if request.units not in counted:
            if request.kind == "L":
                hits = lcs_lengths(ids, offsets, ref, cand)
                counted[request.units] = (hits, lengths[cand], lengths[ref],
                                          (lengths[cand] == 0) | (lengths[ref] == 0))
            elif request.kind == "N":
                text, code = _units(ids, offsets, vocabulary_size, "N", request.n, 0.0)
                counted[request.units] = (*_pair_hits(text, code, len(lengths), cand, ref),
                                          None)
            else:
                counted[request.units] = (*_skip_hits(ids, offsets, vocabulary_size,
                                                      request.kind, request.skip, cand, ref),
                                          None)
        hits, c_total, r_total, empty = counted[request.units]
        out[request.label] = _aggregate(hits, c_total, r_total, cand, n_cands, request,
                                        multi, empty)
    return out


#: The runner of files, :mod:`irscale.evaluation.rouge`'s, importable from here too.
__getattr__, __dir__ = lazy_package(__name__, {"evaluate_rouge": "irscale.evaluation.rouge"})

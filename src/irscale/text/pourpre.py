"""Automatic nugget matching by unigram overlap, in the manner of POURPRE (Lin &
Demner-Fushman, "Automatically evaluating answers to definition questions", HLT/EMNLP
2005; Sakai 2014, §3.3).

POURPRE replaces the assessor's judgement "this answer contains nugget v" by the overlap
between the words of the nugget's description and the words of the answer. Here the
description of nugget v is its vital string vs(v) (the fifth field of the nuggets file),
and both texts are tokenised as ROUGE tokenises them (:func:`irscale.text.rouge.tokenize`:
lower-case alphanumeric runs; optional Porter stemming and stop-word removal). With T(v)
the distinct terms of vs(v) and T(o) those of output o (of the same topic)::

    overlap(v, o) = |T(v) ∩ T(o)| / |T(v)|
    v is matched in o  ⇔  overlap(v, o) ≥ threshold        (0 < threshold ≤ 1)

i.e. at least c(v) = ⌈threshold·|T(v)|⌉ of the nugget's terms occur in the output (the
product rounded to 9 decimals first, so that 0.3·10 counts as 3). The match's offset
pos(v) — where the output has conveyed the nugget, read by S and S♯ — is the end of the
output's word at which the c(v)-th of the nugget's terms first occurs (the shortest prefix
of the output that matches), counted in non-blank characters as the nugget measures count
the output's length. Unlike POURPRE's fractional match scores, a nugget is matched or not,
so that the matches feed the nugget measures unchanged (:func:`evaluate_nuggets`); a
threshold near 0 counts any shared term, 1 requires every term.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..core.segments import ranges
from ..errors import InputError
from ..io.text import Matches, Nuggets, Texts, read_nuggets, read_texts
from .params import POURPRE
from .rouge import word_ids

_WORD = re.compile(r"[a-z0-9]+")
_BLANK = re.compile(r"\s")


def _words(text: str) -> tuple[list[str], list[int]]:
    """The lower-case alphanumeric words of ``text`` (as :func:`~irscale.text.rouge.tokenize`
    finds them) and the number of non-blank characters of ``text`` up to the end of each."""
    lowered = text.lower()
    found = list(_WORD.finditer(lowered))
    ends = np.fromiter((m.end() for m in found), dtype=np.int64, count=len(found))
    if len(lowered) != len(text):  # a character lower-cased to several: map back
        grown = np.cumsum([len(c.lower()) for c in text])
        ends = np.searchsorted(grown, ends) + 1
    blanks = np.fromiter((m.start() for m in _BLANK.finditer(text)), dtype=np.int64)
    return [m.group() for m in found], (ends - np.searchsorted(blanks, ends)).tolist()


def _check_vital_strings(gold: Nuggets, wanted: set[str]) -> None:
    """Every nugget of a topic with outputs (``wanted``) has its vital string (an
    :class:`~irscale.errors.InputError` naming the first that has none)."""
    for k, (t, vs) in enumerate(zip(gold.topic, gold.vital_string, strict=True)):
        if t in wanted and vs is None:
            raise InputError(f"nugget {gold.nugget[k]!r} has no vital string: automatic "
                             "matching compares its words with the outputs'",
                             source=gold.source, line=gold.line[k])


def _nugget_terms(n_ids: np.ndarray, n_nug_words: np.ndarray, width: int, gold: Nuggets,
                  nug_rows: list[int]) -> np.ndarray:
    """The distinct terms of every nugget, as sorted keys ``nugget * width + term``
    (``n_ids``: the term of each word of the nuggets' vital strings, ``-1`` for a stop
    word); a nugget left without a term is an :class:`~irscale.errors.InputError`."""
    nug_of = np.repeat(np.arange(len(nug_rows)), n_nug_words)
    keep = n_ids >= 0
    nt = np.unique(nug_of[keep] * width + n_ids[keep])
    n_terms = np.bincount(nt // width, minlength=len(nug_rows))
    if (n_terms == 0).any():
        k = nug_rows[int(np.flatnonzero(n_terms == 0)[0])]
        raise InputError(f"nugget {gold.nugget[k]!r}: no word of its vital string is left "
                         "to match (stop words only)", source=gold.source, line=gold.line[k])
    return nt


def _same_topic(out_topic: np.ndarray, term_topic: np.ndarray, n_topics: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """Every (output, nugget term) pair of the same topic (``out_topic``: each output's
    topic, ``term_topic``: each nugget term's), as the output and the term of each pair."""
    by_topic = np.argsort(out_topic, kind="stable")
    per_topic = np.bincount(out_topic, minlength=n_topics)
    topic_start = np.concatenate(([0], np.cumsum(per_topic)))[:-1]
    pick = ranges(topic_start[term_topic], per_topic[term_topic])
    return by_topic[pick], np.repeat(np.arange(len(term_topic)), per_topic[term_topic])


def _first_words(key: np.ndarray, o_keys: np.ndarray, o_word: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """For each (output, term) ``key`` (``output * width + term``): whether the output has
    the term (a key of ``o_keys``, sorted) and the first word with it (``o_word``; the
    largest integer where it has none, which sorts last)."""
    slot = np.minimum(np.searchsorted(o_keys, key), max(len(o_keys) - 1, 0))
    hit = (o_keys[slot] == key) if len(o_keys) else np.zeros(len(key), dtype=bool)
    return hit, np.where(hit, o_word[slot] if len(o_word) else 0, np.iinfo(np.int64).max)


def _need_th_words(out: np.ndarray, nugget: np.ndarray, word: np.ndarray, hit: np.ndarray,
                   need: np.ndarray, n_nug: int
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per (output, nugget) pair of the (output, nugget term) rows (``word``: the first
    word of the output with the term, ``hit``: whether it has one): the pairs' outputs
    and nuggets, the pairs with at least ``need`` of the nugget's terms (``matched``) and,
    for those, the word of their ``need``-th first term (where the nugget is matched)."""
    pair = out * n_nug + nugget
    order = np.lexsort((word, pair))
    pair, word, hit = pair[order], word[order], hit[order]
    starts = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]]) if len(pair) else \
        np.zeros(0, dtype=np.int64)
    p_out, p_nugget = pair[starts] // n_nug, pair[starts] % n_nug
    hits = np.add.reduceat(hit.astype(np.int64), starts) if len(starts) else starts
    matched = np.flatnonzero(hits >= need[p_nugget])
    return p_out, p_nugget, matched, word[starts[matched] + need[p_nugget[matched]] - 1]


def _matches(outputs: Texts, gold: Nuggets, chosen: list[int], nug_rows: list[int],
             m_out: np.ndarray, m_nugget: np.ndarray, offset: np.ndarray) -> Matches:
    """The matches (``m_out``: the output of each, an index into ``chosen``; ``m_nugget``:
    its nugget, into ``nug_rows``; ``offset``: where it is matched), output by output and
    nugget by nugget."""
    order = np.lexsort((m_nugget, m_out))
    m_out, m_nugget, offset = m_out[order], m_nugget[order], offset[order]
    return Matches(topic=tuple(outputs.topic[chosen[o]] for o in m_out.tolist()),
                   run=tuple(outputs.id[chosen[o]] for o in m_out.tolist()),
                   nugget=tuple(gold.nugget[nug_rows[v]] for v in m_nugget.tolist()),
                   offset=tuple(offset.tolist()),
                   line=tuple(outputs.line[chosen[o]] for o in m_out.tolist()),
                   source=f"automatic matches of {outputs.source}")


@POURPRE
def pourpre_matches(nuggets: Any, texts: Any, *, threshold: float = 0.5,
                    stem: bool = False, stopwords: Iterable[str] = ()) -> Matches:
    """The nugget matches of every output text by unigram overlap (module documentation).

    Parameters
    ----------
    nuggets : path, bytes or Nuggets
        ``topic nugget_id weight vital|okay vital_string``: every nugget of a topic with
        outputs needs its vital string.
    texts : path, bytes or Texts
        The outputs ``topic<TAB>run<TAB>text``; outputs of topics without nuggets are left
        to :func:`~irscale.evaluation.nuggets.evaluate_nuggets` (which names them).
    threshold : float
        Least share of a nugget's distinct terms the output must contain, in (0, 1].
    stem, stopwords
        As for ROUGE: Porter stemming, words removed before stemming.

    Returns
    -------
    Matches
        ``topic run nugget_id offset`` rows, output by output (their ``line`` is the line
        of the output text), as :func:`~irscale.io.text.read_matches` returns them.

    Examples
    --------
    >>> nug = b"q1 n1 2 vital born in 1942\\nq1 n2 1 okay Liverpool England\\n"
    >>> m = pourpre_matches(nug, b"q1\\tA\\tHe was born in Liverpool.\\n")
    >>> list(zip(m.nugget, m.offset))  # n1: 2 of 3 terms, by "in" (11); n2: 1 of 2
    [('n1', 11), ('n2', 20)]
    """
    gold = nuggets if isinstance(nuggets, Nuggets) else read_nuggets(nuggets)
    outputs = texts if isinstance(texts, Texts) else read_texts(texts, what="output texts")
    topic_ids = sorted(set(gold.topic))
    topic_pos = {t: k for k, t in enumerate(topic_ids)}
    chosen = [k for k, t in enumerate(outputs.topic) if t in topic_pos]
    wanted = {outputs.topic[k] for k in chosen}
    _check_vital_strings(gold, wanted)
    found = [_words(outputs.text[k]) for k in chosen]
    out_words = [words for words, _ in found]
    nug_rows = [k for k, t in enumerate(gold.topic) if t in wanted]
    nug_words = [_words(gold.vital_string[k] or "")[0] for k in nug_rows]
    n_out_words = np.fromiter(map(len, out_words), dtype=np.int64, count=len(chosen))
    n_nug_words = np.fromiter(map(len, nug_words), dtype=np.int64, count=len(nug_rows))
    ids, vocabulary = word_ids([w for ws in (*out_words, *nug_words) for w in ws],
                               stem=stem, stopwords=stopwords)
    width = max(len(vocabulary), 1)
    split = int(n_out_words.sum())
    # first word of every (output, term)
    word_out = np.repeat(np.arange(len(chosen)), n_out_words)
    kept = np.flatnonzero(ids[:split] >= 0)
    o_keys, first = np.unique(word_out[kept] * width + ids[kept], return_index=True)
    o_word = kept[first]
    nt = _nugget_terms(ids[split:], n_nug_words, width, gold, nug_rows)
    nt_nugget, nt_term = nt // width, nt % width
    n_terms = np.bincount(nt_nugget, minlength=len(nug_rows))
    # a share of the terms, and at least one (a threshold of 1e-300 still needs a word)
    need = np.maximum(np.ceil(np.round(threshold * n_terms, 9)).astype(np.int64), 1)
    # every (output, nugget term) of the same topic
    out_topic = np.array([topic_pos[outputs.topic[k]] for k in chosen], dtype=np.int64)
    nug_topic = np.array([topic_pos[gold.topic[k]] for k in nug_rows], dtype=np.int64)
    out, row = _same_topic(out_topic, nug_topic[nt_nugget], len(topic_ids))
    nugget = nt_nugget[row]
    hit, word = _first_words(out * width + nt_term[row], o_keys, o_word)
    p_out, p_nugget, matched, at = _need_th_words(out, nugget, word, hit, need,
                                                  max(len(nug_rows), 1))
    ends = np.fromiter((e for _, output_ends in found for e in output_ends), dtype=np.int64,
                       count=split)
    return _matches(outputs, gold, chosen, nug_rows, p_out[matched], p_nugget[matched],
                    ends[at])


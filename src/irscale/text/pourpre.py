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
    for k, (t, vs) in enumerate(zip(gold.topic, gold.vital_string, strict=True)):
        if t in wanted and vs is None:
            raise InputError(f"nugget {gold.nugget[k]!r} has no vital string: automatic "
                             "matching compares its words with the outputs'",
                             source=gold.source, line=gold.line[k])
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
    # distinct terms of every nugget
    nug_of = np.repeat(np.arange(len(nug_rows)), n_nug_words)
    n_ids = ids[split:]
    keep = n_ids >= 0
    nt = np.unique(nug_of[keep] * width + n_ids[keep])
    nt_nugget, nt_term = nt // width, nt % width
    n_terms = np.bincount(nt_nugget, minlength=len(nug_rows))
    if (n_terms == 0).any():
        k = nug_rows[int(np.flatnonzero(n_terms == 0)[0])]
        raise InputError(f"nugget {gold.nugget[k]!r}: no word of its vital string is left "
                         "to match (stop words only)", source=gold.source, line=gold.line[k])
    # a share of the terms, and at least one (a threshold of 1e-300 still needs a word)
    need = np.maximum(np.ceil(np.round(threshold * n_terms, 9)).astype(np.int64), 1)
    # every (output, nugget term) of the same topic
    out_topic = np.array([topic_pos[outputs.topic[k]] for k in chosen], dtype=np.int64)
    by_topic = np.argsort(out_topic, kind="stable")
    per_topic = np.bincount(out_topic, minlength=len(topic_ids))
    topic_start = np.concatenate(([0], np.cumsum(per_topic)))[:-1]
    nug_topic = np.array([topic_pos[gold.topic[k]] for k in nug_rows], dtype=np.int64)
    t_of = nug_topic[nt_nugget]
    pick = ranges(topic_start[t_of], per_topic[t_of])
    row = np.repeat(np.arange(len(nt)), per_topic[t_of])
    out = by_topic[pick]
    nugget = nt_nugget[row]
    key = out * width + nt_term[row]
    slot = np.minimum(np.searchsorted(o_keys, key), max(len(o_keys) - 1, 0))
    hit = (o_keys[slot] == key) if len(o_keys) else np.zeros(len(key), dtype=bool)
    word = np.where(hit, o_word[slot] if len(o_word) else 0, np.iinfo(np.int64).max)
    # per (output, nugget): the need-th first occurrence among its terms
    n_nug = max(len(nug_rows), 1)
    pair = out * n_nug + nugget
    order = np.lexsort((word, pair))
    pair, word, hit = pair[order], word[order], hit[order]
    starts = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]]) if len(pair) else \
        np.zeros(0, dtype=np.int64)
    p_out, p_nugget = pair[starts] // n_nug, pair[starts] % n_nug
    hits = np.add.reduceat(hit.astype(np.int64), starts) if len(starts) else starts
    matched = np.flatnonzero(hits >= need[p_nugget])
    at = word[starts[matched] + need[p_nugget[matched]] - 1]
    ends = np.fromiter((e for _, output_ends in found for e in output_ends), dtype=np.int64,
                       count=split)
    order = np.lexsort((p_nugget[matched], p_out[matched]))
    m_out, m_nugget, offset = p_out[matched][order], p_nugget[matched][order], \
        ends[at][order]
    return Matches(topic=tuple(outputs.topic[chosen[o]] for o in m_out.tolist()),
                   run=tuple(outputs.id[chosen[o]] for o in m_out.tolist()),
                   nugget=tuple(gold.nugget[nug_rows[v]] for v in m_nugget.tolist()),
                   offset=tuple(offset.tolist()),
                   line=tuple(outputs.line[chosen[o]] for o in m_out.tolist()),
                   source=f"automatic matches of {outputs.source}")


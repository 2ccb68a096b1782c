"""Nuggets and iUnits: TREC QA nugget F and the one-click S, T and S♯ measures (Sakai 2014,
§3.3 eq. 40–46).

For a topic with gold-standard nuggets V* (weights w(v), vital strings vs(v)) and an output
of length l in which the nuggets V ⊆ V* were found, nugget v ending at character pos(v):

* ``W-Rec(nuggets=all)`` (eq. 40): Σ_V w(v) / Σ_V* w(v). ``nuggets=vital``: V and V*
  restricted to the vital nuggets (TREC QA's official recall with all weights 1).
* ``Prec_allow(allowance=100)`` (eq. 41): 1 − max(0, l − allow) / l, allow = allowance ·
  |V| (every matched nugget, vital or okay, is entitled to ``allowance`` characters).
* ``F_QA(beta=1,allowance=100,nuggets=all)`` (eq. 42): (β² + 1)·P·R / (β²·P + R), P =
  Prec_allow, R = W-Rec (0 when both are 0). TREC QA used β = 5 (2003) and β = 3
  (2004–2005).
* ``S(L=1000)`` (eq. 43–44): Σ_V w(v)·max(0, L − pos(v)) / Σ_V* w(v)·max(0, L − pos*(v)),
  pos*(v) the end of vs(v) in the *pseudo-minimal output* (PMO): every vital string of
  the topic, by decreasing weight, then increasing length (then nugget id), concatenated.
* ``T`` (eq. 45): Σ_V |vs(v)| / l.
* ``Ssharp(L=1000,beta=1)`` (eq. 46; also spelt ``S#``): (1 + β²)·T♭·S♭ / (β²·T♭ + S♭),
  S♭ = min(1, S), T♭ = min(1, T) (0 when both are 0).

Lengths l, offsets pos(v) and |vs(v)| are counts of characters in one unit. With output
texts (``texts=``) irscale counts the non-blank characters (Sakai 2014, §3.3: "in characters,
excluding white spaces"), and vital strings are always counted so; a lengths file
(``lengths=``) gives l as you count it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.scaling import binary_exponent, binary_exponents
from ..errors import DuplicateError, InputError, MeasureError, ParameterError
from ..evaluation import Evaluation
from ..io.text import (
    Lengths,
    Matches,
    Nuggets,
    Texts,
    read_lengths,
    read_matches,
    read_nuggets,
    read_texts,
)
from ..measures.arrays import f_beta
from ..measures.base import CATALOGUE
from ..measures.names import measure_names, parse_name
from .results import text_evaluation

NUGGET_MEASURES = tuple(CATALOGUE["nuggets"])
DEFAULT_MEASURES = NUGGET_MEASURES
#: What ``measures`` may be (the start of the error otherwise).
NUGGETS_EXPECTED = 'measures must be nugget measure names such as "W-Rec" or ["S(L=1000)", "T"]'


def _chars(text: str) -> int:
    """Characters of ``text`` other than blanks."""
    return sum(len(part) for part in text.split())


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0,
                                                              denominator, 1), 0.0)


@dataclass(frozen=True, eq=False)
class _Batch:
    """The outputs (one per evaluated (run, topic)) and their matches, as arrays."""

    out_run: np.ndarray  # run index of every output
    out_topic: np.ndarray  # topic index (into topics) of every output
    out_length: np.ndarray  # l of every output
    m_out: np.ndarray  # output of every match
    m_nugget: np.ndarray  # nugget (row of the nuggets file) of every match
    m_offset: np.ndarray  # pos(v) of every match


def _lookup_outputs(outputs: Lengths | Texts, topic_pos: dict[str, int]
                    ) -> tuple[list[str], dict[tuple[str, str], int], list[tuple[str, ...]],
                               list[int], list[int], list[int]]:
    """Runs (first appearance), output index by (topic, run), per run the topics it has
    outputs for that have no nuggets, and run / topic / length of every evaluated output."""
    if isinstance(outputs, Texts):
        runs_col, lengths = outputs.id, [_chars(t) for t in outputs.text]
    else:
        runs_col, lengths = outputs.run, list(outputs.length)
    runs = list(dict.fromkeys(runs_col))
    run_pos = {r: k for k, r in enumerate(runs)}
    index: dict[tuple[str, str], int] = {}
    unjudged: list[set[str]] = [set() for _ in runs]
    out_run: list[int] = []
    out_topic: list[int] = []
    out_length: list[int] = []
    for t, r, length in zip(outputs.topic, runs_col, lengths, strict=True):
        if t not in topic_pos:
            unjudged[run_pos[r]].add(t)
            continue
        index[t, r] = len(out_run)
        out_run.append(run_pos[r])
        out_topic.append(topic_pos[t])
        out_length.append(length)
    return runs, index, [tuple(sorted(u)) for u in unjudged], out_run, out_topic, out_length


def _batch(nuggets: Nuggets, matches: Sequence[Matches], outputs: Lengths | Texts
           ) -> tuple[list[str], list[str], list[tuple[str, ...]], _Batch]:
    topics = sorted(set(nuggets.topic))
    topic_pos = {t: k for k, t in enumerate(topics)}
    nugget_pos = {(t, n): k for k, (t, n) in enumerate(zip(nuggets.topic, nuggets.nugget,
                                                            strict=True))}
    runs, index, unjudged, out_run, out_topic, out_length = _lookup_outputs(outputs,
                                                                            topic_pos)
    where = "output texts" if isinstance(outputs, Texts) else "output lengths"
    m_out, m_nugget, m_offset = [], [], []
    for m in matches:
        for t, r, n, offset, line in zip(m.topic, m.run, m.nugget, m.offset, m.line,
                                         strict=True):
            text = f"{t} {r} {n} {offset}"
            problem = None
            if t not in topic_pos:
                problem = f"topic {t!r} has no nuggets in {nuggets.source}"
            elif (t, n) not in nugget_pos:
                problem = f"nugget {n!r} is not a nugget of topic {t!r} in {nuggets.source}"
            elif (t, r) not in index:
                problem = (f"run {r!r} has no output for topic {t!r} in the {where} "
                           f"({outputs.source})")
            elif offset > out_length[index[t, r]]:
                problem = (f"offset {offset} lies beyond the output's end (length "
                           f"{out_length[index[t, r]]} in {outputs.source})")
            if problem is not None:
                raise InputError(problem, source=m.source, line=line, text=text)
            o = index[t, r]
            m_out.append(o)
            m_nugget.append(nugget_pos[t, n])
            m_offset.append(offset)
    seen: dict[tuple[str, str, str], tuple[str, int]] = {}
    for m in matches:  # the same nugget matched in two files (or a file given twice)
        for t, r, n, line in zip(m.topic, m.run, m.nugget, m.line, strict=True):
            if (t, r, n) in seen:
                raise DuplicateError(f"nugget {n!r} of topic {t!r} matched twice for run "
                                     f"{r!r} (first in {seen[t, r, n][0]}, line "
                                     f"{seen[t, r, n][1]})", source=m.source, line=line)
            seen[t, r, n] = (m.source, line)
    batch = _Batch(np.array(out_run, dtype=np.int64), np.array(out_topic, dtype=np.int64),
                   np.array(out_length, dtype=np.float64), np.array(m_out, dtype=np.int64),
                   np.array(m_nugget, dtype=np.int64), np.array(m_offset, dtype=np.float64))
    return runs, topics, unjudged, batch


def _pmo_positions(nuggets: Nuggets, topic_code: np.ndarray, weight: np.ndarray,
                   vs_len: np.ndarray) -> np.ndarray:
    """pos*(v) of every nugget: the end of vs(v) in its topic's pseudo-minimal output
    (vital strings by decreasing weight, then increasing length, then nugget id)."""
    ident = np.unique(np.asarray(nuggets.nugget, dtype=object), return_inverse=True)[1]
    order = np.lexsort((ident, vs_len, -weight, topic_code))
    ends = np.cumsum(vs_len[order])
    first = np.r_[True, topic_code[order][1:] != topic_code[order][:-1]] if len(order) \
        else np.zeros(0, dtype=bool)
    start = np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))
    before = np.where(start > 0, ends[np.maximum(start - 1, 0)], 0.0)
    out = np.empty(len(order))
    out[order] = ends - before
    return out


def evaluate_nuggets(nuggets: Any, matches: Any,
                     measures: str | Iterable[str] = DEFAULT_MEASURES, *,
                     lengths: Any = None, texts: Any = None,
                     allow_empty: bool = False) -> Evaluation:
    """Evaluate outputs by their matched nuggets / iUnits (module documentation).

    Parameters
    ----------
    nuggets : path, bytes or Nuggets
        ``topic nugget_id weight vital|okay [vital_string]``
        (:func:`~irscale.io.text.read_nuggets`).
    matches : path, bytes or Matches, or a list of them
        ``topic run nugget_id offset``.
    measures : str or list of str
        ``W-Rec``, ``Prec_allow``, ``F_QA(beta=3)``, ``S(L=1000)``, ``T``, ``Ssharp``.
    lengths : path, bytes or Lengths
        The outputs and their lengths ``topic run length``; or
    texts : path, bytes or Texts
        the outputs themselves ``topic<TAB>run<TAB>text`` (l = non-blank characters).
    allow_empty : bool
        Evaluate a run none of whose outputs is for a topic with nuggets.

    Returns
    -------
    Evaluation
        One value per output of a topic with nuggets; a run's outputs for topics without
        nuggets are named in a warning; an output with no match scores 0.

    Examples
    --------
    >>> nug = b"q1 n1 3 vital born 1942\\nq1 n2 1 okay in Liverpool\\n"
    >>> e = evaluate_nuggets(nug, b"q1 A n1 30\\n", ["W-Rec", "S(L=100)", "T"],
    ...                      lengths=b"q1 A 60\\n")
    >>> e.per_topic().value.round(4).tolist()  # 3/4, 3·70 / (3·92 + 1·81), 8/60
    [0.75, 0.5882, 0.1333]
    """
    names = measure_names(measures, split=False, expected=NUGGETS_EXPECTED)
    requests = [parse_name(name, "nuggets") for name in names]
    if (lengths is None) == (texts is None):
        raise ParameterError("give the outputs' lengths (lengths=, --lengths) or their "
                             "texts (texts=, --texts): exactly one of them")
    gold = nuggets if isinstance(nuggets, Nuggets) else read_nuggets(nuggets)
    sources = matches if isinstance(matches, (list, tuple)) else [matches]
    found = [m if isinstance(m, Matches) else read_matches(m) for m in sources]
    if texts is not None:
        outputs: Lengths | Texts = texts if isinstance(texts, Texts) else \
            read_texts(texts, what="output texts")
    else:
        outputs = lengths if isinstance(lengths, Lengths) else read_lengths(lengths)
    runs, topics, unjudged, b = _batch(gold, found, outputs)
    topic_code = np.searchsorted(np.asarray(topics, dtype=object),
                                 np.asarray(gold.topic, dtype=object)).astype(np.int64)
    # weights divided by a power of 2 per topic, into [0, 1) (irscale.core.scaling):
    # W-Rec and S are ratios of sums of them, which weights near 1e308 would overflow
    weight = np.asarray(gold.weight, dtype=np.float64)
    weight = np.ldexp(weight, -binary_exponents(weight, topic_code, len(topics))[topic_code])
    vital = np.asarray(gold.vital, dtype=bool)
    n_out, n_topics = len(b.out_run), len(topics)
    needs_vs = any(r.family in ("S", "T", "Ssharp") for r in requests)
    vs_len = np.array([-1.0 if s is None else _chars(s) for s in gold.vital_string])
    if needs_vs and (vs_len < 0).any():
        k = int(np.flatnonzero(vs_len < 0)[0])
        raise InputError(f"nugget {gold.nugget[k]!r} has no vital string: S, T and S♯ need "
                         "one for every nugget (W-Rec, Prec_allow and F_QA do not)",
                         source=gold.source, line=gold.line[k])

    def per_output(values: np.ndarray) -> np.ndarray:
        return np.bincount(b.m_out, weights=values, minlength=n_out)

    def recall(which: str) -> np.ndarray:
        counted = vital if which == "vital" else np.ones(len(weight), dtype=bool)
        total = np.bincount(topic_code, weights=np.where(counted, weight, 0.0),
                            minlength=n_topics)
        used = np.unique(b.out_topic)
        empty = used[total[used] <= 0]
        if len(empty):
            raise MeasureError(f"topic {topics[empty[0]]!r} of {gold.source}: its "
                               f"{'vital ' if which == 'vital' else ''}nuggets weigh 0 "
                               "in all: recall is undefined")
        return per_output(np.where(counted[b.m_nugget], weight[b.m_nugget], 0.0)) / \
            total[b.out_topic]

    def prec_allow(allowance: float) -> np.ndarray:
        # an allowance ≥ l allows the whole output: min(allowance, l) keeps the product
        # finite with the same value
        allow = np.minimum(allowance, b.out_length) * np.bincount(b.m_out, minlength=n_out)
        return 1.0 - np.maximum(0.0, b.out_length - allow) / b.out_length

    def s_measure(patience: float) -> np.ndarray:
        # L − pos(v) times 2^−e(L) (exact, as weights are scaled): every term w·(L − pos)
        # is below 1, and sums of them finite however large L is
        unit = math.ldexp(1.0, -binary_exponent(np.array([patience])))

        def gain(offset: np.ndarray) -> np.ndarray:
            return np.maximum(0.0, patience - offset) * unit

        ideal = np.bincount(topic_code, weights=weight * gain(
            _pmo_positions(gold, topic_code, weight, vs_len)), minlength=n_topics)
        used = np.unique(b.out_topic)
        empty = used[ideal[used] <= 0]
        if len(empty):
            raise MeasureError(f"S(L={patience:g}): the pseudo-minimal output of topic "
                               f"{topics[empty[0]]!r} gains nothing before L (its first "
                               "vital string ends at L or later, or its weights are 0)")
        gained = per_output(weight[b.m_nugget] * gain(b.m_offset))
        return gained / ideal[b.out_topic]

    def t_measure() -> np.ndarray:
        return per_output(vs_len[b.m_nugget]) / b.out_length

    values: dict[str, np.ndarray] = {}
    for r in requests:
        if r.label in values:
            continue
        p = r.params
        if r.family == "W-Rec":
            values[r.label] = recall(p["nuggets"])
        elif r.family == "Prec_allow":
            values[r.label] = prec_allow(p["allowance"])
        elif r.family == "F_QA":
            values[r.label] = f_beta(prec_allow(p["allowance"]), recall(p["nuggets"]),
                                     p["beta"])
        elif r.family == "S":
            values[r.label] = s_measure(p["L"])
        elif r.family == "T":
            values[r.label] = t_measure()
        else:
            values[r.label] = f_beta(np.minimum(1.0, t_measure()),
                                     np.minimum(1.0, s_measure(p["L"])), p["beta"])
    return text_evaluation(runs, b.out_run, [topics[t] for t in b.out_topic.tolist()],
                           values, gold_topics=topics, unjudged=unjudged,
                           allow_empty=allow_empty, source=gold.source, gold="nuggets")

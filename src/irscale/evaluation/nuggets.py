"""The runner of nugget and iUnit measures: nuggets + matches + the outputs' lengths or
texts + measure names → an :class:`~irscale.measures.results.Evaluation`. It reads the
inputs (:mod:`irscale.io.text`), pairs every match with its output and its nugget, and
calls the kernels of :mod:`irscale.text.nuggets` (:func:`~irscale.text.nuggets.nugget_values`),
whose module documentation states the measures, their formulas and their source. Declared
as the ``nuggets`` context in :mod:`.contexts.nuggets`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.scaling import binary_exponents
from ..errors import DuplicateError, InputError, MeasureError, ParameterError
from ..io.text import (
    Lengths,
    Matches,
    Nuggets,
    Texts,
    read_lengths,
    read_matches,
    read_nuggets,
)
from ..measures.names import measure_names, parse_name
from ..measures.nuggets import ASSIGNMENT_FAMILIES
from ..measures.results import Evaluation
from ..text.nuggets import (
    DEFAULT_MEASURES,
    NUGGETS_EXPECTED,
    NuggetArrays,
    nonblank_chars,
    nugget_values,
)
from ..text.params import NUGGET_INPUTS
from .outputs import read_text_source, text_evaluation

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..measures.name_hints import MeasureNames


def _lookup_outputs(outputs: Lengths | Texts, topic_pos: dict[str, int]
                    ) -> tuple[list[str], dict[tuple[str, str], int], list[tuple[str, ...]],
                               list[int], list[int], list[int]]:
    """Runs (first appearance), output index by (topic, run), per run the topics it has
    outputs for that have no nuggets, and run / topic / length of every evaluated output."""
    if isinstance(outputs, Texts):
        runs_col, lengths = outputs.id, [nonblank_chars(t) for t in outputs.text]
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


def _pair(nuggets: Nuggets, matches: Sequence[Matches], outputs: Lengths | Texts
          ) -> tuple[list[str], list[str], list[tuple[str, ...]], list[int], NuggetArrays]:
    """Every match paired with its output and its nugget (an :class:`InputError` names a
    match of neither, a :class:`DuplicateError` a nugget matched twice): the runs, the
    topics with nuggets, per run its topics without nuggets, the run of every output and
    the arrays of :mod:`irscale.text.nuggets`."""
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
    topic_code = np.searchsorted(np.asarray(topics, dtype=object),
                                 np.asarray(nuggets.topic, dtype=object)).astype(np.int64)
    # weights divided by a power of 2 per topic, into [0, 1) (irscale.core.scaling):
    # W-Rec and S are ratios of sums of them, which weights near 1e308 would overflow
    weight = np.asarray(nuggets.weight, dtype=np.float64)
    weight = np.ldexp(weight, -binary_exponents(weight, topic_code, len(topics))[topic_code])
    arrays = NuggetArrays(
        topics=topics, source=nuggets.source, topic_code=topic_code, weight=weight,
        vital=np.asarray(nuggets.vital, dtype=bool),
        vs_len=np.array([-1.0 if s is None else nonblank_chars(s)
                         for s in nuggets.vital_string]),
        nugget_rank=np.unique(np.asarray(nuggets.nugget, dtype=object),
                              return_inverse=True)[1],
        out_topic=np.array(out_topic, dtype=np.int64),
        out_length=np.array(out_length, dtype=np.float64),
        m_out=np.array(m_out, dtype=np.int64), m_nugget=np.array(m_nugget, dtype=np.int64),
        m_offset=np.array(m_offset, dtype=np.float64))
    return runs, topics, unjudged, out_run, arrays


@NUGGET_INPUTS
def evaluate_nuggets(nuggets: Any = None, matches: Any = None,
                     measures: MeasureNames = DEFAULT_MEASURES, *,
                     lengths: Any = None, texts: Any = None, assignments: Any = None,
                     allow_empty: bool = False) -> Evaluation:
    """Evaluate outputs by their matched nuggets / iUnits (:mod:`irscale.text.nuggets`).

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
    assignments : path, bytes or list of record dicts, or a list of them
        Instead of nuggets, matches and outputs: nugget assignment records (the TREC RAG
        track's), scored by :func:`~irscale.evaluation.assignments.evaluate_assignments`
        with ``A``, ``V``, ``W``, ``A_strict``, ``V_strict``, ``W_strict`` (default: all
        six); ``lengths`` and ``texts`` do not apply.
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
    if assignments is not None:
        if nuggets is not None or matches is not None:
            raise ParameterError("assignments= holds the judged nuggets of every answer: "
                                 "give no nuggets nor matches")
        from .assignments import score_assignments

        return score_assignments(assignments, ASSIGNMENT_FAMILIES if measures is
                                 DEFAULT_MEASURES else measures, allow_empty=allow_empty)
    if nuggets is None or matches is None:
        raise ParameterError("give the nuggets and the matches, or assignments=")
    names = measure_names(measures, split=False, expected=NUGGETS_EXPECTED)
    requests = [parse_name(name, "nuggets") for name in names]
    wrong = [r.label for r in requests if r.family in ASSIGNMENT_FAMILIES]
    if wrong:
        raise MeasureError(f"{wrong[0]} is a measure of nugget assignment records "
                           "(irscale.text.evaluate_assignments, irscale text nuggets "
                           "--assignments), not of matches")
    if (lengths is None) == (texts is None):
        raise ParameterError("give the outputs' lengths (lengths=, --lengths) or their "
                             "texts (texts=, --texts): exactly one of them")
    gold, found, outputs = _read_inputs(nuggets, matches, lengths, texts)
    runs, topics, unjudged, out_run, arrays = _pair(gold, found, outputs)
    _check_vital_strings(gold, arrays, requests)
    values = nugget_values(arrays, requests)
    return text_evaluation(runs, np.array(out_run, dtype=np.int64),
                           [topics[t] for t in arrays.out_topic.tolist()],
                           values, gold_topics=topics, unjudged=unjudged,
                           allow_empty=allow_empty, source=gold.source, gold="nuggets")


def _read_inputs(nuggets: Any, matches: Any, lengths: Any, texts: Any
                 ) -> tuple[Nuggets, list[Matches], Lengths | Texts]:
    """The nuggets, the matches (one source or a list of them) and the outputs (their
    texts when given, else their lengths), each read unless already read."""
    gold = nuggets if isinstance(nuggets, Nuggets) else read_nuggets(nuggets)
    sources = matches if isinstance(matches, (list, tuple)) else [matches]
    found = [m if isinstance(m, Matches) else read_matches(m) for m in sources]
    if texts is not None:
        return gold, found, read_text_source(texts, "output texts")
    return gold, found, lengths if isinstance(lengths, Lengths) else read_lengths(lengths)


def _check_vital_strings(gold: Nuggets, arrays: NuggetArrays, requests: Sequence[Any]
                         ) -> None:
    """S, T and S♯ measure the distance to each nugget's vital string: refuse the first
    nugget without one (its line named) where one of them is asked for."""
    if any(r.family in ("S", "T", "Ssharp") for r in requests) and (arrays.vs_len < 0).any():
        k = int(np.flatnonzero(arrays.vs_len < 0)[0])
        raise InputError(f"nugget {gold.nugget[k]!r} has no vital string: S, T and S♯ need "
                         "one for every nugget (W-Rec, Prec_allow and F_QA do not)",
                         source=gold.source, line=gold.line[k])

"""Support judgments of cited answers: for every (topic, run), the answer's sentences, the
passages each cites and whether they support it, as ALCE (Gao et al. 2023) and the TREC
2024 RAG track's support evaluation judge them (``docs/text.md``, "Citations").

A file is JSON lines (plain or gzip-compressed UTF-8; ``-`` reads standard input; blank
lines are ignored), one object per answer::

    {"qid": "q1", "run_id": "sysA", "sentences": [
        {"text": "The tower is 330 m tall [1][2].", "support": "supported",
         "citations": [{"docid": "d1", "support": "not_supported", "without": "supported"},
                       {"docid": "d2", "support": "supported"}]},
        {"text": "It opened in 1889.", "citations": []}]}

* the topic: ``qid`` (or ``topic_id``, ``topic``), the run: ``run_id`` (or ``run``), as
  in nugget assignment records (:mod:`irscale.io.assignments`): a record without a run
  belongs to the run its file's name names;
* ``sentences`` (or ``answer``, the TREC RAG track's spelling): a non-empty list of
  objects, each with ``citations``, a list (empty: the sentence cites nothing) of the
  passages it cites, in the answer's order: an object with ``docid`` (or ``id``,
  ``segment_id``) and its labels, or a bare id (a string, or an integer: with a list
  ``references`` in the record, the position of the passage in it, as the RAG track's
  answers cite; without, the id itself);
* the labels: ``support`` of a sentence, whether its citations together support it (the
  entailment of ALCE's citation recall, the attribution of AIS); ``support`` of a
  citation, whether that passage alone supports the sentence (the RAG track's judgment
  of a (sentence, citation) pair; ALCE's precision's first condition); ``without`` of a
  citation, whether the sentence's other citations support it without this one (ALCE's
  precision's second condition). A sentence may instead give its citations' ``support``
  as a list ``citation_support`` as long as ``citations`` (the RAG track's
  ``eval_scores``). Each label is ``supported`` / ``partially_supported`` /
  ``not_supported`` (also ``full_support``, ``partial_support``, ``no_support``, ``FS``,
  ``PS``, ``NS``, in any case, with blanks or ``-`` for ``_``), or a number 1 / 0.5 / 0
  (``true`` / ``false``: 1 / 0, an entailment model's verdict);
* a label a measure does not read may be left out: a sentence without citations is not
  supported (its ``support``, if given, must say so); a sentence with one citation has
  one judgment (its ``support`` or its citation's, or both, equal); of a sentence with two
  citations, the other's ``support`` stands for a citation's ``without`` not given.

Refused, naming the file, the line and its text (:class:`~irscale.errors.InputError`):
a record that breaks these rules, a label of another spelling or value, a passage cited
twice by one sentence (ALCE would count it twice, once as superfluous), an answer with no
sentence (ALCE leaves it out of its mean: leave its record out), a (topic, run) given
twice (in one file or two). In memory, a list of such dicts (``source`` names it; its
lines are the 1-based positions).

>>> c = read_citations(b'{"qid": "q1", "run_id": "A", "sentences": [{"support": "FS", '
...                    b'"citations": ["d1", {"id": "d2", "support": 0.5}]}]}\\n')
>>> c.topic, c.run, c.support.tolist(), c.alone.tolist(), c.without.tolist()
(('q1',), ('A',), [2], [-1, 1], [-1, -1])
>>> c.passage
('d1', 'd2')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

from .assignments import KeyedRecords, KeyedTable, RecordSource, joined_keys, listed, offsets

#: A label's code: 0 not supported, 1 partially supported, 2 supported; -1: not given.
NOT_GIVEN = -1
#: The spellings of each code (compared in lower case, blanks and ``-`` read as ``_``).
SUPPORT_WORDS = {
    "not_supported": 0, "no_support": 0, "not_support": 0, "unsupported": 0, "ns": 0,
    "partially_supported": 1, "partial_support": 1, "partially_support": 1, "ps": 1,
    "supported": 2, "full_support": 2, "fully_supported": 2, "support": 2, "fs": 2,
}
#: The numbers of each code.
SUPPORT_NUMBERS = {0.0: 0, 0.5: 1, 1.0: 2}
#: The spellings of a record's sentences, of a citation's passage id.
SENTENCE_KEYS = ("sentences", "answer")
PASSAGE_KEYS = ("docid", "id", "segment_id")
#: The characters of a record's line kept to quote it in a later error.
TEXT_KEPT = 200


@dataclass(frozen=True, eq=False)
class Citations(KeyedTable):
    """Support judgments in input order: per record (answer) its topic, run, line (and its
    text's start); per sentence (all records' sentences in order) its record and the code
    of ``support`` (its citations together); per citation (all sentences' citations in
    order) its sentence and the codes of ``support`` (``alone``) and ``without``: 0 not
    supported, 1 partially, 2 supported, -1 not given."""

    sentence: np.ndarray
    support: np.ndarray
    citation: np.ndarray
    alone: np.ndarray
    without: np.ndarray
    source: str = "<citations>"
    #: The start of every record's line, for the errors of labels a measure reads.
    text: tuple[str, ...] = ()
    #: The passage id of every citation (as ``citation``): with the record's topic and
    #: run and the sentence's place in its answer, what names a citation's labels
    #: (:mod:`irscale.labels.audit_citations` matches two files' labels by it).
    passage: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Citations({len(self)} answers, {len(self.sentence)} sentences, " \
               f"{len(self.citation)} citations, source={self.source!r})"


def support_code(value: Any) -> int | None:
    """The code of a label (module documentation), None for a value of no spelling."""
    if isinstance(value, bool):
        return 2 if value else 0
    if isinstance(value, (int, float)):
        return SUPPORT_NUMBERS.get(float(value))
    if isinstance(value, str):
        return SUPPORT_WORDS.get(value.strip().lower().replace(" ", "_").replace("-", "_"))
    return None


def _label(holder: Mapping[str, Any], key: str, where: str, fault: Any) -> int:
    """The code of ``holder[key]`` (:data:`NOT_GIVEN` when absent or null)."""
    value = holder.get(key)
    if value is None:
        return NOT_GIVEN
    code = support_code(value)
    if code is None:
        raise fault(f"{where}: {key} {value!r} is not a support label (supported, "
                    "partially_supported, not_supported or 1, 0.5, 0)")
    return code


def _passage(item: Any, references: Any, where: str, fault: Any) -> str:
    """The passage id of a citation: an object's ``docid``, a string, or an integer
    (a position in ``references`` when the record has them)."""
    if isinstance(item, dict):
        key = next((k for k in PASSAGE_KEYS if k in item), None)
        if key is None:
            raise fault(f"{where} has no passage id ({', '.join(PASSAGE_KEYS)})")
        item = item[key]
    if isinstance(item, bool) or not isinstance(item, (str, int)):
        raise fault(f"{where}: a passage id must be a string or an integer")
    if isinstance(item, int) and isinstance(references, list):
        if not 0 <= item < len(references):
            raise fault(f"{where}: position {item} is not in references (0 to "
                        f"{len(references) - 1})")
        item = references[item]
    text = str(item)
    if not text.strip():
        raise fault(f"{where}: the passage id is empty")
    return text


def _sentence(sentence: Any, number: int, references: Any, fault: Any
              ) -> tuple[int, list[int], list[int], list[str]]:
    """(support, alone codes, without codes, passage ids) of one sentence, its rules
    checked."""
    where = f"sentence {number}"
    if not isinstance(sentence, dict):
        raise fault(f"{where} is not an object")
    if "citations" not in sentence:
        raise fault(f"{where} has no 'citations' (an empty list: it cites nothing)")
    cited = sentence["citations"]
    if not isinstance(cited, list):
        raise fault(f"{where}: citations must be a list")
    listed = sentence.get("citation_support")
    if listed is not None and (not isinstance(listed, list) or len(listed) != len(cited)):
        raise fault(f"{where}: citation_support must be a list as long as citations "
                    f"({len(cited)})")
    support = _label(sentence, "support", where, fault)
    alone: list[int] = []
    without: list[int] = []
    seen: dict[str, None] = {}  # (in the answer's order)
    for k, item in enumerate(cited, start=1):
        at = f"{where}, citation {k}"
        passage = _passage(item, references, at, fault)
        if passage in seen:
            raise fault(f"{at}: passage {passage!r} is cited twice by the sentence")
        seen[passage] = None
        labels = item if isinstance(item, dict) else {}
        code = _label(labels, "support", at, fault)
        if listed is not None:
            if code != NOT_GIVEN:
                raise fault(f"{at}: support given twice (citation_support and the "
                            "citation's own)")
            code = _label({"support": listed[k - 1]}, "support", at, fault)
        alone.append(code)
        without.append(_label(labels, "without", at, fault))
    if not cited and support > 0:
        raise fault(f"{where} cites nothing, yet its support is not not_supported")
    if len(cited) == 1 and NOT_GIVEN not in (support, alone[0]) and support != alone[0]:
        raise fault(f"{where} has one citation, whose support differs from the sentence's")
    return support, alone, without, list(seen)


def read_citations(source: RecordSource) -> Citations:
    """Read support judgments of cited answers (module documentation) of a
    :data:`~irscale.io.assignments.RecordSource`."""
    records = KeyedRecords(source, "citations")
    texts: list[str] = []
    sentence_record: list[int] = []
    support: list[int] = []
    citation_sentence: list[int] = []
    alone: list[int] = []
    without: list[int] = []
    passages: list[str] = []
    for record, text, fault in records:
        _, sentences = listed(record, SENTENCE_KEYS, fault, "the answer has no sentence to "
                              "score (ALCE leaves it out of its mean: leave the record out)")
        references = record.get("references")
        for k, sentence in enumerate(sentences, start=1):
            code, codes, left, cited = _sentence(sentence, k, references, fault)
            citation_sentence.extend([len(support)] * len(codes))
            sentence_record.append(len(records.topic))
            support.append(code)
            alone.extend(codes)
            without.extend(left)
            passages.extend(cited)
        texts.append(text[:TEXT_KEPT])
    topics, runs, lines = records.keys("support judgments")
    return Citations(topics, runs, lines, np.array(sentence_record, dtype=np.int64),
                     np.array(support, dtype=np.int8),
                     np.array(citation_sentence, dtype=np.int64),
                     np.array(alone, dtype=np.int8), np.array(without, dtype=np.int8),
                     records.source, tuple(texts), tuple(passages))


def combine_citations(parts: Iterable[Citations]) -> Citations:
    """The judgments of several inputs as one (a (topic, run) in two of them is a
    :class:`~irscale.errors.DuplicateError` naming both)."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    records = offsets(map(len, parts))
    sentences = offsets(len(p.sentence) for p in parts)

    def joined(name: str) -> tuple[Any, ...]:
        return tuple(chain.from_iterable(getattr(p, name) for p in parts))

    def stacked(name: str) -> np.ndarray:
        return np.concatenate([getattr(p, name) for p in parts])

    return Citations(
        *joined_keys(parts),
        np.concatenate([p.sentence + o for p, o in zip(parts, records, strict=True)]),
        stacked("support"),
        np.concatenate([p.citation + o for p, o in zip(parts, sentences, strict=True)]),
        stacked("alone"), stacked("without"), ", ".join(p.source for p in parts),
        joined("text"), joined("passage"))

__all__ = ["NOT_GIVEN", "SUPPORT_WORDS", "Citations", "combine_citations", "read_citations",
           "support_code"]

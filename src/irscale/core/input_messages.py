"""What the readers of TREC files say of their input: the texts of errors and warnings that
the Python readers and the native engine's readers share (one wording, whoever reads).

Imports nothing but the standard library, so that the command line's evaluation of TREC
files by the engine words its messages without loading numpy.
"""

from __future__ import annotations


def duplicate_reason(topic: str, docno: str, why: str = "") -> str:
    """What a :class:`~irscale.errors.DuplicateError` says of a pair listed twice
    (``why``: what the reader adds about the pair's lines)."""
    return (f"duplicate document {docno!r} for topic {topic!r} (in Python, "
            f"duplicates='first', 'last' or 'max' keeps one of them){why}")


def c_float_warning(where: str, count: int, text: str) -> str:
    """:func:`irscale.core.inputs.warn_single_precision`'s text: ``count`` scores beyond a
    C float, the first on the line ``text`` (``where``: the file and line)."""
    return (f"{where}: score outside the range of a C float ({count} such score(s), e.g. "
            f"{text!r}): trec_eval 9.0.8, whose tie order irscale reproduces, stores scores as "
            "C floats, so these scores tie and are ordered by docno; rescale the scores (or use "
            "--ties file-order, or --compat 10: 10.0 keeps doubles) if that is not meant")


def c_float_level_warning(where: str, count: int, text: str) -> str:
    """The warning for ``count`` preference levels that a C float cannot hold (beyond its
    range: ±infinity; below its smallest: 0), the first on the line ``text`` (``where``:
    the file and line)."""
    return (f"{where}: level outside the range of a C float ({count} such level(s), e.g. "
            f"{text!r}): trec_eval 9.0.8 reads preference levels as C floats, so these are "
            "±infinity (or 0) and tie with every level that becomes the same; rescale the "
            "levels if that is not meant")


def diversity_hint(first: str, second: str) -> str:
    """What the qrels readers add to a duplicate's error for a pair whose lines hold
    ``first`` and ``second`` in their second field (nothing when they are equal): the two
    formats whose second field names something (trec_eval's judgment groups, the intents
    of diversity qrels) and how to read each; their lines look alike, so both are named."""
    if first == second:
        return ""
    return (f"; its lines differ in the second field ({first!r}, {second!r}), as in "
            "trec_eval's judgment-group qrels 'topic group docno rel' (read them with "
            "-R qrels_jg, relevance_format='qrels_jg' in Python) and in diversity qrels "
            "'topic subtopic docno judgment' (read them with --qrels-format diversity or "
            "a diversity measure: -m ndeval, alpha-nDCG@20; read_diversity_qrels in Python)")


def several_runids(source: str, count: int, last: str) -> str:
    """The warning for a run file holding ``count`` different run ids."""
    return (f"{source}: {count} different run ids; its run id is the last one "
            f"({last!r}), as trec_eval 9.0.8 takes it")


__all__ = ["c_float_level_warning", "c_float_warning", "diversity_hint", "duplicate_reason",
           "several_runids"]

"""pytrec_eval-style dicts judged by the native engine: qrels ``{topic: {docno: degree}}``
and runs ``{topic: {docno: score}}`` (one run, or a mapping ``{name: run}`` of them), read
by the engine (``irscale._engine.read_dicts``, ``rust/src/bind/dicts.rs``) into the
columns its TREC readers give, then judged as TREC files are
(:mod:`irscale.io.native_trec`).

The engine takes the dicts that :mod:`irscale.io.memory` reads without an error or a
warning and without converting a key: ``dict``\\ s (or ``defaultdict``\\ s) whose keys
are ``str`` (text with a UTF-8 form) and whose values are ``int``, ``bool`` or ``float``
(degrees integral within ±2⁶³ once converted to a double as NumPy converts them, scores
finite and within a C float's range), and at least one entry in each dict. Any other dict is read by
:mod:`irscale.io.memory`, whose messages say what is wrong (:func:`engine_dicts` answers
``"dicts"``). Keys of one dict are then distinct as text: no duplicate can occur; the
rows are in the dicts' order (the ``file-order`` tie policy keeps it for ties).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from .. import _engine
from ..core.options import RankingOptions

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover - numpy's, loaded when dicts are judged
    from typing import Any

    from ..core.judged import JudgedRankings

#: The dicts the engine reads (``defaultdict`` iterates as ``dict`` does; an
#: ``OrderedDict`` keeps its own order, other mappings their own ways: the Python reader
#: reads them).
MAPPINGS = (dict, defaultdict)

#: The qrels' name in messages, as :func:`irscale.io.memory.qrels_from_dict` names them.
QRELS_NAME = "<qrels dict>"


def engine_dicts(qrels: Any, runs: Any, ties: str
                 ) -> tuple[_engine.Dicts, tuple[str, ...]] | str | None:
    """The dicts ``qrels`` and ``runs`` read by the engine, and the runs' names as
    :func:`irscale.io.sources.as_runs` names them (one run: ``"run"``; a mapping
    ``{name: run}``: its keys); ``"dicts"`` when they are dicts that the Python reader
    reads (module documentation; the ``rank-column`` tie policy too: dicts have no rank
    column); ``None`` when they are not both dicts."""
    if type(qrels) not in MAPPINGS or type(runs) not in MAPPINGS:
        return None
    if ties == "rank-column":
        return "dicts"
    found = _engine.read_dicts(qrels, runs)
    return "dicts" if found is None else (found[0], tuple(found[1]))


def judge_dicts(held: _engine.Dicts, names: Sequence[str], options: RankingOptions, *,
                placeholders: bool = False) -> tuple[JudgedRankings, Callable[[int], int]]:
    """The judged rankings of dicts read by :func:`engine_dicts` (runs named ``names``) and
    the number of the qrels' judgments with a degree at least ``level`` (a function of
    ``level``), as :func:`irscale.io.native_trec.judge_counted` gives those of files."""
    from .native_trec import engine_judgment

    judged = _engine.judge_dicts(held, options.ties, options.compat, options.max_docs,
                                 options.judged_only, placeholders)
    return engine_judgment(judged, names, options, placeholders=placeholders)


__all__ = ["MAPPINGS", "QRELS_NAME", "engine_dicts", "judge_dicts"]

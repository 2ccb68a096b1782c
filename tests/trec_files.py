"""Qrels and runs given as nested dicts (pytrec_eval's form: ``{topic: {docno: value}}``),
written as TREC files for the tests that read them from files."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def write_qrels(path: Path, qrels: Mapping[str, Mapping[str, int]]) -> Path:
    """``topic 0 docno grade`` lines of ``qrels`` into ``path``."""
    path.write_text("".join(f"{t} 0 {d} {r}\n" for t, docs in qrels.items()
                            for d, r in docs.items()))
    return path


def write_run(path: Path, run: Mapping[str, Mapping[str, float]], tag: str = "r") -> Path:
    """``topic Q0 docno 0 score tag`` lines of ``run`` into ``path`` (the rank column 0:
    the documents are ranked by score)."""
    path.write_text("".join(f"{t} Q0 {d} 0 {s} {tag}\n" for t, docs in run.items()
                            for d, s in docs.items()))
    return path

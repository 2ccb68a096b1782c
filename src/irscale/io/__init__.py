"""Readers and writers: TREC qrels and runs (plain or gzip), in-memory inputs, output formats."""

from .trec import read_qrels, read_run, read_runs

__all__ = ["read_qrels", "read_run", "read_runs"]

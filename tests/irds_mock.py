"""Local ir_datasets datasets for the tests: registered through ir_datasets' own API
(``ir_datasets.registry.register`` with a ``Dataset`` of ``TrecQrels`` /
``TrecScoredDocs`` read through ``LocalDownload``), so that nothing is downloaded."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest


class Documentation:
    """A dataset's documentation, as ir_datasets' ``YamlDocumentationProvider`` gives it:
    ``documentation()`` a dict, ``official_measures`` among its keys where given."""

    def __init__(self, official_measures: list[str] | None) -> None:
        self._found = {} if official_measures is None else {
            "official_measures": list(official_measures)}

    def documentation(self) -> dict:
        return dict(self._found)


def register(qrels: Path | None = None, scoreddocs: Path | None = None, *,
             official_measures: list[str] | None = None, dataset_id: str | None = None
             ) -> str:
    """Register a dataset of these local files under a fresh id (``irscale-test/<hex>``,
    or ``dataset_id``); the id. A path that does not exist stands for files ir_datasets
    cannot find. ``official_measures``: what its documentation names (none: no
    documentation)."""
    ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels, TrecScoredDocs
    from ir_datasets.util import LocalDownload

    parts = []
    if qrels is not None:
        parts.append(TrecQrels(LocalDownload(qrels, mkdir=False), {}))
    if scoreddocs is not None:
        parts.append(TrecScoredDocs(LocalDownload(scoreddocs, mkdir=False)))
    if official_measures is not None:
        parts.append(Documentation(official_measures))
    dataset_id = dataset_id or f"irscale-test/{uuid.uuid4().hex[:12]}"
    ir_datasets.registry.register(dataset_id, Dataset(*parts))
    return dataset_id

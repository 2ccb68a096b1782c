"""Local ir_datasets datasets for the tests: registered through ir_datasets' own API
(``ir_datasets.registry.register`` with a ``Dataset`` of ``TrecQrels`` /
``TrecScoredDocs`` read through ``LocalDownload``), so that nothing is downloaded."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest


def register(qrels: Path | None = None, scoreddocs: Path | None = None) -> str:
    """Register a dataset of these local files under a fresh id (``irscale-test/<hex>``);
    the id. A path that does not exist stands for files ir_datasets cannot find."""
    ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels, TrecScoredDocs
    from ir_datasets.util import LocalDownload

    parts = []
    if qrels is not None:
        parts.append(TrecQrels(LocalDownload(qrels, mkdir=False), {}))
    if scoreddocs is not None:
        parts.append(TrecScoredDocs(LocalDownload(scoreddocs, mkdir=False)))
    dataset_id = f"irscale-test/{uuid.uuid4().hex[:12]}"
    ir_datasets.registry.register(dataset_id, Dataset(*parts))
    return dataset_id

"""Well-known TREC collections and their evaluation conventions, declared once.

Each row is a collection's name (``--dataset NAME``, ``dataset="NAME"``), the relevance
level at which its binary measures count a grade as relevant (``None``: the collection
defines none, and trec_eval's default 1 holds), its official measures (ir_measures' syntax,
which irscale parses) and where these values come from. The ir_datasets ids of the
collection (``irds_ids``) make the row the conventions of those datasets where
ir_datasets' own documentation gives no official measures.

Only values that the cited source states are here: the TREC Deep Learning rows take the
official measures from ir_datasets' documentation (``official_measures`` of its
``msmarco-passage.yaml`` and ``msmarco-document.yaml``, citing the overview papers) and the
relevance levels from NIST's notes on the judgments; the Robust 2004 row from the
overview's abstract, which names MAP and its geometric-mean variant (GMAP) and no
relevance level; the ANTIQUE row its level from the collection's paper (grades 1–4, 3
and 4 relevant), no official measures (ir_datasets' documentation of ANTIQUE names none).
docs/evaluation.md renders this table (checked by tests/test_dataset_conventions.py).
"""

from __future__ import annotations

from typing import NamedTuple


class Collection(NamedTuple):
    """A collection's conventions and their source."""

    name: str
    relevance_level: int | None
    measures: tuple[str, ...]
    source: str
    irds_ids: tuple[str, ...] = ()


_DL_PASSAGE = ("nDCG@10", "RR(rel=2)", "AP(rel=2)")
_DL_DOCUMENT = ("nDCG@10", "RR", "MAP")
_DL_2019_JUDGMENTS = ("NIST, TREC 2019 Deep Learning judgments "
                      "(https://trec.nist.gov/data/deep2019.html): ")

#: The collections, in the order docs/evaluation.md lists them.
COLLECTIONS: tuple[Collection, ...] = (
    Collection(
        "trec-dl-2019-passage", 2, _DL_PASSAGE,
        "Craswell et al., Overview of the TREC 2019 Deep Learning Track (2020); measures: "
        "ir_datasets' documentation of msmarco-passage/trec-dl-2019; level: "
        + _DL_2019_JUDGMENTS + "grade 1 (related) is not relevant, use trec_eval -l 2",
        ("msmarco-passage/trec-dl-2019", "msmarco-passage/trec-dl-2019/judged")),
    Collection(
        "trec-dl-2020-passage", 2, _DL_PASSAGE,
        "Craswell et al., Overview of the TREC 2020 Deep Learning Track (2021); measures "
        "and level (their rel=2): ir_datasets' documentation of msmarco-passage/trec-dl-2020",
        ("msmarco-passage/trec-dl-2020", "msmarco-passage/trec-dl-2020/judged")),
    Collection(
        "trec-dl-2019-document", 1, _DL_DOCUMENT,
        "Craswell et al., Overview of the TREC 2019 Deep Learning Track (2020); measures: "
        "ir_datasets' documentation of msmarco-document/trec-dl-2019; level: "
        + _DL_2019_JUDGMENTS + "grades 1-3 are relevant for binary measures",
        ("msmarco-document/trec-dl-2019", "msmarco-document/trec-dl-2019/judged")),
    Collection(
        "trec-dl-2020-document", None, _DL_DOCUMENT,
        "Craswell et al., Overview of the TREC 2020 Deep Learning Track (2021); measures: "
        "ir_datasets' documentation of msmarco-document/trec-dl-2020 (no level given)",
        ("msmarco-document/trec-dl-2020", "msmarco-document/trec-dl-2020/judged")),
    Collection(
        "trec-robust-2004", None, ("MAP", "gm_map"),
        "Voorhees, Overview of the TREC 2004 Robust Retrieval Track (NIST SP 500-261, "
        "2005): MAP and its geometric-mean variant GMAP (no level given)",
        ("disks45/nocr/trec-robust-2004", "trec-robust04")),
    Collection(
        "antique", 3, (),
        "Hashemi et al., ANTIQUE: A Non-Factoid Question Answering Benchmark (ECIR 2020, "
        "arXiv:1905.08957): answers graded 1-4 (the grades of ir_datasets' antique module, "
        "taken from the paper), 3 and 4 relevant for binary measures, as ir_datasets issue "
        "#254 (https://github.com/allenai/ir_datasets/issues/254, 2024) restates: relevance "
        "level 3; no official measures given",
        ("antique/train", "antique/test", "antique/test/non-offensive",
         "antique/train/split200-train", "antique/train/split200-valid")),
)


def find_collection(name: str) -> Collection | None:
    """The row named ``name``, or whose ``irds_ids`` hold it; ``None`` if none does."""
    return next((row for row in COLLECTIONS if name == row.name or name in row.irds_ids),
                None)


__all__ = ["COLLECTIONS", "Collection", "find_collection"]

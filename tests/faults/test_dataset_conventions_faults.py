"""The dataset conventions of ``irscale eval``, ``compare`` and ``report``
(``--dataset``, ``--no-dataset-defaults``, qrels ``irds:ID``): unknown names,
contradicting options, datasets without official measures, with official measures of
different relevance levels or that irscale does not know, the overrides, and what
``compare`` and ``report`` cannot evaluate at a dataset's level (refused). Table-driven,
as ``docs/errors.md`` says (``conftest.py``).

The ir_datasets datasets are local, registered once per process (the fixture below): the
workspace's qrels, documented with the official measures each id names."""

from __future__ import annotations

import pytest

from .conftest import (
    all_checks,
    err,
    ok,
    output_contains,
    qrels_lines,
    run_case,
    same_output_as,
    text,
)
from .test_compare_collections_faults import FILES, X, Y

IRDS = "irds:irscale-conventions/"
#: The datasets: id → the official measures their documentation names (None: no
#: documentation).
DOCUMENTED = {
    "dl": ["nDCG@10", "RR(rel=2)", "AP(rel=2)"],
    "undocumented": None,
    "no-measures": [],
    "two-levels": ["P(rel=2)@5", "AP(rel=3)"],
    "unknown-measure": ["nDCG@10", "NoSuchMeasure@10"],
}
DL = ["-m", "nDCG@10", "-m", "RR(rel=2)", "-m", "AP(rel=2)"]
#: ``irscale compare``'s pairwise t tests and ``irscale report``'s tables, fast.
T = ["compare", "--test", "t"]
REPORT = ["report", "--no-robustness", "--format", "markdown"]


def notes(*needles: str):
    """A check: the one ``irscale: note:`` line names every needle."""

    def check(result, ws, run) -> None:
        lines = [line for line in result.err.splitlines() if line.startswith("irscale: note: ")]
        assert len(lines) == 1, result.describe()
        missing = [n for n in needles if n not in lines[0]]
        assert not missing, f"the note does not name {missing}" + result.describe()

    return check


def no_note(result, ws, run) -> None:
    assert "irscale: note:" not in result.err, result.describe()


def no_conventions_line(result, ws, run) -> None:
    assert "dataset conventions" not in result.out, result.describe()


CASES = [
    # applied: the measures and the level, from ir_datasets' documentation or the table
    ok("irds-official", ["eval", f"{IRDS}dl", "a.run"], all_checks(
        same_output_as("eval", "-l", "2", *DL, "qrels.txt", "a.run"),
        notes(f"{IRDS}dl", "the dataset's official nDCG@10, RR(rel=2), AP(rel=2)",
              "relevance level: 2, the dataset's"))),
    ok("table-on-a-file", ["eval", "--dataset", "trec-dl-2019-passage", "qrels.txt", "a.run"],
       all_checks(same_output_as("eval", "-l", "2", *DL, "qrels.txt", "a.run"),
                  notes("trec-dl-2019-passage", "relevance level: 2, the dataset's"))),
    ok("irds-id-as-dataset", ["eval", "--dataset", "irscale-conventions/dl", "qrels.txt",
                              "a.run"],
       same_output_as("eval", "-l", "2", *DL, "qrels.txt", "a.run")),
    ok("in-batches", ["eval", "--dataset", "trec-dl-2019-passage", "qrels.txt", "a.run",
                      "b.run", "--batch-size", "1"],
       same_output_as("eval", "-l", "2", *DL, "qrels.txt", "a.run", "b.run", "--batch-size",
                      "1")),
    # overrides
    ok("m-and-l-override", ["eval", "--dataset", "trec-dl-2019-passage", "-m", "P@5", "-l",
                            "1", "qrels.txt", "a.run"],
       all_checks(same_output_as("eval", "-m", "P@5", "-l", "1", "qrels.txt", "a.run"),
                  notes("measures: given (-m)", "relevance level: 1, given (-l); the "
                        "dataset has 2"))),
    ok("m-overrides-level-stays", ["eval", f"{IRDS}dl", "a.run", "-m", "P@5"],
       same_output_as("eval", "-m", "P@5", "-l", "2", "qrels.txt", "a.run")),
    ok("turned-off", ["eval", "--no-dataset-defaults", f"{IRDS}dl", "a.run"],
       all_checks(same_output_as("eval", "qrels.txt", "a.run"), no_note)),
    ok("plain-file-unchanged", ["eval", "qrels.txt", "a.run"], no_note),
    # datasets without official measures: said so, trec_eval's defaults
    ok("irds-undocumented", ["eval", f"{IRDS}undocumented", "a.run"],
       all_checks(same_output_as("eval", "qrels.txt", "a.run"),
                  notes("names no official measures", "trec_eval's defaults"))),
    ok("irds-no-measures", ["eval", f"{IRDS}no-measures", "a.run"],
       all_checks(same_output_as("eval", "qrels.txt", "a.run"),
                  notes("names no official measures"))),
    # official measures naming different levels: no -l, each keeps its own rel=
    ok("two-levels", ["eval", f"{IRDS}two-levels", "a.run"],
       all_checks(same_output_as("eval", "-m", "P(rel=2)@5", "-m", "AP(rel=3)", "qrels.txt",
                                 "a.run"),
                  notes("different levels (2, 3)", "each keeping its own rel="))),
    # refusals
    err("unknown-name", ["eval", "--dataset", "trec-dl-2019-pasage", "qrels.txt", "a.run"],
        "unknown dataset 'trec-dl-2019-pasage'", "did you mean trec-dl-2019-passage"),
    err("unknown-irds-id", ["eval", f"{IRDS}nosuch", "a.run"],
        "unknown ir_datasets dataset 'irscale-conventions/nosuch'"),
    err("dataset-and-off", ["eval", "--dataset", "trec-dl-2019-passage",
                            "--no-dataset-defaults", "qrels.txt", "a.run"],
        "--dataset", "--no-dataset-defaults"),
    err("unknown-official-measure", ["eval", f"{IRDS}unknown-measure", "a.run"],
        f"{IRDS}unknown-measure", "NoSuchMeasure@10", "--no-dataset-defaults"),
    err("dataset-with-prefs", ["eval", "--dataset", "trec-dl-2019-passage", "-R", "prefs",
                               "qrels.txt", "a.run"],
        "--dataset applies to judgments, not to --relevance-format prefs"),
    err("missing-qrels-file", ["eval", "--dataset", "trec-dl-2019-passage", "missing.qrels",
                               "a.run"], "missing.qrels"),
    # irscale compare: every pair's test on the dataset's measures at its level
    ok("compare-irds-official", [*T, f"{IRDS}dl", "a.run", "b.run"], all_checks(
        same_output_as(*T, "-l", "2", *DL, "qrels.txt", "a.run", "b.run"),
        notes(f"{IRDS}dl", "the dataset's official nDCG@10, RR(rel=2), AP(rel=2)",
              "relevance level: 2, the dataset's"))),
    ok("compare-table-on-a-file", [*T, "--dataset", "trec-dl-2019-passage", "-m", "AP",
                                   "qrels.txt", "a.run", "b.run", "c.run"],
       all_checks(same_output_as(*T, "-l", "2", "-m", "AP", "qrels.txt", "a.run", "b.run",
                                 "c.run"),
                  notes("measures: given (-m)", "relevance level: 2, the dataset's"))),
    ok("compare-tukey-one-measure", ["compare", "-m", "AP", f"{IRDS}dl", "a.run", "b.run",
                                     "c.run"],
       same_output_as("compare", "-m", "AP", "-l", "2", "qrels.txt", "a.run", "b.run",
                      "c.run")),
    ok("compare-risk", ["compare", "--baseline", "a.run", "--risk-alpha", "1", f"{IRDS}dl",
                        "a.run", "b.run"],
       same_output_as("compare", "--baseline", "a.run", "--risk-alpha", "1", "-l", "2", *DL,
                      "qrels.txt", "a.run", "b.run")),
    ok("compare-l-overrides", [*T, "-l", "3", f"{IRDS}dl", "a.run", "b.run"], all_checks(
        same_output_as(*T, "-l", "3", *DL, "qrels.txt", "a.run", "b.run"),
        notes("relevance level: 3, given (-l); the dataset has 2"))),
    ok("compare-turned-off", [*T, "--no-dataset-defaults", "-m", "AP", f"{IRDS}dl", "a.run",
                              "b.run"],
       all_checks(same_output_as(*T, "-m", "AP", "qrels.txt", "a.run", "b.run"), no_note)),
    ok("compare-plain-file-unchanged", [*T, "-m", "AP", "qrels.txt", "a.run", "b.run"],
       no_note),
    err("compare-several-official-one-measure", ["compare", f"{IRDS}dl", "a.run", "b.run"],
        "--test tukey-hsd compares one measure", "nDCG@10, RR(rel=2), AP(rel=2)",
        "choose one with -m"),
    err("compare-mixed-several-official", ["compare", "--test", "mixed", "--dataset",
                                           "trec-dl-2019-passage", "qrels.txt", "a.run",
                                           "b.run"], "--test mixed compares one measure"),
    err("compare-document-sampling-level", ["compare", "--test", "document-sampling", "-m",
                                            "AP", f"{IRDS}dl", "a.run", "b.run"],
        "--test document-sampling", "relevance level 2", f"conventions of {IRDS}dl",
        "give -l 1"),
    err("compare-document-sampling-l", ["compare", "--test", "document-sampling", "-m", "AP",
                                        "-l", "2", "qrels.txt", "a.run", "b.run"],
        "--test document-sampling", "relevance level 2 (-l)"),
    err("compare-dataset-with-scores", ["compare", "--dataset", "trec-dl-2019-passage",
                                        "--scores", "ap.csv"],
        "--dataset applies to the judgments of QRELS RUN", "--scores"),
    err("compare-l-with-scores", ["compare", "-l", "2", "--scores", "ap.csv"],
        "-l applies to QRELS RUN", "--scores"),
    err("compare-bad-level", [*T, "-l", "0", "-m", "AP", "qrels.txt", "a.run", "b.run"],
        "-l"),
    err("compare-unknown-name", [*T, "--dataset", "trec-dl-2019-pasage", "-m", "AP",
                                 "qrels.txt", "a.run", "b.run"],
        "unknown dataset 'trec-dl-2019-pasage'"),
    err("compare-dataset-and-off", [*T, "--dataset", "trec-dl-2019-passage",
                                    "--no-dataset-defaults", "qrels.txt", "a.run", "b.run"],
        "--dataset", "--no-dataset-defaults"),
    err("compare-unknown-official-measure", [*T, f"{IRDS}unknown-measure", "a.run", "b.run"],
        "NoSuchMeasure@10", "--no-dataset-defaults"),
    # irscale report: every table at the level, the conventions first and on stderr
    ok("report-irds-official", [*REPORT, f"{IRDS}dl", "a.run", "b.run"], all_checks(
        output_contains(f"dataset conventions: {IRDS}dl: measures: the dataset's official "
                        "nDCG@10, RR(rel=2), AP(rel=2); relevance level: 2, the dataset's "
                        "(from ir_datasets' documentation of irscale-conventions/dl",
                        "| nDCG@10 | RR(rel=2) | AP(rel=2) |"),
        notes(f"{IRDS}dl", "relevance level: 2, the dataset's"))),
    ok("report-overrides", [*REPORT, "--dataset", "trec-dl-2019-passage", "-m", "P@5", "-l",
                            "1", "qrels.txt", "a.run", "b.run"],
       all_checks(output_contains("measures: given (-m)", "relevance level: 1, given (-l); "
                                  "the dataset has 2"),
                  notes("measures: given (-m)", "relevance level: 1, given (-l)"))),
    ok("report-turned-off", [*REPORT, "--no-dataset-defaults", f"{IRDS}dl", "a.run", "b.run"],
       all_checks(same_output_as(*REPORT, "qrels.txt", "a.run", "b.run"), no_note)),
    ok("report-plain-file-unchanged", [*REPORT, "qrels.txt", "a.run", "b.run"],
       all_checks(no_note, no_conventions_line)),
    ok("report-collection-level-1", [*REPORT, "--dataset", "trec-dl-2019-passage", "-l", "1",
                                     "-m", "map", "--collection", X, "--collection", Y, "-B",
                                     "50", "qrels.txt", "a.run", "b.run", "c.run"],
       output_contains("relevance level: 1, given (-l)"), files=FILES),
    err("report-collection-at-the-level", [*REPORT, "--dataset", "trec-dl-2019-passage",
                                           "-m", "map", "--collection", X, "--collection", Y,
                                           "qrels.txt", "a.run", "b.run", "c.run"],
        "--collection evaluates its collections at relevance level 1", "relevance level 2",
        "trec-dl-2019-passage", files=FILES),
    err("report-bad-level", [*REPORT, "-l", "1.5", "qrels.txt", "a.run", "b.run"], "-l"),
    err("report-dataset-and-off", [*REPORT, "--dataset", "trec-dl-2019-passage",
                                   "--no-dataset-defaults", "qrels.txt", "a.run", "b.run"],
        "--dataset", "--no-dataset-defaults"),
    err("report-unknown-irds-id", [*REPORT, f"{IRDS}nosuch", "a.run", "b.run"],
        "unknown ir_datasets dataset 'irscale-conventions/nosuch'"),
]


@pytest.fixture(scope="module")
def conventions_datasets(tmp_path_factory):
    ir_datasets = pytest.importorskip("ir_datasets")
    from ..irds_mock import register

    folder = tmp_path_factory.mktemp("irds-conventions")
    qrels = folder / "qrels"
    qrels.write_bytes(text(qrels_lines()))
    for name, official in DOCUMENTED.items():
        if f"irscale-conventions/{name}" not in ir_datasets.registry:  # the process's
            register(qrels=qrels, official_measures=official,
                     dataset_id=f"irscale-conventions/{name}")


@pytest.mark.parametrize("case", CASES)
def test_dataset_conventions(case, ws, run_cli, conventions_datasets, tmp_path, monkeypatch):
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "ir_datasets_home"))
    run_case(case, ws, run_cli)

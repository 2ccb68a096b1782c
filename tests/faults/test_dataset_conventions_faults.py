"""``irscale eval``'s dataset conventions (``--dataset``, ``--no-dataset-defaults``, qrels
``irds:ID``): unknown names, contradicting options, datasets without official measures,
with official measures of different relevance levels or that irscale does not know, and
the overrides. Table-driven, as ``docs/errors.md`` says (``conftest.py``).

The ir_datasets datasets are local, registered once per process (the fixture below): the
workspace's qrels, documented with the official measures each id names."""

from __future__ import annotations

import pytest

from .conftest import all_checks, err, ok, qrels_lines, run_case, same_output_as, text

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
                               "qrels.txt", "a.run"], "--dataset", "-R prefs"),
    err("missing-qrels-file", ["eval", "--dataset", "trec-dl-2019-passage", "missing.qrels",
                               "a.run"], "missing.qrels"),
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

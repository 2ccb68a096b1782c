"""Dataset conventions (``dataset=``, ``--dataset``, ``irds:`` qrels): the official measures
and the relevance level applied by default, the overrides, the provenance lines, and the
table of collections.

The datasets are local (tests/irds_mock.py: registered through ir_datasets' own API, their
documentation naming the official measures), so nothing is downloaded. The oracle is
ir_measures (``calc_aggregate``, pytrec_eval underneath) with the same measures on the same
qrels and run, the relevance level written into each binary measure as ``rel=``.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import irscale
from irscale.errors import ParameterError
from irscale.evaluation.conventions import measure_levels
from irscale.io.collections_table import COLLECTIONS

from .irds_mock import register
from .oracle_imports import lazy_importorskip
from .test_cli_eval import cli
from .trec_files import write_qrels, write_run

ir_measures = lazy_importorskip("ir_measures")
lazy_importorskip("ir_datasets")

DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(autouse=True)
def _ir_datasets_home(tmp_path, monkeypatch):
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "ir_datasets_home"))


@pytest.fixture
def collection(tmp_path):
    """Graded qrels (0-3) and one run without ties, as files and as dicts."""
    rng = np.random.default_rng(7)
    qrels = {f"q{t}": {f"d{d}": int(rng.integers(0, 4)) for d in range(25)}
             for t in range(6)}
    run = {t: {f"d{d}": float(s) for d, s in enumerate(rng.permutation(40) / 40)}
           for t in qrels}
    return (qrels, run, write_qrels(tmp_path / "qrels.txt", qrels),
            write_run(tmp_path / "sys.run", run, "sys"))


def oracle(qrels: dict, run: dict, measures: list[str], level: int) -> dict[str, float]:
    """ir_measures' means of ``measures``, each measure that takes ``rel=`` and names none
    given ``rel=level`` (what trec_eval's -l means for it; nDCG takes none: its gains are
    the grades); keyed by the names as given."""
    out = {}
    for name in measures:
        measure = ir_measures.parse_measure(name)
        if "rel" in measure.SUPPORTED_PARAMS and "rel" not in measure.params:
            measure = measure(rel=level)
        out[name] = ir_measures.calc_aggregate([measure], qrels, run)[measure]
    return out


def means(evaluation) -> dict[str, float]:
    return evaluation.mean().iloc[0].to_dict()


DL_MEASURES = ["nDCG@10", "RR(rel=2)", "AP(rel=2)"]


def test_irds_official_measures_and_level_applied(collection):
    qrels, run, qrels_path, _ = collection
    dataset_id = register(qrels=qrels_path, official_measures=DL_MEASURES)
    evaluation = irscale.evaluate(f"irds:{dataset_id}", run)
    assert list(evaluation.measures) == DL_MEASURES
    assert means(evaluation) == pytest.approx(oracle(qrels, run, DL_MEASURES, 2), abs=1e-12)
    # the level (2, from the measures' rel=2) applies to the measures given without rel=
    given = ["P@10", "AP", "R@20", "nDCG@10"]
    evaluation = irscale.evaluate(f"irds:{dataset_id}", run, given)
    assert means(evaluation) == pytest.approx(oracle(qrels, run, given, 2), abs=1e-12)
    assert evaluation.conventions[1:] == (
        f"measures: given (measures=), over the dataset's official {', '.join(DL_MEASURES)}",
        "relevance level: 2, the dataset's")
    assert evaluation.conventions[0].startswith(f"dataset conventions: irds:{dataset_id}, "
                                                "from ir_datasets' documentation")


def test_overrides_and_turning_off(collection):
    qrels, run, qrels_path, _ = collection
    dataset_id = register(qrels=qrels_path, official_measures=DL_MEASURES)
    given = ["P@10", "AP"]
    evaluation = irscale.evaluate(f"irds:{dataset_id}", run, given, relevance_level=3)
    assert means(evaluation) == pytest.approx(oracle(qrels, run, given, 3), abs=1e-12)
    assert evaluation.conventions[2] == ("relevance level: 3, given (relevance_level=); the "
                                         "dataset has 2")
    off = irscale.evaluate(f"irds:{dataset_id}", run, given, dataset_defaults=False)
    assert means(off) == pytest.approx(oracle(qrels, run, given, 1), abs=1e-12)
    assert off.conventions == ()
    with pytest.raises(ParameterError, match="dataset= applies to judgments, not to "
                       "relevance_format 'prefs'"):
        irscale.evaluate(qrels, run, dataset="trec-dl-2019-passage", relevance_format="prefs")
    with pytest.raises(ParameterError, match="defaults are turned off"):
        irscale.evaluate(qrels, run, dataset="trec-dl-2019-passage", dataset_defaults=False)


def test_table_dataset_on_plain_qrels(collection):
    qrels, run, qrels_path, run_path = collection
    row = next(r for r in COLLECTIONS if r.name == "trec-dl-2019-document")
    evaluation = irscale.evaluate(qrels_path, run_path, dataset=row.name)
    assert list(evaluation.measures) == list(row.measures)
    assert means(evaluation) == pytest.approx(
        oracle(qrels, run, list(row.measures), row.relevance_level), abs=1e-12)
    assert evaluation.conventions[2] == f"relevance level: {row.relevance_level}, the dataset's"
    # without a dataset, a qrels file is evaluated as trec_eval evaluates it
    assert irscale.evaluate(qrels_path, run_path).conventions == ()


def test_conflicting_levels_keep_their_own(collection):
    qrels, run, qrels_path, _ = collection
    official = ["P(rel=2)@10", "AP(rel=3)", "R@20"]
    dataset_id = register(qrels=qrels_path, official_measures=official)
    evaluation = irscale.evaluate(f"irds:{dataset_id}", run)
    assert means(evaluation) == pytest.approx(oracle(qrels, run, official, 1), abs=1e-12)
    assert "different levels (2, 3)" in evaluation.conventions[2]


def test_cli_note_and_values(collection):
    qrels, run, qrels_path, run_path = collection
    dataset_id = register(qrels=qrels_path, official_measures=DL_MEASURES)
    status, out, err = cli(["eval", f"irds:{dataset_id}", str(run_path)])
    assert status == 0, err
    got = {m.strip(): float(v) for m, _, v in (line.split("\t") for line in out.splitlines())}
    assert got == pytest.approx(oracle(qrels, run, DL_MEASURES, 2), abs=5e-5)
    notes = [line for line in err.splitlines() if line.startswith("irscale: note: ")]
    assert notes == [f"irscale: note: dataset conventions: irds:{dataset_id}: measures: the "
                     f"dataset's official {', '.join(DL_MEASURES)}; relevance level: 2, the "
                     "dataset's (--no-dataset-defaults: none)"]
    # a qrels file and trec_eval's default output: nothing changes, no note
    status, out, err = cli(["eval", str(qrels_path), str(run_path)])
    assert status == 0 and "note" not in err
    status, off, err = cli(["eval", "--no-dataset-defaults", f"irds:{dataset_id}",
                            str(run_path)])
    assert status == 0 and off == out and "note" not in err


# ----------------------------------------------------------------------------- the table
def test_table_entries_parse_and_agree():
    """Every row's measures are irscale's; a level the measures' rel= name is the row's."""
    assert len({row.name for row in COLLECTIONS}) == len(COLLECTIONS)
    for row in COLLECTIONS:
        levels = measure_levels(row.measures)
        assert len(levels) <= 1, row.name
        if levels:
            assert row.relevance_level == levels[0], row.name
        assert row.source and re.search(r"\b(19|20)\d\d\b", row.source), row.name


def test_table_rows_agree_with_ir_datasets_documentation():
    """The measures the rows take from ir_datasets' documentation are those it names."""
    ir_datasets = pytest.importorskip("ir_datasets")
    for row in COLLECTIONS:
        for dataset_id in row.irds_ids:
            if dataset_id not in ir_datasets.registry:
                continue
            official = ir_datasets.load(dataset_id).documentation().get("official_measures")
            if official:
                assert tuple(official) == row.measures, dataset_id


def test_docs_render_the_table():
    """docs/evaluation.md shows every row of the one declaration as it stands."""
    text = (DOCS / "evaluation.md").read_text()
    header = ("| name | relevant | official measures | source | ir_datasets ids |\n"
              "|---|---|---|---|---|\n")
    shown = text.split(header)[1].split("\n\n")[0].splitlines()
    assert len(shown) == len(COLLECTIONS), "the table shows rows the declaration lacks"
    for row in COLLECTIONS:
        level = "—" if row.relevance_level is None else f"≥ {row.relevance_level}"
        line = (f"| `{row.name}` | {level} | {', '.join(f'`{m}`' for m in row.measures)} | "
                f"{row.source} | {', '.join(f'`{i}`' for i in row.irds_ids)} |")
        assert f"\n{line}\n" in text, line


def test_cache_hit_carries_the_calls_provenance(collection, tmp_path):
    qrels, run, qrels_path, run_path = collection
    first = irscale.evaluate(qrels_path, run_path, dataset="trec-dl-2019-passage",
                             cache=tmp_path / "cache")
    hit = irscale.evaluate(qrels_path, run_path, dataset="trec-dl-2019-passage",
                           cache=tmp_path / "cache")
    assert hit.conventions == first.conventions and hit.conventions
    assert means(hit) == means(first)
    # the level the dataset sets is in the key: AP stored at -l 1 is not served at -l 2
    plain = irscale.evaluate(qrels_path, run_path, ["AP"], cache=tmp_path / "cache")
    assert means(plain) == pytest.approx(oracle(qrels, run, ["AP"], 1), abs=1e-12)
    other = irscale.evaluate(qrels_path, run_path, ["AP"], dataset="trec-dl-2019-passage",
                             cache=tmp_path / "cache")
    assert means(other) == pytest.approx(oracle(qrels, run, ["AP"], 2), abs=1e-12)


def test_table_without_ir_datasets(collection, monkeypatch):
    """The table needs no ir_datasets; an unknown name then says how to get its ids."""
    import sys

    qrels, run, qrels_path, _ = collection
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # import raises ImportError
    evaluation = irscale.evaluate(qrels_path, run, dataset="trec-dl-2019-passage")
    assert means(evaluation) == pytest.approx(oracle(qrels, run, DL_MEASURES, 2), abs=1e-12)
    with pytest.raises(ParameterError, match=r"unknown dataset 'msmarco-passage/dev'.*"
                       r"pip install 'irscale\[irds\]'"):
        irscale.evaluate(qrels_path, run, dataset="msmarco-passage/dev")


# ------------------------------------------------------------------ compare and report
@pytest.fixture
def two_runs(collection, tmp_path):
    """The collection's run (``sys``) and a second one (``alt``), as dicts and files."""
    qrels, run, qrels_path, run_path = collection
    rng = np.random.default_rng(11)
    alt = {t: {f"d{d}": float(s) for d, s in enumerate(rng.permutation(40) / 40)}
           for t in qrels}
    alt_path = tmp_path / "alt.run"
    alt_path.write_text("".join(f"{t} Q0 {d} 1 {s} alt\n" for t, docs in alt.items()
                                for d, s in docs.items()))
    return qrels, {"sys": run, "alt": alt}, qrels_path, [run_path, alt_path]


def per_topic(qrels: dict, run: dict, name: str, level: int) -> dict[str, float]:
    """ir_measures' value of ``name`` on every topic, at ``level`` as :func:`oracle`."""
    measure = ir_measures.parse_measure(name)
    if "rel" in measure.SUPPORTED_PARAMS and "rel" not in measure.params:
        measure = measure(rel=level)
    return {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}


def compared(out: str) -> dict[str, dict[str, str]]:
    """``irscale compare --format csv``'s rows, by measure (one pair of runs)."""
    import csv
    import io

    return {row["measure"]: row for row in csv.DictReader(io.StringIO(out))}


def test_compare_applies_conventions(two_runs):
    """compare of irds: qrels: the dataset's measures at its level, each pair's paired t
    test as scipy computes it on ir_measures' per-topic values; -m/-l override, and
    --no-dataset-defaults turns them off."""
    from scipy import stats

    qrels, runs, qrels_path, run_paths = two_runs
    dataset_id = register(qrels=qrels_path, official_measures=DL_MEASURES)
    paths = [str(p) for p in run_paths]
    cases = [([], DL_MEASURES, 2), (["-m", "P@10", "-l", "3"], ["P@10"], 3),
             (["-m", "AP", "--no-dataset-defaults"], ["AP"], 1)]
    for options, names, level in cases:
        status, out, err = cli(["compare", "--test", "t", "--format", "csv", *options,
                                f"irds:{dataset_id}", *paths])
        assert status == 0, err
        rows = compared(out)
        assert list(rows) == names
        for name in names:
            sys_, alt = (per_topic(qrels, runs[r], name, level) for r in ("sys", "alt"))
            topics = sorted(sys_)
            a, b = ([v[t] for t in topics] for v in (sys_, alt))
            assert float(rows[name]["mean_a"]) == pytest.approx(np.mean(a), abs=1e-12)
            assert float(rows[name]["mean_b"]) == pytest.approx(np.mean(b), abs=1e-12)
            assert float(rows[name]["p"]) == pytest.approx(stats.ttest_rel(a, b).pvalue,
                                                           rel=1e-9)
        notes = [line for line in err.splitlines() if line.startswith("irscale: note: ")]
        assert len(notes) == (0 if "--no-dataset-defaults" in options else 1)


def test_compare_note_and_one_measure(two_runs):
    _qrels, _runs, qrels_path, run_paths = two_runs
    paths = [str(p) for p in run_paths]
    status, _out, err = cli(["compare", "--test", "t", "--dataset", "trec-dl-2019-passage",
                            "-l", "3", "-m", "AP", str(qrels_path), *paths])
    assert status == 0, err
    assert [line for line in err.splitlines() if line.startswith("irscale: note: ")] == [
        "irscale: note: dataset conventions: trec-dl-2019-passage: measures: given (-m), "
        "over the dataset's official nDCG@10, RR(rel=2), AP(rel=2); relevance level: 3, "
        "given (-l); the dataset has 2 (--no-dataset-defaults: none)"]
    # Tukey's HSD compares one measure: the official ones are listed, none chosen
    status, _out, err = cli(["compare", "--dataset", "trec-dl-2019-passage",
                            str(qrels_path), *paths])
    assert status == 2 and "nDCG@10, RR(rel=2), AP(rel=2)): choose one with -m" in err


def test_evaluate_matrix_applies_conventions(two_runs):
    qrels, runs, qrels_path, _run_paths = two_runs
    dataset_id = register(qrels=qrels_path, official_measures=DL_MEASURES)
    from irscale.evaluation import evaluate_matrix

    for matrix, names, level in (
            (evaluate_matrix(f"irds:{dataset_id}", runs), DL_MEASURES, 2),
            (evaluate_matrix(qrels_path, runs, ["AP", "P@5"], dataset="trec-dl-2019-passage",
                             relevance_level=3), ["AP", "P@5"], 3),
            (evaluate_matrix(f"irds:{dataset_id}", runs, ["AP"], dataset_defaults=False),
             ["AP"], 1)):
        assert list(matrix.measures) == names
        for name in names:
            for s, system in enumerate(matrix.systems):
                expected = per_topic(qrels, runs[system], name, level)
                got = matrix.array(name)[:, s]
                assert got == pytest.approx([expected[t] for t in matrix.topics], abs=1e-12)
    with pytest.raises(ParameterError, match="name the measures"):
        evaluate_matrix(qrels_path, runs)


def test_report_applies_conventions_to_every_panel(two_runs):
    """build_report of irds: qrels: the means, the robustness panel's values at N and the
    bounds under unjudged documents all at the dataset's level 2 (ir_measures: the low
    bound of P@10 its value, the high one its value with the unjudged retrieved documents
    graded 3, the highest grade); the provenance names the conventions."""
    from irscale.report import build_report

    qrels, runs, qrels_path, run_paths = two_runs
    dataset_id = register(qrels=qrels_path, official_measures=DL_MEASURES)
    names = ["P@10", "AP"]
    report = build_report(f"irds:{dataset_id}", run_paths, names, bounds=True)
    for name in names:
        for run in ("sys", "alt"):
            expected = np.mean(list(per_topic(qrels, runs[run], name, 2).values()))
            assert report.means.loc[run, name] == pytest.approx(expected, abs=1e-12)
    scaled = report.scaled.set_index(["run", "measure"])
    completed = {t: {**{d: 3 for d in runs["sys"][t]}, **docs} for t, docs in qrels.items()}
    bounds = report.bounds.means.set_index(["run", "measure"])
    for run in ("sys", "alt"):
        at_2 = np.mean(list(per_topic(qrels, runs[run], "P@10", 2).values()))
        assert scaled.loc[(run, "P@10"), "value"] == pytest.approx(at_2, abs=1e-12)
        assert bounds.loc[(run, "P@10"), "low"] == pytest.approx(at_2, abs=1e-12)
        high = np.mean(list(per_topic(completed, runs[run], "P@10", 2).values()))
        assert bounds.loc[(run, "P@10"), "high"] == pytest.approx(high, abs=1e-12)
    line = report.provenance.conventions
    assert line.startswith(f"dataset conventions: irds:{dataset_id}: measures: given "
                           "(measures=), over the dataset's official nDCG@10, RR(rel=2), "
                           "AP(rel=2); relevance level: 2, the dataset's (from ir_datasets' "
                           f"documentation of {dataset_id}")
    assert report.format("markdown").splitlines()[0] == line
    import html

    assert f"<p>{html.escape(line)}</p>" in report.format("html")
    # turned off: trec_eval's level 1, no provenance line
    off = build_report(f"irds:{dataset_id}", run_paths, ["P@10"], dataset_defaults=False,
                       robustness=False)
    expected = np.mean(list(per_topic(qrels, runs["sys"], "P@10", 1).values()))
    assert off.means.loc["sys", "P@10"] == pytest.approx(expected, abs=1e-12)
    assert off.provenance.conventions is None
    assert not off.format("markdown").startswith("dataset conventions")


def test_report_overrides_and_cli(two_runs):
    from irscale.report import build_report

    qrels, runs, qrels_path, run_paths = two_runs
    report = build_report(qrels_path, run_paths, dataset="trec-dl-2019-passage",
                          relevance_level=3, robustness=False)
    assert list(report.measures) == DL_MEASURES
    for name in DL_MEASURES:
        expected = np.mean(list(per_topic(qrels, runs["alt"], name, 3).values()))
        assert report.means.loc["alt", name] == pytest.approx(expected, abs=1e-12)
    assert "relevance level: 3, given (relevance_level=); the dataset has 2" in \
        report.provenance.conventions
    with pytest.raises(ParameterError, match="relevance level 1, not at the report's 2"):
        build_report(qrels_path, run_paths, dataset="trec-dl-2019-passage",
                     collections={"x": report.evaluation, "y": report.evaluation})
    status, out, err = cli(["report", "--no-robustness", "--format", "markdown", "-m", "AP",
                            "--dataset", "trec-dl-2019-passage", str(qrels_path),
                            *map(str, run_paths)])
    assert status == 0, err
    line = ("dataset conventions: trec-dl-2019-passage: measures: given (-m), over the "
            "dataset's official nDCG@10, RR(rel=2), AP(rel=2); relevance level: 2, the "
            "dataset's")
    assert out.startswith(f"{line} (from irscale's table")
    assert f"irscale: note: {line} (--no-dataset-defaults: none)" in err.splitlines()
    table = next(row for row in out.splitlines() if row.startswith("| alt |"))
    expected = np.mean(list(per_topic(qrels, runs["alt"], "AP", 2).values()))
    assert f"{expected:.4f}" in table

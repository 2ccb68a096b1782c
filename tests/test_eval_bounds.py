"""``irscale eval --bounds``: every topic's and every mean's lowest and highest value under
the unjudged retrieved documents, in every output format, equal to the extremes of every
completion enumerated with pytrec_eval (the oracle of tests/test_collections_bounds.py),
and the pairs of runs whose mean intervals overlap flagged."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from irscale.cli.main import main

from .test_collections_bounds import _brute, _case, _files


def _setup(tmp_path, seed: int = 5):
    qrels, run = _case(seed)
    q, r = _files(tmp_path, qrels, run)
    other = tmp_path / "other"  # the same documents in reverse order: a second run
    other.write_text("".join(f"{t} Q0 {d} 0 {-s} s\n" for t, docs in run.items()
                             for d, s in docs.items()))
    grades = [v for docs in qrels.values() for v in docs.values()]
    expected = {}
    # runs are named by their file's stem: "run" (the file run) and "other"
    for name, ranking in (("run", run), ("other", {t: {d: -s for d, s in docs.items()}
                                             for t, docs in run.items()})):
        expected[name] = _brute(qrels, ranking, "P.5", "P_5", min(grades), max(grades))
    return q, [r, str(other)], expected


def _print(capsys, argv) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("seed", [1, 5, 8])
def test_per_topic_and_mean_bounds_in_every_format(tmp_path, capsys, seed):
    q, runs, expected = _setup(tmp_path, seed)
    base = ["eval", q, *runs, "-m", "P.5", "--bounds"]
    table = pd.read_csv(io.StringIO(_print(capsys, [*base, "-q", "--format", "csv"])),
                        dtype={"topic": str})
    for run, topics in expected.items():
        for topic, (low, high) in topics.items():
            row = table[(table.run == run) & (table.topic == topic)].iloc[0]
            assert (row.low, row.high) == pytest.approx((low, high), abs=1e-12)
    means = {run: (np.mean([b[0] for b in topics.values()]),
                   np.mean([b[1] for b in topics.values()]))
             for run, topics in expected.items()}
    found = json.loads(_print(capsys, [*base, "--format", "json"]))
    for row in found["means"]:
        assert (row["low"], row["high"]) == pytest.approx(means[row["run"]], abs=1e-12)
    (a_low, a_high), (b_low, b_high) = means["run"], means["other"]
    overlap = a_low <= b_high and b_low <= a_high
    assert len(found["undecided"]) == int(overlap)
    trec = _print(capsys, base).splitlines()
    for run, (low, high) in means.items():
        assert f"P_5_low               \tall\t{low:.4f}\t{run}" in trec
        assert f"P_5_high              \tall\t{high:.4f}\t{run}" in trec
    assert ("undecided             \tP_5\trun,other" in trec) == overlap
    markdown = _print(capsys, [*base, "--format", "markdown"])
    latex = _print(capsys, [*base, "--format", "latex"])
    for run, (low, high) in means.items():
        assert f"| {run} | P_5 |" in markdown and f"{high:.4f}" in markdown
        assert f"{low:.4f}" in latex and f"{high:.4f}" in latex


def test_the_report_shows_the_bounds(tmp_path):
    """``irscale report --bounds``: the page's bounds table holds every run's mean bounds
    (the enumeration's), the undecided pairs beside it."""
    import re

    q, runs, expected = _setup(tmp_path, 5)
    page = tmp_path / "r.html"
    assert main(["report", q, *runs, "-m", "P.5", "--no-robustness", "--bounds",
                 "-o", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    table = re.search(r'<table id="bounds".*?</table>', text, re.S).group(0)
    rows = re.findall(r"<tr><td>(\w+)</td><td>P_5</td>(.*?)</tr>", table)
    assert sorted(run for run, _ in rows) == ["other", "run"]
    for run, cells in rows:
        _, low, high = (float(v) for v in re.findall(r'data-value="([^"]+)"', cells))
        topics = expected[run]
        assert low == pytest.approx(np.mean([b[0] for b in topics.values()]), abs=1e-12)
        assert high == pytest.approx(np.mean([b[1] for b in topics.values()]), abs=1e-12)
    assert 'id="bounds-undecided"' in text

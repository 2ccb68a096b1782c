"""ndeval's measures on the real TREC Web diversity qrels (2013: topics 201-250; 2014:
251-300), with synthetic runs (no real runs are stored): irscale against pyndeval, both
ndeval orders, and ``irscale eval -m ndeval --format ndeval`` printing ndeval's CSV.
Skipped when ../shared is absent."""

from __future__ import annotations

import random
import warnings

import pytest

from irscale.cli.main import main
from irscale.evaluation.diversity import evaluate_diversity
from irscale.measures.diversity import NDEVAL_COLUMNS
from irscale.measures.diversity.risk import c_format

from .conftest import SHARED_DATA, require

pyndeval = pytest.importorskip("pyndeval")

YEARS = ("201-250", "251-300")


def qrels_path(years: str):
    return require(SHARED_DATA / "trec-web-diversity" / f"qrels.web.{years}.ndeval.txt")


def synthetic_run(path, seed: int, tied: bool):
    """A run over every qrels topic but a few, mixing judged and unjudged documents, with
    tied scores when ``tied``; ranks distinct per topic."""
    rng = random.Random(seed)
    docs: dict[str, set[str]] = {}
    for line in open(path):
        t, _, d, _ = line.split()
        docs.setdefault(t, set()).add(d)
    rows = []
    for t in sorted(docs, key=int):
        if int(t) % 9 == seed % 9:
            continue
        pool = sorted(docs[t]) + [f"fake-{t}-{i}" for i in range(200)]
        rng.shuffle(pool)
        for i, d in enumerate(pool[:300]):
            score = round(rng.random() * 4, 1) if tied else 1000.0 - i
            rows.append((t, d, i + 1, score))
    return rows


def write_run(tmp_path, rows, runid):
    path = tmp_path / f"{runid}.run"
    path.write_text("".join(f"{t} Q0 {d} {r} {s} {runid}\n" for t, d, r, s in rows))
    return path


@pytest.mark.parametrize("years", YEARS)
@pytest.mark.parametrize("traditional", [False, True])
def test_real_qrels_match_pyndeval(tmp_path, years, traditional):
    qrels = qrels_path(years)
    rows = synthetic_run(qrels, seed=len(years) + traditional, tied=True)
    run = write_run(tmp_path, rows, "synth")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate_diversity(qrels, run, "ndeval", traditional=traditional)
    judgments = [(t, s, d, int(j)) for t, s, d, j in (line.split() for line in open(qrels))]
    judgments.sort(key=lambda q: int(q[1]))
    evaluator = pyndeval.RelevanceEvaluator(judgments, list(NDEVAL_COLUMNS))
    for topic in sorted({r[0] for r in rows}, key=int):
        mine = [r for r in rows if r[0] == topic]
        if traditional:
            mine = sorted(sorted(mine, key=lambda x: x[1].encode(), reverse=True),
                          key=lambda x: -x[3])
        else:
            mine = sorted(mine, key=lambda x: x[2])
        scored = [(topic, d, float(len(mine) - i)) for i, (_, d, _, _) in enumerate(mine)]
        expected = evaluator.evaluate(scored)[topic]
        row = list(ev.rows.topic_labels).index(topic)
        for label in NDEVAL_COLUMNS:
            assert c_format(ev.values[label][row]) == c_format(expected[label]), (topic, label)


def test_cli_prints_ndeval_csv(tmp_path, capsys):
    qrels = qrels_path(YEARS[0])
    run = write_run(tmp_path, synthetic_run(qrels, seed=3, tied=False), "synthA")
    assert main(["eval", "-m", "ndeval", "--format", "ndeval", str(qrels), str(run)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "runid,topic," + ",".join(NDEVAL_COLUMNS)
    assert out[-1].startswith("synthA,amean,")
    assert all(len(line.split(",")) == 23 for line in out)
    topics = [line.split(",")[1] for line in out[1:-1]]
    assert topics == sorted(topics, key=int)

"""Diversity measures downstream: the Evaluation of diversity measures → ScoreMatrix, and
``irscale compare`` / ``irscale meta`` on diversity qrels and runs.

Oracles: the per-topic table of :func:`evaluate_diversity` (itself checked against pyndeval
in test_diversity_ndeval.py / test_diversity_real.py), scipy on the matrix, and a
leave-one-out recomputed here from filtered qrels text.
"""

from __future__ import annotations

import json
import random
import warnings

import numpy as np
import pytest

import irscale
from irscale.cli.main import main
from irscale.errors import InputError, MeasureError, ParameterError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import read_diversity_qrels

from .conftest import SHARED_DATA, require
from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")

# topic 1: 2 intents; topic 2: 3 intents; topic 3: judged, nothing relevant (nNRBP 0/0)
QRELS = b"""1 1 d1 1
1 2 d2 1
1 2 d3 1
2 1 d1 1
2 2 d4 1
2 3 d5 2
3 1 d1 0
"""
RUNS = {
    "a": "1 Q0 d2 1 3 a\n1 Q0 d1 2 2 a\n2 Q0 d5 1 3 a\n2 Q0 d9 2 2 a\n3 Q0 d1 1 1 a\n",
    "b": "1 Q0 d3 1 3 b\n1 Q0 d2 2 2 b\n2 Q0 d4 1 3 b\n2 Q0 d1 2 2 b\n3 Q0 d2 1 1 b\n"
         "9 Q0 d1 1 1 b\n",  # topic 9: not in the qrels
    "c": "1 Q0 d1 1 3 c\n2 Q0 d1 1 3 c\n2 Q0 d5 2 2 c\n",  # lacks topic 3
}
MEASURES = ["alpha-nDCG@2", "ERR-IA@2", "strec@2", "MAP-IA", "nNRBP"]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "q.txt").write_bytes(QRELS)
    paths = []
    for name, text in RUNS.items():
        path = tmp_path / f"{name}.run"
        path.write_text(text)
        paths.append(str(path))
    return str(tmp_path / "q.txt"), paths


def evaluation(files, measures):
    qrels, paths = files
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate_diversity(qrels, paths, measures)


def test_matrix_holds_the_per_topic_values(files):
    ev = evaluation(files, MEASURES[:4])
    m = ev.to_matrix(allow_missing=True)
    assert m.topics == ("1", "2", "3") and m.systems == ("a", "b", "c")
    assert m.measures == tuple(MEASURES[:4])
    table = ev.per_topic()
    for row in table.itertuples():
        if row.topic == "9":
            continue
        cell = m.values[m.topics.index(row.topic), m.systems.index(row.run),
                        m.measures.index(row.measure)]
        assert cell == row.value, row
    # topic 9 (not judged: ndeval prints 0) is no row; c lacks topic 3: missing
    assert "9" not in m.topics
    assert np.isnan(m.values[2, 2]).all() and np.isfinite(m.values[:2]).all()


def test_missing_topic_refused_unless_allowed(files):
    ev = evaluation(files, ["strec@2"])
    with pytest.raises(InputError, match="topic '3', system 'c'"):
        ev.to_matrix()
    assert ev.to_matrix(measures=["strec@2"], allow_missing=True).n_systems == 3


def test_undefined_values_are_named(files):
    ev = evaluation(files, MEASURES)
    with pytest.raises(MeasureError, match=r"nNRBP is undefined .* topic\(s\) without "
                       r"relevant documents: 3"):
        ev.to_matrix(allow_missing=True)
    m = ev.to_matrix(allow_missing=True, measures=["MAP-IA"])  # leave nNRBP out
    assert m.measures == ("MAP-IA",)
    with pytest.raises(MeasureError, match="not evaluated"):
        ev.to_matrix(measures=["alpha-nDCG@20"])


def test_evaluate_refuses_options_ndeval_does_not_read(files):
    qrels, paths = files
    for option in ({"relevance_level": 2}, {"judged_only": True}, {"ties": "file-order"},
                   {"compat": 10}, {"num_docs_in_coll": 5}):
        with pytest.raises(ParameterError, match="does not apply to diversity"):
            irscale.evaluate(qrels, paths, ["alpha-nDCG@2"], **option)


# ----------------------------------------------------------------- real qrels, CLI
def web_qrels():
    return require(SHARED_DATA / "trec-web-diversity" / "qrels.web.201-250.ndeval.txt")


def write_runs(tmp_path, qrels_path, n_runs=4):
    """Runs over every qrels topic: judged documents shuffled with unjudged ones, each run
    with a different share of the judged ones (so that the systems differ)."""
    docs: dict[str, list[str]] = {}
    for line in open(qrels_path):
        t, _, d, _ = line.split()
        docs.setdefault(t, [])
        if d not in docs[t]:
            docs[t].append(d)
    paths = []
    for k in range(n_runs):
        rng = random.Random(k)
        lines = []
        for t in sorted(docs, key=int):
            pool = rng.sample(docs[t], min(len(docs[t]), 10 + 10 * k))
            pool += [f"x{t}-{i}" for i in range(30)]
            rng.shuffle(pool)
            lines += [f"{t} Q0 {d} {i} {100 - i} team{k}_r" for i, d in
                      enumerate(pool[:40], start=1)]
        path = tmp_path / f"r{k}.run"
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    return paths


def run_cli(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def test_real_compare_equals_scipy_on_the_matrix(tmp_path, capsys):
    qrels = str(web_qrels())
    paths = write_runs(tmp_path, qrels)
    labels = ["alpha-nDCG@20", "ERR-IA@20"]
    ev = evaluate_diversity(qrels, paths, labels)
    m = ev.to_matrix()
    # the runs are named by their files (r0.run ...), not their run ids (team0_r ...)
    assert m.n_topics == 50 and m.systems == ("r0", "r1", "r2", "r3")
    # the matrix holds evaluate_diversity's value of every (topic, run)
    for label in labels:
        for k in range(4):
            rows = ev.rows.ranking_run == k
            topics = [ev.rows.topic_labels[i] for i in np.flatnonzero(rows)]
            got = m.values[[m.topics.index(t) for t in topics], k, m.measures.index(label)]
            assert np.array_equal(got, ev.values[label][rows])
    out = run_cli(capsys, "compare", qrels, *paths, "-m", labels[0], "-m", labels[1],
                  "--test", "t", "--correction", "none", "--format", "json")
    pairs = json.loads(out)["pairs"]
    assert len(pairs) == 12
    for pair in pairs:
        a = m.array(pair["measure"])[:, m.systems.index(pair["a"])]
        b = m.array(pair["measure"])[:, m.systems.index(pair["b"])]
        expected = stats.ttest_rel(a, b)
        assert pair["diff"] == pytest.approx(float(np.mean(a - b)), abs=1e-12)
        assert pair["p"] == pytest.approx(expected.pvalue, rel=1e-9)
    out = run_cli(capsys, "meta", "correlate", qrels, *paths, "-m", labels[0], "-m",
                  labels[1], "--format", "csv")
    tau = stats.kendalltau(m.array(labels[0]).mean(0), m.array(labels[1]).mean(0))
    assert float(out.strip().splitlines()[-1].split(",")[-1]) == pytest.approx(
        tau.statistic, abs=1e-12)


def test_real_leave_one_out_equals_filtered_qrels(tmp_path):
    """Team k's LOO score: its runs evaluated (ndeval) with the qrels text without the
    documents only team k retrieved in its top ``depth`` (trec_eval order: by score)."""
    qrels = str(web_qrels())
    paths = write_runs(tmp_path, qrels, 3)
    depth = 15
    result = irscale.meta.leave_one_out(qrels, paths, ["alpha-nDCG@20"], depth=depth,
                                        contributors={f"team{k}_r": f"t{k}" for k in range(3)})
    tops = []
    for path in paths:
        top = set()
        for line in open(path):
            t, _, d, rank, _, _ = line.split()
            if int(rank) <= depth:  # scores decrease with the rank: same order
                top.add((t, d))
        tops.append(top)
    lines = open(qrels).read().splitlines()
    judged = {(q.split()[0], q.split()[2]) for q in lines}
    for k, path in enumerate(paths):
        others = set().union(*(tops[j] for j in range(3) if j != k))
        unique = (tops[k] & judged) - others
        kept = "\n".join(q for q in lines if (q.split()[0], q.split()[2]) not in unique)
        loo = evaluate_diversity(read_diversity_qrels(kept.encode() + b"\n"), [path],
                                 "alpha-nDCG@20").mean()["alpha-nDCG@20"].iloc[0]
        row = result.runs[result.runs["run"] == f"r{k}"].iloc[0]  # named by its file
        assert row["loo_score"] == pytest.approx(loo, abs=1e-12)
        unique_rows = result.unique[result.unique["contributor"] == f"t{k}"].iloc[0]
        assert unique_rows["unique_judged"] == len(unique)


def test_cli_alignment_and_format_checks(files, capsys):
    qrels, paths = files
    status = main(["compare", qrels, *paths, "-m", "alpha-nDCG@2"])
    assert status == 2 and "'c' lacks topic '3'" in capsys.readouterr().err
    status = main(["compare", qrels, *paths[:2], "-m", "alpha-nDCG@2", "--qrels-format",
                   "trec"])
    assert status == 2 and "--qrels-format diversity" in capsys.readouterr().err
    status = main(["compare", qrels, *paths[:2], "-m", "nNRBP", "--test", "t"])
    assert status == 2 and "nNRBP is undefined" in capsys.readouterr().err
    other = paths[0].replace("a.run", "z.run")
    with open(other, "w") as stream:
        stream.write("7 Q0 d1 1 1 z\n")
    status = main(["compare", qrels, paths[0], other, "-m", "strec@2"])
    assert status == 2 and "'z' has no topic in common" in capsys.readouterr().err


def test_compare_reads_intent_probabilities_and_types(files, tmp_path, capsys):
    """compare/meta read --intent-probs and --intent-types as eval does: the matrix is
    evaluate_diversity's with the same files (the probabilities change D-nDCG here)."""
    qrels, paths = files
    probs = tmp_path / "iprob.txt"
    probs.write_text("1 1 0.9\n1 2 0.1\n2 1 0.2\n2 2 0.3\n2 3 0.5\n")
    types = tmp_path / "types.txt"
    types.write_text("1 1 nav\n1 2 inf\n2 1 inf\n2 2 nav\n2 3 inf\n")
    names = ["D-nDCG@2", "P+Q"]
    runs = paths[:2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = evaluate_diversity(qrels, runs, names, intent_probabilities=str(probs),
                               intent_types=str(types)).to_matrix(allow_missing=True)
        uniform = evaluate_diversity(qrels, runs, names).to_matrix(allow_missing=True)
    keep = [m.topics.index(t) for t in ("1", "2")]
    assert not np.allclose(m.values[keep], uniform.values[keep])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = run_cli(capsys, "compare", qrels, *runs, "-m", "D-nDCG@2", "-m", "P+Q",
                      "--intent-probs", str(probs), "--intent-types", str(types),
                      "--test", "t", "--correction", "none", "--format", "json",
                      "--allow-empty")
    for pair in json.loads(out)["pairs"]:
        a = m.array(pair["measure"])[:, m.systems.index(pair["a"])]
        b = m.array(pair["measure"])[:, m.systems.index(pair["b"])]
        assert pair["diff"] == pytest.approx(float(np.mean(a - b)), abs=1e-12)
        assert pair["p"] == pytest.approx(stats.ttest_rel(a, b).pvalue, rel=1e-9)


def test_intent_options_refused_where_nothing_reads_them(files, tmp_path, capsys):
    qrels, paths = files
    probs = tmp_path / "iprob.txt"
    probs.write_text("1 1 1\n")
    scores = tmp_path / "s.csv"
    scores.write_text("a,b\n0.1,0.2\n0.3,0.1\n0.5,0.4\n")
    assert main(["compare", "--scores", str(scores), "--intent-probs", str(probs)]) == 2
    assert "--intent-probs applies to diversity measures evaluated against qrels" in \
        capsys.readouterr().err
    assert main(["meta", "correlate", qrels, *paths, "-m", "map", "-m", "P.10",
                 "--intent-types", str(probs)]) == 2
    assert "--intent-types applies to diversity measures only" in capsys.readouterr().err

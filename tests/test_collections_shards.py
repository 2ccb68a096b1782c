"""Shards for Ferro & Sanderson's (2022) MD3: the split (a partition, reproducible,
the hash an independent transcription of its documented formula), the per-shard scores against
irscale.evaluate on qrels and runs restricted by hand and against a plain AP loop, and the
ANOVA against stats.shard_anova fed the same matrix."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import irscale
from irscale.collections import evaluate_shards, shard_documents
from irscale.errors import InputError, ParameterError
from irscale.stats import ShardScores, shard_anova

from .test_collections_pooling import random_qrels, random_runs

MASK = (1 << 64) - 1


def plain_fingerprint(docno: str) -> int:
    """The docstring's hash, written out: h₀ = L·0x9E3779B97F4A7C15, then for every
    little-endian 8-byte word (zero-padded) h ← splitmix64-finaliser(h + word)."""
    data = docno.encode()
    h = (len(data) * 0x9E3779B97F4A7C15) & MASK
    for start in range(0, len(data), 8):
        word = int.from_bytes(data[start:start + 8].ljust(8, b"\0"), "little")
        h = (h + word) & MASK
        h ^= h >> 30
        h = (h * 0xBF58476D1CE4E5B9) & MASK
        h ^= h >> 27
        h = (h * 0x94D049BB133111EB) & MASK
        h ^= h >> 31
    return h


DOCS = [f"doc-{i:03d}" for i in range(50)] + ["clueweb12-0109wb-11-29718", "x", "é", "d" * 17]


@pytest.mark.parametrize("k", [1, 2, 3, 7])
def test_random_split_is_a_reproducible_balanced_partition(k):
    split = shard_documents(DOCS, k, rng=5)
    assert sorted(split.index) == sorted(DOCS) and split.index.is_unique
    sizes = np.bincount(split.to_numpy(), minlength=k)
    assert len(sizes) == k and sizes.min() >= 1 and sizes.max() - sizes.min() <= 1
    shuffled = list(reversed(DOCS)) + DOCS[:5]  # order and repeats do not matter
    pd.testing.assert_series_equal(shard_documents(shuffled, k, rng=5), split)
    if k > 1:
        assert not shard_documents(DOCS, k, rng=6).equals(split)


def test_hash_split_is_the_documented_formula_and_local():
    split = shard_documents(DOCS, 5, method="hash")
    assert split.to_dict() == {d: plain_fingerprint(d) % 5 for d in DOCS}
    # a document's shard does not depend on the other documents
    assert shard_documents(DOCS[10:40], 5, method="hash").to_dict() == \
        {d: plain_fingerprint(d) % 5 for d in DOCS[10:40]}


def test_split_errors():
    with pytest.raises(InputError, match="at least 4 documents"):
        shard_documents(["a", "b", "c"], 4, rng=1)
    colliding = next([a, b] for a in DOCS for b in DOCS
                     if a < b and plain_fingerprint(a) % 2 == plain_fingerprint(b) % 2)
    with pytest.raises(InputError, match="holds no document"):
        shard_documents(colliding, 2, method="hash")
    with pytest.raises(ParameterError, match="shards"):
        shard_documents(DOCS, 0)
    with pytest.raises(ParameterError, match="method"):
        shard_documents(DOCS, 2, method="modulo")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="hash"):
        shard_documents(DOCS, 2, method="hash", rng=1)


def plain_ap(qrels: pd.DataFrame, run: pd.DataFrame, topic: str, docs: set[str]) -> float:
    """AP of one topic on the documents ``docs``: trec_eval's order (score descending,
    docno descending), the other documents removed, R = relevant judged documents of
    ``docs`` (0 for a run without any of them)."""
    judged = {d: r for t, d, r in qrels.itertuples(index=False) if t == topic and d in docs}
    relevant = sum(r >= 1 for r in judged.values())
    rows = sorted(((s, d) for t, d, s in run.itertuples(index=False)
                   if t == topic and d in docs), key=lambda x: (x[0], x[1].encode()),
                  reverse=True)
    found, total = 0, 0.0
    for rank, (_, d) in enumerate(rows, start=1):
        if judged.get(d, 0) >= 1:
            found += 1
            total += found / rank
    return total / relevant


@pytest.mark.parametrize("seed", range(3))
def test_scores_are_evaluate_on_hand_restricted_qrels_and_runs(seed):
    runs = random_runs(seed, n_runs=4, n_topics=4, n_docs=20, length=15)
    qrels = random_qrels(seed, n_topics=4, n_docs=20)
    result = evaluate_shards(qrels, runs, "AP", shards=3, rng=seed)
    ndcg = evaluate_shards(qrels, runs, "nDCG@5", shards=3, rng=seed)
    assert ndcg.shards.equals(result.shards)
    scores = result.scores
    assert scores.systems == tuple(runs) and scores.shards == ("shard1", "shard2", "shard3")
    for k in range(3):
        docs = set(result.shards.index[result.shards.to_numpy() == k])
        q = qrels[qrels["doc_id"].isin(docs)]
        restricted = {name: run[run["doc_id"].isin(docs)] for name, run in runs.items()}
        by_hand = irscale.evaluate(q, restricted, "nDCG@5",
                                   allow_empty=True).to_matrix(allow_missing=True)
        for i, topic in enumerate(scores.topics):
            has_relevant = bool((q[q["query_id"] == topic]["relevance"] >= 1).any())
            for j, name in enumerate(runs):
                ap = scores.values[i, j, k]
                if not has_relevant:
                    assert np.isnan(ap) and np.isnan(ndcg.scores.values[i, j, k])
                    continue
                assert ap == pytest.approx(plain_ap(qrels, runs[name], topic, docs),
                                           abs=1e-12)
                # a run without a document of the shard for the topic: 0 (trec_eval -c)
                expected = by_hand.values[by_hand.topics.index(topic),
                                          by_hand.systems.index(name), 0] \
                    if topic in set(restricted[name]["query_id"]) else 0.0
                assert ndcg.scores.values[i, j, k] == pytest.approx(expected, abs=1e-12)


def test_anova_is_shard_anova_of_the_same_matrix():
    runs = random_runs(11, n_runs=5, n_topics=6, n_docs=16, length=14)
    qrels = random_qrels(11, n_topics=6, n_docs=16)
    result = evaluate_shards(qrels, runs, "AP", shards=2, rng=3)
    frame = result.to_frame()
    # the tidy frame, rebuilt into the matrix by the stats layer's own constructor
    again = ShardScores.from_frame(frame, topic="topic", system="run", shard="shard")
    np.testing.assert_array_equal(again.values, result.scores.values)
    for model, empty in [("MD3", "zero"), ("shard-main", "missing"), ("MD3f", "drop-topic")]:
        ours = result.anova(model, empty=empty)
        theirs = shard_anova(ShardScores.from_array(result.scores.values,
                                                    systems=list(runs)), model, empty=empty)
        pd.testing.assert_frame_equal(ours.to_frame(), theirs.to_frame())


def test_undefined_cells_and_bad_input():
    qrels = pd.DataFrame({"query_id": ["1"] * 4 + ["2"] * 2, "doc_id": list("abcd") + list("ab"),
                          "relevance": [1, 1, 0, 1, 1, 0]})
    run = pd.DataFrame({"query_id": ["1"] * 4 + ["2"] * 2, "doc_id": list("dcba") + list("ba"),
                        "score": [4.0, 3, 2, 1, 2, 1]})
    other = run.assign(score=run["score"] * -1)
    result = evaluate_shards(qrels, {"x": run, "y": other}, "AP", shards=2, method="hash")
    split = result.shards.to_dict()
    if split["a"] != split["b"]:  # topic 2's only relevant document is a
        assert np.isnan(result.scores.values[1, :, split["b"]]).all()
    with pytest.raises(InputError, match="at least 2 runs"):
        evaluate_shards(qrels, {"x": run}, "AP", shards=2, rng=1)
    with pytest.raises(InputError, match="no relevant document"):
        evaluate_shards(qrels.assign(relevance=0), {"x": run, "y": other}, "AP", shards=2,
                        rng=1)
    with pytest.raises(ParameterError, match="one measure"):
        evaluate_shards(qrels, {"x": run, "y": other}, "AP P@5", shards=2, rng=1)
    with pytest.warns(UserWarning, match="no judgments"), \
            pytest.raises(InputError, match="no topic in common"):
        evaluate_shards(qrels.assign(query_id="z" + qrels["query_id"]), {"x": run, "y": other},
                        shards=2, rng=1)


def test_cli_prints_the_api_table(tmp_path, capsys):
    from irscale.cli.main import main

    runs = random_runs(4, n_runs=3, n_topics=5, n_docs=20, length=15)
    qrels = random_qrels(4, n_topics=5, n_docs=20)
    paths = []
    for name, run in runs.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{t} Q0 {d} 1 {s} {name}\n" for t, d, s in
                                run.itertuples(index=False)))
        paths.append(str(path))
    (tmp_path / "q.txt").write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in
                                            qrels.itertuples(index=False)))
    assert main(["pool", "shards", str(tmp_path / "q.txt"), *paths, "-m", "AP", "--shards",
                 "2", "--seed", "9", "--empty", "zero", "--format", "csv", "--shard-scores",
                 str(tmp_path / "s.csv")]) == 0
    out = capsys.readouterr().out
    result = evaluate_shards(qrels, runs, "AP", shards=2, rng=9)
    assert out == result.anova("MD3", empty="zero").format("csv")
    written = pd.read_csv(tmp_path / "s.csv", dtype={"topic": str})
    pd.testing.assert_frame_equal(written, result.to_frame(), check_dtype=False)

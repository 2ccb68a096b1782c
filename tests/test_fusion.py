"""irscale.fuse and irscale.optimize_fusion on worked examples computed by hand: ties,
CondorcetFuse's cycles, every kind of run input, the weight grid, the errors at the edge."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from irscale import fuse, optimize_fusion, read_run
from irscale.errors import InputError, ParameterError
from irscale.fusion.optimize import weight_grid

A = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"x": 4.0}}
B = {"q1": {"d3": 9.0, "d1": 5.0}}


def ranked(run) -> dict[str, list[tuple[str, float]]]:
    frame = run.to_frame()
    out: dict[str, list[tuple[str, float]]] = {}
    for topic, docno, score in zip(frame.query_id, frame.doc_id, frame.score, strict=True):
        out.setdefault(topic, []).append((docno, round(float(score), 12)))
    return out


def test_rrf_worked_example():
    # q1: a ranks d1 d2 d3, b ranks d3 d1; q2 only in a
    got = ranked(fuse({"a": A, "b": B}, "rrf", k=60))
    assert got["q1"] == [("d1", round(1 / 61 + 1 / 62, 12)), ("d3", round(1 / 63 + 1 / 61, 12)),
                         ("d2", round(1 / 62, 12))]
    assert got["q2"] == [("x", round(1 / 61, 12))]


def test_combmnz_min_max_and_log_isr_of_one_run():
    got = ranked(fuse({"a": A, "b": B}, "combmnz"))
    # min-max: a q1 d1 1, d2 0.5, d3 0; b q1 d3 1, d1 0; a q2 x: 0 (one score)
    assert got["q1"] == [("d3", 2.0), ("d1", 2.0), ("d2", 0.5)]  # tie: docno descending
    assert got["q2"] == [("x", 0.0)]
    isr = ranked(fuse({"a": A, "b": B}, "log-isr"))
    assert isr["q2"] == [("x", 0.0)]  # ln 1 = 0: one run's documents score nothing
    assert isr["q1"][0] == ("d1", round((1 + 1 / 4) * np.log(2), 12))


def test_borda_points_of_unranked_documents():
    # q1: m = 3 candidates; b leaves d2 unranked: (3 - 2 + 1) / 2 = 1 point
    got = ranked(fuse({"a": A, "b": B}, "bordafuse"))
    assert got["q1"] == [("d1", 3 + 2.0), ("d3", 1 + 3.0), ("d2", 2 + 1.0)]
    # q2: b has no ranking: (1 - 0 + 1) / 2 points for x
    assert got["q2"] == [("x", 1 + 1.0)]


def test_ties_in_a_run_are_ranked_by_docno_descending():
    tied = {"q1": {"d1": 1.0, "d2": 1.0, "d3": 1.0}}
    other = {"q1": {"d9": 1.0}}
    got = ranked(fuse({"a": tied, "b": other}, "rrf"))["q1"]
    assert [d for d, _ in got] == ["d9", "d3", "d2", "d1"]  # fused tie: docno descending
    assert got[0][1] == got[1][1] == round(1 / 61, 12)


def test_condorcet_cycle_is_ordered_by_copeland_then_docno():
    # a: x y z, b: y z x, c: z x y -> every document beats one and loses to one
    runs = {name: {"q": {d: 3.0 - i for i, d in enumerate(order)}}
            for name, order in (("a", "xyz"), ("b", "yzx"), ("c", "zxy"))}
    got = ranked(fuse(runs, "condorcet"))["q"]
    assert got == [("z", 3.0), ("y", 2.0), ("x", 1.0)]
    # w beats everyone, v loses to everyone: the order of the majority
    runs["a"]["q"].update(w=9.0, v=-9.0)
    runs["b"]["q"].update(w=9.0)
    runs["c"]["q"].update(w=9.0, v=-9.0)
    got = ranked(fuse(runs, "condorcet"))["q"]
    assert [d for d, _ in got] == ["w", "z", "y", "x", "v"]


def test_every_run_input_gives_the_same_run(tmp_path):
    paths = []
    for name, run in (("a", A), ("b", B)):
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{t} Q0 {d} 0 {s} {name}\n" for t, docs in run.items()
                                for d, s in docs.items()))
        paths.append(path)
    expected = ranked(fuse({"a": A, "b": B}, "combsum", norm="zmuv"))
    frame = pd.DataFrame([(n, t, d, s) for n, run in (("a", A), ("b", B))
                          for t, docs in run.items() for d, s in docs.items()],
                         columns=["run", "query_id", "doc_id", "score"])
    for spec in (paths, [str(p) for p in paths], tmp_path / "*.run", tmp_path,
                 [read_run(p) for p in paths], frame, {"a": paths[0], "b": B}):
        assert ranked(fuse(spec, "combsum", norm="zmuv")) == expected, spec


def test_weights_and_name():
    fused = fuse({"a": A, "b": B}, "wsum", norm="none", weights=[2.0, -1.0], name="mix")
    assert fused.name == "mix"
    assert ranked(fused)["q1"] == [("d2", 4.0), ("d1", 1.0), ("d3", -7.0)]


@pytest.mark.parametrize(("kwargs", "needles"), [
    ({"method": "nope"}, ("method", "nope")),
    ({"method": "combsum", "norm": "minmax"}, ("norm", "minmax")),
    ({"method": "rrf", "norm": "min-max"}, ("norm", "rrf")),
    ({"method": "combsum", "k": 10}, ("k", "rrf")),
    ({"method": "rrf", "k": -1}, ("k",)),
    ({"method": "combsum", "weights": [1, 1]}, ("weights", "wsum")),
    ({"method": "wsum", "weights": [1]}, ("1 weights", "2 runs")),
    ({"method": "wsum", "weights": [1, float("nan")]}, ("weights",)),
    ({"method": "wsum", "weights": "1,2"}, ("weights",)),
])
def test_parameters_are_checked_at_the_edge(kwargs, needles):
    with pytest.raises(ParameterError) as error:
        fuse({"a": A, "b": B}, **kwargs)
    assert all(needle in str(error.value) for needle in needles), str(error.value)


def test_one_run_and_bad_runs_are_refused():
    with pytest.raises(ParameterError, match="two runs"):
        fuse({"a": A}, "rrf")
    with pytest.raises(InputError):
        fuse([b"1 Q0 d1 1 x r\n", b"1 Q0 d1 1 1 s\n"], "rrf")


def test_weight_grid_is_every_composition_in_lexicographic_order():
    grid = weight_grid(3, 10)
    expected = [np.array(c) / 10 for c in itertools.product(range(11), repeat=3)
                if sum(c) == 10]
    assert len(grid) == 66
    np.testing.assert_array_equal(grid, np.array(expected))


def test_optimize_fusion_picks_the_last_best_vector():
    qrels = {"q1": {"d1": 1}, "q2": {"e2": 1}}
    a = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"e1": 2.0, "e2": 1.0}}
    b = {"q1": {"d1": 1.0, "d2": 2.0}, "q2": {"e1": 1.0, "e2": 2.0}}
    best = optimize_fusion(qrels, {"a": a, "b": b}, "P@1", step=0.25)
    # P@1 per weight of a (min-max: the top document scores w_a or w_b): (0, 1) 0.5,
    # (0.25, .75) 0.5, (0.5, 0.5) tie, docno descending: d2, e2 -> 0.5, then 0.5, 0.5
    assert best.values.tolist() == [0.5] * 5
    assert best.weights == (1.0, 0.0)  # ranx's >=: the last of the best
    assert best.measure == "P@1" and best.value == 0.5
    assert list(best.to_frame().columns) == ["a", "b", "P@1"]
    with pytest.raises(ParameterError, match="step"):
        optimize_fusion(qrels, {"a": a, "b": b}, "P@1", step=0.3)


def _copeland_order(rankings: list[list[str]]) -> list[str]:
    """CondorcetFuse's order by brute force: Copeland score (wins less losses, a ranked
    document above an unranked one, no preference between two unranked), ties by docno
    descending."""
    docs = sorted({d for ranking in rankings for d in ranking})
    place = [{d: i for i, d in enumerate(ranking)} for ranking in rankings]
    inf = float("inf")

    def margin(x: str, y: str) -> int:
        return sum((p.get(x, inf) < p.get(y, inf)) - (p.get(y, inf) < p.get(x, inf))
                   for p in place)

    score = {x: sum((margin(x, y) > 0) - (margin(x, y) < 0) for y in docs if y != x)
             for x in docs}
    return sorted(docs, key=lambda d: (-score[d], [-b for b in d.encode()]))


def test_condorcet_equals_brute_force_with_missing_documents():
    rng = np.random.default_rng(5)
    docs = [f"d{i:02d}" for i in range(40)]
    topics = {f"q{t}": [list(rng.choice(docs, rng.integers(1, 30), replace=False))
                        for _ in range(4)] for t in range(6)}
    runs = {f"r{r}": {t: {d: float(len(rk[r]) - i) for i, d in enumerate(rk[r])}
                      for t, rk in topics.items()} for r in range(4)}
    got = ranked(fuse(runs, "condorcet"))
    for topic, rankings in topics.items():
        order = _copeland_order(rankings)
        assert [d for d, _ in got[topic]] == order
        assert [s for _, s in got[topic]] == [float(len(order) - i) for i in range(len(order))]


def test_trec_lines_read_back_to_the_same_run():
    from irscale.io.trec_write import ranked_run_text

    fused = fuse({"a": A, "b": B}, "combmnz", norm="zmuv")
    text = ranked_run_text(fused, "mix")
    assert text.splitlines()[0].split()[3:] == [b"1", text.splitlines()[0].split()[4], b"mix"]
    back = read_run(text)
    assert back.name == "mix"
    assert back.docno.to_pylist() == fused.docno.to_pylist()
    assert back.score.tolist() == fused.score.tolist()  # shortest round-trip digits


# --------------------------------------------------------------------------- ranx's others
def _ranked_run(*docs: str) -> dict[str, float]:
    return {doc: float(len(docs) - i) for i, doc in enumerate(docs)}


def test_rbc_and_weighted_condorcet_by_hand():
    runs = {"a": {"q": _ranked_run("d1", "d2")}, "b": {"q": _ranked_run("d2")}}
    # phi = 1/2: (1 - phi) phi^(rank - 1) is 1/2 at rank 1, 1/4 at rank 2
    assert ranked(fuse(runs, "rbc", phi=0.5))["q"] == [("d2", 0.75), ("d1", 0.5)]
    three = {"a": {"q": _ranked_run("x", "y")}, "b": {"q": _ranked_run("y", "x")},
             "c": {"q": _ranked_run("y", "x")}}
    assert [d for d, _ in ranked(fuse(three, "condorcet"))["q"]] == ["y", "x"]
    # a's 3 votes outweigh b's and c's 1 + 1
    assert ranked(fuse(three, "w-condorcet", weights=[3, 1, 1]))["q"] == [("x", 2.0),
                                                                          ("y", 1.0)]


def test_probfuse_counts_training_topics_the_runs_lack():
    # training: t1 ranked by both runs, t2 judged but retrieved by neither: T = 2
    train = {"a": {"t1": _ranked_run("d1", "d2")}, "b": {"t1": _ranked_run("d2", "d1")}}
    qrels = {"t1": {"d1": 1}, "t2": {"z": 1}}
    runs = {"a": {"q": _ranked_run("x", "y")}, "b": {"q": _ranked_run("y", "x")}}
    # two segments of one rank: P_a = (1/2, 0), P_b = (0, 1/2); segment k adds P(k) / k
    got = ranked(fuse(runs, "probfuse", segments=2, train_qrels=qrels, train_runs=train))
    assert got["q"] == [("x", 0.5 + 0.5 / 2), ("y", 0.0)]


def test_bayesfuse_past_rank_1000_and_slidefuse_windows():
    docs = [f"d{i:04d}" for i in range(1002)]
    train = {"a": {"t": _ranked_run(*docs)}, "b": {"t": _ranked_run("d0000")}}
    qrels = {"t": {"d0000": 1}}
    got = dict(ranked(fuse({"a": {"q": _ranked_run(*docs)}, "b": {"q": _ranked_run("e")}},
                           "bayesfuse", train_qrels=qrels, train_runs=train))["q"])
    floor = np.log(0.001 / 0.999)
    # ranks 1-5 of a: precision 1/5; of b: 1/5 (one document of five)
    assert got["d0000"] == pytest.approx(np.log(0.2 / 0.8) + floor)
    assert got["e"] == pytest.approx(floor + np.log(0.2 / 0.8))
    assert got["d1001"] == pytest.approx(2 * floor)  # rank 1002 of a, absent from b
    # SlideFuse: P_a = (1, 0, 0, ...) from the training hit list; window 1 at rank 2 of 3
    # averages ranks 1-3: 1/3; at rank 1, ranks 1-2: 1/2
    slide = ranked(fuse({"a": {"q": _ranked_run("u", "v", "w")}, "b": {"q2": {"e": 1.0}}},
                        "slidefuse", window=1, train_qrels=qrels, train_runs=train))["q"]
    assert slide == [("u", 0.5), ("v", round(1 / 3, 12)), ("w", 0.0)]


def test_optimize_fusion_grid_refused_before_any_work():
    """A grid of C(10^7 + 3, 3) ≈ 1.7·10^20 vectors is refused with its estimate, before a
    run is searched."""
    with pytest.raises(ParameterError, match=r"step.*1e-07 on 4 runs: a grid of 1\.67e\+20 "
                       r"weight vectors.*max_memory"):
        optimize_fusion({"q1": {"d1": 1}}, {k: {"q1": {"d1": 1.0}} for k in "abcd"}, "AP",
                        step=1e-7)
    with pytest.raises(ParameterError, match=r"a grid of 11 weight vectors.*max_memory = "
                       r"1 KiB"):
        optimize_fusion({"q1": {"d1": 1}}, {k: {"q1": {"d1": 1.0}} for k in "ab"}, "AP",
                        step=0.1, max_memory=1024)


def test_optimize_fusion_progress_counts_the_grid():
    """``progress=`` gets ``(done, total)`` up to the grid's size, C(1/step + n − 1, n − 1)
    (66 vectors: three runs, step 0.1)."""
    from math import comb

    calls: list[tuple[int, int]] = []
    runs = {k: {"q1": {"d1": 1.0 + i, "d2": 2.0 - i}} for i, k in enumerate("abc")}
    optimize_fusion({"q1": {"d1": 1}}, runs, "AP", step=0.1,
                    progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (comb(12, 2), comb(12, 2)) == (66, 66)

"""``ties="expected"`` (``irscale eval --ties expected``): the tie-aware values
(``rust/src/tie_aware.rs``, McSherry & Najork, ECIR 2008) against brute force. For random
small topics with tie groups, every order of the tied documents is enumerated, each order
evaluated by pytrec_eval (trec_eval 9's code; scores that force that order), and the mean
over the orders compared with irscale's value, for every tie-aware measure."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import irscale

pytrec_eval = pytest.importorskip("pytrec_eval")

#: Every tie-aware measure, as trec_eval (and pytrec_eval) spell them.
MEASURES = ["P.1,2,3,5,10", "recall.2,5", "success.1,3", "relative_P.2,5", "Rprec", "map",
            "map_cut.2,5", "recip_rank", "ndcg", "ndcg_cut.2,5", "bpref", "num_rel_ret",
            "set_P"]
#: Orders enumerated per topic at most (the product of the groups' factorials).
MOST_ORDERS = 2000


def random_topic(rng: np.random.Generator) -> tuple[dict[str, int], dict[str, float]]:
    """A topic's qrels (at least one relevant document, some relevant ones not retrieved)
    and a run of 4 to 9 documents whose scores, drawn from a few values, tie in groups; some
    retrieved documents are not in the qrels."""
    while True:
        n = int(rng.integers(4, 10))
        docs = [f"d{k}" for k in range(n)]
        run = {d: float(rng.integers(1, 4)) for d in docs}
        qrels = {d: int(rng.integers(0, 3)) for d in docs if rng.random() < 0.8}
        qrels.update({f"u{k}": int(rng.integers(0, 3)) for k in range(int(rng.integers(0, 3)))})
        groups = [sum(1 for s in run.values() if s == v) for v in set(run.values())]
        if any(g > 0 for g in qrels.values()) and \
                math.prod(math.factorial(g) for g in groups) <= MOST_ORDERS:
            return qrels, run


def trec_order(run: dict[str, float]) -> list[list[str]]:
    """The tie groups of ``run`` in trec_eval's order (score descending)."""
    scores = sorted(set(run.values()), reverse=True)
    return [sorted(d for d, s in run.items() if s == score) for score in scores]


def brute_force(qrels: dict[str, int], run: dict[str, float]) -> dict[str, float]:
    """pytrec_eval's values averaged over every order of the tied documents of ``run``."""
    groups = trec_order(run)
    orders = [list(itertools.chain.from_iterable(parts)) for parts in
              itertools.product(*(itertools.permutations(g) for g in groups))]
    # every order is a topic of its own, its scores strictly decreasing down the order
    runs = {str(k): {d: float(len(order) - at) for at, d in enumerate(order)}
            for k, order in enumerate(orders)}
    judged = {str(k): qrels for k in range(len(orders))}
    values = pytrec_eval.RelevanceEvaluator(judged, set(MEASURES)).evaluate(runs)
    labels = values["0"].keys()
    return {label: float(np.mean([values[k][label] for k in values])) for label in labels}


#: The warning of every evaluation of random topics with ties (tested on its own below).
ORDER_WARNING = "ignore:.*topic rankings hold tied documents:UserWarning"


@pytest.mark.filterwarnings(ORDER_WARNING)
@pytest.mark.parametrize("seed", range(6))
def test_tie_aware_values_are_means_over_every_order(seed):
    rng = np.random.default_rng(seed)
    topics = {f"t{k}": random_topic(rng) for k in range(12)}
    qrels = {t: q for t, (q, _) in topics.items()}
    run = {t: r for t, (_, r) in topics.items()}
    frame = irscale.evaluate(qrels, {"r": run}, MEASURES, ties="expected").per_topic()
    got = {(row.topic, row.measure): row.value for row in frame.itertuples()}
    checked = 0
    for topic, (q, r) in topics.items():
        for label, mean in brute_force(q, r).items():
            assert got[(topic, label)] == pytest.approx(mean, abs=1e-12), (topic, label)
            checked += 1
    assert checked == 12 * 22  # every label of every topic


@pytest.mark.filterwarnings(ORDER_WARNING)
def test_files_and_dicts_agree(tmp_path):
    """The tie groups of TREC files (the engine's reader) are those of dicts."""
    rng = np.random.default_rng(7)
    topics = {f"t{k}": random_topic(rng) for k in range(5)}
    qrels_path, run_path = tmp_path / "qrels", tmp_path / "run"
    qrels_path.write_text("".join(f"{t} 0 {d} {g}\n" for t, (q, _) in topics.items()
                                  for d, g in q.items()))
    run_path.write_text("".join(f"{t} Q0 {d} 0 {s} r\n" for t, (_, r) in topics.items()
                                for d, s in r.items()))
    from_files = irscale.evaluate(str(qrels_path), str(run_path), MEASURES,
                                  ties="expected").per_topic()
    from_dicts = irscale.evaluate({t: q for t, (q, _) in topics.items()},
                                  {"r": {t: r for t, (_, r) in topics.items()}}, MEASURES,
                                  ties="expected").per_topic()
    assert np.allclose(from_files["value"], from_dicts["value"], rtol=0, atol=1e-15)


@pytest.mark.filterwarnings(ORDER_WARNING)
def test_average_precision_by_mcsherry_and_najork():
    """One group of 4 documents, 2 of them relevant (R = 2), at the top: McSherry and
    Najork's expected AP, (1/R) Σ_j [(r/n)·1 + (j−1)·r(r−1)/(n(n−1))] / j, and the
    hypergeometric P@2 = (r/n)·2/2."""
    qrels = {"1": {"a": 1, "b": 0, "c": 1, "d": 0}}
    run = {"1": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}}
    values = irscale.evaluate(qrels, run, ["map", "P.2"], ties="expected").per_topic()
    by_hand = sum((2 / 4 + (j - 1) * 2 / 12) / j for j in range(1, 5)) / 2
    got = dict(zip(values["measure"], values["value"], strict=True))
    assert got["map"] == pytest.approx(by_hand, abs=1e-15)
    assert got["P_2"] == pytest.approx(0.5, abs=1e-15)


def test_warning_counts_the_rankings_whose_order_matters():
    qrels = {"1": {"a": 1, "b": 0}, "2": {"x": 1, "y": 1}}
    run = {"1": {"a": 1.0, "b": 1.0}, "2": {"x": 1.0, "y": 1.0}}
    with pytest.warns(UserWarning, match="1 of 2 topic rankings hold tied documents"):
        irscale.evaluate(qrels, run, ["map"], ties="expected")


@pytest.mark.filterwarnings("ignore:1 of 1 topic rankings hold tied documents")
def test_default_measures_keep_the_tie_aware_ones(tmp_path) -> None:
    """``ties="expected"`` without measures: the tie-aware values of trec_eval's default
    set, its ``iprec_at_recall`` left out and named in one :class:`NoteWarning`; the
    values are those of the measures asked for by name."""
    from irscale.errors import NoteWarning

    qrels = {"1": {"a": 1, "b": 0, "c": 1, "d": 0}}
    run = {"1": {"a": 2.0, "b": 1.0, "c": 1.0, "d": 1.0}}
    with pytest.warns(NoteWarning, match="iprec_at_recall, of the measure set official"):
        means = irscale.evaluate(qrels, run, ties="expected").mean()
    assert not [m for m in means.columns if m.startswith("iprec_at_recall")]
    named = irscale.evaluate(qrels, run, ["map", "P.5", "recip_rank"], ties="expected").mean()
    for measure in named.columns:
        assert means[measure].tolist() == named[measure].tolist(), measure

"""ranx's metric names read as irscale's measures of the same value: every form of
:data:`~irscale.measures.names.RANX_NAMES` evaluated by irscale, under ranx's own name,
against ``ranx.evaluate`` on the same generated qrels and run, topic by topic; and the
claims of the forms refused (:data:`~irscale.measures.names.RANX_UNLIKE`) checked on ranx.

The runs have no tied scores (ranx ranks tied documents in its own order, irscale in
trec_eval's). The collections hold what tells definitions apart: graded degrees (gains),
negative degrees (non-relevant to both), topics without relevant documents, topics judged
relevant only, unjudged documents, and runs shorter than the cut-offs (P@k divides by k,
F@k too). ranx's bpref is compared on ordinary topics only (a relevant and a judged
non-relevant document, no negative degree): ranx's bpref is NaN without a judged
non-relevant document (trec_eval counts every relevant one retrieved as 1), counts negative
degrees as judged non-relevant (trec_eval leaves them out), and gives 0 to every topic of a
call where one topic has no relevant document.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import irscale
from irscale.errors import MeasureError
from irscale.measures.names import RANX_NAMES, RANX_UNLIKE

from .oracle_imports import lazy_importorskip

ranx = lazy_importorskip("ranx")

Judgments = dict[str, dict[str, int]]
Scores = dict[str, dict[str, float]]

#: Cut-offs: within every run, within some, beyond all (runs hold at most 40 documents).
CUTOFFS = (1, 3, 10, 60)


def _collection(seed: int, ordinary: bool) -> tuple[Judgments, Scores]:
    """Qrels and a run of 30 topics (``ordinary``: each with a relevant and a judged
    non-relevant document, no negative degree), scores all distinct."""
    rng = np.random.default_rng(seed)
    qrels: Judgments = {}
    run: Scores = {}
    for k in range(30):
        topic = f"q{k}"
        docs = rng.choice(80, int(rng.integers(2, 30)), replace=False)
        degrees = rng.integers(0 if ordinary else -1, 4, size=len(docs))
        if ordinary:
            degrees[:2] = (1 + k % 3, 0)
        elif k % 7 == 0:
            degrees = np.minimum(degrees, 0)  # no relevant document
        elif k % 7 == 1:
            degrees = np.maximum(degrees, 1)  # relevant documents only
        qrels[topic] = {f"d{d}": int(v) for d, v in zip(docs, degrees, strict=True)}
        retrieved = rng.choice(80, int(rng.integers(1, 41)), replace=False)
        run[topic] = {f"d{d}": 100.0 - r - rng.random() / 2 for r, d in enumerate(retrieved)}
    return qrels, run


def _accepted() -> list[str]:
    """Every ranx name the table reads: ``name`` and ``name@k``."""
    names = []
    for name, (bare, with_cutoff) in RANX_NAMES.items():
        names += [name] if bare is not None else []
        names += [f"{name}@{k}" for k in CUTOFFS] if with_cutoff is not None else []
    return names


def _ranx_values(qrels: Judgments, run: Scores, names: list[str]) -> dict[str, dict]:
    """ranx's value of every name, per topic."""
    ranked = ranx.Run(run, name="sys")
    ranx.evaluate(ranx.Qrels(qrels), ranked, names)
    return {name: dict(ranked.scores[name]) for name in names}


def _irscale_values(qrels: Judgments, run: Scores, names: list[str]) -> dict[str, dict]:
    """irscale's value of every name, per topic (the measures named as ranx names them)."""
    frame = irscale.evaluate(qrels, {"sys": run}, names).per_topic()
    values: dict[str, dict] = {name: {} for name in names}
    for topic, measure, value in zip(frame["topic"], frame["measure"], frame["value"],
                                     strict=True):
        values[measure][topic] = value
    return values


def _assert_equal(theirs: dict[str, dict], ours: dict[str, dict]) -> None:
    for name, per_topic in theirs.items():
        assert ours[name].keys() == per_topic.keys(), name
        for topic, value in per_topic.items():
            assert math.isclose(ours[name][topic], value, rel_tol=1e-12, abs_tol=1e-12), \
                (name, topic, ours[name][topic], value)


@pytest.mark.parametrize("seed", [11, 12, 13])
@pytest.mark.parametrize("ordinary", [False, True], ids=["edges", "ordinary"])
def test_every_ranx_name_has_ranx_value(seed, ordinary):
    qrels, run = _collection(seed, ordinary)
    names = [name for name in _accepted() if ordinary or name != "bpref"]
    _assert_equal(_ranx_values(qrels, run, names), _irscale_values(qrels, run, names))


def test_the_ranx_names_are_those_of_ranx():
    """Each name of the tables is one of ranx's metrics (its ``metric_switch``)."""
    from ranx.metrics import metric_switch

    for name in [*RANX_NAMES, *(form.rstrip("@") for form in RANX_UNLIKE)]:
        assert callable(metric_switch(name)), name


def test_ranx_recall_without_cutoff_is_set_recall():
    """The documented difference: ``recall`` stays trec_eval's recall_5 ... recall_1000;
    ranx's recall is irscale's SetR."""
    qrels, run = _collection(14, ordinary=False)
    theirs = _ranx_values(qrels, run, ["recall"])
    ours = _irscale_values(qrels, run, ["SetR"])
    _assert_equal(theirs, {"recall": ours["SetR"]})
    assert irscale.evaluate(qrels, {"sys": run}, ["recall"]).mean().columns.tolist()[:2] == [
        "recall_5", "recall_10"]


def test_refused_forms_differ_from_irscale_as_their_messages_say():
    """bpref@k and r-precision@k are ranx's bpref and r-precision (the cut-off ignored),
    not irscale's truncated Bpref@k and Rprec@k; ranx's rbp equals RBP(p=...) on binary
    judgments only."""
    qrels, run = _collection(15, ordinary=True)
    theirs = _ranx_values(qrels, run, ["bpref", "bpref@3", "r-precision", "r-precision@3",
                                       "rbp.8"])
    assert theirs["bpref@3"] == theirs["bpref"]
    assert theirs["r-precision@3"] == theirs["r-precision"]
    ours = _irscale_values(qrels, run, ["Bpref@3", "Rprec@3", "RBP(p=0.8)"])
    assert ours["Bpref@3"] != theirs["bpref"] and ours["Rprec@3"] != theirs["r-precision"]
    assert ours["RBP(p=0.8)"] != theirs["rbp.8"]
    binary = {topic: {doc: min(degree, 1) for doc, degree in judged.items()}
              for topic, judged in qrels.items()}
    _assert_equal({"RBP(p=0.8)": _ranx_values(binary, run, ["rbp.8"])["rbp.8"]},
                  _irscale_values(binary, run, ["RBP(p=0.8)"]))


def test_ranx_bpref_differs_where_documented():
    """ranx's bpref at the edges the comparison leaves out (module documentation), against
    irscale's (trec_eval's) on the same topics."""
    run = {"a": {"x": 2.0, "z": 1.0}, "b": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    only_relevant = {"a": {"x": 1}, "b": {"d1": 1, "d2": 1}}
    negative = {"a": {"x": 1, "z": 0}, "b": {"d1": -1, "d2": 1, "d3": 0}}
    no_relevant = {"a": {"x": 0, "z": 0}, "b": {"d1": 1, "d2": 0}}
    theirs = {name: _ranx_values(qrels, run, ["bpref"])["bpref"] for name, qrels in (
        ("only_relevant", only_relevant), ("negative", negative),
        ("no_relevant", no_relevant))}
    ours = {name: _irscale_values(qrels, run, ["bpref"])["bpref"] for name, qrels in (
        ("only_relevant", only_relevant), ("negative", negative))}
    assert math.isnan(theirs["only_relevant"]["a"]) and ours["only_relevant"]["a"] == 1.0
    assert theirs["negative"]["b"] != ours["negative"]["b"]
    assert theirs["no_relevant"]["b"] == 0.0  # trec_eval: 1.0
    assert _irscale_values(no_relevant, run, ["bpref"])["bpref"]["b"] == 1.0


@pytest.mark.parametrize(("name", "says"), [
    ("bpref@10", "ranx ignores the cut-off of bpref"),
    ("r-precision@5", "irscale's Rprec@5 evaluates the first 5 documents only"),
    ("hit_rate", "with one it is Success@k"),
    ("rbp.95", "irscale's nearest is RBP(p=0.95)"),
    ("rbp@8", "ranx's rbp with p = 0.8 is"),
])
def test_refused_forms_name_the_nearest_measure(name, says):
    with pytest.raises(MeasureError, match=rf"^measure '{name}': ") as raised:
        irscale.parse_measures([name])
    assert says in str(raised.value)

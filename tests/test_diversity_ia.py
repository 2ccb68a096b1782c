"""IA(<measure>), D-U and U-IA: intent-aware versions of any measure and
the diversity U-measures, against independent oracles.

* IA(M) = Σ_i Pr(i|q) M_i (Sakai 2014, eq. 26): brute force with pytrec_eval (trec_eval
  9.0.8) on each intent's qrels, topic by topic, intents with a relevant document only;
* uniform IA(AP) and IA(P@k) against ndeval's MAP-IA and P-IA@k (pyndeval);
* D-U and U-IA (Sakai 2014, eq. 30–31): a hand-computed example written out below, and a
  brute force reading the trailtexts document by document.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from irscale.errors import MeasureError
from irscale.evaluation.diversity import evaluate_diversity
from irscale.io.diversity import (
    IntentProbabilities,
    read_diversity_qrels,
    read_intent_probabilities,
    read_ndeval_run,
)
from irscale.io.labels import read_labels
from irscale.measures.diversity.intent_aware import inner_request
from irscale.measures.diversity.umeasures import u_request

pytrec_eval = pytest.importorskip("pytrec_eval")

L = 132_000.0


def random_collection(seed, n_topics=4, levels=(0, 0, 1, 1, 2, 3)):
    """qrels rows (topic, intent, doc, level) and one run's rows (topic, doc, rank, score):
    distinct scores decreasing with the rank, so every ordering agrees."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for t in range(1, n_topics + 1):
        docs = [f"d{k}" for k in range(rng.integers(3, 15))]
        for s in range(1, rng.integers(2, 6) + 1):
            for d in rng.choice(docs, size=rng.integers(1, len(docs) + 1), replace=False):
                qrels.append((str(t), str(s), str(d), int(rng.choice(levels))))
        pool = docs + [f"x{k}" for k in range(4)]
        chosen = rng.choice(pool, size=rng.integers(1, len(pool) + 1), replace=False)
        for rank, d in enumerate(chosen, start=1):
            run.append((str(t), str(d), rank, float(100 - rank)))
    run.append(("77", "d1", 1, 5.0))  # a topic the qrels do not judge: 0
    return qrels, run


def as_inputs(qrels, run):
    q = read_diversity_qrels("".join(f"{t} {s} {d} {j}\n" for t, s, d, j in qrels).encode())
    r = read_ndeval_run("".join(f"{t} Q0 {d} {k} {s} sys\n" for t, d, k, s in run).encode())
    return q, r


def topics_of(run):
    return sorted({t for t, *_ in run}, key=int)


def evaluate_ia(qrels, run, names, *, probabilities=None, labels=None, **options):
    """Values of ``names`` per topic of the run (evaluate_diversity)."""
    import warnings

    q, r = as_inputs(qrels, run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # topic 77 is not judged
        ev = evaluate_diversity(q, r, names, intent_probabilities=probabilities,
                                label_sets=labels, **options)
    topics = topics_of(run)
    assert list(ev.rows.topic_labels) == topics
    return ev.values, topics


def brute_ia(qrels, run, measure, weights=None):
    """Σ_i Pr(i|q) M_i with pytrec_eval, one intent at a time (intents with a level ≥ 1)."""
    out = {}
    for topic in topics_of(run):
        ranking = {d: s for t, d, _, s in run if t == topic}
        intents = sorted({s for t, s, _, j in qrels if t == topic and j >= 1}, key=int)
        total = 0.0
        for s in intents:
            judged = {d: j for t, ss, d, j in qrels if t == topic and ss == s}
            value = pytrec_eval.RelevanceEvaluator({"q": judged}, {measure}).evaluate(
                {"q": ranking})["q"][measure]
            w = 1.0 / len(intents) if weights is None else weights.get(topic, {}).get(s, 0.0)
            total += w * value
        out[topic] = total
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name, trec", [("IA(nDCG@10)", "ndcg_cut_10"), ("IA(AP)", "map"),
                                        ("IA(P@5)", "P_5"), ("IA(nDCG)", "ndcg"),
                                        ("IA(RR)", "recip_rank")])
def test_ia_against_pytrec_eval(seed, name, trec):
    qrels, run = random_collection(seed)
    for traditional in (False, True):
        got, topics = evaluate_ia(qrels, run, [name], traditional=traditional)
        want = brute_ia(qrels, run, trec)
        assert got[name].tolist() == pytest.approx([want[t] for t in topics], abs=1e-12)
        assert got[name][topics.index("77")] == 0.0


def test_ia_with_given_probabilities():
    qrels, run = random_collection(11)
    weights = {}  # topics 1 and 2: Pr(i|q) ∝ 1, 2, 3 ... over their intents with a
    for topic in ("1", "2"):  # relevant document (a probability file must list them all)
        intents = sorted({s for t, s, _, j in qrels if t == topic and j >= 1}, key=int)
        total = sum(range(1, len(intents) + 1))
        weights[topic] = {s: (k + 1) / total for k, s in enumerate(intents)}
    assert len(weights["2"]) > 1
    text = "".join(f"{t} {s} {p!r}\n" for t, ps in weights.items() for s, p in ps.items())
    probabilities = read_intent_probabilities(text.encode())
    got, topics = evaluate_ia(qrels, run, ["IA(nDCG@10)"], probabilities=probabilities)
    # topics 3 and 4 are not listed: uniform over their intents with a relevant document
    uniform = brute_ia(qrels, run, "ndcg_cut_10")
    listed = brute_ia(qrels, run, "ndcg_cut_10", weights)
    want = [listed[t] if t in weights else uniform[t] for t in topics]
    assert got["IA(nDCG@10)"].tolist() == pytest.approx(want, abs=1e-12)


def test_one_intent_is_the_plain_measure():
    """IA(M) with one intent per topic is M on that intent's qrels (the main engine's
    evaluate on ordinary qrels)."""
    import irscale

    qrels, run = random_collection(5)
    one = [(t, "1", d, j) for t, s, d, j in qrels if s == "1"]
    names = ["IA(nDCG@10)", "IA(Q)", "IA(ERR@10)", "IA(RBP(p=0.8))", "IA(P(rel=2)@5)"]
    got, topics = evaluate_ia(one, run, names, traditional=True)
    plain = {t: {d: j for tt, _, d, j in one if tt == t} for t in {x[0] for x in one}}
    scored = {t: {d: s for tt, d, _, s in run if tt == t} for t in topics}
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = irscale.evaluate(plain, scored, [n[3:-1] for n in names])
    table = ev.per_topic()
    for name in names:
        rows = table[table.measure == name[3:-1]].set_index("topic")["value"]
        has_relevant = {t for t, _, _, j in one if j >= 1}
        want = [rows[t] if t in has_relevant else 0.0 for t in topics]
        assert got[name].tolist() == pytest.approx(want, abs=1e-12), name


pyndeval = pytest.importorskip("pyndeval")


@pytest.mark.parametrize("seed", range(6))
def test_uniform_ia_is_ndevals_map_ia_and_p_ia(seed):
    qrels, run = random_collection(seed)
    got, topics = evaluate_ia(qrels, run, ["IA(AP)", "IA(P@5)", "IA(P@20)"])
    ordered = sorted(qrels, key=lambda q: (int(q[1]), q[0], q[2]))
    evaluator = pyndeval.RelevanceEvaluator(ordered, ["MAP-IA", "P-IA@5", "P-IA@20"])
    scored = [(t, d, s) for t, d, _, s in run]
    want = evaluator.evaluate(scored)
    for name, column in (("IA(AP)", "MAP-IA"), ("IA(P@5)", "P-IA@5"),
                         ("IA(P@20)", "P-IA@20")):
        expected = [want[t][column] if t in want else 0.0 for t in topics]
        assert got[name].tolist() == pytest.approx(expected, abs=1e-12), name


# ------------------------------------------------------------------ D-U and U-IA
HAND_QRELS = [("1", "1", "d1", 1), ("1", "2", "d2", 1), ("1", "2", "d3", 2),
              ("1", "3", "d9", 0)]
HAND_RUN = [("1", "d2", 1, 3.0), ("1", "d3", 2, 2.0), ("1", "d1", 3, 1.0)]
LENGTHS = {"d1": 100, "d2": 200, "d3": 300, "d9": 50}


def test_hand_example():
    """Intents 1 (d1) and 2 (d2, d3 at level 2) count, each Pr = 1/2 (intent 3 has no
    relevant document); snippets of 10 characters, F = 0.2, linear gains.

    D-U: one trailtext reading F of d2, d3, d1; global gains 0.5, 1.0, 0.5 at
    pos = 10 + 40 = 50, 20 + 0.2·500 = 120, 30 + 0.2·600 = 150:
    0.5(1 − 50/L) + 1.0(1 − 120/L) + 0.5(1 − 150/L) = 2 − 220/L.
    U-IA: intent 1 reads d1 only (pos 30 + 20 = 50): U_1 = 1 − 50/L; intent 2 reads d2, d3
    (pos 50 and 20 + 100 = 120): U_2 = (1 − 50/L) + 2(1 − 120/L);
    U-IA = (U_1 + U_2)/2 = 2 − 170/L.
    """
    labels = {"doclen": read_labels({"*": LENGTHS})}
    got, _ = evaluate_ia(HAND_QRELS, HAND_RUN, ["D-U(snippet=10)", "U-IA(snippet=10)"],
                         labels=labels)
    assert got["D-U(snippet=10)"][0] == pytest.approx(2 - 220 / L, abs=1e-15)
    assert got["U-IA(snippet=10)"][0] == pytest.approx(2 - 170 / L, abs=1e-15)


def brute_u(qrels, run, lengths, snippet, F, weights, diversified):
    """D-U (diversified) or U-IA by reading each trailtext document by document."""
    out = {}
    for topic in topics_of(run):
        docs = [d for t, d, _, _ in sorted((x for x in run if x[0] == topic),
                                           key=lambda x: x[2])]
        levels = {(s, d): j for t, s, d, j in qrels if t == topic}
        intents = sorted({s for t, s, _, j in qrels if t == topic and j >= 1}, key=int)
        w = {s: weights(topic, intents, s) for s in intents}
        if diversified:
            pos, total = 0.0, 0.0
            for d in docs:
                gain = sum(w[s] * max(levels.get((s, d), 0), 0) for s in intents)
                pos += snippet + (F * lengths[d] if gain > 0 else 0.0)
                total += gain * max(0.0, 1 - pos / L)
            out[topic] = total
        else:
            total = 0.0
            for s in intents:
                pos, u = 0.0, 0.0
                for d in docs:
                    gain = max(levels.get((s, d), 0), 0)
                    pos += snippet + (F * lengths[d] if gain > 0 else 0.0)
                    u += gain * max(0.0, 1 - pos / L)
                total += w[s] * u
            out[topic] = total
    return out


@pytest.mark.parametrize("seed", range(4))
def test_d_u_and_u_ia_brute_force(seed):
    qrels, run = random_collection(seed)
    rng = np.random.default_rng(seed)
    docs = {d for _, d, _, _ in run} | {d for _, _, d, _ in qrels}
    lengths = {d: float(rng.integers(100, 20000)) for d in sorted(docs)}
    labels = {"len": read_labels({"*": lengths})}
    names = ["D-U(lengths=len,snippet=150,F=0.3)", "U-IA(lengths=len,snippet=150,F=0.3)"]
    got, topics = evaluate_ia(qrels, run, names, labels=labels)
    def uniform(topic, intents, s):
        return 1.0 / len(intents)
    for name, diversified in zip(names, (True, False), strict=True):
        want = brute_u(qrels, run, lengths, 150.0, 0.3, uniform, diversified)
        assert got[name].tolist() == pytest.approx([want[t] for t in topics], abs=1e-12)


def test_u_ia_with_one_intent_is_u():
    import irscale

    qrels = [q for q in random_collection(2)[0] if q[1] == "2"]
    run = random_collection(2)[1]
    docs = {d for _, d, _, _ in run} | {d for _, _, d, _ in qrels}
    lengths = {d: 1000.0 + 37 * k for k, d in enumerate(sorted(docs))}
    got, topics = evaluate_ia(qrels, run, ["U-IA", "D-U"], traditional=True,
                              labels={"doclen": read_labels({"*": lengths})})
    plain = {t: {d: j for tt, _, d, j in qrels if tt == t} for t in {q[0] for q in qrels}}
    scored = {t: {d: s for tt, d, _, s in run if tt == t} for t in topics}
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = irscale.evaluate(plain, scored, "U", labels={"doclen": {"*": lengths}})
    rows = ev.per_topic().set_index("topic")["value"]
    has_relevant = {t for t, _, _, j in qrels if j >= 1}
    want = [rows[t] if t in has_relevant else 0.0 for t in topics]
    assert got["U-IA"].tolist() == pytest.approx(want, abs=1e-12)
    assert got["D-U"].tolist() == pytest.approx(want, abs=1e-12)


def test_probabilities_weigh_d_u():
    probabilities = IntentProbabilities({"1": {"1": 0.25, "2": 0.75}})
    got, _ = evaluate_ia(HAND_QRELS, HAND_RUN, ["D-U(snippet=10)"],
                         labels={"doclen": read_labels({"*": LENGTHS})},
                         probabilities=probabilities)
    # global gains 0.75, 1.5, 0.25 at 50, 120, 150
    want = 0.75 * (1 - 50 / L) + 1.5 * (1 - 120 / L) + 0.25 * (1 - 150 / L)
    assert got["D-U(snippet=10)"][0] == pytest.approx(want, abs=1e-15)


# ------------------------------------------------------------------ names
@pytest.mark.parametrize("name, message", [
    ("IA(num_q)", "not one"), ("IA(P.5,10)", "takes one measure"), ("IA()", "IA(<measure>)"),
    ("IA(nDCG@x)", "nDCG"), ("IA(gm_map)", "geometric mean")])
def test_bad_ia_names(name, message):
    with pytest.raises(MeasureError, match=re_escape(message)):
        inner_request(name)


def test_bad_u_names():
    with pytest.raises(MeasureError, match="D-U"):
        u_request("D-U(X=1)")
    with pytest.raises(MeasureError, match="F"):
        u_request("U-IA(F=2)")


def re_escape(text):
    import re

    return re.escape(text)


def test_inner_level_is_the_inner_measures():
    """IA(P(rel=2)@2) counts level-2 documents within each intent that counts (a level-1
    document): intent 1 (d1, level 1) has none, intent 2 (d2 level 1, d3 level 2) one in
    the top 2."""
    got, _ = evaluate_ia(HAND_QRELS, HAND_RUN, ["IA(P(rel=2)@2)", "IA(P@2)"])
    assert got["IA(P(rel=2)@2)"][0] == pytest.approx(0.5 * 0.0 + 0.5 * 0.5)
    assert math.isclose(got["IA(P@2)"][0], 0.5 * 0.0 + 0.5 * 1.0)


def test_through_evaluate_diversity():
    """IA(...), D-U and U-IA are diversity measures beside ndeval's (evaluate_diversity,
    and irscale.evaluate routes them there)."""
    import warnings

    import irscale
    from irscale.evaluation.diversity import evaluate_diversity

    qrels, run = random_collection(3)
    q, r = as_inputs(qrels, run)
    lengths = {d: 500.0 + len(d) for d in {x[1] for x in run} | {x[2] for x in qrels}}
    names = ["MAP-IA", "IA(AP)", "D-U(snippet=10)", "P-IA@5", "IA(P@5)"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate_diversity(q, r, names, label_sets={"doclen": {"*": lengths}})
        routed = irscale.evaluate(q, r, ["IA(AP)"])
    assert ev.measures == tuple(names)
    assert list(ev.rows.topic_labels) == topics_of(run)
    assert ev.values["IA(AP)"].tolist() == pytest.approx(ev.values["MAP-IA"].tolist(),
                                                         abs=1e-12)
    assert ev.values["IA(P@5)"].tolist() == pytest.approx(ev.values["P-IA@5"].tolist(),
                                                          abs=1e-12)
    uniform = brute_u(qrels, run, lengths, 10.0, 0.2,
                      lambda topic, intents, s: 1.0 / len(intents), True)
    assert ev.values["D-U(snippet=10)"].tolist() == pytest.approx(
        [uniform[t] for t in topics_of(run)], abs=1e-12)
    assert routed.values["IA(AP)"].tolist() == ev.values["IA(AP)"].tolist()


def test_documented_example_prints_what_the_page_shows():
    import contextlib
    import io
    import re
    import warnings
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "diversity.md").read_text()
    code = next(b for b in re.findall(r"```python\n(.*?)```", doc, re.S) if "IA(AP)" in b)
    shown = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, "docs/diversity.md", "exec"), {})
    assert out.getvalue().splitlines() == shown


def test_cli_labels(tmp_path, capsys):
    """``irscale eval --labels doclen=FILE`` feeds D-U / U-IA: the hand example above
    (2 − 220/L and 2 − 170/L), printed with six decimals."""
    from irscale.cli.main import main

    (tmp_path / "q").write_text("".join(f"{t} {s} {d} {j}\n" for t, s, d, j in HAND_QRELS))
    (tmp_path / "r").write_text("".join(f"{t} Q0 {d} {k} {s} sys\n"
                                        for t, d, k, s in HAND_RUN))
    (tmp_path / "len").write_text("".join(f"* 0 {d} {n}\n" for d, n in LENGTHS.items()))
    assert main(["eval", "-m", "D-U(snippet=10) U-IA(snippet=10)", "--format", "csv",
                 "--labels", f"doclen={tmp_path / 'len'}", str(tmp_path / "q"),
                 str(tmp_path / "r")]) == 0
    rows = [line.split(",") for line in capsys.readouterr().out.splitlines()[1:]]
    got = {(m, t): v for _, t, m, v in rows}
    assert got[("D-U(snippet=10)", "1")] == f"{2 - 220 / L:.6f}"
    assert got[("U-IA(snippet=10)", "1")] == f"{2 - 170 / L:.6f}"


def test_label_sets_through_evaluate_and_refused_when_unread():
    import irscale
    from irscale.errors import ParameterError

    q, r = as_inputs(HAND_QRELS, HAND_RUN)
    ev = irscale.evaluate(q, r, ["D-U(snippet=10)"], labels={"doclen": {"*": LENGTHS}})
    assert ev.values["D-U(snippet=10)"][0] == pytest.approx(2 - 220 / L, abs=1e-15)
    for names in (["alpha-nDCG@5"], ["IA(AP)"], ["D-U(lengths=len)"]):
        with pytest.raises(ParameterError, match="'doclen' is read by no measure"):
            irscale.evaluate(q, r, names, labels={"doclen": {"*": LENGTHS}})


def test_scale_image_of_ia():
    """The scale engine judges its runs of intent sets per intent for IA(...) too: with
    uniform probabilities IA(AP) is MAP-IA run by run (the images agree), and D-U, which
    needs document lengths, is refused with the reason."""
    import itertools

    from irscale.scales import scale

    ia, ndeval_map = (scale(m, 3, intents=2, progress=False) for m in ("IA(AP)", "MAP-IA"))
    runs = np.array(list(itertools.product(range(4), repeat=3)))
    assert (ia.n_runs, ia.n_distinct) == (ndeval_map.n_runs, ndeval_map.n_distinct)
    assert np.array_equal(ia.phi(runs), ndeval_map.phi(runs))
    with pytest.raises(MeasureError, match="doclen"):
        scale("D-U", 2, intents=2, progress=False)

"""Citation measures of judged answers: ALCE's citation recall and precision equal a
transcription, written here, of princeton-nlp/ALCE's ``eval.py`` ``compute_autoais`` (its
entailment calls answered from fixed labels) on generated answers; the AIS rate and the
TREC RAG track's support scores equal their definitions written here; hand values for the
edge cases; the statistics apply; the command line prints what the API computes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.errors import InputFormatError
from irscale.io.citations import read_citations
from irscale.text import evaluate_citations
from irscale.text.citations import citation_values

from .property_examples import examples

LABELS = ("not_supported", "partially_supported", "supported")
#: The TREC RAG track's weight of each label.
WEIGHT = {0: 0.0, 1: 0.5, 2: 1.0}


# ---------------------------------------------------------------- the oracle (ALCE's loop)
def alce_autoais(data, entails, at_most_citations=None):
    """ALCE's ``compute_autoais`` as ``eval.py`` computes it, step by step, with the
    sentences given (no tokeniser) and ``entails(item, sentence, passages)`` standing for
    ``_run_nli_autoais`` of the passages and the sentence (1 or 0): each item
    ``{"sents": [[doc index, ...], ...], "docs": n}``. Returns the per-item recall and
    precision (not × 100)."""
    recall, precision = [], []
    for item in data:
        sents = item["sents"]
        if len(sents) == 0:
            continue
        entail = 0
        entail_prec = 0
        total_citations = 0
        for sent_id, ref in enumerate(sents):
            ref = list(ref)
            joint_entail = -1
            if len(ref) == 0:
                joint_entail = 0
            elif any(ref_id >= item["docs"] for ref_id in ref):
                joint_entail = 0
            else:
                if at_most_citations is not None:
                    ref = ref[:at_most_citations]
                total_citations += len(ref)
            if joint_entail == -1:
                joint_entail = entails(item, sent_id, tuple(ref))
            entail += joint_entail
            if joint_entail and len(ref) > 1:
                for psgs_id in ref:
                    nli_result = entails(item, sent_id, (psgs_id,))
                    if not nli_result:
                        subset_exclude = list(ref)
                        subset_exclude.remove(psgs_id)
                        nli_result = entails(item, sent_id, tuple(subset_exclude))
                        if not nli_result:
                            entail_prec += 1
                    else:
                        entail_prec += 1
            else:
                entail_prec += joint_entail
        recall.append(entail / len(sents))
        precision.append(entail_prec / total_citations if total_citations > 0 else 0)
    return recall, precision


# ------------------------------------------------------------- generated answers
@st.composite
def _sentence(draw, docs: int):
    """One sentence: its citations (distinct doc indices, some perhaps out of range), the
    label of its first three together, of each alone and of the others without each."""
    n = draw(st.integers(0, min(5, docs + 1)))
    refs = draw(st.lists(st.integers(0, docs), min_size=n, max_size=n, unique=True))
    alone = [draw(st.integers(0, 2)) for _ in refs]
    kept = refs[:3]
    if len(kept) == 1:
        joint = alone[0]
    else:
        joint = draw(st.integers(0, 2))
    without = []
    for k in range(len(kept)):
        # the others of a pair are one passage: its label alone
        without.append(alone[1 - k] if len(kept) == 2 else draw(st.integers(0, 2)))
    return {"refs": refs, "joint": joint, "alone": alone, "without": without}


@st.composite
def _answer(draw):
    docs = draw(st.integers(1, 6))
    return {"docs": docs, "sentences": draw(st.lists(_sentence(docs), min_size=1,
                                                     max_size=6))}


def _entails(item, sentence, passages):
    """The fixed label of ``passages`` (a tuple of doc indices) for the sentence, as ALCE
    reads it: 1 only for supported (its entailment model says yes or no)."""
    return int(item["by_set"][sentence, passages] == 2)


def _alce_item(answer, cap):
    """The ALCE item of a generated answer, the labels keyed by the passages judged."""
    by_set: dict[tuple[int, tuple[int, ...]], int] = {}
    sents = []
    for s, sentence in enumerate(answer["sentences"]):
        refs = sentence["refs"]
        sents.append(refs)
        kept = tuple(refs[:cap])
        if not kept or any(r >= answer["docs"] for r in refs):
            continue
        by_set[s, kept] = sentence["joint"]
        for k, r in enumerate(kept):
            by_set[s, (r,)] = sentence["alone"][k]
            if len(kept) > 1:
                by_set[s, tuple(x for x in kept if x != r)] = sentence["without"][k]
    return {"sents": sents, "docs": answer["docs"], "by_set": by_set}


def _record(answer, qid, run):
    """The irscale record of a generated answer: a sentence citing a passage out of range
    cites nothing (ALCE scores it 0 and counts none of its citations)."""
    sentences = []
    for sentence in answer["sentences"]:
        refs = sentence["refs"]
        if any(r >= answer["docs"] for r in refs):
            sentences.append({"citations": []})
            continue
        citations = []
        for k, r in enumerate(refs):
            c = {"docid": f"d{r}", "support": LABELS[sentence["alone"][k]]}
            if k < len(sentence["without"]) and len(refs) > 1:
                c["without"] = LABELS[sentence["without"][k]]
            citations.append(c)
        sentences.append({"support": LABELS[sentence["joint"]] if refs else
                          "not_supported", "citations": citations})
    return {"qid": qid, "run_id": run, "sentences": sentences}


def values(evaluation) -> dict[tuple[str, str, str], float]:
    """(run, topic, measure) → value of every per-topic row."""
    return {(r.run, r.topic, r.measure): r.value for r in evaluation.per_topic().itertuples()}


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(_answer(), min_size=1, max_size=6))
def test_equal_to_alce(answers):
    """citation_recall and citation_precision of every answer are ALCE's, with its cap of
    three citations (``--at_most_citations 3``, ``max_citations=3``), and their means
    ALCE's macro averages."""
    records = [_record(a, f"q{k}", "run") for k, a in enumerate(answers)]
    e = evaluate_citations(records, ["citation_recall", "citation_precision"],
                           max_citations=3)
    recall, precision = alce_autoais([_alce_item(a, 3) for a in answers], _entails, 3)
    got = values(e)
    for k in range(len(answers)):
        assert got["run", f"q{k}", "citation_recall"] == pytest.approx(recall[k], abs=1e-12)
        assert got["run", f"q{k}", "citation_precision"] == pytest.approx(precision[k],
                                                                          abs=1e-12)
    means = e.mean().loc["run"]
    assert means["citation_recall"] == pytest.approx(np.mean(recall), abs=1e-12)
    assert means["citation_precision"] == pytest.approx(np.mean(precision), abs=1e-12)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(_answer(), min_size=1, max_size=6))
def test_support_scores_and_ais_by_definition(answers):
    """ais, support_precision and support_recall of every answer (all its citations) equal
    their definitions written out here."""
    records = [_record(a, f"q{k}", "run") for k, a in enumerate(answers)]
    got = values(evaluate_citations(records, ["ais", "support_precision",
                                              "support_recall"]))
    for k, answer in enumerate(answers):
        joint, pairs, best = [], [], []
        for s in answer["sentences"]:
            refs = s["refs"]
            valid = bool(refs) and all(r < answer["docs"] for r in refs)
            weights = [WEIGHT[a] for a in s["alone"]] if valid else []
            joint.append(WEIGHT[s["joint"]] if valid else 0.0)
            pairs += weights
            best.append(max(weights, default=0.0))
        assert got["run", f"q{k}", "ais"] == pytest.approx(np.mean(joint), abs=1e-12)
        assert got["run", f"q{k}", "support_precision"] == pytest.approx(
            np.mean(pairs) if pairs else 0.0, abs=1e-12)
        assert got["run", f"q{k}", "support_recall"] == pytest.approx(np.mean(best),
                                                                      abs=1e-12)


# ------------------------------------------------------------------ by hand
def cite(docid, support=None, without=None):
    c = {"docid": docid}
    if support is not None:
        c["support"] = support
    if without is not None:
        c["without"] = without
    return c


def answer(*sentences, qid="q", run="r"):
    return {"qid": qid, "run_id": run, "sentences": list(sentences)}


MEASURES = ["citation_recall", "citation_precision", "ais", "support_precision",
            "support_recall"]


@pytest.mark.parametrize(("sentences", "expected"), [
    # no citation at all: every measure 0 (precision: ALCE's 0 for an answer citing none)
    (({"citations": []}, {"citations": []}), [0, 0, 0, 0, 0]),
    # one citation, supported; one citation, partially (ALCE: not entailed)
    (({"citations": [cite("d1", "supported")]},
      {"citations": [cite("d2", "partially_supported")]}), [1 / 2, 1 / 2, 3 / 4, 3 / 4, 3 / 4]),
    # a citation that adds nothing: d2 alone does not support, and d1 without it does
    (({"support": "supported", "citations": [cite("d1", "supported", "not_supported"),
                                             cite("d2", "not_supported", "supported")]},),
     [1, 1 / 2, 1, 1 / 2, 1]),
    # both needed: neither alone, neither left out keeps the support
    (({"support": "supported", "citations": [cite("d1", "partially_supported",
                                                  "partially_supported"),
                                             cite("d2", "partially_supported",
                                                  "partially_supported")]},),
     [1, 1, 1, 1 / 2, 1 / 2]),
    # all unsupported
    (({"support": "not_supported", "citations": [cite("d1", "not_supported"),
                                                 cite("d2", "not_supported")]},
      {"citations": [cite("d3", "not_supported")]}), [0, 0, 0, 0, 0]),
    # the module's worked answer: 2/3 everywhere but ais (j: 1, 0, 1)
    (({"citations": [cite("c1", 1)]}, {"citations": []},
      {"support": 1, "citations": [cite("c2", 0, 1), cite("c3", 1)]}),
     [2 / 3, 2 / 3, 2 / 3, 2 / 3, 2 / 3]),
], ids=["no-citation", "one-citation", "adds-nothing", "both-needed", "all-unsupported",
        "worked"])
def test_by_hand(sentences, expected):
    e = evaluate_citations([answer(*sentences)], MEASURES)
    assert e.per_topic().value.tolist() == pytest.approx(expected, abs=1e-15)


def test_cap_counts_the_first_citations():
    """max_citations=1: the second citation is not counted (its labels not read)."""
    record = answer({"support": "supported", "citations": [cite("d1", "supported"),
                                                           {"docid": "d2"}]})
    e = evaluate_citations([record], ["citation_precision", "support_precision"],
                           max_citations=1)
    assert e.per_topic().value.tolist() == [1.0, 1.0]
    with pytest.raises(InputFormatError, match="sentence 1, citation 2 has no 'support'"):
        evaluate_citations([record], ["support_precision"])


def test_missing_label_names_file_line_sentence():
    """A label the measure reads and the record lacks: file, line, sentence, citation."""
    record = answer({"citations": []}, {"support": "supported",
                                        "citations": [cite("d1", "not_supported"),
                                                      cite("d2", "supported"),
                                                      cite("d3", "supported")]})
    with pytest.raises(InputFormatError, match=r"<citations>, line 1: sentence 2, "
                                               r"citation 1 has no 'without'"):
        evaluate_citations([record], ["citation_precision"])
    # recall reads the joint label only
    assert evaluate_citations([record], ["citation_recall"]).per_topic().value[0] == 0.5


def test_two_citations_without_is_the_other_alone():
    """Of two citations, the others without one are the other: its label alone stands for
    a ``without`` not given (c2 alone supports, so c1 is superfluous)."""
    record = answer({"support": "supported", "citations": [cite("c1", "partially_supported"),
                                                           cite("c2", "supported")]})
    e = evaluate_citations([record], ["citation_precision"])
    assert e.per_topic().value.tolist() == [0.5]
    three = answer({"support": "supported", "citations": [
        cite("c1", "partially_supported"), cite("c2", "supported"), cite("c3", "supported")]})
    with pytest.raises(InputFormatError, match="citation 1 has no 'without'"):
        evaluate_citations([three], ["citation_precision"])


def test_rag_track_layout():
    """The RAG track's answer: citations as positions in references, their labels as a
    list beside them (its eval_scores)."""
    rag = {"topic_id": "2024-1", "run_id": "r", "references": ["s0", "s1"], "answer": [
        {"text": "a", "citations": [0, 1], "citation_support": ["FS", "PS"]},
        {"text": "b", "citations": [1], "citation_support": ["NS"]}]}
    e = evaluate_citations([rag], ["support_precision", "support_recall"])
    assert e.per_topic().value.tolist() == pytest.approx([1.5 / 3, 1 / 2])


def test_statistics_apply():
    """The result is an Evaluation: a paired comparison as for any measure."""
    records = []
    for t in range(6):
        records.append(answer({"citations": [cite("d", "not_supported")]}, qid=f"q{t}",
                              run="base"))
        records.append(answer({"citations": [cite("d", LABELS[t % 3])]}, qid=f"q{t}",
                              run="new"))
    e = evaluate_citations(records, ["citation_recall", "ais"])
    table = e.compare("base", measures=["citation_recall", "ais"]).to_frame()
    assert table.delta.tolist() == pytest.approx([2 / 6, 3 / 6])


def test_cli_prints_the_api_values(tmp_path, capsys):
    """``irscale text citations -q`` prints the per-topic values of evaluate_citations."""
    from irscale.cli.main import main

    records = [answer({"citations": [cite("d1", "supported")]}, {"citations": []},
                      qid="q1", run="sysA"),
               answer({"citations": [cite("d2", "partially_supported")]}, qid="q2",
                      run="sysA")]
    path = tmp_path / "cite.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["text", "citations", str(path), "-q", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    rows = values(evaluate_citations(str(path)))
    assert len(rows) == 10
    for (run, topic, measure), value in rows.items():
        assert f"{run},{topic},{measure},{float(value)!r}\n" in out.replace("\r", "")


# ------------------------------------------------- a model's labels corrected on a human sample
def _answer(qid: str, run: str, labels: list[list[str]], joint: list[str]) -> dict:
    """An answer whose sentence k cites passages labelled ``labels[k]`` (each passage
    alone, its ``without`` the same label), the joint label ``joint[k]`` (of a sentence
    citing one passage: that passage's; citing none: not supported)."""
    return {"qid": qid, "run_id": run, "sentences": [
        {"support": {0: "not_supported", 1: cites[0] if cites else j}.get(len(cites), j),
         "citations": [{"docid": f"d{i}", "support": a, "without": a}
                       for i, a in enumerate(cites)]}
        for cites, j in zip(labels, joint, strict=True)]}


#: Three answers of run sysM (ais 1, 1/2, 1 under the model's labels); a human sample of
#: two of them (ais 1/2, 1/2).
PPI_MODEL = [_answer("q1", "sysM", [["supported"], ["partially_supported", "supported"]],
                     ["supported", "supported"]),
             _answer("q2", "sysM", [["not_supported"], ["supported"]],
                     ["not_supported", "supported"]),
             _answer("q3", "sysM", [["supported"], ["supported", "supported"]],
                     ["supported", "supported"])]
PPI_HUMAN = [_answer("q1", "sysM", [["not_supported"], ["supported", "supported"]],
                     ["not_supported", "supported"]),
             _answer("q2", "sysM", [["supported"], ["not_supported"]],
                     ["supported", "not_supported"])]


def test_human_sample_by_hand():
    """ais, λ = 1 (PPI): model mean (1 + 1/2 + 1)/3 = 5/6; y − ŷ of the two sampled
    answers: 1/2 − 1, 1/2 − 1/2, mean −1/4: ppi = 5/6 − 1/4 = 7/12. SE² = var(ŷ)/3 +
    var(y − ŷ)/2 (divisor the count) = (1/18)/3 + (1/16)/2; the human sample alone: 1/2,
    SE 0."""
    found = evaluate_citations(PPI_MODEL, "ais", human_sample=PPI_HUMAN, tuning="ppi",
                               alpha=0.05)
    row = found.to_frame().iloc[0]
    se = np.sqrt(1 / 54 + 1 / 32)
    assert (row["measure"], row["run"], row["topic"]) == ("ais", "sysM", "all")
    assert row["model"] == pytest.approx(5 / 6)
    assert row["ppi"] == pytest.approx(7 / 12)
    assert row["correction"] == pytest.approx(-1 / 4)
    assert row["ppi_high"] - row["ppi"] == pytest.approx(1.959963984540054 * se)
    assert (row["human"], row["human_low"], row["human_high"]) == pytest.approx((0.5,) * 3)
    assert (row["lam"], row["labelled"], row["units"]) == (1.0, 2, 3)
    answers = found.to_frame(per_topic=True, summary=False)
    assert answers["labelled"].tolist() == [1, 1, 0]
    assert answers["ppi"].isna().all()


def _collection(rng: np.random.Generator, runs: int, answers: int) -> tuple[list, list]:
    """Model and truth judgments of ``answers`` answers of each run: the model's labels
    agree with the truth's 70% of the time."""
    model, truth = [], []
    for r in range(runs):
        for q in range(answers):
            sizes = rng.integers(0, 4, rng.integers(1, 5))
            true = [[LABELS[k] for k in rng.integers(0, 3, n)] for n in sizes]
            true_joint = [LABELS[k] for k in rng.integers(0, 3, len(sizes))]
            flip = [[a if rng.random() < 0.7 else LABELS[rng.integers(0, 3)] for a in s]
                    for s in true]
            flip_joint = [j if rng.random() < 0.7 else LABELS[rng.integers(0, 3)]
                          for j in true_joint]
            truth.append(_answer(f"q{q}", f"r{r}", true, true_joint))
            model.append(_answer(f"q{q}", f"r{r}", flip, flip_joint))
    return model, truth


@pytest.mark.parametrize(("tuning", "lam"), [("ppi++", None), ("ppi", 1), ("classical", 0)])
@pytest.mark.parametrize("measure", ["citation_recall", "citation_precision", "ais",
                                     "support_precision", "support_recall"])
def test_human_sample_equals_ppi_python(tuning, lam, measure):
    """The answers design is ppi-python's ppi_mean_ci (and its point estimate) on the
    per-answer scores of each run: human of the sampled answers, model of all."""
    ppi_py = pytest.importorskip("ppi_py")
    rng = np.random.default_rng(11)
    model, truth = _collection(rng, 2, 30)
    chosen = sorted(rng.choice(len(model), 24, replace=False).tolist())
    found = evaluate_citations(model, measure, human_sample=[truth[k] for k in chosen],
                               tuning=tuning, alpha=0.1).to_frame()
    y = citation_values(read_citations(truth), [measure])[measure]  # input order
    yhat = citation_values(read_citations(model), [measure])[measure]
    for r in range(2):
        inside = np.arange(30 * r, 30 * (r + 1))
        picked = np.array([k for k in chosen if 30 * r <= k < 30 * (r + 1)])
        low, high = ppi_py.ppi_mean_ci(y[picked], yhat[picked], yhat[inside], alpha=0.1,
                                       lam=lam)
        point = ppi_py.ppi_mean_pointestimate(y[picked], yhat[picked], yhat[inside], lam=lam)
        row = found.iloc[r]
        assert row["run"] == f"r{r}"
        assert row["ppi"] == pytest.approx(float(np.ravel(point)[0]), rel=1e-9, abs=1e-12)
        assert row["ppi_low"] == pytest.approx(float(np.ravel(low)[0]), rel=1e-9, abs=1e-12)
        assert row["ppi_high"] == pytest.approx(float(np.ravel(high)[0]), rel=1e-9, abs=1e-12)
        assert row["model"] == pytest.approx(float(yhat[inside].mean()), rel=1e-12)


# ------------------------------------------------- a human sample of the sentences
def _sentences_sampled(truth: list[dict], chosen: set[int]) -> list[dict]:
    """The human records of the sentences ``chosen`` (flat indices over every answer's
    sentences): every sentence of every answer listed, the chosen ones with their true
    labels, the others with none."""
    out, k = [], 0
    for record in truth:
        sentences = []
        for sentence in record["sentences"]:
            sentences.append(sentence if k in chosen else {"citations": [
                {"docid": c["docid"]} for c in sentence["citations"]]})
            k += 1
        out.append({**record, "sentences": sentences})
    return out


def _sentence_values(model: list[dict], truth: list[dict], measure: str
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per sentence z under the truth and the model (``z = P_s·c·N``, ``c = 1/(T_s·D_a)``,
    the run's sentences P_s and answers T_s), its run and the model's support code."""
    from irscale.text.citations import sentence_scores, sentence_support

    m, t = read_citations(model), read_citations(truth)
    top, bottom = sentence_scores(m, measure)
    true_top = sentence_scores(t, measure)[0]
    total = np.bincount(m.sentence, weights=bottom)
    c = np.divide(1.0, total, out=np.zeros(len(total)), where=total > 0)[m.sentence]
    run = np.asarray(m.run)[m.sentence]
    scale = np.array([(run == r).sum() / m.run.count(r) for r in run])
    return scale * c * true_top, scale * c * top, run, sentence_support(m, "the test")


@pytest.mark.parametrize(("tuning", "lam"), [("ppi++", None), ("ppi", 1), ("classical", 0)])
@pytest.mark.parametrize("measure", ["citation_recall", "citation_precision", "ais",
                                     "support_precision", "support_recall"])
def test_sentence_designs_equal_ppi_python(tuning, lam, measure):
    """The uniform design is ppi-python's ppi_mean_ci (and its point estimate) on the
    sentences' z = P_s·c·N of each run (human of the sampled sentences, model of all); the
    stratified design is ppi-python's per stratum of the model's support, weighted by the
    strata's shares (the variance by their squares)."""
    ppi_py = pytest.importorskip("ppi_py")
    from scipy.stats import norm

    rng = np.random.default_rng(5)
    model, truth = _collection(rng, 2, 30)
    z, zhat, run, support = _sentence_values(model, truth, measure)
    chosen = np.sort(rng.choice(len(z), 90, replace=False))
    found = evaluate_citations(model, measure, human_sample=_sentences_sampled(
        truth, set(chosen.tolist())), design="uniform", tuning=tuning, alpha=0.1).to_frame()
    for r, row in zip(("r0", "r1"), found.itertuples(), strict=True):
        inside = run == r
        picked = chosen[run[chosen] == r]
        low, high = ppi_py.ppi_mean_ci(z[picked], zhat[picked], zhat[inside], alpha=0.1,
                                       lam=lam)
        point = ppi_py.ppi_mean_pointestimate(z[picked], zhat[picked], zhat[inside], lam=lam)
        assert row.run == r and row.labelled == len(picked) and row.units == inside.sum()
        assert row.ppi == pytest.approx(float(np.ravel(point)[0]), rel=1e-9, abs=1e-12)
        assert row.ppi_low == pytest.approx(float(np.ravel(low)[0]), rel=1e-9, abs=1e-12)
        assert row.ppi_high == pytest.approx(float(np.ravel(high)[0]), rel=1e-9, abs=1e-12)
        assert row.model == pytest.approx(float(zhat[inside].mean()), rel=1e-12)
    strata = np.concatenate([rng.choice(np.flatnonzero((run == r) & (support == h)), 8,
                                        replace=False) for r in ("r0", "r1")
                             for h in range(3)])
    found = evaluate_citations(model, measure, human_sample=_sentences_sampled(
        truth, set(strata.tolist())), design="stratified", tuning=tuning,
        alpha=0.1).to_frame()
    q = norm.ppf(0.95)
    for r, row in zip(("r0", "r1"), found.itertuples(), strict=True):
        estimate = variance = 0.0
        for h in range(3):
            inside = (run == r) & (support == h)
            picked = strata[inside[strata]]
            weight = inside.sum() / (run == r).sum()
            # a stratum whose model values are all equal: λ = 0 (PPI++'s 0/0, irscale's)
            tuned = 0 if lam is None and np.ptp(zhat[inside]) == 0 else lam
            low, high = ppi_py.ppi_mean_ci(z[picked], zhat[picked], zhat[inside],
                                           alpha=0.1, lam=tuned)
            estimate += weight * float(np.ravel(ppi_py.ppi_mean_pointestimate(
                z[picked], zhat[picked], zhat[inside], lam=tuned))[0])
            variance += (weight * float(np.ravel(high - low)[0]) / (2 * q)) ** 2
        assert row.ppi == pytest.approx(estimate, rel=1e-9, abs=1e-12)
        assert row.ppi_high - row.ppi == pytest.approx(q * np.sqrt(variance), rel=1e-6,
                                                       abs=1e-12)

"""irscale.labels.audit against its references: the agreement against scikit-learn's
``cohen_kappa_score`` (every weighting) and the ``krippendorff`` package, τ_b against
scipy's ``kendalltau``, RBO against the ``rbo`` package, the bias model against
statsmodels' MixedLM, and the same of the audits of nugget assignments and of citation
support labels on generated files;
and simulations: a judge that upgrades one run's documents is flagged with high power, a
judge with no bias on any run raises false alarms at most at α."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from irscale.datasets import synthetic_collection
from irscale.errors import AlignmentError, InputError, MeasureError, ParameterError
from irscale.labels import audit, audit_assignments, audit_citations
from irscale.labels.audit import (
    BOTH,
    HUMAN_ONLY,
    _agreement,
    _bias,
    _confusions,
    _rankings,
)

from .oracle_imports import lazy_importorskip

sklearn_metrics = lazy_importorskip("sklearn.metrics")
krippendorff = lazy_importorskip("krippendorff")
rbo_package = lazy_importorskip("rbo")
sps = lazy_importorskip("scipy.stats")
sm = lazy_importorskip("statsmodels.api")


def qrels_frame(qrels, rel: np.ndarray | None = None) -> pd.DataFrame:
    """``qrels`` as a frame, its grades replaced by ``rel`` where given."""
    return pd.DataFrame({"query_id": qrels.topic.to_pylist(), "doc_id": qrels.docno.to_pylist(),
                         "relevance": np.asarray(qrels.rel) if rel is None else rel})


def noisy(qrels, share: float, seed: int) -> pd.DataFrame:
    """``qrels`` with a ``share`` of the grades redrawn uniformly in 0..2."""
    rng = np.random.default_rng(seed)
    rel = np.asarray(qrels.rel).copy()
    flip = rng.random(len(rel)) < share
    rel[flip] = rng.integers(0, 3, int(flip.sum()))
    return qrels_frame(qrels, rel)


@pytest.fixture(scope="module")
def collection():
    return synthetic_collection(n_topics=15, pool_size=40, depth=30,
                                qualities=(0.3, 0.6, 0.9, 1.2, 1.5, 1.8), seed=3)


@pytest.fixture(scope="module")
def audited(collection):
    judge = noisy(collection.qrels, 0.25, 1)
    return judge, audit(collection.qrels, {"noisy": judge}, list(collection.runs), n_boot=50,
                        top_k=3)


def test_agreement_is_scikit_learn_and_krippendorff(collection, audited):
    """κ unweighted, linear, quadratic = ``cohen_kappa_score``; α ordinal = the
    ``krippendorff`` package's, over the pairs both judge."""
    judge, result = audited
    human = qrels_frame(collection.qrels)
    both = human.merge(judge, on=["query_id", "doc_id"], suffixes=("_h", "_j"))
    h, j = both["relevance_h"].to_numpy(), both["relevance_j"].to_numpy()
    found = result.judge("noisy").agreement.set_index("statistic")["estimate"]
    for name, weights in (("kappa", None), ("kappa_linear", "linear"),
                          ("kappa_quadratic", "quadratic")):
        assert found[name] == pytest.approx(
            sklearn_metrics.cohen_kappa_score(j, h, weights=weights), abs=1e-12)
    assert found["alpha_ordinal"] == pytest.approx(krippendorff.alpha(
        reliability_data=np.vstack([h, j]).astype(float), level_of_measurement="ordinal",
        value_domain=np.unique(np.concatenate([h, j]))), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_agreement_of_random_labels(seed):
    """Random confusions over 2 to 5 grades (some unused by one side): κ and α as the
    references."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    grades = np.sort(rng.choice(10, k, replace=False))
    h = rng.choice(grades, 60)
    j = np.where(rng.random(60) < 0.6, h, rng.choice(grades, 60))
    both = pd.DataFrame({"topic": rng.choice(["1", "2", "3"], 60), "rel_human": h,
                         "rel_judge": j})
    used = np.unique(np.concatenate([h, j]))
    ours = _agreement(_confusions(both, ["1", "2", "3"], used).sum(axis=0), used)
    for s, weights in enumerate((None, "linear", "quadratic")):
        assert ours[s] == pytest.approx(sklearn_metrics.cohen_kappa_score(j, h,
                                                                          weights=weights))
    assert ours[3] == pytest.approx(krippendorff.alpha(
        reliability_data=np.vstack([h, j]).astype(float), level_of_measurement="ordinal",
        value_domain=used))


@pytest.mark.parametrize("seed", range(8))
def test_rankings_are_scipy_and_the_rbo_package(seed):
    """τ_b = scipy's ``kendalltau`` (ties included), RBO = the ``rbo`` package's
    ``rbo_ext`` and the top-k agreement the overlap of the top k, without ties."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 25))
    x, y = rng.permutation(n).astype(float), rng.permutation(n).astype(float)
    p, k = 0.8, int(rng.integers(1, n + 1))
    tau_b, _, rbo_ext, top = _rankings(x[None], y[None], p, k)[0]
    assert tau_b == pytest.approx(sps.kendalltau(x, y).statistic, abs=1e-12)
    rx, ry = np.argsort(-x).tolist(), np.argsort(-y).tolist()
    assert rbo_ext == pytest.approx(rbo_package.RankingSimilarity(rx, ry).rbo_ext(p=p),
                                    abs=1e-12)
    assert top == pytest.approx(len(set(rx[:k]) & set(ry[:k])) / k)
    tied = np.round(y / 3)  # ties: τ_b is still scipy's
    assert _rankings(x[None], tied[None], p, k)[0, 0] == pytest.approx(
        sps.kendalltau(x, tied).statistic, abs=1e-12)


def test_bootstrap_rows_are_the_vectorised_tau(audited):
    """The τ_b of the audit is that of the runs' means (checked against scipy above), and
    its interval holds the estimate."""
    _, result = audited
    row = result.judge("noisy").ranking.set_index("statistic").loc["tau_b"]
    assert row["low"] <= row["estimate"] <= row["high"]
    assert row["replicates"] == 50


def test_bias_model_is_statsmodels_mixedlm():
    """The run effects and their covariance (REML, topic random intercept) are
    statsmodels' MixedLM's; the contrasts' standard errors follow."""
    rng = np.random.default_rng(4)
    t, r = 12, 4
    diff = rng.normal(0, 0.05, (t, r)) + rng.normal(0, 0.03, (t, 1)) + [0.0, 0.02, 0.0, -0.01]
    names = [f"r{i}" for i in range(r)]
    ours = _bias(diff, names, "holm", 0.05)
    frame = pd.DataFrame({"y": diff.ravel(), "topic": np.repeat(np.arange(t), r),
                          "run": np.tile(np.arange(r), t)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = sm.MixedLM.from_formula("y ~ 0 + C(run)", frame, groups="topic").fit(reml=True)
    beta = np.asarray(fit.fe_params)
    cov = np.asarray(fit.cov_params())[:r, :r]
    centred = np.eye(r) - 1 / r
    assert ours["beta"].to_numpy() == pytest.approx(beta, abs=1e-8)
    assert ours["se"].to_numpy() == pytest.approx(
        np.sqrt(np.einsum("ri,ij,rj->r", centred, cov, centred)), rel=1e-4)


def _planted(seed: int, upgrade: bool) -> bool:
    """One small collection of runs of equal quality; the judge redraws 10 % of the grades
    at random, and (``upgrade``) also labels 2 every non-relevant document the first run
    retrieves in its top 10. Whether the first run (``upgrade``) or any run (otherwise) is
    flagged."""
    c = synthetic_collection(n_topics=12, pool_size=30, depth=15, qualities=(1.0,) * 5,
                             seed=seed)
    judge = noisy(c.qrels, 0.10, seed + 1000)
    if upgrade:
        first = c.runs[0]
        top = pd.DataFrame({"query_id": first.topic.to_pylist(),
                            "doc_id": first.docno.to_pylist(),
                            "rank": np.tile(np.arange(15), 12)})
        top = top[top["rank"] < 10]
        keys = judge.merge(top, on=["query_id", "doc_id"], how="left")["rank"].notna()
        judge.loc[keys.to_numpy() & (judge["relevance"] == 0).to_numpy(), "relevance"] = 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bias = audit(c.qrels, {"j": judge}, list(c.runs), n_boot=2, top_k=1).judges[0].bias
    return bool(bias["flagged"].iloc[0]) if upgrade else bool(bias["flagged"].any())


def test_a_planted_bias_is_flagged_and_no_bias_rarely():
    """Power: the upgraded run flagged in 9 of 10 collections at least; false alarms (any
    run flagged, Holm at α = 0.05) in at most 4 of 24 (P(X ≥ 5) = 0.03 for X ~ B(24,
    0.05): a family-wise rate above α fails it more often than not beyond about 0.15)."""
    assert sum(_planted(seed, True) for seed in range(10)) >= 9
    assert sum(_planted(seed, False) for seed in range(100, 124)) <= 4


def test_the_same_qrels_agree_fully(collection):
    """The human qrels as a judge: every statistic 1, no bias test (no residual
    variance), every decision the same."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = audit(collection.qrels, {"same": collection.qrels}, list(collection.runs),
                      n_boot=10).judges[0]
    assert (found.agreement["estimate"] == 1).all()
    assert (found.ranking["estimate"] == 1).all()
    assert not found.bias["flagged"].any()
    assert found.verdicts()["human only"] == found.verdicts()["judge only"] == 0


def test_unjudged_and_coverage_are_counted(collection):
    """A judge of half the pairs: the pairs the humans judge alone, and every run's
    retrieved documents unjudged under each, are counted (nothing imputed)."""
    frame = qrels_frame(collection.qrels)
    half = frame.iloc[::2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = audit(collection.qrels, {"half": half}, list(collection.runs),
                      n_boot=5).judges[0]
    coverage = dict(zip(found.coverage["what"], found.coverage["count"], strict=True))
    assert coverage[BOTH] == len(half)
    assert coverage[HUMAN_ONLY] == len(frame) - len(half)
    run = collection.runs[0]
    retrieved = set(zip(run.topic.to_pylist(), run.docno.to_pylist(), strict=True))
    judged = set(zip(half["query_id"], half["doc_id"], strict=True))
    row = found.unjudged.iloc[0]
    assert row["retrieved"] == len(retrieved)
    assert row["unjudged_judge"] == len(retrieved - judged)


def test_refusals(collection):
    """No topic in common, one run, k beyond the runs, samples of one judge."""
    runs = list(collection.runs)
    other = qrels_frame(collection.qrels).assign(query_id=lambda f: "x" + f["query_id"])
    with pytest.raises(AlignmentError, match="judges no topic of the human qrels"):
        audit(collection.qrels, {"j": other}, runs)
    with pytest.raises(ParameterError, match="two runs at least"):
        audit(collection.qrels, {"j": collection.qrels}, runs[:1])
    with pytest.raises(ParameterError, match="exceeds the number of runs"):
        audit(collection.qrels, {"j": collection.qrels}, runs, top_k=7)
    with pytest.raises(ParameterError, match="two samples"):
        audit(collection.qrels, {"j": collection.qrels}, runs, samples=True)
    frame = qrels_frame(collection.qrels)
    disjoint = frame.assign(doc_id=lambda f: "new" + f["doc_id"])
    with pytest.raises(InputError, match="no \\(topic, document\\) pair in common"):
        audit(collection.qrels, {"j": disjoint}, runs)


def test_the_seed_fixes_the_intervals(collection):
    """The same seed, the same intervals."""
    judge = noisy(collection.qrels, 0.3, 9)
    runs = list(collection.runs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first, second = (audit(collection.qrels, {"j": judge}, runs, n_boot=20, rng=5)
                         .judges[0].ranking for _ in range(2))
    pd.testing.assert_frame_equal(first, second)


def test_samples_consistency_is_statsmodels_and_krippendorff(collection):
    """Three samples of one judge: Fleiss' κ is statsmodels' ``fleiss_kappa`` and α ordinal
    the ``krippendorff`` package's over the pairs every sample judges; the votes are
    audited as two more judges; the G-study's shares lie in [0, 1]."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    samples = {f"s{i}": noisy(collection.qrels, 0.2, 20 + i) for i in range(3)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = audit(collection.qrels, samples, list(collection.runs), samples=True,
                       n_boot=5)
    assert [j.judge for j in result.judges] == ["s0", "s1", "s2", "vote:majority",
                                                "vote:dawid-skene"]
    found = result.consistency.set_index("statistic")["value"]
    ratings = np.stack([s["relevance"].to_numpy() for s in samples.values()], axis=1)
    table, _ = inter_rater.aggregate_raters(ratings)
    assert found["fleiss_kappa"] == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-12)
    assert found["alpha_ordinal"] == pytest.approx(krippendorff.alpha(
        reliability_data=ratings.T.astype(float), level_of_measurement="ordinal"), abs=1e-12)
    assert found["pairs judged by every sample"] == len(ratings)
    share = found["variance share: due to the sample (the three above)"]
    assert 0 <= share <= 1
    majority = result.judge("vote:majority").agreement.set_index("statistic")["estimate"]
    single = result.judge("s0").agreement.set_index("statistic")["estimate"]
    assert majority["kappa"] > single["kappa"]  # the vote of three noisy samples agrees more


# ---------------------------------------------------------------- nugget assignments
ASSIGNMENT_NAMES = ("not_support", "partial_support", "support")


def assignment_records(grades: np.ndarray, vital: np.ndarray, keep: np.ndarray,
                       skip: set[tuple[int, int]] = frozenset()) -> list[dict]:
    """Records of ``grades`` (topics × runs × nuggets), the nuggets where ``keep``, the
    (topic, run) in ``skip`` left out."""
    return [{"qid": f"t{t}", "run_id": f"r{r}", "nuggets": [
        {"text": f"n{max(k, 1)}", "importance": "vital" if vital[t, r, k] else "okay",
         "assignment": ASSIGNMENT_NAMES[grades[t, r, k]]}
        for k in range(grades.shape[2]) if keep[t, r, k]]}
        for t in range(grades.shape[0]) for r in range(grades.shape[1])
        if (t, r) not in skip and keep[t, r].any()]


def write_jsonl(path, records: list[dict]) -> str:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return str(path)


@pytest.mark.parametrize("seed", range(4))
def test_assignment_audit_against_references(seed, tmp_path):
    """On generated assignment files (a human sample of the nuggets, a record the model
    lacks, nugget texts repeated within a record): κ unweighted, linear and quadratic are
    scikit-learn's ``cohen_kappa_score`` and α ordinal the ``krippendorff`` package's over
    the items both label on the compared topics; τ_b is scipy's ``kendalltau`` of the runs'
    mean W computed here; the bias's run effects are the mean differences (a complete
    table); the items one side only labels are counted."""
    rng = np.random.default_rng(seed)
    n_t, n_r, n_k = 7, 5, 6
    quality = rng.normal(0, 0.7, n_r)
    grades = np.clip(np.round(rng.normal(1 + quality[None, :, None], 0.9,
                                         (n_t, n_r, n_k))), 0, 2).astype(int)
    model = np.where(rng.random(grades.shape) < 0.65, grades,
                     rng.integers(0, 3, grades.shape))
    vital = rng.random(grades.shape) < 0.5
    vital[:, :, :2] = True
    sampled = rng.random(grades.shape) < 0.7
    sampled[:, :, :2] = True  # (nuggets 0 and 1 share their text: both kept)
    every = np.ones(grades.shape, dtype=bool)
    human_file = write_jsonl(tmp_path / "human.jsonl",
                             assignment_records(grades, vital, sampled))
    model_file = write_jsonl(tmp_path / "model.jsonl",
                             assignment_records(model, vital, every, skip={(0, 1)}))
    result = audit_assignments(human_file, [model_file], n_boot=30, top_k=3, rng=seed)
    found = result.judge("model")
    compared = range(1, n_t)  # topic 0 lacks run 1's model record
    mask = np.zeros(grades.shape, dtype=bool)
    mask[list(compared)] = True
    h, j = grades[mask & sampled], model[mask & sampled]
    agreement = found.agreement.set_index("statistic")["estimate"]
    for name, weights in (("kappa", None), ("kappa_linear", "linear"),
                          ("kappa_quadratic", "quadratic")):
        assert agreement[name] == pytest.approx(
            sklearn_metrics.cohen_kappa_score(j, h, weights=weights), abs=1e-12)
    assert agreement["alpha_ordinal"] == pytest.approx(krippendorff.alpha(
        reliability_data=np.vstack([h, j]).astype(float), level_of_measurement="ordinal",
        value_domain=np.unique(np.concatenate([h, j]))), abs=1e-12)

    def mean_w(g: np.ndarray, keep: np.ndarray) -> np.ndarray:
        w = np.where(vital, 1.0, 0.5) * keep
        per = (w * g / 2).sum(axis=2) / w.sum(axis=2)
        return per[list(compared)]

    h_scores, j_scores = mean_w(grades, sampled), mean_w(model, every)
    ranking = found.ranking.set_index("statistic")["estimate"]
    assert ranking["tau_b"] == pytest.approx(sps.kendalltau(
        h_scores.mean(axis=0), j_scores.mean(axis=0)).statistic, abs=1e-12)
    assert found.bias["beta"].to_numpy() == pytest.approx(
        (j_scores - h_scores).mean(axis=0), abs=1e-8)
    assert found.topics == n_t - 1
    coverage = dict(zip(found.coverage["what"], found.coverage["count"], strict=True))
    assert coverage["items labelled by both (compared topics and runs)"] == h.size
    assert coverage["items labelled by the judge only (compared topics and runs)"] == \
        int((mask & ~sampled).sum())
    assert coverage["items labelled by the humans only (compared topics and runs)"] == 0
    assert coverage["records (topic, run) of the humans only"] == 1
    assert coverage["topics of the humans left out (a shared run without a record under "
                    "one side)"] == 1
    assert found.unjudged["items_both"].sum() == h.size
    again = audit_assignments(human_file, {"model": model_file}, n_boot=30, top_k=3,
                              rng=seed)
    pd.testing.assert_frame_equal(again.judge("model").ranking, found.ranking)


def test_assignment_audit_refuses_a_qrels_and_its_measures(tmp_path):
    """A qrels given as a model's assignments is refused naming its file and line, a
    measure of qrels named as unknown among the nugget measures."""
    rng = np.random.default_rng(0)
    grades = rng.integers(0, 3, (3, 3, 2))
    keep = np.ones(grades.shape, dtype=bool)
    human = assignment_records(grades, keep, keep)
    qrels = tmp_path / "judge.qrels"
    qrels.write_text("1 0 d1 1\n")
    with pytest.raises(InputError, match=r"judge\.qrels.*line 1"):
        audit_assignments(human, [str(qrels)], n_boot=10)
    with pytest.raises(MeasureError, match="ndcg"):
        audit_assignments(human, {"m": human}, measure="ndcg", n_boot=10)


# ---------------------------------------------------------------- citation support labels
SUPPORT_NAMES = ("not_supported", "partially_supported", "supported")


def support_labels(rng: np.random.Generator, quality: np.ndarray, shape: tuple[int, ...]
                   ) -> dict:
    """Human support labels of topics × runs × sentences: per sentence its cited passages
    (0 to 3) and labels ``(kind, passage) → grade``, the sentence's own under
    ``("support", "")``; a sentence citing nothing is not supported, one citing one
    passage has its citation's grade."""
    n_t, n_r, n_s = shape
    answers = {}
    for t in range(n_t):
        for r in range(n_r):
            sentences = []
            for k in range(n_s):
                cited = [f"p{t}.{r}.{k}.{c}" for c in range(rng.integers(0, 4))]
                grade = int(np.clip(np.round(rng.normal(1 + quality[r], 0.9)), 0, 2))
                labels = {("support", ""): grade if cited else 0}
                for c in cited:
                    labels[("citation support", c)] = grade if len(cited) == 1 else \
                        int(rng.integers(0, 3))
                    if len(cited) > 1:
                        labels[("without", c)] = int(rng.integers(0, 3))
                sentences.append((cited, labels))
            answers[(f"t{t}", f"r{r}")] = sentences
    return answers


def relabelled(rng: np.random.Generator, answers: dict, share: float) -> dict:
    """``answers`` with a ``share`` of the labels redrawn, the rules kept."""
    out = {}
    for key, sentences in answers.items():
        out[key] = []
        for cited, labels in sentences:
            new = {k: int(rng.integers(0, 3)) if rng.random() < share else v
                   for k, v in labels.items()}
            if not cited:
                new[("support", "")] = 0
            if len(cited) == 1:
                new[("citation support", cited[0])] = new[("support", "")]
            out[key].append((cited, new))
    return out


def support_records(answers: dict, drop: set = frozenset()) -> list[dict]:
    """The records of ``answers``, the labels named in ``drop`` ((topic, run, sentence,
    kind, passage)) left out."""
    records = []
    for (topic, run), sentences in answers.items():
        out = []
        for k, (cited, labels) in enumerate(sentences, start=1):
            def given(kind, c, labels=labels, where=(topic, run, k)):
                return (kind, c) in labels and (*where, kind, c) not in drop

            sentence = {"citations": [
                {"docid": c, **({"support": SUPPORT_NAMES[labels[("citation support", c)]]}
                                if given("citation support", c) else {}),
                 **({"without": SUPPORT_NAMES[labels[("without", c)]]}
                    if given("without", c) else {})} for c in cited]}
            if given("support", ""):
                sentence["support"] = SUPPORT_NAMES[labels[("support", "")]]
            out.append(sentence)
        records.append({"qid": topic, "run_id": run, "sentences": out})
    return records


@pytest.mark.parametrize("seed", range(3))
def test_citation_audit_against_references(seed, tmp_path):
    """On generated support judgments (a human sample of the ``without`` labels and of the
    citations' own where the sentence's stands for them, a record the model lacks): κ
    unweighted, linear and quadratic are scikit-learn's ``cohen_kappa_score`` and α
    ordinal the ``krippendorff`` package's over the labels both give on the compared
    topics, matched by (topic, run, sentence, passage, label); τ_b is scipy's
    ``kendalltau`` and RBO the ``rbo`` package's of the runs' mean citation recall and AIS
    computed here; the bias's run effects are the mean differences (a complete table),
    and statsmodels' MixedLM's; the labels one side only gives are counted."""
    rng = np.random.default_rng(seed)
    n_t, n_r, n_s = 7, 5, 4
    quality = np.linspace(-0.8, 0.8, n_r)
    human = support_labels(rng, quality, (n_t, n_r, n_s))
    model = relabelled(rng, human, 0.35)
    drop = {(t, r, k, kind, c) for (t, r), sentences in human.items()
            for k, (cited, labels) in enumerate(sentences, start=1)
            for kind, c in labels
            if (kind == "without" and rng.random() < 0.4)
            or (kind == "citation support" and len(cited) == 1 and rng.random() < 0.5)}
    human_file = write_jsonl(tmp_path / "human.jsonl", support_records(human, drop))
    del model[("t0", "r1")]
    model_file = write_jsonl(tmp_path / "model.jsonl", support_records(model))
    topics = [f"t{t}" for t in range(1, n_t)]  # t0 lacks run r1's model record
    runs = [f"r{r}" for r in range(n_r)]
    h, j = [], []
    for topic in topics:
        for run in runs:
            for k, (_, labels) in enumerate(human[(topic, run)], start=1):
                for (kind, c), grade in labels.items():
                    if (topic, run, k, kind, c) not in drop:
                        h.append(grade)
                        j.append(model[(topic, run)][k - 1][1][(kind, c)])
    for measure, credit in (("citation_recall", lambda g: float(g == 2)),
                            ("ais", lambda g: g / 2)):
        result = audit_citations(human_file, [model_file], measure=measure, n_boot=30,
                                 top_k=3, rng=seed)
        found = result.judge("model")
        agreement = found.agreement.set_index("statistic")["estimate"]
        for name, weights in (("kappa", None), ("kappa_linear", "linear"),
                              ("kappa_quadratic", "quadratic")):
            assert agreement[name] == pytest.approx(
                sklearn_metrics.cohen_kappa_score(j, h, weights=weights), abs=1e-12)
        assert agreement["alpha_ordinal"] == pytest.approx(krippendorff.alpha(
            reliability_data=np.vstack([h, j]).astype(float), level_of_measurement="ordinal",
            value_domain=np.unique(np.concatenate([h, j]))), abs=1e-12)

        def scores(answers: dict, credit=credit) -> np.ndarray:
            return np.array([[np.mean([credit(labels[("support", "")])
                                       for _, labels in answers[(topic, run)]])
                              for run in runs] for topic in topics])

        h_scores, j_scores = scores(human), scores(model)
        ranking = found.ranking.set_index("statistic")["estimate"]
        assert ranking["tau_b"] == pytest.approx(sps.kendalltau(
            h_scores.mean(axis=0), j_scores.mean(axis=0)).statistic, abs=1e-12)
        h_order = np.argsort(-h_scores.mean(axis=0), kind="stable")
        j_order = np.argsort(-j_scores.mean(axis=0), kind="stable")
        if len(set(h_scores.mean(axis=0))) == n_r and len(set(j_scores.mean(axis=0))) == n_r:
            assert ranking["rbo"] == pytest.approx(rbo_package.RankingSimilarity(
                list(h_order), list(j_order)).rbo_ext(p=0.9), abs=1e-9)
        diff = j_scores - h_scores
        assert found.bias["beta"].to_numpy() == pytest.approx(diff.mean(axis=0), abs=1e-8)
        frame = pd.DataFrame({"y": diff.ravel(), "run": np.tile(runs, len(topics)),
                              "topic": np.repeat(topics, n_r)})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = sm.MixedLM.from_formula("y ~ 0 + C(run)", frame, groups="topic").fit(
                reml=True)
        assert found.bias["beta"].to_numpy() == pytest.approx(fit.fe_params.to_numpy(),
                                                              abs=1e-6)
    assert found.topics == n_t - 1
    coverage = dict(zip(found.coverage["what"], found.coverage["count"], strict=True))
    assert coverage["items labelled by both (compared topics and runs)"] == len(h)
    assert coverage["items labelled by the judge only (compared topics and runs)"] == \
        sum(1 for t, r, *_ in drop if t in topics)
    assert coverage["items labelled by the humans only (compared topics and runs)"] == 0
    assert coverage["records (topic, run) of the humans only"] == 1
    assert found.unjudged["items_both"].sum() == len(h)


def test_citation_audit_refuses_other_answers_and_measures(tmp_path):
    """A record of the same (topic, run) citing another passage is refused naming the
    model's file, line and text; a measure of qrels is no citation measure; a model's
    file of nugget assignments is refused naming its file and line."""
    rng = np.random.default_rng(1)
    human = support_labels(rng, np.zeros(3), (3, 3, 2))
    records = support_records(human)
    other = json.loads(json.dumps(records))
    cited = next(s for s in other[4]["sentences"] if s["citations"])
    cited["citations"][0]["docid"] = "elsewhere"
    path = write_jsonl(tmp_path / "model.jsonl", other)
    with pytest.raises(InputError, match=r"model\.jsonl, line 5: .*'elsewhere'.* is here "
                                         r"and not in the human"):
        audit_citations(records, [path], n_boot=10)
    with pytest.raises(ParameterError, match="ndcg"):
        audit_citations(records, {"m": records}, measure="ndcg", n_boot=10)
    nuggets = write_jsonl(tmp_path / "nuggets.jsonl", [{"qid": "t0", "run_id": "r0",
                                                        "nuggets": []}])
    with pytest.raises(InputError, match=r"nuggets\.jsonl.*line 1"):
        audit_citations(records, [nuggets], n_boot=10)
